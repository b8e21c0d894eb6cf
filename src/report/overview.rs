//! Below the verdict: "How to read this", the run's settings and the warnings. It writes no
//! file of its own; it comes before the tables so a reader learns what the numbers mean, and
//! which of them are noisy, before reading them.

use std::fmt::Write as _;

use super::Section;
use super::format::{cost, md_cell, number, thousands};
use super::summary::TrialCounts;
use crate::analysis::{Matrix, RulesetAnalysis};

/// "How to read this", "Settings" and "Warnings".
pub struct Overview;

impl Section for Overview {
    fn markdown(&self, a: &RulesetAnalysis, o: &mut String) {
        let budget = cost(a.budget);
        let distance = format!("{} {}", number(a.distance, 2), a.distance_unit);

        how_to_read(o, a, &budget, &distance);
        settings(o, a, &budget, &distance);
        warnings(o, a);
    }
}

/// "How to read this": what a score, efficiency, the 1v1 mean score and the intervals mean.
fn how_to_read(o: &mut String, a: &RulesetAnalysis, budget: &str, distance: &str) {
    o.push_str("## How to read this\n\n");
    o.push_str("- A **score** counts a win as 1, a draw as ½ and a loss as 0, so 50% is an even fight.\n");
    let _ = writeln!(
        o,
        "- **Efficiency** is the mean score of a squad of the unit bought with {budget} points against a \
         squad of every other unit bought with the same {budget} points. 50% means the unit is worth its \
         points against this field: above 50% it is too cheap, below 50% too expensive."
    );
    if !a.squad_caps.is_empty() {
        let caps: Vec<String> =
            a.squad_caps.iter().map(|c| format!("{} {} ({} points)", c.unit, c.limit, number(c.points, 0))).collect();
        let _ = writeln!(
            o,
            "- **Capped squads**: the book's army limits hold some squads below {budget} points: {}. A matchup \
             with a capped squad is bought with the capped squad's points on both sides (the smaller, if both \
             are capped), so efficiency still compares equal points.",
            caps.join(", ")
        );
    }
    let _ = writeln!(
        o,
        "- **1v1 mean score** is the mean score (a draw counts ½) of one model of the unit against one model of every other \
         unit, starting {distance} apart, whatever either costs{}.",
        if a.matrix_1v1.is_optimal_play() { ", both sides playing optimally (the game's exact value)" } else { "" }
    );
    o.push_str(
        "- **Points per point killed** is the points the unit's squads spent per enemy point they \
         destroyed in the points-matched battles; lower is better, and — means they destroyed nothing.\n",
    );
    o.push_str(
        "- Every number is an estimate with its **95% interval**: `62.1% [60.9, 63.3]`. In the matrices \
         `62.1 ±1.2` gives the interval's half-width in percentage points. Two units whose intervals \
         overlap cannot be ranked against each other with confidence.\n",
    );
    let exact = |m: &Matrix| m.cells.iter().flatten().any(|c| c.method != "monte-carlo");
    if exact(&a.matrix_1v1) || exact(&a.matrix_points) {
        o.push_str("- Results marked *exact* were computed, not simulated: they carry no interval.\n");
    }
    let side = if a.duel_side.is_empty() { "one model" } else { a.duel_side.as_str() };
    let _ = writeln!(
        o,
        "- The **matrices** give the row unit's (side A's) score against the column unit (side B). The \
         **1v1 matrix** pits {side} against {side} starting {distance} apart; the \
         **points-matched matrix** pits a {budget}-point squad against a {budget}-point squad. The \
         diagonal is a unit against a copy of itself.\n"
    );
}

/// The "Settings" table: everything needed to reproduce the run.
fn settings(o: &mut String, a: &RulesetAnalysis, budget: &str, distance: &str) {
    o.push_str("## Settings\n\n| setting | value |\n|---|---|\n");
    let _ = writeln!(o, "| seed | {} |", a.seed);
    let _ = writeln!(o, "| duel distance | {distance} |");
    let _ = writeln!(o, "| squad budget | {budget} points |");
    let target = number(a.target_error * 100.0, 2);
    let unit = if target == "1" { "percentage point" } else { "percentage points" };
    let _ = writeln!(o, "| target error | ±{target} {unit} (95% half-width) per matchup |");
    let _ = writeln!(o, "| trial cap | {} per matchup |", thousands(a.max_trials));
    let how = if a.matrix_1v1.is_optimal_play() { ", under optimal play" } else { "" };
    let _ = writeln!(o, "| trials, 1v1 | {}{how} |", trials_text(&TrialCounts::of(&a.matrix_1v1)));
    let _ = writeln!(o, "| trials, points-matched | {} |", trials_text(&TrialCounts::of(&a.matrix_points)));
    let variants = if a.variants.is_empty() {
        "none (rulebook defaults)".to_string()
    } else {
        a.variants.iter().map(|(k, v)| format!("`{} = {}`", md_cell(k), md_cell(v))).collect::<Vec<_>>().join(", ")
    };
    if let Some(s) = &a.distance_sweep {
        let distances: Vec<String> = s.distances.iter().map(|&d| number(d, 2)).collect();
        let err = number(s.target_error * 100.0, 2);
        let points = if err == "1" { "point" } else { "points" };
        let _ = writeln!(
            o,
            "| distance sweep | {} {} apart, ±{err} percentage {points} (95% half-width) per matchup |",
            distances.join(", "),
            a.distance_unit
        );
    }
    let _ = writeln!(o, "| variants | {variants} |");
    let _ = writeln!(o, "| config | `{}` |", md_cell(&a.config_path));
    let _ = writeln!(o, "| config hash (FNV-1a 64) | `{}` |", a.config_hash);
    let _ = writeln!(o, "| pointsworth version | {} |\n", a.version);
}

/// The "Warnings" list, above the tables so a noisy ranking is not read as a firm one.
fn warnings(o: &mut String, a: &RulesetAnalysis) {
    o.push_str("## Warnings\n\n");
    if a.warnings.is_empty() {
        o.push_str("None.\n\n");
    } else {
        for w in &a.warnings {
            let _ = writeln!(o, "- {}", w.message.replace('\n', " "));
        }
        o.push('\n');
    }
}

/// `1 matchup`, `3 matchups`.
fn plural(n: usize, word: &str) -> String {
    if n == 1 { format!("1 {word}") } else { format!("{n} {word}s") }
}

fn trials_text(t: &TrialCounts) -> String {
    let simulated = t.matchups - t.exact;
    let mut parts = Vec::new();
    if simulated > 0 {
        let range = if t.min == t.max {
            format!("{} each", thousands(t.min))
        } else {
            format!("{}–{} each", thousands(t.min), thousands(t.max))
        };
        parts.push(format!("{} trials over {} ({range})", thousands(t.total), plural(simulated, "simulated matchup")));
    }
    if t.exact > 0 {
        parts.push(format!("{} solved exactly", plural(t.exact, "matchup")));
    }
    if parts.is_empty() { "no matchups".to_string() } else { parts.join("; ") }
}
