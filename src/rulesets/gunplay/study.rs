//! Gunplay's study for `pointsworth report gunplay`: the Skirmish section, win rates of fixed
//! 5-character line-ups (every pair of single-loadout sides) and of random mixes on the
//! 48"×48" table, with per-loadout survival.

pub mod derive;

use std::fmt::Write;

use serde::{Deserialize, Serialize};

use super::Gunplay;
use super::skirmish::{LineUp, SkirmishTally, simulate};
use crate::format::{fmt_cost, pct_interval as pct};
use crate::rulesets::engine::{Engine, FairCosts};
use crate::rulesets::study::{Study, StudyTable};
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
        .book
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

/// Gunplay's report sections: the derived cost list over the ground mix and its skirmish
/// check ([`derived_section`]), then the Skirmish section ([`skirmish_studies`]). `at_24` is
/// the generic solver's run at the matrix distance in the open (the report's "Derived cost
/// list"), shown beside the mix's list.
pub fn studies<E: Engine>(
    engine: &E,
    r: &Gunplay,
    at_24: Option<&FairCosts>,
    seed: u64,
    progress: &indicatif::ProgressBar,
) -> Vec<Study> {
    let mut out = vec![derived_section(engine, r, at_24, seed, progress)];
    out.extend(skirmish_studies(engine, r, seed));
    out
}

/// The report's "Derived cost list over mixed ground" section: the list of
/// [`derive::derived_over_mix`], beside the 24" open-ground list, and both lists (and the
/// starting costs) checked in the skirmish ([`derive::skirmish_check`], `[skirmish]
/// report_trials` games per pair; no check when that is 0).
pub fn derived_section<E: Engine>(
    engine: &E,
    r: &Gunplay,
    at_24: Option<&FairCosts>,
    seed: u64,
    progress: &indicatif::ProgressBar,
) -> Study {
    let mix = derive::derived_over_mix(engine, r, seed, progress);
    let m = derive::MixedGround::new(r);
    let anchor = mix.anchor.clone().unwrap_or_default();
    let anchor_name = r.book.units.iter().find(|u| u.id == anchor).map_or("the anchor".to_string(), |u| u.name.clone());
    let start: Vec<f64> = r.book.units.iter().map(|u| u.cost).collect();
    let mix_costs = derive::derived_costs(&mix);
    let open_costs = at_24.map(derive::derived_costs);
    let games = r.skirmish.report_trials;
    let budget = r.book.duel.budget;
    let check = |costs: &[f64]| (games > 0).then(|| derive::skirmish_check(engine, r, costs, budget, seed, games));
    let checks: Vec<(String, Option<derive::SkirmishCheck>)> = [
        Some(("starting costs".to_string(), start.clone())),
        open_costs.clone().map(|c| ("24 in open list".to_string(), c)),
        Some(("mix list".to_string(), mix_costs.clone())),
    ]
    .into_iter()
    .flatten()
    .map(|(name, c)| (name, check(&c)))
    .collect();
    let mut o = String::new();
    let _ = writeln!(
        o,
        "## Derived cost list over mixed ground ({anchor_name} = {})
",
        fmt_cost(r.book.units.iter().find(|u| u.id == anchor).map_or(0.0, |u| u.cost))
    );
    let _ = writeln!(
        o,
        "Gunplay has no points, so pointsworth derives them (RULINGS.md, \"Gunplay\", Points). A loadout's worth \
         depends on where the fight starts and on cover (see the efficiency-by-distance sweep), so this list is \
         derived over a **mix of grounds**: {}-point squads starting {} apart, each in the open, behind some \
         cover and behind lots of cover — {} grounds, equally weighted (each trial draws one). The {anchor_name} \
         costs {} by definition; every other loadout's derived cost is its fair cost with every other at its \
         derived cost (the same solver as the \"Derived cost list\" above, {} trials per matchup per price, seed \
         {}, both sides on the `default` tactic); the 95% interval carries the efficiency's interval through the \
         local slope. The list above holds at 24 in in the open only, where the squads play each pair's \
         equilibrium of the squads' tactic game.\n",
        fmt_cost(budget),
        m.describe().replace(" × open, some cover, lots of cover", ""),
        3 * m.distances.len(),
        fmt_cost(mix_costs[r.book.units.iter().position(|u| u.id == anchor).unwrap_or(0)]),
        mix.trials,
        mix.seed
    );
    o.push_str(
        "| loadout | starting cost | derived, 24 in open | derived over the mix [95% CI] |\n|---|---:|---:|---|\n",
    );
    for (u, row) in mix.rows.iter().enumerate() {
        let derived = if row.unit.id == anchor {
            format!("{} (anchor)", fmt_cost(row.unit.cost))
        } else {
            row.derived_cost.map_or("— (no price balances it)".to_string(), |e| {
                format!("{:.1} [{:.1}, {:.1}]", e.value, e.lo, e.hi)
            })
        };
        let open = open_costs.as_ref().map_or("—".to_string(), |c| format!("{:.1}", c[u]));
        let _ = writeln!(o, "| {} | {} | {} | {} |", row.unit.name, fmt_cost(row.unit.cost), open, derived);
    }
    for n in mix.unbalanced.iter().chain(&mix.notes) {
        let _ = writeln!(o, "\nSolver note: {n}");
    }
    let mut header: Vec<String> =
        ["unit", "starting_cost", "derived_24_open", "derived_mix", "derived_mix_lo", "derived_mix_hi"]
            .map(String::from)
            .to_vec();
    for (name, _) in &checks {
        let k = name.replace(' ', "_");
        header.extend([format!("skirmish_{k}"), format!("skirmish_{k}_lo"), format!("skirmish_{k}_hi")]);
    }
    let mut csv = crate::csv_text::CsvText::new(header);
    for (u, row) in mix.rows.iter().enumerate() {
        let d = row.derived_cost;
        let mut fields = vec![
            row.unit.id.clone(),
            row.unit.cost.to_string(),
            open_costs.as_ref().map_or(String::new(), |c| format!("{:.4}", c[u])),
            format!("{:.4}", mix_costs[u]),
            d.map_or(String::new(), |e| format!("{:.4}", e.lo)),
            d.map_or(String::new(), |e| format!("{:.4}", e.hi)),
        ];
        for (_, c) in &checks {
            match c {
                Some(c) => {
                    let e = c.efficiency[u];
                    fields.extend([e.value, e.lo, e.hi].map(|x| format!("{x:.4}")));
                }
                None => fields.extend([String::new(), String::new(), String::new()]),
            }
        }
        csv.row(fields);
    }
    let csv = csv.finish();
    if games > 0 {
        let _ = writeln!(
            o,
            "\n### The lists in the skirmish\n\nEach list played in the Skirmish below (48\"×48\", 4–6 low walls, lines \
             along opposite edges, 10 turns), where no start distance or cover is chosen: each side buys {} points \
             of one loadout at the list's costs (⌊{} / cost⌋ characters, one more with the probability of the \
             remainder), {} games per pair of loadouts, both sides on the `default` tactic. A loadout's **skirmish efficiency** is its mean score (win \
             1, draw ½) against the others' sides; 50% is a fair price in the skirmish. Intervals are 95%.\n",
            fmt_cost(budget),
            fmt_cost(budget),
            games
        );
        o.push_str("| loadout |");
        for (name, _) in &checks {
            let _ = write!(o, " {name}: cost | skirmish efficiency |");
        }
        o.push_str("\n|---|");
        for _ in &checks {
            o.push_str("---:|---|");
        }
        o.push('\n');
        for (u, info) in r.book.units.iter().enumerate() {
            let _ = write!(o, "| {} |", info.name);
            for (_, c) in &checks {
                let c = c.as_ref().expect("games > 0");
                let _ = write!(o, " {:.1} | {} |", c.costs[u], pct(&c.efficiency[u]));
            }
            o.push('\n');
        }
        let worst =
            |c: &derive::SkirmishCheck| c.efficiency.iter().map(|e| (e.value - 0.5).abs()).fold(0.0, f64::max) * 100.0;
        let summary: Vec<String> =
            checks.iter().filter_map(|(name, c)| c.as_ref().map(|c| format!("{name} {:.1}", worst(c)))).collect();
        let _ = writeln!(
            o,
            "\nLargest distance of a loadout's skirmish efficiency from 50%, in percentage points: {}.\n",
            summary.join(", ")
        );
    }
    Study {
        title: "Derived cost list over mixed ground".to_string(),
        markdown: o,
        tables: vec![StudyTable { file: "derived_costs_mix.csv".to_string(), text: csv }],
        charts: Vec::new(),
        suggested_costs_note: Some(
            "This list holds at 24 in in the open only; Gunplay's derived cost list is derived over a mix of \
             start distances and cover and checked in the skirmish: see \"Derived cost list over mixed ground\".\n\n"
                .to_string(),
        ),
    }
}

/// The report's Skirmish section for Gunplay, as a study: `[skirmish] report_trials` games for each of a
/// few fixed 5-character line-ups (every pair of single-loadout sides) and for random mixes.
/// Does nothing when `report_trials` is 0.
pub fn skirmish_studies<E: Engine>(engine: &E, r: &Gunplay, seed: u64) -> Vec<Study> {
    let cfg = &r.skirmish;
    if cfg.report_trials == 0 {
        return Vec::new();
    }
    let n = cfg.characters as usize;
    let mut pairs = Vec::new();
    for a in 0..r.book.units.len() {
        for b in a + 1..r.book.units.len() {
            pairs.push([LineUp::Fixed(vec![a; n]), LineUp::Fixed(vec![b; n])]);
        }
    }
    pairs.push([LineUp::Random(cfg.characters), LineUp::Random(cfg.characters)]);
    let runs = pairs
        .iter()
        .map(|[a, b]| {
            let tally = simulate(engine, r, [a, b], seed, cfg.report_trials, &indicatif::ProgressBar::hidden());
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
         lots of cover, farther from it at some cover. Both sides play the `default` tactic (the \
         skirmish's tactic metagame, under \"How each matchup is played\", weighs it against the \
         others). {} games per line-up, seed {}; intervals are \
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
