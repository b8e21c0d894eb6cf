//! The rules of Army Men Combat v2.0, one function per rule step, and the duel battle loop.
//!
//! Every function cites the rulebook section it implements ("AMC 2.0, Shooting") and follows
//! RULINGS.md, "Army Men Combat v2.0". The functions are generic over [`Dice`] so the rule
//! tests drive them with scripted dice.
//!
//! Why the duel is one-dimensional: a duel is fought on open ground between two lines of
//! units facing each other, so only the gap between the lines matters. Every unit of a side
//! starts on its side's line; a unit that moves or charges carries its own position. The
//! line is the depth of the mission's table ([`DUEL_DEPTH`], 48"), the two lines symmetric
//! about its middle, so a unit that retreats stops at its own table edge, as in the
//! optimal-play game ([`crate::rulesets::amc::optimal::AmcGame`]).

use crate::dice::Dice;
use crate::rulesets::amc::{ArmyMenCombat, Kind, Profile, Quality, Weapon};
use crate::rulesets::{DuelOutcome, Side};

/// The most units a side can field in a battle (a 150-point squad of 5-point entries).
pub const MAX_UNITS: usize = 64;

/// The target number of a quality test: "if you score a 4+ it's a success" (AMC 2.0,
/// "Quality Tests").
pub const QUALITY: u8 = 4;
/// Snipers pass quality tests on 2+ when shooting (AMC 2.0, "Snipers").
pub const SNIPER_QUALITY: u8 = 2;

/// Which part of a vehicle a hit strikes (AMC 2.0, "Vehicle Rules", Damage).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Arc {
    /// Roll 2 dice, keep the lowest.
    Front,
    /// Roll 1 die.
    Side,
    /// Roll 2 dice, keep the highest.
    Rear,
}

/// The state of one unit during a battle: plain small integers, copied freely.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct UnitState {
    /// Models left (vehicles: 1 while not destroyed).
    pub models: u8,
    /// Pinned (AMC 2.0, "Morale").
    pub pinned: bool,
    /// Vehicle damage 1–2: must roll 4+ to activate next time.
    pub stunned: bool,
    /// Vehicle damage 3–4: may not move or pivot next time it is activated.
    pub immobile: bool,
    /// Hunkered since its last activation: +1 block die.
    pub hunker: bool,
    /// Already activated this round.
    pub activated: bool,
    /// Position along the duel axis, inches from side A's line.
    pub x: f32,
}

impl UnitState {
    /// A fresh unit of `p` at position `x`.
    pub fn fresh(p: &Profile, x: f32) -> Self {
        UnitState { models: p.models, x, ..Default::default() }
    }
    /// Whether the unit is still on the table.
    pub fn alive(&self) -> bool {
        self.models > 0
    }
}

/// AMC 2.0, "Quality Tests": roll one die, `target`+ is a success. *Recruits* must re-roll
/// a success once; *Veterans* may re-roll a failure once (RULINGS.md: they always do).
pub fn quality_test<D: Dice>(dice: &mut D, q: Quality, target: u8) -> bool {
    let pass = dice.d6() >= target;
    match q {
        Quality::Normal => pass,
        Quality::Recruit if pass => dice.d6() >= target,
        Quality::Veteran if !pass => dice.d6() >= target,
        _ => pass,
    }
}

/// The chance of passing one quality test (the exact twin of [`quality_test`]).
pub fn p_quality(q: Quality, target: u8) -> f64 {
    let p = (7 - target as i32).clamp(0, 6) as f64 / 6.0;
    match q {
        Quality::Normal => p,
        Quality::Recruit => p * p,
        Quality::Veteran => 1.0 - (1.0 - p) * (1.0 - p),
    }
}

/// `n` quality tests; returns the successes (AMC 2.0, "Shooting": each success is a hit or
/// a block).
pub fn successes<D: Dice>(dice: &mut D, n: u32, q: Quality, target: u8) -> u32 {
    (0..n).map(|_| quality_test(dice, q, target) as u32).sum()
}

/// The attacks of `models` models firing weapon `w`: `1`, `3` per model, or `D6` / `2D6`
/// rolled per model (RULINGS.md, "Shooting").
pub fn roll_attacks<D: Dice>(dice: &mut D, w: &Weapon, models: u32) -> u32 {
    if w.dice == 0 {
        return w.attacks as u32 * models;
    }
    (0..models * w.dice as u32).map(|_| dice.d6() as u32).sum()
}

/// Attacks of one volley, split by whether the weapon is marked `*` (doubled against
/// vehicles).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Volley {
    pub plain: u32,
    pub star: u32,
}

/// AMC 2.0, "Weapons": against vehicles halve the hits (round down), or double them for
/// weapons marked `*`. Other targets take the hits as rolled.
pub fn hits_on(target: &Profile, hits: Volley) -> u32 {
    match target.kind {
        Kind::Vehicle => hits.plain / 2 + 2 * hits.star,
        Kind::Infantry => hits.plain + hits.star,
    }
}

/// The weapons a unit's models fire at distance `d`, as `(weapon, models)` groups, at most 3.
///
/// AMC 2.0, "Shooting": models in range fire one weapon; a model with two (the Grenadier)
/// fires the one with more expected hits on this target (RULINGS.md). The defender removes
/// plain models first, so a Specialist (who replaced his Rifle) is the last model standing and
/// a Grenadier the last but the Specialist. "Vehicle Rules": vehicles fire all weapons.
pub fn firing_groups(p: &Profile, models: u8, target: &Profile, d: f32) -> [(Option<Weapon>, u32); 3] {
    let mut out = [(None, 0); 3];
    if models == 0 {
        return out;
    }
    if p.kind == Kind::Vehicle {
        for (k, w) in p.weapons.iter().enumerate() {
            if let Some(w) = w.filter(|w| w.in_range(d)) {
                out[k] = (Some(w), 1);
            }
        }
        return out;
    }
    let specialist = p.specialist.is_some() as u8;
    let grenadier = (p.grenadier.is_some() && models > specialist) as u8;
    let plain = (models - specialist - grenadier) as u32;
    let gun = p.weapons[0].filter(|w| w.in_range(d));
    if plain > 0 {
        out[0] = (gun, plain);
    }
    if let Some(s) = p.specialist.filter(|w| w.in_range(d)) {
        out[1] = (Some(s), 1);
    }
    if grenadier == 1 {
        let nade = p.grenadier.filter(|w| w.in_range(d));
        let best = match (nade, gun) {
            (Some(g), Some(r)) => Some(if g.expected_hits_on(target) >= r.expected_hits_on(target) { g } else { r }),
            (g, r) => g.or(r),
        };
        out[2] = (best, 1);
    }
    out
}

/// Rolls the attacks of one volley at distance `d` (AMC 2.0, "Shooting").
pub fn roll_volley<D: Dice>(dice: &mut D, p: &Profile, models: u8, target: &Profile, d: f32) -> Volley {
    let mut v = Volley::default();
    for (w, n) in firing_groups(p, models, target, d) {
        if let Some(w) = w {
            let a = roll_attacks(dice, &w, n);
            if w.star { v.star += a } else { v.plain += a }
        }
    }
    v
}

/// The target number of the shooter's hit tests: 4+, or 2+ for Snipers (AMC 2.0, "Snipers").
pub fn hit_target(p: &Profile) -> u8 {
    if p.sniper { SNIPER_QUALITY } else { QUALITY }
}

/// AMC 2.0, "Shooting": the defender takes one block test per hit plus its additional dice;
/// Sniper hits on infantry give no block die per hit ("Snipers"). Returns the unblocked hits.
pub fn unblocked<D: Dice>(dice: &mut D, target: &Profile, hits: u32, extra: u32, sniper: bool) -> u32 {
    let per_hit = if sniper && target.kind == Kind::Infantry { 0 } else { hits };
    let blocks = successes(dice, per_hit + extra, target.quality, QUALITY);
    hits.saturating_sub(blocks)
}

/// Additional block dice of a target against shooting (AMC 2.0, "Additional Dice"): vehicle
/// armor, Hunker +1, cover +1 for infantry ("Cover Terrain"), +1 against a Guard reaction
/// ("Guard Actions").
pub fn block_dice(target: &Profile, st: &UnitState, in_cover: bool, guard_reaction: bool) -> u32 {
    target.armor as u32 + st.hunker as u32 + (in_cover && target.kind == Kind::Infantry) as u32 + guard_reaction as u32
}

/// One roll on the vehicle damage table for a hit in `arc` (AMC 2.0, "Damage"): front keeps
/// the lower of 2 dice, side rolls 1, rear keeps the higher of 2.
pub fn damage_roll<D: Dice>(dice: &mut D, arc: Arc) -> u8 {
    match arc {
        Arc::Side => dice.d6(),
        Arc::Front => dice.d6().min(dice.d6()),
        Arc::Rear => dice.d6().max(dice.d6()),
    }
}

/// AMC 2.0, "Damage": roll once per unblocked hit: 1–2 must roll 4+ to activate next,
/// 3–4 may not move next activation, 5–6 destroyed. Returns whether it was destroyed.
pub fn vehicle_damage<D: Dice>(dice: &mut D, st: &mut UnitState, unblocked: u32, arc: Arc) -> bool {
    for _ in 0..unblocked {
        match damage_roll(dice, arc) {
            1 | 2 => st.stunned = true,
            3 | 4 => st.immobile = true,
            _ => {
                st.models = 0;
                return true;
            }
        }
    }
    false
}

/// AMC 2.0, "Morale": if shooting brings a unit to half or less of its original size it
/// takes a quality test; failed → Pinned. Only after casualties (RULINGS.md); a unit that is
/// already Pinned stays so and does not test.
pub fn morale_after_shooting<D: Dice>(dice: &mut D, p: &Profile, st: &mut UnitState, casualties: u32) {
    if casualties > 0 && st.alive() && !st.pinned && 2 * st.models <= p.models && p.kind == Kind::Infantry {
        st.pinned = !quality_test(dice, p.quality, QUALITY);
    }
}

/// AMC 2.0, "Vehicle Units" (Jeep): "If a unit is inside when destroyed all models are placed
/// within 3" and the unit takes D6 hits". The hits are resolved as in "Shooting": the unit
/// takes one block test per hit (its quality, 4+; no additional dice: it is neither in cover
/// nor hunkered as it climbs out) and loses a model per unblocked hit. They are not shooting,
/// so no morale test follows ("Morale": "If shooting brings a unit down..."). Returns the
/// casualties.
pub fn wreck_hits<D: Dice>(dice: &mut D, p: &Profile, st: &mut UnitState) -> u32 {
    let hits = dice.d6() as u32;
    let lost = unblocked(dice, p, hits, 0, false).min(st.models as u32);
    st.models -= lost as u8;
    lost
}

/// AMC 2.0, "Morale": a Pinned unit tests when it would activate or is charged: pass → no
/// longer Pinned; fail → destroyed. Returns whether the unit may go on.
pub fn pinned_test<D: Dice>(dice: &mut D, p: &Profile, st: &mut UnitState) -> bool {
    if !st.pinned {
        return true;
    }
    if quality_test(dice, p.quality, QUALITY) {
        st.pinned = false;
        true
    } else {
        st.models = 0;
        false
    }
}

/// AMC 2.0, "Damage" 1–2: a stunned vehicle must roll 4+ to activate; failed → it loses the
/// activation. The effect is spent either way. Returns whether it may act.
pub fn stunned_test<D: Dice>(dice: &mut D, st: &mut UnitState) -> bool {
    if !st.stunned {
        return true;
    }
    st.stunned = false;
    dice.d6() >= 4
}

/// AMC 2.0, "Playing the Game": before each activation both players roll a die and add their
/// non-activated units; the higher activates next; ties re-roll. A player with no unit left
/// to activate lets the other go on.
pub fn activation_rolloff<D: Dice>(dice: &mut D, left: [u32; 2]) -> Side {
    match left {
        [0, _] => 1,
        [_, 0] => 0,
        _ => loop {
            let a = dice.d6() as u32 + left[0];
            let b = dice.d6() as u32 + left[1];
            if a != b {
                return if a > b { 0 } else { 1 };
            }
        },
    }
}

/// AMC 2.0, "Damage": "If hit in the front roll 2 dice and pick the lowest, if hit in the side
/// roll 1 die, and if hit in the rear roll 2 dice and pick the highest". The arc of a hit from
/// `cos`, the cosine of the angle between the vehicle's facing and the direction from the
/// vehicle to the attacker: front and rear are 90° each (RULINGS.md, "Vehicles as targets"),
/// so within 45° of the facing is the front (45° itself included), within 45° of its back the
/// rear, the rest the sides.
pub fn arc_of_bearing(cos: f32) -> Arc {
    let edge = std::f32::consts::FRAC_1_SQRT_2 - 1e-6;
    if cos >= edge {
        Arc::Front
    } else if cos <= -edge {
        Arc::Rear
    } else {
        Arc::Side
    }
}

/// One shooting attack of `shooter` on `target` at distance `d` (AMC 2.0, "Shooting",
/// "Weapons", "Damage", "Morale"); `arc`: the arc of the target a vehicle is hit in (duels:
/// always [`Arc::Front`], vehicles face the enemy line). Returns the casualties (models
/// removed; for a vehicle, 1 if destroyed).
#[allow(clippy::too_many_arguments)]
pub fn shoot<D: Dice>(
    dice: &mut D,
    sp: &Profile,
    shooter: &UnitState,
    tp: &Profile,
    target: &mut UnitState,
    d: f32,
    in_cover: bool,
    guard_reaction: bool,
    arc: Arc,
) -> u32 {
    let volley = roll_volley(dice, sp, shooter.models, tp, d);
    let t = hit_target(sp);
    let hits = Volley {
        plain: successes(dice, volley.plain, sp.quality, t),
        star: successes(dice, volley.star, sp.quality, t),
    };
    let hits = hits_on(tp, hits);
    let extra = block_dice(tp, target, in_cover, guard_reaction);
    let wounds = unblocked(dice, tp, hits, extra, sp.sniper);
    match tp.kind {
        Kind::Vehicle => vehicle_damage(dice, target, wounds, arc) as u32,
        Kind::Infantry => {
            let lost = wounds.min(target.models as u32);
            target.models -= lost as u8;
            morale_after_shooting(dice, tp, target, lost);
            lost
        }
    }
}

/// Expected unblocked hits of one volley, exactly: E[max(0, hits − blocks)] over the
/// distribution of hits and blocks (AMC 2.0, "Shooting"; [`crate::rulesets::amc::exact::unblocked_dist`]).
/// 0 when no weapon reaches `d` inches. Not used to roll.
pub fn expected_wounds(sp: &Profile, models: u8, tp: &Profile, target: &UnitState, d: f32, in_cover: bool) -> f64 {
    if models == 0 || !sp.has_weapon_in_range(d) {
        return 0.0;
    }
    let extra = block_dice(tp, target, in_cover, false);
    let dist = crate::rulesets::amc::exact::unblocked_dist(sp, models, tp, d, extra);
    dist.iter().enumerate().map(|(u, p)| u as f64 * p).sum()
}

/// AMC 2.0, "Melee": models strike with their melee weapon (Fists 1, Bayonet 2; "Weapons");
/// the charging unit gets +1 die. Vehicles may not strike back ("Vehicle Rules", Melee).
pub fn melee_attacks(p: &Profile, models: u8, charging: bool) -> u32 {
    if p.kind == Kind::Vehicle || models == 0 {
        return 0;
    }
    p.melee_attacks as u32 * models as u32 + charging as u32
}

/// Wounds one side deals in one melee round: attack tests, halved against vehicles, then
/// the defender's blocks (armor and Hunker count; cover is only against shooting).
pub fn melee_strikes<D: Dice>(
    dice: &mut D,
    ap: &Profile,
    att: &UnitState,
    dp: &Profile,
    def: &UnitState,
    charging: bool,
) -> u32 {
    let attacks = melee_attacks(ap, att.models, charging);
    let hits = successes(dice, attacks, ap.quality, QUALITY);
    let hits = hits_on(dp, Volley { plain: hits, star: 0 });
    unblocked(dice, dp, hits, dp.armor as u32 + def.hunker as u32, false)
}

/// Removes melee wounds from a unit (models, or rolls on the damage table in `arc`).
fn take_melee_wounds<D: Dice>(dice: &mut D, p: &Profile, st: &mut UnitState, wounds: u32, arc: Arc) {
    match p.kind {
        Kind::Vehicle => {
            vehicle_damage(dice, st, wounds, arc);
        }
        Kind::Infantry => st.models -= wounds.min(st.models as u32) as u8,
    }
}

/// How a melee ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MeleeResult {
    /// Rounds fought.
    pub rounds: u32,
}

/// AMC 2.0, "Melee": both units strike (the charger with +1 die in the first round);
/// casualties are removed after both attacked; the unit that caused fewer wounds takes a
/// quality test and is destroyed if it fails (equal: neither; a vehicle takes none under
/// `[rules] vehicle_melee_test = "exempt"`, [`Profile::melee_test`]). Repeat without the charge
/// bonus until one is destroyed, at most `cap` rounds (RULINGS.md: then both stay). A vehicle
/// defender takes its damage rolls in `arc`, the arc the charger came from (vehicles never
/// charge; duels: [`Arc::Front`]).
pub fn melee<D: Dice>(
    dice: &mut D,
    cp: &Profile,
    charger: &mut UnitState,
    dp: &Profile,
    defender: &mut UnitState,
    cap: u32,
    arc: Arc,
) -> MeleeResult {
    let mut rounds = 0;
    while charger.alive() && defender.alive() && rounds < cap {
        let first = rounds == 0;
        rounds += 1;
        let to_def = melee_strikes(dice, cp, charger, dp, defender, first);
        let to_chg = melee_strikes(dice, dp, defender, cp, charger, false);
        take_melee_wounds(dice, dp, defender, to_def, arc);
        take_melee_wounds(dice, cp, charger, to_chg, Arc::Front);
        if to_def == to_chg {
            continue;
        }
        // `to_def` are the wounds the charger caused, `to_chg` those the defender caused.
        let (lp, loser) = if to_chg < to_def { (dp, &mut *defender) } else { (cp, &mut *charger) };
        if loser.alive() && lp.melee_test && !quality_test(dice, lp.quality, QUALITY) {
            loser.models = 0;
        }
    }
    MeleeResult { rounds }
}

/// What the default tactic does with one activation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Action {
    /// Move 0", shoot.
    Hold,
    /// Move up to `0` inches toward the target, then shoot (Advance: infantry 6", vehicles 12").
    Advance(f32),
    /// Move up to `0` inches straight away from the target, then shoot (an Advance away from
    /// it, toward the own table edge).
    Retreat(f32),
    /// Move up to `0` inches toward the target, no shooting (Rush: 12", vehicles 24").
    Rush(f32),
    /// Move up to 12" into melee.
    Charge,
    /// Nothing useful to do (a vehicle without weapons; a unit that may not move).
    Wait,
}

/// The default tactic's action for `p` (state `me`) against `tp` (state `target`), read on
/// the open duel ground ([`decide`] with the ground's cover for both); `room`: inches `p`
/// (`room[0]`) and the target (`room[1]`) may still retreat to their own table edges.
pub fn plan(
    r: &ArmyMenCombat,
    p: &Profile,
    me: &UnitState,
    tp: &Profile,
    target: &UnitState,
    room: [f32; 2],
) -> Action {
    decide(r, p, me, tp, target, [Exposure::front(r.book.rules.cover); 2], room).action
}

pub use crate::rulesets::amc::tactics::doctrine::{Decision, Exposure, decide};

/// The depth of the duel table, inches (RULINGS.md, "Duel table depth": the mission's 48"
/// table); the two lines stand symmetric about its middle, so a side may retreat
/// (48" − distance) / 2 behind its line, as in the optimal-play game.
pub const DUEL_DEPTH: f32 = 48.0;

/// The arena of a duel: each side's units (all copies of one profile). Reused across trials.
#[derive(Debug, Clone, Default)]
pub struct Battle {
    pub profile: [usize; 2],
    pub units: [Vec<UnitState>; 2],
    /// Each side's table edge (x, inches): A's behind x = 0, B's behind x = distance.
    pub edge: [f32; 2],
}

impl Battle {
    /// Places `na` units of profile `a` on A's line (x = 0) and `nb` of `b` on B's line
    /// (x = `distance`), on a table [`DUEL_DEPTH`] deep (no room behind a line when the
    /// distance is more than that).
    pub fn deploy(&mut self, r: &ArmyMenCombat, a: usize, na: u32, b: usize, nb: u32, distance: f32) {
        self.profile = [a, b];
        let back = ((DUEL_DEPTH - distance) / 2.0).max(0.0);
        self.edge = [-back, distance + back];
        for (s, (i, n, x)) in [(a, na, 0.0), (b, nb, distance)].into_iter().enumerate() {
            self.units[s].clear();
            let n = (n as usize).min(MAX_UNITS);
            self.units[s].extend((0..n).map(|_| UnitState::fresh(&r.profiles[i], x)));
        }
    }

    fn alive(&self, s: Side) -> bool {
        self.units[s].iter().any(|u| u.alive())
    }

    fn left(&self, s: Side) -> u32 {
        self.units[s].iter().filter(|u| u.alive() && !u.activated).count() as u32
    }
}

/// Moves unit `me` up to `dist` toward `to`, stopping 1" short (AMC 2.0, "Movement": units
/// come within 1" of others only when charging).
fn move_toward(me: &mut UnitState, to: f32, dist: f32) {
    let gap = (to - me.x).abs();
    let step = dist.min((gap - 1.0).max(0.0));
    me.x += step * (to - me.x).signum();
}

/// One activation of unit `u` of side `s` (AMC 2.0, "Activation"): the Pinned test, the
/// stunned test, then the default tactic's action against the nearest enemy unit.
pub fn activate<D: Dice>(r: &ArmyMenCombat, battle: &mut Battle, dice: &mut D, s: Side, u: usize) -> u32 {
    let o = 1 - s;
    let (p, tp) = (&r.profiles[battle.profile[s]], &r.profiles[battle.profile[o]]);
    let mut me = battle.units[s][u];
    me.activated = true;
    me.hunker = false;
    let may_act = pinned_test(dice, p, &mut me) && stunned_test(dice, &mut me);
    let mut kills = 0;
    if may_act && me.alive() {
        let Some(t) = nearest(&battle.units[o], me.x) else {
            battle.units[s][u] = me;
            return 0;
        };
        let mut target = battle.units[o][t];
        let was_alive = target.alive();
        let room = (battle.edge[s] - me.x).abs();
        let their_room = (battle.edge[o] - target.x).abs();
        match plan(r, p, &me, tp, &target, [room, their_room]) {
            Action::Hold => {
                let d = (me.x - target.x).abs();
                shoot(dice, p, &me, tp, &mut target, d, r.book.rules.cover, false, Arc::Front);
            }
            Action::Advance(dist) => {
                move_toward(&mut me, target.x, dist);
                let d = (me.x - target.x).abs();
                shoot(dice, p, &me, tp, &mut target, d, r.book.rules.cover, false, Arc::Front);
            }
            Action::Retreat(dist) => {
                me.x += dist.min(room) * (battle.edge[s] - me.x).signum();
                let d = (me.x - target.x).abs();
                shoot(dice, p, &me, tp, &mut target, d, r.book.rules.cover, false, Arc::Front);
            }
            Action::Rush(dist) => move_toward(&mut me, target.x, dist),
            Action::Charge => {
                me.x = target.x;
                if pinned_test(dice, tp, &mut target) {
                    melee(dice, p, &mut me, tp, &mut target, r.book.rules.melee_round_cap, Arc::Front);
                }
            }
            Action::Wait => {}
        }
        me.immobile = false;
        kills += (was_alive && !target.alive()) as u32;
        battle.units[o][t] = target;
    }
    battle.units[s][u] = me;
    kills
}

fn nearest(units: &[UnitState], x: f32) -> Option<usize> {
    let mut best: Option<(usize, f32)> = None;
    for (i, u) in units.iter().enumerate() {
        if u.alive() {
            let d = (u.x - x).abs();
            if best.is_none_or(|(_, bd)| d < bd) {
                best = Some((i, d));
            }
        }
    }
    best.map(|b| b.0)
}

/// Plays a battle to the end (one side has no unit left) or `max_rounds` rounds (draw).
///
/// AMC 2.0, "Playing the Game": each round every unit activates once; before every
/// activation, the first of the battle included, both sides roll d6 + their units not yet
/// activated and the higher activates next ([`activation_rolloff`]; RULINGS.md, "AMC activation
/// roll-off": the bigger side usually goes first). No seat is handed in: who acts first is
/// the dice's.
pub fn play<D: Dice>(r: &ArmyMenCombat, battle: &mut Battle, dice: &mut D, max_rounds: u32) -> DuelOutcome {
    let mut out = DuelOutcome::default();
    for round in 1..=max_rounds {
        out.turns = round;
        for s in 0..2 {
            battle.units[s].iter_mut().for_each(|u| u.activated = false);
        }
        loop {
            let left = [battle.left(0), battle.left(1)];
            if left == [0, 0] {
                break;
            }
            let s = activation_rolloff(dice, left);
            let u = battle.units[s].iter().position(|u| u.alive() && !u.activated).expect("a unit left");
            let before = [battle.alive_count(0), battle.alive_count(1)];
            activate(r, battle, dice, s, u);
            let after = [battle.alive_count(0), battle.alive_count(1)];
            out.kills[s] += before[1 - s] - after[1 - s];
            out.kills[1 - s] += before[s] - after[s];
            match (battle.alive(0), battle.alive(1)) {
                (true, true) => {}
                (true, false) => {
                    out.winner = Some(0);
                    return out;
                }
                (false, true) => {
                    out.winner = Some(1);
                    return out;
                }
                (false, false) => return out,
            }
        }
    }
    out
}

impl Battle {
    fn alive_count(&self, s: Side) -> u32 {
        self.units[s].iter().filter(|u| u.alive()).count() as u32
    }
}
