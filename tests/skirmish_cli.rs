//! `pointsworth skirmish` as a user meets it: JSON shape, determinism across thread counts,
//! army files, error text and exit codes.

mod common;

use assert_cmd::Command;

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
fn random_army_skirmish_json_has_rates_units_and_value_in_army() {
    let v = json(&["skirmish", "guns-n-grenades", "--trials", "300", "--json"]);
    let s = &v["skirmish"];
    assert_eq!(s["games"], 300);
    assert_eq!(s["armies"], "random");
    let total = s["a_wins"]["value"].as_f64().unwrap()
        + s["b_wins"]["value"].as_f64().unwrap()
        + s["draws"]["value"].as_f64().unwrap();
    assert!((total - 1.0).abs() < 1e-9);
    assert_eq!(s["units"].as_array().unwrap().len(), 12);
    let values = s["value_in_army"].as_array().unwrap();
    assert!(values.len() >= 12, "units and upgrades are valued");
    common::assert_value_rows_normalised(values);
}

#[test]
fn skirmish_results_do_not_depend_on_the_thread_count() {
    let args = ["skirmish", "gng", "--trials", "200", "--seed", "7", "--json"];
    let one = json(&[&["--threads", "1"][..], &args[..]].concat());
    let two = json(&[&["--threads", "2"][..], &args[..]].concat());
    assert_eq!(one, two);
}

#[test]
fn army_files_and_replay() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("battle.svg");
    let v = json(&[
        "skirmish",
        "guns-n-grenades",
        "--armies",
        "configs/armies/gng-rifle-company.toml",
        "configs/armies/gng-armour.toml",
        "--tactic",
        "cautious",
        "--trials",
        "100",
        "--replay",
        svg.to_str().unwrap(),
        "--json",
    ]);
    assert!(v["skirmish"]["armies"].as_str().unwrap().contains("Body Armor"));
    assert_eq!(v["skirmish"]["tactic"], "cautious");
    assert!(v["skirmish"]["value_in_army"].as_array().unwrap().is_empty(), "no regression for fixed armies");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.contains("polyline"));
}

#[test]
fn bad_input_exits_2_with_a_clear_message() {
    pw().args(["skirmish", "guns-n-grenades", "--tactic", "reckless"])
        .assert()
        .code(2)
        .stderr(contains("unknown tactic \"reckless\"; known: default, cautious"));
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "[units]\nRiflemen = 4\nCommandos = 2\n").unwrap();
    pw().args(["skirmish", "gng", "--armies", bad.to_str().unwrap(), bad.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(contains("bad.toml:3:13"))
        .stderr(contains("unknown unit \"Commandos\""));
    std::fs::write(&bad, "[units]\nMortar = 7\n").unwrap();
    pw().args(["skirmish", "gng", "--armies", bad.to_str().unwrap(), bad.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(contains("Limited"));
    pw().args(["skirmish", "gng", "--replay", "x.gif"]).assert().code(2).stderr(contains("FILE.svg"));
}

#[test]
fn gunplay_skirmish_json_has_rates_turns_and_loadout_survival() {
    let args = [
        "skirmish",
        "gunplay",
        "--trials",
        "200",
        "--seed",
        "3",
        "--armies",
        "rifle,rifle,rifle,rifle,rifle",
        "shotgun,shotgun,shotgun,shotgun,shotgun",
        "--json",
    ];
    let v = json(&args);
    let s = &v["skirmish"];
    assert_eq!(s["games"], 200);
    assert_eq!(s["side_a"], "5 × Rifle");
    let total = s["a_wins"]["value"].as_f64().unwrap()
        + s["b_wins"]["value"].as_f64().unwrap()
        + s["draws"]["value"].as_f64().unwrap();
    assert!((total - 1.0).abs() < 1e-9);
    let turns = s["mean_turns"].as_f64().unwrap();
    assert!((1.0..=10.0).contains(&turns), "{turns}");
    let rows = s["loadouts"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["fielded"], 1000);
    let one = json(&[&["--threads", "1"][..], &args[..]].concat());
    assert_eq!(one["skirmish"], v["skirmish"], "same on 1 thread");
}

#[test]
fn gunplay_skirmish_errors_name_the_loadouts() {
    pw().args(["skirmish", "gunplay", "--armies", "rifle,laser", "rifle"])
        .assert()
        .code(2)
        .stderr(contains("unknown loadout \"laser\"; known: rifle, pistol, shotgun"));
    pw().args(["skirmish", "gunplay", "--tactic", "cautious"]).assert().code(2).stderr(contains("known: default"));
}
