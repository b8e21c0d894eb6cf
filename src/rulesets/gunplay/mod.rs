//! Gunplay (`gunplay`): d12 difficulty ladders, two actions per activation, wounds that never
//! heal, Down and recovery.
//!
//! Source: `rulebooks/gunplay.txt`, read with RULINGS.md, "Gunplay". The rules live in
//! [`rules`] (one function per rule step, and the default tactic), the exact solver for
//! one-against-one duels in [`exact`] (a Markov chain over wounds, Down flags and distance,
//! so it covers duels with movement and melee, not only stand-up ones), the same duel as a
//! zero-sum game under optimal play in [`optimal`] (`duel gunplay A B --optimal`), the
//! rules-coverage table in [`coverage`], the derived cost list over a mix of start distances
//! and cover, checked in the skirmish, in [`study::derive`].
//!
//! Why the config looks as it does: Gunplay has no points. Every character is alike but for
//! its weapons, so the cost list is a list of *loadouts* (a firearm plus the knife every
//! character carries) that start at equal costs; pointsworth derives the fair costs (RULINGS.md,
//! "Points"). Readings worth knowing before trusting a number (all in the coverage table too):
//! - Duels are fought over ground of one cover level (`rules.cover`): every shot at any
//!   character counts that cover, wherever it stands (a ruin-filled street, say). Melee
//!   ignores cover (the rulebook lists no cover modifier for melee).
//! - A Down character whose recovery has become impossible (4 wounds) is removed at once.
//! - A game turn is both sides activating; `DuelOutcome::turns` counts game turns.
//!
//! Files: the folder template of [`crate::rulesets`] — `mod.rs` (units, config, the `Ruleset`
//! impl), `rules.rs`, `exact.rs`, `optimal.rs`, `tactics/`, `skirmish/`, `coverage.rs` (with
//! `coverage.tsv`), `study.rs`, `rollout.rs` (the duel played game turn by game turn for the
//! rollout best response); below them, `study/derive.rs` (the derived cost list over the
//! ground mix).
//!
//! Play: the duel takes each character's next action from its side's skirmish tactic
//! ([`tactics`], [`crate::rulesets::DuelSetup::tactics`]): the default tactic one against one
//! and in the exact chain; in the points-matched squads, each pair's equilibrium of the
//! squads' tactic game (`[duel] tactic_trials`).
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

use indicatif::ProgressBar;
use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::config::{ConfigError, Ends, Invalid, Overrides, Source, in_range, new_id};
use crate::dice::Dice;
use crate::rulesets::book::raw_config;
use crate::rulesets::book::{ConfigKeys, check_cost_list, check_prices, unit_cost, unit_name};
use crate::rulesets::engine::{Engine, Findings};
use crate::rulesets::study::Study;
use crate::rulesets::{
    About, BalanceConfig, Book, DistanceGrounds, DuelOutcome, DuelSettings, DuelSetup, ExactDuel, NotExact, Reading,
    Ruleset, UnitInfo,
};

pub use rules::{Battle, Character};

/// How much of a target the shooter can see ("Shooting", "Difficulties").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Cover {
    /// In the open: Easy.
    #[default]
    Open,
    /// "Some" cover (at least 33%): Moderate.
    Some,
    /// "Lots" of cover (at least 67%): Hard.
    Lots,
}

impl Cover {
    /// The base difficulty level of a shot at a target behind this cover.
    pub fn base_level(self) -> i8 {
        match self {
            Cover::Open => rules::EASY,
            Cover::Some => rules::MODERATE,
            Cover::Lots => rules::HARD,
        }
    }

    /// "open", "some cover", "lots of cover".
    pub fn label(self) -> &'static str {
        match self {
            Cover::Open => "open",
            Cover::Some => "some cover",
            Cover::Lots => "lots of cover",
        }
    }

    pub const ALL: [Cover; 3] = [Cover::Open, Cover::Some, Cover::Lots];
}

/// The `[rules]` table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesConfig {
    /// Cover of the duel ground: every shot counts it ("open", "some", "lots").
    pub cover: Cover,
    /// Cautious Move per action, inches (the basic speed, 3").
    pub cautious_move: f32,
    /// Quick Move per action, inches (double movement, 6").
    pub quick_move: f32,
    /// Centre-to-centre distance of characters in base contact, inches.
    pub contact: f32,
    /// When a duel is won (absent from older configs: the default).
    #[serde(default)]
    pub duel_victory: DuelVictory,
}

/// `[rules] duel_victory` (docs/rulings/readings.md GP-1): "Victory is achieved by defeating
/// your opponent" ("Characters"), while a Down character lies "on its back" and may recover
/// ("Damage & Wounds").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum DuelVictory {
    /// Defeated = removed (a Down character with 4 wounds, whose recovery is impossible).
    #[default]
    Removed,
    /// Defeated = no character Up: a side whose characters are all Down or removed after an
    /// activation loses (the skirmish's end-of-turn rule, applied after every activation).
    NoneUp,
}

/// A firearm or the melee weapon ("Example Weapon Stats").
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWeapon {
    name: Spanned<String>,
    /// d12s per Fire action; absent for a melee weapon.
    #[serde(default)]
    rof: Option<Spanned<i64>>,
    /// Close / Effective / Extreme range limits, inches; absent for a melee weapon.
    #[serde(default)]
    range: Option<Spanned<Vec<f64>>>,
    /// Damage (at Effective and Extreme range for firearms).
    damage: Spanned<i64>,
    /// Damage at Close range (default: `damage`).
    #[serde(default)]
    damage_close: Option<Spanned<i64>>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawUnit {
    name: Spanned<String>,
    cost: Spanned<f64>,
    firearm: Spanned<String>,
    melee: Spanned<String>,
}

raw_config! {
    set: [balance, skirmish];
    #[serde(rename = "weapon")]
    weapons: Vec<RawWeapon>,
    #[serde(rename = "unit")]
    units: Vec<RawUnit>,
    #[serde(default)]
    balance: BalanceConfig,
    skirmish: skirmish::SkirmishConfig,
}

/// A validated loadout: what the hot loop reads.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Profile {
    /// Points cost (equal to start with; see the module docs).
    pub cost: f64,
    /// Firearm: RoF, Close / Effective / Extreme limits (inches), Damage at Close and beyond.
    pub rof: u8,
    pub close: f32,
    pub effective: f32,
    pub extreme: f32,
    pub damage_close: u8,
    pub damage: u8,
    /// The melee weapon's Damage (the knife: 1).
    pub melee_damage: u8,
}

/// The loaded Gunplay ruleset.
#[derive(Debug, Clone)]
pub struct Gunplay {
    /// The rules in force, the `[duel]` settings, the `[balance]` table (rifle anchored at 10)
    /// and the cost list of loadouts.
    pub book: Book<RulesConfig>,
    /// The `[skirmish]` table (defaults when absent).
    pub skirmish: skirmish::SkirmishConfig,
    /// Shortcut for `rules.cover` (read in the hot loop).
    pub cover: Cover,
    pub profiles: Vec<Profile>,
    /// Firearm name of each loadout, in cost-list order.
    pub firearms: Vec<String>,
}

impl Gunplay {
    /// Parses and validates a config, applying `--set` overrides (`rules.*`, `duel.*`,
    /// `balance.*`, `unit.ID.cost`).
    ///
    /// Errors carry `file:line:col` and name the weapon or unit and the key.
    pub fn from_source(source: &Source, overrides: &Overrides) -> Result<Self, ConfigError> {
        let raw = RawConfig::read(source, overrides, Self::KEYS)?;
        let invalid = |e: Invalid| source.invalid(overrides, e);
        validate_settings(&raw.rules, &raw.duel).map_err(invalid)?;
        raw.balance.validate().map_err(invalid)?;
        raw.skirmish.validate().map_err(invalid)?;

        let weapons = raw.weapons.iter().map(|w| weapon_from_raw(source, w)).collect::<Result<Vec<_>, _>>()?;
        // Weapons of one kind are found by id (a firearm and a melee weapon may share a name).
        for (k, w) in raw.weapons.iter().enumerate() {
            let melee = weapons[k].melee;
            let ids: Vec<(&str, String)> = weapons[..k]
                .iter()
                .filter(|x| x.melee == melee)
                .map(|x| (x.name.as_str(), crate::config::id_of(&x.name)))
                .collect();
            new_id("weapon", &weapons[k].name, ids.iter().map(|(n, i)| (*n, i.as_str())))
                .map_err(|m| source.error_at(&w.name.span(), m))?;
        }
        let mut units = Vec::new();
        let mut profiles = Vec::new();
        let mut firearms = Vec::new();
        for u in &raw.units {
            let (name, id) = unit_name(source, &u.name, &units)?;
            let ctx = format!("unit {name:?}: ");
            let cost = unit_cost(overrides, &id, &ctx, *u.cost.get_ref(), source.origin(u.cost.span().start))?;
            let find = |want: &Spanned<String>, melee: bool| -> Result<&Weapon, ConfigError> {
                let known: Vec<&str> = weapons.iter().filter(|w| w.melee == melee).map(|w| w.name.as_str()).collect();
                weapons
                    .iter()
                    .find(|w| w.melee == melee && crate::config::id_of(&w.name) == crate::config::id_of(want.get_ref()))
                    .ok_or_else(|| {
                        source.error_at(
                            &want.span(),
                            format!(
                                "{ctx}unknown {} {:?}; known: {}",
                                if melee { "melee weapon" } else { "firearm" },
                                want.get_ref(),
                                known.join(", ")
                            ),
                        )
                    })
            };
            let gun = find(&u.firearm, false)?;
            let knife = find(&u.melee, true)?;
            units.push(UnitInfo { id, name, cost, kind: "character".to_string() });
            profiles.push(Profile {
                cost,
                rof: gun.rof,
                close: gun.range[0],
                effective: gun.range[1],
                extreme: gun.range[2],
                damage_close: gun.damage_close,
                damage: gun.damage,
                melee_damage: knife.damage,
            });
            firearms.push(gun.name.clone());
        }
        check_cost_list(source, overrides, &units, &["cost"])?;
        check_prices(&raw.balance, &units, &[]).map_err(invalid)?;
        let cover = raw.rules.cover;
        let g = Gunplay {
            book: Book { rules: raw.rules, duel: raw.duel, balance: raw.balance, units },
            cover,
            profiles,
            firearms,
            skirmish: raw.skirmish,
        };
        for (key, names) in [("skirmish.side_a", &g.skirmish.side_a), ("skirmish.side_b", &g.skirmish.side_b)] {
            skirmish::LineUp::from_names(&g, names, g.skirmish.characters)
                .map_err(|m| source.invalid(overrides, Invalid::new(key, m)))?;
        }
        Ok(g)
    }

    /// The profile of loadout `i`.
    pub fn profile(&self, i: usize) -> &Profile {
        &self.profiles[i]
    }

    /// The same ruleset with duels fought over ground of another cover level.
    pub fn with_cover(&self, cover: Cover) -> Gunplay {
        let mut g = self.clone();
        g.cover = cover;
        g.book.rules.cover = cover;
        g
    }

    /// Index of a loadout by name or id (panics if unknown: for tests and internal use).
    pub fn find(&self, name: &str) -> usize {
        self.find_unit(name).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The config's `ruleset` key and the sections `--set` may change ([`read_config`]).
    const KEYS: ConfigKeys =
        ConfigKeys { ruleset: Self::ABOUT.id, sections: &["rules", "duel", "unit", "balance", "skirmish"] };
}

/// A validated weapon.
#[derive(Debug, Clone, PartialEq)]
struct Weapon {
    name: String,
    melee: bool,
    rof: u8,
    range: [f32; 3],
    damage: u8,
    damage_close: u8,
}

fn weapon_from_raw(source: &Source, w: &RawWeapon) -> Result<Weapon, ConfigError> {
    let name = w.name.get_ref().trim().to_string();
    let ctx = format!("weapon {name:?}: ");
    let int = |v: &Spanned<i64>, key: &str, lo: i64, hi: i64| -> Result<u8, ConfigError> {
        let x = *v.get_ref();
        if (lo..=hi).contains(&x) {
            Ok(x as u8)
        } else {
            Err(source.error_at(&v.span(), format!("{ctx}{key} must be an integer from {lo} to {hi}, got {x}")))
        }
    };
    let damage = int(&w.damage, "damage", 1, 8)?;
    let damage_close = match &w.damage_close {
        Some(v) => int(v, "damage_close", 1, 8)?,
        None => damage,
    };
    match (&w.rof, &w.range) {
        (None, None) => Ok(Weapon { name, melee: true, rof: 0, range: [0.0; 3], damage, damage_close }),
        (Some(rof), Some(range)) => {
            let rof = int(rof, "rof", 1, 12)?;
            let r = range.get_ref();
            let ok = r.len() == 3 && r[0] > 0.0 && r[0] <= r[1] && r[1] <= r[2] && r[2] <= 500.0;
            if !ok {
                return Err(source.error_at(
                    &range.span(),
                    format!("{ctx}range must be [close, effective, extreme] in inches, increasing, each in (0, 500], got {r:?}"),
                ));
            }
            Ok(Weapon { name, melee: false, rof, range: [r[0] as f32, r[1] as f32, r[2] as f32], damage, damage_close })
        }
        _ => Err(source
            .error_at(&w.name.span(), format!("{ctx}a firearm needs both rof and range; a melee weapon has neither"))),
    }
}

fn validate_settings(rules: &RulesConfig, duel: &DuelSettings) -> Result<(), Invalid> {
    in_range("rules.cautious_move", rules.cautious_move, 0.0, 100.0, Ends::Top, " in")?;
    in_range("rules.quick_move", rules.quick_move, 0.0, 100.0, Ends::Top, " in")?;
    in_range("rules.contact", rules.contact, 0.0, 10.0, Ends::Both, " in")?;
    duel.validate(500.0, "in", true, true)
}

impl Ruleset for Gunplay {
    type Arena = Battle;
    type Rules = RulesConfig;
    const ABOUT: About = About {
        duel_side: "one character",
        readings: &[Reading { key: "duel_victory", values: &["removed", "none_up"], rule: "Victory" }],
        ..About::new("gunplay", "Gunplay", coverage::table)
    };
    fn book(&self) -> &Book<RulesConfig> {
        &self.book
    }
    fn play_duel<D: Dice>(&self, arena: &mut Battle, dice: &mut D, duel: DuelSetup) -> DuelOutcome {
        arena.deploy_lines(duel.a, duel.na, duel.b, duel.nb, duel.distance as f32, self.book.duel.spacing() as f32);
        arena.tactic = duel.tactics;
        rules::play(self, arena, dice, if duel.a_first { 0 } else { 1 }, self.book.duel.max_rounds)
    }
    /// The skirmish's tactics ([`tactics::TACTICS`]: `default`, `hold`, `close-assault`,
    /// `stand-off`): the duel's activations ([`rules::activate`]) take each character's next
    /// action from its side's tactic.
    fn squad_tactics(&self) -> &'static [crate::rulesets::skirmish::TacticInfo] {
        &tactics::TACTICS
    }
    fn duel_rollout_built(&self) -> bool {
        true
    }
    /// The duel is played game turn by game turn ([`rules::duel_round`]; the book's "Turn
    /// Sequence").
    fn duel_stage(&self) -> &'static str {
        "game turn"
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
    /// Every pair at 3" to 48" (every 3") in the open, in some cover and in lots of cover.
    fn distance_grounds(&self) -> Option<DistanceGrounds<Gunplay>> {
        let grounds: Vec<(String, Gunplay)> =
            Cover::ALL.iter().map(|&c| (c.label().to_string(), self.with_cover(c))).collect();
        let distances: Vec<f64> = (1..=16).map(|k| 3.0 * k as f64).collect();
        Some(DistanceGrounds { grounds, distances })
    }
    /// False: no duel path reads a cost (tested: `analysis::optimal_play`'s
    /// `a_duel_that_reads_no_cost_is_the_same_at_another_cost`).
    fn duel_reads_costs(&self) -> bool {
        false
    }
    fn cache_fingerprint(&self) -> Option<String> {
        Some(format!("{self:?}"))
    }
    fn studies<E: Engine>(&self, engine: &E, found: &Findings, seed: u64, progress: &ProgressBar) -> Vec<Study> {
        study::studies(engine, self, found.fair_costs, seed, progress)
    }
    fn exact_duel(&self, a: usize, b: usize, distance: f64) -> Result<ExactDuel, NotExact> {
        exact::duel(self, a, b, distance)
    }
    crate::rulesets::optimal::optimal_play_methods!(
        /// The 1v1 game on the 48" duel table and the 3" grid ([`optimal::GunplayGame`]); `Err` if
        /// `distance` is not in (0, 48] inches.
        step: optimal::GRID.step
    );
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The shipped config with duels over `cover`.
    pub fn ruleset(cover: Cover) -> Gunplay {
        ruleset_with(cover, &[])
    }

    /// The shipped config with `(key, value)` overrides, e.g. a short `duel.max_rounds` for
    /// tests whose identities hold at any round cap.
    pub fn ruleset_with(cover: Cover, sets: &[(&str, &str)]) -> Gunplay {
        let src = Source::read(std::path::Path::new("configs/gunplay.toml")).expect("configs/gunplay.toml");
        let ov = Overrides(sets.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect());
        Gunplay::from_source(&src, &ov).expect("valid config").with_cover(cover)
    }

    #[test]
    fn the_balance_table_anchors_the_rifle_and_takes_overrides() {
        let src = Source::read(std::path::Path::new("configs/gunplay.toml")).expect("configs/gunplay.toml");
        let b = Gunplay::from_source(&src, &Overrides::default()).unwrap().balance_config();
        assert_eq!((b.anchor.as_deref(), b.cost_step), (Some("rifle"), 0.5));
        let set = |k: &str, v: &str| Overrides(vec![(k.to_string(), v.to_string())]);
        let b = Gunplay::from_source(&src, &set("balance.anchor", "pistol")).unwrap().balance_config();
        assert_eq!(b.anchor.as_deref(), Some("pistol"));
        let err = Gunplay::from_source(&src, &set("balance.anchor", "bazooka")).unwrap_err().to_string();
        assert!(err.contains("bazooka") && err.contains("rifle, pistol, shotgun"), "{err}");
        let err = Gunplay::from_source(&src, &set("balance.cost_step", "0")).unwrap_err().to_string();
        assert!(err.contains("cost_step"), "{err}");
    }

    #[test]
    fn the_config_holds_the_rulebook_weapons() {
        let r = ruleset(Cover::Open);
        let names: Vec<&str> = r.book.units.iter().map(|u| u.id.as_str()).collect();
        assert_eq!(names, ["rifle", "pistol", "shotgun"]);
        let p = r.profile(r.find("shotgun"));
        assert_eq!((p.rof, p.close, p.effective, p.extreme, p.damage_close, p.damage), (1, 12.0, 24.0, 48.0, 2, 1));
        let p = r.profile(r.find("rifle"));
        assert_eq!(
            (p.close, p.effective, p.extreme, p.damage_close, p.damage, p.melee_damage),
            (18.0, 36.0, 72.0, 2, 2, 1)
        );
        assert!(r.book.units.iter().all(|u| u.cost == 10.0), "costs start equal");
    }

    #[test]
    fn bad_configs_name_the_place_and_the_key() {
        let text = std::fs::read_to_string("configs/gunplay.toml")
            .unwrap()
            .replace("firearm = \"Pistol\"", "firearm = \"Blaster\"");
        let e =
            Gunplay::from_source(&Source::from_text("g.toml", text), &Overrides::default()).unwrap_err().to_string();
        assert!(
            e.starts_with("g.toml:") && e.contains("unknown firearm \"Blaster\"; known: Pistol, Rifle, Shotgun"),
            "{e}"
        );
        let ov = Overrides::parse(&["unit.laser.cost=3".to_string()]).unwrap();
        let src = Source::read(std::path::Path::new("configs/gunplay.toml")).unwrap();
        let e = Gunplay::from_source(&src, &ov).unwrap_err().to_string();
        assert!(e.contains("unknown unit \"laser\"; known: rifle, pistol, shotgun"), "{e}");
        let ov = Overrides::parse(&["rules.cover=heavy".to_string()]).unwrap();
        let e = Gunplay::from_source(&src, &ov).unwrap_err().to_string();
        assert!(e.contains("rules.cover=heavy") && e.contains("lots"), "{e}");
    }

    /// The duel plays each side's tactic ([`DuelSetup::tactics`]): two squads of five, a
    /// Pistol line (Extreme range 36") and a Shotgun line (48") 50" apart, that both `hold`
    /// never move and never fire, so every duel is a draw at the turn cap; on the default tactic
    /// they close and fight (scenario: constructed position, the dice free).
    #[test]
    fn the_duel_plays_each_sides_tactic() {
        use crate::dice::FastDice;
        let r = tests::ruleset(Cover::Open);
        let (pistol, shotgun) = (r.find("Pistol"), r.find("Shotgun"));
        let hold = tactics::by_name("hold").expect("hold").index();
        let mut arena = Battle::default();
        let mut draws = [0; 2];
        for (k, t) in [[hold, hold], [0, 0]].into_iter().enumerate() {
            for n in 0..200u64 {
                let mut dice = FastDice::from_seed(n);
                let duel =
                    DuelSetup { a: pistol, na: 5, b: shotgun, nb: 5, distance: 50.0, a_first: n % 2 == 0, tactics: t };
                let out = r.play_duel(&mut arena, &mut dice, duel);
                draws[k] += usize::from(out.winner.is_none());
                if k == 0 {
                    assert_eq!((out.turns, out.kills), (r.book.duel.max_rounds, [0, 0]), "duel {n}");
                    assert!(arena.sides.iter().flatten().all(|c| c.wounds == 0 && !c.down), "duel {n}");
                    let stood = |s: usize, x: f32| arena.sides[s].iter().all(|c| c.x == x);
                    assert!(stood(0, 0.0) && stood(1, 50.0), "a holding side never moves: duel {n}");
                }
            }
        }
        assert_eq!(draws[0], 200);
        assert!(draws[1] < 20, "on the default tactic they close and fight: {draws:?}");
        // Each side reads its own tactic: side A holds while side B, on the default tactic,
        // comes to it.
        let duel = DuelSetup { a: pistol, na: 5, b: shotgun, nb: 5, distance: 50.0, a_first: true, tactics: [hold, 0] };
        r.play_duel(&mut arena, &mut FastDice::from_seed(7), duel);
        assert!(arena.sides[0].iter().all(|c| c.x == 0.0), "side A held");
        assert!(arena.sides[1].iter().any(|c| c.x < 50.0 - 1.0), "side B closed");
    }
}
