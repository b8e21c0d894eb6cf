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
use indicatif::ProgressBar;

use crate::analysis::optimal_play::{OptimalPlay, WARN_ABOVE, analyse};
use crate::analysis::portfolio::PortfolioPlay;
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
    if args.portfolio {
        return run_portfolio(args, loaded);
    }
    let started = Instant::now();
    let Some(Solved { title, unit, names, solved }) = solve_all::<Optimal>(args, loaded)? else { return Ok(()) };
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

/// What `matrix --optimal` solves at each distance: every pair under optimal play
/// ([`Optimal`]) or played by the tactic portfolio ([`Portfolio`]).
trait Solves {
    /// One distance's result, as `--json` prints it.
    type Out: serde::Serialize;
    /// The progress phase ("optimal play at 12 in"), the flags ("--optimal"), the JSON's
    /// `method` and the key of its list of results.
    const PHASE: &'static str;
    const FLAGS: &'static str;
    const METHOD: &'static str;
    const KEY: &'static str;
    fn solve<R: Ruleset>(r: &R, distance: f64, progress: &ProgressBar) -> Self::Out;
}

struct Optimal;
impl Solves for Optimal {
    type Out = OptimalPlay;
    const PHASE: &'static str = "optimal play";
    const FLAGS: &'static str = "--optimal";
    const METHOD: &'static str = "optimal";
    const KEY: &'static str = "optimal_play";
    fn solve<R: Ruleset>(r: &R, distance: f64, progress: &ProgressBar) -> OptimalPlay {
        analyse(r, distance, progress)
    }
}

struct Portfolio;
impl Solves for Portfolio {
    type Out = PortfolioPlay;
    const PHASE: &'static str = "tactic portfolio";
    const FLAGS: &'static str = "--optimal --portfolio";
    const METHOD: &'static str = "equilibrium";
    const KEY: &'static str = "portfolio_play";
    fn solve<R: Ruleset>(r: &R, distance: f64, progress: &ProgressBar) -> PortfolioPlay {
        crate::analysis::portfolio::analyse(r, distance, progress)
    }
}

/// The results at each distance with what the tables name: the ruleset's title and distance
/// unit, and each unit's (id, name).
struct Solved<T> {
    title: String,
    unit: &'static str,
    names: Vec<(String, String)>,
    solved: Vec<T>,
}

/// Solves `S` at each of `args.distance` (default: the config's `duel.distance`), one progress
/// phase each; with `--json`, prints `{"ruleset", "distance_unit", "method", KEY: [...]}` and
/// returns `None`.
fn solve_all<S: Solves>(args: &MatrixArgs, loaded: &Loaded) -> Result<Option<Solved<S::Out>>, AppError> {
    let (id, solved) = with_ruleset!(&loaded.ruleset, r => {
        let distances = if args.distance.is_empty() { vec![r.duel_settings().distance] } else { args.distance.clone() };
        let phases: Vec<String> =
            distances.iter().map(|d| format!("{} at {} {}", S::PHASE, d, r.distance_unit())).collect();
        let names: Vec<&str> = phases.iter().map(String::as_str).collect();
        let mut progress = Progress::new(format!("matrix {} {}", r.id(), S::FLAGS), &names);
        let solved: Vec<S::Out> = distances.iter().zip(&names).map(|(&d, p)| S::solve(r, d, &progress.phase(p))).collect();
        progress.finish();
        let names: Vec<(String, String)> = r.units().iter().map(|u| (u.id.clone(), u.name.clone())).collect();
        (r.id(), Solved { title: r.title().to_string(), unit: r.distance_unit(), names, solved })
    });
    if args.json {
        let mut v = json!({ "ruleset": id, "distance_unit": solved.unit, "method": S::METHOD });
        v[S::KEY] = serde_json::to_value(&solved.solved).expect("json");
        stdout_write(&format!("{}\n", serde_json::to_string_pretty(&v).expect("json")))?;
        return Ok(None);
    }
    Ok(Some(solved))
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

/// `matrix RULESET --optimal --portfolio`: every pair played by the duel game's tactic
/// portfolio in equilibrium ([`crate::analysis::portfolio::analyse`]) at each distance: the
/// pairs worst first (optimal, scripted and equilibrium scores, each side's mix, the bound on
/// the exploitability), how often each tactic is played, and the largest and mean bound
/// (`--json`: `{"portfolio_play": [PortfolioPlay, ...]}`).
fn run_portfolio(args: &MatrixArgs, loaded: &Loaded) -> Result<(), AppError> {
    let started = Instant::now();
    let Some(Solved { title, unit, names, solved }) = solve_all::<Portfolio>(args, loaded)? else { return Ok(()) };
    let name = |id: &str| names.iter().find(|n| n.0 == id).map_or(id, |n| n.1.as_str()).to_string();
    let mut text = String::new();
    for o in &solved {
        text.push_str(&format!(
            "{title}: every pair played by the tactic portfolio in equilibrium, {} {unit} apart (exact; tactics: {})\n",
            o.distance,
            o.tactics.join(", ")
        ));
        if o.pairs.is_empty() {
            text.push_str(&format!("no pair solved: {}\n\n", o.refused.join("; ")));
            continue;
        }
        let mix = |w: &[f64]| crate::format::mix_text(&o.tactics, w);
        let mut t = crate::term::table();
        t.set_header(vec![
            "A",
            "B",
            "A score, optimal",
            "A score, scripted",
            "A score, equilibrium",
            "A's mix",
            "B's mix",
            "exploitability ≤",
        ]);
        let pct = |x: f64| right(format!("{:.1}%", 100.0 * x));
        for p in o.worst_first() {
            t.add_row(vec![
                Cell::new(name(&p.a)),
                Cell::new(name(&p.b)),
                pct(p.optimal.a_score),
                pct(p.scripted.a_score),
                pct(p.equilibrium),
                Cell::new(mix(&p.a_mix)),
                Cell::new(mix(&p.b_mix)),
                right(format!("{:.1}", 100.0 * p.exploitability)),
            ]);
        }
        text.push_str(
            "exploitability of the equilibrium play, worst first (points: at most what a side gains by a best \
                       response against the other side's mix)\n",
        );
        text.push_str(&format!("{t}\n"));
        let usage: Vec<String> =
            o.tactics.iter().zip(&o.usage).map(|(t, u)| format!("{t} {:.0}%", 100.0 * u)).collect();
        text.push_str(&format!("tactics played (mean weight over both sides of every pair): {}\n", usage.join(", ")));
        text.push_str(&format!(
            "exploitability bound max {:.1} points, mean {:.1}; {} of {} pairs above {:.0} points, {} above {:.0}\n",
            100.0 * o.exploitability_max,
            100.0 * o.exploitability_mean,
            o.pairs_above(WARN_ABOVE),
            o.pairs.len(),
            100.0 * WARN_ABOVE,
            o.pairs_above(GOAL),
            100.0 * GOAL
        ));
        if !o.refused.is_empty() {
            text.push_str(&format!("refused: {}\n", o.refused.join("; ")));
        }
        text.push('\n');
    }
    text.push_str(&format!("solved in {:.1} s\n", started.elapsed().as_secs_f64()));
    stdout_write(&crate::term::wrap(&text))
}
