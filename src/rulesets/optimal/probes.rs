//! Test-only probes of the optimal-play solver (issue 15: what a best response does that the
//! scripted tactic does not, and where its gain comes from): [`explain`] and [`Explain`] list a
//! side's options with their solved values at any state, [`scripted_losses`] adds up what the
//! scripted choices lose along the scripted duel, [`print_largest`] prints a probe's largest
//! losses, and [`assert_mirror_shortcut_is_exact`] is a check every ruleset's game runs. They
//! read the solver's internals (its values, layers and outcome lists) and compile only in tests.

use super::*;

#[cfg(test)]
impl<G: DuelGame> Solver<'_, G> {
    /// A [`Reach`] of every state on the line and every combination (probes of any state).
    fn reach_everywhere(&mut self, policy: [Policy; 2]) -> Reach {
        self.plan_policies(policy);
        let block = self.n[0] * self.n[1];
        let states: Vec<u32> = (0..self.len() as u32)
            .filter(|&i| {
                let p = i as usize / block;
                p / self.np + p % self.np < self.np
            })
            .collect();
        let used = [0, 1].map(|s| {
            let plan = self.plans[s][policy[s].slot()].as_ref().expect("planned");
            (0..plan.combos.len() as u32).collect()
        });
        self.reach_of(states, used)
    }
}

/// Test-only inspection (issue 15: what a best response does that the scripted tactic does
/// not): solves the game under `policy` to the round cap, then lists side `s`'s options at
/// positions `p` and unit states `u` (before its activation-start events) with their expected
/// advantage `P(A) − P(B)` when `s` acts first in the round and when it acts second (roll-off
/// order only), one row per option of each activation-start branch `(probability, state)`.
#[cfg(test)]
#[allow(clippy::type_complexity)]
pub(crate) fn explain<G: DuelGame>(
    g: &G,
    policy: [Policy; 2],
    s: Side,
    p: [usize; 2],
    u: [usize; 2],
) -> Vec<(f64, usize, Choice, f64, f64)> {
    let mut sv = Solver::new(g);
    let n = sv.len();
    let mut start = zeros(n);
    fill_terminal(&sv, &mut start);
    let (mut mid, mut after_first, mut new_a) = (zeros(n), zeros(n), zeros(n));
    // Every state, not only those reachable from the start: `p` and `u` may be any.
    let reach = sv.reach_everywhere(policy);
    for _ in 0..g.max_rounds() {
        sv.layer(1, policy[1], &reach, &start, &mut mid);
        sv.layer(0, policy[0], &reach, &mid, &mut new_a);
        sv.layer(0, policy[0], &reach, &start, &mut mid);
        sv.layer(1, policy[1], &reach, &mid, &mut after_first);
        mix_rolloff(&sv, &reach, &mut new_a, &after_first, policy, g.order() == Order::Initiative);
        let same = settled(&reach, &new_a, &start);
        std::mem::swap(&mut start, &mut new_a);
        if same {
            break;
        }
    }
    // After `s` acts first, the other side acts, then the next round.
    sv.layer(1 - s, policy[1 - s], &reach, &start, &mut mid);
    let max = sv.line.max_sum as usize;
    let at = Spot { gap: sv.gaps[p[0] + p[1]], room: p[s] as u16, ahead: (max - p[0] - p[1]) as u16 };
    let mut rows = Vec::new();
    for (pr, me) in sv.starts[s][u[s]].clone() {
        let other = u[1 - s];
        let mut choices = Vec::new();
        g.options(s, me, other, at, &mut choices);
        for c in choices {
            let q = sv.moved(s, p, c);
            let (a, b) = sv.outcomes(s, c.action, q[0] + q[1], me, other);
            let base = ((q[0] * sv.np + q[1]) * sv.n[0] * sv.n[1]) as u32;
            let (first, second) = (advantage(&sv.cache, base, a, b, &mid), advantage(&sv.cache, base, a, b, &start));
            rows.push((pr, me, c, first, second));
        }
    }
    rows
}

/// Test check shared by every ruleset's game: a mirror game ([`DuelGame::mirror`]) is one, and
/// [`analyse`]'s B best response (A's, swapped) is the same bits as solving B's best response.
#[cfg(test)]
pub(crate) fn assert_mirror_shortcut_is_exact<G: DuelGame>(g: &G) {
    assert!(g.mirror(), "not a mirror");
    let solved = solve(g, [Policy::Scripted, Policy::Optimal]);
    assert_eq!(analyse(g).b_best_response, solved);
    assert!(solved.b_wins > 0.0, "{solved:?}");
}

/// Test check shared by every ruleset's game: [`optimal_score`] (the advantage alone) is the
/// score of [`solve`] with both sides optimal to 1e-12, in no more rounds, and exactly ½ in a
/// mirror.
#[cfg(test)]
pub(crate) fn assert_score_is_solved<G: DuelGame>(g: &G) {
    let full = solve(g, [Policy::Optimal; 2]);
    let (score, rounds) = optimal_score(g);
    if g.mirror() {
        assert_eq!(score, 0.5, "{full:?}");
    }
    assert!((score - full.a_score()).abs() <= 1e-12, "{score} against {full:?}");
    assert!(rounds <= full.rounds_solved, "{rounds} rounds against {full:?}");
}

/// The expected advantage over the outcomes `cache[a..b]` ending in the block at `base`
/// (test-only probes; the solver's own sums are [`expect_into`]'s).
#[cfg(test)]
fn advantage(cache: &Outcomes, base: u32, a: u32, b: u32, x: &Vals) -> f64 {
    cache.range(a, b).map(|(pr, off)| pr * x[(base + off) as usize][V]).sum()
}

/// Test-only diagnosis of a [`Order::RollOff`] or [`Order::Initiative`] game solved under
/// `policy` ([`Explain::values`]).
#[cfg(test)]
pub(crate) struct Explain<'g, G: DuelGame> {
    sv: Solver<'g, G>,
    policy: [Policy; 2],
    /// The settled round-start values, and the values once side 0 or 1 has acted first.
    start: Vals,
    mid: [Vals; 2],
}

#[cfg(test)]
impl<'g, G: DuelGame> Explain<'g, G> {
    pub(crate) fn new(g: &'g G, policy: [Policy; 2]) -> Self {
        let mut sv = Solver::new(g);
        // Every state, not only those reachable from the start: a probe may ask for any.
        let reach = sv.reach_everywhere(policy);
        sv.solve_over(policy, &reach);
        let start = std::mem::take(&mut sv.last);
        let mid = [1, 0].map(|other| {
            let mut mid = zeros(start.len());
            sv.layer(other, policy[other], &reach, &start, &mut mid);
            mid
        });
        Explain { sv, policy, start, mid }
    }

    /// A's score (draw ½) after each of side `s`'s options, and its scripted choice, at
    /// positions `p` with unit states `u`, when `s` acts `first` in the round (the other side
    /// then acts under its policy) or second.
    pub(crate) fn values(
        &mut self,
        s: Side,
        first: bool,
        p: [usize; 2],
        u: [usize; 2],
    ) -> (Vec<(Choice, f64)>, Choice) {
        let _ = self.policy;
        let g = self.sv.g;
        let max = self.sv.line.max_sum as usize;
        let at = Spot { gap: self.sv.gaps[p[0] + p[1]], room: p[s] as u16, ahead: (max - p[0] - p[1]) as u16 };
        let (me, other) = (u[s], u[1 - s]);
        let mut choices = Vec::new();
        g.options(s, me, other, at, &mut choices);
        let block = self.sv.n[0] * self.sv.n[1];
        let vals = choices
            .iter()
            .map(|&c| {
                let q = self.sv.moved(s, p, c);
                let (a, b) = self.sv.outcomes(s, c.action, q[0] + q[1], me, other);
                let base = ((q[0] * self.sv.np + q[1]) * block) as u32;
                let next = if first { &self.mid[s] } else { &self.start };
                (c, 0.5 * (1.0 + advantage(&self.sv.cache, base, a, b, next)))
            })
            .collect();
        (vals, g.scripted(s, me, other, at))
    }

    /// Side `s`'s unit states after its activation-start events from `me`, with their
    /// probabilities ([`DuelGame::activation_start`]).
    pub(crate) fn activation_start(&self, s: Side, me: usize) -> Vec<(f64, usize)> {
        self.sv.starts[s][me].clone()
    }

    /// The line of the game.
    pub(crate) fn line(&self) -> Line {
        self.sv.line
    }

    /// The states after side `s` at positions `p` with unit states `u` takes `c`:
    /// (probability, positions, unit states).
    pub(crate) fn step(
        &mut self,
        s: Side,
        p: [usize; 2],
        u: [usize; 2],
        c: Choice,
    ) -> Vec<(f64, [usize; 2], [usize; 2])> {
        let q = self.sv.moved(s, p, c);
        let (a, b) = self.sv.outcomes(s, c.action, q[0] + q[1], u[s], u[1 - s]);
        let n1 = self.sv.n[1] as u32;
        self.sv.cache.range(a, b).map(|(pr, off)| (pr, q, [(off / n1) as usize, (off % n1) as usize])).collect()
    }
}

/// Test-only (issue 15: where a best response's gain comes from): what side `side`'s scripted
/// choices lose against its best response along the scripted duel of a [`Order::RollOff`]
/// game (of an [`Order::Initiative`] game, the activations' losses only: what the best
/// response gains by choosing who acts first is not counted). The game is solved with `side` optimal and the other side scripted ([`Explain`]);
/// the duel is propagated for `rounds` rounds from the start with both sides scripted, and
/// every action of `side` (after its activation-start events) with more than one option adds
/// its probability times the score (A's, signed for `side`) its scripted choice loses against
/// the best option; `note(positions, unit states, acts first, best option, scripted choice,
/// loss)` sees each loss above 1e-12. Returns (the sum: the best response's gain once the
/// values have settled; the probability of scripted choices that are no option of the game
/// and do not do what one does, whose losses are not counted).
#[cfg(test)]
pub(crate) fn scripted_losses<G: DuelGame>(
    g: &G,
    side: Side,
    rounds: u32,
    mut note: impl FnMut([usize; 2], [usize; 2], bool, Choice, Choice, f64),
) -> (f64, f64) {
    use std::collections::BTreeMap;
    let mut policy = [Policy::Scripted; 2];
    policy[side] = Policy::Optimal;
    let ex = &mut Explain::new(g, policy);
    let sign = if side == 0 { 1.0 } else { -1.0 };
    let start = g.line().start as usize;
    let mut dist: BTreeMap<([usize; 2], [usize; 2]), f64> = BTreeMap::new();
    dist.insert(([start; 2], [g.start_state(0), g.start_state(1)]), 1.0);
    let (mut total, mut off_options) = (0.0, 0.0);
    // One activation of `s`: its activation-start events ([`DuelGame::activation_start`]),
    // then its scripted choice; the states after it, with their probabilities.
    let mut act = |ex: &mut Explain<G>, s: Side, first: bool, p: [usize; 2], u: [usize; 2], w: f64| {
        let mut after = Vec::new();
        for (q0, me) in ex.activation_start(s, u[s]) {
            let mut u = u;
            u[s] = me;
            if g.destroyed(s, me) {
                after.push((q0, p, u));
                continue;
            }
            let w = w * q0;
            let (vals, sc) = ex.values(s, first, p, u);
            // A scripted choice that is no option of the game but does what one does (the same
            // action, ending at the same positions: VSGMR's move into base contact read as the
            // whole cells there) counts as that option.
            let next = ex.step(s, p, u, sc);
            let at = next[0].1;
            let scripted = vals
                .iter()
                .find(|x| x.0 == sc)
                .or_else(|| vals.iter().find(|x| x.0.action == sc.action && ex.step(s, p, u, x.0)[0].1 == at));
            if s == side && scripted.is_none() {
                off_options += w;
            }
            if let (true, true, Some(scripted)) = (s == side, vals.len() > 1, scripted) {
                // `vals` is not empty and holds the solved game's values (advantages in [-1, 1],
                // never NaN), so one of them is the maximum.
                let best = vals.iter().map(|x| sign * x.1).fold(f64::NEG_INFINITY, f64::max);
                let (bc, _) = vals.iter().find(|x| sign * x.1 == best).expect("best");
                let loss = w * (best - sign * scripted.1);
                if loss > 1e-12 {
                    total += loss;
                    note(p, u, first, *bc, sc, loss);
                }
            }
            after.extend(next.into_iter().map(|(q, p, u)| (q0 * q, p, u)));
        }
        after
    };
    for _ in 0..rounds {
        let mut next: BTreeMap<([usize; 2], [usize; 2]), f64> = BTreeMap::new();
        for (&(p, u), &x) in &dist {
            if x < 1e-13 {
                continue;
            }
            let pa = g.p_a_first(u);
            for (first, w) in [(0usize, pa), (1usize, 1.0 - pa)] {
                if w <= 0.0 {
                    continue;
                }
                for (q1, p1, u1) in act(ex, first, true, p, u, x * w) {
                    if g.destroyed(0, u1[0]) || g.destroyed(1, u1[1]) {
                        continue;
                    }
                    for (q2, p2, u2) in act(ex, 1 - first, false, p1, u1, x * w * q1) {
                        if !(g.destroyed(0, u2[0]) || g.destroyed(1, u2[1])) {
                            *next.entry((p2, u2)).or_default() += x * w * q1 * q2;
                        }
                    }
                }
            }
        }
        dist = next;
        if dist.is_empty() {
            break;
        }
    }
    (total, off_options)
}

/// Test-only: prints the `top` largest of a probe's losses (probability units) by label, in
/// points, largest first ([`scripted_losses`]'s callers).
#[cfg(test)]
pub(crate) fn print_largest(losses: std::collections::BTreeMap<String, f64>, top: usize) {
    let mut rows: Vec<_> = losses.into_iter().collect();
    rows.sort_by(|x, y| y.1.total_cmp(&x.1));
    for (k, v) in rows.iter().take(top) {
        println!("{:7.3}  {k}", 100.0 * v);
    }
}

/// A game with some options taken away (probes of which options a best response exploits the
/// scripted tactic with): side `s` keeps an option `o` of its state `me` against `other` at
/// `at` when `keep(&g, s, me, other, at, o)`. Everything else is `g`'s, except that it is not
/// a mirror ([`DuelGame::mirror`] false: the filter may treat the sides differently).
#[cfg(test)]
pub(crate) struct Without<G, F> {
    pub g: G,
    pub keep: F,
}

#[cfg(test)]
impl<G: DuelGame, F: Fn(&G, Side, usize, usize, Spot, &Choice) -> bool> DuelGame for Without<G, F> {
    fn setup(&self) -> Setup {
        self.g.setup()
    }
    fn p_a_first(&self, u: [usize; 2]) -> f64 {
        self.g.p_a_first(u)
    }
    fn n_states(&self, s: Side) -> usize {
        self.g.n_states(s)
    }
    fn start_state(&self, s: Side) -> usize {
        self.g.start_state(s)
    }
    fn destroyed(&self, s: Side, u: usize) -> bool {
        self.g.destroyed(s, u)
    }
    fn n_actions(&self) -> usize {
        self.g.n_actions()
    }
    fn activation_start(&self, s: Side, me: usize, out: &mut Vec<(f64, usize)>) {
        self.g.activation_start(s, me, out)
    }
    fn options(&self, s: Side, me: usize, other: usize, at: Spot, out: &mut Vec<Choice>) {
        self.g.options(s, me, other, at, out);
        out.retain(|o| (self.keep)(&self.g, s, me, other, at, o));
    }
    fn scripted(&self, s: Side, me: usize, other: usize, at: Spot) -> Choice {
        self.g.scripted(s, me, other, at)
    }
    fn outcomes(&self, s: Side, action: u16, me: usize, other: usize, gap: f64, out: &mut Vec<(f64, usize, usize)>) {
        self.g.outcomes(s, action, me, other, gap, out)
    }
    fn strength(&self, s: Side, u: usize) -> f64 {
        self.g.strength(s, u)
    }
    fn mirror(&self) -> bool {
        false
    }
}

/// Test check shared by every ruleset's game: a mirror (both sides the same unit) is exactly
/// even under optimal play and under the scripted tactic: score exactly ½, `P(A wins)` the same
/// bits as `P(B wins)`. Only these two symmetric policy pairs: the best responses are not mirrors.
#[cfg(test)]
pub(crate) fn assert_mirror_is_even<G: DuelGame>(g: &G) {
    for policy in [Policy::Optimal, Policy::Scripted] {
        let v = solve(g, [policy; 2]);
        assert_eq!(v.a_score(), 0.5, "{policy:?}: {v:?}");
        assert_eq!(v.a_wins, v.b_wins, "{policy:?}: {v:?}");
    }
}

/// Test check shared by every ruleset's game: the game of each unit of `mirrors` against itself
/// at `distance` on a grid of `step` is a mirror, exactly even ([`assert_mirror_is_even`]) and
/// its B best response is A's swapped, exactly ([`assert_mirror_shortcut_is_exact`]); the game
/// of the two different units `not` is not a mirror; and [`optimal_score`] gives each game's
/// score ([`assert_score_is_solved`]).
#[cfg(test)]
pub(crate) fn assert_mirrors<R: OptimalPlay>(r: &R, mirrors: &[usize], not: (usize, usize), distance: f64, step: f64) {
    for &u in mirrors {
        let g = r.game(u, u, distance, step).expect("a game");
        assert_mirror_is_even(&g);
        assert_mirror_shortcut_is_exact(&g);
        assert_score_is_solved(&g);
    }
    if let Some(&u) = mirrors.first() {
        assert_mirror_portfolio_is_exact(
            r.game(u, u, distance, step).expect("a game"),
            r.game(u, u, distance, step).expect("a game"),
        );
    }
    let g = r.game(not.0, not.1, distance, step).expect("a game");
    assert!(!g.mirror());
    assert_score_is_solved(&g);
}

/// Test check shared by every ruleset's game: [`portfolio`]'s mirror shortcuts (the cells below
/// the diagonal and B's best responses taken from A's, swapped) give the same bits as solving
/// them, in the mirror game `g` (`same` is the same game again, solved without the shortcuts).
#[cfg(test)]
pub(crate) fn assert_mirror_portfolio_is_exact<G: DuelGame>(g: G, same: G) {
    assert!(g.mirror(), "not a mirror");
    let uniform = |p: &[Vec<f64>], _: &[f64], _: &[f64]| -> Result<[Vec<f64>; 2], String> {
        Ok([0, 1].map(|_| vec![1.0 / p.len() as f64; p.len()]))
    };
    let short = portfolio(&g, &uniform).expect("mixes");
    let full =
        portfolio(&Without { g: same, keep: |_: &G, _: Side, _: usize, _: usize, _: Spot, _: &Choice| true }, &uniform)
            .expect("mixes");
    assert_eq!(short.cells, full.cells);
    assert_eq!((short.a_best_response, short.b_best_response), (full.a_best_response, full.b_best_response));
}

/// Test check shared by every ruleset's game: units `a` against `b` at `distance` on a grid of
/// `step`, both sides playing the scripted tactic, win with `chain`'s probabilities (the exact
/// chain of the same tactic) to `tolerance`. Returns the game's value.
#[cfg(test)]
pub(crate) fn assert_scripted_game_is<R: OptimalPlay>(
    r: &R,
    (a, b): (usize, usize),
    (distance, step): (f64, f64),
    chain: &crate::rulesets::ExactDuel,
    tolerance: f64,
) -> GameValue {
    let v = solve(&r.game(a, b, distance, step).expect("a game"), [Policy::Scripted; 2]);
    let close = (v.a_wins - chain.a_wins).abs() < tolerance && (v.b_wins - chain.b_wins).abs() < tolerance;
    assert!(close, "{a} v {b} at {distance}: the game {v:?}, the chain {chain:?}");
    v
}

/// [`assert_scripted_game_is`] for every pair `(a, b)` of `pairs` at every start of `distances`
/// for which `chain(a, b, distance)` gives the exact chain (`None`: the pair is skipped there),
/// on a grid of `step`. Returns how many games were compared.
#[cfg(test)]
pub(crate) fn assert_scripted_games_are_chains<R: OptimalPlay>(
    r: &R,
    pairs: &[(usize, usize)],
    (distances, step): (&[f64], f64),
    tolerance: f64,
    chain: impl Fn(usize, usize, f64) -> Option<crate::rulesets::ExactDuel>,
) -> usize {
    let mut compared = 0;
    for &distance in distances {
        for &(a, b) in pairs {
            let Some(e) = chain(a, b, distance) else { continue };
            assert_scripted_game_is(r, (a, b), (distance, step), &e, tolerance);
            compared += 1;
        }
    }
    compared
}

/// Test check of a ruleset's grid: units `a` against `b` of `r` at `distance`, solved with both
/// sides optimal on a grid of `step` and of `step / 2`, differ by at most `tolerance` in A's
/// score (probability units). Returns the two scores.
#[cfg(test)]
pub(crate) fn assert_half_grid_within<R: OptimalPlay>(
    r: &R,
    (a, b): (usize, usize),
    distance: f64,
    step: f64,
    tolerance: f64,
) -> (f64, f64) {
    let score = |step| super::game::optimal_score(r, a, b, distance, step).expect("a game");
    let (coarse, fine) = (score(step), score(step / 2.0));
    assert!((coarse - fine).abs() <= tolerance, "{a} v {b}: {coarse} on {step}, {fine} on half of it");
    (coarse, fine)
}

/// A matrix probe's start distance and grid step (the ruleset's unit): `OPTIMAL_DISTANCE` and
/// `OPTIMAL_STEP` from the environment where set (and a number), else `distance` and `step`.
#[cfg(test)]
pub(crate) fn probe_at(distance: f64, step: f64) -> (f64, f64) {
    let env_or = |key: &str, default: f64| std::env::var(key).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    (env_or("OPTIMAL_DISTANCE", distance), env_or("OPTIMAL_STEP", step))
}

/// A best-response probe's arguments ([`probe_args`]): the pair, the probed side, the start
/// distance (the ruleset's unit) and how many rows to print.
#[cfg(test)]
pub(crate) struct Probe {
    pub ids: [usize; 2],
    pub side: Side,
    pub distance: f64,
    pub top: usize,
}

/// A best-response probe's arguments, each from the environment where set (and readable), else
/// the default given: the pair `OPTIMAL_PAIR=a,b` (two units, each resolved by `find`), the
/// probed side `OPTIMAL_SIDE` (0 or 1), the start distance `OPTIMAL_DISTANCE` and the rows to
/// print `OPTIMAL_TOP`. Panics (a test probe) unless the pair names two units.
#[cfg(test)]
pub(crate) fn probe_args(pair: &str, side: Side, distance: f64, top: usize, find: impl Fn(&str) -> usize) -> Probe {
    fn env_or<T: std::str::FromStr>(key: &str, default: T) -> T {
        std::env::var(key).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
    }
    let pair = std::env::var("OPTIMAL_PAIR").unwrap_or_else(|_| pair.to_string());
    let ids: Vec<usize> = pair.split(',').map(find).collect();
    assert_eq!(ids.len(), 2, "OPTIMAL_PAIR names two units: {pair}");
    Probe {
        ids: [ids[0], ids[1]],
        side: env_or("OPTIMAL_SIDE", side),
        distance: env_or("OPTIMAL_DISTANCE", distance),
        top: env_or("OPTIMAL_TOP", top),
    }
}

/// Every unordered pair `(a, b)`, `a ≤ b`, of `n` units, mirrors included.
#[cfg(test)]
pub(crate) fn unordered_pairs(n: usize) -> Vec<(usize, usize)> {
    (0..n).flat_map(|a| (a..n).map(move |b| (a, b))).collect()
}

/// Test-only probe behind every ruleset's ignored `optimal_matrix` test (the measurement behind
/// the notes of issue 15): [`optimal_duel`] of each pair of units of `r` in `pairs` at
/// `distance` on a grid of `step` (the ruleset's unit), printed a line a pair as it is solved
/// (the units' `name`s; A's score under optimal play and under the scripted tactic, the
/// exploitability of the scripted tactic and each side's gain, in points; the seconds; then
/// `more(a, b, &duel)`), then the `worst` most exploited pairs, the largest and mean
/// exploitability and the time. Returns the duels in the order of `pairs`.
#[cfg(test)]
pub(crate) fn print_matrix<R: OptimalPlay>(
    r: &R,
    name: impl Fn(usize) -> String,
    pairs: &[(usize, usize)],
    (distance, step): (f64, f64),
    worst: usize,
    more: impl Fn(usize, usize, &OptimalDuel) -> String,
) -> Vec<OptimalDuel> {
    let w = pairs.iter().flat_map(|&(a, b)| [name(a).len(), name(b).len()]).max().unwrap_or(0);
    let started = std::time::Instant::now();
    let mut duels = Vec::new();
    for &(a, b) in pairs {
        let t = std::time::Instant::now();
        let o = optimal_duel(r, a, b, distance, step).expect("a game");
        let secs = t.elapsed().as_secs_f64();
        let points = |x: f64| 100.0 * x;
        println!(
            "{:>w$} v {:<w$} optimal {:6.2}  scripted {:6.2}  exploit {:5.2} (A {:5.2}, B {:5.2})  {secs:.2}s{}",
            name(a),
            name(b),
            points(o.optimal.a_score()),
            points(o.scripted.a_score()),
            points(o.exploitability()),
            points(o.a_gain()),
            points(o.b_gain()),
            more(a, b, &o)
        );
        duels.push(o);
    }
    let mut order: Vec<usize> = (0..duels.len()).collect();
    order.sort_by(|&i, &j| duels[j].exploitability().total_cmp(&duels[i].exploitability()));
    println!("worst first:");
    for &i in order.iter().take(worst) {
        println!("{:6.2}  {} v {}", 100.0 * duels[i].exploitability(), name(pairs[i].0), name(pairs[i].1));
    }
    let (max, n) = (order.first().map_or(0.0, |&i| duels[i].exploitability()), duels.len().max(1) as f64);
    let mean = duels.iter().map(OptimalDuel::exploitability).sum::<f64>() / n;
    println!(
        "{} pairs at {distance} on a {step} grid: exploitability max {:.2} mean {:.2} points; {:.1} s",
        duels.len(),
        100.0 * max,
        100.0 * mean,
        started.elapsed().as_secs_f64()
    );
    duels
}

/// Test check shared by every ruleset's game (the contract of [`OptimalPlay::game`]: a game
/// depends on the start distance only through where the units start on its line): the games
/// of units `a` and `b` at each of `distances` (chosen as one family: the same line but for
/// the start) are one family; [`optimal_scores_from`] reads each start it serves from the
/// first distance's solve to the bits of a solve started there ([`optimal_score`]), and with
/// `shared` it serves every start (the shortcut is taken, not its fallback: the starts reach
/// the same states); [`game::optimal_scores_at`] gives the same bits either way; and a start
/// off the line is refused.
pub(crate) fn assert_one_solve_serves_every_start<R: OptimalPlay>(
    r: &R,
    (a, b): (usize, usize),
    distances: &[f64],
    step: f64,
    shared: bool,
) {
    assert!(a != b && distances.len() >= 2, "two units and two distances at least");
    let games: Vec<_> = distances.iter().map(|&d| r.game(a, b, d, step).expect("a game")).collect();
    let family = |g: &R::Game<'_>| {
        let mut s = g.setup();
        s.line.start = 0;
        s
    };
    assert!(games.iter().all(|g| family(g) == family(&games[0])), "one family");
    let starts: Vec<u16> = games.iter().map(|g| g.setup().line.start).collect();
    assert!(starts.windows(2).all(|w| w[0] != w[1]), "distinct starts: {starts:?}");
    let served = optimal_scores_from(&games[0], &starts);
    let together = game::optimal_scores_at(r, a, b, distances, step);
    for ((g, v), w) in games.iter().zip(&served).zip(&together) {
        let alone = optimal_score(g).0.to_bits();
        let start = g.setup().line.start;
        if shared || v.is_some() {
            assert_eq!(v.map(f64::to_bits), Some(alone), "start {start}: read from the first game's solve");
        }
        assert_eq!(w.as_ref().ok().map(|x| x.to_bits()), Some(alone), "start {start}: optimal_scores_at");
    }
    // Its own start is always served.
    assert!(served[0].is_some());
    let off = games[0].line().max_sum + 1;
    assert_eq!(optimal_scores_from(&games[0], &[off]), vec![None]);
}
