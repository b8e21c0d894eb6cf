//! The default tactic's decision rule (issue 15): one function, [`decide`], serves the Monte
//! Carlo duel ([`rules::activate`]), the exact solver's scripted policy ([`exact`]) and the
//! skirmish ([`crate::rulesets::amc::skirmish`]).
//!
//! Why values in points and exact distributions: an option is rated by the expected points of
//! the enemy it destroys, computed from the exact distribution of hits and blocks
//! (E\[max(0, hits − blocks)\], not max(0, E\[hits\] − E\[blocks\]), which rates a Rifle volley or a
//! charge on a Tank 0). Points make a vehicle's destruction (cost × P(a 5–6 on the damage
//! table), AMC 2.0, "Damage") and infantry casualties (cost per model) one scale, so the same
//! number ranks targets in the skirmish. A charge is valued with the melee loser's destruction
//! test (AMC 2.0, "Melee": the side that caused fewer wounds tests, failed → destroyed), and
//! minus the charger's own expected losses.
//!
//! Horizon: Hold and Charge are rated by what they do now. A move (Advance, Retreat, Rush) is
//! rated by what it does now plus the change of the position's worth ([`decide`]):
//! - the unit's own *reach*: its best plan of approach, each activation an attack that ends
//!   the plan, a Hold and shoot kept up, an Advance that shoots and goes on, or a Rush,
//!   what comes one activation later weighted [`DELAY`] (½). So a unit out of reach closes in
//!   (a Sniper facing a Jeep it can only hurt in melee no longer holds at 27"), and Heavy
//!   Weapons advance and shoot on their way to charge Artillery instead of rushing past a volley.
//!   Between the unit's activations the enemy stands, or *falls back* as the tactic's own
//!   Retreat does: out of the unit's Rush-and-charge reach, up to its Advance and the room it
//!   has left, when it still shoots from there and the unit's charge would be worth more than
//!   its volley (a Tank keeping away from infantry). So Riflemen chase a Tank with Rushes that
//!   corner it at its table edge, not with Advances it outruns (issue 15: 15.5 points of
//!   exploitability at 24", now none);
//! - minus the change of the enemy's *threat*: its best attack from the new distance, plus,
//!   with chance [`TWICE`] (¼: it activates twice before this unit's next activation under
//!   the roll-off), what a Rush first adds to it. So a vehicle that outranges infantry keeps
//!   out of their Rush-and-charge reach: it Retreats (moves straight away, toward its own table
//!   edge, up to its Advance and the room left) and shoots, no farther than out of that reach,
//!   and only when the enemy could charge it within its next two activations.
//!
//! The best option is taken even when its worth is negative: a unit with no weapon in range has
//! no "stay" option and moves (waiting out of range would let duels stall), so it may walk into
//! the enemy's charge reach. Simplifications: one enemy at a time (the skirmish compares
//! targets); the enemy in the reach only stands or falls back (it does not advance, hunker
//! or charge); a Hold is rated by its volley alone, so a charge is not credited with the
//! enemy fire it ends (infantry that lose the exchange of volleys hold where a charge or an
//! advance to charge does better: Recruits (5) against Recruits (10), issue 15); the melee after its first round is valued as if
//! every later round were like the first without the charge bonus (no attrition), up to the
//! round cap and capped at the units' worth; Pinned results of shooting are not valued.
//!
//! Tried at stop 38 and not kept (branch `amc-their-plan`): the change of the enemy's threat
//! rated by the enemy's own plan (`Pair::reach` with the roles swapped, as discounted as the
//! unit's) instead of its next attack. Exploitability, max / mean points (`pointsworth matrix
//! army-men-combat --optimal --distance 6,12,24,36`): 6" 13.2 / 1.5 (unchanged), 12" 12.0 /
//! 1.8 → 14.1 / 2.0, 24" 8.8 / 0.8 → 8.8 / 1.3 (pairs above 5: 3 → 9), 36" 18.8 / 1.8 → 19.4 /
//! 2.2. Recruits (5) v Recruits (10) at 24" keeps its 8.8. There, at the start, [`decide`]
//! rates Hold and Advance at +2.8 points and the Rush toward a charge at −7.0 (the Recruits
//! (10) could charge it at 12"), while the Recruits (5)'s best response, that Rush, gains 5.0
//! points of the game's score at that activation: the tactic weighs expected points dealt and
//! lost, the game the chance to win (whether that Rush also loses expected points was not
//! measured).

use std::cell::RefCell;
use std::hash::{Hash, Hasher};

use rustc_hash::{FxHashMap as HashMap, FxHasher};

use crate::rulesets::amc::exact;
use crate::rulesets::amc::rules::{self, Action, Arc, QUALITY, UnitState};
use crate::rulesets::amc::{ArmyMenCombat, Kind, Profile, Weapon};

/// What [`decide`] chose and what it is worth.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Decision {
    pub action: Action,
    /// Expected enemy points destroyed minus own points lost, relative to standing still
    /// (see the module docs). Comparable across targets.
    pub value: f64,
}

/// How a target stands to its attacker: `cover` (+1 block die for infantry against shooting,
/// "Cover Terrain") and the `arc` of a vehicle the attack hits ("Damage": front, side, rear).
/// Duels: the ground's cover, and the front (vehicles face the enemy line).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Exposure {
    pub cover: bool,
    pub arc: Arc,
}

impl Exposure {
    /// `cover` as given, the front arc.
    pub fn front(cover: bool) -> Self {
        Exposure { cover, arc: Arc::Front }
    }
}

/// Points of a unit still on the table: its cost × models left / models at full strength
/// (vehicles: the cost while not destroyed).
pub fn worth(p: &Profile, st: &UnitState) -> f64 {
    if !st.alive() { 0.0 } else { p.cost * st.models as f64 / p.models as f64 }
}

/// Expected points of `tp` (with `models` left) lost to `u` unblocked hits: casualties at its
/// cost per model, or for a vehicle its cost × P(at least one 5–6 in `arc`) (AMC 2.0, "Damage").
fn points_lost(tp: &Profile, models: u8, u: u32, arc: Arc) -> f64 {
    match tp.kind {
        Kind::Infantry => tp.cost * u.min(models as u32) as f64 / tp.models as f64,
        Kind::Vehicle => tp.cost * (1.0 - (1.0 - exact::p_destroyed_per_roll(arc)).powi(u as i32)),
    }
}

fn hash_weapon(w: &Option<Weapon>, h: &mut FxHasher) {
    if let Some(w) = w {
        (w.range.to_bits(), w.attacks, w.dice, w.star).hash(h);
    } else {
        0u8.hash(h);
    }
}

/// A hash of every field of a profile the values read (the cache key). The caches outlive a
/// ruleset (one per thread), so a field that a reading switch sets (`melee_test`, from `[rules]
/// vehicle_melee_test`) must be in it: without it a report's "Which readings decide the
/// verdicts" read values of the reading in force while playing the other.
fn key(p: &Profile) -> u64 {
    let mut h = FxHasher::default();
    (p.cost.to_bits(), p.kind as u8, p.models, p.quality as u8, p.sniper, p.hold_only, p.melee_test).hash(&mut h);
    for w in p.weapons.iter().chain([&p.grenadier, &p.specialist]) {
        hash_weapon(w, &mut h);
    }
    (p.melee_attacks, p.armor, p.advance.to_bits(), p.rush.to_bits()).hash(&mut h);
    h.finish()
}

/// Which of its weapons reach `d` (the only way a volley depends on the distance).
fn range_mask(p: &Profile, d: f32) -> u8 {
    let ws = [p.weapons[0], p.weapons[1], p.grenadier, p.specialist];
    ws.iter().enumerate().fold(0, |m, (k, w)| m | ((w.is_some_and(|w| w.in_range(d)) as u8) << k))
}

type VolleyKey = (u64, u8, u64, u8, u32, u8, Arc);
type MeleeKey = (u64, u8, u64, u8, bool, bool, u32, Arc);
/// The profiles, the charge move and the melee round cap, both states' models and flags, the
/// distance's and the room's bits and the exposures.
type DecisionKey = (u64, [u8; 2], [u8; 2], [u32; 3], [Exposure; 2]);

thread_local! {
    // Pure functions of their keys: the cache changes no result, on any thread count.
    static VOLLEYS: RefCell<HashMap<VolleyKey, f64>> = RefCell::new(HashMap::default());
    static MELEES: RefCell<HashMap<MeleeKey, (f64, f64)>> = RefCell::new(HashMap::default());
    static DECISIONS: RefCell<HashMap<DecisionKey, Decision>> = RefCell::new(HashMap::default());
}

fn cached<K: Hash + Eq, V: Copy>(
    cache: &'static std::thread::LocalKey<RefCell<HashMap<K, V>>>,
    k: K,
    f: impl FnOnce() -> V,
) -> V {
    if let Some(v) = cache.with(|c| c.borrow().get(&k).copied()) {
        return v;
    }
    let v = f();
    cache.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() > 200_000 {
            c.clear();
        }
        c.insert(k, v);
    });
    v
}

/// Expected points of `tp` (state `target`) destroyed by one volley of `models` models of `sp`
/// at `d` inches (AMC 2.0, "Shooting", "Weapons", "Damage"), from the exact distribution of
/// unblocked hits; `exp`: how the target stands to the shooter (cover, a vehicle's arc). 0 out
/// of range.
pub fn volley_value(sp: &Profile, models: u8, tp: &Profile, target: &UnitState, d: f32, exp: Exposure) -> f64 {
    volley_value_k(sp, key(sp), models, tp, key(tp), target, d, exp)
}

/// [`volley_value`] with the profiles' [`key`]s given (`ks`: `sp`'s, `kt`: `tp`'s), so that a
/// decision hashes each profile once.
#[allow(clippy::too_many_arguments)]
fn volley_value_k(
    sp: &Profile,
    ks: u64,
    models: u8,
    tp: &Profile,
    kt: u64,
    target: &UnitState,
    d: f32,
    exp: Exposure,
) -> f64 {
    if models == 0 || !target.alive() || !sp.has_weapon_in_range(d) {
        return 0.0;
    }
    let extra = rules::block_dice(tp, target, exp.cover, false);
    let arc = if tp.kind == Kind::Vehicle { exp.arc } else { Arc::Front };
    let k = (ks, models, kt, target.models, extra, range_mask(sp, d), arc);
    cached(&VOLLEYS, k, || {
        let dist = exact::unblocked_dist(sp, models, tp, d, extra);
        dist.iter().enumerate().map(|(u, p)| p * points_lost(tp, target.models, u as u32, arc)).sum()
    })
}

/// One melee round from states `c` (charger) and `d`: (expected points `dp` loses, expected
/// points `cp` loses, P(a unit is destroyed)), with the loser's test (AMC 2.0, "Melee").
/// A vehicle defender takes its damage rolls in `arc`.
fn melee_round(cp: &Profile, c: &UnitState, dp: &Profile, d: &UnitState, charging: bool, arc: Arc) -> (f64, f64, f64) {
    let to_def = exact::melee_wounds(cp, c.models, dp, d.hunker, charging);
    let to_chg = exact::melee_wounds(dp, d.models, cp, false, false);
    let (qd, qc) = (dp.p_melee_pass(), cp.p_melee_pass());
    // Expected points lost to `u` wounds, P(destroyed by them), and the worth left if not.
    let hurt = |p: &Profile, st: &UnitState, u: usize, arc: Arc| -> (f64, f64, f64) {
        match p.kind {
            Kind::Infantry => {
                let dead = u >= st.models as usize;
                let lost = points_lost(p, st.models, u as u32, arc);
                (lost, dead as u8 as f64, worth(p, st) - lost)
            }
            Kind::Vehicle => {
                let dead = points_lost(p, 1, u as u32, arc) / p.cost;
                (p.cost * dead, dead, p.cost)
            }
        }
    };
    let (mut gain, mut loss, mut end) = (0.0, 0.0, 0.0);
    for (x, &px) in to_def.iter().enumerate() {
        for (y, &py) in to_chg.iter().enumerate() {
            let w = px * py;
            if w == 0.0 {
                continue;
            }
            let (mut dl, mut dd, dleft) = hurt(dp, d, x, arc);
            let (mut cl, mut cd, cleft) = hurt(cp, c, y, Arc::Front);
            if x > y {
                let fail = (1.0 - dd) * (1.0 - qd);
                dl += fail * dleft;
                dd += fail;
            } else if y > x {
                let fail = (1.0 - cd) * (1.0 - qc);
                cl += fail * cleft;
                cd += fail;
            }
            gain += w * dl;
            loss += w * cl;
            end += w * (1.0 - (1.0 - dd) * (1.0 - cd));
        }
    }
    (gain, loss, end)
}

/// A charge of `cp` (state `c`) on `dp` (state `d`): (expected points `dp` loses, expected
/// points `cp` loses) over the whole melee (AMC 2.0, "Melee": the charged unit's Pinned test,
/// the charge bonus, rounds until one unit is destroyed). The first round is exact; later
/// rounds are valued as the second round from the same states, repeated until one ends it or
/// the round cap (`rules.melee_round_cap`) stops the melee (see the module docs), each total
/// capped at the unit's worth. A vehicle `dp` is charged in `arc` (the charger's side of it).
pub fn charge_value(
    r: &ArmyMenCombat,
    cp: &Profile,
    c: &UnitState,
    dp: &Profile,
    d: &UnitState,
    arc: Arc,
) -> (f64, f64) {
    charge_value_k(r, cp, key(cp), c, dp, key(dp), d, arc)
}

/// [`charge_value`] with the profiles' [`key`]s given (`kc`: `cp`'s, `kd`: `dp`'s).
#[allow(clippy::too_many_arguments)]
fn charge_value_k(
    r: &ArmyMenCombat,
    cp: &Profile,
    kc: u64,
    c: &UnitState,
    dp: &Profile,
    kd: u64,
    d: &UnitState,
    arc: Arc,
) -> (f64, f64) {
    if !c.alive() || !d.alive() {
        return (0.0, 0.0);
    }
    let r_cap = r.book.rules.melee_round_cap;
    let arc = if dp.kind == Kind::Vehicle { arc } else { Arc::Front };
    let k = (kc, c.models, kd, d.models, d.pinned, d.hunker, r_cap, arc);
    cached(&MELEES, k, || {
        let (g1, l1, e1) = melee_round(cp, c, dp, d, true, arc);
        let (g2, l2, e2) = melee_round(cp, c, dp, d, false, arc);
        // Expected later rounds: each goes on with chance 1 − e2, at most the cap's
        // `melee_round_cap − 1` of them (RULINGS.md: then both stay).
        let cap = r_cap.saturating_sub(1) as i32;
        let more = if e2 > 1e-9 { (1.0 - e1) * (1.0 - (1.0 - e2).powi(cap)) / e2 } else { (1.0 - e1) * cap as f64 };
        let gain = (g1 + more * g2).min(worth(dp, d));
        let loss = (l1 + more * l2).min(worth(cp, c));
        if d.pinned && dp.kind == Kind::Infantry {
            let q = rules::p_quality(dp.quality, QUALITY);
            ((1.0 - q) * worth(dp, d) + q * gain, q * loss)
        } else {
            (gain, loss)
        }
    })
}

/// The best attack `ap` (state `a`) has on `dp` (state `d`) from `dist` inches in one
/// activation, as (its value to `ap`: points dealt minus points lost, points dealt): Hold and
/// shoot, Advance and shoot, or Charge (infantry within `rules.charge_move`). (0, 0) when it
/// has none. `exp`: how `dp` stands to `ap` (cover, a vehicle's arc).
pub fn best_attack(
    r: &ArmyMenCombat,
    ap: &Profile,
    a: &UnitState,
    dp: &Profile,
    d: &UnitState,
    dist: f32,
    exp: Exposure,
) -> (f64, f64) {
    best_attack_k(r, ap, key(ap), a, dp, key(dp), d, dist, exp)
}

/// [`best_attack`] with the profiles' [`key`]s given (`ka`: `ap`'s, `kd`: `dp`'s).
#[allow(clippy::too_many_arguments)]
fn best_attack_k(
    r: &ArmyMenCombat,
    ap: &Profile,
    ka: u64,
    a: &UnitState,
    dp: &Profile,
    kd: u64,
    d: &UnitState,
    dist: f32,
    exp: Exposure,
) -> (f64, f64) {
    let mut best = (0.0, 0.0);
    let mut offer = |net: f64, dealt: f64| {
        if net > best.0 {
            best = (net, dealt);
        }
    };
    let hold = volley_value_k(ap, ka, a.models, dp, kd, d, dist, exp);
    offer(hold, hold);
    if !a.immobile && ap.advance > 0.0 && !ap.hold_only {
        let adv = volley_value_k(ap, ka, a.models, dp, kd, d, (dist - ap.advance).max(1.0), exp);
        offer(adv, adv);
    }
    if ap.kind == Kind::Infantry && dist <= r.book.rules.charge_move {
        let (g, l) = charge_value_k(r, ap, ka, a, dp, kd, d, exp.arc);
        offer(g - l, g);
    }
    best
}

/// Weight of what comes one activation later (module docs, "Horizon"): the unit's plan over
/// several activations is worth this much less per activation of delay, so a unit out of
/// reach still closes toward an attack it can make later instead of standing still (a Sniper
/// facing a Jeep it can only hurt in melee).
pub const DELAY: f64 = 0.5;

/// P(the enemy activates twice before this unit's next activation) in a 1v1 under the
/// activation roll-off (AMC 2.0, "Playing the Game"): the unit acts first in its round (½)
/// and the enemy wins the next round's roll-off (½).
pub const TWICE: f64 = 0.25;

/// Retreats are tried in steps of this many inches (the optimal-play grid,
/// [`crate::rulesets::amc::optimal::GRID`], so the exact game plays the same moves),
/// the shortest first.
pub const RETREAT_STEP: f32 = 3.0;

/// The two units of a valuation: `ap` (state `a`) plans against `dp` (state `d`); `exp[0]`:
/// how `dp` stands to `ap`, `exp[1]`: how `ap` stands to `dp`; `ks`: the profiles' [`key`]s.
struct Pair<'a> {
    r: &'a ArmyMenCombat,
    ap: &'a Profile,
    a: &'a UnitState,
    dp: &'a Profile,
    d: &'a UnitState,
    exp: [Exposure; 2],
    ks: [u64; 2],
}

impl Pair<'_> {
    /// `ap`'s volley at `x` inches (expected points dealt).
    fn volley(&self, x: f32) -> f64 {
        volley_value_k(self.ap, self.ks[0], self.a.models, self.dp, self.ks[1], self.d, x, self.exp[0])
    }

    /// [`threat`]: what `dp` is expected to take off `ap` at `x` before `ap` acts again.
    fn threat(&self, x: f32) -> f64 {
        threat(self.r, self.dp, self.d, self.ap, self.a, x, self.exp[1], [self.ks[1], self.ks[0]])
    }

    /// `ap`'s charge on `dp` (infantry within the charge move): net points, or `None`.
    fn charge(&self, x: f32) -> Option<f64> {
        (self.ap.kind == Kind::Infantry && x <= self.r.book.rules.charge_move).then(|| {
            let (g, l) =
                charge_value_k(self.r, self.ap, self.ks[0], self.a, self.dp, self.ks[1], self.d, self.exp[0].arc);
            g - l
        })
    }

    /// How far `dp` falls back at `x` inches with `room` inches behind it before `ap` acts
    /// again: the default tactic's Retreat out of `ap`'s Rush-and-charge reach, taken when
    /// `ap`'s charge would be worth more to `ap` than `dp`'s volley from where it stands, and
    /// `dp` still shoots after it (a Tank keeps away from infantry). 0 otherwise.
    fn falls_back(&self, x: f32, room: f32) -> f32 {
        let (ap, dp) = (self.ap, self.dp);
        let reach = ap.rush + self.r.book.rules.charge_move;
        if self.d.immobile || dp.hold_only || dp.advance <= 0.0 || room < RETREAT_STEP || ap.kind != Kind::Infantry {
            return 0.0;
        }
        if self.a.immobile || x > reach || ap.rush <= 0.0 && x > self.r.book.rules.charge_move {
            return 0.0;
        }
        let steps = ((reach - x) / RETREAT_STEP).floor() + 1.0;
        let back = (steps * RETREAT_STEP).min(dp.advance).min(room);
        let back = (back / RETREAT_STEP).floor() * RETREAT_STEP;
        if back <= 0.0 || !dp.has_weapon_in_range(x + back) {
            return 0.0;
        }
        // What `ap` could do to it in one activation from `x` (a Rush first if needed).
        let mine = self.charge(x).or(self.charge((x - ap.rush).max(1.0))).unwrap_or(0.0);
        let theirs = volley_value_k(dp, self.ks[1], self.d.models, ap, self.ks[0], self.a, x, self.exp[1]);
        if mine > theirs { back } else { 0.0 }
    }

    /// `ap`'s best plan when it is to act at `x` inches with the enemy `room` inches from its
    /// edge: an attack that ends it ([`best_attack`]'s net points), a Hold and shoot kept up
    /// every activation, an Advance that shoots and goes on, or a Rush that goes on; what
    /// comes one activation later is weighted [`DELAY`]. Between `ap`'s activations the enemy
    /// stands, or falls back out of its charge reach ([`Self::falls_back`]).
    fn reach(&self, x: f32, room: f32, memo: &mut Vec<([u32; 2], f64)>) -> f64 {
        let k = [x.to_bits(), room.to_bits()];
        if let Some(&(_, v)) = memo.iter().find(|m| m.0 == k) {
            return v;
        }
        let ap = self.ap;
        let attack = best_attack_k(self.r, ap, self.ks[0], self.a, self.dp, self.ks[1], self.d, x, self.exp[0]).0;
        // Where the plan goes on after an activation that ends at `y`.
        let next = |y: f32, memo: &mut Vec<([u32; 2], f64)>| {
            let back = self.falls_back(y, room);
            DELAY * self.reach(y + back, room - back, memo)
        };
        // Holding and shooting every activation: V + DELAY·V + ... while the enemy stands (so
        // staying put is a plan too, and a longer approach is not worth more for its volleys
        // alone); if it falls back, the plan goes on from there.
        let v = self.volley(x);
        let mut best = attack.max(if self.falls_back(x, room) > 0.0 { v + next(x, memo) } else { v / (1.0 - DELAY) });
        if !self.a.immobile && ap.rush > 0.0 {
            let on = (x - ap.rush).max(1.0);
            if on < x {
                best = best.max(next(on, memo));
            }
            let adv = (x - ap.advance).max(1.0);
            if !ap.hold_only && ap.advance > 0.0 && adv < x && ap.has_weapon_in_range(adv) {
                best = best.max(self.volley(adv) + next(adv, memo));
            }
        }
        memo.push((k, best));
        best
    }
}

/// The points `ep` (state `e`) is expected to take off `mp` (state `m`) at `dist` before
/// `mp`'s next activation: its best attack from there, plus, with chance [`TWICE`], what a
/// Rush toward `mp` first adds to its next attack (it acts twice in a row).
fn threat(
    r: &ArmyMenCombat,
    ep: &Profile,
    e: &UnitState,
    mp: &Profile,
    m: &UnitState,
    dist: f32,
    exp: Exposure,
    ks: [u64; 2],
) -> f64 {
    let once = best_attack_k(r, ep, ks[0], e, mp, ks[1], m, dist, exp).1;
    if e.immobile || ep.rush <= 0.0 {
        return once;
    }
    let closer = best_attack_k(r, ep, ks[0], e, mp, ks[1], m, (dist - ep.rush).max(1.0), exp).1;
    once + TWICE * (closer - once).max(0.0)
}

/// The default tactic (issue 15; module docs): of Hold and shoot, Retreat (move straight
/// away, up to the Advance move and the room left to the own table edge) and shoot,
/// Advance and shoot, Charge (infantry within `rules.charge_move`, 12") and Rush toward the
/// enemy, the one worth the most points; ties go to the earlier in that order (the shorter
/// retreat first). Hold needs a weapon in range, Retreat and Advance a weapon in range after
/// the move (not Artillery, which shoots only on Hold); a unit with no option (a vehicle
/// without weapons, or one that may not move and has nothing in range) waits. `me.x` and
/// `target.x` are positions in inches on the line between the two; `exp[0]`: how the target
/// stands to `p` (cover, a vehicle's arc), `exp[1]`: how `p` stands to the target; `room`:
/// inches `p` (`room[0]`) and the target (`room[1]`) may still move straight away from the
/// other before a table edge.
pub fn decide(
    r: &ArmyMenCombat,
    p: &Profile,
    me: &UnitState,
    tp: &Profile,
    target: &UnitState,
    exp: [Exposure; 2],
    room: [f32; 2],
) -> Decision {
    let d = (me.x - target.x).abs();
    let room = room.map(|x| x.max(0.0));
    let flags = |u: &UnitState| u.pinned as u8 | (u.hunker as u8) << 1 | (u.immobile as u8) << 2;
    let ks = [key(p), key(tp)];
    let mut rk = FxHasher::default();
    (r.book.rules.charge_move.to_bits(), r.book.rules.melee_round_cap, ks[0], ks[1]).hash(&mut rk);
    let k = (
        rk.finish(),
        [me.models, flags(me)],
        [target.models, flags(target)],
        [d.to_bits(), room[0].to_bits(), room[1].to_bits()],
        exp,
    );
    cached(&DECISIONS, k, || decide_now(r, p, me, tp, target, exp, d, room, ks))
}

#[allow(clippy::too_many_arguments)]
fn decide_now(
    r: &ArmyMenCombat,
    p: &Profile,
    me: &UnitState,
    tp: &Profile,
    target: &UnitState,
    exp: [Exposure; 2],
    d: f32,
    room: [f32; 2],
    ks: [u64; 2],
) -> Decision {
    let (kp, kt) = (ks[0], ks[1]);
    let pair = Pair { r, ap: p, a: me, dp: tp, d: target, exp, ks };
    let mut memo = Vec::new();
    // The unit's plan from where an activation ends at `dd` (the enemy may fall back first).
    let mut mine = |dd: f32| {
        let back = pair.falls_back(dd, room[1]);
        pair.reach(dd + back, room[1] - back, &mut memo)
    };
    let here = mine(d);
    // The change of the position's worth when `p` moves from `d` to `dd`.
    let mut shift = |dd: f32| (mine(dd) - here) - (pair.threat(dd) - pair.threat(d));
    let mut best: Option<Decision> = None;
    let mut offer = |action: Action, value: f64| {
        if best.is_none_or(|b| value > b.value) {
            best = Some(Decision { action, value });
        }
    };
    if p.has_weapon_in_range(d) {
        offer(Action::Hold, volley_value_k(p, kp, me.models, tp, kt, target, d, exp[0]));
    }
    let may_move = !me.immobile && p.advance > 0.0;
    // A unit retreats only from a charge the enemy could make within its next two
    // activations (a Rush, then the charge move): what the look-ahead of [`threat`] sees.
    let reach_of_charge = tp.rush + r.book.rules.charge_move;
    let charged = tp.kind == Kind::Infantry && !target.immobile && d <= reach_of_charge;
    if may_move && !p.hold_only && charged {
        let mut back = RETREAT_STEP;
        while back <= p.advance.min(room[0]) + 1e-3 {
            let to = d + back;
            if p.has_weapon_in_range(to) {
                offer(Action::Retreat(back), volley_value_k(p, kp, me.models, tp, kt, target, to, exp[0]) + shift(to));
            }
            if to > reach_of_charge {
                // Out of charge reach: room behind is kept for the next retreat.
                break;
            }
            back += RETREAT_STEP;
        }
    }
    let adv_d = (d - p.advance).max(1.0);
    if may_move && !p.hold_only && p.has_weapon_in_range(adv_d) && adv_d < d {
        offer(
            Action::Advance(p.advance),
            volley_value_k(p, kp, me.models, tp, kt, target, adv_d, exp[0]) + shift(adv_d),
        );
    }
    if let Some(c) = pair.charge(d) {
        offer(Action::Charge, c);
    }
    let rush_d = (d - p.rush).max(1.0);
    if may_move && rush_d < d && (p.has_any_weapon() || p.kind == Kind::Infantry) {
        offer(Action::Rush(p.rush), shift(rush_d));
    }
    best.unwrap_or(Decision { action: Action::Wait, value: 0.0 })
}
