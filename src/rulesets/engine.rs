//! The engine interface: what a ruleset's own studies may ask of the layers above it.
//!
//! Why an interface: a study (VSGMR's attribute prices and round robin, Army Men Combat's
//! upgrade prices, Gunplay's line-ups and derived list) needs the Monte Carlo engine and the
//! fair-cost solver, which sit above the rulesets (`sim`, `analysis`). Were a
//! study to import them, the layers would form a circle. So the rulesets layer says here what it
//! needs — run fixed batches of a ruleset's own games, play skirmishes, score a points-matched
//! duel, find a fair cost, solve a cost list — and the analysis layer implements [`Engine`]
//! and passes it in (`analysis::engine::AnalysisEngine`). The settings and answers
//! ([`BalanceSettings`], [`FairSearch`], [`FairCosts`], [`GameCounts`]) are in the rulesets'
//! vocabulary, so a study reads them without naming a type of the layers above.
//!
//! The engine keeps the engine's promises: a result is a function of the seed alone, the same on
//! any thread count (batches seeded from `(seed, stream, k)`, integer [`Tally`]s merged in
//! batch order; DESIGN.md, "Monte Carlo engine").
//!
//! Layer: rulesets (see [`crate::rulesets`]); imports `dice`, `stats` and the rulesets' traits.

use indicatif::ProgressBar;
use serde::{Deserialize, Serialize};

use super::skirmish::{Armies, Play, Skirmish};
use super::{Ruleset, UnitInfo};
use crate::dice::FastDice;
use crate::stats::Estimate;

/// A mergeable record of outcomes: integer counts only.
pub trait Tally: Default + Send + Clone {
    /// Add another tally's counts into this one.
    fn merge(&mut self, other: &Self);
    /// Trials recorded so far.
    fn trials(&self) -> u64;
}

/// Adds per-category counts `b` into `a` element by element, growing `a` if `b` is longer:
/// the merge step of tallies that keep a count per unit type.
pub fn add_counts(a: &mut Vec<u64>, b: &[u64]) {
    if a.len() < b.len() {
        a.resize(b.len(), 0);
    }
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

/// A run of exactly `trials` trials in batches of `batch_size` under master seed `seed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FixedRun {
    pub seed: u64,
    pub trials: u64,
    /// Trials per batch (one generator each). Fixed for a run: changing it changes the results.
    pub batch_size: u32,
}

/// Wins, draws and game turns of a run of skirmishes (the counts a study reads).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GameCounts {
    pub games: u64,
    /// Wins of side A and side B.
    pub wins: [u64; 2],
    pub draws: u64,
    /// Sum of game turns (in the book's count) over the games.
    pub turns: u64,
}

/// What the generic analysis found before the studies run, as a study reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct Findings<'a> {
    /// Rulebook title, e.g. "Gunplay".
    pub title: &'a str,
    /// Each unit with its points efficiency (mean points-matched score against the field, in
    /// [0, 1], 95% interval), best first.
    pub efficiency: Vec<(UnitInfo, Estimate)>,
    /// The fair-cost solver's run at the matrix distance; `None` if not run.
    pub fair_costs: Option<&'a FairCosts>,
}

/// Simulation and solving as a study may ask for them; implemented above the rulesets and
/// passed in (module docs). Every method is a function of its arguments and seeds alone, the
/// same on any thread count.
pub trait Engine: Sync {
    /// Plays `run.trials` trials of stream `stream` in fixed batches on the deterministic engine:
    /// batch `k` gets dice seeded from `(run.seed, stream, k)`; `play_batch(dice, first_trial, n,
    /// tally)` plays trials `first_trial .. first_trial + n` into `tally`. Returns the tallies
    /// merged in batch order.
    fn run_batches<T, P>(&self, run: FixedRun, stream: u64, play_batch: P) -> T
    where
        T: Tally,
        P: Fn(&mut FastDice, u64, u32, &mut T) + Sync;

    /// Plays `trials` games of `s`'s `mission` under `tactic` (indices into its missions and
    /// tactics) between `armies` on the generic skirmish engine, seeded from `seed`; ticks
    /// `progress` once per game.
    #[allow(clippy::too_many_arguments)]
    fn skirmish<S: Skirmish>(
        &self,
        s: &S,
        armies: &Armies<S::Army>,
        tactic: usize,
        mission: usize,
        seed: u64,
        trials: u64,
        progress: &ProgressBar,
    ) -> GameCounts;

    /// Unit 0's score (win 1, draw ½; in [0, 1], 95% interval) and its standard error against
    /// unit 1 of `r`, both priced at `costs` (points), squads bought with `budget` points
    /// starting `distance` apart: `run.trials` fixed trials with common random numbers across
    /// prices (the fair-cost solver's evaluation of one matchup).
    fn points_matched_score<R: Ruleset>(
        &self,
        r: &R,
        costs: [f64; 2],
        distance: f64,
        budget: f64,
        run: FixedRun,
    ) -> (Estimate, f64);

    /// The fair cost of unit `i` of `r` alone, every other unit held at `costs` (points, one per
    /// unit): the fair-cost solver's bisection, `s.trials` fixed trials per price.
    fn fair_cost_of<R: Ruleset>(
        &self,
        r: &R,
        i: usize,
        costs: &[f64],
        s: &BalanceSettings,
        progress: &ProgressBar,
    ) -> FairSearch;

    /// The fair-cost solver's whole run on `r`: fair costs, the balanced (and with an anchor
    /// the derived) list, ratings.
    fn solve<R: Ruleset>(&self, r: &R, s: &BalanceSettings, progress: &ProgressBar) -> FairCosts;
}

/// The squads' equilibrium play of every pair of a cost list but the mirrors: each pair's two
/// equilibrium mixes of its tactic game (`crate::analysis::squads_game::SquadsGame::mixes`), by the units' indices in the
/// cost list. What the points-matched matrix, the efficiency by distance and the fair-cost
/// search play where the report solved the game (`AnalysisSettings::squad_mixes`,
/// `BalanceSettings::squad_mixes`).
#[derive(Debug, Clone, PartialEq)]
pub struct SquadMixes {
    /// `((a, b), play)` with `a < b`; the play's mixes side A's (unit `a`) first.
    pairs: Vec<((usize, usize), Play)>,
}

impl SquadMixes {
    /// The mixes of `pairs`: `((a, b), play)`, `a < b`, side A's mix first.
    pub fn new(pairs: Vec<((usize, usize), Play)>) -> SquadMixes {
        SquadMixes { pairs }
    }

    /// The play of unit `a` (side A) against unit `b`: the pair's mixes, swapped when `a`
    /// comes after `b` in the cost list; `None` for a mirror or a pair the game did not solve.
    pub fn play(&self, a: usize, b: usize) -> Option<Play> {
        let key = (a.min(b), a.max(b));
        let p = &self.pairs.iter().find(|(k, _)| *k == key)?.1;
        Some(if a <= b { p.clone() } else { Play { mixes: [p.mixes[1].clone(), p.mixes[0].clone()] } })
    }
}

/// What one solver run uses.
#[derive(Debug, Clone, PartialEq)]
pub struct BalanceSettings {
    pub seed: u64,
    /// Duel start distance (ruleset units) and points-matched budget (points).
    pub distance: f64,
    pub budget: f64,
    /// Trials per matchup per evaluation, and trials per batch.
    pub trials: u64,
    pub batch_size: u32,
    pub cost_step: f64,
    pub tolerance: f64,
    pub max_iterations: u32,
    /// Unit id whose cost the balanced list keeps fixed (see [`crate::rulesets::BalanceConfig::anchor`]).
    pub anchor: Option<String>,
    /// The squads' equilibrium play each pair's searches hold at every price (the mixes solved
    /// at list prices); `None`: the scripted tactic.
    pub squad_mixes: Option<std::sync::Arc<SquadMixes>>,
}

impl BalanceSettings {
    /// The ruleset's `[duel]` and `[balance]` settings with a seed (`trials` from `[balance]`).
    pub fn from_ruleset<R: Ruleset>(r: &R, seed: u64) -> Self {
        let d = r.duel_settings();
        let b = r.balance_config();
        BalanceSettings {
            seed,
            distance: d.distance,
            budget: d.budget,
            trials: b.trials,
            batch_size: 512,
            cost_step: b.cost_step,
            tolerance: b.tolerance,
            max_iterations: b.max_iterations,
            anchor: b.anchor,
            squad_mixes: None,
        }
    }
}

/// The outcome of one unit's fair-cost search.
#[derive(Debug, Clone, PartialEq)]
pub struct FairSearch {
    /// The fair cost with its 95% interval, if a price in the range balances the unit.
    pub fair: Option<Estimate>,
    /// d(efficiency)/d(cost) near the fair cost (per point; negative), if measured.
    pub slope: Option<f64>,
    /// Every price tried: (cost, efficiency, standard error).
    pub points: Vec<(f64, f64, f64)>,
    /// Why there is no fair cost.
    pub note: String,
}

/// One unit's row of the suggested-costs table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FairCostRow {
    /// The unit with its current cost.
    pub unit: UnitInfo,
    /// Efficiency at the current costs (this run's fixed-trial matrix), with its 95% interval.
    pub efficiency: Estimate,
    /// Cost (points) at which the unit's efficiency is 0.5 with every other cost fixed, with a
    /// 95% interval; `None` when no price in the searched range balances it (see `note`).
    pub fair_cost: Option<Estimate>,
    /// Why there is no fair cost, or other caveats; empty when none.
    pub note: String,
    /// Lanchester square-law estimate (points), scaled so the field's mean equals the mean
    /// current cost; `None` when the ruleset gives no Lanchester terms.
    pub lanchester: Option<f64>,
    /// Firepower F (expected hits per activation against the field) and durability H
    /// (expected enemy hits needed to destroy it) behind the Lanchester estimate.
    pub lanchester_terms: Option<(f64, f64)>,
    /// Cost in the balanced list (a multiple of the cost step) and the unit's efficiency there.
    pub balanced_cost: f64,
    pub balanced_efficiency: Estimate,
    /// With an anchor: the derived cost (points), the unit's fair cost with every other unit
    /// at its unrounded balanced cost, with a 95% interval (the anchor itself: its cost, a
    /// zero-width interval). `None` without an anchor or when no price balances the unit.
    #[serde(default)]
    pub derived_cost: Option<Estimate>,
    /// The balanced list re-simulated under a fresh seed (`FairCosts::fresh_seed`): the unit's
    /// efficiency there, with its 95% interval; what a designer playing the list would see.
    #[serde(default)]
    pub fresh_efficiency: Option<Estimate>,
    /// For a unit outside the tolerance: its cost one step towards 50% (every other cost of
    /// the balanced list unchanged) and its efficiency there. When 50% lies between the two
    /// costs and neither is within the tolerance, the cost step is too coarse for this unit.
    #[serde(default)]
    pub next_step: Option<(f64, Estimate)>,
    /// Whether the unit is outside the tolerance only because of the cost step (see `next_step`).
    /// The anchor is judged the same way: one step of its own price straddling 50% means the
    /// list's granularity, not the rules, keeps it out (its price stays fixed by definition).
    #[serde(default)]
    pub step_limited: bool,
    /// Bradley–Terry strength from the points-matched matrix at current costs (geometric mean
    /// of the field = 1): odds of beating unit j are strength_i / strength_j. 95% interval
    /// from the fit's likelihood, with a small prior that keeps one-sided units finite (see
    /// [`bradley_terry`]).
    pub bradley_terry: Estimate,
    /// Weight of the unit in the Nash-equilibrium mix of the symmetric zero-sum game with
    /// payoff score − 0.5 at current costs (weights sum to 1), with a bootstrap 95% interval.
    pub nash_weight: Estimate,
    /// Every price the fair-cost search tried, in the order tried: `[cost, efficiency,
    /// standard error]` (points, [0, 1], [0, 1]), every other cost at its current value — the
    /// unit's fair-cost curve.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub search: Vec<[f64; 3]>,
}

impl FairCostRow {
    /// Whether no price in the searched range balances the unit (no `fair_cost`): it loses
    /// (or wins) at any cost because of the rules, not its price (see `note`). Such a unit
    /// keeps its cost in the balanced list and leaves the field the others are balanced in.
    pub fn rules_limited(&self) -> bool {
        self.fair_cost.is_none()
    }
}

/// The solver's result for one ruleset.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FairCosts {
    pub seed: u64,
    /// Trials per matchup per evaluation.
    pub trials: u64,
    pub cost_step: f64,
    pub tolerance: f64,
    /// Damped fixed-point iterations run, and single-step moves tried after rounding.
    pub iterations: u32,
    pub moves: u32,
    /// Whether every balanced-list efficiency is within `tolerance` of 0.5.
    pub balanced: bool,
    /// Whether every unit is within `tolerance`, or outside it only because no multiple of the
    /// cost step comes closer (`FairCostRow::step_limited`), or because no price balances it at
    /// all ([`FairCostRow::rules_limited`], listed in `unbalanced`): balanced as far as the step
    /// and the rules allow.
    #[serde(default)]
    pub balanced_to_step: bool,
    /// Seed of the fresh-seed re-simulation of the balanced list (`None`: not run).
    #[serde(default)]
    pub fresh_seed: Option<u64>,
    /// Whether every unit's fresh-seed efficiency is within `tolerance` of 0.5, allowing for
    /// the fresh run's own 95% interval, or the unit is step-limited or rules-limited.
    #[serde(default)]
    pub fresh_within: bool,
    /// Cost-list order.
    pub rows: Vec<FairCostRow>,
    /// Id of the unit whose cost was held fixed (the derived list's anchor), if any.
    #[serde(default)]
    pub anchor: Option<String>,
    /// What cannot be balanced, one sentence per unit.
    pub unbalanced: Vec<String>,
    /// Caveats about the solver's own convergence (not about a unit), one sentence each.
    #[serde(default)]
    pub notes: Vec<String>,
    /// Matchups simulated in all (each `trials` trials).
    pub matchups: u64,
}
