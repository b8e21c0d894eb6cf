//! `pointsworth merge`: the N tally files of a `--shard K/N` run → the unsharded result.
//!
//! A shard run saves its command line (without `--shard`, `--tallies-out`, `--threads`), the
//! hashes of the configs it read, and one integer tally per matchup (see
//! [`crate::sim::shard`]). Merging checks that the files are the N distinct shards of one
//! command of this pointsworth version, adds the tallies, and runs the command again with
//! every simulation replaced by its merged tally: the output goes through the same code as
//! an unsharded run, so stdout and files are byte-for-byte those of the single-machine run
//! (except wall-clock timings in text output). Run it from the directory the shards ran in:
//! relative paths in the command line (`--config`, `--out`) resolve there.

use std::collections::BTreeSet;
use std::path::Path;

use clap::Parser;
use serde::{Deserialize, Serialize};

use super::common::{AppError, stdout_write};
use crate::cli::{Cli, Command, MergeArgs};
use crate::sim::duel::DuelTally;
use crate::sim::shard::{self, Configs, Shard, Tallies};

/// Bumped when the tally file's layout changes.
pub const TALLIES_FORMAT: u32 = 1;

/// The content of a `--tallies-out` file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TallyFile {
    pub pointsworth_tallies: u32,
    pub pointsworth_version: String,
    /// The command line after `pointsworth`, without `--shard`, `--tallies-out`, `--threads`.
    pub args: Vec<String>,
    /// `K/N`.
    pub shard: String,
    /// Config path → FNV-1a hash of the configs the run read.
    pub configs: Configs,
    /// Matchup key (stream id @ start distance) → integer tally of this shard's batches.
    pub tallies: Tallies,
}

/// The command line without the flags that only say how this run is spread out.
fn replayable_args(args: impl Iterator<Item = String>) -> Vec<String> {
    const DROP: [&str; 3] = ["--shard", "--tallies-out", "--threads"];
    let mut out = Vec::new();
    let mut skip_next = false;
    for a in args {
        if skip_next {
            skip_next = false;
        } else if DROP.contains(&a.as_str()) {
            skip_next = true;
        } else if !DROP.iter().any(|d| a.starts_with(&format!("{d}="))) {
            out.push(a);
        }
    }
    out
}

/// Ends a shard run: writes its tallies to `path` (atomically) and says so on stdout.
pub fn finish_shard(result: Result<(), AppError>, s: Shard, path: &Path) -> Result<(), AppError> {
    let (tallies, configs) = shard::end();
    result?;
    let file = TallyFile {
        pointsworth_tallies: TALLIES_FORMAT,
        pointsworth_version: env!("CARGO_PKG_VERSION").to_string(),
        args: replayable_args(std::env::args().skip(1)),
        shard: s.to_string(),
        configs,
        tallies,
    };
    let mut bytes = serde_json::to_vec(&file).map_err(anyhow::Error::from)?;
    bytes.push(b'\n');
    crate::report::write_atomic(path, &bytes)
        .map_err(|source| AppError::Io { context: format!("writing {}", path.display()), source })?;
    stdout_write(&format!("shard {s}: {} matchup tallies written to {}\n", file.tallies.len(), path.display()))
}

fn read(path: &Path) -> Result<TallyFile, AppError> {
    let text = crate::config::read_text(path)
        .map_err(|source| AppError::Io { context: format!("reading {}", path.display()), source })?;
    let f: TallyFile = serde_json::from_str(&text).map_err(|e| {
        AppError::Usage(format!("{}:{}:{}: not a pointsworth tally file: {e}", path.display(), e.line(), e.column()))
    })?;
    if f.pointsworth_tallies != TALLIES_FORMAT || f.pointsworth_version != env!("CARGO_PKG_VERSION") {
        return Err(AppError::Usage(format!(
            "{}: written by pointsworth {} (tally format {}); this is {} (format {TALLIES_FORMAT}): re-run the shards",
            path.display(),
            f.pointsworth_version,
            f.pointsworth_tallies,
            env!("CARGO_PKG_VERSION")
        )));
    }
    for (key, t) in &f.tallies {
        if let Some(why) = t.inconsistency() {
            return Err(AppError::Usage(format!("{}: tallies.{key}: {why}", path.display())));
        }
    }
    Ok(f)
}

/// `a` plus `b`, or `None` when a sum does not fit (forged numbers).
fn checked_sum(a: &DuelTally, b: &DuelTally) -> Option<DuelTally> {
    let pair = |x: [u64; 2], y: [u64; 2]| Some([x[0].checked_add(y[0])?, x[1].checked_add(y[1])?]);
    Some(DuelTally {
        trials: a.trials.checked_add(b.trials)?,
        a_wins: a.a_wins.checked_add(b.a_wins)?,
        b_wins: a.b_wins.checked_add(b.b_wins)?,
        draws: a.draws.checked_add(b.draws)?,
        turns: a.turns.checked_add(b.turns)?,
        size: pair(a.size, b.size)?,
        kills: pair(a.kills, b.kills)?,
        size_sq: pair(a.size_sq, b.size_sq)?,
        kills_sq: pair(a.kills_sq, b.kills_sq)?,
        size_kills: pair(a.size_kills, b.size_kills)?,
        a_first: a.a_first.checked_add(b.a_first)?,
    })
}

/// Checks that `files` are the N distinct shards of one command and adds their tallies.
pub fn combine(files: &[(String, TallyFile)]) -> Result<(Vec<String>, Configs, Tallies), AppError> {
    let (first_name, first) = files.first().ok_or_else(|| AppError::Usage("no tally files".into()))?;
    let mut seen = BTreeSet::new();
    let mut count = 0;
    for (name, f) in files {
        let s = Shard::parse(&f.shard).map_err(|e| AppError::Usage(format!("{name}: {e}")))?;
        if f.args != first.args || f.configs != first.configs {
            return Err(AppError::Usage(format!(
                "{name} and {first_name} come from different runs: `{}` vs `{}`",
                f.args.join(" "),
                first.args.join(" ")
            )));
        }
        if count != 0 && s.count != count {
            return Err(AppError::Usage(format!("{name} is shard {s} but {first_name} is of {count}")));
        }
        count = s.count;
        if !seen.insert(s.index) {
            return Err(AppError::Usage(format!("shard {s} is given twice ({name})")));
        }
        if f.tallies.keys().ne(first.tallies.keys()) {
            return Err(AppError::Usage(format!("{name} and {first_name} tallied different matchups")));
        }
    }
    // `count` is at most `MAX_SHARDS` (`Shard::parse`); name the first few missing shards.
    let missing = (0..count).filter(|k| !seen.contains(k));
    let named: Vec<String> = missing.clone().take(10).map(|k| format!("{}/{count}", k + 1)).collect();
    if !named.is_empty() {
        let more = missing.count() - named.len();
        let more = if more > 0 { format!(" and {more} more") } else { String::new() };
        return Err(AppError::Usage(format!("missing shards: {}{more}", named.join(", "))));
    }
    let mut sum = first.tallies.clone();
    for (name, f) in &files[1..] {
        for (k, t) in &f.tallies {
            let total =
                sum.get_mut(k).ok_or_else(|| AppError::Usage(format!("{name}: tallies.{k}: not in {first_name}")))?;
            *total = checked_sum(total, t)
                .ok_or_else(|| AppError::Usage(format!("{name}: tallies.{k}: the counts overflow when added")))?;
        }
    }
    Ok((first.args.clone(), first.configs.clone(), sum))
}

/// Runs `pointsworth merge`: `replay` runs the shards' command line again (the dispatcher,
/// [`super::run`], passed in so this file does not import it back).
pub fn run(args: MergeArgs, replay: fn(Cli) -> Result<(), AppError>) -> Result<(), AppError> {
    let files: Vec<(String, TallyFile)> =
        args.files.iter().map(|p| Ok((p.display().to_string(), read(p)?))).collect::<Result<_, AppError>>()?;
    let (command, configs, tallies) = combine(&files)?;
    let cli = Cli::try_parse_from(std::iter::once("pointsworth".to_string()).chain(command.iter().cloned()))
        .map_err(|e| AppError::Usage(format!("cannot replay `{}`: {e}", command.join(" "))))?;
    let first = &files[0].0;
    // Only what a shard run can be: a command that shards, with a fixed trial count, not itself
    // spread out (a forged `merge` here would replay itself without end).
    let sim = match &cli.command {
        Command::Report(a) => &a.sim,
        Command::Duel(a) => &a.sim,
        Command::Matrix(a) => &a.sim,
        _ => {
            return Err(AppError::Usage(format!(
                "{first}: args `{}` is not a report, duel or matrix command, so no shard run made it",
                command.join(" ")
            )));
        }
    };
    let Some(trials) = sim.trials.filter(|_| sim.shard.is_none() && sim.tallies_out.is_none() && cli.threads.is_none())
    else {
        return Err(AppError::Usage(format!(
            "{first}: args `{}` is not the command of a shard run (it has --trials, and no --shard, --tallies-out or \
             --threads)",
            command.join(" ")
        )));
    };
    if let Some((k, t)) = tallies.iter().find(|(_, t)| t.trials != trials) {
        return Err(AppError::Usage(format!(
            "tallies.{k}: the shards add up to {} trials, not the {trials} of --trials: a shard is missing or forged",
            t.trials
        )));
    }
    shard::begin_replay(tallies, configs);
    let mut result = replay(cli);
    if let Some(why) = shard::replay_error() {
        result = Err(AppError::Usage(why));
    }
    shard::end();
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replayable_args_drop_only_the_spreading_flags() {
        let a =
            ["matrix", "gng", "--shard", "2/4", "--trials", "9", "--tallies-out=x.json", "--threads", "2", "--json"];
        assert_eq!(replayable_args(a.iter().map(|s| s.to_string())), vec!["matrix", "gng", "--trials", "9", "--json"]);
    }

    #[test]
    fn shard_parse_rejects_nonsense() {
        assert_eq!(Shard::parse("3/8").unwrap(), Shard { index: 2, count: 8 });
        for bad in ["0/4", "5/4", "1", "a/b", "1/0"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }
}
