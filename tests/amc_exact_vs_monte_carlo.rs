//! Army Men Combat: for every pair of the cost list (a ≤ b, mirrors included) that the exact
//! stand-up solver covers, at a distance needing no movement (24"), one beyond charge reach
//! but inside every weapon's range (18"), one where the Rifle units must advance (30") and one
//! inside charge reach (12"), Monte Carlo agrees with the exact chain. Each test's comparisons
//! (win, loss and draw rates, mean turns) are one family at family-wise level 0.001 (Holm), so
//! any seed passes a correct engine: `POINTSWORTH_TEST_SEEDS=5,6,7 cargo test --test
//! amc_exact_vs_monte_carlo`. Every pair the solver refuses is refused for the documented
//! reason (a unit would move or could charge).

mod common;

use common::{Family, compare, replicated, seeds};
use pointsworth::config::{Overrides, Source};
use pointsworth::rulesets::Ruleset;
use pointsworth::rulesets::amc::ArmyMenCombat;

fn load() -> ArmyMenCombat {
    let src = Source::read(std::path::Path::new("configs/army-men-combat.toml")).unwrap();
    ArmyMenCombat::from_source(&src, &Overrides::default()).unwrap()
}

/// The Rifle units (Rifle range 24"): beyond 24" they must advance before they can shoot.
const RIFLE_UNITS: [&str; 6] =
    ["Recruits (5)", "Recruits (10)", "Riflemen (5)", "Riflemen (10)", "Veterans (5)", "Veterans (10)"];

/// Duels per pair: `REPS` replicates of `PER_REP`. A family of m comparisons at level 0.001
/// flags a comparison at p ≤ 0.001 / m, about 4.7 standard errors for m = 480 (120 pairs);
/// the standard error of a rate is at most 0.5 / √4000 = 0.79 points, so a win rate about
/// 3.7 points off the exact one fails the test on any seed.
const REPS: u64 = 10;
const PER_REP: u64 = 400;

/// Checks every pair (a ≤ b) at `d` inches on `seed` as one family. Pairs the solver refuses
/// must be refused naming the first unit of the pair in `cannot_stand` (which would move or
/// could charge at `d`). Returns (pairs checked, pairs refused).
fn check_all(r: &ArmyMenCombat, d: f64, cannot_stand: &dyn Fn(&str) -> bool, seed: u64) -> (usize, usize) {
    let units = r.units();
    let mut family = Family::new();
    let (mut checked, mut refused) = (0, 0);
    for a in 0..units.len() {
        for b in a..units.len() {
            let (na, nb) = (&units[a].name, &units[b].name);
            let blocker = [na, nb].into_iter().find(|n| cannot_stand(n));
            match (r.exact_duel(a, b, d), blocker) {
                (Ok(exact), None) => {
                    let (t, turns) = replicated(r, a, b, d, seed, REPS, PER_REP);
                    compare(&mut family, &format!("{na} v {nb} at {d}\", seed {seed}"), &t, &turns, &exact);
                    checked += 1;
                }
                (Err(e), Some(name)) => {
                    let want = format!(
                        "{name} does not stand and shoot at {d}\" (it would move or could charge): not a stand-up duel"
                    );
                    assert_eq!(e.0, want, "{na} v {nb} at {d}\"");
                    refused += 1;
                }
                (Ok(_), Some(name)) => panic!("{na} v {nb} at {d}\": solved, but {name} cannot stand"),
                (Err(e), None) => panic!("{na} v {nb} at {d}\": refused: {e}"),
            }
        }
    }
    family.assert_holds();
    (checked, refused)
}

/// 24" (the duel distance): every unit with a weapon is in range and beyond charge reach, the
/// Jeep (no weapon) waits: all 120 pairs are stand-up duels.
#[test]
fn every_pair_agrees_at_24_in_where_nobody_moves() {
    let r = load();
    for seed in seeds(&[2026]) {
        assert_eq!(check_all(&r, 24.0, &|_| false, seed), (120, 0));
    }
}

/// 18": beyond the 12" charge, inside the Rifle's 24": all 120 pairs hold and shoot.
#[test]
fn every_pair_agrees_at_18_in_beyond_charge_reach() {
    let r = load();
    for seed in seeds(&[2026]) {
        assert_eq!(check_all(&r, 18.0, &|_| false, seed), (120, 0));
    }
}

/// 30": the six Rifle units must advance, so the 75 pairs with one of them are refused; the 45
/// pairs of Gunners, Snipers, Heavy Weapons (36"–48" weapons), Jeep, Tank and Artillery are
/// stand-up duels.
#[test]
fn every_pair_agrees_or_is_refused_at_30_in_where_rifles_must_advance() {
    let r = load();
    for seed in seeds(&[2026]) {
        assert_eq!(check_all(&r, 30.0, &|n| RIFLE_UNITS.contains(&n), seed), (45, 75));
    }
}

/// 12": every infantry unit could charge, so the 114 pairs with infantry are refused; the 6
/// pairs of Jeep, Tank and Artillery (vehicles never charge) are stand-up duels.
#[test]
fn vehicle_pairs_agree_and_infantry_is_refused_at_12_in_inside_charge_reach() {
    let r = load();
    let infantry = |n: &str| !["Jeep", "Tank", "Artillery"].contains(&n);
    for seed in seeds(&[2026]) {
        assert_eq!(check_all(&r, 12.0, &infantry, seed), (6, 114));
    }
}

/// Every upgraded entry against its plain entry at 24" where both stand (an entry whose
/// upgrade gives it only short-range weapons, or lets it charge, is not a stand-up duel and is
/// skipped): the upgraded profiles go through the same chain.
#[test]
fn upgraded_entries_agree_against_their_plain_entries_at_24_in() {
    let r = load();
    for seed in seeds(&[2026]) {
        let mut family = Family::new();
        let mut checked = 0;
        for u in &r.upgraded {
            let base = &r.units()[u.base];
            let view = r.view(&[(u.info.clone(), u.profile), (base.clone(), r.profiles[u.base])]);
            let Ok(exact) = view.exact_duel(0, 1, 24.0) else { continue };
            let (t, turns) = replicated(&view, 0, 1, 24.0, seed, REPS, PER_REP);
            compare(&mut family, &format!("{} v {} at 24\", seed {seed}", u.info.name, base.name), &t, &turns, &exact);
            checked += 1;
        }
        assert!(checked >= 10, "only {checked} upgraded entries checked");
        family.assert_holds();
    }
}
