//! The rules of VSGMR v7, one function per rule step, and the default tactic.
//!
//! A [`Battle`] holds both sides' figures as small structs (position in inches, side, flags)
//! and is reused across trials. A round is initiative, then movement, distance attacks and
//! hand-to-hand attacks, each step taken by the first player's figures and then the other's
//! (`sequence = "phased"`), or alternating single figures (`"everyone_acts"`, section II
//! "Everyone Acts"). Casualties are immediate: a figure defeated earlier in the round does not
//! attack (RULINGS.md, "Round").
//!
//! The default tactic (RULINGS.md, "Common: the stand-up duel"): a figure with a distance
//! attack holds the nearest enemy within its Distance Attack Unit — unless the exchange in base
//! contact beats the one at range ([`prefers_contact`]: a mook that needs a 7 to hit a Stealth
//! figure charges), then it closes like a figure without one, which moves toward the nearest
//! enemy it can fight hand to hand, into base contact if it can reach. Who moves first decides
//! where it stops ([`wanted_gap`], issue 15): it falls back out of a charging foe's reach,
//! charges hand to hand only moving first (or when struck first it still wins the exchange),
//! and between shooters closes moving first so the foe cannot step out of range, and steps out
//! of an exchange struck first that does not favour it. It shoots the nearest enemy in range
//! a shot can defeat (a shot no die can make good is not made). In contact it attacks with the
//! option (distance or hand to hand) more likely to defeat the target (ties: the shot, made
//! first). A figure that cannot attack this round uses Disable on the nearest enemy within its Distance Attack Unit if it has the trait, else
//! Summon to bring its rearmost ally beside it. A Flight figure with a distance attack stays in
//! flight (out of reach of hand-to-hand attacks); without one it lands to fight. The side's
//! Inspiration rerolls the first of its own failed attack or armor rolls each round, on its own
//! turn only (an armor roll against an enemy's attack is on the enemy's turn). A Support
//! figure boosts distance attacks if it has them, else hand-to-hand attacks (unless the figure
//! names its roll type). Cause Fear does not affect vehicles (the book's "giant war robot").
//! In the Skirmish a mounted rider rides on until its own fight beats its mount's
//! ([`dismounts`]); a shot at a mounted pair goes to the one likelier to fall ([`Fig::riding`]).

use crate::dice::Dice;
use crate::rulesets::vsgmr::rules::figure::{Armor, Figure, Kind, Power, SupportRoll, Trait};
use crate::rulesets::vsgmr::skirmish::mission::{Goal, Objective};
use crate::rulesets::vsgmr::{Sequence, Vsgmr};
use crate::rulesets::{DuelOutcome, Side};

mod battle;
pub mod figure;
mod odds;
mod tactic;
#[cfg(test)]
mod tactic_tests;

pub use odds::*;
pub use tactic::*;

/// Distances within this of a limit count as inside it (float rounding after moves).
pub const EPS: f32 = 1e-3;

/// A figure's combat numbers, precomputed from its [`Figure`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Profile {
    pub kind: Kind,
    pub cost: f64,
    pub distance_attack: bool,
    pub automatic_fire: bool,
    pub armor: Armor,
    pub traits: u32,
    /// Die sizes for distance attacks (Super-Blast), hand to hand (Super-Fight), armor
    /// (Super-Armor): 6, 8, 10 or 12.
    pub blast_die: u8,
    pub fight_die: u8,
    pub armor_die: u8,
    /// Move in inches, Super-Move included; Half Move Unit in inches.
    pub move_in: f32,
    pub half_move: f32,
    /// Super-Move's initiative bonus.
    pub initiative: i8,
    /// Distance Attack Unit: 12", Sniper 24".
    pub range: f32,
    /// What Support boosts, if the figure has it.
    pub support: Option<SupportRoll>,
    /// A figure it summons acts from the next round (the Scream Queen, section VII).
    pub summoned_wait: bool,
}

impl Profile {
    pub fn from_figure(f: &Figure) -> Self {
        let die = |p: Power| 6 + 2 * f.power(p);
        let mu = f.kind.move_unit();
        let support = f.has(Trait::Support).then(|| {
            f.support_roll.unwrap_or(if f.distance_attack { SupportRoll::Distance } else { SupportRoll::HandToHand })
        });
        Profile {
            kind: f.kind,
            cost: f.price(),
            distance_attack: f.distance_attack,
            automatic_fire: f.automatic_fire && f.distance_attack,
            armor: f.effective_armor(),
            traits: f.traits,
            blast_die: die(Power::SuperBlast),
            fight_die: die(Power::SuperFight),
            armor_die: die(Power::SuperArmor),
            move_in: mu * (1.0 + 0.5 * f.power(Power::SuperMove) as f32),
            half_move: mu / 2.0,
            initiative: f.power(Power::SuperMove) as i8,
            range: if f.has(Trait::Sniper) { 24.0 } else { 12.0 },
            support,
            summoned_wait: f.summoned_wait,
        }
    }

    pub fn has(&self, t: Trait) -> bool {
        self.traits & t.bit() != 0
    }

    /// Hero guys and vehicles add +1 to attack rolls; mooks −1 (sections II.3, IV).
    pub fn attack_flavor(&self) -> i8 {
        match self.kind {
            Kind::Hero | Kind::Vehicle => 1,
            Kind::Mook => -1,
            _ => 0,
        }
    }

    /// Sharpshooter (distance) or Combat Master (hand to hand): +1, +2 for hero guys and
    /// vehicles (section V).
    fn expertise(&self, t: Trait) -> i8 {
        if !self.has(t) {
            0
        } else if matches!(self.kind, Kind::Hero | Kind::Vehicle) {
            2
        } else {
            1
        }
    }

    /// Bonus to this figure's distance attack rolls (Support counted separately).
    pub fn distance_bonus(&self) -> i8 {
        self.attack_flavor() + self.expertise(Trait::Sharpshooter)
    }

    /// Bonus to this figure's hand-to-hand attack rolls (Support counted separately).
    pub fn hand_to_hand_bonus(&self) -> i8 {
        self.attack_flavor() + self.expertise(Trait::CombatMaster)
    }

    /// Bonus to this figure's armor rolls: vehicles +1, Tough +1 (+2 vehicles), mooks −1.
    pub fn armor_bonus(&self) -> i8 {
        let vehicle = self.kind == Kind::Vehicle;
        let tough = if self.has(Trait::Tough) { 1 + vehicle as i8 } else { 0 };
        vehicle as i8 + tough - (self.kind == Kind::Mook) as i8
    }

    /// The total an armor roll needs: light 6, heavy 4; `None` without armor.
    pub fn armor_needs(&self) -> Option<i8> {
        match self.armor {
            Armor::None => None,
            Armor::Light => Some(6),
            Armor::Heavy => Some(4),
        }
    }

    /// Total a distance attack at this figure needs in the open: 5, Stealth 6 (sections II.3
    /// "Cover", V "Stealth"); behind a Skirmish cover piece one more ([`Battle::in_cover`]).
    pub fn distance_needs(&self) -> i8 {
        if self.has(Trait::Stealth) { 6 } else { 5 }
    }

    /// Whether attacks rolling 1 or 2 against this figure strike the attacker with fear; the
    /// attacker must be one that "would reasonably be struck by fear" (not a vehicle).
    pub fn frightens(&self, attacker: &Profile) -> bool {
        self.has(Trait::CauseFear) && attacker.kind != Kind::Vehicle
    }

    /// Whether the figure can move and attack on its own: guys, and Independent cavalry and
    /// vehicles (section V "Independent").
    pub fn self_moving(&self) -> bool {
        self.kind.is_guy() || self.has(Trait::Independent)
    }
}

/// One figure on the table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fig {
    pub unit: usize,
    pub side: Side,
    pub x: f32,
    pub y: f32,
    pub alive: bool,
    /// Has made its attack (or Disable/Summon) this round.
    pub acted: bool,
    /// Cannot move, attack or use traits during this round number (Disable).
    pub disabled_round: u32,
    /// Cannot act before this round (recruited figures act from the next round).
    pub ready_round: u32,
    /// A Flight figure still in the air after its move.
    pub flying: bool,
    /// Has had its movement step this round (the default tactic's [`wanted_gap`] reads the
    /// enemy's).
    pub moved: bool,
    /// The cavalry or vehicle figure this guy rides or drives (the Skirmish's sample armies;
    /// `None` on foot and in duels). Mounted, it stands where its mount stands, moves with it,
    /// does not move or attack on its own and is covered (section II.2, II.3 "Cover").
    pub riding: Option<usize>,
}

/// The kind of an attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttackKind {
    Distance,
    HandToHand,
}

/// Both sides' figures, reused across trials.
#[derive(Debug, Clone, Default)]
pub struct Battle {
    pub figs: Vec<Fig>,
    pub round: u32,
    /// Whether each side's Inspiration has been used this round.
    pub inspiration_used: [bool; 2],
    pub kills: [u32; 2],
    /// A Revenge attack is being resolved (a revenge attack triggers no further revenge).
    pub in_revenge: bool,
    /// Cover pieces on the table (the Skirmish; empty in duels, which are fought in the open)
    /// and how near the target a crossed piece must be to cover it at least half.
    pub cover: Vec<crate::battle::Wall>,
    pub cover_reach: f32,
    /// `(attacker, defeated)` templates of every figure defeated, when the caller keeps a log
    /// (the Skirmish does; duels leave it `None`).
    pub kill_log: Option<Vec<(usize, usize)>>,
    /// The Skirmish's table (inches): its edges and its walls. `None` in duels, fought on open
    /// ground without edges.
    pub table: Option<crate::battle::Table>,
    /// The duel's table edges behind side A and side B along x, inches (`None`: no edges):
    /// [`Battle::deploy`] puts them the whole inches of half the [`DUEL_DEPTH`] less the start
    /// distance behind each side, like the optimal-play game's line on its 1" grid (RULINGS.md,
    /// "Duel table depth").
    /// Only a figure falling back ([`move_figure`]) stops at them.
    pub edges: Option<(f32, f32)>,
    /// The enemies in base contact with each figure ([`Battle::in_contact`]), indexed by
    /// [`play_round`] after the movement step so the attack steps need not scan every figure
    /// for every figure; a superset of the current contacts while `contacts_valid` (a defeat
    /// only removes contacts; anything that moves a figure or turns it to the other side clears
    /// the flag, and the scans then run in full).
    contacts: Vec<Vec<usize>>,
    contacts_valid: bool,
    /// [`wanted_gap`]'s answers for the units' own profiles, kept across the trials played in
    /// this battle (a pure function of its arguments, asked again at the same gaps in every
    /// trial of a duel). Keyed by unit index: a battle is played under one ruleset only, as
    /// every arena is (`Ruleset::arena`, one per batch of one matchup).
    gap_memo: GapMemo,
    /// The scenario's objective (section VIII; [`super::skirmish::mission`]): per-figure goals the
    /// default tactic plays instead of fighting, figures that left the table, the Fortress
    /// Assault's building, initiative bonuses. Empty in duels and the Basic Game.
    pub objective: Objective,
    /// Each side's tactic (side A first): its place in
    /// [`crate::rulesets::vsgmr::tactics::PORTFOLIO`] (0, the default, in duels).
    pub tactic: [usize; 2],
}

/// The depth of the VSGMR duel table, inches (RULINGS.md, "Duel table depth"): the Monte Carlo
/// duel and the optimal-play game ([`super::optimal`]) fall back to the same edges.
pub const DUEL_DEPTH: f32 = 48.0;

/// Rolls one die of `sides` (6, 8, 10 or 12). d8 and d10 come from a uniform draw (`Dice` has
/// no d8/d10); scripted tests give them with `with_uniforms`.
pub fn roll<D: Dice>(dice: &mut D, sides: u8) -> u8 {
    match sides {
        6 => dice.d6(),
        12 => dice.d12(),
        s => 1 + dice.below(s as usize) as u8,
    }
}

/// Super-Move's bonus to side `s`'s initiative rolls: its best living figure's (section VI).
pub fn initiative_bonus(r: &Vsgmr, b: &Battle, s: Side) -> i8 {
    b.figs.iter().filter(|f| f.alive && f.side == s).map(|f| r.profile(f.unit).initiative).max().unwrap_or(0)
}

/// Section II.1 "Initiative": each player rolls a die (+ Super-Move's bonus of its best living
/// figure), the highest chooses who takes the first turn (its tactic's
/// [`crate::rulesets::vsgmr::tactics::Tactic::acts_first`]; the default tactic: itself); ties
/// re-roll. Returns the side that goes first.
pub fn initiative<D: Dice>(r: &Vsgmr, b: &Battle, dice: &mut D) -> Side {
    let extra = b.objective.initiative;
    let (ba, bb) = (initiative_bonus(r, b, 0) + extra[0], initiative_bonus(r, b, 1) + extra[1]);
    loop {
        let (x, y) = (dice.d6() as i8 + ba, dice.d6() as i8 + bb);
        if x != y {
            let winner = if x > y { 0 } else { 1 };
            let tactic = crate::rulesets::vsgmr::tactics::pick(b.tactic[winner]).tactic();
            return if tactic.acts_first(r, b, winner) { winner } else { 1 - winner };
        }
    }
}

/// Rolls an attack or armor die (two, keep the higher, for automatic fire) for a figure of
/// `side` and applies Inspiration's reroll if `fails` says the result fails, the side still has
/// it this round and it is the side's own turn (`turn`): section V "Inspiration", "once per
/// round, on your turn" (RULINGS.md: never an armor roll on the opponent's turn); reroll both
/// dice if the figure rolls two. Returns the natural die kept.
#[allow(clippy::too_many_arguments)]
fn attack_die<D: Dice>(
    b: &mut Battle,
    r: &Vsgmr,
    dice: &mut D,
    side: Side,
    turn: Side,
    sides: u8,
    two: bool,
    fails: impl Fn(u8) -> bool,
) -> u8 {
    let once = |dice: &mut D| {
        let x = roll(dice, sides);
        if two { x.max(roll(dice, sides)) } else { x }
    };
    let n = once(dice);
    if fails(n) && side == turn && b.inspiration_ready(r, side) {
        b.inspiration_used[side] = true;
        return once(dice);
    }
    n
}

/// Section II.3 "Armor" (and V "Ignores Armor", "Tough", VI "Super-Armor"): the target of a
/// hit rolls its armor die; `Ignores Armor` makes it roll twice, both must succeed. `turn`: the
/// side whose turn it is (Inspiration helps only on the owner's turn). Returns true when the
/// hit is cancelled.
pub fn armor_roll<D: Dice>(
    r: &Vsgmr,
    b: &mut Battle,
    dice: &mut D,
    target: usize,
    ignores_armor: bool,
    turn: Side,
) -> bool {
    let p = *r.profile(b.figs[target].unit);
    let Some(needs) = p.armor_needs() else { return false };
    let side = b.figs[target].side;
    let bonus = p.armor_bonus() + b.support(r, target, SupportRoll::Armor);
    for _ in 0..(1 + ignores_armor as u8) {
        let n = attack_die(b, r, dice, side, turn, p.armor_die, false, |n| (n as i8 + bonus) < needs);
        if (n as i8 + bonus) < needs {
            return false;
        }
    }
    true
}

/// Defeats `target`: removes it, or (Recruit, hand to hand, d6 ≥ 5) turns it to the attacker's
/// side (section V "Recruit"); then its Revenge attack, if any (section V "Revenge").
fn defeat<D: Dice>(r: &Vsgmr, b: &mut Battle, dice: &mut D, attacker: usize, target: usize, kind: AttackKind) {
    let a_side = b.figs[attacker].side;
    b.kills[a_side] += 1;
    if let Some(log) = &mut b.kill_log {
        log.push((b.figs[attacker].unit, b.figs[target].unit));
    }
    if b.figs[target].riding.is_some() || !r.profile(b.figs[target].unit).self_moving() {
        b.dismount(r, target);
    }
    let ap = *r.profile(b.figs[attacker].unit);
    if kind == AttackKind::HandToHand && ap.has(Trait::Recruit) {
        let mook = (ap.kind == Kind::Mook) as i8;
        if dice.d6() as i8 - mook >= 5 {
            b.contacts_valid = false;
            let f = &mut b.figs[target];
            f.side = a_side;
            f.acted = true;
            f.ready_round = b.round + 1;
            return;
        }
    }
    b.figs[target].alive = false;
    revenge(r, b, dice, target, attacker, kind);
}

/// Section V "Revenge": a defeated figure with the trait makes one last attack of the type that
/// defeated it at the figure that defeated it, if it can (a distance attack needs the ability
/// and the range).
pub fn revenge<D: Dice>(r: &Vsgmr, b: &mut Battle, dice: &mut D, fallen: usize, killer: usize, kind: AttackKind) {
    let p = *r.profile(b.figs[fallen].unit);
    if !p.has(Trait::Revenge) || !b.figs[killer].alive || b.in_revenge {
        return;
    }
    let possible = match kind {
        AttackKind::Distance => p.distance_attack && b.dist(fallen, killer) <= p.range + EPS,
        AttackKind::HandToHand => true,
    };
    if possible {
        // The fallen figure attacks as if still standing.
        b.figs[fallen].alive = true;
        b.figs[fallen].flying = false;
        b.in_revenge = true;
        single_attack(r, b, dice, fallen, killer, kind);
        b.in_revenge = false;
        b.figs[fallen].alive = false;
    }
}

/// One attack roll of `attacker` at `target` and its effects: armor, defeat, fear, knockback.
/// Returns whether the attack roll succeeded (hit, before armor): what Double Strike and Area
/// Effect Attack need.
pub fn single_attack<D: Dice>(
    r: &Vsgmr,
    b: &mut Battle,
    dice: &mut D,
    attacker: usize,
    target: usize,
    kind: AttackKind,
) -> bool {
    let ap = *r.profile(b.figs[attacker].unit);
    let tp = *r.profile(b.figs[target].unit);
    let side = b.figs[attacker].side;
    let (sides, two, bonus, needs) = match kind {
        AttackKind::Distance => (
            ap.blast_die,
            ap.automatic_fire,
            ap.distance_bonus() + b.support(r, attacker, SupportRoll::Distance),
            tp.distance_needs() + b.in_cover(attacker, target) as i8,
        ),
        AttackKind::HandToHand => {
            (ap.fight_die, false, ap.hand_to_hand_bonus() + b.support(r, attacker, SupportRoll::HandToHand), 4)
        }
    };
    let fear = tp.frightens(&ap);
    let fails = |n: u8| (fear && n <= 2) || (n as i8 + bonus) < needs;
    // The attacker's turn, or the other side's when this is a Revenge attack (section V).
    let turn = if b.in_revenge { 1 - side } else { side };
    let n = attack_die(b, r, dice, side, turn, sides, two, fails);
    if fear && n <= 2 {
        cause_fear(r, b, attacker, target);
        return false;
    }
    if (n as i8 + bonus) < needs {
        return false;
    }
    let saved = armor_roll(r, b, dice, target, ap.has(Trait::IgnoresArmor), turn);
    if !saved {
        defeat(r, b, dice, attacker, target, kind);
    } else if sides > 6 && n >= 8 {
        knockback(r, b, attacker, target, n);
    }
    true
}

/// Section V "Cause Fear": the attacker turns away and moves 1 Move Unit away from the figure
/// with Cause Fear (off the Skirmish's table: out of the game, section II.2).
pub fn cause_fear(r: &Vsgmr, b: &mut Battle, attacker: usize, feared: usize) {
    let p = r.profile(b.figs[attacker].unit);
    let from = (b.figs[feared].x, b.figs[feared].y);
    b.push_away(attacker, from, p.kind.move_unit());
}

/// Section VI "Knockback": a Super-Blast or Super-Fight roll of 8+ that fails to defeat
/// pushes the target straight back a Half Move Unit (its own) per point above 7 (off the
/// Skirmish's table: out of the game, section II.2).
pub fn knockback(r: &Vsgmr, b: &mut Battle, attacker: usize, target: usize, natural: u8) {
    let p = r.profile(b.figs[target].unit);
    let from = (b.figs[attacker].x, b.figs[attacker].y);
    b.push_away(target, from, p.half_move * (natural - 7) as f32);
}

/// Section II.3 "Distance Attacks" (and V "Area Effect Attack"): figure `i` shoots the nearest
/// enemy in range unless it is in contact with an enemy it is likelier to defeat hand to hand.
/// A hit with Area Effect Attack allows a second attack, and a second hit a third, at the same
/// target or one within a Half Move Unit of the first target.
pub fn distance_attack<D: Dice>(r: &Vsgmr, b: &mut Battle, dice: &mut D, i: usize) {
    if !b.can_act(i) || b.figs[i].acted {
        return;
    }
    let p = b.acting(r, i);
    if !p.distance_attack || !p.self_moving() {
        return;
    }
    match fort_attack(r, b, i) {
        Some(AttackKind::Distance) => return attack_fort(r, b, dice, i, AttackKind::Distance),
        Some(AttackKind::HandToHand) => return, // hits the building in step 4
        None => {}
    }
    if let Some(t) = contact_target(r, b, i) {
        let m = r.matchup(b.figs[i].unit, b.figs[t].unit);
        if m.p_hand_to_hand > m.p_distance {
            return; // fights hand to hand in step 4
        }
    }
    let Some(first) = useful_shot(r, b, i) else { return };
    b.figs[i].acted = true;
    let (fx, fy) = (b.figs[first].x, b.figs[first].y);
    let mut target = first;
    let attacks = if p.has(Trait::AreaEffectAttack) { 3 } else { 1 };
    for k in 0..attacks {
        if k > 0 {
            // The next target: the same one if standing, else the nearest enemy within a Half
            // Move Unit of where the original target stood, in range.
            if !b.figs[target].alive || b.figs[target].side == b.figs[i].side {
                let near = (0..b.figs.len()).filter(|&j| {
                    let f = &b.figs[j];
                    f.alive
                        && f.side != b.figs[i].side
                        && ((f.x - fx).powi(2) + (f.y - fy).powi(2)).sqrt() <= p.half_move + EPS
                        && b.dist(i, j) <= p.range + EPS
                });
                match near.min_by(|&x, &y| b.dist(i, x).total_cmp(&b.dist(i, y))) {
                    Some(t) => target = t,
                    None => return,
                }
            }
        }
        if !single_attack(r, b, dice, i, target, AttackKind::Distance) || !b.figs[i].alive {
            return;
        }
    }
}

/// The target of `i`'s distance attack: the nearest enemy in range that a shot can defeat (a
/// shot rated 0 by [`p_defeat`] is never made: it could only strike the shooter with fear).
/// Of a mounted pair, the one the shot is likelier to defeat (ties: the one found first), the
/// rider covered (section II.3 "Cover"; a covered rider is rated as needing 6).
fn useful_shot(r: &Vsgmr, b: &Battle, i: usize) -> Option<usize> {
    let me = b.figs[i].unit;
    let p = r.profile(me);
    if !p.distance_attack {
        return None;
    }
    if let Some(q) = b.objective.quarry {
        // Section VIII "Transport": the object's carrier first, if a shot can defeat it.
        let f = &b.figs[q];
        if f.alive
            && f.side != b.figs[i].side
            && r.matchup(me, f.unit).p_distance > 0.0
            && b.within(i, q, p.range + EPS)
        {
            return Some(q);
        }
    }
    let t =
        b.nearest_enemy(i, |f| r.matchup(me, f.unit).p_distance > 0.0).filter(|&t| b.dist(i, t) <= p.range + EPS)?;
    let Some(u) = b.partner(r, t) else { return Some(t) };
    let rate = |k: usize| {
        let mut tp = *r.profile(b.figs[k].unit);
        if b.figs[k].riding.is_some() {
            tp.traits |= Trait::Stealth.bit();
        }
        p_defeat(p, &tp, AttackKind::Distance)
    };
    Some(if rate(u) > rate(t) { u } else { t })
}

/// The enemy in base contact `i` fights hand to hand: the one it is likeliest to defeat.
fn contact_target(r: &Vsgmr, b: &Battle, i: usize) -> Option<usize> {
    let me = b.figs[i].unit;
    b.touching(r, i).max_by(|&x, &y| {
        let px = r.matchup(me, b.figs[x].unit).p_hand_to_hand;
        let py = r.matchup(me, b.figs[y].unit).p_hand_to_hand;
        px.total_cmp(&py).then(y.cmp(&x))
    })
}

/// Section II.4 "Hand To Hand Attacks" (and V "Double Strike"): a figure in base contact with
/// an enemy attacks it; with Double Strike a hit allows a second hand-to-hand attack.
pub fn hand_to_hand_attack<D: Dice>(r: &Vsgmr, b: &mut Battle, dice: &mut D, i: usize) {
    if !b.can_act(i) || b.figs[i].acted || !b.acting(r, i).self_moving() {
        return;
    }
    if fort_attack(r, b, i) == Some(AttackKind::HandToHand) {
        return attack_fort(r, b, dice, i, AttackKind::HandToHand);
    }
    let Some(t) = contact_target(r, b, i) else { return };
    b.figs[i].acted = true;
    let p = *r.profile(b.figs[i].unit);
    if single_attack(r, b, dice, i, t, AttackKind::HandToHand) && p.has(Trait::DoubleStrike) && b.figs[i].alive {
        if let Some(t2) = contact_target(r, b, i) {
            single_attack(r, b, dice, i, t2, AttackKind::HandToHand);
        }
    }
}

/// The roll an attack of `p` at the Fortress Assault's building needs (section VIII;
/// RULINGS.md, "Missions": it is hit as a figure in cover, with no armor roll): a shot 6 (5,
/// +1 for cover), hand to hand 4 (cover never counts there, section II.4). `(die, two dice,
/// bonus, total needed)`, Support not counted.
pub fn fort_roll(p: &Profile, kind: AttackKind) -> (u8, bool, i8, i8) {
    match kind {
        AttackKind::Distance => (p.blast_die, p.automatic_fire, p.distance_bonus(), 6),
        AttackKind::HandToHand => (p.fight_die, false, p.hand_to_hand_bonus(), 4),
    }
}

/// P(one attack of `p` of `kind` hits the building), in [0, 1] ([`fort_roll`]; 0 for a shot
/// without a distance attack).
pub fn p_hit_fort(p: &Profile, kind: AttackKind) -> f64 {
    if kind == AttackKind::Distance && !p.distance_attack {
        return 0.0;
    }
    let (sides, two, bonus, needs) = fort_roll(p, kind);
    let s = sides as i32;
    (1..=s)
        .filter(|&n| n + bonus as i32 >= needs as i32)
        .map(|n| if two { (2 * n - 1) as f64 / (s * s) as f64 } else { 1.0 / s as f64 })
        .sum()
}

/// The Assaulters' rule of the Fortress Assault (section VIII, [`super::skirmish::mission`]): the attack
/// figure `i` makes at the building this round, if it assaults and the building stands within
/// reach — in base contact (not in flight) the likelier to hit of hand to hand and a shot
/// ([`p_hit_fort`], ties: the shot), else a shot within its Distance Attack Unit that a die
/// can make good. `None`: it fights as in the Basic Game.
pub fn fort_attack(r: &Vsgmr, b: &Battle, i: usize) -> Option<AttackKind> {
    let fort = b.objective.fort.as_ref()?;
    let f = &b.figs[i];
    if f.side != fort.assaulter || fort.hits_left == 0 {
        return None;
    }
    let p = b.acting(r, i);
    if !p.self_moving() {
        return None;
    }
    let d = fort.dist(crate::battle::Pos::new(f.x, f.y));
    let shot = d <= p.range + EPS && p_hit_fort(&p, AttackKind::Distance) > 0.0;
    let contact = d <= r.book.rules.contact + EPS && !f.flying;
    if contact && (!shot || p_hit_fort(&p, AttackKind::HandToHand) > p_hit_fort(&p, AttackKind::Distance)) {
        Some(AttackKind::HandToHand)
    } else if shot {
        Some(AttackKind::Distance)
    } else {
        None
    }
}

/// Figure `i` attacks the building (section VIII "Fortress Assault"): one roll ([`fort_roll`],
/// Support and Inspiration as at a figure), a further one after each hit with Area Effect
/// Attack (shots, up to 3) or Double Strike (hand to hand, up to 2); each hit takes one of the
/// building's hits; no armor roll.
fn attack_fort<D: Dice>(r: &Vsgmr, b: &mut Battle, dice: &mut D, i: usize, kind: AttackKind) {
    b.figs[i].acted = true;
    let ap = *r.profile(b.figs[i].unit);
    let side = b.figs[i].side;
    let (sides, two, bonus, needs) = fort_roll(&ap, kind);
    let support = match kind {
        AttackKind::Distance => b.support(r, i, SupportRoll::Distance),
        AttackKind::HandToHand => b.support(r, i, SupportRoll::HandToHand),
    };
    let bonus = bonus + support;
    let attacks = match kind {
        AttackKind::Distance if ap.has(Trait::AreaEffectAttack) => 3,
        AttackKind::HandToHand if ap.has(Trait::DoubleStrike) => 2,
        _ => 1,
    };
    for _ in 0..attacks {
        let n = attack_die(b, r, dice, side, side, sides, two, |n| (n as i8 + bonus) < needs);
        let Some(fort) = b.objective.fort.as_mut() else { return };
        if (n as i8 + bonus) < needs || fort.hits_left == 0 {
            return;
        }
        fort.hits_left -= 1;
        if fort.hits_left == 0 {
            return;
        }
    }
}

/// Section V "Disable" and "Summon", used by a figure that cannot attack this round (the
/// default tactic): Disable the nearest enemy within the Disabler's own Distance Attack Unit
/// (12", Sniper 24"; d6 ≥ 4: it cannot act next round); else Summon (d6 ≥ 5) the ally farthest
/// from the enemy to its side. The summoned figure acts at once if it has not acted this round
/// (section V "Summon"), but not before the next round if the summoner's figure says so (the
/// Scream Queen's note, section VII).
pub fn disable_or_summon<D: Dice>(r: &Vsgmr, b: &mut Battle, dice: &mut D, i: usize) {
    if !b.can_act(i) || b.figs[i].acted {
        return;
    }
    let p = b.acting(r, i);
    if !p.self_moving() || !(p.has(Trait::Disable) || p.has(Trait::Summon)) {
        return;
    }
    if useful_shot(r, b, i).is_some() || contact_target(r, b, i).is_some() {
        return;
    }
    let mook = (p.kind == Kind::Mook) as i8;
    if p.has(Trait::Disable) {
        let round = b.round;
        if let Some(t) = b
            .nearest_enemy(i, |f| f.disabled_round != round + 1 && f.riding.is_none())
            .filter(|&t| b.dist(i, t) <= p.range + EPS)
        {
            b.figs[i].acted = true;
            if dice.d6() as i8 - mook >= 4 {
                b.figs[t].disabled_round = b.round + 1;
            }
            return;
        }
    }
    if p.has(Trait::Summon) {
        let front = |b: &Battle, j: usize| b.nearest_enemy(j, |_| true).map_or(0.0, |t| b.dist(j, t));
        let me = front(b, i);
        let side = b.figs[i].side;
        // The farthest from the enemy (the last of equals, as `max_by` gives it), each ally's
        // distance computed once.
        let mut ally: Option<(usize, f32)> = None;
        for j in 0..b.figs.len() {
            let f = &b.figs[j];
            if j == i || !f.alive || f.riding.is_some() || f.side != side {
                continue;
            }
            let d = front(b, j);
            if d > me + p.half_move && ally.is_none_or(|(_, best)| best.total_cmp(&d) != std::cmp::Ordering::Greater) {
                ally = Some((j, d));
            }
        }
        let ally = ally.map(|(j, _)| j);
        if let Some(j) = ally {
            b.figs[i].acted = true;
            if dice.d6() as i8 - mook >= 5 {
                let (x, y) = (b.figs[i].x, b.figs[i].y);
                b.contacts_valid = false;
                b.figs[j].x = x;
                b.figs[j].y = y + 1.0;
                b.carry(j); // "its rider, driver/pilot and passengers will also be summoned"
                if p.summoned_wait {
                    b.figs[j].ready_round = b.figs[j].ready_round.max(b.round + 1);
                }
            }
        }
    }
}

/// The figures of each side in acting order for one step: the first player's then the other's
/// (phased), or alternating single figures (everyone acts).
fn order(r: &Vsgmr, b: &Battle, first: Side, out: &mut Vec<usize>) {
    out.clear();
    let n = b.figs.len();
    let mut mine = (0..n).filter(|&i| b.figs[i].side == first);
    let mut theirs = (0..n).filter(|&i| b.figs[i].side != first);
    match r.book.rules.sequence {
        Sequence::Phased => {
            out.extend(&mut mine);
            out.extend(&mut theirs);
        }
        Sequence::EveryoneActs => loop {
            let (m, t) = (mine.next(), theirs.next());
            if m.is_none() && t.is_none() {
                break;
            }
            out.extend(m);
            out.extend(t);
        },
    }
}

/// One round (section II): initiative, movement, distance attacks, hand-to-hand attacks.
/// `first`: the side going first (from [`initiative`], or the duel's coin in round 1).
pub fn play_round<D: Dice>(r: &Vsgmr, b: &mut Battle, dice: &mut D, first: Side, scratch: &mut Vec<usize>) {
    b.inspiration_used = [false, false];
    b.contacts_valid = false;
    for f in b.figs.iter_mut() {
        f.acted = false;
        f.moved = false;
    }
    // One order for the round: only Recruit changes a figure's side, and only in the
    // hand-to-hand step (a hand-to-hand defeat, or its Revenge), whose order is already set.
    order(r, b, first, scratch);
    let tactic = b.tactic.map(|t| crate::rulesets::vsgmr::tactics::pick(t).tactic());
    for k in 0..scratch.len() {
        tactic[b.figs[scratch[k]].side].move_figure(r, b, scratch[k]);
    }
    b.index_contacts(r);
    for k in 0..scratch.len() {
        let i = scratch[k];
        distance_attack(r, b, dice, i);
        disable_or_summon(r, b, dice, i);
    }
    for k in 0..scratch.len() {
        hand_to_hand_attack(r, b, dice, scratch[k]);
    }
    b.contacts_valid = false;
}

/// Plays a duel until one side is eliminated or `max_rounds` pass (RULINGS.md, "Common").
/// Round 1's first side is `first` (the trials alternate it: a fair coin) when both sides have
/// the same initiative bonus, else rolled, so Super-Move's bonus counts from round 1 (section
/// VI); later rounds roll initiative.
pub fn play<D: Dice>(r: &Vsgmr, b: &mut Battle, dice: &mut D, first: Side, max_rounds: u32) -> DuelOutcome {
    let mut scratch = Vec::with_capacity(b.figs.len());
    b.round = 0;
    loop {
        if let Some(out) = duel_round(r, b, dice, first, max_rounds, &mut scratch) {
            return out;
        }
    }
}

/// The next round of [`play`] (round `b.round + 1`; [`Battle::deploy`] starts at 0): its
/// outcome once the duel is over after it (a side eliminated, or round `max_rounds`), else
/// `None`.
pub fn duel_round<D: Dice>(
    r: &Vsgmr,
    b: &mut Battle,
    dice: &mut D,
    first: Side,
    max_rounds: u32,
    scratch: &mut Vec<usize>,
) -> Option<DuelOutcome> {
    let round = b.round + 1;
    b.round = round;
    let even = initiative_bonus(r, b, 0) == initiative_bonus(r, b, 1);
    let lead = if round == 1 && even { first } else { initiative(r, b, dice) };
    play_round(r, b, dice, lead, scratch);
    let (na, nb) = (b.alive_count(0), b.alive_count(1));
    if na == 0 || nb == 0 {
        let winner = match (na, nb) {
            (0, 0) => None,
            (0, _) => Some(1),
            _ => Some(0),
        };
        return Some(DuelOutcome { winner, turns: round, kills: b.kills });
    }
    (round >= max_rounds).then_some(DuelOutcome { winner: None, turns: max_rounds, kills: b.kills })
}
