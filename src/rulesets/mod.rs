//! Rulesets: one folder per rulebook behind three small shapes — [`Ruleset`] (units, duels,
//! exact solver, coverage, lint), [`skirmish::Skirmish`] (armies, tactics, one game) and
//! [`Ruleset::studies`] (the report sections only that book asks for, [`study`]).
//!
//! A ruleset knows dice and rules; it knows nothing of threads, files or charts. Code that runs
//! battles is generic over `R: Ruleset` so the hot loop is monomorphised (no `dyn` per roll);
//! the command line picks a ruleset through the [`AnyRuleset`] enum (like hyperfine's
//! `ExportType`).
//!
//! Besides the folders, this layer owns:
//! - the traits ([`Ruleset`] here, [`skirmish::Skirmish`]) and the duel vocabulary beside them;
//! - [`book`]: what every ruleset is ([`About`]: id, title, distance unit, readings, coverage)
//!   and holds ([`Book`]: rules, duel and balance settings, cost list), over which [`Ruleset`]
//!   answers its accessors by default, and the config-loading steps the folders share;
//! - [`contract`]: the words a ruleset speaks to the layers above (unit info, coverage rows,
//!   lint findings, the `[balance]` table);
//! - [`registry`]: the one place outside a ruleset's folder that names it, in one list from
//!   which the `RULESETS` table, [`AnyRuleset`], `with_ruleset!` and the help tables are made
//!   (and `check_budget`);
//! - [`engine`]: the interface through which a study reaches simulation and solving, which
//!   the analysis layer implements and passes in, and the solver's settings and answers;
//! - [`study`]: a study's finished report section; [`optimal`]: the duel as a zero-sum game,
//!   plumbing shared by the folders; [`tactic`]: the shape of every folder's `tactics/`.
//!
//! **Every folder has the same template**, each file present when the ruleset has the
//! concept: `mod.rs` (units, config, the `Ruleset` impl), `rules.rs` (the book, one function
//! per rule step), `exact.rs` (Markov chains of the scripted duel), `optimal.rs` (the duel as a
//! game), `tactics/` (the ruleset's `Tactic` trait and one file per tactic), `skirmish/`
//! (set-up, turn loop, combat), `coverage.rs` (the rules-coverage table and lint), `study.rs`
//! (the studies only that book asks for). A folder's other files sit below the template file
//! whose concept they serve (`skirmish/army.rs`, `study/prices.rs`, `coverage/lint.rs`,
//! `tactics/doctrine.rs`...), so the top of every folder reads the same.
//!
//! **A new tactic is one file and one line**: `tactics/NAME.rs` with its `impl Tactic` and
//! `ENTRY`, and `NAME` added to the folder's `portfolio!` line ([`tactic`]); the skirmish, its
//! `--tactic` list, the help and the report's tactic tables pick it up from the portfolio.
//! **A new report section is one file and one line** (`crate::report`). **A new ruleset is one
//! folder and one line**: its folder (the template above, with its `Ruleset` and `Skirmish`
//! impls), and its line `Variant: folder::Type,` in the registry's list ([`registry`]), from
//! which the `RULESETS` table, the [`AnyRuleset`] variant, its loader and `with_ruleset!` arm
//! and the help tables are made; beside them, the folder's `pub mod` here and its shipped config
//! (`configs/ID.toml`, embedded by `crate::shipped`).
//!
//! Layer: below the engine (`sim`, and the analysis above it), above the bottom. A file here
//! may import `dice`, `stats`, `config`, `seed`, `format`, the table geometry of `battle` (which
//! itself imports only `dice` and `plot`) and other files of this layer; never `sim`,
//! `analysis`, `report` or `commands`: what a study needs from them comes in through
//! [`engine::Engine`], and the engine's own tests of each ruleset live with the engine
//! (`sim::ruleset_tests`, `analysis::engine`).

pub mod amc;
pub mod book;
pub mod chain;
pub mod contract;
pub mod engine;
pub mod gng;
pub mod grunt_factor;
pub mod gunplay;
pub mod optimal;
pub mod registry;
pub mod rollout;
pub mod vsgmr;

pub mod skirmish;
pub mod study;
pub mod tactic;

use crate::config::{Invalid, id_of};
use crate::dice::Dice;
pub use book::{About, Book};
pub use contract::{BalanceConfig, Coverage, CoverageRow, LintFinding, Reading, UnitInfo};
pub use registry::{
    ALIASES, AnyRuleset, Concrete, RULESETS, RulesetError, armies_help, army_sources, canonical_id, check_budget,
    default_config, implemented, missions_help, skirmish_missions, skirmish_tactics, tactics_help,
};

/// Which side: A (the row unit, index 0) or B (the column unit, index 1).
pub type Side = usize;
pub const A: Side = 0;
pub const B: Side = 1;

/// Settings of stand-up duels and points-matched squads, from a config's `[duel]` table.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DuelSettings {
    /// Start distance between the sides, in the ruleset's distance unit (inches or cm).
    pub distance: f64,
    /// Points per side for points-matched squads.
    pub budget: f64,
    /// Distance between neighbours in a squad's line, same unit as `distance`; only for the
    /// rulesets whose squads stand in a line (see [`DuelSettings::validate`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub squad_spacing: Option<f64>,
    /// Rounds (each side one turn) after which a duel is a draw.
    pub max_rounds: u32,
    /// Stop a matchup once every 95% half-width is at most this (probability units).
    pub target_error: f64,
    /// Trial cap per matchup.
    pub max_trials: u64,
    /// Start distances for the efficiency-by-distance sweep (empty: no sweep).
    #[serde(default)]
    pub sweep_distances: Vec<f64>,
    /// Target 95% half-width per matchup in the sweep (default: twice `target_error`).
    #[serde(default)]
    pub sweep_target_error: Option<f64>,
    /// Solve every 1v1 of the cost list under optimal play (default true; exact, so it costs
    /// time, not precision): the report's 1v1 matrix and 1v1 mean scores are then the game's
    /// value, and its "Does the tactic play well?" section is written; false plays the 1v1
    /// matrix by the scripted tactic and leaves the section out.
    #[serde(default = "yes", skip_serializing_if = "is_yes")]
    pub optimal_play: bool,
    /// How many points-matched pairs the report plays a rollout best response in (issue 41,
    /// "squads"): the pairs whose 1v1 scripted tactic the exact best response exploits most at
    /// `distance`; 0 (the default) plays none, and so does a run without optimal play (which
    /// chooses the pairs). Only where the ruleset's duel is played round by round
    /// ([`Ruleset::duel_rollout_built`]).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rollout_pairs: u32,
    /// Duels per pair of that rollout (each played three times), 2 to 100000; `None` (left
    /// out): [`DuelSettings::rollout_games`]'s default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rollout_games: Option<u64>,
    /// Playouts per tactic at each round of that rollout, 2 to 1000; `None`:
    /// [`DuelSettings::rollout_playouts`]'s default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rollout_playouts: Option<u32>,
    /// Duels per cell of the points-matched squads' tactic game (issue 41, "Equilibrium per
    /// matchup"; `crate::analysis::squads_game`): each side picks a tactic of
    /// [`Ruleset::squad_tactics`] for every pair of the cost list, double oracle, and the
    /// points-matched matrix, efficiency and fair costs play its equilibrium; 0 (the default)
    /// plays none (the squads play the scripted tactic); at most 1000000. Only where the ruleset has squad tactics
    /// (vsgmr and gunplay; the same rulesets as the `rollout_*` keys).
    #[serde(default, skip_serializing_if = "is_zero_u64")]
    pub tactic_trials: u64,
}

fn is_zero_u64(n: &u64) -> bool {
    *n == 0
}

fn yes() -> bool {
    true
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn is_yes(b: &bool) -> bool {
    *b
}

impl DuelSettings {
    /// `squad_spacing` of a ruleset that validated it as used (2 in that never happens).
    pub fn spacing(&self) -> f64 {
        self.squad_spacing.unwrap_or(2.0)
    }

    /// Duels per pair of the squads' rollout: `rollout_games`, 200 when left out.
    pub fn rollout_games(&self) -> u64 {
        self.rollout_games.unwrap_or(200)
    }

    /// Playouts per tactic at each round of the squads' rollout: `rollout_playouts`, 16 when
    /// left out.
    pub fn rollout_playouts(&self) -> u32 {
        self.rollout_playouts.unwrap_or(16)
    }

    /// Checks ranges; `max_distance` and `unit` ("in" or "cm") are the ruleset's, and
    /// `lines` whether its squads stand in a line `squad_spacing` apart (then the key is
    /// required; otherwise it is refused, so no config documents a setting that does
    /// nothing); `rollout` whether its duel has a rollout best response and squad tactics
    /// (else its three `rollout_*` keys and `tactic_trials` are refused). The message names the `[duel]` key, the allowed range and the value found;
    /// the error carries the key for its place ([`crate::config::Source::invalid`]).
    pub fn validate(&self, max_distance: f64, unit: &str, lines: bool, rollout: bool) -> Result<(), Invalid> {
        let bad = |key: &str, m: String| Err(Invalid::new(format!("duel.{key}"), m));
        if !(self.distance > 0.0 && self.distance <= max_distance) {
            return bad(
                "distance",
                format!("[duel] distance must be more than 0 and at most {max_distance} {unit}, got {}", self.distance),
            );
        }
        if !(self.budget > 0.0 && self.budget <= 5000.0) {
            return bad(
                "budget",
                format!("[duel] budget must be more than 0 and at most 5000 points, got {}", self.budget),
            );
        }
        match (self.squad_spacing, lines) {
            (None, true) => {
                return bad("squad_spacing", format!("[duel] squad_spacing is missing: give 0.5 to 50 {unit}"));
            }
            (Some(_), false) => {
                return bad(
                    "squad_spacing",
                    "[duel] squad_spacing is not used by this ruleset (its squads deploy by its own rules): remove it"
                        .to_string(),
                );
            }
            (Some(s), true) if !(0.5..=50.0).contains(&s) => {
                return bad("squad_spacing", format!("[duel] squad_spacing must be 0.5 to 50 {unit}, got {s}"));
            }
            _ => {}
        }
        if !(1..=10_000).contains(&self.max_rounds) {
            return bad("max_rounds", format!("[duel] max_rounds must be 1 to 10000, got {}", self.max_rounds));
        }
        if !(self.target_error > 0.0 && self.target_error < 0.5) {
            return bad("target_error", format!("[duel] target_error must be in (0, 0.5), got {}", self.target_error));
        }
        if !(100..=100_000_000).contains(&self.max_trials) {
            return bad("max_trials", format!("[duel] max_trials must be 100 to 100000000, got {}", self.max_trials));
        }
        let d = &self.sweep_distances;
        if d.len() > MAX_SWEEP_DISTANCES || d.iter().any(|x| !(*x > 0.0 && *x <= max_distance)) {
            return bad(
                "sweep_distances",
                format!(
                    "[duel] sweep_distances must list at most {MAX_SWEEP_DISTANCES} distances, each more than 0 and at \
                     most {max_distance} {unit}, got {d:?}"
                ),
            );
        }
        if let Some(e) = self.sweep_target_error.filter(|e| !(*e > 0.0 && *e < 0.5)) {
            return bad("sweep_target_error", format!("[duel] sweep_target_error must be in (0, 0.5), got {e}"));
        }
        let given = [
            ("rollout_pairs", self.rollout_pairs > 0),
            ("rollout_games", self.rollout_games.is_some()),
            ("rollout_playouts", self.rollout_playouts.is_some()),
            ("tactic_trials", self.tactic_trials > 0),
        ];
        if let Some((key, _)) = given.iter().find(|(_, given)| *given && !rollout) {
            return bad(
                key,
                format!(
                    "[duel] {key}: the squads' rollout best response and tactic game are built for vsgmr and \
                     gunplay only (their duels are played round by round, by any of their tactics): remove it"
                ),
            );
        }
        if self.tactic_trials > 1_000_000 {
            return bad(
                "tactic_trials",
                format!("[duel] tactic_trials must be 0 to 1000000, got {}", self.tactic_trials),
            );
        }
        if self.rollout_pairs > 1000 {
            return bad("rollout_pairs", format!("[duel] rollout_pairs must be 0 to 1000, got {}", self.rollout_pairs));
        }
        if let Some(g) = self.rollout_games.filter(|g| !(2..=100_000).contains(g)) {
            return bad("rollout_games", format!("[duel] rollout_games must be 2 to 100000, got {g}"));
        }
        if let Some(p) = self.rollout_playouts.filter(|p| !(2..=1000).contains(p)) {
            return bad("rollout_playouts", format!("[duel] rollout_playouts must be 2 to 1000, got {p}"));
        }
        Ok(())
    }
}

/// The most start distances of `[duel] sweep_distances` (each is a matrix of the report).
pub const MAX_SWEEP_DISTANCES: usize = 20;

/// The size of a points-matched squad of a unit costing `cost` points bought with `budget`
/// points, given a uniform draw `u` in [0, 1): ⌊budget / cost⌋ copies plus one more with
/// probability (budget mod cost) / cost, so the expected spend equals the budget.
#[inline]
pub fn points_matched_size(budget: f64, cost: f64, u: f64) -> u32 {
    let whole = (budget / cost).floor();
    let frac = budget / cost - whole;
    whole as u32 + (u < frac) as u32
}

/// The points each side spends in a points-matched matchup of units `units` priced `costs`
/// (points, each > 0) in a game of `budget` points: the largest amount up to `budget` that both
/// sides can field legally, i.e. `budget` lowered to `limit × cost` of each side whose
/// [`Ruleset::squad_limit`] caps its squad below the budget (RULINGS.md, "Limited in
/// points-matched squads": both sides spend the same). A capped squad then holds exactly its
/// limit, and the other side is bought with the same points. The limit counts at `budget`.
pub fn matchup_budget<R: Ruleset>(r: &R, units: [usize; 2], costs: [f64; 2], budget: f64) -> f64 {
    (0..2).filter_map(|s| r.squad_limit(units[s], budget).map(|n| n as f64 * costs[s])).fold(budget, f64::min)
}

/// One battle of [`Ruleset::play_duel`]: `na` copies of unit `a` (side A) against `nb` copies of
/// unit `b` (side B), starting `distance` apart (the ruleset's distance unit) in open ground,
/// side A acting first if `a_first`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DuelSetup {
    /// Side A's unit (index into the cost list) and its copies.
    pub a: usize,
    pub na: u32,
    /// Side B's unit and its copies.
    pub b: usize,
    pub nb: u32,
    /// Start distance, in the ruleset's distance unit (inches or cm).
    pub distance: f64,
    /// Whether side A acts first (a ruleset whose rules roll for the first activation too, as
    /// Army Men Combat's roll-off, ignores it).
    pub a_first: bool,
    /// Each side's tactic, side A first: an index into [`Ruleset::squad_tactics`] (0, the
    /// scripted tactic, everywhere but the points-matched squads' tactic game; a ruleset with
    /// no squad tactics is only ever passed `[0, 0]`).
    pub tactics: [usize; 2],
}

/// How one battle between two squads ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DuelOutcome {
    /// `Some(A)`, `Some(B)`, or `None` for a draw.
    pub winner: Option<Side>,
    /// Turns played (one side's activations each).
    pub turns: u32,
    /// Enemy units each side destroyed.
    pub kills: [u32; 2],
}

/// Exact outcome probabilities of a stand-up duel, averaged over who goes first.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExactDuel {
    pub a_wins: f64,
    pub b_wins: f64,
    pub draws: f64,
    /// Expected number of turns.
    pub mean_turns: f64,
}

/// Why a duel has no exact solution.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NotExact(pub String);

/// Why `duel --rollout` is refused for the ruleset `id` ([`Ruleset::duel_rollout`]'s default).
pub fn duel_rollout_not_built(id: &str) -> NotExact {
    NotExact(format!(
        "--rollout is not built for {id} yet: its duel is not played round by round (it is for vsgmr and gunplay)"
    ))
}

/// The rules of one game, as the engine needs them.
///
/// A ruleset says what it is in [`Ruleset::ABOUT`] and holds a [`Book`] ([`Ruleset::book`]);
/// the accessors of both (id, title, distance unit, readings, coverage; units, duel and balance
/// settings, variants) and a fresh [`Ruleset::Arena`] are default methods over them, so an
/// implementation writes only what its rules make different.
pub trait Ruleset: Sync + Send {
    /// Per-batch scratch space (battle buffers), reused across trials: no allocation per trial.
    type Arena: Send + Default;
    /// The `[rules]` table of its book ([`Book::rules`]); its keys and values are the variants.
    type Rules: serde::Serialize;
    /// Its id, title, distance unit, duel side, reading switches and coverage table.
    const ABOUT: About;

    /// The rules in force, the `[duel]` and `[balance]` settings and the cost list.
    fn book(&self) -> &Book<Self::Rules>;

    /// Ruleset id, e.g. `guns-n-grenades` ([`About::id`]).
    fn id(&self) -> &'static str {
        Self::ABOUT.id
    }
    /// Rulebook title, e.g. "Guns 'N Grenades v1.5" ([`About::title`]).
    fn title(&self) -> &'static str {
        Self::ABOUT.title
    }
    /// "in" or "cm" ([`About::distance_unit`]).
    fn distance_unit(&self) -> &'static str {
        Self::ABOUT.distance_unit
    }
    /// The cost list, in config order ([`Book::units`]).
    fn units(&self) -> &[UnitInfo] {
        &self.book().units
    }
    /// What one side of a 1v1 is, in the book's words: "one model", "one squad"...
    /// ([`About::duel_side`]).
    fn duel_side(&self) -> &'static str {
        Self::ABOUT.duel_side
    }
    /// Duel and points-matched settings ([`Book::duel`]).
    fn duel_settings(&self) -> &DuelSettings {
        &self.book().duel
    }
    /// Rule variants in force, `(key, value)`: the keys and values of [`Book::rules`].
    fn variants(&self) -> Vec<(String, String)> {
        crate::config::variants_of(&self.book().rules)
    }
    /// The reading switches of the `[rules]` table, each with its values, default first
    /// ([`About::readings`]): the rules the report's "Which readings decide the verdicts" plays
    /// both ways.
    fn readings(&self) -> &'static [Reading] {
        Self::ABOUT.readings
    }
    /// The rules-coverage table for the report ([`About::coverage`]).
    fn coverage(&self) -> Vec<CoverageRow> {
        (Self::ABOUT.coverage)()
    }

    /// The ruleset lint: printed values that look like misprints, stats no rule uses, entries
    /// the rules cannot resolve (empty by default). Shown by `pointsworth rules` and the report.
    fn lint(&self) -> Vec<LintFinding> {
        Vec::new()
    }

    /// Fresh scratch space (its `Default`).
    fn arena(&self) -> Self::Arena {
        Self::Arena::default()
    }

    /// Plays one battle, `duel` ([`DuelSetup`]: the units, their copies, the start distance and
    /// who acts first), with scratch space `arena` and `dice`.
    fn play_duel<D: Dice>(&self, arena: &mut Self::Arena, dice: &mut D, duel: DuelSetup) -> DuelOutcome;

    /// The tactics a duel or a points-matched squad battle ([`Ruleset::play_duel`]) can be
    /// played by, the scripted tactic first ([`DuelSetup::tactics`] indexes them): the
    /// portfolio of the squads' tactic game (`crate::analysis::squads_game`). Empty (the
    /// default): the ruleset's duel plays its scripted tactic only.
    fn squad_tactics(&self) -> &'static [crate::rulesets::skirmish::TacticInfo] {
        &[]
    }

    /// Everything of the loaded ruleset a duel, a squad battle or a solve can depend on, as
    /// text (its `Debug`), for the result cache's keys (`crate::cache`: it blanks the `cost:`
    /// fields itself, and adds the pair, prices and settings of each result); `None` (the
    /// default): results of this ruleset are not cached. Must not change while the ruleset is
    /// in use (leave out lazily built scratch such as VSGMR's skirmish field).
    fn cache_fingerprint(&self) -> Option<String> {
        None
    }

    /// Whether a one-against-one result — the exact duel, the optimal-play game's scripted
    /// tactic and the best responses against it — can depend on the two units' costs, as where
    /// a scripted tactic weighs points (Army Men Combat's doctrine). The result cache then keys
    /// those results by the pair's two list prices as well ([`crate::sim::pair_key`]); a
    /// both-sides-optimal score never depends on them. Default: true, the safe answer; a
    /// ruleset that answers false has a test that changing a cost moves none of them.
    fn duel_reads_costs(&self) -> bool {
        true
    }

    /// The exact result of a one-against-one stand-up duel at `distance`, averaged over who
    /// goes first; `Err` says why there is none (movement needed, no solver...).
    fn exact_duel(&self, _a: usize, _b: usize, _distance: f64) -> Result<ExactDuel, NotExact> {
        Err(NotExact(format!("{} has no exact solver", self.id())))
    }

    /// One-against-one at `distance` under optimal play (DESIGN.md, "Optimal play and
    /// exploitability"): the zero-sum game's value with the scripted tactic and both best
    /// responses beside it ([`optimal::analyse`]). `Err` says why there is none (the default:
    /// the ruleset has no game yet).
    fn optimal_duel(&self, _a: usize, _b: usize, _distance: f64) -> Result<optimal::OptimalDuel, NotExact> {
        Err(NotExact(format!("--optimal is not available for {} yet", self.id())))
    }

    /// Whether the one-against-one game of units `a` and `b` under `other` (the same cost list
    /// loaded under another reading of a `[rules]` switch) is the game it is under `self`, so
    /// one solve stands for both ("Which readings decide the verdicts" solves only the pairs a
    /// reading can touch). The default, `false`, solves again.
    fn same_duel(&self, _other: &Self, _a: usize, _b: usize) -> bool
    where
        Self: Sized,
    {
        false
    }

    /// One-against-one at `distance` played by the duel game's tactic portfolio in
    /// equilibrium ([`optimal::portfolio`]): every tactic-against-tactic cell solved exactly,
    /// the mixes `mixer` finds, and the best responses that bound their exploitability. `Err`
    /// says why there is none (the default: the ruleset has no game yet; or the mixer's).
    fn portfolio_duel(
        &self,
        _a: usize,
        _b: usize,
        _distance: f64,
        _mixer: optimal::Mixer<'_>,
    ) -> Result<optimal::PortfolioDuel, NotExact> {
        Err(NotExact(format!("--portfolio is not available for {} yet", self.id())))
    }

    /// Whether [`Ruleset::duel_rollout`] is built for the ruleset (its duel is played round by
    /// round): false by default, so a command can refuse `--rollout` before it solves anything.
    fn duel_rollout_built(&self) -> bool {
        false
    }

    /// The book's word for one stage of the duel, at each of which [`Ruleset::duel_rollout`]'s
    /// responding side picks its tactic, singular: "round" by default (VSGMR v7, section II);
    /// Gunplay "game turn" ("Turn Sequence").
    fn duel_stage(&self) -> &'static str {
        "round"
    }

    /// The rollout best response of each side against the base play `base` in the Monte Carlo
    /// duel of `a` against `b` starting `distance` apart ([`rollout`]), one each (`budget`
    /// `None`) or points-matched squads bought with `budget` points: `(games, playouts per
    /// tactic)`, seeded from `seed`; `progress` advances one per duel (the caller sets its
    /// length). `base`: each side's mix over [`Ruleset::squad_tactics`] that each duel draws its
    /// tactic from (the squads' equilibrium, side A first); `None`: the scripted tactic on both
    /// sides. `Err` says why there is none (the default: the ruleset's duel is not played in
    /// stages yet, [`duel_rollout_not_built`]).
    #[allow(clippy::too_many_arguments)]
    fn duel_rollout(
        &self,
        _pair: (usize, usize),
        _distance: f64,
        _budget: Option<f64>,
        _size: (u64, u32),
        _seed: u64,
        _base: Option<&skirmish::Play>,
        _progress: &indicatif::ProgressBar,
    ) -> Result<rollout::RolloutGain, NotExact> {
        Err(duel_rollout_not_built(self.id()))
    }

    /// Only the both-sides-optimal value of [`Ruleset::optimal_duel`] (its `optimal`: A's win,
    /// loss and draw chances in [0, 1]), for the report's 1v1 matrix where the other three
    /// solves are not wanted (`check`, `matrix`): one solve of four, the same bits as
    /// [`Ruleset::optimal_duel`]'s ([`optimal::optimal_value`]); the default solves all four and
    /// keeps that one.
    fn optimal_value(&self, a: usize, b: usize, distance: f64) -> Result<optimal::GameValue, NotExact> {
        self.optimal_duel(a, b, distance).map(|o| o.optimal)
    }

    /// [`Ruleset::optimal_score`] at each of `distances` (the ruleset's unit), in order: the
    /// same bits, from fewer solves where the game allows ([`optimal::game::optimal_scores_at`]:
    /// one per family of start distances on the same line); the default solves each.
    fn optimal_scores_at(&self, a: usize, b: usize, distances: &[f64]) -> Vec<Result<f64, NotExact>> {
        distances.iter().map(|&d| self.optimal_score(a, b, d)).collect()
    }

    /// Only A's score (in [0, 1], win 1, draw ½) of [`Ruleset::optimal_duel`] with both sides
    /// optimal: one solve of four, of the advantage alone (measured within 1e-12 of the score
    /// [`Ruleset::optimal_duel`] gives; [`optimal::optimal_score`]); the default solves all four
    /// and keeps that score.
    fn optimal_score(&self, a: usize, b: usize, distance: f64) -> Result<f64, NotExact> {
        self.optimal_duel(a, b, distance).map(|o| o.optimal.a_score())
    }

    /// The grounds and start distances of the 1v1 mean score by distance chart (every pair's
    /// mean score, win 1 and draw ½, against start distance on each kind of ground the ruleset
    /// distinguishes); `None` (the default): the ruleset has no such chart.
    fn distance_grounds(&self) -> Option<DistanceGrounds<Self>>
    where
        Self: Sized,
    {
        None
    }

    /// The `[balance]` settings of the fair-cost solver (cost step, tolerance, trials;
    /// [`Book::balance`]).
    fn balance_config(&self) -> BalanceConfig {
        self.book().balance.clone()
    }

    /// The report sections only this ruleset asks for ([`study`]): VSGMR's attribute prices,
    /// Army Men Combat's upgrade table... Called by `pointsworth report` once the generic
    /// analysis and the fair costs are done (`found`), with the run's `seed` (results are a
    /// function of the seed alone); simulation and solving go through `engine`, which the layer
    /// above passes in ([`engine`]). Empty by default.
    fn studies<E: engine::Engine>(
        &self,
        _engine: &E,
        _found: &engine::Findings,
        _seed: u64,
        _progress: &indicatif::ProgressBar,
    ) -> Vec<study::Study> {
        Vec::new()
    }

    /// Lanchester terms of unit `i` against unit `j` (square law, DESIGN.md "Analysis"):
    /// `(F, H)` with F the expected hits one activation of `i` scores on `j`, and H the hits of
    /// `j`'s attacks needed to destroy `i`. `None` (the default) when the ruleset has none.
    fn lanchester(&self, _i: usize, _j: usize) -> Option<(f64, f64)> {
        None
    }

    /// The most copies of unit `unit` a points-matched squad may hold in a game of `budget`
    /// points (the config's `[duel] budget`), from the book's army-building limits; `None`
    /// (the default) when the book sets none. [`matchup_budget`] turns it
    /// into the points both squads of a matchup spend (RULINGS.md, "Limited in points-matched
    /// squads").
    fn squad_limit(&self, _unit: usize, _budget: f64) -> Option<u32> {
        None
    }

    /// Finds a unit by name or kebab-case id, case-insensitively.
    ///
    /// Errors list the known units: `unknown unit "sniper" for guns-n-grenades; known: ...`.
    fn find_unit(&self, name: &str) -> Result<usize, UnknownUnit> {
        let want = id_of(name);
        self.units().iter().position(|u| u.id == want).ok_or_else(|| UnknownUnit {
            name: name.to_string(),
            ruleset: self.id().to_string(),
            known: self.units().iter().map(|u| u.name.clone()).collect(),
        })
    }
}

/// The grounds of the 1v1 mean score by distance chart ([`Ruleset::distance_grounds`]).
#[derive(Debug, Clone)]
pub struct DistanceGrounds<R> {
    /// Each ground's label ("open", "some cover"...) with the ruleset configured for it (the
    /// same units in the same order).
    pub grounds: Vec<(String, R)>,
    /// Start distances, ascending, in the ruleset's distance unit.
    pub distances: Vec<f64>,
}

/// A unit name that is not in the cost list. Exit code 2.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown unit {name:?} for {ruleset}; known: {}", known.join(", "))]
pub struct UnknownUnit {
    pub name: String,
    pub ruleset: String,
    pub known: Vec<String>,
}
