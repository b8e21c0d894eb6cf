//! The Grunt Factor report's "Skirmish: value in army" section: random legal 200-point forces
//! of squads played through the skirmish under the `bound` and `advance` tactics. Filled by
//! `commands::grunt_factor_skirmish::attach_to_report`; empty for other rulesets.
//!
//! Why value in army next to the duel tables: duels price a squad against one enemy squad on
//! open ground; in the skirmish cover, command radius, target priority and the mix of a force
//! decide, and the regression says what one more squad of a kind is worth there.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use crate::analysis::RulesetAnalysis;

/// Replay picture file name.
pub const REPLAY: &str = "skirmish_replay.svg";

use super::format::pct_interval as pct;

/// Writes `skirmish.json`, the value and unit CSVs, the value-in-army chart `value_in_army.png`/`.svg`
/// and the replay picture into `dir`; nothing without results (see
/// [`super::skirmish::write_runs`]).
pub fn write_files(a: &RulesetAnalysis, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let Some(runs) = a.grunt_factor_skirmish.as_ref().filter(|r| !r.is_empty()) else {
        return Ok(Vec::new());
    };
    super::skirmish::write_runs(a, runs, dir, "skirmish", REPLAY, VALUE_CHART)
}

/// Value-in-army chart file stem.
pub const VALUE_CHART: &str = "value_in_army";

/// The Markdown section (empty without skirmish results).
pub fn section(a: &RulesetAnalysis) -> String {
    let Some(runs) = a.grunt_factor_skirmish.as_ref().filter(|r| !r.is_empty()) else {
        return String::new();
    };
    let d = &runs[0];
    let other = runs.iter().find(|r| r.tactic == "advance");
    let mut o = String::new();
    o.push_str("## Skirmish: value in army\n\n");
    let _ = writeln!(
        o,
        "Skirmishes between **random legal {}-point forces** (squads of the cost list drawn uniformly \
         while they fit): {}. **Value in army** is a logistic regression of the \
         result on each squad's count difference, per point, normalised so the mean squad is 1 (above \
         1: wins more games than its cost suggests). Intervals are 95% (delta method); forces are \
         built to nearly equal points, so the common level is uncertain: compare squads by their \
         intervals.\n",
        d.points, d.setup
    );
    let _ = writeln!(
        o,
        "{} games per tactic, seed {}, mean {:.1} game turns. `bound` tactic (cover to cover while out of \
         short range, aim when it raises expected kills): A wins {}, B wins {}, draws {}.{}\n",
        d.games,
        d.seed,
        d.mean_turns,
        pct(&d.a_wins),
        pct(&d.b_wins),
        pct(&d.draws),
        other.map_or(String::new(), |c| format!(
            " `advance` tactic (straight at the nearest enemy, close combat within one move): A wins {}, \
             B wins {}, draws {}.",
            pct(&c.a_wins),
            pct(&c.b_wins),
            pct(&c.draws)
        ))
    );
    let _ = writeln!(o, "![value in army]({VALUE_CHART}.png)\n");
    o.push_str("| squad | cost | value per point, bound [95% CI] | advance [95% CI] |\n|---|---:|---|---|\n");
    for v in &d.value_in_army {
        let e = &v.value_per_point;
        let adv =
            other.and_then(|c| c.value_in_army.iter().find(|x| x.name == v.name)).map_or("—".to_string(), |x| {
                let e = &x.value_per_point;
                format!("{:.2} [{:.2}, {:.2}]", e.value, e.lo, e.hi)
            });
        let _ = writeln!(o, "| {} | {} | {:.2} [{:.2}, {:.2}] | {adv} |", v.name, v.cost, e.value, e.lo, e.hi);
    }
    if d.value_in_army.is_empty() {
        o.push_str("| (too few games for the regression) | | | |\n");
    }
    if !d.fit_converged {
        o.push_str("\n**Warning:** the regression did not converge; treat the values as rough.\n");
    }
    o.push_str("\n### Skirmish: squad statistics (bound tactic)\n\n");
    o.push_str(
        "| squad | cost | fielded | enemy squads wiped out per squad | survival (a model left) [95% CI] | points of squads wiped out per point |\n\
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
        o.push_str("\n### Skirmish: one seeded game\n\n");
        o.push_str(
            "Each line is a model's path; squad initials and number at the Sergeant; ✕ marks where a model \
             died and in which turn; solid bars are hard cover, dashed bars soft cover.\n\n",
        );
        let _ = writeln!(o, "![skirmish replay]({REPLAY})\n");
    } else {
        o.push('\n');
    }
    o
}
