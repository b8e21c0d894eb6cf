//! Gunplay's study for `pointsworth report gunplay`: the Skirmish section, win rates of fixed
//! 5-character line-ups (every pair of single-loadout sides) and of random mixes on the
//! 48"×48" table, with per-loadout survival.

use std::fmt::Write;

use serde::{Deserialize, Serialize};

use super::Gunplay;
use super::skirmish::{LineUp, SkirmishTally, simulate};
use crate::format::pct_interval as pct;
use crate::rulesets::study::Study;
use crate::stats::{CONFIDENCE, ClusterSums, Estimate, clustered_proportion, wilson};

/// One loadout's skirmish statistics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoadoutRow {
    pub name: String,
    /// Characters of this loadout fielded over all games.
    pub fielded: u64,
    /// Still in play (not removed) at the end of the game; the interval resamples whole games
    /// (cluster-robust, [`clustered_proportion`]).
    pub survival: Estimate,
    /// Up (neither Down nor removed) at the end of the game.
    pub up_at_end: Estimate,
}

/// Everything a Gunplay skirmish run reports.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GunplaySkirmish {
    pub side_a: String,
    pub side_b: String,
    pub seed: u64,
    pub games: u64,
    pub a_wins: Estimate,
    pub b_wins: Estimate,
    pub draws: Estimate,
    pub mean_turns: f64,
    pub loadouts: Vec<LoadoutRow>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay: Option<String>,
}

/// Win/draw rates with 95% Wilson intervals, mean turns and per-loadout survival (intervals
/// clustered by game).
pub fn analyse(r: &Gunplay, lineups: [&LineUp; 2], t: &SkirmishTally, seed: u64) -> GunplaySkirmish {
    let g = t.games.max(1) as f64;
    let loadouts = r
        .units
        .iter()
        .enumerate()
        .filter(|(u, _)| t.fielded.get(*u).copied().unwrap_or(0) > 0)
        .map(|(u, info)| {
            // Characters of one game are not independent: the intervals resample whole games.
            let sums = |successes, successes_sq, successes_trials| ClusterSums {
                successes,
                trials: t.fielded[u],
                successes_sq,
                successes_trials,
                trials_sq: t.fielded_sq[u],
                clusters: t.games,
            };
            LoadoutRow {
                name: info.name.clone(),
                fielded: t.fielded[u],
                survival: clustered_proportion(
                    &sums(t.survived[u], t.survived_sq[u], t.survived_fielded[u]),
                    CONFIDENCE,
                ),
                up_at_end: clustered_proportion(&sums(t.up_at_end[u], t.up_sq[u], t.up_fielded[u]), CONFIDENCE),
            }
        })
        .collect();
    GunplaySkirmish {
        side_a: lineups[0].describe(r),
        side_b: lineups[1].describe(r),
        seed,
        games: t.games,
        a_wins: wilson(t.wins[0] as f64, g, CONFIDENCE),
        b_wins: wilson(t.wins[1] as f64, g, CONFIDENCE),
        draws: wilson((t.games - t.wins[0] - t.wins[1]) as f64, g, CONFIDENCE),
        mean_turns: t.turns as f64 / g,
        loadouts,
        replay: None,
    }
}

/// The report's Skirmish section for Gunplay, as a study: `[skirmish] report_trials` games for each of a
/// few fixed 5-character line-ups (every pair of single-loadout sides) and for random mixes.
/// Does nothing when `report_trials` is 0.
pub fn studies(r: &Gunplay, seed: u64) -> Vec<Study> {
    let cfg = &r.skirmish;
    if cfg.report_trials == 0 {
        return Vec::new();
    }
    let n = cfg.characters as usize;
    let mut pairs = Vec::new();
    for a in 0..r.units.len() {
        for b in a + 1..r.units.len() {
            pairs.push([LineUp::Fixed(vec![a; n]), LineUp::Fixed(vec![b; n])]);
        }
    }
    pairs.push([LineUp::Random(cfg.characters), LineUp::Random(cfg.characters)]);
    let runs = pairs
        .iter()
        .map(|[a, b]| {
            let tally = simulate(r, [a, b], seed, cfg.report_trials, &indicatif::ProgressBar::hidden());
            analyse(r, [a, b], &tally, seed)
        })
        .collect();
    let runs: Vec<GunplaySkirmish> = runs;
    vec![Study {
        title: "Skirmish".to_string(),
        markdown: section(&runs),
        tables: Vec::new(),
        charts: Vec::new(),
        suggested_costs_note: None,
    }]
}

/// The Markdown section (empty without runs).
fn section(runs: &[GunplaySkirmish]) -> String {
    if runs.is_empty() {
        return String::new();
    }
    let mut o = String::new();
    o.push_str("## Skirmish\n\n");
    let _ = writeln!(
        o,
        "Skirmishes on a 48\"×48\" table with 4–6 low walls placed from the seed; each side deploys \
         in a line along its own edge; a side with no character Up at the end of a turn loses, and \
         10 game turns are a draw. A line of fire crossing a wall within 1\" of the target is at \
         lots of cover, farther from it at some cover. {} games per line-up, seed {}; intervals are \
         95% (Wilson; the per-loadout ones resample whole games, since characters of one game are not \
         independent).\n",
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
