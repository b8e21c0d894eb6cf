//! `hold`: hold the ground — a squad never moves nearer the enemy; a model in the open takes
//! cover within one move, not nearer its nearest enemy, a prone squad stays prone, and every
//! action left goes to fire and close combat by the shared doctrine (module docs of [`super`]).

use super::bound::Bound;
use super::{SquadMove, Tactic};
use crate::rulesets::Side;
use crate::rulesets::grunt_factor::skirmish::Skirmish;
use crate::rulesets::skirmish::TacticInfo;
use crate::rulesets::tactic::Entry;

/// The `hold` tactic (module docs).
pub struct Hold;

pub const ENTRY: Entry<dyn Tactic> = Entry {
    info: TacticInfo {
        name: "hold",
        description: "hold the ground: never move nearer the enemy; a model in the open takes cover within one move; fire at what comes in range",
    },
    tactic: &Hold,
};

impl Tactic for Hold {
    /// `bound`'s move of a squad that may not advance (as a panicked one): it stays, and each
    /// model in the open takes cover within one move, not nearer its nearest enemy.
    fn move_squad(&self, g: &mut Skirmish, s: Side, i: usize, m: SquadMove) {
        Bound.move_squad(g, s, i, SquadMove { may_advance: false, ..m })
    }

    /// A squad that never advances gains nothing by standing: prone, it is harder to hit.
    fn stands_up(&self, _g: &Skirmish, _s: Side) -> bool {
        false
    }
}
