//! Scenario tests of the duel game's tactics on a constructed line game with known odds: each
//! tactic's choice in positions set up for it, and the portfolio's cells and bounds.

use super::*;
use crate::rulesets::optimal::{GameValue, Order, Policy, Setup, portfolio, solve};

const FIRE: u16 = 0;
const WAIT: u16 = 1;

/// Two units on a line 24" deep, 12" apart on a 1" grid, closest approach 1". Each has 2
/// wounds (state = wounds left, 0 destroyed); it may move up to `moves[s]` cells either way,
/// then fire (hits with `hit[s]` within `range[s]` inches, one wound) or wait. With
/// `fires_after_moving[s]` false, firing after a move does nothing. `order`: who acts first.
/// `blast[s]`: the gap up to which side `s`'s fire also wounds itself.
struct LineGame {
    range: [f64; 2],
    /// Gaps below which a side cannot fire (inches; 0: none).
    min_range: [f64; 2],
    moves: [i16; 2],
    hit: [f64; 2],
    fires_after_moving: [bool; 2],
    rounds: u32,
    order: Order,
    /// Gaps up to which a side's fire also takes one wound of its own (inches; 0: none), as a
    /// blast that catches its firer.
    blast: [f64; 2],
}

impl LineGame {
    fn new(range: [f64; 2], moves: [i16; 2]) -> Self {
        LineGame {
            range,
            min_range: [0.0, 0.0],
            moves,
            hit: [0.5, 0.5],
            fires_after_moving: [true, true],
            rounds: 30,
            order: Order::Alternate,
            blast: [0.0; 2],
        }
    }
}

impl DuelGame for LineGame {
    fn setup(&self) -> Setup {
        Setup { line: Line::new(24.0, 12.0, 1.0, 1.0).unwrap(), max_rounds: self.rounds, order: self.order }
    }
    fn n_states(&self, _s: Side) -> usize {
        3
    }
    fn start_state(&self, _s: Side) -> usize {
        2
    }
    fn destroyed(&self, _s: Side, u: usize) -> bool {
        u == 0
    }
    fn n_actions(&self) -> usize {
        2
    }
    fn options(&self, s: Side, _me: usize, _other: usize, at: Spot, out: &mut Vec<Choice>) {
        out.push(Choice { advance: 0, action: WAIT });
        for adv in -self.moves[s]..=self.moves[s] {
            if (adv < 0 && -adv > at.room as i16) || (adv > 0 && adv > at.ahead as i16) {
                continue;
            }
            let action = if adv != 0 && !self.fires_after_moving[s] { WAIT } else { FIRE };
            if adv != 0 || action == FIRE {
                out.push(Choice { advance: adv, action });
            }
        }
    }
    fn scripted(&self, _s: Side, _me: usize, _other: usize, _at: Spot) -> Choice {
        Choice { advance: 0, action: FIRE }
    }
    fn outcomes(&self, s: Side, action: u16, me: usize, other: usize, gap: f64, out: &mut Vec<(f64, usize, usize)>) {
        if action == FIRE && gap <= self.range[s] + 1e-9 && gap >= self.min_range[s] - 1e-9 {
            let me = if gap <= self.blast[s] + 1e-9 { me - 1 } else { me };
            out.push((self.hit[s], me, other - 1));
            out.push((1.0 - self.hit[s], me, other));
        } else {
            out.push((1.0, me, other));
        }
    }
    fn strength(&self, _s: Side, u: usize) -> f64 {
        u as f64 / 2.0
    }
}

/// The view of side `s` with both units whole, the gap `gap` (inches) and `s` with `room`
/// cells behind it.
fn view<'a>(g: &'a LineGame, memo: &'a Memo, s: Side, gap: f64, room: usize) -> View<'a> {
    let line = g.line();
    let sum = ((line.back_gap - gap) / line.step).round() as usize;
    let mut p = [0, 0];
    p[s] = room;
    p[1 - s] = sum - room;
    let v = View { g, line, s, me: 2, other: 2, p, memo };
    assert!((v.gap() - gap).abs() < 1e-9, "{} v {gap}", v.gap());
    v
}

fn tactic(name: &str) -> &'static dyn Tactic {
    by_name(name).expect("in the portfolio").tactic()
}

#[test]
fn the_portfolio_has_at_least_four_tactics_beside_the_scripted_one() {
    assert_eq!(names(), ["scripted", "hold", "keep-out", "charge", "best-trade", "ambush"]);
    assert_eq!(Policy::portfolio().len(), names().len());
}

#[test]
fn hold_never_moves_and_fires_when_in_range() {
    let g = LineGame::new([6.0, 6.0], [3, 3]);
    let memo = Memo::default();
    for gap in [12.0, 7.0, 6.0, 2.0] {
        let c = tactic("hold").choose(&view(&g, &memo, 0, gap, 5));
        assert_eq!(c.advance, 0, "at {gap}\"");
        assert_eq!(c.action, if gap <= 6.0 { FIRE } else { WAIT }, "at {gap}\": {c:?}");
    }
}

#[test]
fn keep_out_does_not_step_into_the_enemys_reach_and_fires_from_its_edge() {
    // B reaches 6" + 2" = 8": A (range 10", moves 3") stays at 9" or more and fires from there.
    let g = LineGame::new([10.0, 6.0], [3, 2]);
    let memo = Memo::default();
    let v = view(&g, &memo, 0, 12.0, 5);
    assert_eq!(v.threat(), 8.0);
    let c = tactic("keep-out").choose(&v);
    assert_eq!((v.gap_after(c), c.action), (9.0, FIRE), "{c:?}");
    // Already inside the reach: it steps back out (3" back from 7" is 10"), and fires.
    let v = view(&g, &memo, 0, 7.0, 5);
    let c = tactic("keep-out").choose(&v);
    assert!(!v.exposed(c) && c.advance < 0 && c.action == FIRE, "{c:?}");
    // With no room behind it there is no way out: it takes the largest gap it can.
    let v = view(&g, &memo, 0, 7.0, 0);
    let c = tactic("keep-out").choose(&v);
    assert!(v.exposed(c) && v.gap_after(c) == 7.0, "{c:?}");
}

#[test]
fn charge_closes_in_then_fires() {
    let g = LineGame::new([6.0, 6.0], [3, 3]);
    let memo = Memo::default();
    let v = view(&g, &memo, 0, 12.0, 5);
    let c = tactic("charge").choose(&v);
    assert_eq!((c.advance, c.action), (3, FIRE));
    let v = view(&g, &memo, 0, 2.0, 5);
    assert_eq!(v.gap_after(tactic("charge").choose(&v)), 1.0);
}

#[test]
fn best_trade_fires_where_it_can_and_closes_in_where_it_cannot() {
    let g = LineGame::new([6.0, 6.0], [3, 3]);
    let memo = Memo::default();
    // 8" away: a 2" or 3" advance puts the enemy in range; the trade is the same, so it takes
    // the closer gap.
    let v = view(&g, &memo, 0, 8.0, 5);
    let c = tactic("best-trade").choose(&v);
    assert_eq!((v.gap_after(c), c.action), (5.0, FIRE));
    assert!((v.trade(c) - 0.25).abs() < 1e-12, "half a hit of half the enemy's strength");
    let v = view(&g, &memo, 0, 20.0, 0);
    assert_eq!(tactic("best-trade").choose(&v).advance, 3);
}

#[test]
fn a_unit_that_cannot_fire_after_moving_is_kited_by_one_that_can() {
    // A: range 10", moves 3", fires after moving. B: range 8", moves 2", cannot fire after a
    // move, so its reach is its range: A fires from 9" and steps back each time B closes in,
    // B never gets a shot until A's back is to its table edge.
    let mut g = LineGame::new([10.0, 8.0], [3, 2]);
    g.fires_after_moving = [true, false];
    let memo = Memo::default();
    assert_eq!(view(&g, &memo, 0, 12.0, 5).threat(), 8.0, "B cannot move and fire: its reach is its range");
    let (keep_out, charge) = (Policy::Tactic(1), Policy::Tactic(2));
    let kited = solve(&g, [keep_out, charge]);
    assert!(kited.a_score() > 0.85, "{kited:?}");
    // A B that fires after moving reaches 10": keep-out A stays beyond its own range and
    // never fires, so the same plan gains nothing.
    g.fires_after_moving = [true, true];
    let unkited = solve(&g, [keep_out, charge]);
    assert!(unkited.a_score() < kited.a_score() - 0.3, "{unkited:?} v {kited:?}");
}

#[test]
fn ambush_waits_beyond_the_enemys_reach_and_strikes_first_when_it_comes_within_its_own() {
    // The same unit both sides: range 6", moves 3", so each threatens 9".
    let g = LineGame::new([6.0, 6.0], [3, 3]);
    let memo = Memo::default();
    // 12" apart: 3" in would stand inside the enemy's 9"; 2" in (10") is the nearest spot
    // out of its reach. Nothing trades from there: it waits at 10".
    let v = view(&g, &memo, 0, 12.0, 5);
    let c = tactic("ambush").choose(&v);
    assert!(!v.exposed(c) && v.gap_after(c) == 10.0 && v.trade(c) == 0.0, "{c:?}");
    // The enemy stepped in to 8": 2" in puts it in range, and the ambush strikes first.
    let v = view(&g, &memo, 0, 8.0, 5);
    let c = tactic("ambush").choose(&v);
    assert!(c.action == FIRE && v.gap_after(c) <= 6.0 && v.trade(c) > 0.0, "{c:?}");
    // Against it, a unit that walks in is shot first: the ambush wins more than half.
    let (ambush, charge) = (Policy::Tactic(4), Policy::Tactic(2));
    assert!(solve(&g, [ambush, charge]).a_score() > 0.5);
}

#[test]
fn inside_a_minimum_range_a_unit_is_exposed_only_where_the_enemy_can_step_back_out() {
    // B fires from 4" to 10". Standing 2" from it, A is out of its reach if B cannot move,
    // and inside it if B can step back 3" and fire.
    let mut g = LineGame::new([6.0, 10.0], [3, 0]);
    g.min_range = [0.0, 4.0];
    let memo = Memo::default();
    let v = view(&g, &memo, 0, 5.0, 5);
    let close_in = v.options().into_iter().find(|c| v.gap_after(*c) == 2.0).expect("3\" in");
    assert!(!v.exposed(close_in));
    assert!(v.exposed(v.options().into_iter().find(|c| v.gap_after(*c) == 5.0).expect("stay")));
    g.moves = [3, 3];
    let memo = Memo::default();
    let v = view(&g, &memo, 0, 5.0, 5);
    assert!(v.exposed(close_in));
}

#[test]
fn a_cornered_unit_fires_into_its_own_blast_rather_than_wait_to_be_shot() {
    // A's fire at 2" or less also wounds A: a losing trade (it takes half a wound of B's two
    // and a whole one of its own). B stands 1" away, in range of both.
    let g = LineGame { blast: [2.0, 0.0], ..LineGame::new([6.0, 6.0], [3, 3]) };
    let memo = Memo::default();
    // With room behind it, ambush steps back out of its own blast and fires from there (a
    // winning trade).
    let v = view(&g, &memo, 0, 1.0, 20);
    assert!(v.trade(Choice { advance: 0, action: FIRE }) < 0.0);
    let c = tactic("ambush").choose(&v);
    assert!(c.advance < 0 && c.action == FIRE && v.trade(c) > 0.0, "{c:?}");
    // Its back to its edge, nothing stays out of reach: hold and ambush fire all the same.
    let v = view(&g, &memo, 0, 1.0, 0);
    for t in ["hold", "ambush"] {
        let c = tactic(t).choose(&v);
        assert!(c.action == FIRE && v.dealt(c) > 0.0, "{t}: {c:?}");
    }
    // Out of B's reach, hold keeps the best trade: it waits.
    let v = view(&g, &memo, 0, 12.0, 0);
    assert_eq!(tactic("hold").choose(&v).action, WAIT);
}

/// The saddle point of a game that has one: the row of the largest row minimum and the
/// column of the smallest column maximum (a test's stand-in for the linear program).
fn saddle(p: &[Vec<f64>], _: &[f64], _: &[f64]) -> Result<[Vec<f64>; 2], String> {
    let n = p.len();
    let pure = |k: usize| (0..n).map(|i| if i == k { 1.0 } else { 0.0 }).collect::<Vec<f64>>();
    let row_min = |i: usize| p[i].iter().copied().fold(f64::INFINITY, f64::min);
    let col_max = |j: usize| p.iter().map(|r| r[j]).fold(f64::NEG_INFINITY, f64::max);
    let i = (0..n).max_by(|&x, &y| row_min(x).total_cmp(&row_min(y))).unwrap();
    let j = (0..n).min_by(|&x, &y| col_max(x).total_cmp(&col_max(y))).unwrap();
    Ok([pure(i), pure(j)])
}

#[test]
fn the_portfolio_bounds_bracket_the_games_value() {
    let g = LineGame::new([10.0, 6.0], [3, 2]);
    let pf = portfolio(&g, &saddle).unwrap();
    let n = names().len();
    assert_eq!((pf.cells.len(), pf.cells[0].len()), (n, n));
    // Each best response is at least every tactic against the same tactic of the other side.
    for j in 0..n {
        let (a, b) = (pf.a_best_response[j].a_score(), pf.b_best_response[j].a_score());
        assert!((0..n).all(|i| a >= pf.cells[i][j].a_score() - 1e-12));
        assert!((0..n).all(|i| b <= pf.cells[j][i].a_score() + 1e-12));
        // Against a fixed tactic, a best response does at least as well as against optimal play.
        assert!(a >= pf.optimal.a_score() - 1e-12 && b <= pf.optimal.a_score() + 1e-12);
    }
    // The game's value lies within the bounds of the mixes' value.
    let v = pf.optimal.a_score();
    assert!(pf.value() - pf.b_gain() <= v + 1e-12 && v <= pf.value() + pf.a_gain() + 1e-12, "{pf:?}");
    // Pinned tactics: the other side's best tactic and its exact best response.
    for i in 0..n {
        let x = pf.pinned(Some(i), None).unwrap();
        let j = x.other_tactic.unwrap();
        assert!((0..n).all(|k| pf.cells[i][j].a_score() <= pf.cells[i][k].a_score()));
        assert_eq!((x.a_score, x.best_response), (pf.cells[i][j].a_score(), Some(pf.b_best_response[i].a_score())));
        let y = pf.pinned(None, Some(i)).unwrap();
        let k = y.other_tactic.unwrap();
        assert!((0..n).all(|m| pf.cells[k][i].a_score() >= pf.cells[m][i].a_score()));
        assert_eq!(y.best_response, Some(pf.a_best_response[i].a_score()));
        assert_eq!(pf.pinned(Some(i), Some(j)).unwrap().a_score, pf.cells[i][j].a_score());
    }
    assert_eq!(pf.pinned(None, None), None);
    // The scripted cell is the scripted game, and the optimal-play table's four solves are
    // the same bits.
    let scripted = solve(&g, [Policy::Scripted; 2]);
    assert_eq!(pf.cells[0][0], scripted);
    assert_eq!(pf.optimal_duel(), crate::rulesets::optimal::analyse(&g));
}

#[test]
fn a_mirror_solves_half_the_cells_and_gets_the_same_matrix() {
    // Same unit both sides: the cells below the diagonal are the swapped ones above.
    struct Mirror(LineGame);
    impl DuelGame for Mirror {
        fn setup(&self) -> Setup {
            self.0.setup()
        }
        fn n_states(&self, s: Side) -> usize {
            self.0.n_states(s)
        }
        fn start_state(&self, s: Side) -> usize {
            self.0.start_state(s)
        }
        fn destroyed(&self, s: Side, u: usize) -> bool {
            self.0.destroyed(s, u)
        }
        fn n_actions(&self) -> usize {
            2
        }
        fn options(&self, s: Side, me: usize, other: usize, at: Spot, out: &mut Vec<Choice>) {
            self.0.options(s, me, other, at, out)
        }
        fn scripted(&self, s: Side, me: usize, other: usize, at: Spot) -> Choice {
            self.0.scripted(s, me, other, at)
        }
        fn outcomes(&self, s: Side, a: u16, me: usize, other: usize, gap: f64, out: &mut Vec<(f64, usize, usize)>) {
            self.0.outcomes(s, a, me, other, gap, out)
        }
        fn strength(&self, s: Side, u: usize) -> f64 {
            self.0.strength(s, u)
        }
        fn mirror(&self) -> bool {
            true
        }
    }
    // Alternate order, and an initiative roll-off whose winner chooses (the tactics' choices
    // mirror each other too).
    for order in [Order::Alternate, Order::Initiative] {
        let g = LineGame { order, ..LineGame::new([6.0, 6.0], [3, 3]) };
        let full = portfolio(&g, &saddle).unwrap();
        let half = portfolio(&Mirror(LineGame { order, ..LineGame::new([6.0, 6.0], [3, 3]) }), &saddle).unwrap();
        let score = |p: &Vec<Vec<GameValue>>| {
            p.iter().map(|r| r.iter().map(GameValue::a_score).collect::<Vec<_>>()).collect::<Vec<_>>()
        };
        let (a, b) = (score(&full.cells), score(&half.cells));
        for i in 0..a.len() {
            for j in 0..a.len() {
                assert!((a[i][j] - b[i][j]).abs() < 1e-12, "{order:?} [{i}][{j}] {} v {}", a[i][j], b[i][j]);
            }
        }
    }
}

#[test]
fn on_winning_the_initiative_a_tactic_that_waits_lets_the_enemy_act_first() {
    // Range 6", moves 3" both sides: each threatens 9".
    let g = LineGame { order: Order::Initiative, ..LineGame::new([6.0, 6.0], [3, 3]) };
    let memo = Memo::default();
    let first = |name: &str, gap: f64| tactic(name).acts_first(&view(&g, &memo, 0, gap, 5));
    // 12" apart nothing trades and nothing threatens: the waiting plans let the enemy come;
    // charge and best-trade act first.
    assert_eq!(
        ["hold", "keep-out", "ambush", "charge", "best-trade"].map(|t| first(t, 12.0)),
        [false, false, false, true, true]
    );
    // 8": hold cannot fire without moving, but is threatened; ambush can trade by stepping in.
    assert_eq!(["hold", "keep-out", "ambush"].map(|t| first(t, 8.0)), [false, true, true]);
    // 5": everyone fires first.
    assert!(["hold", "keep-out", "ambush", "charge", "best-trade"].iter().all(|t| first(t, 5.0)));
    // In the solver: a tactic that always acts first plays the initiative game as the roll-off
    // whose winner acts first (the same bits); one that waits does not.
    let rolloff = LineGame { order: Order::RollOff, ..LineGame::new([6.0, 6.0], [3, 3]) };
    let (charge, best_trade, ambush) = (Policy::Tactic(2), Policy::Tactic(3), Policy::Tactic(4));
    assert_eq!(solve(&g, [charge, best_trade]), solve(&rolloff, [charge, best_trade]));
    assert_ne!(solve(&g, [ambush, charge]), solve(&rolloff, [ambush, charge]));
}
