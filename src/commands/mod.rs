//! Subcommand implementations that live outside `app.rs`, one module each.

pub mod amc;
pub mod amc_skirmish;
pub mod check;
pub mod fair_costs;
pub mod grunt_factor_skirmish;
pub mod gunplay_skirmish;
pub mod merge;
pub mod skirmish;
pub mod vsgmr;
pub mod vsgmr_skirmish;
