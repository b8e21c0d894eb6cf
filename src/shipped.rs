//! The shipped configs, embedded in the binary: `pointsworth` works from any directory.
//!
//! Why embedded: a designer installs the binary (`cargo install`) and runs it in their own
//! rules repository, or in an empty directory to try it; reading `configs/` beside the
//! executable or from this checkout would tie it to one place. The copies are the files in
//! `configs/` at build time (`include_str!`), so a built binary and the repository agree.
//!
//! Which config a command reads for ruleset ID, first match wins:
//! 1. `--config PATH`;
//! 2. `configs/ID.toml` in the working directory (a designer's own rules repository, or this
//!    checkout);
//! 3. the built-in copy, named `<built-in>/ID.toml` in every message, so an error in it reads
//!    `<built-in>/guns-n-grenades.toml:41:8: ...`.
//!
//! Army files (`configs/armies/`) are not embedded: no command reads one unless asked by path.
//!
//! Layer: the bottom, beside [`crate::config`]; imports only it.

use std::path::{Path, PathBuf};

use crate::config::{ConfigError, Source};

/// The shipped configs: (ruleset id, TOML text), in the registry's order.
pub const BUILT_IN: [(&str, &str); 5] = [
    ("guns-n-grenades", include_str!("../configs/guns-n-grenades.toml")),
    ("gunplay", include_str!("../configs/gunplay.toml")),
    ("vsgmr", include_str!("../configs/vsgmr.toml")),
    ("army-men-combat", include_str!("../configs/army-men-combat.toml")),
    ("grunt-factor", include_str!("../configs/grunt-factor.toml")),
];

/// The folder of a rules repository's configs, relative to the working directory.
pub const LOCAL_DIR: &str = "configs";

/// The built-in config text of ruleset `id`, if one ships.
pub fn built_in(id: &str) -> Option<&'static str> {
    BUILT_IN.iter().find(|(i, _)| *i == id).map(|(_, t)| *t)
}

/// The name a built-in config goes by in messages and reports: `<built-in>/ID.toml`.
pub fn built_in_name(id: &str) -> PathBuf {
    PathBuf::from(format!("<built-in>/{id}.toml"))
}

/// `configs/ID.toml` in the working directory.
pub fn local_path(id: &str) -> PathBuf {
    Path::new(LOCAL_DIR).join(format!("{id}.toml"))
}

/// The default config of ruleset `id`: `configs/ID.toml` in the working directory when it
/// exists, else the built-in copy. Errors: the local file cannot be read, or neither exists.
pub fn default_source(id: &str) -> Result<Source, ConfigError> {
    let local = local_path(id);
    if local.exists() {
        return Source::read(&local);
    }
    match built_in(id) {
        Some(text) => Ok(Source::from_text(built_in_name(id), text)),
        None => Source::read(&local),
    }
}

/// Whether ruleset `id` has a default config here: in `configs/` when the working directory
/// has that folder (a rules repository lists its rulesets by their files), else built in.
pub fn has_default(id: &str) -> bool {
    if Path::new(LOCAL_DIR).is_dir() { local_path(id).exists() } else { built_in(id).is_some() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_configs_are_the_shipped_files_and_errors_name_them() {
        for (id, text) in BUILT_IN {
            let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(local_path(id));
            assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "{id}");
        }
        let s = Source::from_text(built_in_name("guns-n-grenades"), built_in("guns-n-grenades").unwrap());
        let at = s.text.find("cost = 15").unwrap();
        let e = s.error_at(&(at..at + 1), "unit \"Riflemen\": cost must be ...");
        assert!(e.to_string().starts_with("<built-in>/guns-n-grenades.toml:"), "{e}");
        let line = s.text[..at].matches('\n').count() + 1;
        assert!(e.to_string().starts_with(&format!("<built-in>/guns-n-grenades.toml:{line}:1: unit")), "{e}");
    }
}
