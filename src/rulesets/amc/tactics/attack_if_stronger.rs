//! `attack-if-stronger`: the default plan while behind on the score, or level with a stronger
//! force left than the enemy's; otherwise hold the ground as `hold` does. The mission is won
//! by the higher score (the points of enemy units destroyed or Pinned at the end), equal is a
//! draw (AMC 2.0, "Preparation", Mission; `docs/rulings/army-men-combat.md`, "The mission"):
//! a side ahead keeps its lead by holding, a side behind loses by holding, and of two level
//! sides the stronger has the better of an exchange, so it goes at the enemy while the weaker
//! is content with a draw.
//!
//! What it sees: both scores and which units are destroyed or Pinned, as both players do on
//! the table. A side's strength is the points of its units neither destroyed nor Pinned (its
//! army's points less the enemy's score).

use super::Tactic;
use super::hold::Hold;
use crate::rulesets::Side;
use crate::rulesets::amc::skirmish::{Caution, Mission};
use crate::rulesets::amc::tactics::doctrine::Decision;
use crate::rulesets::skirmish::TacticInfo;
use crate::rulesets::tactic::Entry;

/// The `attack-if-stronger` tactic (module docs).
pub struct AttackIfStronger;

pub const ENTRY: Entry<dyn Tactic> = Entry {
    info: TacticInfo {
        name: "attack-if-stronger",
        description: "hold while ahead on the score; the default plan when behind, or when level with more points neither destroyed nor Pinned than the enemy",
    },
    tactic: &AttackIfStronger,
};

/// The points of side `s`'s units neither destroyed nor Pinned: its army's points less the
/// enemy's score ([`Mission::score`], which counts the rest).
pub fn strength(m: &Mission, s: Side) -> f64 {
    m.sides[s].iter().map(|u| m.all[u.entry].1.cost).sum::<f64>() - m.score(1 - s)
}

/// Whether side `s` attacks: behind on the score ([`Mission::score`]), or level (within
/// 1e-9 points) with more [`strength`] than the enemy (by more than 1e-9 points).
pub fn attacks(m: &Mission, s: Side) -> bool {
    let (mine, theirs) = (m.score(s), m.score(1 - s));
    if mine + 1e-9 < theirs {
        return true;
    }
    if theirs + 1e-9 < mine {
        return false;
    }
    strength(m, s) > strength(m, 1 - s) + 1e-9
}

impl Tactic for AttackIfStronger {
    /// No caution (the doctrine's plan) when the side attacks ([`attacks`]), else [`Hold`]'s.
    fn caution(&self, m: &Mission, s: Side, i: usize, planned: &Decision) -> Option<Caution> {
        if attacks(m, s) { None } else { Hold.caution(m, s, i, planned) }
    }

    /// Boards a transport only while attacking (holding, a unit stays on foot, as `hold`'s).
    fn boards(&self, m: &Mission, s: Side) -> bool {
        attacks(m, s)
    }
}
