//! `pointsworth report RULESET` end to end through the binary, for every ruleset, at a small
//! precision: the run succeeds, writes the files every report has plus its ruleset's own, and
//! the report's outline (its section headings and the column headers of its tables) is
//! snapshotted, so a section that disappears, or appears, or changes its columns shows up in
//! review. The numbers are left out of the snapshots: they are the balance baselines' job
//! (`reports/`, checked by `pointsworth check`), and the precision here is far too small to
//! mean anything. A report that fails part way keeps the files of the previous run whole.

use crate::common;

use assert_cmd::Command;
use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

/// Runs `pointsworth report RULESET` with `args` into `out`. The tests below pass
/// `duel.optimal_play=false`: solving every pair under optimal play takes seconds to minutes in
/// the test profile even on a cut cost list, and the section has its own test
/// (`optimal_play_section_army_men_combat`). The report writes its sections' seconds to
/// `OUT/sections.json` (`POINTSWORTH_SECTION_SECONDS`, what `cargo bench`'s table reads).
fn report(ruleset: &str, args: &[&str], out: &Path) -> assert_cmd::assert::Assert {
    Command::cargo_bin("pointsworth")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("POINTSWORTH_SECTION_SECONDS", out.join("sections.json"))
        .args(["report", ruleset, "--trials", "200"])
        .args(args)
        .arg("--out")
        .arg(out)
        .assert()
}

/// The file names of a directory, sorted.
fn files(dir: &Path) -> BTreeSet<String> {
    fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect()
}

/// `configs/<file>` cut to the units in `keep` (after each `(from, to)` replacement), in a
/// temporary directory: the directory (keep it alive) and the cut config's path for `--config`.
fn cut_config(file: &str, keep: &[&str], replace: &[(&str, &str)]) -> (tempfile::TempDir, String) {
    let dir = common::repo_dir();
    common::trimmed_config(dir.path(), file, keep, replace);
    let path = dir.path().join(file).to_str().unwrap().to_string();
    (dir, path)
}

/// The outline of a report: headings, and each table's header row.
fn outline(md: &str) -> String {
    let mut out = Vec::new();
    let mut in_table = false;
    for line in md.lines() {
        if line.starts_with('#') {
            out.push(line.to_string());
        }
        let row = line.starts_with('|');
        if row && !in_table {
            out.push(format!("    {line}"));
        }
        in_table = row;
    }
    out.join("\n")
}

/// Runs the report of `ruleset` and checks the files (every report's and `own_files`) and the
/// outline; returns `summary.json`.
fn end_to_end(ruleset: &str, args: &[&str], own_files: &[&str]) -> serde_json::Value {
    let tmp = tempfile::tempdir().unwrap();
    report(ruleset, args, tmp.path()).success();
    let dir = tmp.path().join(ruleset);
    let got = files(&dir);
    let common = [
        "report.md",
        "report.html",
        "verdict.csv",
        "summary.json",
        "efficiency.csv",
        "efficiency.parquet",
        "efficiency.png",
        "efficiency.svg",
        "heatmap_1v1.png",
        "heatmap_points.png",
        "matrix_1v1.csv",
        "matrix_points.csv",
    ];
    for f in common.iter().chain(own_files) {
        assert!(got.contains(*f), "{ruleset}: {f} missing; written: {got:?}");
    }
    assert!(!got.iter().any(|f| f.contains("-tmp-")), "{ruleset}: temporary files left: {got:?}");
    let json: serde_json::Value = serde_json::from_slice(&fs::read(dir.join("summary.json")).unwrap()).unwrap();
    assert_eq!(json["ruleset"], ruleset, "{ruleset}: summary.json names another ruleset");
    let md = fs::read_to_string(dir.join("report.md")).unwrap();
    insta::assert_snapshot!(format!("outline_{ruleset}"), outline(&md));
    // Each section's seconds, for this ruleset alone.
    let sections: std::collections::BTreeMap<String, std::collections::BTreeMap<String, f64>> =
        serde_json::from_slice(&fs::read(tmp.path().join("sections.json")).unwrap()).unwrap();
    assert_eq!(sections.keys().collect::<Vec<_>>(), [ruleset], "{ruleset}: sections of other rulesets");
    let names: BTreeSet<&str> = sections[ruleset].keys().map(String::as_str).collect();
    assert_eq!(names, pointsworth::commands::report::SECTIONS.into_iter().collect(), "{ruleset}: sections timed");
    assert!(sections[ruleset].values().all(|s| s.is_finite() && *s >= 0.0), "{ruleset}: {sections:?}");
    json
}

#[test]
fn guns_n_grenades() {
    // Five units of the twelve (infantry, a sniper, indirect fire, a vehicle), upgrades kept:
    // every section is still written, at a fifth of the work.
    let keep = ["Riflemen", "Heavy Infantry", "Snipers", "Mortar", "Tank"];
    let (_dir, config) = cut_config("guns-n-grenades.toml", &keep, &[]);
    end_to_end(
        "guns-n-grenades",
        &[
            "--config",
            &config,
            "--set",
            "skirmish.report_trials=80",
            "--set",
            "skirmish.rollout_games=10",
            "--set",
            "skirmish.rollout_playouts=4",
            "--set",
            "balance.report_trials=100",
            "--set",
            "duel.optimal_play=false",
        ],
        &[
            "fair_costs.csv",
            "efficiency_by_distance.csv",
            "skirmish.json",
            "skirmish_value_in_army.csv",
            "value_in_army.png",
            // Value per mission: Point Capture and Ground War beside the Skirmish (issue 19).
            "skirmish_missions.json",
            "skirmish_value_by_mission.csv",
            "skirmish_value_by_mission.png",
            "skirmish_value_by_mission.svg",
        ],
    );
}

#[test]
fn army_men_combat() {
    // Six entries of the fifteen (rifle squads of two sizes and qualities, a support weapon, a
    // sniper, a vehicle with upgrades and the Tank): every section is still written, at a third
    // of the work.
    let keep = ["Riflemen (5)", "Veterans (10)", "Gunners (1)", "Snipers (1)", "Jeep", "Tank"];
    let (_dir, config) = cut_config("army-men-combat.toml", &keep, &[]);
    let json = end_to_end(
        "army-men-combat",
        &[
            "--config",
            &config,
            "--set",
            "skirmish.report_trials=80",
            "--set",
            "skirmish.rollout_games=10",
            "--set",
            "skirmish.rollout_playouts=4",
            "--set",
            "balance.report_trials=100",
            "--set",
            "upgrades.trials=100",
            // The upgrades' fair-price bisection at 100 trials per price tried (the default is
            // 1000; 0 would drop the section this test means to see).
            "--set",
            "upgrades.fair_trials=100",
            // One upgrade distance and two sweep distances: the sections and their columns,
            // at a third of the work.
            "--set",
            "upgrades.distances=[24]",
            "--set",
            "duel.sweep_distances=[12, 24]",
            // Optimal play over the full cost list costs minutes in the test profile: its
            // section has its own test on a cut cost list (`optimal_play_section_...`).
            "--set",
            "duel.optimal_play=false",
        ],
        &["fair_costs.csv", "mission.json", "mission_units.csv", "mission_value_in_army.png", "mission_replay.svg"],
    );
    // The mission is played round by round: its rollout best response has both sides' gain.
    let rollout = &json["play"]["skirmish"]["rollout"];
    assert_eq!((rollout["games"].as_u64(), rollout["rollouts"].as_u64()), (Some(10), Some(4)), "{rollout}");
    assert!(rollout["sides"].as_array().is_some_and(|s| s.len() == 2), "{rollout}");
}

/// The Grunt Factor's exact 1v1 solver is slow for squads of five models in the test profile
/// (about 5 s of this test for the nine shipped squads): the cost list is cut to four squads of
/// four models, a rifle squad of two qualities, the SMGs and a specialist, so every section is
/// still written.
#[test]
fn grunt_factor() {
    let keep = ["Green Rifles", "Regular Rifles", "Regular SMGs", "Regular Sniper"];
    let (_dir, config) = cut_config("grunt-factor.toml", &keep, &[("soldiers = 4", "soldiers = 3")]);
    let json = end_to_end(
        "grunt-factor",
        // Two of the sweep's five distances: its section and chart, at a tenth of the cost.
        &[
            "--config",
            &config,
            "--set",
            "skirmish.report_trials=200",
            "--set",
            "skirmish.rollout_games=10",
            "--set",
            "skirmish.rollout_playouts=4",
            "--set",
            "balance.report_trials=100",
            "--set",
            "duel.sweep_distances=[30, 50]",
            "--set",
            "duel.optimal_play=false",
        ],
        &[
            "fair_costs.csv",
            "skirmish.json",
            "skirmish_units.csv",
            "skirmish_replay.svg",
            "efficiency_by_distance.csv",
            "efficiency_by_distance.png",
            // The skirmish's tactic metagame (four tactics): "How each matchup is played".
            "metagame.csv",
        ],
    );
    // A side that holds its ground beats one that bounds or advances, so the skirmish is
    // played by `hold` on both sides, the metagame's equilibrium at 200 games a cell (the
    // shipped 20,000 find `hold-lead`'s edge of about 3 points over `hold`), and no switch of
    // tactic clearly gains against it (the intervals are wide), nor does the rollout best
    // response of ten games (the game is played game turn by game turn).
    let skirmish = &json["play"]["skirmish"];
    assert_eq!((skirmish["play"].as_str(), skirmish["tactic"].as_str()), (Some("equilibrium"), Some("hold")));
    assert_eq!(skirmish["exploitability_lower_bound"]["lo"], 0.0, "{skirmish}");
    assert!(skirmish["measured"].as_str().unwrap().contains("side "), "{skirmish}");
    assert!(skirmish["rollout"]["sides"].as_array().is_some_and(|s| s.len() == 2), "{skirmish}");
}

#[test]
fn gunplay() {
    end_to_end(
        "gunplay",
        &[
            "--set",
            "skirmish.report_trials=100",
            "--set",
            "balance.report_trials=100",
            "--set",
            "duel.optimal_play=false",
            "--set",
            "duel.tactic_trials=100",
        ],
        &[
            "win_rate_by_distance.csv",
            "win_rate_by_distance.png",
            "fair_costs.csv",
            "efficiency_by_distance.csv",
            "derived_costs_mix.csv",
            "squads_game.csv",
        ],
    );
}

/// Squads and price studies of 3 points (the config says 12 for both): a quarter of the figures
/// a side.
#[test]
fn vsgmr() {
    // Six templates of the fourteen (troops with and without a distance attack and armour, a
    // hero, Stealth, a vehicle): every section is still written, at two thirds of the work.
    let keep = [
        "Troop",
        "Troop with distance attack",
        "Hero",
        "Troop Stealth",
        "Independent vehicle",
        "Troop with heavy armor",
    ];
    let (_dir, config) = cut_config("vsgmr.toml", &keep, &[]);
    let json = end_to_end(
        "vsgmr",
        &[
            "--config",
            &config,
            "--set",
            "duel.budget=3",
            "--set",
            "prices.budget=3",
            "--set",
            "balance.report_trials=100",
            "--set",
            "prices.report_trials=100",
            "--set",
            "skirmish.round_robin_trials=4",
            "--set",
            "skirmish.random_trials=40",
            // Value in army, value per mission, the scenarios and the fair-points search.
            "--set",
            "skirmish.report_trials=80",
            "--set",
            "skirmish.rollout_games=10",
            "--set",
            "skirmish.rollout_playouts=4",
            "--set",
            "duel.optimal_play=false",
            // The squads' tactic game of the 15 pairs, 100 duels a cell.
            "--set",
            "duel.tactic_trials=100",
        ],
        &[
            "attribute_prices.png",
            "vsgmr_round_robin.png",
            "fair_costs.csv",
            "skirmish.json",
            "value_in_army.png",
            "skirmish_missions.json",
            "skirmish_value_by_mission.csv",
            "skirmish_value_by_mission.png",
            // The skirmish's tactic metagame (default, hold, charge, keep-out).
            "metagame.csv",
            // The squads' tactic game: a row per pair.
            "squads_game.csv",
        ],
    );
    // The squads play the tactic game's equilibrium; the game's best switch against it is a
    // lower bound at least 0 with its interval (the only one: optimal play, and with it the
    // squads' rollout, is off here).
    let squads = &json["play"]["squads"];
    assert_eq!((squads["play"].as_str(), squads["tactic"].as_str()), (Some("equilibrium"), Some("equilibrium mix")));
    let bound = &squads["exploitability_lower_bound"];
    let [value, lo, hi] = ["value", "lo", "hi"].map(|k| bound[k].as_f64().unwrap_or_else(|| panic!("{k}: {squads}")));
    assert!((0.0..=1.0).contains(&value) && 0.0 <= lo && lo <= value && value <= hi, "{squads}");
    assert!(
        squads["measured"]
            .as_str()
            .is_some_and(|m| m.starts_with("lower bound from the squads' tactic game (every pair")),
        "{squads}"
    );
    // A side that holds, charges or keeps out loses to one that plays the default (or gains
    // nothing clear), so the default is played, the metagame's equilibrium; the rollout best
    // response is in the play.
    assert!(json["play"]["skirmish"]["rollout"]["sides"].as_array().is_some_and(|s| s.len() == 2));
    let skirmish = &json["play"]["skirmish"];
    assert_eq!((skirmish["play"].as_str(), skirmish["tactic"].as_str()), (Some("equilibrium"), Some("default")));
}

/// A report that fails part way (here: one of its files cannot be replaced, because a
/// directory stands in its place) exits with an error and leaves every file of the previous
/// run whole: each is the old file or the new one, never a truncated mix, and no temporary file
/// is left behind.
#[test]
fn a_report_that_fails_part_way_keeps_the_previous_files() {
    let tmp = tempfile::tempdir().unwrap();
    // Gunplay cut to two loadouts (one pair): every file of a report, at a third of the work.
    let (_repo, config) = cut_config("gunplay.toml", &["Rifle", "Shotgun"], &[]);
    let args = [
        "--config",
        &config,
        "--set",
        "skirmish.report_trials=0",
        "--set",
        "balance.report_trials=100",
        "--set",
        "duel.optimal_play=false",
    ];
    report("gunplay", &args, tmp.path()).success();
    let dir = tmp.path().join("gunplay");
    let before: Vec<(String, Vec<u8>)> =
        files(&dir).into_iter().map(|f| (f.clone(), fs::read(dir.join(&f)).unwrap())).collect();
    // The next run cannot rename its summary.json over a non-empty directory.
    fs::remove_file(dir.join("summary.json")).unwrap();
    fs::create_dir(dir.join("summary.json")).unwrap();
    fs::write(dir.join("summary.json").join("keep"), b"x").unwrap();
    let failed = report("gunplay", &[&args[..], &["--seed", "7"]].concat(), tmp.path()).failure();
    let stderr = String::from_utf8_lossy(&failed.get_output().stderr).into_owned();
    assert!(stderr.contains("summary.json"), "the error names the file: {stderr}");
    let after = files(&dir);
    for (name, old) in &before {
        if name == "summary.json" {
            continue;
        }
        assert!(after.contains(name), "{name} was removed by the failed run");
        let new = fs::read(dir.join(name)).unwrap();
        if new != *old {
            // Replaced: then it must be a whole file of the new run.
            assert!(!new.is_empty(), "{name} is empty");
            if name.ends_with(".md") {
                assert!(String::from_utf8_lossy(&new).trim_end().lines().count() > 3, "{name} is truncated");
            }
        }
    }
    assert!(!after.iter().any(|f| f.contains("-tmp-")), "temporary files left: {after:?}");
}

/// "Does the tactic play well?" on a cost list cut to three units (six pairs, mirrors
/// included): the files, `summary.json`'s `optimal_play` object and the section, and the 1v1
/// matrix and mean scores under optimal play; then a run with `[duel] optimal_play = false`
/// drops the section, removes its files and plays the 1v1 matrix with the scripted tactic.
#[test]
fn optimal_play_section_army_men_combat() {
    let dir = common::repo_dir();
    common::trimmed_config(dir.path(), "army-men-combat.toml", &["Riflemen (5)", "Gunners (1)", "Jeep"], &[]);
    let run = |extra: &[&str]| {
        Command::cargo_bin("pointsworth")
            .unwrap()
            .current_dir(dir.path())
            .args(common::SMALL_AMC_REPORT)
            .args(["--out", "out"])
            .args(extra)
            .assert()
            .success();
    };
    // The optimal-play heatmap of earlier versions is now the 1v1 matrix's: a run removes it.
    let out = dir.path().join("out/army-men-combat");
    fs::create_dir_all(&out).unwrap();
    fs::write(out.join("heatmap_optimal.png"), b"stale").unwrap();
    run(&[]);
    for f in ["optimal_play.csv", "heatmap_scripted.png", "heatmap_scripted.svg"] {
        assert!(out.join(f).exists(), "{f} missing");
    }
    assert!(!out.join("heatmap_optimal.png").exists(), "the stale heatmap is left");
    let json: serde_json::Value = serde_json::from_slice(&fs::read(out.join("summary.json")).unwrap()).unwrap();
    let o = &json["optimal_play"];
    let pairs = o["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 6, "{o}");
    let max = o["exploitability_max"].as_f64().unwrap();
    let worst = pairs.iter().map(|p| p["exploitability"].as_f64().unwrap()).fold(0.0, f64::max);
    assert_eq!(max, worst);
    for p in pairs.iter().filter(|p| p["a"] == p["b"]) {
        assert_eq!(p["optimal"]["a_score"].as_f64(), Some(0.5), "mirror {p}");
    }
    // Scripted v optimal gains are never negative beyond rounding: a best response may keep
    // the scripted choice.
    assert!(pairs.iter().all(|p| p["a_gain"].as_f64().unwrap() > -1e-9 && p["b_gain"].as_f64().unwrap() > -1e-9));
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("## Does the tactic play well?") && md.contains("### Exploitability per pair, worst first"));
    let csv = fs::read_to_string(out.join("optimal_play.csv")).unwrap();
    assert_eq!(csv.lines().count(), 7, "{csv}");
    // 1v1 numbers are the game's value: every cell of the 1v1 matrix is its pair's optimal
    // play, seen from the row, and each unit's 1v1 mean score is the mean of its row.
    let m = &json["matrix_1v1"];
    let ids: Vec<&str> = m["units"].as_array().unwrap().iter().map(|u| u.as_str().unwrap()).collect();
    let at = |id: &serde_json::Value| ids.iter().position(|u| *u == id.as_str().unwrap()).unwrap();
    let f = |v: &serde_json::Value| v.as_f64().unwrap();
    for p in pairs {
        let (i, j) = (at(&p["a"]), at(&p["b"]));
        let (a, b) = (&m["cells"][i][j], &m["cells"][j][i]);
        assert_eq!((a["method"].as_str(), b["method"].as_str()), (Some("optimal"), Some("optimal")), "{p}");
        assert_eq!(f(&a["a_score"]["value"]), f(&p["optimal"]["a_score"]).clamp(0.0, 1.0), "{p}");
        assert!((f(&b["a_score"]["value"]) - (1.0 - f(&a["a_score"]["value"]))).abs() < 1e-15, "{p}");
        assert_eq!(f(&b["a_wins"]["value"]), f(&p["optimal"]["b_wins"]).clamp(0.0, 1.0), "{p}");
        assert!(a["mean_turns"].is_null() && a["a_score"]["lo"] == a["a_score"]["hi"], "{a}");
    }
    for row in json["efficiency"].as_array().unwrap() {
        let i = at(&row["unit"]["id"]);
        let others: Vec<f64> =
            (0..ids.len()).filter(|&j| j != i).map(|j| f(&m["cells"][i][j]["a_score"]["value"])).collect();
        let mean = others.iter().sum::<f64>() / others.len() as f64;
        assert!((f(&row["win_rate_1v1"]["value"]) - mean).abs() < 1e-12, "{row}");
    }
    assert!(md.contains("## 1v1 matrix: 1v1 at 24 in, optimal play") && md.contains("Both sides play optimally"));
    let one = fs::read_to_string(out.join("matrix_1v1.csv")).unwrap();
    assert!(one.lines().skip(1).all(|l| l.contains(",optimal,")), "{one}");
    // summary.json says which play produced each level and how exploitable it is.
    let play = &json["play"];
    assert_eq!(play["one_against_one"]["play"], "optimal", "{play}");
    assert_eq!(play["one_against_one"]["exploitability"], 0.0, "{play}");
    assert_eq!(play["squads"]["play"], "scripted", "{play}");
    assert!(play["squads"]["exploitability"].is_null(), "{play}");
    let worst = format!("up to {:.1} score points", 100.0 * f(&o["exploitability_max"]));
    assert!(play["squads"]["measured"].as_str().unwrap().contains(&worst), "{worst}: {play}");

    run(&["--set", "duel.optimal_play=false"]);
    assert!(!out.join("optimal_play.csv").exists() && !out.join("heatmap_scripted.png").exists());
    let md = fs::read_to_string(out.join("report.md")).unwrap();
    assert!(!md.contains("Does the tactic play well?") && !md.contains("1v1 at 24 in, optimal play"));
    let json: serde_json::Value = serde_json::from_slice(&fs::read(out.join("summary.json")).unwrap()).unwrap();
    assert!(json.get("optimal_play").is_none());
    let cells = json["matrix_1v1"]["cells"].as_array().unwrap().iter().flat_map(|r| r.as_array().unwrap());
    assert!(cells.clone().all(|c| c["method"] != "optimal" && c["mean_turns"].is_number()));
    let play = &json["play"];
    assert_eq!(play["one_against_one"]["play"], "scripted", "{play}");
    assert!(play["one_against_one"]["exploitability"].is_null(), "{play}");
}
