//! `pointsworth skirmish RULESET`: full skirmishes between armies, for every ruleset through
//! its [`Skirmish`] implementation.
//!
//! Validates everything first (ruleset, tactic, armies, replay path), then plays the games on
//! the deterministic engine and prints win/draw rates, per-unit statistics and, for random
//! armies, value in army. `--json` prints the same keys for every ruleset.

use super::progress::Progress;
use std::io::IsTerminal;
use std::path::Path;
use std::time::Instant;

use comfy_table::{Cell, CellAlignment, Table};
use serde_json::json;

use super::common::{AppError, check_sim_args, load, pct, stdout_write};
use crate::analysis::skirmish::{SkirmishAnalysis, SkirmishSection, report_section, run_skirmish, verdict};
use crate::cli::SkirmishArgs;
use crate::rulesets::AnyRuleset;
use crate::rulesets::rollout::RolloutGain;
use crate::rulesets::skirmish::{Armies, Skirmish};
use crate::with_ruleset;

/// Runs the command.
pub fn run(args: SkirmishArgs) -> Result<(), AppError> {
    check_sim_args(&args.sim)?;
    if args.sim.target_error.is_some() {
        return Err(AppError::Usage(
            "--target-error is for duels: skirmish plays a fixed number of games (--trials N, default the config's \
             skirmish trials)"
                .into(),
        ));
    }
    check_replay_path(args.replay.as_deref())?;
    let loaded = load(&args.ruleset, args.sim.config.as_ref(), &args.sim.set)?;
    with_ruleset!(&loaded.ruleset, r => run_with(r, &args))
}

/// Each side's tactic from the `--tactic [SIDE=]NAME` options (side A first): NAME alone sets
/// both sides, `a=NAME` or `b=NAME` one side; a side not named plays the ruleset's default
/// (first) tactic. Errors (exit 2): an unknown name (the message lists the ruleset's tactics
/// with what each does), a side other than a or b, or a side given twice.
fn tactics_of<S: Skirmish>(s: &S, pins: &[String]) -> Result<[usize; 2], AppError> {
    let tactics = s.tactics();
    let out = super::common::side_tactics(pins, |name| {
        // "default" names the ruleset's first tactic where no tactic has that name.
        let found = tactics.iter().position(|t| t.name.eq_ignore_ascii_case(name));
        found.or((name == "default").then_some(0)).ok_or_else(|| {
            let known: Vec<String> = tactics.iter().map(|t| format!("{} ({})", t.name, t.description)).collect();
            format!("unknown tactic {name:?} for {}; known: {}", s.id(), known.join("; "))
        })
    })?;
    Ok(out.map(|t| t.unwrap_or(0)))
}

/// The mission named by `--mission` (the ruleset's basic game when none); an unknown name is a
/// usage error listing the ruleset's missions with what each is.
fn mission_of<S: Skirmish>(s: &S, name: Option<&str>) -> Result<usize, AppError> {
    let missions = s.missions();
    let Some(name) = name else { return Ok(0) };
    missions.iter().position(|m| m.name.eq_ignore_ascii_case(name)).ok_or_else(|| {
        let known: Vec<String> = missions.iter().map(|m| format!("{} ({})", m.name, m.description)).collect();
        AppError::Usage(format!("unknown mission {name:?} for {}; known: {}", s.id(), known.join("; ")))
    })
}

/// `--armies`: random (nothing given, or "random") or the two armies the ruleset reads for
/// `mission` (its points limit).
fn armies_of<S: Skirmish>(s: &S, armies: &[String], mission: usize) -> Result<Armies<S::Army>, AppError> {
    match armies {
        [] => Ok(s.default_armies()?),
        [one] if one == "random" => Ok(Armies::Random),
        [a, b] => Ok(Armies::Fixed(Box::new(s.read_armies([a.as_str(), b.as_str()], mission)?))),
        other => {
            let src = s.army_source();
            Err(AppError::Usage(format!(
                "--armies takes \"random\" or two {} for {} ({}), got {}",
                src.what,
                s.id(),
                src.how,
                other.join(" ")
            )))
        }
    }
}

fn run_with<S: Skirmish>(s: &S, args: &SkirmishArgs) -> Result<(), AppError> {
    let tactics = tactics_of(s, &args.tactic)?;
    let mission = mission_of(s, args.mission.as_deref())?;
    if args.replay.is_some() && tactics[0] != tactics[1] {
        return Err(AppError::Usage(
            "--replay draws a game in which both sides play one tactic; give one --tactic NAME".into(),
        ));
    }
    s.check_skirmish().map_err(AppError::Usage)?;
    if args.rollout.is_some() && s.rollout_stage().is_none() {
        let why = crate::rulesets::skirmish::rollout_not_built(s.title());
        return Err(AppError::Usage(format!("--rollout: {why}")));
    }
    let armies = armies_of(s, &args.armies, mission)?;
    let text = s.mission_text(mission);
    let settings = s.mission_settings(mission);
    let trials = args.sim.trials.unwrap_or(settings.trials);
    let name = crate::analysis::skirmish::tactics_name(s, tactics);
    let started = Instant::now();
    let phases: &[&str] = if args.rollout.is_some() { &[&text.games, "rollout"] } else { &[&text.games] };
    let mut progress = Progress::new(format!("skirmish {}", s.id()), phases);
    let pb = progress.phase(&text.games);
    pb.set_length(trials);
    pb.set_message(format!("{name} tactic"));
    let mut analysis = run_skirmish(s, &armies, tactics, mission, args.sim.seed, trials, &pb);
    let rollout = match args.rollout {
        Some(games) => {
            let pb = progress.phase("rollout");
            pb.set_message("rollout best response");
            Some(rollout_of(s, &armies, tactics, mission, (games, args.rollouts, args.sim.seed), &pb)?)
        }
        None => None,
    };
    progress.finish();
    if let Some(path) = &args.replay {
        write_replay(path, &s.replay(&armies, tactics[0], mission, args.sim.seed))?;
        analysis.replay = Some(path.display().to_string());
    }
    if args.json {
        let mut v = json!({ "ruleset": s.id(), "game": text.game, "mission": s.missions()[mission].name, "skirmish": analysis, "confidence": crate::stats::CONFIDENCE });
        if let Some(r) = &rollout {
            v["rollout"] = json!(r);
        }
        return stdout_write(&format!("{}\n", serde_json::to_string_pretty(&v).expect("json")));
    }
    let [header, a_wins, b_wins, draw] = &text.outcome;
    stdout_write(&format!(
        "{} — {}, {}, {name} tactic\n{}\narmies: {}\n{} games, seed {}; mean {:.1} {}; {:.1} s\n{}\n{}\n{}{}{}",
        s.title(),
        text.game,
        if armies.is_random() { text.army_size.as_str() } else { "two fixed armies" },
        text.setup,
        analysis.armies,
        analysis.games,
        analysis.seed,
        analysis.mean_turns,
        text.turns,
        started.elapsed().as_secs_f64(),
        outcome_table(&analysis, header, [a_wins, b_wins, draw]),
        unit_table(&analysis, if text.item_kind { "unit" } else { &text.item }),
        value_text(&analysis, &text.item, text.item_kind),
        analysis.replay.as_ref().map_or(String::new(), |p| format!("wrote {p}\n")),
        rollout.as_ref().map_or(String::new(), |r| rollout_text(r, s.tactics(), s.rollout_stage().unwrap_or("stage"))),
    ))
}

/// `--rollout`: the rollout best response of each side against both sides playing `base`
/// ([`crate::rulesets::rollout`]), over `games` games with `rollouts` playouts per option, seeded
/// from `seed` on a stream of its own ([`crate::analysis::skirmish::rollout_run`]).
fn rollout_of<S: Skirmish>(
    s: &S,
    armies: &Armies<S::Army>,
    base: [usize; 2],
    mission: usize,
    (games, rollouts, seed): (u64, u32, u64),
    pb: &indicatif::ProgressBar,
) -> Result<RolloutGain, AppError> {
    pb.set_length(games);
    let play = crate::rulesets::skirmish::Play::pure(base, s.tactics().len());
    let run = crate::analysis::skirmish::rollout_run(s, armies, &play, mission, (games, rollouts), seed);
    s.rollout(&run, armies, mission, pb).map_err(AppError::Usage)
}

/// The rollout best response in words: each side's score and gain in points with its interval,
/// and how often it left its base tactic.
fn rollout_text(r: &RolloutGain, tactics: &[crate::rulesets::skirmish::TacticInfo], stage: &str) -> String {
    let mut t = crate::term::table();
    t.set_header(vec!["responding side", "against", "score", "gain, points [95% CI]", "decisions off its tactic"]);
    let names: Vec<&str> = tactics.iter().map(|t| t.name).collect();
    for (s, g) in r.sides.iter().enumerate() {
        let e = g.gain;
        t.add_row(vec![
            format!("{} (base {})", ["A", "B"][s], r.base_text(s, &names).replace('`', "")),
            r.base_text(1 - s, &names).replace('`', ""),
            format!("{:.1}%", 100.0 * g.score),
            format!("{:+.1} [{:+.1}, {:+.1}]", 100.0 * e.value, 100.0 * e.lo, 100.0 * e.hi),
            format!("{:.0}%", 100.0 * g.switched),
        ]);
    }
    format!(
        "Rollout best response ({} games, {} playouts per tactic at the start of each {stage} of the responding side; side A \
         scores {:.1}% when both play their tactic). A gain is a lower bound on how exploitable the play is.\n{t}\n",
        r.games,
        r.rollouts,
        100.0 * r.base_score
    )
}

/// The outcome rates as a table: `header` heads the first column, `rows` name side A's win,
/// side B's win and the draw in the ruleset's own words.
fn outcome_table(a: &SkirmishAnalysis, header: &str, rows: [&str; 3]) -> Table {
    let mut t = crate::term::table();
    t.set_header(vec![header, "probability [95% CI]"]);
    for (name, rate) in rows.into_iter().zip([&a.a_wins, &a.b_wins, &a.draws]) {
        t.add_row(vec![name.to_string(), pct(rate)]);
    }
    t
}

/// Per-unit statistics as a table.
pub fn unit_table(a: &SkirmishAnalysis, item: &str) -> Table {
    let mut t = crate::term::table();
    t.set_header(vec![
        item,
        "cost",
        "fielded",
        "kills per unit",
        "survival [95% CI, by game]",
        "points killed per point",
    ]);
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
fn value_text(a: &SkirmishAnalysis, what: &str, kind: bool) -> String {
    if a.value_in_army.is_empty() {
        return crate::report::unidentified_note(a)
            .map_or_else(String::new, |note| format!("Value in army: {}\n", note.replace("**", "")));
    }
    let mut t = crate::term::table();
    t.set_header(vec![
        what,
        "cost",
        "win log-odds per one more (± se)",
        "log-odds per 100 pts − field mean [95% CI]",
        "verdict",
        "price at the field mean [95% CI]",
    ]);
    for v in &a.value_in_army {
        let e = &v.log_odds_per_100_points_vs_field;
        t.add_row(vec![
            Cell::new(if kind { format!("{} ({})", v.name, v.item) } else { v.name.clone() }),
            Cell::new(v.cost).set_alignment(CellAlignment::Right),
            Cell::new(format!("{:+.3} ± {:.3}", v.log_odds, v.log_odds_se)),
            Cell::new(format!("{:+.2} [{:+.2}, {:+.2}]", e.value, e.lo, e.hi)),
            Cell::new(verdict(e)),
            Cell::new(v.price_text()),
        ]);
    }
    let mut warn =
        if a.fit_converged { String::new() } else { "warning: the regression did not converge\n".to_string() };
    if let Some(note) = crate::report::unbounded_note(a) {
        warn.push_str(&format!("note: {}\n", note.replace("**", "").replace('`', "")));
    }
    let field = a.field_log_odds_per_100_points.map_or_else(String::new, |f| {
        format!("; the field mean adds {:.2} [{:.2}, {:.2}] win log-odds per 100 points", f.value, f.lo, f.hi)
    });
    format!(
        "Value in army (logistic regression of the result on count differences, random armies; 0 = worth its \
         cost, above 0 too cheap, below 0 too expensive{field})\n{t}\n{warn}"
    )
}

/// The report's skirmish section of `ruleset` (see [`report_section`]): `[skirmish]
/// report_trials` random-army games under each tactic, as many in each other cell of the tactic
/// metagame it needs and in each other mission, and one replay picture; `None` when the
/// ruleset's `report_trials` is 0.
pub fn for_report(ruleset: &AnyRuleset, seed: u64) -> Option<SkirmishSection> {
    with_ruleset!(ruleset, r => {
        let games = r.skirmish_text().games;
        report_section(r, seed, |n, message| games_progress(n, message, &games))
    })
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

/// Writes a replay picture as SVG to `path`, atomically.
fn write_replay(path: &Path, replay: &crate::battle::replay::Replay) -> Result<(), AppError> {
    let svg = crate::battle::replay::to_svg(replay);
    crate::report::write_atomic(path, svg.as_bytes()).map_err(|e| AppError::Other(e.into()))
}

/// `--replay` writes SVG: anything but a `.svg` path is a usage error (exit 2).
fn check_replay_path(path: Option<&std::path::Path>) -> Result<(), AppError> {
    match path {
        Some(p) if p.extension().and_then(|e| e.to_str()) != Some("svg") => {
            Err(AppError::Usage(format!("--replay writes SVG: give a FILE.svg, got {}", p.display())))
        }
        Some(p) => crate::commands::outputs::check_file("--replay", p),
        None => Ok(()),
    }
}
