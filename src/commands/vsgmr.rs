//! VSGMR's part of `pointsworth report vsgmr`: the cost audit of the sample armies and the
//! attribute prices, attached to the analysis for the report's VSGMR section.

use crate::analysis::RulesetAnalysis;
use crate::rulesets::vsgmr::Vsgmr;
use crate::rulesets::vsgmr::audit::audit;
use crate::rulesets::vsgmr::prices::{VsgmrAnalysis, attribute_prices};

/// Runs the attribute-price study (`[prices]`: budget, distance, report_trials) under `seed`
/// and attaches it with the cost audit to `analysis`. Shows a progress bar on a terminal.
pub fn attach_to_report(r: &Vsgmr, analysis: &mut RulesetAnalysis, seed: u64) {
    let pb = crate::app::progress_bar();
    pb.set_message("vsgmr attribute prices");
    let prices = attribute_prices(r, seed, r.prices.budget, r.prices.distance, r.prices.report_trials, &pb);
    pb.finish_and_clear();
    analysis.vsgmr = Some(VsgmrAnalysis { audit: audit(r), prices });
}
