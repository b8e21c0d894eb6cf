//! What every ruleset's one-against-one game shares around the solver (issue 40, item 3: one
//! optimal-game plumbing): the duel table and grid it is solved on ([`Grid`]), what a game
//! holds ([`Pair`]) and how it is built for a pair of units ([`OptimalPlay`]), the two solves
//! every ruleset offers ([`optimal_duel`], [`optimal_score`]) and the numbering of a game's
//! action codes ([`action_codes!`](crate::rulesets::optimal::action_codes)). A ruleset's
//! `optimal.rs` keeps only its rules: unit states, options, the scripted choice, the outcomes
//! of an action, and its table, grid and order of play.
//!
//! Layers: part of the rulesets layer; it imports only [`crate::rulesets`] (the solver beside
//! it and [`NotExact`]).

use super::{DuelGame, Line, OptimalDuel, Order, Setup, analyse};
use crate::rulesets::NotExact;

/// Where a ruleset's game is played: the depth of its duel table and the grid step the reports
/// solve on (DESIGN.md, "Optimal play and exploitability"; RULINGS.md, "Duel table depth").
/// Lengths are in the ruleset's unit: inches, centimetres for The Grunt Factor.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Grid {
    /// The depth of the duel table (each side may retreat to its own edge), > 0.
    pub depth: f64,
    /// The grid step of the reports and `matrix --optimal`, > 0: every move and gap of the game
    /// is a whole number of steps.
    pub step: f64,
}

impl Grid {
    /// The setup of a duel on this table starting `distance` apart, the units coming no closer
    /// than `min_gap`, on a grid of `step` (the reports' [`Grid::step`], or another for a test
    /// of the grid), drawn after `max_rounds` solver rounds, activating in `order`. Errors: as
    /// [`Line::new`] (a start distance below `min_gap` or above the table depth).
    pub fn setup(
        &self,
        distance: f64,
        step: f64,
        min_gap: f64,
        max_rounds: u32,
        order: Order,
    ) -> Result<Setup, NotExact> {
        Ok(Setup { line: Line::new(self.depth, distance, step, min_gap)?, max_rounds, order })
    }
}

/// One duel of two units of a ruleset as a game: what every ruleset's game holds. A ruleset's
/// game is this type for its ruleset and profile types (`AmcGame<'a>` is `Pair<'a,
/// ArmyMenCombat, Profile>`), with what it precomputes or caches in `extra`, and implements
/// [`DuelGame`] on it.
pub struct Pair<'a, R, P, X = ()> {
    /// The ruleset: its rules and duel settings.
    pub(crate) r: &'a R,
    /// Side A's and side B's units.
    pub(crate) p: [&'a P; 2],
    /// The line, the round cap and the order of play ([`DuelGame::setup`]).
    pub(crate) setup: Setup,
    /// What the ruleset's game precomputes or caches (`()`: nothing).
    pub(crate) extra: X,
}

impl<R, P, X> Pair<'_, R, P, X> {
    /// Whether both sides are the same unit (one profile of the cost list), which makes the game
    /// a mirror ([`DuelGame::mirror`]).
    pub fn same_unit(&self) -> bool {
        std::ptr::eq(self.p[0], self.p[1])
    }
}

/// A ruleset with a one-against-one game: how the game of a pair of its units is built. The
/// solves are the same for every ruleset ([`optimal_duel`], [`optimal_score`]).
pub trait OptimalPlay {
    /// The game of one pair.
    type Game<'a>: DuelGame
    where
        Self: 'a;
    /// The game of units `a` (side A) and `b` (side B), indices into the ruleset's units,
    /// starting `distance` apart on a grid of `step` (the ruleset's unit). Errors: a start
    /// distance off the table ([`Grid::setup`]), or a unit the game cannot play (named).
    ///
    /// Contract: the game depends on `distance` only through its [`DuelGame::setup`] (the
    /// line, and on it only where the units start): [`optimal_scores_at`] solves games whose
    /// setups differ only in [`Line::start`](super::Line::start) once. Each ruleset's test
    /// `one_solve_serves_every_start_distance_of_a_line` checks it.
    fn game(&self, a: usize, b: usize, distance: f64, step: f64) -> Result<Self::Game<'_>, NotExact>;
}

/// Units `a` against `b` of ruleset `r` starting `distance` apart under optimal play, with the
/// scripted tactic and both best responses beside it ([`analyse`]), on a grid of `step`.
/// Errors: as [`OptimalPlay::game`].
pub fn optimal_duel<R: OptimalPlay>(
    r: &R,
    a: usize,
    b: usize,
    distance: f64,
    step: f64,
) -> Result<OptimalDuel, NotExact> {
    Ok(analyse(&r.game(a, b, distance, step)?))
}

/// Units `a` against `b` of ruleset `r` starting `distance` apart, played by the duel game's
/// portfolio in equilibrium ([`portfolio`](super::portfolio)), on a grid of `step`. Errors: as
/// [`OptimalPlay::game`], or the mixer's.
pub fn portfolio_duel<R: OptimalPlay>(
    r: &R,
    a: usize,
    b: usize,
    distance: f64,
    step: f64,
    mixer: super::Mixer<'_>,
) -> Result<super::PortfolioDuel, NotExact> {
    super::portfolio(&r.game(a, b, distance, step)?, mixer)
}

/// Only A's score under optimal play of [`optimal_duel`] (both sides optimal; in [0, 1], win 1,
/// draw ½), for the report's "Which readings decide the verdicts": one solve instead of four,
/// and of the advantage alone ([`optimal_score`](super::optimal_score)). Errors: as
/// [`OptimalPlay::game`].
pub fn optimal_score<R: OptimalPlay>(r: &R, a: usize, b: usize, distance: f64, step: f64) -> Result<f64, NotExact> {
    Ok(super::optimal_score(&r.game(a, b, distance, step)?).0)
}

/// Only the both-sides-optimal value of [`optimal_duel`] (A's win, loss and draw chances),
/// one solve instead of four, the same bits ([`optimal_value`](super::optimal_value)). Errors:
/// as [`OptimalPlay::game`].
pub fn optimal_value<R: OptimalPlay>(
    r: &R,
    a: usize,
    b: usize,
    distance: f64,
    step: f64,
) -> Result<super::GameValue, NotExact> {
    Ok(super::optimal_value(&r.game(a, b, distance, step)?))
}

/// [`optimal_score`] of units `a` against `b` of ruleset `r` at each of `distances` (the
/// ruleset's unit), in order, on a grid of `step`: the same bits as one solve per distance,
/// from one solve per family of distances whose games differ only in where the units start
/// ([`optimal_scores_from`](super::optimal_scores_from): the same line, round cap and order;
/// a game is built from the ruleset, the two units, its setup and the step alone), and a solve
/// of its own for a distance whose reachable states differ. Errors, per distance: as
/// [`OptimalPlay::game`].
pub fn optimal_scores_at<R: OptimalPlay>(
    r: &R,
    a: usize,
    b: usize,
    distances: &[f64],
    step: f64,
) -> Vec<Result<f64, NotExact>> {
    let games: Vec<Result<R::Game<'_>, NotExact>> = distances.iter().map(|&d| r.game(a, b, d, step)).collect();
    // The setup with the start left out: games alike but for it are one family.
    let family = |g: &R::Game<'_>| {
        let mut s = g.setup();
        s.line.start = 0;
        s
    };
    let mut out: Vec<Option<Result<f64, NotExact>>> =
        games.iter().map(|g| g.as_ref().err().map(|e| Err(e.clone()))).collect();
    for k in 0..games.len() {
        let (None, Ok(g)) = (&out[k], &games[k]) else { continue };
        let members: Vec<usize> = (k..games.len())
            .filter(|&m| out[m].is_none() && games[m].as_ref().is_ok_and(|h| family(h) == family(g)))
            .collect();
        let starts: Vec<u16> = members.iter().map(|&m| games[m].as_ref().map_or(0, |h| h.setup().line.start)).collect();
        for (&m, v) in members.iter().zip(super::optimal_scores_from(g, &starts)) {
            out[m] = Some(match (v, &games[m]) {
                (Some(v), _) => Ok(v),
                (None, Ok(h)) => Ok(super::optimal_score(h).0),
                (None, Err(e)) => Err(e.clone()),
            });
        }
    }
    out.into_iter().map(|v| v.unwrap_or_else(|| Err(NotExact("no game".into())))).collect()
}

/// The one-against-one methods of [`Ruleset`](crate::rulesets::Ruleset) for a ruleset with a
/// game ([`OptimalPlay`]) on the grid step `$step` (the ruleset's unit): `optimal_duel` (doc
/// comments before `step:` go on it: the ruleset's table and grid), `optimal_score`,
/// `optimal_value`, `optimal_scores_at` and `portfolio_duel`, each the function of this module
/// of the same name. Written once here, used inside each ruleset's `impl Ruleset`.
///
/// ```ignore
/// crate::rulesets::optimal::optimal_play_methods!(
///     /// The duel as a game on the 36"-deep table, on a ½" grid.
///     step: optimal::GRID.step
/// );
/// ```
macro_rules! optimal_play_methods {
    ($(#[$doc:meta])* step: $step:expr) => {
        $(#[$doc])*
        fn optimal_duel(
            &self,
            a: usize,
            b: usize,
            distance: f64,
        ) -> Result<$crate::rulesets::optimal::OptimalDuel, $crate::rulesets::NotExact> {
            $crate::rulesets::optimal::optimal_duel(self, a, b, distance, $step)
        }
        fn optimal_score(&self, a: usize, b: usize, distance: f64) -> Result<f64, $crate::rulesets::NotExact> {
            $crate::rulesets::optimal::game::optimal_score(self, a, b, distance, $step)
        }
        fn optimal_value(
            &self,
            a: usize,
            b: usize,
            distance: f64,
        ) -> Result<$crate::rulesets::optimal::GameValue, $crate::rulesets::NotExact> {
            $crate::rulesets::optimal::game::optimal_value(self, a, b, distance, $step)
        }
        fn optimal_scores_at(&self, a: usize, b: usize, distances: &[f64]) -> Vec<Result<f64, $crate::rulesets::NotExact>> {
            $crate::rulesets::optimal::game::optimal_scores_at(self, a, b, distances, $step)
        }
        fn portfolio_duel(
            &self,
            a: usize,
            b: usize,
            distance: f64,
            mixer: $crate::rulesets::optimal::Mixer<'_>,
        ) -> Result<$crate::rulesets::optimal::PortfolioDuel, $crate::rulesets::NotExact> {
            $crate::rulesets::optimal::portfolio_duel(self, a, b, distance, $step, mixer)
        }
    };
}
pub(crate) use optimal_play_methods;

/// Declares a game's action codes ([`Choice::action`](super::Choice::action)): one `const NAME:
/// u16` each, numbered 0, 1, 2... in the order listed and keeping its docs, and `N_ACTIONS`,
/// their count, for [`DuelGame::n_actions`]. One list, so no code falls outside the count.
///
/// ```ignore
/// action_codes! {
///     /// Attack from where the unit stands.
///     HOLD,
///     /// Move, then attack.
///     WALK,
/// }
/// ```
macro_rules! action_codes {
    ($($(#[$doc:meta])* $name:ident),+ $(,)?) => {
        /// The action codes in order (their numbers are the `const`s below).
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[repr(u16)]
        enum ActionCode {
            $($name),+
        }
        $($(#[$doc])* const $name: u16 = ActionCode::$name as u16;)+
        /// The number of action codes (`DuelGame::n_actions`).
        const N_ACTIONS: usize = [$(ActionCode::$name),+].len();
    };
}
pub(crate) use action_codes;
