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
use crate::rulesets::engine::{FairCostRow, FairCosts};

/// File stem of the chart.
pub const CHART: &str = "fair_costs";
/// The table's file name.
pub const CSV: &str = "fair_costs.csv";
/// Every price each unit's fair-cost search tried: the fair-cost curves.
pub const CURVE_CSV: &str = "fair_cost_curve.csv";

/// Writes `fair_costs.csv` and the chart when the analysis has suggested costs.
pub fn write(a: &RulesetAnalysis, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let Some(f) = &a.fair_costs else { return Ok(Vec::new()) };
    let path = dir.join(CSV);
    super::write_atomic(&path, &csv(f)?)?;
    let mut written = vec![path];
    if f.rows.iter().any(|r| !r.search.is_empty()) {
        let path = dir.join(CURVE_CSV);
        super::write_atomic(&path, curve_csv(f).as_bytes())?;
        written.push(path);
    }
    ensure_fonts()?;
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
        Column::new("rules_limited".into(), rows.iter().map(|r| r.rules_limited()).collect::<Vec<_>>()),
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

/// One row per price a unit's search tried, in cost-list order and the order tried: the
/// efficiency with its 95% interval (normal, ±1.96 standard errors, within [0, 1]).
fn curve_csv(f: &FairCosts) -> String {
    let z = crate::stats::z_for(crate::stats::CONFIDENCE);
    let mut t =
        crate::csv_text::CsvText::new(["unit", "name", "price", "efficiency", "efficiency_lo", "efficiency_hi"]);
    for r in &f.rows {
        for &[c, e, se] in &r.search {
            let (lo, hi) = ((e - z * se).max(0.0), (e + z * se).min(1.0));
            t.row([
                r.unit.id.clone(),
                r.unit.name.clone(),
                format!("{c:.4}"),
                format!("{e:.6}"),
                format!("{lo:.6}"),
                format!("{hi:.6}"),
            ]);
        }
    }
    t.finish()
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

/// A Bradley–Terry strength: two decimals, or two significant digits in scientific notation
/// for a number below 0.01 (a unit that loses nearly every game), `4.6e-3 [4.1e-3, 5.1e-3]`.
pub fn strength(e: &crate::stats::Estimate) -> String {
    let f = |x: f64| if x >= 0.01 { format!("{x:.2}") } else { format!("{x:.1e}") };
    format!("{} [{}, {}]", f(e.value), f(e.lo), f(e.hi))
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
    let left_out: Vec<String> = f.rows.iter().filter(|r| r.rules_limited()).map(|r| md_cell(&r.unit.name)).collect();
    if !left_out.is_empty() && left_out.len() < f.rows.len() {
        let _ = writeln!(
            o,
            "  No price balances {} (rules, not price): it keeps its cost and leaves the field of the balanced \
             list, so *efficiency there* and *fresh seed* are each unit's mean score against the other units, \
             {} left out; *efficiency* and *fair cost* are against the whole field.",
            left_out.join(", "),
            left_out.join(", ")
        );
    }
    o.push_str(
        "- **Nash weight**: the unit's share in the Nash-equilibrium mix of the points-matched matrix \
         (symmetric zero-sum game, payoff score − 50%): what a competitive player would field. \
         **Bradley–Terry**: the unit's strength (field geometric mean = 1); its odds against another \
         unit are the ratio of their strengths. Both come from the matrix at current costs. The \
         strengths are fitted to the win counts (a draw counts ½) with a one-game prior (half a win, half a \
         loss against a unit of strength 1), so a unit that loses or wins every matchup gets a finite \
         strength and an honest, wide interval; their intervals come from the fit's likelihood. The Nash \
         weights' intervals are from a parametric bootstrap of the matrix.\n\n",
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
            format!(
                "{}{}",
                pct(&r.balanced_efficiency),
                if r.rules_limited() {
                    " (no price balances it)"
                } else if r.step_limited {
                    " (step-limited)"
                } else {
                    ""
                }
            ),
            r.fresh_efficiency.as_ref().map_or("—".into(), pct),
            two(&r.nash_weight),
            strength(&r.bradley_terry)
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
    for n in &f.notes {
        let _ = writeln!(o, "Note: {}\n", md_cell(n));
    }
    for note in a.studies.iter().filter_map(|s| s.suggested_costs_note.as_deref()) {
        o.push_str(note);
    }
    let skirmish_upgrades: Vec<&str> = a
        .skirmish
        .iter()
        .flat_map(|s| s.runs.first())
        .flat_map(|run| run.value_in_army.iter().filter(|v| v.item == "upgrade").map(|v| v.name.as_str()))
        .collect();
    // A ruleset whose studies price its upgrades in duels says itself where the skirmish prices
    // come in (Army Men Combat); the sentence is for upgrades that act only in skirmishes.
    let priced_by_a_study = a.studies.iter().any(|s| s.suggested_costs_note.is_some());
    if !skirmish_upgrades.is_empty() && !priced_by_a_study {
        let game = a.skirmish.as_ref().map_or("Skirmish", |s| s.text.game.as_str());
        let _ = writeln!(
            o,
            "The upgrades ({}) act only in skirmishes, which these duels do not play: their fair price is the \
             **{} price** (cost × value in army) in \"{}: value in army\" below.\n",
            skirmish_upgrades.join(", "),
            game.to_lowercase(),
            game
        );
    }
}

/// One sentence on how balanced the list is, for the report and the terminal.
pub fn verdict(f: &FairCosts) -> String {
    let tol = number(100.0 * f.tolerance, 1);
    let names = |pick: fn(&FairCostRow) -> bool| {
        f.rows.iter().filter(|r| pick(r)).map(|r| r.unit.name.as_str()).collect::<Vec<_>>().join(", ")
    };
    let limited = names(|r| r.step_limited);
    let by_rules = names(|r| r.rules_limited());
    let mut v = if f.balanced {
        format!("Every unit of the balanced list is within ±{tol} percentage points of 50%.")
    } else if f.balanced_to_step {
        let mut except = Vec::new();
        if !limited.is_empty() {
            except.push(format!(
                "{limited}, for which one {}-point step of its price moves it across 50% (step-limited)",
                cost(f.cost_step)
            ));
        }
        if !by_rules.is_empty() {
            except.push(format!("{by_rules}, which no price balances (rules, not price)"));
        }
        let what = match (limited.is_empty(), by_rules.is_empty()) {
            (false, false) => "the cost step and the rules allow",
            (true, false) => "the rules allow",
            _ => "the cost step allows",
        };
        format!(
            "Balanced as far as {what}: every unit is within ±{tol} percentage points of 50% except {}.",
            except.join("; and ")
        )
    } else {
        format!("The balanced list is NOT within ±{tol} percentage points of 50% for every unit.")
    };
    if let Some(seed) = f.fresh_seed {
        v.push_str(&if f.fresh_within {
            format!(
                " Re-simulated under a fresh seed ({seed}), every unit is within ±{tol} percentage points (allowing for that run's \
                 own interval){}.",
                if limited.is_empty() && by_rules.is_empty() { "" } else { " or step- or rules-limited as above" }
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
/// Dots are filled with the call of the fair cost's interval against the current cost (the
/// colours every chart gives the calls); text, whiskers and the derived list stay dark.
const CHEAP: RGBColor = super::charts::TOO_CHEAP;
const EVEN: RGBColor = super::charts::FAIR;
const DEAR: RGBColor = super::charts::TOO_EXPENSIVE;
const INK: RGBColor = RGBColor(20, 20, 20);
const LINE: RGBColor = RGBColor(120, 120, 120);
const LANCHESTER: RGBColor = RGBColor(105, 105, 105);
const DERIVED: RGBColor = RGBColor(60, 60, 60);

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
        let anchor = self.f.anchor.as_ref();
        // Log–log axes: a unit twice too cheap sits as far from y = x at 10 points as at 100,
        // and the cheap units of a list (most of it) are not crammed into one corner.
        let values: Vec<f64> = rows
            .iter()
            .flat_map(|r| {
                [
                    Some(r.unit.cost),
                    r.fair_cost.map(|e| e.hi).filter(|x| x.is_finite()),
                    r.fair_cost.map(|e| e.lo),
                    r.lanchester,
                    r.derived_cost.map(|e| e.lo),
                    r.derived_cost.map(|e| e.hi),
                ]
                .into_iter()
                .flatten()
            })
            .filter(|&x| x > 0.0 && x.is_finite())
            .collect();
        let lo = values.iter().copied().fold(f64::INFINITY, f64::min).min(1e9) / 1.25;
        let top = values.iter().copied().fold(1.0f64, f64::max) * 1.25;
        let lo = if lo.is_finite() && lo < top { lo } else { top / 10.0 };
        let keys = nice_log_keys(lo, top);
        let (main, foot) = root.split_vertically(H as i32 - if anchor.is_some() { 112 } else { 90 });
        let mut chart = ChartBuilder::on(&main)
            .caption(
                match rows.iter().find(|r| anchor == Some(&r.unit.id)) {
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
            .build_cartesian_2d(
                (lo..top).log_scale().with_key_points(keys.clone()),
                (lo..top).log_scale().with_key_points(keys),
            )?;
        chart
            .configure_mesh()
            .x_desc("current cost (points, log scale)")
            .y_desc("fair cost (points, log scale), 95% interval")
            .label_style(("sans-serif", 18).into_font())
            .axis_desc_style(("sans-serif", 20).into_font())
            .x_label_formatter(&|x| super::format::cost(*x))
            .y_label_formatter(&|y| super::format::cost(*y))
            .light_line_style(WHITE)
            .bold_line_style(RGBColor(215, 215, 215))
            .draw()?;
        chart.draw_series(std::iter::once(DashedPathElement::new(
            vec![(lo, lo), (top, top)],
            8,
            6,
            LINE.stroke_width(2),
        )))?;
        let (px_x, px_y) = chart.plotting_area().get_pixel_range();
        let area = Rect { x0: px_x.start, y0: px_y.start, x1: px_x.end, y1: px_y.end };
        // Every marker (fair-cost dot, derived cross, Lanchester diamond), for label placement.
        let mut obstacles: Vec<Rect> = Vec::new();
        for r in rows {
            let x = r.unit.cost;
            let points = [
                r.fair_cost.map(|e| (x, e.value)),
                r.lanchester.filter(|&l| l > 0.0).map(|l| (x, l)),
                r.derived_cost.filter(|_| anchor.is_some_and(|a| a != &r.unit.id)).map(|e| (x * 1.03, e.value)),
            ];
            obstacles.extend(points.into_iter().flatten().map(|p| Rect::around(chart.backend_coord(&p), 8)));
        }
        let line_label = "y = x: worth its cost";
        let line_font = ("sans-serif", 18).into_font();
        let (lw, lh) = main.estimate_text_size(line_label, &line_font.clone().into())?;
        // Just below and right of a point on the line (the line rises away from it), the first
        // point from 60% of the way along that leaves the label clear of every marker.
        let line_box = [0.6, 0.5, 0.7, 0.4, 0.8, 0.3, 0.2, 0.9]
            .into_iter()
            .map(|t| {
                let at = lo * (top / lo).powf(t);
                let (ex, ey) = chart.backend_coord(&(at, at));
                Rect { x0: ex + 12, y0: ey + 12, x1: ex + 12 + lw as i32, y1: ey + 12 + lh as i32 }
            })
            .find(|b| b.inside(&area) && !obstacles.iter().any(|o| o.overlaps(b)));
        if let Some(b) = line_box {
            root.draw(&Text::new(line_label, (b.x0, b.y0), line_font.color(&LINE)))?;
        }
        // Diamonds first, so the fair-cost points and their labels are drawn over them.
        let mut lanchester_zero = Vec::new();
        let mut lanchester_labels: Vec<Label> = Vec::new();
        for r in rows {
            match r.lanchester {
                Some(l) if l > 0.0 => {
                    chart.draw_series(std::iter::once(
                        EmptyElement::at((r.unit.cost, l)) + diamond(7, BLACK.stroke_width(2)),
                    ))?;
                    lanchester_labels.push(Label {
                        at: chart.backend_coord(&(r.unit.cost, l)),
                        text: format!("L {}", r.unit.name),
                        colour: LANCHESTER,
                    });
                }
                Some(_) => lanchester_zero.push(r.unit.name.as_str()),
                None => {}
            }
        }
        let label_font = ("sans-serif", 17).into_font();
        let mut labels: Vec<Label> = Vec::new();
        for r in rows {
            let x = r.unit.cost;
            let Some(e) = r.fair_cost else { continue };
            let colour = if e.lo > x {
                CHEAP
            } else if e.hi < x {
                DEAR
            } else {
                EVEN
            };
            let hi = if e.hi.is_finite() { e.hi } else { top };
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(x, e.lo.max(lo)), (x, hi.min(top))],
                INK.stroke_width(2),
            )))?;
            for y in [e.lo.max(lo), hi.min(top)] {
                chart.draw_series(std::iter::once(
                    EmptyElement::at((x, y)) + PathElement::new(vec![(-6, 0), (6, 0)], INK.stroke_width(2)),
                ))?;
            }
            chart.draw_series(std::iter::once(Circle::new((x, e.value), 7, INK.filled())))?;
            chart.draw_series(std::iter::once(Circle::new((x, e.value), 5, colour.filled())))?;
            labels.push(Label { at: chart.backend_coord(&(x, e.value)), text: r.unit.name.clone(), colour: INK });
        }
        // Each Lanchester diamond is labelled too ("L Mortar"), after the units' own labels.
        labels.extend(lanchester_labels);
        // The derived list (anchor set): a dark cross with its whisker, a little right of x.
        for r in rows.iter().filter(|r| anchor.is_some_and(|a| a != &r.unit.id)) {
            let Some(e) = r.derived_cost else { continue };
            let x = r.unit.cost * 1.03;
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(x, e.lo.max(lo)), (x, e.hi.min(top))],
                DERIVED.stroke_width(2),
            )))?;
            chart.draw_series(std::iter::once(Cross::new((x, e.value), 6, DERIVED.stroke_width(3))))?;
            labels.push(Label {
                at: chart.backend_coord(&(x, e.value)),
                text: format!("{} derived {:.1}", r.unit.name, e.value),
                colour: DERIVED,
            });
        }
        // Labels placed one by one where they overlap no other label and no marker; a label
        // pushed away from its point gets a thin leader line.
        let sizes: Vec<(u32, u32)> = labels
            .iter()
            .map(|l| main.estimate_text_size(&l.text, &label_font.clone().into()))
            .collect::<Result<_, _>>()?;
        let markers: Vec<Rect> = labels.iter().map(|l| Rect::around(l.at, 8)).collect();
        let blocked: Vec<Rect> = obstacles.iter().chain(&line_box).copied().filter(|o| !markers.contains(o)).collect();
        let placed = place_labels(&labels, &sizes, &markers, &blocked, &area);
        for ((l, rect), &(_, h)) in labels.iter().zip(&placed).zip(&sizes) {
            let mid = (rect.y0 + rect.y1) / 2;
            if (mid - l.at.1).abs() > h as i32 {
                let end_x = if rect.x0 >= l.at.0 { rect.x0 - 2 } else { rect.x1 + 2 };
                root.draw(&PathElement::new(vec![l.at, (end_x, mid)], l.colour.mix(0.6).stroke_width(1)))?;
            }
            root.draw(&Text::new(l.text.clone(), (rect.x0, rect.y0), label_font.clone().color(&l.colour)))?;
        }
        let legend = ("sans-serif", 18).into_font();
        let y = 20;
        let mut x = 90;
        for (fill, text) in [(CHEAP, "too cheap (interval above the cost)"), (EVEN, "fair"), (DEAR, "too expensive")] {
            foot.draw(&(EmptyElement::at((x, y)) + Circle::new((0, 0), 7, INK.filled())))?;
            foot.draw(&(EmptyElement::at((x, y)) + Circle::new((0, 0), 5, fill.filled())))?;
            foot.draw(&Text::new(text, (x + 12, y - 9), legend.clone().color(&INK)))?;
            x += 44 + crate::plot::text_width(text, 18.0);
        }
        foot.draw(&(EmptyElement::at((x, y)) + diamond(7, BLACK.stroke_width(2))))?;
        foot.draw(&Text::new("L: Lanchester estimate (reference)", (x + 14, y - 9), legend.clone().color(&LANCHESTER)))?;
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
        let mut not_shown = Vec::new();
        if !missing.is_empty() {
            not_shown.push(format!("no fair cost (no price balances them): {}", missing.join(", ")));
        }
        if !lanchester_zero.is_empty() {
            not_shown.push(format!("Lanchester estimate 0 (no firepower): {}", lanchester_zero.join(", ")));
        }
        if !not_shown.is_empty() {
            let text = format!("not shown: {}", not_shown.join("; "));
            foot.draw(&Text::new(text, (90, line), legend.color(&LINE)))?;
        }
        Ok(())
    }
}

/// A text label for the point at pixel `at`.
struct Label {
    at: (i32, i32),
    text: String,
    colour: RGBColor,
}

/// A pixel rectangle, `x0 <= x1`, `y0 <= y1` (y down).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Rect {
    x0: i32,
    y0: i32,
    x1: i32,
    y1: i32,
}

impl Rect {
    fn around((x, y): (i32, i32), r: i32) -> Rect {
        Rect { x0: x - r, y0: y - r, x1: x + r, y1: y + r }
    }
    /// The same rectangle `by` pixels larger on every side.
    fn grown(&self, by: i32) -> Rect {
        Rect { x0: self.x0 - by, y0: self.y0 - by, x1: self.x1 + by, y1: self.y1 + by }
    }
    fn overlaps(&self, o: &Rect) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }
    fn inside(&self, o: &Rect) -> bool {
        self.x0 >= o.x0 && self.x1 <= o.x1 && self.y0 >= o.y0 && self.y1 <= o.y1
    }
}

/// Greedy label placement: each label (pixel sizes `sizes`) takes the first spot, trying the
/// right of its point then the left, level with it then ever further up and down, that stays
/// inside `area` and keeps 3 px clear of every label placed before it, overlaps no marker but its own and no
/// `blocked` box. When every spot is taken it goes right of its point, level with it.
fn place_labels(labels: &[Label], sizes: &[(u32, u32)], markers: &[Rect], blocked: &[Rect], area: &Rect) -> Vec<Rect> {
    let mut placed: Vec<Rect> = Vec::with_capacity(labels.len());
    for (i, (l, &(w, h))) in labels.iter().zip(sizes).enumerate() {
        let (w, h) = (w as i32, h as i32);
        let at = |dx: i32, dy: i32| Rect { x0: l.at.0 + dx, y0: l.at.1 + dy, x1: l.at.0 + dx + w, y1: l.at.1 + dy + h };
        let level = -h / 2;
        let spots = (0..14).flat_map(|k| {
            let dy = [level - (k + 1) / 2 * (h + 2), level + (k + 1) / 2 * (h + 2)][k as usize % 2];
            [at(10, dy), at(-10 - w, dy)]
        });
        let free = |r: &Rect| {
            r.inside(area)
                && !placed.iter().any(|p| p.grown(3).overlaps(r))
                && !markers.iter().enumerate().any(|(j, m)| j != i && m.overlaps(r))
                && !blocked.iter().any(|b| b.overlaps(r))
        };
        let spot = spots.clone().find(free).unwrap_or_else(|| at(10, level));
        placed.push(spot);
    }
    placed
}

/// Axis key points of a log axis from `lo` to `hi`: the finest of 1, 2, 5 / 1, 2, 3, 5 / 1–9 /
/// 1, 1.2, 1.5, 2, 2.5, 3, 4, … 9 times the powers of ten that puts at most eight keys inside
/// it (1, 2, 5 when even that puts more).
fn nice_log_keys(lo: f64, hi: f64) -> Vec<f64> {
    const SETS: [&[f64]; 4] = [
        &[1.0, 2.0, 5.0],
        &[1.0, 2.0, 3.0, 5.0],
        &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0],
        &[1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0],
    ];
    let keys_of = |mantissas: &[f64]| {
        let mut keys = Vec::new();
        let mut p = 10f64.powf(lo.log10().floor());
        while p <= hi {
            keys.extend(mantissas.iter().map(|m| m * p).filter(|&k| k >= lo && k <= hi));
            p *= 10.0;
        }
        keys
    };
    let mut best = keys_of(SETS[0]);
    for set in &SETS[1..] {
        let keys = keys_of(set);
        if keys.len() > 8 {
            break;
        }
        best = keys;
    }
    best
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
         varies strongly with distance (a long-ranged weapon gains the farther apart the sides start{}), \
         so games that open at other distances want other prices.\n",
        md_cell(&anchor.unit.name),
        cost(anchor.unit.cost),
        f.trials,
        f.seed,
        number(a.distance, 0),
        md_cell(&a.distance_unit),
        cost(a.budget),
        if a.distance_sweep.is_some() {
            "; see the efficiency-by-distance chart"
        } else {
            "; this report has no distance sweep to show by how much"
        }
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

/// The "Suggested costs" section (only when the balance solver ran).
pub struct SuggestedCosts;

impl super::Section for SuggestedCosts {
    fn write_files(&self, a: &RulesetAnalysis, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
        write(a, dir)
    }

    fn markdown(&self, a: &RulesetAnalysis, o: &mut String) {
        section(o, a);
    }
}
