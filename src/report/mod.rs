//! Report writers: turn a finished [`RulesetAnalysis`] into the files a designer reads.
//!
//! `write_ruleset_report` fills `reports/RULESET/` with tables (CSV for people and diffs,
//! Parquet for notebooks), `summary.json`, charts (PNG to look at, SVG to zoom) and a
//! `report.md` that ties them together; `write_index` writes `reports/README.md`.
//!
//! Layer: above the analysis, below the commands. One writer per section kind — the generic
//! tables and charts, the skirmish section, and the rulesets' studies (their Markdown, CSV
//! tables and charts of the report's chart kinds) — so no file here is named after a ruleset.
//!
//! Two choices shape this module:
//!
//! - **Every file is written atomically** ([`atomic::write_atomic`]): bytes go to a hidden
//!   sibling temporary file that is renamed over the target. An interrupted run leaves each
//!   file either as it was or complete, never half written, so a committed `reports/` tree is
//!   always readable.
//! - **Outputs are deterministic.** The same analysis gives byte-identical CSV, JSON and
//!   Markdown, so committed baselines only change when a number changes. Wall-clock time is
//!   therefore left out of every file (`elapsed_seconds` is for the CLI to print): a report
//!   re-run on a slower machine would otherwise differ from the baseline in one meaningless
//!   line. Rows keep the analysis's order (efficiency best first, matrices in unit order),
//!   and nothing depends on hash-map iteration order or the clock.

pub mod atomic;
mod charts;
mod fair_costs;
mod format;
mod markdown;
mod optimal_play;
mod skirmish;
mod study;
pub mod summary;
mod tables;
mod win_rate_by_distance;

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::Serialize;

use crate::analysis::RulesetAnalysis;
use crate::stats::Estimate;

pub use atomic::write_atomic;
pub use fair_costs::verdict as fair_costs_verdict;
pub use fair_costs::{strength, two};
pub use summary::Summary;

/// The distance sweep's table (written only when the analysis has a sweep).
const SWEEP_CSV: &str = "efficiency_by_distance.csv";

/// Writes every report file for one ruleset into `dir` (created if missing) and returns the
/// paths written, in a fixed order.
///
/// Files: `efficiency.csv`, `efficiency.parquet`, `efficiency_by_distance.csv`,
/// `matrix_1v1.csv`, `matrix_points.csv`, `summary.json`, `efficiency.png`/`.svg`,
/// `efficiency_by_distance.png`/`.svg`, `heatmap_points.png`/`.svg`, `heatmap_1v1.png`/`.svg`
/// and `report.md`. The `efficiency_by_distance` files exist only when the analysis has a
/// distance sweep; without one, those left by an earlier run are removed so the directory
/// never shows a stale sweep that `report.md` does not mention.
pub fn write_ruleset_report(analysis: &RulesetAnalysis, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    fs::create_dir_all(dir).with_context(|| format!("creating report directory {}", dir.display()))?;
    let mut written = Vec::new();
    let mut put = |name: &str, bytes: &[u8]| -> anyhow::Result<()> {
        let path = dir.join(name);
        write_atomic(&path, bytes)?;
        written.push(path);
        Ok(())
    };

    put("efficiency.csv", &tables::efficiency_csv(analysis)?)?;
    put("efficiency.parquet", &tables::efficiency_parquet(analysis)?)?;
    if let Some(sweep) = &analysis.distance_sweep {
        put(SWEEP_CSV, &tables::distance_sweep_csv(analysis, sweep)?)?;
    }
    put("matrix_1v1.csv", &tables::matrix_csv(analysis, &analysis.matrix_1v1)?)?;
    put("matrix_points.csv", &tables::matrix_csv(analysis, &analysis.matrix_points)?)?;
    put("summary.json", &summary::summary_json(analysis)?)?;
    if analysis.distance_sweep.is_none() {
        let stem = charts::EFFICIENCY_BY_DISTANCE;
        remove_stale(dir, &[SWEEP_CSV.to_string(), format!("{stem}.png"), format!("{stem}.svg")])?;
    }

    written.extend(charts::write_charts(analysis, dir)?);
    written.extend(win_rate_by_distance::write(analysis, dir)?);
    written.extend(skirmish::write_files(analysis, dir)?);
    written.extend(fair_costs::write(analysis, dir)?);
    written.extend(study::write(analysis, dir)?);
    written.extend(optimal_play::write(analysis, dir)?);

    let md = markdown::ruleset_report(analysis);
    let path = dir.join("report.md");
    write_atomic(&path, md.as_bytes())?;
    written.push(path);
    Ok(written)
}

/// Removes the files `names` of `dir` that an earlier run left and this one does not write
/// (a section that is gone), so the directory never shows data `report.md` does not mention;
/// a file already absent is fine.
pub(crate) fn remove_stale(dir: &Path, names: &[String]) -> anyhow::Result<()> {
    for name in names {
        let path = dir.join(name);
        match fs::remove_file(&path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e).with_context(|| format!("removing stale {}", path.display())),
        }
    }
    Ok(())
}

/// One unit as the index shows it: name, cost and points efficiency.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IndexUnit {
    pub name: String,
    pub cost: f64,
    pub efficiency: Estimate,
}

/// One ruleset's line in `reports/README.md`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IndexEntry {
    /// Ruleset id; also the report's directory name under `reports/`.
    pub ruleset: String,
    /// Rulebook title.
    pub title: String,
    /// Number of units analysed.
    pub units: usize,
    /// Points budget of each points-matched squad.
    pub budget: f64,
    /// Most and least efficient units (`None` for an empty cost list).
    pub top: Option<IndexUnit>,
    pub bottom: Option<IndexUnit>,
    /// Number of warnings the ruleset's report shows.
    pub warnings: usize,
}

impl From<&crate::analysis::EfficiencyRow> for IndexUnit {
    fn from(row: &crate::analysis::EfficiencyRow) -> Self {
        IndexUnit { name: row.unit.name.clone(), cost: row.unit.cost, efficiency: row.efficiency }
    }
}

impl From<&RulesetAnalysis> for IndexEntry {
    fn from(a: &RulesetAnalysis) -> Self {
        let unit = IndexUnit::from;
        IndexEntry {
            ruleset: a.ruleset.clone(),
            title: a.title.clone(),
            units: a.units.len(),
            budget: a.budget,
            top: a.efficiency.first().map(unit),
            bottom: a.efficiency.last().map(unit),
            warnings: a.warnings.len(),
        }
    }
}

/// Writes `dir/README.md` (normally `reports/README.md`), linking each ruleset's
/// `RULESET/report.md`. Entries are listed in ruleset-id order whatever order they come in.
pub fn write_index(entries: &[IndexEntry], dir: &Path) -> anyhow::Result<PathBuf> {
    fs::create_dir_all(dir).with_context(|| format!("creating report directory {}", dir.display()))?;
    let path = dir.join("README.md");
    write_atomic(&path, markdown::index(entries).as_bytes())?;
    Ok(path)
}
