//! The rollout best response of a skirmish (issue 41, "Exploitability at every level"; DESIGN.md,
//! "Play model"): how much one side gains against the report's play by looking ahead.
//!
//! Why: the tactic metagame measures a side's best *switch* of tactic for a whole game, a lower
//! bound on how exploitable the play is that only looks inside the portfolio. A player who picks
//! the plan afresh at every stage of the game, from what it sees there (its army and the
//! enemy's, the terrain, what is left of each side), plays a policy no single tactic of the
//! portfolio is; if it gains, the report's play leaves that much on the table.
//!
//! The algorithm is the rollout algorithm with several base policies (Tesauro & Galperin,
//! "On-line policy improvement using Monte-Carlo search", NIPS 1996; Bertsekas, Tsitsiklis &
//! Wu, "Rollout algorithms for combinatorial optimization", Journal of Heuristics 3, 1997): at
//! each of its stages (a round or a game turn, as the ruleset counts them: [`Staged::stage`])
//! the responding side tries every tactic of the ruleset's skirmish portfolio, each played
//! from there to the end of the game (the other side on its base tactic) in `rollouts`
//! playouts, and plays for that stage the one with the best mean score (win 1, draw ½, loss 0)
//! where it beats the base tactic's clearly ([`SWITCH_Z`] standard errors of their paired
//! difference), else keeps the base tactic. Continuing each option with itself, not with the
//! base tactic, lets a plan that pays only if kept up show its worth. Playout `k` of every
//! option starts from the same dice (common random numbers), and no playout uses the real
//! game's dice: the response sees the position, never the dice to come. The other side plays
//! its base tactic throughout; where it draws that tactic for each game from a mix (the
//! tactic metagame's equilibrium, [`Play`]), each playout draws it afresh from the mix, for the
//! responding side does not see which tactic the other drew (a response that did would gain
//! from knowledge no player has).
//!
//! The gain: each of `games` seeded games is played from one set-up (armies, terrain,
//! deployment) and one dice stream three times: by both base tactics, with side A responding,
//! with side B responding. The mean of a side's paired score differences, with its 95% normal
//! interval, is that side's gain ([`RolloutGain`]); in points it is the gain times 100. The
//! response is one policy among all a player could follow, so its expected gain is a lower
//! bound on the base play's exploitability: the interval's lower end is a lower bound at 95%.
//!
//! What it does not search: the options are a whole side's tactic for a stage, not each unit's
//! moves (a per-unit assignment is Portfolio Greedy Search's, Churchill & Buro, CIG 2013, not
//! built), and only the portfolio's plans: a plan no tactic of the portfolio plays goes unseen
//! (`docs/method.md`, "Validation").
//!
//! Determinism: game `k` draws its set-up and dice from `(seed, stream, k)` and its playouts
//! from streams of their own; games run in parallel and are summed in their order, so the
//! result is the same on any number of threads.
//!
//! Layer: rulesets (shared by the rulesets' skirmishes); imports `dice`, `seed`, `stats`.

use indicatif::ProgressBar;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::dice::{Dice, FastDice};
use crate::rulesets::skirmish::Play;
use crate::rulesets::{Ruleset, Side, matchup_budget, points_matched_size};
use crate::seed::{batch_seed, splitmix64};
use crate::stats::{CONFIDENCE, Estimate, normal};

/// A skirmish game played in stages at whose start a side may change its tactic: what the
/// rollout needs of a ruleset's game. Cloning a game copies its whole state (the table, both
/// armies, the turn count), so a playout from a clone leaves the game as it was.
pub trait Staged: Clone + Send {
    /// Plays the next stage (a round or a game turn, as the book counts them) with the dice
    /// `dice`; returns the winner once the game is over after it (`Some(None)`: a draw), else
    /// `None`. Every game ends within its turn cap.
    fn stage(&mut self, dice: &mut FastDice) -> Option<Option<Side>>;
    /// Side `s` plays tactic `t` (an index into the ruleset's skirmish tactics) from the next
    /// stage on.
    fn set_tactic(&mut self, s: Side, t: usize);
}

/// What a rollout best response runs.
#[derive(Debug, Clone, PartialEq)]
pub struct RolloutRun {
    /// Master seed; game `k` is seeded from `(seed, stream, k)`.
    pub seed: u64,
    /// The stream of the games (the ruleset's skirmish stream and a domain of its own).
    pub stream: u64,
    /// Games played (each three times: base, A responding, B responding); at least 2.
    pub games: u64,
    /// Playouts per option at each decision; at least 1.
    pub rollouts: u32,
    /// Each side's base play: its tactic, or the mix each game draws it from
    /// ([`Play::draw`], from the run's seed and stream), side A first. The mixes' length is
    /// the portfolio's (the options at each decision); at least 1.
    pub play: Play,
}

/// One side's rollout best response against the base play.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SideGain {
    /// The responding side's mean score in [0, 1] against the other side's base tactic.
    pub score: f64,
    /// Its mean gain over the base play, in score (probability units, in [−1, 1]), with its 95%
    /// interval from the paired games.
    pub gain: Estimate,
    /// The share of its decisions, in [0, 1], at which it left its base tactic.
    pub switched: f64,
}

/// The rollout best response of both sides against the base play ([`best_response`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RolloutGain {
    /// Games played (each three times).
    pub games: u64,
    /// Playouts per option at each decision.
    pub rollouts: u32,
    /// Each side's base tactic (indices into the tactics), side A first; `None` where a side
    /// draws its base tactic for each game from its mix (`mixes`).
    pub base: Option<[usize; 2]>,
    /// Each side's mix over the tactics (weights in [0, 1]) where a side draws its base tactic
    /// for each game ([`Play::draw`]); `None` when both play one tactic.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mixes: Option<[Vec<f64>; 2]>,
    /// Side A's mean score in [0, 1] with both sides playing their base tactics.
    pub base_score: f64,
    /// Side A responding (B on its base tactic), then side B responding.
    pub sides: [SideGain; 2],
}

impl RolloutGain {
    /// The larger gain of the two sides (score, probability units): the estimate of the
    /// exploitability's lower bound the report prints.
    pub fn largest(&self) -> &SideGain {
        if self.sides[1].gain.value > self.sides[0].gain.value { &self.sides[1] } else { &self.sides[0] }
    }

    /// Side `s`'s base play in words, from the tactics' `names`: its tactic's name in
    /// backticks, or "its equilibrium mix (x 53%, y 47%)" where it draws the tactic for each
    /// game.
    pub fn base_text(&self, s: Side, names: &[&str]) -> String {
        match (self.base, &self.mixes) {
            (Some(b), _) => format!("`{}`", names[b[s]]),
            (None, Some(m)) => format!("its equilibrium mix ({})", crate::format::quoted_mix_text(names, &m[s])),
            (None, None) => "its base tactic".to_string(),
        }
    }
}

/// Side `s`'s score of a game won by `w` (`None`: a draw): 1, ½ or 0.
fn score_of(w: Option<Side>, s: Side) -> f64 {
    match w {
        None => 0.5,
        Some(x) if x == s => 1.0,
        Some(_) => 0.0,
    }
}

/// Plays `g` to its end with `dice`; the winner.
fn finish<G: Staged>(g: &mut G, dice: &mut FastDice) -> Option<Side> {
    loop {
        if let Some(w) = g.stage(dice) {
            return w;
        }
    }
}

/// How clearly a tactic's playouts must beat the played tactic's before the response takes
/// it: by more than this many standard errors of their paired difference (a one-sided test at
/// 97.5% for each alternative, uncorrected for their number). Without it the response takes
/// whichever option its playouts' noise favours, and where no option is better it loses score
/// (measured on VSGMR duels: 1 to 3 points at 64 playouts).
pub const SWITCH_Z: f64 = 1.96;

/// Side `s`'s option at the start of stage `stage` of game `game` in position `g`: of the
/// tactics whose playouts beat its base tactic `base` clearly ([`SWITCH_Z`]; module docs), the
/// one with the largest mean gain; else the base tactic.
fn choose<G: Staged>(run: &RolloutRun, g: &G, s: Side, base: usize, game: u64, stage: u64) -> usize {
    // Playout k of every option: the same seed (common random numbers), apart from the game's.
    let playout_seed = |k: u64| {
        let decision =
            splitmix64(batch_seed(run.seed, run.stream ^ 0x726f_6c6c_6f75_7473, game) ^ (2 * stage + s as u64));
        batch_seed(decision, 0, k)
    };
    // The other side's tactic in playout k, as the responding side can know it: its base
    // tactic where it plays one, else drawn from its mix for each playout (the same for every
    // option), for the responding side does not see which tactic it drew for the game.
    let other = 1 - s;
    let scores = |t: usize| -> Vec<f64> {
        (0..run.rollouts as u64)
            .map(|k| {
                let seed = playout_seed(k);
                let (mut p, mut dice) = (g.clone(), FastDice::from_seed(seed));
                p.set_tactic(other, run.play.draw_side(other, splitmix64(seed ^ 0x6f74_6865_725f_7369)));
                p.set_tactic(s, t);
                score_of(finish(&mut p, &mut dice), s)
            })
            .collect()
    };
    let own = scores(base);
    let n = own.len() as f64;
    let mut best = (0.0, base);
    for t in (0..run.play.mixes[s].len()).filter(|&t| t != base) {
        let d: Vec<f64> = scores(t).iter().zip(&own).map(|(x, y)| x - y).collect();
        let mean = d.iter().sum::<f64>() / n;
        let var = d.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
        if mean > SWITCH_Z * (var / n).sqrt() && mean > best.0 {
            best = (mean, t);
        }
    }
    best.1
}

/// One game played three times ([`one_game`]).
struct GameScores {
    /// Side A's score under the base play, in [0, 1].
    base: f64,
    /// Each side's own score when it responds, in [0, 1].
    response: [f64; 2],
    /// Each side's decisions when it responds, and how many left its base tactic.
    decisions: [u64; 2],
    switched: [u64; 2],
}

/// Game `game` of `run`: its base tactics drawn ([`Play::draw`]), set up by `start`, played by
/// the base play and with each side responding.
fn one_game<G: Staged>(
    run: &RolloutRun,
    start: &(impl Fn(&mut FastDice, [usize; 2]) -> G + Sync),
    game: u64,
) -> GameScores {
    let base_tactics = run.play.draw(run.seed, run.stream, game);
    let mut dice = FastDice::from_seed(batch_seed(run.seed, run.stream, game));
    let g0 = start(&mut dice, base_tactics);
    let base = score_of(finish(&mut g0.clone(), &mut dice.clone()), 0);
    let mut out = GameScores { base, response: [0.0; 2], decisions: [0; 2], switched: [0; 2] };
    for s in 0..2 {
        let (mut g, mut d) = (g0.clone(), dice.clone());
        let (mut decisions, mut switched) = (0u64, 0u64);
        let w = loop {
            let t = choose(run, &g, s, base_tactics[s], game, decisions);
            decisions += 1;
            switched += (t != base_tactics[s]) as u64;
            g.set_tactic(s, t);
            if let Some(w) = g.stage(&mut d) {
                break w;
            }
        };
        out.response[s] = score_of(w, s);
        out.decisions[s] = decisions;
        out.switched[s] = switched;
    }
    out
}

/// The rollout best response in a ruleset's duels ([`best_response`]), the set-up shared by
/// the rulesets whose duel is played in stages (VSGMR, Gunplay): unit `a` (side A) against `b`,
/// one each (`budget` `None`) or points-matched squads bought with `budget` points (each side's
/// size drawn as the points-matched matrix draws it: [`points_matched_size`] of the matchup's
/// [`matchup_budget`], from two uniform numbers of the game's dice, A's first); `games` duels,
/// `rollouts` playouts per tactic at each stage, seeded from `seed` on the pair's own stream
/// (`RULESET|duel|A|B|rollout`; squads: `RULESET|points|A|B|rollout`). `base`: each side's mix
/// over [`Ruleset::squad_tactics`] that each duel draws its tactic from ([`Play::draw`]: the
/// squads' equilibrium); `None`: the scripted tactic (index 0) on both sides. `deploy(dice,
/// [na, nb], tactics)` sets the duel up with those sizes, each side on its tactic (it draws
/// what else it needs, such as who acts first, from `dice` after the sizes). `progress`
/// advances one per duel. Panics as [`best_response`] does (fewer than 2 games or 2
/// playouts), or if a mix of `base` is not as long as the ruleset's squad tactics.
#[allow(clippy::too_many_arguments)]
pub fn duel_best_response<R: Ruleset, G: Staged>(
    r: &R,
    (a, b): (usize, usize),
    budget: Option<f64>,
    (games, rollouts): (u64, u32),
    seed: u64,
    base: Option<&Play>,
    deploy: impl Fn(&mut FastDice, [u32; 2], [usize; 2]) -> G + Sync,
    progress: &ProgressBar,
) -> RolloutGain {
    let units = r.units();
    let kind = if budget.is_some() { "points" } else { "duel" };
    let stream = crate::seed::stream_id(&[r.id(), kind, &units[a].id, &units[b].id, "rollout"]);
    let tactics = r.squad_tactics().len();
    let play = base.cloned().unwrap_or_else(|| Play::pure([0, 0], tactics));
    assert!(play.mixes.iter().all(|m| m.len() == tactics), "mixes {play:?} of {tactics} tactics");
    let run = RolloutRun { seed, stream, games, rollouts, play };
    let costs = [units[a].cost, units[b].cost];
    let spend = budget.map(|x| matchup_budget(r, [a, b], costs, x));
    // Each side on its base tactic for the duel (drawn from its mix by the rollout).
    let start = |dice: &mut FastDice, tactics: [usize; 2]| {
        let sizes = match spend {
            None => [1, 1],
            Some(x) => {
                let u = [dice.unit_f64(), dice.unit_f64()];
                [0, 1].map(|s| points_matched_size(x, costs[s], u[s]))
            }
        };
        deploy(dice, sizes, tactics)
    };
    best_response(&run, start, progress)
}

/// The rollout best response of each side against the base play, over `run.games` games whose
/// set-up `start(dice, tactics)` builds from the game's dice (armies, terrain and deployment
/// drawn from them), side A on `tactics[0]` and side B on `tactics[1]` (the game's base
/// tactics, drawn from `run.play`). `progress` advances one per game (the caller sets its
/// length). Panics if `run` asks for fewer than 2 games or 2 playouts, or no tactic (the
/// callers check their input).
pub fn best_response<G: Staged>(
    run: &RolloutRun,
    start: impl Fn(&mut FastDice, [usize; 2]) -> G + Sync,
    progress: &ProgressBar,
) -> RolloutGain {
    assert!(
        run.games >= 2 && run.rollouts >= 2 && !run.play.mixes[0].is_empty(),
        "a rollout needs 2 games, 2 playouts, 1 tactic"
    );
    let per_game: Vec<GameScores> = (0..run.games)
        .into_par_iter()
        .map(|k| {
            let out = one_game(run, &start, k);
            progress.inc(1);
            out
        })
        .collect();
    let n = run.games as f64;
    let base_score = per_game.iter().map(|x| x.base).sum::<f64>() / n;
    let side = |s: Side| {
        // The responding side's score, game by game, against its score under the base play.
        let diff: Vec<f64> =
            per_game.iter().map(|x| x.response[s] - if s == 0 { x.base } else { 1.0 - x.base }).collect();
        let mean = diff.iter().sum::<f64>() / n;
        let var = diff.iter().map(|d| (d - mean) * (d - mean)).sum::<f64>() / (n - 1.0);
        let decisions: u64 = per_game.iter().map(|x| x.decisions[s]).sum();
        let switched: u64 = per_game.iter().map(|x| x.switched[s]).sum();
        SideGain {
            score: per_game.iter().map(|x| x.response[s]).sum::<f64>() / n,
            gain: normal(mean, (var / n).sqrt(), CONFIDENCE, -1.0, 1.0),
            switched: switched as f64 / decisions.max(1) as f64,
        }
    };
    let pure = run.play.as_pure();
    RolloutGain {
        games: run.games,
        rollouts: run.rollouts,
        base: pure,
        mixes: pure.is_none().then(|| run.play.mixes.clone()),
        base_score,
        sides: [side(0), side(1)],
    }
}

/// Test support for a ruleset's [`Staged`] game: `staged`, played stage by stage with `dice`,
/// ends with `winner` (what the whole game came to on the same dice); and where the game
/// outlasts its first stage, so does a clone taken after it, played on with a copy of the
/// dice (a clone copies the whole state). `label` names the game in a failure.
#[cfg(test)]
pub(crate) fn assert_plays_as_whole<G: Staged>(mut staged: G, mut dice: FastDice, winner: Option<Side>, label: &str) {
    let mut w = staged.stage(&mut dice);
    if w.is_none() {
        let mut copy = staged.clone();
        assert_eq!(finish(&mut copy, &mut dice.clone()), winner, "{label}, from a clone after its first stage");
        w = Some(finish(&mut staged, &mut dice));
    }
    assert_eq!(w, Some(winner), "{label}");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Dice;

    /// A game of `stages` stages with a running tally: in each stage side A scores a point
    /// with probability `p[t]` under its tactic `t` (B's tactic does nothing); after the last
    /// stage A wins with more than half the points, loses with fewer, draws on half.
    #[derive(Clone)]
    struct Race {
        p: [f64; 2],
        stages: u32,
        played: u32,
        points: u32,
        tactic: [usize; 2],
    }

    impl Staged for Race {
        fn stage(&mut self, dice: &mut FastDice) -> Option<Option<Side>> {
            self.played += 1;
            self.points += (dice.unit_f64() < self.p[self.tactic[0]]) as u32;
            if self.played < self.stages {
                return None;
            }
            Some(match (2 * self.points).cmp(&self.stages) {
                std::cmp::Ordering::Greater => Some(0),
                std::cmp::Ordering::Less => Some(1),
                std::cmp::Ordering::Equal => None,
            })
        }
        fn set_tactic(&mut self, s: Side, t: usize) {
            self.tactic[s] = t;
        }
    }

    fn run(games: u64, tactics: usize) -> RolloutRun {
        RolloutRun { seed: 7, stream: 11, games, rollouts: 32, play: Play::pure([0, 0], tactics) }
    }

    fn race(p: [f64; 2]) -> impl Fn(&mut FastDice, [usize; 2]) -> Race + Sync {
        move |_: &mut FastDice, tactic: [usize; 2]| Race { p, stages: 2, played: 0, points: 0, tactic }
    }

    /// A's base tactic scores with ½ a stage, its other with 0.9: two stages, so the base
    /// play's score is ¼ + ½·½ = ½ and the best response's (0.9 every stage) 0.81 + 0.18·½ =
    /// 0.9. The playouts share their dice, so the better tactic never scores less in one, and
    /// in 32 playouts it is clearly better ([`SWITCH_Z`]) unless 3 or fewer of them fall where
    /// the two differ (a chance of at most about 1e-4); the gain's interval holds the exact
    /// 0.4. B's tactics change nothing: its gain is exactly 0, and it never leaves its base
    /// tactic (ties keep it).
    #[test]
    fn the_rollout_finds_the_better_tactic_and_its_gain_holds_the_exact_gain() {
        let g = best_response(&run(4000, 2), race([0.5, 0.9]), &ProgressBar::hidden());
        let [a, b] = g.sides;
        assert!(a.gain.contains(0.4) && a.gain.lo > 0.35, "{a:?}");
        assert!(a.switched > 0.9, "{a:?}");
        assert_eq!((b.gain, b.switched), (Estimate::exact(0.0), 0.0));
        assert!((g.base_score - 0.5).abs() < 0.03, "{g:?}");
        assert_eq!(g.largest(), &a);
    }

    /// With one tactic there is nothing to switch to: every response game is the base game,
    /// so both gains are exactly 0.
    #[test]
    fn with_one_tactic_the_response_is_the_base_play() {
        let g = best_response(&run(50, 1), race([0.5, 0.9]), &ProgressBar::hidden());
        for s in g.sides {
            assert_eq!((s.gain, s.switched), (Estimate::exact(0.0), 0.0));
        }
    }

    /// The same seed gives the same result on one thread and on several.
    #[test]
    fn the_result_does_not_depend_on_the_thread_count() {
        let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let a = one.install(|| best_response(&run(200, 2), race([0.5, 0.6]), &ProgressBar::hidden()));
        let b = best_response(&run(200, 2), race([0.5, 0.6]), &ProgressBar::hidden());
        assert_eq!(a, b);
    }

    /// One stage: side A scores when its tactic matches side B's (a guess), B's tactic drawn
    /// for each game.
    #[derive(Clone)]
    struct Guess {
        tactic: [usize; 2],
    }

    impl Staged for Guess {
        fn stage(&mut self, _: &mut FastDice) -> Option<Option<Side>> {
            Some(Some(if self.tactic[0] == self.tactic[1] { 0 } else { 1 }))
        }
        fn set_tactic(&mut self, s: Side, t: usize) {
            self.tactic[s] = t;
        }
    }

    /// The response does not see the other side's hidden draw: against B mixing ½ ½, every
    /// tactic of A's scores ½ in expectation whatever it guesses, so A's gain is 0 (its
    /// interval holds 0 and stays below 8 points). A response whose playouts kept B's drawn
    /// tactic would always match it and gain ½.
    #[test]
    fn the_response_does_not_see_the_tactic_a_mixing_side_drew() {
        let mut r = run(2000, 2);
        r.play = Play { mixes: [vec![1.0, 0.0], vec![0.5, 0.5]] };
        let g = best_response(&r, |_: &mut FastDice, tactic: [usize; 2]| Guess { tactic }, &ProgressBar::hidden());
        let a = g.sides[0];
        assert!(a.gain.contains(0.0) && a.gain.hi < 0.08, "{g:?}");
        assert!((g.base_score - 0.5).abs() < 0.05, "{g:?}");
    }

    /// A base play that mixes: side A draws its base tactic for each game, half the games the
    /// poor one (½ a stage) and half the good one (0.9). Where it drew the good one there is
    /// nothing to gain, where the poor one 0.4 (the test above), so the gain is 0.2 in
    /// expectation; the base score is ½·½ + ½·0.9 = 0.7. The result names the mixes, not a
    /// base tactic, and is the same on one thread.
    #[test]
    fn against_a_mixed_base_the_gain_averages_over_the_drawn_tactics() {
        let mut r = run(4000, 2);
        r.play = Play { mixes: [vec![0.5, 0.5], vec![1.0, 0.0]] };
        let g = best_response(&r, race([0.5, 0.9]), &ProgressBar::hidden());
        assert_eq!((g.base, g.mixes.clone()), (None, Some(r.play.mixes.clone())));
        let a = g.sides[0];
        assert!(a.gain.contains(0.2) && a.gain.lo > 0.15 && a.gain.hi < 0.25, "{a:?}");
        assert!((g.base_score - 0.7).abs() < 0.03, "{g:?}");
        // The poor tactic was drawn in about half the games, and the response left it there.
        assert!((a.switched - 0.5).abs() < 0.05, "{a:?}");
        let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        assert_eq!(one.install(|| best_response(&r, race([0.5, 0.9]), &ProgressBar::hidden())), g);
    }
}
