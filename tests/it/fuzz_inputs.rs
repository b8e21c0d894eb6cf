//! Fuzzing the input loaders (issue 17, item 10): the shipped configs (`configs/*.toml`) and
//! army files (`configs/armies/*`), mutated by deleted lines, swapped values, random bytes,
//! huge numbers and NaN/inf, go through the library's loaders (no process per case, so a few
//! thousand cases run in seconds). Every run must end in `Ok` or an error that names the file,
//! never a panic (proptest reports a panic as a failure, shrunk to a small mutation).

use std::path::{Path, PathBuf};

use pointsworth::config::{Overrides, Source};
use pointsworth::rulesets::AnyRuleset;
use pointsworth::rulesets::skirmish::Skirmish;
use pointsworth::with_ruleset;
use proptest::prelude::*;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// (ruleset id, path, text) of every shipped config.
fn configs() -> Vec<(&'static str, PathBuf, String)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(root().join("configs")).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_some_and(|x| x == "toml") {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let id = AnyRuleset::check_id(name.split('.').next().unwrap()).unwrap();
            out.push((id, path.clone(), std::fs::read_to_string(&path).unwrap()));
        }
    }
    out.sort();
    assert!(out.len() >= 5, "every ruleset ships a config");
    out
}

/// (ruleset id, path, text) of every shipped army file, by its prefix.
fn armies() -> Vec<(&'static str, PathBuf, String)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(root().join("configs/armies")).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let id = AnyRuleset::check_id(name.split('-').next().unwrap()).unwrap();
        out.push((id, path.clone(), std::fs::read_to_string(&path).unwrap()));
    }
    out.sort();
    assert!(!out.is_empty());
    out
}

/// Values that stress a reader: out of range, not numbers, wrong types.
const NASTY: &[&str] = &[
    "nan",
    "inf",
    "-inf",
    "1e308",
    "-1e308",
    "1e-308",
    "18446744073709551615",
    "9223372036854775807",
    "-9223372036854775808",
    "4294967296",
    "0",
    "-1",
    "0.0",
    "-0.0",
    "\"\"",
    "\"nan\"",
    "[]",
    "[nan, inf]",
    "{}",
    "true",
    "1979-05-27",
];

/// One edit of a file's text.
#[derive(Debug, Clone)]
enum Mutation {
    /// Delete line `i` (modulo the line count).
    DeleteLine(usize),
    /// Swap the values of two `key = value` lines.
    SwapValues(usize, usize),
    /// Replace a `key = value` line's value by a nasty one.
    Nasty(usize, usize),
    /// Overwrite bytes at a position with random ones (the text may stop being UTF-8: it is
    /// then read lossily, as a file on disk would fail to read).
    Bytes(usize, Vec<u8>),
    /// Duplicate line `i`.
    Duplicate(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        1 => any::<usize>().prop_map(Mutation::DeleteLine),
        1 => (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::SwapValues(a, b)),
        3 => (any::<usize>(), 0..NASTY.len()).prop_map(|(a, k)| Mutation::Nasty(a, k)),
        1 => (any::<usize>(), proptest::collection::vec(any::<u8>(), 1..8)).prop_map(|(a, b)| Mutation::Bytes(a, b)),
        1 => any::<usize>().prop_map(Mutation::Duplicate),
    ]
}

fn apply(text: &str, m: &Mutation) -> String {
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let n = lines.len().max(1);
    let assignments: Vec<usize> =
        (0..lines.len()).filter(|&i| !lines[i].trim_start().starts_with('#') && lines[i].contains(" = ")).collect();
    let value_of = |l: &str| l.split_once(" = ").map(|(_, v)| v.to_string()).unwrap_or_default();
    let key_of = |l: &str| l.split_once(" = ").map(|(k, _)| k.to_string()).unwrap_or_default();
    match m {
        Mutation::DeleteLine(i) => {
            if !lines.is_empty() {
                lines.remove(i % n);
            }
        }
        Mutation::Duplicate(i) => {
            if !lines.is_empty() {
                let l = lines[i % n].clone();
                lines.insert(i % n, l);
            }
        }
        Mutation::SwapValues(a, b) if !assignments.is_empty() => {
            let (a, b) = (assignments[a % assignments.len()], assignments[b % assignments.len()]);
            let (va, vb) = (value_of(&lines[a]), value_of(&lines[b]));
            lines[a] = format!("{} = {vb}", key_of(&lines[a]));
            lines[b] = format!("{} = {va}", key_of(&lines[b]));
        }
        Mutation::Nasty(a, k) if !assignments.is_empty() => {
            let a = assignments[a % assignments.len()];
            lines[a] = format!("{} = {}", key_of(&lines[a]), NASTY[*k]);
        }
        Mutation::Bytes(at, bytes) => {
            let mut b = text.as_bytes().to_vec();
            let at = at % b.len().max(1);
            for (i, x) in bytes.iter().enumerate() {
                if at + i < b.len() {
                    b[at + i] = *x;
                }
            }
            return String::from_utf8_lossy(&b).into_owned();
        }
        _ => {}
    }
    lines.join("\n") + "\n"
}

/// An error is clear if it is one line that names the file.
fn assert_clear(what: &str, path: &Path, message: &str) {
    let shown = path.display().to_string();
    assert!(message.contains(&shown), "{what}: the error does not name {shown}: {message}");
    assert!(!message.contains('\n') || message.lines().count() <= 3, "{what}: a short message: {message}");
}

/// Loads a config text as ruleset `id`, and if that works, the skirmish set-up it names.
fn load_config(id: &str, path: &Path, text: &str) {
    let source = Source::from_text(path, text);
    match AnyRuleset::load(id, &source, &Overrides::default()) {
        Err(e) => assert_clear("config", path, &e.to_string()),
        Ok(r) => with_ruleset!(&r, r => {
            let _ = r.check_skirmish();
            let _ = r.skirmish_units();
            let _ = r.default_armies();
        }),
    }
}

/// Loads a mutated army file for ruleset `id` (shipped config) as both sides.
fn load_army(id: &str, dir: &Path, name: &str, text: &str) {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    let source = Source::read(&root().join("configs").join(format!("{id}.toml"))).unwrap();
    let r = AnyRuleset::load(id, &source, &Overrides::default()).unwrap();
    let spec = path.to_str().unwrap();
    let result = with_ruleset!(&r, r => r.read_armies([spec, spec], 0).map(|_| ()));
    if let Err(e) = result {
        assert_clear("army file", &path, &e.to_string());
    }
}

proptest! {
    // A few hundred cases per property keep the file at a few seconds in the test profile.
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_configs_load_or_fail_clearly(file in any::<usize>(), edits in proptest::collection::vec(mutation(), 1..4)) {
        let all = configs();
        let (id, path, text) = &all[file % all.len()];
        let mut t = text.clone();
        for m in &edits {
            t = apply(&t, m);
        }
        load_config(id, path, &t);
    }

    #[test]
    fn mutated_army_files_load_or_fail_clearly(file in any::<usize>(), edits in proptest::collection::vec(mutation(), 1..4)) {
        let all = armies();
        let (id, path, text) = &all[file % all.len()];
        let mut t = text.clone();
        for m in &edits {
            t = apply(&t, m);
        }
        let dir = tempfile::tempdir().unwrap();
        load_army(id, dir.path(), &path.file_name().unwrap().to_string_lossy(), &t);
    }
}

/// The mutations reach every shipped file and every kind of value: each file loads as
/// shipped, and a nasty value on each of its assignments is either refused clearly or loads.
#[test]
fn every_value_of_every_shipped_config_is_tried_with_nan_and_a_huge_number() {
    for (id, path, text) in configs() {
        load_config(id, &path, &text);
        let assignments = text.lines().filter(|l| l.contains(" = ") && !l.trim_start().starts_with('#')).count();
        for a in 0..assignments {
            for k in [0, 1, 3, 6, 8, 11] {
                load_config(id, &path, &apply(&text, &Mutation::Nasty(a, k)));
            }
        }
    }
}
