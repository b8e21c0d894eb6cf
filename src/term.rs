//! Terminal output that fits the terminal: tables and long lines are wrapped to the width of
//! the terminal on stdout, or to `COLUMNS` when that is set; `--wide` prints them at full width.
//!
//! Why only then: when stdout is a file or a pipe (tests, CI logs, `> out.txt`) nothing is
//! wrapped unless `COLUMNS` asks for it, so redirected output is the same on every machine.
//! Tables use comfy-table's dynamic arrangement (cells wrapped at word boundaries, columns
//! narrowed in proportion); comfy-table is built without its terminal feature, so the width
//! comes from here. Any layer may use it (no analysis types).

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};

use comfy_table::{ContentArrangement, Table, presets::UTF8_FULL_CONDENSED};

static WIDE: AtomicBool = AtomicBool::new(false);

/// `--wide`: print tables and lines at full width whatever the terminal.
pub fn set_wide(wide: bool) {
    WIDE.store(wide, Ordering::Relaxed);
}

/// The narrowest width wrapped to: below it a table's columns would be a few letters each.
const MIN_WIDTH: usize = 40;

/// The width to fit output to, in characters: none with `--wide`; else `COLUMNS` when it is a
/// number; else the width of the terminal on stdout; none when stdout is not a terminal.
pub fn width() -> Option<usize> {
    if WIDE.load(Ordering::Relaxed) {
        return None;
    }
    if let Some(c) = std::env::var("COLUMNS").ok().and_then(|c| c.trim().parse::<usize>().ok()).filter(|&c| c > 0) {
        return Some(c.max(MIN_WIDTH));
    }
    if !std::io::stdout().is_terminal() {
        return None;
    }
    terminal_size::terminal_size_of(std::io::stdout()).map(|(w, _)| (w.0 as usize).max(MIN_WIDTH))
}

/// A terminal table in the house style (UTF-8, condensed), fitted to [`width`].
pub fn table() -> Table {
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED);
    if let Some(w) = width() {
        t.set_content_arrangement(ContentArrangement::Dynamic);
        t.set_width(w.min(u16::MAX as usize) as u16);
    }
    t
}

/// `text` with every line longer than [`width`] broken at spaces (a word longer than the
/// width stays whole); unchanged when there is no width.
pub fn wrap(text: &str) -> String {
    match width() {
        Some(w) => wrap_to(text, w),
        None => text.to_string(),
    }
}

/// [`wrap`] at `width` characters.
pub fn wrap_to(text: &str, width: usize) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if line.chars().count() <= width {
            out.push_str(line);
            continue;
        }
        let mut len = 0;
        for word in line.split(' ') {
            let n = word.chars().count();
            if len > 0 && len + 1 + n > width {
                out.push('\n');
                len = 0;
            } else if len > 0 {
                out.push(' ');
                len += 1;
            }
            out.push_str(word);
            len += n;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::wrap_to;

    #[test]
    fn long_lines_break_at_spaces_and_short_ones_stay() {
        assert_eq!(wrap_to("short\nline", 10), "short\nline");
        assert_eq!(wrap_to("one two three four", 9), "one two\nthree\nfour");
        assert_eq!(wrap_to("abcdefghijkl xy", 5), "abcdefghijkl\nxy");
        for line in wrap_to(&"word ".repeat(50), 20).lines() {
            assert!(line.chars().count() <= 20, "{line:?}");
        }
    }
}
