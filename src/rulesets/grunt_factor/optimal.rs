//! Optimal play in a Grunt Factor one-squad-against-one-squad duel (issue 15; DESIGN.md,
//! "Optimal play and exploitability"): the duel of [`super::exact`] as a game for
//! [`crate::rulesets::optimal`].
//!
//! A squad's state is the exact chain's ([`SquadState`]: models left, panicked, prone, fired on
//! since its last activation; the last kept only while panicked, the one time it matters, in
//! the recovery test) plus a pending fall back (below). A game turn is the roll-off for who
//! starts ("Turn sequence": d20 + the leader's LD each turn, [`rules::p_first`]; the first turn
//! ½–½ as the exact chain and the Monte Carlo duel play it) and one activation of each squad.
//! The roll-off's winner chooses who starts ([`Order::Initiative`]): under optimal play by
//! value, in every state; under a portfolio tactic by its own rule
//! ([`crate::rulesets::optimal::tactics::Tactic::acts_first`]); the scripted tactic starts, as
//! the Monte Carlo duel's default tactic does ([`rules::roll_for_first`]).
//! Each activation's dice are [`super::exact::activation_with`], the exact chain's: panic step, Fire
//! actions with Aim, morale checks, the special check of more than 10 hits.
//!
//! The options of an activation ("Actions": every model spends its AC actions; the squad moves
//! as one block, as the default tactic does):
//! - standing: Move actions toward or away from the enemy (MV 9 cm each, by whole grid cells,
//!   a move may stop short), then Fire with the actions left; or the same and then go prone
//!   (one action, "Go prone/stand": shots at a prone squad have −1);
//! - prone: crawl at 1/3 MV ("Modifiers to movement") toward or away, then fire; or stand up
//!   (one action) and move at full MV, then fire;
//! - panicked ("Panic": goes prone, may not move toward the enemy): spend 3 actions on the
//!   recovery test or not, then fire the rest (RC halved);
//! - a squad at 1/3 of its size or less (not Elite) may not advance ("Permanent effects").
//!
//! Each model fires its Fire actions at the enemy squad, aiming first by the duel's rule
//! ([`rules::aims`]: when (n−1) aimed actions expect more kills than n plain ones). Left out:
//! close combat (the default tactic never initiates it and every armory weapon's PB band is at
//! least as good as its CC band, `grunt_factor` module docs); a panicked squad moving back
//! (it stays prone where it is).
//!
//! Geometry: the squads stand on a line across the book's standard table, 120 cm deep
//! (RULINGS.md, "Duel table depth"), symmetric about its middle; they never close nearer than
//! [`MIN_GAP`] (the default tactic's closest approach). The special check's fall back (10 cm
//! away from the firer) moves the *target*, which the solver cannot do inside the firer's
//! activation: the target is marked "fallen back" and is shot at from the gap plus the fall
//! back until its next activation, which starts by taking the fall back (stopping at its table
//! edge). A second fall back before that activation is not added, and the shots of the wait
//! ignore the table edge: both are rare (more than 10 hits twice in a row on a squad 10 cm from
//! its edge, or before it acts).
//!
//! The grid ([`GRID`], 9 cm: one Move action) holds the Move and the scripted moves
//! from the report's 50 cm exactly (41, 32, 23, 14, 5 cm, then the 2 cm closest approach);
//! the fall back is one cell (9 cm, not 10) and a prone squad's crawl of 3 or 6 cm one cell
//! (crawling a whole cell takes 3 actions). Only the bands (20/40/70/110 cm) and the 60 cm
//! sighting limit matter to the fire, and the grid's gaps from 50 cm lie 1 to 3 cm beyond
//! them, so the roundings seldom change a band. The scripted policy is the default tactic
//! ([`rules::plan_moves`] at the gap, the exact chain's), so with both sides scripted the game
//! reproduces [`super::exact::duel`] at 50 cm (every pair within 1e-9 over 6 rounds, seven
//! of them tested; over the config's 40 rounds the fall backs and the table edge, which the
//! chain does not have, part them by less than 0.001 points).
//!
//! Measured (`tests::optimal_matrix` with OPTIMAL_HALVE=1, 50 cm, 40 rounds): halving the grid
//! to 4.5 cm moved no value (optimal, scripted, either best response) of the pairs of Untrained
//! Rifles, Regular SMGs and Regular LMG, the worst exploited and most range-sensitive squads,
//! by more than 0.033 points (24 values). Cost: the 45 pairs of the shipped cost list took about
//! 450 s in the test profile (opt-level 1) on a shared 2-core machine, about 10 s a pair:
//! 91 position pairs × 47² squad states × 40 rounds, where the goal is 5 s for the
//! whole matrix; the report solves the pairs in parallel.
//!
//! What it said of the default tactic at 50 cm before issue 15 item 4's fixes: exploitable by
//! 8.6 points at worst (Untrained Rifles mirror), 2.6 on average. `tests::where_the_gain_comes_from`
//! (the scripted duel propagated, each activation's loss against the best choice weighted by
//! its probability; the sum is the gain) traced 8.1 of the mirror's 8.6 points to the recovery
//! test the tactic always took (now [`rules::tries_recovery`]) and 6.4 of Regular SMGs v Regular
//! LMG's 7.9 to holding at medium range (the look-ahead's hard cap of kills, now
//! [`rules::spread`]). After both, at 50 cm: SMGs v LMG 0.5, Green Rifles v SMGs 0.5, Regular
//! Rifles v SMGs 0.6, Untrained Rifles mirror 0.9 points. From 90 cm (beyond sighting, out of
//! the SMG's and LMG's bands) the approach is still exploited by up to 30 points (as before),
//! mean 14.3. Traced (stop 36): nearly all of it is the squad that acts first walking into the
//! enemy's move-and-fire reach. Elite Rifles mirror, 23.5 points: 22.4 of them are the first
//! activation, where the scripted squad advances two Moves (90 → 72 cm: still beyond sighting,
//! but the enemy can close two Moves to 54 cm and fire first) and the best response goes prone
//! and holds; Regular SMGs v Regular LMG, the LMG's 30.0: 18.9 there, 8.9 more at 81–63 cm,
//! where the best response holds prone or falls back and the scripted squad advances a Move.
//! [`rules::horizon_plan`] looks three turns ahead but has the target hold and fire from
//! where it stands, so it never sees the enemy's own approach.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::rulesets::grunt_factor::exact::{SquadState, Step, activation_with};
use crate::rulesets::grunt_factor::rules::{
    self, Aiming, MIN_GAP, Threat, band, leader_ld, may_advance, needs_ld_test, p_first, panicked_fire, plan_moves,
    tries_recovery,
};
use crate::rulesets::grunt_factor::{GruntFactor, SquadProfile};
use crate::rulesets::optimal::{Choice, DuelGame, Grid, OptimalPlay, Order, Pair, Setup, Spot};
use crate::rulesets::{NotExact, Side};

/// The Grunt Factor's duel table and grid, cm: the book's standard table, 120 cm deep
/// (RULINGS.md, "Duel table depth"); a 9 cm step, one Move action (module docs).
pub const GRID: Grid = Grid { depth: 120.0, step: 9.0 };

/// Unit state indices: destroyed, and a fresh squad before the first turn (the first turn's
/// roll-off is ½–½); the others are [`U::index`].
const DEAD: usize = 0;
const START: usize = 1;
/// States per number of models left: 4 not panicked (prone × fallen back) and 5 panicked: a
/// panicked squad is fired on until its own activation, which also makes it prone ("Panic"),
/// and one that fell back was fired on, so only (standing, fired on) × fallen back and (prone,
/// not fired on), (prone, fired on) × fallen back occur.
const PER_ALIVE: usize = 9;

/// Action codes: not panicked, `spent * 2 + prone` (actions every model spends before firing,
/// prone afterwards, `spent` ≤ AC ≤ [`MAX_AC`]); panicked, [`PANIC`] + whether it tries to
/// recover: above every code of a squad that is not panicked.
const PANIC: u16 = 2 * (MAX_AC + 1);

/// The largest AC a config may give a squad (`grunt_factor` config, `ac` 1 to 10).
const MAX_AC: u16 = 10;

/// A squad's state in the game: the exact chain's and a pending fall back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct U {
    s: SquadState,
    fallen: bool,
}

impl U {
    fn index(self) -> usize {
        let s = self.s;
        if s.alive == 0 {
            return DEAD;
        }
        let k = match (s.panicked, s.prone, s.fired_on, self.fallen) {
            (false, prone, _, fallen) => prone as usize * 2 + fallen as usize,
            (true, false, fired_on, fallen) => {
                debug_assert!(fired_on, "a standing panicked squad was fired on");
                4 + fallen as usize
            }
            (true, true, false, fallen) => {
                debug_assert!(!fallen, "a squad that fell back was fired on");
                6
            }
            (true, true, true, fallen) => 7 + fallen as usize,
        };
        2 + (s.alive as usize - 1) * PER_ALIVE + k
    }

    fn of(p: &SquadProfile, i: usize) -> U {
        let none = SquadState { alive: 0, panicked: false, prone: false, fired_on: false };
        match i {
            DEAD => U { s: none, fallen: false },
            START => U { s: SquadState::fresh(p), fallen: false },
            _ => {
                let (alive, k) = ((i - 2) / PER_ALIVE + 1, (i - 2) % PER_ALIVE);
                let alive = alive as u8;
                let (panicked, prone, fired_on, fallen) = match k {
                    0..4 => (false, k >= 2, false, k % 2 == 1),
                    4 | 5 => (true, false, true, k == 5),
                    6 => (true, true, false, false),
                    _ => (true, true, true, k == 8),
                };
                U { s: SquadState { alive, panicked, prone, fired_on }, fallen }
            }
        }
    }

    /// `s` with the fired-on flag dropped when it cannot matter (not panicked).
    fn norm(s: SquadState, fallen: bool) -> U {
        U { s: SquadState { fired_on: s.fired_on && s.panicked, ..s }, fallen }
    }
}

/// One Grunt Factor duel as a game: squad `a` (side A) against squad `b`.
pub type GruntGame<'a> = Pair<'a, GruntFactor, SquadProfile, Memo>;

/// What a [`GruntGame`] computes once or keeps (its `extra`).
pub struct Memo {
    /// The fall back in whole cells.
    fall_back: u16,
    /// [`activation_with`]'s outcomes by (side, action, band and LD test of the gap, own
    /// state, target state): the fire depends on the distance only through its band and the
    /// test beyond sighting, so the lists of many gaps are one.
    memo: Mutex<HashMap<MemoKey, Rc>>,
    /// The default tactic's plans by (side, gap bits, own state, target state).
    plans: Mutex<HashMap<(Side, u64, SquadState, SquadState), rules::Plan>>,
}

/// A key of [`Memo::memo`].
type MemoKey = (Side, u16, Option<usize>, bool, SquadState, SquadState);
/// Outcomes of one activation: (probability, own state, target state, the target fell back).
type Rc = std::sync::Arc<Vec<(f64, SquadState, SquadState, bool)>>;

impl GruntGame<'_> {
    /// Where side `s` stands once its pending fall back is taken: the cells it falls back, and
    /// the gap its activation sees (the enemy's own pending fall back added).
    fn settle(&self, me: U, other: U, at: Spot) -> (u16, f64) {
        let back = if me.fallen { self.extra.fall_back.min(at.room) } else { 0 };
        let sum = self.setup.line.max_sum - at.ahead - back;
        (back, self.setup.line.gap(sum) + self.other_fallen(other))
    }

    /// The distance the enemy's pending fall back adds, cm.
    fn other_fallen(&self, other: U) -> f64 {
        if other.fallen { self.extra.fall_back as f64 * self.setup.line.step } else { 0.0 }
    }

    /// Actions a move of `cells` costs at `mv` cm an action.
    fn cost(&self, cells: u16, mv: f64) -> u8 {
        (cells as f64 * self.setup.line.step / mv - 1e-9).ceil().max(0.0) as u8
    }

    /// The book's options of side `s` (module docs): a panicked squad recovers or not; else
    /// whole cells of Move actions (crawling, or standing first, when prone) toward or away,
    /// then Fire, or then go prone and Fire.
    fn book_options(&self, s: Side, me: usize, other: usize, at: Spot, out: &mut Vec<Choice>) {
        let p = self.p[s];
        let (x, y) = (U::of(p, me), U::of(self.p[1 - s], other));
        let (back, _) = self.settle(x, y, at);
        let fb = -(back as i16);
        if x.s.panicked {
            out.push(Choice { advance: fb, action: PANIC + 1 });
            out.push(Choice { advance: fb, action: PANIC });
            return;
        }
        let (room, ahead) = (at.room - back, at.ahead + back);
        let forward = may_advance(p, x.s.alive, false);
        // (actions to stand first, MV, prone after moving) of each way to move.
        let ways: &[(u8, f64, bool)] =
            if x.s.prone { &[(0, p.mv / 3.0, true), (1, p.mv, false)] } else { &[(0, p.mv, false)] };
        for &(stand, mv, prone) in ways {
            let most = self.setup.line.cells_within((p.ac - stand) as f64 * mv) as u16;
            for c in 0..=most {
                let spent = stand + self.cost(c, mv);
                for dir in [1i16, -1] {
                    if (c == 0 && dir < 0) || (dir > 0 && (c > ahead || (c > 0 && !forward))) || (dir < 0 && c > room) {
                        continue;
                    }
                    let advance = fb + dir * c as i16;
                    out.push(Choice { advance, action: code(spent, prone) });
                    // Go prone after the move (one action).
                    if !prone && spent < p.ac {
                        out.push(Choice { advance, action: code(spent + 1, true) });
                    }
                }
            }
        }
    }
}

/// The action code of a squad that is not panicked.
fn code(spent: u8, prone: bool) -> u16 {
    spent as u16 * 2 + prone as u16
}

impl DuelGame for GruntGame<'_> {
    fn setup(&self) -> Setup {
        self.setup
    }
    /// [`rules::p_first`] with the leaders' LD; ½ in the first turn (the exact chain's and the
    /// Monte Carlo duel's first turn alternates who starts).
    fn p_a_first(&self, u: [usize; 2]) -> f64 {
        if u == [START, START] {
            return 0.5;
        }
        let (a, b) = (U::of(self.p[0], u[0]), U::of(self.p[1], u[1]));
        p_first(leader_ld(self.p[0], a.s.alive), leader_ld(self.p[1], b.s.alive))
    }
    fn n_states(&self, s: Side) -> usize {
        2 + PER_ALIVE * self.p[s].size() as usize
    }
    fn start_state(&self, _s: Side) -> usize {
        START
    }
    fn destroyed(&self, _s: Side, u: usize) -> bool {
        u == DEAD
    }
    /// Figures left, as a share of the squad's.
    fn strength(&self, s: Side, u: usize) -> f64 {
        let p = self.p[s];
        f64::from(U::of(p, u).s.alive) / f64::from(p.size().max(1))
    }
    fn n_actions(&self) -> usize {
        PANIC as usize + 2
    }
    fn options(&self, s: Side, me: usize, other: usize, at: Spot, out: &mut Vec<Choice>) {
        self.book_options(s, me, other, at, out);
        // The default tactic's choice is always one of them (its crawl of 3 or 6 cm, one cell,
        // costs fewer actions than the book's crawl of a whole cell).
        let c = self.scripted(s, me, other, at);
        if !out.contains(&c) {
            out.push(c);
        }
    }
    /// The default tactic at the gap ([`rules::plan_moves`], as [`super::exact::activation`] plans it):
    /// a panicked squad tests to recover only when its fire is nothing ([`rules::tries_recovery`]) and does not move.
    fn scripted(&self, s: Side, me: usize, other: usize, at: Spot) -> Choice {
        let (p, q) = (self.p[s], self.p[1 - s]);
        let (x, y) = (U::of(p, me), U::of(q, other));
        let (back, d) = self.settle(x, y, at);
        let fb = -(back as i16);
        if x.s.panicked {
            // "Recovering from panic" as the exact chain decides it, at the distance it fires.
            let aim = Aiming { target: q, target_prone: y.s.prone, panicked: true, ld: leader_ld(p, x.s.alive) };
            let recover = tries_recovery(panicked_fire(self.r, p, x.s.alive, d, &aim));
            return Choice { advance: fb, action: PANIC + recover as u16 };
        }
        let key = (s, d.to_bits(), x.s, y.s);
        let found = self.extra.plans.lock().expect("plans").get(&key).copied();
        let plan = found.unwrap_or_else(|| {
            let alive = x.s.alive;
            let t = Aiming { target: q, target_prone: y.s.prone, panicked: false, ld: leader_ld(p, alive) };
            let threat = Threat {
                profile: q,
                alive: y.s.alive,
                aiming: Aiming {
                    target: p,
                    target_prone: x.s.prone,
                    panicked: y.s.panicked,
                    ld: leader_ld(q, y.s.alive),
                },
            };
            let plan = plan_moves(self.r, p, alive, d, may_advance(p, alive, false), x.s.prone, &t, &threat);
            self.extra.plans.lock().expect("plans").insert(key, plan);
            plan
        });
        let cells = if plan.moves > 0 && plan.to <= MIN_GAP + 1e-9 {
            // To the closest approach (the solver stops the move there).
            at.ahead as i16 + back as i16
        } else {
            // Whole cells, to the nearest and at least one: a prone squad's crawl of 3 or 6 cm
            // is one 9 cm cell (the grid's gaps from 50 cm lie 1 to 3 cm beyond the bands'
            // limits, 41, 23 cm: the crawl into the nearer band stays in it).
            self.setup.line.cells(d - plan.to)
        };
        Choice { advance: fb + cells, action: code(plan.moves + plan.stand as u8, x.s.prone && !plan.stand) }
    }
    /// The same unit on both sides (one profile of the cost list).
    fn mirror(&self) -> bool {
        self.same_unit()
    }
    fn outcomes(&self, s: Side, action: u16, me: usize, other: usize, gap: f64, out: &mut Vec<(f64, usize, usize)>) {
        let (p, q) = (self.p[s], self.p[1 - s]);
        let (x, y) = (U::of(p, me), U::of(q, other));
        let d = gap + self.other_fallen(y);
        let (recover, spent, prone) =
            if action >= PANIC { (action == PANIC + 1, 0, true) } else { (true, (action / 2) as u8, action % 2 == 1) };
        let key = (s, action, band(self.r, d), needs_ld_test(self.r, d), x.s, y.s);
        let found = self.extra.memo.lock().expect("memo").get(&key).cloned();
        let list = found.unwrap_or_else(|| {
            let step = |st: &SquadState, was_panicked: bool| {
                if was_panicked { Step { spent: 0, prone: st.prone, to: d } } else { Step { spent, prone, to: d } }
            };
            let list: Rc = std::sync::Arc::new(
                activation_with(self.r, p, x.s, q, y.s, recover, step)
                    .into_iter()
                    .map(|(pr, s2, f, to)| (pr, s2, f, to > d + 1e-9))
                    .collect(),
            );
            self.extra.memo.lock().expect("memo").insert(key, list.clone());
            list
        });
        for &(pr, s2, f, fell) in list.iter() {
            out.push((pr, U::norm(s2, false).index(), U::norm(f, y.fallen || fell).index()));
        }
    }
}

/// The game of squads `a` and `b` starting `distance` cm apart on the 120 cm deep table, on a
/// grid of `step` cm. Errors: a start distance outside (0, 120].
impl OptimalPlay for GruntFactor {
    type Game<'a> = GruntGame<'a>;
    fn game(&self, a: usize, b: usize, distance: f64, step: f64) -> Result<GruntGame<'_>, NotExact> {
        // "Turn sequence": a roll-off every turn whose winner chooses who starts
        // ([`GruntGame::p_a_first`], [`Order::Initiative`]).
        let setup = GRID.setup(distance, step, MIN_GAP, self.book.duel.max_rounds, Order::Initiative)?;
        let fall_back = setup.line.cells(rules::FALL_BACK) as u16;
        let extra = Memo { fall_back, memo: Mutex::default(), plans: Mutex::default() };
        Ok(Pair { r: self, p: [self.profile(a), self.profile(b)], setup, extra })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Overrides, Source};
    use crate::rulesets::Ruleset;
    use crate::rulesets::grunt_factor::tests::ruleset;
    use crate::rulesets::optimal::{
        OptimalDuel, Policy, Without, analyse, optimal_duel, print_matrix, probe_at, unordered_pairs,
    };
    use crate::rulesets::optimal::{Probe, probe_args};
    use crate::rulesets::optimal::{assert_mirrors, assert_scripted_game_is};

    /// The shipped config with a round cap of `rounds` and its squads cut from four soldiers to
    /// three: the solver's cost grows with the rounds it solves and the states of a squad, and
    /// every property tested here holds at any cap and for any squad (three soldiers solve in
    /// under half the time of four).
    fn capped(rounds: u32) -> GruntFactor {
        let path = std::path::Path::new("configs/grunt-factor.toml");
        let text = std::fs::read_to_string(path).unwrap();
        assert!(text.contains("soldiers = 4\n"), "config layout changed");
        let src = Source::from_text(path, text.replace("soldiers = 4\n", "soldiers = 3\n"));
        GruntFactor::from_source(&src, &Overrides::parse(&[format!("duel.max_rounds={rounds}")]).unwrap()).unwrap()
    }

    #[test]
    fn the_scripted_game_is_the_exact_chain() {
        // At 50 cm (the report distance) the default tactic's moves are whole 9 cm cells: with
        // both sides scripted the game gives the exact chain's numbers (every pair agrees within
        // 1e-9 at this cap; over 40 rounds the fall back, 9 cm on the grid against the chain's
        // 10, and the table edge the chain does not have part them by less than 1e-5).
        let r = capped(6);
        let id = |u: &str| r.find(u);
        let pairs = [
            ("untrained-rifles", "elite-rifles"),
            ("regular-rifles", "regular-smgs"),
            ("regular-smgs", "regular-lmg"),
            ("elite-rifles", "elite-rifles"),
            ("elite-rifles", "regular-smgs"),
            ("veteran-rifles", "regular-hmg"),
            ("regular-sniper", "green-rifles"),
        ];
        for (a, b) in pairs {
            let e = r.exact_duel(id(a), id(b), 50.0).unwrap();
            assert_scripted_game_is(&r, (id(a), id(b)), (50.0, GRID.step), &e, 1e-9);
        }
    }

    #[test]
    fn action_codes_of_every_legal_ac_stay_below_the_panic_codes() {
        // A config may give a squad up to 10 actions: spending them all before firing (and
        // going prone) must not read as a panicked squad's action, nor leave the code table.
        let shipped = ruleset();
        let g = shipped.game(0, 0, 50.0, GRID.step).unwrap();
        for ac in 1..=MAX_AC as u8 {
            for spent in 0..=ac {
                assert!(code(spent, true) < PANIC && code(spent, false) < PANIC, "AC {ac}, {spent} spent");
            }
        }
        assert!(((PANIC + 1) as usize) < g.n_actions());
    }

    #[test]
    fn the_scripted_choice_is_a_book_option_except_short_crawls() {
        // The best response can always play the default tactic. Its choice is one of the book's
        // options in every state and position, except a prone squad's crawl of 1 or 2 actions
        // (3 or 6 cm, rounded to whole 9 cm cells), which `options` adds.
        let r = ruleset();
        let g = r.game(r.find("regular-smgs"), r.find("elite-rifles"), 50.0, GRID.step).unwrap();
        let line = g.line();
        let (mut opts, mut checked, mut crawls) = (Vec::new(), 0, 0);
        for s in [0, 1] {
            for sum in 0..=line.max_sum {
                for room in 0..=sum {
                    let at = Spot { gap: line.gap(sum), room, ahead: line.max_sum - sum };
                    for me in 1..g.n_states(s) {
                        for other in 1..g.n_states(1 - s) {
                            opts.clear();
                            g.book_options(s, me, other, at, &mut opts);
                            let c = g.scripted(s, me, other, at);
                            checked += 1;
                            // A move past the closest approach stops there, like the option's.
                            let fits = |o: &Choice| {
                                o.action == c.action
                                    && (o.advance == c.advance || o.advance.min(c.advance) >= at.ahead as i16)
                            };
                            if opts.iter().any(fits) {
                                continue;
                            }
                            let x = U::of(g.p[s], me);
                            let (spent, prone) = (c.action / 2, c.action % 2 == 1);
                            assert!(
                                x.s.prone && prone && c.action < PANIC && spent % 3 != 0,
                                "{s} {me} {other} {at:?}: {c:?} not in {opts:?}"
                            );
                            crawls += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 10_000 && crawls < checked / 10, "{checked} {crawls}");
    }

    /// One solve serves every start distance of a line (the contract of `OptimalPlay::game`;
    /// Gunplay's chart by start distance relies on it).
    #[test]
    fn one_solve_serves_every_start_distance_of_a_line() {
        let r = capped(2);
        // 9 cm grid, 120 cm table: 18 cm apart keeps the backs 120 cm apart. The two starts
        // reach different sets of states here (measured, not analysed), so each is solved on
        // its own: the same bits, no shortcut. The Grunt Factor has no chart by start distance.
        let units = (r.find("regular-rifles"), r.find("regular-smgs"));
        crate::rulesets::optimal::assert_one_solve_serves_every_start(&r, units, &[30.0, 48.0], GRID.step, false);
    }

    #[test]
    fn mirrors_are_exactly_even_under_optimal_play() {
        let r = capped(4);
        let mirrors = ["untrained-rifles", "regular-smgs", "elite-rifles"].map(|u| r.find(u));
        assert_mirrors(&r, &mirrors, (r.find("regular-smgs"), r.find("regular-lmg")), 50.0, GRID.step);
    }

    #[test]
    fn optimal_play_lies_between_the_best_responses() {
        let r = capped(3);
        for (a, b) in
            [("regular-smgs", "regular-rifles"), ("green-rifles", "regular-lmg"), ("elite-rifles", "regular-hmg")]
        {
            let o = optimal_duel(&r, r.find(a), r.find(b), 50.0, GRID.step).unwrap();
            o.assert_bounds();
            assert!(o.exploitability() >= 0.0);
        }
    }

    #[test]
    fn a_squad_that_falls_back_is_shot_at_from_farther_and_takes_the_fall_back_when_it_acts() {
        // "Special morale checks": more than 10 hits from one enemy squad, a failed LD test
        // falls back 10 cm (one 9 cm cell). Regular SMGs fire 30 shots at short range (32 cm).
        let r = ruleset();
        let (smg, rifles) = (r.find("regular-smgs"), r.find("regular-rifles"));
        let g = r.game(smg, rifles, 50.0, GRID.step).unwrap();
        let fresh = |p: &SquadProfile| U { s: SquadState::fresh(p), fallen: false };
        let (ps, pr) = (r.profile(smg), r.profile(rifles));
        let mut out = Vec::new();
        g.outcomes(0, code(0, false), fresh(ps).index(), fresh(pr).index(), 32.0, &mut out);
        let fell: f64 = out.iter().filter(|o| o.2 != DEAD && U::of(pr, o.2).fallen).map(|o| o.0).sum();
        assert!(fell > 0.01, "{fell}");
        // The fallen squad's next activation starts 9 cm back (room allowing); the SMGs firing
        // at it before that fire from 41 cm: medium range.
        let fallen = U { fallen: true, ..fresh(pr) }.index();
        let line = g.line();
        let sum = line.max_sum - (line.max_sum - 8);
        let at = Spot { gap: line.gap(sum), room: 4, ahead: line.max_sum - sum };
        assert_eq!(at.gap, 32.0);
        assert_eq!(g.scripted(1, fallen, fresh(ps).index(), at).advance, -1, "rifles hold after the fall back");
        let (mut at_32, mut at_41) = (Vec::new(), Vec::new());
        g.outcomes(0, code(0, false), fresh(ps).index(), fallen, 32.0, &mut at_32);
        g.outcomes(0, code(0, false), fresh(ps).index(), fresh(pr).index(), 41.0, &mut at_41);
        let kills =
            |out: &[(f64, usize, usize)]| out.iter().map(|o| o.0 * (5 - U::of(pr, o.2).s.alive) as f64).sum::<f64>();
        assert!((kills(&at_32) - kills(&at_41)).abs() < 1e-12);
    }

    #[test]
    fn state_indices_round_trip() {
        let r = ruleset();
        let p = r.profile(0);
        for i in 2..2 + PER_ALIVE * p.size() as usize {
            assert_eq!(U::of(p, i).index(), i, "{i}");
        }
        assert_eq!(U { s: SquadState::fresh(p), fallen: false }.index(), 2 + 4 * PER_ALIVE);
    }

    /// The whole optimal-play matrix at the report distance, with the exploitability of the
    /// scripted tactic per pair, worst first, and the exact chain beside the scripted game
    /// (`cargo test --lib grunt_factor::optimal::tests::optimal_matrix -- --ignored --nocapture`;
    /// OPTIMAL_STEP, OPTIMAL_DISTANCE override; OPTIMAL_UNITS=id,id,... keeps the pairs of those
    /// squads; OPTIMAL_HALVE=1 also solves on half the step and prints the largest change of
    /// the four values: the measurement behind [`GRID`]).
    #[test]
    #[ignore]
    fn optimal_matrix() {
        let r = ruleset();
        let (d, step) = probe_at(r.book.duel.distance, GRID.step);
        let halve = std::env::var("OPTIMAL_HALVE").is_ok();
        let units: Vec<usize> = match std::env::var("OPTIMAL_UNITS") {
            Ok(ids) => ids.split(',').map(|id| r.find(id)).collect(),
            Err(_) => (0..r.profiles.len()).collect(),
        };
        let pairs: Vec<(usize, usize)> =
            unordered_pairs(units.len()).into_iter().map(|(i, j)| (units[i], units[j])).collect();
        let worst_halving = std::cell::Cell::new(0.0f64);
        // The exact chain beside the scripted game, both best responses, and the half step.
        let more = |a: usize, b: usize, o: &OptimalDuel| {
            let e = r.exact_duel(a, b, d).unwrap();
            let mut line = format!(
                "  exact {:7.3}  A best {:7.3}  B best {:7.3}",
                100.0 * (e.a_wins + 0.5 * e.draws),
                100.0 * o.a_best_response.a_score(),
                100.0 * o.b_best_response.a_score(),
            );
            if halve {
                let h = optimal_duel(&r, a, b, d, step / 2.0).unwrap();
                let diff = [
                    (o.optimal, h.optimal),
                    (o.scripted, h.scripted),
                    (o.a_best_response, h.a_best_response),
                    (o.b_best_response, h.b_best_response),
                ]
                .iter()
                .map(|(x, y)| (x.a_score() - y.a_score()).abs())
                .fold(0.0, f64::max);
                line += &format!(
                    "\n    half step: optimal {:7.3}  scripted {:7.3}  exploit {:6.3}  largest change {:.3} points",
                    100.0 * h.optimal.a_score(),
                    100.0 * h.scripted.a_score(),
                    100.0 * h.exploitability(),
                    100.0 * diff
                );
                worst_halving.set(worst_halving.get().max(diff));
            }
            line
        };
        print_matrix(&r, |u| r.book.units[u].name.clone(), &pairs, (d, step), 8, more);
        println!("halving moved a value by up to {:.3} points", 100.0 * worst_halving.get());
    }
    /// The exploitability of the worst pairs with the best response denied going prone, moving
    /// back, or both (`cargo test --lib grunt_factor::optimal::tests::what_the_best_response_uses
    /// -- --ignored --nocapture`; OPTIMAL_DISTANCE, cm, default the report's 50).
    #[test]
    #[ignore]
    fn what_the_best_response_uses() {
        let r = ruleset();
        let d = std::env::var("OPTIMAL_DISTANCE").ok().and_then(|x| x.parse().ok()).unwrap_or(50.0);
        let pairs = [
            ("untrained-rifles", "untrained-rifles"),
            ("regular-smgs", "regular-lmg"),
            ("green-rifles", "regular-smgs"),
            ("regular-smgs", "regular-rifles"),
        ];
        for (a, b) in pairs {
            for (prone, back) in [(false, false), (true, false), (false, true), (true, true)] {
                let g = r.game(r.find(a), r.find(b), d, GRID.step).unwrap();
                // The book's options but those denied (the default tactic's choice always stays).
                let keep = |g: &GruntGame, s: Side, me: usize, other: usize, at: Spot, o: &Choice| {
                    let x = U::of(g.p[s], me);
                    let fb = if x.fallen { -(g.extra.fall_back.min(at.room) as i16) } else { 0 };
                    let denied =
                        (prone && o.action < PANIC && o.action % 2 == 1 && !x.s.prone) || (back && o.advance < fb);
                    !denied || *o == g.scripted(s, me, other, at)
                };
                let o = analyse(&Without { g, keep });
                println!(
                    "{a} v {b} at {d} cm without prone {prone} back {back}: optimal {:.3} scripted {:.3} A best {:.3} B best {:.3} exploit {:.3}",
                    100.0 * o.optimal.a_score(),
                    100.0 * o.scripted.a_score(),
                    100.0 * o.a_best_response.a_score(),
                    100.0 * o.b_best_response.a_score(),
                    100.0 * o.exploitability()
                );
            }
        }
    }

    /// Where the best response of one side departs from the scripted choice against the scripted
    /// other side: the states (at the start's positions advanced by the acting side) where the
    /// scripted choice loses the most, with the best choice
    /// (`OPTIMAL_PAIR=a,b OPTIMAL_SIDE=0|1 cargo test --lib grunt_factor::optimal::tests::explain_best_response
    /// -- --ignored --nocapture`).
    /// A probe's label of an option (the ignored probes below).
    fn show_choice(c: Choice) -> String {
        if c.action >= PANIC {
            format!("panic rec={}", c.action == PANIC + 1)
        } else {
            format!("adv {:+} spent {} prone {}", c.advance, c.action / 2, c.action % 2)
        }
    }

    /// A probe's label of a squad state: models alive, then P(anicked), p(rone), f(ired on),
    /// F(allen back).
    fn describe_state(p: &SquadProfile, i: usize) -> String {
        if i == START {
            return "START".to_string();
        }
        let x = U::of(p, i);
        format!(
            "{}{}{}{}{}",
            x.s.alive,
            if x.s.panicked { "P" } else { "" },
            if x.s.prone { "p" } else { "" },
            if x.s.fired_on { "f" } else { "" },
            if x.fallen { "F" } else { "" }
        )
    }

    #[test]
    #[ignore]
    fn explain_best_response() {
        use crate::rulesets::optimal::Explain;
        let r = ruleset();
        let pair = "untrained-rifles,untrained-rifles";
        let Probe { ids, side: s, distance: d, top } = probe_args(pair, 0, 50.0, 60, |id| r.find(id));
        let g = r.game(ids[0], ids[1], d, GRID.step).unwrap();
        let line = g.line();
        let mut policy = [Policy::Scripted; 2];
        policy[s] = Policy::Optimal;
        let mut ex = Explain::new(&g, policy);
        let show = show_choice;
        let desc = describe_state;
        let sign = if s == 0 { 1.0 } else { -1.0 };
        let mut rows = Vec::new();
        for first in [true, false] {
            for ahead in 0..=line.max_sum.saturating_sub(line.start) {
                let mut p = [line.start as usize; 2];
                p[s] += ahead as usize;
                if p[0] + p[1] > line.max_sum as usize {
                    break;
                }
                for me in 1..g.n_states(s) {
                    for other in 1..g.n_states(1 - s) {
                        if (me == START) != (other == START) {
                            continue;
                        }
                        let mut u = [0; 2];
                        u[s] = me;
                        u[1 - s] = other;
                        let (vals, sc) = ex.values(s, first, p, u);
                        if std::env::var("OPTIMAL_PANIC").is_ok() {
                            if sc.action < PANIC {
                                continue;
                            }
                            let q = |a: u16| vals.iter().find(|x| x.0.action == a).unwrap().1;
                            let diff = 100.0 * sign * (q(PANIC + 1) - q(PANIC));
                            rows.push((
                                diff,
                                format!(
                                    "me {:6} them {:6} first {:5} gap {:5.1}: recover - not {:7.3}",
                                    desc(g.p[s], me),
                                    desc(g.p[1 - s], other),
                                    first,
                                    line.gap((p[0] + p[1]) as u16),
                                    diff
                                ),
                            ));
                            continue;
                        }
                        let best = vals
                            .iter()
                            .copied()
                            .fold(None, |b: Option<(Choice, f64)>, x| match b {
                                Some(y) if sign * y.1 >= sign * x.1 => Some(y),
                                _ => Some(x),
                            })
                            .unwrap();
                        let scv = vals.iter().find(|x| x.0 == sc).map(|x| x.1).unwrap();
                        let loss = 100.0 * sign * (best.1 - scv);
                        rows.push((
                            loss,
                            format!(
                                "me {:6} them {:6} first {:5} gap {:5.1}: best {:26} {:7.3} | scripted {:26} {:7.3} | loss {:6.3}",
                                desc(g.p[s], me),
                                desc(g.p[1 - s], other),
                                first,
                                line.gap((p[0] + p[1]) as u16),
                                show(best.0),
                                100.0 * best.1,
                                show(sc),
                                100.0 * scv,
                                loss
                            ),
                        ));
                    }
                }
            }
        }
        rows.sort_by(|x, y| y.0.total_cmp(&x.0));
        for (_, row) in rows.iter().take(top) {
            println!("{row}");
        }
    }

    /// Where the gain of one side's best response comes from: the scripted-vs-scripted duel is
    /// propagated round by round, and every activation of that side adds its probability times
    /// the score its scripted choice loses against the best choice (the best response's
    /// values); the sum is the gain (`OPTIMAL_PAIR=a,b OPTIMAL_SIDE=0|1 cargo test --lib
    /// grunt_factor::optimal::tests::where_the_gain_comes_from -- --ignored --nocapture`).
    #[test]
    #[ignore]
    fn where_the_gain_comes_from() {
        use crate::rulesets::optimal::{print_largest, scripted_losses};
        use std::collections::BTreeMap;
        let r = ruleset();
        let pair = "untrained-rifles,untrained-rifles";
        let Probe { ids, side, distance: d, top } = probe_args(pair, 0, 50.0, 40, |id| r.find(id));
        let g = r.game(ids[0], ids[1], d, GRID.step).unwrap();
        let line = g.line();
        let show = show_choice;
        let desc = describe_state;
        let mut contrib: BTreeMap<String, f64> = BTreeMap::new();
        let mut kinds: BTreeMap<&str, f64> = BTreeMap::new();
        let s = side;
        let note = |p: [usize; 2], u: [usize; 2], first: bool, bc: Choice, sc: Choice, loss: f64| {
            let key = format!(
                "me {:6} them {:6} first {:5} gap {:5.1}: best {:26} scripted {:26}",
                desc(g.p[s], u[s]),
                desc(g.p[1 - s], u[1 - s]),
                first,
                line.gap((p[0] + p[1]) as u16),
                show(bc),
                show(sc)
            );
            *contrib.entry(key).or_default() += loss;
            let kind = if sc.action >= PANIC {
                "panic recovery"
            } else if bc.advance != sc.advance {
                "move"
            } else {
                "prone/aim/other"
            };
            *kinds.entry(kind).or_default() += loss;
        };
        let (total, _) = scripted_losses(&g, side, r.book.duel.max_rounds, note);
        print_largest(contrib, top);
        println!("by kind: {:?}", kinds.iter().map(|(k, v)| (k, 100.0 * v)).collect::<Vec<_>>());
        println!("total {:.3} points (side {side})", 100.0 * total);
    }
}
