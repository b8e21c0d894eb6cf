//! How numbers are printed in text: percentages with their interval, costs, plain numbers and
//! Markdown cells. Shared by the report, the command line and the rulesets' studies, so a value
//! reads the same everywhere. Pure functions of their arguments (no analysis types), so any
//! layer may use them.

use crate::stats::Estimate;

/// A probability as a percentage with its 95% interval: `62.1% [60.9, 63.3]`.
/// An exact value (empty interval) prints as `62.1% (exact)`.
pub fn pct(e: &Estimate) -> String {
    if e.lo == e.hi {
        format!("{:.1}% (exact)", e.value * 100.0)
    } else {
        format!("{:.1}% [{:.1}, {:.1}]", e.value * 100.0, e.lo * 100.0, e.hi * 100.0)
    }
}

/// A probability as a percentage with its 95% interval, always both bounds (an exact value
/// too): `50.0% [50.0, 50.0]`. For tables whose rows should read alike.
pub fn pct_interval(e: &Estimate) -> String {
    format!("{:.1}% [{:.1}, {:.1}]", 100.0 * e.value, 100.0 * e.lo, 100.0 * e.hi)
}

/// A matrix cell: the percentage and the interval's half-width in points, `62.1 ±1.0`,
/// or `50.0 (exact)`.
pub fn pct_cell(e: &Estimate) -> String {
    if e.lo == e.hi {
        format!("{:.1} (exact)", e.value * 100.0)
    } else {
        format!("{:.1} ±{:.1}", e.value * 100.0, e.half_width() * 100.0)
    }
}

/// A ratio with its interval: `0.84 [0.80, 0.88]`.
pub fn ratio(e: &Estimate) -> String {
    format!("{:.2} [{:.2}, {:.2}]", e.value, e.lo, e.hi)
}

/// A points cost without a spurious `.0`: `35`, `12.5`.
pub fn cost(c: f64) -> String {
    if c.fract() == 0.0 && c.abs() < 1e15 { format!("{c:.0}") } else { format!("{c}") }
}

/// A plain number with up to `digits` decimals and no trailing zeros: `12`, `0.01`.
pub fn number(x: f64, digits: usize) -> String {
    let s = format!("{x:.digits$}");
    if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s }
}

/// An integer with thousands separators: `12345` → `12,345`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// Text safe inside a Markdown table cell: pipes escaped, line breaks flattened.
pub fn md_cell(s: &str) -> String {
    s.replace('|', "\\|").replace(['\r', '\n'], " ")
}

/// A cost as TOML: an integer when whole (`35`), else a decimal (`2.5`).
pub fn fmt_cost(c: f64) -> String {
    if (c - c.round()).abs() < 1e-9 {
        format!("{}", c.round() as i64)
    } else {
        format!("{}", (c * 100.0).round() / 100.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_carry_their_interval() {
        let e = Estimate { value: 0.6213, lo: 0.6091, hi: 0.6334 };
        assert_eq!(pct(&e), "62.1% [60.9, 63.3]");
        assert_eq!(pct_cell(&e), "62.1 ±1.2");
        assert_eq!(pct(&Estimate::exact(0.5)), "50.0% (exact)");
    }

    #[test]
    fn costs_and_numbers_drop_trailing_zeros() {
        assert_eq!(cost(35.0), "35");
        assert_eq!(cost(12.5), "12.5");
        assert_eq!(number(0.0100, 4), "0.01");
        assert_eq!(number(12.0, 2), "12");
    }

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
    }

    #[test]
    fn markdown_cells_cannot_break_the_table() {
        assert_eq!(md_cell("a|b\nc"), "a\\|b c");
    }
}

/// A mix as text, heaviest tactic first: `"charge 83%, keep-out 17%"` (weights under 1% with
/// one decimal; tactics of weight 0 left out). `names` and `w` in the portfolio's order.
pub fn mix_text<S: AsRef<str>>(names: &[S], w: &[f64]) -> String {
    let mut v: Vec<(usize, f64)> = w.iter().copied().enumerate().filter(|x| x.1 > 0.0).collect();
    v.sort_by(|x, y| y.1.total_cmp(&x.1));
    let pct = |x: f64| if x < 0.01 { format!("{:.1}%", 100.0 * x) } else { format!("{:.0}%", 100.0 * x) };
    v.iter().map(|&(k, x)| format!("{} {}", names[k].as_ref(), pct(x))).collect::<Vec<_>>().join(", ")
}

/// [`mix_text`] with each tactic's name in backticks, for Markdown: "`x` 53%, `y` 47%".
pub fn quoted_mix_text<S: AsRef<str>>(names: &[S], w: &[f64]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{}`", n.as_ref())).collect();
    mix_text(&quoted, w)
}
