//! Rule-by-rule tests with scripted dice, the exact solver against hand-computed cases, and
//! determinism across thread counts (Monte Carlo against exact: tests/it/amc_exact_vs_monte_carlo.rs).

use crate::dice::ScriptedDice;
use crate::rulesets::amc::rules::{self, Arc, UnitState};
use crate::rulesets::amc::testing::amc;
use crate::rulesets::amc::{ArmyMenCombat, Quality, exact};
use crate::rulesets::{DuelSetup, Ruleset};

fn upgraded(r: &ArmyMenCombat, name: &str) -> crate::rulesets::amc::Profile {
    r.upgraded.iter().find(|u| u.info.name == name).unwrap_or_else(|| panic!("no entry {name}")).profile
}

#[test]
fn the_config_holds_every_entry_and_upgrade() {
    let r = amc(&[]);
    let names: Vec<&str> = r.book.units.iter().map(|u| u.name.as_str()).collect();
    assert_eq!(names.len(), 15, "{names:?}");
    let cost = |n: &str| r.profiles[r.find(n)].cost;
    assert_eq!((cost("Recruits (5)"), cost("Recruits (10)")), (15.0, 30.0));
    assert_eq!((cost("Veterans (10)"), cost("Heavy Weapons (3)"), cost("Tank")), (80.0, 60.0, 150.0));
    // 6 infantry entries × 5 upgrades, the Jeep's 3 and the Tank's 3.
    assert_eq!(r.upgraded.len(), 36);
    let b = upgraded(&r, "Riflemen (10) + Bayonets");
    assert_eq!((b.cost, b.melee_attacks), (60.0, 2));
    let apc = upgraded(&r, "Jeep + APC");
    assert_eq!((apc.cost, apc.armor, apc.transport), (110.0, 2, 10));
    let mt = upgraded(&r, "Tank + Medium Tank +2");
    assert_eq!((mt.cost, mt.armor), (200.0, 5));
    let tank = &r.profiles[r.find("tank")];
    let cannon = tank.weapons[0].unwrap();
    assert_eq!((cannon.range, cannon.dice, cannon.star), (48.0, 2, true));
}

/// AMC 2.0, "Army Creation" (issue 16 item 2): upgrades bought together. Riflemen take
/// Bayonets, one Grenadier and one Specialist on one unit; a Jeep is a Truck (or an APC) with an
/// MG; a Medium Tank takes an MG. One choice per group: never grenades and C4, a Flamethrower
/// and a Bazooka, a Truck and an APC, or both Medium Tank options.
#[test]
fn upgrades_combine_one_per_group() {
    let r = amc(&[]);
    let entry = |n: &str| r.entries.iter().find(|e| e.0.name == n).map(|e| e.1);
    let all = entry("Riflemen (10) + Bayonets + Grenades + Bazooka").expect("bayonets, grenadier, specialist");
    assert_eq!((all.cost, all.melee_attacks), (75.0, 2));
    assert_eq!(all.grenadier.map(|w| w.range), Some(12.0));
    assert_eq!(all.specialist.map(|w| (w.range, w.star)), Some((36.0, true)));
    let truck_mg = entry("Jeep + Truck + Jeep MG").expect("Truck + MG");
    assert_eq!((truck_mg.cost, truck_mg.transport, truck_mg.armor), (70.0, 10, 1));
    assert_eq!(truck_mg.weapons[0].map(|w| (w.range, w.attacks)), Some((36.0, 3)));
    let apc_mg = entry("Jeep + APC + Jeep MG").expect("APC + MG");
    assert_eq!((apc_mg.cost, apc_mg.transport, apc_mg.armor), (120.0, 10, 2));
    let medium_mg = entry("Tank + Medium Tank +1 + Tank MG").expect("Medium + MG");
    assert_eq!((medium_mg.cost, medium_mg.armor), (185.0, 4));
    assert!(medium_mg.weapons[0].is_some() && medium_mg.weapons[1].is_some());
    for never in [
        "Riflemen (10) + Grenades + C4",
        "Riflemen (10) + Flamethrower + Bazooka",
        "Jeep + Truck + APC",
        "Tank + Medium Tank +1 + Medium Tank +2",
    ] {
        assert!(entry(never).is_none(), "{never}");
    }
    // Per upgradable infantry entry 2 × 3 × 3 = 18 combinations, the Jeep 3 × 2, the Tank 3 × 2
    // (plain ones included), 7 entries without upgrades; each entry is listed once.
    assert_eq!(r.entries.len(), 6 * 18 + 6 + 6 + 7);
    assert_eq!(r.entry_parts.len(), r.entries.len());
    let mut ids: Vec<&str> = r.entries.iter().map(|e| e.0.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), r.entries.len());
}

#[test]
fn an_upgrades_armor_beyond_its_range_is_refused_at_its_place() {
    // Found by `tests/it/fuzz_inputs.rs` (a mutated config): an upgrade's armor near i64::MAX
    // overflowed the addition to the base armor. Clamped at first; now refused (issue 46), with
    // the place and the range.
    let text = std::fs::read_to_string("configs/army-men-combat.toml").unwrap().replacen(
        "cost = 25\narmor = 1",
        "cost = 25\narmor = 9223372036854775807",
        1,
    );
    let line = text.lines().position(|l| l == "armor = 9223372036854775807").expect("config layout changed") + 1;
    let e = ArmyMenCombat::from_source(&crate::config::Source::from_text("a.toml", text), &Default::default())
        .unwrap_err()
        .to_string();
    assert!(e.starts_with(&format!("a.toml:{line}:9: upgrade \"Medium Tank +1\": armor must be -6 to 6 dice")), "{e}");
}

#[test]
fn bad_configs_name_the_place_and_the_key() {
    let text = std::fs::read_to_string("configs/army-men-combat.toml")
        .unwrap()
        .replace("weapons = [\"Sniper Rifle\"]", "weapons = [\"Laser\"]");
    let src = crate::config::Source::from_text("a.toml", text);
    let e = ArmyMenCombat::from_source(&src, &Default::default()).unwrap_err().to_string();
    assert!(e.starts_with("a.toml:") && e.contains("unknown shooting weapon \"Laser\"; known: Bomb, Grenade"), "{e}");
    let text = std::fs::read_to_string("configs/army-men-combat.toml")
        .unwrap()
        .replace("attacks = \"2D6*\"", "attacks = \"3D6\"");
    let e = ArmyMenCombat::from_source(&crate::config::Source::from_text("a.toml", text), &Default::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("weapon \"Bomb\": attacks must be"), "{e}");
}

#[test]
fn recruits_reroll_successes_and_veterans_reroll_failures() {
    // Recruit: 5 passes, must re-roll it: 3 fails.
    let mut d = ScriptedDice::new(&[5, 3]);
    assert!(!rules::quality_test(&mut d, Quality::Recruit, 4));
    assert!(d.exhausted());
    // Recruit: a failure stands (one die).
    let mut d = ScriptedDice::new(&[2]);
    assert!(!rules::quality_test(&mut d, Quality::Recruit, 4));
    assert!(d.exhausted());
    // Veteran: 2 fails, re-rolled 4 passes; a first success is not re-rolled.
    let mut d = ScriptedDice::new(&[2, 4, 6]);
    assert!(rules::quality_test(&mut d, Quality::Veteran, 4));
    assert!(rules::quality_test(&mut d, Quality::Veteran, 4));
    assert!(d.exhausted());
    assert_eq!(rules::p_quality(Quality::Recruit, 4), 0.25);
    assert_eq!(rules::p_quality(Quality::Veteran, 4), 0.75);
    assert!((rules::p_quality(Quality::Normal, 2) - 5.0 / 6.0).abs() < 1e-15);
}

#[test]
fn sniper_hits_on_2_and_infantry_get_no_block_die_per_hit() {
    let r = amc(&[]);
    let sniper = &r.profiles[r.find("Snipers (1)")];
    let rifles = &r.profiles[r.find("Riflemen (5)")];
    let me = UnitState::fresh(sniper, 0.0);
    let mut target = UnitState::fresh(rifles, 24.0);
    // One hit test (2 passes on 2+), no block dice at all: one casualty; 4 of 5 left, no test.
    let mut d = ScriptedDice::new(&[2]);
    assert_eq!(rules::shoot(&mut d, sniper, &me, rifles, &mut target, 24.0, false, false, Arc::Front), 1);
    assert_eq!(target.models, 4);
    assert!(d.exhausted());
    // In cover the infantry target gets its one additional die: a 4 blocks the hit.
    let mut target = UnitState::fresh(rifles, 24.0);
    let mut d = ScriptedDice::new(&[3, 4]);
    assert_eq!(rules::shoot(&mut d, sniper, &me, rifles, &mut target, 24.0, true, false, Arc::Front), 0);
    assert!(d.exhausted());
    // A rifleman's hit on a sniper: a block die per hit (1 fails) → the sniper is destroyed.
    let mut s = UnitState::fresh(sniper, 0.0);
    let one_rifle = UnitState { models: 1, ..UnitState::fresh(rifles, 0.0) };
    let mut d = ScriptedDice::new(&[4, 1]);
    assert_eq!(rules::shoot(&mut d, rifles, &one_rifle, sniper, &mut s, 24.0, false, false, Arc::Front), 1);
    assert!(!s.alive());
}

#[test]
fn hits_on_vehicles_are_halved_or_doubled() {
    let r = amc(&[]);
    let tank = &r.profiles[r.find("Tank")];
    let rifles = &r.profiles[r.find("Riflemen (5)")];
    assert_eq!(rules::hits_on(tank, rules::Volley { plain: 3, star: 1 }), 1 + 2);
    assert_eq!(rules::hits_on(rifles, rules::Volley { plain: 3, star: 1 }), 4);
}

#[test]
fn vehicle_damage_by_arc() {
    let mut st = UnitState { models: 1, ..Default::default() };
    // Front keeps the lower die: 6 and 2 → 2: must roll 4+ to activate.
    let mut d = ScriptedDice::new(&[6, 2]);
    assert_eq!(rules::damage_roll(&mut d, Arc::Front), 2);
    // Rear keeps the higher: 6.
    let mut d = ScriptedDice::new(&[6, 2]);
    assert_eq!(rules::damage_roll(&mut d, Arc::Rear), 6);
    // Side rolls one die.
    let mut d = ScriptedDice::new(&[3]);
    assert_eq!(rules::damage_roll(&mut d, Arc::Side), 3);
    // Two unblocked frontal hits: (6,2) → 2 stunned, (3,4) → 3 immobile; still alive.
    let mut d = ScriptedDice::new(&[6, 2, 3, 4]);
    assert!(!rules::vehicle_damage(&mut d, &mut st, 2, Arc::Front));
    assert!(st.stunned && st.immobile && st.alive());
    // A stunned vehicle rolls 3: it loses its activation, and the effect is spent.
    let mut d = ScriptedDice::new(&[3]);
    assert!(!rules::stunned_test(&mut d, &mut st));
    assert!(!st.stunned);
    // Rear hit (1,5) → 5: destroyed.
    let mut d = ScriptedDice::new(&[1, 5]);
    assert!(rules::vehicle_damage(&mut d, &mut st, 1, Arc::Rear));
    assert!(!st.alive());
}

#[test]
fn pinning_and_the_pinned_test() {
    let r = amc(&[]);
    let p = &r.profiles[r.find("Riflemen (5)")];
    // 3 of 5 left: more than half, no test (no dice used).
    let mut st = UnitState { models: 3, ..UnitState::fresh(p, 0.0) };
    let mut d = ScriptedDice::new(&[]);
    rules::morale_after_shooting(&mut d, p, &mut st, 2);
    assert!(!st.pinned);
    // 2 of 5: test, a 3 fails → Pinned.
    st.models = 2;
    let mut d = ScriptedDice::new(&[3]);
    rules::morale_after_shooting(&mut d, p, &mut st, 1);
    assert!(st.pinned);
    // Activating while Pinned: 4 passes and it acts normally.
    let mut d = ScriptedDice::new(&[4]);
    assert!(rules::pinned_test(&mut d, p, &mut st));
    assert!(!st.pinned && st.alive());
    // Pinned again, fails the test: destroyed.
    st.pinned = true;
    let mut d = ScriptedDice::new(&[1]);
    assert!(!rules::pinned_test(&mut d, p, &mut st));
    assert!(!st.alive());
}

#[test]
fn melee_charge_bonus_simultaneous_casualties_and_the_losers_test() {
    let r = amc(&[]);
    let g = &r.profiles[r.find("Gunners (3)")];
    let mut chg = UnitState::fresh(g, 0.0);
    let mut def = UnitState::fresh(g, 0.0);
    // Charger: 3 fists + 1 charge die: 4,4,1,1 → 2 hits; defender blocks 1,5 → 1 wound.
    // Defender: 3 fists: 1,1,1 → no hits, no blocks rolled. 1 wound against 0: the defender
    // (fewer wounds) tests: 3 fails → destroyed, after losing 1 model.
    let mut d = ScriptedDice::new(&[4, 4, 1, 1, 1, 5, 1, 1, 1, 3]);
    let res = rules::melee(&mut d, g, &mut chg, g, &mut def, 20, Arc::Front);
    assert_eq!(res.rounds, 1);
    assert!(!def.alive() && chg.models == 3);
    assert!(d.exhausted());
    // Equal wounds: nobody tests, a second round without the charge die follows.
    let s = &r.profiles[r.find("Snipers (1)")];
    let (mut a, mut b) = (UnitState::fresh(s, 0.0), UnitState::fresh(s, 0.0));
    // Round 1: charger 2 dice (1,1) no hit; defender 1 die (2) no hit. Round 2: charger 1 die
    // (6) hit, block 1 → wound; defender (1) no hit. Defender destroyed by the wound.
    let mut d = ScriptedDice::new(&[1, 1, 2, 6, 1, 1]);
    let res = rules::melee(&mut d, s, &mut a, s, &mut b, 20, Arc::Front);
    assert_eq!(res.rounds, 2);
    assert!(!b.alive() && a.alive() && d.exhausted());
}

#[test]
fn vehicles_do_not_strike_back_in_melee() {
    let r = amc(&[]);
    let jeep = &r.profiles[r.find("Jeep")];
    assert_eq!(rules::melee_attacks(jeep, 1, false), 0);
    let rifles = &r.profiles[r.find("Riflemen (5)")];
    assert_eq!(rules::melee_attacks(rifles, 5, true), 6);
    assert_eq!(rules::melee_attacks(&upgraded(&r, "Riflemen (5) + Bayonets"), 5, true), 11);
}

#[test]
fn the_activation_rolloff_adds_units_left() {
    let mut d = ScriptedDice::new(&[5, 2]);
    assert_eq!(rules::activation_rolloff(&mut d, [1, 3]), 0); // 6 against 5
    let mut d = ScriptedDice::new(&[3, 3, 6, 1]);
    assert_eq!(rules::activation_rolloff(&mut d, [2, 2]), 0); // tie re-rolls
    assert!(d.exhausted());
    let mut d = ScriptedDice::new(&[]);
    assert_eq!(rules::activation_rolloff(&mut d, [0, 2]), 1);
}

/// AMC 2.0, "Playing the Game": "Before each activation both players roll one die and add the
/// number of non-activated units they have" — the first activation of a duel too (RULINGS.md,
/// "AMC activation roll-off"). One Snipers (1) (A, handed the first seat) against two (B), 30"
/// apart (in Sniper Rifle range: both hold and shoot). Roll-off: A 3 + 1 = 4, B 3 + 2 = 5: B acts
/// first; its hit roll 6 hits (2+), a Sniper hit on infantry gets no block die: A's only model
/// falls. The old duel let A's seat take the first activation and A killed a B sniper first.
#[test]
fn the_first_activation_of_a_duel_is_rolled_off_with_units_left() {
    let r = amc(&[]);
    let sn = r.find("Snipers (1)");
    let mut arena = r.arena();
    let mut dice = ScriptedDice::new(&[3, 3, 6]);
    let out = r.play_duel(
        &mut arena,
        &mut dice,
        DuelSetup { a: sn, na: 1, b: sn, nb: 2, distance: 30.0, a_first: true, tactics: [0, 0] },
    );
    assert!(dice.exhausted());
    assert_eq!((out.winner, out.kills), (Some(1), [0, 1]));
}

/// AMC 2.0, "Damage" (front, side, rear) with RULINGS.md's arcs: front and rear 90° each,
/// read from the angle between the vehicle's facing and the direction to the attacker.
#[test]
fn the_arc_of_a_hit_comes_from_the_attackers_bearing() {
    let deg = |a: f32| a.to_radians().cos();
    assert_eq!(rules::arc_of_bearing(deg(0.0)), Arc::Front);
    assert_eq!(rules::arc_of_bearing(deg(45.0)), Arc::Front);
    assert_eq!(rules::arc_of_bearing(deg(46.0)), Arc::Side);
    assert_eq!(rules::arc_of_bearing(deg(90.0)), Arc::Side);
    assert_eq!(rules::arc_of_bearing(deg(134.0)), Arc::Side);
    assert_eq!(rules::arc_of_bearing(deg(135.0)), Arc::Rear);
    assert_eq!(rules::arc_of_bearing(deg(180.0)), Arc::Rear);
}

#[test]
fn a_grenadier_throws_grenades_only_in_range_and_specialists_die_last() {
    let r = amc(&[]);
    let p = upgraded(&r, "Riflemen (5) + Grenades");
    let t = &r.profiles[r.find("Riflemen (5)")];
    let g = rules::firing_groups(&p, 5, t, 12.0);
    assert_eq!((g[0].1, g[2].0.unwrap().dice), (4, 1));
    let g = rules::firing_groups(&p, 5, t, 20.0);
    assert_eq!(g[2].0.unwrap().range, 24.0);
    let s = upgraded(&r, "Riflemen (5) + Bazooka");
    let g = rules::firing_groups(&s, 1, t, 30.0);
    assert_eq!((g[0].1, g[1].1, g[1].0.unwrap().star), (0, 1, true));
}

#[test]
fn exact_matches_hand_computation() {
    let r = amc(&[]);
    // Sniper against sniper: 5/6 kills per activation, symmetric; P(round goes on) = 1/36.
    let e = r.exact_duel(r.find("Snipers (1)"), r.find("Snipers (1)"), 24.0).unwrap();
    assert!((e.a_wins - 0.5).abs() < 1e-12 && e.draws < 1e-12);
    assert!((e.mean_turns - 36.0 / 35.0).abs() < 1e-12, "{}", e.mean_turns);
    // Gunner (3 attacks, hit 1/2, block 1/2: kill 1 − (3/4)³) against sniper (5/6).
    let (g, s) = (37.0 / 64.0, 5.0 / 6.0);
    let c = (1.0 - g) * (1.0 - s);
    let want = g * (2.0 - s) / 2.0 / (1.0 - c);
    let e = r.exact_duel(r.find("Gunners (1)"), r.find("Snipers (1)"), 24.0).unwrap();
    assert!((e.a_wins - want).abs() < 1e-12, "{} vs {want}", e.a_wins);
    // Two jeeps without weapons: always a draw.
    let e = r.exact_duel(r.find("Jeep"), r.find("Jeep"), 24.0).unwrap();
    assert!((e.draws - 1.0).abs() < 1e-12);
    // Within charge reach it is not a stand-up duel.
    assert!(r.exact_duel(r.find("Riflemen (5)"), r.find("Tank"), 12.0).is_err());
    let u = exact::unblocked_dist(&r.profiles[0], 5, &r.profiles[0], 24.0, 0);
    assert!((u.iter().sum::<f64>() - 1.0).abs() < 1e-12);
}

// Monte Carlo against the exact chain, for every stand-up pair of the cost list at four
// distances and every upgraded entry: tests/it/amc_exact_vs_monte_carlo.rs. Thread-count
// independence and the simulated duels of the tactic: the engine's tests
// (`sim::ruleset_tests`), and the upgrade prices: `analysis::engine`'s.

#[test]
fn bayonet_riflemen_charge_plain_riflemen_at_12_inches() {
    // 2 melee dice a model against 1 rifle shot: the tactic charges (the duels it plays, ending
    // with a winner almost always: the engine's tests, `sim::ruleset_tests`).
    let r = amc(&[]);
    let up = r.upgraded.iter().find(|u| u.info.name == "Riflemen (10) + Bayonets").unwrap();
    let base = r.find("Riflemen (10)");
    let view = r.view(&[(up.info.clone(), up.profile), (r.book.units[base].clone(), r.profiles[base])]);
    let p = view.profiles[0];
    let me = UnitState::fresh(&p, 0.0);
    let them = UnitState::fresh(&view.profiles[1], 12.0);
    assert_eq!(rules::plan(&view, &p, &me, &view.profiles[1], &them, [18.0, 12.0]), rules::Action::Charge);
}

// ---------------------------------------------------------------------------------------
// The decision rule (issue 15): exact expected values, the loser's test, closing to charge.

#[test]
fn a_volley_is_rated_by_the_exact_expected_unblocked_hits() {
    // AMC 2.0, "Shooting" and "Weapons": one Gunner (Machinegun, 3 attacks at 4+) on a Tank
    // (armor 3). Hits are halved: 1 hit as the Tank counts them iff 2 or 3 of 3 hit (1/2); it
    // is unblocked iff all 1 + 3 block tests fail (1/16): E[max(0, hits − blocks)] = 1/32.
    // The old rating max(0, E[hits] − E[blocks]) = max(0, 0.75 − 0.5 · 3.75) gave 0.
    let r = amc(&[]);
    let (g, tank) = (&r.profiles[r.find("Gunners (1)")], &r.profiles[r.find("Tank")]);
    let t = UnitState::fresh(tank, 24.0);
    let e = rules::expected_wounds(g, 1, tank, &t, 24.0, false);
    assert!((e - 1.0 / 32.0).abs() < 1e-12, "{e}");
    // In points: the Tank's 150 × P(the damage roll is a frontal 5–6, 4/36).
    let v = crate::rulesets::amc::tactics::doctrine::volley_value(g, 1, tank, &t, 24.0, rules::Exposure::front(false));
    assert!((v - 150.0 / 32.0 * 4.0 / 36.0).abs() < 1e-9, "{v}");
}

#[test]
fn a_charge_is_valued_with_the_losers_destruction_test() {
    // AMC 2.0, "Melee": one Gunner charges a Tank: 1 Fist + 1 charge die; 1 hit as the Tank
    // counts them iff both hit (1/4), unblocked iff 4 block tests fail (1/16): x = 1 w.p. 1/64.
    // The Tank cannot strike back, so it caused fewer wounds and tests: destroyed on a failed
    // 4+ (1/2) unless the damage roll (5–6 frontal, 1/9) destroyed it already.
    let r = amc(&[]);
    let (g, tank) = (&r.profiles[r.find("Gunners (1)")], &r.profiles[r.find("Tank")]);
    let (c, d) = (UnitState::fresh(g, 0.0), UnitState::fresh(tank, 1.0));
    let first = 1.0 / 64.0 * (1.0 / 9.0 + 8.0 / 9.0 * 0.5);
    // Later rounds (no charge bonus: 1 attack, never 2 hits) cannot wound: the melee's worth is
    // the first round's.
    let (gain, loss) = crate::rulesets::amc::tactics::doctrine::charge_value(&r, g, &c, tank, &d, Arc::Front);
    assert!((gain - 150.0 * first).abs() < 1e-9 && loss == 0.0, "{gain} {loss}");
}

#[test]
fn riflemen_close_in_and_charge_a_tank_instead_of_shooting() {
    // Issue 15: Riflemen (10) against a Tank held and shot (7.3%). A charge destroys the Tank
    // most of the time, so from 24" they Rush to 12" and then charge.
    let r = amc(&[]);
    let (p, tp) = (r.profiles[r.find("Riflemen (10)")], r.profiles[r.find("Tank")]);
    let me = UnitState::fresh(&p, 0.0);
    assert_eq!(rules::plan(&r, &p, &me, &tp, &UnitState::fresh(&tp, 24.0), [12.0, 12.0]), rules::Action::Rush(12.0));
    assert_eq!(rules::plan(&r, &p, &me, &tp, &UnitState::fresh(&tp, 12.0), [12.0, 12.0]), rules::Action::Charge);
    // The Tank does not drive into charge reach; Riflemen against Riflemen at 24" hold.
    let tank = UnitState::fresh(&tp, 0.0);
    assert_eq!(rules::plan(&r, &tp, &tank, &p, &UnitState::fresh(&p, 24.0), [0.0, 12.0]), rules::Action::Hold);
    assert_eq!(rules::plan(&r, &p, &me, &p, &UnitState::fresh(&p, 24.0), [12.0, 12.0]), rules::Action::Hold);
    // The exact solver refuses the pair rather than give the stand-up number.
    let e = r.exact_duel(r.find("Riflemen (10)"), r.find("Tank"), 24.0).unwrap_err();
    assert!(e.0.contains("Riflemen (10) does not stand and shoot at 24\""), "{}", e.0);
    // Monte Carlo, the charge winning most duels: the engine's tests (`sim::ruleset_tests`).
}

#[test]
fn a_tank_keeps_out_of_the_rush_and_charge_reach_of_infantry_while_it_has_room() {
    // Issue 15: the scripted Tank held at 24" while Riflemen (10) rushed to 12" and charged; its
    // best response falls back and shoots to 27", out of a Rush (12") plus a charge (12"), which
    // they could make if they won two activations in a row (AMC 2.0, "Playing the Game").
    let r = amc(&[]);
    let (p, tp) = (r.profiles[r.find("Riflemen (10)")], r.profiles[r.find("Tank")]);
    let tank = UnitState::fresh(&tp, 0.0);
    let at = |d: f32| UnitState::fresh(&p, d);
    assert_eq!(rules::plan(&r, &tp, &tank, &p, &at(24.0), [12.0, 12.0]), rules::Action::Retreat(3.0));
    // At 15" it goes its whole Advance (12") back, to 27".
    assert_eq!(rules::plan(&r, &tp, &tank, &p, &at(15.0), [21.0, 12.0]), rules::Action::Retreat(12.0));
    // No farther than out of reach: at 27" it holds and keeps its room for the next retreat.
    assert_eq!(rules::plan(&r, &tp, &tank, &p, &at(27.0), [9.0, 12.0]), rules::Action::Hold);
    // At its table edge it holds.
    assert_eq!(rules::plan(&r, &tp, &tank, &p, &at(24.0), [0.0, 12.0]), rules::Action::Hold);
    // Against the Artillery (no charge) it never retreats.
    let art = r.profiles[r.find("Artillery")];
    assert_eq!(rules::plan(&r, &tp, &tank, &art, &UnitState::fresh(&art, 24.0), [12.0, 12.0]), rules::Action::Hold);
}

#[test]
fn the_monte_carlo_duel_retreats_on_the_48_inch_table_and_stops_at_its_edge() {
    // The duel table is 48" deep (RULINGS.md, "Duel table depth"), so at 24" each side has 12"
    // behind its line. Scripted dice: the Tank's Cannon rolls 2D6 = 1 + 1 attacks, both miss
    // (1s), so nobody is hurt and only the move is checked.
    let r = amc(&[]);
    let (a, b) = (r.find("Riflemen (10)"), r.find("Tank"));
    let mut battle = rules::Battle::default();
    battle.deploy(&r, a, 1, b, 1, 24.0);
    assert_eq!(battle.edge, [-12.0, 36.0]);
    let mut dice = ScriptedDice::new(&[1, 1, 1, 1]);
    rules::activate(&r, &mut battle, &mut dice, 1, 0);
    assert!(dice.exhausted(), "the Tank shot once");
    assert_eq!(battle.units[1][0].x, 27.0);
    // 24" from the Riflemen, 3" from its edge: those 3" take it out of reach, to the edge.
    for (rifles, tank, to) in [(9.0, 33.0, 36.0), (12.0, 36.0, 36.0)] {
        battle.units[0][0].x = rifles;
        battle.units[1][0].x = tank;
        battle.units[1][0].activated = false;
        let mut dice = ScriptedDice::new(&[1, 1, 1, 1]);
        rules::activate(&r, &mut battle, &mut dice, 1, 0);
        assert!(dice.exhausted());
        // At the edge it holds and shoots.
        assert_eq!(battle.units[1][0].x, to);
    }
}

#[test]
fn riflemen_rush_to_corner_a_tank_that_falls_back_instead_of_advancing() {
    // Issue 15: the tactic's reach took the enemy to stand still, so Riflemen (10) 18" from a
    // Tank advanced 6" and shot (a rifle volley on a Tank is worth almost nothing) to charge
    // from 12" next time; but the Tank falls back 12" before then (out of their Rush and charge
    // reach, while it has room: AMC 2.0, "Movement"), and the Riflemen never caught it. Its
    // best response Rushes: 6" from the Tank, it has 6" of room left, falls back to 12" at
    // most, and is charged. They gained 15.5 points by it (optimal-play game at 24").
    let r = amc(&[]);
    let (a, b) = (r.find("Riflemen (10)"), r.find("Tank"));
    let mut battle = rules::Battle::default();
    battle.deploy(&r, a, 1, b, 1, 24.0);
    assert_eq!(battle.edge, [-12.0, 36.0]);
    // 18" apart, the Tank 6" from its edge.
    battle.units[0][0].x = 12.0;
    battle.units[1][0].x = 30.0;
    // Scripted dice: none. A Rush rolls nothing (an Advance would shoot 10 rifles).
    let mut dice = ScriptedDice::new(&[]);
    rules::activate(&r, &mut battle, &mut dice, 0, 0);
    assert_eq!(battle.units[0][0].x, 24.0, "the Riflemen Rush 12\"");
    // Cornered at its edge the Tank cannot fall back: they Advance and shoot to 12", and
    // charge next time.
    let (p, tp) = (r.profiles[a], r.profiles[b]);
    let me = UnitState::fresh(&p, 0.0);
    let tank = UnitState::fresh(&tp, 18.0);
    assert_eq!(rules::plan(&r, &p, &me, &tp, &tank, [12.0, 0.0]), rules::Action::Advance(6.0));
}

#[test]
fn a_sniper_closes_on_a_jeep_it_can_only_hurt_in_melee() {
    // Issue 15: a Sniper's hit on a vehicle is halved to nothing, so only a charge can hurt the
    // Jeep. From 27" neither an Advance nor a Rush reached charge reach in one activation and the
    // Sniper held forever (a draw the Jeep could force by backing off). Its reach now sees the
    // charge two activations away.
    let r = amc(&[]);
    let (p, tp) = (r.profiles[r.find("Snipers (1)")], r.profiles[r.find("Jeep")]);
    let me = UnitState::fresh(&p, 0.0);
    let a = rules::plan(&r, &p, &me, &tp, &UnitState::fresh(&tp, 27.0), [12.0, 12.0]);
    assert!(matches!(a, rules::Action::Advance(_) | rules::Action::Rush(_)), "{a:?}");
}

#[test]
fn the_charge_value_stops_at_the_melee_round_cap() {
    // AMC 2.0, "Melee" with RULINGS.md's cap: after `melee_round_cap` rounds both stay. With a
    // cap of 1 the melee is its first round alone; the old estimate added (1 − e1)/e2 later
    // rounds whatever the cap (about 57 for Heavy Weapons (3) on a Tank, whose fists wound it
    // once in ~32 rounds), so it rated charging a Tank above shooting it.
    let one = amc(&["rules.melee_round_cap=1"]);
    let (hw, tank) = (one.profiles[one.find("Heavy Weapons (3)")], one.profiles[one.find("Tank")]);
    let (c, d) = (UnitState::fresh(&hw, 0.0), UnitState::fresh(&tank, 1.0));
    let (g1, _) = crate::rulesets::amc::tactics::doctrine::charge_value(&one, &hw, &c, &tank, &d, Arc::Front);
    let r = amc(&[]);
    let (g20, _) = crate::rulesets::amc::tactics::doctrine::charge_value(&r, &hw, &c, &tank, &d, Arc::Front);
    assert!(g1 > 0.0 && g20 > g1, "{g1} {g20}");
    // 19 later rounds at most, each wounding with P ≤ 1/16 (2+ hits of 3, then 4 failed blocks).
    assert!(g20 < g1 + 19.0 / 16.0 * 150.0 * 0.6, "{g1} {g20}");
    // So Heavy Weapons (3) shoot the Tank with their Mortars rather than charge it.
    assert_eq!(rules::plan(&r, &hw, &c, &tank, &UnitState::fresh(&tank, 12.0), [18.0, 12.0]), rules::Action::Hold);
    assert_eq!(rules::plan(&r, &hw, &c, &tank, &UnitState::fresh(&tank, 24.0), [12.0, 12.0]), rules::Action::Hold);
}

#[test]
fn heavy_weapons_advance_and_shoot_on_their_way_to_charge_artillery() {
    // Issue 15: from 24" the scripted Heavy Weapons (3) rushed to 12" and charged the Artillery,
    // giving up a Mortar volley; Advancing 6" and shooting reaches charge reach one activation
    // later with a volley on the way, which the reach of a plan of approach now counts.
    let r = amc(&[]);
    let (hw, art) = (r.profiles[r.find("Heavy Weapons (3)")], r.profiles[r.find("Artillery")]);
    let me = UnitState::fresh(&hw, 0.0);
    assert_eq!(
        rules::plan(&r, &hw, &me, &art, &UnitState::fresh(&art, 24.0), [12.0, 12.0]),
        rules::Action::Advance(6.0)
    );
    assert_eq!(rules::plan(&r, &hw, &me, &art, &UnitState::fresh(&art, 12.0), [12.0, 12.0]), rules::Action::Charge);
}

/// The doctrine tactic's memo of melee values is one per thread and outlives a ruleset, so it
/// must tell the readings of `vehicle_melee_test` apart: Riflemen (10) charging a Tank valued
/// under `exempt` after the same charge under `tests` on this thread is what a thread that never
/// saw `tests` values it at (it read the `tests` value before the profile's `melee_test` was in
/// the memo's key, and a report's readings section played `exempt` with it).
#[test]
fn the_doctrine_memo_tells_the_vehicle_melee_readings_apart() {
    fn charge(r: &ArmyMenCombat) -> (f64, f64) {
        let (rp, tp) = (r.profiles[r.find("Riflemen (10)")], r.profiles[r.find("Tank")]);
        let (c, d) = (UnitState::fresh(&rp, 0.0), UnitState::fresh(&tp, 1.0));
        crate::rulesets::amc::tactics::doctrine::charge_value(r, &rp, &c, &tp, &d, Arc::Front)
    }
    let exempt = || amc(&["rules.vehicle_melee_test=exempt"]);
    let (e, fresh_thread) = (exempt(), std::thread::spawn(move || charge(&exempt())));
    let tests = charge(&amc(&[]));
    let after = charge(&e);
    let fresh = fresh_thread.join().unwrap();
    assert!(tests.0 > fresh.0, "the Tank's test costs it points: tests {tests:?}, exempt {fresh:?}");
    assert_eq!(after, fresh);
}

/// `[rules] vehicle_melee_test` (docs/rulings/readings.md AMC-1): a vehicle "may not strike
/// back" in melee, so it causes no wounds and loses every round its attacker wounds it. Under
/// `tests` (default) it then takes the loser's 4+ quality test like any unit; under `exempt` it
/// never does, and only the damage rolls of unblocked hits can destroy it. Infantry tests
/// either way. Riflemen (10) charging a Tank destroy it in the first round far more often
/// when the Tank tests.
#[test]
fn a_vehicle_takes_the_melee_losers_test_unless_exempt() {
    use crate::dice::FastDice;
    let (book, exempt) = (amc(&[]), amc(&["rules.vehicle_melee_test=exempt"]));
    let p = |r: &ArmyMenCombat, n: &str| r.profiles[r.find(n)];
    assert_eq!(p(&book, "Tank").p_melee_pass(), 0.5);
    assert_eq!(p(&exempt, "Tank").p_melee_pass(), 1.0);
    assert_eq!(p(&exempt, "Riflemen (10)").p_melee_pass(), 0.5);
    let tank_destroyed = |r: &ArmyMenCombat| {
        let (rp, tp) = (p(r, "Riflemen (10)"), p(r, "Tank"));
        let mut dice = FastDice::from_seed(43);
        (0..4000)
            .filter(|_| {
                let (mut c, mut d) = (UnitState::fresh(&rp, 0.0), UnitState::fresh(&tp, 1.0));
                rules::melee(&mut dice, &rp, &mut c, &tp, &mut d, 1, Arc::Front);
                !d.alive()
            })
            .count() as f64
            / 4000.0
    };
    let (tests, exempt_rate) = (tank_destroyed(&book), tank_destroyed(&exempt));
    assert!(tests > exempt_rate + 0.1, "tests {tests}, exempt {exempt_rate}");
    assert!(exempt_rate > 0.0, "damage rolls still destroy it: {exempt_rate}");
}
