//! The charts' shared machinery: the [`Chart`] trait every chart implements, writing a chart
//! as PNG and SVG, the text and colour helpers, and the matchup heatmap that several sections
//! draw. The sections' own charts live in their files.
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
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::atomic::{persist, temp_path, write_atomic};
use super::format;
use crate::analysis::{Matrix, RulesetAnalysis};
pub use crate::plot::ensure_fonts;
use crate::plot::{FAMILY, font, text_width, wrap_all};

// Sizes are plotters font sizes: the glyph height in pixels, about 1.2 × the em size.
pub(super) const TITLE_SIZE: f64 = 28.0;
pub(super) const SUBTITLE_SIZE: f64 = 19.0;
pub(super) const LABEL_SIZE: f64 = 19.0;
pub(super) const CAPTION_SIZE: f64 = 18.0;
pub(super) const PAD: i32 = 24;

pub(super) const TEXT: RGBColor = RGBColor(20, 20, 20);
pub(super) const MUTED: RGBColor = RGBColor(80, 80, 80);
pub(super) const GRID: RGBColor = RGBColor(222, 222, 222);

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

pub(super) fn style(size: f64, color: &RGBColor, h: HPos, v: VPos) -> TextStyle<'static> {
    TextStyle { font: font(size), color: color.to_backend_color(), pos: Pos::new(h, v) }
}

pub(super) fn bold(size: f64, color: &RGBColor, h: HPos, v: VPos) -> TextStyle<'static> {
    // `FontDesc::style` keeps the regular face's glyphs; a new FontDesc loads the bold face.
    let font = FontDesc::new(FontFamily::Name(FAMILY), size, FontStyle::Bold);
    TextStyle { font, color: color.to_backend_color(), pos: Pos::new(h, v) }
}

/// Title (bold) and subtitle, centred in the top [`HEADER_HEIGHT`] pixels.
pub(super) fn draw_header<DB>(
    root: &DrawingArea<DB, Shift>,
    width: i32,
    title: &str,
    subtitle: &str,
) -> anyhow::Result<()>
where
    DB: DrawingBackend,
    DB::ErrorType: 'static,
{
    root.draw_text(title, &bold(TITLE_SIZE, &TEXT, HPos::Center, VPos::Center), (width / 2, 30))?;
    root.draw_text(subtitle, &style(SUBTITLE_SIZE, &MUTED, HPos::Center, VPos::Center), (width / 2, 64))?;
    Ok(())
}
pub(super) const HEADER_HEIGHT: i32 = 90;
pub(super) const CAPTION_LINE: i32 = 26;

pub(super) fn draw_caption<DB>(root: &DrawingArea<DB, Shift>, lines: &[String], x: i32, y: i32) -> anyhow::Result<()>
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

/// The heatmap colour of a score in [0, 1]: viridis ([`crate::plot::viridis`]), purple where
/// the row unit loses (0), teal at even (0.5), yellow where it wins (1) — the meaning those
/// colours have on every chart and page.
///
/// Distances from 0.5 are stretched (`|2d|^0.6`) before picking the colour: balance questions
/// live between 30% and 70%, where a linear scale would leave every cell nearly the same teal.
pub(super) fn score_color(score: f64) -> RGBColor {
    let d = if score.is_finite() { score.clamp(0.0, 1.0) - 0.5 } else { 0.0 };
    let (r, g, b) = crate::plot::viridis(0.5 + 0.5 * d.signum() * (2.0 * d.abs()).powf(0.6));
    RGBColor(r, g, b)
}

/// The colours of the three calls (yellow too cheap, teal fair, purple too expensive), as
/// every chart and page uses them ([`crate::plot::TOO_CHEAP`]...).
pub(super) const TOO_CHEAP: RGBColor = rgb(crate::plot::TOO_CHEAP);
pub(super) const FAIR: RGBColor = rgb(crate::plot::FAIR);
pub(super) const TOO_EXPENSIVE: RGBColor = rgb(crate::plot::TOO_EXPENSIVE);

const fn rgb(c: (u8, u8, u8)) -> RGBColor {
    RGBColor(c.0, c.1, c.2)
}

/// The colour of an interval's call against `even`: too cheap above, too expensive below,
/// fair when it contains `even`.
pub(super) fn call_color(e: &crate::stats::Estimate, even: f64) -> RGBColor {
    if e.lo > even {
        TOO_CHEAP
    } else if e.hi < even {
        TOO_EXPENSIVE
    } else {
        FAIR
    }
}

/// Marker shapes, so series (units, tactics, missions) differ without colour: colour means
/// the call on every chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Marker {
    Circle,
    Square,
    TriangleUp,
    Diamond,
    TriangleDown,
    Cross,
    Plus,
}

pub(super) const MARKERS: [Marker; 7] = [
    Marker::Circle,
    Marker::Square,
    Marker::TriangleUp,
    Marker::Diamond,
    Marker::TriangleDown,
    Marker::Cross,
    Marker::Plus,
];

const MARKER_R: i32 = 6;

/// Draws a marker centred on pixel `(x, y)`, filled with `fill` inside an `edge` outline, with a
/// white halo that separates it from the lines and markers underneath.
pub(super) fn draw_marker<DB>(
    root: &DrawingArea<DB, Shift>,
    marker: Marker,
    (x, y): (i32, i32),
    edge: RGBColor,
    fill: RGBColor,
) -> anyhow::Result<()>
where
    DB: DrawingBackend,
    DB::ErrorType: 'static,
{
    for (r, c, stroke) in [(MARKER_R + 3, WHITE, 8), (MARKER_R + 1, edge, 6), (MARKER_R - 1, fill, 3)] {
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

/// Black or white, whichever contrasts more with `bg` (WCAG relative luminance).
pub(super) fn text_on(bg: RGBColor) -> RGBColor {
    let lin = |c: u8| {
        let c = c as f64 / 255.0;
        if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
    };
    let l = 0.2126 * lin(bg.0) + 0.7152 * lin(bg.1) + 0.0722 * lin(bg.2);
    // Contrast with black (l+0.05)/0.05 equals contrast with white 1.05/(l+0.05) at l ≈ 0.179.
    if l > 0.179 { BLACK } else { WHITE }
}

// ---------------------------------------------------------------------------------------
// Heatmaps

pub(super) struct Heatmap {
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
    pub(super) fn new(a: &RulesetAnalysis, m: &Matrix, title: String) -> Self {
        // A matrix with no simulated cell (optimal play, or exact chains) has no seed and no
        // interval.
        let (seed, detail) = if m.cells.iter().flatten().all(|c| c.method != "monte-carlo") {
            (String::new(), "Every cell is exact: no interval.")
        } else {
            (format!(" · seed {}", a.seed), "The 95% intervals and trials are in report.md, report.html and the CSV.")
        };
        Heatmap {
            title,
            subtitle: format!("{} · row unit (side A) vs column unit (side B){seed}", m.title),
            labels: m.units.iter().map(|id| format::unit_label_for(a, id)).collect(),
            scores: m.cells.iter().map(|row| row.iter().map(|c| c.a_score.value).collect()).collect(),
            caption: vec![
                "Each cell: the row unit's score against the column unit, in percent (win = 1, draw = ½).".to_string(),
                format!(
                    "Yellow: the row unit wins more often · teal: even (50) · purple: the row unit loses more often. \
                     {detail}"
                ),
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
    fn the_score_scale_is_viridis_purple_teal_yellow() {
        assert_eq!(score_color(0.0), RGBColor(68, 1, 84));
        assert_eq!(score_color(0.5), RGBColor(33, 145, 140));
        assert_eq!(score_color(1.0), RGBColor(253, 231, 37));
        assert_eq!(score_color(f64::NAN), RGBColor(33, 145, 140));
    }

    #[test]
    fn cell_text_contrasts_with_its_background() {
        assert_eq!(text_on(score_color(0.0)), WHITE);
        assert_eq!(text_on(score_color(1.0)), BLACK);
        assert_eq!(text_on(TOO_CHEAP), BLACK);
        assert_eq!(text_on(TOO_EXPENSIVE), WHITE);
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
