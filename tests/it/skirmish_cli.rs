//! `pointsworth skirmish` as a user meets it: JSON shape, determinism across thread counts,
//! army files, error text and exit codes.

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
    pw().args(["skirmish", "guns-n-grenades", "--tactic", "reckless"]).assert().code(2).stderr(
        contains("unknown tactic \"reckless\" for guns-n-grenades; known: default (").and(contains("; cautious (")),
    );
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
    assert_eq!(s["armies"], "A: 5 × Rifle / B: 5 × Shotgun");
    let total = s["a_wins"]["value"].as_f64().unwrap()
        + s["b_wins"]["value"].as_f64().unwrap()
        + s["draws"]["value"].as_f64().unwrap();
    assert!((total - 1.0).abs() < 1e-9);
    let turns = s["mean_turns"].as_f64().unwrap();
    assert!((1.0..=10.0).contains(&turns), "{turns}");
    let rows = s["units"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "only the fielded loadouts");
    assert_eq!(rows[0]["name"], "Rifle");
    assert_eq!(rows[0]["fielded"], 1000);
    let kills: f64 = rows.iter().map(|r| r["kills_per_unit"].as_f64().unwrap() * 1000.0).sum();
    assert!(kills > 0.0, "characters removed by the enemy are counted as kills");
    let one = json(&[&["--threads", "1"][..], &args[..]].concat());
    assert_eq!(one["skirmish"], v["skirmish"], "same on 1 thread");
}

#[test]
fn gunplay_skirmish_errors_name_the_loadouts() {
    pw().args(["skirmish", "gunplay", "--armies", "rifle,laser", "rifle"])
        .assert()
        .code(2)
        .stderr(contains("unknown loadout \"laser\"; known: rifle, pistol, shotgun"));
    pw().args(["skirmish", "gunplay", "--tactic", "cautious"]).assert().code(2).stderr(contains("known: default ("));
}

/// One JSON shape for every ruleset: the same keys at the top and in `skirmish`, whatever the
/// ruleset (issue 14).
#[test]
fn every_ruleset_prints_the_same_json_keys() {
    let keys = |v: &serde_json::Value| -> Vec<String> {
        let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
    let mut shapes = Vec::new();
    for id in ["guns-n-grenades", "army-men-combat", "grunt-factor", "vsgmr", "gunplay"] {
        let v = json(&["skirmish", id, "--trials", "60", "--json"]);
        assert_eq!(v["ruleset"], id);
        assert_eq!(v["skirmish"]["games"], 60, "{id}");
        let units = v["skirmish"]["units"].as_array().unwrap();
        assert!(!units.is_empty(), "{id}: random armies field cost-list units");
        shapes.push((id, keys(&v), keys(&v["skirmish"]), keys(&units[0])));
    }
    for s in &shapes[1..] {
        assert_eq!((&s.1, &s.2, &s.3), (&shapes[0].1, &shapes[0].2, &shapes[0].3), "{} against {}", s.0, shapes[0].0);
    }
}

/// `skirmish --help` names every ruleset's own tactics and army sources.
#[test]
fn help_names_each_rulesets_tactics_and_armies() {
    let out = pw().args(["skirmish", "--help"]).assert().success().get_output().stdout.clone();
    let help = String::from_utf8(out).unwrap();
    for want in ["bound", "advance", "cautious", "force files", "sample-army names", "loadout lists", "army files"] {
        assert!(help.contains(want), "--help lacks {want:?}:\n{help}");
    }
}

/// An unknown tactic or army name is refused with the ruleset's own list (exit code 2).
#[test]
fn errors_list_the_rulesets_own_names() {
    pw().args(["skirmish", "tgf", "--tactic", "cautious"])
        .assert()
        .code(2)
        .stderr(contains("unknown tactic \"cautious\" for grunt-factor; known: bound ("));
    pw().args(["skirmish", "vsgmr", "--armies", "Orcs", "Space Pirates"])
        .assert()
        .code(2)
        .stderr(contains("unknown sample army \"Space Pirates\"; known: ").and(contains("\"Orcs\"")));
}

/// `--mission point-capture` and `--mission ground-war` play the Guns 'N Grenades missions:
/// the book's name, the mission's points (Ground War: 600), and results apart from the
/// Skirmish's for the same seed; the default mission is the Skirmish.
#[test]
fn gng_missions_run_from_the_command_line() {
    let base = ["skirmish", "gng", "--trials", "60", "--seed", "3", "--json"];
    let skirmish = json(&base);
    assert_eq!((skirmish["mission"].as_str(), skirmish["game"].as_str()), (Some("skirmish"), Some("Skirmish")));
    assert_eq!(skirmish, json(&[&base[..], &["--mission", "skirmish"]].concat()));
    for (name, game, points) in [("point-capture", "Point Capture", 350.0), ("ground-war", "Ground War", 600.0)] {
        let v = json(&[&base[..], &["--mission", name]].concat());
        assert_eq!((v["mission"].as_str(), v["game"].as_str()), (Some(name), Some(game)));
        assert_eq!(v["skirmish"]["points"].as_f64(), Some(points), "{name}");
        assert_eq!(v["skirmish"]["games"], 60);
        assert_ne!(v["skirmish"]["a_wins"], skirmish["skirmish"]["a_wins"], "{name} is another game");
    }
    let text = pw().args(["skirmish", "gng", "--trials", "20", "--mission", "ground-war"]).assert().success();
    let out = String::from_utf8(text.get_output().stdout.clone()).unwrap();
    assert!(out.contains("Ground War, 600 points") && out.contains("command points"), "{out}");
}

/// An unknown mission is a usage error listing the ruleset's missions; `--help` lists them.
#[test]
fn an_unknown_mission_lists_the_rulesets_missions() {
    pw().args(["skirmish", "gng", "--mission", "capture-the-flag"]).assert().code(2).stderr(
        contains("unknown mission \"capture-the-flag\" for guns-n-grenades; known: skirmish (")
            .and(contains("point-capture ("))
            .and(contains("ground-war (")),
    );
    pw().args(["skirmish", "vsgmr", "--mission", "point-capture"])
        .assert()
        .code(2)
        .stderr(contains("unknown mission \"point-capture\" for vsgmr; known: basic ("));
    let out = pw().args(["skirmish", "--help"]).assert().success().get_output().stdout.clone();
    let help = String::from_utf8(out).unwrap();
    for want in ["--mission", "point-capture — Point Capture", "ground-war — Ground War", "basic — "] {
        assert!(help.contains(want), "--help lacks {want:?}:\n{help}");
    }
}

/// Army files keep the mission's points limit: 450 points are too many for the Skirmish's 350
/// and fit Ground War's 600.
#[test]
fn army_files_are_checked_against_the_missions_points() {
    let dir = tempfile::tempdir().unwrap();
    let army = dir.path().join("big.toml");
    std::fs::write(&army, "[units]\nRiflemen = 30\n").unwrap();
    let a = army.to_str().unwrap();
    pw().args(["skirmish", "gng", "--armies", a, a, "--trials", "10"])
        .assert()
        .code(2)
        .stderr(contains("more than the limit of 350"));
    let v = json(&["skirmish", "gng", "--mission", "ground-war", "--armies", a, a, "--trials", "10", "--json"]);
    assert_eq!(v["skirmish"]["games"], 10);
}

#[test]
fn each_side_can_play_its_own_tactic_as_the_metagame_does() {
    // A cell of The Grunt Factor's tactic metagame: side A advances, side B bounds.
    let args = ["skirmish", "grunt-factor", "--tactic", "a=advance", "--trials", "300", "--seed", "3", "--json"];
    let v = json(&args);
    let s = &v["skirmish"];
    assert_eq!(s["tactic"], "advance (A) v bound (B)");
    let (a, b) = (s["a_wins"]["value"].as_f64().unwrap(), s["b_wins"]["value"].as_f64().unwrap());
    assert!(a > 0.75 && b < 0.25, "the advancing side wins most games: A {a}, B {b}");
    // The mirror cell: B advances; and NAME alone is both sides, as before.
    let v = json(&["skirmish", "grunt-factor", "--tactic", "b=advance", "--trials", "300", "--seed", "3", "--json"]);
    assert_eq!(v["skirmish"]["tactic"], "bound (A) v advance (B)");
    assert!(v["skirmish"]["b_wins"]["value"].as_f64().unwrap() > 0.75);
    let both = json(&["skirmish", "grunt-factor", "--tactic", "advance", "--trials", "300", "--seed", "3", "--json"]);
    let pinned = json(&[
        "skirmish",
        "grunt-factor",
        "--tactic",
        "a=advance",
        "--tactic",
        "b=advance",
        "--trials",
        "300",
        "--seed",
        "3",
        "--json",
    ]);
    assert_eq!(both["skirmish"]["tactic"], "advance");
    assert_eq!(both, pinned, "a=NAME and b=NAME together are NAME alone");
}

#[test]
fn bad_tactic_pins_exit_2_and_say_why() {
    for (pins, says) in [
        (&["--tactic", "c=advance"][..], "the side is a or b"),
        (&["--tactic", "a=advance", "--tactic", "a=bound"][..], "side a is given twice"),
        (&["--tactic", "a=charge"][..], "known: bound"),
    ] {
        pw().args(["skirmish", "grunt-factor", "--trials", "10"]).args(pins).assert().code(2).stderr(contains(says));
    }
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("x.svg");
    pw().args(["skirmish", "grunt-factor", "--tactic", "a=advance", "--trials", "10", "--replay"])
        .arg(&svg)
        .assert()
        .code(2)
        .stderr(contains("--replay draws a game in which both sides play one tactic"));
    assert!(!svg.exists());
}

#[test]
fn a_rollout_best_response_gives_each_sides_gain_and_refuses_what_it_cannot_play() {
    // VSGMR both sides on `hold`: the JSON's rollout has both sides' gain with its interval.
    let args =
        ["skirmish", "vsgmr", "--tactic", "hold", "--trials", "20", "--rollout", "40", "--rollouts", "4", "--json"];
    let v = json(&args);
    let r = &v["rollout"];
    assert_eq!((r["games"].as_u64(), r["rollouts"].as_u64()), (Some(40), Some(4)));
    assert_eq!(r["base"], serde_json::json!([1, 1]));
    for s in r["sides"].as_array().unwrap() {
        let g = &s["gain"];
        let (lo, x, hi) = (g["lo"].as_f64().unwrap(), g["value"].as_f64().unwrap(), g["hi"].as_f64().unwrap());
        assert!(lo <= x && x <= hi && (-1.0..=1.0).contains(&x), "{s}");
        assert!((0.0..=1.0).contains(&s["switched"].as_f64().unwrap()), "{s}");
    }
    // The same seed, the same numbers, on one thread or two.
    let one = pw().arg("--threads").arg("1").args(args).assert().success().get_output().stdout.clone();
    assert_eq!(serde_json::from_slice::<serde_json::Value>(&one).unwrap()["rollout"], *r);
    // The text names the rollout in every ruleset; bad counts are refused.
    pw().args(["skirmish", "gng", "--trials", "10", "--rollout", "4", "--rollouts", "2"])
        .assert()
        .success()
        .stdout(contains("Rollout best response (4 games, 2 playouts per tactic at the start of each game turn"));
    // Army Men Combat decides at each round, The Grunt Factor and Gunplay at each game turn.
    for (id, stage) in [("army-men-combat", "round"), ("grunt-factor", "game turn"), ("gunplay", "game turn")] {
        pw().args(["skirmish", id, "--trials", "10", "--rollout", "4", "--rollouts", "2"])
            .assert()
            .success()
            .stdout(contains(format!("(4 games, 2 playouts per tactic at the start of each {stage} of")));
    }
    pw().args(["skirmish", "vsgmr", "--rollout", "1"]).assert().code(2).stderr(contains("2..=100000"));
    pw().args(["skirmish", "vsgmr", "--rollouts", "4"]).assert().code(2).stderr(contains("--rollout <GAMES>"));
}
