//! Help text is true (issue 45 item 5): every flag a subcommand's `--help` lists is run once
//! there, with a cheap valid value, and must neither be an unexpected argument nor refused.
//!
//! Everything runs in a rules repository made by `pointsworth init guns-n-grenades` (so
//! `check` has a baseline), with a two-unit copy of the config for the commands whose every
//! pair would otherwise cost seconds or minutes (`matrix --optimal`, `fair-costs`, `check --update`,
//! `rules --sensitivity`).

use std::path::Path;

use assert_cmd::Command;

use crate::common;

fn pw(dir: &Path) -> Command {
    let mut c = Command::cargo_bin("pointsworth").unwrap();
    c.current_dir(dir);
    c
}

/// The long flags a `--help` text lists (the first `--flag` of each option line), each once. An
/// option line is indented at most 6 spaces; a description wrapped onto a line of its own that
/// starts with a flag's name (`--distance`) is indented deeper and is not one.
fn listed_flags(help: &str) -> Vec<String> {
    let mut flags: Vec<String> = help
        .lines()
        .filter(|l| l.len() - l.trim_start().len() <= 6)
        .map(str::trim_start)
        .filter(|l| l.starts_with('-'))
        .filter_map(|l| l.split(|c: char| c == ' ' || c == ',' || c == '=').find(|w| w.starts_with("--")))
        .map(String::from)
        .collect();
    let mut seen = std::collections::HashSet::new();
    flags.retain(|f| seen.insert(f.clone()));
    flags
}

/// A cheap base command line for `sub`, to which one flag is added.
fn base(sub: &str) -> Vec<&'static str> {
    let quick = ["--set", "duel.optimal_play=false", "--set", "skirmish.report_trials=50"];
    match sub {
        "report" => {
            [&["report", "guns-n-grenades", "--config", "small.toml", "--trials", "100", "--out", "out"][..], &quick]
                .concat()
        }
        // One each leads with the optimal-play game (four solves): the walk is about the flags.
        "duel" => vec![
            "duel",
            "guns-n-grenades",
            "riflemen",
            "heavy-infantry",
            "--trials",
            "100",
            "--set",
            "duel.optimal_play=false",
        ],
        "matrix" => vec!["matrix", "guns-n-grenades", "--config", "small.toml", "--trials", "100"],
        // The two-unit copy: `--sensitivity` plays every reading of every pair.
        "rules" => vec!["rules", "guns-n-grenades", "--config", "small.toml"],
        "check" => vec!["check", "guns-n-grenades"],
        "skirmish" => vec!["skirmish", "guns-n-grenades", "--trials", "10"],
        "fair-costs" => vec!["fair-costs", "guns-n-grenades", "--config", "small.toml", "--trials", "100"],
        "init" => vec!["init", "guns-n-grenades"],
        "merge" => vec!["merge", "tallies.json"],
        "completions" => vec!["completions", "bash"],
        "man" => vec!["man"],
        other => panic!("no base command for {other}: add one"),
    }
}

/// The flag with a cheap valid value (and any flag it needs) for `sub`.
fn with_value(sub: &str, flag: &str) -> Vec<String> {
    let tactic = pointsworth::rulesets::skirmish_tactics()[0].1[0].name;
    let mission = pointsworth::rulesets::skirmish_missions()[0].1[0].name;
    let v: Vec<&str> = match (sub, flag) {
        (_, "--help" | "--version") => return Vec::new(), // printed, not run
        ("report" | "matrix" | "fair-costs" | "rules", "--config") => vec!["small.toml"],
        ("check", "--config") => vec!["configs/guns-n-grenades.toml"],
        (_, "--config") => vec!["configs/guns-n-grenades.toml"],
        ("check", "--set") => vec!["unit.riflemen.cost=15"],
        (_, "--set") => vec!["duel.distance=10"],
        (_, "--seed") => vec!["7"],
        (_, "--trials") => vec!["50"],
        (_, "--target-error") => vec!["0.2"],
        (_, "--shard") => vec!["1/2", "--tallies-out", "shard.json"],
        (_, "--tallies-out") => vec!["shard.json", "--shard", "1/2"],
        (_, "--out") => vec!["out"],
        ("init", "--threads") => vec!["1", "--dir", "threads"],
        ("init", "--wide") => vec!["--dir", "wide"],
        ("init", "--no-cache") => vec!["--dir", "no-cache"],
        (_, "--threads") => vec!["1"],
        ("duel", "--distance") => vec!["6"],
        ("matrix", "--distance") => vec!["6", "--optimal"],
        ("duel", "--exact") => vec!["--distance", "8"],
        // The portfolio's 36 cells and 12 best responses a pair: three rounds in the test profile.
        ("duel" | "matrix", "--portfolio") => vec!["--optimal", "--set", "duel.max_rounds=3"],
        ("duel", "--tactic") => vec!["a=keep-out", "--optimal", "--portfolio", "--set", "duel.max_rounds=3"],
        (_, "--baseline") => vec!["reports"],
        ("check", "--tolerance") => vec!["3"],
        ("check", "--markdown") => vec!["check.md"],
        ("check", "--html") => vec!["check.html"],
        ("check", "--update") => vec!["--config", "small.toml", "--baseline", "updated"],
        ("skirmish", "--armies") => vec!["random"],
        ("skirmish", "--tactic") => vec![tactic],
        ("skirmish", "--mission") => vec![mission],
        ("skirmish", "--replay") => vec!["replay.svg"],
        (_, "--rollout") => vec!["4", "--rollouts", "2"],
        (_, "--rollouts") => vec!["2", "--rollout", "4"],
        ("fair-costs", "--write") => vec!["balanced.toml"],
        ("init", "--dir") => vec!["other"],
        // Switches.
        _ => vec![],
    };
    std::iter::once(flag.to_string()).chain(v.into_iter().map(String::from)).collect()
}

/// An `init` into a new directory (`--dir X`) writes a fresh baseline report, the same as the
/// first `init`'s except where the flag is `--no-cache`: X/reports starts with a copy of the
/// first report's result cache, so the flag is run for what it is, not for a second report.
fn seed_cache(root: &Path, extra: &[String]) {
    let Some(at) = extra.iter().position(|a| a == "--dir") else { return };
    if extra.iter().any(|a| a == "--no-cache") {
        return;
    }
    let (from, to) = (root.join("reports/.cache"), root.join(&extra[at + 1]).join("reports/.cache"));
    std::fs::create_dir_all(&to).unwrap();
    for e in std::fs::read_dir(&from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

#[test]
fn every_flag_a_help_lists_works_there() {
    let dir = tempfile::tempdir().unwrap();
    pw(dir.path()).args(["init", "guns-n-grenades", "--threads", "2"]).assert().success();
    let (header, blocks) = common::small_gng_config(&["Riflemen", "Heavy Infantry"], "[]");
    std::fs::write(dir.path().join("small.toml"), format!("{header}\n{}", blocks.join("\n"))).unwrap();
    std::fs::write(dir.path().join("one.toml"), format!("{header}\n{}", blocks[0])).unwrap();
    pw(dir.path())
        .args(["duel", "guns-n-grenades", "riflemen", "snipers", "--trials", "64", "--shard", "1/1"])
        .args(["--tallies-out", "tallies.json"])
        .assert()
        .success();
    let top = String::from_utf8(pw(dir.path()).arg("--help").output().unwrap().stdout).unwrap();
    let subs: Vec<String> = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter(|l| !l.starts_with("   ")) // a wrapped description's next line
        .filter_map(|l| l.split_whitespace().next().map(String::from))
        .filter(|s| s != "help")
        .collect();
    assert!(subs.len() >= 9, "{subs:?}");
    let mut ran = 0;
    for sub in &subs {
        let help = String::from_utf8(pw(dir.path()).args([sub.as_str(), "--help"]).output().unwrap().stdout).unwrap();
        assert!(!help.contains(&format!("pointsworth {sub} --help")), "{sub} --help points to itself:\n{help}");
        for flag in listed_flags(&help) {
            let extra = with_value(sub, &flag);
            if extra.is_empty() {
                continue;
            }
            // The flag replaces the base command's own occurrence (every one takes a value).
            let mut args = base(sub);
            if let Some(i) = args.iter().position(|a| *a == flag) {
                args.drain(i..i + 2);
            }
            // Optimal play and exact duels solve, they do not sample: they take no trial count.
            if matches!(
                (sub.as_str(), flag.as_str()),
                ("matrix", "--optimal" | "--distance" | "--portfolio")
                    | ("duel", "--exact" | "--optimal" | "--portfolio" | "--tactic")
            ) {
                let i = args.iter().position(|a| *a == "--trials").unwrap();
                args.drain(i..i + 2);
                // One unit: the Guns 'N Grenades game costs seconds a pair in the test profile.
                args.iter_mut().filter(|a| **a == "small.toml").for_each(|a| *a = "one.toml");
            }
            // A duel's rollout is built for VSGMR, beside its optimal play (three rounds).
            if sub == "duel" && flag.starts_with("--rollout") {
                args = vec![
                    "duel",
                    "vsgmr",
                    "troop",
                    "hero-with-distance-attack",
                    "--optimal",
                    "--set",
                    "duel.max_rounds=3",
                ];
            }
            if sub == "init" {
                seed_cache(dir.path(), &extra);
            }
            let out = pw(dir.path()).args(&args).args(&extra).output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                out.status.success(),
                "`pointsworth {} {}` failed ({}):\n{err}",
                args.join(" "),
                extra.join(" "),
                out.status
            );
            ran += 1;
        }
    }
    assert!(ran >= 40, "only {ran} flags run");
}
