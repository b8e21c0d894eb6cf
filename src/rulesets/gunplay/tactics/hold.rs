//! `hold`: hold and fire. A character never moves: it aims and fires from where it stands when
//! its target is within its weapon's Extreme range (or strikes, in contact, where a strike is
//! worth more than a shot), and otherwise passes ([`rules::plan_in_place`]; Gunplay, "Actions", "Shooting"). The plan of a side that
//! lets the enemy come to it: it keeps whatever cover it stands in and never walks into the
//! enemy's better range bands, but a side whose weapons do not reach the enemy's never fires.

use super::Tactic;
use crate::rulesets::gunplay::rules::{self, Action, Situation};
use crate::rulesets::gunplay::{Gunplay, Profile};
use crate::rulesets::skirmish::TacticInfo;
use crate::rulesets::tactic::Entry;

/// The `hold` tactic (module docs).
pub struct Hold;

pub const ENTRY: Entry<dyn Tactic> = Entry {
    info: TacticInfo {
        name: "hold",
        description: "hold and fire: never move; aim and fire (or strike, in contact) from where it stands, else pass",
    },
    tactic: &Hold,
};

impl Tactic for Hold {
    /// [`rules::plan_in_place`].
    fn next_action(&self, r: &Gunplay, p: &Profile, foe: &Profile, s: &Situation, actions: u8) -> Action {
        rules::plan_in_place(r, p, foe, s, actions)
    }
}
