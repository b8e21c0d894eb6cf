//! VSGMR's Skirmish tactics (section II, "Rounds"), one file each behind [`Tactic`]: the
//! default first. Adding one is one file and one line (see [`crate::rulesets::tactic`]).
//!
//! What a tactic decides here: where each figure moves in the movement step (section II.2).
//! Which attack it makes and at whom is the shared doctrine of the round (`rules.rs`:
//! [`crate::rulesets::vsgmr::rules::attack_choice`], the nearest enemy a shot can defeat).
//! The duel, its exact chain and the optimal game's scripted side play the default tactic.
//!
//! Layer: rulesets (VSGMR); imports the battle state and the shared [`crate::rulesets::tactic`].

use crate::rulesets::Side;
use crate::rulesets::tactic::portfolio;
use crate::rulesets::vsgmr::{Battle, Vsgmr};

/// A VSGMR tactic: the decisions in which tactics differ (module docs).
pub trait Tactic: Sync {
    /// Section II.2 "Movement": moves figure `i` of battle `b` (inches), or leaves it where it
    /// stands.
    fn move_figure(&self, r: &Vsgmr, b: &mut Battle, i: usize);

    /// Section II.1 "Initiative": whether side `s`, having won the roll-off, takes the first
    /// turn (true: the default tactic's choice, so that it moves and attacks first) or gives it
    /// to the other side.
    fn acts_first(&self, _r: &Vsgmr, _b: &Battle, _s: Side) -> bool {
        true
    }
}

portfolio!(default, hold, charge, keep_out);

#[cfg(test)]
mod tests;
