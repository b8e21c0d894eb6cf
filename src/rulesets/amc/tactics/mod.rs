//! The Mission's tactics (AMC 2.0, "Activation"), one file each behind [`Tactic`]: the default
//! first. Adding one is one file and one line (see [`crate::rulesets::tactic`]).
//!
//! What a tactic decides here: whether a unit takes one of the book's waiting actions (Hunker
//! or Guard) or Holds where it stands instead of the plan the shared doctrine chose for it,
//! and whether it boards a transport. The doctrine itself — which enemy a unit acts against
//! and how (Hold, Advance, Rush, Charge, Fall Back), worth the most expected points
//! ([`crate::rulesets::amc::tactics::doctrine::decide`]) — is the same for every tactic and for
//! the duel.
//!
//! Layer: rulesets (Army Men Combat); imports the mission's game state and the shared
//! [`crate::rulesets::tactic`].

pub mod doctrine;

use crate::rulesets::Side;
use crate::rulesets::amc::skirmish::{Caution, Mission};
use crate::rulesets::amc::tactics::doctrine::Decision;
use crate::rulesets::tactic::portfolio;

/// An Army Men Combat tactic: the decisions in which tactics differ (module docs).
pub trait Tactic: Sync {
    /// Whether unit `i` of side `s` Hunkers, Guards or Holds this activation in mission `m`
    /// instead of the doctrine's plan `planned` (its action against the target and what it is
    /// worth in expected points; `None`: it takes the plan).
    fn caution(&self, m: &Mission, s: Side, i: usize, planned: &Decision) -> Option<Caution>;

    /// Whether an infantry unit whose plan is a Rush boards a friendly transport in reach
    /// (module docs of [`crate::rulesets::amc::skirmish`], "Transport"); asked before
    /// [`Tactic::caution`], in mission `m` for side `s`. The default: it does.
    fn boards(&self, _m: &Mission, _s: Side) -> bool {
        true
    }
}

portfolio!(default, cautious, hold, attack_if_stronger);
