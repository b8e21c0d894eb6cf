//! The rules-coverage table of The Grunt Factor: every rule of the rulebook, how pointsworth
//! models it. Printed by `pointsworth rules grunt-factor` and in the report.
//!
//! The rows are data, one rule a line, in `coverage.tsv` beside this file (read by
//! [`coverage_table`]).

pub mod lint;

use crate::rulesets::CoverageRow;
use crate::rulesets::contract::coverage_table;

/// Every rule of the rulebook with its status in duels between squads on open ground and in the
/// skirmish (`skirmish.rs`).
pub fn table() -> Vec<CoverageRow> {
    coverage_table("TGF", include_str!("coverage.tsv"))
}
