//! The points-matched squads' tactic game (issue 41, "Equilibrium per matchup" and
//! "Exploitability at every level"; DESIGN.md, "Play model"): for every pair of the cost list,
//! which tactic each side's squad should play, what the matchup is worth when both sides play
//! their equilibrium mixes, and how much a switch of tactic takes from the scripted tactic.
//!
//! The game of a pair: side A (the unit first in the cost list) picks one of the ruleset's
//! squad tactics ([`Ruleset::squad_tactics`]: VSGMR's `default` (the scripted tactic), `hold`,
//! `charge`, `keep-out`; Gunplay's `default`, `hold`, `close-assault`, `stand-off`), side B
//! one too, both at once; a cell is A's mean score (win 1, draw ½, loss 0) over `[duel]
//! tactic_trials` points-matched duels in which A plays its tactic and B its own (each side
//! bought with `[duel] budget` points and its size drawn as the points-matched matrix draws
//! it, `[duel] distance` apart, A first in even duels). Each tactic
//! pair plays on a dice stream of its own ([`crate::sim::duel::simulate_played`]), so the cells
//! are independent. The equilibrium is the double oracle's over the cells, with family-wise
//! 95% intervals (Bonferroni over the `k²` cells; [`super::metagame::solve`], the skirmish
//! metagame's machinery): its value, with an interval that holds for the whole game's value
//! wherever the cells' intervals hold, and both mixes. Mirrors are left out (their value is ½
//! by symmetry).
//!
//! What it measures. Each side's best switch of tactic against the scripted tactic
//! ([`super::metagame::switches_against`]; a 95% interval, Bonferroni over the side's three
//! alternatives) is a lower bound on how exploitable the scripted tactic is in those squads;
//! against the equilibrium mixes ([`super::metagame::Metagame::deviations`]) it is the same
//! bound for the equilibrium play. Per unit, its points efficiency under the equilibrium (the
//! mean of its pairs' equilibrium values, the mirror left out) beside the scripted tactic's
//! from the game's own (`default`, `default`) cells: what the points efficiency would be if
//! the squads were played by the equilibrium.
//!
//! What plays it: the report's points-matched matrix, points efficiency, suggested costs and
//! efficiency by distance, where the game is played ([`SquadsGame::mixes`]; each duel draws each
//! side's tactic from its pair's mix, `crate::sim::duel::SquadPlay::Mixed`; a mirror plays the
//! scripted tactic). The per-unit table above compares, from the game's own cells, the points
//! efficiency of the scripted tactic with the equilibrium's.
//!
//! Layer: analysis; imports the engine (`sim`), the rulesets' trait, `stats` and
//! [`super::metagame`].

use indicatif::ProgressBar;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::metagame::{self, Deviation, MetaCell, Metagame};
use super::skirmish::EXPLOITABLE;
use crate::rulesets::Ruleset;
use crate::rulesets::engine::SquadMixes;
use crate::sim::RunPlan;
use crate::sim::duel::{SquadPlay, Squads, simulate_played};
use crate::stats::{CONFIDENCE, Estimate, mean_of, normal, z_for};

/// One pair's tactic game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SquadsGamePair {
    /// Unit ids and names; `a` first in the cost list.
    pub a: String,
    pub b: String,
    pub a_name: String,
    pub b_name: String,
    /// The game: the cells played, the value (A's score in [0, 1] with its 95% interval), both
    /// mixes and each side's best switch against them.
    pub game: Metagame,
    /// Each side's best switch of tactic against the scripted tactic (A's first; module docs).
    pub against_scripted: [Option<Deviation>; 2],
}

impl SquadsGamePair {
    /// A's score when both sides play the scripted tactic (the (`default`, `default`) cell),
    /// with its family-wise interval.
    pub fn scripted(&self) -> Estimate {
        self.game.cell(0, 0).map_or(Estimate { value: 0.5, lo: 0.0, hi: 1.0 }, |c| c.a_score)
    }
}

/// One unit's points efficiency under the scripted tactic and under the equilibrium, from the
/// tactic games of its pairs (module docs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UnitPlay {
    pub unit: String,
    /// Mean score in [0, 1] against every other unit, with a 95% interval.
    pub scripted: Estimate,
    pub equilibrium: Estimate,
}

/// The points-matched squads' tactic game of a ruleset (module docs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SquadsGame {
    /// Points per side and start distance (the ruleset's unit) of the squads.
    pub budget: f64,
    pub distance: f64,
    /// Duels per cell, and the seed.
    pub trials: u64,
    pub seed: u64,
    /// The tactics' names, the scripted tactic first.
    pub tactics: Vec<String>,
    /// Every pair of the cost list but the mirrors, in cost-list order.
    pub pairs: Vec<SquadsGamePair>,
    /// Every unit, in cost-list order.
    pub units: Vec<UnitPlay>,
}

/// Where a side's switch lies in the game: the pair, the side (0 A, 1 B) and the switch.
pub type Switch<'a> = (&'a SquadsGamePair, usize, &'a Deviation);

impl SquadsGame {
    /// Every side's best switch against the scripted tactic (`scripted`) or the equilibrium.
    fn switches(&self, scripted: bool) -> impl Iterator<Item = Switch<'_>> {
        self.pairs.iter().flat_map(move |p| {
            let d = if scripted { &p.against_scripted } else { &p.game.deviations };
            d.iter().enumerate().filter_map(move |(s, d)| d.as_ref().map(|d| (p, s, d)))
        })
    }

    /// The largest best switch by its point estimate, against the scripted tactic
    /// (`scripted`) or the equilibrium: the estimate of the lower bound `summary.json` gives;
    /// `None` without pairs.
    pub fn largest(&self, scripted: bool) -> Option<Switch<'_>> {
        self.switches(scripted).max_by(|x, y| x.2.gain.value.total_cmp(&y.2.gain.value))
    }

    /// The number of sides whose switches were measured (two a pair).
    pub fn sides(&self) -> usize {
        2 * self.pairs.len()
    }

    /// `d`'s gain with its interval widened to 95% family-wise over every side of every pair
    /// (Bonferroni over the sides and each side's alternatives), from the side's own interval
    /// (95% over its `k − 1` alternatives, normal; the standard error read off its width: exact
    /// for a switch against a pure play, as against the scripted tactic, unless the interval
    /// was clipped at ±1; for a mixing side's `k` alternatives it comes out a little wider).
    pub fn family_wise(&self, d: &Deviation) -> Estimate {
        let alts = self.tactics.len().saturating_sub(1).max(1) as f64;
        let se = (d.gain.hi - d.gain.lo) / (2.0 * z_for(1.0 - (1.0 - CONFIDENCE) / alts));
        let tests = alts * self.sides().max(1) as f64;
        normal(d.gain.value, se, 1.0 - (1.0 - CONFIDENCE) / tests, -1.0, 1.0)
    }

    /// The sides whose best switch against the scripted tactic is clear family-wise (the lower
    /// end of its [`SquadsGame::family_wise`] interval above 0), largest gain first.
    pub fn exploited(&self) -> Vec<Switch<'_>> {
        let mut v: Vec<Switch<'_>> = self.switches(true).filter(|x| self.family_wise(x.2).lo > 0.0).collect();
        v.sort_by(|x, y| y.2.gain.value.total_cmp(&x.2.gain.value));
        v
    }

    /// The pairs with a side in [`SquadsGame::exploited`], each once, at its larger switch,
    /// largest gain first.
    pub fn exploited_pairs(&self) -> Vec<Switch<'_>> {
        first_per_pair(self.exploited(), |x| x.0)
    }
}

/// The items of `items` whose pair (`pair`) has not come before, in order: each pair once, at
/// its first item (the largest, where `items` runs largest first).
fn first_per_pair<'a, T>(items: Vec<T>, pair: impl Fn(&T) -> &'a SquadsGamePair) -> Vec<T> {
    let mut seen: Vec<(&str, &str)> = Vec::new();
    items
        .into_iter()
        .filter(|x| {
            let p = pair(x);
            let key = (p.a.as_str(), p.b.as_str());
            let new = !seen.contains(&key);
            seen.push(key);
            new
        })
        .collect()
}

impl SquadsGame {
    /// Every pair's equilibrium mixes, by the units' indices in `r`'s cost list (the game's
    /// pairs are named by unit id).
    pub fn mixes<R: Ruleset>(&self, r: &R) -> SquadMixes {
        let index = |id: &str| r.units().iter().position(|u| u.id == id);
        SquadMixes::new(self.pairs.iter().filter_map(|p| Some(((index(&p.a)?, index(&p.b)?), p.game.play()))).collect())
    }
}

/// The number of pairs the game of `r` plays where it is [`played`], one per progress step of
/// [`analyse`]: every unordered pair of the cost list but the mirrors, `k (k − 1) / 2` for `k`
/// units; 0 where it is not played.
pub fn pair_count<R: Ruleset>(r: &R) -> u64 {
    let k = r.units().len() as u64;
    if played(r) { k * k.saturating_sub(1) / 2 } else { 0 }
}

/// The pairs named in [`warning`] at most; the rest are counted.
const NAMED: usize = 6;

/// The report warning that the squads' equilibrium play, which the points-matched matrix, the
/// points efficiency and the fair costs play, is exploitable by a switch of tactic: the lower
/// end of a side's family-wise interval against the other side's equilibrium mix
/// ([`SquadsGame::family_wise`]) exceeds [`EXPLOITABLE`] points. Names the largest [`NAMED`]
/// such switches and counts the pairs. `None` without such a switch.
pub fn warning(g: &SquadsGame, unit: &str) -> Option<super::Warning> {
    let mut clear: Vec<(Switch<'_>, Estimate)> =
        g.switches(false).map(|x| (x, g.family_wise(x.2))).filter(|(_, e)| e.lo > EXPLOITABLE).collect();
    if clear.is_empty() {
        return None;
    }
    clear.sort_by(|x, y| y.1.value.total_cmp(&x.1.value));
    let pairs = first_per_pair(clear.iter().collect(), |x| x.0.0).len();
    let named: Vec<String> = clear
        .iter()
        .take(NAMED)
        .map(|((p, side, d), e)| {
            format!(
                "{} v {}: {} to `{}` {:+.1} [{:+.1}, {:+.1}]",
                p.a_name,
                p.b_name,
                if *side == 0 { &p.a_name } else { &p.b_name },
                d.tactic,
                100.0 * e.value,
                100.0 * e.lo,
                100.0 * e.hi
            )
        })
        .collect();
    let more = if clear.len() > NAMED { format!("; and {} more switches", clear.len() - NAMED) } else { String::new() };
    Some(super::Warning {
        message: format!(
            "points-matched squads: a switch of tactic gains more than {:.0} points against the equilibrium of the \
             squads' tactic game in {} of the {} pairs ({} points, {} {unit}; family-wise 95% intervals): {}{more}; \
             the points-matched matrix, points efficiency and fair costs play that equilibrium, so its {} tactics \
             leave out a plan that pays there (see \"How each matchup is played\")",
            100.0 * EXPLOITABLE,
            pairs,
            g.pairs.len(),
            crate::format::number(g.budget, 2),
            crate::format::number(g.distance, 2),
            named.join("; "),
            g.tactics.len()
        ),
    })
}

/// Whether `r` plays the squads' tactic game: it has at least two squad tactics and `[duel]
/// tactic_trials` is above 0.
pub fn played<R: Ruleset>(r: &R) -> bool {
    r.squad_tactics().len() >= 2 && r.duel_settings().tactic_trials > 0
}

/// Plays `r`'s squads' tactic game (module docs) at its `[duel]` budget and distance,
/// `[duel] tactic_trials` duels a cell, seeded by `seed`, in batches of `batch_size` duels.
/// `progress` advances one step per pair (its length counts them: [`super::matrix::analyse`]). `None` when the ruleset has fewer than two squad
/// tactics or `tactic_trials` is 0. Deterministic: every cell is a fixed run of the engine,
/// identical on any thread count. Errors: the equilibrium's linear programs' (as text).
pub fn analyse<R: Ruleset>(
    r: &R,
    seed: u64,
    batch_size: u32,
    progress: &ProgressBar,
) -> Result<Option<SquadsGame>, String> {
    let d = r.duel_settings();
    let names: Vec<String> = r.squad_tactics().iter().map(|t| t.name.to_string()).collect();
    if !played(r) {
        return Ok(None);
    }
    let units = r.units();
    let k = units.len();
    let pairs: Vec<(usize, usize)> = super::matrix::unordered_pairs(k).into_iter().filter(|&(i, j)| i != j).collect();
    progress.set_message(format!("{}: squads' tactic game", r.id()));
    let plan = RunPlan::fixed(seed, d.tactic_trials, batch_size);
    let played: Result<Vec<SquadsGamePair>, String> = pairs
        .par_iter()
        .map(|&(a, b)| {
            let p = pair_game(r, (a, b), &names, &plan);
            progress.inc(1);
            p
        })
        .collect();
    let pairs = played?;
    let units = unit_plays(r, &pairs, names.len());
    Ok(Some(SquadsGame {
        budget: d.budget,
        distance: d.distance,
        trials: d.tactic_trials,
        seed,
        tactics: names,
        pairs,
        units,
    }))
}

/// The tactic game of units `a` (side A) and `b` of `r` (module docs) over the tactics
/// `names` (`r`'s squad tactics), each cell a run of `plan`. Errors: the linear programs'.
pub fn pair_game<R: Ruleset>(
    r: &R,
    (a, b): (usize, usize),
    names: &[String],
    plan: &RunPlan,
) -> Result<SquadsGamePair, String> {
    pair_game_at(r, (a, b), names, plan, r.duel_settings().distance)
}

/// [`pair_game`] with the squads `distance` apart (the ruleset's unit) instead of the
/// `[duel]` distance (`duel --points-matched --distance`).
pub fn pair_game_at<R: Ruleset>(
    r: &R,
    (a, b): (usize, usize),
    names: &[String],
    plan: &RunPlan,
    distance: f64,
) -> Result<SquadsGamePair, String> {
    let d = r.duel_settings();
    let units = r.units();
    let costs = [units[a].cost, units[b].cost];
    let squads = Squads::PointsMatched { budget: d.budget };
    let game = metagame::solve(names.to_vec(), |x, y, family| {
        let t = simulate_played(r, a, b, costs, distance, squads, plan, SquadPlay::Tactics([x, y]));
        MetaCell::counted(x, y, [t.a_wins, t.b_wins], t.draws, t.trials, family)
    })?;
    let against_scripted = metagame::switches_against(&game, 0);
    Ok(SquadsGamePair {
        a: units[a].id.clone(),
        b: units[b].id.clone(),
        a_name: units[a].name.clone(),
        b_name: units[b].name.clone(),
        game,
        against_scripted,
    })
}

/// Each unit's mean score against every other unit under the scripted tactic and under the
/// equilibrium (module docs): the 95% interval of a mean of independent cells, each cell's
/// standard error read off its family-wise interval (Bonferroni over the `k²` cells of `k`
/// tactics; the equilibrium value's interval, which also holds what the tactics left out
/// might add, read as if it were normal: wider than its noise alone).
fn unit_plays<R: Ruleset>(r: &R, pairs: &[SquadsGamePair], k: usize) -> Vec<UnitPlay> {
    let z = z_for(1.0 - (1.0 - CONFIDENCE) / (k * k) as f64);
    let se = |e: &Estimate| (e.hi - e.lo) / (2.0 * z);
    r.units()
        .iter()
        .map(|u| {
            let mut scripted = Vec::new();
            let mut equilibrium = Vec::new();
            for p in pairs {
                let flip = if p.a == u.id {
                    false
                } else if p.b == u.id {
                    true
                } else {
                    continue;
                };
                let own = |x: f64| if flip { 1.0 - x } else { x };
                let (s, e) = (p.scripted(), p.game.value);
                scripted.push((own(s.value), se(&s)));
                equilibrium.push((own(e.value), se(&e)));
            }
            let mean = |v: &[(f64, f64)]| mean_of(v, CONFIDENCE, 0.0, 1.0).unwrap_or(Estimate::exact(0.5));
            UnitPlay { unit: u.name.clone(), scripted: mean(&scripted), equilibrium: mean(&equilibrium) }
        })
        .collect()
}

#[cfg(test)]
mod tests;
