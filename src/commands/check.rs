//! `pointsworth check`: balance regression against a committed baseline.
//!
//! Why it works this way: a designer's pull request that changes one cost should show which
//! units' balance moved, and fail only when it moved for real. Re-running with the
//! baseline's seed and settings reproduces an unchanged config's numbers exactly, but
//! `--quick` (coarser precision) and harmless edits (a reordered unit changes which side of
//! a pair is simulated, hence the dice) give numbers that differ by noise. So a metric is
//! flagged only when its change is
//!
//! 1. statistically significant: a two-proportion z-test with unpooled variance,
//!    `z = (new − old) / √(se_old² + se_new²)`, its two-sided p-values corrected with Holm's
//!    step-down procedure over all metrics compared in the run, those of every ruleset checked
//!    together (family-wise error 5% for the whole run, so checking five rulesets does not
//!    raise the chance of a false alarm); and
//! 2. larger than `--tolerance` percentage points.
//!
//! A quick re-run shares its first batches with the baseline (same seed, same streams), so
//! the two samples overlap; treating them as independent overstates the variance of the
//! difference, which makes the test conservative, never trigger-happy.
//!
//! Metrics compared, matched by unit id (so reordering units changes nothing):
//! points efficiency and 1v1 mean score per unit, and the row unit's score in every pair of
//! distinct units of the points-matched matrix and of the 1v1 matrix. Where the baseline's 1v1
//! matrix was played under optimal play (`report` does so for a ruleset with the optimal-play
//! game: [`crate::analysis::optimal_play::play_1v1`]), the check solves it again the same way:
//! exact values, with no interval, so any change beyond `--tolerance` is flagged. The
//! baseline folder's result cache (`BASELINE/.cache/`, which `report` made there) spares the
//! solves of an unchanged game; `--no-cache` bypasses it. The distance sweep is
//! a chart at half the precision and seven times the cost; it is not re-run. Units added to
//! or removed from the cost list fail the check (every efficiency is a mean over the field,
//! so the baseline no longer applies): accept them with `--update`.
//!
//! A baseline made with a fixed trial count (`report --trials N` alone, or `merge` of shards)
//! records `precision.fixed_trials`, and the check re-runs it the same way: exactly N trials
//! per matchup (`--quick`: N / 4), not the stopping rule.
//!
//! Which way is better. Points efficiency and a points-matched score are fair at 50% (equal
//! points, even odds), so each flagged one is classed *toward balance* (closer to 50%) or
//! *away*; a 1v1 score has no fair value (the units' costs differ) and is only *moved*. A cost
//! edit is classed against the baseline's fair cost (`fair_costs.csv`, when the baseline has
//! one). The ruleset's verdict does not fail on any one unit moving away, because a fix moves
//! the others: efficiencies are field means and average exactly 50% over a cost list, so
//! pulling Riflemen from 84% to 50% hands 34 pp to the other units, some of them already above
//! 50%. The verdict is the net change of the distance from 50% summed over the units whose
//! efficiency was flagged: *balance improved* when it fell by more than `--tolerance`, *got
//! worse* (exit 1) when it rose by more, *moved* otherwise (pair scores only, or moves that
//! cancel). `--strict` fails on any flagged move, as the check did before it knew direction.
//!
//! The config lines that changed come from the config text the baseline records
//! (`summary.json` → `config.text`, written by `pointsworth report`), so the diff needs no
//! git history and works on any CI checkout depth.

use std::fmt::Write as _;
use std::path::PathBuf;

use super::common::{AppError, load, stdout_write};
use super::progress::Progress;
use crate::analysis::{RulesetAnalysis, analyse};
use crate::cli::{CheckArgs, ReportArgs, SimArgs};
use crate::rulesets::{AnyRuleset, UnitInfo, implemented};
use crate::stats::Estimate;
use crate::with_ruleset;

pub use super::baseline::*;

/// The verdict for one ruleset, with its Markdown section.
#[derive(Debug)]
pub struct Verdict {
    /// The check fails for this ruleset: balance got worse, units were added or removed, or
    /// (`--strict`) anything moved.
    pub regression: bool,
    pub balance: Balance,
    pub markdown: String,
}

fn pct(e: &Estimate) -> String {
    if e.lo == e.hi {
        format!("{:.1}%", 100.0 * e.value)
    } else {
        format!("{:.1}% [{:.1}, {:.1}]", 100.0 * e.value, 100.0 * e.lo, 100.0 * e.hi)
    }
}

fn p_text(p: f64) -> String {
    if p < 1e-4 { "< 0.0001".to_string() } else { format!("{p:.4}") }
}

/// A unified diff of the config text, or a note when the baseline recorded none.
fn config_diff(base: &Baseline, new_text: &str, new_hash: &str, new_path: &str) -> String {
    if base.config.hash == new_hash {
        return "The config is unchanged.\n".to_string();
    }
    let Some(old) = &base.config.text else {
        return format!(
            "The config changed (hash {} → {new_hash}), but the baseline records no config text to diff \
             against (it predates `config.text`); `pointsworth check --update` records it.\n",
            base.config.hash
        );
    };
    let diff = similar::TextDiff::from_lines(old.as_str(), new_text);
    let body = diff.unified_diff().context_radius(2).header(&base.config.path, new_path).to_string();
    format!("Config lines that changed:\n\n```diff\n{}```\n", body)
}

/// What a `check` run compared: its tolerance, whether `--quick`, and the size of the Holm
/// family (every metric of every ruleset checked) with the number of rulesets in it.
#[derive(Debug, Clone, Copy)]
pub struct CheckRun {
    pub tolerance_pp: f64,
    pub quick: bool,
    /// Fail on any flagged move, whichever way.
    pub strict: bool,
    pub family: usize,
    pub rulesets: usize,
}

/// Writes the Markdown section of one ruleset from its corrected `comparisons`
/// ([`compare_all`]).
pub fn verdict(
    base: &Baseline,
    new: &RulesetAnalysis,
    comparisons: &[Comparison],
    new_text: &str,
    run: &CheckRun,
) -> Verdict {
    let CheckRun { tolerance_pp, quick, strict, .. } = *run;
    let added: Vec<&UnitInfo> = new.units.iter().filter(|u| !base.units.iter().any(|b| b.id == u.id)).collect();
    let removed: Vec<&UnitInfo> = base.units.iter().filter(|u| !new.units.iter().any(|n| n.id == u.id)).collect();
    let mut flagged: Vec<&Comparison> = comparisons.iter().filter(|c| c.flagged).collect();
    flagged.sort_by(|a, b| b.change().abs().total_cmp(&a.change().abs()));
    let balance = balance(comparisons, tolerance_pp / 100.0);
    let list_changed = !added.is_empty() || !removed.is_empty();
    let regression = list_changed || balance == Balance::Worse || strict && !flagged.is_empty();
    let mut md = String::new();
    let mark = match balance {
        _ if list_changed => "❌ the cost list changed",
        Balance::Unchanged => "✅ no balance change beyond the tolerance",
        Balance::Improved if regression => "❌ balance improved, but `--strict` fails on any move",
        Balance::Improved => "✅ balance improved",
        Balance::Worse => "❌ balance got worse",
        Balance::Moved if regression => "❌ balance moved (`--strict`)",
        Balance::Moved => "⚠️ balance moved, neither better nor worse",
    };
    let _ = writeln!(md, "### {} — {mark}\n", new.title);
    let precision = if base.precision.fixed_trials {
        let quick = if quick {
            format!(" (`--quick`; baseline {})", base.precision.max_trials_per_matchup)
        } else {
            String::new()
        };
        format!("exactly {} trials per matchup{quick}, as the baseline", new.max_trials)
    } else {
        let quick = if quick {
            format!(" (`--quick`; baseline ±{} pp)", 100.0 * base.precision.target_error)
        } else {
            String::new()
        };
        format!("a target error of ±{} pp per matchup{quick}", 100.0 * new.target_error)
    };
    let family = if run.rulesets > 1 {
        format!("over all {} metrics of the {} rulesets checked", run.family, run.rulesets)
    } else {
        "over its metrics".to_string()
    };
    let _ = writeln!(
        md,
        "Re-ran `{}` with the baseline's seed {} at {precision} and compared {} metrics with `{}/summary.json`. \
         A change is flagged when a two-proportion z-test finds it significant (Holm-corrected {family}, {}% \
         family-wise) **and** it exceeds ±{} pp. Points efficiency and points-matched scores are fair at \
         50%: the check fails when the flagged efficiencies moved, net, further from 50% by more than the \
         tolerance{}.\n",
        new.ruleset,
        new.seed,
        comparisons.len(),
        base.ruleset,
        100.0 * ALPHA,
        tolerance_pp,
        if strict { " (here `--strict`: on any flagged move)" } else { "" },
    );
    if balance != Balance::Unchanged && !list_changed {
        let _ = writeln!(md, "{}\n", balance_sentence(comparisons, balance));
    }
    let cost_changes: Vec<String> = base
        .units
        .iter()
        .filter_map(|b| {
            let n = new.units.iter().find(|n| n.id == b.id)?;
            (n.cost != b.cost).then(|| {
                let fair = base.fair_costs.iter().find(|(id, _)| *id == b.id).map(|(_, f)| {
                    let way = if (n.cost - f.value).abs() < (b.cost - f.value).abs() { "toward" } else { "away from" };
                    format!(" ({way} its fair cost in the baseline, {:.1} [{:.1}, {:.1}])", f.value, f.lo, f.hi)
                });
                format!("- **{}**: {} → {} points{}", b.name, b.cost, n.cost, fair.unwrap_or_default())
            })
        })
        .collect();
    if !cost_changes.is_empty() {
        let _ = writeln!(md, "Cost changes:\n\n{}\n", cost_changes.join("\n"));
    }
    for (what, list) in [("added to", &added), ("removed from", &removed)] {
        if !list.is_empty() {
            let names: Vec<&str> = list.iter().map(|u| u.name.as_str()).collect();
            let _ = writeln!(
                md,
                "Units {what} the cost list: **{}**. Every efficiency is a mean over the field, so the \
                 baseline no longer applies; accept with `pointsworth check --update`.\n",
                names.join(", ")
            );
        }
    }
    if flagged.is_empty() {
        let largest = comparisons.iter().max_by(|a, b| a.change().abs().total_cmp(&b.change().abs()));
        match largest {
            Some(c) if c.change() != 0.0 => {
                let _ = writeln!(
                    md,
                    "No metric moved significantly by more than {tolerance_pp} pp. Largest change: {} of {}, \
                     {} → {} ({:+.1} pp, p = {}{}).\n",
                    c.metric,
                    c.subject,
                    pct(&c.old),
                    pct(&c.new),
                    100.0 * c.change(),
                    p_text(c.p),
                    if c.significant { ", significant but within the tolerance" } else { ", not significant" }
                );
            }
            _ => {
                let _ = writeln!(md, "Every metric is identical to the baseline.\n");
            }
        }
    } else {
        // Units whose own numbers moved, biggest change first, each once.
        let mut units_moved: Vec<&str> = Vec::new();
        for c in flagged.iter().filter(|c| c.metric == "points efficiency" || c.metric == "1v1 mean score") {
            if !units_moved.contains(&c.subject.as_str()) {
                units_moved.push(&c.subject);
            }
        }
        if !units_moved.is_empty() {
            let _ = writeln!(md, "Units whose balance moved: **{}**.\n", units_moved.join("**, **"));
        }
        let _ = writeln!(
            md,
            "| metric | unit or matchup (row's score) | baseline [95% CI] | now [95% CI] | change | balance | p |"
        );
        let _ = writeln!(md, "|---|---|---|---|---:|---|---:|");
        const MAX_ROWS: usize = 40;
        for c in flagged.iter().take(MAX_ROWS) {
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} | {:+.1} pp | {} | {} |",
                c.metric,
                c.subject,
                pct(&c.old),
                pct(&c.new),
                100.0 * c.change(),
                direction_text(c),
                p_text(c.p)
            );
        }
        if flagged.len() > MAX_ROWS {
            let _ = writeln!(md, "\n…and {} more flagged metrics.", flagged.len() - MAX_ROWS);
        }
        let _ = writeln!(md);
    }
    let path = new.config_path.clone();
    md.push_str(&config_diff(base, new_text, &new.config_hash, &path));
    Verdict { regression, balance, markdown: md }
}

/// The sentence under a moved ruleset's heading: the net change of the distance from 50% and
/// each flagged efficiency's share, biggest first.
fn balance_sentence(comparisons: &[Comparison], balance: Balance) -> String {
    let net = net_imbalance_change(comparisons);
    let mut moved: Vec<&Comparison> =
        comparisons.iter().filter(|c| c.flagged && c.metric == "points efficiency").collect();
    if moved.is_empty() {
        return "No unit's points efficiency moved beyond the tolerance; only matchup scores did.".to_string();
    }
    moved.sort_by(|a, b| b.imbalance_change().abs().total_cmp(&a.imbalance_change().abs()));
    let parts: Vec<String> = moved
        .iter()
        .map(|c| {
            let d = 100.0 * c.imbalance_change();
            let way = if d < 0.0 { "closer" } else { "further" };
            format!("{} {:.1} → {:.1}% ({:.1} pp {way})", c.subject, 100.0 * c.old.value, 100.0 * c.new.value, d.abs())
        })
        .collect();
    let lead = match balance {
        Balance::Improved => "**Balance improved**",
        Balance::Worse => "**Balance got worse**",
        _ => "**Balance moved**",
    };
    let net_text = if net < 0.0 {
        format!("{:.1} pp closer to 50%", -100.0 * net)
    } else if net > 0.0 {
        format!("{:.1} pp further from 50%", 100.0 * net)
    } else {
        "as far from 50% as before".to_string()
    };
    format!("{lead}: the points efficiencies that moved are, summed, {net_text}: {}.", parts.join("; "))
}

/// Runs `pointsworth check`.
pub fn run(args: CheckArgs) -> Result<(), AppError> {
    if !(args.tolerance >= 0.0 && args.tolerance < 100.0) {
        return Err(AppError::Usage(format!(
            "--tolerance must be in [0, 100) percentage points, got {}",
            args.tolerance
        )));
    }
    let ids: Vec<String> = if args.rulesets.is_empty() {
        let found: Vec<String> = implemented()
            .into_iter()
            .filter(|id| {
                args.baseline.join(id).join("summary.json").exists() || args.update && crate::shipped::has_default(id)
            })
            .map(String::from)
            .collect();
        if found.is_empty() {
            return Err(AppError::Usage(format!(
                "no baseline found: no {}/RULESET/summary.json for any of {} (run from the repository root, or \
                 pass --baseline DIR)",
                args.baseline.display(),
                implemented().join(", ")
            )));
        }
        found
    } else {
        args.rulesets.iter().map(|r| AnyRuleset::check_id(r).map(String::from)).collect::<Result<_, _>>()?
    };
    if args.config.is_some() && ids.len() != 1 {
        return Err(AppError::Usage("--config needs exactly one RULESET".into()));
    }
    if !args.set.is_empty() && args.update {
        return Err(AppError::Usage(
            "--set cannot be used with --update: a baseline records the config text, so edit the config instead".into(),
        ));
    }
    if !args.set.is_empty() && ids.len() != 1 {
        return Err(AppError::Usage("--set needs exactly one RULESET (its keys are that ruleset's)".into()));
    }
    if let Some(path) = &args.markdown {
        crate::commands::outputs::check_file("--markdown", path)?;
    }
    if args.update {
        let subdirs: Vec<&str> = ids.iter().map(String::as_str).collect();
        crate::commands::outputs::check_dir("--baseline", &args.baseline, &subdirs)?;
        return update(&args, &ids);
    }
    // Read and validate everything first: bad input must cost nothing.
    let mut work = Vec::new();
    for id in &ids {
        let mut base = Baseline::read(&args.baseline, id)?;
        base.fair_costs = read_fair_costs(&args.baseline, id);
        let loaded = load(id, args.config.as_ref(), &args.set)?;
        work.push((base, loaded));
    }
    // The result cache of the baseline's report (`report --out` the baseline's folder), where
    // there is one: its exact solves are not made again (`--no-cache` bypasses it).
    let cache = args.baseline.join(".cache");
    if cache.is_dir() {
        crate::cache::install(Some(&cache));
    }
    let mut analyses = Vec::new();
    for (base, loaded) in &work {
        let phase = "re-run of the baseline's matrices";
        let mut progress = Progress::new(format!("check {}", base.ruleset), &[phase]);
        let pb = progress.phase(phase);
        let analysis = with_ruleset!(&loaded.ruleset, r => {
            let mut s = crate::analysis::AnalysisSettings::from_ruleset(r, base.seed);
            s.target_error = base.precision.target_error;
            s.max_trials = base.precision.max_trials_per_matchup;
            s.fixed_trials = base.precision.fixed_trials;
            if args.quick {
                // About the trials of twice the target error: a quarter.
                s.target_error = (2.0 * s.target_error).min(0.49);
                if s.fixed_trials {
                    s.max_trials = s.max_trials.div_ceil(4);
                }
            }
            // The distance sweep is a chart, not a compared metric: skip its seven matrices.
            s.sweep_distances.clear();
            // The squads play as the baseline's did: the tactic game's equilibrium, or the
            // scripted tactic (a quick baseline of `init` leaves the game out).
            s.squads_game = base.squads_play_equilibrium();
            let path = loaded.source.path.display().to_string();
            let mut analysis = analyse(r, &s, &path, &loaded.source.hash_hex(), &pb);
            // A baseline whose 1v1 matrix was played under optimal play (the report's, where
            // the ruleset has the game) is compared with the same: the solves are exact, and
            // the report's result cache holds them when a report made it.
            if base.matrix_1v1.is_optimal_play() {
                let values = crate::analysis::optimal_play::optimal_values(r, analysis.distance, &pb);
                crate::analysis::optimal_play::play_1v1_values(&mut analysis, &values);
            }
            analysis
        });
        progress.finish();
        analyses.push(analysis);
    }
    let pairs: Vec<(&Baseline, &RulesetAnalysis)> = work.iter().map(|(b, _)| b).zip(&analyses).collect();
    let families = compare_all(&pairs, args.tolerance / 100.0);
    let run = CheckRun {
        tolerance_pp: args.tolerance,
        quick: args.quick,
        strict: args.strict,
        family: families.iter().map(Vec::len).sum(),
        rulesets: families.len(),
    };
    let mut sections = String::new();
    let mut regressions = Vec::new();
    let mut by_balance: Vec<(Balance, String)> = Vec::new();
    let mut json_rulesets = Vec::new();
    for (((base, loaded), analysis), comparisons) in work.iter().zip(&analyses).zip(&families) {
        let v = verdict(base, analysis, comparisons, &loaded.source.text, &run);
        if v.regression {
            regressions.push(analysis.title.clone());
        }
        by_balance.push((v.balance, analysis.title.clone()));
        json_rulesets.push(ruleset_json(analysis, comparisons, &v));
        sections.push_str(&v.markdown);
        if !args.set.is_empty() {
            let sets: Vec<String> = args.set.iter().map(|s| format!("`--set {s}`")).collect();
            let _ = writeln!(sections, "\nOn the command line: {}.", sets.join(", "));
        }
        sections.push('\n');
    }
    let mut md = format!("## pointsworth check\n\n{}\n\n", lead_line(&by_balance));
    md.push_str(&sections);
    if regressions.is_empty() {
        md.push_str("No regression. ");
    } else {
        md.push_str(&format!("**Regression in {}.** ", regressions.join(", ")));
    }
    md.push_str(
        "If the change is intended, accept it with `pointsworth check --update` and commit the new baseline.\n",
    );
    if let Some(path) = &args.markdown {
        crate::report::write_atomic(path, md.as_bytes())
            .map_err(|source| AppError::Io { context: format!("writing {}", path.display()), source })?;
    }
    if let Some(path) = &args.html {
        // The summary's lead line: balance improved / got worse / moved / no change, per ruleset.
        let headline = lead_line(&by_balance).trim_matches('*').trim_end_matches('.').to_string();
        let page = crate::report::html::check_page(&md, &headline, env!("CARGO_PKG_VERSION"))?;
        crate::report::write_atomic(path, page.as_bytes())
            .map_err(|source| AppError::Io { context: format!("writing {}", path.display()), source })?;
    }
    if args.json {
        let lead = lead_line(&by_balance).trim_matches('*').to_string();
        let v = serde_json::json!({
            "lead": lead,
            "regression": !regressions.is_empty(),
            "tolerance_pp": args.tolerance,
            "quick": args.quick,
            "strict": args.strict,
            "rulesets": json_rulesets,
        });
        stdout_write(&format!("{v:#}\n"))?;
    } else {
        stdout_write(&md)?;
    }
    if regressions.is_empty() {
        Ok(())
    } else {
        Err(AppError::Regression(format!("check failed: balance moved in {}", regressions.join(", "))))
    }
}

/// `check --json` for one ruleset: its verdict, the net change of the flagged efficiencies'
/// distance from 50% (percentage points, negative toward balance) and every flagged metric,
/// biggest change first.
fn ruleset_json(new: &RulesetAnalysis, comparisons: &[Comparison], v: &Verdict) -> serde_json::Value {
    let mut flagged: Vec<&Comparison> = comparisons.iter().filter(|c| c.flagged).collect();
    flagged.sort_by(|a, b| b.change().abs().total_cmp(&a.change().abs()));
    let balance = match v.balance {
        Balance::Unchanged => "unchanged",
        Balance::Improved => "improved",
        Balance::Worse => "worse",
        Balance::Moved => "moved",
    };
    let flagged: Vec<serde_json::Value> = flagged
        .iter()
        .map(|c| {
            serde_json::json!({
                "metric": c.metric,
                "subject": c.subject,
                "baseline": c.old,
                "now": c.new,
                "change_pp": 100.0 * c.change(),
                "direction": match c.direction() {
                    Direction::Toward => "toward",
                    Direction::Away => "away",
                    Direction::Neither => "neither",
                },
                "p": c.p,
            })
        })
        .collect();
    serde_json::json!({
        "ruleset": new.ruleset,
        "title": new.title,
        "balance": balance,
        "regression": v.regression,
        "compared": comparisons.len(),
        "net_imbalance_change_pp": 100.0 * net_imbalance_change(comparisons),
        "flagged": flagged,
        "markdown": v.markdown,
    })
}

/// The summary's first line: where balance improved, got worse, moved, or did not change.
fn lead_line(by_balance: &[(Balance, String)]) -> String {
    let mut parts = Vec::new();
    for (b, what) in [
        (Balance::Worse, "balance got worse"),
        (Balance::Improved, "balance improved"),
        (Balance::Moved, "balance moved"),
        (Balance::Unchanged, "no balance change"),
    ] {
        let titles: Vec<&str> = by_balance.iter().filter(|(x, _)| *x == b).map(|(_, t)| t.as_str()).collect();
        if !titles.is_empty() {
            parts.push(format!("{what} in {}", titles.join(", ")));
        }
    }
    let mut line = parts.join("; ");
    if let Some(first) = line.get(..1) {
        line = format!("**{}{}.**", first.to_uppercase(), &line[1..]);
    }
    line
}

/// `--update`: a full `pointsworth report` of the rulesets into the baseline directory, with
/// the baseline's seed when there is one.
fn update(args: &CheckArgs, ids: &[String]) -> Result<(), AppError> {
    // (seed, fixed trial count) of each baseline; a new one gets seed 42 and the config's precision.
    let mut runs = Vec::new();
    for id in ids {
        let run = match Baseline::read(&args.baseline, id) {
            Ok(b) => (b.seed, b.precision.fixed_trials.then_some(b.precision.max_trials_per_matchup)),
            Err(_) => (42, None),
        };
        runs.push(run);
    }
    // One report per (seed, trials) keeps each ruleset's own (and one index when they agree).
    let mut distinct = runs.clone();
    distinct.dedup();
    for (seed, trials) in distinct {
        let group: Vec<String> =
            ids.iter().zip(&runs).filter(|(_, r)| **r == (seed, trials)).map(|(id, _)| id.clone()).collect();
        let report_args = ReportArgs {
            rulesets: group,
            sim: SimArgs {
                config: args.config.clone(),
                set: args.set.clone(),
                seed,
                trials,
                target_error: None,
                shard: None,
                tallies_out: None,
            },
            out: PathBuf::from(&args.baseline),
            baseline: None,
            json: false,
        };
        super::report::run(report_args)?;
    }
    Ok(())
}
