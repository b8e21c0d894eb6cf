//! The rollout best response in Gunplay's duels (issue 41, "Exploitability at every level"):
//! one character a side, or points-matched squads, the responding side picking at each game
//! turn one of the skirmish tactics ([`crate::rulesets::gunplay::tactics`]: `default`, `hold`,
//! `close-assault`, `stand-off`) by playouts, each continued by that tactic
//! ([`crate::rulesets::rollout`]); the other side plays its base play throughout: the default
//! tactic, or in points-matched squads the pair's equilibrium of the squads' tactic game, a
//! tactic drawn for each duel from its mix.
//!
//! The duel is the Monte Carlo duel's ([`rules::play`], played turn by turn through
//! [`rules::duel_round`]): both lines on open ground (or the `[rules] cover` in force) at the
//! start distance, the first turn's leader a fair coin drawn from the game's dice. One against
//! one, its gain is comparable with the exact best response's gain against the default tactic on
//! the optimal-play grid ([`crate::rulesets::optimal`]; `OptimalDuel::a_best_response`), which
//! may move by any whole number of 3" grid steps at each action: the rollout chooses among
//! four plans per turn, so it recovers the part of that gain those plans can reach.
//!
//! Layer: rulesets (Gunplay); imports the shared rollout and the Gunplay rules.

use crate::dice::{Dice, FastDice};
use crate::rulesets::gunplay::Gunplay;
use crate::rulesets::gunplay::rules::{self, Battle};
use crate::rulesets::rollout::Staged;
use crate::rulesets::{Ruleset, Side};

/// A Gunplay duel in progress, played game turn by game turn.
#[derive(Clone)]
pub struct StagedDuel<'a> {
    r: &'a Gunplay,
    b: Battle,
    first: Side,
    max_rounds: u32,
}

impl Staged for StagedDuel<'_> {
    fn stage(&mut self, dice: &mut FastDice) -> Option<Option<Side>> {
        rules::duel_round(self.r, &mut self.b, dice, self.first, self.max_rounds).map(|o| o.winner)
    }

    fn set_tactic(&mut self, s: Side, t: usize) {
        self.b.tactic[s] = t;
    }
}

/// The duel of loadout `a` (side A) against `b` starting `distance` inches apart, set up for
/// the rollout best response ([`crate::rulesets::rollout::duel_best_response`], which draws the sizes and each side's
/// base tactic; `Ruleset::duel_rollout`): both lines on the `[duel]` line, each side on its
/// tactic, the first turn's leader a fair coin drawn from the game's dice.
pub fn deploy<'a>(
    r: &'a Gunplay,
    (a, b): (usize, usize),
    distance: f64,
) -> impl Fn(&mut FastDice, [u32; 2], [usize; 2]) -> StagedDuel<'a> + Sync + 'a {
    let duel = &r.book().duel;
    move |dice, [na, nb], tactics| {
        let mut battle = Battle::default();
        battle.deploy_lines(a, na, b, nb, distance as f32, duel.spacing() as f32);
        battle.tactic = tactics;
        StagedDuel { r, b: battle, first: dice.below(2), max_rounds: duel.max_rounds }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::gunplay::Cover;
    use crate::rulesets::gunplay::tests::ruleset;
    use crate::rulesets::skirmish::Play;
    use indicatif::ProgressBar;

    fn tactic(name: &str) -> usize {
        crate::rulesets::gunplay::tactics::TACTICS.iter().position(|t| t.name == name).expect(name)
    }

    /// The rollout over the skirmish tactics is a policy like any other: its gain's interval
    /// starts no higher than the exact best response's gain on the optimal-play grid (allowing
    /// 3 points for the Monte Carlo duel's continuous line against the solver's 3" grid), at
    /// the report distance (24") where the default tactic is exploitable: in Pistol v Shotgun
    /// the exact response gains 5.7 points for the Pistol, 15.3 for the Shotgun, and the
    /// rollout finds a clear part of the Shotgun's (`stand-off`; about +7.9 at 2,000 duels,
    /// `docs/method.md`).
    #[test]
    fn the_rollout_gains_no_more_than_the_exact_best_response() {
        let r = ruleset(Cover::Open);
        let (pistol, shotgun) = (r.find("Pistol"), r.find("Shotgun"));
        let exact = r.optimal_duel(pistol, shotgun, 24.0).unwrap();
        let g = r.duel_rollout((pistol, shotgun), 24.0, None, (400, 16), 5, None, &ProgressBar::hidden()).unwrap();
        for (s, gain) in [(0, exact.a_gain()), (1, exact.b_gain())] {
            let x = g.sides[s].gain;
            assert!(x.lo <= gain + 0.03, "side {s}: rollout {x:?} beyond the exact gain {gain}");
        }
        assert!(exact.b_gain() > 0.1, "the default tactic is exploitable here: {exact:?}");
        assert!(g.sides[1].gain.lo > 0.0 && g.sides[1].switched > 0.0, "the Shotgun's gain is clear: {g:?}");
    }

    /// The base play reaches the duels: a Pistol (Extreme range 36") and a Shotgun (48") 50"
    /// apart that both `hold` never fire, so with that base every duel is drawn (A scores ½
    /// exactly), and a responding side that never leaves its base tactic gains nothing.
    #[test]
    fn the_rollout_responds_to_the_base_play_it_is_given() {
        let r = ruleset(Cover::Open);
        let (pistol, shotgun) = (r.find("Pistol"), r.find("Shotgun"));
        let k = crate::rulesets::gunplay::tactics::TACTICS.len();
        let held = Play::pure([tactic("hold"), tactic("hold")], k);
        let g = r.duel_rollout((pistol, shotgun), 50.0, None, (40, 2), 3, Some(&held), &ProgressBar::hidden()).unwrap();
        assert_eq!((g.base, g.base_score), (Some([tactic("hold"), tactic("hold")]), 0.5), "{g:?}");
        for side in &g.sides {
            assert!(side.switched > 0.0 || side.gain.value == 0.0, "no switch, no gain: {g:?}");
        }
        // Without a base play both sides play the default tactic, which closes and fights (the
        // draws are counted in `the_duel_plays_each_sides_tactic`).
        let scripted = r.duel_rollout((pistol, shotgun), 50.0, None, (40, 2), 3, None, &ProgressBar::hidden()).unwrap();
        assert_eq!(scripted.base, Some([0, 0]), "{scripted:?}");
    }

    /// Turn by turn is [`rules::play`]: the same outcome after the same dice, on every tactic.
    #[test]
    fn a_duel_played_turn_by_turn_ends_as_played_whole() {
        let r = ruleset(Cover::Open);
        let (a, b) = (r.find("Shotgun"), r.find("Rifle"));
        let k = crate::rulesets::gunplay::tactics::TACTICS.len();
        for n in 0..60u64 {
            let mut dice = FastDice::from_seed(n);
            let mut battle = Battle::default();
            battle.deploy_lines(a, 2, b, 2, 24.0, 2.0);
            battle.tactic = [n as usize % k, (n as usize / k) % k];
            let first = (n % 2) as usize;
            let staged = StagedDuel { r: &r, b: battle.clone(), first, max_rounds: 30 };
            let staged_dice = dice.clone();
            let whole = rules::play(&r, &mut battle, &mut dice, first, 30);
            crate::rulesets::rollout::assert_plays_as_whole(staged, staged_dice, whole.winner, &format!("duel {n}"));
        }
    }
}
