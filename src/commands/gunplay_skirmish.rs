//! `pointsworth skirmish gunplay`: the Gunplay skirmish (48" × 48", 4–6 cover pieces, 5
//! characters a side, no one Up at the end of a turn loses, 10-turn cap).
//!
//! Line-ups come from `--armies` (two comma-separated loadout lists, e.g.
//! `--armies rifle,rifle,rifle,rifle,rifle shotgun,shotgun,shotgun,shotgun,shotgun`, or
//! `random`) or else from `[skirmish] side_a` / `side_b` of the config.

use std::time::Instant;

use comfy_table::{Cell, CellAlignment, Table, presets::UTF8_FULL_CONDENSED};
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::app::{AppError, pct, stdout_write};
use crate::cli::SkirmishArgs;
use crate::rulesets::gunplay::Gunplay;
use crate::rulesets::gunplay::skirmish::{LineUp, SkirmishTally, replay_of, simulate, traced_game};
use crate::stats::{CONFIDENCE, Estimate, wilson};

/// One loadout's skirmish statistics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoadoutRow {
    pub name: String,
    /// Characters of this loadout fielded over all games.
    pub fielded: u64,
    /// Still in play (not removed) at the end of the game.
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

/// Win/draw rates with 95% Wilson intervals, mean turns and per-loadout survival.
pub fn analyse(r: &Gunplay, lineups: [&LineUp; 2], t: &SkirmishTally, seed: u64) -> GunplaySkirmish {
    let g = t.games.max(1) as f64;
    let loadouts = r
        .units
        .iter()
        .enumerate()
        .filter(|(u, _)| t.fielded.get(*u).copied().unwrap_or(0) > 0)
        .map(|(u, info)| {
            let f = t.fielded[u] as f64;
            LoadoutRow {
                name: info.name.clone(),
                fielded: t.fielded[u],
                survival: wilson(t.survived[u] as f64, f, CONFIDENCE),
                up_at_end: wilson(t.up_at_end[u] as f64, f, CONFIDENCE),
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

/// Runs `pointsworth skirmish gunplay` (arguments already checked by the caller).
pub fn run(args: &SkirmishArgs, r: &Gunplay) -> Result<(), AppError> {
    if args.tactic != "default" {
        return Err(AppError::Usage(format!("unknown tactic {:?} for gunplay; known: default", args.tactic)));
    }
    let cfg = &r.skirmish;
    let parse = |s: &str| -> Result<LineUp, AppError> {
        let names: Vec<String> = s.split(',').map(|x| x.trim().to_string()).filter(|x| !x.is_empty()).collect();
        LineUp::from_names(r, &names, cfg.characters)
            .map_err(|m| AppError::Usage(m.replace("[skirmish] ", "--armies: ")))
    };
    let lineups = match args.armies.as_slice() {
        [] => [
            LineUp::from_names(r, &cfg.side_a, cfg.characters).map_err(AppError::Usage)?,
            LineUp::from_names(r, &cfg.side_b, cfg.characters).map_err(AppError::Usage)?,
        ],
        [one] if one == "random" => [LineUp::Random(cfg.characters), LineUp::Random(cfg.characters)],
        [a, b] => [parse(a)?, parse(b)?],
        other => {
            return Err(AppError::Usage(format!(
                "--armies takes \"random\" or two comma-separated loadout lists (e.g. rifle,rifle,pistol), got {}",
                other.join(" ")
            )));
        }
    };
    crate::commands::skirmish::check_replay_path(args.replay.as_deref())?;
    let trials = args.sim.trials.unwrap_or(cfg.trials);
    let started = Instant::now();
    let pb = crate::commands::skirmish::games_progress(trials, "Gunplay".to_string(), "skirmishes");
    let pair = [&lineups[0], &lineups[1]];
    let tally = simulate(r, pair, args.sim.seed, trials, &pb);
    pb.finish_and_clear();
    let mut a = analyse(r, pair, &tally, args.sim.seed);
    if let Some(path) = &args.replay {
        let (g, out) = traced_game(r, pair, args.sim.seed);
        crate::commands::skirmish::write_replay(path, &replay_of(&g, &out, pair))?;
        a.replay = Some(path.display().to_string());
    }
    if args.json {
        let v = json!({ "ruleset": "gunplay", "skirmish": a, "confidence": CONFIDENCE });
        return stdout_write(&format!("{}\n", serde_json::to_string_pretty(&v).expect("json")));
    }
    stdout_write(&format!(
        "Gunplay — Skirmish, {}\"×{}\", {}–{} cover pieces, {}-turn cap\nA: {} / B: {}\n{} games, seed {}; mean {:.1} game turns; {:.1} s\n{}\n{}\n{}",
        cfg.table_width,
        cfg.table_depth,
        cfg.cover_min,
        cfg.cover_max,
        cfg.max_turns,
        a.side_a,
        a.side_b,
        a.games,
        a.seed,
        a.mean_turns,
        started.elapsed().as_secs_f64(),
        outcome_table(&a),
        loadout_table(&a),
        a.replay.as_ref().map_or(String::new(), |p| format!("wrote {p}\n")),
    ))
}

/// Win/draw rates as a table.
pub fn outcome_table(a: &GunplaySkirmish) -> Table {
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED);
    t.set_header(vec!["outcome", "probability [95% CI]"]);
    t.add_row(vec!["side A wins".to_string(), pct(&a.a_wins)]);
    t.add_row(vec!["side B wins".to_string(), pct(&a.b_wins)]);
    t.add_row(vec!["draw (turn cap, or no one Up)".to_string(), pct(&a.draws)]);
    t
}

/// Per-loadout survival as a table.
pub fn loadout_table(a: &GunplaySkirmish) -> Table {
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED);
    t.set_header(vec!["loadout", "fielded", "in play at the end [95% CI]", "Up at the end [95% CI]"]);
    for l in &a.loadouts {
        t.add_row(vec![
            Cell::new(&l.name),
            Cell::new(l.fielded).set_alignment(CellAlignment::Right),
            Cell::new(pct(&l.survival)),
            Cell::new(pct(&l.up_at_end)),
        ]);
    }
    t
}

/// The report's Skirmish section for Gunplay: `[skirmish] report_trials` games for each of a
/// few fixed 5-character line-ups (every pair of single-loadout sides) and for random mixes.
/// Does nothing when `report_trials` is 0.
pub fn attach_to_report(r: &Gunplay, analysis: &mut crate::analysis::RulesetAnalysis, seed: u64) {
    let cfg = &r.skirmish;
    if cfg.report_trials == 0 {
        return;
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
    analysis.gunplay_skirmish = Some(runs);
}
