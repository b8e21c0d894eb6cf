//! Very Simple Generic Miniatures Rules v7 (`vsgmr`): d6 attack and armor rolls, one hit
//! defeats, troops and heroes, seventeen traits, super powers on bigger dice, a points formula.
//!
//! Source: `rulebooks/vsgmr-v7.txt`, read with RULINGS.md, "Very Simple Generic Miniatures
//! Rules v7". The rules live in [`rules`] (one function per rule step, and the default tactic),
//! the points formula in [`rules::figure`], the exact solver for duels in [`exact`], the
//! rules-coverage table in [`coverage`], the cost audit of the sample armies in [`coverage::audit`] and the
//! attribute prices (fair price of each attribute beside the book's) in [`study::prices`].
//!
//! Why the config looks as it does: VSGMR prints a formula, not a cost list. So `[[unit]]`
//! entries are *figure templates* described by their attributes and priced by the formula
//! (troop with distance attack, hero with heavy armor, ...), and `[[army]]` entries are the
//! fourteen sample armies section VII prints, figure by figure with their printed points, for the
//! cost audit. A trait name the book uses but never defines ("Weapon Master") must be read
//! through `[readings]`; the audit flags every such reading.
//!
//! Readings worth knowing before trusting a number (all in the coverage table too):
//! - Duels are fought on open ground; there is no cover, so Stealth's "always in cover" is the
//!   only cover; the 5-round limit and points-destroyed victory are scenario rules, not duel
//!   rules (RULINGS.md, "Common").
//! - Cavalry and vehicles fight in duels only with Independent: riders and drivers are not
//!   modeled as separate figures there. In the Skirmish the sample armies' riders and drivers
//!   start mounted (config `rides`; RULINGS.md "VSGMR riders").
//! - Tough and Super-Armor improve armor rolls, so they do nothing for a figure without armor.
//!
//! Files: the folder template of [`crate::rulesets`] — `mod.rs` (units, config, the `Ruleset`
//! impl), `rules.rs`, `exact.rs`, `optimal.rs`, `tactics/`, `skirmish/`, `coverage.rs` (with
//! `coverage.tsv`), `study.rs`; below them, `rules/figure.rs` (the figures' attributes
//! and the points formula), `skirmish/mission.rs` (section VIII's scenarios, which the round
//! reads), `study/prices.rs` and `study/round_robin.rs` (the attribute-price and sample-army
//! studies) and `coverage/audit.rs` (the points-formula audit behind the lint).
//!
//! Layer: rulesets (see [`crate::rulesets`]); imports the bottom layers (`dice`, `config`,
//! `battle`'s table geometry...) and the rulesets layer's shared files, never `sim`,
//! `analysis`, `report`, `commands` or `app`.

pub mod coverage;
pub mod exact;
pub mod optimal;
pub mod rollout;
pub mod rules;
pub mod skirmish;
pub mod study;
pub mod tactics;

use std::collections::BTreeMap;

use indicatif::ProgressBar;
use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::config::{ConfigError, Ends, Invalid, Overrides, Source, id_of, in_range, new_id};
use crate::dice::Dice;
use crate::rulesets::book::raw_config;
use crate::rulesets::book::{ConfigKeys, check_cost_list, check_prices};
use crate::rulesets::engine::{Engine, Findings};
use crate::rulesets::study::Study;
use crate::rulesets::{
    About, BalanceConfig, Book, DuelOutcome, DuelSetup, ExactDuel, LintFinding, NotExact, Reading, Ruleset, UnitInfo,
};

pub use rules::figure::{Armor, Figure, Kind, Power, SupportRoll, Trait};
pub use rules::{Battle, Matchup, Profile};

/// The reading switches of the `[rules]` table (docs/rulings/readings.md).
const READINGS: &[Reading] = &[Reading { key: "sequence", values: &["phased", "everyone_acts"], rule: "Round" }];

/// Turn sequence (section II; RULINGS.md `sequence`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Sequence {
    /// Each step (move, distance attacks, hand to hand) by all of the first player's figures,
    /// then the other's.
    #[default]
    Phased,
    /// Optional rule "Everyone Acts": alternate single figures in each step.
    EveryoneActs,
}

/// The `[rules]` table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesConfig {
    /// \[variant\] "phased" (default) or "everyone_acts".
    pub sequence: Sequence,
    /// Centre-to-centre distance of two figures in base contact, inches.
    pub contact: f32,
}

/// The `[prices]` table: the attribute-price study (issue item 5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PricesConfig {
    /// Points per side of the points-matched forces.
    pub budget: f64,
    /// Start distance of the forces, inches.
    pub distance: f64,
    /// Trials per evaluation of `pointsworth report` (fixed, common random numbers).
    pub report_trials: u64,
}

impl Default for PricesConfig {
    fn default() -> Self {
        PricesConfig { budget: 12.0, distance: 24.0, report_trials: 3000 }
    }
}

/// A figure entry of the config: a template (`[[unit]]`) or a sample-army figure.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFigure {
    name: Spanned<String>,
    /// troop, hero, mook, cavalry or vehicle.
    figure: Spanned<String>,
    #[serde(default)]
    commander: bool,
    #[serde(default)]
    distance_attack: bool,
    #[serde(default)]
    armor: Option<Spanned<String>>,
    #[serde(default)]
    automatic_fire: bool,
    #[serde(default)]
    traits: Vec<Spanned<String>>,
    #[serde(default)]
    super_powers: Vec<Spanned<String>>,
    #[serde(default)]
    support_roll: Option<SupportRoll>,
    /// A figure it summons acts from the next round (the Scream Queen's note).
    #[serde(default)]
    summoned_acts_next_round: bool,
    /// Army figures: how many, and the printed points of one.
    #[serde(default)]
    count: Option<u32>,
    #[serde(default)]
    points: Option<f64>,
    /// The book's note on the figure, kept for the audit.
    #[serde(default)]
    note: Option<String>,
    /// Army guys: the name of the army's cavalry or vehicle line they ride or drive (section
    /// II.2), one figure per mount; the Skirmish deploys them mounted.
    #[serde(default)]
    rides: Option<Spanned<String>>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawArmy {
    name: Spanned<String>,
    /// The printed total points and figure count.
    points: f64,
    figures: u32,
    figure: Vec<RawFigure>,
}

raw_config! {
    set: [balance, prices, skirmish];
    #[serde(default)]
    balance: BalanceConfig,
    #[serde(default)]
    prices: PricesConfig,
    #[serde(default)]
    skirmish: skirmish::SkirmishConfig,
    /// Undefined trait names and the defined trait pointsworth reads them as.
    #[serde(default)]
    readings: BTreeMap<String, String>,
    #[serde(rename = "unit")]
    units: Vec<RawFigure>,
    #[serde(rename = "army", default)]
    armies: Vec<RawArmy>,
}

/// One line of a sample army.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ArmyFigure {
    pub name: String,
    pub count: u32,
    /// Printed points of one figure.
    pub printed: f64,
    pub figure: Figure,
    /// (printed trait name, trait it is read as) for names the book does not define.
    pub readings: Vec<(String, String)>,
    pub note: Option<String>,
    /// The index (in [`Army::figures`]) of the cavalry or vehicle line this guy line rides or
    /// drives, one figure per mount (section II.2; RULINGS.md "VSGMR riders").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rides: Option<usize>,
}

/// A sample army of section VII.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Army {
    pub name: String,
    pub printed_points: f64,
    pub printed_figures: u32,
    pub figures: Vec<ArmyFigure>,
}

/// The most sample armies (`[[army]]`).
pub const MAX_SAMPLE_ARMIES: usize = 100;

/// The most figures of a sample army (`[[army]]`), and of one line of it (`count`).
pub const MAX_ARMY_FIGURES: u32 = 500;

/// The loaded VSGMR ruleset.
#[derive(Debug, Clone)]
pub struct Vsgmr {
    /// The rules in force, the `[duel]` and `[balance]` settings and the cost list of figure
    /// templates, priced by the formula.
    pub book: Book<RulesConfig>,
    pub prices: PricesConfig,
    /// The `[skirmish]` table (issue 6 item 6).
    pub skirmish: skirmish::SkirmishConfig,
    pub figures: Vec<Figure>,
    pub profiles: Vec<Profile>,
    /// [`Matchup`] of every ordered pair of `profiles` (row: the attacker), made with them.
    matchups: Vec<Matchup>,
    pub armies: Vec<Army>,
    /// Every figure the Skirmish can field and the sample armies as rosters, made on first
    /// use (see [`skirmish::Field`]).
    pub field: std::sync::OnceLock<Box<skirmish::Field>>,
}

impl Vsgmr {
    /// Parses and validates a config, applying `--set` overrides (`rules.*`, `duel.*`,
    /// `balance.*`, `prices.*`).
    ///
    /// Errors carry `file:line:col` and name the figure and the key.
    pub fn from_source(source: &Source, overrides: &Overrides) -> Result<Self, ConfigError> {
        let raw = RawConfig::read(source, overrides, Self::KEYS)?;
        let invalid = |e: Invalid| source.invalid(overrides, e);
        raw.skirmish.validate().map_err(invalid)?;
        in_range("rules.contact", raw.rules.contact, 0.0, 6.0, Ends::Both, " in").map_err(invalid)?;
        raw.duel.validate(200.0, "in", true, true).map_err(invalid)?;
        raw.balance.validate().map_err(invalid)?;
        let p = &raw.prices;
        in_range("prices.budget", p.budget, 1.0, 200.0, Ends::Both, " points").map_err(invalid)?;
        in_range("prices.distance", p.distance, 0.0, 72.0, Ends::Top, " in").map_err(invalid)?;
        in_range("prices.report_trials", p.report_trials, 100, 10_000_000, Ends::Both, "").map_err(invalid)?;
        for (from, to) in &raw.readings {
            if Trait::parse(to).is_none() {
                return Err(invalid(Invalid::new(
                    format!("readings.{from}"),
                    format!("[readings] {from:?} = {to:?}: {to:?} is not a trait; known: {}", trait_names()),
                )));
            }
        }

        let mut units = Vec::new();
        let mut figures = Vec::new();
        for u in &raw.units {
            let (name, f, _) = figure_from_raw(source, u, &raw.readings, false)?;
            let id = new_id("unit", &name, units.iter().map(|x: &UnitInfo| (x.name.as_str(), x.id.as_str())))
                .map_err(|m| source.error_at(&u.name.span(), m))?;
            if !(f.kind.is_guy() || f.has(Trait::Independent)) {
                return Err(source.error_at(
                    &u.figure.span(),
                    format!(
                        "unit {name:?}: a {} template needs the Independent trait (riders and drivers are not \
                         modeled as separate figures in duels)",
                        f.kind.label()
                    ),
                ));
            }
            units.push(UnitInfo { id, name, cost: f.price(), kind: f.kind.label().to_string() });
            figures.push(f);
        }
        // No `unit.*` key gets past `check_sections`: VSGMR prices its templates by the formula.
        check_cost_list(source, overrides, &units, &[])?;
        if raw.armies.len() > MAX_SAMPLE_ARMIES {
            let m = format!(
                "{} sample armies ([[army]]); at most {MAX_SAMPLE_ARMIES} (the report plays every pair)",
                raw.armies.len()
            );
            return Err(source.invalid(overrides, Invalid::new(format!("army.{MAX_SAMPLE_ARMIES}"), m)));
        }
        let mut armies: Vec<Army> = Vec::new();
        for (k, a) in raw.armies.iter().enumerate() {
            let at = |key: String, m: String| source.invalid(overrides, Invalid::new(format!("army.{k}.{key}"), m));
            let army_name = a.name.get_ref().trim();
            let ids: Vec<(&str, String)> = armies.iter().map(|x| (x.name.as_str(), id_of(&x.name))).collect();
            new_id("sample army", army_name, ids.iter().map(|(n, i)| (*n, i.as_str())))
                .map_err(|m| source.error_at(&a.name.span(), m))?;
            let ctx = format!("sample army {army_name:?}: ");
            if !(a.points >= 0.0 && a.points <= 10_000.0) {
                return Err(at("points".into(), format!("{ctx}points must be 0 to 10000, got {}", a.points)));
            }
            if !(1..=MAX_ARMY_FIGURES).contains(&a.figures) {
                return Err(at(
                    "figures".into(),
                    format!("{ctx}figures must be 1 to {MAX_ARMY_FIGURES}, got {}", a.figures),
                ));
            }
            let mut total = 0u32;
            let mut figs = Vec::new();
            for (j, rf) in a.figure.iter().enumerate() {
                let count = rf.count.unwrap_or(1);
                total = total.saturating_add(count);
                if !(1..=MAX_ARMY_FIGURES).contains(&count) {
                    return Err(at(
                        format!("figure.{j}.count"),
                        format!("{ctx}count must be 1 to {MAX_ARMY_FIGURES}, got {count}"),
                    ));
                }
                if total > MAX_ARMY_FIGURES {
                    return Err(at(
                        format!("figure.{j}.count"),
                        format!("{ctx}the army holds {total} figures with this line; at most {MAX_ARMY_FIGURES}"),
                    ));
                }
                if let Some(p) = rf.points.filter(|p| !(*p >= 0.0 && *p <= 1000.0)) {
                    return Err(at(format!("figure.{j}.points"), format!("{ctx}points must be 0 to 1000, got {p}")));
                }
                let (name, f, readings) = figure_from_raw(source, rf, &raw.readings, true)?;
                figs.push(ArmyFigure {
                    name,
                    count: rf.count.unwrap_or(1),
                    printed: rf.points.unwrap_or(f64::NAN),
                    figure: f,
                    readings,
                    note: rf.note.clone(),
                    rides: None,
                });
            }
            link_riders(source, a, &mut figs)?;
            armies.push(Army {
                name: a.name.get_ref().clone(),
                printed_points: a.points,
                printed_figures: a.figures,
                figures: figs,
            });
        }
        let k = &raw.skirmish;
        let armies_points = [
            ("skirmish.random_max", f64::from(k.random_max)),
            ("skirmish.ambush_points", f64::from(k.ambush_points[0].max(k.ambush_points[1]))),
            ("skirmish.fortress_points", f64::from(k.fortress_points[0].max(k.fortress_points[1]))),
        ];
        check_prices(&raw.balance, &units, &armies_points).map_err(invalid)?;
        let profiles: Vec<Profile> = figures.iter().map(Profile::from_figure).collect();
        let matchups = Matchup::table(&profiles);
        Ok(Vsgmr {
            book: Book { rules: raw.rules, duel: raw.duel, balance: raw.balance, units },
            prices: raw.prices,
            skirmish: raw.skirmish,
            figures,
            profiles,
            matchups,
            armies,
            field: std::sync::OnceLock::new(),
        })
    }

    /// The Skirmish's field: the cost list's templates, then every sample army's figures.
    pub fn field(&self) -> &skirmish::Field {
        self.field.get_or_init(|| Box::new(skirmish::Field::new(self)))
    }

    /// The combat profile of unit `i`.
    pub fn profile(&self, i: usize) -> &Profile {
        &self.profiles[i]
    }

    /// What the default tactic reads of unit `me` against unit `foe` ([`Matchup::new`] of
    /// their profiles), precomputed. Panics if either index is out of range.
    pub fn matchup(&self, me: usize, foe: usize) -> &Matchup {
        &self.matchups[me * self.profiles.len() + foe]
    }

    /// A ruleset over another list of templates (same rules and settings): what the attribute
    /// prices and the tests build their matchups from. Names must be unique.
    pub fn with_templates(&self, templates: &[(String, Figure)]) -> Vsgmr {
        let mut r = self.clone();
        r.field = std::sync::OnceLock::new();
        r.book.units = templates
            .iter()
            .map(|(n, f)| UnitInfo { id: id_of(n), name: n.clone(), cost: f.price(), kind: f.kind.label().to_string() })
            .collect();
        r.figures = templates.iter().map(|t| t.1.clone()).collect();
        r.profiles = r.figures.iter().map(Profile::from_figure).collect();
        r.matchups = Matchup::table(&r.profiles);
        r
    }

    /// Index of a template by name or id (panics if unknown: for tests and internal use).
    pub fn find(&self, name: &str) -> usize {
        self.find_unit(name).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The config's `ruleset` key and the sections `--set` may change ([`read_config`]).
    const KEYS: ConfigKeys =
        ConfigKeys { ruleset: Self::ABOUT.id, sections: &["rules", "duel", "balance", "prices", "skirmish"] };
}

/// Resolves the `rides` keys of an army's figure lines (section II.2, RULINGS.md "VSGMR
/// riders"): a rider line must be guys, the line it names a cavalry or vehicle line of the same
/// army without Independent, and the riders of a line no more than its figures (one rider or
/// driver each).
fn link_riders(source: &Source, a: &RawArmy, figs: &mut [ArmyFigure]) -> Result<(), ConfigError> {
    for (k, rf) in a.figure.iter().enumerate() {
        let Some(m) = &rf.rides else { continue };
        let ctx = format!("figure {:?}: rides {:?}: ", figs[k].name, m.get_ref());
        let Some(j) = figs.iter().position(|f| id_of(&f.name) == id_of(m.get_ref())) else {
            return Err(source.error_at(&m.span(), format!("{ctx}no figure line of that name in this army")));
        };
        if !figs[k].figure.kind.is_guy() || figs[j].figure.kind.is_guy() {
            return Err(
                source.error_at(&m.span(), format!("{ctx}a guy rides a cavalry or vehicle line (section II.2)"))
            );
        }
        if figs[j].figure.has(Trait::Independent) {
            return Err(source.error_at(
                &m.span(),
                format!("{ctx}an Independent figure needs no rider (passengers are not modeled)"),
            ));
        }
        figs[k].rides = Some(j);
        let riders: u32 = figs.iter().filter(|f| f.rides == Some(j)).map(|f| f.count).sum();
        if riders > figs[j].count {
            return Err(source.error_at(
                &m.span(),
                format!("{ctx}{riders} riders for {} figures (one rider or driver each)", figs[j].count),
            ));
        }
    }
    Ok(())
}

fn trait_names() -> String {
    Trait::ALL.iter().map(|t| t.name()).collect::<Vec<_>>().join(", ")
}

/// Validates one figure entry; returns its name, the figure and the readings it used.
fn figure_from_raw(
    source: &Source,
    u: &RawFigure,
    readings: &BTreeMap<String, String>,
    in_army: bool,
) -> Result<(String, Figure, Vec<(String, String)>), ConfigError> {
    let name = u.name.get_ref().trim().to_string();
    if name.is_empty() {
        return Err(source.error_at(&u.name.span(), "figure name must not be empty"));
    }
    let ctx = format!("figure {name:?}: ");
    let kind = match u.figure.get_ref().as_str() {
        "troop" => Kind::Troop,
        "hero" => Kind::Hero,
        "mook" => Kind::Mook,
        "cavalry" => Kind::Cavalry,
        "vehicle" => Kind::Vehicle,
        other => {
            return Err(source.error_at(
                &u.figure.span(),
                format!("{ctx}figure must be one of {}, got {other:?}", Kind::NAMES.join(", ")),
            ));
        }
    };
    let mut f = Figure::base(kind);
    f.commander = u.commander;
    if f.commander && !kind.is_guy() {
        return Err(source.error_at(&u.figure.span(), format!("{ctx}the Commander must be a guy (section IV)")));
    }
    if f.commander && kind == Kind::Mook {
        return Err(source.error_at(&u.figure.span(), format!("{ctx}mooks cannot be commanders (section IV)")));
    }
    f.distance_attack = u.distance_attack;
    f.automatic_fire = u.automatic_fire;
    if let Some(a) = &u.armor {
        f.armor = match a.get_ref().as_str() {
            "none" => Armor::None,
            "light" => Armor::Light,
            "heavy" => Armor::Heavy,
            other => {
                return Err(
                    source.error_at(&a.span(), format!("{ctx}armor must be one of none, light, heavy, got {other:?}"))
                );
            }
        };
    }
    let mut used = Vec::new();
    for t in &u.traits {
        let printed = t.get_ref();
        let tr = match Trait::parse(printed) {
            Some(tr) => tr,
            None => match readings.iter().find(|(k, _)| id_of(k) == id_of(printed)) {
                Some((k, v)) => {
                    used.push((k.clone(), v.clone()));
                    Trait::parse(v).expect("readings are checked")
                }
                None => {
                    return Err(source.error_at(
                        &t.span(),
                        format!("{ctx}unknown trait {printed:?}; known: {} (or add it to [readings])", trait_names()),
                    ));
                }
            },
        };
        if f.has(tr) {
            return Err(source.error_at(&t.span(), format!("{ctx}a figure can only have a trait once ({printed:?})")));
        }
        if tr == Trait::Independent && kind.is_guy() {
            return Err(source.error_at(&t.span(), format!("{ctx}guy figures cannot have Independent (section V)")));
        }
        f.traits |= tr.bit();
    }
    for s in &u.super_powers {
        let Some((p, level)) = rules::figure::parse_power(s.get_ref()) else {
            return Err(source.error_at(
                &s.span(),
                format!(
                    "{ctx}unknown super power {:?}; write LEVEL POWER with LEVEL one of Minor, Major, Superior and \
                     POWER one of {}",
                    s.get_ref(),
                    Power::ALL.iter().map(|p| p.name()).collect::<Vec<_>>().join(", ")
                ),
            ));
        };
        if f.power(p) > 0 {
            return Err(source.error_at(&s.span(), format!("{ctx}a figure can only have {} once", p.name())));
        }
        if p == Power::SuperSkill && !kind.is_guy() {
            return Err(source.error_at(&s.span(), format!("{ctx}only guy figures can have Super-Skill (section VI)")));
        }
        f.powers[p as usize] = level;
    }
    f.support_roll = u.support_roll;
    f.summoned_wait = u.summoned_acts_next_round;
    if f.summoned_wait && !f.has(Trait::Summon) {
        return Err(source.error_at(&u.name.span(), format!("{ctx}summoned_acts_next_round needs the Summon trait")));
    }
    if u.automatic_fire && !u.distance_attack {
        return Err(source.error_at(&u.name.span(), format!("{ctx}automatic fire needs a distance attack")));
    }
    match (in_army, u.count, u.points) {
        (true, _, None) => {
            return Err(source.error_at(&u.name.span(), format!("{ctx}an army figure needs its printed points")));
        }
        (true, Some(0), _) => return Err(source.error_at(&u.name.span(), format!("{ctx}count must be at least 1"))),
        (false, Some(_), _) | (false, _, Some(_)) => {
            return Err(source.error_at(
                &u.name.span(),
                format!("{ctx}count and points belong to [[army.figure]] entries; a [[unit]] is priced by the formula"),
            ));
        }
        _ => {}
    }
    Ok((name, f, used))
}

impl Ruleset for Vsgmr {
    type Arena = Battle;
    type Rules = RulesConfig;
    const ABOUT: About = About {
        duel_side: "one figure",
        readings: READINGS,
        ..About::new("vsgmr", "Very Simple Generic Miniatures Rules v7", coverage::table)
    };
    fn book(&self) -> &Book<RulesConfig> {
        &self.book
    }
    fn play_duel<D: Dice>(&self, arena: &mut Battle, dice: &mut D, duel: DuelSetup) -> DuelOutcome {
        arena.deploy(self, duel.a, duel.na, duel.b, duel.nb, duel.distance as f32, self.book.duel.spacing() as f32);
        arena.tactic = duel.tactics;
        rules::play(self, arena, dice, if duel.a_first { 0 } else { 1 }, self.book.duel.max_rounds)
    }
    /// The skirmish's tactics ([`tactics::TACTICS`]: `default`, `hold`, `charge`, `keep-out`):
    /// the duel's round ([`rules::play`]) moves each figure by its side's tactic.
    fn squad_tactics(&self) -> &'static [crate::rulesets::skirmish::TacticInfo] {
        &tactics::TACTICS
    }
    fn lint(&self) -> Vec<LintFinding> {
        coverage::audit::lint(self)
    }
    fn studies<E: Engine>(&self, engine: &E, found: &Findings, seed: u64, progress: &ProgressBar) -> Vec<Study> {
        study::studies(engine, self, found.title, seed, progress)
    }
    fn exact_duel(&self, a: usize, b: usize, distance: f64) -> Result<ExactDuel, NotExact> {
        exact::duel(self, a, b, distance)
    }
    /// F: expected defeats per attack of `i` on `j` at the duel distance's attack type (distance
    /// attack if it has one, else hand to hand); H: 1 (one hit defeats).
    fn lanchester(&self, i: usize, j: usize) -> Option<(f64, f64)> {
        let (p, q) = (self.profile(i), self.profile(j));
        let kind = if p.distance_attack { rules::AttackKind::Distance } else { rules::AttackKind::HandToHand };
        Some((rules::p_defeat(p, q, kind), 1.0))
    }
    crate::rulesets::optimal::optimal_play_methods!(
        /// The game of [`optimal`] on its grid ([`optimal::GRID`], 1") and 48" table.
        step: optimal::GRID.step
    );
    /// Every field but the skirmish field, which is built on first use (and derived from these).
    /// False: no duel path reads a cost, and a figure's cost follows from its attributes (there
    /// is no `unit.ID.cost` key), so it never changes apart from the profile, which the result
    /// cache's key holds.
    fn duel_reads_costs(&self) -> bool {
        false
    }
    fn duel_rollout_built(&self) -> bool {
        true
    }
    fn duel_rollout(
        &self,
        pair: (usize, usize),
        distance: f64,
        budget: Option<f64>,
        size: (u64, u32),
        seed: u64,
        base: Option<&crate::rulesets::skirmish::Play>,
        progress: &ProgressBar,
    ) -> Result<crate::rulesets::rollout::RolloutGain, NotExact> {
        let deploy = rollout::deploy(self, pair, distance);
        Ok(crate::rulesets::rollout::duel_best_response(self, pair, budget, size, seed, base, deploy, progress))
    }
    fn cache_fingerprint(&self) -> Option<String> {
        let Vsgmr { book, prices, skirmish, figures, profiles, matchups, armies, field: _ } = self;
        Some(format!("{:?}", (book, prices, skirmish, figures, profiles, matchups, armies)))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub fn ruleset() -> Vsgmr {
        crate::rulesets::book::shipped(&[])
    }

    #[test]
    fn the_config_holds_the_fourteen_printed_sample_armies_and_the_templates() {
        let r = ruleset();
        assert_eq!(r.armies.len(), 14, "section VII prints fourteen armies");
        assert!(r.book.units.len() >= 8);
        assert_eq!(r.book.balance.cost_step, 0.5);
        let t = r.find("troop-with-distance-attack");
        assert_eq!(r.book.units[t].cost, 2.0);
        let h = r.find("hero-with-heavy-armor");
        assert_eq!(r.book.units[h].cost, 4.0);
    }

    #[test]
    fn riders_name_a_cavalry_or_vehicle_line_of_their_army_one_per_figure() {
        // Section II.2: a guy rides or drives a cavalry or vehicle figure, one each; an
        // Independent figure needs none (V "Independent").
        let r = ruleset();
        let bandits = r.armies.iter().find(|a| a.name == "Wild West Bandit Gang").unwrap();
        assert_eq!(bandits.figures.iter().map(|f| f.rides).collect::<Vec<_>>(), [Some(2), Some(2), None]);
        let text = std::fs::read_to_string("configs/vsgmr.toml").unwrap();
        let steed = "rides = \"Skeletal Steed\"";
        for (from, to, says) in [
            (steed, "rides = \"Nightmare\"", "rides \"Nightmare\": no figure line of that name"),
            (steed, "rides = \"Demon\"", "an Independent figure needs no rider"),
            (steed, "rides = \"Ghouls\"", "a guy rides a cavalry or vehicle line"),
            ("count = 3, rides = \"Horses\"", "count = 4, rides = \"Horses\"", "5 riders for 4 figures"),
        ] {
            let bad = text.replacen(from, to, 1);
            assert_ne!(bad, text, "{from}");
            let e = Vsgmr::from_source(&Source::from_text("v.toml", bad), &Overrides::default()).unwrap_err();
            assert!(e.to_string().starts_with("v.toml:") && e.to_string().contains(says), "{e}");
        }
    }

    #[test]
    fn bad_configs_name_the_place_and_the_key() {
        let text = std::fs::read_to_string("configs/vsgmr.toml").unwrap();
        let bad = text.replacen("traits = [\"Sharpshooter\"]", "traits = [\"Sharpshoter\"]", 1);
        assert_ne!(bad, text);
        let e = Vsgmr::from_source(&Source::from_text("v.toml", bad), &Overrides::default()).unwrap_err().to_string();
        assert!(
            e.starts_with("v.toml:") && e.contains("unknown trait \"Sharpshoter\"; known: Area Effect Attack"),
            "{e}"
        );
        let bad = text.replacen("figure = \"hero\"", "figure = \"wizard\"", 1);
        let e = Vsgmr::from_source(&Source::from_text("v.toml", bad), &Overrides::default()).unwrap_err().to_string();
        assert!(e.contains("figure must be one of troop, hero, mook, cavalry, vehicle, got \"wizard\""), "{e}");
        let ov = Overrides::parse(&["rules.sequence=random".to_string()]).unwrap();
        let src = Source::read(std::path::Path::new("configs/vsgmr.toml")).unwrap();
        let e = Vsgmr::from_source(&src, &ov).unwrap_err().to_string();
        assert!(e.contains("rules.sequence=random") && e.contains("everyone_acts"), "{e}");
        let ov = Overrides::parse(&["rules.sequence=everyone_acts".to_string()]).unwrap();
        assert_eq!(Vsgmr::from_source(&src, &ov).unwrap().book.rules.sequence, Sequence::EveryoneActs);
    }
}
