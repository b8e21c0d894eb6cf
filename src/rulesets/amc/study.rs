//! Army Men Combat's study for `pointsworth report army-men-combat`: the "Upgrades" section,
//! each upgraded entry against its plain entry at equal points, per distance, and each
//! upgrade's mean over the entries it applies to (see [`upgrades`]).

pub mod upgrades;

use std::fmt::Write;

use self::upgrades::UpgradeTable;
use super::ArmyMenCombat;
use crate::format::pct_interval as pct;
use crate::rulesets::engine::Engine;
use crate::rulesets::study::Study;
use crate::stats::Estimate;

/// The upgrade table as a study (`[upgrades] trials` per cell; none when 0).
pub fn studies<E: Engine>(engine: &E, r: &ArmyMenCombat, seed: u64) -> Vec<Study> {
    if r.upgrade_settings.trials == 0 {
        return Vec::new();
    }
    let t = upgrades::table(engine, r, seed, r.upgrade_settings.trials, r.upgrade_settings.fair_trials);
    vec![Study {
        title: "Upgrades".to_string(),
        markdown: section(&t),
        tables: Vec::new(),
        charts: Vec::new(),
        // Upgrades are priced where the ruleset plays them.
        suggested_costs_note: (t.fair_trials > 0).then(|| {
            "Upgrades are priced in \"Upgrades\" below: each upgrade's fair price is found by the same bisection, \
             the upgraded entry against its plain entry at equal points. The mission prices every upgrade that \
             random mission armies buy as well (its **mission price** in \"Mission: value in army\"), and Truck and \
             APC only there: transport needs passengers, which a duel of one unit type a side does not have.\n\n"
                .to_string()
        }),
    }]
}

/// A fair price in points with its interval, signed ("+12.3 [+10.1, +14.6]"); "interval
/// unknown" when the search measured no slope at the root.
fn price(e: &Estimate) -> String {
    if e.lo.is_finite() && e.hi.is_finite() {
        format!("{:+.1} [{:+.1}, {:+.1}]", e.value, e.lo, e.hi)
    } else {
        format!("{:+.1} [interval unknown]", e.value)
    }
}

/// The fair-price cell of one distance: "any" when the duel ignores the price, "—" when no
/// price balances the upgrade.
fn price_cell(f: Option<&Estimate>, any: bool) -> String {
    match f {
        _ if any => ANY.to_string(),
        Some(e) => price(e),
        None => "—".to_string(),
    }
}

const ANY: &str = "any (never changes a duel)";

/// The Markdown section (empty for a table without rows).
fn section(t: &UpgradeTable) -> String {
    if t.rows.is_empty() {
        return String::new();
    }
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
    let fair = t.fair_trials > 0;
    if fair {
        let _ = writeln!(
            o,
            "**Fair price**: the upgrade price at which the upgraded force scores 50% against the plain one at \
             equal points, found like a unit's fair cost in \"Suggested costs\" (bisection over the upgraded \
             entry's cost with common random numbers, {} trials per price, the 95% interval through the local \
             slope). Per upgrade it is the mean over the entries that have one with an interval (how many, if \
             not all). A negative fair price means the upgrade makes the squad weaker at that distance (a \
             specialist trades his rifle for a short-range weapon); \"—\": no price in the searched range (a \
             quarter to four times the entry's cost) balances it; \"any\": every price scores exactly 50% (the \
             upgrade never changes a duel: transport, which a duel of one unit type a side cannot use; Truck \
             and APC are priced by the mission instead, their **mission price** in \"Mission: value in army\", \
             where random armies buy them and infantry ride). Against a plain entry that cannot damage \
             anything (the Jeep: see the lint) the upgraded force wins whenever it is fielded, so its fair \
             price only marks where it becomes too dear to field.\n",
            t.fair_trials
        );
    }
    let mut heads: Vec<String> = t.distances.iter().map(|d| format!("score at {d}\"")).collect();
    if fair {
        heads.extend(t.distances.iter().map(|d| format!("fair price at {d}\"")));
    }
    let _ = writeln!(o, "| upgrade | price | entries | {} |", heads.join(" | "));
    let _ = writeln!(o, "|---|---|---|{}", "---|".repeat(heads.len()));
    for s in &t.summary {
        let mut cells: Vec<String> = s.score.iter().map(pct).collect();
        cells.extend(s.fair_price.iter().enumerate().map(|(k, f)| match f {
            _ if s.any_price.get(k).copied().unwrap_or(false) => ANY.to_string(),
            Some((e, n)) if *n == s.entries => price(e),
            Some((e, n)) => format!("{} ({n} of {})", price(e), s.entries),
            None => "—".to_string(),
        }));
        let _ = writeln!(o, "| {} | +{} | {} | {} |", s.upgrade, s.upgrade_cost, s.entries, cells.join(" | "));
    }
    o.push_str("\nPer entry:\n\n");
    let _ = writeln!(o, "| entry | option | cost | {} |", heads.join(" | "));
    let _ = writeln!(o, "|---|---|---|{}", "---|".repeat(heads.len()));
    for r in &t.rows {
        let mut cells: Vec<String> = r.score.iter().map(pct).collect();
        cells.extend(
            r.fair_price
                .iter()
                .enumerate()
                .map(|(k, f)| price_cell(f.as_ref(), r.any_price.get(k).copied().unwrap_or(false))),
        );
        let _ = writeln!(o, "| {} | {} | {} | {} |", r.entry.name, r.option, r.entry.cost, cells.join(" | "));
    }
    o.push('\n');
    o
}
