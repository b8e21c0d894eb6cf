//! Optimal play in one-against-one duels (DESIGN.md, "Optimal play and exploitability").
//!
//! Why a game and not a chain: the exact solvers of the rulesets (`*/exact.rs`) propagate the
//! distribution of a duel under the scripted tactic. Here the same activations become the moves
//! of a two-player zero-sum stochastic game: at each activation the acting side picks, among
//! the ruleset's legal options (hold and attack, move by whole grid steps then attack, rush,
//! retreat, hunker, charge...), the one that maximises its own score (win 1, draw ½, loss 0).
//! Every decision is taken with the whole state known and one side acting at a time, so pure
//! strategies suffice and backward induction over the round cap solves the game exactly on its
//! grid. The same machinery with one side's policy fixed to the scripted tactic gives that
//! side's best response, and with both fixed it evaluates the scripted tactic itself.
//!
//! Geometry: the two units stand on a line across the table; each side may retreat to its own
//! table edge (the depth of the ruleset's standard table, RULINGS.md "Duel table depth") and
//! the sides start symmetric about the middle. Positions are whole grid cells counted from each
//! side's rearmost reachable cell; the gap is what is left between them, never less than the
//! ruleset's closest approach (`min_gap`: a unit that would move past it stops there, like
//! "stop 1\" short"). A unit's state (models, wounds, flags) is a small index the ruleset
//! defines; the core knows only whether it is destroyed.
//!
//! What each ruleset plugs in besides its [`DuelGame`] (its table and grid, how a pair's game
//! is built, its action codes) and the two solves every ruleset offers are in [`game`].
//!
//! Values are kept as the advantage `P(A wins) − P(B wins)`, whose negation is exact in floating
//! point, so a mirror matchup averaged over who acts first is exactly 0 (score exactly ½).
//!
//! What the scripted tactics lack (issue 15 item 4; measured at stop 37, not built): look-ahead
//! against an opponent that answers well. Branch `improve-probe` (commit 187e724, not merged)
//! gives this solver a third policy, *policy improvement* of the scripted tactic: in every
//! state the acting side takes the option whose successor has the best value, the previous
//! choice kept on ties (within 1e-9), where a successor's value is read from a solve over every
//! state of the game in which the acting side plays its previous policy and the other side its
//! best response to it; the first step improves the scripted tactic, each further step the
//! step before (`POINTSWORTH_IMPROVED=secure POINTSWORTH_IMPROVE_STEPS=K pointsworth matrix
//! RULESET --optimal --distance D` puts the K-step policy in the "scripted" column of every
//! solve). Its exploitability, max / mean points, against the scripted tactic's (release
//! builds of the branch; the same solver and grid):
//!
//! | ruleset | distance | scripted | one step | two steps |
//! |---|---|---|---|---|
//! | The Grunt Factor | 50 cm (report) | 1.6 / 0.5 | 1.1 / 0.1 | 1.2 / 0.1 |
//! | The Grunt Factor | 90 cm | 30.0 / 14.3 | 15.4 / 6.9 | 17.3 / 3.8 |
//! | Army Men Combat | 6", 12" (max) | 13.2, 12.0 | 4.5, 8.0 | 4.5, 5.2 |
//! | Army Men Combat | 24" (report) | 8.8 / 0.8 | 3.5 / 0.2 | 1.1 / 0.1 |
//! | Army Men Combat | 36" (max) | 18.8 | 18.2 | 17.8 |
//! | Gunplay | 3, 6, 12, 18" (max) | 2.9, 6.1, 12.4, 9.5 | 0.1, 0.2, 3.1, 3.3 | 0.1, 0.2, 0.4, 0.3 |
//! | Gunplay | 24" (report) | 15.3 / 8.9 | 1.7 / 1.0 | 1.0 / 0.3 |
//! | Gunplay | 36", 48" (max) | 15.3, 17.9 | 6.0, 6.0 | 1.0, 2.2 |
//! | VSGMR | 6, 18, 24" (max) | 15.3, 21.0, 21.5 | 8.2, 8.2, 9.5 | 3.9, 9.6, 9.3 |
//! | VSGMR | 12" (report) | 15.3 / 1.9 | 8.5 / 0.8 | 3.9 / 0.2 |
//! | Guns 'N Grenades | 12" (report) | 64.2 / 17.9 | 64.2 / 14.1 | 64.2 / 9.7 |
//!
//! More steps do not always help: a third gives VSGMR 11.2 at 12" (Gunplay 0.5 at worst at
//! 12–48"); four give Guns 'N Grenades at 12" 64.2 / 7.7 (32 of 78 pairs above 5 points, 62
//! with the scripted tactic).
//! Successor values of the previous policy against itself instead (`POINTSWORTH_IMPROVED=1`,
//! plain policy improvement, one step) help Gunplay and The Grunt Factor a little and make the
//! rest worse, at the report distances Army Men Combat 47.3 / 4.2, VSGMR 30.5 / 2.4, Guns 'N
//! Grenades 63.2 / 29.8: a step that trusts the opponent to keep to its script walks into its
//! answer. A few steps do not find a plan that pays only if kept up for many activations
//! (Guns 'N Grenades' Machine Gunner that stays out of the immobile Artillery's range for a
//! draw; the Army Men Combat Riflemen (10) mirror at 36"). The policy is a table over this
//! game's states (positions on the grid between table edges), so the Monte Carlo duel, the
//! squads and the skirmishes cannot play it as it stands; reading the 1v1 numbers from this
//! solver under such a policy, or finding the decision rule the table encodes for the shared
//! tactics, is the open part of item 4.

use crate::rulesets::{NotExact, Side};
use rayon::prelude::*;

pub mod game;
pub mod tactics;
pub use game::{Grid, OptimalPlay, Pair, optimal_duel, portfolio_duel};
pub(crate) use game::{action_codes, optimal_play_methods};

/// The line the duel is fought on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Line {
    /// The depth of the table the line crosses (the ruleset's unit): each side's rearmost cell
    /// lies at most this far from the other's.
    pub depth: f64,
    /// Distance per grid cell (the ruleset's unit).
    pub step: f64,
    /// Gap when both sides stand on their rearmost cell.
    pub back_gap: f64,
    /// The closest the two units come (contact, or the ruleset's minimum gap).
    pub min_gap: f64,
    /// Each side's start cell (cells in front of its rearmost cell).
    pub start: u16,
    /// The largest sum of the two positions: at it the gap is `min_gap`.
    pub max_sum: u16,
}

impl Line {
    /// A line on a table `depth` deep with the sides `distance` apart, symmetric about the
    /// middle, on a grid of `step`. The start must lie on the grid: `distance` and the room
    /// behind each side a whole number of cells is not required, but the gap must change in
    /// whole cells, so each side keeps the whole cells of room behind it.
    pub fn new(depth: f64, distance: f64, step: f64, min_gap: f64) -> Result<Line, NotExact> {
        if !(distance >= min_gap && distance > 0.0 && distance <= depth) {
            return Err(NotExact(format!(
                "--optimal: the start distance {distance} must be at least {min_gap} (the closest the two units come) \
                 and at most {depth} (the table depth)"
            )));
        }

        let room = (depth - distance) / 2.0;
        let start = (room / step + 1e-9).floor() as u16;
        let back_gap = distance + 2.0 * start as f64 * step;
        let max_sum = (((back_gap - min_gap) / step) - 1e-9).ceil().max(0.0) as u16;
        Ok(Line { depth, step, back_gap, min_gap, start, max_sum })
    }

    /// The gap when the positions add up to `sum`.
    pub fn gap(&self, sum: u16) -> f64 {
        (self.back_gap - sum as f64 * self.step).max(self.min_gap)
    }

    /// Whole cells in `d` (rounded to the nearest cell; at least 1 for a positive `d`).
    pub fn cells(&self, d: f64) -> i16 {
        if d <= 0.0 { 0 } else { ((d / self.step).round() as i16).max(1) }
    }

    /// Whole cells a move of up to `d` covers (rounded down: a move may stop short).
    pub fn cells_within(&self, d: f64) -> i16 {
        (d / self.step + 1e-9).floor().max(0.0) as i16
    }
}

/// Where the acting unit stands, as its options see it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spot {
    /// The gap to the enemy.
    pub gap: f64,
    /// Cells the unit may still retreat (to its table edge).
    pub room: u16,
    /// Cells it may advance before it reaches `min_gap`.
    pub ahead: u16,
}

/// One option of an activation: a move, then the ruleset's `action` at the new gap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choice {
    /// Cells toward the enemy (negative: back toward the own edge). A move past the closest
    /// approach stops there; a retreat past the edge stops at it.
    pub advance: i16,
    /// What the unit does after (or instead of) moving, a code the ruleset defines.
    pub action: u16,
}

/// Who activates first in a round.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Order {
    /// The side that acts first keeps acting first every round (averaged ½–½ over who starts).
    Alternate,
    /// A roll-off each round; [`DuelGame::p_a_first`] gives A's chance. The winner acts
    /// first.
    RollOff,
    /// A roll-off each round whose winner *chooses* who acts first (The Grunt Factor, "Turn
    /// sequence"; VSGMR v7, II.1 "Initiative"); [`DuelGame::p_a_first`] gives A's chance to
    /// win it. A side under [`Policy::Optimal`] chooses, in each state, the order that scores
    /// more for it (acting first where the two tie); a portfolio tactic as its
    /// [`tactics::Tactic::acts_first`] says; the scripted tactic acts first, as the Monte Carlo
    /// duel's and the exact chain's scripted tactic does.
    Initiative,
}

/// What the solver needs of a game besides its rules, fixed when the game is built: the line,
/// the round cap and the order of play ([`DuelGame::setup`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Setup {
    /// The line and its grid.
    pub line: Line,
    /// Rounds after which the duel is a draw (the solver's rounds, ≥ 1).
    pub max_rounds: u32,
    /// Who activates first in a round.
    pub order: Order,
}

/// A one-against-one duel as a game: the ruleset's part.
pub trait DuelGame {
    /// The line, the round cap and the order of play.
    fn setup(&self) -> Setup;
    /// The line and its grid ([`Setup::line`]).
    fn line(&self) -> Line {
        self.setup().line
    }
    /// Rounds after which the duel is a draw ([`Setup::max_rounds`]).
    fn max_rounds(&self) -> u32 {
        self.setup().max_rounds
    }
    /// Who activates first in a round ([`Setup::order`]).
    fn order(&self) -> Order {
        self.setup().order
    }
    /// A's chance to act first in a round with these unit states ([`Order::RollOff`]), or to
    /// win the roll-off whose winner chooses ([`Order::Initiative`]).
    fn p_a_first(&self, _u: [usize; 2]) -> f64 {
        0.5
    }
    /// Number of unit states of side `s`, and its start state.
    fn n_states(&self, s: Side) -> usize;
    fn start_state(&self, s: Side) -> usize;
    fn destroyed(&self, s: Side, u: usize) -> bool;
    /// Number of action codes (for the outcome cache).
    fn n_actions(&self) -> usize;
    /// The chance events when side `s` starts an activation (tests, flags that end): the
    /// distribution of its state. Default: none.
    fn activation_start(&self, _s: Side, me: usize, out: &mut Vec<(f64, usize)>) {
        out.push((1.0, me));
    }
    /// The legal options of side `s` (never empty: waiting is an option).
    fn options(&self, s: Side, me: usize, other: usize, at: Spot, out: &mut Vec<Choice>);
    /// The scripted tactic's choice (its move is applied like an option's).
    fn scripted(&self, s: Side, me: usize, other: usize, at: Spot) -> Choice;
    /// What is left of side `s`'s unit in state `u`, in [0, 1]: 1 whole, 0 destroyed. Only the
    /// portfolio's tactics read it, to weigh an option's immediate trade ([`tactics`]); the
    /// default counts a unit whole until it is destroyed.
    fn strength(&self, s: Side, u: usize) -> f64 {
        if self.destroyed(s, u) { 0.0 } else { 1.0 }
    }
    /// The outcomes of `action` by side `s` at gap `gap`: `(p, me', other')`. Probabilities
    /// add up to 1.
    fn outcomes(&self, s: Side, action: u16, me: usize, other: usize, gap: f64, out: &mut Vec<(f64, usize, usize)>);
    /// Whether both sides are the same unit, so that the game is the same seen from either
    /// side (the line and the order of play are symmetric): then B's best response against
    /// scripted A is A's against scripted B with the sides swapped, and [`analyse`] solves it
    /// once; [`portfolio`] likewise takes the cells below the diagonal and B's best responses
    /// from A's (tested per ruleset: `assert_mirror_portfolio_is_exact`). Default: false.
    fn mirror(&self) -> bool {
        false
    }
}

/// How a side plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// Maximises its own score.
    Optimal,
    /// Follows [`DuelGame::scripted`].
    Scripted,
    /// Follows the `k`-th tactic of the duel game's portfolio ([`tactics::PORTFOLIO`]).
    Tactic(u8),
}

impl Policy {
    /// The duel game's whole portfolio as policies, in the order of [`tactics::names`]: the
    /// scripted tactic, then each of [`tactics::PORTFOLIO`].
    pub fn portfolio() -> Vec<Policy> {
        std::iter::once(Policy::Scripted).chain((0..tactics::PORTFOLIO.len() as u8).map(Policy::Tactic)).collect()
    }

    /// Where a side's plan under this policy is kept ([`Solver::plans`]).
    fn slot(self) -> usize {
        match self {
            Policy::Optimal => 0,
            Policy::Scripted => 1,
            Policy::Tactic(k) => 2 + k as usize,
        }
    }
}

/// The result of a duel under given policies, averaged over who acts first (or the roll-off).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GameValue {
    pub a_wins: f64,
    pub b_wins: f64,
    pub draws: f64,
    /// Rounds the backward induction actually computed (it stops early once another round
    /// changes no value by more than [`SETTLED`]).
    pub rounds_solved: u32,
}

impl GameValue {
    /// The same result with the sides swapped (A's wins are B's), the draws worked out from
    /// the swapped wins as the solver works them out, so a mirror game's swapped value is the
    /// same bits as its own solve (tested per ruleset: `assert_mirror_shortcut_is_exact`).
    pub fn swapped(&self) -> GameValue {
        let (a_wins, b_wins) = (self.b_wins, self.a_wins);
        GameValue { a_wins, b_wins, draws: (1.0 - a_wins - b_wins).max(0.0), rounds_solved: self.rounds_solved }
    }

    /// A's score, draw = ½.
    pub fn a_score(&self) -> f64 {
        // = P(A) + ½ P(draw); written so that P(A) = P(B) gives exactly ½.
        0.5 * (1.0 + (self.a_wins - self.b_wins))
    }
}

/// Values over all states, `[v, w, l]` per state: the advantage `v = P(A) − P(B)` (what the
/// choices use) and the win probabilities `w = P(A)`, `l = P(B)` under the chosen options.
/// Kept side by side so that one read of a state fetches all three.
type Vals = ValsOf<3>;

/// Values over all states, the first `C` of `[v, w, l]` per state: all three (`C = 3`, a
/// [`GameValue`]), or the advantage alone (`C = 1`, [`optimal_score`]: the choices and the
/// score need only it).
type ValsOf<const C: usize> = Vec<[f64; C]>;

/// `n` states of zeros.
fn zeros<const C: usize>(n: usize) -> ValsOf<C> {
    vec![[0.0; C]; n]
}

/// The index of the advantage, win and loss in a state's `[v, w, l]`.
const V: usize = 0;
const W: usize = 1;
const L: usize = 2;

/// Every outcome list of a game, one after another. Each outcome is one word: the index of its
/// probability among the game's distinct probabilities (high half) and the offset
/// `u0 · n[1] + u1` of its unit states within a positions' block (low half). A game has few
/// distinct probabilities (from 7 in VSGMR to about 70 000 in The Grunt Factor), so a word of
/// 8 bytes instead of a `(f64, u32)`, which pads to 16, halves the lists [`expect_into`] reads
/// every layer (measured 5% faster on The Grunt Factor's duels). The probability read back is
/// the same `f64`, so the sums are the same bits.
#[derive(Default)]
struct Outcomes {
    words: Vec<u64>,
    probs: Vec<f64>,
    /// A probability's bits → its index in `probs`.
    index: std::collections::HashMap<u64, u32>,
    /// Each distinct list's words → its range in `words` ([`Outcomes::share`]).
    lists: std::collections::HashMap<Box<[u64]>, (u32, u32)>,
}

impl Outcomes {
    fn len(&self) -> u32 {
        self.words.len() as u32
    }

    fn push(&mut self, p: f64, off: u32) {
        let next = self.probs.len() as u32;
        let k = *self.index.entry(p.to_bits()).or_insert(next);
        if k == next {
            self.probs.push(p);
        }
        self.words.push(u64::from(k) << 32 | u64::from(off));
    }

    /// The range of the list pushed since `a` (`words[a..]`): where the same list (the same
    /// words in the same order) was pushed before, that earlier range, and the new copy is
    /// dropped. Many outcome lists repeat: the same action and unit states at gaps in the same
    /// range band (in one pair of each ruleset at its report distance, about 10 copies of each
    /// distinct list in The Grunt Factor, 15 in Army Men Combat, 26 in Gunplay and over 70 in
    /// VSGMR and Guns 'N Grenades). Sharing one copy shrinks the lists, and the combinations
    /// that share a list are summed side by side ([`expect_into`]); each sum is the same list
    /// in the same order, so the same bits.
    fn share(&mut self, a: u32) -> (u32, u32) {
        let b = self.len();
        let list = &self.words[a as usize..];
        if let Some(&r) = self.lists.get(list) {
            self.words.truncate(a as usize);
            return r;
        }
        self.lists.insert(list.into(), (a, b));
        (a, b)
    }

    /// The outcomes `a..b`: probability and offset.
    #[inline(always)]
    fn range(&self, a: u32, b: u32) -> impl Iterator<Item = (f64, u32)> + '_ {
        self.words[a as usize..b as usize].iter().map(|&w| (self.probs[(w >> 32) as usize], w as u32))
    }
}

/// The solver of one game: state indexing, the outcome cache and each side's resolved options.
struct Solver<'g, G: DuelGame> {
    g: &'g G,
    line: Line,
    n: [usize; 2],
    /// Positions per side: 0..=max_sum.
    np: usize,
    gaps: Vec<f64>,
    /// `(s, action, gap index, me, other)` → range in `cache`.
    index: Vec<Option<(u32, u32)>>,
    /// Outcomes: probability and the offset `u0 · n[1] + u1` of the resulting unit states
    /// within a positions' block (the actor's and target's states put back in side order).
    cache: Outcomes,
    starts: [Vec<Vec<(f64, usize)>>; 2],
    /// Whether each unit state of each side is destroyed.
    dead: [Vec<bool>; 2],
    /// Each side's options resolved under each policy (`[side][policy.slot()]`), built on
    /// first use and kept for the other solves of the same game.
    plans: [Vec<Option<Plan>>; 2],
    /// What each side's portfolio tactics worked out ([`tactics::View`]), kept across states.
    memo: [tactics::Memo; 2],
    /// Scratch: each combination's expected advantage, and its win and loss probabilities, in
    /// the layer being solved. Sized to the largest plan seen and never cleared: only the
    /// entries of the layer's `reach.used[s]` are current (written before they are read, as
    /// every option of a reached state is among them), the rest are stale.
    ev: Vec<f64>,
    ev_wl: Vec<[f64; 2]>,
    /// [`DuelGame::p_a_first`] of each pair of unit states `u0 · n[1] + u1` (roll-off order).
    p_a_first: Vec<f64>,
    /// The round-start values of the last solve ([`option_values`]).
    #[cfg(test)]
    last: Vals,
}

/// One side's options in every state, resolved once per solve (they do not change from round
/// to round): for state `i` and activation-start branch `j`, `index[i · branches + j]` is the
/// range of `opts`; each option is the number of its *combination* in `combos`: `(base, a, b)`,
/// the first index of the positions' block after its move and its outcomes `cache[a..b]`.
/// Many options of different states land on the same positions with the same action (advance
/// two cells from one place, one cell from the next); each combination's expectation is
/// computed once per layer and looked up by every option that reaches it. Where outcome lists
/// are long, combinations are numbered in order of their outcome lists, so that those sharing
/// a list are summed side by side (see [`expect_into`]).
///
/// `first`: in an [`Order::Initiative`] game, a portfolio tactic's choice on winning the
/// roll-off in each round-start state (`first[i]`: it acts first; [`tactics::Tactic::acts_first`]);
/// empty otherwise.
struct Plan {
    branches: usize,
    index: Vec<(u32, u32)>,
    opts: Vec<u32>,
    combos: Vec<(u32, u32, u32)>,
    first: Vec<bool>,
}

/// Positions after side `s` at `p` (cells from each side's rearmost cell) takes `c`'s move on
/// `line`: an advance stops at the closest approach, a retreat at the side's own edge.
fn moved(line: &Line, s: Side, p: [usize; 2], c: Choice) -> [usize; 2] {
    let mut q = p;
    let sum = p[0] + p[1];
    let max = line.max_sum as usize;
    if c.advance >= 0 {
        q[s] = p[s] + (c.advance as usize).min(max - sum.min(max));
    } else {
        q[s] = p[s].saturating_sub((-c.advance) as usize);
    }
    q
}

/// Terminal advantage/win/loss if a side is destroyed.
fn terminal(dead: &[Vec<bool>; 2], u: [usize; 2]) -> Option<(f64, f64, f64)> {
    match (dead[0][u[0]], dead[1][u[1]]) {
        (false, false) => None,
        (false, true) => Some((1.0, 1.0, 0.0)),
        (true, false) => Some((-1.0, 0.0, 1.0)),
        (true, true) => Some((0.0, 0.0, 0.0)),
    }
}

/// A layer with fewer states (or outcome combinations) than this is solved on the calling
/// thread: below it, handing the work to the thread pool costs more than it saves (the report
/// already solves the pairs in parallel). Either way each state's sums run in the same order,
/// so the values are the same bits.
const PAR_MIN_WORK: usize = 1 << 16;

/// At most this many combinations are summed side by side in [`expect_into`].
const LANES: usize = 8;

/// Outcomes per combination on average from which the combinations are numbered by their
/// outcome list (see [`Solver::plan`]). The order changes no value, only the speed.
const LONG_LISTS: usize = 4;

/// For each combination `o` of `ids` (ascending; its block base and outcomes `cache[a..b]`),
/// the expectation of `[v, w, l]` over its outcomes: `Σ p · x[base + off]`, each component
/// summed in the outcomes' order from 0.0, so the bits are those of a plain loop. The
/// advantage times `sign` (±1, an exact negation) goes to `v[o − offset]` (read for every
/// option), the win and loss probabilities to `wl[o − offset]` (read only for the chosen one;
/// with `C = 1`, the advantage alone, `wl` is left as it is).
///
/// Why side by side: the outcome lists are far larger than the processor's caches and one
/// combination's sum is a chain of dependent additions. Combinations that share an outcome
/// list (the same action and unit states from different positions, at the same gap or at
/// gaps with the same outcomes: [`Outcomes::share`]) are numbered next to each other (see
/// [`Plan`]): their sums run in lockstep, the list read once for up to [`LANES`] independent
/// chains, each still added in its own order.
#[inline]
fn expect_into<const C: usize>(
    ids: &[u32],
    offset: u32,
    combos: &[(u32, u32, u32)],
    cache: &Outcomes,
    x: &ValsOf<C>,
    sign: f64,
    v: &mut [f64],
    wl: &mut [[f64; 2]],
) {
    let mut j = 0;
    while j < ids.len() {
        let list = |o: &u32| (combos[*o as usize].1, combos[*o as usize].2);
        let first = list(&ids[j]);
        let run = ids[j..].iter().take(LANES).take_while(|o| list(o) == first).count();
        // A run of up to 8 in groups of 8, 4, 2 and 1 lanes, each summed with its lane count
        // known to the compiler, so that the sums stay in registers (0.85× the time of one loop
        // over a run's length on a Grunt Factor duel).
        let ids = &ids[j..];
        let e: &[[f64; C]] = match run {
            LANES => &lanes::<LANES, C>(ids, combos, cache, x),
            4.. => &lanes::<4, C>(ids, combos, cache, x),
            2.. => &lanes::<2, C>(ids, combos, cache, x),
            _ => &lanes::<1, C>(ids, combos, cache, x),
        };
        for (&o, e) in ids.iter().zip(e) {
            let o = (o - offset) as usize;
            v[o] = sign * e[V];
            if C == 3 {
                wl[o] = [e[W], e[L]];
            }
        }
        j += e.len();
    }
}

/// The sums of [`expect_into`] for the first `M` combinations of `ids`, which share one
/// outcome list: the list read once, each combination's `[v, w, l]` summed in the list's order.
#[inline(always)]
fn lanes<const M: usize, const C: usize>(
    ids: &[u32],
    combos: &[(u32, u32, u32)],
    cache: &Outcomes,
    x: &ValsOf<C>,
) -> [[f64; C]; M] {
    let (_, a, b) = combos[ids[0] as usize];
    let base: [usize; M] = std::array::from_fn(|k| combos[ids[k] as usize].0 as usize);
    let mut e = [[0.0; C]; M];
    for (pr, off) in cache.range(a, b) {
        for k in 0..M {
            let y = &x[base[k] + off as usize];
            for c in 0..C {
                e[k][c] += pr * y[c];
            }
        }
    }
    e
}

impl<'g, G: DuelGame> Solver<'g, G> {
    fn new(g: &'g G) -> Self {
        let line = g.line();
        let n = [g.n_states(0), g.n_states(1)];
        let np = line.max_sum as usize + 1;
        let gaps = (0..np).map(|k| line.gap(k as u16)).collect();
        let starts = [0, 1].map(|s| {
            (0..n[s])
                .map(|u| {
                    let mut out = Vec::new();
                    g.activation_start(s, u, &mut out);
                    out
                })
                .collect()
        });
        let dead = [0, 1].map(|s| (0..n[s]).map(|u| g.destroyed(s, u)).collect());
        let slots = 2 * g.n_actions() * np * n[0] * n[1];
        let p_a_first = match g.order() {
            Order::RollOff | Order::Initiative => (0..n[0] * n[1]).map(|u| g.p_a_first([u / n[1], u % n[1]])).collect(),
            Order::Alternate => Vec::new(),
        };
        Solver {
            g,
            line,
            n,
            np,
            gaps,
            index: vec![None; slots],
            cache: Outcomes::default(),
            starts,
            dead,
            plans: [0, 1].map(|_| (0..2 + tactics::PORTFOLIO.len()).map(|_| None).collect()),
            memo: Default::default(),
            ev: Vec::new(),
            ev_wl: Vec::new(),
            p_a_first,
            #[cfg(test)]
            last: Vec::new(),
        }
    }

    fn idx(&self, p: [usize; 2], u: [usize; 2]) -> usize {
        ((p[0] * self.np + p[1]) * self.n[0] + u[0]) * self.n[1] + u[1]
    }

    /// The start state: both units fresh at the line's start.
    fn start(&self) -> usize {
        self.idx([self.line.start as usize; 2], [self.g.start_state(0), self.g.start_state(1)])
    }

    fn len(&self) -> usize {
        self.np * self.np * self.n[0] * self.n[1]
    }

    fn terminal(&self, u: [usize; 2]) -> Option<(f64, f64, f64)> {
        terminal(&self.dead, u)
    }

    /// The outcome list of `action` by `s` at gap index `k` (actor state, target state).
    fn outcomes(&mut self, s: Side, action: u16, k: usize, me: usize, other: usize) -> (u32, u32) {
        let slot = s * self.side_slots() + self.slot(s, action, k, me, other);
        if let Some(r) = self.index[slot] {
            return r;
        }
        let mut out = Vec::new();
        self.g.outcomes(s, action, me, other, self.gaps[k], &mut out);
        let a = self.cache.len();
        let n1 = self.n[1];
        for (p, x, y) in out.into_iter().filter(|o| o.0 > 0.0) {
            let (u0, u1) = if s == 0 { (x, y) } else { (y, x) };
            self.cache.push(p, (u0 * n1 + u1) as u32);
        }
        let r = self.cache.share(a);
        self.index[slot] = Some(r);
        r
    }

    /// Outcome lists one side can have: `(action, gap index, me, other)`.
    fn side_slots(&self) -> usize {
        self.g.n_actions() * self.np * self.n[0] * self.n[1]
    }

    /// The number of side `s`'s outcome list `(action, gap index k, me, other)` among its
    /// [`Self::side_slots`].
    fn slot(&self, s: Side, action: u16, k: usize, me: usize, other: usize) -> usize {
        (((action as usize) * self.np + k) * self.n[s] + me) * self.n[1 - s] + other
    }

    /// Positions after side `s` at `p` takes `c`'s move.
    fn moved(&self, s: Side, p: [usize; 2], c: Choice) -> [usize; 2] {
        moved(&self.line, s, p, c)
    }

    /// Resolves side `s`'s options under `policy` in every live state: the moves, and each
    /// option's outcome range (filling the outcome cache).
    fn plan(&mut self, s: Side, policy: Policy) -> Plan {
        let branches = self.starts[s].iter().map(Vec::len).max().unwrap_or(1);
        let mut index = vec![(0u32, 0u32); self.len() * branches];
        let (mut opts, mut choices, mut combos) = (Vec::new(), Vec::new(), Vec::new());
        // The combination of each (A's position after the move, outcome list), the B position
        // following from the gap: numbered on first sight.
        let side_slots = self.side_slots();
        let mut seen = vec![u32::MAX; self.np * side_slots];
        let max = self.line.max_sum as usize;
        let block = self.n[0] * self.n[1];
        for p0 in 0..self.np {
            for p1 in 0..self.np - p0 {
                let p = [p0, p1];
                let at = Spot { gap: self.gaps[p0 + p1], room: p[s] as u16, ahead: (max - p0 - p1) as u16 };
                for u0 in 0..self.n[0] {
                    for u1 in 0..self.n[1] {
                        let u = [u0, u1];
                        if self.terminal(u).is_some() {
                            continue;
                        }
                        let i = self.idx(p, u);
                        for j in 0..self.starts[s][u[s]].len() {
                            let me = self.starts[s][u[s]][j].1;
                            let mut u2 = u;
                            u2[s] = me;
                            if self.terminal(u2).is_some() {
                                continue;
                            }
                            let other = u[1 - s];
                            choices.clear();
                            match policy {
                                Policy::Optimal => self.g.options(s, me, other, at, &mut choices),
                                Policy::Scripted => choices.push(self.g.scripted(s, me, other, at)),
                                Policy::Tactic(k) => {
                                    let v = self.view(s, me, other, p);
                                    choices.push(tactics::PORTFOLIO[k as usize].tactic.choose(&v));
                                }
                            }
                            let from = opts.len() as u32;
                            for &c in &choices {
                                let q = self.moved(s, p, c);
                                let (a, b) = self.outcomes(s, c.action, q[0] + q[1], me, other);
                                let base = ((q[0] * self.np + q[1]) * block) as u32;
                                let key = q[0] * side_slots + self.slot(s, c.action, q[0] + q[1], me, other);
                                if seen[key] == u32::MAX {
                                    seen[key] = combos.len() as u32;
                                    combos.push((base, a, b));
                                }
                                opts.push(seen[key]);
                            }
                            index[i * branches + j] = (from, opts.len() as u32);
                        }
                    }
                }
            }
        }
        // Where the outcome lists are long, number the combinations by their outcome list
        // (stable: first sight breaks ties), so that those sharing a list are neighbours; where
        // they are short, the expectations are cheap and first sight (neighbouring states'
        // options next to each other) keeps the choices' reads close together.
        let mut order: Vec<u32> = (0..combos.len() as u32).collect();
        let outcomes: usize = combos.iter().map(|&(_, a, b)| (b - a) as usize).sum();
        if outcomes >= LONG_LISTS * combos.len() {
            order.sort_by_key(|&c| combos[c as usize].1);
        }
        let mut renumber = vec![0u32; combos.len()];
        for (new, &old) in order.iter().enumerate() {
            renumber[old as usize] = new as u32;
        }
        let combos = order.iter().map(|&c| combos[c as usize]).collect();
        for o in &mut opts {
            *o = renumber[*o as usize];
        }
        let first = match policy {
            Policy::Tactic(k) if self.g.order() == Order::Initiative => self.first_table(s, k),
            _ => Vec::new(),
        };
        Plan { branches, index, opts, combos, first }
    }

    /// What side `s` sees (state `me`, the enemy `other`) at positions `p`, for its portfolio
    /// tactics ([`tactics::View`]).
    fn view(&self, s: Side, me: usize, other: usize, p: [usize; 2]) -> tactics::View<'_> {
        tactics::View { g: self.g, line: self.line, s, me, other, p, memo: &self.memo[s] }
    }

    /// Side `s`'s choice under the `k`-th portfolio tactic on winning an initiative roll-off,
    /// in every round-start state ([`Plan::first`]); terminal states read `true`.
    fn first_table(&self, s: Side, k: u8) -> Vec<bool> {
        let mut first = vec![true; self.len()];
        for p0 in 0..self.np {
            for p1 in 0..self.np - p0 {
                for u0 in 0..self.n[0] {
                    for u1 in 0..self.n[1] {
                        let u = [u0, u1];
                        if self.terminal(u).is_none() {
                            let v = self.view(s, u[s], u[1 - s], [p0, p1]);
                            first[self.idx([p0, p1], u)] = tactics::PORTFOLIO[k as usize].tactic.acts_first(&v);
                        }
                    }
                }
            }
        }
        first
    }

    /// One activation layer: `out[state]` = value before side `s` acts, `next` after, for the
    /// states of `reach` (the others are never read). The states of a layer are independent,
    /// so they are solved in parallel (rows of A's position); each state's sums run in one
    /// fixed order, so the values are the same bits on any number of threads. `C`: the first
    /// `C` of `[v, w, l]` solved ([`ValsOf`]); the advantage is the same bits either way.
    fn layer<const C: usize>(&mut self, s: Side, policy: Policy, reach: &Reach, next: &ValsOf<C>, out: &mut ValsOf<C>) {
        let plan = self.plans[s][policy.slot()].as_ref().expect("planned before the solve");
        let (np, n, cache, starts, dead) = (self.np, self.n, &self.cache, &self.starts[s], &self.dead);
        // Each reachable combination's expected values, once (in chunks of combination
        // numbers; `used` is ascending, so each chunk's combinations are a run of it).
        let (ev, ev_wl) = (&mut self.ev, &mut self.ev_wl);
        // Only grown, never cleared: every entry an option of a state of `reach` reads is one of
        // `used`, written below before it is read (clearing them was 8% of the instructions of
        // a solve of The Grunt Factor, a 14 MB memset per layer).
        let len = ev.len().max(plan.combos.len());
        ev.resize(len, 0.0);
        ev_wl.resize(len, [0.0; 2]);
        let (combos, used) = (&plan.combos[..], &reach.used[s][..]);
        // Side 1 minimises the advantage: each expectation is stored times `sign`, so both
        // sides take the plain first maximum (an exact negation: the same option and bits).
        let sign = if s == 0 { 1.0 } else { -1.0 };
        const CHUNK: usize = 4096;
        let expect_chunk = |(c, (v, wl)): (usize, (&mut [f64], &mut [[f64; 2]]))| {
            let (lo, hi) = ((c * CHUNK) as u32, ((c + 1) * CHUNK) as u32);
            let ids = &used[used.partition_point(|&o| o < lo)..used.partition_point(|&o| o < hi)];
            expect_into(ids, lo, combos, cache, next, sign, v, wl);
        };
        if used.len() >= PAR_MIN_WORK {
            ev.par_chunks_mut(CHUNK).zip(ev_wl.par_chunks_mut(CHUNK)).enumerate().for_each(expect_chunk);
        } else {
            ev.chunks_mut(CHUNK).zip(ev_wl.chunks_mut(CHUNK)).enumerate().for_each(expect_chunk);
        }
        let (ev, ev_wl) = (&ev[..], &ev_wl[..]);
        let row = np * n[0] * n[1];
        let best_of_row = |(p0, out): (usize, &mut [[f64; C]])| {
            let r = reach.rows[p0] as usize..reach.rows[p0 + 1] as usize;
            for (&i, &u) in reach.states[r.clone()].iter().zip(&reach.units[r]) {
                let i = i as usize;
                let j = i - p0 * row;
                {
                    {
                        let u = u.map(|x| x as usize);
                        if let Some((v, w, l)) = terminal(dead, u) {
                            out[j] = first_of([v, w, l]);
                            continue;
                        }
                        let (mut v, mut w, mut l) = (0.0, 0.0, 0.0);
                        for (k, &(ps, me)) in starts[u[s]].iter().enumerate() {
                            let mut u2 = u;
                            u2[s] = me;
                            let (cv, cw, cl) = if let Some(t) = terminal(dead, u2) {
                                t
                            } else {
                                // The option with the best advantage (first of equals),
                                // then its win and loss probabilities.
                                let (from, to) = plan.index[i * plan.branches + k];
                                // `ev` holds `sign` times the advantage; `sign` times the best
                                // is the advantage again, exactly.
                                let opts = &plan.opts[from as usize..to as usize];
                                let mut o = opts[0];
                                let mut bv = ev[o as usize];
                                for &x in &opts[1..] {
                                    let xv = ev[x as usize];
                                    if xv > bv {
                                        (bv, o) = (xv, x);
                                    }
                                }
                                let [bw, bl] = if C == 3 { ev_wl[o as usize] } else { [0.0; 2] };
                                (sign * bv, bw, bl)
                            };
                            v += ps * cv;
                            if C == 3 {
                                w += ps * cw;
                                l += ps * cl;
                            }
                        }
                        out[j] = first_of([v, w, l]);
                    }
                }
            }
        };
        if reach.states.len() >= PAR_MIN_WORK {
            out.par_chunks_mut(row).enumerate().for_each(best_of_row);
        } else {
            out.chunks_mut(row).enumerate().for_each(best_of_row);
        }
    }

    /// The states reachable from the start under `policy` (each side's options under its
    /// policy, every activation-start event and outcome, in either order of play), and the
    /// combinations those states' options use. The values of these states depend on no other
    /// state, so the layers solve only them.
    fn reach(&mut self, policy: [Policy; 2]) -> Reach {
        self.plan_policies(policy);
        let n = self.len();
        let mut seen = vec![false; n];
        let mut used_seen =
            [0, 1].map(|s| vec![false; self.plans[s][policy[s].slot()].as_ref().expect("planned").combos.len()]);
        let i0 = self.start();
        let mut stack = vec![i0];
        seen[i0] = true;
        while let Some(i) = stack.pop() {
            let u = [(i / self.n[1]) % self.n[0], i % self.n[1]];
            if self.terminal(u).is_some() {
                continue;
            }
            for s in 0..2 {
                let plan = self.plans[s][policy[s].slot()].as_ref().expect("planned");
                for k in 0..self.starts[s][u[s]].len() {
                    let (from, to) = plan.index[i * plan.branches + k];
                    for &o in &plan.opts[from as usize..to as usize] {
                        if std::mem::replace(&mut used_seen[s][o as usize], true) {
                            continue;
                        }
                        let (base, a, b) = plan.combos[o as usize];
                        for (_, off) in self.cache.range(a, b) {
                            let j = base as usize + off as usize;
                            if !std::mem::replace(&mut seen[j], true) {
                                stack.push(j);
                            }
                        }
                    }
                }
            }
        }
        let states: Vec<u32> = (0..n as u32).filter(|&i| seen[i as usize]).collect();
        let used = used_seen.map(|u| (0..u.len() as u32).filter(|&o| u[o as usize]).collect());
        self.reach_of(states, used)
    }

    /// Builds each side's plan under its policy, if not built yet.
    fn plan_policies(&mut self, policy: [Policy; 2]) {
        for s in 0..2 {
            if self.plans[s][policy[s].slot()].is_none() {
                self.plans[s][policy[s].slot()] = Some(self.plan(s, policy[s]));
            }
        }
    }

    /// A [`Reach`] of `states` (ascending) and `used` combinations, with its rows.
    fn reach_of(&self, states: Vec<u32>, used: [Vec<u32>; 2]) -> Reach {
        let row = self.np * self.n[0] * self.n[1];
        let rows = (0..=self.np).map(|p0| states.partition_point(|&i| (i as usize) < p0 * row) as u32).collect();
        let n = self.n.map(|n| n as u32);
        let units = states.iter().map(|&i| [(i / n[1]) % n[0], i % n[1]]).collect();
        Reach { states, rows, units, used }
    }
}

/// The states a solve needs (see [`Solver::reach`]).
struct Reach {
    /// State indices, ascending.
    states: Vec<u32>,
    /// `states[rows[p0]..rows[p0 + 1]]` are those where A stands at `p0`.
    rows: Vec<u32>,
    /// Each state's unit states `[u0, u1]`, beside `states` (worked out once: two integer
    /// divisions per state and layer: dropping them took a Guns 'N Grenades duel to 0.92× the
    /// time).
    units: Vec<[u32; 2]>,
    /// Each side's combinations those states use, ascending.
    used: [Vec<u32>; 2],
}

/// Solves the duel with side A playing `policy[0]` and B `policy[1]`, averaged over who acts
/// first (or the per-round roll-off).
pub fn solve<G: DuelGame>(g: &G, policy: [Policy; 2]) -> GameValue {
    Solver::new(g).solve(policy)
}

/// A's score in [0, 1] (win 1, draw ½) with both sides optimal: the score of [`solve`]`(g,
/// [Optimal, Optimal])`, solved for the advantage `P(A) − P(B)` alone, which is all the choices
/// and the score read. A third of the sums, and the induction stops once the advantage settles
/// ([`SETTLED`]), where [`solve`] also waits for the win and loss probabilities, which keep
/// moving while two units that never meet keep each other at bay. Not the same bits as the
/// score of [`solve`]: each round moves the advantage by no more than the round before, so
/// stopping earlier is off by at most ½ · `SETTLED` per round [`solve`] runs on (below 1e-12
/// wherever it stops within 200 rounds; measured within 1e-12 per ruleset). A mirror
/// ([`DuelGame::mirror`]) scores ½ without a solve: the game is the same from either side. Also
/// returns the rounds solved (0 for a mirror).
pub fn optimal_score<G: DuelGame>(g: &G) -> (f64, u32) {
    if g.mirror() {
        return (0.5, 0);
    }
    Solver::new(g).score()
}

/// The game's value with both sides optimal: the `optimal` of [`analyse`], the same bits (it is
/// [`analyse`]'s first solve, on a fresh solver), without the scripted tactic's solve and the
/// two best responses.
pub fn optimal_value<G: DuelGame>(g: &G) -> GameValue {
    Solver::new(g).solve([Policy::Optimal, Policy::Optimal])
}

impl<G: DuelGame> Solver<'_, G> {
    /// [`solve`] on this solver, reusing the options and outcomes earlier solves resolved.
    fn solve(&mut self, policy: [Policy; 2]) -> GameValue {
        let reach = self.reach(policy);
        self.solve_over(policy, &reach)
    }

    /// [`Solver::solve`] over the states of `reach`.
    fn solve_over(&mut self, policy: [Policy; 2], reach: &Reach) -> GameValue {
        let g = self.g;
        let (start, start_b, rounds): (Vals, Vals, u32) = self.rounds(policy, reach);
        let s = self;
        let value = value_at(g.order(), &start, &start_b, s.start(), rounds);
        #[cfg(test)]
        {
            s.last = start;
        }
        value
    }

    /// A's score (win 1, draw ½) with both sides optimal, solved for the advantage alone
    /// ([`optimal_score`]); and the rounds solved.
    fn score(&mut self) -> (f64, u32) {
        let policy = [Policy::Optimal; 2];
        let reach = self.reach(policy);
        let (start, start_b, rounds) = self.rounds::<1>(policy, &reach);
        let i = self.start();
        (0.5 * (1.0 + advantage_at(self.g.order(), &start, &start_b, i)), rounds)
    }

    /// The backward induction over the states of `reach`, round by round from the cap (0
    /// rounds left: a draw unless a side is destroyed) until a round moves no value by more
    /// than [`SETTLED`] or the cap is reached: the round-start values (A first, and B first in
    /// an [`Order::Alternate`] game) and the rounds solved.
    fn rounds<const C: usize>(&mut self, policy: [Policy; 2], reach: &Reach) -> (ValsOf<C>, ValsOf<C>, u32) {
        let g = self.g;
        let s = self;
        let n = s.len();
        // `start` = values at the start of a round with the remaining rounds; 0 rounds left: draw
        // unless a side is already destroyed.
        let mut start = zeros(n);
        fill_terminal(s, &mut start);
        // For alternate order, the round values for A first and for B first are separate games.
        let mut start_b = start.clone();
        // Buffers reused from round to round (entries off the line stay 0 in every one).
        let (mut mid, mut after_first) = (zeros(n), zeros(n));
        let (mut new_a, mut new_b) = (zeros(n), zeros(n));
        let mut rounds = 0;
        for _ in 0..g.max_rounds() {
            rounds += 1;
            let same = match g.order() {
                Order::Alternate => {
                    // A first: A acts, then B, then the next round (A first again).
                    s.layer(1, policy[1], reach, &start, &mut mid);
                    s.layer(0, policy[0], reach, &mid, &mut new_a);
                    s.layer(0, policy[0], reach, &start_b, &mut mid);
                    s.layer(1, policy[1], reach, &mid, &mut new_b);
                    settled(reach, &new_a, &start) && settled(reach, &new_b, &start_b)
                }
                order @ (Order::RollOff | Order::Initiative) => {
                    // One game: the B-first half is mixed into the A-first half.
                    s.layer(1, policy[1], reach, &start, &mut mid);
                    s.layer(0, policy[0], reach, &mid, &mut new_a);
                    s.layer(0, policy[0], reach, &start, &mut mid);
                    s.layer(1, policy[1], reach, &mid, &mut after_first);
                    mix_rolloff(s, reach, &mut new_a, &after_first, policy, order == Order::Initiative);
                    settled(reach, &new_a, &start)
                }
            };
            std::mem::swap(&mut start, &mut new_a);
            std::mem::swap(&mut start_b, &mut new_b);
            if same {
                break;
            }
        }
        (start, start_b, rounds)
    }
}

/// The game's value at state `i` from the round-start values of a solve (`start`, and
/// `start_b` for B first in an [`Order::Alternate`] game) that ran `rounds` rounds.
fn value_at(order: Order, start: &Vals, start_b: &Vals, i: usize, rounds: u32) -> GameValue {
    let (w, l) = match order {
        Order::Alternate => (0.5 * (start[i][W] + start_b[i][W]), 0.5 * (start[i][L] + start_b[i][L])),
        Order::RollOff | Order::Initiative => (start[i][W], start[i][L]),
    };
    // In a mirror the two halves are exact negations: report wins from the advantage so that
    // P(A) = P(B) holds exactly there.
    let v = advantage_at(order, start, start_b, i);
    let total = w + l;
    let (a_wins, b_wins) = (0.5 * (total + v), 0.5 * (total - v));
    GameValue { a_wins, b_wins, draws: (1.0 - a_wins - b_wins).max(0.0), rounds_solved: rounds }
}

/// [`optimal_score`] of `g` started from each of `starts` instead of its own line start (each
/// a [`Line::start`]: the whole cells of room behind each side, so the start distance is
/// `back_gap − 2 · start · step`), from one solve where it can. A start whose reachable
/// states (and the options they use) are those of `g`'s own start gives exactly the bits of
/// [`optimal_score`] of the game started there: the induction runs over the same states round
/// by round and stops at the same round, and no state's value depends on where the game
/// started. Any other start, or one off the line, gives `None`: solve it on its own. A mirror
/// scores ½ from every start, as [`optimal_score`]. For one pair at many start distances
/// (Gunplay's chart of 1v1 mean score against start distance).
pub fn optimal_scores_from<G: DuelGame>(g: &G, starts: &[u16]) -> Vec<Option<f64>> {
    if g.mirror() {
        return vec![Some(0.5); starts.len()];
    }
    let policy = [Policy::Optimal; 2];
    let mut s = Solver::new(g);
    let reach = s.reach(policy);
    let (start, start_b, _) = s.rounds::<1>(policy, &reach);
    let own = s.line.start;
    starts
        .iter()
        .map(|&st| {
            if st as usize >= s.np {
                return None;
            }
            s.line.start = st;
            let same = st == own || {
                let r = s.reach(policy);
                r.states == reach.states && r.used == reach.used
            };
            same.then(|| 0.5 * (1.0 + advantage_at(g.order(), &start, &start_b, s.start())))
        })
        .collect()
}

/// The first `C` of a state's `[v, w, l]`.
#[inline(always)]
fn first_of<const C: usize>(x: [f64; 3]) -> [f64; C] {
    const { assert!(C == 1 || C == 3, "all of [v, w, l] or the advantage alone") };
    std::array::from_fn(|c| x[c])
}

/// A's advantage at state `i` from the round-start values (the mean of the A-first and
/// B-first games in an [`Order::Alternate`] game).
fn advantage_at<const C: usize>(order: Order, start: &ValsOf<C>, start_b: &ValsOf<C>, i: usize) -> f64 {
    match order {
        Order::Alternate => 0.5 * start[i][V] + 0.5 * start_b[i][V],
        Order::RollOff | Order::Initiative => start[i][V],
    }
}

/// The induction stops once one more round moves no value by more than this: each round is a
/// non-expansion of the values, so the rounds left to the cap can move them by at most
/// `SETTLED` × (rounds left), below 1e-10 for a cap of 10 000 rounds.
pub const SETTLED: f64 = 1e-14;

/// Whether no value moved by more than [`SETTLED`] from `y` to `x` (stops at the first that did).
fn settled<const C: usize>(reach: &Reach, x: &ValsOf<C>, y: &ValsOf<C>) -> bool {
    reach.states.iter().all(|&i| x[i as usize].iter().zip(&y[i as usize]).all(|(a, b)| (a - b).abs() <= SETTLED))
}

fn fill_terminal<G: DuelGame, const C: usize>(s: &Solver<G>, vals: &mut ValsOf<C>) {
    for p0 in 0..s.np {
        for p1 in 0..s.np - p0 {
            for u0 in 0..s.n[0] {
                for u1 in 0..s.n[1] {
                    let i = s.idx([p0, p1], [u0, u1]);
                    if let Some((v, w, l)) = s.terminal([u0, u1]) {
                        vals[i] = first_of([v, w, l]);
                    }
                }
            }
        }
    }
}

/// `a_first` ← the roll-off mix of the A-first and B-first round values. Where the winner
/// `chooses` who acts first ([`Order::Initiative`]), a side under [`Policy::Optimal`] picks the
/// order that scores more for it (A the other order only where its advantage there is larger,
/// B only where A's is smaller, so that ties act first and a mirror stays an exact negation),
/// a portfolio tactic as its [`Plan::first`] says, the scripted tactic acts first.
fn mix_rolloff<G: DuelGame, const C: usize>(
    s: &Solver<G>,
    reach: &Reach,
    a_first: &mut ValsOf<C>,
    b_first: &ValsOf<C>,
    policy: [Policy; 2],
    chooses: bool,
) {
    let table = |side: Side| match policy[side] {
        Policy::Tactic(_) if chooses => &s.plans[side][policy[side].slot()].as_ref().expect("planned").first[..],
        _ => &[][..],
    };
    let (table, by_value) = ([table(0), table(1)], policy.map(|p| chooses && p == Policy::Optimal));
    // Whether `side`, winning the roll-off in state `i`, lets the other act first, given A's
    // advantage when `side` acts first (`mine`) and when the other does (`theirs`).
    let second = |side: Side, i: usize, mine: f64, theirs: f64| {
        if by_value[side] {
            if side == 0 { theirs > mine } else { theirs < mine }
        } else {
            table[side].get(i).is_some_and(|&first| !first)
        }
    };
    for &i in &reach.states {
        let i = i as usize;
        let pa = s.p_a_first[i % (s.n[0] * s.n[1])];
        let (x, y) = (a_first[i], b_first[i]);
        // What follows A's win of the roll-off, and B's.
        let after_a = if second(0, i, x[V], y[V]) { y } else { x };
        let after_b = if second(1, i, y[V], x[V]) { x } else { y };
        if pa == 0.5 {
            // Written symmetric so that a mirror stays an exact negation.
            a_first[i][V] = 0.5 * after_a[V] + 0.5 * after_b[V];
        } else {
            a_first[i][V] = pa * after_a[V] + (1.0 - pa) * after_b[V];
        }
        if C == 3 {
            a_first[i][W] = pa * after_a[W] + (1.0 - pa) * after_b[W];
            a_first[i][L] = pa * after_a[L] + (1.0 - pa) * after_b[L];
        }
    }
}

/// A duel under optimal play with the scripted tactic beside it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OptimalDuel {
    /// Both sides optimal.
    pub optimal: GameValue,
    /// Both sides scripted.
    pub scripted: GameValue,
    /// A's best response against scripted B, and B's against scripted A.
    pub a_best_response: GameValue,
    pub b_best_response: GameValue,
    /// The grid step and table depth used ([`Line::step`], [`Line::depth`]; the ruleset's
    /// unit).
    pub step: f64,
    pub depth: f64,
}

impl OptimalDuel {
    /// What A gains (score points, probability units, at least 0) by switching to its best
    /// response. A best response never loses; the two solves may stop at different rounds
    /// ([`SETTLED`]), so where the gain is 0 their difference can be a rounding error below 0,
    /// which reads 0.
    pub fn a_gain(&self) -> f64 {
        (self.a_best_response.a_score() - self.scripted.a_score()).max(0.0)
    }
    /// What B gains likewise (at least 0).
    pub fn b_gain(&self) -> f64 {
        ((1.0 - self.b_best_response.a_score()) - (1.0 - self.scripted.a_score())).max(0.0)
    }
    /// The exploitability of the scripted tactic: the larger gain.
    pub fn exploitability(&self) -> f64 {
        self.a_gain().max(self.b_gain())
    }

    /// Test check shared by every ruleset's game: a best response can only help its side,
    /// optimal play lies between the two best responses (to 1e-12), and each solve's outcome
    /// probabilities add up to 1 (to 1e-9).
    #[cfg(test)]
    pub(crate) fn assert_bounds(&self) {
        let s = self.scripted.a_score();
        assert!(self.a_best_response.a_score() >= s - 1e-12 && self.b_best_response.a_score() <= s + 1e-12, "{self:?}");
        assert!(self.optimal.a_score() <= self.a_best_response.a_score() + 1e-12, "{self:?}");
        assert!(self.optimal.a_score() >= self.b_best_response.a_score() - 1e-12, "{self:?}");
        for v in [self.optimal, self.scripted, self.a_best_response, self.b_best_response] {
            assert!((v.a_wins + v.b_wins + v.draws - 1.0).abs() < 1e-9, "{v:?}");
        }
    }
}

/// Solves all four policy pairs.
pub fn analyse<G: DuelGame>(g: &G) -> OptimalDuel {
    use Policy::*;
    // One solver: each side's options under each policy and the outcome lists are resolved
    // once for the four solves.
    let mut s = Solver::new(g);
    let (optimal, scripted) = (s.solve([Optimal, Optimal]), s.solve([Scripted, Scripted]));
    let a_best_response = s.solve([Optimal, Scripted]);
    // A mirror: B's best response is A's seen from the other side.
    let b_best_response = if g.mirror() { a_best_response.swapped() } else { s.solve([Scripted, Optimal]) };
    let Line { step, depth, .. } = g.line();
    OptimalDuel { optimal, scripted, a_best_response, b_best_response, step, depth }
}

/// A pair's equilibrium mixes over the duel game's portfolio: `mixer(payoff, a_secure,
/// b_secure)` with the payoff matrix of its cells (`payoff[i][j]`: A's score when A plays
/// tactic `i` and B tactic `j`, in [0, 1]) and each tactic's score against a best response
/// (`a_secure[i]`: A's score playing tactic `i` against B's best response; `b_secure[j]`: A's
/// best response against B's tactic `j`) gives `[A's mix, B's mix]`, or why there is none. The
/// analysis layer's linear programs (`analysis::portfolio::mixer`), passed in: the rulesets
/// layer imports no analysis.
pub type Mixer<'m> = &'m (dyn Fn(&[Vec<f64>], &[f64], &[f64]) -> Result<[Vec<f64>; 2], String> + Sync);

/// A duel played by the duel game's portfolio ([`tactics`], DESIGN.md "Play model"): every
/// tactic against every tactic, solved exactly; each side's best response (optimal play)
/// against each tactic of the other side; and the equilibrium mixes of that matrix game.
#[derive(Debug, Clone, PartialEq)]
pub struct PortfolioDuel {
    /// The portfolio's tactics, in order ([`tactics::names`]).
    pub names: Vec<&'static str>,
    /// `cells[i][j]`: A plays tactic `i`, B tactic `j`.
    pub cells: Vec<Vec<GameValue>>,
    /// Both sides optimal (the game's value).
    pub optimal: GameValue,
    /// A's and B's equilibrium mixes (weights in [0, 1] over `names`, summing to 1).
    pub mix: [Vec<f64>; 2],
    /// `a_best_response[j]`: A playing optimally against B's tactic `j`;
    /// `b_best_response[i]`: B playing optimally against A's tactic `i`.
    pub a_best_response: Vec<GameValue>,
    pub b_best_response: Vec<GameValue>,
    /// The grid step and table depth used (the ruleset's unit).
    pub step: f64,
    pub depth: f64,
}

impl PortfolioDuel {
    /// A's score in each cell, in [0, 1] (the payoff matrix the mixes solve).
    pub fn payoff(&self) -> Vec<Vec<f64>> {
        self.cells.iter().map(|r| r.iter().map(GameValue::a_score).collect()).collect()
    }

    /// A's score when both sides play their mixes, in [0, 1].
    pub fn value(&self) -> f64 {
        let p = self.payoff();
        self.mix[0].iter().zip(&p).map(|(x, r)| x * r.iter().zip(&self.mix[1]).map(|(c, y)| c * y).sum::<f64>()).sum()
    }

    /// What A gains at most by a best response against B's mix (score points in [0, 1], at
    /// least 0): the mix-weighted gain of A's best response against each of B's tactics. A
    /// best response that knows which tactic B drew does at least as well as one that only
    /// knows the mix, so this bounds the exploitability of B's mix from above.
    pub fn a_gain(&self) -> f64 {
        let br: f64 = self.mix[1].iter().zip(&self.a_best_response).map(|(y, v)| y * v.a_score()).sum();
        (br - self.value()).max(0.0)
    }

    /// What B gains at most against A's mix likewise (at least 0).
    pub fn b_gain(&self) -> f64 {
        let br: f64 = self.mix[0].iter().zip(&self.b_best_response).map(|(x, v)| x * v.a_score()).sum();
        (self.value() - br).max(0.0)
    }

    /// The exploitability bound of the equilibrium play: the larger gain.
    pub fn exploitability(&self) -> f64 {
        self.a_gain().max(self.b_gain())
    }

    /// The duel with side A's tactic pinned to `names[a]` and/or B's to `names[b]`
    /// (`duel --tactic`): with one side pinned, the other side's best tactic of the portfolio
    /// against it (the first of equals) and its exact best response; with both, their cell.
    /// `None` with neither pinned. Panics on an index outside `names`.
    pub fn pinned(&self, a: Option<usize>, b: Option<usize>) -> Option<Pinned> {
        let score = |i: usize, j: usize| self.cells[i][j].a_score();
        let first_best = |n: usize, better: &dyn Fn(usize, usize) -> bool| {
            (1..n).fold(0, |best, k| if better(k, best) { k } else { best })
        };
        let n = self.names.len();
        Some(match (a, b) {
            (Some(i), Some(j)) => Pinned { a_score: score(i, j), other_tactic: None, best_response: None },
            (Some(i), None) => {
                let j = first_best(n, &|k, best| score(i, k) < score(i, best));
                Pinned {
                    a_score: score(i, j),
                    other_tactic: Some(j),
                    best_response: Some(self.b_best_response[i].a_score()),
                }
            }
            (None, Some(j)) => {
                let i = first_best(n, &|k, best| score(k, j) > score(best, j));
                Pinned {
                    a_score: score(i, j),
                    other_tactic: Some(i),
                    best_response: Some(self.a_best_response[j].a_score()),
                }
            }
            (None, None) => return None,
        })
    }

    /// The four solves of [`analyse`], which the portfolio's include: the optimal game, the
    /// scripted cell and the best responses against the scripted tactic (tactic 0). The same
    /// bits as [`analyse`]'s: every solve depends only on the game and the two policies.
    pub fn optimal_duel(&self) -> OptimalDuel {
        OptimalDuel {
            optimal: self.optimal,
            scripted: self.cells[0][0],
            a_best_response: self.a_best_response[0],
            b_best_response: self.b_best_response[0],
            step: self.step,
            depth: self.depth,
        }
    }
}

/// A duel with a side's tactic pinned ([`PortfolioDuel::pinned`]); scores are A's, in [0, 1].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pinned {
    /// A's score: against the unpinned side's best tactic, or in the cell of both pinned.
    pub a_score: f64,
    /// The unpinned side's best tactic of the portfolio (an index into
    /// [`PortfolioDuel::names`]); `None` with both pinned.
    pub other_tactic: Option<usize>,
    /// A's score against the unpinned side's exact best response to the pinned tactic (optimal
    /// play against it); `None` with both pinned.
    pub best_response: Option<f64>,
}

/// Solves `g` under its portfolio ([`PortfolioDuel`]): the optimal value, every cell, the
/// best responses against every tactic, and the mixes `mixer` finds. A mirror solves only the
/// cells on and above the diagonal and one side's best responses (the rest are the same games
/// with the sides swapped). Errors: the mixer's.
pub fn portfolio<G: DuelGame>(g: &G, mixer: Mixer<'_>) -> Result<PortfolioDuel, NotExact> {
    let mut s = Solver::new(g);
    let optimal = s.solve([Policy::Optimal; 2]);
    let tactics = Policy::portfolio();
    let n = tactics.len();
    let mirror = g.mirror();
    let mut cells: Vec<Vec<Option<GameValue>>> = vec![vec![None; n]; n];
    for i in 0..n {
        for j in 0..n {
            cells[i][j] = Some(match cells[j][i] {
                Some(v) if mirror => v.swapped(),
                _ => s.solve([tactics[i], tactics[j]]),
            });
        }
    }
    let cells: Vec<Vec<GameValue>> = cells.into_iter().map(|r| r.into_iter().flatten().collect()).collect();
    let payoff: Vec<Vec<f64>> = cells.iter().map(|r| r.iter().map(GameValue::a_score).collect()).collect();
    let a_best_response: Vec<GameValue> = tactics.iter().map(|&t| s.solve([Policy::Optimal, t])).collect();
    let b_best_response: Vec<GameValue> = match mirror {
        true => a_best_response.iter().map(GameValue::swapped).collect(),
        false => tactics.iter().map(|&t| s.solve([t, Policy::Optimal])).collect(),
    };
    let a_secure: Vec<f64> = b_best_response.iter().map(GameValue::a_score).collect();
    let b_secure: Vec<f64> = a_best_response.iter().map(GameValue::a_score).collect();
    let mix =
        mixer(&payoff, &a_secure, &b_secure).map_err(|e| NotExact(format!("the portfolio's equilibrium: {e}")))?;
    let Line { step, depth, .. } = g.line();
    Ok(PortfolioDuel { names: tactics::names(), cells, optimal, mix, a_best_response, b_best_response, step, depth })
}

#[cfg(test)]
mod probes;
#[cfg(test)]
pub(crate) use probes::{
    Explain, Probe, Without, assert_half_grid_within, assert_mirror_is_even, assert_mirror_portfolio_is_exact,
    assert_mirror_shortcut_is_exact, assert_mirrors, assert_one_solve_serves_every_start, assert_score_is_solved,
    assert_scripted_game_is, assert_scripted_games_are_chains, explain, print_largest, print_matrix, probe_args,
    probe_at, scripted_losses, unordered_pairs,
};

#[cfg(test)]
mod tests;
