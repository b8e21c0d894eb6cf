//! Config files: raw TOML → validated domain types, with errors that point at the text.
//!
//! Every ruleset reads its own TOML shape, but they share this plumbing: a [`Source`] (path and
//! text) turns byte spans into `line:col`; [`ConfigError`] renders as
//! `configs/guns-n-grenades.toml:41:8: unit "Snipers": atk must be an integer from -5 to 20,
//! got "five"`; [`Field`] readers check types and ranges of loosely typed values so the message
//! can name the unit and the key; [`Overrides`] carries `--set KEY=VALUE` pairs.

use std::ops::Range;
use std::path::{Path, PathBuf};

use toml::Spanned;

/// Where a config value came from: a place in a file, or a `--set` on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// 1-based line and column in the config file.
    File { path: PathBuf, line: usize, col: usize },
    /// `--set KEY=VALUE`.
    Override(String),
    /// No location known (e.g. a missing key: the error names the table instead).
    Nowhere { path: PathBuf },
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Origin::File { path, line, col } => write!(f, "{}:{line}:{col}", path.display()),
            Origin::Override(s) => write!(f, "--set {s}"),
            Origin::Nowhere { path } => write!(f, "{}", path.display()),
        }
    }
}

/// A config that cannot be used, with where and why. Exit code 2.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{origin}: {message}")]
pub struct ConfigError {
    pub origin: Origin,
    pub message: String,
}

/// A config value the validation refused, before its place is known: the dotted key it
/// belongs to (`duel.max_rounds`, `skirmish.points`, `units`) and the message, which names the
/// key as the reader knows it (`[duel] max_rounds must be 1 to 10000, got 0`).
/// [`Source::invalid`] turns it into a [`ConfigError`] at the `--set` that gave the value, or
/// at the value's `line:col` in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    pub key: String,
    pub message: String,
}

impl Invalid {
    /// A refusal of `key` (dotted: `SECTION.KEY`).
    pub fn new(key: impl Into<String>, message: impl Into<String>) -> Self {
        Invalid { key: key.into(), message: message.into() }
    }
}

/// Which ends of a range of config numbers are allowed, as messages and docs/config.md print it:
/// `1 to 10000` (both), `more than 0 and at most 200 in` (the top), `in (0, 0.5)` (neither),
/// `in [0, 1)` (the bottom).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Ends {
    Both,
    Top,
    Neither,
    Bottom,
}

/// Checks that `value` of dotted `key` (`skirmish.points`) lies between `lo` and `hi` with
/// `ends` included, `unit` (`" in"`, `" points"`, `""`) after the range in the message:
/// `[skirmish] points must be 10 to 10000 points, got 1e12`. NaN is never in range.
pub fn in_range<T: PartialOrd + std::fmt::Display + Copy>(
    key: &str,
    value: T,
    lo: T,
    hi: T,
    ends: Ends,
    unit: &str,
) -> Result<(), Invalid> {
    let ok = match ends {
        Ends::Both => value >= lo && value <= hi,
        Ends::Top => value > lo && value <= hi,
        Ends::Neither => value > lo && value < hi,
        Ends::Bottom => value >= lo && value < hi,
    };
    if ok {
        return Ok(());
    }
    let expected = match ends {
        Ends::Both => format!("{lo} to {hi}{unit}"),
        Ends::Top => format!("more than {lo} and at most {hi}{unit}"),
        Ends::Neither => format!("in ({lo}, {hi}){unit}"),
        Ends::Bottom => format!("in [{lo}, {hi}){unit}"),
    };
    Err(Invalid::new(key, format!("{} must be {expected}, got {value}", label(key))))
}

/// `[section] key` of a dotted `section.key` (a key without a section as is).
pub fn label(key: &str) -> String {
    match key.split_once('.') {
        Some((section, rest)) => format!("[{section}] {rest}"),
        None => key.to_string(),
    }
}

/// A config file's path and text.
#[derive(Debug, Clone)]
pub struct Source {
    pub path: PathBuf,
    pub text: String,
}

/// The most bytes pointsworth reads from one input file (config, army file, baseline, tally
/// file): far more than any of them holds, and a bound on what a wrong path (a device, a huge
/// file) costs.
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

/// Reads a text file of at most [`MAX_INPUT_BYTES`]; a longer one is an error (kind
/// `InvalidData`) saying so, read no further.
pub fn read_text(path: &Path) -> std::io::Result<String> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    if file.metadata()?.is_dir() {
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, "is a directory"));
    }
    let mut text = String::new();
    file.take(MAX_INPUT_BYTES + 1).read_to_string(&mut text)?;
    if text.len() as u64 > MAX_INPUT_BYTES {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("more than {} MiB: not an input of pointsworth", MAX_INPUT_BYTES >> 20),
        ));
    }
    Ok(text)
}

impl Source {
    /// Reads a config file. The error names the path and what went wrong.
    pub fn read(path: &Path) -> Result<Self, ConfigError> {
        let text = read_text(path).map_err(|e| ConfigError {
            origin: Origin::Nowhere { path: path.to_path_buf() },
            message: format!("cannot read config: {e}"),
        })?;
        Ok(Source { path: path.to_path_buf(), text })
    }

    /// A source held in memory (tests, embedded configs).
    pub fn from_text(path: impl Into<PathBuf>, text: impl Into<String>) -> Self {
        Source { path: path.into(), text: text.into() }
    }

    /// The origin of a byte offset: 1-based line and column (in characters).
    pub fn origin(&self, offset: usize) -> Origin {
        let offset = offset.min(self.text.len());
        let before = &self.text[..offset];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let col = before[line_start..].chars().count() + 1;
        Origin::File { path: self.path.clone(), line, col }
    }

    /// An error at a span of this file.
    pub fn error_at(&self, span: &Range<usize>, message: impl Into<String>) -> ConfigError {
        ConfigError { origin: self.origin(span.start), message: message.into() }
    }

    /// Checks the file's top-level `ruleset = "…"` key against the ruleset loading it; the
    /// error points at the value: `ruleset must be "gunplay" in this file, got "vsgmr"`.
    pub fn expect_ruleset(&self, ruleset: &Spanned<String>, id: &str) -> Result<(), ConfigError> {
        if ruleset.get_ref() == id {
            return Ok(());
        }
        Err(self
            .error_at(&ruleset.span(), format!("ruleset must be \"{id}\" in this file, got {:?}", ruleset.get_ref())))
    }

    /// The error of a refused value ([`Invalid`]) at the place the value came from: the last
    /// `--set KEY=VALUE` of its key, else its `line:col` in this file ([`Source::span_of`]),
    /// else the table it belongs to, else the file.
    pub fn invalid(&self, overrides: &Overrides, e: Invalid) -> ConfigError {
        if let Some(origin) = overrides.origin_of(&e.key) {
            return ConfigError { origin, message: e.message };
        }
        let path: Vec<&str> = e.key.split('.').collect();
        let span = (1..=path.len()).rev().find_map(|n| self.span_of(&path[..n]));
        match span {
            Some(span) => self.error_at(&span, e.message),
            None => self.error(e.message),
        }
    }

    /// The byte span of the value at `path` in this file: table keys, and array indices as
    /// decimal numbers (`["unit", "2", "cost"]`); `None` when the file does not hold it (or
    /// does not parse). A table's span is its header's.
    pub fn span_of(&self, path: &[&str]) -> Option<Range<usize>> {
        let doc = toml::de::DeTable::parse(&self.text).ok()?;
        let mut span = doc.span();
        let mut here = toml::de::DeValue::Table(doc.into_inner());
        for part in path {
            let next = match &here {
                toml::de::DeValue::Table(t) => t.iter().find(|(k, _)| k.get_ref() == part).map(|(_, v)| v.clone()),
                toml::de::DeValue::Array(a) => part.parse::<usize>().ok().and_then(|i| a.get(i).cloned()),
                _ => None,
            }?;
            span = next.span();
            here = next.into_inner();
        }
        Some(span)
    }

    /// The header of the table around byte `offset` (`[duel]`, `[[unit]]`), if any.
    fn table_at(&self, offset: usize) -> Option<String> {
        let offset = offset.min(self.text.len());
        let line_start = self.text[..offset].rfind('\n').map_or(0, |i| i + 1);
        self.text[..line_start]
            .lines()
            .rev()
            .map(str::trim)
            .find(|l| l.starts_with('['))
            .map(|l| l.split('#').next().unwrap_or(l).trim().to_string())
    }

    /// An error with no location in this file.
    pub fn error(&self, message: impl Into<String>) -> ConfigError {
        ConfigError { origin: Origin::Nowhere { path: self.path.clone() }, message: message.into() }
    }

    /// Deserializes the whole file, mapping TOML and serde errors to `file:line:col`. A value
    /// of the wrong type is named by its table and key: `[skirmish] table_width: invalid type:
    /// string "wide", expected f64`.
    pub fn parse<T: serde::de::DeserializeOwned>(&self) -> Result<T, ConfigError> {
        toml::from_str(&self.text).map_err(|e| {
            let message = e.message().trim().to_string();
            match e.span() {
                Some(span) => {
                    let message = match self.key_at(span.start) {
                        Some(key) if !message.contains(&key) => format!("{key}: {message}"),
                        _ if message == "duplicate key" => self.duplicate_key(&span),
                        _ => message,
                    };
                    self.error_at(&span, message)
                }
                None => self.error(message),
            }
        })
    }

    /// The `[table] key` whose value starts at byte `offset`, when that line reads `key = value`
    /// with the value at `offset`.
    fn key_at(&self, offset: usize) -> Option<String> {
        let offset = offset.min(self.text.len());
        let line_start = self.text[..offset].rfind('\n').map_or(0, |i| i + 1);
        let (key, _) = self.text[line_start..offset].split_once('=')?;
        let key = key.trim();
        if key.is_empty() || key.starts_with('#') || key.starts_with('[') {
            return None;
        }
        Some(match self.table_at(offset) {
            Some(t) => format!("{t} {key}"),
            None => key.to_string(),
        })
    }

    /// toml's "duplicate key" with the key (its span) and its table named:
    /// `duplicate key "max_rounds" in [duel]` (a table given twice: `duplicate table [duel]`).
    fn duplicate_key(&self, span: &Range<usize>) -> String {
        let text = self.text.get(span.clone()).unwrap_or("").trim();
        let line_start = self.text[..span.start.min(self.text.len())].rfind('\n').map_or(0, |i| i + 1);
        if self.text[line_start..].trim_start().starts_with('[') {
            let header = self.text[line_start..].lines().next().unwrap_or("").split('#').next().unwrap_or("");
            return format!("duplicate table {}: each table may be given once", header.trim());
        }
        let key = text.trim_matches('"');
        match self.table_at(span.start) {
            Some(t) => format!("duplicate key {key:?} in {t}: each key may be given once"),
            None => format!("duplicate key {key:?}: each key may be given once"),
        }
    }

    /// A 64-bit FNV-1a hash of the text, as 16 hex digits (the config hash in reports).
    pub fn hash_hex(&self) -> String {
        format!("{:016x}", crate::seed::stream_id(&[&self.text]))
    }
}

/// A loosely typed value with its origin, checked into a domain value by the readers below.
#[derive(Debug, Clone)]
pub struct Field {
    pub key: String,
    pub value: toml::Value,
    pub origin: Origin,
}

impl Field {
    /// Wraps a spanned TOML value from `source`.
    pub fn from_spanned(source: &Source, key: &str, v: &Spanned<toml::Value>) -> Self {
        Field { key: key.to_string(), value: v.get_ref().clone(), origin: source.origin(v.span().start) }
    }

    fn err(&self, context: &str, expected: &str) -> ConfigError {
        ConfigError {
            origin: self.origin.clone(),
            message: format!("{context}{} must be {expected}, got {}", self.key, show(&self.value)),
        }
    }

    /// An integer in `range`. `context` prefixes the message, e.g. `unit "Snipers": `.
    pub fn int(&self, context: &str, range: std::ops::RangeInclusive<i64>) -> Result<i64, ConfigError> {
        let expected = format!("an integer from {} to {}", range.start(), range.end());
        match &self.value {
            toml::Value::Integer(i) if range.contains(i) => Ok(*i),
            _ => Err(self.err(context, &expected)),
        }
    }

    /// A number (integer or float) in `[lo, hi]`.
    pub fn number(&self, context: &str, lo: f64, hi: f64, unit: &str) -> Result<f64, ConfigError> {
        let x = match &self.value {
            toml::Value::Integer(i) => *i as f64,
            toml::Value::Float(f) => *f,
            _ => f64::NAN,
        };
        if x.is_finite() && x >= lo && x <= hi {
            Ok(x)
        } else {
            Err(self.err(context, &format!("a number from {lo} to {hi}{unit}")))
        }
    }

    /// A non-empty string.
    pub fn string(&self, context: &str) -> Result<String, ConfigError> {
        match &self.value {
            toml::Value::String(s) if !s.trim().is_empty() => Ok(s.clone()),
            _ => Err(self.err(context, "a non-empty string")),
        }
    }

    /// One of `choices` (compared as kebab-case ids).
    pub fn choice<'a>(&self, context: &str, choices: &[&'a str]) -> Result<&'a str, ConfigError> {
        if let toml::Value::String(s) = &self.value {
            if let Some(c) = choices.iter().find(|c| id_of(c) == id_of(s)) {
                return Ok(c);
            }
        }
        Err(self.err(context, &format!("one of {}", choices.join(", "))))
    }

    /// A list of strings each one of `choices`.
    pub fn choices<'a>(&self, context: &str, choices: &[&'a str]) -> Result<Vec<&'a str>, ConfigError> {
        let expected = format!("a list of: {}", choices.join(", "));
        let toml::Value::Array(items) = &self.value else {
            return Err(self.err(context, &expected));
        };
        items
            .iter()
            .map(|it| {
                let f = Field { key: self.key.clone(), value: it.clone(), origin: self.origin.clone() };
                f.choice(context, choices).map_err(|_| f.err(context, &expected))
            })
            .collect()
    }
}

fn show(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => format!("{s:?}"),
        other => other.to_string(),
    }
}

/// The kebab-case id of a name: lower case, runs of non-alphanumerics become one `-`.
/// `"Heavy Infantry"` → `heavy-infantry`; `"LMG Unit"` → `lmg-unit`.
pub fn id_of(name: &str) -> String {
    let mut out = String::new();
    let mut dash = false;
    for c in name.chars() {
        if c.is_alphanumeric() {
            if dash && !out.is_empty() {
                out.push('-');
            }
            dash = false;
            out.extend(c.to_lowercase());
        } else if c != '\'' {
            dash = true;
        }
    }
    out
}

/// The id ([`id_of`]) of a new name in a list of `what`s (units, loadouts...), checked against
/// the `(name, id)` pairs listed before it: a name without a letter or digit has no id (`"!!!"`
/// and `"???"` would both be `""`), and two names with one id (`"Riflemen"`, `"riflemen"`)
/// could not be told apart on the command line. The message names both.
pub fn new_id<'a>(
    what: &str,
    name: &str,
    taken: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Result<String, String> {
    let id = id_of(name);
    if id.is_empty() {
        return Err(format!("{what} name {name:?} has no letter or digit, so no id to name it by on the command line"));
    }
    match taken.into_iter().find(|(_, other)| *other == id) {
        Some((other, _)) if other == name => Err(format!("{what} {name:?} is listed twice")),
        Some((other, _)) => Err(format!(
            "{what} {name:?} and {what} {other:?} have the same id {id:?} (names are matched ignoring case and \
             punctuation): rename one"
        )),
        None => Ok(id),
    }
}

/// The `key = value` pairs of a serde-typed `[rules]` table, values without quotes: the rule
/// variants in force, as reports print them.
pub fn variants_of<T: serde::Serialize>(rules: &T) -> Vec<(String, String)> {
    let table = toml::Table::try_from(rules).expect("a rules table serializes to TOML");
    table.into_iter().map(|(k, v)| (k, v.to_string().trim_matches('"').to_string())).collect()
}

/// `--set KEY=VALUE` overrides, in command-line order.
#[derive(Debug, Clone, Default)]
pub struct Overrides(pub Vec<(String, String)>);

impl Overrides {
    /// Parses `KEY=VALUE` strings; the error says which one is malformed.
    pub fn parse(items: &[String]) -> Result<Self, ConfigError> {
        let mut out = Vec::new();
        for it in items {
            let Some((k, v)) = it.split_once('=') else {
                return Err(ConfigError {
                    origin: Origin::Override(it.clone()),
                    message: "expected KEY=VALUE, e.g. --set rules.fast_shot=both_dice".into(),
                });
            };
            out.push((k.trim().to_string(), v.trim().to_string()));
        }
        Ok(Overrides(out))
    }

    /// The value of an override as TOML: a number, boolean, array or quoted string if it
    /// parses as one, else the bare text as a string (`both_dice` → `"both_dice"`).
    pub fn toml_value(raw: &str) -> toml::Value {
        let doc = format!("v = {raw}");
        match toml::from_str::<toml::Table>(&doc) {
            Ok(mut t) => t.remove("v").unwrap_or_else(|| toml::Value::String(raw.to_string())),
            Err(_) => toml::Value::String(raw.to_string()),
        }
    }

    /// Applies the overrides whose key starts with `section.` to a serde-typed section
    /// (e.g. `[rules]`), by a round trip through a TOML table. Unknown keys and bad values
    /// fail with the section type's own serde message.
    pub fn apply_section<T>(&self, section: &str, value: &mut T) -> Result<(), ConfigError>
    where
        T: serde::Serialize + serde::de::DeserializeOwned,
    {
        let prefix = format!("{section}.");
        for (k, v) in &self.0 {
            let Some(field) = k.strip_prefix(&prefix) else {
                continue;
            };
            let origin = Origin::Override(format!("{k}={v}"));
            let mut table = toml::Table::try_from(&*value)
                .map_err(|e| ConfigError { origin: origin.clone(), message: e.to_string() })?;
            table.insert(field.to_string(), Self::toml_value(v));
            *value = table.try_into().map_err(|e: toml::de::Error| ConfigError {
                origin: origin.clone(),
                message: format!("[{section}] {}", e.message().trim()),
            })?;
        }
        Ok(())
    }

    /// Where the value of dotted `key` came from, if an override set it: the last `--set` of
    /// that key (an override of a whole array element, `KEY=[…]`, counts for the array).
    pub fn origin_of(&self, key: &str) -> Option<Origin> {
        self.0.iter().rev().find(|(k, _)| k == key).map(|(k, v)| Origin::Override(format!("{k}={v}")))
    }

    /// Fails on any override whose first key part is not in `sections`.
    pub fn check_sections(&self, sections: &[&str]) -> Result<(), ConfigError> {
        for (k, v) in &self.0 {
            let head = k.split('.').next().unwrap_or("");
            if !sections.contains(&head) || !k.contains('.') {
                return Err(ConfigError {
                    origin: Origin::Override(format!("{k}={v}")),
                    message: format!(
                        "unknown key {k:?}; keys look like SECTION.KEY with SECTION one of: {}",
                        sections.join(", ")
                    ),
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_kebab_case() {
        assert_eq!(id_of("Heavy Infantry"), "heavy-infantry");
        assert_eq!(id_of("LMG Unit"), "lmg-unit");
        assert_eq!(id_of("  Medics "), "medics");
        assert_eq!(id_of("Guns 'N Grenades"), "guns-n-grenades");
    }

    #[test]
    fn offsets_become_line_and_column() {
        let s = Source::from_text("x.toml", "a = 1\nbb = \"five\"\n");
        assert_eq!(s.origin(11), Origin::File { path: "x.toml".into(), line: 2, col: 6 });
    }

    #[test]
    fn override_values_parse_as_toml_or_bare_strings() {
        assert_eq!(Overrides::toml_value("12.5"), toml::Value::Float(12.5));
        assert_eq!(Overrides::toml_value("both_dice"), toml::Value::String("both_dice".into()));
        assert_eq!(Overrides::toml_value("true"), toml::Value::Boolean(true));
    }

    #[test]
    fn field_errors_name_the_key_and_the_bad_value() {
        let f = Field {
            key: "atk".into(),
            value: toml::Value::String("five".into()),
            origin: Origin::File { path: "g.toml".into(), line: 41, col: 8 },
        };
        let e = f.int("unit \"Snipers\": ", -5..=20).unwrap_err();
        assert_eq!(e.to_string(), "g.toml:41:8: unit \"Snipers\": atk must be an integer from -5 to 20, got \"five\"");
    }
}
