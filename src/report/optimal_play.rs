//! "Does the tactic play well?": the scripted tactic's 1v1 matrix (heatmap; the report's 1v1
//! matrix is the optimal-play one, [`crate::analysis::optimal_play::play_1v1`]), its
//! exploitability per pair (sorted table, worst first; `optimal_play.csv` holds every pair)
//! and each unit's 1v1 mean score scripted against optimal.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::atomic::write_atomic;
use super::charts::{ensure_fonts, write_score_heatmap};
use super::format::{md_cell, number, unit_name};
use crate::analysis::RulesetAnalysis;
use crate::analysis::optimal_play::{OptimalPlay, WARN_ABOVE};
use crate::csv_text::CsvText;

/// File stems: the pairs table and the scripted tactic's heatmap.
pub const CSV: &str = "optimal_play.csv";
pub const HEATMAP: &str = "heatmap_scripted";
/// The optimal-play heatmap of earlier versions, now the 1v1 matrix's (`heatmap_1v1`): removed
/// where an earlier run left it.
const OLD_HEATMAP: &str = "heatmap_optimal";

/// Rows of the exploitability table shown in `report.md` (the CSV has all).
const SHOWN: usize = 15;

/// Writes `optimal_play.csv` and `heatmap_scripted.png`/`.svg` when the analysis has solved
/// pairs; otherwise removes those an earlier run left, so the directory never shows a stale
/// section. Returns the paths written.
pub fn write(a: &RulesetAnalysis, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    super::remove_stale(dir, &[format!("{OLD_HEATMAP}.png"), format!("{OLD_HEATMAP}.svg")])?;
    let Some(o) = a.optimal_play.as_ref().filter(|o| !o.pairs.is_empty()) else {
        super::remove_stale(dir, &[CSV.to_string(), format!("{HEATMAP}.png"), format!("{HEATMAP}.svg")])?;
        return Ok(Vec::new());
    };
    let path = dir.join(CSV);
    write_atomic(&path, csv(a, o).as_bytes())?;
    let mut written = vec![path];
    ensure_fonts()?;
    let labels: Vec<String> = o.units.iter().map(|id| unit_name(a, id).to_string()).collect();
    let scores: Vec<Vec<f64>> =
        o.matrix(false).into_iter().map(|row| row.into_iter().map(|s| s.unwrap_or(f64::NAN)).collect()).collect();
    written.extend(write_score_heatmap(
        dir,
        HEATMAP,
        format!("{}: 1v1, scripted tactic", a.title),
        format!(
            "row unit's score against column unit (win 1, draw ½), both sides scripted, {} {} apart",
            number(o.distance, 2),
            a.distance_unit
        ),
        labels,
        scores,
        vec![format!(
            "Exact, on the optimal-play game's {} {} grid, table {} {} deep; blank: no game for the pair.",
            number(o.grid_step, 2),
            a.distance_unit,
            number(o.table_depth, 2),
            a.distance_unit
        )],
        ["row unit", "column unit"],
    )?);
    Ok(written)
}

/// One row per solved pair: outcomes under both policies, the gains and the exploitability.
pub fn csv(a: &RulesetAnalysis, o: &OptimalPlay) -> String {
    let mut t = CsvText::new([
        "unit_a",
        "unit_b",
        "optimal_a_wins",
        "optimal_b_wins",
        "optimal_draws",
        "optimal_a_score",
        "scripted_a_wins",
        "scripted_b_wins",
        "scripted_draws",
        "scripted_a_score",
        "a_gain",
        "b_gain",
        "exploitability",
    ]);
    for p in &o.pairs {
        let mut row = vec![unit_name(a, &p.a).to_string(), unit_name(a, &p.b).to_string()];
        row.extend(
            [
                p.optimal.a_wins,
                p.optimal.b_wins,
                p.optimal.draws,
                p.optimal.a_score,
                p.scripted.a_wins,
                p.scripted.b_wins,
                p.scripted.draws,
                p.scripted.a_score,
                p.a_gain,
                p.b_gain,
                p.exploitability,
            ]
            .map(|x| format!("{x:.6}")),
        );
        t.row(row);
    }
    t.finish()
}

/// Score points with one decimal; a gain the solver's rounding leaves a hair below 0 shows as 0.
fn points(p: f64) -> String {
    let x = 100.0 * p;
    format!("{:.1}", if x.abs() < 0.05 { 0.0 } else { x })
}

/// A difference in score points with its sign, `+0.0` for a hair either side of 0.
fn signed(p: f64) -> String {
    let x = 100.0 * p;
    if x.abs() < 0.05 { "+0.0".to_string() } else { format!("{x:+.1}") }
}

/// The section's Markdown (empty when the analysis did not run it).
pub fn section(a: &RulesetAnalysis) -> String {
    let Some(o) = &a.optimal_play else { return String::new() };
    let mut s = String::from("## Does the tactic play well?\n\n");
    let unit = &a.distance_unit;
    if o.pairs.is_empty() {
        // Each refusal reads "A v B: why" (or "every pair: why").
        let why = o.refused.first().map_or("no pair", |r| r.split_once(": ").map_or(r.as_str(), |(_, why)| why));
        let _ = writeln!(s, "Not yet measured for this ruleset: {why}.\n");
        return s;
    }
    let _ = writeln!(
        s,
        "Every 1v1 of the cost list at {} {unit}, solved exactly as a two-player zero-sum game: at each activation the \
         acting side picks the legal option that maximises its score (win 1, draw ½), on a line {} {unit} deep in \
         steps of {} {unit}; who acts first is averaged over, or rolled for where the book rolls for it. The same solver with one side's policy fixed to the \
         scripted tactic gives that side's best response; the pair's **exploitability** is the larger of the two \
         gains, in score points. A number in this report that rests on an exploitable tactic measures the tactic as \
         well as the unit. The report's 1v1 matrix and 1v1 mean scores are the optimal-play values; the heatmap \
         here is the scripted tactic's.\n",
        number(o.distance, 2),
        number(o.table_depth, 2),
        number(o.grid_step, 2)
    );
    let above = o.pairs_above(WARN_ABOVE);
    let _ = writeln!(
        s,
        "Exploitability: largest **{}** points, mean {} points over {} pairs; {} above {:.0} points.\n",
        points(o.exploitability_max),
        points(o.exploitability_mean),
        o.pairs.len(),
        above,
        100.0 * WARN_ABOVE
    );
    let _ = writeln!(s, "![1v1 with the scripted tactic: row unit's score against column unit]({HEATMAP}.png)\n");
    let _ = writeln!(s, "Vector version: [{HEATMAP}.svg]({HEATMAP}.svg) · data: [{CSV}]({CSV})\n");

    let _ = writeln!(s, "### Exploitability per pair, worst first\n");
    s.push_str("| unit A | unit B | A's score, scripted | A's score, optimal | A gains | B gains | exploitability |\n");
    s.push_str("|---|---|---:|---:|---:|---:|---:|\n");
    for p in o.worst_first().into_iter().take(SHOWN) {
        let _ = writeln!(
            s,
            "| {} | {} | {}% | {}% | {} | {} | {} |",
            md_cell(unit_name(a, &p.a)),
            md_cell(unit_name(a, &p.b)),
            points(p.scripted.a_score),
            points(p.optimal.a_score),
            points(p.a_gain),
            points(p.b_gain),
            points(p.exploitability)
        );
    }
    if o.pairs.len() > SHOWN {
        let _ = writeln!(s, "\n{} more pairs in [{CSV}]({CSV}).", o.pairs.len() - SHOWN);
    }
    s.push('\n');

    let _ = writeln!(s, "### Each unit's 1v1 mean score, scripted against optimal\n");
    s.push_str("| unit | scripted | optimal | optimal − scripted |\n|---|---:|---:|---:|\n");
    for (id, m) in o.units.iter().zip(o.unit_means()) {
        let Some((sc, op)) = m else { continue };
        let _ =
            writeln!(s, "| {} | {}% | {}% | {} |", md_cell(unit_name(a, id)), points(sc), points(op), signed(op - sc));
    }
    s.push('\n');
    if !o.refused.is_empty() {
        let _ = writeln!(s, "No game for {} pairs: {}.\n", o.refused.len(), o.refused.join("; "));
    }
    s
}

/// The "Does the tactic play well?" section (only when optimal play was solved).
pub struct OptimalPlaySection;

impl super::Section for OptimalPlaySection {
    fn write_files(&self, a: &RulesetAnalysis, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
        write(a, dir)
    }

    fn markdown(&self, a: &RulesetAnalysis, o: &mut String) {
        o.push_str(&section(a));
    }
}
