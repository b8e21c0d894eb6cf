//! The Gunplay skirmish (issue 9; RULINGS.md, "Gunplay", Victory): a 48" × 48" table with
//! 4–6 cover pieces, 5 characters a side, and "a side with no character Up at the end of a
//! turn loses; 10-turn cap → draw". Played on the shared battle engine ([`crate::battle`]).
//!
//! Why a separate module from [`super::rules`]: duels fight over ground of one cover level;
//! here each shot's cover depends on where the walls are. Every rule step is the duel's —
//! [`rules::fire`] (given the shot's cover), [`rules::melee_round`], [`rules::recover`],
//! [`rules::roll_for_first`] — and the default tactic is [`rules::plan`] read against the
//! ruleset at the cover level of the shot it considers. This module adds only the table,
//! deployment, cover from walls, movement round walls and the end-of-turn victory check.
//!
//! Readings (also in the coverage table):
//! - **Cover from walls.** The rulebook grades cover by how much of the target the shooter can
//!   see. Cover pieces are low walls (6" long); they do not block line of sight. A shot whose
//!   line of fire crosses an intact wall within `cover_reach` (1") of the target is at *lots
//!   of cover* (Hard: the figure is hidden behind it, as in the rulebook's firing example); a
//!   line that crosses a wall farther from the target, but not within `cover_reach` of the
//!   shooter, is at *some cover* (Moderate: the wall hides part of the figure); otherwise the
//!   target is in the open (Easy). A wall right in front of the shooter does not hide the
//!   target. Melee ignores cover.
//! - **Tactic.** Each character picks the nearest Up enemy (else the nearest Down one) and
//!   takes its side's tactic's next action at that shot's cover
//!   ([`crate::rulesets::gunplay::tactics`]: `default`, the duel's myopic expected-damage
//!   plan; `hold`, `close-assault`, `stand-off`). When the action is a plain move, the
//!   character quick-moves to the spot behind the nearest wall that brings it closer to its
//!   target (cover to cover), else straight at it.
//! - **Quick moves go in a straight line** ("Quick Movement ... must be in any straight
//!   line"): a quick move (alone, with Fire, to cover, or a charge's) is one straight line of
//!   up to 6"; with a wall across the direct line it heads for the nearer way round the wall
//!   and keeps that direction; it stops half a base short of a wall across its line
//!   ([`Skirmish::straight_end`]). A charge goes straight at its target; a player sees the
//!   walls, so a charge a wall would block is not declared: the character quick-moves round
//!   the wall toward its target instead. Cautious moves ("in any direction") may go round a
//!   wall end in one move ([`Table::move_path`]).
//! - Deployment: each side in a line along its own edge, centred in its `deploy_depth` band,
//!   evenly spread across the table. Cover pieces keep out of the deployment bands.
//! - Turn order as in duels: d12 for the leader every turn (ties re-roll), alternate single
//!   characters, a side that runs out lets the other finish. Down and removed characters are
//!   activated (a Down one tries to recover) in line order.

use crate::battle::replay::{Replay, ReplayUnit};
use crate::battle::{Pos, Table, deployment_band};
use crate::config::{Invalid, in_range};
use crate::dice::{Dice, FastDice};
use crate::rulesets::engine::{Engine, FixedRun, Tally};
use crate::rulesets::gunplay::rules::{self, Action, Character, EPS, Situation};
use crate::rulesets::gunplay::{Cover, Gunplay};
use crate::rulesets::rollout::{RolloutGain, RolloutRun};
use crate::rulesets::skirmish::{
    Armies, ArmyError, ArmySource, GameRecord, MissionInfo, SkirmishSettings, SkirmishText, TacticInfo,
};
use crate::rulesets::skirmish::{check_runs, check_walls_in_inches, place_walls, skirmish_config};
use crate::rulesets::{Side, UnitInfo, points_matched_size};

skirmish_config! {
    /// The `[skirmish]` table of the config. Every key has a default, so configs without the
    /// table still parse.
    pub struct SkirmishConfig {
        /// Table size, inches (48" × 48").
        pub table_width: f64,
        pub table_depth: f64,
        /// Cover pieces placed at random from the seed: uniformly `cover_min..=cover_max` (4–6),
        /// each a wall `cover_length` (6") long parallel to the deployment edges.
        pub cover_min: u32,
        pub cover_max: u32,
        pub cover_length: f64,
        /// A crossed wall within this of the target gives lots of cover (1"); see the module docs.
        pub cover_reach: f64,
        /// Characters a side when the side is a random mix (5).
        pub characters: u32,
        /// Loadout names of side A and side B, one per character; empty = a random mix of
        /// `characters` loadouts drawn uniformly from the cost list every game.
        pub side_a: Vec<String>,
        pub side_b: Vec<String>,
        /// Depth of each deployment band along its own edge, inches (6").
        pub deploy_depth: f64,
        /// Game turns before the game is a draw (10).
        pub max_turns: u32,
        /// Random-mix skirmishes per tactic, and per cell of the tactic metagame, in the
        /// report's "Skirmish: value in army" section (the generic section; 0 leaves it, the
        /// metagame and the rollout best response out). `report_trials` is the study's (games
        /// per fixed line-up).
        pub tactic_trials: u64,
        /// The report's rollout best response against the played tactic: games (0: none, else
        /// at least 2) and playouts per tactic at each game turn (2 to 1000).
        pub rollout_games: u64,
        pub rollout_playouts: u32,
    }
    /// Skirmishes per `pointsworth skirmish` run (`--trials`), per line-up in the report's
    /// Skirmish section (0 leaves the section out), and per batch of the deterministic engine.
    runs: { trials: 2000, report_trials: 1000, batch_size: 25 }
    defaults: {
        table_width: 48.0,
        table_depth: 48.0,
        cover_min: 4,
        cover_max: 6,
        cover_length: 6.0,
        cover_reach: 1.0,
        characters: 5,
        side_a: Vec::new(),
        side_b: Vec::new(),
        deploy_depth: 6.0,
        max_turns: 10,
        tactic_trials: 20000,
        rollout_games: 0,
        rollout_playouts: 16,
    }
}

impl SkirmishConfig {
    /// Checks ranges; the message names the key, the error carries it for its place.
    pub fn validate(&self) -> Result<(), Invalid> {
        use crate::config::Ends::Both;
        let c = self;
        let (min, max) = (("skirmish.cover_min", c.cover_min), ("skirmish.cover_max", c.cover_max));
        check_walls_in_inches([c.table_width, c.table_depth, c.deploy_depth], min, max, c.cover_length, c.cover_reach)?;
        in_range("skirmish.characters", c.characters, 1, 50, Both, "")?;
        in_range("skirmish.max_turns", c.max_turns, 1, 1000, Both, "")?;
        check_runs(c.trials, c.report_trials, c.batch_size)?;
        in_range("skirmish.tactic_trials", c.tactic_trials, 0, crate::rulesets::skirmish::MAX_TRIALS, Both, "")?;
        crate::rulesets::skirmish::check_rollout(c.rollout_games, c.rollout_playouts)?;
        for (key, side) in [("skirmish.side_a", &c.side_a), ("skirmish.side_b", &c.side_b)] {
            if side.len() > 50 {
                return Err(Invalid::new(
                    key,
                    format!("{} lists at most 50 characters, got {}", crate::config::label(key), side.len()),
                ));
            }
        }
        Ok(())
    }
}

/// The loadouts of both sides: fixed lists, or a random mix drawn each game.
#[derive(Debug, Clone, PartialEq)]
pub enum LineUp {
    Fixed(Vec<usize>),
    Random(u32),
    /// `budget` points of one loadout at its cost-list cost: ⌊budget / cost⌋ characters, one
    /// more with the probability of the remainder (drawn each game), as a points-matched duel
    /// squad ([`points_matched_size`]); at least one, at most 50.
    Points {
        unit: usize,
        budget: f64,
    },
}

impl LineUp {
    /// Resolves `[skirmish] side_a` / `side_b`: loadout names (or ids) → indices; empty → a
    /// random mix of `characters`. Errors name the unknown loadout and list the known ones.
    pub fn from_names(r: &Gunplay, names: &[String], characters: u32) -> Result<LineUp, String> {
        if names.is_empty() {
            return Ok(LineUp::Random(characters));
        }
        names
            .iter()
            .map(|n| {
                let id = crate::config::id_of(n);
                r.book.units.iter().position(|u| u.id == id).ok_or_else(|| {
                    let known: Vec<&str> = r.book.units.iter().map(|u| u.id.as_str()).collect();
                    format!("[skirmish] unknown loadout {n:?}; known: {}", known.join(", "))
                })
            })
            .collect::<Result<Vec<_>, _>>()
            .map(LineUp::Fixed)
    }

    /// "5 × Rifle", "Rifle, Rifle, Pistol", or "random mix of 5".
    pub fn describe(&self, r: &Gunplay) -> String {
        match self {
            LineUp::Random(n) => format!("random mix of {n}"),
            LineUp::Fixed(v) if v.iter().all(|&u| u == v[0]) => format!("{} × {}", v.len(), r.book.units[v[0]].name),
            LineUp::Fixed(v) => v.iter().map(|&u| r.book.units[u].name.as_str()).collect::<Vec<_>>().join(", "),
            LineUp::Points { unit, budget } => format!("{budget} points of {}", r.book.units[*unit].name),
        }
    }
}

/// One seeded game's picture data: per side, per character, its positions (deployment, then
/// after each move) and the game turn it was removed in.
pub type Trace = [Vec<(usize, Vec<Pos>, Option<u32>)>; 2];

/// What the game came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SkirmishOutcome {
    /// `None`: a draw (the turn cap, or both sides without a character Up).
    pub winner: Option<Side>,
    /// Game turns played (1..=max_turns).
    pub turns: u32,
}

/// A skirmish in progress. Reused across trials.
#[derive(Debug, Clone)]
pub struct Skirmish<'a> {
    pub r: &'a Gunplay,
    pub cfg: &'a SkirmishConfig,
    /// The ruleset at each cover level (open, some, lots): what [`rules::plan`] reads. Shared:
    /// a clone of the game (the rollout's playouts) does not copy it.
    by_cover: std::sync::Arc<[Gunplay; 3]>,
    pub sides: [Vec<Character>; 2],
    pub table: Table,
    /// Game turns started.
    pub turn: u32,
    pub trace: Option<Trace>,
    /// `(shooter or attacker, removed)` loadouts of every character removed by an enemy
    /// this game.
    pub kills: Vec<(u32, u32)>,
    /// Each side's tactic, side A first ([`crate::rulesets::gunplay::tactics`]).
    pub tactic: [crate::rulesets::gunplay::tactics::Pick; 2],
}

impl<'a> Skirmish<'a> {
    /// A fresh skirmish (no characters, empty table).
    pub fn new(r: &'a Gunplay, cfg: &'a SkirmishConfig) -> Self {
        Skirmish {
            r,
            cfg,
            by_cover: std::sync::Arc::new(Cover::ALL.map(|c| r.with_cover(c))),
            sides: [Vec::new(), Vec::new()],
            table: Table::new(cfg.table_width as f32, cfg.table_depth as f32),
            turn: 0,
            trace: None,
            tactic: [crate::rulesets::gunplay::tactics::pick(0); 2],
            kills: Vec::new(),
        }
    }

    /// Position of character `i` of side `s`.
    pub fn pos(&self, s: Side, i: usize) -> Pos {
        let c = &self.sides[s][i];
        Pos::new(c.x, c.y)
    }

    /// Places 4–6 cover pieces from `dice`, then deploys both line-ups (random mixes drawn
    /// from `dice`) along their edges: side 0 along y = 0, side 1 along y = depth.
    pub fn set_up<D: Dice>(&mut self, lineups: [&LineUp; 2], dice: &mut D) {
        let c = self.cfg;
        place_walls(&mut self.table, (c.cover_min, c.cover_max), c.cover_length, c.deploy_depth, dice);
        let n_units = self.r.book.units.len();
        for (s, lineup) in lineups.into_iter().enumerate() {
            let units: Vec<usize> = match lineup {
                LineUp::Fixed(v) => v.clone(),
                LineUp::Random(n) => (0..*n).map(|_| dice.below(n_units)).collect(),
                LineUp::Points { unit, budget } => {
                    let n = points_matched_size(*budget, self.r.book.units[*unit].cost, dice.unit_f64()).clamp(1, 50);
                    vec![*unit; n as usize]
                }
            };
            self.deploy(s, &units);
        }
        self.turn = 0;
        self.kills.clear();
    }

    /// Deploys `units` for side `s` in a line centred in its deployment band, evenly spread.
    pub fn deploy(&mut self, s: Side, units: &[usize]) {
        let (lo, hi) = deployment_band(&self.table, s, self.cfg.deploy_depth as f32);
        let y = (lo + hi) / 2.0;
        let n = units.len() as f32;
        self.sides[s].clear();
        if let Some(t) = &mut self.trace {
            t[s].clear();
        }
        for (k, &u) in units.iter().enumerate() {
            let x = self.table.width * (k as f32 + 0.5) / n;
            self.sides[s].push(Character::new(u, x, y));
            if let Some(t) = &mut self.trace {
                t[s].push((u, vec![Pos::new(x, y)], None));
            }
        }
    }

    /// "Shooting", "Difficulties", read for walls (module docs): the cover of a shot from
    /// `from` at a target standing at `at`.
    pub fn cover_of(&self, from: Pos, at: Pos) -> Cover {
        let reach = self.cfg.cover_reach as f32 + EPS;
        let mut cover = Cover::Open;
        for w in self.table.walls.iter().filter(|w| w.intact && w.crosses(from, at)) {
            if w.dist_to(at) <= reach {
                return Cover::Lots;
            }
            if w.dist_to(from) > reach {
                cover = Cover::Some;
            }
        }
        cover
    }

    fn at_cover(&self, c: Cover) -> &Gunplay {
        &self.by_cover[c as usize]
    }

    /// The target of side `s`'s character `i`: the nearest Up enemy, else the nearest Down one.
    fn target_of(&self, s: Side, i: usize) -> Option<usize> {
        let me = self.pos(s, i);
        let pick = |want_up: bool| {
            crate::battle::nearest(
                me,
                self.sides[1 - s]
                    .iter()
                    .enumerate()
                    .filter(|(_, f)| !f.removed && f.is_up() == want_up)
                    .map(|(j, f)| (j, Pos::new(f.x, f.y))),
            )
            .map(|(j, _)| j)
        };
        pick(true).or_else(|| pick(false))
    }

    /// "Quick Movement ... must be in any straight line" (also a Charge, "quick move into
    /// contact"): the end of a straight move from `from` of up to `len` inches toward `to`.
    /// When an intact wall stands across the direct line and `round` is set, the line heads
    /// instead for the nearer way round that wall (1" beyond its end, as [`Table::move_path`]
    /// goes round) and carries on in that direction, never bending, for up to `len` or the
    /// length of the path round to `to`, whichever is less. The move stops half a base
    /// (`contact / 2`) short of any wall across its line, and at the table edge (it does not
    /// slide along the edge). A charge (`round` false) goes straight at its target.
    pub fn straight_end(&self, from: Pos, to: Pos, len: f32, round: bool) -> Pos {
        let to = self.table.clamp(to);
        let direct = from.toward(to, len);
        let Some(w) = self.table.wall_across(from, direct) else {
            return self.table.clamp(direct);
        };
        let (mut heading, mut len) = (to, len.min(from.dist(to)));
        if round {
            let wall = self.table.walls[w];
            let (dx, dy) = (wall.b.x - wall.a.x, wall.b.y - wall.a.y);
            let l = (dx * dx + dy * dy).sqrt().max(1e-6);
            let (ux, uy) = (dx / l, dy / l);
            let ends = [Pos::new(wall.a.x - ux, wall.a.y - uy), Pos::new(wall.b.x + ux, wall.b.y + uy)];
            let via = |c: Pos| from.dist(c) + c.dist(to);
            let order = if via(ends[0]) <= via(ends[1]) { ends } else { [ends[1], ends[0]] };
            if let Some(c) = order
                .map(|c| self.table.clamp(c))
                .into_iter()
                .find(|&c| from.dist(c) > EPS && self.table.wall_across(from, c).is_none())
            {
                (heading, len) = (c, len.min(via(c)));
            }
        }
        let d = from.dist(heading).max(1e-6);
        let (ux, uy) = ((heading.x - from.x) / d, (heading.y - from.y) / d);
        let at = |t: f32| Pos::new(from.x + ux * t, from.y + uy * t);
        let on_table = |p: Pos| self.table.clamp(p) == p;
        let clear = |t: f32| self.table.wall_across(from, at(t)).is_none();
        if on_table(at(len)) && clear(len) {
            return at(len);
        }
        // The longest clear stretch of the line (walls and edges cut it once each: bisect).
        let (mut lo, mut hi) = (0.0f32, len);
        for _ in 0..24 {
            let mid = 0.5 * (lo + hi);
            if on_table(at(mid)) && clear(mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        if !clear(hi) {
            lo = (lo - 0.5 * self.r.book.rules.contact).max(0.0);
        }
        if lo <= EPS { from } else { at(lo) }
    }

    /// A quick move (or a charge's, `round` false) of side `s`'s character `i`: one straight
    /// line ([`Skirmish::straight_end`]), traced.
    fn quick_move_to(&mut self, s: Side, i: usize, to: Pos, len: f32, round: bool) {
        let end = self.straight_end(self.pos(s, i), to, len, round);
        let c = &mut self.sides[s][i];
        (c.x, c.y) = (end.x, end.y);
        if let Some(t) = &mut self.trace {
            t[s][i].1.push(end);
        }
    }

    /// A cautious move ("up to 3 inches in any direction") of character `i` of side `s`: up
    /// to `len` toward `to`, round walls, traced.
    fn move_to(&mut self, s: Side, i: usize, to: Pos, len: f32) {
        let from = self.pos(s, i);
        let (end, corner) = self.table.move_path(from, to, len);
        let c = &mut self.sides[s][i];
        (c.x, c.y) = (end.x, end.y);
        if let Some(t) = &mut self.trace {
            if let Some(k) = corner {
                t[s][i].1.push(k);
            }
            t[s][i].1.push(end);
        }
    }

    /// Cover to cover: the spot behind a wall (seen from `target`) that is nearer the target
    /// than `me` by at least 1", the nearest such spot to `me` within two quick moves.
    fn cover_spot(&self, me: Pos, target: Pos) -> Option<Pos> {
        let reach = 2.0 * self.r.book.rules.quick_move;
        let here = me.dist(target);
        let mut best: Option<(f32, Pos)> = None;
        for w in self.table.walls.iter().filter(|w| w.intact) {
            for t in [0.25, 0.5, 0.75] {
                let spot = self.table.clamp(w.spot_behind(t, 0.75, target));
                let d = me.dist(spot);
                if spot.dist(target) < here - 1.0 && d <= reach && d > EPS && best.is_none_or(|(bd, _)| d < bd) {
                    best = Some((d, spot));
                }
            }
        }
        best.map(|(_, p)| p)
    }

    /// One activation of side `s`'s character `i` ("Actions"): recover if Down, then its side's
    /// tactic action by action (re-planned each action; an Aim commits to its Fire).
    pub fn activate<D: Dice>(&mut self, s: Side, i: usize, dice: &mut D) {
        let mut actions = 2u8;
        {
            let c = &mut self.sides[s][i];
            c.activated = true;
            if c.removed {
                return;
            }
            if c.down {
                if !rules::recover(c, dice) {
                    self.note_removal(s, i);
                    return;
                }
                actions = 1;
            }
        }
        let mut aimed = false;
        while actions > 0 {
            let Some(j) = self.target_of(s, i) else { return };
            let (me, foe) = (self.sides[s][i], self.sides[1 - s][j]);
            let (mp, fp) = (self.pos(s, i), self.pos(1 - s, j));
            let (p, pf) = (self.r.profile(me.unit as usize), self.r.profile(foe.unit as usize));
            let d = mp.dist(fp);
            let cover = self.cover_of(mp, fp);
            let sit = Situation { distance: d, wounds: me.wounds, target_down: foe.down, target_wounds: foe.wounds };
            let mut action = if aimed {
                Action::Fire
            } else {
                self.tactic[s].tactic().next_action(self.at_cover(cover), p, pf, &sit, actions)
            };
            let quick = self.r.book.rules.quick_move;
            // A player sees the wall: a charge that a wall would stop short of contact is not
            // declared; the character quick-moves round the wall toward its target (below), or,
            // where no straight line round it leads anywhere, acts from where it stands.
            let blocked = matches!(action, Action::Charge) && self.charge_blocked(mp, fp);
            if blocked && self.straight_end(mp, fp, quick, true).dist(mp) <= EPS {
                action = rules::plan_in_place(self.at_cover(cover), p, pf, &sit, actions);
            }
            actions -= 1;
            // A plain move longer than a cautious one is a quick move: straight.
            let is_quick = |by: f32| by > self.r.book.rules.cautious_move + EPS;
            match action {
                Action::Aim => {
                    aimed = true;
                    continue;
                }
                Action::Fire => self.shoot(s, i, j, aimed, false, dice),
                Action::MoveFire { quick: q, by } => {
                    if q {
                        self.quick_move_to(s, i, fp, by, true);
                    } else {
                        self.move_to(s, i, fp, by);
                    }
                    self.shoot(s, i, j, false, q, dice);
                }
                Action::Move { by } => match self.cover_spot(mp, fp) {
                    Some(spot) => self.quick_move_to(s, i, spot, quick, true),
                    None if is_quick(by) => self.quick_move_to(s, i, fp, by, true),
                    None => self.move_to(s, i, fp, by),
                },
                Action::Charge if blocked => self.quick_move_to(s, i, fp, quick, true),
                Action::Charge => {
                    self.quick_move_to(s, i, fp, (d - self.r.book.rules.contact).max(0.0), false);
                    if self.pos(s, i).dist(fp) <= self.r.book.rules.contact + EPS {
                        self.melee(s, i, j, true, dice);
                    }
                }
                Action::Strike => self.melee(s, i, j, false, dice),
                Action::Pass => {}
            }
            aimed = false;
            if !self.sides[s][i].is_up() {
                return;
            }
        }
    }

    /// Whether a charge from `from` at a target at `to` would stop short of contact: a wall
    /// across its straight line ([`Skirmish::straight_end`]).
    fn charge_blocked(&self, from: Pos, to: Pos) -> bool {
        let contact = self.r.book.rules.contact;
        let len = (from.dist(to) - contact).max(0.0);
        self.table.wall_across(from, to).is_some() && self.straight_end(from, to, len, false).dist(to) > contact + EPS
    }

    /// "Shooting": a Fire action at the cover of the shot from where the shooter stands now.
    fn shoot<D: Dice>(&mut self, s: Side, i: usize, j: usize, aimed: bool, quick: bool, dice: &mut D) {
        let (mp, fp) = (self.pos(s, i), self.pos(1 - s, j));
        let cover = self.cover_of(mp, fp);
        let me = self.sides[s][i];
        let p = *self.r.profile(me.unit as usize);
        let was = self.sides[1 - s][j].removed;
        rules::fire(cover, &p, me.wounds, &mut self.sides[1 - s][j], mp.dist(fp), aimed, quick, dice);
        self.note_kill(s, i, j, was);
        self.note_removal(1 - s, j);
    }

    /// "Melee": a round between side `s`'s `i` and the other side's `j`.
    fn melee<D: Dice>(&mut self, s: Side, i: usize, j: usize, charging: bool, dice: &mut D) {
        let [a, b] = &mut self.sides;
        let (mine, theirs) = if s == 0 { (a, b) } else { (b, a) };
        let (pa, pd) = (self.r.profile(mine[i].unit as usize), self.r.profile(theirs[j].unit as usize));
        let was = [mine[i].removed, theirs[j].removed];
        rules::melee_round(pa, &mut mine[i], pd, &mut theirs[j], charging, dice);
        self.note_kill(s, i, j, was[1]);
        self.note_kill(1 - s, j, i, was[0]);
        self.note_removal(s, i);
        self.note_removal(1 - s, j);
    }

    /// Logs side `s`'s `i` removing the other side's `j` (if `j` was in play before: `was`).
    fn note_kill(&mut self, s: Side, i: usize, j: usize, was: bool) {
        if !was && self.sides[1 - s][j].removed {
            self.kills.push((self.sides[s][i].unit as u32, self.sides[1 - s][j].unit as u32));
        }
    }

    fn note_removal(&mut self, s: Side, i: usize) {
        if self.sides[s][i].removed {
            if let Some(t) = &mut self.trace {
                t[s][i].2.get_or_insert(self.turn);
            }
        }
    }

    /// Whether side `s` has a character Up.
    pub fn any_up(&self, s: Side) -> bool {
        self.sides[s].iter().any(|c| c.is_up())
    }

    /// RULINGS.md, "Gunplay", Victory: at the end of a turn a side with no character Up
    /// loses; if neither side has one it is a draw; `None` while both have one.
    pub fn end_of_turn_check(&self) -> Option<Option<Side>> {
        match (self.any_up(0), self.any_up(1)) {
            (true, true) => None,
            (true, false) => Some(Some(0)),
            (false, true) => Some(Some(1)),
            (false, false) => Some(None),
        }
    }

    /// Plays one game turn ("Turn Sequence"): d12 for the leader, then alternate single
    /// characters; a side that runs out lets the other finish.
    pub fn play_turn<D: Dice>(&mut self, dice: &mut D) {
        self.turn += 1;
        let leader = rules::roll_for_first(dice);
        for side in self.sides.iter_mut() {
            for c in side.iter_mut() {
                c.activated = c.removed;
            }
        }
        let mut s = leader;
        loop {
            let next = |g: &Self, s: Side| g.sides[s].iter().position(|c| !c.activated);
            let Some((side, i)) = next(self, s).map(|i| (s, i)).or_else(|| next(self, 1 - s).map(|i| (1 - s, i)))
            else {
                break;
            };
            self.activate(side, i, dice);
            s = 1 - side;
        }
    }

    /// Plays turns until a side has no character Up at the end of a turn, or the turn cap.
    pub fn play<D: Dice>(&mut self, dice: &mut D) -> SkirmishOutcome {
        loop {
            if let Some(out) = self.next_turn(dice) {
                return out;
            }
        }
    }

    /// Plays the next game turn ([`Skirmish::play_turn`]) and returns the outcome once the game
    /// is over after it: the end-of-turn victory check, or a draw at the turn cap; `None` while
    /// it goes on. A game already over stays over: its outcome again, no dice rolled.
    pub fn next_turn<D: Dice>(&mut self, dice: &mut D) -> Option<SkirmishOutcome> {
        if self.turn > 0 {
            if let Some(winner) = self.end_of_turn_check() {
                return Some(SkirmishOutcome { winner, turns: self.turn });
            }
        }
        if self.turn < self.cfg.max_turns {
            self.play_turn(dice);
            if let Some(winner) = self.end_of_turn_check() {
                return Some(SkirmishOutcome { winner, turns: self.turn });
            }
        }
        (self.turn >= self.cfg.max_turns).then_some(SkirmishOutcome { winner: None, turns: self.turn })
    }
}

/// Integer counts over many skirmishes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SkirmishTally {
    pub games: u64,
    /// Wins of side A and side B; the rest are draws.
    pub wins: [u64; 2],
    /// Sum of game turns played.
    pub turns: u64,
    /// Per loadout: characters fielded, still in play (not removed) at the end, Up at the end.
    pub fielded: Vec<u64>,
    pub survived: Vec<u64>,
    pub up_at_end: Vec<u64>,
    /// Per loadout, sums over games of one game's counts f (fielded), s (survived), u (Up at
    /// the end): Σ f², Σ s·f, Σ s², Σ u·f, Σ u², for intervals that resample whole games
    /// ([`crate::stats::clustered_proportion`]).
    pub fielded_sq: Vec<u64>,
    pub survived_fielded: Vec<u64>,
    pub survived_sq: Vec<u64>,
    pub up_fielded: Vec<u64>,
    pub up_sq: Vec<u64>,
}

impl Tally for SkirmishTally {
    fn merge(&mut self, o: &Self) {
        self.games += o.games;
        self.wins[0] += o.wins[0];
        self.wins[1] += o.wins[1];
        self.turns += o.turns;
        crate::rulesets::engine::add_counts(&mut self.fielded, &o.fielded);
        crate::rulesets::engine::add_counts(&mut self.survived, &o.survived);
        crate::rulesets::engine::add_counts(&mut self.up_at_end, &o.up_at_end);
        crate::rulesets::engine::add_counts(&mut self.fielded_sq, &o.fielded_sq);
        crate::rulesets::engine::add_counts(&mut self.survived_fielded, &o.survived_fielded);
        crate::rulesets::engine::add_counts(&mut self.survived_sq, &o.survived_sq);
        crate::rulesets::engine::add_counts(&mut self.up_fielded, &o.up_fielded);
        crate::rulesets::engine::add_counts(&mut self.up_sq, &o.up_sq);
    }
    fn trials(&self) -> u64 {
        self.games
    }
}

impl SkirmishTally {
    /// Adds one finished game.
    pub fn record(&mut self, g: &Skirmish, out: &SkirmishOutcome) {
        let n = g.r.book.units.len();
        for v in [
            &mut self.fielded,
            &mut self.survived,
            &mut self.up_at_end,
            &mut self.fielded_sq,
            &mut self.survived_fielded,
            &mut self.survived_sq,
            &mut self.up_fielded,
            &mut self.up_sq,
        ] {
            if v.len() < n {
                v.resize(n, 0);
            }
        }
        self.games += 1;
        if let Some(w) = out.winner {
            self.wins[w] += 1;
        }
        self.turns += out.turns as u64;
        for c in g.sides.iter().flatten() {
            let u = c.unit as usize;
            self.fielded[u] += 1;
            self.survived[u] += (!c.removed) as u64;
            self.up_at_end[u] += c.is_up() as u64;
        }
        for u in 0..n {
            let mine = || g.sides.iter().flatten().filter(|c| c.unit as usize == u);
            let (f, s, up) = (
                mine().count() as u64,
                mine().filter(|c| !c.removed).count() as u64,
                mine().filter(|c| c.is_up()).count() as u64,
            );
            self.fielded_sq[u] += f * f;
            self.survived_fielded[u] += s * f;
            self.survived_sq[u] += s * s;
            self.up_fielded[u] += up * f;
            self.up_sq[u] += up * up;
        }
    }
}

/// Plays `trials` skirmishes with the deterministic engine ([`Engine::run_batches`]): batch `k`
/// uses dice seeded from (seed, stream, k), so the tally is identical on any thread count.
/// Terrain, random line-ups and every die of a game come from its batch's dice.
pub fn simulate<E: Engine>(
    engine: &E,
    r: &Gunplay,
    lineups: [&LineUp; 2],
    seed: u64,
    trials: u64,
    progress: &indicatif::ProgressBar,
) -> SkirmishTally {
    let cfg = &r.skirmish;
    let run = FixedRun { seed, trials, batch_size: cfg.batch_size };
    let stream = crate::seed::stream_id(&["gunplay", "skirmish"]);
    engine.run_batches(run, stream, |dice, _first, n, tally: &mut SkirmishTally| {
        let mut g = Skirmish::new(r, cfg);
        for _ in 0..n {
            g.set_up(lineups, dice);
            let out = g.play(dice);
            tally.record(&g, &out);
        }
        progress.inc(n as u64);
    })
}

/// Plays one seeded game with a trace; returns its final state and outcome.
pub fn traced_game<'a>(
    r: &'a Gunplay,
    lineups: [&LineUp; 2],
    tactic: usize,
    seed: u64,
) -> (Skirmish<'a>, SkirmishOutcome) {
    let mut dice = crate::dice::FastDice::from_seed(crate::seed::batch_seed(
        seed,
        crate::seed::stream_id(&["gunplay", "skirmish", "replay"]),
        0,
    ));
    let mut g = Skirmish::new(r, &r.skirmish);
    g.tactic = [crate::rulesets::gunplay::tactics::pick(tactic); 2];
    g.trace = Some([Vec::new(), Vec::new()]);
    g.set_up(lineups, &mut dice);
    let out = g.play(&mut dice);
    (g, out)
}

/// The replay picture of a traced game.
pub fn replay_of(g: &Skirmish, out: &SkirmishOutcome, lineups: [&LineUp; 2]) -> Replay {
    let trace = g.trace.as_ref().expect("a traced game");
    let mut units = Vec::new();
    for (s, side) in trace.iter().enumerate() {
        for (i, (u, path, died)) in side.iter().enumerate() {
            let name = &g.r.book.units[*u].name;
            let c = &g.sides[s][i];
            let state = if c.removed {
                ""
            } else if c.down {
                "↓"
            } else {
                ""
            };
            units.push(ReplayUnit {
                side: s,
                label: format!("{}{state}", name.chars().take(2).collect::<String>()),
                name: name.clone(),
                path: path.clone(),
                died: *died,
            });
        }
    }
    let result = match out.winner {
        Some(w) => format!("side {} wins after {} turns", ["A (blue)", "B (red)"][w], out.turns),
        None => format!("draw after {} turns", out.turns),
    };
    Replay {
        title: "Gunplay — Skirmish".to_string(),
        notes: vec![
            format!("A: {} / B: {}", lineups[0].describe(g.r), lineups[1].describe(g.r)),
            format!("{result}; ↓ = Down at the end; walls give lots of cover within {}\"", g.cfg.cover_reach),
        ],
        table: g.table.clone(),
        deploy_depth: g.cfg.deploy_depth as f32,
        units,
        markers: Vec::new(),
        legend: None,
    }
}

/// The Skirmish ("Victory" in RULINGS.md) as the generic skirmish plays it: random mixes of
/// `characters` loadouts under each tactic of the portfolio, the tactic metagame and the
/// rollout best response (the report's "Skirmish: value in army", `tactic_trials` games per
/// tactic and per metagame cell). The report's "Skirmish" section of fixed line-ups is the
/// study's ([`super::study`], `report_trials` games per line-up).
impl crate::rulesets::skirmish::Skirmish for Gunplay {
    type Army = LineUp;
    type Game<'a> = Skirmish<'a>;
    const TACTICS: &'static [TacticInfo] = &crate::rulesets::gunplay::tactics::TACTICS;
    const ARMY_SOURCE: ArmySource = ArmySource {
        what: "comma-separated loadout lists",
        how: "one loadout per character, e.g. rifle,rifle,pistol,shotgun,rifle",
    };
    const MISSIONS: &'static [MissionInfo] =
        &[MissionInfo::basic("the skirmish: a side with no character Up at the end of a turn loses")];

    fn skirmish_text(&self) -> SkirmishText {
        let c = &self.skirmish;
        SkirmishText {
            game: "Skirmish".to_string(),
            games: "skirmishes".to_string(),
            army_size: format!("{} characters", self.skirmish.characters),
            item: "loadout".to_string(),
            item_kind: false,
            turns: "game turns".to_string(),
            outcome: [
                "outcome (no character Up at the end of a turn loses)".to_string(),
                "side A wins".to_string(),
                "side B wins".to_string(),
                "draw (turn cap, or no one Up)".to_string(),
            ],
            setup: format!(
                "{}\"×{}\" table, {}–{} low walls placed from the seed, {} characters a side deployed in a line \
                 along the own edge, {}-turn cap; a side with no character Up at the end of a turn loses",
                c.table_width, c.table_depth, c.cover_min, c.cover_max, c.characters, c.max_turns
            ),
            replay_legend: "Each line is a character's path; ✕ marks where a character was removed and in which \
                            turn; ↓ marks a character Down at the end; bars are low walls."
                .to_string(),
        }
    }

    fn skirmish_settings(&self) -> SkirmishSettings {
        let c = &self.skirmish;
        SkirmishSettings {
            rollout_games: c.rollout_games,
            rollout_playouts: c.rollout_playouts,
            ..SkirmishSettings::new(self.book.duel.budget, c.trials, c.tactic_trials, c.batch_size)
        }
    }

    fn default_armies(&self) -> Result<Armies<LineUp>, ArmyError> {
        let c = &self.skirmish;
        if c.side_a.is_empty() && c.side_b.is_empty() {
            return Ok(Armies::Random);
        }
        let side = |names: &[String]| LineUp::from_names(self, names, c.characters).map_err(ArmyError::Name);
        Ok(Armies::Fixed(Box::new([side(&c.side_a)?, side(&c.side_b)?])))
    }

    fn read_armies(&self, specs: [&str; 2], _mission: usize) -> Result<[LineUp; 2], ArmyError> {
        let parse = |s: &str| {
            let names: Vec<String> = s.split(',').map(|x| x.trim().to_string()).filter(|x| !x.is_empty()).collect();
            // An empty list would be read as "a random mix" (what an empty `side_a` means in
            // the config): refused here, where the user asked for a fixed army.
            if names.is_empty() {
                return Err(ArmyError::Name(format!(
                    "--armies: {s:?} names no loadout; give comma-separated loadouts (e.g. Rifle,Rifle,Pistol) or \
                     \"random\""
                )));
            }
            if names.len() > 50 {
                return Err(ArmyError::Name(format!(
                    "--armies: a side has at most 50 characters, got {}",
                    names.len()
                )));
            }
            LineUp::from_names(self, &names, self.skirmish.characters)
                .map_err(|m| ArmyError::Name(m.replace("[skirmish] ", "--armies: ")))
        };
        Ok([parse(specs[0])?, parse(specs[1])?])
    }

    fn random_army<D: Dice>(&self, dice: &mut D) -> LineUp {
        LineUp::Fixed((0..self.skirmish.characters).map(|_| dice.below(self.book.units.len())).collect())
    }

    fn describe_army(&self, army: &LineUp) -> String {
        army.describe(self)
    }

    fn skirmish_units(&self) -> Vec<UnitInfo> {
        self.book.units.clone()
    }

    fn stream_names(&self, _tactic: usize, _armies: &Armies<LineUp>) -> Vec<String> {
        vec!["gunplay".to_string(), "skirmish".to_string()]
    }

    fn game(&self, tactics: [usize; 2], _mission: usize) -> Skirmish<'_> {
        let mut g = Skirmish::new(self, &self.skirmish);
        g.tactic = tactics.map(crate::rulesets::gunplay::tactics::pick);
        g
    }

    fn play<D: Dice>(&self, g: &mut Skirmish<'_>, armies: &Armies<LineUp>, dice: &mut D, rec: &mut GameRecord) {
        let random = LineUp::Random(self.skirmish.characters);
        let lineups = match armies {
            Armies::Random => [&random, &random],
            Armies::Fixed(x) => [&x[0], &x[1]],
        };
        g.set_up(lineups, dice);
        let out = g.play(dice);
        rec.winner = out.winner;
        rec.turns = out.turns;
        for (s, side) in g.sides.iter().enumerate() {
            for c in side {
                rec.counts[s][c.unit as usize] += 1;
                rec.survivors[c.unit as usize] += (!c.removed) as u32;
            }
        }
        rec.kills.extend_from_slice(&g.kills);
    }

    fn replay(&self, armies: &Armies<LineUp>, tactic: usize, _mission: usize, seed: u64) -> Replay {
        let random = LineUp::Random(self.skirmish.characters);
        let lineups = match armies {
            Armies::Random => [&random, &random],
            Armies::Fixed(x) => [&x[0], &x[1]],
        };
        let (g, out) = traced_game(self, lineups, tactic, seed);
        replay_of(&g, &out, lineups)
    }

    fn rollout_stage(&self) -> Option<&'static str> {
        Some("game turn")
    }

    /// Stages are game turns ([`Skirmish::play_turn`], "Turn Sequence"); a side's tactic is its
    /// [`Skirmish::tactic`], read at each action of its characters.
    fn rollout(
        &self,
        run: &RolloutRun,
        armies: &Armies<LineUp>,
        _mission: usize,
        progress: &indicatif::ProgressBar,
    ) -> Result<RolloutGain, String> {
        let random = LineUp::Random(self.skirmish.characters);
        let lineups = match armies {
            Armies::Random => [&random, &random],
            Armies::Fixed(x) => [&x[0], &x[1]],
        };
        let start = |dice: &mut FastDice, tactics: [usize; 2]| {
            let mut g = crate::rulesets::skirmish::Skirmish::game(self, tactics, 0);
            g.set_up(lineups, dice);
            g
        };
        Ok(crate::rulesets::rollout::best_response(run, start, progress))
    }
}

/// A set-up game played game turn by game turn for the rollout best response: one
/// [`Skirmish::next_turn`] per stage, as [`Skirmish::play`] plays them.
impl crate::rulesets::rollout::Staged for Skirmish<'_> {
    fn stage(&mut self, dice: &mut FastDice) -> Option<Option<Side>> {
        self.next_turn(dice).map(|out| out.winner)
    }

    fn set_tactic(&mut self, s: Side, t: usize) {
        self.tactic[s] = crate::rulesets::gunplay::tactics::pick(t);
    }
}

#[cfg(test)]
mod tests;
