//! The exact solvers give the same bits every time they are called, in one process or in
//! another: their state maps use a hasher with fixed keys (`seed::FixedHashMap`), so the order
//! in which probabilities are summed never changes (for one Rust toolchain). With std's random
//! hasher every map had its own keys, and the last digits of a result differed from call to call
//! (and from process to process, whose random keys differ too).

use assert_cmd::Command;
use pointsworth::config::{Overrides, Source};
use pointsworth::rulesets::grunt_factor::GruntFactor;
use pointsworth::rulesets::gunplay::Gunplay;
use pointsworth::rulesets::{ExactDuel, Ruleset};

fn bits(e: &ExactDuel) -> [u64; 4] {
    [e.a_wins.to_bits(), e.b_wins.to_bits(), e.draws.to_bits(), e.mean_turns.to_bits()]
}

/// Every ordered pair of the first `n` units at each distance, solved twice (with std's random
/// hasher, every call had different keys, so a second call already differed).
fn repeatable<R: Ruleset>(r: &R, n: usize, distances: &[f64]) {
    let n = n.min(r.units().len());
    let mut solved = 0;
    for &d in distances {
        for a in 0..n {
            for b in 0..n {
                let Ok(first) = r.exact_duel(a, b, d) else { continue };
                solved += 1;
                let again = r.exact_duel(a, b, d).unwrap();
                assert_eq!(bits(&first), bits(&again), "{} v {} at {d}", r.units()[a].name, r.units()[b].name);
            }
        }
    }
    assert!(solved >= n * n * distances.len() / 2, "only {solved} duels were exact");
}

#[test]
fn gunplay_exact_duels_repeat_to_the_bit() {
    let src = Source::read(std::path::Path::new("configs/gunplay.toml")).unwrap();
    repeatable(&Gunplay::from_source(&src, &Overrides::default()).unwrap(), usize::MAX, &[6.0, 24.0]);
}

#[test]
fn grunt_factor_exact_duels_repeat_to_the_bit() {
    let src = Source::read(std::path::Path::new("configs/grunt-factor.toml")).unwrap();
    let r = GruntFactor::from_source(&src, &Overrides::default()).unwrap();
    // Its chains are large (models, panic, prone, distance): three loadouts are enough.
    repeatable(&r, 3, &[50.0]);
}

/// Two processes (`pointsworth duel --exact --json`, which prints every f64 so that it reads
/// back to the same bits) agree with each other and with this process to the last bit.
#[test]
fn exact_duels_repeat_to_the_bit_across_processes() {
    let run = || {
        let out = Command::cargo_bin("pointsworth")
            .unwrap()
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            // The scripted tactic's chain alone (one each also solves the optimal-play game).
            .args([
                "duel",
                "tgf",
                "regular-lmg",
                "green-rifles",
                "--exact",
                "--json",
                "--set",
                "duel.optimal_play=false",
            ])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        serde_json::from_slice::<serde_json::Value>(&out).unwrap()
    };
    let (first, second) = (run(), run());
    assert_eq!(first, second);
    let src = Source::read(std::path::Path::new("configs/grunt-factor.toml")).unwrap();
    let r = GruntFactor::from_source(&src, &Overrides::default()).unwrap();
    let here = r.exact_duel(r.find("regular-lmg"), r.find("green-rifles"), r.duel_settings().distance).unwrap();
    let printed = ["a_wins", "b_wins", "draws", "mean_turns"].map(|k| first[k].as_f64().unwrap().to_bits());
    assert_eq!(printed, bits(&here));
}
