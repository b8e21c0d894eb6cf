//! Random values in every numeric field of every shipped config (issue 46 item 6): each case
//! gives one to four numbers of a config (any key, any entry of a `[[table]]` list, any element
//! of a list) a random value — NaN, ±inf, huge, zero, negative, or a random multiple of the
//! shipped value — and loads it. A refusal is fine if it names the file; a config that loads
//! must then play: a few one-against-one and points-matched duels of a random pair, the exact
//! duel where there is one, and a few skirmish games of every mission. Nothing may panic
//! (proptest reports a panic as a failure, shrunk to a small change), and nothing may hang: the
//! ranges keep every accepted config's games small.

use std::path::Path;

use indicatif::ProgressBar;
use pointsworth::config::{Overrides, Source};
use pointsworth::rulesets::skirmish::{Armies, Skirmish};
use pointsworth::rulesets::{AnyRuleset, Ruleset};
use pointsworth::sim::RunPlan;
use pointsworth::sim::duel::{Squads, simulate};
use pointsworth::with_ruleset;
use proptest::prelude::*;

/// (ruleset id, path, text, byte spans of every number) of every shipped config.
fn configs() -> Vec<(&'static str, std::path::PathBuf, String, Vec<std::ops::Range<usize>>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs");
    let mut out = Vec::new();
    for id in ["guns-n-grenades", "army-men-combat", "grunt-factor", "vsgmr", "gunplay"] {
        let path = dir.join(format!("{id}.toml"));
        let text = std::fs::read_to_string(&path).unwrap();
        let doc = toml::de::DeTable::parse(&text).unwrap();
        let mut spans = Vec::new();
        numbers(&toml::de::DeValue::Table(doc.into_inner()), &mut spans);
        spans.sort_by_key(|s| s.start);
        assert!(spans.len() > 30, "{id}: {} numbers", spans.len());
        out.push((id, path, text, spans));
    }
    out
}

/// The spans of every number in `v`, in tables, lists and lists of tables.
fn numbers(v: &toml::de::DeValue, out: &mut Vec<std::ops::Range<usize>>) {
    let mut visit = |x: &toml::Spanned<toml::de::DeValue>| match x.get_ref() {
        toml::de::DeValue::Integer(_) | toml::de::DeValue::Float(_) => out.push(x.span()),
        inner => numbers(inner, out),
    };
    match v {
        toml::de::DeValue::Table(t) => t.iter().for_each(|(_, x)| visit(x)),
        toml::de::DeValue::Array(a) => a.iter().for_each(visit),
        _ => {}
    }
}

/// A random value for a number of the config.
#[derive(Debug, Clone)]
enum Pick {
    /// A nasty literal: NaN, ±inf, huge, zero, negative, the edges of the integer types.
    Nasty(&'static str),
    /// The shipped value times this (rounded if it was an integer).
    Scale(f64),
    /// A small integer, negative ones included.
    Int(i64),
}

impl Pick {
    /// The new text of a number whose shipped text is `shipped`.
    fn apply(&self, shipped: &str) -> String {
        match *self {
            Pick::Nasty(v) => v.to_string(),
            Pick::Scale(k) => match shipped.parse::<i64>() {
                Ok(i) => ((i as f64 * k).round() as i64).to_string(),
                Err(_) => format!("{:?}", shipped.parse::<f64>().unwrap_or(1.0) * k),
            },
            Pick::Int(i) => i.to_string(),
        }
    }
}

fn value() -> impl Strategy<Value = Pick> {
    prop_oneof![
        1 => prop::sample::select(vec![
            "nan", "inf", "-inf", "1e308", "-1e308", "0", "-1", "0.0", "-0.0", "1e-300", "4294967295",
            "4294967296", "9223372036854775807", "-9223372036854775808", "18446744073709551615", "1e12",
        ])
        .prop_map(Pick::Nasty),
        3 => (0.0f64..4.0).prop_map(Pick::Scale),
        1 => (-20i64..2000).prop_map(Pick::Int),
    ]
}

/// Plays a little of everything a loaded ruleset offers; panics are the failures.
fn play(r: &AnyRuleset, seed: u64) {
    with_ruleset!(r, r => {
        let n = r.units().len();
        let (a, b) = ((seed as usize) % n, (seed as usize / 7) % n);
        let d = r.duel_settings();
        simulate(r, a, b, d.distance, Squads::One, &RunPlan::fixed(seed, 8, 8));
        simulate(r, a, b, d.distance, Squads::PointsMatched { budget: d.budget }, &RunPlan::fixed(seed, 4, 4));
        let _ = r.exact_duel(a, b, d.distance);
        let _ = r.lanchester(a, b);
        if r.check_skirmish().is_ok() {
            if let Ok(armies) = r.default_armies() {
                for mission in 0..r.missions().len() {
                    let armies = if mission == 0 { armies.clone() } else { Armies::Random };
                    let _ = pointsworth::analysis::skirmish::run_skirmish(r, &armies, [0; 2], mission, seed, 2, &ProgressBar::hidden());
                }
            }
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_values_in_numeric_fields_never_panic(
        file in 0usize..5,
        picks in proptest::collection::vec((any::<prop::sample::Index>(), value()), 1..5),
        seed in 0u64..1000,
    ) {
        let all = configs();
        let (id, path, text, spans) = &all[file];
        // Later spans first, so earlier offsets stay valid.
        let mut chosen: Vec<(std::ops::Range<usize>, String)> =
            picks.iter().map(|(i, p)| { let s = i.get(spans).clone(); let v = p.apply(&text[s.clone()]); (s, v) }).collect();
        chosen.sort_by_key(|(s, _)| std::cmp::Reverse(s.start));
        chosen.dedup_by_key(|(s, _)| s.start);
        let mut t = text.clone();
        for (s, v) in &chosen {
            t.replace_range(s.clone(), v);
        }
        let source = Source::from_text(path, t);
        match AnyRuleset::load(id, &source, &Overrides::default()) {
            Err(e) => prop_assert!(e.to_string().contains(&path.display().to_string()), "{e}"),
            Ok(r) => play(&r, seed),
        }
    }
}
