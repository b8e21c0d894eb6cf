//! The rule steps on the table, where models stand apart: cover from the pieces between
//! shooter and target, command radius and the LD a model tests with, target priority, Fire,
//! close combat, casualties and the morale checks they trigger. Each step calls the duel's
//! rule ([`crate::rulesets::grunt_factor::rules`]) with what the table adds; apart from the
//! tactic so that what the rules allow and what a player chooses stay separate. Named
//! `combat`, not `rules`, so it does not shadow the ruleset's `rules`.

use super::{EPS, Skirmish};
use crate::battle::Pos;
use crate::dice::Dice;
use crate::rulesets::Side;
use crate::rulesets::grunt_factor::rules::{
    self, Aiming, CoverKind, CoverShare, FALL_BACK, SPECIAL_CHECK_HITS, Shot, roll_under,
};

impl<'a> Skirmish<'a> {
    /// "To hit modifiers", "Damage modifiers", read for cover pieces (module docs): the share
    /// of a target at `at` hidden from a shooter at `from`, and the cover it is behind.
    pub fn cover_of(&self, from: Pos, at: Pos, target_prone: bool) -> (CoverShare, Option<CoverKind>) {
        let reach = self.cfg.cover_reach as f32 + EPS;
        let (mut share, mut behind) = (CoverShare::Open, None);
        for (w, kind) in self.table.walls.iter().zip(&self.cover) {
            if !w.intact || !w.crosses(from, at) {
                continue;
            }
            if w.dist_to(at) <= reach {
                share = share.max(if target_prone { CoverShare::Most } else { CoverShare::Half });
                behind = behind.max(Some(*kind));
            } else if w.dist_to(from) > reach {
                share = share.max(CoverShare::Quarter);
            }
        }
        (share, behind)
    }

    /// Whether a model at `p` is behind cover against an enemy at `enemy`.
    pub(crate) fn in_cover(&self, p: Pos, enemy: Pos) -> bool {
        self.cover_of(enemy, p, false).1.is_some()
    }

    /// "Command radius": whether model `k` of squad (s, i) is more than 18 cm from its leader.
    pub fn outside_radius(&self, s: Side, i: usize, k: usize) -> bool {
        let q = &self.sides[s][i];
        q.models[k].pos.dist(q.leader_pos()) > self.r.book.rules.command_radius as f32 + EPS
    }

    /// The LD a model tests with: the squad leader's, or its own halved outside command radius
    /// ("Command radius": "must use his own halved LD").
    pub fn model_ld(&self, s: Side, i: usize, k: usize) -> i8 {
        let p = self.profile(s, i);
        if self.outside_radius(s, i, k) {
            rules::outside_command_radius(p.ld)
        } else {
            rules::squad_leader_ld(p, self.sides[s][i].sergeant_leads)
        }
    }

    /// The highest LD among side `s`'s squad leaders ("Turn sequence").
    pub fn highest_ld(&self, s: Side) -> i8 {
        (0..self.sides[s].len())
            .filter(|&i| self.sides[s][i].alive() > 0)
            .map(|i| rules::squad_leader_ld(self.profile(s, i), self.sides[s][i].sergeant_leads))
            .max()
            .unwrap_or(0)
    }

    /// Living enemy models of side `s`: (squad, model, position).
    pub(crate) fn enemies(&self, s: Side) -> impl Iterator<Item = (usize, usize, Pos)> + '_ {
        self.sides[1 - s]
            .iter()
            .enumerate()
            .flat_map(|(j, q)| q.models.iter().enumerate().filter(|(_, m)| m.alive).map(move |(l, m)| (j, l, m.pos)))
    }

    /// The nearest living enemy model of side `s` to `p`: (squad, model, distance).
    pub fn nearest_enemy(&self, s: Side, p: Pos) -> Option<(usize, usize, f32)> {
        let mut best: Option<(usize, usize, f32)> = None;
        for (j, l, q) in self.enemies(s) {
            let d = p.dist(q);
            if best.is_none_or(|b| d < b.2) {
                best = Some((j, l, d));
            }
        }
        best
    }

    /// The situation of a shot by model `k` of (s, i) at enemy model (j, l).
    pub(crate) fn shot(&self, s: Side, i: usize, k: usize, j: usize, l: usize) -> Shot {
        let from = self.sides[s][i].models[k].pos;
        let t = &self.sides[1 - s][j];
        let (cover, behind) = self.cover_of(from, t.models[l].pos, t.prone);
        Shot { outside_radius: self.outside_radius(s, i, k), cover, behind }
    }

    pub(crate) fn aiming(&self, s: Side, i: usize, k: usize, j: usize) -> Aiming<'a> {
        let t = &self.sides[1 - s][j];
        Aiming {
            target: self.r.profile(t.unit),
            target_prone: t.prone,
            panicked: self.sides[s][i].panicked,
            ld: self.model_ld(s, i, k),
        }
    }

    /// Expected kills of one Fire action of model `k` of (s, i) at enemy model (j, l).
    pub(super) fn fire_value(&self, s: Side, i: usize, k: usize, j: usize, l: usize, aimed: bool) -> f64 {
        let p = self.profile(s, i);
        let m = &self.sides[s][i].models[k];
        let d = m.pos.dist(self.sides[1 - s][j].models[l].pos) as f64;
        let shot = self.shot(s, i, k, j, l);
        rules::shot_action_value(self.r, p, m.slot as usize, d, aimed, &self.aiming(s, i, k, j), &shot)
    }

    /// The enemy squad nearest to squad (s, i): the one with the living model nearest to any
    /// living model of (s, i) (ties: the first found), and that distance, cm.
    pub fn nearest_unit(&self, s: Side, i: usize) -> Option<(usize, f32)> {
        let mut best: Option<(usize, f32)> = None;
        for m in self.sides[s][i].models.iter().filter(|m| m.alive) {
            if let Some((j, _, d)) = self.nearest_enemy(s, m.pos)
                && best.is_none_or(|b| d < b.1)
            {
                best = Some((j, d));
            }
        }
        best
    }

    /// "Fire", target priority: "A unit must fire at the nearest closest unit within short
    /// range. If there is no enemy unit within short range, the squad may fire at whatever it
    /// pleases." When the enemy squad nearest to squad (s, i) ([`Self::nearest_unit`]) is
    /// within short range (40 cm), model `k` fires at that squad's model nearest to it, even
    /// if another squad's model is nearer or a better shot; else at the enemy model with the
    /// highest expected kills per Fire action (ties: nearest). `None` when nothing can be hit.
    pub fn choose_target(&self, s: Side, i: usize, k: usize) -> Option<(usize, usize)> {
        let me = self.sides[s][i].models[k].pos;
        let short = self.r.book.rules.bands[1] as f32 + EPS;
        if let Some((j, d)) = self.nearest_unit(s, i)
            && d <= short
        {
            let t = &self.sides[1 - s][j];
            let mut near: Option<(f32, usize)> = None;
            for (l, m) in t.models.iter().enumerate().filter(|(_, m)| m.alive) {
                let dd = me.dist(m.pos);
                if near.is_none_or(|b| dd < b.0) {
                    near = Some((dd, l));
                }
            }
            return near.map(|(_, l)| (j, l));
        }
        let mut best: Option<(f64, f32, usize, usize)> = None;
        for (j, l, q) in self.enemies(s) {
            let v = self.fire_value(s, i, k, j, l, false);
            let d = me.dist(q);
            if v > 0.0 && best.is_none_or(|b| v > b.0 + 1e-12 || ((v - b.0).abs() <= 1e-12 && d < b.1)) {
                best = Some((v, d, j, l));
            }
        }
        best.map(|b| (b.2, b.3))
    }

    /// Moves model `k` of (s, i) up to `len` toward `to`, round cover pieces, and traces it.
    pub(crate) fn move_model(&mut self, s: Side, i: usize, k: usize, to: Pos, len: f32) {
        let from = self.sides[s][i].models[k].pos;
        let (end, corner) = self.table.move_path(from, to, len);
        self.sides[s][i].models[k].pos = end;
        if let Some(t) = &mut self.trace {
            if let Some(c) = corner {
                t[s][i][k].0.push(c);
            }
            t[s][i][k].0.push(end);
        }
    }

    /// Removes enemy model (j, l) of side `s`'s victim side; replaces a dead leader ("Squad
    /// leader bites the dust": the nearest model, without the CO bonus); counts points and
    /// annihilated squads.
    fn kill(&mut self, s: Side, i: usize, j: usize, l: usize) {
        let e = 1 - s;
        let r = self.r;
        let t = &mut self.sides[e][j];
        t.models[l].alive = false;
        let p = r.profile(t.unit);
        self.destroyed[s] += p.cost / p.size() as f64;
        if let Some(tr) = &mut self.trace {
            tr[e][j][l].1.get_or_insert(self.turn);
        }
        if l == t.leader {
            self.scratch[j].leader_killed = true;
            let at = t.models[l].pos;
            if let Some(k) = (0..t.models.len())
                .filter(|&k| t.models[k].alive)
                .min_by(|&a, &b| t.models[a].pos.dist(at).total_cmp(&t.models[b].pos.dist(at)))
            {
                t.leader = k;
                t.sergeant_leads = false;
            }
        }
        if t.alive() == 0 {
            let victim = t.unit;
            self.kills.push((self.sides[s][i].unit, victim));
        }
    }

    /// The close-combat value ([`rules::cc_value`], d20 ≤ it hits) of model `k` of (s, i)
    /// attacking enemy model (j, l) from where it stands, with its weapon's CC modifier and the
    /// friends of `k` already in base contact with the target; and the cover the target has
    /// behind it (which also cuts the damage).
    pub(crate) fn cc_odds(&self, s: Side, i: usize, k: usize, j: usize, l: usize) -> (i8, Option<CoverKind>) {
        let p = self.profile(s, i);
        let q = &self.sides[s][i];
        let w = self.r.weapons[p.weapons[q.models[k].slot as usize] as usize].bands[0];
        let at = self.sides[1 - s][j].models[l].pos;
        let contact = self.cfg.base_contact as f32 + EPS;
        let friends =
            q.models.iter().enumerate().filter(|&(x, m)| x != k && m.alive && m.pos.dist(at) <= contact).count() as u8;
        let t = &self.sides[1 - s][j];
        let behind = self.cover_of(q.models[k].pos, at, t.prone).1;
        let v = rules::cc_value(
            p.cc,
            q.panicked,
            self.outside_radius(s, i, k),
            w.hit.unwrap_or(0),
            t.prone,
            behind.is_some(),
            friends,
        );
        (v, behind)
    }

    /// One close-combat attack of model `k` of (s, i) at enemy model (j, l) in base contact
    /// ("Close combat"): d20 ≤ [`rules::cc_value`], then saves against the weapon's CC Dam cut
    /// by the target's cover ("damage as ranged": [`rules::cover_damage`]).
    pub(super) fn close_combat<D: Dice>(&mut self, s: Side, i: usize, k: usize, j: usize, l: usize, dice: &mut D) {
        let p = self.profile(s, i);
        let q = &self.sides[s][i];
        let w = self.r.weapons[p.weapons[q.models[k].slot as usize] as usize].bands[0];
        if !w.usable() {
            return;
        }
        let (v, behind) = self.cc_odds(s, i, k, j, l);
        let tp = self.r.profile(self.sides[1 - s][j].unit);
        self.sides[1 - s][j].fired_on = true;
        if roll_under(dice, v) {
            self.scratch[j].hits = self.scratch[j].hits.saturating_add(1);
            if rules::fails_saves(dice, tp.a, rules::cover_damage(w.damage.unwrap_or(0), behind), w.saves) {
                self.kill(s, i, j, l);
            }
        }
    }

    /// One Fire action of model `k` of (s, i) at enemy model (j, l) ("Fire", "To hit your
    /// target", "To damage your target"): the LD test beyond sighting, then each `(xN)` shot;
    /// shots after the target dies go to a new target (target priority), without the aim.
    pub(super) fn fire<D: Dice>(&mut self, s: Side, i: usize, k: usize, j: usize, l: usize, aimed: bool, dice: &mut D) {
        let p = self.profile(s, i);
        let slot = self.sides[s][i].models[k].slot as usize;
        let me = self.sides[s][i].models[k].pos;
        let d = me.dist(self.sides[1 - s][j].models[l].pos) as f64;
        if rules::needs_ld_test(self.r, d) && !roll_under(dice, self.model_ld(s, i, k)) {
            return;
        }
        let Some(b) = rules::band(self.r, d) else { return };
        let shots = self.r.weapons[p.weapons[slot] as usize].bands[b].shots;
        let (mut tj, mut tl, mut bonus) = (j, l, aimed);
        for _ in 0..shots {
            if !self.sides[1 - s][tj].models[tl].alive {
                match self.choose_target(s, i, k) {
                    Some((a, b)) => (tj, tl, bonus) = (a, b, false),
                    None => break,
                }
                // A new target beyond normal sighting needs its own LD test ("Fire").
                let d = me.dist(self.sides[1 - s][tj].models[tl].pos) as f64;
                if rules::needs_ld_test(self.r, d) && !roll_under(dice, self.model_ld(s, i, k)) {
                    break;
                }
            }
            let t = &self.sides[1 - s][tj];
            let d = me.dist(t.models[tl].pos) as f64;
            let Some(b) = rules::band(self.r, d) else { break };
            let w = self.r.weapons[p.weapons[slot] as usize].bands[b];
            if !w.usable() {
                break;
            }
            let shot = self.shot(s, i, k, tj, tl);
            let v = rules::shot_hit_value(p.rc, self.sides[s][i].panicked, &shot, w.hit.unwrap_or(0), bonus, t.prone);
            let armour = self.r.profile(t.unit).a;
            self.sides[1 - s][tj].fired_on = true;
            if roll_under(dice, v) {
                self.scratch[tj].hits = self.scratch[tj].hits.saturating_add(1);
                if rules::fails_saves(dice, armour, rules::cover_damage(w.damage.unwrap_or(0), shot.behind), w.saves) {
                    self.kill(s, i, tj, tl);
                }
            }
        }
    }

    /// Morale checks of side `s`'s enemies after squad (s, i)'s activation.
    pub(super) fn morale<D: Dice>(&mut self, s: Side, i: usize, dice: &mut D) {
        let e = 1 - s;
        let n = self.sides[e].len();
        let mut due = vec![false; n];
        for j in 0..n {
            let t = &self.sides[e][j];
            let size = self.r.profile(t.unit).size();
            let h = self.scratch[j];
            due[j] |= rules::losses_trigger_morale(self.r, size, h.before, t.alive()) || h.leader_killed;
            // "a friendly squad (with originally at least 5 soldiers in it) in LOS is annihilated".
            if t.alive() == 0 && h.before > 0 && size >= 5 {
                for (x, d) in due.iter_mut().enumerate() {
                    *d |= x != j;
                }
            }
        }
        let from = self.sides[s][i].leader_pos();
        for j in 0..n {
            let t = &self.sides[e][j];
            if t.alive() == 0 {
                continue;
            }
            let ld = rules::squad_leader_ld(self.r.profile(t.unit), t.sergeant_leads);
            if due[j] && !t.panicked && !roll_under(dice, ld) {
                self.sides[e][j].panicked = true;
            }
            if self.scratch[j].hits > SPECIAL_CHECK_HITS && !roll_under(dice, ld) {
                for l in 0..self.sides[e][j].models.len() {
                    let m = self.sides[e][j].models[l];
                    if m.alive {
                        // Straight away from the firing leader, FALL_BACK cm however near it is.
                        let (dx, dy) = (m.pos.x - from.x, m.pos.y - from.y);
                        let len = (dx * dx + dy * dy).sqrt();
                        let (ux, uy) =
                            if len > EPS { (dx / len, dy / len) } else { (0.0, if e == 0 { -1.0 } else { 1.0 }) };
                        let fall = FALL_BACK as f32;
                        let away = Pos::new(m.pos.x + ux * fall, m.pos.y + uy * fall);
                        self.move_model(e, j, l, away, FALL_BACK as f32);
                    }
                }
            }
        }
    }
}
