//! The result cache (`pointsworth::cache`, issue 42 item 4) through the binary: a report
//! computed, read back from a warm cache, read back from a cache with damaged entries and
//! computed with `--no-cache` is the same bytes, file for file; a cost change re-solves no
//! optimal-play pair and no exact duel.

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
    // Six pairs solved under optimal play, the exact 1v1 cells and many simulated tallies.
    assert_eq!(count(&first, "optimal"), 6, "{first:?}");
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

    // A cost change: no optimal-play pair and no exact duel is solved again.
    run("out", &["--set", "unit.jeep.cost=26"]);
    let after = entries(&cache);
    assert_eq!((count(&after, "optimal"), count(&after, "exact")), (count(&first, "optimal"), count(&first, "exact")));
    assert!(count(&after, "tally") > count(&first, "tally"));
}
