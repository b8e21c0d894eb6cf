//! The rules-coverage table of The Grunt Factor: every rule of the rulebook, how pointsworth
//! models it. Printed by `pointsworth rules grunt-factor` and in the report.

use crate::rulesets::{Coverage, CoverageRow};

/// Every rule of the rulebook with its status in duels between squads on open ground and in the
/// skirmish (`skirmish.rs`).
pub fn table() -> Vec<CoverageRow> {
    use Coverage::*;
    let rows: &[(&str, &str, Coverage, &str)] = &[
        ("d20 roll-under; centimetres", "Definitions", Modeled, ""),
        (
            "Range bands CC, PB 0-20, SR 20-40, MR 40-70, LR 70-110, ER 110-140",
            "Ranges",
            Modeled,
            "a distance on a limit is in the nearer band; [rules] bands",
        ),
        (
            "Max normal sighting 60 cm: LD roll to hit targets farther away",
            "Sighting, Fire",
            Modeled,
            "one LD test (squad leader's LD) per Fire action; a failed test fires nothing",
        ),
        ("Fog, night, forest sighting", "Sighting", NotModeled, "open ground, daylight"),
        (
            "Command radius 18 cm: CC, RC, LD halved outside",
            "Command radius, Morale",
            Modeled,
            "skirmish: per-model positions, halved RC/CC and own halved LD for the >60 cm test outside 18 cm \
             of the leader; duels: squads stand at one point, every model inside",
        ),
        (
            "Soldier qualities Untrained to Elite, CO +1 LD +5 points",
            "Basic soldiers",
            Modeled,
            "the Sergeant is the CO",
        ),
        ("ST, S", "Basic soldiers", NotModeled, "no rule uses them (see the lint)"),
        (
            "1 Sergeant + 1-11 soldiers, up to 1 HMG/GL/RL, 2 soldiers per specialist",
            "Normal unit configuration",
            Modeled,
            "config validation; LMG and Sniper Rifle ride in the specialist slot",
        ),
        ("GL, RL specialists", "Specialists", NotModeled, "no armory entry (see the lint)"),
        ("FO, Medic, Sniper specialist rules", "Specialists", NotModeled, "no rules text, or artillery only"),
        (
            "Turn sequence: d20 + highest LD, the winner chooses who starts",
            "Turn sequence",
            Modeled,
            "the winner starts; ties roll again; the first turn's starter alternates between trials (fair)",
        ),
        (
            "Alternate squad activations; each model uses all its actions",
            "Turn sequence",
            Modeled,
            "squads in list order; a side out of squads lets the other finish",
        ),
        (
            "Actions per model (AC)",
            "Actions",
            Modeled,
            "default tactic: the number of squad Move actions from a 3-turn look-ahead (own expected kills minus the target's fire back), each model aiming when that raises its expected kills",
        ),
        (
            "Move 9 cm per action",
            "Move",
            Simplified,
            "duels: the squad moves as one block straight at its target; skirmish: each model moves, round \
             cover pieces or across them for an action (Modifiers to movement); tactic bound: cover to cover toward the enemy while out of short range; tactic \
             advance: straight at the nearest enemy by the duel's 3-turn look-ahead",
        ),
        (
            "Movement modifiers (streams, obstacles, rubble, prone 1/3)",
            "Modifiers to movement",
            Simplified,
            "open ground, no streams or rubble; low obstacles (every cover piece is low): a skirmish model \
             crosses the pieces in its way for 1 action each when it has the actions and that ends nearer its \
             goal than walking round them (tactic moves; a charge, panic cover and falling back go round); \
             prone: 1/3 MV (skirmish: a squad that may not advance \
             stays prone and crawls; duels: a prone squad crawls at 1/3 MV or stands for 1 action, by the \
             look-ahead, see Go prone/stand)",
        ),
        (
            "Jump, Climb, Hide, Open/close/lock",
            "Actions",
            NotModeled,
            "no buildings, heights or doors on the table (the Jump and Climb damage tables are linted)",
        ),
        (
            "Go prone/stand",
            "Go prone/stand",
            Simplified,
            "only panicked squads go prone (1 action each); duels: a prone squad that may advance stands \
             (1 action each, then full MV) when the 3-turn look-ahead of standing and moving scores more than \
             crawling at 1/3 MV and staying prone (the crawl plan assumes it stays prone the whole horizon), or \
             when it can reach nothing crawling; else it stays prone, crawling or holding; skirmish: they stand \
             (1 action each) when they next may advance",
        ),
        (
            "Aim +3 RC at the same target; lost when it dies",
            "Aim",
            Modeled,
            "the aimed model is the target's first living model",
        ),
        (
            "Target priority: the nearest enemy unit within short range",
            "Fire",
            Modeled,
            "per unit: skirmish: when the enemy squad nearest to the firing squad (closest pair of models) is \
             within 40 cm, every model fires at that squad's model nearest to it, else each model at the enemy \
             model it expects to kill most; duels: the nearest squad, leader first, then the specialist, then \
             soldiers",
        ),
        ("Overwatch", "Overwatch", NotModeled, "reactions are not modeled"),
        ("Suppression", "Suppression", NotModeled, "area fire is not modeled"),
        (
            "To hit: d20 <= RC + band modifier + Aim - prone/cover",
            "To Hit your target",
            Modeled,
            "(xN) in the hit column: N shots, each rolled; cover in the skirmish; no height, night",
        ),
        (
            "Save: d20 <= 10 + A - Dam; (xN) saves per hit",
            "To damage your target",
            Modeled,
            "printed values as printed (Assault Rifle LR Dam 0)",
        ),
        (
            "Cover modifiers: to hit -1/-2/-3 by cover share; Dam -1 soft, -2 hard",
            "To hit modifiers, Damage modifiers",
            Simplified,
            "skirmish only (duels: open ground): cover pieces are low and never block sight; a piece crossed \
             within 3 cm of the target: 50-75% (-2; >75%, -3, if prone) and Dam -1 soft / -2 hard, not floored \
             at 0 (Dam 0 behind hard cover is -2), for fire and close combat alike; crossed farther away: \
             25-50% (-1); forest and crest rules not modeled",
        ),
        (
            "Morale checks: >25% killed at once, below 50%, leader killed, friendly squad of 5+ annihilated",
            "Morale checks",
            Modeled,
            "tested after the firing squad's activation against the (new) leader's LD",
        ),
        (
            "Special morale check: more than 10 hits from one squad → fall back 10 cm",
            "Special morale checks",
            Modeled,
            "",
        ),
        (
            "Panic: CC, RC halved; no advance; prone if no cover",
            "Panic",
            Simplified,
            "panicked squads still fire; skirmish: a model in the open takes cover within 6 cm, or else within \
             one Move action (crawling if prone) in a direction away from its nearest enemy (farther from it), \
             crossing a low piece for an action; if any model cannot, the squad goes prone; how far to run away \
             (one move, keeping actions for the recovery test) is the tactic's reading; duels: open ground, \
             no cover: the squad goes prone",
        ),
        (
            "Recovering from panic: 3 actions, LD test, -2 enemy in LOS / -4 under fire",
            "Recovering from panic",
            Modeled,
            "one action from each model in turn; under fire = shot at since its last activation; the test uses \
             the lowest LD of the models spending the actions: the leader's, or a model's own halved LD outside \
             command radius (skirmish; duels keep every model inside it)",
        ),
        ("1/3 rule: no moving closer (not Elite)", "Permanent effects", Modeled, ""),
        (
            "Squad leader bites the dust: the nearest model leads without +1 LD",
            "Squad leader bites the dust",
            Modeled,
            "",
        ),
        (
            "Close combat: CC + weapon CC modifier, prone +1, cover -1, +1 per friend up to +3",
            "Close Combat",
            Simplified,
            "skirmish: a model in base contact attacks with CC each action, damage with the weapon's CC Dam cut \
             by the target's cover as ranged (tactic advance initiates it within one move when CC expects more \
             kills than fire); heights not modeled; duels never close in: every weapon's PB band beats its \
             CC band (see the lint)",
        ),
        (
            "Armory: Pistol, Machine Pistol, SMG, Assault Rifle, LMG, HMG, Mounted HMG, Sniper Rifle",
            "Armory",
            Modeled,
            "configs/grunt-factor.toml [[weapon]]",
        ),
        (
            "Flare Gun, mortars, infantry gun, anti-tank gun, forward observers",
            "Armory",
            NotModeled,
            "indirect fire, templates and crews are not modeled (their printed rows are linted)",
        ),
        ("Parachute deployment", "Special rules", NotModeled, "forces deploy on their own long edge"),
        (
            "Skirmish (180x120 cm, cover, 200-point forces, 10 turns, more points destroyed wins)",
            "issue 5",
            Simplified,
            "random legal forces of the cost list's squads (or force files); 8-12 straight cover pieces, half \
             hard; points destroyed = each dead model's share of its squad's cost; tactics bound and advance",
        ),
    ];
    rows.iter()
        .map(|&(rule, source, status, note)| CoverageRow {
            rule: rule.to_string(),
            source: format!("TGF, {source}"),
            status,
            note: note.to_string(),
        })
        .collect()
}
