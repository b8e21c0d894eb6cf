//! Counting the Skirmish's games: who won ([`victor`]), the tally of a batch of games
//! ([`SkirmishTally`]) and the batch loop over a matchup of armies ([`simulate`]).

use super::*;

/// Section II "Victory": the side that destroyed more enemy points wins; equal is a draw.
pub fn victor(destroyed: [f64; 2]) -> Option<Side> {
    if (destroyed[0] - destroyed[1]).abs() < 1e-9 {
        None
    } else if destroyed[0] > destroyed[1] {
        Some(0)
    } else {
        Some(1)
    }
}

/// Counts of a run of games. Integer counts only (points in half points), so merged tallies
/// are identical for any thread count.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SkirmishTally {
    pub games: u64,
    pub wins: [u64; 2],
    pub draws: u64,
    pub rounds: u64,
    /// Enemy points destroyed by each side, in half points.
    pub destroyed_half: [u64; 2],
    /// Random armies, by the points difference A − B ([`BUCKETS`]): games, A wins, draws.
    pub buckets: Vec<[u64; 3]>,
}

/// Points-difference classes (A − B) of the random-army table.
pub const BUCKETS: [(&str, f64, f64); 5] = [
    ("A 8+ points fewer", f64::NEG_INFINITY, -7.5),
    ("A 3–7 fewer", -7.5, -2.5),
    ("within 2 points", -2.5, 2.5),
    ("A 3–7 more", 2.5, 7.5),
    ("A 8+ more", 7.5, f64::INFINITY),
];

impl SkirmishTally {
    pub fn record(&mut self, out: &GameOutcome, points: [f64; 2]) {
        self.games += 1;
        match out.winner {
            Some(s) => self.wins[s] += 1,
            None => self.draws += 1,
        }
        self.rounds += out.rounds as u64;
        for s in 0..2 {
            self.destroyed_half[s] += (out.destroyed[s] * 2.0).round() as u64;
        }
        let diff = points[0] - points[1];
        if self.buckets.is_empty() {
            self.buckets = vec![[0; 3]; BUCKETS.len()];
        }
        let k = BUCKETS.iter().position(|&(_, lo, hi)| diff >= lo && diff < hi).unwrap_or(2);
        self.buckets[k][0] += 1;
        self.buckets[k][1] += (out.winner == Some(0)) as u64;
        self.buckets[k][2] += out.winner.is_none() as u64;
    }
}

impl Tally for SkirmishTally {
    fn merge(&mut self, o: &Self) {
        self.games += o.games;
        self.draws += o.draws;
        self.rounds += o.rounds;
        for s in 0..2 {
            self.wins[s] += o.wins[s];
            self.destroyed_half[s] += o.destroyed_half[s];
        }
        if self.buckets.len() < o.buckets.len() {
            self.buckets.resize(o.buckets.len(), [0; 3]);
        }
        for (a, b) in self.buckets.iter_mut().zip(&o.buckets) {
            for k in 0..3 {
                a[k] += b[k];
            }
        }
    }
    fn trials(&self) -> u64 {
        self.games
    }
}

/// Who fights: two fixed rosters, or fresh random armies every game.
#[derive(Debug, Clone, Copy)]
pub enum Matchup<'a> {
    Fixed([&'a Roster; 2]),
    Random,
}

/// Plays `trials` games on the deterministic engine (batches seeded from `seed` and the
/// matchup's names): identical tallies for any thread count.
pub fn simulate<E: Engine>(
    engine: &E,
    field: &Field,
    cfg: &SkirmishConfig,
    m: Matchup,
    seed: u64,
    trials: u64,
    pb: &indicatif::ProgressBar,
) -> SkirmishTally {
    let run = FixedRun { seed, trials, batch_size: cfg.batch_size };
    let stream = match m {
        Matchup::Fixed([a, b]) => crate::seed::stream_id(&["vsgmr", "skirmish", &a.name, &b.name]),
        Matchup::Random => crate::seed::stream_id(&["vsgmr", "skirmish", "random"]),
    };
    engine.run_batches(run, stream, |dice, _first, n, tally: &mut SkirmishTally| {
        let mut g = Game::new(&field.r, cfg);
        for _ in 0..n {
            let random;
            let rosters = match m {
                Matchup::Fixed(x) => x,
                Matchup::Random => {
                    random = [field.random_roster(cfg, dice), field.random_roster(cfg, dice)];
                    [&random[0], &random[1]]
                }
            };
            g.set_up(rosters, dice);
            let out = g.play(dice);
            tally.record(&out, [rosters[0].points(&field.r), rosters[1].points(&field.r)]);
        }
        pb.inc(n as u64);
    })
}
