//! `pointsworth skirmish army-men-combat`: the Army Men Combat mission (48" × 48", 5–10
//! terrain pieces, 4 rounds, score = points of enemy units destroyed or Pinned) between random
//! legal 300-point armies (`--armies random`, default) or two army files (`--armies A.toml
//! B.toml`: a `[units]` table of entry name = count), under the default or cautious tactic.

use std::time::Instant;

use serde_json::json;

use crate::analysis::RulesetAnalysis;
use crate::analysis::skirmish::{SkirmishAnalysis, analyse_skirmish};
use crate::app::{AppError, stdout_write};
use crate::cli::SkirmishArgs;
use crate::rulesets::amc::ArmyMenCombat;
use crate::rulesets::amc::skirmish::{Armies, Tactic, describe, entries, read_army, simulate, traced_game};

/// Win rates, per-entry statistics and value in army of one run.
pub fn analyse(r: &ArmyMenCombat, armies: &Armies, tactic: Tactic, seed: u64, trials: u64) -> SkirmishAnalysis {
    let all = entries(r);
    let infos: Vec<_> = all.iter().map(|e| e.0.clone()).collect();
    let pb = crate::commands::skirmish::games_progress(trials, format!("{} tactic", tactic.name()), "missions");
    let tally = simulate(r, armies, tactic, seed, trials, &pb);
    pb.finish_and_clear();
    let txt = match armies {
        Armies::Random => "random".to_string(),
        Armies::Fixed(x) => format!("A: {} / B: {}", describe(&all, &x[0]), describe(&all, &x[1])),
    };
    let mut a = analyse_skirmish(&infos, &[], &tally, &txt, tactic.name(), seed, r.army.points);
    // Entries never fielded (upgraded entries in random armies) are left out of the table.
    a.units.retain(|u| u.fielded > 0);
    a
}

/// Runs the command (arguments already checked by the caller).
pub fn run(args: &SkirmishArgs, r: &ArmyMenCombat) -> Result<(), AppError> {
    let tactic = Tactic::parse(&args.tactic).ok_or_else(|| {
        AppError::Usage(format!("unknown tactic {:?}; known: {}", args.tactic, Tactic::NAMES.join(", ")))
    })?;
    let armies = match crate::commands::skirmish::army_paths(&args.armies, "army files")? {
        None => Armies::Random,
        Some([a, b]) => Armies::Fixed(Box::new([read_army(r, a)?, read_army(r, b)?])),
    };
    crate::commands::skirmish::check_replay_path(args.replay.as_deref())?;
    let cfg = &r.skirmish;
    let trials = args.sim.trials.unwrap_or(cfg.trials);
    let started = Instant::now();
    let mut a = analyse(r, &armies, tactic, args.sim.seed, trials);
    if let Some(path) = &args.replay {
        let (replay, _) = traced_game(r, &armies, tactic, args.sim.seed);
        crate::commands::skirmish::write_replay(path, &replay)?;
        a.replay = Some(path.display().to_string());
    }
    if args.json {
        let v = json!({ "ruleset": "army-men-combat", "skirmish": a, "confidence": crate::stats::CONFIDENCE });
        return stdout_write(&format!("{}\n", serde_json::to_string_pretty(&v).expect("json")));
    }
    stdout_write(&format!(
        "Army Men Combat v2.0 — Mission, {} points, {}\"×{}\", {}–{} terrain pieces, {} rounds, {} tactic\n\
         armies: {}\n{} games, seed {}; {:.1} s\n{}\n{}\n{}{}",
        r.army.points,
        cfg.table_width,
        cfg.table_depth,
        cfg.terrain_min,
        cfg.terrain_max,
        cfg.rounds,
        tactic.name(),
        a.armies,
        a.games,
        a.seed,
        started.elapsed().as_secs_f64(),
        crate::commands::skirmish::outcome_table(
            &a,
            "outcome (score: enemy points destroyed or Pinned)",
            ["side A scores more", "side B scores more", "draw (equal scores)"]
        ),
        crate::commands::skirmish::unit_table(&a),
        crate::commands::skirmish::value_text(&a, "unit entry", false),
        a.replay.as_ref().map_or(String::new(), |p| format!("wrote {p}\n")),
    ))
}

/// The report's mission section data: random-army missions under each tactic (`[skirmish]
/// report_trials` each, default first) and one replay picture. Nothing when `report_trials`
/// is 0.
pub fn attach_to_report(r: &ArmyMenCombat, analysis: &mut RulesetAnalysis, seed: u64) {
    let n = r.skirmish.report_trials;
    if n == 0 {
        return;
    }
    let mut runs: Vec<SkirmishAnalysis> =
        [Tactic::Default, Tactic::Cautious].iter().map(|&t| analyse(r, &Armies::Random, t, seed, n)).collect();
    let (replay, _) = traced_game(r, &Armies::Random, Tactic::Default, seed);
    runs[0].replay_svg = Some(crate::battle::replay::to_svg(&replay));
    runs[0].replay = Some(crate::report::amc_mission_replay_name().to_string());
    analysis.amc_skirmish = Some(runs);
}
