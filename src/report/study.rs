//! The report's side of [`crate::rulesets::study`]: writes each study's tables and charts
//! beside `report.md` and gives the Markdown of every study, in the ruleset's order.

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;

use super::atomic::write_atomic;
use super::charts::{Chart, ensure_fonts, write_chart, write_score_heatmap};
use crate::analysis::RulesetAnalysis;
use crate::rulesets::study::{ChartSpec, PriceRow};

/// Writes every study's tables and charts into `dir`; returns the paths written.
pub fn write(a: &RulesetAnalysis, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for s in &a.studies {
        for t in &s.tables {
            let path = dir.join(&t.file);
            write_atomic(&path, t.text.as_bytes())?;
            written.push(path);
        }
        for c in &s.charts {
            ensure_fonts()?;
            written.extend(match &c.chart {
                ChartSpec::PriceRows { title, x_desc, rows, x_cap } => {
                    write_chart(&PriceChart { title, x_desc, rows, x_cap: *x_cap }, dir, &c.stem)?
                }
                ChartSpec::ScoreHeatmap { title, subtitle, labels, scores, notes, axes } => write_score_heatmap(
                    dir,
                    &c.stem,
                    title.clone(),
                    subtitle.clone(),
                    labels.clone(),
                    scores.clone(),
                    notes.clone(),
                    [axes[0].as_str(), axes[1].as_str()],
                )?,
            });
        }
    }
    Ok(written)
}

/// The Markdown of every study, in order (empty without studies).
pub fn sections(a: &RulesetAnalysis) -> String {
    a.studies.iter().map(|s| s.markdown.as_str()).collect()
}

/// A [`ChartSpec::PriceRows`] chart: book price beside fair price with its interval.
pub(super) struct PriceChart<'a> {
    pub title: &'a str,
    pub x_desc: &'a str,
    pub rows: &'a [PriceRow],
    pub x_cap: f64,
}

const ROW: u32 = 26;

impl Chart for PriceChart<'_> {
    fn size(&self) -> (u32, u32) {
        (1100, 170 + ROW * self.rows.len() as u32)
    }

    fn draw<DB>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB: DrawingBackend,
        DB::ErrorType: 'static,
    {
        root.fill(&WHITE)?;
        let rows = self.rows;
        let n = rows.len();
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        for r in rows {
            lo = lo.min(r.book);
            hi = hi.max(r.book);
            if let Some(f) = r.fair {
                lo = lo.min(f.lo);
                hi = hi.max(f.hi.min(self.x_cap));
            }
        }
        let (lo, hi) = ((lo - 0.5).floor(), (hi + 0.5).ceil());
        let names: Vec<String> = rows.iter().map(|r| r.label.clone()).collect();
        let mut chart = ChartBuilder::on(root)
            .caption(self.title, ("sans-serif", 26))
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
            .x_desc(self.x_desc)
            .label_style(("sans-serif", 16))
            .light_line_style(RGBColor(235, 235, 235))
            .draw()?;
        let y = |i: usize| (n - 1 - i) as f64;
        // Colour keeps one meaning on every chart: the fair price in the "fair" teal, the book's
        // price in black.
        let blue = super::charts::FAIR;
        let red = RGBColor(20, 20, 20);
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

/// The ruleset's own studies, each with its Markdown, tables and charts, in its order.
pub struct Studies;

impl super::Section for Studies {
    fn write_files(&self, a: &RulesetAnalysis, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
        write(a, dir)
    }

    fn markdown(&self, a: &RulesetAnalysis, o: &mut String) {
        o.push_str(&sections(a));
    }
}
