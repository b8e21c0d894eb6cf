use super::*;
use crate::battle::Wall;
use crate::dice::{FastDice, ScriptedDice};
use crate::rulesets::gunplay::tests::ruleset;

fn wall(x0: f32, x1: f32, y: f32) -> Wall {
    Wall { a: Pos::new(x0, y), b: Pos::new(x1, y), intact: true }
}

#[test]
fn cover_from_walls() {
    let r = ruleset(Cover::Open);
    let mut g = Skirmish::new(&r, &r.skirmish);
    g.table.walls.push(wall(20.0, 26.0, 24.0));
    let shooter = Pos::new(23.0, 4.0);
    // Just behind the wall (0.75"): lots of cover, as in the rulebook's firing example.
    assert_eq!(g.cover_of(shooter, Pos::new(23.0, 24.75)), Cover::Lots);
    // Far behind it: the wall still hides part of the figure: some cover.
    assert_eq!(g.cover_of(shooter, Pos::new(23.0, 34.0)), Cover::Some);
    // The line passes the wall's end: open.
    assert_eq!(g.cover_of(shooter, Pos::new(40.0, 34.0)), Cover::Open);
    // A wall right in front of the shooter does not hide the target.
    assert_eq!(g.cover_of(Pos::new(23.0, 23.5), Pos::new(23.0, 40.0)), Cover::Open);
    // Cover is symmetric for a shooter behind its own wall firing back.
    assert_eq!(g.cover_of(Pos::new(23.0, 40.0), Pos::new(23.0, 23.5)), Cover::Lots);
    // A destroyed wall gives nothing.
    g.table.walls[0].intact = false;
    assert_eq!(g.cover_of(shooter, Pos::new(23.0, 24.75)), Cover::Open);
}

#[test]
fn a_shot_at_a_target_behind_a_wall_needs_hard() {
    // The firing example on the table: rifle, 1 wound, aims, 20" away, target behind a
    // wall (lots of cover): Hard, −1 → needs 11+. A 10 misses, an 11 hits.
    let r = ruleset(Cover::Open);
    let mut g = Skirmish::new(&r, &r.skirmish);
    g.table.walls.push(wall(20.0, 26.0, 24.0));
    let rifle = r.find("rifle");
    g.sides[0].push(Character::new(rifle, 23.0, 4.25));
    g.sides[1].push(Character::new(rifle, 23.0, 24.25));
    g.sides[0][0].wounds = 1;
    g.shoot(0, 0, 0, true, false, &mut ScriptedDice::new(&[10]));
    assert_eq!(g.sides[1][0].wounds, 0);
    // 11 hits; the rifle's 2 Damage on an unwounded target: Moderate toughness, 7 stays up.
    g.shoot(0, 0, 0, true, false, &mut ScriptedDice::new(&[11, 7]));
    assert_eq!((g.sides[1][0].wounds, g.sides[1][0].down), (1, false));
}

#[test]
fn a_side_with_no_character_up_at_the_end_of_a_turn_loses() {
    let r = ruleset(Cover::Open);
    let mut g = Skirmish::new(&r, &r.skirmish);
    let rifle = r.find("rifle");
    g.deploy(0, &[rifle, rifle]);
    g.deploy(1, &[rifle]);
    assert_eq!(g.end_of_turn_check(), None);
    g.sides[1][0].down = true;
    assert_eq!(g.end_of_turn_check(), Some(Some(0)), "Down is not Up");
    g.sides[0][0].removed = true;
    g.sides[0][1].down = true;
    assert_eq!(g.end_of_turn_check(), Some(None), "neither side Up: a draw");
    g.sides[1][0].down = false;
    assert_eq!(g.end_of_turn_check(), Some(Some(1)));
}

#[test]
fn a_down_side_that_recovers_during_the_turn_has_not_lost() {
    // Side B's only character is Down at the start of the turn; it recovers on its
    // activation (Automatic shifted by 1 wound: Easy, a 5 passes), so at the end of the
    // turn it is Up and the game goes on. Side A is far out of range and just moves.
    let r = ruleset(Cover::Open);
    let mut cfg = r.skirmish.clone();
    cfg.max_turns = 1;
    let mut g = Skirmish::new(&r, &cfg);
    let pistol = r.find("pistol");
    g.sides[0].push(Character::new(pistol, 2.0, 1.0));
    g.sides[1].push(Character::new(pistol, 46.0, 47.0));
    g.sides[1][0].down = true;
    g.sides[1][0].wounds = 1;
    // Leader roll: A 12, B 1 → A first (no shot possible at 64": two moves, no dice);
    // then B recovers with a 5 and moves.
    let mut dice = ScriptedDice::new(&[12, 1, 5]);
    let out = g.play(&mut dice);
    assert!(dice.exhausted());
    assert!(g.sides[1][0].is_up());
    assert_eq!(out, SkirmishOutcome { winner: None, turns: 1 }, "the 10-turn cap (here 1) is a draw");
}

#[test]
fn a_quick_move_goes_in_a_straight_line() {
    // "Quick Movement ... must be in any straight line" (Movement). A pistol 3/4" behind
    // a 4" wall, its target 196" away (nothing to shoot): two quick moves of 6". The first
    // heads for the nearer wall end and keeps that line (one straight segment of 6", no
    // bend at the corner); the second goes straight at the target. No dice are rolled.
    let r = ruleset(Cover::Open);
    let mut g = Skirmish::new(&r, &r.skirmish);
    g.table = Table::new(48.0, 400.0);
    g.table.walls.push(wall(8.0, 12.0, 4.0));
    g.trace = Some([Vec::new(), Vec::new()]);
    let pistol = r.find("pistol");
    let start = Pos::new(10.0, 3.25);
    g.sides[0].push(Character::new(pistol, start.x, start.y));
    g.sides[1].push(Character::new(pistol, 10.0, 200.0));
    g.trace.as_mut().unwrap()[0].push((pistol, vec![start], None));
    g.trace.as_mut().unwrap()[1].push((pistol, vec![Pos::new(10.0, 200.0)], None));
    let mut dice = ScriptedDice::new(&[]);
    g.activate(0, 0, &mut dice);
    assert!(dice.exhausted());
    let path = &g.trace.as_ref().unwrap()[0][0].1;
    assert_eq!(path.len(), 3, "one point per move, no corner: {path:?}");
    let corner = Pos::new(7.0, 4.0);
    let (a, b) = (path[1], path[2]);
    assert!((start.dist(a) - 6.0).abs() < 1e-3, "the first move is a full 6\" line: {path:?}");
    // On the line from the start through the wall end: the cross product is 0.
    let cross = (corner.x - start.x) * (a.y - start.y) - (corner.y - start.y) * (a.x - start.x);
    assert!(cross.abs() < 1e-3, "{path:?}");
    assert!(g.table.wall_across(start, a).is_none() && g.table.wall_across(a, b).is_none(), "{path:?}");
    assert!((a.dist(b) - 6.0).abs() < 1e-3 && (b.x - a.x).abs() < 0.2, "{path:?}");
}

#[test]
fn a_charge_goes_straight_and_stops_short_of_a_wall() {
    // A charge is a quick move into contact: straight at the target. A wall across the
    // line stops it half a base (1/2") short; it does not go round the wall's end.
    let r = ruleset(Cover::Open);
    let mut g = Skirmish::new(&r, &r.skirmish);
    g.table.walls.push(wall(9.0, 11.0, 22.0));
    let (from, target) = (Pos::new(10.0, 20.0), Pos::new(10.0, 25.0));
    let end = g.straight_end(from, target, 4.0, false);
    assert!((end.x - 10.0).abs() < 1e-4 && (end.y - 21.5).abs() < 1e-3, "{end:?}");
    // Without a wall in the way the line reaches its length, and stops at the table edge.
    assert_eq!(g.straight_end(from, Pos::new(20.0, 20.0), 4.0, true), Pos::new(14.0, 20.0));
    let edge = g.straight_end(Pos::new(46.0, 2.0), Pos::new(60.0, 2.0), 6.0, true);
    assert!((edge.x - 47.5).abs() < 1e-3 && (edge.y - 2.0).abs() < 1e-4, "{edge:?}");
}

#[test]
fn the_turn_cap_ends_the_game_in_a_draw() {
    let r = ruleset(Cover::Open);
    let mut cfg = r.skirmish.clone();
    cfg.max_turns = 3;
    cfg.table_depth = 400.0;
    let mut g = Skirmish::new(&r, &cfg);
    g.table = Table::new(48.0, 400.0);
    let pistol = r.find("pistol");
    g.deploy(0, &[pistol]);
    g.deploy(1, &[pistol]);
    let out = g.play(&mut FastDice::from_seed(3));
    assert_eq!(out, SkirmishOutcome { winner: None, turns: 3 });
    assert!(g.sides.iter().flatten().all(|c| c.wounds == 0), "nobody came in range");
    assert!(g.pos(0, 0).y > 30.0, "side A advanced: {:?}", g.pos(0, 0));
}

#[test]
fn characters_advance_into_cover_and_moves_never_cross_walls() {
    let r = ruleset(Cover::Open);
    let (g, out) = traced_game(&r, [&LineUp::Random(5), &LineUp::Random(5)], 0, 11);
    assert!(out.turns >= 1 && out.turns <= 10);
    let trace = g.trace.as_ref().unwrap();
    for side in trace {
        for (_, path, _) in side {
            for w in path.windows(2) {
                assert!(g.table.wall_across(w[0], w[1]).is_none(), "a move crossed a wall: {w:?}");
            }
        }
    }
    assert!(trace.iter().flatten().any(|(_, p, _)| p.len() > 1), "somebody moved");
}

#[test]
fn line_ups_from_names() {
    let r = ruleset(Cover::Open);
    let lu = LineUp::from_names(&r, &["Rifle".into(), "shotgun".into()], 5).unwrap();
    assert_eq!(lu, LineUp::Fixed(vec![r.find("rifle"), r.find("shotgun")]));
    assert_eq!(LineUp::from_names(&r, &[], 5).unwrap(), LineUp::Random(5));
    let e = LineUp::from_names(&r, &["laser".into()], 5).unwrap_err();
    assert!(e.contains("unknown loadout \"laser\"; known: rifle, pistol, shotgun"), "{e}");
}
