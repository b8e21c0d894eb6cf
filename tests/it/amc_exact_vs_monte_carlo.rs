//! Army Men Combat: for every pair of the cost list (a ≤ b, mirrors included) that the exact
//! stand-up solver covers (the default tactic holds and shoots in every state), at the duel
//! distance (24", beyond charge reach, every weapon in range), two where the shorter-ranged
//! units must advance (30", 40") and one inside charge reach (12"), and for every upgraded
//! entry, Monte Carlo agrees with the exact chain. Each test's comparisons
//! (win, loss and draw rates, mean turns) are one family at family-wise level 0.001 (Holm), so
//! any seed passes a correct engine: `POINTSWORTH_TEST_SEEDS=5,6,7 cargo test --test it
//! amc_exact_vs_monte_carlo::`. Every pair the solver refuses is refused for the documented
//! reason naming one of its units (it would move or could charge).

use crate::common;

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

/// Checks every pair (a ≤ b) at `d` inches on `seed` as one family. A pair the solver refuses
/// must be refused for the documented reason naming one of its units (the default tactic,
/// `rules::decide`, would move or charge in some state); a pair with a unit in `cannot_stand`
/// (which would move or could charge at `d` against anyone) must be refused. Returns (pairs
/// checked, pairs refused).
fn check_all(r: &ArmyMenCombat, d: f64, cannot_stand: &dyn Fn(&str) -> bool, seed: u64) -> (usize, usize) {
    let units = r.units();
    let mut family = Family::new();
    let (mut checked, mut refused) = (0, 0);
    for a in 0..units.len() {
        for b in a..units.len() {
            let (na, nb) = (&units[a].name, &units[b].name);
            let blocker = [na, nb].into_iter().find(|n| cannot_stand(n));
            match r.exact_duel(a, b, d) {
                Ok(exact) => {
                    assert!(blocker.is_none(), "{na} v {nb} at {d}\": solved, but {blocker:?} cannot stand");
                    let (t, turns) = replicated(r, a, b, d, seed, REPS, PER_REP);
                    compare(&mut family, &format!("{na} v {nb} at {d}\", seed {seed}"), &t, &turns, &exact);
                    checked += 1;
                }
                Err(e) => {
                    let want = |name: &str| {
                        format!(
                            "{name} does not stand and shoot at {d}\" (it would move or could charge): not a stand-up duel"
                        )
                    };
                    assert!(e.0 == want(na) || e.0 == want(nb), "{na} v {nb} at {d}\": {}", e.0);
                    refused += 1;
                }
            }
        }
    }
    family.assert_holds();
    (checked, refused)
}

/// 24" (the duel distance): every unit with a weapon is in range and beyond charge reach, the
/// Jeep (no weapon) waits. 28 pairs are stand-up duels; in the 92 others a unit would move in
/// some state (issue 15: an infantry unit closes in to charge where that is worth more than its
/// volleys, as Riflemen (10) against a Tank, which keeps out of their reach), and the solver
/// refuses them. (Heavy Weapons (3) against the Tank became stand-up when the melee's worth
/// stopped at the round cap: they shoot rather than charge.)
#[test]
fn every_stand_up_pair_agrees_at_24_in() {
    let r = load();
    for seed in seeds(&[2026]) {
        assert_eq!(check_all(&r, 24.0, &|_| false, seed), (28, 92));
    }
}

/// 40": beyond the 36" of the Machinegun and the Sniper Rifle too: only Heavy Weapons (Mortar),
/// Tank and Artillery (Cannon, 48") shoot and the Jeep waits, 14 pairs stand (Heavy Weapons
/// (3) advance on the Artillery, shooting on their way to charge it); the 106 others are
/// refused. (18", beyond charge reach and inside the Rifle's range, would only repeat 24": the
/// chain and the engine depend on the distance only through weapon ranges and charge reach.)
#[test]
fn long_range_pairs_agree_and_the_others_are_refused_at_40_in() {
    let r = load();
    let short =
        |n: &str| RIFLE_UNITS.contains(&n) || ["Gunners (1)", "Gunners (3)", "Snipers (1)", "Snipers (3)"].contains(&n);
    for seed in seeds(&[2026]) {
        assert_eq!(check_all(&r, 40.0, &short, seed), (14, 106));
    }
}

/// 30": the six Rifle units must advance, so the 75 pairs with one of them are refused; of the
/// 45 pairs of Gunners, Snipers, Heavy Weapons (36"–48" weapons), Jeep, Tank and Artillery, 28
/// are stand-up duels and in 17 a unit closes in over two activations toward a charge worth
/// more than its volleys (issue 15: the reach of a plan of approach; a Sniper on the Jeep).
#[test]
fn every_pair_agrees_or_is_refused_at_30_in_where_rifles_must_advance() {
    let r = load();
    for seed in seeds(&[2026]) {
        assert_eq!(check_all(&r, 30.0, &|n| RIFLE_UNITS.contains(&n), seed), (28, 92));
    }
}

/// 12": inside charge reach. The 6 pairs of Jeep, Tank and Artillery (vehicles never charge)
/// and 6 infantry pairs whose units hold and shoot rather than charge in every state (with
/// Heavy Weapons (3) against the Tank) are stand-up duels; the 108 others are refused.
#[test]
fn stand_up_pairs_agree_at_12_in_inside_charge_reach() {
    let r = load();
    for seed in seeds(&[2026]) {
        assert_eq!(check_all(&r, 12.0, &|_| false, seed), (12, 108));
    }
}

/// Every upgraded entry against its plain entry and against the Tank at 24" where both stand
/// (an entry whose upgrade lets it charge or leaves it only short-range weapons is not a
/// stand-up duel and is skipped): the upgraded profiles (grenadiers, specialists' weapons
/// against a vehicle) go through the same chain.
#[test]
fn upgraded_entries_agree_against_their_plain_entries_and_the_tank_at_24_in() {
    let r = load();
    let tank = r.find("Tank");
    for seed in seeds(&[2026]) {
        let mut family = Family::new();
        let mut checked = 0;
        for u in &r.upgraded {
            for foe in [u.base, tank] {
                let other = &r.units()[foe];
                let view = r.view(&[(u.info.clone(), u.profile), (other.clone(), r.profiles[foe])]);
                let Ok(exact) = view.exact_duel(0, 1, 24.0) else { continue };
                let (t, turns) = replicated(&view, 0, 1, 24.0, seed, REPS, PER_REP);
                let label = format!("{} v {} at 24\", seed {seed}", u.info.name, other.name);
                compare(&mut family, &label, &t, &turns, &exact);
                checked += 1;
            }
        }
        assert!(checked >= 10, "only {checked} upgraded pairs checked");
        family.assert_holds();
    }
}
