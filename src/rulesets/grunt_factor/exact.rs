//! Exact solution of a one-squad-against-one-squad Grunt Factor duel (RULINGS.md, "Common:
//! the stand-up duel"; DESIGN.md, "Exact engine").
//!
//! Why this chain is small: shooters remove models in a fixed order (leader first), so a squad
//! is its number of models left plus three flags (panicked, prone, fired on since its last
//! activation). The distance is part of the state too: the "more than 10 hits" special morale
//! check makes a squad fall back 10 cm, and the default tactic may then move back in, so the
//! chain covers duels with movement, not only stand-up ones (distances stay on a finite grid
//! of start + 10a − 9b cm). A game turn is the roll-off for who starts (d20 + highest LD,
//! [`rules::p_first`]) and the two activations; the chain is propagated turn by turn to the
//! `max_rounds` cap, so draws are exact too.
//!
//! Inside an activation the Fire actions are summed over a small distribution of (enemy models
//! left, a shot taken, hits so far capped at 11, the aimed model still alive), model by model
//! and shot by shot in the order [`rules::activate`] rolls them: (xN) shots, (xN) saves, Aim
//! (+3 until the aimed model dies) and the LD test of each Fire action beyond 60 cm.

use crate::sim::FixedHashMap as HashMap;

use crate::rulesets::grunt_factor::rules::{
    self, Aiming, MAX_MODELS, SPECIAL_CHECK_HITS, aims, band, hit_value, leader_ld, living, may_advance,
    morale_check_due, needs_ld_test, p_first, p_kill_per_hit, p_under, plan_moves, recovery_value, spend_together,
};
use crate::rulesets::grunt_factor::{GruntFactor, SquadProfile};
use crate::rulesets::{ExactDuel, NotExact};

/// A squad's state: models left and the panicked, prone and fired-on flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SquadState {
    pub alive: u8,
    pub panicked: bool,
    pub prone: bool,
    pub fired_on: bool,
}

impl SquadState {
    /// A fresh squad of `p`.
    pub fn fresh(p: &SquadProfile) -> Self {
        SquadState { alive: p.size(), panicked: false, prone: false, fired_on: false }
    }
}

/// Outcomes of an activation: (probability, own state, target state, distance).
pub type Outcomes = Vec<(f64, SquadState, SquadState, f64)>;

/// Hits tracked per activation: 0..=10 and "more than 10".
const HITS: usize = SPECIAL_CHECK_HITS as usize + 2;

/// A dense distribution over (enemy models left, a shot taken, hits so far, aimed model
/// alive), indexed by [`at`].
type FireDist = Vec<f64>;

fn at(j: u8, shot: bool, hits: u8, aim: bool) -> usize {
    ((j as usize * 2 + shot as usize) * HITS + hits as usize) * 2 + aim as usize
}

fn decode(i: usize) -> (u8, bool, u8, bool) {
    let aim = i % 2 == 1;
    let hits = (i / 2) % HITS;
    let shot = (i / 2 / HITS) % 2 == 1;
    let j = i / 2 / HITS / 2;
    (j as u8, shot, hits as u8, aim)
}

fn add<K: std::hash::Hash + Eq>(m: &mut HashMap<K, f64>, k: K, x: f64) {
    if x > 0.0 {
        *m.entry(k).or_default() += x;
    }
}

/// The Fire actions of the living models with `actions` each (after moves) at `d` cm.
fn fire_phase(
    r: &GruntFactor,
    p: &SquadProfile,
    me: &SquadState,
    q: &SquadProfile,
    foe: &SquadState,
    actions: &[u8],
    d: f64,
) -> FireDist {
    let len = (q.size() as usize + 1) * 2 * HITS * 2;
    let mut dist: FireDist = vec![0.0; len];
    dist[at(foe.alive, false, 0, false)] = 1.0;
    let ld = leader_ld(p, me.alive);
    let t = Aiming { target: q, target_prone: foe.prone, panicked: me.panicked, ld };
    let p_ld = if needs_ld_test(r, d) { p_under(ld) } else { 1.0 };
    for (k, slot) in living(p, me.alive).enumerate() {
        let n = actions[k];
        let aim = aims(r, p, slot, d, n, &t);
        // Aim: the aimed model is the target's first living one.
        if aim {
            for i in 0..len {
                let (j, shot, hits, a) = decode(i);
                if j > 0 && !a && dist[i] > 0.0 {
                    dist[at(j, shot, hits, true)] += dist[i];
                    dist[i] = 0.0;
                }
            }
        }
        let stats = band(r, d).map(|b| r.weapons[p.weapons[slot] as usize].bands[b]).filter(|w| w.usable());
        if let Some(w) = stats {
            let pk = p_kill_per_hit(q.a, w.damage.unwrap_or(0), w.saves);
            let ph =
                [false, true].map(|aimed| p_under(hit_value(p.rc, me.panicked, w.hit.unwrap_or(0), aimed, foe.prone)));
            for _ in 0..n - aim as u8 {
                // The LD test of the Fire action beyond sighting: a failed one fires nothing.
                let mut fail = vec![0.0; len];
                let mut pass = vec![0.0; len];
                for i in 0..len {
                    if dist[i] == 0.0 {
                        continue;
                    }
                    if decode(i).0 == 0 {
                        fail[i] += dist[i];
                    } else {
                        fail[i] += dist[i] * (1.0 - p_ld);
                        pass[i] += dist[i] * p_ld;
                    }
                }
                for _ in 0..w.shots {
                    let mut after = vec![0.0; len];
                    for (i, &y) in pass.iter().enumerate() {
                        if y == 0.0 {
                            continue;
                        }
                        let (j, _, hits, aimed) = decode(i);
                        if j == 0 {
                            after[i] += y;
                            continue;
                        }
                        let ph = ph[aimed as usize];
                        let h = (hits + 1).min(SPECIAL_CHECK_HITS + 1);
                        after[at(j, true, hits, aimed)] += y * (1.0 - ph);
                        after[at(j, true, h, aimed)] += y * ph * (1.0 - pk);
                        after[at(j - 1, true, h, false)] += y * ph * pk;
                    }
                    pass = after;
                }
                for i in 0..len {
                    dist[i] = fail[i] + pass[i];
                }
            }
        }
        // The next model aims for itself.
        for i in 0..len {
            let (j, shot, hits, a) = decode(i);
            if a && dist[i] > 0.0 {
                dist[at(j, shot, hits, false)] += dist[i];
                dist[i] = 0.0;
            }
        }
    }
    dist
}

/// One activation of squad `p` in state `me` against squad `q` in state `foe` at `d` cm
/// ([`rules::activate`]): the distribution of (own state, target state, distance) afterwards.
pub fn activation(
    r: &GruntFactor,
    p: &SquadProfile,
    me: SquadState,
    q: &SquadProfile,
    foe: SquadState,
    d: f64,
) -> Outcomes {
    let mut out = Vec::new();
    let mut actions = [p.ac; MAX_MODELS];
    let actions = &mut actions[..me.alive as usize];
    let mut branches: Vec<(f64, SquadState)> = Vec::new();
    let was_panicked = me.panicked;
    let mut me2 = me;
    if me.panicked {
        if !me.prone {
            for a in actions.iter_mut() {
                *a = a.saturating_sub(1);
            }
            me2.prone = true;
        }
        if spend_together(actions, r.rules.recovery_actions) {
            let pass = p_under(recovery_value(r, p, me.alive, me.fired_on));
            branches.push((pass, SquadState { panicked: false, ..me2 }));
            branches.push((1.0 - pass, me2));
        } else {
            branches.push((1.0, me2));
        }
    } else {
        branches.push((1.0, me2));
    }
    for (w, mut s) in branches {
        if w <= 0.0 {
            continue;
        }
        s.fired_on = false;
        let t = Aiming { target: q, target_prone: foe.prone, panicked: s.panicked, ld: leader_ld(p, s.alive) };
        let (m, nd) = plan_moves(r, p, s.alive, d, !was_panicked && may_advance(p, s.alive, false), &t);
        let left: Vec<u8> = actions.iter().map(|a| a.saturating_sub(m)).collect();
        for (i, x) in fire_phase(r, p, &s, q, &foe, &left, nd).into_iter().enumerate() {
            if x <= 0.0 {
                continue;
            }
            let (j, shot, hits, _) = decode(i);
            let mut f = SquadState { alive: j, fired_on: foe.fired_on || shot, ..foe };
            if j == 0 {
                out.push((w * x, s, f, nd));
                continue;
            }
            // Morale check, then the special check of more than 10 hits.
            let ld = p_under(leader_ld(q, j));
            let mut tests: Vec<(f64, SquadState)> = Vec::new();
            if morale_check_due(r, q.size(), foe.alive, j) && !foe.panicked {
                tests.push((ld, f));
                f.panicked = true;
                tests.push((1.0 - ld, f));
            } else {
                tests.push((1.0, f));
            }
            for (y, f) in tests {
                if hits > SPECIAL_CHECK_HITS {
                    out.push((w * x * y * ld, s, f, nd));
                    out.push((w * x * y * (1.0 - ld), s, f, nd + rules::FALL_BACK));
                } else {
                    out.push((w * x * y, s, f, nd));
                }
            }
        }
    }
    out.retain(|o| o.0 > 0.0);
    out
}

/// States of less mass than this are dropped (counted as draws): the fall-back rule spreads a
/// vanishing tail of the mass over ever more distances. The total dropped is far below 1e-9.
pub const PRUNE: f64 = 1e-15;

/// (state of A, state of B, distance bits).
type Key = (SquadState, SquadState, u64);
type Memo = HashMap<(usize, SquadState, SquadState, u64), Outcomes>;

/// Applies side `actor`'s activation to mass `x` at `key`, adding the results to `next`.
fn act(r: &GruntFactor, units: [usize; 2], key: Key, x: f64, actor: usize, memo: &mut Memo) -> Vec<(Key, f64)> {
    let (a, b, dbits) = key;
    let (me, foe) = if actor == 0 { (a, b) } else { (b, a) };
    let outs = memo.entry((actor, me, foe, dbits)).or_insert_with(|| {
        activation(r, r.profile(units[actor]), me, r.profile(units[1 - actor]), foe, f64::from_bits(dbits))
    });
    outs.iter()
        .map(|&(q, me2, foe2, d2)| {
            let (a2, b2) = if actor == 0 { (me2, foe2) } else { (foe2, me2) };
            ((a2, b2, d2.to_bits()), x * q)
        })
        .collect()
}

/// The exact outcome of squad `a` against squad `b`, one each, starting `distance` cm apart,
/// averaged over who starts the first turn. Never `Err`: every one-against-one duel has a
/// finite chain; the `Result` is the [`crate::rulesets::Ruleset::exact_duel`] contract.
pub fn duel(r: &GruntFactor, a: usize, b: usize, distance: f64) -> Result<ExactDuel, NotExact> {
    let units = [a, b];
    let (pa, pb) = (r.profile(a), r.profile(b));
    let mut memo: Memo = HashMap::default();
    let mut m: HashMap<Key, f64> = HashMap::default();
    m.insert((SquadState::fresh(pa), SquadState::fresh(pb), distance.to_bits()), 1.0);
    let (mut a_wins, mut b_wins, mut mean_turns, mut pruned) = (0.0, 0.0, 0.0, 0.0);
    for turn in 0..r.duel.max_rounds {
        let mut next: HashMap<Key, f64> = HashMap::default();
        for (&key, &x) in &m {
            let p_a = if turn == 0 { 0.5 } else { p_first(leader_ld(pa, key.0.alive), leader_ld(pb, key.1.alive)) };
            for (first, w) in [(0usize, p_a), (1usize, 1.0 - p_a)] {
                if w <= 0.0 {
                    continue;
                }
                for (k1, y) in act(r, units, key, x * w, first, &mut memo) {
                    let dead = if first == 0 { k1.1.alive == 0 } else { k1.0.alive == 0 };
                    if dead {
                        add(&mut next, k1, y);
                        continue;
                    }
                    for (k2, z) in act(r, units, k1, y, 1 - first, &mut memo) {
                        add(&mut next, k2, z);
                    }
                }
            }
        }
        // States with less than PRUNE of the mass are dropped and counted as draws.
        next.retain(|_, x| {
            if *x < PRUNE {
                pruned += *x;
                false
            } else {
                true
            }
        });
        let mut ended = 0.0;
        next.retain(|&(sa, sb, _), x| {
            if sb.alive == 0 {
                a_wins += *x;
            } else if sa.alive == 0 {
                b_wins += *x;
            } else {
                return true;
            }
            ended += *x;
            false
        });
        mean_turns += ended * (turn + 1) as f64;
        m = next;
        if m.is_empty() {
            break;
        }
    }
    let live: f64 = m.values().sum();
    mean_turns += (live + pruned) * r.duel.max_rounds as f64;
    Ok(ExactDuel { a_wins, b_wins, draws: live + pruned, mean_turns })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::grunt_factor::tests::ruleset;

    #[test]
    fn one_model_one_shot_counts_by_hand() {
        // A Regular rifle squad reduced to one soldier (3 actions) fires at a full Regular
        // rifle squad 50 cm away (MR: +0, Dam 10 vs A 7 → save on 7 or less): per action
        // P(kill) = 7/20 × 13/20. Aim? plain 3 × 0.35 vs aimed 2 × 0.5: 1.05 > 1.0, no aim.
        let r = ruleset();
        let p = r.profile(r.find("regular-rifles"));
        let me = SquadState { alive: 1, panicked: false, prone: false, fired_on: false };
        let out = activation(&r, p, me, p, SquadState::fresh(p), 50.0);
        let k = 0.35 * 0.65;
        let none = (1.0 - k) * (1.0 - k) * (1.0 - k);
        let p_none: f64 = out.iter().filter(|o| o.2.alive == 5).map(|o| o.0).sum();
        assert!((p_none - none).abs() < 1e-12);
        // Any kill removes the Sergeant: a morale check against LD 9 (the new leader).
        let panicked: f64 = out.iter().filter(|o| o.2.panicked).map(|o| o.0).sum();
        let at_least_one = 1.0 - none;
        assert!((panicked - at_least_one * 11.0 / 20.0).abs() < 1e-12, "{panicked}");
        assert!((out.iter().map(|o| o.0).sum::<f64>() - 1.0).abs() < 1e-12);
        assert!(out.iter().all(|o| o.2.fired_on && o.3 == 50.0));
    }

    #[test]
    fn the_ld_test_beyond_sighting_gates_each_fire_action() {
        // At 65 cm (MR, beyond 60 cm) each Fire action first needs LD (Sergeant alive: 9 + 1
        // = 10 → 1/2). One model left (LD 9 → 9/20).
        let r = ruleset();
        let p = r.profile(r.find("regular-rifles"));
        let me = SquadState { alive: 1, panicked: false, prone: false, fired_on: false };
        let out = activation(&r, p, me, p, SquadState::fresh(p), 65.0);
        let k: f64 = 0.45 * 0.35 * 0.65;
        let p_none: f64 = out.iter().filter(|o| o.2.alive == 5).map(|o| o.0).sum();
        assert!((p_none - (1.0 - k).powi(3)).abs() < 1e-12);
        // Not fired on only if every LD test failed.
        let quiet: f64 = out.iter().filter(|o| !o.2.fired_on).map(|o| o.0).sum();
        assert!((quiet - 0.55f64.powi(3)).abs() < 1e-12);
    }

    #[test]
    fn mirrors_are_even_and_swaps_mirror() {
        let r = ruleset();
        for u in [0, 4, 6] {
            let e = duel(&r, u, u, 50.0).unwrap();
            assert!((e.a_wins - e.b_wins).abs() < 1e-9, "{u}: {e:?}");
            assert!((e.a_wins + e.b_wins + e.draws - 1.0).abs() < 1e-9);
        }
        let (x, y) = (duel(&r, 0, 4, 50.0).unwrap(), duel(&r, 4, 0, 50.0).unwrap());
        assert!((x.a_wins - y.b_wins).abs() < 1e-9 && (x.b_wins - y.a_wins).abs() < 1e-9);
        assert!(y.a_wins > 0.9, "Elite rifles beat Untrained rifles one squad each: {y:?}");
    }
}
