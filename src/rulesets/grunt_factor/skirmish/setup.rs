//! Everything fixed before the first turn: the `[skirmish]` config, forces (random, or read
//! from a file), cover pieces from the seed and the deployment along the long edges. Kept
//! apart from the turn loop because it draws its dice once per game, before any rule
//! applies; changing forces or deployment touches only this file.

use serde::Deserialize;

use super::{Model, Skirmish, SquadState};
use crate::battle::{Pos, deployment_band};
use crate::config::{Invalid, in_range};
use crate::dice::Dice;
use crate::rulesets::UnitInfo;
use crate::rulesets::grunt_factor::GruntFactor;
use crate::rulesets::grunt_factor::rules::CoverKind;
use crate::rulesets::skirmish::{
    check_cover, check_rollout, check_runs, check_table, describe_counts, place_walls, skirmish_config,
};

skirmish_config! {
    /// The `[skirmish]` table of the config. Every key has a default.
    pub struct SkirmishConfig {
        /// Table size, cm (180 × 120); the long edges are the deployment edges.
        pub table_width: f64,
        pub table_depth: f64,
        /// Points per force (200).
        pub points: f64,
        /// Cover pieces placed from the seed: uniformly `cover_min..=cover_max`, each
        /// `cover_length` cm long, hard with probability `hard_share`.
        pub cover_min: u32,
        pub cover_max: u32,
        pub cover_length: f64,
        pub hard_share: f64,
        /// A crossed cover piece within this of the target puts it behind cover (cm).
        pub cover_reach: f64,
        /// Deployment zone depth from the own long edge (cm).
        pub deploy_depth: f64,
        /// Models of a squad deploy in a line this far apart (cm).
        pub model_spacing: f64,
        /// Centre-to-centre distance of models in base contact (cm).
        pub base_contact: f64,
        /// A bound must bring the squad at least this much closer to the enemy (cm).
        pub bound_min: f64,
        /// Game turns (10).
        pub max_turns: u32,
        /// Report: games of the rollout best response against the play (each played three
        /// times; 0, the default, leaves it out) and playouts per tactic at each of its decisions
        /// (16 by default), one per game turn ([`crate::rulesets::rollout`]).
        pub rollout_games: u64,
        pub rollout_playouts: u32,
    }
    /// Games per `pointsworth skirmish` run (`--trials`), per tactic in the report (0 leaves
    /// the section out), and per batch of the deterministic engine.
    runs: { trials: 4000, report_trials: 20000, batch_size: 20 }
    defaults: {
        table_width: 180.0,
        table_depth: 120.0,
        points: 200.0,
        cover_min: 8,
        cover_max: 12,
        cover_length: 20.0,
        hard_share: 0.5,
        cover_reach: 3.0,
        deploy_depth: 15.0,
        model_spacing: 4.0,
        base_contact: 2.5,
        bound_min: 10.0,
        max_turns: 10,
        rollout_games: 0,
        rollout_playouts: 16,
    }
}

impl SkirmishConfig {
    /// Checks ranges; the message names the key, the error carries it for its place.
    pub fn validate(&self) -> Result<(), Invalid> {
        use crate::config::Ends::{Both, Top};
        let c = self;
        check_table(c.table_width, c.table_depth, Some(c.deploy_depth), (30.0, 1000.0), " cm")?;
        in_range("skirmish.points", c.points, 1.0, 100_000.0, Both, " points")?;
        let (min, max) = (("skirmish.cover_min", c.cover_min), ("skirmish.cover_max", c.cover_max));
        check_cover(min, max, 100, c.cover_length, 200.0, " cm")?;
        in_range("skirmish.hard_share", c.hard_share, 0.0, 1.0, Both, "")?;
        in_range("skirmish.cover_reach", c.cover_reach, 0.0, 50.0, Both, " cm")?;
        in_range("skirmish.model_spacing", c.model_spacing, 0.0, 18.0, Top, " cm")?;
        in_range("skirmish.base_contact", c.base_contact, 0.0, 10.0, Top, " cm")?;
        in_range("skirmish.bound_min", c.bound_min, 0.0, 100.0, Both, " cm")?;
        in_range("skirmish.max_turns", c.max_turns, 1, 100, Both, "")?;
        check_runs(c.trials, c.report_trials, c.batch_size)?;
        check_rollout(c.rollout_games, c.rollout_playouts)
    }
}

/// A force: squad indices into the cost list, in force (activation) order.
pub type Force = Vec<usize>;

/// A random legal force: squads drawn uniformly among those that still fit `points`, until
/// none fits.
pub fn random_force<D: Dice>(r: &GruntFactor, points: f64, dice: &mut D) -> Force {
    let mut left = points;
    let mut force = Vec::new();
    let mut fits = Vec::with_capacity(r.book.units.len());
    loop {
        fits.clear();
        fits.extend((0..r.book.units.len()).filter(|&u| r.book.units[u].cost <= left + 1e-9));
        if fits.is_empty() {
            return force;
        }
        let u = fits[dice.below(fits.len())];
        left -= r.book.units[u].cost;
        force.push(u);
    }
}

/// "2 × Elite Rifles, Regular HMG".
pub fn describe(units: &[UnitInfo], force: &[usize]) -> String {
    describe_counts(force, |u| &units[u].name)
}

impl<'a> Skirmish<'a> {
    /// Places the cover pieces from `dice`, outside the deployment zones.
    pub fn place_terrain<D: Dice>(&mut self, dice: &mut D) {
        let c = self.cfg;
        let pieces = place_walls(&mut self.table, (c.cover_min, c.cover_max), c.cover_length, c.deploy_depth, dice);
        self.cover.clear();
        for _ in 0..pieces {
            self.cover.push(if dice.unit_f64() < c.hard_share { CoverKind::Hard } else { CoverKind::Soft });
        }
    }

    /// Deploys both forces: side 0 along y = 0, side 1 along y = depth; squads spread evenly
    /// along the edge in force order, models in a line with the Sergeant in the middle.
    pub fn deploy(&mut self, forces: [&[usize]; 2]) {
        self.turn = 0;
        self.destroyed = [0.0; 2];
        self.kills.clear();
        for (s, force) in forces.into_iter().enumerate() {
            let (lo, hi) = deployment_band(&self.table, s, self.cfg.deploy_depth as f32);
            let y = if s == 0 { lo + 0.25 * (hi - lo) } else { hi - 0.25 * (hi - lo) };
            self.sides[s].clear();
            let n = force.len().max(1) as f32;
            for (k, &u) in force.iter().enumerate() {
                let cx = self.table.width * (k as f32 + 0.5) / n;
                let size = self.r.profile(u).size() as usize;
                // Closer than `model_spacing` when a long squad would otherwise stand partly
                // outside the command radius of its Sergeant in the middle.
                let reach = (size.saturating_sub(1)).div_ceil(2).max(1) as f32;
                let sp = (self.cfg.model_spacing as f32).min(self.r.book.rules.command_radius as f32 / reach);
                let models = (0..size)
                    .map(|m| {
                        // 0, −1, +1, −2, +2, ... spacings from the centre.
                        let off = if m == 0 {
                            0.0
                        } else if m % 2 == 1 {
                            -(m.div_ceil(2) as f32)
                        } else {
                            (m / 2) as f32
                        };
                        Model { slot: m as u8, pos: self.table.clamp(Pos::new(cx + off * sp, y)), alive: true }
                    })
                    .collect();
                self.sides[s].push(SquadState {
                    unit: u,
                    models,
                    leader: 0,
                    sergeant_leads: true,
                    panicked: false,
                    prone: false,
                    fired_on: false,
                    activated: false,
                });
            }
        }
        if let Some(t) = &mut self.trace {
            for s in 0..2 {
                t[s] = self.sides[s].iter().map(|q| q.models.iter().map(|m| (vec![m.pos], None)).collect()).collect();
            }
        }
    }
}

/// Fixed forces, or fresh random legal ones every game.
pub type Forces = crate::rulesets::skirmish::Armies<Force>;

/// Sets up one game: terrain, forces (random ones drawn from `dice`), deployment.
pub fn set_up<D: Dice>(g: &mut Skirmish, forces: &Forces, dice: &mut D) -> [Force; 2] {
    g.place_terrain(dice);
    let pair = match forces {
        Forces::Random => [random_force(g.r, g.cfg.points, dice), random_force(g.r, g.cfg.points, dice)],
        Forces::Fixed(x) => [x[0].clone(), x[1].clone()],
    };
    g.deploy([&pair[0], &pair[1]]);
    pair
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawForce {
    units: std::collections::BTreeMap<String, toml::Spanned<u32>>,
}

/// Reads a force file: a `[units]` table of squad name (or id) = count, e.g.
/// `"Elite Rifles" = 1`; squads activate in file order.
///
/// Errors: unreadable file, bad TOML (`file:line:col`), an unknown squad (with the list of
/// the cost list's squads), an empty force, or a force over `[skirmish] points`.
pub fn read_force(r: &GruntFactor, path: &std::path::Path) -> Result<Force, crate::config::ConfigError> {
    let source = crate::config::Source::read(path)?;
    let raw: RawForce = source.parse()?;
    let mut force = Vec::new();
    let names: Vec<&str> = r.book.units.iter().map(|u| u.name.as_str()).collect();
    let costs: Vec<f64> = r.book.units.iter().map(|u| u.cost).collect();
    let mut entries = crate::rulesets::skirmish::army_counts(
        &source,
        &raw.units,
        "squad",
        &names,
        &costs,
        r.skirmish.points,
        "[skirmish] points",
    )?;
    // Squads activate in file order.
    entries.sort_by_key(|&(_, _, at)| at);
    for (u, n, _) in entries {
        force.extend(std::iter::repeat_n(u, n as usize));
    }
    if force.is_empty() {
        return Err(crate::rulesets::skirmish::army_error(&source, "the force has no squads"));
    }
    Ok(force)
}
