//! The VSGMR Skirmish (issue 6 item 6; section II, "Victory"): a 72" × 48" table with a few
//! cover pieces, the two sides deployed 2 Move Units apart, 5 rounds, and victory to the side
//! that destroyed more enemy points (equal: a draw).
//!
//! Why a separate module from [`super::rules`]: duels are fought in the open between lines of
//! one template; here whole armies of mixed figures meet on a table with terrain. Every rule
//! step is the duel's — [`rules::initiative`], [`rules::play_round`] (phased: all movement,
//! then all distance attacks, then all hand-to-hand attacks; casualties immediate) — and this
//! module adds only the table, the terrain, deployment, the 5-round end and the victory check.
//!
//! Readings and simplifications (also in the coverage table):
//! - **Cover.** Cover pieces are low walls (`cover_length`, 6") placed at random from the seed
//!   ([`Table::place_terrain`]). A target is at least half covered when the line of fire
//!   crosses a wall within `cover_reach` (1") of it: distance attacks then need 6 (section
//!   II.3 "Cover"; [`Battle::in_cover`]). Walls block movement (section II.2: a figure cannot
//!   move through a wall or fence; it goes round the wall's end, Flight passes over) but not
//!   sight, and the default tactic does not seek cover.
//! - **Deployment.** Each side in a line across the table (2" apart, in more ranks 2" behind
//!   if a line does not fit), the lines `gap` (2 Move Units of guys: 12") apart, centred.
//! - **Points destroyed.** A figure counts as destroyed for the other side when it is defeated
//!   or recruited away (section V "Recruit"); its formula price is counted.
//! - Figures knocked or frightened off the table are out of the game (section II.2: "Anything
//!   that moves off the playing surface cannot return") and count as destroyed for the victory.
//! - No figure ends a move in the same space as another (section X; `Battle::end_of_move`).
//! - **Scenarios.** The other games of section VIII (`--mission escape`, `transport`,
//!   `spawning`, `ambush`, `fortress-assault`) are this game with a scenario's set-up, goals
//!   and victory ([`mission`]); the Basic Game draws the same dice as before they existed.
//! - **Riders.** The sample armies' riders and drivers (config `rides`) start mounted on their
//!   cavalry or vehicle (RULINGS.md "VSGMR riders"), deployed before their mounts so each
//!   rider decides at its pair's movement step whether to step off ([`rules::dismounts`]).

pub mod mission;

use serde::{Deserialize, Serialize};

use self::mission::{Goal, MISSIONS, Mission};
use crate::battle::replay::{Replay, ReplayUnit};
use crate::battle::{Pos, Table, TerrainPlan};
use crate::config::{Invalid, in_range};
use crate::dice::{Dice, FastDice};
use crate::rulesets::engine::{Engine, FixedRun, Tally};
use crate::rulesets::rollout::{RolloutGain, RolloutRun};
use crate::rulesets::skirmish::{
    Armies, ArmyError, ArmySource, GameRecord, SkirmishSettings, SkirmishText, TacticInfo,
};
use crate::rulesets::skirmish::{check_max, check_rollout, check_runs, check_table};
use crate::rulesets::vsgmr::rules::{self, Battle, Fig};
use crate::rulesets::vsgmr::{Figure, Kind, Trait, Vsgmr};
use crate::rulesets::{Side, UnitInfo};

mod replay;
mod tally;

pub use replay::*;
pub use tally::*;

/// The `[skirmish]` table of the config. Every key has a default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SkirmishConfig {
    /// Table size, inches (72" × 48").
    pub table_width: f32,
    pub table_depth: f32,
    /// Cover pieces (low walls) placed at random, their length, and how near the target a
    /// crossed piece must be to cover it at least half (inches).
    pub cover_pieces: u32,
    pub cover_length: f32,
    pub cover_reach: f32,
    /// Distance between the two deployment lines: 2 Move Units (12" for guys).
    pub gap: f32,
    /// Distance between neighbours in a deployment line, inches.
    pub spacing: f32,
    /// Rounds of a game (5).
    pub rounds: u32,
    /// Games per `pointsworth skirmish vsgmr` run (`--trials`).
    pub trials: u64,
    /// Report: games per ordered pair of sample armies (0 leaves the round robin out), and
    /// random-army games (0 leaves them out).
    pub round_robin_trials: u64,
    pub random_trials: u64,
    /// Report: random-army games of the generic skirmish section (value in army by figure
    /// template) and of each scenario of section VIII (value per mission, the scenarios' win
    /// rates and the asymmetric scenarios' fair points); 0 leaves them out.
    pub report_trials: u64,
    /// Report: games of the rollout best response against the played tactic (each played three
    /// times; 0 leaves it out) and playouts per tactic at each of its decisions
    /// ([`crate::rulesets::rollout`]).
    pub rollout_games: u64,
    pub rollout_playouts: u32,
    /// Section VIII's points of the asymmetric scenarios, side A (the smaller) then side B:
    /// Ambush 25 v 40, Fortress Assault 20 v 40 (the book's suggestions; the report's fair
    /// points vary side A's).
    pub ambush_points: [u32; 2],
    pub fortress_points: [u32; 2],
    /// Random armies: points drawn uniformly from `random_min..=random_max`, filled with
    /// figure templates of the cost list drawn uniformly among those that still fit.
    pub random_min: u32,
    pub random_max: u32,
    /// Games per batch of the deterministic engine.
    pub batch_size: u32,
    /// Not a config key: a study's override of one side's points in every scenario (side, whole
    /// points; that side's random army is built to exactly these points). The report's fair
    /// points of a scenario ([`crate::rulesets::vsgmr::study::round_robin::scenarios`]) set it; `None` plays the book's
    /// points ([`Mission::budgets`]).
    #[serde(skip)]
    pub points_override: Option<(Side, u32)>,
}

impl Default for SkirmishConfig {
    fn default() -> Self {
        SkirmishConfig {
            table_width: 72.0,
            table_depth: 48.0,
            cover_pieces: 6,
            cover_length: 6.0,
            cover_reach: 1.0,
            gap: 12.0,
            spacing: 2.0,
            rounds: 5,
            trials: 2000,
            round_robin_trials: 200,
            random_trials: 4000,
            report_trials: 0,
            rollout_games: 0,
            rollout_playouts: 16,
            ambush_points: [mission::AMBUSHERS, mission::TARGETS],
            fortress_points: [mission::FORT_ASSAULTERS, mission::FORT_DEFENDERS],
            random_min: 25,
            random_max: 40,
            batch_size: 25,
            points_override: None,
        }
    }
}

impl SkirmishConfig {
    /// Checks ranges; the message names the key, the error carries it for its place.
    pub fn validate(&self) -> Result<(), Invalid> {
        use crate::config::Ends::{Both, Top};
        let c = self;
        let (width, depth) = (f64::from(c.table_width), f64::from(c.table_depth));
        check_table(width, depth, None, (24.0, 400.0), " in")?;
        in_range("skirmish.cover_pieces", c.cover_pieces, 0, 50, Both, "")?;
        in_range("skirmish.cover_length", c.cover_length, 0.0, 40.0, Top, " in")?;
        in_range("skirmish.cover_reach", c.cover_reach, 0.0, 10.0, Both, " in")?;
        if !(c.gap > 0.0 && c.gap < c.table_depth - 4.0) {
            return Err(Invalid::new(
                "skirmish.gap",
                format!("[skirmish] gap must be more than 0 and less than table_depth - 4 in, got {}", c.gap),
            ));
        }
        in_range("skirmish.spacing", c.spacing, 1.0, 12.0, Both, " in")?;
        in_range("skirmish.rounds", c.rounds, 1, 100, Both, "")?;
        check_runs(c.trials, c.report_trials, c.batch_size)?;
        check_rollout(c.rollout_games, c.rollout_playouts)?;
        in_range("skirmish.round_robin_trials", c.round_robin_trials, 0, 1_000_000, Both, "")?;
        in_range("skirmish.random_trials", c.random_trials, 0, 10_000_000, Both, "")?;
        in_range("skirmish.random_min", c.random_min, 1, 500, Both, " points")?;
        check_max("skirmish.random_max", c.random_max, "random_min", c.random_min, 500)?;
        for (key, pair) in
            [("skirmish.ambush_points", c.ambush_points), ("skirmish.fortress_points", c.fortress_points)]
        {
            if !pair.iter().all(|p| (1..=500).contains(p)) {
                return Err(Invalid::new(
                    key,
                    format!("{} must be two points 1 to 500 each, got {pair:?}", crate::config::label(key)),
                ));
            }
        }
        Ok(())
    }
}

/// An army as the Skirmish fields it: figure templates of a [`Field`] and counts.
#[derive(Debug, Clone, PartialEq)]
pub struct Roster {
    pub name: String,
    /// (template index in [`Field::r`], count).
    pub units: Vec<(usize, u32)>,
    /// Per entry of `units` (missing entries: `None`): the entry whose cavalry or vehicle
    /// figures its guys ride or drive, one each, deployed mounted (the sample armies' `rides`;
    /// section II.2, RULINGS.md "VSGMR riders").
    pub rides: Vec<Option<usize>>,
}

impl Roster {
    /// Formula points of the army.
    pub fn points(&self, r: &Vsgmr) -> f64 {
        self.units.iter().map(|&(u, n)| r.profile(u).cost * n as f64).sum()
    }

    pub fn figures(&self) -> u32 {
        self.units.iter().map(|u| u.1).sum()
    }
}

/// The ruleset over every figure the Skirmish can field: the cost list's templates first
/// (indices `0..templates`, what random armies are built from), then every sample army's
/// figures, then the Commander version of every hero template (random armies name one); and
/// the sample armies as rosters.
#[derive(Debug, Clone)]
pub struct Field {
    pub r: Vsgmr,
    pub templates: usize,
    pub samples: Vec<Roster>,
    /// Indices of the Commander versions of the hero templates (troop templates if the cost
    /// list has no hero): section IV "Commander", a hero Commander has heavy armor free.
    pub commanders: Vec<usize>,
}

impl Field {
    pub fn new(base: &Vsgmr) -> Field {
        let mut list: Vec<(String, Figure)> =
            base.book.units.iter().zip(&base.figures).map(|(u, f)| (u.name.clone(), f.clone())).collect();
        let templates = list.len();
        let mut samples = Vec::new();
        for (k, a) in base.armies.iter().enumerate() {
            let mut units = Vec::new();
            for (j, f) in a.figures.iter().enumerate() {
                units.push((list.len(), f.count));
                list.push((format!("army {k} figure {j}: {}", f.name), f.figure.clone()));
            }
            let rides = a.figures.iter().map(|f| f.rides).collect();
            samples.push(Roster { name: a.name.clone(), units, rides });
        }
        let kind = |k: Kind| (0..templates).filter(move |&u| base.figures[u].kind == k).collect::<Vec<_>>();
        let heroes = kind(Kind::Hero);
        let mut commanders = Vec::new();
        for u in if heroes.is_empty() { kind(Kind::Troop) } else { heroes } {
            let mut f = base.figures[u].clone();
            f.commander = true;
            commanders.push(list.len());
            list.push((format!("Commander: {}", base.book.units[u].name), f));
        }
        Field { r: base.with_templates(&list), templates, samples, commanders }
    }

    /// A random formula-priced army: points uniform in `random_min..=random_max`; first its
    /// Commander (section IV: "name one of your heroes as your Commander"), drawn uniformly among
    /// the [`Field::commanders`] that fit, then templates drawn uniformly among those that still
    /// fit until none does. The Commander is the roster's last entry.
    pub fn random_roster<D: Dice>(&self, cfg: &SkirmishConfig, dice: &mut D) -> Roster {
        self.random_roster_in((cfg.random_min, cfg.random_max), dice)
    }

    /// [`Field::random_roster`] with points uniform in `min..=max` (a scenario's points for
    /// one side, section VIII).
    pub fn random_roster_in<D: Dice>(&self, (min, max): (u32, u32), dice: &mut D) -> Roster {
        let span = (max - min + 1) as usize;
        let budget = min as f64 + dice.below(span) as f64;
        let mut left = budget;
        let fit: Vec<usize> =
            self.commanders.iter().copied().filter(|&u| self.r.profile(u).cost <= left + 1e-9).collect();
        let commander = (!fit.is_empty()).then(|| fit[dice.below(fit.len())]);
        if let Some(c) = commander {
            left -= self.r.profile(c).cost;
        }
        let mut counts = vec![0u32; self.templates];
        let mut fit = Vec::with_capacity(self.templates);
        loop {
            fit.clear();
            fit.extend((0..self.templates).filter(|&u| self.r.profile(u).cost <= left + 1e-9));
            if fit.is_empty() {
                break;
            }
            let k = dice.below(fit.len());
            counts[fit[k]] += 1;
            left -= self.r.profile(fit[k]).cost;
        }
        let mut units: Vec<(usize, u32)> =
            counts.iter().enumerate().filter(|c| *c.1 > 0).map(|(u, &n)| (u, n)).collect();
        units.extend(commander.map(|c| (c, 1)));
        Roster { name: format!("random {budget} points"), units, rides: Vec::new() }
    }
}

/// The result of one game.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GameOutcome {
    /// Side with more enemy points destroyed; `None` for a draw.
    pub winner: Option<Side>,
    /// Enemy points each side destroyed.
    pub destroyed: [f64; 2],
    /// Rounds played (fewer than `rounds` when a side was wiped out).
    pub rounds: u32,
}

/// One Skirmish: table, battle state, each figure's original side, and an optional trace.
#[derive(Clone)]
pub struct Game<'a> {
    pub r: &'a Vsgmr,
    pub cfg: &'a SkirmishConfig,
    pub table: Table,
    pub b: Battle,
    pub origin: Vec<Side>,
    /// Per figure: positions at deployment and after every round, and the round it fell.
    pub trace: Option<Vec<(Vec<Pos>, Option<u32>)>>,
    /// The scenario played (section VIII; the Basic Game unless set).
    pub mission: Mission,
    /// Figures each side fielded at the start (section VIII "Escape" counts figures).
    pub original: [usize; 2],
    /// Section VIII "Spawning": the Spawners' figures not yet in the game, the next first (a
    /// mount's rider comes with it), and per figure whether it is still waiting.
    pub reserve: Vec<usize>,
    pub waiting: Vec<bool>,
    scratch: Vec<usize>,
}

impl<'a> Game<'a> {
    pub fn new(r: &'a Vsgmr, cfg: &'a SkirmishConfig) -> Self {
        Game {
            r,
            cfg,
            table: Table::new(cfg.table_width, cfg.table_depth),
            b: Battle::default(),
            origin: Vec::new(),
            trace: None,
            mission: Mission::Basic,
            original: [0, 0],
            reserve: Vec::new(),
            waiting: Vec::new(),
            scratch: Vec::new(),
        }
    }

    /// Places the terrain from `dice` and deploys both rosters (side A nearer y = 0).
    pub fn set_up<D: Dice>(&mut self, rosters: [&Roster; 2], dice: &mut D) {
        let c = self.cfg;
        if self.mission == Mission::FortressAssault {
            // Section VIII "Fortress Assault": the building is the table's only terrain.
            let fort = mission::Fort::standard(c.table_width, c.table_depth);
            self.table.walls.clear();
            self.deploy(rosters, fort.walls());
            return self.place_fortress(fort);
        }
        if self.mission == Mission::Ambush {
            // Section VIII "Ambush": the cover pieces round the Targets' open ground.
            let centre = Pos::new(c.table_width / 2.0, c.table_depth / 2.0);
            let turn = dice.unit_f64() as f32 * std::f32::consts::TAU;
            let walls = mission::ambush_walls(centre, c.gap, c.cover_pieces, c.cover_length, turn);
            self.deploy(rosters, walls.clone());
            return self.place_ambush(centre);
        }
        let plan = TerrainPlan {
            cover_pieces: c.cover_pieces,
            cover_length: c.cover_length,
            rough_areas: 0,
            dangerous_areas: 0,
            area_radius: 0.0,
            keep_out: ((c.table_depth - c.gap) / 2.0 - 8.0).max(0.0),
        };
        self.table.place_terrain(&plan, dice);
        let walls = self.table.walls.clone();
        self.deploy(rosters, walls);
        if self.mission == Mission::Spawning {
            self.hold_back_spawners();
        }
        if self.mission == Mission::Transport {
            // Section VIII "Transport" (RULINGS.md): the object starts at the table's centre.
            let at = Pos::new(c.table_width / 2.0, c.table_depth / 2.0);
            self.b.objective.cargo = Some(mission::Cargo { at, carrier: None });
        }
    }

    /// Deploys both rosters on an open table with the given cover pieces.
    pub fn deploy(&mut self, rosters: [&Roster; 2], walls: Vec<crate::battle::Wall>) {
        let c = self.cfg;
        self.table.walls = walls.clone();
        let b = &mut self.b;
        b.figs.clear();
        b.round = 0;
        b.kills = [0, 0];
        b.in_revenge = false;
        b.kill_log.get_or_insert_with(Vec::new).clear();
        b.cover = walls;
        b.cover_reach = c.cover_reach;
        b.table = Some(self.table.clone());
        b.edges = None;
        b.objective.clear();
        self.reserve.clear();
        self.waiting.clear();
        self.origin.clear();
        let per_rank = (((c.table_width - 2.0) / c.spacing) as u32 + 1).max(1);
        for (side, roster) in rosters.iter().enumerate() {
            // Riders take no place in the line: they are put on their mounts below.
            let rides = |e: usize| roster.rides.get(e).copied().flatten();
            let n: u32 = roster.units.iter().enumerate().filter(|(e, _)| rides(*e).is_none()).map(|(_, u)| u.1).sum();
            let front = c.table_depth / 2.0 + if side == 0 { -c.gap / 2.0 } else { c.gap / 2.0 };
            let back = if side == 0 { -c.spacing } else { c.spacing };
            let mut k = 0u32;
            // Per entry: the index of its first figure. Riders come first, so each takes its
            // pair's movement step before its mount ([`rules::move_figure`]).
            let mut first = vec![0; roster.units.len()];
            let entries = roster.units.iter().enumerate();
            for (e, &(unit, count)) in
                entries.clone().filter(|e| rides(e.0).is_some()).chain(entries.filter(|e| rides(e.0).is_none()))
            {
                let p = self.r.profile(unit);
                first[e] = b.figs.len();
                for _ in 0..count {
                    let (x, y) = if rides(e).is_some() {
                        (0.0, 0.0)
                    } else {
                        let (rank, file) = (k / per_rank, k % per_rank);
                        let in_rank = (n - rank * per_rank).min(per_rank);
                        k += 1;
                        let x = c.table_width / 2.0 + (file as f32 - (in_rank as f32 - 1.0) / 2.0) * c.spacing;
                        (x, (front + rank as f32 * back).clamp(0.5, c.table_depth - 0.5))
                    };
                    b.figs.push(Fig {
                        unit,
                        side,
                        x,
                        y,
                        alive: true,
                        acted: false,
                        disabled_round: 0,
                        ready_round: 0,
                        flying: p.has(Trait::Flight) && p.distance_attack,
                        moved: false,
                        riding: None,
                    });
                    self.origin.push(side);
                }
            }
            // Section II.2: the sample armies field their riders and drivers mounted, one on
            // each cavalry or vehicle figure of the entry they ride, in order.
            let mut used = vec![0u32; roster.units.len()];
            for (e, &(_, count)) in roster.units.iter().enumerate() {
                let Some(m) = rides(e) else { continue };
                for j in 0..count as usize {
                    let mount = first[m] + used[m] as usize;
                    assert!(used[m] < roster.units[m].1, "more riders than mounts in {}", roster.name);
                    used[m] += 1;
                    b.figs[first[e] + j].riding = Some(mount);
                    b.carry(mount);
                }
            }
        }
        self.original = [0, 1].map(|s| self.origin.iter().filter(|&&o| o == s).count());
        if let Some(t) = &mut self.trace {
            *t = b.figs.iter().map(|f| (vec![Pos::new(f.x, f.y)], None)).collect();
        }
    }

    /// Section VIII "Fortress Assault": puts the building on the table, the Defenders (side B)
    /// round it ([`mission::Fort::defender_spots`]) and the Assaulters (side A) in a line 2
    /// Move Units (`gap`) in front of it, `spacing` apart (ranks behind if a line does not
    /// fit); riders stay on their mounts.
    pub fn place_fortress(&mut self, fort: mission::Fort) {
        let c = self.cfg;
        let feet = |b: &Battle, s: Side| -> Vec<usize> {
            (0..b.figs.len()).filter(|&k| b.figs[k].side == s && b.figs[k].riding.is_none()).collect()
        };
        let defenders = feet(&self.b, 1 - fort.assaulter);
        let spots = fort.defender_spots(defenders.len(), c.spacing);
        for (&k, p) in defenders.iter().zip(spots) {
            (self.b.figs[k].x, self.b.figs[k].y) = (p.x, p.y);
        }
        let assaulters = feet(&self.b, fort.assaulter);
        let per_rank = (((c.table_width - 2.0) / c.spacing) as usize + 1).max(1);
        let cx = (fort.min.x + fort.max.x) / 2.0;
        for (n, &k) in assaulters.iter().enumerate() {
            let (rank, file) = (n / per_rank, n % per_rank);
            let in_rank = (assaulters.len() - rank * per_rank).min(per_rank);
            let x = cx + (file as f32 - (in_rank as f32 - 1.0) / 2.0) * c.spacing;
            let y = (fort.min.y - c.gap - rank as f32 * c.spacing).max(0.5);
            (self.b.figs[k].x, self.b.figs[k].y) = (x, y);
        }
        for k in 0..self.b.figs.len() {
            if self.b.figs[k].riding.is_none() {
                self.b.carry(k);
            }
        }
        self.b.objective.fort = Some(fort);
        if let Some(t) = &mut self.trace {
            *t = self.b.figs.iter().map(|f| (vec![Pos::new(f.x, f.y)], None)).collect();
        }
    }

    /// Section VIII "Ambush": the Ambushers (side A) behind the cover pieces
    /// ([`mission::ambush_spots`]), the Targets (side B) in a grid at `centre`
    /// ([`mission::target_spots`]); riders stay on their mounts; Ambushers +1 initiative.
    pub fn place_ambush(&mut self, centre: Pos) {
        let c = self.cfg;
        for s in 0..2 {
            let feet: Vec<usize> = (0..self.b.figs.len())
                .filter(|&k| self.b.figs[k].side == s && self.b.figs[k].riding.is_none())
                .collect();
            let spots = if s == 0 {
                mission::ambush_spots(&self.table.walls, centre, feet.len())
            } else {
                mission::target_spots(centre, feet.len(), c.spacing)
            };
            for (&k, p) in feet.iter().zip(spots) {
                let p = self.table.clamp(p);
                (self.b.figs[k].x, self.b.figs[k].y) = (p.x, p.y);
            }
        }
        for k in 0..self.b.figs.len() {
            if self.b.figs[k].riding.is_none() {
                self.b.carry(k);
            }
        }
        self.b.objective.initiative = [1, 0];
        if let Some(t) = &mut self.trace {
            *t = self.b.figs.iter().map(|f| (vec![Pos::new(f.x, f.y)], None)).collect();
        }
    }

    /// Section VIII "Spawning": side B keeps only its costliest figure (ties: the first; not a
    /// rider) on the table, at the centre of its line; the others wait off the table,
    /// costliest first ([`Game::reserve`]).
    pub fn hold_back_spawners(&mut self) {
        let b = &mut self.b;
        let cost = |k: usize| self.r.profile(b.figs[k].unit).cost;
        let mut feet: Vec<usize> =
            (0..b.figs.len()).filter(|&k| b.figs[k].side == 1 && b.figs[k].riding.is_none()).collect();
        feet.sort_by(|&x, &y| cost(y).total_cmp(&cost(x)).then(x.cmp(&y)));
        self.waiting = vec![false; b.figs.len()];
        let Some((&first, rest)) = feet.split_first() else { return };
        let y = (self.cfg.table_depth + self.cfg.gap) / 2.0;
        (b.figs[first].x, b.figs[first].y) = (self.cfg.table_width / 2.0, y);
        b.carry(first);
        for k in 0..b.figs.len() {
            let mount = b.figs[k].riding.unwrap_or(k);
            if b.figs[k].side == 1 && rest.contains(&mount) {
                b.figs[k].alive = false;
                self.waiting[k] = true;
            }
        }
        self.reserve = rest.to_vec();
    }

    /// Section VIII "Spawning": the Spawners' d6 `roll` this round ([`mission::spawn_edge`]):
    /// the next waiting figure (and its rider) enters at [`mission::spawn_spot`], or none on a
    /// 6. Returns the figure placed.
    pub fn spawn(&mut self, roll: u8) -> Option<usize> {
        let edge = mission::spawn_edge(roll)?;
        let k = *self.reserve.first()?;
        self.reserve.remove(0);
        let b = &mut self.b;
        let enemies: Vec<Pos> = b.figs.iter().filter(|f| f.alive && f.side != 1).map(|f| Pos::new(f.x, f.y)).collect();
        let mu = self.r.profile(b.figs[k].unit).kind.move_unit();
        let mut at = mission::spawn_spot(edge, &enemies, mu, self.table.width, self.table.depth);
        // Section X: not in another figure's space; step along the band until free.
        for step in 0..40 {
            let free = b.figs.iter().all(|f| !f.alive || f.riding.is_some() || Pos::new(f.x, f.y).apart(at, 1.0));
            if free {
                break;
            }
            let d = 1.5 * (step / 2 + 1) as f32 * if step % 2 == 0 { 1.0 } else { -1.0 };
            let horizontal = at.y <= mu || at.y >= self.table.depth - mu;
            at = self.table.clamp(if horizontal { Pos::new(at.x + d, at.y) } else { Pos::new(at.x, at.y + d) });
        }
        for j in 0..b.figs.len() {
            if j == k || b.figs[j].riding == Some(k) {
                b.figs[j].alive = true;
                self.waiting[j] = false;
            }
        }
        (b.figs[k].x, b.figs[k].y) = (at.x, at.y);
        b.carry(k);
        if let Some(t) = &mut self.trace {
            for j in 0..b.figs.len() {
                if j == k || b.figs[j].riding == Some(k) {
                    t[j].0 = vec![at];
                }
            }
        }
        Some(k)
    }

    /// Enemy points each side has destroyed so far: figures of the other side's army that
    /// were defeated or recruited away, at their formula price.
    pub fn destroyed(&self) -> [f64; 2] {
        let mut d = [0.0; 2];
        for (k, (f, &o)) in self.b.figs.iter().zip(&self.origin).enumerate() {
            let gone =
                !f.alive && !self.b.objective.escaped.contains(&k) && !self.waiting.get(k).copied().unwrap_or(false);
            if gone || f.side != o {
                d[1 - o] += self.r.profile(f.unit).cost;
            }
        }
        d
    }

    /// Plays one round: initiative, then [`rules::play_round`] (figures knocked or frightened
    /// off the table are out of the game there); a figure summoned past an edge is put back.
    pub fn play_round<D: Dice>(&mut self, dice: &mut D) {
        let lead = rules::initiative(self.r, &self.b, dice);
        if !self.reserve.is_empty() {
            // Section VIII "Spawning": "when a Spawner player's turn begins, roll the die".
            self.spawn(dice.d6());
        }
        rules::play_round(self.r, &mut self.b, dice, lead, &mut self.scratch);
        for f in self.b.figs.iter_mut() {
            let p = self.table.clamp(Pos::new(f.x, f.y));
            (f.x, f.y) = (p.x, p.y);
        }
    }

    /// Plays `rounds` rounds (section II "Victory": 5), or until the scenario is decided (the
    /// Basic Game: a side has no figure left), and scores its victory ([`Game::decided`]).
    pub fn play<D: Dice>(&mut self, dice: &mut D) -> GameOutcome {
        loop {
            if let Some(out) = self.next_round(dice) {
                return out;
            }
        }
    }

    /// Plays the next round of [`Game::play`] (the first after [`Game::deploy`]); once the game
    /// is over after it (the last round, or the scenario decided), its outcome, else `None`.
    pub fn next_round<D: Dice>(&mut self, dice: &mut D) -> Option<GameOutcome> {
        let last = if self.mission == Mission::Ambush { mission::AMBUSH_ROUNDS } else { self.cfg.rounds };
        let round = self.b.round + 1;
        self.b.round = round;
        self.set_goals();
        self.play_round(dice);
        if let Some(t) = &mut self.trace {
            for (k, f) in self.b.figs.iter().enumerate() {
                if f.alive {
                    t[k].0.push(Pos::new(f.x, f.y));
                } else if t[k].1.is_none()
                    && !self.b.objective.escaped.contains(&k)
                    && !self.waiting.get(k).copied().unwrap_or(false)
                {
                    t[k].1 = Some(round);
                }
            }
        }
        let decided = self.decided();
        if decided.is_none() && round < last {
            return None;
        }
        let mut winner = decided.flatten();
        let destroyed = self.destroyed();
        if matches!(self.mission, Mission::Basic | Mission::Spawning) {
            winner = victor(destroyed);
        }
        Some(GameOutcome { winner, destroyed, rounds: round })
    }

    /// Side `s`'s figures that left the table by an exit goal.
    pub fn escaped(&self, s: Side) -> usize {
        self.b.objective.escaped.iter().filter(|&&k| self.b.figs[k].side == s).count()
    }

    /// The scenario's goals for this round ([`mission`], module docs).
    pub fn set_goals(&mut self) {
        let b = &mut self.b;
        b.objective.goals.clear();
        if self.mission == Mission::Basic {
            return;
        }
        b.objective.goals.resize(b.figs.len(), Goal::Fight);
        if let Some(fort) = b.objective.fort.filter(|_| self.mission == Mission::FortressAssault) {
            // The Assaulters go for the nearest point of the building, to reach it with the
            // attack likelier to hit it (rules::fort_attack).
            for k in 0..b.figs.len() {
                let f = b.figs[k];
                if !f.alive || f.side != fort.assaulter {
                    continue;
                }
                let p = b.acting(self.r, k);
                let hand = !f.flying
                    && rules::p_hit_fort(&p, rules::AttackKind::HandToHand)
                        > rules::p_hit_fort(&p, rules::AttackKind::Distance);
                let stop = if hand || !p.distance_attack { self.r.book.rules.contact } else { p.range };
                let at = fort.nearest(Pos::new(f.x, f.y));
                b.objective.goals[k] = Goal::To { at, stop, exit: false };
            }
            // The Defenders screen the building: the Assaulter nearest it strikes it next, so
            // every Defender that moves goes for that one (to its approach stop, as it would
            // close on its nearest enemy) and shoots it first.
            let near = |k: usize| fort.dist(Pos::new(b.figs[k].x, b.figs[k].y));
            let threat = (0..b.figs.len())
                .filter(|&k| b.figs[k].alive && b.figs[k].side == fort.assaulter)
                .min_by(|&x, &y| near(x).total_cmp(&near(y)));
            b.objective.quarry = threat;
            if let Some(t) = threat {
                let tp = b.acting(self.r, t);
                for k in 0..b.figs.len() {
                    let f = b.figs[k];
                    if !f.alive || f.side == fort.assaulter || f.riding.is_some() {
                        continue;
                    }
                    let p = b.acting(self.r, k);
                    if !p.self_moving() {
                        continue;
                    }
                    let stop = rules::approach_stop(self.r, &p, &tp, f.flying || b.figs[t].flying);
                    b.objective.goals[k] = Goal::Chase { target: t, stop };
                }
            }
        }
        if self.mission == Mission::Transport {
            return self.transport_goals();
        }
        if self.mission == Mission::Ambush {
            // An Ambusher shooter covered from its nearest enemy in range holds and shoots.
            for k in 0..b.figs.len() {
                let f = b.figs[k];
                if !f.alive || f.side != 0 || f.riding.is_some() {
                    continue;
                }
                let p = b.acting(self.r, k);
                if !p.distance_attack || !p.self_moving() {
                    continue;
                }
                let Some(t) = b.nearest_enemy(k, |_| true) else { continue };
                if b.dist(k, t) <= p.range + rules::EPS && b.in_cover(t, k) {
                    b.objective.goals[k] = Goal::Hold;
                }
            }
        }
        if self.mission == Mission::Escape {
            for s in 0..2 {
                let across = b.objective.escaped.iter().filter(|&&k| b.figs[k].side == s).count();
                if 2 * (across + b.alive_count(s)) <= self.original[s] {
                    continue; // it cannot win: it fights (section VIII "Escape")
                }
                for (k, f) in b.figs.iter().enumerate() {
                    if f.alive && f.side == s {
                        let at = mission::far_edge(s, Pos::new(f.x, f.y), self.table.depth);
                        b.objective.goals[k] = Goal::To { at, stop: 0.0, exit: true };
                    }
                }
            }
        }
    }

    /// Section VIII "Transport" ([`super::mission`], module docs): the object falls where a
    /// defeated carrier stood; then the goals — fetch a free object (each side's figure with
    /// the fewest Moves to it), carry it home, chase the carrier.
    fn transport_goals(&mut self) {
        let b = &mut self.b;
        let Some(mut cargo) = b.objective.cargo else { return };
        if let Some(c) = cargo.carrier {
            let at = Pos::new(b.figs[c].x, b.figs[c].y);
            cargo.at = self.table.clamp(at);
            if !b.figs[c].alive {
                cargo.carrier = None;
            }
        }
        b.objective.cargo = Some(cargo);
        b.objective.quarry = cargo.carrier;
        let movers = |b: &Battle, s: Side| -> Vec<usize> {
            (0..b.figs.len())
                .filter(|&k| {
                    let f = &b.figs[k];
                    f.alive && f.side == s && f.riding.is_none() && b.acting(self.r, k).self_moving()
                })
                .collect()
        };
        match cargo.carrier {
            Some(c) => {
                let s = b.figs[c].side;
                let home = mission::far_edge(1 - s, Pos::new(b.figs[c].x, b.figs[c].y), self.table.depth);
                b.objective.goals[c] = Goal::To { at: home, stop: 0.0, exit: true };
                let cp = b.acting(self.r, c);
                for k in movers(b, 1 - s) {
                    let air = b.figs[k].flying || b.figs[c].flying;
                    let stop = rules::approach_stop(self.r, &b.acting(self.r, k), &cp, air);
                    b.objective.goals[k] = Goal::Chase { target: c, stop };
                }
            }
            None => {
                for s in 0..2 {
                    let moves =
                        |k: usize| cargo.at.dist(Pos::new(b.figs[k].x, b.figs[k].y)) / b.acting(self.r, k).move_in;
                    let best = movers(b, s).into_iter().min_by(|&x, &y| moves(x).total_cmp(&moves(y)).then(x.cmp(&y)));
                    if let Some(k) = best {
                        b.objective.goals[k] = Goal::To { at: cargo.at, stop: 0.0, exit: false };
                    }
                }
            }
        }
    }

    /// Whether the game is over after a round, and who won (`Some(None)`: a draw; the
    /// points-destroyed victory of the Basic Game is scored at the end by [`Game::play`]).
    /// Basic Game: a side has no figure left. Escape: a side has more than half its original
    /// figures across ([`mission::escape_winner`]), or neither side can still get there (a
    /// draw).
    pub fn decided(&self) -> Option<Option<Side>> {
        let b = &self.b;
        match self.mission {
            Mission::Basic => (b.alive_count(0) == 0 || b.alive_count(1) == 0).then_some(None),
            Mission::Escape => {
                let esc = &b.objective.escaped;
                if let Some(s) = mission::escape_winner(esc, |k| b.figs[k].side, self.original) {
                    return Some(Some(s));
                }
                let hopeless = |s: Side| 2 * (self.escaped(s) + b.alive_count(s)) <= self.original[s];
                (hopeless(0) && hopeless(1)).then_some(None)
            }
            Mission::Spawning => {
                (b.alive_count(0) == 0 || (b.alive_count(1) == 0 && self.reserve.is_empty())).then_some(None)
            }
            Mission::Transport => {
                let carrier = b.objective.cargo.and_then(|c| c.carrier);
                if let Some(c) = carrier.filter(|c| b.objective.escaped.contains(c)) {
                    return Some(Some(b.figs[c].side));
                }
                (b.alive_count(0) == 0 && b.alive_count(1) == 0).then_some(None)
            }
            Mission::Ambush => match (b.alive_count(0) == 0, b.alive_count(1) == 0) {
                (false, false) => None,
                (true, true) => Some(None),
                (a_gone, _) => Some(Some(usize::from(a_gone))),
            },
            Mission::FortressAssault => {
                let fort = b.objective.fort?;
                if fort.hits_left == 0 {
                    Some(Some(fort.assaulter))
                } else {
                    (b.alive_count(fort.assaulter) == 0).then_some(Some(1 - fort.assaulter))
                }
            }
        }
    }
}

impl Vsgmr {
    /// Sets up one game of [`Skirmish::play`](crate::rulesets::skirmish::Skirmish::play):
    /// random rosters drawn from `dice` where `armies` says so, then terrain and deployment.
    fn set_up_game<D: Dice>(&self, g: &mut Game<'_>, armies: &Armies<Roster>, dice: &mut D) {
        let random;
        let rosters = match armies {
            Armies::Fixed(x) => [&x[0], &x[1]],
            Armies::Random => {
                random = [0, 1].map(|s| g.mission.random_roster(self.field(), &self.skirmish, s, dice));
                [&random[0], &random[1]]
            }
        };
        g.set_up(rosters, dice);
    }
}

/// The rollout's stages are rounds (section II); a side's tactic is read at every figure's move.
impl crate::rulesets::rollout::Staged for Game<'_> {
    fn stage(&mut self, dice: &mut FastDice) -> Option<Option<Side>> {
        self.next_round(dice).map(|out| out.winner)
    }

    fn set_tactic(&mut self, s: Side, t: usize) {
        self.b.tactic[s] = t;
    }
}

/// Section II, the Skirmish, as the generic skirmish plays it: random formula-priced armies
/// (the value-in-army regression counts the cost list's figure templates) or two sample
/// armies by name. The report plays its Skirmish as studies (round robin, random armies: see
/// [`super::study`]) and, with `[skirmish] report_trials` above 0, the generic section: value in
/// army by figure template, in the Basic Game and in each symmetric scenario.
impl crate::rulesets::skirmish::Skirmish for Vsgmr {
    type Army = Roster;
    type Game<'a> = Game<'a>;
    const TACTICS: &'static [TacticInfo] = &crate::rulesets::vsgmr::tactics::TACTICS;
    const ARMY_SOURCE: ArmySource =
        ArmySource { what: "sample-army names", how: "names of section VII's sample armies, e.g. \"Fantasy Humans\"" };
    const MISSIONS: &'static [crate::rulesets::skirmish::MissionInfo] = MISSIONS;

    fn skirmish_text(&self) -> SkirmishText {
        SkirmishText {
            game: "Skirmish".to_string(),
            games: "skirmishes".to_string(),
            army_size: format!("random armies of {}–{} points", self.skirmish.random_min, self.skirmish.random_max),
            item: "figure".to_string(),
            item_kind: false,
            turns: "rounds".to_string(),
            outcome: [
                "outcome (more enemy points destroyed wins)".to_string(),
                "side A wins".to_string(),
                "side B wins".to_string(),
                "draw (equal points destroyed)".to_string(),
            ],
            setup: super::study::table_text(self),
            replay_legend: "Each line is a figure's path; ✕ marks where a figure fell and in which round; bars \
                            are cover pieces."
                .to_string(),
        }
    }

    fn mission_text(&self, mission: usize) -> SkirmishText {
        let m = Mission::ALL[mission];
        let mut t = self.skirmish_text();
        if m == Mission::Basic {
            return t;
        }
        t.game = m.title().to_string();
        t.games = "games".to_string();
        let [a, b] = m.budgets(&self.skirmish);
        t.army_size = if a == b {
            format!("random armies of {}–{} points", a.0, a.1)
        } else {
            format!(
                "random armies of {} points (side A, {}) and {} points (side B, {})",
                a.1,
                m.sides()[0],
                b.1,
                m.sides()[1]
            )
        };
        t.outcome = m.outcome().map(str::to_string);
        t.setup = m.setup(self);
        t
    }

    fn mission_settings(&self, mission: usize) -> SkirmishSettings {
        let [a, b] = Mission::ALL[mission].budgets(&self.skirmish);
        SkirmishSettings { points: f64::from(a.0 + a.1 + b.0 + b.1) / 4.0, ..self.skirmish_settings() }
    }

    /// Ambush and Fortress Assault field fixed, unequal points (section VIII): their win rates
    /// and fair points are the scenario study's ([`super::study`]).
    fn mission_in_value_table(&self, mission: usize) -> bool {
        !Mission::ALL[mission].asymmetric()
    }

    fn skirmish_settings(&self) -> SkirmishSettings {
        let c = &self.skirmish;
        SkirmishSettings {
            rollout_games: c.rollout_games,
            rollout_playouts: c.rollout_playouts,
            ..SkirmishSettings::new(
                f64::from(c.random_min + c.random_max) / 2.0,
                c.trials,
                c.report_trials,
                c.batch_size,
            )
        }
    }

    fn read_armies(&self, specs: [&str; 2], _mission: usize) -> Result<[Roster; 2], ArmyError> {
        let field = self.field();
        let find = |name: &str| {
            field.samples.iter().find(|s| s.name.eq_ignore_ascii_case(name)).cloned().ok_or_else(|| {
                let known: Vec<String> = field.samples.iter().map(|s| format!("{:?}", s.name)).collect();
                ArmyError::Name(format!("unknown sample army {name:?}; known: {}", known.join(", ")))
            })
        };
        Ok([find(specs[0])?, find(specs[1])?])
    }

    fn random_army<D: Dice>(&self, dice: &mut D) -> Roster {
        self.field().random_roster(&self.skirmish, dice)
    }

    fn describe_army(&self, army: &Roster) -> String {
        format!("{} ({} pts)", army.name, army.points(&self.field().r))
    }

    fn skirmish_units(&self) -> Vec<UnitInfo> {
        self.book.units.clone()
    }

    fn stream_names(&self, _tactic: usize, armies: &Armies<Roster>) -> Vec<String> {
        match armies {
            Armies::Fixed(x) => vec!["vsgmr".into(), "skirmish".into(), x[0].name.clone(), x[1].name.clone()],
            Armies::Random => vec!["vsgmr".into(), "skirmish".into(), "random".into()],
        }
    }

    fn game(&self, tactics: [usize; 2], mission: usize) -> Game<'_> {
        let mut g = Game::new(&self.field().r, &self.skirmish);
        g.mission = Mission::ALL[mission];
        g.b.tactic = tactics;
        g
    }

    fn play<D: Dice>(&self, g: &mut Game<'_>, armies: &Armies<Roster>, dice: &mut D, rec: &mut GameRecord) {
        let field = self.field();
        self.set_up_game(g, armies, dice);
        let out = g.play(dice);
        rec.winner = out.winner;
        rec.turns = out.rounds;
        // Only the cost list's templates are items; sample armies' own figures are not counted.
        let items = field.templates;
        for (k, (f, &o)) in g.b.figs.iter().zip(&g.origin).enumerate() {
            if f.unit < items {
                rec.counts[o][f.unit] += 1;
                // A figure across the table edge (section VIII "Escape") survived.
                let here = f.alive || g.b.objective.escaped.contains(&k) || g.waiting.get(k).copied().unwrap_or(false);
                rec.survivors[f.unit] += (here && f.side == o) as u32;
            }
        }
        if let Some(log) = &g.b.kill_log {
            rec.kills.extend(log.iter().filter(|k| k.0 < items && k.1 < items).map(|&(k, v)| (k as u32, v as u32)));
        }
    }

    fn rollout_stage(&self) -> Option<&'static str> {
        Some("round")
    }

    /// Stages are rounds ([`Game::next_round`]); a side's tactic is its
    /// [`crate::rulesets::vsgmr::rules::Battle::tactic`], read at every figure's move.
    fn rollout(
        &self,
        run: &RolloutRun,
        armies: &Armies<Roster>,
        mission: usize,
        progress: &indicatif::ProgressBar,
    ) -> Result<RolloutGain, String> {
        let start = |dice: &mut FastDice, tactics: [usize; 2]| {
            let mut g = self.game(tactics, mission);
            self.set_up_game(&mut g, armies, dice);
            g
        };
        Ok(crate::rulesets::rollout::best_response(run, start, progress))
    }

    fn replay(&self, armies: &Armies<Roster>, tactic: usize, mission: usize, seed: u64) -> Replay {
        let field = self.field();
        let m = match armies {
            Armies::Fixed(x) => Matchup::Fixed([&x[0], &x[1]]),
            Armies::Random => Matchup::Random,
        };
        let (g, out, rosters) = traced_game(field, &self.skirmish, m, tactic, Mission::ALL[mission], seed);
        replay_of(&g, &out, &rosters)
    }
}

#[cfg(test)]
mod rollout_tests {
    //! The Skirmish played round by round for the rollout best response
    //! ([`crate::rulesets::rollout::Staged`]).
    use super::*;
    use crate::rulesets::skirmish::Skirmish as _;
    use crate::rulesets::vsgmr::tests::ruleset;

    fn seeded(k: u64) -> FastDice {
        FastDice::from_seed(crate::seed::batch_seed(3, 5, k))
    }

    /// Round by round through [`crate::rulesets::rollout::Staged`] is [`Game::play`]: the same
    /// winner after the same dice; and a clone taken after the first round, played on with a
    /// copy of the dice, ends as the game itself does (a clone copies the whole state).
    #[test]
    fn a_game_played_round_by_round_or_from_a_clone_ends_as_played_whole() {
        let r = ruleset();
        for k in 0..20 {
            let mut dice = seeded(k);
            let mut whole = r.game([0, 0], 0);
            r.set_up_game(&mut whole, &Armies::Random, &mut dice);
            let (staged, staged_dice) = (whole.clone(), dice.clone());
            let out = whole.play(&mut dice);
            crate::rulesets::rollout::assert_plays_as_whole(staged, staged_dice, out.winner, &format!("game {k}"));
        }
    }

    /// Both sides on `hold` (a fighting figure never moves): side A's rollout finds that
    /// attacking pays (the default tactic beats `hold` by about 20 points) and leaves `hold`
    /// at some rounds, and its gain's 95% interval lies above 0.
    #[test]
    fn a_side_facing_hold_gains_by_leaving_hold() {
        let g = crate::rulesets::skirmish::rollout_against_both_on(&ruleset(), "hold", 200, 16);
        let a = g.sides[0];
        assert!(a.gain.lo > 0.0 && a.switched > 0.0, "{g:?}");
    }
}
