//! Logistic regression by iteratively reweighted least squares (Newton's method), with the
//! model's covariance (inverse Hessian, the observed Fisher information) and a sandwich
//! covariance that holds whatever the responses' variance.
//!
//! Why not a crate: `linfa-logistic` would pull `ndarray`, `linfa` and `argmin` (with their
//! own dependency trees) for a fit of at most a few dozen coefficients; its optimiser
//! (L-BFGS) does not return the covariance matrix the intervals need. A Newton fit is the
//! textbook method (McCullagh & Nelder, *Generalized Linear Models*, §4.4) and gives the
//! covariance for free; the linear algebra (Cholesky) is `nalgebra`'s.
//!
//! Responses may be fractional (a draw counts ½): the quasi-binomial fit has the same
//! estimating equations, but a response of ½ varies less than a 0/1 one, so the binomial
//! covariance is not the right one. [`LogisticFit::robust_cov`] is the sandwich (Huber–White,
//! with the n/(n − k) small-sample factor) estimate H⁻¹ (Σ sᵢ sᵢᵀ) H⁻¹ with sᵢ = (yᵢ − pᵢ) xᵢ,
//! right for any response variance (White 1980; McCullagh & Nelder §9.2 for the quasi-likelihood
//! view); [`LogisticFit::dispersion`] is Pearson's φ, 1 for 0/1 results that follow the model.

use nalgebra::{DMatrix, DVector};

/// A fitted model: `P(y = 1 | x) = 1 / (1 + exp(−(b0 + Σ b_k x_k)))`.
#[derive(Debug, Clone, PartialEq)]
pub struct LogisticFit {
    /// Intercept first, then one coefficient per column of `x`.
    pub coef: Vec<f64>,
    /// Model (binomial) standard errors, same order: sqrt of the inverse Hessian's diagonal.
    pub se: Vec<f64>,
    /// Model covariance of the coefficients (inverse Hessian), `k × k` row-major with
    /// `k = coef.len()`.
    pub cov: Vec<f64>,
    /// Sandwich covariance (see the module docs), `k × k` row-major: the one to use when
    /// responses are fractional (draws scored ½).
    pub robust_cov: Vec<f64>,
    /// Sandwich standard errors, sqrt of `robust_cov`'s diagonal.
    pub robust_se: Vec<f64>,
    /// Pearson dispersion Σ (y − p)² / (p(1 − p)) / (n − k): about 1 when the responses are
    /// 0/1 draws of the model, below 1 when results of ½ make them less variable.
    pub dispersion: f64,
    /// Newton iterations used; `converged` is false if the cap was hit.
    pub iterations: u32,
    pub converged: bool,
}

/// Fits a logistic regression of `y` (each in [0, 1]) on the rows of `x` (each of the same
/// length `k`), with an intercept and an optional ridge penalty `ridge` (0 for none; a small
/// value keeps columns that never vary identifiable). Returns `None` if the rows are empty
/// or ragged, or the Hessian is singular.
pub fn fit(x: &[Vec<f64>], y: &[f64], ridge: f64) -> Option<LogisticFit> {
    let n = x.len();
    if n == 0 || y.len() != n {
        return None;
    }
    let k = x[0].len() + 1;
    if x.iter().any(|r| r.len() + 1 != k) {
        return None;
    }
    let design = DMatrix::from_fn(n, k, |i, j| if j == 0 { 1.0 } else { x[i][j - 1] });
    let y = DVector::from_column_slice(y);
    let mut b = DVector::zeros(k);
    let mut converged = false;
    let mut iterations = 0;
    for it in 0..100 {
        iterations = it + 1;
        let (p, h) = hessian(&design, &b, ridge);
        let mut g = design.tr_mul(&(&y - &p));
        for a in 1..k {
            g[a] -= ridge * b[a];
        }
        let step = h.cholesky()?.solve(&g);
        b += &step;
        if step.amax() < 1e-9 {
            converged = true;
            break;
        }
    }
    // Both covariances at the final coefficients.
    let (p, h) = hessian(&design, &b, ridge);
    let inv = h.cholesky()?.inverse();
    let resid = &y - &p;
    let scores = DMatrix::from_fn(n, k, |i, j| design[(i, j)] * resid[i]);
    let meat = scores.tr_mul(&scores) * (n as f64 / (n.saturating_sub(k).max(1)) as f64);
    let robust = &inv * meat * &inv;
    let pearson: f64 = (0..n).map(|i| resid[i] * resid[i] / (p[i] * (1.0 - p[i])).max(1e-12)).sum();
    let row_major = |m: &DMatrix<f64>| (0..k * k).map(|c| m[(c / k, c % k)]).collect::<Vec<f64>>();
    let diag_sqrt = |m: &DMatrix<f64>| (0..k).map(|j| m[(j, j)].max(0.0).sqrt()).collect::<Vec<f64>>();
    Some(LogisticFit {
        coef: b.iter().copied().collect(),
        se: diag_sqrt(&inv),
        cov: row_major(&inv),
        robust_se: diag_sqrt(&robust),
        robust_cov: row_major(&robust),
        dispersion: pearson / n.saturating_sub(k).max(1) as f64,
        iterations,
        converged,
    })
}

/// Fitted probabilities at `b` and the penalised Hessian Xᵀ W X (+ ridge off the intercept).
fn hessian(design: &DMatrix<f64>, b: &DVector<f64>, ridge: f64) -> (DVector<f64>, DMatrix<f64>) {
    let p = (design * b).map(|eta| 1.0 / (1.0 + (-eta).exp()));
    let weighted =
        DMatrix::from_fn(design.nrows(), design.ncols(), |i, j| design[(i, j)] * (p[i] * (1.0 - p[i])).max(1e-12));
    let mut h = design.tr_mul(&weighted);
    for a in 1..h.ncols() {
        h[(a, a)] += ridge;
    }
    (p, h)
}

/// Covariance of the linear combinations Σ gₐ bₐ and Σ hₐ bₐ of a fit's coefficients under
/// the `k × k` row-major covariance `cov`: gᵀ Σ h (the variance for h = g).
pub fn combination_covariance(cov: &[f64], g: &[f64], h: &[f64]) -> f64 {
    let k = g.len();
    (0..k).map(|a| (0..k).map(|c| g[a] * cov[a * k + c] * h[c]).sum::<f64>()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 20,000 rows with y ~ Bernoulli(logistic(0.5 + 1.0 x1 − 0.7 x2)) on a pseudo-random
    /// design from `seed`.
    fn known_model(seed: u64) -> (Vec<Vec<f64>>, Vec<f64>) {
        let mut state = seed;
        let mut unif = || {
            state = crate::seed::splitmix64(state);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let (mut x, mut y) = (Vec::new(), Vec::new());
        for _ in 0..20_000 {
            let (a, b) = (unif() * 4.0 - 2.0, unif() * 4.0 - 2.0);
            let p = 1.0 / (1.0 + (-(0.5 + a - 0.7 * b)).exp());
            x.push(vec![a, b]);
            y.push(if unif() < p { 1.0 } else { 0.0 });
        }
        (x, y)
    }

    #[test]
    fn recovers_known_coefficients_within_their_standard_errors() {
        let (x, y) = known_model(12345);
        let f = fit(&x, &y, 0.0).unwrap();
        assert!(f.converged);
        for (j, truth) in [0.5, 1.0, -0.7].iter().enumerate() {
            assert!((f.coef[j] - truth).abs() < 4.0 * f.se[j], "coef {j}: {} ± {}", f.coef[j], f.se[j]);
            assert!(f.se[j] > 0.005 && f.se[j] < 0.1);
        }
    }

    #[test]
    fn sandwich_and_model_errors_agree_for_zero_one_results_that_follow_the_model() {
        // 0/1 results that follow the model: both covariances estimate the same thing, and
        // Pearson's dispersion is about 1 (its sd is about sqrt(2/n) ≈ 0.01 here).
        let (x, y) = known_model(777);
        let f = fit(&x, &y, 0.0).unwrap();
        assert!((f.dispersion - 1.0).abs() < 0.05, "{}", f.dispersion);
        for j in 0..3 {
            assert!((f.robust_se[j] / f.se[j] - 1.0).abs() < 0.05, "{j}: {} vs {}", f.robust_se[j], f.se[j]);
        }
    }

    #[test]
    fn a_column_that_never_varies_is_singular_without_a_ridge_and_fitted_with_one() {
        let x: Vec<Vec<f64>> = (0..100).map(|i| vec![(i % 3) as f64, 0.0]).collect();
        let y: Vec<f64> = (0..100).map(|i| (i % 2) as f64).collect();
        assert!(fit(&x, &y, 0.0).is_none());
        let f = fit(&x, &y, 1e-6).unwrap();
        assert!(f.converged && f.coef[2].abs() < 1e-9, "{f:?}");
    }

    #[test]
    fn a_two_by_two_table_matches_the_closed_form() {
        // Group x=0: 30 of 100 succeed; x=1: 60 of 100. Then b0 = logit(0.3), b1 = logit(0.6) − logit(0.3),
        // se(b1)² = 1/30 + 1/70 + 1/60 + 1/40.
        let mut x = Vec::new();
        let mut y = Vec::new();
        for (v, s) in [(0.0, 30), (1.0, 60)] {
            for i in 0..100 {
                x.push(vec![v]);
                y.push(if i < s { 1.0 } else { 0.0 });
            }
        }
        let f = fit(&x, &y, 0.0).unwrap();
        let logit = |p: f64| (p / (1.0 - p)).ln();
        assert!((f.coef[0] - logit(0.3)).abs() < 1e-8);
        assert!((f.coef[1] - (logit(0.6) - logit(0.3))).abs() < 1e-8);
        let se1 = (1.0 / 30.0 + 1.0 / 70.0 + 1.0 / 60.0 + 1.0 / 40.0f64).sqrt();
        assert!((f.se[1] - se1).abs() < 1e-8);
    }
}
