//! The subcommands: what each one does, one file each, and the dispatcher that picks one.
//!
//! All input is read and validated before any simulation starts, so a bad config or unit
//! name costs nothing and loses nothing. A command reads and validates its input, runs analyses
//! and prints or writes their results; it names no ruleset (the generic code reaches each one
//! through the registry's `with_ruleset!` and the `Ruleset` and `Skirmish` traits), so a sixth
//! ruleset needs no file here.
//!
//! Files: [`common`] (errors, loading, flags, output: what every command shares), [`report`]
//! (the report's steps), and one file per other subcommand. The dispatcher [`run`] is the only
//! code that names them all; `merge` gets it passed in to replay a command, so nothing here
//! imports in a circle.
//!
//! Layer: the top of the library, under `main.rs` and [`crate::cli`]; may import everything
//! below (report → analysis → sim, battle → rulesets → dice, stats, config, seed). Nothing
//! below imports `commands`.

pub mod baseline;
pub mod check;
pub mod common;
pub mod duel;
pub mod fair_costs;
pub mod init;
pub mod matrix;
pub mod merge;
pub mod optimal_matrix;
pub(crate) mod outputs;
pub(crate) mod progress;
pub mod report;
pub mod rules;
pub mod shell;
pub mod skirmish;

use crate::cli::{Cli, Command, DuelArgs, MatrixArgs, ReportArgs};

pub use common::AppError;

/// The largest `--threads`: far more than any machine's cores (a thread costs its stack).
const MAX_THREADS: usize = 1024;

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<(), AppError> {
    crate::term::set_wide(cli.wide);
    if let Some(n) = cli.threads {
        if n == 0 {
            return Err(AppError::Usage("--threads must be at least 1".into()));
        }
        if n > MAX_THREADS {
            return Err(AppError::Usage(format!("--threads must be at most {MAX_THREADS}, got {n}")));
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
            .map_err(|e| AppError::Usage(format!("cannot start {n} threads: {e}")))?;
    }
    if cli.no_cache {
        crate::cache::install(None);
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
    if let Command::Duel(DuelArgs { sim, exact, optimal, .. }) = &cli.command {
        // An exact or optimal-play duel simulates nothing: sampling flags would be ignored.
        if *exact || *optimal {
            let method = if *exact { "--exact" } else { "--optimal" };
            for (flag, given) in [
                ("--trials", sim.trials.is_some()),
                ("--target-error", sim.target_error.is_some()),
                ("--shard", sim.shard.is_some()),
            ] {
                if given {
                    return Err(AppError::Usage(format!(
                        "{flag} is for Monte Carlo duels; {method} solves the duel exactly (no trials): remove {flag}"
                    )));
                }
            }
        }
    }
    let shard = match &cli.command {
        Command::Report(ReportArgs { sim, .. })
        | Command::Duel(DuelArgs { sim, .. })
        | Command::Matrix(MatrixArgs { sim, .. }) => sim.shard.zip(sim.tallies_out.clone()),
        _ => None,
    };
    if let Some((s, path)) = &shard {
        outputs::check_file("--tallies-out", path)?;
        crate::sim::shard::begin_record(*s);
    }
    let result = match cli.command {
        Command::Report(a) => report::run(a),
        Command::Duel(a) => duel::run(a),
        Command::Matrix(a) => matrix::run(a),
        Command::Rules(a) => rules::run(a),
        Command::Check(a) => check::run(a),
        Command::Merge(a) => merge::run(a, run),
        Command::Skirmish(a) => skirmish::run(a),
        Command::FairCosts(a) => fair_costs::run(a),
        Command::Init(a) => init::run(a),
        Command::Completions(a) => shell::completions(a),
        Command::Man(a) => shell::man(a),
        Command::ReadmeExample(a) => shell::readme_example(a),
    };
    match shard {
        Some((s, path)) => merge::finish_shard(result, s, &path),
        None => result,
    }
}
