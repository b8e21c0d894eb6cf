//! `stand-off`: keep where the exchange of fire favours us. A character takes the default
//! plan's next action ([`rules::plan`]) unless that action brings it closer to its target and
//! the exchange of fire is worse where it would end than where it stands; then it holds and
//! fires instead ([`rules::plan_in_place`]). The exchange at a distance is the expected damage
//! of one unaimed Fire of its own weapon at its target less that of its target's weapon at it
//! (each [`rules::fire_value`]: Gunplay, "Shooting", "Action Modifiers"), both read at the
//! cover of its own shot, the one cover level a tactic is shown (in the skirmish the shot back
//! may have another: a wall near one figure covers it, not the other); a charge is taken as the
//! default takes it (when its melee round is worth more than it costs). The plan of a player
//! who knows the weapons' range bands: a Pistol out of reach of a Rifle's better bands does not
//! walk into them when its own shots would gain less than the Rifle's; a Rifle still steps into
//! its own Effective band, where its fire gains more than the Pistol's.

use super::Tactic;
use crate::rulesets::gunplay::rules::{self, Action, EPS, Situation};
use crate::rulesets::gunplay::{Gunplay, Profile};
use crate::rulesets::skirmish::TacticInfo;
use crate::rulesets::tactic::Entry;

/// The `stand-off` tactic (module docs).
pub struct StandOff;

pub const ENTRY: Entry<dyn Tactic> = Entry {
    info: TacticInfo {
        name: "stand-off",
        description: "keep where the exchange of fire favours us: the default plan, but no step closer where the \
                      enemy's fire would gain on ours; hold and fire instead",
    },
    tactic: &StandOff,
};

/// The expected damage of one unaimed Fire of `p` at its target less that of the target's
/// weapon `foe` back, at `d` inches, in situation `s` (the character's own view).
fn exchange(r: &Gunplay, p: &Profile, foe: &Profile, s: &Situation, d: f32) -> f64 {
    // The target's view: its wounds, ours as its target's (we are Up: we plan).
    let theirs = Situation { distance: d, wounds: s.target_wounds, target_down: false, target_wounds: s.wounds };
    let their_fire = if s.target_down { 0.0 } else { rules::fire_value(r, foe, &theirs, d, false, false) };
    rules::fire_value(r, p, s, d, false, false) - their_fire
}

impl Tactic for StandOff {
    fn next_action(&self, r: &Gunplay, p: &Profile, foe: &Profile, s: &Situation, actions: u8) -> Action {
        let a = rules::plan(r, p, foe, s, actions)[0];
        let d = s.distance;
        let to = rules::after(r, d, a);
        let closer = to < d - EPS && !matches!(a, Action::Charge);
        if closer && exchange(r, p, foe, s, to) < exchange(r, p, foe, s, d) - 1e-12 {
            rules::plan_in_place(r, p, foe, s, actions)
        } else {
            a
        }
    }
}
