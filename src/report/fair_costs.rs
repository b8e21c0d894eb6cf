//! The "Suggested costs" part of a ruleset report: `fair_costs.csv`, the chart of current
//! against fair cost (`fair_costs.png`/`.svg`) and the Markdown section.
//!
//! The chart plots each unit at (current cost, fair cost) with the fair cost's 95% interval
//! as a whisker, and the line y = x: a unit above the line is worth more than it costs (too
//! cheap), below it too expensive. The Lanchester estimate is drawn beside it as a hollow
//! diamond so the reader sees where attrition arithmetic agrees with the simulation.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use polars::prelude::*;

use super::charts::{Chart, ensure_fonts, write_chart};
use super::format::{cost, md_cell, number, pct};
use crate::analysis::RulesetAnalysis;
use crate::analysis::balance::{FairCostRow, FairCosts};

/// File stem of the chart.
pub const CHART: &str = "fair_costs";
/// The table's file name.
pub const CSV: &str = "fair_costs.csv";

/// Writes `fair_costs.csv` and the chart when the analysis has suggested costs.
pub fn write(a: &RulesetAnalysis, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let Some(f) = &a.fair_costs else { return Ok(Vec::new()) };
    let path = dir.join(CSV);
    super::write_atomic(&path, &csv(f)?)?;
    ensure_fonts()?;
    let mut written = vec![path];
    written.extend(write_chart(&FairCostChart { title: a.title.clone(), f }, dir, CHART)?);
    Ok(written)
}

/// One row per unit in cost-list order; every estimate as `x`, `x_lo`, `x_hi`; missing
/// values (no fair cost, no Lanchester terms) are nulls.
pub fn frame(f: &FairCosts) -> PolarsResult<DataFrame> {
    let rows: &[FairCostRow] = &f.rows;
    let text =
        |name: &str, g: fn(&FairCostRow) -> &str| Column::new(name.into(), rows.iter().map(g).collect::<Vec<&str>>());
    let num =
        |name: &str, g: fn(&FairCostRow) -> f64| Column::new(name.into(), rows.iter().map(g).collect::<Vec<f64>>());
    let opt = |name: &str, g: fn(&FairCostRow) -> Option<f64>| {
        Column::new(name.into(), rows.iter().map(g).collect::<Vec<_>>())
    };
    let mut columns = vec![
        text("unit", |r| &r.unit.id),
        text("name", |r| &r.unit.name),
        text("kind", |r| &r.unit.kind),
        num("cost", |r| r.unit.cost),
        num("efficiency", |r| r.efficiency.value),
        num("efficiency_lo", |r| r.efficiency.lo),
        num("efficiency_hi", |r| r.efficiency.hi),
        opt("fair_cost", |r| r.fair_cost.map(|e| e.value)),
        opt("fair_cost_lo", |r| r.fair_cost.map(|e| e.lo)),
        opt("fair_cost_hi", |r| r.fair_cost.map(|e| e.hi)),
        opt("lanchester", |r| r.lanchester),
        opt("lanchester_firepower", |r| r.lanchester_terms.map(|t| t.0)),
        opt("lanchester_durability", |r| r.lanchester_terms.map(|t| t.1)),
        num("balanced_cost", |r| r.balanced_cost),
        num("balanced_efficiency", |r| r.balanced_efficiency.value),
        num("balanced_efficiency_lo", |r| r.balanced_efficiency.lo),
        num("balanced_efficiency_hi", |r| r.balanced_efficiency.hi),
        opt("fresh_efficiency", |r| r.fresh_efficiency.map(|e| e.value)),
        opt("fresh_efficiency_lo", |r| r.fresh_efficiency.map(|e| e.lo)),
        opt("fresh_efficiency_hi", |r| r.fresh_efficiency.map(|e| e.hi)),
        Column::new("step_limited".into(), rows.iter().map(|r| r.step_limited).collect::<Vec<_>>()),
        num("nash_weight", |r| r.nash_weight.value),
        num("nash_weight_lo", |r| r.nash_weight.lo),
        num("nash_weight_hi", |r| r.nash_weight.hi),
        num("bradley_terry", |r| r.bradley_terry.value),
        num("bradley_terry_lo", |r| r.bradley_terry.lo),
        num("bradley_terry_hi", |r| r.bradley_terry.hi),
        text("note", |r| &r.note),
    ];
    if let Some(anchor) = &f.anchor {
        // The derived list: the anchor's cost is exact (no interval: nulls in lo/hi).
        let derived = |part: fn(&crate::stats::Estimate) -> f64, exact: bool| {
            rows.iter()
                .map(|r| r.derived_cost.as_ref().filter(|_| exact || &r.unit.id != anchor).map(part))
                .collect::<Vec<_>>()
        };
        let at = columns.len() - 1;
        columns.insert(at, Column::new("derived_cost".into(), derived(|e| e.value, true)));
        columns.insert(at + 1, Column::new("derived_cost_lo".into(), derived(|e| e.lo, false)));
        columns.insert(at + 2, Column::new("derived_cost_hi".into(), derived(|e| e.hi, false)));
        columns.insert(
            at + 3,
            Column::new("anchor".into(), rows.iter().map(|r| &r.unit.id == anchor).collect::<Vec<_>>()),
        );
    }
    DataFrame::new(rows.len(), columns)
}

fn csv(f: &FairCosts) -> anyhow::Result<Vec<u8>> {
    let mut df = frame(f)?;
    let mut out = Vec::new();
    CsvWriter::new(&mut out).include_header(true).finish(&mut df)?;
    Ok(out)
}

/// `0.42 [0.30, 0.55]`: an estimate with two decimals.
pub fn two(e: &crate::stats::Estimate) -> String {
    format!("{:.2} [{:.2}, {:.2}]", e.value, e.lo, e.hi)
}

/// The "Suggested costs" section of `report.md` (nothing when the solver did not run).
pub fn section(o: &mut String, a: &RulesetAnalysis) {
    let Some(f) = &a.fair_costs else { return };
    if let Some(anchor) = f.rows.iter().find(|r| f.anchor.as_ref() == Some(&r.unit.id)) {
        derived_list(o, a, f, anchor);
    } else {
        o.push_str("## Suggested costs\n\n");
    }
    let _ = writeln!(
        o,
        "- **Fair cost**: the cost at which the unit's efficiency would be 50% with every other cost \
         unchanged, found by bisection over its cost with common random numbers ({} trials per matchup \
         per price, seed {}); the 95% interval carries the efficiency's interval through the local slope \
         of efficiency against cost.",
        f.trials, f.seed
    );
    o.push_str(
        "- **Lanchester**: the square-law estimate √(F·H) — F the expected hits per activation against \
         the field, H the enemy hits needed to destroy the unit — scaled so the field's mean equals the \
         mean current cost. Where it disagrees with the fair cost, rules the arithmetic ignores (range, \
         movement, blast, healing, activation limits) decide the fight.\n",
    );
    let _ = writeln!(
        o,
        "- **Balanced list**: all costs adjusted together (damped fixed-point iteration from the fair \
         costs, {} kept), rounded to multiples of {} points and improved one step at a time; the \
         efficiency beside each cost is the unit's efficiency in that list (goal: 50% ± {} percentage points), \
         and **fresh seed** is the same list re-simulated under another seed{}: what a designer playing it \
         would see.",
        f.rows
            .iter()
            .find(|r| f.anchor.as_ref() == Some(&r.unit.id))
            .map_or("mean cost".to_string(), |r| format!("{} cost", md_cell(&r.unit.name))),
        cost(f.cost_step),
        number(100.0 * f.tolerance, 1),
        f.fresh_seed.map_or(String::new(), |s| format!(" ({s})"))
    );
    o.push_str(
        "- **Nash weight**: the unit's share in the Nash-equilibrium mix of the points-matched matrix \
         (symmetric zero-sum game, payoff score − 50%): what a competitive player would field. \
         **Bradley–Terry**: the unit's strength (field geometric mean = 1); its odds against another \
         unit are the ratio of their strengths. Both come from the matrix at current costs; their \
         intervals are from a parametric bootstrap of that matrix.\n\n",
    );
    let _ = writeln!(o, "![Current cost against fair cost, with the y = x line]({CHART}.png)\n");
    let _ = writeln!(o, "Vector version: [{CHART}.svg]({CHART}.svg) · data: [{CSV}]({CSV})\n");
    o.push_str(
        "| unit | cost | efficiency | fair cost | Lanchester | balanced cost | efficiency there | fresh seed | Nash weight | Bradley–Terry |\n",
    );
    o.push_str("|---|---:|---|---|---:|---:|---|---|---:|---:|\n");
    for r in &f.rows {
        let fair = r.fair_cost.map_or_else(
            || format!("— ({})", md_cell(&r.note)),
            |e| format!("{} [{}, {}]", number(e.value, 1), number(e.lo, 1), number(e.hi, 1)),
        );
        let _ = writeln!(
            o,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            md_cell(&r.unit.name),
            cost(r.unit.cost),
            pct(&r.efficiency),
            fair,
            r.lanchester.map_or("—".into(), |l| number(l, 1)),
            cost(r.balanced_cost),
            pct(&r.balanced_efficiency),
            r.fresh_efficiency.as_ref().map_or("—".into(), pct),
            two(&r.nash_weight),
            two(&r.bradley_terry)
        );
    }
    o.push('\n');
    let _ = writeln!(o, "{}\n", verdict(f));
    if !f.unbalanced.is_empty() {
        o.push_str("Not balanced by the list:\n\n");
        for u in &f.unbalanced {
            let _ = writeln!(o, "- {}", md_cell(u));
        }
        o.push('\n');
    }
}

/// One sentence on how balanced the list is, for the report and the terminal.
pub fn verdict(f: &FairCosts) -> String {
    let tol = number(100.0 * f.tolerance, 1);
    let limited = f.rows.iter().filter(|r| r.step_limited).map(|r| r.unit.name.as_str()).collect::<Vec<_>>();
    let mut v = if f.balanced {
        format!("Every unit of the balanced list is within ±{tol} percentage points of 50%.")
    } else if f.balanced_to_step {
        format!(
            "Balanced as far as the {}-point cost step allows: every unit is within ±{tol} percentage points of 50% except {} \
             ({}), for which 50% lies between two neighbouring multiples of the step.",
            cost(f.cost_step),
            limited.join(", "),
            if limited.len() == 1 { "step-limited" } else { "all step-limited" }
        )
    } else {
        format!("The balanced list is NOT within ±{tol} percentage points of 50% for every unit.")
    };
    if let Some(seed) = f.fresh_seed {
        v.push_str(&if f.fresh_within {
            format!(
                " Re-simulated under a fresh seed ({seed}), every unit is within ±{tol} percentage points (allowing for that run's \
                 own interval) or step-limited."
            )
        } else {
            format!(" Re-simulated under a fresh seed ({seed}), some units fall outside ±{tol} percentage points.")
        });
    }
    v
}

struct FairCostChart<'a> {
    title: String,
    f: &'a FairCosts,
}

const W: u32 = 1100;
const H: u32 = 900;
const CHEAP: RGBColor = RGBColor(33, 102, 172);
const DEAR: RGBColor = RGBColor(178, 24, 43);
const LINE: RGBColor = RGBColor(120, 120, 120);
const DERIVED: RGBColor = RGBColor(27, 120, 55);

impl Chart for FairCostChart<'_> {
    fn size(&self) -> (u32, u32) {
        (W, H)
    }

    fn draw<DB>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB: DrawingBackend,
        DB::ErrorType: 'static,
    {
        root.fill(&WHITE)?;
        let rows = &self.f.rows;
        let top = rows
            .iter()
            .flat_map(|r| {
                [Some(r.unit.cost), r.fair_cost.map(|e| e.hi).filter(|x| x.is_finite()), r.lanchester]
                    .into_iter()
                    .flatten()
            })
            .fold(10.0f64, f64::max)
            * 1.08;
        let (main, foot) = root.split_vertically(H as i32 - if self.f.anchor.is_some() { 112 } else { 90 });
        let mut chart = ChartBuilder::on(&main)
            .caption(
                match self.f.rows.iter().find(|r| self.f.anchor.as_ref() == Some(&r.unit.id)) {
                    Some(a) => format!(
                        "{}: fair cost and derived list ({} = {})",
                        self.title,
                        a.unit.name,
                        super::format::cost(a.unit.cost)
                    ),
                    None => format!("{}: current cost vs fair cost", self.title),
                },
                ("sans-serif", 28).into_font(),
            )
            .margin(20)
            .x_label_area_size(60)
            .y_label_area_size(80)
            .build_cartesian_2d(0.0..top, 0.0..top)?;
        chart
            .configure_mesh()
            .x_desc("current cost (points)")
            .y_desc("fair cost (points), 95% interval")
            .label_style(("sans-serif", 18).into_font())
            .axis_desc_style(("sans-serif", 20).into_font())
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:.0}"))
            .light_line_style(WHITE)
            .bold_line_style(RGBColor(215, 215, 215))
            .draw()?;
        chart.draw_series(std::iter::once(DashedPathElement::new(
            vec![(0.0, 0.0), (top, top)],
            8,
            6,
            LINE.stroke_width(2),
        )))?;
        chart.draw_series(std::iter::once(Text::new(
            "y = x: worth its cost",
            (top * 0.80, top * 0.76),
            ("sans-serif", 18).into_font().color(&LINE),
        )))?;
        // Diamonds first, so the fair-cost points and their labels are drawn over them.
        for r in rows {
            if let Some(l) = r.lanchester {
                chart.draw_series(std::iter::once(
                    EmptyElement::at((r.unit.cost, l)) + diamond(7, BLACK.stroke_width(2)),
                ))?;
            }
        }
        for r in rows {
            let x = r.unit.cost;
            let Some(e) = r.fair_cost else { continue };
            let colour = if e.value >= x { CHEAP } else { DEAR };
            let hi = if e.hi.is_finite() { e.hi } else { top };
            chart.draw_series(std::iter::once(PathElement::new(vec![(x, e.lo), (x, hi)], colour.stroke_width(2))))?;
            for y in [e.lo, hi] {
                chart.draw_series(std::iter::once(
                    EmptyElement::at((x, y)) + PathElement::new(vec![(-6, 0), (6, 0)], colour.stroke_width(2)),
                ))?;
            }
            chart.draw_series(std::iter::once(Circle::new((x, e.value), 6, colour.filled())))?;
            chart.draw_series(std::iter::once(
                EmptyElement::at((x, e.value))
                    + Text::new(r.unit.name.clone(), (10, -9), ("sans-serif", 17).into_font().color(&colour)),
            ))?;
        }
        // The derived list (anchor set): a green cross with its whisker, a little right of x.
        let anchor = self.f.anchor.as_ref();
        for r in rows.iter().filter(|r| anchor.is_some_and(|a| a != &r.unit.id)) {
            let Some(e) = r.derived_cost else { continue };
            let x = r.unit.cost + top * 0.02;
            chart
                .draw_series(std::iter::once(PathElement::new(vec![(x, e.lo), (x, e.hi)], DERIVED.stroke_width(2))))?;
            chart.draw_series(std::iter::once(Cross::new((x, e.value), 6, DERIVED.stroke_width(3))))?;
            chart.draw_series(std::iter::once(
                EmptyElement::at((x, e.value))
                    + Text::new(
                        format!("{} derived {:.1}", r.unit.name, e.value),
                        (10, -9),
                        ("sans-serif", 17).into_font().color(&DERIVED),
                    ),
            ))?;
        }
        let legend = ("sans-serif", 18).into_font();
        let y = 20;
        foot.draw(&(EmptyElement::at((90, y)) + Circle::new((0, 0), 6, CHEAP.filled())))?;
        foot.draw(&Text::new("fair cost above current: too cheap", (102, y - 9), legend.clone().color(&CHEAP)))?;
        foot.draw(&(EmptyElement::at((440, y)) + Circle::new((0, 0), 6, DEAR.filled())))?;
        foot.draw(&Text::new("below: too expensive", (452, y - 9), legend.clone().color(&DEAR)))?;
        foot.draw(&(EmptyElement::at((680, y)) + diamond(7, BLACK.stroke_width(2))))?;
        foot.draw(&Text::new("Lanchester estimate", (694, y - 9), legend.clone()))?;
        let missing: Vec<&str> = rows.iter().filter(|r| r.fair_cost.is_none()).map(|r| r.unit.name.as_str()).collect();
        let note = format!(
            "{} trials per matchup per price, seed {}; where no whisker shows, the 95% interval is narrower than the dot",
            self.f.trials, self.f.seed
        );
        foot.draw(&Text::new(note, (90, y + 18), legend.clone().color(&LINE)))?;
        let mut line = y + 40;
        if let Some(a) = rows.iter().find(|r| anchor == Some(&r.unit.id)) {
            let text = format!(
                "green ×: derived cost list ({} = {} points held; each other unit fair with the others at their derived costs)",
                a.unit.name,
                super::format::cost(a.unit.cost)
            );
            foot.draw(&Text::new(text, (90, line), legend.clone().color(&DERIVED)))?;
            line += 22;
        }
        if !missing.is_empty() {
            let text = format!("not shown (no price balances them): {}", missing.join(", "));
            foot.draw(&Text::new(text, (90, line), legend.color(&LINE)))?;
        }
        Ok(())
    }
}

/// A hollow diamond of half-diagonal `r` pixels centred on the anchor.
fn diamond(r: i32, style: ShapeStyle) -> PathElement<(i32, i32)> {
    PathElement::new(vec![(0, -r), (r, 0), (0, r), (-r, 0), (0, -r)], style)
}

/// The heading, lead and table of a derived cost list (`[balance] anchor` set): one unit's
/// cost held, every other unit's derived cost with its 95% interval.
fn derived_list(o: &mut String, a: &RulesetAnalysis, f: &FairCosts, anchor: &FairCostRow) {
    let _ = writeln!(o, "## Derived cost list ({} = {})\n", md_cell(&anchor.unit.name), cost(anchor.unit.cost));
    let _ = writeln!(
        o,
        "The {} costs {} points by definition; every other unit's **derived cost** is its fair cost \
         (efficiency 50%, found by bisection with common random numbers, {} trials per matchup per price, \
         seed {}) with every other unit at its derived cost, so the list is consistent as a whole. The 95% \
         interval carries the efficiency's interval through the local slope of efficiency against cost. \
         These costs hold at the duel distance of {} {} and a budget of {} points a side: efficiency \
         varies strongly with distance (a long-ranged weapon gains the farther apart the sides start; see \
         the efficiency-by-distance chart), so games that open at other distances want other prices.\n",
        md_cell(&anchor.unit.name),
        cost(anchor.unit.cost),
        f.trials,
        f.seed,
        number(a.distance, 0),
        md_cell(&a.distance_unit),
        cost(a.budget)
    );
    o.push_str("| unit | starting cost | derived cost [95% CI] |\n|---|---:|---|\n");
    for r in &f.rows {
        let derived = if r.unit.id == anchor.unit.id {
            format!("{} (anchor)", cost(r.unit.cost))
        } else {
            r.derived_cost.map_or_else(
                || "— (no price balances it)".to_string(),
                |e| format!("{} [{}, {}]", number(e.value, 1), number(e.lo, 1), number(e.hi, 1)),
            )
        };
        let _ = writeln!(o, "| {} | {} | {} |", md_cell(&r.unit.name), cost(r.unit.cost), derived);
    }
    o.push_str("\nThe solver's working follows: fair costs at the starting costs, the rounded list, ratings.\n\n");
}
