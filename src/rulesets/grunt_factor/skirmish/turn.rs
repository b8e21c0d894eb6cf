//! The turn loop and the doctrine the tactics share: who activates when, how a model walks and
//! crosses cover, how a panicked squad seeks cover, and how each model spends its actions. How
//! a squad moves is its tactic's ([`crate::rulesets::grunt_factor::tactics`], one file each).
//! The order of the dice draws is decided here (turn roll, then each activation in force
//! order), and the tallies and replays depend on it.

use super::{EPS, Hit, Skirmish, SkirmishOutcome};
use crate::battle::Pos;
use crate::dice::Dice;
use crate::rulesets::Side;
use crate::rulesets::grunt_factor::rules::{self, MAX_MODELS, roll_under};
use crate::rulesets::grunt_factor::tactics::SquadMove;

/// "Panic": a panicked squad seeks cover within 6 cm (or farther, away from the enemy).
pub const PANIC_COVER_REACH: f32 = 6.0;

impl<'a> Skirmish<'a> {
    /// "Modifiers to movement": an obstacle lower than a miniature costs 1 action to cross, and
    /// every cover piece is low. Moves model `k` of (s, i) up to `len` cm toward `to`: straight
    /// across the cover pieces in the way, one more action each from `actions[k]`, when it has
    /// them and that ends nearer `to` than walking round them ([`Self::move_model`]); else
    /// round them.
    pub(crate) fn go(&mut self, s: Side, i: usize, k: usize, to: Pos, len: f32, actions: &mut [u8]) {
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
    pub(crate) fn walk(&mut self, s: Side, i: usize, k: usize, to: Pos, actions: &mut [u8]) {
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
    pub(crate) fn spot(&self, w: usize, t: f32, enemy: Pos) -> Pos {
        self.table.clamp(self.table.walls[w].spot_behind(t, 1.0, enemy))
    }

    /// The moves of squad (s, i) this activation: standing up if it may advance and its tactic
    /// stands up ([`crate::rulesets::grunt_factor::tactics::Tactic::stands_up`]), then its
    /// tactic's ([`crate::rulesets::grunt_factor::tactics::Tactic::move_squad`]).
    pub(super) fn move_squad(&mut self, s: Side, i: usize, actions: &mut [u8]) {
        let q = &self.sides[s][i];
        let p = self.profile(s, i);
        let Some((_, _, d)) = self.nearest_enemy(s, q.leader_pos()) else { return };
        let may_advance = rules::may_advance(p, q.alive(), q.panicked);
        let living: Vec<usize> = (0..q.models.len()).filter(|&k| q.models[k].alive).collect();
        if may_advance && self.sides[s][i].prone && self.tactic[s].tactic().stands_up(self, s) {
            // "Go prone/stand": standing up costs one action.
            for &k in &living {
                actions[k] = actions[k].saturating_sub(1);
            }
            self.sides[s][i].prone = false;
        }
        self.tactic[s].tactic().move_squad(self, s, i, SquadMove { d, may_advance, living: &living, actions });
    }

    /// The nearest spot behind cover against `enemy` within `reach` of `me` (at least
    /// `min_enemy` from the enemy, if given), if any; across a cover piece only when `cross`
    /// (a low piece costs an action to cross: [`Self::go`]).
    pub(crate) fn cover_spot(
        &self,
        me: Pos,
        enemy: Pos,
        reach: f32,
        min_enemy: Option<f32>,
        cross: bool,
    ) -> Option<Pos> {
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

    /// Whether the game is over: the turn cap is reached or a side has no model left.
    pub fn over(&self) -> bool {
        self.turn >= self.cfg.max_turns || !self.has_models(0) || !self.has_models(1)
    }

    /// Plays turns until the turn cap or a side has no model left.
    pub fn play<D: Dice>(&mut self, dice: &mut D) -> SkirmishOutcome {
        while !self.over() {
            self.play_turn(dice);
        }
        self.outcome()
    }
}
