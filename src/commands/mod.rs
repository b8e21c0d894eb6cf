//! Subcommand implementations that live outside `app.rs`, one module each.

pub mod skirmish;
