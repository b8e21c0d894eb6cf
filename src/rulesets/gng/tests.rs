//! Rule tests of the two readings issue 43 made switches: `[rules] self_blast` (GnG 1.5,
//! "Blast radius": does a blast catch its own firer?) and `[rules] tough` (GnG 1.5, "Unit
//! Tags": "Takes 2 hits to wound"), each in every engine that can meet it: the rule step with
//! scripted dice, the default tactic, the exact chain and the optimal-play game.

use crate::dice::ScriptedDice;
use crate::rulesets::Ruleset;
use crate::rulesets::gng::rules::{Battle, hold_and_attack, is_stand_up, take_damage, take_turn};
use crate::rulesets::gng::testing::{gng, unit};
use crate::rulesets::gng::{GunsNGrenades, optimal};
use crate::rulesets::optimal::{OptimalPlay, Policy, solve};

/// A Tank (ATK +6, DEF +4, 3 damage, 1½" blast) fires at Riflemen 1" away and hits with 6 + 6
/// = 12 against 1 + 2. Caught (the default): the Tank rolls d6 + 4 against 12 for its own
/// blast, 1 + 4 < 12, and takes its own 3 damage: destroyed. Spared: no roll, no damage.
#[test]
fn a_tank_firing_at_one_inch_is_caught_by_its_blast_unless_spared() {
    for (sets, rolls, tank_alive) in
        [(&[][..], &[6u8, 1, 1][..], false), (&["rules.self_blast=spared"][..], &[6, 1][..], true)]
    {
        let r = gng(sets);
        let (tank, rifle) = (unit(&r, "Tank"), unit(&r, "Riflemen"));
        let mut bt = Battle::default();
        bt.deploy([&[(tank, 0.0, 0.0, 0)], &[(rifle, 1.0, 0.0, 0)]]);
        let mut d = ScriptedDice::new(rolls);
        hold_and_attack(&r, &mut bt, &mut d, 0, 0, 0);
        assert!(d.exhausted(), "{sets:?}: rolled {} of {rolls:?}", d.used());
        assert_eq!(bt.sides[1][0].damage, 3, "{sets:?}: the Riflemen take the Tank's 3 (Tough: 4 kill)");
        assert_eq!(bt.sides[0][0].alive, tank_alive, "{sets:?}");
        // Either way a blast still catches other units near the target: a second Riflemen
        // unit 1" beyond the target rolls (1 + 2 < 12) and takes 3.
        let mut bt = Battle::default();
        bt.deploy([&[(tank, 0.0, 0.0, 0)], &[(rifle, 3.0, 0.0, 0), (rifle, 4.0, 0.0, 0)]]);
        let mut d = ScriptedDice::new(&[6, 1, 1]);
        hold_and_attack(&r, &mut bt, &mut d, 0, 0, 0);
        assert!(d.exhausted(), "{sets:?}");
        assert_eq!(bt.sides[1][1].damage, 3, "{sets:?}");
    }
}

/// The default tactic closes inside a Tank's blast only where that protects: Riflemen 7½" from
/// a Tank walk 6" to its 1½" edge and fire when the Tank's blast catches the Tank (caught);
/// when the firer is spared they hold at 7½" (in their 8½" range) and fire from there.
#[test]
fn riflemen_hug_a_tank_only_when_its_blast_catches_it() {
    for (sets, x_after) in [(&[][..], 6.0f32), (&["rules.self_blast=spared"][..], 0.0)] {
        let r = gng(sets);
        let (tank, rifle) = (unit(&r, "Tank"), unit(&r, "Riflemen"));
        let mut bt = Battle::default();
        bt.deploy([&[(rifle, 0.0, 0.0, 0)], &[(tank, 7.5, 0.0, 0)]]);
        // The Riflemen's attack: 1 + 3 against 6 + 4, a miss.
        let mut d = ScriptedDice::new(&[1, 6]);
        take_turn(&r, &mut bt, &mut d, 0);
        assert!(d.exhausted(), "{sets:?}");
        assert!((bt.sides[0][0].x - x_after).abs() < 1e-3, "{sets:?}: Riflemen at {}", bt.sides[0][0].x);
        let (pr, pt) = (r.profile(rifle), r.profile(tank));
        // A stand-up duel at 7½" only when the Riflemen have no reason to move.
        assert_eq!(is_stand_up(pr, pt, 7.5), !sets.is_empty(), "{sets:?}");
    }
}

/// GnG 1.5, "Unit Tags": Tough "Takes 2 hits to wound. All subsequent hit continue as normal."
/// `extra_step` (default): one more stage, so a Tank's 3 leave fresh Riflemen Bloodied (3 of
/// 4). `first_hit_absorbed`: the first hit on a fresh Tough unit takes only its Tough stage,
/// whatever its damage; later hits count in full; a heal to Healthy restores the stage. Units
/// without Tough are not touched.
#[test]
fn first_hit_absorbed_takes_only_the_tough_stage_of_the_first_hit() {
    let hits = |r: &GunsNGrenades, name: &str, hits: &[u8]| {
        let u = unit(r, name);
        let mut bt = Battle::default();
        bt.deploy([&[(u, 0.0, 0.0, 0)], &[(u, 8.0, 0.0, 0)]]);
        hits.iter()
            .map(|&n| {
                take_damage(r, &mut bt, 1, 0, n, 0);
                (bt.sides[1][0].damage, bt.sides[1][0].alive)
            })
            .collect::<Vec<_>>()
    };
    let (book, absorbed) = (gng(&[]), gng(&["rules.tough=first_hit_absorbed"]));
    assert_eq!(hits(&book, "Riflemen", &[3, 1]), [(3, true), (4, false)]);
    assert_eq!(hits(&absorbed, "Riflemen", &[3, 1, 2]), [(1, true), (2, true), (4, false)]);
    assert_eq!(hits(&book, "Riflemen", &[2, 2]), [(2, true), (4, false)]);
    assert_eq!(hits(&absorbed, "Riflemen", &[2, 2, 1]), [(1, true), (3, true), (4, false)]);
    // One-damage hits: both readings count 4 of them.
    assert_eq!(hits(&absorbed, "Riflemen", &[1, 1, 1, 1]), hits(&book, "Riflemen", &[1, 1, 1, 1]));
    // Not Tough: unchanged.
    assert_eq!(hits(&absorbed, "Heavy Infantry", &[2, 1]), hits(&book, "Heavy Infantry", &[2, 1]));
    // A medic's heal returns the unit to Healthy, Tough stage and all.
    let rifle = unit(&absorbed, "Riflemen");
    let mut bt = Battle::default();
    bt.deploy([&[(rifle, 0.0, 0.0, 0)], &[(rifle, 8.0, 0.0, 2)]]);
    crate::rulesets::gng::rules::medic_heal(&mut bt, 1, 0);
    take_damage(&absorbed, &mut bt, 1, 0, 3, 0);
    assert_eq!(bt.sides[1][0].damage, 1);
    // Lanchester's durability H counts the absorbed hit: 2 Tank hits either way, 3 Deadly hits, not 2.
    let tank = unit(&absorbed, "Tank");
    assert_eq!(book.lanchester(rifle, tank).unwrap().1, 2.0);
    assert_eq!(absorbed.lanchester(rifle, tank).unwrap().1, 2.0);
    let gren = unit(&absorbed, "Grenadier");
    assert_eq!(book.lanchester(rifle, gren).unwrap().1, 2.0);
    assert_eq!(absorbed.lanchester(rifle, gren).unwrap().1, 3.0);
}

/// The exact duel follows both switches: a Tank firing at Riflemen 1" away catches itself in
/// its own blast (the scripted chain on the ½" grid plays it: the Riflemen win most duels),
/// while a spared Tank wins nearly all; under `first_hit_absorbed` the chain plays the absorbed
/// hit (Grenadier against Riflemen at 6": the Riflemen survive one more Deadly hit, so the
/// Grenadier wins less).
#[test]
fn the_exact_chain_follows_both_switches() {
    let book = gng(&[]);
    let spared = gng(&["rules.self_blast=spared"]);
    let (tank, rifle) = (unit(&book, "Tank"), unit(&book, "Riflemen"));
    let e = book.exact_duel(tank, rifle, 1.0).unwrap();
    assert!(e.b_wins > 0.5 && e.a_wins < 0.2, "the caught Tank's blast hurts the Tank: {e:?}");
    let e = spared.exact_duel(tank, rifle, 1.0).unwrap();
    assert!(e.a_wins > 0.9, "the spared Tank kills Riflemen in two hits: {e:?}");
    let absorbed = gng(&["rules.tough=first_hit_absorbed"]);
    let gren = unit(&book, "Grenadier");
    let (x, y) = (book.exact_duel(gren, rifle, 6.0).unwrap(), absorbed.exact_duel(gren, rifle, 6.0).unwrap());
    assert!(y.a_wins < x.a_wins - 0.05, "{x:?} vs {y:?}");
    assert!((y.a_wins + y.b_wins + y.draws - 1.0).abs() < 1e-12);
    // Against one-damage attackers the readings agree to the last bit.
    let heavy = unit(&book, "Heavy Infantry");
    assert_eq!(book.exact_duel(heavy, rifle, 6.0).unwrap(), absorbed.exact_duel(heavy, rifle, 6.0).unwrap());
}

/// Issue 43: under optimal play at 12" Riflemen beat a Tank because the Tank cannot fire at
/// them 1" away without its own blast (caught); spared, the Tank fires freely and Riflemen
/// almost never win (0.45% in an independent solve with the shipped 100 rounds; here a 20-round
/// cap, which moves neither side of the comparison much).
#[test]
fn riflemen_beat_a_tank_under_optimal_play_only_while_its_blast_catches_it() {
    let score = |sets: &[&str]| {
        let mut all = vec!["duel.max_rounds=20"];
        all.extend_from_slice(sets);
        let r = gng(&all);
        let g = r.game(unit(&r, "Riflemen"), unit(&r, "Tank"), 12.0, optimal::GRID.step).unwrap();
        solve(&g, [Policy::Optimal; 2]).a_score()
    };
    let (caught, spared) = (score(&[]), score(&["rules.self_blast=spared"]));
    assert!(caught > 0.5, "caught: {caught}");
    assert!(spared < 0.05, "spared: {spared}");
}
