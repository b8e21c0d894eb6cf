//! `pointsworth matrix`: the 1v1 and points-matched matrices and the points-efficiency table of
//! one ruleset, the 1v1 one under optimal play where the ruleset has the game (as the report's);
//! with `--optimal`, the optimal-play game's own table, at any distances
//! ([`super::optimal_matrix`]).

use comfy_table::Table;
use serde_json::json;

use super::common::{
    AppError, check_sim_args, efficiency_table, load, score_matrix_table, settings_for, stdout_write, warnings_text,
};
use super::progress::Progress;
use crate::analysis::{Matrix, RulesetAnalysis, analyse};
use crate::cli::MatrixArgs;
use crate::rulesets::Ruleset;
use crate::with_ruleset;

/// The phases of `matrix` (without `--optimal`).
const PHASES: [&str; 2] = ["duel matrices", "optimal play"];

/// Runs `pointsworth matrix`: the report's matrices and efficiency table, the 1v1 matrix under
/// optimal play where the ruleset has the game ([`crate::analysis::optimal_play::play_1v1`]).
pub fn run(args: MatrixArgs) -> Result<(), AppError> {
    check_sim_args(&args.sim)?;
    if !args.optimal && !args.distance.is_empty() {
        return Err(AppError::Usage(
            "--distance is for --optimal: the simulated matrices play at the config's duel.distance (set it with \
             --set duel.distance=D)"
                .into(),
        ));
    }
    let loaded = load(&args.ruleset, args.sim.config.as_ref(), &args.sim.set)?;
    let baseline = match &args.baseline {
        Some(dir) => Some(super::baseline::Baseline::read(dir, with_ruleset!(&loaded.ruleset, r => r.id()))?),
        None => None,
    };
    if args.optimal {
        return super::optimal_matrix::run(&args, &loaded);
    }
    // The result cache of `pointsworth report` (its default `--out`), where a report has made
    // one: its optimal-play solves are not made again (`--no-cache` bypasses it).
    let cache = std::path::Path::new(super::rules::REPORT_CACHE);
    if cache.is_dir() {
        crate::cache::install(Some(cache));
    }
    let mut progress = Progress::new(format!("matrix {}", args.ruleset), &PHASES);
    let pb = progress.phase(PHASES[0]);
    let mut analysis = with_ruleset!(&loaded.ruleset, r => {
        let mut s = settings_for(r, &args.sim);
        // The distance sweep (seven matrices at half precision) is a chart of `report`; the
        // matrix command shows neither it nor its numbers.
        s.sweep_distances.clear();
        let path = loaded.source.path.display().to_string();
        analyse(r, &s, &path, &loaded.source.hash_hex(), &pb)
    });
    // 1v1 numbers are the game's value, as in the report.
    let pb = progress.phase(PHASES[1]);
    // A shard writes its tallies only; the exact solves are not a shard's to split.
    with_ruleset!(&loaded.ruleset, r => if r.duel_settings().optimal_play && crate::sim::shard::recording().is_none() {
        let values = crate::analysis::optimal_play::optimal_values(r, analysis.distance, &pb);
        crate::analysis::optimal_play::play_1v1_values(&mut analysis, &values);
    });
    progress.finish();
    if args.json {
        let v = json!({
            "ruleset": analysis.ruleset,
            "seed": analysis.seed,
            "matrix_1v1": analysis.matrix_1v1,
            "matrix_points": analysis.matrix_points,
            "efficiency": analysis.efficiency,
            // How the points-matched squads played: each pair's equilibrium of the squads'
            // tactic game where the ruleset plays one (mirrors: the scripted tactic).
            "squads_play": if analysis.squads_game.is_some() { "equilibrium" } else { "scripted" },
            "squads_game": analysis.squads_game.as_ref().map(|g| g.pairs.iter().map(|p| json!({
                "a": p.a, "b": p.b, "tactics": g.tactics, "a_mix": p.game.a_mix, "b_mix": p.game.b_mix,
                "value": p.game.value,
            })).collect::<Vec<_>>()),
        });
        return stdout_write(&format!("{}\n", serde_json::to_string_pretty(&v).expect("json")));
    }
    // The verdict first: from the duels alone here (the report adds the skirmish games).
    let mut text = crate::report::verdict::terminal(&analysis);
    text.push('\n');
    for m in [&analysis.matrix_1v1, &analysis.matrix_points] {
        text.push_str(&format!("{} — score of the row unit against the column unit, %\n", m.title));
        if let (true, Some(g)) = (std::ptr::eq(m, &analysis.matrix_points), &analysis.squads_game) {
            text.push_str(&format!(
                "each duel draws each side's tactic from its pair's equilibrium of the squads' tactic game ({} duels a \
                 cell; a mirror plays the scripted tactic)\n",
                crate::format::thousands(g.trials)
            ));
        }
        text.push_str(&format!("{}\n\n", matrix_table(&analysis, m)));
    }
    text.push_str(&efficiency_table(&analysis).to_string());
    text.push('\n');
    text.push_str(&warnings_text(&analysis));
    if let (Some(b), Some(dir)) = (&baseline, &args.baseline) {
        text.push('\n');
        text.push_str(&super::baseline::before_after(b, dir, &analysis, super::baseline::TOLERANCE));
    }
    stdout_write(&crate::term::wrap(&text))
}

fn name_of<'a>(a: &'a RulesetAnalysis, id: &'a str) -> &'a str {
    a.units.iter().find(|u| u.id == id).map_or(id, |u| u.name.as_str())
}

fn matrix_table(a: &RulesetAnalysis, m: &Matrix) -> Table {
    let names: Vec<String> = m.units.iter().map(|u| name_of(a, u).to_string()).collect();
    score_matrix_table(&names, |i, j| Some(m.cells[i][j].a_score.value))
}
