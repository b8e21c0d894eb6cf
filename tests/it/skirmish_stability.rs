//! Value stability: a seed's skirmish tally is pinned, so any change to the skirmish rules,
//! the tactic, army drawing or the engine that changes results shows up here (update the
//! numbers deliberately, with the reason in the commit message).

use indicatif::ProgressBar;
use pointsworth::config::{Overrides, Source};
use pointsworth::rulesets::gng::GunsNGrenades;
use pointsworth::rulesets::skirmish::Armies;
use pointsworth::sim::skirmish::simulate;

#[test]
fn seed_42_random_army_skirmishes_are_pinned() {
    let src = Source::read(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/configs/guns-n-grenades.toml")))
        .unwrap();
    let r = GunsNGrenades::from_source(&src, &Overrides::default()).unwrap();
    // Tactic 0 is `default`, mission 0 the Skirmish.
    let t = simulate(&r, &Armies::Random, [0; 2], 0, 42, 300, &ProgressBar::hidden());
    let got = (t.games, t.wins, t.draws, t.turns, t.fielded.iter().sum::<u64>(), t.kills.iter().sum::<u64>());
    assert_eq!(got, PINNED);
}

const PINNED: (u64, [u64; 2], u64, u64, u64, u64) = (300, [152, 146], 2, 3584, 6025, 4506);
