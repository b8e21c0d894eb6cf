//! The mission's doctrine, shared by its tactics: which enemy a unit acts against and how
//! ([`Mission::choose`], Hold, Advance, Rush, Charge or Fall Back), what a Hunker saves, and
//! where a guard shoots at a passing enemy. Whether a unit hunkers or guards instead is its
//! tactic's ([`crate::rulesets::amc::tactics`]).

use super::*;

/// A tactic's waiting actions ([`crate::rulesets::amc::tactics::Tactic::caution`]; AMC 2.0,
/// "Activation"): Hunker (move 0", no shooting, +1 block die), Guard (move 0", shoot in
/// reaction; infantry only) and Hold (move 0", shoot the doctrine's target if a weapon reaches
/// it, else the nearest enemy if one does; any unit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Caution {
    Hunker,
    Guard,
    Hold,
}

impl<'a> Mission<'a> {
    /// [`rules::decide`] for side `s`'s unit `i` against side `1 - s`'s unit `j` where both
    /// stand, with each shot's cover from the terrain and the arc a vehicle shows; the distance in
    /// inches.
    pub(super) fn decide_against(&self, s: Side, i: usize, j: usize) -> (Decision, f32) {
        let (u, t) = (&self.sides[s][i], &self.sides[1 - s][j]);
        let d = u.pos.dist(t.pos);
        let exposure = |a: &Unit, b: &Unit| rules::Exposure {
            cover: self.in_cover(a.pos, b.pos),
            arc: if self.all[b.entry].1.kind == Kind::Vehicle {
                arc_from(b.facing, b.pos, a.pos)
            } else {
                rules::Arc::Front
            },
        };
        let exp = [exposure(u, t), exposure(t, u)];
        let me = UnitState { x: 0.0, ..u.st };
        let them = UnitState { x: d, ..t.st };
        let room = [self.room_away(u.pos, t.pos), self.room_away(t.pos, u.pos)];
        (rules::decide(self.r, self.profile(s, i), &me, self.profile(1 - s, j), &them, exp, room), d)
    }

    /// How far a unit at `from` can move straight away from `enemy` before its centre reaches
    /// the table's edge margin, inches (the room of [`rules::decide`]'s Retreat).
    pub(super) fn room_away(&self, from: Pos, enemy: Pos) -> f32 {
        let d = from.dist(enemy);
        if d <= EPS {
            return 0.0;
        }
        let (ux, uy) = ((from.x - enemy.x) / d, (from.y - enemy.y) / d);
        let lo = crate::battle::EDGE_MARGIN;
        let along = |p: f32, u: f32, hi: f32| {
            if u > EPS {
                (hi - lo - p) / u
            } else if u < -EPS {
                (p - lo) / -u
            } else {
                f32::MAX
            }
        };
        along(from.x, ux, self.table.width).min(along(from.y, uy, self.table.depth)).max(0.0)
    }

    /// The default tactic's choice of target: the enemy unit against which [`rules::decide`]'s
    /// best option is worth the most points (issue 15: not simply the nearest; a Sniper does not
    /// shoot at a Tank it cannot hurt), the nearer on equal worth.
    pub(super) fn choose(&self, s: Side, i: usize) -> Option<(usize, Decision, f32)> {
        let mut best: Option<(usize, Decision, f32)> = None;
        for j in (0..self.sides[1 - s].len()).filter(|&j| self.sides[1 - s][j].on_table()) {
            let (dec, d) = self.decide_against(s, i, j);
            let better = match best {
                None => true,
                Some((_, b, bd)) => dec.value > b.value + 1e-9 || (dec.value >= b.value - 1e-9 && d < bd - EPS),
            };
            if better {
                best = Some((j, dec, d));
            }
        }
        best
    }

    /// Points side `s`'s unit `i` is expected to save from every enemy's best attack where it
    /// stands by hunkering (+1 block die, AMC 2.0, "Hunker").
    pub(crate) fn hunker_saving(&self, s: Side, i: usize) -> f64 {
        let (p, u) = (self.profile(s, i), &self.sides[s][i]);
        let hunkered = UnitState { hunker: true, ..u.st };
        let mut saved = 0.0;
        for (k, e) in self.sides[1 - s].iter().enumerate().filter(|(_, e)| e.on_table()) {
            let (ep, d) = (self.profile(1 - s, k), e.pos.dist(u.pos));
            let cover = rules::Exposure::front(self.in_cover(e.pos, u.pos));
            let open = doctrine::best_attack(self.r, ep, &e.st, p, &u.st, d, cover).1;
            let hid = doctrine::best_attack(self.r, ep, &e.st, p, &hunkered, d, cover).1;
            saved += open - hid;
        }
        saved
    }

    /// Side `s`'s unit `i` with nothing to do moves its Rush straight away from the nearest
    /// enemy, staying on the table (issue 15: the unarmed Jeep does not wait where it can be
    /// shot). The mission scores only destroyed or Pinned units, so distance is safety.
    pub(super) fn fall_back(&mut self, s: Side, i: usize) {
        let (p, u) = (self.profile(s, i), self.sides[s][i]);
        if u.st.immobile || p.rush <= 0.0 {
            return;
        }
        let Some((j, d)) = self.nearest_enemy(s, i) else { return };
        let from = self.sides[1 - s][j].pos;
        let away = if d > EPS {
            Pos::new(u.pos.x + (u.pos.x - from.x) * p.rush / d, u.pos.y + (u.pos.y - from.y) * p.rush / d)
        } else {
            u.pos
        };
        let to = self.table.clamp(away);
        if to.dist(from) > d + EPS {
            self.move_to(s, i, to, p.rush, 0.0);
        }
    }
}
