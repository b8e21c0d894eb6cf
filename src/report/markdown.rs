//! `report.md` and the `reports/README.md` index.
//!
//! The report is written for a designer who has not read the code: it says what each number
//! means before showing it, prints every estimate with its 95% interval, and puts warnings
//! above the tables so a noisy ranking is not read as a firm one.

use std::fmt::Write as _;

use super::IndexEntry;
use super::charts;
use super::format::{cost, md_cell, number, pct, pct_cell, ratio, unit_label_for};
use super::summary::TrialCounts;
use crate::analysis::{DistanceSweep, Matrix, RulesetAnalysis};
use crate::stats::Estimate;

/// `12345` → `12,345`.
fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// `1 matchup`, `3 matchups`.
fn plural(n: usize, word: &str) -> String {
    if n == 1 { format!("1 {word}") } else { format!("{n} {word}s") }
}

fn trials_text(t: &TrialCounts) -> String {
    let simulated = t.matchups - t.exact;
    let mut parts = Vec::new();
    if simulated > 0 {
        let range = if t.min == t.max {
            format!("{} each", thousands(t.min))
        } else {
            format!("{}–{} each", thousands(t.min), thousands(t.max))
        };
        parts.push(format!("{} trials over {} ({range})", thousands(t.total), plural(simulated, "simulated matchup")));
    }
    if t.exact > 0 {
        parts.push(format!("{} solved exactly", plural(t.exact, "matchup")));
    }
    if parts.is_empty() { "no matchups".to_string() } else { parts.join("; ") }
}

fn matrix_table(out: &mut String, a: &RulesetAnalysis, m: &Matrix) {
    let labels: Vec<String> = m.units.iter().map(|id| md_cell(&unit_label_for(a, id))).collect();
    out.push_str("| row (A) \\ column (B) |");
    for l in &labels {
        let _ = write!(out, " {l} |");
    }
    out.push_str("\n|---|");
    out.push_str(&"---:|".repeat(labels.len()));
    out.push('\n');
    for (i, row) in m.cells.iter().enumerate() {
        let label = labels.get(i).map_or("?", String::as_str);
        let _ = write!(out, "| **{label}** |");
        for cell in row {
            let _ = write!(out, " {} |", pct_cell(&cell.a_score));
        }
        out.push('\n');
    }
}

/// A sweep cell: whole percentages with the interval, `62 [60, 64]`; `62` when exact.
fn pct_int(e: &Estimate) -> String {
    let p = |x: f64| format!("{:.0}", x * 100.0);
    if e.lo == e.hi { p(e.value) } else { format!("{} [{}, {}]", p(e.value), p(e.lo), p(e.hi)) }
}

/// "Efficiency by start distance": chart, how to read it, and a units × distances table.
fn sweep_section(o: &mut String, a: &RulesetAnalysis, s: &DistanceSweep) {
    let budget = cost(a.budget);
    let unit = &a.distance_unit;
    let main = format!("{} {unit}", number(a.distance, 2));
    let err = number(s.target_error * 100.0, 2);
    let points = if err == "1" { "point" } else { "points" };
    o.push_str(
        "## Efficiency by start distance

",
    );
    chart(
        o,
        charts::EFFICIENCY_BY_DISTANCE,
        "Points efficiency of each unit against the start distance, with 95% intervals",
        &["efficiency_by_distance.csv"],
    );
    let _ = writeln!(
        o,
        "Each point is a unit's efficiency — the mean score of its {budget}-point squads against every \
         other unit's {budget}-point squads — when the squads start that far apart; the dashed line is \
         50%, even with the field, and the dotted line marks {main}, the distance the rest of this report \
         uses. Long-ranged units tend to gain as the distance grows, because they shoot for longer before \
         the enemy closes; fast or short-ranged units gain as it shrinks. A line above 50% everywhere says \
         the unit is too cheap whatever the deployment, below 50% everywhere too expensive; a unit whose \
         line crosses 50% is fairly priced only at some distances, so its right cost depends on the table \
         size and deployment. Each sweep matchup ran to ±{err} percentage {points} (95%), looser than the \
         main run, so the column at {main} can differ slightly from the efficiency table above. Cells are \
         percentages with their 95% interval, units in efficiency order.\n"
    );
    o.push_str("| unit |");
    for &d in &s.distances {
        let label = format!("{} {unit}", number(d, 2));
        if d == a.distance {
            let _ = write!(o, " **{label}** |");
        } else {
            let _ = write!(o, " {label} |");
        }
    }
    o.push_str("\n|---|");
    o.push_str(&"---:|".repeat(s.distances.len()));
    o.push('\n');
    // Units in efficiency order (best first), then any the efficiency table does not list.
    let index = |id: &str| s.units.iter().position(|u| u == id);
    let mut rows: Vec<usize> = a.efficiency.iter().filter_map(|r| index(&r.unit.id)).collect();
    let unlisted: Vec<usize> = (0..s.units.len()).filter(|u| !rows.contains(u)).collect();
    rows.extend(unlisted);
    for u in rows {
        let _ = write!(o, "| {} |", md_cell(&unit_label_for(a, &s.units[u])));
        let est = s.efficiency.get(u).map_or(&[][..], Vec::as_slice);
        for k in 0..s.distances.len() {
            let cell = est.get(k).map_or("—".to_string(), pct_int);
            let _ = write!(o, " {cell} |");
        }
        o.push('\n');
    }
    o.push('\n');
    if s.distances.contains(&a.distance) {
        let _ = writeln!(o, "The **bold** column is the start distance of the rest of this report.\n");
    }
}

fn chart(out: &mut String, stem: &str, alt: &str, data: &[&str]) {
    let _ = writeln!(out, "![{alt}]({stem}.png)\n");
    let links: Vec<String> = data.iter().map(|f| format!("[{f}]({f})")).collect();
    let _ = writeln!(out, "Vector version: [{stem}.svg]({stem}.svg) · data: {}\n", links.join(", "));
}

/// The whole `report.md` for one ruleset.
pub fn ruleset_report(a: &RulesetAnalysis) -> String {
    let budget = cost(a.budget);
    let distance = format!("{} {}", number(a.distance, 2), a.distance_unit);
    let mut out = String::new();
    let o = &mut out;

    let _ = writeln!(o, "# {}: is every unit worth its points?\n", a.title);
    let _ = writeln!(
        o,
        "Ruleset `{}` · pointsworth {} · config `{}` (FNV-1a `{}`) · seed {}\n",
        a.ruleset, a.version, a.config_path, a.config_hash, a.seed
    );

    o.push_str("## How to read this\n\n");
    o.push_str("- A **score** counts a win as 1, a draw as ½ and a loss as 0, so 50% is an even fight.\n");
    let _ = writeln!(
        o,
        "- **Efficiency** is the mean score of a squad of the unit bought with {budget} points against a \
         squad of every other unit bought with the same {budget} points. 50% means the unit is worth its \
         points against this field: above 50% it is too cheap, below 50% too expensive."
    );
    if !a.squad_caps.is_empty() {
        let caps: Vec<String> =
            a.squad_caps.iter().map(|c| format!("{} {} ({} points)", c.unit, c.limit, number(c.points, 0))).collect();
        let _ = writeln!(
            o,
            "- **Capped squads**: the book's army limits hold some squads below {budget} points: {}. A matchup \
             with a capped squad is bought with the capped squad's points on both sides (the smaller, if both \
             are capped), so efficiency still compares equal points.",
            caps.join(", ")
        );
    }
    let _ = writeln!(
        o,
        "- **1v1 mean score** is the mean score (a draw counts ½) of one model of the unit against one model of every other \
         unit, starting {distance} apart, whatever either costs."
    );
    o.push_str(
        "- **Points per point killed** is the points the unit's squads spent per enemy point they \
         destroyed in the points-matched battles; lower is better, and — means they destroyed nothing.\n",
    );
    o.push_str(
        "- Every number is an estimate with its **95% interval**: `62.1% [60.9, 63.3]`. In the matrices \
         `62.1 ±1.2` gives the interval's half-width in percentage points. Two units whose intervals \
         overlap cannot be ranked against each other with confidence.\n",
    );
    let exact = |m: &Matrix| m.cells.iter().flatten().any(|c| c.method == "exact");
    if exact(&a.matrix_1v1) || exact(&a.matrix_points) {
        o.push_str("- Results marked *exact* were computed, not simulated: they carry no interval.\n");
    }
    let side = if a.duel_side.is_empty() { "one model" } else { a.duel_side.as_str() };
    let _ = writeln!(
        o,
        "- The **matrices** give the row unit's (side A's) score against the column unit (side B). The \
         **1v1 matrix** pits {side} against {side} starting {distance} apart; the \
         **points-matched matrix** pits a {budget}-point squad against a {budget}-point squad. The \
         diagonal is a unit against a copy of itself.\n"
    );

    o.push_str("## Settings\n\n| setting | value |\n|---|---|\n");
    let _ = writeln!(o, "| seed | {} |", a.seed);
    let _ = writeln!(o, "| duel distance | {distance} |");
    let _ = writeln!(o, "| squad budget | {budget} points |");
    let target = number(a.target_error * 100.0, 2);
    let unit = if target == "1" { "percentage point" } else { "percentage points" };
    let _ = writeln!(o, "| target error | ±{target} {unit} (95% half-width) per matchup |");
    let _ = writeln!(o, "| trial cap | {} per matchup |", thousands(a.max_trials));
    let _ = writeln!(o, "| trials, 1v1 | {} |", trials_text(&TrialCounts::of(&a.matrix_1v1)));
    let _ = writeln!(o, "| trials, points-matched | {} |", trials_text(&TrialCounts::of(&a.matrix_points)));
    let variants = if a.variants.is_empty() {
        "none (rulebook defaults)".to_string()
    } else {
        a.variants.iter().map(|(k, v)| format!("`{} = {}`", md_cell(k), md_cell(v))).collect::<Vec<_>>().join(", ")
    };
    if let Some(s) = &a.distance_sweep {
        let distances: Vec<String> = s.distances.iter().map(|&d| number(d, 2)).collect();
        let err = number(s.target_error * 100.0, 2);
        let points = if err == "1" { "point" } else { "points" };
        let _ = writeln!(
            o,
            "| distance sweep | {} {} apart, ±{err} percentage {points} (95% half-width) per matchup |",
            distances.join(", "),
            a.distance_unit
        );
    }
    let _ = writeln!(o, "| variants | {variants} |");
    let _ = writeln!(o, "| config | `{}` |", md_cell(&a.config_path));
    let _ = writeln!(o, "| config hash (FNV-1a 64) | `{}` |", a.config_hash);
    let _ = writeln!(o, "| pointsworth version | {} |\n", a.version);

    o.push_str("## Warnings\n\n");
    if a.warnings.is_empty() {
        o.push_str("None.\n\n");
    } else {
        for w in &a.warnings {
            let _ = writeln!(o, "- {}", w.message.replace('\n', " "));
        }
        o.push('\n');
    }

    o.push_str("## Points efficiency\n\n");
    chart(
        o,
        charts::EFFICIENCY,
        "Points efficiency by unit, best first, with 95% intervals",
        &["efficiency.csv", "efficiency.parquet"],
    );
    o.push_str("| rank | unit | kind | cost | efficiency | 1v1 mean score | points per point killed |\n");
    o.push_str("|---:|---|---|---:|---|---|---|\n");
    for r in &a.efficiency {
        let ppk = r.points_per_point_killed.as_ref().map_or("—".to_string(), ratio);
        let _ = writeln!(
            o,
            "| {} | {} | {} | {} | {} | {} | {} |",
            r.rank,
            md_cell(&r.unit.name),
            md_cell(&r.unit.kind),
            cost(r.unit.cost),
            pct(&r.efficiency),
            pct(&r.win_rate_1v1),
            ppk
        );
    }
    o.push('\n');

    if let Some(sweep) = &a.distance_sweep {
        sweep_section(o, a, sweep);
    }
    o.push_str(&super::win_rate_by_distance::section(a));

    super::fair_costs::section(o, a);

    let _ = writeln!(o, "## Points-matched matrix: {}\n", a.matrix_points.title);
    chart(
        o,
        charts::HEATMAP_POINTS,
        "Points-matched matchups: row unit's score against column unit",
        &["matrix_points.csv"],
    );
    matrix_table(o, a, &a.matrix_points);
    o.push('\n');

    let _ = writeln!(o, "## 1v1 matrix: {}\n", a.matrix_1v1.title);
    chart(o, charts::HEATMAP_1V1, "1v1 matchups: row unit's score against column unit", &["matrix_1v1.csv"]);
    matrix_table(o, a, &a.matrix_1v1);
    o.push('\n');
    o.push_str(&super::optimal_play::section(a));

    o.push_str(&super::study::sections(a));
    o.push_str(&super::skirmish::section(a));
    o.push_str("## Rules coverage\n\n");
    if a.coverage.is_empty() {
        o.push_str("No coverage table was given for this ruleset.\n\n");
    } else {
        o.push_str("| rule | source | status | note |\n|---|---|---|---|\n");
        for c in &a.coverage {
            let _ = writeln!(
                o,
                "| {} | {} | {} | {} |",
                md_cell(&c.rule),
                md_cell(&c.source),
                c.status.label(),
                md_cell(&c.note)
            );
        }
        o.push('\n');
    }
    lint_section(o, a);

    o.push_str("Every number above, with its interval, is also in [summary.json](summary.json).\n");
    out
}

/// `reports/README.md`: one line per ruleset, sorted by ruleset id.
pub fn index(entries: &[IndexEntry]) -> String {
    let mut sorted: Vec<&IndexEntry> = entries.iter().collect();
    sorted.sort_by(|a, b| a.ruleset.cmp(&b.ruleset));
    let mut o = String::new();
    o.push_str("# pointsworth reports\n\n");
    o.push_str(
        "One directory per ruleset, written by `pointsworth report`. **Efficiency** is the mean score \
         (win = 1, draw = ½) of a points-matched squad against every other unit's squad: 50% is even \
         with the field, above is too cheap, below too expensive. Brackets are 95% intervals; each \
         report explains its numbers in \"How to read this\".\n\n",
    );
    if sorted.is_empty() {
        o.push_str("No rulesets have been analysed yet.\n");
        return o;
    }
    o.push_str("| ruleset | units | budget | most efficient | least efficient | warnings |\n");
    o.push_str("|---|---:|---:|---|---|---:|\n");
    for e in sorted {
        let unit = |u: &Option<super::IndexUnit>| {
            u.as_ref().map_or("—".to_string(), |u| {
                format!("{} ({}): {}", md_cell(&u.name), cost(u.cost), pct(&u.efficiency))
            })
        };
        let _ = writeln!(
            o,
            "| [{}]({}/report.md) | {} | {} | {} | {} | {} |",
            md_cell(&e.title),
            e.ruleset,
            e.units,
            cost(e.budget),
            unit(&e.top),
            unit(&e.bottom),
            e.warnings
        );
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
    }

    #[test]
    fn sweep_cells_are_whole_percentages_with_interval() {
        let e = Estimate { value: 0.6213, lo: 0.604, hi: 0.6386 };
        assert_eq!(pct_int(&e), "62 [60, 64]");
        assert_eq!(pct_int(&Estimate::exact(0.5)), "50");
    }
}

/// The "Ruleset lint" section: printed values that look wrong, and how they are read.
fn lint_section(o: &mut String, a: &RulesetAnalysis) {
    if a.lint.is_empty() {
        return;
    }
    o.push_str("## Ruleset lint\n\n");
    o.push_str("Printed values that look like misprints or that no rule uses, and how pointsworth reads them.\n\n");
    o.push_str("| subject | finding | source |\n|---|---|---|\n");
    for f in &a.lint {
        let _ = writeln!(o, "| {} | {} | {} |", md_cell(&f.subject), md_cell(&f.finding), md_cell(&f.source));
    }
    o.push('\n');
}
