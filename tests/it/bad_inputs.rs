//! A corpus of bad command lines and files (issue 17 item 10, issue 20 item 6): each exits with
//! code 2 and one clear message naming the culprit (the key, `file:line:col`, or the valid
//! names), and leaves no file behind. Every case runs in a fresh directory holding a copy of
//! `configs/`; after the run the directory must be exactly as it was.
//!
//! Config errors are asserted at their exact `file:line:col` for every ruleset's config (a unit
//! value and a `[skirmish]` value) and for every kind of army file.

use crate::common;

use std::fs;
use std::path::Path;

use assert_cmd::Command;

pub(crate) fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for e in fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let dest = to.join(p.file_name().unwrap());
        if p.is_dir() {
            copy_dir(&p, &dest);
        } else {
            fs::copy(&p, &dest).unwrap();
        }
    }
}

/// One bad input: files to write (relative path, text), the command line, and what the
/// message must contain.
pub(crate) struct Case {
    pub(crate) files: Vec<(String, String)>,
    pub(crate) args: Vec<String>,
    pub(crate) expect: Vec<String>,
}

pub(crate) fn case(args: &str, expect: &[&str]) -> Case {
    Case {
        files: Vec::new(),
        args: args.split_whitespace().map(String::from).collect(),
        expect: expect.iter().map(|s| s.to_string()).collect(),
    }
}

pub(crate) fn with_file(mut c: Case, path: &str, text: &str) -> Case {
    c.files.push((path.to_string(), text.to_string()));
    c
}

pub(crate) fn shipped(name: &str) -> String {
    fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("configs").join(name)).unwrap()
}

/// `text` with the first line starting with `line` replaced by `by`; returns the text and
/// the 1-based line number.
pub(crate) fn replace_line(text: &str, line: &str, by: &str) -> (String, usize) {
    replace_line_from(text, 0, line, by)
}

/// The same, but the first matching line after the line `after`.
pub(crate) fn replace_line_after(text: &str, after: &str, line: &str, by: &str) -> (String, usize) {
    let start = text.lines().position(|l| l == after).unwrap_or_else(|| panic!("no {after:?}"));
    replace_line_from(text, start, line, by)
}

fn replace_line_from(text: &str, start: usize, line: &str, by: &str) -> (String, usize) {
    let mut lines: Vec<&str> = text.lines().collect();
    let i = start + lines[start..].iter().position(|l| l.starts_with(line)).unwrap_or_else(|| panic!("no {line:?}"));
    lines[i] = by;
    (lines.join("\n") + "\n", i + 1)
}

/// A config error at `file:line:col` from `matrix RULESET --config bad.toml`.
fn config_at(ruleset: &str, text: String, line: usize, col: usize, key: &str) -> Case {
    with_file(
        case(&format!("matrix {ruleset} --config bad.toml --trials 100"), &[&format!("bad.toml:{line}:{col}: "), key]),
        "bad.toml",
        &text,
    )
}

fn corpus() -> Vec<Case> {
    let mut c = vec![
        // Command lines.
        case("duel warhammer a b", &["unknown ruleset \"warhammer\"", "known: guns-n-grenades"]),
        case("duel gng sniper riflemen", &["unknown unit \"sniper\"", "known: Riflemen"]),
        case("duel gng riflemen tank --distance -3", &["'-3'"]),
        case("duel gng riflemen tank --distance nan", &["--distance"]),
        case("duel gng riflemen tank --trials 0", &["--trials must be at least 1"]),
        case("duel gng riflemen tank --trials 18446744073709551615", &["--trials must be at most"]),
        case("duel gng riflemen tank --trials -5", &["'-5'"]),
        case("duel gng riflemen tank --target-error 0.7", &["--target-error must be in (0, 0.5)"]),
        case("duel gng riflemen tank --target-error nan", &["--target-error must be in (0, 0.5)"]),
        case("duel gng riflemen tank --seed x", &["--seed"]),
        case("--threads 0 duel gng riflemen tank", &["--threads must be at least 1"]),
        case("duel gng light-infantry mortar --exact", &["exact"]),
        case("matrix gng --set rules.fast_shot=sideways", &["fast_shot"]),
        // The reading switches of issue 43: a bad value lists the valid ones.
        case("matrix gng --set rules.self_blast=sometimes", &["rules.self_blast=sometimes", "caught", "spared"]),
        case(
            "duel gng riflemen tank --set rules.tough=very",
            &["rules.tough=very", "extra_step", "first_hit_absorbed"],
        ),
        case("skirmish amc --set rules.vehicle_melee_test=maybe", &["vehicle_melee_test", "tests", "exempt"]),
        case("matrix gunplay --set rules.duel_victory=maybe", &["duel_victory", "removed", "none_up"]),
        case("rules gng --sensitivity --set rules.self_blast=maybe", &["self_blast", "spared"]),
        case("matrix gng --set unit.snipers.cost=-5", &["cost"]),
        case("matrix gng --set unit.nobody.cost=5", &["nobody"]),
        case("matrix gng --set duel.budget=5", &["budget"]),
        // GnG Limited: 2 per full 100 points, so none at 90 points (not an empty-squad draw).
        case("matrix gng --set duel.budget=90", &["budget 90 allows no squad of", "Snipers", "Mortar"]),
        case("matrix gng --set noequals", &["--set", "KEY=VALUE"]),
        case("matrix gng --config missing.toml", &["missing.toml", "cannot read config"]),
        case("matrix gunplay --config configs/vsgmr.toml", &["configs/vsgmr.toml:", "ruleset must be \"gunplay\""]),
        case("report gng --out out --set unit.snipers.range=-3", &["range"]),
        case("report gng --out out --shard 3/2", &["--shard"]),
        case("report gng --out out --shard 1/2 --trials 100", &["--tallies-out"]),
        case("report gng --out out --trials 0", &["--trials must be at least 1"]),
        case(
            "skirmish gng --shard 1/2 --trials 10 --tallies-out t.json",
            &["--shard works with report, duel and matrix"],
        ),
        case("skirmish gng --tactic sideways", &["sideways"]),
        case("skirmish gng --armies nowhere.toml nowhere.toml", &["nowhere.toml"]),
        case("skirmish gunplay --armies Nobody,Else Nobody", &["Nobody"]),
        case("skirmish vsgmr --armies nobody nobody", &["unknown sample army \"nobody\"", "known: "]),
        case("fair-costs gng --target-error 0.01", &["--trials N instead of --target-error"]),
        case("check gng --baseline nowhere", &["nowhere/guns-n-grenades/summary.json"]),
        case("check --baseline nowhere", &["no baseline found"]),
        case("check gng --tolerance 150 --baseline nowhere", &["--tolerance must be in [0, 100)"]),
        case("merge nothing.json", &["nothing.json"]),
        case("rules warhammer", &["unknown ruleset \"warhammer\""]),
    ];
    // Files that are not what they claim.
    c.push(with_file(case("merge a.json b.json", &["a.json"]), "a.json", "{\"not\": \"tallies\"}"));
    c.push(with_file(case("matrix gng --config bad.toml", &["bad.toml:1:"]), "bad.toml", "\u{0}\u{1}binary junk ="));
    c.push(with_file(case("matrix gng --config bad.toml", &["bad.toml"]), "bad.toml", ""));
    let gng = shipped("guns-n-grenades.toml");
    let (t, line) = replace_line(&gng, "distance = 12.0", "distance = twelve");
    c.push(with_file(case("matrix gng --config bad.toml", &[&format!("bad.toml:{line}:")]), "bad.toml", &t));
    let (t, line) = replace_line(&gng, "self_blast = \"caught\"", "self_blast = \"sometimes\"");
    c.push(with_file(
        case("matrix gng --config bad.toml", &[&format!("bad.toml:{line}:"), "caught", "spared"]),
        "bad.toml",
        &t,
    ));
    let unknown = gng.replacen("blast = 2.5", "blast = 2.5\nblats = 1", 1);
    let (_, line) = replace_line(&unknown, "blats = 1", "blats = 1");
    c.push(with_file(
        case("duel gng mortar riflemen --config bad.toml", &[&format!("bad.toml:{line}:1: "), "unknown key \"blats\""]),
        "bad.toml",
        &unknown,
    ));

    // Every ruleset's config: a unit value and a [skirmish] value, at their exact line:col.
    for (file, id, unit_line, unit_by, unit_col, unit_key) in [
        ("guns-n-grenades.toml", "guns-n-grenades", "cost = ", "cost = \"free\"", 8, "cost"),
        ("guns-n-grenades.balanced.toml", "guns-n-grenades", "cost = ", "cost = -1", 8, "cost"),
        ("gunplay.toml", "gunplay", "cost = ", "cost = nan", 8, "cost"),
        ("grunt-factor.toml", "grunt-factor", "cost = ", "cost = 1e308", 8, "cost"),
        ("army-men-combat.toml", "army-men-combat", "cost = ", "cost = \"x\"", 8, "cost"),
        ("vsgmr.toml", "vsgmr", "figure = ", "figure = 7", 10, "figure"),
    ] {
        let text = shipped(file);
        let (t, line) = replace_line(&text, unit_line, unit_by);
        c.push(config_at(id, t, line, unit_col, unit_key));
        let (t, line) = replace_line_after(&text, "[skirmish]", "table_width = ", "table_width = \"wide\"");
        c.push(config_at(id, t, line, 15, "table_width"));
    }

    // Army files of every ruleset that reads them: a bad count and an unknown unit.
    for (file, id) in [
        ("amc-armour.toml", "army-men-combat"),
        ("gng-armour.toml", "guns-n-grenades"),
        ("tgf-elite.toml", "grunt-factor"),
    ] {
        let text = shipped(&format!("armies/{file}"));
        let first = text.lines().skip_while(|l| *l != "[units]").nth(1).unwrap().to_string();
        let name = first.split(" = ").next().unwrap();
        let (t, line) = replace_line(&text, &first, &format!("{name} = \"many\""));
        let args = format!("skirmish {id} --trials 10 --armies bad.toml bad.toml");
        let col = name.chars().count() + 4;
        c.push(with_file(case(&args, &[&format!("bad.toml:{line}:{col}: ")]), "bad.toml", &t));
        let (t, line) = replace_line(&text, &first, "Dragons = 1");
        c.push(with_file(case(&args, &[&format!("bad.toml:{line}:11: "), "\"Dragons\"", "known: "]), "bad.toml", &t));
    }
    c
}

#[test]
fn bad_inputs_exit_2_with_one_clear_message_and_leave_no_file() {
    let corpus = corpus();
    assert!(corpus.len() >= 40, "{} cases", corpus.len());
    run_corpus(&corpus);
}

/// Runs every case of `corpus` in a fresh directory holding a copy of `configs/` and its
/// files; fails listing every case that did not exit 2 with one `error: ` line holding its
/// expected text, or that changed a file.
pub(crate) fn run_corpus(corpus: &[Case]) {
    use rayon::prelude::*;
    let configs = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs");
    let failures: Vec<String> = corpus
        .par_iter()
        .filter_map(|case| {
            let dir = tempfile::tempdir().unwrap();
            copy_dir(&configs, &dir.path().join("configs"));
            for (path, text) in &case.files {
                let path = dir.path().join(path);
                fs::create_dir_all(path.parent().unwrap()).unwrap();
                fs::write(path, text).unwrap();
            }
            let before = common::snapshot(dir.path());
            let out =
                Command::cargo_bin("pointsworth").unwrap().current_dir(dir.path()).args(&case.args).output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr).into_owned();
            let first = err.lines().next().unwrap_or("");
            let ours = !err.contains("For more information"); // clap's own errors add a hint
            let problems: Vec<String> = [
                (out.status.code() != Some(2)).then(|| format!("exit {:?}", out.status.code())),
                (!first.starts_with("error: ")).then(|| "no 'error: ' line first".to_string()),
                (ours && err.lines().filter(|l| !l.starts_with("  caused by:")).count() != 1)
                    .then(|| "more than one line".to_string()),
                case.expect
                    .iter()
                    .find(|e| !first.contains(e.as_str()) && !err.contains(e.as_str()))
                    .map(|e| format!("no {e:?}")),
                (common::snapshot(dir.path()) != before).then(|| "files changed".to_string()),
            ]
            .into_iter()
            .flatten()
            .collect();
            (!problems.is_empty()).then(|| format!("{:?}: {}\n  stderr: {err}", case.args, problems.join(", ")))
        })
        .collect();
    assert!(failures.is_empty(), "{} of {} cases:\n{}", failures.len(), corpus.len(), failures.join("\n"));
}
