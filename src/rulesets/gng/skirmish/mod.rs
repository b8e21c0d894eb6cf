//! The Guns 'N Grenades Skirmish (GnG 1.5, "Types of Games": 350 points, last side standing)
//! and its Point Capture and Ground War missions ([`objective`]: command points) played on the
//! shared battle engine ([`crate::battle`]).
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
//! - The 5 activations go to the units whose activation achieves most (expected points of an
//!   attack, a heal or Anti Armor on cover; then moves); an idle unit (Artillery or a Shaken
//!   vehicle with nothing in range) takes none. Anti Armor destroying cover comes after the
//!   side's other attacks of the turn, since no other unit may attack after it.
//! - Infantry with Bayonets walk within 1½" of a target when that attack (+1 ATK) is worth
//!   more than the one from cover or from range.
//! - Grenade Launchers and Flashbangs are "once per round": a round is "a set of 4 turns back
//!   and forth" (Glossary), two of each side's turns, so they are usable again 2 of the side's
//!   turns later ([`ROUND_OWN_TURNS`]; RULINGS.md, "Readings added after the first review").
//!   A Flashbang replaces the unit's attack: an opposed roll on the target; on a
//!   hit the target and every unit whose blast roll is lower cannot activate next turn.
//! - Reserves enter at the front of the deployment zone, at most 3 per turn, before the
//!   side activates. Artillery deploys at the start (it cannot move) and is never held back.
//!
//! Files: `setup.rs` (config, terrain, deployment, reserves), `combat.rs` (the rule steps the
//! skirmish adds to the duel's), `objective.rs` (missions, command points and the rule by
//! which units play for them), `turn.rs` (the turn loop and the doctrine the tactics of `../tactics/` share), `tally.rs`
//! (many games into counts, one game into a replay). The public items are re-exported here, so
//! paths stay `crate::rulesets::gng::skirmish::*`.

/// A side's own turns in a round (GnG 1.5, Glossary: "Round: A set of 4 turns back and forth",
/// so two of each side's): a Grenade Launcher or Flashbang used on one own turn is ready again
/// this many own turns later ("once per round", Unit Upgrades).
pub const ROUND_OWN_TURNS: u32 = 2;

mod combat;
pub mod objective;
mod setup;
mod shape;
mod tally;
#[cfg(test)]
mod tests;
mod turn;

pub mod army;

pub use crate::rulesets::gng::tactics::Pick;
pub use combat::{BAYONET_REACH, Special, UpgradeRule};
pub use objective::{CommandPoint, End, Goal, MISSIONS, Mission};
pub use setup::SkirmishConfig;
pub use shape::Game;
pub use tally::{Armies, replay_of, short_label, traced_game};

use crate::battle::{Pos, Table};
use crate::rulesets::Side;
use crate::rulesets::gng::rules::{Battle, Fighter};
use crate::rulesets::gng::{GunsNGrenades, Profile};

/// Only the module docs name the duel's `rules`.
#[cfg(doc)]
use crate::rulesets::gng::rules;

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
    /// Every capture of a command point, in order: (point index, the capturing side, game turn).
    pub captures: Vec<(usize, Side, u32)>,
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
    /// Each side's tactic ([`crate::rulesets::gng::tactics`]).
    pub tactic: [Pick; 2],
    /// Player turns played so far.
    pub turn: u32,
    /// Turns each side has taken (for "once per round").
    pub side_turns: [u32; 2],
    /// Kills this game: (killer type, victim type) per side.
    pub kill_log: Vec<(Side, usize, usize)>,
    pub trace: Option<Trace>,
    /// The kind of game ([`Mission::Skirmish`] unless [`Skirmish::set_mission`] says otherwise).
    pub mission: Mission,
    /// The mission's command points (none in the Skirmish).
    pub command_points: Vec<CommandPoint>,
    /// Each unit's objective this turn (`Skirmish::assign_goals`); empty in the Skirmish.
    pub goals: [Vec<Option<Goal>>; 2],
    named: Named,
    /// Moves on whenever what the free cover spots depend on may have changed: a unit moved
    /// out of cover, into cover or behind it, a death counted of a unit in cover (the dead leave
    /// their cover), a piece destroyed ([`SpotBuf`]). Units in the open do not count for them.
    cover_epoch: u64,
    /// Moves on whenever anything the tactic's plans read may have changed: a unit placed,
    /// moved, hit, healed or dead, a piece destroyed. A unit's Hunker does not move it on: only
    /// the enemy's plans read it (its DEF), and they are made in the enemy's turn, after the
    /// epoch has moved on anyway ([`turn::Plans`]).
    plan_epoch: u64,
    /// Units of each side whose death is counted ([`UnitState::counted`]).
    deaths_counted: [usize; 2],
    /// Each cover piece's spots, worked out at set-up ([`Skirmish::cache_spots`]).
    spot_cache: Vec<combat::PieceSpots>,
    /// Buffers the turn loop reuses ([`Scratch`]).
    scratch: Scratch,
    /// The DEF modifiers of a blast's units, reused from blast to blast
    /// (`Skirmish::blast_def_mods_into`).
    blast_mods: [Vec<i32>; 2],
}

/// Buffers [`Skirmish::take_turn`] reuses from turn to turn and activation to activation, so
/// the turn loop does not allocate; what they hold between uses means nothing.
#[derive(Debug, Clone, Default)]
struct Scratch {
    /// The side's free cover spots.
    spots: SpotBuf,
    /// The units' keys for the activation order, and the order.
    keyed: Vec<turn::Key>,
    order: Vec<usize>,
    /// Each unit's plans from the activation order, for its activation ([`turn::Plans`]).
    plans: Vec<turn::Plans>,
}

const SPOT_OFFSET: f32 = 0.75;

const SPOTS: [f32; 2] = [0.25, 0.75];

const EPS: f32 = 1e-3;

/// A side's free cover spots and the pieces its Anti Armor would destroy
/// ([`Skirmish::free_spots_into`]), kept while the cover stays as it was: worked out together
/// (one pass over the units) when first asked for, and again only once
/// [`Skirmish::cover_epoch`] moved on (or for the other side).
#[derive(Debug, Clone, Default)]
struct SpotBuf {
    spots: Vec<(usize, Pos)>,
    destroyable: Vec<usize>,
    /// Each piece's use, the pass both come from.
    pieces: Vec<combat::PieceUse>,
    /// The side and cover epoch `spots` and `destroyable` hold for; `None`: nothing yet.
    epoch: Option<(Side, u64)>,
}

impl SpotBuf {
    /// Side `s`'s free cover spots and the pieces it would destroy, in `g` now.
    fn refreshed(&mut self, g: &Skirmish, s: Side) -> &Self {
        if self.epoch != Some((s, g.cover_epoch)) {
            g.free_spots_into(s, &mut self.spots, &mut self.destroyable, &mut self.pieces);
            self.epoch = Some((s, g.cover_epoch));
        }
        self
    }

    /// Side `s`'s free cover spots in `g` now.
    fn get(&mut self, g: &Skirmish, s: Side) -> &[(usize, Pos)] {
        &self.refreshed(g, s).spots
    }

    /// The cover pieces side `s`'s Anti Armor would destroy in `g` now.
    fn destroyable(&mut self, g: &Skirmish, s: Side) -> &[usize] {
        &self.refreshed(g, s).destroyable
    }
}

/// What the game came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SkirmishOutcome {
    pub winner: Option<Side>,
    /// Game turns started (1..=max_turns).
    pub turns: u32,
    /// How the game ended.
    pub end: End,
}

impl<'a> Skirmish<'a> {
    /// A fresh skirmish (no units, empty table).
    pub fn new(r: &'a GunsNGrenades, cfg: &'a SkirmishConfig) -> Self {
        let find = |id: &str| r.book.units.iter().position(|u| u.id == id);
        Skirmish {
            r,
            cfg,
            bt: Battle::default(),
            st: [Vec::new(), Vec::new()],
            reserves: [Vec::new(), Vec::new()],
            table: Table::new(cfg.table_width as f32, cfg.table_depth as f32),
            upgrade: [None, None],
            tactic: [crate::rulesets::gng::tactics::pick(0); 2],
            turn: 0,
            side_turns: [0, 0],
            kill_log: Vec::new(),
            trace: None,
            mission: Mission::Skirmish,
            command_points: Vec::new(),
            goals: [Vec::new(), Vec::new()],
            named: Named {
                riflemen: find("riflemen"),
                heavy: find("heavy-infantry"),
                light: find("light-infantry"),
                snipers: find("snipers"),
                tank: find("tank"),
            },
            deaths_counted: [0, 0],
            cover_epoch: 0,
            plan_epoch: 0,
            spot_cache: Vec::new(),
            scratch: Scratch::default(),
            blast_mods: [Vec::new(), Vec::new()],
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
        self.deaths_counted = [0, 0];
        if let Some(t) = &mut self.trace {
            t.units = [Vec::new(), Vec::new()];
            t.captures.clear();
        }
        self.reset_command_points();
    }

    /// Puts unit type `u` of side `s` on the table at `at`.
    pub fn place(&mut self, s: Side, u: usize, at: Pos) -> usize {
        self.bt.sides[s].push(Fighter::new(u, at.x, at.y));
        self.st[s].push(UnitState::default());
        self.bt.alive[s] += 1;
        self.plan_epoch += 1;
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
}
