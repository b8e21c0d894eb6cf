//! `bound` (the default): cover to cover while out of short range (40 cm), aim when it raises
//! expected kills (module docs of [`crate::rulesets::grunt_factor::skirmish`], "Tactic
//! `bound`").

use super::{SquadMove, Tactic};
use crate::battle::Pos;
use crate::rulesets::Side;
use crate::rulesets::grunt_factor::skirmish::{EPS, Skirmish};
use crate::rulesets::skirmish::TacticInfo;
use crate::rulesets::tactic::Entry;

/// `bound` does not run to a cover piece with an enemy model this close to it (cm).
pub const ENEMY_HELD: f32 = 10.0;

/// The `bound` tactic (module docs).
pub struct Bound;

pub const ENTRY: Entry<dyn Tactic> = Entry {
    info: TacticInfo {
        name: "bound",
        description: "cover to cover while out of short range, aim when it raises expected kills",
    },
    tactic: &Bound,
};

impl Tactic for Bound {
    /// While the nearest enemy is `d` cm away, beyond short range, and the squad may advance:
    /// to the next cover piece toward the enemy, each model to its own spot along it; else it
    /// stays and a model in the open takes cover within one move when it may.
    fn move_squad(&self, g: &mut Skirmish, s: Side, i: usize, m: SquadMove) {
        let SquadMove { d, may_advance, living, actions } = m;
        let leader = g.sides[s][i].leader_pos();
        let short = g.r.book.rules.bands[1] as f32;
        if may_advance && d > short + EPS {
            // The next cover piece toward the enemy: the spot behind its middle must be at
            // least `bound_min` nearer the nearest enemy; the nearest such piece to the leader.
            let mut best: Option<(f32, usize)> = None;
            for w in 0..g.table.walls.len() {
                if !g.table.walls[w].intact {
                    continue;
                }
                let mid = Pos::new(
                    (g.table.walls[w].a.x + g.table.walls[w].b.x) / 2.0,
                    (g.table.walls[w].a.y + g.table.walls[w].b.y) / 2.0,
                );
                let Some((_, _, de)) = g.nearest_enemy(s, mid) else { continue };
                // A piece another friendly squad already holds is left to it.
                let held = g.sides[s].iter().enumerate().any(|(o, q)| {
                    o != i
                        && q.alive() > 0
                        && g.table.walls[w].dist_to(q.leader_pos()) <= g.cfg.cover_reach as f32 + 1.0
                });
                // A piece the enemy holds (a model within 10 cm of it) is no cover to run to.
                let enemy_held = g.enemies(s).any(|(_, _, q)| g.table.walls[w].dist_to(q) <= ENEMY_HELD);
                if held || enemy_held {
                    continue;
                }
                let far = leader.dist(mid);
                if de < d - g.cfg.bound_min as f32 && best.is_none_or(|b| far < b.0) {
                    best = Some((far, w));
                }
            }
            // The leader takes the middle spot, so the squad stays within command radius.
            let mut order = living.to_vec();
            let lead = g.sides[s][i].leader;
            if let Some(at) = order.iter().position(|&k| k == lead) {
                let v = order.remove(at);
                order.insert(order.len() / 2, v);
            }
            let n = order.len() as f32;
            for (rank, &k) in order.iter().enumerate() {
                let me = g.sides[s][i].models[k].pos;
                let Some((j, l, _)) = g.nearest_enemy(s, me) else { return };
                let enemy = g.sides[1 - s][j].models[l].pos;
                // No cover piece ahead: advance in the open, but only to the edge of short range
                // (close combat is `advance`'s business, not `bound`'s).
                let to = match best {
                    Some((_, w)) => g.spot(w, (rank as f32 + 0.5) / n, enemy),
                    None => me.toward(enemy, (me.dist(enemy) - short).max(0.0)),
                };
                g.walk(s, i, k, to, actions);
            }
            return;
        }
        // Stay; a model in the open takes cover within one move (not nearer the enemy when the
        // squad may not advance).
        for &k in living {
            if actions[k] == 0 {
                continue;
            }
            let me = g.sides[s][i].models[k].pos;
            let Some((j, l, de)) = g.nearest_enemy(s, me) else { return };
            let enemy = g.sides[1 - s][j].models[l].pos;
            if g.in_cover(me, enemy) {
                continue;
            }
            let reach = g.profile(s, i).mv as f32;
            if let Some(to) = g.cover_spot(me, enemy, reach, (!may_advance).then_some(de - EPS), false) {
                g.walk(s, i, k, to, actions);
            }
        }
    }
}
