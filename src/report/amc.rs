//! The Army Men Combat report's "Upgrades" section: each upgraded entry against its plain
//! entry at equal points, per distance, and each upgrade's mean over the entries it applies
//! to. Filled by `commands::amc::attach_to_report`; empty for other rulesets.

use std::fmt::Write;

use crate::analysis::RulesetAnalysis;
use crate::stats::Estimate;

fn pct(e: &Estimate) -> String {
    format!("{:.1}% [{:.1}, {:.1}]", 100.0 * e.value, 100.0 * e.lo, 100.0 * e.hi)
}

/// The Markdown section (empty without an upgrade table).
pub fn section(a: &RulesetAnalysis) -> String {
    let Some(t) = a.amc_upgrades.as_ref().filter(|t| !t.rows.is_empty()) else {
        return String::new();
    };
    let mut o = String::new();
    o.push_str("## Upgrades: upgraded unit against the plain one at equal points\n\n");
    let _ = writeln!(
        o,
        "Each row is a points-matched duel ({} points a side, squads bought as in the points-matched \
         matrix) of the upgraded entry against its plain entry: the upgraded side's score (win + ½ draw) \
         with its 95% interval, {} trials per cell, seed {}. 50% means the upgrade is worth its price \
         against the plain unit; above 50% it is underpriced. At 24\" short-range weapons and bayonets \
         cannot reach; at 12\" they can and units may charge.\n",
        t.budget, t.trials, t.seed
    );
    let dist_heads: Vec<String> = t.distances.iter().map(|d| format!("score at {d}\"")).collect();
    let _ = writeln!(o, "| upgrade | price | entries | {} |", dist_heads.join(" | "));
    let _ = writeln!(o, "|---|---|---|{}", "---|".repeat(t.distances.len()));
    for s in &t.summary {
        let cells: Vec<String> = s.score.iter().map(pct).collect();
        let _ = writeln!(o, "| {} | +{} | {} | {} |", s.upgrade, s.upgrade_cost, s.entries, cells.join(" | "));
    }
    o.push_str("\nPer entry:\n\n");
    let _ = writeln!(o, "| entry | option | cost | {} |", dist_heads.join(" | "));
    let _ = writeln!(o, "|---|---|---|{}", "---|".repeat(t.distances.len()));
    for r in &t.rows {
        let cells: Vec<String> = r.score.iter().map(pct).collect();
        let _ = writeln!(o, "| {} | {} | {} | {} |", r.entry.name, r.option, r.entry.cost, cells.join(" | "));
    }
    o.push('\n');
    o
}
