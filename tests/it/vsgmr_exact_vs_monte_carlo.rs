//! VSGMR v7: for every pair (a ≤ b, mirrors included) of the config's templates and of a list
//! covering the traits the exact solver takes (in base contact, at one Distance Attack Unit
//! and at Sniper range), under both turn sequences, Monte Carlo agrees with the exact chain:
//! all comparisons of a run (win, loss and draw rates, mean rounds) are one family at
//! family-wise level 0.001 (Holm), so any seed passes a correct engine; every other pair is
//! refused for a documented reason. Monte Carlo results
//! for a seed are identical on 1 and 2 threads; the CLI prints the cost audit.

use crate::common;

use assert_cmd::Command;
use common::{Family, compare, replicated, seeds};
use pointsworth::config::{Overrides, Source};
use pointsworth::rulesets::Ruleset;
use pointsworth::rulesets::vsgmr::rules::figure::{Armor, Figure, Kind, Power, Trait};
use pointsworth::rulesets::vsgmr::{Sequence, Vsgmr};
use pointsworth::sim::RunPlan;
use pointsworth::sim::duel::{Squads, simulate};

fn load() -> Vsgmr {
    let src = Source::read(std::path::Path::new("configs/vsgmr.toml")).unwrap();
    Vsgmr::from_source(&src, &Overrides::default()).unwrap()
}

fn fig(kind: Kind, f: impl Fn(&mut Figure)) -> (String, Figure) {
    let mut x = Figure::base(kind);
    f(&mut x);
    (x.describe(), x)
}

fn templates() -> Vec<(String, Figure)> {
    let shoot = |t: Option<Trait>| {
        fig(Kind::Troop, move |f| {
            f.distance_attack = true;
            if let Some(t) = t {
                f.traits = t.bit();
            }
        })
    };
    vec![
        fig(Kind::Troop, |_| {}),
        shoot(None),
        fig(Kind::Troop, |f| {
            f.distance_attack = true;
            f.automatic_fire = true
        }),
        fig(Kind::Hero, |f| f.armor = Armor::Heavy),
        fig(Kind::Mook, |f| f.distance_attack = true),
        shoot(Some(Trait::Sharpshooter)),
        shoot(Some(Trait::Stealth)),
        shoot(Some(Trait::AreaEffectAttack)),
        shoot(Some(Trait::Sniper)),
        shoot(Some(Trait::Revenge)),
        shoot(Some(Trait::Support)),
        fig(Kind::Troop, |f| {
            f.distance_attack = true;
            f.traits = Trait::IgnoresArmor.bit()
        }),
        fig(Kind::Troop, |f| {
            f.armor = Armor::Light;
            f.traits = Trait::Tough.bit()
        }),
        fig(Kind::Troop, |f| f.traits = Trait::DoubleStrike.bit()),
        fig(Kind::Troop, |f| f.traits = Trait::Recruit.bit() | Trait::Revenge.bit()),
        fig(Kind::Hero, |f| f.traits = Trait::CombatMaster.bit()),
        fig(Kind::Vehicle, |f| {
            f.distance_attack = true;
            f.traits = Trait::Independent.bit()
        }),
        fig(Kind::Hero, |f| {
            f.distance_attack = true;
            f.powers[Power::SuperMove as usize] = 2;
            f.powers[Power::SuperBlast as usize] = 1
        }),
        fig(Kind::Troop, |f| {
            f.armor = Armor::Light;
            f.powers[Power::SuperArmor as usize] = 2
        }),
    ]
}

/// The exact solver refuses a duel only for the reasons its module documents, naming one of
/// the two figures: it must move to attack, it closes into base contact, it can be struck by fear, its super power can
/// knock the target back, or it has Inspiration.
fn assert_documented_refusal(message: &str, names: [&str; 2]) {
    let documented = names.iter().any(|n| {
        [
            format!("{n} must move to attack"),
            format!("{n} closes into base contact (a better exchange than at range)"),
            format!("{n} can be struck by fear (it then moves away)"),
            format!("{n}'s super power can knock its target back"),
            format!("{n} has Inspiration (a reroll policy over the round)"),
            format!("{n} moves to keep or close its distance (the default tactic)"),
        ]
        .contains(&message.to_string())
    });
    assert!(documented, "{} v {}: undocumented refusal {message:?}", names[0], names[1]);
}

/// Checks every pair (a ≤ b) with an exact solution at `distances`, `reps` × `per_rep` duels
/// each, as one family (the others must be refused for a documented reason); returns how many
/// pairs were checked.
fn check_all(r: &Vsgmr, distances: &[f64], seed: u64, reps: u64, per_rep: u64) -> usize {
    let n = r.units().len();
    let mut family = Family::new();
    let mut checked = 0;
    for &d in distances {
        for a in 0..n {
            for b in a..n {
                let exact = match r.exact_duel(a, b, d) {
                    Ok(exact) => exact,
                    Err(e) => {
                        assert_documented_refusal(&e.0, [&r.units()[a].name, &r.units()[b].name]);
                        continue;
                    }
                };
                let (t, rounds) = replicated(r, a, b, d, seed, reps, per_rep);
                let label = format!("{} v {} at {d} in, seed {seed}", r.units()[a].name, r.units()[b].name);
                compare(&mut family, &label, &t, &rounds, &exact);
                checked += 1;
            }
        }
    }
    family.assert_holds();
    checked
}

/// The templates under both turn sequences. Monte Carlo under the phased default agrees with
/// the exact chain for every pair the chain takes, moving figures included: 1 500 duels a
/// pair, 279 pairs (1 116 comparisons) a family. "Everyone Acts" (alternating single figures)
/// orders the two figures of a one-against-one duel as the phased default does, so its Monte
/// Carlo duels are the phased ones draw for draw: every pair at every distance, exact or not,
/// gives the identical tally (300 duels a pair in three batches: the claim is equality draw for
/// draw, which a few hundred duels of every pair test as well as thousands), and the exact
/// chain, which has no sequence, checks both.
#[test]
fn monte_carlo_agrees_with_exact_for_every_stand_up_pair_under_each_sequence() {
    let phased = load().with_templates(&templates());
    assert_eq!(phased.book.rules.sequence, Sequence::Phased);
    let mut everyone = phased.clone();
    everyone.book.rules.sequence = Sequence::EveryoneActs;
    let distances = [1.0, 12.0, 20.0];
    for seed in seeds(&[7]) {
        let checked = check_all(&phased, &distances, seed, 10, 150);
        assert!(checked >= 150, "only {checked} exact duels");
        let n = phased.units().len();
        let plan = RunPlan::fixed(seed, 300, 100);
        for &d in &distances {
            for a in 0..n {
                for b in a..n {
                    let one = simulate(&phased, a, b, d, Squads::One, &plan);
                    assert_eq!(one, simulate(&everyone, a, b, d, Squads::One, &plan), "{a} v {b} at {d} in");
                    assert_eq!(one.trials, 300);
                }
            }
        }
    }
}

/// The config's own templates: all 105 pairs in base contact and at 12", the figures moving
/// as the default tactic says (the exact chain follows them on the 1" grid of the 48" duel
/// table, the Monte Carlo duel on the same line). 1 500 duels a pair.
#[test]
fn monte_carlo_agrees_with_exact_for_every_pair_of_the_config() {
    let r = load();
    assert_eq!(r.units().len(), 14);
    for seed in seeds(&[7]) {
        assert_eq!(check_all(&r, &[1.0, 12.0], seed, 10, 150), 2 * 105);
    }
}

/// The bound holds for any seed, not one lucky seed: three more, at a lighter load.
#[test]
fn monte_carlo_agrees_with_exact_on_other_seeds() {
    let r = load().with_templates(&templates());
    for seed in [1, 77, 31_337] {
        assert!(check_all(&r, &[12.0], seed, 10, 100) >= 30);
    }
}

#[test]
fn both_sequences_give_identical_results_on_one_and_two_threads() {
    for seq in [Sequence::Phased, Sequence::EveryoneActs] {
        let mut r = load();
        r.book.rules.sequence = seq;
        let (a, b) = (r.find("troop-with-distance-attack"), r.find("troop-combat-master"));
        let plan = RunPlan { seed: 9, batch_size: 256, min_trials: 2048, max_trials: 8000, target_error: Some(0.01) };
        let run = |threads: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| simulate(&r, a, b, 24.0, Squads::PointsMatched { budget: 12.0 }, &plan))
        };
        let one = run(1);
        assert_eq!(one, run(2));
        assert!(one.a_wins + one.b_wins > 0);
    }
}

#[test]
fn rules_vsgmr_prints_the_coverage_and_the_cost_audit() {
    let out = Command::cargo_bin("pointsworth").unwrap().args(["rules", "vsgmr"]).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(text.contains("Very Simple Generic Miniatures Rules v7: rules coverage"), "{text}");
    assert!(text.contains("Weapon Master") && text.contains("Combat Master"), "{text}");
    assert!(text.contains("printed as 9 figures"), "{text}");
    assert!(text.contains("lint: 3 finding(s)"), "{text}");
}
