//! The Skirmish's tactics (GnG 1.5, "Types of Games"), one file each behind [`Tactic`]: the
//! default first. Adding one is one file and one line (see [`crate::rulesets::tactic`]).
//!
//! What a tactic decides here: whether a unit waits where it stands this activation. Everything
//! else of an activation is the shared doctrine of the turn loop (`skirmish/turn.rs`: heal the
//! most valuable wounded unit in reach, destroy cover with enemies behind it, attack the target
//! worth most, walk to cover on the way, Bayonet charge, focus fire, play the mission's
//! objectives), decided from what a player sees (positions, ranges, moves, health, cover).
//!
//! Layer: rulesets (Guns 'N Grenades); imports the skirmish's game state and the shared
//! [`crate::rulesets::tactic`].

use crate::rulesets::Side;
use crate::rulesets::gng::skirmish::Skirmish;
use crate::rulesets::tactic::portfolio;

/// A Guns 'N Grenades tactic: the decisions in which tactics differ (module docs).
pub trait Tactic: Sync {
    /// Whether unit `i` of side `s` waits where it stands this activation in game `g`: it
    /// neither walks to cover further on nor charges, but still heals, attacks from where it
    /// stands, hunkers and plays an objective.
    fn waits(&self, g: &Skirmish, s: Side, i: usize) -> bool;
}

portfolio!(advance, cautious, hold, attack_if_stronger);
