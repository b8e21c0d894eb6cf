//! Seconds of `pointsworth report RULESET` on each shipped config (release build, all cores,
//! the config's own precision): the figure behind issue 18's "full report in a minute" goal;
//! and of `pointsworth --threads 1 matrix RULESET --optimal` (every 1v1 pair under optimal play
//! at the report distance, one core: issue 15's "≤ 5 s" goal).
//! Each ruleset runs once (a report takes from seconds to minutes; criterion's repeated sampling
//! would take an hour), through the bench profile's binary, into a temporary directory.
//!
//! Then, as the last bench of `cargo bench` (benches run in name order), it prints the
//! benchmark table of docs/performance.md from this run's figures: the criterion results of
//! `benches/duels.rs` and `benches/skirmish.rs` (`TARGET/criterion/**/new/estimates.json`,
//! medians) and the seconds above, each beside its goal (issues 18 and 15), with each ruleset's
//! seconds by section of the report (which the report writes where the environment variable
//! `POINTSWORTH_SECTION_SECONDS` says), and writes it to `TARGET/criterion/bench-table.md`.
//! `cargo bench --bench table -- grunt` times only the rulesets whose id contains `grunt`, and
//! `cargo bench --bench table -- none` none: the other rulesets' seconds are the last ones
//! measured (`TARGET/criterion/report-seconds.json`, `report-sections.json`,
//! `optimal-seconds.json`, `sensitivity-seconds.json` and `warm-seconds.json`).
//! Each report runs with the result cache on, from an empty cache. For Guns 'N Grenades it
//! also times the report again on the warm cache after one unit's cost changes, and unchanged
//! (issue 42's "≤ 10 s with a warm cache"), and `pointsworth rules guns-n-grenades
//! --sensitivity --no-cache` (all cores: issue 43's "under 30 s").
//! `POINTSWORTH_BENCH_OUT=DIR` keeps the reports in `DIR` instead of a temporary directory
//! (and empties `DIR/.cache` first, so that every report starts cold).

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use pointsworth::rulesets::implemented;

fn main() {
    // `cargo bench` passes `--bench` and any filter after `--`.
    let filters: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let chosen: Vec<&str> = implemented()
        .iter()
        .copied()
        .filter(|id| filters.is_empty() || filters.iter().any(|f| id.contains(f.as_str())))
        .collect();
    // POINTSWORTH_BENCH_OUT=DIR keeps the reports (to compare with the committed ones).
    let temp = tempfile::tempdir().expect("a temporary directory");
    let kept = std::env::var_os("POINTSWORTH_BENCH_OUT").map(std::path::PathBuf::from);
    let out = kept.as_deref().unwrap_or(temp.path());
    let mut seconds = BTreeMap::new();
    let mut sections = BTreeMap::new();
    let mut optimal = BTreeMap::new();
    let mut sensitivity = BTreeMap::new();
    let mut warm = BTreeMap::new();
    // Each report runs with the result cache on (`OUT/.cache/`), from an empty one: a cold run.
    let _ = std::fs::remove_dir_all(out.join(".cache"));
    for id in chosen {
        // The report writes its sections' seconds here (`pointsworth::commands::report::SECTIONS`).
        let section_file = temp.path().join(format!("{id}-sections.json"));
        let s = seconds_of(
            Command::new(env!("CARGO_BIN_EXE_pointsworth"))
                .env("POINTSWORTH_SECTION_SECONDS", &section_file)
                .args(["report", id, "--out"])
                .arg(out),
        );
        println!("report/{id:<16} {s:8.1} s");
        seconds.insert(id.to_string(), s);
        // Issue 42 item 4, the designer's edit–run loop: the same report on the warm cache
        // after one unit's cost changes (the Riflemen, 15 points in the shipped config, at 16),
        // then as it was (which also puts the report back as the cold run wrote it).
        if id == "guns-n-grenades" {
            let report = |extra: &[&str]| {
                seconds_of(
                    Command::new(env!("CARGO_BIN_EXE_pointsworth")).args(["report", id, "--out"]).arg(out).args(extra),
                )
            };
            let changed = report(&["--set", "unit.riflemen.cost=16"]);
            let same = report(&[]);
            println!("warm/{id:<18} {changed:8.1} s after a cost change, {same:.1} s unchanged");
            warm.insert(id.to_string(), [changed, same]);
        }
        let read: BTreeMap<String, BTreeMap<String, f64>> =
            serde_json::from_slice(&std::fs::read(&section_file).expect("the report wrote its sections' seconds"))
                .expect("sections' seconds as JSON");
        sections.extend(read);
        // Issue 15 item 6: the optimal-play 1v1 matrix (every pair of the cost list at the
        // report distance, `matrix --optimal`) on one core.
        let s = seconds_of(Command::new(env!("CARGO_BIN_EXE_pointsworth")).args([
            "--threads",
            "1",
            "matrix",
            id,
            "--optimal",
        ]));
        println!("optimal/{id:<15} {s:8.1} s");
        optimal.insert(id.to_string(), s);
        // Issue 43: "Which readings decide the verdicts" for one ruleset, all cores.
        if id == "guns-n-grenades" {
            // Cold: not from a `reports/.cache/` of this checkout.
            let s = seconds_of(Command::new(env!("CARGO_BIN_EXE_pointsworth")).args([
                "rules",
                id,
                "--sensitivity",
                "--no-cache",
            ]));
            println!("sensitivity/{id:<11} {s:8.1} s");
            sensitivity.insert(id.to_string(), s);
        }
    }
    let target =
        std::env::var("CARGO_TARGET_DIR").unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/target").into());
    let criterion = Path::new(&target).join("criterion");
    std::fs::create_dir_all(&criterion).expect("target/criterion");
    // The seconds of earlier runs stand for the rulesets not timed now.
    let all = merged(&criterion.join("report-seconds.json"), seconds);
    let all_sections = merged(&criterion.join("report-sections.json"), sections);
    let all_optimal = merged(&criterion.join("optimal-seconds.json"), optimal);
    let all_sensitivity = merged(&criterion.join("sensitivity-seconds.json"), sensitivity);
    let all_warm = merged(&criterion.join("warm-seconds.json"), warm);
    let total: f64 = all.values().sum();
    println!("report/{:<16} {total:8.1} s", "total");
    let stored = Stored {
        seconds: &all,
        sections: &all_sections,
        optimal: &all_optimal,
        sensitivity: &all_sensitivity,
        warm: &all_warm,
    };
    let table = table(&criterion_medians(&criterion), &stored, total);
    println!("\n{table}");
    std::fs::write(criterion.join("bench-table.md"), &table).expect("bench-table.md");
}

/// The figures stored at `path` (JSON, by ruleset id; none if absent or unreadable) updated
/// with `new`, and written back. Panics if it cannot write.
fn merged<V: serde::Serialize + serde::de::DeserializeOwned>(
    path: &Path,
    new: BTreeMap<String, V>,
) -> BTreeMap<String, V> {
    let mut all: BTreeMap<String, V> =
        std::fs::read(path).ok().and_then(|b| serde_json::from_slice(&b).ok()).unwrap_or_default();
    all.extend(new);
    std::fs::write(path, serde_json::to_string_pretty(&all).expect("figures as JSON")).expect("the stored figures");
    all
}

/// Wall seconds of `cmd` (the pointsworth binary with its arguments), run from the crate's
/// directory with its output discarded. Panics if it fails.
fn seconds_of(cmd: &mut Command) -> f64 {
    let started = Instant::now();
    let status = cmd
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .expect("the pointsworth binary runs");
    assert!(status.success(), "{cmd:?} failed: {status}");
    started.elapsed().as_secs_f64()
}

/// Each ruleset's report sections' seconds: `ruleset -> section -> seconds`.
type Sections = BTreeMap<String, BTreeMap<String, f64>>;

/// One criterion benchmark's median: `(group, function) -> (seconds per iteration, elements
/// per iteration)`.
type Medians = BTreeMap<(String, String), (f64, f64)>;

/// Every `new/benchmark.json` under `dir` with its `new/estimates.json` median.
fn criterion_medians(dir: &Path) -> Medians {
    let mut out = Medians::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name().is_some_and(|n| n == "benchmark.json") && d.ends_with("new") {
                let read =
                    |f: &Path| -> Option<serde_json::Value> { serde_json::from_slice(&std::fs::read(f).ok()?).ok() };
                let (Some(id), Some(est)) = (read(&p), read(&d.join("estimates.json"))) else { continue };
                let group = id["group_id"].as_str().unwrap_or_default().to_string();
                let function = id["function_id"].as_str().unwrap_or_default().to_string();
                let ns = est["median"]["point_estimate"].as_f64().unwrap_or(f64::NAN);
                let elements = id["throughput"]["Elements"].as_f64().unwrap_or(1.0);
                out.insert((group, function), (ns * 1e-9, elements));
            }
        }
    }
    out
}

/// `x` per second as "24.1 M/s", "6.0 k/s".
fn rate(per_second: f64) -> String {
    if per_second >= 1e6 {
        format!("{:.1} M/s", per_second / 1e6)
    } else if per_second >= 1e3 {
        format!("{:.1} k/s", per_second / 1e3)
    } else {
        format!("{per_second:.0}/s")
    }
}

/// The figures of this run and the stored ones, by ruleset id.
struct Stored<'a> {
    /// Seconds of `report RULESET`, cold.
    seconds: &'a BTreeMap<String, f64>,
    sections: &'a Sections,
    /// Seconds of `matrix --optimal` on one thread.
    optimal: &'a BTreeMap<String, f64>,
    /// Seconds of `rules RULESET --sensitivity`.
    sensitivity: &'a BTreeMap<String, f64>,
    /// Seconds of `report RULESET` on the warm cache: after one unit's cost changes, and unchanged.
    warm: &'a BTreeMap<String, [f64; 2]>,
}

/// The benchmark table of docs/performance.md: each figure, its goal (issues 18, 15, 42 and 43)
/// and whether it is met.
fn table(m: &Medians, stored: &Stored, total: f64) -> String {
    let Stored { seconds, sections, optimal, sensitivity, warm } = *stored;
    let mut rows: Vec<[String; 3]> = Vec::new();
    let per_second = |g: &str, f: &str| m.get(&(g.to_string(), f.to_string())).map(|&(s, n)| n / s);
    let met = |ok: bool| if ok { "met" } else { "not met" };
    for ((group, function), &(s, _)) in m {
        let Some(label) = group.strip_prefix("stand-up duel, 1 thread: ") else { continue };
        if function != "duel" {
            continue;
        }
        let Some(((_, ceiling), &(cs, _))) =
            m.iter().find(|((g, f), _)| g == group && f.starts_with("dice-only ceiling"))
        else {
            continue;
        };
        let ratio = s / cs;
        rows.push([
            format!("stand-up duel, {label}, 1 thread"),
            format!("{} duels ({ceiling}: {}; {ratio:.1}× its time)", rate(1.0 / s), rate(1.0 / cs)),
            format!("≤ 2× the ceiling: {}", met(ratio <= 2.0)),
        ]);
    }
    let engine = "engine: 2M stand-up duels";
    if let (Some(one), Some(two)) = (per_second(engine, "1 thread(s)"), per_second(engine, "2 thread(s)")) {
        rows.push([
            "engine, 2 M stand-up duels, 1 → 2 threads".into(),
            format!("{} → {} duels ({:.2}×)", rate(one), rate(two), two / one),
            "—".into(),
        ]);
    }
    for ((group, function), &(s, n)) in m {
        if group.starts_with("engine: 100k points-matched") {
            rows.push([
                format!("150-point points-matched squads, {function}, 2 threads"),
                format!("{} battles", rate(n / s)),
                "—".into(),
            ]);
        }
    }
    for ((group, function), &(s, n)) in m {
        if group == "skirmish" {
            let goal = if function.starts_with("guns-n-grenades") {
                format!("≥ 20 k/s: {}", met(n / s >= 20e3))
            } else {
                "—".into()
            };
            rows.push([
                format!("skirmish, {function}, 1 thread"),
                format!("{} skirmishes ({:.0} µs each)", rate(n / s), s * 1e6),
                goal,
            ]);
        }
    }
    let all = seconds.len() == implemented().len();
    let parts: Vec<String> = seconds.iter().map(|(id, s)| format!("{id} {s:.0} s")).collect();
    rows.push([
        if all {
            "`pointsworth report`, all five rulesets, 2 threads".into()
        } else {
            "`pointsworth report`, some rulesets".into()
        },
        format!("{total:.0} s ({})", parts.join(", ")),
        if all {
            format!("≤ 60 s (issue 18): {}; ≤ 120 s (issue 15): {}", met(total <= 60.0), met(total <= 120.0))
        } else {
            "—".into()
        },
    ]);
    // Where each ruleset's report spends its time, sections in the order they run.
    for (id, s) in seconds {
        let Some(parts) = sections.get(id) else { continue };
        let parts: Vec<String> = pointsworth::commands::report::SECTIONS
            .iter()
            .filter_map(|&name| parts.get(name).map(|x| format!("{name} {x:.0} s")))
            .collect();
        rows.push([
            format!("`pointsworth report {id}`, by section"),
            format!("{s:.0} s: {}", parts.join(", ")),
            "—".into(),
        ]);
    }
    for (id, s) in optimal {
        rows.push([
            format!("optimal-play 1v1 matrix, {id} (`matrix --optimal`), 1 thread"),
            format!("{s:.1} s"),
            format!("≤ 5 s (issue 15): {}", met(*s <= 5.0)),
        ]);
    }
    for (id, [changed, same]) in warm {
        rows.push([
            format!("`pointsworth report {id}` after one unit's cost changes, warm cache, 2 threads"),
            format!("{changed:.1} s (unchanged: {same:.1} s)"),
            format!("≤ 10 s (issue 42): {}", met(*changed <= 10.0)),
        ]);
    }
    for (id, s) in sensitivity {
        rows.push([
            format!("`rules {id} --sensitivity` (which readings decide the verdicts), 2 threads"),
            format!("{s:.0} s"),
            format!("≤ 30 s (issue 43): {}", met(*s <= 30.0)),
        ]);
    }
    let mut out = String::from("| benchmark | measured (medians) | goal |\n|---|---|---|\n");
    for [a, b, c] in rows {
        out.push_str(&format!("| {a} | {b} | {c} |\n"));
    }
    out
}
