//! How exploitable the squads' play is in points-matched squads (issue 41, "Exploitability
//! at every level": "squads ... a rollout best response"; DESIGN.md, "Play model").
//!
//! The points-matched matrix, points efficiency and fair costs are played by each pair's
//! equilibrium of the squads' tactic game where the report plays one
//! ([`super::squads_game`]; VSGMR and Gunplay), else by the ruleset's scripted tactic. One against one, the
//! optimal-play solver measures exactly how much a best response gains against the scripted
//! tactic ([`super::optimal_play`]); squads are too large for that solver, so here a rollout
//! best response ([`crate::rulesets::rollout`]) plays against the squads' play in the same
//! squads the matrix plays (bought with `[duel] budget` points, each side's size drawn as the
//! matrix draws it, at `[duel] distance`; each duel draws each side's base tactic from its
//! pair's mix where the squads play the equilibrium, a mirror the scripted tactic as in the
//! matrix): at each round (Gunplay: game turn; [`Ruleset::duel_stage`]) the responding side plays the skirmish tactic whose playouts beat
//! its base tactic's clearly. Its gain, with a 95% interval from paired duels, is a lower bound
//! on the squads' exploitability.
//!
//! Which pairs: the `[duel] rollout_pairs` pairs whose scripted tactic the exact best response
//! exploits most one against one at the report distance (`optimal_play.csv`), worst first: a
//! tactic that plays a pair badly one against one is the likeliest to play its squads badly,
//! and the budget of a report run allows a few pairs, not every one (VSGMR: about 10 s a pair
//! at 200 duels and 16 playouts on 2 cores).
//!
//! Layer: analysis; imports the rulesets' trait and rollout and [`super::optimal_play`].

use indicatif::ProgressBar;
use serde::{Deserialize, Serialize};

use super::optimal_play::OptimalPlay;
use super::skirmish::EXPLOITABLE;
use crate::rulesets::Ruleset;
use crate::rulesets::engine::SquadMixes;
use crate::rulesets::rollout::{RolloutGain, SideGain};
use crate::stats::{CONFIDENCE, Estimate, normal, z_for};

/// One pair's rollout best response in points-matched squads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SquadPair {
    /// Unit ids and names; `a` first in the cost list (a mirror has `a == b`).
    pub a: String,
    pub b: String,
    pub a_name: String,
    pub b_name: String,
    /// The exact best response's gain against the scripted tactic one against one at the same
    /// distance (the larger side's; probability units), which chose the pair.
    pub exploitability_1v1: f64,
    /// Each side's rollout gain in the squads, `a`'s side first.
    pub rollout: RolloutGain,
}

/// The squads' rollout best response over the chosen pairs (module docs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SquadsRollout {
    /// Points per side and start distance (the ruleset's unit) of the squads.
    pub budget: f64,
    pub distance: f64,
    /// Duels per pair (each played three times) and playouts per tactic at each stage.
    pub games: u64,
    pub rollouts: u32,
    /// The book's word for a stage of the duel, at each of which the responding side picks its
    /// tactic ([`Ruleset::duel_stage`]: "round", Gunplay "game turn").
    pub stage: String,
    /// The pairs, most exploitable one against one first.
    pub pairs: Vec<SquadPair>,
}

impl SquadsRollout {
    /// The play the rollouts responded to, in words: "the squads' equilibrium" where any pair's
    /// base play was other than the scripted tactic on both sides (a mix, or another tactic),
    /// else "the scripted tactic".
    pub fn base_words(&self) -> &'static str {
        if self.pairs.iter().any(|p| p.rollout.mixes.is_some() || p.rollout.base.is_some_and(|b| b != [0, 0])) {
            "the squads' equilibrium"
        } else {
            "the scripted tactic"
        }
    }

    /// The rollout in words, for the report's "How each matchup is played": "a rollout best
    /// response against {the base play} in the {n} pairs most exploitable one against one
    /// ({games} duels each, {playouts} playouts per tactic at each {stage}", the parenthesis
    /// left open for the caller to go on and close.
    pub fn method_words(&self) -> String {
        format!(
            "a rollout best response against {} in the {} pairs most exploitable one against one ({} duels each, {} \
             playouts per tactic at each {}",
            self.base_words(),
            self.pairs.len(),
            self.games,
            self.rollouts,
            self.stage
        )
    }

    /// The pair and side whose rollout gain is the largest by its point estimate: the
    /// estimate of the lower bound `summary.json` gives; `None` without pairs.
    pub fn largest(&self) -> Option<(&SquadPair, usize, &SideGain)> {
        self.best(|g| g.gain.value)
    }

    /// The pair and side whose rollout gain has the largest lower end (the clearest gain).
    pub fn clearest(&self) -> Option<(&SquadPair, usize, &SideGain)> {
        self.best(|g| g.gain.lo)
    }

    /// A side's gain with its family-wise interval: the 95% interval widened to Bonferroni's
    /// over every side of every pair tried (`2 × pairs` intervals), so that picking the
    /// largest gain, or warning on any of them, keeps 95% for the whole table. The standard
    /// error is read back from the 95% interval (normal, so symmetric where not clipped to
    /// [−1, 1]; the wider of its two halves is used).
    pub fn family_wise(&self, g: &SideGain) -> Estimate {
        let half = (g.gain.hi - g.gain.value).max(g.gain.value - g.gain.lo);
        let m = (2 * self.pairs.len()).max(1) as f64;
        normal(g.gain.value, half / z_for(CONFIDENCE), 1.0 - (1.0 - CONFIDENCE) / m, -1.0, 1.0)
    }

    /// Every side of every pair tried: the pair, the side (0 for A) and its gain, in table order.
    fn sides(&self) -> impl Iterator<Item = (&SquadPair, usize, &SideGain)> {
        self.pairs.iter().flat_map(|p| p.rollout.sides.iter().enumerate().map(move |(s, g)| (p, s, g)))
    }

    /// The side whose gain is largest by `by`, the first on a tie.
    fn best(&self, by: fn(&SideGain) -> f64) -> Option<(&SquadPair, usize, &SideGain)> {
        self.sides().reduce(|b, x| if by(b.2) >= by(x.2) { b } else { x })
    }
}

/// The rollout best response of `r`'s squads in the `[duel] rollout_pairs` pairs of `o` most
/// exploitable one against one (module docs), against each pair's play in `mixes` (the squads'
/// equilibrium) where it has one, else the scripted tactic; seeded from `seed`; `progress`
/// counts duels (its length grows by theirs).
/// `None` when `rollout_pairs` is 0 or the ruleset's duel has no rollout (its config refuses
/// pairs then). Deterministic: the same on any thread count.
pub fn analyse<R: Ruleset>(
    r: &R,
    o: &OptimalPlay,
    mixes: Option<&SquadMixes>,
    seed: u64,
    progress: &ProgressBar,
) -> Option<SquadsRollout> {
    let d = r.duel_settings();
    if d.rollout_pairs == 0 || !r.duel_rollout_built() {
        return None;
    }
    let units = r.units();
    let index = |id: &str| units.iter().position(|u| u.id == id);
    let chosen: Vec<_> = o.worst_first().into_iter().take(d.rollout_pairs as usize).collect();
    progress.inc_length(chosen.len() as u64 * d.rollout_games());
    progress.set_message(format!("{}: squads' rollout best response", r.id()));
    let mut pairs = Vec::new();
    for p in chosen {
        let (Some(a), Some(b)) = (index(&p.a), index(&p.b)) else { continue };
        let base = mixes.and_then(|m| m.play(a, b));
        let size = (d.rollout_games(), d.rollout_playouts());
        let rollout = r
            .duel_rollout((a, b), o.distance, Some(d.budget), size, seed, base.as_ref(), progress)
            .expect("the duel rollout is built for this ruleset (checked above)");
        pairs.push(SquadPair {
            a: p.a.clone(),
            b: p.b.clone(),
            a_name: units[a].name.clone(),
            b_name: units[b].name.clone(),
            exploitability_1v1: p.exploitability,
            rollout,
        });
    }
    Some(SquadsRollout {
        budget: d.budget,
        distance: o.distance,
        games: d.rollout_games(),
        rollouts: d.rollout_playouts(),
        stage: r.duel_stage().to_string(),
        pairs,
    })
}

/// The report warning that the squads' play (the equilibrium or the scripted tactic, as each
/// pair's rollout was based: [`RolloutGain::mixes`]) is exploitable in points-matched squads:
/// the lower end of a side's family-wise interval ([`SquadsRollout::family_wise`]) exceeds
/// [`EXPLOITABLE`]. `None` without such a gain.
pub fn warning(s: &SquadsRollout, unit: &str) -> Option<super::Warning> {
    let clear = |g: &SideGain| s.family_wise(g).lo > EXPLOITABLE;
    let named: Vec<String> = s
        .sides()
        .filter(|(_, _, g)| clear(g))
        .map(|(p, side, g)| {
            let e = s.family_wise(g);
            format!(
                "{} v {} {:.1} [{:.1}, {:.1}] ({} gains)",
                p.a_name,
                p.b_name,
                100.0 * e.value,
                100.0 * e.lo,
                100.0 * e.hi,
                if side == 0 { &p.a_name } else { &p.b_name }
            )
        })
        .collect();
    (!named.is_empty()).then(|| super::Warning {
        message: format!(
            "points-matched squads: a rollout best response gains more than {:.0} points against {} in {} of the {} \
             pairs tried ({} points, {} {unit}; family-wise 95% intervals): {}; the points-matched matrix, points \
             efficiency and fair costs measure a play that is exploitable (see \"How each matchup is played\")",
            100.0 * EXPLOITABLE,
            s.base_words(),
            s.pairs.iter().filter(|p| p.rollout.sides.iter().any(clear)).count(),
            s.pairs.len(),
            crate::format::number(s.budget, 2),
            crate::format::number(s.distance, 2),
            named.join(", ")
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::optimal_play::OptimalPair;
    use crate::rulesets::vsgmr::tests::ruleset;

    fn side(value: f64, lo: f64) -> SideGain {
        SideGain { score: 0.5, gain: Estimate { value, lo, hi: value + (value - lo) }, switched: 0.0 }
    }

    fn pair(a: &str, gains: [SideGain; 2]) -> SquadPair {
        let rollout =
            RolloutGain { games: 10, rollouts: 4, base: Some([0, 0]), mixes: None, base_score: 0.5, sides: gains };
        SquadPair { a: a.into(), b: "v".into(), a_name: a.into(), b_name: "V".into(), exploitability_1v1: 0.3, rollout }
    }

    /// The largest gain is read by its estimate, the clearest by its lower end; the warning
    /// names every side whose family-wise interval lies above 2 points, and counts pairs, not
    /// sides.
    #[test]
    fn the_largest_and_the_clearest_gain_and_the_warning() {
        let s = SquadsRollout {
            budget: 12.0,
            distance: 12.0,
            games: 10,
            rollouts: 4,
            stage: "round".into(),
            pairs: vec![
                pair("X", [side(0.30, 0.01), side(0.05, 0.03)]),
                pair("Y", [side(0.10, 0.08), side(-0.01, -0.05)]),
            ],
        };
        let (p, s_, g) = s.largest().unwrap();
        assert_eq!((p.a.as_str(), s_, g.gain.value), ("X", 0, 0.30));
        assert_eq!(
            s.method_words(),
            "a rollout best response against the scripted tactic in the 2 pairs most exploitable one against one \
             (10 duels each, 4 playouts per tactic at each round"
        );
        let (p, s_, _) = s.clearest().unwrap();
        assert_eq!((p.a.as_str(), s_), ("Y", 0));
        // Family-wise over the 4 sides: the half-widths grow by z(0.9875) / z(0.975) ≈ 1.2745.
        let fw = s.family_wise(&s.pairs[1].rollout.sides[0]);
        assert!((fw.value - 0.10).abs() < 1e-12 && (0.10 - fw.lo - 0.02 * 1.2745).abs() < 1e-4, "{fw:?}");
        let w = warning(&s, "in").expect("two sides clear 2 points").message;
        assert!(w.contains("in 2 of the 2 pairs") && w.contains("X v V 5.0 [2.5, 7.5] (V gains)"), "{w}");
        assert!(w.contains("Y v V 10.0 [7.5, 12.5] (Y gains)") && !w.contains("X v V 30.0"), "{w}");
        let calm = SquadsRollout { pairs: vec![pair("X", [side(0.01, -0.01), side(0.0, -0.02)])], ..s };
        assert!(warning(&calm, "in").is_none());
    }

    /// VSGMR's shipped config with two pairs: they are the two pairs the exact solver finds
    /// most exploitable one against one, worst first, each played in its points-matched
    /// squads; the result is the same on one thread and two. With `rollout_pairs` 0 there is
    /// nothing to play. Given the squads' mixes, each pair responds to its own play.
    #[test]
    fn vsgmr_plays_the_pairs_most_exploitable_one_against_one() {
        let mut r = ruleset();
        let units: Vec<String> = r.units().iter().map(|u| u.id.clone()).collect();
        // Three made-up solved pairs (the selection reads only ids and exploitability).
        let solved = |a: usize, b: usize, e: f64| {
            let o = crate::analysis::optimal_play::Outcome { a_wins: 0.5, b_wins: 0.5, draws: 0.0, a_score: 0.5 };
            OptimalPair {
                a: units[a].clone(),
                b: units[b].clone(),
                optimal: o,
                scripted: o,
                a_gain: e,
                b_gain: 0.0,
                exploitability: e,
            }
        };
        let o = OptimalPlay {
            distance: 12.0,
            grid_step: 1.0,
            table_depth: 48.0,
            units: units.clone(),
            pairs: vec![solved(0, 1, 0.1), solved(2, 3, 0.4), solved(4, 5, 0.2)],
            refused: Vec::new(),
            exploitability_max: 0.4,
            exploitability_mean: 0.2,
        };
        r.book.duel.rollout_pairs = 0;
        assert_eq!(analyse(&r, &o, None, 3, &ProgressBar::hidden()), None, "no pairs, nothing played");
        r.book.duel.rollout_pairs = 2;
        r.book.duel.rollout_games = Some(20);
        r.book.duel.rollout_playouts = Some(4);
        let on = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| analyse(&r, &o, None, 3, &ProgressBar::hidden())).expect("two pairs")
        };
        let s = on(2);
        assert_eq!(s, on(1));
        let chosen: Vec<(&str, &str)> = s.pairs.iter().map(|p| (p.a.as_str(), p.b.as_str())).collect();
        assert_eq!(chosen, [(units[2].as_str(), units[3].as_str()), (units[4].as_str(), units[5].as_str())]);
        assert_eq!((s.games, s.rollouts, s.budget), (20, 4, r.book.duel.budget));
        for p in &s.pairs {
            assert_eq!(p.rollout.games, 20);
            for g in &p.rollout.sides {
                assert!(g.gain.lo <= g.gain.value && g.gain.value <= g.gain.hi, "{g:?}");
            }
        }
        assert_eq!(s.base_words(), "the scripted tactic");
        // Against the squads' equilibrium: a pair with a play in the mixes responds to it (here
        // both sides `hold`), one without to the scripted tactic.
        let k = r.squad_tactics().len();
        let hold = r.squad_tactics().iter().position(|t| t.name == "hold").unwrap();
        let mixes = SquadMixes::new(vec![((2, 3), crate::rulesets::skirmish::Play::pure([hold, hold], k))]);
        let s = analyse(&r, &o, Some(&mixes), 3, &ProgressBar::hidden()).expect("two pairs");
        let bases: Vec<Option<[usize; 2]>> = s.pairs.iter().map(|p| p.rollout.base).collect();
        assert_eq!(bases, [Some([hold, hold]), Some([0, 0])]);
        assert_eq!(s.base_words(), "the squads' equilibrium");
    }
}
