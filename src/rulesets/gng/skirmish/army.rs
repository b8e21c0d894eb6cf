//! Guns 'N Grenades armies: read from a TOML army list or drawn at random, always legal.
//!
//! Legality (GnG 1.5, "Building Your Army"; RULINGS.md): the total cost, upgrade included, is
//! at most the points limit; at most 2 Limited units per full 100 points of the limit; at
//! most one upgrade. Random armies also spend at least 95% of the limit, so that armies of
//! different make-up are compared at (nearly) equal points.
//!
//! An army file:
//!
//! ```toml
//! upgrade = "Body Armor"          # optional, one of the cost list's [[upgrade]] names
//! [units]                          # unit name (or kebab-case id) = how many
//! Riflemen = 6
//! "Machine Gunner" = 2
//! ```

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use crate::config::{ConfigError, Source, id_of};
use crate::dice::Dice;
use crate::rulesets::gng::GunsNGrenades;
use crate::rulesets::skirmish::army_counts;

/// An army: unit indices into the cost list (with repeats) and at most one upgrade (index
/// into the upgrade list).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Army {
    pub units: Vec<usize>,
    pub upgrade: Option<usize>,
}

impl Army {
    /// Total points, upgrade included.
    pub fn cost(&self, r: &GunsNGrenades) -> f64 {
        self.units.iter().map(|&u| r.profiles[u].cost).sum::<f64>() + self.upgrade.map_or(0.0, |k| r.upgrades[k].cost)
    }

    /// How many of each unit type, indexed like the cost list.
    pub fn counts(&self, n_types: usize) -> Vec<u32> {
        let mut c = vec![0; n_types];
        for &u in &self.units {
            c[u] += 1;
        }
        c
    }

    /// Checks the army against `limit` points; returns every broken rule, empty if legal.
    pub fn problems(&self, r: &GunsNGrenades, limit: f64) -> Vec<String> {
        let mut out = Vec::new();
        let cost = self.cost(r);
        if cost > limit + 1e-9 {
            out.push(format!("costs {cost} points, more than the limit of {limit}"));
        }
        let limited = self.units.iter().filter(|&&u| r.profiles[u].tags.limited).count() as u32;
        let cap = limited_cap(limit);
        if limited > cap {
            out.push(format!("has {limited} Limited units; at most {cap} at {limit} points (2 per full 100)"));
        }
        if self.units.is_empty() {
            out.push("has no units".to_string());
        }
        out
    }

    /// A one-line description, e.g. `3 Riflemen, 1 Tank + Body Armor (345 pts)`.
    pub fn describe(&self, r: &GunsNGrenades) -> String {
        let counts = self.counts(r.book.units.len());
        let mut parts: Vec<String> = counts
            .iter()
            .enumerate()
            .filter(|(_, c)| **c > 0)
            .map(|(u, c)| format!("{c} {}", r.book.units[u].name))
            .collect();
        if parts.is_empty() {
            parts.push("nothing".into());
        }
        let up = self.upgrade.map_or(String::new(), |k| format!(" + {}", r.upgrades[k].name));
        format!("{}{up} ({} pts)", parts.join(", "), self.cost(r))
    }
}

/// GnG 1.5, "Limited": at most 2 Limited units per full 100 points of the limit (350 → 6).
pub fn limited_cap(limit: f64) -> u32 {
    2 * (limit / 100.0).floor() as u32
}

/// A random legal army at `limit` points: with probability `upgrade_chance` one upgrade
/// drawn uniformly among those that fit, then unit types drawn uniformly among those that
/// still fit (respecting Limited) until none does. Redrawn until it spends at least 95% of
/// the limit (at most 1000 tries, then the best draw is kept). All randomness from `dice`.
pub fn random_army<D: Dice>(r: &GunsNGrenades, limit: f64, upgrade_chance: f64, dice: &mut D) -> Army {
    let cap = limited_cap(limit);
    let mut best = Army::default();
    for _ in 0..1000 {
        let mut army = Army::default();
        let mut spent = 0.0;
        if !r.upgrades.is_empty() && dice.unit_f64() < upgrade_chance {
            let fits: Vec<usize> = (0..r.upgrades.len()).filter(|&k| r.upgrades[k].cost <= limit).collect();
            if !fits.is_empty() {
                let k = fits[dice.below(fits.len())];
                army.upgrade = Some(k);
                spent += r.upgrades[k].cost;
            }
        }
        let mut limited = 0;
        loop {
            let fits: Vec<usize> = (0..r.profiles.len())
                .filter(|&u| {
                    let p = &r.profiles[u];
                    spent + p.cost <= limit + 1e-9 && (!p.tags.limited || limited < cap)
                })
                .collect();
            if fits.is_empty() {
                break;
            }
            let u = fits[dice.below(fits.len())];
            spent += r.profiles[u].cost;
            limited += r.profiles[u].tags.limited as u32;
            army.units.push(u);
        }
        if spent >= 0.95 * limit {
            return army;
        }
        if spent > best.cost(r) {
            best = army;
        }
    }
    best
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawArmy {
    upgrade: Option<toml::Spanned<String>>,
    units: BTreeMap<String, toml::Spanned<u32>>,
}

/// Reads an army file (see the module docs) and checks it against `limit` points.
///
/// Errors: unreadable file, bad TOML (`file:line:col`), an unknown unit or upgrade (with the
/// list of valid names), or an illegal army.
pub fn read_army(r: &GunsNGrenades, path: &Path, limit: f64) -> Result<Army, ConfigError> {
    let source = Source::read(path)?;
    let raw: RawArmy = source.parse()?;
    let mut army = Army::default();
    let names: Vec<&str> = r.book.units.iter().map(|u| u.name.as_str()).collect();
    let costs: Vec<f64> = r.profiles.iter().map(|p| p.cost).collect();
    for (u, n, _) in army_counts(&source, &raw.units, "unit", &names, &costs, limit, "the mission's points")? {
        army.units.extend(std::iter::repeat_n(u, n as usize));
    }
    if let Some(up) = &raw.upgrade {
        let id = id_of(up.get_ref());
        let Some(k) = r.upgrades.iter().position(|x| id_of(&x.name) == id) else {
            return Err(source.error_at(
                &up.span(),
                format!(
                    "unknown upgrade {:?}; known: {}",
                    up.get_ref(),
                    r.upgrades.iter().map(|u| u.name.as_str()).collect::<Vec<_>>().join(", ")
                ),
            ));
        };
        army.upgrade = Some(k);
    }
    let problems = army.problems(r, limit);
    if !problems.is_empty() {
        let m = format!("the army is not legal: it {}", problems.join("; it "));
        return Err(crate::rulesets::skirmish::army_error(&source, &m));
    }
    Ok(army)
}
