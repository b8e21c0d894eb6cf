//! The Skirmish studies of the report (issue 6 items 6–7): a round robin of the sample armies
//! (each unordered pair played with sides swapped, so neither army keeps side A's place) and
//! random formula-priced armies of 25–40 points by points difference. Every rate carries a
//! Wilson 95% interval.

use serde::{Deserialize, Serialize};

use crate::rulesets::engine::{Engine, GameCounts};
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
    /// Section VIII's scenarios at their points, and the asymmetric ones' fair points (`[skirmish]
    /// report_trials` games each; empty when it is 0).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scenarios: Vec<ScenarioRow>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fair_points: Vec<FairPoints>,
}

fn est(k: u64, n: u64) -> Estimate {
    wilson(k as f64, n.max(1) as f64, CONFIDENCE)
}

/// Plays every unordered pair of sample armies `trials` times each way round.
pub fn round_robin<E: Engine>(
    engine: &E,
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
                simulate(engine, field, cfg, Matchup::Fixed([&field.samples[i], &field.samples[j]]), seed, trials, pb);
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
pub fn random_armies<E: Engine>(
    engine: &E,
    field: &Field,
    cfg: &SkirmishConfig,
    seed: u64,
    trials: u64,
    pb: &indicatif::ProgressBar,
) -> RandomArmies {
    let t = simulate(engine, field, cfg, Matchup::Random, seed, trials, pb);
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

/// One scenario of section VIII between random armies at its points (issue 19).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScenarioRow {
    /// Kebab-case name (`skirmish vsgmr --mission NAME`).
    pub mission: String,
    /// What sides A and B are called, and each side's points `(min, max)`.
    pub sides: [String; 2],
    pub points: [(u32, u32); 2],
    pub games: u64,
    pub a_wins: Estimate,
    pub b_wins: Estimate,
    pub draws: Estimate,
    pub mean_rounds: f64,
}

/// The fair points of side A of a scenario whose sides play different parts (section VIII:
/// Spawning's Infiltrators, Ambush's Ambushers, Fortress Assault's Assaulters): the whole points
/// at which side A scores 50% (win 1, draw ½) against side B at the book's points, the crossing
/// of its score over its points by bisection with common random numbers (every evaluation plays
/// the same seed), with the points next to it whose 95% score interval contains ½. Side A is
/// the smaller where the book gives unequal points (Ambush 25 v 40, Fortress Assault 20 v 40).
/// In Spawning ("25 to 40 points per player suggested": equal, each army drawn from 25 to 40)
/// side A, the Infiltrators, is the side whose score rises with its points: the Spawners, behind
/// at the book's points, score less the more points they bring (only one figure a round enters,
/// costliest first, and the Basic Game's victory counts the points of every figure the
/// Infiltrators destroy), so no points of theirs make the game even.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FairPoints {
    pub mission: String,
    /// Side A's name in the scenario.
    pub side: String,
    /// The book's points of side A and side B, `(min, max)` of the random army (equal for
    /// fixed points).
    pub book: [(u32, u32); 2],
    /// Side A's score at the book's points (the scenario row's games), with its 95% interval.
    pub score_at_book: Estimate,
    /// Side A's fair points: the smallest whole points at which its score reaches ½ (by
    /// bisection), and the interval `[lo, hi]`: the run of whole points next to it whose score
    /// interval contains ½ (`hi` is `None` when the run reaches 3 × side B's most points, the
    /// top of the search).
    pub fair: u32,
    pub lo: Option<u32>,
    pub hi: Option<u32>,
    pub games_per_point: u64,
}

/// Side `s`'s score (win 1, draw ½) over `t`, with its 95% interval ([`crate::stats::score`]).
pub fn score(t: &GameCounts, s: crate::rulesets::Side) -> Estimate {
    crate::stats::score(t.wins[s], t.draws, t.games, CONFIDENCE)
}

/// `trials` random-army games of scenario `m` ([`crate::rulesets::vsgmr::skirmish::mission::Mission::ALL`]'s
/// index) at the config's points.
pub fn play<E: Engine>(
    engine: &E,
    r: &crate::rulesets::vsgmr::Vsgmr,
    m: usize,
    seed: u64,
    trials: u64,
    pb: &indicatif::ProgressBar,
) -> GameCounts {
    engine.skirmish(r, &crate::rulesets::skirmish::Armies::Random, 0, m, seed, trials, pb)
}

/// Every scenario of section VIII after the Basic Game, `trials` random-army games each at
/// the config's points, and the fair points of side A in those whose sides play different
/// parts ([`FairPoints`]: Spawning, Ambush, Fortress Assault). Identical for a seed on any
/// thread count (the generic skirmish engine).
pub fn scenarios<E: Engine>(
    engine: &E,
    r: &crate::rulesets::vsgmr::Vsgmr,
    seed: u64,
    trials: u64,
    pb: &indicatif::ProgressBar,
) -> (Vec<ScenarioRow>, Vec<FairPoints>) {
    use crate::rulesets::vsgmr::skirmish::mission::Mission;
    let mut rows = Vec::new();
    let mut fair = Vec::new();
    for (m, mission) in Mission::ALL.iter().copied().enumerate().skip(1) {
        let name = crate::rulesets::vsgmr::skirmish::mission::MISSIONS[m].name.to_string();
        let t = play(engine, r, m, seed, trials, pb);
        let g = t.games.max(1);
        rows.push(ScenarioRow {
            mission: name,
            sides: mission.sides().map(str::to_string),
            points: mission.budgets(&r.skirmish),
            games: t.games,
            a_wins: est(t.wins[0], g),
            b_wins: est(t.wins[1], g),
            draws: est(t.draws, g),
            mean_rounds: t.turns as f64 / g as f64,
        });
        if mission.roles_differ() {
            fair.extend(fair_points(engine, r, m, &t, seed, trials, pb));
        }
    }
    (rows, fair)
}

/// The fair points ([`FairPoints`]) of scenario `m`, whose games at the book's points are `t`
/// (`trials` games from `seed`); `None` when side A scores under ½ even at the top of the
/// search.
pub fn fair_points<E: Engine>(
    engine: &E,
    r: &crate::rulesets::vsgmr::Vsgmr,
    m: usize,
    t: &GameCounts,
    seed: u64,
    trials: u64,
    pb: &indicatif::ProgressBar,
) -> Option<FairPoints> {
    use crate::rulesets::vsgmr::skirmish::mission::{MISSIONS, Mission};
    let mission = Mission::ALL[m];
    let book = mission.budgets(&r.skirmish);
    let s = crate::rulesets::A;
    // Side A's score at `p` whole points against the other side at the book's, each played once
    // (the book's own, when whole, are `t`'s games: the same seed).
    let top = 3 * book[1 - s].1;
    let mut cache: Vec<Option<Estimate>> = vec![None; top as usize + 1];
    if book[s].0 == book[s].1 && book[s].0 <= top {
        cache[book[s].0 as usize] = Some(score(t, s));
    }
    let mut at = |p: u32| -> Estimate {
        *cache[p as usize].get_or_insert_with(|| {
            let mut r2 = r.clone();
            r2.skirmish.points_override = Some((s, p));
            score(&play(engine, &r2, m, seed, trials, pb), s)
        })
    };
    // The smallest whole points in 1..=top whose score reaches ½ (bisection: the score rises
    // with side A's points); none when even `top` falls short.
    if at(top).value < 0.5 {
        return None;
    }
    let point = if at(1).value >= 0.5 {
        1
    } else {
        let (mut lo, mut hi) = (1u32, top);
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if at(mid).value >= 0.5 { hi = mid } else { lo = mid }
        }
        hi
    };
    // The interval: from the estimate outward, the neighbouring points whose score interval
    // still contains ½ (`None` past the searched range).
    let mut lo = point;
    while lo > 1 && at(lo - 1).hi >= 0.5 {
        lo -= 1;
    }
    let mut hi = point;
    while hi < top && at(hi + 1).lo <= 0.5 {
        hi += 1;
    }
    Some(FairPoints {
        mission: MISSIONS[m].name.to_string(),
        side: mission.sides()[s].to_string(),
        book,
        score_at_book: score(t, s),
        fair: point,
        lo: Some(lo),
        hi: (hi < top).then_some(hi),
        games_per_point: trials,
    })
}
