use super::*;
use crate::dice::ScriptedDice;
use crate::rulesets::grunt_factor::tests::ruleset;

#[test]
fn to_hit_follows_the_book_example_and_panic_halves_first() {
    // "Marine (RC 7) with assault rifle (+2 in short range) ... covered more than 50%":
    // the book's own example reads 7 + 2 - 1 = 8; a roll of 6 hits.
    assert_eq!(hit_value(7, false, 2, false, false) - 1, 8);
    assert!(6 <= hit_value(7, false, 2, false, false) - 1);
    // Panic halves RC, rounding down, before modifiers: 7 → 3, +1 SR, +3 aim, −1 prone = 6.
    assert_eq!(hit_value(7, true, 1, true, true), 6);
    let mut d = ScriptedDice::new(&[6, 7]);
    assert!(roll_under(&mut d, 6));
    assert!(!roll_under(&mut d, 6));
}

#[test]
fn saves_follow_the_book_examples_with_xn() {
    // Dam 8 vs A 8: save on 10 or less; Dam 10: 8 or less; Dam 6: 12 or less.
    assert_eq!((save_value(8, 8), save_value(8, 10), save_value(8, 6)), (10, 8, 12));
    // (x2): both saves must pass. Rolls 8 then 9 against 8: the second fails → removed.
    let mut d = ScriptedDice::new(&[8, 9]);
    assert!(fails_saves(&mut d, 8, 10, 2));
    let mut d = ScriptedDice::new(&[8, 1]);
    assert!(!fails_saves(&mut d, 8, 10, 2));
    // A first failure ends it: one die only.
    let mut d = ScriptedDice::new(&[20]);
    assert!(fails_saves(&mut d, 8, 10, 2));
    assert_eq!(d.used(), 1);
    assert!((p_kill_per_hit(8, 10, 2) - (1.0 - 0.16)).abs() < 1e-12);
    // The assault rifle's long-range Dam 0 as printed: Regular (A 7) saves on 17.
    assert!((p_kill_per_hit(7, 0, 1) - 0.15).abs() < 1e-12);
}

#[test]
fn bands_and_sighting() {
    let r = ruleset();
    let b: Vec<Option<usize>> =
        [0.0, 5.0, 20.0, 20.5, 40.0, 70.0, 110.0, 140.0, 141.0].iter().map(|&d| band(&r, d)).collect();
    assert_eq!(b, [Some(0), Some(1), Some(1), Some(2), Some(2), Some(3), Some(4), Some(5), None]);
    assert!(!needs_ld_test(&r, 60.0) && needs_ld_test(&r, 61.0));
}

#[test]
fn morale_triggers() {
    let r = ruleset();
    // The leader (first casualty) killed: due.
    assert!(morale_check_due(&r, 5, 5, 4));
    // 4 → 3 of 5: 1 of 4 is 25%, not more; size 3 is not below 50%: not due.
    assert!(!morale_check_due(&r, 5, 4, 3));
    // 1 of 11 killed: nothing.
    assert!(!morale_check_due(&r, 12, 11, 10));
    // 6 → 5 of 12: 1 of 6 is not more than 25%, but the squad is below half for the first time.
    assert!(morale_check_due(&r, 12, 6, 5));
    assert!(!morale_check_due(&r, 12, 5, 4), "already below half, 1 of 5 is not more than 25%");
    assert!(!morale_check_due(&r, 12, 5, 5));
}

#[test]
fn panic_goes_prone_then_recovers_with_three_actions() {
    let r = ruleset();
    let p = r.profile(r.find("regular-rifles"));
    let mut q = Squad { unit: 0, alive: 4, x: 0.0, panicked: true, prone: false, fired_on: true, activated: false };
    let mut actions = [3u8; 4];
    // Leader LD 9 (the Sergeant is dead: no CO bonus), under fire −4: pass on 5 or less.
    let mut d = ScriptedDice::new(&[5]);
    panic_step(&r, p, &mut q, true, &mut actions, &mut d);
    assert!(q.prone && !q.panicked);
    assert_eq!(actions, [1, 1, 1, 2], "prone: one each; recovery: one each from the first three");
    let mut q2 = Squad { panicked: true, prone: true, fired_on: false, ..q };
    let mut actions = [3u8; 4];
    let mut d = ScriptedDice::new(&[8]);
    panic_step(&r, p, &mut q2, true, &mut actions, &mut d);
    assert!(q2.panicked, "LD 9 − 2 = 7: a roll of 8 fails");
    // Too few actions: no test, no die.
    let mut actions = [1u8, 1];
    let mut d = ScriptedDice::new(&[]);
    let mut q3 = Squad { panicked: true, prone: true, ..q };
    panic_step(&r, p, &mut q3, true, &mut actions, &mut d);
    assert!(q3.panicked && d.used() == 0);
    // The tactic does not try: no test, every action kept for its fire.
    let mut actions = [3u8; 4];
    let mut q4 = Squad { panicked: true, prone: true, ..q };
    panic_step(&r, p, &mut q4, false, &mut actions, &mut d);
    assert!(q3.panicked && d.used() == 0);
}

#[test]
fn a_panicked_squad_in_a_firefight_fires_instead_of_testing_to_recover() {
    // "Recovering from panic" (3 actions, an LD test) is optional; the default tactic tests
    // only when the actions would fire at nothing ([`tries_recovery`]). A panicked, prone
    // Regular rifle squad of 4, 50 cm from Regular Rifles (medium range, halved RC 3: it
    // can hit) keeps its actions and fires: the first die, a 1, is a shot's, not a passed
    // test (the old rule tested first and recovered). 150 cm away (beyond the 140 cm of
    // extreme range) it has nothing to hit, tests and recovers.
    let r = ruleset();
    let rifles = r.find("regular-rifles");
    for (d, tests) in [(50.0, false), (150.0, true)] {
        let mut b = Battle::default();
        b.deploy(&r, rifles, 1, rifles, 1, d);
        b.sides[0][0] = Squad { alive: 4, panicked: true, prone: true, fired_on: true, ..b.sides[0][0] };
        let mut rolls = vec![20; 60];
        rolls[0] = 1;
        let mut dice = ScriptedDice::new(&rolls);
        activate(&r, &mut b, 0, 0, &mut dice);
        assert_eq!(b.sides[0][0].panicked, !tests, "{d} cm");
        assert!(tests || dice.used() > 1, "{d} cm: it fired");
    }
    assert!(tries_recovery(0.0) && !tries_recovery(1e-9));
}

#[test]
fn failed_checks_panic_and_fall_back() {
    let mut q = Squad { unit: 0, alive: 3, x: 50.0, panicked: false, prone: false, fired_on: true, activated: false };
    let mut d = ScriptedDice::new(&[10, 11]);
    morale_after_fire(&mut q, true, 11, 9, 1.0, &mut d);
    assert!(q.panicked);
    assert_eq!(q.x, 60.0);
    let mut d = ScriptedDice::new(&[9]);
    let mut q = Squad { panicked: false, x: 50.0, ..q };
    morale_after_fire(&mut q, true, 10, 9, 1.0, &mut d);
    assert!(!q.panicked && q.x == 50.0, "10 hits are not more than 10");
}

/// The planning view of a fresh squad `a` against a fresh squad `b` (open ground).
fn fresh_plan(r: &GruntFactor, a: &str, b: &str, d: f64) -> (u8, f64) {
    let (p, q) = (r.profile(r.find(a)), r.profile(r.find(b)));
    let t = Aiming { target: q, target_prone: false, panicked: false, ld: leader_ld(p, p.size()) };
    let back = Threat {
        profile: q,
        alive: q.size(),
        aiming: Aiming { target: p, target_prone: false, panicked: false, ld: leader_ld(q, q.size()) },
    };
    let plan = plan_moves(r, p, p.size(), d, true, false, &t, &back);
    (plan.moves, plan.to)
}

#[test]
fn smgs_at_medium_range_close_to_short_range() {
    // "Actions", "Move", "Ranges": Regular SMGs (RC 7) 50 cm from Regular Rifles. At MR the
    // SMG fires 1 shot at −1 (Dam 8): 3 × 6/20 × 11/20 = 0.495 a model; one move (41 cm)
    // stays at MR; two moves (32 cm, SR: 2 shots at +1, Dam 9) leave one action:
    // 2 × 8/20 × 12/20 = 0.48 < 0.495, so the one-turn rule held at 50 cm all game. Next
    // turn at SR all 3 actions fire: 1.44 a model, against the rifles' 0.78. The 3-turn
    // look-ahead (our kills minus the rifles' fire back, with losses) takes the two moves.
    let r = ruleset();
    assert_eq!(fresh_plan(&r, "regular-smgs", "regular-rifles", 50.0), (2, 32.0));
    assert_eq!(fresh_plan(&r, "regular-smgs", "regular-rifles", 41.0), (1, 32.0), "as the one-turn rule");
    assert_eq!(fresh_plan(&r, "regular-smgs", "regular-rifles", 32.0), (0, 32.0), "holds at short range");
    // Rifles gain nothing by closing on rifles or SMGs: they hold and fire.
    assert_eq!(fresh_plan(&r, "regular-rifles", "regular-rifles", 50.0), (0, 50.0));
    assert_eq!(fresh_plan(&r, "regular-rifles", "regular-smgs", 50.0), (0, 50.0));
    // Beyond sighting (60 cm) each Fire action needs an LD test (1/2 here): from 70 cm the
    // SMGs hold (walking into the rifles' medium range costs more than it gains), and so
    // do the rifles: with the kills spread over the models ([`spread`]) a step to 61 cm
    // (to fire without the test next turn) no longer scores above holding.
    assert_eq!(fresh_plan(&r, "regular-smgs", "regular-rifles", 70.0), (0, 70.0));
    assert_eq!(fresh_plan(&r, "regular-rifles", "regular-smgs", 70.0), (0, 70.0));
}

#[test]
fn smgs_facing_an_lmg_squad_close_to_short_range_though_they_overkill_there_on_paper() {
    // Regular SMGs 50 cm from a Regular LMG squad (4 Assault Rifles and an LMG). At SR
    // the 5 SMGs expect 7.2 kills a turn, more than the 5 models there: under the hard cap
    // min(x, b) every plan that reached SR "destroyed" the squad alike, so the look-ahead
    // only counted the fire it took there and held at MR (the optimal-play best response
    // gained 6.4 points by closing). Spread over the models ([`spread`]), the stronger
    // fire keeps its credit: two moves to 32 cm.
    let r = ruleset();
    assert_eq!(fresh_plan(&r, "regular-smgs", "regular-lmg", 50.0), (2, 32.0));
    assert_eq!(fresh_plan(&r, "regular-smgs", "regular-hmg", 50.0), (2, 32.0));
    // One model, x expected removing hits: P(at least one) = 1 − e^(−x).
    assert!((spread(1.0, 1.0) - (1.0 - (-1.0f64).exp())).abs() < 1e-15);
    assert!(spread(7.2, 5.0) < 5.0 && spread(0.5, 5.0) < 0.5 && spread(0.5, 5.0) > 0.47);
    assert_eq!((spread(1.0, 0.0), spread(0.0, 3.0)), (0.0, 0.0));
}

#[test]
fn the_horizon_rule_never_holds_blind_and_moves_all_when_nothing_is_in_reach() {
    let r = ruleset();
    // Nothing to hit within the horizon: every action moves (the one-turn rule's fallback).
    assert_eq!(horizon_plan(&r, 3, 3, 9.0, 200.0, MIN_GAP, [5.0, 5.0], |_, _| 0.0, |_| 0.0).moves, 3);
    // In reach after 4 moves only, the enemy firing back the same everywhere: holding
    // blind is not allowed, so the shooter spends at least one move now.
    let ours = |d: f64, n: u8| if d <= 64.0 { n as f64 } else { 0.0 };
    let m = horizon_plan(&r, 3, 3, 9.0, 100.0, MIN_GAP, [5.0, 5.0], ours, |_| 0.5).moves;
    assert!(m >= 1, "{m}");
    // A shooter that can fire where it stands and gains nothing by moving holds.
    assert_eq!(horizon_plan(&r, 3, 3, 9.0, 50.0, MIN_GAP, [5.0, 5.0], |_, n| n as f64, |_| 1.0).moves, 0);
    // Fire twice as good at PB (≤ 20 cm) as at SR: from 25 cm one move (16 cm) and two
    // Fire actions (0.4) beat three at SR (0.3) this turn, and every turn after.
    let pb = |d: f64, n: u8| n as f64 * if d <= 20.0 { 0.2 } else { 0.1 };
    assert_eq!(horizon_plan(&r, 3, 3, 9.0, 25.0, MIN_GAP, [5.0, 5.0], pb, |_| 0.0).moves, 1);
}

#[test]
fn an_smg_squad_at_50_cm_moves_to_short_range_and_fires_its_last_action() {
    // The SMG squad activates 50 cm from Regular Rifles: two moves to 32 cm (SR), then each
    // of the 5 models fires its one action: 2 shots each, all scripted to miss (20).
    let r = ruleset();
    let mut b = Battle::default();
    b.deploy(&r, r.find("regular-smgs"), 1, r.find("regular-rifles"), 1, 50.0);
    let rolls = vec![20; 10];
    let mut d = ScriptedDice::new(&rolls);
    activate(&r, &mut b, 0, 0, &mut d);
    assert_eq!(d.used(), rolls.len(), "one Fire action of 2 shots per model");
    assert_eq!((b.sides[0][0].x, b.sides[1][0].x), (18.0, 50.0));
    assert_eq!(b.sides[1][0].alive, 5);
}

#[test]
fn one_scripted_fire_action_with_xn_shots() {
    // A fresh Regular LMG squad fires at Regular rifles (A 7) 10 cm away (PB).
    let r = ruleset();
    let mut b = Battle::default();
    b.deploy(&r, r.find("regular-lmg"), 1, r.find("regular-rifles"), 1, 10.0);
    // The Sergeant (AR, PB +2, RC 9 → hits on 9 or less, Dam 10 → save on 7 or less):
    // at PB plain fire: 3 actions, 1 shot each. Aim? plain 3 × 9/20 vs aimed 2 × 12/20:
    // 1.35 < 1.2? No: plain is better, so no aim.
    // Sergeant: hit 1, save 8 (fails → the enemy Sergeant dies), hit 20 (miss), hit 1 save 1.
    // LMG: 3 actions × 3 shots at +3: hit value 10, Dam 11 → save 6 or less.
    // Then 3 soldiers × 3 actions. We script misses (20) for everyone after the Sergeant.
    let mut rolls = vec![1, 8, 20, 1, 1];
    rolls.extend(std::iter::repeat_n(20, 9 + 9));
    // Morale: the leader died → check against LD 9 (no CO): roll 10 fails → panicked.
    rolls.push(10);
    let mut d = ScriptedDice::new(&rolls);
    activate(&r, &mut b, 0, 0, &mut d);
    assert_eq!(d.used(), rolls.len());
    let t = b.sides[1][0];
    assert_eq!((t.alive, t.panicked, t.fired_on), (4, true, true));
}

/// A Regular SMG squad, prone (recovered from panic) and not panicked, `d` cm from Regular
/// Rifles: one activation with every die a miss (20). Returns (distance moved, prone, dice
/// used).
fn prone_smgs_activate(d: f64) -> (f64, bool, usize) {
    let r = ruleset();
    let mut b = Battle::default();
    b.deploy(&r, r.find("regular-smgs"), 1, r.find("regular-rifles"), 1, d);
    b.sides[0][0].prone = true;
    let rolls = vec![20; 64];
    let mut dice = ScriptedDice::new(&rolls);
    activate(&r, &mut b, 0, 0, &mut dice);
    (b.sides[0][0].x, b.sides[0][0].prone, dice.used())
}

#[test]
fn prone_squads_crawl_at_a_third_of_mv_or_pay_an_action_to_stand() {
    // "Go prone/stand": "It takes one action to go prone or to stand up from prone
    // position. While prone the soldiers movement is reduced to 1/3 of the original
    // speed"; "Modifiers to movement": Prone 1/3 MV. The old duel moved a prone squad at
    // full MV (9 cm an action) and never stood it up.
    // 42 cm: one crawl (3 cm) reaches short range (39 cm); the squad stays prone and each
    // of its 5 models fires its other 2 actions, 2 shots each (all missing: 20 dice).
    assert_eq!(prone_smgs_activate(42.0), (3.0, true, 20));
    // 130 cm: nothing to hit within the horizon crawling: the squad stands (1 action each),
    // moves 9 cm (1 action) and its last Fire action at 121 cm first needs the LD test
    // beyond sighting: one die a model (20: failed).
    assert_eq!(prone_smgs_activate(130.0), (9.0, false, 5));
    // At short range it holds and fires all 3 actions prone: standing would only cost one.
    assert_eq!(prone_smgs_activate(30.0), (0.0, true, 30));
}
