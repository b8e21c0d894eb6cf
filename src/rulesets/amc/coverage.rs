//! The rules-coverage table and the ruleset lint of Army Men Combat v2.0. Printed in the
//! report and by `pointsworth rules army-men-combat`.

use crate::rulesets::amc::{ArmyMenCombat, Kind};
use crate::rulesets::{Coverage, CoverageRow, LintFinding, Ruleset};

/// Every rule of the rulebook with its status in this release (duels and points-matched
/// squads on open ground, and the mission of [`super::skirmish`]).
pub fn table() -> Vec<CoverageRow> {
    use Coverage::*;
    let rows: &[(&str, &str, Coverage, &str)] = &[
        ("Quality tests: 4+ on a d6", "General Principles", Modeled, ""),
        (
            "Additional dice added to the unit's total roll",
            "General Principles",
            Modeled,
            "one more test for the whole unit",
        ),
        (
            "Recruits must re-roll successful quality tests",
            "Infantry Units",
            Modeled,
            "every quality test: hits, blocks, melee, morale, activation",
        ),
        ("Veterans may re-roll failed quality tests", "Infantry Units", Modeled, "always re-rolled"),
        (
            "Battlefield 4'x4' with 5-10 terrain pieces",
            "Preparation",
            Simplified,
            "mission (skirmish.rs): 5-10 low walls 6\" long placed from the seed, no blocked sight; duels are on open ground",
        ),
        (
            "Armies of 300 points, up to half vehicles, up to 3 Gunners/Snipers/Supports",
            "The Armies",
            Simplified,
            "checked by army::ArmyLimits; the mission draws random legal armies (each entry buys none or one choice of each of its upgrade groups) and reads army files; points-matched duel squads hold at most 3 Gunners, Snipers or Heavy Weapons (Supports) units and at most 150 points of vehicles (binds only above a 150-point budget), and a capped squad's matchup is bought with its points on both sides (an opponent dearer than those points is fielded in that fraction of the trials; the report names such matchups); the lint flags vehicle entries above half the army (upgraded Tanks, alone or in combination)",
        ),
        (
            "Deployment roll-off, alternate placing within 12\"",
            "Deployment",
            Simplified,
            "mission: roll-off, alternate placing at the front of the 12\" zone, spread evenly in army order; duels start on two lines",
        ),
        (
            "Mission: 4 rounds, score destroyed or Pinned units' points",
            "Mission",
            Modeled,
            "`pointsworth skirmish army-men-combat`; duels end when a side is destroyed or after `max_rounds`",
        ),
        (
            "Activation roll-off: d6 + non-activated units, ties re-roll",
            "Playing the Game",
            Modeled,
            "every activation, the first of a duel included (RULINGS.md: the bigger squad usually goes first)",
        ),
        ("Hold: move 0\", shoot", "Activation", Modeled, ""),
        (
            "Hunker: +1 die to blocking rolls",
            "Activation",
            Simplified,
            "infantry only (vehicles: Hold, Advance, Rush); the mission's cautious tactic hunkers when the block die saves more points than its best action is worth; no duel tactic hunkers (the optimal-play game may)",
        ),
        (
            "Guard: shoot in reaction, target +1 block die",
            "Activation / Guard Actions",
            Simplified,
            "mission's cautious tactic, infantry only: every guard that is not Pinned shoots once at an enemy moving through its range (any move, a vehicle falling back included; a unit that does not move draws none), at the point of the move (read every 0.5\") where its volley is worth most (infantry: expected unblocked hits; vehicles: chance to destroy in the arc shown there); line of sight is always clear, so any move in range counts; not played in duels (no duel tactic guards)",
        ),
        (
            "Advance 6\" then shoot; Rush 12\"; Charge 12\"",
            "Activation",
            Modeled,
            "straight toward the target (duels: the nearest enemy; the mission: the enemy worth the most points to attack), or an Advance straight away from it (a unit keeping out of an enemy's Rush-and-charge reach) as far as its table edge (duels: on a 48\" deep table, as the optimal-play game); stops 1\" short unless charging; a mission unit with nothing to do (the unarmed Jeep) rushes away from the nearest enemy",
        ),
        ("Coherency: 2\" / 6\"", "Movement", NotModeled, "a unit is one position on the duel line"),
        (
            "Shooting: one quality test per attack, blocks per hit, casualties = hits - blocks",
            "Shooting",
            Modeled,
            "defender removes plain models first, specialists last",
        ),
        (
            "Models in range fire one weapon; two weapons: the better in range",
            "Shooting / RULINGS",
            Modeled,
            "better = more expected hits on the target",
        ),
        ("Line of sight", "Shooting", Simplified, "always clear in duels"),
        (
            "Melee: charge, +1 attack die, simultaneous casualties, loser tests, repeat",
            "Melee",
            Modeled,
            "every model strikes (all within 2\"); 20-round cap, then both stay",
        ),
        ("Melee: defenders move up to 3\"", "Melee", Simplified, "the charger moves onto the target's position"),
        ("Morale: half or less after shooting → test, Pinned", "Morale", Modeled, ""),
        ("Pinned: test to activate or when charged; fail destroyed", "Morale", Modeled, ""),
        (
            "Cover terrain: +1 block die for infantry",
            "Terrain",
            Simplified,
            "mission: infantry within 2\" behind a crossed terrain piece; duels: `rules.cover` makes the whole ground cover",
        ),
        ("Difficult, dangerous and elevated terrain", "Terrain", NotModeled, "open ground only"),
        ("Weapons table (Fists ... Cannon), D6/2D6 attacks per model", "Weapons", Modeled, ""),
        ("Vehicles: halve hits, double for *", "Weapons", Modeled, ""),
        ("Snipers: 2+ to hit, no block die per hit on infantry", "Infantry Units", Modeled, ""),
        (
            "Heavy Weapons / Artillery indirect fire",
            "Infantry Units / Vehicle Units",
            Simplified,
            "in duels the target is always seen, so indirect fire changes nothing",
        ),
        (
            "Vehicles: Hold, Advance 12\", Rush 24\"; fire all weapons",
            "Vehicle Rules",
            Modeled,
            "never Hunker or Guard (duels, optimal play and the mission)",
        ),
        (
            "Vehicles in melee may not strike back",
            "Vehicle Rules",
            Modeled,
            "a vehicle causes no wounds, so it loses every melee round and takes the loser's quality test; variant rules.vehicle_melee_test = tests | exempt (a vehicle never takes it)",
        ),
        (
            "Damage table 1-2 / 3-4 / 5-6",
            "Vehicle Rules",
            Modeled,
            "1-2: plain d6 4+ to activate; 3-4: no move next activation",
        ),
        (
            "Front / side / rear arcs",
            "Vehicle Rules",
            Simplified,
            "mission: a vehicle faces the enemy edge when deployed and pivots at the end of each activation it may move or pivot in (not after damage 3-4 or a lost activation), toward the enemy that leaves it least exposed; it keeps its facing while it moves; shots and charges roll in the attacker's arc (front and rear 90° each); the tactics value a shot or charge on a vehicle in the arc it shows now; duels: vehicles face the enemy line, every hit is frontal",
        ),
        ("Artillery: moves 6\"/12\", shoots only on Hold", "Vehicle Units", Modeled, ""),
        (
            "Jeep / Truck / APC transport",
            "Vehicle Units",
            Simplified,
            "mission: Jeep 5 models, Truck and APC 10; infantry whose move ends within 1\" of a friendly transport with room for the whole unit get in, ride with it, cannot be shot or targeted, and get out with an Advance (placed within 1\" of it, then the 6\" move, then shooting); a destroyed transport's passengers are placed 2\" behind the wreck and take D6 hits blocked as shooting hits (no morale test); the tactic boards infantry with nothing in reach this activation onto a reachable transport that has not moved yet, drives it until the passengers' range plus Advance from the nearest enemy, then they get out; simplified: a unit is placed where its transport stands; duels (1 unit type a side) have no passengers",
        ),
        (
            "Upgrades: Bayonets, Grenadier, Specialist, Truck, APC, MG, Medium Tank",
            "Army Creation",
            Modeled,
            "valued in the upgrade table: upgraded force against plain force at equal points; Truck and APC (transport, which duels cannot use) by the mission: random mission armies buy upgrades (none or one choice per group) and the value-in-army regression prices each upgrade; upgrades combine one per group (Bayonets + Grenadier + Specialist on one unit, Truck or APC + MG, Medium Tank + MG) in mission armies and army files; the duel table values each upgrade alone",
        ),
    ];
    rows.iter()
        .map(|&(rule, section, status, note)| CoverageRow {
            rule: rule.to_string(),
            source: format!("AMC 2.0, {section}"),
            status,
            note: note.to_string(),
        })
        .collect()
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
