//! "Which readings decide the verdicts" (issue 43): each reading switch of the ruleset played
//! each way ([`crate::analysis::readings`]): the switches, the verdicts that flip, the largest
//! moves, the rule holes optimal play finds, the quick suggested costs and each unit's mean
//! 1v1 score under optimal play per reading. Writes `readings.csv` (every change). The same
//! text is what `pointsworth rules RULESET --sensitivity` prints ([`text`]).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::Section;
use super::format::{cost, md_cell, number, pct_interval};
use crate::analysis::RulesetAnalysis;
use crate::analysis::readings::{Change, HOLE, Metric, PAIR_FLIP, QUICK_TARGET_ERROR, Readings, TYPICAL_SLOPE};

/// Every change, one row each.
pub const CSV: &str = "readings.csv";

/// The section.
pub struct ReadingsSection;

impl Section for ReadingsSection {
    fn write_files(&self, a: &RulesetAnalysis, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
        let Some(x) = &a.readings else {
            super::remove_stale(dir, &[CSV.to_string()])?;
            return Ok(Vec::new());
        };
        let path = dir.join(CSV);
        super::write_atomic(&path, csv(x).as_bytes())?;
        Ok(vec![path])
    }

    fn markdown(&self, a: &RulesetAnalysis, out: &mut String) {
        if let Some(x) = &a.readings {
            out.push_str(&section(x, &a.distance_unit, true));
        }
    }
}

/// `readings.csv`: reading, subject, metric, both values with their intervals and calls.
pub fn csv(x: &Readings) -> String {
    let mut t = crate::csv_text::CsvText::new([
        "reading",
        "subject",
        "metric",
        "default",
        "default_lo",
        "default_hi",
        "alternative",
        "alternative_lo",
        "alternative_hi",
        "default_call",
        "alternative_call",
    ]);
    for c in x.all_changes() {
        let f = |v: f64| format!("{v:.6}");
        t.row([
            c.reading.replace(' ', ""),
            c.subject.to_string(),
            c.metric.label().to_string(),
            f(c.default.value),
            f(c.default.lo),
            f(c.default.hi),
            f(c.alternative.value),
            f(c.alternative.lo),
            f(c.alternative.hi),
            c.default_call.to_string(),
            c.alternative_call.to_string(),
        ]);
    }
    t.finish()
}

/// The section as the terminal prints it (`rules --sensitivity`): the Markdown without the
/// link to the CSV.
pub fn text(x: &Readings, unit: &str) -> String {
    format!("\n{}", section(x, unit, false))
}

/// A value as its change's metric prints it: efficiency with its interval, an optimal score
/// (exact) with two decimals.
fn value(c: &Change, alternative: bool) -> String {
    let (e, call) = if alternative { (&c.alternative, &c.alternative_call) } else { (&c.default, &c.default_call) };
    match c.metric {
        Metric::Efficiency => format!("{} {call}", pct_interval(e)),
        Metric::OptimalScore => format!("{:.2}% ({call})", 100.0 * e.value),
    }
}

/// A change in score points with its sign.
fn signed(d: f64) -> String {
    format!("{:+.1}", 100.0 * d)
}

/// The section's Markdown; `files`: link `readings.csv`.
pub fn section(x: &Readings, unit: &str, files: bool) -> String {
    let mut s = String::from("## Which readings decide the verdicts\n\n");
    let _ = writeln!(
        s,
        "Each rule the rulebook lets a player read two ways, where the reading can move a number, is a switch of the \
         config's `[rules]` table (docs/rulings/readings.md). Each alternative is played here beside the reading in \
         force: the 1v1 matrix under optimal play at {} {unit} (exact, both sides optimal), each unit's points \
         efficiency from a points-matched matrix at a quick precision (±{:.0} points per matchup, seed {}, the same \
         dice for every reading), and a quick suggested cost, one step in ln(cost) from that efficiency at the \
         balance solver's typical slope ({} per unit of ln cost; a first-order estimate to compare readings by, \
         not the solver's price). A unit's **verdict depends on a reading** when its efficiency call (too cheap, \
         fair, too expensive from its 95% interval) changes with it; a pair flips when its favoured side under \
         optimal play changes and its score moves at least {:.0} points.\n",
        number(x.distance, 2),
        100.0 * x.target_error.max(QUICK_TARGET_ERROR),
        x.seed,
        number(TYPICAL_SLOPE, 2),
        100.0 * PAIR_FLIP
    );
    s.push_str("| reading | rule | in force | efficiency calls that flip | pairs that flip | largest move |\n");
    s.push_str("|---|---|---|---|---|---|\n");
    for alt in &x.alternatives {
        let label = alt.label();
        let of = |m: Metric| -> Vec<&str> {
            x.flips.iter().filter(|c| c.reading == label && c.metric == m).map(|c| c.subject.as_str()).collect()
        };
        let list = |v: Vec<&str>| if v.is_empty() { "none".to_string() } else { md_cell(&v.join(", ")) };
        let top = x
            .all_changes()
            .into_iter()
            .filter(|c| c.reading == label)
            .max_by(|p, q| p.delta().abs().total_cmp(&q.delta().abs()))
            .map_or("—".to_string(), |c| {
                format!("{} {}: {} points", md_cell(&c.subject), c.metric.label(), signed(c.delta()))
            });
        let _ = writeln!(
            s,
            "| `{label}` | {} | `{}` | {} | {} | {top} |",
            md_cell(&alt.rule),
            alt.default,
            list(of(Metric::Efficiency)),
            list(of(Metric::OptimalScore))
        );
    }
    for r in &x.refused {
        let _ = writeln!(s, "\nNot played: {}.", md_cell(r));
    }
    s.push('\n');
    let _ = writeln!(s, "### Verdicts that flip\n");
    if x.flips.is_empty() {
        s.push_str("No call flips under any alternative reading.\n\n");
    } else {
        s.push_str("| reading | unit or pair | metric | in force | alternative |\n|---|---|---|---|---|\n");
        let mut flips: Vec<&Change> = x.flips.iter().collect();
        flips.sort_by(|p, q| q.delta().abs().total_cmp(&p.delta().abs()));
        for c in flips {
            let _ = writeln!(
                s,
                "| `{}` | {} | {} | {} | {} |",
                c.reading,
                md_cell(&c.subject),
                c.metric.label(),
                value(c, false),
                value(c, true)
            );
        }
        s.push('\n');
    }
    let _ = writeln!(s, "### Largest moves, worst first\n");
    s.push_str("| reading | unit or pair | metric | in force | alternative | change (points) |\n");
    s.push_str("|---|---|---|---|---|---:|\n");
    for c in &x.moves {
        let _ = writeln!(
            s,
            "| `{}` | {} | {} | {} | {} | {} |",
            c.reading,
            md_cell(&c.subject),
            c.metric.label(),
            value(c, false),
            value(c, true),
            signed(c.delta())
        );
    }
    s.push('\n');
    let _ = writeln!(s, "### Rule holes found by optimal play\n");
    let _ = writeln!(
        s,
        "Pairs whose value under optimal play moves by {:.0} points or more when one reading is switched: optimal \
         play leans on that rule, so the rulebook should settle it. Scores are the first unit's.\n",
        100.0 * HOLE
    );
    if x.holes.is_empty() {
        s.push_str("None.\n\n");
    } else {
        s.push_str("| pair | reading | score as read now | score under the alternative | change (points) |\n");
        s.push_str("|---|---|---:|---:|---:|\n");
        for c in &x.holes {
            let _ = writeln!(
                s,
                "| {} | `{}` (now `{}`) | {:.2}% | {:.2}% | {} |",
                md_cell(&c.subject),
                c.reading,
                x.alternatives
                    .iter()
                    .find(|a| a.label() == c.reading)
                    .map_or(String::new(), |a| a.default.clone()),
                100.0 * c.default.value,
                100.0 * c.alternative.value,
                signed(c.delta())
            );
        }
        s.push('\n');
    }
    let _ = writeln!(s, "### Quick suggested costs and mean 1v1 score under optimal play, per reading\n");
    s.push_str("Each cell: quick suggested cost [95% CI] · mean 1v1 score under optimal play against the other units.\n\n");
    let _ = write!(s, "| unit | cost | in force |");
    for alt in &x.alternatives {
        let _ = write!(s, " `{}` |", alt.label());
    }
    s.push_str("\n|---|---:|---|");
    for _ in &x.alternatives {
        s.push_str("---|");
    }
    s.push('\n');
    let snaps: Vec<&crate::analysis::readings::Snapshot> =
        std::iter::once(&x.default).chain(x.alternatives.iter().map(|a| &a.snapshot)).collect();
    for (i, name) in x.names.iter().enumerate() {
        let _ = write!(s, "| {} | {} |", md_cell(name), cost(x.costs[i]));
        for snap in &snaps {
            let e = snap.suggested[i];
            let others: Vec<f64> =
                (0..x.names.len()).filter(|&j| j != i).filter_map(|j| snap.optimal[i][j]).collect();
            let mean = if others.is_empty() {
                "—".to_string()
            } else {
                format!("{:.1}%", 100.0 * others.iter().sum::<f64>() / others.len() as f64)
            };
            let _ = write!(s, " {:.1} [{:.1}, {:.1}] · {mean} |", e.value, e.lo, e.hi);
        }
        s.push('\n');
    }
    s.push('\n');
    if files {
        let _ = writeln!(s, "Data: [{CSV}]({CSV}) (every unit and pair under every reading); the matrices are in `summary.json`.\n");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::readings::{Alternative, Snapshot, assemble, quick_cost};
    use crate::rulesets::UnitInfo;
    use crate::stats::Estimate;

    /// The section names the reading, the pair that flips with both values, and the rule hole;
    /// the CSV has one row per unit and pair.
    #[test]
    fn the_section_lists_the_flip_and_the_hole() {
        let unit = |n: &str, c: f64| UnitInfo { id: n.to_lowercase(), name: n.into(), cost: c, kind: "infantry".into() };
        let (rifles, tank) = (unit("Riflemen", 15.0), unit("Tank", 100.0));
        let snap = |e: [f64; 2], s: f64| {
            let efficiency: Vec<Estimate> = e.iter().map(|&v| Estimate { value: v, lo: v - 0.03, hi: v + 0.03 }).collect();
            Snapshot {
                suggested: efficiency.iter().zip([15.0, 100.0]).map(|(e, c)| quick_cost(c, e)).collect(),
                efficiency,
                optimal: vec![vec![Some(0.5), Some(s)], vec![Some(1.0 - s), Some(0.5)]],
            }
        };
        let alt = Alternative {
            key: "self_blast".into(),
            default: "caught".into(),
            value: "spared".into(),
            rule: "Blast radius".into(),
            snapshot: snap([0.50, 0.50], 0.005),
        };
        let x = assemble(&[&rifles, &tank], snap([0.56, 0.44], 0.755), vec![alt], 12.0, 0.02, 42);
        let md = section(&x, "in", true);
        assert!(md.contains("## Which readings decide the verdicts"), "{md}");
        assert!(md.contains("| `self_blast = spared` | Riflemen v Tank | 1v1 under optimal play | 75.50% (Riflemen favoured) | 0.50% (Tank favoured) |"), "{md}");
        assert!(md.contains("| Riflemen v Tank | `self_blast = spared` (now `caught`) | 75.50% | 0.50% | -75.0 |"), "{md}");
        assert_eq!(x.flips_of("tank").len(), 2, "{:?}", x.flips);
        assert_eq!(csv(&x).lines().count(), 1 + 2 + 1);
    }
}
