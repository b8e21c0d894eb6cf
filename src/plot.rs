//! The charts' typeface and text measuring: the embedded DejaVu Sans registered with plotters,
//! and line wrapping measured with it. Shared by the report's charts and the battle replay
//! pictures, so both lay text out alike; it knows no analysis type, so any layer may use it.

use std::sync::OnceLock;

use anyhow::anyhow;
use plotters::style::{FontDesc, FontStyle, IntoFont, register_font};

/// The font family every chart names (SVG output says `sans-serif`).
pub const FAMILY: &str = "sans-serif";

/// Registers the embedded DejaVu Sans faces once per process; text cannot be drawn without.
pub fn ensure_fonts() -> anyhow::Result<()> {
    static FONTS: OnceLock<Result<(), &'static str>> = OnceLock::new();
    let result = FONTS.get_or_init(|| {
        register_font(FAMILY, FontStyle::Normal, dejavu::sans::regular()).map_err(|_| "DejaVu Sans")?;
        register_font(FAMILY, FontStyle::Bold, dejavu::sans::bold()).map_err(|_| "DejaVu Sans Bold")?;
        Ok(())
    });
    result.map_err(|face| anyhow!("the embedded font {face} could not be loaded"))
}

pub fn font(size: f64) -> FontDesc<'static> {
    (FAMILY, size).into_font()
}

/// Width in pixels of `text` at `size` (a generous guess if the font cannot measure it).
pub fn text_width(text: &str, size: f64) -> i32 {
    font(size).box_size(text).map_or((text.chars().count() as f64 * size * 0.6) as i32, |(w, _)| w as i32)
}

/// Breaks each paragraph into lines no wider than `max` pixels, at spaces.
pub fn wrap_all(paragraphs: &[String], size: f64, max: i32) -> Vec<String> {
    paragraphs.iter().flat_map(|p| wrap(p, size, max)).collect()
}

/// Breaks `text` into lines no wider than `max` pixels at font size `size`, at spaces (a
/// longer word gets a line of its own). Measured with the charts' font once
/// [`ensure_fonts`] has run, else estimated at 0.6 em a character.
pub fn wrap(text: &str, size: f64, max: i32) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let candidate = if line.is_empty() { word.to_string() } else { format!("{line} {word}") };
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

/// The viridis colour scale (van der Walt and Smith, matplotlib 2.0) at 11 even stops, from
/// purple (0) through teal (0.5) to yellow (1): readable by colour-blind readers and in grey.
/// Every chart and page gives it one meaning: purple is worse than even (the row loses, the
/// unit is too expensive), teal even, yellow better (wins, too cheap).
pub const VIRIDIS: [(u8, u8, u8); 11] = [
    (68, 1, 84),
    (72, 36, 117),
    (65, 68, 135),
    (53, 95, 141),
    (42, 120, 142),
    (33, 145, 140),
    (34, 168, 132),
    (68, 191, 112),
    (122, 209, 81),
    (189, 223, 38),
    (253, 231, 37),
];

/// The colour at `t` of the scale whose `stops` are spread evenly over [0, 1], linear in RGB
/// between them; `t` outside [0, 1] (or NaN, read as 0.5) is clamped.
pub fn interpolate(stops: &[(u8, u8, u8)], t: f64) -> (u8, u8, u8) {
    let t = if t.is_nan() { 0.5 } else { t.clamp(0.0, 1.0) };
    let x = t * (stops.len() - 1) as f64;
    let i = (x.floor() as usize).min(stops.len() - 2);
    let f = x - i as f64;
    let (a, b) = (stops[i], stops[i + 1]);
    let mix = |p: u8, q: u8| (p as f64 + (q as f64 - p as f64) * f).round() as u8;
    (mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// [`VIRIDIS`] at `t` in [0, 1].
pub fn viridis(t: f64) -> (u8, u8, u8) {
    interpolate(&VIRIDIS, t)
}

/// The viridis colours of the three calls, as the charts and pages use them: too cheap
/// (yellow), fair (teal), too expensive (purple).
pub const TOO_CHEAP: (u8, u8, u8) = (221, 227, 24);
pub const FAIR: (u8, u8, u8) = (33, 145, 140);
pub const TOO_EXPENSIVE: (u8, u8, u8) = (71, 19, 101);
