//! The Grunt Factor (`grunt-factor`): d20 roll-under squads with range bands, actions, armor
//! saves and panic.
//!
//! Source: `rulebooks/grunt-factor.txt`, read with RULINGS.md, "The Grunt Factor". The rules
//! live in [`rules`] (one function per rule step, the default tactic and the squad battle), the
//! exact solver in [`exact`] (a Markov chain over models left, panic, prone, "under fire" and
//! distance of each squad), the duel under optimal play in [`optimal`] (`duel grunt-factor A
//! B --optimal`, the report's "Does the tactic play well?"), the rules-coverage table in [`coverage`] and the ruleset lint in
//! [`coverage::lint`].
//!
//! Why the cost list is a list of squads: the book prices soldiers by quality (Untrained 10 to
//! Elite 25 a model, CO +5) and fields them in squads (1 Sergeant + 1–11 soldiers), but prices
//! no weapon. A unit here is one squad of one quality and one loadout, priced by the book: the
//! quality cost per model plus the CO bonus for the Sergeant (the squad leader, whose +1 LD a
//! replacement leader does not inherit). Loadouts other than the standard Assault Rifle cost
//! the same as a rifle squad of their quality, so the report's fair costs say what the weapon
//! is worth.
//!
//! Readings worth knowing before trusting a number (all in the coverage table too):
//! - Each squad stands at one point of a line; lateral spacing is not used, so every model is
//!   within command radius and every squad sees every enemy (open ground, normal sighting).
//! - Shooters pick off the squad leader first, then the specialist, then the soldiers: the
//!   casualty order is fixed, so a squad's state is the number of models it has left.
//! - Close combat is never initiated by the default tactic: every armory weapon's PB band is
//!   at least as good as its CC band and CC never exceeds RC.
//!
//! Files: the folder template of [`crate::rulesets`] — `mod.rs` (units, config, the `Ruleset`
//! impl), `rules.rs`, `exact.rs`, `optimal.rs`, `tactics/`, `skirmish/`, `coverage.rs` (with
//! `coverage.tsv`), `study.rs`; below them, `coverage/lint.rs` (the ruleset lint of the
//! draft rulebook's printed values).
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
    About, BalanceConfig, Book, DuelOutcome, DuelSetup, ExactDuel, LintFinding, NotExact, Ruleset, UnitInfo,
};

pub use rules::{Battle, Squad};

/// Band names in armory column order: close combat, point blank, short, medium, long, extreme.
pub const BAND_NAMES: [&str; 6] = ["close combat", "point blank", "short", "medium", "long", "extreme"];

/// The `[rules]` table: the numbers of "Ranges", "Sighting", "Command radius", "Morale".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesConfig {
    /// Upper limits of PB, SR, MR, LR, ER in cm, increasing ("Ranges").
    pub bands: Vec<f64>,
    /// Max normal sighting, cm: firing farther needs a passed LD roll ("Fire").
    pub sighting: f64,
    /// Command radius from the squad leader, cm.
    pub command_radius: f64,
    /// A morale check is due when more than this share of the squad is killed by one enemy
    /// squad's fire ("Morale checks": 25%).
    pub casualty_share: f64,
    /// Actions the squad spends together on a recovery test ("Recovering from panic": 3).
    pub recovery_actions: u8,
    /// LD modifier of the recovery test with an enemy in line of sight (−2).
    pub recovery_enemy_in_los: i8,
    /// LD modifier of the recovery test when under fire (−4; not cumulative with the above).
    pub recovery_under_fire: i8,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawQuality {
    name: Spanned<String>,
    cc: Spanned<i64>,
    rc: Spanned<i64>,
    ld: Spanned<i64>,
    ac: Spanned<i64>,
    st: Spanned<i64>,
    mv: Spanned<f64>,
    a: Spanned<i64>,
    s: Spanned<i64>,
    cost: Spanned<f64>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCo {
    ld: Spanned<i64>,
    cost: Spanned<f64>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWeapon {
    name: Spanned<String>,
    hit: Spanned<Vec<String>>,
    shots: Spanned<Vec<i64>>,
    damage: Spanned<Vec<String>>,
    saves: Spanned<Vec<i64>>,
    #[serde(default)]
    specialist: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawUnit {
    name: Spanned<String>,
    quality: Spanned<String>,
    soldiers: Spanned<i64>,
    weapon: Spanned<String>,
    #[serde(default)]
    specialist: Option<Spanned<String>>,
    #[serde(default)]
    cost: Option<Spanned<f64>>,
}

raw_config! {
    set: [balance, skirmish];
    #[serde(default)]
    balance: BalanceConfig,
    #[serde(default)]
    skirmish: skirmish::SkirmishConfig,
    #[serde(rename = "quality")]
    qualities: Vec<RawQuality>,
    co: RawCo,
    #[serde(rename = "weapon")]
    weapons: Vec<RawWeapon>,
    #[serde(rename = "unit")]
    units: Vec<RawUnit>,
}

/// A soldier quality ("Basic soldiers"): the stat line as printed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Quality {
    pub name: String,
    pub cc: i8,
    pub rc: i8,
    pub ld: i8,
    /// Actions per turn.
    pub ac: u8,
    /// Strength: printed, used by no rule (see the lint).
    pub st: i8,
    /// Movement per action, cm.
    pub mv: f64,
    /// Armor/stamina: the save is d20 ≤ 10 + A − Dam.
    pub a: i8,
    /// Size: printed, used by no rule (see the lint).
    pub s: i8,
    /// Points per model.
    pub cost: f64,
}

/// One armory column: the hit modifier and damage at a band, with their `(xN)`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BandStats {
    /// Modifier to RC (CC in close combat); `None` where the book prints `-` (no fire).
    pub hit: Option<i8>,
    /// Shots per Fire action (the hit column's `(xN)`; 1 when not printed).
    pub shots: u8,
    /// Dam; `None` where the book prints `-`.
    pub damage: Option<i8>,
    /// Saves the target must pass per hit (the damage column's `(xN)`; 1 when not printed).
    pub saves: u8,
}

impl BandStats {
    /// Whether the weapon can fire at this band.
    pub fn usable(&self) -> bool {
        self.hit.is_some() && self.damage.is_some() && self.shots > 0 && self.saves > 0
    }
}

/// An armory weapon: one [`BandStats`] per band CC, PB, SR, MR, LR, ER.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Weapon {
    pub name: String,
    pub bands: [BandStats; 6],
    /// Carried by a specialist (HMG): at most one per squad, 2 normal soldiers each.
    pub specialist: bool,
}

/// A squad as the hot loop reads it. Slot 0 is the Sergeant; a specialist, if any, is slot 1;
/// the soldiers follow. Shooters remove models in slot order (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct SquadProfile {
    pub cost: f64,
    pub quality: usize,
    pub cc: i8,
    pub rc: i8,
    pub ld: i8,
    pub ac: u8,
    pub mv: f64,
    pub a: i8,
    /// LD bonus of the Sergeant (the CO): +1.
    pub co_ld: i8,
    /// "Permanent effects" (the 1/3 rule) does not apply to Elite troops.
    pub elite: bool,
    /// Weapon index of each slot.
    pub weapons: Vec<u8>,
}

impl SquadProfile {
    /// Models in the squad at full strength.
    pub fn size(&self) -> u8 {
        self.weapons.len() as u8
    }
}

/// The loaded Grunt Factor ruleset.
#[derive(Debug, Clone)]
pub struct GruntFactor {
    /// The rules in force, the `[duel]` and `[balance]` settings and the cost list of squads.
    pub book: Book<RulesConfig>,
    /// The `[skirmish]` table.
    pub skirmish: skirmish::SkirmishConfig,
    pub qualities: Vec<Quality>,
    /// CO bonus: LD and points.
    pub co_ld: i8,
    pub co_cost: f64,
    pub weapons: Vec<Weapon>,
    pub profiles: Vec<SquadProfile>,
}

/// Parses a printed modifier or damage: `"+2"`, `"0"`, `"-1"`, or `"-"` (none), a number in
/// `lo..=hi` (the d20 arithmetic of a hit or a save stays far inside an `i8`).
fn printed(s: &str, lo: i8, hi: i8) -> Result<Option<i8>, String> {
    let t = s.trim();
    if t == "-" {
        return Ok(None);
    }
    match t.strip_prefix('+').unwrap_or(t).parse::<i8>() {
        Ok(x) if (lo..=hi).contains(&x) => Ok(Some(x)),
        _ => Err(format!("must be a number from {lo} to {hi} or \"-\", got {s:?}")),
    }
}

/// The printed range of an armory hit modifier and of its damage (`printed`).
const HIT_RANGE: (i8, i8) = (-20, 20);
const DAMAGE_RANGE: (i8, i8) = (0, 40);

impl GruntFactor {
    /// Parses and validates a config, applying `--set` overrides (`rules.*`, `duel.*`,
    /// `balance.*`, `unit.ID.cost`).
    ///
    /// Errors carry `file:line:col` and name the quality, weapon or unit and the key.
    pub fn from_source(source: &Source, overrides: &Overrides) -> Result<Self, ConfigError> {
        let raw = RawConfig::read(source, overrides, Self::KEYS)?;
        let invalid = |e: Invalid| source.invalid(overrides, e);
        validate_rules(&raw.rules).map_err(invalid)?;
        raw.duel.validate(500.0, "cm", false, false).map_err(invalid)?;
        raw.balance.validate().map_err(invalid)?;
        raw.skirmish.validate().map_err(invalid)?;

        let int = |v: &Spanned<i64>, ctx: &str, key: &str, lo: i64, hi: i64| -> Result<i64, ConfigError> {
            let x = *v.get_ref();
            if (lo..=hi).contains(&x) {
                Ok(x)
            } else {
                Err(source.error_at(&v.span(), format!("{ctx}{key} must be an integer from {lo} to {hi}, got {x}")))
            }
        };
        let mut qualities: Vec<Quality> = Vec::new();
        for q in &raw.qualities {
            let name = q.name.get_ref().trim().to_string();
            let ctx = format!("quality {name:?}: ");
            let ids: Vec<(&str, String)> = qualities.iter().map(|x| (x.name.as_str(), id_of(&x.name))).collect();
            new_id("quality", &name, ids.iter().map(|(n, i)| (*n, i.as_str())))
                .map_err(|m| source.error_at(&q.name.span(), m))?;
            let mv = *q.mv.get_ref();
            if !(mv > 0.0 && mv <= 100.0) {
                return Err(source.error_at(&q.mv.span(), format!("{ctx}mv must be more than 0 and at most 100 cm")));
            }
            let cost = *q.cost.get_ref();
            if !(cost > 0.0 && cost <= 1000.0) {
                return Err(source.error_at(&q.cost.span(), format!("{ctx}cost must be more than 0 and at most 1000")));
            }
            qualities.push(Quality {
                cc: int(&q.cc, &ctx, "cc", 0, 30)? as i8,
                rc: int(&q.rc, &ctx, "rc", 0, 30)? as i8,
                ld: int(&q.ld, &ctx, "ld", 0, 30)? as i8,
                ac: int(&q.ac, &ctx, "ac", 1, 10)? as u8,
                st: int(&q.st, &ctx, "st", 0, 30)? as i8,
                a: int(&q.a, &ctx, "a", 0, 30)? as i8,
                s: int(&q.s, &ctx, "s", 0, 30)? as i8,
                mv,
                cost,
                name,
            });
        }
        let co_ld = int(&raw.co.ld, "[co] ", "ld", 0, 10)? as i8;
        let co_cost = *raw.co.cost.get_ref();
        if !(0.0..=1000.0).contains(&co_cost) {
            return Err(source.error_at(&raw.co.cost.span(), "[co] cost must be 0 to 1000 points"));
        }

        let mut weapons: Vec<Weapon> = Vec::new();
        for w in &raw.weapons {
            let name = w.name.get_ref().trim().to_string();
            let ctx = format!("weapon {name:?}: ");
            let ids: Vec<(&str, String)> = weapons.iter().map(|x| (x.name.as_str(), id_of(&x.name))).collect();
            new_id("weapon", &name, ids.iter().map(|(n, i)| (*n, i.as_str())))
                .map_err(|m| source.error_at(&w.name.span(), m))?;
            let six = |len: usize, span: std::ops::Range<usize>, key: &str| -> Result<(), ConfigError> {
                if len == 6 {
                    Ok(())
                } else {
                    Err(source
                        .error_at(&span, format!("{ctx}{key} must list 6 bands (CC, PB, SR, MR, LR, ER), got {len}")))
                }
            };
            six(w.hit.get_ref().len(), w.hit.span(), "hit")?;
            six(w.damage.get_ref().len(), w.damage.span(), "damage")?;
            six(w.shots.get_ref().len(), w.shots.span(), "shots")?;
            six(w.saves.get_ref().len(), w.saves.span(), "saves")?;
            let mut bands = [BandStats { hit: None, shots: 0, damage: None, saves: 0 }; 6];
            for (k, b) in bands.iter_mut().enumerate() {
                let p = |v: &Spanned<Vec<String>>, key: &str, (lo, hi): (i8, i8)| {
                    printed(&v.get_ref()[k], lo, hi)
                        .map_err(|m| source.error_at(&v.span(), format!("{ctx}{key} ({}) {m}", BAND_NAMES[k])))
                };
                b.hit = p(&w.hit, "hit", HIT_RANGE)?;
                b.damage = p(&w.damage, "damage", DAMAGE_RANGE)?;
                let count = |v: &Spanned<Vec<i64>>, key: &str| -> Result<u8, ConfigError> {
                    let x = v.get_ref()[k];
                    if (0..=10).contains(&x) {
                        Ok(x as u8)
                    } else {
                        Err(source.error_at(
                            &v.span(),
                            format!("{ctx}{key} must be an integer from 0 to 10, got {x} ({})", BAND_NAMES[k]),
                        ))
                    }
                };
                b.shots = count(&w.shots, "shots")?;
                b.saves = count(&w.saves, "saves")?;
            }
            weapons.push(Weapon { name, bands, specialist: w.specialist });
        }

        let mut units: Vec<UnitInfo> = Vec::new();
        let mut profiles = Vec::new();
        for u in &raw.units {
            let (name, id) = unit_name(source, &u.name, &units)?;
            let ctx = format!("unit {name:?}: ");
            let qi = qualities.iter().position(|q| id_of(&q.name) == id_of(u.quality.get_ref())).ok_or_else(|| {
                source.error_at(
                    &u.quality.span(),
                    format!(
                        "{ctx}unknown quality {:?}; known: {}",
                        u.quality.get_ref(),
                        qualities.iter().map(|q| q.name.as_str()).collect::<Vec<_>>().join(", ")
                    ),
                )
            })?;
            let find = |w: &Spanned<String>| -> Result<usize, ConfigError> {
                weapons.iter().position(|x| id_of(&x.name) == id_of(w.get_ref())).ok_or_else(|| {
                    source.error_at(
                        &w.span(),
                        format!(
                            "{ctx}unknown weapon {:?}; known: {}",
                            w.get_ref(),
                            weapons.iter().map(|x| x.name.as_str()).collect::<Vec<_>>().join(", ")
                        ),
                    )
                })
            };
            // "Normal unit configuration": 1 Sergeant + 1-11 soldiers.
            let soldiers = int(&u.soldiers, &ctx, "soldiers", 1, 11)? as usize;
            let main = find(&u.weapon)?;
            if weapons[main].specialist {
                return Err(source.error_at(
                    &u.weapon.span(),
                    format!("{ctx}{} is a specialist weapon: give it as `specialist`", weapons[main].name),
                ));
            }
            let mut slots = vec![main as u8; soldiers + 1];
            if let Some(sp) = &u.specialist {
                let w = find(sp)?;
                // "For every specialist you need at least 2 normal soldiers".
                if soldiers < 3 {
                    return Err(source.error_at(
                        &sp.span(),
                        format!("{ctx}a specialist needs at least 2 normal soldiers: soldiers must be 3 or more"),
                    ));
                }
                slots[1] = w as u8;
            }
            let q = &qualities[qi];
            let book = q.cost * slots.len() as f64 + co_cost;
            let (cost, origin) = match &u.cost {
                Some(c) => (*c.get_ref(), source.origin(c.span().start)),
                None => (book, source.origin(u.name.span().start)),
            };
            let cost = unit_cost(overrides, &id, &ctx, cost, origin)?;
            units.push(UnitInfo { id, name, cost, kind: "squad".to_string() });
            profiles.push(SquadProfile {
                cost,
                quality: qi,
                cc: q.cc,
                rc: q.rc,
                ld: q.ld,
                ac: q.ac,
                mv: q.mv,
                a: q.a,
                co_ld,
                elite: id_of(&q.name) == "elite",
                weapons: slots,
            });
        }
        check_cost_list(source, overrides, &units, &["cost"])?;
        check_prices(&raw.balance, &units, &[("skirmish.points", raw.skirmish.points)]).map_err(invalid)?;
        Ok(GruntFactor {
            book: Book { rules: raw.rules, duel: raw.duel, balance: raw.balance, units },
            skirmish: raw.skirmish,
            qualities,
            co_ld,
            co_cost,
            weapons,
            profiles,
        })
    }

    /// The profile of squad `i`.
    pub fn profile(&self, i: usize) -> &SquadProfile {
        &self.profiles[i]
    }

    /// Index of a squad by name or id (panics if unknown: for tests and internal use).
    pub fn find(&self, name: &str) -> usize {
        self.find_unit(name).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The config's `ruleset` key and the sections `--set` may change ([`read_config`]).
    const KEYS: ConfigKeys =
        ConfigKeys { ruleset: Self::ABOUT.id, sections: &["rules", "duel", "unit", "balance", "skirmish"] };
}

fn validate_rules(r: &RulesConfig) -> Result<(), Invalid> {
    let b = &r.bands;
    if b.len() != 5 || b.iter().any(|x| !(*x > 0.0 && *x <= 500.0)) || b.windows(2).any(|w| w[1] <= w[0]) {
        return Err(Invalid::new(
            "rules.bands",
            format!("[rules] bands must be 5 increasing upper limits (PB, SR, MR, LR, ER) in (0, 500] cm, got {b:?}"),
        ));
    }
    in_range("rules.sighting", r.sighting, 0.0, 500.0, Ends::Top, " cm")?;
    in_range("rules.command_radius", r.command_radius, 0.0, 500.0, Ends::Top, " cm")?;
    in_range("rules.casualty_share", r.casualty_share, 0.0, 1.0, Ends::Bottom, "")?;
    in_range("rules.recovery_actions", r.recovery_actions, 1, 10, Ends::Both, "")?;
    in_range("rules.recovery_enemy_in_los", r.recovery_enemy_in_los, -20, 0, Ends::Both, "")?;
    in_range("rules.recovery_under_fire", r.recovery_under_fire, -20, 0, Ends::Both, "")
}

impl Ruleset for GruntFactor {
    type Arena = Battle;
    type Rules = RulesConfig;
    const ABOUT: About = About {
        distance_unit: "cm",
        duel_side: "one squad",
        ..About::new("grunt-factor", "The Grunt Factor", coverage::table)
    };
    fn book(&self) -> &Book<RulesConfig> {
        &self.book
    }
    fn play_duel<D: Dice>(&self, arena: &mut Battle, dice: &mut D, duel: DuelSetup) -> DuelOutcome {
        arena.deploy(self, duel.a, duel.na, duel.b, duel.nb, duel.distance);
        rules::play(self, arena, dice, duel.a_first, self.book.duel.max_rounds)
    }
    fn lint(&self) -> Vec<LintFinding> {
        coverage::lint::lint(self)
    }
    /// False: no duel path reads a cost (tested: `analysis::optimal_play`'s
    /// `a_duel_that_reads_no_cost_is_the_same_at_another_cost`).
    fn duel_reads_costs(&self) -> bool {
        false
    }
    fn cache_fingerprint(&self) -> Option<String> {
        Some(format!("{self:?}"))
    }
    fn studies<E: Engine>(&self, _: &E, found: &Findings, _: u64, _: &indicatif::ProgressBar) -> Vec<Study> {
        study::studies(self, found)
    }
    crate::rulesets::optimal::optimal_play_methods!(
        /// The duel as a game on the 120 cm deep table, on a 9 cm grid ([`optimal::GruntGame`]).
        /// Errors: a start distance outside (0, 120] cm.
        step: optimal::GRID.step
    );
    fn exact_duel(&self, a: usize, b: usize, distance: f64) -> Result<ExactDuel, NotExact> {
        exact::duel(self, a, b, distance)
    }
    /// F: expected kills of one activation of squad `i` at full strength on squad `j` at the
    /// duel distance (the default tactic's plan); H: the models of squad `i`.
    fn lanchester(&self, i: usize, j: usize) -> Option<(f64, f64)> {
        let f = rules::expected_kills(self, i, j, self.book.duel.distance);
        Some((f, self.profiles[i].size() as f64))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The shipped config.
    pub fn ruleset() -> GruntFactor {
        crate::rulesets::book::shipped(&[])
    }

    #[test]
    fn the_config_holds_the_book_tables() {
        let r = ruleset();
        let names: Vec<&str> = r.qualities.iter().map(|q| q.name.as_str()).collect();
        assert_eq!(names, ["Untrained", "Green", "Regular", "Veteran", "Elite"]);
        let e = &r.qualities[4];
        assert_eq!((e.cc, e.rc, e.ld, e.ac, e.st, e.a, e.s, e.cost), (10, 10, 13, 4, 8, 9, 2, 25.0));
        let ar = r.weapons.iter().find(|w| w.name == "Assault Rifle").unwrap();
        assert_eq!(ar.bands[4], BandStats { hit: Some(-2), shots: 1, damage: Some(0), saves: 1 });
        assert!(!ar.bands[5].usable());
        let lmg = r.weapons.iter().find(|w| w.name == "LMG").unwrap();
        assert_eq!((lmg.bands[1].shots, lmg.bands[1].hit), (3, Some(3)));
        let sniper = r.weapons.iter().find(|w| w.name == "Sniper Rifle").unwrap();
        assert_eq!((sniper.bands[3].saves, sniper.bands[5].saves, sniper.bands[5].damage), (2, 1, Some(9)));
        // Book prices: quality cost per model plus the CO bonus.
        let cost = |id: &str| r.book.units[r.find(id)].cost;
        assert_eq!(
            (cost("untrained-rifles"), cost("regular-rifles"), cost("elite-rifles"), cost("regular-hmg")),
            (55.0, 90.0, 130.0, 90.0)
        );
        let hmg = r.profile(r.find("regular-hmg"));
        assert_eq!(r.weapons[hmg.weapons[1] as usize].name, "HMG");
        assert_eq!(hmg.size(), 5);
    }

    #[test]
    fn bad_configs_name_the_place_and_the_key() {
        let text = std::fs::read_to_string("configs/grunt-factor.toml").unwrap();
        let bad = |from: &str, to: &str| {
            let t = text.replacen(from, to, 1);
            GruntFactor::from_source(&Source::from_text("t.toml", t), &Overrides::default()).unwrap_err().to_string()
        };
        let e = bad("specialist = \"HMG\"", "specialist = \"Laser\"");
        assert!(e.starts_with("t.toml:") && e.contains("unknown weapon \"Laser\"; known: Pistol"), "{e}");
        let e = bad("quality = \"Elite\"", "quality = \"Heroic\"");
        assert!(e.contains("unknown quality \"Heroic\"; known: Untrained, Green"), "{e}");
        let e = bad("hit = [\"+2\", \"+2\", \"+1\"", "hit = [\"x\", \"+2\", \"+1\"");
        assert!(e.contains("weapon \"Pistol\": hit (close combat)"), "{e}");
        let e = bad("weapon = \"Assault Rifle\"\nspecialist = \"HMG\"", "weapon = \"HMG\"");
        assert!(e.contains("specialist weapon"), "{e}");
        let src = Source::read(std::path::Path::new("configs/grunt-factor.toml")).unwrap();
        let ov = Overrides::parse(&["unit.tanks.cost=3".to_string()]).unwrap();
        let e = GruntFactor::from_source(&src, &ov).unwrap_err().to_string();
        assert!(e.contains("unknown unit \"tanks\"; known: untrained-rifles"), "{e}");
        let ov = Overrides::parse(&["unit.elite-rifles.cost=100".to_string()]).unwrap();
        let r = GruntFactor::from_source(&src, &ov).unwrap();
        assert_eq!(r.book.units[r.find("elite-rifles")].cost, 100.0);
    }
}
