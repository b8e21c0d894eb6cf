//! Logistic regression by iteratively reweighted least squares (Newton's method), with
//! standard errors from the inverse Hessian (the observed Fisher information).
//!
//! Why not a crate: `linfa-logistic` would pull `ndarray`, `linfa` and `argmin` (with their
//! own dependency trees) for a fit of at most a few dozen coefficients; its optimiser
//! (L-BFGS) does not return the covariance matrix the intervals need. A Newton fit is the
//! textbook method (McCullagh & Nelder, *Generalized Linear Models*, §4.4) and gives the
//! covariance for free. Responses may be fractional (a draw counts ½): the quasi-binomial
//! fit has the same estimating equations.

/// A fitted model: `P(y = 1 | x) = 1 / (1 + exp(−(b0 + Σ b_k x_k)))`.
#[derive(Debug, Clone, PartialEq)]
pub struct LogisticFit {
    /// Intercept first, then one coefficient per column of `x`.
    pub coef: Vec<f64>,
    /// Standard errors, same order (sqrt of the inverse Hessian's diagonal).
    pub se: Vec<f64>,
    /// Covariance matrix of the coefficients (inverse Hessian), `k × k` row-major with
    /// `k = coef.len()`.
    pub cov: Vec<f64>,
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
    let row = |i: usize, j: usize| if j == 0 { 1.0 } else { x[i][j - 1] };
    let mut b = vec![0.0; k];
    let mut converged = false;
    let mut iterations = 0;
    let mut h = vec![0.0; k * k];
    for it in 0..100 {
        iterations = it + 1;
        let mut g = vec![0.0; k];
        h.iter_mut().for_each(|v| *v = 0.0);
        for i in 0..n {
            let eta: f64 = (0..k).map(|j| b[j] * row(i, j)).sum();
            let p = 1.0 / (1.0 + (-eta).exp());
            let w = (p * (1.0 - p)).max(1e-12);
            for a in 0..k {
                let xa = row(i, a);
                g[a] += (y[i] - p) * xa;
                for c in a..k {
                    h[a * k + c] += w * xa * row(i, c);
                }
            }
        }
        for a in 0..k {
            for c in 0..a {
                h[a * k + c] = h[c * k + a];
            }
            if a > 0 {
                h[a * k + a] += ridge;
                g[a] -= ridge * b[a];
            }
        }
        let step = solve(&h, &g, k)?;
        let mut biggest: f64 = 0.0;
        for j in 0..k {
            b[j] += step[j];
            biggest = biggest.max(step[j].abs());
        }
        if biggest < 1e-9 {
            converged = true;
            break;
        }
    }
    let inv = invert(&h, k)?;
    let se = (0..k).map(|j| inv[j * k + j].max(0.0).sqrt()).collect();
    Some(LogisticFit { coef: b, se, cov: inv, iterations, converged })
}

/// Cholesky factor of a symmetric positive definite `k × k` matrix (row-major), lower.
fn cholesky(a: &[f64], k: usize) -> Option<Vec<f64>> {
    let mut l = vec![0.0; k * k];
    for i in 0..k {
        for j in 0..=i {
            let s: f64 = a[i * k + j] - (0..j).map(|m| l[i * k + m] * l[j * k + m]).sum::<f64>();
            if i == j {
                if s <= 0.0 {
                    return None;
                }
                l[i * k + i] = s.sqrt();
            } else {
                l[i * k + j] = s / l[j * k + j];
            }
        }
    }
    Some(l)
}

fn solve_chol(l: &[f64], b: &[f64], k: usize) -> Vec<f64> {
    let mut z = vec![0.0; k];
    for i in 0..k {
        z[i] = (b[i] - (0..i).map(|m| l[i * k + m] * z[m]).sum::<f64>()) / l[i * k + i];
    }
    let mut x = vec![0.0; k];
    for i in (0..k).rev() {
        x[i] = (z[i] - (i + 1..k).map(|m| l[m * k + i] * x[m]).sum::<f64>()) / l[i * k + i];
    }
    x
}

fn solve(a: &[f64], b: &[f64], k: usize) -> Option<Vec<f64>> {
    Some(solve_chol(&cholesky(a, k)?, b, k))
}

fn invert(a: &[f64], k: usize) -> Option<Vec<f64>> {
    let l = cholesky(a, k)?;
    let mut inv = vec![0.0; k * k];
    for c in 0..k {
        let mut e = vec![0.0; k];
        e[c] = 1.0;
        let col = solve_chol(&l, &e, k);
        for r in 0..k {
            inv[r * k + c] = col[r];
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovers_known_coefficients_within_their_standard_errors() {
        // y ~ Bernoulli(logistic(0.5 + 1.0 x1 − 0.7 x2)) with a fixed pseudo-random design.
        let mut state = 12345u64;
        let mut unif = || {
            state = crate::sim::splitmix64(state);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let (mut x, mut y) = (Vec::new(), Vec::new());
        for _ in 0..20_000 {
            let (a, b) = (unif() * 4.0 - 2.0, unif() * 4.0 - 2.0);
            let p = 1.0 / (1.0 + (-(0.5 + a - 0.7 * b)).exp());
            x.push(vec![a, b]);
            y.push(if unif() < p { 1.0 } else { 0.0 });
        }
        let f = fit(&x, &y, 0.0).unwrap();
        assert!(f.converged);
        for (j, truth) in [0.5, 1.0, -0.7].iter().enumerate() {
            assert!((f.coef[j] - truth).abs() < 4.0 * f.se[j], "coef {j}: {} ± {}", f.coef[j], f.se[j]);
            assert!(f.se[j] > 0.005 && f.se[j] < 0.1);
        }
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
