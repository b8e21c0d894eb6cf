//! CSV through a CSV writer (issue 45 item 7): a config whose unit names hold commas, quotes
//! and a line break gives a report whose every CSV reads back with the csv reader, each row
//! as wide as its header, and the names come back as written.

use std::path::Path;

use assert_cmd::Command;

use crate::common;

/// The awkward names, each replacing one shipped unit's name.
const NAMES: [(&str, &str); 3] =
    [("Riflemen", "Riflemen, Veteran"), ("Heavy Infantry", "The \"Old\" Guard"), ("Snipers", "Snipers\nof the Line")];

/// Every record of a CSV file, checking that each is as wide as the header.
fn records(path: &Path) -> Vec<csv::StringRecord> {
    let mut r = csv::ReaderBuilder::new().flexible(true).from_path(path).unwrap();
    let width = r.headers().unwrap().len();
    let rows: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).collect();
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(
            row.len(),
            width,
            "{}: row {} has {} fields under a {width}-column header",
            path.display(),
            i + 1,
            row.len()
        );
    }
    rows
}

#[test]
fn a_report_with_awkward_unit_names_writes_csv_that_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    let (header, blocks) = common::small_gng_config(&NAMES.map(|(n, _)| n), "[6, 12]");
    let mut config = format!("{header}\n{}", blocks.join("\n"));
    for (old, new) in NAMES {
        let escaped = new.replace('"', "\\\"").replace('\n', "\\n");
        config = config.replace(&format!("name = \"{old}\""), &format!("name = \"{escaped}\""));
    }
    std::fs::write(dir.path().join("awkward.toml"), config).unwrap();
    Command::cargo_bin("pointsworth")
        .unwrap()
        .current_dir(dir.path())
        .args(["report", "guns-n-grenades", "--config", "awkward.toml", "--trials", "200", "--out", "out"])
        .args(["--set", "skirmish.report_trials=50", "--set", "skirmish.rollout_games=0"])
        .assert()
        .success();
    let out = dir.path().join("out/guns-n-grenades");
    let mut csvs: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "csv"))
        .collect();
    csvs.sort();
    assert!(csvs.len() >= 8, "{csvs:?}");
    let mut seen = std::collections::BTreeSet::new();
    for path in &csvs {
        for row in records(path) {
            for field in &row {
                if let Some((_, new)) = NAMES.iter().find(|(_, new)| field == *new) {
                    seen.insert((path.file_name().unwrap().to_string_lossy().into_owned(), *new));
                }
            }
        }
    }
    // Each name reads back whole from every table that names units by name.
    for file in ["efficiency.csv", "matrix_1v1.csv", "verdict.csv", "skirmish_units.csv", "skirmish_value_in_army.csv"]
    {
        for (_, new) in NAMES {
            assert!(seen.contains(&(file.to_string(), new)), "{file} lacks {new:?}: {seen:?}");
        }
    }
}
