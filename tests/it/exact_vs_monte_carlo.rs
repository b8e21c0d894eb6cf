//! Every Guns 'N Grenades pair that can fight a stand-up duel: Monte Carlo agrees with the
//! exact Markov-chain solution. Every comparison of a run (win, loss and draw rates, mean
//! turns) is one family, tested at family-wise level 0.001 (Holm), so a correct engine passes
//! on any seed: `POINTSWORTH_TEST_SEEDS=5,6,7 cargo test --test it exact_vs_monte_carlo::`.

use crate::common;

use common::{Family, compare, replicated, seeds};
use pointsworth::config::{Overrides, Source};
use pointsworth::rulesets::Ruleset;
use pointsworth::rulesets::gng::GunsNGrenades;
use pointsworth::rulesets::gng::exact::stand_up_duel;

fn load(sets: &[&str]) -> GunsNGrenades {
    let src = Source::read(std::path::Path::new("configs/guns-n-grenades.toml")).unwrap();
    let ov = Overrides::parse(&sets.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap();
    GunsNGrenades::from_source(&src, &ov).unwrap()
}

/// The documented refusal of the exact solver for `a` against `b` at `d` inches, if any (its
/// module docs): the first unit of the pair that is out of range or inside its minimum range
/// (the duel needs movement), or whose blast reaches itself (`self_blast = "caught"`); else
/// infantry that walks inside the other's blast.
fn refusal(r: &GunsNGrenades, a: usize, b: usize, d: f64) -> Option<String> {
    let per_unit = [a, b].into_iter().find_map(|u| {
        let (p, name) = (r.profile(u), &r.units()[u].name);
        let x = d as f32;
        if x > p.range + 1e-3 || x + 1e-3 < p.min_range {
            Some(format!(
                "{name} cannot attack at {d} in (range {}–{} in): the duel needs movement",
                p.min_range, p.range
            ))
        } else if p.blasts_itself && x <= p.blast + 1e-3 {
            Some(format!("{name}'s {} in blast reaches itself at {d} in", p.blast))
        } else {
            None
        }
    });
    // Infantry that walks inside a vehicle's or Artillery's blast (`rules::hug`) moves.
    per_unit.or_else(|| {
        (!pointsworth::rulesets::gng::rules::is_stand_up(r.profile(a), r.profile(b), d as f32))
            .then(|| format!("at {d} in one unit walks inside the other's blast: the duel needs movement"))
    })
}

/// Checks all stand-up pairs at the given distances with `reps` × `per_rep` duels each, as one
/// family, and that every other pair is refused for its documented reason ([`refusal`]);
/// returns how many pairs were checked.
fn check_all(r: &GunsNGrenades, distances: &[f64], seed: u64, reps: u64, per_rep: u64) -> usize {
    let n = r.units().len();
    let mut family = Family::new();
    let mut checked = 0;
    for &d in distances {
        for a in 0..n {
            for b in a..n {
                let exact = match (stand_up_duel(r, a, b, d), refusal(r, a, b, d)) {
                    (Ok(exact), None) => exact,
                    (Err(e), Some(want)) => {
                        assert_eq!(e.0, want);
                        continue;
                    }
                    (got, want) => panic!("{a} v {b} at {d} in: solver gave {got:?}, the documented rule {want:?}"),
                };
                let (t, turns) = replicated(r, a, b, d, seed, reps, per_rep);
                let label = format!("{} v {} at {d} in, seed {seed}", r.units()[a].name, r.units()[b].name);
                compare(&mut family, &label, &t, &turns, &exact);
                checked += 1;
            }
        }
    }
    family.assert_holds();
    checked
}

#[test]
fn monte_carlo_agrees_with_exact_for_every_stand_up_pair() {
    let r = load(&[]);
    // 6" reaches every unit without a minimum range; 8" and 10" bring in the Machine Gunner
    // and Mortar; 14" only the longest ranges. 20 000 duels a pair (GnG duels are cheap): over
    // the 640 comparisons (160 pairs) Holm flags one 4.8 standard errors off, 1.7 points of a
    // rate at most (the variants' families, under 1 000 comparisons each, alike).
    for seed in seeds(&[2026]) {
        let checked = check_all(&r, &[2.0, 6.0, 8.0, 10.0, 14.0], seed, 40, 500);
        assert!(checked >= 100, "only {checked} stand-up pairs checked");
    }
}

/// Each rule variant that enters a stand-up duel on its own, and both together: Fast Shot's
/// re-roll of the whole opposed roll (`fast_shot = "both_dice"`), the Quick Reference
/// stat lines (`stat_source = "quick_reference"`), a blast that spares its firer
/// (`self_blast = "spared"`: the Tank and Artillery then stand up at 1" and 2" too) and Tough
/// absorbing the first hit whole (`tough = "first_hit_absorbed"`: Riflemen against Deadly
/// units, the Tank and Artillery). (`medic_heals` and `activations_per_turn` do not enter a
/// one-against-one duel: a medic heals squad-mates, and one unit a side activates once a
/// turn.) All pairs at seven distances, one family per variant.
#[test]
fn monte_carlo_agrees_with_exact_under_each_variant_and_both() {
    let variants: [&[&str]; 5] = [
        &["rules.fast_shot=both_dice"],
        &["rules.stat_source=quick_reference"],
        &["rules.fast_shot=both_dice", "rules.stat_source=quick_reference"],
        &["rules.self_blast=spared"],
        &["rules.tough=first_hit_absorbed", "rules.self_blast=spared"],
    ];
    for sets in variants {
        let r = load(sets);
        for seed in seeds(&[2026]) {
            // 12" too: the Quick Reference Snipers reach 12".
            let checked = check_all(&r, &[1.0, 2.0, 6.0, 8.0, 10.0, 12.0, 14.0], seed, 40, 500);
            assert!(checked >= 100, "{sets:?}: only {checked} stand-up pairs checked");
        }
    }
}

/// The bound holds for any seed, not one lucky seed: three more, at a lighter load.
#[test]
fn monte_carlo_agrees_with_exact_on_other_seeds() {
    let r = load(&[]);
    for seed in [1, 77, 31_337] {
        assert!(check_all(&r, &[6.0], seed, 20, 250) >= 40);
    }
}

#[test]
fn the_stand_up_chain_refuses_duels_that_need_movement_and_the_scripted_chain_takes_them() {
    let r = load(&[]);
    let rifle = r.find_unit("riflemen").unwrap();
    let mortar = r.find_unit("mortar").unwrap();
    let e = stand_up_duel(&r, rifle, mortar, 12.0).unwrap_err();
    assert!(e.0.contains("Riflemen cannot attack at 12"), "{e}");
    let e = stand_up_duel(&r, rifle, mortar, 6.0).unwrap_err();
    assert!(e.0.contains("Mortar cannot attack"), "{e}");
    // The duel's exact value comes from the scripted chain instead; beyond the 36" table, or
    // off the ½" grid, there is none, and the stand-up chain's reason is given.
    assert!(r.exact_duel(rifle, mortar, 12.0).is_ok());
    let e = r.exact_duel(rifle, mortar, 40.0).unwrap_err();
    assert!(e.0.contains("Riflemen cannot attack at 40"), "{e}");
    let off = load(&["unit.mortar.range=24.3"]);
    assert!(off.exact_duel(rifle, mortar, 12.0).is_err());
}

/// Every pair that needs movement at the report's 12" and at 4", 20" and 30": Monte Carlo
/// agrees with the scripted tactic's exact chain on the ½" grid (win, loss, draw rates and mean
/// turns, one family at level 0.001, Holm), for every such pair the chain answers (those whose
/// scripted moves the grid does not clip: most of them).
#[test]
fn monte_carlo_agrees_with_the_scripted_chain_for_every_pair_that_moves() {
    let r = load(&[]);
    let n = r.units().len();
    for seed in seeds(&[2026]) {
        let mut family = Family::new();
        let mut checked = 0;
        for d in [4.0, 12.0, 20.0, 30.0] {
            for a in 0..n {
                for b in a..n {
                    if stand_up_duel(&r, a, b, d).is_ok() {
                        continue;
                    }
                    // A pair whose scripted move the grid clips has no exact value: Monte Carlo.
                    let Ok(exact) = r.exact_duel(a, b, d) else { continue };
                    let (t, turns) = replicated(&r, a, b, d, seed, 20, 500);
                    let label = format!("{} v {} at {d} in, seed {seed}", r.units()[a].name, r.units()[b].name);
                    compare(&mut family, &label, &t, &turns, &exact);
                    checked += 1;
                }
            }
        }
        family.assert_holds();
        assert!(checked >= 100, "only {checked} moving pairs checked");
    }
}

#[test]
fn exact_matches_a_hand_computed_duel() {
    // Tank (ATK +6, 3 damage) against Snipers (DEF +1, 3 stages): one hit kills. Snipers
    // (ATK +5) against the Tank (DEF +4) need three hits. At 9" the Snipers cannot walk inside
    // the Tank's 1½" blast (7½" > their 6" Walk), so both stand (Light Infantry, Walk 7", would).
    let r = load(&[]);
    let tank = r.find_unit("tank").unwrap();
    let light = r.find_unit("snipers").unwrap();
    let e = r.exact_duel(tank, light, 9.0).unwrap();
    let p = pointsworth::dice::opposed_d6(6, 1, None); // tank hits
    let q = pointsworth::dice::opposed_d6(5, 4, None); // snipers hit
    // Light Infantry wins only by hitting 3 times before the tank hits once.
    // With the tank first: P(LI wins) = Σ over sequences... computed by the chain below.
    let mut li_wins_tank_first = 0.0;
    let mut li_wins_li_first = 0.0;
    // P(LI lands its 3rd hit on its k-th attack with the tank missing every attack before):
    for k in 3..400 {
        let ways = ((k - 1) * (k - 2) / 2) as f64; // choose 2 earlier hits among k-1 attacks
        let li = ways * q.powi(3) * (1.0 - q).powi(k as i32 - 3);
        li_wins_tank_first += li * (1.0 - p).powi(k as i32); // tank misses k times first
        li_wins_li_first += li * (1.0 - p).powi(k as i32 - 1);
    }
    let expect = 0.5 * (li_wins_tank_first + li_wins_li_first);
    assert!((e.b_wins - expect).abs() < 1e-12, "{} vs {expect}", e.b_wins);
}

/// The family-wise machinery itself, on hand-computed cases.
#[test]
fn family_p_values_and_holm_match_hand_computation() {
    use common::family::{binomial_p_value, mean_p_value};
    // 10 heads in 10 fair tosses: 2 · 2⁻¹⁰; 5 of 10 is the middle (p = 1).
    assert!((binomial_p_value(10, 10, 0.5) - 2.0 / 1024.0).abs() < 1e-12);
    assert_eq!(binomial_p_value(5, 10, 0.5), 1.0);
    // An impossible outcome observed: p = 0; a certain one: p = 1.
    assert_eq!(binomial_p_value(1, 100, 0.0), 0.0);
    assert_eq!(binomial_p_value(0, 100, 0.0), 1.0);
    assert_eq!(binomial_p_value(100, 100, 1.0), 1.0);
    // Replicates 1..5: mean 3, se = sqrt(2.5 / 5); t = 2.776445 with 4 df is the 5% point.
    let xs = [1.0, 2.0, 3.0, 4.0, 5.0];
    assert!((mean_p_value(&xs, 3.0) - 1.0).abs() < 1e-12);
    assert!((mean_p_value(&xs, 3.0 + 2.776445 * (0.5f64).sqrt()) - 0.05).abs() < 1e-5);
    assert_eq!(mean_p_value(&[1.0, 1.0, 1.0], 1.0), 1.0);
    assert_eq!(mean_p_value(&[1.0, 1.0, 1.0], 1.5), 0.0);
    // Holm at 0.001 over four: 0.00002 ≤ 0.001/4, 0.0001 ≤ 0.001/3, then 0.01 > 0.001/2 stops.
    let mut f = Family::new();
    for (i, p) in [0.01, 0.0001, 0.5, 0.00002].into_iter().enumerate() {
        f.p_value(format!("c{i}"), p);
    }
    let rejected: Vec<String> = f.rejected(0.001).into_iter().map(|c| c.0).collect();
    assert_eq!(rejected, ["c3", "c1"]);
    assert_eq!(f.len(), 4);
}
