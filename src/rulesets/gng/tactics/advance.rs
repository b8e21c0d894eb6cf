//! `default`: advance, take cover on the way, attack what it can, focus fire — the shared
//! doctrine of the turn loop with no waiting.

use super::Tactic;
use crate::rulesets::Side;
use crate::rulesets::gng::skirmish::Skirmish;
use crate::rulesets::skirmish::TacticInfo;
use crate::rulesets::tactic::Entry;

/// The `default` tactic (module docs).
pub struct Advance;

pub const ENTRY: Entry<dyn Tactic> = Entry {
    info: TacticInfo { name: "default", description: "advance, take cover on the way, attack what it can, focus fire" },
    tactic: &Advance,
};

impl Tactic for Advance {
    fn waits(&self, _g: &Skirmish, _s: Side, _i: usize) -> bool {
        false
    }
}
