//! The rules-coverage table of Gunplay: every rule of the rulebook, how pointsworth models it.
//! Printed in the report.
//!
//! The rows are data, one rule a line, in `coverage.tsv` beside this file (read by
//! [`coverage_table`]).

use crate::rulesets::CoverageRow;
use crate::rulesets::contract::coverage_table;

/// Every rule of the rulebook with its status in duels (this release models open-ground and
/// uniform-cover fights between lines of characters; the Skirmish mission needs the battle
/// engine).
pub fn table() -> Vec<CoverageRow> {
    coverage_table("Gunplay", include_str!("coverage.tsv"))
}
