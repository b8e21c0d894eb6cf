//! `pointsworth skirmish vsgmr`: VSGMR Skirmish games (72" × 48", cover pieces, sides 2 Move
//! Units apart, 5 rounds, more enemy points destroyed wins).
//!
//! Armies come from `--armies`: two sample-army names of the config (e.g. `--armies
//! "Fantasy Humans" "Fantasy Orcs"`), or `random` (default: fresh random formula-priced armies
//! of `[skirmish] random_min..=random_max` points every game).

use std::time::Instant;

use comfy_table::{Table, presets::UTF8_FULL_CONDENSED};
use serde_json::json;

use crate::app::{AppError, pct, stdout_write};
use crate::cli::SkirmishArgs;
use crate::rulesets::vsgmr::Vsgmr;
use crate::rulesets::vsgmr::skirmish::{BUCKETS, Field, Matchup, replay_of, simulate, traced_game};
use crate::stats::{CONFIDENCE, wilson};

/// Runs the command.
pub fn run(args: &SkirmishArgs, r: &Vsgmr) -> Result<(), AppError> {
    if args.tactic != "default" {
        return Err(AppError::Usage(format!("unknown tactic {:?} for vsgmr; known: default", args.tactic)));
    }
    let field = Field::new(r);
    let names = || field.samples.iter().map(|s| format!("{:?}", s.name)).collect::<Vec<_>>().join(", ");
    let find = |name: &str| {
        field
            .samples
            .iter()
            .position(|s| s.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| AppError::Usage(format!("unknown sample army {name:?}; known: {}", names())))
    };
    let pair = match args.armies.as_slice() {
        [] => None,
        [one] if one == "random" => None,
        [a, b] => Some([find(a)?, find(b)?]),
        other => {
            return Err(AppError::Usage(format!(
                "--armies takes \"random\" or two sample-army names, got {}; known armies: {}",
                other.join(" "),
                names()
            )));
        }
    };
    crate::commands::skirmish::check_replay_path(args.replay.as_deref())?;
    let cfg = &r.skirmish;
    let m = match pair {
        Some([a, b]) => Matchup::Fixed([&field.samples[a], &field.samples[b]]),
        None => Matchup::Random,
    };
    let trials = args.sim.trials.unwrap_or(cfg.trials);
    let seed = args.sim.seed;
    let started = Instant::now();
    let pb = crate::app::progress_bar();
    pb.set_message("vsgmr skirmish");
    let t = simulate(&field, cfg, m, seed, trials, &pb);
    pb.finish_and_clear();
    let est = |k: u64| wilson(k as f64, t.games.max(1) as f64, CONFIDENCE);
    let (a_wins, b_wins, draws) = (est(t.wins[0]), est(t.wins[1]), est(t.draws));
    let g = t.games.max(1) as f64;
    let destroyed = [t.destroyed_half[0] as f64 / 2.0 / g, t.destroyed_half[1] as f64 / 2.0 / g];
    let armies_txt = match m {
        Matchup::Fixed([a, b]) => {
            format!("A: {} ({} pts) / B: {} ({} pts)", a.name, a.points(&field.r), b.name, b.points(&field.r))
        }
        Matchup::Random => format!("random, {}–{} points each", cfg.random_min, cfg.random_max),
    };
    let mut replay = None;
    if let Some(path) = &args.replay {
        let (game, out, rosters) = traced_game(&field, cfg, m, seed);
        crate::commands::skirmish::write_replay(path, &replay_of(&game, &out, &rosters))?;
        replay = Some(path.display().to_string());
    }
    let random_rows: Vec<_> = if matches!(m, Matchup::Random) {
        BUCKETS
            .iter()
            .enumerate()
            .map(|(k, (label, _, _))| {
                let [n, w, d] = t.buckets.get(k).copied().unwrap_or([0; 3]);
                let e = |x: u64| wilson(x as f64, n.max(1) as f64, CONFIDENCE);
                (label.to_string(), n, e(w), e(d))
            })
            .collect()
    } else {
        Vec::new()
    };
    if args.json {
        let rows: Vec<_> = random_rows
            .iter()
            .map(|(l, n, w, d)| json!({ "points_difference": l, "games": n, "a_wins": w, "draws": d }))
            .collect();
        let v = json!({
            "ruleset": "vsgmr",
            "skirmish": {
                "armies": armies_txt, "table": crate::commands::vsgmr::table_text(r), "seed": seed,
                "games": t.games, "a_wins": a_wins, "b_wins": b_wins, "draws": draws,
                "mean_rounds": t.rounds as f64 / g, "mean_points_destroyed": destroyed,
                "by_points_difference": rows, "replay": replay,
            },
            "confidence": CONFIDENCE,
        });
        return stdout_write(&format!("{}\n", serde_json::to_string_pretty(&v).expect("json")));
    }
    let mut tab = Table::new();
    tab.load_preset(UTF8_FULL_CONDENSED);
    tab.set_header(vec!["outcome", "probability [95% CI]"]);
    tab.add_row(vec!["side A wins".to_string(), pct(&a_wins)]);
    tab.add_row(vec!["side B wins".to_string(), pct(&b_wins)]);
    tab.add_row(vec!["draw (equal points destroyed)".to_string(), pct(&draws)]);
    let mut extra = String::new();
    if !random_rows.is_empty() {
        let mut rt = Table::new();
        rt.load_preset(UTF8_FULL_CONDENSED);
        rt.set_header(vec!["points A − B", "games", "A wins [95% CI]", "draws [95% CI]"]);
        for (l, n, w, d) in &random_rows {
            rt.add_row(vec![l.clone(), n.to_string(), pct(w), pct(d)]);
        }
        extra = format!("By points difference\n{rt}\n");
    }
    stdout_write(&format!(
        "{} — Skirmish ({})\narmies: {}\n{} games, seed {}; mean {:.2} rounds; mean enemy points destroyed A {:.2} / B {:.2}; {:.1} s\n{}\n{}{}",
        crate::rulesets::Ruleset::title(r),
        crate::commands::vsgmr::table_text(r),
        armies_txt,
        t.games,
        seed,
        t.rounds as f64 / g,
        destroyed[0],
        destroyed[1],
        started.elapsed().as_secs_f64(),
        tab,
        extra,
        replay.map_or(String::new(), |p| format!("wrote {p}\n")),
    ))
}
