//! `hold-lead`: hold the ground while level or ahead on enemy points destroyed, advance when
//! behind. The skirmish is won by more enemy points destroyed (the book has no scenario:
//! `docs/rulings/grunt-factor.md`, "Draws"), so a side that is behind loses by holding and
//! has nothing to lose by going at the enemy; a side that is level or ahead keeps what it has
//! by holding.

use super::advance::Advance;
use super::hold::Hold;
use super::{SquadMove, Tactic};
use crate::rulesets::Side;
use crate::rulesets::grunt_factor::skirmish::Skirmish;
use crate::rulesets::skirmish::TacticInfo;
use crate::rulesets::tactic::Entry;

/// The `hold-lead` tactic (module docs).
pub struct HoldLead;

pub const ENTRY: Entry<dyn Tactic> = Entry {
    info: TacticInfo {
        name: "hold-lead",
        description: "hold while level or ahead on enemy points destroyed; advance when behind",
    },
    tactic: &HoldLead,
};

/// Whether side `s` has destroyed fewer enemy points (`destroyed[s]`) than the enemy has
/// destroyed of its own (`destroyed[1 - s]`), within 1e-9, the draw tolerance of
/// [`Skirmish::outcome`]: what both players see on the table.
fn behind(g: &Skirmish, s: Side) -> bool {
    g.destroyed[s] + 1e-9 < g.destroyed[1 - s]
}

impl Tactic for HoldLead {
    /// [`Advance`]'s move when the side is behind, else [`Hold`]'s.
    fn move_squad(&self, g: &mut Skirmish, s: Side, i: usize, m: SquadMove) {
        if behind(g, s) { Advance.move_squad(g, s, i, m) } else { Hold.move_squad(g, s, i, m) }
    }

    /// Stands up to advance when behind; holding, prone is harder to hit.
    fn stands_up(&self, g: &Skirmish, s: Side) -> bool {
        behind(g, s)
    }
}
