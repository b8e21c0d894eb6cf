//! `default`: the option and target worth the most expected points (shoot, advance, charge,
//! rush) — the shared doctrine with no waiting action.

use super::Tactic;
use crate::rulesets::Side;
use crate::rulesets::amc::skirmish::{Caution, Mission};
use crate::rulesets::amc::tactics::doctrine::Decision;
use crate::rulesets::skirmish::TacticInfo;
use crate::rulesets::tactic::Entry;

/// The `default` tactic (module docs).
pub struct Default;

pub const ENTRY: Entry<dyn Tactic> = Entry {
    info: TacticInfo {
        name: "default",
        description: "the option and target worth the most expected points (shoot, advance, charge, rush)",
    },
    tactic: &Default,
};

impl Tactic for Default {
    fn caution(&self, _m: &Mission, _s: Side, _i: usize, _planned: &Decision) -> Option<Caution> {
        None
    }
}
