//! Gunplay's derived cost list (RULINGS.md, "Gunplay", Points: "pointsworth must *derive* a
//! cost list ... from the same fair-cost solver the other rulesets use"), over a stated mix of
//! grounds, and its check in the skirmish.
//!
//! Why a mix: a loadout's worth depends strongly on where the fight starts (the rifle wins
//! 99% at 36" and 58% at 12" in the efficiency-by-distance sweep) and on cover, so a list
//! derived in the open at the matrix distance (24") alone prices one table. The **ground mix**
//! is every start distance of `[duel] sweep_distances` (3, 6, 12, 18, 24, 36, 48") crossed with
//! the three cover levels of "Difficulties" (open, some, lots), all equally weighted: each
//! points-matched trial of the solver draws one of the 21 grounds uniformly, after its squad
//! sizes, from its own dice (so common random numbers across prices still hold). The solver
//! is the generic one ([`Engine::solve`]) run on [`MixedGround`], a view of
//! the ruleset whose duels are played on the mix.
//!
//! The **skirmish check** plays the list where no start distance or cover is chosen: the
//! Skirmish of [`crate::rulesets::gunplay::skirmish`] (48" table, 4–6 walls, lines along opposite edges) with
//! each side buying `[duel] budget` points of one loadout at the list's costs (⌊budget / cost⌋
//! characters, one more with the probability of the remainder, as the duel squads). A
//! loadout's skirmish efficiency is its mean score (win 1, draw ½) against each other loadout.

use indicatif::ProgressBar;

use crate::dice::Dice;
use crate::rulesets::engine::{BalanceSettings, Engine, FairCosts};
use crate::rulesets::gunplay::skirmish::{LineUp, simulate};
use crate::rulesets::gunplay::{Battle, Cover, Gunplay, RulesConfig};
use crate::rulesets::{About, Book, DuelOutcome, DuelSetup, Ruleset};
use crate::stats::{CONFIDENCE, Estimate, mean_of, score_se};

/// Gunplay with every duel played on the ground mix (module docs): start distances of
/// `[duel] sweep_distances` × open, some and lots of cover, equally weighted. The `distance`
/// a caller passes is ignored.
pub struct MixedGround {
    /// The ruleset at each cover level (open, some, lots).
    grounds: [Gunplay; 3],
    /// Start distances, inches.
    pub distances: Vec<f64>,
}

impl MixedGround {
    /// The mix of `r`: its sweep distances (the matrix distance alone when the sweep is
    /// empty) at every cover level.
    pub fn new(r: &Gunplay) -> Self {
        let duel = &r.book.duel;
        let distances =
            if duel.sweep_distances.is_empty() { vec![duel.distance] } else { duel.sweep_distances.clone() };
        MixedGround { grounds: Cover::ALL.map(|c| r.with_cover(c)), distances }
    }

    /// The ground of draw `k` (0..3 × distances): (start distance in inches, cover).
    pub fn ground(&self, k: usize) -> (f64, Cover) {
        (self.distances[k / 3], Cover::ALL[k % 3])
    }

    /// "3, 6, ... 48 in × open, some cover, lots of cover".
    pub fn describe(&self) -> String {
        let d: Vec<String> = self.distances.iter().map(|d| format!("{d}")).collect();
        format!("{} in × {}", d.join(", "), Cover::ALL.iter().map(|c| c.label()).collect::<Vec<_>>().join(", "))
    }
}

/// The units, settings and variants of the mix are the ruleset's: its book on open ground.
impl Ruleset for MixedGround {
    type Arena = Battle;
    type Rules = RulesConfig;
    const ABOUT: About =
        About::new("gunplay-mixed-ground", "Gunplay (ground mix)", crate::rulesets::gunplay::coverage::table);

    fn book(&self) -> &Book<RulesConfig> {
        &self.grounds[0].book
    }
    /// One duel on a ground drawn uniformly from the mix with `dice` (after the squad sizes);
    /// the setup's distance is not used.
    fn play_duel<D: Dice>(&self, arena: &mut Battle, dice: &mut D, duel: DuelSetup) -> DuelOutcome {
        let (distance, cover) = self.ground(dice.below(3 * self.distances.len()));
        self.grounds[cover as usize].play_duel(arena, dice, DuelSetup { distance, ..duel })
    }
}

/// The derived cost list over the ground mix: the fair-cost solver on [`MixedGround`] with the
/// config's `[balance]` (anchor, step, `report_trials` per matchup per price), seed `seed`.
pub fn derived_over_mix<E: Engine>(engine: &E, r: &Gunplay, seed: u64, progress: &ProgressBar) -> FairCosts {
    let m = MixedGround::new(r);
    let mut s = BalanceSettings::from_ruleset(&m, seed);
    s.trials = r.book.balance.report_trials;
    engine.solve(&m, &s, progress)
}

/// The costs of a solver run's derived list (points, cost-list order): each unit's derived
/// cost, or its starting cost where the solver found none.
pub fn derived_costs(f: &FairCosts) -> Vec<f64> {
    f.rows.iter().map(|row| row.derived_cost.map_or(row.unit.cost, |e| e.value)).collect()
}

/// One loadout's skirmish efficiency at a cost list.
#[derive(Debug, Clone, PartialEq)]
pub struct SkirmishCheck {
    /// The list's costs, points, cost-list order.
    pub costs: Vec<f64>,
    /// Per loadout: mean score (win 1, draw ½; in [0, 1]) of its `budget`-point side against
    /// each other loadout's, with a 95% normal interval (pairs independent).
    pub efficiency: Vec<Estimate>,
    /// Games per pair of loadouts.
    pub games: u64,
}

/// Plays `games` skirmishes for every pair of loadouts, each side `budget` points of one
/// loadout at `costs` (points, each > 0), and gives each loadout's mean score against the
/// others. Pair (a, b) plays on its own stream of `seed`, so the tally is a function of the
/// seed alone on any thread count.
pub fn skirmish_check<E: Engine>(
    engine: &E,
    r: &Gunplay,
    costs: &[f64],
    budget: f64,
    seed: u64,
    games: u64,
) -> SkirmishCheck {
    let mut priced = r.clone();
    for (u, &c) in priced.book.units.iter_mut().zip(costs) {
        u.cost = c;
    }
    let n = priced.book.units.len();
    let mut scores = vec![Vec::new(); n];
    for a in 0..n {
        for b in a + 1..n {
            let la = LineUp::Points { unit: a, budget };
            let lb = LineUp::Points { unit: b, budget };
            let ids = [priced.book.units[a].id.as_str(), priced.book.units[b].id.as_str()];
            let pair_seed = seed ^ crate::seed::stream_id(&["gunplay", "points-check", ids[0], ids[1]]);
            let t = simulate(engine, &priced, [&la, &lb], pair_seed, games, &ProgressBar::hidden());
            let draws = t.games - t.wins[0] - t.wins[1];
            let sa = (t.wins[0] as f64 + 0.5 * draws as f64) / t.games.max(1) as f64;
            let se = score_se(t.wins[0], draws, t.games);
            scores[a].push((sa, se));
            scores[b].push((1.0 - sa, se));
        }
    }
    let efficiency = scores
        .iter()
        .map(|v| mean_of(v, CONFIDENCE, 0.0, 1.0).unwrap_or(Estimate { value: 0.5, lo: 0.0, hi: 1.0 }))
        .collect();
    SkirmishCheck { costs: costs.to_vec(), efficiency, games }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;
    use crate::rulesets::gunplay::tests::ruleset;

    #[test]
    fn the_mix_is_every_sweep_distance_at_every_cover_equally() {
        let r = ruleset(Cover::Open);
        let m = MixedGround::new(&r);
        assert_eq!(m.distances, vec![3.0, 6.0, 12.0, 18.0, 24.0, 36.0, 48.0]);
        let grounds: Vec<(f64, Cover)> = (0..21).map(|k| m.ground(k)).collect();
        assert_eq!(grounds[0], (3.0, Cover::Open));
        assert_eq!(grounds[20], (48.0, Cover::Lots));
        for d in &m.distances {
            for c in Cover::ALL {
                assert_eq!(grounds.iter().filter(|g| **g == (*d, c)).count(), 1, "{d} {c:?}");
            }
        }
        assert_eq!(m.describe(), "3, 6, 12, 18, 24, 36, 48 in × open, some cover, lots of cover");
    }

    #[test]
    fn a_mixed_duel_plays_the_drawn_ground() {
        // The draw u = 14.5/21 picks ground 14: 24" (14 / 3 = the 5th distance) behind lots of
        // cover (14 % 3 = 2). The dice after the draw play the same duel as the ruleset at 24"
        // behind lots of cover, whatever distance the caller passes.
        let r = ruleset(Cover::Open);
        let m = MixedGround::new(&r);
        assert_eq!(m.ground(12), (24.0, Cover::Open));
        assert_eq!(m.ground(14), (24.0, Cover::Lots));
        let (rifle, pistol) = (r.find("rifle"), r.find("pistol"));
        let mut fd = crate::dice::FastDice::from_seed(9);
        let seq: Vec<u8> = (0..5000).map(|_| 1 + fd.below(12) as u8).collect();
        let lots = r.with_cover(Cover::Lots);
        let setup =
            |distance| DuelSetup { a: rifle, na: 1, b: pistol, nb: 1, distance, a_first: true, tactics: [0, 0] };
        let want = lots.play_duel(&mut Battle::default(), &mut ScriptedDice::new(&seq), setup(24.0));
        let mut dice = ScriptedDice::new(&seq).with_uniforms(&[14.5 / 21.0]);
        let got = m.play_duel(&mut Battle::default(), &mut dice, setup(3.0));
        assert_eq!(got, want);
        let open = r.play_duel(&mut Battle::default(), &mut ScriptedDice::new(&seq), setup(24.0));
        assert_ne!(open, want, "the cover level matters for these dice");
    }
}
