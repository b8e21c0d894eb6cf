//! `hold`: hold the ground — a unit never moves: where the doctrine would move it (Advance,
//! Rush, Charge, an Advance away, or an unarmed unit's move away from the enemy), it shoots
//! the doctrine's target from where it stands when a weapon reaches it (else the nearest enemy
//! if one does), and otherwise Guards (infantry) or Holds without a shot (vehicles, which may
//! not Guard: AMC 2.0, "Vehicle Rules"). It never boards a transport. Moves 0" in every case,
//! as the book's Hold and Guard do ("Activation").

use super::Tactic;
use crate::rulesets::Side;
use crate::rulesets::amc::Kind;
use crate::rulesets::amc::rules::Action;
use crate::rulesets::amc::skirmish::{Caution, Mission};
use crate::rulesets::amc::tactics::doctrine::Decision;
use crate::rulesets::skirmish::TacticInfo;
use crate::rulesets::tactic::Entry;

/// The `hold` tactic (module docs).
pub struct Hold;

pub const ENTRY: Entry<dyn Tactic> = Entry {
    info: TacticInfo {
        name: "hold",
        description: "hold the ground: never move; shoot what is in range, else Guard (infantry) and shoot what comes",
    },
    tactic: &Hold,
};

impl Tactic for Hold {
    /// The doctrine's Hold (shoot from here) stands; any other plan moves the unit (Wait
    /// moves an unarmed unit away) and becomes [`Caution::Hold`] when one of its weapons
    /// reaches its nearest enemy, else [`Caution::Guard`] for infantry with a weapon and
    /// [`Caution::Hold`] for the rest.
    fn caution(&self, m: &Mission, s: Side, i: usize, planned: &Decision) -> Option<Caution> {
        if planned.action == Action::Hold {
            return None;
        }
        let p = m.profile(s, i);
        let in_range = m.nearest_enemy(s, i).is_some_and(|(_, d)| p.has_weapon_in_range(d));
        if !in_range && p.kind == Kind::Infantry && p.has_any_weapon() {
            Some(Caution::Guard)
        } else {
            Some(Caution::Hold)
        }
    }

    /// A holding unit stays on foot where it stands.
    fn boards(&self, _m: &Mission, _s: Side) -> bool {
        false
    }
}
