//! Exact solution of a one-against-one Gunplay duel (RULINGS.md, "Common: the stand-up
//! duel"; DESIGN.md, "Exact engine").
//!
//! Why a bigger chain than Guns 'N Grenades: a Gunplay character is not a health count but
//! a state, Up with 0–3 wounds, Down with 1–3 wounds, or removed (a Down character with 4
//! wounds can never recover). A turn is both characters activating in an order rolled each
//! turn (a fair coin for two symmetric players), so the chain runs over (state of A, state of
//! B, distance) turn by turn with the two orders mixed half and half. An activation is the
//! default tactic ([`rules::plan`]) applied action by action to the state, exactly as
//! [`rules::activate`] plays it: re-planned after every action, an Aim committing to its
//! Fire, stopping when the actor goes Down or either character is removed.
//!
//! Including the distance is what makes every 1v1 duel exact, not only stand-up ones: two
//! characters on a line stay on it, a move shortens the distance by a length the tactic picks
//! from a finite set (band edges, contact, the full move), so only finitely many distances are
//! ever reached. Melee rounds are summed over the 144 pairs of strike rolls. Propagating turn
//! by turn up to the `max_rounds` cap makes the draw probability exact too.

use crate::seed::FixedHashMap as HashMap;

use crate::rulesets::gunplay::rules::{
    self, Action, REMOVAL_WOUNDS, Situation, band, beats, damage_at, melee_level, p_pass, recovery_level,
    shooting_level, toughness_level, wound_modifier,
};
use crate::rulesets::gunplay::{Gunplay, Profile};
use crate::rulesets::{ExactDuel, NotExact};

/// A character's state: 0–3 Up with that many wounds, 4–6 Down with 1–3 wounds, 7 removed.
pub type State = u8;
/// The removed state.
pub const REMOVED: State = 7;

/// Up with `w` wounds (0–3).
pub fn up(w: u8) -> State {
    w
}

/// Down with `w` wounds (1–3), or removed from 4 wounds.
pub fn down(w: u8) -> State {
    if w >= REMOVAL_WOUNDS { REMOVED } else { 3 + w }
}

/// Wounds of a live state.
pub fn wounds(s: State) -> u8 {
    if s <= 3 { s } else { s - 3 }
}

/// Whether state `s` has lost the duel: removed, or Down too under `[rules] duel_victory =
/// "none_up"` (docs/rulings/readings.md GP-1).
pub fn defeated(r: &Gunplay, s: State) -> bool {
    s == REMOVED || (r.book.rules.duel_victory == crate::rulesets::gunplay::DuelVictory::NoneUp && is_down(s))
}

/// Whether a live state is Down.
pub fn is_down(s: State) -> bool {
    (4..REMOVED).contains(&s)
}

/// The distribution of a target's state after one hit of `damage` ([`rules::take_hit`]).
pub fn after_hit(s: State, damage: u8) -> Vec<(f64, State)> {
    let w = wounds(s);
    if is_down(s) {
        return vec![(1.0, down(w + 1))];
    }
    let stay = p_pass(toughness_level(damage, w), 0);
    let mut out = Vec::new();
    if stay > 0.0 {
        out.push((stay, up(w + 1)));
    }
    if stay < 1.0 {
        out.push((1.0 - stay, down(w + 1)));
    }
    out
}

/// The distribution of the target's state after one Fire action ([`rules::fire`]).
pub fn after_fire(
    r: &Gunplay,
    p: &Profile,
    shooter_wounds: u8,
    target: State,
    d: f32,
    aimed: bool,
    quick: bool,
) -> Vec<(f64, State)> {
    let mut dist = vec![(1.0, target)];
    let Some(b) = band(p, d) else { return dist };
    let hit = p_pass(shooting_level(r.cover, b, aimed, quick), wound_modifier(shooter_wounds));
    for _ in 0..p.rof {
        let mut next = Vec::new();
        for (m, s) in dist {
            if s == REMOVED {
                next.push((m, s));
                continue;
            }
            if hit < 1.0 {
                next.push((m * (1.0 - hit), s));
            }
            if hit > 0.0 {
                for (q, t) in after_hit(s, damage_at(p, b)) {
                    next.push((m * hit * q, t));
                }
            }
        }
        dist = next;
    }
    dist
}

fn is_up(s: State) -> bool {
    s <= 3
}

/// Applies a hit with probability weight `m` to `s` only if `hits`.
fn maybe_hit(s: State, hits: bool, damage: u8) -> Vec<(f64, State)> {
    if hits && s != REMOVED { after_hit(s, damage) } else { vec![(1.0, s)] }
}

/// The distribution of (attacker, defender) after one melee round ([`rules::melee_round`]).
pub fn after_melee(pa: &Profile, a: State, pd: &Profile, d: State, charging: bool) -> Vec<(f64, State, State)> {
    let mut out = Vec::new();
    for ra in 1..=12u8 {
        let a_hits = beats(melee_level(charging, is_down(d)), ra, wound_modifier(wounds(a)));
        if is_down(d) {
            for (q, d2) in maybe_hit(d, a_hits, pa.melee_damage) {
                out.push((q / 12.0, a, d2));
            }
            continue;
        }
        for rd in 1..=12u8 {
            let w = 1.0 / 144.0;
            let d_hits = beats(melee_level(false, false), rd, wound_modifier(wounds(d)));
            if ra == rd {
                for (q, d2) in maybe_hit(d, a_hits, pa.melee_damage) {
                    for (q2, a2) in maybe_hit(a, d_hits, pd.melee_damage) {
                        out.push((w * q * q2, a2, d2));
                    }
                }
            } else if ra < rd {
                for (q, d2) in maybe_hit(d, a_hits, pa.melee_damage) {
                    for (q2, a2) in maybe_hit(a, d_hits && is_up(d2), pd.melee_damage) {
                        out.push((w * q * q2, a2, d2));
                    }
                }
            } else {
                for (q, a2) in maybe_hit(a, d_hits, pd.melee_damage) {
                    for (q2, d2) in maybe_hit(d, a_hits && is_up(a2), pa.melee_damage) {
                        out.push((w * q * q2, a2, d2));
                    }
                }
            }
        }
    }
    out
}

fn situation(d: f32, me: State, foe: State) -> Situation {
    Situation { distance: d, wounds: wounds(me), target_down: is_down(foe), target_wounds: wounds(foe) }
}

/// Outcomes of an activation: (probability, own state, target state, distance).
pub type Outcomes = Vec<(f64, State, State, f32)>;

/// The remaining `left` actions of an Up character ([`rules::activate`]'s loop).
#[allow(clippy::too_many_arguments)]
fn actions(
    r: &Gunplay,
    p: &Profile,
    pf: &Profile,
    d: f32,
    me: State,
    foe: State,
    left: u8,
    aimed: bool,
    m: f64,
    out: &mut Outcomes,
) {
    if left == 0 || me == REMOVED || foe == REMOVED || is_down(me) || m == 0.0 {
        out.push((m, me, foe, d));
        return;
    }
    let action = if aimed { Action::Fire } else { rules::plan(r, p, pf, &situation(d, me, foe), left)[0] };
    let fire_at = |nd: f32, aimed: bool, quick: bool, out: &mut Outcomes| {
        for (q, t) in after_fire(r, p, wounds(me), foe, nd, aimed, quick) {
            actions(r, p, pf, nd, me, t, left - 1, false, m * q, out);
        }
    };
    match action {
        Action::Aim => actions(r, p, pf, d, me, foe, left - 1, true, m, out),
        Action::Fire => fire_at(d, aimed, false, out),
        Action::MoveFire { quick, by } => fire_at(d - by, false, quick, out),
        Action::Move { by } => actions(r, p, pf, d - by, me, foe, left - 1, false, m, out),
        Action::Charge | Action::Strike => {
            let charging = action == Action::Charge;
            let nd = if charging { r.book.rules.contact } else { d };
            for (q, me2, foe2) in after_melee(p, me, pf, foe, charging) {
                actions(r, p, pf, nd, me2, foe2, left - 1, false, m * q, out);
            }
        }
        Action::Pass => actions(r, p, pf, d, me, foe, left - 1, false, m, out),
    }
}

/// One activation of a character in state `me` against a target in state `foe` at `d`
/// inches: the distribution of (own state, target state, distance) afterwards.
pub fn activation(r: &Gunplay, p: &Profile, pf: &Profile, d: f32, me: State, foe: State) -> Outcomes {
    let mut out = Vec::new();
    if is_down(me) {
        let w = wounds(me);
        let pass = p_pass(recovery_level(w), 0);
        if pass > 0.0 {
            actions(r, p, pf, d, up(w), foe, 1, false, pass, &mut out);
        }
        if pass < 1.0 {
            out.push((1.0 - pass, down(w + 1), foe, d));
        }
    } else {
        actions(r, p, pf, d, me, foe, 2, false, 1.0, &mut out);
    }
    out
}

/// (state of A, state of B, distance as f32 bits).
type Key = (State, State, u32);

/// Applies side `actor`'s activation (0 = A, 1 = B) to the mass; states where a character is
/// defeated ([`defeated`]) are over and pass through unchanged.
fn act(
    r: &Gunplay,
    profiles: [&Profile; 2],
    m: &HashMap<Key, f64>,
    actor: usize,
    memo: &mut HashMap<(usize, State, State, u32), Outcomes>,
) -> HashMap<Key, f64> {
    let mut next: HashMap<Key, f64> = HashMap::with_capacity_and_hasher(m.len() * 4, Default::default());
    for (&(a, b, dbits), &x) in m {
        if defeated(r, a) || defeated(r, b) {
            *next.entry((a, b, dbits)).or_default() += x;
            continue;
        }
        let (me, foe) = if actor == 0 { (a, b) } else { (b, a) };
        let outs = memo
            .entry((actor, me, foe, dbits))
            .or_insert_with(|| activation(r, profiles[actor], profiles[1 - actor], f32::from_bits(dbits), me, foe));
        for &(q, me2, foe2, d2) in outs.iter() {
            let (a2, b2) = if actor == 0 { (me2, foe2) } else { (foe2, me2) };
            *next.entry((a2, b2, d2.to_bits())).or_default() += x * q;
        }
    }
    next
}

/// The exact outcome of loadout `a` against loadout `b`, one each, starting `distance`
/// inches apart, averaged over who goes first. Never `Err` for Gunplay: every 1v1 duel has a
/// finite chain; the `Result` is the [`crate::rulesets::Ruleset::exact_duel`] contract.
pub fn duel(r: &Gunplay, a: usize, b: usize, distance: f64) -> Result<ExactDuel, NotExact> {
    let profiles = [r.profile(a), r.profile(b)];
    let mut memo = HashMap::default();
    let mut m: HashMap<Key, f64> = HashMap::default();
    m.insert((up(0), up(0), (distance as f32).to_bits()), 1.0);
    let (mut a_wins, mut b_wins, mut both, mut mean_turns) = (0.0, 0.0, 0.0, 0.0);
    for turn in 0..r.book.duel.max_rounds {
        let ab = act(r, profiles, &act(r, profiles, &m, 0, &mut memo), 1, &mut memo);
        let ba = act(r, profiles, &act(r, profiles, &m, 1, &mut memo), 0, &mut memo);
        let mut next: HashMap<Key, f64> = HashMap::with_capacity_and_hasher(ab.len(), Default::default());
        for (k, x) in ab.into_iter().chain(ba) {
            *next.entry(k).or_default() += 0.5 * x;
        }
        // Collect the games that ended this turn.
        let mut ended = 0.0;
        next.retain(|&(sa, sb, _), x| {
            let (da, db) = (defeated(r, sa), defeated(r, sb));
            let over = da || db;
            if over {
                match (da, db) {
                    (false, true) => a_wins += *x,
                    (true, false) => b_wins += *x,
                    _ => both += *x,
                }
                ended += *x;
            }
            !over
        });
        mean_turns += ended * (turn + 1) as f64;
        m = next;
        if m.is_empty() {
            break;
        }
    }
    let live: f64 = m.values().sum();
    mean_turns += live * r.book.duel.max_rounds as f64;
    Ok(ExactDuel { a_wins, b_wins, draws: live + both, mean_turns })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::Ruleset;
    use crate::rulesets::gunplay::Cover;
    use crate::rulesets::gunplay::tests::ruleset;

    fn total(out: &Outcomes, keep: impl Fn(&(f64, State, State, f32)) -> bool) -> f64 {
        out.iter().filter(|x| keep(x)).map(|x| x.0).sum()
    }

    #[test]
    fn one_rifle_activation_counts_by_hand() {
        // Rifle v rifle at 12" in the open: Fire twice at Easy (3/4 each), Damage 2. A hit on
        // a fresh target: Moderate test (1/2) stays Up with 1 wound; a second hit on an Up(1)
        // target: Hard (1/4); on a Down one: just a wound.
        let r = ruleset(Cover::Open);
        let p = r.profile(r.find("rifle"));
        let out = activation(&r, p, p, 12.0, up(0), up(0));
        let (h, m) = (0.75, 0.25);
        let on = |s: State| total(&out, |x| x.2 == s);
        assert!((on(up(0)) - m * m).abs() < 1e-12);
        assert!((on(up(1)) - (h * 0.5 * m + m * h * 0.5)).abs() < 1e-12);
        assert!((on(up(2)) - h * 0.5 * h * 0.25).abs() < 1e-12);
        assert!((on(down(1)) - (h * 0.5 * m + m * h * 0.5)).abs() < 1e-12);
        assert!((on(down(2)) - (h * 0.5 * h + h * 0.5 * h * 0.75)).abs() < 1e-12);
        assert!((total(&out, |_| true) - 1.0).abs() < 1e-12);
        assert!(out.iter().all(|x| x.3 == 12.0 && x.1 == up(0)), "nobody moves, the shooter is untouched");
    }

    #[test]
    fn a_down_character_recovers_then_fires_once() {
        let r = ruleset(Cover::Open);
        let p = r.profile(r.find("pistol"));
        // Down with 2 wounds: recovery Moderate (1/2); fail → Down(3). Pass → one Fire at
        // 6" (Easy, −2 for wounds: 7/12).
        let out = activation(&r, p, p, 6.0, down(2), up(0));
        assert!((total(&out, |x| x.1 == down(3)) - 0.5).abs() < 1e-12);
        assert!((total(&out, |x| x.1 == up(2) && x.2 != up(0)) - 0.5 * 7.0 / 12.0).abs() < 1e-12);
    }

    #[test]
    fn a_melee_round_counts_by_hand() {
        // Two fresh knives, no charge: each hits on 10+ (beat 9, 3/12); the lower roll goes
        // first. P(the defender is struck) = P(attacker's roll hits) whatever the order, except
        // when the defender struck first and put the attacker Down (knife test Easy: 3/12 fail).
        let r = ruleset(Cover::Open);
        let p = r.profile(r.find("pistol"));
        let out = after_melee(p, up(0), p, up(0), false);
        let struck: f64 = out.iter().filter(|x| x.2 != up(0)).map(|x| x.0).sum();
        // Attacker hits with ra in 10..=12. It loses its strike only if rd < ra, rd hits
        // (rd ≥ 10) and the attacker goes Down (1/4): pairs (ra, rd) = (11,10), (12,10), (12,11).
        let expect = 3.0 / 12.0 - 3.0 / 144.0 * 0.25;
        assert!((struck - expect).abs() < 1e-12, "{struck} vs {expect}");
        assert!((out.iter().map(|x| x.0).sum::<f64>() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn no_one_is_removed_in_the_first_turn_and_mirrors_are_even() {
        let mut r = ruleset(Cover::Open);
        r.book.duel.max_rounds = 1;
        let e = duel(&r, 0, 0, 12.0).unwrap();
        assert_eq!((e.a_wins, e.b_wins), (0.0, 0.0));
        assert!((e.draws - 1.0).abs() < 1e-12);
        for cover in Cover::ALL {
            let r = ruleset(cover);
            for u in 0..r.units().len() {
                for d in [3.0, 20.0, 45.0] {
                    let e = duel(&r, u, u, d).unwrap();
                    assert!((e.a_wins - e.b_wins).abs() < 1e-9, "{cover:?} {u} at {d}: {e:?}");
                    assert!((e.a_wins + e.b_wins + e.draws - 1.0).abs() < 1e-9);
                }
            }
        }
    }

    #[test]
    fn swapping_the_sides_mirrors_the_result() {
        let r = ruleset(Cover::Some);
        let (x, y) = (duel(&r, 1, 2, 30.0).unwrap(), duel(&r, 2, 1, 30.0).unwrap());
        assert!((x.a_wins - y.b_wins).abs() < 1e-9 && (x.b_wins - y.a_wins).abs() < 1e-9);
    }
}
