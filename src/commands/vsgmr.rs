//! VSGMR's part of `pointsworth report vsgmr`: the cost audit of the sample armies, the
//! attribute prices and the Skirmish studies (round robin of the sample armies, random
//! armies), attached to the analysis for the report's VSGMR section.

use crate::analysis::RulesetAnalysis;
use crate::rulesets::vsgmr::Vsgmr;
use crate::rulesets::vsgmr::audit::audit;
use crate::rulesets::vsgmr::prices::{VsgmrAnalysis, attribute_prices};
use crate::rulesets::vsgmr::round_robin::{VsgmrSkirmish, random_armies, round_robin};
use crate::rulesets::vsgmr::skirmish::Field;

/// Runs the attribute-price study (`[prices]`: budget, distance, report_trials) and the
/// Skirmish studies (`[skirmish]`: round_robin_trials, random_trials; 0 leaves one out) under
/// `seed` and attaches them with the cost audit to `analysis`. Shows a progress bar on a
/// terminal.
pub fn attach_to_report(r: &Vsgmr, analysis: &mut RulesetAnalysis, seed: u64) {
    let pb = crate::app::progress_bar();
    pb.set_message("vsgmr attribute prices");
    let prices = attribute_prices(r, seed, r.prices.budget, r.prices.distance, r.prices.report_trials, &pb);
    pb.finish_and_clear();
    let skirmish = skirmish_studies(r, seed);
    analysis.vsgmr = Some(VsgmrAnalysis { audit: audit(r), prices, skirmish });
}

/// The round robin and the random-army games of the report.
pub fn skirmish_studies(r: &Vsgmr, seed: u64) -> Option<VsgmrSkirmish> {
    let cfg = &r.skirmish;
    if cfg.round_robin_trials == 0 && cfg.random_trials == 0 {
        return None;
    }
    let field = Field::new(r);
    let pb = crate::app::progress_bar();
    pb.set_message("vsgmr skirmish");
    let rr = (cfg.round_robin_trials > 0 && field.samples.len() >= 2)
        .then(|| round_robin(&field, cfg, seed, cfg.round_robin_trials, &pb));
    let random = (cfg.random_trials > 0).then(|| random_armies(&field, cfg, seed, cfg.random_trials, &pb));
    pb.finish_and_clear();
    Some(VsgmrSkirmish { seed, table: table_text(r), round_robin: rr, random })
}

/// A one-line description of the table and the game.
pub fn table_text(r: &Vsgmr) -> String {
    let c = &r.skirmish;
    format!(
        "{}\" × {}\" table, {} cover pieces {}\" long (distance attacks need 6 at a target within {}\" behind one), \
         sides {}\" apart, {} rounds, phased",
        c.table_width, c.table_depth, c.cover_pieces, c.cover_length, c.cover_reach, c.gap, c.rounds
    )
}
