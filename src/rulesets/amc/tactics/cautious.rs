//! `cautious`: Guard when the enemy must cross open ground, Hunker when that saves more than
//! acting is worth (AMC 2.0, "Activation": Hunker moves 0" and adds a block die; Guard moves 0"
//! and shoots in reaction).

use super::Tactic;
use crate::rulesets::Side;
use crate::rulesets::amc::Kind;
use crate::rulesets::amc::skirmish::{Caution, Mission};
use crate::rulesets::amc::tactics::doctrine::Decision;
use crate::rulesets::skirmish::TacticInfo;
use crate::rulesets::tactic::Entry;

/// The `cautious` tactic (module docs).
pub struct Cautious;

pub const ENTRY: Entry<dyn Tactic> = Entry {
    info: TacticInfo {
        name: "cautious",
        description: "Guard when the enemy must cross open ground, Hunker when that saves more than acting is worth",
    },
    tactic: &Cautious,
};

impl Tactic for Cautious {
    /// Hunker when that saves more points than the doctrine's plan is worth (`planned.value`: a
    /// unit that can move into range or charge is worth more moving); Guard when the nearest enemy is
    /// out of its range, it is out of every enemy's range and that enemy can come into its range
    /// this round; otherwise neither. Only infantry Hunker or Guard ("Vehicle Rules": vehicles
    /// may only Hold, Advance and Rush; RULINGS.md, "Hunker is infantry only").
    fn caution(&self, m: &Mission, s: Side, i: usize, planned: &Decision) -> Option<Caution> {
        let p = m.profile(s, i);
        let me = m.sides[s][i].pos;
        if p.kind == Kind::Infantry && m.hunker_saving(s, i) > planned.value.max(0.0) {
            return Some(Caution::Hunker);
        }
        let (j, d) = m.nearest_enemy(s, i)?;
        let enemies = || (0..m.sides[1 - s].len()).filter(|&k| m.sides[1 - s][k].on_table());
        let under_fire = enemies().any(|k| m.profile(1 - s, k).has_weapon_in_range(m.sides[1 - s][k].pos.dist(me)));
        let tp = m.profile(1 - s, j);
        if p.kind == Kind::Infantry
            && p.has_any_weapon()
            && !under_fire
            && !p.has_weapon_in_range(d)
            && d <= tp.rush + p.max_range()
        {
            return Some(Caution::Guard);
        }
        None
    }
}
