//! Subcommands that live in their own module (the older ones are in `app.rs`).

pub mod fair_costs;
