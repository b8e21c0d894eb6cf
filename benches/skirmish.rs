//! Skirmishes per second: random legal 350-point Guns 'N Grenades armies, default tactic,
//! one game at a time on one core (army drawing and set-up included).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pointsworth::config::{Overrides, Source};
use pointsworth::dice::FastDice;
use pointsworth::rulesets::gng::GunsNGrenades;
use pointsworth::rulesets::gng::army::random_army;
use pointsworth::rulesets::gng::skirmish::{Skirmish, Tactic};

fn gng() -> GunsNGrenades {
    let src = Source::read(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/configs/guns-n-grenades.toml")))
        .unwrap();
    GunsNGrenades::from_source(&src, &Overrides::default()).unwrap()
}

fn bench(c: &mut Criterion) {
    let r = gng();
    let cfg = r.skirmish.clone();
    let mut group = c.benchmark_group("skirmish");
    group.throughput(Throughput::Elements(1));
    group.sample_size(30);
    let mut dice = FastDice::from_seed(1);
    let mut g = Skirmish::new(&r, &cfg);
    group.bench_function("350-point random armies, default tactic", |b| {
        b.iter(|| {
            let a = random_army(&r, cfg.points, cfg.upgrade_chance, &mut dice);
            let o = random_army(&r, cfg.points, cfg.upgrade_chance, &mut dice);
            g.set_up([&a, &o], [Tactic::Default; 2], &mut dice);
            black_box(g.play(&mut dice))
        })
    });
    let mut dice = FastDice::from_seed(2);
    group.bench_function("350-point random armies, army drawing only", |b| {
        b.iter(|| black_box(random_army(&r, cfg.points, cfg.upgrade_chance, &mut dice)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
