//! Guns 'N Grenades v1.5 (`guns-n-grenades`): opposed d6 rolls, life stages, squads of up to
//! five activations a turn.
//!
//! Source: `rulebooks/guns-n-grenades-v1.5.txt`, read with RULINGS.md, "Guns 'N Grenades".
//! The rules themselves live in [`rules`], one function per rule step; the exact solver for
//! stand-up duels in [`exact`]; the optimal-play game of a duel in [`optimal`]; the
//! rules-coverage table in [`coverage`].
//!
//! Readings worth knowing before trusting a number (all in the coverage table too):
//! - Facing and Pivot are not modeled: units always face their target.
//! - Duels are fought in open ground with no table edge; squads deploy in a line across the
//!   axis of the fight with `squad_spacing` (2") between neighbours.
//! - `medic_heals = "once_per_turn"` means at most one heal per side per turn (a unit
//!   activates at most once a turn anyway, so "once per turn per medic" would change nothing).
//! - `self_blast` and `tough` (issue 43) enter the hot paths as two profile flags,
//!   [`Profile::blasts_itself`] and [`Profile::absorbs_first_hit`], set at load, so the duel,
//!   the exact chain, the optimal-play game and the skirmish read one rule each.
//!
//! Files: the folder template of [`crate::rulesets`] — `mod.rs` (units, config, the `Ruleset`
//! impl), `rules.rs`, `exact.rs`, `optimal.rs`, `tactics/`, `skirmish/`, `coverage.rs` (with
//! `coverage.tsv`), `tests.rs` (the reading switches' rule tests); below them,
//! `skirmish/army.rs` (legal armies read or drawn, shared by squads and the skirmish).
//!
//! Layer: rulesets (see [`crate::rulesets`]); imports the bottom layers (`dice`, `config`,
//! `battle`'s table geometry...) and the rulesets layer's shared files, never `sim`,
//! `analysis`, `report`, `commands` or `app`.

pub mod coverage;
pub mod exact;
pub mod optimal;
pub mod rules;
pub mod skirmish;
pub mod tactics;

#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::config::{ConfigError, Ends, Field, Invalid, Overrides, Source, in_range, new_id};
use crate::dice::Dice;
use crate::rulesets::book::raw_config;
use crate::rulesets::book::{ConfigKeys, check_cost_list, check_prices};
use crate::rulesets::{
    About, BalanceConfig, Book, DuelOutcome, DuelSettings, DuelSetup, ExactDuel, NotExact, Ruleset, UnitInfo,
};

pub use rules::{Battle, Fighter};

/// `[rules] stat_source`: which stat lines to use (RULINGS.md, "Rulebook vs quick reference").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum StatSource {
    #[default]
    Rulebook,
    QuickReference,
}

/// `[rules] fast_shot`: what a Fast Shot re-roll changes (GnG 1.5, "Unit Tags").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum FastShot {
    /// The attacker re-rolls its own die; the defender's roll stands.
    #[default]
    AttackerDie,
    /// Both dice are rolled again.
    BothDice,
}

/// `[rules] medic_heals`: how often medics may heal (GnG 1.5, "Medics" vs Quick Reference).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum MedicHeals {
    /// Any medic activation may heal instead of attacking (rulebook text).
    #[default]
    PerActivation,
    /// At most one heal per side per turn (quick reference).
    OncePerTurn,
}

/// `[rules] self_blast`: whether a blast catches the unit that fired it (GnG 1.5, Mortar:
/// "Any units within 2 ½\" of the target area take damage"; Tank, Artillery: "Blast Radius";
/// RULINGS.md, "Blast radius"; docs/rulings/readings.md GNG-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum SelfBlast {
    /// The firer is one of "any units": a Tank or Artillery firing at a unit inside its own
    /// radius rolls against its own blast like anyone else (the book's words).
    #[default]
    Caught,
    /// The firer is never caught by its own blast.
    Spared,
}

/// `[rules] tough`: what *Tough* ("Takes 2 hits to wound. All subsequent hit continue as
/// normal.", GnG 1.5, "Unit Tags") does; docs/rulings/readings.md GNG-2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Tough {
    /// One extra life stage before Wounded: a Tough unit dies at 4 damage, so a Deadly hit on
    /// a fresh Tough unit leaves it Wounded and a Tank's (3) Bloodied.
    #[default]
    ExtraStep,
    /// The first hit that lands on a fresh (Healthy) Tough unit is absorbed whole, whatever
    /// its damage (a Deadly 2, a Tank's 3, a blast, Anti Armor's 1): the unit only loses its
    /// Tough stage; every later hit counts as normal (3 more stages kill it). A medic's heal
    /// ("to full health") restores the Tough stage.
    FirstHitAbsorbed,
}

/// The `[rules]` table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesConfig {
    pub stat_source: StatSource,
    pub fast_shot: FastShot,
    pub medic_heals: MedicHeals,
    /// Whether a blast catches its own firer (absent from older configs: the default).
    #[serde(default)]
    pub self_blast: SelfBlast,
    /// How Tough absorbs damage (absent from older configs: the default).
    #[serde(default)]
    pub tough: Tough,
    /// Units a side may activate in one turn (5 in the rulebook).
    pub activations_per_turn: u32,
    /// Medic reach in inches (3").
    pub medic_reach: f64,
}

/// The reading switches of `[rules]` (docs/rulings/readings.md; default first).
const READINGS: &[crate::rulesets::Reading] = &[
    crate::rulesets::Reading {
        key: "stat_source",
        values: &["rulebook", "quick_reference"],
        rule: "Rulebook vs quick reference",
    },
    crate::rulesets::Reading { key: "fast_shot", values: &["attacker_die", "both_dice"], rule: "Fast Shot" },
    crate::rulesets::Reading { key: "medic_heals", values: &["per_activation", "once_per_turn"], rule: "Medic" },
    crate::rulesets::Reading { key: "self_blast", values: &["caught", "spared"], rule: "Blast radius" },
    crate::rulesets::Reading { key: "tough", values: &["extra_step", "first_hit_absorbed"], rule: "Tough" },
];

/// A unit's class: how it moves and takes damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Walk 6" then attack, Rush 10"; Healthy → Wounded → Bloodied → Dead.
    Infantry,
    /// Hold and fire, Move 6" or Cruise 10" without firing; Good → Glanced → Shaken →
    /// Destroyed (GnG 1.5, "Vehicles").
    Vehicle,
    /// A vehicle that cannot move on its own ("Artillery: Cannot move unless moved by an
    /// Armored Truck").
    Artillery,
}

impl Kind {
    fn label(self) -> &'static str {
        match self {
            Kind::Infantry => "infantry",
            Kind::Vehicle => "vehicle",
            Kind::Artillery => "artillery",
        }
    }
}

/// A unit's tags (GnG 1.5, "Unit Tags", plus Scout from the Quick Reference and the Medic
/// ability).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Tags {
    pub tough: bool,
    pub deadly: bool,
    pub anti_armor: bool,
    pub fast_shot: bool,
    pub light: bool,
    pub limited: bool,
    pub scout: bool,
    pub medic: bool,
}

const TAG_NAMES: &[&str] = &["tough", "deadly", "anti-armor", "fast-shot", "light", "limited", "scout", "medic"];
const KIND_NAMES: &[&str] = &["infantry", "vehicle", "artillery"];

impl Tags {
    fn from_names(names: &[&str]) -> Tags {
        let mut t = Tags::default();
        for n in names {
            match *n {
                "tough" => t.tough = true,
                "deadly" => t.deadly = true,
                "anti-armor" => t.anti_armor = true,
                "fast-shot" => t.fast_shot = true,
                "light" => t.light = true,
                "limited" => t.limited = true,
                "scout" => t.scout = true,
                "medic" => t.medic = true,
                _ => unreachable!("validated against TAG_NAMES"),
            }
        }
        t
    }
}

/// A validated unit profile: everything the hot loop reads, as small numbers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Profile {
    pub kind: Kind,
    /// Points cost.
    pub cost: f64,
    /// Maximum attack range and minimum range, inches.
    pub range: f32,
    pub min_range: f32,
    pub atk: i8,
    pub def: i8,
    pub tags: Tags,
    /// Life stages one hit removes (1; Deadly 2; Tank 3; Artillery 2).
    pub hit_damage: u8,
    /// Damage that destroys the unit: 3, or 4 for Tough ("takes 2 hits to wound").
    pub health: u8,
    /// Tough under `[rules] tough = "first_hit_absorbed"`: a hit on the unit while it has no
    /// damage takes only its Tough stage, whatever the hit's damage ([`Profile::after_hit`]).
    pub absorbs_first_hit: bool,
    /// Whether the unit's own blast catches it when it fires at a target within its radius
    /// (`[rules] self_blast = "caught"` and a blast radius above 0).
    pub blasts_itself: bool,
    /// Blast radius in inches; 0 for none.
    pub blast: f32,
    /// Walk / Move distance and Rush / Cruise distance, inches (Light adds 1" to infantry).
    pub walk: f32,
    pub rush: f32,
}

impl Profile {
    /// Whether the unit is a vehicle (including Artillery).
    pub fn is_vehicle(&self) -> bool {
        self.kind != Kind::Infantry
    }

    /// The unit's damage after a hit of `n` life stages on a unit with `damage` already, capped
    /// at `health`: `damage + n`, except that a fresh unit that absorbs its first hit (Tough
    /// under `first_hit_absorbed`) takes 1 (GnG 1.5, "Unit Tags": Tough).
    #[inline]
    pub fn after_hit(&self, damage: u8, n: u8) -> u8 {
        if self.absorbs_first_hit && damage == 0 && n > 0 { 1 } else { (damage + n).min(self.health) }
    }

    /// Whether the unit's own blast catches it when it fires at a target `gap` inches away
    /// (GnG 1.5, "Blast radius", measured from the target's centre; `[rules] self_blast`).
    #[inline]
    pub fn own_blast_reaches(&self, gap: f32) -> bool {
        self.blasts_itself && gap <= self.blast + 1e-3
    }
}

/// One `[[unit]]` table as written: every stat kept loose, with its span, so errors can name
/// the unit, the key and the bad value.
type RawUnit = BTreeMap<Spanned<String>, Spanned<toml::Value>>;

raw_config! {
    set: [skirmish, balance];
    #[serde(rename = "unit")]
    units: Vec<Spanned<RawUnit>>,
    #[serde(rename = "upgrade", default)]
    upgrades: Vec<Upgrade>,
    #[serde(default)]
    skirmish: skirmish::SkirmishConfig,
    #[serde(default)]
    balance: BalanceConfig,
}

/// A cost-list upgrade (GnG 1.5, "Unit Upgrades"): one per army, valued in skirmishes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Upgrade {
    pub name: String,
    pub cost: f64,
    pub effect: String,
}

/// The ranges of a unit's `range` and `min_range` (inches) and of its ATK and DEF.
const RANGE: (f64, f64) = (0.5, 200.0);
const MIN_RANGE: (f64, f64) = (0.0, 200.0);
const STAT: (i64, i64) = (-5, 20);

const UNIT_KEYS: &[&str] =
    &["name", "kind", "cost", "range", "min_range", "atk", "def", "tags", "damage", "blast", "quick_reference"];
const QR_KEYS: &[&str] = &["range", "min_range", "atk", "def", "tags"];

/// The loaded Guns 'N Grenades ruleset: rules in force and the cost list.
#[derive(Debug, Clone)]
pub struct GunsNGrenades {
    /// The rules in force, the `[duel]` settings, the `[balance]` table and the cost list.
    pub book: Book<RulesConfig>,
    pub profiles: Vec<Profile>,
    pub upgrades: Vec<Upgrade>,
    /// The `[skirmish]` table (defaults when absent).
    pub skirmish: skirmish::SkirmishConfig,
}

impl GunsNGrenades {
    /// Parses and validates a config, applying `--set` overrides (`rules.*`, `duel.*`,
    /// `unit.ID.KEY`).
    ///
    /// Errors carry `file:line:col`, the unit and the key, or the offending `--set`.
    pub fn from_source(source: &Source, overrides: &Overrides) -> Result<Self, ConfigError> {
        let raw = RawConfig::read(source, overrides, Self::KEYS)?;
        let invalid = |e: Invalid| source.invalid(overrides, e);
        raw.skirmish.validate().map_err(invalid)?;
        raw.balance.validate().map_err(invalid)?;
        let rules = raw.rules;
        let duel = raw.duel;
        validate_settings(&rules, &duel).map_err(invalid)?;
        let mut upgrade_ids: Vec<(String, String)> = Vec::new();
        for (k, up) in raw.upgrades.iter().enumerate() {
            let at = |key: &str, m: String| source.invalid(overrides, Invalid::new(format!("upgrade.{k}.{key}"), m));
            let id = new_id("upgrade", &up.name, upgrade_ids.iter().map(|(n, i)| (n.as_str(), i.as_str())))
                .map_err(|m| at("name", m))?;
            upgrade_ids.push((up.name.clone(), id));
            if !(up.cost >= 0.0 && up.cost <= 10_000.0) {
                return Err(at(
                    "cost",
                    format!("upgrade {:?}: cost must be 0 to 10000 points, got {}", up.name, up.cost),
                ));
            }
        }
        let mut units = Vec::new();
        let mut profiles = Vec::new();
        for spanned in &raw.units {
            let (info, profile) = unit_from_raw(source, spanned, &rules, overrides)?;
            let at =
                spanned.get_ref().iter().find(|(k, _)| k.get_ref() == "name").map_or(spanned.span(), |(_, v)| v.span());
            new_id("unit", &info.name, units.iter().map(|u: &UnitInfo| (u.name.as_str(), u.id.as_str())))
                .map_err(|m| source.error_at(&at, m))?;
            units.push(info);
            profiles.push(profile);
        }
        // A key the units refuse was refused with its unit's fields (`unit_from_raw`).
        check_cost_list(source, overrides, &units, &UNIT_KEYS[1..10])?;
        check_prices(&raw.balance, &units, &[("skirmish.points", raw.skirmish.points)]).map_err(invalid)?;
        Ok(GunsNGrenades {
            book: Book { rules, duel, balance: raw.balance, units },
            profiles,
            upgrades: raw.upgrades,
            skirmish: raw.skirmish,
        })
    }

    /// The rulebook title (for pictures and tables).
    pub fn title_str(&self) -> &'static str {
        "Guns 'N Grenades v1.5"
    }

    /// The profile of unit `i`.
    pub fn profile(&self, i: usize) -> &Profile {
        &self.profiles[i]
    }

    /// The config's `ruleset` key and the sections `--set` may change ([`read_config`]).
    const KEYS: ConfigKeys =
        ConfigKeys { ruleset: Self::ABOUT.id, sections: &["rules", "duel", "unit", "skirmish", "balance"] };
}

fn validate_settings(rules: &RulesConfig, duel: &DuelSettings) -> Result<(), Invalid> {
    in_range("rules.activations_per_turn", rules.activations_per_turn, 1, 50, Ends::Both, "")?;
    in_range("rules.medic_reach", rules.medic_reach, 0.0, 100.0, Ends::Both, " in")?;
    duel.validate(200.0, "in", true, false)
}

fn unit_from_raw(
    source: &Source,
    spanned: &Spanned<RawUnit>,
    rules: &RulesConfig,
    overrides: &Overrides,
) -> Result<(UnitInfo, Profile), ConfigError> {
    let stat_source = rules.stat_source;
    let raw = spanned.get_ref();
    let get = |key: &str| -> Option<Field> {
        raw.iter().find(|(k, _)| k.get_ref() == key).map(|(_, v)| Field::from_spanned(source, key, v))
    };
    let name_field = get("name").ok_or_else(|| source.error_at(&spanned.span(), "unit has no name"))?;
    let name = name_field.string("unit: ")?;
    let id = crate::config::id_of(&name);
    let ctx = format!("unit {name:?}: ");
    for (k, _) in raw.iter() {
        if !UNIT_KEYS.contains(&k.get_ref().as_str()) {
            return Err(source.error_at(
                &k.span(),
                format!("{ctx}unknown key {:?}; known keys: {}", k.get_ref(), UNIT_KEYS.join(", ")),
            ));
        }
    }
    // Field lookup with --set unit.ID.KEY and, for the quick-reference stat source, the
    // unit's [quick_reference] table taking precedence.
    let qr: Option<(toml::Table, crate::config::Origin)> = get("quick_reference")
        .map(|f| {
            let origin = f.origin.clone();
            match f.value {
                toml::Value::Table(t) => Ok((t, origin)),
                _ => Err(ConfigError { origin, message: format!("{ctx}quick_reference must be a table") }),
            }
        })
        .transpose()?;
    if let Some((t, origin)) = &qr {
        for k in t.keys() {
            if !QR_KEYS.contains(&k.as_str()) {
                return Err(ConfigError {
                    origin: origin.clone(),
                    message: format!("{ctx}quick_reference: unknown key {k:?}; known keys: {}", QR_KEYS.join(", ")),
                });
            }
        }
    }
    let field = |key: &str| -> Result<Field, ConfigError> {
        let ov_key = format!("unit.{id}.{key}");
        if let Some((k, v)) = overrides.0.iter().rev().find(|(k, _)| *k == ov_key) {
            return Ok(Field {
                key: key.to_string(),
                value: Overrides::toml_value(v),
                origin: crate::config::Origin::Override(format!("{k}={v}")),
            });
        }
        if stat_source == StatSource::QuickReference {
            if let Some((t, origin)) = &qr {
                if let Some(v) = t.get(key) {
                    return Ok(Field { key: key.to_string(), value: v.clone(), origin: origin.clone() });
                }
            }
        }
        get(key).ok_or_else(|| source.error_at(&spanned.span(), format!("{ctx}missing key {key:?}")))
    };
    for (k, v) in &overrides.0 {
        if let Some(key) = k.strip_prefix(&format!("unit.{id}.")) {
            if !UNIT_KEYS.contains(&key) || key == "name" || key == "quick_reference" {
                return Err(ConfigError {
                    origin: crate::config::Origin::Override(format!("{k}={v}")),
                    message: format!("unknown unit key {key:?}; keys you can set: {}", UNIT_KEYS[1..10].join(", ")),
                });
            }
        }
    }

    // The quick reference's values are checked under either stat source: a config that
    // switches `stat_source` must not meet a bad value only then.
    if let Some((t, origin)) = &qr {
        for (k, v) in t {
            let f = Field { key: k.clone(), value: v.clone(), origin: origin.clone() };
            match k.as_str() {
                "range" => {
                    f.number(&ctx, RANGE.0, RANGE.1, " in")?;
                }
                "min_range" => {
                    f.number(&ctx, MIN_RANGE.0, MIN_RANGE.1, " in")?;
                }
                "atk" | "def" => {
                    f.int(&ctx, STAT.0..=STAT.1)?;
                }
                _ => {
                    f.choices(&ctx, TAG_NAMES)?;
                }
            }
        }
    }
    let kind = match field("kind")?.choice(&ctx, KIND_NAMES)? {
        "infantry" => Kind::Infantry,
        "vehicle" => Kind::Vehicle,
        _ => Kind::Artillery,
    };
    let cost = field("cost")?.number(&ctx, 1.0, 10_000.0, " points")?;
    let range = field("range")?.number(&ctx, RANGE.0, RANGE.1, " in")?;
    let min_range = field("min_range")?.number(&ctx, MIN_RANGE.0, MIN_RANGE.1, " in")?;
    if min_range >= range {
        return Err(ConfigError {
            origin: field("min_range")?.origin,
            message: format!("{ctx}min_range ({min_range}) must be less than range ({range})"),
        });
    }
    let atk = field("atk")?.int(&ctx, STAT.0..=STAT.1)? as i8;
    let def = field("def")?.int(&ctx, STAT.0..=STAT.1)? as i8;
    let tags = Tags::from_names(&field("tags")?.choices(&ctx, TAG_NAMES)?);
    let hit_damage = field("damage")?.int(&ctx, 1..=4)? as u8;
    let blast = field("blast")?.number(&ctx, 0.0, 50.0, " in")?;
    if tags.deadly && hit_damage < 2 {
        return Err(ConfigError {
            origin: field("damage")?.origin,
            message: format!("{ctx}damage must be at least 2 for a Deadly unit, got {hit_damage}"),
        });
    }
    let light = if tags.light && kind == Kind::Infantry { 1.0 } else { 0.0 };
    let (walk, rush) = match kind {
        Kind::Infantry => (6.0 + light, 10.0 + light),
        Kind::Vehicle => (6.0, 10.0),
        Kind::Artillery => (0.0, 0.0),
    };
    let health = if tags.tough { 4 } else { 3 };
    let info = UnitInfo { id, name, cost, kind: kind.label().to_string() };
    let profile = Profile {
        kind,
        cost,
        range: range as f32,
        min_range: min_range as f32,
        atk,
        def,
        tags,
        hit_damage,
        health,
        absorbs_first_hit: tags.tough && rules.tough == Tough::FirstHitAbsorbed,
        blasts_itself: blast > 0.0 && rules.self_blast == SelfBlast::Caught,
        blast: blast as f32,
        walk,
        rush,
    };
    Ok((info, profile))
}

impl Ruleset for GunsNGrenades {
    type Arena = Battle;
    type Rules = RulesConfig;
    const ABOUT: About =
        About { readings: READINGS, ..About::new("guns-n-grenades", "Guns 'N Grenades v1.5", coverage::table) };
    fn book(&self) -> &Book<RulesConfig> {
        &self.book
    }
    fn play_duel<D: Dice>(&self, arena: &mut Battle, dice: &mut D, duel: DuelSetup) -> DuelOutcome {
        let DuelSetup { a, na, b, nb, distance, a_first, .. } = duel;
        let first = if a_first { 0 } else { 1 };
        let (pa, pb) = (&self.profiles[a], &self.profiles[b]);
        if na == 1 && nb == 1 {
            let key = (a, b, (distance as f32).to_bits());
            let stand_up = match arena.stand_up {
                Some((k, yes)) if k == key => yes,
                _ => {
                    let yes = rules::is_stand_up(pa, pb, distance as f32);
                    arena.stand_up = Some((key, yes));
                    yes
                }
            };
            if stand_up {
                return rules::stand_up(self, pa, pb, dice, first, self.book.duel.max_rounds);
            }
        }
        arena.deploy_lines(a, na, b, nb, distance as f32, self.book.duel.spacing() as f32, self);
        rules::play(self, arena, dice, first, self.book.duel.max_rounds)
    }
    /// False: no duel path reads a cost: a Medic's choice of whom to heal (by cost) arises only in squads (tested: `analysis::optimal_play`'s
    /// `a_duel_that_reads_no_cost_is_the_same_at_another_cost`).
    fn duel_reads_costs(&self) -> bool {
        false
    }
    fn cache_fingerprint(&self) -> Option<String> {
        Some(format!("{self:?}"))
    }
    /// F: P(one attack of `i` hits `j`), the opposed roll with Fast Shot ("How Combat Works",
    /// "Unit Tags"); one attack per activation. H: hits of `j` that destroy `i`,
    /// ⌈health / damage per hit⌉ (Tough, Deadly, Tank and Artillery damage included; a Tough
    /// unit that absorbs its first hit, `tough = "first_hit_absorbed"`: 1 + ⌈3 / damage⌉). Blast,
    /// ranges, movement and healing are left out on purpose: where they matter, the simulated
    /// fair cost departs from this estimate.
    fn lanchester(&self, i: usize, j: usize) -> Option<(f64, f64)> {
        let (pi, pj) = (&self.profiles[i], &self.profiles[j]);
        let f = exact::hit_probability(self, pi, pj);
        let h = if pi.absorbs_first_hit {
            1.0 + ((pi.health - 1) as f64 / pj.hit_damage as f64).ceil()
        } else {
            (pi.health as f64 / pj.hit_damage as f64).ceil()
        };
        Some((f, h))
    }
    /// The stand-up chain ([`exact::stand_up_duel`]); where the duel needs movement, the
    /// scripted tactic's chain on the game's ½" grid ([`optimal::scripted_duel`]), where that
    /// grid is exact. Errors: the stand-up chain's reason, when neither applies.
    fn exact_duel(&self, a: usize, b: usize, distance: f64) -> Result<ExactDuel, NotExact> {
        exact::stand_up_duel(self, a, b, distance)
            .or_else(|e| optimal::scripted_duel(self, a, b, distance).map_err(|_| e))
    }
    crate::rulesets::optimal::optimal_play_methods!(
        /// The duel as a game on the 36"-deep table, on a ½" grid ([`optimal::GngGame`]). Errors:
        /// a `distance` (inches) above the table depth.
        step: optimal::GRID.step
    );
    /// The same `[duel]` settings and the same profiles for both units (the profiles carry
    /// `stat_source`, `self_blast` and `tough`), and the same `fast_shot` where either unit
    /// has Fast Shot; `medic_heals`, `activations_per_turn` and `medic_reach` never enter a
    /// one-against-one game (one unit a side, nobody else to heal).
    fn same_duel(&self, other: &Self, a: usize, b: usize) -> bool {
        self.book.duel == other.book.duel
            && [a, b].into_iter().all(|u| {
                let p = &self.profiles[u];
                *p == other.profiles[u]
                    && (!p.tags.fast_shot || self.book.rules.fast_shot == other.book.rules.fast_shot)
            })
    }
    /// GnG 1.5, "Unit Tags: Limited" and "Building Your Army": "Only 2 of these units can be
    /// purchased per 100 points decided on at the beginning of the game", read as 2 per full
    /// 100 points of `budget` ([`skirmish::army::limited_cap`]: 150 → 2); no cap for other units.
    fn squad_limit(&self, unit: usize, budget: f64) -> Option<u32> {
        self.profiles[unit].tags.limited.then(|| skirmish::army::limited_cap(budget))
    }
}

/// Test fixtures shared by the rule, skirmish and army tests: the shipped config with
/// `--set` overrides, and unit lookup by name.
#[cfg(test)]
pub(crate) mod testing {
    use super::GunsNGrenades;
    use crate::rulesets::Ruleset;

    /// `configs/guns-n-grenades.toml` with `KEY=VALUE` overrides applied.
    pub(crate) fn gng(sets: &[&str]) -> GunsNGrenades {
        crate::rulesets::book::shipped(sets)
    }

    /// The index of a unit by name or id; panics if unknown.
    pub(crate) fn unit(r: &GunsNGrenades, name: &str) -> usize {
        r.find_unit(name).unwrap()
    }
}
