//! The command line (clap derive): subcommands and flags, nothing else.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

const EXAMPLES: &str = "Examples:
  pointsworth report                                      every ruleset, writes reports/
  pointsworth duel gng riflemen snipers --distance 10     one matchup, Monte Carlo
  pointsworth duel gng riflemen heavy-infantry --distance 8 --exact
  pointsworth matrix gng --set rules.fast_shot=both_dice  all pairs under a rule variant
  pointsworth rules gng                                   what is modeled
  pointsworth skirmish gng --replay battle.svg            350-point Skirmish games, value in army
  pointsworth fair-costs gng --write balanced.toml        suggested costs
  pointsworth check --quick                               did balance move against reports/?
  pointsworth init guns-n-grenades && pointsworth check   start a rules repository";

/// Is every unit worth its points? Monte Carlo and exact balance analysis for tabletop
/// skirmish wargames.
///
/// pointsworth plays many duels between units of a ruleset's cost list and reports win
/// rates and points efficiency, every number with a 95% confidence interval.
/// Exit codes: 0 ok, 1 balance regression (check), 2 usage or input error.
#[derive(Debug, Parser)]
#[command(name = "pointsworth", version, about, long_about, max_term_width = 100, after_help = EXAMPLES)]
pub struct Cli {
    /// Worker threads (default: all cores). Results for a seed do not depend on it.
    #[arg(long, global = true, value_name = "N")]
    pub threads: Option<usize>,

    /// Compute every result afresh: neither read nor write the result cache (`report` keeps
    /// its results in OUT/.cache/, keyed by everything they depend on, program included;
    /// `rules --sensitivity` and `matrix` use reports/.cache/ and `check` BASELINE/.cache/
    /// when it exists).
    #[arg(long, global = true)]
    pub no_cache: bool,

    /// Print tables at full width (default: fitted to the terminal, or to COLUMNS when set;
    /// output to a file or pipe is never wrapped unless COLUMNS is set).
    #[arg(long, global = true)]
    pub wide: bool,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// The main job: simulate every ruleset's cost list and write reports/RULESET/.
    ///
    /// Writes efficiency.csv/.parquet, matrix_1v1.csv, matrix_points.csv, verdict.csv,
    /// summary.json, charts (PNG and SVG), report.md and the self-contained page report.html,
    /// then reports/README.md and reports/index.html. Files are written atomically.
    Report(ReportArgs),
    /// One matchup: unit A against unit B, one each (or points-matched squads).
    ///
    /// One each, the game's value under optimal play comes first (exact, where the ruleset has
    /// the optimal-play game and the config's duel.optimal_play is on, the default), then the
    /// scripted tactic's result (Monte Carlo, or --exact) beside it with how much a best
    /// response gains against it. --set duel.optimal_play=false gives the scripted tactic alone.
    Duel(DuelArgs),
    /// All pairs of a cost list: the 1v1 matrix (under optimal play, as the report's, where the
    /// ruleset has the game) and the points-matched matrix; with --optimal, every 1v1 pair
    /// solved under optimal play and the scripted tactic's exploitability, at any distances.
    Matrix(MatrixArgs),
    /// The rules-coverage table of a ruleset: what is modeled, simplified, not modeled.
    Rules(RulesArgs),
    /// Balance regression check: re-run the report's metrics with the baseline's seed and
    /// settings and compare them with the committed reports/RULESET/summary.json.
    ///
    /// A metric is flagged when its change is statistically significant (two-proportion
    /// z-test, Holm-corrected for the number of metrics compared) and larger than
    /// --tolerance. Points efficiency and points-matched scores are fair at 50%: the check
    /// fails when the flagged efficiencies moved, net, away from 50% (with --strict: on any
    /// flagged move). Prints a Markdown summary for a pull-request comment, led by "balance
    /// improved", "got worse" or "moved".
    /// Exit codes: 0 no regression, 1 balance got worse, 2 usage or input error.
    Check(CheckArgs),
    /// Add the tallies of the N shards of a `--shard K/N` run and produce exactly what the
    /// unsharded command would have (same stdout, same files).
    Merge(MergeArgs),
    /// Full skirmishes between armies: win/draw rates, per-unit statistics, value in army.
    Skirmish(SkirmishArgs),
    /// Suggested costs: fair cost of each unit by simulation (with its 95% interval), the
    /// Lanchester estimate, a balanced cost list, Bradley–Terry strengths and Nash weights.
    ///
    /// Every evaluation plays a fixed number of trials per matchup (`--trials`, default the
    /// config's balance.trials) so prices share dice (common random numbers).
    FairCosts(FairCostsArgs),
    /// Start a rules repository here (or in --dir): the config, a quick baseline report, the
    /// pull-request workflow and a README of the edit–check loop. `pointsworth check` passes at
    /// once; refuses to overwrite files without --force.
    Init(InitArgs),
    /// Print a shell completion script, e.g. `pointsworth completions bash >
    /// ~/.local/share/bash-completion/completions/pointsworth`.
    Completions(CompletionsArgs),
    /// Print the man page (roff) to stdout, or with --out write pointsworth.1 and one page per
    /// subcommand (pointsworth-report.1, ...) into a directory.
    Man(ManArgs),
    /// Refresh README.md's example table from the committed report (after `report`).
    #[command(hide = true)]
    ReadmeExample(ReadmeExampleArgs),
}

/// `--trials`' help: its default cap, from each ruleset's config here.
fn trials_help() -> String {
    format!(
        "Trials per matchup: alone, exactly N (a fixed plan, as --shard needs); with --target-error, a cap \
         (default cap: the config's duel.max_trials; here: {})",
        crate::shipped::values_of("duel.max_trials")
    )
}

/// Flags shared by every simulating command.
#[derive(Debug, Args, Clone)]
pub struct SimArgs {
    /// Config file (default: configs/RULESET.toml in the working directory, else the built-in copy).
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,

    /// Override a config key, e.g. --set rules.fast_shot=both_dice or --set unit.snipers.cost=40.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,

    /// Master seed. The same seed gives the same numbers on any number of threads.
    #[arg(long, default_value_t = 42)]
    pub seed: u64,

    /// Trials per matchup: alone, exactly N (a fixed plan, as --shard needs); with
    /// --target-error, a cap (default: a cap of the config's duel.max_trials).
    #[arg(long, value_name = "N", help = trials_help())]
    pub trials: Option<u64>,

    /// Stop a matchup once every 95% half-width is at most E, e.g. 0.01 for ±1 point
    /// (default: the config's duel.target_error).
    #[arg(long, value_name = "E", help = crate::shipped::help_with_default(
        "Stop a matchup once every 95% half-width is at most E, e.g. 0.01 for ±1 point", "duel.target_error"))]
    pub target_error: Option<f64>,

    /// Play only the K-th of N disjoint slices of every matchup's batches and write the
    /// tallies to --tallies-out; `pointsworth merge` adds the N files into the exact result of
    /// the unsharded run. Needs --trials (the stopping rule cannot see the other shards).
    #[arg(long, value_name = "K/N", value_parser = crate::sim::shard::Shard::parse,
          requires_all = ["trials", "tallies_out"], conflicts_with = "target_error")]
    pub shard: Option<crate::sim::shard::Shard>,

    /// Where a --shard run writes its tallies (JSON).
    #[arg(long, value_name = "FILE", requires = "shard")]
    pub tallies_out: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Rulesets to report (default: those with a config in ./configs/, or all when there is no such folder).
    #[arg(value_name = "RULESET")]
    pub rulesets: Vec<String>,

    #[command(flatten)]
    pub sim: SimArgs,

    /// Output directory.
    #[arg(long, default_value = "reports", value_name = "DIR")]
    pub out: PathBuf,

    /// Also print before → after for the metrics that moved against the baseline reports in
    /// DIR (DIR/RULESET/summary.json, e.g. reports), flagged as `check` flags them.
    #[arg(long, value_name = "DIR")]
    pub baseline: Option<PathBuf>,

    /// Print what was written as JSON (each ruleset's summary.json and the index's path)
    /// instead of the tables.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct DuelArgs {
    /// Ruleset id, e.g. guns-n-grenades.
    pub ruleset: String,
    /// Unit of side A (name or kebab-case id, any case).
    pub unit_a: String,
    /// Unit of side B.
    pub unit_b: String,

    /// Start distance (inches, or cm for The Grunt Factor; default: the config's duel.distance).
    #[arg(long, value_name = "D", help = crate::shipped::help_with_default(
        "Start distance (inches, or cm for The Grunt Factor)", "duel.distance"))]
    pub distance: Option<f64>,

    /// Solve the scripted tactic's duel exactly, as a Markov chain, instead of simulating it
    /// (stand-up duels only: both units can attack at the distance).
    #[arg(long, conflicts_with = "points_matched")]
    pub exact: bool,

    /// Points-matched squads instead of one unit each (budget: the config's duel.budget).
    #[arg(long)]
    pub points_matched: bool,

    /// Solve the duel under optimal play of both sides (a zero-sum game on a grid of the
    /// table), with the scripted tactic's value and its exploitability beside it.
    #[arg(long, conflicts_with_all = ["points_matched", "exact"])]
    pub optimal: bool,

    /// With --optimal: also play the duel by the duel game's tactic portfolio (the scripted
    /// tactic, hold, keep-out, charge, best-trade, ambush) in equilibrium: every tactic against every
    /// tactic solved exactly, each side's equilibrium mix, and the most a best response can gain
    /// against it.
    #[arg(long, requires = "optimal")]
    pub portfolio: bool,

    /// With --portfolio: pin a side's tactic, a=NAME (the first unit) or b=NAME, NAME one of
    /// the portfolio's tactics: the other side's best tactic against it and its exact best
    /// response. NAME alone, or a=NAME and b=NAME, pins both: their cell.
    #[arg(long, value_name = "[SIDE=]NAME", requires = "portfolio")]
    pub tactic: Vec<String>,

    /// With --optimal or --points-matched: also play a rollout best response in GAMES Monte
    /// Carlo duels (2 to 100000; each played three times) against the scripted tactic (one
    /// each) or the squads' play (the equilibrium of their tactic game where `[duel]
    /// tactic_trials` is above 0): each side in turn picks at every round (game turn) the
    /// skirmish tactic whose playouts score best; its gain (one each: beside the exact best
    /// response's; squads: a lower bound on how exploitable their play is). Built for vsgmr and
    /// gunplay.
    #[arg(long, value_name = "GAMES", value_parser = clap::value_parser!(u64).range(2..=100_000))]
    pub rollout: Option<u64>,

    /// Playouts per tactic at each decision of --rollout (2 to 1000).
    #[arg(long, value_name = "N", default_value_t = 16, requires = "rollout",
          value_parser = clap::value_parser!(u32).range(2..=1000))]
    pub rollouts: u32,

    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,

    #[command(flatten)]
    pub sim: SimArgs,
}

#[derive(Debug, Args)]
pub struct MatrixArgs {
    /// Ruleset id, e.g. guns-n-grenades.
    pub ruleset: String,

    /// Print the matrices and the efficiency table as JSON.
    #[arg(long)]
    pub json: bool,

    /// Only the optimal-play game, nothing simulated (exact: no seed, no trials): every 1v1
    /// pair's value, and the scripted tactic's exploitability per pair, worst first, with its
    /// largest and mean, at each --distance.
    #[arg(long, conflicts_with_all = ["shard", "trials", "target_error"])]
    pub optimal: bool,

    /// With --optimal: play every pair by the duel game's tactic portfolio in equilibrium
    /// instead (every tactic against every tactic solved exactly): each pair's mixes and the
    /// most a best response can gain against them, worst first.
    #[arg(long, requires = "optimal")]
    pub portfolio: bool,

    /// Also print before → after for the metrics that moved against the baseline reports in
    /// DIR (DIR/RULESET/summary.json, e.g. reports), flagged as `check` flags them.
    #[arg(long, value_name = "DIR", conflicts_with = "optimal")]
    pub baseline: Option<PathBuf>,

    /// Start distances for --optimal (inches, or cm for The Grunt Factor; default: the
    /// config's duel.distance), comma-separated or repeated, e.g. --distance 6,12,24.
    #[arg(long, value_name = "D", value_delimiter = ',', requires = "optimal", help = crate::shipped::help_with_default(
        "Start distances for --optimal (inches, or cm for The Grunt Factor), comma-separated or repeated, \
         e.g. --distance 6,12,24", "duel.distance"))]
    pub distance: Vec<f64>,

    #[command(flatten)]
    pub sim: SimArgs,
}

#[derive(Debug, Args)]
pub struct RulesArgs {
    /// Ruleset id, e.g. guns-n-grenades.
    pub ruleset: String,

    /// Config file (default: configs/RULESET.toml in the working directory, else the built-in copy).
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,

    /// Override a config key, e.g. --set rules.self_blast=spared (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,

    /// Also play every reading switch of [rules] each way, as the report's "Which readings
    /// decide the verdicts": the 1v1 matrix under optimal play, points efficiency and quick
    /// suggested costs against the reading in force, the verdicts that flip and the rule holes.
    /// Uses the result cache of `report` (reports/.cache/) when it exists: after a report of
    /// the same config, it solves nothing again.
    #[arg(long)]
    pub sensitivity: bool,

    /// Master seed of --sensitivity's points-matched matrices (the report's default).
    #[arg(long, default_value_t = 42)]
    pub seed: u64,

    /// Print the coverage, the variants in force and the lint as one JSON object.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Rulesets to check (default: every implemented ruleset with a baseline summary.json).
    #[arg(value_name = "RULESET")]
    pub rulesets: Vec<String>,

    /// Directory holding the baseline reports (RULESET/summary.json).
    #[arg(long, default_value = "reports", value_name = "DIR")]
    pub baseline: PathBuf,

    /// Smallest change worth failing for, in percentage points of score (a draw counts ½) or efficiency.
    #[arg(long, default_value_t = 2.0, value_name = "PP")]
    pub tolerance: f64,

    /// Re-run at half the baseline's precision (twice its target error, about 4x fewer trials).
    #[arg(long)]
    pub quick: bool,

    /// Config file (default: configs/RULESET.toml here, else the built-in copy); needs exactly one RULESET.
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,

    /// Override a config key for the re-run, e.g. --set unit.riflemen.cost=24 (exactly one RULESET).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,

    /// Fail on any flagged move, toward balance or away (default: only when balance got worse).
    #[arg(long)]
    pub strict: bool,

    /// Also write the Markdown summary to this file (atomically).
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,

    /// Also write the summary as a self-contained HTML page to this file (atomically).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,

    /// Accept the current balance: rewrite the baseline with a full `report` run (baseline's seed).
    #[arg(long)]
    pub update: bool,

    /// Print the balance-change summary as JSON (verdict and flagged metrics per ruleset)
    /// instead of Markdown; the exit code is the same.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Tally files of shards 1/N .. N/N of one command, in any order.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
}

#[derive(Debug, Args)]
#[command(
    mut_arg("trials", |a| a.help(crate::shipped::help_with_default("Games per pairing of armies", "skirmish.trials"))),
    mut_arg("target_error", |a| a.hide(true)),
    mut_arg("shard", |a| a.hide(true)),
    mut_arg("tallies_out", |a| a.hide(true))
)]
pub struct SkirmishArgs {
    /// Ruleset id, e.g. guns-n-grenades (each ruleset's tactics, missions and armies are listed
    /// under --tactic, --mission and --armies below).
    pub ruleset: String,

    /// Armies: "random" (fresh random legal armies every game, the default) or two armies,
    /// side A then side B, as the ruleset reads them.
    #[arg(long, num_args = 1..=2, value_name = "random|A B", long_help = crate::rulesets::armies_help())]
    pub armies: Vec<String>,

    /// Tactic both sides play (default: the ruleset's first); a=NAME or b=NAME sets one side's.
    #[arg(long, value_name = "[SIDE=]NAME", long_help = crate::rulesets::tactics_help())]
    pub tactic: Vec<String>,

    /// Mission: the book's kind of game (default: the ruleset's basic game).
    #[arg(long, value_name = "NAME", long_help = crate::rulesets::missions_help())]
    pub mission: Option<String>,

    /// Draw one seeded battle to this SVG file: table, terrain, paths, deaths.
    #[arg(long, value_name = "FILE.svg")]
    pub replay: Option<PathBuf>,

    /// Also measure how exploitable the play is over GAMES games (2 to 100000; each played
    /// three times): a rollout best response, each side in turn picking at every round (game
    /// turn) the tactic whose playouts score best against the other side's. Built for every
    /// ruleset.
    #[arg(long, value_name = "GAMES", value_parser = clap::value_parser!(u64).range(2..=100_000))]
    pub rollout: Option<u64>,

    /// Playouts per tactic at each decision of --rollout (2 to 1000).
    #[arg(long, value_name = "N", default_value_t = 16, requires = "rollout",
          value_parser = clap::value_parser!(u32).range(2..=1000))]
    pub rollouts: u32,

    /// Print one JSON object instead of tables.
    #[arg(long)]
    pub json: bool,

    #[command(flatten)]
    pub sim: SimArgs,
}

#[derive(Debug, Args)]
pub struct InitArgs {
    /// Ruleset id, e.g. guns-n-grenades (default: all of them).
    pub ruleset: Option<String>,

    /// Directory of the new repository (created if missing).
    #[arg(long, default_value = ".", value_name = "DIR")]
    pub dir: PathBuf,

    /// Overwrite existing files.
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Args)]
#[command(
    mut_arg("trials", |a| a.help(crate::shipped::help_with_default("Trials per matchup of every evaluation", "balance.trials"))),
    mut_arg("target_error", |a| a.hide(true)),
    mut_arg("shard", |a| a.hide(true)),
    mut_arg("tallies_out", |a| a.hide(true))
)]
pub struct FairCostsArgs {
    /// Ruleset id, e.g. guns-n-grenades.
    pub ruleset: String,

    /// Write the balanced cost list as a config: a copy of the config with only the cost lines
    /// changed, e.g. configs/guns-n-grenades.balanced.toml.
    #[arg(long, value_name = "PATH")]
    pub write: Option<PathBuf>,

    /// Print the result as JSON instead of a table.
    #[arg(long)]
    pub json: bool,

    #[command(flatten)]
    pub sim: SimArgs,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell: bash, elvish, fish, powershell or zsh.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// Write the pages into this directory (created if missing) instead of printing the main page.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ReadmeExampleArgs {
    /// The report whose efficiency table the example shows.
    #[arg(long, default_value = "reports/guns-n-grenades", value_name = "DIR")]
    pub report: PathBuf,

    /// The README to rewrite between its example markers.
    #[arg(long, default_value = "README.md", value_name = "FILE")]
    pub readme: PathBuf,
}
