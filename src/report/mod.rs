//! Report writers: turn a finished [`RulesetAnalysis`] into the files a designer reads.
//!
//! `write_ruleset_report` fills `reports/RULESET/` with tables (CSV for people and diffs,
//! Parquet for notebooks), `summary.json`, charts (PNG to look at, SVG to zoom) and a
//! `report.md` that ties them together; `write_index` writes `reports/README.md`.
//!
//! Layer: above the analysis, below the commands: it may import `analysis`, `sim`, `rulesets`,
//! `battle` and the bottom, never `commands`. No file here is named after a ruleset: what
//! only one ruleset asks comes in as its studies, which one generic section writes.
//!
//! **Sections behind one trait.** A report is a list of [`Section`]s (as hyperfine keeps one
//! `Exporter` trait and a file per format): each section computes what it shows from the
//! analysis, writes its own tables and charts beside `report.md`, and gives its part of
//! `report.md`. [`write_ruleset_report`] walks [`SECTIONS`] in order. **A new section is one
//! file and one line**: a file `src/report/NAME.rs` with a struct implementing [`Section`],
//! and the line `NAME: Struct;` in the `sections!` list below, where it should appear in
//! `report.md` (the macro declares the module). A section the analysis lacks writes nothing
//! and shows nothing.
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
mod format;
pub mod html;
mod markdown;
pub mod readme;
mod tables;

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::Serialize;

use crate::analysis::RulesetAnalysis;
use crate::stats::Estimate;

pub use atomic::write_atomic;
pub use fair_costs::verdict as fair_costs_verdict;
pub use fair_costs::{strength, two};
pub use skirmish::{unbounded_note, unidentified_note};
pub use summary::Summary;

/// One section of a ruleset's report: what it computes from the analysis, the files it writes
/// beside `report.md` (tables, charts), and its Markdown.
///
/// Both methods see the whole [`RulesetAnalysis`], so a section needs no wiring beyond its
/// line in [`SECTIONS`]; one whose data the analysis lacks (no distance sweep, no skirmish)
/// writes nothing and adds no Markdown.
pub trait Section: Sync {
    /// Writes the section's tables and charts into `dir` (which exists) atomically and
    /// returns their paths in a fixed order. A section absent from `a` removes the files an
    /// earlier run left ([`remove_stale`]) so the directory never shows data `report.md` does
    /// not mention. The default writes nothing.
    fn write_files(&self, a: &RulesetAnalysis, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
        let _ = (a, dir);
        Ok(Vec::new())
    }

    /// Appends the section's part of `report.md` to `out` (nothing when `a` lacks it).
    fn markdown(&self, a: &RulesetAnalysis, out: &mut String);
}

/// Declares each section module and lists its sections, in report order, as [`SECTIONS`]:
/// one line per module, `[pub] module: Section, ...;`.
macro_rules! sections {
    ($($vis:vis $module:ident: $($($path:ident)::+),+;)*) => {
        $($vis mod $module;)*

        /// The sections of a ruleset's report, in the order `report.md` shows them; their files
        /// are written in the same order.
        pub const SECTIONS: &[&dyn Section] = &[$($(&$module::$($path)::+),+),*];
    };
}

sections! {
    pub verdict: Title, VerdictSection;
    overview: Overview;
    efficiency: Efficiency;
    distance_sweep: EfficiencyByDistance;
    win_rate_by_distance: ScoreByDistance;
    fair_costs: SuggestedCosts;
    matrices: MatrixSection::POINTS, MatrixSection::ONE_V_ONE;
    optimal_play: OptimalPlaySection;
    pub readings: ReadingsSection;
    study: Studies;
    skirmish: Skirmishes;
    play: HowPlayed;
    coverage: RulesCoverage, Lint;
    pub summary: SummaryFile;
}

/// Writes every report file for one ruleset into `dir` (created if missing) and returns the
/// paths written: each [`SECTIONS`] entry's files in order, then `report.md` and the page
/// `report.html` ([`html::ruleset_page`]), which shows the same sections.
///
/// Every report has `efficiency.csv`, `efficiency.parquet`, `efficiency.png`/`.svg`,
/// `matrix_points.csv`, `heatmap_points.png`/`.svg`, `matrix_1v1.csv`,
/// `heatmap_1v1.png`/`.svg`, `verdict.csv`, `summary.json`, `report.md` and `report.html`;
/// the other sections add theirs when the analysis has their data.
pub fn write_ruleset_report(analysis: &RulesetAnalysis, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    fs::create_dir_all(dir).with_context(|| format!("creating report directory {}", dir.display()))?;
    let mut written = Vec::new();
    let mut md = String::new();
    for section in SECTIONS {
        written.extend(section.write_files(analysis, dir)?);
        section.markdown(analysis, &mut md);
    }
    let path = dir.join("report.md");
    write_atomic(&path, md.as_bytes())?;
    written.push(path);
    let path = dir.join("report.html");
    write_atomic(&path, html::ruleset_page(analysis, &md)?.as_bytes())?;
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
    /// Every unit's and upgrade's verdict ([`crate::analysis::verdict::verdicts`]); empty when
    /// read from a `summary.json` written before verdicts were recorded.
    pub verdicts: Vec<crate::analysis::verdict::UnitVerdict>,
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
            verdicts: crate::analysis::verdict::verdicts(a),
        }
    }
}

impl IndexEntry {
    /// An index entry from an earlier run's `summary.json`; `None` when it is missing or
    /// unreadable.
    pub fn from_summary(path: &Path) -> Option<IndexEntry> {
        let v: serde_json::Value = serde_json::from_str(&crate::config::read_text(path).ok()?).ok()?;
        let rows: Vec<crate::analysis::EfficiencyRow> = serde_json::from_value(v.get("efficiency")?.clone()).ok()?;
        let unit = IndexUnit::from;
        Some(IndexEntry {
            ruleset: v.get("ruleset")?.as_str()?.to_string(),
            title: v.get("title")?.as_str()?.to_string(),
            units: v.get("units")?.as_array()?.len(),
            budget: v.get("budget")?.as_f64()?,
            top: rows.first().map(unit),
            bottom: rows.last().map(unit),
            warnings: v.get("warnings")?.as_array()?.len(),
            verdicts: v.get("verdicts").and_then(|x| serde_json::from_value(x.clone()).ok()).unwrap_or_default(),
        })
    }
}

/// Writes `dir/README.md` (normally `reports/README.md`), linking each ruleset's
/// `RULESET/report.md`, and the page `dir/index.html`: one card per ruleset with its most
/// mispriced units, linking each `RULESET/report.html`. Entries are listed in ruleset-id order
/// whatever order they come in. Returns the README's path.
pub fn write_index(entries: &[IndexEntry], dir: &Path) -> anyhow::Result<PathBuf> {
    fs::create_dir_all(dir).with_context(|| format!("creating report directory {}", dir.display()))?;
    let path = dir.join("README.md");
    write_atomic(&path, markdown::index(entries).as_bytes())?;
    write_atomic(&dir.join("index.html"), html::index_page(entries, env!("CARGO_PKG_VERSION"))?.as_bytes())?;
    Ok(path)
}
