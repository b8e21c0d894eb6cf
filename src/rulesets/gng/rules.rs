//! The rules of Guns 'N Grenades v1.5 for open-ground fights, one function per rule step.
//!
//! A [`Battle`] holds both sides' units as small structs of numbers and is reused across
//! trials (no allocation per trial). The default tactic of RULINGS.md ("Common: the stand-up
//! duel") picks what each activation does: heal a wounded squad-mate (medics), else attack
//! from where it stands, else walk the least that lets it attack, else rush toward (or, inside
//! a minimum range, away from) the enemy.

use crate::battle::line_offsets;
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
            self.sides[s].clear();
            self.sides[s].extend(line_offsets(n, spacing).map(|y| Fighter::new(unit, x, y)));
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
    let both = r.book.rules.fast_shot == FastShot::BothDice;
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
    let mut heals_left = match r.book.rules.medic_heals {
        MedicHeals::PerActivation => u32::MAX,
        MedicHeals::OncePerTurn => 1,
    };
    let limit = r.book.rules.activations_per_turn;
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
    let reach = r.book.rules.medic_reach as f32;
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
        if r.book.rules.fast_shot == FastShot::BothDice {
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
    let spared = r.book.rules.self_blast == SelfBlast::Spared;
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
mod tests;
