//! The scenarios of VSGMR v7 (section VIII; RULINGS.md, "Missions") on the Skirmish's table:
//! what each adds to the Basic Game — deployment, objectives, end and victory — and the one
//! decision rule per scenario by which the default tactic plays for the objective.
//!
//! Why apart from the rules: a scenario adds state between rounds (figures that left the
//! table) and a goal per figure ([`Goal`]), set at the start of each round by
//! [`super::skirmish::Game`]; the rules read the goals in the movement step
//! ([`super::rules::move_figure`]) and nothing else. The Basic Game sets no goal, so its
//! games draw exactly the dice they drew before scenarios existed.
//!
//! - **Escape** ("more than half his original number of figures ... across to the opposite
//!   edge"): every figure of a side that can still win (its figures on the table and those
//!   already across are more than half its original number) moves its whole Move straight
//!   toward the opposite edge and leaves the table when its move ends at the edge; it still
//!   attacks whatever it can in the attack steps. A side that can no longer win plays the
//!   Basic Game's tactic, attacking "to try to prevent any player from winning". The first
//!   side to have more than half its original figures across wins (figures leave in the order
//!   they move, the first player's first); 5 rounds without one: a draw.

use crate::battle::Pos;
use crate::rulesets::Side;
use crate::rulesets::skirmish::MissionInfo;

/// The scenarios built, the Basic Game first (the index is [`Mission::ALL`]'s).
pub const MISSIONS: &[MissionInfo] = &[
    MissionInfo {
        name: "basic",
        description: "the Basic Game (II, Victory): 5 rounds, more enemy points destroyed wins",
    },
    MissionInfo {
        name: "escape",
        description: "Escape (VIII): 25-40 points, the first side with more than half its figures across the opposite \
                      edge wins; 5 rounds, else a draw",
    },
];

/// A scenario of section VIII.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mission {
    /// Section II "Victory" and VIII "Basic Game": more enemy points destroyed in 5 rounds.
    #[default]
    Basic,
    /// Section VIII "Escape".
    Escape,
}

impl Mission {
    /// In the order of [`MISSIONS`].
    pub const ALL: [Mission; 2] = [Mission::Basic, Mission::Escape];

    /// The book's name, e.g. "Escape".
    pub fn title(self) -> &'static str {
        match self {
            Mission::Basic => "Skirmish",
            Mission::Escape => "Escape",
        }
    }
}

/// What the default tactic does with one figure this round instead of its Basic Game move.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum Goal {
    /// The Basic Game's tactic ([`super::rules::move_figure`]).
    #[default]
    Fight,
    /// Stays where it stands.
    Hold,
    /// Moves its whole Move toward `at` (inches on the table), stopping `stop` inches from it;
    /// `exit`: `at` lies at a table edge, and the figure leaves the table when it gets there.
    To { at: Pos, stop: f32, exit: bool },
}

/// A scenario's state that the rules read ([`super::rules::Battle::objective`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Objective {
    /// Per figure (index into the battle's figures): its goal this round; missing: fight.
    pub goals: Vec<Goal>,
    /// Figures that left the table by an exit goal, in the order they left (a mount's riders
    /// right after it). They are no longer alive on the table, but not destroyed.
    pub escaped: Vec<usize>,
    /// Added to each side's initiative rolls (section II.1).
    pub initiative: [i8; 2],
}

impl Objective {
    /// Figure `i`'s goal this round.
    pub fn goal(&self, i: usize) -> Goal {
        self.goals.get(i).copied().unwrap_or_default()
    }

    /// No goals, nobody escaped, no bonus (the Basic Game).
    pub fn clear(&mut self) {
        self.goals.clear();
        self.escaped.clear();
        self.initiative = [0, 0];
    }
}

/// Section VIII "Escape": the side whose figures first make more than half of its original
/// number of figures across the opposite edge, reading `escaped` (figure indices in the order
/// they left) with `side_of` each figure's side and `original` each side's figures at the
/// start.
pub fn escape_winner(escaped: &[usize], side_of: impl Fn(usize) -> Side, original: [usize; 2]) -> Option<Side> {
    let mut across = [0usize; 2];
    for &k in escaped {
        let s = side_of(k);
        across[s] += 1;
        if 2 * across[s] > original[s] {
            return Some(s);
        }
    }
    None
}

/// The point straight ahead of `at` at the edge opposite side `s`'s (side A deploys nearer
/// y = 0), inside the table by its edge margin: where an escaping figure goes.
pub fn far_edge(s: Side, at: Pos, depth: f32) -> Pos {
    let m = crate::battle::EDGE_MARGIN;
    Pos::new(at.x, if s == 0 { depth - m } else { m })
}

impl Mission {
    /// Each side's points, `(min, max)` of its random army (section VIII's suggestions): the
    /// config's `random_min..=random_max` (the book's 25 to 40) for the symmetric scenarios.
    pub fn budgets(self, cfg: &super::skirmish::SkirmishConfig) -> [(u32, u32); 2] {
        let both = (cfg.random_min, cfg.random_max);
        match self {
            Mission::Basic | Mission::Escape => [both, both],
        }
    }

    /// What each side is called in the scenario, side A first.
    pub fn sides(self) -> [&'static str; 2] {
        ["side A", "side B"]
    }

    /// A random army for side `s` at the scenario's points ([`Mission::budgets`]).
    pub fn random_roster<D: crate::dice::Dice>(
        self,
        field: &super::skirmish::Field,
        cfg: &super::skirmish::SkirmishConfig,
        s: Side,
        dice: &mut D,
    ) -> super::skirmish::Roster {
        field.random_roster_in(self.budgets(cfg)[s], dice)
    }

    /// The outcome table's header and rows (side A wins, side B wins, draw).
    pub fn outcome(self) -> [&'static str; 4] {
        match self {
            Mission::Basic => [
                "outcome (more enemy points destroyed wins)",
                "side A wins",
                "side B wins",
                "draw (equal points destroyed)",
            ],
            Mission::Escape => [
                "outcome (first side with more than half its figures across the opposite edge)",
                "side A escapes",
                "side B escapes",
                "draw (neither within 5 rounds)",
            ],
        }
    }

    /// One line: table, deployment, objective and end, from the config in force.
    pub fn setup(self, r: &super::Vsgmr) -> String {
        let c = &r.skirmish;
        match self {
            Mission::Basic => super::study::table_text(r),
            Mission::Escape => format!(
                "{}\"×{}\" table, {} cover pieces from the seed, the Basic Game's deployment (lines {}\" apart); every \
                 figure of a side that can still win moves straight for the opposite edge and leaves the table there; \
                 {} rounds",
                c.table_width, c.table_depth, c.cover_pieces, c.gap, c.rounds
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    //! Scenario tests (section VIII): constructed positions on the Skirmish's 72" × 48" table,
    //! scripted dice. Side A deploys nearer y = 0, side B nearer y = 48.
    use super::*;
    use crate::dice::ScriptedDice;
    use crate::rulesets::vsgmr::skirmish::{Game, Roster};
    use crate::rulesets::vsgmr::tests::ruleset;

    /// A roster of `n` figures of template `name`.
    pub(super) fn roster(r: &crate::rulesets::vsgmr::Vsgmr, name: &str, n: u32) -> Roster {
        Roster { name: name.to_string(), units: vec![(r.find(name), n)], rides: Vec::new() }
    }

    /// Puts figure `k` at (x, y), inches.
    pub(super) fn place(g: &mut Game, k: usize, x: f32, y: f32) {
        (g.b.figs[k].x, g.b.figs[k].y) = (x, y);
    }

    #[test]
    fn escape_a_figure_runs_for_the_far_edge_and_its_side_wins_when_more_than_half_are_across() {
        // Section VIII "Escape". A troop of side A 4" from the far edge (y = 48), a troop of
        // side B 6" to its side. A wins initiative (6 against 1) and moves first: it goes
        // straight for the edge, leaves the table, and with 1 of its 1 figures across (more
        // than half) side A wins in round 1. The Basic Game's tactic would close on the enemy
        // troop instead (and roll a hand-to-hand attack the script does not hold).
        let r = ruleset();
        let field = r.field();
        let (a, b) = (roster(&field.r, "Troop", 1), roster(&field.r, "Troop", 1));
        let mut g = Game::new(&field.r, &r.skirmish);
        g.mission = Mission::Escape;
        g.deploy([&a, &b], Vec::new());
        place(&mut g, 0, 36.0, 44.0);
        place(&mut g, 1, 30.0, 44.0);
        let mut dice = ScriptedDice::new(&[6, 1]);
        let out = g.play(&mut dice);
        assert_eq!((out.winner, out.rounds), (Some(0), 1));
        assert_eq!(g.b.objective.escaped, [0]);
        assert!(dice.exhausted());
        assert_eq!(out.destroyed, [0.0, 0.0], "a figure across the edge is not destroyed");
        assert_eq!((g.b.figs[1].x, g.b.figs[1].y), (30.0, 38.0), "B ran 6\" toward its own far edge (y = 0)");
    }

    #[test]
    fn escape_a_side_that_can_no_longer_win_fights_and_the_game_can_end_drawn() {
        // Section VIII "Escape": "A player who does not have enough figures remaining to win can
        // still attack". Side A fielded 3 troops and has 1 left (1 + 0 across is not more than
        // half of 3): it closes on the nearest enemy instead of running. Side B's troop runs
        // for y = 0. A moves first (initiative 6 against 1) into base contact with B's troop
        // standing 6" away, B's troop then runs 6" on; no attack is possible.
        let r = ruleset();
        let field = r.field();
        let (a, b) = (roster(&field.r, "Troop", 3), roster(&field.r, "Troop", 1));
        let mut g = Game::new(&field.r, &r.skirmish);
        g.mission = Mission::Escape;
        g.deploy([&a, &b], Vec::new());
        g.b.figs[1].alive = false;
        g.b.figs[2].alive = false;
        place(&mut g, 0, 36.0, 30.0);
        place(&mut g, 3, 36.0, 36.0);
        let mut dice = ScriptedDice::new(&[6, 1]);
        g.b.round = 1;
        g.set_goals();
        g.play_round(&mut dice);
        assert_eq!((g.b.figs[0].x, g.b.figs[0].y), (36.0, 35.0), "A's last troop charged B's");
        assert_eq!((g.b.figs[3].x, g.b.figs[3].y), (36.0, 30.0), "B's troop ran for its far edge");
        assert_eq!(g.decided(), None, "B (1 of 1 on the table) can still win");
    }

    #[test]
    fn escape_the_first_side_past_half_wins() {
        // Figures 0..3 side A (3 fielded), 3..5 side B (2 fielded): B's second figure across
        // comes before A's second.
        let side = |k: usize| usize::from(k >= 3);
        assert_eq!(escape_winner(&[0, 3, 4, 1], side, [3, 2]), Some(1));
        assert_eq!(escape_winner(&[0, 3, 1, 4], side, [3, 2]), Some(0));
        assert_eq!(escape_winner(&[0, 3], side, [3, 2]), None);
    }
}
