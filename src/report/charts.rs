//! Charts: points efficiency bars and matchup heatmaps, each as PNG and SVG.
//!
//! Every chart is drawn by one generic function over plotters' `DrawingBackend`, so the PNG
//! and the SVG show exactly the same thing. Text uses DejaVu Sans embedded in the binary
//! (registered with plotters' `ab_glyph` backend as `sans-serif`), so charts render the same
//! on a bare CI image with no system fonts; SVG viewers substitute their own `sans-serif`.
//!
//! Layouts are computed from measured text widths rather than fixed margins, so long unit
//! names push the grid aside instead of being clipped. Files are written atomically: the SVG
//! from an in-memory string, the PNG through a hidden temporary `.png` path (plotters' PNG
//! encoder writes only to paths) that is renamed over the target.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use anyhow::{Context, anyhow};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::register_font;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::atomic::{persist, temp_path, write_atomic};
use super::format;
use crate::analysis::{Matrix, RulesetAnalysis};
use crate::stats::Estimate;

/// File stems of the charts (`STEM.png`, `STEM.svg`).
pub const EFFICIENCY: &str = "efficiency";
pub const HEATMAP_POINTS: &str = "heatmap_points";
pub const HEATMAP_1V1: &str = "heatmap_1v1";

const FAMILY: &str = "sans-serif";
// Sizes are plotters font sizes: the glyph height in pixels, about 1.2 × the em size.
const TITLE_SIZE: f64 = 28.0;
const SUBTITLE_SIZE: f64 = 19.0;
const LABEL_SIZE: f64 = 19.0;
const CAPTION_SIZE: f64 = 18.0;
const PAD: i32 = 24;

const TEXT: RGBColor = RGBColor(20, 20, 20);
const MUTED: RGBColor = RGBColor(80, 80, 80);
const GRID: RGBColor = RGBColor(222, 222, 222);
const ABOVE: RGBColor = RGBColor(67, 147, 195);
const BELOW: RGBColor = RGBColor(214, 96, 77);
const EVEN: RGBColor = RGBColor(175, 175, 175);

/// Registers the embedded DejaVu Sans faces once per process; text cannot be drawn without.
pub fn ensure_fonts() -> anyhow::Result<()> {
    static FONTS: OnceLock<Result<(), &'static str>> = OnceLock::new();
    let result = FONTS.get_or_init(|| {
        register_font(FAMILY, FontStyle::Normal, dejavu::sans::regular())
            .map_err(|_| "DejaVu Sans")?;
        register_font(FAMILY, FontStyle::Bold, dejavu::sans::bold())
            .map_err(|_| "DejaVu Sans Bold")?;
        Ok(())
    });
    result.map_err(|face| anyhow!("the embedded font {face} could not be loaded"))
}

/// Writes the efficiency chart and both heatmaps as PNG and SVG into `dir`.
pub fn write_charts(a: &RulesetAnalysis, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    ensure_fonts()?;
    let mut written = Vec::new();
    written.extend(write_chart(&EfficiencyChart::new(a), dir, EFFICIENCY)?);
    let points_title = format!("{}: points-matched matchups", a.title);
    written.extend(write_chart(
        &Heatmap::new(a, &a.matrix_points, points_title),
        dir,
        HEATMAP_POINTS,
    )?);
    let duel_title = format!("{}: 1v1 matchups", a.title);
    written.extend(write_chart(
        &Heatmap::new(a, &a.matrix_1v1, duel_title),
        dir,
        HEATMAP_1V1,
    )?);
    Ok(written)
}

/// A chart that can draw itself on any plotters backend.
trait Chart {
    fn size(&self) -> (u32, u32);
    fn draw<DB>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB: DrawingBackend,
        DB::ErrorType: 'static;
}

fn write_chart(chart: &impl Chart, dir: &Path, stem: &str) -> anyhow::Result<Vec<PathBuf>> {
    let size = chart.size();

    let svg_path = dir.join(format!("{stem}.svg"));
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        chart
            .draw(&root)
            .with_context(|| format!("drawing {}", svg_path.display()))?;
        root.present()?;
    }
    write_atomic(&svg_path, svg.as_bytes())?;

    let png_path = dir.join(format!("{stem}.png"));
    let tmp = temp_path(&png_path, ".png");
    let drawn = (|| -> anyhow::Result<()> {
        let root = BitMapBackend::new(&tmp, size).into_drawing_area();
        chart.draw(&root)?;
        root.present()?;
        Ok(())
    })();
    if let Err(e) = drawn {
        let _ = std::fs::remove_file(&tmp);
        return Err(e.context(format!("drawing {}", png_path.display())));
    }
    persist(&tmp, &png_path)?;
    Ok(vec![png_path, svg_path])
}

// ---------------------------------------------------------------------------------------
// Text helpers

fn font(size: f64) -> FontDesc<'static> {
    (FAMILY, size).into_font()
}

fn style(size: f64, color: &RGBColor, h: HPos, v: VPos) -> TextStyle<'static> {
    TextStyle {
        font: font(size),
        color: color.to_backend_color(),
        pos: Pos::new(h, v),
    }
}

fn bold(size: f64, color: &RGBColor, h: HPos, v: VPos) -> TextStyle<'static> {
    // `FontDesc::style` keeps the regular face's glyphs; a new FontDesc loads the bold face.
    let font = FontDesc::new(FontFamily::Name(FAMILY), size, FontStyle::Bold);
    TextStyle {
        font,
        color: color.to_backend_color(),
        pos: Pos::new(h, v),
    }
}

/// Width in pixels of `text` at `size` (a generous guess if the font cannot measure it).
fn text_width(text: &str, size: f64) -> i32 {
    font(size).box_size(text).map_or(
        (text.chars().count() as f64 * size * 0.6) as i32,
        |(w, _)| w as i32,
    )
}

/// Breaks each paragraph into lines no wider than `max` pixels, at spaces.
fn wrap_all(paragraphs: &[String], size: f64, max: i32) -> Vec<String> {
    paragraphs.iter().flat_map(|p| wrap(p, size, max)).collect()
}

/// Breaks `text` into lines no wider than `max` pixels, at spaces.
fn wrap(text: &str, size: f64, max: i32) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let candidate = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if !line.is_empty() && text_width(&candidate, size) > max {
            lines.push(std::mem::replace(&mut line, word.to_string()));
        } else {
            line = candidate;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Title (bold) and subtitle, centred in the top [`HEADER_HEIGHT`] pixels.
fn draw_header<DB>(
    root: &DrawingArea<DB, Shift>,
    width: i32,
    title: &str,
    subtitle: &str,
) -> anyhow::Result<()>
where
    DB: DrawingBackend,
    DB::ErrorType: 'static,
{
    root.draw_text(
        title,
        &bold(TITLE_SIZE, &TEXT, HPos::Center, VPos::Center),
        (width / 2, 30),
    )?;
    root.draw_text(
        subtitle,
        &style(SUBTITLE_SIZE, &MUTED, HPos::Center, VPos::Center),
        (width / 2, 64),
    )?;
    Ok(())
}
const HEADER_HEIGHT: i32 = 90;
const CAPTION_LINE: i32 = 26;

fn draw_caption<DB>(
    root: &DrawingArea<DB, Shift>,
    lines: &[String],
    x: i32,
    y: i32,
) -> anyhow::Result<()>
where
    DB: DrawingBackend,
    DB::ErrorType: 'static,
{
    let st = style(CAPTION_SIZE, &MUTED, HPos::Left, VPos::Top);
    for (k, line) in lines.iter().enumerate() {
        root.draw_text(line, &st, (x, y + k as i32 * CAPTION_LINE))?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Colours

/// ColorBrewer RdBu (7 classes), from "row loses" (red, score 0) through white (0.5) to
/// "row wins" (blue, score 1). Colour-blind safe and readable in greyscale.
const DIVERGING: [(u8, u8, u8); 7] = [
    (178, 24, 43),
    (239, 138, 98),
    (253, 219, 199),
    (247, 247, 247),
    (209, 229, 240),
    (103, 169, 207),
    (33, 102, 172),
];

/// The heatmap colour of a score in [0, 1].
///
/// Distances from 0.5 are stretched (`|2d|^0.6`) before picking the colour: balance questions
/// live between 30% and 70%, where a linear scale would leave every cell nearly white.
fn score_color(score: f64) -> RGBColor {
    let d = if score.is_finite() {
        score.clamp(0.0, 1.0) - 0.5
    } else {
        0.0
    };
    let stretched = 0.5 + 0.5 * d.signum() * (2.0 * d.abs()).powf(0.6);
    let t = stretched * (DIVERGING.len() - 1) as f64;
    let i = (t.floor() as usize).min(DIVERGING.len() - 2);
    let f = t - i as f64;
    let (a, b) = (DIVERGING[i], DIVERGING[i + 1]);
    let mix = |x: u8, y: u8| (x as f64 + (y as f64 - x as f64) * f).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// Black or white, whichever contrasts more with `bg` (WCAG relative luminance).
fn text_on(bg: RGBColor) -> RGBColor {
    let lin = |c: u8| {
        let c = c as f64 / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    let l = 0.2126 * lin(bg.0) + 0.7152 * lin(bg.1) + 0.0722 * lin(bg.2);
    // Contrast with black (l+0.05)/0.05 equals contrast with white 1.05/(l+0.05) at l ≈ 0.179.
    if l > 0.179 { BLACK } else { WHITE }
}

// ---------------------------------------------------------------------------------------
// Efficiency bars

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
                "Bar: efficiency, the mean score (win = 1, draw = ½) · whisker and brackets: 95% interval · \
                 dashed line: 0.5, even with the field."
                    .to_string(),
                "Blue: interval above 0.5 (the unit is too cheap) · red: below 0.5 (too expensive) · \
                 grey: cannot be told from even."
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

    /// The value column right of the plot: `0.621 [0.609, 0.633]`.
    fn value_text(e: &Estimate) -> String {
        format!("{:.3} [{:.3}, {:.3}]", e.value, e.lo, e.hi)
    }

    fn value_width(&self) -> i32 {
        let widest = self
            .bars
            .iter()
            .map(|(_, e)| text_width(&Self::value_text(e), LABEL_SIZE))
            .max();
        widest
            .unwrap_or(0)
            .max(text_width(VALUE_HEADING, LABEL_SIZE))
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
        let plot = root.margin(
            HEADER_HEIGHT,
            footer,
            PAD / 2,
            PAD + value_gap + self.value_width(),
        );
        let n = self.bars.len();
        if n == 0 {
            plot.draw_text(
                "no units",
                &style(LABEL_SIZE, &MUTED, HPos::Center, VPos::Center),
                (w / 2, 40),
            )?;
            return Ok(());
        }
        let label_width = self
            .bars
            .iter()
            .map(|(l, _)| text_width(l, LABEL_SIZE))
            .max()
            .unwrap_or(0)
            + 20;
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
            .x_label_formatter(&|x| format!("{x:.1}"))
            .x_desc("points efficiency (score vs field, 0.5 = even)")
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
            let fill = if e.lo > 0.5 {
                ABOVE
            } else if e.hi < 0.5 {
                BELOW
            } else {
                EVEN
            };
            let (v, lo, hi) = (
                e.value.clamp(0.0, 1.0),
                e.lo.clamp(0.0, 1.0),
                e.hi.clamp(0.0, 1.0),
            );
            chart.draw_series(std::iter::once(Rectangle::new(
                [(0.0, y - 0.32), (v, y + 0.32)],
                fill.filled(),
            )))?;
            let whisker = TEXT.stroke_width(2);
            chart.draw_series([
                PathElement::new(vec![(lo, y), (hi, y)], whisker),
                PathElement::new(vec![(lo, y - 0.17), (lo, y + 0.17)], whisker),
                PathElement::new(vec![(hi, y - 0.17), (hi, y + 0.17)], whisker),
            ])?;
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

// ---------------------------------------------------------------------------------------
// Heatmaps

struct Heatmap {
    title: String,
    subtitle: String,
    /// Row/column labels in matrix order.
    labels: Vec<String>,
    /// `scores[i][j]`: row unit i's score against column unit j.
    scores: Vec<Vec<f64>>,
    caption: Vec<String>,
}

/// Pixel positions of a heatmap, derived from measured label widths.
struct HeatLayout {
    width: i32,
    height: i32,
    cell: i32,
    /// Top-left corner of the grid.
    x0: i32,
    y0: i32,
    label_width: i32,
    colorbar_x: i32,
    caption: Vec<String>,
}

const COLORBAR_WIDTH: i32 = 26;
const AXIS_TITLE: i32 = 34;

impl Heatmap {
    fn new(a: &RulesetAnalysis, m: &Matrix, title: String) -> Self {
        Heatmap {
            title,
            subtitle: format!("{} · row unit (side A) vs column unit (side B) · seed {}", m.title, a.seed),
            labels: m.units.iter().map(|id| format::unit_label_for(a, id)).collect(),
            scores: m.cells.iter().map(|row| row.iter().map(|c| c.a_score.value).collect()).collect(),
            caption: vec![
                "Each cell: the row unit's score against the column unit, in percent (win = 1, draw = ½)."
                    .to_string(),
                "Blue: the row unit wins more often · white: even (50) · red: the row unit loses more often. \
                 The 95% intervals are in report.md and the CSV."
                    .to_string(),
            ],
        }
    }

    fn layout(&self) -> HeatLayout {
        let n = self.labels.len().max(1) as i32;
        let cell = (760 / n).clamp(44, 150);
        let grid = cell * n;
        let label_width = self
            .labels
            .iter()
            .map(|l| text_width(l, LABEL_SIZE))
            .max()
            .unwrap_or(0);
        let x0 = PAD + AXIS_TITLE + label_width + 12;
        let y0 = HEADER_HEIGHT + 16;
        let colorbar_x = x0 + grid + 40;
        let tick_width = text_width("100%", LABEL_SIZE) + 16;
        let title_width = text_width(&self.title, TITLE_SIZE)
            .max(text_width(&self.subtitle, SUBTITLE_SIZE))
            + 2 * PAD;
        let width = (colorbar_x + COLORBAR_WIDTH + 8 + tick_width + PAD)
            .max(title_width)
            .max(900);
        let caption = wrap_all(&self.caption, CAPTION_SIZE, width - 2 * PAD);
        let height = y0
            + grid
            + 12
            + label_width
            + 12
            + AXIS_TITLE
            + 8
            + caption.len() as i32 * CAPTION_LINE
            + PAD;
        HeatLayout {
            width,
            height,
            cell,
            x0,
            y0,
            label_width,
            colorbar_x,
            caption,
        }
    }
}

impl Chart for Heatmap {
    fn size(&self) -> (u32, u32) {
        let l = self.layout();
        (l.width as u32, l.height as u32)
    }

    fn draw<DB>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB: DrawingBackend,
        DB::ErrorType: 'static,
    {
        let l = self.layout();
        let n = self.labels.len() as i32;
        let grid = l.cell * n.max(1);
        root.fill(&WHITE)?;
        draw_header(root, l.width, &self.title, &self.subtitle)?;

        // Cells, inset by one pixel so white gaps separate them.
        let cell_font = (l.cell as f64 * 0.36).clamp(17.0, 28.0);
        for (i, row) in self.scores.iter().enumerate() {
            for (j, &score) in row.iter().enumerate() {
                let (x, y) = (l.x0 + j as i32 * l.cell, l.y0 + i as i32 * l.cell);
                let bg = score_color(score);
                root.draw(&Rectangle::new(
                    [(x + 1, y + 1), (x + l.cell - 1, y + l.cell - 1)],
                    bg.filled(),
                ))?;
                let text = if score.is_finite() {
                    format!("{:.0}", score * 100.0)
                } else {
                    "–".to_string()
                };
                let fg = text_on(bg);
                root.draw_text(
                    &text,
                    &style(cell_font, &fg, HPos::Center, VPos::Center),
                    (x + l.cell / 2, y + l.cell / 2),
                )?;
            }
        }
        root.draw(&Rectangle::new(
            [(l.x0, l.y0), (l.x0 + grid, l.y0 + grid)],
            MUTED.stroke_width(1),
        ))?;

        // Row labels to the left, column labels below reading upwards, axis titles outside.
        let label_style = style(LABEL_SIZE, &TEXT, HPos::Right, VPos::Center);
        let column_style = label_style.transform(FontTransform::Rotate270);
        for (k, label) in self.labels.iter().enumerate() {
            let centre = k as i32 * l.cell + l.cell / 2;
            root.draw_text(label, &label_style, (l.x0 - 10, l.y0 + centre))?;
            root.draw_text(label, &column_style, (l.x0 + centre, l.y0 + grid + 12))?;
        }
        let axis = bold(LABEL_SIZE, &TEXT, HPos::Center, VPos::Center);
        root.draw_text(
            "row unit (side A)",
            &axis.transform(FontTransform::Rotate270),
            (PAD + AXIS_TITLE / 2 - 4, l.y0 + grid / 2),
        )?;
        let axis_y = l.y0 + grid + 12 + l.label_width + 12 + AXIS_TITLE / 2;
        root.draw_text("column unit (side B)", &axis, (l.x0 + grid / 2, axis_y))?;

        // Colour bar: score 100% at the top (row wins) to 0% at the bottom (row loses).
        let cx = l.colorbar_x;
        for k in 0..grid {
            let score = 1.0 - k as f64 / (grid - 1).max(1) as f64;
            root.draw(&Rectangle::new(
                [(cx, l.y0 + k), (cx + COLORBAR_WIDTH, l.y0 + k + 1)],
                score_color(score).filled(),
            ))?;
        }
        root.draw(&Rectangle::new(
            [(cx, l.y0), (cx + COLORBAR_WIDTH, l.y0 + grid)],
            MUTED.stroke_width(1),
        ))?;
        let tick_style = style(LABEL_SIZE, &TEXT, HPos::Left, VPos::Center);
        for pct in [0, 25, 50, 75, 100] {
            let y = l.y0 + ((100 - pct) as f64 / 100.0 * (grid - 1) as f64).round() as i32;
            root.draw(&PathElement::new(
                vec![(cx + COLORBAR_WIDTH, y), (cx + COLORBAR_WIDTH + 6, y)],
                MUTED.stroke_width(1),
            ))?;
            root.draw_text(
                &format!("{pct}%"),
                &tick_style,
                (cx + COLORBAR_WIDTH + 12, y),
            )?;
        }

        draw_caption(root, &l.caption, PAD, axis_y + AXIS_TITLE / 2 + 8)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_diverging_scale_is_red_white_blue() {
        assert_eq!(score_color(0.0), RGBColor(178, 24, 43));
        assert_eq!(score_color(0.5), RGBColor(247, 247, 247));
        assert_eq!(score_color(1.0), RGBColor(33, 102, 172));
        assert_eq!(score_color(f64::NAN), RGBColor(247, 247, 247));
    }

    #[test]
    fn cell_text_contrasts_with_its_background() {
        assert_eq!(text_on(score_color(0.0)), WHITE);
        assert_eq!(text_on(score_color(0.5)), BLACK);
        assert_eq!(text_on(score_color(1.0)), WHITE);
    }

    #[test]
    fn wrapping_keeps_every_word_within_the_width() {
        ensure_fonts().unwrap();
        let lines = wrap(
            "one two three four five six seven eight nine ten",
            18.0,
            120,
        );
        assert!(lines.len() > 1);
        assert_eq!(
            lines.join(" "),
            "one two three four five six seven eight nine ten"
        );
        assert!(lines.iter().all(|l| text_width(l, 18.0) <= 120));
    }
}
