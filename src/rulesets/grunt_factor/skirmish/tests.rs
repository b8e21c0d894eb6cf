//! The skirmish's rule readings and tactic steps, one test each on a scripted table, plus
//! random forces, config errors and the replay. Games on the engine (thread-count
//! independence, side swaps): the engine's tests (`sim::ruleset_tests`).

use super::*;
use crate::battle::Wall;
use crate::config::{Overrides, Source};
use crate::dice::{FastDice, ScriptedDice};
use crate::rulesets::grunt_factor::rules::{self, CoverShare, MAX_MODELS};
use crate::rulesets::grunt_factor::tactics::{by_name, pick};
use crate::rulesets::grunt_factor::tests::ruleset;

fn wall(x0: f32, x1: f32, y: f32) -> Wall {
    Wall { a: Pos::new(x0, y), b: Pos::new(x1, y), intact: true }
}

/// A game with squad `a` for side A and `b` for side B; only the models listed in `keep`
/// stay alive, at the given positions.
fn game<'a>(
    r: &'a GruntFactor,
    cfg: &'a SkirmishConfig,
    a: &str,
    b: &str,
    keep: [&[(usize, f32, f32)]; 2],
) -> Skirmish<'a> {
    let mut g = Skirmish::new(r, cfg, [pick(0); 2]);
    g.deploy([&[r.find(a)], &[r.find(b)]]);
    for s in 0..2 {
        for m in g.sides[s][0].models.iter_mut() {
            m.alive = false;
        }
        for &(k, x, y) in keep[s] {
            g.sides[s][0].models[k] = Model { slot: k as u8, pos: Pos::new(x, y), alive: true };
        }
    }
    g.scratch = vec![Hit::default(); 1];
    g
}

fn add_wall(g: &mut Skirmish, w: Wall, kind: CoverKind) {
    g.table.walls.push(w);
    g.cover.push(kind);
}

#[test]
fn cover_share_and_kind_from_cover_pieces() {
    let r = ruleset();
    let mut g = Skirmish::new(&r, &r.skirmish, [pick(0); 2]);
    add_wall(&mut g, wall(40.0, 60.0, 48.0), CoverKind::Hard);
    let shooter = Pos::new(50.0, 20.0);
    // Just behind the piece: 50–75% (−2), more than 75% when prone (−3), Dam −2 (hard).
    assert_eq!(g.cover_of(shooter, Pos::new(50.0, 50.0), false), (CoverShare::Half, Some(CoverKind::Hard)));
    assert_eq!(g.cover_of(shooter, Pos::new(50.0, 50.0), true), (CoverShare::Most, Some(CoverKind::Hard)));
    // Far behind it: 25–50% (−1), not "behind cover" for Dam.
    assert_eq!(g.cover_of(shooter, Pos::new(50.0, 70.0), false), (CoverShare::Quarter, None));
    // Past the piece's end: open; a piece right in front of the shooter hides nothing.
    assert_eq!(g.cover_of(shooter, Pos::new(90.0, 70.0), false), (CoverShare::Open, None));
    assert_eq!(g.cover_of(Pos::new(50.0, 46.0), Pos::new(50.0, 90.0), false), (CoverShare::Open, None));
    assert_eq!(
        [CoverShare::Open, CoverShare::Quarter, CoverShare::Half, CoverShare::Most].map(|c| c.hit_modifier()),
        [0, -1, -2, -3]
    );
    assert_eq!(
        (
            rules::cover_damage(10, None),
            rules::cover_damage(10, Some(CoverKind::Soft)),
            rules::cover_damage(10, Some(CoverKind::Hard)),
            rules::cover_damage(1, Some(CoverKind::Hard))
        ),
        (10, 9, 8, -1)
    );
}

#[test]
fn damage_under_cover_is_not_floored_at_zero() {
    // "To damage your target": the save is 10 + A − Dam whichever is greater; "Damage
    // modifiers": hard cover −2 Dam. The Assault Rifle's long-range Dam 0 behind hard cover is
    // −2: a Veteran (A 8) saves on 20, always (floored at 0 it saved on 18 and died to a 19).
    assert_eq!(rules::cover_damage(0, Some(CoverKind::Hard)), -2);
    assert_eq!(rules::save_value(8, rules::cover_damage(0, Some(CoverKind::Hard))), 20);
    assert_eq!(rules::p_kill_per_hit(8, rules::cover_damage(0, Some(CoverKind::Hard)), 1), 0.0);
    let r = ruleset();
    // A Regular rifleman 80 cm from a Veteran just behind a hard piece: long range (−2), beyond
    // 60 cm (LD test on 10: LD 9 + CO 1), to hit 7 − 2 − 2 (50–75%) = 3.
    let mut g = game(&r, &r.skirmish, "regular-rifles", "veteran-rifles", [&[(0, 50.0, 20.0)], &[(0, 50.0, 100.0)]]);
    add_wall(&mut g, wall(40.0, 60.0, 98.0), CoverKind::Hard);
    let mut d = ScriptedDice::new(&[1, 3, 19]);
    g.fire(0, 0, 0, 0, 0, false, &mut d);
    assert!(d.exhausted());
    assert!(g.sides[1][0].models[0].alive, "LD passes, 3 hits, 19 saves against 20");
}

#[test]
fn recovery_outside_command_radius_uses_the_models_own_halved_ld() {
    // "Recovering from panic": "Soldiers out of command range use their own LD value (which
    // will be halved because of the distance to the leader)". A panicked Regular squad: the
    // Sergeant (LD 9 + CO 1 = 10) and a soldier 40 cm away (outside 18 cm: 9 / 2 = 4). Both
    // go prone in the open (1 action each), then the 3 recovery actions come from both, so
    // the test is against 4 − 2 (enemy in sight) = 2: a 5 fails (against the leader's 8 it
    // passed). With the soldier inside the radius the same 5 recovers. (The enemy stands
    // beyond extreme range, 140 cm: the squad has nothing to fire at, so it tests.)
    let r = ruleset();
    for (y, recovers) in [(60.0, false), (30.0, true)] {
        let mut g = game(
            &r,
            &r.skirmish,
            "regular-rifles",
            "regular-rifles",
            [&[(0, 10.0, 20.0), (1, 10.0, y)], &[(0, 170.0, 110.0)]],
        );
        g.sides[0][0].panicked = true;
        let mut actions = [3u8; MAX_MODELS];
        let mut d = ScriptedDice::new(&[5]);
        g.panic_step(0, 0, &mut actions, &mut d);
        assert!(d.exhausted() && g.sides[0][0].prone);
        assert_eq!(!g.sides[0][0].panicked, recovers, "soldier at y {y}");
    }
}

#[test]
fn close_combat_damage_takes_cover_into_account() {
    // "Close combat": "damage as ranged with the weapon's CC damage", so "Damage modifiers"
    // apply: a Regular (CC 7, Assault Rifle CC −2, target behind cover −1: 4) against a
    // Regular (A 7) just behind a hard piece: Dam 10 − 2 = 8, saves on 9 (without the cut, on 7).
    let r = ruleset();
    let mut g = game(&r, &r.skirmish, "regular-rifles", "regular-rifles", [&[(0, 50.0, 47.0)], &[(0, 50.0, 49.0)]]);
    add_wall(&mut g, wall(40.0, 60.0, 48.0), CoverKind::Hard);
    let mut d = ScriptedDice::new(&[4, 9]);
    g.attack(0, 0, 0, 1, &mut d);
    assert!(d.exhausted(), "one close-combat attack");
    assert!(g.sides[1][0].models[0].alive, "4 hits, 9 saves against Dam 8");
    let mut d = ScriptedDice::new(&[5]);
    g.attack(0, 0, 0, 1, &mut d);
    assert!(g.sides[1][0].models[0].alive && d.exhausted(), "5 misses: cover −1 CC");
    let mut d = ScriptedDice::new(&[4, 10]);
    g.attack(0, 0, 0, 1, &mut d);
    assert!(!g.sides[1][0].models[0].alive, "10 fails the save");
    // The tactic's expected value uses the same cut: Dam 8 against A 7 kills on 10 in 20.
    let p = r.profile(r.find("regular-rifles"));
    let v = rules::cc_attack_value(&r, p, 0, 4, 7, Some(CoverKind::Hard));
    assert!((v - 0.2 * 0.55).abs() < 1e-12, "{v}");
}

#[test]
fn a_shot_at_a_target_behind_hard_cover_is_harder_to_hit_and_to_kill() {
    // Regular Sergeant (RC 7, Assault Rifle) at 30 cm (short range, +1) on a Regular behind
    // hard cover (50–75%, −2): hits on 6 or less; Dam 10 − 2 = 8 against A 7: saves on 9.
    let r = ruleset();
    let mut g = game(
        &r,
        &r.skirmish,
        "regular-rifles",
        "regular-rifles",
        [&[(0, 50.0, 20.0)], &[(0, 50.0, 50.0), (1, 46.0, 50.0), (2, 54.5, 50.0)]],
    );
    add_wall(&mut g, wall(40.0, 60.0, 48.0), CoverKind::Hard);
    let mut d = ScriptedDice::new(&[7]);
    g.fire(0, 0, 0, 0, 0, false, &mut d);
    assert!(g.sides[1][0].models[0].alive && d.exhausted(), "7 misses");
    let mut d = ScriptedDice::new(&[6, 9]);
    g.fire(0, 0, 0, 0, 0, false, &mut d);
    assert!(g.sides[1][0].models[0].alive && d.exhausted(), "6 hits, 9 saves");
    assert!(g.sides[1][0].fired_on);
    let mut d = ScriptedDice::new(&[6, 10]);
    g.fire(0, 0, 0, 0, 0, false, &mut d);
    assert!(!g.sides[1][0].models[0].alive, "10 fails the save");
    assert_eq!(g.destroyed, [18.0, 0.0], "a fifth of the 90-point squad");
    // "Squad leader bites the dust": the nearest model leads, without the CO's +1 LD.
    assert_eq!((g.sides[1][0].leader, g.sides[1][0].sergeant_leads), (1, false));
    assert!(g.scratch[0].leader_killed);
    assert_eq!(g.highest_ld(1), 9);
    // The leader's death is a morale trigger: LD 9, a 10 fails → panicked.
    let mut d = ScriptedDice::new(&[10]);
    g.morale(0, 0, &mut d);
    assert!(g.sides[1][0].panicked && d.exhausted());
}

#[test]
fn soft_cover_cuts_dam_by_one() {
    let r = ruleset();
    let mut g = game(&r, &r.skirmish, "regular-rifles", "regular-rifles", [&[(0, 50.0, 20.0)], &[(0, 50.0, 50.0)]]);
    add_wall(&mut g, wall(40.0, 60.0, 48.0), CoverKind::Soft);
    // Dam 10 − 1 = 9: saves on 8 or less.
    let mut d = ScriptedDice::new(&[6, 8]);
    g.fire(0, 0, 0, 0, 0, false, &mut d);
    assert!(g.sides[1][0].models[0].alive);
    let mut d = ScriptedDice::new(&[6, 9]);
    g.fire(0, 0, 0, 0, 0, false, &mut d);
    assert!(!g.sides[1][0].models[0].alive);
}

#[test]
fn outside_command_radius_rc_and_ld_are_halved() {
    // A Regular soldier 30 cm from his Sergeant: RC 7 → 3, +1 short range: hits on 4.
    let r = ruleset();
    let mut g = game(
        &r,
        &r.skirmish,
        "regular-rifles",
        "regular-rifles",
        [&[(0, 80.0, 20.0), (1, 50.0, 20.0)], &[(0, 50.0, 50.0)]],
    );
    assert!(g.outside_radius(0, 0, 1) && !g.outside_radius(0, 0, 0));
    assert_eq!((g.model_ld(0, 0, 1), g.model_ld(0, 0, 0)), (4, 10), "own LD 9 halved; the Sergeant's 9 + 1");
    let mut d = ScriptedDice::new(&[5]);
    g.fire(0, 0, 1, 0, 0, false, &mut d);
    assert!(g.sides[1][0].models[0].alive, "5 misses");
    let mut d = ScriptedDice::new(&[4, 8]);
    g.fire(0, 0, 1, 0, 0, false, &mut d);
    assert!(!g.sides[1][0].models[0].alive, "4 hits; save 7 or less, 8 fails");
    // Back within 18 cm the soldier fires at full RC: 8 hits (7 + 1).
    let mut g = game(
        &r,
        &r.skirmish,
        "regular-rifles",
        "regular-rifles",
        [&[(0, 62.0, 20.0), (1, 50.0, 20.0)], &[(0, 50.0, 50.0)]],
    );
    let mut d = ScriptedDice::new(&[8, 8]);
    g.fire(0, 0, 1, 0, 0, false, &mut d);
    assert!(!g.sides[1][0].models[0].alive);
}

#[test]
fn beyond_60_cm_each_fire_action_needs_an_ld_test() {
    // 65 cm: medium range (Assault Rifle 0), beyond normal sighting. The Sergeant tests
    // against LD 10: an 11 fails and the action fires nothing; a 10 passes, then 7 hits
    // (RC 7) and a save of 20 fails.
    let r = ruleset();
    let mut g = game(
        &r,
        &r.skirmish,
        "regular-rifles",
        "regular-rifles",
        [&[(0, 50.0, 20.0), (1, 80.0, 20.0)], &[(0, 50.0, 85.0)]],
    );
    let mut d = ScriptedDice::new(&[11]);
    g.fire(0, 0, 0, 0, 0, false, &mut d);
    assert!(d.exhausted() && g.sides[1][0].models[0].alive && !g.sides[1][0].fired_on);
    // The soldier 30 cm from his Sergeant tests his own halved LD (4): a 5 fails.
    let mut d = ScriptedDice::new(&[5]);
    g.fire(0, 0, 1, 0, 0, false, &mut d);
    assert!(d.exhausted() && g.sides[1][0].models[0].alive);
    let mut d = ScriptedDice::new(&[10, 7, 20]);
    g.fire(0, 0, 0, 0, 0, false, &mut d);
    assert!(d.exhausted() && !g.sides[1][0].models[0].alive);
}

#[test]
fn target_priority_nearest_within_short_range_else_the_best_shot() {
    let r = ruleset();
    // Enemy 0 at 35 cm behind hard cover, enemy 1 at 45 cm in the open: the nearer one
    // within short range must be the target even though the other is the better shot.
    let mut g = game(
        &r,
        &r.skirmish,
        "regular-rifles",
        "regular-rifles",
        [&[(0, 50.0, 20.0)], &[(0, 50.0, 55.0), (1, 95.0, 20.0)]],
    );
    add_wall(&mut g, wall(40.0, 60.0, 53.0), CoverKind::Hard);
    assert_eq!(g.choose_target(0, 0, 0), Some((0, 0)));
    // Both beyond 40 cm: the free choice takes the one in the open.
    g.sides[1][0].models[0].pos = Pos::new(50.0, 65.0);
    g.table.walls[0] = wall(40.0, 60.0, 63.0);
    g.sides[1][0].models[1].pos = Pos::new(100.0, 20.0);
    assert!(g.fire_value(0, 0, 0, 0, 1, false) > g.fire_value(0, 0, 0, 0, 0, false));
    assert_eq!(g.choose_target(0, 0, 0), Some((0, 1)));
}

#[test]
fn target_priority_is_per_unit_the_nearest_squad_within_short_range() {
    // "Fire", target priority: "A unit must fire at the nearest closest unit within short
    // range." Squad A: a model at (50, 20) and one at (150, 20). Enemy squad 0 has a model
    // 35 cm from the first; enemy squad 1 a model 45 cm from the second (in the open, medium
    // range) and 106 cm from squad 0's. The nearest unit, squad 0, is within short range: the
    // second model must fire at it too (long range), not at the better shot of squad 1, which
    // the old per-model rule took (its own nearest enemy was beyond short range).
    let r = ruleset();
    let mut g = Skirmish::new(&r, &r.skirmish, [pick(0); 2]);
    let rifles = r.find("regular-rifles");
    g.deploy([&[rifles], &[rifles, rifles]]);
    for side in g.sides.iter_mut() {
        for q in side.iter_mut() {
            for m in q.models.iter_mut() {
                m.alive = false;
            }
        }
    }
    let place = |g: &mut Skirmish, s: usize, i: usize, k: usize, x: f32, y: f32| {
        g.sides[s][i].models[k] = Model { slot: k as u8, pos: Pos::new(x, y), alive: true };
    };
    place(&mut g, 0, 0, 0, 50.0, 20.0);
    place(&mut g, 0, 0, 1, 150.0, 20.0);
    place(&mut g, 1, 0, 0, 50.0, 55.0);
    place(&mut g, 1, 1, 0, 150.0, 65.0);
    g.scratch = vec![Hit::default(); 2];
    assert_eq!(g.nearest_unit(0, 0), Some((0, 35.0)));
    assert!(g.fire_value(0, 0, 1, 1, 0, false) > g.fire_value(0, 0, 1, 0, 0, false));
    assert_eq!(g.choose_target(0, 0, 0), Some((0, 0)));
    assert_eq!(g.choose_target(0, 0, 1), Some((0, 0)), "the squad fires at the nearest unit");
    // Squad 0 moved out of short range (60 cm): each model fires at what it pleases.
    g.sides[1][0].models[0].pos = Pos::new(50.0, 80.0);
    assert_eq!(g.choose_target(0, 0, 1), Some((1, 0)));
}

#[test]
fn a_low_cover_piece_costs_one_action_to_cross() {
    // "Modifiers to movement": "Obstacles < miniature height: 1 action"; cover pieces are low
    // (they never block sight). A model 15 cm from its spot with a 60 cm piece across the way:
    // two moves (MV 9) and one action to cross take it there. The old walk went round the
    // piece (30 cm to its end) and stopped short with an action left.
    let r = ruleset();
    let to = Pos::new(90.0, 45.0);
    let setup = || {
        let mut g =
            game(&r, &r.skirmish, "regular-rifles", "regular-rifles", [&[(0, 90.0, 30.0)], &[(0, 90.0, 110.0)]]);
        add_wall(&mut g, wall(60.0, 120.0, 38.0), CoverKind::Soft);
        g
    };
    let mut g = setup();
    let mut actions = [3u8; MAX_MODELS];
    g.walk(0, 0, 0, to, &mut actions);
    assert_eq!((g.sides[0][0].models[0].pos, actions[0]), (to, 0));
    // With only the two moves there is no action to cross: it walks round and stops short.
    let mut g = setup();
    let mut actions = [2u8; MAX_MODELS];
    g.walk(0, 0, 0, to, &mut actions);
    let at = g.sides[0][0].models[0].pos;
    assert!(at.dist(to) > 10.0 && actions[0] == 0, "{at:?}");
}

#[test]
fn close_combat_in_base_contact() {
    // "Close combat": CC 7 + the Assault Rifle's CC −2 = 5; Dam 10 against A 7: save on 7.
    assert_eq!(rules::cc_value(7, false, false, -2, false, false, 0), 5);
    assert_eq!(rules::cc_value(7, false, false, -2, true, true, 5), 5 + 1 - 1 + 3, "prone +1, cover −1, friends ≤ +3");
    assert_eq!(rules::cc_value(7, true, false, -2, false, false, 0), 1, "panic halves CC");
    assert_eq!(rules::cc_value(7, false, true, -2, false, false, 0), 1, "so does command radius");
    let r = ruleset();
    let mut g = game(
        &r,
        &r.skirmish,
        "regular-rifles",
        "regular-rifles",
        [&[(0, 50.0, 20.0)], &[(0, 50.0, 22.0), (1, 80.0, 80.0)]],
    );
    let mut d = ScriptedDice::new(&[6, 5, 7, 5, 8]);
    g.attack(0, 0, 0, 3, &mut d);
    assert!(d.exhausted(), "three close-combat attacks, no shots");
    assert!(!g.sides[1][0].models[0].alive, "6 misses, 5 hits and 7 saves, 5 hits and 8 fails");
    // A friend in contact with the target adds +1.
    let mut g = game(
        &r,
        &r.skirmish,
        "regular-rifles",
        "regular-rifles",
        [&[(0, 50.0, 20.0), (1, 52.0, 21.0)], &[(0, 51.0, 22.0)]],
    );
    let mut d = ScriptedDice::new(&[6, 20]);
    g.attack(0, 0, 0, 1, &mut d);
    assert!(!g.sides[1][0].models[0].alive);
    // A panicked squad fights no close combat.
    let mut g = game(&r, &r.skirmish, "regular-rifles", "regular-rifles", [&[(0, 50.0, 20.0)], &[(0, 50.0, 22.0)]]);
    g.sides[0][0].panicked = true;
    let mut d = ScriptedDice::new(&[]);
    g.attack(0, 0, 0, 3, &mut d);
    assert!(g.sides[1][0].models[0].alive);
}

#[test]
fn advance_fires_point_blank_rather_than_charge_in_the_open() {
    // "Close combat": a Regular rifleman 10 cm from an enemy in the open, within one move of
    // base contact. A charge leaves 2 attacks at CC 7 − 2 = 5: 2 × 5/20 × 13/20 = 0.33
    // expected kills; holding, 3 Fire actions at PB (RC 7 + 2): 3 × 9/20 × 13/20 = 0.88.
    let r = ruleset();
    let mut cfg = r.skirmish.clone();
    cfg.max_turns = 1;
    // Two of five models left: more than 1/3, so the squad may advance.
    let mut g =
        game(&r, &cfg, "regular-rifles", "regular-rifles", [&[(0, 50.0, 20.0), (1, 150.0, 5.0)], &[(0, 50.0, 30.0)]]);
    g.tactic = [by_name("advance").expect("listed"); 2];
    let mut actions = [3u8; MAX_MODELS];
    g.move_squad(0, 0, &mut actions);
    assert_eq!(actions[0], 3, "no move: every action fires");
    assert_eq!(g.sides[0][0].models[0].pos, Pos::new(50.0, 20.0));
}

#[test]
fn advance_charges_a_prone_target_behind_cover_with_friends_in_the_fight() {
    // "Close combat", "Modifiers to attacking in close combat": the target is prone 2 cm behind
    // a wall (hard cover), 10 cm from the Sergeant. Fire at PB: RC 7 + 2 − 1 (prone) − 3 (more
    // than 75% covered) = 5, Dam 10 − 2 = 8 (save 9): aimed, 2 × 8/20 × 11/20 = 0.44. With the
    // book's Assault Rifle (CC −2) a charge never beats that (CC 7 − 2 + 1 − 1 + friends, the
    // same Dam 8: at most a tie with 3 friends), so the test gives the rifle a CC modifier of 0
    // (a bayonet): CC 7 + 0 + 1 (prone) − 1 (cover) + 2 friends in contact = 9, Dam 10 − 2 = 8
    // ("damage as ranged"): 2 × 9/20 × 11/20 = 0.495. Without the friends: CC 7, 0.385, and the
    // Sergeant fires (a second model far off keeps the squad above 1/3 of its size, free to
    // advance).
    let mut r = ruleset();
    let rifle = r.weapons.iter().position(|w| w.name == "Assault Rifle").unwrap();
    r.weapons[rifle].bands[0].hit = Some(0);
    let mut cfg = r.skirmish.clone();
    cfg.max_turns = 1;
    for (friends, charges) in [(true, true), (false, false)] {
        let ours: &[(usize, f32, f32)] = if friends {
            &[(0, 50.0, 40.0), (1, 48.5, 51.5), (2, 51.5, 51.5)]
        } else {
            &[(0, 50.0, 40.0), (1, 150.0, 5.0)]
        };
        let mut g = game(&r, &cfg, "regular-rifles", "regular-rifles", [ours, &[(0, 50.0, 50.0)]]);
        add_wall(&mut g, wall(40.0, 60.0, 48.0), CoverKind::Hard);
        g.sides[1][0].prone = true;
        g.tactic = [by_name("advance").expect("listed"); 2];
        let mut actions = [3u8; MAX_MODELS];
        g.move_squad(0, 0, &mut actions);
        let at = g.sides[0][0].models[0].pos;
        assert_eq!(actions[0], if charges { 2 } else { 3 }, "friends {friends}");
        assert_eq!(at.dist(Pos::new(50.0, 50.0)) <= cfg.base_contact as f32 + EPS, charges, "{at:?}");
    }
}

#[test]
fn panicked_squad_in_the_open_goes_prone_then_tests_to_recover() {
    // The enemy beyond extreme range (140 cm): nothing to fire at, so the squad tests
    // ([`rules::tries_recovery`]; `a_panicked_squad_in_range_fires_instead_of_testing`).
    let r = ruleset();
    let mut g = game(
        &r,
        &r.skirmish,
        "regular-rifles",
        "regular-rifles",
        [&[(0, 10.0, 20.0), (1, 6.0, 20.0), (2, 14.0, 20.0)], &[(0, 170.0, 100.0)]],
    );
    g.sides[0][0].panicked = true;
    let mut actions = [3u8; MAX_MODELS];
    // Sergeant leads: LD 10, −2 (enemy in sight, not fired on): 8 passes.
    let mut d = ScriptedDice::new(&[8]);
    g.panic_step(0, 0, &mut actions, &mut d);
    assert!(g.sides[0][0].prone && !g.sides[0][0].panicked);
    assert_eq!(&actions[..3], &[1, 1, 1], "prone: one action each; recovery: three together");
    g.sides[0][0].panicked = true;
    g.sides[0][0].fired_on = true;
    let mut actions = [3u8; MAX_MODELS];
    let mut d = ScriptedDice::new(&[7]);
    g.panic_step(0, 0, &mut actions, &mut d);
    assert!(g.sides[0][0].panicked, "fired on: 10 − 4 = 6, 7 fails");
    assert_eq!(&actions[..3], &[2, 2, 2], "already prone");
}

#[test]
fn a_panicked_squad_in_range_fires_instead_of_testing() {
    // "Recovering from panic" is optional: the default tactic spends the 3 actions on the test
    // only when no model's fire would expect a kill ([`rules::tries_recovery`], the duel's
    // rule). Regular Rifles 80 cm from the enemy (long range: the halved RC can still hit):
    // a roll of 8 would pass the test, but the squad does not take it and keeps 2 actions
    // each (after going prone) for its fire. The old rule tested and recovered.
    let r = ruleset();
    let mut g = game(
        &r,
        &r.skirmish,
        "regular-rifles",
        "regular-rifles",
        [&[(0, 50.0, 20.0), (1, 46.0, 20.0), (2, 54.0, 20.0)], &[(0, 50.0, 100.0)]],
    );
    g.sides[0][0].panicked = true;
    let mut actions = [3u8; MAX_MODELS];
    let mut d = ScriptedDice::new(&[8]);
    g.panic_step(0, 0, &mut actions, &mut d);
    assert!(g.sides[0][0].prone && g.sides[0][0].panicked && d.used() == 0);
    assert_eq!(&actions[..3], &[2, 2, 2], "prone: one action each; no test");
}

#[test]
fn a_panicked_squad_runs_to_cover_away_from_the_enemy() {
    // "Panic": "must seek cover (if this cover lies within 6cm of the squad or in a direction
    // leading away from enemy troops). If no cover is available the squad will go prone". A
    // model 70 cm from the enemy, a low piece 7 cm behind it: the spot behind the piece is
    // 8 cm off (beyond 6 cm) and 78 cm from the enemy. It moves there (1 action) across the
    // piece (1 action, "Modifiers to movement") and the squad does not go prone; the old code
    // took no cover beyond 6 cm and went prone.
    let r = ruleset();
    let mut g = game(&r, &r.skirmish, "regular-rifles", "regular-rifles", [&[(0, 90.0, 30.0)], &[(0, 90.0, 100.0)]]);
    add_wall(&mut g, wall(80.0, 100.0, 23.0), CoverKind::Hard);
    g.sides[0][0].panicked = true;
    let mut actions = [3u8; MAX_MODELS];
    let mut d = ScriptedDice::new(&[]);
    g.panic_step(0, 0, &mut actions, &mut d);
    assert_eq!(g.sides[0][0].models[0].pos, Pos::new(90.0, 22.0));
    assert!(!g.sides[0][0].prone && g.sides[0][0].panicked);
    assert_eq!((actions[0], d.used()), (1, 0), "one action left: too few for the recovery test");
    // Cover only toward the enemy, beyond 6 cm: none away from it, so the squad goes prone.
    let mut g = game(&r, &r.skirmish, "regular-rifles", "regular-rifles", [&[(0, 90.0, 30.0)], &[(0, 90.0, 100.0)]]);
    add_wall(&mut g, wall(80.0, 100.0, 38.0), CoverKind::Hard);
    g.sides[0][0].panicked = true;
    let mut actions = [3u8; MAX_MODELS];
    g.panic_step(0, 0, &mut actions, &mut d);
    assert!(g.sides[0][0].prone && g.sides[0][0].models[0].pos == Pos::new(90.0, 30.0));
}

#[test]
fn the_one_third_rule_stops_advances_except_for_elite() {
    let r = ruleset();
    for (unit, moves) in [("regular-rifles", false), ("elite-rifles", true), ("untrained-rifles", false)] {
        let mut g = game(&r, &r.skirmish, unit, "regular-rifles", [&[(0, 50.0, 20.0)], &[(0, 50.0, 110.0)]]);
        let before = g.sides[0][0].models[0].pos;
        let mut actions = [4u8; MAX_MODELS];
        g.move_squad(0, 0, &mut actions);
        assert_eq!(g.sides[0][0].models[0].pos != before, moves, "{unit}");
    }
}

#[test]
fn bound_moves_to_the_next_cover_piece_toward_the_enemy() {
    let r = ruleset();
    let mut g = game(
        &r,
        &r.skirmish,
        "regular-rifles",
        "regular-rifles",
        [&[(0, 50.0, 10.0), (1, 46.0, 10.0), (2, 54.0, 10.0)], &[(0, 50.0, 110.0)]],
    );
    add_wall(&mut g, wall(40.0, 60.0, 25.0), CoverKind::Hard);
    add_wall(&mut g, wall(40.0, 60.0, 60.0), CoverKind::Soft);
    let mut actions = [3u8; MAX_MODELS];
    g.move_squad(0, 0, &mut actions);
    for k in 0..3 {
        let p = g.sides[0][0].models[k].pos;
        assert!((p.y - 24.0).abs() < 0.01 && p.x > 40.0 && p.x < 60.0, "model {k} behind the first piece: {p:?}");
        assert!(g.in_cover(p, Pos::new(50.0, 110.0)));
        assert!(actions[k] >= 1, "actions left to fire");
    }
}

#[test]
fn bound_never_runs_to_a_piece_the_enemy_holds() {
    let r = ruleset();
    let keep: [&[(usize, f32, f32)]; 2] = [&[(0, 50.0, 24.0), (1, 46.0, 24.0), (2, 54.0, 24.0)], &[(0, 50.0, 95.0)]];
    // The only piece ahead has the enemy 5 cm behind it: no bound there, straight ahead.
    let mut g = game(&r, &r.skirmish, "regular-rifles", "regular-rifles", keep);
    add_wall(&mut g, wall(40.0, 60.0, 90.0), CoverKind::Hard);
    let mut actions = [3u8; MAX_MODELS];
    g.move_squad(0, 0, &mut actions);
    let p = g.sides[0][0].models[0].pos;
    assert!((p.x - 50.0).abs() < 0.01 && (p.y - 51.0).abs() < 0.01, "{p:?}");
}

#[test]
fn bound_without_cover_ahead_stops_at_short_range_and_never_charges() {
    let r = ruleset();
    // Leader 45 cm from the nearest enemy (bound advances); the flank model is only 30 cm
    // from another enemy model. No cover on the table.
    let mut g = game(
        &r,
        &r.skirmish,
        "regular-rifles",
        "regular-rifles",
        [&[(0, 50.0, 50.0), (1, 90.0, 50.0)], &[(0, 50.0, 95.0), (1, 90.0, 80.0)]],
    );
    let mut actions = [3u8; MAX_MODELS];
    g.move_squad(0, 0, &mut actions);
    let leader = g.sides[0][0].models[0].pos;
    assert!((leader.dist(Pos::new(50.0, 95.0)) - 40.0).abs() < 0.01, "leader stops at 40 cm: {leader:?}");
    let flank = g.sides[0][0].models[1].pos;
    assert_eq!(flank, Pos::new(90.0, 50.0), "already within short range: stays");
    assert_eq!(actions[1], 3, "and keeps its actions to fire");
}

#[test]
fn the_turn_cap_ends_the_game_and_more_points_destroyed_wins() {
    let r = ruleset();
    let mut cfg = r.skirmish.clone();
    cfg.max_turns = 3;
    cfg.table_depth = 1000.0;
    let mut g = Skirmish::new(&r, &cfg, [pick(0); 2]);
    let u = r.find("regular-rifles");
    g.deploy([&[u], &[u]]);
    let out = g.play(&mut FastDice::from_seed(3));
    assert_eq!(out, SkirmishOutcome { winner: None, turns: 3, destroyed: [0.0, 0.0] });
    assert!(g.sides[0][0].models[0].pos.y > 50.0, "side A advanced");
    g.destroyed = [18.0, 11.0];
    assert_eq!(g.outcome().winner, Some(0));
    g.destroyed = [18.0, 36.0];
    assert_eq!(g.outcome().winner, Some(1));
    g.destroyed = [26.0, 26.0];
    assert_eq!(g.outcome().winner, None, "equal points destroyed: a draw");
}

#[test]
fn random_forces_are_legal_and_full() {
    let r = ruleset();
    let cheapest = r.book.units.iter().map(|u| u.cost).fold(f64::MAX, f64::min);
    let mut dice = FastDice::from_seed(1);
    for _ in 0..500 {
        let f = random_force(&r, 200.0, &mut dice);
        let pts: f64 = f.iter().map(|&u| r.book.units[u].cost).sum();
        assert!(pts <= 200.0 && 200.0 - pts < cheapest, "{pts}");
    }
    // "Normal unit configuration": every squad of the cost list is 1 Sergeant + 1–11
    // soldiers with at most one specialist and 2 normal soldiers per specialist.
    for p in &r.profiles {
        let specialists = p.weapons.iter().filter(|&&w| w != p.weapons[0]).count();
        assert!((2..=12).contains(&p.weapons.len()) && specialists <= 1);
        assert!(specialists == 0 || p.weapons.len() >= 4);
    }
}

#[test]
fn skirmish_config_errors_name_the_line_and_key() {
    let text = std::fs::read_to_string("configs/grunt-factor.toml").unwrap();
    let line = text.lines().position(|l| l.starts_with("cover_max =")).unwrap() + 1;
    let t = text.replacen("cover_max = 12", "cover_max = 2", 1);
    let e = GruntFactor::from_source(&Source::from_text("t.toml", t), &Overrides::default()).unwrap_err().to_string();
    assert!(e.starts_with(&format!("t.toml:{line}:13: [skirmish] cover_max must be 8 to 100")), "{e}");
    let t = text.replacen("hard_share = 0.5", "hard_share = 1.5", 1);
    let e = GruntFactor::from_source(&Source::from_text("t.toml", t), &Overrides::default()).unwrap_err().to_string();
    assert!(e.contains("[skirmish] hard_share must be 0 to 1, got 1.5"), "{e}");
    let t = text.replacen("bound_min = 10.0", "bound_min = 10.0\nspeed = 3", 1);
    let e = GruntFactor::from_source(&Source::from_text("t.toml", t), &Overrides::default()).unwrap_err().to_string();
    assert!(e.starts_with("t.toml:") && e.contains("unknown field `speed`"), "{e}");
    let ov = Overrides::parse(&["skirmish.points=0".to_string()]).unwrap();
    let e = GruntFactor::from_source(&Source::from_text("t.toml", text), &ov).unwrap_err().to_string();
    assert!(e.starts_with("--set skirmish.points=0: [skirmish] points must be"), "{e}");
}

#[test]
fn traced_game_moves_round_cover_and_draws_a_replay() {
    let r = ruleset();
    let (replay, out) = traced_game(&r, &Forces::Random, pick(0), 11);
    assert!(out.turns >= 1 && out.turns <= 10);
    let svg = crate::battle::replay::to_svg(&replay);
    assert!(svg.starts_with("<svg") && svg.contains("polyline"));
    assert!(replay.units.iter().any(|u| u.path.len() > 1), "somebody moved");
    for u in &replay.units {
        for w in u.path.windows(2) {
            assert!(replay.table.walls.iter().all(|c| !c.crosses(w[0], w[1])), "a move crossed cover: {w:?}");
        }
    }
}

#[test]
fn hold_stays_out_of_range_where_bound_runs_to_cover_and_takes_cover_not_nearer() {
    // The enemy 100 cm off, beyond short range, a free cover piece 30 cm ahead: `bound` runs
    // to it; `hold` stays. In the open with a piece 1 cm ahead and off to the side, `hold`
    // steps 4 cm sideways behind its end (no nearer the enemy); with the piece 5 cm straight
    // ahead, every spot behind it is nearer the enemy, and it stays.
    let r = ruleset();
    let cfg = r.skirmish.clone();
    let ours: &[(usize, f32, f32)] = &[(0, 50.0, 20.0), (1, 56.0, 20.0)];
    let theirs: &[(usize, f32, f32)] = &[(0, 50.0, 120.0)];
    for (tactic, moves) in [("bound", true), ("hold", false)] {
        let mut g = game(&r, &cfg, "regular-rifles", "regular-rifles", [ours, theirs]);
        add_wall(&mut g, wall(40.0, 66.0, 50.0), CoverKind::Hard);
        g.tactic = [by_name(tactic).expect("listed"); 2];
        let mut actions = [3u8; MAX_MODELS];
        g.move_squad(0, 0, &mut actions);
        let at = g.sides[0][0].models[0].pos;
        assert_eq!(at != Pos::new(50.0, 20.0), moves, "{tactic}: {at:?}");
    }
    for (piece, takes_cover) in [(wall(52.0, 72.0, 21.0), true), (wall(40.0, 66.0, 25.0), false)] {
        let mut g = game(&r, &cfg, "regular-rifles", "regular-rifles", [ours, theirs]);
        let wall_y = piece.a.y;
        add_wall(&mut g, piece, CoverKind::Hard);
        g.tactic = [by_name("hold").expect("listed"); 2];
        let mut actions = [3u8; MAX_MODELS];
        g.move_squad(0, 0, &mut actions);
        let at = g.sides[0][0].models[0].pos;
        assert_eq!(at != Pos::new(50.0, 20.0), takes_cover, "wall at y = {wall_y}: {at:?}");
        assert!(at.y <= 20.0 + EPS, "never nearer the enemy: {at:?}");
    }
}

#[test]
fn hold_keeps_a_prone_squad_prone_where_bound_stands_it_up() {
    // "Go prone/stand": a prone squad free to advance stands up for 1 action a model under
    // `bound`; `hold` never advances, so it stays prone and keeps its actions for fire.
    let r = ruleset();
    let cfg = r.skirmish.clone();
    let ours: &[(usize, f32, f32)] = &[(0, 50.0, 20.0), (1, 56.0, 20.0)];
    for (tactic, stands) in [("bound", true), ("hold", false)] {
        let mut g = game(&r, &cfg, "regular-rifles", "regular-rifles", [ours, &[(0, 50.0, 50.0)]]);
        g.sides[0][0].prone = true;
        g.tactic = [by_name(tactic).expect("listed"); 2];
        let mut actions = [3u8; MAX_MODELS];
        g.move_squad(0, 0, &mut actions);
        assert_eq!(!g.sides[0][0].prone, stands, "{tactic}");
        if !stands {
            assert_eq!(actions[0], 3, "{tactic}: no action spent");
        }
    }
}

#[test]
fn hold_lead_holds_while_level_or_ahead_and_advances_when_behind() {
    // The enemy beyond extreme range (188 cm) and no cover: `advance` walks at it (a prone
    // squad stands up first, 1 action a model), `hold` stays where it is (prone if it was).
    // Level (0 to 0) or ahead on enemy points destroyed, `hold-lead` moves as `hold`; behind,
    // as `advance`: the same positions, prone state and actions left.
    let r = ruleset();
    let cfg = r.skirmish.clone();
    let ours: &[(usize, f32, f32)] = &[(0, 10.0, 10.0), (1, 16.0, 10.0)];
    let theirs: &[(usize, f32, f32)] = &[(0, 170.0, 110.0)];
    let moved = |tactic: &str, destroyed: [f64; 2], prone: bool| {
        let mut g = game(&r, &cfg, "regular-rifles", "regular-rifles", [ours, theirs]);
        g.tactic = [by_name(tactic).expect("listed"); 2];
        g.destroyed = destroyed;
        g.sides[0][0].prone = prone;
        let mut actions = [3u8; MAX_MODELS];
        g.move_squad(0, 0, &mut actions);
        let at: Vec<Pos> = g.sides[0][0].models.iter().map(|m| m.pos).collect();
        (at, g.sides[0][0].prone, actions)
    };
    for prone in [false, true] {
        let (advance, hold) = (moved("advance", [0.0; 2], prone), moved("hold", [0.0; 2], prone));
        assert_ne!(advance.0, hold.0, "prone {prone}: the position tells the two apart");
        for (destroyed, behind) in [([0.0, 0.0], false), ([20.0, 0.0], false), ([0.0, 20.0], true)] {
            let expected = if behind { &advance } else { &hold };
            assert_eq!(&moved("hold-lead", destroyed, prone), expected, "destroyed {destroyed:?}, prone {prone}");
        }
    }
}

/// The rollout's game turns ([`crate::rulesets::rollout::Staged`] for [`Skirmish`]) are
/// [`Skirmish::play`]'s: a set-up game played turn by turn ends with the same winner after the
/// same dice, and so does a clone taken after the first game turn.
#[test]
fn a_skirmish_played_game_turn_by_game_turn_or_from_a_clone_ends_as_played_whole() {
    let r = ruleset();
    for k in 0..10 {
        let mut dice = FastDice::from_seed(k);
        let mut whole = Skirmish::new(&r, &r.skirmish, [pick(0); 2]);
        set_up(&mut whole, &Forces::Random, &mut dice);
        let staged = whole.clone();
        let staged_dice = dice.clone();
        let out = whole.play(&mut dice);
        crate::rulesets::rollout::assert_plays_as_whole(staged, staged_dice, out.winner, &format!("game {k}"));
    }
}

/// A rollout's switch ([`crate::rulesets::rollout::Staged::set_tactic`]) takes effect from the
/// next game turn: a set-up game whose side B is switched to each tactic before the first turn
/// ends, on the same dice, exactly as a game set up with that tactic for B (the same points
/// destroyed and game turns), since deployment does not depend on the tactic.
#[test]
fn a_side_switched_before_the_first_game_turn_plays_as_if_it_started_on_that_tactic() {
    use crate::rulesets::rollout::Staged;
    let r = ruleset();
    for t in 0..crate::rulesets::grunt_factor::tactics::TACTICS.len() {
        for k in 0..4 {
            let mut dice = FastDice::from_seed(100 + k);
            let mut started = Skirmish::new(&r, &r.skirmish, [pick(0), pick(t)]);
            let mut switched = Skirmish::new(&r, &r.skirmish, [pick(0); 2]);
            set_up(&mut started, &Forces::Random, &mut dice.clone());
            set_up(&mut switched, &Forces::Random, &mut dice);
            switched.set_tactic(1, t);
            let out = started.play(&mut dice.clone());
            while switched.stage(&mut dice).is_none() {}
            assert_eq!(switched.outcome(), out, "tactic {t}, game {k}");
        }
    }
}

/// Both sides on `bound` (the metagame's `advance` beats it): side A's rollout finds that
/// leaving `bound` pays, switches at some game turns, and its gain's 95% interval lies above 0.
#[test]
fn a_side_facing_bound_gains_by_leaving_bound() {
    let g = crate::rulesets::skirmish::rollout_against_both_on(&ruleset(), "bound", 60, 8);
    let a = g.sides[0];
    assert!(a.gain.lo > 0.0 && a.switched > 0.0, "{g:?}");
}
