//! Subcommand implementations that live outside `app.rs`, one module each.
//!
//! Layer: cli → app/commands → report → analysis → sim and battle → rulesets → dice, stats,
//! config. A command reads and validates its input, runs analyses and prints or writes their
//! results; it names no ruleset (the generic code reaches each one through the registry's
//! `with_ruleset!` and the `Ruleset` and `Skirmish` traits), so a sixth ruleset needs no file
//! here.

pub mod check;
pub mod fair_costs;
pub mod merge;
pub mod optimal_matrix;
pub(crate) mod outputs;
pub mod skirmish;
