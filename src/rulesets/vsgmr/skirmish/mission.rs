//! The scenarios of VSGMR v7 (section VIII; RULINGS.md, "Missions") on the Skirmish's table:
//! what each adds to the Basic Game — deployment, objectives, end and victory — and the one
//! decision rule per scenario by which the default tactic plays for the objective.
//!
//! Why apart from the rules: a scenario adds state between rounds (figures that left the
//! table) and a goal per figure ([`Goal`]), set at the start of each round by
//! [`super::Game`]; the rules read the goals in the movement step
//! ([`crate::rulesets::vsgmr::rules::move_figure`]) and nothing else. The Basic Game sets no goal, so its
//! games draw exactly the dice they drew before scenarios existed.
//!
//! - **Escape** ("more than half his original number of figures ... across to the opposite
//!   edge"): every figure of a side that can still win (its figures on the table and those
//!   already across are more than half its original number) moves its whole Move straight
//!   toward the opposite edge and leaves the table when its move ends at the edge; it still
//!   attacks whatever it can in the attack steps. A side that can no longer win plays the
//!   Basic Game's tactic, attacking "to try to prevent any player from winning". The first
//!   side to have more than half its original figures across wins (figures leave in the order
//!   they move, the first player's first); 5 rounds without one: a draw.
//! - **Fortress Assault** (20 points of Assaulters, side A, against 40 of Defenders, side B):
//!   the building is a 6" × 6" block at the centre of the Defender's half ([`Fort`]); its four
//!   sides are walls (they stop movement and give cover, not sight). Defenders stand round it
//!   within a Half Move Unit, the front first; Assaulters in a line 2 Move Units (12") in front
//!   of it. Any attack roll against the building hits as one against a figure in cover, with
//!   no armor roll (RULINGS.md): a shot needs 6, hand to hand 4 (cover never helps against
//!   hand to hand, section II.4); 2 hits destroy it and the Assaulters win; all Assaulters
//!   defeated, the Defenders win; 5 rounds: a draw. The Assaulters' rule: each moves toward
//!   the nearest point of the building to use the attack likelier to hit it (into base contact
//!   for hand to hand, else to its Distance Attack Unit), and attacks the building whenever it
//!   can ([`crate::rulesets::vsgmr::rules::fort_attack`]), else fights as in the Basic Game. The Defenders
//!   screen the building: each goes for the Assaulter nearest it (the next to strike it), to
//!   where it would attack it from, and shoots that one first (the quarry).
//! - **Ambush** (25 points of Ambushers, side A, against 40 of Targets, side B): the cover
//!   pieces stand on a ring 2 Move Units (`gap`, 12") round the table's centre, turned at
//!   random, tangent to it; the Ambushers stand ½" behind them (three to a piece, then in a
//!   second row 2" behind, uncovered), the Targets in a square grid `spacing` apart at the
//!   centre (in the open, each within 1 Move Unit of another). Ambushers add 1 to their
//!   initiative rolls. The game ends when one side has no figure left (that side loses; both:
//!   a draw), at most [`AMBUSH_ROUNDS`] rounds (then a draw). The Ambushers' rule: a figure
//!   with a distance attack whose nearest enemy is within its Distance Attack Unit and whose
//!   cover piece covers it from that enemy holds its place (it shoots from cover instead of
//!   stepping out to close or to keep out of reach); otherwise, and always for the Targets,
//!   the Basic Game's tactic.
//! - **Transport** (25-40 points a side, the Basic Game's table and deployment): the object
//!   starts at the table's centre. A figure ending a goal move within base contact of it while
//!   it lies free picks it up; it moves with its carrier (no effect on the carrier) and falls
//!   where the carrier is defeated (or, knocked off the table, at the edge); a carrier that
//!   reaches its own side's edge leaves the table with it and its side wins; 5 rounds without
//!   that: a draw. The rule: while the object lies free, each side sends the figure that can
//!   reach it in the fewest Moves (ties: the first) to take it; the carrier goes straight for
//!   its home edge; every figure of the other side chases the carrier (to its
//!   [`crate::rulesets::vsgmr::rules::approach_stop`]) and shoots it before any nearer enemy
//!   ([`Objective::quarry`]); the carrier's other figures play the Basic Game's tactic.
//! - **Spawning** (25-40 points a side: "25 to 40 points per player suggested", each army drawn
//!   from 25 to 40 as in the Basic Game's random armies; side A the Infiltrators, side B the
//!   Spawners; the report's fair points are the Infiltrators' against Spawners of 25 to 40, as
//!   the Spawners' score falls with their points: [`crate::rulesets::vsgmr::study::round_robin::FairPoints`]): the
//!   Infiltrators deploy as in the Basic Game; the Spawners put only their costliest figure on
//!   their line's centre, the rest wait off the table. After initiative each round, while
//!   figures wait, the Spawners roll a d6 ([`spawn_edge`]): 1 the Infiltrators' edge, 2 the edge
//!   to their right (x = 0: they face y = 0), 3 their own edge, 4 the edge to their left, 5
//!   their choice, 6 none; the costliest waiting figure (with its rider) is placed within 1 Move
//!   Unit of that edge and moves and attacks in that round. The rule: it is placed at the spot
//!   of the edge's band nearest an enemy figure, and on a 5 on the edge where that spot is
//!   nearest ([`spawn_spot`]). Victory as in the Basic Game (the book names none): more enemy
//!   points destroyed after 5 rounds; figures never spawned are not destroyed.

use crate::battle::Pos;
use crate::rulesets::Side;
use crate::rulesets::skirmish::MissionInfo;

/// The scenarios built, the Basic Game first (the index is [`Mission::ALL`]'s).
pub const MISSIONS: &[MissionInfo] = &[
    MissionInfo {
        name: "basic",
        description: "the Basic Game (II, Victory): 5 rounds, more enemy points destroyed wins",
    },
    MissionInfo {
        name: "escape",
        description: "Escape (VIII): 25-40 points, the first side with more than half its figures across the opposite \
                      edge wins; 5 rounds, else a draw",
    },
    MissionInfo {
        name: "transport",
        description: "Transport (VIII): 25-40 points, the side whose figure carries the object from the table's \
                      centre across its own edge wins; 5 rounds, else a draw",
    },
    MissionInfo {
        name: "spawning",
        description: "Spawning (VIII): 25-40 points, Infiltrators (A) against Spawners (B) who start with one figure \
                      and bring one more on a d6 each round; 5 rounds, more enemy points destroyed wins",
    },
    MissionInfo {
        name: "ambush",
        description: "Ambush (VIII): 25 points of Ambushers (A) behind cover, +1 initiative, against 40 of Targets (B) \
                      in the open; the last side with figures wins (at most 20 rounds, else a draw)",
    },
    MissionInfo {
        name: "fortress-assault",
        description: "Fortress Assault (VIII): 20 points of Assaulters (A) against 40 of Defenders (B) round a 6\"x6\" \
                      building; 2 hits on it: A wins; every Assaulter defeated: B wins; 5 rounds, else a draw",
    },
];

/// A scenario of section VIII.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mission {
    /// Section II "Victory" and VIII "Basic Game": more enemy points destroyed in 5 rounds.
    #[default]
    Basic,
    /// Section VIII "Escape".
    Escape,
    /// Section VIII "Fortress Assault": side A the Assaulters, side B the Defenders.
    FortressAssault,
    /// Section VIII "Ambush": side A the Ambushers, side B the Targets.
    Ambush,
    /// Section VIII "Transport".
    Transport,
    /// Section VIII "Spawning": side A the Infiltrators, side B the Spawners.
    Spawning,
}

impl Mission {
    /// In the order of [`MISSIONS`].
    pub const ALL: [Mission; 6] = [
        Mission::Basic,
        Mission::Escape,
        Mission::Transport,
        Mission::Spawning,
        Mission::Ambush,
        Mission::FortressAssault,
    ];

    /// The book's name, e.g. "Escape".
    pub fn title(self) -> &'static str {
        match self {
            Mission::Basic => "Skirmish",
            Mission::Escape => "Escape",
            Mission::FortressAssault => "Fortress Assault",
            Mission::Ambush => "Ambush",
            Mission::Transport => "Transport",
            Mission::Spawning => "Spawning",
        }
    }
}

/// Section VIII "Fortress Assault": the Assaulters' and the Defenders' suggested points.
pub const FORT_ASSAULTERS: u32 = 20;
pub const FORT_DEFENDERS: u32 = 40;
/// The building's side, inches (RULINGS.md, "Missions": a 6" × 6" block).
pub const FORT_SIZE: f32 = 6.0;
/// Successful hits that destroy the building (section VIII: "2 times" with one Assaulter).
pub const FORT_HITS: u32 = 2;

/// The Fortress Assault's building: a block from `min` to `max` (inches), the hits it can
/// still take, and the side that assaults it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fort {
    pub min: Pos,
    pub max: Pos,
    pub hits_left: u32,
    pub assaulter: Side,
}

impl Fort {
    /// RULINGS.md, "Missions": a [`FORT_SIZE`] block at the centre of side B's half of a
    /// `width` × `depth` table, side A assaulting, [`FORT_HITS`] hits to go.
    pub fn standard(width: f32, depth: f32) -> Fort {
        let (cx, cy, h) = (width / 2.0, depth * 0.75, FORT_SIZE / 2.0);
        Fort { min: Pos::new(cx - h, cy - h), max: Pos::new(cx + h, cy + h), hits_left: FORT_HITS, assaulter: 0 }
    }

    /// The point of the building nearest `p` (`p` itself inside it).
    pub fn nearest(&self, p: Pos) -> Pos {
        Pos::new(p.x.clamp(self.min.x, self.max.x), p.y.clamp(self.min.y, self.max.y))
    }

    /// Distance from `p` to the building, inches (0 inside).
    pub fn dist(&self, p: Pos) -> f32 {
        p.dist(self.nearest(p))
    }

    /// Its four sides as walls (they stop movement and give cover).
    pub fn walls(&self) -> Vec<crate::battle::Wall> {
        let (a, b) = (self.min, self.max);
        let c = [a, Pos::new(b.x, a.y), b, Pos::new(a.x, b.y)];
        (0..4).map(|k| crate::battle::Wall { a: c[k], b: c[(k + 1) % 4], intact: true }).collect()
    }

    /// Where `n` Defenders stand (section VIII: "within a Half Move Unit" of the building):
    /// on rings 1.5", 3", 4.5", ... out from its sides, `spacing` inches apart along each ring,
    /// the inner ring first and on it the spots nearest the front (the side facing y = 0)
    /// first. Only more than the two inner rings hold (over 40 figures) stand farther.
    pub fn defender_spots(&self, n: usize, spacing: f32) -> Vec<Pos> {
        let mut out = Vec::with_capacity(n);
        let front = Pos::new((self.min.x + self.max.x) / 2.0, self.min.y);
        let mut d = 1.5;
        while out.len() < n {
            let (a, b) = (Pos::new(self.min.x - d, self.min.y - d), Pos::new(self.max.x + d, self.max.y + d));
            let (w, h) = (b.x - a.x, b.y - a.y);
            let k = ((2.0 * (w + h)) / spacing).floor() as usize;
            let mut ring: Vec<Pos> = (0..k)
                .map(|j| {
                    let t = j as f32 * spacing;
                    if t < w {
                        Pos::new(a.x + t, a.y)
                    } else if t < w + h {
                        Pos::new(b.x, a.y + t - w)
                    } else if t < 2.0 * w + h {
                        Pos::new(b.x - (t - w - h), b.y)
                    } else {
                        Pos::new(a.x, b.y - (t - 2.0 * w - h))
                    }
                })
                .collect();
            ring.sort_by(|p, q| p.dist(front).total_cmp(&q.dist(front)).then(p.x.total_cmp(&q.x)));
            out.extend(ring.into_iter().take(n - out.len()));
            d += 1.5;
        }
        out
    }
}

/// Section VIII "Ambush": the Ambushers' and the Targets' suggested points.
pub const AMBUSHERS: u32 = 25;
pub const TARGETS: u32 = 40;
/// The Ambush is fought to the last figure (section VIII: "The game ends when all Ambusher
/// figures or all Target figures are killed"); a game still going after this many rounds is
/// a draw.
pub const AMBUSH_ROUNDS: u32 = 20;

/// Section VIII "Ambush": the cover pieces on a ring `radius` inches round `centre`, `n` of
/// them `length` long, tangent to the ring, the first at angle `turn` (radians).
pub fn ambush_walls(centre: Pos, radius: f32, n: u32, length: f32, turn: f32) -> Vec<crate::battle::Wall> {
    (0..n)
        .map(|k| {
            let a = turn + k as f32 * std::f32::consts::TAU / n as f32;
            let (c, s) = (a.cos(), a.sin());
            let m = Pos::new(centre.x + radius * c, centre.y + radius * s);
            let h = length / 2.0;
            crate::battle::Wall {
                a: Pos::new(m.x + s * h, m.y - c * h),
                b: Pos::new(m.x - s * h, m.y + c * h),
                intact: true,
            }
        })
        .collect()
}

/// Where `n` Ambushers stand: behind the `walls` as seen from `centre`, ½" from each (the
/// middle of every piece first, then its two ends a third in), then a second row 2½" behind
/// them (out of cover: the pieces are full).
pub fn ambush_spots(walls: &[crate::battle::Wall], centre: Pos, n: usize) -> Vec<Pos> {
    let mut out = Vec::with_capacity(n);
    'rows: for offset in [0.5f32, 2.5, 4.5, 6.5, 8.5] {
        for t in [0.5, 1.0 / 6.0, 5.0 / 6.0] {
            for w in walls {
                if out.len() == n {
                    break 'rows;
                }
                out.push(w.spot_behind(t, offset, centre));
            }
        }
    }
    while out.len() < n {
        out.push(centre); // more than 15 per piece: never with the book's points
    }
    out
}

/// Where `n` Targets stand: a square grid `spacing` apart centred on `centre` (each within
/// 1 Move Unit of another, section VIII).
pub fn target_spots(centre: Pos, n: usize, spacing: f32) -> Vec<Pos> {
    let cols = (n as f32).sqrt().ceil().max(1.0) as usize;
    let rows = n.div_ceil(cols);
    (0..n)
        .map(|k| {
            let (row, col) = (k / cols, k % cols);
            let x = centre.x + (col as f32 - (cols as f32 - 1.0) / 2.0) * spacing;
            let y = centre.y + (row as f32 - (rows as f32 - 1.0) / 2.0) * spacing;
            Pos::new(x, y)
        })
        .collect()
}

/// A table edge: y = 0 (side A's), y = depth (side B's), x = 0, x = width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edge {
    South,
    North,
    West,
    East,
}

/// Section VIII "Spawning": the edge a Spawner (side B, whose edge is y = depth and who faces
/// y = 0) places its figure on for a d6 `roll`: 1 the opposite edge, 2 its right (x = 0), 3 its
/// own, 4 its left (x = width), 5 its choice (`None` here: see [`spawn_spot`]), 6 none.
pub fn spawn_edge(roll: u8) -> Option<Option<Edge>> {
    match roll {
        1 => Some(Some(Edge::South)),
        2 => Some(Some(Edge::West)),
        3 => Some(Some(Edge::North)),
        4 => Some(Some(Edge::East)),
        5 => Some(None),
        _ => None,
    }
}

/// The Spawners' rule: where a figure with Move Unit `mu` (inches) is placed on `edge` (any
/// edge when `None`, the player's choice): the spot within `mu` of the edge (and ½" inside the
/// table) nearest an `enemies` position, on the edge where that is nearest (ties: the order
/// South, North, West, East); the edge's middle when there is no enemy.
pub fn spawn_spot(edge: Option<Edge>, enemies: &[Pos], mu: f32, width: f32, depth: f32) -> Pos {
    let m = crate::battle::EDGE_MARGIN;
    let band = |e: Edge, p: Pos| match e {
        Edge::South => Pos::new(p.x.clamp(m, width - m), p.y.clamp(m, mu)),
        Edge::North => Pos::new(p.x.clamp(m, width - m), p.y.clamp(depth - mu, depth - m)),
        Edge::West => Pos::new(p.x.clamp(m, mu), p.y.clamp(m, depth - m)),
        Edge::East => Pos::new(p.x.clamp(width - mu, width - m), p.y.clamp(m, depth - m)),
    };
    let edges = match edge {
        Some(e) => vec![e],
        None => vec![Edge::South, Edge::North, Edge::West, Edge::East],
    };
    let mut best: Option<(f32, Pos)> = None;
    for &e in &edges {
        for &p in enemies {
            let q = band(e, p);
            let d = q.dist(p);
            if best.is_none_or(|(b, _)| d < b) {
                best = Some((d, q));
            }
        }
    }
    best.map_or_else(|| band(edges[0], Pos::new(width / 2.0, depth / 2.0)), |b| b.1)
}

/// What a figure does this round instead of its Basic Game move, under every tactic.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum Goal {
    /// Fights: its side's tactic moves it ([`crate::rulesets::vsgmr::tactics`]; the default's
    /// is [`crate::rulesets::vsgmr::rules::move_figure`]).
    #[default]
    Fight,
    /// Stays where it stands.
    Hold,
    /// Moves its whole Move toward `at` (inches on the table), stopping `stop` inches from it;
    /// `exit`: `at` lies at a table edge, and the figure leaves the table when it gets there.
    To { at: Pos, stop: f32, exit: bool },
    /// Moves its whole Move toward figure `target` where it stands when this figure moves,
    /// stopping `stop` inches from it.
    Chase { target: usize, stop: f32 },
}

/// Section VIII "Transport": the object, where it lies (inches) or who carries it (a figure
/// index; the object then goes where the figure goes).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cargo {
    pub at: Pos,
    pub carrier: Option<usize>,
}

/// A scenario's state that the rules read ([`crate::rulesets::vsgmr::rules::Battle::objective`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Objective {
    /// Per figure (index into the battle's figures): its goal this round; missing: fight.
    pub goals: Vec<Goal>,
    /// Figures that left the table by an exit goal, in the order they left (a mount and its
    /// riders together, in index order). They are no longer alive on the table, but not destroyed.
    pub escaped: Vec<usize>,
    /// Added to each side's initiative rolls (section II.1).
    pub initiative: [i8; 2],
    /// The Fortress Assault's building.
    pub fort: Option<Fort>,
    /// The Transport's object.
    pub cargo: Option<Cargo>,
    /// A figure the other side shoots first when a shot can defeat it (the Transport's
    /// carrier).
    pub quarry: Option<usize>,
}

impl Objective {
    /// Figure `i`'s goal this round.
    pub fn goal(&self, i: usize) -> Goal {
        self.goals.get(i).copied().unwrap_or_default()
    }

    /// No goals, nobody escaped, no bonus (the Basic Game).
    pub fn clear(&mut self) {
        self.goals.clear();
        self.escaped.clear();
        self.initiative = [0, 0];
        self.fort = None;
        self.cargo = None;
        self.quarry = None;
    }
}

/// Section VIII "Escape": the side whose figures first make more than half of its original
/// number of figures across the opposite edge, reading `escaped` (figure indices in the order
/// they left) with `side_of` each figure's side and `original` each side's figures at the
/// start.
pub fn escape_winner(escaped: &[usize], side_of: impl Fn(usize) -> Side, original: [usize; 2]) -> Option<Side> {
    let mut across = [0usize; 2];
    for &k in escaped {
        let s = side_of(k);
        across[s] += 1;
        if 2 * across[s] > original[s] {
            return Some(s);
        }
    }
    None
}

/// The point straight ahead of `at` at the edge opposite side `s`'s (side A deploys nearer
/// y = 0), inside the table by its edge margin: where an escaping figure goes.
pub fn far_edge(s: Side, at: Pos, depth: f32) -> Pos {
    let m = crate::battle::EDGE_MARGIN;
    Pos::new(at.x, if s == 0 { depth - m } else { m })
}

impl Mission {
    /// Each side's points, `(min, max)` of its random army (section VIII's suggestions): the
    /// config's `random_min..=random_max` (the book's 25 to 40) for the symmetric scenarios,
    /// `ambush_points` and `fortress_points` (the book's 25 v 40 and 20 v 40) for the others;
    /// the config's `points_override` (a study's) replaces one side's with its whole points.
    pub fn budgets(self, cfg: &super::SkirmishConfig) -> [(u32, u32); 2] {
        let both = (cfg.random_min, cfg.random_max);
        let mut b = match self {
            Mission::Basic | Mission::Escape | Mission::Transport | Mission::Spawning => [both, both],
            Mission::FortressAssault => cfg.fortress_points.map(|p| (p, p)),
            Mission::Ambush => cfg.ambush_points.map(|p| (p, p)),
        };
        if let Some((s, p)) = cfg.points_override {
            b[s] = (p, p);
        }
        b
    }

    /// Whether the sides field fixed, unequal points (Fortress Assault 20 v 40, Ambush 25 v 40):
    /// side A is the smaller.
    pub fn asymmetric(self) -> bool {
        matches!(self, Mission::FortressAssault | Mission::Ambush)
    }

    /// Whether the two sides play different parts (Spawning's Infiltrators and Spawners, Ambush,
    /// Fortress Assault: section VIII names them): the report gives the fair points of one side
    /// ([`crate::rulesets::vsgmr::study::round_robin::scenarios`]).
    pub fn roles_differ(self) -> bool {
        matches!(self, Mission::Spawning | Mission::FortressAssault | Mission::Ambush)
    }

    /// What each side is called in the scenario, side A first.
    pub fn sides(self) -> [&'static str; 2] {
        match self {
            Mission::FortressAssault => ["Assaulters", "Defenders"],
            Mission::Ambush => ["Ambushers", "Targets"],
            Mission::Spawning => ["Infiltrators", "Spawners"],
            _ => ["side A", "side B"],
        }
    }

    /// A random army for side `s` at the scenario's points ([`Mission::budgets`]).
    pub fn random_roster<D: crate::dice::Dice>(
        self,
        field: &super::Field,
        cfg: &super::SkirmishConfig,
        s: Side,
        dice: &mut D,
    ) -> super::Roster {
        field.random_roster_in(self.budgets(cfg)[s], dice)
    }

    /// The outcome table's header and rows (side A wins, side B wins, draw).
    pub fn outcome(self) -> [&'static str; 4] {
        match self {
            Mission::Basic => [
                "outcome (more enemy points destroyed wins)",
                "side A wins",
                "side B wins",
                "draw (equal points destroyed)",
            ],
            Mission::Escape => [
                "outcome (first side with more than half its figures across the opposite edge)",
                "side A escapes",
                "side B escapes",
                "draw (neither within 5 rounds)",
            ],
            Mission::FortressAssault => [
                "outcome (building destroyed: Assaulters; every Assaulter defeated: Defenders)",
                "side A (Assaulters) wins",
                "side B (Defenders) wins",
                "draw (building standing after 5 rounds)",
            ],
            Mission::Ambush => [
                "outcome (the last side with figures on the table wins)",
                "side A (Ambushers) wins",
                "side B (Targets) wins",
                "draw (both gone at once, or 20 rounds)",
            ],
            Mission::Transport => [
                "outcome (the side whose figure carries the object across its own edge wins)",
                "side A brings it home",
                "side B brings it home",
                "draw (not within 5 rounds)",
            ],
            Mission::Spawning => [
                "outcome (more enemy points destroyed wins)",
                "side A (Infiltrators) wins",
                "side B (Spawners) wins",
                "draw (equal points destroyed)",
            ],
        }
    }

    /// One line: table, deployment, objective and end, from the config in force.
    pub fn setup(self, r: &crate::rulesets::vsgmr::Vsgmr) -> String {
        let c = &r.skirmish;
        match self {
            Mission::Basic => crate::rulesets::vsgmr::study::table_text(r),
            Mission::Escape => format!(
                "{}\"×{}\" table, {} cover pieces from the seed, the Basic Game's deployment (lines {}\" apart); every \
                 figure of a side that can still win moves straight for the opposite edge and leaves the table there; \
                 {} rounds",
                c.table_width, c.table_depth, c.cover_pieces, c.gap, c.rounds
            ),
            Mission::Spawning => format!(
                "{}\"×{}\" table, {} cover pieces from the seed; the Infiltrators (A) on the Basic Game's line, the \
                 Spawners (B) start with their costliest figure; each round a d6 places their next figure within 1 Move \
                 Unit of an edge (1 A's, 2 right, 3 own, 4 left, 5 choice, 6 none), as near an enemy as the edge allows; \
                 {} rounds, more enemy points destroyed wins",
                c.table_width, c.table_depth, c.cover_pieces, c.rounds
            ),
            Mission::FortressAssault => format!(
                "{}\"×{}\" table, no other terrain; a {FORT_SIZE}\"×{FORT_SIZE}\" building at the centre of side B's half \
                 (its sides are walls), the Defenders round it within 3\", the Assaulters in a line {}\" in front of it; \
                 Assaulters go for the building and attack it whenever they can (shot 6+, hand to hand 4+, no armor); \
                 {FORT_HITS} hits destroy it; {} rounds",
                c.table_width, c.table_depth, c.gap, c.rounds
            ),
            Mission::Ambush => format!(
                "{}\"×{}\" table; {} cover pieces {}\" long on a ring {}\" round the centre, turned from the seed, the \
                 Ambushers ½\" behind them (+1 initiative), the Targets in a grid {}\" apart at the centre; Ambushers \
                 covered from their nearest enemy in range hold and shoot; to the last figure, at most {AMBUSH_ROUNDS} \
                 rounds",
                c.table_width, c.table_depth, c.cover_pieces, c.cover_length, c.gap, c.spacing
            ),
            Mission::Transport => format!(
                "{}\"×{}\" table, {} cover pieces from the seed, the Basic Game's deployment (lines {}\" apart), the \
                 object at the centre; each side's nearest figure fetches it, the carrier runs for its own edge, the \
                 other side chases and shoots the carrier; {} rounds",
                c.table_width, c.table_depth, c.cover_pieces, c.gap, c.rounds
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    //! Scenario tests (section VIII): constructed positions on the Skirmish's 72" × 48" table,
    //! scripted dice. Side A deploys nearer y = 0, side B nearer y = 48.
    use super::*;
    use crate::dice::ScriptedDice;
    use crate::rulesets::vsgmr::skirmish::{Game, Roster};
    use crate::rulesets::vsgmr::tests::ruleset;

    /// A roster of `n` figures of template `name`.
    pub(super) fn roster(r: &crate::rulesets::vsgmr::Vsgmr, name: &str, n: u32) -> Roster {
        Roster { name: name.to_string(), units: vec![(r.find(name), n)], rides: Vec::new() }
    }

    /// A game of `mission` between `a` and `b` deployed on a table with `walls` only (no dice).
    fn on_table<'a>(
        r: &'a crate::rulesets::vsgmr::Vsgmr,
        mission: Mission,
        a: &Roster,
        b: &Roster,
        walls: Vec<crate::battle::Wall>,
    ) -> Game<'a> {
        let mut g = Game::new(&r.field().r, &r.skirmish);
        g.mission = mission;
        g.deploy([a, b], walls);
        g
    }

    /// Puts figure `k` at (x, y), inches.
    pub(super) fn place(g: &mut Game, k: usize, x: f32, y: f32) {
        (g.b.figs[k].x, g.b.figs[k].y) = (x, y);
    }

    #[test]
    fn escape_a_figure_runs_for_the_far_edge_and_its_side_wins_when_more_than_half_are_across() {
        // Section VIII "Escape". A troop of side A 4" from the far edge (y = 48), a troop of
        // side B 6" to its side. A wins initiative (6 against 1) and moves first: it goes
        // straight for the edge, leaves the table, and with 1 of its 1 figures across (more
        // than half) side A wins in round 1. The Basic Game's tactic would close on the enemy
        // troop instead (and roll a hand-to-hand attack the script does not hold).
        let r = ruleset();
        let field = r.field();
        let (a, b) = (roster(&field.r, "Troop", 1), roster(&field.r, "Troop", 1));
        let mut g = on_table(&r, Mission::Escape, &a, &b, Vec::new());
        place(&mut g, 0, 36.0, 44.0);
        place(&mut g, 1, 30.0, 44.0);
        let mut dice = ScriptedDice::new(&[6, 1]);
        let out = g.play(&mut dice);
        assert_eq!((out.winner, out.rounds), (Some(0), 1));
        assert_eq!(g.b.objective.escaped, [0]);
        assert!(dice.exhausted());
        assert_eq!(out.destroyed, [0.0, 0.0], "a figure across the edge is not destroyed");
        assert_eq!((g.b.figs[1].x, g.b.figs[1].y), (30.0, 38.0), "B ran 6\" toward its own far edge (y = 0)");
    }

    #[test]
    fn escape_a_side_that_can_no_longer_win_fights_and_the_game_can_end_drawn() {
        // Section VIII "Escape": "A player who does not have enough figures remaining to win can
        // still attack". Side A fielded 3 troops and has 1 left (1 + 0 across is not more than
        // half of 3): it closes on the nearest enemy instead of running. Side B's troop runs
        // for y = 0. A moves first (initiative 6 against 1) into base contact with B's troop
        // standing 6" away, B's troop then runs 6" on; no attack is possible.
        let r = ruleset();
        let field = r.field();
        let (a, b) = (roster(&field.r, "Troop", 3), roster(&field.r, "Troop", 1));
        let mut g = on_table(&r, Mission::Escape, &a, &b, Vec::new());
        g.b.figs[1].alive = false;
        g.b.figs[2].alive = false;
        place(&mut g, 0, 36.0, 30.0);
        place(&mut g, 3, 36.0, 36.0);
        let mut dice = ScriptedDice::new(&[6, 1]);
        g.b.round = 1;
        g.set_goals();
        g.play_round(&mut dice);
        assert_eq!((g.b.figs[0].x, g.b.figs[0].y), (36.0, 35.0), "A's last troop charged B's");
        assert_eq!((g.b.figs[3].x, g.b.figs[3].y), (36.0, 30.0), "B's troop ran for its far edge");
        assert_eq!(g.decided(), None, "B (1 of 1 on the table) can still win");
    }

    /// A Fortress Assault game between `a` (Assaulters) and `b` (Defenders), set up by the
    /// scenario's rules (no dice: the building is the only terrain).
    fn fortress<'a>(r: &'a crate::rulesets::vsgmr::Vsgmr, a: &Roster, b: &Roster) -> Game<'a> {
        let field = r.field();
        let mut g = Game::new(&field.r, &r.skirmish);
        g.mission = Mission::FortressAssault;
        g.set_up([a, b], &mut ScriptedDice::new(&[]));
        g
    }

    #[test]
    fn fortress_the_building_stands_at_the_centre_of_the_defenders_half_with_them_round_it() {
        // Section VIII "Fortress Assault", RULINGS.md "Missions": a 6" block at (36, 36) on the
        // 72" x 48" table; Defenders within a Half Move Unit (3") of it, Assaulters 2 Move
        // Units (12") away.
        let r = ruleset();
        let field = r.field();
        let g = fortress(&r, &roster(&field.r, "Troop", 10), &roster(&field.r, "Troop", 20));
        let fort = g.b.objective.fort.unwrap();
        assert_eq!((fort.min, fort.max, fort.hits_left), (Pos::new(33.0, 33.0), Pos::new(39.0, 39.0), 2));
        for f in &g.b.figs {
            let d = fort.dist(Pos::new(f.x, f.y));
            if f.side == 0 {
                assert!(d >= 12.0 - 1e-4, "an Assaulter {d}\" from the building");
            } else {
                assert!((0.5..=3.0 + 1e-4).contains(&d), "a Defender {d}\" from the building");
            }
        }
        let b = &g.b.figs[10..];
        for (i, p) in b.iter().enumerate() {
            assert!(b[i + 1..].iter().all(|q| Pos::new(p.x, p.y).dist(Pos::new(q.x, q.y)) >= 1.0 - 1e-4));
        }
        assert_eq!(g.table.walls.len(), 4, "the building's sides are the only walls");
    }

    #[test]
    fn fortress_an_assaulter_shoots_the_building_rather_than_the_defender_beside_it() {
        // An Assaulting troop with a distance attack 8" in front of the building, a Defending
        // troop 6" to its side. A wins initiative (6, 1), moves 6" toward the building (hand to
        // hand hits it on 4+, likelier than a shot's 6+) and, 2" short, shoots it: 6 hits, no
        // armor roll. The Defender charges it; its hand-to-hand attack (1) misses. The Basic
        // Game's tactic would shoot the Defender instead.
        let r = ruleset();
        let field = r.field();
        let mut g = fortress(&r, &roster(&field.r, "Troop with distance attack", 1), &roster(&field.r, "Troop", 1));
        place(&mut g, 0, 36.0, 25.0);
        place(&mut g, 1, 30.0, 31.0);
        let mut dice = ScriptedDice::new(&[6, 1, 6, 1]);
        g.b.round = 1;
        g.set_goals();
        g.play_round(&mut dice);
        assert_eq!((g.b.figs[0].x, g.b.figs[0].y), (36.0, 31.0));
        assert_eq!(g.b.objective.fort.unwrap().hits_left, 1, "the shot hit the building");
        assert!(dice.exhausted() && g.b.figs[0].alive && g.b.figs[1].alive);
        assert_eq!(g.decided(), None);
        // A second hit destroys it: the Assaulters win; every Assaulter defeated: the Defenders.
        g.b.objective.fort.as_mut().unwrap().hits_left = 0;
        assert_eq!(g.decided(), Some(Some(0)));
        g.b.objective.fort.as_mut().unwrap().hits_left = 1;
        g.b.figs[0].alive = false;
        assert_eq!(g.decided(), Some(Some(1)));
    }

    #[test]
    fn fortress_the_defenders_screen_the_building_against_the_assaulter_nearest_it() {
        // Issue 19, item 4 ("screen a building"): Assaulter 0 stands 5" in front of the
        // building, Assaulter 1 far from it but 2" from the Defender. The Basic Game's tactic
        // would send the Defender at its nearest enemy (1); screening, it goes for the one about
        // to strike the building (0), to its approach stop, and shoots it first (the quarry).
        let r = ruleset();
        let field = r.field();
        let mut g = fortress(&r, &roster(&field.r, "Troop", 2), &roster(&field.r, "Troop with distance attack", 1));
        place(&mut g, 0, 36.0, 28.0);
        place(&mut g, 1, 50.0, 44.0);
        place(&mut g, 2, 48.0, 44.0);
        g.b.round = 1;
        g.set_goals();
        let stop = crate::rulesets::vsgmr::rules::approach_stop(
            &field.r,
            &g.b.acting(&field.r, 2),
            &g.b.acting(&field.r, 0),
            false,
        );
        assert_eq!(g.b.objective.goal(2), Goal::Chase { target: 0, stop });
        assert_eq!(g.b.objective.quarry, Some(0));
        // With Assaulter 0 gone, the next nearest the building is the one to screen against.
        g.b.figs[0].alive = false;
        g.set_goals();
        assert!(matches!(g.b.objective.goal(2), Goal::Chase { target: 1, .. }));
        assert_eq!(g.b.objective.quarry, Some(1));
    }

    #[test]
    fn fortress_rolls_against_the_building_are_those_at_a_figure_in_cover() {
        // RULINGS.md "Missions": a shot needs 6 (a troop 1/6, a hero +1: 1/3, automatic fire
        // 11/36), hand to hand 4 (1/2); a mook's shot (d6 - 1) never hits it.
        use crate::rulesets::vsgmr::rules::AttackKind::*;
        use crate::rulesets::vsgmr::rules::p_hit_fort;
        let r = ruleset();
        let p = |n: &str| *r.profile(r.find(n));
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
        assert!(close(p_hit_fort(&p("Troop with distance attack"), Distance), 1.0 / 6.0));
        assert!(close(p_hit_fort(&p("Hero with distance attack"), Distance), 1.0 / 3.0));
        assert!(close(p_hit_fort(&p("Troop with automatic fire"), Distance), 11.0 / 36.0));
        assert!(close(p_hit_fort(&p("Troop"), HandToHand), 0.5));
        assert_eq!(p_hit_fort(&p("Mook with distance attack"), Distance), 0.0);
        assert_eq!(p_hit_fort(&p("Troop"), Distance), 0.0);
    }

    #[test]
    fn ambush_ambushers_stand_covered_behind_the_pieces_round_the_targets_in_the_open() {
        // Section VIII "Ambush": Ambushers behind terrain, covered from the Targets' ground;
        // Targets in the open, each within 1 Move Unit (6") of another; +1 initiative.
        let r = ruleset();
        let field = r.field();
        let (a, b) = (roster(&field.r, "Troop with distance attack", 12), roster(&field.r, "Troop", 20));
        let mut g = Game::new(&field.r, &r.skirmish);
        g.mission = Mission::Ambush;
        g.set_up([&a, &b], &mut ScriptedDice::new(&[]).with_uniforms(&[0.3]));
        assert_eq!(g.b.objective.initiative, [1, 0]);
        let centre = Pos::new(36.0, 24.0);
        let at = |k: usize| Pos::new(g.b.figs[k].x, g.b.figs[k].y);
        for k in 0..12 {
            assert!(g.table.walls.iter().any(|w| w.crosses(centre, at(k)) && w.dist_to(at(k)) <= 0.5 + 1e-4));
        }
        for k in 12..32 {
            assert!(g.table.walls.iter().all(|w| w.dist_to(at(k)) > 3.0), "a Target near cover");
            assert!((12..32).any(|j| j != k && at(j).dist(at(k)) <= 6.0));
        }
    }

    #[test]
    fn ambush_an_ambusher_in_cover_holds_and_the_ambushers_add_one_to_initiative() {
        // An Ambushing troop with a distance attack ½" behind a wall, a Target troop with one
        // 8" beyond it. Initiative 3 + 1 against 3: the Ambusher goes first (without the +1
        // the tie would re-roll and the script run out). Covered from the Target in range, it
        // holds; the Basic Game's tactic would advance to 6" (round the wall, out of cover)
        // so the Target cannot step out of range. The Target, struck first at range in an
        // even exchange, steps out of range (13"): no attack.
        let r = ruleset();
        let field = r.field();
        let (a, b) =
            (roster(&field.r, "Troop with distance attack", 1), roster(&field.r, "Troop with distance attack", 1));
        let mut g = Game::new(&field.r, &r.skirmish);
        g.mission = Mission::Ambush;
        let wall = crate::battle::Wall { a: Pos::new(33.0, 20.5), b: Pos::new(39.0, 20.5), intact: true };
        g.deploy([&a, &b], vec![wall]);
        g.b.objective.initiative = [1, 0];
        place(&mut g, 0, 36.0, 20.0);
        place(&mut g, 1, 36.0, 28.0);
        assert!(g.b.in_cover(1, 0));
        let mut dice = ScriptedDice::new(&[3, 3]);
        g.b.round = 1;
        g.set_goals();
        g.play_round(&mut dice);
        assert_eq!((g.b.figs[0].x, g.b.figs[0].y), (36.0, 20.0), "the Ambusher held in cover");
        assert_eq!((g.b.figs[1].x, g.b.figs[1].y), (36.0, 33.0));
        assert!(dice.exhausted());
        g.b.figs[1].alive = false;
        assert_eq!(g.decided(), Some(Some(0)), "the last side with figures wins");
    }

    /// A Transport game of `a` against `b` on an open table, the object carried by figure
    /// `carrier` (or lying at the centre).
    fn transport<'a>(r: &'a crate::rulesets::vsgmr::Vsgmr, a: &Roster, b: &Roster) -> Game<'a> {
        let mut g = on_table(r, Mission::Transport, a, b, Vec::new());
        g.b.objective.cargo = Some(Cargo { at: Pos::new(36.0, 24.0), carrier: None });
        g
    }

    #[test]
    fn transport_each_side_sends_its_quickest_figure_to_the_object_and_the_first_takes_it() {
        // Section VIII "Transport": the object at the centre (36, 24). Side A's troop 6" from
        // it (its other troop 8"), side B's 7". A moves first (6, 1): its nearer troop ends on
        // the object and picks it up; B's fetcher ends in base contact, too late. The others
        // play the Basic Game's tactic.
        let r = ruleset();
        let field = r.field();
        let mut g = transport(&r, &roster(&field.r, "Troop", 2), &roster(&field.r, "Troop", 1));
        place(&mut g, 0, 30.0, 16.0);
        place(&mut g, 1, 36.0, 18.0);
        place(&mut g, 2, 36.0, 31.0);
        g.b.round = 1;
        g.set_goals();
        assert_eq!(g.b.objective.goal(0), Goal::Fight);
        assert_eq!(g.b.objective.goal(1), Goal::To { at: Pos::new(36.0, 24.0), stop: 0.0, exit: false });
        assert_eq!(g.b.objective.goal(2), Goal::To { at: Pos::new(36.0, 24.0), stop: 0.0, exit: false });
        let mut dice = ScriptedDice::new(&[6, 1, 1, 1]);
        g.play_round(&mut dice);
        assert_eq!(g.b.objective.cargo.unwrap().carrier, Some(1));
        assert_eq!((g.b.figs[1].x, g.b.figs[1].y), (36.0, 24.0));
        assert_eq!((g.b.figs[2].x, g.b.figs[2].y), (36.0, 25.0), "B's fetcher stopped in base contact");
        // Next round the carrier runs for its own edge (y = 0) and B chases it.
        g.b.round = 2;
        g.set_goals();
        assert_eq!(g.b.objective.goal(1), Goal::To { at: Pos::new(36.0, 0.5), stop: 0.0, exit: true });
        assert_eq!(g.b.objective.goal(2), Goal::Chase { target: 1, stop: 1.0 });
    }

    #[test]
    fn transport_the_carrier_runs_home_and_wins_and_the_enemy_shoots_the_carrier_first() {
        // The carrier (A's troop) 3.5" from its own edge, B's troop 6" away: A moves first
        // (6, 1), the carrier leaves the table with the object and A wins. The Basic Game's
        // tactic would charge B's troop.
        let r = ruleset();
        let field = r.field();
        let mut g = transport(&r, &roster(&field.r, "Troop", 1), &roster(&field.r, "Troop", 1));
        g.b.objective.cargo = Some(Cargo { at: Pos::new(36.0, 4.0), carrier: Some(0) });
        place(&mut g, 0, 36.0, 4.0);
        place(&mut g, 1, 42.0, 4.0);
        let out = g.play(&mut ScriptedDice::new(&[6, 1]));
        assert_eq!((out.winner, out.rounds, &g.b.objective.escaped[..]), (Some(0), 1, &[0][..]));

        // A's carrier (troop) at 20", its escort (a shooter) 4.5" from B's shooter, the carrier
        // 11.3" from it after its move. A first (6, 1): the escort shoots B's shooter (1,
        // misses); B's shooter shoots the carrier (6), not the nearer escort: it falls (no
        // armor) and the object lies where it fell, free for the next round's fetchers.
        let (a, b) = (
            Roster {
                name: "A".into(),
                units: vec![(field.r.find("Troop"), 1), (field.r.find("Troop with distance attack"), 1)],
                rides: Vec::new(),
            },
            roster(&field.r, "Troop with distance attack", 1),
        );
        let mut g = transport(&r, &a, &b);
        g.b.objective.cargo = Some(Cargo { at: Pos::new(36.0, 20.0), carrier: Some(0) });
        place(&mut g, 0, 36.0, 20.0);
        place(&mut g, 1, 48.0, 24.0);
        place(&mut g, 2, 44.0, 22.0);
        g.b.round = 1;
        g.set_goals();
        let mut dice = ScriptedDice::new(&[6, 1, 1, 6]);
        g.play_round(&mut dice);
        assert!(dice.exhausted());
        assert!(!g.b.figs[0].alive && g.b.figs[1].alive, "the carrier fell, the escort stands");
        g.b.round = 2;
        g.set_goals();
        assert_eq!(g.b.objective.cargo, Some(Cargo { at: Pos::new(36.0, 14.0), carrier: None }));
        assert_eq!(g.b.objective.quarry, None);
    }

    #[test]
    fn spawning_a_spawned_figure_enters_within_a_move_unit_of_the_rolled_edge_nearest_an_enemy() {
        // Section VIII "Spawning": the Spawners (B) face y = 0, so 2 is the edge x = 0 on their
        // right, 4 the edge x = 72. An Infiltrator at (10, 30): on a 1 the spot on the
        // Infiltrators' edge nearest it is (10, 6) (a guy's Move Unit in), on a 5 the Spawner
        // chooses the edge x = 0, 4" from it, at (6, 30).
        let enemy = [Pos::new(10.0, 30.0)];
        let spot = |roll: u8| spawn_spot(spawn_edge(roll).unwrap(), &enemy, 6.0, 72.0, 48.0);
        assert_eq!(spot(1), Pos::new(10.0, 6.0));
        assert_eq!(spot(2), Pos::new(6.0, 30.0));
        assert_eq!(spot(3), Pos::new(10.0, 42.0));
        assert_eq!(spot(4), Pos::new(66.0, 30.0));
        assert_eq!(spot(5), Pos::new(6.0, 30.0));
        assert_eq!(spawn_edge(6), None);
    }

    #[test]
    fn spawning_the_spawners_start_with_their_costliest_figure_and_bring_the_next_on_the_die() {
        // B fields a Hero with heavy armor (4 points) and two Troops (1): the Hero starts on
        // its line's centre, the Troops wait (not destroyed). A 6 brings none; a 5 brings a
        // Troop as near A's troop as an edge allows; a waiting figure counts as a survivor.
        let r = ruleset();
        let field = r.field();
        let b = Roster {
            name: "B".into(),
            units: vec![(field.r.find("Troop"), 2), (field.r.find("Hero with heavy armor"), 1)],
            rides: Vec::new(),
        };
        let mut g = Game::new(&field.r, &r.skirmish);
        g.mission = Mission::Spawning;
        g.deploy([&roster(&field.r, "Troop", 1), &b], Vec::new());
        g.hold_back_spawners();
        assert_eq!(g.reserve, [1, 2]);
        assert!(g.b.figs[3].alive && !g.b.figs[1].alive && !g.b.figs[2].alive);
        assert_eq!((g.b.figs[3].x, g.b.figs[3].y), (36.0, 30.0));
        assert_eq!(g.destroyed(), [0.0, 0.0]);
        place(&mut g, 0, 60.0, 10.0);
        assert_eq!(g.spawn(6), None);
        assert_eq!(g.spawn(5), Some(1));
        assert_eq!((g.b.figs[1].x, g.b.figs[1].y, g.b.figs[1].alive), (60.0, 6.0, true));
        assert_eq!(g.reserve, [2]);
        // With the Infiltrator gone and a figure still waiting the game goes on.
        g.b.figs[0].alive = false;
        assert_eq!(g.decided(), Some(None));
        g.b.figs[0].alive = true;
        g.b.figs[1].alive = false;
        g.b.figs[3].alive = false;
        assert_eq!(g.decided(), None, "B has a figure waiting");
    }

    #[test]
    fn escape_a_rider_with_a_goal_rides_on_and_leaves_the_table_with_its_mount() {
        // Section VIII "Escape" with a sample army's riders (Wild West Bandit Gang: bandits on
        // horses, section II.2). A mounted bandit 8" from the far edge with an enemy troop 3"
        // away: in the Basic Game it would step off to fight; with its escape goal it rides on,
        // and the horse (9") carries it across: both leave the table (2 figures across).
        let r = ruleset();
        let field = r.field();
        let bandits = field.samples.iter().find(|a| a.name == "Wild West Bandit Gang").unwrap().clone();
        let mut g = on_table(&r, Mission::Escape, &bandits, &roster(&field.r, "Troop", 1), Vec::new());
        let rider = (0..g.b.figs.len()).find(|&k| g.b.figs[k].riding.is_some()).unwrap();
        let horse = g.b.figs[rider].riding.unwrap();
        let foe = g.b.figs.len() - 1;
        place(&mut g, horse, 36.0, 40.0);
        g.b.carry(horse);
        place(&mut g, foe, 39.0, 40.0);
        g.b.round = 1;
        g.set_goals();
        assert!(crate::rulesets::vsgmr::rules::dismounts(&field.r, &g.b, rider, horse), "it would fight on foot");
        for k in [rider, horse] {
            crate::rulesets::vsgmr::rules::move_figure(&field.r, &mut g.b, k);
        }
        assert_eq!(g.b.objective.escaped, [rider.min(horse), rider.max(horse)]);
    }

    #[test]
    fn escape_the_first_side_past_half_wins() {
        // Figures 0..3 side A (3 fielded), 3..5 side B (2 fielded): B's second figure across
        // comes before A's second.
        let side = |k: usize| usize::from(k >= 3);
        assert_eq!(escape_winner(&[0, 3, 4, 1], side, [3, 2]), Some(1));
        assert_eq!(escape_winner(&[0, 3, 1, 4], side, [3, 2]), Some(0));
        assert_eq!(escape_winner(&[0, 3], side, [3, 2]), None);
    }
}
