//! "Mean score against start distance (1v1)": one panel per pair of units, the first unit's
//! 1v1 mean score (a draw counts ½) against the start distance, one line per kind of ground
//! (open, some cover, lots of cover) with its 95% interval as a shaded band. Written only when the analysis has the data
//! (Gunplay); `win_rate_by_distance.csv` holds every cell.
//!
//! Why a separate chart from the efficiency sweep: that one averages a unit over the field
//! with points-matched squads; a player choosing a weapon wants the head-to-head curve, and
//! wants to see where it crosses 50% ("a shotgun beats a rifle inside 9\" in the open").

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::atomic::{persist, temp_path, write_atomic};
use super::format::{md_cell, number, unit_name};
use crate::analysis::RulesetAnalysis;
use crate::analysis::duel_distance::WinRateByDistance;
use crate::csv_text::CsvText;

/// File stem of the chart and table.
pub const STEM: &str = "win_rate_by_distance";

const FAMILY: &str = "sans-serif";
const TEXT: RGBColor = RGBColor(20, 20, 20);
const MUTED: RGBColor = RGBColor(90, 90, 90);
const GRID: RGBColor = RGBColor(225, 225, 225);
/// Ground shades: open, some cover, lots of cover. Greys, told apart by shade and by the line's
/// dash as well: colour keeps one meaning on every chart (the calls; blue and red the sides of
/// a replay).
const GROUND_COLORS: [RGBColor; 3] = [RGBColor(20, 20, 20), RGBColor(90, 90, 90), RGBColor(150, 150, 150)];

const PANEL_W: u32 = 620;
const PANEL_H: u32 = 470;
const HEADER: u32 = 118;

/// Writes `win_rate_by_distance.csv`, `.png` and `.svg` into `dir` when the analysis has the
/// data; returns the paths written (none otherwise).
pub fn write(a: &RulesetAnalysis, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let Some(w) = &a.win_rate_by_distance else { return Ok(Vec::new()) };
    if w.pairs.is_empty() {
        return Ok(Vec::new());
    }
    super::charts::ensure_fonts()?;
    let csv_path = dir.join(format!("{STEM}.csv"));
    write_atomic(&csv_path, csv(a, w).as_bytes())?;

    let size = size(w);
    let svg_path = dir.join(format!("{STEM}.svg"));
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        draw(&root, a, w).with_context(|| format!("drawing {}", svg_path.display()))?;
        root.present()?;
    }
    write_atomic(&svg_path, svg.as_bytes())?;

    let png_path = dir.join(format!("{STEM}.png"));
    let tmp = temp_path(&png_path, ".png");
    let drawn = (|| -> anyhow::Result<()> {
        let root = BitMapBackend::new(&tmp, size).into_drawing_area();
        draw(&root, a, w)?;
        root.present()?;
        Ok(())
    })();
    if let Err(e) = drawn {
        let _ = std::fs::remove_file(&tmp);
        return Err(e.context(format!("drawing {}", png_path.display())));
    }
    persist(&tmp, &png_path)?;
    Ok(vec![csv_path, png_path, svg_path])
}

/// One row per (pair, ground, distance): `unit_a,unit_b,ground,distance,win_rate,lo,hi,method`.
pub fn csv(a: &RulesetAnalysis, w: &WinRateByDistance) -> String {
    let mut t = CsvText::new(["unit_a", "unit_b", "ground", "distance", "win_rate", "win_rate_lo", "win_rate_hi", "method"]);
    for p in &w.pairs {
        for (g, ground) in w.grounds.iter().enumerate() {
            for (k, d) in w.distances.iter().enumerate() {
                let e = p.score[g][k];
                t.row([
                    unit_name(a, &p.a).to_string(),
                    unit_name(a, &p.b).to_string(),
                    ground.to_string(),
                    number(*d, 2),
                    format!("{:.6}", e.value),
                    format!("{:.6}", e.lo),
                    format!("{:.6}", e.hi),
                    p.method[g][k].to_string(),
                ]);
            }
        }
    }
    t.finish()
}

fn columns(w: &WinRateByDistance) -> u32 {
    (w.pairs.len() as u32).clamp(1, 3)
}

fn size(w: &WinRateByDistance) -> (u32, u32) {
    let cols = columns(w);
    let rows = (w.pairs.len() as u32).div_ceil(cols).max(1);
    (cols * PANEL_W + 40, HEADER + rows * PANEL_H + 60)
}

fn style(size: f64, color: &RGBColor, h: HPos, v: VPos) -> TextStyle<'static> {
    (FAMILY, size).into_font().color(color).pos(Pos::new(h, v))
}

fn draw<DB>(root: &DrawingArea<DB, Shift>, a: &RulesetAnalysis, w: &WinRateByDistance) -> anyhow::Result<()>
where
    DB: DrawingBackend,
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let (width, height) = size(w);
    let unit = &a.distance_unit;
    root.draw_text(
        &format!("{}: 1v1 mean score against start distance (a draw counts ½)", a.title),
        &(FAMILY, 30.0).into_font().style(FontStyle::Bold).color(&TEXT).pos(Pos::new(HPos::Left, VPos::Top)),
        (20, 14),
    )?;
    let play = ChartPlay::of(w);
    let shading = if play.monte_carlo == 0 { "every point exact (no interval)" } else { "shaded: 95% interval" };
    root.draw_text(
        &format!(
            "Each panel: the first-named loadout's score (win + ½ draw) against the second, one against one; {shading}"
        ),
        &style(18.0, &MUTED, HPos::Left, VPos::Top),
        (20, 52),
    )?;
    // Legend: one sample per ground.
    let mut lx = 20;
    for (g, ground) in w.grounds.iter().enumerate() {
        let c = GROUND_COLORS[g % 3];
        let y = 92;
        ground_line(root, vec![(lx, y), (lx + 46, y)], c, g)?;
        root.draw_text(ground, &style(19.0, &TEXT, HPos::Left, VPos::Center), (lx + 56, y))?;
        lx += 56 + (ground.len() as i32) * 11 + 40;
    }
    root.draw_text("dashed grey: 50% (even)", &style(17.0, &MUTED, HPos::Left, VPos::Center), (lx + 10, 92))?;

    let body = root.margin(HEADER as i32, 40, 20, 20);
    let cols = columns(w) as usize;
    let rows = w.pairs.len().div_ceil(cols);
    let panels = body.split_evenly((rows, cols));
    let x_max = w.distances.iter().copied().fold(0.0, f64::max);
    for (p, panel) in w.pairs.iter().zip(panels.iter()) {
        let title = format!("{} vs {}", unit_name(a, &p.a), unit_name(a, &p.b));
        let mut chart = ChartBuilder::on(panel)
            .caption(title, (FAMILY, 24.0).into_font().style(FontStyle::Bold).color(&TEXT))
            .margin(12)
            .x_label_area_size(56)
            .y_label_area_size(70)
            .build_cartesian_2d(0f64..x_max + 1.5, 0f64..1f64)?;
        chart
            .configure_mesh()
            .x_labels(9)
            .y_labels(6)
            .x_label_formatter(&|x| number(*x, 0))
            .y_label_formatter(&|y| format!("{:.0}%", y * 100.0))
            .x_desc(format!("start distance ({unit})"))
            .y_desc(format!("{} mean score", unit_name(a, &p.a)))
            .label_style(style(17.0, &TEXT, HPos::Center, VPos::Center))
            .axis_desc_style(style(18.0, &TEXT, HPos::Center, VPos::Center))
            .bold_line_style(GRID)
            .light_line_style(WHITE)
            .axis_style(MUTED)
            .draw()?;
        // Intervals first (light), then 50%, then the lines.
        for (g, est) in p.score.iter().enumerate() {
            let c = GROUND_COLORS[g % 3];
            let mut band: Vec<(f64, f64)> = w.distances.iter().zip(est).map(|(&d, e)| (d, e.hi)).collect();
            band.extend(w.distances.iter().zip(est).rev().map(|(&d, e)| (d, e.lo)));
            chart.draw_series(std::iter::once(Polygon::new(band, c.mix(0.18).filled())))?;
        }
        let px = |x: f64, y: f64| chart.backend_coord(&(x, y));
        let (l, m) = (px(0.0, 0.5), px(x_max + 1.5, 0.5));
        // backend_coord gives pixels of the whole image: draw on the root area.
        root.draw(&DashedPathElement::new(vec![l, m], 8, 6, RGBColor(120, 120, 120).stroke_width(2)))?;
        for (g, est) in p.score.iter().enumerate() {
            let c = GROUND_COLORS[g % 3];
            let pts: Vec<(i32, i32)> =
                w.distances.iter().zip(est).map(|(&d, e)| px(d, e.value.clamp(0.0, 1.0))).collect();
            ground_line(root, pts.clone(), c, g)?;
            for &(x, y) in &pts {
                root.draw(&Circle::new((x, y), 4, c.filled()))?;
            }
        }
    }
    let foot = if play.all_optimal() {
        "Both sides play optimally: each point is the game's exact value at that distance and cover. Cover: every shot counts it."
            .to_string()
    } else {
        format!(
            "{}Exact (Markov chain) where the ruleset solves the duel, else Monte Carlo to ±{} percentage points. Cover: every shot counts it.",
            if play.optimal > 0 { "Optimal play where the game is solved; " } else { "The scripted tactic. " },
            number(w.target_error * 100.0, 2)
        )
    };
    root.draw_text(
        &foot,
        &style(17.0, &MUTED, HPos::Left, VPos::Bottom),
        (20, height as i32 - 14),
    )?;
    let _ = width;
    Ok(())
}

/// How the chart's cells were played: counts of cells by method.
struct ChartPlay {
    /// Under optimal play (`analysis::optimal_play::play_by_distance`).
    optimal: usize,
    /// The scripted tactic's exact Markov chain.
    exact: usize,
    /// The scripted tactic, Monte Carlo.
    monte_carlo: usize,
}

impl ChartPlay {
    fn of(w: &WinRateByDistance) -> ChartPlay {
        let methods = || w.pairs.iter().flat_map(|p| p.method.iter().flatten());
        let count = |m: &str| methods().filter(|x| *x == m).count();
        ChartPlay {
            optimal: count(crate::analysis::optimal_play::OPTIMAL_METHOD),
            exact: count("exact"),
            monte_carlo: methods().filter(|x| *x != "exact" && *x != crate::analysis::optimal_play::OPTIMAL_METHOD).count(),
        }
    }

    fn all_optimal(&self) -> bool {
        self.optimal > 0 && self.exact == 0 && self.monte_carlo == 0
    }
}

/// A ground's line: solid (open), dashed (some cover) or dotted (lots of cover), so the grounds
/// differ without colour too.
fn ground_line<DB>(area: &DrawingArea<DB, Shift>, pts: Vec<(i32, i32)>, c: RGBColor, g: usize) -> anyhow::Result<()>
where
    DB: DrawingBackend,
    DB::ErrorType: 'static,
{
    let s = c.stroke_width(3);
    match g % 3 {
        0 => area.draw(&PathElement::new(pts, s))?,
        1 => area.draw(&DashedPathElement::new(pts, 12, 7, s))?,
        _ => area.draw(&DashedPathElement::new(pts, 4, 5, s))?,
    }
    Ok(())
}

/// The report.md section: the chart, how to read it, and where each pair crosses 50%.
pub fn section(a: &RulesetAnalysis) -> String {
    let Some(w) = &a.win_rate_by_distance else { return String::new() };
    let unit = &a.distance_unit;
    let mut o = String::from("## Mean score against start distance (1v1)\n\n");
    let _ = writeln!(o, "![1v1 mean score of each pair against the start distance, per cover level]({STEM}.png)\n");
    let _ = writeln!(o, "Vector version: [{STEM}.svg]({STEM}.svg) · data: [{STEM}.csv]({STEM}.csv)\n");
    let play = ChartPlay::of(w);
    let how = if play.all_optimal() {
        "Both sides play optimally: every cell is the exact value of the optimal-play game at that distance \
         and cover, as the 1v1 matrix is at the report's, so the curves measure the loadouts rather than a \
         scripted tactic (`--set duel.optimal_play=false` shows the scripted tactic's curves instead)."
            .to_string()
    } else {
        format!(
            "{}Cells are exact where the ruleset's exact solver covers the duel (for Gunplay, every cell: a \
             Markov chain over wounds, Down flags and distance), else Monte Carlo to ±{} percentage points \
             (95%).",
            match play.optimal {
                0 => "Both sides play the scripted tactic here. ".to_string(),
                n => format!("{n} cells are played optimally (the game's exact value); the others by the scripted tactic. "),
            },
            number(w.target_error * 100.0, 2)
        )
    };
    let _ = writeln!(
        o,
        "One character against one, starting that far apart, whatever either costs. Each panel shows the \
         first-named loadout's score (a win counts 1, a draw ½) against the second, on open ground, behind \
         some cover, and behind lots of cover (every shot counts the cover). Above 50% the first loadout \
         is the better pick at that distance. {how}\n"
    );
    o.push_str("| pair | ground |");
    for d in &w.distances {
        let _ = write!(o, " {} |", number(*d, 2));
    }
    o.push_str("\n|---|---|");
    o.push_str(&"---:|".repeat(w.distances.len()));
    o.push('\n');
    for p in &w.pairs {
        for (g, ground) in w.grounds.iter().enumerate() {
            let _ = write!(o, "| {} vs {} | {} |", md_cell(unit_name(a, &p.a)), md_cell(unit_name(a, &p.b)), ground);
            for e in &p.score[g] {
                // Exact cells have no interval; Monte Carlo cells show the 95% half-width.
                if e.lo == e.hi {
                    let _ = write!(o, " {:.0} |", e.value * 100.0);
                } else {
                    let _ = write!(o, " {:.0} ±{:.1} |", e.value * 100.0, e.half_width() * 100.0);
                }
            }
            o.push('\n');
        }
    }
    let _ = writeln!(
        o,
        "\nColumns are start distances ({unit}); cells are percentages, `±` the 95% half-width in \
         percentage points of a Monte Carlo cell (none: exact). Every interval is in the CSV.\n"
    );
    o
}

/// The "Mean score against start distance (1v1)" section (only when the analysis has it).
pub struct ScoreByDistance;

impl super::Section for ScoreByDistance {
    fn write_files(&self, a: &RulesetAnalysis, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
        write(a, dir)
    }

    fn markdown(&self, a: &RulesetAnalysis, o: &mut String) {
        o.push_str(&section(a));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::duel_distance::PairCurves;
    use crate::stats::Estimate;

    fn analysis() -> RulesetAnalysis {
        let src = crate::config::Source::read(Path::new("configs/gunplay.toml")).unwrap();
        let r = crate::rulesets::AnyRuleset::load("gunplay", &src, &Default::default()).unwrap();
        let empty = crate::analysis::Matrix { title: String::new(), units: vec![], cells: vec![] };
        RulesetAnalysis {
            ruleset: "gunplay".into(),
            title: "Gunplay".into(),
            version: "0".into(),
            config_path: "configs/gunplay.toml".into(),
            config_hash: "0".into(),
            config_text: None,
            skirmish: None,
            studies: Vec::new(),
            fair_costs: None,
            optimal_play: None,
            squads_rollout: None,
            squads_game: None,
            readings: None,
            lint: Vec::new(),
            variants: vec![],
            seed: 1,
            distance: 24.0,
            distance_unit: "in".into(),
            budget: 50.0,
            squad_caps: Vec::new(),
            target_error: 0.01,
            max_trials: 1000,
            fixed_trials: false,
            units: crate::with_ruleset!(&r, r => crate::rulesets::Ruleset::units(r).to_vec()),
            duel_side: String::new(),
            matrix_1v1: empty.clone(),
            matrix_points: empty,
            efficiency: vec![],
            distance_sweep: None,
            win_rate_by_distance: Some(WinRateByDistance {
                distances: vec![3.0, 24.0],
                grounds: vec!["open".into()],
                pairs: vec![PairCurves {
                    a: "rifle".into(),
                    b: "shotgun".into(),
                    score: vec![vec![Estimate::exact(0.5), Estimate { value: 0.62, lo: 0.61, hi: 0.63 }]],
                    method: vec![vec!["exact".into(), "monte-carlo".into()]],
                }],
                target_error: 0.01,
            }),
            coverage: vec![],
            warnings: vec![],
            elapsed_seconds: 0.0,
        }
    }

    #[test]
    fn the_table_lists_every_cell_with_its_interval() {
        let a = analysis();
        let csv = csv(&a, a.win_rate_by_distance.as_ref().unwrap());
        assert_eq!(
            csv,
            "unit_a,unit_b,ground,distance,win_rate,win_rate_lo,win_rate_hi,method\n\
             Rifle,Shotgun,open,3,0.500000,0.500000,0.500000,exact\n\
             Rifle,Shotgun,open,24,0.620000,0.610000,0.630000,monte-carlo\n"
        );
        let md = section(&a);
        assert!(md.contains("| Rifle vs Shotgun | open | 50 | 62 ±1.0 |"), "{md}");
        assert!(md.contains("![1v1 mean score"), "{md}");
    }

    #[test]
    fn the_chart_is_written_as_png_and_svg() {
        let dir = tempfile::tempdir().unwrap();
        let written = write(&analysis(), dir.path()).unwrap();
        assert_eq!(written.len(), 3);
        assert!(std::fs::metadata(dir.path().join("win_rate_by_distance.png")).unwrap().len() > 1000);
        let svg = std::fs::read_to_string(dir.path().join("win_rate_by_distance.svg")).unwrap();
        assert!(svg.contains("Rifle vs Shotgun"));
        let mut none = analysis();
        none.win_rate_by_distance = None;
        assert!(write(&none, dir.path()).unwrap().is_empty());
        assert_eq!(section(&none), "");
    }
}
