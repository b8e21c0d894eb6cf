//! `charge`: close assault. Closes the gap as fast as its options allow, then takes the best
//! trade from where it lands.

use super::{Tactic, View, first_max, key};
use crate::rulesets::optimal::Choice;
use crate::rulesets::skirmish::TacticInfo;
use crate::rulesets::tactic::Entry;

/// The `charge` tactic (module docs).
pub struct Charge;

pub const ENTRY: Entry<dyn Tactic> = Entry {
    info: TacticInfo { name: "charge", description: "close assault: close the gap as fast as possible, then trade best" },
    tactic: &Charge,
};

impl Tactic for Charge {
    fn choose(&self, v: &View<'_>) -> Choice {
        first_max(&v.options(), |c| (key(-v.gap_after(c)), key(v.trade(c))))
    }
}
