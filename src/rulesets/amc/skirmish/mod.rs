//! The Army Men Combat mission (issue 4; RULINGS.md, "Army Men Combat v2.0", Mission): a 48" ×
//! 48" table with 5–10 terrain pieces, two 300-point armies placed alternately within 12" of
//! their own edges, 4 rounds of the activation roll-off, and "each player scores the points of
//! enemy units destroyed or Pinned at the end; higher score wins, equal is a draw". Played on
//! the shared battle engine ([`crate::battle`]).
//!
//! Why a module apart from [`super::rules`]: duels fight on one line; here each shot's cover
//! depends on where the terrain is and units move in two dimensions. Every rule step is the
//! duel's — [`rules::shoot`] (given the shot's cover and whether it is a Guard reaction),
//! [`rules::melee`], [`rules::pinned_test`], [`rules::stunned_test`],
//! [`rules::activation_rolloff`] — and the default tactic is [`rules::decide`] read at each
//! enemy's distance, with each shot's cover. This module adds the table, deployment, cover from terrain,
//! movement round terrain, Guard reactions, the tactics' waiting actions and the scoring.
//!
//! Readings and simplifications (also in the report):
//! - **Terrain** pieces are low walls `cover_length` (6") long that do not block line of sight
//!   (so indirect fire never needs a spotter) and that units move round. "Cover Terrain":
//!   an infantry target has +1 block die when the line of fire crosses a piece within
//!   `cover_reach` (2") of it ("in or behind cover").
//! - **Deployment**: a roll-off (d6, ties re-roll) decides who places first, then the players
//!   alternate placing one unit (a side that runs out lets the other finish); the k-th unit
//!   of a side stands at the front of its 12" zone, the side's units spread evenly across the
//!   table in army order. The alternation does not change where a unit goes.
//! - **Vehicles** face the enemy edge when deployed. A vehicle that may move or pivot this
//!   activation keeps its facing while it moves and pivots at the end of its activation, toward
//!   the enemy unit that leaves it least exposed (see `Mission::pivot`); damage 3–4 ("may not
//!   move or pivot") and a lost activation keep the facing. Hits and charges roll on the damage
//!   table in the arc the attacker stands in (front and rear 90° each, [`arc_from`]), and the
//!   tactics value a shot or charge on a vehicle in the arc it shows the attacker now.
//! - **Guard** ("Guard Actions"): every guarding unit that is not Pinned may react to an
//!   enemy unit's move (Advance, Rush, Charge before the melee, Advance away, a vehicle
//!   falling back; a unit that does not move draws no reaction): it shoots once, with +1
//!   block die for the target, at the point of that move where its volley is worth most
//!   (infantry: expected unblocked hits; a vehicle: the chance to destroy it in the arc it
//!   shows there; range, cover and arc read there, the path looked at every 0.5"; the earliest
//!   such point), if any point is in range of one of its weapons. Guards shoot in the order of
//!   their points along the path, each choosing its point before any of them shoots. Guard
//!   lasts until the unit's next activation. Vehicles never Guard or Hunker ("Vehicle Rules":
//!   Hold, Advance and Rush only).
//! - **Tactics**: *default* — [`rules::decide`] against each enemy unit, taking the enemy and
//!   option worth the most points (Hold and shoot, Advance and shoot, Charge, Rush; issue 15:
//!   not simply the nearest enemy); a unit with nothing to do (the unarmed Jeep) rushes straight
//!   away from the nearest enemy. *cautious* — Hunker when the block die saves more points
//!   against every enemy's best attack than the default's choice is worth; Guard when the
//!   nearest enemy is out of its range, it is out of every enemy's range and that enemy can
//!   come into its range this round (the enemy must cross open ground); otherwise as default.
//!   *hold* — never moves nor boards a transport: where the default would move (Advance,
//!   Rush, Charge, an Advance away, an unarmed unit's move away), it shoots from where it
//!   stands when a weapon reaches the default's target or, failing that, the nearest enemy;
//!   with nothing in reach, infantry Guard and vehicles stand (Hold with no shot).
//!   *attack-if-stronger* — as *hold* while the side is ahead on the score, or level with
//!   no more points neither destroyed nor Pinned than the enemy; as *default* when it is
//!   behind, or level and stronger (a side ahead keeps its lead by holding; of two level sides
//!   the weaker is content with a draw).
//! - **Transport** ("Vehicle Units": Jeep "Transport up to 5 models", Truck and APC
//!   "Transport 10"): an infantry unit whose move ends in contact (within [`CONTACT`], 1") with
//!   a friendly vehicle that has room for all its models gets in; carried units stand where
//!   their transport is, move with it and cannot be shot, targeted or charged (nor do they shoot
//!   or guard); a carried unit gets out with an Advance: placed in contact with the transport,
//!   it moves its Advance and may shoot. A transport destroyed with units inside: they are
//!   placed 2" behind the wreck (within the book's 3") and each takes D6 hits, blocked as
//!   shooting hits (no morale test: they are not shooting; [`rules::wreck_hits`]).
//!   *Tactic* (`default`, `cautious`, and `attack-if-stronger` while it attacks; `hold` never
//!   boards): an infantry unit whose best option is a Rush (nothing to shoot or charge this
//!   activation) boards the nearest friendly transport with room that it can reach with its
//!   Rush and that may still move this round; a loaded transport drives toward the nearest
//!   enemy until it is its passengers' longest range plus their Advance away (under
//!   `attack-if-stronger` while it holds, it stays where it is); a passenger gets out when its
//!   target is within that reach (plus contact).
//! - Units activate in army order within a side, except that transports go after the other
//!   units and passengers last (so a unit can board before its transport moves and get out
//!   after it moved; `Mission::next_unit`).

pub mod army;

use std::collections::BTreeMap;
use std::path::Path;

use crate::battle::replay::{Replay, ReplayUnit};
use crate::battle::{Pos, Table, deployment_band};
use crate::config::{ConfigError, Invalid, Source, in_range};
use crate::dice::{Dice, FastDice};
use crate::rulesets::amc::rules::{self, Action, Decision, UnitState};
use crate::rulesets::amc::tactics::doctrine;
use crate::rulesets::amc::{ArmyMenCombat, Kind, Profile};
use crate::rulesets::rollout::{RolloutGain, RolloutRun};
use crate::rulesets::skirmish::{
    ArmyError, ArmySource, GameRecord, MissionInfo, Skirmish, SkirmishSettings, SkirmishText, TacticInfo,
};
use crate::rulesets::skirmish::{check_rollout, check_runs, check_walls_in_inches, place_walls, skirmish_config};
use crate::rulesets::{Side, UnitInfo};

mod decisions;
mod setup;
mod transport;

pub use crate::rulesets::amc::tactics::Pick;
pub use decisions::Caution;
pub use setup::*;

/// Distances closer than this count as equal (inches).
const EPS: f32 = 1e-3;

skirmish_config! {
    /// The `[skirmish]` table of the config. Every key has a default.
    pub struct SkirmishConfig {
        /// Table size, inches (48" × 48").
        pub table_width: f64,
        pub table_depth: f64,
        /// Terrain pieces placed at random from the seed: uniformly `terrain_min..=terrain_max`
        /// (5–10), each `cover_length` (6") long.
        pub terrain_min: u32,
        pub terrain_max: u32,
        pub cover_length: f64,
        /// A crossed piece within this of an infantry target gives it cover (2").
        pub cover_reach: f64,
        /// Deployment zone depth from the own edge (12").
        pub deploy_depth: f64,
        /// Rounds (4).
        pub rounds: u32,
        /// Report: games of the rollout best response against the play (each played three
        /// times; 0, the default, leaves it out) and playouts per tactic at each of its decisions
        /// (16 by default), one per round ([`crate::rulesets::rollout`]).
        pub rollout_games: u64,
        pub rollout_playouts: u32,
    }
    /// Games per `pointsworth skirmish` run (`--trials`), per tactic in the report (0 leaves
    /// the section out), and per batch of the deterministic engine.
    runs: { trials: 20000, report_trials: 20000, batch_size: 20 }
    defaults: {
        table_width: 48.0,
        table_depth: 48.0,
        terrain_min: 5,
        terrain_max: 10,
        cover_length: 6.0,
        cover_reach: 2.0,
        deploy_depth: 12.0,
        rounds: 4,
        rollout_games: 0,
        rollout_playouts: 16,
    }
}

impl SkirmishConfig {
    /// Checks ranges; the message names the key, the error carries it for its place.
    pub fn validate(&self) -> Result<(), Invalid> {
        use crate::config::Ends::Both;
        let c = self;
        let (min, max) = (("skirmish.terrain_min", c.terrain_min), ("skirmish.terrain_max", c.terrain_max));
        check_walls_in_inches([c.table_width, c.table_depth, c.deploy_depth], min, max, c.cover_length, c.cover_reach)?;
        in_range("skirmish.rounds", c.rounds, 1, 100, Both, "")?;
        check_runs(c.trials, c.report_trials, c.batch_size)?;
        check_rollout(c.rollout_games, c.rollout_playouts)
    }
}

/// One unit on the table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Unit {
    /// Index into [`entries`].
    pub entry: usize,
    pub st: UnitState,
    pub pos: Pos,
    /// On Guard since its last activation.
    pub guard: bool,
    /// The direction a vehicle faces, a unit vector (infantry: unused): toward the enemy edge
    /// at deployment, then as `Mission::pivot` turns it.
    pub facing: Pos,
    /// The friendly transport (index into its side) it rides in, AMC 2.0, "Vehicle Units";
    /// `None` while it stands on the table. A passenger is where its transport is.
    pub aboard: Option<usize>,
}

impl Unit {
    /// Alive and on the table: not riding in a transport (AMC 2.0, "Vehicle Units": carried
    /// models cannot be shot, targeted or charged, and do not shoot or guard).
    pub fn on_table(&self) -> bool {
        self.st.alive() && self.aboard.is_none()
    }
}

/// The path of one move on the table, inches: where it started, the corner of a detour round
/// a wall (if it took one) and where it ended.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MovePath {
    pub from: Pos,
    pub corner: Option<Pos>,
    pub end: Pos,
}

impl MovePath {
    /// A unit that stays at `at`.
    pub fn still(at: Pos) -> MovePath {
        MovePath { from: at, corner: None, end: at }
    }

    /// Points of the path every `step` inches along it (its start, corner and end included),
    /// each with its distance along the path from the start, in order.
    pub fn points(&self, step: f32) -> Vec<(f32, Pos)> {
        let mut out = vec![(0.0, self.from)];
        let mut along = 0.0;
        let mut at = self.from;
        for to in self.corner.into_iter().chain([self.end]) {
            let len = at.dist(to);
            let n = (len / step).ceil() as usize;
            for k in 1..=n {
                let l = (k as f32 * step).min(len);
                out.push((along + l, at.toward(to, l)));
            }
            along += len;
            at = to;
        }
        out
    }
}

/// Units in contact stand at most this far apart, inches: the mission's moves stop 1" short
/// of their goal ("Movement": units may only move within 1" of others when charging).
pub const CONTACT: f32 = 1.0;

/// How far from its destroyed transport a passenger is placed, inches (AMC 2.0, "Vehicle
/// Units": "within 3"").
pub const BAIL_OUT: f32 = 2.0;

/// How finely a guard looks along an enemy's move for the point to shoot at, inches.
const GUARD_STEP: f32 = 0.5;

/// AMC 2.0, "Damage": the arc of a vehicle standing at `at` and facing `facing` (a unit
/// vector) that an attacker at `from` hits ([`rules::arc_of_bearing`]); the front when they
/// stand on the same spot.
pub fn arc_from(facing: Pos, at: Pos, from: Pos) -> rules::Arc {
    let d = at.dist(from);
    if d <= EPS {
        return rules::Arc::Front;
    }
    rules::arc_of_bearing((facing.x * (from.x - at.x) + facing.y * (from.y - at.y)) / d)
}

/// One seeded game's picture data: per side, per unit, its positions and the round it was
/// destroyed in.
pub type Trace = [Vec<(Vec<Pos>, Option<u32>)>; 2];

/// What the game came to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MissionOutcome {
    /// `None`: a draw (equal scores).
    pub winner: Option<Side>,
    /// Points of enemy units destroyed or Pinned at the end, per side.
    pub score: [f64; 2],
    pub rounds: u32,
}

/// A mission in progress. Reused across trials.
#[derive(Debug, Clone)]
pub struct Mission<'a> {
    pub r: &'a ArmyMenCombat,
    pub cfg: &'a SkirmishConfig,
    pub all: &'a [(UnitInfo, Profile)],
    /// Each side's tactic, side A first ([`crate::rulesets::amc::tactics`]).
    pub tactic: [Pick; 2],
    pub sides: [Vec<Unit>; 2],
    pub table: Table,
    pub round: u32,
    /// Which side placed first and the placing order (side per placement).
    pub placement: Vec<Side>,
    /// (killer entry, victim entry) of every unit destroyed by an enemy this game.
    pub kills: Vec<(usize, usize)>,
    pub trace: Option<Trace>,
    /// The last move made: (side, unit, path), read by `Mission::guard_reactions`.
    pub moved: Option<(Side, usize, MovePath)>,
}

impl<'a> Mission<'a> {
    /// A fresh mission (no units, empty table), each side playing its `tactic` (side A first).
    pub fn new(
        r: &'a ArmyMenCombat,
        cfg: &'a SkirmishConfig,
        all: &'a [(UnitInfo, Profile)],
        tactic: [Pick; 2],
    ) -> Self {
        Mission {
            r,
            cfg,
            all,
            tactic,
            sides: [Vec::new(), Vec::new()],
            table: Table::new(cfg.table_width as f32, cfg.table_depth as f32),
            round: 0,
            placement: Vec::new(),
            kills: Vec::new(),
            trace: None,
            moved: None,
        }
    }

    pub(crate) fn profile(&self, s: Side, i: usize) -> &'a Profile {
        let all: &'a [(UnitInfo, Profile)] = self.all;
        &all[self.sides[s][i].entry].1
    }

    /// AMC 2.0, "The Battlefield": places 5–10 terrain pieces from `dice`, outside both
    /// deployment zones.
    pub fn place_terrain<D: Dice>(&mut self, dice: &mut D) {
        let c = self.cfg;
        place_walls(&mut self.table, (c.terrain_min, c.terrain_max), c.cover_length, c.deploy_depth, dice);
    }

    /// RULINGS.md, Mission, Deployment: a roll-off (d6 each, ties re-roll) for who places
    /// first, then alternate single units within `deploy_depth` of the own edge (side 0 along
    /// y = 0, side 1 along y = depth); see the module docs for where each unit goes.
    pub fn deploy<D: Dice>(&mut self, armies: [&[usize]; 2], dice: &mut D) {
        let first = rules::activation_rolloff(dice, [1, 1]);
        self.placement.clear();
        self.kills.clear();
        self.moved = None;
        self.round = 0;
        for s in 0..2 {
            self.sides[s].clear();
        }
        if let Some(t) = &mut self.trace {
            t[0].clear();
            t[1].clear();
        }
        let mut next = [0usize; 2];
        let mut s = first;
        while next[0] < armies[0].len() || next[1] < armies[1].len() {
            if next[s] >= armies[s].len() {
                s = 1 - s;
            }
            let k = next[s];
            let n = armies[s].len() as f32;
            let (lo, hi) = deployment_band(&self.table, s, self.cfg.deploy_depth as f32);
            let y = if s == 0 { hi - 0.5 } else { lo + 0.5 };
            let pos = Pos::new(self.table.width * (k as f32 + 0.5) / n, y);
            let e = armies[s][k];
            let facing = Pos::new(0.0, if s == 0 { 1.0 } else { -1.0 });
            let st = UnitState::fresh(&self.all[e].1, 0.0);
            self.sides[s].push(Unit { entry: e, st, pos, guard: false, facing, aboard: None });
            if let Some(t) = &mut self.trace {
                t[s].push((vec![pos], None));
            }
            self.placement.push(s);
            next[s] += 1;
            s = 1 - s;
        }
    }

    /// "Cover Terrain" read for low walls (module docs): whether an infantry target at `at`
    /// is in cover from a shooter at `from`.
    pub fn in_cover(&self, from: Pos, at: Pos) -> bool {
        let reach = self.cfg.cover_reach as f32 + EPS;
        self.table.walls.iter().any(|w| w.intact && w.crosses(from, at) && w.dist_to(at) <= reach)
    }

    pub(crate) fn nearest_enemy(&self, s: Side, i: usize) -> Option<(usize, f32)> {
        let me = self.sides[s][i].pos;
        crate::battle::nearest(
            me,
            self.sides[1 - s].iter().enumerate().filter(|(_, u)| u.on_table()).map(|(j, u)| (j, u.pos)),
        )
    }

    /// Side `s`'s unit `i` shoots side `1 - s`'s unit `j` from where both stand.
    fn shoot(&mut self, s: Side, i: usize, j: usize, guard_reaction: bool, dice: &mut impl Dice) {
        let at = self.sides[1 - s][j].pos;
        self.shoot_at(s, i, j, at, guard_reaction, dice);
    }

    /// Side `s`'s unit `i` shoots side `1 - s`'s unit `j` standing at `at` (a point of its move,
    /// for a Guard reaction): the range and the cover are read there.
    fn shoot_at(&mut self, s: Side, i: usize, j: usize, at: Pos, guard_reaction: bool, dice: &mut impl Dice) {
        let (sp, tp) = (self.profile(s, i), self.profile(1 - s, j));
        let from = self.sides[s][i].pos;
        let cover = self.in_cover(from, at);
        let shooter = self.sides[s][i].st;
        let mut target = self.sides[1 - s][j].st;
        let arc = arc_from(self.sides[1 - s][j].facing, at, from);
        rules::shoot(dice, sp, &shooter, tp, &mut target, from.dist(at), cover, guard_reaction, arc);
        self.set_state(1 - s, j, target, Some(s), Some(i));
        self.bail_out(1 - s, j, (s, i), dice);
    }

    /// Stores a unit's new state; credits a destruction to `by` (side, unit).
    fn set_state(&mut self, s: Side, j: usize, st: UnitState, by_side: Option<Side>, by: Option<usize>) {
        let was = self.sides[s][j].st.alive();
        self.sides[s][j].st = st;
        if was && !st.alive() {
            if let (Some(bs), Some(bi)) = (by_side, by) {
                self.kills.push((self.sides[bs][bi].entry, self.sides[s][j].entry));
            }
            if let Some(t) = &mut self.trace {
                t[s][j].1.get_or_insert(self.round);
            }
        }
    }

    /// Moves side `s`'s unit `i` up to `len` toward `to` round terrain, stopping `short`
    /// inches before it; traces it and keeps its path in [`Mission::moved`].
    fn move_to(&mut self, s: Side, i: usize, to: Pos, len: f32, short: f32) {
        let from = self.sides[s][i].pos;
        self.moved = Some((s, i, MovePath::still(from)));
        let len = len.min((from.dist(to) - short).max(0.0));
        if len <= EPS {
            return;
        }
        let (end, corner) = self.table.move_path(from, to, len);
        self.moved = Some((s, i, MovePath { from, corner, end }));
        // "Vehicle Units": carried models move with their transport.
        for k in 0..self.sides[s].len() {
            if k == i || (self.sides[s][k].aboard == Some(i) && self.sides[s][k].st.alive()) {
                self.sides[s][k].pos = end;
                if let Some(t) = &mut self.trace {
                    if let Some(c) = corner {
                        t[s][k].0.push(c);
                    }
                    t[s][k].0.push(end);
                }
            }
        }
    }

    /// "Guard Actions": after side `s`'s unit `i` moved (the path in [`Mission::moved`]; a unit
    /// that did not move draws no reaction, guards react to units that move), every guarding
    /// enemy unit may react: "the player may stop enemy units at any point of their move to
    /// shoot, but the target gets +1 die to its blocking roll". Each guard that is not Pinned
    /// ("Morale": a Pinned unit acts only after passing its test) and has a weapon in range of
    /// some point of the path shoots once, at the point where its volley is worth most
    /// ([`Mission::guard_point`]), and leaves Guard. The guards shoot in the order of their
    /// points along the path; once the mover is destroyed the rest keep their Guard. Only
    /// infantry guard ("Vehicle Rules": vehicles may only Hold, Advance and Rush).
    fn guard_reactions(&mut self, s: Side, i: usize, dice: &mut impl Dice) {
        let o = 1 - s;
        if !self.sides[o].iter().any(|u| u.guard) {
            return;
        }
        let path = match self.moved {
            Some((ms, mi, path)) if ms == s && mi == i && path.end == self.sides[s][i].pos => path,
            _ => return,
        };
        if path.from.dist(path.end) <= EPS && path.corner.is_none() {
            return;
        }
        let points = path.points(GUARD_STEP);
        let mut shots: Vec<(f32, usize, Pos)> = Vec::new();
        for g in 0..self.sides[o].len() {
            let u = self.sides[o][g];
            if !u.guard || !u.st.alive() || u.st.pinned || self.profile(o, g).kind != Kind::Infantry {
                continue;
            }
            if let Some((along, at)) = self.guard_point(o, g, s, i, &points) {
                shots.push((along, g, at));
            }
        }
        shots.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for (_, g, at) in shots {
            if !self.sides[s][i].st.alive() {
                break;
            }
            self.sides[o][g].guard = false;
            self.shoot_at(o, g, i, at, true, dice);
        }
    }

    /// Where side `o`'s guard `g` shoots at side `s`'s unit `i` along `points` (from
    /// [`MovePath::points`]): the first of the points where its volley is worth most — against
    /// infantry the expected unblocked hits ([`rules::expected_wounds`], with that point's
    /// cover), against a vehicle the chance to destroy it in the arc it shows there (it keeps
    /// its facing while it moves; "Damage"); `None` when no point is in range of any of its
    /// weapons.
    fn guard_point(&self, o: Side, g: usize, s: Side, i: usize, points: &[(f32, Pos)]) -> Option<(f32, Pos)> {
        let (gp, tp) = (self.profile(o, g), self.profile(s, i));
        let (guard, target) = (self.sides[o][g], self.sides[s][i].st);
        // The volley depends on the point only through which weapons reach, the cover and the arc.
        let mut seen: Vec<(u8, bool, rules::Arc, f64)> = Vec::new();
        let mut best: Option<(f64, f32, Pos)> = None;
        for &(along, at) in points {
            let d = guard.pos.dist(at);
            let groups = rules::firing_groups(gp, guard.st.models, tp, d);
            let reach =
                groups.iter().enumerate().fold(0u8, |m, (k, (w, n))| m | (((w.is_some() && *n > 0) as u8) << k));
            if reach == 0 {
                continue;
            }
            let cover = self.in_cover(guard.pos, at);
            let arc = arc_from(self.sides[s][i].facing, at, guard.pos);
            let value = match seen.iter().find(|x| x.0 == reach && x.1 == cover && x.2 == arc) {
                Some(x) => x.3,
                None => {
                    let v = match tp.kind {
                        Kind::Infantry => rules::expected_wounds(gp, guard.st.models, tp, &target, d, cover),
                        Kind::Vehicle => {
                            let extra = rules::block_dice(tp, &target, cover, true);
                            let keep = 1.0 - crate::rulesets::amc::exact::p_destroyed_per_roll(arc);
                            let dist = crate::rulesets::amc::exact::unblocked_dist(gp, guard.st.models, tp, d, extra);
                            dist.iter().enumerate().map(|(u, p)| p * (1.0 - keep.powi(u as i32))).sum()
                        }
                    };
                    seen.push((reach, cover, arc, v));
                    v
                }
            };
            if best.is_none_or(|b| value > b.0 + 1e-12) {
                best = Some((value, along, at));
            }
        }
        best.map(|b| (b.1, b.2))
    }

    /// One activation of side `s`'s unit `i` (AMC 2.0, "Activation"): the Pinned and stunned
    /// tests, then the tactic's action against the target `Mission::choose` picks.
    pub fn activate<D: Dice>(&mut self, s: Side, i: usize, dice: &mut D) {
        let p = self.profile(s, i);
        let mut st = self.sides[s][i].st;
        st.activated = true;
        st.hunker = false;
        self.sides[s][i].guard = false;
        self.moved = None;
        let was_immobile = st.immobile;
        let may_act = rules::pinned_test(dice, p, &mut st) && rules::stunned_test(dice, &mut st);
        self.set_state(s, i, st, None, None);
        if !may_act || !st.alive() {
            return;
        }
        if self.sides[s][i].aboard.is_some() {
            self.ride(s, i, dice);
            return;
        }
        let Some((j, decision, _)) = self.choose(s, i) else {
            return;
        };
        if self.load(s, i) > 0 {
            self.carry(s, i, j, dice);
            self.end_activation(s, i, j, was_immobile);
            return;
        }
        if let Some(t) = self.ride_to(s, i, &decision) {
            self.move_to(s, i, self.sides[s][t].pos, p.rush, CONTACT);
            self.guard_reactions(s, i, dice);
            self.embark(s, i, t);
            return;
        }
        match self.tactic[s].tactic().caution(self, s, i, &decision) {
            Some(Caution::Hunker) => {
                self.sides[s][i].st.hunker = true;
                return;
            }
            Some(Caution::Guard) => {
                self.sides[s][i].guard = true;
                return;
            }
            Some(Caution::Hold) => {
                // The doctrine's target if a weapon reaches it from here, else the nearest enemy.
                let reaches = |k: usize| p.has_weapon_in_range(self.sides[s][i].pos.dist(self.sides[1 - s][k].pos));
                let target =
                    if reaches(j) { Some(j) } else { self.nearest_enemy(s, i).map(|(k, _)| k).filter(|&k| reaches(k)) };
                if let Some(t) = target {
                    self.shoot(s, i, t, false, dice);
                }
                self.end_activation(s, i, j, was_immobile);
                return;
            }
            None => {}
        }
        let target = self.sides[1 - s][j].pos;
        match decision.action {
            Action::Hold => self.shoot(s, i, j, false, dice),
            Action::Advance(len) => {
                self.move_to(s, i, target, len, 1.0);
                self.guard_reactions(s, i, dice);
                if self.sides[s][i].st.alive() && !self.sides[s][i].st.pinned {
                    self.shoot(s, i, j, false, dice);
                }
            }
            Action::Retreat(len) => {
                let from = self.sides[s][i].pos;
                let d = from.dist(target).max(EPS);
                let away = Pos::new(from.x + (from.x - target.x) * len / d, from.y + (from.y - target.y) * len / d);
                self.move_to(s, i, self.table.clamp(away), len, 0.0);
                self.guard_reactions(s, i, dice);
                if self.sides[s][i].st.alive() && !self.sides[s][i].st.pinned {
                    self.shoot(s, i, j, false, dice);
                }
            }
            Action::Rush(len) => {
                self.move_to(s, i, target, len, 1.0);
                self.guard_reactions(s, i, dice);
            }
            Action::Charge => {
                self.move_to(s, i, target, self.r.book.rules.charge_move, 0.0);
                self.guard_reactions(s, i, dice);
                if self.sides[s][i].pos.dist(target) <= 1.0 + EPS {
                    self.charge(s, i, j, dice);
                }
            }
            Action::Wait => {
                self.fall_back(s, i);
                self.guard_reactions(s, i, dice);
            }
        }
        self.end_activation(s, i, j, was_immobile);
    }

    /// The end of side `s`'s unit `i`'s activation against target `j`: a vehicle that could
    /// move pivots (`Mission::pivot`); a spent "may not move or pivot" is cleared.
    fn end_activation(&mut self, s: Side, i: usize, j: usize, was_immobile: bool) {
        if self.profile(s, i).kind == Kind::Vehicle && !was_immobile && self.sides[s][i].st.alive() {
            self.pivot(s, i, j);
        }
        if was_immobile {
            self.sides[s][i].st.immobile = false;
        }
    }

    /// "Vehicle Rules": a vehicle that may move or pivot this activation (not after damage 3–4,
    /// "may not move or pivot next time it's activated", nor after losing the activation to a
    /// failed 4+) pivots at its end; it keeps its facing while it moves. It turns to face the
    /// enemy unit that leaves the fewest threatening enemies in its side and rear arcs: the
    /// sum over enemy units that can shoot it next round (a weapon in range of their Advance
    /// and shot) or charge it (infantry within their charge move) of the chance that one damage
    /// roll in their arc destroys it; on equal sums its target `j` first, then army order.
    fn pivot(&mut self, s: Side, i: usize, j: usize) {
        let o = 1 - s;
        let me = self.sides[s][i].pos;
        let threats: Vec<Pos> = (0..self.sides[o].len())
            .filter(|&k| self.sides[o][k].on_table())
            .filter(|&k| {
                let (ep, d) = (self.profile(o, k), self.sides[o][k].pos.dist(me));
                (ep.has_any_weapon() && d <= ep.max_range() + ep.advance)
                    || (ep.kind == Kind::Infantry && d <= self.r.book.rules.charge_move)
            })
            .map(|k| self.sides[o][k].pos)
            .collect();
        let exposure = |f: Pos| -> f64 {
            threats.iter().map(|&t| crate::rulesets::amc::exact::p_destroyed_per_roll(arc_from(f, me, t))).sum()
        };
        let candidates = std::iter::once(j).chain(0..self.sides[o].len()).filter(|&k| self.sides[o][k].on_table());
        let mut best: Option<(f64, Pos)> = None;
        for k in candidates {
            let t = self.sides[o][k].pos;
            let d = me.dist(t);
            if d <= EPS {
                continue;
            }
            let f = Pos::new((t.x - me.x) / d, (t.y - me.y) / d);
            let e = exposure(f);
            if best.is_none_or(|b| e < b.0 - 1e-12) {
                best = Some((e, f));
            }
        }
        if let Some((_, f)) = best {
            self.sides[s][i].facing = f;
        }
    }

    /// "Melee": the charged unit's Pinned test, then rounds until one unit is destroyed.
    fn charge<D: Dice>(&mut self, s: Side, i: usize, j: usize, dice: &mut D) {
        let (cp, dp) = (self.profile(s, i), self.profile(1 - s, j));
        let (mut c, mut d) = (self.sides[s][i].st, self.sides[1 - s][j].st);
        if !c.alive() || c.pinned || !d.alive() {
            return;
        }
        if rules::pinned_test(dice, dp, &mut d) {
            let arc = arc_from(self.sides[1 - s][j].facing, self.sides[1 - s][j].pos, self.sides[s][i].pos);
            rules::melee(dice, cp, &mut c, dp, &mut d, self.r.book.rules.melee_round_cap, arc);
        }
        self.set_state(1 - s, j, d, Some(s), Some(i));
        self.set_state(s, i, c, Some(1 - s), Some(j));
        self.bail_out(1 - s, j, (s, i), dice);
    }

    /// Plays one round (AMC 2.0, "Playing the Game"): the activation roll-off before every
    /// activation until every unit has activated.
    pub fn play_round<D: Dice>(&mut self, dice: &mut D) {
        self.round += 1;
        for u in self.sides.iter_mut().flatten() {
            u.st.activated = false;
        }
        loop {
            let left = |m: &Self, s: Side| m.sides[s].iter().filter(|u| u.st.alive() && !u.st.activated).count() as u32;
            let l = [left(self, 0), left(self, 1)];
            if l == [0, 0] {
                break;
            }
            // The roll-off picks a side with units left (`l[s] > 0`), and `next_unit` counts the
            // same units (alive, not activated): never `None` here.
            let s = rules::activation_rolloff(dice, l);
            let i = self.next_unit(s).expect("a unit left");
            self.activate(s, i, dice);
        }
    }

    /// Which of side `s`'s units activates next (the player's choice; every tactic): units on
    /// the table that carry nobody first, then transports, then passengers, each in army
    /// order, so infantry can board a transport before it moves and get out after it has
    /// carried them (AMC 2.0, "Vehicle Units"). Without transports this is army order.
    pub fn next_unit(&self, s: Side) -> Option<usize> {
        let rank = |u: &Unit| {
            if u.aboard.is_some() {
                2
            } else if self.all[u.entry].1.transport > 0 {
                1
            } else {
                0
            }
        };
        (0..self.sides[s].len())
            .filter(|&k| self.sides[s][k].st.alive() && !self.sides[s][k].st.activated)
            .min_by_key(|&k| (rank(&self.sides[s][k]), k))
    }

    /// RULINGS.md, Mission: the points of side `s`'s enemy units destroyed or Pinned now.
    pub fn score(&self, s: Side) -> f64 {
        self.sides[1 - s].iter().filter(|u| !u.st.alive() || u.st.pinned).map(|u| self.all[u.entry].1.cost).sum()
    }

    /// Plays the rounds and scores the game.
    pub fn play<D: Dice>(&mut self, dice: &mut D) -> MissionOutcome {
        while self.round < self.cfg.rounds {
            self.play_round(dice);
        }
        self.outcome()
    }

    /// The game's result after the rounds played so far: the higher score wins.
    pub fn outcome(&self) -> MissionOutcome {
        let score = [self.score(0), self.score(1)];
        let winner = if score[0] > score[1] {
            Some(0)
        } else if score[1] > score[0] {
            Some(1)
        } else {
            None
        };
        MissionOutcome { winner, score, rounds: self.round }
    }
}

/// The upgrades the mission's value-in-army regression counts after the plain entries
/// (`Skirmish::skirmish_upgrades`): each upgrade name of the cost list once, in config order,
/// with its price.
pub fn upgrade_items(r: &ArmyMenCombat) -> Vec<(String, f64)> {
    let mut out: Vec<(String, f64)> = Vec::new();
    for u in &r.upgraded {
        if !out.iter().any(|x| x.0 == u.upgrade) {
            out.push((u.upgrade.clone(), u.upgrade_cost));
        }
    }
    out
}

/// The items entry `e` (index into [`entries`]) counts as in a game record: its plain entry
/// (index into the cost list) and its upgrades (indices into `items`, [`upgrade_items`]). A
/// "Jeep + Truck + Jeep MG" is a Jeep, a Truck upgrade and a Jeep MG upgrade, so the
/// regression prices each upgrade itself and the unit statistics of "Jeep" hold every Jeep.
pub fn items_of(r: &ArmyMenCombat, items: &[(String, f64)], e: usize) -> (usize, Vec<usize>) {
    let (base, ups) = &r.entry_parts[e];
    let cols = ups.iter().filter_map(|&k| items.iter().position(|x| x.0 == r.upgraded[k].upgrade)).collect();
    (*base, cols)
}

/// Fills `rec` with a finished mission: items fielded per side ([`items_of`]: plain entries,
/// then upgrades), survivors and kills per plain entry, result.
pub fn record(rec: &mut GameRecord, m: &Mission, out: &MissionOutcome) {
    rec.winner = out.winner;
    rec.turns = out.rounds;
    let n = m.r.profiles.len();
    let items = upgrade_items(m.r);
    for (s, side) in m.sides.iter().enumerate() {
        for u in side {
            let (base, ups) = items_of(m.r, &items, u.entry);
            rec.counts[s][base] += 1;
            for k in ups {
                rec.counts[s][n + k] += 1;
            }
            rec.survivors[base] += u.st.alive() as u32;
        }
    }
    let base = |e: usize| m.r.entry_parts[e].0 as u32;
    rec.kills.extend(m.kills.iter().map(|&(k, v)| (base(k), base(v))));
}

/// Sets up one game: terrain, armies (random ones drawn from `dice`), deployment.
fn set_up<D: Dice>(m: &mut Mission, armies: &Armies, dice: &mut D) -> [Army; 2] {
    m.place_terrain(dice);
    let pair = match armies {
        Armies::Random => [random_army(m.r, dice), random_army(m.r, dice)],
        Armies::Fixed(x) => [x[0].clone(), x[1].clone()],
    };
    m.deploy([&pair[0], &pair[1]], dice);
    pair
}

/// The replay label of an entry: the short label of its name and its size, "Veterans (5)" →
/// "Ve5", "Heavy Weapons (3)" → "HW3", "Tank" → "Ta".
fn entry_label(name: &str) -> String {
    let (base, size) = match name.rsplit_once('(') {
        Some((b, rest)) => (b.trim(), rest.trim_end_matches(')').trim()),
        None => (name.trim(), ""),
    };
    format!("{}{size}", crate::rulesets::gng::skirmish::short_label(base))
}

/// Plays one seeded game with a trace; returns the replay picture and the outcome.
pub fn traced_game(r: &ArmyMenCombat, armies: &Armies, tactic: Pick, seed: u64) -> (Replay, MissionOutcome) {
    let all = &r.entries;
    let stream = crate::seed::stream_id(&["army-men-combat", "skirmish", "replay"]);
    let mut dice = crate::dice::FastDice::from_seed(crate::seed::batch_seed(seed, stream, 0));
    let mut m = Mission::new(r, &r.skirmish, all, [tactic; 2]);
    m.trace = Some([Vec::new(), Vec::new()]);
    let pair = set_up(&mut m, armies, &mut dice);
    let out = m.play(&mut dice);
    let trace = m.trace.as_ref().expect("a traced game");
    let mut units = Vec::new();
    for (s, side) in trace.iter().enumerate() {
        for (i, (path, died)) in side.iter().enumerate() {
            let u = &m.sides[s][i];
            let name = entry_label(&all[u.entry].0.name);
            units.push(ReplayUnit {
                side: s,
                label: format!("{name}{}", if u.st.alive() && u.st.pinned { "↓" } else { "" }),
                name: all[u.entry].0.name.clone(),
                path: path.clone(),
                died: *died,
            });
        }
    }
    let result = match out.winner {
        Some(w) => format!("side {} wins", ["A (blue)", "B (red)"][w]),
        None => "draw".to_string(),
    };
    let replay = Replay {
        title: format!("Army Men Combat — Mission ({} tactic)", tactic.name()),
        notes: vec![
            format!("A: {} / B: {}", describe(all, &pair[0]), describe(all, &pair[1])),
            format!(
                "{result}, score {} – {} after {} rounds; ↓ = Pinned at the end",
                out.score[0], out.score[1], out.rounds
            ),
        ],
        table: m.table.clone(),
        deploy_depth: r.skirmish.deploy_depth as f32,
        units,
        markers: Vec::new(),
        legend: None,
    };
    (replay, out)
}

/// AMC 2.0, "Missions": the mission as the generic skirmish plays it.
impl Skirmish for ArmyMenCombat {
    type Army = Army;
    type Game<'a> = Mission<'a>;
    const TACTICS: &'static [TacticInfo] = &crate::rulesets::amc::tactics::TACTICS;
    const ARMY_SOURCE: ArmySource =
        ArmySource { what: "army files", how: "TOML with a [units] table of entry name = count" };
    const MISSIONS: &'static [MissionInfo] =
        &[MissionInfo::basic("the book's Mission: 300 points, 4 rounds, more enemy points destroyed or Pinned wins")];

    fn skirmish_text(&self) -> SkirmishText {
        let c = &self.skirmish;
        SkirmishText {
            game: "Mission".to_string(),
            games: "missions".to_string(),
            army_size: format!("{} points", self.army.points),
            item: "unit entry".to_string(),
            item_kind: false,
            turns: "rounds".to_string(),
            outcome: [
                "outcome (score: enemy points destroyed or Pinned)".to_string(),
                "side A scores more".to_string(),
                "side B scores more".to_string(),
                "draw (equal scores)".to_string(),
            ],
            setup: format!(
                "{}\"×{}\", {}–{} terrain pieces placed from the seed, alternate deployment within {}\" of the \
                 own edge, {} rounds of the activation roll-off; each side scores the points of enemy units \
                 destroyed or Pinned at the end, higher wins, equal draws; random armies draw plain entries \
                 uniformly while they fit (at most half the points in vehicles, at most {} Gunners, Snipers or \
                 Heavy Weapons units) and buy each of them, per upgrade group (Bayonets; Grenades or C4; \
                 Flamethrower or Bazooka; Truck or APC; MG; Medium Tank +1 or +2), none or one choice that still \
                 fits, with equal chance; a unit entry's statistics hold its upgraded copies, and each upgrade \
                 is priced as an item of its own. Simplified: terrain pieces are low walls (cover within 2\", no blocked \
                 sight), vehicles pivot only at the end of their activation (hits by arc); transport: infantry whose best \
                 option is a Rush board a reachable friendly transport with room, which drives them until they can \
                 get out (an Advance) and shoot, and a destroyed transport's passengers take D6 hits; \
                 every guard not Pinned shoots at the point of an enemy move it chooses",
                c.table_width,
                c.table_depth,
                c.terrain_min,
                c.terrain_max,
                c.deploy_depth,
                c.rounds,
                self.army.max_support
            ),
            replay_legend: "Each line is a unit's path; ✕ marks where a unit was destroyed and in which round; ↓ \
                            marks a unit Pinned at the end; brown bars are terrain pieces."
                .to_string(),
        }
    }

    fn skirmish_settings(&self) -> SkirmishSettings {
        let c = &self.skirmish;
        SkirmishSettings {
            rollout_games: c.rollout_games,
            rollout_playouts: c.rollout_playouts,
            ..SkirmishSettings::new(self.army.points, c.trials, c.report_trials, c.batch_size)
        }
    }

    fn read_armies(&self, specs: [&str; 2], _mission: usize) -> Result<[Army; 2], ArmyError> {
        Ok([read_army(self, Path::new(specs[0]))?, read_army(self, Path::new(specs[1]))?])
    }

    fn random_army<D: Dice>(&self, dice: &mut D) -> Army {
        random_army(self, dice)
    }

    fn describe_army(&self, army: &Army) -> String {
        describe(&self.entries, army)
    }

    fn skirmish_units(&self) -> Vec<UnitInfo> {
        self.book.units.clone()
    }

    fn skirmish_upgrades(&self) -> Vec<(String, f64)> {
        upgrade_items(self)
    }

    fn game(&self, tactics: [usize; 2], _mission: usize) -> Mission<'_> {
        Mission::new(self, &self.skirmish, &self.entries, tactics.map(crate::rulesets::amc::tactics::pick))
    }

    fn play<D: Dice>(&self, m: &mut Mission<'_>, armies: &Armies, dice: &mut D, rec: &mut GameRecord) {
        set_up(m, armies, dice);
        let out = m.play(dice);
        record(rec, m, &out);
    }

    fn replay(&self, armies: &Armies, tactic: usize, _mission: usize, seed: u64) -> Replay {
        traced_game(self, armies, crate::rulesets::amc::tactics::pick(tactic), seed).0
    }

    fn rollout_stage(&self) -> Option<&'static str> {
        Some("round")
    }

    /// Stages are rounds ([`Mission::play_round`], "Playing the Game"); a side's tactic is
    /// its [`Mission::tactic`], read at each of its units' activations.
    fn rollout(
        &self,
        run: &RolloutRun,
        armies: &Armies,
        _mission: usize,
        progress: &indicatif::ProgressBar,
    ) -> Result<RolloutGain, String> {
        let start = |dice: &mut FastDice, tactics: [usize; 2]| {
            let mut m = Skirmish::game(self, tactics, 0);
            set_up(&mut m, armies, dice);
            m
        };
        Ok(crate::rulesets::rollout::best_response(run, start, progress))
    }
}

/// A set-up mission played round by round for the rollout best response: the rounds
/// [`Mission::play`] plays, one per stage.
impl crate::rulesets::rollout::Staged for Mission<'_> {
    fn stage(&mut self, dice: &mut FastDice) -> Option<Option<Side>> {
        if self.round < self.cfg.rounds {
            self.play_round(dice);
        }
        (self.round >= self.cfg.rounds).then(|| self.outcome().winner)
    }

    fn set_tactic(&mut self, s: Side, t: usize) {
        self.tactic[s] = crate::rulesets::amc::tactics::pick(t);
    }
}

#[cfg(test)]
mod tests;
