//! "Does the tactic play well?": every one-against-one of the cost list solved under optimal
//! play, beside the scripted tactic's exact value and its exploitability (DESIGN.md, "Optimal
//! play and exploitability"; [`crate::rulesets::optimal`]).
//!
//! For each unordered pair `(a, b)`, `a ≤ b` in cost-list order, the ruleset's
//! [`Ruleset::optimal_duel`] solves four games at the report's start distance: both sides
//! optimal, both scripted, and each side's best response against the other's scripted tactic.
//! The **exploitability** of the pair is the larger of the two best responses' gains, in score
//! points (win 1, draw ½; probability units). Everything here is exact: no seed, no interval.

use indicatif::ProgressBar;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::RulesetAnalysis;
use crate::rulesets::Ruleset;
use crate::rulesets::optimal::{GameValue, OptimalDuel};
use crate::sim::duel::MatchupResult;
use crate::stats::Estimate;

/// Exploitability above which a pair is named in the report's warnings (probability units).
pub const WARN_ABOVE: f64 = 0.02;

/// Win, loss and draw chances of the row unit (`a`), in [0, 1].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    pub a_wins: f64,
    pub b_wins: f64,
    pub draws: f64,
    /// `a_wins + draws / 2`.
    pub a_score: f64,
}

impl From<&GameValue> for Outcome {
    fn from(v: &GameValue) -> Self {
        Outcome { a_wins: v.a_wins, b_wins: v.b_wins, draws: v.draws, a_score: v.a_score() }
    }
}

/// One solved pair.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OptimalPair {
    /// Unit ids; `a` comes first in the cost list (a mirror has `a == b`).
    pub a: String,
    pub b: String,
    /// Both sides optimal, averaged over who acts first.
    pub optimal: Outcome,
    /// Both sides play the scripted tactic (exact, on the solver's grid).
    pub scripted: Outcome,
    /// Score points `a` (resp. `b`) gains by its best response against the scripted other side.
    pub a_gain: f64,
    pub b_gain: f64,
    /// `max(a_gain, b_gain)`.
    pub exploitability: f64,
}

/// A solved pair in the result cache: the four values (A wins, B wins, draws, rounds solved,
/// in the order optimal, scripted, A's and B's best response), then the grid step and depth.
impl crate::cache::Entry for OptimalDuel {
    fn encode(&self) -> Vec<u64> {
        let mut w = Vec::with_capacity(18);
        for v in [self.optimal, self.scripted, self.a_best_response, self.b_best_response] {
            w.extend([v.a_wins.to_bits(), v.b_wins.to_bits(), v.draws.to_bits(), v.rounds_solved as u64]);
        }
        w.extend([self.step.to_bits(), self.depth.to_bits()]);
        w
    }
    fn decode(w: &[u64]) -> Option<Self> {
        if w.len() != 18 {
            return None;
        }
        let v = |k: usize| GameValue {
            a_wins: f64::from_bits(w[4 * k]),
            b_wins: f64::from_bits(w[4 * k + 1]),
            draws: f64::from_bits(w[4 * k + 2]),
            rounds_solved: w[4 * k + 3] as u32,
        };
        Some(OptimalDuel {
            optimal: v(0),
            scripted: v(1),
            a_best_response: v(2),
            b_best_response: v(3),
            step: f64::from_bits(w[16]),
            depth: f64::from_bits(w[17]),
        })
    }
}

/// The optimal-play section of one ruleset's report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OptimalPlay {
    /// Start distance, in the ruleset's unit (the report's `[duel] distance`).
    pub distance: f64,
    /// The solver's grid step and table depth, same unit; 0 when no pair was solved.
    pub grid_step: f64,
    pub table_depth: f64,
    /// Unit ids in cost-list order.
    pub units: Vec<String>,
    /// Every solved pair `a ≤ b`, in cost-list order.
    pub pairs: Vec<OptimalPair>,
    /// Pairs with no game, `"A v B: why"`; one `"every pair: why"` when the ruleset has no game.
    pub refused: Vec<String>,
    /// Largest and mean exploitability over the solved pairs (probability units; 0 when none).
    pub exploitability_max: f64,
    pub exploitability_mean: f64,
}

impl OptimalPlay {
    /// The row unit's score against the column unit (`None` where the pair was refused), for
    /// the optimal (`optimal = true`) or the scripted game: `m[i][j]`, units in cost-list order.
    pub fn matrix(&self, optimal: bool) -> Vec<Vec<Option<f64>>> {
        let k = self.units.len();
        let pos = |id: &str| self.units.iter().position(|u| u == id);
        let mut m = vec![vec![None; k]; k];
        for p in &self.pairs {
            let (Some(i), Some(j)) = (pos(&p.a), pos(&p.b)) else { continue };
            // Clamped: the solver's rounding may leave a certain result a hair outside [0, 1].
            let s = (if optimal { p.optimal.a_score } else { p.scripted.a_score }).clamp(0.0, 1.0);
            m[i][j] = Some(s);
            if i != j {
                m[j][i] = Some(1.0 - s);
            }
        }
        m
    }

    /// Each unit's mean 1v1 score against the other units (mirror left out, as the efficiency
    /// table's 1v1 column): `(scripted, optimal)`, `None` when no pair of the unit was solved.
    pub fn unit_means(&self) -> Vec<Option<(f64, f64)>> {
        let (o, s) = (self.matrix(true), self.matrix(false));
        (0..self.units.len())
            .map(|i| {
                let both: Vec<(f64, f64)> =
                    (0..self.units.len()).filter(|&j| j != i).filter_map(|j| Some((s[i][j]?, o[i][j]?))).collect();
                let n = both.len() as f64;
                (!both.is_empty())
                    .then(|| (both.iter().map(|x| x.0).sum::<f64>() / n, both.iter().map(|x| x.1).sum::<f64>() / n))
            })
            .collect()
    }

    /// How many solved pairs are exploitable by more than `x` (probability units, in [0, 1]).
    pub fn pairs_above(&self, x: f64) -> usize {
        self.pairs.iter().filter(|p| p.exploitability > x).count()
    }

    /// Solved pairs, worst exploitability first (ties in cost-list order).
    pub fn worst_first(&self) -> Vec<&OptimalPair> {
        let mut v: Vec<&OptimalPair> = self.pairs.iter().collect();
        v.sort_by(|x, y| y.exploitability.total_cmp(&x.exploitability));
        v
    }
}

/// The result cache's key ([`crate::cache`]) of `r`'s solves at `distance`: the ruleset
/// without its costs and the distance; [`crate::sim::pair_key`] adds a pair (with its two list
/// prices where the scripted tactic reads them). `None` when no cache is installed.
fn solve_key<R: Ruleset>(r: &R, distance: f64) -> Option<crate::cache::Key> {
    crate::sim::cache_key(r, "optimal").map(|k| k.num(distance))
}

/// Pair `(i, j)`'s score in [0, 1] under optimal play (A's, win 1, draw ½) at `distance`,
/// as [`OptimalPlay::matrix`] gives it, from a solve of [`analyse`] that the result cache
/// holds (a report's); `None` when it holds none (or no cache is installed).
pub fn cached_score<R: Ruleset>(r: &R, distance: f64, i: usize, j: usize) -> Option<f64> {
    Some(Outcome::from(&cached_solve(r, distance, i, j)?.optimal).a_score.clamp(0.0, 1.0))
}

/// Pair `(i, j)`'s four solves at `distance` ([`optimal_duel`]) that the result cache holds.
fn cached_solve<R: Ruleset>(r: &R, distance: f64, i: usize, j: usize) -> Option<OptimalDuel> {
    crate::cache::get(&crate::sim::pair_key(r, &solve_key(r, distance)?, i, j))
}

/// The result cache's key of pair `(i, j)`'s advantage-only score at `distance`
/// ([`Ruleset::optimal_score`]): the ruleset without its costs (its readings included), the
/// distance and the pair. Shared by the readings' solves and [`optimal_scores_at`].
pub fn score_key<R: Ruleset>(r: &R, distance: f64, i: usize, j: usize) -> Option<crate::cache::Key> {
    crate::sim::cache_key(r, "optimal-score").map(|k| k.num(distance).part(&(i, j)))
}

/// Solves every pair of `r`'s cost list at `distance` (pairs in parallel; each solve is exact,
/// so the result does not depend on the thread count). `progress` advances one per pair.
pub fn analyse<R: Ruleset>(r: &R, distance: f64, progress: &ProgressBar) -> OptimalPlay {
    let units = r.units();
    let k = units.len();
    let pairs = super::matrix::unordered_pairs(k);
    progress.inc_length(pairs.len() as u64);
    progress.set_message(format!("{}: optimal play", r.id()));
    let solved: Vec<_> = pairs
        .par_iter()
        .map(|&(i, j)| {
            let o = optimal_duel(r, distance, i, j);
            progress.inc(1);
            (i, j, o)
        })
        .collect();
    let (mut step, mut depth) = (0.0, 0.0);
    let mut out = Vec::new();
    let mut refused = Vec::new();
    for (i, j, o) in solved {
        match o {
            Ok(o) => {
                (step, depth) = (o.step, o.depth);
                out.push(OptimalPair {
                    a: units[i].id.clone(),
                    b: units[j].id.clone(),
                    optimal: Outcome::from(&o.optimal),
                    scripted: Outcome::from(&o.scripted),
                    a_gain: o.a_gain(),
                    b_gain: o.b_gain(),
                    exploitability: o.exploitability(),
                });
            }
            Err(e) => refused.push((format!("{} v {}", units[i].name, units[j].name), e.to_string())),
        }
    }
    // A ruleset with no game refuses every pair for one reason: say it once.
    let one_reason = out.is_empty() && refused.windows(2).all(|w| w[0].1 == w[1].1);
    let refused: Vec<String> = if one_reason {
        refused.first().map(|r| format!("every pair: {}", r.1)).into_iter().collect()
    } else {
        refused.into_iter().map(|(pair, why)| format!("{pair}: {why}")).collect()
    };
    let n = out.len().max(1) as f64;
    OptimalPlay {
        distance,
        grid_step: step,
        table_depth: depth,
        units: units.iter().map(|u| u.id.clone()).collect(),
        exploitability_max: out.iter().map(|p| p.exploitability).fold(0.0, f64::max),
        exploitability_mean: out.iter().map(|p| p.exploitability).fold(0.0, |x, y| x + y) / n,
        pairs: out,
        refused,
    }
}

/// Units `i` (side A) and `j` at `distance`: the four solves of [`Ruleset::optimal_duel`]
/// (both sides optimal, both scripted, each side's best response against the other's scripted
/// tactic), read from the result cache where a report's [`analyse`] (or an earlier call) left
/// them, under the same key. What `duel` (one each) prints beside the scripted tactic.
/// Errors: the ruleset's [`crate::rulesets::NotExact`] when it has no game for the pair at
/// `distance`.
pub fn optimal_duel<R: Ruleset>(
    r: &R,
    distance: f64,
    i: usize,
    j: usize,
) -> Result<OptimalDuel, crate::rulesets::NotExact> {
    match solve_key(r, distance) {
        Some(k) => crate::cache::memo_ok(&crate::sim::pair_key(r, &k, i, j), || r.optimal_duel(i, j, distance)),
        None => r.optimal_duel(i, j, distance),
    }
}

/// The `method` of a matrix cell solved under optimal play ([`play_1v1`]).
pub const OPTIMAL_METHOD: &str = "optimal";

/// The 1v1 matrix's cell of `a` (row, side A) against `b` from an optimal-play outcome `o`
/// seen from `a`; `costs`: the two list prices. Exact: every interval is the point. Points
/// spent and destroyed as an exact cell's ([`crate::sim::duel::result_from_exact`]: a win
/// destroys the other side); the mean number of turns is not known (`None`).
fn optimal_cell(o: &Outcome, costs: [f64; 2]) -> MatchupResult {
    // Clamped: the solver's rounding may leave a certain result a hair outside [0, 1].
    let p = |x: f64| x.clamp(0.0, 1.0);
    MatchupResult {
        a_wins: Estimate::exact(p(o.a_wins)),
        b_wins: Estimate::exact(p(o.b_wins)),
        draws: Estimate::exact(p(o.draws)),
        a_score: Estimate::exact(p(o.a_score)),
        a_score_se: 0.0,
        trials: 0,
        method: OPTIMAL_METHOD.into(),
        mean_turns: None,
        a_points_spent: costs[0],
        a_points_killed: p(o.a_wins) * costs[1],
        b_points_spent: costs[1],
        b_points_killed: p(o.b_wins) * costs[0],
    }
}

/// `o` seen from the other side: B's wins are A's.
fn swapped(o: &Outcome) -> Outcome {
    Outcome { a_wins: o.b_wins, b_wins: o.a_wins, draws: o.draws, a_score: 1.0 - o.a_score }
}

/// The report's one-against-one numbers from optimal play (issue 41, "1v1 numbers are the
/// game's value"; DESIGN.md, "Play model"): every pair `o` solved becomes its cell of
/// `a.matrix_1v1` under optimal play (exact, method [`OPTIMAL_METHOD`]), the matrix's title
/// says so, each unit's 1v1 mean score is worked out again from it, and the matrix's warnings
/// (draws) are made again. A pair `o` refused keeps the scripted tactic's cell; the scripted
/// values of the solved pairs stay in `o` ([`OptimalPair::scripted`]), the report's
/// diagnostic. Does nothing when `o` solved no pair or is at another distance.
pub fn play_1v1(a: &mut RulesetAnalysis, o: &OptimalPlay) {
    if (o.distance - a.distance).abs() > 1e-9 {
        return;
    }
    let values: Vec<(String, String, Outcome)> =
        o.pairs.iter().map(|p| (p.a.clone(), p.b.clone(), p.optimal)).collect();
    play_1v1_values(a, &values);
}

/// [`play_1v1`] from the pairs' values alone (`(a, b, outcome)`: unit ids, `a` the row, and
/// the both-sides-optimal outcome seen from `a`), as [`optimal_values`] gives them at the
/// analysis's distance. Does nothing when `values` is empty.
pub fn play_1v1_values(a: &mut RulesetAnalysis, values: &[(String, String, Outcome)]) {
    if values.is_empty() {
        return;
    }
    let old = super::matrix::matrix_warnings(&a.matrix_1v1, a.target_error, a.max_trials);
    let m = &mut a.matrix_1v1;
    let pos = |id: &str| m.units.iter().position(|u| u == id);
    let cost = |id: &str| a.units.iter().find(|u| u.id == id).map_or(0.0, |u| u.cost);
    let mut cells = Vec::new();
    for (ida, idb, v) in values {
        let (Some(i), Some(j)) = (pos(ida), pos(idb)) else { continue };
        let (ca, cb) = (cost(ida), cost(idb));
        cells.push((i, j, optimal_cell(v, [ca, cb])));
        if i != j {
            cells.push((j, i, optimal_cell(&swapped(v), [cb, ca])));
        }
    }
    for (i, j, c) in cells {
        m.cells[i][j] = c;
    }
    m.title = format!("{}, optimal play", m.title);
    let new = super::matrix::matrix_warnings(m, a.target_error, a.max_trials);
    let m = &a.matrix_1v1;
    for row in &mut a.efficiency {
        if let Some(i) = m.units.iter().position(|u| *u == row.unit.id) {
            row.win_rate_1v1 = super::matrix::mean_score(m, i);
        }
    }
    // The 1v1 matrix's warnings come first, as `analyse` made them.
    a.warnings.retain(|w| !old.contains(w));
    a.warnings.splice(0..0, new);
}

/// Every pair's value with both sides optimal at `distance`, as [`play_1v1_values`] takes
/// them (pairs in parallel; exact, the same bits as [`analyse`]'s `optimal`; each pair by
/// [`optimal_value`]). What `check` and `matrix` need of optimal play. Pairs with no game are
/// left out. `progress` advances one per pair.
pub fn optimal_values<R: Ruleset>(r: &R, distance: f64, progress: &ProgressBar) -> Vec<(String, String, Outcome)> {
    let units = r.units();
    let pairs = super::matrix::unordered_pairs(units.len());
    progress.inc_length(pairs.len() as u64);
    progress.set_message(format!("{}: optimal play", r.id()));
    let solved: Vec<Option<(String, String, Outcome)>> = pairs
        .par_iter()
        .map(|&(i, j)| {
            let v = optimal_value(r, distance, i, j);
            progress.inc(1);
            v.ok().map(|v| (units[i].id.clone(), units[j].id.clone(), Outcome::from(&v)))
        })
        .collect();
    solved.into_iter().flatten().collect()
}

/// Units `i` (side A) and `j` at `distance` with both sides optimal: read from the report's
/// full solve of the pair ([`analyse`]) where the result cache holds one, else one solve of
/// four ([`Ruleset::optimal_value`], the same bits), cached as kind `optimal-value` (key: the
/// ruleset without its costs, the distance and the pair; both sides optimal read no cost).
/// Errors: the ruleset's [`crate::rulesets::NotExact`] when it has no game for the pair at
/// `distance`.
pub fn optimal_value<R: Ruleset>(
    r: &R,
    distance: f64,
    i: usize,
    j: usize,
) -> Result<GameValue, crate::rulesets::NotExact> {
    if let Some(v) = cached_value(r, distance, i, j) {
        return Ok(v);
    }
    let v = r.optimal_value(i, j, distance)?;
    if let Some(k) = value_key(r, distance, i, j) {
        crate::cache::put(&k, &v);
    }
    Ok(v)
}

/// A's score (win 1, draw ½, in [0, 1]) with both sides optimal at each of `distances`, in
/// order, solved for the advantage alone ([`Ruleset::optimal_score`]: within 1e-12 of the
/// score of [`optimal_value`], tested per ruleset): each read from the result cache where it
/// holds it (kind `optimal-score`, the key of the readings' solves: the ruleset without its
/// costs, the distance and the pair), the others solved together
/// ([`Ruleset::optimal_scores_at`]: the same bits as one solve each, from one solve per family
/// of start distances where the game allows) and cached. Never read from a full solve, so the
/// result does not depend on what the cache holds.
pub fn optimal_scores_at<R: Ruleset>(
    r: &R,
    distances: &[f64],
    i: usize,
    j: usize,
) -> Vec<Result<f64, crate::rulesets::NotExact>> {
    let key = |d: f64| score_key(r, d, i, j);
    let mut out: Vec<Option<Result<f64, crate::rulesets::NotExact>>> =
        distances.iter().map(|&d| key(d).and_then(|k| crate::cache::get::<f64>(&k)).map(Ok)).collect();
    let missing: Vec<usize> = (0..distances.len()).filter(|&k| out[k].is_none()).collect();
    if !missing.is_empty() {
        let at: Vec<f64> = missing.iter().map(|&k| distances[k]).collect();
        for (&k, v) in missing.iter().zip(r.optimal_scores_at(i, j, &at)) {
            if let (Ok(v), Some(key)) = (&v, key(distances[k])) {
                crate::cache::put(&key, v);
            }
            out[k] = Some(v);
        }
    }
    out.into_iter().map(|v| v.unwrap_or_else(|| Err(crate::rulesets::NotExact("not solved".into())))).collect()
}

/// The both-sides-optimal value of pair `(i, j)` at `distance` that the result cache holds:
/// from a report's full solve ([`analyse`]) or an [`optimal_value`] solve; `None` if neither.
fn cached_value<R: Ruleset>(r: &R, distance: f64, i: usize, j: usize) -> Option<GameValue> {
    match cached_solve(r, distance, i, j) {
        Some(o) => Some(o.optimal),
        None => crate::cache::get(&value_key(r, distance, i, j)?),
    }
}

/// The result cache's key of [`optimal_value`]'s solve of pair `(i, j)` at `distance`.
fn value_key<R: Ruleset>(r: &R, distance: f64, i: usize, j: usize) -> Option<crate::cache::Key> {
    crate::sim::cache_key(r, "optimal-value").map(|k| k.num(distance).part(&(i, j)))
}

/// The 1v1 mean score by start distance (Gunplay's chart, [`Ruleset::distance_grounds`])
/// under optimal play (issue 41, "1v1 numbers are the game's value": the sweep's 1v1 cells
/// too): every cell whose pair the ground's game solves at its distance becomes the
/// both-sides-optimal score, exact (method [`OPTIMAL_METHOD`], no interval; by
/// [`optimal_scores_at`], the advantage-only solve, within 1e-12 of the 1v1 matrix's full
/// solve; a pair and ground at a time in parallel, so the same for any thread count); a cell
/// the game refuses keeps the scripted tactic's. `grounds` must be the
/// rulesets that made `w` (`r.distance_grounds()`: the same labels, units and distances),
/// else nothing changes. `progress` advances one per cell.
pub fn play_by_distance<R: Ruleset>(
    grounds: &crate::rulesets::DistanceGrounds<R>,
    w: &mut super::duel_distance::WinRateByDistance,
    progress: &ProgressBar,
) {
    let labels: Vec<&String> = grounds.grounds.iter().map(|g| &g.0).collect();
    if labels != w.grounds.iter().collect::<Vec<_>>() || grounds.distances != w.distances {
        return;
    }
    let Some(units) = grounds.grounds.first().map(|g| g.1.units()) else { return };
    let pos = |id: &str| units.iter().position(|u| u.id == id);
    let ids: Vec<Option<(usize, usize)>> = w.pairs.iter().map(|p| Some((pos(&p.a)?, pos(&p.b)?))).collect();
    let tasks: Vec<(usize, usize)> = (0..w.pairs.len()).flat_map(|p| (0..labels.len()).map(move |g| (p, g))).collect();
    let n = grounds.distances.len();
    progress.inc_length((tasks.len() * n) as u64);
    progress.set_message("optimal play by distance");
    let solved: Vec<Vec<Option<f64>>> = tasks
        .par_iter()
        .map(|&(p, g)| {
            let v = match ids[p] {
                Some((i, j)) => optimal_scores_at(&grounds.grounds[g].1, &grounds.distances, i, j)
                    .into_iter()
                    .map(|v| v.ok().map(|v| v.clamp(0.0, 1.0)))
                    .collect(),
                None => vec![None; n],
            };
            progress.inc(n as u64);
            v
        })
        .collect();
    for (&(p, g), values) in tasks.iter().zip(solved) {
        for (d, v) in values.into_iter().enumerate() {
            if let Some(v) = v {
                w.pairs[p].score[g][d] = Estimate::exact(v);
                w.pairs[p].method[g][d] = OPTIMAL_METHOD.to_string();
            }
        }
    }
}

/// A both-sides-optimal value in the result cache: A's wins, B's wins, draws, rounds solved.
impl crate::cache::Entry for GameValue {
    fn encode(&self) -> Vec<u64> {
        vec![self.a_wins.to_bits(), self.b_wins.to_bits(), self.draws.to_bits(), self.rounds_solved as u64]
    }
    fn decode(w: &[u64]) -> Option<Self> {
        let &[a, b, d, n] = w else { return None };
        Some(GameValue {
            a_wins: f64::from_bits(a),
            b_wins: f64::from_bits(b),
            draws: f64::from_bits(d),
            rounds_solved: u32::try_from(n).ok()?,
        })
    }
}

/// The report warning naming the pairs whose exploitability is above [`WARN_ABOVE`] (worst
/// first, at most ten named); `None` when there is none.
pub fn warning(o: &OptimalPlay, unit: &str, units: &[crate::rulesets::UnitInfo]) -> Option<super::Warning> {
    let name = |id: &str| units.iter().find(|u| u.id == id).map_or(id, |u| u.name.as_str()).to_string();
    let bad: Vec<&OptimalPair> = o.worst_first().into_iter().filter(|p| p.exploitability > WARN_ABOVE).collect();
    if bad.is_empty() {
        return None;
    }
    let shown: Vec<String> = bad
        .iter()
        .take(10)
        .map(|p| {
            let gainer = if p.a_gain >= p.b_gain { &p.a } else { &p.b };
            format!("{} v {} {:.1} ({} gains)", name(&p.a), name(&p.b), 100.0 * p.exploitability, name(gainer))
        })
        .collect();
    let more = if bad.len() > 10 { format!(" and {} more (optimal_play.csv)", bad.len() - 10) } else { String::new() };
    Some(super::Warning {
        message: format!(
            "the scripted tactic is exploitable by more than {:.0} points in {} of {} 1v1 pairs at {} {unit} (a side's best response against it gains that much): {}{more}",
            100.0 * WARN_ABOVE,
            bad.len(),
            o.pairs.len(),
            o.distance,
            shown.join(", ")
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A ruleset whose one-against-one results read no cost (`Ruleset::duel_reads_costs`
    /// false: the result cache keys them without prices): its first unit at three times its
    /// cost has the same optimal-play solve against the second unit, scripted tactic and best
    /// responses included, and the same exact duel, at the report distance. (VSGMR, also false,
    /// has no per-unit cost to change.)
    #[test]
    fn a_duel_that_reads_no_cost_is_the_same_at_another_cost() {
        use crate::config::{Overrides, Source};
        use crate::rulesets::AnyRuleset;
        let mut checked = Vec::new();
        for id in crate::rulesets::implemented() {
            let src = Source::read(std::path::Path::new(&format!("configs/{id}.toml"))).unwrap();
            let load = |sets: &[String]| AnyRuleset::load(id, &src, &Overrides::parse(sets).unwrap()).unwrap();
            let base = load(&[]);
            let (reads, unit, cost) =
                crate::with_ruleset!(&base, r => (r.duel_reads_costs(), r.units()[0].id.clone(), r.units()[0].cost));
            if reads {
                continue;
            }
            // VSGMR has no `unit.ID.cost`: a figure's cost follows from its attributes, so it
            // never changes apart from the profile, which the key holds.
            let Ok(dear) =
                AnyRuleset::load(id, &src, &Overrides::parse(&[format!("unit.{unit}.cost={}", cost * 3.0)]).unwrap())
            else {
                assert_eq!(id, "vsgmr");
                continue;
            };
            let duel = |any: &AnyRuleset| {
                crate::with_ruleset!(any, r => {
                    let d = crate::analysis::AnalysisSettings::from_ruleset(r, 42).distance;
                    (r.optimal_duel(0, 1, d).map_err(|e| e.to_string()), r.exact_duel(0, 1, d).map_err(|e| e.to_string()))
                })
            };
            let (before, after) = (duel(&base), duel(&dear));
            assert!(before.0.is_ok(), "{id}: {before:?}");
            assert_eq!(before, after, "{id}");
            checked.push(id);
        }
        checked.sort();
        assert_eq!(checked, ["grunt-factor", "gunplay", "guns-n-grenades"]);
    }

    fn outcome(a: f64, b: f64) -> Outcome {
        Outcome { a_wins: a, b_wins: b, draws: 1.0 - a - b, a_score: a + (1.0 - a - b) / 2.0 }
    }

    /// Units `x`, `y`, `z` named `X`, `Y`, `Z`.
    fn infos() -> Vec<crate::rulesets::UnitInfo> {
        ["x", "y", "z"]
            .map(|id| crate::rulesets::UnitInfo {
                id: id.into(),
                name: id.to_uppercase(),
                cost: 10.0,
                kind: "test".into(),
            })
            .to_vec()
    }

    fn play() -> OptimalPlay {
        let pair = |a: &str, b: &str, o: Outcome, s: Outcome, ga: f64, gb: f64| OptimalPair {
            a: a.into(),
            b: b.into(),
            optimal: o,
            scripted: s,
            a_gain: ga,
            b_gain: gb,
            exploitability: ga.max(gb),
        };
        OptimalPlay {
            distance: 24.0,
            grid_step: 3.0,
            table_depth: 48.0,
            units: vec!["x".into(), "y".into(), "z".into()],
            pairs: vec![
                pair("x", "x", outcome(0.5, 0.5), outcome(0.5, 0.5), 0.0, 0.0),
                pair("x", "y", outcome(0.7, 0.3), outcome(0.9, 0.1), 0.0, 0.358),
                pair("y", "y", outcome(0.4, 0.4), outcome(0.45, 0.45), 0.01, 0.01),
                pair("y", "z", outcome(0.2, 0.6), outcome(0.2, 0.6), 0.03, 0.0),
            ],
            refused: vec!["X v Z: too far".into()],
            exploitability_max: 0.358,
            exploitability_mean: 0.0995,
        }
    }

    #[test]
    fn the_matrix_mirrors_each_pair_and_leaves_refused_pairs_empty() {
        let o = play();
        let m = o.matrix(true);
        assert_eq!(m[0][1], Some(0.7));
        assert!((m[1][0].unwrap() - 0.3).abs() < 1e-15);
        assert_eq!(m[0][2], None);
        assert_eq!(m[2][0], None);
        assert_eq!(o.matrix(false)[0][1], Some(0.9));
        // Unit means leave the mirror out: x has only y; y has x (scripted 0.1, optimal 0.3) and
        // z (0.3 under both).
        let u = o.unit_means();
        assert_eq!(u[0], Some((0.9, 0.7)));
        let (s, opt) = u[1].unwrap();
        assert!((s - 0.2).abs() < 1e-12 && (opt - 0.3).abs() < 1e-12, "{s} {opt}");
    }

    #[test]
    fn a_ruleset_that_refuses_every_pair_gives_one_reason_and_a_zero_mean() {
        // Every ruleset has a game now; The Grunt Factor's 120 cm table refuses a start 130 cm
        // apart (its last sweep distance) for every pair, for one reason.
        use crate::config::{Overrides, Source};
        let src = Source::read(std::path::Path::new("configs/grunt-factor.toml")).unwrap();
        let any = crate::rulesets::AnyRuleset::load("grunt-factor", &src, &Overrides::parse(&[]).unwrap()).unwrap();
        let o = crate::with_ruleset!(&any, r => analyse(r, 130.0, &ProgressBar::hidden()));
        assert!(o.pairs.is_empty());
        assert_eq!(
            o.refused,
            vec![
                "every pair: --optimal: the start distance 130 must be at least 2 (the closest the two units come) \
                 and at most 120 (the table depth)"
                    .to_string()
            ]
        );
        assert!(o.exploitability_mean == 0.0 && o.exploitability_mean.is_sign_positive(), "{}", o.exploitability_mean);
        assert!(warning(&o, "cm", &[]).is_none());
    }

    #[test]
    fn the_warning_names_only_pairs_above_two_points_worst_first() {
        let w = warning(&play(), "in", &infos()).unwrap().message;
        assert!(w.contains("in 2 of 4 1v1 pairs at 24 in"), "{w}");
        let first = w.find("X v Y 35.8 (Y gains)").unwrap();
        let second = w.find("Y v Z 3.0 (Y gains)").unwrap();
        assert!(first < second, "{w}");
        assert!(!w.contains("Y v Y"), "{w}");
        let mut calm = play();
        calm.pairs.retain(|p| p.exploitability <= WARN_ABOVE);
        assert!(warning(&calm, "in", &infos()).is_none());
    }
}
