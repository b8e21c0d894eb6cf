//! One against one played by the duel game's tactic portfolio in equilibrium, and how
//! exploitable that play is (issue 41; DESIGN.md, "Play model").
//!
//! For each pair, the ruleset's [`Ruleset::portfolio_duel`] solves every tactic-against-tactic
//! cell of the duel game exactly (the portfolio: the scripted tactic and the plans of
//! [`crate::rulesets::optimal::tactics`]) and each side's best response against every tactic;
//! [`mixer`] finds both sides' mixes: the least exploitable of the matrix game's
//! ε-equilibria (linear programs, [`super::equilibrium::least_exploitable`]: each mix
//! guarantees the game's value within a tenth of a point); the mix-weighted best responses
//! bound the mixes' exploitability from above ([`PortfolioDuel::exploitability`]). The cells
//! and best responses are exact (no seed, no interval); the mixes are the linear programs'.
//!
//! Layer: analysis; imports the rulesets and [`super::equilibrium`].

use indicatif::ProgressBar;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::equilibrium;
use super::optimal_play::Outcome;
use crate::rulesets::Ruleset;
use crate::rulesets::optimal::PortfolioDuel;

/// Mix weights below this are read as 0 (the linear program's rounding), and the rest
/// renormalised: a tactic played one time in a billion needs no best response of its own.
pub const MIX_FLOOR: f64 = 1e-9;

/// Both sides' equilibrium mixes of the payoff matrix `payoff` (A's scores in [0, 1], rows A's
/// tactics), the least exploitable of the game's equilibria by each tactic's score against a
/// best response (`a_secure`, `b_secure`; [`equilibrium::least_exploitable`]): what
/// [`Ruleset::portfolio_duel`] is passed. Errors: the linear programs', as text.
pub fn mixer(payoff: &[Vec<f64>], a_secure: &[f64], b_secure: &[f64]) -> Result<[Vec<f64>; 2], String> {
    let e = equilibrium::least_exploitable(payoff, a_secure, b_secure).map_err(|e| e.to_string())?;
    Ok([floor(&e.row), floor(&e.col)])
}

/// `w` with the weights below [`MIX_FLOOR`] dropped and the rest summing to 1.
fn floor(w: &[f64]) -> Vec<f64> {
    let kept: Vec<f64> = w.iter().map(|&x| if x < MIX_FLOOR { 0.0 } else { x }).collect();
    let total: f64 = kept.iter().sum();
    kept.iter().map(|x| x / total).collect()
}

/// One pair under the portfolio's equilibrium.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PortfolioPair {
    /// Unit ids; `a` first in the cost list (a mirror has `a == b`).
    pub a: String,
    pub b: String,
    /// Both sides optimal: the game's value.
    pub optimal: Outcome,
    /// Both sides play the scripted tactic.
    pub scripted: Outcome,
    /// A's score when both sides play their equilibrium mixes, in [0, 1].
    pub equilibrium: f64,
    /// Each side's mix: weight per tactic (the portfolio's order), in [0, 1].
    pub a_mix: Vec<f64>,
    pub b_mix: Vec<f64>,
    /// Upper bounds on what each side gains by a best response against the other's mix
    /// (score points, probability units).
    pub a_gain: f64,
    pub b_gain: f64,
    /// `max(a_gain, b_gain)`.
    pub exploitability: f64,
}

impl PortfolioPair {
    fn of(a: &str, b: &str, o: &PortfolioDuel) -> Self {
        PortfolioPair {
            a: a.to_string(),
            b: b.to_string(),
            optimal: Outcome::from(&o.optimal),
            scripted: Outcome::from(&o.cells[0][0]),
            equilibrium: o.value(),
            a_mix: o.mix[0].clone(),
            b_mix: o.mix[1].clone(),
            a_gain: o.a_gain(),
            b_gain: o.b_gain(),
            exploitability: o.exploitability(),
        }
    }
}

/// Every pair of a cost list at one distance under the portfolio's equilibrium.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PortfolioPlay {
    /// Start distance, in the ruleset's unit.
    pub distance: f64,
    /// The portfolio's tactics, in the mixes' order.
    pub tactics: Vec<String>,
    /// Unit ids in cost-list order.
    pub units: Vec<String>,
    /// Every solved pair `a ≤ b`, in cost-list order.
    pub pairs: Vec<PortfolioPair>,
    /// Pairs with no game, `"A v B: why"`.
    pub refused: Vec<String>,
    /// Largest and mean exploitability bound over the solved pairs (probability units).
    pub exploitability_max: f64,
    pub exploitability_mean: f64,
    /// How often each tactic is played: its mean weight over both sides of every pair.
    pub usage: Vec<f64>,
}

impl PortfolioPlay {
    /// Solved pairs, worst exploitability first (ties in cost-list order).
    pub fn worst_first(&self) -> Vec<&PortfolioPair> {
        let mut v: Vec<&PortfolioPair> = self.pairs.iter().collect();
        v.sort_by(|x, y| y.exploitability.total_cmp(&x.exploitability));
        v
    }

    /// How many solved pairs have an exploitability bound above `x` (probability units).
    pub fn pairs_above(&self, x: f64) -> usize {
        self.pairs.iter().filter(|p| p.exploitability > x).count()
    }
}

/// Solves every pair of `r`'s cost list at `distance` under the portfolio (pairs in parallel;
/// each solve is exact, so the result does not depend on the thread count). `progress`
/// advances one per pair.
pub fn analyse<R: Ruleset>(r: &R, distance: f64, progress: &ProgressBar) -> PortfolioPlay {
    let units = r.units();
    let pairs = super::matrix::unordered_pairs(units.len());
    progress.inc_length(pairs.len() as u64);
    progress.set_message(format!("{}: the portfolio in equilibrium", r.id()));
    let solved: Vec<_> = pairs
        .par_iter()
        .map(|&(i, j)| {
            let o = r.portfolio_duel(i, j, distance, &mixer);
            progress.inc(1);
            (i, j, o)
        })
        .collect();
    let mut out = Vec::new();
    let mut refused = Vec::new();
    let tactics: Vec<String> = crate::rulesets::optimal::tactics::names().iter().map(|s| s.to_string()).collect();
    for (i, j, o) in solved {
        match o {
            Ok(o) => out.push(PortfolioPair::of(&units[i].id, &units[j].id, &o)),
            Err(e) => refused.push(format!("{} v {}: {e}", units[i].name, units[j].name)),
        }
    }
    let n = out.len().max(1) as f64;
    let usage =
        (0..tactics.len()).map(|k| out.iter().map(|p| p.a_mix[k] + p.b_mix[k]).sum::<f64>() / (2.0 * n)).collect();
    PortfolioPlay {
        distance,
        tactics,
        units: units.iter().map(|u| u.id.clone()).collect(),
        exploitability_max: out.iter().map(|p| p.exploitability).fold(0.0, f64::max),
        exploitability_mean: out.iter().map(|p| p.exploitability).sum::<f64>() / n,
        pairs: out,
        refused,
        usage,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mixer_drops_rounding_weights_and_its_mixes_sum_to_one() {
        // Matching pennies: ½–½ for both sides, within the ε of the least exploitable choice.
        let [a, b] = mixer(&[vec![1.0, 0.0], vec![0.0, 1.0]], &[0.0, 0.0], &[1.0, 1.0]).unwrap();
        for w in [&a, &b] {
            let within = (w[0] - 0.5).abs() <= equilibrium::REFINE_SLACK + 1e-9;
            assert!(within && (w.iter().sum::<f64>() - 1.0).abs() < 1e-12, "{w:?}");
        }
        assert_eq!(floor(&[1e-12, 0.5, 0.5 - 1e-12]), vec![0.0, 0.5 / (1.0 - 1e-12), (0.5 - 1e-12) / (1.0 - 1e-12)]);
        assert!(mixer(&[], &[], &[]).is_err());
        assert_eq!(crate::format::mix_text(&["a", "b", "c"], &[0.004, 0.0, 0.996]), "c 100%, a 0.4%");
    }

    /// Guns 'N Grenades at 12" with a short round cap (the bounds hold at any cap), pairs
    /// the scripted tactic plays badly (issue 41) and a mirror: each pair's mixes sum to 1, its
    /// exploitability is the larger gain, and the game's value lies within the equilibrium's
    /// value and its bounds (a best response against a tactic does at least as well as
    /// optimal play against optimal play).
    #[test]
    fn each_pair_brackets_the_games_value() {
        use crate::rulesets::gng::testing::{gng, unit};
        let r = gng(&["duel.max_rounds=4"]);
        for (a, b) in [("riflemen", "tank"), ("tank", "artillery"), ("machine-gunner", "machine-gunner")] {
            let o = r.portfolio_duel(unit(&r, a), unit(&r, b), 12.0, &mixer).unwrap();
            let p = PortfolioPair::of(a, b, &o);
            for w in [&p.a_mix, &p.b_mix] {
                assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-9 && w.iter().all(|&x| x >= 0.0), "{p:?}");
            }
            assert_eq!(p.exploitability, p.a_gain.max(p.b_gain));
            let v = p.optimal.a_score;
            assert!(p.equilibrium - p.b_gain <= v + 1e-9 && v <= p.equilibrium + p.a_gain + 1e-9, "{p:?}");
            assert_eq!(p.scripted, Outcome::from(&o.cells[0][0]));
        }
    }

    /// Every pair of VSGMR (a small game) with a short round cap: all solved, worst first, the
    /// largest bound the first pair's, and the tactics' usage summing to 1.
    #[test]
    fn analyse_solves_every_pair_and_the_tactic_usage_sums_to_one() {
        let r: crate::rulesets::vsgmr::Vsgmr = crate::rulesets::book::shipped(&["duel.max_rounds=3"]);
        let o = analyse(&r, 12.0, &ProgressBar::hidden());
        assert!(o.refused.is_empty(), "{:?}", o.refused);
        let k = r.units().len();
        assert_eq!(o.pairs.len(), k * (k + 1) / 2);
        assert_eq!(o.tactics, crate::rulesets::optimal::tactics::names());
        assert!((o.usage.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{:?}", o.usage);
        let worst = o.worst_first();
        assert!(worst.windows(2).all(|w| w[0].exploitability >= w[1].exploitability));
        assert_eq!(o.exploitability_max, worst[0].exploitability);
    }
}
