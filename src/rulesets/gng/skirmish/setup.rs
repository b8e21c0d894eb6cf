//! Everything fixed before the first activation: the `[skirmish]` config, terrain from the
//! seed, which units deploy and where (Artillery first, Scouts last), and the reserves that
//! enter later. Kept apart from the turn loop because it draws its dice once per game, before
//! any rule applies; changing deployment touches only this file.

use serde::{Deserialize, Serialize};

use super::{Pick, Skirmish, UpgradeRule};
use crate::battle::{Pos, TerrainPlan, deployment_band};
use crate::config::{Invalid, in_range};
use crate::dice::Dice;
use crate::rulesets::Side;
use crate::rulesets::gng::Kind;
use crate::rulesets::gng::skirmish::army::Army;
use crate::rulesets::skirmish::{check_rollout, check_runs, check_table};

/// The `[skirmish]` table of the config. Every key has a default, so configs without the
/// table still parse.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SkirmishConfig {
    /// Table size, inches (60" × 36").
    pub table_width: f64,
    pub table_depth: f64,
    /// Cover pieces placed at random from the seed (5) and their length (6").
    pub cover_pieces: u32,
    pub cover_length: f64,
    /// Units one cover piece shelters (2) and its DEF bonus (+3); Hunker's DEF bonus (+2).
    pub cover_capacity: u32,
    pub cover_def: i32,
    pub hunker_def: i32,
    /// Optional terrain (GnG 1.5, "Terrain"): areas of rough ground (−2" movement) and of
    /// dangerous ground (d6 on crossing, 1 = 1 damage; quicksand or razor wire, never a
    /// minefield, so the Tank ignores it), and their radius (inches).
    pub rough_areas: u32,
    pub dangerous_areas: u32,
    pub area_radius: f64,
    /// Points limit (350) and units deployed at the start (8) within `deploy_depth` (12") of
    /// the own edge; reserves entering per turn (3).
    pub points: f64,
    pub deploy_units: u32,
    pub deploy_depth: f64,
    pub reserves_per_turn: u32,
    /// Game turns before the game is a draw (40).
    pub max_turns: u32,
    /// Chance a random army takes one upgrade (0.5).
    pub upgrade_chance: f64,
    /// Skirmishes per run (`--trials`), per tactic in `pointsworth report` (0 leaves the
    /// Skirmish section out), and per batch of the deterministic engine.
    pub trials: u64,
    pub report_trials: u64,
    pub batch_size: u32,
    /// Game turn from which the cautious tactic stops waiting and advances.
    pub cautious_wait_turns: u32,
    /// Report: games of the rollout best response against the played tactic (each played three
    /// times; 0 leaves it out) and playouts per tactic at each of its decisions
    /// ([`crate::rulesets::rollout`]).
    pub rollout_games: u64,
    pub rollout_playouts: u32,
}

impl Default for SkirmishConfig {
    fn default() -> Self {
        SkirmishConfig {
            table_width: 60.0,
            table_depth: 36.0,
            cover_pieces: 5,
            cover_length: 6.0,
            cover_capacity: 2,
            cover_def: 3,
            hunker_def: 2,
            rough_areas: 0,
            dangerous_areas: 0,
            area_radius: 3.0,
            points: 350.0,
            deploy_units: 8,
            deploy_depth: 12.0,
            reserves_per_turn: 3,
            max_turns: 40,
            upgrade_chance: 0.5,
            trials: 2000,
            report_trials: 20000,
            batch_size: 25,
            cautious_wait_turns: 20,
            rollout_games: 0,
            rollout_playouts: 16,
        }
    }
}

impl SkirmishConfig {
    /// Checks ranges; the message names the key, the error carries it for its place.
    pub fn validate(&self) -> Result<(), Invalid> {
        use crate::config::Ends::{Both, Top};
        let c = self;
        check_table(c.table_width, c.table_depth, Some(c.deploy_depth), (12.0, 400.0), " in")?;
        in_range("skirmish.cover_pieces", c.cover_pieces, 0, 50, Both, "")?;
        in_range("skirmish.cover_length", c.cover_length, 0.0, 40.0, Top, " in")?;
        in_range("skirmish.cover_capacity", c.cover_capacity, 1, 20, Both, "")?;
        in_range("skirmish.cover_def", c.cover_def, 0, 10, Both, "")?;
        in_range("skirmish.hunker_def", c.hunker_def, 0, 10, Both, "")?;
        in_range("skirmish.rough_areas", c.rough_areas, 0, 50, Both, "")?;
        in_range("skirmish.dangerous_areas", c.dangerous_areas, 0, 50, Both, "")?;
        in_range("skirmish.area_radius", c.area_radius, 0.0, 20.0, Top, " in")?;
        in_range("skirmish.points", c.points, 10.0, 10_000.0, Both, " points")?;
        in_range("skirmish.deploy_units", c.deploy_units, 1, 200, Both, "")?;
        in_range("skirmish.reserves_per_turn", c.reserves_per_turn, 1, 200, Both, "")?;
        in_range("skirmish.max_turns", c.max_turns, 1, 1000, Both, "")?;
        in_range("skirmish.upgrade_chance", c.upgrade_chance, 0.0, 1.0, Both, "")?;
        check_runs(c.trials, c.report_trials, c.batch_size)?;
        in_range("skirmish.cautious_wait_turns", c.cautious_wait_turns, 0, 1000, Both, "")?;
        check_rollout(c.rollout_games, c.rollout_playouts)?;
        Ok(())
    }
}

impl<'a> Skirmish<'a> {
    /// Sets up a game: terrain from the dice, the armies split into the deployed units and
    /// reserves, deployment (Scouts last), tactics and upgrades.
    pub fn set_up<D: Dice>(&mut self, armies: [&Army; 2], tactic: [Pick; 2], dice: &mut D) {
        self.clear();
        let c = self.cfg;
        let plan = TerrainPlan {
            cover_pieces: c.cover_pieces,
            cover_length: c.cover_length as f32,
            rough_areas: c.rough_areas,
            dangerous_areas: c.dangerous_areas,
            area_radius: c.area_radius as f32,
            keep_out: c.deploy_depth as f32,
        };
        self.table.place_terrain(&plan, dice);
        self.cache_spots();
        self.tactic = tactic;
        let mut scouts: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
        for s in 0..2 {
            self.upgrade[s] = armies[s].upgrade.and_then(|k| UpgradeRule::from_name(&self.r.upgrades[k].name));
            // Deploy first what cannot come later (Artillery), then the most expensive.
            let mut order = armies[s].units.clone();
            order.sort_by(|&a, &b| {
                let (pa, pb) = (self.r.profile(a), self.r.profile(b));
                (pb.kind == Kind::Artillery).cmp(&(pa.kind == Kind::Artillery)).then(pb.cost.total_cmp(&pa.cost))
            });
            let n_deploy = (c.deploy_units as usize).min(order.len());
            let deployed: Vec<usize> = order[..n_deploy].to_vec();
            self.reserves[s] = order[n_deploy..].to_vec();
            let front: Vec<usize> = deployed.iter().copied().filter(|&u| !self.r.profile(u).tags.scout).collect();
            scouts[s] = deployed.iter().copied().filter(|&u| self.r.profile(u).tags.scout).collect();
            let n = front.len();
            // Centre-out slots: the first deployed (Artillery, then the costliest) stand in the
            // middle, where they reach the most of the table.
            let mut slots: Vec<usize> = (0..n).collect();
            slots.sort_by(|&a, &b| {
                let c = (n as f32 - 1.0) / 2.0;
                (a as f32 - c).abs().total_cmp(&(b as f32 - c).abs()).then(a.cmp(&b))
            });
            for (k, &u) in front.iter().enumerate() {
                let slot = slots[k] as f32;
                let x = self.table.width * (slot + 0.5) / n as f32 + (dice.unit_f64() as f32 - 0.5);
                // Long-ranged units one row back.
                let p = self.r.profile(u);
                let back = if p.kind != Kind::Artillery && (p.range >= 12.0 || p.min_range > 0.0) { 4.0 } else { 1.0 };
                let y = self.zone_y(s, back);
                self.place(s, u, self.table.clamp(Pos::new(x, y)));
            }
        }
        // Scout (Quick Reference, "Tags"): deploys after all non-scouts, at least 12" from
        // enemies; "if both players have scout units, roll-off to see who places their units
        // first" (the winner places first: the forward spots are his).
        let order = if scouts.iter().all(|v| !v.is_empty()) { roll_off(dice) } else { 0 };
        for s in [order, 1 - order] {
            let n = scouts[s].len();
            for (k, &u) in scouts[s].clone().iter().enumerate() {
                let x = self.table.width * (k as f32 + 0.5) / n as f32;
                let at = self.scout_spot(s, x);
                self.place(s, u, at);
            }
        }
    }

    /// The y of a point `back` behind the front of side `s`'s deployment zone.
    fn zone_y(&self, s: Side, back: f32) -> f32 {
        let (lo, hi) = deployment_band(&self.table, s, self.cfg.deploy_depth as f32);
        if s == 0 { hi - back } else { lo + back }
    }

    /// The most forward point on the line x = `x`, no further than the middle of the table,
    /// at least 12" from every enemy on the table; the own table edge if there is none.
    fn scout_spot(&self, s: Side, x: f32) -> Pos {
        let mid = self.table.depth / 2.0;
        let edge = if s == 0 { 0.5 } else { self.table.depth - 0.5 };
        let steps = (mid - 0.5).floor() as i32;
        for k in 0..=steps {
            let y = if s == 0 { mid - k as f32 } else { mid + k as f32 };
            let p = Pos::new(x, y);
            if self.bt.sides[1 - s].iter().all(|e| !e.alive || p.dist(Pos::new(e.x, e.y)) >= 12.0) {
                return p;
            }
        }
        Pos::new(x, edge)
    }

    /// GnG 1.5, "Reserves" (Skirmish): up to 3 reserve units enter within 12" of the own edge,
    /// at the front of the zone, spread along it.
    pub fn deploy_reserves<D: Dice>(&mut self, s: Side, dice: &mut D) {
        let n = (self.cfg.reserves_per_turn as usize).min(self.reserves[s].len());
        for k in 0..n {
            let u = self.reserves[s].remove(0);
            let x = self.table.width * (k as f32 + 0.5 + dice.unit_f64() as f32 * 0.8 - 0.4) / n as f32;
            let at = self.table.clamp(Pos::new(x, self.zone_y(s, 1.0)));
            self.place(s, u, at);
        }
    }
}

/// A roll-off (GnG 1.5, "Playing the Game"): each side rolls a d6, ties re-roll; the side with
/// the higher roll wins.
pub(super) fn roll_off<D: Dice>(dice: &mut D) -> Side {
    loop {
        let (a, b) = (dice.d6(), dice.d6());
        if a != b {
            return if a > b { 0 } else { 1 };
        }
    }
}
