//! The skirmish's tactic metagame (issue 41, "Equilibrium per matchup"; DESIGN.md, "Play
//! model"): which of a ruleset's skirmish tactics each side should play, and how much a side
//! gains by switching tactic against the play the report's value in army comes from.
//!
//! The game: side A picks tactic `i` of the ruleset's skirmish tactics ([`Skirmish::tactics`]),
//! side B tactic `j`, both at once; a cell is A's mean score (win 1, draw ½, loss 0) over
//! random-army games of the basic game in which A plays `i` and B plays `j`. The report's runs
//! of one tactic are the diagonal cells (the same games); every other cell has a dice stream of
//! its own ([`crate::sim::skirmish::simulate`]), independent of every other cell's. (Two
//! diagonal cells share a stream where a ruleset's [`Skirmish::stream_names`] leave the tactic
//! out, as VSGMR's do: a switch against a mix that weighs two of them bounds their covariance
//! ([`deviations`]), and the Bonferroni bound needs no independence.)
//!
//! Why not common random numbers across cells: a batch's games share one dice stream, and two
//! tactics use different numbers of dice, so from a batch's second game on two cells' games
//! no longer share their armies or dice; common numbers would pair only each batch's first
//! game, and independent cells make the intervals of differences exact.
//!
//! The equilibrium is found by the double oracle ([`equilibrium::double_oracle`]: start from
//! the default tactic a side, add a side's best-responding tactic while it gains more than its
//! noise), so only the cells it needs are played. The cells' intervals are family-wise 95%
//! (Bonferroni over the `k²` cells of `k` tactics), so the value's interval holds at 95%.
//!
//! The report's play ([`Metagame::play`]) is the equilibrium: value in army, the unit
//! statistics, the missions and the rollout best response come from games in which each side
//! plays its equilibrium mix. Where both mixes are the same single tactic
//! ([`Metagame::played`]) those are the games of that tactic on both sides; otherwise each
//! game draws each side's tactic from its mix ([`crate::rulesets::skirmish::Play::draw`]).
//!
//! How exploitable that play is: each side's best tactic against the other side's mix, and
//! its gain in score over the play (a 95% interval, Bonferroni over the side's alternatives),
//! is a lower bound on the play's exploitability: a best response over every policy gains at
//! least as much. The gain is a linear combination of cells ([`deviations`]), with the
//! off-diagonal cells' variances added and the diagonal cells', which may share a stream,
//! bounded by Cauchy–Schwarz. The rollout best response ([`crate::rulesets::rollout`])
//! searches beyond the portfolio.
//!
//! Layer: analysis; imports the engine (`sim`), the rulesets' skirmish trait, `stats` and
//! [`super::equilibrium`].

use indicatif::ProgressBar;
use serde::{Deserialize, Serialize};

use super::equilibrium;
use crate::rulesets::skirmish::{Armies, NO_WEIGHT, Play, Skirmish, pure_mix, pure_tactic as pure};
use crate::sim::skirmish::{SkirmishTally, simulate};
use crate::stats::{CONFIDENCE, Estimate, normal, score, score_se};

/// One cell of the metagame: A played tactic `a`, B tactic `b` (indices into the tactics).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MetaCell {
    pub a: usize,
    pub b: usize,
    pub games: u64,
    /// Games side A won and side B won.
    pub wins: [u64; 2],
    pub draws: u64,
    /// A's mean score in [0, 1] with its family-wise interval (module docs).
    pub a_score: Estimate,
}

impl MetaCell {
    fn of(a: usize, b: usize, t: &SkirmishTally, confidence: f64) -> Self {
        MetaCell::counted(a, b, t.wins, t.draws, t.games, confidence)
    }

    /// The cell of `games` games in which A won `wins[0]`, B `wins[1]` and `draws` were
    /// drawn, its interval at `confidence` (in (0, 1)).
    pub fn counted(a: usize, b: usize, wins: [u64; 2], draws: u64, games: u64, confidence: f64) -> Self {
        MetaCell { a, b, games, wins, draws, a_score: score(wins[0], draws, games, confidence) }
    }

    /// A's mean score and its standard error.
    fn mean_se(&self) -> (f64, f64) {
        (self.a_score.value, score_se(self.wins[0], self.draws, self.games))
    }
}

/// A side's switch from its equilibrium mix to one tactic, against the other side's mix
/// ([`Metagame::play`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Deviation {
    /// The tactic switched to (its name).
    pub tactic: String,
    /// What the switching side gains in score, in [−1, 1] (0.05 is 5 score points), with its
    /// 95% interval (module docs).
    pub gain: Estimate,
}

/// A ruleset's skirmish tactic metagame (module docs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Metagame {
    /// The tactics' names, default first.
    pub tactics: Vec<String>,
    /// The cells played, in the order the double oracle asked for them.
    pub cells: Vec<MetaCell>,
    /// The game's value for side A (½ where the sides' chances are the same), with its 95%
    /// interval ([`equilibrium::Oracle::value`]).
    pub value: Estimate,
    /// Each side's equilibrium mix over the tactics (weights in [0, 1] summing to 1; 0 for a
    /// tactic the double oracle never added).
    pub a_mix: Vec<f64>,
    pub b_mix: Vec<f64>,
    /// The tactic both sides play in every game of the report's play when both equilibrium
    /// mixes are that one tactic (index into `tactics`); `None` when a side mixes or the sides
    /// play different tactics (module docs).
    pub played: Option<usize>,
    /// Each side's best switch of tactic against the other side's mix, A's first (module
    /// docs); `None` for a side whose switches were not played.
    pub deviations: [Option<Deviation>; 2],
}

impl Metagame {
    /// The cell where A plays `a` and B plays `b`, if it was played.
    pub fn cell(&self, a: usize, b: usize) -> Option<&MetaCell> {
        self.cells.iter().find(|c| c.a == a && c.b == b)
    }

    /// The report's play: each side's equilibrium mix (module docs).
    pub fn play(&self) -> Play {
        Play { mixes: [self.a_mix.clone(), self.b_mix.clone()] }
    }

    /// The report's play in words: "`x` on both sides", "`x` (A) v `y` (B)", or each side's
    /// mix ("A: `x` 53%, `y` 47%; B: ...") where a side draws its tactic for each game.
    pub fn play_text(&self) -> String {
        match (self.played, self.play().as_pure()) {
            (Some(t), _) => format!("`{}` on both sides", self.tactics[t]),
            (None, Some([a, b])) => format!("`{}` (A) v `{}` (B)", self.tactics[a], self.tactics[b]),
            (None, None) => {
                format!(
                    "A: {}; B: {}",
                    crate::format::quoted_mix_text(&self.tactics, &self.a_mix),
                    crate::format::quoted_mix_text(&self.tactics, &self.b_mix)
                )
            }
        }
    }

    /// A standoff: the share of draws, in (½, 1], in the games of [`Metagame::played`]
    /// against itself, when both sides play it and more than half of those games are drawn
    /// (no tactic of the portfolio clearly does better against it, and most games between two
    /// sides playing it end level); `None` otherwise.
    pub fn standoff(&self) -> Option<f64> {
        let played = self.played?;
        let c = self.cell(played, played)?;
        (2 * c.draws > c.games).then(|| c.draws as f64 / c.games as f64)
    }

    /// The side whose best switch against the report's play has the largest lower end of its
    /// interval (the clearest gain), as a side (0 A, 1 B) and the deviation; `None` when
    /// neither was played. The report's warning and its sentence on the switches read it.
    pub fn largest_deviation(&self) -> Option<(usize, &Deviation)> {
        self.best_switch(|e| e.lo)
    }

    /// The larger of the two sides' best switches by its point estimate, as a side and the
    /// deviation: the lower bound on the play's exploitability that `summary.json` gives.
    pub fn largest_gain(&self) -> Option<(usize, &Deviation)> {
        self.best_switch(|e| e.value)
    }

    /// The side whose switch has the largest `by` of its gain (the first side on a tie).
    fn best_switch(&self, by: fn(&Estimate) -> f64) -> Option<(usize, &Deviation)> {
        let mut v: Vec<(usize, &Deviation)> =
            self.deviations.iter().enumerate().filter_map(|(s, d)| d.as_ref().map(|d| (s, d))).collect();
        v.sort_by(|x, y| by(&y.1.gain).total_cmp(&by(&x.1.gain)));
        v.first().copied()
    }
}

/// Plays `s`'s tactic metagame over random armies of the basic game, `games` games a cell,
/// seeded by `seed`. `diagonal[t]`: the report's run of tactic `t` by both sides (the cell
/// `(t, t)`, the same games), for the first tactics it covers; any other cell is played when
/// the double oracle asks for it, with `progress(games, message)` making its bar. `None` when the ruleset has one
/// tactic (there is nothing to choose). Deterministic: every cell is a fixed run of the engine,
/// identical on any thread count. Errors: the equilibrium's linear programs' (as text; they
/// are programming errors, as the payoffs are the simulation's).
pub fn play<S: Skirmish>(
    s: &S,
    seed: u64,
    games: u64,
    diagonal: &[SkirmishTally],
    progress: impl Fn(u64, String) -> ProgressBar,
) -> Result<Option<Metagame>, String> {
    let names: Vec<String> = s.tactics().iter().map(|t| t.name.to_string()).collect();
    if names.len() < 2 || games == 0 {
        return Ok(None);
    }
    solve(names.clone(), |a, b, family| match diagonal.get(a).filter(|_| a == b) {
        Some(t) => MetaCell::of(a, b, t, family),
        None => {
            let pb = progress(games, format!("metagame: A {} v B {}", names[a], names[b]));
            let t = simulate(s, &Armies::Random, [a, b], 0, seed, games, &pb);
            pb.finish_and_clear();
            MetaCell::of(a, b, &t, family)
        }
    })
    .map(Some)
}

/// The tactic game of the tactics `names` (two or more, the default first) whose cell `(a, b)`
/// `cell(a, b, confidence)` plays (A's tactic `a` against B's `b`; its interval at the
/// family-wise `confidence` it is passed, Bonferroni over the `k²` cells): the double oracle's
/// equilibrium, both sides' mixes and their best switches ([`play`]'s, for any game whose
/// cells are counts of wins, losses and draws: the skirmish's, and the points-matched
/// squads' of `crate::analysis::squads_game`). Errors: the linear programs' (as text).
pub fn solve(names: Vec<String>, mut cell: impl FnMut(usize, usize, f64) -> MetaCell) -> Result<Metagame, String> {
    let k = names.len();
    let family = 1.0 - (1.0 - CONFIDENCE) / (k * k) as f64;
    let mut cells: Vec<MetaCell> = Vec::new();
    let oracle = equilibrium::double_oracle(k, k, |a, b| {
        let c = cell(a, b, family);
        let e = c.a_score;
        cells.push(c);
        e
    })
    .map_err(|e| e.to_string())?;
    let (a_mix, b_mix) = (oracle.equilibrium.row, oracle.equilibrium.col);
    // Both sides' single equilibrium tactic, if it is the same one.
    let played = match (pure(&a_mix), pure(&b_mix)) {
        (Some(a), Some(b)) if a == b => Some(a),
        _ => None,
    };
    let deviations = deviations(&cells, &names, [&a_mix, &b_mix]);
    Ok(Metagame { tactics: names, cells, value: oracle.value, a_mix, b_mix, played, deviations })
}

/// Each side's best switch of tactic against the other side playing `tactic` every game (a
/// pure play: the scripted tactic's is 0), from the game's cells ([`Metagame::deviations`]'
/// measure, against that play instead of the equilibrium): a lower bound on how exploitable
/// that play is. `None` for a side whose switches were not played.
pub fn switches_against(m: &Metagame, tactic: usize) -> [Option<Deviation>; 2] {
    let on = pure_mix(tactic, m.tactics.len());
    deviations(&m.cells, &m.tactics, [&on, &on])
}

/// Each side's best switch from its mix to one tactic against the other side's mix (module
/// docs), from the cells played. With `a`, `b` the mixes and `M` A's cell scores, A's switch
/// to `i` gains `Σⱼ bⱼ (M(i, j) − Σᵢ' aᵢ' M(i', j))` and B's to `j` gains
/// `Σᵢ aᵢ (Σⱼ' bⱼ' M(i, j') − M(i, j))`: linear combinations of the cells. Their variance:
/// the off-diagonal cells' squared weights times their squared standard errors (independent
/// streams), plus for the diagonal cells, which may share a stream, the Cauchy–Schwarz bound
/// `(Σ |weight · se|)²` (exact where one diagonal cell enters, as for a pure play). Where a side plays one tactic, the switches are to its other tactics (for
/// both sides on `t`: A's to `i` gains `M(i, t) − M(t, t)`); where it mixes, to every tactic.
/// The best by its point estimate, its 95% interval Bonferroni-corrected over the side's
/// switches that could be measured (every cell they weigh was played). `None` for a side with
/// no such switch.
fn deviations(cells: &[MetaCell], names: &[String], mixes: [&[f64]; 2]) -> [Option<Deviation>; 2] {
    let k = names.len();
    let find = |a: usize, b: usize| cells.iter().find(|c| c.a == a && c.b == b);
    // A mix as the games play it: one tactic exactly, or the weights without the rounding.
    let clean = |m: &[f64]| -> Vec<f64> {
        match pure(m) {
            Some(t) => pure_mix(t, k),
            None => m.iter().map(|&w| if w > NO_WEIGHT { w } else { 0.0 }).collect(),
        }
    };
    let mixes = mixes.map(clean);
    [0usize, 1].map(|side| {
        let (own, other) = (&mixes[side], &mixes[1 - side]);
        let pure_on = pure(own);
        let alts: Vec<(usize, f64, f64)> = (0..k)
            .filter(|&t| pure_on != Some(t))
            .filter_map(|t| {
                // The weight of each cell (own tactic x, other tactic y) in the gain of
                // switching to t: other[y] * ([x == t] − own[x]), as A's score for side A
                // and its negative for side B.
                // Off-diagonal cells are independent: their variances add. Diagonal cells may
                // share a stream ([`Skirmish::stream_names`] may leave the tactic out), so
                // theirs are bounded by Cauchy–Schwarz: the square of the summed |weight · se|.
                let (mut mean, mut var, mut diagonal) = (0.0, 0.0, 0.0);
                for y in (0..k).filter(|&y| other[y] > 0.0) {
                    for x in 0..k {
                        let w = (x == t) as u8 as f64 - own[x];
                        if w == 0.0 {
                            continue;
                        }
                        let c = if side == 0 { find(x, y) } else { find(y, x) }?;
                        let (m, se) = c.mean_se();
                        // A cell whose n games (nearly) all ended alike (every one won, lost
                        // or drawn) shows (almost) no spread; by the rule of three, at 95%
                        // fewer than 3/n of its games end otherwise, each at most a full point
                        // away, so its standard error is at least 3 / (1.96 n).
                        let se = se.max(3.0 / (crate::stats::z_for(CONFIDENCE) * c.games.max(1) as f64));
                        let weight = if side == 0 { other[y] * w } else { -(other[y] * w) };
                        mean += weight * m;
                        if x == y {
                            diagonal += (weight * se).abs();
                        } else {
                            var += (weight * se) * (weight * se);
                        }
                    }
                }
                Some((t, mean, (var + diagonal * diagonal).sqrt()))
            })
            .collect();
        let confidence = 1.0 - (1.0 - CONFIDENCE) / alts.len().max(1) as f64;
        alts.iter()
            .max_by(|x, y| x.1.total_cmp(&y.1))
            .map(|&(t, gain, se)| Deviation { tactic: names[t].clone(), gain: normal(gain, se, confidence, -1.0, 1.0) })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A side playing tactic 0, or 1, of two every game.
    const ON_0: [f64; 2] = [1.0, 0.0];
    const ON_1: [f64; 2] = [0.0, 1.0];

    fn cell(a: usize, b: usize, wins: [u64; 2], draws: u64) -> MetaCell {
        let t = SkirmishTally { games: wins[0] + wins[1] + draws, wins, draws, ..Default::default() };
        MetaCell::of(a, b, &t, 0.95)
    }

    #[test]
    fn a_side_that_gains_by_switching_is_named_with_the_difference_of_its_cells() {
        let names = vec!["default".to_string(), "cautious".to_string()];
        // Both default: ½. A switching to cautious scores 0.6; B switching holds A to 0.45.
        let cells = vec![cell(0, 0, [500, 500], 0), cell(1, 0, [600, 400], 0), cell(0, 1, [450, 550], 0)];
        let [a, b] = deviations(&cells, &names, [&ON_0, &ON_0]);
        let (a, b) = (a.expect("A's switch played"), b.expect("B's switch played"));
        assert_eq!(a.tactic, "cautious");
        assert!((a.gain.value - 0.10).abs() < 1e-12, "{:?}", a.gain);
        assert!((b.gain.value - 0.05).abs() < 1e-12, "{:?}", b.gain);
        // Independent cells: the difference's standard error is the root of the sum of squares.
        let se = (0.25f64 / 1000.0 + 0.24 / 1000.0).sqrt();
        assert!((a.gain.hi - a.gain.value - 1.959964 * se).abs() < 1e-5, "{:?}", a.gain);
        assert!(a.gain.lo > 0.0, "a gain of 10 points over 1000 games a cell is clear: {:?}", a.gain);
    }

    /// Against mixes, a switch's gain is the switching tactic's score against the other
    /// side's mix less the play's (hand-solved): A's cells 0.7, 0.2 / 0.3, 0.6, A mixing ½ ½
    /// and B 0.4 0.6, so the play scores 0.44 for A; A's tactic 1 scores 0.48 against B's mix
    /// (gain 0.04), its tactic 0 0.40; B's tactic 1 holds A to 0.40 (gain 0.04), its tactic 0
    /// to 0.50. Every tactic is a switch from a mix; the gain's variance adds the off-diagonal
    /// cells' squared weights times their squared standard errors and bounds the diagonal
    /// cells' (which may share a stream) by Cauchy–Schwarz.
    #[test]
    fn against_mixes_a_switch_gains_its_score_against_the_other_mix_less_the_play() {
        let names = vec!["x".to_string(), "y".to_string()];
        let cells = vec![
            cell(0, 0, [700, 300], 0),
            cell(0, 1, [200, 800], 0),
            cell(1, 0, [300, 700], 0),
            cell(1, 1, [600, 400], 0),
        ];
        let (a_mix, b_mix) = ([0.5, 0.5], [0.4, 0.6]);
        let [a, b] = deviations(&cells, &names, [&a_mix, &b_mix]);
        let (a, b) = (a.expect("A's switches"), b.expect("B's switches"));
        assert_eq!((a.tactic.as_str(), b.tactic.as_str()), ("y", "y"));
        assert!((a.gain.value - 0.04).abs() < 1e-12 && (b.gain.value - 0.04).abs() < 1e-12, "{a:?} {b:?}");
        let se = |c: &MetaCell| c.mean_se().1;
        // A's switch to y: weights ∓0.2 on (x, x), (y, x) and ∓0.3 on (x, y), (y, y); the
        // off-diagonal cells' variances add, the diagonal cells' are bounded by Cauchy–Schwarz.
        let expected = (0.04 * se(&cells[2]).powi(2)
            + 0.09 * se(&cells[1]).powi(2)
            + (0.2 * se(&cells[0]) + 0.3 * se(&cells[3])).powi(2))
        .sqrt();
        // Two switches a side: the interval is Bonferroni's over 2, at 97.5%.
        let z = crate::stats::z_for(1.0 - 0.05 / 2.0);
        assert!((a.gain.hi - a.gain.value - z * expected).abs() < 1e-9, "{a:?} vs se {expected}");
        // A cell the mixes weigh but that was not played leaves the switch unmeasured.
        let [a, b] = deviations(&cells[..3], &names, [&a_mix, &b_mix]);
        assert!(a.is_none() && b.is_none(), "{a:?} {b:?}");
        // A weight of rounding size is no weight: B's mix is then tactic x alone.
        let [a, _] = deviations(&cells[..3], &names, [&ON_0, &[1.0 - 1e-12, 1e-12]]);
        assert!((a.expect("A's switch to y").gain.value - (0.3 - 0.7)).abs() < 1e-12);
    }

    /// A cell whose games all ended alike has no spread by its counts (standard error 0); a
    /// switch that weighs it takes the cell's standard error from the rule of three (3 / (1.96
    /// n)), so the switch's interval is never empty, and narrow after a thousand games.
    #[test]
    fn a_switch_between_cells_that_all_ended_alike_still_has_an_interval() {
        let names = vec!["x".to_string(), "y".to_string()];
        // Both on x: A wins every game; B switching to y draws every game.
        let cells = vec![cell(0, 0, [1000, 0], 0), cell(1, 0, [1000, 0], 0), cell(0, 1, [0, 0], 1000)];
        let [_, b] = deviations(&cells, &names, [&ON_0, &ON_0]);
        let b = b.expect("B's switch played");
        assert_eq!(b.tactic, "y");
        assert!((b.gain.value - 0.5).abs() < 1e-12, "{b:?}");
        assert!(b.gain.lo < 0.5 && b.gain.hi > 0.5, "not an empty interval: {b:?}");
        assert!(b.gain.lo > 0.49, "a thousand games a cell leave little doubt: {b:?}");
    }

    #[test]
    fn switches_are_measured_against_the_played_tactic() {
        let names = vec!["bound".to_string(), "advance".to_string()];
        // Both advance: ½; A switching to bound scores 0.07; B switching to bound lets A score 0.93.
        let cells = vec![cell(1, 1, [490, 490], 20), cell(0, 1, [70, 930], 0), cell(1, 0, [930, 70], 0)];
        let [a, b] = deviations(&cells, &names, [&ON_1, &ON_1]);
        let (a, b) = (a.expect("A's switch"), b.expect("B's switch"));
        assert_eq!((a.tactic.as_str(), b.tactic.as_str()), ("bound", "bound"));
        assert!((a.gain.value + 0.43).abs() < 1e-12 && (b.gain.value + 0.43).abs() < 1e-12, "{a:?} {b:?}");
        assert!(a.gain.hi < 0.0 && b.gain.hi < 0.0);
        assert_eq!(pure(&[0.0, 1.0]), Some(1));
        assert_eq!(pure(&[0.4, 0.6]), None);
    }

    /// The Grunt Factor's metagame on the shipped rules: a side that holds its ground scores
    /// about 96% against a side that bounds from cover to cover, a side that advances on a
    /// holding side loses, and `hold-lead` (hold, advance when behind) scores about 53% against
    /// `hold` (the report's 20,000 games a cell; this test's 600 at seed 7 are noisier), so the
    /// equilibrium is `hold-lead` on both sides, the played tactic is `hold-lead`, and no
    /// switch gains clearly (the best is to `hold`). The diagonal cells are
    /// the runs given, to the bit; every cell is the engine's run of its tactic pair; and the
    /// metagame is the same on one and two threads.
    #[test]
    fn the_grunt_factor_plays_hold_lead_against_hold_lead_and_no_switch_gains() {
        let r = crate::rulesets::grunt_factor::tests::ruleset();
        let (seed, games) = (7, 600);
        let hidden = |_: u64, _: String| ProgressBar::hidden();
        let run = |tactics: [usize; 2], threads: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| simulate(&r, &Armies::Random, tactics, 0, seed, games, &ProgressBar::hidden()))
        };
        let diagonal: Vec<_> = (0..r.tactics().len()).map(|t| run([t, t], 2)).collect();
        let play_on = |threads: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| play(&r, seed, games, &diagonal, hidden).unwrap().unwrap())
        };
        let m = play_on(2);
        assert_eq!(m, play_on(1), "the metagame depends on the thread count");
        assert_eq!(m.tactics, ["bound", "advance", "hold", "hold-lead"]);
        assert_eq!(m.played, Some(3), "{m:?}");
        assert_eq!(m.play().as_pure(), Some([3, 3]), "{m:?}");
        for c in &m.cells {
            let t = if c.a == c.b { diagonal[c.a].clone() } else { run([c.a, c.b], 1) };
            assert_eq!((c.games, c.wins, c.draws), (t.games, t.wins, t.draws), "cell {} v {}", c.a, c.b);
        }
        let hold_v_bound = m.cell(2, 0).expect("played").a_score;
        assert!(hold_v_bound.lo > 0.75, "{hold_v_bound:?}");
        for d in m.deviations.iter().map(|d| d.as_ref().expect("both switches played")) {
            assert_eq!(d.tactic, "hold", "the best switch against hold-lead");
            assert!(d.gain.lo < 0.0 && d.gain.value < 0.0, "{d:?}");
        }
        assert!(m.value.contains(0.5), "a game between random armies is even: {:?}", m.value);
    }

    /// The play in words: one tactic on both sides, one tactic a side (a lopsided
    /// equilibrium, which is pure, so nothing is drawn), or each side's mix, heaviest first.
    #[test]
    fn the_play_is_named_by_its_tactic_each_sides_tactic_or_the_mixes() {
        let m = |a_mix: Vec<f64>, b_mix: Vec<f64>, played: Option<usize>| Metagame {
            tactics: vec!["x".to_string(), "y".to_string()],
            cells: Vec::new(),
            value: Estimate::exact(0.5),
            a_mix,
            b_mix,
            played,
            deviations: [None, None],
        };
        assert_eq!(m(vec![0.0, 1.0], vec![0.0, 1.0], Some(1)).play_text(), "`y` on both sides");
        let lopsided = m(vec![1.0, 0.0], vec![0.0, 1.0], None);
        assert_eq!(lopsided.play_text(), "`x` (A) v `y` (B)");
        assert_eq!(lopsided.play().as_pure(), Some([0, 1]));
        assert_eq!(m(vec![0.25, 0.75], vec![0.6, 0.4], None).play_text(), "A: `y` 75%, `x` 25%; B: `x` 60%, `y` 40%");
    }

    #[test]
    fn a_standoff_is_an_equilibrium_tactic_whose_own_games_are_mostly_draws() {
        let names = vec!["bound".to_string(), "hold".to_string()];
        let metagame = |hold_v_hold: MetaCell, b_mix: Vec<f64>| Metagame {
            tactics: names.clone(),
            cells: vec![cell(0, 0, [50, 50], 0), hold_v_hold],
            value: Estimate { value: 0.5, lo: 0.45, hi: 0.55 },
            a_mix: vec![0.0, 1.0],
            b_mix,
            played: Some(1),
            deviations: [None, None],
        };
        let m = metagame(cell(1, 1, [20, 20], 60), vec![0.0, 1.0]);
        assert_eq!(m.standoff(), Some(0.6));
        // Half the games drawn is not more than half; a play that mixes is no standoff.
        assert_eq!(metagame(cell(1, 1, [25, 25], 50), vec![0.0, 1.0]).standoff(), None);
        let mixed = Metagame { played: None, ..metagame(cell(1, 1, [20, 20], 60), vec![0.5, 0.5]) };
        assert_eq!(mixed.standoff(), None);
    }

    #[test]
    fn no_deviation_without_the_default_cell_or_an_alternative() {
        let names = vec!["default".to_string(), "cautious".to_string()];
        assert_eq!(deviations(&[cell(1, 0, [1, 1], 0)], &names, [&ON_0, &ON_0]), [None, None]);
        let [a, b] = deviations(&[cell(0, 0, [1, 1], 0), cell(1, 0, [1, 1], 0)], &names, [&ON_0, &ON_0]);
        assert!(a.is_some() && b.is_none());
    }
}
