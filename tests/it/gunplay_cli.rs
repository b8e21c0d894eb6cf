//! `pointsworth report gunplay` through the binary: the Gunplay report has the win-rate-by-
//! distance chart and its data beside the usual matrices.

use assert_cmd::Command;

#[test]
fn report_gunplay_writes_the_distance_chart() {
    let dir = tempfile::tempdir().unwrap();
    Command::cargo_bin("pointsworth")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        // A small precision for every section (duels, the derived cost list, the skirmish): the
        // assertions are about which sections, files and rows the report has, not its numbers.
        .args([
            "report",
            "gunplay",
            "--trials",
            "400",
            "--set",
            "balance.report_trials=100",
            "--set",
            "skirmish.report_trials=80",
            // Optimal play (a minute here) has its own tests.
            "--set",
            "duel.optimal_play=false",
            "--out",
        ])
        .arg(dir.path())
        .assert()
        .success();
    let g = dir.path().join("gunplay");
    for f in ["win_rate_by_distance.png", "win_rate_by_distance.svg", "win_rate_by_distance.csv", "report.md"] {
        assert!(g.join(f).exists(), "{f} missing");
    }
    let md = std::fs::read_to_string(g.join("report.md")).unwrap();
    assert!(md.contains("## Mean score against start distance (1v1)"));
    assert!(md.contains("| Rifle vs Shotgun | lots of cover |"));
    let csv = std::fs::read_to_string(g.join("win_rate_by_distance.csv")).unwrap();
    // 3 pairs × 3 grounds × 16 distances, plus the header.
    assert_eq!(csv.lines().count(), 1 + 3 * 3 * 16);
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(g.join("summary.json")).unwrap()).unwrap();
    assert_eq!(json["win_rate_by_distance"]["grounds"][2], "lots of cover");
    // The Skirmish section: three single-loadout pairings and random mixes.
    assert!(md.contains("## Skirmish") && md.contains("| 5 × Rifle | 5 × Shotgun |"), "Skirmish section missing");
    // The derived cost list over the ground mix (RULINGS.md, Gunplay: Points) and its check in
    // the skirmish: every list's cost and skirmish efficiency per loadout.
    assert!(md.contains("## Derived cost list over mixed ground (Rifle = 10)"), "derived list over the mix missing");
    assert!(
        md.contains("3, 6, 12, 18, 24, 36, 48 in apart, each in the open, behind some cover and behind lots of cover")
    );
    assert!(md.contains("### The lists in the skirmish") && md.contains("| Pistol | 10.0 |"), "skirmish check missing");
    let mix = std::fs::read_to_string(g.join("derived_costs_mix.csv")).unwrap();
    assert_eq!(mix.lines().count(), 1 + 3);
    assert!(mix.starts_with("unit,starting_cost,derived_24_open,derived_mix,"), "{mix}");
    assert!(mix.contains("skirmish_mix_list_lo"), "{mix}");
}

#[test]
fn the_skirmish_section_can_be_turned_off() {
    let dir = tempfile::tempdir().unwrap();
    Command::cargo_bin("pointsworth")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "report",
            "gunplay",
            "--trials",
            "200",
            "--set",
            "balance.report_trials=100",
            "--set",
            "skirmish.report_trials=0",
            "--set",
            "skirmish.tactic_trials=0",
            "--set",
            "duel.optimal_play=false",
            "--set",
            "duel.tactic_trials=100",
            "--out",
        ])
        .arg(dir.path())
        .assert()
        .success();
    // `report_trials` is the line-up study's, `tactic_trials` the value in army's (with the
    // metagame and the rollout): both at 0, no skirmish section is left.
    let md = std::fs::read_to_string(dir.path().join("gunplay").join("report.md")).unwrap();
    assert!(!md.contains("## Skirmish") && !md.contains("### Skirmish: the tactic metagame"), "{md}");
    // The derived list over the ground mix stays; only its skirmish check goes.
    assert!(md.contains("## Derived cost list over mixed ground") && !md.contains("### The lists in the skirmish"));
}

#[test]
fn duel_gunplay_optimal_json_has_the_game_values_and_the_exploitability() {
    // A 10-turn cap keeps the four solves quick; the keys and identities are what is checked.
    let out = Command::cargo_bin("pointsworth")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["duel", "gunplay", "pistol", "shotgun", "--optimal", "--distance", "24", "--json"])
        .args(["--set", "duel.max_rounds=10"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!((v["method"].as_str(), v["ruleset"].as_str()), (Some("optimal"), Some("gunplay")));
    let f = |k: &str| v[k].as_f64().unwrap_or_else(|| panic!("missing {k}: {v}"));
    assert!((f("a_wins") + f("b_wins") + f("draws") - 1.0).abs() < 1e-12);
    for k in ["scripted", "a_best_response", "b_best_response"] {
        for x in ["a_wins", "b_wins", "draws", "a_score"] {
            assert!(v[k][x].is_number(), "{k}.{x}: {v}");
        }
    }
    assert!(f("exploitability") == f("a_gain").max(f("b_gain")) && f("exploitability") >= 0.0, "{v}");
    assert_eq!((f("grid_step"), f("table_depth"), f("distance")), (3.0, 48.0, 24.0));
    // Beyond the 48" duel table there is no game.
    Command::cargo_bin("pointsworth")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["duel", "gunplay", "pistol", "shotgun", "--optimal", "--distance", "60"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("and at most 48 (the table depth)"));
}
