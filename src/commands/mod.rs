//! Subcommands that live in their own modules (the older ones are in `app.rs`).

pub mod check;
pub mod merge;
