//! A one-against-one Gunplay duel as a zero-sum game (DESIGN.md, "Optimal play and
//! exploitability"; issue 15): the exact chain's states and dice ([`super::exact`]) with every legal
//! action of an activation open to the acting side, solved by [`crate::rulesets::optimal`].
//!
//! Why a clock in A's state: the generic solver alternates single activations of the two
//! sides, a round-by-round roll-off deciding who goes first, but a Gunplay activation is *two*
//! actions, each chosen after the dice of the one before ("Actions": re-planned after every
//! action, as [`rules::activate`] does), and the turn order is rolled once per game turn
//! ("Turn Sequence"). So one action is one layer of the generic game, and a game turn of
//! leader L and follower F is three generic rounds: `[L's 1st, F waits]`, `[L's 2nd, F's 1st]`,
//! `[L waits, F's 2nd]`. The first round's roll-off is the turn's d12 roll (a fair coin for
//! two characters); in the other two the leader goes first for certain
//! ([`DuelGame::p_a_first`]). The clock (the layer within the turn, the leader, and whether the
//! acting character has aimed) rides in side A's unit state; side B's state is its character
//! state alone. The duel's `max_rounds` game turns are `3 × max_rounds` generic rounds.
//!
//! The options of an action ("Notes & Examples", "Action Definitions"; RULINGS.md, "Gunplay",
//! "Actions"): Pass; Fire (with the Aim bonus if the activation's previous action was Aim);
//! Aim (the first action only: an Aim lasts to the next action of the same activation); a
//! Cautious Move of up to 3" toward or away from the enemy, then Fire; a Quick Move of up to
//! 6" either way, then Fire with the −1 column shift; a move without firing where the new
//! distance is out of range; Charge within a Quick Move of contact; Strike in contact. A Down
//! character's first action is the forced Recover test, and a character that is Down at its
//! second action (failed recovery, or put Down in melee) has ended its activation. Cover is
//! the duel ground's (every shot counts it), so there is no take-cover option; "prone" after
//! recovery has no modelled effect, so there is no stand-up option.
//!
//! What it says of the default tactic at 24" (issue 15 item 4, not met): exploitable by 15.3
//! points at worst (Pistol v Shotgun), 8.9 on average. `tests::where_the_gain_comes_from` (the
//! scripted duel propagated, each scripted choice's loss against the best response's best
//! choice weighted by its probability; the sum is the gain, to 1e-9 by
//! `tests::the_scripted_choices_losses_add_up_to_the_gain`) traces the gains to where the
//! tactic moves, not to what it fires:
//! - Pistol v Shotgun, the Shotgun's 15.3: 13.0 from quick-moving in from 24" toward Close
//!   range where standing and firing at Effective is better (the scripted Pistol walks in under
//!   the Quick Move penalty anyway); 1.4 from retreats.
//! - Rifle v Shotgun, the Rifle's 14.2: 13.6 from retreats: a step back to 27" leaves the
//!   Rifle at Effective range and the Shotgun beyond its Effective band (24").
//! - Shotgun mirror, 11.1: 6.4 from standing instead of closing, 4.0 from retreats.
//! - Rifle v Pistol, the Pistol's 8.2: closing faster (Quick Moves at 24" and 18").
//! - Pistol v Shotgun, the Pistol's 5.7: 5.2 from retreats.
//!
//! At the sweep distances 12", 36" and 48" the largest gains are 12.4, 15.3 and 17.9 points
//! (measured on branch `gp-exp`, same tactic); at 12" Rifle v Pistol's best response steps
//! back 3" and fires, and without retreat options its gain is 0.9.
//!
//! Three rules for the one shared [`rules::plan`] were tried (branches `gp3-exchange`,
//! `gp3-retreat`, `gp3-share`, not merged) and each raised the largest gain at 24": expected
//! damage minus the target's best expected damage back from where the plan ends, 22.6 (the
//! Shotgun now stands; the Pistol and the Rifle step back out of its Effective band); the same
//! with retreats open to the tactic (its room behind read from the game, the exact chain and
//! the Monte Carlo duel not changed), 20.1 (the Shotgun backs off from the Rifle to aim; its
//! best response closes); plans ranked by the share of standing damage at the end distance,
//! 29.3. The tie-break by that share (branch `gp-exp`) gave 15.4. What stands in the way: a
//! one-activation rule that holds a band is beaten by a step back it neither makes nor sees
//! (the Monte Carlo duel and the exact chain have no table edge, so no room behind to retreat
//! into), and one that closes is beaten by standing against an opponent that closes anyway. A
//! tactic that is not exploitable here has to see the opponent's next activations: a
//! look-ahead over both sides' activations, with each side's room behind in the exact chain's
//! and the Monte Carlo duel's state, or the game's own policy. Policy improvement against a
//! best-responding opponent, read from this game (stop 37, not built; numbers in
//! [`crate::rulesets::optimal`]'s module docs): one step is exploitable by at most 3.3 points
//! at 3–24" (1.7 at 24") and 6.0 at 36" and 48", two steps by at most 2.2 at every sweep
//! distance.

use crate::rulesets::gunplay::exact::{State, after_fire, after_melee, down, is_down, up, wounds};
use crate::rulesets::gunplay::rules::{self, Action, EPS, Situation, band, p_pass, recovery_level};
use crate::rulesets::gunplay::{Gunplay, Profile};
use crate::rulesets::optimal::{Choice, DuelGame, Grid, OptimalPlay, Order, Pair, Setup, Spot, action_codes};
use crate::rulesets::{NotExact, Side};

/// The Gunplay duel table and grid, inches. Depth: the 48" skirmish table (RULINGS.md, "Duel
/// table depth"). Step 3": the moves (Cautious 3", Quick 6"), every range band edge of the
/// shipped weapons (9, 12, 18, 24, 36, 48") and the report distance (24") are whole cells, so
/// the scripted tactic moves on the grid exactly as in the exact chain; halving it moves no
/// value of the shipped matrix by more than 0.1 point (checked by a test).
pub const GRID: Grid = Grid { depth: 48.0, step: 3.0 };

/// Character states ([`exact::State`]: Up 0–3 wounds, Down 1–3, removed).
const N_CHAR: usize = 8;
/// Clock values: the turn start, then (leader, layer 1–5, aimed).
const N_CLOCK: usize = 21;

action_codes! {
    /// Pass (also a layer in which the side does not act).
    PASS,
    /// Fire, with the Aim bonus after an Aim.
    FIRE,
    /// Cautious Move then Fire (no Aim).
    MOVE_FIRE,
    /// Quick Move then Fire (−1 column).
    QUICK_FIRE,
    /// A move without firing.
    MOVE,
    /// Aim (the first action only).
    AIM,
    /// Charge into contact.
    CHARGE,
    /// Strike in contact.
    STRIKE,
    /// The forced Recover test of a Down character.
    RECOVER,
}

/// Where the duel stands within a game turn: `layer` 0–5 (0: the turn starts, its roll not
/// made yet), the leader, and whether the acting character's previous action was Aim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Clock {
    layer: u8,
    lead: Side,
    aimed: bool,
}

impl Clock {
    const START: Clock = Clock { layer: 0, lead: 0, aimed: false };

    fn index(self) -> usize {
        if self.layer == 0 { 0 } else { 1 + (self.lead * 5 + self.layer as usize - 1) * 2 + self.aimed as usize }
    }

    fn of(i: usize) -> Clock {
        if i == 0 {
            return Clock::START;
        }
        let j = i - 1;
        Clock { layer: (j / 2 % 5 + 1) as u8, lead: j / 10, aimed: j % 2 == 1 }
    }
}

/// What side `s` does in a layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Not this side's layer in this order of the round (a roll-off branch of weight 0).
    Idle,
    /// The other side is mid-activation: this layer only moves the clock on.
    Wait,
    /// An action with `left` actions left in the activation (2: the first).
    Act { left: u8 },
}

fn role(c: Clock, s: Side) -> Role {
    let leads = c.layer == 0 || s == c.lead;
    match (c.layer, leads) {
        (0, _) | (2, true) | (3, false) | (5, false) => Role::Act { left: if c.layer % 3 == 0 { 2 } else { 1 } },
        (1, false) | (4, true) => Role::Wait,
        _ => Role::Idle,
    }
}

/// The clock after side `s` plays `action` in its role.
fn next_clock(c: Clock, s: Side, action: u16) -> Clock {
    let aimed = match role(c, s) {
        Role::Idle => return c,
        Role::Wait => c.aimed,
        Role::Act { left } => left == 2 && action == AIM,
    };
    let layer = (c.layer + 1) % 6;
    if layer == 0 {
        return Clock::START;
    }
    Clock { layer, lead: if c.layer == 0 { s } else { c.lead }, aimed }
}

/// One Gunplay duel as a game: loadout `a` (side A) against loadout `b`.
pub type GunplayGame<'a> = Pair<'a, Gunplay, Profile>;

impl GunplayGame<'_> {
    /// (actor's character, target's character, clock) of the unit states of an activation.
    fn split(s: Side, me: usize, other: usize) -> (State, State, Clock) {
        let (ua, ub) = if s == 0 { (me, other) } else { (other, me) };
        let (xa, xb, c) = ((ua % N_CHAR) as State, ub as State, Clock::of(ua / N_CHAR));
        if s == 0 { (xa, xb, c) } else { (xb, xa, c) }
    }

    /// The unit states (actor, target) of characters `x` (actor) and `y` with clock `c`.
    fn join(s: Side, x: State, y: State, c: Clock) -> (usize, usize) {
        let (xa, xb) = if s == 0 { (x, y) } else { (y, x) };
        let (ua, ub) = (xa as usize + N_CHAR * c.index(), xb as usize);
        if s == 0 { (ua, ub) } else { (ub, ua) }
    }

    /// Cells of a scripted move of `by` inches from `at`: every cell to contact if the move
    /// reaches it, else the nearest whole number of cells (exact on the grid of the shipped
    /// config at the report distance).
    fn cells(&self, at: Spot, by: f32) -> i16 {
        if at.gap - by as f64 <= self.setup.line.min_gap + EPS as f64 {
            at.ahead as i16
        } else {
            ((by as f64 / self.setup.line.step).round() as i16).min(at.ahead as i16)
        }
    }
}

impl DuelGame for GunplayGame<'_> {
    fn setup(&self) -> Setup {
        self.setup
    }
    fn p_a_first(&self, u: [usize; 2]) -> f64 {
        let c = Clock::of(u[0] / N_CHAR);
        match c.layer {
            2 | 4 if c.lead == 0 => 1.0,
            2 | 4 => 0.0,
            _ => 0.5,
        }
    }
    fn n_states(&self, s: Side) -> usize {
        if s == 0 { N_CHAR * N_CLOCK } else { N_CHAR }
    }
    fn start_state(&self, _s: Side) -> usize {
        up(0) as usize
    }
    /// Removed, or Down too under `[rules] duel_victory = "none_up"` ([`crate::rulesets::gunplay::exact::defeated`]).
    fn destroyed(&self, _s: Side, u: usize) -> bool {
        crate::rulesets::gunplay::exact::defeated(self.r, (u % N_CHAR) as State)
    }
    /// Wounds short of removal, as a share of [`REMOVAL_WOUNDS`](crate::rulesets::gunplay::rules::REMOVAL_WOUNDS)
    /// (halved while Down); 0 once defeated.
    fn strength(&self, s: Side, u: usize) -> f64 {
        use crate::rulesets::gunplay::{exact, rules::REMOVAL_WOUNDS};
        let x = (u % N_CHAR) as State;
        if self.destroyed(s, u) {
            return 0.0;
        }
        let left = f64::from(REMOVAL_WOUNDS.saturating_sub(exact::wounds(x))) / f64::from(REMOVAL_WOUNDS);
        if exact::is_down(x) { 0.5 * left } else { left }
    }
    fn n_actions(&self) -> usize {
        N_ACTIONS
    }
    fn options(&self, s: Side, me: usize, other: usize, at: Spot, out: &mut Vec<Choice>) {
        let (x, _, c) = Self::split(s, me, other);
        let left = match role(c, s) {
            Role::Act { left } if !is_down(x) => left,
            Role::Act { left: 2 } => return out.push(Choice { advance: 0, action: RECOVER }),
            _ => return out.push(Choice { advance: 0, action: PASS }),
        };
        let (p, rules) = (self.p[s], &self.r.book.rules);
        let in_range = |gap: f64| band(p, gap as f32).is_some();
        out.push(Choice { advance: 0, action: PASS });
        if in_range(at.gap) {
            out.push(Choice { advance: 0, action: FIRE });
            if left == 2 {
                out.push(Choice { advance: 0, action: AIM });
            }
        }
        let (cautious, quick) = (
            self.setup.line.cells_within(rules.cautious_move as f64),
            self.setup.line.cells_within(rules.quick_move as f64),
        );
        for k in 1..=quick {
            for (dir, reach) in [(1i16, at.ahead), (-1, at.room)] {
                if k > reach as i16 {
                    continue;
                }
                let gap = (at.gap - (dir * k) as f64 * self.setup.line.step).max(self.setup.line.min_gap);
                // Firing never hurts the shooter: a move in range fires (Cautious as far as it
                // goes, Quick beyond), out of range it only moves.
                let action = match (in_range(gap), k <= cautious) {
                    (true, true) => MOVE_FIRE,
                    (true, false) => QUICK_FIRE,
                    (false, _) => MOVE,
                };
                out.push(Choice { advance: dir * k, action });
            }
        }
        let contact = rules.contact as f64 + EPS as f64;
        if at.gap > contact && at.gap - (rules.contact as f64) <= rules.quick_move as f64 + EPS as f64 {
            out.push(Choice { advance: i16::MAX, action: CHARGE });
        }
        if at.gap <= contact {
            out.push(Choice { advance: 0, action: STRIKE });
        }
    }
    /// [`rules::activate`]'s decision: the forced Recover of a Down character, Fire after an
    /// Aim, else the first action of [`rules::plan`] with the actions left.
    fn scripted(&self, s: Side, me: usize, other: usize, at: Spot) -> Choice {
        let (x, y, c) = Self::split(s, me, other);
        let pass = Choice { advance: 0, action: PASS };
        let left = match role(c, s) {
            Role::Act { left } if !is_down(x) => left,
            Role::Act { left: 2 } => return Choice { advance: 0, action: RECOVER },
            _ => return pass,
        };
        if c.aimed {
            return Choice { advance: 0, action: FIRE };
        }
        let sit =
            Situation { distance: at.gap as f32, wounds: wounds(x), target_down: is_down(y), target_wounds: wounds(y) };
        match rules::plan(self.r, self.p[s], self.p[1 - s], &sit, left)[0] {
            Action::Aim => Choice { advance: 0, action: AIM },
            Action::Fire => Choice { advance: 0, action: FIRE },
            Action::MoveFire { quick, by } => {
                Choice { advance: self.cells(at, by), action: if quick { QUICK_FIRE } else { MOVE_FIRE } }
            }
            Action::Move { by } => Choice { advance: self.cells(at, by), action: MOVE },
            Action::Charge => Choice { advance: i16::MAX, action: CHARGE },
            Action::Strike => Choice { advance: 0, action: STRIKE },
            Action::Pass => pass,
        }
    }
    /// The same unit on both sides (one profile of the cost list).
    fn mirror(&self) -> bool {
        self.same_unit()
    }
    fn outcomes(&self, s: Side, action: u16, me: usize, other: usize, gap: f64, out: &mut Vec<(f64, usize, usize)>) {
        let (x, y, c) = Self::split(s, me, other);
        let c2 = next_clock(c, s, action);
        let mut push = |q: f64, x2: State, y2: State| {
            let (m, o) = Self::join(s, x2, y2, c2);
            out.push((q, m, o));
        };
        let (p, pf) = (self.p[s], self.p[1 - s]);
        match action {
            FIRE | MOVE_FIRE | QUICK_FIRE => {
                let aimed = action == FIRE && c.aimed;
                for (q, t) in after_fire(self.r, p, wounds(x), y, gap as f32, aimed, action == QUICK_FIRE) {
                    push(q, x, t);
                }
            }
            CHARGE | STRIKE => {
                for (q, x2, y2) in after_melee(p, x, pf, y, action == CHARGE) {
                    push(q, x2, y2);
                }
            }
            RECOVER => {
                // "Damage & Wounds": pass → Up (prone), fail → one more wound, removed at 4.
                let w = wounds(x);
                let ok = p_pass(recovery_level(w), 0);
                push(ok, up(w), y);
                push(1.0 - ok, down(w + 1), y);
            }
            _ => push(1.0, x, y),
        }
    }
}

/// The game of loadouts `a` and `b` starting `distance` inches apart on the 48"-deep duel
/// table, on a grid of `step` inches. `Err` if the distance is not in (0, 48].
impl OptimalPlay for Gunplay {
    type Game<'a> = GunplayGame<'a>;
    fn game(&self, a: usize, b: usize, distance: f64, step: f64) -> Result<GunplayGame<'_>, NotExact> {
        // Three generic rounds per game turn (module docs). "Turn Sequence": a d12 roll-off per
        // game turn, fair for two characters; within the turn the clock fixes the order
        // ([`GunplayGame::p_a_first`]).
        let (rounds, order) = (3 * self.book.duel.max_rounds, Order::RollOff);
        let setup = GRID.setup(distance, step, self.book.rules.contact as f64, rounds, order)?;
        Ok(Pair { r: self, p: [self.profile(a), self.profile(b)], setup, extra: () })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::gunplay::Cover;
    use crate::rulesets::gunplay::exact::{self, REMOVED};
    use crate::rulesets::gunplay::tests::{ruleset, ruleset_with};
    use crate::rulesets::optimal::{Probe, probe_args};

    /// The identities below hold at any round cap: 12 game turns keep each solve quick.
    fn short(cover: Cover) -> Gunplay {
        ruleset_with(cover, &[("duel.max_rounds", "12")])
    }
    use crate::rulesets::optimal::{
        Policy, optimal_duel, print_largest, print_matrix, probe_at, scripted_losses, solve,
    };
    use crate::rulesets::optimal::{assert_half_grid_within, assert_mirrors, assert_scripted_game_is};
    use std::collections::BTreeMap;

    #[test]
    fn the_clock_round_trips_and_plays_a_turn_in_book_order() {
        for i in 0..N_CLOCK {
            assert_eq!(Clock::of(i).index(), i);
        }
        // Leader B: B acts, A waits, B acts, A acts, B waits, A acts, next turn.
        let mut c = Clock::START;
        let mut seen = Vec::new();
        for s in [1, 0, 1, 0, 1, 0] {
            seen.push(role(c, s));
            assert_eq!(role(c, 1 - s), if c.layer == 0 { Role::Act { left: 2 } } else { Role::Idle });
            c = next_clock(c, s, AIM);
        }
        use Role::*;
        assert_eq!(seen, [Act { left: 2 }, Wait, Act { left: 1 }, Act { left: 2 }, Wait, Act { left: 1 }]);
        assert_eq!(c, Clock::START);
    }

    /// The options of constructed positions ("Notes & Examples", "Action Definitions";
    /// "Damage & Wounds" for the forced recovery).
    #[test]
    fn the_options_are_the_books_actions() {
        let r = ruleset(Cover::Open);
        let g = r.game(r.find("pistol"), r.find("shotgun"), 24.0, GRID.step).unwrap();
        let opts = |s: Side, x: State, c: Clock, gap: f64, room: u16, ahead: u16| {
            let (me, other) = GunplayGame::join(s, x, up(0), c);
            let mut out = Vec::new();
            g.options(s, me, other, Spot { gap, room, ahead }, &mut out);
            out
        };
        let has = |v: &[Choice], advance: i16, action: u16| v.contains(&Choice { advance, action });
        // A fresh Pistol at 24" (Extreme): fire, aim, Cautious 3" then fire either way, Quick 6"
        // then fire either way, no melee.
        let v = opts(0, up(0), Clock::START, 24.0, 4, 12);
        for (advance, action) in [(0, PASS), (0, FIRE), (0, AIM), (1, MOVE_FIRE), (-1, MOVE_FIRE), (2, QUICK_FIRE)] {
            assert!(has(&v, advance, action), "{advance} {action}: {v:?}");
        }
        assert!(!v.iter().any(|c| c.action == CHARGE || c.action == STRIKE), "{v:?}");
        // At 33" a 6" retreat leaves the Pistol's range (36"): a move without a shot. No room
        // behind it: no retreat at all.
        assert!(has(&opts(0, up(0), Clock::START, 33.0, 4, 12), -2, MOVE));
        assert!(!opts(0, up(0), Clock::START, 24.0, 0, 12).iter().any(|c| c.advance < 0));
        // Within a Quick move of contact: Charge; in contact: Strike. The second action may
        // not Aim (an Aim lasts to the next action of the activation only).
        let second = Clock { layer: 2, lead: 0, aimed: false };
        let v = opts(0, up(0), second, 6.0, 4, 2);
        assert!(has(&v, i16::MAX, CHARGE) && !has(&v, 0, AIM), "{v:?}");
        assert!(has(&opts(1, up(1), Clock { layer: 3, lead: 0, aimed: false }, 1.0, 4, 0), 0, STRIKE));
        // Down: the first action is the forced recovery; Down at the second, nothing.
        assert_eq!(opts(0, down(1), Clock::START, 24.0, 4, 12), [Choice { advance: 0, action: RECOVER }]);
        assert_eq!(opts(0, down(2), second, 24.0, 4, 12), [Choice { advance: 0, action: PASS }]);
        // Not this side's layer: waits.
        assert_eq!(opts(1, up(0), second, 24.0, 4, 12), [Choice { advance: 0, action: PASS }]);
    }

    #[test]
    fn the_scripted_tactic_on_the_grid_is_the_exact_chain() {
        // At the report distance every scripted move lands on the grid: the game with both
        // sides scripted is the exact chain of `exact::duel` (each pair once; the swapped
        // pairs mirror them, `exact`'s tests).
        for (cover, a, b) in [
            (Cover::Open, "rifle", "pistol"),
            (Cover::Open, "pistol", "shotgun"),
            (Cover::Open, "shotgun", "rifle"),
            (Cover::Lots, "rifle", "shotgun"),
        ] {
            let r = short(cover);
            let (a, b) = (r.find(a), r.find(b));
            assert_scripted_game_is(&r, (a, b), (24.0, GRID.step), &exact::duel(&r, a, b, 24.0).unwrap(), 1e-9);
        }
    }

    /// One solve serves every start distance of a line (the contract of `OptimalPlay::game`;
    /// Gunplay's chart by start distance relies on it).
    #[test]
    fn one_solve_serves_every_start_distance_of_a_line() {
        let r = ruleset_with(Cover::Open, &[("duel.max_rounds", "2")]);
        let units = (r.find("rifle"), r.find("shotgun"));
        crate::rulesets::optimal::assert_one_solve_serves_every_start(&r, units, &[6.0, 12.0, 48.0], GRID.step, true);
    }

    #[test]
    fn a_mirror_is_exactly_even() {
        let r = short(Cover::Open);
        let u = r.find("shotgun");
        assert_mirrors(&r, &[u], (u, r.find("pistol")), 24.0, GRID.step);
    }

    #[test]
    fn optimal_play_lies_between_the_best_responses() {
        // Pistol v Shotgun: the pair whose scripted tactic is the most exploitable (the
        // Shotgun gains 15 points by its best response at 24").
        let r = short(Cover::Open);
        let o = optimal_duel(&r, r.find("pistol"), r.find("shotgun"), 24.0, GRID.step).unwrap();
        o.assert_bounds();
        assert!(o.b_gain() > 0.1 && o.exploitability() == o.b_gain(), "{o:?}");
    }

    /// Slow (the half grid has 4× the positions): `cargo test --lib halving_the_grid --
    /// --ignored`.
    #[test]
    #[ignore]
    fn halving_the_grid_moves_no_value_by_a_tenth_of_a_point() {
        let r = ruleset(Cover::Open);
        for (a, b) in [("rifle", "pistol"), ("pistol", "shotgun"), ("shotgun", "rifle")] {
            let (coarse, fine) = assert_half_grid_within(&r, (r.find(a), r.find(b)), 24.0, GRID.step, 0.001);
            println!("{a} v {b}: {coarse:.5} (3\") {fine:.5} (1.5\")");
        }
    }

    /// The whole optimal-play matrix of the shipped config at the report distance, with the
    /// exploitability of the scripted tactic per pair, worst first (`cargo test --lib
    /// gunplay::optimal::tests::optimal_matrix -- --ignored --nocapture`; `OPTIMAL_STEP`
    /// and `OPTIMAL_DISTANCE` override the grid and the distance).
    #[test]
    #[ignore]
    fn optimal_matrix() {
        let r = ruleset(Cover::Open);
        let (d, step) = probe_at(r.book.duel.distance, GRID.step);
        let n = r.profiles.len();
        // Ordered pairs: who is side A matters only through the scripted tactic's choices.
        let pairs: Vec<(usize, usize)> = (0..n).flat_map(|a| (0..n).map(move |b| (a, b))).collect();
        print_matrix(&r, |u| r.book.units[u].name.clone(), &pairs, (d, step), pairs.len(), |_, _, _| String::new());
    }

    /// A choice as a probe prints it: the action and the move in grid cells (+ toward).
    fn show_choice(c: Choice) -> String {
        let name = ["pass", "fire", "move+fire", "quick+fire", "move", "aim", "charge", "strike", "recover"];
        let advance = if c.advance == i16::MAX { "contact".to_string() } else { format!("{:+}", c.advance) };
        format!("{} {advance}", name[c.action as usize])
    }

    /// A character state as a probe prints it: Up or Down with its wounds, or removed.
    fn show_state(x: State) -> String {
        match x {
            REMOVED => "removed".to_string(),
            _ if is_down(x) => format!("Down{}", wounds(x)),
            _ => format!("Up{}", wounds(x)),
        }
    }

    /// What side `side`'s scripted choices lose against its best response, summed along the
    /// scripted duel ([`scripted_losses`]): the scripted-vs-scripted duel is propagated round by round, and
    /// every action of that side adds its probability times the score its scripted choice
    /// loses against the best choice (the best response's values). Returns (the sum, in
    /// probability units: the best response's gain; the probability of scripted choices that
    /// are no option of the game and so are not counted; the losses by position and choice;
    /// the losses by kind: retreat, other move, aim/fire/other).
    #[allow(clippy::type_complexity)]
    fn gain_by_choice(g: &GunplayGame, side: Side) -> (f64, f64, BTreeMap<String, f64>, BTreeMap<&'static str, f64>) {
        let line = g.line();
        let mut contrib: BTreeMap<String, f64> = BTreeMap::new();
        let mut kinds: BTreeMap<&'static str, f64> = BTreeMap::new();
        let note = |p: [usize; 2], u: [usize; 2], _first: bool, bc: Choice, sc: Choice, loss: f64| {
            let s = side;
            let (x, y, c) = GunplayGame::split(s, u[s], u[1 - s]);
            let key = format!(
                "me {:5} them {:5} act {} of turn, {} room {:2} gap {:4.1}: best {:14} scripted {:14}",
                show_state(x),
                show_state(y),
                if matches!(role(c, s), Role::Act { left: 2 }) { 1 } else { 2 },
                if c.layer == 0 || c.lead == s { "leads " } else { "follows" },
                p[s],
                line.gap((p[0] + p[1]) as u16),
                show_choice(bc),
                show_choice(sc)
            );
            *contrib.entry(key).or_default() += loss;
            let kind = if bc.advance < 0 {
                "retreat"
            } else if bc.advance != sc.advance {
                "move"
            } else {
                "aim/fire/other"
            };
            *kinds.entry(kind).or_default() += loss;
        };
        let (total, off_options) = scripted_losses(g, side, g.max_rounds(), note);
        (total, off_options, contrib, kinds)
    }

    /// The probe's losses add up to the solver's gain (the Shotgun's, Pistol v Shotgun at 24"),
    /// and for the Shotgun nearly all of it is where it moves: it quick-moves in from 24" where
    /// standing and firing is better against the scripted Pistol. The shipped round cap: the
    /// probe reads the settled values at every round, which a 12-turn cap has not reached.
    #[test]
    fn the_scripted_choices_losses_add_up_to_the_gain() {
        let r = ruleset(Cover::Open);
        let g = r.game(r.find("pistol"), r.find("shotgun"), 24.0, GRID.step).unwrap();
        let gain =
            solve(&g, [Policy::Scripted; 2]).a_score() - solve(&g, [Policy::Scripted, Policy::Optimal]).a_score();
        let (total, off, _, kinds) = gain_by_choice(&g, 1);
        assert!(off == 0.0 && (total - gain).abs() < 1e-9, "{total} v {gain}, {off}");
        assert!(gain > 0.1 && kinds["move"] > 0.8 * gain, "{kinds:?} of {gain}");
    }

    /// Where the gain of one side's best response comes from ([`gain_by_choice`], the largest
    /// losses first: `OPTIMAL_PAIR=a,b OPTIMAL_SIDE=0|1 OPTIMAL_DISTANCE=24 cargo test --lib
    /// gunplay::optimal::tests::where_the_gain_comes_from -- --ignored --nocapture`).
    #[test]
    #[ignore]
    fn where_the_gain_comes_from() {
        let r = ruleset(Cover::Open);
        let Probe { ids, side, distance: d, top } =
            probe_args("pistol,shotgun", 1, r.book.duel.distance, 40, |id| r.find(id));
        let g = r.game(ids[0], ids[1], d, GRID.step).unwrap();
        let (total, off_options, contrib, kinds) = gain_by_choice(&g, side);
        print_largest(contrib, top);
        println!("by kind: {:?}", kinds.iter().map(|(k, v)| (k, 100.0 * v)).collect::<Vec<_>>());
        let o = optimal_duel(&r, ids[0], ids[1], d, GRID.step).unwrap();
        let gain = if side == 0 { o.a_gain() } else { o.b_gain() };
        println!(
            "total {:.3} points (side {side}); the solver's gain {:.3}; scripted choices off the options (not \
             counted): probability {off_options:.4}",
            100.0 * total,
            100.0 * gain
        );
    }
}
