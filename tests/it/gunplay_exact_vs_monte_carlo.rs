//! Gunplay: for every loadout pair (mirrors included), at distances that need no movement,
//! some movement and a charge, in the open and in both cover levels, Monte Carlo agrees with
//! the exact Markov chain over (states, distance): all comparisons of a cover level (win,
//! loss and draw rates, mean turns) are one family at family-wise level 0.001 (Holm), so any
//! seed passes a correct engine. Monte Carlo results for a seed are identical on 1 and 2
//! threads.

use crate::common;

use common::{Family, compare, replicated, seeds};
use pointsworth::config::{Overrides, Source};
use pointsworth::rulesets::Ruleset;
use pointsworth::rulesets::gunplay::{Cover, Gunplay};
use pointsworth::sim::RunPlan;
use pointsworth::sim::duel::{Squads, simulate};

fn load(cover: Cover) -> Gunplay {
    let src = Source::read(std::path::Path::new("configs/gunplay.toml")).unwrap();
    Gunplay::from_source(&src, &Overrides::default()).unwrap().with_cover(cover)
}

/// Checks every pair (a ≤ b) at `distances` with `reps` × `per_rep` duels, as one family;
/// returns the pairs checked.
fn check_all(r: &Gunplay, distances: &[f64], seed: u64, reps: u64, per_rep: u64) -> Vec<(usize, usize)> {
    let n = r.units().len();
    let mut checked = Vec::new();
    let mut family = Family::new();
    for &d in distances {
        for a in 0..n {
            for b in a..n {
                let exact = r.exact_duel(a, b, d).expect("every Gunplay 1v1 duel is exact");
                let (t, turns) = replicated(r, a, b, d, seed, reps, per_rep);
                let label =
                    format!("{:?} {} v {} at {d} in, seed {seed}", r.cover, r.units()[a].name, r.units()[b].name);
                compare(&mut family, &label, &t, &turns, &exact);
                checked.push((a, b));
            }
        }
    }
    family.assert_holds();
    checked
}

#[test]
fn monte_carlo_agrees_with_exact_for_every_pair_distance_and_cover() {
    // 3": melee range; 9", 15": the tactic knifes Down targets or steps into a better band;
    // 24", 36", 45": long shots, moves out of and into range.
    let distances = [3.0, 9.0, 15.0, 24.0, 36.0, 45.0];
    for seed in seeds(&[2026]) {
        for cover in Cover::ALL {
            // 10 000 duels a pair (most of this file's time): at family-wise level 0.001 over
            // 432 comparisons a rate is flagged about 5 standard errors off: 2.5 points at
            // 10 000 duels (1.8 at 20 000, for twice the time).
            let checked = check_all(&load(cover), &distances, seed, 20, 500);
            assert_eq!(checked.len(), 6 * distances.len(), "{cover:?}");
        }
    }
}

/// `[rules] duel_victory = "none_up"` (a side with no character Up after an activation loses,
/// docs/rulings/readings.md GP-1): Monte Carlo agrees with the exact chain under it too, and the
/// duels end sooner (a Down character no longer gets to recover).
#[test]
fn monte_carlo_agrees_with_exact_when_down_is_defeated() {
    let src = Source::read(std::path::Path::new("configs/gunplay.toml")).unwrap();
    let ov = Overrides::parse(&["rules.duel_victory=none_up".to_string()]).unwrap();
    let r = Gunplay::from_source(&src, &ov).unwrap();
    for seed in seeds(&[2026]) {
        assert_eq!(check_all(&r, &[3.0, 9.0, 24.0], seed, 20, 500).len(), 18);
    }
    let book = load(Cover::Open);
    let (x, y) = (book.exact_duel(0, 1, 24.0).unwrap(), r.exact_duel(0, 1, 24.0).unwrap());
    assert!(y.mean_turns < x.mean_turns, "{x:?} {y:?}");
}

/// The bound holds for any seed, not one lucky seed: three more, at a lighter load.
#[test]
fn monte_carlo_agrees_with_exact_on_other_seeds() {
    for seed in [1, 77, 31_337] {
        assert_eq!(check_all(&load(Cover::Some), &[9.0, 24.0], seed, 20, 250).len(), 12);
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

const PINNED: (u64, u64, u64, u64, u64, [u64; 2]) = (2048, 1462, 586, 0, 6917, [7944, 4097]);
