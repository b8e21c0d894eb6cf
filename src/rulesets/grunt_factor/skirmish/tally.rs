//! One game into a picture: the traced game and its replay. (Games into numbers are the
//! generic engine's: the engine (`sim::skirmish`) plays the games of [`super::shape`].) Apart
//! from the rule code so the report's needs never reach into it.

use super::{CoverKind, Force, Forces, Pick, Skirmish, SkirmishOutcome, describe, set_up};
use crate::battle::replay::{Replay, ReplayUnit};
use crate::battle::{Pos, Table};
use crate::rulesets::grunt_factor::GruntFactor;

/// The replay picture is drawn at this many cm per picture unit (the picture code is scaled
/// for inch tables).
pub const REPLAY_CM_PER_UNIT: f32 = 2.5;

/// Plays one seeded game with a trace; returns the replay picture and the outcome.
pub fn traced_game(r: &GruntFactor, forces: &Forces, tactic: Pick, seed: u64) -> (Replay, SkirmishOutcome) {
    let stream = crate::seed::stream_id(&["grunt-factor", "skirmish", "replay"]);
    let mut dice = crate::dice::FastDice::from_seed(crate::seed::batch_seed(seed, stream, 0));
    let mut g = Skirmish::new(r, &r.skirmish, [tactic; 2]);
    g.trace = Some([Vec::new(), Vec::new()]);
    let pair = set_up(&mut g, forces, &mut dice);
    let out = g.play(&mut dice);
    (replay_of(&g, &out, &pair), out)
}

/// The replay picture of a traced game: one path per model, the squad's initials at the
/// Sergeant; hard cover solid brown, soft cover grey dashes (its own legend says so).
pub fn replay_of(g: &Skirmish, out: &SkirmishOutcome, pair: &[Force; 2]) -> Replay {
    let trace = g.trace.as_ref().expect("a traced game");
    let k = REPLAY_CM_PER_UNIT;
    let sc = |p: Pos| Pos::new(p.x / k, p.y / k);
    let mut units = Vec::new();
    for (s, side) in trace.iter().enumerate() {
        for (i, squad) in side.iter().enumerate() {
            let q = &g.sides[s][i];
            let initials = crate::rulesets::gng::skirmish::short_label(&g.r.book.units[q.unit].name);
            for (m, (path, died)) in squad.iter().enumerate() {
                let label = if m == 0 {
                    format!("{initials}{}{}", i + 1, if q.panicked && q.alive() > 0 { "!" } else { "" })
                } else {
                    String::new()
                };
                let name = g.r.book.units[q.unit].name.clone();
                units.push(ReplayUnit {
                    side: s,
                    label,
                    name,
                    path: path.iter().map(|&p| sc(p)).collect(),
                    died: *died,
                });
            }
        }
    }
    let mut table = Table::new(g.table.width / k, g.table.depth / k);
    for (w, kind) in g.table.walls.iter().zip(&g.cover) {
        // Soft cover is drawn dashed (the picture's "destroyed" style, relabelled in the legend).
        table.walls.push(crate::battle::Wall { a: sc(w.a), b: sc(w.b), intact: *kind == CoverKind::Hard });
    }
    let result = match out.winner {
        Some(w) => format!("side {} wins", ["A (blue)", "B (red)"][w]),
        None => "draw".to_string(),
    };
    Replay {
        title: format!("The Grunt Factor — Skirmish ({} tactic)", g.tactic[0].name()),
        notes: vec![
            format!("A: {} / B: {}", describe(&g.r.book.units, &pair[0]), describe(&g.r.book.units, &pair[1])),
            format!(
                "{result}: points destroyed {:.1} – {:.1} after {} turns; ! = panicked at the end",
                out.destroyed[0], out.destroyed[1], out.turns
            ),
            format!(
                "{:.0} × {:.0} cm drawn at {k} cm per unit; one path per model, squad initials and number at the Sergeant",
                g.cfg.table_width, g.cfg.table_depth
            ),
        ],
        table,
        deploy_depth: g.cfg.deploy_depth as f32 / k,
        units,
        markers: Vec::new(),
        legend: Some(
            "○ entered · ● alive at the end · ✕ destroyed (tN = game turn) · brown bars: hard cover · grey dashed bars: \
             soft cover · shaded: deployment zones"
                .to_string(),
        ),
    }
}
