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
            "1000",
            "--set",
            "balance.report_trials=500",
            "--set",
            "skirmish.report_trials=200",
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
            "balance.report_trials=200",
            "--set",
            "skirmish.report_trials=0",
            "--out",
        ])
        .arg(dir.path())
        .assert()
        .success();
    let md = std::fs::read_to_string(dir.path().join("gunplay").join("report.md")).unwrap();
    assert!(!md.contains("## Skirmish"));
}
