//! The exact solver for one-against-one duels under the default tactic (RULINGS.md, "Common").
//!
//! At a whole number of inches (up to the 48" duel table) the duel of figures the optimal-play
//! game takes is the forward chain over both figures' positions on its 1" grid
//! ([`super::optimal::VsgmrGame`], both sides scripted: [`crate::rulesets::vsgmr::rules::wanted_gap`]
//! moves them). Otherwise, the stand-up chain below:
//!
//! One hit defeats, so the chain's only live state is "both standing": each round is a fixed
//! sequence of at most two attacks (distance attacks before hand-to-hand ones, the first
//! player's before the other's, section II), each with a closed-form outcome distribution
//! (follow-up attacks of Area Effect Attack and Double Strike, Ignores Armor's two armor rolls,
//! Recruit, Revenge). The solver iterates the rounds up to `max_rounds`, every round weighted by
//! the initiative roll with Super-Move's bonus (round 1 of an even roll: averaged over who goes
//! first, as the Monte Carlo duel alternates it).
//!
//! Duels whose course depends on movement have no solution here: a figure that cannot attack
//! from where it stands or that closes into base contact (the default tactic's
//! [`prefers_contact`]: a mook against a Stealth figure) or that keeps or closes its distance
//! ([`wanted_gap`]), Cause Fear (the attacker flees), Knockback (the target is pushed) and
//! Inspiration (a reroll policy over the whole round) are refused with the reason.

use crate::rulesets::vsgmr::Vsgmr;
use crate::rulesets::vsgmr::rules::figure::{Kind, SupportRoll, Trait};
use crate::rulesets::vsgmr::rules::{AttackKind, EPS, Profile, p_saved, prefers_contact, wanted_gap};
use crate::rulesets::{ExactDuel, NotExact};

/// How one side's attack (with its follow-ups and the target's Revenge) ends.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(super) struct AttackOutcome {
    /// The target still stands.
    pub survives: f64,
    /// The target is gone and the attacker stands (or was not hit back).
    pub attacker_wins: f64,
    /// Both are gone (Revenge defeated the attacker).
    pub both_gone: f64,
    /// Revenge with Recruit turned the attacker: the target's side wins.
    pub target_wins: f64,
}

fn support(p: &Profile, kind: SupportRoll) -> i8 {
    (p.support == Some(kind)) as i8
}

/// P(an attack roll of `a` at `t` hits), Support included (no fear: refused before).
fn p_hit(a: &Profile, t: &Profile, kind: AttackKind) -> f64 {
    let (sides, two, bonus, needs) = match kind {
        AttackKind::Distance => {
            (a.blast_die, a.automatic_fire, a.distance_bonus() + support(a, SupportRoll::Distance), t.distance_needs())
        }
        AttackKind::HandToHand => (a.fight_die, false, a.hand_to_hand_bonus() + support(a, SupportRoll::HandToHand), 4),
    };
    let s = sides as i32;
    (1..=s)
        .filter(|&n| n + bonus as i32 >= needs as i32)
        .map(|n| if two { (2 * n - 1) as f64 / (s * s) as f64 } else { 1.0 / s as f64 })
        .sum()
}

/// P(one attack of `a` at `t` defeats it), Support and Ignores Armor included.
fn p_defeat_one(a: &Profile, t: &Profile, kind: AttackKind) -> f64 {
    p_hit(a, t, kind) * (1.0 - p_saved(t, a.has(Trait::IgnoresArmor), support(t, SupportRoll::Armor)))
}

/// P(a Recruit roll turns the defeated figure): d6 ≥ 5, mooks −1.
fn p_recruit(a: &Profile) -> f64 {
    if a.kind == Kind::Mook { 1.0 / 6.0 } else { 2.0 / 6.0 }
}

/// The outcome of `a`'s attack at `t` at distance `d`.
pub(super) fn attack(a: &Profile, t: &Profile, kind: AttackKind, d: f32) -> AttackOutcome {
    let hit = p_hit(a, t, kind);
    let save = p_saved(t, a.has(Trait::IgnoresArmor), support(t, SupportRoll::Armor));
    let attempts = match kind {
        AttackKind::Distance if a.has(Trait::AreaEffectAttack) => 3,
        AttackKind::HandToHand if a.has(Trait::DoubleStrike) => 2,
        _ => 1,
    };
    let mut defeat = 0.0;
    let mut reach = 1.0; // P(this attempt is made)
    for _ in 0..attempts {
        defeat += reach * hit * (1.0 - save);
        reach *= hit * save;
    }
    let mut out = AttackOutcome { survives: 1.0 - defeat, ..Default::default() };
    let recruited = if kind == AttackKind::HandToHand && a.has(Trait::Recruit) { p_recruit(a) } else { 0.0 };
    out.attacker_wins += defeat * recruited;
    let dies = defeat * (1.0 - recruited);
    let revenge = t.has(Trait::Revenge)
        && match kind {
            AttackKind::Distance => t.distance_attack && d <= t.range + EPS,
            AttackKind::HandToHand => true,
        };
    if revenge {
        let back = p_defeat_one(t, a, kind);
        let turned = if kind == AttackKind::HandToHand && t.has(Trait::Recruit) { p_recruit(t) } else { 0.0 };
        out.target_wins += dies * back * turned;
        out.both_gone += dies * back * (1.0 - turned);
        out.attacker_wins += dies * (1.0 - back);
    } else {
        out.attacker_wins += dies;
    }
    out
}

/// The attack unit `a` (profile `p`) makes at `q` from `d` inches without moving, as the default
/// tactic chooses; refused (naming the figure) if it would move: out of reach, or closing into
/// base contact because the exchange there is better ([`prefers_contact`]).
fn attack_kind(r: &Vsgmr, a: usize, p: &Profile, q: &Profile, d: f32, keeps: bool) -> Result<AttackKind, NotExact> {
    let name = &r.book.units[a].name;
    let flying = |x: &Profile| x.has(Trait::Flight) && x.distance_attack;
    let contact = d <= r.book.rules.contact + EPS && !flying(p) && !flying(q);
    let moves = || NotExact(format!("{name} must move to attack"));
    if !p.self_moving() {
        return Err(moves());
    }
    if p.distance_attack && d <= p.range + EPS && !contact && !flying(p) && !flying(q) && prefers_contact(p, q) {
        return Err(NotExact(format!("{name} closes into base contact (a better exchange than at range)")));
    }
    // The default tactic falls back from (or closes on) a foe that charges it, moving first or
    // second: the course depends on movement.
    let air = flying(p) || flying(q);
    if keeps && [false, true].into_iter().any(|moved| (wanted_gap(r, p, q, d, moved, air) - d).abs() > EPS) {
        return Err(NotExact(format!("{name} moves to keep or close its distance (the default tactic)")));
    }
    Ok(if p.distance_attack && d <= p.range + EPS {
        let h2h = crate::rulesets::vsgmr::rules::p_defeat(p, q, AttackKind::HandToHand);
        let dist = crate::rulesets::vsgmr::rules::p_defeat(p, q, AttackKind::Distance);
        if contact && h2h > dist { AttackKind::HandToHand } else { AttackKind::Distance }
    } else if contact {
        AttackKind::HandToHand
    } else {
        return Err(moves());
    })
}

/// P(side A goes first) from the initiative roll with Super-Move bonuses (ties re-roll).
pub(super) fn p_a_first(ba: i8, bb: i8) -> f64 {
    let (mut win, mut lose) = (0, 0);
    for x in 1..=6i8 {
        for y in 1..=6i8 {
            match (x + ba).cmp(&(y + bb)) {
                std::cmp::Ordering::Greater => win += 1,
                std::cmp::Ordering::Less => lose += 1,
                _ => {}
            }
        }
    }
    win as f64 / (win + lose) as f64
}

/// The exact duel of unit `a` against unit `b` starting `distance` inches apart, both playing
/// the default tactic: at a whole number of inches up to the 48" duel table, for figures the
/// optimal-play game takes ([`super::optimal::VsgmrGame`]), the forward chain over the
/// positions on its 1" grid (every Move, range, contact and wanted gap is whole inches, so the
/// grid is exact); else the stand-up chain ([`stand_up`]). Errors: see [`stand_up`].
pub fn duel(r: &Vsgmr, a: usize, b: usize, distance: f64) -> Result<ExactDuel, NotExact> {
    if distance.fract() == 0.0 && distance <= super::optimal::GRID.depth {
        if let Ok(g) = crate::rulesets::optimal::OptimalPlay::game(r, a, b, distance, 1.0) {
            return Ok(g.scripted_chain());
        }
    }
    stand_up(r, a, b, distance)
}

/// The stand-up chain: both figures attack from where they stand every round. Errors (naming
/// the figure): one must move to attack, closes into base contact, moves to keep or close its
/// distance ([`wanted_gap`]), can be struck by fear, can knock its target back, or has
/// Inspiration.
pub fn stand_up(r: &Vsgmr, a: usize, b: usize, distance: f64) -> Result<ExactDuel, NotExact> {
    stand_up_chain(r, a, b, distance, true)
}

/// [`stand_up`]; `keeps`: refuse a figure whose tactic would move to keep or close its distance
/// (false: the maths of two figures held where they stand, for tests).
fn stand_up_chain(r: &Vsgmr, a: usize, b: usize, distance: f64, keeps: bool) -> Result<ExactDuel, NotExact> {
    let (pa, pb) = (r.profile(a), r.profile(b));
    let d = distance as f32;
    let ka = attack_kind(r, a, pa, pb, d, keeps)?;
    let kb = attack_kind(r, b, pb, pa, d, keeps)?;
    for (x, y, k, name) in [(pa, pb, ka, &r.book.units[a].name), (pb, pa, kb, &r.book.units[b].name)] {
        if y.frightens(x) {
            return Err(NotExact(format!("{name} can be struck by fear (it then moves away)")));
        }
        let die = if k == AttackKind::Distance { x.blast_die } else { x.fight_die };
        if die > 6 && y.armor_needs().is_some() {
            return Err(NotExact(format!("{name}'s super power can knock its target back")));
        }
        if x.has(Trait::Inspiration) {
            return Err(NotExact(format!("{name} has Inspiration (a reroll policy over the round)")));
        }
    }
    let oa = attack(pa, pb, ka, d);
    let ob = attack(pb, pa, kb, d);
    // One round with side A first or B first: (A wins, B wins, draw, continue).
    let round = |a_first: bool| -> [f64; 4] {
        let rank = |k: AttackKind| (k == AttackKind::HandToHand) as u8;
        let a_attacks_first = (rank(ka), !a_first) < (rank(kb), a_first);
        let (first, second) = if a_attacks_first { (oa, ob) } else { (ob, oa) };
        // From the first attacker's view: wins, losses, draws, continue.
        let w = first.attacker_wins + first.survives * second.target_wins;
        let l = first.target_wins + first.survives * second.attacker_wins;
        let dr = first.both_gone + first.survives * second.both_gone;
        let c = first.survives * second.survives;
        if a_attacks_first { [w, l, dr, c] } else { [l, w, dr, c] }
    };
    let q = p_a_first(pa.initiative, pb.initiative);
    let (ra, rb) = (round(true), round(false));
    let later: [f64; 4] = std::array::from_fn(|k| q * ra[k] + (1.0 - q) * rb[k]);
    let mut total = [0.0f64; 3];
    let mut mean_turns = 0.0;
    for first in [ra, rb] {
        let mut alive = 1.0; // P(still going at the start of the round)
        for n in 1..=r.book.duel.max_rounds {
            // Round 1 alternates who goes first, unless Super-Move makes the roll uneven.
            let o = if n == 1 && pa.initiative == pb.initiative { first } else { later };
            for k in 0..3 {
                total[k] += 0.5 * alive * o[k];
            }
            mean_turns += 0.5 * alive * (o[0] + o[1] + o[2]) * n as f64;
            alive *= o[3];
            if alive < 1e-15 {
                alive = 0.0;
                break;
            }
        }
        total[2] += 0.5 * alive;
        mean_turns += 0.5 * alive * r.book.duel.max_rounds as f64;
    }
    Ok(ExactDuel { a_wins: total[0], b_wins: total[1], draws: total[2], mean_turns })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::vsgmr::tests::ruleset;

    #[test]
    fn two_troop_shooters_by_hand() {
        // Each shot hits on 5+ (1/3), no armor: the first shooter wins with
        // 1/3 + (2/3)^2 · 1/3 + ... = (1/3) / (1 − 4/9) = 3/5; averaged over who goes first: ½.
        let r = ruleset();
        let t = r.find("troop-with-distance-attack");
        // (The stand-up maths with both held where they stand; the default tactic moves, see
        // `the_moving_duel_is_the_grid_chain`.)
        let e = stand_up_chain(&r, t, t, 12.0, false).unwrap();
        assert!((e.a_wins - 0.5).abs() < 1e-12 && e.draws < 1e-12, "{e:?}");
        // Mean rounds: each round ends with P = 1 − 4/9 = 5/9, so 9/5.
        assert!((e.mean_turns - 1.8).abs() < 1e-9, "{e:?}");
    }

    #[test]
    fn a_figure_that_closes_into_contact_is_refused_by_name() {
        // The mook's shot at a Stealth figure needs a 7: the default tactic charges, so the
        // duel at 12" depends on movement; in base contact it is a stand-up duel again.
        let r = ruleset();
        let (m, s) = (r.find("mook-with-distance-attack"), r.find("troop-stealth"));
        let e = stand_up(&r, m, s, 12.0).unwrap_err();
        assert_eq!(e.0, "Mook with distance attack closes into base contact (a better exchange than at range)");
        assert!(stand_up(&r, s, m, 12.0).is_err() && stand_up_chain(&r, m, s, 1.0, false).is_ok());
        // The Stealth figure, charged, falls back (section II.2): refused by name.
        let e = stand_up(&r, s, m, 1.0).unwrap_err();
        assert_eq!(e.0, "Troop Stealth moves to keep or close its distance (the default tactic)");
    }

    #[test]
    fn the_moving_duel_is_the_grid_chain() {
        // At whole inches the exact duel follows both figures' moves on the 1" grid: a shooter
        // against a hero in heavy armor at 12" (the hero must walk, the shooter falls back).
        let r = ruleset();
        let (t, h) = (r.find("troop-with-distance-attack"), r.find("hero-with-heavy-armor"));
        let e = duel(&r, t, h, 12.0).unwrap();
        assert!((e.a_wins + e.b_wins + e.draws - 1.0).abs() < 1e-9 && e.a_wins > 0.7, "{e:?}");
        let m = duel(&r, t, t, 12.0).unwrap();
        assert!((m.a_wins - m.b_wins).abs() < 1e-12, "{m:?}");
        // Off the grid: the stand-up chain, which refuses the walk.
        assert!(duel(&r, t, h, 12.5).is_err());
    }

    #[test]
    fn shooter_against_hero_in_heavy_armor_by_hand() {
        // Troop shooter: hit 1/3, heavy armor saves 1/2 → 1/6 per round. The hero must walk
        // (hand to hand only), so it is not a stand-up duel at 12"; in contact (1") it is:
        // the shooter in contact prefers hand to hand (1/2 · 1/2 = 1/4 > 1/6).
        let r = ruleset();
        let (t, h) = (r.find("troop-with-distance-attack"), r.find("hero-with-heavy-armor"));
        assert!(stand_up(&r, t, h, 12.0).is_err());
        let e = stand_up_chain(&r, t, h, 1.0, false).unwrap();
        // Hero hits 4+ with +1: 2/3 and the troop has no armor. Troop: 1/4.
        // A first: pA = 1/4, then B: 2/3. P(A wins | A first) = (1/4) / (1 − 3/4 · 1/3) = 1/3.
        // B first: P(B wins) = (2/3)/(1 − 1/3 · 3/4) = 8/9, so A wins 1/9. Average 2/9.
        assert!((e.a_wins - 2.0 / 9.0).abs() < 1e-12, "{e:?}");
    }
}
