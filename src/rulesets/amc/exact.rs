//! Exact solution of a one-against-one stand-up duel (RULINGS.md, "Common: the stand-up
//! duel"; DESIGN.md, "Exact engine").
//!
//! Why a Markov chain over model counts and flags: an Army Men Combat unit is not one health
//! track but a pool of models whose size sets its dice, plus a Pinned flag (infantry) or a
//! stunned flag (vehicles, damage 1–2). In a stand-up duel neither unit moves (both hold and
//! shoot, or a vehicle without weapons waits), so the state is (models, Pinned, stunned) for
//! each side. Each round the two units activate in an order the roll-off decides; with one unit
//! a side that is a fair coin, so the two orders are mixed half and half. The distribution is
//! propagated round by round up to `max_rounds`, which makes the draw probability exact too.
//!
//! A volley's unblocked hits are an exact distribution: attacks (fixed, or sums of D6 per
//! model), binomial hit tests, the vehicle halving/doubling, then binomial blocks over hits plus
//! additional dice. Vehicle damage 3–4 (no move) changes nothing when nobody moves, so it is
//! not part of the state. A pair is a stand-up duel only when the default tactic
//! ([`rules::decide`]) holds and shoots (or waits, without weapons) in every state both units
//! can reach; otherwise the solver refuses (within charge reach, or where closing to charge
//! is worth more than the volleys, as Riflemen against a Tank).
//!
//! The distributions of one volley ([`unblocked_dist`]) and one melee round ([`melee_wounds`])
//! serve the tactic's valuations and the optimal-play game ([`super::optimal`]) too; the game
//! itself, with its charge and its moves, lives there.

use crate::rulesets::amc::rules::{self, Arc, QUALITY, UnitState};
use crate::rulesets::amc::{ArmyMenCombat, Kind, Profile};
use crate::rulesets::{ExactDuel, NotExact};

/// P(one damage roll in `arc` is 5–6: destroyed) (AMC 2.0, "Damage").
pub fn p_destroyed_per_roll(arc: Arc) -> f64 {
    match arc {
        Arc::Side => 1.0 / 3.0,
        Arc::Front => 4.0 / 36.0,
        Arc::Rear => 20.0 / 36.0,
    }
}

/// P(one damage roll in `arc` is 3–4).
pub fn p_immobile_per_roll(arc: Arc) -> f64 {
    match arc {
        Arc::Side => 1.0 / 3.0,
        // min of 2 dice in 3..=4: P(min ≥ 3) − P(min ≥ 5) = 16/36 − 4/36.
        Arc::Front => 12.0 / 36.0,
        // max of 2 dice in 3..=4: P(max ≤ 4) − P(max ≤ 2) = 16/36 − 4/36.
        Arc::Rear => 12.0 / 36.0,
    }
}

fn binomial(n: usize, p: f64) -> Vec<f64> {
    let mut d = vec![0.0; n + 1];
    d[0] = 1.0;
    for k in 0..n {
        for j in (0..=k + 1).rev() {
            let stay = if j <= k { d[j] * (1.0 - p) } else { 0.0 };
            let up = if j > 0 { d[j - 1] * p } else { 0.0 };
            d[j] = stay + up;
        }
    }
    d
}

fn convolve(a: &[f64], b: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; a.len() + b.len() - 1];
    for (i, x) in a.iter().enumerate() {
        for (j, y) in b.iter().enumerate() {
            out[i + j] += x * y;
        }
    }
    out
}

/// Distribution of the attacks of `n` models with `w` ([`rules::roll_attacks`]).
fn attacks_dist(w: &crate::rulesets::amc::Weapon, n: u32) -> Vec<f64> {
    if w.dice == 0 {
        let mut d = vec![0.0; w.attacks as usize * n as usize + 1];
        d[w.attacks as usize * n as usize] = 1.0;
        return d;
    }
    let die = [0.0, 1.0 / 6.0, 1.0 / 6.0, 1.0 / 6.0, 1.0 / 6.0, 1.0 / 6.0, 1.0 / 6.0];
    let mut d = vec![1.0];
    for _ in 0..n * w.dice as u32 {
        d = convolve(&d, &die);
    }
    d
}

/// Binomial thinning: the distribution of successes of a pool whose size has distribution `n`.
fn thin(n: &[f64], p: f64) -> Vec<f64> {
    let mut out = vec![0.0; n.len()];
    for (k, &pk) in n.iter().enumerate() {
        if pk == 0.0 {
            continue;
        }
        for (j, b) in binomial(k, p).into_iter().enumerate() {
            out[j] += pk * b;
        }
    }
    out
}

/// The exact distribution of the unblocked hits of one volley of `models` models of `sp` on
/// `tp` at `d` inches with `extra` additional block dice ([`rules::shoot`] up to the casualty
/// step). Index = unblocked hits.
pub fn unblocked_dist(sp: &Profile, models: u8, tp: &Profile, d: f32, extra: u32) -> Vec<f64> {
    let p_hit = rules::p_quality(sp.quality, rules::hit_target(sp));
    let (mut plain, mut star) = (vec![1.0], vec![1.0]);
    for (w, n) in rules::firing_groups(sp, models, tp, d) {
        if let Some(w) = w {
            let a = attacks_dist(&w, n);
            if w.star { star = convolve(&star, &a) } else { plain = convolve(&plain, &a) }
        }
    }
    let (hp, hs) = (thin(&plain, p_hit), thin(&star, p_hit));
    // Hits as the target counts them ("Weapons": halved or doubled against vehicles).
    let mut hits = vec![0.0; hp.len() + 2 * hs.len()];
    for (i, x) in hp.iter().enumerate() {
        for (j, y) in hs.iter().enumerate() {
            let h = match tp.kind {
                Kind::Vehicle => i / 2 + 2 * j,
                Kind::Infantry => i + j,
            };
            hits[h] += x * y;
        }
    }
    let pb = rules::p_quality(tp.quality, QUALITY);
    let mut out = vec![0.0; hits.len()];
    for (h, &ph) in hits.iter().enumerate() {
        if ph == 0.0 {
            continue;
        }
        let per_hit = if sp.sniper && tp.kind == Kind::Infantry { 0 } else { h };
        for (b, q) in binomial(per_hit + extra as usize, pb).into_iter().enumerate() {
            out[h.saturating_sub(b)] += ph * q;
        }
    }
    while out.len() > 1 && out.last() == Some(&0.0) {
        out.pop();
    }
    out
}

/// The distribution of the wounds one side deals in one melee round ([`rules::melee_strikes`]).
pub(crate) fn melee_wounds(ap: &Profile, models: u8, dp: &Profile, def_hunker: bool, charging: bool) -> Vec<f64> {
    let attacks = rules::melee_attacks(ap, models, charging) as usize;
    let hits = binomial(attacks, rules::p_quality(ap.quality, QUALITY));
    let pb = rules::p_quality(dp.quality, QUALITY);
    let extra = dp.armor as usize + (def_hunker && dp.kind == Kind::Infantry) as usize;
    let mut out = vec![0.0; attacks + 1];
    for (h, &ph) in hits.iter().enumerate() {
        let h = if dp.kind == Kind::Vehicle { h / 2 } else { h };
        for (b, q) in binomial(h + extra, pb).into_iter().enumerate() {
            out[h.saturating_sub(b)] += ph * q;
        }
    }
    out
}

/// One side's state in the chain: models, Pinned, stunned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct S {
    models: u8,
    pinned: bool,
    stunned: bool,
}

impl S {
    fn index(self) -> usize {
        self.models as usize * 4 + self.pinned as usize * 2 + self.stunned as usize
    }
    fn of(i: usize) -> S {
        S { models: (i / 4) as u8, pinned: i & 2 != 0, stunned: i & 1 != 0 }
    }
}

/// The two units of a duel and, per shooter model count, its volley's unblocked-hit
/// distribution on the other.
struct Duel<'a> {
    p: [&'a Profile; 2],
    /// `volley[s][m]`: unblocked hits of side `s` with `m` models; `None` if it waits.
    volley: [Vec<Option<Vec<f64>>>; 2],
}

impl Duel<'_> {
    /// Outcomes of side `s` activating in joint state `(x, y)` (x = actor), as
    /// `(probability, actor', target')` ([`rules::activate`]).
    fn activate(&self, s: usize, x: S, y: S) -> Vec<(f64, S, S)> {
        let (px, py) = (self.p[s], self.p[1 - s]);
        let mut out = Vec::new();
        // "Morale": the Pinned test when it would activate.
        let mut starts = vec![(1.0, x)];
        if x.pinned {
            let q = rules::p_quality(px.quality, QUALITY);
            starts = vec![(q, S { pinned: false, ..x }), (1.0 - q, S { models: 0, ..x })];
        }
        for (w, x) in starts {
            if x.models == 0 {
                out.push((w, x, y));
                continue;
            }
            // "Damage" 1–2: roll 4+ to activate.
            let (w_act, x) = if x.stunned {
                let x = S { stunned: false, ..x };
                out.push((w * 0.5, x, y));
                (w * 0.5, x)
            } else {
                (w, x)
            };
            match &self.volley[s][x.models as usize] {
                None => out.push((w_act, x, y)),
                Some(dist) => {
                    for (u, &pu) in dist.iter().enumerate() {
                        if pu > 0.0 {
                            for (q, y2) in after_wounds(py, y, u as u32) {
                                out.push((w_act * pu * q, x, y2));
                            }
                        }
                    }
                }
            }
        }
        out
    }
}

/// The target's state after `u` unblocked hits of a volley: casualties then the morale test
/// (infantry), or frontal damage rolls (vehicles).
fn after_wounds(p: &Profile, y: S, u: u32) -> Vec<(f64, S)> {
    match p.kind {
        Kind::Infantry => {
            let lost = u.min(y.models as u32) as u8;
            let m = y.models - lost;
            let y2 = S { models: m, ..y };
            if lost > 0 && m > 0 && !y.pinned && 2 * m <= p.models {
                let q = rules::p_quality(p.quality, QUALITY);
                vec![(q, y2), (1.0 - q, S { pinned: true, ..y2 })]
            } else {
                vec![(1.0, y2)]
            }
        }
        Kind::Vehicle => {
            if u == 0 {
                return vec![(1.0, y)];
            }
            let p56 = p_destroyed_per_roll(Arc::Front);
            let p34 = p_immobile_per_roll(Arc::Front);
            let alive = (1.0 - p56).powi(u as i32);
            let clean = p34.powi(u as i32);
            vec![(1.0 - alive, S { models: 0, ..y }), (clean, y), (alive - clean, S { stunned: true, ..y })]
        }
    }
}

/// Whether `p`'s default tactic ([`rules::decide`]) at `d` against `tp` is to hold and shoot,
/// or to wait without weapons, in every state either unit can reach (models left, the
/// target Pinned or not, the unit immobile or not): the condition of a stand-up duel.
fn stands(r: &ArmyMenCombat, p: &Profile, tp: &Profile, d: f32) -> bool {
    let holds = p.has_weapon_in_range(d);
    // The room behind its line on the duel table ([`rules::Battle::deploy`]).
    let room = ((rules::DUEL_DEPTH - d) / 2.0).max(0.0);
    let immobile: &[bool] = if p.kind == Kind::Vehicle { &[false, true] } else { &[false] };
    let pinned: &[bool] = if tp.kind == Kind::Infantry { &[false, true] } else { &[false] };
    for m in 1..=p.models {
        for tm in 1..=tp.models {
            for (&im, &pin) in immobile.iter().flat_map(|i| pinned.iter().map(move |p| (i, p))) {
                let me = UnitState { models: m, immobile: im, x: 0.0, ..Default::default() };
                let them = UnitState { models: tm, pinned: pin, x: d, ..Default::default() };
                match rules::plan(r, p, &me, tp, &them, [room; 2]) {
                    rules::Action::Hold if holds => {}
                    rules::Action::Wait if !holds => {}
                    _ => return false,
                }
            }
        }
    }
    true
}

/// The exact result of unit `a` against unit `b`, one each, `distance` inches apart,
/// averaged over who activates first. `Err` when it is not a stand-up duel: a unit would
/// move or could charge (within `rules.charge_move`).
pub fn stand_up_duel(r: &ArmyMenCombat, a: usize, b: usize, distance: f64) -> Result<ExactDuel, NotExact> {
    let d = distance as f32;
    let (pa, pb) = (&r.profiles[a], &r.profiles[b]);
    for (p, tp, u) in [(pa, pb, a), (pb, pa, b)] {
        if !stands(r, p, tp, d) {
            return Err(NotExact(format!(
                "{} does not stand and shoot at {distance}\" (it would move or could charge): not a stand-up duel",
                r.book.units[u].name
            )));
        }
    }
    Ok(solve(r, [pa, pb], d))
}

/// The chain itself for two profiles (also used by the tests on upgraded entries).
pub fn solve(r: &ArmyMenCombat, p: [&Profile; 2], d: f32) -> ExactDuel {
    let volley = |s: usize| -> Vec<Option<Vec<f64>>> {
        let (sp, tp) = (p[s], p[1 - s]);
        let extra = rules::block_dice(tp, &UnitState::fresh(tp, 0.0), r.book.rules.cover, false);
        (0..=sp.models)
            .map(|m| (m > 0 && sp.has_weapon_in_range(d)).then(|| unblocked_dist(sp, m, tp, d, extra)))
            .collect()
    };
    let duel = Duel { p, volley: [volley(0), volley(1)] };
    let n = [(p[0].models as usize + 1) * 4, (p[1].models as usize + 1) * 4];
    let idx = |a: S, b: S| a.index() * n[1] + b.index();
    let mut dist = vec![0.0; n[0] * n[1]];
    let start = |pr: &Profile| S { models: pr.models, pinned: false, stunned: false };
    dist[idx(start(p[0]), start(p[1]))] = 1.0;
    let (mut a_wins, mut b_wins, mut mean_turns) = (0.0, 0.0, 0.0);
    for _ in 0..r.book.duel.max_rounds {
        let alive: f64 = dist.iter().sum();
        if alive < 1e-15 {
            break;
        }
        mean_turns += alive;
        let mut next = vec![0.0; dist.len()];
        for (k, &w) in dist.iter().enumerate() {
            if w == 0.0 {
                continue;
            }
            let (sa, sb) = (S::of(k / n[1]), S::of(k % n[1]));
            for first in 0..2 {
                // Activations in order: `first`, then the other (if both still stand).
                let mut states = vec![(w * 0.5, [sa, sb])];
                for s in [first, 1 - first] {
                    let mut after = Vec::new();
                    for (q, st) in states {
                        if st[0].models == 0 || st[1].models == 0 {
                            after.push((q, st));
                            continue;
                        }
                        for (q2, x, y) in duel.activate(s, st[s], st[1 - s]) {
                            let mut st2 = st;
                            st2[s] = x;
                            st2[1 - s] = y;
                            after.push((q * q2, st2));
                        }
                    }
                    states = after;
                }
                for (q, st) in states {
                    match (st[0].models > 0, st[1].models > 0) {
                        (true, true) => next[idx(st[0], st[1])] += q,
                        (true, false) => a_wins += q,
                        (false, true) => b_wins += q,
                        (false, false) => {}
                    }
                }
            }
        }
        dist = next;
    }
    let draws = (1.0 - a_wins - b_wins).max(0.0);
    ExactDuel { a_wins, b_wins, draws, mean_turns }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials_and_sums_add_up() {
        let b = binomial(3, 0.5);
        assert!((b[0] - 0.125).abs() < 1e-15 && (b[1] - 0.375).abs() < 1e-15);
        let d = attacks_dist(&crate::rulesets::amc::Weapon { range: 12.0, attacks: 0, dice: 2, star: false }, 1);
        assert!((d[7] - 6.0 / 36.0).abs() < 1e-15 && d[2] > 0.0 && d[1] == 0.0);
    }

    #[test]
    fn damage_table_probabilities_by_hand() {
        // Front: min of two dice ≥ 5 needs both ≥ 5: 2·2/36.
        assert!((p_destroyed_per_roll(Arc::Front) - 4.0 / 36.0).abs() < 1e-15);
        // Rear: max ≥ 5: 1 − (4/6)².
        assert!((p_destroyed_per_roll(Arc::Rear) - (1.0 - 16.0 / 36.0)).abs() < 1e-15);
    }
}
