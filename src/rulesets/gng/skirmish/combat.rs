//! The rules the skirmish adds to the duel's steps (GnG 1.5): range and modifiers from
//! upgrades, cover and Hunker, terrain crossed on a move, blasts, Grenade Launchers and
//! Flashbangs, Medics, Anti Armor against cover. Apart from the tactic so that what the rules
//! allow and what a player chooses stay separate: the tactic calls these and never rolls
//! itself. Named `combat`, not `rules`, so it does not shadow [`crate::rulesets::gng::rules`].

use super::{EPS, SPOT_OFFSET, SPOTS, Skirmish};
use crate::battle::{AreaKind, Pos, Wall};
use crate::dice::Dice;
use crate::rulesets::Side;
use crate::rulesets::gng::Kind;
use crate::rulesets::gng::rules::{self, Fighter, opposed_roll_with};

/// Bayonets' reach, inches: "When one of your units comes within 1½" of a target and they
/// attack, they gain +1 ATK" (GnG 1.5, "Unit Upgrades").
pub const BAYONET_REACH: f32 = 1.5;

/// The seven upgrades (GnG 1.5, "Unit Upgrades"), recognised by name in the cost list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UpgradeRule {
    OpticalSights,
    GrenadeLaunchers,
    HollowPoint,
    EnhancedRifling,
    Bayonets,
    Flashbang,
    BodyArmor,
}

impl UpgradeRule {
    /// The rule an upgrade's name stands for; `None` for a name pointsworth does not know.
    pub fn from_name(name: &str) -> Option<Self> {
        Some(match crate::config::id_of(name).as_str() {
            "optical-sights" => UpgradeRule::OpticalSights,
            "grenade-launchers" => UpgradeRule::GrenadeLaunchers,
            "hollow-point-rounds" => UpgradeRule::HollowPoint,
            "enhanced-rifling" => UpgradeRule::EnhancedRifling,
            "bayonets" => UpgradeRule::Bayonets,
            "flashbang-grenades" => UpgradeRule::Flashbang,
            "body-armor" => UpgradeRule::BodyArmor,
            _ => return None,
        })
    }
}

impl<'a> Skirmish<'a> {
    // ------------------------------------------------------------------------------
    // Rules: range, cover, modifiers

    /// A unit's range with upgrades: Optical Sights +2" (infantry), Enhanced Rifling +3"
    /// (Snipers). GnG 1.5, "Unit Upgrades".
    #[inline]
    pub fn range_of(&self, s: Side, u: usize) -> f32 {
        let p = self.r.profile(u);
        let up = match self.upgrade[s] {
            Some(UpgradeRule::OpticalSights) if p.kind == Kind::Infantry => 2.0,
            Some(UpgradeRule::EnhancedRifling) if Some(u) == self.named.snipers => 3.0,
            _ => 0.0,
        };
        p.range + up
    }

    /// GnG 1.5, "Glossary" and "Cover": a target within range and not inside the minimum
    /// range; units shoot over cover, so cover never blocks the line of sight.
    ///
    /// The same answer as `d <= range + EPS && d + EPS >= min_range` on `d = at.dist(e)`, most
    /// often without the square root ([`Pos::within`]; a minimum range of 0 or less holds for
    /// every distance).
    pub(super) fn can_target(&self, s: Side, i: usize, at: Pos, e: Pos) -> bool {
        self.reach(s, i).holds(at, e)
    }

    /// Unit `i` of side `s`'s [`Reach`]: its range ([`Self::range_of`]) and minimum range,
    /// looked up once for its many candidate targets.
    #[inline]
    pub(super) fn reach(&self, s: Side, i: usize) -> Reach {
        let u = self.bt.sides[s][i].unit as usize;
        Reach::new(self.range_of(s, u), self.r.profile(u).min_range)
    }

    /// GnG 1.5, "Cover": whether unit `j` of side `s` shelters behind an intact piece that the
    /// line from `from` crosses.
    #[inline]
    pub fn in_cover_from(&self, s: Side, j: usize, from: Pos) -> bool {
        match self.st[s][j].cover {
            Some(w) => {
                let w = &self.table.walls[w as usize];
                w.intact && w.crosses(from, self.pos(s, j))
            }
            None => false,
        }
    }

    /// DEF modifiers of unit `j` of side `s` attacked from `from`: cover +3, Hunker +2, Body
    /// Armor +1 for non-Light units.
    #[inline]
    pub fn def_mod(&self, s: Side, j: usize, from: Pos) -> i32 {
        let mut m = 0;
        if self.in_cover_from(s, j, from) {
            m += self.cfg.cover_def;
        }
        m + self.def_mod_no_cover(s, j)
    }

    /// DEF modifiers of the units a blast of `radius` centred on `centre` can catch (RULINGS.md,
    /// "GnG blast and cover"): cover counts when the line from the blast's target to the unit
    /// crosses the unit's cover piece; Hunker and Body Armor as usual. Into `mods` (by side, by
    /// unit; reused from blast to blast): worked out for the units alive within `radius` + 1"
    /// (more than the blast reaches), 0 for the others, which the blast never asks about.
    fn blast_def_mods_into(&self, centre: &Fighter, radius: f32, mods: &mut [Vec<i32>; 2]) {
        let c = Pos::new(centre.x, centre.y);
        for (side, out) in mods.iter_mut().enumerate() {
            out.clear();
            out.extend(self.bt.sides[side].iter().enumerate().map(|(j, f)| {
                let near = f.alive && c.within(Pos::new(f.x, f.y), radius + 1.0);
                if near { self.def_mod(side, j, c) } else { 0 }
            }));
        }
    }

    fn def_mod_no_cover(&self, s: Side, j: usize) -> i32 {
        let mut m = 0;
        if self.st[s][j].hunker {
            m += self.cfg.hunker_def;
        }
        if self.upgrade[s] == Some(UpgradeRule::BodyArmor) && !self.profile(s, j).tags.light {
            m += 1;
        }
        m
    }

    /// ATK modifiers of attacker `i` of side `s` against enemy `j`: Hollow Point Rounds +2
    /// against Light targets, Bayonets +1 within 1½" (GnG 1.5, "Unit Upgrades").
    pub fn atk_mod(&self, s: Side, i: usize, j: usize) -> i32 {
        self.atk_mod_from(s, self.pos(s, i), j)
    }

    /// [`Self::atk_mod`] for an attacker of side `s` standing at `at` (inches): what the
    /// tactic weighs before a move.
    pub fn atk_mod_from(&self, s: Side, at: Pos, j: usize) -> i32 {
        let mut m = 0;
        match self.upgrade[s] {
            Some(UpgradeRule::HollowPoint) if self.profile(1 - s, j).tags.light => m += 2,
            Some(UpgradeRule::Bayonets) if at.within(self.pos(1 - s, j), BAYONET_REACH + EPS) => m += 1,
            _ => {}
        }
        m
    }

    /// Each cover piece's use for side `s` ([`PieceUse`]) into `pieces` (cleared first, so a
    /// caller reuses one buffer), by piece: its spots for the side, and the units (alive)
    /// sheltering behind it, counted in one pass over both sides.
    pub(super) fn piece_use_into(&self, s: Side, pieces: &mut Vec<PieceUse>) {
        pieces.clear();
        pieces.extend(self.table.walls.iter().enumerate().map(|(w, wall)| {
            let spots = match self.spot_cache.get(w) {
                Some(c) if c.wall == (wall.a, wall.b) && c.depth == self.table.depth => c.spots[s],
                _ => self.spots_behind(wall, s),
            };
            PieceUse { spots, units: [0, 0], taken: [false; SPOTS.len()] }
        }));
        for os in 0..2 {
            for (j, f) in self.bt.sides[os].iter().enumerate() {
                let Some(piece) = self.st[os][j].cover.filter(|_| f.alive) else { continue };
                let Some(u) = pieces.get_mut(piece as usize) else { continue };
                u.units[os] += 1;
                let at = Pos::new(f.x, f.y);
                for (taken, &p) in u.taken.iter_mut().zip(&u.spots) {
                    // A spot within 0.5" of a unit behind the piece is taken.
                    *taken |= at.within(p, 0.5);
                }
            }
        }
    }

    /// Units sheltering behind cover piece `w` (alive), both sides.
    pub(super) fn occupants(&self, w: usize) -> impl Iterator<Item = (Side, usize)> + '_ {
        (0..2).flat_map(move |s| {
            (0..self.bt.sides[s].len())
                .filter(move |&j| self.bt.sides[s][j].alive && self.st[s][j].cover == Some(w as u8))
                .map(move |j| (s, j))
        })
    }

    /// [`Self::free_spots_into`] into a new vector.
    #[cfg(test)]
    pub(super) fn free_spots(&self, s: Side) -> Vec<(usize, Pos)> {
        let (mut out, mut destroyable, mut pieces) = (Vec::new(), Vec::new(), Vec::new());
        self.free_spots_into(s, &mut out, &mut destroyable, &mut pieces);
        out
    }

    /// The free cover spots for side `s` into `spots` (cleared first, so a caller reuses one
    /// buffer): (piece, spot position), among intact pieces with fewer than `cover_capacity`
    /// occupants, on the side away from the enemy edge, and not within 0.5" of a unit behind
    /// the piece. With them, in the same pass ([`Self::piece_use_into`], into `pieces`, a
    /// buffer), the cover pieces side `s`'s Anti Armor would destroy (GnG 1.5, "Anti Armor")
    /// into `destroyable` (cleared first): intact, with at least two enemies and no friend
    /// behind it. Which of those a unit may target is its range's business
    /// ([`Self::cover_to_destroy_among`]).
    pub(super) fn free_spots_into(
        &self,
        s: Side,
        spots: &mut Vec<(usize, Pos)>,
        destroyable: &mut Vec<usize>,
        pieces: &mut Vec<PieceUse>,
    ) {
        spots.clear();
        destroyable.clear();
        self.piece_use_into(s, pieces);
        for (w, (wall, u)) in self.table.walls.iter().zip(pieces.iter()).enumerate() {
            if !wall.intact {
                continue;
            }
            if (u.units[0] + u.units[1]) < self.cfg.cover_capacity as usize {
                spots.extend(u.spots.iter().zip(&u.taken).filter(|(_, taken)| !**taken).map(|(p, _)| (w, *p)));
            }
            if u.units[s] == 0 && u.units[1 - s] >= 2 {
                destroyable.push(w);
            }
        }
    }

    /// The cover spots of piece `wall` for side `s`, on the side away from the enemy edge.
    fn spots_behind(&self, wall: &Wall, s: Side) -> [Pos; SPOTS.len()] {
        let enemy_y = if s == 0 { self.table.depth } else { 0.0 };
        let mid_x = (wall.a.x + wall.b.x) / 2.0;
        SPOTS.map(|t| wall.spot_behind(t, SPOT_OFFSET, Pos::new(mid_x, enemy_y)))
    }

    /// Works out every piece's cover spots for both sides once ([`PieceSpots`]), after the
    /// terrain is placed: pieces do not move.
    pub(super) fn cache_spots(&mut self) {
        let mut cache = std::mem::take(&mut self.spot_cache);
        cache.clear();
        cache.extend(self.table.walls.iter().map(|wall| PieceSpots {
            wall: (wall.a, wall.b),
            depth: self.table.depth,
            spots: [0, 1].map(|s| self.spots_behind(wall, s)),
        }));
        self.spot_cache = cache;
    }

    // ------------------------------------------------------------------------------
    // Rules: moving, attacking, healing, destroying cover

    /// Moves unit `i` of side `s` toward `to`, stopping there, by at most `len`, its move
    /// allowance in inches (Walk, Rush, Move or Cruise); the engine keeps it on the table and
    /// walks it round cover pieces. GnG 1.5, "Terrain": rough ground takes 2" from the
    /// allowance ("move 2" less than they normally would"), so a unit that wants less than
    /// the allowance minus 2" still gets there. GnG 1.5, "Vehicles": a Tank "can go over all
    /// terrain except minefields", so it crosses cover pieces in a straight line and ignores
    /// rough and dangerous ground (the skirmish places no minefields: its dangerous ground is
    /// quicksand or razor wire). Crossing dangerous ground rolls a d6, 1 = 1 damage. Moving
    /// ends Hunker and leaves cover; arriving on a cover spot (`cover`) takes it. Where it
    /// stops is `Self::move_end`.
    pub fn move_unit<D: Dice>(&mut self, s: Side, i: usize, to: Pos, len: f32, cover: Option<usize>, dice: &mut D) {
        let from = self.pos(s, i);
        let ignores = self.ignores_terrain(s, i);
        let (end, corner) = self.move_end(s, i, to, len);
        if end.dist(from) < 1e-4 {
            return;
        }
        {
            let f = &mut self.bt.sides[s][i];
            f.x = end.x;
            f.y = end.y;
        }
        self.plan_epoch += 1;
        self.st[s][i].hunker = false;
        let left = self.st[s][i].cover.is_some();
        self.st[s][i].cover = match cover {
            Some(w) if end.dist(to) < 0.05 => Some(w as u8),
            _ => None,
        };
        // Only units behind cover count for the free spots: a move in the open changes none.
        if left || self.st[s][i].cover.is_some() {
            self.cover_epoch += 1;
        }
        if let Some(t) = &mut self.trace {
            t.units[s][i].1.extend(corner);
            t.units[s][i].1.push(end);
        }
        if !ignores {
            for _ in 0..self.table.areas_touched(from, end, AreaKind::Dangerous) {
                if self.bt.sides[s][i].alive && dice.d6() == 1 {
                    rules::take_damage(self.r, &mut self.bt, s, i, 1, 1 - s);
                    self.count_deaths(None);
                }
            }
        }
    }

    /// Where [`Self::move_unit`] stops unit `i` of side `s` moving toward `to` by at most `len`
    /// inches (its allowance), and the corner of its detour round a cover piece, if any. Rough
    /// ground on the way takes 2" from the allowance (GnG 1.5, "Terrain"); a Tank goes straight
    /// over cover and rough ground (GnG 1.5, "Vehicles"). The move and the tactic's plans both
    /// use it, so a plan reaches exactly where the move ends.
    pub(super) fn move_end(&self, s: Side, i: usize, to: Pos, len: f32) -> (Pos, Option<Pos>) {
        let from = self.pos(s, i);
        let ignores = self.ignores_terrain(s, i);
        let path = |len: f32| {
            if ignores { (from.toward(self.table.clamp(to), len), None) } else { self.table.move_path(from, to, len) }
        };
        let (end, corner) = path(len);
        if !ignores && self.table.areas_touched(from, end, AreaKind::Rough) > 0 {
            return path((len - 2.0).max(0.0));
        }
        (end, corner)
    }

    /// Whether unit `i` of side `s` goes over terrain without effect: the Tank (GnG 1.5,
    /// "Vehicles": "all terrain except minefields"; the skirmish places no minefields).
    fn ignores_terrain(&self, s: Side, i: usize) -> bool {
        Some(self.bt.sides[s][i].unit as usize) == self.named.tank
    }

    /// Attacks enemy `t` with unit `i` of side `s`: the opposed roll with modifiers, damage,
    /// then the blast radius; Grenade Launchers and Flashbangs when the tactic chose them.
    pub fn attack<D: Dice>(&mut self, s: Side, i: usize, t: usize, special: Special, dice: &mut D) {
        let p = *self.profile(s, i);
        let from = self.pos(s, i);
        let pt = *self.profile(1 - s, t);
        let (am, dm) = (self.atk_mod(s, i, t), self.def_mod(1 - s, t, from));
        let Some(total) = opposed_roll_with(self.r, &p, &pt, am, dm, dice) else {
            return;
        };
        // A hit damages or stuns: the plans made before it may no longer hold. A miss changes
        // nothing.
        self.plan_epoch += 1;
        let centre = self.bt.sides[1 - s][t];
        let killer = self.bt.sides[s][i].unit as usize;
        match special {
            Special::None => {
                rules::take_damage(self.r, &mut self.bt, 1 - s, t, p.hit_damage, s);
                if p.blast > 0.0 {
                    self.blast((s, i), (1 - s, t), &centre, total, p.blast, p.hit_damage, dice);
                }
            }
            Special::Grenade => {
                rules::take_damage(self.r, &mut self.bt, 1 - s, t, p.hit_damage, s);
                self.blast((s, i), (1 - s, t), &centre, total, 2.0, 1, dice);
            }
            Special::Flashbang => {
                self.st[1 - s][t].stunned = true;
                let mut mods = std::mem::take(&mut self.blast_mods);
                self.blast_def_mods_into(&centre, 2.5, &mut mods);
                let mut caught = Vec::new();
                rules::blast_with(
                    self.r,
                    &mut self.bt,
                    dice,
                    (s, i),
                    (1 - s, t),
                    &centre,
                    total,
                    2.5,
                    0,
                    |side, j| mods[side][j],
                    |side, j| caught.push((side, j)),
                );
                self.blast_mods = mods;
                for (side, j) in caught {
                    self.st[side][j].stunned = true;
                }
            }
        }
        self.count_deaths(Some((s, killer)));
    }

    #[allow(clippy::too_many_arguments)]
    fn blast<D: Dice>(
        &mut self,
        shooter: (Side, usize),
        hit: (Side, usize),
        centre: &Fighter,
        total: i32,
        radius: f32,
        dmg: u8,
        dice: &mut D,
    ) {
        let mut mods = std::mem::take(&mut self.blast_mods);
        self.blast_def_mods_into(centre, radius, &mut mods);
        rules::blast_with(
            self.r,
            &mut self.bt,
            dice,
            shooter,
            hit,
            centre,
            total,
            radius,
            dmg,
            |side, j| mods[side][j],
            |_, _| {},
        );
        self.blast_mods = mods;
    }

    /// Records deaths not yet counted; kills of enemies go to `killer` (side, unit type).
    fn count_deaths(&mut self, killer: Option<(Side, usize)>) {
        // Units die only by `rules::take_damage`, which keeps `bt.alive`: when the dead on the
        // table are as many as those counted, there is nothing to look for.
        let all_counted = |g: &Self, s: Side| g.bt.alive[s] as usize + g.deaths_counted[s] == g.bt.sides[s].len();
        if all_counted(self, 0) && all_counted(self, 1) {
            return;
        }
        for s in 0..2 {
            for j in 0..self.bt.sides[s].len() {
                if !self.bt.sides[s][j].alive && !self.st[s][j].counted {
                    self.st[s][j].counted = true;
                    self.deaths_counted[s] += 1;
                    self.plan_epoch += 1;
                    if self.st[s][j].cover.take().is_some() {
                        self.cover_epoch += 1;
                    }
                    if let Some((ks, ku)) = killer {
                        if ks != s {
                            self.kill_log.push((ks, ku, self.bt.sides[s][j].unit as usize));
                        }
                    }
                    let turn = self.turn / 2 + 1;
                    if let Some(t) = &mut self.trace {
                        t.units[s][j].2 = Some(turn);
                    }
                }
            }
        }
    }

    /// GnG 1.5, "Medics": returns unit `j` to Healthy.
    pub fn heal(&mut self, s: Side, j: usize) {
        self.plan_epoch += 1;
        rules::medic_heal(&mut self.bt, s, j);
    }

    /// GnG 1.5, "Anti Armor": destroys cover piece `w`; every unit behind it takes 1 damage
    /// (Tough absorbs it as usual). The caller forbids further attacks this turn.
    pub fn destroy_cover(&mut self, s: Side, i: usize, w: usize) {
        self.table.walls[w].intact = false;
        self.cover_epoch += 1;
        self.plan_epoch += 1;
        let behind: Vec<(Side, usize)> = self.occupants(w).collect();
        for (os, j) in behind {
            rules::take_damage(self.r, &mut self.bt, os, j, 1, s);
            self.st[os][j].cover = None;
        }
        let killer = self.bt.sides[s][i].unit as usize;
        self.count_deaths(Some((s, killer)));
    }
}

/// A cover piece's use for one side ([`Skirmish::piece_use_into`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct PieceUse {
    /// Its cover spots for the side.
    spots: [Pos; SPOTS.len()],
    /// Units (alive) sheltering behind it, by side.
    units: [usize; 2],
    /// Whether each spot has a unit behind the piece within 0.5" of it.
    taken: [bool; SPOTS.len()],
}

/// A set of indices below 64; iterates them in increasing order.
#[derive(Debug, Clone, Copy)]
pub(super) struct Bits(u64);

impl Iterator for Bits {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let k = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(k)
    }
}

/// A cover piece's spots for each side ([`Skirmish::cache_spots`]), with the piece (end points)
/// and table depth they were worked out for: [`Skirmish::free_spots_into`] uses them only for
/// that same piece on that table, so a piece moved or a table changed after set-up (as tests
/// do) is worked out afresh.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct PieceSpots {
    wall: (Pos, Pos),
    depth: f32,
    spots: [[Pos; SPOTS.len()]; 2],
}

/// Which shot an attack is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Special {
    None,
    /// Grenade Launchers: a 2" blast grenade.
    Grenade,
    /// Flashbang Grenades: 2½" blast, no damage, caught units cannot activate next turn.
    Flashbang,
}

/// Where a unit can target from: within its range and not inside its minimum range
/// ([`Skirmish::can_target`]), worked out once for a unit's many candidate targets.
#[derive(Debug, Clone, Copy)]
pub(super) struct Reach {
    /// Range + EPS: the farthest distance that counts.
    limit: f32,
    min_range: f32,
}

impl Reach {
    pub(super) fn new(range: f32, min_range: f32) -> Self {
        Reach { limit: range + EPS, min_range }
    }

    /// The units of `chunk` (at most 64, by index in it) alive and not plainly out of range of
    /// `at` ([`Pos::beyond2`]), found without a branch per unit: every unit [`Reach::holds`]
    /// for is among them.
    #[inline]
    pub(super) fn candidates(self, at: Pos, chunk: &[Fighter]) -> Bits {
        debug_assert!(chunk.len() <= 64);
        let outer2 = Pos::beyond2(self.limit);
        let mut bits = 0u64;
        for (k, e) in chunk.iter().enumerate() {
            bits |= u64::from(e.alive & (at.dist2(Pos::new(e.x, e.y)) <= outer2)) << k;
        }
        Bits(bits)
    }

    /// Whether a unit at `at` can target `e`: `d <= range + EPS && d + EPS >= min_range` on
    /// `d = at.dist(e)`, exactly. Units shoot over cover, so no wall blocks the line (GnG 1.5,
    /// "Cover").
    #[inline]
    pub(super) fn holds(self, at: Pos, e: Pos) -> bool {
        at.within(e, self.limit) && (self.min_range <= 0.0 || at.dist(e) + EPS >= self.min_range)
    }
}
