//! `pointsworth rules`: a ruleset's rules-coverage table, the variants in force and its lint;
//! with `--sensitivity`, "Which readings decide the verdicts" ([`readings`], which the report
//! runs too).

use std::time::Instant;

use indicatif::ProgressBar;

use super::common::{AppError, load, stdout_write};
use super::progress::Progress;
use crate::analysis::AnalysisSettings;
use crate::analysis::optimal_play::OptimalPlay;
use crate::analysis::readings::Readings;
use crate::cli::RulesArgs;
use crate::config::{Overrides, Source};
use crate::rulesets::{AnyRuleset, Concrete, Ruleset};
use crate::with_ruleset;

/// Where `pointsworth report` keeps its result cache with its default `--out`, relative to the
/// working directory; `rules --sensitivity` uses it when it exists.
pub const REPORT_CACHE: &str = "reports/.cache";

/// "Which readings decide the verdicts" for ruleset `r` loaded from `source` with the `--set`s
/// `set` ([`crate::analysis::readings::analyse`]): each alternative is the same config with
/// `rules.KEY=VALUE` added last.
pub(crate) fn readings<R: Ruleset + Concrete>(
    r: &R,
    source: &Source,
    set: &[String],
    settings: &AnalysisSettings,
    optimal: Option<&OptimalPlay>,
    progress: &ProgressBar,
) -> Option<Readings> {
    let id = r.id();
    let variant = |key: &str, value: &str| -> Result<R, String> {
        let mut all = set.to_vec();
        all.push(format!("rules.{key}={value}"));
        let ov = Overrides::parse(&all).map_err(|e| e.to_string())?;
        let any = AnyRuleset::load(id, source, &ov).map_err(|e| e.to_string())?;
        R::from_any(any).ok_or_else(|| format!("{id} loaded as another ruleset"))
    };
    crate::analysis::readings::analyse(r, &variant, settings, optimal, progress)
}

/// Runs `pointsworth rules`.
pub fn run(args: RulesArgs) -> Result<(), AppError> {
    let loaded = load(&args.ruleset, args.config.as_ref(), &args.set)?;
    let (title, rows, variants, lint) =
        with_ruleset!(&loaded.ruleset, r => (r.title(), r.coverage(), r.variants(), r.lint()));
    if args.json {
        let v = serde_json::json!({
            "ruleset": with_ruleset!(&loaded.ruleset, r => r.id()),
            "title": title,
            "variants": variants.iter().map(|(k, v)| (k.to_string(), serde_json::json!(v))).collect::<serde_json::Map<_, _>>(),
            "coverage": rows.iter().map(|r| serde_json::json!({
                "rule": r.rule, "source": r.source, "status": r.status.label(), "note": r.note,
            })).collect::<Vec<_>>(),
            "lint": lint.iter().map(|f| serde_json::json!({
                "subject": f.subject, "finding": f.finding, "source": f.source,
            })).collect::<Vec<_>>(),
        });
        return stdout_write(&format!("{v:#}\n"));
    }
    let mut t = crate::term::table();
    t.set_header(vec!["rule", "source", "status", "note"]);
    for row in &rows {
        t.add_row(vec![row.rule.as_str(), row.source.as_str(), row.status.label(), row.note.as_str()]);
    }
    let v: Vec<String> = variants.iter().map(|(k, v)| format!("{k} = {v}")).collect();
    let mut out = format!("{title}: rules coverage\nvariants in force: {}\n{t}\n", v.join(", "));
    if lint.is_empty() {
        out.push_str("lint: nothing flagged\n");
    } else {
        let mut l = crate::term::table();
        l.set_header(vec!["subject", "finding", "source"]);
        for f in &lint {
            l.add_row(vec![f.subject.as_str(), f.finding.as_str(), f.source.as_str()]);
        }
        out.push_str(&format!("lint: {} finding(s)\n{l}\n", lint.len()));
    }
    if args.sensitivity {
        let started = Instant::now();
        // The result cache of `pointsworth report` (its default `--out`), where a report has
        // made one: then a re-run, or a run after the report, solves only what is not in it
        // (`--no-cache` bypasses it; entries of another build are never read).
        let cache = std::path::Path::new(REPORT_CACHE);
        if cache.is_dir() {
            crate::cache::install(Some(cache));
        }
        let mut progress = Progress::new(
            format!("rules {} --sensitivity", with_ruleset!(&loaded.ruleset, r => r.id())),
            &["readings"],
        );
        let pb = progress.phase("readings");
        let (found, unit) = with_ruleset!(&loaded.ruleset, r => {
            let s = AnalysisSettings::from_ruleset(r, args.seed);
            (readings(r, &loaded.source, &args.set, &s, None, &pb), r.distance_unit())
        });
        progress.finish();
        match found {
            Some(x) => out.push_str(&crate::report::readings::text(&x, unit)),
            None => out.push_str("\nWhich readings decide the verdicts: this ruleset has no reading switch.\n"),
        }
        out.push_str(&format!("\nsensitivity: {:.1} s\n", started.elapsed().as_secs_f64()));
    }
    stdout_write(&crate::term::wrap(&out))
}
