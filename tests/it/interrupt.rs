//! Ctrl-C (SIGINT) during a command: the process stops within a second or two with exit code
//! 130 and one line on stderr, files already in the output directory are unchanged, and no
//! temporary file is left (issue 17, item 7). Unix only: the signal is sent with `kill -INT`.
#![cfg(unix)]

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn start(dir: &Path, args: &[&str]) -> Child {
    Command::new(assert_cmd::cargo::cargo_bin("pointsworth"))
        .current_dir(dir)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn sigint(child: &Child) {
    let ok = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap().success();
    assert!(ok, "kill -INT failed");
}

/// Waits at most `limit` for the child; returns its exit code, stderr and the time it took.
fn wait(mut child: Child, limit: Duration) -> (Option<i32>, String, Duration) {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
            return (status.code(), err, start.elapsed());
        }
        if start.elapsed() > limit {
            child.kill().unwrap();
            panic!("still running {limit:?} after Ctrl-C");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn temporaries(dir: &Path) -> Vec<PathBuf> {
    common::snapshot(dir).into_iter().map(|(p, _)| p).filter(|p| p.to_string_lossy().contains("-tmp-")).collect()
}

/// Sends Ctrl-C after `after` and checks the stop: code 130 within 2 s, one line naming it.
fn interrupt(dir: &Path, args: &[&str], after: Duration) {
    let child = start(dir, args);
    std::thread::sleep(after);
    sigint(&child);
    let (code, err, took) = wait(child, Duration::from_secs(5));
    assert_eq!(code, Some(130), "{args:?}: {err}");
    assert!(took < Duration::from_secs(2), "{args:?} took {took:?} to stop");
    assert_eq!(
        err.trim_end().lines().last(),
        Some("interrupted (Ctrl-C): stopped; no file was left half written"),
        "{err}"
    );
}

#[test]
fn ctrl_c_during_a_report_stops_at_once_and_keeps_the_previous_files() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("reports/guns-n-grenades");
    fs::create_dir_all(&out).unwrap();
    fs::write(out.join("report.md"), "# The previous report\n").unwrap();
    fs::write(out.join("summary.json"), "{\"previous\": true}\n").unwrap();
    let before = common::snapshot(dir.path());
    // The shipped config: minutes of work, stopped after a third of a second of it.
    let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/guns-n-grenades.toml");
    let config = config.to_str().unwrap();
    interrupt(
        dir.path(),
        &["report", "guns-n-grenades", "--config", config, "--out", "reports"],
        Duration::from_millis(300),
    );
    // The result cache (reports/.cache) keeps the matchups finished before the stop, so a
    // re-run resumes: it is the only thing added, and it holds no temporary file.
    let cache = out.parent().unwrap().join(".cache");
    let after: Vec<_> = common::snapshot(dir.path()).into_iter().filter(|(p, _)| !p.starts_with(&cache)).collect();
    assert_eq!(after, before, "the output directory is as it was, the result cache apart");
    let partial: Vec<_> = common::snapshot(dir.path())
        .into_iter()
        .map(|(p, _)| p)
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with(".tmp-")))
        .collect();
    assert!(partial.is_empty(), "temporary files left: {partial:?}");
}

#[test]
fn ctrl_c_stops_a_long_duel_and_a_long_skirmish() {
    let dir = tempfile::tempdir().unwrap();
    let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/guns-n-grenades.toml");
    let config = config.to_str().unwrap();
    let duel = [
        "duel",
        "guns-n-grenades",
        "Riflemen",
        "Snipers",
        "--config",
        config,
        "--points-matched",
        "--trials",
        "100000000",
    ];
    interrupt(dir.path(), &duel, Duration::from_millis(150));
    let skirmish = ["skirmish", "guns-n-grenades", "--config", config, "--trials", "10000000"];
    interrupt(dir.path(), &skirmish, Duration::from_millis(150));
}

/// Ctrl-C while a report writes its files (the signal goes out as soon as the first new file
/// appears): every file is the old one or a complete new one, and no temporary file is left.
#[test]
fn ctrl_c_while_files_are_written_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let (header, blocks) = common::small_gng_config(&["Riflemen", "Snipers", "Scouts"], "[]");
    fs::write(dir.path().join("small.toml"), format!("{header}\n{}", blocks.join("\n"))).unwrap();
    let out = dir.path().join("reports/guns-n-grenades");
    fs::create_dir_all(&out).unwrap();
    fs::write(out.join("report.md"), "# The previous report\n").unwrap();
    let child = start(
        dir.path(),
        &["report", "guns-n-grenades", "--config", "small.toml", "--out", "reports", "--trials", "2000"],
    );
    let start = Instant::now();
    while fs::read_dir(&out).unwrap().count() < 2 {
        assert!(start.elapsed() < Duration::from_secs(120), "the report wrote nothing");
        std::thread::sleep(Duration::from_millis(2));
    }
    sigint(&child);
    let (code, err, took) = wait(child, Duration::from_secs(5));
    eprintln!("stopped with {code:?} after {took:?}");
    // It may just have finished; if it was stopped, it was stopped cleanly.
    assert!(code == Some(130) || code == Some(0), "{err}");
    assert!(took < Duration::from_secs(2), "took {took:?} to stop");
    assert_eq!(temporaries(dir.path()), Vec::<PathBuf>::new());
    if code == Some(130) {
        assert_eq!(
            fs::read_to_string(out.join("report.md")).unwrap(),
            "# The previous report\n",
            "report.md comes last"
        );
    }
}
