//! The rules of Guns 'N Grenades v1.5 for open-ground fights, one function per rule step.
//!
//! A [`Battle`] holds both sides' units as small structs of numbers and is reused across
//! trials (no allocation per trial). The default tactic of RULINGS.md ("Common: the stand-up
//! duel") picks what each activation does: heal a wounded squad-mate (medics), else attack
//! from where it stands, else walk the least that lets it attack, else rush toward (or, inside
//! a minimum range, away from) the enemy.

use crate::dice::Dice;
use crate::rulesets::gng::{FastShot, GunsNGrenades, Kind, MedicHeals, Profile, SelfBlast};
use crate::rulesets::{DuelOutcome, Side};

/// Distances within this of a range limit count as inside it (float rounding after moves).
const EPS: f32 = 1e-3;

/// Shaken vehicles: the lock is set when the vehicle becomes Shaken and takes effect during
/// its side's next turn (RULINGS.md: "cannot move during its side's next turn but can fire").
pub(crate) const LOCK_NONE: u8 = 0;
pub(crate) const LOCK_PENDING: u8 = 1;
pub(crate) const LOCK_ACTIVE: u8 = 2;

/// One unit on the table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fighter {
    /// Index into the ruleset's cost list.
    pub unit: u16,
    /// Position in inches.
    pub x: f32,
    pub y: f32,
    /// Damage taken, in life stages; destroyed at the profile's `health`.
    pub damage: u8,
    pub alive: bool,
    /// Already activated this turn.
    pub activated: bool,
    /// Shaken lock state (vehicles).
    pub lock: u8,
}

impl Fighter {
    pub fn new(unit: usize, x: f32, y: f32) -> Self {
        Fighter { unit: unit as u16, x, y, damage: 0, alive: true, activated: false, lock: LOCK_NONE }
    }
}

/// Both sides' units and running counts; reused across trials.
#[derive(Debug, Clone, Default)]
pub struct Battle {
    pub sides: [Vec<Fighter>; 2],
    /// Units alive on each side.
    pub alive: [u32; 2],
    /// Enemy units each side destroyed.
    pub kills: [u32; 2],
    /// Scratch of [`take_turn`]: each unit's plan apart from healing, with what it was worked
    /// out for (enemies alive, the unit's damage and lock).
    plans: Vec<((u32, u8, u8), Plan)>,
    /// Scratch of [`crate::rulesets::Ruleset::play_duel`]: the last one-against-one matchup
    /// asked, `(a, b, distance bits)`, and whether it is a stand-up duel ([`is_stand_up`]),
    /// so that a run of duels of one matchup does not ask again for every trial.
    pub(crate) stand_up: Option<((usize, usize, u32), bool)>,
}

#[inline]
fn dist(a: &Fighter, b: &Fighter) -> f32 {
    ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).sqrt()
}

impl Battle {
    /// Deploys `na` units of `a` in a line at x = 0 and `nb` of `b` in a line at
    /// x = `distance`, each line centred on y = 0 with `spacing` between neighbours
    /// (RULINGS.md: a squad deploys in a line with 2" between units).
    pub fn deploy_lines(
        &mut self,
        a: usize,
        na: u32,
        b: usize,
        nb: u32,
        distance: f32,
        spacing: f32,
        _r: &GunsNGrenades,
    ) {
        for (s, (unit, n, x)) in [(a, na, 0.0f32), (b, nb, distance)].into_iter().enumerate() {
            let side = &mut self.sides[s];
            side.clear();
            let half = (n as f32 - 1.0) / 2.0;
            for k in 0..n {
                side.push(Fighter::new(unit, x, (k as f32 - half) * spacing));
            }
            self.alive[s] = n;
        }
        self.kills = [0, 0];
    }

    /// Places explicit units (tests, skirmish set-ups): each side's list of
    /// `(unit, x, y, damage)`.
    pub fn deploy(&mut self, sides: [&[(usize, f32, f32, u8)]; 2]) {
        for (s, list) in sides.iter().enumerate() {
            self.sides[s].clear();
            for &(u, x, y, dmg) in list.iter() {
                let mut f = Fighter::new(u, x, y);
                f.damage = dmg;
                self.sides[s].push(f);
            }
            self.alive[s] = list.len() as u32;
        }
        self.kills = [0, 0];
    }
}

/// Plays turns from side `first` until one side is destroyed or `max_rounds` rounds (each
/// side one turn) pass. GnG 1.5, "Playing the Game": players alternate turns; "Winning":
/// kill all the opponent's units.
pub fn play<D: Dice>(r: &GunsNGrenades, bt: &mut Battle, dice: &mut D, first: Side, max_rounds: u32) -> DuelOutcome {
    let max_turns = 2 * max_rounds;
    let mut side = first;
    let mut turns = 0;
    let mut idle_turns = 0;
    loop {
        if bt.alive[0] == 0 || bt.alive[1] == 0 {
            let winner = match (bt.alive[0] > 0, bt.alive[1] > 0) {
                (true, false) => Some(0),
                (false, true) => Some(1),
                _ => None,
            };
            return DuelOutcome { winner, turns, kills: bt.kills };
        }
        if turns >= max_turns {
            return DuelOutcome { winner: None, turns, kills: bt.kills };
        }
        let acted = take_turn(r, bt, dice, side);
        turns += 1;
        // Two turns in a row in which nothing could act: nothing will ever change (no dice
        // are rolled without an activation), so the game is drawn as if the cap were reached.
        idle_turns = if acted == 0 { idle_turns + 1 } else { 0 };
        if idle_turns >= 2 {
            return DuelOutcome { winner: None, turns: max_turns, kills: bt.kills };
        }
        side = 1 - side;
    }
}

/// Whether one unit of `a` against one unit of `b` at `distance` is a *stand-up duel*: both
/// can attack from where they stand, neither blast reaches its own firer (under `[rules]
/// self_blast = "caught"`) and neither walks inside the other's blast ([`hug`]). Then nobody moves, heals or blasts anyone else, and
/// [`stand_up`] plays it.
pub fn is_stand_up(pa: &Profile, pb: &Profile, distance: f32) -> bool {
    let fresh = Fighter::new(0, 0.0, 0.0);
    let ok = |p: &Profile, pe: &Profile| {
        in_range(p, distance) && !p.own_blast_reaches(distance) && hug(p, &fresh, pe, distance).is_none()
    };
    ok(pa, pb) && ok(pb, pa)
}

/// A stand-up duel of one unit against one (see [`is_stand_up`]): alternating attacks until one
/// is destroyed or the round cap. It rolls exactly the dice, in the same order, that the
/// general turn loop ([`play`]) rolls for the same duel, so both give the same outcome for the
/// same dice stream (tested); it only skips the tactic's bookkeeping.
pub fn stand_up<D: Dice>(
    r: &GunsNGrenades,
    pa: &Profile,
    pb: &Profile,
    dice: &mut D,
    first: Side,
    max_rounds: u32,
) -> DuelOutcome {
    let both = r.rules.fast_shot == FastShot::BothDice;
    // Index 0 acts first. Each striker's attack: hit iff own d6 − target's d6 > margin.
    let (s0, s1) = if first == 0 {
        (Striker::new(pa, pb, both), Striker::new(pb, pa, both))
    } else {
        (Striker::new(pb, pa, both), Striker::new(pa, pb, both))
    };
    let max_turns = 2 * max_rounds;
    let (mut dmg_on_1, mut dmg_on_0) = (0u8, 0u8);
    let mut turns = 0;
    let winner_is_first = loop {
        if turns >= max_turns {
            return DuelOutcome { winner: None, turns, kills: [0, 0] };
        }
        turns += 1;
        dmg_on_1 = s0.after(dmg_on_1, s0.strike(dice));
        if dmg_on_1 >= s0.kills_at {
            break true;
        }
        if turns >= max_turns {
            return DuelOutcome { winner: None, turns, kills: [0, 0] };
        }
        turns += 1;
        dmg_on_0 = s1.after(dmg_on_0, s1.strike(dice));
        if dmg_on_0 >= s1.kills_at {
            break false;
        }
    };
    let winner = if winner_is_first { first } else { 1 - first };
    let mut kills = [0, 0];
    kills[winner] = 1;
    DuelOutcome { winner: Some(winner), turns, kills }
}

/// One side's attack in a stand-up duel, reduced to small numbers.
#[derive(Debug, Clone, Copy)]
struct Striker {
    /// Hit iff attacker d6 − defender d6 > margin (DEF − ATK).
    margin: i8,
    /// Fast Shot: re-roll after a miss; `both` re-rolls the defender's die too.
    fast: bool,
    both: bool,
    damage: u8,
    /// Damage that destroys the target.
    kills_at: u8,
    /// The target absorbs the first hit that lands (Tough, `first_hit_absorbed`).
    absorbs: bool,
}

impl Striker {
    fn new(att: &Profile, def: &Profile, both: bool) -> Self {
        Striker {
            margin: def.def - att.atk,
            fast: att.tags.fast_shot,
            both,
            damage: att.hit_damage,
            kills_at: def.health,
            absorbs: def.absorbs_first_hit,
        }
    }

    /// The target's damage after `n` more ([`Profile::after_hit`]; not capped: the duel ends
    /// at `kills_at`).
    #[inline(always)]
    fn after(&self, damage: u8, n: u8) -> u8 {
        if self.absorbs && damage == 0 && n > 0 { 1 } else { damage + n }
    }

    /// The opposed roll of [`opposed_roll`] (same dice, same order); returns damage dealt.
    #[inline(always)]
    fn strike<D: Dice>(&self, dice: &mut D) -> u8 {
        let a = dice.d6() as i8;
        let d = dice.d6() as i8;
        let first = a - d > self.margin;
        let hit = if self.fast {
            // Fast Shot after a miss, without branching on the miss (see `Dice::d6_when`).
            let reroll = !first;
            let a2 = dice.d6_when(reroll) as i8;
            let d2 = if self.both { dice.d6_when(reroll) as i8 } else { d };
            first | (reroll & (a2 - d2 > self.margin))
        } else {
            first
        };
        hit as u8 * self.damage
    }
}

/// What an activation of a unit would do, best first; the turn activates the units with the
/// best available action first (GnG 1.5, "How Combat Works": up to 5 units a turn).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Plan {
    /// Attack from here, or heal a squad-mate.
    Act = 0,
    /// Walk, then attack.
    WalkAndAttack = 1,
    /// Rush, Move or Cruise toward (or away from) the enemy.
    Reposition = 2,
    /// Nothing useful (immobile or Shaken with nothing in range).
    Nothing = 3,
}

/// One turn of side `s`: activate up to `activations_per_turn` units. Returns how many
/// units were activated.
pub fn take_turn<D: Dice>(r: &GunsNGrenades, bt: &mut Battle, dice: &mut D, s: Side) -> u32 {
    for f in bt.sides[s].iter_mut() {
        f.activated = false;
        if f.lock == LOCK_PENDING {
            f.lock = LOCK_ACTIVE;
        }
    }
    let mut heals_left = match r.rules.medic_heals {
        MedicHeals::PerActivation => u32::MAX,
        MedicHeals::OncePerTurn => 1,
    };
    let limit = r.rules.activations_per_turn;
    let mut activations = 0;
    // A unit's plan apart from healing ([`base_plan`]) depends on the enemies' places and
    // lives and on its own place, damage (a Bloodied unit walks half) and lock. During this
    // side's turn no enemy moves and only its own activation moves a unit, so the plan is
    // worked out again only when an enemy has died or the unit's damage or lock has changed
    // (a medic's heal, a Shaken vehicle).
    let mut plans = std::mem::take(&mut bt.plans);
    // Whether [`hug`] can move any unit of this side: an enemy it would close inside the blast
    // of. No enemy comes back to life during this side's turn.
    let any_huggable = bt.sides[1 - s].iter().any(|e| e.alive && huggable(r.profile(e.unit as usize)));
    plans.clear();
    plans.resize(bt.sides[s].len(), ((u32::MAX, 0, 0), Plan::Nothing));
    'plans: for plan in [Plan::Act, Plan::WalkAndAttack, Plan::Reposition] {
        for i in 0..bt.sides[s].len() {
            if activations == limit || bt.alive[1 - s] == 0 {
                break 'plans;
            }
            let f = bt.sides[s][i];
            if !f.alive || f.activated {
                continue;
            }
            let p = r.profile(f.unit as usize);
            let heals = heals_left > 0 && p.tags.medic && heal_target(r, bt, s, i).is_some();
            let key = (bt.alive[1 - s], f.damage, f.lock);
            if plans[i].0 != key {
                plans[i] = (key, base_plan(r, bt, s, i, any_huggable));
            }
            if (if heals { Plan::Act } else { plans[i].1 }) != plan {
                continue;
            }
            bt.sides[s][i].activated = true;
            activations += 1;
            activate(r, bt, dice, s, i, &mut heals_left, any_huggable);
        }
    }
    bt.plans = plans;
    for f in bt.sides[s].iter_mut() {
        if f.lock == LOCK_ACTIVE {
            f.lock = LOCK_NONE;
        }
    }
    activations
}

/// What [`activate`] will do with unit `i` of side `s` unless it heals. One pass over the
/// enemies: it finds the nearest ([`nearest_enemy`], the same first of the nearest), which
/// [`hug`] may close on, and whether any is in range ([`Plan::Act`], whichever
/// [`best_target`] then picks). Where [`hug`] cannot move the unit (it is not infantry, or
/// `any_huggable` says no living enemy is [`huggable`]), the first enemy in range ends the
/// pass.
fn base_plan(r: &GunsNGrenades, bt: &Battle, s: Side, i: usize, any_huggable: bool) -> Plan {
    let f = &bt.sides[s][i];
    let p = r.profile(f.unit as usize);
    let hugs = any_huggable && p.kind == Kind::Infantry;
    let mut nearest: Option<(usize, f32)> = None;
    let mut any_in_range = false;
    for (j, e) in bt.sides[1 - s].iter().enumerate() {
        if e.alive {
            let d = dist(f, e);
            if in_range(p, d) {
                if !hugs {
                    return Plan::Act;
                }
                any_in_range = true;
            }
            if nearest.is_none_or(|(_, bd)| d < bd) {
                nearest = Some((j, d));
            }
        }
    }
    let Some((j, d)) = nearest else {
        return Plan::Nothing;
    };
    match hug(p, f, r.profile(bt.sides[1 - s][j].unit as usize), d) {
        Some(mv) if mv.walk => return Plan::WalkAndAttack,
        Some(_) => return Plan::Reposition,
        None => {}
    }
    if any_in_range {
        return Plan::Act;
    }
    if !can_move(p, f) {
        return Plan::Nothing;
    }
    if approach(p, f, d).walk { Plan::WalkAndAttack } else { Plan::Reposition }
}

/// Activates unit `i` of side `s` with the default tactic. `any_huggable`: whether any living
/// enemy is [`huggable`] (else [`hug`] moves nobody and the nearest enemy is looked up only if
/// the unit has no target).
#[allow(clippy::too_many_arguments)]
fn activate<D: Dice>(
    r: &GunsNGrenades,
    bt: &mut Battle,
    dice: &mut D,
    s: Side,
    i: usize,
    heals_left: &mut u32,
    any_huggable: bool,
) {
    let f = bt.sides[s][i];
    let p = *r.profile(f.unit as usize);
    if p.tags.medic && *heals_left > 0 {
        if let Some(j) = heal_target(r, bt, s, i) {
            medic_heal(bt, s, j);
            *heals_left -= 1;
            return;
        }
    }
    // Nothing moves before the move below: the nearest enemy is found at most once.
    let mut nearest = None;
    if any_huggable && p.kind == Kind::Infantry {
        nearest = nearest_enemy(bt, s, i);
        if let Some((j, d)) = nearest {
            if let Some(mv) = hug(&p, &f, r.profile(bt.sides[1 - s][j].unit as usize), d) {
                move_then_attack(r, bt, dice, s, i, j, mv);
                return;
            }
        }
    }
    if let Some(t) = best_target(r, bt, s, i) {
        hold_and_attack(r, bt, dice, s, i, t);
        return;
    }
    if !can_move(&p, &f) {
        return;
    }
    let Some((j, d)) = nearest.or_else(|| nearest_enemy(bt, s, i)) else {
        return;
    };
    move_then_attack(r, bt, dice, s, i, j, approach(&p, &f, d));
}

/// Moves unit `i` of side `s` by `mv` toward enemy `j`, then attacks after a Walk.
fn move_then_attack<D: Dice>(
    r: &GunsNGrenades,
    bt: &mut Battle,
    dice: &mut D,
    s: Side,
    i: usize,
    j: usize,
    mv: Approach,
) {
    step(bt, s, i, j, mv.len);
    if mv.walk {
        if let Some(t) = best_target(r, bt, s, i) {
            hold_and_attack(r, bt, dice, s, i, t);
        }
    }
}

/// The default tactic's move inside the blast radius of an enemy `d` inches away (profile
/// `pe`) that cannot walk out of it and fire (a vehicle, which cannot fire after it moves, or
/// Artillery, which never moves; a Mortar can): infantry that can attack from the edge of that
/// radius walks there and attacks, or, when it cannot attack from where it stands, rushes
/// there if a Rush reaches. There the enemy cannot fire at it without its own blast catching
/// itself (GnG 1.5, Tank and Artillery, "Blast radius"; issue 15: Snipers' best response
/// against Artillery gained 42 points by closing in, Riflemen's against the Tank 43). `None`:
/// no such move (no blast of at least a base width, already inside it, out of range or inside
/// the own minimum range or blast there, or too far). Shared like [`approach`].
pub(crate) fn hug(p: &Profile, f: &Fighter, pe: &Profile, d: f32) -> Option<Approach> {
    let edge = pe.blast;
    if p.kind != Kind::Infantry
        || !huggable(pe)
        || d <= edge + EPS
        || !in_range(p, edge)
        || p.own_blast_reaches(edge)
        || !can_move(p, f)
    {
        return None;
    }
    let len = d - edge;
    let (walk, rush) = move_allowance(p, f);
    if len <= walk + EPS {
        Some(Approach { len, walk: true })
    } else if !in_range(p, d) && len <= rush + EPS {
        Some(Approach { len, walk: false })
    } else {
        None
    }
}

/// Whether [`hug`] would close on an enemy of profile `pe`: a vehicle's or Artillery's blast
/// radius of at least [`HUG_MIN`] that catches the vehicle itself (`[rules] self_blast =
/// "caught"`; when the firer is spared, standing inside its blast protects nobody).
fn huggable(pe: &Profile) -> bool {
    pe.kind != Kind::Infantry && pe.blast >= HUG_MIN && pe.blasts_itself
}

/// The smallest blast radius worth closing inside, inches: one base width (two bases cannot
/// come closer, centre to centre).
const HUG_MIN: f32 = 1.0;

/// The default tactic's move toward an enemy `d` inches away that it cannot attack from where
/// it stands (RULINGS.md, "Common: the stand-up duel"; GnG 1.5, "Moving Your Units",
/// "Vehicle Movement").
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Approach {
    /// Inches toward the enemy (negative: away, out of a minimum range).
    pub len: f32,
    /// A Walk, after which the unit attacks; otherwise a Rush, Move or Cruise (no attack).
    pub walk: bool,
}

/// Infantry walks the least that brings the enemy into range (or, inside its minimum range,
/// out of it) when a Walk covers that ("Unit can move up to 6\" then attack"); otherwise it
/// rushes toward that distance, stopping there; a vehicle (Move or Cruise) closes to 1" outside
/// its own blast radius. Shared by the
/// Monte Carlo duel ([`activate`]) and the optimal-play game's scripted policy
/// ([`super::optimal`]).
pub(crate) fn approach(p: &Profile, f: &Fighter, d: f32) -> Approach {
    let toward = d > p.range;
    let gap = if toward { d - p.range } else { p.min_range - d };
    let (walk, rush) = move_allowance(p, f);
    let (len, walk) = if p.kind == Kind::Infantry && gap <= walk + EPS {
        (gap, true)
    } else if toward && p.kind == Kind::Vehicle {
        // A vehicle cannot fire after it moves: stopped at the edge of its range, it is out of
        // range again after the target steps back ½". It closes as far as it can, stopping one
        // base width (1") outside its own blast radius and its minimum range (issue 15); a
        // vehicle its blast spares (`self_blast = "spared"`) closes to one base width.
        let own = if p.blasts_itself { p.blast } else { 0.0 };
        let stop = (own + 1.0).max(p.min_range).min(p.range);
        ((d - stop).max(gap).min(rush), false)
    } else {
        (gap.min(rush), false)
    };
    Approach { len: if toward { len } else { -len }, walk }
}

/// Walk and Rush allowances in inches: Light +1" (in the profile); Bloodied infantry move
/// half, rounded down (GnG 1.5, "How Combat Works").
pub(crate) fn move_allowance(p: &Profile, f: &Fighter) -> (f32, f32) {
    if p.kind == Kind::Infantry && f.damage + 1 == p.health {
        ((p.walk / 2.0).floor(), (p.rush / 2.0).floor())
    } else {
        (p.walk, p.rush)
    }
}

/// Whether a unit may move now: Artillery never moves on its own; a Shaken vehicle cannot
/// move during its side's next turn.
pub(crate) fn can_move(p: &Profile, f: &Fighter) -> bool {
    match p.kind {
        Kind::Artillery => false,
        Kind::Vehicle => f.lock != LOCK_ACTIVE,
        Kind::Infantry => true,
    }
}

/// Moves unit `i` of side `s` by `len` inches toward enemy `j` (away if `len` is negative).
fn step(bt: &mut Battle, s: Side, i: usize, j: usize, len: f32) {
    let t = bt.sides[1 - s][j];
    let f = &mut bt.sides[s][i];
    let (dx, dy) = (t.x - f.x, t.y - f.y);
    let d = (dx * dx + dy * dy).sqrt();
    let (ux, uy) = if d > 1e-6 {
        (dx / d, dy / d)
    } else if s == 0 {
        (1.0, 0.0)
    } else {
        (-1.0, 0.0)
    };
    f.x += ux * len;
    f.y += uy * len;
}

fn nearest_enemy(bt: &Battle, s: Side, i: usize) -> Option<(usize, f32)> {
    let f = &bt.sides[s][i];
    let mut best: Option<(usize, f32)> = None;
    for (j, e) in bt.sides[1 - s].iter().enumerate() {
        if e.alive {
            let d = dist(f, e);
            if best.is_none_or(|(_, bd)| d < bd) {
                best = Some((j, d));
            }
        }
    }
    best
}

/// GnG 1.5, "Glossary": Range is the farthest and Minimum Range the closest a unit may target.
#[inline]
pub(crate) fn in_range(p: &Profile, d: f32) -> bool {
    d <= p.range + EPS && d + EPS >= p.min_range
}

/// The target the default tactic attacks from here: one it would destroy first, else the most
/// damaged (focus fire), else the nearest. `None` when no enemy is in range.
fn best_target(r: &GunsNGrenades, bt: &Battle, s: Side, i: usize) -> Option<usize> {
    let f = &bt.sides[s][i];
    let p = r.profile(f.unit as usize);
    let mut best: Option<(usize, (bool, u8, f32))> = None;
    for (j, e) in bt.sides[1 - s].iter().enumerate() {
        if !e.alive {
            continue;
        }
        let d = dist(f, e);
        if !in_range(p, d) {
            continue;
        }
        let pe = r.profile(e.unit as usize);
        let key = (pe.after_hit(e.damage, p.hit_damage) >= pe.health, e.damage, -d);
        if best.is_none_or(|(_, k)| key > k) {
            best = Some((j, key));
        }
    }
    best.map(|b| b.0)
}

/// GnG 1.5, "Medics": "Can return any unit within 3" to full health." The most damaged
/// living friendly infantry unit within reach, not the medic itself.
fn heal_target(r: &GunsNGrenades, bt: &Battle, s: Side, i: usize) -> Option<usize> {
    let f = &bt.sides[s][i];
    let reach = r.rules.medic_reach as f32;
    let mut best: Option<(usize, (u8, u64))> = None;
    for (j, m) in bt.sides[s].iter().enumerate() {
        if j == i || !m.alive || m.damage == 0 {
            continue;
        }
        let pm = r.profile(m.unit as usize);
        if pm.is_vehicle() || dist(f, m) > reach + EPS {
            continue;
        }
        let key = (m.damage, pm.cost as u64);
        if best.is_none_or(|(_, k)| key > k) {
            best = Some((j, key));
        }
    }
    best.map(|b| b.0)
}

/// Returns squad-mate `j` of side `s` to Healthy.
pub fn medic_heal(bt: &mut Battle, s: Side, j: usize) {
    bt.sides[s][j].damage = 0;
}

/// GnG 1.5, "How Combat Works": attacker rolls d6 + ATK, defender d6 + DEF; a hit only if the
/// attacker's total is strictly higher. Fast Shot re-rolls a miss once ("Unit Tags"; variant
/// `fast_shot`). Returns `Some(attacker total)` on a hit.
pub fn opposed_roll<D: Dice>(r: &GunsNGrenades, attacker: &Profile, defender: &Profile, dice: &mut D) -> Option<i32> {
    opposed_roll_with(r, attacker, defender, 0, 0, dice)
}

/// [`opposed_roll`] with situational modifiers: `atk_mod` added to the attacker's ATK (Hollow
/// Point Rounds +2 against Light targets, Bayonets +1 within 1½") and `def_mod` to the
/// defender's DEF (cover +3, Hunker +2, Body Armor +1). GnG 1.5, "Cover", "Movement",
/// "Unit Upgrades".
#[inline]
pub fn opposed_roll_with<D: Dice>(
    r: &GunsNGrenades,
    attacker: &Profile,
    defender: &Profile,
    atk_mod: i32,
    def_mod: i32,
    dice: &mut D,
) -> Option<i32> {
    let atk = attacker.atk as i32 + atk_mod;
    let def = defender.def as i32 + def_mod;
    let mut a = dice.d6() as i32;
    let mut d = dice.d6() as i32;
    if a + atk <= d + def && attacker.tags.fast_shot {
        a = dice.d6() as i32;
        if r.rules.fast_shot == FastShot::BothDice {
            d = dice.d6() as i32;
        }
    }
    (a + atk > d + def).then_some(a + atk)
}

/// Hold and attack enemy `t`: the opposed roll, damage, then the blast radius.
pub fn hold_and_attack<D: Dice>(r: &GunsNGrenades, bt: &mut Battle, dice: &mut D, s: Side, i: usize, t: usize) {
    let p = *r.profile(bt.sides[s][i].unit as usize);
    let target = bt.sides[1 - s][t];
    let pt = *r.profile(target.unit as usize);
    let Some(total) = opposed_roll(r, &p, &pt, dice) else {
        return;
    };
    take_damage(r, bt, 1 - s, t, p.hit_damage, s);
    if p.blast > 0.0 {
        blast(r, bt, dice, (s, i), (1 - s, t), &target, total, &p);
    }
}

/// Blast radius (GnG 1.5, Mortar/Tank/Artillery; RULINGS.md): every other unit of either side
/// within the radius of the target, measured from the target's centre, rolls d6 + DEF against
/// the attacker's same total and takes the attack's damage if lower.
#[allow(clippy::too_many_arguments)]
fn blast<D: Dice>(
    r: &GunsNGrenades,
    bt: &mut Battle,
    dice: &mut D,
    shooter: (Side, usize),
    hit: (Side, usize),
    centre: &Fighter,
    total: i32,
    p: &Profile,
) {
    blast_with(r, bt, dice, shooter, hit, centre, total, p.blast, p.hit_damage, |_, _| 0, |_, _| {});
}

/// The blast radius step with a caller's DEF modifier for each unit caught (`def_mod(side,
/// index)`: Hunker, Body Armor in a skirmish), radius `radius` and damage `damage` (0 for a
/// Flashbang, which only marks who is caught). `shooter` is the firing unit `(side, index)`:
/// under `[rules] self_blast = "spared"` it is never caught. Returns nothing; damage goes
/// through [`take_damage`]. Calls `caught(side, index)` for every unit whose roll is lower.
#[allow(clippy::too_many_arguments)]
pub fn blast_with<D: Dice, M: Fn(Side, usize) -> i32, C: FnMut(Side, usize)>(
    r: &GunsNGrenades,
    bt: &mut Battle,
    dice: &mut D,
    shooter: (Side, usize),
    hit: (Side, usize),
    centre: &Fighter,
    total: i32,
    radius: f32,
    damage: u8,
    def_mod: M,
    mut caught: C,
) {
    let spared = r.rules.self_blast == SelfBlast::Spared;
    for side in [0, 1] {
        for j in 0..bt.sides[side].len() {
            let u = bt.sides[side][j];
            if (side, j) == hit || !u.alive || dist(centre, &u) > radius + EPS {
                continue;
            }
            if spared && (side, j) == shooter {
                continue;
            }
            let def = r.profile(u.unit as usize).def as i32 + def_mod(side, j);
            if (dice.d6() as i32) + def < total {
                if damage > 0 {
                    take_damage(r, bt, side, j, damage, shooter.0);
                }
                caught(side, j);
            }
        }
    }
}

/// Applies `n` life stages of damage to unit `j` of side `s`, dealt by side `by`.
///
/// Infantry: Healthy → Wounded → Bloodied → Dead; Tough adds a stage before Wounded ("takes
/// 2 hits to wound"; under `tough = "first_hit_absorbed"` the first hit on a fresh Tough unit
/// takes only that stage, [`Profile::after_hit`]). Vehicles: Good → Glanced → Shaken → Destroyed; becoming Shaken locks
/// movement for the vehicle's next turn (GnG 1.5, "Vehicles").
pub fn take_damage(r: &GunsNGrenades, bt: &mut Battle, s: Side, j: usize, n: u8, by: Side) {
    let u = &mut bt.sides[s][j];
    let p = r.profile(u.unit as usize);
    let before = u.damage;
    u.damage = p.after_hit(u.damage, n);
    if u.damage >= p.health {
        u.alive = false;
        bt.alive[s] -= 1;
        if by != s {
            bt.kills[by] += 1;
        }
    } else if p.is_vehicle() && before < p.health - 1 && u.damage == p.health - 1 {
        u.lock = LOCK_PENDING;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;
    use crate::rulesets::gng::testing::{gng, unit};

    #[test]
    fn ties_miss_and_higher_attack_hits() {
        let r = gng(&[]);
        let rifle = *r.profile(unit(&r, "Riflemen"));
        let heavy = *r.profile(unit(&r, "Heavy Infantry"));
        // Riflemen ATK +3 roll 2 (5) vs Heavy DEF +2 roll 3 (5): tie, miss. No Fast Shot.
        let mut d = ScriptedDice::new(&[2, 3]);
        assert_eq!(opposed_roll(&r, &rifle, &heavy, &mut d), None);
        assert!(d.exhausted());
        // Riflemen roll 3 (6) vs 3 (5): hit with total 6.
        let mut d = ScriptedDice::new(&[3, 3]);
        assert_eq!(opposed_roll(&r, &rifle, &heavy, &mut d), Some(6));
    }

    #[test]
    fn fast_shot_rerolls_only_the_attacker_die_by_default() {
        let r = gng(&[]);
        let heavy = *r.profile(unit(&r, "Heavy Infantry"));
        let rifle = *r.profile(unit(&r, "Riflemen"));
        // Heavy ATK +4 rolls 1 (5) vs Riflemen DEF +2 rolls 4 (6): miss; re-roll 3 → 7 > 6 hit.
        let mut d = ScriptedDice::new(&[1, 4, 3]);
        assert_eq!(opposed_roll(&r, &heavy, &rifle, &mut d), Some(7));
        assert!(d.exhausted());
        // both_dice: the re-roll rolls both: attacker 3 (7) vs defender 6 (8): miss.
        let r2 = gng(&["rules.fast_shot=both_dice"]);
        let mut d = ScriptedDice::new(&[1, 4, 3, 6]);
        assert_eq!(opposed_roll(&r2, &heavy, &rifle, &mut d), None);
        assert!(d.exhausted());
    }

    #[test]
    fn tough_takes_two_hits_to_wound_and_deadly_wounds_a_fresh_tough_unit() {
        let r = gng(&[]);
        let rifle = unit(&r, "Riflemen");
        let mut bt = Battle::default();
        bt.deploy([&[(rifle, 0.0, 0.0, 0)], &[(rifle, 8.0, 0.0, 0)]]);
        take_damage(&r, &mut bt, 1, 0, 1, 0);
        assert_eq!(bt.sides[1][0].damage, 1); // hit absorbed: still Healthy
        take_damage(&r, &mut bt, 1, 0, 1, 0);
        assert_eq!(bt.sides[1][0].damage, 2); // Wounded
        take_damage(&r, &mut bt, 1, 0, 1, 0);
        take_damage(&r, &mut bt, 1, 0, 1, 0);
        assert!(!bt.sides[1][0].alive, "a Tough unit dies at the 4th damage");
        assert_eq!(bt.kills, [1, 0]);
        // Deadly (2 damage) on a fresh Tough unit leaves it Wounded (damage 2 of 4).
        bt.deploy([&[(rifle, 0.0, 0.0, 0)], &[(rifle, 8.0, 0.0, 0)]]);
        take_damage(&r, &mut bt, 1, 0, 2, 0);
        assert_eq!(bt.sides[1][0].damage, 2);
        assert!(bt.sides[1][0].alive);
    }

    #[test]
    fn a_tank_hit_destroys_fresh_infantry() {
        let r = gng(&[]);
        let (tank, scouts) = (unit(&r, "Tank"), unit(&r, "Scouts"));
        let mut bt = Battle::default();
        bt.deploy([&[(tank, 0.0, 0.0, 0)], &[(scouts, 9.0, 0.0, 0)]]);
        // Tank ATK +6 rolls 1 (7) vs Scouts DEF +3 rolls 3 (6): hit for 3 damage.
        let mut d = ScriptedDice::new(&[1, 3]);
        hold_and_attack(&r, &mut bt, &mut d, 0, 0, 0);
        assert!(!bt.sides[1][0].alive);
    }

    #[test]
    fn blast_rolls_each_unit_within_the_radius_against_the_same_total() {
        let r = gng(&[]);
        let (mortar, light) = (unit(&r, "Mortar"), unit(&r, "Light Infantry"));
        let mut bt = Battle::default();
        // A line of Light Infantry 2" apart: the neighbours at 2" are inside the 2.5" blast,
        // the one at 4" is not.
        bt.deploy([
            &[(mortar, 0.0, 0.0, 0)],
            &[(light, 10.0, 0.0, 0), (light, 10.0, 2.0, 0), (light, 10.0, -2.0, 0), (light, 10.0, 4.0, 0)],
        ]);
        // Mortar 4 + 6 = 10 vs target 5 + 1 = 6: hit (Deadly, 2 damage).
        // Blast: neighbour at +2 rolls 6 (7 < 10: 2 damage); neighbour at -2 rolls... order is
        // by index: unit 1 (y=2) rolls 6 → 7 < 10 hit; unit 2 (y=-2) rolls 6 → hit too.
        let mut d = ScriptedDice::new(&[4, 5, 6, 6]);
        hold_and_attack(&r, &mut bt, &mut d, 0, 0, 0);
        assert!(d.exhausted(), "the unit 4\" away must not roll");
        let dmg: Vec<u8> = bt.sides[1].iter().map(|f| f.damage).collect();
        assert_eq!(dmg, vec![2, 2, 2, 0]);
        // A blast defender whose total equals the attacker's is not hit ("if lower").
        bt.deploy([&[(mortar, 0.0, 0.0, 0)], &[(light, 10.0, 0.0, 0), (light, 10.0, 2.0, 0)]]);
        let mut d = ScriptedDice::new(&[1, 1, 6]); // 7 vs 2: hit; blast 6 + 1 = 7: not lower
        hold_and_attack(&r, &mut bt, &mut d, 0, 0, 0);
        assert_eq!(bt.sides[1][1].damage, 0);
    }

    #[test]
    fn blast_hits_friends_too() {
        let r = gng(&[]);
        let (mortar, rifle) = (unit(&r, "Mortar"), unit(&r, "Riflemen"));
        let mut bt = Battle::default();
        // Side 0: the mortar and a rifleman standing next to the enemy target.
        bt.deploy([&[(mortar, 0.0, 0.0, 0), (rifle, 10.0, 1.0, 0)], &[(rifle, 10.0, 0.0, 0)]]);
        let mut d = ScriptedDice::new(&[6, 1, 1]); // 12 vs 3 hit; friend rolls 1 + 2 = 3 < 12
        hold_and_attack(&r, &mut bt, &mut d, 0, 0, 0);
        assert_eq!(bt.sides[0][1].damage, 2);
        assert_eq!(bt.kills, [0, 0], "no kills: the enemy rifleman is Tough and survives 2");
    }

    #[test]
    fn bloodied_infantry_moves_half_rounded_down() {
        let r = gng(&[]);
        let medic = r.profile(unit(&r, "Medics"));
        let mut f = Fighter::new(0, 0.0, 0.0);
        assert_eq!(move_allowance(medic, &f), (7.0, 11.0), "Light adds 1\"");
        f.damage = 2; // Bloodied (3 stages)
        assert_eq!(move_allowance(medic, &f), (3.0, 5.0));
    }

    #[test]
    fn a_shaken_vehicle_cannot_move_on_its_next_turn_but_fires() {
        let r = gng(&[]);
        let (truck, rifle) = (unit(&r, "Armored Truck"), unit(&r, "Riflemen"));
        let mut bt = Battle::default();
        bt.deploy([&[(truck, 0.0, 0.0, 1)], &[(rifle, 20.0, 0.0, 0)]]);
        take_damage(&r, &mut bt, 0, 0, 1, 1); // Glanced → Shaken
        assert_eq!(bt.sides[0][0].lock, LOCK_PENDING);
        let mut d = ScriptedDice::new(&[]);
        take_turn(&r, &mut bt, &mut d, 0);
        assert_eq!(bt.sides[0][0].x, 0.0, "Shaken: no move this turn");
        assert_eq!(bt.sides[0][0].lock, LOCK_NONE);
        take_turn(&r, &mut bt, &mut d, 0);
        assert!(bt.sides[0][0].x > 0.0, "the turn after, it moves again");
        assert!((bt.sides[0][0].x - 10.0).abs() < 1e-5, "Cruise 10\"");
    }

    #[test]
    fn artillery_never_moves() {
        let r = gng(&[]);
        let (art, rifle) = (unit(&r, "Artillery"), unit(&r, "Riflemen"));
        let mut bt = Battle::default();
        bt.deploy([&[(art, 0.0, 0.0, 0)], &[(rifle, 30.0, 0.0, 0)]]);
        let mut d = ScriptedDice::new(&[]);
        assert_eq!(take_turn(&r, &mut bt, &mut d, 0), 0);
        assert_eq!(bt.sides[0][0].x, 0.0);
    }

    #[test]
    fn walk_the_least_that_brings_the_target_into_range_then_attack() {
        let r = gng(&[]);
        let (rifle, scouts) = (unit(&r, "Riflemen"), unit(&r, "Scouts"));
        let mut bt = Battle::default();
        bt.deploy([&[(rifle, 0.0, 0.0, 0)], &[(scouts, 12.0, 0.0, 0)]]);
        let mut d = ScriptedDice::new(&[1, 6]); // the attack after the walk misses
        take_turn(&r, &mut bt, &mut d, 0);
        assert!((bt.sides[0][0].x - 3.5).abs() < 1e-5, "walks 3.5\" to reach 8.5\" range");
        assert!(d.exhausted());
        // Too far for a walk: rush 10" and do not attack.
        bt.deploy([&[(rifle, 0.0, 0.0, 0)], &[(scouts, 20.0, 0.0, 0)]]);
        let mut d = ScriptedDice::new(&[]);
        take_turn(&r, &mut bt, &mut d, 0);
        assert!((bt.sides[0][0].x - 10.0).abs() < 1e-5);
    }

    /// GnG 1.5, "Vehicle Movement": a vehicle moves or fires, not both. Stopped at the edge of
    /// its 9" range, a Tank is out of range again once the target steps back ½" (issue 15:
    /// Snipers' best response gained 99.7 points that way); it closes to 1" outside its 1½"
    /// blast, or as far as its 10" Move takes it.
    #[test]
    fn a_vehicle_closes_past_the_edge_of_its_range() {
        let r = gng(&[]);
        let (tank, snipers) = (unit(&r, "Tank"), unit(&r, "Snipers"));
        let mut bt = Battle::default();
        bt.deploy([&[(tank, 0.0, 0.0, 0)], &[(snipers, 12.0, 0.0, 0)]]);
        let mut d = ScriptedDice::new(&[]);
        take_turn(&r, &mut bt, &mut d, 0);
        assert!((bt.sides[0][0].x - 9.5).abs() < 1e-5, "to 2.5\" of the Snipers: {}", bt.sides[0][0].x);
        bt.deploy([&[(tank, 0.0, 0.0, 0)], &[(snipers, 30.0, 0.0, 0)]]);
        take_turn(&r, &mut bt, &mut d, 0);
        assert!((bt.sides[0][0].x - 10.0).abs() < 1e-5, "a full 10\" Move");
    }

    /// GnG 1.5, Tank "Blast radius 1½\"", "Vehicle Movement": inside a Tank's blast the Tank
    /// cannot fire without its own blast catching itself, and it cannot move and fire. Riflemen
    /// 2½" from a Tank walk 1" to its blast's edge and fire (issue 15: the best response of
    /// Riflemen against the Tank gained 43 points that way); the scripted dice are that attack.
    #[test]
    fn infantry_walks_inside_a_vehicles_blast_and_fires() {
        let r = gng(&[]);
        let (rifle, tank) = (unit(&r, "Riflemen"), unit(&r, "Tank"));
        let mut bt = Battle::default();
        bt.deploy([&[(rifle, 0.0, 0.0, 0)], &[(tank, 2.5, 0.0, 0)]]);
        // Riflemen ATK +3 roll 6 (9) against the Tank's DEF +4 roll 1 (5): a hit.
        let mut d = ScriptedDice::new(&[6, 1]);
        take_turn(&r, &mut bt, &mut d, 0);
        assert!((bt.sides[0][0].x - 1.0).abs() < 1e-5, "to 1½\" of the Tank: {}", bt.sides[0][0].x);
        assert!(d.exhausted(), "it fired after the walk");
        assert_eq!(bt.sides[1][0].damage, 1);
        // A Mortar walks out of its blast and fires: nobody closes in on it.
        let mortar = unit(&r, "Mortar");
        bt.deploy([&[(rifle, 0.0, 0.0, 0)], &[(mortar, 8.0, 0.0, 0)]]);
        let mut d = ScriptedDice::new(&[1, 6]);
        take_turn(&r, &mut bt, &mut d, 0);
        assert_eq!(bt.sides[0][0].x, 0.0, "held and fired at the Mortar");
    }

    /// GnG 1.5, Artillery "Blast radius 2\"" (it never moves): Snipers 12" away, out of their
    /// 10" range, rush 10" to the blast's edge instead of walking 2" and firing (issue 15: 42
    /// of the 66 points of Snipers' best response against Artillery).
    #[test]
    fn infantry_rushes_inside_the_artillerys_blast() {
        let r = gng(&[]);
        let (snipers, art) = (unit(&r, "Snipers"), unit(&r, "Artillery"));
        let mut bt = Battle::default();
        bt.deploy([&[(snipers, 0.0, 0.0, 0)], &[(art, 12.0, 0.0, 0)]]);
        let mut d = ScriptedDice::new(&[]);
        take_turn(&r, &mut bt, &mut d, 0);
        assert!((bt.sides[0][0].x - 10.0).abs() < 1e-5, "a 10\" Rush: {}", bt.sides[0][0].x);
        // 24" away a Rush does not reach: the usual approach (Rush to 10" of it).
        bt.deploy([&[(snipers, 0.0, 0.0, 0)], &[(art, 24.0, 0.0, 0)]]);
        take_turn(&r, &mut bt, &mut d, 0);
        assert!((bt.sides[0][0].x - 10.0).abs() < 1e-5);
        assert!(!is_stand_up(r.profile(snipers), r.profile(art), 12.0));
        let rifle = unit(&r, "Riflemen");
        assert!(!is_stand_up(r.profile(rifle), r.profile(art), 8.0), "Riflemen walk 6\" inside it");
    }

    #[test]
    fn minimum_range_makes_a_unit_step_back_before_firing() {
        let r = gng(&[]);
        let (mortar, rifle) = (unit(&r, "Mortar"), unit(&r, "Riflemen"));
        let mut bt = Battle::default();
        bt.deploy([&[(mortar, 0.0, 0.0, 0)], &[(rifle, 5.0, 0.0, 0)]]);
        let mut d = ScriptedDice::new(&[1, 6]);
        take_turn(&r, &mut bt, &mut d, 0);
        assert!((bt.sides[0][0].x + 2.0).abs() < 1e-5, "backs 2\" to reach the 7\" minimum");
        assert!(d.exhausted(), "then attacks");
    }

    #[test]
    fn at_most_five_activations_a_turn() {
        let r = gng(&[]);
        let light = unit(&r, "Light Infantry");
        let mut bt = Battle::default();
        let mine: Vec<_> = (0..8).map(|k| (light, 0.0, k as f32 * 2.0, 0)).collect();
        bt.deploy([&mine, &[(light, 30.0, 0.0, 0)]]);
        let mut d = ScriptedDice::new(&[]);
        assert_eq!(take_turn(&r, &mut bt, &mut d, 0), 5);
        assert_eq!(bt.sides[0].iter().filter(|f| f.x > 0.0).count(), 5);
        let r3 = gng(&["rules.activations_per_turn=3"]);
        bt.deploy([&mine, &[(light, 30.0, 0.0, 0)]]);
        assert_eq!(take_turn(&r3, &mut bt, &mut d, 0), 3);
    }

    #[test]
    fn medics_heal_a_squad_mate_instead_of_attacking() {
        let r = gng(&[]);
        let (medic, rifle) = (unit(&r, "Medics"), unit(&r, "Riflemen"));
        let mut bt = Battle::default();
        bt.deploy([&[(medic, 0.0, 0.0, 0), (rifle, 0.0, 2.0, 3)], &[(rifle, 5.0, 0.0, 0)]]);
        // Riflemen (Bloodied) attack first? The turn activates both: the medic heals, the
        // rifleman attacks. Rolls: rifleman 1 vs 6 miss.
        let mut d = ScriptedDice::new(&[1, 6]);
        take_turn(&r, &mut bt, &mut d, 0);
        assert_eq!(bt.sides[0][1].damage, 0, "healed to Healthy");
        assert!(d.exhausted(), "the medic rolled no attack");
    }

    #[test]
    fn once_per_turn_medics_heal_once_per_side_per_turn() {
        let r = gng(&["rules.medic_heals=once_per_turn"]);
        let (medic, rifle) = (unit(&r, "Medics"), unit(&r, "Riflemen"));
        let mut bt = Battle::default();
        // Two medics each next to a wounded rifleman, enemy out of everyone's reach of walk.
        bt.deploy([
            &[(medic, 0.0, 0.0, 0), (rifle, 0.0, 2.0, 2), (medic, 0.0, 20.0, 0), (rifle, 0.0, 22.0, 2)],
            &[(rifle, 60.0, 0.0, 0)],
        ]);
        let mut d = ScriptedDice::new(&[]);
        take_turn(&r, &mut bt, &mut d, 0);
        let healed = [bt.sides[0][1].damage, bt.sides[0][3].damage].iter().filter(|&&x| x == 0).count();
        assert_eq!(healed, 1);
    }

    #[test]
    fn the_stand_up_fast_path_plays_exactly_like_the_turn_loop() {
        use crate::dice::FastDice;
        let r = gng(&["rules.fast_shot=both_dice"]);
        let r2 = gng(&[]);
        let mut pairs = 0;
        for rules in [&r, &r2] {
            for a in 0..rules.profiles.len() {
                for b in 0..rules.profiles.len() {
                    for d in [1.0f32, 6.0, 8.0, 10.0, 14.0] {
                        let (pa, pb) = (*rules.profile(a), *rules.profile(b));
                        if !is_stand_up(&pa, &pb, d) {
                            continue;
                        }
                        pairs += 1;
                        let mut bt = Battle::default();
                        let mut slow_dice = FastDice::from_seed((a * 100 + b) as u64);
                        let mut fast_dice = slow_dice.clone();
                        for k in 0..300 {
                            let first = k % 2;
                            bt.deploy([&[(a, 0.0, 0.0, 0)], &[(b, d, 0.0, 0)]]);
                            let slow = play(rules, &mut bt, &mut slow_dice, first, 100);
                            let fast = stand_up(rules, &pa, &pb, &mut fast_dice, first, 100);
                            assert_eq!(slow, fast, "{a} v {b} at {d}, trial {k}");
                        }
                    }
                }
            }
        }
        assert!(pairs > 100, "only {pairs} stand-up pairs");
    }

    /// `play_duel` remembers whether the last one-against-one matchup of its arena is a
    /// stand-up duel: an arena passed through matchups and distances in turn (stand-up or not,
    /// one unit a side or squads) plays every duel as a fresh arena does, with the same dice.
    #[test]
    fn an_arena_reused_across_matchups_plays_like_a_fresh_one() {
        use crate::dice::FastDice;
        use crate::rulesets::Ruleset;
        let r = gng(&[]);
        let n = r.profiles.len();
        let mut shared = r.arena();
        let (mut stand_ups, mut others, mut k) = (0, 0, 0u64);
        for m in 0..120 {
            let (x, y) = (m % n, (m * 7 + 3) % n);
            // One matchup at several distances in a row, then the sides swapped, then squads.
            for (a, b, d, na, nb) in
                [(x, y, 8.0, 1, 1), (x, y, 3.0, 1, 1), (x, y, 12.0, 1, 1), (y, x, 12.0, 1, 1), (x, y, 12.0, 2, 3)]
            {
                if na == 1 && is_stand_up(r.profile(a), r.profile(b), d as f32) {
                    stand_ups += 1;
                } else {
                    others += 1;
                }
                k += 1;
                let mut d1 = FastDice::from_seed(k);
                let mut d2 = d1.clone();
                let reused = r.play_duel(&mut shared, &mut d1, a, na, b, nb, d, k % 2 == 0);
                let fresh = r.play_duel(&mut r.arena(), &mut d2, a, na, b, nb, d, k % 2 == 0);
                assert_eq!(reused, fresh, "{a} v {b} at {d}, {na} v {nb}");
            }
        }
        assert!(stand_ups > 50 && others > 50, "{stand_ups} stand-up duels, {others} others");
    }

    #[test]
    fn quick_reference_stats_replace_the_rulebook_pages() {
        let book = gng(&[]);
        let qr = gng(&["rules.stat_source=quick_reference"]);
        let get = |r: &GunsNGrenades, n: &str| *r.profile(unit(r, n));
        assert_eq!(get(&book, "Snipers").range, 10.0);
        assert_eq!(get(&qr, "Snipers").range, 12.0);
        assert_eq!(get(&book, "Light Infantry").def, 1);
        assert_eq!(get(&qr, "Light Infantry").def, 2);
        assert!(get(&qr, "Light Infantry").tags.scout);
        assert_eq!(get(&book, "Machine Gunner").min_range, 4.0);
        assert_eq!(get(&qr, "Machine Gunner").min_range, 0.0);
        assert!(get(&book, "Machine Gunner").tags.limited && !get(&qr, "Machine Gunner").tags.limited);
        assert_eq!(get(&qr, "Mortar").range, 16.0);
        assert!(get(&book, "Mortar").tags.anti_armor && !get(&qr, "Mortar").tags.anti_armor);
        assert!(get(&book, "Grenadier").tags.anti_armor && !get(&qr, "Grenadier").tags.anti_armor);
        // Units the quick reference does not change stay as they are.
        assert_eq!(get(&book, "Riflemen"), get(&qr, "Riflemen"));
        assert_eq!(get(&book, "Tank"), get(&qr, "Tank"));
    }
}
