//! `pointsworth fair-costs RULESET`: the balance solver's table, JSON, and balanced config.
//!
//! The balanced config is the input config's text with only the `cost = ...` lines of the
//! `[[unit]]` tables changed (comments and layout kept), so `diff` shows exactly the suggested
//! price changes and the file can be played or re-simulated as it is.

use std::time::Instant;

use comfy_table::{Cell, CellAlignment, Table};
use indicatif::ProgressBar;
use serde_json::json;

use super::common::{AppError, check_sim_args, load, pct, stdout_write};
use super::progress::Progress;
use crate::analysis::balance::{rewrite_costs, solve};
use crate::cli::{FairCostsArgs, SimArgs};
use crate::format::fmt_cost;
use crate::report::{strength, two, write_atomic};
use crate::rulesets::Ruleset;
use crate::rulesets::engine::{BalanceSettings, FairCosts};
use crate::stats::Estimate;
use crate::with_ruleset;

/// Solver settings from the ruleset's config and the common flags; `trials` is used when
/// `--trials` is not given. `--target-error` is refused: the solver needs a fixed trial count.
pub fn settings<R: Ruleset>(r: &R, sim: &SimArgs, trials: u64) -> Result<BalanceSettings, AppError> {
    if sim.target_error.is_some() {
        return Err(AppError::Usage(
            "fair-costs plays a fixed number of trials per matchup so that prices share dice (common random \
             numbers); use --trials N instead of --target-error"
                .into(),
        ));
    }
    let mut s = BalanceSettings::from_ruleset(r, sim.seed);
    s.trials = sim.trials.unwrap_or(trials);
    Ok(s)
}

/// The solver as `pointsworth report` runs it: the config's `balance.report_trials` per
/// matchup, or `--trials` (the report's per-matchup cap) if that is smaller.
/// `mixes`: the squads' equilibrium play the report's points-matched matrix played (the tactic
/// game's mixes, held at every price), `None` for the scripted tactic.
pub fn for_report<R: Ruleset>(
    r: &R,
    sim: &SimArgs,
    mixes: Option<std::sync::Arc<crate::rulesets::engine::SquadMixes>>,
    progress: &ProgressBar,
) -> FairCosts {
    let mut s = BalanceSettings::from_ruleset(r, sim.seed);
    s.squad_mixes = mixes;
    s.trials = r.balance_config().report_trials.min(sim.trials.unwrap_or(u64::MAX));
    solve(r, &s, progress)
}

/// Runs `fair-costs`.
pub fn run(args: FairCostsArgs) -> Result<(), AppError> {
    check_sim_args(&args.sim)?;
    if let Some(path) = &args.write {
        crate::commands::outputs::check_file("--write", path)?;
    }
    let loaded = load(&args.ruleset, args.sim.config.as_ref(), &args.sim.set)?;
    let started = Instant::now();
    let (result, title, id, equilibrium) = with_ruleset!(&loaded.ruleset, r => {
        let mut s = settings(r, &args.sim, r.balance_config().trials)?;
        let mut progress = Progress::new(format!("fair-costs {}", r.id()), &["squads' tactic game", "fair costs"]);
        // The squads play as in the report: the tactic game's equilibrium mixes, where the
        // ruleset plays the game (solved at list prices, held at every price).
        let pb = progress.phase("squads' tactic game");
        if crate::analysis::squads_game::played(r) {
            pb.set_length(crate::analysis::squads_game::pair_count(r));
        }
        let game = crate::analysis::squads_game::analyse(r, s.seed, s.batch_size, &pb)
            .map_err(|e| AppError::Other(anyhow::anyhow!("the squads' tactic game was not solved: {e}")))?;
        s.squad_mixes = game.map(|g| std::sync::Arc::new(g.mixes(r)));
        let equilibrium = s.squad_mixes.is_some();
        let out = solve(r, &s, &progress.phase("fair costs"));
        progress.finish();
        (out, r.title(), r.id(), equilibrium)
    });
    let elapsed = started.elapsed().as_secs_f64();
    if let Some(path) = &args.write {
        let costs: Vec<(String, f64)> = result.rows.iter().map(|r| (r.unit.name.clone(), r.balanced_cost)).collect();
        let text = rewrite_costs(&loaded.source.text, &costs)
            .map_err(|e| AppError::Usage(format!("{}: {e}", loaded.source.path.display())))?;
        write_atomic(path, text.as_bytes())
            .map_err(|source| AppError::Io { context: format!("writing {}", path.display()), source })?;
    }
    if args.json {
        let v = json!({
            "ruleset": id,
            "config": loaded.source.path.display().to_string(),
            "elapsed_seconds": elapsed,
            // How the squads played: each pair's equilibrium of the squads' tactic game (its
            // mixes solved at list prices, held at every price), or the scripted tactic.
            "squads_play": if equilibrium { "equilibrium" } else { "scripted" },
            "result": result,
        });
        return stdout_write(&format!("{}\n", serde_json::to_string_pretty(&v).expect("json")));
    }
    let mut text = format!(
        "{title}: suggested costs (seed {}, {} trials per matchup per evaluation, cost step {}, tolerance ±{:.1} percentage points)\n",
        result.seed,
        result.trials,
        fmt_cost(result.cost_step),
        100.0 * result.tolerance
    );
    if equilibrium {
        text.push_str(
            "the squads play each pair's equilibrium of the squads' tactic game (a mirror the scripted tactic), its mixes \
             solved at list prices and held at every price searched\n",
        );
    }
    text.push_str(&table(&result).to_string());
    text.push('\n');
    for u in &result.unbalanced {
        text.push_str(&format!("not balanced: {u}\n"));
    }
    text.push_str(&crate::report::fair_costs_verdict(&result));
    text.push('\n');
    for n in &result.notes {
        text.push_str(&format!("note: {n}\n"));
    }
    text.push_str(&format!(
        "{} damped iterations, {} single-step moves; {} matchups in {:.1} s\n",
        result.iterations, result.moves, result.matchups, elapsed
    ));
    if let Some(path) = &args.write {
        text.push_str(&format!("wrote {}\n", path.display()));
    }
    stdout_write(&crate::term::wrap(&text))
}

/// The suggested-costs table as the terminal shows it; with an anchor, a last column holds the
/// derived cost list (the anchor's cost exact, the others with their 95% interval).
pub fn table(f: &FairCosts) -> Table {
    let mut t = crate::term::table();
    let mut header = vec![
        "unit",
        "cost",
        "efficiency [95% CI]",
        "fair cost [95% CI]",
        "Lanchester",
        "balanced cost (efficiency)",
        "Nash weight",
        "Bradley–Terry",
    ];
    if f.anchor.is_some() {
        header.push("derived cost [95% CI]");
    }
    t.set_header(header);
    let right = |s: String| Cell::new(s).set_alignment(CellAlignment::Right);
    let interval = |e: Estimate| format!("{:.1} [{:.1}, {:.1}]", e.value, e.lo, e.hi);
    for r in &f.rows {
        let fair = r.fair_cost.map_or_else(|| "—".to_string(), interval);
        let mut row = vec![
            Cell::new(&r.unit.name),
            right(fmt_cost(r.unit.cost)),
            Cell::new(pct(&r.efficiency)),
            Cell::new(fair),
            right(r.lanchester.map_or("—".into(), |l| format!("{l:.1}"))),
            Cell::new(format!(
                "{} ({:.1}%{})",
                fmt_cost(r.balanced_cost),
                100.0 * r.balanced_efficiency.value,
                r.fresh_efficiency.map_or(String::new(), |e| format!("; fresh seed {:.1}%", 100.0 * e.value))
            )),
            Cell::new(two(&r.nash_weight)),
            Cell::new(strength(&r.bradley_terry)),
        ];
        if let Some(anchor) = &f.anchor {
            row.push(Cell::new(if &r.unit.id == anchor {
                format!("{} (anchor)", fmt_cost(r.unit.cost))
            } else {
                r.derived_cost.map_or_else(|| "—".to_string(), interval)
            }));
        }
        t.add_row(row);
    }
    t
}
