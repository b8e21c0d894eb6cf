//! The result cache (`pointsworth::cache`, issue 42 item 4) through the binary: a report
//! computed, read back from a warm cache, read back from a cache with damaged entries and
//! computed with `--no-cache` is the same bytes, file for file; a cost change re-solves no
//! optimal-play pair (nor any of the readings section's) and no exact duel.

use crate::common;

use assert_cmd::Command;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// Every file under `dir` by its path relative to `dir`, with its bytes.
fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    common::snapshot(dir).into_iter().map(|(p, b)| (p.strip_prefix(dir).unwrap().to_path_buf(), b)).collect()
}

/// The cache's entries by file name, with the kind each holds (the first word of its label).
fn entries(cache: &Path) -> BTreeMap<String, String> {
    fs::read_dir(cache)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".e"))
        .map(|e| {
            let text = fs::read_to_string(e.path()).unwrap();
            let kind = text.lines().nth(2).unwrap().split(' ').next().unwrap().to_string();
            (e.file_name().to_string_lossy().into_owned(), kind)
        })
        .collect()
}

fn count(e: &BTreeMap<String, String>, kind: &str) -> usize {
    e.values().filter(|k| *k == kind).count()
}

#[test]
fn a_report_is_the_same_bytes_with_a_warm_cold_damaged_or_no_cache() {
    let dir = common::repo_dir();
    common::trimmed_config(dir.path(), "army-men-combat.toml", &["Riflemen (5)", "Gunners (1)", "Jeep"], &[]);
    let run = |out: &str, extra: &[&str]| {
        Command::cargo_bin("pointsworth")
            .unwrap()
            .current_dir(dir.path())
            .args(common::SMALL_AMC_REPORT)
            .args(["--out", out])
            .args(extra)
            .assert()
            .success();
        files(&dir.path().join(out).join("army-men-combat"))
    };
    let cache = dir.path().join("out/.cache");
    let cold = run("out", &[]);
    assert_eq!(fs::read_to_string(cache.join(".gitignore")).unwrap(), "*\n");
    let first = entries(&cache);
    // Six pairs solved under optimal play, the exact 1v1 cells and many simulated tallies;
    // the readings section's optimal-play scores of the six pairs under `vehicle_melee_test =
    // "exempt"`.
    assert_eq!(count(&first, "optimal"), 6, "{first:?}");
    assert_eq!(count(&first, "optimal-score"), 6, "{first:?}");
    assert!(count(&first, "exact") > 0 && count(&first, "tally") > 20, "{first:?}");

    let warm = run("out", &[]);
    assert_eq!(warm, cold, "warm cache");
    assert_eq!(entries(&cache), first, "a warm run computes nothing new");

    // Damaged entries (cut short, or another payload under the right checksum line) are
    // ignored and recomputed.
    for (k, name) in first.keys().enumerate() {
        let path = cache.join(name);
        let text = fs::read_to_string(&path).unwrap();
        let damaged = if k % 2 == 0 { text[..text.len() / 2].to_string() } else { text.replacen('0', "1", 1) };
        fs::write(&path, damaged).unwrap();
    }
    assert_eq!(run("out", &[]), cold, "damaged cache");

    let fresh = run("fresh", &["--no-cache"]);
    assert_eq!(fresh, cold, "no cache");
    assert!(!dir.path().join("fresh/.cache").exists(), "--no-cache writes no cache");

    // A cost change: Army Men Combat's scripted tactic weighs points, so the optimal-play
    // solves of the Jeep's three pairs are solved again (their keys hold the pair's prices), the
    // other three and every both-sides-optimal score of the readings section are not; the
    // report is the one a run without the cache makes.
    let dearer = ["--set", "unit.jeep.cost=26"];
    let changed = run("out", &dearer);
    let after = entries(&cache);
    assert_eq!(count(&after, "optimal"), count(&first, "optimal") + 3);
    assert_eq!(count(&after, "optimal-score"), count(&first, "optimal-score"));
    assert!(count(&after, "tally") > count(&first, "tally"));
    assert_eq!(changed, run("fresh-dearer", &[&dearer[..], &["--no-cache"]].concat()), "after a cost change");
}

#[test]
fn rules_sensitivity_after_a_report_solves_nothing_again() {
    let dir = common::repo_dir();
    common::trimmed_config(dir.path(), "army-men-combat.toml", &["Riflemen (5)", "Gunners (1)", "Jeep"], &[]);
    // The report's `--set`s enter the ruleset, hence the cache's keys: `rules` takes the same.
    let sets: Vec<&str> = common::SMALL_AMC_REPORT.iter().skip(6).copied().collect();
    Command::cargo_bin("pointsworth")
        .unwrap()
        .current_dir(dir.path())
        .args(common::SMALL_AMC_REPORT)
        .assert()
        .success();
    let cache = dir.path().join("reports/.cache");
    let first = entries(&cache);
    let rules = |extra: &[&str]| {
        let out = Command::cargo_bin("pointsworth")
            .unwrap()
            .current_dir(dir.path())
            .args(["rules", "army-men-combat", "--config", "army-men-combat.toml", "--sensitivity"])
            .args(&sets)
            .args(extra)
            .assert()
            .success();
        let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        // All but the run's seconds.
        text.lines().filter(|l| !l.starts_with("sensitivity: ")).collect::<Vec<_>>().join("\n")
    };
    let warm = rules(&[]);
    let after = entries(&cache);
    // The reading in force from the report's solves, the alternative from its scores: no
    // solve; the points-matched matrices at the config's precision (not the report's `--trials
    // 100`) are new, so `rules` did use the cache.
    for kind in ["optimal", "optimal-score"] {
        assert_eq!(count(&after, kind), count(&first, kind), "{kind}");
    }
    assert!(count(&after, "tally") > count(&first, "tally"));
    assert!(warm.contains("Which readings decide the verdicts"), "{warm}");
    assert_eq!(warm, rules(&["--no-cache"]), "the same text without the cache");
}
