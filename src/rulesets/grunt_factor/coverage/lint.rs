//! The Grunt Factor's ruleset lint: printed values that look like misprints, stats no rule
//! uses and entries the rules cannot resolve (`pointsworth rules grunt-factor`, the report's
//! "Ruleset lint").
//!
//! Why a lint: the rulebook is a draft (its Flare Gun's special rule reads "natte
//! halløjsa!!!!!!!!!!!! XXX"), and pointsworth uses printed values as printed (RULINGS.md). The
//! checks are generic where they can be (a weapon's damage or shots that break the pattern of
//! its own row, a stat column no rule reads, an armory entry missing), so an edited config is
//! linted too.

use crate::rulesets::LintFinding;
use crate::rulesets::grunt_factor::rules::p_kill_per_hit;
use crate::rulesets::grunt_factor::{BAND_NAMES, BandStats, GruntFactor, Weapon};

/// Armory rows the rules do not model (indirect fire, templates, crews: see the coverage
/// table), as printed per band CC, PB, SR, MR, LR, ER: hit column, damage column. The lint
/// checks them with the same generic row checks as the configured weapons.
const BOOK_ONLY_ROWS: [(&str, [&str; 6], [&str; 6]); 5] = [
    ("50mm Mortar", ["-", "-", "0", "-2", "-3", "-4"], ["-", "-", "9(x2)", "9(x2)", "9(x2)", "11"]),
    ("80mm Mortar", ["-", "-", "0", "-2", "-3", "-4"], ["-", "-", "11(x2)", "11(x2)", "11(x2)", "11"]),
    ("120mm Mortar", ["-", "-", "0", "-2", "-3", "-4"], ["-", "-", "12(x3)", "12(x3)", "12(x3)", "12(x2)"]),
    ("IG7.5 Infantry Gun", ["-", "-", "-5", "-4", "-3", "-3"], ["-", "-", "11(x3)", "11(x3)", "11(x3)", "11(x3)"]),
    ("Anti tank Gun", ["-", "-", "-5", "-4", "-3", "-3"], ["-", "-", "11(x3)", "11(x3)", "11(x3)", "11(x3)"]),
];

/// "Jump" and "Climb": the falling-damage tables as printed, (from cm, to cm, Dam).
const JUMP_TABLE: [(u8, u8, &str); 6] =
    [(5, 9, "4"), (9, 18, "7"), (18, 27, "10(x2)"), (27, 36, "13(x2)"), (36, 45, "16(x3)"), (45, 54, "19(x3)")];
const CLIMB_TABLE: [(u8, u8, &str); 6] =
    [(0, 9, "4"), (9, 18, "7"), (18, 27, "10(x2)"), (27, 36, "13(x2)"), (36, 45, "16(x3)"), (45, 54, "19(x3)")];

/// A printed armory entry: `"+3(x3)"` → (Some(3), 3); `"-"` → (None, 0).
fn entry(s: &str) -> (Option<i8>, u8) {
    let (v, n) = match s.split_once("(x") {
        Some((v, n)) => (v, n.trim_end_matches(')').parse().unwrap_or(1)),
        None => (s, 1),
    };
    match v.trim_start_matches('+').parse::<i8>() {
        Ok(x) => (Some(x), n),
        Err(_) => (None, 0),
    }
}

/// A [`BOOK_ONLY_ROWS`] row as a [`Weapon`].
fn book_row(name: &str, hit: &[&str; 6], dam: &[&str; 6]) -> Weapon {
    let bands = std::array::from_fn(|k| {
        let ((hit, shots), (damage, saves)) = (entry(hit[k]), entry(dam[k]));
        BandStats { hit, shots, damage, saves }
    });
    Weapon { name: name.to_string(), bands, specialist: false }
}

/// A printed damage with its `(xN)`: `11`, `9(x2)`.
fn dam_text(b: &BandStats) -> String {
    match (b.damage, b.saves) {
        (Some(d), 1) => format!("{d}"),
        (Some(d), n) => format!("{d}(x{n})"),
        (None, _) => "-".into(),
    }
}

/// The share of hits that remove a model of each quality at `dam` with `saves` saves
/// ("To damage your target": a save is d20 ≤ 10 + A − Dam), e.g. "Untrained (A 5) 25%".
fn kill_chances(r: &GruntFactor, dam: i8, saves: u8) -> String {
    let each: Vec<String> = r
        .qualities
        .iter()
        .map(|q| format!("{} (A {}) {:.0}%", q.name, q.a, 100.0 * p_kill_per_hit(q.a, dam, saves)))
        .collect();
    each.join(", ")
}

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
                            "Dam {dam} while the rest of the row is up to {max}: looks like a misprint; used as printed. A save of d20 ≤ 10 + A − {dam} still fails on a roll above it, so each hit removes {}",
                            kill_chances(r, dam, b.saves)
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
    // Rows the rules do not model, and rows copied from another.
    let book: Vec<Weapon> = BOOK_ONLY_ROWS.iter().map(|(n, h, d)| book_row(n, h, d)).collect();
    let all: Vec<&Weapon> = r.weapons.iter().chain(&book).collect();
    for (x, w) in all.iter().enumerate() {
        let modeled = x < r.weapons.len();
        let status = if modeled { "used as printed" } else { "not modeled (see the coverage table)" };
        // Damage falls or stays level with range in every other row: a farther band above
        // every nearer one breaks the pattern.
        for k in 2..6 {
            let b = w.bands[k];
            let nearer = w.bands[..k].iter().filter(|n| n.damage.is_some()).max_by_key(|n| n.damage);
            if let (Some(dam), Some(n)) = (b.damage, nearer) {
                if dam > n.damage.unwrap_or(0) {
                    let same: Vec<&str> =
                        all.iter().filter(|o| o.name != w.name && o.bands[k] == b).map(|o| o.name.as_str()).collect();
                    let like = if same.is_empty() {
                        String::new()
                    } else {
                        format!(" (the {} prints the same entry there)", same.join(", "))
                    };
                    out.push(finding(
                        format!("{}, {} range", w.name, BAND_NAMES[k]),
                        format!(
                            "Dam {} while every nearer band prints at most {}: the only damage that rises with range{like}, possibly copied; per hit it removes {} against {} nearer; {status}",
                            dam_text(&b),
                            dam_text(n),
                            kill_chances(r, dam, b.saves),
                            kill_chances(r, n.damage.unwrap_or(0), n.saves)
                        ),
                        &format!("Armory, {}", w.name),
                    ));
                }
            }
        }
        if let Some(first) = all[..x].iter().find(|o| o.bands == w.bands) {
            out.push(finding(
                w.name.clone(),
                format!(
                    "every band's hit and damage (with their (xN)) repeat the {} row: likely copied; {status}",
                    first.name
                ),
                &format!("Armory, {}, {}", first.name, w.name),
            ));
        }
    }
    // "Jump" and "Climb" print one falling-damage table with different height bands.
    let differ: Vec<String> = JUMP_TABLE
        .iter()
        .zip(&CLIMB_TABLE)
        .filter(|(j, c)| j != c)
        .map(|(j, c)| format!("Jump {}-{} cm Dam {} vs Climb {}-{} cm Dam {}", j.0, j.1, j.2, c.0, c.1, c.2))
        .collect();
    if !differ.is_empty() {
        out.push(finding(
            "Jump / Climb damage tables".into(),
            format!(
                "the same falling damage with different height bands ({}): a fall under 5 cm costs Dam 4 from a climb, nothing from a jump; not modeled (no heights on the table)",
                differ.join("; ")
            ),
            "Jump, Climb",
        ));
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
        // "Dam 0" still kills: a save of d20 ≤ 10 + A fails on 16–20 for A 5 ... on 20 for A 9.
        assert!(
            has(
                "Assault Rifle, long range",
                "Untrained (A 5) 25%, Green (A 6) 20%, Regular (A 7) 15%, Veteran (A 8) 10%, Elite (A 9) 5%"
            ),
            "{l:#?}"
        );
        assert!(!l.iter().any(|x| x.finding.contains("nearly always passes")));
        // "Armory, 50mm Mortar": extreme range Dam 11 against 9(x2) in the rest of its row (the
        // 80mm's extreme entry); per hit against a Regular (A 7): 70% against 84%.
        assert!(has("50mm Mortar, extreme range", "Dam 11 while every nearer band prints at most 9(x2)"), "{l:#?}");
        assert!(has("50mm Mortar, extreme range", "the 80mm Mortar prints the same entry"));
        assert!(has("50mm Mortar, extreme range", "Regular (A 7) 70%"));
        assert!(has("50mm Mortar, extreme range", "Regular (A 7) 84%"));
        assert_eq!(l.iter().filter(|x| x.finding.contains("rises with range")).count(), 1, "{l:#?}");
        // "Anti tank Gun" repeats the "IG7.5 Infantry Gun" row.
        assert!(has("Anti tank Gun", "repeat the IG7.5 Infantry Gun row"), "{l:#?}");
        assert_eq!(l.iter().filter(|x| x.finding.contains("likely copied")).count(), 1, "{l:#?}");
        // "Jump" 5-9 cm against "Climb" 0-9 cm, the rest the same.
        assert!(has("Jump / Climb", "(Jump 5-9 cm Dam 4 vs Climb 0-9 cm Dam 4)"), "{l:#?}");
        // No false alarm on a regular row.
        assert!(!l.iter().any(|x| x.subject.starts_with("LMG")), "{l:#?}");
    }
}
