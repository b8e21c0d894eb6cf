//! Games into numbers and one game into a picture: the tally the deterministic engine merges,
//! `simulate`, the traced game and its replay. Apart from the rule code because other
//! rulesets' skirmishes (AMC, The Grunt Factor) and the analysis share [`SkirmishTally`] and
//! [`GameRecord`]; they depend on this file, not on the rules.

use super::{Skirmish, SkirmishConfig, SkirmishOutcome, Tactic, Trace};
use crate::rulesets::gng::GunsNGrenades;
use crate::rulesets::gng::army::{Army, random_army};
use crate::sim::Tally;

/// One random-army game for the value-in-army regression: each unit type's and upgrade's
/// count difference (side A − side B) and the result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    pub diff: Vec<i8>,
    /// 0: A won, 1: B won, 2: draw.
    pub result: u8,
}

/// Integer counts of a batch of skirmishes; merged in batch order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SkirmishTally {
    pub games: u64,
    /// Wins of side A and B, draws.
    pub wins: [u64; 2],
    pub draws: u64,
    /// Sum of game turns.
    pub turns: u64,
    /// Per unit type: units fielded, survivors at the end (reserves never entered count).
    pub fielded: Vec<u64>,
    pub survivors: Vec<u64>,
    /// kills[killer * n + victim]: enemy units of type `victim` destroyed by type `killer`
    /// (Anti Armor damage counts for the destroyer; blast for the firer).
    pub kills: Vec<u64>,
    /// Per random-army game, in trial order (empty for fixed armies).
    pub records: Vec<GameRecord>,
}

impl Tally for SkirmishTally {
    fn merge(&mut self, o: &Self) {
        self.games += o.games;
        self.wins[0] += o.wins[0];
        self.wins[1] += o.wins[1];
        self.draws += o.draws;
        self.turns += o.turns;
        crate::sim::add_counts(&mut self.fielded, &o.fielded);
        crate::sim::add_counts(&mut self.survivors, &o.survivors);
        crate::sim::add_counts(&mut self.kills, &o.kills);
        self.records.extend(o.records.iter().cloned());
    }
    fn trials(&self) -> u64 {
        self.games
    }
}

impl SkirmishTally {
    /// Records a finished game.
    pub fn record(&mut self, g: &Skirmish, out: &SkirmishOutcome, armies: [&Army; 2], keep_record: bool) {
        let n = g.r.units.len();
        if self.fielded.is_empty() {
            self.fielded = vec![0; n];
            self.survivors = vec![0; n];
            self.kills = vec![0; n * n];
        }
        self.games += 1;
        match out.winner {
            Some(w) => self.wins[w] += 1,
            None => self.draws += 1,
        }
        self.turns += out.turns as u64;
        for s in 0..2 {
            for &u in &armies[s].units {
                self.fielded[u] += 1;
            }
            for f in g.bt.sides[s].iter().filter(|f| f.alive) {
                self.survivors[f.unit as usize] += 1;
            }
            for &u in &g.reserves[s] {
                self.survivors[u] += 1;
            }
        }
        for &(_, k, v) in &g.kill_log {
            self.kills[k * n + v] += 1;
        }
        if keep_record {
            let (ca, cb) = (armies[0].counts(n), armies[1].counts(n));
            let mut diff: Vec<i8> = (0..n).map(|u| (ca[u] as i32 - cb[u] as i32) as i8).collect();
            for k in 0..g.r.upgrades.len() {
                diff.push((armies[0].upgrade == Some(k)) as i8 - (armies[1].upgrade == Some(k)) as i8);
            }
            let result = match out.winner {
                Some(w) => w as u8,
                None => 2,
            };
            self.records.push(GameRecord { diff, result });
        }
    }
}

/// Where the armies come from.
#[derive(Debug, Clone)]
pub enum Armies {
    /// Fresh random legal armies for each game, drawn from the game's dice.
    Random,
    /// The same two armies every game.
    Fixed(Box<[Army; 2]>),
}

/// Plays `trials` skirmishes with the deterministic engine ([`crate::sim::run`]): batch `k`
/// uses dice seeded from (seed, stream, k), so the tally is identical on any thread count.
/// Random armies, terrain and all dice of a game come from its batch's dice.
pub fn simulate(
    r: &GunsNGrenades,
    cfg: &SkirmishConfig,
    armies: &Armies,
    tactic: Tactic,
    seed: u64,
    trials: u64,
    progress: &indicatif::ProgressBar,
) -> SkirmishTally {
    let plan = crate::sim::RunPlan::fixed(seed, trials, cfg.batch_size);
    let stream = crate::sim::stream_id(&["guns-n-grenades", "skirmish", tactic.name()]);
    crate::sim::run(
        &plan,
        stream,
        |dice, _first, n, tally: &mut SkirmishTally| {
            let mut g = Skirmish::new(r, cfg);
            for _ in 0..n {
                let (a, b);
                let pair = match armies {
                    Armies::Random => {
                        a = random_army(r, cfg.points, cfg.upgrade_chance, dice);
                        b = random_army(r, cfg.points, cfg.upgrade_chance, dice);
                        [&a, &b]
                    }
                    Armies::Fixed(x) => [&x[0], &x[1]],
                };
                g.set_up(pair, [tactic; 2], dice);
                let out = g.play(dice);
                tally.record(&g, &out, pair, matches!(armies, Armies::Random));
            }
            progress.inc(n as u64);
        },
        |_| 0.0,
    )
}

/// Plays one seeded game with a trace for the replay picture; returns the game's final
/// state, its outcome and the armies.
pub fn traced_game<'a>(
    r: &'a GunsNGrenades,
    cfg: &'a SkirmishConfig,
    armies: &Armies,
    tactic: Tactic,
    seed: u64,
) -> (Skirmish<'a>, SkirmishOutcome, [Army; 2]) {
    let mut dice =
        crate::dice::FastDice::from_seed(crate::sim::batch_seed(seed, crate::sim::stream_id(&["replay"]), 0));
    let pair = match armies {
        Armies::Random => [
            random_army(r, cfg.points, cfg.upgrade_chance, &mut dice),
            random_army(r, cfg.points, cfg.upgrade_chance, &mut dice),
        ],
        Armies::Fixed(x) => [x[0].clone(), x[1].clone()],
    };
    let mut g = Skirmish::new(r, cfg);
    g.trace = Some(Trace::default());
    g.set_up([&pair[0], &pair[1]], [tactic; 2], &mut dice);
    let out = g.play(&mut dice);
    (g, out, pair)
}

/// A short label for a unit name: initials of several words ("Light Infantry" → "LI"), else
/// the first two letters ("Riflemen" → "Ri").
pub fn short_label(name: &str) -> String {
    let words: Vec<&str> = name.split_whitespace().collect();
    if words.len() > 1 {
        words.iter().filter_map(|w| w.chars().next()).collect()
    } else {
        name.chars().take(2).collect()
    }
}

/// The replay picture data of a traced game.
pub fn replay_of(
    g: &Skirmish,
    out: &SkirmishOutcome,
    armies: &[Army; 2],
    tactic: Tactic,
) -> crate::battle::replay::Replay {
    let r = g.r;
    let trace = g.trace.clone().unwrap_or_default();
    let mut units = Vec::new();
    for s in 0..2 {
        for (u, path, died) in &trace.units[s] {
            units.push(crate::battle::replay::ReplayUnit {
                side: s,
                label: short_label(&r.units[*u].name),
                path: path.clone(),
                died: *died,
            });
        }
    }
    let result = match out.winner {
        Some(0) => format!("blue (A) wins after {} game turns", out.turns),
        Some(_) => format!("red (B) wins after {} game turns", out.turns),
        None => format!("draw after {} game turns", out.turns),
    };
    crate::battle::replay::Replay {
        title: format!("{} — Skirmish replay ({} tactic): {result}", r.title_str(), tactic.name()),
        notes: vec![
            format!("Blue (A, deploys at the top): {}", armies[0].describe(r)),
            format!("Red (B, deploys at the bottom): {}", armies[1].describe(r)),
        ],
        table: g.table.clone(),
        deploy_depth: g.cfg.deploy_depth as f32,
        units,
        legend: None,
    }
}
