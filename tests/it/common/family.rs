//! A family of significance tests with a bound on the family-wise error: every
//! exact-vs-Monte-Carlo comparison of one test function goes into one `Family`, and the
//! family fails only if Holm's step-down procedure rejects a comparison at family-wise level
//! `alpha`. A correct engine therefore passes on any seed with probability at least
//! 1 − alpha, however many comparisons the family makes (Holm needs no independence).
//!
//! Each comparison has an exact p-value (proportions: the two-sided binomial test against the
//! exact probability) or a Student-t p-value (means: replicate means against the exact mean).
//!
//! Only `statrs` is used here, so the crate's own unit tests can include this file too.

use statrs::distribution::{Binomial, ContinuousCDF, DiscreteCDF, StudentsT};

/// The family-wise error rate of every exact-vs-Monte-Carlo test: one correct run in a
/// thousand fails, whatever the seed.
pub const FAMILY_ALPHA: f64 = 1e-3;

#[derive(Debug, Default)]
pub struct Family {
    checks: Vec<(String, f64)>,
}

impl Family {
    pub fn new() -> Self {
        Family::default()
    }

    /// `k` successes in `n` trials against the exact probability `p`: the two-sided exact
    /// binomial p-value, 2 · min(P(X ≤ k), P(X ≥ k)), at most 1.
    pub fn proportion(&mut self, label: impl Into<String>, k: u64, n: u64, p: f64) {
        self.checks.push((label.into(), binomial_p_value(k, n, p)));
    }

    /// Independent replicate means of one quantity against its exact value: Student's t with
    /// (replicates − 1) degrees of freedom on the standard error of their mean.
    pub fn mean(&mut self, label: impl Into<String>, replicate_means: &[f64], exact: f64) {
        self.checks.push((label.into(), mean_p_value(replicate_means, exact)));
    }

    /// A comparison whose p-value was computed elsewhere.
    pub fn p_value(&mut self, label: impl Into<String>, p: f64) {
        self.checks.push((label.into(), p));
    }

    pub fn len(&self) -> usize {
        self.checks.len()
    }

    /// The comparisons Holm's procedure rejects at family-wise level `alpha`, with p-values.
    pub fn rejected(&self, alpha: f64) -> Vec<(String, f64)> {
        let m = self.checks.len();
        let mut order: Vec<usize> = (0..m).collect();
        order.sort_by(|&a, &b| self.checks[a].1.total_cmp(&self.checks[b].1));
        let mut out = Vec::new();
        for (rank, &i) in order.iter().enumerate() {
            if self.checks[i].1 > alpha / (m - rank) as f64 {
                break;
            }
            out.push(self.checks[i].clone());
        }
        out
    }

    /// Panics, naming every rejected comparison, if Holm rejects any at `FAMILY_ALPHA`.
    pub fn assert_holds(&self) {
        assert!(!self.checks.is_empty(), "an empty family checks nothing");
        let bad = self.rejected(FAMILY_ALPHA);
        let lines: Vec<String> = bad.iter().map(|(what, p)| format!("{what} (p = {p:.2e})")).collect();
        assert!(
            bad.is_empty(),
            "{} of {} comparisons disagree at family-wise level {FAMILY_ALPHA} (Holm):\n{}",
            bad.len(),
            self.checks.len(),
            lines.join("\n")
        );
    }
}

/// Two-sided exact binomial p-value of `k` in `n` against `p` (clamped to [0, 1], so an exact
/// solver's rounding below 0 or above 1 counts as 0 or 1).
pub fn binomial_p_value(k: u64, n: u64, p: f64) -> f64 {
    assert!(k <= n, "{k} successes in {n} trials");
    let b = Binomial::new(p.clamp(0.0, 1.0), n).unwrap();
    let at_most = b.cdf(k);
    let at_least = if k == 0 { 1.0 } else { b.sf(k - 1) };
    (2.0 * at_most.min(at_least)).min(1.0)
}

/// Two-sided one-sample t-test p-value of the replicate means against `exact`.
pub fn mean_p_value(xs: &[f64], exact: f64) -> f64 {
    let r = xs.len();
    assert!(r >= 2, "a standard error needs two replicates");
    let mean = xs.iter().sum::<f64>() / r as f64;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (r - 1) as f64;
    let se = (var / r as f64).sqrt();
    // Replicates that never vary (every duel takes one turn): equal or not, nothing to test.
    let scale = 1e-9 * exact.abs().max(1.0);
    if se <= scale {
        return if (mean - exact).abs() <= scale { 1.0 } else { 0.0 };
    }
    let t = ((mean - exact) / se).abs();
    let dist = StudentsT::new(0.0, 1.0, (r - 1) as f64).unwrap();
    (2.0 * dist.sf(t)).min(1.0)
}
