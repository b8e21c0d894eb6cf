//! `keep-out`: keep out of the enemy's threat range (its Move plus its reach) and attack from
//! its edge — every fighting figure ends its move beyond its target's threat range
//! ([`crate::rulesets::vsgmr::rules::keep_out_gap`]; only the target's reach once the target
//! has moved this round), so a figure whose Distance Attack Unit reaches farther shoots
//! without being attacked (from beyond next round's threat where its range allows), and any
//! other waits out of reach. Against a figure in flight, or in
//! flight itself, and with a scenario's goal (section VIII), it moves as the default tactic
//! does. On winning the initiative it lets the enemy take the first turn (section II.1: the
//! winner chooses), so it moves after its target.

use super::Tactic;
use crate::rulesets::Side;
use crate::rulesets::skirmish::TacticInfo;
use crate::rulesets::tactic::Entry;
use crate::rulesets::vsgmr::rules::{self, Approach};
use crate::rulesets::vsgmr::{Battle, Vsgmr};

/// The `keep-out` tactic (module docs).
pub struct KeepOut;

pub const ENTRY: Entry<dyn Tactic> = Entry {
    info: TacticInfo {
        name: "keep-out",
        description: "keep out of the enemy's threat range (its Move plus its reach) and attack from its edge: a longer distance attack shoots unanswered, anything else waits out of reach",
    },
    tactic: &KeepOut,
};

impl Tactic for KeepOut {
    /// [`rules::move_figure_by`] with [`Approach::KeepOut`].
    fn move_figure(&self, r: &Vsgmr, b: &mut Battle, i: usize) {
        rules::move_figure_by(r, b, i, Approach::KeepOut)
    }

    /// Never: moving second, a figure sees where its target ended its move (and the target can
    /// no longer close before the attacks), so it keeps beyond the target's reach of this round;
    /// moving first, the target could follow it into reach.
    fn acts_first(&self, _r: &Vsgmr, _b: &Battle, _s: Side) -> bool {
        false
    }
}
