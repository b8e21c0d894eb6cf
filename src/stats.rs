//! Estimates with intervals: Wilson score intervals for proportions, normal intervals for means.
//!
//! Every number pointsworth prints carries a 95% interval. Proportions (win rates) use the
//! Wilson score interval, which stays inside [0, 1] and behaves near 0 and 1 where the normal
//! approximation does not. Scores that count a draw as half a win have less variance than a
//! proportion; they use the Wilson formula with the *effective* sample size
//! `n · p(1−p) / var`, which equals `n` when there are no draws.

use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, Normal};

/// Two-sided confidence level used for every interval in reports: 95%.
pub const CONFIDENCE: f64 = 0.95;

/// A point estimate with a two-sided confidence interval `[lo, hi]`.
///
/// For probabilities all three lie in [0, 1]. For an exact result `lo == value == hi`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    pub value: f64,
    pub lo: f64,
    pub hi: f64,
}

impl Estimate {
    /// An exact value: the interval is the point itself.
    pub fn exact(value: f64) -> Self {
        Estimate { value, lo: value, hi: value }
    }

    /// Half the interval width, the "±" a reader sees.
    pub fn half_width(&self) -> f64 {
        (self.hi - self.lo) / 2.0
    }

    /// Whether `x` lies inside the closed interval.
    pub fn contains(&self, x: f64) -> bool {
        self.lo <= x && x <= self.hi
    }

    /// `[lo, hi]`, the shape `--json` prints.
    pub fn interval(&self) -> [f64; 2] {
        [self.lo, self.hi]
    }
}

/// The standard normal quantile z with P(|Z| ≤ z) = `confidence` (1.959964 for 0.95).
///
/// `confidence` must lie in (0, 1); it panics otherwise (a programming error, not input).
pub fn z_for(confidence: f64) -> f64 {
    assert!(confidence > 0.0 && confidence < 1.0, "confidence must be in (0, 1)");
    let n = Normal::standard();
    n.inverse_cdf(0.5 + confidence / 2.0)
}

/// Wilson score interval for `successes` out of `trials` at the given two-sided `confidence`.
///
/// With `trials == 0` the estimate is 0.5 with the interval [0, 1] (nothing is known).
pub fn wilson(successes: f64, trials: f64, confidence: f64) -> Estimate {
    if trials <= 0.0 {
        return Estimate { value: 0.5, lo: 0.0, hi: 1.0 };
    }
    let p = successes / trials;
    wilson_from(p, trials, z_for(confidence))
}

fn wilson_from(p: f64, n: f64, z: f64) -> Estimate {
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    // At p = 0 (p = 1) the lower (upper) Wilson bound is exactly 0 (1); say so despite rounding.
    let lo = if p <= 0.0 { 0.0 } else { (centre - half).max(0.0) };
    let hi = if p >= 1.0 { 1.0 } else { (centre + half).min(1.0) };
    Estimate { value: p, lo, hi }
}

/// The score of a side that counts a win as 1 and a draw as ½: `(wins + draws/2) / trials`,
/// with a Wilson interval at the effective sample size (see the module docs).
pub fn score(wins: u64, draws: u64, trials: u64, confidence: f64) -> Estimate {
    if trials == 0 {
        return Estimate { value: 0.5, lo: 0.0, hi: 1.0 };
    }
    let n = trials as f64;
    let p = (wins as f64 + 0.5 * draws as f64) / n;
    let second_moment = (wins as f64 + 0.25 * draws as f64) / n;
    let var = (second_moment - p * p).max(0.0);
    let binom = p * (1.0 - p);
    let n_eff = if var > 0.0 && binom > 0.0 { (n * binom / var).max(n) } else { n };
    wilson_from(p, n_eff, z_for(confidence))
}

/// A normal-approximation interval for a mean with standard error `se`, clipped to
/// `[floor, ceil]` (use `f64::NEG_INFINITY`/`INFINITY` for no clipping).
pub fn normal(mean: f64, se: f64, confidence: f64, floor: f64, ceil: f64) -> Estimate {
    let h = z_for(confidence) * se;
    Estimate { value: mean, lo: (mean - h).max(floor), hi: (mean + h).min(ceil) }
}

/// Mean of independent estimates, each given with its standard error, as an estimate with a
/// normal interval: the standard error of the mean is `sqrt(Σ se²) / k`.
///
/// Returns `None` for an empty slice.
pub fn mean_of(values: &[(f64, f64)], confidence: f64, floor: f64, ceil: f64) -> Option<Estimate> {
    if values.is_empty() {
        return None;
    }
    let k = values.len() as f64;
    let mean = values.iter().map(|v| v.0).sum::<f64>() / k;
    let se = values.iter().map(|v| v.1 * v.1).sum::<f64>().sqrt() / k;
    Some(normal(mean, se, confidence, floor, ceil))
}

/// Per-cluster sums of a proportion counted in clusters (games): for cluster g with `t_g`
/// trials (units fielded) and `s_g` successes (survivors), the totals Σ s, Σ t and the
/// second moments Σ s², Σ s·t, Σ t² over `clusters` clusters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClusterSums {
    pub successes: u64,
    pub trials: u64,
    pub successes_sq: u64,
    pub successes_trials: u64,
    pub trials_sq: u64,
    pub clusters: u64,
}

/// The proportion Σ s / Σ t with a cluster-robust 95% interval: the ratio estimator's
/// variance over clusters, V = G/(G − 1) · Σ_g (s_g − p t_g)² / (Σ t)² (Cochran, *Sampling
/// Techniques*, §6.4; the "sandwich" for a mean clustered by g), turned into a Wilson interval
/// at the effective sample size p(1 − p)/V. Trials of one cluster that move together (units
/// of one game) make V larger than the binomial p(1 − p)/Σ t and the interval wider; with one
/// trial per cluster it is the plain Wilson interval up to the G/(G − 1) factor. At p = 0 or
/// 1, or with fewer than two clusters, the variance cannot be estimated and the plain Wilson
/// interval over Σ t is used.
pub fn clustered_proportion(c: &ClusterSums, confidence: f64) -> Estimate {
    if c.trials == 0 {
        return Estimate { value: 0.5, lo: 0.0, hi: 1.0 };
    }
    let (s, t) = (c.successes as f64, c.trials as f64);
    let p = s / t;
    let g = c.clusters as f64;
    let dev = c.successes_sq as f64 - 2.0 * p * c.successes_trials as f64 + p * p * c.trials_sq as f64;
    let var = if c.clusters >= 2 { g / (g - 1.0) * dev.max(0.0) / (t * t) } else { 0.0 };
    let binom = p * (1.0 - p);
    let n_eff = if var > 0.0 && binom > 0.0 { binom / var } else { t };
    wilson_from(p, n_eff, z_for(confidence))
}

/// Standard error of a score estimate `(wins + draws/2)/trials` from its tallies.
pub fn score_se(wins: u64, draws: u64, trials: u64) -> f64 {
    if trials == 0 {
        return 0.5;
    }
    let n = trials as f64;
    let p = (wins as f64 + 0.5 * draws as f64) / n;
    let m2 = (wins as f64 + 0.25 * draws as f64) / n;
    ((m2 - p * p).max(0.0) / n).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn z_is_the_familiar_1_96() {
        assert!((z_for(0.95) - 1.959964).abs() < 1e-6);
        assert!((z_for(0.999) - 3.290527).abs() < 1e-6);
    }

    #[test]
    fn wilson_matches_the_textbook_value() {
        // 81 successes out of 263 (Wilson 1927 worked example in many texts): [0.2553, 0.3662].
        let e = wilson(81.0, 263.0, 0.95);
        assert!((e.lo - 0.2553).abs() < 5e-4, "{e:?}");
        assert!((e.hi - 0.3662).abs() < 5e-4, "{e:?}");
    }

    #[test]
    fn wilson_stays_inside_unit_interval_at_the_edges() {
        let e = wilson(0.0, 10.0, 0.95);
        assert_eq!(e.lo, 0.0);
        assert!(e.hi > 0.2 && e.hi < 0.35);
        let e = wilson(10.0, 10.0, 0.95);
        assert_eq!(e.hi, 1.0);
    }

    #[test]
    fn score_without_draws_is_plain_wilson() {
        assert_eq!(score(30, 0, 100, 0.95), wilson(30.0, 100.0, 0.95));
    }

    #[test]
    fn draws_narrow_the_score_interval() {
        let with = score(30, 40, 100, 0.95);
        let without = wilson(50.0, 100.0, 0.95);
        assert!((with.value - 0.5).abs() < 1e-12);
        assert!(with.half_width() < without.half_width());
    }

    #[test]
    fn clustered_proportion_with_one_trial_per_cluster_is_wilson() {
        // 1000 clusters of one trial, 300 successes: V = G/(G−1) p(1−p)/n, so the interval is
        // Wilson's at n (G − 1)/G.
        let c = ClusterSums {
            successes: 300,
            trials: 1000,
            successes_sq: 300,
            successes_trials: 300,
            trials_sq: 1000,
            clusters: 1000,
        };
        let e = clustered_proportion(&c, 0.95);
        assert_eq!(e, wilson_from(0.3, 999.0, z_for(0.95)));
        // Nothing survives: the variance is unknowable, the plain Wilson interval stands.
        let none = ClusterSums { successes: 0, successes_sq: 0, successes_trials: 0, ..c };
        assert_eq!(clustered_proportion(&none, 0.95), wilson(0.0, 1000.0, 0.95));
    }
}
