//! Atomic file writes: write a sibling temporary file, then rename it over the target.
//!
//! A report directory is read by people and by CI diffs. If `pointsworth report` is killed
//! half way (Ctrl-C, an out-of-memory kill, a full disk), every file in it must be either the
//! old complete version or the new complete version, never a truncated mix. `rename(2)` within
//! one directory (one file system) replaces the target in a single step, so we write the
//! bytes to `.NAME.tmp-PID-N` beside the target, flush them to disk, and rename. A failed
//! write removes its temporary file. The temporary name carries the process id and a per-process
//! counter so two writers (two processes, or two threads of one) never share one.
//!
//! A `TempPath` holds a [`crate::cancel::WriteGuard`] while it lives, so Ctrl-C waits for
//! the write under way to finish or clean up, and lets no new one begin (see [`crate::cancel`]).

use std::fs::{self, File};
use std::io::{self, Write};
use std::ops::Deref;
use std::path::{Path, PathBuf};
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

/// A fresh temporary path beside `path`: `.NAME.tmp-PID-N` followed by `extension`
/// (e.g. `".png"` for writers that choose the format from the file name, or `""`).
pub(crate) fn temp_path(path: &Path, extension: &str) -> TempPath {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let _guard = begin_write();
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
    TempPath { path: path.with_file_name(format!(".{name}.tmp-{}-{n}{extension}", std::process::id())), _guard }
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
            .filter(|n| n.contains(".tmp-"))
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
        assert!(name.starts_with(".x.png.tmp-") && name.ends_with(".png"), "{name}");
    }
}
