//! The designer's workflow from outside this repository (issue 45): the built-in configs
//! from an empty directory, and `init` followed by `check`.

use std::path::Path;
use std::time::Instant;

use assert_cmd::Command;
use predicates::prelude::*;

fn pw(dir: &Path) -> Command {
    let mut c = Command::cargo_bin("pointsworth").unwrap();
    c.current_dir(dir);
    c
}

#[test]
fn a_duel_runs_from_an_empty_directory_on_the_built_in_config() {
    let dir = tempfile::tempdir().unwrap();
    let out = pw(dir.path())
        .args(["duel", "gng", "riflemen", "snipers", "--trials", "2000", "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert!(v.to_string().contains("Riflemen"), "{v}");
    // Every implemented ruleset ships a built-in config.
    for id in pointsworth::rulesets::implemented() {
        assert!(pointsworth::shipped::built_in(id).is_some(), "{id}");
    }
    // A bad override of a built-in config is still a clear input error.
    pw(dir.path())
        .args(["duel", "gng", "riflemen", "snipers", "--set", "duel.distance=-3"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("distance"));
    // A configs/ folder in the working directory wins over the built-in copy.
    std::fs::create_dir(dir.path().join("configs")).unwrap();
    std::fs::write(dir.path().join("configs/guns-n-grenades.toml"), "ruleset = \"guns-n-grenades\"\n[duel\n").unwrap();
    pw(dir.path())
        .args(["duel", "gng", "riflemen", "snipers"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("configs/guns-n-grenades.toml:2:"));
}

#[test]
fn init_then_check_passes_at_once_and_init_refuses_to_overwrite() {
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    pw(dir.path()).args(["init", "guns-n-grenades", "--threads", "2"]).assert().success();
    let init_s = started.elapsed().as_secs_f64();
    for f in [
        "configs/guns-n-grenades.toml",
        ".github/workflows/balance.yml",
        "README.md",
        "reports/guns-n-grenades/summary.json",
        "reports/guns-n-grenades/report.md",
    ] {
        assert!(dir.path().join(f).exists(), "{f}");
    }
    let summary = std::fs::read_to_string(dir.path().join("reports/guns-n-grenades/summary.json")).unwrap();
    assert!(summary.contains("\"path\": \"configs/guns-n-grenades.toml\""), "the local config is the baseline's");
    let md = pw(dir.path()).args(["check", "--threads", "2"]).assert().code(0).get_output().stdout.clone();
    let md = String::from_utf8(md).unwrap();
    assert!(md.contains("Every metric is identical to the baseline."), "{md}");
    eprintln!("init took {init_s:.1} s");
    // A second init refuses, naming the files; --force overwrites.
    pw(dir.path())
        .args(["init", "guns-n-grenades"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("configs/guns-n-grenades.toml").and(predicates::str::contains("--force")));
}

/// VSGMR's config plays the squads' tactic game, and `init`'s quick baseline leaves it out
/// (`duel.tactic_trials=0`): the baseline's squads play the scripted tactic, so `check` plays
/// them so too (it reads `play.squads.play` from the baseline) and finds every metric as it was.
#[test]
fn init_then_check_of_vsgmr_plays_the_squads_as_the_baseline_did() {
    let dir = tempfile::tempdir().unwrap();
    pw(dir.path()).args(["init", "vsgmr", "--threads", "2"]).assert().success();
    let summary = std::fs::read_to_string(dir.path().join("reports/vsgmr/summary.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&summary).unwrap();
    assert_eq!(v["play"]["squads"]["play"], "scripted", "{}", v["play"]["squads"]);
    let md = pw(dir.path()).args(["check", "--threads", "2"]).assert().code(0).get_output().stdout.clone();
    let md = String::from_utf8(md).unwrap();
    assert!(md.contains("Every metric is identical to the baseline."), "{md}");
}
