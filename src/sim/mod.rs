//! The Monte Carlo engine: fixed batches, one generator per batch (per trial for duels),
//! integer tallies.
//!
//! Why it is built this way: results for a seed must be identical whatever the thread count.
//! So trials are grouped in batches of a fixed size; batch `k` of stream `s` always gets the
//! generator seeded from `(seed, s, k)` through SplitMix64, whichever thread runs it; each
//! batch produces an integer tally; tallies are merged in batch order (integer sums, so the
//! order could not matter anyway). Nothing is seeded per thread and no float is reduced in
//! parallel. Duels go one step further: each trial gets its own generator, seeded from
//! `(seed, s, trial)` ([`crate::seed::trial_seed`]), so that two prices or two distances of a matchup play
//! the same dice trial by trial (common random numbers; see [`duel::simulate_at_costs`]).
//!
//! The stopping rule (`--target-error`, SimulationCraft's `target_error`) looks at the merged
//! tally only between rounds of batches, and the size of the next round depends only on that
//! tally, so a run that stops early stops at the same batch on 1 or 8 threads.
//!
//! Layer: the engine sits above the rulesets (it plays their duels through [`crate::rulesets::Ruleset`]
//! and their skirmishes through [`crate::rulesets::skirmish::Skirmish`]) and below the analysis; it
//! knows no ruleset by name and writes no file. It may import `rulesets` (the traits, and the
//! [`Tally`] of [`crate::rulesets::engine`]), `dice`, `seed` and `stats`; never `analysis`,
//! `report` or `commands`. Seeds and stream ids live at the bottom ([`crate::seed`]) so the
//! rulesets can seed their replays without importing the engine; the [`duel::MatchupResult`]
//! of a matchup is the engine's. Each ruleset's own tests that need the engine (thread-count
//! independence, squad limits in simulated squads) are here, in `ruleset_tests`.

pub mod duel;
pub mod shard;
pub mod skirmish;

/// A result-cache key of kind `kind` for ruleset `r` (its id and cost-free fingerprint,
/// [`crate::cache`]); `None` when no cache is installed or the ruleset gives no fingerprint, so
/// callers pay for the fingerprint only when it is used. Add the result's own inputs to it.
pub fn cache_key<R: crate::rulesets::Ruleset>(r: &R, kind: &str) -> Option<crate::cache::Key> {
    if !crate::cache::enabled() {
        return None;
    }
    Some(crate::cache::Key::new(kind).part(r.id()).ruleset(&r.cache_fingerprint()?))
}

/// `key` (a [`cache_key`] of `r` holding the result's other inputs, such as the distance) for
/// a one-against-one result of units `i` and `j` (an exact duel, an optimal-play solve with its
/// scripted tactic): the pair added, and where
/// [`Ruleset::duel_reads_costs`](crate::rulesets::Ruleset::duel_reads_costs) the two units'
/// list prices.
pub fn pair_key<R: crate::rulesets::Ruleset>(r: &R, key: &crate::cache::Key, i: usize, j: usize) -> crate::cache::Key {
    let k = key.clone().part(&(i, j));
    if r.duel_reads_costs() {
        let units = r.units();
        k.num(units[i].cost).num(units[j].cost)
    } else {
        k
    }
}

#[cfg(test)]
mod ruleset_tests;

use rayon::prelude::*;

use crate::dice::FastDice;
use crate::rulesets::engine::Tally;
use crate::seed::batch_seed;

/// How many trials to run and when to stop.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunPlan {
    /// Master seed (`--seed`).
    pub seed: u64,
    /// Trials per batch. Fixed for a plan: changing it changes the results of a seed.
    pub batch_size: u32,
    /// At least this many trials before the stopping rule is consulted.
    pub min_trials: u64,
    /// Never more than this many trials (`--trials`).
    pub max_trials: u64,
    /// Stop once the stopping rule's widest 95% half-width is at most this (`--target-error`);
    /// `None` runs exactly `max_trials`.
    pub target_error: Option<f64>,
}

impl RunPlan {
    /// A plan that runs exactly `trials` trials.
    pub fn fixed(seed: u64, trials: u64, batch_size: u32) -> Self {
        RunPlan { seed, batch_size, min_trials: trials, max_trials: trials, target_error: None }
    }

    fn batches_for(&self, trials: u64) -> u64 {
        trials.div_ceil(self.batch_size as u64).max(1)
    }
}

/// Runs batches of `stream` until the plan says stop, in parallel on the current rayon pool.
///
/// `play_batch(dice, first_trial, n, tally)` must play trials `first_trial .. first_trial + n`
/// with the given dice and add them to `tally`; it must use no other randomness than those
/// dice or generators seeded from the plan's seed and the trial number ([`crate::seed::trial_seed`]). Trial
/// numbers are global, so a game can alternate who goes first by trial parity.
/// `half_width(tally)` returns the widest 95% half-width the stopping rule watches.
///
/// Returns the merged tally. Identical for a seed whatever the number of threads.
pub fn run<T, P, H>(plan: &RunPlan, stream: u64, play_batch: P, half_width: H) -> T
where
    T: Tally,
    P: Fn(&mut FastDice, u64, u32, &mut T) + Sync,
    H: Fn(&T) -> f64,
{
    run_batches(plan, stream, None, play_batch, half_width)
}

/// [`run`] restricted to the batches a shard owns (`None`: all). A shard needs a fixed plan
/// (`target_error: None`): the stopping rule cannot see the other shards' tallies.
pub fn run_batches<T, P, H>(plan: &RunPlan, stream: u64, shard: Option<shard::Shard>, play_batch: P, half_width: H) -> T
where
    T: Tally,
    P: Fn(&mut FastDice, u64, u32, &mut T) + Sync,
    H: Fn(&T) -> f64,
{
    assert!(shard.is_none() || plan.target_error.is_none(), "a sharded run needs a fixed plan");
    let max_batches = plan.batches_for(plan.max_trials);
    let mut next_round = plan.batches_for(plan.min_trials.min(plan.max_trials));
    let mut done_batches = 0u64;
    let mut total = T::default();
    loop {
        let end = (done_batches + next_round).min(max_batches);
        let round: Vec<T> = (done_batches..end)
            .into_par_iter()
            .filter(|&b| shard.is_none_or(|s| s.owns(b)))
            .map(|b| {
                let mut dice = FastDice::from_seed(batch_seed(plan.seed, stream, b));
                let mut t = T::default();
                let first = b * plan.batch_size as u64;
                // The last batch is cut short so exactly `max_trials` are played at most.
                let n = (plan.max_trials - first).min(plan.batch_size as u64) as u32;
                play_batch(&mut dice, first, n, &mut t);
                t
            })
            .collect();
        for t in &round {
            total.merge(t);
        }
        done_batches = end;
        if done_batches >= max_batches {
            break;
        }
        let Some(target) = plan.target_error else {
            continue;
        };
        let hw = half_width(&total);
        if hw <= target {
            break;
        }
        // Half-width shrinks as 1/sqrt(n): aim 10% past the predicted need, at least 1 batch.
        let n = total.trials().max(1) as f64;
        let needed = n * (hw / target).powi(2) * 1.1;
        let more = ((needed - n) / plan.batch_size as f64).ceil().max(1.0) as u64;
        next_round = more.min(max_batches - done_batches);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Dice;

    #[derive(Default, Clone, Debug, PartialEq)]
    struct Sixes {
        n: u64,
        sixes: u64,
    }
    impl Tally for Sixes {
        fn merge(&mut self, o: &Self) {
            self.n += o.n;
            self.sixes += o.sixes;
        }
        fn trials(&self) -> u64 {
            self.n
        }
    }

    fn count_sixes(plan: &RunPlan) -> Sixes {
        run(
            plan,
            crate::seed::stream_id(&["test", "sixes"]),
            |d, _, n, t: &mut Sixes| {
                for _ in 0..n {
                    t.n += 1;
                    t.sixes += (d.d6() == 6) as u64;
                }
            },
            |t| {
                let p = t.sixes as f64 / t.n as f64;
                1.96 * (p * (1.0 - p) / t.n as f64).sqrt()
            },
        )
    }

    #[test]
    fn same_seed_same_tally_on_one_and_two_threads() {
        let plan =
            RunPlan { seed: 9, batch_size: 1000, min_trials: 5000, max_trials: 200_000, target_error: Some(0.002) };
        let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap().install(|| count_sixes(&plan));
        let two = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap().install(|| count_sixes(&plan));
        let three = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap().install(|| count_sixes(&plan));
        assert_eq!(one, two);
        assert_eq!(one, three);
        // And the estimate is right: 1/6 within 4 standard errors.
        let p = one.sixes as f64 / one.n as f64;
        let se = (p * (1.0 - p) / one.n as f64).sqrt();
        assert!((p - 1.0 / 6.0).abs() < 4.0 * se, "p = {p}");
    }

    #[test]
    fn stopping_rule_stops_near_the_target() {
        let (target, batch) = (0.005, 500);
        let plan = RunPlan {
            seed: 1,
            batch_size: batch,
            min_trials: 1000,
            max_trials: 10_000_000,
            target_error: Some(target),
        };
        let t = count_sixes(&plan);
        let hw = |t: &Sixes| {
            let p = t.sixes as f64 / t.n as f64;
            1.96 * (p * (1.0 - p) / t.n as f64).sqrt()
        };
        // Replay the rule round by round: a fixed plan of n trials plays the same first batches,
        // so it shows the tally the rule saw after each round.
        let mut n = 1000;
        loop {
            let seen = count_sixes(&RunPlan::fixed(1, n, batch));
            if hw(&seen) <= target {
                break;
            }
            let needed = n as f64 * (hw(&seen) / target).powi(2) * 1.1;
            n += ((needed - n as f64) / batch as f64).ceil().max(1.0) as u64 * batch as u64;
        }
        assert_eq!(t.n, n, "the rule stops at the first round whose half-width is on target");
        assert!(hw(&t) <= target);
        // Where that is, from the true p = 1/6: the need is n* = 1.96² · (5/36) / 0.005² ≈ 21 342.
        // Stopping needs the final estimate's half-width on target: n ≥ n* less 4 standard
        // errors of p̂(1−p̂) at n* (relative se (2/3) · se(p̂) / (5/36) ≈ 1.2%). The first round
        // (1000 trials) aims at 1.1 n* with relative se 5.7%, and a later round at 1.1 n* with
        // a smaller one: n ≤ 1.1 n* plus 4 standard errors of the first aim and one batch.
        let need = 1.96f64.powi(2) * (5.0 / 36.0) / (target * target);
        let rel_se = |m: f64| (2.0 / 3.0) * ((5.0 / 36.0) / m).sqrt() / (5.0 / 36.0);
        let lo = need * (1.0 - 4.0 * rel_se(need));
        let hi = 1.1 * need * (1.0 + 4.0 * rel_se(1000.0)) + batch as f64;
        assert!(t.n as f64 >= lo && t.n as f64 <= hi, "n = {} outside [{lo:.0}, {hi:.0}]", t.n);
    }

    #[test]
    fn fixed_plan_runs_exactly_the_trials_asked_for() {
        let t = count_sixes(&RunPlan::fixed(3, 2500, 1000));
        assert_eq!(t.n, 2500);
    }
}
