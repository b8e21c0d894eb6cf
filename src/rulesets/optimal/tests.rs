//! Tests of the optimal-play solver on a toy duel: closed forms in both orders, exact mirrors,
//! a scripted tactic that waits exploited by its best response, and the initiative roll-off
//! whose winner chooses who acts first, hand-solved.

use super::*;

/// A toy duel: each side has one life; acting, it may shoot (kills with `p[s]`) or wait.
/// `scripted_waits[s]`: the scripted tactic of side `s` waits instead of shooting. `pa`: A's
/// chance to win a roll-off.
struct Toy {
    p: [f64; 2],
    rounds: u32,
    order: Order,
    scripted_waits: [bool; 2],
    pa: f64,
}

impl DuelGame for Toy {
    fn setup(&self) -> Setup {
        Setup { line: Line::new(10.0, 10.0, 10.0, 10.0).unwrap(), max_rounds: self.rounds, order: self.order }
    }
    fn p_a_first(&self, _u: [usize; 2]) -> f64 {
        self.pa
    }
    fn n_states(&self, _s: Side) -> usize {
        2
    }
    fn start_state(&self, _s: Side) -> usize {
        1
    }
    fn destroyed(&self, _s: Side, u: usize) -> bool {
        u == 0
    }
    fn n_actions(&self) -> usize {
        2
    }
    fn options(&self, _s: Side, _me: usize, _other: usize, _at: Spot, out: &mut Vec<Choice>) {
        out.push(Choice { advance: 0, action: 1 });
        out.push(Choice { advance: 0, action: 0 });
    }
    fn scripted(&self, s: Side, _me: usize, _other: usize, _at: Spot) -> Choice {
        Choice { advance: 0, action: if self.scripted_waits[s] { 1 } else { 0 } }
    }
    fn outcomes(&self, s: Side, action: u16, me: usize, other: usize, _gap: f64, out: &mut Vec<(f64, usize, usize)>) {
        if action == 0 {
            out.push((self.p[s], me, 0));
            out.push((1.0 - self.p[s], me, other));
        } else {
            out.push((1.0, me, other));
        }
    }
}

/// Closed form of the shoot-every-time duel in alternate order: A first,
/// P(A) = pa·Σ q^k, P(B) = (1−pa)·pb·Σ q^k over k < R, q = (1−pa)(1−pb); averaged with B first.
fn closed_form(pa: f64, pb: f64, rounds: u32) -> (f64, f64) {
    let q = (1.0 - pa) * (1.0 - pb);
    let sum: f64 = (0..rounds).map(|k| q.powi(k as i32)).sum();
    let a_first = (pa * sum, (1.0 - pa) * pb * sum);
    let b_first = ((1.0 - pb) * pa * sum, pb * sum);
    (0.5 * (a_first.0 + b_first.0), 0.5 * (a_first.1 + b_first.1))
}

#[test]
fn alternate_duel_matches_its_closed_form_and_the_tactic_is_unexploitable() {
    let toy = Toy { p: [0.3, 0.55], rounds: 7, order: Order::Alternate, scripted_waits: [false, false], pa: 0.5 };
    let (a, b) = closed_form(0.3, 0.55, 7);
    let o = analyse(&toy);
    for v in [o.optimal, o.scripted, o.a_best_response, o.b_best_response] {
        assert!((v.a_wins - a).abs() < 1e-14 && (v.b_wins - b).abs() < 1e-14, "{v:?} vs {a} {b}");
        assert!((v.a_wins + v.b_wins + v.draws - 1.0).abs() < 1e-14);
    }
    // Shooting is optimal, so the best response is the scripted tactic: no gain.
    assert_eq!(o.exploitability(), 0.0);
}

#[test]
fn rolloff_order_mixes_the_two_orders_each_round() {
    // One round, roll-off ½–½: A wins if it shoots first and hits, or B misses first.
    let toy = Toy { p: [0.5, 0.25], rounds: 1, order: Order::RollOff, scripted_waits: [false, false], pa: 0.5 };
    let v = solve(&toy, [Policy::Optimal, Policy::Optimal]);
    let a = 0.5 * 0.5 + 0.5 * 0.75 * 0.5;
    let b = 0.5 * 0.5 * 0.25 + 0.5 * 0.25;
    assert!((v.a_wins - a).abs() < 1e-15 && (v.b_wins - b).abs() < 1e-15, "{v:?}");
}

#[test]
fn mirrors_are_exactly_even() {
    // (`Order::Initiative` is the same sums here: both sides optimal at ½; its mirror with
    // tactics that choose is `tactics::tests::a_mirror_solves_half_the_cells_and_gets_the_same_matrix`.)
    for order in [Order::Alternate, Order::RollOff] {
        for rounds in [1, 3, 50] {
            let toy = Toy { p: [0.37, 0.37], rounds, order, scripted_waits: [false, false], pa: 0.5 };
            let v = solve(&toy, [Policy::Optimal, Policy::Optimal]);
            assert_eq!(v.a_score(), 0.5);
            assert_eq!(v.a_wins, v.b_wins);
        }
    }
}

#[test]
fn a_waiting_tactic_is_exploited_and_optimal_play_beats_it() {
    // A's tactic waits: scripted, B wins whenever it hits within R rounds.
    let (pb, rounds) = (0.4, 5);
    let toy = Toy { p: [0.3, pb], rounds, order: Order::Alternate, scripted_waits: [true, false], pa: 0.5 };
    let o = analyse(&toy);
    let b = 1.0 - (1.0 - pb).powi(rounds as i32);
    assert!((o.scripted.b_wins - b).abs() < 1e-14, "{:?}", o.scripted);
    // A's best response against scripted B (who shoots) is the optimal duel.
    assert!((o.a_best_response.a_score() - o.optimal.a_score()).abs() < 1e-14);
    let (a_opt, b_opt) = closed_form(0.3, pb, rounds);
    assert!((o.optimal.a_wins - a_opt).abs() < 1e-14 && (o.optimal.b_wins - b_opt).abs() < 1e-14);
    assert!(o.a_gain() > 0.1 && o.b_gain() == 0.0);
    assert_eq!(o.exploitability(), o.a_gain());
    assert!(o.optimal.a_score() >= o.scripted.a_score());
}

#[test]
fn a_winner_who_gains_nothing_by_choosing_acts_first() {
    // In the toy, shooting first is always better: the choice changes no bit, with a roll-off
    // A wins 0.7 of the time. (At ½ it could not: ½·max + ½·min is ½·x + ½·y whatever the
    // winners choose.)
    for p in [[0.5, 0.25], [0.3, 0.55]] {
        for rounds in [1, 4] {
            let v =
                |order| solve(&Toy { p, rounds, order, scripted_waits: [false, false], pa: 0.7 }, [Policy::Optimal; 2]);
            assert_eq!(v(Order::Initiative), v(Order::RollOff));
        }
    }
}

/// A one-round duel where shooting reveals the shooter: each side is hidden (state 1) until it
/// shoots (state 2); a shot kills a hidden target with 0.2 and a revealed one with 0.9; A wins
/// the roll-off with 0.8. Acting first pays only to a side that waits, so a winner that chooses
/// lets the other act first.
struct Reveal {
    order: Order,
}

impl DuelGame for Reveal {
    fn setup(&self) -> Setup {
        Setup { line: Line::new(10.0, 10.0, 10.0, 10.0).unwrap(), max_rounds: 1, order: self.order }
    }
    fn p_a_first(&self, _u: [usize; 2]) -> f64 {
        0.8
    }
    fn n_states(&self, _s: Side) -> usize {
        3
    }
    fn start_state(&self, _s: Side) -> usize {
        1
    }
    fn destroyed(&self, _s: Side, u: usize) -> bool {
        u == 0
    }
    fn n_actions(&self) -> usize {
        2
    }
    fn options(&self, _s: Side, _me: usize, _other: usize, _at: Spot, out: &mut Vec<Choice>) {
        out.push(Choice { advance: 0, action: 0 });
        out.push(Choice { advance: 0, action: 1 });
    }
    /// Always shoots.
    fn scripted(&self, _s: Side, _me: usize, _other: usize, _at: Spot) -> Choice {
        Choice { advance: 0, action: 0 }
    }
    fn outcomes(&self, _s: Side, action: u16, me: usize, other: usize, _gap: f64, out: &mut Vec<(f64, usize, usize)>) {
        if action == 0 {
            let p = if other == 2 { 0.9 } else { 0.2 };
            out.push((p, 2, 0));
            out.push((1.0 - p, 2, other));
        } else {
            out.push((1.0, me, other));
        }
    }
}

#[test]
fn the_initiative_winner_chooses_who_acts_first_by_value() {
    let near = |v: GameValue, a: f64, b: f64| {
        assert!((v.a_wins - a).abs() < 1e-15 && (v.b_wins - b).abs() < 1e-15, "{v:?} vs {a} {b}");
    };
    let opt = [Policy::Optimal; 2];
    // Winner first (RollOff): the first side waits (shooting loses 0.2 − 0.8·0.9), the second
    // shoots a hidden target: A wins when B rolls first, 0.2 · 0.2, and B when A does.
    near(solve(&Reveal { order: Order::RollOff }, opt), 0.2 * 0.2, 0.8 * 0.2);
    // Winner chooses: each winner lets the other act first, who waits, and shoots second.
    near(solve(&Reveal { order: Order::Initiative }, opt), 0.8 * 0.2, 0.2 * 0.2);
    // The score of the advantage alone is the same: ½ + ½ (P(A) − P(B)).
    for (order, a, b) in [(Order::RollOff, 0.2 * 0.2, 0.8 * 0.2), (Order::Initiative, 0.8 * 0.2, 0.2 * 0.2)] {
        let (score, _) = optimal_score(&Reveal { order });
        assert!((score - (0.5 + 0.5 * (a - b))).abs() < 1e-15, "{order:?}: {score}");
    }
    // Both scripted shoot first whoever wins: the choice is the optimal side's only.
    let scripted = [Policy::Scripted; 2];
    let (a, b) = (0.8 * 0.2 + 0.2 * 0.8 * 0.9, 0.8 * 0.8 * 0.9 + 0.2 * 0.2);
    near(solve(&Reveal { order: Order::Initiative }, scripted), a, b);
    near(solve(&Reveal { order: Order::RollOff }, scripted), a, b);
    // A's best response against scripted B lets B shoot first, then shoots it revealed: the
    // same whoever wins the roll-off.
    near(solve(&Reveal { order: Order::Initiative }, [Policy::Optimal, Policy::Scripted]), 0.8 * 0.9, 0.2);
    // B's likewise.
    near(solve(&Reveal { order: Order::Initiative }, [Policy::Scripted, Policy::Optimal]), 0.2, 0.8 * 0.9);
}
