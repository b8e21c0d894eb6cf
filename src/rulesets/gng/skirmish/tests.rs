//! The skirmish's rule readings and tactic steps, one test each on a scripted table, plus
//! the properties of random armies and the thread-count independence of the tallies.

use super::objective::{CONTEST_RADIUS, OCCUPY_RADIUS};
use super::*;
use crate::battle::Wall;
use crate::dice::{FastDice, ScriptedDice};
use crate::rulesets::gng::skirmish::army::{Army, limited_cap, random_army};
use crate::rulesets::gng::tactics::{Pick, by_name, pick};
use crate::rulesets::gng::testing::{gng, unit};

/// A game on an empty table with a wall from (10, 18) to (16, 18).
fn game<'a>(r: &'a GunsNGrenades) -> Skirmish<'a> {
    let mut g = Skirmish::new(r, &r.skirmish);
    g.table.walls.push(Wall { a: Pos::new(10.0, 18.0), b: Pos::new(16.0, 18.0), intact: true });
    g
}

#[test]
fn cover_adds_three_def_only_against_attacks_across_it() {
    let r = gng(&[]);
    let rifle = unit(&r, "Riflemen");
    let mut g = game(&r);
    let a = g.place(0, rifle, Pos::new(13.0, 24.0));
    let t = g.place(1, rifle, Pos::new(13.0, 18.75));
    g.st[1][t].cover = Some(0);
    assert_eq!(g.def_mod(1, t, g.pos(0, a)), 0, "the wall is behind the target: no cover");
    assert_eq!(g.def_mod(1, t, Pos::new(13.0, 12.0)), 3, "the wall is between: cover");
    let t2 = g.place(1, rifle, Pos::new(13.0, 17.25));
    g.st[1][t2].cover = Some(0);
    let from = Pos::new(13.0, 24.0);
    assert_eq!(g.def_mod(1, t2, from), 3);
    // Riflemen ATK 3 roll 6 (9) vs DEF 2 + 3 cover roll 4 (9): tie, miss.
    let b = g.place(0, rifle, from);
    let mut d = ScriptedDice::new(&[6, 4]);
    g.attack(0, b, t2, Special::None, &mut d);
    assert_eq!(g.bt.sides[1][t2].damage, 0);
    assert!(d.exhausted());
    // Destroyed cover gives nothing.
    g.table.walls[0].intact = false;
    assert_eq!(g.def_mod(1, t2, from), 0);
}

#[test]
fn a_cover_piece_shelters_at_most_two_units() {
    let r = gng(&[]);
    let rifle = unit(&r, "Riflemen");
    let mut g = game(&r);
    g.place(1, rifle, Pos::new(13.0, 30.0));
    let spots = g.free_spots(0);
    assert_eq!(spots.len(), 2, "two spots on the side away from the enemy");
    assert!(spots.iter().all(|(w, p)| *w == 0 && p.y < 18.0));
    let mut d = ScriptedDice::new(&[]);
    for (k, (w, p)) in spots.into_iter().enumerate() {
        let i = g.place(0, rifle, Pos::new(p.x, 10.0));
        g.move_unit(0, i, p, 10.0, Some(w), &mut d);
        assert_eq!(g.st[0][i].cover, Some(0), "unit {k} takes cover");
    }
    assert!(g.free_spots(0).is_empty() && g.free_spots(1).is_empty(), "the piece is full for both sides");
    // Moving out frees a spot.
    g.move_unit(0, 0, Pos::new(30.0, 10.0), 6.0, None, &mut d);
    assert_eq!(g.free_spots(0).len(), 1);
}

#[test]
fn hunker_adds_two_def_until_the_unit_moves() {
    let r = gng(&[]);
    let rifle = unit(&r, "Riflemen");
    let mut g = game(&r);
    g.place(0, rifle, Pos::new(40.0, 5.0));
    let t = g.place(1, rifle, Pos::new(40.0, 30.0));
    g.st[1][t].hunker = true;
    assert_eq!(g.def_mod(1, t, Pos::new(40.0, 5.0)), 2);
    let mut d = ScriptedDice::new(&[]);
    g.move_unit(1, t, Pos::new(40.0, 20.0), 6.0, None, &mut d);
    assert!(!g.st[1][t].hunker);
    assert_eq!(g.def_mod(1, t, Pos::new(40.0, 5.0)), 0);
}

#[test]
fn a_unit_with_nothing_to_attack_and_nowhere_to_go_hunkers() {
    let r = gng(&[]);
    let (mortar, rifle) = (unit(&r, "Mortar"), unit(&r, "Riflemen"));
    let mut g = game(&r);
    // Cautious tactic, enemy far away: the unit in cover hunkers instead of advancing.
    g.tactic = [cautious(); 2];
    let m = g.place(0, mortar, Pos::new(13.0, 17.25));
    g.st[0][m].cover = Some(0);
    g.place(1, rifle, Pos::new(50.0, 35.0));
    let mut d = ScriptedDice::new(&[]);
    g.take_turn(0, &mut d);
    assert!(g.st[0][m].hunker);
    assert_eq!(g.pos(0, m), Pos::new(13.0, 17.25));
}

#[test]
fn each_side_plays_its_own_tactic() {
    // The position of the test above, side A's turn: A's tactic decides, not B's.
    let r = gng(&[]);
    let (mortar, rifle) = (unit(&r, "Mortar"), unit(&r, "Riflemen"));
    let start = Pos::new(13.0, 17.25);
    let turn = |tactic: [Pick; 2]| {
        let mut g = game(&r);
        g.tactic = tactic;
        let m = g.place(0, mortar, start);
        g.st[0][m].cover = Some(0);
        g.place(1, rifle, Pos::new(50.0, 35.0));
        g.take_turn(0, &mut ScriptedDice::new(&[]));
        (g.st[0][m].hunker, g.pos(0, m))
    };
    // A cautious, B the default: A hunkers where it stands.
    assert_eq!(turn([cautious(), pick(0)]), (true, start));
    // A the default, B cautious: A walks on towards the enemy and does not hunker.
    let (hunker, at) = turn([pick(0), cautious()]);
    assert!(!hunker && at != start, "the default tactic walks on: {at:?}");
}

#[test]
fn hold_stays_in_cover_where_cautious_and_the_default_close_in() {
    // Riflemen (range 8.5", rush 10") in cover, an enemy Riflemen 18" away: within its range
    // plus its rush plus 2" (20.5"), so `cautious` stops waiting and the default never waits;
    // both rush towards it. `hold` hunkers where it stands.
    let r = gng(&[]);
    let rifle = unit(&r, "Riflemen");
    let start = Pos::new(13.0, 17.25);
    let turn = |tactic: Pick| {
        let mut g = game(&r);
        g.tactic = [tactic; 2];
        let a = g.place(0, rifle, start);
        g.st[0][a].cover = Some(0);
        g.place(1, rifle, Pos::new(13.0, 35.25));
        g.take_turn(0, &mut ScriptedDice::new(&[]));
        (g.st[0][a].hunker, g.pos(0, a))
    };
    assert_eq!(turn(hold()), (true, start));
    for other in [pick(0), cautious()] {
        let (hunker, at) = turn(other);
        assert!(!hunker && at.dist(Pos::new(13.0, 35.25)) < 18.0 - 5.0, "{}: rushes on to {at:?}", other.name());
    }
}

#[test]
fn attack_if_stronger_holds_unless_its_living_units_are_worth_more_than_the_enemys() {
    // The position above (Riflemen in cover, an enemy Riflemen 18" away, where `hold`
    // hunkers and the default rushes on), with a second unit a side far off. One Riflemen a
    // side: level, `attack-if-stronger` holds. A second Riflemen of A's: stronger, it rushes
    // on. A second of B's as well: level again, it holds; that one damaged (2 of its 3 life
    // stages left): A is stronger again and rushes on.
    let r = gng(&[]);
    let rifle = unit(&r, "Riflemen");
    let start = Pos::new(13.0, 17.25);
    let turn = |second_a: bool, second_b: Option<u8>| {
        let mut g = game(&r);
        g.tactic = [by_name("attack-if-stronger").expect("listed"); 2];
        let a = g.place(0, rifle, start);
        g.st[0][a].cover = Some(0);
        g.place(1, rifle, Pos::new(13.0, 35.25));
        if second_a {
            g.place(0, rifle, Pos::new(45.0, 1.0));
        }
        if let Some(damage) = second_b {
            let b = g.place(1, rifle, Pos::new(45.0, 35.0));
            g.bt.sides[1][b].damage = damage;
        }
        g.take_turn(0, &mut ScriptedDice::new(&[]));
        (g.st[0][a].hunker, g.pos(0, a))
    };
    assert_eq!(turn(false, None), (true, start), "level: holds");
    assert_eq!(turn(true, Some(0)), (true, start), "level again: holds");
    for (second_b, case) in [(None, "stronger"), (Some(1), "the enemy's second damaged")] {
        let (hunker, at) = turn(true, second_b);
        assert!(!hunker && at.dist(Pos::new(13.0, 35.25)) < 18.0 - 5.0, "{case}: rushes on to {at:?}");
    }
}

#[test]
fn hold_attacks_what_comes_into_range_from_where_it_stands() {
    // The same Riflemen, the enemy 8" away (in its 8.5" range): `hold` fires without moving.
    // ATK 3 + 6 = 9 against DEF 2 + 1 = 3: a hit.
    let r = gng(&[]);
    let rifle = unit(&r, "Riflemen");
    let start = Pos::new(13.0, 17.25);
    let mut g = game(&r);
    g.tactic = [hold(); 2];
    let a = g.place(0, rifle, start);
    g.st[0][a].cover = Some(0);
    let e = g.place(1, rifle, Pos::new(13.0, 25.25));
    let mut d = ScriptedDice::new(&[6, 1]);
    g.take_turn(0, &mut d);
    assert!(d.exhausted(), "it attacks");
    assert_eq!(g.pos(0, a), start, "from where it stands");
    assert!(g.bt.sides[1][e].damage > 0);
    assert!(!g.st[0][a].hunker);
}

#[test]
fn a_waiting_unit_with_bayonets_fires_from_where_it_stands_instead_of_charging() {
    // The position of `bayonets_close_to_one_and_a_half_inches_when_the_attack_is_worth_more`
    // (the default charges): a waiting unit (`hold`) does not charge. It fires from 7" (ATK 3
    // against DEF 2). (`cautious` does not wait with an enemy this near.)
    let r = gng(&[]);
    let rifle = unit(&r, "Riflemen");
    let mut g = game(&r);
    g.tactic = [hold(); 2];
    g.upgrade[0] = UpgradeRule::from_name("Bayonets");
    let a = g.place(0, rifle, Pos::new(40.0, 5.0));
    g.place(1, rifle, Pos::new(40.0, 12.0));
    let mut d = ScriptedDice::new(&[1, 6]);
    g.take_turn(0, &mut d);
    assert!(d.exhausted(), "it attacks");
    assert_eq!(g.pos(0, a), Pos::new(40.0, 5.0), "no charge");
}

#[test]
fn anti_armor_destroys_cover_with_two_enemies_behind_it_and_ends_the_sides_attacks() {
    let r = gng(&[]);
    let (gren, rifle, light) = (unit(&r, "Grenadier"), unit(&r, "Riflemen"), unit(&r, "Light Infantry"));
    let mut g = game(&r);
    let gr = g.place(0, gren, Pos::new(13.0, 12.0));
    let other = g.place(0, rifle, Pos::new(20.0, 12.0));
    let t1 = g.place(1, light, Pos::new(11.5, 18.75));
    let t2 = g.place(1, rifle, Pos::new(14.5, 18.75));
    let far = g.place(1, light, Pos::new(22.0, 18.0));
    g.st[1][t1].cover = Some(0);
    g.st[1][t2].cover = Some(0);
    let _ = far;
    // The rifleman attacks first (1 vs 6: miss), then the grenadier destroys the cover.
    let mut d = ScriptedDice::new(&[1, 6]);
    g.take_turn(0, &mut d);
    assert!(d.exhausted(), "the grenadier rolled nothing");
    assert!(!g.table.walls[0].intact);
    assert_eq!(g.bt.sides[1][t1].damage, 1, "Light Infantry takes 1 damage");
    assert_eq!(g.bt.sides[1][t2].damage, 1, "Tough Riflemen: the hit is absorbed (1 of 4)");
    assert!(g.st[1][t1].cover.is_none() && g.st[1][t2].cover.is_none());
    assert!(g.bt.sides[0][gr].activated && g.bt.sides[0][other].activated);
}

#[test]
fn blast_catches_friend_and_foe_and_respects_hunker() {
    let r = gng(&[]);
    let (mortar, light) = (unit(&r, "Mortar"), unit(&r, "Light Infantry"));
    let mut g = game(&r);
    let m = g.place(0, mortar, Pos::new(40.0, 5.0));
    let t = g.place(1, light, Pos::new(40.0, 15.0));
    let n = g.place(1, light, Pos::new(41.5, 15.0));
    g.st[1][n].hunker = true;
    // Mortar 6 + 3 = 9 vs 1 + 1 = 2: hit (2 damage). Neighbour rolls 5 + 1 + 2 = 8 < 9: hit.
    let mut d = ScriptedDice::new(&[3, 1, 5]);
    g.attack(0, m, t, Special::None, &mut d);
    assert_eq!(g.bt.sides[1][t].damage, 2);
    assert_eq!(g.bt.sides[1][n].damage, 2);
    // Hunkered neighbour rolling 6: 6 + 1 + 2 = 9, not lower than 9: spared.
    let mut g = game(&r);
    let m = g.place(0, mortar, Pos::new(40.0, 5.0));
    let t = g.place(1, light, Pos::new(40.0, 15.0));
    let n = g.place(1, light, Pos::new(41.5, 15.0));
    g.st[1][n].hunker = true;
    let mut d = ScriptedDice::new(&[3, 1, 6]);
    g.attack(0, m, t, Special::None, &mut d);
    assert_eq!(g.bt.sides[1][n].damage, 0);
}

#[test]
fn reserves_enter_three_a_turn_in_the_own_zone() {
    let r = gng(&[]);
    let light = unit(&r, "Light Infantry");
    let mut g = game(&r);
    g.reserves[0] = vec![light; 7];
    g.place(1, light, Pos::new(30.0, 35.0));
    let mut d = FastDice::from_seed(1);
    g.deploy_reserves(0, &mut d);
    assert_eq!(g.bt.sides[0].len(), 3);
    assert_eq!(g.reserves[0].len(), 4);
    for f in &g.bt.sides[0] {
        assert!(f.y <= 12.0, "within 12\" of the own edge");
    }
    g.deploy_reserves(0, &mut d);
    g.deploy_reserves(0, &mut d);
    assert_eq!(g.bt.sides[0].len(), 7);
    assert!(!g.beaten(0));
}

#[test]
fn set_up_deploys_eight_and_holds_the_rest_in_reserve() {
    let r = gng(&[]);
    let light = unit(&r, "Light Infantry");
    let army = Army { units: vec![light; 20], upgrade: None };
    let mut g = Skirmish::new(&r, &r.skirmish);
    g.set_up([&army, &army], [pick(0); 2], &mut FastDice::from_seed(3));
    for s in 0..2 {
        assert_eq!(g.bt.sides[s].len(), 8);
        assert_eq!(g.reserves[s].len(), 12);
    }
    assert_eq!(g.table.walls.len(), 5);
}

/// Sets up two copies of `army` on a table without cover, with scripted dice: a uniform draw
/// for each deployed non-scout, then `roll_off` for the Scouts.
fn scripted_set_up<'a>(r: &'a GunsNGrenades, army: &Army, roll_off: &[u8]) -> Skirmish<'a> {
    let mut g = Skirmish::new(r, &r.skirmish);
    let front = 2 * army.units.iter().filter(|&&u| !r.profiles[u].tags.scout).count();
    let mut d = ScriptedDice::new(roll_off).with_uniforms(&vec![0.5; front]);
    g.set_up([army, army], [pick(0); 2], &mut d);
    assert!(d.exhausted(), "the roll-off is the only dice roll of the set-up");
    g
}

#[test]
fn quick_reference_scouts_deploy_last_at_least_12_inches_from_enemies() {
    // Quick Reference, "Tags": Scout deploys after all non-scouts, at least 12" from enemies;
    // "if both players have scout units, roll-off to see who places their units first". The
    // winner's Scouts go ahead of its zone; the loser's must then keep 12" from them.
    let r = gng(&["rules.stat_source=quick_reference", "skirmish.cover_pieces=0"]);
    let (scouts, rifle) = (unit(&r, "Scouts"), unit(&r, "Riflemen"));
    let army = Army { units: vec![rifle, rifle, rifle, scouts, scouts], upgrade: None };
    // Roll-offs won by side 0 (6 against 1) and by side 1 (a tie re-rolled, then 2 against 5).
    for (roll_off, winner) in [(&[6, 1][..], 0), (&[3, 3, 2, 5][..], 1)] {
        let g = scripted_set_up(&r, &army, roll_off);
        let mut forward = [false; 2];
        for s in 0..2 {
            let scout_pos: Vec<Pos> =
                g.bt.sides[s].iter().filter(|f| f.unit as usize == scouts).map(|f| Pos::new(f.x, f.y)).collect();
            assert_eq!(scout_pos.len(), 2);
            for p in scout_pos {
                for e in &g.bt.sides[1 - s] {
                    assert!(p.dist(Pos::new(e.x, e.y)) >= 12.0 - 1e-3, "scout at {p:?} too close");
                }
                forward[s] |= if s == 0 { p.y > 12.0 } else { p.y < g.table.depth - 12.0 };
            }
        }
        assert!(forward[winner], "the roll-off winner's scouts are ahead of its zone ({roll_off:?})");
        assert!(!forward[1 - winner], "the loser's scouts are pushed back into its zone ({roll_off:?})");
    }
}

#[test]
fn medics_walk_to_the_most_valuable_wounded_unit_and_heal_it() {
    let r = gng(&[]);
    let (medic, heavy, light) = (unit(&r, "Medics"), unit(&r, "Heavy Infantry"), unit(&r, "Light Infantry"));
    let mut g = game(&r);
    let m = g.place(0, medic, Pos::new(40.0, 5.0));
    let h = g.place(0, heavy, Pos::new(40.0, 12.0));
    let l = g.place(0, light, Pos::new(44.0, 5.0));
    g.bt.sides[0][h].damage = 1;
    g.bt.sides[0][l].damage = 1;
    g.place(1, light, Pos::new(10.0, 35.0));
    let mut heals = u32::MAX;
    let mut may = true;
    // Both within walk + 3": the Heavy Infantry (20 pts) is worth more than the Light (10).
    g.activate(0, m, &mut heals, &mut may, &mut ScriptedDice::new(&[]));
    assert_eq!(g.bt.sides[0][h].damage, 0);
    assert_eq!(g.bt.sides[0][l].damage, 1);
    assert!(g.pos(0, m).dist(g.pos(0, h)) <= 3.0 + 1e-3);
}

#[test]
fn limited_and_points_hold_for_thousands_of_random_armies() {
    let r = gng(&[]);
    let mut d = FastDice::from_seed(99);
    let mut upgrades = 0;
    for _ in 0..5000 {
        let a = random_army(&r, 350.0, 0.5, &mut d);
        assert!(a.problems(&r, 350.0).is_empty(), "{}", a.describe(&r));
        assert!(a.cost(&r) >= 0.95 * 350.0, "{}", a.describe(&r));
        let limited = a.units.iter().filter(|&&u| r.profiles[u].tags.limited).count() as u32;
        assert!(limited <= limited_cap(350.0));
        upgrades += a.upgrade.is_some() as u32;
    }
    assert_eq!(limited_cap(350.0), 6);
    // Every first draw is kept: a draw stops only when no unit fits, so it leaves less than the
    // cheapest unit without Limited unspent, under the 5% that would force a redraw. So each
    // army takes an upgrade with exactly the 0.5 asked for (every upgrade fits 350 points):
    // the count is Binomial(5000, 0.5), here held to 4 standard errors (35.4 each).
    let cheapest = r.profiles.iter().filter(|p| !p.tags.limited).map(|p| p.cost).fold(f64::MAX, f64::min);
    assert!(cheapest < 0.05 * 350.0 && r.upgrades.iter().all(|u| u.cost <= 350.0));
    let (mean, sd) = (5000.0 * 0.5, (5000.0f64 * 0.5 * 0.5).sqrt());
    assert!(
        (upgrades as f64 - mean).abs() <= 4.0 * sd,
        "half take an upgrade: {upgrades}, expected {mean} ± {}",
        4.0 * sd
    );
}

#[test]
fn upgrades_change_range_atk_and_def() {
    let r = gng(&[]);
    let (rifle, snipers, light, tank) =
        (unit(&r, "Riflemen"), unit(&r, "Snipers"), unit(&r, "Light Infantry"), unit(&r, "Tank"));
    let mut g = game(&r);
    g.upgrade[0] = UpgradeRule::from_name("Optical Sights");
    assert_eq!(g.range_of(0, rifle), 10.5);
    assert_eq!(g.range_of(0, tank), 9.0, "infantry only");
    g.upgrade[0] = UpgradeRule::from_name("Enhanced Rifling");
    assert_eq!(g.range_of(0, snipers), 13.0);
    assert_eq!(g.range_of(0, rifle), 8.5);
    let a = g.place(0, rifle, Pos::new(40.0, 10.0));
    let lt = g.place(1, unit(&r, "Scouts"), Pos::new(40.0, 11.0));
    let rt = g.place(1, rifle, Pos::new(40.0, 15.0));
    let li = g.place(1, light, Pos::new(39.0, 11.0));
    g.upgrade[0] = UpgradeRule::from_name("Hollow Point Rounds");
    assert_eq!(g.atk_mod(0, a, li), 0, "Light Infantry has no Light tag");
    assert_eq!(g.atk_mod(0, a, lt), 2, "+2 ATK against Light targets");
    assert_eq!(g.atk_mod(0, a, rt), 0);
    g.upgrade[0] = UpgradeRule::from_name("Bayonets");
    assert_eq!(g.atk_mod(0, a, lt), 1, "+1 ATK within 1.5\"");
    assert_eq!(g.atk_mod(0, a, rt), 0);
    g.upgrade[1] = UpgradeRule::from_name("Body Armor");
    assert_eq!(g.def_mod(1, rt, g.pos(0, a)), 1);
    assert_eq!(g.def_mod(1, li, g.pos(0, a)), 1, "Light Infantry is not Light-tagged");
    assert_eq!(g.def_mod(1, lt, g.pos(0, a)), 0, "Scouts are Light: no Body Armor");
    for u in &r.upgrades {
        assert!(UpgradeRule::from_name(&u.name).is_some(), "{} has a rule", u.name);
    }
}

#[test]
fn grenade_launchers_throw_a_two_inch_blast_once_per_round() {
    let r = gng(&[]);
    let (rifle, light) = (unit(&r, "Riflemen"), unit(&r, "Light Infantry"));
    let mut g = game(&r);
    g.upgrade[0] = UpgradeRule::from_name("Grenade Launchers");
    let a = g.place(0, rifle, Pos::new(40.0, 5.0));
    let t = g.place(1, light, Pos::new(40.0, 12.0));
    let n = g.place(1, light, Pos::new(41.5, 12.0));
    // Riflemen 3 + 3 = 6 vs 1 + 1 = 2: hit; the neighbour 1 + 1 = 2 < 6: hit too.
    let mut d = ScriptedDice::new(&[3, 1, 1]);
    g.fire(0, a, &mut d);
    assert!(d.exhausted());
    assert_eq!((g.bt.sides[1][t].damage, g.bt.sides[1][n].damage), (1, 1));
    // "Once per round", a round being 4 turns back and forth (Glossary): ready again on the
    // side's 2nd turn from now.
    assert_eq!(g.st[0][a].grenade_ready, g.side_turns[0] + 2);
    // Next own turn: no grenade, a plain shot (no blast roll).
    g.side_turns[0] += 1;
    let mut d = ScriptedDice::new(&[3, 1]);
    g.fire(0, a, &mut d);
    assert!(d.exhausted());
    assert_eq!(g.bt.sides[1][n].damage, 1, "the neighbour is not caught by a plain shot");
    // The own turn after: a grenade again (target and neighbour roll their blast dice).
    g.side_turns[0] += 1;
    let mut d = ScriptedDice::new(&[3, 1, 1]);
    g.fire(0, a, &mut d);
    assert!(d.exhausted());
    assert_eq!(g.bt.sides[1][n].damage, 2, "the neighbour is caught again");
}

#[test]
fn flashbangs_stop_the_caught_units_next_turn_without_damage() {
    let r = gng(&[]);
    let (rifle, light) = (unit(&r, "Riflemen"), unit(&r, "Light Infantry"));
    let mut g = game(&r);
    g.upgrade[0] = UpgradeRule::from_name("Flashbang Grenades");
    let a = g.place(0, rifle, Pos::new(40.0, 5.0));
    let t = g.place(1, light, Pos::new(40.0, 12.0));
    let n = g.place(1, light, Pos::new(42.0, 12.0));
    let mut d = ScriptedDice::new(&[3, 1, 1]);
    g.fire(0, a, &mut d);
    assert!(g.st[1][t].stunned && g.st[1][n].stunned);
    assert_eq!((g.bt.sides[1][t].damage, g.bt.sides[1][n].damage), (0, 0));
    // Side 1's next turn: the stunned units do not activate; afterwards they recover.
    let before = (g.pos(1, t), g.pos(1, n));
    g.take_turn(1, &mut ScriptedDice::new(&[]));
    assert_eq!((g.pos(1, t), g.pos(1, n)), before);
    assert!(!g.st[1][t].stunned && !g.st[1][n].stunned);
}

#[test]
fn dangerous_ground_wounds_on_a_one_and_rough_ground_costs_two_inches() {
    use crate::battle::{Area, AreaKind};
    let r = gng(&[]);
    let rifle = unit(&r, "Light Infantry");
    let mut g = game(&r);
    g.table.areas.push(Area { centre: Pos::new(40.0, 8.0), radius: 1.0, kind: AreaKind::Dangerous });
    g.table.areas.push(Area { centre: Pos::new(50.0, 8.0), radius: 1.0, kind: AreaKind::Rough });
    let a = g.place(0, rifle, Pos::new(40.0, 5.0));
    let b = g.place(0, rifle, Pos::new(50.0, 5.0));
    g.move_unit(0, a, Pos::new(40.0, 20.0), 6.0, None, &mut ScriptedDice::new(&[1]));
    assert_eq!(g.bt.sides[0][a].damage, 1);
    g.move_unit(0, b, Pos::new(50.0, 20.0), 6.0, None, &mut ScriptedDice::new(&[]));
    assert!((g.pos(0, b).y - 9.0).abs() < 1e-4, "6\" − 2\" rough = 4\"");
}

#[test]
fn a_side_with_nothing_left_loses_and_games_end_within_the_cap() {
    let r = gng(&[]);
    let mut d = FastDice::from_seed(5);
    let mut g = Skirmish::new(&r, &r.skirmish);
    let mut wins = 0;
    for _ in 0..40 {
        let (a, b) = (random_army(&r, 350.0, 0.5, &mut d), random_army(&r, 350.0, 0.5, &mut d));
        g.set_up([&a, &b], [pick(0); 2], &mut d);
        let out = g.play(&mut d);
        assert!(out.turns <= r.skirmish.max_turns);
        if let Some(w) = out.winner {
            wins += 1;
            assert!(g.beaten(1 - w) && !g.beaten(w));
        }
    }
    assert!(wins > 20, "most games are decided: {wins}/40");
}

#[test]
fn artillery_and_a_shaken_vehicle_with_nothing_in_range_leave_the_activations_to_others() {
    // Issue 15: idle units used 2 of the 5 activations (GnG 1.5, "How Combat Works": up to 5
    // units a turn), so only 3 of the 5 Light Infantry moved.
    let r = gng(&[]);
    let (art, truck, light, rifle) =
        (unit(&r, "Artillery"), unit(&r, "Armored Truck"), unit(&r, "Light Infantry"), unit(&r, "Riflemen"));
    let mut g = game(&r);
    let a = g.place(0, art, Pos::new(40.0, 2.0));
    let t = g.place(0, truck, Pos::new(44.0, 2.0));
    g.bt.sides[0][t].damage = 2;
    g.bt.sides[0][t].lock = crate::rulesets::gng::rules::LOCK_PENDING; // Shaken last turn
    let lights: Vec<usize> = (0..5).map(|k| g.place(0, light, Pos::new(48.0 + 2.0 * k as f32, 2.0))).collect();
    g.place(1, rifle, Pos::new(5.0, 35.0));
    g.take_turn(0, &mut ScriptedDice::new(&[]));
    assert!(!g.bt.sides[0][a].activated && !g.bt.sides[0][t].activated, "idle units do not activate");
    for &l in &lights {
        assert!(g.pos(0, l).y > 2.0, "every Light Infantry moves");
    }
}

#[test]
fn an_anti_armor_unit_with_cover_to_destroy_acts_before_units_that_only_move() {
    // Issue 15: the Grenadier was sorted after everything else and, with 5 units that only
    // moved, never acted.
    let r = gng(&[]);
    let (gren, rifle, light) = (unit(&r, "Grenadier"), unit(&r, "Riflemen"), unit(&r, "Light Infantry"));
    let mut g = game(&r);
    let gr = g.place(0, gren, Pos::new(13.0, 12.0));
    let lights: Vec<usize> = (0..5).map(|k| g.place(0, light, Pos::new(48.0 + 2.0 * k as f32, 1.0))).collect();
    let t1 = g.place(1, light, Pos::new(11.5, 18.75));
    let t2 = g.place(1, rifle, Pos::new(14.5, 18.75));
    g.st[1][t1].cover = Some(0);
    g.st[1][t2].cover = Some(0);
    let mut d = ScriptedDice::new(&[]);
    g.take_turn(0, &mut d);
    assert!(g.bt.sides[0][gr].activated);
    assert!(!g.table.walls[0].intact, "the cover is destroyed");
    assert_eq!(g.bt.sides[1][t1].damage, 1);
    let moved = lights.iter().filter(|&&l| g.pos(0, l).y > 1.0).count();
    assert_eq!(moved, 4, "the other 4 activations move Light Infantry");
}

#[test]
fn bayonets_close_to_one_and_a_half_inches_when_the_attack_is_worth_more() {
    // GnG 1.5, "Unit Upgrades": Bayonets give +1 ATK within 1½". Issue 15: no unit closed.
    let r = gng(&[]);
    let rifle = unit(&r, "Riflemen");
    let mut g = game(&r);
    g.upgrade[0] = UpgradeRule::from_name("Bayonets");
    let a = g.place(0, rifle, Pos::new(40.0, 5.0));
    let e = g.place(1, rifle, Pos::new(40.0, 12.0));
    // From 7": ATK 3 vs DEF 2; from 1.4": ATK 4. The walk (6") reaches, so it charges.
    let mut d = ScriptedDice::new(&[1, 6]);
    g.take_turn(0, &mut d);
    assert!(d.exhausted(), "it attacks after the charge");
    assert!(g.pos(0, a).dist(g.pos(1, e)) <= BAYONET_REACH + 1e-3, "closes within 1½\"");
    // Not worth more: a Bloodied enemy in range but out of a charge's reach is a sure kill
    // target; the unit fires from where it stands instead of charging the fresh one.
    let mut g = game(&r);
    g.upgrade[0] = UpgradeRule::from_name("Bayonets");
    let a = g.place(0, rifle, Pos::new(40.0, 5.0));
    g.place(1, rifle, Pos::new(40.0, 12.0));
    let hurt = g.place(1, rifle, Pos::new(33.0, 2.0));
    g.bt.sides[1][hurt].damage = 3;
    let mut d = ScriptedDice::new(&[6, 1]);
    g.take_turn(0, &mut d);
    assert_eq!(g.pos(0, a), Pos::new(40.0, 5.0), "no charge");
    assert!(!g.bt.sides[1][hurt].alive);
}

#[test]
fn a_bayonet_charge_counts_the_rough_ground_on_its_way() {
    // GnG 1.5, "Terrain": rough ground takes 2" from the move allowance, so a Walk (6") across
    // it goes 4". The enemy is 7" away: the charge would need 5.6" and stop 3" short, firing
    // without the +1 ATK (GnG 1.5, "Unit Upgrades") it was chosen for. The plan uses the
    // move's own reach, so the unit fires from where it stands.
    use crate::battle::{Area, AreaKind};
    let r = gng(&[]);
    let rifle = unit(&r, "Riflemen");
    let mut g = game(&r);
    g.upgrade[0] = UpgradeRule::from_name("Bayonets");
    g.table.areas.push(Area { centre: Pos::new(40.0, 8.0), radius: 1.0, kind: AreaKind::Rough });
    let a = g.place(0, rifle, Pos::new(40.0, 5.0));
    let e = g.place(1, rifle, Pos::new(40.0, 12.0));
    assert_eq!(g.move_end(0, a, g.pos(1, e), 6.0).0, Pos::new(40.0, 9.0));
    assert_eq!(g.bayonet_plan(0, a), None, "the walk does not reach 1½\"");
    let mut d = ScriptedDice::new(&[1, 6]);
    g.take_turn(0, &mut d);
    assert!(d.exhausted(), "it attacks");
    assert_eq!(g.pos(0, a), Pos::new(40.0, 5.0), "no charge that stops short");
    // Rough ground beside the way: the charge goes in.
    g.table.areas[0].centre = Pos::new(45.0, 8.0);
    assert!(g.bayonet_plan(0, a).is_some());
}

#[test]
fn a_walk_into_range_counts_the_rough_ground_on_its_way() {
    // GnG 1.5, "Terrain": a Walk (6") across rough ground goes 4". Riflemen (8½") 14" from the
    // enemy need 5.55": across rough ground the walk ends 10" away, out of range, so there is
    // no walk-and-fire plan (the unit rushes instead); beside it the walk reaches.
    use crate::battle::{Area, AreaKind};
    let r = gng(&[]);
    let rifle = unit(&r, "Riflemen");
    let mut g = game(&r);
    g.table.areas.push(Area { centre: Pos::new(40.0, 8.0), radius: 1.0, kind: AreaKind::Rough });
    let a = g.place(0, rifle, Pos::new(40.0, 5.0));
    g.place(1, rifle, Pos::new(40.0, 19.0));
    assert_eq!(g.walk_plan(0, a), None);
    g.table.areas[0].centre = Pos::new(45.0, 8.0);
    assert!(g.walk_plan(0, a).is_some());
}

#[test]
fn a_walk_into_range_round_a_cover_piece_plans_with_the_whole_walk() {
    // The move walks round the wall with the whole Walk (6"), so the plan must too: Riflemen
    // (8½") just below the wall's end, 11½" from the enemy, need 3.05" of straight line but
    // 3.9" round the end. Planned with only the 3.05" the walk seemed to fall short and the
    // unit rushed without firing.
    let r = gng(&[]);
    let rifle = unit(&r, "Riflemen");
    let mut g = game(&r);
    let a = g.place(0, rifle, Pos::new(10.5, 16.5));
    let e = g.place(1, rifle, Pos::new(10.5, 28.0));
    let (to, _) = g.walk_plan(0, a).expect("a walk round the wall brings the enemy into range");
    assert!(g.move_end(0, a, to, 6.0).0.dist(g.pos(1, e)) <= 8.5);
    let mut d = ScriptedDice::new(&[1, 6]);
    g.take_turn(0, &mut d);
    assert!(d.exhausted(), "it walks round and fires");
}

#[test]
fn vehicles_and_artillery_never_hunker() {
    // RULINGS.md, "Hunker is infantry only": vehicles have Hold, Move and Cruise (GnG 1.5,
    // "Vehicle Movement"). A waiting (cautious) Tank and Artillery with nothing in range hold.
    let r = gng(&[]);
    let (tank, art, rifle) = (unit(&r, "Tank"), unit(&r, "Artillery"), unit(&r, "Riflemen"));
    let mut g = game(&r);
    g.tactic = [cautious(); 2];
    let t = g.place(0, tank, Pos::new(40.0, 2.0));
    let a = g.place(0, art, Pos::new(50.0, 2.0));
    g.place(1, rifle, Pos::new(5.0, 35.0));
    let mut heals = u32::MAX;
    let mut may = true;
    for u in [t, a] {
        g.activate(0, u, &mut heals, &mut may, &mut ScriptedDice::new(&[]));
        assert!(!g.st[0][u].hunker);
    }
    assert_eq!(g.pos(0, t), Pos::new(40.0, 2.0));
}

#[test]
fn rough_ground_takes_two_inches_from_the_allowance_not_from_the_distance_wanted() {
    // GnG 1.5, "Terrain": "Units passing over rough terrain move 2" less than they normally
    // would." A Light Infantry unit (Rush 10") that wants 7.05" across rough ground gets them
    // all (10" − 2" = 8"); before, the 2" came off the 7.05".
    use crate::battle::{Area, AreaKind};
    let r = gng(&[]);
    let (light, rifle) = (unit(&r, "Light Infantry"), unit(&r, "Riflemen"));
    let mut g = game(&r);
    g.table.areas.push(Area { centre: Pos::new(50.0, 8.0), radius: 1.0, kind: AreaKind::Rough });
    let l = g.place(0, light, Pos::new(50.0, 5.0));
    g.place(1, rifle, Pos::new(50.0, 18.0));
    g.take_turn(0, &mut ScriptedDice::new(&[]));
    assert!((g.pos(0, l).y - 12.05).abs() < 1e-3, "rushed to {:?}", g.pos(0, l));
    // Wanting more than the allowance minus 2": the full Rush less 2".
    let mut g = game(&r);
    g.table.areas.push(Area { centre: Pos::new(50.0, 8.0), radius: 1.0, kind: AreaKind::Rough });
    let l = g.place(0, light, Pos::new(50.0, 5.0));
    g.place(1, rifle, Pos::new(50.0, 35.0));
    g.take_turn(0, &mut ScriptedDice::new(&[]));
    assert!((g.pos(0, l).y - 13.0).abs() < 1e-3, "rushed to {:?}", g.pos(0, l));
}

#[test]
fn tanks_cross_cover_pieces_in_a_straight_line() {
    // GnG 1.5, "Vehicles": "Tanks can go over all terrain except minefields without problem."
    let r = gng(&[]);
    let (tank, truck) = (unit(&r, "Tank"), unit(&r, "Armored Truck"));
    let mut g = game(&r);
    let t = g.place(0, tank, Pos::new(13.0, 12.0));
    let k = g.place(0, truck, Pos::new(14.0, 12.0));
    let mut d = ScriptedDice::new(&[]);
    g.move_unit(0, t, Pos::new(13.0, 30.0), 10.0, None, &mut d);
    assert!(g.pos(0, t).dist(Pos::new(13.0, 22.0)) < 1e-3, "over the wall: {:?}", g.pos(0, t));
    g.move_unit(0, k, Pos::new(14.0, 30.0), 10.0, None, &mut d);
    assert!(g.pos(0, k).y < 22.0 - 1e-3, "the Armored Truck drives round it: {:?}", g.pos(0, k));
    // Rough and dangerous ground: no 2" lost, no d6 (the skirmish's dangerous ground is never a
    // minefield, the one terrain a Tank must test; the scripted dice have no roll to give).
    use crate::battle::{Area, AreaKind};
    g.table.areas.push(Area { centre: Pos::new(40.0, 8.0), radius: 1.0, kind: AreaKind::Dangerous });
    g.table.areas.push(Area { centre: Pos::new(40.0, 12.0), radius: 1.0, kind: AreaKind::Rough });
    let t2 = g.place(0, tank, Pos::new(40.0, 4.0));
    g.move_unit(0, t2, Pos::new(40.0, 30.0), 10.0, None, &mut d);
    assert_eq!((g.pos(0, t2), g.bt.sides[0][t2].damage), (Pos::new(40.0, 14.0), 0));
}

#[test]
fn anti_armor_does_not_destroy_cover_inside_its_minimum_range() {
    // GnG 1.5, "Glossary": "Minimum Range: The closest a unit may target another unit"; the
    // Mortar (7") cannot destroy a piece 5" away, the Grenadier (none) can.
    let r = gng(&[]);
    let (mortar, gren, light) = (unit(&r, "Mortar"), unit(&r, "Grenadier"), unit(&r, "Light Infantry"));
    let mut g = game(&r);
    let m = g.place(0, mortar, Pos::new(13.0, 13.0));
    let t1 = g.place(1, light, Pos::new(11.5, 18.75));
    let t2 = g.place(1, light, Pos::new(14.5, 18.75));
    g.st[1][t1].cover = Some(0);
    g.st[1][t2].cover = Some(0);
    assert_eq!(g.cover_to_destroy(0, m), None);
    let gr = g.place(0, gren, Pos::new(12.0, 13.0));
    assert_eq!(g.cover_to_destroy(0, gr), Some(0));
}

#[test]
fn a_unit_caught_in_a_blast_gets_cover_when_the_blast_crosses_its_piece() {
    // RULINGS.md, "GnG blast and cover": +3 DEF when the line from the blast's target to the
    // unit crosses its cover piece (GnG 1.5, "Cover": "+3 DEF bonus").
    let r = gng(&[]);
    let (mortar, light) = (unit(&r, "Mortar"), unit(&r, "Light Infantry"));
    let mut g = game(&r);
    let m = g.place(0, mortar, Pos::new(13.0, 5.0));
    let t = g.place(1, light, Pos::new(13.0, 17.0));
    let n = g.place(1, light, Pos::new(13.0, 18.75));
    g.st[1][n].cover = Some(0);
    // Mortar 3 + 6 = 9 vs 1 + 1 = 2: hit. The neighbour behind the wall rolls 5: 5 + 1 + 3 = 9,
    // not lower than 9: spared (without cover 6 < 9 would hit).
    let mut d = ScriptedDice::new(&[3, 1, 5]);
    g.attack(0, m, t, Special::None, &mut d);
    assert!(d.exhausted());
    assert_eq!(g.bt.sides[1][t].damage, 2);
    assert_eq!(g.bt.sides[1][n].damage, 0);
}

#[test]
fn scouts_of_both_sides_place_in_roll_off_order() {
    // GnG 1.5, Quick Reference, "Scout": "If both players have scout units, roll-off to see
    // who places their units first." The winner's Scout takes the middle line; the other's
    // stays 12" from it, on the same line x. Both outcomes of the roll-off.
    let r = gng(&["rules.stat_source=quick_reference", "skirmish.cover_pieces=0"]);
    let (scouts, rifle) = (unit(&r, "Scouts"), unit(&r, "Riflemen"));
    let army = Army { units: vec![rifle, rifle, scouts], upgrade: None };
    for (roll_off, winner) in [(&[5, 2][..], 0), (&[1, 4][..], 1)] {
        let g = scripted_set_up(&r, &army, roll_off);
        let at = |s: Side| {
            let f = g.bt.sides[s].iter().find(|f| f.unit as usize == scouts).unwrap();
            Pos::new(f.x, f.y)
        };
        let mid = g.table.depth / 2.0;
        let behind = if winner == 0 { mid + 12.0 } else { mid - 12.0 };
        assert_eq!(at(winner), Pos::new(30.0, mid), "the winner's Scout ({roll_off:?})");
        assert_eq!(at(1 - winner), Pos::new(30.0, behind), "the loser's Scout ({roll_off:?})");
    }
}

#[test]
fn a_waiting_vehicle_still_drives_to_cover_within_two_cruises() {
    // The idle rule leaves out only activations that do nothing: a cautious Tank out of cover
    // with a free spot within reach takes an activation and goes there.
    let r = gng(&[]);
    let (tank, rifle) = (unit(&r, "Tank"), unit(&r, "Riflemen"));
    let mut g = game(&r);
    g.tactic = [cautious(); 2];
    let t = g.place(0, tank, Pos::new(18.0, 10.0));
    g.place(1, rifle, Pos::new(55.0, 35.0));
    g.take_turn(0, &mut ScriptedDice::new(&[]));
    assert!(g.bt.sides[0][t].activated);
    assert_eq!(g.st[0][t].cover, Some(0));
}

/// A Point Capture game on an empty 60" × 36" table: command points at (15, 18), (30, 18)
/// and (45, 18).
fn point_capture(r: &GunsNGrenades) -> Skirmish<'_> {
    let mut g = Skirmish::new(r, &r.skirmish);
    g.set_mission(Mission::PointCapture);
    g
}

fn kill(g: &mut Skirmish, s: Side, i: usize) {
    g.bt.sides[s][i].alive = false;
    g.bt.alive[s] -= 1;
}

#[test]
fn command_points_stand_on_the_centre_line_at_quarters_of_the_width() {
    // RULINGS.md, "Missions": 3 command points on the centre line at ¼, ½ and ¾ of the width.
    let r = gng(&[]);
    let at: Vec<Pos> = point_capture(&r).command_points.iter().map(|p| p.at).collect();
    assert_eq!(at, vec![Pos::new(15.0, 18.0), Pos::new(30.0, 18.0), Pos::new(45.0, 18.0)]);
    assert!(Skirmish::new(&r, &r.skirmish).command_points.is_empty(), "the Skirmish has none");
    assert_eq!(Mission::GroundWar.points(350.0), 600.0, "Types of Games: Ground War, 600 point limit");
    assert_eq!(Mission::PointCapture.points(350.0), 350.0);
}

#[test]
fn two_units_capture_a_command_point_at_the_end_of_three_own_turns_in_a_row() {
    // GnG 1.5, "Types of Games", Point Capture: "at least two units occupying that area for 3
    // turns straight with no other player's units within 6\" of said point".
    let r = gng(&[]);
    let rifle = unit(&r, "Riflemen");
    let mut g = point_capture(&r);
    g.place(0, rifle, Pos::new(28.0, 16.0));
    g.place(0, rifle, Pos::new(32.0, 16.5)); // 2.5" from the point: occupies
    g.place(1, rifle, Pos::new(30.0, 24.1)); // 6.1" away: too far to contest
    for turn in 1..=3 {
        assert_eq!(g.command_points[1].holder, None, "not before the 3rd own turn");
        g.score_command_points(0);
        assert_eq!(g.command_points[1].streak[0], turn);
    }
    assert_eq!(g.command_points[1].holder, Some(0));
    assert_eq!((g.points_held(0), g.points_held(1)), (1, 0));
    assert!(g.command_points[0].holder.is_none() && g.command_points[2].holder.is_none());
}

#[test]
fn an_enemy_unit_within_six_inches_breaks_the_capture() {
    let r = gng(&[]);
    let rifle = unit(&r, "Riflemen");
    let mut g = point_capture(&r);
    g.place(0, rifle, Pos::new(29.0, 17.0));
    g.place(0, rifle, Pos::new(31.0, 17.0));
    let e = g.place(1, rifle, Pos::new(30.0, 30.0));
    g.score_command_points(0);
    g.score_command_points(0);
    // The enemy walks within 6" before the third end of turn: the streak starts again.
    g.bt.sides[1][e].y = 23.9;
    g.score_command_points(0);
    assert_eq!((g.command_points[1].streak[0], g.command_points[1].holder), (0, None));
    g.bt.sides[1][e].y = 30.0;
    g.score_command_points(0);
    g.score_command_points(0);
    assert_eq!(g.command_points[1].holder, None, "two turns of the new streak are not enough");
    g.score_command_points(0);
    assert_eq!(g.command_points[1].holder, Some(0));
}

#[test]
fn fewer_than_two_units_on_a_point_do_not_capture_it() {
    let r = gng(&[]);
    let rifle = unit(&r, "Riflemen");
    let mut g = point_capture(&r);
    g.place(0, rifle, Pos::new(30.0, 17.0));
    g.place(0, rifle, Pos::new(30.0, 14.8)); // 3.2" away: does not occupy
    g.place(1, rifle, Pos::new(30.0, 35.0));
    for _ in 0..5 {
        g.score_command_points(0);
    }
    assert_eq!((g.command_points[1].streak[0], g.command_points[1].holder), (0, None));
}

#[test]
fn a_captured_point_stays_captured_until_the_other_side_captures_it() {
    let r = gng(&[]);
    let rifle = unit(&r, "Riflemen");
    let mut g = point_capture(&r);
    let a = [g.place(0, rifle, Pos::new(29.0, 17.0)), g.place(0, rifle, Pos::new(31.0, 17.0))];
    g.place(0, rifle, Pos::new(5.0, 2.0));
    for _ in 0..3 {
        g.score_command_points(0);
    }
    assert_eq!(g.command_points[1].holder, Some(0));
    // Side 0 leaves the point (its units die): it still holds it.
    for i in a {
        kill(&mut g, 0, i);
    }
    g.score_command_points(0);
    assert_eq!(g.command_points[1].holder, Some(0));
    // Side 1 occupies it: two of its own turns are not enough, the third takes it.
    g.place(1, rifle, Pos::new(29.0, 19.0));
    g.place(1, rifle, Pos::new(31.0, 19.0));
    for _ in 0..2 {
        g.score_command_points(1);
        g.score_command_points(0);
        assert_eq!(g.command_points[1].holder, Some(0));
    }
    g.score_command_points(1);
    assert_eq!(g.command_points[1].holder, Some(1));
}

#[test]
fn holding_every_command_point_at_the_end_of_a_turn_wins_and_the_cap_counts_points_then_kills() {
    // GnG 1.5, "Playing the Game", Winning: "capture all Command Points ... or kill all the
    // opponents' units"; RULINGS.md, "Missions": at the cap more points held, then more points
    // destroyed, else a draw.
    let r = gng(&[]);
    let (rifle, light) = (unit(&r, "Riflemen"), unit(&r, "Light Infantry"));
    let mut g = point_capture(&r);
    g.place(0, rifle, Pos::new(5.0, 2.0));
    let l = g.place(0, light, Pos::new(9.0, 2.0));
    let e = g.place(1, rifle, Pos::new(5.0, 34.0));
    g.place(1, rifle, Pos::new(9.0, 34.0));
    g.command_points[0].holder = Some(1);
    g.command_points[1].holder = Some(1);
    assert_eq!(g.decided(), None, "two of three");
    assert_eq!(g.winner_at_cap(), Some(1), "more points held");
    g.command_points[0].holder = Some(0);
    assert_eq!(g.winner_at_cap(), None, "one each, nothing destroyed: a draw");
    kill(&mut g, 1, e);
    assert_eq!(g.winner_at_cap(), Some(0), "one each; side 0 destroyed 15 points, side 1 none");
    kill(&mut g, 0, l);
    assert_eq!(g.winner_at_cap(), Some(0), "15 points destroyed against 10");
    g.command_points[0].holder = Some(1);
    g.command_points[2].holder = Some(1);
    assert_eq!(g.decided(), Some((Some(1), End::Captured)));
    let mut s = Skirmish::new(&r, &r.skirmish);
    s.place(0, rifle, Pos::new(5.0, 2.0));
    s.place(1, rifle, Pos::new(5.0, 34.0));
    assert_eq!((s.decided(), s.winner_at_cap()), (None, None), "the Skirmish: the cap is a draw");
}

#[test]
fn units_with_no_enemy_in_reach_move_straight_to_an_uncaptured_command_point() {
    // The objective rule: the two nearest units go to the centre point (a capture needs two);
    // the old tactic rushed toward the nearest enemy, here along the deployment edge.
    let r = gng(&[]);
    let rifle = unit(&r, "Riflemen");
    let mut g = point_capture(&r);
    let units = [g.place(0, rifle, Pos::new(28.0, 4.0)), g.place(0, rifle, Pos::new(32.0, 4.0))];
    g.place(1, rifle, Pos::new(58.0, 1.0));
    let centre = g.command_points[1].at;
    let before: Vec<f32> = units.iter().map(|&i| g.pos(0, i).dist(centre)).collect();
    let mut d = ScriptedDice::new(&[]);
    g.take_turn(0, &mut d);
    for (k, &i) in units.iter().enumerate() {
        assert_eq!(g.goal(0, i).map(|x| x.point), Some(1));
        let after = g.pos(0, i).dist(centre);
        assert!(after <= before[k] - 9.5, "unit {k} rushed 10\" toward the point: {} → {after}", before[k]);
    }
    // Two more rushes and it holds the point: on it, nothing to shoot, it stays put.
    g.take_turn(0, &mut d);
    let held: Vec<Pos> = units.iter().map(|&i| g.pos(0, i)).collect();
    assert!(held.iter().all(|p| p.dist(centre) <= OCCUPY_RADIUS), "{held:?}");
    g.take_turn(0, &mut d);
    assert_eq!(units.iter().map(|&i| g.pos(0, i)).collect::<Vec<_>>(), held);
}

#[test]
fn a_unit_moves_within_six_inches_of_a_point_the_enemy_is_capturing_and_still_shoots() {
    // The enemy has held the centre point for 2 of its turns: a third captures it. The
    // rifleman could shoot the Light Infantry from where it stands (the old tactic did, and
    // stayed 11" away); it walks within 6" of the point and shoots a capturer instead.
    let r = gng(&[]);
    let (rifle, light) = (unit(&r, "Riflemen"), unit(&r, "Light Infantry"));
    let mut g = point_capture(&r);
    let a = g.place(0, rifle, Pos::new(30.0, 7.0));
    let capturers = [g.place(1, rifle, Pos::new(29.0, 19.5)), g.place(1, rifle, Pos::new(31.0, 19.5))];
    g.place(1, light, Pos::new(22.0, 7.0));
    g.command_points[1].streak[1] = 2;
    // One attack: Riflemen 3 + 1 against 2 + 6, a miss.
    let mut d = ScriptedDice::new(&[1, 6]);
    g.take_turn(0, &mut d);
    assert!(d.exhausted(), "the rifleman attacked once");
    let centre = g.command_points[1].at;
    assert!(g.pos(0, a).dist(centre) <= CONTEST_RADIUS, "within 6\": {:?}", g.pos(0, a));
    assert!(g.pos(0, a).dist(g.pos(1, capturers[0])) <= 8.5, "the capturers are in range");
    g.score_command_points(1);
    assert_eq!((g.command_points[1].streak[1], g.command_points[1].holder), (0, None), "capture broken");
}

/// How the games of each mission end (destroyed, captured, turn cap), for the record:
/// `cargo test --lib mission_endings -- --ignored --nocapture`.
#[test]
#[ignore]
fn mission_endings() {
    let r = gng(&[]);
    for mission in Mission::ALL {
        for tactic in [pick(0), cautious()] {
            let mut g = Skirmish::new(&r, &r.skirmish);
            g.set_mission(mission);
            let mut d = FastDice::from_seed(42);
            let (mut ends, mut wins, mut turns, n) = ([0u32; 3], [0u32; 3], 0u64, 4000);
            for _ in 0..n {
                let p = mission.points(r.skirmish.points);
                let (a, b) = (random_army(&r, p, 0.5, &mut d), random_army(&r, p, 0.5, &mut d));
                g.set_up([&a, &b], [tactic; 2], &mut d);
                let out = g.play(&mut d);
                ends[out.end as usize] += 1;
                wins[out.winner.unwrap_or(2)] += 1;
                turns += out.turns as u64;
            }
            println!(
                "{:?} {:?}: A {} B {} draw {} of {n}; mean turns {:.1}; destroyed {} captured {} cap {}",
                mission,
                tactic,
                wins[0],
                wins[1],
                wins[2],
                turns as f64 / n as f64,
                ends[0],
                ends[1],
                ends[2]
            );
        }
    }
}

#[test]
fn a_lone_unit_is_not_sent_to_capture_a_point_it_cannot_take_alone() {
    // Side 0 holds the left point; of its two units one guards it (the enemy's two could
    // capture it), and the other would be alone at any other point (a capture needs two): it
    // gets no goal and fights instead.
    let r = gng(&[]);
    let rifle = unit(&r, "Riflemen");
    let mut g = point_capture(&r);
    let guard = g.place(0, rifle, Pos::new(15.0, 16.0));
    let other = g.place(0, rifle, Pos::new(30.0, 8.0));
    g.place(1, rifle, Pos::new(45.0, 19.0));
    let e = g.place(1, rifle, Pos::new(47.0, 19.0));
    g.command_points[0].holder = Some(0);
    g.assign_goals(0);
    assert_eq!(g.goal(0, guard).map(|x| x.point), Some(0));
    assert_eq!(g.goal(0, other), None);
    // When the enemy is capturing the centre point, one unit is enough to contest it.
    g.command_points[1].streak[1] = 1;
    g.assign_goals(0);
    assert_eq!(g.goal(0, other).map(|x| (x.point, x.urgent)), Some((1, true)));
    // An enemy down to one unit cannot capture: no guard is kept back, and the two go to
    // capture the centre point together.
    g.command_points[1].streak[1] = 0;
    kill(&mut g, 1, e);
    g.assign_goals(0);
    assert_eq!((g.goal(0, guard).map(|x| x.point), g.goal(0, other).map(|x| x.point)), (Some(1), Some(1)));
}

#[test]
fn a_unit_on_its_way_to_a_point_attacks_what_it_can_instead_of_walking_past() {
    // Not urgent: the rifleman sent to the centre point has an enemy in range where it stands;
    // it attacks from there (as the tactic does in the Skirmish) instead of moving on.
    let r = gng(&[]);
    let rifle = unit(&r, "Riflemen");
    let mut g = point_capture(&r);
    let a = g.place(0, rifle, Pos::new(30.0, 4.0));
    g.place(0, rifle, Pos::new(33.0, 4.0));
    g.place(1, rifle, Pos::new(22.0, 4.0));
    g.place(1, rifle, Pos::new(58.0, 35.0));
    let mut d = ScriptedDice::new(&[1, 6, 1, 6]);
    g.take_turn(0, &mut d);
    assert_eq!(g.goal(0, a).map(|x| x.point), Some(1));
    assert_eq!(g.pos(0, a), Pos::new(30.0, 4.0), "attacked from where it stands");
}

#[test]
fn a_traced_game_logs_each_capture_of_a_command_point_with_its_game_turn() {
    // GnG 1.5, "Types of Games", Point Capture: a point stays captured until the other side
    // captures it; the replay tells each capture (side, game turn).
    let r = gng(&[]);
    let rifle = unit(&r, "Riflemen");
    let mut g = point_capture(&r);
    g.trace = Some(Trace::default());
    let blue = [g.place(0, rifle, Pos::new(29.0, 17.0)), g.place(0, rifle, Pos::new(31.0, 17.0))];
    g.place(1, rifle, Pos::new(29.0, 30.0));
    g.place(1, rifle, Pos::new(31.0, 30.0));
    for _ in 0..4 {
        g.score_command_points(0); // the 4th end of turn keeps it: no second capture logged
    }
    assert_eq!(g.trace.as_ref().unwrap().captures, [(1, 0, 1)]);
    for &i in &blue {
        kill(&mut g, 0, i);
    }
    g.bt.sides[1][0].y = 19.0;
    g.bt.sides[1][1].y = 19.0;
    g.turn = 6; // game turn 4
    for _ in 0..3 {
        g.score_command_points(1);
    }
    assert_eq!(g.trace.as_ref().unwrap().captures, [(1, 0, 1), (1, 1, 4)]);
    assert_eq!(g.command_points[1].holder, Some(1));
}

#[test]
fn the_point_capture_replay_draws_the_command_points_with_their_holders_and_radii() {
    // The replay of a Point Capture game (`skirmish gng --mission point-capture --replay`)
    // draws each command point: a diamond in its holder's colour, a label with its captures,
    // and dashed circles of 3" (occupy) and 6" (contest), 14 px an inch. The Skirmish has none.
    let r = gng(&[]);
    let armies = Armies::Random;
    let (g, out, pair) = traced_game(&r, &r.skirmish, &armies, pick(0), Mission::PointCapture, 3);
    let replay = replay_of(&g, &out, &pair, pick(0));
    assert_eq!(replay.markers.len(), 3);
    for (m, p) in replay.markers.iter().zip(&g.command_points) {
        assert_eq!((m.at, m.holder, m.radii.clone()), (p.at, p.holder, vec![OCCUPY_RADIUS, CONTEST_RADIUS]));
    }
    let svg = crate::battle::replay::to_svg(&replay);
    assert_eq!(svg.matches(r#"class="marker""#).count(), 3, "{svg}");
    for k in 1..=3 {
        assert!(svg.contains(&format!(">CP{k}: ")), "CP{k} labelled");
    }
    assert_eq!(svg.matches(r#"r="84" fill="none""#).count(), 3, "6\" contest circles");
    assert_eq!(svg.matches(r#"r="42" fill="none""#).count(), 3, "3\" occupy circles");
    assert!(svg.contains("◆ command point"), "the legend explains the marker");
    let (g, out, pair) = traced_game(&r, &r.skirmish, &armies, pick(0), Mission::Skirmish, 3);
    let svg = crate::battle::replay::to_svg(&replay_of(&g, &out, &pair, pick(0)));
    assert!(!svg.contains("class=\"marker\"") && !svg.contains("command point"));
}

/// The `cautious` tactic.
fn cautious() -> Pick {
    by_name("cautious").expect("listed")
}

/// The `hold` tactic.
fn hold() -> Pick {
    by_name("hold").expect("listed")
}

/// The rollout's game turns ([`shape::StagedGame`]) are [`Skirmish::play`]'s: a set-up game
/// played turn by turn through [`crate::rulesets::rollout::Staged`] ends with the same winner
/// after the same dice, and so does a clone taken after the first game turn.
#[test]
fn a_skirmish_played_game_turn_by_game_turn_or_from_a_clone_ends_as_played_whole() {
    let r = gng(&[]);
    for k in 0..10 {
        let mut dice = FastDice::from_seed(k);
        let pair = [random_army(&r, 350.0, 0.5, &mut dice), random_army(&r, 350.0, 0.5, &mut dice)];
        let mut whole = Skirmish::new(&r, &r.skirmish);
        whole.set_up([&pair[0], &pair[1]], [pick(0); 2], &mut dice);
        let mut staged_dice = dice.clone();
        let staged = shape::StagedGame::new(whole.clone(), &mut staged_dice);
        let out = whole.play(&mut dice);
        crate::rulesets::rollout::assert_plays_as_whole(staged, staged_dice, out.winner, &format!("game {k}"));
    }
}

/// Both sides on `hold` (every unit waits: never walks into range): side A's rollout finds
/// that advancing pays (the default tactic beats `hold` by about 23 points) and leaves `hold`
/// at some game turns, and its gain's 95% interval lies above 0.
#[test]
fn a_side_facing_hold_gains_by_leaving_hold() {
    let g = crate::rulesets::skirmish::rollout_against_both_on(&gng(&[]), "hold", 100, 16);
    let a = g.sides[0];
    assert!(a.gain.lo > 0.0 && a.switched > 0.0, "{g:?}");
}
