//! `--shard K/N` + `pointsworth merge`: N shards of a seed merged give exactly the
//! single-machine result (byte-identical JSON), for every simulating command.

mod common;

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

#[test]
fn merged_report_shards_write_the_same_summary() {
    let dir = setup();
    let base = ["report", "gng", "--config", "small.toml", "--trials", "1500"];
    pw(dir.path()).args(base).args(["--out", "single"]).assert().success();
    let sharded: Vec<&str> = base.into_iter().chain(["--out", "sharded"]).collect();
    shard_and_merge(dir.path(), &sharded, 2);
    for file in ["summary.json", "efficiency.csv", "matrix_points.csv", "efficiency_by_distance.csv"] {
        let a = fs::read(dir.path().join("single/guns-n-grenades").join(file)).unwrap();
        let b = fs::read(dir.path().join("sharded/guns-n-grenades").join(file)).unwrap();
        assert!(a == b, "{file} differs");
    }
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
