//! What the commands print (issue 45 items 3, 4, 6, 8): `--json` from every command that
//! prints a result, tables that fit the terminal, `report`/`matrix --baseline`, progress lines
//! when stderr is not a terminal, shell completions and the man page.

use std::path::Path;

use assert_cmd::Command;

use crate::common;

fn pw(dir: &Path) -> Command {
    let mut c = Command::cargo_bin("pointsworth").unwrap();
    c.current_dir(dir).env_remove("COLUMNS");
    c
}

/// A directory with a two-unit GnG config `small.toml` (and, with `init`, a rules repository).
fn small_dir(init: bool) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    if init {
        pw(dir.path()).args(["init", "guns-n-grenades"]).assert().success();
    }
    let (header, blocks) = common::small_gng_config(&["Riflemen", "Heavy Infantry"], "[]");
    std::fs::write(dir.path().join("small.toml"), format!("{header}\n{}", blocks.join("\n"))).unwrap();
    dir
}

fn stdout_of(c: &mut Command) -> String {
    let out = c.output().unwrap();
    assert!(out.status.success(), "{c:?} failed:\n{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn every_command_that_prints_a_result_prints_json_that_parses() {
    let dir = small_dir(true);
    let quick = ["--set", "duel.optimal_play=false", "--set", "skirmish.report_trials=50"];
    let runs: Vec<Vec<&str>> = vec![
        vec!["rules", "gng", "--json"],
        vec!["check", "--json"],
        [&["report", "gng", "--config", "small.toml", "--trials", "100", "--out", "out", "--json"][..], &quick]
            .concat(),
        vec!["duel", "gng", "riflemen", "snipers", "--trials", "500", "--json"],
        vec!["matrix", "gng", "--config", "small.toml", "--trials", "100", "--json"],
        vec!["skirmish", "gng", "--trials", "10", "--json"],
        vec!["fair-costs", "gng", "--config", "small.toml", "--trials", "100", "--json"],
    ];
    for args in runs {
        let text = stdout_of(pw(dir.path()).args(&args));
        let v: serde_json::Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}):\n{text}"));
        match args[0] {
            "rules" => assert!(v["coverage"].as_array().is_some_and(|c| !c.is_empty()), "{v}"),
            "check" => {
                assert_eq!(v["regression"], false, "{v}");
                assert_eq!(v["rulesets"][0]["balance"], "unchanged", "{v}");
            }
            "report" => {
                assert_eq!(v["rulesets"][0]["summary"]["ruleset"], "guns-n-grenades", "{v}");
                assert!(dir.path().join("out/guns-n-grenades/summary.json").exists());
            }
            _ => assert!(v.is_object(), "{v}"),
        }
    }
}

#[test]
fn rules_fit_a_100_column_terminal_and_wide_or_piped_output_is_full_width() {
    let dir = tempfile::tempdir().unwrap();
    let widest = |text: &str| text.lines().map(|l| l.chars().count()).max().unwrap_or(0);
    let fitted = stdout_of(pw(dir.path()).args(["rules", "gng"]).env("COLUMNS", "100"));
    assert!(widest(&fitted) <= 100, "a line of {} characters:\n{fitted}", widest(&fitted));
    assert!(fitted.contains("Fast Shot"), "{fitted}");
    // Piped without COLUMNS, or with --wide: today's full-width table.
    let piped = stdout_of(pw(dir.path()).args(["rules", "gng"]));
    assert!(widest(&piped) > 100, "{}", widest(&piped));
    let wide = stdout_of(pw(dir.path()).args(["rules", "gng", "--wide"]).env("COLUMNS", "100"));
    assert_eq!(wide, piped);
}

#[test]
fn report_and_matrix_with_a_baseline_print_before_and_after() {
    let dir = small_dir(true);
    // Riflemen at 24 points instead of 15: their efficiency falls toward 50%.
    let text = stdout_of(pw(dir.path()).args([
        "matrix",
        "gng",
        "--trials",
        "3000",
        "--set",
        "unit.riflemen.cost=24",
        "--baseline",
        "reports",
    ]));
    let at = text.find("against the baseline").unwrap_or_else(|| panic!("{text}"));
    let part = &text[at..];
    let row = part
        .lines()
        .find(|l| l.contains("points efficiency") && l.contains("Riflemen"))
        .unwrap_or_else(|| panic!("{part}"));
    assert!(row.contains('→') && row.contains("toward 50%"), "{row}");
    // Unchanged config: the report says so.
    let quick = ["--set", "duel.optimal_play=false", "--set", "skirmish.report_trials=50"];
    let text = stdout_of(
        pw(dir.path())
            .args([
                "report",
                "gng",
                "--config",
                "small.toml",
                "--trials",
                "100",
                "--out",
                "out",
                "--baseline",
                "reports",
            ])
            .args(quick),
    );
    assert!(text.contains("against the baseline reports/guns-n-grenades/summary.json"), "{text}");
    // A missing baseline is an input error before any work.
    pw(dir.path())
        .args(["matrix", "gng", "--baseline", "nowhere"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("nowhere/guns-n-grenades/summary.json"));
}

/// The count `done/total` of a plain progress line, if it has one.
fn count(line: &str) -> Option<(u64, u64)> {
    line.split_whitespace().find_map(|w| {
        let w = w.trim_end_matches(',');
        let (a, b) = w.split_once('/')?;
        let n = |s: &str| s.replace(',', "").parse::<u64>().ok();
        Some((n(a)?, n(b)?))
    })
}

#[test]
fn piped_progress_names_each_phase_and_no_total_moves_within_one() {
    let dir = small_dir(false);
    let out = pw(dir.path())
        .args(["report", "gng", "--config", "small.toml", "--trials", "300", "--out", "out"])
        .args(["--set", "skirmish.report_trials=50"])
        .env("POINTSWORTH_PROGRESS_SECONDS", "0.05")
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    let sections = pointsworth::commands::report::SECTIONS;
    let mut last_phase = 0;
    for (k, name) in sections.iter().enumerate() {
        let label = format!("phase {} of {}: {name}", k + 1, sections.len());
        let lines: Vec<&str> = err.lines().filter(|l| l.contains(&label)).collect();
        let done = lines.last().unwrap_or_else(|| panic!("no line for {label}:\n{err}"));
        assert!(done.starts_with("pointsworth report guns-n-grenades: ") && done.ends_with("done"), "{done}");
        // Lines come in phase order.
        let at = err.find(done).unwrap();
        assert!(at >= last_phase, "{label} out of order:\n{err}");
        last_phase = at;
        // Within a counted phase the total is known from its first line and never changes.
        let totals: Vec<u64> = lines.iter().filter_map(|l| count(l)).map(|c| c.1).collect();
        assert!(totals.windows(2).all(|w| w[0] == w[1]), "{label}: totals {totals:?}\n{err}");
        for l in &lines {
            if let Some((pos, total)) = count(l) {
                assert!(pos <= total, "{l}");
            }
        }
    }
    // The duel matrices count every matchup before the first is played.
    let first = err.lines().find(|l| l.contains("phase 1 of")).unwrap();
    assert!(count(first).is_some_and(|(_, t)| t > 0), "{first}");
}

#[test]
fn completions_and_man_pages_list_every_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    let help = stdout_of(pw(dir.path()).arg("--help"));
    let subs: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter(|l| !l.starts_with("   ")) // a wrapped description's next line
        .filter_map(|l| l.split_whitespace().next())
        .filter(|s| *s != "help")
        .collect();
    assert!(subs.contains(&"completions") && subs.contains(&"man"), "{subs:?}");
    let bash = stdout_of(pw(dir.path()).args(["completions", "bash"]));
    let man = stdout_of(pw(dir.path()).arg("man"));
    assert!(man.starts_with(".ie") || man.contains(".TH pointsworth"), "{}", &man[..200.min(man.len())]);
    for sub in &subs {
        assert!(bash.contains(sub), "bash completions lack {sub}");
        // roff writes a hyphen as `\-`.
        assert!(man.contains(&sub.replace('-', "\\-")), "man page lacks {sub}");
    }
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        assert!(stdout_of(pw(dir.path()).args(["completions", shell])).contains("report"), "{shell}");
    }
    let written = stdout_of(pw(dir.path()).args(["man", "--out", "man"]));
    for sub in &subs {
        let page = std::fs::read_to_string(dir.path().join(format!("man/pointsworth-{sub}.1"))).unwrap();
        assert!(page.contains(".TH"), "{sub}: {page}");
    }
    assert!(written.contains("pointsworth.1"), "{written}");
    pw(dir.path()).args(["completions", "tcsh"]).assert().code(2);
}
