//! Attribute prices (issue item 5): what each attribute of the points formula is worth in play.
//!
//! For each attribute, a *base* figure that can use it (a troop; a troop with a distance
//! attack for attributes that improve distance attacks or are only worth something against
//! them; a troop in light armor for attributes that act on armor rolls) and the same figure
//! with the attribute. The fair price is the added cost at which a points-matched force of the
//! figures with it is even (score 0.5) against a force of the same figures without it: the
//! fair-cost solver's bisection ([`Engine::fair_cost_of`]) on a two-unit
//! ruleset, the base held at its book cost, common random numbers across prices, and the
//! interval of the solver (delta method through the local slope plus the final bracket). The
//! fair price is that fair cost minus the base's cost.
//!
//! Why forces of copies: it isolates the attribute. A trait that pays off only beside other
//! figures (Support, Inspiration, Summon) or on terrain (Flight, Stealth in cover) is priced
//! here only by what it does in a mirror fight on open ground; the report says so.

use indicatif::ProgressBar;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::rulesets::engine::{BalanceSettings, Engine};
use crate::rulesets::vsgmr::Vsgmr;
use crate::rulesets::vsgmr::coverage::audit::ArmyAudit;
use crate::rulesets::vsgmr::rules::figure::{Armor, Figure, Kind, LEVELS, Power, Trait};
use crate::stats::{CONFIDENCE, Estimate, normal};

/// One attribute's row of the price table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AttributePrice {
    /// The attribute, e.g. "Sharpshooter" or "Major Super-Fight".
    pub attribute: String,
    /// The base figure it was added to, e.g. "troop guy, Distance attack".
    pub base: String,
    /// The book's price (points) and the base figure's cost.
    pub book: f64,
    pub base_cost: f64,
    /// Fair price (points added to the base) with its 95% interval; `None` if no price in the
    /// searched range (a quarter to four times the figure's book cost) makes the forces even.
    pub fair: Option<Estimate>,
    /// Score of the force with the attribute at the book price against the base force, 95%.
    pub score_at_book: Estimate,
    /// Caveats (why there is no fair price; what a mirror fight cannot price).
    pub note: String,
}

/// The attribute-price study.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AttributePrices {
    pub seed: u64,
    /// Points per side, start distance (inches), fixed trials per price.
    pub budget: f64,
    pub distance: f64,
    pub trials: u64,
    pub rows: Vec<AttributePrice>,
}

/// Everything the report's VSGMR section shows beyond the generic sections.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VsgmrAnalysis {
    pub audit: Vec<ArmyAudit>,
    pub prices: AttributePrices,
    /// The Skirmish round robin and random armies (`[skirmish]`).
    #[serde(default)]
    pub skirmish: Option<crate::rulesets::vsgmr::study::round_robin::VsgmrSkirmish>,
}

/// One attribute to price: name, book price, base figure, figure with it, caveat.
pub struct Study {
    pub attribute: String,
    pub book: f64,
    pub base: Figure,
    pub with: Figure,
    pub note: &'static str,
}

/// The attributes of sections IV–VI and the base figure each is priced on. Independent and
/// Super-Skill are left out: a duel of copies cannot price a figure not needing a driver, and
/// skill rolls are not modeled.
pub fn studies() -> Vec<Study> {
    let troop = Figure::base(Kind::Troop);
    let mut shooter = troop.clone();
    shooter.distance_attack = true;
    let mut armored = troop.clone();
    armored.armor = Armor::Light;
    let mut out = Vec::new();
    let mut add = |attribute: &str, base: &Figure, with: Figure, note: &'static str| {
        out.push(Study {
            attribute: attribute.to_string(),
            book: with.price() - base.price(),
            base: base.clone(),
            with,
            note,
        });
    };
    let mut f = troop.clone();
    f.distance_attack = true;
    add("Distance attack", &troop, f, "");
    let mut f = troop.clone();
    f.armor = Armor::Light;
    add("Light armor", &troop, f, "");
    let mut f = troop.clone();
    f.armor = Armor::Heavy;
    add("Heavy armor", &troop, f, "");
    let mut f = shooter.clone();
    f.automatic_fire = true;
    add("Automatic fire", &shooter, f, "");
    let mut f = troop.clone();
    f.kind = Kind::Hero;
    add("Hero (instead of troop)", &troop, f, "");
    for t in Trait::ALL {
        let note = match t {
            Trait::Independent => continue,
            Trait::Flight => "open ground: its worth over walls and rough terrain is not priced",
            Trait::Support | Trait::Inspiration | Trait::Summon => "worth more beside other kinds of figure",
            Trait::Stealth => "open ground: the 7+ in real cover is not priced",
            Trait::Sniper => "worth depends on the start distance",
            _ => "",
        };
        let base = match t {
            Trait::AreaEffectAttack | Trait::Sharpshooter | Trait::Sniper | Trait::Stealth | Trait::Flight => &shooter,
            Trait::Tough | Trait::IgnoresArmor => &armored,
            _ => &troop,
        };
        let mut f = base.clone();
        f.traits |= t.bit();
        add(t.name(), base, f, note);
    }
    for p in [Power::SuperArmor, Power::SuperBlast, Power::SuperFight, Power::SuperMove] {
        let base = match p {
            Power::SuperArmor => &armored,
            Power::SuperBlast => &shooter,
            _ => &troop,
        };
        for level in 1..=3u8 {
            let mut f = base.clone();
            f.powers[p as usize] = level;
            add(&format!("{} {}", LEVELS[level as usize - 1], p.name()), base, f, "");
        }
    }
    out
}

/// Prices every attribute of [`studies`] with `trials` fixed trials per price under `seed`;
/// forces of `budget` points start `distance` inches apart. Identical for a seed on any
/// number of threads. `progress` advances by one per matchup.
pub fn attribute_prices<E: Engine>(
    engine: &E,
    r: &Vsgmr,
    seed: u64,
    budget: f64,
    distance: f64,
    trials: u64,
    progress: &ProgressBar,
) -> AttributePrices {
    let list = studies();
    progress.set_length(progress.length().unwrap_or(0) + 11 * list.len() as u64);
    let mut s = BalanceSettings::from_ruleset(r, seed);
    s.budget = budget;
    s.distance = distance;
    s.trials = trials;
    s.anchor = None;
    let rows = list
        .par_iter()
        .map(|st| {
            let base_name = format!("{} (base)", st.base.describe());
            let with_name = format!("{} + {}", st.base.describe(), st.attribute);
            let pair = r.with_templates(&[(with_name, st.with.clone()), (base_name, st.base.clone())]);
            let (cw, cb) = (st.with.price(), st.base.price());
            let search = engine.fair_cost_of(&pair, 0, &[cw, cb], &s, progress);
            let (c0, v0, se0) = search.points[0];
            debug_assert_eq!(c0, cw);
            let fair = search.fair.map(|f| Estimate { value: f.value - cb, lo: f.lo - cb, hi: f.hi - cb });
            let mut note = st.note.to_string();
            if !search.note.is_empty() {
                note = if note.is_empty() { search.note.clone() } else { format!("{}; {note}", search.note) };
            }
            AttributePrice {
                attribute: st.attribute.clone(),
                base: st.base.describe(),
                book: st.book,
                base_cost: cb,
                fair,
                score_at_book: normal(v0, se0, CONFIDENCE, 0.0, 1.0),
                note,
            }
        })
        .collect();
    AttributePrices { seed, budget, distance, trials, rows }
}

/// The attributes whose interval lies wholly below (under-priced: worth more than the book
/// asks) or above the book price, most extreme first: (under, over), each (row, gap in points).
pub fn mispriced(p: &AttributePrices) -> (Vec<(&AttributePrice, f64)>, Vec<(&AttributePrice, f64)>) {
    let mut under: Vec<(&AttributePrice, f64)> =
        p.rows.iter().filter_map(|r| r.fair.filter(|f| f.lo > r.book).map(|f| (r, f.value - r.book))).collect();
    let mut over: Vec<(&AttributePrice, f64)> =
        p.rows.iter().filter_map(|r| r.fair.filter(|f| f.hi < r.book).map(|f| (r, r.book - f.value))).collect();
    under.sort_by(|a, b| b.1.total_cmp(&a.1));
    over.sort_by(|a, b| b.1.total_cmp(&a.1));
    (under, over)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_priced_attribute_has_the_books_price() {
        let s = studies();
        assert_eq!(s.len(), 5 + 16 + 12);
        let price = |name: &str| s.iter().find(|x| x.attribute == name).unwrap().book;
        assert_eq!(price("Heavy armor"), 2.0);
        assert_eq!(price("Tough"), 2.0);
        assert_eq!(price("Superior Super-Armor"), 5.0);
        assert_eq!(price("Minor Super-Move"), 2.0);
        assert_eq!(price("Hero (instead of troop)"), 1.0);
    }

    #[test]
    fn mispriced_needs_the_whole_interval_on_one_side_of_the_book_price() {
        let row = |name: &str, book: f64, lo: f64, value: f64, hi: f64| AttributePrice {
            attribute: name.into(),
            base: "troop guy".into(),
            book,
            base_cost: 1.0,
            fair: Some(Estimate { value, lo, hi }),
            score_at_book: Estimate { value: 0.5, lo: 0.4, hi: 0.6 },
            note: String::new(),
        };
        let p = AttributePrices {
            seed: 1,
            budget: 12.0,
            distance: 24.0,
            trials: 100,
            rows: vec![
                row("cheap", 1.0, 1.2, 1.5, 1.8),
                row("fair", 2.0, 1.5, 2.1, 2.5),
                row("dear", 2.0, 0.1, 0.3, 0.5),
                row("dearer", 4.0, 0.1, 0.3, 0.5),
            ],
        };
        let (under, over) = mispriced(&p);
        assert_eq!(under.iter().map(|x| x.0.attribute.as_str()).collect::<Vec<_>>(), ["cheap"]);
        assert_eq!(over.iter().map(|x| x.0.attribute.as_str()).collect::<Vec<_>>(), ["dearer", "dear"]);
        assert!((over[0].1 - 3.7).abs() < 1e-12);
    }
}
