//! Scenario tests of the Skirmish tactics' movement (section II.2): constructed positions on
//! the duel line (side A at x = 0 facing side B along +x), scripted dice where attacks follow.

use super::pick;
use crate::dice::ScriptedDice;
use crate::rulesets::vsgmr::Vsgmr;
use crate::rulesets::vsgmr::rules::{Battle, move_figure, play_round};
use crate::rulesets::vsgmr::tests::ruleset;

/// One figure of `a` (side A, x = 0) against one of `b` (side B, x = `gap`), in round 1.
fn line(r: &Vsgmr, a: &str, b: &str, gap: f32) -> Battle {
    let mut bt = Battle::default();
    bt.deploy(r, r.find(a), 1, r.find(b), 1, gap, 1.0);
    bt.round = 1;
    bt
}

/// The place of the tactic named `name` in the portfolio.
fn index(name: &str) -> usize {
    super::TACTICS.iter().position(|t| t.name == name).expect("a tactic of the portfolio")
}

/// The tactic of the portfolio named `name` moves figure `i`.
fn moves(name: &str, r: &Vsgmr, b: &mut Battle, i: usize) {
    pick(index(name)).tactic().move_figure(r, b, i);
}

#[test]
fn hold_stays_where_the_default_tactic_would_charge() {
    // Troop against troop 6" apart, side A moving first: the default tactic charges into
    // base contact (the first mover strikes first); `hold` stays and has had its move.
    let r = ruleset();
    let mut b = line(&r, "troop", "troop", 6.0);
    move_figure(&r, &mut b, 0);
    assert_eq!(b.figs[0].x, 5.0, "the default tactic charges into base contact");
    let mut b = line(&r, "troop", "troop", 6.0);
    moves("hold", &r, &mut b, 0);
    assert_eq!((b.figs[0].x, b.figs[0].y), (0.0, 0.0), "hold does not move");
    assert!(b.figs[0].moved, "its movement step is taken");
}

#[test]
fn hold_shoots_from_where_it_stands_at_what_comes_in_range() {
    // A shooter against a troop 16" away, out of range (12"): moving first, the default tactic
    // closes to its range; `hold` stays. The troop (default) then closes its 6" Move to 10",
    // into the held shooter's range, and the shot (5: a hit; the troop has no armor) defeats
    // it before any hand-to-hand attack.
    let r = ruleset();
    let mut b = line(&r, "troop-with-distance-attack", "troop", 16.0);
    move_figure(&r, &mut b, 0);
    assert_eq!(b.figs[0].x, 4.0, "the default tactic closes to its range");
    let mut b = line(&r, "troop-with-distance-attack", "troop", 16.0);
    b.tactic = [index("hold"), 0];
    let mut dice = ScriptedDice::new(&[5]);
    play_round(&r, &mut b, &mut dice, 0, &mut Vec::new());
    assert_eq!(b.figs[0].x, 0.0, "the shooter held");
    assert_eq!(b.figs[1].x, 10.0, "the troop closed one Move");
    assert!(b.figs[0].alive && !b.figs[1].alive, "the shot defeated the troop");
    assert_eq!(dice.used(), 1);
}

#[test]
fn hold_still_plays_a_scenarios_goal() {
    // Section VIII: a figure with a goal moves toward it under `hold` as under the default.
    use crate::battle::Pos;
    use crate::rulesets::vsgmr::skirmish::mission::Goal;
    let r = ruleset();
    let mut b = line(&r, "troop", "troop", 20.0);
    b.objective.goals = vec![Goal::To { at: Pos::new(0.0, 10.0), stop: 0.0, exit: false }, Goal::Fight];
    moves("hold", &r, &mut b, 0);
    assert_eq!((b.figs[0].x, b.figs[0].y), (0.0, 6.0), "one Move toward the goal");
}

#[test]
fn charge_takes_a_shooter_into_base_contact_where_the_default_holds_at_range() {
    // A shooter 6" from a troop that has already moved (and so cannot reach it this round):
    // the default tactic stays where it stands and shoots; `charge` closes into base contact
    // (1"). From 12" it moves its whole Move (6").
    let r = ruleset();
    let mut b = line(&r, "troop-with-distance-attack", "troop", 6.0);
    b.figs[1].moved = true;
    move_figure(&r, &mut b, 0);
    assert_eq!(b.figs[0].x, 0.0, "the default tactic stays at range");
    let mut b = line(&r, "troop-with-distance-attack", "troop", 6.0);
    b.figs[1].moved = true;
    moves("charge", &r, &mut b, 0);
    assert_eq!(b.figs[0].x, 5.0, "charge ends in base contact");
    let mut b = line(&r, "troop-with-distance-attack", "troop", 12.0);
    moves("charge", &r, &mut b, 0);
    assert_eq!(b.figs[0].x, 6.0, "one Move toward the troop");
}

#[test]
fn charge_never_falls_back() {
    // The shooter moving first against a charger 6" away falls back under the default tactic
    // (beyond the hero's 7" reach); under `charge` it closes into base contact instead.
    let r = ruleset();
    let mut b = line(&r, "troop-with-distance-attack", "hero-with-heavy-armor", 6.0);
    move_figure(&r, &mut b, 0);
    assert!(b.figs[0].x < 0.0, "the default tactic falls back: {}", b.figs[0].x);
    let mut b = line(&r, "troop-with-distance-attack", "hero-with-heavy-armor", 6.0);
    moves("charge", &r, &mut b, 0);
    assert_eq!(b.figs[0].x, 5.0);
}

#[test]
fn charge_moves_as_the_default_tactic_in_the_air() {
    // Section V, Flight: a figure in flight "cannot make hand to hand attacks or be attacked
    // in hand to hand combat", so closing into base contact gains nothing. A shooter 12" from
    // another, one of them in flight: `charge` moves where the default tactic does, short of
    // base contact.
    let r = ruleset();
    for flier in [0, 1] {
        let start = || {
            let mut b = line(&r, "troop-with-distance-attack", "troop-with-distance-attack", 12.0);
            b.figs[flier].flying = true;
            b
        };
        let mut default = start();
        move_figure(&r, &mut default, 0);
        let mut charged = start();
        moves("charge", &r, &mut charged, 0);
        let at = |b: &Battle| (b.figs[0].x, b.figs[0].y);
        assert_eq!(at(&charged), at(&default), "figure {flier} in flight");
        assert!(charged.dist(0, 1) > r.book.rules.contact + 0.5, "figure {flier} in flight: no base contact");
    }
}

#[test]
fn keep_out_stays_beyond_the_enemys_move_and_reach_and_shoots_from_there() {
    // A shooter (12" Distance Attack Unit) 5" from a troop (6" Move, no distance attack): the
    // troop threatens its Move plus base contact, 7"; `keep-out` falls back to one contact
    // beyond, 8", where its own shot still reaches.
    let r = ruleset();
    let gap = |b: &Battle| ((b.figs[1].x - b.figs[0].x).powi(2) + (b.figs[1].y - b.figs[0].y).powi(2)).sqrt();
    let mut b = line(&r, "troop-with-distance-attack", "troop", 5.0);
    moves("keep-out", &r, &mut b, 0);
    assert!((gap(&b) - 8.0).abs() < 1e-4, "{}", gap(&b));
    // Once the troop has moved this round only its reach counts now (2"), but its next Move
    // still does next round: from 5" the shooter falls back to 8" all the same, and from 16"
    // it closes to 10" (its whole 6" Move) toward 8".
    let mut b = line(&r, "troop-with-distance-attack", "troop", 5.0);
    b.figs[1].moved = true;
    moves("keep-out", &r, &mut b, 0);
    assert!((gap(&b) - 8.0).abs() < 1e-4, "{}", gap(&b));
    let mut b = line(&r, "troop-with-distance-attack", "troop", 16.0);
    b.figs[1].moved = true;
    moves("keep-out", &r, &mut b, 0);
    assert!((gap(&b) - 10.0).abs() < 1e-4, "{}", gap(&b));
    // Against another shooter the threat is 12" + 6": from 16" it falls back to one contact
    // beyond, 19"; the default tactic would hold at its own range.
    let mut b = line(&r, "troop-with-distance-attack", "troop-with-distance-attack", 16.0);
    moves("keep-out", &r, &mut b, 0);
    assert!((gap(&b) - 19.0).abs() < 1e-4, "{}", gap(&b));
    // A round with the other shooter (default) moving first: it closes at most its Move
    // toward its range, and `keep-out`, moving second, keeps more than that shooter's 12"
    // away: neither shot reaches, so no die is rolled.
    b.tactic = [index("keep-out"), 0];
    let mut dice = ScriptedDice::new(&[]);
    crate::rulesets::vsgmr::rules::play_round(&r, &mut b, &mut dice, 1, &mut Vec::new());
    assert!(gap(&b) > 12.0 + 1e-4 && dice.used() == 0, "{}", gap(&b));
}

#[test]
fn keep_out_lets_the_enemy_take_the_first_turn_on_winning_the_initiative() {
    // Side A wins the roll-off 6 to 1: under the default tactic it goes first; under
    // `keep-out` it gives the first turn to side B (section II.1: the winner chooses).
    let r = ruleset();
    let mut b = line(&r, "troop-with-distance-attack", "troop", 16.0);
    let first = |b: &Battle| crate::rulesets::vsgmr::rules::initiative(&r, b, &mut ScriptedDice::new(&[6, 1]));
    assert_eq!(first(&b), 0);
    b.tactic = [index("keep-out"), 0];
    assert_eq!(first(&b), 1);
    b.tactic = [0, index("keep-out")];
    assert_eq!(first(&b), 0, "the loser's tactic does not choose");
}
