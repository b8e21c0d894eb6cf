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
//! movement round terrain, Guard reactions, the cautious tactic and the scoring.
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
//! - **Transport** ("Vehicle Units": Jeep "Transport up to 5 models", Truck and APC
//!   "Transport 10"): an infantry unit whose move ends in contact (within [`CONTACT`], 1") with
//!   a friendly vehicle that has room for all its models gets in; carried units stand where
//!   their transport is, move with it and cannot be shot, targeted or charged (nor do they shoot
//!   or guard); a carried unit gets out with an Advance: placed in contact with the transport,
//!   it moves its Advance and may shoot. A transport destroyed with units inside: they are
//!   placed 2" behind the wreck (within the book's 3") and each takes D6 hits, blocked as
//!   shooting hits (no morale test: they are not shooting; [`rules::wreck_hits`]).
//!   *Tactic* (both tactics, one rule): an infantry unit whose best option is a Rush (nothing
//!   to shoot or charge this activation) boards the nearest friendly transport with room that
//!   it can reach with its Rush and that may still move this round; a loaded transport drives
//!   toward the nearest enemy until it is its passengers' longest range plus their Advance
//!   away; a passenger gets out when its target is within that reach (plus contact).
//! - Units activate in army order within a side, except that transports go after the other
//!   units and passengers last (so a unit can board before its transport moves and get out
//!   after it moved; `Mission::next_unit`).

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::battle::replay::{Replay, ReplayUnit};
use crate::battle::{Pos, Table, TerrainPlan, deployment_band};
use crate::config::{ConfigError, Invalid, Source, in_range};
use crate::dice::Dice;
use crate::rulesets::amc::rules::{self, Action, Decision, UnitState};
use crate::rulesets::amc::{ArmyMenCombat, Kind, Profile, tactic};
use crate::rulesets::skirmish::{
    ArmyError, ArmySource, GameRecord, Skirmish, SkirmishSettings, SkirmishText, TacticInfo,
};
use crate::rulesets::skirmish::{check_max, check_runs, check_table};
use crate::rulesets::{Side, UnitInfo};

/// Distances closer than this count as equal (inches).
const EPS: f32 = 1e-3;

/// The `[skirmish]` table of the config. Every key has a default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
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
    /// Games per `pointsworth skirmish` run (`--trials`), per tactic in the report (0 leaves
    /// the section out), and per batch of the deterministic engine.
    pub trials: u64,
    pub report_trials: u64,
    pub batch_size: u32,
}

impl Default for SkirmishConfig {
    fn default() -> Self {
        SkirmishConfig {
            table_width: 48.0,
            table_depth: 48.0,
            terrain_min: 5,
            terrain_max: 10,
            cover_length: 6.0,
            cover_reach: 2.0,
            deploy_depth: 12.0,
            rounds: 4,
            trials: 20000,
            report_trials: 20000,
            batch_size: 20,
        }
    }
}

impl SkirmishConfig {
    /// Checks ranges; the message names the key, the error carries it for its place.
    pub fn validate(&self) -> Result<(), Invalid> {
        use crate::config::Ends::{Both, Top};
        let c = self;
        check_table(c.table_width, c.table_depth, Some(c.deploy_depth), (12.0, 400.0), " in")?;
        in_range("skirmish.terrain_min", c.terrain_min, 0, 50, Both, "")?;
        check_max("skirmish.terrain_max", c.terrain_max, "terrain_min", c.terrain_min, 50)?;
        in_range("skirmish.cover_length", c.cover_length, 0.0, 40.0, Top, " in")?;
        in_range("skirmish.cover_reach", c.cover_reach, 0.0, 10.0, Both, " in")?;
        in_range("skirmish.rounds", c.rounds, 1, 100, Both, "")?;
        check_runs(c.trials, c.report_trials, c.batch_size)
    }
}

/// The two tactics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tactic {
    Default,
    Cautious,
}

impl Tactic {
    pub const NAMES: [&'static str; 2] = ["default", "cautious"];
    pub fn parse(s: &str) -> Option<Tactic> {
        match s {
            "default" => Some(Tactic::Default),
            "cautious" => Some(Tactic::Cautious),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        Tactic::NAMES[self as usize]
    }
}

/// Every entry a skirmish army can field: the plain cost list, then the upgraded entries.
pub fn entries(r: &ArmyMenCombat) -> Vec<(UnitInfo, Profile)> {
    r.entries.clone()
}

/// An army: entry indices (into [`entries`]) in army order.
pub type Army = Vec<usize>;

/// Fixed armies or fresh random ones every game.
pub type Armies = crate::rulesets::skirmish::Armies<Army>;

/// Checks an army against the army limits (AMC 2.0, "The Armies"); returns its points.
pub fn check_army(r: &ArmyMenCombat, all: &[(UnitInfo, Profile)], army: &[usize]) -> Result<f64, String> {
    let list: Vec<(&str, &Profile)> = army.iter().map(|&e| (all[e].0.name.as_str(), &all[e].1)).collect();
    r.army.check(&list)
}

/// The index into [`entries`] of plain entry `base` with the upgrades `bought` (ascending
/// indices into [`ArmyMenCombat::upgraded`]).
pub fn entry_of(r: &ArmyMenCombat, base: usize, bought: &[usize]) -> Option<usize> {
    r.entry_parts.iter().position(|(b, ups)| *b == base && ups.as_slice() == bought)
}

/// A random legal army: add a plain entry drawn uniformly among those that still fit the
/// points, the vehicle share and the support limit, and buy it upgrades: in each of its
/// upgrade groups ([`crate::rulesets::amc::upgrade_group`]: Bayonets; Grenades or C4;
/// Flamethrower or Bazooka; Truck or APC; MG; Medium Tank +1 or +2) none or one of the
/// choices that still fit, each with equal chance (issue 16: random mission armies buy
/// upgrades, so the mission prices them); until no plain entry fits.
pub fn random_army<D: Dice>(r: &ArmyMenCombat, dice: &mut D) -> Army {
    let groups = crate::rulesets::amc::upgrade_groups(&r.profiles, &r.upgraded);
    let lim = &r.army;
    let (mut points, mut vehicles, mut support) = (0.0, 0.0, 0u32);
    let mut army = Vec::new();
    let mut fits = Vec::with_capacity(r.profiles.len());
    loop {
        fits.clear();
        for (e, p) in r.profiles.iter().enumerate() {
            let veh = if p.kind == Kind::Vehicle { p.cost } else { 0.0 };
            if points + p.cost <= lim.points + 1e-9
                && vehicles + veh <= lim.vehicle_share * lim.points + 1e-9
                && (!p.support || support < lim.max_support)
            {
                fits.push(e);
            }
        }
        if fits.is_empty() {
            return army;
        }
        let base = fits[dice.below(fits.len())];
        let vehicle = r.profiles[base].kind == Kind::Vehicle;
        let fit = |cost: f64| {
            points + cost <= lim.points + 1e-9 && (!vehicle || vehicles + cost <= lim.vehicle_share * lim.points + 1e-9)
        };
        let mut cost = r.profiles[base].cost;
        let mut bought = Vec::new();
        for g in &groups[base] {
            let options: Vec<usize> = g.iter().copied().filter(|&k| fit(cost + r.upgraded[k].upgrade_cost)).collect();
            if options.is_empty() {
                continue;
            }
            let c = dice.below(options.len() + 1);
            if c > 0 {
                cost += r.upgraded[options[c - 1]].upgrade_cost;
                bought.push(options[c - 1]);
            }
        }
        bought.sort_unstable();
        let e = entry_of(r, base, &bought).unwrap_or(base);
        let p = &r.entries[e].1;
        points += p.cost;
        vehicles += if p.kind == Kind::Vehicle { p.cost } else { 0.0 };
        support += p.support as u32;
        army.push(e);
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawArmy {
    units: BTreeMap<String, toml::Spanned<u32>>,
}

/// Reads an army file: a `[units]` table of entry name = count (plain entries such as
/// `"Riflemen (10)"` or upgraded ones such as `"Riflemen (10) + Bayonets"`, with several
/// upgrades joined in the order the unit lists them, one per group:
/// `"Riflemen (10) + Bayonets + Grenades + Bazooka"`, `"Jeep + Truck + Jeep MG"`).
///
/// Errors: unreadable file, bad TOML (`file:line:col`), an unknown entry (with the list of
/// valid names), or an army that breaks the army limits.
pub fn read_army(r: &ArmyMenCombat, path: &Path) -> Result<Army, ConfigError> {
    let source = Source::read(path)?;
    let raw: RawArmy = source.parse()?;
    let all = entries(r);
    let mut army = Vec::new();
    let names: Vec<&str> = all.iter().map(|u| u.0.name.as_str()).collect();
    let costs: Vec<f64> = all.iter().map(|u| u.1.cost).collect();
    for (e, n, _) in crate::rulesets::skirmish::army_counts(
        &source,
        &raw.units,
        "unit",
        &names,
        &costs,
        r.army.points,
        "[army] points",
    )? {
        army.extend(std::iter::repeat_n(e, n as usize));
    }
    if army.is_empty() {
        return Err(crate::rulesets::skirmish::army_error(&source, "the army has no units"));
    }
    check_army(r, &all, &army)
        .map_err(|m| crate::rulesets::skirmish::army_error(&source, &format!("the army is not legal: {m}")))?;
    Ok(army)
}

/// "A: 3 × Riflemen (10), Tank".
pub fn describe(all: &[(UnitInfo, Profile)], army: &[usize]) -> String {
    let mut counts: Vec<(usize, u32)> = Vec::new();
    for &e in army {
        match counts.iter_mut().find(|c| c.0 == e) {
            Some(c) => c.1 += 1,
            None => counts.push((e, 1)),
        }
    }
    counts
        .iter()
        .map(|&(e, n)| if n == 1 { all[e].0.name.clone() } else { format!("{n} × {}", all[e].0.name) })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The cautious tactic's own actions (AMC 2.0, "Activation"): Hunker (move 0", no shooting,
/// +1 block die) and Guard (move 0", shoot in reaction).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Caution {
    Hunker,
    Guard,
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
    pub tactic: Tactic,
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
    /// A fresh mission (no units, empty table).
    pub fn new(r: &'a ArmyMenCombat, cfg: &'a SkirmishConfig, all: &'a [(UnitInfo, Profile)], tactic: Tactic) -> Self {
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

    fn profile(&self, s: Side, i: usize) -> &'a Profile {
        let all: &'a [(UnitInfo, Profile)] = self.all;
        &all[self.sides[s][i].entry].1
    }

    /// AMC 2.0, "The Battlefield": places 5–10 terrain pieces from `dice`, outside both
    /// deployment zones.
    pub fn place_terrain<D: Dice>(&mut self, dice: &mut D) {
        let c = self.cfg;
        let extra = c.terrain_max - c.terrain_min;
        let pieces = c.terrain_min + dice.below(extra as usize + 1) as u32;
        let plan = TerrainPlan {
            cover_pieces: pieces,
            cover_length: c.cover_length as f32,
            rough_areas: 0,
            dangerous_areas: 0,
            area_radius: 1.0,
            keep_out: c.deploy_depth as f32,
        };
        self.table.place_terrain(&plan, dice);
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

    fn nearest_enemy(&self, s: Side, i: usize) -> Option<(usize, f32)> {
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

    /// [`rules::decide`] for side `s`'s unit `i` against side `1 - s`'s unit `j` where both
    /// stand, with each shot's cover from the terrain and the arc a vehicle shows; the distance in
    /// inches.
    fn decide_against(&self, s: Side, i: usize, j: usize) -> (Decision, f32) {
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
    fn room_away(&self, from: Pos, enemy: Pos) -> f32 {
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
    fn choose(&self, s: Side, i: usize) -> Option<(usize, Decision, f32)> {
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
    fn hunker_saving(&self, s: Side, i: usize) -> f64 {
        let (p, u) = (self.profile(s, i), &self.sides[s][i]);
        let hunkered = UnitState { hunker: true, ..u.st };
        let mut saved = 0.0;
        for (k, e) in self.sides[1 - s].iter().enumerate().filter(|(_, e)| e.on_table()) {
            let (ep, d) = (self.profile(1 - s, k), e.pos.dist(u.pos));
            let cover = rules::Exposure::front(self.in_cover(e.pos, u.pos));
            let open = tactic::best_attack(self.r, ep, &e.st, p, &u.st, d, cover).1;
            let hid = tactic::best_attack(self.r, ep, &e.st, p, &hunkered, d, cover).1;
            saved += open - hid;
        }
        saved
    }

    /// The cautious tactic's choice before the default plan: Hunker when that saves more
    /// points than the default's chosen option is worth (`default`, [`rules::decide`]'s
    /// value: a unit that can move into range or charge is worth more moving); Guard when the
    /// nearest enemy is out of its range, it is out of every enemy's range and that enemy can
    /// come into its range this round; otherwise neither. Only infantry Hunker or Guard ("Vehicle
    /// Rules": vehicles may only Hold, Advance and Rush; RULINGS.md, "Hunker is infantry only").
    fn cautious(&self, s: Side, i: usize, default: f64) -> Option<Caution> {
        let p = self.profile(s, i);
        let me = self.sides[s][i].pos;
        if p.kind == Kind::Infantry && self.hunker_saving(s, i) > default.max(0.0) {
            return Some(Caution::Hunker);
        }
        let (j, d) = self.nearest_enemy(s, i)?;
        let enemies = || (0..self.sides[1 - s].len()).filter(|&k| self.sides[1 - s][k].on_table());
        let under_fire =
            enemies().any(|k| self.profile(1 - s, k).has_weapon_in_range(self.sides[1 - s][k].pos.dist(me)));
        let tp = self.profile(1 - s, j);
        if p.kind == Kind::Infantry
            && p.has_any_weapon()
            && !under_fire
            && !p.has_weapon_in_range(d)
            && d <= tp.rush + p.max_range()
        {
            return Some(Caution::Guard);
        }
        None
    }

    /// Side `s`'s unit `i` with nothing to do moves its Rush straight away from the nearest
    /// enemy, staying on the table (issue 15: the unarmed Jeep does not wait where it can be
    /// shot). The mission scores only destroyed or Pinned units, so distance is safety.
    fn fall_back(&mut self, s: Side, i: usize) {
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
        if self.tactic == Tactic::Cautious {
            match self.cautious(s, i, decision.value) {
                Some(Caution::Hunker) => {
                    self.sides[s][i].st.hunker = true;
                    return;
                }
                Some(Caution::Guard) => {
                    self.sides[s][i].guard = true;
                    return;
                }
                None => {}
            }
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
                self.move_to(s, i, target, self.r.rules.charge_move, 0.0);
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
    fn bail_out<D: Dice>(&mut self, s: Side, t: usize, by: (Side, usize), dice: &mut D) {
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

    /// The mission tactic's ride (both tactics): side `s`'s infantry unit `i`, whose best
    /// option (`decision`) is to Rush toward the enemy (nothing to shoot or charge this
    /// activation: it is far from the enemy), boards a friendly transport that has room for
    /// it, that it can reach with its Rush (within its Rush plus [`CONTACT`]), that has not
    /// activated this round and may move next (not stunned or "may not move"): the transport
    /// then carries it forward this round (transports activate after the other units of
    /// their side, `Mission::next_unit`). The nearest such transport, the first in army order
    /// on equal distance; `None` when there is none.
    fn ride_to(&self, s: Side, i: usize, decision: &Decision) -> Option<usize> {
        let (p, u) = (self.profile(s, i), &self.sides[s][i]);
        if p.kind != Kind::Infantry || !matches!(decision.action, Action::Rush(_)) || u.aboard.is_some() {
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
    fn passenger_reach(&self, s: Side, t: usize) -> Option<f32> {
        (0..self.sides[s].len())
            .filter(|&k| self.sides[s][k].aboard == Some(t) && self.sides[s][k].st.alive())
            .map(|k| {
                let p = self.profile(s, k);
                p.max_range() + p.advance
            })
            .min_by(f32::total_cmp)
    }

    /// The mission tactic of a loaded transport (side `s`'s unit `i`, both tactics): it carries
    /// its passengers toward the nearest enemy on the table until they can get out and shoot
    /// it — it stops at the passengers' reach ([`Mission::passenger_reach`]: their longest
    /// range plus the Advance they get out with) — with an Advance (then it shoots `j` if
    /// armed) when that is far enough, else a Rush; once there it holds and shoots `j` if it
    /// can. A transport that may not move this activation holds.
    fn carry<D: Dice>(&mut self, s: Side, i: usize, j: usize, dice: &mut D) {
        let p = self.profile(s, i);
        let Some(reach) = self.passenger_reach(s, i) else { return };
        let Some((k, d)) = self.nearest_enemy(s, i) else { return };
        let goal = self.sides[1 - s][k].pos;
        let need = d - reach;
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

    /// The passenger's tactic (side `s`'s unit `i`, riding; both tactics): it gets out
    /// ([`Mission::disembark`]) when its target — [`Mission::choose`]'s, else the nearest enemy
    /// on the table — is within its longest range plus its Advance plus [`CONTACT`] of the
    /// transport; otherwise it stays aboard and does nothing.
    fn ride<D: Dice>(&mut self, s: Side, i: usize, dice: &mut D) {
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
                    || (ep.kind == Kind::Infantry && d <= self.r.rules.charge_move)
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
            rules::melee(dice, cp, &mut c, dp, &mut d, self.r.rules.melee_round_cap, arc);
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

    /// Which of side `s`'s units activates next (the player's choice; both tactics): units on
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
pub fn traced_game(r: &ArmyMenCombat, armies: &Armies, tactic: Tactic, seed: u64) -> (Replay, MissionOutcome) {
    let all = &r.entries;
    let stream = crate::seed::stream_id(&["army-men-combat", "skirmish", "replay"]);
    let mut dice = crate::dice::FastDice::from_seed(crate::seed::batch_seed(seed, stream, 0));
    let mut m = Mission::new(r, &r.skirmish, all, tactic);
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
    const TACTICS: &'static [TacticInfo] = TACTICS;
    const ARMY_SOURCE: ArmySource = ARMY_SOURCE;
    const MISSIONS: &'static [crate::rulesets::skirmish::MissionInfo] = &[crate::rulesets::skirmish::MissionInfo {
        name: "basic",
        description: "the book's Mission: 300 points, 4 rounds, more enemy points destroyed or Pinned wins",
    }];

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
            points: self.army.points,
            trials: c.trials,
            report_trials: c.report_trials,
            batch_size: c.batch_size,
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
        self.units.clone()
    }

    fn skirmish_upgrades(&self) -> Vec<(String, f64)> {
        upgrade_items(self)
    }

    fn game(&self, tactic: usize, _mission: usize) -> Mission<'_> {
        Mission::new(self, &self.skirmish, &self.entries, [Tactic::Default, Tactic::Cautious][tactic])
    }

    fn play<D: Dice>(&self, m: &mut Mission<'_>, armies: &Armies, dice: &mut D, rec: &mut GameRecord) {
        set_up(m, armies, dice);
        let out = m.play(dice);
        record(rec, m, &out);
    }

    fn replay(&self, armies: &Armies, tactic: usize, _mission: usize, seed: u64) -> Replay {
        traced_game(self, armies, [Tactic::Default, Tactic::Cautious][tactic], seed).0
    }
}

/// The mission's tactics, default first (see [`Tactic`]).
pub const TACTICS: &[TacticInfo] = &[
    TacticInfo {
        name: "default",
        description: "the option and target worth the most expected points (shoot, advance, charge, rush)",
    },
    TacticInfo {
        name: "cautious",
        description: "Guard when the enemy must cross open ground, Hunker when that saves more than acting is worth",
    },
];

/// What `--armies` takes for Army Men Combat.
pub const ARMY_SOURCE: ArmySource =
    ArmySource { what: "army files", how: "TOML with a [units] table of entry name = count" };

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{FastDice, ScriptedDice};
    use crate::rulesets::amc::testing::amc;

    #[test]
    fn replay_labels_keep_the_entry_size() {
        assert_eq!(entry_label("Veterans (5)"), "Ve5");
        assert_eq!(entry_label("Riflemen (10)"), "Ri10");
        assert_eq!(entry_label("Heavy Weapons (3)"), "HW3");
        assert_eq!(entry_label("Tank"), "Ta");
    }

    #[test]
    fn deployment_alternates_within_12_inches_of_the_own_edge() {
        let r = amc(&[]);
        let all = entries(&r);
        let mut m = Mission::new(&r, &r.skirmish, &all, Tactic::Default);
        let rifle = r.find("Riflemen (10)");
        // Roll-off for the first placement: B 5 beats A 2.
        let mut dice = ScriptedDice::new(&[2, 5]);
        m.deploy([&[rifle, rifle, rifle], &[rifle]], &mut dice);
        assert!(dice.exhausted());
        assert_eq!(m.placement, vec![1, 0, 0, 0], "B first, then A; A finishes alone");
        for u in &m.sides[0] {
            assert!(u.pos.y <= 12.0 && u.pos.y > 0.0, "{:?}", u.pos);
        }
        for u in &m.sides[1] {
            assert!(u.pos.y >= 36.0 && u.pos.y < 48.0, "{:?}", u.pos);
        }
        assert_eq!(m.sides[0].len(), 3);
    }

    #[test]
    fn score_counts_destroyed_or_pinned_enemy_points() {
        let r = amc(&[]);
        let all = entries(&r);
        let mut m = Mission::new(&r, &r.skirmish, &all, Tactic::Default);
        let (rifle, tank, rec) = (r.find("Riflemen (10)"), r.find("Tank"), r.find("Recruits (5)"));
        m.deploy([&[rifle, tank], &[rec, rifle]], &mut ScriptedDice::new(&[6, 1]));
        assert_eq!((m.score(0), m.score(1)), (0.0, 0.0));
        m.sides[1][0].st.models = 0; // Recruits (5) destroyed: 15 points to A.
        m.sides[1][1].st.pinned = true; // Riflemen (10) Pinned: 50 points to A.
        m.sides[0][1].st.models = 0; // Tank destroyed: 150 points to B.
        assert_eq!((m.score(0), m.score(1)), (65.0, 150.0));
    }

    #[test]
    fn the_game_ends_after_4_rounds_and_equal_scores_draw() {
        // Two Gunners (1) at opposite corners far out of reach (on a deep table): nobody is
        // hurt in 4 rounds: 0 – 0, a draw.
        let r = amc(&["skirmish.table_depth=400"]);
        let all = entries(&r);
        let mut m = Mission::new(&r, &r.skirmish, &all, Tactic::Default);
        let g = r.find("Gunners (1)");
        m.deploy([&[g], &[g]], &mut FastDice::from_seed(1));
        let out = m.play(&mut FastDice::from_seed(2));
        assert_eq!(out, MissionOutcome { winner: None, score: [0.0, 0.0], rounds: 4 });
        assert!(m.sides[0][0].pos.y > 6.0 * 4.0, "A rushed forward every round: {:?}", m.sides[0][0].pos);
    }

    #[test]
    fn a_pinned_unit_at_the_end_scores_for_the_enemy() {
        // One round; B's Recruits (5) start Pinned and fail their Pinned test when they would
        // activate: destroyed. A's score is 15, B's 0: A wins.
        let r = amc(&["skirmish.rounds=1"]);
        let all = entries(&r);
        let mut m = Mission::new(&r, &r.skirmish, &all, Tactic::Default);
        let (sn, rec) = (r.find("Snipers (1)"), r.find("Recruits (5)"));
        m.deploy([&[sn], &[rec]], &mut ScriptedDice::new(&[6, 1]));
        m.sides[1][0].st.pinned = true;
        // Roll-off (2 units): B 6+1 vs A 1+1 → B activates: Pinned test 1 fails → destroyed.
        // Then A alone: no enemy left, nothing rolled.
        let mut dice = ScriptedDice::new(&[1, 6, 1]);
        let out = m.play(&mut dice);
        assert!(dice.exhausted());
        assert_eq!(out, MissionOutcome { winner: Some(0), score: [15.0, 0.0], rounds: 1 });
    }

    #[test]
    fn random_armies_are_legal_and_nearly_full() {
        let r = amc(&[]);
        let all = entries(&r);
        let mut dice = FastDice::from_seed(9);
        for _ in 0..500 {
            let a = random_army(&r, &mut dice);
            let pts = check_army(&r, &all, &a).unwrap_or_else(|e| panic!("{e}: {}", describe(&all, &a)));
            assert!(pts >= 290.0, "{pts}: {}", describe(&all, &a));
        }
    }

    /// Issue 16: random mission armies buy upgrades — none or one choice per group, each with
    /// equal chance, so Jeeps come plain, as Trucks and as APCs, some with an MG, and infantry
    /// with several upgrades at once — and a game record counts an upgraded entry as its plain
    /// entry plus each upgrade, so the value-in-army regression prices the upgrades.
    #[test]
    fn random_armies_buy_upgrades_and_records_count_them_as_upgrades() {
        let r = amc(&[]);
        let all = entries(&r);
        let names = ["Jeep", "Jeep + Truck", "Jeep + APC", "Jeep + Truck + Jeep MG"];
        let ids: Vec<usize> = names.iter().map(|n| entry(&all, n)).collect();
        let (mut seen, mut combined) = ([0u32; 4], 0u32);
        let mut dice = FastDice::from_seed(4);
        for _ in 0..400 {
            for e in random_army(&r, &mut dice) {
                for (k, &x) in ids.iter().enumerate() {
                    seen[k] += (e == x) as u32;
                }
                combined += (r.entry_parts[e].1.len() >= 2) as u32;
            }
        }
        assert!(seen.iter().all(|&n| n > 10), "{seen:?}");
        assert!(combined > 200, "{combined}");
        let ups = upgrade_items(&r);
        let col = |n: &str| ups.iter().position(|u| u.0 == n).unwrap();
        let (jeep, truck, truck_mg, apc) = (ids[0], ids[1], ids[3], ids[2]);
        assert_eq!(items_of(&r, &ups, truck), (jeep, vec![col("Truck")]));
        assert_eq!(items_of(&r, &ups, truck_mg), (jeep, vec![col("Truck"), col("Jeep MG")]));
        assert_eq!(items_of(&r, &ups, jeep), (jeep, vec![]));
        let mut m = face_off(&r, &all, &[truck_mg, jeep], &[apc], Tactic::Default);
        m.sides[1][0].st.models = 0;
        let mut rec = GameRecord::default();
        let n = r.profiles.len();
        rec.clear(n + ups.len(), n);
        record(&mut rec, &m, &MissionOutcome { winner: Some(0), score: [110.0, 0.0], rounds: 4 });
        let c = |s: usize, k: usize| rec.counts[s][k];
        assert_eq!((c(0, jeep), c(0, n + col("Truck")), c(0, n + col("Jeep MG")), c(1, jeep)), (2, 1, 1, 1));
        assert_eq!(rec.survivors[jeep], 2);
    }

    #[test]
    fn guard_shoots_a_unit_that_moves_into_range() {
        let r = amc(&[]);
        let all = entries(&r);
        let mut m = Mission::new(&r, &r.skirmish, &all, Tactic::Default);
        let (g, rifle) = (r.find("Gunners (1)"), r.find("Riflemen (10)"));
        m.deploy([&[g], &[rifle]], &mut ScriptedDice::new(&[6, 1]));
        m.sides[0][0].guard = true;
        // Riflemen 37.6" away (out of the Machinegun's 36") advance 6" into its range.
        let at = m.sides[0][0].pos;
        m.sides[1][0].pos = Pos::new(at.x + 16.0, at.y + 34.0);
        m.move_to(1, 0, Pos::new(at.x, at.y + 30.0), 6.0, 0.0);
        assert!(m.sides[1][0].pos.dist(at) < 36.0);
        // Machinegun: 3 attacks at 4+: 6, 6, 1 → 2 hits; blocks: one per hit + 1 (Guard) = 3
        // tests: 6, 1, 1 → 1 block; 1 casualty (9 left, no morale test).
        let mut dice = ScriptedDice::new(&[6, 6, 1, 6, 1, 1]);
        m.guard_reactions(1, 0, &mut dice);
        assert!(dice.exhausted());
        assert_eq!(m.sides[1][0].st.models, 9);
        assert!(!m.sides[0][0].guard, "a guard reacts once");
    }

    /// Side 0's `a` and side 1's `b` on an empty table, `gap` inches apart across the middle.
    fn face_off<'a>(
        r: &'a ArmyMenCombat,
        all: &'a [(UnitInfo, Profile)],
        a: &[usize],
        b: &[usize],
        tactic: Tactic,
    ) -> Mission<'a> {
        let mut m = Mission::new(r, &r.skirmish, all, tactic);
        m.deploy([a, b], &mut ScriptedDice::new(&[6, 1]));
        m
    }

    #[test]
    fn a_cautious_unit_out_of_range_closes_in_instead_of_hunkering() {
        // Issue 15: Riflemen (10) 30" from a Tank (Cannon, 48") and from enemy Riflemen: out of
        // their own range, threatened by the Cannon. The old rule rated their damage 0 and
        // hunkered; hunkering saves less than closing in to shoot the Riflemen is worth.
        let r = amc(&[]);
        let all = entries(&r);
        let (rifle, tank) = (r.find("Riflemen (10)"), r.find("Tank"));
        let mut m = face_off(&r, &all, &[rifle], &[tank, rifle], Tactic::Cautious);
        m.sides[0][0].pos = Pos::new(24.0, 6.0);
        m.sides[1][0].pos = Pos::new(20.0, 36.0);
        m.sides[1][1].pos = Pos::new(28.0, 36.0);
        let before = m.sides[0][0].pos;
        let mut dice = ScriptedDice::new(&[]);
        m.activate(0, 0, &mut dice);
        assert!(!m.sides[0][0].st.hunker, "hunkered");
        assert!(m.sides[0][0].pos.y > before.y + 5.0, "did not close in: {:?}", m.sides[0][0].pos);
    }

    #[test]
    fn a_sniper_shoots_the_infantry_it_can_hurt_not_the_nearer_tank() {
        // Issue 15: a Sniper (1) with a Tank 10" away and Riflemen (10) 30" away, both in range.
        // Against the Tank one hit is halved to none; the Riflemen lose a model per hit (no
        // block die per Sniper hit). Hit roll 6 → 1 hit, no block dice: 9 Riflemen left.
        let r = amc(&[]);
        let all = entries(&r);
        let (sn, tank, rifle) = (r.find("Snipers (1)"), r.find("Tank"), r.find("Riflemen (10)"));
        let mut m = face_off(&r, &all, &[sn], &[tank, rifle], Tactic::Default);
        m.sides[0][0].pos = Pos::new(24.0, 6.0);
        m.sides[1][0].pos = Pos::new(24.0, 16.0);
        m.sides[1][1].pos = Pos::new(10.0, 33.0);
        let mut dice = ScriptedDice::new(&[6]);
        m.activate(0, 0, &mut dice);
        assert!(dice.exhausted());
        assert_eq!(m.sides[1][1].st.models, 9);
    }

    #[test]
    fn the_unarmed_jeep_moves_away_from_danger_instead_of_waiting() {
        // Issue 15: a Jeep (no weapon) 20" from Riflemen (10) waited in their range; it now
        // drives its 24" Rush away from them (toward its own edge and along it).
        let r = amc(&[]);
        let all = entries(&r);
        let (jeep, rifle) = (r.find("Jeep"), r.find("Riflemen (10)"));
        let mut m = face_off(&r, &all, &[jeep], &[rifle], Tactic::Default);
        m.sides[0][0].pos = Pos::new(24.0, 11.0);
        m.sides[1][0].pos = Pos::new(30.0, 30.0);
        let d0 = m.sides[0][0].pos.dist(m.sides[1][0].pos);
        m.activate(0, 0, &mut ScriptedDice::new(&[]));
        let d1 = m.sides[0][0].pos.dist(m.sides[1][0].pos);
        assert!(d1 > 24.0 && d1 > d0 + 5.0, "{d0} → {d1}");
    }

    /// AMC 2.0, "Guard Actions": "Units that are on guard ... may react to enemy units that
    /// move into their line of sight by shooting" — every guarding unit, not only the first. Two
    /// guarding Gunners (1) and Riflemen (10) advancing 6" toward them, 30" away: both guards
    /// shoot (the old mission let only the first react). First: 6, 6, 1 → 2 hits, blocks one
    /// per hit + 1 (Guard): 6, 1, 1 → 1 casualty. Second: 6, 6, 6 → 3 hits, blocks 1, 1, 1, 1 →
    /// 3 casualties. 6 left (more than half: no morale test).
    #[test]
    fn every_guarding_unit_reacts() {
        let r = amc(&[]);
        let all = entries(&r);
        let (g, rifle) = (r.find("Gunners (1)"), r.find("Riflemen (10)"));
        let mut m = face_off(&r, &all, &[g, g], &[rifle], Tactic::Default);
        m.sides[0][0].pos = Pos::new(20.0, 10.0);
        m.sides[0][1].pos = Pos::new(28.0, 10.0);
        m.sides[0][0].guard = true;
        m.sides[0][1].guard = true;
        m.sides[1][0].pos = Pos::new(24.0, 40.0);
        m.move_to(1, 0, Pos::new(24.0, 30.0), 6.0, 0.0);
        let mut dice = ScriptedDice::new(&[6, 6, 1, 6, 1, 1, 6, 6, 6, 1, 1, 1, 1]);
        m.guard_reactions(1, 0, &mut dice);
        assert!(dice.exhausted());
        assert_eq!(m.sides[1][0].st.models, 6);
        assert!(!m.sides[0][0].guard && !m.sides[0][1].guard, "each guard reacted once");
    }

    /// AMC 2.0, "Guard Actions": "The player may stop enemy units at any point of their move
    /// to shoot". A guarding Gunners (1) at (24, 10); Riflemen (10) rush 12" along y = 45.5 from
    /// x = 18 to x = 30, ending 36.003" away, just out of the Machinegun's 36", but passing
    /// 35.5" from it. The guard shoots at the first point of the path in range (x = 18.5); the
    /// old mission looked only at the end of the move and held fire.
    #[test]
    fn a_guard_shoots_at_any_point_of_the_move() {
        let r = amc(&[]);
        let all = entries(&r);
        let (g, rifle) = (r.find("Gunners (1)"), r.find("Riflemen (10)"));
        let mut m = face_off(&r, &all, &[g], &[rifle], Tactic::Default);
        m.sides[0][0].pos = Pos::new(24.0, 10.0);
        m.sides[0][0].guard = true;
        m.sides[1][0].pos = Pos::new(18.0, 45.5);
        m.move_to(1, 0, Pos::new(30.0, 45.5), 12.0, 0.0);
        assert!(m.sides[1][0].pos.dist(m.sides[0][0].pos) > 36.0);
        // 6, 6, 1 → 2 hits; blocks 2 + 1 (Guard): 6, 1, 1 → 1 casualty.
        let mut dice = ScriptedDice::new(&[6, 6, 1, 6, 1, 1]);
        m.guard_reactions(1, 0, &mut dice);
        assert!(dice.exhausted());
        assert_eq!(m.sides[1][0].st.models, 9);
        assert!(!m.sides[0][0].guard);
    }

    /// AMC 2.0, "Guard Actions" and "Damage": the guard chooses the point of the move to shoot
    /// at, and a vehicle keeps its facing while it moves. B's Tank faces A's edge (−y) and rushes
    /// 12" from (30, 22) to (30, 10), past a guarding Gunners (1) at (24, 10): A is in its front
    /// arc until the Tank is level with (30, 16), in its side arc after. The guard shoots where a
    /// hit is likelier to destroy it: in the side arc, one damage die. 6, 6, 6 → 3 hits, halved
    /// → 1; blocks 1 + 3 (armor) + 1 (Guard): 1, 1, 1, 1, 1; damage die 5: destroyed.
    #[test]
    fn a_guard_shoots_a_moving_vehicle_where_it_shows_its_side() {
        let r = amc(&[]);
        let all = entries(&r);
        let (g, tank) = (r.find("Gunners (1)"), r.find("Tank"));
        let mut m = face_off(&r, &all, &[g], &[tank], Tactic::Default);
        m.sides[0][0].pos = Pos::new(24.0, 10.0);
        m.sides[0][0].guard = true;
        m.sides[1][0].pos = Pos::new(30.0, 22.0);
        m.move_to(1, 0, Pos::new(30.0, 10.0), 12.0, 0.0);
        let mut dice = ScriptedDice::new(&[6, 6, 6, 1, 1, 1, 1, 1, 5]);
        m.guard_reactions(1, 0, &mut dice);
        assert!(dice.exhausted());
        assert!(!m.sides[1][0].st.alive());
    }

    /// AMC 2.0, "Guard Actions": guards "react to enemy units that move". Riflemen (10) that
    /// Advance 0" (already 1" from their target) draw no reaction, and no die is rolled (the old
    /// mission shot at any unit that took a moving action, wherever it ended); the unarmed Jeep
    /// that rushes away from a guard through its range is shot at (the old mission let a Jeep
    /// falling back pass every guard): 6, 6, 6 → 3 hits, halved → 1; blocks 1 + 1 (armor) + 1
    /// (Guard): 1, 1, 1; frontal damage 6 and 6: destroyed.
    #[test]
    fn guards_react_to_every_move_and_only_to_moves() {
        let r = amc(&[]);
        let all = entries(&r);
        let (g, rifle, jeep) = (r.find("Gunners (1)"), r.find("Riflemen (10)"), r.find("Jeep"));
        let mut m = face_off(&r, &all, &[g], &[rifle], Tactic::Default);
        m.sides[0][0].pos = Pos::new(24.0, 10.0);
        m.sides[0][0].guard = true;
        m.sides[1][0].pos = Pos::new(24.0, 11.0);
        m.move_to(1, 0, Pos::new(24.0, 10.0), 6.0, 1.0);
        m.guard_reactions(1, 0, &mut ScriptedDice::new(&[]));
        assert!(m.sides[0][0].guard && m.sides[1][0].st.models == 10);

        let mut m = face_off(&r, &all, &[g], &[jeep], Tactic::Default);
        m.sides[0][0].pos = Pos::new(24.0, 10.0);
        m.sides[0][0].guard = true;
        m.sides[1][0].pos = Pos::new(24.0, 40.0);
        let mut dice = ScriptedDice::new(&[6, 6, 6, 1, 1, 1, 6, 6]);
        m.activate(1, 0, &mut dice);
        assert!(dice.exhausted());
        assert!(!m.sides[1][0].st.alive() && !m.sides[0][0].guard);
    }

    /// AMC 2.0, "Morale": a Pinned unit "must take a quality test when trying to activate";
    /// until then it does not act, and a Guard reaction is an action (RULINGS.md, Guard): a
    /// Pinned guard lets an enemy move through its range unharmed and stays on Guard. No die is
    /// rolled (the old mission let it shoot).
    #[test]
    fn a_pinned_guard_does_not_react() {
        let r = amc(&[]);
        let all = entries(&r);
        let (g, rifle) = (r.find("Gunners (1)"), r.find("Riflemen (10)"));
        let mut m = face_off(&r, &all, &[g], &[rifle], Tactic::Default);
        m.sides[0][0].pos = Pos::new(24.0, 10.0);
        m.sides[0][0].guard = true;
        m.sides[0][0].st.pinned = true;
        m.sides[1][0].pos = Pos::new(24.0, 40.0);
        m.move_to(1, 0, Pos::new(24.0, 30.0), 6.0, 0.0);
        m.guard_reactions(1, 0, &mut ScriptedDice::new(&[]));
        assert_eq!(m.sides[1][0].st.models, 10);
    }

    /// AMC 2.0, "Vehicle Rules": "Vehicles may only use the Hold, Advance and Rush actions" —
    /// no Guard, no Hunker. A cautious Tank 48.4" from Riflemen (10): out of its Cannon's 48" and
    /// out of their Rifles' 24", the enemy able to come into its range this round — where a
    /// cautious infantry unit guards. The old mission put the Tank on Guard; it now plays the
    /// default (moves into range and shoots).
    #[test]
    fn a_cautious_vehicle_neither_guards_nor_hunkers() {
        let r = amc(&[]);
        let all = entries(&r);
        let (tank, rifle) = (r.find("Tank"), r.find("Riflemen (10)"));
        let mut m = face_off(&r, &all, &[tank], &[rifle], Tactic::Cautious);
        m.sides[0][0].pos = Pos::new(2.0, 2.0);
        m.sides[1][0].pos = Pos::new(40.0, 32.0);
        let before = m.sides[0][0].pos;
        m.activate(0, 0, &mut FastDice::from_seed(3));
        assert!(!m.sides[0][0].guard, "a vehicle went on Guard");
        assert!(!m.sides[0][0].st.hunker, "a vehicle hunkered");
        assert!(m.sides[0][0].pos.dist(before) > 1.0, "the Tank did not move: {:?}", m.sides[0][0].pos);
    }

    /// AMC 2.0, "Damage": "If hit in the front roll 2 dice and pick the lowest, if hit in the
    /// side roll 1 die, and if hit in the rear roll 2 dice and pick the highest". A Tank of side
    /// A at (24, 20) faces B's edge (+y). Gunners (1) shoot it from behind, from the side and
    /// from the front: 6, 6, 6 → 3 hits, halved → 1; blocks 1 + 3 (armor): 1, 1, 1, 1 → none;
    /// 1 unblocked hit rolls on the damage table. Rear: 1 and 6, the higher: destroyed (the old
    /// mission took every hit as frontal: the lower, 1, stunned). Side: one die, 5: destroyed.
    /// Front: 6 and 2, the lower: stunned.
    #[test]
    fn a_vehicle_is_damaged_in_the_arc_it_is_hit_in() {
        let r = amc(&[]);
        let all = entries(&r);
        let (tank, g) = (r.find("Tank"), r.find("Gunners (1)"));
        for (at, rolls, destroyed) in [
            (Pos::new(24.0, 5.0), vec![6, 6, 6, 1, 1, 1, 1, 1, 6], true),
            (Pos::new(40.0, 20.0), vec![6, 6, 6, 1, 1, 1, 1, 5], true),
            (Pos::new(24.0, 40.0), vec![6, 6, 6, 1, 1, 1, 1, 6, 2], false),
        ] {
            let mut m = face_off(&r, &all, &[tank], &[g], Tactic::Default);
            m.sides[0][0].pos = Pos::new(24.0, 20.0);
            m.sides[1][0].pos = at;
            let mut dice = ScriptedDice::new(&rolls);
            m.shoot(1, 0, 0, false, &mut dice);
            assert!(dice.exhausted(), "{at:?}");
            assert_eq!(!m.sides[0][0].st.alive(), destroyed, "{at:?}");
        }
    }

    /// AMC 2.0, "Vehicle Rules" / "Damage" 3–4: a vehicle pivots (here at the end of its
    /// activation) unless it "may not move or pivot". A Tank facing +y with Riflemen (10) 16"
    /// to its right (+x) turns to face them after acting; an immobile one keeps its facing,
    /// so they stay in its side arc.
    #[test]
    fn a_vehicle_turns_to_face_the_enemy_unless_it_may_not_pivot() {
        let r = amc(&[]);
        let all = entries(&r);
        let (tank, rifle) = (r.find("Tank"), r.find("Riflemen (10)"));
        for immobile in [false, true] {
            let mut m = face_off(&r, &all, &[tank], &[rifle], Tactic::Default);
            m.sides[0][0].pos = Pos::new(24.0, 20.0);
            m.sides[0][0].st.immobile = immobile;
            m.sides[1][0].pos = Pos::new(40.0, 20.0);
            m.activate(0, 0, &mut FastDice::from_seed(5));
            let (u, e) = (m.sides[0][0], m.sides[1][0].pos);
            let arc = arc_from(u.facing, u.pos, e);
            if immobile {
                assert_eq!((u.facing, arc), (Pos::new(0.0, 1.0), rules::Arc::Side));
                assert!(!u.st.immobile, "the effect is spent");
            } else {
                assert_eq!(arc, rules::Arc::Front, "{u:?}");
            }
        }
    }

    /// AMC 2.0, "Damage": a hit in the rear keeps the higher of 2 damage dice, so a Tank that
    /// turns its back is a far better target. Heavy Weapons (1) (Mortar D6*, doubled against
    /// vehicles) 20" from a Tank and 23.3" from Artillery: with the Tank facing them (front:
    /// the lower of 2 dice) the Artillery is worth more to shoot; with the Tank facing away
    /// the Tank is. Before the tactic read the arc, every hit on a vehicle was valued as frontal
    /// and the Mortar shot the Artillery either way.
    #[test]
    fn the_default_tactic_targets_a_vehicle_by_the_arc_it_shows() {
        let r = amc(&[]);
        let all = entries(&r);
        let (hw, tank, art) = (r.find("Heavy Weapons (1)"), r.find("Tank"), r.find("Artillery"));
        let mut m = face_off(&r, &all, &[hw], &[tank, art], Tactic::Default);
        m.sides[0][0].pos = Pos::new(24.0, 10.0);
        m.sides[1][0].pos = Pos::new(24.0, 30.0);
        m.sides[1][1].pos = Pos::new(36.0, 30.0);
        assert_eq!(m.choose(0, 0).map(|c| c.0), Some(1), "facing them: the Artillery");
        m.sides[1][0].facing = Pos::new(0.0, 1.0);
        assert_eq!(m.choose(0, 0).map(|c| c.0), Some(0), "its rear to them: the Tank");
    }

    /// The entry index of `name` among every entry a mission army can field.
    fn entry(all: &[(UnitInfo, Profile)], name: &str) -> usize {
        all.iter().position(|e| e.0.name == name).unwrap_or_else(|| panic!("no entry {name}"))
    }

    /// AMC 2.0, "Vehicle Units": the Jeep "Transport up to 5 models. Units that move in contact
    /// may get in"; "Truck: Transport 10", "APC: Transport 10". Riflemen (5) in contact get into
    /// a Jeep; Riflemen (10) do not fit it but fit a Truck and an APC; a second unit does not fit
    /// a full Jeep; a unit 3" away (not in contact) does not get in.
    #[test]
    fn infantry_in_contact_gets_into_a_transport_with_room_for_the_whole_unit() {
        let r = amc(&[]);
        let all = entries(&r);
        let (jeep, truck, apc) = (entry(&all, "Jeep"), entry(&all, "Jeep + Truck"), entry(&all, "Jeep + APC"));
        let (r5, r10) = (r.find("Riflemen (5)"), r.find("Riflemen (10)"));
        let mut m = face_off(&r, &all, &[jeep, r5, r10, r5, truck, apc, r10], &[r5], Tactic::Default);
        for (k, x) in [(0, 10.0), (1, 10.5), (2, 9.5), (3, 11.0), (4, 30.0), (5, 40.0), (6, 43.0)] {
            m.sides[0][k].pos = Pos::new(x, 10.0);
        }
        assert!(!m.embark(0, 2, 0), "10 models do not fit a Jeep");
        assert!(m.embark(0, 1, 0), "5 models in contact fit a Jeep");
        assert_eq!(m.load(0, 0), 5);
        assert!(!m.embark(0, 3, 0), "the Jeep is full");
        m.sides[0][2].pos = Pos::new(30.5, 10.0);
        assert!(m.embark(0, 2, 4), "10 models fit a Truck");
        assert!(!m.embark(0, 6, 5), "3\" from the APC is not contact");
        m.sides[0][6].pos = Pos::new(40.9, 10.0);
        assert!(m.embark(0, 6, 5), "10 models fit an APC");
        assert_eq!((m.sides[0][1].aboard, m.sides[0][2].aboard, m.sides[0][6].aboard), (Some(0), Some(4), Some(5)));
    }

    /// AMC 2.0, "Vehicle Units": carried models move with the vehicle and cannot be shot.
    /// Riflemen (5) ride in a Jeep that rushes 24": they end where it ends. Enemy Gunners (1)
    /// 10" from the Jeep choose the Jeep as their target and the passengers are nobody's
    /// nearest enemy; before transport the Riflemen, 1" from the Jeep, were the target.
    #[test]
    fn passengers_move_with_the_vehicle_and_cannot_be_targeted() {
        let r = amc(&[]);
        let all = entries(&r);
        let (jeep, r5, g) = (r.find("Jeep"), r.find("Riflemen (5)"), r.find("Gunners (1)"));
        let mut m = face_off(&r, &all, &[jeep, r5], &[g], Tactic::Default);
        m.sides[0][0].pos = Pos::new(24.0, 5.0);
        m.sides[0][1].pos = Pos::new(24.0, 4.0);
        assert!(m.embark(0, 1, 0));
        m.move_to(0, 0, Pos::new(24.0, 40.0), 24.0, 0.0);
        assert_eq!(m.sides[0][1].pos, Pos::new(24.0, 29.0));
        m.sides[1][0].pos = Pos::new(24.0, 39.0);
        assert_eq!(m.choose(1, 0).map(|c| c.0), Some(0), "the Gunners target the Jeep");
        assert_eq!(m.nearest_enemy(1, 0).map(|n| n.0), Some(0));
        assert!(!m.sides[0][1].on_table());
    }

    /// Side A's Jeep at (24, 20) carrying Riflemen (5); side B's `enemy` at `at`.
    fn riding<'a>(r: &'a ArmyMenCombat, all: &'a [(UnitInfo, Profile)], enemy: &str, at: Pos) -> Mission<'a> {
        let (jeep, r5) = (r.find("Jeep"), r.find("Riflemen (5)"));
        let mut m = face_off(r, all, &[jeep, r5], &[r.find(enemy)], Tactic::Default);
        m.sides[0][0].pos = Pos::new(24.0, 20.0);
        m.sides[0][1].pos = Pos::new(24.0, 19.0);
        assert!(m.embark(0, 1, 0));
        m.sides[1][0].pos = at;
        m
    }

    /// AMC 2.0, "Vehicle Units": a carried unit "may use Advance to get out". Riflemen (5)
    /// in a Jeep at (24, 20), enemy Riflemen (10) at (24, 46), 26" away: within the Rifles'
    /// 24" plus the 6" Advance. Activated, the passengers are placed in contact with the Jeep
    /// toward the enemy (y = 21), advance 6" (y = 27) and shoot at 19": 6, 6, 1, 1, 1 → 2 hits;
    /// blocks 1, 1 → 2 casualties.
    #[test]
    fn a_passenger_gets_out_with_an_advance_and_shoots() {
        let r = amc(&[]);
        let all = entries(&r);
        let mut m = riding(&r, &all, "Riflemen (10)", Pos::new(24.0, 46.0));
        let mut dice = ScriptedDice::new(&[6, 6, 1, 1, 1, 1, 1]);
        m.activate(0, 1, &mut dice);
        assert!(dice.exhausted());
        let u = m.sides[0][1];
        assert_eq!(u.aboard, None);
        assert!(u.pos.dist(Pos::new(24.0, 27.0)) < 1e-3, "{:?}", u.pos);
        assert_eq!(m.sides[1][0].st.models, 8);
    }

    /// AMC 2.0, "Vehicle Units": "If a unit is inside when destroyed all models are placed
    /// within 3" and the unit takes D6 hits". Gunners (1) shoot a Jeep carrying Riflemen (5):
    /// 6, 6, 6 → 3 hits, halved → 1; blocks 1 + 1 (armor): 1, 1; frontal damage 6, 6:
    /// destroyed. The Riflemen are placed within 3" of the wreck and take D6 = 4 hits: block
    /// tests 6, 1, 1, 1 → 3 casualties, 2 left; no morale test (the hits are not shooting).
    #[test]
    fn a_destroyed_transports_passengers_are_placed_within_3_inches_and_take_d6_hits() {
        let r = amc(&[]);
        let all = entries(&r);
        let mut m = riding(&r, &all, "Gunners (1)", Pos::new(24.0, 40.0));
        let mut dice = ScriptedDice::new(&[6, 6, 6, 1, 1, 6, 6, 4, 6, 1, 1, 1]);
        m.shoot(1, 0, 0, false, &mut dice);
        assert!(dice.exhausted());
        assert!(!m.sides[0][0].st.alive());
        let u = m.sides[0][1];
        assert_eq!((u.aboard, u.st.models, u.st.pinned), (None, 2, false));
        assert!(u.pos.dist(m.sides[0][0].pos) <= 3.0, "{:?}", u.pos);
        assert!(u.on_table());
    }

    /// Infantry on the table activate first, then transports, then passengers (each in army
    /// order), so a unit can board before its transport moves and get out after it moved.
    #[test]
    fn transports_activate_after_infantry_and_passengers_last() {
        let r = amc(&[]);
        let all = entries(&r);
        let (jeep, r5, r10) = (r.find("Jeep"), r.find("Riflemen (5)"), r.find("Riflemen (10)"));
        let mut m = face_off(&r, &all, &[r5, jeep, r5, r10], &[r10], Tactic::Default);
        m.sides[0][0].pos = m.sides[0][1].pos;
        assert!(m.embark(0, 0, 1));
        let mut order = Vec::new();
        while let Some(i) = m.next_unit(0) {
            order.push(i);
            m.sides[0][i].st.activated = true;
        }
        assert_eq!(order, vec![2, 3, 1, 0]);
    }

    /// The mission tactic uses transports (issue 16). On a 72" deep table, Riflemen (5) 68"
    /// from the enemy with a Jeep 6" beside them. Round 1: the Riflemen (nothing in reach:
    /// their best option is a Rush) move into contact and get in, then the Jeep rushes them 24"
    /// forward (44" from the enemy; on foot they stood 56" away). Round 2: the Jeep rushes
    /// again and stops 30" from the enemy (the Rifles' 24" plus the 6" Advance); the Riflemen
    /// get out, advance and shoot from within 24" (on foot they stood 32" away, out of range).
    /// Hit rolls 1, 1, 1, 1, 1: no hits, no block tests.
    #[test]
    fn the_tactic_carries_far_infantry_forward_in_a_transport() {
        let r = amc(&["skirmish.table_depth=72"]);
        let all = entries(&r);
        let (jeep, r5, r10) = (r.find("Jeep"), r.find("Riflemen (5)"), r.find("Riflemen (10)"));
        for tactic in [Tactic::Default, Tactic::Cautious] {
            let mut m = face_off(&r, &all, &[r5, jeep], &[r10], tactic);
            m.sides[0][0].pos = Pos::new(20.0, 2.0);
            m.sides[0][1].pos = Pos::new(26.0, 2.0);
            m.sides[1][0].pos = Pos::new(24.0, 70.0);
            let e = m.sides[1][0].pos;
            let mut dice = ScriptedDice::new(&[1, 1, 1, 1, 1]);
            for round in 0..2 {
                for u in &mut m.sides[0] {
                    u.st.activated = false;
                }
                while let Some(i) = m.next_unit(0) {
                    m.activate(0, i, &mut dice);
                }
                let u = m.sides[0][0];
                if round == 0 {
                    assert_eq!(u.aboard, Some(1), "{tactic:?}");
                    assert!(u.pos.dist(e) < 45.0, "{tactic:?}: {:?} is {}\" away", u.pos, u.pos.dist(e));
                }
            }
            assert!(dice.exhausted(), "{tactic:?}");
            let u = m.sides[0][0];
            assert_eq!(u.aboard, None, "{tactic:?}");
            assert!(u.pos.dist(e) <= 24.0, "{tactic:?}: {:?} is {}\" away", u.pos, u.pos.dist(e));
        }
    }

    /// The shipped army file with upgrades bought together (issue 16 item 2) is legal and
    /// fields a Truck with an MG and Riflemen with Bayonets, a Grenadier and a Specialist.
    #[test]
    fn the_mechanised_army_file_combines_upgrades() {
        let r = amc(&[]);
        let all = entries(&r);
        let a = read_army(&r, Path::new("configs/armies/amc-mechanised.toml")).unwrap();
        assert_eq!(check_army(&r, &all, &a), Ok(295.0));
        for n in ["Jeep + Truck + Jeep MG", "Riflemen (10) + Bayonets + Grenades + Bazooka"] {
            assert!(a.contains(&entry(&all, n)), "{n}");
        }
    }

    #[test]
    fn army_files_are_checked() {
        let r = amc(&[]);
        let dir = std::env::temp_dir().join(format!("pw-amc-army-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let ok = dir.join("ok.toml");
        std::fs::write(&ok, "[units]\n\"Riflemen (10)\" = 3\nTank = 1\n").unwrap();
        let a = read_army(&r, &ok).unwrap();
        assert_eq!(a.len(), 4);
        let bad = dir.join("bad.toml");
        std::fs::write(&bad, "[units]\nTank = 1\nJeep = 1\n").unwrap();
        let e = read_army(&r, &bad).unwrap_err().to_string();
        assert!(e.contains("vehicles cost 190"), "{e}");
        let unknown = dir.join("unknown.toml");
        std::fs::write(&unknown, "[units]\nMarines = 1\n").unwrap();
        let e = read_army(&r, &unknown).unwrap_err().to_string();
        assert!(e.contains("unknown unit \"Marines\"") && e.contains(":2:"), "{e}");
    }
}
