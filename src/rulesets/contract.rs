//! The rulesets' contract: the vocabulary a ruleset speaks to the layers above it.
//!
//! Why here and not in `analysis`: a ruleset describes its cost list ([`UnitInfo`]), how it
//! covers its book ([`CoverageRow`]), what looks wrong in the book ([`LintFinding`]) and the
//! `[balance]` table of its config ([`BalanceConfig`]). These are words of the rulesets layer;
//! the analysis, the report and the commands read them. Were they defined in `analysis`, every
//! ruleset would import upward (issue 40, "The house plan").
//!
//! Layer: rulesets (see [`crate::rulesets`]); imports only `serde` and `config` (a refused
//! value's [`Invalid`], placed by the loader).

use serde::{Deserialize, Serialize};

use crate::config::Invalid;

/// How a rule of a rulebook is represented in the simulation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Coverage {
    /// Implemented as the rulebook (read with RULINGS.md) says.
    Modeled,
    /// Implemented with a stated simplification.
    Simplified,
    /// Not implemented; the note says why.
    NotModeled,
}

impl Coverage {
    /// The word the report prints: `modeled`, `simplified` or `not modeled`.
    pub fn label(self) -> &'static str {
        match self {
            Coverage::Modeled => "modeled",
            Coverage::Simplified => "simplified",
            Coverage::NotModeled => "not modeled",
        }
    }

    /// The status a label names (the inverse of [`Coverage::label`]); `None` for any other word.
    pub fn from_label(label: &str) -> Option<Coverage> {
        [Coverage::Modeled, Coverage::Simplified, Coverage::NotModeled].into_iter().find(|c| c.label() == label)
    }
}

/// A reading switch of a ruleset's `[rules]` table: a rule a player could read two (or more)
/// ways where the reading can move the numbers (docs/rulings/readings.md). The report's "Which
/// readings decide the verdicts" plays each value beside the one in force.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reading {
    /// The `[rules]` key, e.g. `self_blast`.
    pub key: &'static str,
    /// Its values, the default (today's reading) first, e.g. `["caught", "spared"]`.
    pub values: &'static [&'static str],
    /// The rules-coverage row it belongs to, e.g. "Blast radius".
    pub rule: &'static str,
}

/// One row of a ruleset's rules-coverage table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CoverageRow {
    /// The rule in the rulebook's words, e.g. "Fast Shot".
    pub rule: String,
    /// Where the rulebook states it, e.g. "GnG 1.5, Unit Tags".
    pub source: String,
    pub status: Coverage,
    /// How it is simplified or why it is not modeled; empty when modeled as written.
    pub note: String,
}

/// The rows of a ruleset's rules-coverage table from its `coverage.tsv` (compiled in with
/// `include_str!`), in the file's order. The file is data, one rule a line after a header line:
/// four fields separated by tabs — the rule in the book's words, the section of the book that
/// states it, the status ([`Coverage::label`]: `modeled`, `simplified`, `not modeled`), and the
/// note (empty when modeled as written; a line may end after the status). Each row's source is `"{book}, {section}"` (e.g. book
/// `"GnG 1.5"`, section `"Unit Tags"`).
///
/// # Panics
/// When a line has not four fields or names no status: the file ships inside the binary, so
/// this is a build defect, caught by the test that reads every ruleset's table.
pub fn coverage_table(book: &str, tsv: &str) -> Vec<CoverageRow> {
    tsv.lines()
        .enumerate()
        .skip(1)
        .map(|(i, line)| {
            let mut f = line.split('\t');
            let (Some(rule), Some(section), Some(status), note, None) =
                (f.next(), f.next(), f.next().and_then(Coverage::from_label), f.next().unwrap_or(""), f.next())
            else {
                panic!("{book} coverage table, line {}: want rule, section, status, note separated by tabs", i + 1)
            };
            CoverageRow { rule: rule.to_string(), source: format!("{book}, {section}"), status, note: note.to_string() }
        })
        .collect()
}

/// One finding of a ruleset lint (`pointsworth rules RULESET`): a printed value that looks like
/// a misprint, a stat no rule uses, a price that disagrees with the book's own formula...
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LintFinding {
    /// What it is about, e.g. "Assault rifle, long range".
    pub subject: String,
    /// What looks wrong and how pointsworth reads it.
    pub finding: String,
    /// Where the rulebook prints it, e.g. "The Grunt Factor, Armory".
    pub source: String,
}

/// One unit of a cost list as the report shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UnitInfo {
    /// Kebab-case id, e.g. `heavy-infantry`.
    pub id: String,
    /// Display name as printed in the rulebook, e.g. "Heavy Infantry".
    pub name: String,
    /// Points cost from the config.
    pub cost: f64,
    /// "infantry", "vehicle", ... as the ruleset classifies it.
    pub kind: String,
}

/// The `[balance]` table of a ruleset's config (every key optional).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BalanceConfig {
    /// Granularity of the cost list in points (GnG 5, AMC 5, VSGMR ½); balanced costs are
    /// multiples of it.
    pub cost_step: f64,
    /// A list is balanced when every efficiency is within this of 0.5 (probability units).
    pub tolerance: f64,
    /// Trials per matchup for every evaluation of `pointsworth fair-costs` (fixed, for common
    /// random numbers). Standard error of one efficiency ≈ 0.5 / sqrt(trials · (units − 1)).
    pub trials: u64,
    /// Trials per matchup when `pointsworth report` runs the solver (coarser, to stay fast).
    pub report_trials: u64,
    /// Damped fixed-point iterations of the balanced list before rounding.
    pub max_iterations: u32,
    /// Unit id whose cost is held fixed (e.g. `"rifle"`: rifle = 10 points). With an anchor the
    /// balanced list keeps that cost instead of the mean cost, and every other unit gets a
    /// derived cost: its fair cost with every other unit at its balanced cost. `None`: keep
    /// the mean cost, no derived costs.
    pub anchor: Option<String>,
}

impl Default for BalanceConfig {
    fn default() -> Self {
        BalanceConfig {
            cost_step: 1.0,
            tolerance: 0.02,
            trials: 20_000,
            report_trials: 6_000,
            max_iterations: 10,
            anchor: None,
        }
    }
}

impl BalanceConfig {
    /// Checks ranges; the message names the key, the error carries it for its place.
    pub fn validate(&self) -> Result<(), Invalid> {
        let bad = |key: &str, m: String| Err(Invalid::new(format!("balance.{key}"), m));
        if !(self.cost_step > 0.0 && self.cost_step <= 1000.0) {
            return bad(
                "cost_step",
                format!("[balance] cost_step must be more than 0 and at most 1000 points, got {}", self.cost_step),
            );
        }
        if !(self.tolerance > 0.0 && self.tolerance < 0.5) {
            return bad("tolerance", format!("[balance] tolerance must be in (0, 0.5), got {}", self.tolerance));
        }
        for (k, v) in [("trials", self.trials), ("report_trials", self.report_trials)] {
            if !(100..=100_000_000).contains(&v) {
                return bad(k, format!("[balance] {k} must be 100 to 100000000, got {v}"));
            }
        }
        if self.max_iterations > 100 {
            return bad(
                "max_iterations",
                format!("[balance] max_iterations must be 0 to 100, got {}", self.max_iterations),
            );
        }
        Ok(())
    }

    /// Checks that the anchor, if any, names a unit of the cost list (by id); the message lists
    /// the valid ids.
    pub fn check_anchor(&self, units: &[UnitInfo]) -> Result<(), Invalid> {
        match &self.anchor {
            Some(id) if !units.iter().any(|u| &u.id == id) => Err(Invalid::new(
                "balance.anchor",
                format!(
                    "[balance] anchor {id:?} is not a unit; known: {}",
                    units.iter().map(|u| u.id.as_str()).collect::<Vec<_>>().join(", ")
                ),
            )),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every ruleset's `coverage.tsv` reads: each line has a rule, a section and a status, and
    /// no field carries stray white space (a tab typed as spaces would show up here).
    #[test]
    fn every_coverage_table_reads() {
        use crate::rulesets::{amc, gng, grunt_factor, gunplay, vsgmr};
        for rows in [
            amc::coverage::table(),
            gng::coverage::table(),
            grunt_factor::coverage::table(),
            gunplay::coverage::table(),
            vsgmr::coverage::table(),
        ] {
            assert!(rows.len() >= 20, "{} rows", rows.len());
            for r in &rows {
                assert!(!r.rule.is_empty() && !r.source.ends_with(", "), "{r:?}");
                for field in [&r.rule, &r.source, &r.note] {
                    assert_eq!(field.trim(), field, "{r:?}");
                }
                assert_eq!(Coverage::from_label(r.status.label()), Some(r.status));
            }
        }
        assert_eq!(Coverage::from_label("partly"), None);
    }

    /// A line without its tabs is a build defect that names the book and the line.
    #[test]
    #[should_panic(expected = "Book coverage table, line 2")]
    fn a_line_without_tabs_is_refused() {
        coverage_table("Book", "rule\tsection\tstatus\tnote\nrule section modeled\n");
    }

    #[test]
    fn a_row_reads_its_four_fields_and_a_missing_note_is_empty() {
        let rows = coverage_table("GnG 1.5", "header\nTough\tUnit Tags\tmodeled\t\nDeadly\tUnit Tags\tnot modeled\n");
        assert_eq!(
            rows[0],
            CoverageRow {
                rule: "Tough".into(),
                source: "GnG 1.5, Unit Tags".into(),
                status: Coverage::Modeled,
                note: String::new()
            }
        );
        assert_eq!((rows[1].status, rows[1].note.as_str()), (Coverage::NotModeled, ""));
    }
}
