//! The turn loop and the two tactics (`bound`, `advance`): who activates when, how a squad
//! moves, how a panicked squad seeks cover, and how each model spends its actions. Apart
//! from [`super::combat`] so a new tactic changes only this file. The order of the dice draws
//! is decided here (turn roll, then each activation in force order), and the tallies and
//! replays depend on it.

use super::{EPS, Hit, Skirmish, SkirmishOutcome};
use crate::battle::Pos;
use crate::dice::Dice;
use crate::rulesets::Side;
use crate::rulesets::grunt_factor::rules::{self, MAX_MODELS, roll_under};

/// "Panic": a panicked squad seeks cover within 6 cm (or farther, away from the enemy).
pub const PANIC_COVER_REACH: f32 = 6.0;

/// The `bound` tactic does not run to a cover piece with an enemy model this close to it (cm).
pub const ENEMY_HELD: f32 = 10.0;

/// The two tactics (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tactic {
    /// Bounds from cover to cover, aims when that raises expected kills.
    Bound,
    /// Straight at the nearest enemy, into close combat.
    Advance,
}

impl Tactic {
    pub const NAMES: [&'static str; 2] = ["bound", "advance"];
    /// "default" is `bound`.
    pub fn parse(s: &str) -> Option<Tactic> {
        match s {
            "bound" | "default" => Some(Tactic::Bound),
            "advance" => Some(Tactic::Advance),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        Tactic::NAMES[self as usize]
    }
}

impl<'a> Skirmish<'a> {
    /// "Modifiers to movement": an obstacle lower than a miniature costs 1 action to cross, and
    /// every cover piece is low. Moves model `k` of (s, i) up to `len` cm toward `to`: straight
    /// across the cover pieces in the way, one more action each from `actions[k]`, when it has
    /// them and that ends nearer `to` than walking round them ([`Self::move_model`]); else
    /// round them.
    fn go(&mut self, s: Side, i: usize, k: usize, to: Pos, len: f32, actions: &mut [u8]) {
        let from = self.sides[s][i].models[k].pos;
        let end = from.toward(self.table.clamp(to), len);
        let pieces = self.table.walls.iter().filter(|w| w.intact && w.crosses(from, end)).count();
        if pieces > 0 && pieces <= actions[k] as usize {
            let round = self.table.move_path(from, to, len).0;
            if end.dist(to) < round.dist(to) - EPS {
                actions[k] -= pieces as u8;
                self.sides[s][i].models[k].pos = end;
                if let Some(t) = &mut self.trace {
                    t[s][i][k].0.push(end);
                }
                return;
            }
        }
        self.move_model(s, i, k, to, len);
    }

    /// Spends Move actions of model `k` to reach `to`: as many as it needs, at most
    /// `actions[k]`, and one more for each low cover piece it crosses ([`Self::go`]). A squad
    /// still prone (one that may not advance does not stand up) crawls at 1/3 MV ("Go
    /// prone/stand": "While prone the soldiers movement is reduced to 1/3").
    pub(super) fn walk(&mut self, s: Side, i: usize, k: usize, to: Pos, actions: &mut [u8]) {
        let full = self.profile(s, i).mv as f32;
        let mv = if self.sides[s][i].prone { full / 3.0 } else { full };
        let mut need = (self.sides[s][i].models[k].pos.dist(to) / mv - EPS).ceil().max(0.0) as u8;
        need = need.min(actions[k]);
        if need == 0 {
            return;
        }
        actions[k] -= need;
        self.go(s, i, k, to, need as f32 * mv, actions);
    }

    /// The spot behind cover piece `w` at fraction `t`, seen from `enemy`.
    fn spot(&self, w: usize, t: f32, enemy: Pos) -> Pos {
        self.table.clamp(self.table.walls[w].spot_behind(t, 1.0, enemy))
    }

    /// The tactic's moves for squad (s, i) (module docs).
    pub(super) fn move_squad(&mut self, s: Side, i: usize, actions: &mut [u8]) {
        let q = &self.sides[s][i];
        let p = self.profile(s, i);
        let Some((_, _, d)) = self.nearest_enemy(s, q.leader_pos()) else { return };
        let may_advance = rules::may_advance(p, q.alive(), q.panicked);
        let living: Vec<usize> = (0..q.models.len()).filter(|&k| q.models[k].alive).collect();
        if may_advance && self.sides[s][i].prone {
            // "Go prone/stand": standing up costs one action.
            for &k in &living {
                actions[k] = actions[k].saturating_sub(1);
            }
            self.sides[s][i].prone = false;
        }
        match self.tactic {
            Tactic::Bound => self.bound(s, i, d, may_advance, &living, actions),
            Tactic::Advance => {
                if may_advance {
                    for &k in &living {
                        self.advance_model(s, i, k, actions);
                    }
                }
            }
        }
    }

    /// Tactic `bound` for squad (s, i) whose leader is `d` cm from the nearest enemy.
    fn bound(&mut self, s: Side, i: usize, d: f32, may_advance: bool, living: &[usize], actions: &mut [u8]) {
        let leader = self.sides[s][i].leader_pos();
        let short = self.r.book.rules.bands[1] as f32;
        if may_advance && d > short + EPS {
            // The next cover piece toward the enemy: the spot behind its middle must be at
            // least `bound_min` nearer the nearest enemy; the nearest such piece to the leader.
            let mut best: Option<(f32, usize)> = None;
            for w in 0..self.table.walls.len() {
                if !self.table.walls[w].intact {
                    continue;
                }
                let mid = Pos::new(
                    (self.table.walls[w].a.x + self.table.walls[w].b.x) / 2.0,
                    (self.table.walls[w].a.y + self.table.walls[w].b.y) / 2.0,
                );
                let Some((_, _, de)) = self.nearest_enemy(s, mid) else { continue };
                // A piece another friendly squad already holds is left to it.
                let held = self.sides[s].iter().enumerate().any(|(o, q)| {
                    o != i
                        && q.alive() > 0
                        && self.table.walls[w].dist_to(q.leader_pos()) <= self.cfg.cover_reach as f32 + 1.0
                });
                // A piece the enemy holds (a model within 10 cm of it) is no cover to run to.
                let enemy_held = self.enemies(s).any(|(_, _, q)| self.table.walls[w].dist_to(q) <= ENEMY_HELD);
                if held || enemy_held {
                    continue;
                }
                let far = leader.dist(mid);
                if de < d - self.cfg.bound_min as f32 && best.is_none_or(|b| far < b.0) {
                    best = Some((far, w));
                }
            }
            // The leader takes the middle spot, so the squad stays within command radius.
            let mut order = living.to_vec();
            let lead = self.sides[s][i].leader;
            if let Some(at) = order.iter().position(|&k| k == lead) {
                let v = order.remove(at);
                order.insert(order.len() / 2, v);
            }
            let n = order.len() as f32;
            for (rank, &k) in order.iter().enumerate() {
                let me = self.sides[s][i].models[k].pos;
                let Some((j, l, _)) = self.nearest_enemy(s, me) else { return };
                let enemy = self.sides[1 - s][j].models[l].pos;
                // No cover piece ahead: advance in the open, but only to the edge of short range
                // (close combat is `advance`'s business, not `bound`'s).
                let to = match best {
                    Some((_, w)) => self.spot(w, (rank as f32 + 0.5) / n, enemy),
                    None => me.toward(enemy, (me.dist(enemy) - short).max(0.0)),
                };
                self.walk(s, i, k, to, actions);
            }
            return;
        }
        // Stay; a model in the open takes cover within one move (not nearer the enemy when the
        // squad may not advance).
        for &k in living {
            if actions[k] == 0 {
                continue;
            }
            let me = self.sides[s][i].models[k].pos;
            let Some((j, l, de)) = self.nearest_enemy(s, me) else { return };
            let enemy = self.sides[1 - s][j].models[l].pos;
            if self.in_cover(me, enemy) {
                continue;
            }
            let reach = self.profile(s, i).mv as f32;
            if let Some(to) = self.cover_spot(me, enemy, reach, (!may_advance).then_some(de - EPS), false) {
                self.walk(s, i, k, to, actions);
            }
        }
    }

    /// The nearest spot behind cover against `enemy` within `reach` of `me` (at least
    /// `min_enemy` from the enemy, if given), if any; across a cover piece only when `cross`
    /// (a low piece costs an action to cross: [`Self::go`]).
    fn cover_spot(&self, me: Pos, enemy: Pos, reach: f32, min_enemy: Option<f32>, cross: bool) -> Option<Pos> {
        let mut best: Option<(f32, Pos)> = None;
        for w in 0..self.table.walls.len() {
            if !self.table.walls[w].intact {
                continue;
            }
            for t in [0.1, 0.3, 0.5, 0.7, 0.9] {
                let spot = self.spot(w, t, enemy);
                let dd = me.dist(spot);
                if dd <= reach + EPS
                    && min_enemy.is_none_or(|m| spot.dist(enemy) >= m)
                    && (cross || self.table.wall_across(me, spot).is_none())
                    && best.is_none_or(|b| dd < b.0)
                {
                    best = Some((dd, spot));
                }
            }
        }
        best.map(|b| b.1)
    }

    /// Tactic `advance` for model `k`: the Move actions straight at its nearest enemy model of
    /// [`rules::horizon_plan`] (its own expected kills against that model's fire back), or
    /// into base contact ("Initiate close combat") when that model is within one move and
    /// close combat with the remaining actions expects more kills than every fire plan this
    /// turn ([`Self::charge_pays`]).
    fn advance_model(&mut self, s: Side, i: usize, k: usize, actions: &mut [u8]) {
        let me = self.sides[s][i].models[k].pos;
        let Some((j, l, d)) = self.nearest_enemy(s, me) else { return };
        let enemy = self.sides[1 - s][j].models[l].pos;
        let p = self.profile(s, i);
        let (mv, contact) = (p.mv as f32, self.cfg.base_contact as f32);
        let n = actions[k];
        if n == 0 || d <= contact + EPS {
            return;
        }
        let slot = self.sides[s][i].models[k].slot as usize;
        let (t, shot) = (self.aiming(s, i, k, j), self.shot(s, i, k, j, l));
        let ours = |x: f64, left: u8| rules::model_value_at(self.r, p, slot, x, left, &t, &shot);
        if d <= mv + contact && self.charge_pays(s, i, k, j, l, n, &ours) {
            actions[k] -= 1;
            self.move_model(s, i, k, enemy, d - contact + EPS / 2.0);
            return;
        }
        // The enemy model's fire back at this one, from where it stands.
        let q = self.r.profile(self.sides[1 - s][j].unit);
        let (back, back_shot) = (self.aiming(1 - s, j, l, i), self.shot(1 - s, j, l, i, k));
        let their_slot = self.sides[1 - s][j].models[l].slot as usize;
        let theirs = |x: f64| rules::model_value_at(self.r, q, their_slot, x, q.ac, &back, &back_shot);
        let nearest = (contact + 1.0) as f64;
        let m = rules::horizon_plan(self.r, n, p.ac, mv as f64, d as f64, nearest, [1.0, 1.0], ours, theirs).moves;
        if m > 0 {
            actions[k] -= m;
            let len = (m as f32 * mv).min(d - contact - 1.0).max(0.0);
            self.go(s, i, k, enemy, len, actions);
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
    fn charge_pays(
        &self,
        s: Side,
        i: usize,
        k: usize,
        j: usize,
        l: usize,
        n: u8,
        ours: &dyn Fn(f64, u8) -> f64,
    ) -> bool {
        let p = self.profile(s, i);
        let q = &self.sides[s][i];
        let (me, at) = (q.models[k].pos, self.sides[1 - s][j].models[l].pos);
        let (v, kind) = self.cc_odds(s, i, k, j, l);
        let (slot, t) = (q.models[k].slot as usize, &self.sides[1 - s][j]);
        let cc = (n - 1) as f64 * rules::cc_attack_value(self.r, p, slot, v, self.r.profile(t.unit).a, kind);
        let (d, mv) = (me.dist(at), p.mv as f32);
        let fire = (0..=n)
            .map(|m| ours((d - m as f32 * mv).max(self.cfg.base_contact as f32 + 1.0) as f64, n - m))
            .fold(0.0, f64::max);
        cc > fire + 1e-12
    }

    /// "Panic" for squad (s, i) at the start of its activation: models in the open take cover
    /// within 6 cm, or else within one Move action in a direction away from their nearest enemy
    /// (crossing a low piece for an action: [`Self::go`]); if any cannot, the squad goes prone; then,
    /// when no model's fire expects a kill ([`rules::tries_recovery`]), the recovery test with 3
    /// actions spent together ("Recovering from panic"), against the lowest LD of the models
    /// spending them: the leader's, or a model's own halved LD outside command radius.
    pub(super) fn panic_step<D: Dice>(&mut self, s: Side, i: usize, actions: &mut [u8], dice: &mut D) {
        let living: Vec<usize> =
            (0..self.sides[s][i].models.len()).filter(|&k| self.sides[s][i].models[k].alive).collect();
        let mut exposed = false;
        // "In a direction leading away from enemy troops": how far is the tactic's reading, one
        // Move action (crawling, if prone), so the squad keeps actions for its recovery test.
        let one_move = self.profile(s, i).mv as f32 / if self.sides[s][i].prone { 3.0 } else { 1.0 };
        for &k in &living {
            let me = self.sides[s][i].models[k].pos;
            let Some((j, l, de)) = self.nearest_enemy(s, me) else { break };
            let enemy = self.sides[1 - s][j].models[l].pos;
            if self.in_cover(me, enemy) {
                continue;
            }
            let to = self
                .cover_spot(me, enemy, PANIC_COVER_REACH, Some(de - EPS), true)
                .or_else(|| self.cover_spot(me, enemy, one_move, Some(de + EPS), true));
            match to {
                Some(to) if actions[k] > 0 => {
                    self.walk(s, i, k, to, actions);
                    // Short of the spot (no action left to cross a piece): still in the open.
                    exposed |= !self.in_cover(self.sides[s][i].models[k].pos, enemy);
                }
                _ => exposed = true,
            }
        }
        if exposed && !self.sides[s][i].prone {
            for &k in &living {
                actions[k] = actions[k].saturating_sub(1);
            }
            self.sides[s][i].prone = true;
        }
        let mut acts: Vec<u8> = living.iter().map(|&k| actions[k]).collect();
        let before = acts.clone();
        // The duel's rule ([`rules::tries_recovery`]): test only when no model's fire (at the
        // target it would choose, halved RC) expects a kill.
        let fire: f64 = living
            .iter()
            .filter(|&&k| actions[k] > 0)
            .filter_map(|&k| {
                self.choose_target(s, i, k)
                    .map(|(j, l)| self.fire_value(s, i, k, j, l, false).max(self.fire_value(s, i, k, j, l, true)))
            })
            .sum();
        if rules::tries_recovery(fire) && rules::spend_together(&mut acts, self.r.book.rules.recovery_actions) {
            // "Recovering from panic": the test is made against the leader's LD; soldiers out
            // of command range use their own (halved) LD. Reading: the squad's one test uses
            // the lowest LD among the models spending the actions ([`Skirmish::model_ld`]).
            let ld = (0..living.len())
                .filter(|&x| acts[x] < before[x])
                .map(|x| self.model_ld(s, i, living[x]))
                .min()
                .unwrap_or_else(|| rules::squad_leader_ld(self.profile(s, i), self.sides[s][i].sergeant_leads));
            if roll_under(dice, rules::recovery_test_value(self.r, ld, self.sides[s][i].fired_on)) {
                self.sides[s][i].panicked = false;
            }
        }
        for (a, &k) in acts.iter().zip(&living) {
            actions[k] = *a;
        }
    }

    /// Model `k` of (s, i) uses its `n` remaining actions: close combat against an enemy in
    /// base contact (not when panicked), else Fire, aiming first when that raises expected
    /// kills ([`rules::aims_at`]); a dead target is replaced and the aim lost.
    pub(super) fn attack<D: Dice>(&mut self, s: Side, i: usize, k: usize, n: u8, dice: &mut D) {
        let mut left = n;
        // The model aimed at, while it lives; only the first action may be an Aim.
        let mut aimed: Option<(usize, usize)> = None;
        let mut first = true;
        while left > 0 {
            let me = self.sides[s][i].models[k].pos;
            let Some((j, l, d)) = self.nearest_enemy(s, me) else { return };
            if d <= self.cfg.base_contact as f32 + EPS {
                if self.sides[s][i].panicked {
                    return;
                }
                self.close_combat(s, i, k, j, l, dice);
                left -= 1;
                first = false;
                continue;
            }
            aimed = aimed.filter(|&(a, b)| self.sides[1 - s][a].models[b].alive);
            let (j, l) = match aimed {
                Some(t) => t,
                None => {
                    let Some(t) = self.choose_target(s, i, k) else { return };
                    t
                }
            };
            if first {
                first = false;
                let slot = self.sides[s][i].models[k].slot as usize;
                let dd = me.dist(self.sides[1 - s][j].models[l].pos) as f64;
                let (t, shot) = (self.aiming(s, i, k, j), self.shot(s, i, k, j, l));
                if rules::aims_at(self.r, self.profile(s, i), slot, dd, left, &t, &shot) {
                    // "Aim": one action, +3 RC on the following Fire actions at this target.
                    left -= 1;
                    aimed = Some((j, l));
                    continue;
                }
            }
            self.fire(s, i, k, j, l, aimed == Some((j, l)), dice);
            left -= 1;
        }
    }

    /// One squad's activation ("Turn sequence"): panic and recovery, the tactic's moves, then
    /// every living model's attacks, the Sergeant first; then the morale checks of the enemy
    /// squads it hit ("Morale checks", "Special morale checks").
    pub fn activate<D: Dice>(&mut self, s: Side, i: usize, dice: &mut D) {
        self.sides[s][i].activated = true;
        if self.sides[s][i].alive() == 0 {
            return;
        }
        let p = self.profile(s, i);
        let mut actions = [0u8; MAX_MODELS];
        for (k, m) in self.sides[s][i].models.iter().enumerate() {
            actions[k] = if m.alive { p.ac } else { 0 };
        }
        let e = 1 - s;
        self.scratch.clear();
        for j in 0..self.sides[e].len() {
            let t = &self.sides[e][j];
            self.scratch.push(Hit { before: t.alive(), leader_killed: false, hits: 0 });
        }
        if self.sides[s][i].panicked {
            self.panic_step(s, i, &mut actions, dice);
        }
        self.sides[s][i].fired_on = false;
        if !self.sides[s][i].panicked {
            self.move_squad(s, i, &mut actions);
        }
        for k in 0..self.sides[s][i].models.len() {
            if self.sides[s][i].models[k].alive && actions[k] > 0 {
                self.attack(s, i, k, actions[k], dice);
            }
        }
        self.morale(s, i, dice);
    }

    /// Whether side `s` has a model left.
    pub fn has_models(&self, s: Side) -> bool {
        self.sides[s].iter().any(|q| q.alive() > 0)
    }

    /// One game turn ("Turn sequence"): d20 + highest LD for who starts, then alternate squad
    /// activations in force order; a side out of squads lets the other finish.
    pub fn play_turn<D: Dice>(&mut self, dice: &mut D) {
        self.turn += 1;
        let mut cur = rules::roll_for_first(dice, self.highest_ld(0), self.highest_ld(1));
        for side in self.sides.iter_mut() {
            for q in side.iter_mut() {
                q.activated = q.alive() == 0;
            }
        }
        loop {
            let next = |g: &Self, s: Side| g.sides[s].iter().position(|q| !q.activated && q.alive() > 0);
            let Some((side, i)) =
                next(self, cur).map(|i| (cur, i)).or_else(|| next(self, 1 - cur).map(|i| (1 - cur, i)))
            else {
                break;
            };
            self.activate(side, i, dice);
            if !self.has_models(1 - side) {
                return;
            }
            cur = 1 - side;
        }
    }

    /// The result now: the side with more points destroyed wins; equal is a draw.
    pub fn outcome(&self) -> SkirmishOutcome {
        let [a, b] = self.destroyed;
        let winner = if (a - b).abs() < 1e-9 {
            None
        } else if a > b {
            Some(0)
        } else {
            Some(1)
        };
        SkirmishOutcome { winner, turns: self.turn, destroyed: self.destroyed }
    }

    /// Plays turns until the turn cap or a side has no model left.
    pub fn play<D: Dice>(&mut self, dice: &mut D) -> SkirmishOutcome {
        while self.turn < self.cfg.max_turns && self.has_models(0) && self.has_models(1) {
            self.play_turn(dice);
        }
        self.outcome()
    }
}
