//! pointsworth: is every unit worth its points?
//!
//! A Monte Carlo and exact balance analyzer for tabletop skirmish wargames. Data flows one
//! way: config → ruleset → engine → tallies → analysis → report. See DESIGN.md.

pub mod analysis;
pub mod app;
pub mod battle;
pub mod cancel;
pub mod cli;
pub mod commands;
pub mod config;
pub mod dice;
pub mod format;
pub mod plot;
pub mod report;
pub mod rulesets;
pub mod sim;
pub mod stats;
