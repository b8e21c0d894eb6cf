//! Studies: the report sections only one ruleset asks for (VSGMR's attribute prices and cost
//! audit, Army Men Combat's upgrade table, The Grunt Factor's qualities and loadouts, Gunplay's
//! fixed line-ups).
//!
//! Why data and not drawing: a ruleset knows its rules and what question its book leaves open,
//! but nothing of files or plotting. A study hands the report a finished section — its
//! Markdown, its tables as CSV text, and its charts as one of the report's chart kinds filled
//! with numbers — and the report writes them atomically beside `report.md`. So a sixth ruleset
//! adds a study without touching `src/report/`, and every chart of one kind looks alike.

use serde::{Deserialize, Serialize};

use crate::stats::Estimate;

/// One report section of one ruleset, finished: [`crate::rulesets::Ruleset::studies`] makes
/// it, the report writes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Study {
    /// The section's title as the report's contents name it, e.g. "Attribute prices".
    pub title: String,
    /// The section's Markdown, headings included. Links name the tables' and charts' files
    /// (`{stem}.png`, `{stem}.svg`), which the report writes in the same directory.
    pub markdown: String,
    /// Tables written beside `report.md`.
    #[serde(default)]
    pub tables: Vec<StudyTable>,
    /// Charts written beside `report.md` as PNG and SVG.
    #[serde(default)]
    pub charts: Vec<StudyChart>,
    /// A paragraph the "Suggested costs" section adds, pointing to what this study prices
    /// (e.g. upgrades priced by the same bisection); `None` for none.
    #[serde(default)]
    pub suggested_costs_note: Option<String>,
}

/// A table of a study, written as a file (CSV text) beside `report.md`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StudyTable {
    /// File name, e.g. `attribute_prices.csv`.
    pub file: String,
    /// The file's text.
    pub text: String,
}

/// A chart of a study: written as `{stem}.png` and `{stem}.svg`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StudyChart {
    pub stem: String,
    pub chart: ChartSpec,
}

/// The chart kinds a study can ask the report to draw, filled with numbers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ChartSpec {
    /// One row per priced item: the book price as a triangle, the fair price as a dot with its
    /// 95% interval as a bar (items without a fair price show the book price only).
    PriceRows {
        title: String,
        /// The x axis's description, e.g. "points added to the base figure".
        x_desc: String,
        rows: Vec<PriceRow>,
        /// Interval ends above this are cut at it, so one unbounded interval does not squash
        /// the others (points).
        x_cap: f64,
    },
    /// A square score matrix (row against column, in [0, 1]; NaN for no value) as a heatmap.
    ScoreHeatmap {
        title: String,
        subtitle: String,
        /// Row and column labels, in order.
        labels: Vec<String>,
        /// `scores[i][j]`: row `i`'s score against column `j`, in [0, 1] or NaN.
        scores: Vec<Vec<f64>>,
        /// Caption paragraphs under the heatmap.
        notes: Vec<String>,
        /// Axis names: rows, then columns.
        axes: [String; 2],
    },
}

/// One row of a [`ChartSpec::PriceRows`] chart.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PriceRow {
    pub label: String,
    /// The book's price, in points.
    pub book: f64,
    /// The fair price with its 95% interval, in points; `None` when there is none.
    pub fair: Option<Estimate>,
}
