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
}
