//! VSGMR v7: scripted dice for every trait and super power ("attacker rolls 4, hero +1 → hit"),
//! each test naming the rule it checks.

use pointsworth::config::{Overrides, Source};
use pointsworth::dice::ScriptedDice;
use pointsworth::rulesets::vsgmr::Vsgmr;
use pointsworth::rulesets::vsgmr::rules::figure::{Armor, Figure, Kind, Power, Trait};
use pointsworth::rulesets::vsgmr::rules::{self, AttackKind, Battle};

fn base() -> Vsgmr {
    let src = Source::read(std::path::Path::new("configs/vsgmr.toml")).unwrap();
    Vsgmr::from_source(&src, &Overrides::default()).unwrap()
}

fn fig(kind: Kind, f: impl Fn(&mut Figure)) -> Figure {
    let mut x = Figure::base(kind);
    f(&mut x);
    x
}

fn shooter() -> Figure {
    fig(Kind::Troop, |f| f.distance_attack = true)
}

/// One `a` at x = 0 against one `b` at x = `d`: the ruleset, a battle, (0, 1) their indices.
fn setup(a: Figure, b: Figure, d: f32) -> (Vsgmr, Battle) {
    let r = base().with_templates(&[("A".into(), a), ("B".into(), b)]);
    let mut battle = Battle::default();
    battle.deploy(&r, 0, 1, 1, 1, d, 2.0);
    battle.round = 1;
    (r, battle)
}

/// A d8/d10 result as the uniform draw that gives it.
fn u(roll: u8, sides: u8) -> f64 {
    (roll as f64 - 0.5) / sides as f64
}

#[test]
fn distance_attack_hits_on_five_and_one_hit_defeats() {
    let (r, mut b) = setup(shooter(), Figure::base(Kind::Troop), 12.0);
    let mut dice = ScriptedDice::new(&[4]);
    assert!(!rules::single_attack(&r, &mut b, &mut dice, 0, 1, AttackKind::Distance));
    assert!(b.figs[1].alive);
    let mut dice = ScriptedDice::new(&[5]);
    assert!(rules::single_attack(&r, &mut b, &mut dice, 0, 1, AttackKind::Distance));
    assert!(!b.figs[1].alive && dice.exhausted());
}

#[test]
fn heroes_add_one_and_mooks_lose_one() {
    let hero = fig(Kind::Hero, |f| f.distance_attack = true);
    let (r, mut b) = setup(hero, Figure::base(Kind::Troop), 12.0);
    assert!(rules::single_attack(&r, &mut b, &mut ScriptedDice::new(&[4]), 0, 1, AttackKind::Distance));
    let mook = fig(Kind::Mook, |f| f.distance_attack = true);
    let (r, mut b) = setup(mook, Figure::base(Kind::Troop), 12.0);
    assert!(!rules::single_attack(&r, &mut b, &mut ScriptedDice::new(&[5]), 0, 1, AttackKind::Distance));
    assert!(rules::single_attack(&r, &mut b, &mut ScriptedDice::new(&[6]), 0, 1, AttackKind::Distance));
}

#[test]
fn automatic_fire_keeps_the_higher_of_two_dice() {
    let auto = fig(Kind::Troop, |f| {
        f.distance_attack = true;
        f.automatic_fire = true
    });
    let (r, mut b) = setup(auto, Figure::base(Kind::Troop), 12.0);
    let mut dice = ScriptedDice::new(&[2, 5]);
    assert!(rules::single_attack(&r, &mut b, &mut dice, 0, 1, AttackKind::Distance));
    assert!(dice.exhausted());
}

#[test]
fn light_armor_saves_on_six_heavy_on_four() {
    let light = fig(Kind::Troop, |f| f.armor = Armor::Light);
    let (r, mut b) = setup(shooter(), light, 12.0);
    assert!(rules::single_attack(&r, &mut b, &mut ScriptedDice::new(&[5, 6]), 0, 1, AttackKind::Distance));
    assert!(b.figs[1].alive, "6 saves in light armor");
    rules::single_attack(&r, &mut b, &mut ScriptedDice::new(&[5, 5]), 0, 1, AttackKind::Distance);
    assert!(!b.figs[1].alive, "5 does not");
    let heavy = fig(Kind::Troop, |f| f.armor = Armor::Heavy);
    let (r, mut b) = setup(shooter(), heavy, 12.0);
    rules::single_attack(&r, &mut b, &mut ScriptedDice::new(&[5, 4]), 0, 1, AttackKind::Distance);
    assert!(b.figs[1].alive, "4 saves in heavy armor");
}

#[test]
fn the_commander_hero_has_heavy_armor_free() {
    let cmd = fig(Kind::Hero, |f| f.commander = true);
    assert_eq!(cmd.price(), 2.0);
    let (r, mut b) = setup(shooter(), cmd, 12.0);
    rules::single_attack(&r, &mut b, &mut ScriptedDice::new(&[6, 4]), 0, 1, AttackKind::Distance);
    assert!(b.figs[1].alive);
}

#[test]
fn tough_adds_one_to_armor_and_does_nothing_without_armor() {
    let tough = fig(Kind::Troop, |f| {
        f.armor = Armor::Light;
        f.traits = Trait::Tough.bit()
    });
    let (r, mut b) = setup(shooter(), tough, 12.0);
    rules::single_attack(&r, &mut b, &mut ScriptedDice::new(&[5, 5]), 0, 1, AttackKind::Distance);
    assert!(b.figs[1].alive, "5 + 1 saves in light armor");
    let bare = fig(Kind::Troop, |f| f.traits = Trait::Tough.bit());
    let (r, mut b) = setup(shooter(), bare, 12.0);
    let mut dice = ScriptedDice::new(&[5]);
    rules::single_attack(&r, &mut b, &mut dice, 0, 1, AttackKind::Distance);
    assert!(!b.figs[1].alive && dice.exhausted(), "no armor, no armor roll");
}

#[test]
fn ignores_armor_needs_two_successful_armor_rolls() {
    let ia = fig(Kind::Troop, |f| {
        f.distance_attack = true;
        f.traits = Trait::IgnoresArmor.bit()
    });
    let heavy = fig(Kind::Troop, |f| f.armor = Armor::Heavy);
    let (r, mut b) = setup(ia.clone(), heavy.clone(), 12.0);
    rules::single_attack(&r, &mut b, &mut ScriptedDice::new(&[5, 4, 3]), 0, 1, AttackKind::Distance);
    assert!(!b.figs[1].alive);
    let (r, mut b) = setup(ia, heavy, 12.0);
    rules::single_attack(&r, &mut b, &mut ScriptedDice::new(&[5, 4, 6]), 0, 1, AttackKind::Distance);
    assert!(b.figs[1].alive);
}

#[test]
fn sharpshooter_and_combat_master_add_one_or_two_for_heroes() {
    let ss = fig(Kind::Troop, |f| {
        f.distance_attack = true;
        f.traits = Trait::Sharpshooter.bit()
    });
    let (r, mut b) = setup(ss, Figure::base(Kind::Troop), 12.0);
    assert!(rules::single_attack(&r, &mut b, &mut ScriptedDice::new(&[4]), 0, 1, AttackKind::Distance));
    let hero_ss = fig(Kind::Hero, |f| {
        f.distance_attack = true;
        f.traits = Trait::Sharpshooter.bit()
    });
    let (r, mut b) = setup(hero_ss, Figure::base(Kind::Troop), 12.0);
    assert!(rules::single_attack(&r, &mut b, &mut ScriptedDice::new(&[2]), 0, 1, AttackKind::Distance));
    let cm = fig(Kind::Troop, |f| f.traits = Trait::CombatMaster.bit());
    let (r, mut b) = setup(cm, Figure::base(Kind::Troop), 1.0);
    assert!(rules::single_attack(&r, &mut b, &mut ScriptedDice::new(&[3]), 0, 1, AttackKind::HandToHand));
    let hero_cm = fig(Kind::Hero, |f| f.traits = Trait::CombatMaster.bit());
    let (r, mut b) = setup(hero_cm, Figure::base(Kind::Troop), 1.0);
    assert!(
        rules::single_attack(&r, &mut b, &mut ScriptedDice::new(&[1]), 0, 1, AttackKind::HandToHand),
        "1 + 1 (hero) + 2 = 4"
    );
}

#[test]
fn stealth_needs_six_to_hit_at_a_distance_but_not_hand_to_hand() {
    let st = fig(Kind::Troop, |f| f.traits = Trait::Stealth.bit());
    let (r, mut b) = setup(shooter(), st.clone(), 12.0);
    assert!(!rules::single_attack(&r, &mut b, &mut ScriptedDice::new(&[5]), 0, 1, AttackKind::Distance));
    assert!(rules::single_attack(&r, &mut b, &mut ScriptedDice::new(&[6]), 0, 1, AttackKind::Distance));
    let (r, mut b) = setup(Figure::base(Kind::Troop), st, 1.0);
    assert!(rules::single_attack(&r, &mut b, &mut ScriptedDice::new(&[4]), 0, 1, AttackKind::HandToHand));
}

#[test]
fn cause_fear_fails_a_roll_of_two_and_drives_the_attacker_one_move_unit_away() {
    let hero_ss = fig(Kind::Hero, |f| {
        f.distance_attack = true;
        f.traits = Trait::Sharpshooter.bit()
    });
    let fear = fig(Kind::Troop, |f| f.traits = Trait::CauseFear.bit());
    let (r, mut b) = setup(hero_ss, fear, 12.0);
    assert!(!rules::single_attack(&r, &mut b, &mut ScriptedDice::new(&[2]), 0, 1, AttackKind::Distance));
    assert!(b.figs[1].alive);
    assert!((b.figs[0].x + 6.0).abs() < 1e-4, "moved 6\" away: x = {}", b.figs[0].x);
    // A vehicle is not afraid: 2 + 1 (vehicle) + 2 (Sharpshooter) = 5 hits.
    let robot = fig(Kind::Vehicle, |f| {
        f.distance_attack = true;
        f.traits = Trait::Sharpshooter.bit() | Trait::Independent.bit()
    });
    let fear = fig(Kind::Troop, |f| f.traits = Trait::CauseFear.bit());
    let (r, mut b) = setup(robot, fear, 12.0);
    assert!(rules::single_attack(&r, &mut b, &mut ScriptedDice::new(&[2]), 0, 1, AttackKind::Distance));
}

#[test]
fn double_strike_attacks_again_after_a_hit() {
    let ds = fig(Kind::Troop, |f| f.traits = Trait::DoubleStrike.bit());
    let heavy = fig(Kind::Troop, |f| f.armor = Armor::Heavy);
    let (r, mut b) = setup(ds, heavy, 1.0);
    // hit 4, saved 5; second attack hit 6, armor 1: defeated.
    let mut dice = ScriptedDice::new(&[4, 5, 6, 1]);
    rules::hand_to_hand_attack(&r, &mut b, &mut dice, 0);
    assert!(!b.figs[1].alive && dice.exhausted());
}

#[test]
fn area_effect_attack_makes_up_to_three_attacks() {
    let ae = fig(Kind::Troop, |f| {
        f.distance_attack = true;
        f.traits = Trait::AreaEffectAttack.bit()
    });
    let heavy = fig(Kind::Troop, |f| f.armor = Armor::Heavy);
    let (r, mut b) = setup(ae, heavy, 12.0);
    // hit, saved; hit, saved; hit, saved: three attacks and no fourth.
    let mut dice = ScriptedDice::new(&[5, 4, 6, 6, 5, 4]);
    rules::distance_attack(&r, &mut b, &mut dice, 0);
    assert!(b.figs[1].alive && dice.exhausted());
}

#[test]
fn recruit_turns_a_figure_defeated_hand_to_hand_on_five() {
    let rec = fig(Kind::Troop, |f| f.traits = Trait::Recruit.bit());
    let (r, mut b) = setup(rec, Figure::base(Kind::Troop), 1.0);
    let mut dice = ScriptedDice::new(&[4, 5]);
    rules::hand_to_hand_attack(&r, &mut b, &mut dice, 0);
    assert!(b.figs[1].alive && b.figs[1].side == 0 && b.figs[1].ready_round == 2);
    let rec = fig(Kind::Troop, |f| f.traits = Trait::Recruit.bit());
    let (r, mut b) = setup(rec, Figure::base(Kind::Troop), 1.0);
    rules::hand_to_hand_attack(&r, &mut b, &mut ScriptedDice::new(&[4, 4]), 0);
    assert!(!b.figs[1].alive);
}

#[test]
fn revenge_strikes_back_at_the_killer() {
    let rev = fig(Kind::Troop, |f| {
        f.distance_attack = true;
        f.traits = Trait::Revenge.bit()
    });
    let (r, mut b) = setup(shooter(), rev, 12.0);
    let mut dice = ScriptedDice::new(&[5, 6]);
    rules::single_attack(&r, &mut b, &mut dice, 0, 1, AttackKind::Distance);
    assert!(!b.figs[0].alive && !b.figs[1].alive && dice.exhausted());
}

#[test]
fn disable_stops_an_enemy_next_round() {
    let dis = fig(Kind::Troop, |f| f.traits = Trait::Disable.bit());
    let (r, mut b) = setup(dis, Figure::base(Kind::Troop), 10.0);
    rules::disable_or_summon(&r, &mut b, &mut ScriptedDice::new(&[4]), 0);
    assert_eq!(b.figs[1].disabled_round, 2);
    b.round = 2;
    let x = b.figs[1].x;
    rules::move_figure(&r, &mut b, 1);
    assert_eq!(b.figs[1].x, x, "a disabled figure does not move");
}

#[test]
fn summon_brings_the_rearmost_ally_beside_the_summoner() {
    let sm = fig(Kind::Troop, |f| f.traits = Trait::Summon.bit());
    let r = base().with_templates(&[("S".into(), sm), ("T".into(), Figure::base(Kind::Troop))]);
    let mut b = Battle::default();
    b.deploy(&r, 0, 2, 1, 1, 20.0, 2.0);
    b.round = 1;
    b.figs[0].x = 10.0; // the summoner ran ahead
    rules::disable_or_summon(&r, &mut b, &mut ScriptedDice::new(&[5]), 0);
    assert_eq!(b.figs[1].x, 10.0);
}

#[test]
fn support_adds_one_to_the_figure_and_allies_nearby() {
    let sup = fig(Kind::Troop, |f| {
        f.distance_attack = true;
        f.traits = Trait::Support.bit()
    });
    let (r, mut b) = setup(sup, Figure::base(Kind::Troop), 12.0);
    assert!(rules::single_attack(&r, &mut b, &mut ScriptedDice::new(&[4]), 0, 1, AttackKind::Distance));
}

#[test]
fn inspiration_rerolls_the_first_failed_roll_each_round() {
    let insp = fig(Kind::Troop, |f| {
        f.distance_attack = true;
        f.traits = Trait::Inspiration.bit()
    });
    let (r, mut b) = setup(insp, Figure::base(Kind::Troop), 12.0);
    let mut dice = ScriptedDice::new(&[1, 5]);
    assert!(rules::single_attack(&r, &mut b, &mut dice, 0, 1, AttackKind::Distance));
    assert!(dice.exhausted());
    let (r, mut b) = setup(
        fig(Kind::Troop, |f| {
            f.distance_attack = true;
            f.traits = Trait::Inspiration.bit()
        }),
        fig(Kind::Troop, |f| f.armor = Armor::Heavy),
        12.0,
    );
    b.inspiration_used[0] = true;
    assert!(!rules::single_attack(&r, &mut b, &mut ScriptedDice::new(&[1]), 0, 1, AttackKind::Distance));
}

#[test]
fn sniper_shoots_at_24_inches() {
    let sn = fig(Kind::Troop, |f| {
        f.distance_attack = true;
        f.traits = Trait::Sniper.bit()
    });
    let (r, mut b) = setup(sn, Figure::base(Kind::Troop), 20.0);
    let mut dice = ScriptedDice::new(&[5]);
    rules::distance_attack(&r, &mut b, &mut dice, 0);
    assert!(!b.figs[1].alive);
    let (r, mut b) = setup(shooter(), Figure::base(Kind::Troop), 20.0);
    rules::distance_attack(&r, &mut b, &mut ScriptedDice::new(&[]), 0);
    assert!(b.figs[1].alive, "12\" range: no shot");
}

#[test]
fn a_flier_with_a_distance_attack_cannot_be_fought_hand_to_hand() {
    let fl = fig(Kind::Troop, |f| {
        f.distance_attack = true;
        f.traits = Trait::Flight.bit()
    });
    let (r, mut b) = setup(Figure::base(Kind::Troop), fl, 1.0);
    rules::hand_to_hand_attack(&r, &mut b, &mut ScriptedDice::new(&[]), 0);
    assert!(!b.figs[0].acted);
}

#[test]
fn only_independent_vehicles_move_on_their_own() {
    let v = fig(Kind::Vehicle, |_| {});
    let (r, mut b) = setup(v, Figure::base(Kind::Troop), 30.0);
    rules::move_figure(&r, &mut b, 0);
    assert_eq!(b.figs[0].x, 0.0);
    let v = fig(Kind::Vehicle, |f| f.traits = Trait::Independent.bit());
    let (r, mut b) = setup(v, Figure::base(Kind::Troop), 30.0);
    rules::move_figure(&r, &mut b, 0);
    assert_eq!(b.figs[0].x, 12.0);
}

#[test]
fn super_blast_rolls_a_d8_and_knocks_back_on_eight() {
    let sb = fig(Kind::Troop, |f| {
        f.distance_attack = true;
        f.powers[Power::SuperBlast as usize] = 1
    });
    let heavy = fig(Kind::Troop, |f| f.armor = Armor::Heavy);
    let (r, mut b) = setup(sb, heavy, 12.0);
    // d8 rolls 8 (hit), armor d6 rolls 4 (saved): pushed back 1 × 3".
    let mut dice = ScriptedDice::new(&[4]).with_uniforms(&[u(8, 8)]);
    rules::single_attack(&r, &mut b, &mut dice, 0, 1, AttackKind::Distance);
    assert!(b.figs[1].alive);
    assert!((b.figs[1].x - 15.0).abs() < 1e-4, "x = {}", b.figs[1].x);
}

#[test]
fn super_fight_rolls_a_d10_super_armor_a_d12() {
    let sf = fig(Kind::Troop, |f| f.powers[Power::SuperFight as usize] = 2);
    let sa = fig(Kind::Troop, |f| {
        f.armor = Armor::Light;
        f.powers[Power::SuperArmor as usize] = 3
    });
    let (r, mut b) = setup(sf, sa, 1.0);
    // d10 rolls 10 (hit), d12 armor rolls 7 (≥ 6 saves): knocked back 3 × 3".
    let mut dice = ScriptedDice::new(&[7]).with_uniforms(&[u(10, 10)]);
    rules::single_attack(&r, &mut b, &mut dice, 0, 1, AttackKind::HandToHand);
    assert!(b.figs[1].alive && (b.figs[1].x - 10.0).abs() < 1e-4, "x = {}", b.figs[1].x);
}

#[test]
fn super_move_adds_movement_and_initiative() {
    let sm = fig(Kind::Troop, |f| f.powers[Power::SuperMove as usize] = 2);
    let (r, mut b) = setup(sm, Figure::base(Kind::Troop), 30.0);
    rules::move_figure(&r, &mut b, 0);
    assert_eq!(b.figs[0].x, 12.0, "6\" + one Move Unit");
    // Initiative: A rolls 3 + 2 = 5 against B's 5: tie, re-roll; 1 + 2 = 3 beats 2.
    let mut dice = ScriptedDice::new(&[3, 5, 1, 2]);
    assert_eq!(rules::initiative(&r, &b, &mut dice), 0);
}

fn mook_shooter() -> Figure {
    fig(Kind::Mook, |f| f.distance_attack = true)
}

fn stealth_shooter() -> Figure {
    fig(Kind::Troop, |f| {
        f.distance_attack = true;
        f.traits = Trait::Stealth.bit()
    })
}

/// Sections II.3, IV "Mooks" and V "Stealth": a mook's shot needs 6 − (−1) = 7 on a d6 against
/// a Stealth figure, so it rates 0 and is never made; in hand to hand it needs 4 + 1 = 5. The
/// default tactic compares the exchange at range (0 − 1/3) with the one in contact
/// (1/3 − 1/2) and charges (issue 15).
#[test]
fn a_mook_that_cannot_hit_a_stealth_figure_charges_instead_of_shooting() {
    let (m, s) = (rules::Profile::from_figure(&mook_shooter()), rules::Profile::from_figure(&stealth_shooter()));
    assert_eq!(rules::p_defeat(&m, &s, AttackKind::Distance), 0.0);
    assert!(rules::prefers_contact(&m, &s));
    assert!(!rules::prefers_contact(&s, &m), "the Stealth figure keeps shooting");
    let (r, mut b) = setup(mook_shooter(), stealth_shooter(), 12.0);
    // In range, yet no shot: no die is rolled and the mook has not acted.
    rules::distance_attack(&r, &mut b, &mut ScriptedDice::new(&[]), 0);
    assert!(!b.figs[0].acted);
    // It moves a full Move Unit toward the Stealth figure, then next round into contact.
    rules::move_figure(&r, &mut b, 0);
    assert!((b.figs[0].x - 6.0).abs() < 1e-4, "x = {}", b.figs[0].x);
    rules::move_figure(&r, &mut b, 0);
    assert!((b.figs[0].x - 11.0).abs() < 1e-4, "into base contact (1\"): x = {}", b.figs[0].x);
    // In contact it fights hand to hand: 5 − 1 = 4 hits, no armor.
    let mut dice = ScriptedDice::new(&[5]);
    rules::distance_attack(&r, &mut b, &mut dice, 0);
    rules::hand_to_hand_attack(&r, &mut b, &mut dice, 0);
    assert!(!b.figs[1].alive && dice.exhausted());
}

/// The same rule keeps an even exchange at range: two plain shooters (1/3 each way at range,
/// 1/2 each way in contact) do not close into base contact. Moving first, one closes to 6"
/// only so that the other's 6" Move cannot take it out of range (rules::wanted_gap).
#[test]
fn shooters_with_an_even_exchange_hold_at_range() {
    let p = rules::Profile::from_figure(&shooter());
    assert!(!rules::prefers_contact(&p, &p));
    let (r, mut b) = setup(shooter(), shooter(), 12.0);
    rules::move_figure(&r, &mut b, 0);
    assert_eq!(b.figs[0].x, 6.0);
    assert_eq!(rules::approach_stop(&r, &p, &p, false), 12.0);
}

/// Section V "Disable": "no farther than a Distance Attack Unit away", the Disabler's own: 24"
/// for a Sniper, 12" otherwise.
#[test]
fn disable_reaches_one_distance_attack_unit_of_the_disabler() {
    let sniper = fig(Kind::Troop, |f| f.traits = Trait::Disable.bit() | Trait::Sniper.bit());
    let (r, mut b) = setup(sniper, Figure::base(Kind::Troop), 20.0);
    rules::disable_or_summon(&r, &mut b, &mut ScriptedDice::new(&[4]), 0);
    assert_eq!(b.figs[1].disabled_round, 2, "20\" is within a Sniper's 24\"");
    let plain = fig(Kind::Troop, |f| f.traits = Trait::Disable.bit());
    let (r, mut b) = setup(plain, Figure::base(Kind::Troop), 20.0);
    rules::disable_or_summon(&r, &mut b, &mut ScriptedDice::new(&[]), 0);
    assert!(!b.figs[0].acted && b.figs[1].disabled_round == 0, "20\" is beyond 12\"");
}

/// Section VII, the Scream Queen's note: "A figure summoned by this figure will not be able to
/// move, attack or perform any other action until the next round"; any other Summon figure's
/// ally "can take actions immediately" (section V "Summon").
#[test]
fn a_scream_queens_summoned_figure_acts_from_the_next_round() {
    for (wait, acts) in [(false, true), (true, false)] {
        let sm = fig(Kind::Troop, |f| {
            f.traits = Trait::Summon.bit();
            f.summoned_wait = wait
        });
        let r = base().with_templates(&[("S".into(), sm), ("T".into(), Figure::base(Kind::Troop))]);
        let mut b = Battle::default();
        b.deploy(&r, 0, 2, 1, 1, 20.0, 2.0);
        b.round = 1;
        // The summoner stands 2" from the enemy; its ally, far behind, is summoned 1" beside
        // it: into base contact with the enemy.
        (b.figs[0].x, b.figs[0].y) = (18.0, 0.0);
        (b.figs[2].x, b.figs[2].y) = (18.0, 2.0);
        let mut dice = ScriptedDice::new(&[5, 4]);
        rules::disable_or_summon(&r, &mut b, &mut dice, 0);
        assert_eq!((b.figs[1].x, b.figs[1].y), (18.0, 1.0));
        rules::hand_to_hand_attack(&r, &mut b, &mut dice, 1);
        assert_eq!(!b.figs[2].alive, acts, "wait = {wait}");
        if !acts {
            b.round = 2;
            rules::hand_to_hand_attack(&r, &mut b, &mut dice, 1);
            assert!(!b.figs[2].alive, "it fights in the next round");
        }
        assert!(dice.exhausted());
    }
}

/// Section V "Inspiration": "once per round, on your turn" (RULINGS.md): an armor roll against
/// an enemy's attack is on the enemy's turn, so it is not rerolled; the side's own failed
/// attack roll is.
#[test]
fn inspiration_does_not_reroll_an_armor_roll_on_the_enemys_turn() {
    let insp = fig(Kind::Troop, |f| {
        f.armor = Armor::Heavy;
        f.distance_attack = true;
        f.traits = Trait::Inspiration.bit()
    });
    let (r, mut b) = setup(shooter(), insp, 12.0);
    // Hit on 5; the armor roll of 1 fails and stands.
    let mut dice = ScriptedDice::new(&[5, 1]);
    assert!(rules::single_attack(&r, &mut b, &mut dice, 0, 1, AttackKind::Distance));
    assert!(!b.figs[1].alive && dice.exhausted() && !b.inspiration_used[1]);
}

/// Section VI "Super-Move": "+2 to Initiative rolls" (Major) counts from a duel's first round:
/// a side with the bonus rolls for it instead of the trials' alternating coin.
#[test]
fn super_move_initiative_counts_in_the_first_round_of_a_duel() {
    let sm = fig(Kind::Troop, |f| {
        f.distance_attack = true;
        f.powers[Power::SuperMove as usize] = 2
    });
    let (r, mut b) = setup(sm, shooter(), 12.0);
    // The coin says B; the roll says A (3 + 2 = 5 against 4), which shoots first: 5 hits.
    let mut dice = ScriptedDice::new(&[3, 4, 5]);
    let out = rules::play(&r, &mut b, &mut dice, 1, 1);
    assert_eq!(out.winner, Some(0));
    assert!(dice.exhausted());
}

/// Section X: figures "cannot ... end movement in the same space as any other figure" (1"
/// bases): a second figure charging the same enemy along the same line takes another spot in
/// base contact round it.
#[test]
fn two_figures_do_not_end_a_move_in_the_same_space() {
    let r = base().with_templates(&[("T".into(), Figure::base(Kind::Troop)), ("U".into(), Figure::base(Kind::Troop))]);
    let mut b = Battle::default();
    b.deploy(&r, 0, 2, 1, 1, 5.0, 2.0);
    b.round = 1;
    (b.figs[0].x, b.figs[0].y) = (1.0, 0.0);
    (b.figs[1].x, b.figs[1].y) = (0.0, 0.0);
    (b.figs[2].x, b.figs[2].y) = (5.0, 0.0);
    rules::move_figure(&r, &mut b, 0);
    rules::move_figure(&r, &mut b, 1);
    assert!((b.dist(0, 2) - 1.0).abs() < 1e-3 && (b.dist(1, 2) - 1.0).abs() < 1e-3, "both in base contact");
    assert!(b.dist(0, 1) >= 1.0 - 1e-3, "not in the same space: {:?}", b.figs);
}
