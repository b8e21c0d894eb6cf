//! "Which readings decide the verdicts" (issue 43): every reading switch of a ruleset's
//! `[rules]` table ([`Ruleset::readings`], docs/rulings/readings.md) played each way beside the
//! reading in force, at a quick precision.
//!
//! For the reading in force and for each alternative value of each switch, one *snapshot*:
//! - the 1v1 matrix under optimal play at the report's start distance (exact: the value with
//!   both sides optimal only, [`Ruleset::optimal_score`], no scripted or best-response solve);
//! - each unit's points efficiency from a points-matched matrix at [`QUICK_TARGET_ERROR`]
//!   (the report's seed: every snapshot plays the same streams, common random numbers, so a
//!   difference between two readings is mostly the reading, not fresh noise);
//! - a quick suggested cost: one Newton step in ln(cost) from the quick efficiency with the
//!   balance solver's typical slope ([`TYPICAL_SLOPE`]: efficiency falls 0.3 per unit of
//!   ln cost), its interval carried from the efficiency's. A first-order estimate to compare
//!   readings by, not the fair-cost solver's price.
//!
//! Then the **flips**: a unit whose efficiency call (too cheap / fair / too expensive from its
//! 95% interval, as the verdict's duels method calls it) differs between the reading in force
//! and an alternative; a pair whose favoured side under optimal play changes by at least
//! [`PAIR_FLIP`]. The **largest moves**: every efficiency and optimal-score change, largest
//! first. The **rule holes** (issue 43 item 3): the pairs whose optimal value moves by at least
//! [`HOLE`] when one reading is switched, with both values: where optimal play leans on that
//! rule interaction.

use indicatif::ProgressBar;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::analysis::matrix::{AnalysisSettings, compute_matrix, unordered_pairs};
use crate::analysis::optimal_play::{self, OptimalPlay};
use crate::analysis::verdict::Call;
use crate::rulesets::Ruleset;
use crate::sim::duel::Squads;
use crate::stats::{CONFIDENCE, Estimate, mean_of};

/// The quick precision of the points-matched matrices: target 95% half-width per matchup.
pub const QUICK_TARGET_ERROR: f64 = 0.02;

/// d(efficiency)/d(ln cost) the quick suggested cost assumes (the balance solver's own value
/// where it has measured none).
pub const TYPICAL_SLOPE: f64 = -0.3;

/// A pair's optimal-play score must move at least this far (probability units) for a change of
/// the favoured side to count as a flip.
pub const PAIR_FLIP: f64 = 0.02;

/// A pair's optimal-play score moving at least this far under one reading makes it a rule hole.
pub const HOLE: f64 = 0.10;

/// Largest moves and rule holes listed.
pub const LISTED: usize = 12;

/// One reading's numbers, units in cost-list order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// Points efficiency at the quick precision, 95% interval.
    pub efficiency: Vec<Estimate>,
    /// Quick suggested cost (points) with its 95% interval (see the module docs).
    pub suggested: Vec<Estimate>,
    /// Row unit's score against the column unit under optimal play, `None` where there is no
    /// game for the pair (everywhere when `[duel] optimal_play = false`).
    pub optimal: Vec<Vec<Option<f64>>>,
}

/// One alternative value of one switch, with its snapshot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Alternative {
    /// `[rules]` key, the value in force and the alternative, e.g. `self_blast`, `caught`,
    /// `spared`; the rules-coverage row it belongs to.
    pub key: String,
    pub default: String,
    pub value: String,
    pub rule: String,
    pub snapshot: Snapshot,
}

impl Alternative {
    /// `self_blast = spared`.
    pub fn label(&self) -> String {
        format!("{} = {}", self.key, self.value)
    }
}

/// What a change measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Metric {
    /// A unit's points efficiency (quick precision, 95% interval).
    Efficiency,
    /// A pair's 1v1 score under optimal play (exact; the subject's first unit is the row).
    OptimalScore,
}

impl Metric {
    pub fn label(self) -> &'static str {
        match self {
            Metric::Efficiency => "points efficiency",
            Metric::OptimalScore => "1v1 under optimal play",
        }
    }
}

/// One number that moves with a reading.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Change {
    /// The alternative, `key = value`.
    pub reading: String,
    /// Unit names: one unit, or a pair `A v B` (A's score).
    pub subject: String,
    /// Unit ids of the subject (one or two).
    pub units: Vec<String>,
    pub metric: Metric,
    /// Under the reading in force and under the alternative (exact values: zero-width).
    pub default: Estimate,
    pub alternative: Estimate,
    /// What each value says: the efficiency's call (`too cheap`...), or the favoured side.
    pub default_call: String,
    pub alternative_call: String,
}

impl Change {
    /// alternative − default, probability units.
    pub fn delta(&self) -> f64 {
        self.alternative.value - self.default.value
    }
}

/// The section's data for one ruleset.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Readings {
    /// Start distance of every snapshot (the report's), in the ruleset's unit.
    pub distance: f64,
    /// Quick precision of the efficiency matrices, and the seed they share.
    pub target_error: f64,
    pub seed: u64,
    /// Unit ids and names, cost-list order.
    pub units: Vec<String>,
    pub names: Vec<String>,
    /// Current costs, points, cost-list order.
    pub costs: Vec<f64>,
    /// The reading in force.
    pub default: Snapshot,
    /// Each alternative of each switch, in the ruleset's order.
    pub alternatives: Vec<Alternative>,
    /// Calls that change: efficiency calls, then pairs' favoured sides; by reading.
    pub flips: Vec<Change>,
    /// The largest changes, largest first (at most [`LISTED`]).
    pub moves: Vec<Change>,
    /// Pairs whose optimal value moves by at least [`HOLE`] under one reading, largest first
    /// (at most [`LISTED`]).
    pub holes: Vec<Change>,
    /// Alternatives that could not be loaded, `key = value: why`.
    #[serde(default)]
    pub refused: Vec<String>,
}

impl Readings {
    /// Every change: each unit's efficiency and each pair's optimal score under each
    /// alternative against the reading in force (the section's CSV).
    pub fn all_changes(&self) -> Vec<Change> {
        changes(&self.names, &self.units, &self.default, &self.alternatives)
    }

    /// The flips that involve unit `id` (its efficiency call, or a pair it is in), in order.
    pub fn flips_of(&self, id: &str) -> Vec<&Change> {
        self.flips.iter().filter(|c| c.units.iter().any(|u| u == id)).collect()
    }
}

/// A unit's efficiency call label.
fn call(e: &Estimate) -> &'static str {
    Call::of(e, 0.5).label()
}

/// The quick suggested cost of a unit of cost `cost` with efficiency `e`: `cost · exp((e − ½) /
/// −slope)`, applied to the interval's ends.
pub fn quick_cost(cost: f64, e: &Estimate) -> Estimate {
    let at = |x: f64| cost * ((x - 0.5) / -TYPICAL_SLOPE).exp();
    Estimate { value: at(e.value), lo: at(e.lo), hi: at(e.hi) }
}

/// Where a snapshot's optimal-play matrix comes from.
enum Solved<'a, R> {
    /// The report's own solve of the same rules, if it ran.
    Report(Option<&'a OptimalPlay>),
    /// An alternative: pairs whose game is the same as under the reading in force
    /// ([`Ruleset::same_duel`]) take that matrix's value; the rest are solved.
    Beside(&'a R, &'a [Vec<Option<f64>>]),
}

/// Unordered pairs of `k` units, mirror pairs included: the steps of one matrix.
fn pairs(k: usize) -> u64 {
    (k * (k + 1) / 2) as u64
}

/// Whether the report's own optimal-play solve can stand for the snapshot's matrix.
fn reusable(o: &OptimalPlay, k: usize, settings: &AnalysisSettings) -> bool {
    o.units.len() == k && (o.distance - settings.distance).abs() < 1e-9
}

/// The progress steps [`snapshot`] takes for `r`: one per pair of the points-matched matrix
/// ([`compute_matrix`] counts them) and one per optimal-play pair it has to solve. Counted
/// before any work so the phase's total never moves.
fn steps<R: Ruleset>(r: &R, settings: &AnalysisSettings, solved: &Solved<R>) -> u64 {
    let k = r.units().len();
    let optimal = match solved {
        _ if !r.duel_settings().optimal_play => 0,
        Solved::Report(Some(o)) if reusable(o, k, settings) => 0,
        Solved::Report(_) => pairs(k),
        Solved::Beside(base, _) => {
            unordered_pairs(k).into_iter().filter(|&(i, j)| !base.same_duel(r, i, j)).count() as u64
        }
    };
    pairs(k) + optimal
}

/// The snapshot of `r`: the quick points-matched efficiency and the optimal-play matrix. Its
/// steps ([`steps`]) are counted on `progress` but not added to its total: the caller does.
fn snapshot<R: Ruleset>(r: &R, settings: &AnalysisSettings, solved: Solved<R>, progress: &ProgressBar) -> Snapshot {
    let units = r.units();
    let k = units.len();
    let m =
        compute_matrix(r, settings, Squads::PointsMatched { budget: settings.budget }, String::new(), progress).matrix;
    let efficiency: Vec<Estimate> = (0..k)
        .map(|i| {
            let others: Vec<(f64, f64)> =
                (0..k).filter(|&j| j != i).map(|j| (m.cells[i][j].a_score.value, m.cells[i][j].a_score_se)).collect();
            mean_of(&others, CONFIDENCE, 0.0, 1.0).unwrap_or(Estimate::exact(0.5))
        })
        .collect();
    let suggested = units.iter().zip(&efficiency).map(|(u, e)| quick_cost(u.cost, e)).collect();
    let optimal = match solved {
        _ if !r.duel_settings().optimal_play => vec![vec![None; k]; k],
        Solved::Report(Some(o)) if reusable(o, k, settings) => o.matrix(true),
        Solved::Report(_) => optimal_matrix(r, settings.distance, |_, _| None, true, progress),
        Solved::Beside(base, m) => {
            optimal_matrix(r, settings.distance, |i, j| base.same_duel(r, i, j).then_some(m[i][j]), false, progress)
        }
    };
    Snapshot { efficiency, suggested, optimal }
}

/// Every pair's score under optimal play (both sides optimal only), pairs in parallel; exact,
/// so the result does not depend on the thread count. `None` where there is no game. `known(i,
/// j)`: a value already solved for the pair (`Some(value)`), which is taken as it is. Each score
/// is read from the result cache when it holds it ([`crate::cache`]), and with `reuse_solves`
/// from a report's full solve of the pair there ([`optimal_play::cached_score`], the score the
/// report prints; within 1e-12 of this solve's): so `rules --sensitivity` after a report solves
/// no pair of the reading in force. One step on `progress` per pair to do; the caller sets the
/// total.
pub fn optimal_matrix<R: Ruleset>(
    r: &R,
    distance: f64,
    known: impl Fn(usize, usize) -> Option<Option<f64>> + Sync,
    reuse_solves: bool,
    progress: &ProgressBar,
) -> Vec<Vec<Option<f64>>> {
    let k = r.units().len();
    let pairs = unordered_pairs(k);
    let todo: Vec<(usize, usize)> = pairs.iter().copied().filter(|&(i, j)| known(i, j).is_none()).collect();
    let fresh: Vec<Option<f64>> = todo
        .par_iter()
        .map(|&(i, j)| {
            let reused = if reuse_solves { optimal_play::cached_score(r, distance, i, j) } else { None };
            let v = match (reused, optimal_play::score_key(r, distance, i, j)) {
                (Some(v), _) => Ok(v),
                (None, Some(k)) => crate::cache::memo_ok(&k, || r.optimal_score(i, j, distance)),
                (None, None) => r.optimal_score(i, j, distance),
            };
            let v = v.ok().map(|v| v.clamp(0.0, 1.0));
            progress.inc(1);
            v
        })
        .collect();
    let mut fresh = fresh.into_iter();
    let solved: Vec<Option<f64>> =
        pairs.iter().map(|&(i, j)| known(i, j).unwrap_or_else(|| fresh.next().expect("one per pair to do"))).collect();
    let mut m = vec![vec![None; k]; k];
    for (&(i, j), v) in pairs.iter().zip(solved) {
        m[i][j] = v;
        if i != j {
            m[j][i] = v.map(|s| 1.0 - s);
        }
    }
    m
}

/// Plays every reading switch of `r` each way. `variant(key, value)` loads the same config with
/// `--set rules.KEY=VALUE` added (an `Err` names why it cannot); `settings` are the report's
/// (seed, distance, budget; the precision is lowered to [`QUICK_TARGET_ERROR`]); `optimal` is
/// the report's optimal-play solve when it ran. `None` when the ruleset has no switch.
pub fn analyse<R: Ruleset>(
    r: &R,
    variant: &(dyn Fn(&str, &str) -> Result<R, String> + Sync),
    settings: &AnalysisSettings,
    optimal: Option<&OptimalPlay>,
    progress: &ProgressBar,
) -> Option<Readings> {
    if r.readings().is_empty() {
        return None;
    }
    progress.set_message(format!("{}: readings", r.id()));
    let quick = AnalysisSettings {
        target_error: settings.target_error.max(QUICK_TARGET_ERROR),
        sweep_distances: Vec::new(),
        ..settings.clone()
    };
    let in_force = r.variants();
    // Every alternative is loaded first, so the phase's total is known before its first step.
    let mut planned = Vec::new();
    let mut refused = Vec::new();
    for reading in r.readings() {
        let now = in_force.iter().find(|(k, _)| k == reading.key).map_or(reading.values[0], |(_, v)| v.as_str());
        for value in reading.values.iter().filter(|v| **v != now) {
            match variant(reading.key, value) {
                Ok(alt) => planned.push((reading, now.to_string(), value.to_string(), alt)),
                Err(why) => refused.push(format!("{} = {value}: {why}", reading.key)),
            }
        }
    }
    let no_matrix: &[Vec<Option<f64>>] = &[];
    let total = steps(r, &quick, &Solved::Report(optimal))
        + planned.iter().map(|(.., alt)| steps(alt, &quick, &Solved::Beside(r, no_matrix))).sum::<u64>();
    progress.inc_length(total);
    let default = snapshot(r, &quick, Solved::Report(optimal), progress);
    let alternatives = planned
        .into_iter()
        .map(|(reading, now, value, alt)| Alternative {
            key: reading.key.to_string(),
            default: now,
            value,
            rule: reading.rule.to_string(),
            snapshot: snapshot(&alt, &quick, Solved::Beside(r, &default.optimal), progress),
        })
        .collect();
    let units: Vec<&crate::rulesets::UnitInfo> = r.units().iter().collect();
    let mut x = assemble(&units, default, alternatives, quick.distance, quick.target_error, quick.seed);
    x.refused = refused;
    Some(x)
}

/// The section from its snapshots: the flips, the largest moves and the rule holes worked out.
pub fn assemble(
    units: &[&crate::rulesets::UnitInfo],
    default: Snapshot,
    alternatives: Vec<Alternative>,
    distance: f64,
    target_error: f64,
    seed: u64,
) -> Readings {
    let names: Vec<String> = units.iter().map(|u| u.name.clone()).collect();
    let costs: Vec<f64> = units.iter().map(|u| u.cost).collect();
    let units: Vec<String> = units.iter().map(|u| u.id.clone()).collect();
    let changes = changes(&names, &units, &default, &alternatives);
    let flips = changes.iter().filter(|c| is_flip(c)).cloned().collect();
    let mut moves = changes.clone();
    moves.sort_by(|x, y| y.delta().abs().total_cmp(&x.delta().abs()));
    let holes = moves
        .iter()
        .filter(|c| c.metric == Metric::OptimalScore && c.delta().abs() >= HOLE)
        .take(LISTED)
        .cloned()
        .collect();
    moves.retain(|c| c.delta().abs() > 1e-9);
    moves.truncate(LISTED);
    Readings {
        distance,
        target_error,
        seed,
        units,
        names,
        costs,
        default,
        alternatives,
        flips,
        moves,
        holes,
        refused: Vec::new(),
    }
}

/// Whether a change flips what its number says: the efficiency's call, or the favoured side of
/// a pair with a move of at least [`PAIR_FLIP`].
fn is_flip(c: &Change) -> bool {
    c.default_call != c.alternative_call && (c.metric == Metric::Efficiency || c.delta().abs() >= PAIR_FLIP)
}

/// The favoured side of a pair from A's score `s`.
fn favoured(a: &str, b: &str, s: f64) -> String {
    if s > 0.5 + 1e-9 {
        format!("{a} favoured")
    } else if s < 0.5 - 1e-9 {
        format!("{b} favoured")
    } else {
        "even".to_string()
    }
}

/// Every unit's efficiency and every pair's (`i < j`) optimal score under each alternative
/// against the reading in force, in the alternatives' order.
fn changes(names: &[String], ids: &[String], default: &Snapshot, alts: &[Alternative]) -> Vec<Change> {
    let mut out = Vec::new();
    for alt in alts {
        let s = &alt.snapshot;
        for i in 0..names.len() {
            let (d, x) = (default.efficiency[i], s.efficiency[i]);
            out.push(Change {
                reading: alt.label(),
                subject: names[i].clone(),
                units: vec![ids[i].clone()],
                metric: Metric::Efficiency,
                default: d,
                alternative: x,
                default_call: call(&d).to_string(),
                alternative_call: call(&x).to_string(),
            });
        }
        for i in 0..names.len() {
            for j in i + 1..names.len() {
                let (Some(d), Some(x)) = (default.optimal[i][j], s.optimal[i][j]) else { continue };
                out.push(Change {
                    reading: alt.label(),
                    subject: format!("{} v {}", names[i], names[j]),
                    units: vec![ids[i].clone(), ids[j].clone()],
                    metric: Metric::OptimalScore,
                    default: Estimate::exact(d),
                    alternative: Estimate::exact(x),
                    default_call: favoured(&names[i], &names[j], d),
                    alternative_call: favoured(&names[i], &names[j], x),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snap(eff: &[(f64, f64, f64)], opt: Vec<Vec<Option<f64>>>) -> Snapshot {
        let efficiency: Vec<Estimate> = eff.iter().map(|&(value, lo, hi)| Estimate { value, lo, hi }).collect();
        Snapshot { suggested: efficiency.iter().map(|e| quick_cost(10.0, e)).collect(), efficiency, optimal: opt }
    }

    /// A call that changes is a flip, a move within one call is not; a pair flips when its
    /// favoured side changes by at least two points, and a move of ten is a rule hole.
    #[test]
    fn flips_are_changed_calls_and_holes_are_large_optimal_moves() {
        let names = vec!["Riflemen".to_string(), "Tank".to_string()];
        let ids = vec!["riflemen".to_string(), "tank".to_string()];
        let default = snap(
            &[(0.56, 0.52, 0.60), (0.44, 0.40, 0.48)],
            vec![vec![Some(0.5), Some(0.755)], vec![Some(0.245), Some(0.5)]],
        );
        let alt = Alternative {
            key: "self_blast".into(),
            default: "caught".into(),
            value: "spared".into(),
            rule: "Blast radius".into(),
            snapshot: snap(
                &[(0.49, 0.45, 0.53), (0.46, 0.42, 0.50)],
                vec![vec![Some(0.5), Some(0.0045)], vec![Some(0.9955), Some(0.5)]],
            ),
        };
        let all = changes(&names, &ids, &default, std::slice::from_ref(&alt));
        let flips: Vec<&Change> = all.iter().filter(|c| is_flip(c)).collect();
        assert_eq!(flips.len(), 3, "{flips:?}");
        assert_eq!((flips[0].subject.as_str(), flips[0].alternative_call.as_str()), ("Riflemen", "fair"));
        assert_eq!((flips[1].subject.as_str(), flips[1].alternative_call.as_str()), ("Tank", "fair"));
        assert_eq!(flips[2].subject, "Riflemen v Tank");
        assert_eq!(
            (flips[2].default_call.as_str(), flips[2].alternative_call.as_str()),
            ("Riflemen favoured", "Tank favoured")
        );
        assert!((flips[2].delta() + 0.7505).abs() < 1e-12);
        // The quick cost: even efficiency keeps the cost; above even it rises.
        assert!((quick_cost(15.0, &Estimate::exact(0.5)).value - 15.0).abs() < 1e-12);
        assert!(quick_cost(15.0, &Estimate::exact(0.6)).value > 15.0);
    }
}
