//! Skirmish results: win/draw rates, per-unit statistics and *value in army*.
//!
//! Value in army (DESIGN.md, metric table): over games between random legal armies, a
//! logistic regression of the result (A wins 1, draw ½, B wins 0) on each unit type's and
//! upgrade's count difference (A − B). A coefficient is the change in win log-odds from one
//! more of that unit; divided by its cost it is value per point. Normalised to the field
//! mean (the mean over unit types of value per point) it reads like points efficiency: 1 is
//! an average unit for its cost, above 1 underpriced. Intervals come from the regression's
//! covariance by the delta method.
//!
//! Why the intervals can be wide: armies are built to (nearly) the same points, so the
//! points-weighted sum of count differences varies only within the 5% slack; the common
//! "log-odds per point" level is weakly identified and every normalised value shares its
//! uncertainty. Rankings (differences) are better determined than the level.

use indicatif::ProgressBar;
use serde::{Deserialize, Serialize};

use crate::analysis::UnitInfo;
use crate::analysis::logistic;
use crate::rulesets::skirmish::{Armies, Skirmish, SkirmishText};
use crate::sim::skirmish::{SkirmishTally, simulate};
use crate::stats::{CONFIDENCE, Estimate, wilson, z_for};

/// One unit type's skirmish statistics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SkirmishUnitRow {
    pub id: String,
    pub name: String,
    pub cost: f64,
    /// Units of this type fielded over all games (both sides).
    pub fielded: u64,
    /// Enemy units destroyed per unit fielded.
    pub kills_per_unit: f64,
    /// Share of fielded units alive at the end, with a Wilson interval.
    pub survival: Estimate,
    /// Enemy points destroyed per point spent on this type.
    pub points_killed_per_point: f64,
}

/// One cost-list item's value in army.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ValueRow {
    pub name: String,
    /// "unit" or "upgrade".
    pub item: String,
    pub cost: f64,
    /// Win log-odds per one more of the item, and its standard error.
    pub log_odds: f64,
    pub log_odds_se: f64,
    /// Value per point normalised to the field mean (1 = average), with a 95% interval.
    pub value_per_point: Estimate,
}

/// Everything a skirmish run reports.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SkirmishAnalysis {
    /// "random" or the two army descriptions.
    pub armies: String,
    pub tactic: String,
    pub seed: u64,
    pub games: u64,
    pub points: f64,
    pub a_wins: Estimate,
    pub b_wins: Estimate,
    pub draws: Estimate,
    pub mean_turns: f64,
    pub units: Vec<SkirmishUnitRow>,
    /// Empty for fixed armies or when the fit failed.
    /// Best first by value per point.
    pub value_in_army: Vec<ValueRow>,
    /// Whether the regression's Newton iterations converged.
    pub fit_converged: bool,
    /// Replay picture file name, when one was drawn.
    pub replay: Option<String>,
    /// The table, terrain and rules in force, in words, from the config (for the report's
    /// text); empty when the ruleset's section describes them itself.
    #[serde(default)]
    pub setup: String,
    /// The replay picture itself (SVG text) for the report writer; not serialised.
    #[serde(skip)]
    pub replay_svg: Option<String>,
}

/// A ruleset's skirmish as the report shows it: the book's words, the tactics, and one run per
/// tactic between random armies (default tactic first; the first run carries the replay).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SkirmishSection {
    pub text: SkirmishText,
    /// `(name, description)` of each run's tactic, in run order.
    pub tactics: Vec<(String, String)>,
    pub runs: Vec<SkirmishAnalysis>,
}

impl SkirmishSection {
    /// File stem of the section's files: the game's name in lower case (`skirmish`,
    /// `mission`), so `skirmish.json`, `mission_units.csv`...
    pub fn stem(&self) -> String {
        self.text.game.to_lowercase()
    }
}

/// "random", or "A: … / B: …" naming both fixed armies.
pub fn armies_text<S: Skirmish>(s: &S, armies: &Armies<S::Army>) -> String {
    match armies {
        Armies::Random => "random".to_string(),
        Armies::Fixed(x) => format!("A: {} / B: {}", s.describe_army(&x[0]), s.describe_army(&x[1])),
    }
}

/// Plays `trials` games of `s` under `tactic` (index into its tactics) between `armies` and
/// analyses them: win rates, unit statistics (unit types never fielded left out) and, for
/// random armies, value in army.
pub fn run_skirmish<S: Skirmish>(
    s: &S,
    armies: &Armies<S::Army>,
    tactic: usize,
    seed: u64,
    trials: u64,
    progress: &ProgressBar,
) -> SkirmishAnalysis {
    let tally = simulate(s, armies, tactic, seed, trials, progress);
    let units = s.skirmish_units();
    let upgrades = s.skirmish_upgrades();
    let name = s.tactics()[tactic].name;
    let points = s.skirmish_settings().points;
    let mut a = analyse_skirmish(&units, &upgrades, &tally, &armies_text(s, armies), name, seed, points);
    a.units.retain(|u| u.fielded > 0);
    a
}

/// The report's skirmish section of `s`: `report_trials` random-army games under every tactic
/// and one replay picture (`None` when `report_trials` is 0 or the skirmish cannot be played).
/// `progress(trials, message)` makes the progress bar of one tactic's run.
pub fn report_section<S: Skirmish>(
    s: &S,
    seed: u64,
    progress: impl Fn(u64, String) -> ProgressBar,
) -> Option<SkirmishSection> {
    let n = s.skirmish_settings().report_trials;
    if n == 0 || s.check_skirmish().is_err() {
        return None;
    }
    let text = s.skirmish_text();
    let mut runs = Vec::new();
    for (t, info) in s.tactics().iter().enumerate() {
        let pb = progress(n, format!("{} tactic", info.name));
        runs.push(run_skirmish(s, &Armies::Random, t, seed, n, &pb));
        pb.finish_and_clear();
    }
    runs[0].replay_svg = Some(crate::battle::replay::to_svg(&s.replay(&Armies::Random, 0, seed)));
    runs[0].replay = Some(format!("{}_replay.svg", text.game.to_lowercase()));
    runs[0].setup = text.setup.clone();
    let tactics = s.tactics().iter().map(|t| (t.name.to_string(), t.description.to_string())).collect();
    Some(SkirmishSection { text, tactics, runs })
}

/// Turns a tally into the reported statistics. `upgrades` are (name, cost) in cost-list order.
pub fn analyse_skirmish(
    units: &[UnitInfo],
    upgrades: &[(String, f64)],
    t: &SkirmishTally,
    armies: &str,
    tactic: &str,
    seed: u64,
    points: f64,
) -> SkirmishAnalysis {
    let n = units.len();
    let g = t.games.max(1) as f64;
    let mut rows = Vec::new();
    for (u, info) in units.iter().enumerate() {
        let fielded = t.fielded.get(u).copied().unwrap_or(0);
        let survivors = t.survivors.get(u).copied().unwrap_or(0);
        let kills: u64 = (0..n).map(|v| t.kills.get(u * n + v).copied().unwrap_or(0)).sum();
        let points: f64 = (0..n).map(|v| t.kills.get(u * n + v).copied().unwrap_or(0) as f64 * units[v].cost).sum();
        let f = fielded.max(1) as f64;
        rows.push(SkirmishUnitRow {
            id: info.id.clone(),
            name: info.name.clone(),
            cost: info.cost,
            fielded,
            kills_per_unit: kills as f64 / f,
            survival: if fielded > 0 {
                wilson(survivors as f64, fielded as f64, CONFIDENCE)
            } else {
                Estimate::exact(0.0)
            },
            points_killed_per_point: points / (f * info.cost),
        });
    }
    let (value_in_army, fit_converged) = value_in_army(units, upgrades, t);
    SkirmishAnalysis {
        armies: armies.to_string(),
        tactic: tactic.to_string(),
        seed,
        games: t.games,
        points,
        a_wins: wilson(t.wins[0] as f64, g, CONFIDENCE),
        b_wins: wilson(t.wins[1] as f64, g, CONFIDENCE),
        draws: wilson(t.draws as f64, g, CONFIDENCE),
        mean_turns: t.turns as f64 / g,
        units: rows,
        value_in_army,
        fit_converged,
        replay: None,
        setup: String::new(),
        replay_svg: None,
    }
}

/// The regression and its normalisation (see the module docs). Columns that never vary
/// (an item no random army could field) are left out. Returns rows best first.
fn value_in_army(units: &[UnitInfo], upgrades: &[(String, f64)], t: &SkirmishTally) -> (Vec<ValueRow>, bool) {
    if t.records.len() < 50 {
        return (Vec::new(), false);
    }
    let items: Vec<(String, &str, f64)> = units
        .iter()
        .map(|u| (u.name.clone(), "unit", u.cost))
        .chain(upgrades.iter().map(|(n, c)| (n.clone(), "upgrade", *c)))
        .collect();
    let k = items.len();
    let varies: Vec<usize> =
        (0..k).filter(|&j| t.records.iter().any(|r| r.diff.get(j).is_some_and(|&d| d != 0))).collect();
    let x: Vec<Vec<f64>> = t.records.iter().map(|r| varies.iter().map(|&j| r.diff[j] as f64).collect()).collect();
    let y: Vec<f64> = t.records.iter().map(|r| [1.0, 0.0, 0.5][r.result as usize]).collect();
    let Some(fit) = logistic::fit(&x, &y, 1e-6) else {
        return (Vec::new(), false);
    };
    let m = varies.len() + 1;
    // Value per point v_j = b_j / c_j; the field mean over unit types U.
    let unit_cols: Vec<usize> = (0..varies.len()).filter(|&c| items[varies[c]].1 == "unit").collect();
    let nu = unit_cols.len().max(1) as f64;
    let v = |c: usize| fit.coef[c + 1] / items[varies[c]].2;
    let mean: f64 = unit_cols.iter().map(|&c| v(c)).sum::<f64>() / nu;
    let z = z_for(CONFIDENCE);
    let mut rows = Vec::new();
    for c in 0..varies.len() {
        let cost = items[varies[c]].2;
        let ratio = v(c) / mean;
        // Gradient of ratio = (b_c / cost) / mean with respect to the coefficients.
        let mut grad = vec![0.0; m];
        grad[c + 1] += 1.0 / (cost * mean);
        for &u in &unit_cols {
            grad[u + 1] -= ratio / (mean * nu * items[varies[u]].2);
        }
        let var: f64 = (0..m).map(|a| (0..m).map(|b| grad[a] * fit.cov[a * m + b] * grad[b]).sum::<f64>()).sum();
        let h = z * var.max(0.0).sqrt();
        rows.push(ValueRow {
            name: items[varies[c]].0.clone(),
            item: items[varies[c]].1.to_string(),
            cost,
            log_odds: fit.coef[c + 1],
            log_odds_se: fit.se[c + 1],
            value_per_point: Estimate { value: ratio, lo: ratio - h, hi: ratio + h },
        });
    }
    rows.sort_by(|a, b| b.value_per_point.value.total_cmp(&a.value_per_point.value));
    (rows, fit.converged)
}
