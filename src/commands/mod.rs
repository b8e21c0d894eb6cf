//! Subcommand implementations that live outside `app.rs`, one module each.

pub mod check;
pub mod merge;
pub mod skirmish;
