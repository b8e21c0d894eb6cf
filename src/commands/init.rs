//! `pointsworth init`: start a designer's rules repository in one command.
//!
//! Why: the tool's loop is *edit a cost, run `check`, read which way balance moved*, and that
//! needs a config, a baseline report made from it and, for pull requests, a CI workflow. `init`
//! writes all of them into the current directory (or `--dir`), so `pointsworth init
//! guns-n-grenades && pointsworth check` passes at once: the baseline is made with a fixed
//! trial count, and `check` re-runs exactly those trials with the baseline's seed.
//!
//! The baseline is a quick one ([`QUICK_TRIALS`] trials per duel matchup, the skirmish and
//! fair-cost sections at [`QUICK_SECTION_TRIALS`] trials, no distance sweep, no optimal play,
//! no squads' tactic game) so
//! `init` takes seconds; `pointsworth report` replaces it with the config's full precision.
//! Existing files are never overwritten without `--force`.
//!
//! Layer: commands (see [`crate::commands`]).

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::common::{AppError, stdout_write};
use crate::cli::{InitArgs, ReportArgs, SimArgs};
use crate::rulesets::{AnyRuleset, implemented};

/// Trials per duel matchup of the quick baseline (a fixed plan, re-run exactly by `check`).
pub const QUICK_TRIALS: u64 = 2000;

/// Trials of the quick baseline's skirmish and fair-cost sections.
pub const QUICK_SECTION_TRIALS: u64 = 500;

/// The pull-request workflow, the same file this repository ships.
pub const WORKFLOW: &str = include_str!("../../.github/workflows/balance.yml");

/// Where the workflow goes in the new repository.
pub const WORKFLOW_PATH: &str = ".github/workflows/balance.yml";

/// Runs `pointsworth init`.
pub fn run(args: InitArgs) -> Result<(), AppError> {
    let ids: Vec<String> = match &args.ruleset {
        Some(r) => vec![AnyRuleset::check_id(r)?.to_string()],
        None => implemented().into_iter().map(String::from).collect(),
    };
    let started = Instant::now();
    let mut files: Vec<(PathBuf, String)> = Vec::new();
    for id in &ids {
        let text =
            crate::shipped::built_in(id).ok_or_else(|| AppError::Usage(format!("no built-in config for {id}")))?;
        files.push((crate::shipped::local_path(id), text.to_string()));
    }
    files.push((PathBuf::from(WORKFLOW_PATH), WORKFLOW.to_string()));
    files.push((PathBuf::from("README.md"), readme(&ids)));
    let baselines: Vec<PathBuf> = ids.iter().map(|id| Path::new("reports").join(id).join("summary.json")).collect();
    // Refuse before writing anything.
    if !args.force {
        let existing: Vec<String> = files
            .iter()
            .map(|(p, _)| p)
            .chain(&baselines)
            .filter(|p| args.dir.join(p).exists())
            .map(|p| args.dir.join(p).display().to_string())
            .collect();
        if !existing.is_empty() {
            return Err(AppError::Usage(format!(
                "init would overwrite {} (pass --force to overwrite)",
                existing.join(", ")
            )));
        }
    }
    std::fs::create_dir_all(&args.dir)
        .map_err(|source| AppError::Io { context: format!("creating {}", args.dir.display()), source })?;
    // Work inside the new repository, so the baseline records `configs/ID.toml` as its config.
    std::env::set_current_dir(&args.dir)
        .map_err(|source| AppError::Io { context: format!("entering {}", args.dir.display()), source })?;
    for (path, text) in &files {
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)
                .map_err(|source| AppError::Io { context: format!("creating {}", parent.display()), source })?;
        }
        crate::report::write_atomic(path, text.as_bytes())
            .map_err(|source| AppError::Io { context: format!("writing {}", path.display()), source })?;
    }
    super::report::run(ReportArgs {
        rulesets: ids.clone(),
        sim: SimArgs {
            config: None,
            set: quick_overrides(),
            seed: 42,
            trials: Some(QUICK_TRIALS),
            target_error: None,
            shard: None,
            tallies_out: None,
        },
        out: PathBuf::from("reports"),
        baseline: None,
        json: false,
    })?;
    let written: Vec<String> = files.iter().map(|(p, _)| format!("  {}", p.display())).collect();
    stdout_write(&format!(
        "\ninit: wrote in {} ({:.1} s)\n{}\n  reports/ (a quick baseline: {QUICK_TRIALS} trials per matchup)\n\nNext: edit a \
         cost in {}, then run `pointsworth check`.\n",
        args.dir.display(),
        started.elapsed().as_secs_f64(),
        written.join("\n"),
        crate::shipped::local_path(&ids[0]).display()
    ))
}

/// The `--set` overrides of the quick baseline: sections that are not compared by `check`
/// at a fraction of their trials, and the sweep, optimal play and the squads' tactic game left
/// out (`duel.tactic_trials=0` is valid for every ruleset).
fn quick_overrides() -> Vec<String> {
    vec![
        "duel.sweep_distances=[]".into(),
        "duel.optimal_play=false".into(),
        "duel.tactic_trials=0".into(),
        format!("skirmish.report_trials={QUICK_SECTION_TRIALS}"),
        format!("balance.report_trials={QUICK_SECTION_TRIALS}"),
    ]
}

/// The new repository's README: what is in it and the edit–check loop.
fn readme(ids: &[String]) -> String {
    let first = &ids[0];
    let configs: Vec<String> = ids.iter().map(|id| format!("`configs/{id}.toml`")).collect();
    format!(
        "# Balance of my rules\n\n\
         Cost lists in {configs} and their balance baseline in `reports/`, made by `pointsworth init`.\n\n\
         ## The edit–check loop\n\n\
         1. Edit a cost or a rule in `configs/{first}.toml`.\n\
         2. `pointsworth check` re-runs the baseline's duels with its seed and leads with **balance improved** \
         (the units whose points efficiency moved are, summed, closer to 50%), **balance got worse** (further: exit \
         1) or **balance moved**. Try an edit without saving it: `pointsworth check {first} --set \
         unit.UNIT.cost=24`. `--strict` fails on any move.\n\
         3. To keep it: `pointsworth check --update` rewrites `reports/`; commit the config and `reports/` \
         together.\n\n\
         `.github/workflows/balance.yml` runs step 2 on every pull request and posts the summary as a comment. Set \
         `POINTSWORTH_GIT` in it to the repository pointsworth is installed from.\n\n\
         ## The baseline\n\n\
         `init` made `reports/` quickly: {QUICK_TRIALS} trials per duel matchup, the skirmish and fair-cost \
         sections at {QUICK_SECTION_TRIALS} trials, no distance sweep, no optimal play (so its 1v1 matrix is the \
         scripted tactic's). `pointsworth report` replaces it with a full report at the config's precision, the \
         1v1 matrix under optimal play (1 to 5 minutes per ruleset on two cores); `check` then compares with \
         that, solving the optimal-play game again unless `reports/.cache/` holds it.\n",
        configs = configs.join(", "),
    )
}
