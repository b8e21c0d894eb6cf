//! Exact solution of a one-against-one stand-up Gunplay duel (RULINGS.md, "Common: the
//! stand-up duel"; DESIGN.md, "Exact engine").
//!
//! Why a bigger chain than Guns 'N Grenades': a Gunplay character is not a health count but
//! a state, Up with 0–3 wounds, Down with 1–3 wounds, or removed (a Down character with 4
//! wounds can never recover). A turn is both characters activating in an order rolled each
//! turn (a fair coin for two symmetric players), so the chain runs over (state of A, state of
//! B) turn by turn with the two orders mixed half and half. An activation is the default
//! tactic's plan ([`rules::plan`]) applied to the state: the duel is *stand-up* when every
//! plan the chain reaches fires from where the character stands (Aim+Fire, Fire+Fire, or
//! one Fire after a passed recovery); any reached plan that moves, charges or strikes makes
//! the duel need the Monte Carlo engine (`NotExact`). Propagating turn by turn up to the
//! `max_rounds` cap makes the draw probability exact too.

use crate::rulesets::gunplay::rules::{
    self, Action, REMOVAL_WOUNDS, Situation, band, damage_at, p_pass, recovery_level, shooting_level, toughness_level,
    wound_modifier,
};
use crate::rulesets::gunplay::{Gunplay, Profile};
use crate::rulesets::{ExactDuel, NotExact};

/// A character's state: 0–3 Up with that many wounds, 4–6 Down with 1–3 wounds, 7 removed.
pub type State = u8;
/// The removed state.
pub const REMOVED: State = 7;
const STATES: usize = 8;

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
) -> Vec<(f64, State)> {
    let mut dist = vec![(1.0, target)];
    let Some(b) = band(p, d) else { return dist };
    let hit = p_pass(shooting_level(r.cover, b, aimed, false), wound_modifier(shooter_wounds));
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

fn situation(d: f32, me: State, foe: State) -> Situation {
    Situation { distance: d, wounds: wounds(me), target_down: is_down(foe), target_wounds: wounds(foe) }
}

fn not_standing(action: Action, d: f32, me: State, foe: State) -> NotExact {
    NotExact(format!(
        "at {d} in the tactic plays {action:?} (own state {me}, target state {foe}): the duel needs movement or melee"
    ))
}

/// One activation of a character in state `me` against a target in state `foe` at `d`
/// inches: the distribution of (own state, target state) afterwards.
pub fn activation(
    r: &Gunplay,
    p: &Profile,
    pf: &Profile,
    d: f32,
    me: State,
    foe: State,
) -> Result<Vec<(f64, State, State)>, NotExact> {
    let mut out = Vec::new();
    // One Fire by a character with one action left (after a recovery or a first Fire).
    let single = |me: State, foe: State, m: f64, out: &mut Vec<(f64, State, State)>| -> Result<(), NotExact> {
        if foe == REMOVED {
            out.push((m, me, foe));
            return Ok(());
        }
        match rules::plan(r, p, pf, &situation(d, me, foe), 1)[0] {
            Action::Fire => {
                for (q, t) in after_fire(r, p, wounds(me), foe, d, false) {
                    out.push((m * q, me, t));
                }
                Ok(())
            }
            a => Err(not_standing(a, d, me, foe)),
        }
    };
    if is_down(me) {
        let w = wounds(me);
        let pass = p_pass(recovery_level(w), 0);
        if pass > 0.0 {
            single(up(w), foe, pass, &mut out)?;
        }
        if pass < 1.0 {
            out.push((1.0 - pass, down(w + 1), foe));
        }
        return Ok(out);
    }
    match rules::plan(r, p, pf, &situation(d, me, foe), 2)[0] {
        Action::Aim => {
            for (q, t) in after_fire(r, p, wounds(me), foe, d, true) {
                out.push((q, me, t));
            }
        }
        Action::Fire => {
            for (q, t) in after_fire(r, p, wounds(me), foe, d, false) {
                single(me, t, q, &mut out)?;
            }
        }
        a => return Err(not_standing(a, d, me, foe)),
    }
    Ok(out)
}

/// Transition table of one side's activation: `t[me][foe]` lists (probability, me', foe').
type Table = Vec<Vec<Vec<(f64, State, State)>>>;

fn table(r: &Gunplay, p: &Profile, pf: &Profile, d: f32) -> Result<Table, NotExact> {
    let mut t = vec![vec![Vec::new(); STATES]; STATES];
    for me in 0..REMOVED {
        for foe in 0..REMOVED {
            t[me as usize][foe as usize] = activation(r, p, pf, d, me, foe)?;
        }
    }
    Ok(t)
}

type Mass = [[f64; STATES]; STATES];

/// Applies side `actor`'s activation (0 = A, 1 = B) to the live mass; absorbed mass stays.
fn act(m: &Mass, t: &Table, actor: usize) -> Mass {
    let mut next = [[0.0; STATES]; STATES];
    for a in 0..STATES {
        for b in 0..STATES {
            let x = m[a][b];
            if x == 0.0 {
                continue;
            }
            if a == REMOVED as usize || b == REMOVED as usize {
                next[a][b] += x;
                continue;
            }
            let (me, foe) = if actor == 0 { (a, b) } else { (b, a) };
            for &(q, me2, foe2) in &t[me][foe] {
                let (a2, b2) = if actor == 0 { (me2, foe2) } else { (foe2, me2) };
                next[a2 as usize][b2 as usize] += x * q;
            }
        }
    }
    next
}

/// The exact outcome of loadout `a` against loadout `b`, one each, `distance` inches apart,
/// averaged over who goes first; `NotExact` if the tactic would move or fight in melee.
pub fn stand_up_duel(r: &Gunplay, a: usize, b: usize, distance: f64) -> Result<ExactDuel, NotExact> {
    let d = distance as f32;
    let (pa, pb) = (r.profile(a), r.profile(b));
    let ta = table(r, pa, pb, d)?;
    let tb = table(r, pb, pa, d)?;
    let rm = REMOVED as usize;
    let mut m: Mass = [[0.0; STATES]; STATES];
    m[0][0] = 1.0;
    let mut mean_turns = 0.0;
    let absorbed = |m: &Mass| -> f64 { (0..STATES).map(|k| m[rm][k] + m[k][rm]).sum::<f64>() - m[rm][rm] };
    for turn in 0..r.duel.max_rounds {
        let before = absorbed(&m);
        let ab = act(&act(&m, &ta, 0), &tb, 1);
        let ba = act(&act(&m, &tb, 1), &ta, 0);
        for i in 0..STATES {
            for j in 0..STATES {
                m[i][j] = 0.5 * (ab[i][j] + ba[i][j]);
            }
        }
        mean_turns += (absorbed(&m) - before) * (turn + 1) as f64;
    }
    let a_wins: f64 = (0..rm).map(|k| m[k][rm]).sum();
    let b_wins: f64 = (0..rm).map(|k| m[rm][k]).sum();
    let draws = (1.0 - a_wins - b_wins).max(0.0);
    mean_turns += draws * r.duel.max_rounds as f64;
    Ok(ExactDuel { a_wins, b_wins, draws, mean_turns })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::gunplay::Cover;
    use crate::rulesets::gunplay::tests::ruleset;

    #[test]
    fn one_rifle_activation_counts_by_hand() {
        // Rifle v rifle at 12" in the open: Fire twice at Easy (3/4 each), Damage 2. A hit on
        // a fresh target: Moderate test (1/2) stays Up with 1 wound; a second hit on an Up(1)
        // target: Hard (1/4); on a Down one: just a wound.
        let r = ruleset(Cover::Open);
        let p = r.profile(r.find("rifle"));
        let out = activation(&r, p, p, 12.0, up(0), up(0)).unwrap();
        let total = |s: State| out.iter().filter(|x| x.2 == s).map(|x| x.0).sum::<f64>();
        let (h, m) = (0.75, 0.25);
        assert!((total(up(0)) - m * m).abs() < 1e-12);
        assert!((total(up(1)) - (h * 0.5 * m + m * h * 0.5)).abs() < 1e-12);
        assert!((total(up(2)) - h * 0.5 * h * 0.25).abs() < 1e-12);
        assert!((total(down(1)) - (h * 0.5 * m + m * h * 0.5)).abs() < 1e-12);
        assert!((total(down(2)) - (h * 0.5 * h + h * 0.5 * h * 0.75)).abs() < 1e-12);
        assert!((out.iter().map(|x| x.0).sum::<f64>() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn a_down_character_recovers_then_fires_once() {
        let r = ruleset(Cover::Open);
        let p = r.profile(r.find("pistol"));
        // Down with 2 wounds: recovery Moderate (1/2); fail → Down(3). Pass → one Fire at
        // 6" (Easy, −2 for wounds: 7/12).
        let out = activation(&r, p, p, 6.0, down(2), up(0)).unwrap();
        let p_fail: f64 = out.iter().filter(|x| x.1 == down(3)).map(|x| x.0).sum();
        assert!((p_fail - 0.5).abs() < 1e-12);
        let p_hit: f64 = out.iter().filter(|x| x.1 == up(2) && x.2 != up(0)).map(|x| x.0).sum();
        assert!((p_hit - 0.5 * 7.0 / 12.0).abs() < 1e-12);
    }

    #[test]
    fn no_one_is_removed_in_the_first_turn_and_mirrors_are_even() {
        let mut r = ruleset(Cover::Open);
        r.duel.max_rounds = 1;
        let e = stand_up_duel(&r, 0, 0, 12.0).unwrap();
        assert_eq!((e.a_wins, e.b_wins, e.draws), (0.0, 0.0, 1.0));
        // Every loadout against its copy at 9" in the open: the tactic fires from where it
        // stands in every state, so the duel is exact and even.
        let r = ruleset(Cover::Open);
        for u in 0..3 {
            let e = stand_up_duel(&r, u, u, 9.0).unwrap();
            assert!((e.a_wins - e.b_wins).abs() < 1e-12);
            assert!((e.a_wins + e.b_wins + e.draws - 1.0).abs() < 1e-12);
        }
    }

    #[test]
    fn movement_makes_a_duel_inexact() {
        let r = ruleset(Cover::Open);
        // The pistol cannot fire at 40": it must move.
        assert!(stand_up_duel(&r, r.find("pistol"), r.find("rifle"), 40.0).is_err());
    }
}
