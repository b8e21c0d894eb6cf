//! The Skirmish studies of the report (issue 6 items 6–7): a round robin of the sample armies
//! (each unordered pair played with sides swapped, so neither army keeps side A's place) and
//! random formula-priced armies of 25–40 points by points difference. Every rate carries a
//! Wilson 95% interval.

use serde::{Deserialize, Serialize};

use crate::rulesets::vsgmr::skirmish::{BUCKETS, Field, Matchup, SkirmishConfig, SkirmishTally, simulate};
use crate::stats::{CONFIDENCE, Estimate, wilson};

/// One sample army's record over the round robin.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ArmyRecord {
    pub name: String,
    /// Formula points and figures.
    pub points: f64,
    pub figures: u32,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub win_rate: Estimate,
    /// Win rate per 10 points of army (the win rate and its interval divided by points/10).
    pub wins_per_10_points: Estimate,
    /// Enemy points destroyed per point of own army, mean over games.
    pub destroyed_per_point: f64,
}

/// The round robin: per-army records and the pairwise matrix.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoundRobin {
    /// Games per ordered pair (each unordered pair plays twice this, sides swapped).
    pub trials_per_order: u64,
    pub armies: Vec<ArmyRecord>,
    /// `cells[i][j]`: army i's win rate against army j (`None` on the diagonal).
    pub cells: Vec<Vec<Option<Estimate>>>,
    /// `draws[i][j]`: draw rate of the pair.
    pub draws: Vec<Vec<Option<Estimate>>>,
}

/// One points-difference class of random-army games.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BucketRow {
    pub label: String,
    pub games: u64,
    pub a_wins: Estimate,
    pub draws: Estimate,
}

/// Random formula-priced armies against each other.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RandomArmies {
    pub min_points: u32,
    pub max_points: u32,
    pub games: u64,
    pub a_wins: Estimate,
    pub draws: Estimate,
    pub mean_rounds: f64,
    pub rows: Vec<BucketRow>,
}

/// Everything the Skirmish part of the VSGMR report shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VsgmrSkirmish {
    pub seed: u64,
    pub table: String,
    pub round_robin: Option<RoundRobin>,
    pub random: Option<RandomArmies>,
}

fn est(k: u64, n: u64) -> Estimate {
    wilson(k as f64, n.max(1) as f64, CONFIDENCE)
}

/// Plays every unordered pair of sample armies `trials` times each way round.
pub fn round_robin(
    field: &Field,
    cfg: &SkirmishConfig,
    seed: u64,
    trials: u64,
    pb: &indicatif::ProgressBar,
) -> RoundRobin {
    let n = field.samples.len();
    // wins[i][j]: games i won against j; games[i][j], draws[i][j] symmetric.
    let mut wins = vec![vec![0u64; n]; n];
    let mut games = vec![vec![0u64; n]; n];
    let mut draws = vec![vec![0u64; n]; n];
    let mut destroyed_half = vec![0u64; n];
    for i in 0..n {
        for j in 0..n {
            if i == j {
                continue;
            }
            let t: SkirmishTally =
                simulate(field, cfg, Matchup::Fixed([&field.samples[i], &field.samples[j]]), seed, trials, pb);
            wins[i][j] += t.wins[0];
            wins[j][i] += t.wins[1];
            games[i][j] += t.games;
            games[j][i] += t.games;
            draws[i][j] += t.draws;
            draws[j][i] += t.draws;
            destroyed_half[i] += t.destroyed_half[0];
            destroyed_half[j] += t.destroyed_half[1];
        }
    }
    let armies = (0..n)
        .map(|i| {
            let s = &field.samples[i];
            let points = s.points(&field.r);
            let g: u64 = games[i].iter().sum();
            let w: u64 = wins[i].iter().sum();
            let d: u64 = draws[i].iter().sum();
            let rate = est(w, g);
            let per = |x: f64| x / points * 10.0;
            ArmyRecord {
                name: s.name.clone(),
                points,
                figures: s.figures(),
                games: g,
                wins: w,
                draws: d,
                win_rate: rate,
                wins_per_10_points: Estimate { value: per(rate.value), lo: per(rate.lo), hi: per(rate.hi) },
                destroyed_per_point: destroyed_half[i] as f64 / 2.0 / g.max(1) as f64 / points,
            }
        })
        .collect();
    let cell = |m: &Vec<Vec<u64>>, i: usize, j: usize| (i != j).then(|| est(m[i][j], games[i][j]));
    RoundRobin {
        trials_per_order: trials,
        armies,
        cells: (0..n).map(|i| (0..n).map(|j| cell(&wins, i, j)).collect()).collect(),
        draws: (0..n).map(|i| (0..n).map(|j| cell(&draws, i, j)).collect()).collect(),
    }
}

/// Random armies of `random_min..=random_max` points against each other, `trials` games.
pub fn random_armies(
    field: &Field,
    cfg: &SkirmishConfig,
    seed: u64,
    trials: u64,
    pb: &indicatif::ProgressBar,
) -> RandomArmies {
    let t = simulate(field, cfg, Matchup::Random, seed, trials, pb);
    let rows = BUCKETS
        .iter()
        .enumerate()
        .map(|(k, (label, _, _))| {
            let [g, w, d] = t.buckets.get(k).copied().unwrap_or([0; 3]);
            BucketRow { label: label.to_string(), games: g, a_wins: est(w, g), draws: est(d, g) }
        })
        .collect();
    RandomArmies {
        min_points: cfg.random_min,
        max_points: cfg.random_max,
        games: t.games,
        a_wins: est(t.wins[0], t.games),
        draws: est(t.draws, t.games),
        mean_rounds: t.rounds as f64 / t.games.max(1) as f64,
        rows,
    }
}
