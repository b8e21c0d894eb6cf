//! The duel game's tactic portfolio: plans a player would name, played as fixed policies of
//! the optimal-play game ([`super::Policy::Tactic`]), one file each behind one [`Tactic`]
//! trait. Issue 41 and DESIGN.md, "Play model": a matchup is played by a portfolio of tactics
//! in equilibrium, and the exploitability of that play is measured. At one against one the
//! game is solved exactly, so each tactic-against-tactic cell is an exact value and so is each
//! best response against a tactic; the mixes over the matrix of cells, and the bound the best
//! responses put on their exploitability, are [`super::portfolio`]'s and
//! `analysis::portfolio`'s.
//!
//! The tactics are written once for every ruleset: they decide from what a player sees through
//! the game's own interface ([`View`]): the legal options, the gap (the ruleset's unit) each
//! option leaves, the dice odds of each option's outcomes, and what the enemy could do from
//! there in its next activation. The ruleset's scripted tactic (`DuelGame::scripted`, the
//! Monte Carlo duel's) is the portfolio's first member beside these ([`names`]).
//!
//! The immediate **trade** of an option is a heuristic inside a tactic, never its goal: the
//! enemy's expected loss of strength minus one's own (strength: [`super::DuelGame::strength`],
//! 1 whole, 0 destroyed). The solver scores every tactic by the game's score (win 1, draw ½).
//!
//! Where the winner of a roll-off chooses who acts first (The Grunt Factor's turn, VSGMR's
//! initiative: [`super::Order::Initiative`]), each tactic makes that choice too
//! ([`Tactic::acts_first`], from the round-start position): `hold` acts first where it can
//! trade without moving, `ambush` where it can trade at all, `keep-out` where the enemy could
//! hurt it from where both stand; each lets the enemy act first otherwise. `charge`,
//! `best-trade` and the scripted tactic always act first.
//!
//! Not in the portfolio: hit and run (step in, fire, step back out) needs a move after the
//! action, which the game's options (a move, then an action) do not have; seeking cover, which
//! the one-against-one line has none of.
//!
//! Layer: rulesets (the optimal-play game's plumbing); imports [`super`] only.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use super::{Choice, DuelGame, Line, Spot};
use crate::rulesets::Side;
use crate::rulesets::tactic::portfolio;

/// A tactic of the duel game: the option side `v.side()` takes in the position `v` shows.
pub trait Tactic: Sync {
    /// One of `v`'s legal options ([`View::options`]).
    fn choose(&self, v: &View<'_>) -> Choice;

    /// Whether the side, having won a roll-off whose winner chooses who acts first
    /// ([`super::Order::Initiative`]: The Grunt Factor's turn, VSGMR's initiative), acts first
    /// in the round from the position `v` shows (the states at the round's start). Acts first
    /// unless the tactic says otherwise.
    fn acts_first(&self, _v: &View<'_>) -> bool {
        true
    }
}

portfolio!(hold, keep_out, charge, best_trade, ambush);

/// The name of the scripted tactic in the duel game's portfolio (its first member).
pub const SCRIPTED: &str = "scripted";

/// The duel game's whole portfolio by name: the ruleset's scripted tactic, then [`PORTFOLIO`].
pub fn names() -> Vec<&'static str> {
    std::iter::once(SCRIPTED).chain(TACTICS.iter().map(|t| t.name)).collect()
}

/// What the acting side sees: its state and the enemy's, the positions on the line, and the
/// game to ask for options and their odds.
pub struct View<'a> {
    pub(super) g: &'a dyn DuelGame,
    pub(super) line: Line,
    pub(super) s: Side,
    pub(super) me: usize,
    pub(super) other: usize,
    /// Each side's position (cells from its rearmost cell).
    pub(super) p: [usize; 2],
    pub(super) memo: &'a Memo,
}

/// What the tactics of one side have worked out, kept for the other states of a game: each
/// option's trade and exposure, and the enemy's reach against each pair of unit states.
#[derive(Default)]
pub(super) struct Memo {
    /// `(action, gap index, me, other)` → ([`View::trade`], [`View::dealt`]).
    trade: RefCell<HashMap<(u16, u16, u32, u32), (f64, f64)>>,
    /// `(enemy's state, own state)` → [`View::reach`].
    reach: RefCell<HashMap<(u32, u32), Rc<[bool]>>>,
    /// `(action, gap index, me, other)` → [`View::exposed`].
    exposed: RefCell<HashMap<(u16, u16, u32, u32), bool>>,
}

impl View<'_> {
    /// The acting side.
    pub fn side(&self) -> Side {
        self.s
    }

    /// The gap now (the ruleset's unit: inches or centimetres).
    pub fn gap(&self) -> f64 {
        self.line.gap((self.p[0] + self.p[1]) as u16)
    }

    /// The legal options (never empty).
    pub fn options(&self) -> Vec<Choice> {
        let sum = self.p[0] + self.p[1];
        let at =
            Spot { gap: self.gap(), room: self.p[self.s] as u16, ahead: (self.line.max_sum as usize - sum) as u16 };
        let mut out = Vec::new();
        self.g.options(self.s, self.me, self.other, at, &mut out);
        out
    }

    /// The sum of the positions after `c`'s move (the gap's index on the line).
    fn sum_after(&self, c: Choice) -> u16 {
        let q = super::moved(&self.line, self.s, self.p, c);
        (q[0] + q[1]) as u16
    }

    /// The gap after `c`'s move (the ruleset's unit).
    pub fn gap_after(&self, c: Choice) -> f64 {
        self.line.gap(self.sum_after(c))
    }

    /// The immediate trade of `c`: the enemy's expected loss of strength minus the acting
    /// side's own (each in [0, 1] of a whole unit), over `c`'s outcomes at the gap its move
    /// leaves.
    pub fn trade(&self, c: Choice) -> f64 {
        self.trade_and_dealt(c).0
    }

    /// What `c` takes of the enemy alone: its expected loss of strength (in [0, 1] of a whole
    /// unit), whatever `c` costs the acting side ([`View::trade`] without the own loss).
    pub fn dealt(&self, c: Choice) -> f64 {
        self.trade_and_dealt(c).1
    }

    fn trade_and_dealt(&self, c: Choice) -> (f64, f64) {
        let k = self.sum_after(c);
        let key = (c.action, k, self.me as u32, self.other as u32);
        if let Some(&t) = self.memo.trade.borrow().get(&key) {
            return t;
        }
        let t = trade(self.g, self.s, c.action, self.me, self.other, self.line.gap(k));
        self.memo.trade.borrow_mut().insert(key, t);
        t
    }

    /// Whether the enemy can take strength from the acting side from each gap on the grid
    /// (`reach[sum]`: gap index `sum`), the enemy in state `e_state` at the start of its
    /// activation and the acting side in `my_state`: an option (a move, then an action) of the
    /// enemy's from positions with that gap has an outcome that does, the enemy with all the
    /// room of the line behind it to step back (so a minimum range is stepped out of where the
    /// game allows).
    fn reach(&self, e_state: usize, my_state: usize) -> Rc<[bool]> {
        let key = (e_state as u32, my_state as u32);
        if let Some(r) = self.memo.reach.borrow().get(&key) {
            return r.clone();
        }
        let (g, e, line) = (self.g, 1 - self.s, &self.line);
        let mut opts = Vec::new();
        let r: Rc<[bool]> = (0..=line.max_sum)
            .map(|sum| {
                // The acting side at its own edge, the enemy with all the rest behind it.
                let at = Spot { gap: line.gap(sum), room: sum, ahead: line.max_sum - sum };
                opts.clear();
                g.options(e, e_state, my_state, at, &mut opts);
                opts.iter().any(|&o| {
                    let moved = i32::from(o.advance).clamp(-i32::from(sum), i32::from(at.ahead));
                    hurts(g, e, o.action, e_state, my_state, line.gap((i32::from(sum) + moved) as u16))
                })
            })
            .collect();
        self.memo.reach.borrow_mut().insert(key, r.clone());
        r
    }

    /// Whether some option trades: takes more of the enemy's strength than of the acting
    /// side's own, on average ([`View::trade`] above 1e-9).
    pub fn can_trade(&self) -> bool {
        self.options().into_iter().any(|c| key(self.trade(c)) > 0)
    }

    /// Whether the enemy could take strength from the acting side in its next activation from
    /// where both stand now (for some start of that activation; [`View::exposed`] without a
    /// move).
    pub fn threatened(&self) -> bool {
        self.reached(self.me, self.other, self.p[0] + self.p[1])
    }

    /// Whether the enemy, in state `other` before its activation-start events, can take
    /// strength from the acting side in state `me` from the gap of index `sum` ([`View::reach`]
    /// for some start of its activation).
    fn reached(&self, me: usize, other: usize, sum: usize) -> bool {
        self.enemy_starts(other).into_iter().any(|e| self.reach(e, me)[sum])
    }

    /// The enemy's states at the start of its next activation from `e_state` (its
    /// activation-start events: tests, flags that end), those of positive chance.
    fn enemy_starts(&self, e_state: usize) -> Vec<usize> {
        let mut out = Vec::new();
        self.g.activation_start(1 - self.s, e_state, &mut out);
        out.into_iter().filter(|b| b.0 > 0.0).map(|b| b.1).collect()
    }

    /// The enemy's threat range against the acting side, both in their present states: the
    /// largest gap (the ruleset's unit) from which the enemy, at the start of its activation,
    /// can take strength from it ([`View::exposed`]); `-∞` where it can from none. Its move
    /// plus its range, as the game's options give them.
    pub fn threat(&self) -> f64 {
        let mut best = f64::NEG_INFINITY;
        for e in self.enemy_starts(self.other) {
            if let Some(sum) = self.reach(e, self.me).iter().position(|&x| x) {
                best = best.max(self.line.gap(sum as u16));
            }
        }
        best
    }

    /// Whether the enemy could take strength from the acting side in its next activation
    /// after `c`: for some outcome of `c` (at the gap its move leaves) in which both still
    /// stand, and some start of the enemy's activation, the enemy has an option from that gap
    /// that can ([`View::reach`]). The states are those `c` leaves, so a game whose turn order
    /// lives in a unit's state (Gunplay's clock) asks the enemy at its next turn. Gaps inside
    /// an enemy's minimum range count as exposed only where it can step back out and fire.
    pub fn exposed(&self, c: Choice) -> bool {
        let k = self.sum_after(c);
        let key = (c.action, k, self.me as u32, self.other as u32);
        if let Some(&x) = self.memo.exposed.borrow().get(&key) {
            return x;
        }
        let (g, s) = (self.g, self.s);
        let mut out = Vec::new();
        g.outcomes(s, c.action, self.me, self.other, self.line.gap(k), &mut out);
        let x = out
            .iter()
            .filter(|o| o.0 > 0.0 && !g.destroyed(s, o.1) && !g.destroyed(1 - s, o.2))
            .any(|&(_, me, other)| self.reached(me, other, k as usize));
        self.memo.exposed.borrow_mut().insert(key, x);
        x
    }
}

/// The trade of `action` by side `s` (state `me`, enemy `other`) at `gap` ([`View::trade`]),
/// and the enemy's expected loss alone ([`View::dealt`]).
fn trade(g: &dyn DuelGame, s: Side, action: u16, me: usize, other: usize, gap: f64) -> (f64, f64) {
    let mut out = Vec::new();
    g.outcomes(s, action, me, other, gap, &mut out);
    let (mine, theirs) = (g.strength(s, me), g.strength(1 - s, other));
    let trade = out
        .iter()
        .map(|&(p, me2, other2)| p * ((theirs - g.strength(1 - s, other2)) - (mine - g.strength(s, me2))))
        .sum();
    let dealt = out.iter().map(|&(p, _, other2)| p * (theirs - g.strength(1 - s, other2))).sum();
    (trade, dealt)
}

/// Whether `action` by side `s` at `gap` can take strength from the enemy (any outcome of
/// positive chance).
fn hurts(g: &dyn DuelGame, s: Side, action: u16, me: usize, other: usize, gap: f64) -> bool {
    let mut out = Vec::new();
    g.outcomes(s, action, me, other, gap, &mut out);
    let theirs = g.strength(1 - s, other);
    out.iter().any(|&(p, _, other2)| p > 0.0 && g.strength(1 - s, other2) < theirs)
}

/// A trade or gap as a key that compares equal within 1e-9 (so that ties between options
/// whose values differ only by rounding fall to the options' order).
pub(super) fn key(x: f64) -> i64 {
    (x * 1e9).round() as i64
}

/// The first of `options` with the largest `key` (a total order on `f64` keys; ties keep the
/// options' order).
pub(super) fn first_max<K: PartialOrd + Copy>(options: &[Choice], key: impl Fn(Choice) -> K) -> Choice {
    let mut best = options[0];
    let mut bk = key(best);
    for &c in &options[1..] {
        let k = key(c);
        if k > bk {
            (best, bk) = (c, k);
        }
    }
    best
}

#[cfg(test)]
mod tests;
