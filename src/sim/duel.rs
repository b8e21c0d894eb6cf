//! Duels between squads: sampling squad sizes, running trials of a ruleset's battle, and
//! turning tallies into estimates with intervals.

use serde::{Deserialize, Serialize};

use crate::dice::{Dice, FastDice};
use crate::rulesets::engine::Tally;
use crate::rulesets::skirmish::Play;
use crate::rulesets::{DuelSetup, ExactDuel, Ruleset, matchup_budget, points_matched_size};
use crate::seed::{stream_id, trial_seed};
use crate::sim::shard::{self, Action};
use crate::sim::{RunPlan, run_batches};
use crate::stats::{CONFIDENCE, Estimate, score, score_se, wilson};

/// Outcome of one matchup (row side A against column side B), from tallies or exact.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MatchupResult {
    /// P(A wins), P(B wins), P(draw) with 95% intervals; each in [0, 1].
    pub a_wins: Estimate,
    pub b_wins: Estimate,
    pub draws: Estimate,
    /// A's score: P(A wins) + ½ P(draw), with a 95% interval. A's score and B's sum to 1.
    pub a_score: Estimate,
    /// Standard error of `a_score` (0 for exact results).
    pub a_score_se: f64,
    /// Trials played (0 for an exact result).
    pub trials: u64,
    /// How the cell was computed: "monte-carlo", "exact" (the scripted tactic's Markov chain)
    /// or "optimal" (both sides optimal, [`crate::analysis::optimal_play::play_1v1`]).
    pub method: String,
    /// Mean number of turns (one side's activations) a battle lasted; `None` where it is not
    /// known (an "optimal" cell: the optimal-play solver gives the outcome's chances only).
    pub mean_turns: Option<f64>,
    /// Mean points A spent per battle, and mean enemy points A destroyed per battle.
    pub a_points_spent: f64,
    pub a_points_killed: f64,
    /// The same for B.
    pub b_points_spent: f64,
    pub b_points_killed: f64,
}

/// Integer tallies of many battles between side A and side B.
///
/// Sums of squares and cross products let the analysis put a delta-method interval on
/// "points spent per point destroyed".
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DuelTally {
    pub trials: u64,
    pub a_wins: u64,
    pub b_wins: u64,
    pub draws: u64,
    /// Sum of turns over all trials.
    pub turns: u64,
    /// Sums of squad sizes and of enemy units destroyed, per side.
    pub size: [u64; 2],
    pub kills: [u64; 2],
    /// Sums of size², kills² and size·kills, per side.
    pub size_sq: [u64; 2],
    pub kills_sq: [u64; 2],
    pub size_kills: [u64; 2],
    /// Trials in which side A (index 0) was handed the first activation; half of all trials,
    /// by construction (a ruleset whose rules roll for the first activation, as Army Men
    /// Combat, ignores the seat).
    pub a_first: u64,
}

/// A tally in the result cache: its 17 counts in field order.
impl crate::cache::Entry for DuelTally {
    fn encode(&self) -> Vec<u64> {
        let mut w = vec![self.trials, self.a_wins, self.b_wins, self.draws, self.turns, self.a_first];
        for x in [self.size, self.kills, self.size_sq, self.kills_sq, self.size_kills] {
            w.extend(x);
        }
        w
    }
    fn decode(w: &[u64]) -> Option<Self> {
        let &[trials, a_wins, b_wins, draws, turns, a_first, ref r @ ..] = w else { return None };
        let pair = |k: usize| -> Option<[u64; 2]> { Some([*r.get(2 * k)?, *r.get(2 * k + 1)?]) };
        (r.len() == 10).then_some(())?;
        Some(DuelTally {
            trials,
            a_wins,
            b_wins,
            draws,
            turns,
            size: pair(0)?,
            kills: pair(1)?,
            size_sq: pair(2)?,
            kills_sq: pair(3)?,
            size_kills: pair(4)?,
            a_first,
        })
    }
}

impl Tally for DuelTally {
    fn merge(&mut self, o: &Self) {
        self.trials += o.trials;
        self.a_wins += o.a_wins;
        self.b_wins += o.b_wins;
        self.draws += o.draws;
        self.turns += o.turns;
        self.a_first += o.a_first;
        for s in 0..2 {
            self.size[s] += o.size[s];
            self.kills[s] += o.kills[s];
            self.size_sq[s] += o.size_sq[s];
            self.kills_sq[s] += o.kills_sq[s];
            self.size_kills[s] += o.size_kills[s];
        }
    }
    fn trials(&self) -> u64 {
        self.trials
    }
}

impl DuelTally {
    /// A consistent two-trial tally (one win each side, squads of one) that stands in for a
    /// matchup a replay lacks, so the replay can run to its end and fail there
    /// ([`crate::sim::shard::replay_error`]); never shown.
    pub(crate) fn stand_in() -> Self {
        DuelTally {
            trials: 2,
            a_wins: 1,
            b_wins: 1,
            draws: 0,
            turns: 2,
            size: [2, 2],
            kills: [1, 1],
            size_sq: [2, 2],
            kills_sq: [1, 1],
            size_kills: [1, 1],
            a_first: 1,
        }
    }

    /// Why this tally cannot be the record of `trials` played trials, if it cannot: outcomes
    /// that do not add up to the trials, more first activations than trials, more kills than
    /// enemy units fielded. A merge checks every tally of its files with it.
    pub fn inconsistency(&self) -> Option<String> {
        let outcomes = self.a_wins as u128 + self.b_wins as u128 + self.draws as u128;
        if outcomes != self.trials as u128 {
            return Some(format!(
                "a_wins {} + b_wins {} + draws {} is not the {} trials",
                self.a_wins, self.b_wins, self.draws, self.trials
            ));
        }
        if self.a_first > self.trials {
            return Some(format!("a_first {} is more than the {} trials", self.a_first, self.trials));
        }
        for s in 0..2 {
            if self.kills[s] > self.size[1 - s] {
                return Some(format!(
                    "kills[{s}] {} is more than the {} enemy units fielded",
                    self.kills[s],
                    self.size[1 - s]
                ));
            }
        }
        None
    }

    /// The same tally seen from B's side (A and B swapped).
    pub fn swapped(&self) -> Self {
        let sw = |x: [u64; 2]| [x[1], x[0]];
        DuelTally {
            trials: self.trials,
            a_wins: self.b_wins,
            b_wins: self.a_wins,
            draws: self.draws,
            turns: self.turns,
            size: sw(self.size),
            kills: sw(self.kills),
            size_sq: sw(self.size_sq),
            kills_sq: sw(self.kills_sq),
            size_kills: sw(self.size_kills),
            a_first: self.trials - self.a_first,
        }
    }

    /// The widest 95% Wilson half-width of P(A wins), P(B wins), P(draw): what
    /// `--target-error` watches.
    pub fn widest_half_width(&self) -> f64 {
        let n = self.trials as f64;
        [self.a_wins, self.b_wins, self.draws]
            .iter()
            .map(|&k| wilson(k as f64, n, CONFIDENCE).half_width())
            .fold(0.0, f64::max)
    }
}

/// How each side's force is made up.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Squads {
    /// One unit each.
    One,
    /// Each side buys copies of its unit with `budget` points: ⌊budget / cost⌋ plus one more
    /// with probability (budget mod cost) / cost, so the expected spend equals the budget.
    /// [`simulate_at_costs`] first lowers `budget` to the matchup's [`matchup_budget`] when a
    /// squad limit caps either side.
    PointsMatched { budget: f64 },
}

impl Squads {
    fn label(&self) -> &'static str {
        match self {
            Squads::One => "1v1",
            Squads::PointsMatched { .. } => "points",
        }
    }

    /// The squad size for a unit of `cost` points, given a uniform draw `u` in [0, 1).
    pub fn size(&self, cost: f64, u: f64) -> u32 {
        match *self {
            Squads::One => 1,
            Squads::PointsMatched { budget } => points_matched_size(budget, cost, u),
        }
    }
}

/// Plays trials of unit `a` against unit `b` at `distance` under `plan`.
///
/// Trial `k` has side A acting first when `k` is even, so both sides go first equally often.
/// Common random numbers: the stream id depends on the ruleset, squad kind and unit ids (not on
/// costs or distance), and trial `k` plays with a generator of its own seeded from
/// `(seed, stream, k)` ([`trial_seed`]). So trial `k` of a cost sweep or a distance sweep of one
/// matchup starts from the same dice at every price and distance: it plays identically
/// wherever its squads and moves are the same, and a trial that differs (one model more at a
/// lower price, a turn more at a longer distance) does not shift the dice of the next.
pub fn simulate<R: Ruleset>(r: &R, a: usize, b: usize, distance: f64, squads: Squads, plan: &RunPlan) -> DuelTally {
    let units = r.units();
    simulate_at_costs(r, a, b, [units[a].cost, units[b].cost], distance, squads, plan)
}

/// [`simulate`] with the two units priced at `costs` instead of their cost-list costs (points,
/// each > 0): what the fair-cost solver varies. Costs only set the points-matched squad sizes,
/// and those are drawn first in each trial from the same two uniform numbers at every price
/// (⌊budget / cost⌋ plus one with probability of the remainder, see [`Squads::size`]). So a
/// trial whose squads come out the same at two prices plays the same battle at both, and the
/// scores at nearby prices are strongly correlated (a test measures it): the difference
/// between two prices is the effect of the price on the trials it changes, not fresh noise.
pub fn simulate_at_costs<R: Ruleset>(
    r: &R,
    a: usize,
    b: usize,
    costs: [f64; 2],
    distance: f64,
    squads: Squads,
    plan: &RunPlan,
) -> DuelTally {
    simulate_played(r, a, b, costs, distance, squads, plan, SquadPlay::Scripted)
}

/// How each side's squad picks its tactic among the ruleset's [`Ruleset::squad_tactics`] in a
/// run of [`simulate_played`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SquadPlay<'a> {
    /// Both sides play the scripted tactic (the first squad tactic, or the ruleset's only one).
    Scripted,
    /// Side A plays `tactics[0]` and side B `tactics[1]` in every duel: a cell of the squads'
    /// tactic game (`crate::analysis::squads_game`). Each tactic pair plays on a dice stream of
    /// its own (the stream names the two tactics besides the units), so its cells are
    /// independent of each other and of the matrix's.
    Tactics([usize; 2]),
    /// Each duel draws each side's tactic from its mix ([`Play::draw`], from the seed, the
    /// matchup's stream and the trial alone, never from the duel's dice): the squads'
    /// equilibrium play. The duels play on the scripted play's stream, so a duel whose draws
    /// are the scripted tactic on both sides plays the scripted play's duel, and a play that is
    /// the scripted tactic on both sides gives the scripted play's tally exactly. The draws do
    /// not depend on the costs, so common random numbers hold across prices as for
    /// [`SquadPlay::Scripted`].
    Mixed(&'a Play),
}

/// [`simulate_at_costs`] with each side's squad playing as `play` says ([`SquadPlay`]; side A's
/// first): the squads' tactic game's cells ([`SquadPlay::Tactics`]) and the squads' equilibrium
/// play ([`SquadPlay::Mixed`]); [`SquadPlay::Scripted`] is [`simulate_at_costs`].
///
/// Panics if a tactic is not one of [`Ruleset::squad_tactics`], or a mix is not as long as them.
#[allow(clippy::too_many_arguments)]
pub fn simulate_played<R: Ruleset>(
    r: &R,
    a: usize,
    b: usize,
    costs: [f64; 2],
    distance: f64,
    squads: Squads,
    plan: &RunPlan,
    play: SquadPlay<'_>,
) -> DuelTally {
    let units = r.units();
    let [cost_a, cost_b] = costs;
    let scripted_stream = || stream_id(&[r.id(), squads.label(), &units[a].id, &units[b].id]);
    let names = r.squad_tactics();
    let (stream, mix_key) = match play {
        SquadPlay::Scripted => (scripted_stream(), None),
        SquadPlay::Tactics(t) => {
            assert!(t.iter().all(|&k| k < names.len()), "tactics {t:?} of {} squad tactics", names.len());
            let stream = stream_id(&[
                r.id(),
                squads.label(),
                &units[a].id,
                &units[b].id,
                "tactics",
                names[t[0]].name,
                names[t[1]].name,
            ]);
            (stream, None)
        }
        SquadPlay::Mixed(p) => {
            assert!(p.mixes.iter().all(|m| m.len() == names.len()), "mixes {p:?} of {} squad tactics", names.len());
            // The mixes' bits name the play in the shard and cache keys (not in the dice).
            let bits: Vec<String> = p.mixes.iter().flatten().map(|w| format!("{:x}", w.to_bits())).collect();
            (scripted_stream(), Some(stream_id(&[&bits.join(",")])))
        }
    };
    // Under `--shard` play only this shard's batches; under `merge` replay the merged tally.
    let budget = match squads {
        Squads::One => None,
        Squads::PointsMatched { budget } => Some(budget),
    };
    let key = shard::key(mix_key.map_or(stream, |m| stream ^ m.rotate_left(17)), distance, [cost_a, cost_b], budget);
    // Both sides buy with the points the squad limits leave (the key keeps the game's budget).
    let squads = match squads {
        Squads::PointsMatched { budget } => Squads::PointsMatched { budget: matchup_budget(r, [a, b], costs, budget) },
        one => one,
    };
    let slice = match shard::action(&key) {
        Action::Simulate => None,
        Action::Shard(s) => Some(s),
        Action::Replayed(t) => return t,
    };
    // The result cache, outside shard runs: every input of the tally is in the key (the two
    // list prices too, which a ruleset's squad limit may read).
    let cached = crate::sim::cache_key(r, "tally")
        .filter(|_| slice.is_none())
        .map(|k| {
            k.part(&stream)
                .part(&(a, b))
                .num(cost_a)
                .num(cost_b)
                .num(units[a].cost)
                .num(units[b].cost)
                .num(distance)
                .num(budget.unwrap_or(f64::NAN))
                .part(&(plan.seed, plan.batch_size, plan.min_trials, plan.max_trials))
                .num(plan.target_error.unwrap_or(f64::NAN))
        })
        .map(|k| match mix_key {
            Some(m) => k.part(&("mix", m)),
            None => k,
        });
    if let Some(t) = cached.as_ref().and_then(crate::cache::get) {
        shard::record(key, &t);
        return t;
    }
    let t = run_batches(
        plan,
        stream,
        slice,
        // The batch's own generator goes unused: every trial has its own (common random numbers).
        |_, first_trial, n, t: &mut DuelTally| {
            let mut arena = r.arena();
            for k in 0..n as u64 {
                let trial = first_trial + k;
                let mut dice = FastDice::from_seed(trial_seed(plan.seed, stream, trial));
                // Squad sizes first, from the same two uniform draws at every price.
                let (na, nb) = match squads {
                    Squads::One => (1, 1),
                    Squads::PointsMatched { .. } => {
                        let (ua, ub) = (dice.unit_f64(), dice.unit_f64());
                        (squads.size(cost_a, ua), squads.size(cost_b, ub))
                    }
                };
                let a_first = trial % 2 == 0;
                let tactics = match play {
                    SquadPlay::Scripted => [0, 0],
                    SquadPlay::Tactics(t) => t,
                    SquadPlay::Mixed(p) => p.draw(plan.seed, stream, trial),
                };
                let out = r.play_duel(&mut arena, &mut dice, DuelSetup { a, na, b, nb, distance, a_first, tactics });
                t.trials += 1;
                t.a_first += a_first as u64;
                match out.winner {
                    Some(0) => t.a_wins += 1,
                    Some(_) => t.b_wins += 1,
                    None => t.draws += 1,
                }
                t.turns += out.turns as u64;
                for (s, size) in [na as u64, nb as u64].into_iter().enumerate() {
                    let kills = out.kills[s] as u64;
                    t.size[s] += size;
                    t.kills[s] += kills;
                    t.size_sq[s] += size * size;
                    t.kills_sq[s] += kills * kills;
                    t.size_kills[s] += size * kills;
                }
            }
        },
        DuelTally::widest_half_width,
    );
    if let Some(k) = &cached {
        crate::cache::put(k, &t);
    }
    shard::record(key, &t);
    t
}

/// Estimates with 95% intervals from a tally; `costs` are the two units' costs.
pub fn result_from_tally(t: &DuelTally, costs: [f64; 2]) -> MatchupResult {
    let n = t.trials as f64;
    let per = |x: u64| if t.trials == 0 { 0.0 } else { x as f64 / n };
    MatchupResult {
        a_wins: wilson(t.a_wins as f64, n, CONFIDENCE),
        b_wins: wilson(t.b_wins as f64, n, CONFIDENCE),
        draws: wilson(t.draws as f64, n, CONFIDENCE),
        a_score: score(t.a_wins, t.draws, t.trials, CONFIDENCE),
        a_score_se: score_se(t.a_wins, t.draws, t.trials),
        trials: t.trials,
        method: "monte-carlo".into(),
        mean_turns: Some(per(t.turns)),
        a_points_spent: per(t.size[0]) * costs[0],
        a_points_killed: per(t.kills[0]) * costs[1],
        b_points_spent: per(t.size[1]) * costs[1],
        b_points_killed: per(t.kills[1]) * costs[0],
    }
}

/// An exact result as a matchup result: every interval is the point itself.
pub fn result_from_exact(e: &ExactDuel, costs: [f64; 2]) -> MatchupResult {
    MatchupResult {
        a_wins: Estimate::exact(e.a_wins),
        b_wins: Estimate::exact(e.b_wins),
        draws: Estimate::exact(e.draws),
        a_score: Estimate::exact(e.a_wins + 0.5 * e.draws),
        a_score_se: 0.0,
        trials: 0,
        method: "exact".into(),
        mean_turns: Some(e.mean_turns),
        a_points_spent: costs[0],
        a_points_killed: e.a_wins * costs[1],
        b_points_spent: costs[1],
        b_points_killed: e.b_wins * costs[0],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_matched_squads_spend_the_budget_on_average() {
        let squads = Squads::PointsMatched { budget: 150.0 };
        // 150 / 40 = 3.75: 3 mortars, plus a fourth 75% of the time.
        assert_eq!(squads.size(40.0, 0.74), 4);
        assert_eq!(squads.size(40.0, 0.75), 3);
        // A unit dearer than the budget is fielded with probability budget / cost.
        assert_eq!(squads.size(200.0, 0.74), 1);
        assert_eq!(squads.size(200.0, 0.75), 0);
        // Exact division: always the same size.
        assert_eq!(squads.size(15.0, 0.999), 10);
        // Mean spend over many uniform draws: within 4 standard errors of the budget.
        let mut dice = crate::dice::FastDice::from_seed(5);
        let n = 200_000;
        let spend: Vec<f64> = (0..n).map(|_| squads.size(35.0, dice.unit_f64()) as f64 * 35.0).collect();
        let mean = spend.iter().sum::<f64>() / n as f64;
        let sd = (spend.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / n as f64).sqrt();
        assert!((mean - 150.0).abs() < 4.0 * sd / (n as f64).sqrt(), "mean spend {mean}");
    }

    /// Pearson correlation of paired samples.
    fn correlation(x: &[f64], y: &[f64]) -> f64 {
        let n = x.len() as f64;
        let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
        let cov: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
        let vx: f64 = x.iter().map(|a| (a - mx).powi(2)).sum();
        let vy: f64 = y.iter().map(|b| (b - my).powi(2)).sum();
        cov / (vx * vy).sqrt()
    }

    /// The score of `a`'s squad against `b`'s (150 points a side) for each of seeds 0..200, one
    /// batch of 512 trials each (the fair-cost solver's batch size), `a` priced `cost`.
    fn batch_scores(r: &crate::rulesets::gng::GunsNGrenades, a: usize, b: usize, cost: f64, distance: f64) -> Vec<f64> {
        let costs = [cost, r.units()[b].cost];
        let squads = Squads::PointsMatched { budget: 150.0 };
        (0..200)
            .map(|seed| {
                let t = simulate_at_costs(r, a, b, costs, distance, squads, &RunPlan::fixed(seed, 512, 512));
                (t.a_wins as f64 + 0.5 * t.draws as f64) / t.trials as f64
            })
            .collect()
    }

    /// Common random numbers hold across prices: the same seed played with one unit priced 5%
    /// above or below its cost gives strongly correlated scores, because each trial plays the
    /// same dice at both prices up to where the squads differ (issue 17 item 1).
    ///
    /// A Tank (70 points) against Grenadiers (30) with 150 points a side, 12" apart (a close
    /// matchup: about 45%): 2.14 Tanks, and at ±5% 2.25 or 2.04, so about 90% of trials field
    /// the same squads at both prices and those play identically. The correlation of 200
    /// seeds' batch scores has a standard error of about (1 − ρ²)/√200 ≈ 0.03 near ρ = 0.8;
    /// measured 0.89 (−5%) and 0.91 (+5%). With one generator per batch, when the squad draws
    /// shifted the dice of every later trial of the batch, it measured 0.16 and 0.08.
    #[test]
    fn scores_at_nearby_prices_are_correlated_under_common_random_numbers() {
        use crate::rulesets::gng::testing::{gng, unit};
        let r = gng(&[]);
        let (a, b) = (unit(&r, "Tank"), unit(&r, "Grenadier"));
        let ca = r.units()[a].cost;
        let base = batch_scores(&r, a, b, ca, 12.0);
        for c in [ca / 1.05, ca * 1.05] {
            let rho = correlation(&base, &batch_scores(&r, a, b, c, 12.0));
            assert!(rho >= 0.5, "correlation {rho:.3} of batch scores at {c:.2} vs {ca} points");
        }
    }

    /// The same at neighbouring sweep distances (12" and 15", the steps of GnG's sweep): the
    /// trials share dice, so the curves of a seed move together. Measured 0.69 (one generator
    /// per batch: 0.11); the bound leaves about 5 standard errors.
    #[test]
    fn scores_at_neighbouring_distances_are_correlated_under_common_random_numbers() {
        use crate::rulesets::gng::testing::{gng, unit};
        let r = gng(&[]);
        let (a, b) = (unit(&r, "Tank"), unit(&r, "Grenadier"));
        let ca = r.units()[a].cost;
        let rho = correlation(&batch_scores(&r, a, b, ca, 12.0), &batch_scores(&r, a, b, ca, 15.0));
        assert!(rho >= 0.5, "correlation {rho:.3} of batch scores at 12 and 15 in");
    }

    #[test]
    fn one_each_is_always_one() {
        assert_eq!(Squads::One.size(500.0, 0.99), 1);
    }
}
