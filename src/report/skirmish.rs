//! The report's skirmish section, one for every ruleset: value in army as a table and a chart
//! with interval whiskers, per-unit skirmish statistics, and one replay picture, in the words
//! of the ruleset's book ([`crate::rulesets::skirmish::SkirmishText`]).
//!
//! Files (only when the analysis has skirmish results), named after the game (`skirmish`,
//! `mission`): `{game}.json`, `{game}_value_in_army.csv`, `{game}_units.csv`, the value chart
//! `value_in_army.png`/`.svg` (`{game}_value_in_army` for a game not called Skirmish) and
//! `{game}_replay.svg`. All written atomically and deterministically.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::atomic::{persist, temp_path, write_atomic};
use super::charts::{Marker, draw_marker};
use crate::analysis::RulesetAnalysis;
use crate::analysis::skirmish::{SkirmishAnalysis, SkirmishSection, verdict};
use crate::rulesets::skirmish::EQUILIBRIUM_MIX;
use crate::analysis::verdict::{MoreGames, more_games};
use crate::csv_text::CsvText;

/// Chart file stem.
pub const VALUE_CHART: &str = "value_in_army";

/// Writes the skirmish files into `dir`; nothing when the analysis has no skirmish results.
pub fn write_files(a: &RulesetAnalysis, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let Some(sk) = a.skirmish.as_ref().filter(|s| !s.runs.is_empty()) else {
        return Ok(Vec::new());
    };
    let replay = sk.runs[0].replay.clone().unwrap_or_default();
    let mut written = write_runs(a, &sk.runs, dir, &sk.stem(), &replay, &value_chart_stem(sk))?;
    written.extend(write_missions(a, sk, dir)?);
    Ok(written)
}

/// Writes the value-per-mission files when the ruleset plays more than one mission:
/// `{stem}_missions.json` (the missions' runs), `{stem}_value_by_mission.csv` and the chart
/// `{stem}_value_by_mission.png`/`.svg`. Atomically; nothing for one mission.
fn write_missions(a: &RulesetAnalysis, sk: &SkirmishSection, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let runs: Vec<SkirmishAnalysis> = sk.mission_runs().into_iter().cloned().collect();
    if runs.is_empty() {
        return Ok(Vec::new());
    }
    let stem = sk.stem();
    let mut written = Vec::new();
    let mut json = serde_json::to_vec_pretty(&sk.missions)?;
    json.push(b'\n');
    for (name, bytes) in [
        (format!("{stem}_missions.json"), json),
        (format!("{stem}_value_by_mission.csv"), mission_csv(sk, &runs).into_bytes()),
    ] {
        let path = dir.join(name);
        write_atomic(&path, &bytes).with_context(|| format!("writing {}", path.display()))?;
        written.push(path);
    }
    let labels: Vec<String> = runs.iter().map(|r| sk.mission_label(r)).collect();
    let chart = ValueChart {
        title: format!("{}: value in army per mission", a.title),
        subtitle: format!(
            "win log-odds per 100 points minus the field mean (0 = worth its cost), 95% intervals; {} random-army games per mission, {}",
            runs[0].games, tactic_words(&runs[0].tactic).replace('`', "")
        ),
        legend: labels,
    };
    written.extend(write_value_chart(&chart, &runs, dir, &format!("{stem}_value_by_mission"))?);
    Ok(written)
}

/// A price's value and interval bounds for a CSV row: empty bounds when the interval is
/// unbounded, all three empty when the games identify no price.
fn price_cells(p: Option<&crate::analysis::skirmish::Price>) -> (String, String, String) {
    match p {
        Some(p) => match p.interval {
            Some([lo, hi]) => (format!("{:.4}", p.value), format!("{lo:.4}"), format!("{hi:.4}")),
            None => (format!("{:.4}", p.value), String::new(), String::new()),
        },
        None => (String::new(), String::new(), String::new()),
    }
}

fn mission_csv(sk: &SkirmishSection, runs: &[SkirmishAnalysis]) -> String {
    let mut t = CsvText::new([
        "mission",
        "points",
        "item",
        "kind",
        "cost",
        "log_odds_per_100_points_vs_field",
        "vs_field_lo",
        "vs_field_hi",
        "verdict",
        "price",
        "price_lo",
        "price_hi",
    ]);
    for r in runs {
        for v in &r.value_in_army {
            let e = &v.log_odds_per_100_points_vs_field;
            let (price, plo, phi) = price_cells(v.price.as_ref());
            t.row([
                sk.mission_label(r).to_string(),
                r.points.to_string(),
                v.name.to_string(),
                v.item.to_string(),
                v.cost.to_string(),
                format!("{:.4}", e.value),
                format!("{:.4}", e.lo),
                format!("{:.4}", e.hi),
                verdict(e).to_string(),
                price,
                plo,
                phi,
            ]);
        }
    }
    t.finish()
}

/// Writes one ruleset's skirmish runs (the first is the played one: the metagame's equilibrium,
/// its tactic or its mix, else the default tactic) into `dir`: `{stem}.json`, `{stem}_value_in_army.csv`,
/// `{stem}_units.csv`, the value-in-army chart `{chart}.png`/`.svg` (when there are values) and
/// the first run's replay picture as `replay` (when it has one). Nothing for no runs. Every
/// file is written atomically.
fn write_runs(
    a: &RulesetAnalysis,
    runs: &[SkirmishAnalysis],
    dir: &Path,
    stem: &str,
    replay: &str,
    chart: &str,
) -> anyhow::Result<Vec<PathBuf>> {
    if runs.is_empty() {
        return Ok(Vec::new());
    }
    let mut written = Vec::new();
    let mut put = |name: &str, bytes: &[u8]| -> anyhow::Result<()> {
        let path = dir.join(name);
        write_atomic(&path, bytes).with_context(|| format!("writing {}", path.display()))?;
        written.push(path);
        Ok(())
    };
    let mut json = serde_json::to_vec_pretty(runs)?;
    json.push(b'\n');
    put(&format!("{stem}.json"), &json)?;
    put(&format!("{stem}_value_in_army.csv"), value_csv(runs).as_bytes())?;
    put(&format!("{stem}_units.csv"), units_csv(runs).as_bytes())?;
    if let Some(svg) = &runs[0].replay_svg {
        put(replay, svg.as_bytes())?;
    }
    let value_chart = ValueChart {
        title: format!("{}: value in army", a.title),
        subtitle: format!(
            "win log-odds per 100 points minus the field mean (0 = worth its cost, above too cheap), 95% intervals; {} random-army skirmishes per tactic",
            runs[0].games
        ),
        legend: runs.iter().map(|r| tactic_words(&r.tactic).replace('`', "")).collect(),
    };
    written.extend(write_value_chart(&value_chart, runs, dir, chart)?);
    Ok(written)
}

fn value_csv(runs: &[SkirmishAnalysis]) -> String {
    let mut t = CsvText::new([
        "tactic",
        "item",
        "kind",
        "cost",
        "log_odds",
        "log_odds_se",
        "log_odds_per_100_points_vs_field",
        "vs_field_lo",
        "vs_field_hi",
        "verdict",
        "price",
        "price_lo",
        "price_hi",
    ]);
    for r in runs {
        for v in &r.value_in_army {
            let e = &v.log_odds_per_100_points_vs_field;
            let (price, plo, phi) = price_cells(v.price.as_ref());
            t.row([
                r.tactic.to_string(),
                v.name.to_string(),
                v.item.to_string(),
                v.cost.to_string(),
                format!("{:.5}", v.log_odds),
                format!("{:.5}", v.log_odds_se),
                format!("{:.4}", e.value),
                format!("{:.4}", e.lo),
                format!("{:.4}", e.hi),
                verdict(e).to_string(),
                price,
                plo,
                phi,
            ]);
        }
    }
    t.finish()
}

fn units_csv(runs: &[SkirmishAnalysis]) -> String {
    let mut t = CsvText::new([
        "tactic",
        "unit",
        "cost",
        "fielded",
        "kills_per_unit",
        "survival",
        "survival_lo",
        "survival_hi",
        "points_killed_per_point",
    ]);
    for r in runs {
        for u in &r.units {
            t.row([
                r.tactic.to_string(),
                u.name.to_string(),
                u.cost.to_string(),
                u.fielded.to_string(),
                format!("{:.4}", u.kills_per_unit),
                format!("{:.4}", u.survival.value),
                format!("{:.4}", u.survival.lo),
                format!("{:.4}", u.survival.hi),
                format!("{:.4}", u.points_killed_per_point),
            ]);
        }
    }
    t.finish()
}

use super::format::pct_interval as pct;

/// The Markdown section; empty when the analysis has no skirmish results.
pub fn section(a: &RulesetAnalysis) -> String {
    let Some(sk) = a.skirmish.as_ref().filter(|s| !s.runs.is_empty()) else {
        return String::new();
    };
    let t = &sk.text;
    let game = &t.game;
    let lower = game.to_lowercase();
    let item = &t.item;
    let d = &sk.runs[0];
    let default = sk.tactics.first().map_or("default", |x| x.0.as_str());
    let upgrades = d.value_in_army.iter().any(|v| v.item == "upgrade");
    let mut o = String::new();
    let _ = writeln!(o, "## {game}: value in army\n");
    let field = d
        .field_log_odds_per_100_points
        .map_or_else(String::new, |f| format!(" ({}: {:.2} [{:.2}, {:.2}])", tactic_words(default), f.value, f.lo, f.hi));
    let _ = writeln!(
        o,
        "{}-point {game} games between **random legal armies**: {}. **Value in army** comes from a logistic \
         regression of the result (win 1, draw ½, loss 0) on each {item}'s count difference (side A − side B): \
         its coefficient is the win log-odds one more of the {item} adds. The table gives that **per 100 points \
         of the {item}, minus the field mean per 100 points**, the mean over unit types of what 100 points of \
         them add{field}. **0 means worth its cost; above 0 the {item} wins more games than its cost suggests \
         (too cheap), below 0 fewer (too expensive).** Each cell ends with the verdict of its interval: *too \
         cheap* when the whole interval lies above 0, *too expensive* when below, *fair* when it contains 0. \
         Intervals are 95%, from the regression's sandwich covariance, which allows for draws scored ½ \
         (Pearson dispersion {:.2}; 1 would be 0/1 results). **{game} price** is the {item}'s log-odds divided \
         by the field mean per point ({}): what it would cost at the field mean, the {lower}'s \
         own fair price, with Fieller's 95% interval. Armies are built to nearly equal points, so the field \
         mean itself is weakly determined; where its interval nears 0 the price interval is *unbounded*, \
         while the differences in the value columns stay well determined.{}\n",
        d.points,
        t.setup,
        d.fit_dispersion,
        tactic_words(default),
        if upgrades {
            " For the upgrades, which the duels of \"Suggested costs\" do not play, it is the fair price."
        } else {
            ""
        }
        .to_string()
            + if d.field_log_odds_per_100_points.is_none() && !d.value_in_army.is_empty() {
                " Here every army fields as many units, so the field mean is not identified at all: the value \
                 columns are, the prices are not (—)."
            } else {
                ""
            }
    );
    let _ = writeln!(o, "{} games per tactic, seed {}; win rates with 95% Wilson intervals.\n", d.games, d.seed);
    for (run, (name, what)) in sk.runs.iter().zip(&sk.tactics) {
        let _ = writeln!(
            o,
            "- {} ({what}): A wins {}, B wins {}, draws {}; mean {:.1} {}.",
            tactic_words(name),
            pct(&run.a_wins),
            pct(&run.b_wins),
            pct(&run.draws),
            run.mean_turns,
            t.turns
        );
    }
    let chart = value_chart_stem(sk);
    let _ = writeln!(o, "\n![value in army]({chart}.png)\n");
    let _ = write!(o, "| {item} | cost |");
    for (name, _) in &sk.tactics {
        let _ = write!(o, " log-odds per 100 pts − field mean, `{name}` [95% CI] |");
    }
    let _ = writeln!(o, " {lower} price [95% CI] |");
    let _ = writeln!(o, "|---|---:|{}---|", "---|".repeat(sk.tactics.len()));
    for v in &d.value_in_army {
        let name = if t.item_kind { format!("{} ({})", v.name, v.item) } else { v.name.clone() };
        let _ = write!(o, "| {} | {} |", name, v.cost);
        for run in &sk.runs {
            match run.value_in_army.iter().find(|x| x.name == v.name) {
                Some(x) => {
                    let e = &x.log_odds_per_100_points_vs_field;
                    let _ = write!(o, " {:+.2} [{:+.2}, {:+.2}] {} |", e.value, e.lo, e.hi, verdict(e));
                }
                None => o.push_str(" — |"),
            }
        }
        let _ = writeln!(o, " {} |", v.price_text());
    }
    if d.value_in_army.is_empty() {
        let why = if d.value_unidentified.is_empty() { "too few games for the regression" } else { "not identified" };
        let _ = writeln!(o, "| ({why}) |{}", " |".repeat(sk.tactics.len() + 2));
    }
    if let Some(note) = unbounded_note(d) {
        let _ = writeln!(o, "\n{note}");
    }
    if let Some(note) = unidentified_note(d) {
        let _ = writeln!(o, "\n{note}");
    }
    if !d.fit_converged {
        o.push_str("\n**Warning:** the regression did not converge; treat the values as rough.\n");
    }
    o.push_str(&missions_section(sk));
    let _ = writeln!(o, "\n### {game}: unit statistics ({})\n", tactic_words(default));
    let _ = writeln!(
        o,
        "Survival intervals resample whole games (a cluster-robust variance by game): units of one game \
         share its dice and its result, so they are not independent draws.\n"
    );
    let unit = if t.item_kind { "unit" } else { item.as_str() };
    let _ = writeln!(
        o,
        "| {unit} | cost | fielded | enemy units destroyed per unit | survival [95% CI] | points destroyed per point |\n\
         |---|---:|---:|---:|---|---:|"
    );
    for u in &d.units {
        let _ = writeln!(
            o,
            "| {} | {} | {} | {:.2} | {} | {:.2} |",
            u.name,
            u.cost,
            u.fielded,
            u.kills_per_unit,
            pct(&u.survival),
            u.points_killed_per_point
        );
    }
    match &d.replay {
        Some(replay) if d.replay_svg.is_some() => {
            let _ = writeln!(o, "\n### {game}: one seeded game\n\n{}\n", t.replay_legend);
            let _ = writeln!(o, "![{lower} replay]({replay})\n");
        }
        _ => o.push('\n'),
    }
    o
}

/// A note for a run whose items' values the games do not identify
/// ([`SkirmishAnalysis::value_unidentified`]): which, and why; `None` when there are none.
pub fn unidentified_note(run: &SkirmishAnalysis) -> Option<String> {
    (!run.value_unidentified.is_empty()).then(|| {
        format!(
            "**Not identified:** {}. Every army in these games fields as many units, so the games measure only \
             differences between the units' values per model; per point those differences depend on a common shift \
             the games cannot see unless the units cost the same. Give them equal costs, or let army sizes vary, \
             to measure them.",
            run.value_unidentified.join(", ")
        )
    })
}

/// A sentence for a run whose prices are partly unbounded: how many, and about how many games
/// would bound them ([`more_games`]); or, where the games do not identify the field mean (no
/// price at all), why; `None` when every price is bounded.
pub fn unbounded_note(run: &SkirmishAnalysis) -> Option<String> {
    if !run.value_in_army.is_empty() && run.value_in_army.iter().all(|v| v.price.is_none()) {
        return Some(
            "**No price** (—): in these games every army fields as many units at the same total cost, so a common \
             shift of every unit's coefficient fits them equally well and the field mean is not identified; the \
             value columns, each a difference from the field mean, are."
                .to_string(),
        );
    }
    let n = run.value_in_army.iter().filter(|v| v.price.is_some_and(|p| p.interval.is_none())).count();
    if n == 0 {
        return None;
    }
    let of = run.value_in_army.len();
    let more = match more_games(run) {
        Some(MoreGames::Bound(g)) => format!(
            "about {} games would bound them (`--set skirmish.report_trials={g}` for the report, `--trials {g}` for \
             `pointsworth skirmish`)",
            crate::format::thousands(g)
        ),
        Some(MoreGames::PastRunLimit) => format!(
            "the field mean is too near 0 for more games alone to bound them within the {}-game limit of a run",
            crate::format::thousands(crate::rulesets::skirmish::MAX_TRIALS)
        ),
        Some(MoreGames::FieldMeanNotAboveZero) | None => {
            "the field mean is not above 0, so more games alone may not bound them".to_string()
        }
    };
    Some(format!(
        "**{n} of {of} prices are unbounded** at {} games: the field mean's interval reaches near 0, so no finite \
         price is excluded; {more}. The value columns are well determined already.",
        crate::format::thousands(run.games)
    ))
}

/// "Value per mission": the basic game and every other mission of the ruleset side by side,
/// random armies under the played tactic, with the items whose verdict differs between
/// missions named. Empty for a ruleset with one mission.
fn missions_section(sk: &SkirmishSection) -> String {
    let runs = sk.mission_runs();
    if runs.is_empty() {
        return String::new();
    }
    let t = &sk.text;
    let (game, item) = (&t.game, &t.item);
    let stem = sk.stem();
    let mut o = String::new();
    let _ = writeln!(o, "\n### {game}: value per mission\n");
    let _ = writeln!(
        o,
        "The book's other kinds of game reward what a last-side-standing game does not (speed, holding \
         ground, numbers), so a cost can be fair in one kind of game and not in another. Each mission is \
         played as {} games between random legal armies at the mission's points under the `{}` tactic, with \
         the same regression as above (a mission's field mean is its own). A verdict that differs between \
         missions is named in the warnings.\n",
        runs[0].games, runs[0].tactic
    );
    for r in &runs {
        let name = sk.mission_label(r);
        let what = if r.mission.is_empty() { "the basic game".to_string() } else { format!("{} points", r.points) };
        let _ = writeln!(
            o,
            "- `{name}` ({what}): A wins {}, B wins {}, draws {}; mean {:.1} {}.",
            pct(&r.a_wins),
            pct(&r.b_wins),
            pct(&r.draws),
            r.mean_turns,
            t.turns
        );
    }
    let _ = writeln!(o, "\n![value per mission]({stem}_value_by_mission.png)\n");
    let _ = write!(o, "| {item} | cost |");
    for r in &runs {
        let _ = write!(o, " `{}`: log-odds per 100 pts − field mean [95% CI] |", sk.mission_label(r));
    }
    let _ = writeln!(o, "\n|---|---:|{}", "---|".repeat(runs.len()));
    for v in &runs[0].value_in_army {
        let name = if t.item_kind { format!("{} ({})", v.name, v.item) } else { v.name.clone() };
        let _ = write!(o, "| {} | {} |", name, v.cost);
        for r in &runs {
            match r.value_in_army.iter().find(|x| x.name == v.name) {
                Some(x) => {
                    let e = &x.log_odds_per_100_points_vs_field;
                    let _ = write!(o, " {:+.2} [{:+.2}, {:+.2}] {} |", e.value, e.lo, e.hi, verdict(e));
                }
                None => o.push_str(" — |"),
            }
        }
        o.push('\n');
    }
    if let Some(w) = crate::analysis::skirmish::mission_verdict_warning(sk) {
        let _ = writeln!(o, "\n**Warning:** {}", w.message);
    }
    o
}

/// The value-in-army chart's file stem: `value_in_army` for a game called Skirmish,
/// `{game}_value_in_army` otherwise (`mission_value_in_army`).
fn value_chart_stem(sk: &SkirmishSection) -> String {
    match sk.stem().as_str() {
        "skirmish" => VALUE_CHART.to_string(),
        stem => format!("{stem}_{VALUE_CHART}"),
    }
}

// ---------------------------------------------------------------------------------------
// Chart

const FAMILY: &str = "sans-serif";
const ROW: i32 = 34;
const WIDTH: u32 = 1100;

fn text_style(size: f64, color: RGBColor, h: HPos) -> TextStyle<'static> {
    TextStyle { font: (FAMILY, size).into_font(), color: color.to_backend_color(), pos: Pos::new(h, VPos::Center) }
}

/// A value-in-army chart's words: its title, subtitle and one legend entry per run drawn.
struct ValueChart {
    title: String,
    subtitle: String,
    legend: Vec<String>,
}

/// Marker shapes of the runs drawn, in order (at most this many runs are drawn): colour is the
/// call (yellow too cheap, teal fair, purple too expensive), as on every chart, so the runs
/// (tactics, missions) differ by shape.
const RUN_SHAPES: [Marker; 5] = [Marker::Circle, Marker::Diamond, Marker::Square, Marker::TriangleUp, Marker::TriangleDown];

/// What the markers' fill means, after the run legend.
const FILL_NOTE: &str = "fill: yellow too cheap · teal fair · purple too expensive";

/// The extra height, in pixels, of a value chart whose run legend and [`FILL_NOTE`] do not
/// fit on one line of its width (the note then takes a line of its own): 0 or 24.
fn legend_extra(a: &ValueChart, runs: usize) -> i32 {
    let shown = runs.min(RUN_SHAPES.len());
    let legend: i32 = a.legend.iter().take(shown).map(|l| 14 + crate::plot::text_width(l, 17.0) + 28).sum();
    if 24 + legend + crate::plot::text_width(FILL_NOTE, 17.0) <= WIDTH as i32 - 8 { 0 } else { 24 }
}

/// The subtitle's lines, wrapped to the chart's width.
fn subtitle_lines(a: &ValueChart) -> Vec<String> {
    crate::plot::wrap(&a.subtitle, 17.0, WIDTH as i32 - 48)
}

fn write_value_chart(
    a: &ValueChart,
    runs: &[SkirmishAnalysis],
    dir: &Path,
    stem: &str,
) -> anyhow::Result<Vec<PathBuf>> {
    if runs[0].value_in_army.is_empty() {
        return Ok(Vec::new());
    }
    super::charts::ensure_fonts()?;
    let n = runs[0].value_in_army.len() as i32;
    let extra = 22 * (subtitle_lines(a).len() as i32 - 1);
    let size = (WIDTH, (150 + extra + ROW * n + 60 + legend_extra(a, runs.len())) as u32);
    let svg_path = dir.join(format!("{stem}.svg"));
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        draw_value_chart(&root, a, runs, size)?;
        root.present()?;
    }
    write_atomic(&svg_path, svg.as_bytes())?;
    let png_path = dir.join(format!("{stem}.png"));
    let tmp = temp_path(&png_path, ".png");
    let drawn = (|| -> anyhow::Result<()> {
        let root = BitMapBackend::new(&tmp, size).into_drawing_area();
        draw_value_chart(&root, a, runs, size)?;
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

fn draw_value_chart<DB>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    a: &ValueChart,
    runs: &[SkirmishAnalysis],
    size: (u32, u32),
) -> anyhow::Result<()>
where
    DB: DrawingBackend,
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let dark = RGBColor(20, 20, 20);
    let muted = RGBColor(80, 80, 80);
    root.draw_text(&a.title, &text_style(28.0, dark, HPos::Left), (24, 28))?;
    let subtitle = subtitle_lines(a);
    for (k, line) in subtitle.iter().enumerate() {
        root.draw_text(line, &text_style(17.0, muted, HPos::Left), (24, 62 + 22 * k as i32))?;
    }
    let extra = 22 * (subtitle.len() as i32 - 1);
    let rows = &runs[0].value_in_army;
    let n = rows.len();
    let all = runs.iter().flat_map(|r| r.value_in_army.iter().map(|v| &v.log_odds_per_100_points_vs_field));
    let (mut lo, mut hi) = (0.0f64, 0.0f64);
    for e in all {
        lo = lo.min(e.lo);
        hi = hi.max(e.hi);
    }
    // A round tick step (1, 2 or 5 × 10^k) giving at most about ten ticks.
    let span = (hi - lo).max(1e-9);
    let magnitude = 10f64.powf((span / 10.0).log10().ceil() - 1.0);
    let tick =
        [1.0, 2.0, 5.0, 10.0].iter().map(|f| f * magnitude).find(|t| span / t <= 10.0).unwrap_or(10.0 * magnitude);
    let lo = (lo / tick).floor() * tick;
    let hi = (hi / tick).ceil() * tick;
    let decimals = (-tick.log10().floor()).max(0.0) as usize;
    let plot = root.margin(90 + extra, 50 + legend_extra(a, runs.len()), 20, 30);
    let label_w = 290;
    let mut chart = ChartBuilder::on(&plot)
        .x_label_area_size(56)
        .y_label_area_size(label_w)
        .build_cartesian_2d(lo..hi, -0.5f64..(n as f64 - 0.5))?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(0)
        .x_labels(((hi - lo) / tick).round() as usize + 1)
        .x_label_formatter(&|x| if x.abs() < tick / 2.0 { "0".to_string() } else { format!("{x:+.decimals$}") })
        .x_desc("win log-odds per 100 points − field mean (0 = worth its cost)")
        .label_style(text_style(17.0, dark, HPos::Center))
        .axis_desc_style(text_style(17.0, dark, HPos::Center))
        .bold_line_style(RGBColor(222, 222, 222))
        .light_line_style(WHITE)
        .axis_style(muted)
        .draw()?;
    let shown = runs.len().min(RUN_SHAPES.len());
    for (i, v) in rows.iter().enumerate() {
        let y = (n - 1 - i) as f64;
        let (x, py) = chart.backend_coord(&(lo, y));
        root.draw_text(
            &format!("{} ({}, {} pts)", v.name, v.item, v.cost),
            &text_style(17.0, dark, HPos::Right),
            (x - 8, py),
        )?;
        for (k, run) in runs.iter().enumerate().take(shown) {
            let Some(e) =
                run.value_in_army.iter().find(|x| x.name == v.name).map(|x| x.log_odds_per_100_points_vs_field)
            else {
                continue;
            };
            // Runs side by side within the row: ±0.15 for two, spread over 0.15..-0.15 for more.
            let off = if shown > 1 { 0.15 - 0.3 * k as f64 / (shown - 1) as f64 } else { 0.0 };
            let yy = y + off;
            let stroke = dark.stroke_width(2);
            chart.draw_series([
                PathElement::new(vec![(e.lo, yy), (e.hi, yy)], stroke),
                PathElement::new(vec![(e.lo, yy - 0.1), (e.lo, yy + 0.1)], stroke),
                PathElement::new(vec![(e.hi, yy - 0.1), (e.hi, yy + 0.1)], stroke),
            ])?;
            let at = chart.backend_coord(&(e.value, yy));
            draw_marker(root, RUN_SHAPES[k], at, RGBColor(30, 30, 30), super::charts::call_color(&e, 0.0))?;
        }
    }
    chart.draw_series(DashedLineSeries::new(
        vec![(0.0, -0.5), (0.0, n as f64 - 0.5)],
        8,
        6,
        RGBColor(40, 40, 40).stroke_width(2),
    ))?;
    // Legend: one shape per run, then what the fill means (on a line of its own where both do
    // not fit on one).
    let below = legend_extra(a, runs.len());
    let ly = size.1 as i32 - 22 - below;
    let mut x = 24;
    for (k, label) in a.legend.iter().enumerate().take(shown) {
        draw_marker(root, RUN_SHAPES[k], (x, ly), RGBColor(30, 30, 30), WHITE)?;
        root.draw_text(label, &text_style(17.0, dark, HPos::Left), (x + 14, ly))?;
        x += 14 + crate::plot::text_width(label, 17.0) + 28;
    }
    let at = if below == 0 { (x, ly) } else { (24, ly + below) };
    root.draw_text(FILL_NOTE, &text_style(17.0, muted, HPos::Left), at)?;
    Ok(())
}

/// The skirmish section: value in army, per mission, unit statistics and the replay (only
/// when the analysis has skirmish results).
pub struct Skirmishes;

impl super::Section for Skirmishes {
    fn write_files(&self, a: &RulesetAnalysis, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
        write_files(a, dir)
    }

    fn markdown(&self, a: &RulesetAnalysis, o: &mut String) {
        o.push_str(&section(a));
    }
}

/// A run's play in the report's words: "`x` tactic", or "the equilibrium mix" for a run whose
/// games draw each side's tactic from its mix ([`EQUILIBRIUM_MIX`]).
pub fn tactic_words(name: &str) -> String {
    if name == EQUILIBRIUM_MIX { "the equilibrium mix".to_string() } else { format!("`{name}` tactic") }
}
