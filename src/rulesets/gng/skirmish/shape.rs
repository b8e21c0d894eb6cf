//! The Skirmish and the other "Types of Games" ([`super::objective`]) as the generic skirmish
//! plays them ([`crate::rulesets::skirmish::Skirmish`]): random legal armies or two army files,
//! the tactics (`default`, `cautious`, `hold`, `attack-if-stronger`), the missions, one game
//! into a [`GameRecord`].

use std::path::Path;

use super::{Armies, MISSIONS, Mission, Pick, Skirmish, UpgradeRule, replay_of, traced_game};
use crate::battle::replay::Replay;
use crate::dice::{Dice, FastDice};
use crate::rulesets::gng::GunsNGrenades;
use crate::rulesets::gng::skirmish::army::{Army, random_army, read_army};
use crate::rulesets::rollout::{RolloutGain, RolloutRun};
use crate::rulesets::skirmish::{
    ArmyError, ArmySource, GameRecord, MissionInfo, SkirmishSettings, SkirmishText, TacticInfo,
};
use crate::rulesets::{Side, UnitInfo};

/// The upgrades pointsworth has a rule for, as the book names them.
const KNOWN_UPGRADES: &str = "Optical Sights, Grenade Launchers, Hollow Point Rounds, Enhanced Rifling, Bayonets, \
                              Flashbang Grenades, Body Armor";

/// A game of one mission in progress; each side plays its own tactic (side A first).
pub struct Game<'a> {
    pub game: Skirmish<'a>,
    pub tactic: [Pick; 2],
}

impl GunsNGrenades {
    /// Two random legal armies of `mission`'s points, side A's drawn first.
    fn random_pair<D: Dice>(&self, mission: Mission, dice: &mut D) -> [Army; 2] {
        let points = mission.points(self.skirmish.points);
        let a = random_army(self, points, self.skirmish.upgrade_chance, dice);
        [a, random_army(self, points, self.skirmish.upgrade_chance, dice)]
    }
}

/// A set-up game played game turn by game turn for the rollout best response: the game and
/// the side that won the roll-off for the first turn ([`Skirmish::play`]).
#[derive(Clone)]
pub struct StagedGame<'a> {
    game: Skirmish<'a>,
    first: Side,
}

impl<'a> StagedGame<'a> {
    /// `game`, set up, with the roll-off for the first turn drawn from `dice` (as
    /// [`Skirmish::play`] draws it first).
    pub fn new<D: Dice>(game: Skirmish<'a>, dice: &mut D) -> Self {
        StagedGame { game, first: super::setup::roll_off(dice) }
    }
}

impl crate::rulesets::rollout::Staged for StagedGame<'_> {
    fn stage(&mut self, dice: &mut FastDice) -> Option<Option<Side>> {
        // A game turn: each side's player turn, unless the first ends the game.
        match self.game.next_turn(self.first, dice) {
            Some(out) => Some(out.winner),
            None => self.game.next_turn(self.first, dice).map(|out| out.winner),
        }
    }

    fn set_tactic(&mut self, s: Side, t: usize) {
        self.game.tactic[s] = crate::rulesets::gng::tactics::pick(t);
    }
}

impl crate::rulesets::skirmish::Skirmish for GunsNGrenades {
    type Army = Army;
    type Game<'a> = Game<'a>;
    const TACTICS: &'static [TacticInfo] = &crate::rulesets::gng::tactics::TACTICS;
    const ARMY_SOURCE: ArmySource = ArmySource {
        what: "army files",
        how: "TOML with an optional upgrade = \"...\" and a [units] table of unit name = count",
    };
    const MISSIONS: &'static [MissionInfo] = MISSIONS;

    fn skirmish_text(&self) -> SkirmishText {
        let c = &self.skirmish;
        SkirmishText {
            game: "Skirmish".to_string(),
            games: "skirmishes".to_string(),
            army_size: format!("{} points", c.points),
            item: "item".to_string(),
            item_kind: true,
            turns: "game turns".to_string(),
            outcome: [
                "outcome".to_string(),
                "side A wins".to_string(),
                "side B wins".to_string(),
                "draw (turn cap)".to_string(),
            ],
            setup: format!(
                "{}\"×{}\" table, {} cover pieces placed from the seed, {} units deployed, {} reserves a turn, 5 \
                 activations a turn, last side standing, {} game turns is a draw; random armies spend at least 95% \
                 of the points, respect Limited and take one upgrade {}% of the time",
                c.table_width,
                c.table_depth,
                c.cover_pieces,
                c.deploy_units,
                c.reserves_per_turn,
                c.max_turns,
                (100.0 * c.upgrade_chance).round()
            ),
            replay_legend: "Each line is a unit's path (blue deploys at the top, red at the bottom); ✕ marks \
                            where a unit was destroyed and in which game turn; brown bars are cover (dashed once \
                            destroyed)."
                .to_string(),
        }
    }

    fn mission_text(&self, mission: usize) -> SkirmishText {
        let m = Mission::ALL[mission];
        let mut t = self.skirmish_text();
        if !m.has_command_points() {
            return t;
        }
        let c = &self.skirmish;
        t.game = m.title().to_string();
        t.games = "games".to_string();
        t.army_size = format!("{} points", m.points(c.points));
        t.outcome[0] = "outcome (all command points held, or every enemy unit destroyed)".to_string();
        t.outcome[3] = "draw (turn cap: equal command points held and points destroyed)".to_string();
        t.setup = format!(
            "{}\"×{}\" table, {} cover pieces placed from the seed, 3 command points on the centre line at ¼, ½ \
             and ¾ of the width; a side captures one when at least 2 of its units are within 3\" of it at the \
             end of 3 of its own turns in a row with no enemy unit within 6\" (held until the other side \
             captures it); holding all at the end of a turn or destroying every enemy unit wins; at {} game \
             turns more points held, then more points destroyed wins, else a draw; {} units deployed, {} \
             reserves a turn, 5 activations a turn",
            c.table_width, c.table_depth, c.cover_pieces, c.max_turns, c.deploy_units, c.reserves_per_turn
        );
        t
    }

    fn mission_settings(&self, mission: usize) -> SkirmishSettings {
        SkirmishSettings { points: Mission::ALL[mission].points(self.skirmish.points), ..self.skirmish_settings() }
    }

    fn skirmish_settings(&self) -> SkirmishSettings {
        let c = &self.skirmish;
        SkirmishSettings {
            rollout_games: c.rollout_games,
            rollout_playouts: c.rollout_playouts,
            ..SkirmishSettings::new(c.points, c.trials, c.report_trials, c.batch_size)
        }
    }

    fn read_armies(&self, specs: [&str; 2], mission: usize) -> Result<[Army; 2], ArmyError> {
        let points = Mission::ALL[mission].points(self.skirmish.points);
        Ok([read_army(self, Path::new(specs[0]), points)?, read_army(self, Path::new(specs[1]), points)?])
    }

    fn random_army<D: Dice>(&self, dice: &mut D) -> Army {
        random_army(self, self.skirmish.points, self.skirmish.upgrade_chance, dice)
    }

    fn describe_army(&self, army: &Army) -> String {
        army.describe(self)
    }

    fn skirmish_units(&self) -> Vec<UnitInfo> {
        self.book.units.clone()
    }

    fn skirmish_upgrades(&self) -> Vec<(String, f64)> {
        self.upgrades.iter().map(|u| (u.name.clone(), u.cost)).collect()
    }

    fn check_skirmish(&self) -> Result<(), String> {
        match self.upgrades.iter().find(|u| UpgradeRule::from_name(&u.name).is_none()) {
            Some(u) => {
                Err(format!("upgrade {:?} has no rule in pointsworth; known upgrades: {KNOWN_UPGRADES}", u.name))
            }
            None => Ok(()),
        }
    }

    fn game(&self, tactics: [usize; 2], mission: usize) -> Game<'_> {
        let mut game = Skirmish::new(self, &self.skirmish);
        game.set_mission(Mission::ALL[mission]);
        Game { game, tactic: tactics.map(crate::rulesets::gng::tactics::pick) }
    }

    fn play<D: Dice>(&self, g: &mut Game<'_>, armies: &Armies, dice: &mut D, rec: &mut GameRecord) {
        let (a, b);
        let pair = match armies {
            Armies::Random => {
                [a, b] = self.random_pair(g.game.mission, dice);
                [&a, &b]
            }
            Armies::Fixed(x) => [&x[0], &x[1]],
        };
        let game = &mut g.game;
        game.set_up(pair, g.tactic, dice);
        let out = game.play(dice);
        rec.winner = out.winner;
        rec.turns = out.turns;
        let n = self.book.units.len();
        for s in 0..2 {
            for &u in &pair[s].units {
                rec.counts[s][u] += 1;
            }
            if let Some(k) = pair[s].upgrade {
                rec.counts[s][n + k] += 1;
            }
            for f in game.bt.sides[s].iter().filter(|f| f.alive) {
                rec.survivors[f.unit as usize] += 1;
            }
            for &u in &game.reserves[s] {
                rec.survivors[u] += 1;
            }
        }
        rec.kills.extend(game.kill_log.iter().map(|&(_, k, v)| (k as u32, v as u32)));
    }

    fn rollout_stage(&self) -> Option<&'static str> {
        Some("game turn")
    }

    /// Stages are game turns (both sides' player turns, [`Skirmish::next_turn`]); a side's
    /// tactic is its [`Skirmish::tactic`], read in its own turns.
    fn rollout(
        &self,
        run: &RolloutRun,
        armies: &Armies,
        mission: usize,
        progress: &indicatif::ProgressBar,
    ) -> Result<RolloutGain, String> {
        let start = |dice: &mut FastDice, tactics: [usize; 2]| {
            let mut g = self.game(tactics, mission);
            let random;
            let pair = match armies {
                Armies::Random => {
                    random = self.random_pair(g.game.mission, dice);
                    [&random[0], &random[1]]
                }
                Armies::Fixed(x) => [&x[0], &x[1]],
            };
            g.game.set_up(pair, g.tactic, dice);
            StagedGame::new(g.game, dice)
        };
        Ok(crate::rulesets::rollout::best_response(run, start, progress))
    }

    fn replay(&self, armies: &Armies, tactic: usize, mission: usize, seed: u64) -> Replay {
        let tactic = crate::rulesets::gng::tactics::pick(tactic);
        let (g, out, pair) = traced_game(self, &self.skirmish, armies, tactic, Mission::ALL[mission], seed);
        replay_of(&g, &out, &pair, tactic)
    }
}
