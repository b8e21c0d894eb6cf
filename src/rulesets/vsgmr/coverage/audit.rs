//! The cost audit: every sample army of section VII priced by the points formula (sections
//! IV–VI) against its printed points, and the entries the rules cannot resolve as printed.
//!
//! Why: VSGMR's designers price by formula, so a sample army whose printed total disagrees with
//! the formula is either a misprint or a hidden rule. The audit reports both kinds of finding
//! through the `Ruleset::lint` hook (`pointsworth rules vsgmr`, the report's "Ruleset lint") and
//! as a table in the report's VSGMR section.

use serde::{Deserialize, Serialize};

use crate::rulesets::LintFinding;
use crate::rulesets::vsgmr::{Armor, Power, Trait, Vsgmr};

/// One sample army's audit row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ArmyAudit {
    pub army: String,
    /// Printed total and the sum of the printed per-figure points.
    pub printed_points: f64,
    pub printed_lines: f64,
    /// Total by the formula.
    pub formula_points: f64,
    pub printed_figures: u32,
    pub counted_figures: u32,
    /// Figure lines whose printed points differ from the formula: (name, printed, formula).
    pub mismatches: Vec<(String, f64, f64)>,
}

impl ArmyAudit {
    /// Whether printed total, printed lines, formula and figure count all agree.
    pub fn agrees(&self) -> bool {
        self.printed_points == self.formula_points
            && self.printed_lines == self.formula_points
            && self.printed_figures == self.counted_figures
            && self.mismatches.is_empty()
    }
}

/// Audits every sample army.
pub fn audit(r: &Vsgmr) -> Vec<ArmyAudit> {
    r.armies
        .iter()
        .map(|a| {
            let mut mismatches = Vec::new();
            let (mut printed, mut formula, mut count) = (0.0, 0.0, 0);
            for f in &a.figures {
                let price = f.figure.price();
                printed += f.printed * f.count as f64;
                formula += price * f.count as f64;
                count += f.count;
                if price != f.printed {
                    mismatches.push((f.name.clone(), f.printed, price));
                }
            }
            ArmyAudit {
                army: a.name.clone(),
                printed_points: a.printed_points,
                printed_lines: printed,
                formula_points: formula,
                printed_figures: a.printed_figures,
                counted_figures: count,
                mismatches,
            }
        })
        .collect()
}

const SOURCE: &str = "VSGMR v7, VII. Sample Armies";

/// The lint findings: price mismatches, figure-count mismatches, undefined traits read as
/// defined ones, commanders that are not hero guys, and attributes with no effect as bought
/// (Tough or Super-Armor without armor).
pub fn lint(r: &Vsgmr) -> Vec<LintFinding> {
    let mut out = Vec::new();
    for (a, row) in r.armies.iter().zip(audit(r)) {
        for (name, printed, formula) in &row.mismatches {
            out.push(LintFinding {
                subject: format!("{}, {name}", a.name),
                finding: format!("printed {printed} points, the formula gives {formula}"),
                source: SOURCE.into(),
            });
        }
        if row.printed_points != row.formula_points || row.printed_lines != row.printed_points {
            out.push(LintFinding {
                subject: a.name.clone(),
                finding: format!(
                    "printed total {} points; its figure lines add up to {}, the formula to {}",
                    row.printed_points, row.printed_lines, row.formula_points
                ),
                source: SOURCE.into(),
            });
        }
        if row.printed_figures != row.counted_figures {
            out.push(LintFinding {
                subject: a.name.clone(),
                finding: format!(
                    "printed as {} figures, but its lines list {}; points are unaffected",
                    row.printed_figures, row.counted_figures
                ),
                source: SOURCE.into(),
            });
        }
        let commanders: u32 = a.figures.iter().filter(|f| f.figure.commander).map(|f| f.count).sum();
        if commanders != 1 {
            out.push(LintFinding {
                subject: a.name.clone(),
                finding: format!("{commanders} commanders; section IV asks for exactly one"),
                source: "VSGMR v7, IV. Figure Point Values".into(),
            });
        }
        for f in &a.figures {
            for (printed, read) in &f.readings {
                out.push(LintFinding {
                    subject: format!("{}, {}", a.name, f.name),
                    finding: format!(
                        "\"{printed}\" is not a trait of section V; read as {read} (same 2-point price, so the \
                         total is unaffected)"
                    ),
                    source: SOURCE.into(),
                });
            }
            let armor = f.figure.effective_armor();
            if armor == Armor::None {
                for (what, has) in [
                    ("the Tough trait", f.figure.has(Trait::Tough)),
                    ("Super-Armor", f.figure.power(Power::SuperArmor) > 0),
                ] {
                    if has {
                        out.push(LintFinding {
                            subject: format!("{}, {}", a.name, f.name),
                            finding: format!(
                                "has {what} but no armor: it improves armor rolls, which a figure without armor never \
                                 makes, so its points buy nothing as written"
                            ),
                            source: "VSGMR v7, V. Traits / VI. Super Powers".into(),
                        });
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::vsgmr::tests::ruleset;

    #[test]
    fn every_sample_army_is_priced_by_the_formula() {
        let r = ruleset();
        let rows = audit(&r);
        let totals: Vec<(String, f64, f64)> =
            rows.iter().map(|a| (a.army.clone(), a.printed_points, a.formula_points)).collect();
        let expect = [
            ("Medieval Infantry", 23.0),
            ("Dwarves", 28.0),
            ("Elves", 25.0),
            ("Orcs", 24.0),
            ("Undead", 25.0),
            ("Fantasy Adventurers", 27.0),
            ("Wild West Bandit Gang", 22.0),
            ("Zombie Horde", 20.0),
            ("Horror Film Survivors", 19.0),
            ("Modern Infantry", 24.0),
            ("Justice Team", 42.0),
            ("Mightiest Heroes", 38.0),
            ("Star Soldiers", 36.0),
            ("Bug Aliens", 37.0),
        ];
        for (name, printed, formula) in &totals {
            let want = expect.iter().find(|e| e.0 == name).unwrap_or_else(|| panic!("unexpected army {name}")).1;
            assert_eq!((*printed, *formula), (want, want), "{name}");
        }
        let undead = rows.iter().find(|a| a.army == "Undead").unwrap();
        assert_eq!((undead.printed_figures, undead.counted_figures), (9, 11));
        assert!(rows.iter().all(|a| a.mismatches.is_empty()));
    }

    #[test]
    fn the_lint_flags_weapon_master_the_undead_count_and_tough_without_armor() {
        let findings = lint(&ruleset());
        let text: Vec<String> = findings.iter().map(|f| format!("{}: {}", f.subject, f.finding)).collect();
        assert!(
            text.iter().any(|t| t.starts_with("Orcs, Warlord: \"Weapon Master\"") && t.contains("Combat Master")),
            "{text:#?}"
        );
        assert!(text.iter().any(|t| t.starts_with("Undead: printed as 9 figures, but its lines list 11")), "{text:#?}");
        assert!(
            text.iter().any(|t| t.starts_with("Dwarves, Runepriest: has the Tough trait but no armor")),
            "{text:#?}"
        );
        assert_eq!(findings.len(), 3, "{text:#?}");
    }
}
