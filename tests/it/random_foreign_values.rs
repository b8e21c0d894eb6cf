//! Random numbers in every foreign input that is not a config (issue 46 item 6; the configs are
//! [`crate::random_values`]): the counts of an army file of each ruleset that has army files
//! (and the length and names of the ruleset's other `--armies` forms), every number a `check`
//! baseline's `summary.json` holds, every number of a `merge` tally file, and the numbers of the
//! command line (`--distance`, `--trials`, `--target-error`, `--threads`, `--shard`, `--seed`,
//! numeric `--set` values). Values: zero, negative, NaN and ±inf where the format has them,
//! huge, the edges of the integer types, and ordinary ones.
//!
//! The property: nothing panics or aborts. Through the library (army files, baselines) a panic
//! fails the case and a refusal must name the file; through the binary (tallies, flags) the
//! exit code is 0 or 2, never 101 or a signal, and a refusal is one `error: ` line. An accepted
//! army plays a few games and an accepted baseline is compared with a small re-run, so what
//! comes after the loaders is tried too. A run through the binary that is still working after
//! a few seconds was accepted with a large but bounded amount of work (the ranges cap every
//! count) and is stopped: the hostile-input corpus is where hangs are tested.

use std::path::Path;
use std::sync::OnceLock;
use std::time::Duration;

use assert_cmd::Command;
use indicatif::ProgressBar;
use pointsworth::analysis::{AnalysisSettings, RulesetAnalysis, analyse};
use pointsworth::commands::check::{Baseline, CheckRun, compare, verdict};
use pointsworth::config::{Overrides, Source};
use pointsworth::rulesets::AnyRuleset;
use pointsworth::rulesets::skirmish::{Armies, ArmyError, Skirmish};
use pointsworth::with_ruleset;
use proptest::prelude::*;
use serde_json::Value;

/// A nasty or ordinary number as TOML or command-line text.
fn number_text() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => prop::sample::select(vec![
            "nan", "inf", "-inf", "NaN", "1e308", "-1e308", "0", "-0", "-1", "0.0", "-0.0", "1e-300", "0.5",
            "4294967295", "4294967296", "9223372036854775807", "-9223372036854775808", "18446744073709551615",
            "18446744073709551616", "1e12", "1e400", "",
        ])
        .prop_map(str::to_string),
        1 => (-5i64..40).prop_map(|i| i.to_string()),
        1 => (-1.0f64..60.0).prop_map(|x| format!("{x}")),
    ]
}

/// A nasty or ordinary JSON number (JSON has no NaN or infinity).
fn json_number() -> impl Strategy<Value = Value> {
    prop_oneof![
        2 => prop::sample::select(vec![
            Value::from(0), Value::from(-1), Value::from(-0.0), Value::from(1e308), Value::from(-1e308),
            Value::from(u64::MAX), Value::from(i64::MIN), Value::from(1e-300), Value::from(0.5), Value::from(1.0),
            Value::from(4294967295u64), Value::from(1.5), Value::from(1e12),
        ]),
        1 => (-3i64..2000).prop_map(Value::from),
        1 => (-0.5f64..1.5).prop_map(Value::from),
    ]
}

/// The loaded shipped config of ruleset `id`.
fn shipped(id: &str) -> AnyRuleset {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs").join(format!("{id}.toml"));
    AnyRuleset::load(id, &Source::read(&path).unwrap(), &Overrides::default()).unwrap()
}

/// The `[units]` lines (`name = count`) of the shipped army files of ruleset prefix `prefix`.
fn army_lines(prefix: &str) -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/armies");
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.file_name().unwrap().to_string_lossy().starts_with(prefix) {
            let text = std::fs::read_to_string(p).unwrap();
            let units = text.lines().skip_while(|l| *l != "[units]");
            out.extend(units.filter(|l| l.contains(" = ")).map(|l| l.split(" = ").next().unwrap().to_string()));
        }
    }
    out.sort();
    out.dedup();
    assert!(out.len() >= 2, "{prefix}: {out:?}");
    out
}

/// Reads `specs` as the armies of `mission` of `r`; an accepted pair plays two games.
fn read_and_play(r: &AnyRuleset, specs: [&str; 2], mission: usize, seed: u64) -> Result<(), String> {
    with_ruleset!(r, r => {
        let mission = mission % r.missions().len();
        match r.read_armies(specs, mission) {
            Ok(armies) => {
                let armies = Armies::Fixed(Box::new(armies));
                pointsworth::analysis::skirmish::run_skirmish(r, &armies, [0; 2], mission, seed, 2, &ProgressBar::hidden());
                Ok(())
            }
            Err(ArmyError::File(e)) => Err(e.to_string()),
            Err(ArmyError::Name(e)) => Err(e),
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    /// Army files of Guns 'N Grenades, Army Men Combat and The Grunt Factor: one to four
    /// entries of the shipped files with random counts, played if accepted.
    #[test]
    fn random_army_file_counts_never_panic(
        ruleset in 0usize..3,
        entries in proptest::collection::vec((any::<prop::sample::Index>(), number_text()), 1..5),
        mission in 0usize..8,
        seed in 0u64..1000,
    ) {
        let (id, prefix) = [("guns-n-grenades", "gng-"), ("army-men-combat", "amc-"), ("grunt-factor", "tgf-")][ruleset];
        let names = army_lines(prefix);
        let mut text = String::from("[units]\n");
        for (i, n) in &entries {
            text.push_str(&format!("{} = {n}\n", i.get(&names)));
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("army.toml");
        std::fs::write(&path, &text).unwrap();
        let p = path.display().to_string();
        if let Err(e) = read_and_play(&shipped(id), [&p, &p], mission, seed) {
            prop_assert!(e.contains(&p), "{e}\n{text}");
        }
    }

    /// VSGMR's sample-army names and Gunplay's loadout lists: random names and lengths (up to
    /// far more characters than the book allows), played if accepted.
    #[test]
    fn random_army_names_and_lists_never_panic(
        gunplay in any::<bool>(),
        len in prop_oneof![0usize..8, 8usize..100_000],
        pick in any::<prop::sample::Index>(),
        mission in 0usize..8,
        seed in 0u64..1000,
    ) {
        let (id, spec) = if gunplay {
            let loadouts = ["rifle", "pistol", "shotgun", "smg", "Rifle", "", "0", "-1", "nan", "rifle x 4294967295"];
            let one = pick.get(&loadouts);
            ("gunplay", vec![*one; len].join(","))
        } else {
            let names = ["Fantasy Humans", "fantasy-humans", "", "4294967295", "Fantasy Humans 2", "nan"];
            ("vsgmr", pick.get(&names).repeat(len.min(50).max(1)))
        };
        match read_and_play(&shipped(id), [&spec, &spec], mission, seed) {
            Ok(()) => {}
            Err(e) => prop_assert!(!e.is_empty()),
        }
    }
}

/// The paths of every number of `v`, as JSON pointers.
fn number_paths(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Number(_) => out.push(at),
        Value::Array(a) => a.iter().enumerate().for_each(|(i, x)| number_paths(x, format!("{at}/{i}"), out)),
        Value::Object(o) => o.iter().for_each(|(k, x)| number_paths(x, format!("{at}/{k}"), out)),
        _ => {}
    }
}

/// The committed GnG baseline, the JSON pointers of the numbers `check` reads (precision,
/// seed, format, units and both matrices), and a small re-run to compare a baseline with.
fn baseline() -> &'static (Value, Vec<String>, RulesetAnalysis) {
    static B: OnceLock<(Value, Vec<String>, RulesetAnalysis)> = OnceLock::new();
    B.get_or_init(|| {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/guns-n-grenades/summary.json");
        let v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let mut paths = Vec::new();
        for key in ["summary_format", "seed", "precision", "units", "matrix_1v1", "matrix_points"] {
            number_paths(&v[key], format!("/{key}"), &mut paths);
        }
        assert!(paths.len() > 500, "{} numbers", paths.len());
        let r = shipped("guns-n-grenades");
        let new = with_ruleset!(&r, r => {
            let mut s = AnalysisSettings::from_ruleset(r, 1);
            s.max_trials = 8;
            s.batch_size = 8;
            s.fixed_trials = true;
            s.exact_1v1 = false;
            s.sweep_distances.clear();
            analyse(r, &s, "configs/guns-n-grenades.toml", "0", &ProgressBar::hidden())
        });
        (v, paths, new)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    /// A baseline with one to six of its numbers random: read and validated, then (if
    /// accepted) compared with a re-run and written as a verdict.
    #[test]
    fn random_baseline_numbers_never_panic(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), json_number()), 1..7),
    ) {
        let (v, paths, new) = baseline();
        let mut v = v.clone();
        for (i, x) in &edits {
            *v.pointer_mut(i.get(paths).as_str()).unwrap() = x.clone();
        }
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("guns-n-grenades")).unwrap();
        let file = dir.path().join("guns-n-grenades/summary.json");
        std::fs::write(&file, serde_json::to_string(&v).unwrap()).unwrap();
        match Baseline::read(dir.path(), "guns-n-grenades") {
            Err(e) => prop_assert!(e.to_string().contains(&file.display().to_string()), "{e}"),
            Ok(base) => {
                let c = compare(&base, new, 0.02);
                let run = CheckRun { tolerance_pp: 2.0, quick: true, strict: false, family: c.len(), rulesets: 1 };
                let md = verdict(&base, new, &c, "", &run).markdown;
                prop_assert!(!md.contains("NaN"), "{md}");
            }
        }
    }
}

/// Runs the binary in `dir` with `args`; checks the property for a binary run and returns
/// the exit code (`None`: stopped after `secs` seconds, still working).
fn run_bin(dir: &Path, args: &[String], secs: u64) -> Result<Option<i32>, String> {
    let out = Command::cargo_bin("pointsworth")
        .unwrap()
        .current_dir(dir)
        .args(args)
        .timeout(Duration::from_secs(secs))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let code = out.status.code();
    match code {
        Some(0) if String::from_utf8_lossy(&out.stdout).contains("NaN") => {
            Err(format!("{args:?}: accepted and printed NaN: {}", String::from_utf8_lossy(&out.stdout)))
        }
        Some(0) => Ok(code),
        Some(2) => {
            let first = err.lines().next().unwrap_or("");
            let ours = !err.contains("For more information"); // clap's own errors add a hint
            if !first.starts_with("error: ")
                || (ours && err.lines().filter(|l| !l.starts_with("  caused by:")).count() != 1)
            {
                return Err(format!("{args:?}: exit 2 without one error line: {err}"));
            }
            Ok(code)
        }
        None if out.status.to_string().contains("signal: 9") => Ok(None),
        _ => Err(format!("{args:?}: {} (stderr: {err})", out.status)),
    }
}

/// A directory holding the shipped configs and two valid tally files of
/// `duel gng riflemen tank --trials 600` (shards 1/2 and 2/2), made once.
fn tallies() -> &'static (tempfile::TempDir, [Value; 2], Vec<String>) {
    static T: OnceLock<(tempfile::TempDir, [Value; 2], Vec<String>)> = OnceLock::new();
    T.get_or_init(|| {
        let s = crate::hostile_inputs::shards();
        let dir = tempfile::tempdir().unwrap();
        crate::bad_inputs::copy_dir(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("configs"),
            &dir.path().join("configs"),
        );
        let mut paths = Vec::new();
        number_paths(&s[0], String::new(), &mut paths);
        assert!(paths.len() >= 10, "{paths:?}");
        (dir, s, paths)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, failure_persistence: None, ..ProptestConfig::default() })]

    /// A merge of two tally files with one to four of their numbers random (either file, the
    /// shard's K/N among them).
    #[test]
    fn random_tally_numbers_never_panic(
        edits in proptest::collection::vec((any::<bool>(), any::<prop::sample::Index>(), json_number()), 1..5),
        shard in proptest::option::weighted(0.2, (number_text(), number_text())),
    ) {
        let (dir, s, paths) = tallies();
        let mut s = s.clone();
        for (second, i, x) in &edits {
            if let Some(n) = s[usize::from(*second)].pointer_mut(i.get(paths).as_str()) {
                *n = x.clone();
            }
        }
        if let Some((k, n)) = &shard {
            s[0]["shard"] = format!("{k}/{n}").into();
        }
        let case = tempfile::tempdir_in(dir.path()).unwrap();
        let mut args = vec!["merge".to_string()];
        for (k, v) in s.iter().enumerate() {
            let p = case.path().join(format!("s{k}.json"));
            std::fs::write(&p, serde_json::to_string(v).unwrap()).unwrap();
            args.push(p.display().to_string());
        }
        run_bin(dir.path(), &args, 20).map_err(TestCaseError::fail)?;
    }

    /// A numeric flag of the command line with a random value, on a small command.
    #[test]
    fn random_flag_numbers_never_panic(flag in 0usize..14, x in number_text(), y in number_text()) {
        // `--flag=VALUE`, so that a negative value reaches the command, not clap's flag parser.
        let cmd = [
            "duel gng riflemen tank --trials 20 --distance={}",
            "duel gng riflemen tank --optimal --distance={}",
            "duel gng riflemen tank --exact --distance={}",
            "duel tgf regular-rifles elite-rifles --trials={}",
            "duel gng riflemen tank --target-error={}",
            "duel gng riflemen tank --trials 20 --threads={}",
            "duel gng riflemen tank --trials 20 --seed={}",
            "duel gng riflemen tank --trials 20 --shard={}/{} --tallies-out t.json",
            "duel gng riflemen tank --trials 20 --set duel.max_rounds={}",
            "duel amc riflemen-10 tank --trials 20 --set unit.tank.cost={}",
            "duel gng riflemen tank --trials 20 --points-matched --set duel.budget={}",
            "skirmish gng --trials={} --set skirmish.points={}",
            "skirmish vsgmr --trials 2 --set skirmish.table_width={}",
            "matrix gunplay --trials 2 --set rules.quick_move={} --threads={}",
        ][flag];
        let text = cmd.replacen("{}", &x, 1).replacen("{}", &y, 1);
        let args: Vec<String> = text.split(' ').map(str::to_string).collect();
        let dir = tempfile::tempdir().unwrap();
        crate::bad_inputs::copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("configs"), &dir.path().join("configs"));
        run_bin(dir.path(), &args, 5).map_err(TestCaseError::fail)?;
    }
}
