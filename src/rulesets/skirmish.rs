//! The skirmish shape every ruleset fills: [`Skirmish`], beside [`super::Ruleset`].
//!
//! Why one trait: a skirmish is the same question in every book (random legal armies, a table,
//! a tactic, who wins and what each unit did), while its rules are each book's own. A ruleset
//! plays one game into a [`GameRecord`]; the engine (`sim::skirmish`) runs the batches
//! with the usual seeding, the analysis turns the tally into win rates, unit statistics and
//! value in army, and one command and one report section show them for every ruleset. A sixth
//! ruleset implements this trait in its own folder and touches nothing outside it.
//!
//! Why the ruleset draws its own random armies inside [`Skirmish::play`]: each book sets a game
//! up in its own order (Army Men Combat places terrain before the armies are drawn), and the
//! order of the dice is what makes a seed's results repeatable.

use crate::battle::replay::Replay;
use crate::battle::{Table, TerrainPlan};
use crate::config::{ConfigError, Invalid};
use crate::dice::Dice;
use crate::rulesets::rollout::{RolloutGain, RolloutRun};
use crate::rulesets::{Ruleset, Side, UnitInfo};

/// A tactic of a ruleset's skirmish: its name on the command line and what it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TacticInfo {
    /// Kebab-case name, e.g. `cautious`.
    pub name: &'static str,
    /// One line: what the tactic does, in the book's words.
    pub description: &'static str,
}

/// How each side picks its skirmish tactic for a game (issue 41, "every skirmish game draws
/// each side's tactic from it"; DESIGN.md, "Play model"): side A's and side B's mix over the
/// ruleset's tactics ([`Skirmish::tactics`]; weights in [0, 1] summing to 1). A side whose mix
/// is one tactic plays it every game; otherwise each game draws the side's tactic afresh from
/// its mix ([`Play::draw`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Play {
    /// Side A's mix, then side B's; each as long as the ruleset's tactics.
    pub mixes: [Vec<f64>; 2],
}

impl Play {
    /// Side A plays `tactics[0]` and side B `tactics[1]` every game, out of `k` tactics.
    pub fn pure(tactics: [usize; 2], k: usize) -> Play {
        Play { mixes: tactics.map(|t| pure_mix(t, k)) }
    }

    /// Both sides' tactics when each plays one tactic every game ([`pure_tactic`]); `None`
    /// when a side mixes.
    pub fn as_pure(&self) -> Option<[usize; 2]> {
        let [a, b] = [0, 1].map(|s| pure_tactic(&self.mixes[s]));
        Some([a?, b?])
    }

    /// Both sides' tactics (side A first, indices into the tactics) in game `game` of the run
    /// seeded by `(seed, stream)`: a pure side's tactic, or for a mixing side the tactic whose
    /// share of the mix's cumulative weight holds a uniform number drawn from `(seed, stream,
    /// game, side)` alone, so the draw never touches the game's dice and the same game draws
    /// the same tactics on any thread count.
    pub fn draw(&self, seed: u64, stream: u64, game: u64) -> [usize; 2] {
        const DRAW_DOMAIN: u64 = 0x7461_6374_6963_6d78; // "tacticmx"
        [0, 1].map(|s| {
            self.draw_side(
                s,
                crate::seed::splitmix64(crate::seed::batch_seed(seed, stream ^ DRAW_DOMAIN, game) ^ s as u64),
            )
        })
    }

    /// Side `s`'s tactic for the random 64 bits `bits`: its tactic where it plays one (the bits
    /// unused), else the tactic whose share of its mix's cumulative weight holds the uniform
    /// number the bits make.
    pub fn draw_side(&self, s: Side, bits: u64) -> usize {
        let mix = &self.mixes[s];
        if let Some(t) = pure_tactic(mix) {
            return t;
        }
        let total: f64 = mix.iter().sum();
        let u = crate::dice::unit_from_bits(bits) * total;
        let mut acc = 0.0;
        for (t, &w) in mix.iter().enumerate() {
            acc += w;
            if u < acc {
                return t;
            }
        }
        mix.iter().rposition(|&w| w > 0.0).unwrap_or(0)
    }

    /// The play's name: the tactic's when both sides play one and the same, `"x (A) v y (B)"`
    /// when each plays one, else `"equilibrium mix"`.
    pub fn name(&self, tactics: &[TacticInfo]) -> String {
        match self.as_pure() {
            Some([a, b]) if a == b => tactics[a].name.to_string(),
            Some([a, b]) => format!("{} (A) v {} (B)", tactics[a].name, tactics[b].name),
            None => EQUILIBRIUM_MIX.to_string(),
        }
    }
}

/// The name of a play in which a side draws its tactic for each game from its mix
/// ([`Play::name`]).
pub const EQUILIBRIUM_MIX: &str = "equilibrium mix";

/// A mix weight below this is a linear program's rounding, not part of the mix.
pub const NO_WEIGHT: f64 = 1e-9;

/// The mix over `k` tactics that plays tactic `t` alone: weight 1 on it, 0 on the others.
pub fn pure_mix(t: usize, k: usize) -> Vec<f64> {
    (0..k).map(|i| if i == t { 1.0 } else { 0.0 }).collect()
}

/// The tactic a mix plays alone (weight 1 up to [`NO_WEIGHT`]), if any.
pub fn pure_tactic(mix: &[f64]) -> Option<usize> {
    mix.iter().position(|&w| w >= 1.0 - NO_WEIGHT)
}

/// A mission of a ruleset's skirmish (the book's kinds of game): its name on the command line
/// and what it is. The first of a ruleset's missions is the book's basic game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MissionInfo {
    /// Kebab-case name, e.g. `point-capture`.
    pub name: &'static str,
    /// One line: points per side, objectives and victory, in the book's words.
    pub description: &'static str,
}

impl MissionInfo {
    /// The book's basic game, named `basic`, as `description` says (the only mission of a
    /// ruleset whose book has one kind of game).
    pub const fn basic(description: &'static str) -> MissionInfo {
        MissionInfo { name: "basic", description }
    }
}

/// Where the two sides' armies come from.
#[derive(Debug, Clone)]
pub enum Armies<A> {
    /// A fresh random legal army per side and game, drawn from the game's dice.
    Random,
    /// The same two armies every game: side A, side B.
    Fixed(Box<[A; 2]>),
}

impl<A> Armies<A> {
    /// Whether the armies are drawn at random (the games feed the value-in-army regression).
    pub fn is_random(&self) -> bool {
        matches!(self, Armies::Random)
    }
}

/// Why the armies named on the command line cannot be played. Exit code 2.
#[derive(Debug, thiserror::Error)]
pub enum ArmyError {
    /// An army file that cannot be read or is not legal: `file:line:col` and the key.
    #[error(transparent)]
    File(#[from] ConfigError),
    /// An army name or list that names nothing known; the message lists the valid names.
    #[error("{0}")]
    Name(String),
}

/// The `[units]` table of an army file (entry name = count) checked before any army is built:
/// every name is one of `names` (matched by [`crate::config::id_of`]; the message lists them),
/// no two names of the file mean one entry (`Riflemen` and `riflemen`: both are named), and
/// the points, each count times its entry's cost (`costs`, same order as `names`), are at most
/// `limit` (`limit_key` names where it is set) — so a count of 4294967295 is refused before an
/// army of that many is allocated. `what` is the book's word for an entry ("unit", "squad").
///
/// Returns `(entry index, count)` in the table's (sorted) order, with the byte offset of each
/// count in the file (for rulesets that keep the file's order).
pub fn army_counts(
    source: &crate::config::Source,
    units: &std::collections::BTreeMap<String, toml::Spanned<u32>>,
    what: &str,
    names: &[&str],
    costs: &[f64],
    limit: f64,
    limit_key: &str,
) -> Result<Vec<(usize, u32, usize)>, ConfigError> {
    use crate::config::id_of;
    let mut out: Vec<(usize, u32, usize)> = Vec::new();
    let mut seen: Vec<(&str, usize)> = Vec::new();
    let mut points = 0.0;
    for (name, n) in units {
        let id = id_of(name);
        let Some(e) = names.iter().position(|x| id_of(x) == id).filter(|_| !id.is_empty()) else {
            return Err(source.error_at(&n.span(), format!("unknown {what} {name:?}; known: {}", names.join(", "))));
        };
        if let Some((other, _)) = seen.iter().find(|(_, k)| *k == e) {
            return Err(source.error_at(
                &n.span(),
                format!(
                    "{name:?} and {other:?} name the same {what} ({}): give it once with the total count",
                    names[e]
                ),
            ));
        }
        seen.push((name, e));
        points += costs[e] * f64::from(*n.get_ref());
        if points > limit + 1e-9 {
            return Err(source.error_at(
                &n.span(),
                format!(
                    "the army costs at least {points} points with {} {name:?}, more than the limit of {limit} \
                     ({limit_key})",
                    n.get_ref()
                ),
            ));
        }
        out.push((e, *n.get_ref(), n.span().start));
    }
    Ok(out)
}

/// The table keys every `[skirmish]` has: `table_width` and `table_depth` from `lo` to `hi`
/// (`unit`: `" in"`, `" cm"`), and `deploy_depth` more than 0 and less than half the depth
/// (`None` for a ruleset that deploys by a gap instead).
pub fn check_table(
    width: f64,
    depth: f64,
    deploy_depth: Option<f64>,
    (lo, hi): (f64, f64),
    unit: &str,
) -> Result<(), Invalid> {
    use crate::config::{Ends, in_range};
    in_range("skirmish.table_width", width, lo, hi, Ends::Both, unit)?;
    in_range("skirmish.table_depth", depth, lo, hi, Ends::Both, unit)?;
    match deploy_depth {
        Some(d) if !(d > 0.0 && 2.0 * d < depth) => Err(Invalid::new(
            "skirmish.deploy_depth",
            format!("[skirmish] deploy_depth must be more than 0 and less than half of table_depth, got {d}"),
        )),
        _ => Ok(()),
    }
}

/// The most games a run may ask for: the top of `trials` and `report_trials` ([`check_runs`]).
pub const MAX_TRIALS: u64 = 10_000_000;

/// The run keys every `[skirmish]` has: `trials` 1 to [`MAX_TRIALS`], `report_trials` 0 to
/// [`MAX_TRIALS`] (0 leaves the report's section out), `batch_size` 1 to 100000.
pub fn check_runs(trials: u64, report_trials: u64, batch_size: u32) -> Result<(), Invalid> {
    use crate::config::{Ends, in_range};
    in_range("skirmish.trials", trials, 1, MAX_TRIALS, Ends::Both, "")?;
    in_range("skirmish.report_trials", report_trials, 0, MAX_TRIALS, Ends::Both, "")?;
    in_range("skirmish.batch_size", batch_size, 1, 100_000, Ends::Both, "")
}

/// Declares a ruleset's `[skirmish]` table whose last keys are the run keys every skirmish has
/// (`trials`, `report_trials`, `batch_size`, checked by [`check_runs`]): the struct as written,
/// then the run keys with the doc given after `runs:` and their defaults, and its `Default`
/// from the values after `defaults:` and the run defaults. Every key has a default
/// (`#[serde(default)]`); unknown keys are refused, serde listing them in this order.
macro_rules! skirmish_config {
    (
        $(#[$meta:meta])*
        pub struct $name:ident { $( $(#[$field_meta:meta])* pub $field:ident : $ty:ty ),* $(,)? }
        $(#[$runs_meta:meta])*
        runs: { trials: $trials:expr, report_trials: $report_trials:expr, batch_size: $batch_size:expr $(,)? }
        defaults: { $( $default_field:ident : $default:expr ),* $(,)? }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(default, deny_unknown_fields)]
        pub struct $name {
            $( $(#[$field_meta])* pub $field: $ty, )*
            $(#[$runs_meta])*
            pub trials: u64,
            pub report_trials: u64,
            pub batch_size: u32,
        }

        impl Default for $name {
            fn default() -> Self {
                $name {
                    $( $default_field: $default, )*
                    trials: $trials,
                    report_trials: $report_trials,
                    batch_size: $batch_size,
                }
            }
        }
    };
}
pub(crate) use skirmish_config;

/// The rollout keys of a `[skirmish]` ([`Skirmish::rollout`]): `rollout_games` 0 (none) or 2
/// to 100000 (a paired interval needs two games), `rollout_playouts` 2 to 1000 (the switch
/// test needs a standard error).
pub fn check_rollout(games: u64, playouts: u32) -> Result<(), Invalid> {
    use crate::config::{Ends, in_range};
    in_range("skirmish.rollout_games", games, 0, 100_000, Ends::Both, "")?;
    if games == 1 {
        return Err(Invalid::new(
            "skirmish.rollout_games",
            "[skirmish] rollout_games must be 0 (none) or at least 2, got 1",
        ));
    }
    in_range("skirmish.rollout_playouts", playouts, 2, 1000, Ends::Both, "")
}

/// A `[skirmish]` maximum from its minimum to `hi` (`terrain_max` of `terrain_min`...).
pub fn check_max(key: &str, max: u32, min_key: &str, min: u32, hi: u32) -> Result<(), Invalid> {
    crate::config::in_range(key, max, min, hi, crate::config::Ends::Both, "")
        .map_err(|e| Invalid { message: format!("{} (at least {min_key})", e.message), ..e })
}

/// The random-cover keys of a `[skirmish]` that places `min..=max` cover pieces of one length:
/// the minimum (`min.0`, e.g. `"skirmish.cover_min"`) 0 to `hi`, the maximum (`max.0`) from the
/// minimum to `hi` ([`check_max`]), and `cover_length` more than 0 and at most `length_hi`
/// (`unit`: `" in"`, `" cm"`), checked in that order.
pub fn check_cover(
    min: (&str, u32),
    max: (&str, u32),
    hi: u32,
    length: f64,
    length_hi: f64,
    unit: &str,
) -> Result<(), Invalid> {
    use crate::config::{Ends, in_range};
    in_range(min.0, min.1, 0, hi, Ends::Both, "")?;
    check_max(max.0, max.1, min.0.trim_start_matches("skirmish."), min.1, hi)?;
    in_range("skirmish.cover_length", length, 0.0, length_hi, Ends::Top, unit)
}

/// Places the random walls of a skirmish table from `dice`: first the number of pieces,
/// uniform in `min..=max`, then each wall `length` long parallel to the deployment edges, in the
/// band that keeps `keep_out` from each edge (see [`Table::place_terrain`]); no rough or
/// dangerous areas. Lengths in the table's unit (inches or cm). Returns the number of walls.
pub fn place_walls<D: Dice>(
    table: &mut Table,
    (min, max): (u32, u32),
    length: f64,
    keep_out: f64,
    dice: &mut D,
) -> u32 {
    let pieces = min + dice.below((max - min) as usize + 1) as u32;
    let plan = TerrainPlan {
        cover_pieces: pieces,
        cover_length: length as f32,
        rough_areas: 0,
        dangerous_areas: 0,
        area_radius: 1.0,
        keep_out: keep_out as f32,
    };
    table.place_terrain(&plan, dice);
    pieces
}

/// One line naming an army of cost-list entries (`army`: entry indices, in army order), each
/// entry once in the order it first appears, with its count when more than one:
/// "3 × Riflemen (10), Tank". `name` gives an entry's name.
pub fn describe_counts<'n>(army: &[usize], name: impl Fn(usize) -> &'n str) -> String {
    let mut counts: Vec<(usize, u32)> = Vec::new();
    for &e in army {
        match counts.iter_mut().find(|c| c.0 == e) {
            Some(c) => c.1 += 1,
            None => counts.push((e, 1)),
        }
    }
    counts
        .iter()
        .map(|&(e, n)| if n == 1 { name(e).to_string() } else { format!("{n} × {}", name(e)) })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The table and random-wall keys of a `[skirmish]` in inches whose walls number `min..=max`
/// (Army Men Combat's `terrain_min`/`terrain_max`, Gunplay's `cover_min`/`cover_max`), checked in
/// this order: `table_width`, `table_depth` 12" to 400" and `deploy_depth` ([`check_table`];
/// `table` is width, depth, deploy depth), at most 50 walls `cover_length` more than 0" and at
/// most 40" long ([`check_cover`]), and `cover_reach` 0" to 10".
pub fn check_walls_in_inches(
    table: [f64; 3],
    min: (&str, u32),
    max: (&str, u32),
    length: f64,
    reach: f64,
) -> Result<(), Invalid> {
    check_table(table[0], table[1], Some(table[2]), (12.0, 400.0), " in")?;
    check_cover(min, max, 50, length, 40.0, " in")?;
    crate::config::in_range("skirmish.cover_reach", reach, 0.0, 10.0, crate::config::Ends::Both, " in")
}

/// An error about a whole army file: at its `[units]` table (the file when it has none).
pub fn army_error(source: &crate::config::Source, message: &str) -> ConfigError {
    source.invalid(&crate::config::Overrides::default(), Invalid::new("units", message))
}

/// The most units an army may hold: the points limit of a skirmish divided by the cost of the
/// cheapest entry must stay within it, so a game's set-up and turns stay a matter of seconds.
pub const MAX_ARMY_UNITS: f64 = 500.0;

/// Checks that `points` (set at `key`) buys at most [`MAX_ARMY_UNITS`] of the cheapest entry
/// (`name`, `cost` points); the message says how to fix it.
pub fn check_army_size(key: &str, points: f64, name: &str, cost: f64) -> Result<(), Invalid> {
    if points / cost <= MAX_ARMY_UNITS {
        return Ok(());
    }
    Err(Invalid::new(
        key,
        format!(
            "{} {points} buys {} of {name:?} ({cost} points): an army may hold at most {MAX_ARMY_UNITS} units; lower \
             the points or raise the cost",
            crate::config::label(key),
            (points / cost).floor()
        ),
    ))
}

/// What `--armies` takes besides `random` for one ruleset, for help text and errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArmySource {
    /// Plural noun, e.g. "army files", "force files", "sample-army names".
    pub what: &'static str,
    /// One line: how to write one, e.g. "TOML with a \[units\] table of entry name = count".
    pub how: &'static str,
}

/// The words a ruleset's book uses for its skirmish, for the command's output and the report.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SkirmishText {
    /// The game's name in the book: "Skirmish", "Mission".
    pub game: String,
    /// Plural of one game, for progress bars: "skirmishes", "missions".
    pub games: String,
    /// The armies' size in words, e.g. "350 points", "25–40 points", "5 characters".
    pub army_size: String,
    /// What one cost-list item is called in tables: "item", "unit entry", "squad".
    pub item: String,
    /// Whether value rows name the item's kind, "Medics (unit)" (rulesets with upgrades).
    pub item_kind: bool,
    /// What the book counts a game's length in, plural: "game turns", "rounds".
    pub turns: String,
    /// The outcome table's first column header and its rows: side A wins, side B wins, draw.
    pub outcome: [String; 4],
    /// One line: table, terrain, turns and victory, from the config in force.
    pub setup: String,
    /// What the replay picture shows (its legend in words), for the report.
    pub replay_legend: String,
}

/// Settings of a ruleset's skirmish that the generic layers read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SkirmishSettings {
    /// Points per army.
    pub points: f64,
    /// Games per `pointsworth skirmish` run unless `--trials` says otherwise.
    pub trials: u64,
    /// Games per tactic in `pointsworth report` (0: the report has no skirmish section).
    pub report_trials: u64,
    /// Games per batch (one dice stream each).
    pub batch_size: u32,
    /// The report's rollout best response ([`Skirmish::rollout`]): games, and playouts per
    /// tactic at each decision (0 games: none; the default).
    pub rollout_games: u64,
    pub rollout_playouts: u32,
}

impl SkirmishSettings {
    /// The settings of armies of `points` points with a `[skirmish]` table's `trials`,
    /// `report_trials` and `batch_size`, in the order of the fields; no rollout best response.
    pub fn new(points: f64, trials: u64, report_trials: u64, batch_size: u32) -> SkirmishSettings {
        SkirmishSettings { points, trials, report_trials, batch_size, rollout_games: 0, rollout_playouts: 0 }
    }
}

/// One finished game as the generic tally reads it. The engine reuses one record for all the
/// games of a batch ([`GameRecord::clear`] before each), so a game allocates nothing here.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GameRecord {
    /// `Some(A)`, `Some(B)`, or `None` for a draw.
    pub winner: Option<Side>,
    /// Game turns (or rounds, in the book's count) played.
    pub turns: u32,
    /// `counts[s][i]`: how many of item `i` side `s` fielded; items are the skirmish units in
    /// order, then the upgrades.
    pub counts: [Vec<u32>; 2],
    /// `survivors[u]`: units of type `u` (both sides) alive at the end.
    pub survivors: Vec<u32>,
    /// `(killer, victim)` unit types of every enemy unit destroyed.
    pub kills: Vec<(u32, u32)>,
}

impl GameRecord {
    /// Empties the record for a game with `items` cost-list items of which the first `units`
    /// are unit types.
    pub fn clear(&mut self, items: usize, units: usize) {
        self.winner = None;
        self.turns = 0;
        for c in &mut self.counts {
            c.clear();
            c.resize(items, 0);
        }
        self.survivors.clear();
        self.survivors.resize(units, 0);
        self.kills.clear();
    }
}

/// A ruleset's skirmish: armies, tactics, and one game at a time.
pub trait Skirmish: Ruleset {
    /// One side's army.
    type Army: Clone + Send + Sync;
    /// Per-batch scratch space of a game under one tactic, reused across its games.
    type Game<'a>
    where
        Self: 'a;

    /// The book's words for its skirmish and the set-up in force.
    fn skirmish_text(&self) -> SkirmishText;
    /// Points, games per run and per report, batch size.
    fn skirmish_settings(&self) -> SkirmishSettings;
    /// The tactics, default first.
    const TACTICS: &'static [TacticInfo];
    /// What `--armies` takes besides `random`.
    const ARMY_SOURCE: ArmySource;
    /// The missions (the book's kinds of game), the basic game first: each sets points per
    /// side, deployment, objectives, end and victory. A game is played for one of them
    /// (`mission`, an index into this list, in [`Skirmish::game`] and [`Skirmish::replay`]).
    const MISSIONS: &'static [MissionInfo];
    /// [`Skirmish::TACTICS`], for generic code holding a value.
    fn tactics(&self) -> &'static [TacticInfo] {
        Self::TACTICS
    }
    /// [`Skirmish::MISSIONS`], for generic code holding a value.
    fn missions(&self) -> &'static [MissionInfo] {
        Self::MISSIONS
    }
    /// The book's words and the set-up of `mission` (index into [`Skirmish::missions`]): the
    /// basic game's ([`Skirmish::skirmish_text`]) by default.
    fn mission_text(&self, _mission: usize) -> SkirmishText {
        self.skirmish_text()
    }
    /// The settings of `mission` (points per side, in the book's points): the basic game's
    /// ([`Skirmish::skirmish_settings`]) by default.
    fn mission_settings(&self, _mission: usize) -> SkirmishSettings {
        self.skirmish_settings()
    }
    /// Whether the report's value per mission plays `mission`: true by default. A mission whose
    /// sides have fixed, unequal points and roles (VSGMR's Ambush and Fortress Assault) returns
    /// false: each side's points are constant there, so the regression cannot tell an item's
    /// value from the side it is on; the ruleset reports such a mission's win rates and fair
    /// points itself.
    fn mission_in_value_table(&self, _mission: usize) -> bool {
        true
    }
    /// [`Skirmish::ARMY_SOURCE`], for generic code holding a value.
    fn army_source(&self) -> ArmySource {
        Self::ARMY_SOURCE
    }
    /// The armies of a run without `--armies`: random by default (a ruleset whose config
    /// names fixed sides returns those). Errors as [`Skirmish::read_armies`].
    fn default_armies(&self) -> Result<Armies<Self::Army>, ArmyError> {
        Ok(Armies::Random)
    }
    /// Reads the two armies named on the command line (side A, side B) for `mission` (index
    /// into [`Skirmish::missions`], whose points limit they must keep). Errors name the file,
    /// line and column, or list the valid names.
    fn read_armies(&self, specs: [&str; 2], mission: usize) -> Result<[Self::Army; 2], ArmyError>;
    /// A random legal army of the basic game, drawn from `dice`.
    fn random_army<D: Dice>(&self, dice: &mut D) -> Self::Army;
    /// One line naming what an army holds, e.g. "2 Riflemen, 1 Tank".
    fn describe_army(&self, army: &Self::Army) -> String;
    /// The unit types whose statistics the skirmish reports (the items the records count
    /// first), with their costs.
    fn skirmish_units(&self) -> Vec<UnitInfo>;
    /// The upgrades counted after the units, `(name, cost)`; none by default.
    fn skirmish_upgrades(&self) -> Vec<(String, f64)> {
        Vec::new()
    }
    /// Whether everything the skirmish needs is known (e.g. every upgrade has a rule); the
    /// message says what is missing. Checked before any game is played.
    fn check_skirmish(&self) -> Result<(), String> {
        Ok(())
    }
    /// The names whose hash seeds the games under `tactic` (index into [`Skirmish::tactics`]):
    /// `[ruleset id, "skirmish", tactic name]` by default. The engine appends the mission's
    /// name for any mission but the basic game, so the basic game's draws never change.
    fn stream_names(&self, tactic: usize, _armies: &Armies<Self::Army>) -> Vec<String> {
        vec![self.id().to_string(), "skirmish".to_string(), self.tactics()[tactic].name.to_string()]
    }
    /// Fresh scratch space for games of `mission` (index into [`Skirmish::missions`]) in which
    /// each side plays its tactic of `tactics` (indices into [`Skirmish::tactics`], side A
    /// first; both the same in the runs of one tactic, different in the tactic metagame's cells).
    fn game(&self, tactics: [usize; 2], mission: usize) -> Self::Game<'_>;
    /// Plays one game: sets it up (drawing random armies from `dice` where `armies` says so),
    /// plays it to the end and fills `record` (cleared by the caller).
    fn play<D: Dice>(
        &self,
        game: &mut Self::Game<'_>,
        armies: &Armies<Self::Army>,
        dice: &mut D,
        record: &mut GameRecord,
    );
    /// One game of `mission` under `tactic` with a trace, seeded from `seed`, as a replay
    /// picture.
    fn replay(&self, armies: &Armies<Self::Army>, tactic: usize, mission: usize, seed: u64) -> Replay;
    /// What the rollout best response's stages are in the book's words (VSGMR: "round"), or
    /// `None` where [`Skirmish::rollout`] is not built for the ruleset: the default.
    fn rollout_stage(&self) -> Option<&'static str> {
        None
    }
    /// The rollout best response of each side against the base play `run.play` in games
    /// of `mission` with `armies` ([`super::rollout::best_response`], which `run` configures;
    /// `progress` advances one per game). `Err` says why where the ruleset's game is not played
    /// in stages yet: the default.
    fn rollout(
        &self,
        _run: &RolloutRun,
        _armies: &Armies<Self::Army>,
        _mission: usize,
        _progress: &indicatif::ProgressBar,
    ) -> Result<RolloutGain, String> {
        Err(rollout_not_built(self.title()))
    }
}

/// Test support: the rollout best response of each side over `games` random-army games of
/// `s`'s basic game with both sides on the tactic named `base` (seed 1, stream 2, `rollouts`
/// playouts per option at each decision). Panics if `base` is not one of `s`'s tactics or its
/// rollout is not built.
#[cfg(test)]
pub(crate) fn rollout_against_both_on<S: Skirmish>(s: &S, base: &str, games: u64, rollouts: u32) -> RolloutGain {
    let t = s.tactics().iter().position(|x| x.name == base).expect("a tactic of the ruleset");
    let run = RolloutRun { seed: 1, stream: 2, games, rollouts, play: Play::pure([t, t], s.tactics().len()) };
    s.rollout(&run, &Armies::Random, 0, &indicatif::ProgressBar::hidden()).expect("the rollout is built")
}

/// Why a ruleset titled `title` has no rollout best response ([`Skirmish::rollout`]).
pub fn rollout_not_built(title: &str) -> String {
    format!(
        "the rollout best response is not built for the {title} skirmish: its game is not played in stages \
         (`Skirmish::rollout`)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: [TacticInfo; 3] = [
        TacticInfo { name: "x", description: "" },
        TacticInfo { name: "y", description: "" },
        TacticInfo { name: "z", description: "" },
    ];

    /// A pure side plays its tactic in every game; a mixing side draws each tactic in about its
    /// share of the games (within 4.5 standard errors of a binomial share over 20,000 games),
    /// never a tactic of weight 0, the two sides independently of each other (both sides'
    /// first tactic in about the product of their shares), and the same tactics for a game
    /// every time it is asked.
    #[test]
    fn a_mixing_side_draws_each_tactic_in_its_share_of_the_games() {
        let play = Play { mixes: [vec![0.5, 0.0, 0.5], vec![0.2, 0.3, 0.5]] };
        let n = 20_000u64;
        let mut counts = [[0u64; 3]; 2];
        let mut both_first = 0u64;
        for g in 0..n {
            let d = play.draw(42, 7, g);
            assert_eq!(d, play.draw(42, 7, g));
            counts[0][d[0]] += 1;
            counts[1][d[1]] += 1;
            both_first += (d == [0, 0]) as u64;
        }
        let near = |count: u64, p: f64| {
            let se = (p * (1.0 - p) / n as f64).sqrt();
            (count as f64 / n as f64 - p).abs() <= 4.5 * se
        };
        for s in 0..2 {
            for t in 0..3 {
                assert!(near(counts[s][t], play.mixes[s][t]), "side {s} tactic {t}: {counts:?}");
            }
        }
        assert_eq!(counts[0][1], 0, "a tactic of weight 0 is never drawn");
        assert!(near(both_first, 0.5 * 0.2), "{both_first}");
        let pure = Play::pure([2, 1], 3);
        assert!((0..100).all(|g| pure.draw(42, 7, g) == [2, 1]));
        assert_eq!(pure.as_pure(), Some([2, 1]));
        assert_eq!(play.as_pure(), None);
    }

    #[test]
    fn a_play_is_named_by_its_tactic_both_tactics_or_the_mix() {
        assert_eq!(Play::pure([1, 1], 3).name(&NAMES), "y");
        assert_eq!(Play::pure([0, 2], 3).name(&NAMES), "x (A) v z (B)");
        assert_eq!(Play { mixes: [vec![0.5, 0.5, 0.0], vec![0.0, 1.0, 0.0]] }.name(&NAMES), EQUILIBRIUM_MIX);
        // A weight within the linear program's rounding of 1 is one tactic.
        assert_eq!(Play { mixes: [vec![1.0 - 1e-12, 1e-12, 0.0], vec![0.0, 1.0, 0.0]] }.as_pure(), Some([0, 1]));
    }
}
