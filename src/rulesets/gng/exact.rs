//! Exact solution of a one-against-one stand-up duel (RULINGS.md, "Common: the stand-up
//! duel"; DESIGN.md, "Exact engine").
//!
//! When both units can attack at the start distance, nobody moves: each turn the side to act
//! makes one attack that hits with a fixed probability (the opposed roll, with Fast Shot) and
//! deals fixed damage. The duel is then a Markov chain over (damage of A, damage of B, side to
//! act). We propagate the exact distribution turn by turn up to the `max_rounds` cap, so the
//! draw probability of the capped game is exact too, and average over who goes first.
//!
//! Not solved here (returns `NotExact`): a unit out of range or inside its minimum range
//! (movement is needed), a blast radius that reaches the attacker itself (`[rules] self_blast =
//! "caught"`; when the firer is spared nobody else stands near the target, so the blast does
//! nothing and the chain holds), and infantry that walks inside the enemy's blast (`rules::hug`).
//! Tough under `tough = "first_hit_absorbed"` needs no flag: a fresh unit's first hit moves it
//! from damage 0 to 1 whatever its damage ([`Attack::absorbs_first`]).

use crate::dice::opposed_d6;
use crate::rulesets::gng::rules;
use crate::rulesets::gng::{FastShot, GunsNGrenades, Profile};
use crate::rulesets::{ExactDuel, NotExact, Ruleset};

/// P(one attack of `att` hits `def`): the opposed roll with Fast Shot if the attacker has it.
pub fn hit_probability(r: &GunsNGrenades, att: &Profile, def: &Profile) -> f64 {
    let reroll = att.tags.fast_shot.then_some(r.book.rules.fast_shot == FastShot::BothDice);
    opposed_d6(att.atk as i32, def.def as i32, reroll)
}

/// The exact outcome of unit `a` against unit `b`, one each, `distance` inches apart.
pub fn stand_up_duel(r: &GunsNGrenades, a: usize, b: usize, distance: f64) -> Result<ExactDuel, NotExact> {
    let (pa, pb) = (r.profile(a), r.profile(b));
    let d = distance as f32;
    for (p, name) in [(pa, &r.units()[a].name), (pb, &r.units()[b].name)] {
        if d > p.range + 1e-3 || d + 1e-3 < p.min_range {
            return Err(NotExact(format!(
                "{name} cannot attack at {distance} in (range {}–{} in): the duel needs movement",
                p.min_range, p.range
            )));
        }
        if p.own_blast_reaches(d) {
            return Err(NotExact(format!("{name}'s {} in blast reaches itself at {distance} in", p.blast)));
        }
    }
    if !rules::is_stand_up(pa, pb, d) {
        return Err(NotExact(format!(
            "at {distance} in one unit walks inside the other's blast: the duel needs movement"
        )));
    }
    let attack = |p: &Profile, t: &Profile| Attack {
        p_hit: hit_probability(r, p, t),
        damage: p.hit_damage,
        target_health: t.health,
        absorbs_first: t.absorbs_first_hit,
    };
    let (att_a, att_b) = (attack(pa, pb), attack(pb, pa));
    let max_turns = 2 * r.book.duel.max_rounds;
    let first_a = alternating_duel(att_a, att_b, max_turns);
    let first_b = alternating_duel(att_b, att_a, max_turns);
    // first_b is from B's point of view: swap.
    Ok(ExactDuel {
        a_wins: 0.5 * (first_a.a_wins + first_b.b_wins),
        b_wins: 0.5 * (first_a.b_wins + first_b.a_wins),
        draws: 0.5 * (first_a.draws + first_b.draws),
        mean_turns: 0.5 * (first_a.mean_turns + first_b.mean_turns),
    })
}

/// One side's attack in a stand-up duel.
#[derive(Debug, Clone, Copy)]
pub struct Attack {
    /// Probability in [0, 1] that one attack hits.
    pub p_hit: f64,
    /// Damage a hit deals.
    pub damage: u8,
    /// Damage that destroys the target.
    pub target_health: u8,
    /// The target absorbs the first hit that lands on it whole: from damage 0 a hit takes it to
    /// 1 (Tough under `[rules] tough = "first_hit_absorbed"`, [`Profile::after_hit`]).
    pub absorbs_first: bool,
}

impl Attack {
    /// The target's damage after a hit on `damage` (may reach or pass `target_health`).
    fn after_hit(&self, damage: usize) -> usize {
        if self.absorbs_first && damage == 0 { 1 } else { damage + self.damage as usize }
    }
}

/// Exact outcome of alternating single attacks, `first` acting first, capped at `max_turns`
/// turns (a draw after that). "A" in the result is the side that acts first.
pub fn alternating_duel(first: Attack, second: Attack, max_turns: u32) -> ExactDuel {
    // mass[i][j]: probability that the first side has taken i damage and the second j, and
    // nobody is destroyed yet.
    let h1 = second.target_health as usize; // health of the first side
    let h2 = first.target_health as usize;
    let mut mass = vec![vec![0.0f64; h2]; h1];
    mass[0][0] = 1.0;
    let (mut w1, mut w2, mut mean_turns) = (0.0, 0.0, 0.0);
    for turn in 0..max_turns {
        let (att, first_acts) = if turn % 2 == 0 { (first, true) } else { (second, false) };
        let mut next = vec![vec![0.0f64; h2]; h1];
        let mut ended = 0.0;
        for i in 0..h1 {
            for j in 0..h2 {
                let m = mass[i][j];
                if m == 0.0 {
                    continue;
                }
                let hit = m * att.p_hit;
                next[i][j] += m - hit;
                if first_acts {
                    let nj = att.after_hit(j);
                    if nj >= h2 {
                        w1 += hit;
                        ended += hit
                    } else {
                        next[i][nj] += hit
                    }
                } else {
                    let ni = att.after_hit(i);
                    if ni >= h1 {
                        w2 += hit;
                        ended += hit
                    } else {
                        next[ni][j] += hit
                    }
                }
            }
        }
        mean_turns += ended * (turn + 1) as f64;
        mass = next;
    }
    let draws: f64 = mass.iter().flatten().sum();
    mean_turns += draws * max_turns as f64;
    ExactDuel { a_wins: w1, b_wins: w2, draws, mean_turns }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sure_hit_first_strike_wins_at_once() {
        let sure = Attack { p_hit: 1.0, damage: 3, target_health: 3, absorbs_first: false };
        let r = alternating_duel(sure, sure, 200);
        assert_eq!((r.a_wins, r.b_wins, r.draws, r.mean_turns), (1.0, 0.0, 0.0, 1.0));
    }

    #[test]
    fn one_hit_kills_matches_the_geometric_series() {
        // Both need one hit with p and q: P(first wins) = p / (1 - (1-p)(1-q)).
        let (p, q) = (0.3, 0.5);
        let r = alternating_duel(
            Attack { p_hit: p, damage: 1, target_health: 1, absorbs_first: false },
            Attack { p_hit: q, damage: 1, target_health: 1, absorbs_first: false },
            2000,
        );
        let expect = p / (1.0 - (1.0 - p) * (1.0 - q));
        assert!((r.a_wins - expect).abs() < 1e-12);
        assert!((r.a_wins + r.b_wins + r.draws - 1.0).abs() < 1e-12);
    }

    #[test]
    fn no_hits_possible_is_a_certain_draw_at_the_cap() {
        let never = Attack { p_hit: 0.0, damage: 1, target_health: 3, absorbs_first: false };
        let r = alternating_duel(never, never, 200);
        assert_eq!((r.draws, r.mean_turns), (1.0, 200.0));
    }
}
