//! The Grunt Factor's ruleset lint: printed values that look like misprints, stats no rule
//! uses and entries the rules cannot resolve (`pointsworth rules grunt-factor`, the report's
//! "Ruleset lint").
//!
//! Why a lint: the rulebook is a draft (its Flare Gun's special rule reads "natte
//! halløjsa!!!!!!!!!!!! XXX"), and pointsworth uses printed values as printed (RULINGS.md). The
//! checks are generic where they can be (a weapon's damage or shots that break the pattern of
//! its own row, a stat column no rule reads, an armory entry missing), so an edited config is
//! linted too.

use crate::analysis::LintFinding;
use crate::rulesets::grunt_factor::{BAND_NAMES, GruntFactor};

fn finding(subject: String, finding: String, source: &str) -> LintFinding {
    LintFinding { subject, finding, source: format!("The Grunt Factor, {source}") }
}

/// Every finding, in rulebook order: soldier table, specialists, armory.
pub fn lint(r: &GruntFactor) -> Vec<LintFinding> {
    let mut out = Vec::new();
    // Stats no rule uses.
    let st: Vec<String> = r.qualities.iter().map(|q| format!("{} {}", q.name, q.st)).collect();
    out.push(finding(
        "ST (strength)".into(),
        format!("printed for every quality ({}) but no rule reads it; ignored", st.join(", ")),
        "Basic soldiers",
    ));
    out.push(finding(
        "S (size)".into(),
        "printed (2 for every quality) but no rule reads it; ignored".into(),
        "Basic soldiers",
    ));
    // Specialists named by the unit configuration with no armory entry.
    for (spec, what) in [("GL", "Grenade Launcher"), ("RL", "Rocket Launcher")] {
        let known = r.weapons.iter().any(|w| crate::config::id_of(&w.name) == crate::config::id_of(what));
        if !known {
            out.push(finding(
                format!("{spec} specialist"),
                format!(
                    "allowed in squads (standard equipment: {what}) but the armory has no {what} entry: not modeled"
                ),
                "Normal unit configuration, Standard equipment",
            ));
        }
    }
    out.push(finding(
        "FO, Medic, Sniper specialists".into(),
        "listed with no rules text (Medic, Sniper) or only for artillery (FO); the Sniper Rifle is modeled as a soldier's weapon".into(),
        "Specialists",
    ));
    // Armory outliers: a damage far below the rest of its own row, shots marked where the band
    // cannot be fired, a band with a hit value but no damage.
    for w in &r.weapons {
        let dams: Vec<i8> = w.bands.iter().filter_map(|b| b.damage).collect();
        let max = dams.iter().copied().max().unwrap_or(0);
        for (k, b) in w.bands.iter().enumerate() {
            if let Some(dam) = b.damage {
                if b.hit.is_some() && max > 0 && dam * 2 < max {
                    out.push(finding(
                        format!("{}, {} range", w.name, BAND_NAMES[k]),
                        format!(
                            "Dam {dam} while the rest of the row is up to {max}: looks like a misprint (a save of 10 + A − {dam} always or nearly always passes); used as printed"
                        ),
                        "Armory",
                    ));
                }
            }
            if b.hit.is_some() != b.damage.is_some() {
                out.push(finding(
                    format!("{}, {} range", w.name, BAND_NAMES[k]),
                    "hit and damage disagree on whether the band can be fired (one is \"-\"); the band is not fired"
                        .into(),
                    "Armory",
                ));
            }
        }
        // Every other direct-fire row hits at least as well at point blank as at short range.
        if let (Some(pb), Some(sr)) = (w.bands[1].hit, w.bands[2].hit) {
            if pb < sr && w.bands[1].damage.is_some() {
                out.push(finding(
                    w.name.clone(),
                    format!(
                        "hits worse at point blank ({pb:+}, x{}) than at short range ({sr:+}, x{}), unlike every other weapon: possibly shifted one column; used as printed",
                        w.bands[1].shots, w.bands[2].shots
                    ),
                    "Armory",
                ));
            }
        }
    }
    out.push(finding(
        "To-hit example vs Armory".into(),
        "the example gives the assault rifle +2 at short range and \"covered more than 50%\" −1 RC; the Armory prints +1 at short range (+2 at point blank) and the modifier table −2 for 50–75% cover: the tables are used".into(),
        "To Hit your target",
    ));
    out.push(finding(
        "Flare Gun".into(),
        "no damage in any band and a placeholder special rule (\"natte halløjsa!!!!!!!!!!!! XXX\"): not modeled".into(),
        "Armory, Flare Gun",
    ));
    out.push(finding(
        "Close combat columns".into(),
        "every armory weapon's PB band is at least as good as its CC band, and CC never exceeds RC: the default tactic never initiates close combat".into(),
        "Armory, Close Combat",
    ));
    out.push(finding(
        "Morale: \"the unit loose more than 50%\"".into(),
        "read as: a check when the squad falls below half its original size (once)".into(),
        "Morale checks",
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::grunt_factor::tests::ruleset;

    #[test]
    fn the_lint_lists_the_misprints_unused_stats_and_missing_specialists() {
        let l = lint(&ruleset());
        let has = |s: &str, f: &str| l.iter().any(|x| x.subject.contains(s) && x.finding.contains(f));
        assert!(has("Assault Rifle, long range", "Dam 0"), "{l:#?}");
        assert!(has("ST (strength)", "no rule reads it"));
        assert!(has("S (size)", "no rule reads it"));
        assert!(has("GL specialist", "no Grenade Launcher"));
        assert!(has("RL specialist", "no Rocket Launcher"));
        assert!(has("Mounted HMG", "point blank"));
        // No false alarm on a regular row.
        assert!(!l.iter().any(|x| x.subject.starts_with("LMG")), "{l:#?}");
    }
}
