//! Skirmishes per second for every ruleset: random legal armies at the config's points, each
//! ruleset's default tactic, one game at a time on one core (army drawing and set-up
//! included), through the generic [`Skirmish`] trait the engine uses.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pointsworth::config::{Overrides, Source};
use pointsworth::dice::FastDice;
use pointsworth::rulesets::skirmish::{Armies, GameRecord, Skirmish};
use pointsworth::rulesets::{AnyRuleset, default_config, implemented};
use pointsworth::with_ruleset;

fn load(id: &str) -> AnyRuleset {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(default_config(id));
    AnyRuleset::load(id, &Source::read(&path).unwrap(), &Overrides::default()).unwrap()
}

fn bench_one<S: Skirmish>(c: &mut Criterion, s: &S) {
    let mut group = c.benchmark_group("skirmish");
    group.throughput(Throughput::Elements(1));
    group.sample_size(20);
    let mut dice = FastDice::from_seed(1);
    let mut game = s.game([0; 2], 0);
    let mut record = GameRecord::default();
    let (items, units) = (s.skirmish_units().len() + s.skirmish_upgrades().len(), s.skirmish_units().len());
    let name = format!("{}: random armies, {} tactic", s.id(), s.tactics()[0].name);
    group.bench_function(name, |b| {
        b.iter(|| {
            record.clear(items, units);
            s.play(&mut game, &Armies::Random, &mut dice, &mut record);
            black_box(record.winner)
        })
    });
    group.finish();
}

fn bench(c: &mut Criterion) {
    for id in implemented() {
        let r = load(id);
        with_ruleset!(&r, r => bench_one(c, r));
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
