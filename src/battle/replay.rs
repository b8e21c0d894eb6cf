//! A replay picture of one battle as SVG: table, terrain, deployment zones, each unit's path
//! and where it ended or died. Written by hand (plain SVG text): the picture is geometry,
//! not a chart, and needs no font or plotting backend.

use std::fmt::Write;

use super::{AreaKind, Pos, Table};

/// One unit's story.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayUnit {
    pub side: usize,
    /// Short label drawn at the unit's last position, e.g. "Rf"; a trailing mark (`↓`, `!`)
    /// may give its state at the end.
    pub label: String,
    /// The unit's name as the book prints it, e.g. "Riflemen": the key under the picture
    /// spells each label out with it.
    pub name: String,
    /// Positions: where it entered, then after each move.
    pub path: Vec<Pos>,
    /// Game turn it was destroyed in, if it was.
    pub died: Option<u32>,
}

/// An objective on the table (a command point): a diamond at `at` filled with its holder's
/// colour at the end (grey: nobody's), dashed circles of `radii` (inches) round it, and a label.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayMarker {
    pub at: Pos,
    /// Drawn beside the diamond, e.g. "CP1: red t4".
    pub label: String,
    /// The side holding it at the end, if any.
    pub holder: Option<usize>,
    /// Radii of the dashed circles round it, inches (e.g. the 3" occupy and 6" contest radii).
    pub radii: Vec<f32>,
}

/// Everything the picture shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Replay {
    pub title: String,
    /// Lines of text under the table (armies, result, legend).
    pub notes: Vec<String>,
    /// The table at the end of the battle (destroyed cover drawn dashed).
    pub table: Table,
    pub deploy_depth: f32,
    pub units: Vec<ReplayUnit>,
    /// Objectives drawn under the units' paths (none in a game without them).
    pub markers: Vec<ReplayMarker>,
    /// The key line under the notes; `None`: the default ([`LEGEND`]: intact and destroyed
    /// cover). A ruleset whose dashed bars mean something else says so here.
    pub legend: Option<String>,
}

const SCALE: f32 = 14.0;
const MARGIN: f32 = 20.0;
const COLOURS: [&str; 2] = ["#1f5fbf", "#c62828"];
const ZONE_FILL: [&str; 2] = ["#e3ecfa", "#fbe5e5"];

/// The default key line under a replay.
pub const LEGEND: &str = "○ entered · ● alive at the end · ✕ destroyed (tN = game turn) · brown bars: cover (dashed: \
                      destroyed) · shaded: deployment zones";

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// The abbreviations of a replay spelled out: `("HI", "Heavy Infantry")`, one entry per name in
/// the order units first appear, each label without its trailing state mark (`↓`, `!`) and
/// several labels of one name joined (`"RR1, RR2"`). A label equal to its name is left out.
pub fn key(r: &Replay) -> Vec<(String, String)> {
    let mut out: Vec<(Vec<String>, String)> = Vec::new();
    for u in &r.units {
        let base = u.label.trim_end_matches(|c: char| !c.is_alphanumeric());
        if base.is_empty() || base == u.name || u.name.is_empty() {
            continue;
        }
        match out.iter_mut().find(|(_, n)| *n == u.name) {
            Some((labels, _)) if labels.iter().any(|l| l == base) => {}
            Some((labels, _)) => labels.push(base.to_string()),
            None => out.push((vec![base.to_string()], u.name.clone())),
        }
    }
    out.into_iter().map(|(labels, name)| (labels.join(", "), name)).collect()
}

/// A text label for the marker at pixel `at`.
struct Label {
    at: (f32, f32),
    text: String,
    colour: &'static str,
    size: f32,
    bold: bool,
}

/// Greedy placement: each label's baseline origin, the first spot (right of its marker, then
/// left, above, below, then ever further out) inside `area` (x0, y0, x1, y1) whose box keeps
/// 2 px clear of every label placed before it and clear of every marker (6 px round each
/// label's point); right of the marker when every spot is taken.
fn place(labels: &[Label], area: (f32, f32, f32, f32)) -> Vec<(f32, f32)> {
    const GAP: f32 = 2.0;
    let markers: Vec<(f32, f32, f32, f32)> =
        labels.iter().map(|l| (l.at.0 - 6.0, l.at.1 - 6.0, l.at.0 + 6.0, l.at.1 + 6.0)).collect();
    let mut boxes: Vec<(f32, f32, f32, f32)> = Vec::new();
    let mut out = Vec::new();
    for l in labels {
        let w = crate::plot::text_width(&l.text, l.size as f64 * 1.2) as f32;
        let h = l.size + 2.0;
        let (x, y) = l.at;
        let spots = (0..5).flat_map(|k| {
            let r = k as f32 * (h + 1.0);
            [
                (x + 7.0 + r * 0.6, y + 4.0),
                (x - 7.0 - w - r * 0.6, y + 4.0),
                (x - w / 2.0, y - 7.0 - r),
                (x - w / 2.0, y + 7.0 + h + r),
                (x + 7.0, y - 6.0 - r),
                (x + 7.0, y + 12.0 + r),
                (x - 7.0 - w, y - 6.0 - r),
                (x - 7.0 - w, y + 12.0 + r),
            ]
        });
        let boxed = |(bx, by): (f32, f32)| (bx, by - h + 2.0, bx + w, by + 2.0);
        let free = |b: &(f32, f32, f32, f32)| {
            b.0 >= area.0 - 10.0
                && b.2 <= area.2 + 10.0
                && b.1 >= area.1 - 10.0
                && b.3 <= area.3 + 10.0
                && !boxes.iter().any(|o| b.0 < o.2 + GAP && o.0 < b.2 + GAP && b.1 < o.3 + GAP && o.1 < b.3 + GAP)
                && !markers.iter().any(|o| b.0 < o.2 && o.0 < b.2 && b.1 < o.3 && o.1 < b.3)
        };
        let spot = spots.clone().find(|&p| free(&boxed(p))).unwrap_or((x + 7.0, y + 4.0));
        boxes.push(boxed(spot));
        out.push(spot);
    }
    out
}

/// Renders the replay as a standalone SVG document.
pub fn to_svg(r: &Replay) -> String {
    // Text is measured with the charts' font, whatever ran before: the same picture every time.
    let _ = crate::plot::ensure_fonts();
    let (w, d) = (r.table.width * SCALE, r.table.depth * SCALE);
    // Notes (12 px) and the legend (11 px) wrapped to the table's width.
    let width = w as i32;
    let notes: Vec<String> = r.notes.iter().flat_map(|n| crate::plot::wrap(n, 12.0, width)).collect();
    let mut legend = crate::plot::wrap(r.legend.as_deref().unwrap_or(LEGEND), 11.0, width);
    let key = key(r);
    if !key.is_empty() {
        let entries: Vec<String> = key.iter().map(|(labels, name)| format!("{labels} = {name}")).collect();
        legend.extend(crate::plot::wrap(&format!("Labels: {}", entries.join(" · ")), 11.0, width));
    }
    let text_h = 18.0 * (notes.len() + legend.len()) as f32 + 10.0;
    let (tw, th) = (w + 2.0 * MARGIN, d + 2.0 * MARGIN + text_h + 10.0);
    let px = |p: Pos| (MARGIN + p.x * SCALE, MARGIN + 24.0 + p.y * SCALE);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{tw:.0}" height="{:.0}" viewBox="0 0 {tw:.0} {:.0}" font-family="sans-serif">"#,
        th + 24.0,
        th + 24.0
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(s, r#"<text x="{MARGIN}" y="18" font-size="15" font-weight="bold">{}</text>"#, esc(&r.title));
    let (x0, y0) = px(Pos::new(0.0, 0.0));
    let _ = writeln!(s, r##"<rect x="{x0}" y="{y0}" width="{w}" height="{d}" fill="#f4f1e8" stroke="#555"/>"##);
    for side in 0..2 {
        let zy = if side == 0 { 0.0 } else { r.table.depth - r.deploy_depth };
        let (_, zy_px) = px(Pos::new(0.0, zy));
        let _ = writeln!(
            s,
            r#"<rect x="{x0}" y="{zy_px}" width="{w}" height="{}" fill="{}" opacity="0.8"/>"#,
            r.deploy_depth * SCALE,
            ZONE_FILL[side]
        );
    }
    for a in &r.table.areas {
        let (cx, cy) = px(a.centre);
        let fill = match a.kind {
            AreaKind::Rough => "#c8b68a",
            AreaKind::Dangerous => "#e8893a",
        };
        let _ = writeln!(s, r#"<circle cx="{cx}" cy="{cy}" r="{}" fill="{fill}" opacity="0.5"/>"#, a.radius * SCALE);
    }
    for wall in &r.table.walls {
        let (ax, ay) = px(wall.a);
        let (bx, by) = px(wall.b);
        let style = if wall.intact {
            r##"stroke="#6d4c2f" stroke-width="6""##
        } else {
            r##"stroke="#999" stroke-width="4" stroke-dasharray="4 4""##
        };
        let _ = writeln!(s, r#"<line x1="{ax}" y1="{ay}" x2="{bx}" y2="{by}" {style} stroke-linecap="round"/>"#);
    }
    for m in &r.markers {
        let (cx, cy) = px(m.at);
        let c = m.holder.map_or("#777", |s| COLOURS[s % 2]);
        for &radius in &m.radii {
            let _ = writeln!(
                s,
                r#"<circle cx="{cx}" cy="{cy}" r="{}" fill="none" stroke="{c}" stroke-width="1.2" stroke-dasharray="5 4" opacity="0.8"/>"#,
                radius * SCALE
            );
        }
        // The label centred above the outermost circle, clear of the units round the point.
        let k = 8.0;
        let top = m.radii.iter().fold(0.0f32, |a, &b| a.max(b)) * SCALE;
        let _ = writeln!(
            s,
            r#"<path class="marker" d="M{cx} {} L{} {cy} L{cx} {} L{} {cy} Z" fill="{c}" stroke="black" stroke-width="1.2"/><text x="{cx}" y="{}" text-anchor="middle" font-size="11" font-weight="bold" fill="{c}" stroke="white" stroke-width="3" paint-order="stroke">{}</text>"#,
            cy - k,
            cx + k,
            cy + k,
            cx - k,
            cy - top.max(k) - 4.0,
            esc(&m.label)
        );
    }
    // Paths and markers first, then every label where it overlaps no label placed before it.
    let mut labels: Vec<Label> = Vec::new();
    for u in &r.units {
        let c = COLOURS[u.side % 2];
        let pts: Vec<String> = u.path.iter().map(|&p| px(p)).map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
        let _ = writeln!(
            s,
            r#"<polyline points="{}" fill="none" stroke="{c}" stroke-width="1.5" opacity="0.55"/>"#,
            pts.join(" ")
        );
        if let Some(&start) = u.path.first() {
            let (x, y) = px(start);
            let _ = writeln!(s, r#"<circle cx="{x}" cy="{y}" r="3" fill="white" stroke="{c}"/>"#);
        }
        let Some(&end) = u.path.last() else { continue };
        let (x, y) = px(end);
        if let Some(turn) = u.died {
            let k = 5.0;
            let _ = writeln!(
                s,
                r#"<path d="M{} {} L{} {} M{} {} L{} {}" stroke="{c}" stroke-width="2.5"/>"#,
                x - k,
                y - k,
                x + k,
                y + k,
                x - k,
                y + k,
                x + k,
                y - k
            );
            if !u.label.is_empty() {
                labels.push(Label {
                    at: (x, y),
                    text: format!("{} t{turn}", u.label),
                    colour: c,
                    size: 9.0,
                    bold: false,
                });
            }
        } else {
            let _ = writeln!(s, r#"<circle cx="{x}" cy="{y}" r="5.5" fill="{c}"/>"#);
            if !u.label.is_empty() {
                labels.push(Label { at: (x, y), text: u.label.clone(), colour: c, size: 10.0, bold: true });
            }
        }
    }
    let area = (MARGIN, MARGIN + 24.0, MARGIN + w, MARGIN + 24.0 + d);
    for (l, (bx, by)) in labels.iter().zip(place(&labels, area)) {
        let (x, y) = l.at;
        if (bx - (x + 7.0)).abs() > 1.0 || (by - (y + 4.0)).abs() > 1.0 {
            // Moved off its marker: a thin leader line back to it.
            let _ = writeln!(
                s,
                r#"<line x1="{x:.1}" y1="{y:.1}" x2="{:.1}" y2="{:.1}" stroke="{}" stroke-width="0.8" opacity="0.7"/>"#,
                bx.clamp(x - 40.0, x + 40.0),
                by - l.size * 0.35,
                l.colour
            );
        }
        let weight = if l.bold { r#" font-weight="bold""# } else { "" };
        let _ = writeln!(
            s,
            r#"<text x="{bx:.1}" y="{by:.1}" font-size="{}"{weight} fill="{}" stroke="white" stroke-width="3" paint-order="stroke">{}</text>"#,
            l.size,
            l.colour,
            esc(&l.text)
        );
    }
    let mut ty = MARGIN + 24.0 + d + 22.0;
    for line in &notes {
        let _ = writeln!(s, r#"<text x="{MARGIN}" y="{ty}" font-size="12">{}</text>"#, esc(line));
        ty += 18.0;
    }
    for line in &legend {
        let _ = writeln!(s, r##"<text x="{MARGIN}" y="{ty}" font-size="11" fill="#444">{}</text>"##, esc(line));
        ty += 18.0;
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_and_legend_wrap_to_the_table_width() {
        let note = "word ".repeat(60).trim_end().to_string();
        let r = Replay {
            title: "t".into(),
            notes: vec![note.clone()],
            table: Table::new(20.0, 20.0),
            deploy_depth: 2.0,
            units: Vec::new(),
            markers: Vec::new(),
            legend: None,
        };
        let svg = to_svg(&r);
        let lines = |size: &str| -> Vec<String> {
            svg.lines()
                .filter(|l| l.contains(&format!(r#"font-size="{size}""#)) && !l.contains("font-weight"))
                .map(|l| l[l.find('>').unwrap() + 1..l.rfind("</text>").unwrap()].to_string())
                .collect()
        };
        let notes = lines("12");
        assert!(notes.len() > 1, "{notes:?}");
        assert_eq!(notes.join(" "), note);
        assert_eq!(lines("11").join(" "), LEGEND);
    }
}
