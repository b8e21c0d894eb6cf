//! Rulesets: one folder per rulebook behind three small shapes — [`Ruleset`] (units, duels,
//! exact solver, coverage, lint), [`skirmish::Skirmish`] (armies, tactics, one game) and
//! [`Ruleset::studies`] (the report sections only that book asks for, [`study`]).
//!
//! A ruleset knows dice and rules; it knows nothing of threads, files or charts. Code that runs
//! battles is generic over `R: Ruleset` so the hot loop is monomorphised (no `dyn` per roll);
//! the command line picks a ruleset through the [`AnyRuleset`] enum (like hyperfine's
//! `ExportType`). This file is the registry, the one place outside a ruleset's folder that
//! names it: adding a ruleset touches its folder, its config, and the lines here that list
//! the rulesets (the `RULESETS` table, the `AnyRuleset` variant with its `load` and
//! `with_ruleset!` arms, and the skirmish help tables of tactics, missions and army sources).

pub mod amc;
pub mod gng;
pub mod grunt_factor;
pub mod gunplay;
pub mod optimal;
pub mod vsgmr;

pub mod skirmish;
pub mod study;

use std::path::{Path, PathBuf};

use crate::analysis::{CoverageRow, LintFinding, UnitInfo};
use crate::config::{ConfigError, Invalid, Overrides, Source, id_of};
use crate::dice::Dice;

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
    /// Solve every 1v1 of the cost list under optimal play for the report's "Does the tactic
    /// play well?" section (default true; exact, so it costs time, not precision).
    #[serde(default = "yes", skip_serializing_if = "is_yes")]
    pub optimal_play: bool,
}

fn yes() -> bool {
    true
}

fn is_yes(b: &bool) -> bool {
    *b
}

impl DuelSettings {
    /// `squad_spacing` of a ruleset that validated it as used (2 in that never happens).
    pub fn spacing(&self) -> f64 {
        self.squad_spacing.unwrap_or(2.0)
    }

    /// Checks ranges; `max_distance` and `unit` ("in" or "cm") are the ruleset's, and
    /// `lines` whether its squads stand in a line `squad_spacing` apart (then the key is
    /// required; otherwise it is refused, so no config documents a setting that does
    /// nothing). The message names the `[duel]` key, the allowed range and the value found;
    /// the error carries the key for its place ([`crate::config::Source::invalid`]).
    pub fn validate(&self, max_distance: f64, unit: &str, lines: bool) -> Result<(), Invalid> {
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
        Ok(())
    }
}

/// The most start distances of `[duel] sweep_distances` (each is a matrix of the report).
pub const MAX_SWEEP_DISTANCES: usize = 20;

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

/// The rules of one game, as the engine needs them.
pub trait Ruleset: Sync + Send {
    /// Per-batch scratch space (battle buffers), reused across trials: no allocation per trial.
    type Arena: Send;

    /// Ruleset id, e.g. `guns-n-grenades`.
    fn id(&self) -> &'static str;
    /// Rulebook title, e.g. "Guns 'N Grenades v1.5".
    fn title(&self) -> &'static str;
    /// "in" or "cm".
    fn distance_unit(&self) -> &'static str {
        "in"
    }
    /// The cost list, in config order.
    fn units(&self) -> &[UnitInfo];
    /// What one side of a 1v1 is, in the book's words: "one model", "one squad"...
    fn duel_side(&self) -> &'static str {
        "one model"
    }
    /// Duel and points-matched settings.
    fn duel_settings(&self) -> &DuelSettings;
    /// Rule variants in force, `(key, value)`.
    fn variants(&self) -> Vec<(String, String)>;
    /// The rules-coverage table for the report.
    fn coverage(&self) -> Vec<CoverageRow>;

    /// The ruleset lint: printed values that look like misprints, stats no rule uses, entries
    /// the rules cannot resolve (empty by default). Shown by `pointsworth rules` and the report.
    fn lint(&self) -> Vec<LintFinding> {
        Vec::new()
    }

    /// Fresh scratch space.
    fn arena(&self) -> Self::Arena;

    /// Plays one battle: `na` copies of unit `a` against `nb` copies of unit `b`, starting
    /// `distance` apart in open ground, side A acting first if `a_first` (a ruleset whose rules
    /// roll for the first activation too, as Army Men Combat's roll-off, ignores it).
    fn play_duel<D: Dice>(
        &self,
        arena: &mut Self::Arena,
        dice: &mut D,
        a: usize,
        na: u32,
        b: usize,
        nb: u32,
        distance: f64,
        a_first: bool,
    ) -> DuelOutcome;

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

    /// The 1v1 mean score (win 1, draw ½; in [0, 1]) against start distance of every pair, on
    /// each kind of ground the ruleset distinguishes (`None`: the ruleset has no such chart).
    fn win_rate_by_distance(
        &self,
        _settings: &crate::analysis::AnalysisSettings,
        _progress: &indicatif::ProgressBar,
    ) -> Option<crate::analysis::duel_distance::WinRateByDistance> {
        None
    }

    /// The `[balance]` settings of the fair-cost solver (cost step, tolerance, trials).
    fn balance_config(&self) -> crate::analysis::balance::BalanceConfig {
        crate::analysis::balance::BalanceConfig::default()
    }

    /// The report sections only this ruleset asks for ([`study`]): VSGMR's attribute prices,
    /// Army Men Combat's upgrade table... Called by `pointsworth report` once the generic
    /// analysis and the fair costs are in `analysis`, with the run's `seed` (results are a
    /// function of the seed alone). Empty by default.
    fn studies(
        &self,
        _analysis: &crate::analysis::RulesetAnalysis,
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
    /// (the default) when the book sets none. [`crate::sim::duel::matchup_budget`] turns it
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

/// A unit name that is not in the cost list. Exit code 2.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown unit {name:?} for {ruleset}; known: {}", known.join(", "))]
pub struct UnknownUnit {
    pub name: String,
    pub ruleset: String,
    pub known: Vec<String>,
}

/// The rulesets pointsworth knows: id, rulebook title, whether it is implemented yet.
pub const RULESETS: &[(&str, &str, bool)] = &[
    ("guns-n-grenades", "Guns 'N Grenades v1.5", true),
    ("army-men-combat", "Army Men Combat v2.0", true),
    ("grunt-factor", "The Grunt Factor", true),
    ("vsgmr", "Very Simple Generic Miniatures Rules v7", true),
    ("gunplay", "Gunplay", true),
];

/// A ruleset id that is unknown or not implemented yet. Exit code 2.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesetError {
    #[error("unknown ruleset {name:?}; known: {}", RULESETS.iter().map(|r| r.0).collect::<Vec<_>>().join(", "))]
    Unknown { name: String },
    #[error("ruleset {name:?} is not implemented yet; implemented: {}", implemented().join(", "))]
    NotImplemented { name: String },
    #[error(transparent)]
    Config(#[from] ConfigError),
}

/// Short names accepted for ruleset ids.
pub const ALIASES: &[(&str, &str)] = &[
    ("gng", "guns-n-grenades"),
    ("amc", "army-men-combat"),
    ("tgf", "grunt-factor"),
    ("the-grunt-factor", "grunt-factor"),
];

/// The canonical id of a ruleset name: kebab-case, aliases resolved.
pub fn canonical_id(name: &str) -> String {
    let id = id_of(name);
    ALIASES.iter().find(|a| a.0 == id).map_or(id, |a| a.1.to_string())
}

/// Ids of the implemented rulesets.
pub fn implemented() -> Vec<&'static str> {
    RULESETS.iter().filter(|r| r.2).map(|r| r.0).collect()
}

/// Each ruleset's skirmish tactics, `(ruleset id, tactics)`, default first: the registry's
/// view of every [`skirmish::Skirmish::tactics`], for help text written before any config is
/// read.
pub fn skirmish_tactics() -> [(&'static str, &'static [skirmish::TacticInfo]); 5] {
    [
        ("guns-n-grenades", <gng::GunsNGrenades as skirmish::Skirmish>::TACTICS),
        ("army-men-combat", <amc::ArmyMenCombat as skirmish::Skirmish>::TACTICS),
        ("grunt-factor", <grunt_factor::GruntFactor as skirmish::Skirmish>::TACTICS),
        ("vsgmr", <vsgmr::Vsgmr as skirmish::Skirmish>::TACTICS),
        ("gunplay", <gunplay::Gunplay as skirmish::Skirmish>::TACTICS),
    ]
}

/// Each ruleset's skirmish missions, `(ruleset id, missions)`, the basic game first: the
/// registry's view of every [`skirmish::Skirmish::missions`], for help text written before any
/// config is read.
pub fn skirmish_missions() -> [(&'static str, &'static [skirmish::MissionInfo]); 5] {
    [
        ("guns-n-grenades", <gng::GunsNGrenades as skirmish::Skirmish>::MISSIONS),
        ("army-men-combat", <amc::ArmyMenCombat as skirmish::Skirmish>::MISSIONS),
        ("grunt-factor", <grunt_factor::GruntFactor as skirmish::Skirmish>::MISSIONS),
        ("vsgmr", <vsgmr::Vsgmr as skirmish::Skirmish>::MISSIONS),
        ("gunplay", <gunplay::Gunplay as skirmish::Skirmish>::MISSIONS),
    ]
}

/// Each ruleset's `--armies` source, `(ruleset id, source)`: the registry's view of every
/// [`skirmish::Skirmish::army_source`].
pub fn army_sources() -> [(&'static str, skirmish::ArmySource); 5] {
    [
        ("guns-n-grenades", <gng::GunsNGrenades as skirmish::Skirmish>::ARMY_SOURCE),
        ("army-men-combat", <amc::ArmyMenCombat as skirmish::Skirmish>::ARMY_SOURCE),
        ("grunt-factor", <grunt_factor::GruntFactor as skirmish::Skirmish>::ARMY_SOURCE),
        ("vsgmr", <vsgmr::Vsgmr as skirmish::Skirmish>::ARMY_SOURCE),
        ("gunplay", <gunplay::Gunplay as skirmish::Skirmish>::ARMY_SOURCE),
    ]
}

/// `skirmish --tactic` help: each ruleset's tactics with what they do.
pub fn tactics_help() -> String {
    let mut s = String::from("Tactic both sides play (default: the ruleset's first). Per ruleset:");
    for (id, tactics) in skirmish_tactics() {
        s.push_str(&format!("\n  {id}:"));
        for t in tactics {
            s.push_str(&format!("\n    {} — {}", t.name, t.description));
        }
    }
    s
}

/// `skirmish --mission` help: each ruleset's missions with what they are.
pub fn missions_help() -> String {
    let mut s =
        String::from("Mission (the book's kind of game; default: the ruleset's basic game, first). Per ruleset:");
    for (id, missions) in skirmish_missions() {
        s.push_str(&format!("\n  {id}:"));
        for m in missions {
            s.push_str(&format!("\n    {} — {}", m.name, m.description));
        }
    }
    s
}

/// `skirmish --armies` help: what each ruleset reads besides `random`.
pub fn armies_help() -> String {
    let mut s = String::from(
        "Armies: \"random\" (fresh random legal armies every game, the default) or two armies, side A then \
         side B. Per ruleset:",
    );
    for (id, src) in army_sources() {
        s.push_str(&format!("\n  {id}: two {} ({})", src.what, src.how));
    }
    s
}

/// The default config path of a ruleset: `configs/RULESET.toml`.
pub fn default_config(id: &str) -> PathBuf {
    Path::new("configs").join(format!("{id}.toml"))
}

/// The file's top-level `ruleset = "…"` key, read on its own before the typed parse, so a
/// config of another ruleset says so first rather than failing on a key the other book has.
/// A missing key or a syntax error is left to the typed parse, which reports it in full.
fn check_ruleset_key(source: &Source, id: &str) -> Result<(), ConfigError> {
    #[derive(serde::Deserialize)]
    struct Peek {
        ruleset: Option<toml::Spanned<String>>,
    }
    match toml::from_str::<Peek>(&source.text) {
        Ok(Peek { ruleset: Some(r) }) => source.expect_ruleset(&r, id),
        _ => Ok(()),
    }
}

/// `[duel] budget` must buy something: at least the cheapest unit, and at least one of more
/// than half the units (else most points-matched squads are empty and the matrix reads as
/// near-50% noise). The message names the budget, the cheapest cost and the units above it.
/// A budget at which the book's squad limit ([`Ruleset::squad_limit`]) allows none of a unit
/// (GnG: a Limited unit below 100 points) is refused too, naming those units.
pub fn check_budget<R: Ruleset>(r: &R) -> Result<(), Invalid> {
    check_budget_text(r).map_err(|m| Invalid::new("duel.budget", m))
}

fn check_budget_text<R: Ruleset>(r: &R) -> Result<(), String> {
    let budget = r.duel_settings().budget;
    let units = r.units();
    let Some(cheapest) = units.iter().min_by(|a, b| a.cost.total_cmp(&b.cost)) else { return Ok(()) };
    if budget / cheapest.cost > MAX_SQUAD {
        return Err(format!(
            "[duel] budget {budget} buys {} of {:?} ({} points): a points-matched squad may hold at most {MAX_SQUAD} \
             models; lower the budget or raise the cost",
            (budget / cheapest.cost).floor(),
            cheapest.name,
            cheapest.cost
        ));
    }
    let above: Vec<&str> = units.iter().filter(|u| u.cost > budget).map(|u| u.name.as_str()).collect();
    if budget < cheapest.cost || 2 * above.len() > units.len() {
        return Err(format!(
            "[duel] budget {budget} buys too little: the cheapest unit ({}) costs {}, and {} of {} units cost \
             more than the budget ({}); raise the budget to at least the cost of most units",
            cheapest.name,
            cheapest.cost,
            above.len(),
            units.len(),
            above.join(", ")
        ));
    }
    let none: Vec<&str> =
        (0..units.len()).filter(|&u| r.squad_limit(u, budget) == Some(0)).map(|u| units[u].name.as_str()).collect();
    if !none.is_empty() {
        return Err(format!(
            "[duel] budget {budget} allows no squad of {}: the book's squad limit \
             permits none at this budget, so every matchup of theirs would be an empty draw; raise the budget",
            none.join(", ")
        ));
    }
    Ok(())
}

/// The most units of a cost list: the matrices play every pair, so 200 units are 40000
/// matchups per matrix.
pub const MAX_UNITS: usize = 200;

/// The most models (or units) of one points-matched squad: `[duel] budget` over the cheapest
/// cost must stay within it, so a duel's squads stay a size a battle of seconds can play.
pub const MAX_SQUAD: f64 = 200.0;

/// A loaded ruleset of any kind; match on it to call generic code.
#[derive(Debug, Clone)]
pub enum AnyRuleset {
    GunsNGrenades(gng::GunsNGrenades),
    Gunplay(gunplay::Gunplay),
    Vsgmr(vsgmr::Vsgmr),
    GruntFactor(grunt_factor::GruntFactor),
    ArmyMenCombat(amc::ArmyMenCombat),
}

/// Calls generic code with the concrete ruleset: `with_ruleset!(any, r => run(r))`.
#[macro_export]
macro_rules! with_ruleset {
    ($any:expr, $r:ident => $body:expr) => {
        match $any {
            $crate::rulesets::AnyRuleset::GunsNGrenades($r) => $body,
            $crate::rulesets::AnyRuleset::Gunplay($r) => $body,
            $crate::rulesets::AnyRuleset::Vsgmr($r) => $body,
            $crate::rulesets::AnyRuleset::GruntFactor($r) => $body,
            $crate::rulesets::AnyRuleset::ArmyMenCombat($r) => $body,
        }
    };
}

impl AnyRuleset {
    /// Loads ruleset `id` from `source` with `--set` overrides applied.
    ///
    /// Errors, all exit code 2 and naming the file's line and column where there is one: a
    /// config of another ruleset (said first, before any unknown key of the other book), a
    /// bad value, or a `[duel] budget` that leaves the points-matched squads empty.
    pub fn load(id: &str, source: &Source, overrides: &Overrides) -> Result<Self, RulesetError> {
        let canonical = canonical_id(id);
        if let Some((known, _, true)) = RULESETS.iter().find(|r| r.0 == canonical) {
            check_ruleset_key(source, known)?;
        }
        let loaded = Self::load_known(&canonical, id, source, overrides)?;
        let units = with_ruleset!(&loaded, r => r.units().len());
        if units > MAX_UNITS {
            return Err(source
                .error(format!("the cost list has {units} units; at most {MAX_UNITS} (the matrices hold every pair)"))
                .into());
        }
        with_ruleset!(&loaded, r => check_budget(r).map_err(|e| source.invalid(overrides, e)))?;
        Ok(loaded)
    }

    fn load_known(canonical: &str, id: &str, source: &Source, overrides: &Overrides) -> Result<Self, RulesetError> {
        match RULESETS.iter().find(|r| r.0 == canonical) {
            None => Err(RulesetError::Unknown { name: id.to_string() }),
            Some((_, _, false)) => Err(RulesetError::NotImplemented { name: canonical.to_string() }),
            Some(("gunplay", _, _)) => Ok(AnyRuleset::Gunplay(gunplay::Gunplay::from_source(source, overrides)?)),
            Some(("vsgmr", _, _)) => Ok(AnyRuleset::Vsgmr(vsgmr::Vsgmr::from_source(source, overrides)?)),
            Some(("grunt-factor", _, _)) => {
                Ok(AnyRuleset::GruntFactor(grunt_factor::GruntFactor::from_source(source, overrides)?))
            }
            Some(("army-men-combat", _, _)) => {
                Ok(AnyRuleset::ArmyMenCombat(amc::ArmyMenCombat::from_source(source, overrides)?))
            }
            Some(_) => Ok(AnyRuleset::GunsNGrenades(gng::GunsNGrenades::from_source(source, overrides)?)),
        }
    }

    /// Checks a ruleset id without loading it (for errors before any file is read).
    pub fn check_id(id: &str) -> Result<&'static str, RulesetError> {
        let canonical = canonical_id(id);
        match RULESETS.iter().find(|r| r.0 == canonical) {
            None => Err(RulesetError::Unknown { name: id.to_string() }),
            Some((_, _, false)) => Err(RulesetError::NotImplemented { name: canonical }),
            Some((id, _, _)) => Ok(id),
        }
    }
}
