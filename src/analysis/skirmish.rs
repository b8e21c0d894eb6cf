//! Skirmish results: win/draw rates, per-unit statistics and *value in army*.
//!
//! Value in army (DESIGN.md, metric table): over games between random legal armies, a
//! logistic regression of the result (A wins 1, draw ½, B wins 0) on each unit type's and
//! upgrade's count difference (A − B). A coefficient b is the change in win log-odds from one
//! more of that item; b / cost is its win log-odds per point. The *field mean* m is the mean
//! over unit types of log-odds per point: what an average point of army buys.
//!
//! The reported quantity is the item's log-odds per 100 points **minus the field mean per 100
//! points**, 100 (b / cost − m): 0 is an item worth its cost, above 0 it wins more than its
//! cost suggests (too cheap), below 0 fewer (too expensive); an interval that excludes 0 says
//! which. It is a linear combination of the coefficients, so its interval comes straight from
//! their covariance. The covariance is the sandwich estimate ([`logistic::LogisticFit::robust_cov`]),
//! right for results of ½.
//!
//! Why not the ratio (b / cost) / m: armies are built to (nearly) the same points, so the
//! points-weighted sum of count differences varies only within the 5% slack and the common
//! level m is weakly identified; a ratio over it has a delta-method interval that fails where
//! m's interval nears 0. The item's fair price b / m (what it would cost at the field mean)
//! is still given, with Fieller's interval (Fieller 1954), which is exact for a ratio of
//! normal estimates and says "unbounded" when m cannot be told from 0.
//!
//! Where every army fields as many units (Gunplay's skirmish: 5 characters a side), a common
//! shift of every coefficient fits the games equally well ([`blind_directions`]): only the
//! differences between coefficients are measured. At equal costs the values against the field
//! mean are such differences and are reported, while m and the prices are not identified (no
//! price); at unequal costs not even those are, and the items are listed as unidentified
//! ([`SkirmishAnalysis::value_unidentified`]) instead of given a row.

use indicatif::ProgressBar;
use serde::{Deserialize, Serialize};

use crate::analysis::logistic;
use crate::rulesets::UnitInfo;
use crate::rulesets::skirmish::{Armies, EQUILIBRIUM_MIX, Play, Skirmish, SkirmishText};
use crate::sim::skirmish::{SkirmishTally, simulate, simulate_play};
use crate::stats::{CONFIDENCE, ClusterSums, Estimate, clustered_proportion, wilson, z_for};

/// One unit type's skirmish statistics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SkirmishUnitRow {
    pub id: String,
    pub name: String,
    pub cost: f64,
    /// Units of this type fielded over all games (both sides).
    pub fielded: u64,
    /// Enemy units destroyed per unit fielded.
    pub kills_per_unit: f64,
    /// Share of fielded units alive at the end, with a cluster-robust (by game) Wilson
    /// interval ([`clustered_proportion`]): units of one game are not independent.
    pub survival: Estimate,
    /// Enemy points destroyed per point spent on this type.
    pub points_killed_per_point: f64,
}

/// One cost-list item's value in army (see the module docs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ValueRow {
    pub name: String,
    /// "unit" or "upgrade".
    pub item: String,
    pub cost: f64,
    /// Win log-odds per one more of the item (the regression coefficient) and its sandwich
    /// standard error. Where the games leave a direction of the coefficients free (every
    /// army fields as many units: Gunplay's skirmish), the coefficients of least norm among the
    /// equally good fits: for units of one cost, each unit's coefficient less their mean.
    pub log_odds: f64,
    pub log_odds_se: f64,
    /// Win log-odds per 100 points of the item minus the field mean per 100 points, with a
    /// 95% interval: 0 is worth its cost, above 0 too cheap, below 0 too expensive.
    pub log_odds_per_100_points_vs_field: Estimate,
    /// The fair price log_odds / field mean: what the item would cost at the field mean;
    /// `None` where the games do not identify the field mean ([`value_in_army`]: e.g. every
    /// army of Gunplay's skirmish fields 5 characters, all at the same starting cost).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<Price>,
}

/// A ratio estimate with Fieller's 95% interval, which may be unbounded.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Price {
    pub value: f64,
    /// `[lo, hi]`; `None` when the interval is unbounded (the denominator's own interval
    /// reaches 0, so no finite set of prices is excluded).
    pub interval: Option<[f64; 2]>,
}

impl Price {
    /// "81.0 \[67.2, 94.8\]", or "81.0 \[unbounded\]".
    pub fn text(&self) -> String {
        match self.interval {
            Some([lo, hi]) => format!("{:.1} [{lo:.1}, {hi:.1}]", self.value),
            None => format!("{:.1} [unbounded]", self.value),
        }
    }
}

impl ValueRow {
    /// Its price as [`Price::text`] gives it, "—" where the games identify none.
    pub fn price_text(&self) -> String {
        self.price.map_or_else(|| "—".to_string(), |p| p.text())
    }
}

/// Whether an item is too cheap, fair or too expensive by its interval of log-odds per 100
/// points against the field mean: "too cheap" when the interval lies above 0, "too expensive"
/// when below, "fair" when it contains 0.
pub fn verdict(e: &Estimate) -> &'static str {
    if e.lo > 0.0 {
        "too cheap"
    } else if e.hi < 0.0 {
        "too expensive"
    } else {
        "fair"
    }
}

/// Everything a skirmish run reports.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SkirmishAnalysis {
    /// "random" or the two army descriptions.
    pub armies: String,
    pub tactic: String,
    /// The mission's kebab-case name ([`crate::rulesets::skirmish::MissionInfo`]); empty for
    /// the ruleset's basic game (its first mission).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub mission: String,
    pub seed: u64,
    pub games: u64,
    pub points: f64,
    pub a_wins: Estimate,
    pub b_wins: Estimate,
    pub draws: Estimate,
    pub mean_turns: f64,
    pub units: Vec<SkirmishUnitRow>,
    /// Empty for fixed armies or when the fit failed.
    /// Best first by log-odds per point.
    pub value_in_army: Vec<ValueRow>,
    /// The field mean: win log-odds per 100 points of the average unit type, with a 95%
    /// interval (`None` without a regression, or where the games do not identify it:
    /// [`value_in_army`]).
    #[serde(default)]
    pub field_log_odds_per_100_points: Option<Estimate>,
    /// Pearson dispersion of the regression (1 for 0/1 results that follow the model; below 1
    /// when draws scored ½ make results less variable); 0 without a regression.
    #[serde(default)]
    pub fit_dispersion: f64,
    /// Whether the regression's Newton iterations converged.
    pub fit_converged: bool,
    /// Items the regression fitted but whose value against the field mean the games do not
    /// identify ([`value_in_army`]: every army fields as many units, at unequal costs), so
    /// they have no row; empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub value_unidentified: Vec<String>,
    /// Replay picture file name, when one was drawn.
    pub replay: Option<String>,
    /// The table, terrain and rules in force, in words, from the config (for the report's
    /// text); empty when the ruleset's section describes them itself.
    #[serde(default)]
    pub setup: String,
    /// The replay picture itself (SVG text) for the report writer; not serialised.
    #[serde(skip)]
    pub replay_svg: Option<String>,
}

/// A ruleset's skirmish as the report shows it: the book's words, the tactics, the runs between
/// random armies (the played run first: the tactic metagame's equilibrium, the run of its
/// tactic where both sides play one and the same, else a run of its own in which each game
/// draws each side's tactic from its mix; then one run per tactic; the first run carries the
/// replay), and the tactic metagame.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SkirmishSection {
    pub text: SkirmishText,
    /// `(name, description)` of each run's play, in run order (the played one first, then
    /// the tactics in the ruleset's order).
    pub tactics: Vec<(String, String)>,
    pub runs: Vec<SkirmishAnalysis>,
    /// One run per mission after the basic game (issue 19, "value per mission"), random armies
    /// under the played run's play at the same number of games, in the ruleset's mission order;
    /// empty for a ruleset with one mission.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missions: Vec<SkirmishAnalysis>,
    /// The tactic metagame of the basic game ([`crate::analysis::metagame`]): which tactic
    /// each side should play, and how much a switch of tactic gains against the played tactic
    /// of value in army; `None` for a ruleset with one skirmish tactic, or when it could not
    /// be solved (`metagame_error` says why).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metagame: Option<crate::analysis::metagame::Metagame>,
    /// Why the metagame's linear programs failed (a programming error: its cells are finite
    /// scores in [0, 1]); a report warning says so, and the default tactic is played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metagame_error: Option<String>,
    /// The rollout best response of each side against the played tactic on both sides
    /// ([`crate::rulesets::rollout`]); `None` where the ruleset's game is not played in stages
    /// or its `rollout_games` is 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rollout: Option<crate::rulesets::rollout::RolloutGain>,
    /// Why a ruleset whose game is played in stages has no rollout best response in the
    /// section (its `rollout_games` is 0, or the rollout's error); `None` where it has one or
    /// the ruleset has none built.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rollout_missing: Option<String>,
}

impl SkirmishSection {
    /// The runs of value per mission: the basic game under the played tactic, then every
    /// other mission; empty for a ruleset with one mission.
    pub fn mission_runs(&self) -> Vec<&SkirmishAnalysis> {
        match self.runs.first() {
            Some(basic) if !self.missions.is_empty() => std::iter::once(basic).chain(&self.missions).collect(),
            _ => Vec::new(),
        }
    }

    /// A run's mission as the report names it: its kebab-case name, or the section's file
    /// stem for the basic game.
    pub fn mission_label(&self, r: &SkirmishAnalysis) -> String {
        if r.mission.is_empty() { self.stem() } else { r.mission.clone() }
    }

    /// File stem of the section's files: the game's name in lower case (`skirmish`,
    /// `mission`), so `skirmish.json`, `mission_units.csv`...
    pub fn stem(&self) -> String {
        self.text.game.to_lowercase()
    }

    /// Why the section has no rollout best response, in words for the report: "no rollout
    /// best response is built" where the ruleset's game is not played in stages, else
    /// "no rollout best response was run: " and [`SkirmishSection::rollout_missing`].
    pub fn no_rollout_words(&self) -> String {
        match &self.rollout_missing {
            Some(why) => format!("no rollout best response was run: {why}"),
            None => "no rollout best response is built".to_string(),
        }
    }
}

/// "random", or "A: … / B: …" naming both fixed armies.
pub fn armies_text<S: Skirmish>(s: &S, armies: &Armies<S::Army>) -> String {
    match armies {
        Armies::Random => "random".to_string(),
        Armies::Fixed(x) => format!("A: {} / B: {}", s.describe_army(&x[0]), s.describe_army(&x[1])),
    }
}

/// The name of the play in which side A plays `tactics[0]` and side B `tactics[1]`: the
/// tactic's name when both play it, else `"x (A) v y (B)"`.
pub fn tactics_name<S: Skirmish>(s: &S, tactics: [usize; 2]) -> String {
    Play::pure(tactics, s.tactics().len()).name(s.tactics())
}

/// Plays `trials` games of `s`'s `mission` (index into [`Skirmish::missions`]; 0 the basic
/// game) in which side A plays `tactics[0]` and side B `tactics[1]` (indices into its tactics)
/// between `armies` and analyses them: win rates, unit statistics (unit types never fielded
/// left out) and, for random armies, value in army (per the mission's points per side).
pub fn run_skirmish<S: Skirmish>(
    s: &S,
    armies: &Armies<S::Army>,
    tactics: [usize; 2],
    mission: usize,
    seed: u64,
    trials: u64,
    progress: &ProgressBar,
) -> SkirmishAnalysis {
    run_play(s, armies, &Play::pure(tactics, s.tactics().len()), mission, seed, trials, progress)
}

/// [`run_skirmish`] under `play`: each side's tactic, or the mix each game draws it from
/// ([`simulate_play`]); the run is named by [`Play::name`].
pub fn run_play<S: Skirmish>(
    s: &S,
    armies: &Armies<S::Army>,
    play: &Play,
    mission: usize,
    seed: u64,
    trials: u64,
    progress: &ProgressBar,
) -> SkirmishAnalysis {
    let tally = simulate_play(s, armies, play, mission, seed, trials, progress);
    analyse_run(s, armies, play, mission, seed, &tally)
}

/// The tactic a mix weighs most (the first on a tie): the one the replay of a mixed play shows.
pub fn heaviest(mix: &[f64]) -> usize {
    mix.iter().enumerate().fold(0, |best, (t, &w)| if w > mix[best] { t } else { best })
}

/// The analysis [`run_play`] makes of `tally`, the games it played.
fn analyse_run<S: Skirmish>(
    s: &S,
    armies: &Armies<S::Army>,
    play: &Play,
    mission: usize,
    seed: u64,
    tally: &SkirmishTally,
) -> SkirmishAnalysis {
    let units = s.skirmish_units();
    let upgrades = s.skirmish_upgrades();
    let name = play.name(s.tactics());
    let points = s.mission_settings(mission).points;
    let mut a = analyse_skirmish(&units, &upgrades, tally, &armies_text(s, armies), &name, seed, points);
    a.units.retain(|u| u.fielded > 0);
    if mission > 0 {
        a.mission = s.missions()[mission].name.to_string();
    }
    a
}

/// The report's skirmish section of `s`: `report_trials` random-army games under every tactic,
/// the tactic metagame's other cells ([`crate::analysis::metagame::play`]), then as many games
/// under its equilibrium ([`crate::analysis::metagame::Metagame::play`]; both sides on the
/// default tactic without a metagame) where that is not one tactic on both sides, and in each
/// of the ruleset's other missions (value per mission), the rollout best response against it,
/// and one replay picture of the basic game (`None` when `report_trials` is 0 or the skirmish
/// cannot be played). `progress(trials, message)` makes the progress bar of one run.
pub fn report_section<S: Skirmish>(
    s: &S,
    seed: u64,
    progress: impl Fn(u64, String) -> ProgressBar,
) -> Option<SkirmishSection> {
    let n = s.skirmish_settings().report_trials;
    if n == 0 || s.check_skirmish().is_err() {
        return None;
    }
    let text = s.skirmish_text();
    let mut runs = Vec::new();
    let mut tallies = Vec::new();
    for (t, info) in s.tactics().iter().enumerate() {
        let pb = progress(n, format!("{} tactic", info.name));
        let tally = simulate(s, &Armies::Random, [t; 2], 0, seed, n, &pb);
        runs.push(analyse_run(s, &Armies::Random, &Play::pure([t; 2], s.tactics().len()), 0, seed, &tally));
        tallies.push(tally);
        pb.finish_and_clear();
    }
    // The runs of one tactic are the metagame's diagonal. Its linear programs fail only on a
    // programming error (the cells are finite scores in [0, 1]), which leaves the metagame
    // out (with a warning) rather than the section.
    let (metagame, metagame_error) = match crate::analysis::metagame::play(s, seed, n, &tallies, &progress) {
        Ok(m) => (m, None),
        Err(e) => (None, Some(e)),
    };
    drop(tallies);
    // The play of value in army, the unit statistics, the missions and the rollout: the
    // metagame's equilibrium (the default tactic on both sides when it has none), its run
    // first: the run of its tactic where both sides play one and the same, else a run of its
    // own.
    let k = s.tactics().len();
    let play = metagame.as_ref().map_or_else(|| Play::pure([0, 0], k), |m| m.play());
    let mut tactics: Vec<(String, String)> =
        s.tactics().iter().map(|t| (t.name.to_string(), t.description.to_string())).collect();
    match play.as_pure() {
        Some([a, b]) if a == b => {
            let first = runs.remove(a);
            runs.insert(0, first);
            let first = tactics.remove(a);
            tactics.insert(0, first);
        }
        _ => {
            let name = play.name(s.tactics());
            let pb = progress(n, name.clone());
            runs.insert(0, run_play(s, &Armies::Random, &play, 0, seed, n, &pb));
            pb.finish_and_clear();
            let how = match play.as_pure() {
                Some(_) => {
                    "each side plays its own tactic of the tactic metagame's equilibrium in every game".to_string()
                }
                None => format!(
                    "each side draws its tactic for each game from its equilibrium mix in the tactic metagame ({})",
                    metagame.as_ref().map_or(String::new(), |m| m.play_text())
                ),
            };
            tactics.insert(0, (name, how));
        }
    }
    let mut missions = Vec::new();
    for (m, info) in s.missions().iter().enumerate().skip(1).filter(|(m, _)| s.mission_in_value_table(*m)) {
        let pb = progress(n, info.name.to_string());
        missions.push(run_play(s, &Armies::Random, &play, m, seed, n, &pb));
        pb.finish_and_clear();
    }
    // How exploitable the play is beyond a switch of tactic: the rollout best response,
    // where the ruleset's game is played in stages.
    let settings = s.skirmish_settings();
    let (rollout, rollout_missing) = match s.rollout_stage() {
        None => (None, None),
        Some(_) if settings.rollout_games < 2 => (None, Some("`[skirmish] rollout_games` is 0".to_string())),
        Some(_) => {
            let pb = progress(settings.rollout_games, "rollout best response".to_string());
            let run =
                rollout_run(s, &Armies::Random, &play, 0, (settings.rollout_games, settings.rollout_playouts), seed);
            let gain = s.rollout(&run, &Armies::Random, 0, &pb);
            pb.finish_and_clear();
            match gain {
                Ok(g) => (Some(g), None),
                Err(e) => (None, Some(e)),
            }
        }
    };
    // The replay: a game of the played tactic on both sides, or, for a play of several
    // tactics, of the tactic side A plays most.
    let shown = play.as_pure().map_or_else(|| heaviest(&play.mixes[0]), |t| t[0]);
    runs[0].replay_svg = Some(crate::battle::replay::to_svg(&s.replay(&Armies::Random, shown, 0, seed)));
    runs[0].replay = Some(format!("{}_replay.svg", text.game.to_lowercase()));
    runs[0].setup = text.setup.clone();
    Some(SkirmishSection { text, tactics, runs, missions, metagame, metagame_error, rollout, rollout_missing })
}

/// What a rollout best response of `s` runs ([`crate::rulesets::rollout::RolloutRun`]): the
/// base play `play` in games of `mission` with `armies`, `(games, playouts per option)`, seeded
/// from `seed` on a stream of its own (the games' stream names for side A's tactic, the
/// mission's, side B's tactic's, or [`EQUILIBRIUM_MIX`] for a mixed play, and "rollout").
pub fn rollout_run<S: Skirmish>(
    s: &S,
    armies: &Armies<S::Army>,
    play: &Play,
    mission: usize,
    (games, rollouts): (u64, u32),
    seed: u64,
) -> crate::rulesets::rollout::RolloutRun {
    let pure = play.as_pure();
    let mut names = s.stream_names(pure.map_or(0, |t| t[0]), armies);
    names.push(s.missions()[mission].name.to_string());
    names.push(pure.map_or(EQUILIBRIUM_MIX.to_string(), |t| s.tactics()[t[1]].name.to_string()));
    names.push("rollout".into());
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    crate::rulesets::rollout::RolloutRun {
        seed,
        stream: crate::seed::stream_id(&names),
        games,
        rollouts,
        play: play.clone(),
    }
}

/// A switch of tactic gaining more than this against the skirmish's played tactic (the lower
/// end of its 95% interval, in probability units: 2 score points) is a report warning (issue
/// 41: "a matchup whose bound exceeds 2 points is a warning").
pub const EXPLOITABLE: f64 = 0.02;

/// The report warning that the skirmish's play is exploitable by a switch of tactic within its
/// portfolio: the lower end of a side's best switch's interval exceeds [`EXPLOITABLE`]; or
/// that the metagame could not be solved. `None` without a metagame or such a switch.
pub fn metagame_warning(sk: &SkirmishSection) -> Option<crate::analysis::Warning> {
    if let Some(e) = &sk.metagame_error {
        return Some(crate::analysis::Warning {
            message: format!("skirmish: the tactic metagame was not solved ({e}); the default tactic is played"),
        });
    }
    let m = sk.metagame.as_ref()?;
    let (side, d) = m.largest_deviation().filter(|(_, d)| d.gain.lo > EXPLOITABLE)?;
    Some(crate::analysis::Warning {
        message: format!(
            "skirmish: value in army is played by {}, and side {} switching to `{}` gains {:.1} score \
             points [{:.1}, {:.1}]: those numbers measure a play that is exploitable (see \"How each matchup is \
             played\")",
            m.play_text(),
            ["A", "B"][side],
            d.tactic,
            100.0 * d.gain.value,
            100.0 * d.gain.lo,
            100.0 * d.gain.hi
        ),
    })
}

/// The report warning that the skirmish's play is exploitable by a rollout best response
/// ([`crate::rulesets::rollout`]): the lower end of a side's gain exceeds [`EXPLOITABLE`].
/// `None` without a rollout or such a gain.
pub fn rollout_warning(sk: &SkirmishSection) -> Option<crate::analysis::Warning> {
    let r = sk.rollout.as_ref()?;
    let (side, g) = [0, 1].map(|s| (s, &r.sides[s])).into_iter().max_by(|x, y| x.1.gain.lo.total_cmp(&y.1.gain.lo))?;
    (g.gain.lo > EXPLOITABLE).then(|| crate::analysis::Warning {
        message: format!(
            "skirmish: a rollout best response of side {} gains {:.1} score points [{:.1}, {:.1}] against the {}: \
             value in army measures a play that is exploitable (see \"How each matchup is played\")",
            ["A", "B"][side],
            100.0 * g.gain.value,
            100.0 * g.gain.lo,
            100.0 * g.gain.hi,
            if r.base.is_some() { "played tactic" } else { "equilibrium mix" }
        ),
    })
}

/// The report warning that the skirmish's equilibrium is a standoff ([`Metagame::standoff`]):
/// most of the games that give value in army are draws. `None` without a metagame or a
/// standoff.
///
/// [`Metagame::standoff`]: crate::analysis::metagame::Metagame::standoff
pub fn standoff_warning(sk: &SkirmishSection) -> Option<crate::analysis::Warning> {
    let m = sk.metagame.as_ref()?;
    let draws = m.standoff()?;
    let played = m.played?;
    Some(crate::analysis::Warning {
        message: format!(
            "skirmish: the tactic metagame's equilibrium, `{}` on both sides, is a standoff: {:.1}% of its games are \
             draws, so value in army rests on the few games that are decided (see \"How each matchup is played\")",
            m.tactics[played],
            100.0 * draws
        ),
    })
}

/// The items whose verdict (too cheap / fair / too expensive, by the interval of their value in
/// army) differs between the basic game (played tactic) and the section's other missions, as
/// a report warning naming each with its verdict per mission; `None` when there is none or the
/// ruleset has one mission. An item missing from a mission's regression is left out.
pub fn mission_verdict_warning(sk: &SkirmishSection) -> Option<crate::analysis::Warning> {
    let runs = sk.mission_runs();
    let basic = runs.first()?;
    let label = |r: &SkirmishAnalysis| sk.mission_label(r);
    let mut differ = Vec::new();
    for v in &basic.value_in_army {
        let verdicts: Vec<(String, &str)> = runs
            .iter()
            .filter_map(|r| {
                let x = r.value_in_army.iter().find(|x| x.name == v.name)?;
                Some((label(r), verdict(&x.log_odds_per_100_points_vs_field)))
            })
            .collect();
        if verdicts.len() > 1 && verdicts.iter().any(|(_, x)| *x != verdicts[0].1) {
            let each: Vec<String> = verdicts.iter().map(|(m, x)| format!("{x} in {m}")).collect();
            differ.push(format!("{} ({})", v.name, each.join(", ")));
        }
    }
    (!differ.is_empty()).then(|| crate::analysis::Warning {
        message: format!(
            "value per mission: the verdict of value in army differs between missions, so these costs are fair \
             in one kind of game and not in another: {}",
            differ.join("; ")
        ),
    })
}

/// Turns a tally into the reported statistics. `upgrades` are (name, cost) in cost-list order.
pub fn analyse_skirmish(
    units: &[UnitInfo],
    upgrades: &[(String, f64)],
    t: &SkirmishTally,
    armies: &str,
    tactic: &str,
    seed: u64,
    points: f64,
) -> SkirmishAnalysis {
    let n = units.len();
    let g = t.games.max(1) as f64;
    let mut rows = Vec::new();
    for (u, info) in units.iter().enumerate() {
        let fielded = t.fielded.get(u).copied().unwrap_or(0);
        let kills: u64 = (0..n).map(|v| t.kills.get(u * n + v).copied().unwrap_or(0)).sum();
        let points: f64 = (0..n).map(|v| t.kills.get(u * n + v).copied().unwrap_or(0) as f64 * units[v].cost).sum();
        let f = fielded.max(1) as f64;
        rows.push(SkirmishUnitRow {
            id: info.id.clone(),
            name: info.name.clone(),
            cost: info.cost,
            fielded,
            kills_per_unit: kills as f64 / f,
            survival: if fielded > 0 {
                clustered_proportion(&survival_sums(t, u), CONFIDENCE)
            } else {
                Estimate::exact(0.0)
            },
            points_killed_per_point: points / (f * info.cost),
        });
    }
    let v = value_in_army(units, upgrades, t);
    SkirmishAnalysis {
        armies: armies.to_string(),
        tactic: tactic.to_string(),
        mission: String::new(),
        seed,
        games: t.games,
        points,
        a_wins: wilson(t.wins[0] as f64, g, CONFIDENCE),
        b_wins: wilson(t.wins[1] as f64, g, CONFIDENCE),
        draws: wilson(t.draws as f64, g, CONFIDENCE),
        mean_turns: t.turns as f64 / g,
        units: rows,
        value_in_army: v.rows,
        field_log_odds_per_100_points: v.field,
        fit_dispersion: v.dispersion,
        fit_converged: v.converged,
        value_unidentified: v.unidentified,
        replay: None,
        setup: String::new(),
        replay_svg: None,
    }
}

/// Unit type `u`'s survival counts of tally `t`, with the per-game sums that let the interval
/// resample whole games.
pub fn survival_sums(t: &SkirmishTally, u: usize) -> ClusterSums {
    let at = |v: &Vec<u64>| v.get(u).copied().unwrap_or(0);
    ClusterSums {
        successes: at(&t.survivors),
        trials: at(&t.fielded),
        successes_sq: at(&t.survivors_sq),
        successes_trials: at(&t.survivors_fielded),
        trials_sq: at(&t.fielded_sq),
        clusters: t.games,
    }
}

/// The value-in-army regression's results.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ValueInArmy {
    /// Best first.
    pub rows: Vec<ValueRow>,
    /// Field mean log-odds per 100 points.
    pub field: Option<Estimate>,
    pub dispersion: f64,
    pub converged: bool,
    /// The items whose value against the field mean the games do not identify (no row).
    pub unidentified: Vec<String>,
}

/// Fieller's interval for the ratio a / m of two normal estimates with variances `vaa`, `vmm`
/// and covariance `vam` at normal quantile `z`: the set of P with (a − P m)² ≤ z² Var(a − P m).
/// Bounded only when m² > z² vmm (m's own interval excludes 0).
pub fn fieller(a: f64, m: f64, vaa: f64, vam: f64, vmm: f64, z: f64) -> Price {
    let z2 = z * z;
    let qa = m * m - z2 * vmm;
    let qb = a * m - z2 * vam;
    let qc = a * a - z2 * vaa;
    let disc = qb * qb - qa * qc;
    let interval = (qa > 0.0 && disc >= 0.0).then(|| {
        let r = disc.sqrt();
        [(qb - r) / qa, (qb + r) / qa]
    });
    Price { value: a / m, interval }
}

/// The regression and its reported quantities (see the module docs). Columns that never
/// vary (an item no random army could field) are left out. Rows best first.
///
/// Where the games cannot tell the field mean apart from a common shift of the coefficients
/// (every army fields as many units, all at the same cost, as in Gunplay's skirmish; or the
/// count differences always sum to one number, which the intercept takes up), the field mean
/// is not identified: `field` and every `price` are `None`, while the values against the field
/// mean, which that shift leaves alone, are still given. A row whose value the games do not
/// identify either is left out ([`blind_directions`]).
pub fn value_in_army(units: &[UnitInfo], upgrades: &[(String, f64)], t: &SkirmishTally) -> ValueInArmy {
    if t.records.len() < 50 {
        return ValueInArmy::default();
    }
    let items: Vec<(String, &str, f64)> = units
        .iter()
        .map(|u| (u.name.clone(), "unit", u.cost))
        .chain(upgrades.iter().map(|(n, c)| (n.clone(), "upgrade", *c)))
        .collect();
    let k = items.len();
    let varies: Vec<usize> =
        (0..k).filter(|&j| t.records.iter().any(|r| r.diff.get(j).is_some_and(|&d| d != 0))).collect();
    let x: Vec<Vec<f64>> = t.records.iter().map(|r| varies.iter().map(|&j| r.diff[j] as f64).collect()).collect();
    let y: Vec<f64> = t.records.iter().map(|r| [1.0, 0.0, 0.5][r.result as usize]).collect();
    let blind = blind_directions(&x);
    let Some(fit) = fit_seen(&x, &y, &blind) else {
        return ValueInArmy::default();
    };
    let m = varies.len() + 1;
    let cov = &fit.robust_cov;
    let covar = |g: &[f64], h: &[f64]| logistic::combination_covariance(cov, g, h);
    let var = |g: &[f64]| covar(g, g);
    // Field mean m = mean over unit types U of b_u / c_u, as a gradient over the coefficients.
    let unit_cols: Vec<usize> = (0..varies.len()).filter(|&c| items[varies[c]].1 == "unit").collect();
    let nu = unit_cols.len().max(1) as f64;
    let mut g_mean = vec![0.0; m];
    for &u in &unit_cols {
        g_mean[u + 1] += 1.0 / (nu * items[varies[u]].2);
    }
    let mean: f64 = (0..m).map(|a| g_mean[a] * fit.coef[a]).sum();
    let identified = identifies(&blind, &g_mean);
    let z = z_for(CONFIDENCE);
    let per_100 = |value: f64, variance: f64| {
        let h = 100.0 * z * variance.max(0.0).sqrt();
        Estimate { value: 100.0 * value, lo: 100.0 * value - h, hi: 100.0 * value + h }
    };
    let (mut rows, mut unidentified) = (Vec::new(), Vec::new());
    for c in 0..varies.len() {
        let cost = items[varies[c]].2;
        let mut g_item = vec![0.0; m];
        g_item[c + 1] = 1.0;
        // 100 (b_c / cost − m).
        let g_rel: Vec<f64> = (0..m).map(|a| g_item[a] / cost - g_mean[a]).collect();
        if !identifies(&blind, &g_rel) {
            unidentified.push(items[varies[c]].0.clone());
            continue;
        }
        let b = fit.coef[c + 1];
        rows.push(ValueRow {
            name: items[varies[c]].0.clone(),
            item: items[varies[c]].1.to_string(),
            cost,
            log_odds: b,
            log_odds_se: fit.robust_se[c + 1],
            log_odds_per_100_points_vs_field: per_100(b / cost - mean, var(&g_rel)),
            price: identified.then(|| fieller(b, mean, var(&g_item), covar(&g_item, &g_mean), var(&g_mean), z)),
        });
    }
    rows.sort_by(|a, b| b.log_odds_per_100_points_vs_field.value.total_cmp(&a.log_odds_per_100_points_vs_field.value));
    let field = identified.then(|| per_100(mean, var(&g_mean)));
    ValueInArmy { rows, field, dispersion: fit.dispersion, converged: fit.converged, unidentified }
}

/// The logistic fit of `y` on `x` ([`logistic::fit`], ridge 1e-6) where the games leave the
/// directions `blind` of the coefficients free ([`blind_directions`]; the plain fit where
/// there are none): fitted without one item column per blind direction (chosen by pivoted
/// elimination, so the directions are independent on them; a reference at 0, so that
/// Newton's method converges), then moved to the coefficients of least
/// norm among the equally good fits (each blind direction projected out of the coefficients
/// and their covariance). Every combination the games identify is the same whichever columns
/// are dropped. `None` where the fit fails.
fn fit_seen(x: &[Vec<f64>], y: &[f64], blind: &[Vec<f64>]) -> Option<logistic::LogisticFit> {
    if blind.is_empty() {
        return logistic::fit(x, y, 1e-6);
    }
    let m = x.first().map_or(0, Vec::len) + 1;
    // Gaussian elimination with column pivoting on the blind directions: the dropped columns
    // are ones on which the directions are independent, so fixing those coefficients at 0
    // leaves no free direction however many there are.
    let mut rows: Vec<Vec<f64>> = blind.to_vec();
    let mut dropped: Vec<usize> = Vec::new();
    for i in 0..rows.len() {
        let lean =
            (1..m).filter(|j| !dropped.contains(j)).max_by(|&a, &b| rows[i][a].abs().total_cmp(&rows[i][b].abs()))?;
        if rows[i][lean].abs() < 1e-9 {
            return None;
        }
        let (done, rest) = rows.split_at_mut(i + 1);
        let pivot = &done[i];
        for row in rest {
            let f = row[lean] / pivot[lean];
            row.iter_mut().zip(pivot).for_each(|(a, b)| *a -= f * b);
        }
        dropped.push(lean);
    }
    // The full coefficient index (intercept 0) of each reduced one.
    let kept: Vec<usize> = (0..m).filter(|j| !dropped.contains(j)).collect();
    let reduced: Vec<Vec<f64>> = x.iter().map(|r| kept[1..].iter().map(|&j| r[j - 1]).collect()).collect();
    let f = logistic::fit(&reduced, y, 1e-6)?;
    let n = kept.len();
    let mut coef = vec![0.0; m];
    let mut cov = vec![0.0; m * m];
    let mut model = vec![0.0; m * m];
    for (i, &a) in kept.iter().enumerate() {
        coef[a] = f.coef[i];
        for (j, &c) in kept.iter().enumerate() {
            cov[a * m + c] = f.robust_cov[i * n + j];
            model[a * m + c] = f.cov[i * n + j];
        }
    }
    // P = I − Σ v vᵀ (the blind directions are orthonormal eigenvectors).
    let p = |a: usize, c: usize| (a == c) as u8 as f64 - blind.iter().map(|v| v[a] * v[c]).sum::<f64>();
    let project = |c: &[f64]| {
        let pc: Vec<f64> = (0..m * m).map(|ac| (0..m).map(|l| p(ac / m, l) * c[l * m + ac % m]).sum()).collect();
        (0..m * m).map(|ac| (0..m).map(|l| pc[ac / m * m + l] * p(ac % m, l)).sum()).collect::<Vec<f64>>()
    };
    let coef: Vec<f64> = (0..m).map(|a| (0..m).map(|c| p(a, c) * coef[c]).sum()).collect();
    let (cov, model) = (project(&cov), project(&model));
    let diag_sqrt = |c: &[f64]| (0..m).map(|a| c[a * m + a].max(0.0).sqrt()).collect::<Vec<f64>>();
    Some(logistic::LogisticFit {
        coef,
        se: diag_sqrt(&model),
        cov: model,
        robust_se: diag_sqrt(&cov),
        robust_cov: cov,
        ..f
    })
}

/// The directions of the coefficients (intercept first, then one per column of `x`, the
/// games' count differences) that the games cannot see: every `v` with `v₀ + x v = 0` for all
/// games, as the unit eigenvectors of the design's Gram matrix whose eigenvalue is below 1e-9
/// of the largest. Empty where every combination is identified. A field whose armies all
/// field as many units (count differences summing to 0), or whose differences always sum to
/// one number (the intercept takes up the common shift), has one.
pub fn blind_directions(x: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let Some(first) = x.first() else { return Vec::new() };
    let k = first.len() + 1;
    let at = |r: &Vec<f64>, i: usize| if i == 0 { 1.0 } else { r[i - 1] };
    let gram = nalgebra::DMatrix::from_fn(k, k, |i, j| x.iter().map(|r| at(r, i) * at(r, j)).sum::<f64>());
    let eig = nalgebra::SymmetricEigen::new(gram);
    let top = eig.eigenvalues.iter().fold(0.0f64, |a, &l| a.max(l.abs()));
    (0..k)
        .filter(|&c| eig.eigenvalues[c].abs() <= 1e-9 * top.max(f64::MIN_POSITIVE))
        .map(|c| eig.eigenvectors.column(c).iter().copied().collect())
        .collect()
}

/// Whether the linear combination `g` of the coefficients (as [`blind_directions`] orders
/// them) is identified: orthogonal to every blind direction, within 1e-6 of `|g|`.
pub fn identifies(blind: &[Vec<f64>], g: &[f64]) -> bool {
    let norm = g.iter().map(|v| v * v).sum::<f64>().sqrt();
    blind.iter().all(|v| v.iter().zip(g).map(|(a, b)| a * b).sum::<f64>().abs() <= 1e-6 * norm)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::skirmish::ResultRow;

    /// A uniform draw in [0, 1) from a SplitMix64 stream.
    fn uniform(state: &mut u64) -> f64 {
        *state = crate::seed::splitmix64(*state);
        (*state >> 11) as f64 / (1u64 << 53) as f64
    }

    fn unit(name: &str, cost: f64) -> UnitInfo {
        UnitInfo { id: name.to_lowercase(), name: name.to_string(), cost, kind: "infantry".into() }
    }

    // Three unit types and one upgrade with known coefficients (win log-odds per one more):
    // per point 0.03, 0.025, 0.02 for the units, so the field mean is 0.025 per point (2.5 per
    // 100 points) and the truth of "per 100 points − field mean" is +0.5, 0, −0.5, and −0.5 for
    // the upgrade (0.02 per point); the fair prices b / mean are 12, 20, 32 and 24.
    const COSTS: [f64; 4] = [10.0, 20.0, 40.0, 30.0];
    const COEF: [f64; 4] = [0.3, 0.5, 0.8, 0.6];
    const TRUTH_VS_FIELD: [f64; 4] = [0.5, 0.0, -0.5, -0.5];
    const TRUTH_PRICE: [f64; 4] = [12.0, 20.0, 32.0, 24.0];

    fn setup() -> (Vec<UnitInfo>, Vec<(String, f64)>) {
        let units = ["Cheap", "Even", "Dear"].iter().zip(COSTS).map(|(n, c)| unit(n, c)).collect();
        (units, vec![("Scope".to_string(), COSTS[3])])
    }

    /// A result with mean score `p` (0: A won, 1: B won, 2: draw): a draw with probability
    /// δ = min(`max_draw`, 2p, 2(1 − p)), else a win with probability (p − δ/2)/(1 − δ), so
    /// E[score] = δ/2 + (p − δ/2) = p exactly: the logistic model holds for the mean score while
    /// draws make results less variable than 0/1.
    fn result(p: f64, max_draw: f64, state: &mut u64) -> u8 {
        let delta = max_draw.min(2.0 * p).min(2.0 * (1.0 - p));
        if uniform(state) < delta {
            2
        } else if uniform(state) < (p - delta / 2.0) / (1.0 - delta) {
            0
        } else {
            1
        }
    }

    /// `games` results drawn from the known logistic model on independent count differences in
    /// −3..=3; with `draws`, up to 30% of games are draws (see [`result`]).
    fn synthetic(seed: u64, games: usize, draws: bool) -> SkirmishTally {
        let mut state = seed;
        let mut t = SkirmishTally::default();
        for _ in 0..games {
            let diff: Vec<i8> = (0..4).map(|_| (uniform(&mut state) * 7.0).floor() as i8 - 3).collect();
            let eta: f64 = diff.iter().zip(COEF).map(|(&d, b)| d as f64 * b).sum();
            let p = 1.0 / (1.0 + (-eta).exp());
            let result = result(p, if draws { 0.3 } else { 0.0 }, &mut state);
            t.records.push(ResultRow { diff, result });
            t.games += 1;
        }
        t
    }

    fn row<'a>(v: &'a ValueInArmy, name: &str) -> &'a ValueRow {
        v.rows.iter().find(|r| r.name == name).unwrap()
    }

    /// Every army fields 5 units of three types costing 10 each (Gunplay's skirmish): only the
    /// differences between the coefficients are identified, so there is no field mean and no
    /// price, and each value against the field mean, 10 (b − mean b), is recovered (truth +3,
    /// 0, −3 for b = 0.4, 0.1, −0.2) within 4.5 of its standard errors. Where side A fields a
    /// sixth unit in a third of the games, the field mean is identified again. At unequal costs
    /// with 5 units a side nothing per point is: every item is reported unidentified.
    #[test]
    fn a_field_of_equal_sized_armies_at_equal_costs_has_values_but_no_field_mean_or_price() {
        let units: Vec<UnitInfo> = ["Rifle", "Shotgun", "Pistol"].iter().map(|n| unit(n, 10.0)).collect();
        let b = [0.4, 0.1, -0.2];
        let games = |sixth: bool| {
            let mut state = 7u64;
            let mut t = SkirmishTally::default();
            for g in 0..20_000 {
                let mut diff = [0i8; 3];
                for (side, n) in [(1i8, if sixth && g % 3 == 0 { 6 } else { 5 }), (-1, 5)] {
                    for _ in 0..n {
                        diff[(uniform(&mut state) * 3.0).floor() as usize] += side;
                    }
                }
                let eta: f64 = diff.iter().zip(b).map(|(&d, b)| d as f64 * b).sum();
                let result = result(1.0 / (1.0 + (-eta).exp()), 0.0, &mut state);
                t.records.push(ResultRow { diff: diff.to_vec(), result });
                t.games += 1;
            }
            t
        };
        let v = value_in_army(&units, &[], &games(false));
        assert!(v.field.is_none() && v.rows.iter().all(|r| r.price.is_none()), "{v:?}");
        let z = z_for(CONFIDENCE);
        for (name, truth) in [("Rifle", 3.0), ("Shotgun", 0.0), ("Pistol", -3.0)] {
            let e = row(&v, name).log_odds_per_100_points_vs_field;
            assert!((e.value - truth).abs() < 4.5 * e.half_width() / z, "{name}: {e:?}");
        }
        let v6 = value_in_army(&units, &[], &games(true));
        assert!(v6.field.is_some() && v6.rows.iter().all(|r| r.price.is_some()), "{v6:?}");
        // At unequal costs (10, 12, 8) a value per point against the field mean is not
        // identified either: no row, each item named as unidentified.
        let unequal: Vec<UnitInfo> =
            [("Rifle", 10.0), ("Shotgun", 12.0), ("Pistol", 8.0)].iter().map(|(n, c)| unit(n, *c)).collect();
        let vu = value_in_army(&unequal, &[], &games(false));
        assert!(vu.rows.is_empty() && vu.field.is_none(), "{vu:?}");
        assert_eq!(vu.unidentified, ["Rifle", "Shotgun", "Pistol"], "{vu:?}");
    }

    #[test]
    fn value_in_army_recovers_known_coefficients_and_normalises_to_the_field_mean() {
        let (units, upgrades) = setup();
        let v = value_in_army(&units, &upgrades, &synthetic(2026, 20_000, false));
        assert!(v.converged);
        let z = z_for(CONFIDENCE);
        // Normalisation: the unit types' values average exactly 0 (they define the field mean),
        // and each row is 100 (b / cost − field mean) of its own coefficient.
        let field = v.field.unwrap();
        let units_mean: f64 =
            v.rows.iter().filter(|r| r.item == "unit").map(|r| r.log_odds_per_100_points_vs_field.value).sum::<f64>()
                / 3.0;
        assert!(units_mean.abs() < 1e-12, "{units_mean}");
        for r in &v.rows {
            let e = r.log_odds_per_100_points_vs_field;
            assert!((e.value - (100.0 * r.log_odds / r.cost - field.value)).abs() < 1e-9, "{r:?}");
        }
        // Field mean 2.5 log-odds per 100 points, within 4 standard errors.
        assert!((field.value - 2.5).abs() < 4.0 * field.half_width() / z, "{field:?}");
        for (j, name) in ["Cheap", "Even", "Dear", "Scope"].iter().enumerate() {
            let r = row(&v, name);
            assert!((r.log_odds - COEF[j]).abs() < 4.0 * r.log_odds_se, "{r:?}");
            let e = r.log_odds_per_100_points_vs_field;
            let se = e.half_width() / z;
            assert!((e.value - TRUTH_VS_FIELD[j]).abs() < 4.0 * se, "{r:?}");
            // With 20,000 games the interval is informative but not implausibly tight.
            assert!(se > 0.005 && se < 0.2, "{r:?}");
            let price = r.price.expect("an identified field mean");
            let [lo, hi] = price.interval.expect("a well-measured field mean bounds every price");
            assert!(lo < price.value && price.value < hi && (price.value - TRUTH_PRICE[j]).abs() < hi - lo, "{r:?}");
        }
        // Best first, and the verdicts follow the truth where the interval can tell.
        let order: Vec<&str> = v.rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(order[0], "Cheap", "{order:?}");
        assert_eq!(verdict(&row(&v, "Cheap").log_odds_per_100_points_vs_field), "too cheap");
        assert_eq!(verdict(&row(&v, "Dear").log_odds_per_100_points_vs_field), "too expensive");
    }

    #[test]
    fn value_in_army_intervals_cover_the_truth_about_95_percent_of_the_time() {
        // 60 data sets × 4 items: the per-100-point intervals cover the truth at close to the
        // nominal 95%; a count of at most 228 of 240 (95%) with sd ≈ 3.4 puts 204 about 7 sd
        // below, so a correct interval cannot fail this, while one too narrow by half would.
        let (units, upgrades) = setup();
        let (mut covered, mut total) = (0, 0);
        for seed in 0..60u64 {
            let v = value_in_army(&units, &upgrades, &synthetic(1000 + seed, 1500, true));
            for (j, name) in ["Cheap", "Even", "Dear", "Scope"].iter().enumerate() {
                covered += usize::from(row(&v, name).log_odds_per_100_points_vs_field.contains(TRUTH_VS_FIELD[j]));
                total += 1;
            }
        }
        assert!(covered >= 204 && covered < total, "{covered} of {total}");
    }

    #[test]
    fn draws_scored_half_get_sandwich_standard_errors_below_the_binomial_ones() {
        let mut x = Vec::new();
        let mut y = Vec::new();
        let mut state = 7u64;
        for _ in 0..5000 {
            let d = (uniform(&mut state) * 7.0).floor() - 3.0;
            x.push(vec![d]);
            // Most games are draws: results of ½ vary much less than 0/1, at the same mean.
            let p = 1.0 / (1.0 + (-0.4 * d).exp());
            y.push([1.0, 0.0, 0.5][result(p, 0.8, &mut state) as usize]);
        }
        let f = logistic::fit(&x, &y, 0.0).unwrap();
        assert!(f.dispersion < 0.7, "{}", f.dispersion);
        assert!(f.robust_se[1] < 0.85 * f.se[1], "{} vs {}", f.robust_se[1], f.se[1]);
    }

    #[test]
    fn fieller_is_bounded_only_when_the_denominator_is_clearly_nonzero() {
        let z = 1.959964;
        // Denominator 1 ± 0.1: bounded, around the ratio, and wider on the far side.
        let p = fieller(2.0, 1.0, 0.01, 0.0, 0.01, z);
        let [lo, hi] = p.interval.unwrap();
        assert!(lo < 2.0 && 2.0 < hi && hi - 2.0 > 2.0 - lo, "{p:?}");
        // Denominator 0.1 ± 0.1: its interval reaches 0, so no finite interval.
        assert_eq!(fieller(2.0, 0.1, 0.01, 0.0, 0.01, z).interval, None);
        // An exact denominator gives the plain interval a/m ± z se(a)/m.
        let [lo, hi] = fieller(2.0, 4.0, 0.04, 0.0, 0.0, z).interval.unwrap();
        assert!((lo - (2.0 - z * 0.2) / 4.0).abs() < 1e-12 && (hi - (2.0 + z * 0.2) / 4.0).abs() < 1e-12);
    }

    #[test]
    fn survival_interval_widens_when_units_of_a_game_share_their_fate() {
        // 400 games, 10 units of one type each, each surviving with probability ½. Correlated:
        // in each game all 10 survive or all die (one coin per game), so the 4000 units carry
        // only 400 independent outcomes. Independent: one coin per unit.
        let mut correlated = SkirmishTally::default();
        let mut independent = SkirmishTally::default();
        let mut state = 99u64;
        for _ in 0..400 {
            let all = u64::from(uniform(&mut state) < 0.5) * 10;
            let some = (0..10).filter(|_| uniform(&mut state) < 0.5).count() as u64;
            for (t, s) in [(&mut correlated, all), (&mut independent, some)] {
                t.games += 1;
                t.fielded = vec![t.fielded.first().copied().unwrap_or(0) + 10];
                t.survivors = vec![t.survivors.first().copied().unwrap_or(0) + s];
                t.fielded_sq = vec![t.fielded_sq.first().copied().unwrap_or(0) + 100];
                t.survivors_fielded = vec![t.survivors_fielded.first().copied().unwrap_or(0) + 10 * s];
                t.survivors_sq = vec![t.survivors_sq.first().copied().unwrap_or(0) + s * s];
            }
        }
        let naive = |t: &SkirmishTally| wilson(t.survivors[0] as f64, t.fielded[0] as f64, CONFIDENCE);
        let robust = |t: &SkirmishTally| clustered_proportion(&survival_sums(t, 0), CONFIDENCE);
        let (c, cn) = (robust(&correlated), naive(&correlated));
        // Design effect 10: the interval is about √10 ≈ 3.2 times wider.
        let ratio = c.half_width() / cn.half_width();
        assert!(ratio > 2.8 && ratio < 3.5, "{c:?} vs {cn:?}");
        // Independent units: the robust interval is the naive one within sampling noise.
        let (i, inn) = (robust(&independent), naive(&independent));
        let ratio = i.half_width() / inn.half_width();
        assert!(ratio > 0.85 && ratio < 1.15, "{i:?} vs {inn:?}");
    }

    /// A run with one value row per `(name, value, lo, hi)` (the value per 100 points against
    /// the field mean and its interval), for `mission` ("" the basic game).
    fn run_with(mission: &str, rows: &[(&str, f64, f64, f64)]) -> SkirmishAnalysis {
        let (units, upgrades) = setup();
        let mut a = analyse_skirmish(&units, &upgrades, &SkirmishTally::default(), "random", "default", 1, 350.0);
        a.mission = mission.to_string();
        a.value_in_army = rows
            .iter()
            .map(|&(name, value, lo, hi)| ValueRow {
                name: name.to_string(),
                item: "unit".into(),
                cost: 10.0,
                log_odds: 0.0,
                log_odds_se: 0.0,
                log_odds_per_100_points_vs_field: Estimate { value, lo, hi },
                price: Some(Price { value: 10.0, interval: None }),
            })
            .collect();
        a
    }

    fn section(runs: Vec<SkirmishAnalysis>, missions: Vec<SkirmishAnalysis>) -> SkirmishSection {
        let text = SkirmishText {
            game: "Skirmish".into(),
            games: "skirmishes".into(),
            army_size: "350 points".into(),
            item: "item".into(),
            item_kind: true,
            turns: "game turns".into(),
            outcome: Default::default(),
            setup: String::new(),
            replay_legend: String::new(),
        };
        SkirmishSection {
            text,
            tactics: vec![("default".into(), String::new())],
            runs,
            missions,
            metagame: None,
            metagame_error: None,
            rollout: None,
            rollout_missing: None,
        }
    }

    /// Without a rollout the report says why: not built where the ruleset's game is not played
    /// in stages (no reason recorded), else the reason (`rollout_games` 0, or the error).
    #[test]
    fn a_missing_rollout_is_called_not_built_or_not_run() {
        let mut sk = section(Vec::new(), Vec::new());
        assert_eq!(sk.no_rollout_words(), "no rollout best response is built");
        sk.rollout_missing = Some("`[skirmish] rollout_games` is 0".into());
        assert_eq!(sk.no_rollout_words(), "no rollout best response was run: `[skirmish] rollout_games` is 0");
    }

    /// Issue 19, item 5: an item whose verdict (by its interval) differs between the basic game
    /// and another mission is named with its verdict in each; one fair everywhere, or missing
    /// from a mission's regression, is not; a ruleset with one mission gets no warning.
    #[test]
    fn a_verdict_that_differs_between_missions_is_named() {
        let basic =
            run_with("", &[("Mortar", 1.0, 0.5, 1.5), ("Medics", 0.1, -0.1, 0.3), ("Scouts", -1.0, -1.5, -0.5)]);
        let capture = run_with("point-capture", &[("Mortar", 0.2, -0.1, 0.5), ("Medics", 0.0, -0.2, 0.2)]);
        let war = run_with(
            "ground-war",
            &[("Mortar", 1.2, 0.9, 1.5), ("Medics", 0.2, -0.1, 0.5), ("Scouts", -0.8, -1.2, -0.4)],
        );
        let w =
            mission_verdict_warning(&section(vec![basic.clone()], vec![capture, war])).expect("Mortar differs").message;
        assert!(w.contains("Mortar (too cheap in skirmish, fair in point-capture, too cheap in ground-war)"), "{w}");
        assert!(!w.contains("Medics") && !w.contains("Scouts"), "{w}");
        assert!(mission_verdict_warning(&section(vec![basic.clone()], Vec::new())).is_none());
        let same = run_with("ground-war", &[("Mortar", 0.9, 0.6, 1.2), ("Medics", 0.0, -0.3, 0.3)]);
        assert!(mission_verdict_warning(&section(vec![basic], vec![same])).is_none());
    }
}
