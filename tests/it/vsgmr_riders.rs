//! VSGMR riders and drivers in the Skirmish (issue 16 item 5; RULINGS.md "VSGMR riders"):
//! constructed positions and scripted dice for each rule of the book's sections II.2
//! ("Moving onto a cavalry or vehicle figure ..."; Cavalry, Vehicle), II.3 "Cover" and III
//! ("whatever it was carrying is dropped right where the figure was taken").

use pointsworth::config::{Overrides, Source};
use pointsworth::dice::ScriptedDice;
use pointsworth::rulesets::vsgmr::Vsgmr;
use pointsworth::rulesets::vsgmr::rules;
use pointsworth::rulesets::vsgmr::rules::figure::{Armor, Figure, Kind, Trait};
use pointsworth::rulesets::vsgmr::skirmish::{Game, Roster, SkirmishConfig};

fn base() -> Vsgmr {
    let src = Source::read(std::path::Path::new("configs/vsgmr.toml")).unwrap();
    Vsgmr::from_source(&src, &Overrides::default()).unwrap()
}

/// A ruleset over the given templates, in order.
fn with(figs: &[Figure]) -> Vsgmr {
    let list: Vec<(String, Figure)> = figs.iter().enumerate().map(|(k, f)| (format!("T{k}"), f.clone())).collect();
    base().with_templates(&list)
}

fn fig(kind: Kind, distance_attack: bool, armor: Armor) -> Figure {
    let mut f = Figure::base(kind);
    f.distance_attack = distance_attack;
    f.armor = armor;
    f
}

fn one(unit: usize) -> Roster {
    Roster { name: format!("one T{unit}"), units: vec![(unit, 1)], rides: vec![] }
}

/// Template `rider` mounted on template `mount`: deployed rider first (figure 0), then its
/// mount (figure 1); the other side's figure is figure 2.
fn mounted(mount: usize, rider: usize) -> Roster {
    Roster { name: "mounted".into(), units: vec![(mount, 1), (rider, 1)], rides: vec![None, Some(0)] }
}

fn open_table(gap: f32) -> SkirmishConfig {
    SkirmishConfig { cover_pieces: 0, gap, ..SkirmishConfig::default() }
}

#[test]
fn sample_armies_field_their_riders_and_drivers_mounted() {
    // Section VII: the Bandits' four horses carry the Gang Leader and the three Bandits, the
    // Helicopter its Pilot, the Skeletal Steed its Rider; the Demon (Independent) carries none.
    let r = base();
    let field = r.field();
    let army = |name: &str| field.samples.iter().find(|s| s.name == name).unwrap();
    let cfg = SkirmishConfig::default();
    for (name, riders) in [("Wild West Bandit Gang", 4), ("Modern Infantry", 1), ("Undead", 1), ("Orcs", 0)] {
        let mut g = Game::new(&field.r, &cfg);
        g.deploy([army(name), army("Orcs")], Vec::new());
        let mounted: Vec<_> = g.b.figs.iter().filter(|f| f.side == 0 && f.riding.is_some()).collect();
        assert_eq!(mounted.len(), riders, "{name}");
        for f in mounted {
            let m = &g.b.figs[f.riding.unwrap()];
            assert!(!field.r.profile(m.unit).kind.is_guy() && m.side == 0);
            assert_eq!((f.x, f.y, f.flying), (m.x, m.y, m.flying), "{name}: the rider stands on its mount");
        }
    }
    let mut g = Game::new(&field.r, &cfg);
    g.deploy([army("Modern Infantry"), army("Orcs")], Vec::new());
    let pilot = g.b.figs.iter().position(|f| f.riding.is_some()).unwrap();
    assert!(g.b.figs[pilot].flying, "the Pilot flies with the Helicopter (section V Flight)");
}

#[test]
fn a_mounted_pair_moves_at_the_mounts_move_and_the_rider_does_not_move_on_its_own() {
    // Section II.2: a cavalry figure moves 9" if it has a rider; the rider moves along with it
    // and not on its own. A horse ridden by a troop, 30" from an enemy troop; A goes first (6 v
    // 1) and closes 9" (the shared tactic: both fight hand to hand, the first mover charges).
    // Old code: the horse stayed put and the rider walked 6" on foot.
    let r = with(&[fig(Kind::Cavalry, false, Armor::None), fig(Kind::Troop, false, Armor::None)]);
    let cfg = open_table(30.0);
    let mut g = Game::new(&r, &cfg);
    g.deploy([&mounted(0, 1), &one(1)], Vec::new());
    let y0 = g.b.figs[1].y;
    g.b.round = 1;
    g.play_round(&mut ScriptedDice::new(&[6, 1]));
    assert!((g.b.figs[1].y - (y0 + 9.0)).abs() < 1e-3, "the horse moved its 9\": {}", g.b.figs[1].y - y0);
    assert_eq!((g.b.figs[0].x, g.b.figs[0].y), (g.b.figs[1].x, g.b.figs[1].y), "the rider rode along");
    assert_eq!(g.b.figs[0].riding, Some(1));
}

#[test]
fn a_helicopter_with_its_pilot_flies_to_its_range_and_shoots_while_the_pilot_does_not() {
    // Sections II.2 (Vehicle: moves 12" with a driver or pilot) and II.3: the Modern
    // Infantry's Helicopter (heavy armor, distance attack, automatic fire, Flight) with its
    // Pilot, 24" from an enemy shooter. A goes first (6 v 1): the helicopter closes 12" to its
    // Distance Attack Unit; the enemy shooter (moving second, outranged by none) holds at 12".
    // Distance attacks: the helicopter rolls two dice (4, 5: keeps 5, +1 vehicle = 6 ≥ 5) and
    // defeats the unarmored shooter; the pilot makes no attack of its own (no die left).
    // Old code: the helicopter never moved nor shot.
    let mut heli = fig(Kind::Vehicle, true, Armor::Heavy);
    heli.automatic_fire = true;
    heli.traits = Trait::Flight.bit();
    let mut pilot = fig(Kind::Troop, true, Armor::Light);
    pilot.automatic_fire = true;
    let r = with(&[heli, pilot, fig(Kind::Troop, true, Armor::None)]);
    let cfg = open_table(24.0);
    let mut g = Game::new(&r, &cfg);
    g.deploy([&mounted(0, 1), &one(2)], Vec::new());
    let y0 = g.b.figs[1].y;
    let mut dice = ScriptedDice::new(&[6, 1, 4, 5]);
    g.b.round = 1;
    g.play_round(&mut dice);
    assert!(dice.exhausted());
    assert!((g.b.figs[1].y - (y0 + 12.0)).abs() < 1e-3, "the helicopter moved 12\"");
    assert_eq!(g.b.figs[0].y, g.b.figs[1].y, "the pilot flew along");
    assert!(!g.b.figs[2].alive, "the helicopter shot the enemy");
}

#[test]
fn a_mount_attacks_only_with_its_rider_aboard_and_the_rider_not_while_mounted() {
    // Section II.2 ("The rider ... will not move or attack on its own while controlling a
    // cavalry") and Cavalry ("can move if it has a rider. Otherwise it cannot move at all"), V
    // "Independent" (a figure without it needs a rider to move and attack). A ridden horse in
    // base contact with an enemy troop: the horse attacks (4: hit, no armor: defeated).
    let r = with(&[fig(Kind::Cavalry, false, Armor::None), fig(Kind::Troop, false, Armor::None)]);
    let cfg = open_table(1.0);
    let mut g = Game::new(&r, &cfg);
    g.deploy([&mounted(0, 1), &one(1)], Vec::new());
    g.b.round = 1;
    let mut dice = ScriptedDice::new(&[]);
    rules::hand_to_hand_attack(&r, &mut g.b, &mut dice, 0);
    assert!(g.b.figs[2].alive && !g.b.figs[0].acted, "the mounted rider does not attack on its own");
    let mut dice = ScriptedDice::new(&[4]);
    rules::hand_to_hand_attack(&r, &mut g.b, &mut dice, 1);
    assert!(dice.exhausted() && !g.b.figs[2].alive, "the ridden horse attacks");
    // Without its rider the horse neither attacks nor moves.
    g.deploy([&mounted(0, 1), &one(1)], Vec::new());
    g.b.figs[0].alive = false;
    g.b.round = 1;
    let mut dice = ScriptedDice::new(&[]);
    rules::hand_to_hand_attack(&r, &mut g.b, &mut dice, 1);
    let at = (g.b.figs[1].x, g.b.figs[1].y);
    rules::move_figure(&r, &mut g.b, 1);
    assert!(g.b.figs[2].alive && at == (g.b.figs[1].x, g.b.figs[1].y), "a riderless horse is inert");
}

#[test]
fn a_mounted_rider_is_covered() {
    // Section II.3 "Cover": "A cavalry rider ... is considered to be covered as long as it is
    // on its mount": a distance attack at it needs 6. A troop with a distance attack 12" from a
    // troop riding a tough, heavily armored horse (the rider is the likelier kill, 1/6 v 1/9)
    // rolls 5: a miss (old code: a hit and a defeat); then 6: the rider is defeated.
    let mut horse = fig(Kind::Cavalry, false, Armor::Heavy);
    horse.traits = Trait::Tough.bit();
    let r = with(&[horse, fig(Kind::Troop, false, Armor::None), fig(Kind::Troop, true, Armor::None)]);
    let cfg = open_table(12.0);
    let mut g = Game::new(&r, &cfg);
    g.deploy([&mounted(0, 1), &one(2)], Vec::new());
    g.b.round = 1;
    assert!(g.b.in_cover(2, 0) && !g.b.in_cover(2, 1), "the rider is covered, its horse is not");
    let mut dice = ScriptedDice::new(&[5]);
    rules::distance_attack(&r, &mut g.b, &mut dice, 2);
    assert!(dice.exhausted() && g.b.figs[0].alive, "5 misses a covered rider");
    g.b.figs[2].acted = false;
    let mut dice = ScriptedDice::new(&[6]);
    rules::distance_attack(&r, &mut g.b, &mut dice, 2);
    assert!(dice.exhausted() && !g.b.figs[0].alive && g.b.figs[1].alive, "6 defeats it");
}

#[test]
fn a_rider_whose_mount_is_destroyed_is_placed_where_it_stood_and_fights_on_foot() {
    // Section III: "If the figure was carrying a rider ..., whatever it was carrying is
    // dropped right where the figure was taken from the playing surface. The rider ... can
    // move like any other guy figure from that point on." A shooter 12" from a horse (light
    // armor) ridden by a troop: the horse is the likelier kill (5/18 v 1/6); 5 hits, armor 1
    // fails. The rider stands where the horse stood, on foot, no longer covered, and walks
    // 6" at the shooter the next round (A moves first: 6 v 1).
    let r = with(&[
        fig(Kind::Cavalry, false, Armor::None),
        fig(Kind::Troop, false, Armor::None),
        fig(Kind::Troop, true, Armor::None),
    ]);
    let cfg = open_table(12.0);
    let mut g = Game::new(&r, &cfg);
    g.deploy([&mounted(0, 1), &one(2)], Vec::new());
    g.b.round = 1;
    let mut dice = ScriptedDice::new(&[5, 1]);
    rules::distance_attack(&r, &mut g.b, &mut dice, 2);
    assert!(dice.exhausted() && !g.b.figs[1].alive, "the horse is defeated");
    let (p, h) = (g.b.figs[0], g.b.figs[1]);
    assert!(p.alive && p.riding.is_none() && (p.x, p.y) == (h.x, h.y), "the rider is dropped where it stood");
    assert!(!g.b.in_cover(2, 0), "on foot it is no longer covered");
    g.b.round = 2;
    rules::move_figure(&r, &mut g.b, 0);
    assert!((g.b.figs[0].y - (p.y + 6.0)).abs() < 1e-3, "it moves like any guy");
}

#[test]
fn a_rider_steps_off_when_its_fight_on_foot_beats_its_mounts() {
    // Section II.2: "A guy can simply move away from a cavalry or vehicle figure to return to
    // moving and attacking like a guy figure." A hero with a distance attack on a horse, 12"
    // from an enemy troop that fights hand to hand. On foot it shoots at no risk (exchange
    // 1/2 − 0); the horse would fight in base contact (1/2 − 5/12 = 1/12). So,
    // A moving first (6 v 1), the hero steps off 1" aside and holds beyond the troop's charge
    // reach; the riderless horse stays. The troop closes 6" and the hero shoots (roll 1: miss).
    // A troop on the same horse (its fight on foot no better than the horse's) rides on.
    let hero = fig(Kind::Hero, true, Armor::None);
    let r = with(&[fig(Kind::Cavalry, false, Armor::None), hero, fig(Kind::Troop, false, Armor::None)]);
    let cfg = open_table(12.0);
    let mut g = Game::new(&r, &cfg);
    g.deploy([&mounted(0, 1), &one(2)], Vec::new());
    let horse = (g.b.figs[1].x, g.b.figs[1].y);
    let mut dice = ScriptedDice::new(&[6, 1, 1]);
    g.b.round = 1;
    g.play_round(&mut dice);
    assert!(dice.exhausted(), "the hero shot on foot");
    let rider = g.b.figs[0];
    assert!(rider.riding.is_none() && !g.b.in_cover(2, 0), "it stepped off");
    assert_eq!((g.b.figs[1].x, g.b.figs[1].y), horse, "the riderless horse stays");
    assert!((g.b.dist(0, 1) - 1.0).abs() < 1e-3 && rider.y == horse.1, "1\" aside, not in the horse's space");
    // A troop rider rides on (it would close into base contact on the 9" horse).
    let r = with(&[fig(Kind::Cavalry, false, Armor::None), fig(Kind::Troop, false, Armor::None)]);
    let mut g = Game::new(&r, &cfg);
    g.deploy([&mounted(0, 1), &one(1)], Vec::new());
    g.b.round = 1;
    assert!(!rules::dismounts(&r, &g.b, 0, 1));
}

#[test]
fn a_frightened_mount_carries_its_rider_away() {
    // Section V "Cause Fear": an attack rolling 1 or 2 fails and the attacker moves 1 Move
    // Unit (cavalry: 9") away; section II.2: the rider moves along with its mount. A ridden
    // horse in base contact with a Cause Fear troop attacks and rolls 1.
    let mut fearsome = fig(Kind::Troop, false, Armor::None);
    fearsome.traits = Trait::CauseFear.bit();
    let r = with(&[fig(Kind::Cavalry, false, Armor::None), fig(Kind::Troop, false, Armor::None), fearsome]);
    let cfg = open_table(1.0);
    let mut g = Game::new(&r, &cfg);
    g.deploy([&mounted(0, 1), &one(2)], Vec::new());
    g.b.round = 1;
    let y0 = g.b.figs[1].y;
    let mut dice = ScriptedDice::new(&[1]);
    rules::hand_to_hand_attack(&r, &mut g.b, &mut dice, 1);
    assert!(dice.exhausted() && (g.b.figs[1].y - (y0 - 9.0)).abs() < 1e-3, "the horse fled 9\"");
    let (p, h) = (g.b.figs[0], g.b.figs[1]);
    assert!(p.riding == Some(1) && (p.x, p.y) == (h.x, h.y), "its rider went with it");
}
