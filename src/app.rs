//! What each subcommand does: load configs, run the engine, print or write results.
//!
//! All input is read and validated before any simulation starts, so a bad config or unit
//! name costs nothing and loses nothing.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::Instant;

use comfy_table::{Cell, CellAlignment, Table, presets::UTF8_FULL_CONDENSED};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::json;

use crate::analysis::{AnalysisSettings, MatchupResult, RulesetAnalysis, analyse};
use crate::cli::{Cli, Command, DuelArgs, MatrixArgs, ReportArgs, RulesArgs, SimArgs};
use crate::config::{ConfigError, Overrides, Source};
use crate::rulesets::{AnyRuleset, Ruleset, RulesetError, UnknownUnit, default_config, implemented};
use crate::sim::RunPlan;
use crate::sim::duel::{Squads, matchup_budget, result_from_exact, result_from_tally, simulate};
use crate::stats::Estimate;
use crate::with_ruleset;

/// An error the user can fix; exit code 2.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Ruleset(#[from] RulesetError),
    #[error(transparent)]
    UnknownUnit(#[from] UnknownUnit),
    #[error("{0}")]
    Usage(String),
    #[error("{context}: {source}")]
    Io { context: String, source: std::io::Error },
    #[error(transparent)]
    Other(#[from] anyhow::Error),
    /// `pointsworth check` found a balance regression; exit code 1.
    #[error("{0}")]
    Regression(String),
}

impl From<crate::rulesets::skirmish::ArmyError> for AppError {
    fn from(e: crate::rulesets::skirmish::ArmyError) -> Self {
        match e {
            crate::rulesets::skirmish::ArmyError::File(e) => AppError::Config(e),
            crate::rulesets::skirmish::ArmyError::Name(m) => AppError::Usage(m),
        }
    }
}

impl AppError {
    /// Whether this is a closed output pipe (`pointsworth ... | head`), which is not an error.
    pub fn is_broken_pipe(&self) -> bool {
        match self {
            AppError::Io { source, .. } => source.kind() == std::io::ErrorKind::BrokenPipe,
            AppError::Other(e) => {
                e.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
            }
            _ => false,
        }
    }
}

pub(crate) fn stdout_write(text: &str) -> Result<(), AppError> {
    if crate::sim::shard::recording().is_some() {
        return Ok(()); // a shard's numbers are partial: it writes only its tallies
    }
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|_| out.flush())
        .map_err(|source| AppError::Io { context: "writing to stdout".into(), source })
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<(), AppError> {
    if let Some(n) = cli.threads {
        if n == 0 {
            return Err(AppError::Usage("--threads must be at least 1".into()));
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
            .map_err(|e| AppError::Usage(format!("cannot start {n} threads: {e}")))?;
    }
    if let Command::Skirmish(crate::cli::SkirmishArgs { sim, .. })
    | Command::FairCosts(crate::cli::FairCostsArgs { sim, .. }) = &cli.command
    {
        if sim.shard.is_some() {
            return Err(AppError::Usage(
                "--shard works with report, duel and matrix; skirmish and fair-costs run on one machine".into(),
            ));
        }
    }
    let shard = match &cli.command {
        Command::Report(ReportArgs { sim, .. })
        | Command::Duel(DuelArgs { sim, .. })
        | Command::Matrix(MatrixArgs { sim, .. }) => sim.shard.zip(sim.tallies_out.clone()),
        _ => None,
    };
    if let Some((s, _)) = shard {
        crate::sim::shard::begin_record(s);
    }
    let result = match cli.command {
        Command::Report(a) => report(a),
        Command::Duel(a) => duel(a),
        Command::Matrix(a) => matrix(a),
        Command::Rules(a) => rules(a),
        Command::Check(a) => crate::commands::check::run(a),
        Command::Merge(a) => crate::commands::merge::run(a),
        Command::Skirmish(a) => crate::commands::skirmish::run(a),
        Command::FairCosts(a) => crate::commands::fair_costs::run(a),
    };
    match shard {
        Some((s, path)) => crate::commands::merge::finish_shard(result, s, &path),
        None => result,
    }
}

/// A ruleset loaded with its config source.
pub(crate) struct Loaded {
    pub(crate) ruleset: AnyRuleset,
    pub(crate) source: Source,
}

pub(crate) fn load(id: &str, config: Option<&PathBuf>, set: &[String]) -> Result<Loaded, AppError> {
    let id = AnyRuleset::check_id(id)?;
    let path = config.cloned().unwrap_or_else(|| default_config(id));
    let source = Source::read(&path)?;
    crate::sim::shard::note_config(&path.display().to_string(), &source.hash_hex()).map_err(AppError::Usage)?;
    let overrides = Overrides::parse(set)?;
    let ruleset = AnyRuleset::load(id, &source, &overrides)?;
    Ok(Loaded { ruleset, source })
}

pub(crate) fn check_sim_args(sim: &SimArgs) -> Result<(), AppError> {
    if let Some(e) = sim.target_error {
        if !(e > 0.0 && e < 0.5) {
            return Err(AppError::Usage(format!("--target-error must be in (0, 0.5), got {e}")));
        }
    }
    if sim.trials == Some(0) {
        return Err(AppError::Usage("--trials must be at least 1".into()));
    }
    if let Some(t) = sim.trials.filter(|&t| t > MAX_TRIALS) {
        // Rates from the README's benchmark table, one core: about 20 M duels/s, 4 k skirmishes/s.
        return Err(AppError::Usage(format!(
            "--trials must be at most {MAX_TRIALS} (as [duel] max_trials), got {t}: that many would take about \
             {:.0} hours per duel matchup and {:.0} years of skirmishes on one core",
            t as f64 / 20e6 / 3600.0,
            t as f64 / 4e3 / 3600.0 / 24.0 / 365.0
        )));
    }
    Ok(())
}

/// The largest `--trials`: the same cap as `[duel] max_trials`.
const MAX_TRIALS: u64 = 100_000_000;

fn settings_for<R: Ruleset>(r: &R, sim: &SimArgs) -> AnalysisSettings {
    let mut s = AnalysisSettings::from_ruleset(r, sim.seed);
    if let Some(t) = sim.trials {
        s.max_trials = t;
    }
    if let Some(e) = sim.target_error {
        s.target_error = e;
    }
    s.fixed_trials = sim.trials.is_some() && sim.target_error.is_none();
    s
}

pub(crate) fn progress_bar() -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
    pb.set_style(
        ProgressStyle::with_template("{msg:>16} [{bar:40}] {pos}/{len} matchups ({elapsed}, eta {eta})")
            .expect("valid template")
            .progress_chars("=> "),
    );
    pb
}

pub(crate) fn pct(e: &Estimate) -> String {
    if e.lo == e.hi {
        format!("{:.1}%", 100.0 * e.value)
    } else {
        format!("{:.1}% [{:.1}, {:.1}]", 100.0 * e.value, 100.0 * e.lo, 100.0 * e.hi)
    }
}

// ---------------------------------------------------------------------------------------
// duel

fn duel(args: DuelArgs) -> Result<(), AppError> {
    check_sim_args(&args.sim)?;
    let loaded = load(&args.ruleset, args.sim.config.as_ref(), &args.sim.set)?;
    if args.optimal {
        return optimal_duel(&loaded.ruleset, &args);
    }
    with_ruleset!(&loaded.ruleset, r => duel_with(r, &args))
}

/// `duel --optimal`: optimal play, the scripted tactic, and the exploitability.
fn optimal_duel(any: &AnyRuleset, args: &DuelArgs) -> Result<(), AppError> {
    let (id, title, unit, a, b, names, distance) = with_ruleset!(any, r => {
        let a = r.find_unit(&args.unit_a)?;
        let b = r.find_unit(&args.unit_b)?;
        let names = [r.units()[a].name.clone(), r.units()[b].name.clone()];
        (r.id(), r.title(), r.distance_unit(), a, b, names, args.distance.unwrap_or(r.duel_settings().distance))
    });
    if !(distance > 0.0 && distance <= 1000.0) {
        return Err(AppError::Usage(format!("--distance must be more than 0 and at most 1000, got {distance}")));
    }
    let started = Instant::now();
    let o = crate::rulesets::optimal::optimal_duel(any, a, b, distance).map_err(|e| AppError::Usage(e.to_string()))?;
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
        return stdout_write(&format!("{}\n", serde_json::to_string_pretty(&v).expect("json")));
    }
    let p = |x: f64| format!("{:.1}%", 100.0 * x);
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED);
    t.set_header(vec!["play", &format!("{na} wins"), &format!("{nb} wins"), "draw", &format!("{na} score")]);
    for (label, v) in [
        ("optimal (both sides)", &o.optimal),
        ("scripted tactic (both sides)", &o.scripted),
        (&*format!("{na} best response v scripted"), &o.a_best_response),
        (&*format!("{nb} best response v scripted"), &o.b_best_response),
    ] {
        t.add_row(vec![label.to_string(), p(v.a_wins), p(v.b_wins), p(v.draws), p(v.a_score())]);
    }
    stdout_write(&format!(
        "{title}: {na} vs {nb}, one each, {distance} {unit} apart\noptimal play (zero-sum game, grid {} {unit}, table {} {unit} deep, averaged over who acts first); {:.2} s\n{t}\nexploitability of the scripted tactic: {:.1} points ({na} gains {:.1}, {nb} gains {:.1} by its best response)\n",
        o.step,
        o.depth,
        started.elapsed().as_secs_f64(),
        100.0 * o.exploitability(),
        100.0 * o.a_gain(),
        100.0 * o.b_gain(),
    ))
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
        let t = simulate(r, a, b, distance, squads, &plan);
        result_from_tally(&t, costs)
    };
    let (na, nb) = (&units[a].name, &units[b].name);
    if args.json {
        let v = json!({
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
        });
        return stdout_write(&format!("{}\n", serde_json::to_string_pretty(&v).expect("json")));
    }
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED);
    t.set_header(vec!["outcome", "probability [95% CI]"]);
    t.add_row(vec![format!("{na} wins"), pct(&result.a_wins)]);
    t.add_row(vec![format!("{nb} wins"), pct(&result.b_wins)]);
    t.add_row(vec!["draw".to_string(), pct(&result.draws)]);
    t.add_row(vec![format!("{na} score (draw = ½)"), pct(&result.a_score)]);
    let how = if result.method == "exact" {
        "exact (Markov chain)".to_string()
    } else {
        format!("Monte Carlo, {} trials, seed {}", result.trials, args.sim.seed)
    };
    let spend = matchup_budget(r, [a, b], costs, settings.budget);
    let squads_txt = if args.points_matched && spend < settings.budget {
        format!("points-matched squads of {spend} points (the book's squad limits at {} points)", settings.budget)
    } else if args.points_matched {
        format!("points-matched squads of {} points", settings.budget)
    } else {
        "one each".to_string()
    };
    stdout_write(&format!(
        "{}: {na} ({} pts) vs {nb} ({} pts), {squads_txt}, {distance} {} apart\n{how}; mean {:.1} turns; {:.2} s\n{t}\n",
        r.title(),
        costs[0],
        costs[1],
        r.distance_unit(),
        result.mean_turns,
        started.elapsed().as_secs_f64(),
    ))
}

// ---------------------------------------------------------------------------------------
// matrix

fn matrix(args: MatrixArgs) -> Result<(), AppError> {
    check_sim_args(&args.sim)?;
    let loaded = load(&args.ruleset, args.sim.config.as_ref(), &args.sim.set)?;
    if args.optimal {
        return crate::commands::optimal_matrix::run(&args, &loaded);
    }
    let analysis = with_ruleset!(&loaded.ruleset, r => {
        let mut s = settings_for(r, &args.sim);
        // The distance sweep (seven matrices at half precision) is a chart of `report`; the
        // matrix command shows neither it nor its numbers.
        s.sweep_distances.clear();
        let path = loaded.source.path.display().to_string();
        analyse(r, &s, &path, &loaded.source.hash_hex(), &progress_bar())
    });
    if args.json {
        let v = json!({
            "ruleset": analysis.ruleset,
            "seed": analysis.seed,
            "matrix_1v1": analysis.matrix_1v1,
            "matrix_points": analysis.matrix_points,
            "efficiency": analysis.efficiency,
        });
        return stdout_write(&format!("{}\n", serde_json::to_string_pretty(&v).expect("json")));
    }
    // The verdict first: from the duels alone here (the report adds the skirmish games).
    let mut text = crate::report::verdict::terminal(&analysis);
    text.push('\n');
    for m in [&analysis.matrix_1v1, &analysis.matrix_points] {
        text.push_str(&format!("{} — score of the row unit against the column unit, %\n", m.title));
        text.push_str(&format!("{}\n\n", matrix_table(&analysis, m)));
    }
    text.push_str(&efficiency_table(&analysis).to_string());
    text.push('\n');
    text.push_str(&warnings_text(&analysis));
    stdout_write(&text)
}

fn name_of<'a>(a: &'a RulesetAnalysis, id: &'a str) -> &'a str {
    a.units.iter().find(|u| u.id == id).map_or(id, |u| u.name.as_str())
}

fn matrix_table(a: &RulesetAnalysis, m: &crate::analysis::Matrix) -> Table {
    let names: Vec<String> = m.units.iter().map(|u| name_of(a, u).to_string()).collect();
    score_matrix_table(&names, |i, j| Some(m.cells[i][j].a_score.value))
}

/// A square matrix of scores as a terminal table: the row unit's score against the column
/// unit, % (`score(i, j)` in [0, 1]; `None` prints "—"). Rows are numbered and named, columns
/// numbered as the rows: unit names as column headers made VSGMR's fourteen columns 1000
/// characters wide.
pub(crate) fn score_matrix_table(names: &[String], score: impl Fn(usize, usize) -> Option<f64>) -> Table {
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED);
    let mut header = vec![Cell::new("row \\ column")];
    header.extend((1..=names.len()).map(|k| Cell::new(k).set_alignment(CellAlignment::Right)));
    t.set_header(header);
    for (i, name) in names.iter().enumerate() {
        let mut cells = vec![Cell::new(format!("{:>2} {name}", i + 1))];
        cells.extend((0..names.len()).map(|j| {
            let s = score(i, j).map_or("—".into(), |s| format!("{:.0}", 100.0 * s));
            Cell::new(s).set_alignment(CellAlignment::Right)
        }));
        t.add_row(cells);
    }
    t
}

fn efficiency_table(a: &RulesetAnalysis) -> Table {
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED);
    t.set_header(vec![
        "rank",
        "unit",
        "cost",
        "points efficiency [95% CI]",
        "1v1 mean score [95% CI]",
        "points per point killed",
    ]);
    for row in &a.efficiency {
        t.add_row(vec![
            Cell::new(row.rank),
            Cell::new(&row.unit.name),
            Cell::new(row.unit.cost).set_alignment(CellAlignment::Right),
            Cell::new(pct(&row.efficiency)),
            Cell::new(pct(&row.win_rate_1v1)),
            Cell::new(
                row.points_per_point_killed
                    .map_or("—".to_string(), |e| format!("{:.2} [{:.2}, {:.2}]", e.value, e.lo, e.hi)),
            ),
        ]);
    }
    t
}

fn warnings_text(a: &RulesetAnalysis) -> String {
    a.warnings.iter().map(|w| format!("warning: {}\n", w.message)).collect()
}

// ---------------------------------------------------------------------------------------
// report

pub(crate) fn report(args: ReportArgs) -> Result<(), AppError> {
    check_sim_args(&args.sim)?;
    let ids: Vec<String> = if args.rulesets.is_empty() {
        implemented().into_iter().filter(|id| default_config(id).exists()).map(String::from).collect()
    } else {
        args.rulesets.clone()
    };
    if ids.is_empty() {
        return Err(AppError::Usage(format!(
            "no ruleset to report: no configs/RULESET.toml for any of {} (run from the repository root)",
            implemented().join(", ")
        )));
    }
    if args.sim.config.is_some() && ids.len() != 1 {
        return Err(AppError::Usage("--config needs exactly one RULESET".into()));
    }
    // Read and validate everything first: bad input must cost nothing.
    let loaded: Vec<Loaded> =
        ids.iter().map(|id| load(id, args.sim.config.as_ref(), &args.sim.set)).collect::<Result<_, _>>()?;
    let started = Instant::now();
    let mut analyses = Vec::new();
    let mut sections = SectionSeconds::default();
    for l in &loaded {
        let pb = progress_bar();
        let mut clock = sections.start(with_ruleset!(&l.ruleset, r => r.id()));
        let mut analysis = with_ruleset!(&l.ruleset, r => {
            let s = settings_for(r, &args.sim);
            let path = l.source.path.display().to_string();
            analyse(r, &s, &path, &l.source.hash_hex(), &pb)
        });
        analysis.config_text = Some(l.source.text.clone());
        clock.lap("duel matrices and sweeps");
        // A shard writes only the tallies of the matrices and the sweep (keyed simulations);
        // the sections below record none, so a shard skips them and the merge runs them.
        if crate::sim::shard::recording().is_some() {
            pb.finish_and_clear();
            continue;
        }
        // The bisection cannot be split by batches: the merge runs it in full.
        analysis.fair_costs = Some(crate::sim::shard::unsharded(
            || with_ruleset!(&l.ruleset, r => crate::commands::fair_costs::for_report(r, &args.sim, &pb)),
        ));
        clock.lap("fair costs");
        analysis.skirmish = crate::commands::skirmish::for_report(&l.ruleset, args.sim.seed);
        clock.lap("skirmishes");
        analysis
            .warnings
            .extend(analysis.skirmish.as_ref().and_then(crate::analysis::skirmish::mission_verdict_warning));
        // Nor can the studies' price searches (VSGMR's attribute prices, AMC's upgrade prices):
        // their next price depends on earlier results, so they too run in full.
        analysis.studies =
            crate::sim::shard::unsharded(|| with_ruleset!(&l.ruleset, r => r.studies(&analysis, args.sim.seed, &pb)));
        clock.lap("studies");
        // Optimal play is exact: the merge solves it.
        with_ruleset!(&l.ruleset, r => if r.duel_settings().optimal_play {
            let o = crate::analysis::optimal_play::analyse(r, analysis.distance, &pb);
            analysis.warnings.extend(crate::analysis::optimal_play::warning(&o, &analysis.distance_unit, &analysis.units));
            analysis.optimal_play = Some(o);
        });
        clock.lap("optimal play");
        sections.add(clock);
        pb.finish_and_clear();
        analyses.push(analysis);
    }
    sections.write_if_asked()?;
    if crate::sim::shard::recording().is_some() {
        return Ok(()); // a shard's numbers are partial: it writes only its tallies
    }
    let mut text = String::new();
    for a in &analyses {
        let dir = args.out.join(&a.ruleset);
        crate::report::write_ruleset_report(a, &dir).map_err(AppError::Other)?;
        text.push_str(&crate::report::verdict::terminal(a));
        text.push_str(&format!(
            "{} — points efficiency ({} points per side, {} {} apart, seed {})\n{}\n{}wrote {} and {}\n\n",
            a.title,
            a.budget,
            a.distance,
            a.distance_unit,
            a.seed,
            efficiency_table(a),
            warnings_text(a),
            dir.join("report.md").display(),
            dir.join("report.html").display()
        ));
    }
    let index = crate::report::write_index(&index_entries(&analyses, &args.out), &args.out).map_err(AppError::Other)?;
    text.push_str(&format!("wrote {} in {:.1} s\n", index.display(), started.elapsed().as_secs_f64()));
    stdout_write(&text)
}

/// Index entries for this run's rulesets, in the order of the known-rulesets list.
/// The index lines: the rulesets just analysed, plus every other ruleset whose report is
/// already in `out` (read from its `summary.json`), so a report of one ruleset keeps the others
/// in `README.md`. Ordered as `RULESETS`.
fn index_entries(analyses: &[RulesetAnalysis], out: &std::path::Path) -> Vec<crate::report::IndexEntry> {
    let mut entries: Vec<crate::report::IndexEntry> = analyses.iter().map(Into::into).collect();
    for (id, _, _) in crate::rulesets::RULESETS {
        if entries.iter().any(|e| e.ruleset == *id) {
            continue;
        }
        if let Some(e) = index_entry_from_summary(&out.join(id).join("summary.json")) {
            entries.push(e);
        }
    }
    entries.sort_by_key(|e| crate::rulesets::RULESETS.iter().position(|r| r.0 == e.ruleset));
    entries
}

/// An index line from an earlier run's `summary.json`; `None` when it is missing or unreadable.
fn index_entry_from_summary(path: &std::path::Path) -> Option<crate::report::IndexEntry> {
    crate::report::IndexEntry::from_summary(path)
}

// ---------------------------------------------------------------------------------------
// rules

fn rules(args: RulesArgs) -> Result<(), AppError> {
    let loaded = load(&args.ruleset, args.config.as_ref(), &[])?;
    let (title, rows, variants, lint) =
        with_ruleset!(&loaded.ruleset, r => (r.title(), r.coverage(), r.variants(), r.lint()));
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED);
    t.set_header(vec!["rule", "source", "status", "note"]);
    for row in &rows {
        t.add_row(vec![row.rule.as_str(), row.source.as_str(), row.status.label(), row.note.as_str()]);
    }
    let v: Vec<String> = variants.iter().map(|(k, v)| format!("{k} = {v}")).collect();
    let mut out = format!("{title}: rules coverage\nvariants in force: {}\n{t}\n", v.join(", "));
    if lint.is_empty() {
        out.push_str("lint: nothing flagged\n");
    } else {
        let mut l = Table::new();
        l.load_preset(UTF8_FULL_CONDENSED);
        l.set_header(vec!["subject", "finding", "source"]);
        for f in &lint {
            l.add_row(vec![f.subject.as_str(), f.finding.as_str(), f.source.as_str()]);
        }
        out.push_str(&format!("lint: {} finding(s)\n{l}\n", lint.len()));
    }
    stdout_write(&out)
}

/// The seconds each section of `report` took per ruleset, written as JSON
/// (`{"RULESET": {"SECTION": seconds, ...}, ...}`, keys sorted; [`SECTIONS`] in the order they
/// run) to the file named by the environment variable `POINTSWORTH_SECTION_SECONDS` when it is
/// set: `benches/table.rs` reads it for the README's benchmark table (issue 18: the report's
/// sections' seconds). Wall-clock seconds; nothing is written without the variable, and a
/// `--shard` run writes `{}` (it runs only the first section, for its tallies).
#[derive(Default)]
struct SectionSeconds {
    rulesets: Vec<(String, Vec<(&'static str, f64)>)>,
}

/// The sections of a ruleset's report, in the order they run.
pub const SECTIONS: [&str; 5] = ["duel matrices and sweeps", "fair costs", "skirmishes", "studies", "optimal play"];

/// One ruleset's sections being timed ([`SectionSeconds::start`]).
struct SectionClock {
    ruleset: String,
    last: Instant,
    laps: Vec<(&'static str, f64)>,
}

impl SectionSeconds {
    fn start(&self, ruleset: &str) -> SectionClock {
        SectionClock { ruleset: ruleset.to_string(), last: Instant::now(), laps: Vec::new() }
    }

    fn add(&mut self, clock: SectionClock) {
        self.rulesets.push((clock.ruleset, clock.laps));
    }

    /// Writes the JSON if `POINTSWORTH_SECTION_SECONDS` names a file (atomically); an error
    /// if it cannot be written.
    fn write_if_asked(&self) -> Result<(), AppError> {
        let Some(path) = std::env::var_os("POINTSWORTH_SECTION_SECONDS") else { return Ok(()) };
        let mut all = serde_json::Map::new();
        for (id, laps) in &self.rulesets {
            let sections = laps.iter().map(|&(name, s)| (name.to_string(), json!(s))).collect();
            all.insert(id.clone(), serde_json::Value::Object(sections));
        }
        let text = serde_json::to_string_pretty(&all).map_err(|e| AppError::Other(e.into()))?;
        crate::report::write_atomic(std::path::Path::new(&path), text.as_bytes()).map_err(|source| AppError::Io {
            context: format!("writing the section seconds to {}", std::path::Path::new(&path).display()),
            source,
        })
    }
}

impl SectionClock {
    /// Ends the section `name`, the next of [`SECTIONS`], now.
    fn lap(&mut self, name: &'static str) {
        debug_assert_eq!(name, SECTIONS[self.laps.len()], "sections lap in the order of SECTIONS");
        let now = Instant::now();
        self.laps.push((name, (now - self.last).as_secs_f64()));
        self.last = now;
    }
}

#[cfg(test)]
mod index_tests {
    use std::path::Path;

    /// A report of one ruleset keeps the other rulesets' lines, read from their summary.json.
    #[test]
    fn the_index_keeps_rulesets_reported_earlier() {
        let e = super::index_entry_from_summary(Path::new("reports/guns-n-grenades/summary.json"))
            .expect("the committed GnG baseline has a readable summary.json");
        assert_eq!(e.ruleset, "guns-n-grenades");
        assert_eq!(e.units, 12);
        let (top, bottom) = (e.top.unwrap(), e.bottom.unwrap());
        assert!(top.efficiency.value > bottom.efficiency.value);
        let all = super::index_entries(&[], Path::new("reports"));
        let ids: Vec<&str> = all.iter().map(|e| e.ruleset.as_str()).collect();
        assert_eq!(ids.first(), Some(&"guns-n-grenades"), "RULESETS order: {ids:?}");
        assert!(ids.contains(&"gunplay"), "{ids:?}");
        assert!(super::index_entry_from_summary(Path::new("reports/no-such-ruleset/summary.json")).is_none());
    }
}
