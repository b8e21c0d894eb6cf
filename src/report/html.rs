//! The pages: `report.html` per ruleset, `index.html` over the rulesets, and `check --html`'s
//! balance-change page, written from the same analysis as the Markdown through minijinja
//! templates (`src/report/templates/`, compiled into the binary with `include_str!`).
//!
//! Why pages as well as Markdown: a designer wants the verdict first and the detail on demand —
//! sorting, filtering, a cell's interval on hover, one unit's matchups and curves at a click.
//! Each page is **self-contained**: the stylesheet, the script, the data (one JSON object the
//! script draws the charts from) and the replay picture are inline, nothing is fetched, so the
//! page opens the same from a file system, a CI artifact or a mail attachment. The tables and
//! heatmaps are plain HTML written here, so the numbers read without the script too (and print).
//!
//! Colours keep one meaning on every page and chart (see `page.css`): the viridis scale from
//! purple (worse than even: loses, too expensive) through teal (even, fair) to yellow (better:
//! wins, too cheap); blue and red only for the two sides of a replay.

use std::sync::OnceLock;

use minijinja::{Environment, Value, context};
use serde::Serialize;
use serde_json::{Value as Json, json};

use super::format::{cost, number, thousands, unit_label_for};
use super::verdict as text;
use crate::analysis::verdict::{UnitVerdict, Verdict, verdicts};
use crate::analysis::{Matrix, RulesetAnalysis};

const CSS: &str = include_str!("templates/page.css");
const JS: &str = include_str!("templates/page.js");

/// The template environment, built once: every template the pages use, by file name.
fn env() -> &'static Environment<'static> {
    static ENV: OnceLock<Environment<'static>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Environment::new();
        for (name, source) in [
            ("base.html", include_str!("templates/base.html")),
            ("macros.html", include_str!("templates/macros.html")),
            ("report.html", include_str!("templates/report.html")),
            ("index.html", include_str!("templates/index.html")),
            ("check.html", include_str!("templates/check.html")),
        ] {
            env.add_template(name, source).expect("the page templates parse (checked by the tests)");
        }
        env
    })
}

/// A serde value for a template context.
fn v<T: Serialize>(x: &T) -> Value {
    Value::from(minijinja::value::Serde(x))
}

fn render(name: &str, ctx: Value) -> anyhow::Result<String> {
    let t = env().get_template(name)?;
    Ok(t.render(ctx)?)
}

/// JSON for an inline `<script type="application/json">`: `</` escaped so no string in it can
/// close the script element.
fn script_json(v: &Json) -> String {
    serde_json::to_string(v).expect("a JSON value serialises").replace("</", "<\\/")
}

/// Markdown to HTML (tables on), with images turned into links to the files: the page stays
/// self-contained and its own charts stand for them.
pub fn markdown_html(md: &str) -> String {
    use pulldown_cmark::{Options, Parser, html};
    let md = md.replace("![", "[Chart: ");
    let mut out = String::new();
    html::push_html(&mut out, Parser::new_ext(&md, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH));
    out.replace("<table>", "<div class=\"table-wrap\"><table class=\"sortable\">").replace("</table>", "</table></div>")
}

// ---------------------------------------------------------------------------------------
// The ruleset page

/// One verdict table row, every cell's text and sort key worked out.
#[derive(Serialize)]
struct Row {
    id: String,
    name: String,
    unit: bool,
    cost: f64,
    cost_text: String,
    verdict_id: &'static str,
    verdict_label: &'static str,
    /// Sort order of the verdict column: too cheap, depends, fair, too expensive.
    verdict_rank: u8,
    suggested_text: String,
    suggested_from: String,
    suggested_sort: f64,
    line: String,
    duel_text: String,
    duel_sort: f64,
    play_text: String,
    play_sort: f64,
    lanchester_text: String,
    lanchester_sort: f64,
    /// The readings a call of the unit flips under, `key = value, ...` (empty: none).
    readings: String,
}

fn row(v: &UnitVerdict) -> Row {
    Row {
        id: v.id.clone(),
        name: v.name.clone(),
        unit: v.item == "unit",
        cost: v.cost,
        cost_text: cost(v.cost),
        verdict_id: v.verdict.id(),
        verdict_label: v.verdict.label(),
        verdict_rank: match v.verdict {
            Verdict::TooCheap => 0,
            Verdict::DependsOnGame => 1,
            Verdict::Fair => 2,
            Verdict::TooExpensive => 3,
        },
        suggested_text: unbroken_numbers(&text::suggested_text(v, false)),
        suggested_from: v.suggested.as_ref().map_or(String::new(), |s| s.from.clone()),
        suggested_sort: v.suggested.as_ref().map_or(-1.0, |s| s.value),
        line: v.line.clone(),
        readings: v.readings.join(", "),
        duel_text: text::duel_text(v),
        duel_sort: v.duels().map_or(-1.0, |e| e.value.value),
        play_text: text::play_text(v),
        play_sort: v.play.as_ref().map_or(-1.0, |p| p.worst),
        lanchester_text: text::lanchester_text(v),
        lanchester_sort: v.lanchester.unwrap_or(-1.0),
    }
}

/// The viridis colour at `t` in [0, 1] (11 stops, linear in between), as `#rrggbb`, and the
/// text colour that reads on it.
pub fn viridis(t: f64) -> (String, &'static str) {
    let (r, g, b) = crate::plot::viridis(t);
    let lum = 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    (format!("#{r:02x}{g:02x}{b:02x}"), if lum > 0.179 { "#111111" } else { "#ffffff" })
}

fn lin(c: u8) -> f64 {
    let c = c as f64 / 255.0;
    if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
}

/// A score's heatmap colour: distances from 0.5 stretched (`|2d|^0.6`) as the PNG heatmaps do,
/// so the 30–70% that balance lives in is not all one teal.
pub fn score_colour(score: f64) -> (String, &'static str) {
    let d = if score.is_finite() { score.clamp(0.0, 1.0) - 0.5 } else { 0.0 };
    viridis(0.5 + 0.5 * d.signum() * (2.0 * d.abs()).powf(0.6))
}

#[derive(Serialize)]
struct Cell {
    text: String,
    bg: String,
    fg: &'static str,
    tip: String,
}

#[derive(Serialize)]
struct HeatRow {
    id: String,
    label: String,
    cells: Vec<Cell>,
}

#[derive(Serialize)]
struct Heatmap {
    key: &'static str,
    title: String,
    note: String,
    csv: &'static str,
    png: &'static str,
    labels: Vec<String>,
    rows: Vec<HeatRow>,
}

fn matrix_heatmap(a: &RulesetAnalysis, m: &Matrix, key: &'static str, csv: &'static str, png: &'static str) -> Heatmap {
    let name = |id: &str| super::format::unit_name(a, id).to_string();
    let rows = m
        .units
        .iter()
        .zip(&m.cells)
        .map(|(rid, cells)| HeatRow {
            id: rid.clone(),
            label: unit_label_for(a, rid),
            cells: cells
                .iter()
                .zip(&m.units)
                .map(|(c, cid)| {
                    let (bg, fg) = score_colour(c.a_score.value);
                    let how = if c.method == crate::analysis::optimal_play::OPTIMAL_METHOD {
                        "exact, optimal play".to_string()
                    } else if c.method == "exact" {
                        "exact".to_string()
                    } else {
                        format!("{} trials", thousands(c.trials))
                    };
                    Cell {
                        text: format!("{:.0}", 100.0 * c.a_score.value),
                        bg,
                        fg,
                        tip: format!(
                            "{} (row) v {}: score {}, {how}; wins {:.1}%, draws {:.1}%",
                            name(rid),
                            name(cid),
                            super::format::pct(&c.a_score),
                            100.0 * c.a_wins.value,
                            100.0 * c.draws.value
                        ),
                    }
                })
                .collect(),
        })
        .collect();
    Heatmap {
        key,
        title: m.title.clone(),
        note: "Each cell: the row unit's score against the column unit (win 1, draw ½), in percent.".to_string(),
        csv,
        png,
        labels: m.units.iter().map(|id| name(id)).collect(),
        rows,
    }
}

/// The scripted tactic's 1v1 heatmap ("Does the tactic play well?"), each cell's tip with the
/// optimal-play score beside it; `None` when no pair was solved.
fn scripted_heatmap(a: &RulesetAnalysis) -> Option<Heatmap> {
    let o = a.optimal_play.as_ref().filter(|o| !o.pairs.is_empty())?;
    let name = |id: &str| super::format::unit_name(a, id).to_string();
    let m = o.matrix(false);
    let optimal = o.matrix(true);
    let rows = o
        .units
        .iter()
        .enumerate()
        .map(|(i, rid)| HeatRow {
            id: rid.clone(),
            label: unit_label_for(a, rid),
            cells: o
                .units
                .iter()
                .enumerate()
                .map(|(j, cid)| match (m[i][j], optimal[i][j]) {
                    (Some(s), op) => {
                        let (bg, fg) = score_colour(s);
                        let op = op.map_or(String::new(), |x| format!("; optimal play {:.1}%", 100.0 * x));
                        Cell {
                            text: format!("{:.0}", 100.0 * s),
                            bg,
                            fg,
                            tip: format!(
                                "{} (row) v {}: score {:.1}% with the scripted tactic (exact){op}",
                                name(rid),
                                name(cid),
                                100.0 * s
                            ),
                        }
                    }
                    (None, _) => Cell {
                        text: String::new(),
                        bg: String::new(),
                        fg: "",
                        tip: format!("{} v {}: no game for this pair", name(rid), name(cid)),
                    },
                })
                .collect(),
        })
        .collect();
    Some(Heatmap {
        key: "scripted",
        title: format!("1v1 with the scripted tactic, {} {} apart", number(o.distance, 2), a.distance_unit),
        note: "Exact, both sides play the scripted tactic; hatched: no game for the pair. Hover a cell for the optimal-play score.".to_string(),
        csv: "optimal_play.csv",
        png: "heatmap_scripted.png",
        labels: o.units.iter().map(|id| name(id)).collect(),
        rows,
    })
}

/// The script's data: units, efficiency, verdicts, matrices with intervals and trials, the
/// sweep, the fair-cost searches and value in army per game.
fn page_data(a: &RulesetAnalysis, all: &[UnitVerdict]) -> Json {
    let e3 = |e: &crate::stats::Estimate| json!([e.value, e.lo, e.hi]);
    let matrix = |key: &str, m: &Matrix| {
        json!({
            "key": key,
            "title": m.title,
            "units": m.units,
            "cells": m.cells.iter().map(|row| row.iter().map(|c| json!({
                "v": c.a_score.value, "lo": c.a_score.lo, "hi": c.a_score.hi,
                "n": c.trials, "exact": c.method != "monte-carlo",
            })).collect::<Vec<_>>()).collect::<Vec<_>>(),
        })
    };
    let verdict_of = |v: &UnitVerdict| {
        json!({
            "verdict": v.verdict.id(),
            "label": v.verdict.label(),
            "line": v.line,
            "suggested_text": text::suggested_text(v, true),
            "evidence": v.evidence.iter().map(|e| json!({
                "game": e.game, "scale": e.scale, "v": e.value.value, "lo": e.value.lo, "hi": e.value.hi,
                "call": e.call, "price": e.price,
            })).collect::<Vec<_>>(),
            "lanchester": v.lanchester,
            "play": v.play,
        })
    };
    let sweep = a.distance_sweep.as_ref().map(|s| {
        let eff: serde_json::Map<String, Json> = s
            .units
            .iter()
            .zip(&s.efficiency)
            .map(|(id, row)| (id.clone(), Json::Array(row.iter().map(e3).collect())))
            .collect();
        json!({ "distances": s.distances, "unit": a.distance_unit, "main": a.distance, "eff": eff })
    });
    let fair = a.fair_costs.as_ref().map(|f| {
        let rows: serde_json::Map<String, Json> = f
            .rows
            .iter()
            .map(|r| {
                (
                    r.unit.id.clone(),
                    json!({
                        "fair": r.fair_cost.as_ref().map(e3),
                        "lanchester": r.lanchester,
                        "search": r.search,
                    }),
                )
            })
            .collect();
        json!({ "trials": f.trials, "seed": f.seed, "rows": rows })
    });
    let value = value_games(a).map(|(games, runs, tactic)| {
        let first = runs[0];
        let items: Vec<Json> = first
            .value_in_army
            .iter()
            .map(|v| {
                let per_game: Vec<Json> = runs
                    .iter()
                    .map(|r| {
                        r.value_in_army
                            .iter()
                            .find(|x| x.name == v.name && x.item == v.item)
                            .map_or(Json::Null, |x| e3(&x.log_odds_per_100_points_vs_field))
                    })
                    .collect();
                json!({ "name": v.name, "item": v.item, "cost": v.cost, "per_game": per_game })
            })
            .collect();
        json!({ "games": games, "tactic": tactic, "items": items })
    });
    let scripted = a
        .optimal_play
        .as_ref()
        .filter(|o| !o.pairs.is_empty())
        .map(|o| json!({ "units": o.units, "score": o.matrix(false) }));
    json!({
        "ruleset": a.ruleset,
        "title": a.title,
        "units": a.units.iter().map(|u| json!({"id": u.id, "name": u.name, "cost": u.cost, "kind": u.kind})).collect::<Vec<_>>(),
        "efficiency": a.efficiency.iter().map(|r| json!({
            "id": r.unit.id, "name": r.unit.name, "cost": r.unit.cost,
            "v": r.efficiency.value, "lo": r.efficiency.lo, "hi": r.efficiency.hi,
        })).collect::<Vec<_>>(),
        "verdicts": all.iter().filter(|v| v.item == "unit").map(|v| (v.id.clone(), verdict_of(v))).collect::<serde_json::Map<_, _>>(),
        "matrices": [matrix("points", &a.matrix_points), matrix("duel", &a.matrix_1v1)],
        "scripted": scripted,
        "sweep": sweep,
        "fair": fair,
        "value": value,
    })
}

/// The skirmish games with value in army: their labels, their runs (basic game under the
/// played one first: the default tactic, or the tactic metagame's equilibrium, its tactic or
/// its mix) and its name.
fn value_games(
    a: &RulesetAnalysis,
) -> Option<(Vec<String>, Vec<&crate::analysis::skirmish::SkirmishAnalysis>, String)> {
    let sk = a.skirmish.as_ref()?;
    let basic = sk.runs.first().filter(|r| !r.value_in_army.is_empty())?;
    let runs: Vec<_> =
        std::iter::once(basic).chain(sk.missions.iter().filter(|r| !r.value_in_army.is_empty())).collect();
    Some((runs.iter().map(|r| sk.mission_label(r)).collect(), runs, basic.tactic.clone()))
}

/// One collapsible section of the page: a `## ` section of `report.md`.
#[derive(Serialize)]
struct Detail {
    id: String,
    title: String,
    html: String,
}

/// `report.md` cut at its `## ` headings, the title line and the verdict left out (the page
/// shows them above), each part rendered to HTML.
fn details(md: &str) -> Vec<Detail> {
    let mut parts: Vec<(String, String)> = Vec::new();
    for line in md.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            parts.push((h.to_string(), String::new()));
        } else if let Some((_, body)) = parts.last_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    parts
        .into_iter()
        .filter(|(t, _)| t != "Verdict")
        .enumerate()
        .map(|(k, (title, body))| {
            // The warnings' count shows on the closed section.
            let title = if title == "Warnings" {
                format!("Warnings ({})", body.lines().filter(|l| l.starts_with("- ")).count())
            } else {
                title
            };
            let slug: String = title
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' })
                .collect::<String>()
                .split('-')
                .filter(|w| !w.is_empty())
                .collect::<Vec<_>>()
                .join("-");
            Detail { id: format!("s{}-{slug}", k + 1), title, html: markdown_html(&body) }
        })
        .collect()
}

#[derive(Serialize)]
struct Replay {
    title: String,
    file: String,
    svg: String,
    alt: String,
    legend: String,
}

fn replay(a: &RulesetAnalysis) -> Option<Replay> {
    let sk = a.skirmish.as_ref()?;
    let run = sk.runs.first()?;
    let svg = run.replay_svg.clone()?;
    let file = run.replay.clone()?;
    Some(Replay {
        title: format!("{}: one seeded game (seed {})", sk.text.game, run.seed),
        file,
        alt: format!(
            "Replay of one seeded {} game on the table seen from above: each unit's path from where it entered to where \
             it ended or was destroyed; the armies and the result are written under the picture.",
            sk.text.game.to_lowercase()
        ),
        svg,
        legend: "blue: side A, red: side B (the only meaning of blue and red on this page); ○ where a unit entered, ● alive \
                 at the end, ✕ destroyed in game turn tN; the abbreviations are spelled out under the picture."
            .to_string(),
    })
}

/// `report.html` for one ruleset; `md` is its `report.md`.
pub fn ruleset_page(a: &RulesetAnalysis, md: &str) -> anyhow::Result<String> {
    let all = verdicts(a);
    let units: Vec<&UnitVerdict> = all.iter().filter(|v| v.item == "unit").collect();
    let counts: Vec<Json> = [Verdict::TooCheap, Verdict::Fair, Verdict::TooExpensive, Verdict::DependsOnGame]
        .into_iter()
        .map(|v| json!({"id": v.id(), "label": v.label(), "n": units.iter().filter(|u| u.verdict == v).count()}))
        .filter(|c| c["n"] != 0 || c["id"] != "depends-on-the-game")
        .collect();
    let mut heatmaps = vec![
        matrix_heatmap(a, &a.matrix_points, "points", "matrix_points.csv", "heatmap_points.png"),
        matrix_heatmap(a, &a.matrix_1v1, "duel", "matrix_1v1.csv", "heatmap_1v1.png"),
    ];
    heatmaps[0].title = format!("Points-matched matrix: {}", a.matrix_points.title);
    heatmaps[1].title = format!("1v1 matrix: {}", a.matrix_1v1.title);
    heatmaps.extend(scripted_heatmap(a));
    let value = value_games(a).map(|(games, runs, tactic)| {
        let sk = a.skirmish.as_ref().expect("value_games found a skirmish");
        let stem = sk.stem();
        let mut csv = vec![format!("{stem}_value_in_army.csv")];
        if runs.len() > 1 {
            csv.push(format!("{stem}_value_by_mission.csv"));
        }
        json!({
            "tactic": tactic,
            "csv": csv,
            "note": format!(
                "{} random-army games per game ({}), seed {}; one marker shape per game, filled by its call (yellow: too cheap, teal: fair, purple: too expensive).",
                runs[0].games,
                games.join(", "),
                runs[0].seed
            ),
        })
    });
    let rows: Vec<Row> = units.iter().map(|v| row(v)).collect();
    let upgrades: Vec<Row> = all.iter().filter(|v| v.item != "unit").map(row).collect();
    let ctx = context! {
        css => CSS, js => JS,
        version => &a.version, title => &a.title, ruleset => &a.ruleset, seed => a.seed,
        config_path => &a.config_path, config_hash => &a.config_hash,
        lead => text::lead(&units),
        counts => v(&counts),
        units => v(&rows),
        upgrades => v(&upgrades),
        with_play => units.iter().any(|u| u.play.is_some()),
        warnings => a.warnings.len(),
        rule => text::rule(a).iter().map(|p| p.replace("**", "").replace('*', "")).collect::<Vec<_>>(),
        has_fair => a.fair_costs.is_some(),
        has_curve => a.fair_costs.as_ref().is_some_and(|f| f.rows.iter().any(|r| !r.search.is_empty())),
        has_sweep => a.distance_sweep.is_some(),
        heatmaps => v(&heatmaps),
        value => v(&value),
        replay => v(&replay(a)),
        details => v(&details(md)),
        data => script_json(&page_data(a, &all)),
    };
    render("report.html", ctx)
}

// ---------------------------------------------------------------------------------------
// The index and the check page

/// `index.html`: one card per ruleset with its most mispriced units.
pub fn index_page(entries: &[super::IndexEntry], version: &str) -> anyhow::Result<String> {
    let mut sorted: Vec<&super::IndexEntry> = entries.iter().collect();
    sorted.sort_by(|a, b| a.ruleset.cmp(&b.ruleset));
    let cards: Vec<Json> = sorted
        .iter()
        .map(|e| {
            let units: Vec<&UnitVerdict> = e.verdicts.iter().filter(|v| v.item == "unit").collect();
            let counts: Vec<Json> = super::verdict::counts(&units)
                .into_iter()
                .map(|(n, label)| json!({"label": label, "n": n}))
                .collect();
            let mut worst: Vec<&&UnitVerdict> = units.iter().filter(|v| v.mispricing() > 0.0).collect();
            worst.sort_by(|x, y| y.mispricing().total_cmp(&x.mispricing()));
            let worst: Vec<Json> = worst
                .iter()
                .take(3)
                .map(|v| {
                    json!({
                        "name": v.name, "cost": cost(v.cost), "verdict_id": v.verdict.id(), "verdict_label": v.verdict.label(),
                        "suggested": text::suggested_text(v, false),
                        "from": v.suggested.as_ref().map_or(String::new(), |s| s.from.clone()),
                    })
                })
                .collect();
            json!({
                "ruleset": e.ruleset, "title": e.title, "units": e.units, "budget": cost(e.budget),
                "warnings": e.warnings, "counts": counts, "worst": worst,
                "none": if units.is_empty() { "No verdicts recorded: re-run `pointsworth report`." } else { "No unit is mispriced by every method that prices it." },
            })
        })
        .collect();
    render("index.html", context! { css => CSS, js => JS, version => version, cards => v(&cards) })
}

/// The `check --html` page: the balance-change summary `md` (the same Markdown as the pull
/// request comment) under `headline`.
pub fn check_page(md: &str, headline: &str, version: &str) -> anyhow::Result<String> {
    render(
        "check.html",
        // The Markdown's marks as text symbols every font has (no emoji font in a headless browser).
        context! { css => CSS, js => JS, version => version, headline => headline, body => markdown_html(&md.replace('✅', "✔").replace('❌', "✘")) },
    )
}

/// A suggested cost for the page's table with its number and interval kept on one line
/// (no-break spaces: `24.3 [23.7, 25.0]`), so a long cell (`— (a price per game: see the
/// line)`, `15 (keep; fair [12.0, 17.5])`) wraps only between words.
fn unbroken_numbers(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut depth = 0usize;
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        let before_bracket = chars.get(i + 1) == Some(&'[') && i > 0 && chars[i - 1].is_ascii_digit();
        out.push(if c == ' ' && (depth > 0 || before_bracket) { '\u{a0}' } else { c });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::unbroken_numbers;

    #[test]
    fn a_suggested_cost_keeps_its_interval_on_one_line_and_words_wrap() {
        assert_eq!(unbroken_numbers("24.3 [23.7, 25.0]"), "24.3\u{a0}[23.7,\u{a0}25.0]");
        assert_eq!(unbroken_numbers("15 (keep; fair [12.0, 17.5])"), "15 (keep; fair [12.0,\u{a0}17.5])");
        assert_eq!(unbroken_numbers("— (a price per game: see the line)"), "— (a price per game: see the line)");
    }
}
