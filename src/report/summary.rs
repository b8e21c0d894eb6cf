//! `summary.json`: every number of the analysis with its interval, plus what is needed to
//! reproduce it (seed, trial counts, config path and hash, variants, pointsworth version).
//!
//! It is the analysis minus wall-clock time: the file is meant to be committed as a baseline
//! and diffed, so it must be a pure function of the inputs. Field order is fixed by the
//! struct, variants keep the config's order, and floats print in serde_json's shortest
//! round-trip form, so the same analysis always gives the same bytes.

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

use crate::analysis::{DistanceSweep, EfficiencyRow, Matrix, RulesetAnalysis, SquadCap, Warning};
use crate::rulesets::{CoverageRow, UnitInfo};
use crate::analysis::metagame::Metagame;
use crate::stats::{CONFIDENCE, Estimate};

/// Bumped when a field of `summary.json` changes meaning or disappears.
pub const SUMMARY_FORMAT: u32 = 1;

/// The content of `summary.json`, borrowing from a [`RulesetAnalysis`].
#[derive(Debug, Serialize)]
pub struct Summary<'a> {
    pub summary_format: u32,
    pub pointsworth_version: &'a str,
    pub ruleset: &'a str,
    pub title: &'a str,
    pub config: ConfigRef<'a>,
    pub seed: u64,
    /// Rule variants in force as a JSON object, in the config's order.
    pub variants: Variants<'a>,
    pub duel: Duel<'a>,
    /// Points budget of each points-matched squad.
    pub budget: f64,
    /// Units whose squads the book's limits cap below the budget (absent when none).
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub squad_caps: &'a [SquadCap],
    pub precision: Precision,
    pub trials: Trials,
    pub units: &'a [UnitInfo],
    /// Best first.
    pub efficiency: &'a [EfficiencyRow],
    /// One verdict per unit, then per upgrade ([`crate::analysis::verdict`]): the call, the
    /// suggested cost with its interval, each method's evidence and the play bound.
    pub verdicts: Vec<crate::analysis::verdict::UnitVerdict>,
    /// Efficiency against start distance; `null` when the analysis ran no sweep.
    pub distance_sweep: Option<Sweep<'a>>,
    /// 1v1 mean score (draws ½) against start distance per pair and ground (absent when not computed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub win_rate_by_distance: Option<&'a crate::analysis::duel_distance::WinRateByDistance>,
    /// Every 1v1 under optimal play, the scripted tactic's exact value and its exploitability
    /// per pair, `exploitability_max` and `exploitability_mean` (probability units; absent
    /// when not run).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub optimal_play: Option<&'a crate::analysis::optimal_play::OptimalPlay>,
    /// Which play produced each level's numbers and how exploitable that play is ([`Play`]).
    pub play: Play,
    /// "Which readings decide the verdicts": each reading switch played each way (snapshots,
    /// flips, largest moves, rule holes; absent when not run).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub readings: Option<&'a crate::analysis::readings::Readings>,
    pub matrix_1v1: &'a Matrix,
    pub matrix_points: &'a Matrix,
    pub coverage: &'a [CoverageRow],
    pub warnings: &'a [Warning],
}

#[derive(Debug, Serialize)]
pub struct ConfigRef<'a> {
    pub path: &'a str,
    /// 64-bit FNV-1a of the config text, hex.
    pub hash: &'a str,
    /// The config text itself, so `pointsworth check` can show the lines that changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<&'a str>,
}

#[derive(Debug, Serialize)]
pub struct Duel<'a> {
    pub distance: f64,
    pub unit: &'a str,
}

#[derive(Debug, Serialize)]
pub struct Precision {
    /// Two-sided confidence level of every interval.
    pub confidence: f64,
    /// Target 95% half-width per matchup, as a probability (0.01 = ±1 percentage point).
    pub target_error: f64,
    pub max_trials_per_matchup: u64,
    /// Present (true) when every matchup played exactly `max_trials_per_matchup` trials
    /// (`--trials` alone, or shards merged); `pointsworth check` then re-runs it the same way.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub fixed_trials: bool,
}

#[derive(Debug, Serialize)]
pub struct Trials {
    pub matrix_1v1: TrialCounts,
    pub matrix_points: TrialCounts,
}

/// Which play produced the numbers of each level of the report, and how exploitable that play
/// is (issue 41; DESIGN.md, "Play model": every number says which play produced it).
#[derive(Debug, Serialize, PartialEq)]
pub struct Play {
    /// The 1v1 matrix, each unit's 1v1 mean score and the 1v1 chart by start distance.
    pub one_against_one: PlayLevel,
    /// Points-matched squads: their matrix, the efficiency, the suggested costs and the
    /// efficiency by start distance.
    pub squads: PlayLevel,
    /// The skirmish and its missions (absent when the report ran none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skirmish: Option<PlayLevel>,
}

/// One level's play.
#[derive(Debug, Serialize, PartialEq)]
pub struct PlayLevel {
    /// `"optimal"` (both sides optimal: the game's exact value), `"equilibrium"` (the
    /// skirmish: each side plays its equilibrium mix of the tactic metagame; the squads: each
    /// pair's equilibrium mixes of the squads' tactic game), `"scripted"` (the
    /// ruleset's scripted tactic) or `"mixed"` (optimal where the game is solved, scripted
    /// elsewhere).
    pub play: &'static str,
    /// The skirmish tactic whose games give value in army, or `"equilibrium mix"` where each
    /// game draws each side's tactic from its mix; for the squads, `"equilibrium mix"` where
    /// each duel draws each side's tactic from its pair's mix (absent elsewhere).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tactic: Option<String>,
    /// The most a best response gains against this play, in probability units (win 1, draw ½;
    /// 0.05 is 5 score points, as the report prints it): 0 under optimal play; `null` when not
    /// measured.
    pub exploitability: Option<f64>,
    /// A lower bound on the exploitability where no best response is solved: what the best
    /// measured deviation gains against this play, at least 0 (a deviation that loses shows
    /// no exploitability), in probability units with its 95% interval likewise floored at 0
    /// (the skirmish: the best switch of tactic within its portfolio, [`Metagame`]); absent
    /// where none is measured. The skirmish's is the larger of its best switch of tactic
    /// ([`Metagame`]) and its rollout best response's gain, where one is rolled out. The
    /// squads': where the squads' tactic game is solved (their play is its equilibrium), the
    /// larger of the game's best switch against the equilibrium (family-wise;
    /// [`crate::analysis::squads_game`]) and the gain of the rollout best response against the
    /// same equilibrium; else (the scripted tactic) the rollout's gain.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exploitability_lower_bound: Option<Estimate>,
    /// The skirmish's rollout best response, both sides ([`crate::rulesets::rollout`]); absent
    /// where none is rolled out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rollout: Option<crate::rulesets::rollout::RolloutGain>,
    /// How it was measured, or why it was not.
    pub measured: String,
}

impl Play {
    /// The play of `a`'s levels: 1v1 optimal where its 1v1 matrix was played so
    /// ([`crate::analysis::optimal_play::play_1v1`]); squads by the scripted tactic, with the
    /// largest gain of the squads' rollout best response as a lower bound on its
    /// exploitability where one was played ([`crate::analysis::squads_rollout`]), else not
    /// measured, and the scripted tactic's 1v1 exploitability named as a sign of its quality; the
    /// skirmish by its played tactic, the tactic metagame's equilibrium where it has one
    /// ([`Metagame`]), with the best switch of tactic against it as a lower bound.
    pub fn of(a: &RulesetAnalysis) -> Play {
        // Every 1v1 number: the matrix's cells and the chart's by start distance.
        let chart = a.win_rate_by_distance.iter().flat_map(|w| w.pairs.iter().flat_map(|p| p.method.iter().flatten()));
        let methods: Vec<&str> =
            a.matrix_1v1.cells.iter().flatten().map(|c| c.method.as_str()).chain(chart.map(String::as_str)).collect();
        let n = methods.iter().filter(|m| **m == crate::analysis::optimal_play::OPTIMAL_METHOD).count();
        let all = methods.len();
        let scripted_1v1 = a.optimal_play.as_ref().filter(|o| !o.pairs.is_empty()).map(|o| {
            format!(
                "the scripted tactic loses up to {:.1} score points (mean {:.1}) to a best response in the 1v1 games at \
                 {} {} (exact, optimal_play.exploitability_max)",
                100.0 * o.exploitability_max,
                100.0 * o.exploitability_mean,
                crate::format::number(o.distance, 2),
                a.distance_unit
            )
        });
        let one_against_one = match (n, all) {
            (0, _) => PlayLevel {
                play: "scripted",
                tactic: None,
                exploitability: None,
                exploitability_lower_bound: None,
                rollout: None,
                measured: "not measured: the 1v1 matrix is the scripted tactic's (the optimal-play game was not solved: \
                           duel.optimal_play is off, or the ruleset has no game)".into(),
            },
            (n, all) if n == all => PlayLevel {
                play: "optimal",
                tactic: None,
                exploitability: Some(0.0),
                exploitability_lower_bound: None,
                rollout: None,
                measured: "exact: both sides play optimally, the game's value, which no best response improves".into(),
            },
            (n, all) => PlayLevel {
                play: "mixed",
                tactic: None,
                exploitability: None,
                exploitability_lower_bound: None,
                rollout: None,
                measured: format!(
                    "{n} of {all} 1v1 cells (the matrix's and the chart's by start distance) are the optimal-play \
                     game's value (exploitability 0); the others, which the game does not solve, are the scripted \
                     tactic's, not measured"
                ),
            },
        };
        let unmeasured = |what: &str| match &scripted_1v1 {
            Some(t) => format!("not measured ({what}); {t}"),
            None => format!("not measured ({what})"),
        };
        let squads = match a.squads_rollout.as_ref().and_then(|s| s.largest().map(|x| (s, x))) {
            Some((s, (p, side, g))) => {
                let e = s.family_wise(g);
                PlayLevel {
                play: "scripted",
                tactic: None,
                exploitability: None,
                exploitability_lower_bound: Some(Estimate {
                    value: e.value.max(0.0),
                    lo: e.lo.max(0.0),
                    hi: e.hi.max(0.0),
                }),
                rollout: Some(p.rollout.clone()),
                measured: format!(
                    "lower bound from {}; points-matched squads): the largest gain, {} in {} v {}, is {:+.1} points \
                     [{:+.1}, {:+.1}] (95% family-wise, Bonferroni over the {} sides tried; `rollout` is that pair's); a \
                     best response over every policy may gain more{}",
                    s.method_words(),
                    if side == 0 { &p.a_name } else { &p.b_name },
                    p.a_name,
                    p.b_name,
                    100.0 * e.value,
                    100.0 * e.lo,
                    100.0 * e.hi,
                    2 * s.pairs.len(),
                    scripted_1v1.as_ref().map_or(String::new(), |t| format!("; {t}"))
                ),
            }
            }
            None => PlayLevel {
                play: "scripted",
                tactic: None,
                exploitability: None,
                exploitability_lower_bound: None,
                rollout: None,
                measured: unmeasured("no best response is solved or rolled out for squads"),
            },
        };
        let squads = match &a.squads_game {
            Some(g) => with_squads_game(a.squads_rollout.as_ref(), g),
            None => squads,
        };
        Play {
            one_against_one,
            squads,
            skirmish: a.skirmish.as_ref().and_then(|s| s.runs.first().map(|run| (s, run))).map(|(s, run)| {
                let level = skirmish_level(
                    s.metagame.as_ref(),
                    s.metagame_error.as_deref(),
                    &run.tactic,
                    &s.no_rollout_words(),
                    &unmeasured,
                );
                match &s.rollout {
                    Some(r) => with_rollout(level, r, &s.text.turns),
                    None => level,
                }
            }),
        }
    }
}

/// The squads' level when the report solved the squads' tactic game
/// ([`crate::analysis::squads_game`]): the points-matched matrix, the efficiency, the suggested
/// costs and the efficiency by distance play each pair's equilibrium mixes. The lower bound on
/// its exploitability is the larger of the game's best switch of tactic against them
/// (family-wise, floored at 0) and the rollout best response's gain against them where one was
/// played (`rollout`, the level [`Play::of`] built from it: its bound and its words; the report
/// bases the rollout on the same equilibrium). The game's switches against the scripted
/// tactic, which the squads would play without the game, are named in `measured`.
fn with_squads_game(
    rollout: Option<&crate::analysis::squads_rollout::SquadsRollout>,
    g: &crate::analysis::squads_game::SquadsGame,
) -> PlayLevel {
    let floor = |e: Estimate| Estimate { value: e.value.max(0.0), lo: e.lo.max(0.0), hi: e.hi.max(0.0) };
    let against_equilibrium = g.largest(false).map(|(q, s, x)| (q, s, x, g.family_wise(x)));
    let game_bound = against_equilibrium.as_ref().map(|x| floor(x.3));
    // The rollout's largest gain against the equilibrium (family-wise), and its pair.
    let largest = rollout.and_then(|r| r.largest().map(|(p, side, x)| (r, p, side, r.family_wise(x))));
    let rollout_bound = largest.as_ref().map(|x| floor(x.3));
    let bound = match (game_bound, rollout_bound) {
        (Some(x), Some(y)) => Some(if y.value > x.value { y } else { x }),
        (x, y) => x.or(y),
    };
    let equilibrium = match &against_equilibrium {
        Some((q, s, x, f)) => format!(
            "the largest switch of tactic against the equilibrium, {} to `{}` in {} v {}, gains {:+.1} points \
             [{:+.1}, {:+.1}]",
            if *s == 0 { &q.a_name } else { &q.b_name },
            x.tactic,
            q.a_name,
            q.b_name,
            100.0 * f.value,
            100.0 * f.lo,
            100.0 * f.hi
        ),
        None => "no switch of tactic was played against the equilibrium".to_string(),
    };
    let against_scripted = match g.largest(true) {
        Some((p, side, d)) => {
            let e = g.family_wise(d);
            format!(
                "; the scripted tactic, which the squads would play without the game, loses up to {:+.1} points \
                 [{:+.1}, {:+.1}] to a switch ({} to `{}` in {} v {}; {} of the {} pairs clearly)",
                100.0 * e.value,
                100.0 * e.lo,
                100.0 * e.hi,
                if side == 0 { &p.a_name } else { &p.b_name },
                d.tactic,
                p.a_name,
                p.b_name,
                g.exploited_pairs().len(),
                g.pairs.len()
            )
        }
        None => String::new(),
    };
    let from_rollout = match &largest {
        Some((r, p, side, e)) => format!(
            "; and {}; 95% family-wise over the {} sides tried; `rollout` is that pair's): its largest gain, {} in \
             {} v {}, is {:+.1} points [{:+.1}, {:+.1}]",
            r.method_words(),
            2 * r.pairs.len(),
            if *side == 0 { &p.a_name } else { &p.b_name },
            p.a_name,
            p.b_name,
            100.0 * e.value,
            100.0 * e.lo,
            100.0 * e.hi
        ),
        None => String::new(),
    };
    PlayLevel {
        play: "equilibrium",
        tactic: Some(crate::rulesets::skirmish::EQUILIBRIUM_MIX.to_string()),
        exploitability: None,
        exploitability_lower_bound: bound,
        rollout: largest.map(|(_, p, _, _)| p.rollout.clone()),
        measured: format!(
            "{}the squads' tactic game (every pair but the mirrors, which play the scripted tactic; each side picking one \
             of {} tactics, {} duels a cell, double oracle; 95% family-wise, Bonferroni over the {} sides and their \
             alternatives): {equilibrium}{from_rollout}; a best response over every policy may gain more{against_scripted}",
            if largest.is_some() { "the larger of two lower bounds: " } else { "lower bound from " },
            g.tactics.len(),
            crate::format::thousands(g.trials),
            g.sides()
        ),
    }
}

/// The skirmish's play: the tactic metagame's equilibrium (`tactic`: its tactic on both sides,
/// or "equilibrium mix"), and the best switch of tactic against it as a lower bound on its
/// exploitability ([`Metagame`]); without a metagame (one tactic, or `error`: why it was
/// not solved), the scripted tactic, not measured (`unmeasured(why)` says so).
fn skirmish_level(
    m: Option<&Metagame>,
    error: Option<&str>,
    tactic: &str,
    no_rollout: &str,
    unmeasured: impl Fn(&str) -> String,
) -> PlayLevel {
    let Some(m) = m else {
        let why = match error {
            Some(e) => format!("the skirmish's tactic metagame was not solved ({e}); no best response is rolled out"),
            None => "the ruleset has one skirmish tactic, so no tactic metagame; no best response is rolled out".into(),
        };
        return PlayLevel {
            play: "scripted",
            tactic: Some(tactic.to_string()),
            exploitability: None,
            exploitability_lower_bound: None,
            rollout: None,
            measured: unmeasured(&why),
        };
    };
    let best = m.largest_gain();
    let bound = best.map(|(_, d)| Estimate { value: d.gain.value.max(0.0), lo: d.gain.lo.max(0.0), hi: d.gain.hi.max(0.0) });
    let switch = match best {
        Some((s, d)) => format!(
            "the best switch of tactic against it, side {} to `{}`, changes that side's score by {:+.1} points \
             [{:+.1}, {:+.1}] (95%)",
            ["A", "B"][s],
            d.tactic,
            100.0 * d.gain.value,
            100.0 * d.gain.lo,
            100.0 * d.gain.hi
        ),
        None => "no switch of tactic against it was played".to_string(),
    };
    PlayLevel {
        play: "equilibrium",
        tactic: Some(tactic.to_string()),
        exploitability: None,
        exploitability_lower_bound: bound,
        rollout: None,
        measured: format!(
"lower bound from the skirmish's tactic metagame ({} tactics; {}): {switch}; a best response beyond the \
             portfolio is not searched ({no_rollout}), so the exploitability may be larger",
            m.tactics.len(),
            match (m.played, m.play().as_pure()) {
                (Some(_), _) => "both sides play its equilibrium tactic".to_string(),
                (None, Some(_)) => format!("each side plays its equilibrium tactic, {}", m.play_text()),
                (None, None) => format!("each side draws its tactic for each game from its equilibrium mix, {}", m.play_text()),
            }
        ),
    }
}

/// `level` with the rollout best response's gain ([`crate::rulesets::rollout`]): the lower
/// bound is the larger of the best switch's and the rollout's (each floored at 0), and
/// `measured` names both. `turns`: the book's word for the rollout's stages, plural.
fn with_rollout(level: PlayLevel, r: &crate::rulesets::rollout::RolloutGain, turns: &str) -> PlayLevel {
    let g = r.largest();
    let side = if std::ptr::eq(g, &r.sides[0]) { "A" } else { "B" };
    let rollout = Estimate { value: g.gain.value.max(0.0), lo: g.gain.lo.max(0.0), hi: g.gain.hi.max(0.0) };
    let bound = match level.exploitability_lower_bound {
        Some(b) if b.value >= rollout.value => b,
        _ => rollout,
    };
    let rollout_words = format!(
        "the rollout best response (a side picking at each of its {turns} the tactic whose {} playouts score best, {} \
         games) changes side {side}'s score by {:+.1} points [{:+.1}, {:+.1}] (95%); a best response over every policy \
         may gain more",
        r.rollouts,
        r.games,
        100.0 * g.gain.value,
        100.0 * g.gain.lo,
        100.0 * g.gain.hi
    );
    // The metagame's words say no best response is searched beyond the portfolio: the rollout
    // is one, so its words take their place (or follow, where the metagame was not played).
    let unsearched = "a best response beyond the portfolio is not searched (no rollout best response is built), so \
                      the exploitability may be larger";
    let measured = if level.measured.contains(unsearched) {
        level.measured.replace(unsearched, &rollout_words)
    } else {
        format!("{}; {rollout_words}", level.measured)
    };
    PlayLevel { exploitability_lower_bound: Some(bound), measured, rollout: Some(r.clone()), ..level }
}

/// How many trials a matrix's matchups used.
#[derive(Debug, Serialize, PartialEq)]
pub struct TrialCounts {
    pub matchups: usize,
    /// Matchups solved exactly (they play no trials).
    pub exact: usize,
    pub total: u64,
    /// Fewest and most trials over the simulated matchups (0 when none was simulated).
    pub min: u64,
    pub max: u64,
}

impl TrialCounts {
    pub fn of(m: &Matrix) -> Self {
        let cells = m.cells.iter().flatten();
        // Exact: the scripted tactic's Markov chain, or optimal play.
        let simulated: Vec<u64> = cells.clone().filter(|c| c.method == "monte-carlo").map(|c| c.trials).collect();
        TrialCounts {
            matchups: cells.clone().count(),
            exact: cells.filter(|c| c.method != "monte-carlo").count(),
            total: simulated.iter().sum(),
            min: simulated.iter().copied().min().unwrap_or(0),
            max: simulated.iter().copied().max().unwrap_or(0),
        }
    }
}

/// The distance sweep: `efficiency.UNIT_ID[k]` is the unit's efficiency (95% interval) at
/// `distances[k]`, units in the sweep's (cost-list) order.
#[derive(Debug, Serialize)]
pub struct Sweep<'a> {
    pub distances: &'a [f64],
    /// The distances' unit, as `duel.unit`.
    pub unit: &'a str,
    /// Target 95% half-width per matchup of the sweep, as a probability.
    pub target_error: f64,
    pub efficiency: SweepEfficiency<'a>,
}

/// Unit id → estimates, serialised as a JSON object in the sweep's unit order.
#[derive(Debug)]
pub struct SweepEfficiency<'a>(pub &'a DistanceSweep);

impl Serialize for SweepEfficiency<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let sweep = self.0;
        let mut map = s.serialize_map(Some(sweep.units.len()))?;
        for (u, id) in sweep.units.iter().enumerate() {
            let row: &[Estimate] = sweep.efficiency.get(u).map_or(&[], Vec::as_slice);
            map.serialize_entry(id, row)?;
        }
        map.end()
    }
}

/// `[(key, value)]` serialised as a JSON object that keeps the given order.
#[derive(Debug)]
pub struct Variants<'a>(pub &'a [(String, String)]);

impl Serialize for Variants<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'a> From<&'a RulesetAnalysis> for Summary<'a> {
    fn from(a: &'a RulesetAnalysis) -> Self {
        Summary {
            summary_format: SUMMARY_FORMAT,
            pointsworth_version: &a.version,
            ruleset: &a.ruleset,
            title: &a.title,
            config: ConfigRef { path: &a.config_path, hash: &a.config_hash, text: a.config_text.as_deref() },
            seed: a.seed,
            variants: Variants(&a.variants),
            duel: Duel { distance: a.distance, unit: &a.distance_unit },
            budget: a.budget,
            squad_caps: &a.squad_caps,
            precision: Precision {
                confidence: CONFIDENCE,
                target_error: a.target_error,
                max_trials_per_matchup: a.max_trials,
                fixed_trials: a.fixed_trials,
            },
            trials: Trials {
                matrix_1v1: TrialCounts::of(&a.matrix_1v1),
                matrix_points: TrialCounts::of(&a.matrix_points),
            },
            units: &a.units,
            efficiency: &a.efficiency,
            verdicts: crate::analysis::verdict::verdicts(a),
            distance_sweep: a.distance_sweep.as_ref().map(|s| Sweep {
                distances: &s.distances,
                unit: &a.distance_unit,
                target_error: s.target_error,
                efficiency: SweepEfficiency(s),
            }),
            win_rate_by_distance: a.win_rate_by_distance.as_ref(),
            optimal_play: a.optimal_play.as_ref(),
            play: Play::of(a),
            readings: a.readings.as_ref(),
            matrix_1v1: &a.matrix_1v1,
            matrix_points: &a.matrix_points,
            coverage: &a.coverage,
            warnings: &a.warnings,
        }
    }
}

/// Pretty-printed `summary.json` bytes, ending with a newline.
pub fn summary_json(a: &RulesetAnalysis) -> anyhow::Result<Vec<u8>> {
    let mut bytes = serde_json::to_vec_pretty(&Summary::from(a))?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// `summary.json`, and the last line of `report.md` pointing to it.
pub struct SummaryFile;

impl super::Section for SummaryFile {
    fn write_files(&self, a: &RulesetAnalysis, dir: &std::path::Path) -> anyhow::Result<Vec<std::path::PathBuf>> {
        let path = dir.join("summary.json");
        super::write_atomic(&path, &summary_json(a)?)?;
        Ok(vec![path])
    }

    fn markdown(&self, _: &RulesetAnalysis, o: &mut String) {
        o.push_str("Every number above, with its interval, is also in [summary.json](summary.json).\n");
    }
}
