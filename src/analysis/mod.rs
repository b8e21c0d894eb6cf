//! Analysis: the numbers a designer reads, built from finished simulation tallies.
//!
//! This module turns matchup tallies into matrices, points efficiency and ranking warnings.
//! It knows no dice and no files: the simulation produces [`MatchupResult`]s, the report
//! writers take a finished [`RulesetAnalysis`].
//!
//! Layer: below the report and the commands, above the engine (`sim`, `battle`) and the
//! rulesets; it may import those and the bottom (`dice`, `stats`, `config`, `seed`), never the
//! report or the commands. What only one ruleset asks comes in as that ruleset's studies
//! ([`crate::rulesets::study`]), so [`RulesetAnalysis`] has no field named after a ruleset; the
//! studies reach simulation and solving through [`engine::AnalysisEngine`], this layer's
//! implementation of the rulesets' [`crate::rulesets::engine::Engine`]. The words a ruleset
//! speaks (unit info, coverage rows, lint findings, balance settings) are the rulesets'
//! ([`crate::rulesets::contract`], [`crate::rulesets::engine`]); the analysis reads them.

pub mod balance;
pub mod duel_distance;
pub mod engine;
pub mod equilibrium;
pub mod logistic;
pub mod matrix;
pub mod metagame;
pub mod optimal_play;
pub mod portfolio;
pub mod readings;
pub mod skirmish;
pub mod squads_game;
pub mod squads_rollout;
pub mod verdict;

use serde::{Deserialize, Serialize};

use crate::rulesets::{CoverageRow, LintFinding, UnitInfo};
use crate::sim::duel::MatchupResult;
use crate::stats::Estimate;

pub use matrix::{AnalysisSettings, analyse, compute_matrix};

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

impl Matrix {
    /// Whether its cells were solved under optimal play (a 1v1 matrix the report played so:
    /// [`optimal_play::play_1v1`]; its cells' method is [`optimal_play::OPTIMAL_METHOD`]).
    pub fn is_optimal_play(&self) -> bool {
        self.cells.iter().flatten().any(|c| c.method == optimal_play::OPTIMAL_METHOD)
    }
}

/// A unit whose points-matched squad the book's army limits hold below the budget
/// ([`crate::rulesets::Ruleset::squad_limit`]): it holds `limit` copies, `points` points, and
/// every matchup it plays is bought with at most those points a side
/// ([`crate::rulesets::matchup_budget`]).
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
    pub fair_costs: Option<crate::rulesets::engine::FairCosts>,
    /// The sections only this ruleset asks for (its studies), in report order.
    #[serde(default)]
    pub studies: Vec<crate::rulesets::study::Study>,
    /// Every 1v1 under optimal play beside the scripted tactic; `None` when not run
    /// (`[duel] optimal_play = false`, or a shard).
    #[serde(default)]
    pub optimal_play: Option<optimal_play::OptimalPlay>,
    /// The rollout best response against the scripted tactic in the points-matched squads of
    /// the pairs most exploitable one against one; `None` when not run (`[duel]
    /// rollout_pairs` 0, no optimal play, a shard).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub squads_rollout: Option<squads_rollout::SquadsRollout>,
    /// The points-matched squads' tactic game of every pair (each side picks one of the
    /// ruleset's squad tactics; double oracle); `None` when not run (`[duel] tactic_trials` 0,
    /// fewer than two squad tactics, a shard).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub squads_game: Option<squads_game::SquadsGame>,
    /// "Which readings decide the verdicts": each reading switch played each way at a quick
    /// precision; `None` when not run (a ruleset without switches, a shard).
    #[serde(default)]
    pub readings: Option<readings::Readings>,
}

impl RulesetAnalysis {
    /// What a ruleset's studies read of this analysis ([`crate::rulesets::Ruleset::studies`]).
    pub fn findings(&self) -> crate::rulesets::engine::Findings<'_> {
        crate::rulesets::engine::Findings {
            title: &self.title,
            efficiency: self.efficiency.iter().map(|e| (e.unit.clone(), e.efficiency)).collect(),
            fair_costs: self.fair_costs.as_ref(),
        }
    }
}
