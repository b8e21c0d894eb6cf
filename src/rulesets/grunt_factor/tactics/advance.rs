//! `advance`: straight at the nearest enemy, close combat within one move when it beats fire
//! (module docs of [`crate::rulesets::grunt_factor::skirmish`], "Tactic `advance`").

use super::{SquadMove, Tactic};
use crate::rulesets::Side;
use crate::rulesets::grunt_factor::rules;
use crate::rulesets::grunt_factor::skirmish::{EPS, Skirmish};
use crate::rulesets::skirmish::TacticInfo;
use crate::rulesets::tactic::Entry;

/// The `advance` tactic (module docs).
pub struct Advance;

pub const ENTRY: Entry<dyn Tactic> = Entry {
    info: TacticInfo {
        name: "advance",
        description: "straight at the nearest enemy, close combat within one move when it beats fire",
    },
    tactic: &Advance,
};

impl Tactic for Advance {
    /// A squad that may advance moves each living model ([`advance_model`]); one that may not
    /// stays.
    fn move_squad(&self, g: &mut Skirmish, s: Side, i: usize, m: SquadMove) {
        if m.may_advance {
            for &k in m.living {
                advance_model(g, s, i, k, m.actions);
            }
        }
    }
}

/// Tactic `advance` for model `k`: the Move actions straight at its nearest enemy model of
/// [`rules::horizon_plan`] (its own expected kills against that model's fire back), or
/// into base contact ("Initiate close combat") when that model is within one move and
/// close combat with the remaining actions expects more kills than every fire plan this
/// turn ([`charge_pays`]).
fn advance_model(g: &mut Skirmish, s: Side, i: usize, k: usize, actions: &mut [u8]) {
    let me = g.sides[s][i].models[k].pos;
    let Some((j, l, d)) = g.nearest_enemy(s, me) else { return };
    let enemy = g.sides[1 - s][j].models[l].pos;
    let p = g.profile(s, i);
    let (mv, contact) = (p.mv as f32, g.cfg.base_contact as f32);
    let n = actions[k];
    if n == 0 || d <= contact + EPS {
        return;
    }
    let slot = g.sides[s][i].models[k].slot as usize;
    let (t, shot) = (g.aiming(s, i, k, j), g.shot(s, i, k, j, l));
    let ours = |x: f64, left: u8| rules::model_value_at(g.r, p, slot, x, left, &t, &shot);
    if d <= mv + contact && charge_pays(g, s, i, k, j, l, n, &ours) {
        actions[k] -= 1;
        g.move_model(s, i, k, enemy, d - contact + EPS / 2.0);
        return;
    }
    // The enemy model's fire back at this one, from where it stands.
    let q = g.r.profile(g.sides[1 - s][j].unit);
    let (back, back_shot) = (g.aiming(1 - s, j, l, i), g.shot(1 - s, j, l, i, k));
    let their_slot = g.sides[1 - s][j].models[l].slot as usize;
    let theirs = |x: f64| rules::model_value_at(g.r, q, their_slot, x, q.ac, &back, &back_shot);
    let nearest = (contact + 1.0) as f64;
    let m = rules::horizon_plan(g.r, n, p.ac, mv as f64, d as f64, nearest, [1.0, 1.0], ours, theirs).moves;
    if m > 0 {
        actions[k] -= m;
        let len = (m as f32 * mv).min(d - contact - 1.0).max(0.0);
        g.go(s, i, k, enemy, len, actions);
    }
}

/// "Close combat", tactic `advance`: whether model `k` of (s, i), with `n` actions, expects
/// more kills by moving into base contact with enemy model (j, l) and attacking with the
/// other `n − 1` actions ([`rules::cc_attack_value`], counting the friends already in
/// contact with it) than by any number of moves straight at it and Fire this turn (`ours`:
/// expected kills firing a number of actions at a distance, cm). Point-blank fire beats
/// close combat for every weapon of the cost list, and at best ties it against a prone
/// target behind cover with 3 friends in the fight (Assault Rifle); a weapon with a better
/// CC modifier can make close combat pay there.
#[allow(clippy::too_many_arguments)]
fn charge_pays(
    g: &Skirmish,
    s: Side,
    i: usize,
    k: usize,
    j: usize,
    l: usize,
    n: u8,
    ours: &dyn Fn(f64, u8) -> f64,
) -> bool {
    let p = g.profile(s, i);
    let q = &g.sides[s][i];
    let (me, at) = (q.models[k].pos, g.sides[1 - s][j].models[l].pos);
    let (v, kind) = g.cc_odds(s, i, k, j, l);
    let (slot, t) = (q.models[k].slot as usize, &g.sides[1 - s][j]);
    let cc = (n - 1) as f64 * rules::cc_attack_value(g.r, p, slot, v, g.r.profile(t.unit).a, kind);
    let (d, mv) = (me.dist(at), p.mv as f32);
    let fire = (0..=n)
        .map(|m| ours((d - m as f32 * mv).max(g.cfg.base_contact as f32 + 1.0) as f64, n - m))
        .fold(0.0, f64::max);
    cc > fire + 1e-12
}
