//! `pointsworth check`: balance regression against a committed baseline.
//!
//! Why it works this way: a designer's pull request that changes one cost should show which
//! units' balance moved, and fail only when it moved for real. Re-running with the
//! baseline's seed and settings reproduces an unchanged config's numbers exactly, but
//! `--quick` (coarser precision) and harmless edits (a reordered unit changes which side of
//! a pair is simulated, hence the dice) give numbers that differ by noise. So a metric is
//! flagged only when its change is
//!
//! 1. statistically significant: a two-proportion z-test with unpooled variance,
//!    `z = (new − old) / √(se_old² + se_new²)`, its two-sided p-values corrected with Holm's
//!    step-down procedure over all metrics compared in the run, those of every ruleset checked
//!    together (family-wise error 5% for the whole run, so checking five rulesets does not
//!    raise the chance of a false alarm); and
//! 2. larger than `--tolerance` percentage points.
//!
//! A quick re-run shares its first batches with the baseline (same seed, same streams), so
//! the two samples overlap; treating them as independent overstates the variance of the
//! difference, which makes the test conservative, never trigger-happy.
//!
//! Metrics compared, matched by unit id (so reordering units changes nothing):
//! points efficiency and 1v1 mean score per unit, and the row unit's score in every pair of
//! distinct units of the points-matched matrix and of the 1v1 matrix. The distance sweep is
//! a chart at half the precision and seven times the cost; it is not re-run. Units added to
//! or removed from the cost list fail the check (every efficiency is a mean over the field,
//! so the baseline no longer applies): accept them with `--update`.
//!
//! A baseline made with a fixed trial count (`report --trials N` alone, or `merge` of shards)
//! records `precision.fixed_trials`, and the check re-runs it the same way: exactly N trials
//! per matchup (`--quick`: N / 4), not the stopping rule.
//!
//! Which way is better. Points efficiency and a points-matched score are fair at 50% (equal
//! points, even odds), so each flagged one is classed *toward balance* (closer to 50%) or
//! *away*; a 1v1 score has no fair value (the units' costs differ) and is only *moved*. A cost
//! edit is classed against the baseline's fair cost (`fair_costs.csv`, when the baseline has
//! one). The ruleset's verdict does not fail on any one unit moving away, because a fix moves
//! the others: efficiencies are field means and average exactly 50% over a cost list, so
//! pulling Riflemen from 84% to 50% hands 34 pp to the other units, some of them already above
//! 50%. The verdict is the net change of the distance from 50% summed over the units whose
//! efficiency was flagged: *balance improved* when it fell by more than `--tolerance`, *got
//! worse* (exit 1) when it rose by more, *moved* otherwise (pair scores only, or moves that
//! cancel). `--strict` fails on any flagged move, as the check did before it knew direction.
//!
//! The config lines that changed come from the config text the baseline records
//! (`summary.json` → `config.text`, written by `pointsworth report`), so the diff needs no
//! git history and works on any CI checkout depth.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use statrs::distribution::{ContinuousCDF, Normal};

use super::common::{AppError, load, progress_bar, stdout_write};
use crate::analysis::{Matrix, RulesetAnalysis, analyse};
use crate::cli::{CheckArgs, ReportArgs, SimArgs};
use crate::report::summary::SUMMARY_FORMAT;
use crate::rulesets::{AnyRuleset, UnitInfo, implemented};
use crate::stats::Estimate;
use crate::with_ruleset;

/// Family-wise significance level of the Holm-corrected tests.
pub const ALPHA: f64 = 0.05;

/// The parts of a baseline `summary.json` the check needs.
#[derive(Debug, Clone, Deserialize)]
pub struct Baseline {
    pub summary_format: u32,
    pub ruleset: String,
    pub title: String,
    pub config: BaselineConfig,
    pub seed: u64,
    pub precision: BaselinePrecision,
    pub units: Vec<UnitInfo>,
    pub matrix_1v1: Matrix,
    pub matrix_points: Matrix,
    /// Fair cost per unit id from the baseline's `fair_costs.csv` (empty without one).
    #[serde(skip)]
    pub fair_costs: Vec<(String, Estimate)>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct BaselineConfig {
    pub path: String,
    pub hash: String,
    /// Absent in baselines written before the text was recorded.
    #[serde(default)]
    pub text: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct BaselinePrecision {
    pub target_error: f64,
    pub max_trials_per_matchup: u64,
    /// Every matchup played exactly `max_trials_per_matchup` trials (absent: the stopping rule).
    #[serde(default)]
    pub fixed_trials: bool,
}

impl Baseline {
    /// Reads `dir/RULESET/summary.json`. Errors name the file.
    pub fn read(dir: &Path, ruleset: &str) -> Result<Self, AppError> {
        let path = dir.join(ruleset).join("summary.json");
        let text = crate::config::read_text(&path).map_err(|source| AppError::Io {
            context: format!("reading baseline {} (make one with `pointsworth check --update`)", path.display()),
            source,
        })?;
        let b: Baseline = serde_json::from_str(&text).map_err(|e| {
            AppError::Usage(format!(
                "{}:{}:{}: not a pointsworth summary.json: {e}",
                path.display(),
                e.line(),
                e.column()
            ))
        })?;
        if b.summary_format != SUMMARY_FORMAT {
            return Err(AppError::Usage(format!(
                "{}: summary_format {} but this pointsworth reads {SUMMARY_FORMAT}; re-create it with `pointsworth check --update`",
                path.display(),
                b.summary_format
            )));
        }
        if b.ruleset != ruleset {
            return Err(AppError::Usage(format!(
                "{}: is the baseline of {:?}, not {ruleset:?}",
                path.display(),
                b.ruleset
            )));
        }
        b.validate().map_err(|m| {
            AppError::Usage(format!("{}: {m} (re-create it with `pointsworth check --update`)", path.display()))
        })?;
        Ok(b)
    }

    /// Checks the baseline as data before any work: a file from a pull request is not trusted.
    /// The precision is one a run can have, units are distinct with positive costs, and each
    /// matrix is square over baseline units with every probability and interval in [0, 1],
    /// `lo ≤ value ≤ hi`. The message names the field: `matrix_1v1.cells[2][5].a_score: ...`.
    pub fn validate(&self) -> Result<(), String> {
        let p = &self.precision;
        if !(p.target_error > 0.0 && p.target_error < 0.5) {
            return Err(format!("precision.target_error must be in (0, 0.5), got {}", p.target_error));
        }
        if !(1..=super::common::MAX_TRIALS).contains(&p.max_trials_per_matchup) {
            return Err(format!(
                "precision.max_trials_per_matchup must be 1 to {}, got {}",
                super::common::MAX_TRIALS,
                p.max_trials_per_matchup
            ));
        }
        if self.units.is_empty() || self.units.len() > MAX_UNITS {
            return Err(format!("units must list 1 to {MAX_UNITS} units, got {}", self.units.len()));
        }
        for (i, u) in self.units.iter().enumerate() {
            if u.id.is_empty() || self.units[..i].iter().any(|v| v.id == u.id) {
                return Err(format!("units[{i}].id {:?} is empty or repeated", u.id));
            }
            if !(u.cost.is_finite() && u.cost > 0.0) {
                return Err(format!("units[{i}].cost must be a number more than 0, got {}", u.cost));
            }
        }
        for (name, m) in [("matrix_1v1", &self.matrix_1v1), ("matrix_points", &self.matrix_points)] {
            check_matrix(m, &self.units).map_err(|e| format!("{name}.{e}"))?;
        }
        Ok(())
    }
}

/// The most units a baseline may list (a cost list is a few dozen).
const MAX_UNITS: usize = 1000;

/// [`Baseline::validate`] of one matrix; the message starts with the field below the matrix.
fn check_matrix(m: &Matrix, units: &[UnitInfo]) -> Result<(), String> {
    let k = m.units.len();
    for (i, id) in m.units.iter().enumerate() {
        if !units.iter().any(|u| &u.id == id) || m.units[..i].contains(id) {
            return Err(format!("units[{i}] {id:?} is not a unit of the baseline's units, or is repeated"));
        }
    }
    if m.cells.len() != k || m.cells.iter().any(|row| row.len() != k) {
        return Err(format!("cells must be {k} rows of {k} (one per unit), got {} rows", m.cells.len()));
    }
    for (i, row) in m.cells.iter().enumerate() {
        for (j, c) in row.iter().enumerate() {
            for (what, e) in
                [("a_wins", &c.a_wins), ("b_wins", &c.b_wins), ("draws", &c.draws), ("a_score", &c.a_score)]
            {
                let in_unit = |x: f64| (0.0..=1.0).contains(&x);
                if !(in_unit(e.lo) && in_unit(e.value) && in_unit(e.hi) && e.lo <= e.value && e.value <= e.hi) {
                    return Err(format!(
                        "cells[{i}][{j}].{what}: value {} in [{}, {}] must be a probability inside its interval, \
                         lo ≤ value ≤ hi, all in [0, 1]",
                        e.value, e.lo, e.hi
                    ));
                }
            }
            if !(c.a_score_se >= 0.0 && c.a_score_se <= 1.0) {
                return Err(format!("cells[{i}][{j}].a_score_se must be 0 to 1, got {}", c.a_score_se));
            }
        }
    }
    Ok(())
}

/// One number compared between the baseline and the re-run.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// "points efficiency", "1v1 mean score", "points-matched score", "1v1 score".
    pub metric: &'static str,
    /// The unit, or "A vs B" for a matchup (score of A).
    pub subject: String,
    pub old: Estimate,
    pub new: Estimate,
    pub old_se: f64,
    pub new_se: f64,
    /// Two-sided p-value of the z-test, before correction.
    pub p: f64,
    /// Significant after Holm's correction.
    pub significant: bool,
    /// Significant and larger than the tolerance.
    pub flagged: bool,
}

/// Which way a metric moved with respect to balance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Closer to its fair value (50% for points efficiency and points-matched scores).
    Toward,
    /// Further from it.
    Away,
    /// No fair value to move toward (a 1v1 score), or as far from it as before.
    Neither,
}

impl Comparison {
    /// new − old, as a probability.
    pub fn change(&self) -> f64 {
        self.new.value - self.old.value
    }

    /// Whether this metric is fair at 50%: points efficiency and points-matched scores (equal
    /// points, even odds). A 1v1 score between units of different costs has no fair value.
    pub fn fair_at_half(&self) -> bool {
        self.metric == "points efficiency" || self.metric == "points-matched score"
    }

    /// The change of the distance from 50%, |new − ½| − |old − ½| (probability units; negative
    /// is toward balance); 0 for a metric without a fair value.
    pub fn imbalance_change(&self) -> f64 {
        if !self.fair_at_half() {
            return 0.0;
        }
        (self.new.value - 0.5).abs() - (self.old.value - 0.5).abs()
    }

    /// Toward or away from balance, or neither (as far from 50% up to rounding, 1e-12).
    pub fn direction(&self) -> Direction {
        let d = self.imbalance_change();
        if d < -1e-12 {
            Direction::Toward
        } else if d > 1e-12 {
            Direction::Away
        } else {
            Direction::Neither
        }
    }
}

/// How the balance of one ruleset moved, from its flagged metrics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Balance {
    /// Nothing flagged.
    Unchanged,
    /// The flagged efficiencies are, net, closer to 50% by more than the tolerance.
    Improved,
    /// Net further from 50% by more than the tolerance: the check fails.
    Worse,
    /// Flagged moves that do not add up to either (pair or 1v1 scores only, or cancelling).
    Moved,
}

/// The net change of the distance from 50% over the flagged points efficiencies, in
/// probability units (negative: toward balance).
pub fn net_imbalance_change(comparisons: &[Comparison]) -> f64 {
    comparisons.iter().filter(|c| c.flagged && c.metric == "points efficiency").map(Comparison::imbalance_change).sum()
}

/// The balance verdict of one ruleset's corrected comparisons, `tolerance` in probability units.
pub fn balance(comparisons: &[Comparison], tolerance: f64) -> Balance {
    if !comparisons.iter().any(|c| c.flagged) {
        return Balance::Unchanged;
    }
    let net = net_imbalance_change(comparisons);
    if net > tolerance + 1e-12 {
        Balance::Worse
    } else if net < -tolerance - 1e-12 {
        Balance::Improved
    } else {
        Balance::Moved
    }
}

/// Reads the fair cost of each unit from `dir/RULESET/fair_costs.csv` (columns `unit`,
/// `fair_cost`, `fair_cost_lo`, `fair_cost_hi`); empty when the file or a column is missing or
/// a row does not parse: the fair cost only annotates cost edits.
pub fn read_fair_costs(dir: &Path, ruleset: &str) -> Vec<(String, Estimate)> {
    let Ok(mut r) = csv::Reader::from_path(dir.join(ruleset).join("fair_costs.csv")) else { return Vec::new() };
    let Ok(header) = r.headers().cloned() else { return Vec::new() };
    let col = |name: &str| header.iter().position(|h| h == name);
    let (Some(u), Some(v), Some(lo), Some(hi)) =
        (col("unit"), col("fair_cost"), col("fair_cost_lo"), col("fair_cost_hi"))
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for row in r.records() {
        let Ok(row) = row else { return Vec::new() };
        let num = |i: usize| row.get(i).and_then(|x| x.parse::<f64>().ok()).filter(|x| x.is_finite());
        match (row.get(u), num(v), num(lo), num(hi)) {
            (Some(id), Some(value), Some(lo), Some(hi)) => out.push((id.to_string(), Estimate { value, lo, hi })),
            // No fair cost for this unit (e.g. none found in the search range): skip it.
            _ => continue,
        }
    }
    out
}

/// Two-sided p-value of the unpooled two-proportion z-test. Two exact values (se 0) that
/// differ give p = 0; equal values give p = 1.
pub fn two_proportion_p(old: f64, old_se: f64, new: f64, new_se: f64) -> f64 {
    let d = (new - old).abs();
    let se = (old_se * old_se + new_se * new_se).sqrt();
    if d == 0.0 {
        return 1.0;
    }
    if se == 0.0 {
        return 0.0;
    }
    let n = Normal::standard();
    (2.0 * n.sf(d / se)).clamp(0.0, 1.0)
}

/// Holm's step-down procedure: which of `p` are rejected at family-wise level `alpha`.
pub fn holm(p: &[f64], alpha: f64) -> Vec<bool> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let mut rejected = vec![false; m];
    for (rank, &i) in order.iter().enumerate() {
        if p[i] <= alpha / (m - rank) as f64 {
            rejected[i] = true;
        } else {
            break;
        }
    }
    rejected
}

/// Standard error of row `i`'s mean score against the other units: √(Σ se²) / (k − 1).
fn row_se(m: &Matrix, i: usize) -> f64 {
    let k = m.units.len();
    if k < 2 {
        return 0.0;
    }
    let s: f64 = (0..k).filter(|&j| j != i).map(|j| m.cells[i][j].a_score_se.powi(2)).sum();
    s.sqrt() / (k - 1) as f64
}

/// The display name of unit `id`, or the id when the list lacks it.
fn name_of(units: &[UnitInfo], id: &str) -> String {
    units.iter().find(|u| u.id == id).map_or_else(|| id.to_string(), |u| u.name.clone())
}

/// Compares every metric of `base` with `new`; `tolerance` in probability units (0.02 = 2 pp).
/// One ruleset is the whole family; [`compare_all`] corrects over several.
pub fn compare(base: &Baseline, new: &RulesetAnalysis, tolerance: f64) -> Vec<Comparison> {
    compare_all(&[(base, new)], tolerance).pop().unwrap_or_default()
}

/// [`compare`] for every (baseline, re-run) pair of one `check` run, with Holm's correction
/// over all their metrics at once: the family-wise error [`ALPHA`] holds for the whole run.
pub fn compare_all(pairs: &[(&Baseline, &RulesetAnalysis)], tolerance: f64) -> Vec<Vec<Comparison>> {
    let mut families: Vec<Vec<Comparison>> = pairs.iter().map(|(b, n)| uncorrected(b, n)).collect();
    correct(&mut families, tolerance);
    families
}

/// Holm over the p-values of every family together, then the tolerance: sets `significant`
/// and `flagged`.
fn correct(families: &mut [Vec<Comparison>], tolerance: f64) {
    let p: Vec<f64> = families.iter().flatten().map(|c| c.p).collect();
    let mut rejected = holm(&p, ALPHA).into_iter();
    for c in families.iter_mut().flatten() {
        let r = rejected.next().unwrap_or(false);
        c.significant = r;
        // A hair of slack so a change of exactly the tolerance (in rounding) is not flagged.
        c.flagged = r && c.change().abs() > tolerance + 1e-12;
    }
}

/// Every metric of `base` against `new` with its uncorrected p-value.
fn uncorrected(base: &Baseline, new: &RulesetAnalysis) -> Vec<Comparison> {
    let mut out = Vec::new();
    let pos = |m: &Matrix, id: &str| m.units.iter().position(|u| u == id);
    for (metric, bm, nm) in [
        ("points efficiency", &base.matrix_points, &new.matrix_points),
        ("1v1 mean score", &base.matrix_1v1, &new.matrix_1v1),
    ] {
        for (bi, id) in bm.units.iter().enumerate() {
            let Some(ni) = pos(nm, id) else { continue };
            let mean = |m: &Matrix, i: usize| {
                let k = m.units.len();
                let v: f64 = (0..k).filter(|&j| j != i).map(|j| m.cells[i][j].a_score.value).sum::<f64>();
                v / (k.max(2) - 1) as f64
            };
            let (old_se, new_se) = (row_se(bm, bi), row_se(nm, ni));
            let (ov, nv) = (mean(bm, bi), mean(nm, ni));
            let est = |v: f64, se: f64| crate::stats::normal(v, se, crate::stats::CONFIDENCE, 0.0, 1.0);
            out.push(Comparison {
                metric,
                subject: name_of(&base.units, id),
                old: est(ov, old_se),
                new: est(nv, new_se),
                old_se,
                new_se,
                p: 1.0,
                significant: false,
                flagged: false,
            });
        }
    }
    for (metric, bm, nm) in [
        ("points-matched score", &base.matrix_points, &new.matrix_points),
        ("1v1 score", &base.matrix_1v1, &new.matrix_1v1),
    ] {
        for (bi, a) in bm.units.iter().enumerate() {
            for (bj, b) in bm.units.iter().enumerate().skip(bi + 1) {
                let (Some(ni), Some(nj)) = (pos(nm, a), pos(nm, b)) else { continue };
                let (o, n) = (&bm.cells[bi][bj], &nm.cells[ni][nj]);
                out.push(Comparison {
                    metric,
                    subject: format!("{} vs {}", name_of(&base.units, a), name_of(&base.units, b)),
                    old: o.a_score,
                    new: n.a_score,
                    old_se: o.a_score_se,
                    new_se: n.a_score_se,
                    p: 1.0,
                    significant: false,
                    flagged: false,
                });
            }
        }
    }
    for c in &mut out {
        c.p = two_proportion_p(c.old.value, c.old_se, c.new.value, c.new_se);
    }
    out
}

/// The verdict for one ruleset, with its Markdown section.
#[derive(Debug)]
pub struct Verdict {
    /// The check fails for this ruleset: balance got worse, units were added or removed, or
    /// (`--strict`) anything moved.
    pub regression: bool,
    pub balance: Balance,
    pub markdown: String,
}

fn pct(e: &Estimate) -> String {
    if e.lo == e.hi {
        format!("{:.1}%", 100.0 * e.value)
    } else {
        format!("{:.1}% [{:.1}, {:.1}]", 100.0 * e.value, 100.0 * e.lo, 100.0 * e.hi)
    }
}

fn p_text(p: f64) -> String {
    if p < 1e-4 { "< 0.0001".to_string() } else { format!("{p:.4}") }
}

/// A unified diff of the config text, or a note when the baseline recorded none.
fn config_diff(base: &Baseline, new_text: &str, new_hash: &str, new_path: &str) -> String {
    if base.config.hash == new_hash {
        return "The config is unchanged.\n".to_string();
    }
    let Some(old) = &base.config.text else {
        return format!(
            "The config changed (hash {} → {new_hash}), but the baseline records no config text to diff \
             against (it predates `config.text`); `pointsworth check --update` records it.\n",
            base.config.hash
        );
    };
    let diff = similar::TextDiff::from_lines(old.as_str(), new_text);
    let body = diff.unified_diff().context_radius(2).header(&base.config.path, new_path).to_string();
    format!("Config lines that changed:\n\n```diff\n{}```\n", body)
}

/// What a `check` run compared: its tolerance, whether `--quick`, and the size of the Holm
/// family (every metric of every ruleset checked) with the number of rulesets in it.
#[derive(Debug, Clone, Copy)]
pub struct CheckRun {
    pub tolerance_pp: f64,
    pub quick: bool,
    /// Fail on any flagged move, whichever way.
    pub strict: bool,
    pub family: usize,
    pub rulesets: usize,
}

/// Writes the Markdown section of one ruleset from its corrected `comparisons`
/// ([`compare_all`]).
pub fn verdict(
    base: &Baseline,
    new: &RulesetAnalysis,
    comparisons: &[Comparison],
    new_text: &str,
    run: &CheckRun,
) -> Verdict {
    let CheckRun { tolerance_pp, quick, strict, .. } = *run;
    let added: Vec<&UnitInfo> = new.units.iter().filter(|u| !base.units.iter().any(|b| b.id == u.id)).collect();
    let removed: Vec<&UnitInfo> = base.units.iter().filter(|u| !new.units.iter().any(|n| n.id == u.id)).collect();
    let mut flagged: Vec<&Comparison> = comparisons.iter().filter(|c| c.flagged).collect();
    flagged.sort_by(|a, b| b.change().abs().total_cmp(&a.change().abs()));
    let balance = balance(comparisons, tolerance_pp / 100.0);
    let list_changed = !added.is_empty() || !removed.is_empty();
    let regression = list_changed || balance == Balance::Worse || strict && !flagged.is_empty();
    let mut md = String::new();
    let mark = match balance {
        _ if list_changed => "❌ the cost list changed",
        Balance::Unchanged => "✅ no balance change beyond the tolerance",
        Balance::Improved if regression => "❌ balance improved, but `--strict` fails on any move",
        Balance::Improved => "✅ balance improved",
        Balance::Worse => "❌ balance got worse",
        Balance::Moved if regression => "❌ balance moved (`--strict`)",
        Balance::Moved => "⚠️ balance moved, neither better nor worse",
    };
    let _ = writeln!(md, "### {} — {mark}\n", new.title);
    let precision = if base.precision.fixed_trials {
        let quick = if quick {
            format!(" (`--quick`; baseline {})", base.precision.max_trials_per_matchup)
        } else {
            String::new()
        };
        format!("exactly {} trials per matchup{quick}, as the baseline", new.max_trials)
    } else {
        let quick = if quick {
            format!(" (`--quick`; baseline ±{} pp)", 100.0 * base.precision.target_error)
        } else {
            String::new()
        };
        format!("a target error of ±{} pp per matchup{quick}", 100.0 * new.target_error)
    };
    let family = if run.rulesets > 1 {
        format!("over all {} metrics of the {} rulesets checked", run.family, run.rulesets)
    } else {
        "over its metrics".to_string()
    };
    let _ = writeln!(
        md,
        "Re-ran `{}` with the baseline's seed {} at {precision} and compared {} metrics with `{}/summary.json`. \
         A change is flagged when a two-proportion z-test finds it significant (Holm-corrected {family}, {}% \
         family-wise) **and** it exceeds ±{} pp. Points efficiency and points-matched scores are fair at \
         50%: the check fails when the flagged efficiencies moved, net, further from 50% by more than the \
         tolerance{}.\n",
        new.ruleset,
        new.seed,
        comparisons.len(),
        base.ruleset,
        100.0 * ALPHA,
        tolerance_pp,
        if strict { " (here `--strict`: on any flagged move)" } else { "" },
    );
    if balance != Balance::Unchanged && !list_changed {
        let _ = writeln!(md, "{}\n", balance_sentence(comparisons, balance));
    }
    let cost_changes: Vec<String> = base
        .units
        .iter()
        .filter_map(|b| {
            let n = new.units.iter().find(|n| n.id == b.id)?;
            (n.cost != b.cost).then(|| {
                let fair = base.fair_costs.iter().find(|(id, _)| *id == b.id).map(|(_, f)| {
                    let way = if (n.cost - f.value).abs() < (b.cost - f.value).abs() { "toward" } else { "away from" };
                    format!(" ({way} its fair cost in the baseline, {:.1} [{:.1}, {:.1}])", f.value, f.lo, f.hi)
                });
                format!("- **{}**: {} → {} points{}", b.name, b.cost, n.cost, fair.unwrap_or_default())
            })
        })
        .collect();
    if !cost_changes.is_empty() {
        let _ = writeln!(md, "Cost changes:\n\n{}\n", cost_changes.join("\n"));
    }
    for (what, list) in [("added to", &added), ("removed from", &removed)] {
        if !list.is_empty() {
            let names: Vec<&str> = list.iter().map(|u| u.name.as_str()).collect();
            let _ = writeln!(
                md,
                "Units {what} the cost list: **{}**. Every efficiency is a mean over the field, so the \
                 baseline no longer applies; accept with `pointsworth check --update`.\n",
                names.join(", ")
            );
        }
    }
    if flagged.is_empty() {
        let largest = comparisons.iter().max_by(|a, b| a.change().abs().total_cmp(&b.change().abs()));
        match largest {
            Some(c) if c.change() != 0.0 => {
                let _ = writeln!(
                    md,
                    "No metric moved significantly by more than {tolerance_pp} pp. Largest change: {} of {}, \
                     {} → {} ({:+.1} pp, p = {}{}).\n",
                    c.metric,
                    c.subject,
                    pct(&c.old),
                    pct(&c.new),
                    100.0 * c.change(),
                    p_text(c.p),
                    if c.significant { ", significant but within the tolerance" } else { ", not significant" }
                );
            }
            _ => {
                let _ = writeln!(md, "Every metric is identical to the baseline.\n");
            }
        }
    } else {
        // Units whose own numbers moved, biggest change first, each once.
        let mut units_moved: Vec<&str> = Vec::new();
        for c in flagged.iter().filter(|c| c.metric == "points efficiency" || c.metric == "1v1 mean score") {
            if !units_moved.contains(&c.subject.as_str()) {
                units_moved.push(&c.subject);
            }
        }
        if !units_moved.is_empty() {
            let _ = writeln!(md, "Units whose balance moved: **{}**.\n", units_moved.join("**, **"));
        }
        let _ = writeln!(
            md,
            "| metric | unit or matchup (row's score) | baseline [95% CI] | now [95% CI] | change | balance | p |"
        );
        let _ = writeln!(md, "|---|---|---|---|---:|---|---:|");
        const MAX_ROWS: usize = 40;
        for c in flagged.iter().take(MAX_ROWS) {
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} | {:+.1} pp | {} | {} |",
                c.metric,
                c.subject,
                pct(&c.old),
                pct(&c.new),
                100.0 * c.change(),
                direction_text(c),
                p_text(c.p)
            );
        }
        if flagged.len() > MAX_ROWS {
            let _ = writeln!(md, "\n…and {} more flagged metrics.", flagged.len() - MAX_ROWS);
        }
        let _ = writeln!(md);
    }
    let path = new.config_path.clone();
    md.push_str(&config_diff(base, new_text, &new.config_hash, &path));
    Verdict { regression, balance, markdown: md }
}

/// "toward 50%", "away from 50%", or why neither.
fn direction_text(c: &Comparison) -> &'static str {
    match c.direction() {
        Direction::Toward => "toward 50%",
        Direction::Away => "away from 50%",
        Direction::Neither if c.fair_at_half() => "as far from 50%",
        Direction::Neither => "moved (1v1: no fair value)",
    }
}

/// The sentence under a moved ruleset's heading: the net change of the distance from 50% and
/// each flagged efficiency's share, biggest first.
fn balance_sentence(comparisons: &[Comparison], balance: Balance) -> String {
    let net = net_imbalance_change(comparisons);
    let mut moved: Vec<&Comparison> =
        comparisons.iter().filter(|c| c.flagged && c.metric == "points efficiency").collect();
    if moved.is_empty() {
        return "No unit's points efficiency moved beyond the tolerance; only matchup scores did.".to_string();
    }
    moved.sort_by(|a, b| b.imbalance_change().abs().total_cmp(&a.imbalance_change().abs()));
    let parts: Vec<String> = moved
        .iter()
        .map(|c| {
            let d = 100.0 * c.imbalance_change();
            let way = if d < 0.0 { "closer" } else { "further" };
            format!("{} {:.1} → {:.1}% ({:.1} pp {way})", c.subject, 100.0 * c.old.value, 100.0 * c.new.value, d.abs())
        })
        .collect();
    let lead = match balance {
        Balance::Improved => "**Balance improved**",
        Balance::Worse => "**Balance got worse**",
        _ => "**Balance moved**",
    };
    let net_text = if net < 0.0 {
        format!("{:.1} pp closer to 50%", -100.0 * net)
    } else if net > 0.0 {
        format!("{:.1} pp further from 50%", 100.0 * net)
    } else {
        "as far from 50% as before".to_string()
    };
    format!("{lead}: the points efficiencies that moved are, summed, {net_text}: {}.", parts.join("; "))
}

/// Runs `pointsworth check`.
pub fn run(args: CheckArgs) -> Result<(), AppError> {
    if !(args.tolerance >= 0.0 && args.tolerance < 100.0) {
        return Err(AppError::Usage(format!(
            "--tolerance must be in [0, 100) percentage points, got {}",
            args.tolerance
        )));
    }
    let ids: Vec<String> = if args.rulesets.is_empty() {
        let found: Vec<String> = implemented()
            .into_iter()
            .filter(|id| {
                args.baseline.join(id).join("summary.json").exists() || args.update && crate::shipped::has_default(id)
            })
            .map(String::from)
            .collect();
        if found.is_empty() {
            return Err(AppError::Usage(format!(
                "no baseline found: no {}/RULESET/summary.json for any of {} (run from the repository root, or \
                 pass --baseline DIR)",
                args.baseline.display(),
                implemented().join(", ")
            )));
        }
        found
    } else {
        args.rulesets.iter().map(|r| AnyRuleset::check_id(r).map(String::from)).collect::<Result<_, _>>()?
    };
    if args.config.is_some() && ids.len() != 1 {
        return Err(AppError::Usage("--config needs exactly one RULESET".into()));
    }
    if !args.set.is_empty() && args.update {
        return Err(AppError::Usage(
            "--set cannot be used with --update: a baseline records the config text, so edit the config instead".into(),
        ));
    }
    if !args.set.is_empty() && ids.len() != 1 {
        return Err(AppError::Usage("--set needs exactly one RULESET (its keys are that ruleset's)".into()));
    }
    if let Some(path) = &args.markdown {
        crate::commands::outputs::check_file("--markdown", path)?;
    }
    if args.update {
        let subdirs: Vec<&str> = ids.iter().map(String::as_str).collect();
        crate::commands::outputs::check_dir("--baseline", &args.baseline, &subdirs)?;
        return update(&args, &ids);
    }
    // Read and validate everything first: bad input must cost nothing.
    let mut work = Vec::new();
    for id in &ids {
        let mut base = Baseline::read(&args.baseline, id)?;
        base.fair_costs = read_fair_costs(&args.baseline, id);
        let loaded = load(id, args.config.as_ref(), &args.set)?;
        work.push((base, loaded));
    }
    let mut analyses = Vec::new();
    for (base, loaded) in &work {
        let pb = progress_bar();
        let analysis = with_ruleset!(&loaded.ruleset, r => {
            let mut s = crate::analysis::AnalysisSettings::from_ruleset(r, base.seed);
            s.target_error = base.precision.target_error;
            s.max_trials = base.precision.max_trials_per_matchup;
            s.fixed_trials = base.precision.fixed_trials;
            if args.quick {
                // About the trials of twice the target error: a quarter.
                s.target_error = (2.0 * s.target_error).min(0.49);
                if s.fixed_trials {
                    s.max_trials = s.max_trials.div_ceil(4);
                }
            }
            // The distance sweep is a chart, not a compared metric: skip its seven matrices.
            s.sweep_distances.clear();
            let path = loaded.source.path.display().to_string();
            analyse(r, &s, &path, &loaded.source.hash_hex(), &pb)
        });
        pb.finish_and_clear();
        analyses.push(analysis);
    }
    let pairs: Vec<(&Baseline, &RulesetAnalysis)> = work.iter().map(|(b, _)| b).zip(&analyses).collect();
    let families = compare_all(&pairs, args.tolerance / 100.0);
    let run = CheckRun {
        tolerance_pp: args.tolerance,
        quick: args.quick,
        strict: args.strict,
        family: families.iter().map(Vec::len).sum(),
        rulesets: families.len(),
    };
    let mut sections = String::new();
    let mut regressions = Vec::new();
    let mut by_balance: Vec<(Balance, String)> = Vec::new();
    for (((base, loaded), analysis), comparisons) in work.iter().zip(&analyses).zip(&families) {
        let v = verdict(base, analysis, comparisons, &loaded.source.text, &run);
        if v.regression {
            regressions.push(analysis.title.clone());
        }
        by_balance.push((v.balance, analysis.title.clone()));
        sections.push_str(&v.markdown);
        if !args.set.is_empty() {
            let sets: Vec<String> = args.set.iter().map(|s| format!("`--set {s}`")).collect();
            let _ = writeln!(sections, "\nOn the command line: {}.", sets.join(", "));
        }
        sections.push('\n');
    }
    let mut md = format!("## pointsworth check\n\n{}\n\n", lead_line(&by_balance));
    md.push_str(&sections);
    if regressions.is_empty() {
        md.push_str("No regression. ");
    } else {
        md.push_str(&format!("**Regression in {}.** ", regressions.join(", ")));
    }
    md.push_str(
        "If the change is intended, accept it with `pointsworth check --update` and commit the new baseline.\n",
    );
    if let Some(path) = &args.markdown {
        crate::report::write_atomic(path, md.as_bytes())
            .map_err(|source| AppError::Io { context: format!("writing {}", path.display()), source })?;
    }
    if let Some(path) = &args.html {
        // The summary's lead line: balance improved / got worse / moved / no change, per ruleset.
        let headline = lead_line(&by_balance).trim_matches('*').trim_end_matches('.').to_string();
        let page = crate::report::html::check_page(&md, &headline, env!("CARGO_PKG_VERSION"))?;
        crate::report::write_atomic(path, page.as_bytes())
            .map_err(|source| AppError::Io { context: format!("writing {}", path.display()), source })?;
    }
    stdout_write(&md)?;
    if regressions.is_empty() {
        Ok(())
    } else {
        Err(AppError::Regression(format!("check failed: balance moved in {}", regressions.join(", "))))
    }
}

/// The summary's first line: where balance improved, got worse, moved, or did not change.
fn lead_line(by_balance: &[(Balance, String)]) -> String {
    let mut parts = Vec::new();
    for (b, what) in [
        (Balance::Worse, "balance got worse"),
        (Balance::Improved, "balance improved"),
        (Balance::Moved, "balance moved"),
        (Balance::Unchanged, "no balance change"),
    ] {
        let titles: Vec<&str> = by_balance.iter().filter(|(x, _)| *x == b).map(|(_, t)| t.as_str()).collect();
        if !titles.is_empty() {
            parts.push(format!("{what} in {}", titles.join(", ")));
        }
    }
    let mut line = parts.join("; ");
    if let Some(first) = line.get(..1) {
        line = format!("**{}{}.**", first.to_uppercase(), &line[1..]);
    }
    line
}

/// `--update`: a full `pointsworth report` of the rulesets into the baseline directory, with
/// the baseline's seed when there is one.
fn update(args: &CheckArgs, ids: &[String]) -> Result<(), AppError> {
    // (seed, fixed trial count) of each baseline; a new one gets seed 42 and the config's precision.
    let mut runs = Vec::new();
    for id in ids {
        let run = match Baseline::read(&args.baseline, id) {
            Ok(b) => (b.seed, b.precision.fixed_trials.then_some(b.precision.max_trials_per_matchup)),
            Err(_) => (42, None),
        };
        runs.push(run);
    }
    // One report per (seed, trials) keeps each ruleset's own (and one index when they agree).
    let mut distinct = runs.clone();
    distinct.dedup();
    for (seed, trials) in distinct {
        let group: Vec<String> =
            ids.iter().zip(&runs).filter(|(_, r)| **r == (seed, trials)).map(|(id, _)| id.clone()).collect();
        let report_args = ReportArgs {
            rulesets: group,
            sim: SimArgs {
                config: args.config.clone(),
                set: args.set.clone(),
                seed,
                trials,
                target_error: None,
                shard: None,
                tallies_out: None,
            },
            out: PathBuf::from(&args.baseline),
        };
        super::report::run(report_args)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holm_steps_down_and_stops_at_the_first_acceptance() {
        // m = 4: thresholds 0.0125, 0.0167, 0.025, 0.05 for the sorted p-values.
        assert_eq!(holm(&[0.01, 0.04, 0.015, 0.5], 0.05), vec![true, false, true, false]);
        // m = 2: 0.03 > 0.025 stops everything, even 0.04 < 0.05 (Bonferroni would also keep
        // both; plain 5% tests would reject both).
        assert_eq!(holm(&[0.03, 0.04], 0.05), vec![false, false]);
        // Holm is uniformly more powerful than Bonferroni: 0.02 ≤ 0.025, then 0.03 ≤ 0.05.
        assert_eq!(holm(&[0.02, 0.03], 0.05), vec![true, true]);
        assert!(holm(&[], 0.05).is_empty());
    }

    fn comparison(old: f64, new: f64, se: f64) -> Comparison {
        let e = |v: f64| Estimate { value: v, lo: v - 1.96 * se, hi: v + 1.96 * se };
        Comparison {
            metric: "points efficiency",
            subject: "x".into(),
            old: e(old),
            new: e(new),
            old_se: se,
            new_se: se,
            p: two_proportion_p(old, se, new, se),
            significant: false,
            flagged: false,
        }
    }

    #[test]
    fn the_family_is_every_metric_of_every_ruleset_checked() {
        // A 3.1 pp move with se 1 pp each side: z = 2.19, p = 0.0285. Alone (m = 1) it is
        // significant at 5%; beside a second ruleset's unchanged metric (m = 2) Holm needs
        // p ≤ 0.025 and keeps the family-wise error at 5% for the whole run.
        let moved = comparison(0.50, 0.531, 0.01);
        assert!((moved.p - 0.0285).abs() < 1e-3, "p = {}", moved.p);
        let mut alone = vec![vec![moved.clone()]];
        correct(&mut alone, 0.02);
        assert!(alone[0][0].significant && alone[0][0].flagged);
        let mut two = vec![vec![moved.clone()], vec![comparison(0.4, 0.4, 0.01)]];
        correct(&mut two, 0.02);
        assert!(!two[0][0].significant && !two[0][0].flagged, "corrected over both rulesets");
        // The tolerance cut-off: significant, but 3.1 pp is within ±5 pp.
        let mut wide = vec![vec![moved]];
        correct(&mut wide, 0.05);
        assert!(wide[0][0].significant && !wide[0][0].flagged);
    }

    #[test]
    fn direction_is_toward_or_away_from_50_percent_and_the_verdict_is_the_net_move() {
        let flagged = |metric: &'static str, old: f64, new: f64| Comparison {
            metric,
            flagged: true,
            significant: true,
            ..comparison(old, new, 0.001)
        };
        // The Riflemen fix of the shipped report: 84.0% → 49.9%, and Light Infantry pushed
        // from 74.4% to 82.7%.
        let fix = flagged("points efficiency", 0.840, 0.499);
        assert_eq!(fix.direction(), Direction::Toward);
        let side = flagged("points efficiency", 0.744, 0.827);
        assert_eq!(side.direction(), Direction::Away);
        // A unit below 50% pushed up is a move toward balance.
        assert_eq!(flagged("points efficiency", 0.30, 0.35).direction(), Direction::Toward);
        // 1v1 scores have no fair value; crossing 50% at the same distance is neither.
        assert_eq!(flagged("1v1 score", 0.30, 0.35).direction(), Direction::Neither);
        assert_eq!(flagged("points-matched score", 0.45, 0.55).direction(), Direction::Neither);
        // Net: 33.9 pp closer, 8.3 pp further → improved by 25.6 pp.
        let both = [fix.clone(), side.clone()];
        assert!((net_imbalance_change(&both) + 0.256).abs() < 1e-9);
        assert_eq!(balance(&both, 0.02), Balance::Improved);
        // The side effect alone is a move away; a pair score alone only moved.
        assert_eq!(balance(&[side], 0.02), Balance::Worse);
        assert_eq!(balance(&[flagged("points-matched score", 0.9, 0.2)], 0.02), Balance::Moved);
        // Unflagged changes count for nothing.
        assert_eq!(balance(&[Comparison { flagged: false, ..fix }], 0.02), Balance::Unchanged);
    }

    #[test]
    fn two_proportion_p_matches_the_normal_table() {
        // z = 0.03 / √(0.01² + 0.01²) = 2.1213 → two-sided p = 0.0339.
        let p = two_proportion_p(0.50, 0.01, 0.53, 0.01);
        assert!((p - 0.0339).abs() < 1e-4, "p = {p}");
        assert_eq!(two_proportion_p(0.3, 0.0, 0.3, 0.0), 1.0);
        assert_eq!(two_proportion_p(0.3, 0.0, 0.4, 0.0), 0.0);
    }
}
