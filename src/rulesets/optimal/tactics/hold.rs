//! `hold`: hold the ground and fire. Never moves; takes the option that trades best where it
//! stands, and the first option the game lists without a move when none trades; where the
//! enemy can hurt it from where both stand, the option that takes most of the enemy, whatever
//! it costs itself (a blast that catches its own firer).

use super::{Tactic, View, first_max, key};
use crate::rulesets::optimal::Choice;
use crate::rulesets::skirmish::TacticInfo;
use crate::rulesets::tactic::Entry;

/// The `hold` tactic (module docs).
pub struct Hold;

pub const ENTRY: Entry<dyn Tactic> = Entry {
    info: TacticInfo { name: "hold", description: "hold the ground and fire: never move, take the best trade from here" },
    tactic: &Hold,
};

impl Tactic for Hold {
    fn choose(&self, v: &View<'_>) -> Choice {
        let all = v.options();
        let here: Vec<Choice> = all.iter().copied().filter(|c| c.advance == 0).collect();
        let opts = if here.is_empty() { &all } else { &here };
        // Where the enemy can hurt it anyway, the most it can take of the enemy, then the
        // trade; elsewhere the best trade.
        if v.threatened() { first_max(opts, |c| (key(v.dealt(c)), key(v.trade(c)))) } else { first_max(opts, |c| key(v.trade(c))) }
    }

    /// On winning an initiative roll-off: acts first where an option without a move trades, else lets
    /// the enemy come.
    fn acts_first(&self, v: &View<'_>) -> bool {
        v.options().into_iter().any(|c| c.advance == 0 && key(v.trade(c)) > 0)
    }
}
