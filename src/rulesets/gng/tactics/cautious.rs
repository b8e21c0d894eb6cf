//! `cautious`: hold cover and let the enemy come; advance once the enemy is near or the wait
//! is over (`skirmish.cautious_wait_turns` game turns).

use super::Tactic;
use crate::battle::Pos;
use crate::rulesets::Side;
use crate::rulesets::gng::skirmish::Skirmish;
use crate::rulesets::skirmish::TacticInfo;
use crate::rulesets::tactic::Entry;

/// The `cautious` tactic (module docs).
pub struct Cautious;

pub const ENTRY: Entry<dyn Tactic> = Entry {
    info: TacticInfo {
        name: "cautious",
        description: "hold cover and let the enemy come; advance once the enemy is near or the wait is over",
    },
    tactic: &Cautious,
};

impl Tactic for Cautious {
    /// Waits before game turn `cautious_wait_turns` while no living enemy could come within
    /// its own attack range of the unit next turn (its range plus its rush plus 2", inches).
    fn waits(&self, g: &Skirmish, s: Side, i: usize) -> bool {
        if g.turn / 2 >= g.cfg.cautious_wait_turns {
            return false;
        }
        let at = g.pos(s, i);
        !g.bt.sides[1 - s].iter().any(|e| {
            let pe = g.r.profile(e.unit as usize);
            e.alive && at.dist(Pos::new(e.x, e.y)) <= pe.range + pe.rush + 2.0
        })
    }
}
