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
//!   soft (hedges, fences). They are low: they do not block line of sight, and a model crosses
//!   one for an action ("Modifiers to movement": obstacles lower than a miniature) when it has
//!   the action and crossing ends its move nearer its goal than walking round the piece. A shot whose line crosses a piece within `cover_reach` (3 cm) of the target
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
//!   nearest enemy model by the duel's look-ahead ([`rules::horizon_plan`]: its expected
//!   kills over 3 turns minus that model's fire back), and initiates close combat when that
//!   model is within one move of base contact and close combat with the remaining actions
//!   expects more kills than every fire plan this turn ([`rules::cc_attack_value`]). Every
//!   quality has CC = RC and close combat's damage takes the cover cut too, so with the book's
//!   weapons point-blank fire always wins (against a prone target behind cover, with 3
//!   friends in the fight, an Assault Rifle ties); a weapon with a better CC modifier can
//!   charge.
//! - **Tactic `hold`**: the squad never moves nearer the enemy: a model in the open takes cover
//!   within one move, not nearer its nearest enemy (`bound`'s stay), a prone squad stays prone,
//!   and every action left fires.
//! - **Tactic `hold-lead`**: `hold` while the side has destroyed at least as many enemy points
//!   as it has lost, `advance` (standing up first) while it has destroyed fewer: behind, a
//!   side that holds loses, so it goes at the enemy.
//! - **Target priority** ("Fire", per unit): when the enemy squad nearest to the firing squad
//!   (closest pair of models) is within short range, every model of the squad fires at that
//!   squad, at its model nearest to the shooter; otherwise each model fires at the enemy model
//!   it expects to kill most (ties: nearest).
//!   Aim is lost when the aimed model dies. A model in base contact fights in close combat.
//! - **Panic**: a panicked squad's models in the open take cover within 6 cm, or else within
//!   one Move action in a direction away from their nearest enemy (how far to run is our
//!   reading), and if any cannot, the squad goes prone (one action each); then, when no model's
//!   fire would expect a kill ([`rules::tries_recovery`], the duel's rule: a squad in a
//!   firefight fires instead), with 3 actions spent together, it tests to recover (−4 if fired
//!   on since its last activation, else −2: the low cover never hides the enemy). Panicked squads do not advance and fight no close combat.
//! - **Morale** is tested after each enemy activation against the squad leader's LD (+1
//!   while the Sergeant leads): more than 25% killed by it, falling below half, the leader
//!   killed, or a friendly squad of originally 5+ annihilated (always in line of sight: the
//!   low cover hides nobody). A dead leader is replaced by the nearest living model.
//! - **Special morale check** (more than 10 hits from one squad): failed → every model falls
//!   back 10 cm straight away from the firing squad's leader.
//! - Not modeled here (see the coverage table): overwatch, suppression, hide, heights, forest
//!   and crest cover, night, specialists without an armory entry.
//!
//! Files: `setup.rs` (config, forces, terrain, deployment), `combat.rs` (the rule steps on the
//! table: cover, command radius, fire, close combat, morale), `turn.rs` (the turn loop and
//! the doctrine the tactics of `../tactics/` share), `tally.rs` (many games into counts, one game into a replay). The public
//! items are re-exported here, so paths stay `crate::rulesets::grunt_factor::skirmish::*`.

mod combat;
mod setup;
mod shape;
mod tally;
#[cfg(test)]
mod tests;
mod turn;

pub use crate::rulesets::grunt_factor::tactics::{ENEMY_HELD, Pick};
pub use setup::{Force, Forces, SkirmishConfig, describe, random_force, read_force, set_up};

pub use tally::{REPLAY_CM_PER_UNIT, replay_of, traced_game};
pub use turn::PANIC_COVER_REACH;

use crate::battle::{Pos, Table};
use crate::rulesets::Side;
use crate::rulesets::grunt_factor::rules::CoverKind;
use crate::rulesets::grunt_factor::{GruntFactor, SquadProfile};

/// Only the module docs name the duel's `rules`.
#[cfg(doc)]
use crate::rulesets::grunt_factor::rules;

/// Distances closer than this count as equal (cm).
pub(crate) const EPS: f32 = 1e-3;

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
    /// Each side's tactic, side A first ([`crate::rulesets::grunt_factor::tactics`]).
    pub tactic: [Pick; 2],
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
    /// An empty table and no squads; each side plays its `tactic` (side A first).
    pub fn new(r: &'a GruntFactor, cfg: &'a SkirmishConfig, tactic: [Pick; 2]) -> Self {
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

    pub(crate) fn profile(&self, s: Side, i: usize) -> &'a SquadProfile {
        self.r.profile(self.sides[s][i].unit)
    }
}
