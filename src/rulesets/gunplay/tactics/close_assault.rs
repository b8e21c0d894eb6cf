//! `close-assault`: close in and fight hand to hand. A character strikes when in contact,
//! charges when its target is within a Quick Move of contact ("Charge: quick move into contact
//! and a round of melee"), and otherwise Quick Moves at its target, firing on the move where
//! its weapon reaches the target from where the move ends (the move's −1 column), else moving
//! without firing (to cover on the way where the shared doctrine finds some). Gunplay,
//! "Actions", "Movement", "Melee". The plan of a player who rushes the enemy's line: it gives
//! the enemy the fewest turns at long range and fights in melee, where every loadout strikes
//! alike.

use super::Tactic;
use crate::rulesets::gunplay::rules::{self, Action, EPS, Situation};
use crate::rulesets::gunplay::{Gunplay, Profile};
use crate::rulesets::skirmish::TacticInfo;
use crate::rulesets::tactic::Entry;

/// The `close-assault` tactic (module docs).
pub struct CloseAssault;

pub const ENTRY: Entry<dyn Tactic> = Entry {
    info: TacticInfo {
        name: "close-assault",
        description: "close in and fight hand to hand: quick moves at the target (firing on the move where it \
                      reaches), charge within a quick move of contact, strike in contact",
    },
    tactic: &CloseAssault,
};

impl Tactic for CloseAssault {
    fn next_action(&self, r: &Gunplay, p: &Profile, _foe: &Profile, s: &Situation, _actions: u8) -> Action {
        let (contact, quick) = (r.book.rules.contact, r.book.rules.quick_move);
        let d = s.distance;
        if d <= contact + EPS {
            return Action::Strike;
        }
        if d - contact <= quick + EPS {
            return Action::Charge;
        }
        let by = quick.min(d - contact);
        if rules::fire_value(r, p, s, d - by, false, true) > 0.0 {
            Action::MoveFire { quick: true, by }
        } else {
            Action::Move { by }
        }
    }
}
