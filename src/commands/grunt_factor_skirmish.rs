//! `pointsworth skirmish grunt-factor`: The Grunt Factor skirmish (180 × 120 cm, soft and hard
//! cover, 10 turns, the side with more points destroyed wins) between random legal 200-point
//! forces of squads (`--armies random`, default) or two force files (`--armies A.toml B.toml`:
//! a `[units]` table of squad name = count), under the `bound` (default) or `advance` tactic.

use std::time::Instant;

use serde_json::json;

use crate::analysis::RulesetAnalysis;
use crate::analysis::skirmish::{SkirmishAnalysis, analyse_skirmish};
use crate::app::{AppError, stdout_write};
use crate::cli::SkirmishArgs;
use crate::rulesets::grunt_factor::GruntFactor;
use crate::rulesets::grunt_factor::skirmish::{Forces, Tactic, describe, read_force, simulate, traced_game};

/// Win rates, per-squad statistics and value in army of one run.
pub fn analyse(r: &GruntFactor, forces: &Forces, tactic: Tactic, seed: u64, trials: u64) -> SkirmishAnalysis {
    let pb = crate::commands::skirmish::games_progress(trials, format!("{} tactic", tactic.name()), "skirmishes");
    let tally = simulate(r, forces, tactic, seed, trials, &pb);
    pb.finish_and_clear();
    let txt = match forces {
        Forces::Random => "random".to_string(),
        Forces::Fixed(x) => format!("A: {} / B: {}", describe(&r.units, &x[0]), describe(&r.units, &x[1])),
    };
    let mut a = analyse_skirmish(&r.units, &[], &tally, &txt, tactic.name(), seed, r.skirmish.points);
    a.units.retain(|u| u.fielded > 0);
    a
}

/// Runs the command (arguments already checked by the caller).
pub fn run(args: &SkirmishArgs, r: &GruntFactor) -> Result<(), AppError> {
    let tactic = Tactic::parse(&args.tactic).ok_or_else(|| {
        AppError::Usage(format!(
            "unknown tactic {:?}; known: {} (default = bound)",
            args.tactic,
            Tactic::NAMES.join(", ")
        ))
    })?;
    let forces = match crate::commands::skirmish::army_paths(&args.armies, "force files")? {
        None => Forces::Random,
        Some([a, b]) => Forces::Fixed(Box::new([read_force(r, a)?, read_force(r, b)?])),
    };
    crate::commands::skirmish::check_replay_path(args.replay.as_deref())?;
    let cfg = &r.skirmish;
    let trials = args.sim.trials.unwrap_or(cfg.trials);
    let started = Instant::now();
    let mut a = analyse(r, &forces, tactic, args.sim.seed, trials);
    if let Some(path) = &args.replay {
        let (replay, _) = traced_game(r, &forces, tactic, args.sim.seed);
        crate::commands::skirmish::write_replay(path, &replay)?;
        a.replay = Some(path.display().to_string());
    }
    if args.json {
        let v = json!({ "ruleset": "grunt-factor", "skirmish": a, "confidence": crate::stats::CONFIDENCE });
        return stdout_write(&format!("{}\n", serde_json::to_string_pretty(&v).expect("json")));
    }
    stdout_write(&format!(
        "The Grunt Factor — Skirmish, {} points, {} × {} cm, {}–{} cover pieces, {} turns, {} tactic\n\
         forces: {}\n{} games, seed {}; mean {:.1} game turns; {:.1} s\n{}\n{}\n{}{}",
        cfg.points,
        cfg.table_width,
        cfg.table_depth,
        cfg.cover_min,
        cfg.cover_max,
        cfg.max_turns,
        tactic.name(),
        a.armies,
        a.games,
        a.seed,
        a.mean_turns,
        started.elapsed().as_secs_f64(),
        crate::commands::skirmish::outcome_table(
            &a,
            "outcome (more enemy points destroyed wins)",
            ["side A wins", "side B wins", "draw (equal points destroyed)"]
        ),
        crate::commands::skirmish::unit_table(&a),
        crate::commands::skirmish::value_text(&a, "squad", false),
        a.replay.as_ref().map_or(String::new(), |p| format!("wrote {p}\n")),
    ))
}

/// The report's Skirmish section data: random-force skirmishes under each tactic (`[skirmish]
/// report_trials` each, `bound` first) and one replay picture. Nothing when `report_trials` is 0.
pub fn attach_to_report(r: &GruntFactor, analysis: &mut RulesetAnalysis, seed: u64) {
    let n = r.skirmish.report_trials;
    if n == 0 {
        return;
    }
    let mut runs: Vec<SkirmishAnalysis> =
        [Tactic::Bound, Tactic::Advance].iter().map(|&t| analyse(r, &Forces::Random, t, seed, n)).collect();
    let (replay, _) = traced_game(r, &Forces::Random, Tactic::Bound, seed);
    runs[0].replay_svg = Some(crate::battle::replay::to_svg(&replay));
    runs[0].replay = Some(crate::report::grunt_factor_skirmish::REPLAY.to_string());
    runs[0].setup = setup(r);
    analysis.grunt_factor_skirmish = Some(runs);
}

/// The skirmish's table, terrain and rules in words, from the config in force.
fn setup(r: &GruntFactor) -> String {
    let c = &r.skirmish;
    let hard = (100.0 * c.hard_share).round();
    format!(
        "{} × {} cm, {}–{} cover pieces placed from the seed ({hard}% hard, the rest soft cover), forces \
         deployed along opposite long edges, every model at its own position, {} game turns; the side that \
         destroyed more enemy points wins, equal is a draw. A target behind cover (a piece within {} cm of it \
         on the line of fire) is covered 50–75% (−2 RC; more than 75% if prone: −3 RC, and −1 for prone) \
         with Dam −1 behind soft and −2 behind hard cover; a model more than {} cm from its squad leader has \
         CC, RC and LD halved; a model must fire at the nearest enemy within {} cm",
        c.table_width,
        c.table_depth,
        c.cover_min,
        c.cover_max,
        c.max_turns,
        c.cover_reach,
        r.rules.command_radius,
        r.rules.bands[1]
    )
}
