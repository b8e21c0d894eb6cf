//! VSGMR Skirmish (issue 6 item 6): scripted games for the phase order, cover, the 5-round end
//! and the points-destroyed victory; determinism across thread counts; the round robin's
//! bookkeeping.

use pointsworth::analysis::engine::AnalysisEngine;
use pointsworth::battle::{Pos, Wall};
use pointsworth::config::{Overrides, Source};
use pointsworth::dice::ScriptedDice;
use pointsworth::rulesets::vsgmr::rules::figure::{Figure, Kind, Trait};
use pointsworth::rulesets::vsgmr::skirmish::{Field, Game, Matchup, Roster, SkirmishConfig, simulate, victor};
use pointsworth::rulesets::vsgmr::study::round_robin::round_robin;
use pointsworth::rulesets::vsgmr::{Vsgmr, rules};

fn base() -> Vsgmr {
    let src = Source::read(std::path::Path::new("configs/vsgmr.toml")).unwrap();
    Vsgmr::from_source(&src, &Overrides::default()).unwrap()
}

fn troop() -> Figure {
    Figure::base(Kind::Troop)
}

fn shooter() -> Figure {
    let mut f = Figure::base(Kind::Troop);
    f.distance_attack = true;
    f
}

/// A ruleset over the given templates, in order.
fn with(figs: &[Figure]) -> Vsgmr {
    let list: Vec<(String, Figure)> = figs.iter().enumerate().map(|(k, f)| (format!("T{k}"), f.clone())).collect();
    base().with_templates(&list)
}

fn one(unit: usize) -> Roster {
    Roster { name: format!("one T{unit}"), units: vec![(unit, 1)], rides: vec![] }
}

fn open_table(gap: f32) -> SkirmishConfig {
    SkirmishConfig { cover_pieces: 0, gap, ..SkirmishConfig::default() }
}

#[test]
fn casualties_are_immediate_the_first_player_shoots_first() {
    // Two shooters 12" apart (both in range, both hold). Initiative A 1, B 6: B goes first,
    // rolls 5 (hit, no armor: defeated); A's shooter falls before it can shoot.
    let r = with(&[shooter()]);
    let cfg = open_table(12.0);
    let mut g = Game::new(&r, &cfg);
    g.deploy([&one(0), &one(0)], Vec::new());
    let mut dice = ScriptedDice::new(&[1, 6, 5]);
    let out = g.play(&mut dice);
    assert!(dice.exhausted(), "A's fallen shooter rolled no attack");
    assert_eq!(out.winner, Some(1));
    assert_eq!(out.rounds, 1, "the game ends when a side has no figure left");
    assert_eq!(out.destroyed, [0.0, 2.0], "a troop with a distance attack is worth 2 points");
}

#[test]
fn all_movement_comes_before_any_distance_attack() {
    // A: a hand-to-hand troop 18" from B's shooter. A goes first (6 vs 1) and moves 6" into
    // the shooter's 12" range; B's shooter then moves the least that brings A into range:
    // nothing (12" left), it holds. Then the distance-attack step: B shoots (5, hit) and
    // defeats A's troop.
    let r = with(&[troop(), shooter()]);
    let cfg = open_table(18.0);
    let mut g = Game::new(&r, &cfg);
    g.deploy([&one(0), &one(1)], Vec::new());
    let b_start = (g.b.figs[1].x, g.b.figs[1].y);
    let a_start_y = g.b.figs[0].y;
    let mut dice = ScriptedDice::new(&[6, 1, 5]);
    g.b.round = 1;
    g.play_round(&mut dice);
    assert!(dice.exhausted());
    assert!((g.b.figs[0].y - (a_start_y + 6.0)).abs() < 1e-3, "A's troop moved a full Move Unit first");
    assert_eq!((g.b.figs[1].x, g.b.figs[1].y), b_start, "B's shooter held: A had already come into range");
    assert!(!g.b.figs[0].alive, "B shot after all movement");
    assert_eq!(g.destroyed(), [0.0, 1.0]);
}

#[test]
fn cover_makes_a_distance_attack_need_six() {
    // Same duel as the first test, with a wall just in front of A's shooter: B's 5 misses,
    // A's 5 (a wall-free line) hits.
    let r = with(&[shooter()]);
    let cfg = open_table(12.0);
    let mut g = Game::new(&r, &cfg);
    g.deploy([&one(0), &one(0)], Vec::new());
    let a = Pos::new(g.b.figs[0].x, g.b.figs[0].y);
    // A 6" wall across the line of fire, 0.5" in front of A (toward B, larger y).
    let wall = Wall { a: Pos::new(a.x - 3.0, a.y + 0.5), b: Pos::new(a.x + 3.0, a.y + 0.5), intact: true };
    g.deploy([&one(0), &one(0)], vec![wall]);
    assert!(g.b.in_cover(1, 0), "A is behind the wall as seen from B");
    assert!(!g.b.in_cover(0, 1), "the wall is 11.5\" from B: no cover for B");
    // The shots from where they stand (the default tactic would move them: between even
    // shooters the first mover closes in, rules::wanted_gap).
    g.b.round = 1;
    let mut dice = ScriptedDice::new(&[5, 5]);
    rules::distance_attack(&r, &mut g.b, &mut dice, 1);
    assert!(g.b.figs[0].alive, "B's 5 missed the covered shooter");
    rules::distance_attack(&r, &mut g.b, &mut dice, 0);
    assert!(dice.exhausted() && !g.b.figs[1].alive, "A's 5 hit");
    assert_eq!(g.destroyed(), [2.0, 0.0]);
    // A 6 hits even in cover.
    g.deploy([&one(0), &one(0)], vec![wall]);
    g.b.round = 1;
    let mut dice = ScriptedDice::new(&[6]);
    rules::distance_attack(&r, &mut g.b, &mut dice, 1);
    assert!(dice.exhausted() && !g.b.figs[0].alive);
}

#[test]
fn the_game_ends_after_five_rounds_and_equal_points_is_a_draw() {
    // Cavalry without a rider cannot move or attack: five rounds of initiative and nothing
    // else, nobody destroys anything.
    let r = with(&[Figure::base(Kind::Cavalry)]);
    let cfg = open_table(12.0);
    let mut g = Game::new(&r, &cfg);
    g.deploy([&one(0), &one(0)], Vec::new());
    // Round 3's initiative ties once (4, 4) and is re-rolled.
    let mut dice = ScriptedDice::new(&[6, 1, 2, 3, 4, 4, 5, 1, 1, 2, 3, 6]);
    let out = g.play(&mut dice);
    assert!(dice.exhausted(), "exactly five rounds of initiative were rolled");
    assert_eq!(out.rounds, 5);
    assert_eq!(out.winner, None);
    assert_eq!(out.destroyed, [0.0, 0.0]);
}

#[test]
fn victory_goes_to_more_enemy_points_destroyed() {
    assert_eq!(victor([3.0, 2.0]), Some(0));
    assert_eq!(victor([2.0, 2.5]), Some(1));
    assert_eq!(victor([2.0, 2.0]), None);
    // Points, not figures: A destroys one 2-point shooter, B two 1/2-point mooks... and one
    // troop; B has destroyed 2 figures worth 1.5 against A's 1 figure worth 2: A wins.
    let r = with(&[shooter(), Figure::base(Kind::Mook), troop()]);
    let cfg = open_table(12.0);
    let mut g = Game::new(&r, &cfg);
    let a = Roster { name: "A".into(), units: vec![(1, 1), (2, 1)], rides: vec![] };
    let b = one(0);
    g.deploy([&a, &b], Vec::new());
    g.b.figs[0].alive = false; // A's mook (1/2)
    g.b.figs[1].alive = false; // A's troop (1)
    assert_eq!(g.destroyed(), [0.0, 1.5]);
    g.b.figs[2].alive = false; // B's shooter (2)
    assert_eq!(g.destroyed(), [2.0, 1.5]);
    assert_eq!(victor(g.destroyed()), Some(0));
    // A recruited figure counts as destroyed for the side that recruited it.
    g.b.figs[2].alive = true;
    g.b.figs[2].side = 0;
    assert_eq!(g.destroyed(), [2.0, 1.5]);
}

#[test]
fn tallies_are_identical_on_one_and_two_threads() {
    let r = base();
    let field = Field::new(&r);
    let cfg = SkirmishConfig { batch_size: 7, ..r.skirmish.clone() };
    let pb = indicatif::ProgressBar::hidden();
    let run = |threads: usize, m: Matchup| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| simulate(&AnalysisEngine, &field, &cfg, m, 42, 60, &pb))
    };
    let fixed = Matchup::Fixed([&field.samples[0], &field.samples[1]]);
    for m in [Matchup::Random, fixed] {
        let (one, two) = (run(1, m), run(2, m));
        assert_eq!(one, two);
        assert_eq!(one.games, 60);
        assert_eq!(one.wins[0] + one.wins[1] + one.draws, 60);
    }
}

#[test]
fn random_armies_are_legal_and_the_round_robin_adds_up() {
    let r = base();
    let field = Field::new(&r);
    let cfg = r.skirmish.clone();
    let mut dice = pointsworth::dice::FastDice::from_seed(7);
    for _ in 0..200 {
        let a = field.random_roster(&cfg, &mut dice);
        let p = a.points(&field.r);
        assert!(p <= cfg.random_max as f64 + 1e-9 && p >= cfg.random_min as f64 - 1.0, "{p}");
        // Section IV "Commander": one named hero Commander (heavy armor free), then templates.
        let (&(c, n), rest) = a.units.split_last().unwrap();
        assert!(field.commanders.contains(&c) && n == 1, "{a:?}");
        assert!(field.r.figures[c].commander && field.r.figures[c].kind == Kind::Hero);
        assert!(rest.iter().all(|&(u, _)| u < field.templates), "{a:?}");
    }
    let mut two = field.clone();
    two.samples.truncate(3);
    let rr = round_robin(&AnalysisEngine, &two, &cfg, 1, 20, &indicatif::ProgressBar::hidden());
    assert_eq!(rr.armies.len(), 3);
    for a in &rr.armies {
        assert_eq!(a.games, 2 * 2 * 20, "two opponents, 20 games each way round");
        // The win rate counts wins only (a draw is no win), with the reports' Wilson interval.
        assert_eq!(a.win_rate, pointsworth::stats::wilson(a.wins as f64, a.games as f64, 0.95), "{}", a.name);
    }
    let total_wins: u64 = rr.armies.iter().map(|a| a.wins).sum();
    let total_draws: u64 = rr.armies.iter().map(|a| a.draws).sum();
    assert_eq!(total_wins + total_draws / 2, 3 * 2 * 20, "every game has one winner or is a draw for both");
}

/// Section II.2: "Anything that moves off the playing surface cannot return": a figure
/// frightened off the table (section V "Cause Fear") is out of the game and counts as destroyed.
#[test]
fn a_figure_frightened_off_the_table_is_out_of_the_game() {
    let mut fear = troop();
    fear.traits = Trait::CauseFear.bit();
    let r = with(&[shooter(), fear]);
    let cfg = open_table(12.0);
    let mut g = Game::new(&r, &cfg);
    g.deploy([&one(0), &one(1)], Vec::new());
    g.b.round = 1;
    // A's shooter stands 2" from its own edge (y = 0): fear drives it 6" back, off the table.
    (g.b.figs[0].x, g.b.figs[0].y) = (36.0, 2.0);
    (g.b.figs[1].x, g.b.figs[1].y) = (36.0, 12.0);
    rules::cause_fear(&r, &mut g.b, 0, 1);
    assert!(!g.b.figs[0].alive);
    assert_eq!(g.destroyed(), [0.0, 2.0]);
}

/// Section II.2: "A figure cannot move through a barrier like a wall or fence"; a figure with
/// Flight passes over obstacles like walls (section V "Flight").
#[test]
fn walls_block_movement_but_not_flight() {
    let mut flier = troop();
    flier.traits = Trait::Flight.bit();
    let r = with(&[troop(), flier]);
    let cfg = open_table(12.0);
    let wall = Wall { a: Pos::new(30.0, 13.0), b: Pos::new(42.0, 13.0), intact: true };
    for (unit, crosses) in [(0, false), (1, true)] {
        let mut g = Game::new(&r, &cfg);
        g.deploy([&one(unit), &one(0)], vec![wall]);
        g.b.round = 1;
        (g.b.figs[0].x, g.b.figs[0].y) = (36.0, 10.0);
        (g.b.figs[1].x, g.b.figs[1].y) = (36.0, 22.0);
        rules::move_figure(&r, &mut g.b, 0);
        let end = Pos::new(g.b.figs[0].x, g.b.figs[0].y);
        assert!((end.dist(Pos::new(36.0, 10.0)) - 6.0).abs() < 1e-3, "a full move: {end:?}");
        assert_eq!(wall.crosses(Pos::new(36.0, 10.0), end), crosses, "unit {unit}: {end:?}");
    }
}
