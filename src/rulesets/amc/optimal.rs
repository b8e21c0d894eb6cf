//! Optimal play in an Army Men Combat one-against-one duel (issue 15; DESIGN.md, "Optimal play
//! and exploitability"): the duel of [`super::rules`] as a game for [`crate::rulesets::optimal`].
//!
//! This file owns the game ([`AmcGame`], built for a pair by [`OptimalPlay`]), its table and
//! grid ([`GRID`]) and the exact outcomes of the actions it plays: a
//! volley's casualties and morale test or frontal damage rolls, and a charge's Pinned test and
//! melee rounds to the cap (AMC 2.0, "Shooting", "Morale", "Damage", "Melee"). A unit's state
//! is its models and two flags by kind (infantry: Pinned, hunkered; vehicles: stunned,
//! immobile); the options of an activation are listed at [`AmcGame`]'s `options`, and the
//! scripted policy is the Monte Carlo duel's [`rules::plan`] on the grid. The distributions of
//! one volley ([`unblocked_dist`]) and one melee round ([`melee_wounds`]) are shared with the
//! stand-up chain and the tactic and stay in [`super::exact`].
//!
//! Layers: it imports only the rulesets layer (this ruleset's `rules` and `exact`, and the
//! shared solver [`crate::rulesets::optimal`]).

use crate::rulesets::NotExact;
use crate::rulesets::amc::exact::{melee_wounds, p_destroyed_per_roll, p_immobile_per_roll, unblocked_dist};
use crate::rulesets::amc::rules::{self, Arc, QUALITY, UnitState};
use crate::rulesets::amc::{ArmyMenCombat, Kind, Profile};
use crate::rulesets::optimal::{Choice, DuelGame, Grid, OptimalPlay, Order, Pair, Setup, Spot, action_codes};

/// The Army Men Combat duel table and grid, inches. Depth: the mission's 48" table, the Monte
/// Carlo duel's too ([`rules::DUEL_DEPTH`]). Step 3": the moves (Advance 6", Rush 12", vehicles
/// 12" and 24") and the report distances (6, 12, 24, 36") are whole cells, and halving it moves
/// no value of the report matrix by more than 0.1 point (checked by a test).
pub const GRID: Grid = Grid { depth: rules::DUEL_DEPTH as f64, step: 3.0 };
/// "Movement": units come within 1" of an enemy only when charging.
const MIN_GAP: f64 = 1.0;

action_codes! {
    /// Hold, or Advance, then shoot if in range.
    SHOOT,
    /// No shooting after the move: a Rush, a move of a unit that shoots only on Hold
    /// (Artillery), or waiting.
    MOVE,
    /// Hunker (infantry).
    HUNKER,
    /// Charge into melee.
    CHARGE,
    /// A vehicle that failed its 4+ to activate ("Damage" 1–2): the activation is lost.
    LOST,
}

/// One unit's state in the game: models, and two flags by kind (infantry: Pinned, hunkered;
/// vehicles: stunned, immobile).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct G {
    models: u8,
    f1: bool,
    f2: bool,
}

impl G {
    fn index(self) -> usize {
        self.models as usize * 4 + self.f1 as usize * 2 + self.f2 as usize
    }
    fn of(i: usize) -> G {
        G { models: (i / 4) as u8, f1: i & 2 != 0, f2: i & 1 != 0 }
    }
    /// The simulator's unit state at gap-free position 0.
    fn unit(self, p: &Profile) -> UnitState {
        let inf = p.kind == Kind::Infantry;
        UnitState {
            models: self.models,
            pinned: inf && self.f1,
            hunker: inf && self.f2,
            stunned: !inf && self.f1,
            immobile: !inf && self.f2,
            ..Default::default()
        }
    }
}

/// Damage-table results of `u` frontal rolls on a vehicle in state `y` (AMC 2.0, "Damage"):
/// destroyed on any 5–6; otherwise stunned if any 1–2, immobile if any 3–4.
fn vehicle_rolls(y: G, u: u32) -> Vec<(f64, G)> {
    if u == 0 {
        return vec![(1.0, y)];
    }
    let p56 = p_destroyed_per_roll(Arc::Front);
    let p34 = p_immobile_per_roll(Arc::Front);
    let p12 = 1.0 - p56 - p34;
    let n = u as i32;
    let (only12, only34, alive) = (p12.powi(n), p34.powi(n), (1.0 - p56).powi(n));
    vec![
        (1.0 - alive, G { models: 0, ..y }),
        (only12, G { f1: true, ..y }),
        (only34, G { f2: true, ..y }),
        (alive - only12 - only34, G { f1: true, f2: true, ..y }),
    ]
}

/// The target's state after `u` unblocked hits of shooting: casualties then the morale test
/// (infantry, "Morale"), or frontal damage rolls (vehicles).
fn shot_at(p: &Profile, y: G, u: u32) -> Vec<(f64, G)> {
    match p.kind {
        Kind::Infantry => {
            let lost = u.min(y.models as u32) as u8;
            let m = y.models - lost;
            let y2 = G { models: m, ..y };
            if lost > 0 && m > 0 && !y.f1 && 2 * m <= p.models {
                let q = rules::p_quality(p.quality, QUALITY);
                vec![(q, y2), (1.0 - q, G { f1: true, ..y2 })]
            } else {
                vec![(1.0, y2)]
            }
        }
        Kind::Vehicle => vehicle_rolls(y, u),
    }
}

/// Removes melee wounds ([`rules::melee`]'s `take_melee_wounds`).
fn melee_hurt(p: &Profile, y: G, u: u32) -> Vec<(f64, G)> {
    match p.kind {
        Kind::Vehicle => vehicle_rolls(y, u),
        Kind::Infantry => vec![(1.0, G { models: y.models - u.min(y.models as u32) as u8, ..y })],
    }
}

/// The exact outcome of a charge (AMC 2.0, "Melee"; [`rules::melee`]): the Pinned test of
/// the charged unit, then rounds until one unit is destroyed or the cap.
fn charge(r: &ArmyMenCombat, cp: &Profile, c: G, dp: &Profile, d: G) -> Vec<(f64, G, G)> {
    let mut states: Vec<(f64, G, G)> = Vec::new();
    if d.f1 && dp.kind == Kind::Infantry {
        let q = rules::p_quality(dp.quality, QUALITY);
        states.push((q, c, G { f1: false, ..d }));
        states.push((1.0 - q, c, G { models: 0, ..d }));
    } else {
        states.push((1.0, c, d));
    }
    let mut done = Vec::new();
    for round in 0..r.book.rules.melee_round_cap {
        let mut next: Vec<(f64, G, G)> = Vec::new();
        for (w, c, d) in states {
            if c.models == 0 || d.models == 0 {
                done.push((w, c, d));
                continue;
            }
            let dh = d.f2 && dp.kind == Kind::Infantry;
            let to_def = melee_wounds(cp, c.models, dp, dh, round == 0);
            let to_chg = melee_wounds(dp, d.models, cp, false, false);
            for (x, &px) in to_def.iter().enumerate() {
                for (y, &py) in to_chg.iter().enumerate() {
                    if px * py == 0.0 {
                        continue;
                    }
                    for (pd, d2) in melee_hurt(dp, d, x as u32) {
                        for (pc, c2) in melee_hurt(cp, c, y as u32) {
                            let q = w * px * py * pd * pc;
                            if x == y {
                                next.push((q, c2, d2));
                                continue;
                            }
                            // The side that caused fewer wounds tests; failed → destroyed.
                            let charger_lost = y > x;
                            let (lp, l) = if charger_lost { (cp, c2) } else { (dp, d2) };
                            if l.models == 0 {
                                next.push((q, c2, d2));
                                continue;
                            }
                            let pass = lp.p_melee_pass();
                            next.push((q * pass, c2, d2));
                            let dead = G { models: 0, ..l };
                            next.push(if charger_lost {
                                (q * (1.0 - pass), dead, d2)
                            } else {
                                (q * (1.0 - pass), c2, dead)
                            });
                        }
                    }
                }
            }
        }
        states = merge(next);
    }
    done.extend(states);
    merge(done)
}

fn merge(v: Vec<(f64, G, G)>) -> Vec<(f64, G, G)> {
    let mut out: Vec<(f64, G, G)> = Vec::new();
    for (p, a, b) in v {
        match out.iter_mut().find(|o| o.1 == a && o.2 == b) {
            Some(o) => o.0 += p,
            None => out.push((p, a, b)),
        }
    }
    out
}

/// One Army Men Combat duel as a game: unit `a` (side A) against unit `b`.
pub type AmcGame<'a> = Pair<'a, ArmyMenCombat, Profile>;

impl DuelGame for AmcGame<'_> {
    fn setup(&self) -> Setup {
        self.setup
    }
    fn n_states(&self, s: usize) -> usize {
        (self.p[s].models as usize + 1) * 4
    }
    fn start_state(&self, s: usize) -> usize {
        G { models: self.p[s].models, f1: false, f2: false }.index()
    }
    fn destroyed(&self, _s: usize, u: usize) -> bool {
        G::of(u).models == 0
    }
    /// Models left, as a share of the unit's.
    fn strength(&self, s: usize, u: usize) -> f64 {
        f64::from(G::of(u).models) / f64::from(self.p[s].models.max(1))
    }
    fn n_actions(&self) -> usize {
        N_ACTIONS
    }
    /// "Activation": Hunker ends; a Pinned unit tests (pass: no longer Pinned; fail:
    /// destroyed); a stunned vehicle rolls 4+ to act (fail: the flag stays set for this
    /// activation to mark it lost, `LOST`).
    fn activation_start(&self, s: usize, me: usize, out: &mut Vec<(f64, usize)>) {
        let p = self.p[s];
        let x = G::of(me);
        match p.kind {
            Kind::Infantry => {
                let x = G { f2: false, ..x };
                if x.f1 {
                    let q = rules::p_quality(p.quality, QUALITY);
                    out.push((q, G { f1: false, ..x }.index()));
                    out.push((1.0 - q, G { models: 0, ..x }.index()));
                } else {
                    out.push((1.0, x.index()));
                }
            }
            Kind::Vehicle if x.f1 && x.models > 0 => {
                out.push((0.5, G { f1: false, ..x }.index()));
                out.push((0.5, x.index()));
            }
            Kind::Vehicle => out.push((1.0, me)),
        }
    }
    /// Hold and shoot; Advance by whole cells up to the Advance move (either way) and shoot;
    /// Rush further (no shooting); Hunker (infantry); Charge within 12" (infantry).
    /// Artillery shoots only on Hold. Guard is not offered (RULINGS.md: no duel tactic uses it).
    fn options(&self, s: usize, me: usize, _other: usize, at: Spot, out: &mut Vec<Choice>) {
        let p = self.p[s];
        let x = G::of(me);
        if p.kind == Kind::Vehicle && x.f1 {
            out.push(Choice { advance: 0, action: LOST });
            return;
        }
        out.push(Choice { advance: 0, action: SHOOT });
        let immobile = p.kind == Kind::Vehicle && x.f2;
        if !immobile && p.advance > 0.0 {
            let adv = self.setup.line.cells_within(p.advance as f64);
            let rush = self.setup.line.cells_within(p.rush as f64);
            let act = if p.hold_only { MOVE } else { SHOOT };
            for k in 1..=adv {
                if k <= at.ahead as i16 {
                    out.push(Choice { advance: k, action: act });
                }
                if k <= at.room as i16 {
                    out.push(Choice { advance: -k, action: act });
                }
            }
            for k in adv + 1..=rush {
                if k <= at.ahead as i16 {
                    out.push(Choice { advance: k, action: MOVE });
                }
                if k <= at.room as i16 {
                    out.push(Choice { advance: -k, action: MOVE });
                }
            }
        }
        if p.kind == Kind::Infantry {
            out.push(Choice { advance: 0, action: HUNKER });
            if at.gap <= self.r.book.rules.charge_move as f64 {
                out.push(Choice { advance: i16::MAX, action: CHARGE });
            }
        }
    }
    /// [`rules::plan`] on the grid.
    fn scripted(&self, s: usize, me: usize, other: usize, at: Spot) -> Choice {
        let (p, tp) = (self.p[s], self.p[1 - s]);
        let x = G::of(me);
        if p.kind == Kind::Vehicle && x.f1 {
            return Choice { advance: 0, action: LOST };
        }
        let mut mu = x.unit(p);
        mu.x = 0.0;
        let mut tu = G::of(other).unit(tp);
        tu.x = at.gap as f32;
        let room = (at.room as f64 * self.setup.line.step) as f32;
        // The other side's cells behind it: the positions add up to `max_sum − ahead`.
        let theirs = self.setup.line.max_sum as i32 - at.ahead as i32 - at.room as i32;
        let their_room = (theirs.max(0) as f64 * self.setup.line.step) as f32;
        match rules::plan(self.r, p, &mu, tp, &tu, [room, their_room]) {
            rules::Action::Hold => Choice { advance: 0, action: SHOOT },
            rules::Action::Retreat(d) => Choice { advance: -self.setup.line.cells_within(d as f64), action: SHOOT },
            rules::Action::Advance(d) => Choice { advance: self.setup.line.cells_within(d as f64), action: SHOOT },
            rules::Action::Rush(d) => Choice { advance: self.setup.line.cells_within(d as f64), action: MOVE },
            rules::Action::Charge => Choice { advance: i16::MAX, action: CHARGE },
            rules::Action::Wait => Choice { advance: 0, action: MOVE },
        }
    }
    /// The same unit on both sides (one profile of the cost list).
    fn mirror(&self) -> bool {
        self.same_unit()
    }
    fn outcomes(&self, s: usize, action: u16, me: usize, other: usize, gap: f64, out: &mut Vec<(f64, usize, usize)>) {
        let (p, tp) = (self.p[s], self.p[1 - s]);
        let (x, y) = (G::of(me), G::of(other));
        // The activation is spent: a vehicle's "no move" (3–4) ends with it, or is kept when
        // the activation was lost ([`rules::activate`]).
        let done = match (p.kind, action) {
            (Kind::Vehicle, LOST) => G { f1: false, ..x },
            (Kind::Vehicle, _) => G { f2: false, ..x },
            (Kind::Infantry, HUNKER) => G { f2: true, ..x },
            _ => x,
        };
        match action {
            SHOOT if x.models > 0 && p.has_weapon_in_range(gap as f32) => {
                let tu = y.unit(tp);
                let extra = rules::block_dice(tp, &tu, self.r.book.rules.cover, false);
                for (u, &pu) in unblocked_dist(p, x.models, tp, gap as f32, extra).iter().enumerate() {
                    if pu > 0.0 {
                        for (q, y2) in shot_at(tp, y, u as u32) {
                            out.push((pu * q, done.index(), y2.index()));
                        }
                    }
                }
            }
            CHARGE => {
                for (q, c, d) in charge(self.r, p, done, tp, y) {
                    out.push((q, c.index(), d.index()));
                }
            }
            _ => out.push((1.0, done.index(), other)),
        }
    }
}

/// The game of units `a` and `b` ([`ArmyMenCombat::profiles`]) starting `distance` apart on the
/// 48"-deep duel table (RULINGS.md, "Duel table depth"), on a grid of `step` inches.
impl OptimalPlay for ArmyMenCombat {
    type Game<'a> = AmcGame<'a>;
    fn game(&self, a: usize, b: usize, distance: f64, step: f64) -> Result<AmcGame<'_>, NotExact> {
        // "Playing the Game": with one unit a side the roll-off before each activation is a
        // fair coin, so each round's order is ½–½.
        let setup = GRID.setup(distance, step, MIN_GAP, self.book.duel.max_rounds, Order::RollOff)?;
        Ok(Pair { r: self, p: [&self.profiles[a], &self.profiles[b]], setup, extra: () })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::amc::exact::stand_up_duel;

    use crate::rulesets::amc::testing::amc;
    use crate::rulesets::optimal::{Policy, optimal_duel, print_matrix, probe_at, solve, unordered_pairs};
    use crate::rulesets::optimal::{assert_half_grid_within, assert_mirror_is_even, assert_scripted_game_is};

    fn game<'a>(r: &'a ArmyMenCombat, a: &str, b: &str, d: f64, step: f64) -> AmcGame<'a> {
        r.game(r.find(a), r.find(b), d, step).unwrap()
    }

    #[test]
    fn the_scripted_tactic_on_the_grid_is_the_stand_up_chain() {
        // At 24" every pair below holds and shoots: the game with both sides scripted must give
        // the stand-up chain's numbers.
        let r = amc(&[]);
        for (a, b) in [("tank", "artillery"), ("gunners-3", "snipers-3"), ("snipers-1", "gunners-1")] {
            let (a, b) = (r.find(a), r.find(b));
            assert_scripted_game_is(&r, (a, b), (24.0, GRID.step), &stand_up_duel(&r, a, b, 24.0).unwrap(), 1e-9);
        }
    }

    #[test]
    fn riflemen_charge_the_tank_under_optimal_play() {
        // The known artifact (issue 15): the scripted Riflemen (10) held and shot at the Tank
        // and won 7.2%; they now close in and charge.
        let r = amc(&[]);
        let o = optimal_duel(&r, r.find("riflemen-10"), r.find("tank"), 24.0, GRID.step).unwrap();
        assert!(o.scripted.a_wins > 0.5, "{:?}", o.scripted);
        // The Tank falls back and shoots while they close: 70.0% on the 48" table. The scripted
        // Tank does too now (it gained 35.8 points by its best response; now under 1).
        assert!(o.optimal.a_score() > 0.65, "{:?}", o.optimal);
        assert!(o.b_gain() < 0.01, "{o:?}");
        // The Riflemen chase it with Rushes that corner it (they gained 15.5 points by their best
        // response when the tactic took the Tank to stand still; now none).
        assert!(o.a_gain() < 0.001, "{o:?}");
        // Within charge reach at once, the charge alone decides.
        let near = solve(&game(&r, "riflemen-10", "tank", 12.0, GRID.step), [Policy::Optimal; 2]);
        assert!(near.a_wins > 0.9, "{near:?}");
    }

    /// A mirror's B best response is A's swapped ([`crate::rulesets::optimal::analyse`]), and
    /// so are the portfolio's cells below the diagonal and B's best responses
    /// ([`crate::rulesets::optimal::portfolio`]); the score of the advantage alone is the
    /// solved score ([`crate::rulesets::optimal::optimal_score`]).
    #[test]
    fn a_mirror_solves_one_best_response() {
        let r = amc(&["duel.max_rounds=6"]);
        for u in ["recruits-5", "riflemen-10", "tank"] {
            crate::rulesets::optimal::assert_mirror_shortcut_is_exact(&game(&r, u, u, 24.0, GRID.step));
            crate::rulesets::optimal::assert_score_is_solved(&game(&r, u, u, 24.0, GRID.step));
        }
        crate::rulesets::optimal::assert_mirror_portfolio_is_exact(
            game(&r, "recruits-5", "recruits-5", 24.0, GRID.step),
            game(&r, "recruits-5", "recruits-5", 24.0, GRID.step),
        );
        assert!(!game(&r, "recruits-5", "recruits-10", 24.0, GRID.step).mirror());
        crate::rulesets::optimal::assert_score_is_solved(&game(&r, "recruits-5", "recruits-10", 24.0, GRID.step));
    }

    #[test]
    fn optimal_play_bounds_the_scripted_values() {
        let r = amc(&[]);
        for (a, b) in [("riflemen-5", "veterans-5"), ("snipers-1", "gunners-1"), ("jeep", "recruits-5")] {
            let o = optimal_duel(&r, r.find(a), r.find(b), 24.0, GRID.step).unwrap();
            o.assert_bounds();
            assert!(o.exploitability() >= 0.0);
        }
    }

    /// One solve serves every start distance of a line (the contract of `OptimalPlay::game`;
    /// Gunplay's chart by start distance relies on it).
    #[test]
    fn one_solve_serves_every_start_distance_of_a_line() {
        let r = amc(&["duel.max_rounds=3"]);
        let units = (r.find("riflemen-10"), r.find("jeep"));
        crate::rulesets::optimal::assert_one_solve_serves_every_start(&r, units, &[12.0, 18.0, 30.0], GRID.step, true);
    }

    #[test]
    fn mirrors_are_exactly_even_under_optimal_play() {
        let r = amc(&[]);
        for u in ["riflemen-5", "snipers-1", "jeep", "heavy-weapons-1"] {
            assert_mirror_is_even(&game(&r, u, u, 24.0, GRID.step));
        }
    }

    #[test]
    fn halving_the_grid_moves_no_value_by_a_tenth_of_a_point() {
        let r = amc(&[]);
        for (a, b) in [("riflemen-5", "tank"), ("snipers-1", "veterans-5")] {
            assert_half_grid_within(&r, (r.find(a), r.find(b)), 24.0, GRID.step, 0.001);
        }
    }

    /// The whole optimal-play matrix at the report distance, with the exploitability of the
    /// scripted tactic per pair, worst first (`cargo test --lib optimal_matrix -- --ignored
    /// --nocapture`; `OPTIMAL_DISTANCE`, `OPTIMAL_STEP` override; minutes: the measurement behind
    /// the notes of issue 15).
    #[test]
    #[ignore]
    fn optimal_matrix() {
        let r = amc(&[]);
        let (d, step) = probe_at(r.book.duel.distance, GRID.step);
        // Pairs with a vehicle first (where the tactic's artifacts are), each printed at once.
        let mut pairs = unordered_pairs(r.profiles.len());
        pairs.sort_by_key(|&(a, b)| [a, b].iter().all(|&u| r.profiles[u].kind == Kind::Infantry));
        print_matrix(&r, |u| r.book.units[u].name.clone(), &pairs, (d, step), 10, |_, _, _| String::new());
    }

    /// What a best response does (issue 15): `EXPLAIN="A|B|distance|side"` prints, at full
    /// strength, side `side`'s best option against the scripted other side and the scripted
    /// choice at every pair of positions (`cargo test --lib explain_best_response -- --ignored
    /// --nocapture`).
    #[test]
    #[ignore]
    fn explain_best_response() {
        let r = amc(&[]);
        let spec = std::env::var("EXPLAIN").unwrap_or("riflemen-10|tank|24|0".into());
        let f: Vec<&str> = spec.split('|').collect();
        let (a, b, d, s): (&str, &str, f64, usize) = (f[0], f[1], f[2].parse().unwrap(), f[3].parse().unwrap());
        let g = game(&r, a, b, d, GRID.step);
        let line = g.line();
        let mut pol = [Policy::Scripted; 2];
        pol[s] = Policy::Optimal;
        let states: Vec<usize> = std::env::var("EXPLAIN_STATES")
            .ok()
            .map(|v| v.split(',').map(|x| x.parse().unwrap()).collect())
            .unwrap_or(vec![g.start_state(0), g.start_state(1)]);
        let u = [states[0], states[1]];
        println!("{a} v {b} at {d}: side {s} best response; states {:?} {:?}", G::of(u[0]), G::of(u[1]));
        for p0 in 0..=line.max_sum as usize {
            for p1 in 0..=line.max_sum as usize - p0 {
                let p = [p0, p1];
                if std::env::var("EXPLAIN_ALL").is_err() && p[1 - s] != line.start as usize {
                    continue;
                }
                let rows = crate::rulesets::optimal::explain(&g, pol, s, p, u);
                let max = line.max_sum as usize;
                let at = Spot { gap: line.gap((p0 + p1) as u16), room: p[s] as u16, ahead: (max - p0 - p1) as u16 };
                let sc = g.scripted(s, rows[0].1, u[1 - s], at);
                let sign = if s == 0 { 1.0 } else { -1.0 };
                let best = |k: usize| {
                    rows.iter()
                        .filter(|r| r.1 == rows[0].1)
                        .max_by(|x, y| {
                            let (vx, vy) = if k == 0 { (x.3, y.3) } else { (x.4, y.4) };
                            (sign * vx).partial_cmp(&(sign * vy)).unwrap()
                        })
                        .unwrap()
                };
                let (b1, b2) = (best(0), best(1));
                let scr = rows.iter().find(|r| r.1 == rows[0].1 && r.2 == sc).unwrap();
                println!(
                    "pos {p:?} gap {:4.1}: best first {:>2}/{} ({:+.3}) second {:>2}/{} ({:+.3}) | scripted {:>2}/{} ({:+.3}, {:+.3})",
                    at.gap,
                    b1.2.advance.min(99),
                    b1.2.action,
                    b1.3,
                    b2.2.advance.min(99),
                    b2.2.action,
                    b2.4,
                    sc.advance.min(99),
                    sc.action,
                    scr.3,
                    scr.4
                );
            }
        }
    }

    /// Where the gain of one side's best response comes from: every activation of that side
    /// along the scripted duel adds its probability times the score its scripted choice loses
    /// against the best choice ([`crate::rulesets::optimal::scripted_losses`]);
    /// the sum is the gain (`OPTIMAL_PAIR=a,b OPTIMAL_SIDE=0|1 OPTIMAL_DISTANCE=24 cargo test
    /// --lib amc::optimal::tests::where_the_gain_comes_from -- --ignored --nocapture`).
    #[test]
    #[ignore]
    fn where_the_gain_comes_from() {
        use std::collections::BTreeMap;
        let r = amc(&[]);
        let env = |k: &str, d: &str| std::env::var(k).unwrap_or(d.into());
        let pair = env("OPTIMAL_PAIR", "recruits-5,recruits-10");
        let ids: Vec<&str> = pair.split(',').collect();
        let side: usize = env("OPTIMAL_SIDE", "0").parse().unwrap();
        let d: f64 = env("OPTIMAL_DISTANCE", "24").parse().unwrap();
        let g = game(&r, ids[0], ids[1], d, GRID.step);
        let line = g.line();
        let show = |c: Choice| {
            let what = ["shoot", "move", "hunker", "charge", "lost"][c.action as usize];
            if c.advance == i16::MAX {
                what.to_string()
            } else {
                format!("{:+}\" {what}", c.advance as f64 * GRID.step)
            }
        };
        let state = |u: usize| {
            let x = G::of(u);
            format!("{}{}{}", x.models, if x.f1 { " f1" } else { "" }, if x.f2 { " f2" } else { "" })
        };
        let mut rows: BTreeMap<String, f64> = BTreeMap::new();
        let note = |p: [usize; 2], u: [usize; 2], first: bool, best: Choice, scripted: Choice, loss: f64| {
            let key = format!(
                "me {:8} them {:8} first {:5} gap {:4.1}: best {:12} scripted {:12}",
                state(u[side]),
                state(u[1 - side]),
                first,
                line.gap((p[0] + p[1]) as u16),
                show(best),
                show(scripted)
            );
            *rows.entry(key).or_default() += loss;
        };
        let (total, _) = crate::rulesets::optimal::scripted_losses(&g, side, r.book.duel.max_rounds, note);
        crate::rulesets::optimal::print_largest(rows, 40);
        let o = optimal_duel(&r, r.find(ids[0]), r.find(ids[1]), d, GRID.step).unwrap();
        let gain = if side == 0 { o.a_gain() } else { o.b_gain() };
        println!("total {:.3} points (side {side}); the solver's gain {:.3}", 100.0 * total, 100.0 * gain);
    }

    /// The scripted plan of `PLANS="A|B"` at full strength at every grid distance and room
    /// (`cargo test --lib print_plans -- --ignored --nocapture`).
    #[test]
    #[ignore]
    fn print_plans() {
        let r = amc(&[]);
        let spec = std::env::var("PLANS").unwrap_or("riflemen-10|tank".into());
        let f: Vec<&str> = spec.split('|').collect();
        let (p, tp) = (r.profiles[r.find(f[0])], r.profiles[r.find(f[1])]);
        for d in (1..=16).map(|k| if k == 16 { 1.0 } else { 48.0 - 3.0 * k as f32 }) {
            let mut row = format!("{d:4.0}:");
            for (r0, r1) in [(0.0, 0.0), (6.0, 6.0), (12.0, 12.0), (12.0, 0.0), (0.0, 12.0)] {
                let me = UnitState::fresh(&p, 0.0);
                let them = UnitState::fresh(&tp, d);
                let dec = rules::decide(&r, &p, &me, &tp, &them, [rules::Exposure::front(false); 2], [r0, r1]);
                row += &format!(" [{r0:2}/{r1:2}] {:?} {:+.2} |", dec.action, dec.value);
            }
            println!("{row}");
        }
    }
}
