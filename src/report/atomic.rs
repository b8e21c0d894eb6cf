//! Atomic file writes: write a sibling temporary file, then rename it over the target.
//!
//! A report directory is read by people and by CI diffs. If `pointsworth report` is killed
//! half way (Ctrl-C, an out-of-memory kill, a full disk), every file in it must be either the
//! old complete version or the new complete version, never a truncated mix. `rename(2)` within
//! one directory (one file system) replaces the target in a single step, so we write the
//! bytes to `.pointsworth-tmp-PID-N.NAME` beside the target, flush them to disk, and rename. A
//! failed write removes its temporary file. The temporary name carries the process id and a
//! per-process counter so two writers (two processes, or two threads of one) never share one.
//!
//! A process killed outright (`kill -9`, the out-of-memory killer, a power cut) removes
//! nothing: its temporary file stays. The name says whose it was, so the first write of a later
//! run into that directory removes every `.pointsworth-tmp-PID-…` file whose process no longer
//! runs ([`sweep_stale`]).
//!
//! A `TempPath` holds a [`crate::cancel::WriteGuard`] while it lives, so Ctrl-C waits for
//! the write under way to finish or clean up, and lets no new one begin (see [`crate::cancel`]).

use std::fs::{self, File};
use std::io::{self, Write};
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::cancel::{WriteGuard, begin_write};

/// Writes `bytes` to `path` atomically: a reader sees the old file or the new one, never
/// a partial one. The parent directory must exist.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let tmp = temp_path(path, "");
    let result = (|| {
        let mut file = File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, path)
    })();
    finish(result, &tmp, path)
}

/// Moves an already written temporary file (from [`temp_path`]) over `path`, flushing it
/// first; removes the temporary file if that fails.
pub(crate) fn persist(tmp: &Path, path: &Path) -> io::Result<()> {
    let result = (|| {
        File::open(tmp)?.sync_all()?;
        fs::rename(tmp, path)
    })();
    finish(result, tmp, path)
}

/// A temporary file's path, and the right to write it: Ctrl-C waits while one lives. Keep it
/// until the file is renamed into place ([`persist`]) or removed.
#[derive(Debug)]
pub(crate) struct TempPath {
    path: PathBuf,
    _guard: WriteGuard,
}

impl Deref for TempPath {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<Path> for TempPath {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

/// The start of the name of every temporary file pointsworth writes: `.pointsworth-tmp-PID-`.
pub const TEMP_PREFIX: &str = ".pointsworth-tmp-";

/// A fresh temporary path beside `path`: `.pointsworth-tmp-PID-N.NAME` followed by
/// `extension` (e.g. `".png"` for writers that choose the format from the file name, or `""`).
/// The first in a directory sweeps it of stale ones ([`sweep_stale`]).
pub(crate) fn temp_path(path: &Path, extension: &str) -> TempPath {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    static SWEPT: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
    let _guard = begin_write();
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut swept = SWEPT.lock().unwrap_or_else(|e| e.into_inner());
    if !swept.contains(&dir) {
        sweep_stale(&dir);
        swept.push(dir);
    }
    drop(swept);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
    TempPath { path: path.with_file_name(format!("{TEMP_PREFIX}{}-{n}.{name}{extension}", std::process::id())), _guard }
}

/// Removes the temporary files in `dir` whose writer no longer runs: names
/// `.pointsworth-tmp-PID-…` with a PID that is not a live process (`/proc/PID`; where there is
/// no `/proc`, files older than a day). Another live run's files, and this run's, stay.
/// Best effort: a file that cannot be removed is left. Returns how many were removed.
pub fn sweep_stale(dir: &Path) -> usize {
    let Ok(entries) = fs::read_dir(dir) else { return 0 };
    let mut removed = 0;
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(TEMP_PREFIX)) else { continue };
        let Some(pid) = rest.split('-').next().and_then(|p| p.parse::<u32>().ok()) else { continue };
        if pid == std::process::id() || !writer_is_gone(pid, &e) {
            continue;
        }
        if e.file_type().is_ok_and(|t| t.is_file()) && fs::remove_file(e.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// Whether the process `pid` that wrote the temporary file `e` no longer runs.
fn writer_is_gone(pid: u32, e: &fs::DirEntry) -> bool {
    if Path::new("/proc/self").exists() {
        return !Path::new("/proc").join(pid.to_string()).exists();
    }
    let age = e.metadata().ok().and_then(|m| m.modified().ok()).and_then(|t| t.elapsed().ok());
    age.is_some_and(|a| a > std::time::Duration::from_secs(24 * 3600))
}

fn finish(result: io::Result<()>, tmp: &Path, path: &Path) -> io::Result<()> {
    match result {
        Ok(()) => {
            sync_parent(path);
            Ok(())
        }
        Err(e) => {
            let _ = fs::remove_file(tmp);
            Err(io::Error::new(e.kind(), format!("writing {}: {e}", path.display())))
        }
    }
}

/// Best effort: make the rename itself durable. Failing here loses nothing already written.
fn sync_parent(path: &Path) {
    #[cfg(unix)]
    if let Some(parent) = path.parent() {
        let parent = if parent.as_os_str().is_empty() { Path::new(".") } else { parent };
        if let Ok(dir) = File::open(parent) {
            let _ = dir.sync_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leftovers(dir: &Path) -> Vec<String> {
        fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with(TEMP_PREFIX))
            .collect()
    }

    #[test]
    fn writes_and_replaces_without_leaving_temporaries() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        write_atomic(&path, b"first").unwrap();
        write_atomic(&path, b"second").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"second");
        assert!(leftovers(dir.path()).is_empty());
    }

    #[test]
    fn a_failed_write_keeps_the_old_file_and_cleans_up() {
        let dir = tempfile::tempdir().unwrap();
        // Renaming a file over a non-empty directory fails after the bytes were written.
        let target = dir.path().join("taken");
        fs::create_dir(&target).unwrap();
        fs::write(target.join("keep"), b"x").unwrap();
        let err = write_atomic(&target, b"new").unwrap_err();
        assert!(err.to_string().contains("taken"), "{err}");
        assert!(target.join("keep").exists());
        assert!(leftovers(dir.path()).is_empty());
    }

    #[test]
    fn temporary_names_are_hidden_siblings_and_unique() {
        let a = temp_path(Path::new("out/x.png"), ".png");
        let b = temp_path(Path::new("out/x.png"), ".png");
        assert_ne!(*a, *b);
        assert_eq!(a.parent(), Some(Path::new("out")));
        let name = a.file_name().unwrap().to_string_lossy().into_owned();
        assert!(name.starts_with(&format!("{TEMP_PREFIX}{}-", std::process::id())), "{name}");
        assert!(name.ends_with(".x.png.png"), "{name}");
    }

    /// A run killed during its write phase leaves its temporary file; the next write into that
    /// directory removes it, and leaves a live process's and other files alone.
    #[test]
    fn stale_temporaries_of_dead_processes_are_swept() {
        let dir = tempfile::tempdir().unwrap();
        // A process that has exited: its pid is free (reuse within the test is unlikely, and
        // would only keep the file).
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let stale = dir.path().join(format!("{TEMP_PREFIX}{dead}-0.report.md"));
        let live = dir.path().join(format!("{TEMP_PREFIX}{}-7.x", std::process::id()));
        let other = dir.path().join(".report.md.tmp-1-0");
        for p in [&stale, &live, &other] {
            fs::write(p, b"").unwrap();
        }
        write_atomic(&dir.path().join("report.md"), b"new").unwrap();
        assert!(!stale.exists(), "the dead writer's temporary file is swept");
        assert!(live.exists() && other.exists(), "a live writer's file and other files stay");
        assert_eq!(sweep_stale(dir.path()), 0);
    }
}
