//! `pointsworth matrix RULESET --optimal`: every one-against-one of the cost list solved under
//! optimal play, at one or more start distances, with the scripted tactic's exploitability per
//! pair (DESIGN.md, "Optimal play and exploitability"; issue 15).
//!
//! The report's "Does the tactic play well?" section solves the pairs at the report distance
//! only; issue 15 asks for the exploitability at the sweep distances too. This command solves
//! them at any distances (`--distance 6,12,24`) without simulating anything: everything here is
//! exact ([`crate::analysis::optimal_play::analyse`]), so there is no seed and no interval.

use std::time::Instant;

use comfy_table::{Cell, CellAlignment, Table};
use serde_json::json;

use super::common::{AppError, Loaded, score_matrix_table, stdout_write};
use super::progress::Progress;
use crate::analysis::optimal_play::{OptimalPlay, WARN_ABOVE, analyse};
use crate::cli::MatrixArgs;
use crate::rulesets::Ruleset;
use crate::with_ruleset;

/// Exploitability the issue asks the tactics to stay within (issue 15 item 4), probability
/// units: the summary counts the pairs above it.
pub const GOAL: f64 = 0.05;

/// Solves the cost list of `loaded` at each of `args.distance` (default: the config's
/// `duel.distance`) and prints the optimal-play matrix, the pairs worst first and the largest
/// and mean exploitability per distance (`--json`: one object with an `optimal_play` list, one
/// [`OptimalPlay`] per distance, as `summary.json` holds it). Errors: a distance outside
/// (0, 1000] (exit code 2). A distance beyond a ruleset's table depth leaves every
/// pair refused, with the reason.
pub(crate) fn run(args: &MatrixArgs, loaded: &Loaded) -> Result<(), AppError> {
    if let Some(d) = args.distance.iter().find(|d| !(d.is_finite() && **d > 0.0 && **d <= 1000.0)) {
        return Err(AppError::Usage(format!("--distance must be more than 0 and at most 1000, got {d}")));
    }
    let started = Instant::now();
    let (id, title, unit, names, solved) = with_ruleset!(&loaded.ruleset, r => {
        let distances = if args.distance.is_empty() { vec![r.duel_settings().distance] } else { args.distance.clone() };
        let phases: Vec<String> =
            distances.iter().map(|d| format!("optimal play at {} {}", d, r.distance_unit())).collect();
        let names: Vec<&str> = phases.iter().map(String::as_str).collect();
        let mut progress = Progress::new(format!("matrix {} --optimal", r.id()), &names);
        let solved: Vec<OptimalPlay> = distances.iter().zip(&names).map(|(&d, p)| analyse(r, d, &progress.phase(p))).collect();
        progress.finish();
        let names: Vec<(String, String)> = r.units().iter().map(|u| (u.id.clone(), u.name.clone())).collect();
        (r.id(), r.title(), r.distance_unit(), names, solved)
    });
    if args.json {
        let v = json!({
            "ruleset": id,
            "distance_unit": unit,
            "method": "optimal",
            "optimal_play": solved,
        });
        return stdout_write(&format!("{}\n", serde_json::to_string_pretty(&v).expect("json")));
    }
    let name = |id: &str| names.iter().find(|n| n.0 == id).map_or(id, |n| n.1.as_str()).to_string();
    let mut text = String::new();
    for o in &solved {
        text.push_str(&format!(
            "{title}: optimal play, every pair, {} {unit} apart (grid {} {unit}, table {} {unit} deep, averaged over \
             who acts first)\n",
            o.distance, o.grid_step, o.table_depth
        ));
        if o.pairs.is_empty() {
            text.push_str(&format!("no pair solved: {}\n\n", o.refused.join("; ")));
            continue;
        }
        text.push_str("score of the row unit against the column unit under optimal play, %\n");
        text.push_str(&format!("{}\n", matrix_table(o, &name)));
        text.push_str(
            "exploitability of the scripted tactic, worst first (points: what a side gains by its best response \
             against the other side's scripted tactic)\n",
        );
        text.push_str(&format!("{}\n", pairs_table(o, &name)));
        text.push_str(&format!("{}\n", summary_line(o, &name)));
        if !o.refused.is_empty() {
            text.push_str(&format!("refused: {}\n", o.refused.join("; ")));
        }
        text.push('\n');
    }
    if solved.len() > 1 {
        text.push_str(&format!("{}\n", distances_table(&solved, unit, &name)));
    }
    text.push_str(&format!("solved in {:.1} s\n", started.elapsed().as_secs_f64()));
    stdout_write(&crate::term::wrap(&text))
}

fn right(s: String) -> Cell {
    Cell::new(s).set_alignment(CellAlignment::Right)
}

/// The optimal-play matrix ([`score_matrix_table`]): "—" where the pair was refused.
fn matrix_table(o: &OptimalPlay, name: &dyn Fn(&str) -> String) -> Table {
    let names: Vec<String> = o.units.iter().map(|u| name(u)).collect();
    let m = o.matrix(true);
    score_matrix_table(&names, |i, j| m[i][j])
}

/// Every solved pair, worst exploitability first: A's score under optimal play and under the
/// scripted tactic on both sides, each side's gain by its best response, the larger.
fn pairs_table(o: &OptimalPlay, name: &dyn Fn(&str) -> String) -> Table {
    let mut t = crate::term::table();
    t.set_header(vec!["A", "B", "A score, optimal", "A score, scripted", "A gains", "B gains", "exploitability"]);
    let pts = |x: f64| right(format!("{:.1}", 100.0 * x));
    let pct = |x: f64| right(format!("{:.1}%", 100.0 * x));
    for p in o.worst_first() {
        t.add_row(vec![
            Cell::new(name(&p.a)),
            Cell::new(name(&p.b)),
            pct(p.optimal.a_score),
            pct(p.scripted.a_score),
            pts(p.a_gain),
            pts(p.b_gain),
            pts(p.exploitability),
        ]);
    }
    t
}

/// The worst pair of `o` ("A v B"; `None` without pairs) and how many pairs lie above
/// [`WARN_ABOVE`] and above [`GOAL`]: what [`summary_line`] and [`distances_table`] say of it.
fn tally(o: &OptimalPlay, name: &dyn Fn(&str) -> String) -> (Option<String>, usize, usize) {
    let worst = o.worst_first().first().map(|p| format!("{} v {}", name(&p.a), name(&p.b)));
    (worst, o.pairs_above(WARN_ABOVE), o.pairs_above(GOAL))
}

/// "exploitability max X (A v B), mean Y; N of M pairs above 2 points, K above 5".
fn summary_line(o: &OptimalPlay, name: &dyn Fn(&str) -> String) -> String {
    let (worst, warn, goal) = tally(o, name);
    let worst = worst.map_or(String::new(), |w| format!(" ({w})"));
    format!(
        "exploitability max {:.1} points{worst}, mean {:.1}; {} of {} pairs above {:.0} points, {} above {:.0}",
        100.0 * o.exploitability_max,
        100.0 * o.exploitability_mean,
        warn,
        o.pairs.len(),
        100.0 * WARN_ABOVE,
        goal,
        100.0 * GOAL
    )
}

/// One row per distance: largest exploitability (and its pair), mean, pairs above 2 and 5.
fn distances_table(solved: &[OptimalPlay], unit: &str, name: &dyn Fn(&str) -> String) -> Table {
    let mut t = crate::term::table();
    t.set_header(vec![
        format!("distance, {unit}"),
        "exploitability max".into(),
        "worst pair".into(),
        "mean".into(),
        format!("pairs above {:.0}", 100.0 * WARN_ABOVE),
        format!("pairs above {:.0}", 100.0 * GOAL),
    ]);
    for o in solved {
        let (worst, warn, goal) = tally(o, name);
        t.add_row(vec![
            right(format!("{}", o.distance)),
            right(format!("{:.1}", 100.0 * o.exploitability_max)),
            Cell::new(worst.unwrap_or_else(|| "—".into())),
            right(format!("{:.1}", 100.0 * o.exploitability_mean)),
            right(format!("{} of {}", warn, o.pairs.len())),
            right(format!("{} of {}", goal, o.pairs.len())),
        ]);
    }
    t
}
