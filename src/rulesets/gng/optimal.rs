//! Optimal play in a Guns 'N Grenades one-against-one duel (issue 15; DESIGN.md, "Optimal play
//! and exploitability"): the duel of [`super::rules`] as a game for [`crate::rulesets::optimal`].
//!
//! A unit's state is its damage (life stages lost) and one flag: Hunkered for infantry ("+2
//! DEF until unit moves again"), and for a vehicle "cannot move during its side's next turn"
//! (it became Shaken; RULINGS.md, "Movement"). Each turn the one unit of the side activates
//! once (GnG 1.5, "How Combat Works"); players alternate turns, a fair roll-off for the first.
//!
//! The options of an activation (GnG 1.5, "Moving Your Units", "Vehicle Movement"):
//! - Hold: attack from where it stands (a Hunkered unit stays Hunkered: it has not moved);
//! - infantry: Walk up to 6" (Light 7", Bloodied half rounded down) toward or away from the
//!   enemy by whole grid cells, then attack; Rush up to 10" (11", Bloodied 5") without
//!   attacking; Hunker instead of attacking (RULINGS.md; the skirmish's reading);
//! - vehicles: Move or Cruise up to 10" either way without firing; not while Shaken-locked;
//! - Artillery never moves; anyone may also do nothing (waiting matters only where a blast
//!   would reach the firer itself).
//!
//! Retreats stop at the own table edge (36" deep, RULINGS.md, "Duel table depth"); advances
//! stop [`MIN_GAP`] short of the enemy. A blast (Tank 1½", Artillery 2", Mortar 2½") that
//! reaches the firer rolls against it as against anyone else ([`rules::blast_with`]), unless
//! `[rules] self_blast = "spared"`; Tough under `tough = "first_hit_absorbed"` needs no flag in
//! the state (a fresh unit's first hit takes it from 0 to 1 damage, [`hurt`]). Fast Shot
//! always re-rolls a miss, as in the duel. Medics have nobody else to heal, Anti Armor no cover
//! to destroy, and no upgrade is fielded in a duel.
//!
//! The scripted policy is the Monte Carlo duel's (`rules::hug` and `rules::approach`,
//! shared): infantry walks (or, out of range, rushes) inside a vehicle's or Artillery's blast
//! when that reaches; else attack when in range, else walk the least that brings the enemy into
//! range and attack, else rush toward it; on the grid a move is rounded up to whole cells (exact for the shipped config, whose
//! ranges and moves are whole half-inches) and a retreat stops at the table edge, which the
//! open-ground duel does not have.
//!
//! What it says of the default tactic at 12" (issue 15 item 4, not met; `pointsworth matrix gng
//! --optimal`): exploitable by 64.2 points at worst (Machine Gunner v Artillery), 17.9 on
//! average, 62 of 78 pairs above 5. The nine infantry pairs with Artillery (12.6–64.2 points)
//! end in a draw 37–92% of the time under optimal play, the mobile side keeping out of the
//! immobile Artillery's 15" range, where the scripted unit walks into it or stays there once
//! damaged (`tests::where_the_gain_comes_from`). Two rules for the
//! shared tactic were tried at stop 38 and not kept (branches `gng-self-blast` and
//! `gng-hunker-race`, release builds, the same matrix):
//! - a blast unit holds its fire while its own blast would catch it and the target cannot attack
//!   it from there (a Machine Gunner or Mortar inside its blast and their minimum range), in the
//!   duel, this game's scripted policy and the skirmish: Machine Gunner v Artillery 64.2 → 43.6
//!   (its best response now waits inside the blast for a draw, ½ against the scripted
//!   Machine Gunner's 0.084: the gain is the scripted Machine Gunner's approach, not the
//!   blast), Machine Gunner v Tank 36.1 → 49.4 and Mortar v Tank 28.7 → 35.2 (a Tank hit, 3
//!   damage, destroys either outright, so firing wins unless the blast also destroys the Tank,
//!   a draw: better than holding fire for a draw); max 49.4, mean unchanged (17.9);
//! - infantry where each side can attack the other Hunkers first (then holds and fires,
//!   Hunkered) when a race of alternating volleys where nobody moves is better for it giving
//!   the enemy the first shot against +2 DEF than taking the first shot: the mirrors of
//!   low-ATK, high-DEF units fall (Medics 46.2 → 16.2, Scouts 40.6 → 16.0), other pairs rise
//!   (Riflemen v Machine Gunner 23.0 → 45.9, Snipers v Medics 23.2 → 50.3); mean 17.9 → 21.4,
//!   68 pairs above 5; with a Hunkered unit also waiting while neither can attack, mean 22.6.

use crate::rulesets::gng::exact::hit_probability;
use crate::rulesets::gng::rules::{self, Fighter, LOCK_ACTIVE, LOCK_NONE};
use crate::rulesets::gng::{FastShot, GunsNGrenades, Kind, Profile};
use crate::rulesets::optimal::{Choice, DuelGame, Grid, OptimalPlay, Order, Pair, Setup, Spot, action_codes};
use crate::rulesets::{ExactDuel, NotExact, Side};

/// The Guns 'N Grenades duel table and grid, inches. Depth: the 36" depth of the 3'×5' table
/// (RULINGS.md, "Duel table depth"; "Playing the Game"). Step ½": every range (8½", 7½"...),
/// move (6", 7", 3", 10", 11", 5"), blast radius and report distance of the shipped config is a
/// whole number of half-inches, so ½" is exact for it; halving it to ¼" moves no value of the
/// representative pairs by more than 0.1 point (tested:
/// `halving_the_grid_moves_no_value_by_a_tenth_of_a_point`).
pub const GRID: Grid = Grid { depth: 36.0, step: 0.5 };

/// The closest two units come, centre to centre, inches: one base width (the book measures
/// ranges and blasts from a base's centre; two bases cannot overlap).
pub const MIN_GAP: f64 = 1.0;

action_codes! {
    /// Attack from where the unit stands (Hold); keeps Hunker.
    HOLD,
    /// Walk, then attack.
    WALK,
    /// Walk or Rush (vehicles: Move or Cruise) without attacking.
    MOVE,
    /// Nothing: no move, no attack (keeps Hunker).
    WAIT,
    /// Hunker: no move, no attack, +2 DEF until the unit moves.
    HUNKER,
}

/// A unit's state: damage taken and the flag (infantry: Hunkered; vehicle: Shaken, cannot
/// move on its next activation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct U {
    damage: u8,
    flag: bool,
}

impl U {
    fn index(self) -> usize {
        self.damage as usize * 2 + self.flag as usize
    }
    fn of(i: usize) -> U {
        U { damage: (i / 2) as u8, flag: i % 2 == 1 }
    }
}

/// A Hunkered defender's DEF bonus (GnG 1.5, "Moving Your Units": Hunker +2 DEF).
const HUNKER_DEF: i8 = 2;

/// One Guns 'N Grenades duel as a game: unit `a` (side A) against unit `b`.
pub type GngGame<'a> = Pair<'a, GunsNGrenades, Profile>;

impl GngGame<'_> {
    /// The unit of side `s` in state `x` as the duel's rules see it.
    fn fighter(&self, s: Side, x: U) -> Fighter {
        let mut f = Fighter::new(0, 0.0, 0.0);
        f.damage = x.damage;
        f.lock = if self.p[s].is_vehicle() && x.flag { LOCK_ACTIVE } else { LOCK_NONE };
        f
    }

    /// The gap after side `s` at `at` moves `k` cells (negative: back).
    fn gap_after(&self, at: Spot, k: i16) -> f64 {
        let sum = self.setup.line.max_sum - at.ahead;
        self.setup.line.gap((sum as i32 + k as i32) as u16)
    }

    /// The scripted move `mv` of unit `f` (profile `p`) on the grid: rounded up to whole cells,
    /// at most its Walk (a Walk) or Rush allowance in cells.
    fn moved(&self, p: &Profile, f: &Fighter, mv: rules::Approach) -> Choice {
        let (walk, rush) = rules::move_allowance(p, f);
        let most = self.setup.line.cells_within((if mv.walk { walk } else { rush }) as f64 + 1e-3);
        let cells = ((mv.len.abs() as f64 / self.setup.line.step - 1e-6).ceil() as i16).min(most);
        let advance = if mv.len < 0.0 { -cells } else { cells };
        Choice { advance, action: if mv.walk { WALK } else { MOVE } }
    }

    /// Whether `p`'s own blast would catch it when it fires at `gap` (never under `[rules]
    /// self_blast = "spared"`, [`Profile::own_blast_reaches`]).
    fn self_blast(p: &Profile, gap: f64) -> bool {
        p.own_blast_reaches(gap as f32)
    }
}

/// The hits of an opposed roll of `att` against `def` by the attacker's total (GnG 1.5, "How
/// Combat Works"; Fast Shot as [`rules::opposed_roll_with`] rolls it): `(total, probability)`,
/// the probabilities adding up to [`hit_probability`]. The total matters for a blast.
pub fn hit_totals(r: &GunsNGrenades, att: &Profile, def: &Profile) -> Vec<(i32, f64)> {
    let (atk, dv) = (att.atk as i32, def.def as i32);
    let mut by_total = [0.0f64; 32];
    let mut add = |t: i32, p: f64| by_total[(t - atk) as usize] += p;
    for a in 1..=6 {
        for d in 1..=6 {
            if a + atk > d + dv {
                add(a + atk, 1.0 / 36.0);
            } else if att.tags.fast_shot {
                match r.book.rules.fast_shot {
                    FastShot::AttackerDie => {
                        for a2 in 1..=6 {
                            if a2 + atk > d + dv {
                                add(a2 + atk, 1.0 / 216.0);
                            }
                        }
                    }
                    FastShot::BothDice => {
                        for a2 in 1..=6 {
                            for d2 in 1..=6 {
                                if a2 + atk > d2 + dv {
                                    add(a2 + atk, 1.0 / 1296.0);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    by_total.iter().enumerate().filter(|(_, p)| **p > 0.0).map(|(k, p)| (k as i32 + atk, *p)).collect()
}

/// `x` after `n` life stages of damage to a unit of profile `p` ([`rules::take_damage`]; a Tough
/// unit that absorbs its first hit, [`Profile::after_hit`]): a vehicle that becomes Shaken
/// cannot move on its next activation.
fn hurt(p: &Profile, x: U, n: u8) -> U {
    let damage = p.after_hit(x.damage, n);
    let shaken = p.is_vehicle() && x.damage < p.health - 1 && damage == p.health - 1;
    U { damage, flag: x.flag || shaken }
}

impl DuelGame for GngGame<'_> {
    fn setup(&self) -> Setup {
        self.setup
    }
    fn n_states(&self, s: Side) -> usize {
        (self.p[s].health as usize + 1) * 2
    }
    fn start_state(&self, _s: Side) -> usize {
        U { damage: 0, flag: false }.index()
    }
    fn destroyed(&self, s: Side, u: usize) -> bool {
        U::of(u).damage >= self.p[s].health
    }
    /// Health left, as a share of the profile's.
    fn strength(&self, s: Side, u: usize) -> f64 {
        let h = self.p[s].health;
        f64::from(h.saturating_sub(U::of(u).damage)) / f64::from(h.max(1))
    }
    fn n_actions(&self) -> usize {
        N_ACTIONS
    }
    fn options(&self, s: Side, me: usize, _other: usize, at: Spot, out: &mut Vec<Choice>) {
        let p = self.p[s];
        let x = U::of(me);
        let f = self.fighter(s, x);
        out.push(Choice { advance: 0, action: HOLD });
        if Self::self_blast(p, at.gap) {
            out.push(Choice { advance: 0, action: WAIT });
        }
        if p.kind == Kind::Infantry && !x.flag {
            out.push(Choice { advance: 0, action: HUNKER });
        }
        if !rules::can_move(p, &f) {
            return;
        }
        let (walk, rush) = rules::move_allowance(p, &f);
        let walk = if p.kind == Kind::Infantry { self.setup.line.cells_within(walk as f64 + 1e-3) } else { 0 };
        let rush = self.setup.line.cells_within(rush as f64 + 1e-3);
        for k in 1..=rush {
            for dir in [1i16, -1] {
                if (dir > 0 && k > at.ahead as i16) || (dir < 0 && k > at.room as i16) {
                    continue;
                }
                let gap = self.gap_after(at, dir * k);
                if k <= walk && rules::in_range(p, gap as f32) {
                    out.push(Choice { advance: dir * k, action: WALK });
                    if !Self::self_blast(p, gap) {
                        continue;
                    }
                }
                out.push(Choice { advance: dir * k, action: MOVE });
            }
        }
    }
    /// The Monte Carlo duel's rule ([`rules::take_turn`] with one unit a side): `rules::hug`;
    /// else Hold and attack in range; else, if it can move, `rules::approach` rounded up to
    /// whole cells.
    fn scripted(&self, s: Side, me: usize, _other: usize, at: Spot) -> Choice {
        let p = self.p[s];
        let f = self.fighter(s, U::of(me));
        let d = at.gap as f32;
        if let Some(mv) = rules::hug(p, &f, self.p[1 - s], d) {
            return self.moved(p, &f, mv);
        }
        if rules::in_range(p, d) {
            return Choice { advance: 0, action: HOLD };
        }
        if !rules::can_move(p, &f) {
            return Choice { advance: 0, action: WAIT };
        }
        self.moved(p, &f, rules::approach(p, &f, d))
    }
    /// The same unit on both sides (one profile of the cost list).
    fn mirror(&self) -> bool {
        self.same_unit()
    }
    fn outcomes(&self, s: Side, action: u16, me: usize, other: usize, gap: f64, out: &mut Vec<(f64, usize, usize)>) {
        let (p, tp) = (self.p[s], self.p[1 - s]);
        let (x, y) = (U::of(me), U::of(other));
        // The activation is spent: a vehicle's lock ends with it; a move ends Hunker.
        let done = match (p.kind, action) {
            (Kind::Infantry, HUNKER) => U { flag: true, ..x },
            (Kind::Infantry, WALK | MOVE) => U { flag: false, ..x },
            (Kind::Infantry, _) => x,
            _ => U { flag: false, ..x },
        };
        let attacks = matches!(action, HOLD | WALK) && rules::in_range(p, gap as f32);
        if !attacks {
            out.push((1.0, done.index(), other));
            return;
        }
        let hunkered = |q: &Profile, u: U| {
            if q.kind == Kind::Infantry && u.flag { Profile { def: q.def + HUNKER_DEF, ..*q } } else { *q }
        };
        let def = hunkered(tp, y);
        let y_hit = hurt(tp, y, p.hit_damage);
        if !Self::self_blast(p, gap) {
            let ph = hit_probability(self.r, p, &def);
            out.push((ph, done.index(), y_hit.index()));
            out.push((1.0 - ph, done.index(), other));
            return;
        }
        // The blast catches the firer when its own d6 + DEF is lower than the hit's total.
        let own = hunkered(p, done);
        let x_hit = hurt(p, done, p.hit_damage);
        let mut missed = 1.0;
        for (total, pt) in hit_totals(self.r, p, &def) {
            let caught = (1..=6).filter(|d| d + (own.def as i32) < total).count() as f64 / 6.0;
            out.push((pt * caught, x_hit.index(), y_hit.index()));
            out.push((pt * (1.0 - caught), done.index(), y_hit.index()));
            missed -= pt;
        }
        out.push((missed.max(0.0), done.index(), other));
    }
}

/// Guns 'N Grenades `a` against `b` starting `distance` inches apart, both playing the scripted
/// tactic (the Monte Carlo duel's), exactly: the game on its ½" grid as a Markov chain
/// ([`crate::rulesets::chain::scripted_duel`]), averaged over who goes first. It is the open-ground duel wherever
/// the grid is exact, which this checks: the distance and both units' ranges, minimum ranges,
/// blast radii and moves are whole half-inches, the distance is within the 36" table, and no
/// scripted move is clipped at the table edge or the closest approach. Errors say which failed.
pub fn scripted_duel(r: &GunsNGrenades, a: usize, b: usize, distance: f64) -> Result<ExactDuel, NotExact> {
    let on_grid = |x: f64| ((x / GRID.step) - (x / GRID.step).round()).abs() < 1e-6;
    let (pa, pb) = (&r.profiles[a], &r.profiles[b]);
    let lengths = [pa, pb].map(|p| [p.range, p.min_range, p.blast, p.walk, p.rush]);
    if !on_grid(distance) || !lengths.iter().flatten().all(|&x| on_grid(x as f64)) {
        return Err(NotExact(format!(
            "a distance, range, blast or move is not a whole number of {} in: the exact grid would change the duel",
            GRID.step
        )));
    }
    let g = r.game(a, b, distance, GRID.step)?;
    crate::rulesets::chain::scripted_duel(&g)
}

/// The game of units `a` and `b` ([`GunsNGrenades::profiles`]) starting `distance` inches apart
/// on the 36"-deep duel table, on a grid of `step` inches. Errors: a distance above the table
/// depth.
impl OptimalPlay for GunsNGrenades {
    type Game<'a> = GngGame<'a>;
    fn game(&self, a: usize, b: usize, distance: f64, step: f64) -> Result<GngGame<'_>, NotExact> {
        // "Playing the Game": players alternate turns after a roll-off for the first.
        let setup = GRID.setup(distance, step, MIN_GAP, self.book.duel.max_rounds, Order::Alternate)?;
        Ok(Pair { r: self, p: [&self.profiles[a], &self.profiles[b]], setup, extra: () })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::gng::testing::{gng, unit};
    use crate::rulesets::optimal::{Policy, optimal_duel, print_matrix, probe_at, unordered_pairs};
    use crate::rulesets::optimal::{Probe, assert_scripted_games_are_chains, probe_args};
    use crate::rulesets::optimal::{assert_half_grid_within, assert_mirror_is_even};

    /// The shipped config with a short round cap: the solver's cost grows with the rounds it
    /// solves, and every property tested here holds at any cap.
    fn short() -> GunsNGrenades {
        gng(&["duel.max_rounds=6"])
    }

    fn game<'a>(r: &'a GunsNGrenades, a: &str, b: &str, d: f64, step: f64) -> GngGame<'a> {
        r.game(unit(r, a), unit(r, b), d, step).unwrap()
    }

    #[test]
    fn hit_totals_add_up_to_the_hit_probability() {
        for fast in ["attacker_die", "both_dice"] {
            let r = gng(&[&format!("rules.fast_shot={fast}")]);
            for a in &r.profiles {
                for b in &r.profiles {
                    let sum: f64 = hit_totals(&r, a, b).iter().map(|t| t.1).sum();
                    assert!((sum - hit_probability(&r, a, b)).abs() < 1e-12, "{fast}: {a:?} v {b:?}");
                }
            }
        }
    }

    /// GnG 1.5, "Moving Your Units": Hunker gives +2 DEF "until unit moves again", so a
    /// hunkered unit that holds and fires stays hunkered, one that walks does not; Tank, "Blast
    /// Radius 1½\"": a Tank firing at a unit 1" away rolls its own DEF against its total.
    #[test]
    fn hunker_lasts_until_the_unit_moves_and_a_blast_catches_its_firer() {
        let r = short();
        let g = game(&r, "Riflemen", "Riflemen", 12.0, GRID.step);
        let fresh = U { damage: 0, flag: false }.index();
        let hunkered = U { damage: 0, flag: true }.index();
        let mut out = Vec::new();
        g.outcomes(0, HOLD, hunkered, fresh, 8.0, &mut out);
        assert!(out.iter().all(|o| o.1 == hunkered), "{out:?}");
        let p_hit = |out: &[(f64, usize, usize)]| {
            out.iter().filter(|o| o.2 != fresh && o.2 != hunkered).map(|o| o.0).sum::<f64>()
        };
        // Riflemen ATK +3 against DEF +2 hits 21/36; against a hunkered DEF +4, 10/36.
        assert!((p_hit(&out) - 21.0 / 36.0).abs() < 1e-12);
        out.clear();
        g.outcomes(0, HOLD, fresh, hunkered, 8.0, &mut out);
        assert!((p_hit(&out) - 10.0 / 36.0).abs() < 1e-12, "{out:?}");
        out.clear();
        g.outcomes(0, WALK, hunkered, fresh, 8.0, &mut out);
        assert!(out.iter().all(|o| o.1 == fresh), "a walk ends Hunker: {out:?}");
        out.clear();
        g.outcomes(0, HUNKER, fresh, fresh, 8.0, &mut out);
        assert_eq!(out, vec![(1.0, hunkered, fresh)], "Hunker: no attack");
        // The Tank (ATK +6, DEF +4, 3 damage) at 1": a hit destroys the Riflemen... and the
        // Tank too when its own d6 + 4 is below the total.
        let g = game(&r, "Tank", "Riflemen", 12.0, GRID.step);
        out.clear();
        g.outcomes(0, HOLD, fresh, fresh, 1.0, &mut out);
        let dead_tank: f64 = out.iter().filter(|o| U::of(o.1).damage == 3).map(|o| o.0).sum();
        assert!(dead_tank > 0.3, "{out:?}");
        assert!((out.iter().map(|o| o.0).sum::<f64>() - 1.0).abs() < 1e-12);
        out.clear();
        g.outcomes(0, HOLD, fresh, fresh, 2.0, &mut out);
        assert!(out.iter().all(|o| o.1 == fresh), "out of its 1½\" blast at 2\": {out:?}");
    }

    #[test]
    fn the_scripted_tactic_on_the_grid_is_the_stand_up_chain() {
        // Both can attack from the start and no blast reaches its firer: nobody moves, and the
        // game with both sides scripted gives the exact chain's numbers.
        let r = short();
        // Each unordered pair once: the swapped pair is the chain's mirror (`exact`'s tests).
        let stand_up = |a, b, d| crate::rulesets::gng::exact::stand_up_duel(&r, a, b, d).ok();
        let pairs = assert_scripted_games_are_chains(
            &r,
            &unordered_pairs(r.profiles.len()),
            (&[8.0], GRID.step),
            1e-9,
            stand_up,
        );
        assert!(pairs > 20, "only {pairs} stand-up pairs");
    }

    /// Where the duel needs movement, the scripted chain ([`scripted_duel`], forward) and the
    /// solver's backward induction with both sides scripted are the same chain on the same grid.
    #[test]
    fn the_scripted_chain_is_the_solvers_scripted_value_where_the_duel_moves() {
        let r = short();
        let n = r.profiles.len();
        let ordered: Vec<(usize, usize)> = (0..n).flat_map(|a| (0..n).map(move |b| (a, b))).collect();
        let moving = |a, b, d| match crate::rulesets::gng::exact::stand_up_duel(&r, a, b, d) {
            Ok(_) => None,
            Err(_) => Some(scripted_duel(&r, a, b, d).unwrap_or_else(|e| panic!("{a} v {b} at {d}: {e}"))),
        };
        let pairs = assert_scripted_games_are_chains(&r, &ordered, (&[4.0, 12.0, 30.0], GRID.step), 1e-12, moving);
        assert!(pairs > 20, "only {pairs} moving pairs");
    }

    /// The scripted policy closes inside a vehicle's or Artillery's blast like the Monte Carlo
    /// duel (`rules::hug`): Riflemen 2½" from a Tank walk 1" and fire; Snipers 12" from
    /// Artillery rush 10".
    #[test]
    fn the_scripted_policy_closes_inside_a_blast_that_cannot_walk_away() {
        let r = short();
        let fresh = U { damage: 0, flag: false }.index();
        let at = |gap: f64| Spot { gap, room: 72, ahead: 72 };
        let g = game(&r, "Riflemen", "Tank", 12.0, GRID.step);
        assert_eq!(g.scripted(0, fresh, fresh, at(2.5)), Choice { advance: 2, action: WALK });
        let g = game(&r, "Snipers", "Artillery", 12.0, GRID.step);
        assert_eq!(g.scripted(0, fresh, fresh, at(12.0)), Choice { advance: 20, action: MOVE });
    }

    /// A mirror's B best response is A's swapped ([`crate::rulesets::optimal::analyse`]), and
    /// so are the portfolio's cells below the diagonal and B's best responses
    /// ([`crate::rulesets::optimal::portfolio`]); the score of the advantage alone is the
    /// solved score ([`crate::rulesets::optimal::optimal_score`]).
    #[test]
    fn a_mirror_solves_one_best_response() {
        let r = short();
        for u in ["Riflemen", "Medics", "Tank"] {
            crate::rulesets::optimal::assert_mirror_shortcut_is_exact(&game(&r, u, u, 12.0, GRID.step));
            crate::rulesets::optimal::assert_score_is_solved(&game(&r, u, u, 12.0, GRID.step));
        }
        crate::rulesets::optimal::assert_mirror_portfolio_is_exact(
            game(&r, "Medics", "Medics", 12.0, GRID.step),
            game(&r, "Medics", "Medics", 12.0, GRID.step),
        );
        assert!(!game(&r, "Riflemen", "Tank", 12.0, GRID.step).mirror());
        crate::rulesets::optimal::assert_score_is_solved(&game(&r, "Riflemen", "Tank", 12.0, GRID.step));
    }

    #[test]
    fn optimal_play_bounds_the_scripted_values() {
        let r = short();
        for (a, b) in [("Riflemen", "Mortar"), ("Light Infantry", "Snipers"), ("Tank", "Grenadier")] {
            let o = optimal_duel(&r, unit(&r, a), unit(&r, b), 12.0, GRID.step).unwrap();
            o.assert_bounds();
            assert!(o.exploitability() >= 0.0);
        }
    }

    /// One solve serves every start distance of a line (the contract of `OptimalPlay::game`;
    /// Gunplay's chart by start distance relies on it).
    #[test]
    fn one_solve_serves_every_start_distance_of_a_line() {
        let r = gng(&["duel.max_rounds=3"]);
        // ½" grid, 36" table: 1" apart keeps the backs 36" apart.
        let units = (unit(&r, "Riflemen"), unit(&r, "Tank"));
        crate::rulesets::optimal::assert_one_solve_serves_every_start(&r, units, &[12.0, 13.0, 20.0], GRID.step, true);
    }

    #[test]
    fn mirrors_are_exactly_even_under_optimal_play() {
        let r = short();
        for u in ["Riflemen", "Mortar", "Tank"] {
            assert_mirror_is_even(&game(&r, u, u, 12.0, GRID.step));
        }
    }

    /// The half grid has twice the positions a side; both pairs have moves to choose (the
    /// Mortar's minimum range, the Tank's blast), which is where the grid matters.
    #[test]
    fn halving_the_grid_moves_no_value_by_a_tenth_of_a_point() {
        let r = short();
        for (a, b) in [("Riflemen", "Mortar"), ("Light Infantry", "Tank")] {
            assert_half_grid_within(&r, (unit(&r, a), unit(&r, b)), 12.0, GRID.step, 0.001);
        }
    }

    /// The whole optimal-play matrix at the report distance, with the exploitability of the
    /// scripted tactic per pair, worst first (`cargo test --lib gng::optimal::tests::optimal_matrix
    /// -- --ignored --nocapture`; `OPTIMAL_DISTANCE`, `OPTIMAL_STEP` override; the measurement
    /// behind the notes of issue 15).
    #[test]
    #[ignore]
    fn optimal_matrix() {
        let r = gng(&[]);
        let (d, step) = probe_at(r.book.duel.distance, GRID.step);
        let mut pairs = unordered_pairs(r.profiles.len());
        // OPTIMAL_REVERSE=1: the pairs last first (a second process shares the matrix).
        if std::env::var("OPTIMAL_REVERSE").is_ok() {
            pairs.reverse();
        }
        print_matrix(&r, |u| r.book.units[u].name.clone(), &pairs, (d, step), pairs.len(), |_, _, _| String::new());
    }

    /// Where the gain of one side's best response comes from (issue 15): the scripted duel is
    /// propagated activation by activation, and each activation of the exploited side adds its
    /// probability times the score its scripted choice loses against the best choice (under
    /// the best response's values); the sum is the gain. Alternate order: the A-first game is
    /// read directly, the B-first game as the A-first game of the swapped pair, each weighted ½
    /// (`OPTIMAL_PAIR=Snipers,Tank OPTIMAL_SIDE=0|1 cargo test --lib
    /// gng::optimal::tests::where_the_gain_comes_from -- --ignored --nocapture`).
    #[test]
    #[ignore]
    fn where_the_gain_comes_from() {
        use crate::rulesets::optimal::Explain;
        use std::collections::BTreeMap;
        let r = gng(&[]);
        let Probe { ids, side, distance: d, top } =
            probe_args("Snipers,Tank", 0, r.book.duel.distance, 25, |n| unit(&r, n));
        let show = |c: Choice, step: f64| {
            let name = ["hold", "walk", "move", "wait", "hunker"][c.action as usize];
            if c.advance == 0 { name.to_string() } else { format!("{name} {:+.1}", c.advance as f64 * step) }
        };
        let mut contrib: BTreeMap<String, f64> = BTreeMap::new();
        let mut kinds: BTreeMap<String, f64> = BTreeMap::new();
        let mut total = 0.0;
        // half 0: A first in the game (A, B); half 1: B first, read as the game (B, A).
        for half in 0..2usize {
            let p = if half == 0 { [ids[0], ids[1]] } else { [ids[1], ids[0]] };
            let me = if half == 0 { side } else { 1 - side };
            let g = r.game(p[0], p[1], d, GRID.step).unwrap();
            let mut policy = [Policy::Scripted; 2];
            policy[me] = Policy::Optimal;
            let mut ex = Explain::new(&g, policy);
            let line = ex.line();
            let sign = if me == 0 { 1.0 } else { -1.0 };
            let start = U { damage: 0, flag: false }.index();
            let mut dist: BTreeMap<([usize; 2], [usize; 2]), f64> = BTreeMap::new();
            dist.insert(([line.start as usize; 2], [start; 2]), 0.5);
            for _round in 0..r.book.duel.max_rounds {
                for s in [0usize, 1] {
                    let mut next: BTreeMap<([usize; 2], [usize; 2]), f64> = BTreeMap::new();
                    for (&(pos, u), &w) in &dist {
                        if w < 1e-12 {
                            continue;
                        }
                        let (vals, sc) = ex.values(s, s == 0, pos, u);
                        if s == me {
                            let best = vals.iter().map(|x| sign * x.1).fold(f64::NEG_INFINITY, f64::max);
                            let scv = sign * vals.iter().find(|x| x.0 == sc).unwrap().1;
                            let (bc, _) = *vals.iter().find(|x| sign * x.1 == best).unwrap();
                            let loss = w * (best - scv);
                            if loss > 1e-9 {
                                total += loss;
                                let (x, y) = (U::of(u[s]), U::of(u[1 - s]));
                                let key = format!(
                                    "me dmg {} flag {:5} them dmg {} flag {:5} gap {:4.1}: best {:10} scripted {:10}",
                                    x.damage,
                                    x.flag,
                                    y.damage,
                                    y.flag,
                                    line.gap((pos[0] + pos[1]) as u16),
                                    show(bc, line.step),
                                    show(sc, line.step)
                                );
                                *contrib.entry(key).or_default() += loss;
                                let kind = format!(
                                    "scripted {} -> best {}{}",
                                    show(Choice { advance: 0, ..sc }, 0.0),
                                    show(Choice { advance: 0, ..bc }, 0.0),
                                    match bc.advance.signum() {
                                        1 => " forward",
                                        -1 => " back",
                                        _ => "",
                                    }
                                );
                                *kinds.entry(kind).or_default() += loss;
                            }
                        }
                        for (q, p1, u1) in ex.step(s, pos, u, sc) {
                            if !(g.destroyed(0, u1[0]) || g.destroyed(1, u1[1])) {
                                *next.entry((p1, u1)).or_default() += w * q;
                            }
                        }
                    }
                    dist = next;
                }
            }
        }
        let mut rows: Vec<_> = contrib.into_iter().collect();
        rows.sort_by(|x, y| y.1.total_cmp(&x.1));
        for (k, v) in rows.iter().take(top) {
            println!("{:7.3}  {k}", 100.0 * v);
        }
        let mut kinds: Vec<_> = kinds.into_iter().collect();
        kinds.sort_by(|x, y| y.1.total_cmp(&x.1));
        for (k, v) in &kinds {
            println!("kind {:7.3}  {k}", 100.0 * v);
        }
        let o = optimal_duel(&r, ids[0], ids[1], d, GRID.step).unwrap();
        let gain = if side == 0 { o.a_gain() } else { o.b_gain() };
        println!("total {:.3} points (side {side}); solver's gain {:.3}", 100.0 * total, 100.0 * gain);
    }
}
