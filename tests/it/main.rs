//! The integration tests, one binary: each module is one file of tests (the CLI through the
//! binary, the exact-vs-Monte-Carlo checks, reports, shards, ...). One binary links once and
//! lets the test harness spread every test over the cores (a binary per file linked 24 times
//! and ran them file by file). Run one file's tests with `cargo test --test it FILE::`.

mod common;

mod amc_exact_vs_monte_carlo;
mod bad_inputs;
mod balance;
mod browser;
mod cache;
mod check;
mod cli;
mod config_ranges;
mod csv_names;
mod doc_links;
mod exact_is_bitwise_repeatable;
mod exact_vs_monte_carlo;
mod fuzz_inputs;
mod grunt_factor;
mod grunt_factor_skirmish;
mod gunplay_cli;
mod gunplay_exact_vs_monte_carlo;
mod help_walk;
mod hostile_inputs;
mod interrupt;
mod output;
mod random_foreign_values;
mod random_values;
mod report_end_to_end;
mod report_snapshots;
mod shard;
mod skirmish_cli;
mod skirmish_stability;
mod thread_determinism;
mod value_stability;
mod vsgmr_exact_vs_monte_carlo;
mod vsgmr_riders;
mod vsgmr_rules;
mod vsgmr_skirmish;
mod workflow;
