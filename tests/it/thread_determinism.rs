//! A seed gives identical results on one and two threads for every analysis beyond the
//! matrices (docs/method.md's promise: batches are seeded from (seed, matchup, batch) and tallies
//! merged in order): the efficiency-by-distance sweep, the 1v1 win rate by distance, the fair-
//! cost solver, The Grunt Factor's derived costs, the Army Men Combat upgrade table, the
//! VSGMR attribute prices and the optimal-play solves. Each runs the library function at a
//! small precision on a rayon pool of 1 and of 2 threads and compares the whole result; no
//! number is pinned.

use indicatif::ProgressBar;
use pointsworth::analysis::balance::solve;
use pointsworth::analysis::duel_distance::win_rate_by_distance;
use pointsworth::analysis::engine::AnalysisEngine;
use pointsworth::analysis::matrix::{AnalysisSettings, distance_sweep};
use pointsworth::config::{Overrides, Source};
use pointsworth::rulesets::Ruleset;
use pointsworth::rulesets::amc::ArmyMenCombat;
use pointsworth::rulesets::amc::study::upgrades;
use pointsworth::rulesets::engine::BalanceSettings;
use pointsworth::rulesets::gng::GunsNGrenades;
use pointsworth::rulesets::grunt_factor::GruntFactor;
use pointsworth::rulesets::gunplay::{Cover, Gunplay};
use pointsworth::rulesets::vsgmr::Vsgmr;
use pointsworth::rulesets::vsgmr::study::prices;

fn source(name: &str) -> Source {
    Source::read(&std::path::Path::new("configs").join(name)).unwrap()
}

/// `f` on a pool of 1 thread and on a pool of 2; panics unless the results are equal.
fn same_on_one_and_two_threads<T: PartialEq + std::fmt::Debug + Send>(f: impl Fn() -> T + Sync) -> T {
    let run = |n: usize| rayon::ThreadPoolBuilder::new().num_threads(n).build().unwrap().install(&f);
    let one = run(1);
    assert_eq!(one, run(2));
    one
}

#[test]
fn the_distance_sweep_is_identical_on_one_and_two_threads() {
    let r = GunsNGrenades::from_source(&source("guns-n-grenades.toml"), &Overrides::default()).unwrap();
    let mut s = AnalysisSettings::from_ruleset(&r, 11);
    // The stopping rule at work: batches of 32, at least 256 trials, at most 512.
    s.sweep_distances = vec![4.0, 12.0];
    s.sweep_target_error = 0.03;
    s.batch_size = 32;
    s.max_trials = 512;
    let sweep = same_on_one_and_two_threads(|| distance_sweep(&r, &s, &ProgressBar::hidden()).unwrap());
    assert_eq!(sweep.efficiency.len(), r.units().len());
    assert!(sweep.efficiency.iter().all(|e| e.len() == 2));
}

/// Gunplay's chart (its three grounds, as `Gunplay::distance_grounds` gives them, at
/// three of its distances; every 1v1 is exact there) and the same function on Guns 'N
/// Grenades, whose cells out of range are Monte Carlo.
#[test]
fn the_win_rate_by_distance_is_identical_on_one_and_two_threads() {
    let g = Gunplay::from_source(&source("gunplay.toml"), &Overrides::default()).unwrap();
    let grounds: Vec<(String, Gunplay)> =
        Cover::ALL.iter().map(|&c| (c.label().to_string(), g.with_cover(c))).collect();
    let chart = same_on_one_and_two_threads(|| {
        win_rate_by_distance(&grounds, &[3.0, 15.0, 30.0], 5, 0.05, 1024, false, &ProgressBar::hidden())
    });
    assert_eq!(chart.grounds.len(), 3);

    let r = GunsNGrenades::from_source(&source("guns-n-grenades.toml"), &Overrides::default()).unwrap();
    let grounds = [("open".to_string(), r)];
    let chart = same_on_one_and_two_threads(|| {
        // A fixed plan here (`--trials` alone, as under `--shard`); the stopping rule above.
        win_rate_by_distance(&grounds, &[3.0, 12.0], 5, 0.05, 1024, true, &ProgressBar::hidden())
    });
    let methods: Vec<&String> = chart.pairs.iter().flat_map(|p| p.method.iter().flatten()).collect();
    assert!(methods.iter().any(|m| *m == "monte-carlo") && methods.iter().any(|m| *m == "exact"), "{methods:?}");
}

#[test]
fn the_fair_cost_solver_is_identical_on_one_and_two_threads() {
    let r = Gunplay::from_source(&source("gunplay.toml"), &Overrides::default()).unwrap();
    let mut s = BalanceSettings::from_ruleset(&r, 3);
    s.anchor = None;
    s.trials = 300;
    s.max_iterations = 2;
    let f = same_on_one_and_two_threads(|| solve(&r, &s, &ProgressBar::hidden()));
    assert_eq!(f.rows.len(), 3);
}

/// The Grunt Factor's derived costs: the solver with its anchor (Regular Rifles = 90).
#[test]
fn the_grunt_factor_derived_costs_are_identical_on_one_and_two_threads() {
    let mut r = GruntFactor::from_source(&source("grunt-factor.toml"), &Overrides::default()).unwrap();
    let mut s = BalanceSettings::from_ruleset(&r, 3);
    assert_eq!(s.anchor.as_deref(), Some("regular-rifles"));
    // Three squads, the anchor among them (the whole list takes most of a minute).
    let keep = ["regular-rifles", "elite-rifles", "regular-lmg"];
    let kept: Vec<bool> = r.book.units.iter().map(|u| keep.contains(&u.id.as_str())).collect();
    let mut k = kept.iter();
    r.book.units.retain(|_| *k.next().unwrap());
    let mut k = kept.iter();
    r.profiles.retain(|_| *k.next().unwrap());
    assert_eq!(r.units().len(), 3);
    s.trials = 100;
    s.max_iterations = 2;
    let f = same_on_one_and_two_threads(|| solve(&r, &s, &ProgressBar::hidden()));
    assert!(f.rows.iter().any(|row| row.derived_cost.is_some()), "{f:?}");
}

#[test]
fn the_amc_upgrade_table_is_identical_on_one_and_two_threads() {
    let mut r = ArmyMenCombat::from_source(&source("army-men-combat.toml"), &Overrides::default()).unwrap();
    r.upgraded.retain(|u| ["Riflemen (10) + Bayonets", "Riflemen (10) + Bazooka"].contains(&u.info.name.as_str()));
    assert_eq!(r.upgraded.len(), 2);
    let t = same_on_one_and_two_threads(|| upgrades::table(&AnalysisEngine, &r, 5, 300, 200));
    assert_eq!(t.rows.len(), 2);
}

#[test]
fn the_vsgmr_attribute_prices_are_identical_on_one_and_two_threads() {
    let r = Vsgmr::from_source(&source("vsgmr.toml"), &Overrides::default()).unwrap();
    // A 3-point budget (the config says 12): a quarter of the figures a side, the same study.
    let p = same_on_one_and_two_threads(|| {
        prices::attribute_prices(&AnalysisEngine, &r, 5, 3.0, 24.0, 40, &ProgressBar::hidden())
    });
    assert_eq!(p.rows.len(), prices::studies().len());
}

/// Every Guns 'N Grenades mission (Point Capture and Ground War beside the Skirmish): the
/// skirmish tally of random armies under each tactic.
#[test]
fn every_gng_mission_is_identical_on_one_and_two_threads() {
    use pointsworth::rulesets::skirmish::{Armies, Skirmish};
    let r = GunsNGrenades::from_source(&source("guns-n-grenades.toml"), &Overrides::default()).unwrap();
    for mission in 0..r.missions().len() {
        for tactic in 0..r.tactics().len() {
            let t = same_on_one_and_two_threads(|| {
                pointsworth::sim::skirmish::simulate(
                    &r,
                    &Armies::Random,
                    [tactic; 2],
                    mission,
                    9,
                    60,
                    &ProgressBar::hidden(),
                )
            });
            assert_eq!(t.games, 60);
        }
    }
}

/// The optimal-play solves behind the report's 1v1 matrix (`optimal_play::analyse`: pairs in
/// parallel, each solve's layers in parallel chunks summed in a fixed order), on Gunplay's
/// cost list at its report distance, five rounds deep (a test-sized game): the same bits on one
/// and two threads, and `optimal_values` (what `check` and `matrix` solve) gives the same
/// values as the full solves.
#[test]
fn the_optimal_play_solves_are_identical_on_one_and_two_threads() {
    let set = Overrides::parse(&["duel.max_rounds=5".to_string()]).unwrap();
    let g = Gunplay::from_source(&source("gunplay.toml"), &set).unwrap();
    let distance = g.duel_settings().distance;
    let o = same_on_one_and_two_threads(|| {
        pointsworth::analysis::optimal_play::analyse(&g, distance, &ProgressBar::hidden())
    });
    assert_eq!(o.pairs.len(), 6, "{o:?}");
    let values = same_on_one_and_two_threads(|| {
        pointsworth::analysis::optimal_play::optimal_values(&g, distance, &ProgressBar::hidden())
    });
    let full: Vec<_> = o.pairs.iter().map(|p| (p.a.clone(), p.b.clone(), p.optimal)).collect();
    assert_eq!(values, full);
}

/// Gunplay's 1v1 chart by distance under optimal play (`play_by_distance`, issue 41: the
/// sweep's 1v1 cells are the game's value): the same on one and two threads, every cell
/// played optimally, and each cell the ground's both-sides-optimal score at its distance (the
/// bits of one advantage-only solve there, though the chart solves each pair and ground once
/// for every distance of a line; within 1e-12 of the full solve's, the number `duel` and the
/// 1v1 matrix give). Five rounds deep, four distances.
#[test]
fn the_win_rate_by_distance_under_optimal_play_is_identical_on_one_and_two_threads() {
    let set = Overrides::parse(&["duel.max_rounds=5".to_string()]).unwrap();
    let g = Gunplay::from_source(&source("gunplay.toml"), &set).unwrap();
    let mut grounds = g.distance_grounds().unwrap();
    // Both families of start distances on the 48" table, on the 3" grid: 45" apart at the
    // back edges (3", 21") and 48" (6", 48").
    grounds.distances = vec![3.0, 6.0, 21.0, 48.0];
    let scripted =
        win_rate_by_distance(&grounds.grounds, &grounds.distances, 5, 0.05, 1024, false, &ProgressBar::hidden());
    let chart = same_on_one_and_two_threads(|| {
        let mut w = scripted.clone();
        pointsworth::analysis::optimal_play::play_by_distance(&grounds, &mut w, &ProgressBar::hidden());
        w
    });
    let units = g.units();
    let pos = |id: &str| units.iter().position(|u| u.id == id).unwrap();
    let mut moved = 0;
    for (p, before) in chart.pairs.iter().zip(&scripted.pairs) {
        for (k, (label, r)) in grounds.grounds.iter().enumerate() {
            assert_eq!(&chart.grounds[k], label);
            for (d, &distance) in grounds.distances.iter().enumerate() {
                assert_eq!(p.method[k][d], "optimal", "{} v {} {label} {distance}", p.a, p.b);
                let (i, j) = (pos(&p.a), pos(&p.b));
                // One solve per family of start distances gives the bits of one solve each...
                let v = r.optimal_score(i, j, distance).unwrap().clamp(0.0, 1.0);
                let e = p.score[k][d];
                assert_eq!((e.value, e.lo, e.hi), (v, v, v), "{} v {} {label} {distance}", p.a, p.b);
                // ...and the advantage-only solve is the full solve's score (the 1v1 matrix's).
                let full = r.optimal_value(i, j, distance).unwrap().a_score();
                assert!((v - full).abs() < 1e-12, "{} v {} {label} {distance}: {v} {full}", p.a, p.b);
                moved += usize::from((e.value - before.score[k][d].value).abs() > 1e-9);
            }
        }
    }
    // The scripted tactic's cells are not the game's value (a chart that did not change would
    // pass the checks above only if the call did nothing).
    assert!(moved > 0, "{chart:?}");
    // Rulesets that do not match the chart (another list of distances) leave it as it was.
    let mut other = grounds.distances.clone();
    other.push(45.0);
    let mut w = scripted.clone();
    let mismatched = pointsworth::rulesets::DistanceGrounds { grounds: grounds.grounds.clone(), distances: other };
    pointsworth::analysis::optimal_play::play_by_distance(&mismatched, &mut w, &ProgressBar::hidden());
    assert_eq!(w, scripted);
}
