//! `charge`: close assault — every figure that can move closes on its target (the default
//! tactic's: an enemy in base contact, else the nearest it can fight) into base contact, at
//! most its Move, and fights there with the attack likelier to defeat
//! ([`crate::rulesets::vsgmr::rules::attack_choice`]). It never falls back; against a figure
//! in flight, or in flight itself, it moves as the default tactic does.

use super::Tactic;
use crate::rulesets::skirmish::TacticInfo;
use crate::rulesets::tactic::Entry;
use crate::rulesets::vsgmr::rules::{self, Approach};
use crate::rulesets::vsgmr::{Battle, Vsgmr};

/// The `charge` tactic (module docs).
pub struct Charge;

pub const ENTRY: Entry<dyn Tactic> = Entry {
    info: TacticInfo {
        name: "charge",
        description: "close assault: every figure closes on its target into base contact, at most its Move, and never falls back; attack with the option likelier to defeat",
    },
    tactic: &Charge,
};

impl Tactic for Charge {
    /// [`rules::move_figure_by`] with [`Approach::Charge`].
    fn move_figure(&self, r: &Vsgmr, b: &mut Battle, i: usize) {
        rules::move_figure_by(r, b, i, Approach::Charge)
    }
}
