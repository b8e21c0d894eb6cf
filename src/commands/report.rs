//! `pointsworth report`: the report's steps for each ruleset, the files and the index.
//!
//! Why the steps are here and not in `crate::report`: the report module writes finished
//! analyses; deciding what to run (and what a `--shard` run skips) is a command's job.

use std::time::Instant;

use serde_json::json;

use super::common::{
    AppError, Loaded, check_sim_args, efficiency_table, load, settings_for, stdout_write, warnings_text,
};
use super::progress::Progress;
use crate::analysis::{RulesetAnalysis, analyse};
use crate::cli::ReportArgs;
use crate::rulesets::{Ruleset, implemented};
use crate::with_ruleset;

/// Runs `pointsworth report`: for each ruleset, the duel matrices and sweeps, the fair costs,
/// the skirmishes, the ruleset's studies and optimal play ([`SECTIONS`], in that order), then
/// the report files and the index.
pub fn run(args: ReportArgs) -> Result<(), AppError> {
    check_sim_args(&args.sim)?;
    let ids: Vec<String> = if args.rulesets.is_empty() {
        implemented().into_iter().filter(|id| crate::shipped::has_default(id)).map(String::from).collect()
    } else {
        args.rulesets.clone()
    };
    if ids.is_empty() {
        return Err(AppError::Usage(format!(
            "no ruleset to report: the configs/ folder here has no RULESET.toml for any of {} (name one to use its built-in config)",
            implemented().join(", ")
        )));
    }
    if args.sim.config.is_some() && ids.len() != 1 {
        return Err(AppError::Usage("--config needs exactly one RULESET".into()));
    }
    // Read and validate everything first: bad input must cost nothing.
    if crate::sim::shard::recording().is_none() {
        let subdirs: Vec<&str> = ids.iter().map(|id| crate::rulesets::AnyRuleset::check_id(id).unwrap_or(id)).collect();
        super::outputs::check_dir("--out", &args.out, &subdirs)?;
    }
    if let Some(path) = std::env::var_os("POINTSWORTH_SECTION_SECONDS") {
        super::outputs::check_file("POINTSWORTH_SECTION_SECONDS", std::path::Path::new(&path))?;
    }
    let loaded: Vec<Loaded> =
        ids.iter().map(|id| load(id, args.sim.config.as_ref(), &args.sim.set)).collect::<Result<_, _>>()?;
    // The result cache beside the reports (unless --no-cache, or a shard run, which writes
    // tallies only); see crate::cache.
    if crate::sim::shard::recording().is_none() {
        crate::cache::install(Some(&args.out.join(".cache")));
    }
    let baselines = match &args.baseline {
        Some(dir) => loaded
            .iter()
            .map(|l| super::baseline::Baseline::read(dir, with_ruleset!(&l.ruleset, r => r.id())).map(Some))
            .collect::<Result<Vec<_>, _>>()?,
        None => loaded.iter().map(|_| None).collect(),
    };
    let started = Instant::now();
    let mut analyses = Vec::new();
    let mut sections = SectionSeconds::default();
    for l in &loaded {
        let id = with_ruleset!(&l.ruleset, r => r.id());
        let mut progress = Progress::new(format!("report {id}"), &SECTIONS);
        let pb = progress.phase(SECTIONS[0]);
        let mut clock = sections.start(id);
        let mut analysis = with_ruleset!(&l.ruleset, r => {
            let s = settings_for(r, &args.sim);
            let path = l.source.path.display().to_string();
            analyse(r, &s, &path, &l.source.hash_hex(), &pb)
        });
        analysis.config_text = Some(l.source.text.clone());
        clock.lap("duel matrices and sweeps");
        // A shard writes only the tallies of the matrices and the sweep (keyed simulations);
        // the sections below record none, so a shard skips them and the merge runs them.
        if crate::sim::shard::recording().is_some() {
            progress.finish();
            continue;
        }
        // The bisection cannot be split by batches: the merge runs it in full.
        let pb = progress.phase(SECTIONS[1]);
        // The squads play as in the points-matched matrix: the tactic game's mixes if solved (the
        // fair costs and the squads' rollout below).
        let mixes =
            with_ruleset!(&l.ruleset, r => analysis.squads_game.as_ref().map(|g| std::sync::Arc::new(g.mixes(r))));
        analysis.fair_costs = Some(crate::sim::shard::unsharded(
            || with_ruleset!(&l.ruleset, r => super::fair_costs::for_report(r, &args.sim, mixes.clone(), &pb)),
        ));
        clock.lap("fair costs");
        progress.phase_with_own_bars(SECTIONS[2]);
        analysis.skirmish = super::skirmish::for_report(&l.ruleset, args.sim.seed);
        clock.lap("skirmishes");
        analysis
            .warnings
            .extend(analysis.skirmish.as_ref().and_then(crate::analysis::skirmish::mission_verdict_warning));
        analysis.warnings.extend(analysis.skirmish.as_ref().and_then(crate::analysis::skirmish::metagame_warning));
        analysis.warnings.extend(analysis.skirmish.as_ref().and_then(crate::analysis::skirmish::standoff_warning));
        analysis.warnings.extend(analysis.skirmish.as_ref().and_then(crate::analysis::skirmish::rollout_warning));
        // Nor can the studies' price searches (VSGMR's attribute prices, AMC's upgrade prices):
        // their next price depends on earlier results, so they too run in full.
        let engine = crate::analysis::engine::AnalysisEngine;
        let pb = progress.phase_uncounted(SECTIONS[3]);
        analysis.studies = crate::sim::shard::unsharded(
            || with_ruleset!(&l.ruleset, r => r.studies(&engine, &analysis.findings(), args.sim.seed, &pb)),
        );
        clock.lap("studies");
        // Optimal play is exact: the merge solves it.
        let pb = progress.phase(SECTIONS[4]);
        with_ruleset!(&l.ruleset, r => if r.duel_settings().optimal_play {
            let o = crate::analysis::optimal_play::analyse(r, analysis.distance, &pb);
            analysis.warnings.extend(crate::analysis::optimal_play::warning(&o, &analysis.distance_unit, &analysis.units));
            // 1v1 numbers are the game's value: the 1v1 matrix and mean scores under optimal play.
            crate::analysis::optimal_play::play_1v1(&mut analysis, &o);
            // And so are the 1v1 cells by start distance (Gunplay's chart).
            if let (Some(w), Some(g)) = (analysis.win_rate_by_distance.as_mut(), r.distance_grounds()) {
                crate::analysis::optimal_play::play_by_distance(&g, w, &pb);
            }
            // How exploitable the scripted tactic is in squads: a rollout best response in the
            // pairs it plays worst one against one.
            // Against the squads' play: the tactic game's equilibrium where it was played.
            analysis.squads_rollout =
                crate::analysis::squads_rollout::analyse(r, &o, mixes.as_deref(), args.sim.seed, &pb);
            analysis.warnings.extend(analysis.squads_rollout.as_ref().and_then(|s| {
                crate::analysis::squads_rollout::warning(s, &analysis.distance_unit)
            }));
            analysis.optimal_play = Some(o);
        });
        clock.lap("optimal play");
        // Its quick matrices are not the shards' tallies: the merge runs it in full.
        let pb = progress.phase(SECTIONS[5]);
        analysis.readings = crate::sim::shard::unsharded(|| {
            with_ruleset!(&l.ruleset, r => {
                let s = settings_for(r, &args.sim);
                super::rules::readings(r, &l.source, &args.sim.set, &s, analysis.optimal_play.as_ref(), &pb)
            })
        });
        clock.lap("readings");
        sections.add(clock);
        progress.finish();
        analyses.push(analysis);
    }
    if crate::sim::shard::replay_error().is_none() {
        sections.write_if_asked()?;
    }
    if crate::sim::shard::recording().is_some() {
        return Ok(()); // a shard's numbers are partial: it writes only its tallies
    }
    if let Some(why) = crate::sim::shard::replay_error() {
        return Err(AppError::Usage(why)); // a merge whose tallies lack a matchup writes nothing
    }
    let mut text = String::new();
    for (a, base) in analyses.iter().zip(&baselines) {
        let dir = args.out.join(&a.ruleset);
        crate::report::write_ruleset_report(a, &dir).map_err(AppError::Other)?;
        text.push_str(&crate::report::verdict::terminal(a));
        if let (Some(b), Some(bdir)) = (base, &args.baseline) {
            text.push_str(&super::baseline::before_after(b, bdir, a, super::baseline::TOLERANCE));
        }
        text.push_str(&format!(
            "{} — points efficiency ({} points per side, {} {} apart, seed {})\n{}\n{}wrote {} and {}\n\n",
            a.title,
            a.budget,
            a.distance,
            a.distance_unit,
            a.seed,
            efficiency_table(a),
            warnings_text(a),
            dir.join("report.md").display(),
            dir.join("report.html").display()
        ));
    }
    let index = crate::report::write_index(&index_entries(&analyses, &args.out), &args.out).map_err(AppError::Other)?;
    if args.json {
        return stdout_write(&written_json(&analyses, &args.out, &index, started.elapsed().as_secs_f64())?);
    }
    text.push_str(&format!("wrote {} in {:.1} s\n", index.display(), started.elapsed().as_secs_f64()));
    stdout_write(&crate::term::wrap(&text))
}

/// `report --json`: each ruleset's directory and its `summary.json` as written, the index's
/// path and the run's wall-clock seconds, as one pretty-printed object.
fn written_json(
    analyses: &[RulesetAnalysis],
    out: &std::path::Path,
    index: &std::path::Path,
    seconds: f64,
) -> Result<String, AppError> {
    let mut rulesets = Vec::new();
    for a in analyses {
        let dir = out.join(&a.ruleset);
        let path = dir.join("summary.json");
        let text = crate::config::read_text(&path)
            .map_err(|source| AppError::Io { context: format!("reading {}", path.display()), source })?;
        let summary: serde_json::Value = serde_json::from_str(&text).map_err(|e| AppError::Other(e.into()))?;
        rulesets.push(json!({ "ruleset": a.ruleset, "dir": dir, "summary": summary }));
    }
    Ok(format!("{:#}\n", json!({ "rulesets": rulesets, "index": index, "seconds": seconds })))
}

/// Index entries for this run's rulesets, in the order of the known-rulesets list.
/// The index lines: the rulesets just analysed, plus every other ruleset whose report is
/// already in `out` (read from its `summary.json`), so a report of one ruleset keeps the others
/// in `README.md`. Ordered as `RULESETS`.
fn index_entries(analyses: &[RulesetAnalysis], out: &std::path::Path) -> Vec<crate::report::IndexEntry> {
    let mut entries: Vec<crate::report::IndexEntry> = analyses.iter().map(Into::into).collect();
    for (id, _) in crate::rulesets::RULESETS {
        if entries.iter().any(|e| e.ruleset == *id) {
            continue;
        }
        if let Some(e) = index_entry_from_summary(&out.join(id).join("summary.json")) {
            entries.push(e);
        }
    }
    entries.sort_by_key(|e| crate::rulesets::RULESETS.iter().position(|r| r.0 == e.ruleset));
    entries
}

/// An index line from an earlier run's `summary.json`; `None` when it is missing or unreadable.
fn index_entry_from_summary(path: &std::path::Path) -> Option<crate::report::IndexEntry> {
    crate::report::IndexEntry::from_summary(path)
}

/// The seconds each section of `report` took per ruleset, written as JSON
/// (`{"RULESET": {"SECTION": seconds, ...}, ...}`, keys sorted; [`SECTIONS`] in the order they
/// run) to the file named by the environment variable `POINTSWORTH_SECTION_SECONDS` when it is
/// set: `benches/table.rs` reads it for docs/performance.md's benchmark table (issue 18: the report's
/// sections' seconds). Wall-clock seconds; nothing is written without the variable, and a
/// `--shard` run writes `{}` (it runs only the first section, for its tallies).
#[derive(Default)]
struct SectionSeconds {
    rulesets: Vec<(String, Vec<(&'static str, f64)>)>,
}

/// The sections of a ruleset's report, in the order they run.
pub const SECTIONS: [&str; 6] =
    ["duel matrices and sweeps", "fair costs", "skirmishes", "studies", "optimal play", "readings"];

/// One ruleset's sections being timed ([`SectionSeconds::start`]).
struct SectionClock {
    ruleset: String,
    last: Instant,
    laps: Vec<(&'static str, f64)>,
}

impl SectionSeconds {
    fn start(&self, ruleset: &str) -> SectionClock {
        SectionClock { ruleset: ruleset.to_string(), last: Instant::now(), laps: Vec::new() }
    }

    fn add(&mut self, clock: SectionClock) {
        self.rulesets.push((clock.ruleset, clock.laps));
    }

    /// Writes the JSON if `POINTSWORTH_SECTION_SECONDS` names a file (atomically); an error
    /// if it cannot be written.
    fn write_if_asked(&self) -> Result<(), AppError> {
        let Some(path) = std::env::var_os("POINTSWORTH_SECTION_SECONDS") else { return Ok(()) };
        let mut all = serde_json::Map::new();
        for (id, laps) in &self.rulesets {
            let sections = laps.iter().map(|&(name, s)| (name.to_string(), json!(s))).collect();
            all.insert(id.clone(), serde_json::Value::Object(sections));
        }
        let text = serde_json::to_string_pretty(&all).map_err(|e| AppError::Other(e.into()))?;
        crate::report::write_atomic(std::path::Path::new(&path), text.as_bytes()).map_err(|source| AppError::Io {
            context: format!("writing the section seconds to {}", std::path::Path::new(&path).display()),
            source,
        })
    }
}

impl SectionClock {
    /// Ends the section `name`, the next of [`SECTIONS`], now.
    fn lap(&mut self, name: &'static str) {
        debug_assert_eq!(name, SECTIONS[self.laps.len()], "sections lap in the order of SECTIONS");
        let now = Instant::now();
        self.laps.push((name, (now - self.last).as_secs_f64()));
        self.last = now;
    }
}

#[cfg(test)]
mod index_tests {
    use std::path::Path;

    /// A report of one ruleset keeps the other rulesets' lines, read from their summary.json.
    #[test]
    fn the_index_keeps_rulesets_reported_earlier() {
        let e = super::index_entry_from_summary(Path::new("reports/guns-n-grenades/summary.json"))
            .expect("the committed GnG baseline has a readable summary.json");
        assert_eq!(e.ruleset, "guns-n-grenades");
        assert_eq!(e.units, 12);
        let (top, bottom) = (e.top.unwrap(), e.bottom.unwrap());
        assert!(top.efficiency.value > bottom.efficiency.value);
        let all = super::index_entries(&[], Path::new("reports"));
        let ids: Vec<&str> = all.iter().map(|e| e.ruleset.as_str()).collect();
        assert_eq!(ids.first(), Some(&"guns-n-grenades"), "RULESETS order: {ids:?}");
        assert!(ids.contains(&"gunplay"), "{ids:?}");
        assert!(super::index_entry_from_summary(Path::new("reports/no-such-ruleset/summary.json")).is_none());
    }
}
