//! The book every ruleset loads: what the five rulesets hold alike (the `[rules]` table, the
//! `[duel]` and `[balance]` settings, the cost list: [`Book`]), what each is before any config
//! is read (its id, title, distance unit, reading switches, coverage table: [`About`]), and the
//! config-loading steps they share (reading the config and its `--set rules.*` and `duel.*`, a
//! unit's name and id, its `--set unit.ID.cost`, the checks of a finished cost list).
//!
//! Why: [`Ruleset`](super::Ruleset) answers `id`, `title`, `units`, `duel_settings`,
//! `balance_config`, `variants`, `coverage`... as default methods over
//! [`Ruleset::ABOUT`](super::Ruleset::ABOUT) and [`Ruleset::book`](super::Ruleset::book), so a
//! ruleset writes only what differs (as shakmaty's `Position` keeps a variant's rules as
//! overrides of defaults). A ruleset's own tables (profiles, weapons, armies...) stay beside
//! its book in its folder.
//!
//! Layer: rulesets (see [`crate::rulesets`]); imports only `config`, `toml` and the rulesets'
//! contract and skirmish checks.

use serde::Serialize;
use serde::de::DeserializeOwned;
use toml::Spanned;

use crate::config::{ConfigError, Invalid, Origin, Overrides, Source, new_id};
use crate::rulesets::skirmish::check_army_size;
use crate::rulesets::{BalanceConfig, CoverageRow, DuelSettings, Reading, UnitInfo};

/// A ruleset's config file as written (`RawConfig`, private to its `mod.rs`): the keys every
/// ruleset has first — `ruleset`, `[rules]` (the folder's `RulesConfig`), `[duel]`
/// ([`DuelSettings`]) — then the ruleset's own fields in the order given, attributes and all.
/// Unknown keys are refused (`deny_unknown_fields`); serde's "expected one of" lists the keys
/// in this order. `RawConfig::read(source, overrides, keys)` reads it with [`read_config`],
/// which applies `--set rules.*` and `duel.*`, then applies the `--set`s of the tables named
/// after `set:` (`set: [balance, skirmish];` takes `--set balance.KEY=VALUE` and
/// `--set skirmish.KEY=VALUE`), in that order; their checks stay with the ruleset.
macro_rules! raw_config {
    (set: [$($set:ident),* $(,)?]; $($(#[$attr:meta])* $field:ident: $ty:ty),* $(,)?) => {
        #[derive(Debug, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        struct RawConfig {
            ruleset: toml::Spanned<String>,
            rules: RulesConfig,
            duel: $crate::rulesets::DuelSettings,
            $($(#[$attr])* $field: $ty,)*
        }

        impl RawConfig {
            /// [`read_config`](crate::rulesets::book::read_config) of this ruleset's config.
            fn read(
                source: &crate::config::Source,
                overrides: &crate::config::Overrides,
                keys: crate::rulesets::book::ConfigKeys,
            ) -> Result<Self, crate::config::ConfigError> {
                let mut raw = crate::rulesets::book::read_config(source, overrides, keys, |r: &mut RawConfig| {
                    (&r.ruleset, &mut r.rules, &mut r.duel)
                })?;
                $( overrides.apply_section(stringify!($set), &mut raw.$set)?; )*
                Ok(raw)
            }
        }
    };
}
pub(crate) use raw_config;

/// What a ruleset is before any config is read ([`Ruleset::ABOUT`](super::Ruleset::ABOUT)).
#[derive(Clone, Copy)]
pub struct About {
    /// Ruleset id, e.g. `guns-n-grenades`.
    pub id: &'static str,
    /// Rulebook title, e.g. "Guns 'N Grenades v1.5".
    pub title: &'static str,
    /// The unit of every distance of the ruleset: "in" or "cm".
    pub distance_unit: &'static str,
    /// What one side of a 1v1 is, in the book's words: "one model", "one squad"...
    pub duel_side: &'static str,
    /// The reading switches of the `[rules]` table, each with its values, default first.
    pub readings: &'static [Reading],
    /// The rules-coverage table for the report.
    pub coverage: fn() -> Vec<CoverageRow>,
}

impl About {
    /// A ruleset `id` titled `title` with its rules-coverage table `coverage`; distances in
    /// inches, "one model" a side, no reading switch (change these with `..About::new(...)`).
    pub const fn new(id: &'static str, title: &'static str, coverage: fn() -> Vec<CoverageRow>) -> About {
        About { id, title, distance_unit: "in", duel_side: "one model", readings: &[], coverage }
    }
}

/// What a loaded ruleset holds alike: its rules in force, its duel and balance settings and its
/// cost list. `R` is the ruleset's `[rules]` table (its keys and values are the variants the
/// report prints).
#[derive(Debug, Clone)]
pub struct Book<R> {
    /// The `[rules]` table: readings and open numbers of the rulebook.
    pub rules: R,
    /// The `[duel]` table: start distance, budget, round cap, precision.
    pub duel: DuelSettings,
    /// The `[balance]` table: settings of the fair-cost solver.
    pub balance: BalanceConfig,
    /// The cost list (the matrix rows), in config order.
    pub units: Vec<UnitInfo>,
}

/// The `ruleset` key a ruleset's config must carry and the sections its `--set` keys may
/// name, e.g. `rules`, `duel`, `unit`, `balance`, `skirmish` ([`read_config`]).
#[derive(Debug, Clone, Copy)]
pub struct ConfigKeys {
    /// The ruleset id the config's `ruleset` key must give.
    pub ruleset: &'static str,
    /// The first part of every key `--set` may change (`SECTION.KEY`).
    pub sections: &'static [&'static str],
}

/// The steps every ruleset's config loading starts with, in this order: refuses a `--set` key
/// outside `keys.sections`, parses `source` into the raw config `T`, checks its `ruleset` key
/// is `keys.ruleset`, and applies the `--set rules.*` and `duel.*` overrides. `book` points at
/// the raw config's `ruleset` key, `[rules]` table and `[duel]` table.
///
/// Errors, each with its place: [`Overrides::check_sections`], [`Source::parse`],
/// [`Source::expect_ruleset`], [`Overrides::apply_section`].
pub fn read_config<T, R>(
    source: &Source,
    overrides: &Overrides,
    keys: ConfigKeys,
    book: impl FnOnce(&mut T) -> (&Spanned<String>, &mut R, &mut DuelSettings),
) -> Result<T, ConfigError>
where
    T: DeserializeOwned,
    R: Serialize + DeserializeOwned,
{
    overrides.check_sections(keys.sections)?;
    let mut raw: T = source.parse()?;
    let (ruleset, rules, duel) = book(&mut raw);
    source.expect_ruleset(ruleset, keys.ruleset)?;
    overrides.apply_section("rules", rules)?;
    overrides.apply_section("duel", duel)?;
    Ok(raw)
}

/// The name and kebab-case id of a `[[unit]]` entry, `(name, id)`: its `name` trimmed, which
/// must not be empty nor share its id with an earlier unit of `units`.
///
/// Errors carry the name's `file:line:col`: "unit name must not be empty", or [`new_id`]'s
/// message naming the unit it clashes with.
pub fn unit_name(source: &Source, name: &Spanned<String>, units: &[UnitInfo]) -> Result<(String, String), ConfigError> {
    let trimmed = name.get_ref().trim().to_string();
    if trimmed.is_empty() {
        return Err(source.error_at(&name.span(), "unit name must not be empty"));
    }
    let id = new_id("unit", &trimmed, units.iter().map(|x| (x.name.as_str(), x.id.as_str())))
        .map_err(|m| source.error_at(&name.span(), m))?;
    Ok((trimmed, id))
}

/// The cost of unit `id` in points: `cost` as the config gives it (from `origin`), or the last
/// `--set unit.ID.cost=VALUE` for it. `ctx` starts the message (`unit "Riflemen": `).
///
/// Errors: a cost that is not a number from 0.1 to 10000 points, placed at the config's value
/// or at the `--set`.
pub fn unit_cost(overrides: &Overrides, id: &str, ctx: &str, cost: f64, origin: Origin) -> Result<f64, ConfigError> {
    let (mut cost, mut origin) = (cost, origin);
    let key = format!("unit.{id}.cost");
    if let Some((k, v)) = overrides.0.iter().rev().find(|(k, _)| *k == key) {
        origin = Origin::Override(format!("{k}={v}"));
        cost = v.parse().unwrap_or(f64::NAN);
    }
    if !(cost.is_finite() && (0.1..=10_000.0).contains(&cost)) {
        return Err(ConfigError {
            origin,
            message: format!("{ctx}cost must be a number from 0.1 to 10000 points, got {cost}"),
        });
    }
    Ok(cost)
}

/// Checks a finished cost list: it has a unit, and every `--set unit.ID.KEY` names a unit of
/// it by id and a key of `settable` (the keys a ruleset lets `--set` change, e.g. `["cost"]`).
///
/// Errors: "the cost list has no [[unit]] entries" (at the file's start), `unknown unit "ID";
/// known: ...` or `unknown unit key "KEY"; keys you can set: ...` (at the `--set`).
pub fn check_cost_list(
    source: &Source,
    overrides: &Overrides,
    units: &[UnitInfo],
    settable: &[&str],
) -> Result<(), ConfigError> {
    if units.is_empty() {
        return Err(source.error_at(&(0..0), "the cost list has no [[unit]] entries"));
    }
    for (k, v) in &overrides.0 {
        if let Some(rest) = k.strip_prefix("unit.") {
            let (id, key) = rest.split_once('.').unwrap_or((rest, ""));
            let message = if !units.iter().any(|u| u.id == id) {
                format!(
                    "unknown unit {id:?}; known: {}",
                    units.iter().map(|u| u.id.as_str()).collect::<Vec<_>>().join(", ")
                )
            } else if !settable.contains(&key) {
                format!("unknown unit key {key:?}; keys you can set: {}", settable.join(", "))
            } else {
                continue;
            };
            return Err(ConfigError { origin: Origin::Override(format!("{k}={v}")), message });
        }
    }
    Ok(())
}

/// Checks the prices of a finished cost list against its settings: the `[balance]` anchor, if
/// any, is a unit of `units`, and each army size of `armies` (`(key, points)`, e.g.
/// `("skirmish.points", 150.0)`) buys at most [`MAX_ARMY_UNITS`](crate::rulesets::skirmish::MAX_ARMY_UNITS)
/// of the cheapest unit ([`check_army_size`]).
///
/// Errors name the key ([`BalanceConfig::check_anchor`], [`check_army_size`]).
pub fn check_prices(balance: &BalanceConfig, units: &[UnitInfo], armies: &[(&str, f64)]) -> Result<(), Invalid> {
    balance.check_anchor(units)?;
    if let Some(c) = units.iter().min_by(|a, b| a.cost.total_cmp(&b.cost)) {
        for (key, points) in armies {
            check_army_size(key, *points, &c.name, c.cost)?;
        }
    }
    Ok(())
}

/// Test fixture: ruleset `R` from its shipped config (`configs/ID.toml`) with `KEY=VALUE`
/// overrides applied. Panics on a config or override the ruleset refuses (a broken test).
#[cfg(test)]
pub(crate) fn shipped<R: super::Ruleset + super::Concrete>(sets: &[&str]) -> R {
    let path = super::default_config(R::ABOUT.id);
    let src = Source::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let ov = Overrides::parse(&sets.iter().map(|s| s.to_string()).collect::<Vec<_>>()).expect("overrides");
    R::from_source(&src, &ov).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}
