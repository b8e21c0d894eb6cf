//! Charts: points efficiency bars, efficiency by start distance and matchup heatmaps, each as
//! PNG and SVG.
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

use anyhow::Context;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::atomic::{persist, temp_path, write_atomic};
use super::format;
use crate::analysis::{DistanceSweep, Matrix, RulesetAnalysis};
pub use crate::plot::ensure_fonts;
use crate::plot::{FAMILY, font, text_width, wrap_all};
use crate::stats::Estimate;

/// File stems of the charts (`STEM.png`, `STEM.svg`).
pub const EFFICIENCY: &str = "efficiency";
pub const EFFICIENCY_BY_DISTANCE: &str = "efficiency_by_distance";
pub const HEATMAP_POINTS: &str = "heatmap_points";
pub const HEATMAP_1V1: &str = "heatmap_1v1";

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

/// Writes the efficiency chart, the efficiency-by-distance chart (when the analysis has a
/// distance sweep) and both heatmaps as PNG and SVG into `dir`.
pub fn write_charts(a: &RulesetAnalysis, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    ensure_fonts()?;
    let mut written = Vec::new();
    written.extend(write_chart(&EfficiencyChart::new(a), dir, EFFICIENCY)?);
    if let Some(sweep) = &a.distance_sweep {
        written.extend(write_chart(&DistanceChart::new(a, sweep), dir, EFFICIENCY_BY_DISTANCE)?);
    }
    let points_title = format!("{}: points-matched matchups", a.title);
    written.extend(write_chart(&Heatmap::new(a, &a.matrix_points, points_title), dir, HEATMAP_POINTS)?);
    let duel_title = format!("{}: 1v1 matchups", a.title);
    written.extend(write_chart(&Heatmap::new(a, &a.matrix_1v1, duel_title), dir, HEATMAP_1V1)?);
    Ok(written)
}

/// A chart that can draw itself on any plotters backend.
pub(super) trait Chart {
    fn size(&self) -> (u32, u32);
    fn draw<DB>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB: DrawingBackend,
        DB::ErrorType: 'static;
}

pub(super) fn write_chart(chart: &impl Chart, dir: &Path, stem: &str) -> anyhow::Result<Vec<PathBuf>> {
    let size = chart.size();

    let svg_path = dir.join(format!("{stem}.svg"));
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        chart.draw(&root).with_context(|| format!("drawing {}", svg_path.display()))?;
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

fn style(size: f64, color: &RGBColor, h: HPos, v: VPos) -> TextStyle<'static> {
    TextStyle { font: font(size), color: color.to_backend_color(), pos: Pos::new(h, v) }
}

fn bold(size: f64, color: &RGBColor, h: HPos, v: VPos) -> TextStyle<'static> {
    // `FontDesc::style` keeps the regular face's glyphs; a new FontDesc loads the bold face.
    let font = FontDesc::new(FontFamily::Name(FAMILY), size, FontStyle::Bold);
    TextStyle { font, color: color.to_backend_color(), pos: Pos::new(h, v) }
}

/// Title (bold) and subtitle, centred in the top [`HEADER_HEIGHT`] pixels.
fn draw_header<DB>(root: &DrawingArea<DB, Shift>, width: i32, title: &str, subtitle: &str) -> anyhow::Result<()>
where
    DB: DrawingBackend,
    DB::ErrorType: 'static,
{
    root.draw_text(title, &bold(TITLE_SIZE, &TEXT, HPos::Center, VPos::Center), (width / 2, 30))?;
    root.draw_text(subtitle, &style(SUBTITLE_SIZE, &MUTED, HPos::Center, VPos::Center), (width / 2, 64))?;
    Ok(())
}
const HEADER_HEIGHT: i32 = 90;
const CAPTION_LINE: i32 = 26;

fn draw_caption<DB>(root: &DrawingArea<DB, Shift>, lines: &[String], x: i32, y: i32) -> anyhow::Result<()>
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
const DIVERGING: [(u8, u8, u8); 7] =
    [(178, 24, 43), (239, 138, 98), (253, 219, 199), (247, 247, 247), (209, 229, 240), (103, 169, 207), (33, 102, 172)];

/// The heatmap colour of a score in [0, 1].
///
/// Distances from 0.5 are stretched (`|2d|^0.6`) before picking the colour: balance questions
/// live between 30% and 70%, where a linear scale would leave every cell nearly white.
fn score_color(score: f64) -> RGBColor {
    let d = if score.is_finite() { score.clamp(0.0, 1.0) - 0.5 } else { 0.0 };
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
        if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
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
            let (v, lo, hi) = (e.value.clamp(0.0, 1.0), e.lo.clamp(0.0, 1.0), e.hi.clamp(0.0, 1.0));
            chart.draw_series(std::iter::once(Rectangle::new([(0.0, y - 0.32), (v, y + 0.32)], fill.filled())))?;
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
// Efficiency by start distance

/// Line colours: Tableau 10 without its grey (olive and cyan darkened to hold up as lines on
/// white), then gold and wine, so a dozen units get a dozen colours. No grey or black: those
/// are kept for the reference lines.
const LINE_COLORS: [RGBColor; 12] = [
    RGBColor(31, 119, 180),  // blue
    RGBColor(255, 127, 14),  // orange
    RGBColor(44, 160, 44),   // green
    RGBColor(214, 39, 40),   // red
    RGBColor(148, 103, 189), // purple
    RGBColor(140, 86, 75),   // brown
    RGBColor(227, 119, 194), // pink
    RGBColor(158, 160, 20),  // olive
    RGBColor(16, 170, 188),  // cyan
    RGBColor(57, 59, 121),   // navy
    RGBColor(214, 160, 0),   // gold
    RGBColor(136, 34, 85),   // wine
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Marker {
    Circle,
    Square,
    TriangleUp,
    Diamond,
    TriangleDown,
    Cross,
    Plus,
}

const MARKERS: [Marker; 7] = [
    Marker::Circle,
    Marker::Square,
    Marker::TriangleUp,
    Marker::Diamond,
    Marker::TriangleDown,
    Marker::Cross,
    Marker::Plus,
];

/// How one unit's line is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
struct LineStyle {
    color: RGBColor,
    marker: Marker,
    dashed: bool,
}

/// Line `k`'s style: colour `k mod 12`, marker `k mod 7`, dashed when `k` is odd. Marker and
/// dash alone repeat only every 14 lines, so a dozen units can be told apart without colour
/// (printed in grey, or by a colour-blind reader); all three repeat only every 84.
fn line_style(k: usize) -> LineStyle {
    LineStyle { color: LINE_COLORS[k % LINE_COLORS.len()], marker: MARKERS[k % MARKERS.len()], dashed: k % 2 == 1 }
}

const LINE_WIDTH: u32 = 3;
const DASH: (i32, i32) = (11, 6);
const MARKER_R: i32 = 6;

/// Draws a marker centred on pixel `(x, y)`, with a white halo that separates it from the
/// lines and markers underneath.
fn draw_marker<DB>(
    root: &DrawingArea<DB, Shift>,
    marker: Marker,
    (x, y): (i32, i32),
    color: RGBColor,
) -> anyhow::Result<()>
where
    DB: DrawingBackend,
    DB::ErrorType: 'static,
{
    for (r, c, stroke) in [(MARKER_R + 2, WHITE, 6), (MARKER_R, color, 3)] {
        match marker {
            Marker::Circle => root.draw(&Circle::new((x, y), r, c.filled()))?,
            Marker::Square => {
                root.draw(&Rectangle::new([(x - r + 1, y - r + 1), (x + r - 1, y + r - 1)], c.filled()))?
            }
            Marker::TriangleUp => root.draw(&Polygon::new(
                vec![(x, y - r - 2), (x + r + 1, y + r - 1), (x - r - 1, y + r - 1)],
                c.filled(),
            ))?,
            Marker::TriangleDown => root.draw(&Polygon::new(
                vec![(x, y + r + 2), (x + r + 1, y - r + 1), (x - r - 1, y - r + 1)],
                c.filled(),
            ))?,
            Marker::Diamond => root.draw(&Polygon::new(
                vec![(x, y - r - 1), (x + r + 1, y), (x, y + r + 1), (x - r - 1, y)],
                c.filled(),
            ))?,
            Marker::Cross | Marker::Plus => {
                // The halo pass uses the same arm length and a wider stroke.
                let a = MARKER_R;
                let arms = if marker == Marker::Cross {
                    [((x - a, y - a), (x + a, y + a)), ((x - a, y + a), (x + a, y - a))]
                } else {
                    [((x - a - 1, y), (x + a + 1, y)), ((x, y - a - 1), (x, y + a + 1))]
                };
                for (p, q) in arms {
                    root.draw(&PathElement::new(vec![p, q], c.stroke_width(stroke)))?;
                }
            }
        }
    }
    Ok(())
}

/// A polyline in pixels, solid or dashed.
fn draw_polyline<DB>(
    root: &DrawingArea<DB, Shift>,
    points: Vec<(i32, i32)>,
    style: ShapeStyle,
    dashed: bool,
) -> anyhow::Result<()>
where
    DB: DrawingBackend,
    DB::ErrorType: 'static,
{
    if dashed {
        root.draw(&DashedPathElement::new(points, DASH.0, DASH.1, style))?;
    } else {
        root.draw(&PathElement::new(points, style))?;
    }
    Ok(())
}

struct DistanceChart {
    title: String,
    subtitle: String,
    /// Axis title, e.g. `start distance (in)`.
    x_title: String,
    distances: Vec<f64>,
    /// The distance the rest of the report uses, and its label.
    main_distance: f64,
    main_label: String,
    /// One line per unit in the sweep's (cost-list) order, which fixes its style: label
    /// ("Snipers (35)") and one estimate per distance.
    lines: Vec<(String, Vec<Estimate>)>,
    /// Line indices from the top of the legend down: by efficiency at the longest distance,
    /// best first, so the legend reads in the order the lines end.
    legend_order: Vec<usize>,
    /// Bold first line, muted second line.
    legend_heading: [String; 2],
    caption: Vec<String>,
}

const DIST_PLOT_WIDTH: i32 = 820;
const DIST_PLOT_MIN_HEIGHT: i32 = 560;
const DIST_Y_AXIS: i32 = 88;
const DIST_X_AXIS: i32 = 74;
/// Room above the plot for the main-distance label.
const DIST_TOP: i32 = 34;
const LEGEND_GAP: i32 = 32;
const LEGEND_ROW: i32 = 31;
const LEGEND_SAMPLE: i32 = 50;
const LEGEND_HEADING: i32 = 60;

impl DistanceChart {
    fn new(a: &RulesetAnalysis, sweep: &DistanceSweep) -> Self {
        let dist = |d: f64| format!("{} {}", format::number(d, 2), a.distance_unit);
        let budget = format::cost(a.budget);
        let err = format::number(sweep.target_error * 100.0, 2);
        let points = if err == "1" { "point" } else { "points" };
        let lines: Vec<(String, Vec<Estimate>)> = sweep
            .units
            .iter()
            .enumerate()
            .map(|(u, id)| {
                let mut est = sweep.efficiency.get(u).cloned().unwrap_or_default();
                est.truncate(sweep.distances.len());
                (format::unit_label_for(a, id), est)
            })
            .collect();
        let end_value =
            |k: usize| lines[k].1.last().map(|e| e.value).filter(|v| v.is_finite()).unwrap_or(f64::NEG_INFINITY);
        let mut legend_order: Vec<usize> = (0..lines.len()).collect();
        legend_order.sort_by(|&i, &j| end_value(j).total_cmp(&end_value(i)));
        let last = sweep.distances.last().copied().unwrap_or(a.distance);
        let main = dist(a.distance);
        DistanceChart {
            title: format!("{}: points efficiency by start distance", a.title),
            subtitle: format!(
                "{budget}-point squads against every other unit's squads · ±{err} {points} per matchup (95%) · seed {}",
                a.seed
            ),
            x_title: format!("start distance D ({})", a.distance_unit),
            distances: sweep.distances.clone(),
            main_distance: a.distance,
            main_label: format!("main report: {main}"),
            lines,
            legend_order,
            legend_heading: ["unit (cost)".to_string(), format!("in order of efficiency at {}", dist(last))],
            caption: vec![
                format!(
                    "Each point: the unit's {budget}-point squads against every other unit's squads starting \
                     D apart; its efficiency is their mean score (win = 1, draw = ½)."
                ),
                format!(
                    "Whiskers: 95% interval (hidden by the marker where narrower than it) · dashed line: 0.5, \
                     even with the field · dotted line: {main}, the distance of the rest of the report."
                ),
                "Long-ranged units gain as the distance grows; a unit whose line crosses 0.5 is fairly \
                 priced only at some distances."
                    .to_string(),
            ],
        }
    }

    fn legend_width(&self) -> i32 {
        let labels = self.lines.iter().map(|(l, _)| LEGEND_SAMPLE + 12 + text_width(l, LABEL_SIZE));
        labels
            .chain([text_width(&self.legend_heading[0], LABEL_SIZE), text_width(&self.legend_heading[1], CAPTION_SIZE)])
            .max()
            .unwrap_or(0)
    }

    fn plot_height(&self) -> i32 {
        DIST_PLOT_MIN_HEIGHT.max(LEGEND_HEADING + LEGEND_ROW * self.lines.len() as i32)
    }

    fn width(&self) -> i32 {
        let title = text_width(&self.title, TITLE_SIZE).max(text_width(&self.subtitle, SUBTITLE_SIZE));
        (PAD + DIST_Y_AXIS + DIST_PLOT_WIDTH + LEGEND_GAP + self.legend_width() + PAD).max(title + 2 * PAD)
    }

    fn caption_lines(&self) -> Vec<String> {
        wrap_all(&self.caption, CAPTION_SIZE, self.width() - 2 * PAD)
    }

    fn footer_height(&self) -> i32 {
        self.caption_lines().len() as i32 * CAPTION_LINE + PAD + 12
    }

    /// The x range: every distance and the main distance, with a little room either side.
    fn x_range(&self) -> (f64, f64) {
        let all = self.distances.iter().copied().chain([self.main_distance]).filter(|d| d.is_finite());
        let (lo, hi) = all.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), d| (lo.min(d), hi.max(d)));
        if !lo.is_finite() {
            return (0.0, 1.0);
        }
        let pad = if hi > lo { (hi - lo) * 0.04 } else { 1.0 };
        (lo - pad, hi + pad)
    }
}

impl Chart for DistanceChart {
    fn size(&self) -> (u32, u32) {
        let h = HEADER_HEIGHT + DIST_TOP + self.plot_height() + DIST_X_AXIS + self.footer_height();
        (self.width() as u32, h as u32)
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

        if self.lines.is_empty() || self.distances.is_empty() {
            root.draw_text(
                "no units or distances in the sweep",
                &style(LABEL_SIZE, &MUTED, HPos::Center, VPos::Center),
                (w / 2, HEADER_HEIGHT + DIST_TOP + self.plot_height() / 2),
            )?;
            return Ok(());
        }

        let plot = root.margin(HEADER_HEIGHT + DIST_TOP, footer, PAD, w - PAD - DIST_Y_AXIS - DIST_PLOT_WIDTH);
        let (x0, x1) = self.x_range();
        let mut chart = ChartBuilder::on(&plot)
            .x_label_area_size(DIST_X_AXIS)
            .y_label_area_size(DIST_Y_AXIS)
            .build_cartesian_2d(x0..x1, 0f64..1f64)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(0)
            .y_labels(11)
            .y_label_formatter(&|y| format!("{y:.1}"))
            .y_desc("points efficiency (0.5 = even)")
            .label_style(style(LABEL_SIZE, &TEXT, HPos::Center, VPos::Center))
            .axis_desc_style(style(LABEL_SIZE, &TEXT, HPos::Center, VPos::Center))
            .bold_line_style(GRID)
            .light_line_style(WHITE)
            .axis_style(MUTED)
            .draw()?;
        let px = |x: f64, y: f64| chart.backend_coord(&(x, y));
        let (left, top) = px(x0, 1.0);
        let (right, bottom) = px(x1, 0.0);

        // Distances: a grid line each and a tick label, thinned where labels would collide.
        let tick_style = style(LABEL_SIZE, &TEXT, HPos::Center, VPos::Top);
        let needed =
            self.distances.iter().map(|&d| text_width(&format::number(d, 2), LABEL_SIZE)).max().unwrap_or(0) + 14;
        let mut last_label: Option<i32> = None;
        for &d in &self.distances {
            let (x, _) = px(d, 0.0);
            root.draw(&PathElement::new(vec![(x, top), (x, bottom)], GRID.stroke_width(1)))?;
            root.draw(&PathElement::new(vec![(x, bottom), (x, bottom + 6)], MUTED.stroke_width(1)))?;
            if last_label.is_none_or(|l| x - l >= needed) {
                root.draw_text(&format::number(d, 2), &tick_style, (x, bottom + 10))?;
                last_label = Some(x);
            }
        }
        root.draw_text(
            &self.x_title,
            &style(LABEL_SIZE, &TEXT, HPos::Center, VPos::Center),
            ((left + right) / 2, bottom + 52),
        )?;

        // The main report's distance: a light dotted line, labelled above the plot.
        let (xm, _) = px(self.main_distance, 0.0);
        root.draw(&DashedPathElement::new(
            vec![(xm, top), (xm, bottom)],
            3,
            5,
            RGBColor(150, 150, 150).stroke_width(2),
        ))?;
        let half = text_width(&self.main_label, CAPTION_SIZE) / 2;
        root.draw_text(
            &self.main_label,
            &style(CAPTION_SIZE, &MUTED, HPos::Center, VPos::Bottom),
            (xm.clamp(left + half, right - half), top - 6),
        )?;

        // Even with the field.
        let (_, y_half) = px(x0, 0.5);
        root.draw(&DashedPathElement::new(
            vec![(left, y_half), (right, y_half)],
            10,
            7,
            RGBColor(40, 40, 40).stroke_width(2),
        ))?;

        // Lines, then whiskers over them, then markers over everything.
        let points = |est: &[Estimate]| -> Vec<(f64, Estimate)> {
            self.distances.iter().copied().zip(est.iter().copied()).filter(|(_, e)| e.value.is_finite()).collect()
        };
        for (k, (_, est)) in self.lines.iter().enumerate() {
            let s = line_style(k);
            let path: Vec<(i32, i32)> = points(est).iter().map(|(d, e)| px(*d, e.value.clamp(0.0, 1.0))).collect();
            draw_polyline(root, path, s.color.stroke_width(LINE_WIDTH), s.dashed)?;
        }
        for (k, (_, est)) in self.lines.iter().enumerate() {
            let whisker = line_style(k).color.stroke_width(2);
            for (d, e) in points(est) {
                if !(e.lo.is_finite() && e.hi.is_finite()) {
                    continue;
                }
                let (x, lo) = px(d, e.lo.clamp(0.0, 1.0));
                let (_, hi) = px(d, e.hi.clamp(0.0, 1.0));
                root.draw(&PathElement::new(vec![(x, lo), (x, hi)], whisker))?;
                for y in [lo, hi] {
                    root.draw(&PathElement::new(vec![(x - 4, y), (x + 4, y)], whisker))?;
                }
            }
        }
        for (k, (_, est)) in self.lines.iter().enumerate() {
            let s = line_style(k);
            for (d, e) in points(est) {
                draw_marker(root, s.marker, px(d, e.value.clamp(0.0, 1.0)), s.color)?;
            }
        }

        // Legend, right of the plot and outside it.
        let lx = right + LEGEND_GAP;
        root.draw_text(&self.legend_heading[0], &bold(LABEL_SIZE, &TEXT, HPos::Left, VPos::Top), (lx, top))?;
        root.draw_text(&self.legend_heading[1], &style(CAPTION_SIZE, &MUTED, HPos::Left, VPos::Top), (lx, top + 26))?;
        let label_style = style(LABEL_SIZE, &TEXT, HPos::Left, VPos::Center);
        for (row, &k) in self.legend_order.iter().enumerate() {
            let s = line_style(k);
            let y = top + LEGEND_HEADING + LEGEND_ROW / 2 + row as i32 * LEGEND_ROW;
            draw_polyline(root, vec![(lx, y), (lx + LEGEND_SAMPLE, y)], s.color.stroke_width(LINE_WIDTH), s.dashed)?;
            draw_marker(root, s.marker, (lx + LEGEND_SAMPLE / 2, y), s.color)?;
            root.draw_text(&self.lines[k].0, &label_style, (lx + LEGEND_SAMPLE + 12, y))?;
        }
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
    /// Axis titles: rows (left), columns (below).
    axes: [String; 2],
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
                "Each cell: the row unit's score against the column unit, in percent (win = 1, draw = ½).".to_string(),
                "Blue: the row unit wins more often · white: even (50) · red: the row unit loses more often. \
                 The 95% intervals are in report.md and the CSV."
                    .to_string(),
            ],
            axes: ["row unit (side A)".to_string(), "column unit (side B)".to_string()],
        }
    }

    fn layout(&self) -> HeatLayout {
        let n = self.labels.len().max(1) as i32;
        let cell = (760 / n).clamp(44, 150);
        let grid = cell * n;
        let label_width = self.labels.iter().map(|l| text_width(l, LABEL_SIZE)).max().unwrap_or(0);
        let x0 = PAD + AXIS_TITLE + label_width + 12;
        let y0 = HEADER_HEIGHT + 16;
        let colorbar_x = x0 + grid + 40;
        let tick_width = text_width("100%", LABEL_SIZE) + 16;
        let title_width = text_width(&self.title, TITLE_SIZE).max(text_width(&self.subtitle, SUBTITLE_SIZE)) + 2 * PAD;
        let width = (colorbar_x + COLORBAR_WIDTH + 8 + tick_width + PAD).max(title_width).max(900);
        let caption = wrap_all(&self.caption, CAPTION_SIZE, width - 2 * PAD);
        let height = y0 + grid + 12 + label_width + 12 + AXIS_TITLE + 8 + caption.len() as i32 * CAPTION_LINE + PAD;
        HeatLayout { width, height, cell, x0, y0, label_width, colorbar_x, caption }
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
                root.draw(&Rectangle::new([(x + 1, y + 1), (x + l.cell - 1, y + l.cell - 1)], bg.filled()))?;
                let text = if score.is_finite() { format!("{:.0}", score * 100.0) } else { "–".to_string() };
                let fg = text_on(bg);
                root.draw_text(
                    &text,
                    &style(cell_font, &fg, HPos::Center, VPos::Center),
                    (x + l.cell / 2, y + l.cell / 2),
                )?;
            }
        }
        root.draw(&Rectangle::new([(l.x0, l.y0), (l.x0 + grid, l.y0 + grid)], MUTED.stroke_width(1)))?;

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
            &self.axes[0],
            &axis.transform(FontTransform::Rotate270),
            (PAD + AXIS_TITLE / 2 - 4, l.y0 + grid / 2),
        )?;
        let axis_y = l.y0 + grid + 12 + l.label_width + 12 + AXIS_TITLE / 2;
        root.draw_text(&self.axes[1], &axis, (l.x0 + grid / 2, axis_y))?;

        // Colour bar: score 100% at the top (row wins) to 0% at the bottom (row loses).
        let cx = l.colorbar_x;
        for k in 0..grid {
            let score = 1.0 - k as f64 / (grid - 1).max(1) as f64;
            root.draw(&Rectangle::new(
                [(cx, l.y0 + k), (cx + COLORBAR_WIDTH, l.y0 + k + 1)],
                score_color(score).filled(),
            ))?;
        }
        root.draw(&Rectangle::new([(cx, l.y0), (cx + COLORBAR_WIDTH, l.y0 + grid)], MUTED.stroke_width(1)))?;
        let tick_style = style(LABEL_SIZE, &TEXT, HPos::Left, VPos::Center);
        for pct in [0, 25, 50, 75, 100] {
            let y = l.y0 + ((100 - pct) as f64 / 100.0 * (grid - 1) as f64).round() as i32;
            root.draw(&PathElement::new(
                vec![(cx + COLORBAR_WIDTH, y), (cx + COLORBAR_WIDTH + 6, y)],
                MUTED.stroke_width(1),
            ))?;
            root.draw_text(&format!("{pct}%"), &tick_style, (cx + COLORBAR_WIDTH + 12, y))?;
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
    fn a_dozen_lines_differ_in_colour_and_in_marker_with_dash() {
        let styles: Vec<LineStyle> = (0..12).map(line_style).collect();
        for (i, a) in styles.iter().enumerate() {
            for b in &styles[i + 1..] {
                assert_ne!(a.color, b.color);
                assert_ne!((a.marker, a.dashed), (b.marker, b.dashed));
            }
        }
        // All three together repeat only after 84 lines.
        assert!((1..84).all(|k| line_style(k) != line_style(0)));
        assert_eq!(line_style(84), line_style(0));
    }

    #[test]
    fn wrapping_keeps_every_word_within_the_width() {
        use crate::plot::wrap;
        ensure_fonts().unwrap();
        let lines = wrap("one two three four five six seven eight nine ten", 18.0, 120);
        assert!(lines.len() > 1);
        assert_eq!(lines.join(" "), "one two three four five six seven eight nine ten");
        assert!(lines.iter().all(|l| text_width(l, 18.0) <= 120));
    }
}

/// Writes a heatmap of any square score matrix (`scores[i][j]`: row i's score against column
/// j, NaN for none) as PNG and SVG: what a ruleset section uses for its own round robins.
/// `axes`: the row and column axis titles.
#[allow(clippy::too_many_arguments)]
pub(super) fn write_score_heatmap(
    dir: &Path,
    stem: &str,
    title: String,
    subtitle: String,
    labels: Vec<String>,
    scores: Vec<Vec<f64>>,
    caption: Vec<String>,
    axes: [&str; 2],
) -> anyhow::Result<Vec<PathBuf>> {
    let axes = axes.map(str::to_string);
    write_chart(&Heatmap { title, subtitle, labels, scores, caption, axes }, dir, stem)
}
