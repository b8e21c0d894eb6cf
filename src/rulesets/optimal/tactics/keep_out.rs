//! `keep-out`: keep out of the enemy's threat range (its move plus its range) and fire from
//! its edge. Among the options that leave the enemy unable to hurt it next activation, the one
//! that trades best, then the one nearest the enemy (the edge of the threat range); where no
//! option is out of reach, the one that leaves the largest gap, then the best trade.

use super::{Tactic, View, first_max, key};
use crate::rulesets::optimal::Choice;
use crate::rulesets::skirmish::TacticInfo;
use crate::rulesets::tactic::Entry;

/// The `keep-out` tactic (module docs).
pub struct KeepOut;

pub const ENTRY: Entry<dyn Tactic> = Entry {
    info: TacticInfo {
        name: "keep-out",
        description: "keep out of the enemy's threat range (its move plus its range) and fire from its edge",
    },
    tactic: &KeepOut,
};

impl Tactic for KeepOut {
    fn choose(&self, v: &View<'_>) -> Choice {
        first_max(&v.options(), |c| {
            let gap = v.gap_after(c);
            if v.exposed(c) { (0, key(gap), key(v.trade(c))) } else { (1, key(v.trade(c)), key(-gap)) }
        })
    }

    /// On winning an initiative roll-off: acts first (to step out) where the enemy could hurt it from where both stand, else lets the enemy move first.
    fn acts_first(&self, v: &View<'_>) -> bool {
        v.threatened()
    }
}
