//! The Grunt Factor's study, the "Soldier quality and loadouts" section: is each quality worth its
//! points per model (Untrained 10 … Elite 25), and what is each unpriced loadout worth?
//!
//! Why a section of its own: the generic tables price whole squads; a designer asks about the
//! book's per-model prices. A squad of n models costs n × quality + CO, so its fair cost F
//! (from the balance solver, with its 95% interval) implies a fair price per model of
//! (F − CO) / n; the book price is fair when it lies inside that interval.

use std::fmt::Write;

use serde::{Deserialize, Serialize};

use super::GruntFactor;
use crate::rulesets::engine::Findings;
use crate::rulesets::study::Study;
use crate::stats::Estimate;

/// One squad of the cost list as the section needs it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SquadInfo {
    /// Unit id, e.g. `elite-rifles`.
    pub unit: String,
    /// Soldier quality, e.g. "Elite".
    pub quality: String,
    /// The book's points per model of that quality.
    pub quality_cost: f64,
    /// Models in the squad (Sergeant included).
    pub models: u32,
    /// Weapons of the squad, e.g. "Assault Rifle" or "Assault Rifle + HMG".
    pub loadout: String,
}

/// The squads of a Grunt Factor cost list and the CO bonus, for the report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Squads {
    pub co_cost: f64,
    pub squads: Vec<SquadInfo>,
}

/// The study: the squads' make-up against the fair costs and efficiencies of `a`.
pub fn studies(r: &GruntFactor, a: &Findings) -> Vec<Study> {
    let info = squads(r);
    vec![Study {
        title: "Soldier quality and loadouts".to_string(),
        markdown: section(a, &info),
        tables: Vec::new(),
        charts: Vec::new(),
        suggested_costs_note: None,
    }]
}

/// The squads of the cost list and the CO bonus.
pub fn squads(r: &GruntFactor) -> Squads {
    let squads = r
        .book
        .units
        .iter()
        .zip(&r.profiles)
        .map(|(u, p)| {
            let q = &r.qualities[p.quality];
            let mut names: Vec<&str> = Vec::new();
            for &w in &p.weapons {
                let n = r.weapons[w as usize].name.as_str();
                if !names.contains(&n) {
                    names.push(n);
                }
            }
            SquadInfo {
                unit: u.id.clone(),
                quality: q.name.clone(),
                quality_cost: q.cost,
                models: p.weapons.len() as u32,
                loadout: names.join(" + "),
            }
        })
        .collect();
    Squads { co_cost: r.co_cost, squads }
}

fn interval(e: &Estimate, digits: usize) -> String {
    format!("{:.d$} [{:.d$}, {:.d$}]", e.value, e.lo, e.hi, d = digits)
}

/// The Markdown section: the squads of `info` with the fair costs and efficiencies of `a`.
fn section(a: &Findings, info: &Squads) -> String {
    let mut o = String::new();
    o.push_str("## Soldier quality and loadouts\n\n");
    let _ = writeln!(
        o,
        "Each unit is a squad (1 Sergeant + soldiers) of one quality and loadout, priced by the book: \
         models × quality cost + {} for the Sergeant (CO). The fair cost F of the squad (derived cost \
         with the anchor fixed, else its fair cost; 95% interval) implies a fair price per model of \
         (F − {}) / models. The book price is *fair* when it lies inside that interval. Efficiency is \
         the points-matched score against the field at book prices (0.5 = even).\n",
        info.co_cost, info.co_cost
    );
    o.push_str(
        "| squad | quality | loadout | models | book price | efficiency | fair squad cost | fair per model | book per model | verdict |\n\
         |---|---|---|---|---|---|---|---|---|---|\n",
    );
    let mut answers = Vec::new();
    for s in &info.squads {
        let eff = a.efficiency.iter().find(|(unit, _)| unit.id == s.unit);
        let row = a.fair_costs.and_then(|f| f.rows.iter().find(|r| r.unit.id == s.unit));
        let fair = row.and_then(|r| r.derived_cost.or(r.fair_cost));
        let book = eff.map(|(unit, _)| unit.cost).unwrap_or(f64::NAN);
        let per = fair.map(|f| Estimate {
            value: (f.value - info.co_cost) / s.models as f64,
            lo: (f.lo - info.co_cost) / s.models as f64,
            hi: (f.hi - info.co_cost) / s.models as f64,
        });
        let book_per = (book - info.co_cost) / s.models as f64;
        let is_anchor = a.fair_costs.and_then(|f| f.anchor.as_deref()) == Some(s.unit.as_str());
        let verdict = match per {
            _ if is_anchor => "anchor (held at its book price)".to_string(),
            None => "no fair cost found".to_string(),
            Some(p) if p.hi < book_per => "overpriced".to_string(),
            Some(p) if p.lo > book_per => "underpriced".to_string(),
            Some(_) => "fair".to_string(),
        };
        let _ = writeln!(
            o,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            s.unit,
            s.quality,
            s.loadout,
            s.models,
            book,
            eff.map(|(_, e)| interval(e, 3)).unwrap_or_else(|| "-".into()),
            fair.map(|f| interval(&f, 1)).unwrap_or_else(|| "-".into()),
            per.map(|p| interval(&p, 1)).unwrap_or_else(|| "-".into()),
            book_per,
            verdict
        );
        if s.loadout == "Assault Rifle" {
            if let Some(p) = per {
                answers.push(format!(
                    "- **Is {} worth {}?** A fair price per model is {} points: {}.",
                    s.quality,
                    s.quality_cost,
                    interval(&p, 1),
                    match verdict.as_str() {
                        "fair" => "yes, the book price is inside the interval",
                        v if v.starts_with("anchor") => {
                            "by definition: it is the anchor the other prices are derived from"
                        }
                        "overpriced" => "no, it is overpriced",
                        _ => "it is underpriced: worth more than the book asks",
                    }
                ));
            }
        }
    }
    o.push('\n');
    for l in answers {
        o.push_str(&l);
        o.push('\n');
    }
    o.push('\n');
    o
}
