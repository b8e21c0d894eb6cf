//! The balance solver: fair costs by simulation, a balanced cost list, the Lanchester
//! estimate, Bradley–Terry strengths and the Nash-equilibrium mix (DESIGN.md, "Analysis").
//!
//! Why it is built this way:
//!
//! - **Fixed trials, common random numbers.** Every evaluation of a matchup during the search
//!   plays exactly `trials` trials under one seed ([`RunPlan::fixed`]); the stream id of a
//!   matchup does not depend on costs, and each trial has a generator of its own that draws
//!   the squad sizes first ([`simulate_at_costs`]). So trial `k` at two prices of one unit
//!   plays the same battle whenever its squads come out the same (most trials, for prices a
//!   few percent apart), and only the trials a price changes differ: the difference between
//!   two prices' efficiencies is mostly the effect of the price, not fresh noise (the scores
//!   of a seed at prices 5% apart correlate at about 0.9, a test in `sim::duel` measures it),
//!   so the bisection does not chase noise. (The adaptive stopping rule would break this: its
//!   trial count depends on the result, so two prices would see different numbers of trials.)
//! - **Bisection in log cost with false position (Illinois).** Efficiency falls as the cost
//!   rises (fewer models per squad), smoothly once the random extra model of a points-matched
//!   squad interpolates between squad sizes; false position on ln(cost) converges in a handful
//!   of evaluations where plain halving needs a dozen.
//! - **The interval of a fair cost** is the efficiency interval carried through the local
//!   slope (the delta method for an inverse regression): the efficiency at the fair cost has
//!   standard error `se`; the efficiency curve near it falls by `|slope|` per point, measured by
//!   a central difference over ±5% of the root with common random numbers (a narrow bracket's
//!   secant is too noisy, a wide fit averages a curved, often steep, function; both overstate
//!   the interval); so the cost has standard error `se / |slope|`. Under common random numbers
//!   most of a seed's noise is shared by nearby prices: it moves the seed's curve up or down
//!   nearly as a whole, which is what `se / |slope|` captures, while the slope itself, a
//!   difference of two correlated scores, carries little noise of its own. The interval adds
//!   the final bracket's half-width for the search's own resolution.
//! - **The balanced list** iterates all costs jointly: it starts from the independent fair
//!   costs, then takes damped Newton steps in ln(cost) using each unit's slope, keeping the mean
//!   cost of the list equal to the current list's (points are relative; the anchor keeps army
//!   sizes as designed). Then it rounds to the ruleset's cost step and improves the rounded
//!   list one step of one unit at a time while the sum of squared deviations from 0.5 falls.
//!   Units still outside the tolerance are reported, as are units whose efficiency stays on one
//!   side of 0.5 at every price searched (rules, not price, decide them: *rules-limited*).
//!   Rules-limited units leave the field of the balanced list: each other unit's efficiency
//!   there is its mean score against the units a price can balance, because a unit that loses
//!   to everything at any cost would otherwise lift every other unit above 50% whatever the
//!   list (with k units, by up to 1/(2(k − 1))), and no list could come within the tolerance.
//! - **Step-limited units.** Efficiency can be steep in cost (a squad of 150 points holds 6
//!   models at 25 points but 5 at 30), so a coarse step may have no multiple within the
//!   tolerance. For each unit still outside, the solver re-evaluates it one step towards 50%
//!   with the rest of the list unchanged; when the two costs straddle 50% and neither is within
//!   the tolerance, the unit is *step-limited*: the step, not the price search, is the limit,
//!   and the report says between which two costs to price it. The anchor, whose price never
//!   moves, is judged the same way (one step of its own price straddling 50% means the others'
//!   whole steps cannot reach it). The list is then "balanced as far as the step allows".
//! - **Fresh-seed check.** The rounded list is re-simulated under `seed + 1`: the numbers a
//!   designer playing the written config would see, not the ones the search tuned against.

use indicatif::ProgressBar;
use rayon::prelude::*;

use crate::analysis::Matrix;
use crate::format::fmt_cost;
use crate::rulesets::Ruleset;
use crate::rulesets::engine::{BalanceSettings, FairCostRow, FairCosts, FairSearch};
use crate::sim::RunPlan;
use crate::sim::duel::{SquadPlay, Squads, simulate_at_costs, simulate_played};
use crate::stats::{CONFIDENCE, Estimate, normal, score, score_se, z_for};

/// The fixed-trial evaluator: every call with the same units and costs gives the same numbers.
struct Evaluator<'a, R: Ruleset> {
    r: &'a R,
    s: &'a BalanceSettings,
    plan: RunPlan,
    progress: &'a ProgressBar,
    /// Which units count as opponents in an efficiency (the field): all, except in the
    /// balanced list, where units no price balances are left out (see [`solve`]).
    field: Vec<bool>,
}

/// A score with its standard error.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Score {
    value: f64,
    se: f64,
}

impl<R: Ruleset> Evaluator<'_, R> {
    /// Score of unit `a`'s squad at cost `ca` against unit `b`'s at `cb`.
    fn pair(&self, a: usize, b: usize, ca: f64, cb: f64) -> Score {
        let squads = Squads::PointsMatched { budget: self.s.budget };
        // The squads' equilibrium play where the report solved it (held at every price).
        let t = match self.s.squad_mixes.as_ref().and_then(|m| m.play(a, b)) {
            Some(p) => {
                simulate_played(self.r, a, b, [ca, cb], self.s.distance, squads, &self.plan, SquadPlay::Mixed(&p))
            }
            None => simulate_at_costs(self.r, a, b, [ca, cb], self.s.distance, squads, &self.plan),
        };
        self.progress.inc(1);
        let value = score(t.a_wins, t.draws, t.trials, CONFIDENCE).value;
        Score { value, se: score_se(t.a_wins, t.draws, t.trials) }
    }

    /// Efficiency of `i` priced `ci` against every other unit at `costs`: mean score and se.
    fn row(&self, i: usize, ci: f64, costs: &[f64]) -> Score {
        let others: Vec<Score> =
            opponents(i, &self.field).into_par_iter().map(|j| self.pair(i, j, ci, costs[j])).collect();
        mean_score(&others)
    }

    /// Scores of every ordered pair at `costs` (`m[i][j]`, row i's score; diagonal 0.5),
    /// each unordered pair simulated once with the lower index as side A.
    fn matrix(&self, costs: &[f64]) -> Vec<Vec<Score>> {
        let k = costs.len();
        let pairs: Vec<(usize, usize)> = (0..k).flat_map(|i| (i + 1..k).map(move |j| (i, j))).collect();
        let solved: Vec<Score> = pairs.par_iter().map(|&(i, j)| self.pair(i, j, costs[i], costs[j])).collect();
        let mut m = vec![vec![Score { value: 0.5, se: 0.0 }; k]; k];
        for (&(i, j), sc) in pairs.iter().zip(solved) {
            m[i][j] = sc;
            m[j][i] = Score { value: 1.0 - sc.value, se: sc.se };
        }
        m
    }

    /// Recomputes row and column `i` of `m` after unit `i`'s cost changed.
    fn update(&self, m: &mut [Vec<Score>], i: usize, costs: &[f64]) {
        let k = costs.len();
        let solved: Vec<(usize, Score)> = (0..k)
            .into_par_iter()
            .filter(|&j| j != i)
            .map(|j| {
                let (a, b) = (i.min(j), i.max(j));
                (j, self.pair(a, b, costs[a], costs[b]))
            })
            .collect();
        for (j, sc) in solved {
            let (a, b) = (i.min(j), i.max(j));
            m[a][b] = sc;
            m[b][a] = Score { value: 1.0 - sc.value, se: sc.se };
        }
    }
}

fn mean_score(xs: &[Score]) -> Score {
    if xs.is_empty() {
        return Score { value: 0.5, se: 0.0 };
    }
    let k = xs.len() as f64;
    Score {
        value: xs.iter().map(|x| x.value).sum::<f64>() / k,
        se: xs.iter().map(|x| x.se * x.se).sum::<f64>().sqrt() / k,
    }
}

/// The units unit `i` is scored against: every other unit of `field`, or every other unit
/// when the field holds no other.
fn opponents(i: usize, field: &[bool]) -> Vec<usize> {
    let in_field: Vec<usize> = (0..field.len()).filter(|&j| j != i && field[j]).collect();
    if in_field.is_empty() { (0..field.len()).filter(|&j| j != i).collect() } else { in_field }
}

/// Each unit's efficiency in matrix `m`: its mean score against the field (see [`opponents`]).
fn efficiencies(m: &[Vec<Score>], field: &[bool]) -> Vec<Score> {
    (0..m.len()).map(|i| mean_score(&opponents(i, field).into_iter().map(|j| m[i][j]).collect::<Vec<_>>())).collect()
}

fn estimate(s: Score) -> Estimate {
    normal(s.value, s.se, CONFIDENCE, 0.0, 1.0)
}

/// Lowest and highest price searched for a unit now costing `cost`: a quarter to four times
/// the cost, never below the cost step nor so cheap that a squad exceeds 60 models.
fn search_range(cost: f64, s: &BalanceSettings) -> (f64, f64) {
    let lo = (cost / 4.0).max(s.cost_step).max(s.budget / 60.0);
    (lo.min(cost), (cost * 4.0).max(cost))
}

/// How much of the printed interval the search's own resolution may make: the search stops
/// once the final bracket's standard deviation `(hi − lo)/√12` is at most this fraction of the
/// statistical one `se / |slope|` (the secant across the bracket), which then widens the
/// interval the report prints by at most √(1 + 0.3²) − 1 ≈ 4%.
const RESOLVED: f64 = 0.3;

/// False position on ln cost (Illinois variant) for unit `i`'s fair cost with every other cost
/// at `costs`, from its current cost; `guess` (the Lanchester estimate, when the ruleset has
/// one) is the second price tried when it lies on the side the first says the root is. Stops
/// at `max_evals` prices, at a bracket within 1%, or once the bracket is narrow against the
/// interval the report prints ([`RESOLVED`]).
fn fair_cost_search<R: Ruleset>(
    ev: &Evaluator<'_, R>,
    i: usize,
    costs: &[f64],
    max_evals: usize,
    guess: Option<f64>,
) -> FairSearch {
    let c0 = costs[i];
    let (lo_bound, hi_bound) = search_range(c0, ev.s);
    let mut points: Vec<(f64, f64, f64)> = Vec::new();
    let eval = |c: f64, points: &mut Vec<(f64, f64, f64)>| -> f64 {
        let sc = ev.row(i, c, costs);
        points.push((c, sc.value, sc.se));
        sc.value - 0.5
    };
    let f0 = eval(c0, &mut points);
    // Bracket: the analytic guess if it lies the right way (at least 5% off), then walk by
    // factors of 1.5 toward the root until the sign changes.
    let (mut lo, mut flo, mut hi, mut fhi) = (c0, f0, c0, f0);
    let up = f0 > 0.0;
    if let Some(g) = guess.filter(|g| g.is_finite() && f0 != 0.0) {
        let c = if up { g.clamp(c0 * 1.05, hi_bound) } else { g.clamp(lo_bound, c0 / 1.05) };
        if (up && g > c0 * 1.05 && c0 < hi_bound) || (!up && g < c0 / 1.05 && c0 > lo_bound) {
            let f = eval(c, &mut points);
            if up {
                (lo, flo, hi, fhi) = if f > 0.0 { (c, f, c, f) } else { (c0, f0, c, f) };
            } else {
                (lo, flo, hi, fhi) = if f < 0.0 { (c, f, c, f) } else { (c, f, c0, f0) };
            }
        }
    }
    loop {
        let (edge, bound) = if up { (hi, hi_bound) } else { (lo, lo_bound) };
        if (up && fhi <= 0.0) || (!up && flo >= 0.0) {
            break;
        }
        if (up && edge >= bound) || (!up && edge <= bound) {
            let e = 0.5 + if up { fhi } else { flo };
            let note = if up {
                format!("still {:.1}% efficient at {} points (4× its cost): rules, not price", 100.0 * e, round2(bound))
            } else {
                format!("only {:.1}% efficient even at {} points: rules, not price", 100.0 * e, round2(bound))
            };
            return FairSearch { fair: None, slope: None, points, note };
        }
        let c = if up { (edge * 1.5).min(bound) } else { (edge / 1.5).max(bound) };
        let f = eval(c, &mut points);
        if up {
            (lo, flo) = (hi, fhi);
            (hi, fhi) = (c, f);
        } else {
            (hi, fhi) = (lo, flo);
            (lo, flo) = (c, f);
        }
    }
    // Now flo >= 0 >= fhi. False position in ln(cost), Illinois: halve the stale end's value.
    let (mut glo, mut ghi) = (flo, fhi);
    let mut side = 0i8;
    // Resolved: the bracket's spread is small against the statistical interval at its ends.
    let resolved = |lo: f64, flo: f64, hi: f64, fhi: f64, points: &[(f64, f64, f64)]| {
        let se = points.iter().rev().take(2).map(|p| p.2).fold(0.0, f64::max);
        let slope = (fhi - flo) / (hi - lo);
        slope < 0.0 && (hi - lo) / 12f64.sqrt() <= RESOLVED * se / -slope
    };
    while points.len() < max_evals && hi / lo > 1.01 && flo != 0.0 && fhi != 0.0 && !resolved(lo, flo, hi, fhi, &points)
    {
        let (a, b) = (lo.ln(), hi.ln());
        let t = (glo / (glo - ghi)).clamp(0.1, 0.9);
        let c = (a + t * (b - a)).exp();
        let f = eval(c, &mut points);
        if f > 0.0 {
            (lo, flo, glo) = (c, f, f);
            if side == 1 {
                ghi /= 2.0;
            }
            side = 1;
        } else {
            (hi, fhi, ghi) = (c, f, f);
            if side == -1 {
                glo /= 2.0;
            }
            side = -1;
        }
    }
    let root = if flo == 0.0 {
        lo
    } else if fhi == 0.0 {
        hi
    } else {
        lo + (hi - lo) * flo / (flo - fhi)
    };
    // The local slope: a central difference over ±5% of the root, both prices played with the
    // same dice trial by trial (common random numbers): the trials whose squads are the same
    // at both prices play identically, so the difference is the effect of the price on the
    // trials it changes.
    let (cm, cp) = (root / 1.05, root * 1.05);
    let (fm, fp) = (eval(cm, &mut points), eval(cp, &mut points));
    let slope = if fp < fm { Some((fp - fm) / (cp - cm)) } else { local_slope(&points, root, (lo, flo), (hi, fhi)) };
    let se = points[..points.len() - 2]
        .iter()
        .min_by(|x, y| (x.0 - root).abs().total_cmp(&(y.0 - root).abs()))
        .map_or(0.0, |p| p.2);
    let fair = match slope {
        Some(sl) => {
            // The search's resolution: the root lies somewhere in the final bracket (uniform),
            // unless a price hit 0.5 exactly.
            let resolution = if flo == 0.0 || fhi == 0.0 { 0.0 } else { (hi - lo) / 12f64.sqrt() };
            let sd = ((se / sl).powi(2) + resolution.powi(2)).sqrt();
            let h = z_for(CONFIDENCE) * sd;
            Estimate { value: root, lo: (root - h).max(0.0), hi: root + h }
        }
        None => Estimate { value: root, lo: 0.0, hi: f64::INFINITY },
    };
    let note = if slope.is_none() {
        "efficiency does not fall with cost here: interval unknown".into()
    } else {
        String::new()
    };
    FairSearch { fair: Some(fair), slope, points, note }
}

/// Fallback slope of efficiency against cost at the root when the central difference is not
/// negative (noise on a flat stretch): the secant across the final bracket, else the
/// least-squares slope through the prices within ±50% of `root`. `None` unless negative.
fn local_slope(points: &[(f64, f64, f64)], root: f64, lo: (f64, f64), hi: (f64, f64)) -> Option<f64> {
    if hi.0 > lo.0 && hi.1 < lo.1 {
        return Some((hi.1 - lo.1) / (hi.0 - lo.0));
    }
    let near: Vec<(f64, f64)> =
        points.iter().filter(|p| p.0 >= root / 1.5 && p.0 <= root * 1.5).map(|p| (p.0, p.1)).collect();
    if near.len() < 2 {
        return None;
    }
    let n = near.len() as f64;
    let (mx, my) = (near.iter().map(|p| p.0).sum::<f64>() / n, near.iter().map(|p| p.1).sum::<f64>() / n);
    let sxy: f64 = near.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let sxx: f64 = near.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let slope = if sxx > 0.0 { sxy / sxx } else { 0.0 };
    (slope < 0.0).then_some(slope)
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// Lanchester square-law estimates (points) for every unit, or `None` where the ruleset has
/// no terms. L_i = √(F_i · H_i): F_i = mean over the other units j of the expected hits one
/// activation of i scores on j; H_i = mean over j of the hits j needs to destroy i. Two units
/// priced in the ratio L_i / L_j are even under the square law when they face each other
/// (k_ij N_i² = k_ji N_j² with kill rates k_ij = F_ij / H_ji). Scaled so the mean estimate
/// equals the mean current cost of the units that have one.
pub fn lanchester_estimates<R: Ruleset>(r: &R) -> Vec<Option<(f64, (f64, f64))>> {
    let k = r.units().len();
    let raw: Vec<Option<(f64, (f64, f64))>> = (0..k)
        .map(|i| {
            let mut f = 0.0;
            let mut h = 0.0;
            let mut n = 0.0;
            for j in (0..k).filter(|&j| j != i || k == 1) {
                let (fij, hij) = r.lanchester(i, j)?;
                f += fij;
                h += hij;
                n += 1.0;
            }
            (n > 0.0).then(|| (((f / n) * (h / n)).sqrt(), (f / n, h / n)))
        })
        .collect();
    let have: Vec<(f64, f64)> = raw.iter().zip(r.units()).filter_map(|(x, u)| x.map(|(l, _)| (l, u.cost))).collect();
    let (sum_l, sum_c) = have.iter().fold((0.0, 0.0), |a, x| (a.0 + x.0, a.1 + x.1));
    if sum_l <= 0.0 {
        return vec![None; k];
    }
    let scale = sum_c / sum_l;
    raw.into_iter().map(|x| x.map(|(l, t)| (l * scale, t))).collect()
}

/// Bradley–Terry strengths with 95% intervals, fitted by maximum likelihood on win counts:
/// `scores[i][j]` is row i's score against column j (a draw counts ½; the diagonal is
/// ignored) over `trials` games of every pair, so i won `scores[i][j] · trials` of them.
///
/// A small prior keeps a one-sided unit (one that loses, or wins, every game) finite and its
/// interval honest: every unit also plays one pseudo-game against a reference of strength 1,
/// scored half a win and half a loss. Its weight is one game against `trials` per pair, so it
/// moves well-measured strengths by a negligible amount. Newton's method on the log strengths
/// θ (the penalised log-likelihood is strictly concave); the interval of θ_i − mean θ comes
/// from the inverse Hessian (observed information, Agresti *Categorical Data Analysis* §11.6),
/// and strengths are exp of it, so the field's geometric mean is 1 and the odds of i beating j
/// are strength_i / strength_j. Draws scored ½ vary less than wins, so the binomial variance
/// errs towards wider intervals.
pub fn bradley_terry(scores: &[Vec<f64>], trials: f64) -> Vec<Estimate> {
    use nalgebra::{DMatrix, DVector};
    let k = scores.len();
    if k < 2 {
        return vec![Estimate::exact(1.0); k];
    }
    let sigmoid = |x: f64| 1.0 / (1.0 + (-x).exp());
    let n = trials.max(0.0);
    let mut theta = DVector::<f64>::zeros(k);
    let mut h = DMatrix::<f64>::zeros(k, k);
    for _ in 0..200 {
        let mut g = DVector::<f64>::zeros(k);
        h.fill(0.0);
        for i in 0..k {
            let q = sigmoid(theta[i]);
            g[i] += 0.5 - q;
            h[(i, i)] += q * (1.0 - q);
            for j in (0..k).filter(|&j| j != i) {
                let p = sigmoid(theta[i] - theta[j]);
                g[i] += n * (scores[i][j].clamp(0.0, 1.0) - p);
                let w = n * p * (1.0 - p);
                h[(i, i)] += w;
                h[(i, j)] -= w;
            }
        }
        let Some(chol) = h.clone().cholesky() else { break };
        let mut step = chol.solve(&g);
        // Damped: a one-sided unit's log strength moves far, a few units at a time.
        let biggest = step.amax();
        if biggest > 2.0 {
            step *= 2.0 / biggest;
        }
        theta += &step;
        if biggest < 1e-10 {
            break;
        }
    }
    let z = z_for(CONFIDENCE);
    let mean = theta.mean();
    let cov = h.cholesky().map(|c| c.inverse());
    (0..k)
        .map(|i| {
            let var = cov.as_ref().map_or(f64::INFINITY, |c| {
                // Var(θ_i − mean θ) with gradient e_i − 1/k.
                let g: Vec<f64> = (0..k).map(|a| f64::from(u8::from(a == i)) - 1.0 / k as f64).collect();
                (0..k).map(|a| (0..k).map(|b| g[a] * c[(a, b)] * g[b]).sum::<f64>()).sum::<f64>()
            });
            let t = theta[i] - mean;
            let half = z * var.max(0.0).sqrt();
            Estimate { value: t.exp(), lo: (t - half).exp(), hi: (t + half).exp() }
        })
        .collect()
}

/// The Nash-equilibrium mix of the symmetric zero-sum game whose row player earns
/// `scores[i][j] − 0.5` (`scores[i][j]` row i's score against column j, in [0, 1]): weights x ≥ 0 summing to 1 that
/// maximise the worst payoff min_j Σ_i x_i (s_ij − 0.5), by linear programming (microlp).
/// Returns the weights and the game's value (0 for an antisymmetric matrix).
pub fn nash_mix(scores: &[Vec<f64>]) -> (Vec<f64>, f64) {
    use microlp::{ComparisonOp, OptimizationDirection, Problem, SolveOutcome};
    let k = scores.len();
    if k == 0 {
        return (Vec::new(), 0.0);
    }
    let mut lp = Problem::new(OptimizationDirection::Maximize);
    let x: Vec<_> = (0..k).map(|_| lp.add_var(0.0, (0.0, 1.0))).collect();
    let v = lp.add_var(1.0, (-1.0, 1.0));
    lp.add_constraint(x.iter().map(|&xi| (xi, 1.0)).collect::<Vec<_>>(), ComparisonOp::Eq, 1.0);
    for j in 0..k {
        let mut terms: Vec<_> =
            (0..k).map(|i| (x[i], if i == j { 0.0 } else { scores[i][j] - 0.5 })).collect::<Vec<_>>();
        terms.push((v, -1.0));
        lp.add_constraint(terms, ComparisonOp::Ge, 0.0);
    }
    match lp.solve() {
        Ok(SolveOutcome::Solution(sol)) => {
            let w: Vec<f64> = x.iter().map(|&xi| sol[xi].max(0.0)).collect();
            let total: f64 = w.iter().sum();
            (w.iter().map(|wi| wi / total).collect(), sol[v])
        }
        _ => (vec![1.0 / k as f64; k], 0.0),
    }
}

/// Bradley–Terry strengths of a score matrix over `trials` games per pair, with their
/// likelihood intervals ([`bradley_terry`]), and Nash weights with a 95% interval from a
/// parametric bootstrap: 200 matrices with every pair's score redrawn from a normal with its
/// standard error `ses[i][j]` (clipped to [0, 1], mirrored), percentiles 2.5 and 97.5 of the
/// results. Deterministic for a seed. The Nash mix is often sparse and jumps between units when
/// two are nearly tied; the interval shows that.
pub fn ratings(scores: &[Vec<f64>], ses: &[Vec<f64>], trials: f64, seed: u64) -> (Vec<Estimate>, Vec<Estimate>) {
    use crate::dice::{Dice, FastDice};
    const RESAMPLES: usize = 200;
    let k = scores.len();
    let bt = bradley_terry(scores, trials);
    let (nash, _) = nash_mix(scores);
    let mut dice = FastDice::from_seed(crate::seed::splitmix64(seed ^ 0xB7_4A7E));
    let mut normal01 = || {
        let (u1, u2) = (1.0 - dice.unit_f64(), dice.unit_f64());
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    };
    let mut samples_nash = vec![Vec::with_capacity(RESAMPLES); k];
    for _ in 0..RESAMPLES {
        let mut m = scores.to_vec();
        for i in 0..k {
            for j in i + 1..k {
                let v = (scores[i][j] + ses[i][j] * normal01()).clamp(0.0, 1.0);
                m[i][j] = v;
                m[j][i] = 1.0 - v;
            }
        }
        for (i, w) in nash_mix(&m).0.into_iter().enumerate() {
            samples_nash[i].push(w);
        }
    }
    let interval = |value: f64, xs: &mut Vec<f64>| {
        xs.sort_by(f64::total_cmp);
        let at = |q: f64| xs[((q * (xs.len() - 1) as f64).round() as usize).min(xs.len() - 1)];
        Estimate { value, lo: at(0.025).min(value), hi: at(0.975).max(value) }
    };
    let nash = (0..k).map(|i| interval(nash[i], &mut samples_nash[i])).collect();
    (bt, nash)
}

/// Scores of a finished points-matched matrix (`cells[i][j].a_score`), for the ratings.
pub fn matrix_scores(m: &Matrix) -> Vec<Vec<f64>> {
    m.cells.iter().map(|row| row.iter().map(|c| c.a_score.value).collect()).collect()
}

fn snap(c: f64, step: f64) -> f64 {
    ((c / step).round() * step).max(step)
}

/// Runs the whole solver for ruleset `r`: fair costs, the balanced list, Lanchester,
/// Bradley–Terry and Nash. `progress` advances by one per matchup simulated (its length is a
/// guess set here). Identical for a seed on any number of threads.
pub fn solve<R: Ruleset>(r: &R, s: &BalanceSettings, progress: &ProgressBar) -> FairCosts {
    let units = r.units();
    let k = units.len();
    let plan = RunPlan::fixed(s.seed, s.trials, s.batch_size);
    let mut ev = Evaluator { r, s, plan, progress, field: vec![true; units.len()] };
    let current: Vec<f64> = units.iter().map(|u| u.cost).collect();
    let fixed: Option<usize> = s.anchor.as_ref().map(|id| {
        units.iter().position(|u| &u.id == id).unwrap_or_else(|| {
            panic!(
                "balance anchor {id:?} is not a unit; known: {} (the config loader checks this)",
                units.iter().map(|u| u.id.as_str()).collect::<Vec<_>>().join(", ")
            )
        })
    });
    const MAX_EVALS: usize = 9; // plus two for the slope
    // The phase's length, set once: an upper bound on the matchups the steps below simulate
    // (the searches stop early, so the bar jumps to its end when the solver returns). Whole
    // matrices: the current costs, each balancing iteration, the rounded list and the fresh
    // seed; rows of k − 1 matchups: each fair-cost search (at most MAX_EVALS prices and two
    // for the slope; the bracket walk from the cost to 4× or ¼ of it takes at most 4 of
    // them), with an anchor up to 4 passes of derived costs, the rounding moves (at most
    // 3k plus one round of k − 1 candidates) and the cost-step check (one per unit).
    let pairs = (k * k.saturating_sub(1) / 2) as u64;
    let row = k.saturating_sub(1) as u64;
    let (k64, evals) = (k as u64, (MAX_EVALS + 2) as u64);
    let derived = if fixed.is_some() { 4 * row * evals * row } else { 0 };
    progress
        .set_length(pairs * (3 + s.max_iterations as u64) + k64 * evals * row + derived + (4 * k64) * row + k64 * row);
    progress.set_message(format!("{} matrix", r.id()));

    // Ratings and metagame at the current costs.
    let m0 = ev.matrix(&current);
    let e0 = efficiencies(&m0, &ev.field);
    let scores: Vec<Vec<f64>> = m0.iter().map(|row| row.iter().map(|x| x.value).collect()).collect();
    let ses: Vec<Vec<f64>> = m0.iter().map(|row| row.iter().map(|x| x.se).collect()).collect();
    let (bt, nash) = ratings(&scores, &ses, s.trials as f64, s.seed);

    // Fair cost of each unit, every other cost fixed, the Lanchester estimate the first guess.
    let guesses = lanchester_estimates(r);
    let searches: Vec<FairSearch> = (0..k)
        .map(|i| {
            progress.set_message(format!("fair cost {}", units[i].id));
            fair_cost_search(&ev, i, &current, MAX_EVALS, guesses[i].map(|g| g.0))
        })
        .collect();

    // Balanced list: start from the fair costs, then damped Newton steps on ln(cost), the mean
    // cost of the units being balanced anchored (or, with an anchor unit, that unit's cost: the
    // others move, it stays). A unit no price balances (rules, not price) leaves the field:
    // the others are balanced among themselves, not against a unit whose score against them no
    // price can fix; its cost stays at its current cost and takes no part in the mean.
    let rules_limited: Vec<bool> = searches.iter().map(|se| se.fair.is_none()).collect();
    if rules_limited.iter().filter(|&&x| !x).count() >= 2 {
        ev.field = rules_limited.iter().map(|&x| !x).collect();
    }
    let ev = ev;
    let balancing = |i: usize| !rules_limited[i];
    progress.set_message(format!("{} balanced list", r.id()));
    let n_balancing = (0..k).filter(|&i| balancing(i)).count().max(1) as f64;
    let mean_current = (0..k).filter(|&i| balancing(i)).map(|i| current[i]).sum::<f64>() / n_balancing;
    let anchor = |c: &mut Vec<f64>| {
        match fixed {
            Some(a) => c[a] = current[a],
            None => {
                let m = (0..k).filter(|&i| balancing(i)).map(|i| c[i]).sum::<f64>() / n_balancing;
                (0..k).filter(|&i| balancing(i)).for_each(|i| c[i] *= mean_current / m);
            }
        }
        (0..k).filter(|&i| !balancing(i)).for_each(|i| c[i] = current[i]);
    };
    // d(efficiency)/d(ln cost): from the search's slope, or a typical −0.3 when unmeasured.
    let elasticity: Vec<f64> = searches
        .iter()
        .zip(&current)
        .map(|(se, &c)| match (se.slope, se.fair) {
            (Some(sl), Some(f)) => (sl * f.value).min(-0.05),
            _ => -0.3 * (c / c.max(1e-9)),
        })
        .collect();
    let mut c: Vec<f64> = searches.iter().zip(&current).map(|(se, &c)| se.fair.map_or(c, |f| f.value)).collect();
    anchor(&mut c);
    // Per-unit gain, halved whenever a unit's deviation changes sign (it overshot): the
    // efficiencies are coupled, and a steep unit otherwise oscillates between two prices.
    let mut gain = vec![0.7; k];
    let mut last_sign = vec![0.0f64; k];
    let mut iterations = 0;
    for _ in 0..s.max_iterations {
        let e = efficiencies(&ev.matrix(&c), &ev.field);
        iterations += 1;
        if (0..k).filter(|&i| balancing(i)).all(|i| (e[i].value - 0.5).abs() <= s.tolerance / 2.0) {
            break;
        }
        for i in (0..k).filter(|&i| Some(i) != fixed && balancing(i)) {
            let d = e[i].value - 0.5;
            if d.signum() * last_sign[i] < 0.0 {
                gain[i] *= 0.5;
            }
            last_sign[i] = d.signum();
            let step = (gain[i] * d / -elasticity[i]).clamp(-0.4, 0.4);
            c[i] *= step.exp();
        }
        anchor(&mut c);
    }

    // With an anchor: each other unit's derived cost, its fair cost with every other unit at
    // its balanced cost (unrounded), so the list is mutually consistent and has intervals.
    // Gauss–Seidel passes: each unit's fair cost becomes its cost in the list at once, and the
    // passes repeat (at most 4) until no derived cost moves by a tenth of the cost step, so
    // the list is a fixed point: every unit fair with every other at its derived cost.
    let mut derived: Vec<Option<FairSearch>> = vec![None; k];
    let mut derived_settled = true;
    if let Some(a) = fixed {
        for _pass in 0..4 {
            let mut moved = 0.0f64;
            for i in (0..k).filter(|&i| i != a && balancing(i)) {
                progress.set_message(format!("derived cost {}", units[i].id));
                let d = fair_cost_search(&ev, i, &c, MAX_EVALS, None);
                if let Some(f) = d.fair {
                    moved = moved.max((f.value - c[i]).abs());
                    c[i] = f.value;
                }
                derived[i] = Some(d);
            }
            derived_settled = moved < s.cost_step / 10.0;
            if derived_settled {
                break;
            }
        }
    }

    // Round to the cost step, then one step of one unit at a time while it helps.
    let mut rounded: Vec<f64> = c.iter().map(|&x| snap(x, s.cost_step)).collect();
    if let Some(a) = fixed {
        rounded[a] = current[a];
    }
    let mut m = ev.matrix(&rounded);
    let sq = |m: &[Vec<Score>]| {
        let e = efficiencies(m, &ev.field);
        (0..k).filter(|&i| balancing(i)).map(|i| (e[i].value - 0.5).powi(2)).sum::<f64>()
    };
    // The worst unit outside the tolerance moves one step towards 50%; the anchor, whose price
    // stays, is helped instead by one step of each other unit the other way (the best one is
    // kept). A move is kept when it lowers the list's sum of squared deviations; a unit whose
    // moves do not is stuck until some other move is kept.
    let mut stuck = vec![false; k];
    let mut moves = 0;
    while moves < 3 * k as u32 {
        let e = efficiencies(&m, &ev.field);
        let worst = (0..k)
            .filter(|&i| !stuck[i] && balancing(i) && (e[i].value - 0.5).abs() > s.tolerance)
            .max_by(|&a, &b| (e[a].value - 0.5).abs().total_cmp(&(e[b].value - 0.5).abs()));
        let Some(i) = worst else { break };
        let dir = if e[i].value > 0.5 { 1.0 } else { -1.0 };
        let candidates: Vec<(usize, f64)> = if Some(i) == fixed {
            (0..k).filter(|&j| j != i && balancing(j)).map(|j| (j, rounded[j] - dir * s.cost_step)).collect()
        } else {
            vec![(i, rounded[i] + dir * s.cost_step)]
        };
        let before = sq(&m);
        let mut best: Option<(f64, Vec<f64>, Vec<Vec<Score>>)> = None;
        for (j, cost) in candidates.into_iter().filter(|&(_, c)| c >= s.cost_step - 1e-9) {
            moves += 1;
            let mut trial = rounded.clone();
            trial[j] = cost;
            let mut m2 = m.clone();
            ev.update(&mut m2, j, &trial);
            let after = sq(&m2);
            if after < before && best.as_ref().is_none_or(|b| after < b.0) {
                best = Some((after, trial, m2));
            }
        }
        match best {
            Some((_, trial, m2)) => {
                rounded = trial;
                m = m2;
                stuck.iter_mut().for_each(|x| *x = false);
            }
            None => stuck[i] = true,
        }
    }
    let eb = efficiencies(&m, &ev.field);

    // A unit still outside the tolerance: one cost step towards 50%, the rest of the list
    // unchanged. If 50% lies between the two costs and neither is within the tolerance, no
    // multiple of the step balances the unit: the step, not the rules, is the limit.
    progress.set_message(format!("{} cost-step check", r.id()));
    // The anchor too: its price stays, but one step of it straddling 50% shows that the list's
    // granularity (the others move in whole steps) is what keeps it out.
    let next_step: Vec<Option<(f64, Estimate)>> = (0..k)
        .map(|i| {
            if !balancing(i) || (eb[i].value - 0.5).abs() <= s.tolerance {
                return None;
            }
            let dir = if eb[i].value > 0.5 { 1.0 } else { -1.0 };
            let c2 = rounded[i] + dir * s.cost_step;
            if c2 < s.cost_step - 1e-9 {
                return None;
            }
            let mut trial = rounded.clone();
            trial[i] = c2;
            let mut m2 = m.clone();
            ev.update(&mut m2, i, &trial);
            Some((c2, estimate(efficiencies(&m2, &ev.field)[i])))
        })
        .collect();
    let step_limited: Vec<bool> = (0..k)
        .map(|i| {
            next_step[i].is_some_and(|(_, e2)| {
                (e2.value - 0.5).signum() != (eb[i].value - 0.5).signum() && (e2.value - 0.5).abs() > s.tolerance
            })
        })
        .collect();

    // The balanced list under a fresh seed: the numbers a designer playing it would see.
    progress.set_message(format!("{} balanced list, fresh seed", r.id()));
    let fresh_seed = s.seed.wrapping_add(1);
    let fresh_ev =
        Evaluator { r, s, plan: RunPlan::fixed(fresh_seed, s.trials, s.batch_size), progress, field: ev.field.clone() };
    let fresh = efficiencies(&fresh_ev.matrix(&rounded), &fresh_ev.field);
    let lanchester = lanchester_estimates(r);

    let mut unbalanced = Vec::new();
    let rows: Vec<FairCostRow> = (0..k)
        .map(|i| {
            let se = &searches[i];
            if se.fair.is_none() {
                unbalanced.push(format!("{}: {}", units[i].name, se.note));
            } else if step_limited[i] && Some(i) == fixed {
                let (c2, e2) = next_step[i].expect("step-limited units have a next step");
                unbalanced.push(format!(
                    "{} (the anchor, held at {} points): {:.1}% efficient there and {:.1}% at {} points, one step \
                     of its own price: 50% lies between, and no single {}-point step of another unit that the search \
                     tried brings the list closer to 50% (the list's granularity, not the rules, is the limit)",
                    units[i].name,
                    round2(rounded[i]),
                    100.0 * eb[i].value,
                    100.0 * e2.value,
                    round2(c2),
                    fmt_cost(s.cost_step)
                ));
            } else if step_limited[i] {
                let (c2, e2) = next_step[i].expect("step-limited units have a next step");
                unbalanced.push(format!(
                    "{}: {:.1}% efficient at {} points and {:.1}% at {} points: 50% lies between, and the \
                     {}-point cost step is too coarse to come within ±{:.1} (price it between the two, or use a \
                     finer step)",
                    units[i].name,
                    100.0 * eb[i].value,
                    round2(rounded[i]),
                    100.0 * e2.value,
                    round2(c2),
                    fmt_cost(s.cost_step),
                    100.0 * s.tolerance
                ));
            } else if (eb[i].value - 0.5).abs() > s.tolerance {
                unbalanced.push(format!(
                    "{}: {:.1}% efficient at {} points in the balanced list, outside 50% ± {:.1}; no single \
                     {}-point step of one unit brings the list closer to 50%",
                    units[i].name,
                    100.0 * eb[i].value,
                    round2(rounded[i]),
                    100.0 * s.tolerance,
                    fmt_cost(s.cost_step)
                ));
            }
            FairCostRow {
                unit: units[i].clone(),
                efficiency: estimate(e0[i]),
                fair_cost: se.fair,
                note: se.note.clone(),
                lanchester: lanchester[i].map(|x| x.0),
                lanchester_terms: lanchester[i].map(|x| x.1),
                balanced_cost: rounded[i],
                balanced_efficiency: estimate(eb[i]),
                derived_cost: match (fixed, &derived[i]) {
                    (Some(a), _) if a == i => Some(Estimate { value: current[a], lo: current[a], hi: current[a] }),
                    (_, Some(d)) => d.fair,
                    _ => None,
                },
                fresh_efficiency: Some(estimate(fresh[i])),
                next_step: next_step[i],
                step_limited: step_limited[i],
                bradley_terry: bt[i],
                nash_weight: nash[i],
                search: se.points.iter().map(|&(c, e, sd)| [c, e, sd]).collect(),
            }
        })
        .collect();
    let mut notes = Vec::new();
    if !derived_settled {
        notes.push(format!(
            "The derived cost list had not settled after 4 passes (a derived cost still moved by {} points or \
             more in the last one): the units' efficiencies are strongly coupled, so read the derived costs' \
             last digit as uncertain beyond their intervals.",
            fmt_cost(s.cost_step / 10.0)
        ));
    }
    let balanced = eb.iter().all(|x| (x.value - 0.5).abs() <= s.tolerance);
    let within = |i: usize| (eb[i].value - 0.5).abs() <= s.tolerance || step_limited[i] || rules_limited[i];
    let balanced_to_step = (0..k).all(within) && (0..k).any(balancing);
    // Fresh-seed check: within the tolerance widened by the fresh run's own 95% half-width
    // (its noise is not the list's fault), or step- or rules-limited.
    let fresh_within = (0..k).all(|i| {
        step_limited[i]
            || rules_limited[i]
            || (fresh[i].value - 0.5).abs() <= s.tolerance + z_for(CONFIDENCE) * fresh[i].se
    });
    let matchups = progress.position();
    // The searches ended inside their bound: the bar ends at its length, not short of it.
    progress.set_position(progress.length().unwrap_or(matchups).max(matchups));
    FairCosts {
        seed: s.seed,
        trials: s.trials,
        cost_step: s.cost_step,
        tolerance: s.tolerance,
        iterations,
        moves,
        balanced,
        balanced_to_step,
        fresh_seed: Some(fresh_seed),
        fresh_within,
        rows,
        anchor: fixed.map(|a| units[a].id.clone()),
        unbalanced,
        notes,
        matchups,
    }
}

/// The fair cost of unit `i` alone: the bisection of [`solve`] with every other unit's cost
/// held at `costs` (points, one per unit), `s.trials` fixed trials per price (common random
/// numbers). A thin public entry for studies outside the cost list, e.g. VSGMR's attribute
/// prices (a two-unit ruleset: the figure with the attribute against the figure without it).
pub fn fair_cost_of<R: Ruleset>(
    r: &R,
    i: usize,
    costs: &[f64],
    s: &BalanceSettings,
    progress: &ProgressBar,
) -> FairSearch {
    let ev = Evaluator {
        r,
        s,
        plan: RunPlan::fixed(s.seed, s.trials, s.batch_size),
        progress,
        field: vec![true; costs.len()],
    };
    fair_cost_search(&ev, i, costs, 9, None)
}

/// Efficiencies (mean points-matched score against the field, 95% interval) of every unit at
/// `costs`, with `trials` trials per matchup under `seed`: what a balanced list is checked with.
pub fn efficiencies_at<R: Ruleset>(r: &R, costs: &[f64], seed: u64, trials: u64) -> Vec<Estimate> {
    let mut s = BalanceSettings::from_ruleset(r, seed);
    s.trials = trials;
    let hidden = ProgressBar::hidden();
    let field = vec![true; costs.len()];
    let ev = Evaluator { r, s: &s, plan: RunPlan::fixed(seed, trials, s.batch_size), progress: &hidden, field };
    efficiencies(&ev.matrix(costs), &ev.field).into_iter().map(estimate).collect()
}

/// Rewrites the `cost = ...` line of every `[[unit]]` in a config's text to `costs` (by unit
/// name, matched as a kebab-case id), keeping everything else — comments, order, layout —
/// byte for byte, so a designer can diff the balanced config against the original.
///
/// Errors name a unit whose `[[unit]]` table or cost line is not found.
pub fn rewrite_costs(text: &str, costs: &[(String, f64)]) -> Result<String, String> {
    let mut lines: Vec<String> = text.split_inclusive('\n').map(String::from).collect();
    // Each [[unit]] table: the index of its name's value and of its cost line.
    let mut tables: Vec<(Option<String>, Option<usize>)> = Vec::new();
    let mut in_unit = false;
    for (n, line) in lines.iter().enumerate() {
        let t = line.trim();
        if t.starts_with('[') {
            in_unit = t == "[[unit]]";
            if in_unit {
                tables.push((None, None));
            }
        } else if in_unit {
            let last = tables.last_mut().expect("inside a unit table");
            if let Some(v) = key_value(t, "name") {
                last.0 = Some(v.split('#').next().unwrap_or("").trim().trim_matches('"').to_string());
            } else if key_value(t, "cost").is_some() {
                last.1 = Some(n);
            }
        }
    }
    for (name, cost) in costs {
        let id = crate::config::id_of(name);
        let line = tables
            .iter()
            .find(|(n, _)| n.as_deref().is_some_and(|n| crate::config::id_of(n) == id))
            .and_then(|t| t.1)
            .ok_or_else(|| format!("no [[unit]] table with name = {name:?} and a cost line"))?;
        let old = &lines[line];
        let indent = &old[..old.len() - old.trim_start().len()];
        let newline = if old.ends_with("\r\n") {
            "\r\n"
        } else if old.ends_with('\n') {
            "\n"
        } else {
            ""
        };
        let comment = old.find('#').map_or(String::new(), |p| format!(" {}", old[p..].trim_end()));
        lines[line] = format!("{indent}cost = {}{comment}{newline}", fmt_cost(*cost));
    }
    Ok(lines.concat())
}

fn key_value<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let rest = line.strip_prefix(key)?.trim_start();
    rest.strip_prefix('=')
}

#[cfg(test)]
mod tests;
