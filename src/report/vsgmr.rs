//! The VSGMR report section: the cost audit of the sample armies, and the attribute prices
//! (book price beside fair price with its interval) as a table and a chart. Filled by
//! `commands::vsgmr::attach_to_report`; empty for other rulesets.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;

use super::charts::{Chart, ensure_fonts, write_chart};
use crate::analysis::RulesetAnalysis;
use crate::rulesets::vsgmr::prices::{AttributePrices, mispriced};
use crate::rulesets::vsgmr::round_robin::VsgmrSkirmish;
use crate::stats::Estimate;

/// File stem of the book-price-vs-fair-price chart.
pub const PRICES: &str = "attribute_prices";

fn pts(x: f64) -> String {
    let s = format!("{x:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn interval(e: &Estimate) -> String {
    format!("{:+.2} [{:+.2}, {:+.2}]", e.value, e.lo, e.hi)
}

/// The Markdown section (empty without VSGMR results).
pub fn section(a: &RulesetAnalysis) -> String {
    let Some(v) = &a.vsgmr else { return String::new() };
    let mut o = String::new();
    o.push_str("## Attribute prices\n\n");
    let p = &v.prices;
    let _ = writeln!(
        o,
        "For each attribute of the points formula (sections IV–VI), the **fair price** is the added cost at which \
         a points-matched force of base figures with it is even (score 50%) against a force of the same figures \
         without it: the fair-cost solver's bisection with common random numbers, {} points a side, {} in apart, \
         {} trials per price, seed {}. Intervals are 95% (delta method through the local slope, plus the search's \
         resolution). *Score at book price* is the force with the attribute, bought at the book's price, against \
         the base force. Open ground, mirror fights: traits that pay off beside other figures or on terrain are \
         priced only by what they do here (see the notes).\n",
        pts(p.budget),
        pts(p.distance),
        p.trials,
        p.seed
    );
    let (under, over) = mispriced(p);
    let name = |x: &[(&crate::rulesets::vsgmr::prices::AttributePrice, f64)]| -> String {
        x.iter()
            .take(3)
            .map(|(r, _)| {
                let f = r.fair.expect("mispriced rows have a fair price");
                format!("{} (book {}, fair {:.2} [{:.2}, {:.2}])", r.attribute, pts(r.book), f.value, f.lo, f.hi)
            })
            .collect::<Vec<_>>()
            .join("; ")
    };
    if under.is_empty() {
        // Nothing is worth more than the book asks: name the attribute closest to its price.
        let best = p
            .rows
            .iter()
            .filter_map(|r| r.fair.map(|f| (r, f)))
            .filter(|(r, _)| r.book > 0.0)
            .max_by(|a, b| (a.1.value / a.0.book).total_cmp(&(b.1.value / b.0.book)));
        if let Some((r, f)) = best {
            let _ = write!(
                o,
                "**Best value:** no attribute is under-priced; the one worth most for its price is {} (book {}, fair \
                 {:.2} [{:.2}, {:.2}]).\n\n",
                r.attribute,
                pts(r.book),
                f.value,
                f.lo,
                f.hi
            );
        }
    }
    if under.is_empty() && over.is_empty() {
        o.push_str("**Note:** no attribute's interval excludes its book price.\n\n");
    } else {
        o.push_str("**Note:** ");
        if !under.is_empty() {
            let _ = write!(o, "most under-priced (worth more than the book asks): {}. ", name(&under));
        }
        if !over.is_empty() {
            let _ = write!(o, "Most over-priced (worth less than the book asks): {}.", name(&over));
        }
        o.push_str("\n\n");
    }
    let _ = writeln!(o, "![Book price against fair price per attribute]({PRICES}.png)\n");
    let _ = writeln!(o, "Vector version: [{PRICES}.svg]({PRICES}.svg)\n");
    o.push_str("| attribute | base figure | book price | fair price [95%] | score at book price | note |\n");
    o.push_str("|---|---|---|---|---|---|\n");
    for r in &p.rows {
        let fair = r.fair.as_ref().map_or("—".to_string(), interval);
        let s = &r.score_at_book;
        let _ = writeln!(
            o,
            "| {} | {} ({} pt) | {} | {} | {:.1}% [{:.1}, {:.1}] | {} |",
            r.attribute,
            r.base,
            pts(r.base_cost),
            pts(r.book),
            fair,
            100.0 * s.value,
            100.0 * s.lo,
            100.0 * s.hi,
            r.note
        );
    }
    o.push('\n');

    o.push_str("## Cost audit of the sample armies\n\n");
    o.push_str(
        "Every sample army of section VII priced by the formula of sections IV–VI against its printed points \
         (findings also under \"Ruleset lint\"; `pointsworth rules vsgmr` prints them). The book announces \
         thirteen sample armies and prints fourteen.\n\n",
    );
    o.push_str(
        "| army | printed points | sum of printed lines | formula | printed figures | figures listed | agrees |\n",
    );
    o.push_str("|---|---|---|---|---|---|---|\n");
    for r in &v.audit {
        let _ = writeln!(
            o,
            "| {} | {} | {} | {} | {} | {} | {} |",
            r.army,
            pts(r.printed_points),
            pts(r.printed_lines),
            pts(r.formula_points),
            r.printed_figures,
            r.counted_figures,
            if r.agrees() { "yes" } else { "no" }
        );
    }
    o.push('\n');
    if let Some(sk) = &v.skirmish {
        o.push_str(&skirmish_section(sk));
    }
    o
}

/// File stem of the sample-army round robin heatmap.
pub const ROUND_ROBIN: &str = "vsgmr_round_robin";

use super::format::pct_interval as pct;

/// The Skirmish part: the round robin of the sample armies and the random armies.
fn skirmish_section(sk: &VsgmrSkirmish) -> String {
    let mut o = String::new();
    o.push_str("## Skirmish: sample-army round robin\n\n");
    let _ = writeln!(
        o,
        "Skirmish games (section II): {}; winner: more enemy points destroyed, equal is a draw. Seed {}. \
         Intervals are Wilson 95%.\n",
        sk.table, sk.seed
    );
    if let Some(rr) = &sk.round_robin {
        let _ = writeln!(
            o,
            "Every sample army against every other, {} games with each army as side A (each pair twice that, \
             sides swapped). Armies differ in points: *wins per 10 points* divides the win rate by the army's \
             formula points / 10 (what the army buys per point); *destroyed per point* is enemy points destroyed \
             per game per point of own army.\n",
            rr.trials_per_order
        );
        let _ = writeln!(o, "![Sample-army round robin]({ROUND_ROBIN}.png)\n");
        let _ = writeln!(o, "Vector version: [{ROUND_ROBIN}.svg]({ROUND_ROBIN}.svg)\n");
        o.push_str("| army | points | figures | games | win rate [95%] | draws | wins per 10 points [95%] | destroyed per point |\n");
        o.push_str("|---|---|---|---|---|---|---|---|\n");
        let mut order: Vec<_> = rr.armies.iter().collect();
        order.sort_by(|a, b| b.wins_per_10_points.value.total_cmp(&a.wins_per_10_points.value));
        for a in order {
            let w = &a.wins_per_10_points;
            let _ = writeln!(
                o,
                "| {} | {} | {} | {} | {} | {} | {:.3} [{:.3}, {:.3}] | {:.3} |",
                a.name,
                pts(a.points),
                a.figures,
                a.games,
                pct(&a.win_rate),
                a.draws,
                w.value,
                w.lo,
                w.hi,
                a.destroyed_per_point
            );
        }
        o.push_str("\nPairwise win rates (row army against column army, both sides pooled) [95%]:\n\n");
        o.push_str("| row vs column |");
        for k in 0..rr.armies.len() {
            let _ = write!(o, " {} |", k + 1);
        }
        o.push_str("\n|---|");
        o.push_str(&"---|".repeat(rr.armies.len()));
        o.push('\n');
        for (i, a) in rr.armies.iter().enumerate() {
            let _ = write!(o, "| {}. {} |", i + 1, a.name);
            for c in &rr.cells[i] {
                match c {
                    Some(e) => {
                        let _ = write!(o, " {:.0} [{:.0}, {:.0}] |", 100.0 * e.value, 100.0 * e.lo, 100.0 * e.hi);
                    }
                    None => o.push_str(" — |"),
                }
            }
            o.push('\n');
        }
        o.push('\n');
    }
    if let Some(ra) = &sk.random {
        let _ = writeln!(
            o,
            "## Skirmish: random formula-priced armies\n\n{} games between random armies of {}–{} points each \
             (points drawn uniformly, filled with figure templates of the cost list drawn uniformly among those \
             that fit). Side A wins {}, draws {}; mean {:.2} rounds. If the formula prices figures right, the \
             side with more points should win more often, and armies within 2 points of each other about \
             evenly.\n",
            ra.games,
            ra.min_points,
            ra.max_points,
            pct(&ra.a_wins),
            pct(&ra.draws),
            ra.mean_rounds
        );
        o.push_str("| points A − B | games | A wins [95%] | draws [95%] |\n|---|---|---|---|\n");
        for r in &ra.rows {
            let _ = writeln!(o, "| {} | {} | {} | {} |", r.label, r.games, pct(&r.a_wins), pct(&r.draws));
        }
        o.push('\n');
    }
    o
}

/// Writes the price chart (PNG and SVG); nothing for other rulesets.
pub fn write(a: &RulesetAnalysis, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let Some(v) = &a.vsgmr else { return Ok(Vec::new()) };
    ensure_fonts()?;
    let mut written = write_chart(
        &PriceChart { p: &v.prices, title: format!("{}: book price vs fair price", a.title) },
        dir,
        PRICES,
    )?;
    if let Some(rr) = v.skirmish.as_ref().and_then(|s| s.round_robin.as_ref()) {
        let labels = rr.armies.iter().map(|a| format!("{} ({} pt)", a.name, pts(a.points))).collect();
        let scores = rr.cells.iter().map(|row| row.iter().map(|c| c.map_or(f64::NAN, |e| e.value)).collect()).collect();
        written.extend(super::charts::write_score_heatmap(
            dir,
            ROUND_ROBIN,
            format!("{}: sample-army round robin", a.title),
            format!("row army's win rate against column army, both sides pooled · seed {}", a.seed),
            labels,
            scores,
            vec![format!(
                "Skirmish games, {} per ordered pair; draws (equal points destroyed) count as not won. \
                 Intervals in the report's table.",
                rr.trials_per_order
            )],
            ["row army (either side)", "column army"],
        )?);
    }
    Ok(written)
}

struct PriceChart<'a> {
    p: &'a AttributePrices,
    title: String,
}

const ROW: u32 = 26;

impl Chart for PriceChart<'_> {
    fn size(&self) -> (u32, u32) {
        (1100, 170 + ROW * self.p.rows.len() as u32)
    }

    fn draw<DB>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB: DrawingBackend,
        DB::ErrorType: 'static,
    {
        root.fill(&WHITE)?;
        let rows = &self.p.rows;
        let n = rows.len();
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        for r in rows {
            lo = lo.min(r.book);
            hi = hi.max(r.book);
            if let Some(f) = r.fair {
                lo = lo.min(f.lo);
                hi = hi.max(f.hi.min(12.0));
            }
        }
        let (lo, hi) = ((lo - 0.5).floor(), (hi + 0.5).ceil());
        let names: Vec<String> = rows.iter().map(|r| r.attribute.clone()).collect();
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, ("sans-serif", 26))
            .margin(20)
            .x_label_area_size(50)
            .y_label_area_size(250)
            .build_cartesian_2d(lo..hi, -0.5f64..(n as f64 - 0.5))?;
        chart
            .configure_mesh()
            .y_labels(n)
            .y_label_formatter(&|y| {
                let k = y.round();
                if (y - k).abs() < 1e-6 && k >= 0.0 && (k as usize) < n {
                    names[n - 1 - k as usize].clone()
                } else {
                    String::new()
                }
            })
            .x_desc("points added to the base figure")
            .label_style(("sans-serif", 16))
            .light_line_style(RGBColor(235, 235, 235))
            .draw()?;
        let y = |i: usize| (n - 1 - i) as f64;
        let blue = RGBColor(33, 102, 172);
        let red = RGBColor(214, 96, 77);
        chart
            .draw_series(rows.iter().enumerate().filter_map(|(i, r)| {
                r.fair.map(|f| PathElement::new(vec![(f.lo.max(lo), y(i)), (f.hi.min(hi), y(i))], blue.stroke_width(3)))
            }))?
            .label("fair price, 95% interval")
            .legend(move |(x, yy)| PathElement::new(vec![(x, yy), (x + 20, yy)], blue.stroke_width(3)));
        chart.draw_series(
            rows.iter()
                .enumerate()
                .filter_map(|(i, r)| r.fair.map(|f| Circle::new((f.value.clamp(lo, hi), y(i)), 5, blue.filled()))),
        )?;
        chart
            .draw_series(rows.iter().enumerate().map(|(i, r)| TriangleMarker::new((r.book, y(i)), 7, red.filled())))?
            .label("book price")
            .legend(move |(x, yy)| TriangleMarker::new((x + 10, yy), 7, red.filled()));
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .label_font(("sans-serif", 16))
            .draw()?;
        Ok(())
    }
}
