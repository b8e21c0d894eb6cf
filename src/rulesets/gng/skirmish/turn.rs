//! The turn loop and the shared doctrine of every tactic: which units activate in which order,
//! what each one does, and the game to its end. Where tactics differ they ask their
//! [`crate::rulesets::gng::tactics::Tactic`] (`tactics/`, one file each). The order of the dice draws is decided here (roll-off, reserves, then each
//! activation in turn), and the tallies and replays depend on it.

use super::SpotBuf;
use super::{BAYONET_REACH, EPS, Skirmish, SkirmishOutcome, Special, UpgradeRule};
use crate::battle::Pos;
use crate::dice::Dice;
use crate::rulesets::Side;
use crate::rulesets::gng::rules::{self, LOCK_ACTIVE, LOCK_NONE, LOCK_PENDING, move_allowance};
use crate::rulesets::gng::{FastShot, Kind, MedicHeals};

/// Added to an objective move's strength so it ranks before every other move.
const OBJECTIVE_FIRST: f64 = 1e6;

/// A unit's key in [`Skirmish::activation_order`]: (rank among the chosen: 0 attack or heal,
/// 1 destroy cover, 2 move; value; unit).
pub(super) type Key = (u8, f64, usize);

/// What [`Skirmish::gain`] worked out for a unit, kept for its activation: the plans are pure,
/// so while nothing they read has changed ([`Skirmish::plan_epoch`] the same: the unit is the
/// first to activate, or those before it missed) its activation asks the same questions and
/// takes these answers. Each answer is `None` until asked.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Plans {
    /// The plan epoch the answers hold for.
    epoch: u64,
    /// [`Skirmish::best_target_from`] where the unit stands.
    here: Option<Option<(usize, f64)>>,
    /// [`Skirmish::walk_plan_among`] the side's free cover spots.
    walk: Option<Option<(Pos, Option<usize>, Pos)>>,
    /// [`Skirmish::best_target_from`] where that walk ends.
    walked: Option<Option<(usize, f64)>>,
    /// [`Skirmish::bayonet_plan`].
    bayonet: Option<Option<(Pos, usize, f64)>>,
}

impl Plans {
    /// No answers yet, for the state of `g` now.
    fn fresh(g: &Skirmish) -> Self {
        Plans { epoch: g.plan_epoch, ..Plans::default() }
    }

    /// Forgets the answers if anything changed since they were worked out.
    fn renew(&mut self, g: &Skirmish) {
        if self.epoch != g.plan_epoch {
            *self = Plans::fresh(g);
        }
    }

    /// [`Skirmish::best_target_from`] where unit `i` of side `s` stands.
    fn here(&mut self, g: &Skirmish, s: Side, i: usize) -> Option<(usize, f64)> {
        *self.here.get_or_insert_with(|| g.best_target_from(s, i, g.pos(s, i)))
    }

    /// [`Skirmish::walk_plan_among`] side `s`'s free cover spots `spots`.
    fn walk(&mut self, g: &Skirmish, s: Side, i: usize, spots: &[(usize, Pos)]) -> Option<(Pos, Option<usize>, Pos)> {
        if self.walk.is_none() {
            let plan = g.walk_plan_among(s, i, spots);
            // A walk that ends on its cover spot has the best target from there already.
            if let Some((_, _, _, Some(target))) = plan {
                self.walked = Some(Some(target));
            }
            self.walk = Some(plan.map(|(to, w, end, _)| (to, w, end)));
        }
        self.walk.flatten()
    }

    /// [`Skirmish::best_target_from`] where the walk of [`Plans::walk`] ends, `end`.
    fn walked(&mut self, g: &Skirmish, s: Side, i: usize, end: Pos) -> Option<(usize, f64)> {
        *self.walked.get_or_insert_with(|| g.best_target_from(s, i, end))
    }

    /// [`Skirmish::bayonet_plan`].
    fn bayonet(&mut self, g: &Skirmish, s: Side, i: usize) -> Option<(Pos, usize, f64)> {
        *self.bayonet.get_or_insert_with(|| g.bayonet_plan(s, i))
    }
}

/// What an activation would achieve ([`Skirmish::gain`]).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Gain {
    /// An attack or a heal worth this many expected points.
    Act(f64),
    /// Anti Armor destroying cover, the sure damage worth this many points.
    DestroyCover(f64),
    /// A move or a Hunker.
    Move,
    /// Nothing.
    Idle,
    /// A move toward the unit's command point ([`super::objective`]): before other moves.
    Objective,
    /// A move that breaks an enemy capture of a command point: before everything.
    Contest,
}

impl<'a> Skirmish<'a> {
    /// Expected points an attack of unit `i` (side `s`, standing at `at`, inches) on enemy `j`
    /// removes: P(hit) × [`Self::damage_value`]. Kills and damaged targets (focus fire) score
    /// highest. Cover and Bayonets count from `at`.
    fn attack_value(&self, s: Side, i: usize, at: Pos, j: usize) -> f64 {
        let p = self.profile(s, i);
        let pe = self.profile(1 - s, j);
        let atk = p.atk as i32 + self.atk_mod_from(s, at, j);
        let def = pe.def as i32 + self.def_mod(1 - s, j, at);
        let reroll = p.tags.fast_shot.then_some(self.r.book.rules.fast_shot == FastShot::BothDice);
        let ph = crate::dice::opposed_d6(atk, def, reroll);
        ph * self.damage_value(1 - s, j, p.hit_damage)
    }

    /// Points `dmg` life stages on unit `j` of side `s` are worth: its full cost × 1.25 if they
    /// destroy it, else the share of its life they remove, weighted up by damage it already has.
    /// The stages a hit removes are [`crate::rulesets::gng::Profile::after_hit`]'s (a Tough unit
    /// that absorbs its first hit loses one).
    fn damage_value(&self, s: Side, j: usize, dmg: u8) -> f64 {
        let e = &self.bt.sides[s][j];
        let pe = self.profile(s, j);
        let dmg = pe.after_hit(e.damage, dmg) - e.damage;
        let left = (pe.health - e.damage) as f64;
        if dmg as f64 >= left {
            pe.cost * 1.25
        } else {
            pe.cost * dmg as f64 / pe.health as f64 * (1.0 + e.damage as f64 / pe.health as f64)
        }
    }

    /// The best target from `at` and its value; none if nothing is in range. A blast weapon
    /// refuses a target with a friend inside its radius.
    pub(super) fn best_target_from(&self, s: Side, i: usize, at: Pos) -> Option<(usize, f64)> {
        let p = self.profile(s, i);
        // [`Self::can_target`] with the unit's range looked up once.
        let reach = self.reach(s, i);
        let mut best: Option<(usize, f64)> = None;
        // Enemies in index order, 64 at a time: only those not plainly out of range are tested.
        for (c, chunk) in self.bt.sides[1 - s].chunks(64).enumerate() {
            for k in reach.candidates(at, chunk) {
                let (j, e) = (c * 64 + k, &chunk[k]);
                if !reach.holds(at, Pos::new(e.x, e.y)) {
                    continue;
                }
                if p.blast > 0.0 && self.friend_near(s, i, Pos::new(e.x, e.y), p.blast) {
                    continue;
                }
                let v = self.attack_value(s, i, at, j);
                if best.is_none_or(|(_, bv)| v > bv) {
                    best = Some((j, v));
                }
            }
        }
        best
    }

    /// Whether unit `i` of side `s` standing at `at` can target any enemy alive
    /// ([`Self::can_target`]).
    fn can_target_any(&self, s: Side, i: usize, at: Pos) -> bool {
        let reach = self.reach(s, i);
        self.bt.sides[1 - s]
            .chunks(64)
            .any(|chunk| reach.candidates(at, chunk).any(|k| reach.holds(at, Pos::new(chunk[k].x, chunk[k].y))))
    }

    fn friend_near(&self, s: Side, i: usize, c: Pos, radius: f32) -> bool {
        self.bt.sides[s]
            .iter()
            .enumerate()
            .any(|(k, f)| k != i && f.alive && c.within(Pos::new(f.x, f.y), radius + EPS))
    }

    fn nearest_enemy(&self, s: Side, at: Pos) -> Option<(usize, f32)> {
        crate::battle::nearest(
            at,
            self.bt.sides[1 - s].iter().enumerate().filter(|(_, e)| e.alive).map(|(j, e)| (j, Pos::new(e.x, e.y))),
        )
    }

    /// The most valuable wounded friendly infantry unit (cost × damage) within `reach` of `at`.
    fn heal_target(&self, s: Side, i: usize, at: Pos, reach: f32) -> Option<usize> {
        let mut best: Option<(usize, f64)> = None;
        for (j, f) in self.bt.sides[s].iter().enumerate() {
            // The cheap tests first: most friends are unhurt.
            if j == i || !f.alive || f.damage == 0 {
                continue;
            }
            let pf = self.profile(s, j);
            if pf.is_vehicle() || !at.within(Pos::new(f.x, f.y), reach + EPS) {
                continue;
            }
            let v = pf.cost * f.damage as f64;
            if best.is_none_or(|(_, bv)| v > bv) {
                best = Some((j, v));
            }
        }
        best.map(|b| b.0)
    }

    /// A cover piece within range of anti-armor unit `i`, and not inside its minimum range
    /// (GnG 1.5, "Glossary": "the closest a unit may target"), with at least two enemies and no
    /// friend behind it.
    #[cfg(test)]
    pub(super) fn cover_to_destroy(&self, s: Side, i: usize) -> Option<usize> {
        let (mut spots, mut destroyable, mut pieces) = (Vec::new(), Vec::new(), Vec::new());
        self.free_spots_into(s, &mut spots, &mut destroyable, &mut pieces);
        self.cover_to_destroy_among(s, i, &destroyable)
    }

    /// [`Self::cover_to_destroy`] among `pieces`, the pieces side `s` would destroy
    /// ([`Self::free_spots_into`]; the same for all its units while the cover stays as it was,
    /// [`SpotBuf`]): the first within range.
    fn cover_to_destroy_among(&self, s: Side, i: usize, pieces: &[usize]) -> Option<usize> {
        let p = self.profile(s, i);
        if !p.tags.anti_armor || pieces.is_empty() {
            return None;
        }
        let at = self.pos(s, i);
        let range = self.range_of(s, self.bt.sides[s][i].unit as usize);
        pieces.iter().copied().find(|&w| {
            let d = self.table.walls[w].dist_to(at);
            d <= range + EPS && d + EPS >= p.min_range
        })
    }

    /// [`Self::walk_plan_among`] the side's free cover spots now.
    #[cfg(test)]
    pub(super) fn walk_plan(&self, s: Side, i: usize) -> Option<(Pos, Option<usize>)> {
        self.walk_plan_among(s, i, &self.free_spots(s)).map(|(to, w, _, _)| (to, w))
    }

    /// Where the tactic would walk to attack: one of side `s`'s free cover spots `spots`
    /// ([`Self::free_spots_into`], worked out once for all its units where nothing moves in
    /// between, as in [`Self::activation_order`], and once for an activation's plans, all made
    /// before it moves) within the walk from which a target is in range (best value), else the
    /// least straight walk toward the nearest enemy that brings it into range. `None` if no
    /// walk reaches a target. With the point walked to and the cover piece there, where the walk
    /// ends ([`Self::move_end`] by the walk), worked out on the way, and the best target from
    /// there ([`Self::best_target_from`]) when the walk ends exactly on its cover spot, where it
    /// was found.
    #[allow(clippy::type_complexity)]
    fn walk_plan_among(
        &self,
        s: Side,
        i: usize,
        spots: &[(usize, Pos)],
    ) -> Option<(Pos, Option<usize>, Pos, Option<(usize, f64)>)> {
        let f = self.bt.sides[s][i];
        let p = self.profile(s, i);
        if p.kind != Kind::Infantry {
            return None;
        }
        let (walk, _) = move_allowance(p, &f);
        let at = self.pos(s, i);
        let range = self.range_of(s, f.unit as usize);
        // A spot within the walk has a target only if some enemy is within the walk plus the
        // range of here (the triangle inequality; 0.01" covers f32 rounding many times over):
        // with none, every spot is skipped below, so the loop is left out. The nearest enemy
        // (pure) serves the walk toward it below too; with no enemy left no walk has a target.
        let (j, d) = self.nearest_enemy(s, at)?;
        let spots = if d <= walk + range + 2.0 * EPS + 0.01 { spots } else { &[] };
        let mut best: Option<(Pos, Option<usize>, (usize, f64), Pos)> = None;
        for &(w, spot) in spots {
            if !at.within(spot, walk + EPS) {
                continue;
            }
            // The target's value first: the walk (round walls and units) is worked out only
            // for a spot that would beat the best so far. Both are pure, so the spot chosen is
            // the one the other order chooses.
            let Some((t, v)) = self.best_target_from(s, i, spot) else { continue };
            if best.as_ref().is_none_or(|b| v > b.2.1) {
                let end = self.move_end(s, i, spot, walk).0;
                if end.dist(spot) <= 0.05 {
                    best = Some((spot, Some(w), (t, v), end));
                }
            }
        }
        if let Some((spot, w, target, end)) = best {
            return Some((spot, w, end, (end == spot).then_some(target)));
        }
        let e = self.pos(1 - s, j);
        // Toward the enemy to come into range; away from it to get outside a minimum range.
        let gap = if d > range {
            d - range + 0.05
        } else if d < p.min_range {
            -(p.min_range - d + 0.05)
        } else {
            return None;
        };
        if gap.abs() > walk + EPS {
            return None;
        }
        let to = if gap > 0.0 {
            at.toward(e, gap)
        } else {
            Pos::new(at.x + (at.x - e.x) / d.max(1e-3) * -gap, at.y + (at.y - e.y) / d.max(1e-3) * -gap)
        };
        let end = self.move_end(s, i, to, walk).0;
        self.can_target_any(s, i, end).then_some((to, None, end, None))
    }

    /// Where a unit with Bayonets would walk to attack within 1½" (GnG 1.5, "Unit Upgrades":
    /// +1 ATK), the target and the attack's value ([`Self::attack_value`]); `None` without
    /// Bayonets, for non-infantry, for blast weapons (the blast would catch the unit itself)
    /// and when no enemy is within a walk plus 1½".
    pub(super) fn bayonet_plan(&self, s: Side, i: usize) -> Option<(Pos, usize, f64)> {
        let f = self.bt.sides[s][i];
        let p = self.profile(s, i);
        if self.upgrade[s] != Some(UpgradeRule::Bayonets) || p.kind != Kind::Infantry || p.blast > 0.0 {
            return None;
        }
        let (walk, _) = move_allowance(p, &f);
        let at = self.pos(s, i);
        let mut best: Option<(Pos, usize, f64)> = None;
        for (j, e) in self.bt.sides[1 - s].iter().enumerate() {
            let ep = Pos::new(e.x, e.y);
            let d = at.dist(ep);
            if !e.alive || d <= BAYONET_REACH + EPS || d > walk + BAYONET_REACH {
                continue;
            }
            let to = at.toward(ep, d - (BAYONET_REACH - 0.1));
            let end = self.move_end(s, i, to, walk).0;
            if end.dist(ep) > BAYONET_REACH + EPS || !self.can_target(s, i, end, ep) {
                continue;
            }
            let v = self.attack_value(s, i, end, j);
            if best.is_none_or(|b| v > b.2) {
                best = Some((to, j, v));
            }
        }
        best
    }

    /// Where a waiting unit (`cautious`, `hold`, `attack-if-stronger` while weaker or level) out of
    /// cover goes: the nearest of side `s`'s free cover spots `spots` ([`Self::free_spots_into`]:
    /// piece, position) within two rushes (inches); `None` in cover, unable to move, or too far.
    fn waiting_spot_among(&self, s: Side, i: usize, spots: &[(usize, Pos)]) -> Option<(usize, Pos)> {
        let f = self.bt.sides[s][i];
        let p = self.profile(s, i);
        if self.st[s][i].cover.is_some() || !rules::can_move(p, &f) {
            return None;
        }
        let (_, rush) = move_allowance(p, &f);
        let (k, d) = crate::battle::nearest(self.pos(s, i), spots.iter().enumerate().map(|(k, (_, q))| (k, *q)))?;
        (d <= rush * 2.0).then_some(spots[k])
    }

    /// What activating unit `i` of side `s` would achieve this turn (GnG 1.5, "How Combat
    /// Works": only 5 of the side's units activate, so the ones that achieve most go):
    /// - [`Gain::Act`]: the best attack from here, after a walk or a Bayonet charge, or a
    ///   heal, in expected points ([`Self::attack_value`]; a heal restores cost × its share of
    ///   life);
    /// - [`Gain::DestroyCover`]: Anti Armor on cover with enemies behind it, the points of the
    ///   sure damage ([`Self::damage_value`]);
    /// - [`Gain::Move`]: a rush toward the enemy, a move to cover or a Hunker;
    /// - [`Gain::Idle`]: nothing — Artillery or a Shaken vehicle with nothing in range, or a
    ///   waiting vehicle with no cover to go to. An idle unit does not take one of the 5
    ///   activations.
    ///
    /// `cover`: side `s`'s free cover spots and the pieces it would destroy ([`SpotBuf`]); the
    /// plans it makes go into `plans`.
    fn gain(&self, s: Side, i: usize, cover: &SpotBuf, plans: &mut Plans) -> Gain {
        let spots = &cover.spots[..];
        let f = self.bt.sides[s][i];
        let p = self.profile(s, i);
        let at = self.pos(s, i);
        if let Some(w) = self.cover_to_destroy_among(s, i, &cover.destroyable) {
            return Gain::DestroyCover(self.occupants(w).map(|(os, j)| self.damage_value(os, j, 1)).sum());
        }
        if p.tags.medic {
            if let Some(j) = self.heal_target(s, i, at, self.r.book.rules.medic_reach as f32) {
                let pj = self.profile(s, j);
                return Gain::Act(pj.cost * self.bt.sides[s][j].damage as f64 / pj.health as f64);
            }
        }
        let can_move = rules::can_move(p, &f);
        if let Some(g) = self.goal(s, i).filter(|&g| self.plays_objective(s, i, g, true, spots)) {
            return self.objective_gain(s, i, g, can_move);
        }
        let waiting = self.waits(s, i);
        let mut best = plans.here(self, s, i).map(|(_, v)| v);
        if can_move && p.kind == Kind::Infantry && !waiting {
            let walked = plans.walk(self, s, i, spots).and_then(|(_, _, end)| plans.walked(self, s, i, end));
            let walked = walked.map(|(_, v)| v);
            let charged = plans.bayonet(self, s, i).map(|(_, _, v)| v);
            best = [best, walked, charged].into_iter().flatten().reduce(f64::max);
        }
        if let Some(v) = best {
            return Gain::Act(v);
        }
        if p.kind == Kind::Infantry {
            return Gain::Move;
        }
        if waiting {
            return if self.waiting_spot_among(s, i, spots).is_some() { Gain::Move } else { Gain::Idle };
        }
        let range = self.range_of(s, f.unit as usize);
        match self.nearest_enemy(s, at) {
            Some((_, d)) if can_move && d > range => Gain::Move,
            _ => Gain::Idle,
        }
    }

    /// What activating unit `i` with goal `g` would achieve: on its point or unable to move,
    /// its attack from here (nothing: [`Gain::Idle`]); on the way, [`Gain::Contest`] when it
    /// must break an enemy capture, its attack after a walk when it shoots on the way, else
    /// [`Gain::Objective`].
    fn objective_gain(&self, s: Side, i: usize, g: super::Goal, can_move: bool) -> Gain {
        let at = self.pos(s, i);
        if self.arrived(s, i, g) || !can_move {
            return self.best_target_from(s, i, at).map_or(Gain::Idle, |(_, v)| Gain::Act(v));
        }
        if g.urgent {
            return Gain::Contest;
        }
        let (to, len, shoots) = self.objective_move(s, i, g, true);
        let end = self.move_end(s, i, to, len).0;
        match self.best_target_from(s, i, end) {
            Some((_, v)) if shoots => Gain::Act(v),
            _ => Gain::Objective,
        }
    }

    /// Whether unit `i` with goal `g` plays for its command point this activation rather than
    /// as the tactic would without one: when it must break an enemy capture, when it cannot
    /// move or attack, and when the tactic would not attack (from here, after a walk into range
    /// or a Bayonet charge): a unit on its way or on its point still fights, and moves for the
    /// point (or holds it) instead of rushing at the enemy.
    ///
    /// `spots`: side `s`'s [`Self::free_spots_into`].
    fn plays_objective(&self, s: Side, i: usize, g: super::Goal, may_attack: bool, spots: &[(usize, Pos)]) -> bool {
        let f = self.bt.sides[s][i];
        let p = self.profile(s, i);
        if g.urgent || !rules::can_move(p, &f) || !may_attack {
            return true;
        }
        if self.best_target_from(s, i, self.pos(s, i)).is_some() {
            return false;
        }
        let walks = p.kind == Kind::Infantry
            && !self.waits(s, i)
            && (self.walk_plan_among(s, i, spots).is_some() || self.bayonet_plan(s, i).is_some());
        !walks
    }

    /// The activation order of side `s` this turn: the units whose activation achieves most
    /// ([`Self::gain`]: attacks, heals and cover destruction by expected points, then moves)
    /// take the 5 activations; among those, attacks and heals go first (best first), then Anti
    /// Armor destroying cover (no unit may attack after it), then moves. Idle units are left
    /// out. The rest follow in the same order, for activations left by units that died.
    ///
    /// Into `order` (cleared first), and each unit's plans into `plans` (by unit, for its
    /// activation); `cover` holds side `s`'s free cover spots and the pieces it would destroy
    /// (nothing moves while the units are rated: they are the same for all) and `keyed` is a
    /// scratch buffer, all reused from turn to turn.
    fn activation_order(
        &self,
        s: Side,
        cover: &SpotBuf,
        keyed: &mut Vec<Key>,
        order: &mut Vec<usize>,
        plans: &mut Vec<Plans>,
    ) {
        keyed.clear();
        plans.clear();
        plans.resize(self.bt.sides[s].len(), Plans::fresh(self));
        for (i, f) in self.bt.sides[s].iter().enumerate() {
            if !f.alive || self.st[s][i].stunned {
                continue;
            }
            let p = self.profile(s, i);
            let strength = (p.atk as f64 + 1.0) * p.hit_damage as f64;
            match self.gain(s, i, cover, &mut plans[i]) {
                Gain::Act(v) => keyed.push((0, v, i)),
                Gain::DestroyCover(v) => keyed.push((1, v, i)),
                Gain::Move => keyed.push((2, strength, i)),
                Gain::Objective => keyed.push((2, OBJECTIVE_FIRST + strength, i)),
                Gain::Contest => keyed.push((0, f64::MAX, i)),
                Gain::Idle => {}
            }
        }
        // Choose by what the activation achieves: points first, moves after.
        keyed.sort_by(|a, b| (a.0 == 2).cmp(&(b.0 == 2)).then(b.1.total_cmp(&a.1)).then(a.2.cmp(&b.2)));
        let n = (self.r.book.rules.activations_per_turn as usize).min(keyed.len());
        let (chosen, rest) = keyed.split_at_mut(n);
        chosen.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.total_cmp(&a.1)).then(a.2.cmp(&b.2)));
        order.clear();
        order.extend(chosen.iter().chain(rest.iter()).map(|k| k.2));
    }

    /// One side's turn (GnG 1.5, "How Combat Works"): reserves enter, then up to 5 units
    /// activate in the tactic's order.
    pub fn take_turn<D: Dice>(&mut self, s: Side, dice: &mut D) {
        self.deploy_reserves(s, dice);
        if self.mission.has_command_points() {
            self.assign_goals(s);
        }
        for f in self.bt.sides[s].iter_mut() {
            f.activated = false;
            if f.lock == LOCK_PENDING {
                f.lock = LOCK_ACTIVE;
            }
        }
        let mut heals_left = match self.r.book.rules.medic_heals {
            MedicHeals::PerActivation => u32::MAX,
            MedicHeals::OncePerTurn => 1,
        };
        let mut may_attack = true;
        let mut activations = 0;
        let mut scratch = std::mem::take(&mut self.scratch);
        // Worked out afresh each turn (whatever was changed between turns).
        scratch.spots.epoch = None;
        let cover = scratch.spots.refreshed(self, s);
        self.activation_order(s, cover, &mut scratch.keyed, &mut scratch.order, &mut scratch.plans);
        for &i in &scratch.order {
            if activations == self.r.book.rules.activations_per_turn || self.bt.alive[1 - s] == 0 {
                break;
            }
            if !self.bt.sides[s][i].alive {
                continue;
            }
            activations += 1;
            self.bt.sides[s][i].activated = true;
            let plans = &mut scratch.plans[i];
            self.activate_among(s, i, &mut heals_left, &mut may_attack, &mut scratch.spots, plans, dice);
        }
        self.scratch = scratch;
        for (f, st) in self.bt.sides[s].iter_mut().zip(self.st[s].iter_mut()) {
            if f.lock == LOCK_ACTIVE {
                f.lock = LOCK_NONE;
            }
            // A Flashbang lasts for the side's next turn: this one.
            st.stunned = false;
        }
        self.side_turns[s] += 1;
    }

    /// Whether unit `i` of side `s` waits where it stands this activation: its side's tactic
    /// decides ([`crate::rulesets::gng::tactics::Tactic::waits`]).
    fn waits(&self, s: Side, i: usize) -> bool {
        self.tactic[s].tactic().waits(self, s, i)
    }

    /// One activation of unit `i` of side `s`, as decision steps.
    #[cfg(test)]
    pub(super) fn activate<D: Dice>(
        &mut self,
        s: Side,
        i: usize,
        heals_left: &mut u32,
        may_attack: &mut bool,
        dice: &mut D,
    ) {
        let mut plans = Plans::fresh(self);
        self.activate_among(s, i, heals_left, may_attack, &mut SpotBuf::default(), &mut plans, dice);
    }

    /// [`Self::activate`] with side `s`'s free cover spots ([`Self::free_spots_into`]) kept in
    /// `spots`: worked out when a plan first asks for them and only if the cover changed since
    /// ([`SpotBuf`]); every plan that asks for them is made before the unit moves. `plans`: the
    /// unit's plans from the activation order, taken if nothing changed since ([`Plans`]).
    #[allow(clippy::too_many_arguments)]
    fn activate_among<D: Dice>(
        &mut self,
        s: Side,
        i: usize,
        heals_left: &mut u32,
        may_attack: &mut bool,
        spots: &mut SpotBuf,
        plans: &mut Plans,
        dice: &mut D,
    ) {
        plans.renew(self);
        let f = self.bt.sides[s][i];
        let p = *self.profile(s, i);
        let at = self.pos(s, i);
        let can_move = rules::can_move(&p, &f);
        let (walk, rush) = move_allowance(&p, &f);
        let reach = self.r.book.rules.medic_reach as f32;
        // 1. Heal the most valuable wounded unit within reach (walking to it if needed).
        if p.tags.medic && *heals_left > 0 {
            if let Some(j) = self.heal_target(s, i, at, reach) {
                self.heal(s, j);
                *heals_left -= 1;
                return;
            }
            if can_move {
                if let Some(j) = self.heal_target(s, i, at, reach + walk) {
                    let mate = self.pos(s, j);
                    let gap = at.dist(mate) - reach + 0.1;
                    self.move_unit(s, i, at.toward(mate, gap.max(0.0)), walk, None, dice);
                    if self.bt.sides[s][i].alive && self.pos(s, i).dist(mate) <= reach + EPS {
                        self.heal(s, j);
                        *heals_left -= 1;
                    }
                    return;
                }
            }
        }
        // 2. Destroy cover with two enemies behind it (the side's last attack this turn).
        //    (Only Anti Armor asks: the cover is worked out again only for a plan that needs it.)
        if *may_attack && p.tags.anti_armor {
            if let Some(w) = self.cover_to_destroy_among(s, i, spots.destroyable(self, s)) {
                self.destroy_cover(s, i, w);
                *may_attack = false;
                return;
            }
        }
        // 2b. A unit with a command point to take or hold plays for it (`super::objective`),
        //     unless on its way it has an attack to make (then steps 3 and 4).
        if let Some(g) = self.goal(s, i).filter(|&g| self.plays_objective(s, i, g, *may_attack, spots.get(self, s))) {
            self.play_objective(s, i, g, *may_attack, dice);
            return;
        }
        let waiting = self.waits(s, i);
        // A Bayonet charge (walk within 1½", attack at +1 ATK) when it is worth more than the
        // attack of step 3 or 4 after its move (`plan`, none: from here); a waiting unit does
        // not charge (as [`Self::gain`] rates it).
        let bayonet = if *may_attack && can_move && !waiting { plans.bayonet(self, s, i) } else { None };
        // `plan`: the walk plan ([`Plans::walk`]) or none (from here).
        let charge = |plan: Option<(Pos, Option<usize>, Pos)>, plans: &mut Plans| {
            // Without a charge to weigh, the attack after the move need not be worked out.
            bayonet?;
            let other = match plan {
                Some((_, _, end)) => plans.walked(self, s, i, end),
                None => plans.here(self, s, i),
            };
            let other = other.map(|(_, v)| v);
            bayonet.filter(|&(_, _, v)| other.is_none_or(|o| v > o)).map(|(to, _, _)| to)
        };
        // 3. Attack from here; infantry out of cover first walk into cover it can fire from.
        let here = if *may_attack { plans.here(self, s, i) } else { None };
        if let Some((t, _)) = here {
            let mut plan = None;
            if p.kind == Kind::Infantry && self.st[s][i].cover.is_none() && can_move {
                if let Some((spot, Some(w), end)) = plans.walk(self, s, i, spots.get(self, s)) {
                    plan = Some((spot, Some(w), end));
                }
            }
            let mut walked_to = None;
            if let Some(to) = charge(plan, plans) {
                self.move_unit(s, i, to, walk, None, dice);
            } else if let Some((spot, w, end)) = plan {
                self.move_unit(s, i, spot, walk, w, dice);
                walked_to = Some(end);
            } else {
                // Nothing has changed since the target was chosen: it is the one `fire` finds.
                if self.bt.sides[s][i].alive {
                    self.fire_at(s, i, t, dice);
                }
                return;
            }
            if self.bt.sides[s][i].alive {
                self.fire_after_walk(s, i, walked_to, plans, dice);
            }
            return;
        }
        // 4. Walk into range (into cover if it can), or charge with Bayonets, then attack.
        if *may_attack && can_move && !waiting {
            let plan = plans.walk(self, s, i, spots.get(self, s));
            let charged = charge(plan, plans).map(|to| (to, None, None));
            if let Some((to, w, walked_to)) = charged.or(plan.map(|(to, w, end)| (to, w, Some(end)))) {
                self.move_unit(s, i, to, walk, w, dice);
                if self.bt.sides[s][i].alive {
                    self.fire_after_walk(s, i, walked_to, plans, dice);
                }
                return;
            }
        }
        // 5. Waiting (`cautious`, `hold`, `attack-if-stronger` while weaker or level): hold cover
        //    and hunker; out of cover, go to the nearest free spot.
        if waiting {
            if let Some((w, q)) = self.waiting_spot_among(s, i, spots.get(self, s)) {
                self.move_unit(s, i, q, rush, Some(w), dice);
                return;
            }
            // Hunker is infantry only (RULINGS.md, "Readings added after the first review").
            if p.kind == Kind::Infantry {
                self.st[s][i].hunker = true;
            }
            return;
        }
        // 6. Rush (Cruise for vehicles) toward the nearest enemy, into cover on the way when a
        //    free spot is about as close to the enemy.
        if can_move {
            if let Some((j, d)) = self.nearest_enemy(s, at) {
                let e = self.pos(1 - s, j);
                let range = self.range_of(s, f.unit as usize);
                let want = if d > range { (d - range + 0.05).min(rush) } else { 0.0 };
                if want > 0.0 {
                    let straight = self.move_end(s, i, at.toward(e, want), rush).0;
                    let left_after = straight.dist(e);
                    let mut dest = (at.toward(e, want), rush, None);
                    if p.kind == Kind::Infantry {
                        for &(w, q) in spots.get(self, s) {
                            if at.dist(q) <= rush + EPS
                                && q.dist(e) <= left_after + 3.0
                                && self.move_end(s, i, q, rush).0.dist(q) < 0.05
                            {
                                dest = (q, rush, Some(w));
                                break;
                            }
                        }
                    }
                    self.move_unit(s, i, dest.0, dest.1, dest.2, dice);
                    return;
                }
            }
        }
        // 7. Nothing to attack and nowhere to go: Hunker (infantry).
        if p.kind == Kind::Infantry {
            self.st[s][i].hunker = true;
        }
    }

    /// Attacks the best target from where the unit stands, choosing a Grenade Launcher or
    /// Flashbang shot when it has one ready and it would catch another enemy and no friend.
    pub(super) fn fire<D: Dice>(&mut self, s: Side, i: usize, dice: &mut D) {
        let at = self.pos(s, i);
        if let Some((t, _)) = self.best_target_from(s, i, at) {
            self.fire_at(s, i, t, dice);
        }
    }

    /// [`Self::fire`] after unit `i`'s move, by its walk plan to `walked_to` ([`Plans::walk`];
    /// none: another move). Standing where that walk ends, its best target is the one
    /// [`Plans::walked`] found there before the move, when it did: a unit's own move (and
    /// what it met on the way) changes nothing its choice of target reads but where it
    /// stands, the point given.
    fn fire_after_walk<D: Dice>(&mut self, s: Side, i: usize, walked_to: Option<Pos>, plans: &Plans, dice: &mut D) {
        match (walked_to, plans.walked) {
            (Some(end), Some(target)) if self.pos(s, i) == end => {
                if let Some((t, _)) = target {
                    self.fire_at(s, i, t, dice);
                }
            }
            _ => self.fire(s, i, dice),
        }
    }

    /// [`Self::fire`] at enemy `t`, the best target from where the unit stands.
    fn fire_at<D: Dice>(&mut self, s: Side, i: usize, t: usize, dice: &mut D) {
        let u = self.bt.sides[s][i].unit as usize;
        let mut special = Special::None;
        let ready = self.side_turns[s] >= self.st[s][i].grenade_ready;
        let radius = match self.upgrade[s] {
            Some(UpgradeRule::GrenadeLaunchers) if Some(u) == self.named.riflemen || Some(u) == self.named.heavy => {
                special = Special::Grenade;
                2.0
            }
            Some(UpgradeRule::Flashbang) if Some(u) == self.named.riflemen || Some(u) == self.named.light => {
                special = Special::Flashbang;
                2.5
            }
            _ => 0.0,
        };
        if special != Special::None {
            let c = self.pos(1 - s, t);
            let others = self.bt.sides[1 - s]
                .iter()
                .enumerate()
                .filter(|(j, e)| *j != t && e.alive && c.within(Pos::new(e.x, e.y), radius + EPS))
                .count();
            if ready && others >= 1 && !self.friend_near(s, i, c, radius) {
                self.st[s][i].grenade_ready = self.side_turns[s] + super::ROUND_OWN_TURNS;
            } else {
                special = Special::None;
            }
        }
        self.attack(s, i, t, special, dice);
    }

    /// Plays a set-up game to the end: roll-off for the first turn, alternate turns; after
    /// each, the mission's command points are scored and the game ends when decided
    /// ([`Skirmish::decided`]: last side standing, or every command point held);
    /// `max_turns` game turns ends it by [`Skirmish::winner_at_cap`] (the Skirmish: a draw).
    pub fn play<D: Dice>(&mut self, dice: &mut D) -> SkirmishOutcome {
        let first = super::setup::roll_off(dice);
        loop {
            if let Some(out) = self.next_turn(first, dice) {
                return out;
            }
        }
    }

    /// The next player turn of [`Skirmish::play`] (side `first` took the first): its outcome
    /// once the game is over after it (decided, or the last turn of the cap), else `None`.
    pub fn next_turn<D: Dice>(&mut self, first: Side, dice: &mut D) -> Option<SkirmishOutcome> {
        let max = 2 * self.cfg.max_turns;
        if self.turn < max {
            let s = (first + self.turn as usize) % 2;
            self.take_turn(s, dice);
            self.score_command_points(s);
            self.turn += 1;
            if let Some((winner, end)) = self.decided() {
                return Some(SkirmishOutcome { winner, turns: self.turn.div_ceil(2), end });
            }
        }
        (self.turn >= max).then(|| SkirmishOutcome {
            winner: self.winner_at_cap(),
            turns: self.cfg.max_turns,
            end: super::End::TurnCap,
        })
    }
}
