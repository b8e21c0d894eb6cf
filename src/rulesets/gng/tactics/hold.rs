//! `hold`: hold the ground — every unit waits every activation: it never walks into range nor
//! makes a Bayonet charge, but attacks what it can reach from where it stands (infantry out of
//! cover first walks into cover it can fire from), heals (a Medic walks to the wounded),
//! destroys cover, goes to the nearest cover within two rushes when out of it, hunkers when it
//! has nothing to do, and plays a mission's objective (the shared doctrine's waiting branch,
//! module docs of [`super`]). So it moves toward the enemy only to cover, to heal or for an
//! objective. `cautious` waits the same way, but only until the enemy comes near or its wait
//! is over.

use super::Tactic;
use crate::rulesets::Side;
use crate::rulesets::gng::skirmish::Skirmish;
use crate::rulesets::skirmish::TacticInfo;
use crate::rulesets::tactic::Entry;

/// The `hold` tactic (module docs).
pub struct Hold;

pub const ENTRY: Entry<dyn Tactic> = Entry {
    info: TacticInfo {
        name: "hold",
        description: "hold the ground: never advance except to cover, to heal or for an objective; attack what comes in range",
    },
    tactic: &Hold,
};

impl Tactic for Hold {
    /// Always: the unit waits (module docs).
    fn waits(&self, _g: &Skirmish, _s: Side, _i: usize) -> bool {
        true
    }
}
