//! Markdown shared by the sections, and the `reports/README.md` index.
//!
//! The report is written for a designer who has not read the code: it says what each number
//! means before showing it, prints every estimate with its 95% interval, and puts warnings
//! above the tables so a noisy ranking is not read as a firm one. Each section writes its own
//! part ([`super::Section::markdown`]); this module holds what they share.

use std::fmt::Write as _;

use super::IndexEntry;
use super::format::{cost, md_cell, pct};

/// A chart in `report.md`: the PNG with its alternative text, then links to the SVG and to
/// the data files it is drawn from.
pub(super) fn chart(out: &mut String, stem: &str, alt: &str, data: &[&str]) {
    let _ = writeln!(out, "![{alt}]({stem}.png)\n");
    let links: Vec<String> = data.iter().map(|f| format!("[{f}]({f})")).collect();
    let _ = writeln!(out, "Vector version: [{stem}.svg]({stem}.svg) · data: {}\n", links.join(", "));
}

/// `reports/README.md`: one line per ruleset, sorted by ruleset id: its verdicts and most
/// mispriced units first, then its most and least efficient units by duels.
pub fn index(entries: &[IndexEntry]) -> String {
    use crate::analysis::verdict::UnitVerdict;
    let mut sorted: Vec<&IndexEntry> = entries.iter().collect();
    sorted.sort_by(|a, b| a.ruleset.cmp(&b.ruleset));
    let mut o = String::new();
    o.push_str("# pointsworth reports\n\n");
    o.push_str(
        "One directory per ruleset, written by `pointsworth report`; open [index.html](index.html) for the \
         pages. Each report leads with one **verdict** per unit — too cheap, fair or too expensive, the \
         suggested cost with its 95% interval, and whether the methods (points-matched duels, value in army \
         per game) agree — and explains its rule. **Efficiency** is the mean score (win = 1, draw = ½) of a \
         points-matched squad against every other unit's squad: 50% is even with the field, above is too \
         cheap, below too expensive. Brackets are 95% intervals.\n\n",
    );
    if sorted.is_empty() {
        o.push_str("No rulesets have been analysed yet.\n");
        return o;
    }
    o.push_str(
        "| ruleset | units | budget | verdicts | most mispriced | most efficient | least efficient | warnings |\n",
    );
    o.push_str("|---|---:|---:|---|---|---|---|---:|\n");
    for e in sorted {
        let unit = |u: &Option<super::IndexUnit>| {
            u.as_ref().map_or("—".to_string(), |u| {
                format!("{} ({}): {}", md_cell(&u.name), cost(u.cost), pct(&u.efficiency))
            })
        };
        let units: Vec<&UnitVerdict> = e.verdicts.iter().filter(|v| v.item == "unit").collect();
        let counts: Vec<String> =
            super::verdict::counts(&units).into_iter().map(|(n, label)| format!("{n} {label}")).collect();
        let mut worst: Vec<&&UnitVerdict> = units.iter().filter(|v| v.mispricing() > 0.0).collect();
        worst.sort_by(|x, y| y.mispricing().total_cmp(&x.mispricing()));
        let worst: Vec<String> = worst
            .iter()
            .take(3)
            .map(|v| format!("{} {} → {}", md_cell(&v.name), cost(v.cost), super::verdict::suggested_text(v, false)))
            .collect();
        let or_dash = |v: Vec<String>, sep: &str| if v.is_empty() { "—".to_string() } else { v.join(sep) };
        let _ = writeln!(
            o,
            "| [{}]({}/report.md) ([page]({}/report.html)) | {} | {} | {} | {} | {} | {} | {} |",
            md_cell(&e.title),
            e.ruleset,
            e.ruleset,
            e.units,
            cost(e.budget),
            or_dash(counts, ", "),
            or_dash(worst, "; "),
            unit(&e.top),
            unit(&e.bottom),
            e.warnings
        );
    }
    o
}
