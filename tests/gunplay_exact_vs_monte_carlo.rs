//! Gunplay: for every loadout pair (mirrors included), at distances that need no movement,
//! some movement and a charge, in the open and in both cover levels, Monte Carlo on a fixed
//! seed agrees with the exact Markov chain over (states, distance) within its 99.9% Wilson
//! interval; and Monte Carlo results for a seed are identical on 1 and 2 threads.

use pointsworth::config::{Overrides, Source};
use pointsworth::rulesets::Ruleset;
use pointsworth::rulesets::gunplay::{Cover, Gunplay};
use pointsworth::sim::RunPlan;
use pointsworth::sim::duel::{Squads, simulate};
use pointsworth::stats::wilson;

fn load(cover: Cover) -> Gunplay {
    let src = Source::read(std::path::Path::new("configs/gunplay.toml")).unwrap();
    Gunplay::from_source(&src, &Overrides::default()).unwrap().with_cover(cover)
}

/// Checks every pair (a ≤ b) at `distances`; returns the pairs checked.
fn check_all(r: &Gunplay, distances: &[f64], trials: u64) -> Vec<(usize, usize)> {
    let n = r.units().len();
    let mut checked = Vec::new();
    let mut failures = Vec::new();
    for &d in distances {
        for a in 0..n {
            for b in a..n {
                let exact = r.exact_duel(a, b, d).expect("every Gunplay 1v1 duel is exact");
                assert!((exact.a_wins + exact.b_wins + exact.draws - 1.0).abs() < 1e-9);
                let t = simulate(r, a, b, d, Squads::One, &RunPlan::fixed(2026, trials, 1000));
                let nt = t.trials as f64;
                for (what, k, p) in [
                    ("A wins", t.a_wins, exact.a_wins),
                    ("B wins", t.b_wins, exact.b_wins),
                    ("draw", t.draws, exact.draws),
                ] {
                    let ci = wilson(k as f64, nt, 0.999);
                    if !ci.contains(p) {
                        failures.push(format!(
                            "{:?} {} v {} at {d} in: {what} exact {p:.5}, Monte Carlo {:.5} [{:.5}, {:.5}]",
                            r.cover,
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
                    (mean_turns - exact.mean_turns).abs() < 0.03 * exact.mean_turns + 0.1,
                    "mean turns {mean_turns} vs {}",
                    exact.mean_turns
                );
                checked.push((a, b));
            }
        }
    }
    assert!(failures.is_empty(), "{} of {} duels disagree:\n{}", failures.len(), checked.len(), failures.join("\n"));
    checked
}

#[test]
fn monte_carlo_agrees_with_exact_for_every_pair_distance_and_cover() {
    // 3": melee range; 9", 15": the tactic knifes Down targets or steps into a better band;
    // 24", 36", 45": long shots, moves out of and into range.
    let distances = [3.0, 9.0, 15.0, 24.0, 36.0, 45.0];
    for cover in Cover::ALL {
        let checked = check_all(&load(cover), &distances, 20_000);
        assert_eq!(checked.len(), 6 * distances.len(), "{cover:?}");
    }
}

#[test]
fn results_are_identical_on_one_and_two_threads() {
    let r = load(Cover::Some);
    let plan = RunPlan { seed: 9, batch_size: 256, min_trials: 2048, max_trials: 20_000, target_error: Some(0.01) };
    let run = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| simulate(&r, 1, 2, 20.0, Squads::PointsMatched { budget: 50.0 }, &plan))
    };
    assert_eq!(run(1), run(2));
}

/// Value stability: if this changes, every committed Gunplay report changes too.
#[test]
fn a_seeded_tally_is_pinned() {
    let r = load(Cover::Open);
    let t = simulate(&r, 0, 2, 20.0, Squads::PointsMatched { budget: 50.0 }, &RunPlan::fixed(42, 2048, 512));
    let got = (t.trials, t.a_wins, t.b_wins, t.draws, t.turns, t.kills);
    assert_eq!(got, PINNED);
}

const PINNED: (u64, u64, u64, u64, u64, [u64; 2]) = (2048, 1391, 657, 0, 6971, [7717, 4346]);
