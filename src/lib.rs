//! pointsworth: is every unit worth its points?
//!
//! A Monte Carlo and exact balance analyzer for tabletop skirmish wargames. Data flows one
//! way: config → ruleset → engine → tallies → analysis → report. See DESIGN.md.
//!
//! Layers, imports pointing down only: `main.rs` and [`cli`] → [`commands`] → [`report`] →
//! [`analysis`] → [`sim`] → [`rulesets`] → [`battle`], [`dice`], [`stats`], [`config`],
//! [`seed`], [`shipped`] (the built-in configs), [`format`], [`csv_text`], [`term`], [`plot`], [`cancel`], [`cache`]
//! (the result cache). Each folder's module docs say what it owns and
//! what it may import; a ruleset's studies reach simulation and solving through
//! [`rulesets::engine::Engine`], implemented by the analysis and passed in.

pub mod analysis;
pub mod battle;
pub mod cache;
pub mod cancel;
pub mod cli;
pub mod commands;
pub mod config;
pub mod csv_text;
pub mod dice;
pub mod format;
pub mod plot;
pub mod report;
pub mod rulesets;
pub mod seed;
pub mod shipped;
pub mod sim;
pub mod stats;
pub mod term;
