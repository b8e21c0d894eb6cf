//! Shared by the exact-vs-Monte-Carlo tests: replicated Monte Carlo duels and the
//! family-wise comparison with the exact solution.
#![allow(dead_code)]

pub mod family;

pub use family::Family;
use pointsworth::rulesets::engine::Tally;
use pointsworth::rulesets::{ExactDuel, Ruleset};
use pointsworth::sim::RunPlan;
use pointsworth::sim::duel::{DuelTally, Squads, simulate};
use rayon::prelude::*;

/// Seeds of the exact-vs-Monte-Carlo tests: `POINTSWORTH_TEST_SEEDS` (comma-separated) if
/// set, else `default`. With a family-wise bound any seed must pass a correct engine, so the
/// checks can be re-run on fresh seeds: `POINTSWORTH_TEST_SEEDS=1,2,3 cargo test --test it ...`.
pub fn seeds(default: &[u64]) -> Vec<u64> {
    match std::env::var("POINTSWORTH_TEST_SEEDS") {
        Ok(s) if !s.trim().is_empty() => {
            s.split(',').map(|x| x.trim().parse().expect("POINTSWORTH_TEST_SEEDS: comma-separated u64")).collect()
        }
        _ => default.to_vec(),
    }
}

/// One-against-one duels of `a` and `b` at `distance`: `reps` independent replicates of
/// `per_rep` trials (replicate `i` of seed `s` uses seed `s · 10 000 + i`). Returns the merged
/// tally and each replicate's mean turns (whose scatter gives the standard error of the mean).
pub fn replicated<R: Ruleset>(
    r: &R,
    a: usize,
    b: usize,
    distance: f64,
    seed: u64,
    reps: u64,
    per_rep: u64,
) -> (DuelTally, Vec<f64>) {
    assert!(reps < 10_000);
    let runs: Vec<DuelTally> = (0..reps)
        .into_par_iter()
        .map(|i| {
            let batch = per_rep.div_ceil(4).max(1) as u32;
            simulate(r, a, b, distance, Squads::One, &RunPlan::fixed(seed * 10_000 + i, per_rep, batch))
        })
        .collect();
    let mut total = DuelTally::default();
    for t in &runs {
        assert_eq!(t.trials, per_rep);
        total.merge(t);
    }
    let means = runs.iter().map(|t| t.turns as f64 / t.trials as f64).collect();
    (total, means)
}

/// Adds one duel's comparisons to `family`: P(A wins), P(B wins), P(draw) (exact binomial
/// tests) and the mean number of turns (t-test over the replicates).
pub fn compare(family: &mut Family, label: &str, t: &DuelTally, turn_means: &[f64], exact: &ExactDuel) {
    assert!((exact.a_wins + exact.b_wins + exact.draws - 1.0).abs() < 1e-9, "{label}: exact outcomes sum to 1");
    assert_eq!(t.a_wins + t.b_wins + t.draws, t.trials, "{label}: every trial has one outcome");
    for (what, k, p) in
        [("A wins", t.a_wins, exact.a_wins), ("B wins", t.b_wins, exact.b_wins), ("draw", t.draws, exact.draws)]
    {
        family.proportion(format!("{label}: {what} {k} of {} against exact {p:.5}", t.trials), k, t.trials, p);
    }
    let mean = turn_means.iter().sum::<f64>() / turn_means.len() as f64;
    family.mean(
        format!("{label}: mean turns {mean:.4} against exact {:.4}", exact.mean_turns),
        turn_means,
        exact.mean_turns,
    );
}

/// The committed Guns 'N Grenades config cut to the units named in `keep`, with
/// `sweep_distances = {sweep}`, keeping the upgrades, `[skirmish]` and `[balance]` sections at
/// a test precision: a `report` plays 2 × 100 skirmishes and the fair-cost solver 300 trials
/// per price (the shipped 20 000 and 6 000 took most of a minute per report in the test
/// profile). Returns (header, unit blocks in config order); the header ends with those
/// sections, so `{header}\n{blocks joined by \n}` is a whole config.
pub fn small_gng_config(keep: &[&str], sweep: &str) -> (String, Vec<String>) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/guns-n-grenades.toml");
    let text = std::fs::read_to_string(path).unwrap();
    let tail_at = text.find("\n# ---- Upgrades").expect("config layout changed: no upgrades section");
    let (units, tail) = text.split_at(tail_at);
    let tail = tail
        .replace("report_trials = 20000", "report_trials = 100")
        .replace("report_trials = 6000", "report_trials = 300")
        .replace("rollout_games = 200", "rollout_games = 10")
        .replace("rollout_playouts = 32", "rollout_playouts = 4");
    assert!(
        tail.contains("[skirmish]")
            && tail.contains("[balance]")
            && tail.contains("report_trials = 100\n")
            && tail.contains("report_trials = 300\n")
            && tail.contains("rollout_games = 10\n"),
        "config layout changed: {tail}"
    );
    let mut parts = units.split("\n[[unit]]\n");
    let shipped = "sweep_distances = [3, 6, 9, 12, 15, 18, 24]";
    let header = parts.next().unwrap();
    assert!(header.contains(shipped), "config layout changed");
    let header = header.replace(shipped, &format!("sweep_distances = {sweep}"));
    // Optimal play costs seconds a pair in the test profile: its section has its own tests.
    assert!(header.contains("optimal_play = true\n"), "config layout changed");
    let header = header.replace("optimal_play = true\n", "optimal_play = false\n");

    let blocks: Vec<String> = parts
        .map(|b| format!("[[unit]]\n{}\n", b.split("\n# ----").next().unwrap().trim_end()))
        .filter(|b| keep.iter().any(|n| b.contains(&format!("name = \"{n}\""))))
        .collect();
    assert_eq!(blocks.len(), keep.len(), "config layout changed");
    (format!("{header}\n{tail}\n"), blocks)
}

/// The value-in-army rows of a skirmish JSON check out: each row's "log-odds per 100 points
/// minus the field mean" is 100 × (its win log-odds per point − the units' mean log-odds per
/// point), so the unit types' values average exactly 0; the rows are sorted by it; every
/// interval is symmetric with a positive, finite half-width; the price is log-odds over the
/// field mean per point, inside its Fieller interval when that is bounded.
pub fn assert_value_rows_normalised(values: &[serde_json::Value]) {
    let f = |r: &serde_json::Value, k: &str| r[k].as_f64().unwrap_or_else(|| panic!("{k} in {r}"));
    let units: Vec<&serde_json::Value> = values.iter().filter(|r| r["item"] == "unit").collect();
    assert!(!units.is_empty());
    let key = "log_odds_per_100_points_vs_field";
    let mean_unit_value = units.iter().map(|r| f(&r[key], "value")).sum::<f64>() / units.len() as f64;
    assert!(mean_unit_value.abs() < 1e-9, "unit values average {mean_unit_value}");
    let per_point = |r: &serde_json::Value| f(r, "log_odds") / f(r, "cost");
    let mean_per_point = units.iter().map(|r| per_point(r)).sum::<f64>() / units.len() as f64;
    let mut last = f64::INFINITY;
    for row in values {
        let e = &row[key];
        let (v, lo, hi) = (f(e, "value"), f(e, "lo"), f(e, "hi"));
        assert!((v - 100.0 * (per_point(row) - mean_per_point)).abs() < 1e-9 * v.abs().max(1.0), "{row}");
        assert!(v <= last, "rows sorted by value: {row}");
        last = v;
        let h = hi - v;
        assert!(h > 0.0 && h.is_finite() && ((v - lo) - h).abs() < 1e-9 * h.max(1.0), "{row}");
        let price = f(&row["price"], "value");
        assert!((price - f(row, "log_odds") / mean_per_point).abs() < 1e-9 * price.abs().max(1.0), "{row}");
        if let Some(b) = row["price"]["interval"].as_array() {
            let (plo, phi) = (b[0].as_f64().unwrap(), b[1].as_f64().unwrap());
            assert!(plo <= price && price <= phi, "{row}");
        }
    }
}

/// Every file and folder under `dir` (folders with empty content) with its bytes, sorted by
/// path: compare two to show that a command left a directory as it was.
pub fn snapshot(dir: &std::path::Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                out.push((p.clone(), Vec::new()));
                stack.push(p);
            } else {
                let bytes = std::fs::read(&p).unwrap();
                out.push((p, bytes));
            }
        }
    }
    out.sort();
    out
}

/// A temp dir whose `configs` is the repository's (for the default configs and army files).
pub fn repo_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let configs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("configs");
    std::os::unix::fs::symlink(configs, dir.path().join("configs")).unwrap();
    dir
}

/// Writes `configs/<file>` cut to the `[[unit]]` tables named in `keep` as `name` in `dir`,
/// every other table kept, after applying each `(from, to)` text replacement to the units kept.
pub fn trimmed_config(dir: &std::path::Path, file: &str, keep: &[&str], replace: &[(&str, &str)]) {
    let text =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("configs").join(file)).unwrap();
    // Chunks start at a table header line; a chunk's trailing comments belong to it.
    let mut chunks: Vec<String> = vec![String::new()];
    for line in text.lines() {
        if line.starts_with('[') {
            chunks.push(String::new());
        }
        let last = chunks.last_mut().unwrap();
        last.push_str(line);
        last.push('\n');
    }
    let mut kept = 0;
    let out: String = chunks
        .into_iter()
        .filter_map(|c| {
            if !c.starts_with("[[unit]]") {
                return Some(c);
            }
            keep.iter().any(|n| c.contains(&format!("name = \"{n}\"\n"))).then(|| {
                kept += 1;
                replace.iter().fold(c, |c, (from, to)| c.replace(from, to))
            })
        })
        .collect();
    assert_eq!(kept, keep.len(), "config layout changed: {file}");
    std::fs::write(dir.join(file), out).unwrap();
}

/// `pointsworth report army-men-combat` on `army-men-combat.toml` in the working directory at
/// a tiny precision (100 trials a matchup and a price, 40 skirmishes, one sweep distance): add
/// `--out DIR`. With [`trimmed_config`]'s three-unit list it runs in seconds in the test profile.
pub const SMALL_AMC_REPORT: [&str; 20] = [
    "report",
    "army-men-combat",
    "--config",
    "army-men-combat.toml",
    "--trials",
    "100",
    "--set",
    "balance.report_trials=100",
    "--set",
    "skirmish.report_trials=40",
    "--set",
    "upgrades.trials=100",
    "--set",
    "upgrades.fair_trials=100",
    "--set",
    "duel.sweep_distances=[24]",
    "--set",
    "skirmish.rollout_games=10",
    "--set",
    "skirmish.rollout_playouts=4",
];
