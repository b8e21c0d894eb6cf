//! `best-trade`: the option whose immediate trade (the enemy's expected loss of strength minus
//! its own) is best; where nothing trades, the one that closes the gap most.

use super::{Tactic, View, first_max, key};
use crate::rulesets::optimal::Choice;
use crate::rulesets::skirmish::TacticInfo;
use crate::rulesets::tactic::Entry;

/// The `best-trade` tactic (module docs).
pub struct BestTrade;

pub const ENTRY: Entry<dyn Tactic> = Entry {
    info: TacticInfo {
        name: "best-trade",
        description: "take the best immediate trade of strength; close in when nothing trades",
    },
    tactic: &BestTrade,
};

impl Tactic for BestTrade {
    fn choose(&self, v: &View<'_>) -> Choice {
        first_max(&v.options(), |c| (key(v.trade(c)), key(-v.gap_after(c))))
    }
}
