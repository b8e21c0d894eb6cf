//! Hardening 2 (issue 46): bad input tried as a careless or hostile user would, over every
//! subcommand and every config section of every ruleset, and every example of the issue. Each
//! case exits with code 2, prints one `error: ` line holding the expected text (the flag, or
//! `file:line:col` and the key) and leaves no file behind ([`run_corpus`]).
//!
//! Beside the corpus: foreign files (`check` baselines, `merge` tallies) forged field by field,
//! a huge count under a memory cap (it must fail in seconds, not allocate), and a stale
//! temporary file of a killed run swept by the next one.

use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use serde_json::Value;

use crate::bad_inputs::{Case, case, replace_line, replace_line_after, run_corpus, shipped, with_file};

/// `configs/FILE` with `KEY = VALUE` in table `[table]` (the first line starting with `KEY = `
/// after the header), as `bad.toml`, run by `args` (`{}` stands for `--config bad.toml`); the
/// error must be at the value's `line:col` and name the key.
fn at_value(file: &str, table: &str, key: &str, value: &str, args: &str, expect: &[&str]) -> Case {
    let text = shipped(file);
    let by = format!("{key} = {value}");
    let (t, line) = replace_line_after(&text, table, &format!("{key} = "), &by);
    let col = key.chars().count() + 4;
    let place = format!("bad.toml:{line}:{col}: ");
    let mut all = vec![place.as_str()];
    all.extend_from_slice(expect);
    with_file(case(&args.replace("{}", "--config bad.toml"), &all), "bad.toml", &t)
}

/// `configs/FILE` with the first line starting with `from` replaced by `by`, as `bad.toml`; the
/// error must be at that line, column `col`.
fn at_line(file: &str, from: &str, by: &str, col: usize, args: &str, expect: &[&str]) -> Case {
    let (t, line) = replace_line(&shipped(file), from, by);
    let place = format!("bad.toml:{line}:{col}: ");
    let mut all = vec![place.as_str()];
    all.extend_from_slice(expect);
    with_file(case(&args.replace("{}", "--config bad.toml"), &all), "bad.toml", &t)
}

fn config_corpus() -> Vec<Case> {
    let gng = "guns-n-grenades.toml";
    let amc = "army-men-combat.toml";
    let tgf = "grunt-factor.toml";
    let vsgmr = "vsgmr.toml";
    let gp = "gunplay.toml";
    vec![
        // [duel], every ruleset: a semantic error carries its line:col and key (issue 46
        // example: no line:col today).
        at_value(gng, "[duel]", "max_rounds", "0", "matrix gng {}", &["[duel] max_rounds must be 1 to 10000, got 0"]),
        at_value(amc, "[duel]", "sweep_distances", "[nan, -1]", "matrix amc {}", &["[duel] sweep_distances"]),
        at_value(tgf, "[duel]", "distance", "501", "duel tgf regular-rifles elite-rifles {}", &["[duel] distance"]),
        at_value(vsgmr, "[duel]", "squad_spacing", "0", "matrix vsgmr {}", &["[duel] squad_spacing"]),
        at_value(gp, "[duel]", "sweep_target_error", "0.5", "report gunplay --out out {}", &["sweep_target_error"]),
        at_value(gng, "[duel]", "budget", "1e12", "fair-costs gng {}", &["[duel] budget"]),
        at_value(amc, "[duel]", "max_trials", "18446744073709551615", "matrix amc {}", &["max_trials"]),
        // [balance], every ruleset.
        at_value(gng, "[balance]", "tolerance", "0", "fair-costs gng {}", &["[balance] tolerance must be in (0, 0.5)"]),
        at_value(amc, "[balance]", "max_iterations", "1000", "fair-costs amc {}", &["[balance] max_iterations"]),
        at_value(tgf, "[balance]", "anchor", "\"nobody\"", "fair-costs tgf {}", &["[balance] anchor \"nobody\""]),
        at_value(vsgmr, "[balance]", "trials", "99", "fair-costs vsgmr {}", &["[balance] trials"]),
        at_value(gp, "[balance]", "cost_step", "-0.5", "fair-costs gunplay {}", &["[balance] cost_step"]),
        // [rules], every ruleset.
        at_value(gng, "[rules]", "activations_per_turn", "0", "matrix gng {}", &["activations_per_turn"]),
        at_value(amc, "[rules]", "melee_round_cap", "4294967295", "matrix amc {}", &["melee_round_cap"]),
        at_value(tgf, "[rules]", "casualty_share", "1.0", "matrix tgf {}", &["casualty_share must be in [0, 1)"]),
        at_value(vsgmr, "[rules]", "contact", "inf", "matrix vsgmr {}", &["[rules] contact"]),
        at_value(gp, "[rules]", "quick_move", "nan", "matrix gunplay {}", &["[rules] quick_move"]),
        // [skirmish], every ruleset (issue 46: rough_areas = 4000000000 ran without end).
        at_value(
            gng,
            "[skirmish]",
            "rough_areas",
            "4000000000",
            "skirmish gng {}",
            &["[skirmish] rough_areas must be 0 to 50"],
        ),
        at_value(gng, "[skirmish]", "cover_def", "100", "skirmish gng {}", &["[skirmish] cover_def"]),
        at_value(amc, "[skirmish]", "terrain_max", "51", "skirmish amc {}", &["[skirmish] terrain_max"]),
        at_value(tgf, "[skirmish]", "points", "1e12", "skirmish tgf {}", &["[skirmish] points"]),
        at_value(vsgmr, "[skirmish]", "random_max", "501", "skirmish vsgmr {}", &["[skirmish] random_max"]),
        at_value(gp, "[skirmish]", "characters", "0", "skirmish gunplay {}", &["[skirmish] characters"]),
        at_value(gp, "[skirmish]", "side_a", "[\"Nobody\"]", "skirmish gunplay {}", &["unknown loadout \"Nobody\""]),
        // Sections only some rulesets have.
        at_value(amc, "[army]", "points", "1e12", "skirmish amc {}", &["[army] points must be 10 to 10000 points"]),
        at_value(amc, "[army]", "vehicle_share", "2", "skirmish amc {}", &["[army] vehicle_share"]),
        at_value(amc, "[upgrades]", "distances", "[0]", "report amc --out out {}", &["[upgrades] distances"]),
        at_value(vsgmr, "[prices]", "distance", "0", "report vsgmr --out out {}", &["[prices] distance"]),
        at_value(tgf, "[co]", "cost", "-1", "matrix tgf {}", &["[co] cost"]),
        at_line(
            vsgmr,
            "\"Weapon Master\" = ",
            "\"Weapon Master\" = \"Nothing\"",
            19,
            "matrix vsgmr {}",
            &["[readings]"],
        ),
        // Lists of tables: units, weapons, qualities, upgrades, sample armies.
        at_value(amc, "[[upgrade]]", "cost", "-5", "matrix amc {}", &["upgrade \"Bayonets\": cost must be 0 to 1000"]),
        at_value(tgf, "[[unit]]", "soldiers", "0", "matrix tgf {}", &["unit \"Untrained Rifles\": soldiers must be"]),
        at_value(
            vsgmr,
            "[[unit]]",
            "figure",
            "\"dragon\"",
            "matrix vsgmr {}",
            &["figure \"Troop\": figure must be one of"],
        ),
        at_value(gp, "[[unit]]", "cost", "0", "matrix gunplay {}", &["unit \"Rifle\": cost must be a number from 0.1"]),
        at_value(
            gng,
            "name = \"Optical Sights\"",
            "cost",
            "-5",
            "skirmish gng {}",
            &["upgrade \"Optical Sights\": cost must be 0 to 10000"],
        ),
        at_line(amc, "transport = ", "transport = 99", 13, "matrix amc {}", &["transport must be 0 to 20"]),
        at_line(amc, "range = 6", "range = 1e9", 9, "matrix amc {}", &["weapon \"Bomb\": range"]),
        at_line(
            tgf,
            "shots = [1, 1, 1, 0, 0, 0]",
            "shots = [1, 1, 1, 0, 0, 99]",
            9,
            "matrix tgf {}",
            &["shots must be"],
        ),
        at_line(
            tgf,
            "hit = [\"+2\", \"+2\", \"+1\", \"-\", \"-\", \"-\"]",
            "hit = [\"+127\", \"+2\", \"+1\", \"-\", \"-\", \"-\"]",
            7,
            "matrix tgf {}",
            &["hit (close combat) must be a number from -20 to 20"],
        ),
        at_line(
            tgf,
            "cc = 4",
            "cc = 31",
            6,
            "matrix tgf {}",
            &["quality \"Untrained\": cc must be an integer from 0 to 30"],
        ),
        at_line(gp, "rof = 1", "rof = 0", 7, "matrix gunplay {}", &["weapon \"Pistol\": rof"]),
        at_line(
            vsgmr,
            "points = 23",
            "points = -1",
            10,
            "skirmish vsgmr {}",
            &["sample army \"Medieval Infantry\": points"],
        ),
        // Names: two ids alike, or no id at all (issue 46: "!!!" and "???" both reduce to "").
        at_line(
            gng,
            "name = \"Light Infantry\"",
            "name = \"riflemen\"",
            8,
            "matrix gng {}",
            &["unit \"riflemen\" and unit \"Riflemen\" have the same id"],
        ),
        at_line(
            gng,
            "name = \"Riflemen\"",
            "name = \"!!!\"",
            8,
            "matrix gng {}",
            &["unit name \"!!!\" has no letter or digit"],
        ),
        at_line(
            amc,
            "name = \"Recruits (10)\"",
            "name = \"recruits 5\"",
            8,
            "matrix amc {}",
            &["\"recruits 5\" and unit \"Recruits (5)\""],
        ),
        at_line(
            tgf,
            "name = \"Green\"",
            "name = \"untrained\"",
            8,
            "matrix tgf {}",
            &["quality \"untrained\" and quality \"Untrained\""],
        ),
        at_line(gp, "name = \"Pistol\"", "name = \"???\"", 8, "matrix gunplay {}", &["has no letter or digit"]),
        at_line(
            vsgmr,
            "name = \"Dwarves\"",
            "name = \"medieval-infantry\"",
            8,
            "skirmish vsgmr {}",
            &["sample army \"medieval-infantry\" and sample army \"Medieval Infantry\""],
        ),
        // A duplicate key is named (issue 46: reported without its name).
        at_line(gng, "max_rounds = ", "max_rounds = 100\nmax_rounds = 50", 0, "matrix gng {}", &[]),
    ]
    .into_iter()
    .map(fix_two_line_cases)
    .collect()
}

/// The cases above whose replacement adds a line: the error is on the added line.
fn fix_two_line_cases(mut c: Case) -> Case {
    let text = &c.files[0].1;
    if text.contains("max_rounds = 100\nmax_rounds = 50") {
        let line = text.lines().position(|l| l == "max_rounds = 50").unwrap() + 1;
        c.expect = vec![format!("bad.toml:{line}:1: "), "duplicate key \"max_rounds\" in [duel]".into()];
    }
    c
}

/// Whole cost lists: more units than the matrices hold (at the first unit past the cap), and
/// none at all (at the start of the file).
fn cost_list_corpus() -> Vec<Case> {
    let text = shipped("gunplay.toml");
    let shipped_units = text.matches("[[unit]]").count();
    let mut many = text.clone();
    let mut past_cap = 0;
    for k in 0..=200 - shipped_units {
        if shipped_units + k == 200 {
            past_cap = many.lines().count() + 1; // the header of the 201st unit
        }
        many.push_str(&format!(
            "\n[[unit]]\nname = \"Extra {k}\"\ncost = 10\nfirearm = \"Rifle\"\nmelee = \"Knife\"\n"
        ));
    }
    let (start, end) = (text.find("[[unit]]").unwrap(), text.find("[balance]").unwrap());
    let none = format!("unit = []\n{}{}", &text[..start], &text[end..]);
    // VSGMR: one sample army more than the report plays, at the first past the cap.
    let vsgmr = shipped("vsgmr.toml");
    let first = vsgmr.find("[[army]]").unwrap();
    let block = &vsgmr[first..first + 8 + vsgmr[first + 8..].find("[[army]]").unwrap()];
    let mut armies = vsgmr.clone();
    let mut army_past_cap = 0;
    for k in vsgmr.matches("[[army]]").count()..=100 {
        if k == 100 {
            army_past_cap = armies.lines().count() + 2;
        }
        armies.push_str(&format!(
            "\n{}",
            block.replace("name = \"Medieval Infantry\"", &format!("name = \"Extra {k}\""))
        ));
    }
    // AMC: a unit named like another's upgraded entry ("Recruits (5) + Bayonets"), at the name
    // of the unit whose entry collides.
    let amc = shipped("army-men-combat.toml");
    let recruits = amc.lines().position(|l| l == "name = \"Recruits (5)\"").unwrap() + 1;
    let amc = amc.replace("name = \"Gunners (1)\"", "name = \"Recruits (5) Bayonets\"");
    vec![
        with_file(
            case(
                "skirmish vsgmr --config bad.toml",
                &[&format!("bad.toml:{army_past_cap}:1: "), "101 sample armies ([[army]]); at most 100"],
            ),
            "bad.toml",
            &armies,
        ),
        with_file(
            case(
                "matrix amc --config bad.toml",
                &[
                    &format!("bad.toml:{recruits}:8: "),
                    "entry \"Recruits (5) + Bayonets\" and entry \"Recruits (5) Bayonets\" have the same id",
                ],
            ),
            "bad.toml",
            &amc,
        ),
        with_file(
            case(
                "matrix gunplay --config bad.toml",
                &[&format!("bad.toml:{}:1: ", past_cap + 1), "the cost list has 201 units; at most 200"],
            ),
            "bad.toml",
            &many,
        ),
        with_file(
            case("matrix gunplay --config bad.toml", &["bad.toml:1:1: the cost list has no [[unit]] entries"]),
            "bad.toml",
            &none,
        ),
    ]
}

fn command_corpus() -> Vec<Case> {
    let mut c = vec![
        // Issue 46's examples on the command line.
        case(
            "duel gng riflemen tank --optimal --distance 0.5",
            &["--optimal: the start distance 0.5 must be at least 1"],
        ),
        case("duel tgf regular-rifles elite-rifles --optimal --distance 1.5", &["must be at least 2"]),
        case("matrix gng --distance 6 --trials 100", &["--distance is for --optimal"]),
        case(
            "matrix gng --set duel.max_rounds=0",
            &["--set duel.max_rounds=0: [duel] max_rounds must be 1 to 10000, got 0"],
        ),
        case(
            "matrix gng --set duel.sweep_distances=[nan,-1]",
            &["--set duel.sweep_distances=[nan,-1]: [duel] sweep_distances"],
        ),
        case(
            "report gng --out out --set duel.sweep_distances=[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21]",
            &["at most 20 distances"],
        ),
        case(
            "skirmish amc --set army.points=1e12",
            &["--set army.points=1e12: [army] points must be 10 to 10000 points"],
        ),
        case(
            "skirmish gng --set skirmish.rough_areas=4000000000",
            &["--set skirmish.rough_areas=4000000000: [skirmish] rough_areas"],
        ),
        case(
            "skirmish gng --set skirmish.points=10000 --set unit.light-infantry.cost=1",
            &["[skirmish] points 10000 buys 10000 of \"Light Infantry\"", "at most 500 units"],
        ),
        case(
            "matrix gng --set duel.budget=5000 --set unit.light-infantry.cost=1",
            &["[duel] budget 5000 buys 5000", "at most 200"],
        ),
        case("skirmish gng --target-error 0.01", &["--target-error is for duels"]),
        case("duel gng riflemen tank --exact --trials 5", &["--trials is for Monte Carlo duels; --exact"]),
        case(
            "duel gng riflemen tank --optimal --target-error 0.01",
            &["--target-error is for Monte Carlo duels; --optimal"],
        ),
        case("--threads 100000 duel gng riflemen tank", &["--threads must be at most 1024"]),
        case(
            "duel gng riflemen tank --trials 100 --shard 1/10001 --tallies-out t.json",
            &["--shard must be K/N with 1 <= K <= N <= 10000"],
        ),
        case("skirmish gunplay --armies , ,", &["--armies: \",\" names no loadout"]),
        case("skirmish gunplay --armies Rifle ,", &["names no loadout"]),
        case("rules gng --config configs", &["configs", "cannot read config"]),
        case("matrix gng --config /dev/null", &["/dev/null"]),
        case("fair-costs gng --set balance.trials=0", &["--set balance.trials=0: [balance] trials"]),
        case("fair-costs amc --set upgrades.fair_trials=-1", &["--set upgrades.fair_trials=-1"]),
        case("report vsgmr --out out --set prices.report_trials=1e20", &["--set prices.report_trials=1e20"]),
        case(
            "skirmish tgf --set skirmish.max_turns=0",
            &["--set skirmish.max_turns=0: [skirmish] max_turns must be 1 to 100"],
        ),
        case("skirmish vsgmr --set skirmish.ambush_points=[0,40] --mission ambush", &["[skirmish] ambush_points"]),
        case("matrix gunplay --set rules.contact=-1", &["--set rules.contact=-1: [rules] contact"]),
        // Output locations are checked before any work (issue 46: --out at a file simulated
        // for minutes first).
        case("report gng --out afile", &["--out afile: afile is a file, not a directory"]),
        case("report gng --out afile/deeper", &["is a file, not a directory"]),
        case("report gng --out out2", &["out2/guns-n-grenades is a file, not a directory"]),
        case("skirmish gng --replay nowhere/x.svg", &["--replay nowhere/x.svg: its directory nowhere does not exist"]),
        case("skirmish gng --replay afile/x.svg", &["is not a directory"]),
        case("fair-costs gng --write out", &["--write out: is a directory"]),
        case("fair-costs gng --write /dev/null", &["--write /dev/null: is not a regular file"]),
        case(
            "duel gng riflemen tank --trials 100 --shard 1/2 --tallies-out /dev/null",
            &["--tallies-out /dev/null: is not a regular file"],
        ),
        case("matrix gng --set unit.riflemen=3", &["--set unit.riflemen=3: unknown unit key \"\""]),
        case("check gng --markdown nowhere/x.md --baseline nowhere", &["--markdown nowhere/x.md"]),
        case(
            "duel gng riflemen tank --trials 100 --shard 1/2 --tallies-out nowhere/t.json",
            &["--tallies-out nowhere/t.json"],
        ),
    ];
    for x in &mut c {
        x.files.push(("afile".into(), "not a directory".into()));
        x.files.push(("out/.keep".into(), String::new()));
        x.files.push(("out2/guns-n-grenades".into(), "a file where the report's directory goes".into()));
    }
    c
}

/// Army files: counts checked against the points before any army is built, names that collide.
fn army_corpus() -> Vec<Case> {
    let mut c = Vec::new();
    for (id, unit, file) in [
        ("guns-n-grenades", "Riflemen", "the mission's points"),
        ("army-men-combat", "\"Riflemen (10)\"", "[army] points"),
        ("grunt-factor", "\"Elite Rifles\"", "[skirmish] points"),
    ] {
        c.push(with_file(
            case(&format!("skirmish {id} --armies big.toml big.toml"), &["big.toml:2:", "with 4294967295", file]),
            "big.toml",
            &format!("[units]\n{unit} = 4294967295\n"),
        ));
        let lower = unit.to_lowercase();
        c.push(with_file(
            case(&format!("skirmish {id} --armies twice.toml twice.toml"), &["twice.toml:", "name the same"]),
            "twice.toml",
            &format!("[units]\n{unit} = 1\n{lower} = 1\n"),
        ));
    }
    // Whole-army rules, at the [units] table.
    for (id, army, expect) in [
        ("gng", "Snipers = 7", "it has 7 Limited units"),
        ("amc", "Jeep = 4", "vehicles cost 160 points"),
        ("tgf", "", "the force has no squads"),
    ] {
        c.push(with_file(
            case(&format!("skirmish {id} --armies army.toml army.toml"), &["army.toml:1:1: ", expect]),
            "army.toml",
            &format!("[units]\n{army}\n"),
        ));
    }
    c.push(with_file(
        case("skirmish gng --armies empty.toml empty.toml", &["empty.toml:2:9: ", "unknown unit \"!!!\""]),
        "empty.toml",
        "[units]\n\"!!!\" = 1\n",
    ));
    c
}

/// The committed GnG baseline, changed by `edit`, as `base/guns-n-grenades/summary.json`, and
/// a `check` of it: the error must name the file and `field`.
fn baseline_case(field: &str, edit: impl Fn(&mut Value)) -> Case {
    baseline_case_at("base/guns-n-grenades/summary.json: ", field, edit)
}

/// [`baseline_case`] with the place the error must start with.
fn baseline_case_at(place: &str, field: &str, edit: impl Fn(&mut Value)) -> Case {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/guns-n-grenades/summary.json");
    let mut v: Value = serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
    edit(&mut v);
    with_file(
        case("check gng --baseline base", &[place, field]),
        "base/guns-n-grenades/summary.json",
        &serde_json::to_string(&v).unwrap(),
    )
}

fn baseline_corpus() -> Vec<Case> {
    vec![
        baseline_case("precision.target_error must be in (0, 0.5), got 0", |v| {
            v["precision"]["target_error"] = 0.0.into();
        }),
        baseline_case("precision.max_trials_per_matchup", |v| {
            v["precision"]["max_trials_per_matchup"] = 0.into();
        }),
        baseline_case("matrix_1v1.cells[0][1].a_score", |v| {
            v["matrix_1v1"]["cells"][0][1]["a_score"]["lo"] = 0.9.into();
            v["matrix_1v1"]["cells"][0][1]["a_score"]["hi"] = 0.1.into();
        }),
        baseline_case("matrix_points.cells must be 12 rows of 12", |v| {
            v["matrix_points"]["cells"].as_array_mut().unwrap().truncate(3);
        }),
        baseline_case("matrix_points.cells[2][2].a_wins", |v| {
            v["matrix_points"]["cells"][2][2]["a_wins"]["value"] = 500.3.into();
        }),
        baseline_case("matrix_1v1.units[0] \"sniper\" is not a unit", |v| {
            v["matrix_1v1"]["units"][0] = "sniper".into();
        }),
        baseline_case("units[1].id \"riflemen\" is empty or repeated", |v| {
            v["units"][1]["id"] = "riflemen".into();
        }),
        baseline_case_at("base/guns-n-grenades/summary.json:1:", "not a pointsworth summary.json", |v| {
            v["units"] = Value::Null;
        }),
    ]
}

/// Two valid tally files of `duel gng riflemen tank --trials 600` (shards 1/2 and 2/2) as JSON
/// values, made once by the binary.
pub(crate) fn shards() -> [Value; 2] {
    let dir = tempfile::tempdir().unwrap();
    crate::bad_inputs::copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("configs"), &dir.path().join("configs"));
    for k in 1..=2 {
        Command::cargo_bin("pointsworth")
            .unwrap()
            .current_dir(dir.path())
            .args(["duel", "gng", "riflemen", "tank", "--trials", "600", "--shard", &format!("{k}/2")])
            .args(["--tallies-out", &format!("s{k}.json")])
            .assert()
            .success();
    }
    [1, 2].map(|k| serde_json::from_str(&fs::read_to_string(dir.path().join(format!("s{k}.json"))).unwrap()).unwrap())
}

/// A merge of the two shards after `edit`: it must fail naming `expect`.
fn tally_case(shards: &[Value; 2], expect: &[&str], edit: impl Fn(&mut [Value; 2])) -> Case {
    let mut s = shards.clone();
    edit(&mut s);
    let mut c = case("merge s1.json s2.json", expect);
    for (k, v) in s.iter().enumerate() {
        c.files.push((format!("s{}.json", k + 1), serde_json::to_string(v).unwrap()));
    }
    c
}

fn first_tally(v: &mut Value) -> &mut Value {
    v["tallies"].as_object_mut().unwrap().values_mut().next().unwrap()
}

fn tally_corpus() -> Vec<Case> {
    let s = shards();
    vec![
        // Issue 46: more wins than trials printed "wins 50034.8%".
        tally_case(&s, &["s1.json: tallies.", "a_wins 50000 + b_wins"], |s| {
            first_tally(&mut s[0])["a_wins"] = 50000.into();
        }),
        // Issue 46: a forged command that is itself a merge recursed until the stack overflowed.
        tally_case(&s, &["s1.json: args `merge s1.json s2.json` is not a report, duel or matrix command"], |s| {
            for v in s.iter_mut() {
                v["args"] = serde_json::json!(["merge", "s1.json", "s2.json"]);
            }
        }),
        // Issue 46: a tally the command does not play panicked the replay.
        tally_case(&s, &["the merged tallies have no matchup"], |s| {
            for v in s.iter_mut() {
                let t = first_tally(v).clone();
                v["tallies"] = serde_json::json!({ "0000000000000000@12/15/70/one": t });
            }
        }),
        tally_case(&s, &["the shards add up to", "not the 600 of --trials"], |s| {
            let t = first_tally(&mut s[1]);
            let n = t["trials"].as_u64().unwrap();
            t["trials"] = (n + 1).into();
            t["draws"] = (t["draws"].as_u64().unwrap() + 1).into();
        }),
        tally_case(&s, &["the counts overflow"], |s| {
            for v in s.iter_mut() {
                first_tally(v)["turns"] = u64::MAX.into();
            }
        }),
        tally_case(&s, &["a_first", "more than the"], |s| {
            first_tally(&mut s[0])["a_first"] = 1_000_000.into();
        }),
        tally_case(&s, &["is not the command of a shard run"], |s| {
            for v in s.iter_mut() {
                v["args"] = serde_json::json!(["duel", "gng", "riflemen", "tank"]);
            }
        }),
        // A forged shard count: counting the missing shards ran out of memory.
        tally_case(&s, &["s1.json: --shard must be K/N", "got \"1/18446744073709551615\""], |s| {
            s[0]["shard"] = "1/18446744073709551615".into();
        }),
        tally_case(&s, &["s1.json", "not a pointsworth tally file"], |s| {
            s[0]["tallies"] = serde_json::json!([1, 2, 3]);
        }),
    ]
}

#[test]
fn hostile_inputs_exit_2_with_the_place_and_leave_no_file() {
    let mut all = config_corpus();
    all.extend(cost_list_corpus());
    all.extend(command_corpus());
    all.extend(army_corpus());
    all.extend(baseline_corpus());
    all.extend(tally_corpus());
    assert!(all.len() >= 100, "{} cases", all.len());
    run_corpus(&all);
}

/// `matrix --optimal` at a distance no pair can start from refuses every pair with the reason
/// (a report, not an error), where `duel --optimal` panicked before (issue 46).
#[test]
fn optimal_refusals_are_reported_not_panicked() {
    let dir = tempfile::tempdir().unwrap();
    crate::bad_inputs::copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("configs"), &dir.path().join("configs"));
    let out = Command::cargo_bin("pointsworth")
        .unwrap()
        .current_dir(dir.path())
        .args(["matrix", "gng", "--optimal", "--distance", "0.5"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("no pair solved") && text.contains("must be at least 1"), "{text}");
}

/// Huge counts fail fast under a memory cap: an army file of 4294967295 Riflemen (34 GB as an
/// army) and a VSGMR sample army of 4000000000 figures (killed at 24 GB before) are refused
/// before anything that size is built, within seconds, in 1 GB of address space (`ulimit -v`
/// in `sh`: dash, bash and busybox have it).
#[test]
fn huge_counts_fail_fast_under_a_memory_cap() {
    const CAP: &str = "ulimit -v 1000000 && ";
    let cap = std::process::Command::new("sh").args(["-c", &format!("{CAP}ulimit -v")]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&cap.stdout).trim(), "1000000", "the cap is in force");
    let dir = tempfile::tempdir().unwrap();
    crate::bad_inputs::copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("configs"), &dir.path().join("configs"));
    fs::write(dir.path().join("big.toml"), "[units]\nRiflemen = 4294967295\n").unwrap();
    let vsgmr = shipped("vsgmr.toml").replace("count = 8, points = 2", "count = 4000000000, points = 2");
    fs::write(dir.path().join("vbig.toml"), vsgmr).unwrap();
    let bin = assert_cmd::cargo::cargo_bin("pointsworth");
    for (args, expect) in [
        (vec!["skirmish", "gng", "--armies", "big.toml", "big.toml"], "with 4294967295"),
        (
            vec!["skirmish", "vsgmr", "--config", "vbig.toml", "--armies", "Medieval Infantry", "Dwarves"],
            "count must be",
        ),
        (vec!["skirmish", "amc", "--set", "army.points=1e12"], "[army] points"),
        (vec!["skirmish", "gng", "--set", "skirmish.rough_areas=4000000000"], "rough_areas"),
    ] {
        let started = Instant::now();
        let out = std::process::Command::new("sh")
            .args(["-c", &format!("{CAP}exec \"$0\" \"$@\"")])
            .arg(&bin)
            .args(&args)
            .current_dir(dir.path())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(expect), "{args:?}: {err}");
        assert!(started.elapsed() < Duration::from_secs(20), "{args:?} took {:?}", started.elapsed());
    }
}

/// A run killed outright during its write phase leaves a temporary file; the next run that
/// writes into that directory removes it (issue 46: a 0-byte hidden file stayed forever). The
/// killed run is real: a shard run is killed with SIGKILL as soon as its temporary tally file
/// appears, or, if it finished first, a stale file of a dead process stands in for it.
#[test]
fn a_killed_runs_temporary_file_is_swept_by_the_next_run() {
    let dir = tempfile::tempdir().unwrap();
    crate::bad_inputs::copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("configs"), &dir.path().join("configs"));
    fs::create_dir(dir.path().join("out")).unwrap();
    let temps = |d: &Path| -> Vec<String> {
        fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with(".pointsworth-tmp-"))
            .collect()
    };
    let bin = assert_cmd::cargo::cargo_bin("pointsworth");
    let mut child = std::process::Command::new(&bin)
        .current_dir(dir.path())
        .args(["duel", "gng", "riflemen", "tank", "--trials", "2000", "--shard", "1/2", "--tallies-out", "out/t.json"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    let deadline = Instant::now() + Duration::from_secs(30);
    while temps(&dir.path().join("out")).is_empty() && Instant::now() < deadline {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_micros(200));
    }
    let _ = child.kill();
    child.wait().unwrap();
    if temps(&dir.path().join("out")).is_empty() {
        // The write was too quick to catch: leave what a kill then leaves.
        fs::write(dir.path().join(format!("out/.pointsworth-tmp-{pid}-0.t.json")), b"").unwrap();
    }
    assert!(!temps(&dir.path().join("out")).is_empty());
    Command::cargo_bin("pointsworth")
        .unwrap()
        .current_dir(dir.path())
        .args(["duel", "gng", "riflemen", "tank", "--trials", "100", "--shard", "2/2", "--tallies-out", "out/u.json"])
        .assert()
        .success();
    assert!(temps(&dir.path().join("out")).is_empty(), "left: {:?}", temps(&dir.path().join("out")));
    assert!(dir.path().join("out/u.json").exists());
}
