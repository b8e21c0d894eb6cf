//! Scenario tests of the default tactic's movement ([`wanted_gap`]): constructed positions
//! on the duel line, scripted dice where an attack follows. Section II: both figures move
//! (first player first), then distance attacks, then hand-to-hand attacks.
use super::*;
use crate::dice::ScriptedDice;
use crate::rulesets::vsgmr::tests::ruleset;

/// A duel of `a` (side A, x = 0) and `b` (side B, x = `gap`) on the 48" duel line.
fn duel(r: &Vsgmr, a: &str, b: &str, gap: f32) -> Battle {
    let mut bt = Battle::default();
    bt.deploy(r, r.find(a), 1, r.find(b), 1, gap, 1.0);
    bt.round = 1;
    bt
}

#[test]
fn a_shooter_steps_out_of_base_contact_with_a_charger_and_shoots_it() {
    // The hero in heavy armor moves first and charges from 6" into base contact; the
    // shooter, moving second, steps back out to 2" (its next Move can take it beyond the
    // hero's 7" charge reach) and shoots before any hand-to-hand attack (section II.3).
    // Dice: the shot 5 (hits on 5+), the hero's armor 1 (heavy armor needs 4).
    let r = ruleset();
    let mut b = duel(&r, "troop-with-distance-attack", "hero-with-heavy-armor", 6.0);
    let mut dice = ScriptedDice::new(&[5, 1]);
    play_round(&r, &mut b, &mut dice, 1, &mut Vec::new());
    assert_eq!((b.figs[0].x, b.figs[1].x), (-1.0, 1.0), "the hero charged to 1\", the shooter fell back 1\"");
    assert!(b.figs[0].alive && !b.figs[1].alive);
    assert_eq!(dice.used(), 2, "no hand-to-hand attack: the figures are 2\" apart");
}

#[test]
fn a_shooter_moving_first_keeps_beyond_a_chargers_reach() {
    // Moving first, the shooter falls back from 6" to 8" (the hero's 6" Move + 1" contact
    // is 7"), the hero closes to 2" and cannot reach, and the shot (6) defeats it (armor 1).
    let r = ruleset();
    let mut b = duel(&r, "troop-with-distance-attack", "hero-with-heavy-armor", 6.0);
    let mut dice = ScriptedDice::new(&[6, 1]);
    play_round(&r, &mut b, &mut dice, 0, &mut Vec::new());
    assert_eq!((b.figs[0].x, b.figs[1].x), (-2.0, 0.0));
    assert!(b.figs[0].alive && !b.figs[1].alive);
    // At its table edge (18" behind its start on the 48" line at 12") it cannot fall back.
    let mut b = duel(&r, "troop-with-distance-attack", "hero-with-heavy-armor", 12.0);
    (b.figs[0].x, b.figs[1].x) = (-18.0, -12.0);
    move_figure(&r, &mut b, 0);
    assert_eq!(b.figs[0].x, -18.0);
}

#[test]
fn a_shooter_moving_second_steps_into_contact_to_shoot_before_a_hand_to_hand_attack() {
    // Issue 15: the hero with a distance attack closes into base contact on a troop with
    // automatic fire; it moved first and stands 6" away. Held there, the hero shoots first
    // (section II.3: the first player's distance attacks first, d6 + 1 ≥ 5: ½); in base
    // contact the hero fights hand to hand and the troop's shot (2d6 keep the higher ≥ 5:
    // 5/9) comes before every hand-to-hand attack (section II, steps 3 and 4). So the troop,
    // moving second, steps into base contact (it held at 6" under the old rule).
    let r = ruleset();
    let mut b = duel(&r, "troop-with-automatic-fire", "hero-with-distance-attack", 6.0);
    b.figs[1].moved = true;
    move_figure(&r, &mut b, 0);
    assert_eq!(b.figs[0].x, 5.0, "into base contact");
    // Dice: the troop's shot 5 and 2 (keeps the 5: a hit; the hero has no armor).
    let mut dice = ScriptedDice::new(&[5, 2]);
    b.round = 1;
    distance_attack(&r, &mut b, &mut dice, 1);
    distance_attack(&r, &mut b, &mut dice, 0);
    hand_to_hand_attack(&r, &mut b, &mut dice, 1);
    assert!(b.figs[0].alive && !b.figs[1].alive);
    assert_eq!(dice.used(), 2, "the hero fought hand to hand and made no shot");
    // Moving first from 12", the hero stops beyond the troop's reach into base contact
    // (its 6" Move + 1") instead of closing to 6" (where the troop would step in and shoot
    // first); the troop then shoots second at it.
    let mut b = duel(&r, "hero-with-distance-attack", "troop-with-automatic-fire", 12.0);
    move_figure(&r, &mut b, 0);
    assert!(b.figs[0].x < 5.0 - EPS && b.figs[0].x >= 0.0, "{}", b.figs[0].x);
}

#[test]
fn hand_to_hand_figures_charge_moving_first_and_step_out_moving_second() {
    // Troop against troop: the first mover strikes first in hand to hand, so moving first
    // a troop charges (7" is within its Move + contact) ...
    let r = ruleset();
    let mut b = duel(&r, "troop", "troop", 7.0);
    move_figure(&r, &mut b, 0);
    assert_eq!(b.figs[0].x, 6.0);
    // ... and moving second, charged into base contact, it steps out to 2" instead of
    // being struck first (no attack this round).
    let mut b = duel(&r, "troop", "troop", 1.0);
    b.figs[1].moved = true;
    move_figure(&r, &mut b, 0);
    assert_eq!(b.figs[0].x, -1.0);
    // A hero in heavy armor fights a troop even when struck first (the exchange favours it).
    let mut b = duel(&r, "hero-with-heavy-armor", "troop", 1.0);
    b.figs[1].moved = true;
    move_figure(&r, &mut b, 0);
    assert_eq!(b.figs[0].x, 0.0);
}

#[test]
fn shooters_pin_moving_first_and_leave_an_even_exchange_moving_second() {
    // Two troops with distance attacks 12" apart. Moving first, one closes to 6": the other's
    // 6" Move cannot take it out of range before the first player shoots first.
    let r = ruleset();
    let mut b = duel(&r, "troop-with-distance-attack", "troop-with-distance-attack", 12.0);
    move_figure(&r, &mut b, 0);
    assert_eq!(b.figs[0].x, 6.0);
    // Moving second (struck first, an even exchange is a losing one), it steps out of range.
    let mut b = duel(&r, "troop-with-distance-attack", "troop-with-distance-attack", 12.0);
    b.figs[1].moved = true;
    move_figure(&r, &mut b, 0);
    assert_eq!(b.figs[0].x, -1.0);
}

#[test]
fn in_base_contact_an_even_shot_goes_before_hand_to_hand() {
    // Troop Sharpshooter against a troop: a shot (d6 + 1 ≥ 5) and a hand-to-hand attack
    // (d6 ≥ 4) both defeat it half the time; the shot comes first (section II), so it shoots.
    let r = ruleset();
    let (s, t) = (r.profile(r.find("troop-sharpshooter")), r.profile(r.find("troop")));
    assert_eq!(p_defeat(s, t, AttackKind::Distance), p_defeat(s, t, AttackKind::HandToHand));
    assert_eq!(attack_choice(s, t, 1.0, r.book.rules.contact), Some(AttackKind::Distance));
}
