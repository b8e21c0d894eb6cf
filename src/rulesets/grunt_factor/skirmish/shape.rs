//! The skirmish as the generic skirmish plays it ([`crate::rulesets::skirmish::Skirmish`]):
//! random legal forces or two force files, the `bound`, `advance`, `hold` and `hold-lead` tactics, one game into a
//! [`GameRecord`], and the game played game turn by game turn for the rollout best response.

use super::{Force, Forces, Skirmish, describe, random_force, read_force, set_up, traced_game};
use crate::battle::replay::Replay;
use crate::dice::{Dice, FastDice};
use crate::rulesets::grunt_factor::GruntFactor;
use crate::rulesets::rollout::{RolloutGain, RolloutRun};
use crate::rulesets::skirmish::{
    ArmyError, ArmySource, GameRecord, MissionInfo, SkirmishSettings, SkirmishText, TacticInfo,
};
use crate::rulesets::{Side, UnitInfo};

impl crate::rulesets::skirmish::Skirmish for GruntFactor {
    type Army = Force;
    type Game<'a> = Skirmish<'a>;
    const TACTICS: &'static [TacticInfo] = &crate::rulesets::grunt_factor::tactics::TACTICS;
    const ARMY_SOURCE: ArmySource =
        ArmySource { what: "force files", how: "TOML with a [units] table of squad name = count" };
    const MISSIONS: &'static [MissionInfo] =
        &[MissionInfo::basic("the skirmish: points-matched forces, more enemy points destroyed wins")];

    fn skirmish_text(&self) -> SkirmishText {
        SkirmishText {
            game: "Skirmish".to_string(),
            games: "skirmishes".to_string(),
            army_size: format!("{} points", self.skirmish.points),
            item: "squad".to_string(),
            item_kind: false,
            turns: "game turns".to_string(),
            outcome: [
                "outcome (more enemy points destroyed wins)".to_string(),
                "side A wins".to_string(),
                "side B wins".to_string(),
                "draw (equal points destroyed)".to_string(),
            ],
            setup: setup(self),
            replay_legend: "Each line is a model's path; squad initials and number at the Sergeant; ✕ marks where \
                            a model died and in which turn; solid bars are hard cover, dashed bars soft cover."
                .to_string(),
        }
    }

    fn skirmish_settings(&self) -> SkirmishSettings {
        let c = &self.skirmish;
        SkirmishSettings {
            rollout_games: c.rollout_games,
            rollout_playouts: c.rollout_playouts,
            ..SkirmishSettings::new(c.points, c.trials, c.report_trials, c.batch_size)
        }
    }

    fn read_armies(&self, specs: [&str; 2], _mission: usize) -> Result<[Force; 2], ArmyError> {
        Ok([read_force(self, std::path::Path::new(specs[0]))?, read_force(self, std::path::Path::new(specs[1]))?])
    }

    fn random_army<D: Dice>(&self, dice: &mut D) -> Force {
        random_force(self, self.skirmish.points, dice)
    }

    fn describe_army(&self, army: &Force) -> String {
        describe(&self.book.units, army)
    }

    fn skirmish_units(&self) -> Vec<UnitInfo> {
        self.book.units.clone()
    }

    fn game(&self, tactics: [usize; 2], _mission: usize) -> Skirmish<'_> {
        Skirmish::new(self, &self.skirmish, tactics.map(crate::rulesets::grunt_factor::tactics::pick))
    }

    fn play<D: Dice>(&self, g: &mut Skirmish<'_>, forces: &Forces, dice: &mut D, rec: &mut GameRecord) {
        set_up(g, forces, dice);
        let out = g.play(dice);
        rec.winner = out.winner;
        rec.turns = out.turns;
        for (s, side) in g.sides.iter().enumerate() {
            for q in side {
                rec.counts[s][q.unit] += 1;
                rec.survivors[q.unit] += (q.alive() > 0) as u32;
            }
        }
        rec.kills.extend(g.kills.iter().map(|&(k, v)| (k as u32, v as u32)));
    }

    fn replay(&self, forces: &Forces, tactic: usize, _mission: usize, seed: u64) -> Replay {
        traced_game(self, forces, crate::rulesets::grunt_factor::tactics::pick(tactic), seed).0
    }

    fn rollout_stage(&self) -> Option<&'static str> {
        Some("game turn")
    }

    /// Stages are game turns ([`Skirmish::play_turn`], "Turn sequence"); a side's tactic is its
    /// [`Skirmish::tactic`], read at each of its squads' activations.
    fn rollout(
        &self,
        run: &RolloutRun,
        forces: &Forces,
        _mission: usize,
        progress: &indicatif::ProgressBar,
    ) -> Result<RolloutGain, String> {
        let start = |dice: &mut FastDice, tactics: [usize; 2]| {
            let mut g = crate::rulesets::skirmish::Skirmish::game(self, tactics, 0);
            set_up(&mut g, forces, dice);
            g
        };
        Ok(crate::rulesets::rollout::best_response(run, start, progress))
    }
}

/// A set-up game played game turn by game turn for the rollout best response: the turns
/// [`Skirmish::play`] plays, one per stage.
impl crate::rulesets::rollout::Staged for Skirmish<'_> {
    fn stage(&mut self, dice: &mut FastDice) -> Option<Option<Side>> {
        if !self.over() {
            self.play_turn(dice);
        }
        self.over().then(|| self.outcome().winner)
    }

    fn set_tactic(&mut self, s: Side, t: usize) {
        self.tactic[s] = crate::rulesets::grunt_factor::tactics::pick(t);
    }
}

/// The skirmish's table, terrain and rules in words, from the config in force.
fn setup(r: &GruntFactor) -> String {
    let c = &r.skirmish;
    let hard = (100.0 * c.hard_share).round();
    format!(
        "{} × {} cm, {}–{} cover pieces placed from the seed ({hard}% hard, the rest soft cover), forces \
         deployed along opposite long edges, every model at its own position, {} game turns; the side that \
         destroyed more enemy points wins, equal is a draw. A target behind cover (a piece within {} cm of it \
         on the line of fire) is covered 50–75% (−2 RC; more than 75% if prone: −3 RC, and −1 for prone) \
         with Dam −1 behind soft and −2 behind hard cover; a model more than {} cm from its squad leader has \
         CC, RC and LD halved; a squad must fire at the nearest enemy squad within {} cm; a low cover piece \
         costs an action to cross; panicked squads run to cover within 6 cm or one move away from the enemy, \
         else go prone; random forces draw squads of the cost list uniformly while they fit",
        c.table_width,
        c.table_depth,
        c.cover_min,
        c.cover_max,
        c.max_turns,
        c.cover_reach,
        r.book.rules.command_radius,
        r.book.rules.bands[1]
    )
}
