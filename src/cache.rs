//! The result cache of the designer's edit–run loop (issue 42 item 4): a matchup result is a
//! pure function of its inputs, so `pointsworth report` keeps each one in a file named by the
//! hash of those inputs and a re-run reads it back instead of computing it again.
//!
//! What is cached (each call site builds its [`Key`] from everything the result depends on):
//! - every pair's optimal-play solve (optimal, scripted, both best responses;
//!   `analysis::optimal_play`): the ruleset without its costs, the pair, the start distance, and
//!   the pair's two list prices where a duel reads costs (`Ruleset::duel_reads_costs`: Army Men
//!   Combat's scripted tactic weighs points; `sim::pair_key`);
//! - every exact 1v1 duel of the report's matrices (`analysis::matrix`): the same;
//! - every pair's both-sides-optimal score under each reading of "Which readings decide the
//!   verdicts" (`analysis::readings`): the ruleset without its costs (with that reading's switch
//!   set), the pair, the distance — no price: optimal play against optimal play reads none;
//! - every Monte Carlo matchup (`sim::duel::simulate_at_costs`: 1v1 and points-matched cells,
//!   the distance sweep, every price the fair-cost search and the studies play): the ruleset
//!   without its costs, the two units, the two prices played and the two units' list prices,
//!   the distance, the budget, the seed and the whole run plan.
//!
//! So after a change of one unit's cost only what involves that unit's cost is recomputed: no
//! optimal-play solve or exact duel (but those of that unit's pairs where a duel reads costs),
//! and among the squad battles only those of that unit (and whatever later searches move to). A change of anything else in the config (a rule, a
//! stat, a setting) changes every key of the ruleset.
//!
//! **Stale entries cannot be hit.** Every key starts with a hash of the running program's own
//! bytes (`std::env::current_exe`), so a rebuilt binary — another version, another rule — never
//! reads what an older one wrote; the ruleset enters the key as its full `Debug` text with the
//! numbers after every `cost:` field blanked ([`without_costs`]). Keys are 128-bit (two
//! SipHash-1-3 states with different prefixes): no collision is expected before 2^64 entries.
//!
//! **Storage.** One small text file per entry, `<key>.e`, in the cache directory (`report` uses
//! `OUT/.cache/`, beside the reports it speeds up, with a `.gitignore` of `*` so a committed
//! reports folder does not commit it). An entry is written to a temporary file and renamed
//! into place (a reader sees the whole entry or none; the write holds a
//! [`crate::cancel::WriteGuard`], so Ctrl-C leaves no temporary file); not flushed to disk,
//! since a lost entry is only recomputed. An entry carries its key and a checksum of its
//! payload: one that does not parse, belongs to another key or fails the checksum is ignored
//! (and overwritten). The directory is bounded ([`MAX_BYTES`]): opening it removes the oldest
//! entries beyond the bound, and temporary files of writers that died.
//!
//! The cache is process-wide: the command layer [`install`]s it (`report` at `OUT/.cache/`,
//! `rules --sensitivity`, `matrix` and `duel` at `reports/.cache/` and `check` at
//! `BASELINE/.cache/` when that exists; not under `--no-cache` or `--shard`, whose simulations
//! neither read nor write it; a `merge` replays the shards' command, whose simulations take
//! the merged tallies before the cache) and the analysis reads it
//! through [`memo`]; with none installed (the library's default, and every unit test) [`memo`]
//! just computes.

use std::fmt::Write as _;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

/// The most bytes the cache directory keeps (entries are 100–400 bytes: about half a million).
pub const MAX_BYTES: u64 = 128 << 20;

/// The file format; a change of it changes every key.
const FORMAT: &str = "pointsworth-cache 1";

static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
static HITS: AtomicU64 = AtomicU64::new(0);
static MISSES: AtomicU64 = AtomicU64::new(0);
static TEMPS: AtomicU64 = AtomicU64::new(0);

/// Uses `dir` as this process's cache (created if missing, with a `.gitignore` of `*`; pruned
/// to [`MAX_BYTES`]); `None` turns the cache off. The first call wins. A directory that cannot
/// be created, or a program whose bytes cannot be read, leaves the cache off (a cache is
/// never a reason to fail).
pub fn install(dir: Option<&Path>) {
    if DIR.get().is_some() {
        return;
    }
    let dir = dir.filter(|_| program_known()).and_then(|d| {
        std::fs::create_dir_all(d).ok()?;
        let ignore = d.join(".gitignore");
        if !ignore.exists() {
            let _ = std::fs::write(&ignore, "*\n");
        }
        prune(d, MAX_BYTES);
        Some(d.to_path_buf())
    });
    let _ = DIR.set(dir);
}

/// Whether a cache is installed.
pub fn enabled() -> bool {
    DIR.get().is_some_and(Option::is_some)
}

/// Entries read back and entries looked up in vain since the start, `(hits, misses)`.
pub fn stats() -> (u64, u64) {
    (HITS.load(Ordering::Relaxed), MISSES.load(Ordering::Relaxed))
}

/// The inputs of one cached result, hashed as they are added. Starts with the program's hash.
#[derive(Clone)]
pub struct Key {
    h: [DefaultHasher; 2],
    /// A readable summary kept in the entry (kind and small parameters), for a person looking.
    label: String,
}

impl Key {
    /// A key of the result kind `kind` ("optimal", "exact", "tally"...).
    pub fn new(kind: &str) -> Key {
        let mut k = Key { h: [DefaultHasher::new(), DefaultHasher::new()], label: kind.to_string() };
        k.h[1].write_u8(0x5a);
        let p = program();
        k.bytes(FORMAT.as_bytes()).bytes(&p.to_le_bytes()).bytes(kind.as_bytes())
    }

    fn bytes(mut self, b: &[u8]) -> Key {
        for h in &mut self.h {
            h.write_usize(b.len());
            h.write(b);
        }
        self
    }

    /// Adds a hashable part (an index, an id, a fingerprint) and shows it in the label.
    pub fn part<T: Hash + std::fmt::Debug + ?Sized>(mut self, x: &T) -> Key {
        for h in &mut self.h {
            x.hash(h);
        }
        let _ = write!(self.label, " {x:?}");
        self
    }

    /// Adds a number, bit for bit (`-0.0` and `0.0` differ; any NaN is itself).
    pub fn num(self, x: f64) -> Key {
        self.part(&x.to_bits())
    }

    /// Adds a ruleset's fingerprint: its `Debug` text, costs blanked ([`without_costs`]).
    pub fn ruleset(self, debug_text: &str) -> Key {
        let t = without_costs(debug_text);
        let mut k = self.bytes(t.as_bytes());
        k.label.push_str(" <ruleset>");
        k
    }

    fn hex(&self) -> String {
        format!("{:016x}{:016x}", self.h[0].finish(), self.h[1].finish())
    }
}

/// A result the cache can hold: a list of 64-bit words, read back bit for bit.
pub trait Entry: Sized {
    fn encode(&self) -> Vec<u64>;
    /// `None` when the words are not a value of this type (wrong length...): a miss.
    fn decode(words: &[u64]) -> Option<Self>;
}

/// The value stored for `key`, or `compute()`'s (then stored). With no cache installed, just
/// `compute()`. Never fails: an unreadable entry is a miss, an unwritable one is not written.
pub fn memo<T: Entry>(key: &Key, compute: impl FnOnce() -> T) -> T {
    memo_ok(key, || Ok::<T, std::convert::Infallible>(compute())).unwrap_or_else(|e| match e {})
}

/// [`memo`] of a computation that may fail: only a success is stored.
pub fn memo_ok<T: Entry, E>(key: &Key, compute: impl FnOnce() -> Result<T, E>) -> Result<T, E> {
    if let Some(v) = get(key) {
        return Ok(v);
    }
    let v = compute()?;
    put(key, &v);
    Ok(v)
}

/// The value stored for `key`, if a cache is installed and holds a whole entry for it.
pub fn get<T: Entry>(key: &Key) -> Option<T> {
    let dir = DIR.get().and_then(Option::as_deref)?;
    let name = key.hex();
    let text = std::fs::read_to_string(dir.join(format!("{name}.e"))).ok();
    let v = text.and_then(|t| parse(&t, &name)).and_then(|w| T::decode(&w));
    if v.is_some() {
        HITS.fetch_add(1, Ordering::Relaxed);
    } else {
        MISSES.fetch_add(1, Ordering::Relaxed);
    }
    v
}

/// Stores `v` for `key` (nothing without a cache; a failed write is not an error).
pub fn put<T: Entry>(key: &Key, v: &T) {
    let Some(dir) = DIR.get().and_then(Option::as_deref) else { return };
    let name = key.hex();
    let _ = store(dir, &dir.join(format!("{name}.e")), &render(&name, &key.label, &v.encode()));
}

/// An entry's text: the format, the key and its label, the words in hex, and their checksum.
fn render(name: &str, label: &str, words: &[u64]) -> String {
    let mut t = format!("{FORMAT}\n{name}\n{}\n", label.replace('\n', " "));
    for w in words {
        let _ = write!(t, "{w:016x} ");
    }
    let _ = write!(t, "\n{:016x}\n", checksum(words));
    t
}

/// The words of an entry's text if it is whole and belongs to `name`.
fn parse(text: &str, name: &str) -> Option<Vec<u64>> {
    let mut lines = text.lines();
    if lines.next()? != FORMAT || lines.next()? != name {
        return None;
    }
    let _label = lines.next()?;
    let words: Vec<u64> =
        lines.next()?.split_whitespace().map(|w| u64::from_str_radix(w, 16).ok()).collect::<Option<_>>()?;
    let sum = u64::from_str_radix(lines.next()?, 16).ok()?;
    (sum == checksum(&words) && lines.next().is_none()).then_some(words)
}

fn checksum(words: &[u64]) -> u64 {
    let mut h = DefaultHasher::new();
    words.hash(&mut h);
    h.finish()
}

/// Writes `text` to a temporary file beside `path` and renames it into place.
fn store(dir: &Path, path: &Path, text: &str) -> std::io::Result<()> {
    let _guard = crate::cancel::begin_write();
    let n = TEMPS.fetch_add(1, Ordering::Relaxed);
    let tmp = dir.join(format!(".tmp-{}-{n}", std::process::id()));
    let r = std::fs::write(&tmp, text).and_then(|()| std::fs::rename(&tmp, path));
    if r.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    r
}

/// Removes temporary files of dead writers (older than an hour) and, oldest first, the
/// entries beyond `max_bytes` in all. Best effort.
fn prune(dir: &Path, max_bytes: u64) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut files: Vec<(std::time::SystemTime, u64, PathBuf)> = Vec::new();
    for e in entries.flatten() {
        let (Ok(meta), name) = (e.metadata(), e.file_name()) else { continue };
        let name = name.to_string_lossy();
        let modified = meta.modified().unwrap_or(std::time::UNIX_EPOCH);
        if name.starts_with(".tmp-") {
            if modified.elapsed().is_ok_and(|a| a.as_secs() > 3600) {
                let _ = std::fs::remove_file(e.path());
            }
        } else if name.ends_with(".e") {
            files.push((modified, meta.len(), e.path()));
        }
    }
    let mut total: u64 = files.iter().map(|f| f.1).sum();
    files.sort();
    for (_, len, path) in files {
        if total <= max_bytes {
            break;
        }
        if std::fs::remove_file(&path).is_ok() {
            total -= len;
        }
    }
}

/// The hash of the running program's bytes; 0 when they cannot be read (then [`install`]
/// leaves the cache off: its keys would not change with the program).
fn program() -> u64 {
    static PROGRAM: OnceLock<u64> = OnceLock::new();
    *PROGRAM.get_or_init(|| {
        let Some(bytes) = std::env::current_exe().ok().and_then(|p| std::fs::read(p).ok()) else { return 0 };
        let mut h = DefaultHasher::new();
        h.write(&bytes);
        h.finish()
    })
}

/// Whether the running program's bytes could be read.
pub fn program_known() -> bool {
    program() != 0
}

/// `text` with the number after every `cost: ` field blanked (`cost: _`): a field named exactly
/// `cost` (not `upgrade_cost`, `co_cost`), as `Debug` prints it. What a key of a result that
/// does not depend on costs is made of.
pub fn without_costs(text: &str) -> String {
    const FIELD: &str = "cost: ";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(FIELD) {
        let before = rest[..at].chars().next_back();
        let whole = !before.is_some_and(|c| c.is_alphanumeric() || c == '_');
        out.push_str(&rest[..at + FIELD.len()]);
        rest = &rest[at + FIELD.len()..];
        if whole {
            let end =
                rest.find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+'))).unwrap_or(rest.len());
            out.push('_');
            rest = &rest[end..];
        }
    }
    out.push_str(rest);
    out
}

impl Entry for f64 {
    fn encode(&self) -> Vec<u64> {
        vec![self.to_bits()]
    }
    fn decode(words: &[u64]) -> Option<Self> {
        match words {
            &[w] => Some(f64::from_bits(w)),
            _ => None,
        }
    }
}

impl Entry for Vec<f64> {
    fn encode(&self) -> Vec<u64> {
        self.iter().map(|x| x.to_bits()).collect()
    }
    fn decode(words: &[u64]) -> Option<Self> {
        Some(words.iter().map(|&w| f64::from_bits(w)).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn costs_are_blanked_and_nothing_else() {
        let t =
            "Unit { name: \"a\", cost: 12.5, upgrade_cost: 3.0, co_cost: 1.0, x: Profile { cost: 1e-3, range: 6.0 } }";
        assert_eq!(
            without_costs(t),
            "Unit { name: \"a\", cost: _, upgrade_cost: 3.0, co_cost: 1.0, x: Profile { cost: _, range: 6.0 } }"
        );
        let k = |t: &str| Key::new("t").ruleset(t).hex();
        assert_eq!(k("A { cost: 10.0, atk: 3 }"), k("A { cost: 15.0, atk: 3 }"));
        assert_ne!(k("A { cost: 10.0, atk: 3 }"), k("A { cost: 10.0, atk: 4 }"));
        assert_ne!(Key::new("t").num(0.0).hex(), Key::new("t").num(-0.0).hex());
        assert_ne!(Key::new("t").part(&1u32).part(&2u32).hex(), Key::new("t").part(&2u32).part(&1u32).hex());
    }

    #[test]
    fn an_entry_reads_back_bit_for_bit_and_a_damaged_one_is_refused() {
        let words = vec![0.1f64.to_bits(), f64::NAN.to_bits(), 0, u64::MAX];
        let t = render("abc", "optimal 1 2", &words);
        assert_eq!(parse(&t, "abc"), Some(words.clone()));
        assert_eq!(parse(&t, "abd"), None, "another key's entry");
        assert_eq!(parse(&t.replace("3fb999999999999a", "3fb999999999999b"), "abc"), None, "checksum");
        assert_eq!(parse(&t[..t.len() - 5], "abc"), None, "cut short");
        assert_eq!(parse("", "abc"), None);
    }

    #[test]
    fn pruning_removes_the_oldest_entries_beyond_the_bound() {
        let dir = tempfile::tempdir().unwrap();
        for (i, n) in ["a", "b", "c"].iter().enumerate() {
            let p = dir.path().join(format!("{n}.e"));
            std::fs::write(&p, vec![b'x'; 100]).unwrap();
            let t = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000 + i as u64);
            std::fs::File::options().write(true).open(&p).unwrap().set_modified(t).unwrap();
        }
        std::fs::write(dir.path().join("keep.txt"), "not an entry").unwrap();
        prune(dir.path(), 250);
        let mut left: Vec<String> =
            std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into()).collect();
        left.sort();
        assert_eq!(left, ["b.e", "c.e", "keep.txt"]);
    }
}
