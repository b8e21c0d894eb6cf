//! One game into a picture: the traced game and its replay. (Games into numbers are the
//! generic engine's: the engine (`sim::skirmish`) plays the games of [`super::shape`].)

use super::objective::{CONTEST_RADIUS, OCCUPY_RADIUS};
use super::{End, Mission, Pick, Skirmish, SkirmishConfig, SkirmishOutcome, Trace};
use crate::rulesets::gng::GunsNGrenades;
use crate::rulesets::gng::skirmish::army::{Army, random_army};

/// Where the armies come from: fresh random legal armies for each game (drawn from the
/// game's dice), or the same two every game.
pub type Armies = crate::rulesets::skirmish::Armies<Army>;

/// Plays one seeded game of `mission` with a trace for the replay picture; returns the
/// game's final state, its outcome and the armies (random ones of the mission's points).
pub fn traced_game<'a>(
    r: &'a GunsNGrenades,
    cfg: &'a SkirmishConfig,
    armies: &Armies,
    tactic: Pick,
    mission: Mission,
    seed: u64,
) -> (Skirmish<'a>, SkirmishOutcome, [Army; 2]) {
    let points = mission.points(cfg.points);
    let mut dice =
        crate::dice::FastDice::from_seed(crate::seed::batch_seed(seed, crate::seed::stream_id(&["replay"]), 0));
    let pair = match armies {
        Armies::Random => [
            random_army(r, points, cfg.upgrade_chance, &mut dice),
            random_army(r, points, cfg.upgrade_chance, &mut dice),
        ],
        Armies::Fixed(x) => [x[0].clone(), x[1].clone()],
    };
    let mut g = Skirmish::new(r, cfg);
    g.trace = Some(Trace::default());
    g.set_mission(mission);
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
    tactic: Pick,
) -> crate::battle::replay::Replay {
    let r = g.r;
    let trace = g.trace.clone().unwrap_or_default();
    let mut units = Vec::new();
    for s in 0..2 {
        for (u, path, died) in &trace.units[s] {
            units.push(crate::battle::replay::ReplayUnit {
                side: s,
                label: short_label(&r.book.units[*u].name),
                name: r.book.units[*u].name.clone(),
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
    let mut notes = vec![
        format!("Blue (A, deploys at the top): {}", armies[0].describe(r)),
        format!("Red (B, deploys at the bottom): {}", armies[1].describe(r)),
    ];
    if !g.command_points.is_empty() {
        let how = match out.end {
            End::Captured => "every command point held",
            End::Destroyed => "every enemy unit destroyed",
            End::TurnCap => "the turn cap",
        };
        let held: Vec<String> = g
            .command_points
            .iter()
            .map(|p| {
                let who = p.holder.map_or("nobody", |s| if s == 0 { "blue" } else { "red" });
                format!("({:.0}\", {:.0}\") {who}", p.at.x, p.at.y)
            })
            .collect();
        notes.push(format!("Ended by {how}; command points held at the end: {}", held.join(", ")));
    }
    crate::battle::replay::Replay {
        title: format!("{} — {} replay ({} tactic): {result}", r.title_str(), g.mission.title(), tactic.name()),
        notes,
        table: g.table.clone(),
        deploy_depth: g.cfg.deploy_depth as f32,
        units,
        markers: command_point_markers(g, &trace),
        legend: (!g.command_points.is_empty()).then(|| {
            format!(
                "{} · ◆ command point, filled with its holder's colour at the end (grey: nobody's), labelled with \
                 each capture (side, game turn); dashed circles: {OCCUPY_RADIUS}\" (its units occupy it) and \
                 {CONTEST_RADIUS}\" (an enemy unit this near stops a capture)",
                crate::battle::replay::LEGEND
            )
        }),
    }
}

/// The replay's markers for the command points (GnG 1.5, "Types of Games"; none in the
/// Skirmish): each point's holder at the end, its captures in order ("CP1: blue t4 → red t7"),
/// and its 3" occupy and 6" contest radii.
fn command_point_markers(g: &Skirmish, trace: &Trace) -> Vec<crate::battle::replay::ReplayMarker> {
    let colour = |s: usize| if s == 0 { "blue" } else { "red" };
    g.command_points
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let captures: Vec<String> = trace
                .captures
                .iter()
                .filter(|c| c.0 == k)
                .map(|&(_, s, turn)| format!("{} t{turn}", colour(s)))
                .collect();
            let story = if captures.is_empty() { "not captured".to_string() } else { captures.join(" → ") };
            crate::battle::replay::ReplayMarker {
                at: p.at,
                label: format!("CP{}: {story}", k + 1),
                holder: p.holder,
                radii: vec![OCCUPY_RADIUS, CONTEST_RADIUS],
            }
        })
        .collect()
}
