//! The rollout best response in one-against-one duels, where the optimal-play solver knows the
//! exact best response (issue 41: "validate it where the truth is known").
//!
//! The duel is the Monte Carlo duel's ([`rules::play`], played round by round through
//! [`rules::duel_round`]): one figure a side at the start distance on the 48" duel table, the
//! first side of round 1 a fair coin drawn from the game's dice. The responding side picks, at
//! each round, one of the skirmish tactics ([`crate::rulesets::vsgmr::tactics`]: `default`,
//! `hold`, `charge`, `keep-out`) by playouts, each continued by that tactic
//! ([`crate::rulesets::rollout`]); the other side plays the scripted (default) tactic
//! throughout. Its gain is comparable with the exact best response's gain against the scripted
//! tactic on the optimal-play grid ([`crate::rulesets::optimal`];
//! `OptimalDuel::a_best_response`), which may move by any whole number of grid steps at each
//! activation and choose who acts first on winning the initiative: the rollout chooses among
//! four plans per round, so it recovers the part of that gain those plans can reach.
//!
//! Layer: rulesets (VSGMR); imports the shared rollout and the VSGMR rules.

use indicatif::ProgressBar;

use crate::dice::{Dice, FastDice};
use crate::rulesets::rollout::{RolloutGain, RolloutRun, Staged, best_response};
use crate::rulesets::vsgmr::Vsgmr;
use crate::rulesets::vsgmr::rules::{self, Battle};
use crate::rulesets::{Ruleset, Side};

/// A VSGMR duel in progress, played round by round.
#[derive(Clone)]
pub struct StagedDuel<'a> {
    r: &'a Vsgmr,
    b: Battle,
    first: Side,
    max_rounds: u32,
    scratch: Vec<usize>,
}

impl Staged for StagedDuel<'_> {
    fn stage(&mut self, dice: &mut FastDice) -> Option<Option<Side>> {
        rules::duel_round(self.r, &mut self.b, dice, self.first, self.max_rounds, &mut self.scratch).map(|o| o.winner)
    }

    fn set_tactic(&mut self, s: Side, t: usize) {
        self.b.tactic[s] = t;
    }
}

/// The rollout best response of each side of the duel of one figure of template `a` (side A)
/// against one of `b` starting `distance` inches apart, against the scripted tactic on both
/// sides: `games` duels, `rollouts` playouts per tactic at each round, seeded from `seed` on the
/// pair's own stream. `progress` advances one per duel. Panics as
/// [`crate::rulesets::rollout::best_response`] does (fewer than 2 games or 2 playouts).
pub fn duel_rollout(
    r: &Vsgmr,
    (a, b): (usize, usize),
    distance: f64,
    (games, rollouts): (u64, u32),
    seed: u64,
    progress: &ProgressBar,
) -> RolloutGain {
    let units = r.units();
    let stream = crate::seed::stream_id(&["vsgmr", "duel", &units[a].id, &units[b].id, "rollout"]);
    let tactics = crate::rulesets::vsgmr::tactics::TACTICS.len();
    let run = RolloutRun { seed, stream, games, rollouts, tactics, base: [0, 0] };
    let duel = &r.book().duel;
    let start = |dice: &mut FastDice| {
        let mut battle = Battle::default();
        battle.deploy(r, a, 1, b, 1, distance as f32, duel.spacing() as f32);
        StagedDuel { r, b: battle, first: dice.below(2), max_rounds: duel.max_rounds, scratch: Vec::new() }
    };
    best_response(&run, start, progress)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::vsgmr::tests::ruleset;

    /// The validation of issue 41 on three of the pairs where the scripted tactic is most
    /// exploitable at the report distance (12"; the exact best response gains 24–58 points
    /// there, `reports/vsgmr/optimal_play.csv`): the rollout over the skirmish tactics is a
    /// policy like any other, so its gain's interval starts no higher than the exact best
    /// response's gain (allowing 3 points for the Monte Carlo duel's continuous line against
    /// the solver's 1" grid). How much of the exact gain it recovers (the issue's target: 80%)
    /// is the table in `docs/method.md`: 40–55% on three of the twenty sides of the ten worst
    /// pairs, little elsewhere, for want of the plans the exact response plays.
    #[test]
    fn the_rollout_gains_no_more_than_the_exact_best_response() {
        let r = ruleset();
        let vehicle = r.find("Independent vehicle");
        for a in ["Hero with distance attack", "Mook with distance attack", "Troop with distance attack"] {
            let a = r.find(a);
            let exact = r.optimal_duel(a, vehicle, 12.0).unwrap();
            let g = duel_rollout(&r, (a, vehicle), 12.0, (300, 16), 5, &ProgressBar::hidden());
            for (s, gain) in [(0, exact.a_gain()), (1, exact.b_gain())] {
                let x = g.sides[s].gain;
                assert!(x.lo <= gain + 0.03, "side {s}: rollout {x:?} beyond the exact gain {gain}");
                assert!(gain > 0.2, "side {s}: the scripted tactic is exploitable here, exact {gain}");
            }
        }
    }

    /// Round by round is [`rules::play`]: the same outcome after the same dice.
    #[test]
    fn a_duel_played_round_by_round_ends_as_played_whole() {
        let r = ruleset();
        let (a, b) = (r.find("Troop"), r.find("Hero with distance attack"));
        for k in 0..50 {
            let mut dice = FastDice::from_seed(k);
            let mut battle = Battle::default();
            battle.deploy(&r, a, 1, b, 1, 12.0, 1.0);
            let staged =
                StagedDuel { r: &r, b: battle.clone(), first: (k % 2) as usize, max_rounds: 40, scratch: Vec::new() };
            let staged_dice = dice.clone();
            let whole = rules::play(&r, &mut battle, &mut dice, (k % 2) as usize, 40);
            crate::rulesets::rollout::assert_plays_as_whole(staged, staged_dice, whole.winner, &format!("duel {k}"));
        }
    }
}
