//! Duels per second against the dice-only ceiling.
//!
//! The ceiling: the same number of d6 a stand-up duel rolls on average, drawn with no game
//! logic. A duel costing at most 2× its ceiling means the rules add little over the dice.
//! Compare ratios measured in one run, not numbers across runs (BUILD-FACTS.md: this machine
//! is noisy).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pointsworth::config::{Overrides, Source};
use pointsworth::dice::{CountingDice, Dice, FastDice};
use pointsworth::rulesets::gng::GunsNGrenades;
use pointsworth::rulesets::{DuelSetup, Ruleset};
use pointsworth::sim::RunPlan;
use pointsworth::sim::duel::{Squads, simulate};

fn gng() -> GunsNGrenades {
    let src = Source::read(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/configs/guns-n-grenades.toml")))
        .unwrap();
    GunsNGrenades::from_source(&src, &Overrides::default()).unwrap()
}

/// Mean d6 rolled per duel, measured with counting dice.
fn rolls_per_duel(r: &GunsNGrenades, a: usize, b: usize, d: f64) -> f64 {
    let mut dice = CountingDice { inner: FastDice::from_seed(1), rolls: 0 };
    let mut arena = r.arena();
    let n = 200_000;
    for k in 0..n {
        r.play_duel(
            &mut arena,
            &mut dice,
            DuelSetup { a, na: 1, b, nb: 1, distance: d, a_first: k % 2 == 0, tactics: [0, 0] },
        );
    }
    dice.rolls as f64 / n as f64
}

fn bench(c: &mut Criterion) {
    let r = gng();
    let a = r.find_unit("riflemen").unwrap();
    let b = r.find_unit("heavy infantry").unwrap();
    let distance = 8.0; // both can attack: a stand-up duel

    // Two stand-up pairs: one where a side has Fast Shot (a data-dependent re-roll), one
    // where neither does. Each is compared with the dice-only ceiling for its own d6 count.
    for (x, y, label) in [(a, b, "Riflemen v Heavy Infantry (Fast Shot)"), (a, a, "Riflemen v Riflemen (no re-rolls)")]
    {
        let rolls = rolls_per_duel(&r, x, y, distance);
        eprintln!("stand-up duel {label} at 8 in: {rolls:.2} d6 per duel");
        let mut g = c.benchmark_group(format!("stand-up duel, 1 thread: {label}"));
        g.throughput(Throughput::Elements(1));
        g.bench_function(format!("dice-only ceiling ({rolls:.1} d6)"), |bch| {
            let mut dice = FastDice::from_seed(3);
            let whole = rolls.floor() as u32;
            let frac = rolls - whole as f64;
            let mut acc = 0.0f64;
            bch.iter(|| {
                // Roll the mean number of dice: `whole`, plus one more a `frac` share of the time.
                acc += frac;
                let extra = if acc >= 1.0 {
                    acc -= 1.0;
                    1
                } else {
                    0
                };
                let mut s = 0u32;
                for _ in 0..whole + extra {
                    s += dice.d6() as u32;
                }
                black_box(s)
            })
        });
        g.bench_function("duel", |bch| {
            let mut dice = FastDice::from_seed(3);
            let mut arena = r.arena();
            let mut k = 0u64;
            bch.iter(|| {
                k += 1;
                let duel = DuelSetup { a: x, na: 1, b: y, nb: 1, distance, a_first: k % 2 == 0, tactics: [0, 0] };
                black_box(r.play_duel(&mut arena, &mut dice, duel))
            })
        });
        g.finish();
    }

    let trials = 2_000_000u64;
    let plan = RunPlan::fixed(5, trials, 4096);
    let mut g = c.benchmark_group("engine: 2M stand-up duels");
    g.throughput(Throughput::Elements(trials));
    g.sample_size(10);
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        g.bench_function(format!("{threads} thread(s)"), |bch| {
            bch.iter(|| pool.install(|| black_box(simulate(&r, a, b, distance, Squads::One, &plan))))
        });
    }
    g.finish();

    let mortar = r.find_unit("mortar").unwrap();
    let plan = RunPlan::fixed(5, 100_000, 512);
    let mut g = c.benchmark_group("engine: 100k points-matched squad battles (150 pts, 12 in)");
    g.throughput(Throughput::Elements(100_000));
    g.sample_size(10);
    for (x, y, name) in [(a, b, "Riflemen v Heavy Infantry"), (mortar, a, "Mortar v Riflemen")] {
        g.bench_function(name, |bch| {
            bch.iter(|| black_box(simulate(&r, x, y, 12.0, Squads::PointsMatched { budget: 150.0 }, &plan)))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
