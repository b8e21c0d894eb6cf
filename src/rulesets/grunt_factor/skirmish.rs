//! The Grunt Factor skirmish (issue 5, deliverable 5): a 180 × 120 cm table with soft and hard
//! cover, two forces of squads bought to 200 points, deployment on opposite long edges, a
//! 10-turn cap, and "the side with more points destroyed wins" (equal: a draw). Played on the
//! shared battle engine ([`crate::battle`]) with every model at its own position.
//!
//! Why a module apart from [`super::rules`]: duels stand each squad at one point of a line, so
//! command radius, cover and target priority never bite. Here they do, and every rule step is
//! still the duel's: to hit ([`rules::shot_hit_value`] = [`rules::hit_value`] + cover share
//! and command radius), saves ([`rules::fails_saves`] with [`rules::cover_damage`]), the LD
//! test beyond sighting ([`rules::needs_ld_test`]), Aim ([`rules::aims_at`]), morale triggers
//! ([`rules::losses_trigger_morale`]), recovery ([`rules::spend_together`],
//! [`rules::recovery_test_value`]), the 1/3 rule ([`rules::may_advance`]), the turn roll
//! ([`rules::roll_for_first`]) and close combat ([`rules::cc_value`]). This module adds the
//! table, deployment, movement, cover from terrain, target choice and the victory count.
//!
//! Readings and simplifications (also in the coverage table and the report):
//! - **Terrain**: `cover_min..=cover_max` cover pieces, straight pieces `cover_length` long
//!   parallel to the long edges, each hard (walls, rubble) with probability `hard_share`, else
//!   soft (hedges, fences). They are low: they do not block line of sight, but models move
//!   round them. A shot whose line crosses a piece within `cover_reach` (3 cm) of the target
//!   is at a target *behind cover*: covered 50–75% (−2 RC), more than 75% if the target is
//!   prone (−3 RC; prone −1 as well), and Dam −1 (soft) or −2 (hard). A line crossing a piece
//!   farther from the target (and not right in front of the shooter) hides 25–50% (−1 RC, no
//!   Dam change). Close combat: −1 CC against a target behind cover.
//! - **Forces**: random legal forces — squads of the cost list drawn uniformly among those
//!   that still fit the points, until none fits (squad composition limits are checked when the
//!   config loads). Squads deploy spread along their own long edge, models in a line
//!   `model_spacing` apart with the Sergeant in the middle (closer, for a squad so long it would
//!   reach outside the command radius).
//! - **Victory**: points destroyed = Σ over enemy squads of cost × models killed / models (a
//!   model is worth its share of the squad's price). The game also ends when a side has no
//!   model left.
//! - **Turn**: d20 + highest LD each turn, the higher starts; squads alternate in force order,
//!   a side out of squads lets the other finish; each model of the active squad uses all its
//!   actions, the Sergeant first.
//! - **Tactic `bound`** (default): while the nearest enemy is out of short range (40 cm) and
//!   the squad may advance, the squad moves to the next cover piece toward the enemy (a piece
//!   whose middle is at least `bound_min` nearer the enemy, that no other friendly squad holds
//!   and with no enemy within 10 cm of it, the one nearest to its leader; straight at the
//!   enemy when there is none; a piece beyond one turn's move takes more than one turn),
//!   each model to its own spot along the piece, spending the Move actions it needs; else it
//!   stays, and a model in
//!   the open takes cover within one move when it may. Remaining actions fire, aiming when
//!   (n−1) aimed Fire actions expect more kills than n unaimed ones.
//! - **Tactic `advance`**: each model picks the number of Move actions straight at its
//!   nearest enemy that maximises its expected kills this turn (the duel's rule), and
//!   initiates close combat when an enemy is within one move of base contact.
//! - **Target priority** ("Fire"): a model fires at the nearest enemy model within short range
//!   if there is one; otherwise at the enemy model it expects to kill most (ties: nearest).
//!   Aim is lost when the aimed model dies. A model in base contact fights in close combat.
//! - **Panic**: a panicked squad's models in the open take cover within 6 cm (one action),
//!   and if any cannot, the squad goes prone (one action each); then, with 3 actions spent
//!   together, it tests to recover (−4 if fired on since its last activation, else −2: the
//!   low cover never hides the enemy). Panicked squads do not advance and fight no close combat.
//! - **Morale** is tested after each enemy activation against the squad leader's LD (+1
//!   while the Sergeant leads): more than 25% killed by it, falling below half, the leader
//!   killed, or a friendly squad of originally 5+ annihilated (always in line of sight: the
//!   low cover hides nobody). A dead leader is replaced by the nearest living model.
//! - **Special morale check** (more than 10 hits from one squad): failed → every model falls
//!   back 10 cm straight away from the firing squad's leader.
//! - Not modeled here (see the coverage table): overwatch, suppression, hide, heights, forest
//!   and crest cover, night, specialists without an armory entry.

use serde::{Deserialize, Serialize};

use crate::analysis::UnitInfo;
use crate::battle::replay::{Replay, ReplayUnit};
use crate::battle::{Pos, Table, TerrainPlan, deployment_band};
use crate::dice::Dice;
use crate::rulesets::Side;
use crate::rulesets::gng::skirmish::{GameRecord, SkirmishTally};
use crate::rulesets::grunt_factor::rules::{
    self, Aiming, CoverKind, CoverShare, FALL_BACK, MAX_MODELS, SPECIAL_CHECK_HITS, Shot, roll_under,
};
use crate::rulesets::grunt_factor::{GruntFactor, SquadProfile};

/// Distances closer than this count as equal (cm).
const EPS: f32 = 1e-3;
/// "Panic": a panicked squad seeks cover within 6 cm.
pub const PANIC_COVER_REACH: f32 = 6.0;
/// The `bound` tactic does not run to a cover piece with an enemy model this close to it (cm).
pub const ENEMY_HELD: f32 = 10.0;

/// The `[skirmish]` table of the config. Every key has a default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SkirmishConfig {
    /// Table size, cm (180 × 120); the long edges are the deployment edges.
    pub table_width: f64,
    pub table_depth: f64,
    /// Points per force (200).
    pub points: f64,
    /// Cover pieces placed from the seed: uniformly `cover_min..=cover_max`, each
    /// `cover_length` cm long, hard with probability `hard_share`.
    pub cover_min: u32,
    pub cover_max: u32,
    pub cover_length: f64,
    pub hard_share: f64,
    /// A crossed cover piece within this of the target puts it behind cover (cm).
    pub cover_reach: f64,
    /// Deployment zone depth from the own long edge (cm).
    pub deploy_depth: f64,
    /// Models of a squad deploy in a line this far apart (cm).
    pub model_spacing: f64,
    /// Centre-to-centre distance of models in base contact (cm).
    pub base_contact: f64,
    /// A bound must bring the squad at least this much closer to the enemy (cm).
    pub bound_min: f64,
    /// Game turns (10).
    pub max_turns: u32,
    /// Games per `pointsworth skirmish` run (`--trials`), per tactic in the report (0 leaves
    /// the section out), and per batch of the deterministic engine.
    pub trials: u64,
    pub report_trials: u64,
    pub batch_size: u32,
}

impl Default for SkirmishConfig {
    fn default() -> Self {
        SkirmishConfig {
            table_width: 180.0,
            table_depth: 120.0,
            points: 200.0,
            cover_min: 8,
            cover_max: 12,
            cover_length: 20.0,
            hard_share: 0.5,
            cover_reach: 3.0,
            deploy_depth: 15.0,
            model_spacing: 4.0,
            base_contact: 2.5,
            bound_min: 10.0,
            max_turns: 10,
            trials: 4000,
            report_trials: 20000,
            batch_size: 20,
        }
    }
}

impl SkirmishConfig {
    /// Checks ranges; on error returns the key and the message (the caller adds the place).
    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        let c = self;
        let checks: [(bool, &'static str, String); 16] = [
            (
                c.table_width >= 30.0 && c.table_width <= 1000.0,
                "table_width",
                format!("30..1000 cm, got {}", c.table_width),
            ),
            (
                c.table_depth >= 30.0 && c.table_depth <= 1000.0,
                "table_depth",
                format!("30..1000 cm, got {}", c.table_depth),
            ),
            (c.points >= 1.0 && c.points <= 100_000.0, "points", format!("1..100000, got {}", c.points)),
            (c.cover_min <= 100, "cover_min", format!("0..100 and at most cover_max, got {}", c.cover_min)),
            (
                c.cover_min <= c.cover_max && c.cover_max <= 100,
                "cover_max",
                format!("cover_min..100, got {}..{}", c.cover_min, c.cover_max),
            ),
            (
                c.cover_length > 0.0 && c.cover_length <= 200.0,
                "cover_length",
                format!("0..200 cm, got {}", c.cover_length),
            ),
            ((0.0..=1.0).contains(&c.hard_share), "hard_share", format!("0..1, got {}", c.hard_share)),
            ((0.0..=50.0).contains(&c.cover_reach), "cover_reach", format!("0..50 cm, got {}", c.cover_reach)),
            (
                c.deploy_depth > 0.0 && 2.0 * c.deploy_depth < c.table_depth,
                "deploy_depth",
                format!("more than 0 and less than half of table_depth, got {}", c.deploy_depth),
            ),
            (
                c.model_spacing > 0.0 && c.model_spacing <= 18.0,
                "model_spacing",
                format!("0..18 cm, got {}", c.model_spacing),
            ),
            (
                c.base_contact > 0.0 && c.base_contact <= 10.0,
                "base_contact",
                format!("0..10 cm, got {}", c.base_contact),
            ),
            ((0.0..=100.0).contains(&c.bound_min), "bound_min", format!("0..100 cm, got {}", c.bound_min)),
            ((1..=100).contains(&c.max_turns), "max_turns", format!("1..100, got {}", c.max_turns)),
            ((1..=10_000_000).contains(&c.trials), "trials", format!("1..10000000, got {}", c.trials)),
            (c.report_trials <= 10_000_000, "report_trials", format!("0..10000000, got {}", c.report_trials)),
            ((1..=100_000).contains(&c.batch_size), "batch_size", format!("1..100000, got {}", c.batch_size)),
        ];
        for (ok, key, msg) in checks {
            if !ok {
                return Err((key, format!("[skirmish] {key} must be {msg}")));
            }
        }
        Ok(())
    }
}

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

/// A force: squad indices into the cost list, in force (activation) order.
pub type Force = Vec<usize>;

/// A random legal force: squads drawn uniformly among those that still fit `points`, until
/// none fits.
pub fn random_force<D: Dice>(r: &GruntFactor, points: f64, dice: &mut D) -> Force {
    let mut left = points;
    let mut force = Vec::new();
    let mut fits = Vec::with_capacity(r.units.len());
    loop {
        fits.clear();
        fits.extend((0..r.units.len()).filter(|&u| r.units[u].cost <= left + 1e-9));
        if fits.is_empty() {
            return force;
        }
        let u = fits[dice.below(fits.len())];
        left -= r.units[u].cost;
        force.push(u);
    }
}

/// "2 × Elite Rifles, Regular HMG".
pub fn describe(units: &[UnitInfo], force: &[usize]) -> String {
    let mut counts: Vec<(usize, u32)> = Vec::new();
    for &u in force {
        match counts.iter_mut().find(|c| c.0 == u) {
            Some(c) => c.1 += 1,
            None => counts.push((u, 1)),
        }
    }
    counts
        .iter()
        .map(|&(u, n)| if n == 1 { units[u].name.clone() } else { format!("{n} × {}", units[u].name) })
        .collect::<Vec<_>>()
        .join(", ")
}

/// One model on the table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Model {
    /// Slot in the squad profile (0: the Sergeant; its weapon is `weapons[slot]`).
    pub slot: u8,
    pub pos: Pos,
    pub alive: bool,
}

/// One squad on the table.
#[derive(Debug, Clone, PartialEq)]
pub struct SquadState {
    /// Index into the cost list.
    pub unit: usize,
    pub models: Vec<Model>,
    /// Index into `models` of the squad leader.
    pub leader: usize,
    /// Whether the Sergeant (the CO, +1 LD) still leads.
    pub sergeant_leads: bool,
    pub panicked: bool,
    pub prone: bool,
    /// Fired on since its last activation.
    pub fired_on: bool,
    pub activated: bool,
}

impl SquadState {
    /// Living models.
    pub fn alive(&self) -> u8 {
        self.models.iter().filter(|m| m.alive).count() as u8
    }
    /// Position of the squad leader (the last one, if the squad is gone).
    pub fn leader_pos(&self) -> Pos {
        self.models[self.leader].pos
    }
}

/// What the game came to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SkirmishOutcome {
    /// `None`: equal points destroyed.
    pub winner: Option<Side>,
    pub turns: u32,
    /// Enemy points each side destroyed.
    pub destroyed: [f64; 2],
}

/// Per side, per squad, per model: its positions (deployment, then after each move) and the
/// game turn it died in.
pub type Trace = [Vec<Vec<(Vec<Pos>, Option<u32>)>>; 2];

/// Per enemy squad, during one activation: models and leader at its start, hits taken.
#[derive(Debug, Clone, Copy, Default)]
struct Hit {
    before: u8,
    leader_killed: bool,
    hits: u8,
}

/// A skirmish in progress; reused across games.
#[derive(Debug, Clone)]
pub struct Skirmish<'a> {
    pub r: &'a GruntFactor,
    pub cfg: &'a SkirmishConfig,
    pub tactic: Tactic,
    pub table: Table,
    /// Kind of each cover piece (same order as `table.walls`).
    pub cover: Vec<CoverKind>,
    pub sides: [Vec<SquadState>; 2],
    pub turn: u32,
    /// Enemy points each side has destroyed.
    pub destroyed: [f64; 2],
    /// Squads annihilated: (killer's unit, victim's unit).
    pub kills: Vec<(usize, usize)>,
    pub trace: Option<Trace>,
    scratch: Vec<Hit>,
}

impl<'a> Skirmish<'a> {
    /// An empty table and no squads.
    pub fn new(r: &'a GruntFactor, cfg: &'a SkirmishConfig, tactic: Tactic) -> Self {
        Skirmish {
            r,
            cfg,
            tactic,
            table: Table::new(cfg.table_width as f32, cfg.table_depth as f32),
            cover: Vec::new(),
            sides: [Vec::new(), Vec::new()],
            turn: 0,
            destroyed: [0.0; 2],
            kills: Vec::new(),
            trace: None,
            scratch: Vec::new(),
        }
    }

    fn profile(&self, s: Side, i: usize) -> &'a SquadProfile {
        self.r.profile(self.sides[s][i].unit)
    }

    /// Places the cover pieces from `dice`, outside the deployment zones.
    pub fn place_terrain<D: Dice>(&mut self, dice: &mut D) {
        let c = self.cfg;
        let extra = c.cover_max - c.cover_min;
        let pieces = c.cover_min + dice.below(extra as usize + 1) as u32;
        let plan = TerrainPlan {
            cover_pieces: pieces,
            cover_length: c.cover_length as f32,
            rough_areas: 0,
            dangerous_areas: 0,
            area_radius: 1.0,
            keep_out: c.deploy_depth as f32,
        };
        self.table.place_terrain(&plan, dice);
        self.cover.clear();
        for _ in 0..pieces {
            self.cover.push(if dice.unit_f64() < c.hard_share { CoverKind::Hard } else { CoverKind::Soft });
        }
    }

    /// Deploys both forces: side 0 along y = 0, side 1 along y = depth; squads spread evenly
    /// along the edge in force order, models in a line with the Sergeant in the middle.
    pub fn deploy(&mut self, forces: [&[usize]; 2]) {
        self.turn = 0;
        self.destroyed = [0.0; 2];
        self.kills.clear();
        for (s, force) in forces.into_iter().enumerate() {
            let (lo, hi) = deployment_band(&self.table, s, self.cfg.deploy_depth as f32);
            let y = if s == 0 { lo + 0.25 * (hi - lo) } else { hi - 0.25 * (hi - lo) };
            self.sides[s].clear();
            let n = force.len().max(1) as f32;
            for (k, &u) in force.iter().enumerate() {
                let cx = self.table.width * (k as f32 + 0.5) / n;
                let size = self.r.profile(u).size() as usize;
                // Closer than `model_spacing` when a long squad would otherwise stand partly
                // outside the command radius of its Sergeant in the middle.
                let reach = (size.saturating_sub(1)).div_ceil(2).max(1) as f32;
                let sp = (self.cfg.model_spacing as f32).min(self.r.rules.command_radius as f32 / reach);
                let models = (0..size)
                    .map(|m| {
                        // 0, −1, +1, −2, +2, ... spacings from the centre.
                        let off = if m == 0 {
                            0.0
                        } else if m % 2 == 1 {
                            -(m.div_ceil(2) as f32)
                        } else {
                            (m / 2) as f32
                        };
                        Model { slot: m as u8, pos: self.table.clamp(Pos::new(cx + off * sp, y)), alive: true }
                    })
                    .collect();
                self.sides[s].push(SquadState {
                    unit: u,
                    models,
                    leader: 0,
                    sergeant_leads: true,
                    panicked: false,
                    prone: false,
                    fired_on: false,
                    activated: false,
                });
            }
        }
        if let Some(t) = &mut self.trace {
            for s in 0..2 {
                t[s] = self.sides[s].iter().map(|q| q.models.iter().map(|m| (vec![m.pos], None)).collect()).collect();
            }
        }
    }

    /// "To hit modifiers", "Damage modifiers", read for cover pieces (module docs): the share
    /// of a target at `at` hidden from a shooter at `from`, and the cover it is behind.
    pub fn cover_of(&self, from: Pos, at: Pos, target_prone: bool) -> (CoverShare, Option<CoverKind>) {
        let reach = self.cfg.cover_reach as f32 + EPS;
        let (mut share, mut behind) = (CoverShare::Open, None);
        for (w, kind) in self.table.walls.iter().zip(&self.cover) {
            if !w.intact || !w.crosses(from, at) {
                continue;
            }
            if w.dist_to(at) <= reach {
                share = share.max(if target_prone { CoverShare::Most } else { CoverShare::Half });
                behind = behind.max(Some(*kind));
            } else if w.dist_to(from) > reach {
                share = share.max(CoverShare::Quarter);
            }
        }
        (share, behind)
    }

    /// Whether a model at `p` is behind cover against an enemy at `enemy`.
    fn in_cover(&self, p: Pos, enemy: Pos) -> bool {
        self.cover_of(enemy, p, false).1.is_some()
    }

    /// "Command radius": whether model `k` of squad (s, i) is more than 18 cm from its leader.
    pub fn outside_radius(&self, s: Side, i: usize, k: usize) -> bool {
        let q = &self.sides[s][i];
        q.models[k].pos.dist(q.leader_pos()) > self.r.rules.command_radius as f32 + EPS
    }

    /// The LD a model tests with: the squad leader's, or its own halved outside command radius
    /// ("Command radius": "must use his own halved LD").
    pub fn model_ld(&self, s: Side, i: usize, k: usize) -> i8 {
        let p = self.profile(s, i);
        if self.outside_radius(s, i, k) {
            rules::outside_command_radius(p.ld)
        } else {
            rules::squad_leader_ld(p, self.sides[s][i].sergeant_leads)
        }
    }

    /// The highest LD among side `s`'s squad leaders ("Turn sequence").
    pub fn highest_ld(&self, s: Side) -> i8 {
        (0..self.sides[s].len())
            .filter(|&i| self.sides[s][i].alive() > 0)
            .map(|i| rules::squad_leader_ld(self.profile(s, i), self.sides[s][i].sergeant_leads))
            .max()
            .unwrap_or(0)
    }

    /// Living enemy models of side `s`: (squad, model, position).
    fn enemies(&self, s: Side) -> impl Iterator<Item = (usize, usize, Pos)> + '_ {
        self.sides[1 - s]
            .iter()
            .enumerate()
            .flat_map(|(j, q)| q.models.iter().enumerate().filter(|(_, m)| m.alive).map(move |(l, m)| (j, l, m.pos)))
    }

    /// The nearest living enemy model of side `s` to `p`: (squad, model, distance).
    pub fn nearest_enemy(&self, s: Side, p: Pos) -> Option<(usize, usize, f32)> {
        let mut best: Option<(usize, usize, f32)> = None;
        for (j, l, q) in self.enemies(s) {
            let d = p.dist(q);
            if best.is_none_or(|b| d < b.2) {
                best = Some((j, l, d));
            }
        }
        best
    }

    /// The situation of a shot by model `k` of (s, i) at enemy model (j, l).
    fn shot(&self, s: Side, i: usize, k: usize, j: usize, l: usize) -> Shot {
        let from = self.sides[s][i].models[k].pos;
        let t = &self.sides[1 - s][j];
        let (cover, behind) = self.cover_of(from, t.models[l].pos, t.prone);
        Shot { outside_radius: self.outside_radius(s, i, k), cover, behind }
    }

    fn aiming(&self, s: Side, i: usize, k: usize, j: usize) -> Aiming<'a> {
        let t = &self.sides[1 - s][j];
        Aiming {
            target: self.r.profile(t.unit),
            target_prone: t.prone,
            panicked: self.sides[s][i].panicked,
            ld: self.model_ld(s, i, k),
        }
    }

    /// Expected kills of one Fire action of model `k` of (s, i) at enemy model (j, l).
    fn fire_value(&self, s: Side, i: usize, k: usize, j: usize, l: usize, aimed: bool) -> f64 {
        let p = self.profile(s, i);
        let m = &self.sides[s][i].models[k];
        let d = m.pos.dist(self.sides[1 - s][j].models[l].pos) as f64;
        let shot = self.shot(s, i, k, j, l);
        rules::shot_action_value(self.r, p, m.slot as usize, d, aimed, &self.aiming(s, i, k, j), &shot)
    }

    /// "Fire", target priority: the nearest enemy model within short range if there is one,
    /// else the enemy model with the highest expected kills per Fire action (ties: nearest);
    /// `None` when nothing can be hit.
    pub fn choose_target(&self, s: Side, i: usize, k: usize) -> Option<(usize, usize)> {
        let me = self.sides[s][i].models[k].pos;
        let short = self.r.rules.bands[1] as f32 + EPS;
        if let Some((j, l, d)) = self.nearest_enemy(s, me)
            && d <= short
        {
            return Some((j, l));
        }
        let mut best: Option<(f64, f32, usize, usize)> = None;
        for (j, l, q) in self.enemies(s) {
            let v = self.fire_value(s, i, k, j, l, false);
            let d = me.dist(q);
            if v > 0.0 && best.is_none_or(|b| v > b.0 + 1e-12 || ((v - b.0).abs() <= 1e-12 && d < b.1)) {
                best = Some((v, d, j, l));
            }
        }
        best.map(|b| (b.2, b.3))
    }

    /// Moves model `k` of (s, i) up to `len` toward `to`, round cover pieces, and traces it.
    fn move_model(&mut self, s: Side, i: usize, k: usize, to: Pos, len: f32) {
        let from = self.sides[s][i].models[k].pos;
        let (end, corner) = self.table.move_path(from, to, len);
        self.sides[s][i].models[k].pos = end;
        if let Some(t) = &mut self.trace {
            if let Some(c) = corner {
                t[s][i][k].0.push(c);
            }
            t[s][i][k].0.push(end);
        }
    }

    /// Spends Move actions of model `k` to reach `to`: as many as it needs, at most
    /// `actions[k]`. A squad still prone (one that may not advance does not stand up) crawls
    /// at 1/3 MV ("Go prone/stand": "While prone the soldiers movement is reduced to 1/3").
    fn walk(&mut self, s: Side, i: usize, k: usize, to: Pos, actions: &mut [u8]) {
        let full = self.profile(s, i).mv as f32;
        let mv = if self.sides[s][i].prone { full / 3.0 } else { full };
        let mut need = (self.sides[s][i].models[k].pos.dist(to) / mv - EPS).ceil().max(0.0) as u8;
        need = need.min(actions[k]);
        if need == 0 {
            return;
        }
        actions[k] -= need;
        self.move_model(s, i, k, to, need as f32 * mv);
    }

    /// The spot behind cover piece `w` at fraction `t`, seen from `enemy`.
    fn spot(&self, w: usize, t: f32, enemy: Pos) -> Pos {
        self.table.clamp(self.table.walls[w].spot_behind(t, 1.0, enemy))
    }

    /// The tactic's moves for squad (s, i) (module docs).
    fn move_squad(&mut self, s: Side, i: usize, actions: &mut [u8]) {
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
        let short = self.r.rules.bands[1] as f32;
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
            if let Some(to) = self.cover_spot(me, enemy, reach, !may_advance, de) {
                self.walk(s, i, k, to, actions);
            }
        }
    }

    /// The nearest spot behind cover against `enemy` within `reach` of `me` (not nearer the
    /// enemy than `de` when `no_closer`), if any.
    fn cover_spot(&self, me: Pos, enemy: Pos, reach: f32, no_closer: bool, de: f32) -> Option<Pos> {
        let mut best: Option<(f32, Pos)> = None;
        for w in 0..self.table.walls.len() {
            if !self.table.walls[w].intact {
                continue;
            }
            for t in [0.1, 0.3, 0.5, 0.7, 0.9] {
                let spot = self.spot(w, t, enemy);
                let dd = me.dist(spot);
                if dd <= reach + EPS
                    && (!no_closer || spot.dist(enemy) >= de - EPS)
                    && self.table.wall_across(me, spot).is_none()
                    && best.is_none_or(|b| dd < b.0)
                {
                    best = Some((dd, spot));
                }
            }
        }
        best.map(|b| b.1)
    }

    /// Tactic `advance` for model `k`: into base contact if the nearest enemy is within one
    /// move of it ("Initiate close combat"), else the number of Move actions straight at the
    /// nearest enemy with the highest expected kills this turn (none if it is 0: move all).
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
        if d <= mv + contact {
            actions[k] -= 1;
            self.move_model(s, i, k, enemy, d - contact + EPS / 2.0);
            return;
        }
        let t = self.aiming(s, i, k, j);
        let shot = self.shot(s, i, k, j, l);
        let (mut best, mut best_m) = (-1.0, 0u8);
        for m in 0..=n {
            let nd = (d - m as f32 * mv).max(contact + 1.0) as f64;
            let left = n - m;
            let slot = self.sides[s][i].models[k].slot as usize;
            let v = if rules::aims_at(self.r, p, slot, nd, left, &t, &shot) {
                (left - 1) as f64 * rules::shot_action_value(self.r, p, slot, nd, true, &t, &shot)
            } else {
                left as f64 * rules::shot_action_value(self.r, p, slot, nd, false, &t, &shot)
            };
            if v > best + 1e-12 {
                (best, best_m) = (v, m);
            }
        }
        if best <= 0.0 {
            best_m = n;
        }
        if best_m > 0 {
            actions[k] -= best_m;
            let len = (best_m as f32 * mv).min(d - contact - 1.0).max(0.0);
            self.move_model(s, i, k, enemy, len);
        }
    }

    /// "Panic" for squad (s, i) at the start of its activation: models in the open take cover
    /// within 6 cm, else the squad goes prone; then the recovery test with 3 actions spent
    /// together ("Recovering from panic").
    fn panic_step<D: Dice>(&mut self, s: Side, i: usize, actions: &mut [u8], dice: &mut D) {
        let living: Vec<usize> =
            (0..self.sides[s][i].models.len()).filter(|&k| self.sides[s][i].models[k].alive).collect();
        let mut exposed = false;
        for &k in &living {
            let me = self.sides[s][i].models[k].pos;
            let Some((j, l, de)) = self.nearest_enemy(s, me) else { break };
            let enemy = self.sides[1 - s][j].models[l].pos;
            if self.in_cover(me, enemy) {
                continue;
            }
            match self.cover_spot(me, enemy, PANIC_COVER_REACH, true, de) {
                Some(to) if actions[k] > 0 => self.walk(s, i, k, to, actions),
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
        let q = &self.sides[s][i];
        let ld = rules::squad_leader_ld(self.profile(s, i), q.sergeant_leads);
        if rules::spend_together(&mut acts, self.r.rules.recovery_actions)
            && roll_under(dice, rules::recovery_test_value(self.r, ld, q.fired_on))
        {
            self.sides[s][i].panicked = false;
        }
        for (a, &k) in acts.iter().zip(&living) {
            actions[k] = *a;
        }
    }

    /// Removes enemy model (j, l) of side `s`'s victim side; replaces a dead leader ("Squad
    /// leader bites the dust": the nearest model, without the CO bonus); counts points and
    /// annihilated squads.
    fn kill(&mut self, s: Side, i: usize, j: usize, l: usize) {
        let e = 1 - s;
        let r = self.r;
        let t = &mut self.sides[e][j];
        t.models[l].alive = false;
        let p = r.profile(t.unit);
        self.destroyed[s] += p.cost / p.size() as f64;
        if let Some(tr) = &mut self.trace {
            tr[e][j][l].1.get_or_insert(self.turn);
        }
        if l == t.leader {
            self.scratch[j].leader_killed = true;
            let at = t.models[l].pos;
            if let Some(k) = (0..t.models.len())
                .filter(|&k| t.models[k].alive)
                .min_by(|&a, &b| t.models[a].pos.dist(at).total_cmp(&t.models[b].pos.dist(at)))
            {
                t.leader = k;
                t.sergeant_leads = false;
            }
        }
        if t.alive() == 0 {
            let victim = t.unit;
            self.kills.push((self.sides[s][i].unit, victim));
        }
    }

    /// One close-combat attack of model `k` of (s, i) at enemy model (j, l) in base contact
    /// ("Close combat"): d20 ≤ [`rules::cc_value`], then saves against the weapon's CC Dam.
    fn close_combat<D: Dice>(&mut self, s: Side, i: usize, k: usize, j: usize, l: usize, dice: &mut D) {
        let p = self.profile(s, i);
        let q = &self.sides[s][i];
        let w = self.r.weapons[p.weapons[q.models[k].slot as usize] as usize].bands[0];
        if !w.usable() {
            return;
        }
        let at = self.sides[1 - s][j].models[l].pos;
        let contact = self.cfg.base_contact as f32 + EPS;
        let friends =
            q.models.iter().enumerate().filter(|&(x, m)| x != k && m.alive && m.pos.dist(at) <= contact).count() as u8;
        let t = &self.sides[1 - s][j];
        let behind = self.cover_of(q.models[k].pos, at, t.prone).1.is_some();
        let v = rules::cc_value(
            p.cc,
            q.panicked,
            self.outside_radius(s, i, k),
            w.hit.unwrap_or(0),
            t.prone,
            behind,
            friends,
        );
        let tp = self.r.profile(t.unit);
        self.sides[1 - s][j].fired_on = true;
        if roll_under(dice, v) {
            self.scratch[j].hits = self.scratch[j].hits.saturating_add(1);
            if rules::fails_saves(dice, tp.a, w.damage.unwrap_or(0), w.saves) {
                self.kill(s, i, j, l);
            }
        }
    }

    /// One Fire action of model `k` of (s, i) at enemy model (j, l) ("Fire", "To hit your
    /// target", "To damage your target"): the LD test beyond sighting, then each `(xN)` shot;
    /// shots after the target dies go to a new target (target priority), without the aim.
    fn fire<D: Dice>(&mut self, s: Side, i: usize, k: usize, j: usize, l: usize, aimed: bool, dice: &mut D) {
        let p = self.profile(s, i);
        let slot = self.sides[s][i].models[k].slot as usize;
        let me = self.sides[s][i].models[k].pos;
        let d = me.dist(self.sides[1 - s][j].models[l].pos) as f64;
        if rules::needs_ld_test(self.r, d) && !roll_under(dice, self.model_ld(s, i, k)) {
            return;
        }
        let Some(b) = rules::band(self.r, d) else { return };
        let shots = self.r.weapons[p.weapons[slot] as usize].bands[b].shots;
        let (mut tj, mut tl, mut bonus) = (j, l, aimed);
        for _ in 0..shots {
            if !self.sides[1 - s][tj].models[tl].alive {
                match self.choose_target(s, i, k) {
                    Some((a, b)) => (tj, tl, bonus) = (a, b, false),
                    None => break,
                }
                // A new target beyond normal sighting needs its own LD test ("Fire").
                let d = me.dist(self.sides[1 - s][tj].models[tl].pos) as f64;
                if rules::needs_ld_test(self.r, d) && !roll_under(dice, self.model_ld(s, i, k)) {
                    break;
                }
            }
            let t = &self.sides[1 - s][tj];
            let d = me.dist(t.models[tl].pos) as f64;
            let Some(b) = rules::band(self.r, d) else { break };
            let w = self.r.weapons[p.weapons[slot] as usize].bands[b];
            if !w.usable() {
                break;
            }
            let shot = self.shot(s, i, k, tj, tl);
            let v = rules::shot_hit_value(p.rc, self.sides[s][i].panicked, &shot, w.hit.unwrap_or(0), bonus, t.prone);
            let armour = self.r.profile(t.unit).a;
            self.sides[1 - s][tj].fired_on = true;
            if roll_under(dice, v) {
                self.scratch[tj].hits = self.scratch[tj].hits.saturating_add(1);
                if rules::fails_saves(dice, armour, rules::cover_damage(w.damage.unwrap_or(0), shot.behind), w.saves) {
                    self.kill(s, i, tj, tl);
                }
            }
        }
    }

    /// Model `k` of (s, i) uses its `n` remaining actions: close combat against an enemy in
    /// base contact (not when panicked), else Fire, aiming first when that raises expected
    /// kills ([`rules::aims_at`]); a dead target is replaced and the aim lost.
    fn attack<D: Dice>(&mut self, s: Side, i: usize, k: usize, n: u8, dice: &mut D) {
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

    /// Morale checks of side `s`'s enemies after squad (s, i)'s activation.
    fn morale<D: Dice>(&mut self, s: Side, i: usize, dice: &mut D) {
        let e = 1 - s;
        let n = self.sides[e].len();
        let mut due = vec![false; n];
        for j in 0..n {
            let t = &self.sides[e][j];
            let size = self.r.profile(t.unit).size();
            let h = self.scratch[j];
            due[j] |= rules::losses_trigger_morale(self.r, size, h.before, t.alive()) || h.leader_killed;
            // "a friendly squad (with originally at least 5 soldiers in it) in LOS is annihilated".
            if t.alive() == 0 && h.before > 0 && size >= 5 {
                for (x, d) in due.iter_mut().enumerate() {
                    *d |= x != j;
                }
            }
        }
        let from = self.sides[s][i].leader_pos();
        for j in 0..n {
            let t = &self.sides[e][j];
            if t.alive() == 0 {
                continue;
            }
            let ld = rules::squad_leader_ld(self.r.profile(t.unit), t.sergeant_leads);
            if due[j] && !t.panicked && !roll_under(dice, ld) {
                self.sides[e][j].panicked = true;
            }
            if self.scratch[j].hits > SPECIAL_CHECK_HITS && !roll_under(dice, ld) {
                for l in 0..self.sides[e][j].models.len() {
                    let m = self.sides[e][j].models[l];
                    if m.alive {
                        // Straight away from the firing leader, FALL_BACK cm however near it is.
                        let (dx, dy) = (m.pos.x - from.x, m.pos.y - from.y);
                        let len = (dx * dx + dy * dy).sqrt();
                        let (ux, uy) =
                            if len > EPS { (dx / len, dy / len) } else { (0.0, if e == 0 { -1.0 } else { 1.0 }) };
                        let fall = FALL_BACK as f32;
                        let away = Pos::new(m.pos.x + ux * fall, m.pos.y + uy * fall);
                        self.move_model(e, j, l, away, FALL_BACK as f32);
                    }
                }
            }
        }
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

/// Adds a finished game to a tally (per squad of the cost list; records count differences for
/// value in army when `keep_record`).
pub fn record(t: &mut SkirmishTally, g: &Skirmish, out: &SkirmishOutcome, keep_record: bool) {
    let n = g.r.units.len();
    if t.fielded.is_empty() {
        t.fielded = vec![0; n];
        t.survivors = vec![0; n];
        t.kills = vec![0; n * n];
    }
    t.games += 1;
    match out.winner {
        Some(w) => t.wins[w] += 1,
        None => t.draws += 1,
    }
    t.turns += out.turns as u64;
    let mut diff = vec![0i8; n];
    for (s, side) in g.sides.iter().enumerate() {
        for q in side {
            t.fielded[q.unit] += 1;
            t.survivors[q.unit] += (q.alive() > 0) as u64;
            diff[q.unit] = diff[q.unit].saturating_add(if s == 0 { 1 } else { -1 });
        }
    }
    for &(k, v) in &g.kills {
        t.kills[k * n + v] += 1;
    }
    if keep_record {
        let result = match out.winner {
            Some(0) => 0,
            Some(_) => 1,
            None => 2,
        };
        t.records.push(GameRecord { diff, result });
    }
}

/// Fixed forces, or fresh random legal ones every game.
#[derive(Debug, Clone, PartialEq)]
pub enum Forces {
    Random,
    Fixed(Box<[Force; 2]>),
}

/// Sets up one game: terrain, forces (random ones drawn from `dice`), deployment.
pub fn set_up<D: Dice>(g: &mut Skirmish, forces: &Forces, dice: &mut D) -> [Force; 2] {
    g.place_terrain(dice);
    let pair = match forces {
        Forces::Random => [random_force(g.r, g.cfg.points, dice), random_force(g.r, g.cfg.points, dice)],
        Forces::Fixed(x) => [x[0].clone(), x[1].clone()],
    };
    g.deploy([&pair[0], &pair[1]]);
    pair
}

/// Plays `trials` skirmishes on the deterministic engine ([`crate::sim::run`]): batch `k` uses
/// dice seeded from (seed, stream, k), so the tally is identical on any thread count.
pub fn simulate(
    r: &GruntFactor,
    forces: &Forces,
    tactic: Tactic,
    seed: u64,
    trials: u64,
    progress: &indicatif::ProgressBar,
) -> SkirmishTally {
    let cfg = &r.skirmish;
    let plan = crate::sim::RunPlan::fixed(seed, trials, cfg.batch_size);
    let stream = crate::sim::stream_id(&["grunt-factor", "skirmish", tactic.name()]);
    let random = matches!(forces, Forces::Random);
    crate::sim::run(
        &plan,
        stream,
        |dice, _first, n, tally: &mut SkirmishTally| {
            let mut g = Skirmish::new(r, cfg, tactic);
            for _ in 0..n {
                set_up(&mut g, forces, dice);
                let out = g.play(dice);
                record(tally, &g, &out, random);
            }
            progress.inc(n as u64);
        },
        |_| 0.0,
    )
}

/// The replay picture is drawn at this many cm per picture unit (the picture code is scaled
/// for inch tables).
pub const REPLAY_CM_PER_UNIT: f32 = 2.5;

/// Plays one seeded game with a trace; returns the replay picture and the outcome.
pub fn traced_game(r: &GruntFactor, forces: &Forces, tactic: Tactic, seed: u64) -> (Replay, SkirmishOutcome) {
    let stream = crate::sim::stream_id(&["grunt-factor", "skirmish", "replay"]);
    let mut dice = crate::dice::FastDice::from_seed(crate::sim::batch_seed(seed, stream, 0));
    let mut g = Skirmish::new(r, &r.skirmish, tactic);
    g.trace = Some([Vec::new(), Vec::new()]);
    let pair = set_up(&mut g, forces, &mut dice);
    let out = g.play(&mut dice);
    (replay_of(&g, &out, &pair), out)
}

/// The replay picture of a traced game: one path per model, the squad's initials at the
/// Sergeant; hard cover solid brown, soft cover grey dashes (its own legend says so).
pub fn replay_of(g: &Skirmish, out: &SkirmishOutcome, pair: &[Force; 2]) -> Replay {
    let trace = g.trace.as_ref().expect("a traced game");
    let k = REPLAY_CM_PER_UNIT;
    let sc = |p: Pos| Pos::new(p.x / k, p.y / k);
    let mut units = Vec::new();
    for (s, side) in trace.iter().enumerate() {
        for (i, squad) in side.iter().enumerate() {
            let q = &g.sides[s][i];
            let initials = crate::rulesets::gng::skirmish::short_label(&g.r.units[q.unit].name);
            for (m, (path, died)) in squad.iter().enumerate() {
                let label = if m == 0 {
                    format!("{initials}{}{}", i + 1, if q.panicked && q.alive() > 0 { "!" } else { "" })
                } else {
                    String::new()
                };
                units.push(ReplayUnit { side: s, label, path: path.iter().map(|&p| sc(p)).collect(), died: *died });
            }
        }
    }
    let mut table = Table::new(g.table.width / k, g.table.depth / k);
    for (w, kind) in g.table.walls.iter().zip(&g.cover) {
        // Soft cover is drawn dashed (the picture's "destroyed" style, relabelled in the legend).
        table.walls.push(crate::battle::Wall { a: sc(w.a), b: sc(w.b), intact: *kind == CoverKind::Hard });
    }
    let result = match out.winner {
        Some(w) => format!("side {} wins", ["A (blue)", "B (red)"][w]),
        None => "draw".to_string(),
    };
    Replay {
        title: format!("The Grunt Factor — Skirmish ({} tactic)", g.tactic.name()),
        notes: vec![
            format!("A: {} / B: {}", describe(&g.r.units, &pair[0]), describe(&g.r.units, &pair[1])),
            format!(
                "{result}: points destroyed {:.1} – {:.1} after {} turns; ! = panicked at the end",
                out.destroyed[0], out.destroyed[1], out.turns
            ),
            format!(
                "{:.0} × {:.0} cm drawn at {k} cm per unit; one path per model, squad initials and number at the Sergeant",
                g.cfg.table_width, g.cfg.table_depth
            ),
        ],
        table,
        deploy_depth: g.cfg.deploy_depth as f32 / k,
        units,
        legend: Some(
            "○ entered · ● alive at the end · ✕ destroyed (tN = game turn) · brown bars: hard cover · grey dashed bars: \
             soft cover · shaded: deployment zones"
                .to_string(),
        ),
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawForce {
    units: std::collections::BTreeMap<String, toml::Spanned<u32>>,
}

/// Reads a force file: a `[units]` table of squad name (or id) = count, e.g.
/// `"Elite Rifles" = 1`; squads activate in file order.
///
/// Errors: unreadable file, bad TOML (`file:line:col`), an unknown squad (with the list of
/// the cost list's squads), an empty force, or a force over `[skirmish] points`.
pub fn read_force(r: &GruntFactor, path: &std::path::Path) -> Result<Force, crate::config::ConfigError> {
    let source = crate::config::Source::read(path)?;
    let raw: RawForce = source.parse()?;
    let mut force = Vec::new();
    // Squads activate in file order.
    let mut entries: Vec<_> = raw.units.iter().collect();
    entries.sort_by_key(|(_, n)| n.span().start);
    for (name, n) in entries {
        let id = crate::config::id_of(name);
        let Some(u) = r.units.iter().position(|u| u.id == id) else {
            let known: Vec<&str> = r.units.iter().map(|u| u.name.as_str()).collect();
            return Err(source.error_at(&n.span(), format!("unknown squad {name:?}; known: {}", known.join(", "))));
        };
        force.extend(std::iter::repeat_n(u, *n.get_ref() as usize));
    }
    if force.is_empty() {
        return Err(source.error("the force has no squads"));
    }
    let points: f64 = force.iter().map(|&u| r.units[u].cost).sum();
    if points > r.skirmish.points + 1e-9 {
        return Err(source.error(format!(
            "the force costs {points} points, more than the {} of [skirmish] points",
            r.skirmish.points
        )));
    }
    Ok(force)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::Wall;
    use crate::config::{Overrides, Source};
    use crate::dice::{FastDice, ScriptedDice};
    use crate::rulesets::grunt_factor::tests::ruleset;

    fn wall(x0: f32, x1: f32, y: f32) -> Wall {
        Wall { a: Pos::new(x0, y), b: Pos::new(x1, y), intact: true }
    }

    /// A game with squad `a` for side A and `b` for side B; only the models listed in `keep`
    /// stay alive, at the given positions.
    fn game<'a>(
        r: &'a GruntFactor,
        cfg: &'a SkirmishConfig,
        a: &str,
        b: &str,
        keep: [&[(usize, f32, f32)]; 2],
    ) -> Skirmish<'a> {
        let mut g = Skirmish::new(r, cfg, Tactic::Bound);
        g.deploy([&[r.find(a)], &[r.find(b)]]);
        for s in 0..2 {
            for m in g.sides[s][0].models.iter_mut() {
                m.alive = false;
            }
            for &(k, x, y) in keep[s] {
                g.sides[s][0].models[k] = Model { slot: k as u8, pos: Pos::new(x, y), alive: true };
            }
        }
        g.scratch = vec![Hit::default(); 1];
        g
    }

    fn add_wall(g: &mut Skirmish, w: Wall, kind: CoverKind) {
        g.table.walls.push(w);
        g.cover.push(kind);
    }

    #[test]
    fn cover_share_and_kind_from_cover_pieces() {
        let r = ruleset();
        let mut g = Skirmish::new(&r, &r.skirmish, Tactic::Bound);
        add_wall(&mut g, wall(40.0, 60.0, 48.0), CoverKind::Hard);
        let shooter = Pos::new(50.0, 20.0);
        // Just behind the piece: 50–75% (−2), more than 75% when prone (−3), Dam −2 (hard).
        assert_eq!(g.cover_of(shooter, Pos::new(50.0, 50.0), false), (CoverShare::Half, Some(CoverKind::Hard)));
        assert_eq!(g.cover_of(shooter, Pos::new(50.0, 50.0), true), (CoverShare::Most, Some(CoverKind::Hard)));
        // Far behind it: 25–50% (−1), not "behind cover" for Dam.
        assert_eq!(g.cover_of(shooter, Pos::new(50.0, 70.0), false), (CoverShare::Quarter, None));
        // Past the piece's end: open; a piece right in front of the shooter hides nothing.
        assert_eq!(g.cover_of(shooter, Pos::new(90.0, 70.0), false), (CoverShare::Open, None));
        assert_eq!(g.cover_of(Pos::new(50.0, 46.0), Pos::new(50.0, 90.0), false), (CoverShare::Open, None));
        assert_eq!(
            [CoverShare::Open, CoverShare::Quarter, CoverShare::Half, CoverShare::Most].map(|c| c.hit_modifier()),
            [0, -1, -2, -3]
        );
        assert_eq!(
            (
                rules::cover_damage(10, None),
                rules::cover_damage(10, Some(CoverKind::Soft)),
                rules::cover_damage(10, Some(CoverKind::Hard)),
                rules::cover_damage(1, Some(CoverKind::Hard))
            ),
            (10, 9, 8, 0)
        );
    }

    #[test]
    fn a_shot_at_a_target_behind_hard_cover_is_harder_to_hit_and_to_kill() {
        // Regular Sergeant (RC 7, Assault Rifle) at 30 cm (short range, +1) on a Regular behind
        // hard cover (50–75%, −2): hits on 6 or less; Dam 10 − 2 = 8 against A 7: saves on 9.
        let r = ruleset();
        let mut g = game(
            &r,
            &r.skirmish,
            "regular-rifles",
            "regular-rifles",
            [&[(0, 50.0, 20.0)], &[(0, 50.0, 50.0), (1, 46.0, 50.0), (2, 54.5, 50.0)]],
        );
        add_wall(&mut g, wall(40.0, 60.0, 48.0), CoverKind::Hard);
        let mut d = ScriptedDice::new(&[7]);
        g.fire(0, 0, 0, 0, 0, false, &mut d);
        assert!(g.sides[1][0].models[0].alive && d.exhausted(), "7 misses");
        let mut d = ScriptedDice::new(&[6, 9]);
        g.fire(0, 0, 0, 0, 0, false, &mut d);
        assert!(g.sides[1][0].models[0].alive && d.exhausted(), "6 hits, 9 saves");
        assert!(g.sides[1][0].fired_on);
        let mut d = ScriptedDice::new(&[6, 10]);
        g.fire(0, 0, 0, 0, 0, false, &mut d);
        assert!(!g.sides[1][0].models[0].alive, "10 fails the save");
        assert_eq!(g.destroyed, [18.0, 0.0], "a fifth of the 90-point squad");
        // "Squad leader bites the dust": the nearest model leads, without the CO's +1 LD.
        assert_eq!((g.sides[1][0].leader, g.sides[1][0].sergeant_leads), (1, false));
        assert!(g.scratch[0].leader_killed);
        assert_eq!(g.highest_ld(1), 9);
        // The leader's death is a morale trigger: LD 9, a 10 fails → panicked.
        let mut d = ScriptedDice::new(&[10]);
        g.morale(0, 0, &mut d);
        assert!(g.sides[1][0].panicked && d.exhausted());
    }

    #[test]
    fn soft_cover_cuts_dam_by_one() {
        let r = ruleset();
        let mut g = game(&r, &r.skirmish, "regular-rifles", "regular-rifles", [&[(0, 50.0, 20.0)], &[(0, 50.0, 50.0)]]);
        add_wall(&mut g, wall(40.0, 60.0, 48.0), CoverKind::Soft);
        // Dam 10 − 1 = 9: saves on 8 or less.
        let mut d = ScriptedDice::new(&[6, 8]);
        g.fire(0, 0, 0, 0, 0, false, &mut d);
        assert!(g.sides[1][0].models[0].alive);
        let mut d = ScriptedDice::new(&[6, 9]);
        g.fire(0, 0, 0, 0, 0, false, &mut d);
        assert!(!g.sides[1][0].models[0].alive);
    }

    #[test]
    fn outside_command_radius_rc_and_ld_are_halved() {
        // A Regular soldier 30 cm from his Sergeant: RC 7 → 3, +1 short range: hits on 4.
        let r = ruleset();
        let mut g = game(
            &r,
            &r.skirmish,
            "regular-rifles",
            "regular-rifles",
            [&[(0, 80.0, 20.0), (1, 50.0, 20.0)], &[(0, 50.0, 50.0)]],
        );
        assert!(g.outside_radius(0, 0, 1) && !g.outside_radius(0, 0, 0));
        assert_eq!((g.model_ld(0, 0, 1), g.model_ld(0, 0, 0)), (4, 10), "own LD 9 halved; the Sergeant's 9 + 1");
        let mut d = ScriptedDice::new(&[5]);
        g.fire(0, 0, 1, 0, 0, false, &mut d);
        assert!(g.sides[1][0].models[0].alive, "5 misses");
        let mut d = ScriptedDice::new(&[4, 8]);
        g.fire(0, 0, 1, 0, 0, false, &mut d);
        assert!(!g.sides[1][0].models[0].alive, "4 hits; save 7 or less, 8 fails");
        // Back within 18 cm the soldier fires at full RC: 8 hits (7 + 1).
        let mut g = game(
            &r,
            &r.skirmish,
            "regular-rifles",
            "regular-rifles",
            [&[(0, 62.0, 20.0), (1, 50.0, 20.0)], &[(0, 50.0, 50.0)]],
        );
        let mut d = ScriptedDice::new(&[8, 8]);
        g.fire(0, 0, 1, 0, 0, false, &mut d);
        assert!(!g.sides[1][0].models[0].alive);
    }

    #[test]
    fn beyond_60_cm_each_fire_action_needs_an_ld_test() {
        // 65 cm: medium range (Assault Rifle 0), beyond normal sighting. The Sergeant tests
        // against LD 10: an 11 fails and the action fires nothing; a 10 passes, then 7 hits
        // (RC 7) and a save of 20 fails.
        let r = ruleset();
        let mut g = game(
            &r,
            &r.skirmish,
            "regular-rifles",
            "regular-rifles",
            [&[(0, 50.0, 20.0), (1, 80.0, 20.0)], &[(0, 50.0, 85.0)]],
        );
        let mut d = ScriptedDice::new(&[11]);
        g.fire(0, 0, 0, 0, 0, false, &mut d);
        assert!(d.exhausted() && g.sides[1][0].models[0].alive && !g.sides[1][0].fired_on);
        // The soldier 30 cm from his Sergeant tests his own halved LD (4): a 5 fails.
        let mut d = ScriptedDice::new(&[5]);
        g.fire(0, 0, 1, 0, 0, false, &mut d);
        assert!(d.exhausted() && g.sides[1][0].models[0].alive);
        let mut d = ScriptedDice::new(&[10, 7, 20]);
        g.fire(0, 0, 0, 0, 0, false, &mut d);
        assert!(d.exhausted() && !g.sides[1][0].models[0].alive);
    }

    #[test]
    fn target_priority_nearest_within_short_range_else_the_best_shot() {
        let r = ruleset();
        // Enemy 0 at 35 cm behind hard cover, enemy 1 at 45 cm in the open: the nearer one
        // within short range must be the target even though the other is the better shot.
        let mut g = game(
            &r,
            &r.skirmish,
            "regular-rifles",
            "regular-rifles",
            [&[(0, 50.0, 20.0)], &[(0, 50.0, 55.0), (1, 95.0, 20.0)]],
        );
        add_wall(&mut g, wall(40.0, 60.0, 53.0), CoverKind::Hard);
        assert_eq!(g.choose_target(0, 0, 0), Some((0, 0)));
        // Both beyond 40 cm: the free choice takes the one in the open.
        g.sides[1][0].models[0].pos = Pos::new(50.0, 65.0);
        g.table.walls[0] = wall(40.0, 60.0, 63.0);
        g.sides[1][0].models[1].pos = Pos::new(100.0, 20.0);
        assert!(g.fire_value(0, 0, 0, 0, 1, false) > g.fire_value(0, 0, 0, 0, 0, false));
        assert_eq!(g.choose_target(0, 0, 0), Some((0, 1)));
    }

    #[test]
    fn close_combat_in_base_contact() {
        // "Close combat": CC 7 + the Assault Rifle's CC −2 = 5; Dam 10 against A 7: save on 7.
        assert_eq!(rules::cc_value(7, false, false, -2, false, false, 0), 5);
        assert_eq!(
            rules::cc_value(7, false, false, -2, true, true, 5),
            5 + 1 - 1 + 3,
            "prone +1, cover −1, friends ≤ +3"
        );
        assert_eq!(rules::cc_value(7, true, false, -2, false, false, 0), 1, "panic halves CC");
        assert_eq!(rules::cc_value(7, false, true, -2, false, false, 0), 1, "so does command radius");
        let r = ruleset();
        let mut g = game(
            &r,
            &r.skirmish,
            "regular-rifles",
            "regular-rifles",
            [&[(0, 50.0, 20.0)], &[(0, 50.0, 22.0), (1, 80.0, 80.0)]],
        );
        let mut d = ScriptedDice::new(&[6, 5, 7, 5, 8]);
        g.attack(0, 0, 0, 3, &mut d);
        assert!(d.exhausted(), "three close-combat attacks, no shots");
        assert!(!g.sides[1][0].models[0].alive, "6 misses, 5 hits and 7 saves, 5 hits and 8 fails");
        // A friend in contact with the target adds +1.
        let mut g = game(
            &r,
            &r.skirmish,
            "regular-rifles",
            "regular-rifles",
            [&[(0, 50.0, 20.0), (1, 52.0, 21.0)], &[(0, 51.0, 22.0)]],
        );
        let mut d = ScriptedDice::new(&[6, 20]);
        g.attack(0, 0, 0, 1, &mut d);
        assert!(!g.sides[1][0].models[0].alive);
        // A panicked squad fights no close combat.
        let mut g = game(&r, &r.skirmish, "regular-rifles", "regular-rifles", [&[(0, 50.0, 20.0)], &[(0, 50.0, 22.0)]]);
        g.sides[0][0].panicked = true;
        let mut d = ScriptedDice::new(&[]);
        g.attack(0, 0, 0, 3, &mut d);
        assert!(g.sides[1][0].models[0].alive);
    }

    #[test]
    fn advance_initiates_close_combat_within_one_move() {
        let r = ruleset();
        let mut cfg = r.skirmish.clone();
        cfg.max_turns = 1;
        // Two of five models left: more than 1/3, so the squad may advance.
        let mut g = game(
            &r,
            &cfg,
            "regular-rifles",
            "regular-rifles",
            [&[(0, 50.0, 20.0), (1, 150.0, 5.0)], &[(0, 50.0, 30.0)]],
        );
        g.tactic = Tactic::Advance;
        let mut actions = [3u8; MAX_MODELS];
        g.move_squad(0, 0, &mut actions);
        assert_eq!(actions[0], 2, "one action to move into base contact");
        assert!(g.sides[0][0].models[0].pos.dist(Pos::new(50.0, 30.0)) <= cfg.base_contact as f32 + EPS);
    }

    #[test]
    fn panicked_squad_in_the_open_goes_prone_then_tests_to_recover() {
        let r = ruleset();
        let mut g = game(
            &r,
            &r.skirmish,
            "regular-rifles",
            "regular-rifles",
            [&[(0, 50.0, 20.0), (1, 46.0, 20.0), (2, 54.0, 20.0)], &[(0, 50.0, 100.0)]],
        );
        g.sides[0][0].panicked = true;
        let mut actions = [3u8; MAX_MODELS];
        // Sergeant leads: LD 10, −2 (enemy in sight, not fired on): 8 passes.
        let mut d = ScriptedDice::new(&[8]);
        g.panic_step(0, 0, &mut actions, &mut d);
        assert!(g.sides[0][0].prone && !g.sides[0][0].panicked);
        assert_eq!(&actions[..3], &[1, 1, 1], "prone: one action each; recovery: three together");
        g.sides[0][0].panicked = true;
        g.sides[0][0].fired_on = true;
        let mut actions = [3u8; MAX_MODELS];
        let mut d = ScriptedDice::new(&[7]);
        g.panic_step(0, 0, &mut actions, &mut d);
        assert!(g.sides[0][0].panicked, "fired on: 10 − 4 = 6, 7 fails");
        assert_eq!(&actions[..3], &[2, 2, 2], "already prone");
    }

    #[test]
    fn the_one_third_rule_stops_advances_except_for_elite() {
        let r = ruleset();
        for (unit, moves) in [("regular-rifles", false), ("elite-rifles", true), ("untrained-rifles", false)] {
            let mut g = game(&r, &r.skirmish, unit, "regular-rifles", [&[(0, 50.0, 20.0)], &[(0, 50.0, 110.0)]]);
            let before = g.sides[0][0].models[0].pos;
            let mut actions = [4u8; MAX_MODELS];
            g.move_squad(0, 0, &mut actions);
            assert_eq!(g.sides[0][0].models[0].pos != before, moves, "{unit}");
        }
    }

    #[test]
    fn bound_moves_to_the_next_cover_piece_toward_the_enemy() {
        let r = ruleset();
        let mut g = game(
            &r,
            &r.skirmish,
            "regular-rifles",
            "regular-rifles",
            [&[(0, 50.0, 10.0), (1, 46.0, 10.0), (2, 54.0, 10.0)], &[(0, 50.0, 110.0)]],
        );
        add_wall(&mut g, wall(40.0, 60.0, 25.0), CoverKind::Hard);
        add_wall(&mut g, wall(40.0, 60.0, 60.0), CoverKind::Soft);
        let mut actions = [3u8; MAX_MODELS];
        g.move_squad(0, 0, &mut actions);
        for k in 0..3 {
            let p = g.sides[0][0].models[k].pos;
            assert!((p.y - 24.0).abs() < 0.01 && p.x > 40.0 && p.x < 60.0, "model {k} behind the first piece: {p:?}");
            assert!(g.in_cover(p, Pos::new(50.0, 110.0)));
            assert!(actions[k] >= 1, "actions left to fire");
        }
    }

    #[test]
    fn bound_never_runs_to_a_piece_the_enemy_holds() {
        let r = ruleset();
        let keep: [&[(usize, f32, f32)]; 2] =
            [&[(0, 50.0, 24.0), (1, 46.0, 24.0), (2, 54.0, 24.0)], &[(0, 50.0, 95.0)]];
        // The only piece ahead has the enemy 5 cm behind it: no bound there, straight ahead.
        let mut g = game(&r, &r.skirmish, "regular-rifles", "regular-rifles", keep);
        add_wall(&mut g, wall(40.0, 60.0, 90.0), CoverKind::Hard);
        let mut actions = [3u8; MAX_MODELS];
        g.move_squad(0, 0, &mut actions);
        let p = g.sides[0][0].models[0].pos;
        assert!((p.x - 50.0).abs() < 0.01 && (p.y - 51.0).abs() < 0.01, "{p:?}");
    }

    #[test]
    fn bound_without_cover_ahead_stops_at_short_range_and_never_charges() {
        let r = ruleset();
        // Leader 45 cm from the nearest enemy (bound advances); the flank model is only 30 cm
        // from another enemy model. No cover on the table.
        let mut g = game(
            &r,
            &r.skirmish,
            "regular-rifles",
            "regular-rifles",
            [&[(0, 50.0, 50.0), (1, 90.0, 50.0)], &[(0, 50.0, 95.0), (1, 90.0, 80.0)]],
        );
        let mut actions = [3u8; MAX_MODELS];
        g.move_squad(0, 0, &mut actions);
        let leader = g.sides[0][0].models[0].pos;
        assert!((leader.dist(Pos::new(50.0, 95.0)) - 40.0).abs() < 0.01, "leader stops at 40 cm: {leader:?}");
        let flank = g.sides[0][0].models[1].pos;
        assert_eq!(flank, Pos::new(90.0, 50.0), "already within short range: stays");
        assert_eq!(actions[1], 3, "and keeps its actions to fire");
    }

    #[test]
    fn the_turn_cap_ends_the_game_and_more_points_destroyed_wins() {
        let r = ruleset();
        let mut cfg = r.skirmish.clone();
        cfg.max_turns = 3;
        cfg.table_depth = 1000.0;
        let mut g = Skirmish::new(&r, &cfg, Tactic::Bound);
        let u = r.find("regular-rifles");
        g.deploy([&[u], &[u]]);
        let out = g.play(&mut FastDice::from_seed(3));
        assert_eq!(out, SkirmishOutcome { winner: None, turns: 3, destroyed: [0.0, 0.0] });
        assert!(g.sides[0][0].models[0].pos.y > 50.0, "side A advanced");
        g.destroyed = [18.0, 11.0];
        assert_eq!(g.outcome().winner, Some(0));
        g.destroyed = [18.0, 36.0];
        assert_eq!(g.outcome().winner, Some(1));
        g.destroyed = [26.0, 26.0];
        assert_eq!(g.outcome().winner, None, "equal points destroyed: a draw");
    }

    #[test]
    fn random_forces_are_legal_and_full() {
        let r = ruleset();
        let cheapest = r.units.iter().map(|u| u.cost).fold(f64::MAX, f64::min);
        let mut dice = FastDice::from_seed(1);
        for _ in 0..500 {
            let f = random_force(&r, 200.0, &mut dice);
            let pts: f64 = f.iter().map(|&u| r.units[u].cost).sum();
            assert!(pts <= 200.0 && 200.0 - pts < cheapest, "{pts}");
        }
        // "Normal unit configuration": every squad of the cost list is 1 Sergeant + 1–11
        // soldiers with at most one specialist and 2 normal soldiers per specialist.
        for p in &r.profiles {
            let specialists = p.weapons.iter().filter(|&&w| w != p.weapons[0]).count();
            assert!((2..=12).contains(&p.weapons.len()) && specialists <= 1);
            assert!(specialists == 0 || p.weapons.len() >= 4);
        }
    }

    #[test]
    fn skirmish_config_errors_name_the_line_and_key() {
        let text = std::fs::read_to_string("configs/grunt-factor.toml").unwrap();
        let line = text.lines().position(|l| l.starts_with("cover_max =")).unwrap() + 1;
        let t = text.replacen("cover_max = 12", "cover_max = 2", 1);
        let e =
            GruntFactor::from_source(&Source::from_text("t.toml", t), &Overrides::default()).unwrap_err().to_string();
        assert!(e.starts_with(&format!("t.toml:{line}:1: [skirmish] cover_max must be")), "{e}");
        let t = text.replacen("hard_share = 0.5", "hard_share = 1.5", 1);
        let e =
            GruntFactor::from_source(&Source::from_text("t.toml", t), &Overrides::default()).unwrap_err().to_string();
        assert!(e.contains("[skirmish] hard_share must be 0..1, got 1.5"), "{e}");
        let t = text.replacen("bound_min = 10.0", "bound_min = 10.0\nspeed = 3", 1);
        let e =
            GruntFactor::from_source(&Source::from_text("t.toml", t), &Overrides::default()).unwrap_err().to_string();
        assert!(e.starts_with("t.toml:") && e.contains("unknown field `speed`"), "{e}");
        let ov = Overrides::parse(&["skirmish.points=0".to_string()]).unwrap();
        let e = GruntFactor::from_source(&Source::from_text("t.toml", text), &ov).unwrap_err().to_string();
        assert!(e.starts_with("--set skirmish.points=0: [skirmish] points must be"), "{e}");
    }

    fn run_threads(r: &GruntFactor, threads: usize, forces: &Forces, tactic: Tactic, trials: u64) -> SkirmishTally {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| simulate(r, forces, tactic, 5, trials, &indicatif::ProgressBar::hidden()))
    }

    #[test]
    fn same_tally_on_one_and_two_threads() {
        let r = ruleset();
        for tactic in [Tactic::Bound, Tactic::Advance] {
            let (a, b) =
                (run_threads(&r, 1, &Forces::Random, tactic, 120), run_threads(&r, 2, &Forces::Random, tactic, 120));
            assert_eq!(a, b);
            assert_eq!((a.games, a.records.len()), (120, 120));
            assert_eq!(a.wins[0] + a.wins[1] + a.draws, 120);
        }
    }

    #[test]
    fn elite_beats_untrained_at_equal_model_count() {
        let r = ruleset();
        let forces = Forces::Fixed(Box::new([vec![r.find("elite-rifles")], vec![r.find("untrained-rifles")]]));
        let t = run_threads(&r, 2, &forces, Tactic::Bound, 1000);
        assert!(t.wins[0] as f64 / 1000.0 > 0.9, "{:?}", t.wins);
    }

    #[test]
    fn swapping_sides_keeps_the_win_rate_within_four_standard_errors() {
        // Side A deploys along y = 0 and side B along y = depth: the table and the turn roll
        // are symmetric, so X's win rate must not depend on which side it plays.
        let r = ruleset();
        let x = vec![r.find("regular-lmg"), r.find("green-rifles")];
        let y = vec![r.find("veteran-rifles"), r.find("regular-smgs")];
        let n = 2000.0;
        for tactic in [Tactic::Bound, Tactic::Advance] {
            let one = run_threads(&r, 2, &Forces::Fixed(Box::new([x.clone(), y.clone()])), tactic, n as u64);
            let two = run_threads(&r, 2, &Forces::Fixed(Box::new([y.clone(), x.clone()])), tactic, n as u64);
            let (p1, p2) = (one.wins[0] as f64 / n, two.wins[1] as f64 / n);
            let se = (p1 * (1.0 - p1) / n + p2 * (1.0 - p2) / n).sqrt();
            assert!((p1 - p2).abs() <= 4.0 * se, "{tactic:?}: {p1} vs {p2} (se {se})");
        }
    }

    #[test]
    fn traced_game_moves_round_cover_and_draws_a_replay() {
        let r = ruleset();
        let (replay, out) = traced_game(&r, &Forces::Random, Tactic::Bound, 11);
        assert!(out.turns >= 1 && out.turns <= 10);
        let svg = crate::battle::replay::to_svg(&replay);
        assert!(svg.starts_with("<svg") && svg.contains("polyline"));
        assert!(replay.units.iter().any(|u| u.path.len() > 1), "somebody moved");
        for u in &replay.units {
            for w in u.path.windows(2) {
                assert!(replay.table.walls.iter().all(|c| !c.crosses(w[0], w[1])), "a move crossed cover: {w:?}");
            }
        }
    }
}
