//! The end of `report.md`: the rules-coverage table (how each rule of the book is represented)
//! and the ruleset lint (printed values that look wrong, and how they are read).

use std::fmt::Write as _;

use super::Section;
use super::format::md_cell;
use crate::analysis::RulesetAnalysis;

/// "Rules coverage": every rule the ruleset lists, modeled, simplified or not modeled.
pub struct RulesCoverage;

impl Section for RulesCoverage {
    fn markdown(&self, a: &RulesetAnalysis, o: &mut String) {
        o.push_str("## Rules coverage\n\n");
        if a.coverage.is_empty() {
            o.push_str("No coverage table was given for this ruleset.\n\n");
            return;
        }
        o.push_str("| rule | source | status | note |\n|---|---|---|---|\n");
        for c in &a.coverage {
            let _ = writeln!(
                o,
                "| {} | {} | {} | {} |",
                md_cell(&c.rule),
                md_cell(&c.source),
                c.status.label(),
                md_cell(&c.note)
            );
        }
        o.push('\n');
    }
}

/// "Ruleset lint": printed values that look wrong, and how they are read (nothing when the
/// lint flags nothing).
pub struct Lint;

impl Section for Lint {
    fn markdown(&self, a: &RulesetAnalysis, o: &mut String) {
        if a.lint.is_empty() {
            return;
        }
        o.push_str("## Ruleset lint\n\n");
        o.push_str("Printed values that look like misprints or that no rule uses, and how pointsworth reads them.\n\n");
        o.push_str("| subject | finding | source |\n|---|---|---|\n");
        for f in &a.lint {
            let _ = writeln!(o, "| {} | {} | {} |", md_cell(&f.subject), md_cell(&f.finding), md_cell(&f.source));
        }
        o.push('\n');
    }
}
