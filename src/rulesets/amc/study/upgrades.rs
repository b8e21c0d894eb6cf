//! The upgrade efficiency table: each upgraded entry against its plain entry at equal points.
//!
//! Why head to head: an upgrade is worth its price when a force of upgraded units beats a
//! force of plain ones bought with the same points (issue 4). Each row is a points-matched
//! duel ([`Engine::points_matched_score`], `[duel] budget` points a side, the same squad-size
//! randomisation as the matrix) of "Riflemen (10) + Bayonets" against "Riflemen (10)", at each
//! of `[upgrades] distances`: at the duel distance (24") short-range weapons and bayonets
//! cannot reach, at 12" they can, so the table shows both. A score of 0.5 means the upgrade is
//! fairly priced; the interval is the 95% Wilson-type score interval of the fixed trials.
//!
//! The **fair price** of an upgrade is found the way the balance solver finds a unit's fair
//! cost ([`Engine::fair_cost_of`]): bisection over the upgraded entry's cost,
//! the plain entry's cost fixed, common random numbers across prices, until the upgraded force
//! scores 50% against the plain one at equal points; the price is that cost minus the plain
//! entry's, with the interval carried through the local slope. It can be negative: the
//! upgrade makes the squad weaker at that distance (a specialist trades his rifle for a
//! short-range weapon). An upgrade that never changes a duel (every price scores exactly 50%)
//! has no fair price: any price is fair (`any_price`).

use indicatif::ProgressBar;
use serde::{Deserialize, Serialize};

use crate::config::{Ends, Invalid, in_range};
use crate::rulesets::amc::ArmyMenCombat;
use crate::rulesets::engine::{BalanceSettings, Engine, FixedRun};
use crate::rulesets::{Ruleset, UnitInfo};
use crate::stats::{CONFIDENCE, Estimate, mean_of};

/// The `[upgrades]` table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UpgradeSettings {
    /// Start distances of the upgraded-vs-plain duels, inches.
    pub distances: Vec<f64>,
    /// Trials per row and distance (fixed: every row uses the same number).
    pub trials: u64,
    /// Trials per price tried by the fair-price bisection (0: no fair prices).
    #[serde(default = "default_fair_trials")]
    pub fair_trials: u64,
}

fn default_fair_trials() -> u64 {
    1000
}

impl UpgradeSettings {
    /// Checks ranges; the message names the key, the error carries it for its place.
    pub fn validate(&self) -> Result<(), Invalid> {
        let d = &self.distances;
        if d.is_empty() || d.len() > MAX_DISTANCES || d.iter().any(|d| !(*d > 0.0 && *d <= 200.0)) {
            return Err(Invalid::new(
                "upgrades.distances",
                format!(
                    "[upgrades] distances must be 1 to {MAX_DISTANCES} distances, each more than 0 and at most 200 in, \
                     got {d:?}"
                ),
            ));
        }
        in_range("upgrades.trials", self.trials, 0, 10_000_000, Ends::Both, "")?;
        in_range("upgrades.fair_trials", self.fair_trials, 0, 10_000_000, Ends::Both, "")
    }
}

/// The most start distances of `[upgrades] distances`.
const MAX_DISTANCES: usize = 20;

/// One upgraded entry against its plain entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UpgradeRow {
    /// "Riflemen (10) + Bayonets".
    pub entry: UnitInfo,
    /// "Riflemen (10)".
    pub base: String,
    pub upgrade: String,
    /// The rulebook's option: "Bayonets", "Grenadier", "Specialist", "Truck", ...
    pub option: String,
    pub upgrade_cost: f64,
    /// Score of the upgraded force against the plain one at each distance, in [0, 1], 95%
    /// interval; and its standard error.
    pub score: Vec<Estimate>,
    pub score_se: Vec<f64>,
    /// Fair price of the upgrade at each distance (points added to the plain entry's cost, 95%
    /// interval; see the module docs); `None` where no price in the searched range makes the
    /// upgraded force score 50%. Empty when fair prices were not computed.
    #[serde(default)]
    pub fair_price: Vec<Option<Estimate>>,
    /// Per distance: whether every price tried scored exactly 50% (the upgrade never changes
    /// the duel, e.g. transport), so any price is fair and `fair_price` is `None`.
    #[serde(default)]
    pub any_price: Vec<bool>,
}

/// Mean score of one upgrade over every unit it applies to, per distance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UpgradeSummary {
    pub upgrade: String,
    pub upgrade_cost: f64,
    pub entries: usize,
    pub score: Vec<Estimate>,
    /// Mean fair price over the entries that have one with a finite interval, per distance
    /// (points, 95% interval), and how many entries that is.
    #[serde(default)]
    pub fair_price: Vec<Option<(Estimate, usize)>>,
    /// Per distance: whether every entry's duel ignores the price (see `UpgradeRow::any_price`).
    #[serde(default)]
    pub any_price: Vec<bool>,
}

/// The whole table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UpgradeTable {
    pub distances: Vec<f64>,
    pub budget: f64,
    pub trials: u64,
    /// Trials per price of the fair-price bisection (0: not computed).
    #[serde(default)]
    pub fair_trials: u64,
    pub seed: u64,
    pub rows: Vec<UpgradeRow>,
    pub summary: Vec<UpgradeSummary>,
}

/// Plays every upgraded entry against its plain entry (`trials` per distance, seed `seed`),
/// and finds each upgrade's fair price at each distance (`fair_trials` per price; 0: none).
pub fn table<E: Engine>(engine: &E, r: &ArmyMenCombat, seed: u64, trials: u64, fair_trials: u64) -> UpgradeTable {
    use rayon::prelude::*;
    let s = &r.upgrade_settings;
    let budget = r.book.duel.budget;
    let run = FixedRun { seed, trials: trials.max(1), batch_size: 256 };
    let rows: Vec<UpgradeRow> = r
        .upgraded
        .par_iter()
        .map(|u| {
            let view = r.view(&[(u.info.clone(), u.profile), (r.book.units[u.base].clone(), r.profiles[u.base])]);
            let costs = [u.profile.cost, r.profiles[u.base].cost];
            let (mut score, mut score_se, mut fair_price, mut any_price) =
                (Vec::new(), Vec::new(), Vec::new(), Vec::new());
            for &d in &s.distances {
                let (a_score, a_score_se) = engine.points_matched_score(&view, costs, d, budget, run);
                score.push(a_score);
                score_se.push(a_score_se);
                if fair_trials > 0 {
                    let mut b = BalanceSettings::from_ruleset(&view, seed);
                    b.distance = d;
                    b.budget = budget;
                    b.trials = fair_trials;
                    let base = costs[1];
                    let f = engine.fair_cost_of(&view, 0, &costs, &b, &ProgressBar::hidden());
                    let flat = !f.points.is_empty() && f.points.iter().all(|p| p.1 == 0.5);
                    any_price.push(flat);
                    fair_price.push(f.fair.filter(|_| !flat).map(|e| Estimate {
                        value: e.value - base,
                        lo: e.lo - base,
                        hi: e.hi - base,
                    }));
                }
            }
            UpgradeRow {
                entry: u.info.clone(),
                base: r.book.units[u.base].name.clone(),
                upgrade: u.upgrade.clone(),
                option: u.option.clone(),
                upgrade_cost: u.upgrade_cost,
                score,
                score_se,
                fair_price,
                any_price,
            }
        })
        .collect();
    let mut summary: Vec<UpgradeSummary> = Vec::new();
    for row in &rows {
        if summary.iter().any(|x| x.upgrade == row.upgrade) {
            continue;
        }
        let same: Vec<&UpgradeRow> = rows.iter().filter(|x| x.upgrade == row.upgrade).collect();
        let score = (0..s.distances.len())
            .map(|k| {
                let v: Vec<(f64, f64)> = same.iter().map(|x| (x.score[k].value, x.score_se[k])).collect();
                mean_of(&v, CONFIDENCE, 0.0, 1.0).expect("at least one row")
            })
            .collect();
        let z = crate::stats::z_for(CONFIDENCE);
        let fair_price = if fair_trials == 0 {
            Vec::new()
        } else {
            (0..s.distances.len())
                .map(|k| {
                    let v: Vec<(f64, f64)> = same
                        .iter()
                        .filter_map(|x| x.fair_price.get(k).copied().flatten())
                        .filter(|e| e.lo.is_finite() && e.hi.is_finite())
                        .map(|e| (e.value, (e.hi - e.lo) / (2.0 * z)))
                        .collect();
                    mean_of(&v, CONFIDENCE, f64::NEG_INFINITY, f64::INFINITY).map(|e| (e, v.len()))
                })
                .collect()
        };
        let any_price = (0..s.distances.len())
            .map(|k| fair_trials > 0 && same.iter().all(|x| x.any_price.get(k).copied().unwrap_or(false)))
            .collect();
        summary.push(UpgradeSummary {
            upgrade: row.upgrade.clone(),
            upgrade_cost: row.upgrade_cost,
            entries: same.len(),
            score,
            fair_price,
            any_price,
        });
    }
    let _ = r.id();
    UpgradeTable { distances: s.distances.clone(), budget, trials, fair_trials, seed, rows, summary }
}
