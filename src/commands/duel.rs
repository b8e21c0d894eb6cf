//! `pointsworth duel`: one matchup, Monte Carlo or exact, one each or points-matched squads;
//! with `--optimal`, the duel under optimal play beside the scripted tactic.

use std::time::Instant;

use serde_json::json;

use super::common::{AppError, check_sim_args, load, pct, settings_for, stdout_write};
use crate::cli::DuelArgs;
use crate::rulesets::matchup_budget;
use crate::rulesets::{AnyRuleset, Ruleset};
use crate::sim::RunPlan;
use crate::sim::duel::{
    MatchupResult, SquadPlay, Squads, result_from_exact, result_from_tally, simulate, simulate_played,
};
use crate::with_ruleset;

/// Runs `pointsworth duel`.
pub fn run(args: DuelArgs) -> Result<(), AppError> {
    check_sim_args(&args.sim)?;
    let loaded = load(&args.ruleset, args.sim.config.as_ref(), &args.sim.set)?;
    // One each (and --optimal): the result cache of `pointsworth report` (its default `--out`),
    // where a report has made one, so that its optimal-play solves are not made again
    // (`--no-cache` bypasses it). Not for a shard, which records its tallies.
    let cache = std::path::Path::new(super::rules::REPORT_CACHE);
    if !args.points_matched && args.sim.shard.is_none() && cache.is_dir() {
        crate::cache::install(Some(cache));
    }
    if args.rollout.is_some() && !args.optimal && !args.points_matched {
        return Err(AppError::Usage(
            "--rollout needs --optimal (one each, beside the exact best response) or --points-matched (squads)".into(),
        ));
    }
    // `--rollout` where the ruleset's duel has none is refused before anything is solved.
    if let Some(id) = args.rollout.and(with_ruleset!(&loaded.ruleset, r => (!r.duel_rollout_built()).then(|| r.id()))) {
        return Err(AppError::Usage(crate::rulesets::duel_rollout_not_built(id).to_string()));
    }
    if args.optimal {
        return optimal_duel(&loaded.ruleset, &args);
    }
    with_ruleset!(&loaded.ruleset, r => duel_with(r, &args))
}

/// `duel --optimal`: optimal play, the scripted tactic, and the exploitability.
fn optimal_duel(any: &AnyRuleset, args: &DuelArgs) -> Result<(), AppError> {
    let (id, title, unit, a, b, names, distance, stage) = with_ruleset!(any, r => {
        let a = r.find_unit(&args.unit_a)?;
        let b = r.find_unit(&args.unit_b)?;
        let names = [r.units()[a].name.clone(), r.units()[b].name.clone()];
        let distance = args.distance.unwrap_or(r.duel_settings().distance);
        (r.id(), r.title(), r.distance_unit(), a, b, names, distance, r.duel_stage())
    });
    if !(distance > 0.0 && distance <= 1000.0) {
        return Err(AppError::Usage(format!("--distance must be more than 0 and at most 1000, got {distance}")));
    }
    let pins = pinned_tactics(&args.tactic)?;
    let started = Instant::now();
    let usage = |e: crate::rulesets::NotExact| AppError::Usage(e.to_string());
    // The portfolio's solves include the four of the optimal-play table: solved once.
    let (o, pf) = match args.portfolio {
        true => {
            let pf = any.portfolio_duel(a, b, distance, &crate::analysis::portfolio::mixer).map_err(usage)?;
            (pf.optimal_duel(), Some(pf))
        }
        false => (
            with_ruleset!(any, r => crate::analysis::optimal_play::optimal_duel(r, distance, a, b)).map_err(usage)?,
            None,
        ),
    };
    // The rollout best response against the scripted tactic in the Monte Carlo duel.
    let rollout = match args.rollout {
        Some(games) => {
            let pb = super::skirmish::games_progress(games, "rollout".to_string(), "duels");
            let r = any
                .duel_rollout((a, b), distance, None, (games, args.rollouts), args.sim.seed, None, &pb)
                .map_err(usage)?;
            pb.finish_and_clear();
            Some(r)
        }
        None => None,
    };
    let side = |v: &crate::rulesets::optimal::GameValue| json!({"a_wins": v.a_wins, "b_wins": v.b_wins, "draws": v.draws, "a_score": v.a_score()});
    let [na, nb] = &names;
    if args.json {
        let v = json!({
            "ruleset": id,
            "a": na,
            "b": nb,
            "distance": distance,
            "distance_unit": unit,
            "method": "optimal",
            "a_wins": o.optimal.a_wins,
            "b_wins": o.optimal.b_wins,
            "draws": o.optimal.draws,
            "a_score": o.optimal.a_score(),
            "scripted": side(&o.scripted),
            "a_best_response": side(&o.a_best_response),
            "b_best_response": side(&o.b_best_response),
            "a_gain": o.a_gain(),
            "b_gain": o.b_gain(),
            "exploitability": o.exploitability(),
            "grid_step": o.step,
            "table_depth": o.depth,
        });
        let mut v = v;
        if let Some(r) = &rollout {
            v["rollout"] = json!(r);
        }
        if let Some(pf) = &pf {
            v["portfolio"] = json!({
                "tactics": pf.names,
                "a_score": pf.payoff(),
                "a_mix": pf.mix[0],
                "b_mix": pf.mix[1],
                "equilibrium_a_score": pf.value(),
                "a_gain": pf.a_gain(),
                "b_gain": pf.b_gain(),
                "exploitability": pf.exploitability(),
            });
            if let Some(x) = pf.pinned(pins[0], pins[1]) {
                let name = |k: Option<usize>| k.map(|k| pf.names[k]);
                v["portfolio"]["pinned"] = json!({
                    "a": name(pins[0]),
                    "b": name(pins[1]),
                    "a_score": x.a_score,
                    "other_tactic": name(x.other_tactic),
                    "a_score_with_best_response": x.best_response,
                });
            }
        }
        return stdout_write(&format!("{}\n", serde_json::to_string_pretty(&v).expect("json")));
    }
    let p = |x: f64| format!("{:.1}%", 100.0 * x);
    let mut t = crate::term::table();
    t.set_header(vec!["play", &format!("{na} wins"), &format!("{nb} wins"), "draw", &format!("{na} score")]);
    for (label, v) in [
        ("optimal (both sides)", &o.optimal),
        ("scripted tactic (both sides)", &o.scripted),
        (&*format!("{na} best response v scripted"), &o.a_best_response),
        (&*format!("{nb} best response v scripted"), &o.b_best_response),
    ] {
        t.add_row(vec![label.to_string(), p(v.a_wins), p(v.b_wins), p(v.draws), p(v.a_score())]);
    }
    let portfolio = pf.as_ref().map_or(String::new(), |pf| portfolio_text(pf, na, nb, pins));
    let rollout = rollout
        .as_ref()
        .map_or(String::new(), |r| rollout_text(r, [na, nb], [o.a_gain(), o.b_gain()], args.sim.seed, stage));
    stdout_write(&format!(
        "{title}: {na} vs {nb}, one each, {distance} {unit} apart\noptimal play (zero-sum game, grid {} {unit}, table {} {unit} deep, averaged over who acts first); {:.2} s\n{t}\nexploitability of the scripted tactic: {:.1} points ({na} gains {:.1}, {nb} gains {:.1} by its best response)\n{portfolio}{rollout}",
        o.step,
        o.depth,
        started.elapsed().as_secs_f64(),
        100.0 * o.exploitability(),
        100.0 * o.a_gain(),
        100.0 * o.b_gain(),
    ))
}

/// `duel --optimal --rollout`: each side's rollout gain against the scripted tactic (Monte
/// Carlo, 95% interval) beside its exact best response's gain `exact` on the solver's grid;
/// `stage`: the book's word for a stage of the duel ([`Ruleset::duel_stage`]).
fn rollout_text(
    r: &crate::rulesets::rollout::RolloutGain,
    names: [&String; 2],
    exact: [f64; 2],
    seed: u64,
    stage: &str,
) -> String {
    let mut t = crate::term::table();
    t.set_header(vec![
        "responding side",
        "rollout gain, points [95% CI]",
        "exact best response gain",
        &format!("{stage}s off the scripted tactic"),
    ]);
    for (s, g) in r.sides.iter().enumerate() {
        t.add_row(vec![
            names[s].to_string(),
            format!("{:+.1} [{:+.1}, {:+.1}]", 100.0 * g.gain.value, 100.0 * g.gain.lo, 100.0 * g.gain.hi),
            format!("{:.1}", 100.0 * exact[s]),
            format!("{:.0}%", 100.0 * g.switched),
        ]);
    }
    format!(
        "rollout best response v scripted (Monte Carlo duel, {} duels, seed {seed}, {} playouts per tactic at each {stage}; \
         each {stage} the responding side plays the tactic whose playouts score best; the scripted side scores {:.1}% \
         for A when both play it):\n{t}\n",
        r.games,
        r.rollouts,
        100.0 * r.base_score
    )
}

/// `duel --points-matched --rollout`: each side's rollout gain against the scripted tactic in
/// the squads (Monte Carlo, 95% interval): a lower bound on how exploitable it is there.
fn squad_rollout_text(
    r: &crate::rulesets::rollout::RolloutGain,
    names: [&String; 2],
    seed: u64,
    stage: &str,
) -> String {
    // The base play: the scripted tactic, or each side's equilibrium of the squads' game (a mix,
    // or a tactic other than the scripted one).
    let equilibrium = r.mixes.is_some() || r.base.is_some_and(|b| b != [0, 0]);
    let base = if equilibrium { "the squads' equilibrium" } else { "the scripted tactic" };
    let mut t = crate::term::table();
    t.set_header(vec![
        "responding side",
        "score",
        "rollout gain, points [95% CI]",
        &format!("{stage}s off {}", if equilibrium { "its drawn tactic" } else { "the scripted tactic" }),
    ]);
    for (s, g) in r.sides.iter().enumerate() {
        t.add_row(vec![
            names[s].to_string(),
            format!("{:.1}%", 100.0 * g.score),
            format!("{:+.1} [{:+.1}, {:+.1}]", 100.0 * g.gain.value, 100.0 * g.gain.lo, 100.0 * g.gain.hi),
            format!("{:.0}%", 100.0 * g.switched),
        ]);
    }
    format!(
        "rollout best response v {base} (the same squads, {} duels, seed {seed}, {} playouts per tactic at each {stage}; \
         each {stage} the responding side plays the tactic whose playouts beat its base tactic's clearly; {} scores \
         {:.1}% when both play {base}). A gain is a lower bound on how exploitable {base} is in these squads:\n{t}\n",
        r.games,
        r.rollouts,
        names[0],
        100.0 * r.base_score
    )
}

/// `duel --optimal --portfolio`: the tactic-against-tactic scores, each side's equilibrium
/// mix, and the bound on what a best response gains against it.
fn portfolio_text(
    pf: &crate::rulesets::optimal::PortfolioDuel,
    na: &str,
    nb: &str,
    pins: [Option<usize>; 2],
) -> String {
    let mut t = crate::term::table();
    let mut head = vec![format!("{na} plays \\ {nb} plays")];
    head.extend(pf.names.iter().map(|n| n.to_string()));
    t.set_header(head);
    for (i, row) in pf.payoff().iter().enumerate() {
        let mut r = vec![pf.names[i].to_string()];
        r.extend(row.iter().map(|x| format!("{:.1}%", 100.0 * x)));
        t.add_row(r);
    }
    let mix = |w: &[f64]| crate::format::mix_text(&pf.names, w);
    format!(
        "\nthe tactic portfolio, every tactic against every tactic ({na}'s score, exact)\n{t}\n\
         equilibrium: {na} plays {}; {nb} plays {}; {na} scores {:.1}% (optimal play {:.1}%)\n\
         exploitability of the equilibrium play: at most {:.1} points ({na} gains at most {:.1}, {nb} at most {:.1} by a \
         best response)\n",
        mix(&pf.mix[0]),
        mix(&pf.mix[1]),
        100.0 * pf.value(),
        100.0 * pf.optimal.a_score(),
        100.0 * pf.exploitability(),
        100.0 * pf.a_gain(),
        100.0 * pf.b_gain(),
    ) + &pinned_text(pf, na, nb, pins)
}

/// `duel --tactic`: the line on the pinned tactics ([`crate::rulesets::optimal::PortfolioDuel::pinned`]).
fn pinned_text(pf: &crate::rulesets::optimal::PortfolioDuel, na: &str, nb: &str, pins: [Option<usize>; 2]) -> String {
    let Some(x) = pf.pinned(pins[0], pins[1]) else { return String::new() };
    let p = |v: f64| format!("{:.1}%", 100.0 * v);
    match (pins, x.other_tactic, x.best_response) {
        ([Some(i), Some(j)], _, _) => {
            format!("pinned: {na} plays {}, {nb} plays {}: {na} scores {}\n", pf.names[i], pf.names[j], p(x.a_score))
        }
        ([Some(i), None], Some(j), Some(br)) => format!(
            "pinned: {na} plays {}: {na} scores {} against {nb}'s best tactic ({}) and {} against {nb}'s best response (exact)\n",
            pf.names[i],
            p(x.a_score),
            pf.names[j],
            p(br)
        ),
        ([None, Some(j)], Some(i), Some(br)) => format!(
            "pinned: {nb} plays {}: {na} scores {} with its best tactic ({}) and {} with its best response (exact)\n",
            pf.names[j],
            p(x.a_score),
            pf.names[i],
            p(br)
        ),
        _ => String::new(),
    }
}

/// The `--tactic [SIDE=]NAME` pins: each side's tactic as an index into the portfolio's names
/// (NAME alone: both sides). Errors (exit 2): a side other than a or b, a side given twice,
/// or a name not in the portfolio (the message lists the valid names).
fn pinned_tactics(pins: &[String]) -> Result<[Option<usize>; 2], AppError> {
    let names = crate::rulesets::optimal::tactics::names();
    super::common::side_tactics(pins, |name| {
        names
            .iter()
            .position(|n| *n == name)
            .ok_or_else(|| format!("no tactic `{name}`; the portfolio's tactics: {}", names.join(", ")))
    })
}

fn duel_with<R: Ruleset>(r: &R, args: &DuelArgs) -> Result<(), AppError> {
    let a = r.find_unit(&args.unit_a)?;
    let b = r.find_unit(&args.unit_b)?;
    let settings = settings_for(r, &args.sim);
    let distance = args.distance.unwrap_or(settings.distance);
    if !(distance > 0.0 && distance <= 1000.0) {
        return Err(AppError::Usage(format!("--distance must be more than 0 and at most 1000, got {distance}")));
    }
    let units = r.units();
    let costs = [units[a].cost, units[b].cost];
    let squads = if args.points_matched { Squads::PointsMatched { budget: settings.budget } } else { Squads::One };
    let started = Instant::now();
    let game = if args.points_matched && !args.exact && a != b && crate::analysis::squads_game::played(r) {
        let names: Vec<String> = r.squad_tactics().iter().map(|t| t.name.to_string()).collect();
        let plan = RunPlan::fixed(args.sim.seed, r.duel_settings().tactic_trials, settings.batch_size);
        // Fixed runs, the same in every shard: each shard and the merge play the game whole.
        let g = crate::sim::shard::unsharded(|| {
            crate::analysis::squads_game::pair_game_at(r, (a, b), &names, &plan, distance)
        })
        .map_err(|e| AppError::Other(anyhow::anyhow!("the squads' tactic game was not solved: {e}")))?;
        Some(g)
    } else {
        None
    };
    let result: MatchupResult = if args.exact {
        let e = r.exact_duel(a, b, distance).map_err(|e| AppError::Usage(format!("--exact: {e}")))?;
        result_from_exact(&e, costs)
    } else {
        let plan = RunPlan {
            seed: args.sim.seed,
            batch_size: settings.batch_size,
            min_trials: (settings.batch_size as u64 * 8).min(settings.max_trials),
            max_trials: settings.max_trials,
            target_error: match (args.sim.trials, args.sim.target_error) {
                // --trials alone means "exactly this many"; otherwise stop at the target.
                (Some(_), None) => None,
                _ => Some(settings.target_error),
            },
        };
        let plan = if plan.target_error.is_none() { RunPlan { min_trials: plan.max_trials, ..plan } } else { plan };
        // Points-matched squads play the pair's equilibrium of the squads' tactic game where
        // the ruleset plays one (as the report's matrix; a mirror plays the scripted tactic).
        let t = match &game {
            Some(g) => {
                let play = g.game.play();
                simulate_played(r, a, b, costs, distance, squads, &plan, SquadPlay::Mixed(&play))
            }
            None => simulate(r, a, b, distance, squads, &plan),
        };
        result_from_tally(&t, costs)
    };
    // One each, the game's value under optimal play leads (issue 41: "1v1 numbers are the
    // game's value"), with the scripted tactic's exploitability; the simulated or exact result
    // above is the scripted tactic's, beside it. A shard records tallies only.
    let optimal = (!args.points_matched && r.duel_settings().optimal_play && crate::sim::shard::recording().is_none())
        .then(|| crate::analysis::optimal_play::optimal_duel(r, distance, a, b));
    // `--points-matched --rollout`: the rollout best response of each side against the squads'
    // play in the same squads: the pair's equilibrium where the game is played, else the
    // scripted tactic.
    let rollout = match args.rollout {
        Some(games) => {
            let pb = super::skirmish::games_progress(games, "rollout".to_string(), "duels");
            let base = game.as_ref().map(|g| g.game.play());
            let size = (games, args.rollouts);
            let g = r
                .duel_rollout((a, b), distance, Some(settings.budget), size, args.sim.seed, base.as_ref(), &pb)
                .map_err(|e| AppError::Usage(e.to_string()))?;
            pb.finish_and_clear();
            Some(g)
        }
        None => None,
    };
    let (na, nb) = (&units[a].name, &units[b].name);
    if args.json {
        let mut v = json!({
            "ruleset": r.id(),
            "a": na,
            "b": nb,
            "a_cost": costs[0],
            "b_cost": costs[1],
            "distance": distance,
            "distance_unit": r.distance_unit(),
            "squads": if args.points_matched { json!({"points_matched": settings.budget}) } else { json!("one each") },
            "method": result.method,
            "seed": args.sim.seed,
            "trials": result.trials,
            "a_wins": result.a_wins.value,
            "b_wins": result.b_wins.value,
            "draws": result.draws.value,
            "a_wins_ci": result.a_wins.interval(),
            "b_wins_ci": result.b_wins.interval(),
            "draws_ci": result.draws.interval(),
            "a_score": result.a_score.value,
            "a_score_ci": result.a_score.interval(),
            "mean_turns": result.mean_turns,
            "confidence": crate::stats::CONFIDENCE,
            "play": if game.is_some() { "equilibrium" } else { "scripted" },
        });
        if let Some(g) = &game {
            v["squads_game"] = json!({
                "tactics": g.game.tactics,
                "a_mix": g.game.a_mix,
                "b_mix": g.game.b_mix,
                "value": g.game.value.value,
                "value_ci": g.game.value.interval(),
                "trials_per_cell": r.duel_settings().tactic_trials,
                "scripted": g.scripted().value,
            });
        }
        match &optimal {
            Some(Ok(o)) => {
                v["optimal_play"] = json!({
                    "method": "optimal",
                    "a_wins": o.optimal.a_wins,
                    "b_wins": o.optimal.b_wins,
                    "draws": o.optimal.draws,
                    "a_score": o.optimal.a_score(),
                    "scripted_on_grid": {
                        "a_wins": o.scripted.a_wins,
                        "b_wins": o.scripted.b_wins,
                        "draws": o.scripted.draws,
                        "a_score": o.scripted.a_score(),
                    },
                    "scripted_a_gain": o.a_gain(),
                    "scripted_b_gain": o.b_gain(),
                    "scripted_exploitability": o.exploitability(),
                    "grid_step": o.step,
                    "table_depth": o.depth,
                });
            }
            Some(Err(e)) => v["optimal_play"] = json!({ "not_solved": not_solved(e) }),
            None => {}
        }
        if let Some(g) = &rollout {
            v["rollout"] = json!(g);
        }
        return stdout_write(&format!("{}\n", serde_json::to_string_pretty(&v).expect("json")));
    }
    let how = if result.method == "exact" {
        "exact (Markov chain)".to_string()
    } else {
        format!("Monte Carlo, {} trials, seed {}", result.trials, args.sim.seed)
    };
    // Which play: the pair's equilibrium of the squads' tactic game, with its mixes.
    let how = match &game {
        Some(g) => format!(
            "{how}; each side's tactic drawn for each duel from the squads' tactic game's equilibrium ({na}: {}; {nb}: \
             {}; its value {} from {} duels a cell; both scripted {})",
            crate::format::quoted_mix_text(&g.game.tactics, &g.game.a_mix),
            crate::format::quoted_mix_text(&g.game.tactics, &g.game.b_mix),
            pct(&g.game.value),
            crate::format::thousands(r.duel_settings().tactic_trials),
            pct(&g.scripted()),
            na = units[a].name,
            nb = units[b].name
        ),
        None => how,
    };
    if let Some(o) = &optimal {
        // Fitted to the terminal as `matrix` is (the table already is; the notes are long).
        return stdout_write(&crate::term::wrap(&one_each_text(r, [a, b], distance, &result, &how, o, started)));
    }
    let mut t = crate::term::table();
    t.set_header(vec!["outcome", "probability [95% CI]"]);
    t.add_row(vec![format!("{na} wins"), pct(&result.a_wins)]);
    t.add_row(vec![format!("{nb} wins"), pct(&result.b_wins)]);
    t.add_row(vec!["draw".to_string(), pct(&result.draws)]);
    t.add_row(vec![format!("{na} score (draw = ½)"), pct(&result.a_score)]);
    let spend = matchup_budget(r, [a, b], costs, settings.budget);
    let squads_txt = if args.points_matched && spend < settings.budget {
        format!("points-matched squads of {spend} points (the book's squad limits at {} points)", settings.budget)
    } else if args.points_matched {
        format!("points-matched squads of {} points", settings.budget)
    } else {
        "one each".to_string()
    };
    stdout_write(&crate::term::wrap(&format!(
        "{}: {na} ({} pts) vs {nb} ({} pts), {squads_txt}, {distance} {} apart\n{how}; mean {} turns; {:.2} s\n{t}\n{}",
        r.title(),
        costs[0],
        costs[1],
        r.distance_unit(),
        result.mean_turns.map_or_else(|| "—".to_string(), |t| format!("{t:.1}")),
        started.elapsed().as_secs_f64(),
        rollout.as_ref().map_or(String::new(), |g| squad_rollout_text(g, [na, nb], args.sim.seed, r.duel_stage())),
    )))
}

/// `duel A B`, one each, where the config plays optimal play: the game's value under optimal
/// play first (exact), then the scripted tactic's `result` (simulated or exact, `how`) beside
/// it with its exploitability, or why the game was not solved (`o` an error).
fn one_each_text<R: Ruleset>(
    r: &R,
    [a, b]: [usize; 2],
    distance: f64,
    result: &MatchupResult,
    how: &str,
    o: &Result<crate::rulesets::optimal::OptimalDuel, crate::rulesets::NotExact>,
    started: Instant,
) -> String {
    let units = r.units();
    let (na, nb) = (&units[a].name, &units[b].name);
    let unit = r.distance_unit();
    let p = |x: f64| format!("{:.1}%", 100.0 * x.clamp(0.0, 1.0));
    let mut t = crate::term::table();
    t.set_header(vec![
        "play".to_string(),
        format!("{na} wins"),
        format!("{nb} wins"),
        "draw".to_string(),
        format!("{na} score (draw = ½)"),
    ]);
    if let Ok(o) = o {
        for (label, v) in [
            ("optimal play (both sides), exact", &o.optimal),
            ("scripted tactic on the game's grid, exact", &o.scripted),
        ] {
            t.add_row(vec![label.to_string(), p(v.a_wins), p(v.b_wins), p(v.draws), p(v.a_score())]);
        }
    }
    t.add_row(vec![
        format!("scripted tactic, {}", if result.method == "exact" { "exact" } else { "95% CI" }),
        pct(&result.a_wins),
        pct(&result.b_wins),
        pct(&result.draws),
        pct(&result.a_score),
    ]);
    let turns = result.mean_turns.map_or_else(|| "—".to_string(), |t| format!("{t:.1}"));
    let notes = match o {
        Ok(o) => format!(
            "optimal play: the game's value, both sides choosing every move and shot to maximise their score \
             (zero-sum game, exact, grid {} {unit}, table {} {unit} deep, averaged over who acts first); at the \
             config's duel distance, the report's and `matrix`'s 1v1 number\n\
             scripted tactic on the game's grid: the same game with both sides playing the scripted tactic; a \
             best response gains up to {:.1} points against it ({na} {:.1}, {nb} {:.1}; exact, `duel --optimal`)\n\
             scripted tactic: {how}; mean {turns} turns (the duel engine, off the grid)\n",
            o.step,
            o.depth,
            100.0 * o.exploitability(),
            100.0 * o.a_gain(),
            100.0 * o.b_gain(),
        ),
        Err(e) => format!("optimal play: not solved ({})\nscripted tactic: {how}; mean {turns} turns\n", not_solved(e)),
    };
    format!(
        "{}: {na} ({} pts) vs {nb} ({} pts), one each, {distance} {unit} apart; {:.2} s\n{t}\n{notes}",
        r.title(),
        units[a].cost,
        units[b].cost,
        started.elapsed().as_secs_f64(),
    )
}

/// Why the optimal-play game was not solved, without the `--optimal: ` its messages start with
/// (the flag was not given).
fn not_solved(e: &crate::rulesets::NotExact) -> &str {
    e.0.strip_prefix("--optimal: ").unwrap_or(&e.0)
}
