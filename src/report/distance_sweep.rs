//! "Efficiency by start distance": each unit's points efficiency when the squads start at
//! other distances than the report's, as a long table (`efficiency_by_distance.csv`), a line
//! chart with interval whiskers (`efficiency_by_distance.png`/`.svg`) and a units × distances
//! table. Range and speed pay off differently at different distances, so a cost fair at one
//! may not be at another.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::charts::{
    CAPTION_LINE, CAPTION_SIZE, Chart, GRID, HEADER_HEIGHT, LABEL_SIZE, MUTED, PAD, SUBTITLE_SIZE, TEXT, TITLE_SIZE,
    MARKERS, Marker, bold, call_color, draw_caption, draw_header, draw_marker, ensure_fonts, style, write_chart,
};
use super::format::{self, cost, md_cell, number, unit_label_for};
use super::markdown::chart;
use super::{Section, remove_stale, tables, write_atomic};
use crate::analysis::{DistanceSweep, RulesetAnalysis};
use crate::plot::{text_width, wrap_all};
use crate::stats::Estimate;

/// File stem of the chart; the table is `{CHART}.csv`.
pub const CHART: &str = "efficiency_by_distance";
/// The sweep's table.
const CSV: &str = "efficiency_by_distance.csv";

/// The "Efficiency by start distance" section (only when the analysis has a distance sweep).
pub struct EfficiencyByDistance;

impl Section for EfficiencyByDistance {
    fn write_files(&self, a: &RulesetAnalysis, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
        let Some(sweep) = &a.distance_sweep else {
            remove_stale(dir, &[CSV.to_string(), format!("{CHART}.png"), format!("{CHART}.svg")])?;
            return Ok(Vec::new());
        };
        let path = dir.join(CSV);
        write_atomic(&path, &tables::distance_sweep_csv(a, sweep)?)?;
        let mut written = vec![path];
        ensure_fonts()?;
        written.extend(write_chart(&DistanceChart::new(a, sweep), dir, CHART)?);
        Ok(written)
    }

    fn markdown(&self, a: &RulesetAnalysis, o: &mut String) {
        if let Some(sweep) = &a.distance_sweep {
            sweep_section(o, a, sweep);
        }
    }
}

/// A sweep cell: whole percentages with the interval, `62 [60, 64]`; `62` when exact.
fn pct_int(e: &Estimate) -> String {
    let p = |x: f64| format!("{:.0}", x * 100.0);
    if e.lo == e.hi { p(e.value) } else { format!("{} [{}, {}]", p(e.value), p(e.lo), p(e.hi)) }
}

/// "Efficiency by start distance": chart, how to read it, and a units × distances table.
fn sweep_section(o: &mut String, a: &RulesetAnalysis, s: &DistanceSweep) {
    let budget = cost(a.budget);
    let unit = &a.distance_unit;
    let main = format!("{} {unit}", number(a.distance, 2));
    let err = number(s.target_error * 100.0, 2);
    let points = if err == "1" { "point" } else { "points" };
    o.push_str(
        "## Efficiency by start distance

",
    );
    chart(
        o,
        CHART,
        "Points efficiency of each unit against the start distance, with 95% intervals",
        &["efficiency_by_distance.csv"],
    );
    let _ = writeln!(
        o,
        "Each point is a unit's efficiency — the mean score of its {budget}-point squads against every \
         other unit's {budget}-point squads — when the squads start that far apart; the dashed line is \
         50%, even with the field, and the dotted line marks {main}, the distance the rest of this report \
         uses. Long-ranged units tend to gain as the distance grows, because they shoot for longer before \
         the enemy closes; fast or short-ranged units gain as it shrinks. A line above 50% everywhere says \
         the unit is too cheap whatever the deployment, below 50% everywhere too expensive; a unit whose \
         line crosses 50% is fairly priced only at some distances, so its right cost depends on the table \
         size and deployment. Each sweep matchup ran to ±{err} percentage {points} (95%), looser than the \
         main run, so the column at {main} can differ slightly from the efficiency table above. Cells are \
         percentages with their 95% interval, units in efficiency order.\n"
    );
    o.push_str("| unit |");
    for &d in &s.distances {
        let label = format!("{} {unit}", number(d, 2));
        if d == a.distance {
            let _ = write!(o, " **{label}** |");
        } else {
            let _ = write!(o, " {label} |");
        }
    }
    o.push_str("\n|---|");
    o.push_str(&"---:|".repeat(s.distances.len()));
    o.push('\n');
    // Units in efficiency order (best first), then any the efficiency table does not list.
    let index = |id: &str| s.units.iter().position(|u| u == id);
    let mut rows: Vec<usize> = a.efficiency.iter().filter_map(|r| index(&r.unit.id)).collect();
    let unlisted: Vec<usize> = (0..s.units.len()).filter(|u| !rows.contains(u)).collect();
    rows.extend(unlisted);
    for u in rows {
        let _ = write!(o, "| {} |", md_cell(&unit_label_for(a, &s.units[u])));
        let est = s.efficiency.get(u).map_or(&[][..], Vec::as_slice);
        for k in 0..s.distances.len() {
            let cell = est.get(k).map_or("—".to_string(), pct_int);
            let _ = write!(o, " {cell} |");
        }
        o.push('\n');
    }
    o.push('\n');
    if s.distances.contains(&a.distance) {
        let _ = writeln!(o, "The **bold** column is the start distance of the rest of this report.\n");
    }
}

/// Line greys: colour keeps one meaning on every chart (the call: yellow too cheap, teal fair,
/// purple too expensive, filled into each marker), so the lines themselves are told apart by
/// shade, marker and dash.
const LINE_GREYS: [RGBColor; 3] = [RGBColor(30, 30, 30), RGBColor(95, 95, 95), RGBColor(150, 150, 150)];

/// How one unit's line is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
struct LineStyle {
    color: RGBColor,
    marker: Marker,
    dashed: bool,
}

/// Line `k`'s style: grey `k mod 3`, marker `k mod 7`, dashed when `k` is odd. Marker and dash
/// alone repeat only every 14 lines, so a dozen units can be told apart in print and by a
/// colour-blind reader; all three repeat only every 42.
fn line_style(k: usize) -> LineStyle {
    LineStyle { color: LINE_GREYS[k % LINE_GREYS.len()], marker: MARKERS[k % MARKERS.len()], dashed: k % 2 == 1 }
}

const LINE_WIDTH: u32 = 3;
const DASH: (i32, i32) = (11, 6);

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
                    "Whiskers: 95% interval (hidden by the marker where narrower than it) · dashed line: 50%, \
                     even with the field · dotted line: {main}, the distance of the rest of the report."
                ),
                "Marker fill: the call at that distance (yellow: too cheap, teal: fair, purple: too expensive); \
                 lines are told apart by shade, marker and dash (legend). Long-ranged units gain as the distance \
                 grows; a unit whose line crosses 50% is fairly priced only at some distances."
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
            .y_label_formatter(&|y| format!("{:.0}%", 100.0 * y))
            .y_desc("points efficiency (50% = even)")
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
        for (_, est) in &self.lines {
            let whisker = TEXT.stroke_width(2);
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
                draw_marker(root, s.marker, px(d, e.value.clamp(0.0, 1.0)), s.color, call_color(&e, 0.5))?;
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
            draw_marker(root, s.marker, (lx + LEGEND_SAMPLE / 2, y), s.color, WHITE)?;
            root.draw_text(&self.lines[k].0, &label_style, (lx + LEGEND_SAMPLE + 12, y))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sweep_cells_are_whole_percentages_with_interval() {
        let e = Estimate { value: 0.6213, lo: 0.604, hi: 0.6386 };
        assert_eq!(pct_int(&e), "62 [60, 64]");
        assert_eq!(pct_int(&Estimate::exact(0.5)), "50");
    }

    #[test]
    fn a_dozen_lines_differ_in_marker_and_dash() {
        let styles: Vec<LineStyle> = (0..12).map(line_style).collect();
        for (i, a) in styles.iter().enumerate() {
            for b in &styles[i + 1..] {
                assert_ne!((a.marker, a.dashed), (b.marker, b.dashed));
            }
        }
        // Shade, marker and dash together repeat only after 42 lines.
        assert!((1..42).all(|k| line_style(k) != line_style(0)));
        assert_eq!(line_style(42), line_style(0));
    }
}
