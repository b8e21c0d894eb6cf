//! `pointsworth rules`: a ruleset's rules-coverage table, the variants in force and its lint.

use super::common::{AppError, load, stdout_write};
use crate::cli::RulesArgs;
use crate::rulesets::Ruleset;
use crate::with_ruleset;

/// Runs `pointsworth rules`.
pub fn run(args: RulesArgs) -> Result<(), AppError> {
    let loaded = load(&args.ruleset, args.config.as_ref(), &[])?;
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
    stdout_write(&crate::term::wrap(&out))
}
