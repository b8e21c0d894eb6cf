//! The matchup matrices: the points-matched matrix and the 1v1 matrix, each as a long table
//! (`matrix_points.csv`, `matrix_1v1.csv`), a heatmap (`heatmap_points`, `heatmap_1v1`) and a
//! square Markdown table. One section type, two entries in [`super::SECTIONS`].

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::charts::{Heatmap, ensure_fonts, write_chart};
use super::format::{md_cell, number, pct_cell, unit_label_for};
use super::markdown::chart;
use super::{Section, tables, write_atomic};
use crate::analysis::{Matrix, RulesetAnalysis};

/// Which matrix a [`MatrixSection`] shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Which {
    /// Points-matched squads.
    Points,
    /// One against one.
    OneVOne,
}

/// A matrix section: its file names, heading and words.
pub struct MatrixSection {
    which: Which,
    /// `{csv}`: the long table; `{chart}.png`/`.svg`: the heatmap.
    csv: &'static str,
    chart: &'static str,
    /// The heading before the matrix's title, e.g. "Points-matched matrix".
    heading: &'static str,
    /// The chart's alternative text.
    alt: &'static str,
    /// What the heatmap's title adds to the ruleset's title.
    chart_title: &'static str,
}

impl MatrixSection {
    pub const POINTS: MatrixSection = MatrixSection {
        which: Which::Points,
        csv: "matrix_points.csv",
        chart: "heatmap_points",
        heading: "Points-matched matrix",
        alt: "Points-matched matchups: row unit's score against column unit",
        chart_title: "points-matched matchups",
    };
    pub const ONE_V_ONE: MatrixSection = MatrixSection {
        which: Which::OneVOne,
        csv: "matrix_1v1.csv",
        chart: "heatmap_1v1",
        heading: "1v1 matrix",
        alt: "1v1 matchups: row unit's score against column unit",
        chart_title: "1v1 matchups",
    };

    fn matrix<'a>(&self, a: &'a RulesetAnalysis) -> &'a Matrix {
        match self.which {
            Which::Points => &a.matrix_points,
            Which::OneVOne => &a.matrix_1v1,
        }
    }
}

impl Section for MatrixSection {
    fn write_files(&self, a: &RulesetAnalysis, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
        let m = self.matrix(a);
        let path = dir.join(self.csv);
        write_atomic(&path, &tables::matrix_csv(a, m)?)?;
        let mut written = vec![path];
        ensure_fonts()?;
        let title = format!("{}: {}", a.title, self.chart_title);
        written.extend(write_chart(&Heatmap::new(a, m, title), dir, self.chart)?);
        Ok(written)
    }

    fn markdown(&self, a: &RulesetAnalysis, o: &mut String) {
        let m = self.matrix(a);
        let _ = writeln!(o, "## {}: {}\n", self.heading, m.title);
        if self.which == Which::OneVOne {
            optimal_note(o, a, m);
        }
        chart(o, self.chart, self.alt, &[self.csv]);
        matrix_table(o, a, m);
        o.push('\n');
    }
}

/// What a 1v1 matrix played under optimal play holds (nothing for a scripted one): the game,
/// where the scripted tactic's values are, and the pairs that kept them.
fn optimal_note(out: &mut String, a: &RulesetAnalysis, m: &Matrix) {
    let Some(o) = a.optimal_play.as_ref() else { return };
    if !m.is_optimal_play() {
        return;
    }
    let unit = &a.distance_unit;
    let _ = write!(
        out,
        "Both sides play optimally: each cell is the exact value of the zero-sum game that [Does the tactic \
         play well?](#does-the-tactic-play-well) solves (a line {} {unit} deep in steps of {} {unit}), the \
         score a side can secure whatever the other does. The scripted tactic's values are beside them \
         there; {}",
        number(o.table_depth, 2),
        number(o.grid_step, 2),
        if a.squads_game.is_some() {
            "the points-matched squads play each pair's equilibrium of the squads' tactic game, and the skirmish \
             the tactic metagame's (see [How each matchup is played](#how-each-matchup-is-played))."
        } else {
            "the points-matched squads are still played by the scripted tactic, and the skirmish as [How each \
             matchup is played](#how-each-matchup-is-played) says."
        }
    );
    if o.refused.is_empty() {
        out.push_str("\n\n");
    } else {
        let _ = writeln!(out, " No game, so the scripted tactic's value: {}.\n", o.refused.join("; "));
    }
}

/// The square Markdown table: the row unit's score against the column unit with its
/// half-width, `62.1 ±1.2`.
fn matrix_table(out: &mut String, a: &RulesetAnalysis, m: &Matrix) {
    let labels: Vec<String> = m.units.iter().map(|id| md_cell(&unit_label_for(a, id))).collect();
    out.push_str("| row (A) \\ column (B) |");
    for l in &labels {
        let _ = write!(out, " {l} |");
    }
    out.push_str("\n|---|");
    out.push_str(&"---:|".repeat(labels.len()));
    out.push('\n');
    for (i, row) in m.cells.iter().enumerate() {
        let label = labels.get(i).map_or("?", String::as_str);
        let _ = write!(out, "| **{label}** |");
        for cell in row {
            let _ = write!(out, " {} |", pct_cell(&cell.a_score));
        }
        out.push('\n');
    }
}
