//! What every subcommand shares: the error type, loading a ruleset, checking the simulation
//! flags, writing to stdout and the terminal tables (the progress bars: [`super::progress`]).
//!
//! Why a module of its own: the subcommands (and the report's steps, [`super::report`]) all load
//! configs and print the same way; keeping that here means no subcommand calls another for a
//! helper, and the dispatcher ([`super::run`]) calls each subcommand without a circle.
//!
//! Layer: commands (see [`crate::commands`]).

use std::io::Write;
use std::path::PathBuf;

use comfy_table::{Cell, CellAlignment, Table};

use crate::analysis::{AnalysisSettings, RulesetAnalysis};
use crate::cli::SimArgs;
use crate::config::{ConfigError, Overrides, Source};
use crate::rulesets::{AnyRuleset, Ruleset, RulesetError, UnknownUnit};
use crate::stats::Estimate;

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

/// The `--tactic [SIDE=]NAME` options as each side's tactic, side A first: NAME alone sets both
/// sides, `a=NAME` or `b=NAME` one side; `None` for a side not named. `find(name)` is the
/// tactic's index, or the message for a name it does not know (which lists the valid names).
/// Errors (exit 2, the option quoted): a side other than a or b, a side given twice, or
/// `find`'s message.
pub(crate) fn side_tactics(
    pins: &[String],
    find: impl Fn(&str) -> Result<usize, String>,
) -> Result<[Option<usize>; 2], AppError> {
    let mut out = [None, None];
    for pin in pins {
        let bad = |why: String| AppError::Usage(format!("--tactic {pin}: {why}"));
        let (sides, name) = match pin.split_once('=') {
            None => (&[0, 1][..], pin.as_str()),
            Some((side, name)) => match side.trim() {
                "a" | "A" => (&[0][..], name),
                "b" | "B" => (&[1][..], name),
                other => return Err(bad(format!("the side is a or b, not `{other}`"))),
            },
        };
        let k = find(name.trim()).map_err(bad)?;
        for &s in sides {
            if out[s].replace(k).is_some() {
                return Err(bad(format!("side {} is given twice", ["a", "b"][s])));
            }
        }
    }
    Ok(out)
}

/// Writes `text` to stdout and flushes it; nothing under `--shard` (a shard writes only its
/// tallies). A closed pipe is an [`AppError::Io`] that [`AppError::is_broken_pipe`] recognises.
pub(crate) fn stdout_write(text: &str) -> Result<(), AppError> {
    if crate::sim::shard::recording().is_some() {
        return Ok(()); // a shard's numbers are partial: it writes only its tallies
    }
    if let Some(why) = crate::sim::shard::replay_error() {
        return Err(AppError::Usage(why)); // a merge whose tallies lack a matchup prints nothing
    }
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|_| out.flush())
        .map_err(|source| AppError::Io { context: "writing to stdout".into(), source })
}

/// A ruleset loaded with its config source.
pub(crate) struct Loaded {
    pub(crate) ruleset: AnyRuleset,
    pub(crate) source: Source,
}

/// Loads ruleset `id` from `config` (default: `configs/RULESET.toml` in the working directory,
/// else the built-in copy, see [`crate::shipped`]) with the `--set` overrides `set`, noting the
/// config's hash for a shard run.
pub(crate) fn load(id: &str, config: Option<&PathBuf>, set: &[String]) -> Result<Loaded, AppError> {
    let id = AnyRuleset::check_id(id)?;
    let source = match config {
        Some(path) => Source::read(path)?,
        None => crate::shipped::default_source(id)?,
    };
    crate::sim::shard::note_config(&source.path.display().to_string(), &source.hash_hex()).map_err(AppError::Usage)?;
    let overrides = Overrides::parse(set)?;
    let ruleset = AnyRuleset::load(id, &source, &overrides)?;
    Ok(Loaded { ruleset, source })
}

/// Checks `--target-error` and `--trials` before anything runs.
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
        // Rates from docs/performance.md's benchmark table, one core: about 20 M duels/s, 4 k skirmishes/s.
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
pub(crate) const MAX_TRIALS: u64 = 100_000_000;

/// The analysis settings of `r` with the command line's `--seed`, `--trials` and
/// `--target-error` applied.
pub(crate) fn settings_for<R: Ruleset>(r: &R, sim: &SimArgs) -> AnalysisSettings {
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

/// A probability as a percentage with its 95% interval (`62.1% [60.9, 63.3]`; an exact value
/// alone: `62.1%`).
pub(crate) fn pct(e: &Estimate) -> String {
    if e.lo == e.hi {
        format!("{:.1}%", 100.0 * e.value)
    } else {
        format!("{:.1}% [{:.1}, {:.1}]", 100.0 * e.value, 100.0 * e.lo, 100.0 * e.hi)
    }
}

/// A square matrix of scores as a terminal table: the row unit's score against the column
/// unit, % (`score(i, j)` in [0, 1]; `None` prints "—"). Rows are numbered and named, columns
/// numbered as the rows: unit names as column headers made VSGMR's fourteen columns 1000
/// characters wide.
pub(crate) fn score_matrix_table(names: &[String], score: impl Fn(usize, usize) -> Option<f64>) -> Table {
    let mut t = crate::term::table();
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

/// The points-efficiency table of `a` for the terminal, best first.
pub(crate) fn efficiency_table(a: &RulesetAnalysis) -> Table {
    let mut t = crate::term::table();
    t.set_header(vec![
        "rank",
        "unit",
        "cost",
        "points efficiency [95% CI]",
        if a.matrix_1v1.is_optimal_play() { "1v1 mean score, optimal play" } else { "1v1 mean score [95% CI]" },
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

/// `a`'s warnings, one `warning: ...` line each.
pub(crate) fn warnings_text(a: &RulesetAnalysis) -> String {
    a.warnings.iter().map(|w| format!("warning: {}\n", w.message)).collect()
}
