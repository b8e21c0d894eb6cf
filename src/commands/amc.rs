//! Army Men Combat additions to `pointsworth report army-men-combat`: the upgrade table
//! (each upgraded entry against its plain entry at equal points; see
//! `rulesets::amc::upgrades`).

use crate::analysis::RulesetAnalysis;
use crate::rulesets::amc::ArmyMenCombat;
use crate::rulesets::amc::upgrades;

/// Adds the upgrade table to the report analysis (`[upgrades] trials` per cell; nothing when
/// 0).
pub fn attach_to_report(r: &ArmyMenCombat, analysis: &mut RulesetAnalysis, seed: u64) {
    crate::commands::amc_skirmish::attach_to_report(r, analysis, seed);
    if r.upgrade_settings.trials == 0 {
        return;
    }
    analysis.amc_upgrades = Some(upgrades::table(r, seed, r.upgrade_settings.trials, r.upgrade_settings.fair_trials));
}
