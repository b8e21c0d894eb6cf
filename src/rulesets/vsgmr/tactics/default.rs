//! `default`: shooters hold if an enemy is in range unless the exchange in base contact is
//! better, others close on the nearest enemy; fall back from chargers, charge moving first,
//! step out of an exchange struck first that does not pay (the rules' default tactic,
//! [`crate::rulesets::vsgmr::rules::move_figure`], which the duel and the optimal game's
//! scripted side share).

use super::Tactic;
use crate::rulesets::skirmish::TacticInfo;
use crate::rulesets::tactic::Entry;
use crate::rulesets::vsgmr::{Battle, Vsgmr, rules};

/// The `default` tactic (module docs).
pub struct DefaultTactic;

pub const ENTRY: Entry<dyn Tactic> = Entry {
    info: TacticInfo {
        name: "default",
        description: "shooters hold if an enemy is in range unless the exchange in base contact is better, others close on the nearest enemy; fall back from chargers, charge moving first, step out of an exchange struck first that does not pay; attack with the option likelier to defeat",
    },
    tactic: &DefaultTactic,
};

impl Tactic for DefaultTactic {
    fn move_figure(&self, r: &Vsgmr, b: &mut Battle, i: usize) {
        rules::move_figure(r, b, i)
    }
}
