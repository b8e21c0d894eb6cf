//! `attack-if-stronger`: advance while the side's force is worth more than the enemy's,
//! otherwise hold the ground as `hold` does. In the Skirmish a side wins by destroying every
//! enemy unit and the turn cap is a draw (`docs/rulings/guns-n-grenades.md`, "Missions
//! (skirmishes)"; GnG 1.5, "Winning"): two sides that both hold out of each other's reach
//! draw. The weaker force is content with that; the stronger one has the better of an
//! exchange, so it goes at the enemy. In Point Capture and Ground War it plays the same way
//! (its waiting units still play the objectives, as `hold`'s do).
//!
//! Strength is what both players see: the points of each side's living units on the table,
//! each counted by the share of its life stages left (a unit at half health counts half its
//! cost), plus those of its units still in reserve (both players know both armies, a reading:
//! the book does not hide reserves). The army's upgrade is not counted (it is spread over the
//! units it applies to), so of two armies of equal points the one that bought an upgrade
//! counts as the weaker. Random armies spend at least 95% of the points, so at the start the
//! forces are seldom level: in practice the larger list attacks. The comparison is strict:
//! level forces both hold.

use super::Tactic;
use crate::rulesets::Side;
use crate::rulesets::gng::skirmish::Skirmish;
use crate::rulesets::skirmish::TacticInfo;
use crate::rulesets::tactic::Entry;

/// The `attack-if-stronger` tactic (module docs).
pub struct AttackIfStronger;

pub const ENTRY: Entry<dyn Tactic> = Entry {
    info: TacticInfo {
        name: "attack-if-stronger",
        description: "advance while our units (on the table, by health left, and in reserve) are worth more points than the enemy's; otherwise hold the ground",
    },
    tactic: &AttackIfStronger,
};

/// The strength of side `s`: over its living units on the table, cost × (health − damage) /
/// health; plus the full cost of each unit still in reserve. Points.
pub fn strength(g: &Skirmish, s: Side) -> f64 {
    let on_table: f64 = g.bt.sides[s]
        .iter()
        .filter(|f| f.alive)
        .map(|f| {
            let p = g.r.profile(f.unit as usize);
            p.cost * f64::from(p.health.saturating_sub(f.damage)) / f64::from(p.health.max(1))
        })
        .sum();
    on_table + g.reserves[s].iter().map(|&u| g.r.profile(u).cost).sum::<f64>()
}

impl Tactic for AttackIfStronger {
    /// Waits unless side `s` is stronger than the enemy by more than 1e-9 points ([`strength`]).
    fn waits(&self, g: &Skirmish, s: Side, _i: usize) -> bool {
        strength(g, s) <= strength(g, 1 - s) + 1e-9
    }
}
