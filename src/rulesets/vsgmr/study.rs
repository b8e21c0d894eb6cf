//! VSGMR's studies for `pointsworth report vsgmr`: the attribute prices (book price beside
//! fair price with its interval, as a table and a chart), the cost audit of the sample armies,
//! and the Skirmish studies (round robin of the sample armies, random formula-priced armies).

pub mod prices;
pub mod round_robin;

use std::fmt::Write;

use indicatif::ProgressBar;

use self::prices::{VsgmrAnalysis, attribute_prices, mispriced};
use self::round_robin::{VsgmrSkirmish, random_armies, round_robin};
use super::Vsgmr;
use super::coverage::audit::audit;
use crate::format::pct_interval as pct;
use crate::rulesets::engine::Engine;
use crate::rulesets::study::{ChartSpec, PriceRow, Study, StudyChart};
use crate::stats::Estimate;

/// File stem of the book-price-vs-fair-price chart.
pub const PRICES: &str = "attribute_prices";

/// File stem of the sample-army round robin heatmap.
pub const ROUND_ROBIN: &str = "vsgmr_round_robin";

/// Runs the attribute-price study (`[prices]`: budget, distance, report_trials) and the
/// Skirmish studies (`[skirmish]`: round_robin_trials, random_trials; 0 leaves one out) under
/// `seed` and attaches them with the cost audit to `analysis`. Shows a progress bar on a
/// terminal.
pub fn studies<E: Engine>(engine: &E, r: &Vsgmr, title: &str, seed: u64, pb: &ProgressBar) -> Vec<Study> {
    pb.set_message("vsgmr attribute prices");
    let prices = attribute_prices(engine, r, seed, r.prices.budget, r.prices.distance, r.prices.report_trials, pb);
    let skirmish = skirmish_studies(engine, r, seed, pb);
    let v = VsgmrAnalysis { audit: audit(r), prices, skirmish };
    vec![study(&v, title, seed)]
}

/// The study of `v`: its Markdown, the price chart and the round-robin heatmap.
pub fn study(v: &VsgmrAnalysis, title: &str, seed: u64) -> Study {
    let mut charts = vec![StudyChart {
        stem: PRICES.to_string(),
        chart: ChartSpec::PriceRows {
            title: format!("{title}: book price vs fair price"),
            x_desc: "points added to the base figure".to_string(),
            rows: v
                .prices
                .rows
                .iter()
                .map(|r| PriceRow { label: r.attribute.clone(), book: r.book, fair: r.fair })
                .collect(),
            x_cap: 12.0,
        },
    }];
    if let Some(rr) = v.skirmish.as_ref().and_then(|s| s.round_robin.as_ref()) {
        charts.push(StudyChart {
            stem: ROUND_ROBIN.to_string(),
            chart: ChartSpec::ScoreHeatmap {
                title: format!("{title}: sample-army round robin"),
                subtitle: format!("row army's win rate against column army, both sides pooled · seed {seed}"),
                labels: rr.armies.iter().map(|a| format!("{} ({} pt)", a.name, pts(a.points))).collect(),
                scores: rr
                    .cells
                    .iter()
                    .map(|row| row.iter().map(|c| c.map_or(f64::NAN, |e| e.value)).collect())
                    .collect(),
                notes: vec![format!(
                    "Skirmish games, {} per ordered pair; draws (equal points destroyed) count as not won. \
                     Intervals in the report's table.",
                    rr.trials_per_order
                )],
                axes: ["row army (either side)".to_string(), "column army".to_string()],
            },
        });
    }
    Study {
        title: "Attribute prices".to_string(),
        markdown: section(v),
        tables: Vec::new(),
        charts,
        suggested_costs_note: None,
    }
}

/// The round robin and the random-army games of the report.
pub fn skirmish_studies<E: Engine>(engine: &E, r: &Vsgmr, seed: u64, pb: &ProgressBar) -> Option<VsgmrSkirmish> {
    let cfg = &r.skirmish;
    if cfg.round_robin_trials == 0 && cfg.random_trials == 0 && cfg.report_trials == 0 {
        return None;
    }
    let field = r.field();
    pb.set_message("vsgmr skirmish");
    let rr = (cfg.round_robin_trials > 0 && field.samples.len() >= 2)
        .then(|| round_robin(engine, field, cfg, seed, cfg.round_robin_trials, pb));
    let random = (cfg.random_trials > 0).then(|| random_armies(engine, field, cfg, seed, cfg.random_trials, pb));
    let (scenarios, fair_points) = if cfg.report_trials > 0 {
        round_robin::scenarios(engine, r, seed, cfg.report_trials, pb)
    } else {
        Default::default()
    };
    Some(VsgmrSkirmish { seed, table: table_text(r), round_robin: rr, random, scenarios, fair_points })
}

/// A one-line description of the table and the game.
pub fn table_text(r: &Vsgmr) -> String {
    let c = &r.skirmish;
    format!(
        "{}\" × {}\" table, {} cover pieces {}\" long (distance attacks need 6 at a target within {}\" behind one), \
         sides {}\" apart, {} rounds, phased",
        c.table_width, c.table_depth, c.cover_pieces, c.cover_length, c.cover_reach, c.gap, c.rounds
    )
}

fn pts(x: f64) -> String {
    let s = format!("{x:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn interval(e: &Estimate) -> String {
    format!("{:+.2} [{:+.2}, {:+.2}]", e.value, e.lo, e.hi)
}

/// The Markdown of the study: attribute prices, cost audit, then the Skirmish studies.
fn section(v: &VsgmrAnalysis) -> String {
    let mut o = String::new();
    o.push_str("## Attribute prices\n\n");
    let p = &v.prices;
    let _ = writeln!(
        o,
        "For each attribute of the points formula (sections IV–VI), the **fair price** is the added cost at which \
         a points-matched force of base figures with it is even (score 50%) against a force of the same figures \
         without it: the fair-cost solver's bisection with common random numbers, {} points a side, {} in apart, \
         {} trials per price, seed {}. Intervals are 95% (delta method through the local slope, plus the search's \
         resolution). *Score at book price* is the force with the attribute, bought at the book's price, against \
         the base force. Open ground, mirror fights: traits that pay off beside other figures or on terrain are \
         priced only by what they do here (see the notes).\n",
        pts(p.budget),
        pts(p.distance),
        p.trials,
        p.seed
    );
    let (under, over) = mispriced(p);
    let name = |x: &[(&prices::AttributePrice, f64)]| -> String {
        x.iter()
            .take(3)
            .map(|(r, _)| {
                let f = r.fair.expect("mispriced rows have a fair price");
                format!("{} (book {}, fair {:.2} [{:.2}, {:.2}])", r.attribute, pts(r.book), f.value, f.lo, f.hi)
            })
            .collect::<Vec<_>>()
            .join("; ")
    };
    if under.is_empty() {
        // Nothing is worth more than the book asks: name the attribute closest to its price.
        let best = p
            .rows
            .iter()
            .filter_map(|r| r.fair.map(|f| (r, f)))
            .filter(|(r, _)| r.book > 0.0)
            .max_by(|a, b| (a.1.value / a.0.book).total_cmp(&(b.1.value / b.0.book)));
        if let Some((r, f)) = best {
            let _ = write!(
                o,
                "**Best value:** no attribute is under-priced; the one worth most for its price is {} (book {}, fair \
                 {:.2} [{:.2}, {:.2}]).\n\n",
                r.attribute,
                pts(r.book),
                f.value,
                f.lo,
                f.hi
            );
        }
    }
    if under.is_empty() && over.is_empty() {
        o.push_str("**Note:** no attribute's interval excludes its book price.\n\n");
    } else {
        o.push_str("**Note:** ");
        if !under.is_empty() {
            let _ = write!(o, "most under-priced (worth more than the book asks): {}. ", name(&under));
        }
        if !over.is_empty() {
            let _ = write!(o, "Most over-priced (worth less than the book asks): {}.", name(&over));
        }
        o.push_str("\n\n");
    }
    let _ = writeln!(o, "![Book price against fair price per attribute]({PRICES}.png)\n");
    let _ = writeln!(o, "Vector version: [{PRICES}.svg]({PRICES}.svg)\n");
    o.push_str("| attribute | base figure | book price | fair price [95%] | score at book price | note |\n");
    o.push_str("|---|---|---|---|---|---|\n");
    for r in &p.rows {
        let fair = r.fair.as_ref().map_or("—".to_string(), interval);
        let s = &r.score_at_book;
        let _ = writeln!(
            o,
            "| {} | {} ({} pt) | {} | {} | {:.1}% [{:.1}, {:.1}] | {} |",
            r.attribute,
            r.base,
            pts(r.base_cost),
            pts(r.book),
            fair,
            100.0 * s.value,
            100.0 * s.lo,
            100.0 * s.hi,
            r.note
        );
    }
    o.push('\n');

    o.push_str("## Cost audit of the sample armies\n\n");
    o.push_str(
        "Every sample army of section VII priced by the formula of sections IV–VI against its printed points \
         (findings also under \"Ruleset lint\"; `pointsworth rules vsgmr` prints them). Section VII prints \
         fourteen sample armies.\n\n",
    );
    o.push_str(
        "| army | printed points | sum of printed lines | formula | printed figures | figures listed | agrees |\n",
    );
    o.push_str("|---|---|---|---|---|---|---|\n");
    for r in &v.audit {
        let _ = writeln!(
            o,
            "| {} | {} | {} | {} | {} | {} | {} |",
            r.army,
            pts(r.printed_points),
            pts(r.printed_lines),
            pts(r.formula_points),
            r.printed_figures,
            r.counted_figures,
            if r.agrees() { "yes" } else { "no" }
        );
    }
    o.push('\n');
    if let Some(sk) = &v.skirmish {
        o.push_str(&skirmish_section(sk));
    }
    o
}

/// The Skirmish part: the round robin of the sample armies and the random armies.
fn skirmish_section(sk: &VsgmrSkirmish) -> String {
    let mut o = String::new();
    o.push_str("## Skirmish: sample-army round robin\n\n");
    let _ = writeln!(
        o,
        "Skirmish games (section II): {}; winner: more enemy points destroyed, equal is a draw. Seed {}. \
         Intervals are Wilson 95%.\n",
        sk.table, sk.seed
    );
    if let Some(rr) = &sk.round_robin {
        let _ = writeln!(
            o,
            "Every sample army against every other, {} games with each army as side A (each pair twice that, \
             sides swapped). Armies differ in points: *wins per 10 points* divides the win rate by the army's \
             formula points / 10 (what the army buys per point); *destroyed per point* is enemy points destroyed \
             per game per point of own army.\n",
            rr.trials_per_order
        );
        let _ = writeln!(o, "![Sample-army round robin]({ROUND_ROBIN}.png)\n");
        let _ = writeln!(o, "Vector version: [{ROUND_ROBIN}.svg]({ROUND_ROBIN}.svg)\n");
        o.push_str("| army | points | figures | games | win rate [95%] | draws | wins per 10 points [95%] | destroyed per point |\n");
        o.push_str("|---|---|---|---|---|---|---|---|\n");
        let mut order: Vec<_> = rr.armies.iter().collect();
        order.sort_by(|a, b| b.wins_per_10_points.value.total_cmp(&a.wins_per_10_points.value));
        for a in order {
            let w = &a.wins_per_10_points;
            let _ = writeln!(
                o,
                "| {} | {} | {} | {} | {} | {} | {:.3} [{:.3}, {:.3}] | {:.3} |",
                a.name,
                pts(a.points),
                a.figures,
                a.games,
                pct(&a.win_rate),
                a.draws,
                w.value,
                w.lo,
                w.hi,
                a.destroyed_per_point
            );
        }
        o.push_str("\nPairwise win rates (row army against column army, both sides pooled) [95%]:\n\n");
        o.push_str("| row vs column |");
        for k in 0..rr.armies.len() {
            let _ = write!(o, " {} |", k + 1);
        }
        o.push_str("\n|---|");
        o.push_str(&"---|".repeat(rr.armies.len()));
        o.push('\n');
        for (i, a) in rr.armies.iter().enumerate() {
            let _ = write!(o, "| {}. {} |", i + 1, a.name);
            for c in &rr.cells[i] {
                match c {
                    Some(e) => {
                        let _ = write!(o, " {:.0} [{:.0}, {:.0}] |", 100.0 * e.value, 100.0 * e.lo, 100.0 * e.hi);
                    }
                    None => o.push_str(" — |"),
                }
            }
            o.push('\n');
        }
        o.push('\n');
    }
    if let Some(ra) = &sk.random {
        let _ = writeln!(
            o,
            "## Skirmish: random formula-priced armies\n\n{} games between random armies of {}–{} points each \
             (points drawn uniformly; a hero Commander first, section IV, then figure templates of the cost list \
             drawn uniformly among those that fit). Side A wins {}, draws {}; mean {:.2} rounds. If the formula prices figures right, the \
             side with more points should win more often, and armies within 2 points of each other about \
             evenly.\n",
            ra.games,
            ra.min_points,
            ra.max_points,
            pct(&ra.a_wins),
            pct(&ra.draws),
            ra.mean_rounds
        );
        o.push_str("| points A − B | games | A wins [95%] | draws [95%] |\n|---|---|---|---|\n");
        for r in &ra.rows {
            let _ = writeln!(o, "| {} | {} | {} | {} |", r.label, r.games, pct(&r.a_wins), pct(&r.draws));
        }
        o.push('\n');
    }
    o.push_str(&scenarios_section(sk));
    o
}

/// Section VIII's scenarios at their points, and the fair points of the smaller side of the
/// asymmetric ones; empty without scenario games.
fn scenarios_section(sk: &VsgmrSkirmish) -> String {
    let mut o = String::new();
    if sk.scenarios.is_empty() {
        return o;
    }
    let _ = writeln!(
        o,
        "## Scenarios (section VIII)\n\n{} games of each scenario between random armies at its points, under the \
         default tactic playing the scenario's objective (`pointsworth skirmish vsgmr --mission NAME`); the Basic \
         Game is the Skirmish above. Value in army per scenario, for those whose sides field the same points, is in \
         \"value per mission\" below. Intervals are Wilson 95%.\n",
        sk.scenarios[0].games
    );
    o.push_str("| scenario | side A | side B | A wins [95%] | B wins [95%] | draws [95%] | mean rounds |\n|---|---|---|---|---|---|---|\n");
    let points = |(lo, hi): (u32, u32)| if lo == hi { format!("{lo} points") } else { format!("{lo}–{hi} points") };
    for r in &sk.scenarios {
        let _ = writeln!(
            o,
            "| `{}` | {} ({}) | {} ({}) | {} | {} | {} | {:.1} |",
            r.mission,
            r.sides[0],
            points(r.points[0]),
            r.sides[1],
            points(r.points[1]),
            pct(&r.a_wins),
            pct(&r.b_wins),
            pct(&r.draws),
            r.mean_rounds
        );
    }
    if !sk.fair_points.is_empty() {
        let _ = writeln!(
            o,
            "\n**Do the book's points make the asymmetric scenarios even?** Side A's score (win 1, draw ½) at the \
             book's points, and the whole points at which it scores 50% against side B at the book's points: the \
             smallest whole points whose score reaches ½, found by bisection with common random numbers ({} games \
             per points tried, the same seed each time), with the range of points whose 95% score interval contains \
             ½. Side A is the smaller where the book gives unequal points (Ambush, Fortress Assault). Spawning \
             suggests \"25 to 40 points per player\" (each army drawn from 25 to 40): its fair points are the \
             Infiltrators' whole points against Spawners of 25 to 40. The Spawners, behind at the book's points, \
             have none: their score falls as their points rise (one figure a round enters, costliest first, and \
             every one the Infiltrators destroy counts its points toward their victory).\n",
            sk.fair_points[0].games_per_point
        );
        o.push_str("| scenario | side A | book points (A v B) | A's score at the book's points [95%] | A's fair points [95%] |\n|---|---|---|---|---|\n");
        let points = |(lo, hi): (u32, u32)| if lo == hi { lo.to_string() } else { format!("{lo}–{hi}") };
        for f in &sk.fair_points {
            let bound = |b: Option<u32>| b.map_or("unbounded".to_string(), |p| p.to_string());
            let _ = writeln!(
                o,
                "| `{}` | {} | {} v {} | {} | {} [{}, {}] |",
                f.mission,
                f.side,
                points(f.book[0]),
                points(f.book[1]),
                pct(&f.score_at_book),
                f.fair,
                bound(f.lo),
                bound(f.hi)
            );
        }
    }
    o.push('\n');
    o
}
