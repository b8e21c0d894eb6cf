//! `pointsworth skirmish grunt-factor` as a user meets it: JSON shape, value in army, force
//! files, replay, determinism across thread counts, error text and exit codes.

use crate::common;

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;

fn pw() -> Command {
    let mut c = Command::cargo_bin("pointsworth").unwrap();
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = pw().args(args).assert().success().get_output().stdout.clone();
    serde_json::from_slice(&out).expect("stdout is one JSON object")
}

#[test]
fn random_forces_json_has_rates_squads_and_value_in_army() {
    let v = json(&["skirmish", "grunt-factor", "--trials", "400", "--json"]);
    assert_eq!(v["ruleset"], "grunt-factor");
    let s = &v["skirmish"];
    assert_eq!(
        (s["games"].as_u64(), s["tactic"].as_str(), s["points"].as_f64()),
        (Some(400), Some("bound"), Some(200.0))
    );
    let total = s["a_wins"]["value"].as_f64().unwrap()
        + s["b_wins"]["value"].as_f64().unwrap()
        + s["draws"]["value"].as_f64().unwrap();
    assert!((total - 1.0).abs() < 1e-9);
    let turns = s["mean_turns"].as_f64().unwrap();
    assert!((1.0..=10.0).contains(&turns), "10-turn cap: {turns}");
    assert_eq!(s["units"].as_array().unwrap().len(), 9, "every squad of the cost list is fielded");
    let values = s["value_in_army"].as_array().unwrap();
    assert_eq!(values.len(), 9);
    common::assert_value_rows_normalised(values);
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let args = ["skirmish", "tgf", "--trials", "200", "--seed", "7", "--tactic", "advance", "--json"];
    let one = json(&[&["--threads", "1"][..], &args[..]].concat());
    let two = json(&[&["--threads", "2"][..], &args[..]].concat());
    assert_eq!(one, two);
}

#[test]
fn force_files_and_replay() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("battle.svg");
    let v = json(&[
        "skirmish",
        "grunt-factor",
        "--armies",
        "configs/armies/tgf-elite.toml",
        "configs/armies/tgf-support.toml",
        "--trials",
        "200",
        "--replay",
        svg.to_str().unwrap(),
        "--json",
    ]);
    let s = &v["skirmish"];
    assert_eq!(s["armies"], "A: Elite Rifles, Untrained Rifles / B: Regular LMG, Regular HMG");
    assert!(s["value_in_army"].as_array().unwrap().is_empty(), "no regression for fixed forces");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.contains("polyline") && text.contains("The Grunt Factor"));
}

#[test]
fn bad_input_exits_2_with_a_clear_message() {
    pw().args(["skirmish", "grunt-factor", "--tactic", "reckless"])
        .assert()
        .code(2)
        .stderr(contains("unknown tactic \"reckless\" for grunt-factor; known: bound (").and(contains("; advance (")));
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "[units]\n\"Elite Rifles\" = 1\n\"Tanks\" = 2\n").unwrap();
    pw().args(["skirmish", "tgf", "--armies", bad.to_str().unwrap(), bad.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(contains("bad.toml:3:11"))
        .stderr(contains("unknown squad \"Tanks\"; known: Untrained Rifles"));
    std::fs::write(&bad, "[units]\n\"Elite Rifles\" = 2\n").unwrap();
    pw().args(["skirmish", "tgf", "--armies", bad.to_str().unwrap(), bad.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(contains("costs at least 260 points with 2 \"Elite Rifles\", more than the limit of 200"));
    pw().args(["skirmish", "tgf", "--set", "skirmish.max_turns=0"])
        .assert()
        .code(2)
        .stderr(contains("--set skirmish.max_turns=0: [skirmish] max_turns must be 1 to 100"));
    pw().args(["skirmish", "tgf", "--replay", "x.png"]).assert().code(2).stderr(contains("FILE.svg"));
}
