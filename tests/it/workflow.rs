//! The designer's workflow from outside this repository (issue 45): the built-in configs
//! from an empty directory.

use std::path::Path;

use assert_cmd::Command;

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
