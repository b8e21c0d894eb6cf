//! The table of config ranges in docs/config.md against the code (issue 46): every row is tried at both
//! ends and just outside them, in the ruleset's shipped config, through the library's loader.
//!
//! - A value just outside the range is refused, and the error is placed at the value (its
//!   `file:line` when the file gave it, the `--set` when an override did): the range is checked
//!   and the message points where the issue asks.
//! - A value at an end (or just inside an open end) is not refused by that check: the load
//!   succeeds, or fails elsewhere (a cross-key rule such as "the budget buys the cheapest unit"
//!   is placed at its own key), or at the value with a message that is not the range's.
//! - Every numeric key of every shipped config has a row, so a new key cannot go undocumented.
//!
//! A key the file holds is changed in the text (the first entry of a `[[table]]` list that
//! holds a number there; a list's first number for the lower end, its last for the upper end);
//! a key it leaves to its default is given by `--set`.

use std::collections::BTreeSet;
use std::path::Path;

use pointsworth::config::{Overrides, Source};
use pointsworth::rulesets::AnyRuleset;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Which ends of a range are allowed.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Ends {
    Both,
    Top,
    Neither,
    Bottom,
    /// `at most B (…)`: only the upper end is the key's own (the lower one is another key).
    Upper,
}

/// One row of the docs/config.md table.
#[derive(Debug, Clone)]
struct Row {
    key: String,
    rulesets: Vec<&'static str>,
    lo: f64,
    hi: f64,
    ends: Ends,
    each: bool,
    text: String,
}

const ALL: [&str; 5] = ["guns-n-grenades", "army-men-combat", "grunt-factor", "vsgmr", "gunplay"];

fn canonical(short: &str) -> &'static str {
    match short.trim() {
        "gng" => ALL[0],
        "amc" => ALL[1],
        "tgf" => ALL[2],
        "vsgmr" => ALL[3],
        "gunplay" => ALL[4],
        other => panic!("docs/config.md ranges: unknown ruleset {other:?}"),
    }
}

/// The number at the start of `s` (after optional spaces).
fn number(s: &str) -> (f64, &str) {
    let s = s.trim_start();
    let end = s.find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-')).unwrap_or(s.len());
    (s[..end].parse().unwrap_or_else(|_| panic!("docs/config.md ranges: no number in {s:?}")), &s[end..])
}

/// Parses an "allowed" cell: `A to B`, `more than A and at most B`, `in (A, B)`, `in [A, B)`,
/// `at most B (…)`, each optionally after `each `, `a number from `, `an integer from `, and
/// followed by a unit.
fn parse_range(text: &str) -> (f64, f64, Ends, bool) {
    let mut t = text.trim();
    let each = t.starts_with("each ");
    t = t.trim_start_matches("each ");
    t = t.trim_start_matches("a number from ").trim_start_matches("an integer from ");
    if let Some(rest) = t.strip_prefix("more than ") {
        let (lo, rest) = number(rest);
        let (hi, _) = number(rest.trim_start().strip_prefix("and at most").expect("`and at most`"));
        return (lo, hi, Ends::Top, each);
    }
    if let Some(rest) = t.strip_prefix("at most ") {
        return (f64::NEG_INFINITY, number(rest).0, Ends::Upper, each);
    }
    if let Some(rest) = t.strip_prefix("in (").or(t.strip_prefix("in [")) {
        let open_lo = t.starts_with("in (");
        let (lo, rest) = number(rest);
        let (hi, rest) = number(rest.trim_start_matches(',').trim_start());
        let open_hi = rest.starts_with(')');
        let ends = match (open_lo, open_hi) {
            (true, true) => Ends::Neither,
            (false, true) => Ends::Bottom,
            (true, false) => Ends::Top,
            (false, false) => Ends::Both,
        };
        return (lo, hi, ends, each);
    }
    let (lo, rest) = number(t);
    let (hi, _) =
        number(rest.trim_start().strip_prefix("to").unwrap_or_else(|| panic!("docs/config.md ranges: {text:?}")));
    (lo, hi, Ends::Both, each)
}

fn rows() -> Vec<Row> {
    let doc = std::fs::read_to_string(root().join("docs/config.md")).unwrap();
    let table = doc
        .split("<!-- ranges: begin -->")
        .nth(1)
        .and_then(|t| t.split("<!-- ranges: end -->").next())
        .expect("docs/config.md has the ranges table");
    let mut out = Vec::new();
    for line in table.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        let key = cells[0].trim_matches('`').to_string();
        let rulesets = if cells[1] == "all" { ALL.to_vec() } else { cells[1].split(',').map(canonical).collect() };
        let (lo, hi, ends, each) = parse_range(cells[2]);
        out.push(Row { key, rulesets, lo, hi, ends, each, text: cells[2].to_string() });
    }
    assert!(out.len() > 100, "{} rows", out.len());
    out
}

/// The shipped config of a ruleset.
fn shipped(id: &str) -> Source {
    Source::read(&root().join("configs").join(format!("{id}.toml"))).unwrap()
}

/// `toml::de::DeValue` of `path` in `text`, for finding where a key is.
fn value_at<'a>(doc: &'a toml::de::DeValue<'a>, path: &[String]) -> Option<&'a toml::de::DeValue<'a>> {
    let mut here = doc;
    for part in path {
        here = match here {
            toml::de::DeValue::Table(t) => t.iter().find(|(k, _)| k.get_ref() == part).map(|(_, v)| v.get_ref())?,
            toml::de::DeValue::Array(a) => a.get(part.parse::<usize>().ok()?).map(|v| v.get_ref())?,
            _ => return None,
        };
    }
    Some(here)
}

fn is_number(v: &toml::de::DeValue) -> bool {
    matches!(v, toml::de::DeValue::Integer(_) | toml::de::DeValue::Float(_))
}

/// The concrete path of dotted `key` in `text`: `unit.cost` → `["unit", "0", "cost"]`, the first
/// entry of each `[[table]]` list holding a number (or a list of numbers) there; `None` when the
/// file does not hold the key.
fn find_path(text: &str, key: &str) -> Option<Vec<String>> {
    let doc = toml::de::DeTable::parse(text).ok()?;
    let doc = toml::de::DeValue::Table(doc.into_inner());
    fn walk(doc: &toml::de::DeValue, prefix: Vec<String>, rest: &[&str]) -> Option<Vec<String>> {
        let Some((head, tail)) = rest.split_first() else {
            let v = value_at(doc, &prefix)?;
            let ok = match v {
                toml::de::DeValue::Array(a) => !a.is_empty() && a.iter().all(|x| is_number(x.get_ref())),
                v => is_number(v),
            };
            return ok.then_some(prefix);
        };
        let mut p = prefix.clone();
        p.push(head.to_string());
        match value_at(doc, &p)? {
            toml::de::DeValue::Array(a) if !tail.is_empty() => (0..a.len()).find_map(|i| {
                let mut q = p.clone();
                q.push(i.to_string());
                walk(doc, q, tail)
            }),
            _ => walk(doc, p, tail),
        }
    }
    let parts: Vec<&str> = key.split('.').collect();
    walk(&doc, Vec::new(), &parts)
}

/// A number as TOML: integral values without a fraction when `int`.
fn literal(v: f64, int: bool) -> String {
    if int { format!("{}", v as i64) } else { format!("{v:?}") }
}

/// The outcome of loading with one value changed: `Ok`, or the error with whether it is placed
/// at the changed value.
enum Probe {
    Ok,
    Here(String),
    Elsewhere(String),
}

/// Loads ruleset `id` with `key` set to `v`: in the text (`path`, `upper`: the list element to
/// change) or by `--set`.
fn probe(id: &str, row: &Row, path: Option<&[String]>, v: f64, int: bool, upper: bool) -> Probe {
    let src = shipped(id);
    let value = literal(v, int);
    let (source, overrides, here) = match path {
        Some(path) => {
            let mut p = path.to_vec();
            let doc = toml::de::DeTable::parse(&src.text).unwrap();
            let whole = toml::de::DeValue::Table(doc.into_inner());
            if let Some(toml::de::DeValue::Array(a)) = value_at(&whole, &p) {
                p.push(if upper { a.len() - 1 } else { 0 }.to_string());
            }
            let refs: Vec<&str> = p.iter().map(String::as_str).collect();
            let span = src.span_of(&refs).unwrap();
            let text = format!("{}{value}{}", &src.text[..span.start], &src.text[span.end..]);
            let line = src.text[..span.start].matches('\n').count() + 1;
            let name = src.path.display().to_string();
            (Source::from_text(&src.path, text), Overrides::default(), format!("{name}:{line}:"))
        }
        None => {
            let set = if row.each { format!("{}=[{value}]", row.key) } else { format!("{}={value}", row.key) };
            (src, Overrides::parse(std::slice::from_ref(&set)).unwrap(), format!("--set {set}:"))
        }
    };
    match AnyRuleset::load(id, &source, &overrides) {
        Ok(_) => Probe::Ok,
        Err(e) => {
            let e = e.to_string();
            if e.starts_with(&here) { Probe::Here(e) } else { Probe::Elsewhere(e) }
        }
    }
}

/// Whether `message` refuses the value of `leaf` by its range: `LEAF must be` with `LEAF` a
/// whole word.
fn range_refusal(message: &str, leaf: &str) -> bool {
    let needle = format!("{leaf} must be");
    message
        .match_indices(&needle)
        .any(|(i, _)| message[..i].chars().next_back().is_none_or(|c| !(c.is_alphanumeric() || c == '_')))
}

#[test]
fn every_documented_range_is_the_range_the_loader_checks() {
    let mut failures = Vec::new();
    let mut probed = 0;
    for row in rows() {
        let leaf = row.key.rsplit('.').next().unwrap().to_string();
        for id in &row.rulesets {
            let src = shipped(id);
            let path = find_path(&src.text, &row.key);
            let is_section = !row.key.contains('.') || row.key.split('.').count() == 2 && path.is_none();
            if path.is_none() && !is_section {
                failures.push(format!("{id} {}: not in the shipped config, and not a --set key", row.key));
                continue;
            }
            // Integer fields: the shipped value is an integer literal and both ends are whole.
            let int = {
                let doc = toml::de::DeTable::parse(&src.text).unwrap();
                let whole = toml::de::DeValue::Table(doc.into_inner());
                let v = path.as_ref().and_then(|p| value_at(&whole, p));
                let first = match v {
                    Some(toml::de::DeValue::Array(a)) => a.first().map(|x| x.get_ref().clone()),
                    v => v.cloned(),
                };
                let whole_ends = row.lo.fract() == 0.0 && row.hi.fract() == 0.0;
                whole_ends
                    && match first {
                        Some(toml::de::DeValue::Integer(_)) => true,
                        Some(_) => false,
                        None => !row.text.contains("more than") && !row.text.starts_with("in "),
                    }
            };
            let delta = |b: f64| if int { 1.0 } else { 1e-3 * b.abs().max(1.0) };
            let (lo, hi) = (row.lo, row.hi);
            let mut inside = vec![(if matches!(row.ends, Ends::Both | Ends::Top) { hi } else { hi - delta(hi) }, true)];
            let mut outside = vec![(
                if matches!(row.ends, Ends::Both | Ends::Top | Ends::Upper) { hi + delta(hi) } else { hi },
                true,
            )];
            match row.ends {
                Ends::Both | Ends::Bottom => {
                    inside.push((lo, false));
                    outside.push((lo - delta(lo), false));
                }
                Ends::Top | Ends::Neither => {
                    inside.push((lo + delta(lo), false));
                    outside.push((lo, false));
                }
                Ends::Upper => {}
            }
            for (v, upper) in outside {
                probed += 1;
                match probe(id, &row, path.as_deref(), v, int, upper) {
                    Probe::Here(_) => {}
                    Probe::Ok => {
                        failures.push(format!("{id} {} = {v}: accepted, docs/config.md says {}", row.key, row.text))
                    }
                    Probe::Elsewhere(e) => failures.push(format!("{id} {} = {v}: refused elsewhere: {e}", row.key)),
                }
            }
            for (v, upper) in inside {
                probed += 1;
                if let Probe::Here(e) = probe(id, &row, path.as_deref(), v, int, upper) {
                    if range_refusal(&e, &leaf) {
                        failures
                            .push(format!("{id} {} = {v}: refused, docs/config.md says {}: {e}", row.key, row.text));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} of {probed} probes:\n{}", failures.len(), failures.join("\n"));
}

/// Every key path of `v` whose value is a number or a list of numbers, `[[table]]` indices
/// dropped (`unit.cost`).
fn numeric_keys(prefix: &str, v: &toml::de::DeValue, out: &mut BTreeSet<String>) {
    match v {
        toml::de::DeValue::Table(t) => {
            for (k, x) in t.iter() {
                let p = if prefix.is_empty() { k.get_ref().to_string() } else { format!("{prefix}.{}", k.get_ref()) };
                numeric_keys(&p, x.get_ref(), out);
            }
        }
        toml::de::DeValue::Array(a) => {
            if a.iter().any(|x| is_number(x.get_ref())) {
                out.insert(prefix.to_string());
            }
            for x in a.iter().filter(|x| matches!(x.get_ref(), toml::de::DeValue::Table(_))) {
                numeric_keys(prefix, x.get_ref(), out);
            }
        }
        v if is_number(v) => {
            out.insert(prefix.to_string());
        }
        _ => {}
    }
}

#[test]
fn every_numeric_key_of_every_shipped_config_has_a_documented_range() {
    let rows = rows();
    let mut missing = Vec::new();
    for id in ALL {
        let src = shipped(id);
        let doc = toml::de::DeTable::parse(&src.text).unwrap();
        let mut keys = BTreeSet::new();
        numeric_keys("", &toml::de::DeValue::Table(doc.into_inner()), &mut keys);
        assert!(keys.len() > 20, "{id}: {keys:?}");
        // Keys with a rule of their own instead of a range: cross-key bounds (see docs/config.md).
        let relational = ["skirmish.deploy_depth", "skirmish.gap"];
        for k in keys.iter().filter(|k| !relational.contains(&k.as_str())) {
            if !rows.iter().any(|r| &r.key == k && r.rulesets.contains(&id)) {
                missing.push(format!("{id}: {k}"));
            }
        }
    }
    assert!(missing.is_empty(), "numeric keys without a docs/config.md range:\n{}", missing.join("\n"));
}

#[test]
fn documented_ranges_parse() {
    assert_eq!(parse_range("1 to 10000"), (1.0, 10000.0, Ends::Both, false));
    assert_eq!(parse_range("more than 0 and at most 200 in"), (0.0, 200.0, Ends::Top, false));
    assert_eq!(parse_range("in (0, 0.5)"), (0.0, 0.5, Ends::Neither, false));
    assert_eq!(parse_range("in [0, 1)"), (0.0, 1.0, Ends::Bottom, false));
    assert_eq!(parse_range("each an integer from 0 to 10"), (0.0, 10.0, Ends::Both, true));
    assert_eq!(parse_range("an integer from -5 to 20"), (-5.0, 20.0, Ends::Both, false));
    let (_, hi, ends, _) = parse_range("at most 50 (at least `cover_min`)");
    assert_eq!((hi, ends), (50.0, Ends::Upper));
}
