//! The Grunt Factor: Monte Carlo on fixed seeds agrees with the exact Markov chain within its
//! 99.9% Wilson interval (squad pairs at a stand-up distance, beyond 60 cm where every Fire
//! action needs an LD test, and where the tactic must move first); Monte Carlo results for a
//! seed are identical on 1 and 2 threads; `pointsworth rules` prints the lint.

use assert_cmd::Command;
use pointsworth::config::{Overrides, Source};
use pointsworth::rulesets::Ruleset;
use pointsworth::rulesets::grunt_factor::GruntFactor;
use pointsworth::sim::RunPlan;
use pointsworth::sim::duel::{Squads, simulate};
use pointsworth::stats::wilson;

fn load() -> GruntFactor {
    let src = Source::read(std::path::Path::new("configs/grunt-factor.toml")).unwrap();
    GruntFactor::from_source(&src, &Overrides::default()).unwrap()
}

fn check(r: &GruntFactor, pairs: &[(&str, &str)], d: f64, trials: u64) {
    let mut failures = Vec::new();
    for &(a, b) in pairs {
        let (a, b) = (r.find(a), r.find(b));
        let exact = r.exact_duel(a, b, d).expect("every 1v1 duel is exact");
        assert!((exact.a_wins + exact.b_wins + exact.draws - 1.0).abs() < 1e-9);
        let t = simulate(r, a, b, d, Squads::One, &RunPlan::fixed(2026, trials, 1000));
        let nt = t.trials as f64;
        for (what, k, p) in
            [("A wins", t.a_wins, exact.a_wins), ("B wins", t.b_wins, exact.b_wins), ("draw", t.draws, exact.draws)]
        {
            let ci = wilson(k as f64, nt, 0.999);
            if !ci.contains(p) {
                failures.push(format!(
                    "{} v {} at {d} cm: {what} exact {p:.5}, Monte Carlo {:.5} [{:.5}, {:.5}]",
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
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn monte_carlo_agrees_with_exact_at_the_duel_distance() {
    let r = load();
    let pairs = [
        ("untrained-rifles", "elite-rifles"),
        ("regular-rifles", "regular-rifles"),
        ("green-rifles", "veteran-rifles"),
        ("regular-lmg", "regular-hmg"),
        ("regular-smgs", "regular-sniper"),
        ("untrained-rifles", "green-rifles"),
    ];
    check(&r, &pairs, 50.0, 20_000);
}

#[test]
fn monte_carlo_agrees_with_exact_beyond_sighting_and_with_moves() {
    let r = load();
    // 65 cm: MR beyond 60 cm, every Fire action needs an LD test. 90 cm: rifles at LR (Dam 0
    // as printed); SMG, LMG and HMG squads must move into MR first.
    check(&r, &[("regular-rifles", "elite-rifles"), ("regular-lmg", "untrained-rifles")], 65.0, 20_000);
    check(&r, &[("regular-smgs", "regular-rifles"), ("regular-hmg", "veteran-rifles")], 90.0, 20_000);
}

#[test]
fn results_are_identical_on_one_and_two_threads() {
    let r = load();
    let plan = RunPlan { seed: 9, batch_size: 256, min_trials: 2048, max_trials: 20_000, target_error: Some(0.01) };
    let (a, b) = (r.find("elite-rifles"), r.find("untrained-rifles"));
    let run = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| simulate(&r, a, b, 50.0, Squads::PointsMatched { budget: 260.0 }, &plan))
    };
    assert_eq!(run(1), run(2));
}

#[test]
fn rules_prints_coverage_and_the_lint() {
    let out = Command::cargo_bin("pointsworth")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["rules", "tgf"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let s = String::from_utf8(out).unwrap();
    for want in [
        "The Grunt Factor: rules coverage",
        "Assault Rifle, long range",
        "ST (strength)",
        "GL specialist",
        "RL specialist",
    ] {
        assert!(s.contains(want), "{want} missing from:\n{s}");
    }
}
