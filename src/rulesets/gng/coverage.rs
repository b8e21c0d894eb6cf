//! The rules-coverage table of Guns 'N Grenades v1.5: every rule of the rulebook, how
//! pointsworth models it. Printed in the report.
//!
//! The rows are data, one rule a line, in `coverage.tsv` beside this file (read by
//! [`coverage_table`]).

use crate::rulesets::CoverageRow;
use crate::rulesets::contract::coverage_table;

/// Every rule of the rulebook with its status in duels and in the Skirmish mission
/// (`pointsworth skirmish`, the report's Skirmish section).
pub fn table() -> Vec<CoverageRow> {
    coverage_table("GnG 1.5", include_str!("coverage.tsv"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::Coverage;

    #[test]
    fn the_tank_row_says_minefields_are_not_modeled() {
        // GnG 1.5, "Vehicles": Tanks go over "all terrain except minefields"; "Terrain":
        // minefields are dangerous ground. The skirmish places no minefields, so the exception
        // is not modeled and the row may not claim it is.
        let rows = table();
        let tank = rows.iter().find(|r| r.rule.starts_with("Tanks cross")).unwrap();
        assert_eq!(tank.status, Coverage::Simplified);
        assert!(tank.note.contains("minefields not modeled"), "{}", tank.note);
        let terrain = rows.iter().find(|r| r.rule.starts_with("Terrain: rough")).unwrap();
        assert!(terrain.note.contains("never a minefield"), "{}", terrain.note);
    }
}
