//! "Verdict": one row per unit, first in every output — the cost, the verdict, the suggested
//! cost with its interval, where the methods stand, the duels' sampling interval beside the
//! play-quality bound, and the Lanchester reference; then the stated rule
//! ([`crate::analysis::verdict`]) that makes the verdict. It writes `verdict.csv`.
//!
//! The texts here are shared by `report.md`, the page (`report.html`) and the terminal, so a
//! verdict reads the same everywhere.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::Section;
use super::format::{cost, md_cell, number, pct};
use crate::analysis::RulesetAnalysis;
use crate::analysis::verdict::{Suggested, UnitVerdict, Verdict, verdicts};

/// The verdicts' table.
pub const CSV: &str = "verdict.csv";

/// The title line and the run's identity, first in `report.md`.
pub struct Title;

impl Section for Title {
    fn markdown(&self, a: &RulesetAnalysis, o: &mut String) {
        let _ = writeln!(o, "# {}: is every unit worth its points?\n", a.title);
        let _ = writeln!(
            o,
            "Ruleset `{}` · pointsworth {} · config `{}` (FNV-1a `{}`) · seed {} · the same report as a page: \
             [report.html](report.html)\n",
            a.ruleset, a.version, a.config_path, a.config_hash, a.seed
        );
    }
}

/// The "Verdict" section.
pub struct VerdictSection;

impl Section for VerdictSection {
    fn write_files(&self, a: &RulesetAnalysis, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
        let path = dir.join(CSV);
        super::write_atomic(&path, csv(&verdicts(a)).as_bytes())?;
        Ok(vec![path])
    }

    fn markdown(&self, a: &RulesetAnalysis, o: &mut String) {
        let all = verdicts(a);
        let (units, upgrades): (Vec<&UnitVerdict>, Vec<&UnitVerdict>) = all.iter().partition(|v| v.item == "unit");
        o.push_str("## Verdict\n\n");
        let _ = writeln!(o, "{}\n", lead(&units));
        let play = units.iter().any(|v| v.play.is_some());
        table(o, &units, play, true);
        if !upgrades.is_empty() {
            o.push_str("\nUpgrades, priced by value in army only (the duels do not play them):\n\n");
            table(o, &upgrades, false, false);
        }
        o.push('\n');
        for p in rule(a) {
            let _ = writeln!(o, "{p}\n");
        }
        let _ = writeln!(o, "Data: [{CSV}]({CSV}). The sections below give every method's numbers.\n");
    }
}

/// The verdict table; `duels: false` (upgrades, which only the games price) leaves out the
/// duel and Lanchester columns, which would be "—" in every row.
fn table(o: &mut String, rows: &[&UnitVerdict], play: bool, duels: bool) {
    o.push_str("| unit | cost | verdict | suggested cost [95% CI] | where the methods stand |");
    let mut rule = String::from("|---|---:|---|---:|---|");
    if duels {
        o.push_str(" duels: efficiency [95% CI, sampling only] |");
        rule.push_str("---|");
    }
    if play {
        o.push_str(" play bound: 1v1 exploitability (exact) |");
        rule.push_str("---|");
    }
    if duels {
        o.push_str(" Lanchester (reference) |");
        rule.push_str("---:|");
    }
    let _ = writeln!(o, "\n{rule}");
    for v in rows {
        let _ = write!(
            o,
            "| {} | {} | **{}**{} | {} | {} |",
            md_cell(&v.name),
            cost(v.cost),
            v.verdict.label(),
            reading_mark(v),
            suggested_text(v, true),
            md_cell(&v.line),
        );
        if duels {
            let _ = write!(o, " {} |", duel_text(v));
        }
        if play {
            let _ = write!(o, " {} |", play_text(v));
        }
        if duels {
            let _ = write!(o, " {} |", lanchester_text(v));
        }
        o.push('\n');
    }
}

/// `12 units: 5 too cheap, 0 fair, 7 too expensive, 0 depend on the game; the methods agree on
/// 8 of 12 units.`
pub fn lead(units: &[&UnitVerdict]) -> String {
    let n = |v: Verdict| units.iter().filter(|u| u.verdict == v).count();
    let agree = units.iter().filter(|u| u.agree).count();
    let methods = units.iter().map(|u| u.evidence.len()).max().unwrap_or(0);
    let agreement = if methods > 1 {
        format!("; the methods agree on {agree} of {} units", units.len())
    } else {
        String::new()
    };
    let split = n(Verdict::DependsOnGame);
    format!(
        "{} unit{}: {} too cheap, {} fair, {} too expensive, {split} {}{agreement}.",
        units.len(),
        if units.len() == 1 { "" } else { "s" },
        n(Verdict::TooCheap),
        n(Verdict::Fair),
        n(Verdict::TooExpensive),
        Verdict::DependsOnGame.counted(split)
    )
}

/// The verdicts that occur among `units`, with how many units have each and its label after
/// that count, in the order too cheap, fair, too expensive, depends on the game (for the index).
pub fn counts(units: &[&UnitVerdict]) -> Vec<(usize, &'static str)> {
    [Verdict::TooCheap, Verdict::Fair, Verdict::TooExpensive, Verdict::DependsOnGame]
        .into_iter()
        .map(|v| {
            let n = units.iter().filter(|u| u.verdict == v).count();
            (n, v.counted(n))
        })
        .filter(|(n, _)| *n > 0)
        .collect()
}

/// One decimal as the tables print prices: `65.1 [64.1, 66.0] (duels)`,
/// `40 (keep; fair [38.2, 42.0] (duels))`, `—`.
pub fn suggested_text(v: &UnitVerdict, with_source: bool) -> String {
    let Some(Suggested { value, interval, from }) = &v.suggested else {
        return match v.verdict {
            Verdict::DependsOnGame => "— (a price per game: see the line)".to_string(),
            _ => "—".to_string(),
        };
    };
    let range = |i: &Option<[f64; 2]>| match i {
        Some([lo, hi]) => format!("[{lo:.1}, {hi:.1}]"),
        None => "[unbounded]".to_string(),
    };
    let source = if with_source && !from.is_empty() { format!(" ({from})") } else { String::new() };
    if v.verdict == Verdict::Fair {
        return match interval {
            Some(_) => format!("{} (keep; fair {}{source})", cost(*value), range(interval)),
            None => format!("{} (keep)", cost(*value)),
        };
    }
    format!("{value:.1} {}{source}", range(interval))
}

/// The verdict cell's marker for a unit whose call flips under another reading of a rule
/// ([`UnitVerdict::readings`]): ` ⚑ hangs on a reading: self_blast = spared`, or nothing.
pub fn reading_mark(v: &UnitVerdict) -> String {
    if v.readings.is_empty() {
        String::new()
    } else {
        format!(" ⚑ hangs on a reading: {}", v.readings.join(", "))
    }
}

/// The duels' efficiency with its interval, or `—`.
pub fn duel_text(v: &UnitVerdict) -> String {
    v.duels().map_or("—".to_string(), |e| pct(&e.value))
}

/// `up to 64.2 points (v Machine Gunner)`, or `—`.
pub fn play_text(v: &UnitVerdict) -> String {
    v.play.as_ref().map_or("—".to_string(), |p| {
        format!("up to {:.1} points (v {})", 100.0 * p.worst, p.worst_against)
    })
}

/// The Lanchester estimate with one decimal, as the suggested-costs table prints it, or `—`.
pub fn lanchester_text(v: &UnitVerdict) -> String {
    v.lanchester.map_or("—".to_string(), |l| format!("{l:.1}"))
}

/// The rule that makes the verdict, and what the intervals cover: paragraphs of plain text
/// (Markdown emphasis only), for `report.md` and the page.
pub fn rule(a: &RulesetAnalysis) -> Vec<String> {
    let budget = cost(a.budget);
    let distance = format!("{} {}", number(a.distance, 2), a.distance_unit);
    let games: Vec<String> = a
        .skirmish
        .iter()
        .flat_map(|sk| {
            let basic = sk.runs.first().filter(|r| !r.value_in_army.is_empty()).map(|r| sk.mission_label(r));
            basic.into_iter().chain(sk.missions.iter().filter(|r| !r.value_in_army.is_empty()).map(|r| sk.mission_label(r)))
        })
        .collect();
    let mut out = Vec::new();
    // The skirmish's played tactic: the default, or the tactic metagame's equilibrium.
    let tactic = match a.skirmish.as_ref().and_then(|sk| sk.metagame.as_ref()) {
        Some(m) => match m.played {
            Some(0) => "default tactic".to_string(),
            Some(t) => format!("the `{}` tactic, the tactic metagame's equilibrium", m.tactics[t]),
            None => format!("the tactic metagame's equilibrium, {}", m.play_text()),
        },
        None => "default tactic".to_string(),
    };
    let skirmish = if games.is_empty() {
        String::new()
    } else {
        format!(
            "; **value in army** in each game of {} (random legal armies, {tactic}; log-odds per 100 points \
             against the field mean: above 0 too cheap, below too expensive)",
            games.join(", ")
        )
    };
    out.push(format!(
        "**How the verdict is made.** Each method calls a unit from its own 95% interval: **duels** by its \
         efficiency ({budget}-point squads against every other unit's, {distance} apart: above 50% too cheap, below \
         too expensive){skirmish}; an interval that contains even calls it fair. The verdict is *too cheap* when some \
         method says too cheap and none says too expensive, *too expensive* the other way round, *fair* when none \
         says either, and *depends on the game* when methods point opposite ways: then the line says which game \
         each call holds for. The methods *agree* when every one gives the same call. The Lanchester square-law \
         estimate has no interval: it is a reference and never counts."
    ));
    out.push(
        "**Suggested cost.** For a mispriced unit, the fair price nearest the current cost among the methods that \
         make the verdict's call: the smallest change each of them supports, with that method's 95% interval \
         (in brackets: the game it comes from; a bounded interval before an unbounded one). For a fair unit, its current cost, with the narrowest fair range \
         of the methods that call it fair. None when the verdict depends on the game."
            .to_string(),
    );
    let mut covers = "**What the intervals cover.** Every interval is a 95% sampling interval: it covers the \
                      dice, not the play."
        .to_string();
    if let Some(o) = &a.optimal_play {
        let _ = write!(
            covers,
            " The play bound beside it is separate and exact: how many score points a best response gains against the \
             scripted tactic in the unit's one-against-one games at {} {} (optimal play, worst pair; across the list \
             the worst is {} points). Where it is large the numbers measure the tactic as well as the unit.",
            number(o.distance, 2),
            a.distance_unit,
            number(100.0 * o.exploitability_max, 1)
        );
    }
    out.push(covers);
    out
}

/// `verdict.csv`: one row per item, units then upgrades.
fn csv(all: &[UnitVerdict]) -> String {
    let mut t = crate::csv_text::CsvText::new([
        "item",
        "unit",
        "name",
        "cost",
        "verdict",
        "agree",
        "suggested_cost",
        "suggested_lo",
        "suggested_hi",
        "suggested_from",
        "line",
        "duel_efficiency",
        "duel_efficiency_lo",
        "duel_efficiency_hi",
        "play_bound",
        "play_bound_against",
        "lanchester",
    ]);
    for v in all {
        let (sv, slo, shi, from) = match &v.suggested {
            Some(x) => (
                format!("{:.4}", x.value),
                x.interval.map_or(String::new(), |i| format!("{:.4}", i[0])),
                x.interval.map_or(String::new(), |i| format!("{:.4}", i[1])),
                x.from.clone(),
            ),
            None => Default::default(),
        };
        let d = v.duels().map(|e| e.value);
        let f = |x: Option<f64>| x.map_or(String::new(), |x| format!("{x:.6}"));
        t.row([
            v.item.to_string(),
            v.id.clone(),
            v.name.clone(),
            v.cost.to_string(),
            v.verdict.label().to_string(),
            v.agree.to_string(),
            sv,
            slo,
            shi,
            from,
            v.line.clone(),
            f(d.map(|e| e.value)),
            f(d.map(|e| e.lo)),
            f(d.map(|e| e.hi)),
            f(v.play.as_ref().map(|p| p.worst)),
            v.play.as_ref().map_or(String::new(), |p| p.worst_against.clone()),
            v.lanchester.map_or(String::new(), |l| format!("{l:.4}")),
        ]);
    }
    t.finish()
}

/// The verdict table for the terminal (`report`, `matrix`): one row per unit, then the
/// upgrades, then the rule in one line.
pub fn terminal(a: &RulesetAnalysis) -> String {
    use comfy_table::{Cell, CellAlignment};
    let all = verdicts(a);
    let units: Vec<&UnitVerdict> = all.iter().filter(|v| v.item == "unit").collect();
    let play = units.iter().any(|v| v.play.is_some());
    let mut t = crate::term::table();
    let mut header = vec!["unit", "cost", "verdict", "suggested cost [95% CI]", "where the methods stand", "duels: efficiency [95% CI, sampling]"];
    if play {
        header.push("play bound (1v1, exact)");
    }
    t.set_header(header);
    for v in &all {
        let name = if v.item == "unit" { v.name.clone() } else { format!("{} (upgrade)", v.name) };
        let mut cells = vec![
            Cell::new(name),
            Cell::new(cost(v.cost)).set_alignment(CellAlignment::Right),
            Cell::new(format!("{}{}", v.verdict.label(), reading_mark(v))),
            Cell::new(suggested_text(v, true)),
            Cell::new(&v.line),
            Cell::new(duel_text(v)),
        ];
        if play {
            cells.push(Cell::new(play_text(v)));
        }
        t.add_row(cells);
    }
    format!(
        "{}\n{t}\nverdict: too cheap when a method's 95% interval says so and none says too expensive (and the other \
         way round); fair when none says either; intervals cover sampling only{}\n",
        format!("{}: {}", a.title, lead(&units)),
        if play { "; the play bound is the scripted tactic's exploitability" } else { "" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(verdict: Verdict, suggested: Option<Suggested>, lanchester: Option<f64>) -> UnitVerdict {
        UnitVerdict {
            id: "riflemen".into(),
            name: "Riflemen".into(),
            item: "unit".into(),
            cost: 15.0,
            verdict,
            agree: true,
            line: String::new(),
            suggested,
            evidence: Vec::new(),
            lanchester,
            play: None,
            readings: Vec::new(),
        }
    }

    /// Prices print with one decimal, as the suggested-costs table prints them: a whole number
    /// keeps its `.0` (`25.0`, not `25`), an unbounded interval says so.
    #[test]
    fn prices_print_as_the_tables_print_them() {
        let s = |value, interval| Some(Suggested { value, interval, from: "duels".into() });
        let cheap = item(Verdict::TooCheap, s(24.34, Some([23.66, 25.0])), Some(28.0));
        assert_eq!(suggested_text(&cheap, true), "24.3 [23.7, 25.0] (duels)");
        assert_eq!(suggested_text(&cheap, false), "24.3 [23.7, 25.0]");
        assert_eq!(lanchester_text(&cheap), "28.0");
        let unbounded = item(Verdict::TooCheap, s(18.0, None), None);
        assert_eq!(suggested_text(&unbounded, false), "18.0 [unbounded]");
        assert_eq!(lanchester_text(&unbounded), "—");
        let fair = item(Verdict::Fair, s(15.0, Some([12.0, 17.5])), None);
        assert_eq!(suggested_text(&fair, true), "15 (keep; fair [12.0, 17.5] (duels))");
        let split = item(Verdict::DependsOnGame, None, None);
        assert_eq!(suggested_text(&split, true), "— (a price per game: see the line)");
    }

    /// Counts read as English: one unit *depends* on the game, several *depend*; verdicts no
    /// unit has are left out of the index's counts, never out of the lead.
    #[test]
    fn counts_agree_with_their_number() {
        let split = item(Verdict::DependsOnGame, None, None);
        let cheap = item(Verdict::TooCheap, None, None);
        assert_eq!(counts(&[&split, &cheap]), vec![(1, "too cheap"), (1, "depends on the game")]);
        assert_eq!(counts(&[&split, &split]), vec![(2, "depend on the game")]);
        assert_eq!(
            lead(&[&split]),
            "1 unit: 0 too cheap, 0 fair, 0 too expensive, 1 depends on the game."
        );
    }
}
