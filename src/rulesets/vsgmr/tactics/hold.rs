//! `hold`: hold the line — every fighting figure stays where it stands and attacks what comes
//! within its reach (a shot in range, or an enemy in base contact); a rider stays mounted.
//! Figures with a scenario's goal (section VIII) still play it, as under the default tactic.

use super::Tactic;
use crate::rulesets::skirmish::TacticInfo;
use crate::rulesets::tactic::Entry;
use crate::rulesets::vsgmr::skirmish::mission::Goal;
use crate::rulesets::vsgmr::{Battle, Vsgmr, rules};

/// The `hold` tactic (module docs).
pub struct Hold;

pub const ENTRY: Entry<dyn Tactic> = Entry {
    info: TacticInfo {
        name: "hold",
        description: "hold the line: every figure stays where it stands and attacks what comes within reach (a shot in range, an enemy in base contact); figures with a scenario's goal play it",
    },
    tactic: &Hold,
};

impl Tactic for Hold {
    /// Section II.2 "Movement" is "may": a figure whose goal is to fight takes its movement
    /// step without moving (marked as moved, which the enemy's default tactic reads), a rider
    /// does not step off; a figure with a scenario's goal moves as the default tactic moves it
    /// ([`rules::move_figure`]).
    fn move_figure(&self, r: &Vsgmr, b: &mut Battle, i: usize) {
        if b.objective.goal(i) != Goal::Fight {
            return rules::move_figure(r, b, i);
        }
        if b.can_act(i) {
            b.figs[i].moved = true;
        }
    }
}
