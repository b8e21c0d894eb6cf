//! "Points efficiency": each unit's mean score against the field with points-matched squads,
//! as a table (`efficiency.csv`, `efficiency.parquet`), a bar chart with interval whiskers
//! (`efficiency.png`/`.svg`) and the report's ranking table.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::charts::{
    CAPTION_LINE, CAPTION_SIZE, Chart, GRID, HEADER_HEIGHT, LABEL_SIZE, MUTED, PAD, TEXT, call_color, draw_caption,
    draw_header, ensure_fonts, style, write_chart,
};
use super::format::{self, cost, md_cell, pct, ratio};
use super::markdown::chart;
use super::{Section, tables, write_atomic};
use crate::analysis::RulesetAnalysis;
use crate::plot::{text_width, wrap_all};
use crate::stats::Estimate;

/// File stem of the chart (`efficiency.png`, `efficiency.svg`).
pub const CHART: &str = "efficiency";

/// The "Points efficiency" section.
pub struct Efficiency;

impl Section for Efficiency {
    fn write_files(&self, a: &RulesetAnalysis, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
        let mut written = Vec::new();
        for (name, bytes) in
            [("efficiency.csv", tables::efficiency_csv(a)?), ("efficiency.parquet", tables::efficiency_parquet(a)?)]
        {
            let path = dir.join(name);
            write_atomic(&path, &bytes)?;
            written.push(path);
        }
        ensure_fonts()?;
        written.extend(write_chart(&EfficiencyChart::new(a), dir, CHART)?);
        Ok(written)
    }

    fn markdown(&self, a: &RulesetAnalysis, o: &mut String) {
        o.push_str("## Points efficiency\n\n");
        chart(
            o,
            CHART,
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
    }
}

struct EfficiencyChart {
    title: String,
    subtitle: String,
    /// Best first: label ("Snipers (35)") and efficiency.
    bars: Vec<(String, Estimate)>,
    caption: Vec<String>,
}

const EFF_WIDTH: i32 = 1100;
const EFF_ROW: i32 = 44;
const EFF_X_AXIS: i32 = 62;
const VALUE_HEADING: &str = "efficiency [95% interval]";

impl EfficiencyChart {
    fn new(a: &RulesetAnalysis) -> Self {
        let budget = format::cost(a.budget);
        EfficiencyChart {
            title: format!("{}: points efficiency", a.title),
            subtitle: format!("{budget}-point squads, each against every other unit's squad · seed {}", a.seed),
            bars: a.efficiency.iter().map(|r| (format::unit_label(&r.unit), r.efficiency)).collect(),
            caption: vec![
                "Bar: efficiency, the mean score (win = 1, draw = ½) · whisker and brackets: 95% interval \
                 (sampling only) · dashed line: 50%, even with the field."
                    .to_string(),
                "Yellow: interval above 50% (the unit is too cheap) · purple: below 50% (too expensive) · \
                 teal: cannot be told from even (fair)."
                    .to_string(),
            ],
        }
    }

    fn caption_lines(&self) -> Vec<String> {
        wrap_all(&self.caption, CAPTION_SIZE, EFF_WIDTH - 2 * PAD)
    }

    fn footer_height(&self) -> i32 {
        self.caption_lines().len() as i32 * CAPTION_LINE + PAD + 12
    }

    /// The value column right of the plot, as the tables print it: `62.1% [60.9, 63.3]`.
    fn value_text(e: &Estimate) -> String {
        pct(e)
    }

    fn value_width(&self) -> i32 {
        let widest = self.bars.iter().map(|(_, e)| text_width(&Self::value_text(e), LABEL_SIZE)).max();
        widest.unwrap_or(0).max(text_width(VALUE_HEADING, LABEL_SIZE))
    }
}

impl Chart for EfficiencyChart {
    fn size(&self) -> (u32, u32) {
        let rows = self.bars.len().max(1) as i32;
        let h = HEADER_HEIGHT + 20 + EFF_ROW * rows + EFF_X_AXIS + self.footer_height();
        (EFF_WIDTH as u32, h as u32)
    }

    fn draw<DB>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB: DrawingBackend,
        DB::ErrorType: 'static,
    {
        let (w, h) = self.size();
        let (w, h) = (w as i32, h as i32);
        root.fill(&WHITE)?;
        draw_header(root, w, &self.title, &self.subtitle)?;
        let footer = self.footer_height();
        draw_caption(root, &self.caption_lines(), PAD, h - footer + 16)?;

        let value_gap = 24;
        let plot = root.margin(HEADER_HEIGHT, footer, PAD / 2, PAD + value_gap + self.value_width());
        let n = self.bars.len();
        if n == 0 {
            plot.draw_text("no units", &style(LABEL_SIZE, &MUTED, HPos::Center, VPos::Center), (w / 2, 40))?;
            return Ok(());
        }
        let label_width = self.bars.iter().map(|(l, _)| text_width(l, LABEL_SIZE)).max().unwrap_or(0) + 20;
        let top = n as f64 - 0.5;
        let mut chart = ChartBuilder::on(&plot)
            .margin_top(12)
            .x_label_area_size(EFF_X_AXIS)
            .y_label_area_size(label_width)
            .build_cartesian_2d(0f64..1f64, -0.5f64..top)?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(0)
            .x_labels(11)
            .x_label_formatter(&|x| format!("{:.0}%", 100.0 * x))
            .x_desc("points efficiency (score against the field, 50% = even)")
            .label_style(style(LABEL_SIZE, &TEXT, HPos::Center, VPos::Center))
            .axis_desc_style(style(LABEL_SIZE, &TEXT, HPos::Center, VPos::Center))
            .bold_line_style(GRID)
            .light_line_style(WHITE)
            .axis_style(MUTED)
            .draw()?;

        // Row i (0 = best) sits at y = n-1-i so the best unit is at the top. Unit labels are
        // drawn by hand: plotters' custom key points do not combine with label formatters.
        let label_style = style(LABEL_SIZE, &TEXT, HPos::Right, VPos::Center);
        let value_style = style(LABEL_SIZE, &TEXT, HPos::Left, VPos::Center);
        for (i, (label, e)) in self.bars.iter().enumerate() {
            let (left, y) = chart.backend_coord(&(0.0, (n - 1 - i) as f64));
            let (right, _) = chart.backend_coord(&(1.0, 0.0));
            root.draw_text(label, &label_style, (left - 10, y))?;
            root.draw_text(&Self::value_text(e), &value_style, (right + value_gap, y))?;
        }
        let (right, top_y) = chart.backend_coord(&(1.0, top));
        root.draw_text(
            VALUE_HEADING,
            &style(LABEL_SIZE, &MUTED, HPos::Left, VPos::Bottom),
            (right + value_gap, top_y - 2),
        )?;

        for (i, (_, e)) in self.bars.iter().enumerate() {
            let y = (n - 1 - i) as f64;
            let fill = call_color(e, 0.5);
            let (v, lo, hi) = (e.value.clamp(0.0, 1.0), e.lo.clamp(0.0, 1.0), e.hi.clamp(0.0, 1.0));
            chart.draw_series(std::iter::once(Rectangle::new([(0.0, y - 0.32), (v, y + 0.32)], fill.filled())))?;
            chart.draw_series(std::iter::once(Rectangle::new([(0.0, y - 0.32), (v, y + 0.32)], MUTED.stroke_width(1))))?;
            // A white halo under the whisker keeps it readable over the darkest bar.
            for whisker in [WHITE.stroke_width(5), TEXT.stroke_width(2)] {
                chart.draw_series([
                    PathElement::new(vec![(lo, y), (hi, y)], whisker),
                    PathElement::new(vec![(lo, y - 0.17), (lo, y + 0.17)], whisker),
                    PathElement::new(vec![(hi, y - 0.17), (hi, y + 0.17)], whisker),
                ])?;
            }
        }
        chart.draw_series(DashedLineSeries::new(
            vec![(0.5, -0.5), (0.5, top)],
            10,
            7,
            RGBColor(40, 40, 40).stroke_width(2),
        ))?;
        Ok(())
    }
}
