//! "How each matchup is played" (issue 41; DESIGN.md, "Play model"): which play produced each
//! level's numbers (1v1, points-matched squads, the skirmish) and how exploitable it is, as
//! `summary.json`'s `play` says ([`super::summary::Play`]); then the skirmish's tactic
//! metagame ([`crate::analysis::metagame`]): every cell played, both sides' equilibrium mixes,
//! the tactic value in army is played by, and what a switch of tactic gains against it. Writes
//! `metagame.csv` (the cells) when the skirmish has a metagame.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::Section;
use super::format::pct_interval;
use super::summary::{Play, PlayLevel};
use crate::analysis::RulesetAnalysis;
use crate::analysis::metagame::Metagame;
use crate::format::mix_text;
use crate::rulesets::rollout::RolloutGain;
use crate::csv_text::CsvText;

/// The metagame's cells, one row each.
pub const CSV: &str = "metagame.csv";

/// The section.
pub struct HowPlayed;

/// The squads' tactic game, one row per pair.
pub const SQUADS_CSV: &str = "squads_game.csv";

impl Section for HowPlayed {
    fn write_files(&self, a: &RulesetAnalysis, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
        let mut written = Vec::new();
        match metagame(a) {
            None => super::remove_stale(dir, &[CSV.to_string()])?,
            Some(m) => {
                let path = dir.join(CSV);
                super::write_atomic(&path, csv(m).as_bytes())?;
                written.push(path);
            }
        }
        match &a.squads_game {
            None => super::remove_stale(dir, &[SQUADS_CSV.to_string()])?,
            Some(g) => {
                let path = dir.join(SQUADS_CSV);
                super::write_atomic(&path, squads_csv(g).as_bytes())?;
                written.push(path);
            }
        }
        Ok(written)
    }

    fn markdown(&self, a: &RulesetAnalysis, o: &mut String) {
        o.push_str(&section(a));
    }
}

/// The skirmish's tactic metagame, when the report played one.
fn metagame(a: &RulesetAnalysis) -> Option<&Metagame> {
    a.skirmish.as_ref().and_then(|s| s.metagame.as_ref())
}

/// Score points (a win 100, a draw 50) with a sign: `+12.3`.
fn points(x: f64) -> String {
    format!("{:+.1}", 100.0 * x)
}

/// The Markdown section.
pub fn section(a: &RulesetAnalysis) -> String {
    let play = Play::of(a);
    let mut o = String::new();
    let _ = writeln!(o, "## How each matchup is played\n");
    let _ = writeln!(
        o,
        "Which play produced each level's numbers, and how much a player who plays better could take from it, \
         in score points (a win counts 100, a draw 50). `summary.json` has the same under `play`.\n"
    );
    let _ = writeln!(o, "| level | its numbers | play | how exploitable |\n|---|---|---|---|");
    let row = |o: &mut String, level: &str, numbers: &str, l: &PlayLevel| {
        let how = match (l.exploitability, l.exploitability_lower_bound) {
            (Some(x), _) => format!("{} points; {}", crate::format::number(100.0 * x, 1), l.measured),
            (None, Some(b)) if b.hi == 0.0 => format!("no switch of tactic gains (lower bound 0); {}", l.measured),
            (None, Some(b)) => format!(
                "at least {:.1} points [{:.1}, {:.1}]; {}",
                100.0 * b.value,
                100.0 * b.lo,
                100.0 * b.hi,
                l.measured
            ),
            (None, None) => l.measured.clone(),
        };
        let what = match &l.tactic {
            Some(t) if t == crate::rulesets::skirmish::EQUILIBRIUM_MIX => {
                format!("{} (each side's tactic drawn for each game from its mix)", l.play)
            }
            Some(t) => format!("{} (`{t}` tactic)", l.play),
            None => l.play.to_string(),
        };
        let _ = writeln!(o, "| {level} | {numbers} | {what} | {how} |");
    };
    row(&mut o, "1v1", "the 1v1 matrix, each unit's 1v1 mean score, 1v1 charts", &play.one_against_one);
    row(
        &mut o,
        "points-matched squads",
        "the points-matched matrix, points efficiency, suggested costs, efficiency by distance",
        &play.squads,
    );
    if let Some(s) = &play.skirmish {
        row(&mut o, "skirmish", "value in army, value per mission, the unit statistics", s);
    }
    if let Some(s) = &a.squads_rollout {
        o.push_str(&squads_text(s, &a.distance_unit, a.squads_game.is_some()));
    }
    if let Some(g) = &a.squads_game {
        o.push_str(&squads_game_text(g, &a.distance_unit));
    }
    if let Some(sk) = a.skirmish.as_ref() {
        let (games, seed) = sk.runs.first().map_or((0, 0), |r| (r.games, r.seed));
        if let Some(m) = metagame(a) {
            let further = match (&sk.rollout, &sk.rollout_missing) {
                (Some(_), _) => " (the rollout best response below searches further)".to_string(),
                (None, Some(why)) => format!(" (no rollout best response was run: {why})"),
                (None, None) => " (the rollout best response is not built)".to_string(),
            };
            o.push_str(&metagame_text(m, &sk.text.game, games, seed, &further));
        }
        if let Some(r) = &sk.rollout {
            // The tactics in the ruleset's order (the rollout's indices): the metagame's; without
            // one the default is played and the runs keep that order.
            let tactics: Vec<String> =
                metagame(a).map_or_else(|| sk.tactics.iter().map(|t| t.0.clone()).collect(), |m| m.tactics.clone());
            // One blank line before the paragraph, whatever came before it.
            o.truncate(o.trim_end_matches('\n').len());
            o.push_str("\n\n");
            o.push_str(&rollout_text(r, &tactics, &sk.text.turns, seed));
        }
    }
    o
}

/// The squads' rollout best response ([`crate::analysis::squads_rollout`]): one row per pair
/// tried, with the exact 1v1 exploitability that chose it and each side's rollout gain against
/// the squads' play (`game`: the squads play the tactic game's equilibrium, which the rollout
/// responds to; else the scripted tactic).
fn squads_text(s: &crate::analysis::squads_rollout::SquadsRollout, unit: &str, game: bool) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "\n### Points-matched squads: rollout best response\n");
    let (played, base, off) = if game {
        (
            "The squads play each pair's equilibrium of the tactic game below (a mirror the scripted tactic).",
            "that play (each duel draws each side's base tactic from its pair's mix)",
            "its drawn tactic",
        )
    } else {
        ("The squads are played by the scripted tactic.", "it", "the scripted tactic")
    };
    let _ = writeln!(
        o,
        "{played} In the {} pairs the scripted tactic plays worst one against one (the exact best response's gain, \
         `optimal_play.csv`), a rollout best response plays against {base} in the points-matched squads ({} points a \
         side, {} {unit} apart, sizes drawn as the matrix draws them): {} duels a pair, each played three times on the \
         same dice (both on their base play, A responding, B responding); at the start of each {} the responding \
         side plays the skirmish tactic whose {} playouts beat its base tactic's by more than 1.96 standard errors, if \
         any. A gain is a lower bound on how exploitable the squads' play is in those squads (95% intervals each, \
         score points); one whose family-wise interval (Bonferroni over the {} sides) lies above {} points is a \
         warning.\n",
        s.pairs.len(),
        crate::format::number(s.budget, 2),
        crate::format::number(s.distance, 2),
        crate::format::thousands(s.games),
        s.stage,
        s.rollouts,
        2 * s.pairs.len(),
        crate::format::number(100.0 * crate::analysis::skirmish::EXPLOITABLE, 1)
    );
    let _ = writeln!(
        o,
        "| A | B | 1v1 exploitability (exact) | A scores, base play | A responding | B responding |\n|---|---|---|---|---|---|"
    );
    for p in &s.pairs {
        let side = |g: &crate::rulesets::rollout::SideGain| {
            format!(
                "{} [{}, {}] ({:.0}% of {}s off {off})",
                points(g.gain.value),
                points(g.gain.lo),
                points(g.gain.hi),
                100.0 * g.switched,
                s.stage
            )
        };
        let _ = writeln!(
            o,
            "| {} | {} | {:.1} | {:.1}% | {} | {} |",
            p.a_name,
            p.b_name,
            100.0 * p.exploitability_1v1,
            100.0 * p.rollout.base_score,
            side(&p.rollout.sides[0]),
            side(&p.rollout.sides[1])
        );
    }
    o
}

/// At most this many pairs are listed in the squads' tactic game's table (the rest are in
/// `squads_game.csv`).
const GAME_ROWS: usize = 12;

/// The squads' tactic game ([`crate::analysis::squads_game`]): what it is, the pairs whose
/// scripted tactic a switch exploits most, and each unit's points efficiency under the
/// scripted tactic and under the equilibrium.
fn squads_game_text(g: &crate::analysis::squads_game::SquadsGame, unit: &str) -> String {
    let mut o = String::new();
    let names: Vec<String> = g.tactics.iter().map(|t| format!("`{t}`")).collect();
    let _ = writeln!(o, "\n### Points-matched squads: the tactic game\n");
    let _ = writeln!(
        o,
        "For every pair of the cost list, each side's squad ({} points a side, {} {unit} apart, sizes drawn as the \
         matrix draws them) picks one of the tactics {} (the first is the scripted tactic), both at once; a cell is A's \
         mean score over {} duels with those tactics, on dice of its own (seed {}). The equilibrium of each pair's \
         game is the double oracle's over the cells it needs (family-wise 95% intervals, Bonferroni over the cells). \
         A switch of tactic against the scripted tactic that gains clearly (its 95% interval, Bonferroni over the \
         side's alternatives, above 0) is a lower bound on how exploitable the scripted squads are. The points-matched \
         matrix, points efficiency, suggested costs and efficiency by distance above play these equilibria: each duel \
         draws each side's tactic from its pair's mix (a mirror plays the scripted tactic on both sides, ½ by \
         symmetry either way; the fair-cost searches and the other start distances hold the mixes solved here, at \
         list prices). The last table compares, from the game's own cells, the points efficiency of the scripted \
         tactic with the equilibrium's. Every pair's game is in `{}`.\n",
        crate::format::number(g.budget, 2),
        crate::format::number(g.distance, 2),
        names.join(", "),
        crate::format::thousands(g.trials),
        g.seed,
        SQUADS_CSV
    );
    let rows = g.exploited_pairs();
    if rows.is_empty() {
        let _ = writeln!(
            o,
            "No switch of tactic gains clearly against the scripted tactic in any pair (95% family-wise over the {} \
             sides).\n",
            g.sides()
        );
    } else {
        let _ = writeln!(
            o,
            "{} of the {} pairs have a switch against the scripted tactic that gains clearly even family-wise (95%, \
             Bonferroni over the {} sides and their alternatives); the {} with the largest (each switch with its own \
             95% interval):\n",
            rows.len(),
            g.pairs.len(),
            g.sides(),
            rows.len().min(GAME_ROWS)
        );
        let _ = writeln!(
            o,
            "| A | B | A scores, both scripted | the largest switch | A scores, equilibrium | A's mix | B's mix |\n\
             |---|---|---|---|---|---|---|"
        );
        for (p, side, d) in rows.iter().take(GAME_ROWS) {
            let s = p.scripted();
            let e = p.game.value;
            let _ = writeln!(
                o,
                "| {} | {} | {} | {} to `{}`: {} [{}, {}] | {} | {} | {} |",
                p.a_name,
                p.b_name,
                pct_interval(&s),
                if *side == 0 { "A" } else { "B" },
                d.tactic,
                points(d.gain.value),
                points(d.gain.lo),
                points(d.gain.hi),
                pct_interval(&e),
                crate::format::quoted_mix_text(&g.tactics, &p.game.a_mix),
                crate::format::quoted_mix_text(&g.tactics, &p.game.b_mix)
            );
        }
        o.push('\n');
    }
    let _ = writeln!(
        o,
        "Points efficiency (mean score against every other unit, the mirror left out) from the tactic game's own \
         cells, by the scripted tactic on both sides and by both sides' equilibrium mixes (95% intervals):\n"
    );
    let _ = writeln!(o, "| unit | scripted | equilibrium | change |\n|---|---|---|---|");
    for u in &g.units {
        let (s, e) = (u.scripted, u.equilibrium);
        let _ = writeln!(
            o,
            "| {} | {} | {} | {} |",
            u.unit,
            pct_interval(&s),
            pct_interval(&e),
            // No "-0.0": a change that rounds to nothing is "0.0".
            if (100.0 * (e.value - s.value)).abs() < 0.05 { "0.0".to_string() } else { points(e.value - s.value) }
        );
    }
    o.push('\n');
    o
}

/// The squads' tactic game's `squads_game.csv`: one row per pair, with its scripted cell, its
/// equilibrium value and mixes, and each side's best switch against the scripted tactic and
/// against the equilibrium (score in [0, 1], gains in probability units).
fn squads_csv(g: &crate::analysis::squads_game::SquadsGame) -> String {
    let mut t = CsvText::new([
        "a",
        "b",
        "cells",
        "scripted",
        "scripted_lo",
        "scripted_hi",
        "equilibrium",
        "equilibrium_lo",
        "equilibrium_hi",
        "a_mix",
        "b_mix",
        "a_switch_v_scripted",
        "a_gain_v_scripted",
        "a_gain_v_scripted_lo",
        "a_gain_v_scripted_hi",
        "b_switch_v_scripted",
        "b_gain_v_scripted",
        "b_gain_v_scripted_lo",
        "b_gain_v_scripted_hi",
        "a_switch_v_equilibrium",
        "a_gain_v_equilibrium",
        "b_switch_v_equilibrium",
        "b_gain_v_equilibrium",
    ]);
    let f = |x: f64| format!("{x:.4}");
    let switch = |d: &Option<crate::analysis::metagame::Deviation>, full: bool| -> Vec<String> {
        match d {
            Some(d) if full => vec![d.tactic.clone(), f(d.gain.value), f(d.gain.lo), f(d.gain.hi)],
            Some(d) => vec![d.tactic.clone(), f(d.gain.value)],
            None if full => vec![String::new(); 4],
            None => vec![String::new(); 2],
        }
    };
    for p in &g.pairs {
        let (s, e) = (p.scripted(), p.game.value);
        let mut row = vec![
            p.a_name.clone(),
            p.b_name.clone(),
            p.game.cells.len().to_string(),
            f(s.value),
            f(s.lo),
            f(s.hi),
            f(e.value),
            f(e.lo),
            f(e.hi),
            mix_text(&g.tactics, &p.game.a_mix),
            mix_text(&g.tactics, &p.game.b_mix),
        ];
        row.extend(switch(&p.against_scripted[0], true));
        row.extend(switch(&p.against_scripted[1], true));
        row.extend(switch(&p.game.deviations[0], false));
        row.extend(switch(&p.game.deviations[1], false));
        t.row(row);
    }
    t.finish()
}

/// The rollout best response's paragraph ([`crate::rulesets::rollout`]): each side's gain
/// against the played tactic, with how often it left that tactic. `turns`: the book's word
/// for its stages, plural ("rounds").
fn rollout_text(r: &RolloutGain, tactics: &[String], turns: &str, seed: u64) -> String {
    let names: Vec<&str> = tactics.iter().map(String::as_str).collect();
    let other = match r.base {
        Some([a, b]) if a == b => format!("`{}`", names[a]),
        Some([a, b]) => format!("its own tactic (A `{}`, B `{}`)", names[a], names[b]),
        None => "its tactic, drawn for each game from its equilibrium mix".to_string(),
    };
    let side = |s: usize| {
        let g = &r.sides[s];
        format!(
            "side {} {} points [{}, {}] (it left {} at {:.0}% of its decisions)",
            ["A", "B"][s],
            points(g.gain.value),
            points(g.gain.lo),
            points(g.gain.hi),
            r.base_text(s, &names),
            100.0 * g.switched
        )
    };
    format!(
        "**Rollout best response** (Tesauro & Galperin 1996; Bertsekas' rollout algorithm): at the start of each of \
         its {turns}, one side tries each tactic of the portfolio, each played from there to the end of the game in {} \
         playouts (the same dice for every tactic, never the game's own), and plays for that stage the one whose \
         playouts beat the played tactic's by more than 1.96 standard errors, if any; the other side keeps {}. Over {} random-army games (seed {seed}), each played by both sides' tactic and by each side \
         responding, the responding side's score changes by: {}; {} (95% intervals). {}\n\n",
        r.rollouts,
        other,
        crate::format::thousands(r.games),
        side(0),
        side(1),
        if r.sides.iter().any(|g| g.gain.lo > 0.0) {
            "A gain whose interval lies above 0 is a lower bound on how exploitable the play is: a best response over \
             every policy gains at least as much."
        } else {
            "No response gains clearly (every interval reaches 0 or below): the lookahead finds no better plan for a \
             whole side, though one that pays only if kept up for many stages, or that moves units differently, may \
             exist."
        }
    )
}

/// The metagame's subsection: the cells, the equilibrium, the played tactic and its switches.
fn metagame_text(m: &Metagame, game: &str, games: u64, seed: u64, further: &str) -> String {
    let mut o = String::new();
    let k = m.tactics.len();
    let _ = writeln!(o, "\n### {game}: the tactic metagame\n");
    let _ = writeln!(
        o,
        "Side A plays the row's tactic and side B the column's, in {} games between random legal armies per cell \
         (seed {seed}); each cell is A's mean score with a family-wise 95% interval (Bonferroni over the {} cells). The \
         diagonal is the games above of one tactic on both sides; the other cells are games of their own. Cells \
         are played as the double oracle asks for them (start from the default tactic a side, add a side's best \
         answer while it gains more than its noise), so a cell it did not need is left out (—).\n",
        crate::format::thousands(games),
        k * k
    );
    let _ = write!(o, "| A plays ↓, B plays → |");
    for t in &m.tactics {
        let _ = write!(o, " `{t}` |");
    }
    let _ = writeln!(o, "\n|---|{}", "---|".repeat(k));
    for (i, t) in m.tactics.iter().enumerate() {
        let _ = write!(o, "| `{t}` |");
        for j in 0..k {
            match m.cell(i, j) {
                Some(c) => {
                    let _ = write!(o, " {} |", pct_interval(&c.a_score));
                }
                None => o.push_str(" — |"),
            }
        }
        o.push('\n');
    }
    let _ = writeln!(
        o,
        "\n**Equilibrium** (each side's best mix of tactics): A plays {}, B plays {}; A's score {}.",
        mix_text(&m.tactics, &m.a_mix),
        mix_text(&m.tactics, &m.b_mix),
        pct_interval(&m.value)
    );
    if let Some(played) = m.played.map(|t| &m.tactics[t]) {
        let _ = writeln!(
            o,
            "\nValue in army, value per mission, the unit statistics and the replay come from games in which both \
             sides play `{played}`, the equilibrium."
        );
        // A standoff: the equilibrium's own games are mostly draws.
        if let Some(draws) = m.standoff() {
            let _ = writeln!(
                o,
                "\n**A standoff**: {:.1}% of these games are draws. No tactic of the portfolio clearly does better \
                 against `{played}` than `{played}` itself, and most games between two sides that both play it end level: \
                 the game's victory conditions reward waiting, or the portfolio lacks a plan that breaks a side \
                 playing `{played}`. Value in army then rests on the few games that are decided.",
                100.0 * draws
            );
        }
    } else {
        let _ = writeln!(
            o,
            "\n**The equilibrium is not one tactic on both sides**: value in army, value per mission and the unit \
             statistics come from games of their own in which {} ({}); the replay shows a game in which both sides \
             play `{}`, the tactic side A plays most.",
            if m.play().as_pure().is_some() {
                "each side plays its equilibrium tactic"
            } else {
                "each side draws its tactic for each game from its equilibrium mix"
            },
            m.play_text(),
            m.tactics[crate::analysis::skirmish::heaviest(&m.a_mix)]
        );
    }
    let switches: Vec<String> = m
        .deviations
        .iter()
        .enumerate()
        .filter_map(|(s, d)| d.as_ref().map(|d| (s, d)))
        .map(|(s, d)| {
            format!(
                "side {} switching to `{}` changes its score by {} points [{}, {}]",
                ["A", "B"][s],
                d.tactic,
                points(d.gain.value),
                points(d.gain.lo),
                points(d.gain.hi)
            )
        })
        .collect();
    if !switches.is_empty() {
        let _ = writeln!(
            o,
            "\nAgainst that play, each side's best switch of tactic: {} (95% intervals). {} A best response beyond \
             these tactics may gain more{}.",
            switches.join("; "),
            if m.deviations.iter().flatten().any(|d| d.gain.lo > 0.0) {
                "A switch whose interval lies above 0 gains: the play is exploitable by at least that much."
            } else if m.deviations.iter().flatten().any(|d| d.gain.value > 0.0) {
                "No switch gains clearly (every interval reaches 0 or below)."
            } else {
                "No switch of tactic gains."
            },
            further
        );
    }
    o.push('\n');
    o
}

/// The cells as CSV: each tactic pair played, its games, outcomes and A's mean score with its
/// family-wise interval.
fn csv(m: &Metagame) -> String {
    let mut t = CsvText::new(["a_tactic", "b_tactic", "games", "a_wins", "b_wins", "draws", "a_score", "a_score_lo", "a_score_hi"]);
    for c in &m.cells {
        t.row([
            m.tactics[c.a].clone(),
            m.tactics[c.b].clone(),
            c.games.to_string(),
            c.wins[0].to_string(),
            c.wins[1].to_string(),
            c.draws.to_string(),
            format!("{:.4}", c.a_score.value),
            format!("{:.4}", c.a_score.lo),
            format!("{:.4}", c.a_score.hi),
        ]);
    }
    t.finish()
}
