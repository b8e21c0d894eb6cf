use super::*;
use crate::dice::ScriptedDice;
use crate::rulesets::DuelSetup;
use crate::rulesets::gng::testing::{gng, unit};

#[test]
fn ties_miss_and_higher_attack_hits() {
    let r = gng(&[]);
    let rifle = *r.profile(unit(&r, "Riflemen"));
    let heavy = *r.profile(unit(&r, "Heavy Infantry"));
    // Riflemen ATK +3 roll 2 (5) vs Heavy DEF +2 roll 3 (5): tie, miss. No Fast Shot.
    let mut d = ScriptedDice::new(&[2, 3]);
    assert_eq!(opposed_roll(&r, &rifle, &heavy, &mut d), None);
    assert!(d.exhausted());
    // Riflemen roll 3 (6) vs 3 (5): hit with total 6.
    let mut d = ScriptedDice::new(&[3, 3]);
    assert_eq!(opposed_roll(&r, &rifle, &heavy, &mut d), Some(6));
}

#[test]
fn fast_shot_rerolls_only_the_attacker_die_by_default() {
    let r = gng(&[]);
    let heavy = *r.profile(unit(&r, "Heavy Infantry"));
    let rifle = *r.profile(unit(&r, "Riflemen"));
    // Heavy ATK +4 rolls 1 (5) vs Riflemen DEF +2 rolls 4 (6): miss; re-roll 3 → 7 > 6 hit.
    let mut d = ScriptedDice::new(&[1, 4, 3]);
    assert_eq!(opposed_roll(&r, &heavy, &rifle, &mut d), Some(7));
    assert!(d.exhausted());
    // both_dice: the re-roll rolls both: attacker 3 (7) vs defender 6 (8): miss.
    let r2 = gng(&["rules.fast_shot=both_dice"]);
    let mut d = ScriptedDice::new(&[1, 4, 3, 6]);
    assert_eq!(opposed_roll(&r2, &heavy, &rifle, &mut d), None);
    assert!(d.exhausted());
}

#[test]
fn tough_takes_two_hits_to_wound_and_deadly_wounds_a_fresh_tough_unit() {
    let r = gng(&[]);
    let rifle = unit(&r, "Riflemen");
    let mut bt = Battle::default();
    bt.deploy([&[(rifle, 0.0, 0.0, 0)], &[(rifle, 8.0, 0.0, 0)]]);
    take_damage(&r, &mut bt, 1, 0, 1, 0);
    assert_eq!(bt.sides[1][0].damage, 1); // hit absorbed: still Healthy
    take_damage(&r, &mut bt, 1, 0, 1, 0);
    assert_eq!(bt.sides[1][0].damage, 2); // Wounded
    take_damage(&r, &mut bt, 1, 0, 1, 0);
    take_damage(&r, &mut bt, 1, 0, 1, 0);
    assert!(!bt.sides[1][0].alive, "a Tough unit dies at the 4th damage");
    assert_eq!(bt.kills, [1, 0]);
    // Deadly (2 damage) on a fresh Tough unit leaves it Wounded (damage 2 of 4).
    bt.deploy([&[(rifle, 0.0, 0.0, 0)], &[(rifle, 8.0, 0.0, 0)]]);
    take_damage(&r, &mut bt, 1, 0, 2, 0);
    assert_eq!(bt.sides[1][0].damage, 2);
    assert!(bt.sides[1][0].alive);
}

#[test]
fn a_tank_hit_destroys_fresh_infantry() {
    let r = gng(&[]);
    let (tank, scouts) = (unit(&r, "Tank"), unit(&r, "Scouts"));
    let mut bt = Battle::default();
    bt.deploy([&[(tank, 0.0, 0.0, 0)], &[(scouts, 9.0, 0.0, 0)]]);
    // Tank ATK +6 rolls 1 (7) vs Scouts DEF +3 rolls 3 (6): hit for 3 damage.
    let mut d = ScriptedDice::new(&[1, 3]);
    hold_and_attack(&r, &mut bt, &mut d, 0, 0, 0);
    assert!(!bt.sides[1][0].alive);
}

#[test]
fn blast_rolls_each_unit_within_the_radius_against_the_same_total() {
    let r = gng(&[]);
    let (mortar, light) = (unit(&r, "Mortar"), unit(&r, "Light Infantry"));
    let mut bt = Battle::default();
    // A line of Light Infantry 2" apart: the neighbours at 2" are inside the 2.5" blast,
    // the one at 4" is not.
    bt.deploy([
        &[(mortar, 0.0, 0.0, 0)],
        &[(light, 10.0, 0.0, 0), (light, 10.0, 2.0, 0), (light, 10.0, -2.0, 0), (light, 10.0, 4.0, 0)],
    ]);
    // Mortar 4 + 6 = 10 vs target 5 + 1 = 6: hit (Deadly, 2 damage).
    // Blast: neighbour at +2 rolls 6 (7 < 10: 2 damage); neighbour at -2 rolls... order is
    // by index: unit 1 (y=2) rolls 6 → 7 < 10 hit; unit 2 (y=-2) rolls 6 → hit too.
    let mut d = ScriptedDice::new(&[4, 5, 6, 6]);
    hold_and_attack(&r, &mut bt, &mut d, 0, 0, 0);
    assert!(d.exhausted(), "the unit 4\" away must not roll");
    let dmg: Vec<u8> = bt.sides[1].iter().map(|f| f.damage).collect();
    assert_eq!(dmg, vec![2, 2, 2, 0]);
    // A blast defender whose total equals the attacker's is not hit ("if lower").
    bt.deploy([&[(mortar, 0.0, 0.0, 0)], &[(light, 10.0, 0.0, 0), (light, 10.0, 2.0, 0)]]);
    let mut d = ScriptedDice::new(&[1, 1, 6]); // 7 vs 2: hit; blast 6 + 1 = 7: not lower
    hold_and_attack(&r, &mut bt, &mut d, 0, 0, 0);
    assert_eq!(bt.sides[1][1].damage, 0);
}

#[test]
fn blast_hits_friends_too() {
    let r = gng(&[]);
    let (mortar, rifle) = (unit(&r, "Mortar"), unit(&r, "Riflemen"));
    let mut bt = Battle::default();
    // Side 0: the mortar and a rifleman standing next to the enemy target.
    bt.deploy([&[(mortar, 0.0, 0.0, 0), (rifle, 10.0, 1.0, 0)], &[(rifle, 10.0, 0.0, 0)]]);
    let mut d = ScriptedDice::new(&[6, 1, 1]); // 12 vs 3 hit; friend rolls 1 + 2 = 3 < 12
    hold_and_attack(&r, &mut bt, &mut d, 0, 0, 0);
    assert_eq!(bt.sides[0][1].damage, 2);
    assert_eq!(bt.kills, [0, 0], "no kills: the enemy rifleman is Tough and survives 2");
}

#[test]
fn bloodied_infantry_moves_half_rounded_down() {
    let r = gng(&[]);
    let medic = r.profile(unit(&r, "Medics"));
    let mut f = Fighter::new(0, 0.0, 0.0);
    assert_eq!(move_allowance(medic, &f), (7.0, 11.0), "Light adds 1\"");
    f.damage = 2; // Bloodied (3 stages)
    assert_eq!(move_allowance(medic, &f), (3.0, 5.0));
}

#[test]
fn a_shaken_vehicle_cannot_move_on_its_next_turn_but_fires() {
    let r = gng(&[]);
    let (truck, rifle) = (unit(&r, "Armored Truck"), unit(&r, "Riflemen"));
    let mut bt = Battle::default();
    bt.deploy([&[(truck, 0.0, 0.0, 1)], &[(rifle, 20.0, 0.0, 0)]]);
    take_damage(&r, &mut bt, 0, 0, 1, 1); // Glanced → Shaken
    assert_eq!(bt.sides[0][0].lock, LOCK_PENDING);
    let mut d = ScriptedDice::new(&[]);
    take_turn(&r, &mut bt, &mut d, 0);
    assert_eq!(bt.sides[0][0].x, 0.0, "Shaken: no move this turn");
    assert_eq!(bt.sides[0][0].lock, LOCK_NONE);
    take_turn(&r, &mut bt, &mut d, 0);
    assert!(bt.sides[0][0].x > 0.0, "the turn after, it moves again");
    assert!((bt.sides[0][0].x - 10.0).abs() < 1e-5, "Cruise 10\"");
}

#[test]
fn artillery_never_moves() {
    let r = gng(&[]);
    let (art, rifle) = (unit(&r, "Artillery"), unit(&r, "Riflemen"));
    let mut bt = Battle::default();
    bt.deploy([&[(art, 0.0, 0.0, 0)], &[(rifle, 30.0, 0.0, 0)]]);
    let mut d = ScriptedDice::new(&[]);
    assert_eq!(take_turn(&r, &mut bt, &mut d, 0), 0);
    assert_eq!(bt.sides[0][0].x, 0.0);
}

#[test]
fn walk_the_least_that_brings_the_target_into_range_then_attack() {
    let r = gng(&[]);
    let (rifle, scouts) = (unit(&r, "Riflemen"), unit(&r, "Scouts"));
    let mut bt = Battle::default();
    bt.deploy([&[(rifle, 0.0, 0.0, 0)], &[(scouts, 12.0, 0.0, 0)]]);
    let mut d = ScriptedDice::new(&[1, 6]); // the attack after the walk misses
    take_turn(&r, &mut bt, &mut d, 0);
    assert!((bt.sides[0][0].x - 3.5).abs() < 1e-5, "walks 3.5\" to reach 8.5\" range");
    assert!(d.exhausted());
    // Too far for a walk: rush 10" and do not attack.
    bt.deploy([&[(rifle, 0.0, 0.0, 0)], &[(scouts, 20.0, 0.0, 0)]]);
    let mut d = ScriptedDice::new(&[]);
    take_turn(&r, &mut bt, &mut d, 0);
    assert!((bt.sides[0][0].x - 10.0).abs() < 1e-5);
}

/// GnG 1.5, "Vehicle Movement": a vehicle moves or fires, not both. Stopped at the edge of
/// its 9" range, a Tank is out of range again once the target steps back ½" (issue 15:
/// Snipers' best response gained 99.7 points that way); it closes to 1" outside its 1½"
/// blast, or as far as its 10" Move takes it.
#[test]
fn a_vehicle_closes_past_the_edge_of_its_range() {
    let r = gng(&[]);
    let (tank, snipers) = (unit(&r, "Tank"), unit(&r, "Snipers"));
    let mut bt = Battle::default();
    bt.deploy([&[(tank, 0.0, 0.0, 0)], &[(snipers, 12.0, 0.0, 0)]]);
    let mut d = ScriptedDice::new(&[]);
    take_turn(&r, &mut bt, &mut d, 0);
    assert!((bt.sides[0][0].x - 9.5).abs() < 1e-5, "to 2.5\" of the Snipers: {}", bt.sides[0][0].x);
    bt.deploy([&[(tank, 0.0, 0.0, 0)], &[(snipers, 30.0, 0.0, 0)]]);
    take_turn(&r, &mut bt, &mut d, 0);
    assert!((bt.sides[0][0].x - 10.0).abs() < 1e-5, "a full 10\" Move");
}

/// GnG 1.5, Tank "Blast radius 1½\"", "Vehicle Movement": inside a Tank's blast the Tank
/// cannot fire without its own blast catching itself, and it cannot move and fire. Riflemen
/// 2½" from a Tank walk 1" to its blast's edge and fire (issue 15: the best response of
/// Riflemen against the Tank gained 43 points that way); the scripted dice are that attack.
#[test]
fn infantry_walks_inside_a_vehicles_blast_and_fires() {
    let r = gng(&[]);
    let (rifle, tank) = (unit(&r, "Riflemen"), unit(&r, "Tank"));
    let mut bt = Battle::default();
    bt.deploy([&[(rifle, 0.0, 0.0, 0)], &[(tank, 2.5, 0.0, 0)]]);
    // Riflemen ATK +3 roll 6 (9) against the Tank's DEF +4 roll 1 (5): a hit.
    let mut d = ScriptedDice::new(&[6, 1]);
    take_turn(&r, &mut bt, &mut d, 0);
    assert!((bt.sides[0][0].x - 1.0).abs() < 1e-5, "to 1½\" of the Tank: {}", bt.sides[0][0].x);
    assert!(d.exhausted(), "it fired after the walk");
    assert_eq!(bt.sides[1][0].damage, 1);
    // A Mortar walks out of its blast and fires: nobody closes in on it.
    let mortar = unit(&r, "Mortar");
    bt.deploy([&[(rifle, 0.0, 0.0, 0)], &[(mortar, 8.0, 0.0, 0)]]);
    let mut d = ScriptedDice::new(&[1, 6]);
    take_turn(&r, &mut bt, &mut d, 0);
    assert_eq!(bt.sides[0][0].x, 0.0, "held and fired at the Mortar");
}

/// GnG 1.5, Artillery "Blast radius 2\"" (it never moves): Snipers 12" away, out of their
/// 10" range, rush 10" to the blast's edge instead of walking 2" and firing (issue 15: 42
/// of the 66 points of Snipers' best response against Artillery).
#[test]
fn infantry_rushes_inside_the_artillerys_blast() {
    let r = gng(&[]);
    let (snipers, art) = (unit(&r, "Snipers"), unit(&r, "Artillery"));
    let mut bt = Battle::default();
    bt.deploy([&[(snipers, 0.0, 0.0, 0)], &[(art, 12.0, 0.0, 0)]]);
    let mut d = ScriptedDice::new(&[]);
    take_turn(&r, &mut bt, &mut d, 0);
    assert!((bt.sides[0][0].x - 10.0).abs() < 1e-5, "a 10\" Rush: {}", bt.sides[0][0].x);
    // 24" away a Rush does not reach: the usual approach (Rush to 10" of it).
    bt.deploy([&[(snipers, 0.0, 0.0, 0)], &[(art, 24.0, 0.0, 0)]]);
    take_turn(&r, &mut bt, &mut d, 0);
    assert!((bt.sides[0][0].x - 10.0).abs() < 1e-5);
    assert!(!is_stand_up(r.profile(snipers), r.profile(art), 12.0));
    let rifle = unit(&r, "Riflemen");
    assert!(!is_stand_up(r.profile(rifle), r.profile(art), 8.0), "Riflemen walk 6\" inside it");
}

#[test]
fn minimum_range_makes_a_unit_step_back_before_firing() {
    let r = gng(&[]);
    let (mortar, rifle) = (unit(&r, "Mortar"), unit(&r, "Riflemen"));
    let mut bt = Battle::default();
    bt.deploy([&[(mortar, 0.0, 0.0, 0)], &[(rifle, 5.0, 0.0, 0)]]);
    let mut d = ScriptedDice::new(&[1, 6]);
    take_turn(&r, &mut bt, &mut d, 0);
    assert!((bt.sides[0][0].x + 2.0).abs() < 1e-5, "backs 2\" to reach the 7\" minimum");
    assert!(d.exhausted(), "then attacks");
}

#[test]
fn at_most_five_activations_a_turn() {
    let r = gng(&[]);
    let light = unit(&r, "Light Infantry");
    let mut bt = Battle::default();
    let mine: Vec<_> = (0..8).map(|k| (light, 0.0, k as f32 * 2.0, 0)).collect();
    bt.deploy([&mine, &[(light, 30.0, 0.0, 0)]]);
    let mut d = ScriptedDice::new(&[]);
    assert_eq!(take_turn(&r, &mut bt, &mut d, 0), 5);
    assert_eq!(bt.sides[0].iter().filter(|f| f.x > 0.0).count(), 5);
    let r3 = gng(&["rules.activations_per_turn=3"]);
    bt.deploy([&mine, &[(light, 30.0, 0.0, 0)]]);
    assert_eq!(take_turn(&r3, &mut bt, &mut d, 0), 3);
}

#[test]
fn medics_heal_a_squad_mate_instead_of_attacking() {
    let r = gng(&[]);
    let (medic, rifle) = (unit(&r, "Medics"), unit(&r, "Riflemen"));
    let mut bt = Battle::default();
    bt.deploy([&[(medic, 0.0, 0.0, 0), (rifle, 0.0, 2.0, 3)], &[(rifle, 5.0, 0.0, 0)]]);
    // Riflemen (Bloodied) attack first? The turn activates both: the medic heals, the
    // rifleman attacks. Rolls: rifleman 1 vs 6 miss.
    let mut d = ScriptedDice::new(&[1, 6]);
    take_turn(&r, &mut bt, &mut d, 0);
    assert_eq!(bt.sides[0][1].damage, 0, "healed to Healthy");
    assert!(d.exhausted(), "the medic rolled no attack");
}

#[test]
fn once_per_turn_medics_heal_once_per_side_per_turn() {
    let r = gng(&["rules.medic_heals=once_per_turn"]);
    let (medic, rifle) = (unit(&r, "Medics"), unit(&r, "Riflemen"));
    let mut bt = Battle::default();
    // Two medics each next to a wounded rifleman, enemy out of everyone's reach of walk.
    bt.deploy([
        &[(medic, 0.0, 0.0, 0), (rifle, 0.0, 2.0, 2), (medic, 0.0, 20.0, 0), (rifle, 0.0, 22.0, 2)],
        &[(rifle, 60.0, 0.0, 0)],
    ]);
    let mut d = ScriptedDice::new(&[]);
    take_turn(&r, &mut bt, &mut d, 0);
    let healed = [bt.sides[0][1].damage, bt.sides[0][3].damage].iter().filter(|&&x| x == 0).count();
    assert_eq!(healed, 1);
}

#[test]
fn the_stand_up_fast_path_plays_exactly_like_the_turn_loop() {
    use crate::dice::FastDice;
    let r = gng(&["rules.fast_shot=both_dice"]);
    let r2 = gng(&[]);
    let mut pairs = 0;
    for rules in [&r, &r2] {
        for a in 0..rules.profiles.len() {
            for b in 0..rules.profiles.len() {
                for d in [1.0f32, 6.0, 8.0, 10.0, 14.0] {
                    let (pa, pb) = (*rules.profile(a), *rules.profile(b));
                    if !is_stand_up(&pa, &pb, d) {
                        continue;
                    }
                    pairs += 1;
                    let mut bt = Battle::default();
                    let mut slow_dice = FastDice::from_seed((a * 100 + b) as u64);
                    let mut fast_dice = slow_dice.clone();
                    for k in 0..300 {
                        let first = k % 2;
                        bt.deploy([&[(a, 0.0, 0.0, 0)], &[(b, d, 0.0, 0)]]);
                        let slow = play(rules, &mut bt, &mut slow_dice, first, 100);
                        let fast = stand_up(rules, &pa, &pb, &mut fast_dice, first, 100);
                        assert_eq!(slow, fast, "{a} v {b} at {d}, trial {k}");
                    }
                }
            }
        }
    }
    assert!(pairs > 100, "only {pairs} stand-up pairs");
}

/// `play_duel` remembers whether the last one-against-one matchup of its arena is a
/// stand-up duel: an arena passed through matchups and distances in turn (stand-up or not,
/// one unit a side or squads) plays every duel as a fresh arena does, with the same dice.
#[test]
fn an_arena_reused_across_matchups_plays_like_a_fresh_one() {
    use crate::dice::FastDice;
    use crate::rulesets::Ruleset;
    let r = gng(&[]);
    let n = r.profiles.len();
    let mut shared = r.arena();
    let (mut stand_ups, mut others, mut k) = (0, 0, 0u64);
    for m in 0..120 {
        let (x, y) = (m % n, (m * 7 + 3) % n);
        // One matchup at several distances in a row, then the sides swapped, then squads.
        for (a, b, d, na, nb) in
            [(x, y, 8.0, 1, 1), (x, y, 3.0, 1, 1), (x, y, 12.0, 1, 1), (y, x, 12.0, 1, 1), (x, y, 12.0, 2, 3)]
        {
            if na == 1 && is_stand_up(r.profile(a), r.profile(b), d as f32) {
                stand_ups += 1;
            } else {
                others += 1;
            }
            k += 1;
            let mut d1 = FastDice::from_seed(k);
            let mut d2 = d1.clone();
            let duel = DuelSetup { a, na, b, nb, distance: d, a_first: k % 2 == 0, tactics: [0, 0] };
            let reused = r.play_duel(&mut shared, &mut d1, duel);
            let fresh = r.play_duel(&mut r.arena(), &mut d2, duel);
            assert_eq!(reused, fresh, "{a} v {b} at {d}, {na} v {nb}");
        }
    }
    assert!(stand_ups > 50 && others > 50, "{stand_ups} stand-up duels, {others} others");
}

#[test]
fn quick_reference_stats_replace_the_rulebook_pages() {
    let book = gng(&[]);
    let qr = gng(&["rules.stat_source=quick_reference"]);
    let get = |r: &GunsNGrenades, n: &str| *r.profile(unit(r, n));
    assert_eq!(get(&book, "Snipers").range, 10.0);
    assert_eq!(get(&qr, "Snipers").range, 12.0);
    assert_eq!(get(&book, "Light Infantry").def, 1);
    assert_eq!(get(&qr, "Light Infantry").def, 2);
    assert!(get(&qr, "Light Infantry").tags.scout);
    assert_eq!(get(&book, "Machine Gunner").min_range, 4.0);
    assert_eq!(get(&qr, "Machine Gunner").min_range, 0.0);
    assert!(get(&book, "Machine Gunner").tags.limited && !get(&qr, "Machine Gunner").tags.limited);
    assert_eq!(get(&qr, "Mortar").range, 16.0);
    assert!(get(&book, "Mortar").tags.anti_armor && !get(&qr, "Mortar").tags.anti_armor);
    assert!(get(&book, "Grenadier").tags.anti_armor && !get(&qr, "Grenadier").tags.anti_armor);
    // Units the quick reference does not change stay as they are.
    assert_eq!(get(&book, "Riflemen"), get(&qr, "Riflemen"));
    assert_eq!(get(&book, "Tank"), get(&qr, "Tank"));
}
