//! Sharded runs: `--shard K/N` plays the K-th of N disjoint slices of every matchup's batches
//! and saves the tallies; `pointsworth merge` adds the slices and replays the command.
//!
//! Why it works: a fixed plan (`--trials`, no stopping rule) plays batches `0 .. B` of every
//! stream, each batch with its own generator seeded from `(seed, stream, batch)` (a duel batch
//! seeds one per trial from `(seed, stream, trial)`), and a tally is an integer sum over
//! batches. So shard `K` of `N` plays the batches `b` with `b mod N = K − 1`; the N tallies
//! of a matchup add up to exactly the single-machine tally, whatever the machines and thread
//! counts, and every number derived from it is identical.
//! The adaptive stopping rule (`--target-error`) looks at the merged tally between rounds,
//! which a shard cannot see, so a sharded run needs `--trials`.
//!
//! The mode is process-wide because sharding is a property of the whole command: every
//! [`crate::sim::duel::simulate`] call of a shard run records its tally under a key naming
//! the stream and start distance; a merge run replays those keys instead of simulating.

use std::collections::BTreeMap;
use std::sync::Mutex;

use crate::sim::duel::DuelTally;

/// The most slices of a sharded run: far more machines than a cluster job array gives one
/// command, and few enough that `merge` can list what is missing (a forged tally file's
/// `1/18446744073709551615` made it count shards until memory ran out).
pub const MAX_SHARDS: u64 = 10_000;

/// The K-th (1-based `index + 1`) of `count` slices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// 0-based.
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// Parses `K/N` with 1 ≤ K ≤ N ≤ [`MAX_SHARDS`], e.g. `3/8`.
    pub fn parse(s: &str) -> Result<Self, String> {
        let bad = || format!("--shard must be K/N with 1 <= K <= N <= {MAX_SHARDS}, e.g. 3/8; got {s:?}");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (k, n): (u64, u64) = (k.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        if k == 0 || k > n || n > MAX_SHARDS {
            return Err(bad());
        }
        Ok(Shard { index: k - 1, count: n })
    }

    /// Whether batch `b` belongs to this shard.
    pub fn owns(&self, batch: u64) -> bool {
        batch % self.count == self.index
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

/// Tallies by key (see [`key`]).
pub type Tallies = BTreeMap<String, DuelTally>;

/// Config path → FNV-1a hash (hex) of the configs a run read.
pub type Configs = BTreeMap<String, String>;

enum Mode {
    Record {
        shard: Shard,
        tallies: Tallies,
        configs: Configs,
    },
    /// `missing`: the first matchup the replayed command asked for that the tallies lack.
    Replay {
        tallies: Tallies,
        configs: Configs,
        missing: Option<String>,
    },
}

static MODE: Mutex<Option<Mode>> = Mutex::new(None);

fn mode() -> std::sync::MutexGuard<'static, Option<Mode>> {
    MODE.lock().unwrap_or_else(|e| e.into_inner())
}

/// The key of a matchup's tally: stream id, start distance, both costs and the squad budget.
///
/// The stream id deliberately ignores costs and distance (common random numbers), so the key
/// must add them: a cost sweep plays the same stream at several costs, and each is its own
/// tally.
pub fn key(stream: u64, distance: f64, costs: [f64; 2], budget: Option<f64>) -> String {
    let budget = budget.map_or("one".to_string(), |b| b.to_string());
    format!("{stream:016x}@{distance}/{}/{}/{budget}", costs[0], costs[1])
}

/// Starts recording a shard run: simulations play only `shard`'s batches.
pub fn begin_record(shard: Shard) {
    *mode() = Some(Mode::Record { shard, tallies: Tallies::new(), configs: Configs::new() });
}

/// Starts a replay: simulations return these tallies instead of playing, and configs must
/// have the hashes the shards saw.
pub fn begin_replay(tallies: Tallies, configs: Configs) {
    *mode() = Some(Mode::Replay { tallies, configs, missing: None });
}

/// Ends the mode; returns the recorded tallies and configs of a shard run (empty for a replay).
pub fn end() -> (Tallies, Configs) {
    match mode().take() {
        Some(Mode::Record { tallies, configs, .. }) => (tallies, configs),
        _ => (Tallies::new(), Configs::new()),
    }
}

/// Notes a config the command read. A shard run records its hash; a replay fails when the
/// config differs from the one the shards read (its costs would not match their tallies).
pub fn note_config(path: &str, hash: &str) -> Result<(), String> {
    match &mut *mode() {
        Some(Mode::Record { configs, .. }) => {
            configs.insert(path.to_string(), hash.to_string());
            Ok(())
        }
        Some(Mode::Replay { configs, .. }) => match configs.get(path) {
            Some(h) if h == hash => Ok(()),
            Some(h) => Err(format!("{path} changed since the shards ran (hash {h}, now {hash}); re-run the shards")),
            None => Err(format!("the shards did not read {path}")),
        },
        None => Ok(()),
    }
}

/// Why a replay cannot give the unsharded result: the merged tallies lack a matchup the
/// replayed command simulates (they were made by another command, config or version, or
/// forged). `None` outside a replay and while every matchup was found. Checked before a replay
/// prints or writes anything.
pub fn replay_error() -> Option<String> {
    match &*mode() {
        Some(Mode::Replay { missing: Some(key), .. }) => Some(format!(
            "the merged tallies have no matchup {key} that the command plays: they were made by another command, \
             config or version of pointsworth; re-run the shards"
        )),
        _ => None,
    }
}

/// The shard being recorded, if any.
pub fn recording() -> Option<Shard> {
    match &*mode() {
        Some(Mode::Record { shard, .. }) => Some(*shard),
        _ => None,
    }
}

/// What a simulation should do under the current mode.
pub(crate) enum Action {
    Simulate,
    Shard(Shard),
    Replayed(DuelTally),
}

pub(crate) fn action(key: &str) -> Action {
    match &mut *mode() {
        None => Action::Simulate,
        Some(Mode::Record { shard, .. }) => Action::Shard(*shard),
        Some(Mode::Replay { tallies, missing, .. }) => match tallies.get(key) {
            Some(t) => Action::Replayed(t.clone()),
            None => {
                // Not a result: the replay goes on to the end of its simulations (cheaply, on
                // this stand-in) and then fails with [`replay_error`] before any output.
                missing.get_or_insert_with(|| key.to_string());
                Action::Replayed(DuelTally::stand_in())
            }
        },
    }
}

/// Runs `f` with sharding switched off: its simulations play every batch, in shard runs and
/// merges alike, so their results are the single-machine ones.
///
/// For analyses whose next simulation depends on earlier results (the fair-cost bisection, and
/// the report studies' price searches: VSGMR's attribute prices, AMC's upgrade prices):
/// a shard's partial tallies would steer them elsewhere than the merged ones, so they cannot
/// be split by batches. The caller runs while no other simulation is under way.
pub fn unsharded<T>(f: impl FnOnce() -> T) -> T {
    let saved = mode().take();
    let out = f();
    *mode() = saved;
    out
}

pub(crate) fn record(key: String, t: &DuelTally) {
    if let Some(Mode::Record { tallies, .. }) = &mut *mode() {
        tallies.insert(key, t.clone());
    }
}
