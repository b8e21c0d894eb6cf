//! The skirmish's tactics (The Grunt Factor, "Movement" and "Fire"), one file each behind
//! [`Tactic`]: the default first. Adding one is one file and one line (see
//! [`crate::rulesets::tactic`]).
//!
//! What a tactic decides here: how a squad moves in its activation. Everything else is the
//! shared doctrine of the turn loop (`skirmish/turn.rs`): standing up, panic and recovery, and
//! how each model spends its remaining actions on fire (aimed when that expects more kills) and
//! close combat.
//!
//! Layer: rulesets (The Grunt Factor); imports the skirmish's game state and the shared
//! [`crate::rulesets::tactic`].

use crate::rulesets::Side;
use crate::rulesets::grunt_factor::skirmish::Skirmish;
use crate::rulesets::tactic::portfolio;

pub use bound::ENEMY_HELD;

/// A squad's move as its tactic sees it ([`Tactic::move_squad`]).
pub struct SquadMove<'a> {
    /// The squad leader's distance to the nearest enemy model, cm.
    pub d: f32,
    /// Whether it may move nearer the enemy ("Panic", "Pinned").
    pub may_advance: bool,
    /// Its living models.
    pub living: &'a [usize],
    /// The actions each model has left, spent as it moves.
    pub actions: &'a mut [u8],
}

/// A Grunt Factor tactic: the decisions in which tactics differ (module docs).
pub trait Tactic: Sync {
    /// Moves squad `i` of side `s` in game `g` ([`SquadMove`]).
    fn move_squad(&self, g: &mut Skirmish, s: Side, i: usize, m: SquadMove);

    /// Whether a prone squad of side `s` that may advance stands up ("Go prone/stand", 1
    /// action a model) before [`Tactic::move_squad`] in game `g`: true unless the tactic does
    /// not advance now.
    fn stands_up(&self, _g: &Skirmish, _s: Side) -> bool {
        true
    }
}

portfolio!(bound, advance, hold, hold_lead);
