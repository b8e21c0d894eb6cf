//! Army Men Combat v2.0 (`army-men-combat`, alias `amc`): squads of 5 or 10 models, dice pools
//! of quality tests, blocks, Pinned morale, vehicles with a damage table.
//!
//! Source: `rulebooks/army-men-combat-v2.0.txt`, read with RULINGS.md, "Army Men Combat
//! v2.0". The rules live in [`rules`] (one function per rule step, and the default tactic),
//! the exact solver for stand-up duels in [`exact`] (a Markov chain over model counts, Pinned
//! and stunned flags), the optimal-play game in [`optimal`], the rules-coverage table in
//! [`coverage`], the army limits in [`skirmish::army`], and the upgrade efficiency table in
//! [`study::upgrades`].
//!
//! Why upgrades are not rows of the cost list: Army Men Combat prices a unit entry (Riflemen,
//! 10 models) and sells upgrades on top (Bayonets +10). An upgrade is valued as the upgraded
//! unit against the plain one at equal points (issue 4), so the matrix keeps the 15 plain
//! entries (the generic matrix, efficiency and fair-cost code run on them unchanged) and each
//! upgraded entry ("Riflemen (10) + Bayonets") is a profile of its own, played only against its
//! plain entry in the separate table of [`study::upgrades`]. The mission ([`skirmish`]) fields
//! upgrades bought together too, at most one per group ([`upgrade_group`]): every such
//! combination is an entry of [`ArmyMenCombat::entries`] ("Riflemen (10) + Bayonets + Grenades
//! + Bazooka", [`combine`]), and random mission armies buy them.
//!
//! Files: the folder template of [`crate::rulesets`] — `mod.rs` (units, config, the `Ruleset`
//! impl), `rules.rs`, `exact.rs`, `optimal.rs`, `tactics/`, `skirmish/`, `coverage.rs` (with
//! `coverage.tsv`), `study.rs`, `tests.rs`; below them, `skirmish/army.rs` (the army
//! limits, shared by squads and the mission), `tactics/doctrine.rs` (the doctrine every tactic
//! and the duel share: the option worth the most expected points) and `study/upgrades.rs` (the
//! upgrade table study).
//!
//! Layer: rulesets (see [`crate::rulesets`]); imports the bottom layers (`dice`, `config`,
//! `battle`'s table geometry...) and the rulesets layer's shared files, never `sim`,
//! `analysis`, `report`, `commands` or `app`.

pub mod coverage;
pub mod exact;
pub mod optimal;
pub mod rules;
pub mod skirmish;
pub mod study;
pub mod tactics;

use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::config::{ConfigError, Ends, Invalid, Overrides, Source, id_of, in_range, new_id};
use crate::dice::Dice;
use crate::rulesets::book::raw_config;
use crate::rulesets::book::{ConfigKeys, check_cost_list, check_prices, unit_cost, unit_name};
use crate::rulesets::engine::{Engine, Findings};
use crate::rulesets::study::Study;
use crate::rulesets::{
    About, BalanceConfig, Book, DuelOutcome, DuelSetup, ExactDuel, LintFinding, NotExact, Reading, Ruleset, UnitInfo,
};

pub use rules::{Battle, UnitState};

/// The `[rules]` table: settings of the duel ground and the rules' open numbers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesConfig {
    /// Whether the duel ground is cover: infantry targets get +1 block die against shooting
    /// (AMC 2.0, "Cover Terrain"). Default false: open ground.
    pub cover: bool,
    /// Charge move, inches (AMC 2.0, "Activation": "Charge: Move 12" into melee").
    pub charge_move: f32,
    /// Melee rounds after which both units stay (RULINGS.md: 20).
    pub melee_round_cap: u32,
    /// Whether a vehicle that caused fewer wounds in a melee round takes the loser's quality
    /// test (absent from older configs: the default).
    #[serde(default)]
    pub vehicle_melee_test: VehicleMeleeTest,
}

/// `[rules] vehicle_melee_test`: AMC 2.0, "Melee": "the unit that caused least wounds must take
/// a quality test and if failed it is destroyed", and "Vehicle Rules": "If a vehicle is
/// attacked in melee it may not strike back" — a vehicle always causes 0 wounds, so it loses
/// every round its attacker wounds it or not (docs/rulings/readings.md AMC-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum VehicleMeleeTest {
    /// A vehicle takes the loser's test like any unit (a plain 4+, failed → destroyed).
    #[default]
    Tests,
    /// The test is for infantry: a vehicle never takes it (only its damage rolls hurt it).
    Exempt,
}

/// Quality-test specials of a unit (AMC 2.0, "Infantry Units").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Quality {
    Normal,
    /// Recruits: must re-roll successful quality tests.
    Recruit,
    /// Veterans: may re-roll failed quality tests.
    Veteran,
}

/// Infantry or vehicle (AMC 2.0, "Vehicle Rules").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Infantry,
    Vehicle,
}

/// A weapon of the weapon table (AMC 2.0, "Weapons").
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weapon {
    /// Range in inches; 0 for a melee weapon.
    pub range: f32,
    /// Fixed attacks per model (when `dice` is 0).
    pub attacks: u8,
    /// Number of D6 rolled per model for the attacks (`D6` = 1, `2D6` = 2), 0 if fixed.
    pub dice: u8,
    /// Marked `*`: hits are doubled against vehicles.
    pub star: bool,
}

impl Weapon {
    /// Whether a target `d` inches away is in range (melee weapons never shoot).
    pub fn in_range(&self, d: f32) -> bool {
        self.range > 0.0 && d <= self.range
    }
    /// Mean attacks per model.
    pub fn mean_attacks(&self) -> f64 {
        if self.dice == 0 { self.attacks as f64 } else { 3.5 * self.dice as f64 }
    }
    /// Mean hits per model before the hit test, as the target counts them (halved or doubled
    /// against vehicles).
    pub fn expected_hits_on(&self, target: &Profile) -> f64 {
        let m = self.mean_attacks();
        match (target.kind, self.star) {
            (Kind::Vehicle, true) => 2.0 * m,
            (Kind::Vehicle, false) => m / 2.0,
            _ => m,
        }
    }
}

/// A validated unit entry (plain or upgraded): what the hot loop reads.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Profile {
    pub cost: f64,
    pub kind: Kind,
    /// Models at full strength (the unit's original size).
    pub models: u8,
    pub quality: Quality,
    /// Sniper: hits on 2+, infantry targets get no block die per hit.
    pub sniper: bool,
    /// May shoot at enemies other friendly units see (Heavy Weapons, Artillery).
    pub indirect: bool,
    /// May shoot only with Hold actions (Artillery).
    pub hold_only: bool,
    /// Counts against the limit of 3 Gunners, Snipers or Heavy Weapons units.
    pub support: bool,
    /// Infantry: `weapons[0]` is every model's weapon. Vehicles fire all of them.
    pub weapons: [Option<Weapon>; 2],
    /// Grenadier: one model also carries this weapon (grenades or C4).
    pub grenadier: Option<Weapon>,
    /// Specialist: one model's weapon replaces his rifle (flamethrower or bazooka).
    pub specialist: Option<Weapon>,
    /// Melee attacks per model (Fists 1, Bayonet 2).
    pub melee_attacks: u8,
    /// Additional block dice (vehicle armor).
    pub armor: u8,
    /// Advance and Rush moves, inches.
    pub advance: f32,
    pub rush: f32,
    /// Models it can transport (AMC 2.0, "Vehicle Units"; played in the mission only, [`skirmish`]).
    pub transport: u8,
    /// Whether it takes the melee loser's quality test (AMC 2.0, "Melee"): infantry always; a
    /// vehicle unless `[rules] vehicle_melee_test = "exempt"` ([`Profile::p_melee_pass`]).
    pub melee_test: bool,
}

impl Profile {
    /// P(it survives losing a melee round), in [0, 1]: its quality test (AMC 2.0, "Melee"), or 1
    /// when it takes none ([`Profile::melee_test`]).
    pub fn p_melee_pass(&self) -> f64 {
        if self.melee_test { rules::p_quality(self.quality, rules::QUALITY) } else { 1.0 }
    }

    /// Whether any of its shooting weapons reaches `d` inches.
    pub fn has_weapon_in_range(&self, d: f32) -> bool {
        self.weapons.iter().chain([&self.grenadier, &self.specialist]).flatten().any(|w| w.in_range(d))
    }
    /// Whether it has any shooting weapon at all.
    pub fn has_any_weapon(&self) -> bool {
        self.weapons.iter().chain([&self.grenadier, &self.specialist]).flatten().any(|w| w.range > 0.0)
    }
    /// The longest range of its weapons, inches (0: none).
    pub fn max_range(&self) -> f32 {
        self.weapons.iter().chain([&self.grenadier, &self.specialist]).flatten().map(|w| w.range).fold(0.0, f32::max)
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWeapon {
    name: Spanned<String>,
    /// Inches, or "melee".
    range: Spanned<toml::Value>,
    /// "1", "3", "D6", "2D6", optionally with a trailing `*`.
    attacks: Spanned<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawUnit {
    name: Spanned<String>,
    cost: Spanned<f64>,
    kind: Kind,
    models: Spanned<i64>,
    #[serde(default = "normal")]
    quality: Quality,
    #[serde(default)]
    weapons: Vec<Spanned<String>>,
    #[serde(default = "fists")]
    melee: Spanned<String>,
    #[serde(default)]
    special: Vec<Spanned<String>>,
    #[serde(default = "no_armor")]
    armor: Spanned<i64>,
    #[serde(default)]
    transport: i64,
    /// Advance and Rush, inches (default: infantry 6/12, vehicles 12/24).
    #[serde(default)]
    moves: Option<Spanned<Vec<f64>>>,
    #[serde(default)]
    upgrades: Vec<Spanned<String>>,
}

fn normal() -> Quality {
    Quality::Normal
}
fn no_armor() -> Spanned<i64> {
    Spanned::new(0..0, 0)
}
fn fists() -> Spanned<String> {
    Spanned::new(0..0, "Fists".to_string())
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawUpgrade {
    name: Spanned<String>,
    cost: Spanned<f64>,
    /// Which rulebook option it is ("Bayonets", "Grenadier", ...), for the report.
    option: String,
    #[serde(default)]
    melee: Option<Spanned<String>>,
    #[serde(default)]
    grenadier: Option<Spanned<String>>,
    #[serde(default)]
    specialist: Option<Spanned<String>>,
    #[serde(default)]
    weapon: Option<Spanned<String>>,
    #[serde(default)]
    armor: i64,
    #[serde(default)]
    transport: Option<i64>,
}

raw_config! {
    set: [balance, upgrades, army, skirmish];
    #[serde(default)]
    balance: BalanceConfig,
    upgrades: study::upgrades::UpgradeSettings,
    army: skirmish::army::ArmyLimits,
    #[serde(default)]
    skirmish: skirmish::SkirmishConfig,
    #[serde(rename = "weapon")]
    weapons: Vec<RawWeapon>,
    #[serde(rename = "unit")]
    units: Vec<RawUnit>,
    #[serde(rename = "upgrade")]
    upgrade_list: Vec<RawUpgrade>,
}

/// An upgraded entry: `base` (index into the cost list) with one upgrade bought.
#[derive(Debug, Clone, PartialEq)]
pub struct UpgradedEntry {
    /// "Riflemen (10) + Bayonets".
    pub info: UnitInfo,
    pub profile: Profile,
    /// Index of the plain entry in the cost list.
    pub base: usize,
    /// The upgrade's name ("Bayonets") and its rulebook option ("Bayonets", "Grenadier"...).
    pub upgrade: String,
    pub option: String,
    pub upgrade_cost: f64,
}

/// The loaded Army Men Combat ruleset.
#[derive(Debug, Clone)]
pub struct ArmyMenCombat {
    /// The rules in force, the `[duel]` and `[balance]` settings and the plain cost list (the
    /// matrix rows).
    pub book: Book<RulesConfig>,
    pub upgrade_settings: study::upgrades::UpgradeSettings,
    pub army: skirmish::army::ArmyLimits,
    /// The `[skirmish]` table (the mission).
    pub skirmish: skirmish::SkirmishConfig,
    pub profiles: Vec<Profile>,
    /// Every upgraded entry, in config order of units then upgrades.
    pub upgraded: Vec<UpgradedEntry>,
    /// Weapon names and profiles of the weapon table, in config order (for the lint).
    pub weapon_table: Vec<(String, Weapon)>,
    /// What each of [`ArmyMenCombat::entries`] is made of: its plain entry (index into the
    /// cost list) and the upgrades bought (indices into [`ArmyMenCombat::upgraded`], ascending;
    /// empty for a plain entry).
    pub entry_parts: Vec<(usize, Vec<usize>)>,
    /// Every entry a skirmish army can field: the plain cost list, then the upgraded entries
    /// (see [`skirmish::entries`]).
    pub entries: Vec<(UnitInfo, Profile)>,
}

fn weapon_from_raw(source: &Source, w: &RawWeapon) -> Result<(String, Weapon), ConfigError> {
    let name = w.name.get_ref().trim().to_string();
    let ctx = format!("weapon {name:?}: ");
    let range = match w.range.get_ref() {
        toml::Value::String(s) if id_of(s) == "melee" => 0.0,
        toml::Value::Integer(i) if (1..=200).contains(i) => *i as f32,
        toml::Value::Float(f) if *f > 0.0 && *f <= 200.0 => *f as f32,
        v => {
            return Err(source
                .error_at(&w.range.span(), format!("{ctx}range must be \"melee\" or inches from 1 to 200, got {v}")));
        }
    };
    let text = w.attacks.get_ref().trim().to_uppercase();
    let (body, star) = match text.strip_suffix('*') {
        Some(b) => (b.trim().to_string(), true),
        None => (text.clone(), false),
    };
    let (attacks, dice) = match body.as_str() {
        "D6" => (0, 1),
        "2D6" => (0, 2),
        n => match n.parse::<u8>() {
            Ok(k) if (1..=20).contains(&k) => (k, 0),
            _ => {
                return Err(source.error_at(
                    &w.attacks.span(),
                    format!("{ctx}attacks must be 1 to 20, \"D6\" or \"2D6\", optionally followed by *, got {text:?}"),
                ));
            }
        },
    };
    Ok((name, Weapon { range, attacks, dice, star }))
}

impl ArmyMenCombat {
    /// Parses and validates a config, applying `--set` overrides (`rules.*`, `duel.*`,
    /// `balance.*`, `upgrades.*`, `army.*`, `unit.ID.cost`).
    ///
    /// Errors carry `file:line:col` and name the weapon, unit or upgrade and the key.
    pub fn from_source(source: &Source, overrides: &Overrides) -> Result<Self, ConfigError> {
        let raw = RawConfig::read(source, overrides, Self::KEYS)?;
        let invalid = |e: Invalid| source.invalid(overrides, e);
        raw.duel.validate(200.0, "in", false, false).map_err(invalid)?;
        raw.balance.validate().map_err(invalid)?;
        raw.upgrades.validate().map_err(invalid)?;
        raw.skirmish.validate().map_err(invalid)?;
        raw.army.validate().map_err(invalid)?;
        in_range("rules.charge_move", raw.rules.charge_move, 0.0, 48.0, Ends::Top, " in").map_err(invalid)?;
        in_range("rules.melee_round_cap", raw.rules.melee_round_cap, 1, 1000, Ends::Both, "").map_err(invalid)?;

        let weapons = raw.weapons.iter().map(|w| weapon_from_raw(source, w)).collect::<Result<Vec<_>, _>>()?;
        // Weapons of one kind are found by id (a shooting and a melee weapon may share a name).
        for (k, w) in raw.weapons.iter().enumerate() {
            let melee = weapons[k].1.range == 0.0;
            let ids: Vec<(&str, String)> = weapons[..k]
                .iter()
                .filter(|x| (x.1.range == 0.0) == melee)
                .map(|(n, _)| (n.as_str(), id_of(n)))
                .collect();
            new_id("weapon", &weapons[k].0, ids.iter().map(|(n, i)| (*n, i.as_str())))
                .map_err(|m| source.error_at(&w.name.span(), m))?;
        }
        let mut upgrade_ids: Vec<(String, String)> = Vec::new();
        for (k, up) in raw.upgrade_list.iter().enumerate() {
            let name = up.name.get_ref().trim();
            let id = new_id("upgrade", name, upgrade_ids.iter().map(|(n, i)| (n.as_str(), i.as_str())))
                .map_err(|m| source.error_at(&up.name.span(), m))?;
            upgrade_ids.push((name.to_string(), id));
            let at = |key: &str, m: String| source.invalid(overrides, Invalid::new(format!("upgrade.{k}.{key}"), m));
            if !(-6..=6).contains(&up.armor) {
                return Err(at("armor", format!("upgrade {name:?}: armor must be -6 to 6 dice, got {}", up.armor)));
            }
            if let Some(t) = up.transport.filter(|t| !(0..=20).contains(t)) {
                return Err(at("transport", format!("upgrade {name:?}: transport must be 0 to 20, got {t}")));
            }
        }
        let find = |want: &Spanned<String>, ctx: &str, melee: bool| -> Result<Weapon, ConfigError> {
            let ok = |w: &Weapon| (w.range == 0.0) == melee;
            weapons.iter().find(|(n, w)| ok(w) && id_of(n) == id_of(want.get_ref())).map(|x| x.1).ok_or_else(|| {
                let known: Vec<&str> = weapons.iter().filter(|(_, w)| ok(w)).map(|(n, _)| n.as_str()).collect();
                source.error_at(
                    &want.span(),
                    format!(
                        "{ctx}unknown {} {:?}; known: {}",
                        if melee { "melee weapon" } else { "shooting weapon" },
                        want.get_ref(),
                        known.join(", ")
                    ),
                )
            })
        };

        let mut units: Vec<UnitInfo> = Vec::new();
        let mut profiles = Vec::new();
        for (k, u) in raw.units.iter().enumerate() {
            let (name, id) = unit_name(source, &u.name, &units)?;
            let ctx = format!("unit {name:?}: ");
            let cost = unit_cost(overrides, &id, &ctx, *u.cost.get_ref(), source.origin(u.cost.span().start))?;
            let models = *u.models.get_ref();
            if !(1..=10).contains(&models) || (u.kind == Kind::Vehicle && models != 1) {
                return Err(source
                    .error_at(&u.models.span(), format!("{ctx}models must be 1 to 10 (vehicles: 1), got {models}")));
            }
            let armor = *u.armor.get_ref();
            if !(0..=6).contains(&armor) {
                return Err(source.error_at(&u.armor.span(), format!("{ctx}armor must be 0 to 6 dice, got {armor}")));
            }
            if !(0..=20).contains(&u.transport) {
                return Err(source.invalid(
                    overrides,
                    Invalid::new(
                        format!("unit.{k}.transport"),
                        format!("{ctx}transport must be 0 to 20, got {}", u.transport),
                    ),
                ));
            }
            let mut ws = [None; 2];
            let most = if u.kind == Kind::Infantry { 1 } else { 2 };
            if let Some(extra) = u.weapons.get(most) {
                return Err(source.error_at(
                    &extra.span(),
                    format!("{ctx}weapons lists at most 1 weapon for infantry, 2 for vehicles"),
                ));
            }
            for (k, w) in u.weapons.iter().enumerate() {
                ws[k] = Some(find(w, &ctx, false)?);
            }
            let melee = find(&u.melee, &ctx, true)?;
            let mut p = Profile {
                cost,
                kind: u.kind,
                models: models as u8,
                quality: u.quality,
                sniper: false,
                indirect: false,
                hold_only: false,
                support: false,
                weapons: ws,
                grenadier: None,
                specialist: None,
                melee_attacks: melee.attacks,
                armor: armor as u8,
                advance: if u.kind == Kind::Vehicle { 12.0 } else { 6.0 },
                rush: if u.kind == Kind::Vehicle { 24.0 } else { 12.0 },
                transport: u.transport.clamp(0, 20) as u8,
                melee_test: u.kind == Kind::Infantry || raw.rules.vehicle_melee_test == VehicleMeleeTest::Tests,
            };
            for s in &u.special {
                match s.get_ref().as_str() {
                    "sniper" => p.sniper = true,
                    "indirect" => p.indirect = true,
                    "hold_only" => p.hold_only = true,
                    "support" => p.support = true,
                    other => {
                        return Err(source.error_at(
                            &s.span(),
                            format!("{ctx}unknown special {other:?}; known: sniper, indirect, hold_only, support"),
                        ));
                    }
                }
            }
            if let Some(m) = &u.moves {
                let v = m.get_ref();
                if v.len() != 2 || !(v[0] >= 0.0 && v[0] <= v[1] && v[1] <= 48.0) {
                    return Err(source.error_at(
                        &m.span(),
                        format!("{ctx}moves must be [advance, rush] in inches, 0 ≤ advance ≤ rush ≤ 48, got {v:?}"),
                    ));
                }
                (p.advance, p.rush) = (v[0] as f32, v[1] as f32);
            }
            units.push(UnitInfo {
                id,
                name,
                cost,
                kind: if u.kind == Kind::Vehicle { "vehicle" } else { "infantry" }.to_string(),
            });
            profiles.push(p);
        }
        check_cost_list(source, overrides, &units, &["cost"])?;

        let mut upgraded = Vec::new();
        for (base, u) in raw.units.iter().enumerate() {
            for up_name in &u.upgrades {
                let ctx = format!("unit {:?}: ", units[base].name);
                let Some(up) = raw.upgrade_list.iter().find(|x| id_of(x.name.get_ref()) == id_of(up_name.get_ref()))
                else {
                    let known: Vec<&str> = raw.upgrade_list.iter().map(|x| x.name.get_ref().as_str()).collect();
                    return Err(source.error_at(
                        &up_name.span(),
                        format!("{ctx}unknown upgrade {:?}; known: {}", up_name.get_ref(), known.join(", ")),
                    ));
                };
                let uctx = format!("upgrade {:?}: ", up.name.get_ref());
                let up_cost = *up.cost.get_ref();
                if !(up_cost.is_finite() && (0.0..=1000.0).contains(&up_cost)) {
                    return Err(
                        source.error_at(&up.cost.span(), format!("{uctx}cost must be 0 to 1000 points, got {up_cost}"))
                    );
                }
                let mut p = profiles[base];
                p.cost += up_cost;
                if let Some(m) = &up.melee {
                    p.melee_attacks = find(m, &uctx, true)?.attacks;
                }
                if let Some(g) = &up.grenadier {
                    p.grenadier = Some(find(g, &uctx, false)?);
                }
                if let Some(s) = &up.specialist {
                    p.specialist = Some(find(s, &uctx, false)?);
                }
                if let Some(w) = &up.weapon {
                    let w = find(w, &uctx, false)?;
                    match p.weapons.iter().position(Option::is_none) {
                        Some(k) => p.weapons[k] = Some(w),
                        None => {
                            return Err(source.error_at(&w_span(up), format!("{uctx}the unit already has 2 weapons")));
                        }
                    }
                }
                p.armor = (p.armor as i64).saturating_add(up.armor).clamp(0, 12) as u8;
                if let Some(t) = up.transport {
                    p.transport = t.clamp(0, 20) as u8;
                }
                let name = format!("{} + {}", units[base].name, up.name.get_ref().trim());
                upgraded.push(UpgradedEntry {
                    info: UnitInfo { id: id_of(&name), name, cost: p.cost, kind: units[base].kind.clone() },
                    profile: p,
                    base,
                    upgrade: up.name.get_ref().trim().to_string(),
                    option: up.option.clone(),
                    upgrade_cost: up_cost,
                });
            }
        }
        check_prices(&raw.balance, &units, &[("army.points", raw.army.points)]).map_err(invalid)?;
        let mut entries: Vec<(UnitInfo, Profile)> = units
            .iter()
            .cloned()
            .zip(profiles.iter().copied())
            .chain(upgraded.iter().map(|u| (u.info.clone(), u.profile)))
            .collect();
        let mut entry_parts: Vec<(usize, Vec<usize>)> = (0..units.len())
            .map(|b| (b, Vec::new()))
            .chain(upgraded.iter().enumerate().map(|(k, u)| (u.base, vec![k])))
            .collect();
        // Every combination of one upgrade per group is an entry: refuse a list that makes
        // more than a skirmish can field (a unit with 30 groups would make 2^30).
        for (base, groups) in upgrade_groups(&profiles, &upgraded).iter().enumerate() {
            let n = groups.iter().fold(1usize, |n, g| n.saturating_mul(g.len() + 1));
            if n > MAX_COMBINATIONS {
                return Err(source.error_at(
                    &raw.units[base].name.span(),
                    format!(
                        "unit {:?}: its upgrades make {n} combinations of at most one per group; at most \
                         {MAX_COMBINATIONS}",
                        units[base].name
                    ),
                ));
            }
        }
        for (base, ups) in combinations(&profiles, &upgraded) {
            if ups.len() < 2 {
                continue;
            }
            let parts: Vec<&Profile> = ups.iter().map(|&k| &upgraded[k].profile).collect();
            let Some(p) = combine(&profiles[base], &parts) else { continue };
            let name = std::iter::once(units[base].name.as_str())
                .chain(ups.iter().map(|&k| upgraded[k].upgrade.as_str()))
                .collect::<Vec<_>>()
                .join(" + ");
            entries.push((UnitInfo { id: id_of(&name), name, cost: p.cost, kind: units[base].kind.clone() }, p));
            entry_parts.push((base, ups));
        }
        // Army files name entries by id: a unit named like an upgraded entry ("Riflemen (10)
        // Bayonets" and "Riflemen (10) + Bayonets") would make one name mean two entries.
        for (k, (e, _)) in entries.iter().enumerate() {
            if let Some((other, _)) = entries[..k].iter().find(|(o, _)| o.id == e.id) {
                let m = format!(
                    "entry {:?} and entry {:?} have the same id {:?} (names are matched ignoring case and \
                     punctuation): rename a unit or an upgrade",
                    e.name, other.name, e.id
                );
                return Err(source.invalid(overrides, Invalid::new(format!("unit.{}.name", entry_parts[k].0), m)));
            }
        }
        Ok(ArmyMenCombat {
            book: Book { rules: raw.rules, duel: raw.duel, balance: raw.balance, units },
            upgrade_settings: raw.upgrades,
            army: raw.army,
            skirmish: raw.skirmish,
            profiles,
            upgraded,
            weapon_table: weapons,
            entries,
            entry_parts,
        })
    }

    /// The same ruleset whose cost list is exactly `entries` (plain and upgraded alike): what
    /// the upgrade table plays points-matched duels on.
    pub fn view(&self, entries: &[(UnitInfo, Profile)]) -> ArmyMenCombat {
        let mut r = self.clone();
        r.book.units = entries.iter().map(|e| e.0.clone()).collect();
        r.profiles = entries.iter().map(|e| e.1).collect();
        r
    }

    /// Index of a unit by name or id (panics if unknown: for tests and internal use).
    pub fn find(&self, name: &str) -> usize {
        self.find_unit(name).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The config's `ruleset` key and the sections `--set` may change ([`read_config`]).
    const KEYS: ConfigKeys = ConfigKeys {
        ruleset: Self::ABOUT.id,
        sections: &["rules", "duel", "unit", "balance", "upgrades", "army", "skirmish"],
    };
}

/// The group of choices an upgrade belongs to, of which a unit buys at most one (AMC 2.0,
/// "Army Creation": one Grenadier takes grenades or C4, one Specialist a Flamethrower or a
/// Bazooka, a Tank is a Medium Tank +1 or +2 die; a Jeep is a Truck or an APC, both
/// "Transport 10"): its rulebook option, or "transport" for an upgrade that carries more models.
pub fn upgrade_group<'a>(base: &Profile, u: &'a UpgradedEntry) -> &'a str {
    if u.profile.transport > base.transport { "transport" } else { u.option.as_str() }
}

/// The most entries one plain entry's upgrade combinations may make ([`combinations`]).
pub const MAX_COMBINATIONS: usize = 1000;

/// Every plain entry's upgrade groups ([`upgrade_group`]), in the order its upgrades are
/// listed: per plain entry (index into the cost list), the groups, each the indices into
/// `upgraded` of its choices.
pub fn upgrade_groups(profiles: &[Profile], upgraded: &[UpgradedEntry]) -> Vec<Vec<Vec<usize>>> {
    let mut out: Vec<Vec<(String, Vec<usize>)>> = vec![Vec::new(); profiles.len()];
    for (k, u) in upgraded.iter().enumerate() {
        let g = upgrade_group(&profiles[u.base], u);
        let groups = &mut out[u.base];
        match groups.iter_mut().find(|x| x.0 == g) {
            Some(x) => x.1.push(k),
            None => groups.push((g.to_string(), vec![k])),
        }
    }
    out.into_iter().map(|gs| gs.into_iter().map(|g| g.1).collect()).collect()
}

/// Every combination of upgrades a plain entry may buy together (at most one per group,
/// [`upgrade_groups`]), the empty one included: (plain entry, ascending indices into
/// `upgraded`), per plain entry in cost-list order.
pub fn combinations(profiles: &[Profile], upgraded: &[UpgradedEntry]) -> Vec<(usize, Vec<usize>)> {
    let mut out = Vec::new();
    for (base, groups) in upgrade_groups(profiles, upgraded).into_iter().enumerate() {
        let mut sets: Vec<Vec<usize>> = vec![Vec::new()];
        for g in &groups {
            let mut next = Vec::new();
            for set in &sets {
                next.push(set.clone());
                for &k in g {
                    let mut with = set.clone();
                    with.push(k);
                    with.sort_unstable();
                    next.push(with);
                }
            }
            sets = next;
        }
        out.extend(sets.into_iter().map(|set| (base, set)));
    }
    out
}

/// The profile of `base` with several upgrades bought together, from the profiles of `base`
/// with each upgrade alone: their extra cost and armor add up; a changed melee weapon,
/// grenadier, specialist or transport capacity is taken over; an added weapon goes to the next
/// free weapon slot. `None` when the added weapons do not fit the two slots.
pub fn combine(base: &Profile, ups: &[&Profile]) -> Option<Profile> {
    let mut p = *base;
    for u in ups {
        p.cost += u.cost - base.cost;
        p.armor = (p.armor as i32 + u.armor as i32 - base.armor as i32).clamp(0, 12) as u8;
        if u.melee_attacks != base.melee_attacks {
            p.melee_attacks = u.melee_attacks;
        }
        if u.grenadier != base.grenadier {
            p.grenadier = u.grenadier;
        }
        if u.specialist != base.specialist {
            p.specialist = u.specialist;
        }
        if u.transport != base.transport {
            p.transport = u.transport;
        }
        for k in 0..2 {
            if u.weapons[k] != base.weapons[k] {
                let free = p.weapons.iter().position(Option::is_none)?;
                p.weapons[free] = u.weapons[k];
            }
        }
    }
    Some(p)
}

fn w_span(up: &RawUpgrade) -> std::ops::Range<usize> {
    up.weapon.as_ref().map_or(up.name.span(), |w| w.span())
}

impl Ruleset for ArmyMenCombat {
    type Arena = Battle;
    type Rules = RulesConfig;
    const ABOUT: About = About {
        duel_side: "one unit entry",
        readings: &[Reading {
            key: "vehicle_melee_test",
            values: &["tests", "exempt"],
            rule: "Vehicles in melee may not strike back",
        }],
        ..About::new("army-men-combat", "Army Men Combat v2.0", coverage::table)
    };
    fn book(&self) -> &Book<RulesConfig> {
        &self.book
    }
    fn play_duel<D: Dice>(&self, arena: &mut Battle, dice: &mut D, duel: DuelSetup) -> DuelOutcome {
        // AMC 2.0, "Playing the Game": the roll-off (d6 + units left) decides every activation,
        // the first included (RULINGS.md, "AMC activation roll-off"), so the seat is not used.
        arena.deploy(self, duel.a, duel.na, duel.b, duel.nb, duel.distance as f32);
        rules::play(self, arena, dice, self.book.duel.max_rounds)
    }
    fn lint(&self) -> Vec<LintFinding> {
        coverage::lint(self)
    }
    fn cache_fingerprint(&self) -> Option<String> {
        Some(format!("{self:?}"))
    }
    fn studies<E: Engine>(&self, engine: &E, _: &Findings, seed: u64, _: &indicatif::ProgressBar) -> Vec<Study> {
        study::studies(engine, self, seed)
    }
    fn exact_duel(&self, a: usize, b: usize, distance: f64) -> Result<ExactDuel, NotExact> {
        exact::stand_up_duel(self, a, b, distance)
    }
    /// F: expected unblocked hits of one Hold volley of a full-strength `i` on a fresh `j` at
    /// the duel distance ("Shooting", "Weapons"; 0 out of range). H: unblocked hits of `j` that
    /// destroy `i`: its models, or for a vehicle the mean number of frontal damage rolls until a
    /// 5–6 (9). Morale, melee, movement and the damage table's lesser results are left out on
    /// purpose: where they matter, the simulated fair cost departs from this estimate.
    fn lanchester(&self, i: usize, j: usize) -> Option<(f64, f64)> {
        let (pi, pj) = (&self.profiles[i], &self.profiles[j]);
        let d = self.book.duel.distance as f32;
        let target = UnitState::fresh(pj, d);
        let f = rules::expected_wounds(pi, pi.models, pj, &target, d, self.book.rules.cover);
        let h = match pi.kind {
            Kind::Infantry => pi.models as f64,
            Kind::Vehicle => 1.0 / exact::p_destroyed_per_roll(rules::Arc::Front),
        };
        Some((f, h))
    }
    crate::rulesets::optimal::optimal_play_methods!(step: optimal::GRID.step);
    /// AMC 2.0, "The Armies": at most 3 units of Gunners, Snipers or Heavy Weapons whatever
    /// the budget; vehicles at most half of the 300-point army, which binds only above 150
    /// points ([`skirmish::army::ArmyLimits::squad_limit`]).
    fn squad_limit(&self, unit: usize, budget: f64) -> Option<u32> {
        self.army.squad_limit(&self.profiles[unit], budget)
    }
}

/// Test fixtures: the shipped config with `--set` overrides.
#[cfg(test)]
pub(crate) mod testing {
    use super::ArmyMenCombat;

    /// `configs/army-men-combat.toml` with `KEY=VALUE` overrides applied.
    pub(crate) fn amc(sets: &[&str]) -> ArmyMenCombat {
        crate::rulesets::book::shipped(sets)
    }
}

#[cfg(test)]
mod tests;
