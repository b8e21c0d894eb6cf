//! The rollout best response in one-against-one duels, where the optimal-play solver knows the
//! exact best response (issue 41: "validate it where the truth is known").
//!
//! The duel is the Monte Carlo duel's ([`rules::play`], played round by round through
//! [`rules::duel_round`]): one figure a side at the start distance on the 48" duel table, the
//! first side of round 1 a fair coin drawn from the game's dice. The responding side picks, at
//! each round, one of the skirmish tactics ([`crate::rulesets::vsgmr::tactics`]: `default`,
//! `hold`, `charge`, `keep-out`) by playouts, each continued by that tactic
//! ([`crate::rulesets::rollout`]); the other side plays its base play throughout: the
//! scripted (default) tactic, or in points-matched squads the pair's equilibrium of the squads'
//! tactic game, a tactic drawn for each duel from its mix. Its gain is comparable with the exact best response's gain against the scripted
//! tactic on the optimal-play grid ([`crate::rulesets::optimal`];
//! `OptimalDuel::a_best_response`), which may move by any whole number of grid steps at each
//! activation and choose who acts first on winning the initiative: the rollout chooses among
//! four plans per round, so it recovers the part of that gain those plans can reach.
//!
//! Layer: rulesets (VSGMR); imports the shared rollout and the VSGMR rules.

use crate::dice::{Dice, FastDice};
use crate::rulesets::rollout::Staged;
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

/// The duel of template `a` (side A) against `b` starting `distance` inches apart, set up for
/// the rollout best response ([`crate::rulesets::rollout::duel_best_response`], which draws the sizes and each side's
/// base tactic; `Ruleset::duel_rollout`): each force in a line on the duel table, each side on
/// its tactic, the first side of round 1 a fair coin drawn from the game's dice.
pub fn deploy<'a>(
    r: &'a Vsgmr,
    (a, b): (usize, usize),
    distance: f64,
) -> impl Fn(&mut FastDice, [u32; 2], [usize; 2]) -> StagedDuel<'a> + Sync + 'a {
    let duel = &r.book().duel;
    move |dice, [na, nb], tactics| {
        let mut battle = Battle::default();
        battle.deploy(r, a, na, b, nb, distance as f32, duel.spacing() as f32);
        battle.tactic = tactics;
        StagedDuel { r, b: battle, first: dice.below(2), max_rounds: duel.max_rounds, scratch: Vec::new() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::skirmish::Play;
    use crate::rulesets::vsgmr::tests::ruleset;
    use indicatif::ProgressBar;

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
            let g = r.duel_rollout((a, vehicle), 12.0, None, (300, 16), 5, None, &ProgressBar::hidden()).unwrap();
            for (s, gain) in [(0, exact.a_gain()), (1, exact.b_gain())] {
                let x = g.sides[s].gain;
                assert!(x.lo <= gain + 0.03, "side {s}: rollout {x:?} beyond the exact gain {gain}");
                assert!(gain > 0.2, "side {s}: the scripted tactic is exploitable here, exact {gain}");
            }
        }
    }

    /// The base play reaches the duels: a Troop and a Hero with heavy armor (hand to hand only)
    /// 12" apart that both `hold` never meet, so with that base every duel is drawn (A scores ½
    /// exactly; on the scripted tactic the Hero wins about 69% of them, and the Troop scores
    /// below 45% in these 60), and a responding side that never leaves its base tactic gains
    /// nothing; a base whose side B draws its tactic from a mix is reported as mixes.
    #[test]
    fn the_rollout_responds_to_the_base_play_it_is_given() {
        let r = ruleset();
        let (troop, hero) = (r.find("Troop"), r.find("Hero with heavy armor"));
        let k = crate::rulesets::vsgmr::tactics::TACTICS.len();
        let hold = crate::rulesets::vsgmr::tactics::TACTICS.iter().position(|t| t.name == "hold").unwrap();
        let held = Play::pure([hold, hold], k);
        let g = r.duel_rollout((troop, hero), 12.0, None, (60, 2), 3, Some(&held), &ProgressBar::hidden()).unwrap();
        assert_eq!((g.base, g.base_score), (Some([hold, hold]), 0.5), "{g:?}");
        for side in &g.sides {
            assert!(side.switched > 0.0 || side.gain.value == 0.0, "no switch, no gain: {g:?}");
        }
        let scripted = r.duel_rollout((troop, hero), 12.0, None, (60, 2), 3, None, &ProgressBar::hidden()).unwrap();
        assert!(scripted.base_score < 0.45, "the Hero beats the Troop: {scripted:?}");
        let mut mix = vec![0.0; k];
        (mix[0], mix[hold]) = (0.5, 0.5);
        let mixed = Play { mixes: [crate::rulesets::skirmish::pure_mix(hold, k), mix] };
        let g = r.duel_rollout((troop, hero), 12.0, None, (20, 2), 3, Some(&mixed), &ProgressBar::hidden()).unwrap();
        assert_eq!((g.base, g.mixes.as_ref()), (None, Some(&mixed.mixes)), "{g:?}");
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
