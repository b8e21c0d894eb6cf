//! Output locations checked before any work: a run that simulates for minutes and then cannot
//! write its result (`report --out` at a file, `--replay` into a missing directory, a
//! read-only `--tallies-out`) wastes the minutes and reports the problem last. Each command
//! checks every place it will write, first.
//!
//! Why a probe file: whether a directory can be written depends on permissions, the user,
//! mount options and more; the only answer that holds for all of them is to create a file
//! there. The probe is named like an atomic write's temporary file (`.pointsworth-tmp-PID-…`,
//! see `report::atomic`), so a run killed between creating and removing it leaves a file a
//! later run sweeps.

use std::path::{Path, PathBuf};

use super::common::AppError;

/// Checks that `path` (given by `flag`, e.g. `--replay`) can be written as a file: it is a
/// regular file or nothing yet (not a directory, device, pipe or socket), and its directory
/// exists and takes new files. Creates nothing that stays.
pub(crate) fn check_file(flag: &str, path: &Path) -> Result<(), AppError> {
    if path.is_dir() {
        return Err(AppError::Usage(format!("{flag} {}: is a directory; give a file name", path.display())));
    }
    // A device, pipe or socket: the atomic write would put a regular file in its place
    // (`--write /dev/null` run as root replaced the device).
    if path.exists() && !path.is_file() {
        return Err(AppError::Usage(format!(
            "{flag} {}: is not a regular file (a device, pipe or socket); give a file name",
            path.display()
        )));
    }
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !parent.is_dir() {
        let what = if parent.exists() { "is not a directory" } else { "does not exist" };
        return Err(AppError::Usage(format!("{flag} {}: its directory {} {what}", path.display(), parent.display())));
    }
    probe(flag, path, &parent)
}

/// Checks that `dir` (given by `flag`, e.g. `--out`) can hold the files of a run: it is a
/// directory that takes new files, or it does not exist yet and its nearest existing ancestor
/// is such a directory (the run creates it when it writes). `subdirs` are directories the run
/// writes inside `dir` (`reports/RULESET`): none may be a file. Creates nothing that stays.
pub(crate) fn check_dir(flag: &str, dir: &Path, subdirs: &[&str]) -> Result<(), AppError> {
    let mut existing = if dir.as_os_str().is_empty() { PathBuf::from(".") } else { dir.to_path_buf() };
    while !existing.exists() {
        match existing.parent() {
            Some(p) if !p.as_os_str().is_empty() => existing = p.to_path_buf(),
            _ => {
                existing = PathBuf::from(".");
                break;
            }
        }
    }
    if !existing.is_dir() {
        return Err(AppError::Usage(format!(
            "{flag} {}: {} is a file, not a directory",
            dir.display(),
            existing.display()
        )));
    }
    for sub in subdirs {
        let p = dir.join(sub);
        if p.exists() && !p.is_dir() {
            return Err(AppError::Usage(format!(
                "{flag} {}: {} is a file, not a directory",
                dir.display(),
                p.display()
            )));
        }
    }
    probe(flag, dir, &existing)
}

/// Creates and removes a file in `dir` to learn whether `what` (given by `flag`) can be
/// written there.
fn probe(flag: &str, what: &Path, dir: &Path) -> Result<(), AppError> {
    let probe = dir.join(format!("{}{}-probe", crate::report::atomic::TEMP_PREFIX, std::process::id()));
    match std::fs::OpenOptions::new().write(true).create_new(true).open(&probe) {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
        // Our own probe of an earlier check in this run: the directory takes files.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(AppError::Usage(format!("{flag} {}: cannot write in {}: {e}", what.display(), dir.display()))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_and_directories_are_told_apart_and_nothing_is_left() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a-file");
        std::fs::write(&file, "x").unwrap();
        let e = check_dir("--out", &file, &[]).unwrap_err().to_string();
        assert!(e.contains("is a file, not a directory"), "{e}");
        let e = check_dir("--out", &file.join("deeper"), &[]).unwrap_err().to_string();
        assert!(e.contains("is a file, not a directory"), "{e}");
        assert!(check_dir("--out", &dir.path().join("new/deeper"), &[]).is_ok());
        let e = check_dir("--out", dir.path(), &["a-file"]).unwrap_err().to_string();
        assert!(e.contains("a-file is a file"), "{e}");
        let e = check_file("--replay", dir.path()).unwrap_err().to_string();
        assert!(e.contains("is a directory"), "{e}");
        let e = check_file("--replay", &dir.path().join("missing/x.svg")).unwrap_err().to_string();
        assert!(e.contains("does not exist"), "{e}");
        let e = check_file("--replay", &file.join("x.svg")).unwrap_err().to_string();
        assert!(e.contains("is not a directory"), "{e}");
        assert!(check_file("--replay", &dir.path().join("x.svg")).is_ok());
        assert!(check_file("--replay", &file).is_ok(), "a regular file is replaced");
        let e = check_file("--write", Path::new("/dev/null")).unwrap_err().to_string();
        assert!(e.contains("--write /dev/null: is not a regular file"), "{e}");
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left, vec![std::ffi::OsString::from("a-file")]);
    }
}
