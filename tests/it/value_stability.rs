//! Value stability: a seed's tallies are pinned, so any change to the dice stream, the
//! seeding, the batch layout or the rules that moves a committed report shows up here first.
//! If a change is intended, review the new numbers and update the snapshot.

use pointsworth::config::{Overrides, Source};
use pointsworth::rulesets::Ruleset;
use pointsworth::rulesets::gng::GunsNGrenades;
use pointsworth::sim::RunPlan;
use pointsworth::sim::duel::{Squads, simulate};

#[test]
fn seeded_duel_tallies_are_pinned() {
    let src = Source::read(std::path::Path::new("configs/guns-n-grenades.toml")).unwrap();
    let r = GunsNGrenades::from_source(&src, &Overrides::default()).unwrap();
    let mortar = r.find_unit("mortar").unwrap();
    let medics = r.find_unit("medics").unwrap();
    let one = simulate(&r, mortar, medics, 12.0, Squads::One, &RunPlan::fixed(42, 3000, 512));
    let squads =
        simulate(&r, mortar, medics, 12.0, Squads::PointsMatched { budget: 150.0 }, &RunPlan::fixed(42, 3000, 512));
    insta::assert_json_snapshot!("mortar_v_medics_seed42", (one, squads));
}
