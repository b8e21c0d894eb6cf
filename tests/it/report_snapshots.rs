//! Snapshot tests of the report writers on small hand-made analyses.
//!
//! The numbers are fixed by hand (not simulated) so the snapshots change only when a writer
//! changes. Set `POINTSWORTH_KEEP_REPORTS=DIR` to also write the reports under `DIR` for
//! looking at the charts.

use std::fs;
use std::path::{Path, PathBuf};

use pointsworth::analysis::{DistanceSweep, EfficiencyRow, Matrix, RulesetAnalysis, Warning};

use pointsworth::sim::duel::MatchupResult;

use pointsworth::report::{IndexEntry, write_index, write_ruleset_report};
use pointsworth::rulesets::{Coverage, CoverageRow, UnitInfo};
use pointsworth::stats::Estimate;

/// Rounds to 4 decimals so hand-made intervals print as short decimals.
fn r4(x: f64) -> f64 {
    (x * 1e4).round() / 1e4
}

fn est(value: f64, half: f64) -> Estimate {
    Estimate { value: r4(value), lo: r4((value - half).max(0.0)), hi: r4((value + half).min(1.0)) }
}

fn unit(id: &str, name: &str, cost: f64, kind: &str) -> UnitInfo {
    UnitInfo { id: id.into(), name: name.into(), cost, kind: kind.into() }
}

/// A matchup with row score `score`, draw rate `draws` and interval half-width `half`
/// (`half == 0` makes it an exact result).
fn matchup(score: f64, draws: f64, half: f64, trials: u64, budget: f64) -> MatchupResult {
    let a = score - draws / 2.0;
    let b = 1.0 - a - draws;
    let exact = half == 0.0;
    MatchupResult {
        a_wins: est(a, half),
        b_wins: est(b, half),
        draws: est(draws, half / 2.0),
        a_score: est(score, half),
        a_score_se: r4(half / 1.96),
        trials: if exact { 0 } else { trials },
        method: if exact { "exact" } else { "monte-carlo" }.into(),
        mean_turns: Some(r4(3.0 + 4.0 * draws + score)),
        a_points_spent: budget,
        a_points_killed: r4(budget * score * 0.8),
        b_points_spent: budget,
        b_points_killed: r4(budget * (1.0 - score) * 0.8),
    }
}

/// A square matrix from the upper triangle of row scores (the rest follows by symmetry).
fn matrix(
    title: &str,
    units: &[UnitInfo],
    upper: &dyn Fn(usize, usize) -> f64,
    half: &dyn Fn(usize, usize) -> f64,
    budget: f64,
) -> Matrix {
    let n = units.len();
    let cells = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| {
                    let score = match i.cmp(&j) {
                        std::cmp::Ordering::Equal => 0.5,
                        std::cmp::Ordering::Less => upper(i, j),
                        std::cmp::Ordering::Greater => 1.0 - upper(j, i),
                    };
                    let (lo, hi) = (i.min(j), i.max(j));
                    matchup(score, 0.1, half(lo, hi), 4000 + 1000 * (i + j) as u64, budget)
                })
                .collect()
        })
        .collect();
    Matrix { title: title.into(), units: units.iter().map(|u| u.id.clone()).collect(), cells }
}

/// Efficiency rows from the matrices: mean row score against every other unit, best first.
fn efficiency(units: &[UnitInfo], m1: &Matrix, mp: &Matrix, no_kills: &[&str]) -> Vec<EfficiencyRow> {
    let n = units.len();
    let mean_vs_others = |m: &Matrix, i: usize, f: &dyn Fn(&Estimate) -> f64| {
        (0..n).filter(|&j| j != i).map(|j| f(&m.cells[i][j].a_score)).sum::<f64>() / (n - 1) as f64
    };
    let mut rows: Vec<EfficiencyRow> = units
        .iter()
        .enumerate()
        .map(|(i, u)| {
            let e = |m: &Matrix| Estimate {
                value: r4(mean_vs_others(m, i, &|e| e.value)),
                lo: r4(mean_vs_others(m, i, &|e| e.lo)),
                hi: r4(mean_vs_others(m, i, &|e| e.hi)),
            };
            let eff = e(mp);
            EfficiencyRow {
                unit: u.clone(),
                efficiency: eff,
                win_rate_1v1: e(m1),
                points_per_point_killed: (!no_kills.contains(&u.id.as_str())).then(|| Estimate {
                    value: r4(0.5 / eff.value),
                    lo: r4(0.5 / eff.hi),
                    hi: r4(0.5 / eff.lo),
                }),
                rank: 0,
            }
        })
        .collect();
    rows.sort_by(|a, b| b.efficiency.value.total_cmp(&a.efficiency.value));
    for (k, r) in rows.iter_mut().enumerate() {
        r.rank = k + 1;
    }
    rows
}

/// A sweep from per-unit efficiency values at `distances`, all with interval half-width `half`.
fn sweep(units: &[UnitInfo], distances: &[f64], values: &[Vec<f64>], half: f64) -> DistanceSweep {
    DistanceSweep {
        distances: distances.to_vec(),
        units: units.iter().map(|u| u.id.clone()).collect(),
        efficiency: values.iter().map(|row| row.iter().map(|&v| est(v, half)).collect()).collect(),
        target_error: 0.02,
    }
}

/// Three units with fixed numbers: the snapshot fixture.
fn small_analysis() -> RulesetAnalysis {
    let units = vec![
        unit("riflemen", "Riflemen", 10.0, "infantry"),
        unit("snipers", "Snipers", 35.0, "infantry"),
        unit("light-tank", "Light Tank", 80.0, "vehicle"),
    ];
    let points = [[0.0, 0.38, 0.55], [0.0, 0.0, 0.71], [0.0; 3]];
    let duel = [[0.0, 0.22, 0.04], [0.0, 0.0, 0.09], [0.0; 3]];
    let matrix_points = matrix("points-matched squads, 150 points", &units, &|i, j| points[i][j], &|_, _| 0.012, 150.0);
    // One exact cell (the mirror match of the cheapest unit) to show how exact results print.
    let matrix_1v1 =
        matrix("1v1 at 12 in", &units, &|i, j| duel[i][j], &|i, j| if i == 0 && j == 0 { 0.0 } else { 0.009 }, 0.0);
    let efficiency = efficiency(&units, &matrix_1v1, &matrix_points, &["light-tank"]);
    // Riflemen fade with distance (crossing 50%), snipers gain, the tank hardly cares.
    let distance_sweep = Some(sweep(
        &units,
        &[6.0, 12.0, 24.0],
        &[vec![0.58, 0.47, 0.36], vec![0.41, 0.55, 0.68], vec![0.51, 0.48, 0.46]],
        0.021,
    ));
    RulesetAnalysis {
        ruleset: "test-skirmish".into(),
        title: "Test Skirmish v1".into(),
        version: "0.1.0".into(),
        config_path: "configs/test-skirmish.toml".into(),
        config_hash: "cbf29ce484222325".into(),
        variants: vec![("fast_shot".into(), "attacker_die".into()), ("cover".into(), "half".into())],
        seed: 20240601,
        distance: 12.0,
        distance_unit: "in".into(),
        budget: 150.0,
        squad_caps: Vec::new(),
        target_error: 0.01,
        max_trials: 200_000,
        fixed_trials: false,
        units,
        duel_side: "one model".into(),
        matrix_1v1,
        matrix_points,
        efficiency,
        distance_sweep,
        win_rate_by_distance: None,
        coverage: vec![
            CoverageRow {
                rule: "Shooting".into(),
                source: "TS 2.1".into(),
                status: Coverage::Modeled,
                note: String::new(),
            },
            CoverageRow {
                rule: "Cover".into(),
                source: "TS 2.4".into(),
                status: Coverage::Simplified,
                note: "half of the table is cover | no line of sight model".into(),
            },
            CoverageRow {
                rule: "Morale".into(),
                source: "TS 3.2".into(),
                status: Coverage::NotModeled,
                note: "squads fight to the last model".into(),
            },
        ],
        warnings: vec![Warning {
            message: "Riflemen and Light Tank: efficiency intervals overlap; their order is not settled.".into(),
        }],
        elapsed_seconds: 12.345,
        config_text: None,
        skirmish: None,
        studies: Vec::new(),
        fair_costs: None,
        optimal_play: None,
        squads_rollout: None,
        squads_game: None,
        readings: None,
        lint: Vec::new(),
    }
}

/// A dozen units with long names: checks the charts' layout on a realistic size.
fn large_analysis() -> RulesetAnalysis {
    let names = [
        ("Riflemen", 10.0, "infantry"),
        ("Light Infantry", 12.0, "infantry"),
        ("Heavy Infantry", 18.0, "infantry"),
        ("Snipers", 35.0, "infantry"),
        ("Assault Engineers with Flamethrowers", 30.0, "infantry"),
        ("Mortar Team", 28.0, "infantry"),
        ("Anti-Tank Rifles", 25.0, "infantry"),
        ("Scout Car", 45.0, "vehicle"),
        ("Light Tank", 80.0, "vehicle"),
        ("Medium Tank", 120.0, "vehicle"),
        ("Armoured Personnel Carrier", 60.0, "vehicle"),
        ("Commander", 40.0, "hero"),
    ];
    let units: Vec<UnitInfo> =
        names.iter().map(|(n, c, k)| unit(&n.to_lowercase().replace(' ', "-"), n, *c, k)).collect();
    let score = |i: usize, j: usize| {
        let x = ((i * 7 + j * 13) % 17) as f64 / 16.0;
        (0.02 + 0.96 * x).clamp(0.0, 1.0)
    };
    let mp = matrix("points-matched squads, 300 points", &units, &score, &|_, _| 0.01, 300.0);
    let m1 = matrix("1v1 at 24 in", &units, &|i, j| score(j, i), &|_, _| 0.008, 0.0);
    let mut a = small_analysis();
    a.ruleset = "large-skirmish".into();
    a.title = "Large Skirmish Rulebook, Second Edition".into();
    a.budget = 300.0;
    a.distance = 24.0;
    a.efficiency = efficiency(&units, &m1, &mp, &[]);
    // Seven distances, lines that rise, fall and cross 50%, some bunched together.
    let distances = [3.0, 6.0, 9.0, 12.0, 15.0, 18.0, 24.0];
    let values: Vec<Vec<f64>> = (0..units.len())
        .map(|u| {
            let base = 0.1 + 0.8 * ((u * 5) % 12) as f64 / 11.0;
            let slope = ((u * 7) % 9) as f64 / 8.0 - 0.5;
            distances.iter().map(|d| (base + 0.4 * slope * (d - 12.0) / 12.0).clamp(0.01, 0.99)).collect()
        })
        .collect();
    a.distance_sweep = Some(sweep(&units, &distances, &values, 0.025));
    a.units = units;
    a.matrix_points = mp;
    a.matrix_1v1 = m1;
    a
}

fn keep(dir: &Path, name: &str) {
    if let Ok(keep) = std::env::var("POINTSWORTH_KEEP_REPORTS") {
        let target = PathBuf::from(keep).join(name);
        fs::create_dir_all(&target).unwrap();
        for entry in fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            fs::copy(entry.path(), target.join(entry.file_name())).unwrap();
        }
    }
}

fn read(dir: &Path, name: &str) -> String {
    fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn assert_charts(dir: &Path) {
    assert_charts_named(dir, &["efficiency", "heatmap_points", "heatmap_1v1"]);
}

fn assert_charts_named(dir: &Path, stems: &[&str]) {
    for &stem in stems {
        let png = fs::read(dir.join(format!("{stem}.png"))).unwrap();
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "{stem}.png is not a PNG");
        assert!(png.len() > 8 * 1024, "{stem}.png is only {} bytes", png.len());
        let svg = read(dir, &format!("{stem}.svg"));
        assert!(svg.contains("<svg"), "{stem}.svg has no <svg> element");
        assert!(svg.contains("font-family=\"sans-serif\""), "{stem}.svg has no text");
    }
}

fn no_temporaries(dir: &Path) {
    let left: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("-tmp-"))
        .collect();
    assert!(left.is_empty(), "temporary files left behind: {left:?}");
}

#[test]
fn small_report_matches_snapshots() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("reports").join("test-skirmish");
    let analysis = small_analysis();
    let written = write_ruleset_report(&analysis, &dir).unwrap();
    keep(&dir, "test-skirmish");

    let names: Vec<String> =
        written.iter().map(|p| p.strip_prefix(&dir).unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(
        names,
        [
            "verdict.csv",
            "efficiency.csv",
            "efficiency.parquet",
            "efficiency.png",
            "efficiency.svg",
            "efficiency_by_distance.csv",
            "efficiency_by_distance.png",
            "efficiency_by_distance.svg",
            "matrix_points.csv",
            "heatmap_points.png",
            "heatmap_points.svg",
            "matrix_1v1.csv",
            "heatmap_1v1.png",
            "heatmap_1v1.svg",
            "summary.json",
            "report.md",
            "report.html",
        ]
    );

    insta::assert_snapshot!("efficiency_csv", read(&dir, "efficiency.csv"));
    insta::assert_snapshot!("efficiency_by_distance_csv", read(&dir, "efficiency_by_distance.csv"));
    insta::assert_snapshot!("matrix_points_csv", read(&dir, "matrix_points.csv"));
    insta::assert_snapshot!("matrix_1v1_csv", read(&dir, "matrix_1v1.csv"));
    insta::assert_snapshot!("summary_json", read(&dir, "summary.json"));
    insta::assert_snapshot!("report_md", read(&dir, "report.md"));

    let parquet = fs::read(dir.join("efficiency.parquet")).unwrap();
    assert!(parquet.starts_with(b"PAR1") && parquet.ends_with(b"PAR1"), "not a Parquet file");
    assert_charts(&dir);
    assert_charts_named(&dir, &["efficiency_by_distance"]);
    no_temporaries(&dir);

    let index = write_index(&[IndexEntry::from(&analysis)], &tmp.path().join("reports")).unwrap();
    insta::assert_snapshot!("index_md", fs::read_to_string(index).unwrap());
}

#[test]
fn summary_json_leaves_out_wall_time_and_is_stable() {
    let tmp = tempfile::tempdir().unwrap();
    let mut analysis = small_analysis();
    write_ruleset_report(&analysis, tmp.path()).unwrap();
    let first = (read(tmp.path(), "summary.json"), read(tmp.path(), "report.md"));
    analysis.elapsed_seconds = 999.0;
    write_ruleset_report(&analysis, tmp.path()).unwrap();
    let second = (read(tmp.path(), "summary.json"), read(tmp.path(), "report.md"));
    assert_eq!(first, second, "wall time leaked into a committed file");
    assert!(!first.0.contains("elapsed"));
    let json: serde_json::Value = serde_json::from_str(&first.0).unwrap();
    assert_eq!(json["seed"], 20240601);
    assert_eq!(json["variants"]["fast_shot"], "attacker_die");
    assert_eq!(json["efficiency"][0]["efficiency"]["lo"], analysis.efficiency[0].efficiency.lo);
    let sweep = analysis.distance_sweep.as_ref().unwrap();
    assert_eq!(json["distance_sweep"]["distances"][2], 24.0);
    assert_eq!(json["distance_sweep"]["efficiency"]["snipers"][2]["hi"], sweep.efficiency[1][2].hi);
}

#[test]
fn without_a_sweep_the_distance_files_and_section_are_left_out() {
    let tmp = tempfile::tempdir().unwrap();
    let mut analysis = small_analysis();
    // A run with a sweep, then one without into the same directory: no stale sweep remains.
    write_ruleset_report(&analysis, tmp.path()).unwrap();
    assert!(tmp.path().join("efficiency_by_distance.png").exists());
    analysis.distance_sweep = None;
    let written = write_ruleset_report(&analysis, tmp.path()).unwrap();
    for name in ["efficiency_by_distance.csv", "efficiency_by_distance.png", "efficiency_by_distance.svg"] {
        assert!(!tmp.path().join(name).exists(), "{name} was left behind");
        assert!(!written.iter().any(|p| p.ends_with(name)));
    }
    assert_eq!(written.len(), 14);
    assert_charts(tmp.path());
    no_temporaries(tmp.path());
    let md = read(tmp.path(), "report.md");
    assert!(!md.contains("by start distance"));
    assert!(!md.contains("distance sweep"));
    assert!(md.contains("## Points efficiency"));
    let json: serde_json::Value = serde_json::from_str(&read(tmp.path(), "summary.json")).unwrap();
    assert!(json["distance_sweep"].is_null());
}

#[test]
fn large_report_renders_every_chart() {
    let tmp = tempfile::tempdir().unwrap();
    let analysis = large_analysis();
    write_ruleset_report(&analysis, tmp.path()).unwrap();
    keep(tmp.path(), "large-skirmish");
    assert_charts(tmp.path());
    assert_charts_named(tmp.path(), &["efficiency_by_distance"]);
    no_temporaries(tmp.path());
    let md = read(tmp.path(), "report.md");
    assert!(md.contains("| **Assault Engineers with Flamethrowers (30)** |"));
    assert!(md.contains("| unit | 3 in | 6 in | 9 in | 12 in | 15 in | 18 in | **24 in** |"));
    let csv = read(tmp.path(), "efficiency_by_distance.csv");
    assert_eq!(csv.lines().count(), 1 + 12 * 7);
}

#[test]
fn index_lists_rulesets_in_id_order_with_links() {
    let tmp = tempfile::tempdir().unwrap();
    let small = IndexEntry::from(&small_analysis());
    let large = IndexEntry::from(&large_analysis());
    let path = write_index(&[small, large], tmp.path()).unwrap();
    let md = fs::read_to_string(path).unwrap();
    let large_at = md.find("(large-skirmish/report.md)").unwrap();
    let small_at = md.find("(test-skirmish/report.md)").unwrap();
    assert!(large_at < small_at);
}

#[test]
fn degenerate_sweeps_still_render() {
    let base = small_analysis();
    let units = base.units.clone();
    let cases = [
        // One distance, away from the main one.
        sweep(&units, &[30.0], &[vec![0.6], vec![0.5], vec![0.4]], 0.02),
        // No distances at all.
        sweep(&units, &[], &[vec![], vec![], vec![]], 0.02),
        // A row shorter than the distances and an exact (zero-width) estimate.
        sweep(&units, &[6.0, 12.0], &[vec![0.6], vec![0.5, 0.5], vec![0.4, 0.45]], 0.0),
    ];
    for (k, s) in cases.into_iter().enumerate() {
        let tmp = tempfile::tempdir().unwrap();
        let mut a = base.clone();
        a.distance_sweep = Some(s);
        write_ruleset_report(&a, tmp.path()).unwrap_or_else(|e| panic!("case {k}: {e:#}"));
        assert_charts_named(tmp.path(), &["efficiency_by_distance"]);
        let md = read(tmp.path(), "report.md");
        assert!(md.contains("## Efficiency by start distance"), "case {k}");
    }
}

/// The solver's section: `fair_costs.csv`, the chart and the Markdown section, snapshotted.
#[test]
fn suggested_costs_section_table_and_chart() {
    use pointsworth::rulesets::engine::{FairCostRow, FairCosts};
    let mut analysis = small_analysis();
    let rows = analysis
        .units
        .iter()
        .enumerate()
        .map(|(i, u)| FairCostRow {
            unit: u.clone(),
            efficiency: est(0.40 + 0.1 * i as f64, 0.004),
            fair_cost: (i != 1).then(|| Estimate {
                value: u.cost * (0.8 + 0.2 * i as f64),
                lo: u.cost * 0.75,
                hi: u.cost * 1.3,
            }),
            note: if i == 1 { "only 12.0% efficient even at 5 points: rules, not price".into() } else { String::new() },
            lanchester: Some(u.cost * 1.1),
            lanchester_terms: Some((0.5, 3.0)),
            balanced_cost: u.cost + 5.0,
            balanced_efficiency: est(0.5, 0.005),
            derived_cost: None,
            fresh_efficiency: Some(est(0.49 + 0.01 * i as f64, 0.006)),
            next_step: (i == 2).then(|| (u.cost + 10.0, est(0.45, 0.005))),
            step_limited: i == 2,
            bradley_terry: est(1.0 + i as f64, 0.25),
            nash_weight: if i == 0 { est(0.9, 0.1) } else { est(0.05, 0.05) },
            search: vec![[u.cost, 0.40 + 0.1 * i as f64, 0.002], [u.cost * 1.5, 0.35 + 0.1 * i as f64, 0.002]],
        })
        .collect();
    analysis.fair_costs = Some(FairCosts {
        seed: 42,
        trials: 6000,
        cost_step: 5.0,
        tolerance: 0.02,
        iterations: 3,
        moves: 2,
        balanced: false,
        balanced_to_step: false,
        fresh_seed: Some(43),
        fresh_within: false,
        rows,
        anchor: None,
        unbalanced: vec!["Snipers: only 12.0% efficient even at 5 points: rules, not price".into()],
        notes: Vec::new(),
        matchups: 100,
    });
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("test-skirmish");
    let written = write_ruleset_report(&analysis, &dir).unwrap();
    keep(&dir, "test-skirmish-fair-costs");
    for name in ["fair_costs.csv", "fair_costs.png", "fair_costs.svg"] {
        assert!(written.iter().any(|p| p.ends_with(name)), "{name} not written");
    }
    assert!(fs::metadata(dir.join("fair_costs.png")).unwrap().len() > 10_000, "the chart is not blank");
    insta::assert_snapshot!("fair_costs_csv", read(&dir, "fair_costs.csv"));
    let md = read(&dir, "report.md");
    let start = md.find("## Suggested costs").expect("section present");
    let end = start + md[start..].find("\n## Points-matched").unwrap();
    insta::assert_snapshot!("fair_costs_section", &md[start..end]);
}
