//! The mission's armies: the cost list's entries with their upgrades ([`entries`]), legal
//! random armies ([`random_army`]) and army files ([`read_army`]), checked against the army
//! limits ([`super::army`], AMC 2.0 "The Armies").

use serde::Deserialize;

use super::*;

/// Every entry a skirmish army can field: the plain cost list, then the upgraded entries.
pub fn entries(r: &ArmyMenCombat) -> Vec<(UnitInfo, Profile)> {
    r.entries.clone()
}

/// An army: entry indices (into [`entries`]) in army order.
pub type Army = Vec<usize>;

/// Fixed armies or fresh random ones every game.
pub type Armies = crate::rulesets::skirmish::Armies<Army>;

/// Checks an army against the army limits (AMC 2.0, "The Armies"); returns its points.
pub fn check_army(r: &ArmyMenCombat, all: &[(UnitInfo, Profile)], army: &[usize]) -> Result<f64, String> {
    let list: Vec<(&str, &Profile)> = army.iter().map(|&e| (all[e].0.name.as_str(), &all[e].1)).collect();
    r.army.check(&list)
}

/// The index into [`entries`] of plain entry `base` with the upgrades `bought` (ascending
/// indices into [`ArmyMenCombat::upgraded`]).
pub fn entry_of(r: &ArmyMenCombat, base: usize, bought: &[usize]) -> Option<usize> {
    r.entry_parts.iter().position(|(b, ups)| *b == base && ups.as_slice() == bought)
}

/// A random legal army: add a plain entry drawn uniformly among those that still fit the
/// points, the vehicle share and the support limit, and buy it upgrades: in each of its
/// upgrade groups ([`crate::rulesets::amc::upgrade_group`]: Bayonets; Grenades or C4;
/// Flamethrower or Bazooka; Truck or APC; MG; Medium Tank +1 or +2) none or one of the
/// choices that still fit, each with equal chance (issue 16: random mission armies buy
/// upgrades, so the mission prices them); until no plain entry fits.
pub fn random_army<D: Dice>(r: &ArmyMenCombat, dice: &mut D) -> Army {
    let groups = crate::rulesets::amc::upgrade_groups(&r.profiles, &r.upgraded);
    let lim = &r.army;
    let (mut points, mut vehicles, mut support) = (0.0, 0.0, 0u32);
    let mut army = Vec::new();
    let mut fits = Vec::with_capacity(r.profiles.len());
    loop {
        fits.clear();
        for (e, p) in r.profiles.iter().enumerate() {
            let veh = if p.kind == Kind::Vehicle { p.cost } else { 0.0 };
            if points + p.cost <= lim.points + 1e-9
                && vehicles + veh <= lim.vehicle_share * lim.points + 1e-9
                && (!p.support || support < lim.max_support)
            {
                fits.push(e);
            }
        }
        if fits.is_empty() {
            return army;
        }
        let base = fits[dice.below(fits.len())];
        let vehicle = r.profiles[base].kind == Kind::Vehicle;
        let fit = |cost: f64| {
            points + cost <= lim.points + 1e-9 && (!vehicle || vehicles + cost <= lim.vehicle_share * lim.points + 1e-9)
        };
        let mut cost = r.profiles[base].cost;
        let mut bought = Vec::new();
        for g in &groups[base] {
            let options: Vec<usize> = g.iter().copied().filter(|&k| fit(cost + r.upgraded[k].upgrade_cost)).collect();
            if options.is_empty() {
                continue;
            }
            let c = dice.below(options.len() + 1);
            if c > 0 {
                cost += r.upgraded[options[c - 1]].upgrade_cost;
                bought.push(options[c - 1]);
            }
        }
        bought.sort_unstable();
        let e = entry_of(r, base, &bought).unwrap_or(base);
        let p = &r.entries[e].1;
        points += p.cost;
        vehicles += if p.kind == Kind::Vehicle { p.cost } else { 0.0 };
        support += p.support as u32;
        army.push(e);
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawArmy {
    units: BTreeMap<String, toml::Spanned<u32>>,
}

/// Reads an army file: a `[units]` table of entry name = count (plain entries such as
/// `"Riflemen (10)"` or upgraded ones such as `"Riflemen (10) + Bayonets"`, with several
/// upgrades joined in the order the unit lists them, one per group:
/// `"Riflemen (10) + Bayonets + Grenades + Bazooka"`, `"Jeep + Truck + Jeep MG"`).
///
/// Errors: unreadable file, bad TOML (`file:line:col`), an unknown entry (with the list of
/// valid names), or an army that breaks the army limits.
pub fn read_army(r: &ArmyMenCombat, path: &Path) -> Result<Army, ConfigError> {
    let source = Source::read(path)?;
    let raw: RawArmy = source.parse()?;
    let all = entries(r);
    let mut army = Vec::new();
    let names: Vec<&str> = all.iter().map(|u| u.0.name.as_str()).collect();
    let costs: Vec<f64> = all.iter().map(|u| u.1.cost).collect();
    for (e, n, _) in crate::rulesets::skirmish::army_counts(
        &source,
        &raw.units,
        "unit",
        &names,
        &costs,
        r.army.points,
        "[army] points",
    )? {
        army.extend(std::iter::repeat_n(e, n as usize));
    }
    if army.is_empty() {
        return Err(crate::rulesets::skirmish::army_error(&source, "the army has no units"));
    }
    check_army(r, &all, &army)
        .map_err(|m| crate::rulesets::skirmish::army_error(&source, &format!("the army is not legal: {m}")))?;
    Ok(army)
}

/// "A: 3 × Riflemen (10), Tank".
pub fn describe(all: &[(UnitInfo, Profile)], army: &[usize]) -> String {
    crate::rulesets::skirmish::describe_counts(army, |e| &all[e].0.name)
}
