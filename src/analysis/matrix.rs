//! Matchup matrices and points efficiency for one ruleset's cost list.
//!
//! Games are symmetric once both sides go first equally often, so unit j against unit i is
//! the mirror image of i against j: each unordered pair is simulated once and mirrored, which
//! halves the work without changing any estimate's distribution.

use indicatif::ProgressBar;
use rayon::prelude::*;

use crate::analysis::duel_distance::win_rate_by_distance;
use crate::analysis::{DistanceSweep, EfficiencyRow, Matrix, RulesetAnalysis, SquadCap, Warning};
use crate::rulesets::engine::SquadMixes;
use crate::rulesets::{Ruleset, matchup_budget};
use crate::sim::RunPlan;
use crate::sim::duel::{
    DuelTally, MatchupResult, SquadPlay, Squads, result_from_exact, result_from_tally, simulate, simulate_played,
};
use crate::stats::{CONFIDENCE, mean_of, normal};

/// What to run for a report: everything a `RulesetAnalysis` records as settings.
#[derive(Debug, Clone, PartialEq)]
pub struct AnalysisSettings {
    pub seed: u64,
    /// Duel start distance (ruleset units) and points-matched budget.
    pub distance: f64,
    pub budget: f64,
    /// Target 95% half-width per matchup, trial cap, and trials per batch.
    pub target_error: f64,
    pub max_trials: u64,
    pub batch_size: u32,
    /// Use the exact solver for 1v1 duels where it applies.
    pub exact_1v1: bool,
    /// Distances for the efficiency-by-distance sweep (empty: none) and its target error.
    pub sweep_distances: Vec<f64>,
    pub sweep_target_error: f64,
    /// Play exactly `max_trials` per matchup, no stopping rule (`--trials` alone; `--shard`).
    pub fixed_trials: bool,
    /// The squads' equilibrium play of each pair of the cost list (the squads' tactic game's
    /// mixes, [`crate::analysis::squads_game`]), which the points-matched cells play but the
    /// mirrors; `None`: the scripted tactic.
    pub squad_mixes: Option<std::sync::Arc<SquadMixes>>,
    /// Whether [`analyse`] plays the squads' tactic game where the ruleset has one (`[duel]
    /// tactic_trials` above 0) and the points-matched squads by its equilibrium; `check` turns it
    /// off for a baseline whose squads played the scripted tactic.
    pub squads_game: bool,
}

impl AnalysisSettings {
    /// The ruleset's own `[duel]` settings with a seed.
    pub fn from_ruleset<R: Ruleset>(r: &R, seed: u64) -> Self {
        let d = r.duel_settings();
        AnalysisSettings {
            seed,
            distance: d.distance,
            budget: d.budget,
            target_error: d.target_error,
            max_trials: d.max_trials,
            batch_size: 512,
            exact_1v1: true,
            sweep_distances: d.sweep_distances.clone(),
            sweep_target_error: d.sweep_target_error.unwrap_or(2.0 * d.target_error),
            fixed_trials: false,
            squad_mixes: None,
            squads_game: true,
        }
    }

    fn plan(&self) -> RunPlan {
        if self.fixed_trials {
            return RunPlan::fixed(self.seed, self.max_trials, self.batch_size);
        }
        RunPlan {
            seed: self.seed,
            batch_size: self.batch_size,
            min_trials: (self.batch_size as u64 * 8).min(self.max_trials),
            max_trials: self.max_trials,
            target_error: Some(self.target_error),
        }
    }
}

/// An exact duel in the result cache (`crate::cache`): its four numbers in field order.
impl crate::cache::Entry for crate::rulesets::ExactDuel {
    fn encode(&self) -> Vec<u64> {
        [self.a_wins, self.b_wins, self.draws, self.mean_turns].map(f64::to_bits).to_vec()
    }
    fn decode(w: &[u64]) -> Option<Self> {
        let &[a, b, d, t] = w else { return None };
        let f = f64::from_bits;
        Some(crate::rulesets::ExactDuel { a_wins: f(a), b_wins: f(b), draws: f(d), mean_turns: f(t) })
    }
}

/// A matrix with its raw tallies (oriented row-vs-column; `None` where exact).
pub struct Computed {
    pub matrix: Matrix,
    pub tallies: Vec<Vec<Option<DuelTally>>>,
}

/// Every unordered pair `(i, j)` of `k` units with `i <= j` (mirrors included), row by row: the
/// order in which matrices are solved and their progress counted.
pub(crate) fn unordered_pairs(k: usize) -> Vec<(usize, usize)> {
    (0..k).flat_map(|i| (i..k).map(move |j| (i, j))).collect()
}

/// Computes a full matrix: every unordered pair once (in parallel), mirrored.
pub fn compute_matrix<R: Ruleset>(
    r: &R,
    settings: &AnalysisSettings,
    squads: Squads,
    title: String,
    progress: &ProgressBar,
) -> Computed {
    let units = r.units();
    let k = units.len();
    let pairs = unordered_pairs(k);
    let plan = settings.plan();
    // Exact duels through the result cache ([`crate::cache`]; the simulated cells are cached
    // by `simulate` itself): the ruleset without its costs, the distance, the pair (with its
    // list prices where a duel reads them, [`crate::sim::pair_key`]).
    let exact_key = crate::sim::cache_key(r, "exact").map(|k| k.num(settings.distance));
    let exact = |i: usize, j: usize| match &exact_key {
        Some(k) => crate::cache::memo_ok(&crate::sim::pair_key(r, k, i, j), || r.exact_duel(i, j, settings.distance)),
        None => r.exact_duel(i, j, settings.distance),
    };
    // The squads' equilibrium play where the report solved it (mirrors: the scripted tactic).
    let mixed = |i: usize, j: usize| settings.squad_mixes.as_ref().and_then(|m| m.play(i, j));
    let solved: Vec<(MatchupResult, Option<DuelTally>)> = pairs
        .par_iter()
        .map(|&(i, j)| {
            let costs = [units[i].cost, units[j].cost];
            let out = match (squads, settings.exact_1v1) {
                (Squads::One, true) => match exact(i, j) {
                    Ok(e) => (result_from_exact(&e, costs), None),
                    Err(_) => {
                        let t = simulate(r, i, j, settings.distance, squads, &plan);
                        (result_from_tally(&t, costs), Some(t))
                    }
                },
                (Squads::PointsMatched { .. }, _) => {
                    let t = match mixed(i, j) {
                        Some(p) => {
                            simulate_played(r, i, j, costs, settings.distance, squads, &plan, SquadPlay::Mixed(&p))
                        }
                        None => simulate(r, i, j, settings.distance, squads, &plan),
                    };
                    (result_from_tally(&t, costs), Some(t))
                }
                _ => {
                    let t = simulate(r, i, j, settings.distance, squads, &plan);
                    (result_from_tally(&t, costs), Some(t))
                }
            };
            progress.inc(1);
            out
        })
        .collect();
    let mut cells: Vec<Vec<Option<MatchupResult>>> = vec![vec![None; k]; k];
    let mut tallies: Vec<Vec<Option<DuelTally>>> = vec![vec![None; k]; k];
    for (&(i, j), (res, tally)) in pairs.iter().zip(solved) {
        if i != j {
            cells[j][i] = Some(mirror(&res));
            tallies[j][i] = tally.as_ref().map(DuelTally::swapped);
        }
        cells[i][j] = Some(res);
        tallies[i][j] = tally;
    }
    let cells = cells.into_iter().map(|row| row.into_iter().map(|c| c.expect("every cell solved")).collect()).collect();
    Computed { matrix: Matrix { title, units: units.iter().map(|u| u.id.clone()).collect(), cells }, tallies }
}

/// The same matchup seen from the other side.
fn mirror(m: &MatchupResult) -> MatchupResult {
    use crate::stats::Estimate;
    let flip = |e: Estimate| Estimate { value: 1.0 - e.value, lo: 1.0 - e.hi, hi: 1.0 - e.lo };
    MatchupResult {
        a_wins: m.b_wins,
        b_wins: m.a_wins,
        draws: m.draws,
        a_score: flip(m.a_score),
        a_score_se: m.a_score_se,
        trials: m.trials,
        method: m.method.clone(),
        mean_turns: m.mean_turns,
        a_points_spent: m.b_points_spent,
        a_points_killed: m.b_points_killed,
        b_points_spent: m.a_points_spent,
        b_points_killed: m.a_points_killed,
    }
}

/// Points spent per enemy point destroyed for row `i` over its points-matched matchups:
/// (Σ_j mean points fielded) / (Σ_j mean enemy points destroyed), every matchup weighing the
/// same whatever its trial count (the stopping rule runs close matchups longer; weighting by
/// trials would make the estimate depend on that). Delta-method interval; independent
/// matchups add their variances.
fn points_per_point_killed(tallies: &[Option<DuelTally>], costs: &[f64], i: usize) -> Option<crate::stats::Estimate> {
    let (mut s, mut k, mut var_s, mut var_k, mut cov) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for (j, t) in tallies.iter().enumerate() {
        let Some(t) = t else { continue };
        if j == i || t.trials == 0 {
            continue;
        }
        let n = t.trials as f64;
        let (ci, cj) = (costs[i], costs[j]);
        let mean = |x: u64| x as f64 / n;
        let (ms, mk) = (mean(t.size[0]), mean(t.kills[0]));
        // Variances of the per-matchup means, in points.
        var_s += (mean(t.size_sq[0]) - ms * ms) * ci * ci / n;
        var_k += (mean(t.kills_sq[0]) - mk * mk) * cj * cj / n;
        cov += (mean(t.size_kills[0]) - ms * mk) * ci * cj / n;
        s += ms * ci;
        k += mk * cj;
    }
    if k <= 0.0 {
        return None;
    }
    let ratio = s / k;
    let var = (var_s + ratio * ratio * var_k - 2.0 * ratio * cov).max(0.0) / (k * k);
    Some(normal(ratio, var.sqrt(), CONFIDENCE, 0.0, f64::INFINITY))
}

/// Efficiency of row `i`: its mean score against every other unit, with a normal interval.
fn row_efficiency(m: &Matrix, i: usize) -> crate::stats::Estimate {
    let others: Vec<(f64, f64)> = (0..m.units.len())
        .filter(|&j| j != i)
        .map(|j| (m.cells[i][j].a_score.value, m.cells[i][j].a_score_se))
        .collect();
    mean_of(&others, CONFIDENCE, 0.0, 1.0).unwrap_or(crate::stats::Estimate::exact(0.5))
}

/// Points-matched efficiency of every unit at each sweep distance. Streams do not depend on
/// the distance and each trial has its own generator, so trial `k` starts from the same dice
/// at every distance (common random numbers): much of a seed's noise is shared by
/// neighbouring distances (scores 3" apart correlate at about 0.7 in a GnG test), so the
/// curves are smoother than independent runs would draw them. Under the stopping rule two
/// distances may play different numbers of trials; the trials they both play share dice.
pub fn distance_sweep<R: Ruleset>(r: &R, settings: &AnalysisSettings, progress: &ProgressBar) -> Option<DistanceSweep> {
    if settings.sweep_distances.is_empty() {
        return None;
    }
    let units = r.units();
    let mut efficiency = vec![Vec::new(); units.len()];
    for &d in &settings.sweep_distances {
        let s = AnalysisSettings { distance: d, target_error: settings.sweep_target_error, ..settings.clone() };
        let m =
            compute_matrix(r, &s, Squads::PointsMatched { budget: settings.budget }, String::new(), progress).matrix;
        for (i, e) in efficiency.iter_mut().enumerate() {
            e.push(row_efficiency(&m, i));
        }
    }
    Some(DistanceSweep {
        distances: settings.sweep_distances.clone(),
        units: units.iter().map(|u| u.id.clone()).collect(),
        efficiency,
        target_error: settings.sweep_target_error,
    })
}

/// Runs the 1v1 and points-matched matrices and builds the efficiency table.
///
/// `progress` advances by one per solved matchup; its length is set here, once, before any runs.
pub fn analyse<R: Ruleset>(
    r: &R,
    settings: &AnalysisSettings,
    config_path: &str,
    config_hash: &str,
    progress: &ProgressBar,
) -> RulesetAnalysis {
    let started = std::time::Instant::now();
    let units = r.units().to_vec();
    let k = units.len() as u64;
    let pairs = k * (k + 1) / 2;
    // The whole phase's count before any of it runs, the win rate by distance included: a
    // total that grows half way makes the progress bar's ETA meaningless.
    let grounds = r.distance_grounds();
    let by_distance = grounds.as_ref().map_or(0, |g| {
        let k = g.grounds.first().map_or(0, |x| x.1.units().len() as u64);
        k * k.saturating_sub(1) / 2 * (g.grounds.len() * g.distances.len()) as u64
    });
    // The squads' tactic game's pairs (every pair but the mirrors) where it is played.
    let game = settings.squads_game && crate::analysis::squads_game::played(r);
    let game_pairs = if game { crate::analysis::squads_game::pair_count(r) } else { 0 };
    progress.set_length(pairs * (2 + settings.sweep_distances.len() as u64) + by_distance + game_pairs);
    progress.set_message(r.id().to_string());
    // The squads' equilibrium play first: the points-matched cells play it (fixed runs, the
    // same in every shard, so each shard and the merge play it whole).
    let mut game_warnings = Vec::new();
    let squads_game = match crate::sim::shard::unsharded(|| {
        if game {
            crate::analysis::squads_game::analyse(r, settings.seed, settings.batch_size, progress)
        } else {
            Ok(None)
        }
    }) {
        Ok(g) => g,
        Err(e) => {
            game_warnings.push(Warning {
                message: format!(
                    "points-matched squads: the tactic game was not solved ({e}); the squads play the scripted tactic"
                ),
            });
            None
        }
    };
    let settings = &AnalysisSettings {
        squad_mixes: squads_game.as_ref().map(|g| std::sync::Arc::new(g.mixes(r))),
        ..settings.clone()
    };
    let unit = r.distance_unit();
    let one = compute_matrix(r, settings, Squads::One, format!("1v1 at {} {unit}", settings.distance), progress);
    let points = compute_matrix(
        r,
        settings,
        Squads::PointsMatched { budget: settings.budget },
        format!("points-matched squads, {} points, at {} {unit}", settings.budget, settings.distance),
        progress,
    );
    let costs: Vec<f64> = units.iter().map(|u| u.cost).collect();
    let mut efficiency: Vec<EfficiencyRow> = units
        .iter()
        .enumerate()
        .map(|(i, u)| EfficiencyRow {
            unit: u.clone(),
            efficiency: mean_score(&points.matrix, i),
            win_rate_1v1: mean_score(&one.matrix, i),
            points_per_point_killed: points_per_point_killed(&points.tallies[i], &costs, i),
            rank: 0,
        })
        .collect();
    efficiency.sort_by(|x, y| y.efficiency.value.total_cmp(&x.efficiency.value));
    for (n, row) in efficiency.iter_mut().enumerate() {
        row.rank = n + 1;
    }
    let mut warnings = warnings(settings, &one.matrix, &points.matrix, &efficiency);
    warnings.extend(short_squads(r, settings.budget));
    warnings.extend(game_warnings);
    warnings.extend(squads_game.as_ref().and_then(|g| crate::analysis::squads_game::warning(g, unit)));
    let distance_sweep = distance_sweep(r, settings, progress);
    let win_rate_by_distance = grounds.map(|g| {
        win_rate_by_distance(
            &g.grounds,
            &g.distances,
            settings.seed,
            settings.sweep_target_error,
            settings.max_trials,
            settings.fixed_trials,
            progress,
        )
    });
    RulesetAnalysis {
        ruleset: r.id().to_string(),
        title: r.title().to_string(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        config_path: config_path.to_string(),
        config_hash: config_hash.to_string(),
        variants: r.variants(),
        seed: settings.seed,
        distance: settings.distance,
        distance_unit: unit.to_string(),
        budget: settings.budget,
        squad_caps: squad_caps(r, settings.budget),
        target_error: settings.target_error,
        max_trials: settings.max_trials,
        fixed_trials: settings.fixed_trials,
        units,
        duel_side: r.duel_side().to_string(),
        matrix_1v1: one.matrix,
        matrix_points: points.matrix,
        efficiency,
        distance_sweep,
        win_rate_by_distance,
        coverage: r.coverage(),
        lint: r.lint(),
        warnings,
        elapsed_seconds: started.elapsed().as_secs_f64(),
        config_text: None,
        skirmish: None,
        studies: Vec::new(),
        fair_costs: None,
        optimal_play: None,
        squads_rollout: None,
        squads_game,
        readings: None,
    }
}

/// A warning naming the points-matched matchups that a squad cap ([`matchup_budget`]) plays at
/// fewer points than one unit of the other side costs: that side fields one unit with
/// probability points / cost and an empty squad otherwise ([`Squads::size`]), so the cell
/// measures the purchase rule more than the two units. `None` when there is no such matchup.
fn short_squads<R: Ruleset>(r: &R, budget: f64) -> Option<Warning> {
    let units = r.units();
    let mut groups = Vec::new();
    for (a, capped) in units.iter().enumerate() {
        let short: Vec<&str> = (0..units.len())
            .filter(|&b| b != a)
            .filter(|&b| {
                let points = matchup_budget(r, [a, b], [capped.cost, units[b].cost], budget);
                points < budget
                    && points == matchup_budget(r, [a, a], [capped.cost; 2], budget)
                    && units[b].cost > points
            })
            .map(|b| units[b].name.as_str())
            .collect();
        if !short.is_empty() {
            let points = matchup_budget(r, [a, a], [capped.cost; 2], budget);
            groups.push(format!("{} ({} points) v {}", capped.name, points, short.join(", ")));
        }
    }
    (!groups.is_empty()).then(|| Warning {
        message: format!(
            "points-matched squads: a squad cap plays these matchups at fewer points than one unit of the \
             opponent costs, so the opponent fields one unit only in a fraction of the trials (points / cost) \
             and none otherwise; these cells measure the purchase rule more than the units: {}",
            groups.join("; ")
        ),
    })
}

/// The units whose points-matched squads `r`'s limits cap below `budget` points.
fn squad_caps<R: Ruleset>(r: &R, budget: f64) -> Vec<SquadCap> {
    (r.units().iter().enumerate())
        .filter_map(|(i, u)| {
            let limit = r.squad_limit(i, budget)?;
            let points = limit as f64 * u.cost;
            (points < budget).then(|| SquadCap { unit: u.name.clone(), limit, points })
        })
        .collect()
}

/// Row `i`'s mean score against every other unit of `m` (the mirror left out), with the 95%
/// interval of a mean of independent cells ([`mean_of`]); exact ½ for a one-unit list. The
/// efficiency table's efficiency (points-matched matrix) and 1v1 mean score (1v1 matrix).
pub fn mean_score(m: &Matrix, i: usize) -> crate::stats::Estimate {
    let others: Vec<(f64, f64)> = (0..m.cells.len())
        .filter(|&j| j != i)
        .map(|j| (m.cells[i][j].a_score.value, m.cells[i][j].a_score_se))
        .collect();
    mean_of(&others, CONFIDENCE, 0.0, 1.0).unwrap_or(crate::stats::Estimate::exact(0.5))
}

/// The warnings one matrix earns: Monte Carlo cells that reached the trial cap `max_trials`
/// before the target 95% half-width `target_error` (probability units), and pairs with more
/// than 20% draws. Each message starts with the matrix's title.
pub fn matrix_warnings(m: &Matrix, target_error: f64, max_trials: u64) -> Vec<Warning> {
    let mut out = Vec::new();
    let capped = m
        .cells
        .iter()
        .flatten()
        .filter(|c| c.method == "monte-carlo" && c.a_wins.half_width().max(c.b_wins.half_width()) > target_error)
        .count();
    if capped > 0 {
        out.push(Warning {
            message: format!(
                "{}: {capped} matchups reached the {max_trials}-trial cap before the ±{target_error} target; their intervals are wider",
                m.title
            ),
        });
    }
    let mut stalemates = Vec::new();
    for (i, row) in m.cells.iter().enumerate() {
        for (j, c) in row.iter().enumerate() {
            if i < j && c.draws.value > 0.2 {
                stalemates.push(format!("{} v {} ({:.0}%)", m.units[i], m.units[j], 100.0 * c.draws.value));
            }
        }
    }
    if !stalemates.is_empty() {
        let why = if m.is_optimal_play() {
            "a side that cannot win plays for the draw, or neither can destroy the other in time"
        } else {
            "neither side can destroy the other in time"
        };
        out.push(Warning { message: format!("{}: more than 20% draws ({why}): {}", m.title, stalemates.join(", ")) });
    }
    out
}

/// Warnings a reader must see: noisy cells, stalemates, ranks that intervals cannot separate.
fn warnings(s: &AnalysisSettings, one: &Matrix, points: &Matrix, eff: &[EfficiencyRow]) -> Vec<Warning> {
    let mut out = matrix_warnings(one, s.target_error, s.max_trials);
    out.extend(matrix_warnings(points, s.target_error, s.max_trials));
    let ties: Vec<String> = eff
        .windows(2)
        .filter(|w| w[0].efficiency.lo <= w[1].efficiency.hi)
        .map(|w| format!("{} / {}", w[0].unit.name, w[1].unit.name))
        .collect();
    if !ties.is_empty() {
        out.push(Warning {
            message: format!(
                "efficiency intervals overlap, so these neighbours in the ranking are not clearly ordered: {}",
                ties.join(", ")
            ),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// AMC caps Snipers (1) at 3 units (30 points, "The Armies"): a Tank (150) or Artillery (90)
    /// is then bought as one unit in a fraction of the trials only, and the report says so; GnG's
    /// capped squads (70–80 points) buy at least one of every unit (the costliest is 70), so GnG
    /// gets no such warning.
    #[test]
    fn matchups_capped_below_one_opposing_unit_are_named() {
        let amc = crate::rulesets::amc::testing::amc(&[]);
        let w = short_squads(&amc, 150.0).expect("AMC has capped matchups below one unit").message;
        assert!(w.contains("Snipers (1) (30 points) v "), "{w}");
        let snipers = w.split("; ").find(|g| g.starts_with("Snipers (1) (30 points)")).unwrap();
        for n in ["Tank", "Artillery", "Veterans (10)", "Jeep"] {
            assert!(snipers.contains(n), "{n} missing: {snipers}");
        }
        assert!(!snipers.contains("Riflemen (5)"), "Riflemen (5) cost 25 < 30: {snipers}");
        assert!(short_squads(&crate::rulesets::gng::testing::gng(&[]), 150.0).is_none());
    }

    fn tally(trials: u64, size: u64, kills_per_trial: u64) -> DuelTally {
        DuelTally {
            trials,
            size: [size * trials, 0],
            kills: [kills_per_trial * trials, 0],
            size_sq: [size * size * trials, 0],
            kills_sq: [kills_per_trial * kills_per_trial * trials, 0],
            size_kills: [size * kills_per_trial * trials, 0],
            ..Default::default()
        }
    }

    /// A uniform draw in [0, 1) from a SplitMix64 stream.
    fn uniform(state: &mut u64) -> f64 {
        *state = crate::seed::splitmix64(*state);
        (*state >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A tally of `n` trials in which side A fields 8 + Binomial(4, ½) models and destroys
    /// Binomial(size, `q`) enemies: size and kills vary and are correlated, as in battle.
    fn random_tally(n: u64, q: f64, state: &mut u64) -> DuelTally {
        let mut t = DuelTally { trials: n, ..Default::default() };
        for _ in 0..n {
            let size = 8 + (0..4).filter(|_| uniform(state) < 0.5).count() as u64;
            let kills = (0..size).filter(|_| uniform(state) < q).count() as u64;
            t.size[0] += size;
            t.kills[0] += kills;
            t.size_sq[0] += size * size;
            t.kills_sq[0] += kills * kills;
            t.size_kills[0] += size * kills;
        }
        t
    }

    #[test]
    fn points_per_point_killed_interval_matches_the_spread_over_replications() {
        // 400 replications of a row with two matchups (costs 10 against 30 and 20): the
        // delta-method standard error (half-width / z) agrees with the standard deviation of
        // the estimates across replications, and the intervals cover the true ratio about 95%
        // of the time. Truth: sizes average 10, kills 10 q, so (10·10 + 10·10) / (10·0.3·30 +
        // 10·0.5·20) = 200 / 190.
        let costs = [10.0, 30.0, 20.0];
        let truth = 200.0 / 190.0;
        let z = crate::stats::z_for(CONFIDENCE);
        let mut state = 5u64;
        let (mut values, mut ses, mut covered) = (Vec::new(), Vec::new(), 0);
        for _ in 0..400 {
            let row = vec![None, Some(random_tally(300, 0.3, &mut state)), Some(random_tally(300, 0.5, &mut state))];
            let e = points_per_point_killed(&row, &costs, 0).unwrap();
            values.push(e.value);
            ses.push(e.half_width() / z);
            covered += usize::from(e.contains(truth));
        }
        let mean = values.iter().sum::<f64>() / 400.0;
        let sd = (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / 399.0).sqrt();
        let mean_se = ses.iter().sum::<f64>() / 400.0;
        // The sd of 400 draws is within about ±7% (2 sd of its own sampling error) of the truth.
        assert!((mean_se / sd - 1.0).abs() < 0.12, "se {mean_se} vs sd {sd}");
        assert!((mean - truth).abs() < 4.0 * sd / 20.0, "{mean} vs {truth}");
        // 95% of 400 is 380 with sd 4.4: 360 is 4.5 sd below.
        assert!(covered >= 360, "{covered} of 400 cover");
    }

    fn cell(score: f64, se: f64) -> MatchupResult {
        let e = crate::stats::Estimate::exact(score);
        MatchupResult {
            a_wins: e,
            b_wins: crate::stats::Estimate::exact(1.0 - score),
            draws: crate::stats::Estimate::exact(0.0),
            a_score: e,
            a_score_se: se,
            trials: 1000,
            method: "monte-carlo".into(),
            mean_turns: Some(3.0),
            a_points_spent: 150.0,
            a_points_killed: 100.0,
            b_points_spent: 150.0,
            b_points_killed: 100.0,
        }
    }

    #[test]
    fn efficiency_is_the_row_mean_without_the_diagonal_with_independent_errors() {
        // Row 0 scores 0.6 ± 0.03 and 0.3 ± 0.04 against the others; its own (diagonal) cell,
        // 0.5, takes no part. Mean 0.45, se = sqrt(0.03² + 0.04²) / 2 = 0.025.
        let m = Matrix {
            title: "test".into(),
            units: vec!["a".into(), "b".into(), "c".into()],
            cells: vec![
                vec![cell(0.5, 0.01), cell(0.6, 0.03), cell(0.3, 0.04)],
                vec![cell(0.4, 0.03), cell(0.5, 0.01), cell(0.5, 0.02)],
                vec![cell(0.7, 0.04), cell(0.5, 0.02), cell(0.5, 0.01)],
            ],
        };
        let e = row_efficiency(&m, 0);
        let h = crate::stats::z_for(CONFIDENCE) * 0.025;
        assert!((e.value - 0.45).abs() < 1e-12, "{e:?}");
        assert!((e.lo - (0.45 - h)).abs() < 1e-12 && (e.hi - (0.45 + h)).abs() < 1e-12, "{e:?}");
        let e = row_efficiency(&m, 2);
        assert!((e.value - 0.6).abs() < 1e-12, "{e:?}");
        // A one-unit list has no opponents: even by definition, no interval.
        let one = Matrix { title: "one".into(), units: vec!["a".into()], cells: vec![vec![cell(0.5, 0.0)]] };
        assert_eq!(row_efficiency(&one, 0), crate::stats::Estimate::exact(0.5));
    }

    #[test]
    fn points_per_point_killed_weighs_matchups_equally() {
        // Row 0 (cost 10, squads of 15) kills 5 of unit 1 (cost 30) and 1 of unit 2 (cost 30):
        // means: fielded 150 + 150, destroyed 150 + 30 → 300 / 180, whatever the trial counts.
        let costs = [10.0, 30.0, 30.0];
        for (n1, n2) in [(1000, 1000), (100, 10_000)] {
            let row = vec![None, Some(tally(n1, 15, 5)), Some(tally(n2, 15, 1))];
            let e = points_per_point_killed(&row, &costs, 0).unwrap();
            assert!((e.value - 300.0 / 180.0).abs() < 1e-12, "{n1}/{n2}: {}", e.value);
            assert_eq!(e.lo, e.hi, "no variance in a constant tally");
        }
    }
}
