//! How numbers and names are printed, shared by the Markdown report and the charts, so a
//! value reads the same in a table and on a chart. The pure number formats live in
//! [`crate::format`]; this module adds the ones that look units up in an analysis.

use crate::analysis::RulesetAnalysis;
use crate::rulesets::UnitInfo;

pub use crate::format::{cost, md_cell, number, pct, pct_cell, pct_interval, ratio, thousands};

/// `Snipers (35)`: the unit's name with its cost, as the charts label it.
pub fn unit_label(u: &UnitInfo) -> String {
    format!("{} ({})", u.name, cost(u.cost))
}

/// The unit with `id`, if the analysis lists it.
pub fn unit<'a>(a: &'a RulesetAnalysis, id: &str) -> Option<&'a UnitInfo> {
    a.units.iter().find(|u| u.id == id)
}

/// The display name of unit `id`, or the id itself when the analysis does not list it.
pub fn unit_name<'a>(a: &'a RulesetAnalysis, id: &'a str) -> &'a str {
    unit(a, id).map_or(id, |u| u.name.as_str())
}

/// `Snipers (35)` for unit `id`, or the id itself when the analysis does not list it.
pub fn unit_label_for(a: &RulesetAnalysis, id: &str) -> String {
    unit(a, id).map_or_else(|| id.to_string(), unit_label)
}
