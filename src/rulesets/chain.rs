//! The scripted tactic of a duel game ([`DuelGame`]) as a Markov chain, propagated forward
//! turn by turn (issue 42 item 2: no sampling where the answer is exact).
//!
//! Why forward and not the solver's backward induction: the report's 1v1 cell needs, besides
//! the win, loss and draw chances, the expected number of turns (each side's activations),
//! which the forward chain gets for free — `E[turns] = Σ_t P(nobody destroyed before turn t)`
//! over the turns up to the round cap — and with both policies fixed the chain only visits the
//! few states the scripted play reaches (a sparse list, not the solver's every state).
//!
//! The chain is the Monte Carlo duel exactly where the game's grid is: a ruleset uses it only
//! where every move, range and distance of the duel is a whole number of grid cells, and the
//! chain refuses ([`NotExact`]) wherever the grid would change the duel: a scripted move clipped
//! at the closest approach (the game's `min_gap`) or at a table edge (the open-ground duel
//! has none). Sums run in one fixed order (states sorted), so the result is the same bits on
//! every run.

use crate::rulesets::optimal::{Choice, DuelGame, Line, Order, Spot};
use crate::rulesets::{ExactDuel, NotExact, Side};

/// A state of the chain: both positions (cells from each side's rearmost cell) and both unit
/// states, in this order (the sort order of the sums).
type State = (u16, u16, u32, u32);

/// Where the mass that stopped (a side destroyed) went, and the turns counted.
#[derive(Default)]
struct Tally {
    a_wins: f64,
    b_wins: f64,
    draws: f64,
    turns: f64,
}

/// The duel with both sides playing [`DuelGame::scripted`], from the start, averaged over who
/// acts first (the Alternate order) or rolled for each round (the roll-off), up to the round
/// cap (a draw after it). Errors: a scripted move the grid clips (see the module docs).
pub fn scripted_duel<G: DuelGame>(g: &G) -> Result<ExactDuel, NotExact> {
    let line = g.line();
    let start: State = (line.start, line.start, g.start_state(0) as u32, g.start_state(1) as u32);
    let mut t = Tally::default();
    let mut live = match g.order() {
        Order::Alternate => {
            // Two chains, A first and B first, each with half the mass.
            let (mut a_first, mut b_first) = (vec![(start, 0.5)], vec![(start, 0.5)]);
            for _ in 0..g.max_rounds() {
                for s in [0, 1] {
                    a_first = activate(g, &line, s, &a_first, &mut t)?;
                    b_first = activate(g, &line, 1 - s, &b_first, &mut t)?;
                }
            }
            a_first.into_iter().chain(b_first).map(|x| x.1).collect::<Vec<f64>>()
        }
        // The scripted tactic acts first when it wins an initiative roll-off.
        Order::RollOff | Order::Initiative => {
            let mut dist = vec![(start, 1.0)];
            for _ in 0..g.max_rounds() {
                let p_a = |st: &State| g.p_a_first([st.2 as usize, st.3 as usize]);
                let mut a_first: Vec<(State, f64)> = dist.iter().map(|&(st, m)| (st, m * p_a(&st))).collect();
                let mut b_first: Vec<(State, f64)> = dist.iter().map(|&(st, m)| (st, m * (1.0 - p_a(&st)))).collect();
                a_first.retain(|x| x.1 > 0.0);
                b_first.retain(|x| x.1 > 0.0);
                for s in [0, 1] {
                    a_first = activate(g, &line, s, &a_first, &mut t)?;
                    b_first = activate(g, &line, 1 - s, &b_first, &mut t)?;
                }
                a_first.extend(b_first);
                dist = merge(a_first);
            }
            dist.into_iter().map(|x| x.1).collect()
        }
    };
    live.sort_by(f64::total_cmp);
    let survivors: f64 = live.iter().sum();
    t.draws += survivors;
    if g.mirror() {
        // The same unit on both sides: equal chances by symmetry, exactly (the two chains add
        // their masses in different orders, which could leave the last bit apart).
        let w = 0.5 * (t.a_wins + t.b_wins);
        (t.a_wins, t.b_wins) = (w, w);
    }
    Ok(ExactDuel { a_wins: t.a_wins, b_wins: t.b_wins, draws: t.draws, mean_turns: t.turns })
}

/// One activation of side `s` on the live states `dist` (sorted, merged): counts the turn,
/// moves the mass of each outcome to its state or, where a side is destroyed, to the tally.
fn activate<G: DuelGame>(
    g: &G,
    line: &Line,
    s: Side,
    dist: &[(State, f64)],
    t: &mut Tally,
) -> Result<Vec<(State, f64)>, NotExact> {
    let mut next = Vec::with_capacity(dist.len() * 2);
    let (mut starts, mut outs) = (Vec::new(), Vec::new());
    for &((p0, p1, u0, u1), m) in dist {
        t.turns += m;
        let (p, u) = ([p0, p1], [u0 as usize, u1 as usize]);
        starts.clear();
        g.activation_start(s, u[s], &mut starts);
        for &(ps, me) in &starts {
            let mut u2 = u;
            u2[s] = me;
            if end(g, u2, m * ps, t) {
                continue;
            }
            let other = u[1 - s];
            let sum = p0 + p1;
            let at = Spot { gap: line.gap(sum), room: p[s], ahead: line.max_sum - sum };
            let c = g.scripted(s, me, other, at);
            let q = moved(s, p, c, at)?;
            outs.clear();
            g.outcomes(s, c.action, me, other, line.gap(q[0] + q[1]), &mut outs);
            for &(pr, me2, other2) in outs.iter().filter(|o| o.0 > 0.0) {
                let mut u3 = [0; 2];
                u3[s] = me2;
                u3[1 - s] = other2;
                if !end(g, u3, m * ps * pr, t) {
                    next.push(((q[0], q[1], u3[0] as u32, u3[1] as u32), m * ps * pr));
                }
            }
        }
    }
    Ok(merge(next))
}

/// Adds `mass` to the tally if a side of `u` is destroyed; whether one is.
fn end<G: DuelGame>(g: &G, u: [usize; 2], mass: f64, t: &mut Tally) -> bool {
    match (g.destroyed(0, u[0]), g.destroyed(1, u[1])) {
        (false, false) => return false,
        (false, true) => t.a_wins += mass,
        (true, false) => t.b_wins += mass,
        (true, true) => t.draws += mass,
    }
    true
}

/// The positions after side `s` at `p` (seen from `at`) makes `c`'s move; refuses a move the
/// grid would clip.
fn moved(s: Side, p: [u16; 2], c: Choice, at: Spot) -> Result<[u16; 2], NotExact> {
    let mut q = p;
    if c.advance > at.ahead as i16 {
        return Err(NotExact("the scripted move would pass the closest approach of the exact grid".into()));
    }
    if -c.advance > at.room as i16 {
        return Err(NotExact("the scripted move would cross the table edge (the duel is in open ground)".into()));
    }
    q[s] = (p[s] as i32 + c.advance as i32) as u16;
    Ok(q)
}

/// `v` sorted by state with equal states' masses added (in the order they came).
fn merge(mut v: Vec<(State, f64)>) -> Vec<(State, f64)> {
    v.sort_by_key(|x| x.0);
    let mut out: Vec<(State, f64)> = Vec::with_capacity(v.len());
    for (st, m) in v {
        match out.last_mut() {
            Some(last) if last.0 == st => last.1 += m,
            _ => out.push((st, m)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::optimal::{Policy, Setup, solve};

    /// Two units shooting every activation from where they stand (`p` each side's hit chance,
    /// a hit destroys), or, with `walk`, A walking one cell per activation until it is in range
    /// (`range` cells of gap) and shooting only then.
    struct Toy {
        p: [f64; 2],
        rounds: u32,
        order: Order,
        walk: bool,
    }

    impl DuelGame for Toy {
        fn setup(&self) -> Setup {
            Setup { line: Line::new(10.0, 6.0, 1.0, 0.0).unwrap(), max_rounds: self.rounds, order: self.order }
        }
        fn p_a_first(&self, _u: [usize; 2]) -> f64 {
            0.3
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
        fn options(&self, s: Side, me: usize, other: usize, at: Spot, out: &mut Vec<Choice>) {
            out.push(self.scripted(s, me, other, at));
        }
        fn scripted(&self, s: Side, _me: usize, _other: usize, at: Spot) -> Choice {
            if self.walk && s == 0 && at.gap > 3.0 {
                Choice { advance: 1, action: 1 }
            } else {
                Choice { advance: 0, action: 0 }
            }
        }
        fn outcomes(
            &self,
            s: Side,
            action: u16,
            me: usize,
            other: usize,
            gap: f64,
            out: &mut Vec<(f64, usize, usize)>,
        ) {
            if action == 0 && (!self.walk || s == 1 || gap <= 3.0) {
                out.push((self.p[s], me, 0));
                out.push((1.0 - self.p[s], me, other));
            } else {
                out.push((1.0, me, other));
            }
        }
    }

    /// Alternate order, A first: turn t (from 0) ends the duel with chance p_t·q^⌊t/2⌋·(1−p_other)
    /// as in `closed_form`; the mean turns are Σ over turns of the chance the duel is still on.
    fn closed_form(pa: f64, pb: f64, rounds: u32) -> (f64, f64, f64) {
        let mut out = (0.0, 0.0, 0.0);
        for (first, second, flip) in [(pa, pb, false), (pb, pa, true)] {
            let (mut alive, mut w1, mut w2, mut turns) = (1.0, 0.0, 0.0, 0.0);
            for _ in 0..rounds {
                turns += alive;
                w1 += alive * first;
                alive *= 1.0 - first;
                turns += alive;
                w2 += alive * second;
                alive *= 1.0 - second;
            }
            let (a, b) = if flip { (w2, w1) } else { (w1, w2) };
            out = (out.0 + 0.5 * a, out.1 + 0.5 * b, out.2 + 0.5 * turns);
        }
        out
    }

    #[test]
    fn the_chain_of_a_standing_duel_is_its_closed_form() {
        for rounds in [1, 4, 30] {
            let toy = Toy { p: [0.3, 0.55], rounds, order: Order::Alternate, walk: false };
            let e = scripted_duel(&toy).unwrap();
            let (a, b, turns) = closed_form(0.3, 0.55, rounds);
            assert!((e.a_wins - a).abs() < 1e-14 && (e.b_wins - b).abs() < 1e-14, "{e:?} vs {a} {b}");
            assert!((e.mean_turns - turns).abs() < 1e-12, "{e:?} vs {turns} turns");
            assert!((e.a_wins + e.b_wins + e.draws - 1.0).abs() < 1e-14);
        }
    }

    /// With both policies fixed the forward chain and the solver's backward induction are the
    /// same chain: equal win and loss chances, in either order of play, with movement.
    #[test]
    fn the_chain_agrees_with_backward_induction_under_the_scripted_policies() {
        for order in [Order::Alternate, Order::RollOff] {
            for walk in [false, true] {
                let toy = Toy { p: [0.45, 0.2], rounds: 9, order, walk };
                let e = scripted_duel(&toy).unwrap();
                let v = solve(&toy, [Policy::Scripted; 2]);
                assert!(
                    (e.a_wins - v.a_wins).abs() < 1e-12 && (e.b_wins - v.b_wins).abs() < 1e-12,
                    "{order:?} walk {walk}: {e:?} vs {v:?}"
                );
                assert!((e.a_wins + e.b_wins + e.draws - 1.0).abs() < 1e-14);
            }
        }
    }

    /// A walk of 3 cells (6 − 3) before A can shoot: while it walks only B shoots, so B's
    /// chance of winning is above the standing duel's.
    #[test]
    fn walking_into_range_costs_the_walker() {
        let stand = scripted_duel(&Toy { p: [0.45, 0.2], rounds: 9, order: Order::Alternate, walk: false }).unwrap();
        let walk = scripted_duel(&Toy { p: [0.45, 0.2], rounds: 9, order: Order::Alternate, walk: true }).unwrap();
        assert!(walk.b_wins > stand.b_wins && walk.mean_turns > stand.mean_turns, "{walk:?} vs {stand:?}");
    }

    #[test]
    fn a_move_the_grid_would_clip_is_refused() {
        let at = Spot { gap: 2.0, room: 1, ahead: 2 };
        assert_eq!(moved(0, [1, 3], Choice { advance: 2, action: 0 }, at).unwrap(), [3, 3]);
        assert!(moved(0, [1, 3], Choice { advance: 3, action: 0 }, at).unwrap_err().0.contains("closest approach"));
        assert_eq!(moved(1, [3, 1], Choice { advance: -1, action: 0 }, at).unwrap(), [3, 0]);
        assert!(moved(1, [3, 1], Choice { advance: -2, action: 0 }, at).unwrap_err().0.contains("table edge"));
    }
}
