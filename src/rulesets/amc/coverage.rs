//! The rules-coverage table and the ruleset lint of Army Men Combat v2.0. Printed in the
//! report and by `pointsworth rules army-men-combat`.
//!
//! The rows are data, one rule a line, in `coverage.tsv` beside this file (read by
//! [`coverage_table`]).

use crate::rulesets::amc::{ArmyMenCombat, Kind};
use crate::rulesets::contract::coverage_table;
use crate::rulesets::{CoverageRow, LintFinding, Ruleset};

/// Every rule of the rulebook with its status in this release (duels and points-matched
/// squads on open ground, and the mission of [`super::skirmish`]).
pub fn table() -> Vec<CoverageRow> {
    coverage_table("AMC 2.0", include_str!("coverage.tsv"))
}

/// The ruleset lint: entries the rules cannot make fight, and printed values that look odd.
pub fn lint(r: &ArmyMenCombat) -> Vec<LintFinding> {
    let mut out = Vec::new();
    let entries = r.book.units.iter().zip(&r.profiles).chain(r.upgraded.iter().map(|u| (&u.info, &u.profile)));
    for (u, p) in entries {
        if p.kind == Kind::Vehicle && !p.has_any_weapon() {
            out.push(LintFinding {
                subject: u.name.clone(),
                finding: "no weapon and vehicles may not charge or strike in melee: it can never damage an enemy \
                          in a duel; its value is transport, which only the mission plays: see \"Mission: value \
                          in army\" (duel efficiency is a floor)"
                    .into(),
                source: "AMC 2.0, Vehicle Units".into(),
            });
        }
    }
    // "of which up to half are vehicles": a vehicle entry above half the army fits no legal army.
    // Every entry a mission army could name: plain, one upgrade, and upgrades in combination.
    let share = r.army.vehicle_share * r.army.points;
    for ((u, p), (_, ups)) in r.entries.iter().zip(&r.entry_parts) {
        if p.kind == Kind::Vehicle && p.cost > share + 1e-9 {
            let row = if ups.len() == 1 { "; its upgrade-table row values an entry the book forbids" } else { "" };
            out.push(LintFinding {
                subject: u.name.clone(),
                finding: format!(
                    "costs {} points, more than half of a {}-point army ({}) may spend on vehicles: no legal \
                     army can field it{row}",
                    p.cost, r.army.points, share
                ),
                source: "AMC 2.0, The Armies".into(),
            });
        }
    }
    let recruits_half = |a: &str, b: &str| -> Option<(f64, f64)> {
        let (i, j) = (r.find_unit(a).ok()?, r.find_unit(b).ok()?);
        Some((r.profiles[i].cost, r.profiles[j].cost))
    };
    if let Some((five, ten)) = recruits_half("Riflemen (5)", "Riflemen (10)") {
        if (ten - 2.0 * five).abs() < 1e-9 {
            out.push(LintFinding {
                subject: "Unit sizes".into(),
                finding: "10 models cost exactly twice 5 models, but morale tests at half strength: two units of 5 \
                          are pinned sooner than one of 10; sizes are priced as if equal"
                    .into(),
                source: "AMC 2.0, Infantry Units / Morale".into(),
            });
        }
    }
    out.push(LintFinding {
        subject: "Medium Tank".into(),
        finding: "listed twice (+1 die for +25, +2 dice for +50): read as two alternative upgrades".into(),
        source: "AMC 2.0, Vehicle Units".into(),
    });
    let profiles: Vec<&crate::rulesets::amc::Profile> =
        r.profiles.iter().chain(r.upgraded.iter().map(|u| &u.profile)).collect();
    for (name, w) in &r.weapon_table {
        if w.range == 0.0 {
            continue;
        }
        let used =
            profiles.iter().any(|p| p.weapons.iter().chain([&p.grenadier, &p.specialist]).flatten().any(|x| x == w));
        if !used {
            out.push(LintFinding {
                subject: name.clone(),
                finding: "in the weapon table but no unit or upgrade carries it".into(),
                source: "AMC 2.0, Weapons".into(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::rulesets::amc::testing::amc;

    /// AMC 2.0, "The Armies": "two armies of 300pts, of which up to half are vehicles". Every
    /// upgraded Tank (Medium +1: 175, Medium +2: 200, MG: 160, and Medium with MG in
    /// combination: 185, 210) costs more than the 150 points of vehicles a 300-point army may
    /// hold; the plain Tank (150) and the Jeep's upgrades, alone or together, fit.
    #[test]
    fn the_lint_flags_upgraded_tanks_above_half_the_army_in_vehicles() {
        let r = amc(&[]);
        let lint = super::lint(&r);
        let flagged: Vec<&str> =
            lint.iter().filter(|f| f.source == "AMC 2.0, The Armies").map(|f| f.subject.as_str()).collect();
        assert_eq!(
            flagged,
            [
                "Tank + Medium Tank +1",
                "Tank + Medium Tank +2",
                "Tank + Tank MG",
                "Tank + Medium Tank +1 + Tank MG",
                "Tank + Medium Tank +2 + Tank MG"
            ]
        );
        let f = lint.iter().find(|f| f.subject == "Tank + Medium Tank +1").unwrap();
        assert!(f.finding.contains("costs 175 points") && f.finding.contains("(150)"), "{}", f.finding);
        assert!(f.finding.contains("upgrade-table row"), "{}", f.finding);
        let f = lint.iter().find(|f| f.subject == "Tank + Medium Tank +2 + Tank MG").unwrap();
        assert!(f.finding.contains("costs 210 points") && !f.finding.contains("upgrade-table row"), "{}", f.finding);
        // A 400-point army may spend 200 on vehicles: every upgraded Tank fits but Medium +2
        // with MG (210); a 420-point army fits that too.
        let flagged = |points: &str| -> Vec<String> {
            let r = amc(&[points]);
            super::lint(&r).into_iter().filter(|f| f.source == "AMC 2.0, The Armies").map(|f| f.subject).collect()
        };
        assert_eq!(flagged("army.points=400"), ["Tank + Medium Tank +2 + Tank MG"]);
        assert!(flagged("army.points=420").is_empty());
    }
}
