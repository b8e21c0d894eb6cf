//! The Guns 'N Grenades Skirmish mission (GnG 1.5, "Missions": 350 points, last side
//! standing) played on the shared battle engine ([`crate::battle`]).
//!
//! Why a separate module from [`super::rules`]: duels are the hot path and must stay a few
//! small structs; a skirmish adds terrain, reserves, upgrades and per-unit state. It reuses
//! every rule step of the duel — the opposed roll ([`rules::opposed_roll_with`], given the
//! cover, Hunker and upgrade modifiers), damage and life stages ([`rules::take_damage`]), the
//! blast radius ([`rules::blast_with`]), Bloodied movement — and adds only what the duel lacks.
//!
//! Readings (also in the coverage table):
//! - A *turn* here is one side's turn; `max_turns` (40) counts game turns of both sides, so
//!   the cap is 80 player turns. Reaching it is a draw.
//! - Cover pieces are 6" walls parallel to the deployment edges. A unit takes cover by
//!   ending its move at one of the piece's two spots (2 units a piece) on the far side from
//!   the enemy; cover gives +3 DEF against attacks whose line crosses the wall.
//! - Units go around cover pieces (Clamber is not used by the tactics); unit bases do not
//!   block each other.
//! - Anti Armor destroying cover is the side's last activation of the turn, since no other
//!   unit may attack after it.
//! - Grenade Launchers and Flashbangs are "once per round": usable again 4 of the side's
//!   turns later. A Flashbang replaces the unit's attack: an opposed roll on the target; on a
//!   hit the target and every unit whose blast roll is lower cannot activate next turn.
//! - Reserves enter at the front of the deployment zone, at most 3 per turn, before the
//!   side activates. Artillery deploys at the start (it cannot move) and is never held back.

use serde::{Deserialize, Serialize};

use crate::battle::{AreaKind, Pos, Table, TerrainPlan, deployment_band};
use crate::dice::Dice;
use crate::rulesets::Side;
use crate::rulesets::gng::army::Army;
use crate::rulesets::gng::rules::{
    self, Battle, Fighter, LOCK_ACTIVE, LOCK_NONE, LOCK_PENDING, move_allowance, opposed_roll_with,
};
use crate::rulesets::gng::{GunsNGrenades, Kind, MedicHeals, Profile};
use crate::sim::Tally;

/// The `[skirmish]` table of the config. Every key has a default, so configs without the
/// table still parse.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SkirmishConfig {
    /// Table size, inches (60" × 36").
    pub table_width: f64,
    pub table_depth: f64,
    /// Cover pieces placed at random from the seed (5) and their length (6").
    pub cover_pieces: u32,
    pub cover_length: f64,
    /// Units one cover piece shelters (2) and its DEF bonus (+3); Hunker's DEF bonus (+2).
    pub cover_capacity: u32,
    pub cover_def: i32,
    pub hunker_def: i32,
    /// Optional terrain (GnG 1.5, "Terrain"): areas of rough ground (−2" movement) and of
    /// dangerous ground (d6 on crossing, 1 = 1 damage), and their radius.
    pub rough_areas: u32,
    pub dangerous_areas: u32,
    pub area_radius: f64,
    /// Points limit (350) and units deployed at the start (8) within `deploy_depth` (12") of
    /// the own edge; reserves entering per turn (3).
    pub points: f64,
    pub deploy_units: u32,
    pub deploy_depth: f64,
    pub reserves_per_turn: u32,
    /// Game turns before the game is a draw (40).
    pub max_turns: u32,
    /// Chance a random army takes one upgrade (0.5).
    pub upgrade_chance: f64,
    /// Skirmishes per run (`--trials`), per tactic in `pointsworth report` (0 leaves the
    /// Skirmish section out), and per batch of the deterministic engine.
    pub trials: u64,
    pub report_trials: u64,
    pub batch_size: u32,
    /// Game turn from which the cautious tactic stops waiting and advances.
    pub cautious_wait_turns: u32,
}

impl Default for SkirmishConfig {
    fn default() -> Self {
        SkirmishConfig {
            table_width: 60.0,
            table_depth: 36.0,
            cover_pieces: 5,
            cover_length: 6.0,
            cover_capacity: 2,
            cover_def: 3,
            hunker_def: 2,
            rough_areas: 0,
            dangerous_areas: 0,
            area_radius: 3.0,
            points: 350.0,
            deploy_units: 8,
            deploy_depth: 12.0,
            reserves_per_turn: 3,
            max_turns: 40,
            upgrade_chance: 0.5,
            trials: 2000,
            report_trials: 20000,
            batch_size: 25,
            cautious_wait_turns: 20,
        }
    }
}

impl SkirmishConfig {
    /// Checks ranges; the message names the key.
    pub fn validate(&self) -> Result<(), String> {
        let c = self;
        let checks: [(bool, String); 11] = [
            (c.table_width >= 12.0 && c.table_width <= 400.0, format!("table_width 12..400, got {}", c.table_width)),
            (c.table_depth >= 12.0 && c.table_depth <= 400.0, format!("table_depth 12..400, got {}", c.table_depth)),
            (c.cover_pieces <= 50, format!("cover_pieces at most 50, got {}", c.cover_pieces)),
            (c.cover_length > 0.0 && c.cover_length <= 40.0, format!("cover_length 0..40, got {}", c.cover_length)),
            (
                c.deploy_depth > 0.0 && 2.0 * c.deploy_depth < c.table_depth,
                format!("deploy_depth must be more than 0 and less than half of table_depth, got {}", c.deploy_depth),
            ),
            (c.points >= 10.0 && c.points <= 10_000.0, format!("points 10..10000, got {}", c.points)),
            (c.max_turns >= 1 && c.max_turns <= 1000, format!("max_turns 1..1000, got {}", c.max_turns)),
            ((0.0..=1.0).contains(&c.upgrade_chance), format!("upgrade_chance 0..1, got {}", c.upgrade_chance)),
            (c.trials >= 1 && c.trials <= 10_000_000, format!("trials 1..10000000, got {}", c.trials)),
            (c.report_trials <= 10_000_000, format!("report_trials 0..10000000, got {}", c.report_trials)),
            (c.batch_size >= 1 && c.batch_size <= 100_000, format!("batch_size 1..100000, got {}", c.batch_size)),
        ];
        for (ok, msg) in checks {
            if !ok {
                return Err(format!("[skirmish] {msg}"));
            }
        }
        Ok(())
    }
}

/// How a side plays (RULINGS.md: default tactics must be ones a fair player recognises).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Tactic {
    /// Advance, take cover on the way, attack what it can, focus fire.
    #[default]
    Default,
    /// Hold cover and let the enemy come; advance only once the enemy is near or the
    /// waiting has lasted `cautious_wait_turns`.
    Cautious,
}

impl Tactic {
    pub const NAMES: &[&str] = &["default", "cautious"];
    pub fn parse(s: &str) -> Option<Tactic> {
        match s {
            "default" => Some(Tactic::Default),
            "cautious" => Some(Tactic::Cautious),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Tactic::Default => "default",
            Tactic::Cautious => "cautious",
        }
    }
}

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

/// Per-unit skirmish state beside the duel's [`Fighter`].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct UnitState {
    /// Hunkered: +2 DEF until the unit next moves.
    pub hunker: bool,
    /// The cover piece the unit shelters behind.
    pub cover: Option<u8>,
    /// Flashbanged: cannot activate during its side's next turn.
    pub stunned: bool,
    /// Side turn from which its Grenade Launcher / Flashbang may be used again.
    pub grenade_ready: u32,
    /// Death already counted in the tallies.
    pub counted: bool,
}

/// One seeded battle's picture data: each unit's path and where it died.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Trace {
    /// Per side, per unit (in the order they entered the table): unit type, positions after
    /// each move, and the game turn it died in.
    pub units: [Vec<TracedUnit>; 2],
}

/// A traced unit: its type, its positions (entry, then after each move), the game turn it died.
pub type TracedUnit = (usize, Vec<Pos>, Option<u32>);

/// Unit indices for the upgrades that name unit types.
#[derive(Debug, Clone, Copy, Default)]
struct Named {
    riflemen: Option<usize>,
    heavy: Option<usize>,
    light: Option<usize>,
    snipers: Option<usize>,
    tank: Option<usize>,
}

/// A skirmish in progress. Reused across trials (clear and deploy again).
#[derive(Debug, Clone)]
pub struct Skirmish<'a> {
    pub r: &'a GunsNGrenades,
    pub cfg: &'a SkirmishConfig,
    pub bt: Battle,
    pub st: [Vec<UnitState>; 2],
    /// Units not yet on the table, in entry order.
    pub reserves: [Vec<usize>; 2],
    pub table: Table,
    pub upgrade: [Option<UpgradeRule>; 2],
    pub tactic: [Tactic; 2],
    /// Player turns played so far.
    pub turn: u32,
    /// Turns each side has taken (for "once per round").
    pub side_turns: [u32; 2],
    /// Kills this game: (killer type, victim type) per side.
    pub kill_log: Vec<(Side, usize, usize)>,
    pub trace: Option<Trace>,
    named: Named,
}

const SPOT_OFFSET: f32 = 0.75;
const SPOTS: [f32; 2] = [0.25, 0.75];
const EPS: f32 = 1e-3;

/// What the game came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SkirmishOutcome {
    pub winner: Option<Side>,
    /// Game turns started (1..=max_turns).
    pub turns: u32,
}

impl<'a> Skirmish<'a> {
    /// A fresh skirmish (no units, empty table).
    pub fn new(r: &'a GunsNGrenades, cfg: &'a SkirmishConfig) -> Self {
        let find = |id: &str| r.units.iter().position(|u| u.id == id);
        Skirmish {
            r,
            cfg,
            bt: Battle::default(),
            st: [Vec::new(), Vec::new()],
            reserves: [Vec::new(), Vec::new()],
            table: Table::new(cfg.table_width as f32, cfg.table_depth as f32),
            upgrade: [None, None],
            tactic: [Tactic::Default; 2],
            turn: 0,
            side_turns: [0, 0],
            kill_log: Vec::new(),
            trace: None,
            named: Named {
                riflemen: find("riflemen"),
                heavy: find("heavy-infantry"),
                light: find("light-infantry"),
                snipers: find("snipers"),
                tank: find("tank"),
            },
        }
    }

    fn clear(&mut self) {
        for s in 0..2 {
            self.bt.sides[s].clear();
            self.st[s].clear();
            self.reserves[s].clear();
        }
        self.bt.alive = [0, 0];
        self.bt.kills = [0, 0];
        self.turn = 0;
        self.side_turns = [0, 0];
        self.kill_log.clear();
        if let Some(t) = &mut self.trace {
            t.units = [Vec::new(), Vec::new()];
        }
    }

    /// Puts unit type `u` of side `s` on the table at `at`.
    pub fn place(&mut self, s: Side, u: usize, at: Pos) -> usize {
        self.bt.sides[s].push(Fighter::new(u, at.x, at.y));
        self.st[s].push(UnitState::default());
        self.bt.alive[s] += 1;
        if let Some(t) = &mut self.trace {
            t.units[s].push((u, vec![at], None));
        }
        self.bt.sides[s].len() - 1
    }

    /// Position of unit `i` of side `s`.
    #[inline]
    pub fn pos(&self, s: Side, i: usize) -> Pos {
        let f = &self.bt.sides[s][i];
        Pos::new(f.x, f.y)
    }

    fn profile(&self, s: Side, i: usize) -> &'a Profile {
        self.r.profile(self.bt.sides[s][i].unit as usize)
    }

    /// Whether the side has lost everything: nothing on the table and nothing in reserve.
    fn beaten(&self, s: Side) -> bool {
        self.bt.alive[s] == 0 && self.reserves[s].is_empty()
    }

    // ------------------------------------------------------------------------------
    // Set-up

    /// Sets up a game: terrain from the dice, the armies split into the deployed units and
    /// reserves, deployment (Scouts last), tactics and upgrades.
    pub fn set_up<D: Dice>(&mut self, armies: [&Army; 2], tactic: [Tactic; 2], dice: &mut D) {
        self.clear();
        let c = self.cfg;
        let plan = TerrainPlan {
            cover_pieces: c.cover_pieces,
            cover_length: c.cover_length as f32,
            rough_areas: c.rough_areas,
            dangerous_areas: c.dangerous_areas,
            area_radius: c.area_radius as f32,
            keep_out: c.deploy_depth as f32,
        };
        self.table.place_terrain(&plan, dice);
        self.tactic = tactic;
        let mut scouts: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
        for s in 0..2 {
            self.upgrade[s] = armies[s].upgrade.and_then(|k| UpgradeRule::from_name(&self.r.upgrades[k].name));
            // Deploy first what cannot come later (Artillery), then the most expensive.
            let mut order = armies[s].units.clone();
            order.sort_by(|&a, &b| {
                let (pa, pb) = (self.r.profile(a), self.r.profile(b));
                (pb.kind == Kind::Artillery).cmp(&(pa.kind == Kind::Artillery)).then(pb.cost.total_cmp(&pa.cost))
            });
            let n_deploy = (c.deploy_units as usize).min(order.len());
            let deployed: Vec<usize> = order[..n_deploy].to_vec();
            self.reserves[s] = order[n_deploy..].to_vec();
            let front: Vec<usize> = deployed.iter().copied().filter(|&u| !self.r.profile(u).tags.scout).collect();
            scouts[s] = deployed.iter().copied().filter(|&u| self.r.profile(u).tags.scout).collect();
            let n = front.len();
            // Centre-out slots: the first deployed (Artillery, then the costliest) stand in the
            // middle, where they reach the most of the table.
            let mut slots: Vec<usize> = (0..n).collect();
            slots.sort_by(|&a, &b| {
                let c = (n as f32 - 1.0) / 2.0;
                (a as f32 - c).abs().total_cmp(&(b as f32 - c).abs()).then(a.cmp(&b))
            });
            for (k, &u) in front.iter().enumerate() {
                let slot = slots[k] as f32;
                let x = self.table.width * (slot + 0.5) / n as f32 + (dice.unit_f64() as f32 - 0.5);
                // Long-ranged units one row back.
                let p = self.r.profile(u);
                let back = if p.kind != Kind::Artillery && (p.range >= 12.0 || p.min_range > 0.0) { 4.0 } else { 1.0 };
                let y = self.zone_y(s, back);
                self.place(s, u, self.table.clamp(Pos::new(x, y)));
            }
        }
        // Scout (Quick Reference): deploys after all non-scouts, at least 12" from enemies.
        for s in 0..2 {
            let n = scouts[s].len();
            for (k, &u) in scouts[s].clone().iter().enumerate() {
                let x = self.table.width * (k as f32 + 0.5) / n as f32;
                let at = self.scout_spot(s, x);
                self.place(s, u, at);
            }
        }
    }

    /// The y of a point `back` behind the front of side `s`'s deployment zone.
    fn zone_y(&self, s: Side, back: f32) -> f32 {
        let (lo, hi) = deployment_band(&self.table, s, self.cfg.deploy_depth as f32);
        if s == 0 { hi - back } else { lo + back }
    }

    /// The most forward point on the line x = `x`, no further than the middle of the table,
    /// at least 12" from every enemy on the table; the own table edge if there is none.
    fn scout_spot(&self, s: Side, x: f32) -> Pos {
        let mid = self.table.depth / 2.0;
        let edge = if s == 0 { 0.5 } else { self.table.depth - 0.5 };
        let steps = (mid - 0.5).floor() as i32;
        for k in 0..=steps {
            let y = if s == 0 { mid - k as f32 } else { mid + k as f32 };
            let p = Pos::new(x, y);
            if self.bt.sides[1 - s].iter().all(|e| !e.alive || p.dist(Pos::new(e.x, e.y)) >= 12.0) {
                return p;
            }
        }
        Pos::new(x, edge)
    }

    /// GnG 1.5, "Reserves" (Skirmish): up to 3 reserve units enter within 12" of the own edge,
    /// at the front of the zone, spread along it.
    pub fn deploy_reserves<D: Dice>(&mut self, s: Side, dice: &mut D) {
        let n = (self.cfg.reserves_per_turn as usize).min(self.reserves[s].len());
        for k in 0..n {
            let u = self.reserves[s].remove(0);
            let x = self.table.width * (k as f32 + 0.5 + dice.unit_f64() as f32 * 0.8 - 0.4) / n as f32;
            let at = self.table.clamp(Pos::new(x, self.zone_y(s, 1.0)));
            self.place(s, u, at);
        }
    }

    // ------------------------------------------------------------------------------
    // Rules: range, cover, modifiers

    /// A unit's range with upgrades: Optical Sights +2" (infantry), Enhanced Rifling +3"
    /// (Snipers). GnG 1.5, "Unit Upgrades".
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
    fn can_target(&self, s: Side, i: usize, at: Pos, e: Pos) -> bool {
        let u = self.bt.sides[s][i].unit as usize;
        let d = at.dist(e);
        d <= self.range_of(s, u) + EPS
            && d + EPS >= self.r.profile(u).min_range
            && self.table.line_of_sight(at, e, false)
    }

    /// GnG 1.5, "Cover": whether unit `j` of side `s` shelters behind an intact piece that the
    /// line from `from` crosses.
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
    pub fn def_mod(&self, s: Side, j: usize, from: Pos) -> i32 {
        let mut m = 0;
        if self.in_cover_from(s, j, from) {
            m += self.cfg.cover_def;
        }
        m + self.def_mod_no_cover(s, j)
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
    /// against Light targets, Bayonets +1 within 1½".
    pub fn atk_mod(&self, s: Side, i: usize, j: usize) -> i32 {
        let mut m = 0;
        match self.upgrade[s] {
            Some(UpgradeRule::HollowPoint) if self.profile(1 - s, j).tags.light => m += 2,
            Some(UpgradeRule::Bayonets) if self.pos(s, i).dist(self.pos(1 - s, j)) <= 1.5 + EPS => m += 1,
            _ => {}
        }
        m
    }

    /// Units sheltering behind cover piece `w` (alive), both sides.
    fn occupants(&self, w: usize) -> impl Iterator<Item = (Side, usize)> + '_ {
        (0..2).flat_map(move |s| {
            (0..self.bt.sides[s].len())
                .filter(move |&j| self.bt.sides[s][j].alive && self.st[s][j].cover == Some(w as u8))
                .map(move |j| (s, j))
        })
    }

    /// A free cover spot for side `s`: (piece, spot position), among intact pieces with fewer
    /// than `cover_capacity` occupants, on the side away from the enemy edge.
    fn free_spots(&self, s: Side) -> Vec<(usize, Pos)> {
        let enemy_y = if s == 0 { self.table.depth } else { 0.0 };
        let mut out = Vec::new();
        for (w, wall) in self.table.walls.iter().enumerate() {
            if !wall.intact {
                continue;
            }
            let taken: Vec<Pos> = self.occupants(w).map(|(os, j)| self.pos(os, j)).collect();
            if taken.len() >= self.cfg.cover_capacity as usize {
                continue;
            }
            let mid_x = (wall.a.x + wall.b.x) / 2.0;
            for t in SPOTS {
                let p = wall.spot_behind(t, SPOT_OFFSET, Pos::new(mid_x, enemy_y));
                if taken.iter().all(|q| q.dist(p) > 0.5) {
                    out.push((w, p));
                }
            }
        }
        out
    }

    // ------------------------------------------------------------------------------
    // Rules: moving, attacking, healing, destroying cover

    /// Moves unit `i` of side `s` up to `len` toward `to` (engine: edges, around walls).
    /// Rough ground costs 2" (GnG 1.5, "Terrain"; Tanks ignore it); crossing dangerous ground
    /// rolls a d6, 1 = 1 damage. Moving ends Hunker and leaves cover; arriving on a cover spot
    /// (`cover`) takes it.
    pub fn move_unit<D: Dice>(&mut self, s: Side, i: usize, to: Pos, len: f32, cover: Option<usize>, dice: &mut D) {
        let from = self.pos(s, i);
        let u = self.bt.sides[s][i].unit as usize;
        let ignores = Some(u) == self.named.tank;
        let (mut end, mut corner) = self.table.move_path(from, to, len);
        if !ignores && self.table.areas_touched(from, end, AreaKind::Rough) > 0 {
            (end, corner) = self.table.move_path(from, to, (len - 2.0).max(0.0));
        }
        if end.dist(from) < 1e-4 {
            return;
        }
        {
            let f = &mut self.bt.sides[s][i];
            f.x = end.x;
            f.y = end.y;
        }
        self.st[s][i].hunker = false;
        self.st[s][i].cover = match cover {
            Some(w) if end.dist(to) < 0.05 => Some(w as u8),
            _ => None,
        };
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
        let centre = self.bt.sides[1 - s][t];
        let killer = self.bt.sides[s][i].unit as usize;
        match special {
            Special::None => {
                rules::take_damage(self.r, &mut self.bt, 1 - s, t, p.hit_damage, s);
                if p.blast > 0.0 {
                    self.blast(s, (1 - s, t), &centre, total, p.blast, p.hit_damage, dice);
                }
            }
            Special::Grenade => {
                rules::take_damage(self.r, &mut self.bt, 1 - s, t, p.hit_damage, s);
                self.blast(s, (1 - s, t), &centre, total, 2.0, 1, dice);
            }
            Special::Flashbang => {
                self.st[1 - s][t].stunned = true;
                let mods: [Vec<i32>; 2] =
                    [0, 1].map(|side| (0..self.st[side].len()).map(|j| self.def_mod_no_cover(side, j)).collect());
                let mut caught = Vec::new();
                rules::blast_with(
                    self.r,
                    &mut self.bt,
                    dice,
                    s,
                    (1 - s, t),
                    &centre,
                    total,
                    2.5,
                    0,
                    |side, j| mods[side][j],
                    |side, j| caught.push((side, j)),
                );
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
        s: Side,
        hit: (Side, usize),
        centre: &Fighter,
        total: i32,
        radius: f32,
        dmg: u8,
        dice: &mut D,
    ) {
        let mods: [Vec<i32>; 2] =
            [0, 1].map(|side| (0..self.st[side].len()).map(|j| self.def_mod_no_cover(side, j)).collect());
        rules::blast_with(
            self.r,
            &mut self.bt,
            dice,
            s,
            hit,
            centre,
            total,
            radius,
            dmg,
            |side, j| mods[side][j],
            |_, _| {},
        );
    }

    /// Records deaths not yet counted; kills of enemies go to `killer` (side, unit type).
    fn count_deaths(&mut self, killer: Option<(Side, usize)>) {
        for s in 0..2 {
            for j in 0..self.bt.sides[s].len() {
                if !self.bt.sides[s][j].alive && !self.st[s][j].counted {
                    self.st[s][j].counted = true;
                    self.st[s][j].cover = None;
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
        rules::medic_heal(&mut self.bt, s, j);
    }

    /// GnG 1.5, "Anti Armor": destroys cover piece `w`; every unit behind it takes 1 damage
    /// (Tough absorbs it as usual). The caller forbids further attacks this turn.
    pub fn destroy_cover(&mut self, s: Side, i: usize, w: usize) {
        self.table.walls[w].intact = false;
        let behind: Vec<(Side, usize)> = self.occupants(w).collect();
        for (os, j) in behind {
            rules::take_damage(self.r, &mut self.bt, os, j, 1, s);
            self.st[os][j].cover = None;
        }
        let killer = self.bt.sides[s][i].unit as usize;
        self.count_deaths(Some((s, killer)));
    }

    // ------------------------------------------------------------------------------
    // The tactic

    /// Expected points an attack of unit `i` (side `s`, standing at `at`) on enemy `j`
    /// removes: P(hit) × (the target's full cost if the hit destroys it, else the share of its
    /// life the hit removes). Kills and damaged targets (focus fire) score highest.
    fn attack_value(&self, s: Side, i: usize, at: Pos, j: usize) -> f64 {
        let p = self.profile(s, i);
        let e = &self.bt.sides[1 - s][j];
        let pe = self.profile(1 - s, j);
        let atk = p.atk as i32 + self.atk_mod(s, i, j);
        let def = pe.def as i32 + self.def_mod(1 - s, j, at);
        let reroll = p.tags.fast_shot.then_some(self.r.rules.fast_shot == super::FastShot::BothDice);
        let ph = crate::dice::opposed_d6(atk, def, reroll);
        let left = (pe.health - e.damage) as f64;
        let removed = if p.hit_damage as f64 >= left {
            pe.cost * 1.25
        } else {
            pe.cost * p.hit_damage as f64 / pe.health as f64 * (1.0 + e.damage as f64 / pe.health as f64)
        };
        ph * removed
    }

    /// The best target from `at` and its value; none if nothing is in range. A blast weapon
    /// refuses a target with a friend inside its radius.
    fn best_target_from(&self, s: Side, i: usize, at: Pos) -> Option<(usize, f64)> {
        let p = self.profile(s, i);
        let mut best: Option<(usize, f64)> = None;
        for (j, e) in self.bt.sides[1 - s].iter().enumerate() {
            if !e.alive || !self.can_target(s, i, at, Pos::new(e.x, e.y)) {
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
        best
    }

    fn friend_near(&self, s: Side, i: usize, c: Pos, radius: f32) -> bool {
        self.bt.sides[s]
            .iter()
            .enumerate()
            .any(|(k, f)| k != i && f.alive && c.dist(Pos::new(f.x, f.y)) <= radius + EPS)
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
            let pf = self.profile(s, j);
            if j == i || !f.alive || f.damage == 0 || pf.is_vehicle() || at.dist(Pos::new(f.x, f.y)) > reach + EPS {
                continue;
            }
            let v = pf.cost * f.damage as f64;
            if best.is_none_or(|(_, bv)| v > bv) {
                best = Some((j, v));
            }
        }
        best.map(|b| b.0)
    }

    /// A cover piece within range of anti-armor unit `i` with at least two enemies behind it.
    fn cover_to_destroy(&self, s: Side, i: usize) -> Option<usize> {
        let p = self.profile(s, i);
        if !p.tags.anti_armor {
            return None;
        }
        let at = self.pos(s, i);
        let range = self.range_of(s, self.bt.sides[s][i].unit as usize);
        (0..self.table.walls.len()).find(|&w| {
            let wall = &self.table.walls[w];
            wall.intact
                && wall.dist_to(at) <= range + EPS
                && self.occupants(w).filter(|&(os, _)| os != s).count() >= 2
                && self.occupants(w).all(|(os, _)| os != s)
        })
    }

    /// Where the tactic would walk to attack: a free cover spot within the walk from which a
    /// target is in range (best value), else the least straight walk toward the nearest enemy
    /// that brings it into range. `None` if no walk reaches a target.
    fn walk_plan(&self, s: Side, i: usize) -> Option<(Pos, Option<usize>)> {
        let f = self.bt.sides[s][i];
        let p = self.profile(s, i);
        if p.kind != Kind::Infantry {
            return None;
        }
        let (walk, _) = move_allowance(p, &f);
        let at = self.pos(s, i);
        let mut best: Option<(Pos, Option<usize>, f64)> = None;
        for (w, spot) in self.free_spots(s) {
            if at.dist(spot) > walk + EPS || self.table.move_toward(at, spot, walk).dist(spot) > 0.05 {
                continue;
            }
            if let Some((_, v)) = self.best_target_from(s, i, spot) {
                if best.as_ref().is_none_or(|b| v > b.2) {
                    best = Some((spot, Some(w), v));
                }
            }
        }
        if let Some((spot, w, _)) = best {
            return Some((spot, w));
        }
        let (j, d) = self.nearest_enemy(s, at)?;
        let e = self.pos(1 - s, j);
        let range = self.range_of(s, f.unit as usize);
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
        let end = self.table.move_toward(at, to, gap.abs());
        self.bt.sides[1 - s]
            .iter()
            .any(|x| x.alive && self.can_target(s, i, end, Pos::new(x.x, x.y)))
            .then_some((to, None))
    }

    /// The activation order of side `s` this turn: units that can attack from where they
    /// stand or heal first (best attack first), then those that can walk into range, then
    /// those that move; anti-armor units that would destroy cover go last.
    fn activation_order(&self, s: Side) -> Vec<usize> {
        let mut keyed: Vec<(i32, f64, usize)> = Vec::new();
        for (i, f) in self.bt.sides[s].iter().enumerate() {
            if !f.alive || self.st[s][i].stunned {
                continue;
            }
            let p = self.profile(s, i);
            let at = self.pos(s, i);
            let strength = (p.atk as f64 + 1.0) * p.hit_damage as f64;
            let key = if self.cover_to_destroy(s, i).is_some() {
                (0, strength)
            } else if p.tags.medic && self.heal_target(s, i, at, self.r.rules.medic_reach as f32).is_some() {
                (4, strength)
            } else if let Some((_, v)) = self.best_target_from(s, i, at) {
                (3, v + strength)
            } else if self.walk_plan(s, i).is_some() {
                (2, strength)
            } else {
                (1, strength)
            };
            keyed.push((key.0, key.1, i));
        }
        keyed.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.total_cmp(&a.1)).then(a.2.cmp(&b.2)));
        // Anti-armor units with cover to destroy go after everyone else.
        let (last, rest): (Vec<_>, Vec<_>) = keyed.into_iter().partition(|k| k.0 == 0);
        rest.into_iter().chain(last).map(|k| k.2).collect()
    }

    /// One side's turn (GnG 1.5, "How Combat Works"): reserves enter, then up to 5 units
    /// activate in the tactic's order.
    pub fn take_turn<D: Dice>(&mut self, s: Side, dice: &mut D) {
        self.deploy_reserves(s, dice);
        for f in self.bt.sides[s].iter_mut() {
            f.activated = false;
            if f.lock == LOCK_PENDING {
                f.lock = LOCK_ACTIVE;
            }
        }
        let mut heals_left = match self.r.rules.medic_heals {
            MedicHeals::PerActivation => u32::MAX,
            MedicHeals::OncePerTurn => 1,
        };
        let mut may_attack = true;
        let mut activations = 0;
        for i in self.activation_order(s) {
            if activations == self.r.rules.activations_per_turn || self.bt.alive[1 - s] == 0 {
                break;
            }
            if !self.bt.sides[s][i].alive {
                continue;
            }
            activations += 1;
            self.bt.sides[s][i].activated = true;
            self.activate(s, i, &mut heals_left, &mut may_attack, dice);
        }
        for (f, st) in self.bt.sides[s].iter_mut().zip(self.st[s].iter_mut()) {
            if f.lock == LOCK_ACTIVE {
                f.lock = LOCK_NONE;
            }
            // A Flashbang lasts for the side's next turn: this one.
            st.stunned = false;
        }
        self.side_turns[s] += 1;
    }

    /// Whether the cautious tactic still waits: before `cautious_wait_turns` and with no enemy
    /// able to reach attack range of this unit next turn.
    fn waits(&self, s: Side, i: usize) -> bool {
        if self.tactic[s] != Tactic::Cautious || self.turn / 2 >= self.cfg.cautious_wait_turns {
            return false;
        }
        let at = self.pos(s, i);
        !self.bt.sides[1 - s].iter().any(|e| {
            let pe = self.r.profile(e.unit as usize);
            e.alive && at.dist(Pos::new(e.x, e.y)) <= pe.range + pe.rush + 2.0
        })
    }

    /// One activation of unit `i` of side `s`, as decision steps.
    fn activate<D: Dice>(&mut self, s: Side, i: usize, heals_left: &mut u32, may_attack: &mut bool, dice: &mut D) {
        let f = self.bt.sides[s][i];
        let p = *self.profile(s, i);
        let at = self.pos(s, i);
        let can_move = rules::can_move(&p, &f);
        let (walk, rush) = move_allowance(&p, &f);
        let reach = self.r.rules.medic_reach as f32;
        // 1. Heal the most valuable wounded unit within reach (walking to it if needed).
        if p.tags.medic && *heals_left > 0 {
            if let Some(j) = self.heal_target(s, i, at, reach) {
                self.heal(s, j);
                *heals_left -= 1;
                return;
            }
            if can_move {
                if let Some(j) = self.heal_target(s, i, at, reach + walk) {
                    let to = self.pos(s, j);
                    let gap = at.dist(to) - reach + 0.1;
                    self.move_unit(s, i, to, gap.max(0.0), None, dice);
                    if self.bt.sides[s][i].alive && self.pos(s, i).dist(to) <= reach + EPS {
                        self.heal(s, j);
                        *heals_left -= 1;
                    }
                    return;
                }
            }
        }
        // 2. Destroy cover with two enemies behind it (the side's last attack this turn).
        if *may_attack {
            if let Some(w) = self.cover_to_destroy(s, i) {
                self.destroy_cover(s, i, w);
                *may_attack = false;
                return;
            }
        }
        // 3. Attack from here; infantry out of cover first walk into cover it can fire from.
        if *may_attack && self.best_target_from(s, i, at).is_some() {
            if p.kind == Kind::Infantry && self.st[s][i].cover.is_none() && can_move {
                if let Some((spot, Some(w))) = self.walk_plan(s, i) {
                    self.move_unit(s, i, spot, walk, Some(w), dice);
                }
            }
            self.fire(s, i, dice);
            return;
        }
        let waiting = self.waits(s, i);
        // 4. Walk into range (into cover if it can), then attack.
        if *may_attack && can_move && !waiting {
            if let Some((to, w)) = self.walk_plan(s, i) {
                self.move_unit(s, i, to, walk, w, dice);
                if self.bt.sides[s][i].alive {
                    self.fire(s, i, dice);
                }
                return;
            }
        }
        // 5. Cautious: hold cover and hunker; out of cover, go to the nearest free spot.
        if waiting {
            if self.st[s][i].cover.is_none() && can_move {
                let spot = crate::battle::nearest(at, self.free_spots(s).iter().enumerate().map(|(k, (_, q))| (k, *q)));
                if let Some((k, d)) = spot {
                    let (w, q) = self.free_spots(s)[k];
                    if d <= rush * 2.0 {
                        self.move_unit(s, i, q, rush, Some(w), dice);
                        return;
                    }
                }
            }
            self.st[s][i].hunker = true;
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
                    let straight = self.table.move_toward(at, e, want);
                    let left_after = straight.dist(e);
                    let mut dest = (e, want, None);
                    if p.kind == Kind::Infantry {
                        for (w, q) in self.free_spots(s) {
                            if at.dist(q) <= rush + EPS
                                && q.dist(e) <= left_after + 3.0
                                && self.table.move_toward(at, q, rush).dist(q) < 0.05
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
    fn fire<D: Dice>(&mut self, s: Side, i: usize, dice: &mut D) {
        let at = self.pos(s, i);
        let Some((t, _)) = self.best_target_from(s, i, at) else {
            return;
        };
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
                .filter(|(j, e)| *j != t && e.alive && c.dist(Pos::new(e.x, e.y)) <= radius + EPS)
                .count();
            if ready && others >= 1 && !self.friend_near(s, i, c, radius) {
                self.st[s][i].grenade_ready = self.side_turns[s] + 4;
            } else {
                special = Special::None;
            }
        }
        self.attack(s, i, t, special, dice);
    }

    /// Plays a set-up game to the end: roll-off for the first turn, alternate turns, last
    /// side standing wins; `max_turns` game turns is a draw.
    pub fn play<D: Dice>(&mut self, dice: &mut D) -> SkirmishOutcome {
        let first = loop {
            let (a, b) = (dice.d6(), dice.d6());
            if a != b {
                break if a > b { 0 } else { 1 };
            }
        };
        let max = 2 * self.cfg.max_turns;
        while self.turn < max {
            let s = (first + self.turn as usize) % 2;
            self.take_turn(s, dice);
            self.turn += 1;
            let (b0, b1) = (self.beaten(0), self.beaten(1));
            if b0 || b1 {
                let winner = match (b0, b1) {
                    (true, false) => Some(1),
                    (false, true) => Some(0),
                    _ => None,
                };
                return SkirmishOutcome { winner, turns: self.turn.div_ceil(2) };
            }
        }
        SkirmishOutcome { winner: None, turns: self.cfg.max_turns }
    }
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

// ----------------------------------------------------------------------------------
// Tallies

/// One random-army game for the value-in-army regression: each unit type's and upgrade's
/// count difference (side A − side B) and the result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    pub diff: Vec<i8>,
    /// 0: A won, 1: B won, 2: draw.
    pub result: u8,
}

/// Integer counts of a batch of skirmishes; merged in batch order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SkirmishTally {
    pub games: u64,
    /// Wins of side A and B, draws.
    pub wins: [u64; 2],
    pub draws: u64,
    /// Sum of game turns.
    pub turns: u64,
    /// Per unit type: units fielded, survivors at the end (reserves never entered count).
    pub fielded: Vec<u64>,
    pub survivors: Vec<u64>,
    /// kills[killer * n + victim]: enemy units of type `victim` destroyed by type `killer`
    /// (Anti Armor damage counts for the destroyer; blast for the firer).
    pub kills: Vec<u64>,
    /// Per random-army game, in trial order (empty for fixed armies).
    pub records: Vec<GameRecord>,
}

impl Tally for SkirmishTally {
    fn merge(&mut self, o: &Self) {
        self.games += o.games;
        self.wins[0] += o.wins[0];
        self.wins[1] += o.wins[1];
        self.draws += o.draws;
        self.turns += o.turns;
        crate::sim::add_counts(&mut self.fielded, &o.fielded);
        crate::sim::add_counts(&mut self.survivors, &o.survivors);
        crate::sim::add_counts(&mut self.kills, &o.kills);
        self.records.extend(o.records.iter().cloned());
    }
    fn trials(&self) -> u64 {
        self.games
    }
}

impl SkirmishTally {
    /// Records a finished game.
    pub fn record(&mut self, g: &Skirmish, out: &SkirmishOutcome, armies: [&Army; 2], keep_record: bool) {
        let n = g.r.units.len();
        if self.fielded.is_empty() {
            self.fielded = vec![0; n];
            self.survivors = vec![0; n];
            self.kills = vec![0; n * n];
        }
        self.games += 1;
        match out.winner {
            Some(w) => self.wins[w] += 1,
            None => self.draws += 1,
        }
        self.turns += out.turns as u64;
        for s in 0..2 {
            for &u in &armies[s].units {
                self.fielded[u] += 1;
            }
            for f in g.bt.sides[s].iter().filter(|f| f.alive) {
                self.survivors[f.unit as usize] += 1;
            }
            for &u in &g.reserves[s] {
                self.survivors[u] += 1;
            }
        }
        for &(_, k, v) in &g.kill_log {
            self.kills[k * n + v] += 1;
        }
        if keep_record {
            let (ca, cb) = (armies[0].counts(n), armies[1].counts(n));
            let mut diff: Vec<i8> = (0..n).map(|u| (ca[u] as i32 - cb[u] as i32) as i8).collect();
            for k in 0..g.r.upgrades.len() {
                diff.push((armies[0].upgrade == Some(k)) as i8 - (armies[1].upgrade == Some(k)) as i8);
            }
            let result = match out.winner {
                Some(w) => w as u8,
                None => 2,
            };
            self.records.push(GameRecord { diff, result });
        }
    }
}

/// Where the armies come from.
#[derive(Debug, Clone)]
pub enum Armies {
    /// Fresh random legal armies for each game, drawn from the game's dice.
    Random,
    /// The same two armies every game.
    Fixed(Box<[Army; 2]>),
}

/// Plays `trials` skirmishes with the deterministic engine ([`crate::sim::run`]): batch `k`
/// uses dice seeded from (seed, stream, k), so the tally is identical on any thread count.
/// Random armies, terrain and all dice of a game come from its batch's dice.
pub fn simulate(
    r: &GunsNGrenades,
    cfg: &SkirmishConfig,
    armies: &Armies,
    tactic: Tactic,
    seed: u64,
    trials: u64,
    progress: &indicatif::ProgressBar,
) -> SkirmishTally {
    let plan = crate::sim::RunPlan::fixed(seed, trials, cfg.batch_size);
    let stream = crate::sim::stream_id(&["guns-n-grenades", "skirmish", tactic.name()]);
    crate::sim::run(
        &plan,
        stream,
        |dice, _first, n, tally: &mut SkirmishTally| {
            let mut g = Skirmish::new(r, cfg);
            for _ in 0..n {
                let (a, b);
                let pair = match armies {
                    Armies::Random => {
                        a = super::army::random_army(r, cfg.points, cfg.upgrade_chance, dice);
                        b = super::army::random_army(r, cfg.points, cfg.upgrade_chance, dice);
                        [&a, &b]
                    }
                    Armies::Fixed(x) => [&x[0], &x[1]],
                };
                g.set_up(pair, [tactic; 2], dice);
                let out = g.play(dice);
                tally.record(&g, &out, pair, matches!(armies, Armies::Random));
            }
            progress.inc(n as u64);
        },
        |_| 0.0,
    )
}

/// Plays one seeded game with a trace for the replay picture; returns the game's final
/// state, its outcome and the armies.
pub fn traced_game<'a>(
    r: &'a GunsNGrenades,
    cfg: &'a SkirmishConfig,
    armies: &Armies,
    tactic: Tactic,
    seed: u64,
) -> (Skirmish<'a>, SkirmishOutcome, [Army; 2]) {
    let mut dice =
        crate::dice::FastDice::from_seed(crate::sim::batch_seed(seed, crate::sim::stream_id(&["replay"]), 0));
    let pair = match armies {
        Armies::Random => [
            super::army::random_army(r, cfg.points, cfg.upgrade_chance, &mut dice),
            super::army::random_army(r, cfg.points, cfg.upgrade_chance, &mut dice),
        ],
        Armies::Fixed(x) => [x[0].clone(), x[1].clone()],
    };
    let mut g = Skirmish::new(r, cfg);
    g.trace = Some(Trace::default());
    g.set_up([&pair[0], &pair[1]], [tactic; 2], &mut dice);
    let out = g.play(&mut dice);
    (g, out, pair)
}

/// A short label for a unit name: initials of several words ("Light Infantry" → "LI"), else
/// the first two letters ("Riflemen" → "Ri").
pub fn short_label(name: &str) -> String {
    let words: Vec<&str> = name.split_whitespace().collect();
    if words.len() > 1 {
        words.iter().filter_map(|w| w.chars().next()).collect()
    } else {
        name.chars().take(2).collect()
    }
}

/// The replay picture data of a traced game.
pub fn replay_of(
    g: &Skirmish,
    out: &SkirmishOutcome,
    armies: &[Army; 2],
    tactic: Tactic,
) -> crate::battle::replay::Replay {
    let r = g.r;
    let trace = g.trace.clone().unwrap_or_default();
    let mut units = Vec::new();
    for s in 0..2 {
        for (u, path, died) in &trace.units[s] {
            units.push(crate::battle::replay::ReplayUnit {
                side: s,
                label: short_label(&r.units[*u].name),
                path: path.clone(),
                died: *died,
            });
        }
    }
    let result = match out.winner {
        Some(0) => format!("blue (A) wins after {} game turns", out.turns),
        Some(_) => format!("red (B) wins after {} game turns", out.turns),
        None => format!("draw after {} game turns", out.turns),
    };
    crate::battle::replay::Replay {
        title: format!("{} — Skirmish replay ({} tactic): {result}", r.title_str(), tactic.name()),
        notes: vec![
            format!("Blue (A, deploys at the top): {}", armies[0].describe(r)),
            format!("Red (B, deploys at the bottom): {}", armies[1].describe(r)),
        ],
        table: g.table.clone(),
        deploy_depth: g.cfg.deploy_depth as f32,
        units,
        legend: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::Wall;
    use crate::dice::{FastDice, ScriptedDice};
    use crate::rulesets::gng::army::{limited_cap, random_army};
    use crate::rulesets::gng::testing::{gng, unit};

    /// A game on an empty table with a wall from (10, 18) to (16, 18).
    fn game<'a>(r: &'a GunsNGrenades) -> Skirmish<'a> {
        let mut g = Skirmish::new(r, &r.skirmish);
        g.table.walls.push(Wall { a: Pos::new(10.0, 18.0), b: Pos::new(16.0, 18.0), intact: true });
        g
    }

    #[test]
    fn cover_adds_three_def_only_against_attacks_across_it() {
        let r = gng(&[]);
        let rifle = unit(&r, "Riflemen");
        let mut g = game(&r);
        let a = g.place(0, rifle, Pos::new(13.0, 24.0));
        let t = g.place(1, rifle, Pos::new(13.0, 18.75));
        g.st[1][t].cover = Some(0);
        assert_eq!(g.def_mod(1, t, g.pos(0, a)), 0, "the wall is behind the target: no cover");
        assert_eq!(g.def_mod(1, t, Pos::new(13.0, 12.0)), 3, "the wall is between: cover");
        let t2 = g.place(1, rifle, Pos::new(13.0, 17.25));
        g.st[1][t2].cover = Some(0);
        let from = Pos::new(13.0, 24.0);
        assert_eq!(g.def_mod(1, t2, from), 3);
        // Riflemen ATK 3 roll 6 (9) vs DEF 2 + 3 cover roll 4 (9): tie, miss.
        let b = g.place(0, rifle, from);
        let mut d = ScriptedDice::new(&[6, 4]);
        g.attack(0, b, t2, Special::None, &mut d);
        assert_eq!(g.bt.sides[1][t2].damage, 0);
        assert!(d.exhausted());
        // Destroyed cover gives nothing.
        g.table.walls[0].intact = false;
        assert_eq!(g.def_mod(1, t2, from), 0);
    }

    #[test]
    fn a_cover_piece_shelters_at_most_two_units() {
        let r = gng(&[]);
        let rifle = unit(&r, "Riflemen");
        let mut g = game(&r);
        g.place(1, rifle, Pos::new(13.0, 30.0));
        let spots = g.free_spots(0);
        assert_eq!(spots.len(), 2, "two spots on the side away from the enemy");
        assert!(spots.iter().all(|(w, p)| *w == 0 && p.y < 18.0));
        let mut d = ScriptedDice::new(&[]);
        for (k, (w, p)) in spots.into_iter().enumerate() {
            let i = g.place(0, rifle, Pos::new(p.x, 10.0));
            g.move_unit(0, i, p, 10.0, Some(w), &mut d);
            assert_eq!(g.st[0][i].cover, Some(0), "unit {k} takes cover");
        }
        assert!(g.free_spots(0).is_empty() && g.free_spots(1).is_empty(), "the piece is full for both sides");
        // Moving out frees a spot.
        g.move_unit(0, 0, Pos::new(30.0, 10.0), 6.0, None, &mut d);
        assert_eq!(g.free_spots(0).len(), 1);
    }

    #[test]
    fn hunker_adds_two_def_until_the_unit_moves() {
        let r = gng(&[]);
        let rifle = unit(&r, "Riflemen");
        let mut g = game(&r);
        g.place(0, rifle, Pos::new(40.0, 5.0));
        let t = g.place(1, rifle, Pos::new(40.0, 30.0));
        g.st[1][t].hunker = true;
        assert_eq!(g.def_mod(1, t, Pos::new(40.0, 5.0)), 2);
        let mut d = ScriptedDice::new(&[]);
        g.move_unit(1, t, Pos::new(40.0, 20.0), 6.0, None, &mut d);
        assert!(!g.st[1][t].hunker);
        assert_eq!(g.def_mod(1, t, Pos::new(40.0, 5.0)), 0);
    }

    #[test]
    fn a_unit_with_nothing_to_attack_and_nowhere_to_go_hunkers() {
        let r = gng(&[]);
        let (mortar, rifle) = (unit(&r, "Mortar"), unit(&r, "Riflemen"));
        let mut g = game(&r);
        // Cautious tactic, enemy far away: the unit in cover hunkers instead of advancing.
        g.tactic = [Tactic::Cautious; 2];
        let m = g.place(0, mortar, Pos::new(13.0, 17.25));
        g.st[0][m].cover = Some(0);
        g.place(1, rifle, Pos::new(50.0, 35.0));
        let mut d = ScriptedDice::new(&[]);
        g.take_turn(0, &mut d);
        assert!(g.st[0][m].hunker);
        assert_eq!(g.pos(0, m), Pos::new(13.0, 17.25));
    }

    #[test]
    fn anti_armor_destroys_cover_with_two_enemies_behind_it_and_ends_the_sides_attacks() {
        let r = gng(&[]);
        let (gren, rifle, light) = (unit(&r, "Grenadier"), unit(&r, "Riflemen"), unit(&r, "Light Infantry"));
        let mut g = game(&r);
        let gr = g.place(0, gren, Pos::new(13.0, 12.0));
        let other = g.place(0, rifle, Pos::new(20.0, 12.0));
        let t1 = g.place(1, light, Pos::new(11.5, 18.75));
        let t2 = g.place(1, rifle, Pos::new(14.5, 18.75));
        let far = g.place(1, light, Pos::new(22.0, 18.0));
        g.st[1][t1].cover = Some(0);
        g.st[1][t2].cover = Some(0);
        let _ = far;
        // The rifleman attacks first (1 vs 6: miss), then the grenadier destroys the cover.
        let mut d = ScriptedDice::new(&[1, 6]);
        g.take_turn(0, &mut d);
        assert!(d.exhausted(), "the grenadier rolled nothing");
        assert!(!g.table.walls[0].intact);
        assert_eq!(g.bt.sides[1][t1].damage, 1, "Light Infantry takes 1 damage");
        assert_eq!(g.bt.sides[1][t2].damage, 1, "Tough Riflemen: the hit is absorbed (1 of 4)");
        assert!(g.st[1][t1].cover.is_none() && g.st[1][t2].cover.is_none());
        assert!(g.bt.sides[0][gr].activated && g.bt.sides[0][other].activated);
    }

    #[test]
    fn blast_catches_friend_and_foe_and_respects_hunker() {
        let r = gng(&[]);
        let (mortar, light) = (unit(&r, "Mortar"), unit(&r, "Light Infantry"));
        let mut g = game(&r);
        let m = g.place(0, mortar, Pos::new(40.0, 5.0));
        let t = g.place(1, light, Pos::new(40.0, 15.0));
        let n = g.place(1, light, Pos::new(41.5, 15.0));
        g.st[1][n].hunker = true;
        // Mortar 6 + 3 = 9 vs 1 + 1 = 2: hit (2 damage). Neighbour rolls 5 + 1 + 2 = 8 < 9: hit.
        let mut d = ScriptedDice::new(&[3, 1, 5]);
        g.attack(0, m, t, Special::None, &mut d);
        assert_eq!(g.bt.sides[1][t].damage, 2);
        assert_eq!(g.bt.sides[1][n].damage, 2);
        // Hunkered neighbour rolling 6: 6 + 1 + 2 = 9, not lower than 9: spared.
        let mut g = game(&r);
        let m = g.place(0, mortar, Pos::new(40.0, 5.0));
        let t = g.place(1, light, Pos::new(40.0, 15.0));
        let n = g.place(1, light, Pos::new(41.5, 15.0));
        g.st[1][n].hunker = true;
        let mut d = ScriptedDice::new(&[3, 1, 6]);
        g.attack(0, m, t, Special::None, &mut d);
        assert_eq!(g.bt.sides[1][n].damage, 0);
    }

    #[test]
    fn reserves_enter_three_a_turn_in_the_own_zone() {
        let r = gng(&[]);
        let light = unit(&r, "Light Infantry");
        let mut g = game(&r);
        g.reserves[0] = vec![light; 7];
        g.place(1, light, Pos::new(30.0, 35.0));
        let mut d = FastDice::from_seed(1);
        g.deploy_reserves(0, &mut d);
        assert_eq!(g.bt.sides[0].len(), 3);
        assert_eq!(g.reserves[0].len(), 4);
        for f in &g.bt.sides[0] {
            assert!(f.y <= 12.0, "within 12\" of the own edge");
        }
        g.deploy_reserves(0, &mut d);
        g.deploy_reserves(0, &mut d);
        assert_eq!(g.bt.sides[0].len(), 7);
        assert!(!g.beaten(0));
    }

    #[test]
    fn set_up_deploys_eight_and_holds_the_rest_in_reserve() {
        let r = gng(&[]);
        let light = unit(&r, "Light Infantry");
        let army = Army { units: vec![light; 20], upgrade: None };
        let mut g = Skirmish::new(&r, &r.skirmish);
        g.set_up([&army, &army], [Tactic::Default; 2], &mut FastDice::from_seed(3));
        for s in 0..2 {
            assert_eq!(g.bt.sides[s].len(), 8);
            assert_eq!(g.reserves[s].len(), 12);
        }
        assert_eq!(g.table.walls.len(), 5);
    }

    #[test]
    fn quick_reference_scouts_deploy_last_at_least_12_inches_from_enemies() {
        let r = gng(&["rules.stat_source=quick_reference"]);
        let (scouts, rifle) = (unit(&r, "Scouts"), unit(&r, "Riflemen"));
        let army = Army { units: vec![rifle, rifle, rifle, scouts, scouts], upgrade: None };
        let mut g = Skirmish::new(&r, &r.skirmish);
        g.set_up([&army, &army], [Tactic::Default; 2], &mut FastDice::from_seed(3));
        for s in 0..2 {
            let scout_pos: Vec<Pos> =
                g.bt.sides[s].iter().filter(|f| f.unit as usize == scouts).map(|f| Pos::new(f.x, f.y)).collect();
            assert_eq!(scout_pos.len(), 2);
            for p in scout_pos {
                for e in &g.bt.sides[1 - s] {
                    assert!(p.dist(Pos::new(e.x, e.y)) >= 12.0 - 1e-3, "scout at {p:?} too close");
                }
                // Forward of the own deployment zone's front: scouting ahead.
                if s == 0 {
                    assert!(p.y > 11.0);
                }
            }
        }
    }

    #[test]
    fn medics_walk_to_the_most_valuable_wounded_unit_and_heal_it() {
        let r = gng(&[]);
        let (medic, heavy, light) = (unit(&r, "Medics"), unit(&r, "Heavy Infantry"), unit(&r, "Light Infantry"));
        let mut g = game(&r);
        let m = g.place(0, medic, Pos::new(40.0, 5.0));
        let h = g.place(0, heavy, Pos::new(40.0, 12.0));
        let l = g.place(0, light, Pos::new(44.0, 5.0));
        g.bt.sides[0][h].damage = 1;
        g.bt.sides[0][l].damage = 1;
        g.place(1, light, Pos::new(10.0, 35.0));
        let mut heals = u32::MAX;
        let mut may = true;
        // Both within walk + 3": the Heavy Infantry (20 pts) is worth more than the Light (10).
        g.activate(0, m, &mut heals, &mut may, &mut ScriptedDice::new(&[]));
        assert_eq!(g.bt.sides[0][h].damage, 0);
        assert_eq!(g.bt.sides[0][l].damage, 1);
        assert!(g.pos(0, m).dist(g.pos(0, h)) <= 3.0 + 1e-3);
    }

    #[test]
    fn limited_and_points_hold_for_thousands_of_random_armies() {
        let r = gng(&[]);
        let mut d = FastDice::from_seed(99);
        let mut upgrades = 0;
        for _ in 0..5000 {
            let a = random_army(&r, 350.0, 0.5, &mut d);
            assert!(a.problems(&r, 350.0).is_empty(), "{}", a.describe(&r));
            assert!(a.cost(&r) >= 0.95 * 350.0, "{}", a.describe(&r));
            let limited = a.units.iter().filter(|&&u| r.profiles[u].tags.limited).count() as u32;
            assert!(limited <= limited_cap(350.0));
            upgrades += a.upgrade.is_some() as u32;
        }
        assert_eq!(limited_cap(350.0), 6);
        assert!((2200..2800).contains(&upgrades), "about half take an upgrade: {upgrades}");
    }

    #[test]
    fn upgrades_change_range_atk_and_def() {
        let r = gng(&[]);
        let (rifle, snipers, light, tank) =
            (unit(&r, "Riflemen"), unit(&r, "Snipers"), unit(&r, "Light Infantry"), unit(&r, "Tank"));
        let mut g = game(&r);
        g.upgrade[0] = UpgradeRule::from_name("Optical Sights");
        assert_eq!(g.range_of(0, rifle), 10.5);
        assert_eq!(g.range_of(0, tank), 9.0, "infantry only");
        g.upgrade[0] = UpgradeRule::from_name("Enhanced Rifling");
        assert_eq!(g.range_of(0, snipers), 13.0);
        assert_eq!(g.range_of(0, rifle), 8.5);
        let a = g.place(0, rifle, Pos::new(40.0, 10.0));
        let lt = g.place(1, unit(&r, "Scouts"), Pos::new(40.0, 11.0));
        let rt = g.place(1, rifle, Pos::new(40.0, 15.0));
        let li = g.place(1, light, Pos::new(39.0, 11.0));
        g.upgrade[0] = UpgradeRule::from_name("Hollow Point Rounds");
        assert_eq!(g.atk_mod(0, a, li), 0, "Light Infantry has no Light tag");
        assert_eq!(g.atk_mod(0, a, lt), 2, "+2 ATK against Light targets");
        assert_eq!(g.atk_mod(0, a, rt), 0);
        g.upgrade[0] = UpgradeRule::from_name("Bayonets");
        assert_eq!(g.atk_mod(0, a, lt), 1, "+1 ATK within 1.5\"");
        assert_eq!(g.atk_mod(0, a, rt), 0);
        g.upgrade[1] = UpgradeRule::from_name("Body Armor");
        assert_eq!(g.def_mod(1, rt, g.pos(0, a)), 1);
        assert_eq!(g.def_mod(1, li, g.pos(0, a)), 1, "Light Infantry is not Light-tagged");
        assert_eq!(g.def_mod(1, lt, g.pos(0, a)), 0, "Scouts are Light: no Body Armor");
        for u in &r.upgrades {
            assert!(UpgradeRule::from_name(&u.name).is_some(), "{} has a rule", u.name);
        }
    }

    #[test]
    fn grenade_launchers_throw_a_two_inch_blast_once_per_round() {
        let r = gng(&[]);
        let (rifle, light) = (unit(&r, "Riflemen"), unit(&r, "Light Infantry"));
        let mut g = game(&r);
        g.upgrade[0] = UpgradeRule::from_name("Grenade Launchers");
        let a = g.place(0, rifle, Pos::new(40.0, 5.0));
        let t = g.place(1, light, Pos::new(40.0, 12.0));
        let n = g.place(1, light, Pos::new(41.5, 12.0));
        // Riflemen 3 + 3 = 6 vs 1 + 1 = 2: hit; the neighbour 1 + 1 = 2 < 6: hit too.
        let mut d = ScriptedDice::new(&[3, 1, 1]);
        g.fire(0, a, &mut d);
        assert!(d.exhausted());
        assert_eq!((g.bt.sides[1][t].damage, g.bt.sides[1][n].damage), (1, 1));
        assert_eq!(g.st[0][a].grenade_ready, 4);
        // Next turn: no grenade, a plain shot (no blast roll).
        let mut d = ScriptedDice::new(&[3, 1]);
        g.fire(0, a, &mut d);
        assert!(d.exhausted());
    }

    #[test]
    fn flashbangs_stop_the_caught_units_next_turn_without_damage() {
        let r = gng(&[]);
        let (rifle, light) = (unit(&r, "Riflemen"), unit(&r, "Light Infantry"));
        let mut g = game(&r);
        g.upgrade[0] = UpgradeRule::from_name("Flashbang Grenades");
        let a = g.place(0, rifle, Pos::new(40.0, 5.0));
        let t = g.place(1, light, Pos::new(40.0, 12.0));
        let n = g.place(1, light, Pos::new(42.0, 12.0));
        let mut d = ScriptedDice::new(&[3, 1, 1]);
        g.fire(0, a, &mut d);
        assert!(g.st[1][t].stunned && g.st[1][n].stunned);
        assert_eq!((g.bt.sides[1][t].damage, g.bt.sides[1][n].damage), (0, 0));
        // Side 1's next turn: the stunned units do not activate; afterwards they recover.
        let before = (g.pos(1, t), g.pos(1, n));
        g.take_turn(1, &mut ScriptedDice::new(&[]));
        assert_eq!((g.pos(1, t), g.pos(1, n)), before);
        assert!(!g.st[1][t].stunned && !g.st[1][n].stunned);
    }

    #[test]
    fn dangerous_ground_wounds_on_a_one_and_rough_ground_costs_two_inches() {
        use crate::battle::{Area, AreaKind};
        let r = gng(&[]);
        let rifle = unit(&r, "Light Infantry");
        let mut g = game(&r);
        g.table.areas.push(Area { centre: Pos::new(40.0, 8.0), radius: 1.0, kind: AreaKind::Dangerous });
        g.table.areas.push(Area { centre: Pos::new(50.0, 8.0), radius: 1.0, kind: AreaKind::Rough });
        let a = g.place(0, rifle, Pos::new(40.0, 5.0));
        let b = g.place(0, rifle, Pos::new(50.0, 5.0));
        g.move_unit(0, a, Pos::new(40.0, 20.0), 6.0, None, &mut ScriptedDice::new(&[1]));
        assert_eq!(g.bt.sides[0][a].damage, 1);
        g.move_unit(0, b, Pos::new(50.0, 20.0), 6.0, None, &mut ScriptedDice::new(&[]));
        assert!((g.pos(0, b).y - 9.0).abs() < 1e-4, "6\" − 2\" rough = 4\"");
    }

    #[test]
    fn a_side_with_nothing_left_loses_and_games_end_within_the_cap() {
        let r = gng(&[]);
        let mut d = FastDice::from_seed(5);
        let mut g = Skirmish::new(&r, &r.skirmish);
        let mut wins = 0;
        for _ in 0..40 {
            let (a, b) = (random_army(&r, 350.0, 0.5, &mut d), random_army(&r, 350.0, 0.5, &mut d));
            g.set_up([&a, &b], [Tactic::Default; 2], &mut d);
            let out = g.play(&mut d);
            assert!(out.turns <= r.skirmish.max_turns);
            if let Some(w) = out.winner {
                wins += 1;
                assert!(g.beaten(1 - w) && !g.beaten(w));
            }
        }
        assert!(wins > 20, "most games are decided: {wins}/40");
    }

    #[test]
    fn skirmish_tallies_are_identical_on_one_and_two_threads() {
        let r = gng(&[]);
        let go = |n: usize| {
            rayon::ThreadPoolBuilder::new().num_threads(n).build().unwrap().install(|| {
                simulate(&r, &r.skirmish, &Armies::Random, Tactic::Default, 11, 120, &indicatif::ProgressBar::hidden())
            })
        };
        let (one, two) = (go(1), go(2));
        assert_eq!(one, two);
        assert_eq!(one.games, 120);
        assert_eq!(one.records.len(), 120);
        let cautious =
            simulate(&r, &r.skirmish, &Armies::Random, Tactic::Cautious, 11, 60, &indicatif::ProgressBar::hidden());
        assert_eq!(cautious.games, 60);
    }
}
