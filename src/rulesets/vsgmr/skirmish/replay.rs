//! One traced Skirmish game and its replay drawing ([`traced_game`], [`replay_of`]).

use super::*;

/// Plays one seeded, traced game; returns it with its outcome and rosters.
pub fn traced_game<'a>(
    field: &'a Field,
    cfg: &'a SkirmishConfig,
    m: Matchup,
    tactic: usize,
    mission: Mission,
    seed: u64,
) -> (Game<'a>, GameOutcome, [Roster; 2]) {
    let mut dice = crate::dice::FastDice::from_seed(crate::seed::batch_seed(
        seed,
        crate::seed::stream_id(&["vsgmr", "skirmish", "replay"]),
        0,
    ));
    let rosters = match m {
        Matchup::Fixed([a, b]) => [a.clone(), b.clone()],
        Matchup::Random => [0, 1].map(|s| mission.random_roster(field, cfg, s, &mut dice)),
    };
    let mut g = Game::new(&field.r, cfg);
    g.mission = mission;
    g.b.tactic = [tactic; 2];
    g.trace = Some(Vec::new());
    g.set_up([&rosters[0], &rosters[1]], &mut dice);
    let out = g.play(&mut dice);
    (g, out, rosters)
}

/// The replay picture of a traced game.
pub fn replay_of(g: &Game, out: &GameOutcome, rosters: &[Roster; 2]) -> Replay {
    let trace = g.trace.as_ref().expect("a traced game");
    let units = trace
        .iter()
        .zip(&g.b.figs)
        .zip(&g.origin)
        .map(|(((path, died), f), &o)| {
            let name = &g.r.book.units[f.unit].name;
            let short = name.rsplit(": ").next().unwrap_or(name);
            ReplayUnit {
                side: o,
                label: short.chars().take(2).collect(),
                name: short.to_string(),
                path: path.clone(),
                died: *died,
            }
        })
        .collect();
    let result = match out.winner {
        Some(s) => format!("side {} wins", ["A", "B"][s]),
        None => "draw".to_string(),
    };
    Replay {
        title: format!("VSGMR {}: {} vs {}", g.mission.title(), rosters[0].name, rosters[1].name),
        notes: vec![
            format!(
                "A (blue): {} ({} pts) / B (red): {} ({} pts)",
                rosters[0].name,
                rosters[0].points(g.r),
                rosters[1].name,
                rosters[1].points(g.r)
            ),
            format!(
                "{result} after {} rounds; enemy points destroyed A {} / B {}; walls are cover pieces",
                out.rounds, out.destroyed[0], out.destroyed[1]
            ),
        ],
        table: g.table.clone(),
        deploy_depth: 0.0,
        units,
        markers: Vec::new(),
        legend: None,
    }
}
