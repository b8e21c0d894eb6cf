//! The rules-coverage table of Gunplay: every rule of the rulebook, how pointsworth models it.
//! Printed in the report.

use crate::rulesets::{Coverage, CoverageRow};

/// Every rule of the rulebook with its status in duels (this release models open-ground and
/// uniform-cover fights between lines of characters; the Skirmish mission needs the battle
/// engine).
pub fn table() -> Vec<CoverageRow> {
    use Coverage::*;
    let rows: &[(&str, &str, Coverage, &str)] = &[
        ("Difficulty ladder, beat the target number on a d12", "The Difficulty Levels", Modeled, ""),
        ("Column shifts; Automatic and Impossible not rolled", "Modifiers", Modeled, ""),
        ("Dice modifiers: -1 per wound (shooting and melee)", "Action Modifiers", Modeled, ""),
        (
            "2 actions per activation",
            "Actions",
            Modeled,
            "the default tactic picks the plan with the highest expected damage (Aim+Fire, Fire+Fire, move-and-fire, charge, strike); it never retreats",
        ),
        (
            "Turn sequence: d12 roll for who activates first, alternate characters",
            "Turn Sequence",
            Modeled,
            "the first turn's leader alternates between trials (fair); later turns roll d12s, ties re-roll; characters activate in line order",
        ),
        ("Multiplayer clockwise/counterclockwise", "Turn Sequence", NotModeled, "two-player games only"),
        ("Cautious Move 3\", may fire as one action (no aim)", "Movement", Modeled, ""),
        (
            "Quick Move 6\" straight, may fire with -1 column",
            "Movement",
            Modeled,
            "one straight line in duels and the skirmish (alone, with Fire, to cover, a charge's); round a wall the line heads for its nearer end without bending and stops half a base short of a wall across it; difficult terrain not modeled",
        ),
        ("Difficult movement (jump, climb)", "Movement", NotModeled, "no scenario terrain in duels"),
        ("Line of sight", "Shooting", Simplified, "always clear in duels"),
        (
            "Cover: open Easy, some Moderate, lots Hard",
            "Shooting",
            Simplified,
            "rules.cover sets one level for the whole duel ground; every shot counts it wherever the target stands",
        ),
        ("Aim +1 column for the next Fire", "Action Modifiers", Modeled, ""),
        ("Range bands: Effective -1, Extreme -2 columns", "Action Modifiers", Modeled, ""),
        ("RoF: d12s per Fire action", "Shooting", Modeled, "every example weapon has RoF 1"),
        (
            "Pistol, Rifle, Shotgun (2/1 damage) stats",
            "Example Weapon Stats",
            Modeled,
            "configs/gunplay.toml [[weapon]]",
        ),
        (
            "Melee: lower d12 strikes first, ties together, Hard",
            "Melee",
            Modeled,
            "a struck character that goes Down does not strike back; wound modifiers use wounds from before the round",
        ),
        (
            "Charge: quick move into contact and a melee round",
            "Action Definitions",
            Modeled,
            "+1 column for the charger; contact at rules.contact (1\") centre to centre",
        ),
        ("Target Down: +1 column in melee; Down does not strike back", "Melee Modifiers", Modeled, ""),
        (
            "Toughness test: Automatic shifted by Damage and prior wounds",
            "Damage & Wounds",
            Modeled,
            "a Down character that is hit takes the wound without a test",
        ),
        ("Every hit is a permanent wound", "Damage & Wounds", Modeled, ""),
        (
            "Recovery from Down: an action, Automatic shifted by wounds",
            "Damage & Wounds",
            Modeled,
            "pass: prone (no further effect modeled) and the remaining action is used; fail: one more wound, activation ends",
        ),
        (
            "Removal when recovery becomes impossible",
            "Damage & Wounds",
            Modeled,
            "at once when a Down character reaches 4 wounds (nothing can change it any more)",
        ),
        (
            "Interact, Pass",
            "Action Definitions",
            Simplified,
            "Pass when nothing else helps; no objects to interact with",
        ),
        (
            "Victory: defeat the opponent",
            "Characters",
            Modeled,
            "duel: the other side has no character left in play (removed); variant rules.duel_victory = removed | none_up (no character Up after an activation)",
        ),
        (
            "Skirmish: 48\"x48\", cover pieces, 5 a side, no one Up at turn end loses, 10 turns",
            "RULINGS.md, Gunplay: Victory",
            Modeled,
            "`pointsworth skirmish gunplay`: [skirmish] in configs/gunplay.toml; lines along opposite edges; draw if neither side has a character Up",
        ),
        (
            "Cover from walls in the skirmish",
            "Shooting",
            Simplified,
            "walls are low (no blocked sight); a line of fire crossing a wall within 1\" of the target: lots of cover; crossing it farther from the target (not at the shooter): some cover; else open",
        ),
        (
            "Skirmish tactic",
            "Actions",
            Simplified,
            "the duel's expected-damage plan at each shot's cover, nearest Up enemy first; with nothing to shoot, quick-move cover to cover toward the target; quick moves are straight lines, cautious moves may go round a wall end",
        ),
        (
            "Points",
            "RULINGS.md, Gunplay: Points",
            Modeled,
            "the rulebook has none: loadouts start at 10 each; the report derives a list (Rifle = 10) with the fair-cost solver over a mix of grounds: 50-point squads starting at each [duel] sweep distance (3-48\") in the open, some and lots of cover, equally weighted; the 24\" open-ground list is shown beside it, and both are checked in the skirmish (each loadout's mean score at the list's costs)",
        ),
        (
            "Intermediate modules (traits, morale, overwatch, extra damage)",
            "Intermediate Modules",
            NotModeled,
            "not part of the basic rules",
        ),
        ("d20 conversion", "NOTE", NotModeled, "the d12 ladder is used"),
    ];
    rows.iter()
        .map(|&(rule, source, status, note)| CoverageRow {
            rule: rule.to_string(),
            source: format!("Gunplay, {source}"),
            status,
            note: note.to_string(),
        })
        .collect()
}
