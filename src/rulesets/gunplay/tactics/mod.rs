//! Gunplay's tactics (the rulebook's "Actions" read as a plan of a character's two actions),
//! one file each behind [`Tactic`]: the default first. Adding one is one file and one line
//! (see [`crate::rulesets::tactic`]).
//!
//! What a tactic decides here: the next action of an Up character (Aim, Fire, move and fire,
//! move, charge, strike, pass) against its target. Which target it takes, and how an action is
//! carried out on the table (cover, straight or cautious moves), is the skirmish's shared
//! doctrine (`skirmish/mod.rs`). The one-against-one duel, its exact chain and the optimal
//! game's scripted side play the default tactic; the skirmish plays the portfolio (`default`,
//! `hold`, `close-assault`, `stand-off`), and so do the points-matched squads (each side's
//! tactic for a whole duel, [`crate::rulesets::DuelSetup::tactics`], drawn from its pair's
//! equilibrium of the squads' tactic game), where the duel's straight line has no walls: a
//! tactic's action is carried out by [`crate::rulesets::gunplay::rules::activate`].
//!
//! Layer: rulesets (Gunplay); imports the rules' plan vocabulary and the shared
//! [`crate::rulesets::tactic`].

use crate::rulesets::gunplay::rules::{Action, Situation};
use crate::rulesets::gunplay::{Gunplay, Profile};
use crate::rulesets::tactic::portfolio;

/// A Gunplay tactic: the decisions in which tactics differ (module docs).
pub trait Tactic: Sync {
    /// The next action of an Up character with profile `p` and `actions` (1 or 2) actions
    /// left, against a target with profile `foe`, in situation `s` (distance in inches, both
    /// sides' wounds); `r` is the ruleset at the cover level between them.
    fn next_action(&self, r: &Gunplay, p: &Profile, foe: &Profile, s: &Situation, actions: u8) -> Action;
}

portfolio!(default, hold, close_assault, stand_off);
