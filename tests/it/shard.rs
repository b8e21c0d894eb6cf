//! `--shard K/N` + `pointsworth merge`: N shards of a seed merged give exactly the
//! single-machine result (byte-identical JSON), for every simulating command.

use crate::common;

use std::fs;
use std::path::Path;

use assert_cmd::Command;

fn pw(dir: &Path) -> Command {
    let mut c = Command::cargo_bin("pointsworth").unwrap();
    c.current_dir(dir);
    c
}

/// A temp dir with `small.toml`: the committed config cut to five infantry units, with a
/// two-distance sweep (so the report's sweep is sharded too), at a test precision (see
/// `common::small_gng_config`).
fn setup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let keep = ["Riflemen", "Light Infantry", "Snipers", "Grenadier", "Medics"];
    let (header, blocks) = common::small_gng_config(&keep, "[6, 12]");
    fs::write(dir.path().join("small.toml"), format!("{header}\n{}", blocks.join("\n"))).unwrap();
    dir
}

fn stdout(c: &mut Command) -> Vec<u8> {
    c.assert().success().get_output().stdout.clone()
}

/// Runs `args` as N shards (in a scrambled order, with different thread counts), then merges.
fn shard_and_merge(dir: &Path, args: &[&str], n: usize) -> Vec<u8> {
    let mut files = Vec::new();
    for k in (1..=n).rev() {
        let file = format!("tallies-{k}.json");
        let shard = format!("{k}/{n}");
        let threads = format!("{}", 1 + k % 2);
        let out = stdout(pw(dir).args(args).args(["--shard", &shard, "--tallies-out", &file, "--threads", &threads]));
        assert!(String::from_utf8(out).unwrap().starts_with(&format!("shard {shard}: ")));
        files.push(file);
    }
    stdout(pw(dir).arg("merge").args(&files))
}

#[test]
fn merged_matrix_shards_equal_one_run() {
    let dir = setup();
    let args = ["matrix", "gng", "--config", "small.toml", "--trials", "2500", "--seed", "7", "--json"];
    let single = stdout(pw(dir.path()).args(args));
    let merged = shard_and_merge(dir.path(), &args, 3);
    assert_eq!(String::from_utf8(merged).unwrap(), String::from_utf8(single.clone()).unwrap());
    // And the plan was fixed: every simulated matchup played exactly --trials.
    let v: serde_json::Value = serde_json::from_slice(&single).unwrap();
    for row in v["matrix_points"]["cells"].as_array().unwrap() {
        for c in row.as_array().unwrap() {
            assert_eq!(c["trials"], 2500);
        }
    }
}

#[test]
fn merged_duel_shards_equal_one_run() {
    let dir = setup();
    let args = ["duel", "gng", "snipers", "medics", "--points-matched", "--config", "small.toml", "--trials", "5000"];
    let args: Vec<&str> = args.into_iter().chain(["--json"]).collect();
    let single = stdout(pw(dir.path()).args(&args));
    assert_eq!(shard_and_merge(dir.path(), &args, 4), single);
}

/// Every file under `a` is byte for byte the file of the same path under `b`, and `b` has no
/// other file: report.md, summary.json, every CSV, Parquet, PNG and SVG. The result cache
/// (`.cache/`, `crate::cache`) is not an output: its entries differ with what each run computed.
fn assert_same_files(a: &Path, b: &Path) {
    fn files(root: &Path, dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for e in fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.file_name().is_some_and(|n| n == ".cache") {
                continue;
            }
            if p.is_dir() {
                files(root, &p, out);
            } else {
                out.push(p.strip_prefix(root).unwrap().to_path_buf());
            }
        }
    }
    let (mut fa, mut fb) = (Vec::new(), Vec::new());
    files(a, a, &mut fa);
    files(b, b, &mut fb);
    fa.sort();
    fb.sort();
    assert_eq!(fa, fb, "the two runs wrote different files");
    assert!(fa.iter().any(|f| f.ends_with("summary.json")) && fa.iter().any(|f| f.ends_with("report.md")));
    for f in &fa {
        assert!(fs::read(a.join(f)).unwrap() == fs::read(b.join(f)).unwrap(), "{} differs", f.display());
    }
}

/// `report` run once and as shards 1/2 + 2/2 merged writes the same files, byte for byte.
fn report_shards_merge_to_one_run(dir: &Path, base: &[&str]) {
    pw(dir).args(base).args(["--out", "single"]).assert().success();
    let sharded: Vec<&str> = base.iter().copied().chain(["--out", "sharded"]).collect();
    shard_and_merge(dir, &sharded, 2);
    assert_same_files(&dir.join("single"), &dir.join("sharded"));
}

// One report per ruleset at a test precision: `--trials` fixes the duel plans, and every
// `report_trials`-like key is set small so that the fair costs, the skirmishes and the studies
// (run in full by the one run and the merge; no shard runs them) cost little. What remains in
// each run is the exact 1v1 solutions (not sharded either): rulesets whose exact solver is slow
// over the full cost list run a config cut to a few units. Each test plays the report four times
// (one run, two shards, the merge) in under 10 s.

#[test]
fn merged_report_shards_write_the_same_files_gng() {
    let dir = setup();
    let sets = ["balance.report_trials=100", "skirmish.report_trials=40"];
    report_shards_merge_to_one_run(dir.path(), &report_args("gng", Some("small.toml"), &sets));
}

/// `report RULESET --trials 200` with `--set` for each of `sets`.
fn report_args<'a>(ruleset: &'a str, config: Option<&'a str>, sets: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["report", ruleset, "--trials", "200"];
    if let Some(c) = config {
        args.extend(["--config", c]);
    }
    for s in sets {
        args.extend(["--set", s]);
    }
    args
}

/// Keeps optimal play on (two units, three pairs): the section is exact and written on the
/// merge, so the merged files must match the single run's.
#[test]
fn merged_report_shards_write_the_same_files_army_men_combat() {
    let dir = common::repo_dir();
    common::trimmed_config(dir.path(), "army-men-combat.toml", &["Riflemen (5)", "Gunners (1)"], &[]);
    let sets = [
        "balance.report_trials=100",
        "skirmish.report_trials=40",
        "skirmish.rollout_games=10",
        "skirmish.rollout_playouts=4",
        "upgrades.trials=40",
        "upgrades.fair_trials=40",
        "duel.sweep_distances=[24]",
    ];
    report_shards_merge_to_one_run(dir.path(), &report_args("army-men-combat", Some("army-men-combat.toml"), &sets));
}

/// The Grunt Factor's exact 1v1 solver is slow for squads of five models (about 40 s a run for
/// the nine shipped squads in the test profile): the test config keeps three squads of three.
/// Optimal play, 90% of a run's time even here (about 5 s of 5.5), is left to the Army Men
/// Combat run above: the section is written by the same code for every ruleset.
#[test]
fn merged_report_shards_write_the_same_files_grunt_factor() {
    let dir = common::repo_dir();
    let keep = ["Green Rifles", "Regular Rifles", "Regular SMGs"];
    common::trimmed_config(dir.path(), "grunt-factor.toml", &keep, &[("soldiers = 4", "soldiers = 2")]);
    let sets = [
        "balance.report_trials=100",
        "skirmish.report_trials=40",
        "skirmish.rollout_games=10",
        "skirmish.rollout_playouts=4",
        "duel.optimal_play=false",
    ];
    report_shards_merge_to_one_run(dir.path(), &report_args("grunt-factor", Some("grunt-factor.toml"), &sets));
}

/// Gunplay's win rate by distance solves each pair at 16 distances on three grounds: the
/// test config keeps two of the three loadouts (one pair).
#[test]
fn merged_report_shards_write_the_same_files_gunplay() {
    let dir = common::repo_dir();
    common::trimmed_config(dir.path(), "gunplay.toml", &["Rifle", "Shotgun"], &[]);
    // Optimal play (a minute per pair here) is left to the Army Men Combat run above.
    let sets = [
        "balance.report_trials=100",
        "skirmish.report_trials=40",
        "duel.sweep_distances=[24]",
        "duel.optimal_play=false",
    ];
    report_shards_merge_to_one_run(dir.path(), &report_args("gunplay", Some("gunplay.toml"), &sets));
}

/// VSGMR's attribute prices are a search (each price depends on the last): the merge runs them
/// in full, like the fair costs (about 40 attributes, whatever the cost list, at 100 trials per
/// price here). Squads of 3 points and price studies of 2 (the
/// config says 12 for both).
#[test]
fn merged_report_shards_write_the_same_files_vsgmr() {
    let dir = common::repo_dir();
    let keep = ["Troop", "Troop with distance attack", "Troop with automatic fire"];
    common::trimmed_config(dir.path(), "vsgmr.toml", &keep, &[]);
    let sets = [
        "duel.budget=3",
        "prices.budget=2",
        "balance.report_trials=100",
        "prices.report_trials=100",
        "skirmish.round_robin_trials=4",
        "skirmish.random_trials=20",
        "skirmish.report_trials=40",
        "skirmish.rollout_games=10",
        "skirmish.rollout_playouts=4",
        "duel.optimal_play=false",
        // The squads' tactic game is played by the merge, in full: 3 pairs, 200 duels a cell.
        "duel.tactic_trials=200",
    ];
    report_shards_merge_to_one_run(dir.path(), &report_args("vsgmr", Some("vsgmr.toml"), &sets));
}

/// What `merge` and `--shard` refuse, each with exit code 2 and a message naming the problem:
/// a shard given twice, shards of different command lines, a tally file of another version,
/// and `--shard` on the commands that run on one machine.
#[test]
fn merge_refuses_duplicates_mixed_runs_and_other_versions() {
    let dir = setup();
    let d = dir.path();
    let args = ["duel", "gng", "snipers", "medics", "--config", "small.toml", "--trials", "600", "--json"];
    pw(d).args(args).args(["--shard", "1/2", "--tallies-out", "t1.json"]).assert().success();
    pw(d).args(args).args(["--shard", "2/2", "--tallies-out", "t2.json"]).assert().success();
    let refused = |files: &[&str], message: &str| {
        pw(d).arg("merge").args(files).assert().code(2).stderr(predicates::str::contains(message.to_string()));
    };
    refused(&["t1.json", "t1.json"], "shard 1/2 is given twice");
    // The same shard of another command line (another seed).
    pw(d).args(args).args(["--seed", "8", "--shard", "2/2", "--tallies-out", "t2-seed8.json"]).assert().success();
    refused(&["t1.json", "t2-seed8.json"], "come from different runs");
    // Written by another version of pointsworth.
    let text = fs::read_to_string(d.join("t2.json")).unwrap();
    let version = format!("\"pointsworth_version\":\"{}\"", env!("CARGO_PKG_VERSION"));
    assert!(text.contains(&version), "tally file layout changed");
    fs::write(d.join("t2-old.json"), text.replace(&version, "\"pointsworth_version\":\"0.0.1\"")).unwrap();
    refused(&["t1.json", "t2-old.json"], "written by pointsworth 0.0.1");
    // And the right two still merge.
    pw(d).args(["merge", "t1.json", "t2.json"]).assert().success();
    // Skirmish and fair-costs run on one machine.
    for cmd in [&["skirmish", "gng"][..], &["fair-costs", "gng", "--config", "small.toml"][..]] {
        pw(d)
            .args(cmd)
            .args(["--trials", "100", "--shard", "1/2", "--tallies-out", "t.json"])
            .assert()
            .code(2)
            .stderr(predicates::str::contains("--shard works with report, duel and matrix"));
    }
    assert!(!d.join("t.json").exists(), "a refused shard writes no tally file");
}

#[test]
fn sharding_needs_a_fixed_plan_and_every_shard() {
    let dir = setup();
    pw(dir.path())
        .args(["matrix", "gng", "--config", "small.toml", "--shard", "1/2", "--tallies-out", "t.json"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--trials"));
    let args = ["duel", "gng", "snipers", "medics", "--config", "small.toml", "--trials", "600", "--json"];
    pw(dir.path()).args(args).args(["--shard", "1/2", "--tallies-out", "t1.json"]).assert().success();
    pw(dir.path()).args(["merge", "t1.json"]).assert().code(2).stderr(predicates::str::contains("missing shards: 2/2"));
    // A config edited between the shards and the merge is refused.
    pw(dir.path()).args(args).args(["--shard", "2/2", "--tallies-out", "t2.json"]).assert().success();
    let cfg = dir.path().join("small.toml");
    let text = fs::read_to_string(&cfg).unwrap();
    fs::write(&cfg, text.replace("cost = 35\n", "cost = 40\n")).unwrap();
    pw(dir.path())
        .args(["merge", "t1.json", "t2.json"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("changed since the shards ran"));
}
