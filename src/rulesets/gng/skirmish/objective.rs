//! The missions (GnG 1.5, "Types of Games"; RULINGS.md, "Missions"): the Skirmish, Point
//! Capture and Ground War, their command points, the capture rule and the victory, and the one
//! decision rule by which units play for the points.
//!
//! Why apart from the turn loop: a mission adds state between turns (who holds each point, how
//! many own turns in a row a side has been capturing it) and a goal per unit, but no dice. The
//! Skirmish has no command points, so its games draw exactly the dice they drew before
//! missions existed.
//!
//! The tactic's rule (`Skirmish::assign_goals`, at the start of each own turn): each command
//! point asks for two units when the side does not hold it (a capture needs two) and one when
//! it does and the enemy could still capture (one unit within 6" stops any enemy capture); the
//! nearest movable units answer, points the enemy is capturing first; a capture that cannot get
//! its two units is not attempted. A unit with a goal that must be within 6" of its point this
//! turn to break an enemy capture goes there (walking and shooting when the walk is enough, else
//! rushing). Otherwise, when the tactic would attack (from where it stands, after a walk into
//! range or a Bayonet charge) it attacks as in the Skirmish; when it would only move, it walks
//! toward its point and shoots if that brings a target into range, else rushes there; on its
//! point with nothing to attack it stays. (Holding a point even when an attack was to be had
//! lost 44% to 56% against a side that ignored the points, so fighting comes first.)
//! Units without a goal play the tactic as in the Skirmish.

use super::{EPS, Skirmish};
use crate::battle::Pos;
use crate::rulesets::Side;
use crate::rulesets::gng::Kind;
use crate::rulesets::gng::rules;
use crate::rulesets::skirmish::MissionInfo;

/// A unit occupies a command point within this many inches of it (RULINGS.md, "Missions").
pub const OCCUPY_RADIUS: f32 = 3.0;
/// No enemy unit may be within this many inches of a point being captured (GnG 1.5, "Types
/// of Games", Point Capture: "no other player's units within 6\" of said point").
pub const CONTEST_RADIUS: f32 = 6.0;
/// Own turns in a row a point must be occupied to be captured ("for 3 turns straight").
pub const CAPTURE_TURNS: u32 = 3;
/// Units that must occupy a point ("at least two units occupying that area").
pub const CAPTURE_UNITS: usize = 2;
/// Ground War's points per side (GnG 1.5, "Types of Games": "600 point limit").
pub const GROUND_WAR_POINTS: f64 = 600.0;
/// A unit this close to its point (inches) has arrived: inside [`OCCUPY_RADIUS`] with room for
/// rounding.
const ARRIVED: f32 = OCCUPY_RADIUS - 0.25;

/// The missions, the Skirmish first (the index is [`Mission::ALL`]'s).
pub const MISSIONS: &[MissionInfo] = &[
    MissionInfo { name: "skirmish", description: "Skirmish: 350 points, last side standing (turn cap: draw)" },
    MissionInfo {
        name: "point-capture",
        description: "Point Capture: 350 points, 3 command points on the centre line; hold all of them or destroy \
                      every enemy unit",
    },
    MissionInfo {
        name: "ground-war",
        description: "Ground War: 600 points, 3 command points; hold all of them or destroy every enemy unit",
    },
];

/// A kind of game (GnG 1.5, "Types of Games").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mission {
    /// Last side standing, `[skirmish] points` (350) a side.
    #[default]
    Skirmish,
    /// Three command points; `[skirmish] points` (350) a side.
    PointCapture,
    /// Three command points; 600 points a side.
    GroundWar,
}

impl Mission {
    /// In the order of [`MISSIONS`].
    pub const ALL: [Mission; 3] = [Mission::Skirmish, Mission::PointCapture, Mission::GroundWar];

    /// The book's name, e.g. "Point Capture".
    pub fn title(self) -> &'static str {
        match self {
            Mission::Skirmish => "Skirmish",
            Mission::PointCapture => "Point Capture",
            Mission::GroundWar => "Ground War",
        }
    }

    /// Points per side: the config's `[skirmish] points` (the book's 350) for the Skirmish
    /// and Point Capture, [`GROUND_WAR_POINTS`] for Ground War.
    pub fn points(self, config_points: f64) -> f64 {
        match self {
            Mission::GroundWar => GROUND_WAR_POINTS,
            _ => config_points,
        }
    }

    /// Whether the table has command points.
    pub fn has_command_points(self) -> bool {
        self != Mission::Skirmish
    }
}

/// A command point: where it stands, who holds it, and each side's capture streak.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct CommandPoint {
    pub at: Pos,
    /// The side that captured it last (it stays theirs until the other side captures it).
    pub holder: Option<Side>,
    /// `streak[s]`: side `s`'s own turns in a row that ended with two of its units on the point
    /// and no enemy unit within 6".
    pub streak: [u32; 2],
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum End {
    /// A side had nothing left (on the table or in reserve).
    #[default]
    Destroyed,
    /// A side held every command point at the end of a turn.
    Captured,
    /// The turn cap.
    TurnCap,
}

/// A unit's objective this turn: the command point (index), whether it must get within 6" of
/// it to break an enemy capture, and its place among the units sent there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Goal {
    pub point: usize,
    pub urgent: bool,
    pub slot: u8,
}

impl<'a> Skirmish<'a> {
    /// Plays `mission` from the next set-up on (and puts its command points on the table now).
    pub fn set_mission(&mut self, mission: Mission) {
        self.mission = mission;
        self.reset_command_points();
    }

    /// RULINGS.md, "Missions": 3 command points on the table's centre line at ¼, ½ and ¾ of its
    /// width, held by nobody; none in the Skirmish.
    pub(super) fn reset_command_points(&mut self) {
        self.command_points.clear();
        if self.mission.has_command_points() {
            let (w, d) = (self.table.width, self.table.depth);
            self.command_points.extend(
                (1..=3).map(|k| CommandPoint { at: Pos::new(w * k as f32 / 4.0, d / 2.0), ..Default::default() }),
            );
        }
        for g in &mut self.goals {
            g.clear();
        }
    }

    /// Alive units of side `s` within `radius` inches of command point `k`.
    pub fn units_near(&self, s: Side, k: usize, radius: f32) -> usize {
        let c = self.command_points[k].at;
        self.bt.sides[s].iter().filter(|f| f.alive && c.dist(Pos::new(f.x, f.y)) <= radius + EPS).count()
    }

    /// GnG 1.5, "Types of Games" (Point Capture), as RULINGS.md "Missions" reads it: at the end
    /// of side `s`'s turn, each command point with at least two of its units within 3" and no
    /// enemy unit within 6" adds one to the side's streak there (any other end resets it); a
    /// streak of 3 own turns in a row captures the point, which stays the side's until the
    /// other side captures it. A traced game logs each change of holder ([`super::Trace`]).
    pub fn score_command_points(&mut self, s: Side) {
        let turn = self.turn / 2 + 1;
        for k in 0..self.command_points.len() {
            let held =
                self.units_near(s, k, OCCUPY_RADIUS) >= CAPTURE_UNITS && self.units_near(1 - s, k, CONTEST_RADIUS) == 0;
            let p = &mut self.command_points[k];
            p.streak[s] = if held { p.streak[s] + 1 } else { 0 };
            if p.streak[s] >= CAPTURE_TURNS && p.holder != Some(s) {
                p.holder = Some(s);
                if let Some(t) = &mut self.trace {
                    t.captures.push((k, s, turn));
                }
            }
        }
    }

    /// Command points side `s` holds.
    pub fn points_held(&self, s: Side) -> usize {
        self.command_points.iter().filter(|p| p.holder == Some(s)).count()
    }

    /// Points of side `s`'s units destroyed so far (its dead units' costs).
    pub fn points_lost(&self, s: Side) -> f64 {
        self.bt.sides[s].iter().filter(|f| !f.alive).map(|f| self.r.profile(f.unit as usize).cost).sum()
    }

    /// Whether the game is over at the end of a turn, and how: a side with nothing left loses
    /// (both: a draw); in a mission with command points, a side holding all of them wins
    /// ("Winning": "capture all Command Points ... or kill all the opponents' units").
    pub fn decided(&self) -> Option<(Option<Side>, End)> {
        let (b0, b1) = (self.beaten(0), self.beaten(1));
        if b0 || b1 {
            let winner = match (b0, b1) {
                (true, false) => Some(1),
                (false, true) => Some(0),
                _ => None,
            };
            return Some((winner, End::Destroyed));
        }
        let n = self.command_points.len();
        (0..2).find(|&s| n > 0 && self.points_held(s) == n).map(|s| (Some(s), End::Captured))
    }

    /// The winner at the turn cap (RULINGS.md, "Missions"): in the Skirmish nobody (a draw);
    /// with command points, the side holding more of them, then the side that destroyed more
    /// enemy points, else nobody.
    pub fn winner_at_cap(&self) -> Option<Side> {
        if !self.mission.has_command_points() {
            return None;
        }
        let by = |a: f64, b: f64| {
            if a > b {
                Some(0)
            } else if b > a {
                Some(1)
            } else {
                None
            }
        };
        by(self.points_held(0) as f64, self.points_held(1) as f64)
            .or_else(|| by(self.points_lost(1), self.points_lost(0)))
    }

    /// The tactic's objective rule (module docs), at the start of side `s`'s turn: each
    /// command point asks for 2 units (1 if the side holds it and the enemy has two units that
    /// could capture it, else none), less its immobile units already
    /// on it; pairs of (movable unit, point) are answered nearest first, the points the enemy is
    /// capturing (its streak there at least 1) before all others. A capture that cannot get its
    /// two units (and breaks no enemy capture) is dropped and the answers start again without
    /// it: one unit alone on a point achieves nothing. Units left over get no goal and fight.
    pub(super) fn assign_goals(&mut self, s: Side) {
        let n = self.bt.sides[s].len();
        let points = self.command_points.len();
        // A guard is needed only while the enemy could still capture (two units that move,
        // on the table or in reserve).
        let movers =
            self.bt.sides[1 - s].iter().filter(|f| f.alive && rules::can_move(self.r.profile(f.unit as usize), f));
        let guard = usize::from(movers.count() + self.reserves[1 - s].len() >= CAPTURE_UNITS);
        let mut asked: Vec<usize> =
            self.command_points.iter().map(|p| if p.holder == Some(s) { guard } else { CAPTURE_UNITS }).collect();
        let urgent: Vec<bool> = self.command_points.iter().map(|p| p.streak[1 - s] >= 1).collect();
        let mut pairs: Vec<(f32, usize, usize)> = Vec::new();
        for (i, f) in self.bt.sides[s].iter().enumerate() {
            if !f.alive {
                continue;
            }
            let at = Pos::new(f.x, f.y);
            let movable = rules::can_move(self.profile(s, i), f);
            for k in 0..points {
                let d = at.dist(self.command_points[k].at);
                if !movable {
                    if d <= OCCUPY_RADIUS + EPS {
                        asked[k] = asked[k].saturating_sub(1);
                    }
                    continue;
                }
                pairs.push((d - if urgent[k] { 1000.0 } else { 0.0 }, i, k));
            }
        }
        pairs.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
        loop {
            self.goals[s].clear();
            self.goals[s].resize(n, None);
            let mut demand = asked.clone();
            let mut sent = vec![0u8; points];
            for &(_, i, k) in &pairs {
                if self.goals[s][i].is_none() && demand[k] > 0 {
                    self.goals[s][i] = Some(Goal { point: k, urgent: urgent[k], slot: sent[k] });
                    demand[k] -= 1;
                    sent[k] += 1;
                }
            }
            let short = (0..points)
                .find(|&k| sent[k] > 0 && demand[k] > 0 && !urgent[k] && self.command_points[k].holder != Some(s));
            match short {
                Some(k) => asked[k] = 0,
                None => break,
            }
        }
    }

    /// Unit `i`'s goal this turn, if it has one.
    pub fn goal(&self, s: Side, i: usize) -> Option<Goal> {
        self.goals[s].get(i).copied().flatten()
    }

    /// Where a unit with goal `g` stands on its point: 1.5" toward its own side, the first two
    /// units 1.25" either side of the centre (so one blast rarely catches both).
    pub(super) fn goal_spot(&self, s: Side, g: Goal) -> Pos {
        let c = self.command_points[g.point].at;
        let dx = match g.slot {
            0 => -1.25,
            1 => 1.25,
            _ => 0.0,
        };
        let dy = if s == 0 { -1.5 } else { 1.5 };
        self.table.clamp(Pos::new(c.x + dx, c.y + dy))
    }

    /// Whether unit `i` of side `s` stands on the point of its goal `g`.
    pub(super) fn arrived(&self, s: Side, i: usize, g: Goal) -> bool {
        self.pos(s, i).dist(self.command_points[g.point].at) <= ARRIVED
    }

    /// Where unit `i` (goal `g`) goes this activation and how far: a walk toward its spot when
    /// it can shoot after the walk (and, if `g` is urgent, the walk ends within 6" of the
    /// point); else a rush. `(destination, allowance, shoots)`.
    pub(super) fn objective_move(&self, s: Side, i: usize, g: Goal, may_attack: bool) -> (Pos, f32, bool) {
        let f = self.bt.sides[s][i];
        let (walk, rush) = rules::move_allowance(self.profile(s, i), &f);
        let spot = self.goal_spot(s, g);
        let end = self.move_end(s, i, spot, walk).0;
        let shoots = may_attack && self.best_target_from(s, i, end).is_some();
        let close_enough = !g.urgent || end.dist(self.command_points[g.point].at) <= CONTEST_RADIUS - 0.25;
        if shoots && close_enough { (spot, walk, true) } else { (spot, rush, false) }
    }

    /// One activation of a unit with goal `g` (module docs): hold the point (shoot, else
    /// Hunker if infantry), or move toward it, shooting after a walk.
    pub(super) fn play_objective<D: crate::dice::Dice>(
        &mut self,
        s: Side,
        i: usize,
        g: Goal,
        may_attack: bool,
        dice: &mut D,
    ) {
        let p = self.profile(s, i);
        let can_move = rules::can_move(p, &self.bt.sides[s][i]);
        if self.arrived(s, i, g) || !can_move {
            let at = self.pos(s, i);
            if may_attack && self.best_target_from(s, i, at).is_some() {
                self.fire(s, i, dice);
            } else if p.kind == Kind::Infantry {
                self.st[s][i].hunker = true;
            }
            return;
        }
        let (to, len, shoots) = self.objective_move(s, i, g, may_attack);
        self.move_unit(s, i, to, len, None, dice);
        if shoots && self.bt.sides[s][i].alive {
            self.fire(s, i, dice);
        }
    }
}
