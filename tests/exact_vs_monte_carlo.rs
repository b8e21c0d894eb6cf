//! Every Guns 'N Grenades pair that can fight a stand-up duel: Monte Carlo on a fixed seed
//! agrees with the exact Markov-chain solution within its 99.9% Wilson interval.

use pointsworth::config::{Overrides, Source};
use pointsworth::rulesets::Ruleset;
use pointsworth::rulesets::gng::GunsNGrenades;
use pointsworth::sim::RunPlan;
use pointsworth::sim::duel::{Squads, simulate};
use pointsworth::stats::wilson;

fn load(sets: &[&str]) -> GunsNGrenades {
    let src = Source::read(std::path::Path::new("configs/guns-n-grenades.toml")).unwrap();
    let ov = Overrides::parse(&sets.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap();
    GunsNGrenades::from_source(&src, &ov).unwrap()
}

/// Checks all stand-up pairs at the given distances; returns how many were checked.
fn check_all(r: &GunsNGrenades, distances: &[f64], trials: u64) -> usize {
    let n = r.units().len();
    let mut checked = 0;
    let mut failures = Vec::new();
    for &d in distances {
        for a in 0..n {
            for b in a..n {
                let Ok(exact) = r.exact_duel(a, b, d) else {
                    continue;
                };
                let t = simulate(r, a, b, d, Squads::One, &RunPlan::fixed(2026, trials, 1000));
                assert_eq!(t.trials, trials);
                let nt = t.trials as f64;
                for (what, k, p) in [
                    ("A wins", t.a_wins, exact.a_wins),
                    ("B wins", t.b_wins, exact.b_wins),
                    ("draw", t.draws, exact.draws),
                ] {
                    let ci = wilson(k as f64, nt, 0.999);
                    if !ci.contains(p) {
                        failures.push(format!(
                            "{} v {} at {d} in: {what} exact {p:.5}, Monte Carlo {:.5} [{:.5}, {:.5}]",
                            r.units()[a].name,
                            r.units()[b].name,
                            ci.value,
                            ci.lo,
                            ci.hi
                        ));
                    }
                }
                let mean_turns = t.turns as f64 / nt;
                assert!(
                    (mean_turns - exact.mean_turns).abs() < 0.05 * exact.mean_turns + 0.2,
                    "mean turns {mean_turns} vs {}",
                    exact.mean_turns
                );
                checked += 1;
            }
        }
    }
    assert!(failures.is_empty(), "{} of {checked} duels disagree:\n{}", failures.len(), failures.join("\n"));
    checked
}

#[test]
fn monte_carlo_agrees_with_exact_for_every_stand_up_pair() {
    let r = load(&[]);
    // 6" reaches every unit without a minimum range; 8" and 10" bring in the Machine Gunner
    // and Mortar; 14" only the longest ranges.
    let checked = check_all(&r, &[2.0, 6.0, 8.0, 10.0, 14.0], 20_000);
    assert!(checked >= 100, "only {checked} stand-up pairs checked");
}

#[test]
fn monte_carlo_agrees_with_exact_under_the_other_variants() {
    let r = load(&["rules.fast_shot=both_dice", "rules.stat_source=quick_reference"]);
    let checked = check_all(&r, &[6.0, 9.0, 12.0], 20_000);
    assert!(checked >= 40, "only {checked} stand-up pairs checked");
}

#[test]
fn exact_refuses_duels_that_need_movement() {
    let r = load(&[]);
    let rifle = r.find_unit("riflemen").unwrap();
    let mortar = r.find_unit("mortar").unwrap();
    let e = r.exact_duel(rifle, mortar, 12.0).unwrap_err();
    assert!(e.0.contains("Riflemen cannot attack at 12"), "{e}");
    let e = r.exact_duel(rifle, mortar, 6.0).unwrap_err();
    assert!(e.0.contains("Mortar cannot attack"), "{e}");
}

#[test]
fn exact_matches_a_hand_computed_duel() {
    // Tank (ATK +6, 3 damage) against Light Infantry (DEF +1, 3 stages): one hit kills.
    // Light Infantry (ATK +2, Fast Shot) against the Tank (DEF +4) needs three hits.
    let r = load(&[]);
    let tank = r.find_unit("tank").unwrap();
    let light = r.find_unit("light infantry").unwrap();
    let e = r.exact_duel(tank, light, 6.0).unwrap();
    let p = pointsworth::dice::opposed_d6(6, 1, None); // tank hits
    let q = pointsworth::dice::opposed_d6(2, 4, Some(false)); // light infantry hits (Fast Shot)
    // Light Infantry wins only by hitting 3 times before the tank hits once.
    // With the tank first: P(LI wins) = Σ over sequences... computed by the chain below.
    let mut li_wins_tank_first = 0.0;
    let mut li_wins_li_first = 0.0;
    // P(LI lands its 3rd hit on its k-th attack with the tank missing every attack before):
    for k in 3..400 {
        let ways = ((k - 1) * (k - 2) / 2) as f64; // choose 2 earlier hits among k-1 attacks
        let li = ways * q.powi(3) * (1.0 - q).powi(k as i32 - 3);
        li_wins_tank_first += li * (1.0 - p).powi(k as i32); // tank misses k times first
        li_wins_li_first += li * (1.0 - p).powi(k as i32 - 1);
    }
    let expect = 0.5 * (li_wins_tank_first + li_wins_li_first);
    assert!((e.b_wins - expect).abs() < 1e-12, "{} vs {expect}", e.b_wins);
}
