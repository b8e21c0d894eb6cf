//! Zero-sum matrix games between two portfolios of tactics: the game's value and each side's
//! equilibrium mix, what a side gains by deviating from a mix (exploitability), an interval on
//! the value from the cells' intervals, and a double-oracle loop that plays only the cells it
//! needs.
//!
//! The game: the row side picks tactic `i` of its portfolio and the column side tactic `j` of
//! its own, both at once; the row side scores `payoff[i][j]` (the game's score: win 1, draw ½,
//! loss 0, so a probability-like number in [0, 1]) and the column side `1 − payoff[i][j]`.
//! A mix is a probability over a side's tactics (weights in [0, 1] summing to 1).
//!
//! Sources: von Neumann's minimax theorem, solved as the pair of linear programs of Shoham &
//! Leyton-Brown, *Multiagent Systems* (Cambridge, 2009), §4.1 (microlp solves them); the double
//! oracle of McMahan, Gordon & Blum, "Planning in the presence of cost functions controlled by
//! an adversary", ICML 2003: solve the game restricted to the tactics found so far, add each
//! side's best response to the other's restricted mix, stop when neither gains.
//!
//! Why the value's interval comes from the cells' bounds: a game's value is monotone in every
//! payoff (raising a cell lowers no side's guarantee of the row side), so if every true cell
//! lies in its interval, the true value lies between the value of the game of lower bounds and
//! that of the game of upper bounds. With cell intervals that hold jointly (family-wise), the
//! value's interval holds at the same level, whatever the mixes.
//!
//! Layer: analysis (see [`crate::analysis`]); imports only `stats` and microlp.

use std::collections::HashMap;

use crate::stats::Estimate;

/// The rounding a linear program leaves: a best response must gain more than this to count.
pub const LP_TOLERANCE: f64 = 1e-9;

/// A matrix game that cannot be solved. Programming errors of the caller (the payoffs come
/// from the simulation, not from a file), reported rather than panicking.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GameError {
    #[error("a matrix game needs at least one tactic a side, got {rows} × {cols}")]
    Empty { rows: usize, cols: usize },
    #[error("row {row} of the payoff matrix has {len} cells, the first has {cols}")]
    Ragged { row: usize, len: usize, cols: usize },
    #[error("payoff [{row}][{col}] is {value}, not a finite number")]
    NotFinite { row: usize, col: usize, value: f64 },
    #[error("the {side} side has {len} scores against a best response, for {want} tactics")]
    Secure { side: &'static str, len: usize, want: usize },
    #[error("the linear program of the {side} side found no solution: {message}")]
    Lp { side: &'static str, message: String },
}

/// The solution of a zero-sum matrix game ([`solve`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Equilibrium {
    /// The row side's score when both play their equilibrium mixes, in the payoffs' unit
    /// ([0, 1] for game scores): the most the row side can guarantee, and the least the
    /// column side can hold it to.
    pub value: f64,
    /// The row side's equilibrium mix, one weight per row (in [0, 1], summing to 1).
    pub row: Vec<f64>,
    /// The column side's equilibrium mix, one weight per column.
    pub col: Vec<f64>,
}

/// Checks that `payoff` is a non-empty rectangular matrix of finite numbers; returns its
/// `(rows, cols)`.
fn shape(payoff: &[Vec<f64>]) -> Result<(usize, usize), GameError> {
    let rows = payoff.len();
    let cols = payoff.first().map_or(0, Vec::len);
    if rows == 0 || cols == 0 {
        return Err(GameError::Empty { rows, cols });
    }
    for (row, r) in payoff.iter().enumerate() {
        if r.len() != cols {
            return Err(GameError::Ragged { row, len: r.len(), cols });
        }
        if let Some((col, &value)) = r.iter().enumerate().find(|(_, x)| !x.is_finite()) {
            return Err(GameError::NotFinite { row, col, value });
        }
    }
    Ok((rows, cols))
}

/// One side's linear program: the mix `x` over `n` tactics that maximises (`maximise`) or
/// minimises the guaranteed score `v` subject to `Σ x_i · a(i, j) ≥ v` (or `≤ v`) for every
/// `j < m`. Returns the mix (clamped at 0, renormalised) and `v`.
fn side_lp(
    n: usize,
    m: usize,
    a: impl Fn(usize, usize) -> f64,
    maximise: bool,
    (lo, hi): (f64, f64),
) -> Result<(Vec<f64>, f64), GameError> {
    use microlp::{ComparisonOp, OptimizationDirection, Problem};
    let side = if maximise { "row" } else { "column" };
    let direction = if maximise { OptimizationDirection::Maximize } else { OptimizationDirection::Minimize };
    let mut lp = Problem::new(direction);
    let x: Vec<_> = (0..n).map(|_| lp.add_var(0.0, (0.0, 1.0))).collect();
    let v = lp.add_var(1.0, (lo, hi));
    lp.add_constraint(x.iter().map(|&xi| (xi, 1.0)).collect::<Vec<_>>(), ComparisonOp::Eq, 1.0);
    let op = if maximise { ComparisonOp::Ge } else { ComparisonOp::Le };
    for j in 0..m {
        let mut terms: Vec<_> = (0..n).map(|i| (x[i], a(i, j))).collect();
        terms.push((v, -1.0));
        lp.add_constraint(terms, op, 0.0);
    }
    let sol = solution(lp, side)?;
    Ok((mix(&sol, &x, side)?, sol[v]))
}

/// The solution of a side's linear program, or why there is none.
fn solution(lp: microlp::Problem, side: &'static str) -> Result<microlp::Solution, GameError> {
    match lp.solve() {
        Ok(microlp::SolveOutcome::Solution(sol)) => Ok(sol),
        Ok(other) => Err(GameError::Lp { side, message: format!("{other:?}") }),
        Err(e) => Err(GameError::Lp { side, message: e.to_string() }),
    }
}

/// The mix of a solution's weights `x`: clamped at 0 and renormalised to sum to 1.
fn mix(sol: &microlp::Solution, x: &[microlp::Variable], side: &'static str) -> Result<Vec<f64>, GameError> {
    let w: Vec<f64> = x.iter().map(|&xi| sol[xi].max(0.0)).collect();
    let total: f64 = w.iter().sum();
    if total > 0.0 && total.is_finite() {
        Ok(w.iter().map(|wi| wi / total).collect())
    } else {
        Err(GameError::Lp { side, message: format!("weights summing to {total}") })
    }
}

/// The value and both equilibrium mixes of the zero-sum game `payoff` (rows: the row side's
/// tactics; `payoff[i][j]`: the row side's score when it plays `i` and the column side `j`).
/// Two linear programs (one a side); the value is the row side's, which the column side's
/// matches to the LP's rounding ([`LP_TOLERANCE`]).
///
/// Errors: an empty or ragged matrix, a non-finite payoff, or a linear program that returns
/// no solution ([`GameError`]).
pub fn solve(payoff: &[Vec<f64>]) -> Result<Equilibrium, GameError> {
    let (rows, cols) = shape(payoff)?;
    let lo = payoff.iter().flatten().copied().fold(f64::INFINITY, f64::min);
    let hi = payoff.iter().flatten().copied().fold(f64::NEG_INFINITY, f64::max);
    let (row, value) = side_lp(rows, cols, |i, j| payoff[i][j], true, (lo, hi))?;
    let (col, _) = side_lp(cols, rows, |j, i| payoff[i][j], false, (lo, hi))?;
    Ok(Equilibrium { value, row, col })
}

/// How far below the game's value (above, for the column side) a mix of
/// [`least_exploitable`] may guarantee, in score units: a tenth of a point. Exact equilibria
/// can hinge on nothing: in the Army Men Combat Recruits (5) mirror, holding scores 0.00003
/// more than the scripted tactic against it inside the portfolio, so the only exact
/// equilibrium holds, and a best response outside the portfolio takes 28 points from that.
/// A tenth of a point is far below what a report prints of a score, and buys the mix that
/// gives an opponent outside the portfolio least.
pub const REFINE_SLACK: f64 = 1e-3;

/// Among each side's equilibrium mixes of `payoff`, the one least exploitable outside the
/// matrix: `row_secure[i]` is the row side's score when it plays tactic `i` and the column side
/// answers with its best response over *every* policy (not only its portfolio); `col_secure[j]`
/// the row side's score when it answers the column side's tactic `j` so. The row mix maximises
/// `Σ x_i · row_secure[i]` and the column mix minimises `Σ y_j · col_secure[j]`, each among the
/// mixes that guarantee the game's value within [`REFINE_SLACK`] (ε-equilibria). A game often has many
/// equilibria (a mirror in which both sides hold is worth ½, as one in which both advance);
/// this picks, with the same value, the one an opponent outside the portfolio gains least
/// against. The value returned is the game's ([`solve`]'s); each mix guarantees it within
/// [`REFINE_SLACK`], so the mixes' score lies within that of it and together they form a
/// 2·[`REFINE_SLACK`]-equilibrium of the matrix game. Errors: as [`solve`]; a secure list of
/// the wrong length is [`GameError::Secure`].
pub fn least_exploitable(
    payoff: &[Vec<f64>],
    row_secure: &[f64],
    col_secure: &[f64],
) -> Result<Equilibrium, GameError> {
    let (rows, cols) = shape(payoff)?;
    for (len, want, side) in [(row_secure.len(), rows, "row"), (col_secure.len(), cols, "column")] {
        if len != want {
            return Err(GameError::Secure { side, len, want });
        }
    }
    let e = solve(payoff)?;
    let row = refine(rows, cols, |i, j| payoff[i][j], row_secure, e.value - REFINE_SLACK, true)?;
    let col = refine(cols, rows, |j, i| payoff[i][j], col_secure, e.value + REFINE_SLACK, false)?;
    Ok(Equilibrium { value: e.value, row, col })
}

/// One side's refinement ([`least_exploitable`]): over the mixes `x` of `n` tactics with
/// `Σ x_i · a(i, j) ≥ bound` for every `j < m` (`≤` for the column side, `maximise` false),
/// the one with the best `Σ x_i · secure[i]`.
fn refine(
    n: usize,
    m: usize,
    a: impl Fn(usize, usize) -> f64,
    secure: &[f64],
    bound: f64,
    maximise: bool,
) -> Result<Vec<f64>, GameError> {
    use microlp::{ComparisonOp, OptimizationDirection, Problem};
    let side = if maximise { "row" } else { "column" };
    let direction = if maximise { OptimizationDirection::Maximize } else { OptimizationDirection::Minimize };
    let mut lp = Problem::new(direction);
    let x: Vec<_> = secure.iter().map(|&c| lp.add_var(c, (0.0, 1.0))).collect();
    lp.add_constraint(x.iter().map(|&xi| (xi, 1.0)).collect::<Vec<_>>(), ComparisonOp::Eq, 1.0);
    let op = if maximise { ComparisonOp::Ge } else { ComparisonOp::Le };
    for j in 0..m {
        lp.add_constraint((0..n).map(|i| (x[i], a(i, j))).collect::<Vec<_>>(), op, bound);
    }
    mix(&solution(lp, side)?, &x, side)
}

/// The row side's expected score when the sides play mixes `row` and `col`.
pub fn score(payoff: &[Vec<f64>], row: &[f64], col: &[f64]) -> f64 {
    row.iter().zip(payoff).map(|(x, r)| x * r.iter().zip(col).map(|(a, y)| a * y).sum::<f64>()).sum()
}

/// What each side gains by its best single tactic against the other's mix, in the payoffs'
/// unit: `(row gain, column gain)`, each ≥ 0 up to rounding. Their sum is the exploitability
/// of the mix pair (0 exactly at an equilibrium); a side's gain is how much a best response
/// takes from the other side's mix.
pub fn gains(payoff: &[Vec<f64>], row: &[f64], col: &[f64]) -> (f64, f64) {
    let v = score(payoff, row, col);
    let best_row = payoff.iter().map(|r| r.iter().zip(col).map(|(a, y)| a * y).sum::<f64>()).fold(f64::MIN, f64::max);
    let cols = payoff.first().map_or(0, Vec::len);
    let best_col =
        (0..cols).map(|j| row.iter().zip(payoff).map(|(x, r)| x * r[j]).sum::<f64>()).fold(f64::MAX, f64::min);
    (best_row - v, v - best_col)
}

/// The game's value with an interval from its cells' intervals: the value of the game of the
/// cells' values, between the values of the games of their lower and of their upper bounds
/// (see the module docs). The interval holds at the level at which the cells' intervals hold
/// jointly. Errors: as [`solve`].
pub fn value_interval(cells: &[Vec<Estimate>]) -> Result<Estimate, GameError> {
    let pick = |f: fn(&Estimate) -> f64| cells.iter().map(|r| r.iter().map(f).collect()).collect::<Vec<Vec<f64>>>();
    let value = solve(&pick(|e| e.value))?.value;
    let lo = solve(&pick(|e| e.lo))?.value;
    let hi = solve(&pick(|e| e.hi))?.value;
    Ok(Estimate { value, lo: lo.min(value), hi: hi.max(value) })
}

/// A tactic's score against a mix of `tactics` with `weights`: the weighted sums of its cells'
/// values and bounds, `cell(k)` being its cell against the mix's tactic `k`. A tactic of weight
/// 0 plays no cell.
fn against(tactics: &[usize], weights: &[f64], mut cell: impl FnMut(usize) -> Estimate) -> Estimate {
    let mut sum = Estimate { value: 0.0, lo: 0.0, hi: 0.0 };
    for (&k, &w) in tactics.iter().zip(weights).filter(|(_, w)| **w > 0.0) {
        let e = cell(k);
        sum = Estimate { value: sum.value + w * e.value, lo: sum.lo + w * e.lo, hi: sum.hi + w * e.hi };
    }
    sum
}

/// The outcome of [`double_oracle`].
#[derive(Debug, Clone, PartialEq)]
pub struct Oracle {
    /// The equilibrium of the game restricted to the tactics the loop added, its mixes spread
    /// over every tactic (0 for a tactic never added).
    pub equilibrium: Equilibrium,
    /// The value: the restricted game's, with an interval that holds for the whole game's
    /// value wherever every cell's interval holds (jointly): from the worst score the row mix
    /// guarantees against every column at the cells' lower bounds, to the worst the column mix
    /// concedes against every row at their upper bounds. It covers what the tactics left out
    /// might still add within their noise.
    pub value: Estimate,
    /// The tactics added, each side's in the order they were added (the first is 0).
    pub rows: Vec<usize>,
    pub cols: Vec<usize>,
    /// Each side's gain of its best response over every tactic of its portfolio against the
    /// other side's final mix (point estimates; at most the noise that stopped the loop).
    pub gains: (f64, f64),
    /// The cells played.
    pub cells: usize,
}

/// The equilibrium of the `rows` × `cols` game whose cells `cell(i, j)` (the row side's score,
/// with its interval) are played only when needed: starting from tactic 0 a side, solve the
/// game of the tactics added so far, then add each side's best response to the other side's
/// mix over its whole portfolio while it gains more than its noise: the tactic whose score
/// against the mix, taken at the lower end of its interval (the upper end for the column
/// side), is best, if that still beats the restricted value by [`LP_TOLERANCE`]. Stops when
/// neither side adds a tactic: at most `rows + cols − 1` rounds. Each cell is asked for once,
/// and only against tactics the other side's mix plays. With exact cells (empty intervals) the
/// result is the equilibrium of the whole game (McMahan, Gordon & Blum 2003); the value's
/// interval is that of [`Oracle::value`].
///
/// Errors: `rows` or `cols` is 0, a cell is not finite, or a linear program fails.
pub fn double_oracle(
    rows: usize,
    cols: usize,
    mut cell: impl FnMut(usize, usize) -> Estimate,
) -> Result<Oracle, GameError> {
    if rows == 0 || cols == 0 {
        return Err(GameError::Empty { rows, cols });
    }
    let mut played: HashMap<(usize, usize), Estimate> = HashMap::new();
    let mut get = |i: usize, j: usize| *played.entry((i, j)).or_insert_with(|| cell(i, j));
    let (mut rs, mut cs) = (vec![0usize], vec![0usize]);
    loop {
        let values: Vec<Vec<f64>> = rs.iter().map(|&i| cs.iter().map(|&j| get(i, j).value).collect()).collect();
        let eq = solve(&values)?;
        // Each tactic's score against the other side's restricted mix, at its point and at the
        // bound on its side (a row's lower bound, a column's upper bound), and the other bound
        // for the value's interval (a row's upper, a column's lower).
        let mut rows_best = (f64::MIN, f64::MIN, f64::MIN);
        let mut row_by_bound = 0usize;
        for i in 0..rows {
            let Estimate { value: v, lo, hi } = against(&cs, &eq.col, |j| get(i, j));
            rows_best.0 = rows_best.0.max(v);
            if lo > rows_best.1 {
                (rows_best.1, row_by_bound) = (lo, i);
            }
            rows_best.2 = rows_best.2.max(hi);
        }
        let mut cols_best = (f64::MAX, f64::MAX, f64::MAX);
        let mut col_by_bound = 0usize;
        for j in 0..cols {
            let Estimate { value: v, lo, hi } = against(&rs, &eq.row, |i| get(i, j));
            cols_best.0 = cols_best.0.min(v);
            if hi < cols_best.1 {
                (cols_best.1, col_by_bound) = (hi, j);
            }
            cols_best.2 = cols_best.2.min(lo);
        }
        let add_row = rows_best.1 > eq.value + LP_TOLERANCE && !rs.contains(&row_by_bound);
        let add_col = cols_best.1 < eq.value - LP_TOLERANCE && !cs.contains(&col_by_bound);
        if add_row {
            rs.push(row_by_bound);
        }
        if add_col {
            cs.push(col_by_bound);
        }
        if !add_row && !add_col {
            // The row mix guarantees at least `cols_best.2` against every column, the column
            // mix concedes at most `rows_best.2` to every row: the whole game's value lies
            // between (module docs), and so does the restricted value.
            let value = Estimate { value: eq.value, lo: cols_best.2.min(eq.value), hi: rows_best.2.max(eq.value) };
            let mut row = vec![0.0; rows];
            for (&i, &x) in rs.iter().zip(&eq.row) {
                row[i] = x;
            }
            let mut col = vec![0.0; cols];
            for (&j, &y) in cs.iter().zip(&eq.col) {
                col[j] = y;
            }
            let gains = ((rows_best.0 - eq.value).max(0.0), (eq.value - cols_best.0).max(0.0));
            let equilibrium = Equilibrium { value: eq.value, row, col };
            return Ok(Oracle { equilibrium, value, rows: rs, cols: cs, gains, cells: played.len() });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-7
    }

    /// Rock, paper, scissors in game scores: a win 1, a draw ½, a loss 0.
    fn rps() -> Vec<Vec<f64>> {
        vec![vec![0.5, 0.0, 1.0], vec![1.0, 0.5, 0.0], vec![0.0, 1.0, 0.5]]
    }

    #[test]
    fn rock_paper_scissors_is_worth_a_half_with_uniform_mixes() {
        let e = solve(&rps()).unwrap();
        assert!(close(e.value, 0.5), "{e:?}");
        assert!(e.row.iter().chain(&e.col).all(|&w| close(w, 1.0 / 3.0)), "{e:?}");
        let (gr, gc) = gains(&rps(), &e.row, &e.col);
        assert!(gr.abs() < 1e-7 && gc.abs() < 1e-7, "{gr} {gc}");
    }

    /// A 2 × 2 game without a saddle point has the closed form of any game-theory text:
    /// value (ad − bc)/(a + d − b − c), row weight on the first row (d − c)/(a + d − b − c),
    /// column weight on the first column (d − b)/(a + d − b − c).
    #[test]
    fn a_two_by_two_game_matches_its_closed_form() {
        let (a, b, c, d) = (0.9, 0.2, 0.3, 0.6);
        let e = solve(&[vec![a, b], vec![c, d]]).unwrap();
        let den = a + d - b - c;
        assert!(close(e.value, (a * d - b * c) / den), "{e:?}");
        assert!(close(e.row[0], (d - c) / den), "{e:?}");
        assert!(close(e.col[0], (d - b) / den), "{e:?}");
    }

    #[test]
    fn a_saddle_point_is_played_pure() {
        // Row 1 dominates row 0; against it column 0 holds the row side to 0.6.
        let p = vec![vec![0.2, 0.4, 0.3], vec![0.6, 0.9, 0.7]];
        let e = solve(&p).unwrap();
        assert!(close(e.value, 0.6), "{e:?}");
        assert!(close(e.row[1], 1.0) && close(e.col[0], 1.0), "{e:?}");
    }

    #[test]
    fn a_pure_mix_is_exploited_by_the_best_response() {
        // The row side always plays rock against a uniform column side: the column side's best
        // response (paper) takes the row side from ½ to 0; the row side cannot gain.
        let (gr, gc) = gains(&rps(), &[1.0, 0.0, 0.0], &[1.0 / 3.0; 3]);
        assert!(close(gr, 0.0) && close(gc, 0.5), "{gr} {gc}");
    }

    #[test]
    fn the_value_interval_holds_the_value_and_is_empty_for_exact_cells() {
        let exact: Vec<Vec<Estimate>> = rps().iter().map(|r| r.iter().map(|&x| Estimate::exact(x)).collect()).collect();
        let v = value_interval(&exact).unwrap();
        assert!(close(v.value, 0.5) && close(v.lo, 0.5) && close(v.hi, 0.5), "{v:?}");
        let noisy: Vec<Vec<Estimate>> = rps()
            .iter()
            .map(|r| {
                r.iter().map(|&x| Estimate { value: x, lo: (x - 0.05).max(0.0), hi: (x + 0.05).min(1.0) }).collect()
            })
            .collect();
        let v = value_interval(&noisy).unwrap();
        assert!(v.lo < 0.5 - 0.01 && v.hi > 0.5 + 0.01 && v.lo <= v.value && v.value <= v.hi, "{v:?}");
        assert!(v.hi - v.lo <= 0.1 + 1e-9, "a value moves no more than its cells: {v:?}");
    }

    /// A pseudo-random matrix of scores in [0, 1] (a fixed linear congruential sequence).
    fn matrix(rows: usize, cols: usize, seed: u64) -> Vec<Vec<f64>> {
        let mut s = seed;
        let mut next = move || {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (s >> 11) as f64 / (1u64 << 53) as f64
        };
        (0..rows).map(|_| (0..cols).map(|_| next()).collect()).collect()
    }

    #[test]
    fn the_double_oracle_finds_the_whole_games_value_with_exact_cells() {
        for seed in 1..=20 {
            let (rows, cols) = (3 + (seed as usize) % 9, 2 + (seed as usize * 7) % 10);
            let p = matrix(rows, cols, seed);
            let full = solve(&p).unwrap();
            let o = double_oracle(rows, cols, |i, j| Estimate::exact(p[i][j])).unwrap();
            assert!(close(o.equilibrium.value, full.value), "seed {seed}: {o:?} v {full:?}");
            let (gr, gc) = gains(&p, &o.equilibrium.row, &o.equilibrium.col);
            assert!(gr < 1e-7 && gc < 1e-7, "seed {seed}: the oracle's mixes are an equilibrium: {gr} {gc}");
            assert!(o.cells <= rows * cols);
        }
    }

    #[test]
    fn the_double_oracle_plays_few_cells_when_one_tactic_dominates() {
        // Tactic 3 beats everything for either side: the loop adds it and stops.
        let n = 12;
        let p: Vec<Vec<f64>> = (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| {
                        if i == 3 && j != 3 {
                            0.9
                        } else if j == 3 && i != 3 {
                            0.1
                        } else {
                            0.5
                        }
                    })
                    .collect()
            })
            .collect();
        let o = double_oracle(n, n, |i, j| Estimate::exact(p[i][j])).unwrap();
        assert!(close(o.equilibrium.value, 0.5) && close(o.equilibrium.row[3], 1.0), "{o:?}");
        assert!(o.cells < n * n / 2, "{} cells of {}", o.cells, n * n);
    }

    #[test]
    fn noise_keeps_a_tactic_that_gains_less_than_its_interval_out() {
        // Tactic 1 gains 0.01 over tactic 0 against the column side, inside its ±0.05: not added.
        let cell = |i: usize, _j: usize| {
            let x = if i == 1 { 0.51 } else { 0.5 };
            Estimate { value: x, lo: x - 0.05, hi: x + 0.05 }
        };
        let o = double_oracle(2, 1, cell).unwrap();
        assert_eq!(o.rows, vec![0], "{o:?}");
        assert!(close(o.gains.0, 0.01), "the gain left is reported: {o:?}");
        assert!(o.value.lo < o.value.value && o.value.value < o.value.hi, "{o:?}");
    }

    #[test]
    fn a_sure_gain_is_added_though_a_noisier_tactic_scores_more() {
        // Against the column side, tactic 1 scores 0.7 but within ±0.3; tactic 2 scores 0.6
        // within ±0.01: tactic 2 gains for sure and is added, so the value moves to 0.6.
        let cell = |i: usize, _j: usize| match i {
            1 => Estimate { value: 0.7, lo: 0.4, hi: 1.0 },
            2 => Estimate { value: 0.6, lo: 0.59, hi: 0.61 },
            _ => Estimate::exact(0.5),
        };
        let o = double_oracle(3, 1, cell).unwrap();
        assert!(o.rows.contains(&2), "{o:?}");
        assert!(o.equilibrium.value >= 0.6 - 1e-9, "{o:?}");
    }

    #[test]
    fn the_value_interval_covers_the_tactics_left_out() {
        // Tactic 1 may score anything in [0.4, 0.8] and is left out (its lower end does not beat
        // 0.5); the whole game's value may then be as high as 0.8, and the interval says so.
        let cell =
            |i: usize, _j: usize| if i == 1 { Estimate { value: 0.6, lo: 0.4, hi: 0.8 } } else { Estimate::exact(0.5) };
        let o = double_oracle(2, 1, cell).unwrap();
        assert_eq!(o.rows, vec![0], "{o:?}");
        assert!(close(o.value.lo, 0.5) && close(o.value.hi, 0.8), "{o:?}");
        // With exact cells the interval closes on the whole game's value.
        let p = matrix(7, 5, 3);
        let o = double_oracle(7, 5, |i, j| Estimate::exact(p[i][j])).unwrap();
        let full = solve(&p).unwrap().value;
        assert!(close(o.value.lo, full) && close(o.value.hi, full), "{o:?} v {full}");
    }

    #[test]
    fn the_least_exploitable_equilibrium_keeps_the_value_and_picks_the_safer_mix() {
        // Two tactics a side, every cell ½: every mix is an equilibrium. Against a best
        // response over every policy, the row side's tactic 1 keeps 0.45 and tactic 0 only 0.2;
        // the column side's tactic 0 concedes 0.55 to its best response, tactic 1 0.9.
        let p = vec![vec![0.5, 0.5], vec![0.5, 0.5]];
        let e = least_exploitable(&p, &[0.2, 0.45], &[0.55, 0.9]).unwrap();
        assert!(close(e.value, 0.5));
        assert!(close(e.row[1], 1.0) && close(e.col[0], 1.0), "{e:?}");
        // A game with one equilibrium (matching pennies) keeps it, within the slack, whatever
        // the secure scores.
        let p = vec![vec![1.0, 0.0], vec![0.0, 1.0]];
        let e = least_exploitable(&p, &[0.0, 1.0], &[1.0, 0.0]).unwrap();
        let within = |x: f64| (x - 0.5).abs() <= REFINE_SLACK + 1e-9;
        assert!(within(e.row[0]) && within(e.col[0]) && close(e.value, 0.5), "{e:?}");
        // A near tie (the Recruits mirror of Army Men Combat): tactic 1 beats tactic 0 by
        // 0.00003 inside the matrix, so the exact equilibrium plays 1 on both sides, but 0 is
        // far safer against a best response outside it: 0 is played.
        let p = vec![vec![0.5, 0.49997], vec![0.50003, 0.5]];
        let e = least_exploitable(&p, &[0.49, 0.22], &[0.51, 0.78]).unwrap();
        assert!(close(e.row[0], 1.0) && close(e.col[0], 1.0), "{e:?}");
        assert!(close(solve(&p).unwrap().row[1], 1.0));
        // A saddle point with a dominated alternative, safer outside the matrix: the row side
        // takes only as much of it as the slack allows (a 0.3 loss against the column's
        // tactic 1 times its weight within the slack).
        let p = vec![vec![0.7, 0.6], vec![0.4, 0.3]];
        let e = least_exploitable(&p, &[0.1, 0.9], &[0.9, 0.1]).unwrap();
        assert!(close(e.row[1], REFINE_SLACK / 0.3) && close(e.col[1], 1.0) && close(e.value, 0.6), "{e:?}");
        assert!(score(&p, &e.row, &e.col) >= e.value - REFINE_SLACK - 1e-12);
        assert!(matches!(
            least_exploitable(&p, &[0.1], &[0.9, 0.1]),
            Err(GameError::Secure { side: "row", len: 1, want: 2 })
        ));
    }

    #[test]
    fn malformed_games_are_errors() {
        assert!(matches!(solve(&[]), Err(GameError::Empty { .. })));
        assert!(matches!(solve(&[vec![0.5], vec![0.5, 0.5]]), Err(GameError::Ragged { row: 1, .. })));
        assert!(matches!(solve(&[vec![f64::NAN]]), Err(GameError::NotFinite { row: 0, col: 0, .. })));
        assert!(matches!(double_oracle(0, 3, |_, _| Estimate::exact(0.5)), Err(GameError::Empty { .. })));
    }
}
