//! The rules-coverage table of VSGMR v7: every rule of the rulebook, how pointsworth models it.
//! Printed in the report and by `pointsworth rules vsgmr`.
//!
//! The rows are data, one rule a line, in `coverage.tsv` beside this file (read by
//! [`coverage_table`]).

pub mod audit;

use crate::rulesets::CoverageRow;
use crate::rulesets::contract::coverage_table;

/// Every rule of the rulebook with its status in duels (open ground, lines of figures).
pub fn table() -> Vec<CoverageRow> {
    coverage_table("VSGMR v7", include_str!("coverage.tsv"))
}
