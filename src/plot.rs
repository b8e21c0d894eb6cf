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
