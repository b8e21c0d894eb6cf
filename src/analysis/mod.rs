//! Analysis: the numbers a designer reads, built from finished simulation tallies.
//!
//! This module turns matchup tallies into matrices, points efficiency and ranking warnings.
//! It knows no dice and no files: the simulation produces [`MatchupResult`]s, the report
//! writers take a finished [`RulesetAnalysis`].
//!
//! Layer: below the report and the commands, above the engine (`sim`, `battle`) and the
//! rulesets; nothing here imports `crate::report`, `crate::commands` or `crate::app`. What
//! only one ruleset asks comes in as that ruleset's studies ([`crate::rulesets::study`]), so
//! [`RulesetAnalysis`] has no field named after a ruleset.

pub mod balance;
pub mod duel_distance;
pub mod logistic;
pub mod matrix;
pub mod optimal_play;
pub mod skirmish;
pub mod verdict;

use serde::{Deserialize, Serialize};

use crate::stats::Estimate;

pub use matrix::{AnalysisSettings, analyse, compute_matrix};

/// How a rule of a rulebook is represented in the simulation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Coverage {
    /// Implemented as the rulebook (read with RULINGS.md) says.
    Modeled,
    /// Implemented with a stated simplification.
    Simplified,
    /// Not implemented; the note says why.
    NotModeled,
}

impl Coverage {
    /// The word the report prints: `modeled`, `simplified` or `not modeled`.
    pub fn label(self) -> &'static str {
        match self {
            Coverage::Modeled => "modeled",
            Coverage::Simplified => "simplified",
            Coverage::NotModeled => "not modeled",
        }
    }
}

/// One row of a ruleset's rules-coverage table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CoverageRow {
    /// The rule in the rulebook's words, e.g. "Fast Shot".
    pub rule: String,
    /// Where the rulebook states it, e.g. "GnG 1.5, Unit Tags".
    pub source: String,
    pub status: Coverage,
    /// How it is simplified or why it is not modeled; empty when modeled as written.
    pub note: String,
}

/// One finding of a ruleset lint (`pointsworth rules RULESET`): a printed value that looks like
/// a misprint, a stat no rule uses, a price that disagrees with the book's own formula...
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LintFinding {
    /// What it is about, e.g. "Assault rifle, long range".
    pub subject: String,
    /// What looks wrong and how pointsworth reads it.
    pub finding: String,
    /// Where the rulebook prints it, e.g. "The Grunt Factor, Armory".
    pub source: String,
}

/// One unit of a cost list as the report shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UnitInfo {
    /// Kebab-case id, e.g. `heavy-infantry`.
    pub id: String,
    /// Display name as printed in the rulebook, e.g. "Heavy Infantry".
    pub name: String,
    /// Points cost from the config.
    pub cost: f64,
    /// "infantry", "vehicle", ... as the ruleset classifies it.
    pub kind: String,
}

/// Outcome of one matchup (row side A against column side B), from tallies or exact.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MatchupResult {
    /// P(A wins), P(B wins), P(draw) with 95% intervals; each in [0, 1].
    pub a_wins: Estimate,
    pub b_wins: Estimate,
    pub draws: Estimate,
    /// A's score: P(A wins) + ½ P(draw), with a 95% interval. A's score and B's sum to 1.
    pub a_score: Estimate,
    /// Standard error of `a_score` (0 for exact results).
    pub a_score_se: f64,
    /// Trials played (0 for an exact result).
    pub trials: u64,
    /// "exact" or "monte-carlo".
    pub method: String,
    /// Mean number of turns (one side's activations) a battle lasted.
    pub mean_turns: f64,
    /// Mean points A spent per battle, and mean enemy points A destroyed per battle.
    pub a_points_spent: f64,
    pub a_points_killed: f64,
    /// The same for B.
    pub b_points_spent: f64,
    pub b_points_killed: f64,
}

/// A square matrix of matchups over the units of a cost list: `cells[i][j]` is unit i
/// (side A) against unit j (side B). The diagonal is a unit against a copy of itself.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Matrix {
    /// What the matrix is, e.g. "1v1 at 12 in" or "points-matched squads, 150 points".
    pub title: String,
    /// Unit ids in row/column order.
    pub units: Vec<String>,
    pub cells: Vec<Vec<MatchupResult>>,
}

/// A unit whose points-matched squad the book's army limits hold below the budget
/// ([`crate::rulesets::Ruleset::squad_limit`]): it holds `limit` copies, `points` points, and
/// every matchup it plays is bought with at most those points a side
/// ([`crate::sim::duel::matchup_budget`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SquadCap {
    /// Display name, e.g. "Mortar".
    pub unit: String,
    /// Most copies in a squad.
    pub limit: u32,
    /// `limit` × cost, points (less than the budget).
    pub points: f64,
}

/// One row of the points-efficiency table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EfficiencyRow {
    pub unit: UnitInfo,
    /// Mean score of the unit's points-matched squad against every other unit's squad,
    /// in [0, 1]; 0.5 is even with the field. 95% interval (normal, independent matchups).
    pub efficiency: Estimate,
    /// Mean 1v1 score against every other unit (one model each), in [0, 1].
    pub win_rate_1v1: Estimate,
    /// Points spent per enemy point destroyed over the unit's points-matched battles
    /// (lower is better; `None` when it destroyed nothing). Interval by the delta method.
    pub points_per_point_killed: Option<Estimate>,
    /// 1-based rank by efficiency (1 = most efficient).
    pub rank: usize,
}

/// Points efficiency as a function of the start distance: how range and speed pay off.
///
/// `efficiency[u][k]` is unit `units[u]`'s efficiency (mean points-matched score against the
/// field, in [0, 1], 95% interval) when the squads start `distances[k]` apart.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DistanceSweep {
    /// Start distances, in the ruleset's distance unit, ascending.
    pub distances: Vec<f64>,
    /// Unit ids, in cost-list order.
    pub units: Vec<String>,
    pub efficiency: Vec<Vec<Estimate>>,
    /// Target 95% half-width per matchup used for the sweep (looser than the main run's).
    pub target_error: f64,
}

/// A warning a reader must see beside the numbers (hyperfine-style).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Warning {
    pub message: String,
}

/// Everything `pointsworth report` writes for one ruleset.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RulesetAnalysis {
    /// Ruleset id, e.g. `guns-n-grenades`.
    pub ruleset: String,
    /// Rulebook title, e.g. "Guns 'N Grenades v1.5".
    pub title: String,
    /// pointsworth version that produced it.
    pub version: String,
    /// Config file path as given and a 64-bit FNV-1a hash of its text (hex).
    pub config_path: String,
    pub config_hash: String,
    /// Rule variants in force, `key = value`, e.g. `fast_shot = attacker_die`.
    pub variants: Vec<(String, String)>,
    pub seed: u64,
    /// Duel start distance and its unit ("in" or "cm").
    pub distance: f64,
    pub distance_unit: String,
    /// Points budget of each points-matched squad.
    pub budget: f64,
    /// Units whose squads the book's limits cap below `budget`, in cost-list order.
    #[serde(default)]
    pub squad_caps: Vec<SquadCap>,
    /// Target 95% half-width the run aimed for and the trial cap per matchup.
    pub target_error: f64,
    pub max_trials: u64,
    /// Every matchup played exactly `max_trials` (`--trials` alone, or shards merged), not the
    /// stopping rule.
    #[serde(default)]
    pub fixed_trials: bool,
    pub units: Vec<UnitInfo>,
    /// What one side of the 1v1 matrix is, e.g. "one model", "one squad".
    #[serde(default)]
    pub duel_side: String,
    pub matrix_1v1: Matrix,
    pub matrix_points: Matrix,
    /// Sorted by efficiency, best first.
    pub efficiency: Vec<EfficiencyRow>,
    /// Efficiency against start distance (points-matched squads); `None` if not run.
    pub distance_sweep: Option<DistanceSweep>,
    /// 1v1 mean score (draws ½) against start distance per pair and ground; `None` if the ruleset has none.
    #[serde(default)]
    pub win_rate_by_distance: Option<duel_distance::WinRateByDistance>,
    pub coverage: Vec<CoverageRow>,
    /// Ruleset lint findings (empty when the ruleset has no lint or nothing is flagged).
    #[serde(default)]
    pub lint: Vec<LintFinding>,
    pub warnings: Vec<Warning>,
    /// Wall-clock seconds the simulation took (not part of snapshot tests).
    pub elapsed_seconds: f64,
    /// The config's text, recorded in `summary.json` so `pointsworth check` can show which
    /// lines changed since the baseline; `None` when not recorded.
    #[serde(default)]
    pub config_text: Option<String>,
    /// The skirmish section: one random-army run per tactic, default first; `None` when the
    /// ruleset's `[skirmish] report_trials` is 0.
    #[serde(default)]
    pub skirmish: Option<skirmish::SkirmishSection>,
    /// Suggested costs from the balance solver; `None` if not run.
    #[serde(default)]
    pub fair_costs: Option<balance::FairCosts>,
    /// The sections only this ruleset asks for (its studies), in report order.
    #[serde(default)]
    pub studies: Vec<crate::rulesets::study::Study>,
    /// Every 1v1 under optimal play beside the scripted tactic; `None` when not run
    /// (`[duel] optimal_play = false`, or a shard).
    #[serde(default)]
    pub optimal_play: Option<optimal_play::OptimalPlay>,
}
