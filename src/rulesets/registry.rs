//! The registry: the one place outside a ruleset's folder that names it.
//!
//! Why apart from the traits ([`super::Ruleset`], [`super::skirmish::Skirmish`]): the traits
//! say what a ruleset is; this file says which rulesets there are. Adding a ruleset touches its
//! folder, its config, and one line here: its entry in [`__each_ruleset!`](crate::__each_ruleset),
//! the one list from which the [`RULESETS`] table, the [`AnyRuleset`] variant, its loader and
//! [`with_ruleset!`](crate::with_ruleset) arm, [`Concrete`] and the skirmish help tables of
//! tactics, missions and army sources are all made.
//!
//! Layer: rulesets (see [`crate::rulesets`]); imports the ruleset folders, `config`.

use std::path::{Path, PathBuf};

use super::optimal::OptimalDuel;
use super::{NotExact, Ruleset, skirmish};
use crate::config::{ConfigError, Invalid, Overrides, Source, id_of};

/// **The rulesets, one line each**: the list every other list of the registry is made from
/// ([`RULESETS`], [`AnyRuleset`], [`with_ruleset!`](crate::with_ruleset), the loader, the help
/// tables, [`Concrete`]), in the order the report and the help show them. A line is
/// `Variant: folder::Type,`; the id and title come from the type's [`Ruleset::ABOUT`].
///
/// It hands the list to a callback macro (named by path, with its own tokens in braces first),
/// which is how an exported macro can walk a list written once.
#[doc(hidden)]
#[macro_export]
macro_rules! __each_ruleset {
    ($($callback:ident)::+ { $($args:tt)* }) => {
        $($callback)::+! { { $($args)* }
            GunsNGrenades: gng::GunsNGrenades,
            ArmyMenCombat: amc::ArmyMenCombat,
            GruntFactor: grunt_factor::GruntFactor,
            Vsgmr: vsgmr::Vsgmr,
            Gunplay: gunplay::Gunplay,
        }
    };
}

/// [`with_ruleset!`](crate::with_ruleset)'s match, one arm per line of the list.
#[doc(hidden)]
#[macro_export]
macro_rules! __ruleset_dispatch {
    ({ $any:expr, $r:ident => $body:expr } $($variant:ident: $folder:ident::$ty:ident,)*) => {
        match $any {
            $( $crate::rulesets::AnyRuleset::$variant($r) => $body, )*
        }
    };
}

/// Calls generic code with the concrete ruleset: `with_ruleset!(any, r => run(r))`.
#[macro_export]
macro_rules! with_ruleset {
    ($any:expr, $r:ident => $body:expr) => {
        $crate::__each_ruleset!($crate::__ruleset_dispatch { $any, $r => $body })
    };
}

/// Everything the registry lists, from the one list.
macro_rules! registry {
    ({} $($variant:ident: $folder:ident::$ty:ident,)*) => {
        /// The rulesets pointsworth knows: id and rulebook title.
        pub const RULESETS: &[(&str, &str)] =
            &[$( (<$crate::rulesets::$folder::$ty as Ruleset>::ABOUT.id, <$crate::rulesets::$folder::$ty as Ruleset>::ABOUT.title), )*];

        /// A loaded ruleset of any kind; match on it (or [`with_ruleset!`](crate::with_ruleset))
        /// to call generic code.
        #[derive(Debug, Clone)]
        pub enum AnyRuleset {
            $( $variant($crate::rulesets::$folder::$ty), )*
        }

        /// Each ruleset's skirmish tactics, `(ruleset id, tactics)`, default first: the
        /// registry's view of every [`skirmish::Skirmish::tactics`], for help text written
        /// before any config is read.
        pub fn skirmish_tactics() -> Vec<(&'static str, &'static [skirmish::TacticInfo])> {
            vec![$( (<$crate::rulesets::$folder::$ty as Ruleset>::ABOUT.id, <$crate::rulesets::$folder::$ty as skirmish::Skirmish>::TACTICS), )*]
        }

        /// Each ruleset's skirmish missions, `(ruleset id, missions)`, the basic game first: the
        /// registry's view of every [`skirmish::Skirmish::missions`], for help text written
        /// before any config is read.
        pub fn skirmish_missions() -> Vec<(&'static str, &'static [skirmish::MissionInfo])> {
            vec![$( (<$crate::rulesets::$folder::$ty as Ruleset>::ABOUT.id, <$crate::rulesets::$folder::$ty as skirmish::Skirmish>::MISSIONS), )*]
        }

        /// Each ruleset's `--armies` source, `(ruleset id, source)`: the registry's view of
        /// every [`skirmish::Skirmish::army_source`].
        pub fn army_sources() -> Vec<(&'static str, skirmish::ArmySource)> {
            vec![$( (<$crate::rulesets::$folder::$ty as Ruleset>::ABOUT.id, <$crate::rulesets::$folder::$ty as skirmish::Skirmish>::ARMY_SOURCE), )*]
        }

        /// Parses ruleset `canonical` (a listed id) from `source`; `None` for an id not listed.
        fn load_listed(canonical: &str, source: &Source, overrides: &Overrides) -> Option<Result<AnyRuleset, ConfigError>> {
            $(
                if canonical == <$crate::rulesets::$folder::$ty as Ruleset>::ABOUT.id {
                    return Some(<$crate::rulesets::$folder::$ty>::from_source(source, overrides).map(AnyRuleset::$variant));
                }
            )*
            None
        }

        $(
            impl Concrete for $crate::rulesets::$folder::$ty {
                fn from_any(any: AnyRuleset) -> Option<Self> {
                    match any {
                        AnyRuleset::$variant(r) => Some(r),
                        _ => None,
                    }
                }
                fn from_source(source: &Source, overrides: &Overrides) -> Result<Self, ConfigError> {
                    <$crate::rulesets::$folder::$ty>::from_source(source, overrides)
                }
            }
        )*
    };
}

crate::__each_ruleset!(registry {});

/// A ruleset id that is unknown, or a config that does not load. Exit code 2.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesetError {
    #[error("unknown ruleset {name:?}; known: {}", RULESETS.iter().map(|r| r.0).collect::<Vec<_>>().join(", "))]
    Unknown { name: String },
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

/// Ids of the rulesets, in [`RULESETS`] order (every listed ruleset is implemented).
pub fn implemented() -> Vec<&'static str> {
    RULESETS.iter().map(|r| r.0).collect()
}

/// `skirmish --tactic` help: each ruleset's tactics with what they do.
pub fn tactics_help() -> String {
    let mut s = String::from(
        "Tactic both sides play (default: the ruleset's first); a=NAME or b=NAME sets one side's (the other \
         side keeps the default), as the report's tactic metagame plays them. Per ruleset:",
    );
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

impl AnyRuleset {
    /// Loads ruleset `id` from `source` with `--set` overrides applied.
    ///
    /// Errors, all exit code 2 and naming the file's line and column where there is one: a
    /// config of another ruleset (said first, before any unknown key of the other book), a
    /// bad value, or a `[duel] budget` that leaves the points-matched squads empty.
    pub fn load(id: &str, source: &Source, overrides: &Overrides) -> Result<Self, RulesetError> {
        let canonical = canonical_id(id);
        if let Some((known, _)) = RULESETS.iter().find(|r| r.0 == canonical) {
            check_ruleset_key(source, known)?;
        }
        let loaded = Self::load_known(&canonical, id, source, overrides)?;
        let units = with_ruleset!(&loaded, r => r.units().len());
        if units > MAX_UNITS {
            // At the first entry past the cap (AMC's entries are units times upgrades: at its list).
            let m = format!("the cost list has {units} units; at most {MAX_UNITS} (the matrices hold every pair)");
            return Err(source.invalid(overrides, Invalid::new(format!("unit.{MAX_UNITS}"), m)).into());
        }
        with_ruleset!(&loaded, r => check_budget(r).map_err(|e| source.invalid(overrides, e)))?;
        Ok(loaded)
    }

    fn load_known(canonical: &str, id: &str, source: &Source, overrides: &Overrides) -> Result<Self, RulesetError> {
        match load_listed(canonical, source, overrides) {
            Some(loaded) => Ok(loaded?),
            None => Err(RulesetError::Unknown { name: id.to_string() }),
        }
    }

    /// `a` against `b` under optimal play (`pointsworth duel --optimal`), through
    /// [`Ruleset::optimal_duel`]; a clear error for the rulesets that have no game yet.
    pub fn optimal_duel(&self, a: usize, b: usize, distance: f64) -> Result<OptimalDuel, NotExact> {
        with_ruleset!(self, r => r.optimal_duel(a, b, distance))
    }

    /// `a` against `b` played by the duel game's portfolio in equilibrium (`pointsworth duel
    /// --portfolio`), through [`Ruleset::portfolio_duel`].
    pub fn portfolio_duel(
        &self,
        a: usize,
        b: usize,
        distance: f64,
        mixer: super::optimal::Mixer<'_>,
    ) -> Result<super::optimal::PortfolioDuel, NotExact> {
        with_ruleset!(self, r => r.portfolio_duel(a, b, distance, mixer))
    }

    /// The rollout best response against the scripted tactic in the Monte Carlo duel of `a`
    /// against `b`, one each or points-matched squads of `budget` points (`pointsworth duel
    /// --optimal --rollout`, `duel --points-matched --rollout`), through
    /// [`Ruleset::duel_rollout`].
    #[allow(clippy::too_many_arguments)]
    pub fn duel_rollout(
        &self,
        pair: (usize, usize),
        distance: f64,
        budget: Option<f64>,
        size: (u64, u32),
        seed: u64,
        base: Option<&super::skirmish::Play>,
        progress: &indicatif::ProgressBar,
    ) -> Result<super::rollout::RolloutGain, NotExact> {
        with_ruleset!(self, r => r.duel_rollout(pair, distance, budget, size, seed, base, progress))
    }

    /// Checks a ruleset id without loading it (for errors before any file is read).
    pub fn check_id(id: &str) -> Result<&'static str, RulesetError> {
        let canonical = canonical_id(id);
        match RULESETS.iter().find(|r| r.0 == canonical) {
            None => Err(RulesetError::Unknown { name: id.to_string() }),
            Some((id, _)) => Ok(id),
        }
    }
}

/// A concrete ruleset taken back out of an [`AnyRuleset`]: generic code that holds one ruleset
/// type loads the same config under other `--set`s ("Which readings decide the verdicts") and
/// needs the result as that type.
pub trait Concrete: Sized {
    /// The ruleset inside `any` when it is of this type.
    fn from_any(any: AnyRuleset) -> Option<Self>;
    /// Parses and validates a config of this ruleset with `--set` overrides (the ruleset's own
    /// `from_source`; errors as there, exit code 2).
    fn from_source(source: &Source, overrides: &Overrides) -> Result<Self, ConfigError>;
}
