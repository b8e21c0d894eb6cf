//! Mean score against start distance: one-against-one duels of every pair of units over a
//! range of start distances, on each kind of ground the ruleset offers (Gunplay: open, some
//! cover, lots of cover). This is the chart a player reads to know when a shotgun beats a
//! rifle.
//!
//! Each cell is exact when the ruleset's exact solver covers it (a stand-up duel) and Monte
//! Carlo otherwise. The Monte Carlo stream of a pair does not depend on the distance or the
//! ground, and each trial has its own generator, so trial `k` of every cell of a pair starts
//! from the same dice (common random numbers). How much of the noise neighbouring cells then
//! share depends on whether the distance changes what the first rolls are for (a move instead
//! of a shot): often much, never by construction. Cells are solved in parallel; each is
//! deterministic for the seed, so the result is the same for any thread count.

use indicatif::ProgressBar;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::rulesets::Ruleset;
use crate::sim::RunPlan;
use crate::sim::duel::{Squads, result_from_exact, result_from_tally, simulate};
use crate::stats::Estimate;

/// One pair's curves: `score[g][k]` is the row unit's mean score (P(win) + ½ P(draw), 95%
/// interval, in [0, 1]) against the column unit on ground `g` at distance `k`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairCurves {
    /// Unit ids: `a` is the unit whose mean score is shown, against `b`.
    pub a: String,
    pub b: String,
    pub score: Vec<Vec<Estimate>>,
    /// "exact" (the scripted tactic's Markov chain), "monte-carlo" (the scripted tactic,
    /// simulated) or "optimal" (both sides optimal: `analysis::optimal_play::play_by_distance`)
    /// per cell, like `score`.
    pub method: Vec<Vec<String>>,
}

/// 1v1 mean score against start distance for every pair of units, per ground.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WinRateByDistance {
    /// Start distances, ascending, in the ruleset's distance unit.
    pub distances: Vec<f64>,
    /// Ground labels, e.g. "open", "some cover", "lots of cover".
    pub grounds: Vec<String>,
    /// Every unordered pair once (a before b in cost-list order).
    pub pairs: Vec<PairCurves>,
    /// Target 95% half-width of the Monte Carlo cells.
    pub target_error: f64,
}

/// Solves every pair of units at every distance on every ground. `grounds` lists each
/// ground's label with the ruleset configured for it (same units in the same order). A Monte
/// Carlo cell stops at `target_error` (at most `max_trials` trials), or with `fixed_trials`
/// plays exactly `max_trials` (`--trials` alone, as `--shard` needs: a shard cannot run the
/// stopping rule). `progress` advances by one per cell (the caller counts the cells into its length).
pub fn win_rate_by_distance<R: Ruleset>(
    grounds: &[(String, R)],
    distances: &[f64],
    seed: u64,
    target_error: f64,
    max_trials: u64,
    fixed_trials: bool,
    progress: &ProgressBar,
) -> WinRateByDistance {
    let k = grounds.first().map_or(0, |g| g.1.units().len());
    let pairs: Vec<(usize, usize)> = (0..k).flat_map(|i| (i + 1..k).map(move |j| (i, j))).collect();
    let cells: Vec<(usize, usize, usize)> = (0..pairs.len())
        .flat_map(|p| (0..grounds.len()).flat_map(move |g| (0..distances.len()).map(move |d| (p, g, d))))
        .collect();
    // `--trials` alone (and so `--shard`) fixes every plan: a shard cannot run the stopping rule.
    let plan = if fixed_trials {
        RunPlan::fixed(seed, max_trials, 512)
    } else {
        RunPlan {
            seed,
            batch_size: 512,
            min_trials: 4096.min(max_trials),
            max_trials,
            target_error: Some(target_error),
        }
    };
    let solved: Vec<(Estimate, &'static str)> = cells
        .par_iter()
        .map(|&(p, g, d)| {
            let (a, b) = pairs[p];
            let r = &grounds[g].1;
            let dist = distances[d];
            let out = match r.exact_duel(a, b, dist) {
                Ok(e) => (result_from_exact(&e, [1.0, 1.0]).a_score, "exact"),
                Err(_) => {
                    (result_from_tally(&simulate(r, a, b, dist, Squads::One, &plan), [1.0, 1.0]).a_score, "monte-carlo")
                }
            };
            progress.inc(1);
            out
        })
        .collect();
    let units = grounds.first().map(|g| g.1.units().to_vec()).unwrap_or_default();
    let mut curves: Vec<PairCurves> = pairs
        .iter()
        .map(|&(a, b)| PairCurves {
            a: units[a].id.clone(),
            b: units[b].id.clone(),
            score: vec![Vec::new(); grounds.len()],
            method: vec![Vec::new(); grounds.len()],
        })
        .collect();
    for (&(p, g, _), (e, m)) in cells.iter().zip(solved) {
        curves[p].score[g].push(e);
        curves[p].method[g].push(m.to_string());
    }
    WinRateByDistance {
        distances: distances.to_vec(),
        grounds: grounds.iter().map(|g| g.0.clone()).collect(),
        pairs: curves,
        target_error,
    }
}
