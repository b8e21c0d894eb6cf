//! Transport in the mission (AMC 2.0, Vehicle Units: Truck and APC): boarding, riding, getting
//! out, and passengers bailing out of a destroyed transport (D6 hits each).

use super::*;

impl<'a> Mission<'a> {
    /// Models riding in side `s`'s unit `t` (AMC 2.0, "Vehicle Units").
    pub fn load(&self, s: Side, t: usize) -> u32 {
        self.sides[s].iter().filter(|u| u.aboard == Some(t) && u.st.alive()).map(|u| u.st.models as u32).sum()
    }

    /// Whether side `s`'s unit `i` may get into its side's unit `t` now (AMC 2.0, "Vehicle
    /// Units": "Transport up to 5 models" — a Truck or APC 10 — "Units that move in contact
    /// may get in"): `i` is infantry on the table, `t` a vehicle on the table with room for
    /// all of `i`'s models besides those already aboard (a unit gets in whole), and they stand
    /// in contact (within [`CONTACT`]).
    pub fn may_embark(&self, s: Side, i: usize, t: usize) -> bool {
        let (u, v) = (&self.sides[s][i], &self.sides[s][t]);
        i != t
            && u.on_table()
            && v.on_table()
            && self.profile(s, i).kind == Kind::Infantry
            && self.profile(s, t).kind == Kind::Vehicle
            && self.load(s, t) + u.st.models as u32 <= self.profile(s, t).transport as u32
            && u.pos.dist(v.pos) <= CONTACT + EPS
    }

    /// Side `s`'s unit `i` gets into unit `t` if it may ([`Mission::may_embark`]): it stands
    /// where `t` is from now on and leaves Guard and Hunker. Returns whether it got in.
    pub fn embark(&mut self, s: Side, i: usize, t: usize) -> bool {
        if !self.may_embark(s, i, t) {
            return false;
        }
        let at = self.sides[s][t].pos;
        let u = &mut self.sides[s][i];
        u.aboard = Some(t);
        u.pos = at;
        u.guard = false;
        u.st.hunker = false;
        if let Some(tr) = &mut self.trace {
            tr[s][i].0.push(at);
        }
        true
    }

    /// AMC 2.0, "Vehicle Units": a carried unit "may use Advance to get out": side `s`'s
    /// passenger `i` is placed in contact with its transport ([`CONTACT`] from it, on the side
    /// of `toward`), then makes its Advance toward `toward` (Guard reactions apply to that move)
    /// and, still standing and not Pinned, shoots side `1 - s`'s unit `j`.
    pub fn disembark<D: Dice>(&mut self, s: Side, i: usize, j: usize, dice: &mut D) {
        let Some(t) = self.sides[s][i].aboard else { return };
        let toward = self.sides[1 - s][j].pos;
        let at = self.sides[s][t].pos;
        let d = at.dist(toward);
        let out = if d > EPS { at.toward(toward, CONTACT.min(d)) } else { at };
        let out = self.table.clamp(out);
        self.sides[s][i].aboard = None;
        self.sides[s][i].pos = out;
        if let Some(tr) = &mut self.trace {
            tr[s][i].0.push(out);
        }
        let p = self.profile(s, i);
        self.move_to(s, i, toward, p.advance, 1.0);
        self.guard_reactions(s, i, dice);
        if self.sides[s][i].st.alive() && !self.sides[s][i].st.pinned {
            self.shoot(s, i, j, false, dice);
        }
    }

    /// AMC 2.0, "Vehicle Units": "If a unit is inside when destroyed all models are placed
    /// within 3" and the unit takes D6 hits". When side `s`'s unit `t` has just been destroyed
    /// by `by` (side, unit), every unit riding in it is placed [`BAIL_OUT`] (2") from the
    /// wreck toward its own table edge (within the 3") and takes D6 hits
    /// ([`rules::wreck_hits`]); a unit destroyed so counts as destroyed by `by`.
    pub(super) fn bail_out<D: Dice>(&mut self, s: Side, t: usize, by: (Side, usize), dice: &mut D) {
        if self.sides[s][t].st.alive() {
            return;
        }
        let wreck = self.sides[s][t].pos;
        let back = Pos::new(wreck.x, if s == 0 { wreck.y - BAIL_OUT } else { wreck.y + BAIL_OUT });
        let at = self.table.clamp(back);
        for k in 0..self.sides[s].len() {
            if self.sides[s][k].aboard != Some(t) {
                continue;
            }
            self.sides[s][k].aboard = None;
            if !self.sides[s][k].st.alive() {
                continue;
            }
            self.sides[s][k].pos = at;
            if let Some(tr) = &mut self.trace {
                tr[s][k].0.push(at);
            }
            let mut st = self.sides[s][k].st;
            rules::wreck_hits(dice, self.profile(s, k), &mut st);
            self.set_state(s, k, st, Some(by.0), Some(by.1));
        }
    }

    /// The mission tactic's ride, under a tactic that boards (`default`, `cautious`, and
    /// `attack-if-stronger` while it attacks:
    /// [`crate::rulesets::amc::tactics::Tactic::boards`]): side `s`'s infantry unit `i`, whose best
    /// option (`decision`) is to Rush toward the enemy (nothing to shoot or charge this
    /// activation: it is far from the enemy), boards a friendly transport that has room for
    /// it, that it can reach with its Rush (within its Rush plus [`CONTACT`]), that has not
    /// activated this round and may move next (not stunned or "may not move"): the transport
    /// then carries it forward this round (transports activate after the other units of
    /// their side, `Mission::next_unit`). The nearest such transport, the first in army order
    /// on equal distance; `None` when there is none.
    pub(super) fn ride_to(&self, s: Side, i: usize, decision: &Decision) -> Option<usize> {
        let (p, u) = (self.profile(s, i), &self.sides[s][i]);
        if p.kind != Kind::Infantry
            || !matches!(decision.action, Action::Rush(_))
            || u.aboard.is_some()
            || !self.tactic[s].tactic().boards(self, s)
        {
            return None;
        }
        let mut best: Option<(f32, usize)> = None;
        for (t, v) in self.sides[s].iter().enumerate() {
            let tp = self.profile(s, t);
            if t == i
                || !v.on_table()
                || tp.kind != Kind::Vehicle
                || v.st.activated
                || v.st.immobile
                || v.st.stunned
                || self.load(s, t) + u.st.models as u32 > tp.transport as u32
            {
                continue;
            }
            let d = u.pos.dist(v.pos);
            if d <= p.rush + CONTACT + EPS && best.is_none_or(|b| d < b.0 - EPS) {
                best = Some((d, t));
            }
        }
        best.map(|b| b.1)
    }

    /// The longest reach of side `s`'s passengers of transport `t` once out: the smallest, over
    /// the units aboard, of their longest range plus their Advance, inches (`None`: nobody
    /// aboard).
    pub(super) fn passenger_reach(&self, s: Side, t: usize) -> Option<f32> {
        (0..self.sides[s].len())
            .filter(|&k| self.sides[s][k].aboard == Some(t) && self.sides[s][k].st.alive())
            .map(|k| {
                let p = self.profile(s, k);
                p.max_range() + p.advance
            })
            .min_by(f32::total_cmp)
    }

    /// The mission tactic of a loaded transport (side `s`'s unit `i`, every tactic that boards):
    /// it carries its passengers toward the nearest enemy on the table until they can get out
    /// and shoot it — it stops at the passengers' reach ([`Mission::passenger_reach`]: their
    /// longest range plus the Advance they get out with) — with an Advance (then it shoots `j`
    /// if armed) when that is far enough, else a Rush; once there it holds and shoots `j` if
    /// it can. A transport that may not move this activation holds, and so does one whose
    /// side's tactic does not board now (`attack-if-stronger` while it holds:
    /// [`crate::rulesets::amc::tactics::Tactic::boards`]): it stays where it is, its
    /// passengers aboard until their target comes within their reach ([`Mission::ride`]).
    pub(super) fn carry<D: Dice>(&mut self, s: Side, i: usize, j: usize, dice: &mut D) {
        let p = self.profile(s, i);
        let Some(reach) = self.passenger_reach(s, i) else { return };
        let Some((k, d)) = self.nearest_enemy(s, i) else { return };
        let goal = self.sides[1 - s][k].pos;
        let holds = !self.tactic[s].tactic().boards(self, s);
        let need = if holds { 0.0 } else { d - reach };
        if self.sides[s][i].st.immobile || need <= EPS || need <= p.advance {
            if !self.sides[s][i].st.immobile && need > EPS {
                self.move_to(s, i, goal, p.advance, reach);
                self.guard_reactions(s, i, dice);
            }
            let me = self.sides[s][i];
            if me.st.alive() && p.has_weapon_in_range(me.pos.dist(self.sides[1 - s][j].pos)) {
                self.shoot(s, i, j, false, dice);
            }
        } else {
            self.move_to(s, i, goal, p.rush, reach);
            self.guard_reactions(s, i, dice);
        }
    }

    /// The passenger's tactic (side `s`'s unit `i`, riding; every tactic): it gets out
    /// ([`Mission::disembark`]) when its target — [`Mission::choose`]'s, else the nearest enemy
    /// on the table — is within its longest range plus its Advance plus [`CONTACT`] of the
    /// transport; otherwise it stays aboard and does nothing.
    pub(super) fn ride<D: Dice>(&mut self, s: Side, i: usize, dice: &mut D) {
        let p = self.profile(s, i);
        let reach = p.max_range() + p.advance + CONTACT + EPS;
        let target = match self.choose(s, i) {
            Some((j, _, d)) if d <= reach => Some(j),
            _ => self.nearest_enemy(s, i).filter(|n| n.1 <= reach).map(|n| n.0),
        };
        if let Some(j) = target {
            self.disembark(s, i, j, dice);
        }
    }
}
