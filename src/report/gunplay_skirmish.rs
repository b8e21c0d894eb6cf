//! The Gunplay report's Skirmish section: win rates of fixed 5-character line-ups and of
//! random mixes on the 48"×48" table, with per-loadout survival. Filled by
//! `commands::gunplay_skirmish::attach_to_report`; empty when `[skirmish] report_trials` is 0.

use std::fmt::Write;

use crate::analysis::RulesetAnalysis;

use super::format::pct_interval as pct;

/// The Markdown section (empty without Gunplay skirmish results).
pub fn section(a: &RulesetAnalysis) -> String {
    let Some(runs) = a.gunplay_skirmish.as_ref().filter(|r| !r.is_empty()) else {
        return String::new();
    };
    let mut o = String::new();
    o.push_str("## Skirmish\n\n");
    let _ = writeln!(
        o,
        "Skirmishes on a 48\"×48\" table with 4–6 low walls placed from the seed; each side deploys \
         in a line along its own edge; a side with no character Up at the end of a turn loses, and \
         10 game turns are a draw. A line of fire crossing a wall within 1\" of the target is at \
         lots of cover, farther from it at some cover. {} games per line-up, seed {}; intervals are \
         95% (Wilson).\n",
        runs[0].games, runs[0].seed
    );
    o.push_str("| side A | side B | A wins | B wins | draw | mean turns |\n|---|---|---|---|---|---|\n");
    for r in runs {
        let _ = writeln!(
            o,
            "| {} | {} | {} | {} | {} | {:.1} |",
            r.side_a,
            r.side_b,
            pct(&r.a_wins),
            pct(&r.b_wins),
            pct(&r.draws),
            r.mean_turns
        );
    }
    if let Some(mix) = runs.last() {
        o.push_str("\nPer loadout, in the random mixes (both sides): in play and Up at the end of the game.\n\n");
        o.push_str("| loadout | fielded | in play at the end | Up at the end |\n|---|---|---|---|\n");
        for l in &mix.loadouts {
            let _ = writeln!(o, "| {} | {} | {} | {} |", l.name, l.fielded, pct(&l.survival), pct(&l.up_at_end));
        }
    }
    o.push('\n');
    o
}
