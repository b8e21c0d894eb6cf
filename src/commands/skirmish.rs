//! `pointsworth skirmish RULESET`: full skirmishes between armies.
//!
//! Validates everything first (ruleset, tactic, army files, replay path), then plays the
//! games on the deterministic engine and prints win/draw rates, per-unit statistics and, for
//! random armies, value in army.

use std::io::IsTerminal;
use std::path::Path;
use std::time::Instant;

use comfy_table::{Cell, CellAlignment, Table, presets::UTF8_FULL_CONDENSED};
use serde_json::json;

use crate::analysis::skirmish::{SkirmishAnalysis, analyse_skirmish};
use crate::app::{AppError, check_sim_args, load, pct, stdout_write};
use crate::cli::SkirmishArgs;
use crate::rulesets::AnyRuleset;
use crate::rulesets::gng::GunsNGrenades;
use crate::rulesets::gng::army::read_army;
use crate::rulesets::gng::skirmish::{Armies, Tactic, UpgradeRule, replay_of, simulate, traced_game};

/// Runs the command.
pub fn run(args: SkirmishArgs) -> Result<(), AppError> {
    check_sim_args(&args.sim)?;
    let loaded = load(&args.ruleset, args.sim.config.as_ref(), &args.sim.set)?;
    #[allow(unreachable_patterns)]
    let r: &GunsNGrenades = match &loaded.ruleset {
        AnyRuleset::GunsNGrenades(r) => r,
        AnyRuleset::Gunplay(r) => return crate::commands::gunplay_skirmish::run(&args, r),
        AnyRuleset::Vsgmr(r) => return crate::commands::vsgmr_skirmish::run(&args, r),
        AnyRuleset::ArmyMenCombat(r) => return crate::commands::amc_skirmish::run(&args, r),
        AnyRuleset::GruntFactor(r) => return crate::commands::grunt_factor_skirmish::run(&args, r),
        _ => {
            return Err(AppError::Usage(format!(
                "skirmish is implemented for guns-n-grenades, army-men-combat, vsgmr and gunplay, not {}",
                args.ruleset
            )));
        }
    };
    let tactic = Tactic::parse(&args.tactic).ok_or_else(|| {
        AppError::Usage(format!("unknown tactic {:?}; known: {}", args.tactic, Tactic::NAMES.join(", ")))
    })?;
    let cfg = &r.skirmish;
    check_upgrades(r)?;
    let armies = match army_paths(&args.armies, "army files")? {
        None => Armies::Random,
        Some([a, b]) => Armies::Fixed(Box::new([read_army(r, a, cfg.points)?, read_army(r, b, cfg.points)?])),
    };
    check_replay_path(args.replay.as_deref())?;
    let trials = args.sim.trials.unwrap_or(cfg.trials);
    let started = Instant::now();
    let pb = games_progress(trials, format!("{} tactic", tactic.name()), "skirmishes");
    let tally = simulate(r, cfg, &armies, tactic, args.sim.seed, trials, &pb);
    pb.finish_and_clear();
    let armies_txt = match &armies {
        Armies::Random => "random".to_string(),
        Armies::Fixed(x) => format!("A: {} / B: {}", x[0].describe(r), x[1].describe(r)),
    };
    let upgrades: Vec<(String, f64)> = r.upgrades.iter().map(|u| (u.name.clone(), u.cost)).collect();
    let mut analysis =
        analyse_skirmish(&r.units, &upgrades, &tally, &armies_txt, tactic.name(), args.sim.seed, cfg.points);
    if let Some(path) = &args.replay {
        let (g, out, pair) = traced_game(r, cfg, &armies, tactic, args.sim.seed);
        write_replay(path, &replay_of(&g, &out, &pair, tactic))?;
        analysis.replay = Some(path.display().to_string());
    }
    if args.json {
        let v = json!({ "ruleset": "guns-n-grenades", "skirmish": analysis, "confidence": crate::stats::CONFIDENCE });
        return stdout_write(&format!("{}\n", serde_json::to_string_pretty(&v).expect("json")));
    }
    stdout_write(&format!(
        "{} — Skirmish, {} points, {} tactic, armies: {}\n{} games, seed {}; mean {:.1} game turns; {:.1} s\n{}\n{}\n{}{}",
        r.title_str(),
        cfg.points,
        tactic.name(),
        analysis.armies,
        analysis.games,
        analysis.seed,
        analysis.mean_turns,
        started.elapsed().as_secs_f64(),
        outcome_table(&analysis, "outcome", ["side A wins", "side B wins", "draw (turn cap)"]),
        unit_table(&analysis),
        value_text(&analysis, "item", true),
        analysis.replay.as_ref().map_or(String::new(), |p| format!("wrote {p}\n")),
    ))
}

/// The outcome rates as a table: `header` heads the first column, `rows` name side A's win,
/// side B's win and the draw in the ruleset's own words.
pub(crate) fn outcome_table(a: &SkirmishAnalysis, header: &str, rows: [&str; 3]) -> Table {
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED);
    t.set_header(vec![header, "probability [95% CI]"]);
    for (name, rate) in rows.into_iter().zip([&a.a_wins, &a.b_wins, &a.draws]) {
        t.add_row(vec![name.to_string(), pct(rate)]);
    }
    t
}

/// Per-unit statistics as a table.
pub fn unit_table(a: &SkirmishAnalysis) -> Table {
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED);
    t.set_header(vec!["unit", "cost", "fielded", "kills per unit", "survival [95% CI]", "points killed per point"]);
    for u in &a.units {
        let right = |s: String| Cell::new(s).set_alignment(CellAlignment::Right);
        t.add_row(vec![
            Cell::new(&u.name),
            right(format!("{}", u.cost)),
            right(format!("{}", u.fielded)),
            right(format!("{:.2}", u.kills_per_unit)),
            Cell::new(pct(&u.survival)),
            right(format!("{:.2}", u.points_killed_per_point)),
        ]);
    }
    t
}

/// Value in army as a titled table (empty without values): `what` heads the first column
/// ("item", "squad", ...); with `kind`, each name is followed by its kind ("Medics (unit)").
pub(crate) fn value_text(a: &SkirmishAnalysis, what: &str, kind: bool) -> String {
    if a.value_in_army.is_empty() {
        return String::new();
    }
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED);
    t.set_header(vec![what, "cost", "win log-odds per one more (± se)", "value per point (field mean = 1) [95% CI]"]);
    for v in &a.value_in_army {
        let e = &v.value_per_point;
        t.add_row(vec![
            Cell::new(if kind { format!("{} ({})", v.name, v.item) } else { v.name.clone() }),
            Cell::new(v.cost).set_alignment(CellAlignment::Right),
            Cell::new(format!("{:+.3} ± {:.3}", v.log_odds, v.log_odds_se)),
            Cell::new(format!("{:.2} [{:.2}, {:.2}]", e.value, e.lo, e.hi)),
        ]);
    }
    let warn = if a.fit_converged { "" } else { "warning: the regression did not converge\n" };
    format!("Value in army (logistic regression of the result on count differences, random armies)\n{t}\n{warn}")
}

/// Adds the Skirmish section's data to a ruleset's report analysis: random-army skirmishes
/// under each tactic (`[skirmish] report_trials` each, default tactic first) and one replay
/// picture. Does nothing for rulesets without a skirmish or when `report_trials` is 0.
pub fn attach_to_report(ruleset: &AnyRuleset, analysis: &mut crate::analysis::RulesetAnalysis, seed: u64) {
    if let AnyRuleset::Gunplay(r) = ruleset {
        return crate::commands::gunplay_skirmish::attach_to_report(r, analysis, seed);
    }
    if let AnyRuleset::Vsgmr(r) = ruleset {
        return crate::commands::vsgmr::attach_to_report(r, analysis, seed);
    }
    if let AnyRuleset::ArmyMenCombat(r) = ruleset {
        return crate::commands::amc::attach_to_report(r, analysis, seed);
    }
    if let AnyRuleset::GruntFactor(r) = ruleset {
        return crate::commands::grunt_factor_skirmish::attach_to_report(r, analysis, seed);
    }
    #[allow(unreachable_patterns)]
    let r: &GunsNGrenades = match ruleset {
        AnyRuleset::GunsNGrenades(r) => r,
        _ => return,
    };
    let cfg = &r.skirmish;
    if cfg.report_trials == 0 || check_upgrades(r).is_err() {
        return;
    }
    let upgrades: Vec<(String, f64)> = r.upgrades.iter().map(|u| (u.name.clone(), u.cost)).collect();
    let mut runs = Vec::new();
    for tactic in [Tactic::Default, Tactic::Cautious] {
        let pb = games_progress(cfg.report_trials, format!("{} tactic", tactic.name()), "skirmishes");
        let tally = simulate(r, cfg, &Armies::Random, tactic, seed, cfg.report_trials, &pb);
        pb.finish_and_clear();
        runs.push(analyse_skirmish(&r.units, &upgrades, &tally, "random", tactic.name(), seed, cfg.points));
    }
    let (g, out, pair) = traced_game(r, cfg, &Armies::Random, Tactic::Default, seed);
    runs[0].replay_svg = Some(crate::battle::replay::to_svg(&replay_of(&g, &out, &pair, Tactic::Default)));
    runs[0].replay = Some(crate::report::skirmish_replay_name().to_string());
    analysis.skirmish = Some(runs);
}

/// Every upgrade of the cost list must be one whose rule pointsworth knows.
fn check_upgrades(r: &GunsNGrenades) -> Result<(), AppError> {
    for u in &r.upgrades {
        if UpgradeRule::from_name(&u.name).is_none() {
            return Err(AppError::Usage(format!(
                "upgrade {:?} has no rule in pointsworth; known upgrades: Optical Sights, Grenade Launchers, \
                 Hollow Point Rounds, Enhanced Rifling, Bayonets, Flashbang Grenades, Body Armor",
                u.name
            )));
        }
    }
    Ok(())
}

/// A progress bar over `trials` games on stderr, hidden unless stderr is a terminal:
/// "`message` [=====>   ] 120/2000 `noun` (elapsed, eta)".
pub(crate) fn games_progress(trials: u64, message: String, noun: &str) -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let pb = indicatif::ProgressBar::new(trials);
    let template = format!("{{msg:>16}} [{{bar:40}}] {{pos}}/{{len}} {noun} ({{elapsed}}, eta {{eta}})");
    pb.set_style(indicatif::ProgressStyle::with_template(&template).expect("valid template").progress_chars("=> "));
    pb.set_message(message);
    pb
}

/// `--armies`: `None` for random armies (nothing given, or "random"), else the two files'
/// paths (side A, side B). Any other count is a usage error (exit 2) naming `what` ("army
/// files", "force files").
pub(crate) fn army_paths<'a>(armies: &'a [String], what: &str) -> Result<Option<[&'a Path; 2]>, AppError> {
    match armies {
        [] => Ok(None),
        [one] if one == "random" => Ok(None),
        [a, b] => Ok(Some([Path::new(a), Path::new(b)])),
        other => Err(AppError::Usage(format!("--armies takes \"random\" or two {what}, got {}", other.join(" ")))),
    }
}

/// Writes a replay picture as SVG to `path`, atomically.
pub(crate) fn write_replay(path: &Path, replay: &crate::battle::replay::Replay) -> Result<(), AppError> {
    let svg = crate::battle::replay::to_svg(replay);
    crate::report::write_atomic(path, svg.as_bytes()).map_err(|e| AppError::Other(e.into()))
}

/// `--replay` writes SVG: anything but a `.svg` path is a usage error (exit 2).
pub(crate) fn check_replay_path(path: Option<&std::path::Path>) -> Result<(), AppError> {
    match path {
        Some(p) if p.extension().and_then(|e| e.to_str()) != Some("svg") => {
            Err(AppError::Usage(format!("--replay writes SVG: give a FILE.svg, got {}", p.display())))
        }
        _ => Ok(()),
    }
}
