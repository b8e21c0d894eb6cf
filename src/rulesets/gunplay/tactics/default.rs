//! `default`: the skirmish plan — move to cover or into range, aim when it pays, fire or
//! charge (the rules' default tactic, [`crate::rulesets::gunplay::rules::plan`], which the
//! duel and the optimal game's scripted side share).

use super::Tactic;
use crate::rulesets::gunplay::rules::{self, Action, Situation};
use crate::rulesets::gunplay::{Gunplay, Profile};
use crate::rulesets::skirmish::TacticInfo;
use crate::rulesets::tactic::Entry;

/// The `default` tactic (module docs).
pub struct DefaultTactic;

pub const ENTRY: Entry<dyn Tactic> = Entry {
    info: TacticInfo {
        name: "default",
        description: "the skirmish plan: move to cover or into range, aim when it pays, fire or charge",
    },
    tactic: &DefaultTactic,
};

impl Tactic for DefaultTactic {
    /// The first action of [`rules::plan`].
    fn next_action(&self, r: &Gunplay, p: &Profile, foe: &Profile, s: &Situation, actions: u8) -> Action {
        rules::plan(r, p, foe, s, actions)[0]
    }
}
