use super::*;
use crate::rulesets::vsgmr::tests::ruleset;

fn names<R: Ruleset>(r: &R) -> Vec<String> {
    r.squad_tactics().iter().map(|t| t.name.to_string()).collect()
}

fn tactic<R: Ruleset>(r: &R, name: &str) -> usize {
    r.squad_tactics().iter().position(|t| t.name == name).expect(name)
}

/// The tactics reach the duel: two squads of Troops (hand to hand only) 12" apart that both
/// `hold` never meet, so every duel is drawn at the round cap with no figure lost; two that
/// both `charge` meet and fight, and most duels are decided.
#[test]
fn squads_that_both_hold_out_of_reach_draw_every_duel_and_squads_that_charge_fight() {
    let r = ruleset();
    let troop = r.find("Troop");
    let plan = RunPlan::fixed(3, 200, 50);
    let squads = Squads::PointsMatched { budget: 12.0 };
    let costs = [r.units()[troop].cost; 2];
    let play =
        |t: &str| simulate_played(&r, troop, troop, costs, 12.0, squads, &plan, SquadPlay::Tactics([tactic(&r, t); 2]));
    let held = play("hold");
    assert_eq!((held.trials, held.draws, held.kills), (200, 200, [0, 0]), "{held:?}");
    let charged = play("charge");
    assert!(charged.draws < 20 && charged.kills[0] + charged.kills[1] > 1000, "{charged:?}");
}

/// A pair where the scripted tactic is exploitable in squads (the squads' rollout best
/// response gains about 47 points there for the Independent vehicle's side, `reports/vsgmr`):
/// the tactic game finds a switch against the scripted tactic whose interval lies above 0, so
/// the equilibrium leaves the scripted tactic; against the equilibrium no switch of either
/// side gains clearly more than its noise.
#[test]
fn the_tactic_game_finds_the_switch_that_exploits_the_scripted_tactic() {
    let r = ruleset();
    let (a, b) = (r.find("Hero with distance attack"), r.find("Independent vehicle"));
    let p = pair_game(&r, (a, b), &names(&r), &RunPlan::fixed(7, 1_000, 100)).unwrap();
    let switch = |s: usize| p.against_scripted[s].clone().expect("the scripted tactic's switches are played");
    let (sa, sb) = (switch(0), switch(1));
    let best = if sa.gain.lo > sb.gain.lo { &sa } else { &sb };
    assert!(best.gain.lo > 0.0, "a clear switch: A {sa:?}, B {sb:?}");
    // So the scripted tactic on both sides is not the equilibrium: a side leaves it.
    assert!(p.game.a_mix[0] < 1.0 || p.game.b_mix[0] < 1.0, "{:?} {:?}", p.game.a_mix, p.game.b_mix);
    for d in p.game.deviations.iter().flatten() {
        assert!(d.gain.lo < 0.05, "no clear switch against the equilibrium: {d:?}");
    }
    // The report's warning names the switch, and the game's largest switch is it.
    let game = SquadsGame {
        budget: 12.0,
        distance: 12.0,
        trials: 1_000,
        seed: 7,
        tactics: names(&r),
        pairs: vec![p.clone()],
        units: Vec::new(),
    };
    let (side, d) = game.largest(true).map(|(_, s, d)| (s, d.clone())).expect("a switch");
    assert_eq!(&d, best);
    // The warning is about the equilibrium, which the report's squads play: none here; a game
    // whose equilibrium that switch exploits is one.
    assert_eq!(warning(&game, "in"), None);
    let mut game = game;
    game.pairs[0].game.deviations[side] = Some(d.clone());
    let named = if side == 0 { "Hero with distance attack" } else { "Independent vehicle" };
    let w = warning(&game, "in").expect("a clear switch of many points is a warning");
    assert!(
        w.message.contains(&format!("{named} to `{}`", d.tactic)) && w.message.contains("in 1 of the 1 pairs"),
        "{}",
        w.message
    );
}

/// Every cell is a fixed run of the engine: the game is the same on one thread and two.
#[test]
fn the_tactic_game_does_not_depend_on_the_thread_count() {
    let r = ruleset();
    let (a, b) = (r.find("Troop with distance attack"), r.find("Hero"));
    let plan = RunPlan::fixed(11, 300, 50);
    let on = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| pair_game(&r, (a, b), &names(&r), &plan).unwrap())
    };
    assert_eq!(on(1), on(2));
}

/// A unit's efficiency reads its pairs from its own side: B's is one less A's value.
#[test]
fn each_unit_reads_its_pairs_from_its_own_side() {
    let mut r = ruleset();
    // A two-unit cost list: the first two units of the shipped list.
    r.book.units.truncate(2);
    r.book.duel.tactic_trials = 200;
    let g = analyse(&r, 5, 50, &ProgressBar::hidden()).unwrap().expect("two tactics or more");
    assert_eq!(g.pairs.len(), 1);
    let v = g.pairs[0].game.value.value;
    assert!((g.units[0].equilibrium.value - v).abs() < 1e-12, "{:?} {v}", g.units[0]);
    assert!((g.units[1].equilibrium.value - (1.0 - v)).abs() < 1e-12, "{:?} {v}", g.units[1]);
    let s = g.pairs[0].scripted().value;
    assert!((g.units[1].scripted.value - (1.0 - s)).abs() < 1e-12, "{:?} {s}", g.units[1]);
    // Without tactic trials, or with one tactic, there is no game.
    r.book.duel.tactic_trials = 0;
    assert_eq!(analyse(&r, 5, 50, &ProgressBar::hidden()), Ok(None));
}

/// The family-wise interval of a switch: the side's own interval (95%, Bonferroni over its
/// three alternatives) read back to its standard error and widened to 95% over every side's
/// alternatives (two pairs: four sides, twelve tests); `exploited` keeps the sides whose
/// family-wise interval lies above 0, and `exploited_pairs` each pair once.
#[test]
fn a_switch_is_clear_only_if_its_family_wise_interval_lies_above_zero() {
    let r = ruleset();
    let z3 = z_for(1.0 - 0.05 / 3.0);
    let switch = |gain: f64, se: f64| Deviation {
        tactic: "keep-out".into(),
        gain: normal(gain, se, 1.0 - 0.05 / 3.0, -1.0, 1.0),
    };
    let p = pair_game(&r, (r.find("Troop"), r.find("Hero")), &names(&r), &RunPlan::fixed(1, 200, 50)).unwrap();
    let mut pairs = vec![p.clone(), p];
    pairs[1].b = "other".into();
    // Pair 1: A gains 0.025 with standard error 0.01, clear alone (0.025 − 2.39 × 0.01 > 0)
    // but not family-wise (over 12 tests z is 2.87: 0.025 − 2.87 × 0.01 < 0); B gains 0.10,
    // clear either way. Pair 2: A gains 0.2.
    pairs[0].against_scripted = [Some(switch(0.025, 0.01)), Some(switch(0.10, 0.01))];
    pairs[1].against_scripted = [Some(switch(0.2, 0.01)), None];
    let g =
        SquadsGame { budget: 12.0, distance: 12.0, trials: 200, seed: 1, tactics: names(&r), pairs, units: Vec::new() };
    let d = g.pairs[0].against_scripted[0].as_ref().unwrap();
    assert!(d.gain.lo > 0.0, "clear on its own: {d:?}");
    let f = g.family_wise(d);
    let z = z_for(1.0 - 0.05 / 12.0);
    assert!((f.hi - f.value - z * 0.01).abs() < 1e-9 && (d.gain.hi - d.gain.value - z3 * 0.01).abs() < 1e-9, "{f:?}");
    assert!(f.lo < 0.0, "not clear family-wise: {f:?}");
    let clear: Vec<(usize, f64)> = g.exploited().iter().map(|(_, s, d)| (*s, d.gain.value)).collect();
    assert_eq!(clear, [(0, 0.2), (1, 0.10)]);
    assert_eq!(g.exploited_pairs().len(), 2);
    let (_, side, best) = g.largest(true).unwrap();
    assert_eq!((side, best.gain.value), (0, 0.2));
}

/// The squads' equilibrium play ([`SquadPlay::Mixed`]): a play that is the scripted tactic on
/// both sides gives the scripted play's tally bit for bit (the same dice stream, no draw); a
/// side B that draws `hold` or `charge` for each duel against an A that holds plays each duel
/// with its draw: two squads of Troops (hand to hand only) that both hold never meet, so every
/// duel in which B drew `hold` is a draw, and only the duels in which it drew `charge` can be
/// decided (some are). The draws are the same on one thread and two.
#[test]
fn a_mixed_play_draws_each_duels_tactics_from_the_mixes() {
    use crate::rulesets::skirmish::{Play, pure_mix};
    let r = ruleset();
    let troop = r.find("Troop");
    let (k, hold, charge) = (r.squad_tactics().len(), tactic(&r, "hold"), tactic(&r, "charge"));
    let plan = RunPlan::fixed(9, 400, 50);
    let squads = Squads::PointsMatched { budget: 12.0 };
    let costs = [r.units()[troop].cost; 2];
    let run = |play: SquadPlay<'_>| simulate_played(&r, troop, troop, costs, 12.0, squads, &plan, play);
    let scripted = Play::pure([0, 0], k);
    assert_eq!(run(SquadPlay::Mixed(&scripted)), run(SquadPlay::Scripted));
    let mut b_mix = vec![0.0; k];
    (b_mix[hold], b_mix[charge]) = (0.5, 0.5);
    let play = Play { mixes: [pure_mix(hold, k), b_mix] };
    let t = run(SquadPlay::Mixed(&play));
    let stream = crate::seed::stream_id(&[r.id(), "points", &r.units()[troop].id, &r.units()[troop].id]);
    let holds = (0..plan.max_trials).filter(|&n| play.draw(plan.seed, stream, n)[1] == hold).count() as u64;
    assert!((100..300).contains(&holds), "about half the duels draw `hold`: {holds}");
    assert!(t.draws >= holds, "every duel in which both hold is a draw: {} draws, {holds} holds", t.draws);
    assert!(t.a_wins + t.b_wins > 0, "some charges are decided: {t:?}");
    let on = |threads| {
        rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap().install(|| run(SquadPlay::Mixed(&play)))
    };
    assert_eq!(on(1), on(2));
}

/// The points-matched matrix plays each pair's equilibrium mixes where the settings carry them
/// (`AnalysisSettings::squad_mixes`), seen from either side, and the mirrors the scripted
/// tactic; without mixes every cell is the scripted tactic's.
#[test]
fn the_points_matched_matrix_plays_the_pairs_mixes() {
    use crate::analysis::matrix::{AnalysisSettings, compute_matrix};
    use crate::rulesets::engine::SquadMixes;
    use crate::rulesets::skirmish::Play;
    use crate::sim::duel::simulate;
    let mut r = ruleset();
    r.book.units.truncate(2);
    let k = r.squad_tactics().len();
    let mut s = AnalysisSettings::from_ruleset(&r, 4);
    (s.max_trials, s.fixed_trials, s.batch_size) = (300, true, 50);
    let squads = Squads::PointsMatched { budget: s.budget };
    let play = Play::pure([tactic(&r, "keep-out"), tactic(&r, "charge")], k);
    let mixes = SquadMixes::new(vec![((0, 1), play.clone())]);
    assert_eq!(mixes.play(1, 0), Some(Play { mixes: [play.mixes[1].clone(), play.mixes[0].clone()] }));
    assert_eq!(mixes.play(0, 0), None);
    let plan = RunPlan::fixed(4, 300, 50);
    let costs = [r.units()[0].cost, r.units()[1].cost];
    let cell = |m: &crate::analysis::Matrix, i: usize, j: usize| m.cells[i][j].a_score.value;
    let scripted = compute_matrix(&r, &s, squads, String::new(), &ProgressBar::hidden());
    let t = simulate(&r, 0, 1, s.distance, squads, &plan);
    assert_eq!(scripted.tallies[0][1].as_ref(), Some(&t));
    s.squad_mixes = Some(std::sync::Arc::new(mixes));
    let mixed = compute_matrix(&r, &s, squads, String::new(), &ProgressBar::hidden());
    let t = simulate_played(&r, 0, 1, costs, s.distance, squads, &plan, SquadPlay::Mixed(&play));
    assert_eq!(mixed.tallies[0][1].as_ref(), Some(&t));
    assert!((cell(&mixed.matrix, 1, 0) - (1.0 - cell(&mixed.matrix, 0, 1))).abs() < 1e-12);
    assert_ne!(cell(&mixed.matrix, 0, 1), cell(&scripted.matrix, 0, 1), "the mixes change the cell");
    for i in 0..2 {
        assert_eq!(mixed.tallies[i][i], scripted.tallies[i][i], "a mirror plays the scripted tactic");
    }
}
