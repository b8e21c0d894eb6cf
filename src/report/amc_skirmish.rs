//! The Army Men Combat report's "Mission: value in army" section: random legal 300-point
//! armies played through the mission under the default and cautious tactics. Filled by
//! `commands::amc_skirmish::attach_to_report`; empty for other rulesets.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use crate::analysis::RulesetAnalysis;

/// Replay picture file name.
pub const REPLAY: &str = "mission_replay.svg";

use super::format::pct_interval as pct;

/// Writes `mission.json`, the value and unit CSVs, the value-in-army chart `mission_value_in_army.png`/`.svg`
/// and the replay picture into `dir`; nothing without results (see
/// [`super::skirmish::write_runs`]).
pub fn write_files(a: &RulesetAnalysis, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let Some(runs) = a.amc_skirmish.as_ref().filter(|r| !r.is_empty()) else {
        return Ok(Vec::new());
    };
    super::skirmish::write_runs(a, runs, dir, "mission", REPLAY, VALUE_CHART)
}

/// Value-in-army chart file stem.
pub const VALUE_CHART: &str = "mission_value_in_army";

/// The Markdown section (empty without mission results).
pub fn section(a: &RulesetAnalysis) -> String {
    let Some(runs) = a.amc_skirmish.as_ref().filter(|r| !r.is_empty()) else {
        return String::new();
    };
    let d = &runs[0];
    let cautious = runs.iter().find(|r| r.tactic == "cautious");
    let mut o = String::new();
    o.push_str("## Mission: value in army\n\n");
    let _ = writeln!(
        o,
        "The mission (48\"×48\", 5–10 terrain pieces placed from the seed, alternate deployment within \
         12\" of the own edge, 4 rounds of the activation roll-off; each side scores the points of \
         enemy units destroyed or Pinned at the end, higher wins, equal draws) between **random legal \
         {}-point armies** (plain entries drawn uniformly while they fit: at most half the points in \
         vehicles, at most 3 Gunners, Snipers or Heavy Weapons units). **Value in army** is a logistic \
         regression of the result on each entry's count difference, per point, normalised so the mean \
         entry is 1 (above 1: wins more games than its cost suggests). Intervals are 95% (delta \
         method); armies are built to nearly equal points, so the common level is uncertain: compare \
         entries by their intervals. Simplified: terrain pieces are low walls (cover within 2\", no \
         blocked sight), all vehicle hits frontal, no transport; Guard reacts at the end of an enemy \
         move.\n",
        d.points
    );
    let _ = writeln!(
        o,
        "{} games per tactic, seed {}. Default tactic (advance and shoot, charge when melee is better): \
         A wins {}, B wins {}, draws {}.{}\n",
        d.games,
        d.seed,
        pct(&d.a_wins),
        pct(&d.b_wins),
        pct(&d.draws),
        cautious.map_or(String::new(), |c| format!(
            " Cautious tactic (Guard when the enemy must cross open ground, Hunker when outgunned): A wins {}, \
             B wins {}, draws {}.",
            pct(&c.a_wins),
            pct(&c.b_wins),
            pct(&c.draws)
        ))
    );
    let _ = writeln!(o, "![value in army]({VALUE_CHART}.png)\n");
    o.push_str(
        "| entry | cost | value per point, default tactic [95% CI] | cautious tactic [95% CI] |\n|---|---:|---|---|\n",
    );
    for v in &d.value_in_army {
        let e = &v.value_per_point;
        let other =
            cautious.and_then(|c| c.value_in_army.iter().find(|x| x.name == v.name)).map_or("—".to_string(), |x| {
                let e = &x.value_per_point;
                format!("{:.2} [{:.2}, {:.2}]", e.value, e.lo, e.hi)
            });
        let _ = writeln!(o, "| {} | {} | {:.2} [{:.2}, {:.2}] | {other} |", v.name, v.cost, e.value, e.lo, e.hi);
    }
    if !d.fit_converged {
        o.push_str("\n**Warning:** the regression did not converge; treat the values as rough.\n");
    }
    o.push_str("\n### Mission: unit statistics (default tactic)\n\n");
    o.push_str(
        "| entry | cost | fielded | enemy units destroyed per unit | survival [95% CI] | points destroyed per point |\n\
         |---|---:|---:|---:|---|---:|\n",
    );
    for u in &d.units {
        let _ = writeln!(
            o,
            "| {} | {} | {} | {:.2} | {} | {:.2} |",
            u.name,
            u.cost,
            u.fielded,
            u.kills_per_unit,
            pct(&u.survival),
            u.points_killed_per_point
        );
    }
    if d.replay_svg.is_some() {
        o.push_str("\n### Mission: one seeded game\n\n");
        o.push_str(
            "Each line is a unit's path; ✕ marks where a unit was destroyed and in which round; ↓ marks a \
             unit Pinned at the end; brown bars are terrain pieces.\n\n",
        );
        let _ = writeln!(o, "![mission replay]({REPLAY})\n");
    } else {
        o.push('\n');
    }
    o
}
