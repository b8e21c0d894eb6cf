//! Closed-form odds of one attack (probabilities in [0, 1]) that the default tactic weighs and
//! the optimal-play game's scripted policy shares: P(defeat), P(saved), the exchange in base
//! contact or at range, and the memo of a matchup's numbers ([`Matchup`]).

use super::*;

/// P(defeat) of one attack roll of `ap` at `tp`, no support, no inspiration: the default
/// tactic's measure to choose distance or hand to hand in contact.
pub fn p_defeat(ap: &Profile, tp: &Profile, kind: AttackKind) -> f64 {
    let (sides, two, bonus, needs) = match kind {
        AttackKind::Distance => (ap.blast_die, ap.automatic_fire, ap.distance_bonus(), tp.distance_needs()),
        AttackKind::HandToHand => (ap.fight_die, false, ap.hand_to_hand_bonus(), 4),
    };
    let fear = tp.frightens(ap);
    let s = sides as i32;
    let mut p_hit = 0.0;
    for n in 1..=s {
        // P(kept die = n): one die 1/s; two dice (2n−1)/s².
        let pn = if two { (2 * n - 1) as f64 / (s * s) as f64 } else { 1.0 / s as f64 };
        if !(fear && n <= 2) && n + bonus as i32 >= needs as i32 {
            p_hit += pn;
        }
    }
    p_hit * (1.0 - p_saved(tp, ap.has(Trait::IgnoresArmor), 0))
}

/// P(one attack of `a` at `t` defeats it), in [0, 1], where `a` stands: at range its distance attack (0
/// without one, or without moving on its own), in base contact the better of hand to hand and
/// its distance attack (what [`distance_attack`] chooses there). A shot no die can make good
/// (a mook needs a 7 against Stealth) rates 0.
pub fn p_exchange_attack(a: &Profile, t: &Profile, contact: bool) -> f64 {
    if !a.self_moving() {
        return 0.0;
    }
    let shot = if a.distance_attack { p_defeat(a, t, AttackKind::Distance) } else { 0.0 };
    if contact { shot.max(p_defeat(a, t, AttackKind::HandToHand)) } else { shot }
}

/// The default tactic's choice for a figure with a distance attack: whether it closes into base
/// contact with `foe` rather than holding at range. It compares the expected exchange of one
/// round of attacks — P(it defeats the foe) − P(the foe defeats it) — at range and in contact
/// (probabilities in [0, 1]); it closes only if contact is strictly better (ties hold, by more
/// than 1e-9), e.g. a mook (d6 − 1 ≥ 6: never) against a Stealth figure. Sections II.3 "Distance
/// Attacks", II.4 "Hand To Hand Attacks" and V "Stealth". One rule for the duels, the exact
/// solver's scripted policy ([`crate::rulesets::vsgmr::exact`]) and the Skirmish.
pub fn prefers_contact(me: &Profile, foe: &Profile) -> bool {
    let range = p_exchange_attack(me, foe, false) - p_exchange_attack(foe, me, false);
    let contact = p_exchange_attack(me, foe, true) - p_exchange_attack(foe, me, true);
    contact > range + 1e-9
}

/// P(an armor roll cancels the hit), with `extra` bonus (Support); squared for Ignores Armor.
pub fn p_saved(tp: &Profile, ignores_armor: bool, extra: i8) -> f64 {
    let Some(needs) = tp.armor_needs() else { return 0.0 };
    let s = tp.armor_die as i32;
    let one = (1..=s).filter(|&n| n + (tp.armor_bonus() + extra) as i32 >= needs as i32).count() as f64 / s as f64;
    if ignores_armor { one * one } else { one }
}

/// What the default tactic reads of one ordered pair of profiles, `me` against `foe`: the
/// same numbers as [`p_defeat`], [`prefers_contact`] and the exchange struck second, computed
/// once per pair of units ([`Vsgmr::matchup`]) instead of on every move and attack.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Matchup {
    /// P(one attack of `me` defeats `foe`), in [0, 1]: a distance attack ([`p_defeat`]).
    pub p_distance: f64,
    /// P(one hand-to-hand attack of `me` defeats `foe`), in [0, 1] ([`p_defeat`]).
    pub p_hand_to_hand: f64,
    /// [`prefers_contact`]`(me, foe)`.
    pub prefers_contact: bool,
    /// [`prefers_contact`]`(foe, me)`.
    pub foe_prefers_contact: bool,
    /// One round's exchange for `me` attacking second ([`wanted_gap`]): at range, in base contact.
    pub second_strike: [f64; 2],
    /// P(one distance / hand-to-hand attack of `foe` defeats `me`), in [0, 1] ([`p_defeat`]).
    pub foe_p_distance: f64,
    pub foe_p_hand_to_hand: f64,
    /// [`Matchup::second_strike`] of `foe` against `me`.
    pub foe_second_strike: [f64; 2],
}

impl Matchup {
    pub fn new(me: &Profile, foe: &Profile) -> Self {
        Matchup {
            p_distance: p_defeat(me, foe, AttackKind::Distance),
            p_hand_to_hand: p_defeat(me, foe, AttackKind::HandToHand),
            prefers_contact: prefers_contact(me, foe),
            foe_prefers_contact: prefers_contact(foe, me),
            second_strike: [second_strike(me, foe, false), second_strike(me, foe, true)],
            foe_p_distance: p_defeat(foe, me, AttackKind::Distance),
            foe_p_hand_to_hand: p_defeat(foe, me, AttackKind::HandToHand),
            foe_second_strike: [second_strike(foe, me, false), second_strike(foe, me, true)],
        }
    }

    /// The same pair read from `foe`'s side (`Matchup::new(foe, me)`).
    pub fn mirror(&self) -> Matchup {
        Matchup {
            p_distance: self.foe_p_distance,
            p_hand_to_hand: self.foe_p_hand_to_hand,
            prefers_contact: self.foe_prefers_contact,
            foe_prefers_contact: self.prefers_contact,
            second_strike: self.foe_second_strike,
            foe_p_distance: self.p_distance,
            foe_p_hand_to_hand: self.p_hand_to_hand,
            foe_second_strike: self.second_strike,
        }
    }

    /// Every ordered pair of `profiles`, row-major (row: `me`).
    pub fn table(profiles: &[Profile]) -> Vec<Matchup> {
        profiles.iter().flat_map(|me| profiles.iter().map(move |foe| Matchup::new(me, foe))).collect()
    }
}
