//! The skirmish engine: plays a ruleset's [`Skirmish`] games in fixed batches and tallies them.
//!
//! The same scheme as the duels (DESIGN.md, "Monte Carlo engine"): batch `k` of a run rolls
//! dice seeded from (seed, stream, k), where the stream is the hash of the ruleset's
//! [`Skirmish::stream_names`], and tallies are integer counts merged in batch order, so a seed
//! gives the same tally on any thread count. One [`GameRecord`] and one game scratch space
//! serve every game of a batch.

use indicatif::ProgressBar;

use crate::rulesets::engine::{Tally, add_counts};
use crate::rulesets::skirmish::{Armies, EQUILIBRIUM_MIX, GameRecord, Play, Skirmish};
use crate::seed::stream_id;
use crate::sim::{RunPlan, run};

/// One random-army game for the value-in-army regression: each item's count difference
/// (side A − side B; units, then upgrades) and the result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultRow {
    pub diff: Vec<i8>,
    /// 0: A won, 1: B won, 2: draw.
    pub result: u8,
}

/// Integer counts of a batch of skirmishes; merged in batch order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SkirmishTally {
    pub games: u64,
    /// Wins of side A and B, draws.
    pub wins: [u64; 2],
    pub draws: u64,
    /// Sum of game turns.
    pub turns: u64,
    /// Per unit type: units fielded, survivors at the end.
    pub fielded: Vec<u64>,
    pub survivors: Vec<u64>,
    /// Per unit type, sums over games of one game's fielded count f and survivor count s
    /// (both sides): Σ f², Σ s·f, Σ s². The survival interval resamples whole games
    /// (cluster-robust variance, [`crate::stats::clustered_proportion`]): units of one game
    /// share its dice and its outcome, so they are not independent.
    pub fielded_sq: Vec<u64>,
    pub survivors_fielded: Vec<u64>,
    pub survivors_sq: Vec<u64>,
    /// `kills[killer * n + victim]`: enemy units of type `victim` destroyed by type `killer`.
    pub kills: Vec<u64>,
    /// Per random-army game, in trial order (empty for fixed armies).
    pub records: Vec<ResultRow>,
}

impl Tally for SkirmishTally {
    fn merge(&mut self, o: &Self) {
        self.games += o.games;
        self.wins[0] += o.wins[0];
        self.wins[1] += o.wins[1];
        self.draws += o.draws;
        self.turns += o.turns;
        add_counts(&mut self.fielded, &o.fielded);
        add_counts(&mut self.survivors, &o.survivors);
        add_counts(&mut self.fielded_sq, &o.fielded_sq);
        add_counts(&mut self.survivors_fielded, &o.survivors_fielded);
        add_counts(&mut self.survivors_sq, &o.survivors_sq);
        add_counts(&mut self.kills, &o.kills);
        self.records.extend(o.records.iter().cloned());
    }
    fn trials(&self) -> u64 {
        self.games
    }
}

impl SkirmishTally {
    /// Records a finished game; `keep_record` adds its regression row (random armies).
    pub fn record(&mut self, g: &GameRecord, keep_record: bool) {
        let n = g.survivors.len();
        if self.fielded.is_empty() {
            self.fielded = vec![0; n];
            self.survivors = vec![0; n];
            self.fielded_sq = vec![0; n];
            self.survivors_fielded = vec![0; n];
            self.survivors_sq = vec![0; n];
            self.kills = vec![0; n * n];
        }
        self.games += 1;
        match g.winner {
            Some(w) => self.wins[w] += 1,
            None => self.draws += 1,
        }
        self.turns += g.turns as u64;
        for u in 0..n {
            let (f, s) = ((g.counts[0][u] + g.counts[1][u]) as u64, g.survivors[u] as u64);
            self.fielded[u] += f;
            self.survivors[u] += s;
            self.fielded_sq[u] += f * f;
            self.survivors_fielded[u] += s * f;
            self.survivors_sq[u] += s * s;
        }
        for &(k, v) in &g.kills {
            self.kills[k as usize * n + v as usize] += 1;
        }
        if keep_record {
            let diff =
                g.counts[0].iter().zip(&g.counts[1]).map(|(&a, &b)| (a as i64 - b as i64).clamp(-128, 127) as i8);
            let result = match g.winner {
                Some(w) => w as u8,
                None => 2,
            };
            self.records.push(ResultRow { diff: diff.collect(), result });
        }
    }
}

/// Plays `trials` games of `s`'s `mission` (index into its missions; 0 the basic game) in
/// which side A plays `tactics[0]` and side B `tactics[1]` (indices into its tactics) between
/// `armies`: [`simulate_play`] of that pure play.
pub fn simulate<S: Skirmish>(
    s: &S,
    armies: &Armies<S::Army>,
    tactics: [usize; 2],
    mission: usize,
    seed: u64,
    trials: u64,
    progress: &ProgressBar,
) -> SkirmishTally {
    simulate_play(s, armies, &Play::pure(tactics, s.tactics().len()), mission, seed, trials, progress)
}

/// Plays `trials` games of `s`'s `mission` (index into its missions; 0 the basic game) under
/// `play` (each side's tactic, or the mix each game draws it from: [`Play::draw`]) between
/// `armies`, in fixed batches on the deterministic engine ([`crate::sim::run`]): the tally is
/// identical on any thread count. Ticks `progress` once per game.
///
/// The games' dice stream: [`Skirmish::stream_names`] of A's tactic (of the default tactic
/// for a mixed play), then the mission's name for any mission but the basic game, then, when
/// the sides' tactics differ, `"v"` and both tactics' names, or for a mixed play
/// [`EQUILIBRIUM_MIX`]: so a run of one tactic keeps the draws it always had, and every cell
/// of the tactic metagame ([`crate::analysis::metagame`]) and the mixed play have streams of
/// their own (their games are independent of every other run's). A mixed play draws each
/// game's tactics from the same seed and stream, apart from the game's dice.
pub fn simulate_play<S: Skirmish>(
    s: &S,
    armies: &Armies<S::Army>,
    play: &Play,
    mission: usize,
    seed: u64,
    trials: u64,
    progress: &ProgressBar,
) -> SkirmishTally {
    let plan = RunPlan::fixed(seed, trials, s.mission_settings(mission).batch_size);
    let pure = play.as_pure();
    let mut names = s.stream_names(pure.map_or(0, |t| t[0]), armies);
    if mission > 0 {
        names.push(s.missions()[mission].name.to_string());
    }
    match pure {
        Some(tactics) if tactics[0] != tactics[1] => {
            names.push("v".to_string());
            names.extend(tactics.map(|t| s.tactics()[t].name.to_string()));
        }
        Some(_) => {}
        None => names.push(EQUILIBRIUM_MIX.to_string()),
    }
    let stream = stream_id(&names.iter().map(String::as_str).collect::<Vec<_>>());
    let units = s.skirmish_units().len();
    let items = units + s.skirmish_upgrades().len();
    let k = s.tactics().len();
    debug_assert!(play.mixes.iter().all(|m| m.len() == k), "a mix per side over the {k} tactics");
    run(
        &plan,
        stream,
        |dice, first, n, tally: &mut SkirmishTally| {
            // One scratch game per pair of tactics the batch's games draw.
            let mut games: Vec<Option<S::Game<'_>>> = (0..k * k).map(|_| None).collect();
            let mut record = GameRecord::default();
            for i in 0..n as u64 {
                // A pure play's tactics are the same every game: no draw per game.
                let [a, b] = pure.unwrap_or_else(|| play.draw(seed, stream, first + i));
                let game = games[a * k + b].get_or_insert_with(|| s.game([a, b], mission));
                record.clear(items, units);
                s.play(game, armies, dice, &mut record);
                tally.record(&record, armies.is_random());
            }
            progress.inc(n as u64);
        },
        |_| 0.0,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::grunt_factor::tests::ruleset;
    use crate::stats::score_se;

    /// A side's mean score in [0, 1] and its standard error.
    fn a_score(t: &SkirmishTally) -> (f64, f64) {
        ((t.wins[0] as f64 + 0.5 * t.draws as f64) / t.games as f64, score_se(t.wins[0], t.draws, t.games))
    }

    /// The Grunt Factor's `bound` (0) and `hold` (2) tactics, side A mixing ¾ bound and ¼ hold,
    /// side B ¼ bound and ¾ hold: each game draws the sides' tactics afresh, so side A's mean
    /// score is the mixes' weighted mean of the four cells of pure play (bound v bound, bound v
    /// hold, hold v bound, hold v hold), within the noise of both (4.5 standard errors: a
    /// chance below 1e-5 on any seed). The same games on one thread and two; a pure play is
    /// the run of its tactics to the bit.
    #[test]
    fn a_mixed_play_scores_the_mixes_weighted_mean_of_the_pure_cells() {
        let r = ruleset();
        let (seed, games) = (11, 1200);
        let hidden = ProgressBar::hidden();
        let mix = |bound: f64, hold: f64| {
            let mut m = vec![0.0; r.tactics().len()];
            (m[0], m[2]) = (bound, hold);
            m
        };
        let play = Play { mixes: [mix(0.75, 0.25), mix(0.25, 0.75)] };
        let on = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| simulate_play(&r, &Armies::Random, &play, 0, seed, 4 * games, &hidden))
        };
        let mixed = on(2);
        assert_eq!(mixed, on(1), "a mixed play's games depend on the thread count");
        let (mut expected, mut var) = (0.0, 0.0);
        for (a, wa) in [(0, 0.75), (2, 0.25)] {
            for (b, wb) in [(0, 0.25), (2, 0.75)] {
                let cell = simulate(&r, &Armies::Random, [a, b], 0, seed, games, &hidden);
                let (m, se) = a_score(&cell);
                expected += wa * wb * m;
                var += (wa * wb * se).powi(2);
            }
        }
        let (m, se) = a_score(&mixed);
        let z = (m - expected) / (var + se * se).sqrt();
        assert!(z.abs() < 4.5, "mixed {m:.4} ± {se:.4}, cells' weighted mean {expected:.4}: z {z:.2}");
        // Hold beats bound in almost every game, so the side holding more often wins more.
        assert!(m < 0.35, "{m}");
        let pure = simulate_play(&r, &Armies::Random, &Play::pure([2, 0], r.tactics().len()), 0, seed, games, &hidden);
        assert_eq!(pure, simulate(&r, &Armies::Random, [2, 0], 0, seed, games, &hidden));
    }
}
