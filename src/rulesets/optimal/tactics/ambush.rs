//! `ambush`: wait beyond the enemy's threat range and strike first when it comes within one's
//! own. Any option that trades (hurts the enemy more than itself, on average) is taken, the
//! best first; otherwise the option that stays out of the enemy's reach nearest to it (so
//! that an enemy stepping in is within reach); where none stays out, the one that leaves the
//! largest gap, then takes most of the enemy (cornered, it fires even into its own blast).

use super::{Tactic, View, first_max, key};
use crate::rulesets::optimal::Choice;
use crate::rulesets::skirmish::TacticInfo;
use crate::rulesets::tactic::Entry;

/// The `ambush` tactic (module docs).
pub struct Ambush;

pub const ENTRY: Entry<dyn Tactic> = Entry {
    info: TacticInfo {
        name: "ambush",
        description: "wait just beyond the enemy's threat range; strike first when it comes within reach",
    },
    tactic: &Ambush,
};

impl Tactic for Ambush {
    fn choose(&self, v: &View<'_>) -> Choice {
        first_max(&v.options(), |c| {
            let (trade, gap) = (key(v.trade(c)), key(v.gap_after(c)));
            if trade > 0 {
                (2, trade, -gap)
            } else if !v.exposed(c) {
                (1, -gap, trade)
            } else {
                // Cornered: the largest gap, then the most it can take of the enemy.
                (0, gap, key(v.dealt(c)))
            }
        })
    }

    /// On winning an initiative roll-off: strikes first where some option trades, else waits for the enemy to act.
    fn acts_first(&self, v: &View<'_>) -> bool {
        v.can_trade()
    }
}
