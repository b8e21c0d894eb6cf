//! The Mission's tactics (AMC 2.0, "Activation"), one file each behind [`Tactic`]: the default
//! first. Adding one is one file and one line (see [`crate::rulesets::tactic`]).
//!
//! What a tactic decides here: whether a unit takes one of the book's waiting actions (Hunker
//! or Guard) instead of the plan the shared doctrine chose for it. The doctrine itself —
//! which enemy a unit acts against and how (Hold, Advance, Rush, Charge, Fall Back), worth the
//! most expected points ([`crate::rulesets::amc::tactics::doctrine::decide`]) — is the same for every
//! tactic and for the duel.
//!
//! Layer: rulesets (Army Men Combat); imports the mission's game state and the shared
//! [`crate::rulesets::tactic`].

pub mod doctrine;

use crate::rulesets::Side;
use crate::rulesets::amc::skirmish::{Caution, Mission};
use crate::rulesets::tactic::portfolio;

/// An Army Men Combat tactic: the decisions in which tactics differ (module docs).
pub trait Tactic: Sync {
    /// Whether unit `i` of side `s` Hunkers or Guards this activation in mission `m` instead
    /// of the doctrine's plan, worth `planned` expected points (`None`: it takes the plan).
    fn caution(&self, m: &Mission, s: Side, i: usize, planned: f64) -> Option<Caution>;
}

portfolio!(default, cautious);
