//! A baseline report and the comparison of a re-run with it: what `check` (and `report` and
//! `matrix` with `--baseline DIR`) measure a change by.
//!
//! [`Baseline`] is the part of a committed `RULESET/summary.json` a comparison needs, read and
//! validated as untrusted data. [`compare_all`] compares every metric of a re-run with it
//! (points efficiency and 1v1 mean score per unit, the row unit's score in every pair of the
//! points-matched and 1v1 matrices), flags a change when a two-proportion z-test finds it
//! significant after Holm's correction and it exceeds the tolerance, and classes each move
//! toward or away from balance ([`Direction`], [`Balance`]). Why these tests and this verdict:
//! see [`super::check`].
//!
//! Layer: commands (see [`crate::commands`]).

use std::path::Path;

use serde::Deserialize;
use statrs::distribution::{ContinuousCDF, Normal};

use super::common::AppError;
use crate::analysis::{Matrix, RulesetAnalysis};
use crate::report::summary::SUMMARY_FORMAT;
use crate::rulesets::UnitInfo;
use crate::stats::Estimate;
/// The tolerance of `report`/`matrix --baseline`, in probability units: `check`'s default
/// `--tolerance` of 2 percentage points.
pub const TOLERANCE: f64 = 0.02;

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
    /// Which play produced each level's numbers (`summary.json`'s `play`; absent in a
    /// baseline made before it).
    #[serde(default)]
    pub play: Option<BaselinePlay>,
}

/// The part of `summary.json`'s `play` the check needs: how the points-matched squads played.
#[derive(Debug, Clone, Deserialize)]
pub struct BaselinePlay {
    pub squads: BaselineLevel,
}

/// One level's play: `"equilibrium"`, `"scripted"`, ... (`crate::report::summary::PlayLevel`).
#[derive(Debug, Clone, Deserialize)]
pub struct BaselineLevel {
    pub play: String,
}

impl Baseline {
    /// Whether the baseline's points-matched squads played the squads' tactic game's
    /// equilibrium (`crate::analysis::squads_game`), so that the check plays it too.
    pub fn squads_play_equilibrium(&self) -> bool {
        self.play.as_ref().is_some_and(|p| p.squads.play == "equilibrium")
    }
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

/// Whether the two 1v1 matrices were played the same way: both under optimal play or both by
/// the scripted tactic. A baseline of the other kind (one made with `duel.optimal_play` off,
/// as `init`'s quick baseline is, or by an earlier version) cannot say whether a 1v1 number
/// moved: the 1v1 metrics are left out (`check` plays the baseline's way, so it never is).
pub fn same_play(base: &Baseline, new: &RulesetAnalysis) -> bool {
    base.matrix_1v1.is_optimal_play() == new.matrix_1v1.is_optimal_play()
}

/// Whether the two points-matched matrices were played the same way: both by the squads' tactic
/// game's equilibrium or both by the scripted tactic ([`Baseline::squads_play_equilibrium`]).
/// A baseline of the other kind (`init`'s quick baseline leaves the game out) cannot say whether
/// a points-matched number moved: those metrics are left out (`check` plays the baseline's way,
/// so it never is).
pub fn same_squads_play(base: &Baseline, new: &RulesetAnalysis) -> bool {
    base.squads_play_equilibrium() == new.squads_game.is_some()
}

/// Every metric of `base` against `new` with its uncorrected p-value. The 1v1 metrics only
/// where both 1v1 matrices were played the same way ([`same_play`]), the points-matched ones
/// likewise ([`same_squads_play`]).
fn uncorrected(base: &Baseline, new: &RulesetAnalysis) -> Vec<Comparison> {
    let mut out = Vec::new();
    let pos = |m: &Matrix, id: &str| m.units.iter().position(|u| u == id);
    let one_v_one = same_play(base, new);
    let squads = same_squads_play(base, new);
    for (metric, bm, nm, compared) in [
        ("points efficiency", &base.matrix_points, &new.matrix_points, squads),
        ("1v1 mean score", &base.matrix_1v1, &new.matrix_1v1, one_v_one),
    ] {
        if !compared {
            continue;
        }
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
    for (metric, bm, nm, compared) in [
        ("points-matched score", &base.matrix_points, &new.matrix_points, squads),
        ("1v1 score", &base.matrix_1v1, &new.matrix_1v1, one_v_one),
    ] {
        if !compared {
            continue;
        }
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

impl Balance {
    /// "balance improved", "balance got worse", "balance moved", "no balance change".
    pub fn label(self) -> &'static str {
        match self {
            Balance::Unchanged => "no balance change",
            Balance::Improved => "balance improved",
            Balance::Worse => "balance got worse",
            Balance::Moved => "balance moved",
        }
    }
}

/// "toward 50%", "away from 50%", or why neither.
pub(crate) fn direction_text(c: &Comparison) -> &'static str {
    match c.direction() {
        Direction::Toward => "toward 50%",
        Direction::Away => "away from 50%",
        Direction::Neither if c.fair_at_half() => "as far from 50%",
        Direction::Neither => "moved (1v1: no fair value)",
    }
}

/// The most moved metrics [`before_after`] lists.
const MAX_ROWS: usize = 40;

/// `report --baseline DIR` and `matrix --baseline DIR`: the metrics of `new` that moved against
/// `base` (flagged as `check` flags them, `tolerance` in probability units), before → after,
/// biggest change first, under a line with the balance verdict. Units only one side lists are
/// not compared.
pub fn before_after(base: &Baseline, dir: &Path, new: &RulesetAnalysis, tolerance: f64) -> String {
    let comparisons = compare(base, new, tolerance);
    let mut moved: Vec<&Comparison> = comparisons.iter().filter(|c| c.flagged).collect();
    moved.sort_by(|a, b| b.change().abs().total_cmp(&a.change().abs()));
    let mut head = format!(
        "{} against the baseline {}: {} ({} of {} metrics moved beyond ±{} pp, significant after Holm's correction)\n",
        new.title,
        dir.join(&base.ruleset).join("summary.json").display(),
        balance(&comparisons, tolerance).label(),
        moved.len(),
        comparisons.len(),
        crate::format::number(100.0 * tolerance, 2)
    );
    if !same_play(base, new) {
        let how = |optimal: bool| if optimal { "under optimal play" } else { "by the scripted tactic" };
        head.push_str(&format!(
            "1v1 metrics not compared: the baseline's 1v1 matrix was played {}, this run's {}.\n",
            how(base.matrix_1v1.is_optimal_play()),
            how(new.matrix_1v1.is_optimal_play())
        ));
    }
    if !same_squads_play(base, new) {
        let how = |eq: bool| if eq { "by the squads' tactic game's equilibrium" } else { "by the scripted tactic" };
        head.push_str(&format!(
            "points-matched metrics not compared: the baseline's squads were played {}, this run's {}.\n",
            how(base.squads_play_equilibrium()),
            how(new.squads_game.is_some())
        ));
    }
    if moved.is_empty() {
        return head;
    }
    let mut t = crate::term::table();
    t.set_header(vec!["metric", "unit or matchup (row's score)", "before → after", "change", "balance"]);
    for c in moved.iter().take(MAX_ROWS) {
        t.add_row(vec![
            c.metric.to_string(),
            c.subject.clone(),
            format!("{} → {}", crate::format::pct(&c.old), crate::format::pct(&c.new)),
            format!("{:+.1} pp", 100.0 * c.change()),
            direction_text(c).to_string(),
        ]);
    }
    let more = if moved.len() > MAX_ROWS { format!("…and {} more\n", moved.len() - MAX_ROWS) } else { String::new() };
    format!("{head}{t}\n{more}")
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
