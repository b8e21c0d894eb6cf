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

/// The value of config key `key` (a dotted path such as `skirmish.trials`) in the config
/// that applies to each ruleset here (`configs/ID.toml`, else the built-in copy), for help
/// text: `guns-n-grenades 2000, gunplay 2000, …`, or `2000 for every ruleset` when they agree.
/// A ruleset whose config lacks the key, or whose local file does not read or parse, is left
/// out (help must print whatever the working directory holds); "" when none has it.
pub fn values_of(key: &str) -> String {
    let mut values: Vec<(&str, String)> = Vec::new();
    for (id, _) in BUILT_IN {
        let Ok(source) = default_source(id) else { continue };
        let Ok(doc) = source.text.parse::<toml::Table>() else { continue };
        let mut parts = key.split('.');
        let first = parts.next().and_then(|k| doc.get(k));
        let Some(value) = parts.try_fold(first, |v, k| Some(v?.get(k))).flatten() else { continue };
        let text = match value {
            toml::Value::String(s) => s.clone(),
            toml::Value::Float(f) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{f:.0}"),
            v => v.to_string(),
        };
        values.push((id, text));
    }
    match values.first() {
        None => String::new(),
        Some((_, v)) if values.len() == BUILT_IN.len() && values.iter().all(|(_, x)| x == v) => {
            format!("{v} for every ruleset")
        }
        Some(_) => values.iter().map(|(id, v)| format!("{id} {v}")).collect::<Vec<_>>().join(", "),
    }
}

/// A flag's help with the default it takes from config key `key`: `{what} (default: the
/// config's {key}; here: {values_of(key)})`.
pub fn help_with_default(what: &str, key: &str) -> String {
    match values_of(key) {
        v if v.is_empty() => format!("{what} (default: the config's {key})"),
        v => format!("{what} (default: the config's {key}; here: {v})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The help's defaults are read from the configs: the shipped GnG plays 2000 skirmishes.
    #[test]
    fn help_names_each_rulesets_default_from_its_config() {
        let v = values_of("skirmish.trials");
        assert!(v.contains("guns-n-grenades 2000"), "{v}");
        assert_eq!(values_of("no.such.key"), "");
        let h = help_with_default("Games per pairing", "skirmish.trials");
        assert!(h.starts_with("Games per pairing (default: the config's skirmish.trials; here: "), "{h}");
    }

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
