//! The rules of VSGMR v7, one function per rule step, and the default tactic.
//!
//! A [`Battle`] holds both sides' figures as small structs (position in inches, side, flags)
//! and is reused across trials. A round is initiative, then movement, distance attacks and
//! hand-to-hand attacks, each step taken by the first player's figures and then the other's
//! (`sequence = "phased"`), or alternating single figures (`"everyone_acts"`, section II
//! "Everyone Acts"). Casualties are immediate: a figure defeated earlier in the round does not
//! attack (RULINGS.md, "Round").
//!
//! The default tactic (RULINGS.md, "Common: the stand-up duel"): a figure with a distance
//! attack holds the nearest enemy within its Distance Attack Unit — unless the exchange in base
//! contact beats the one at range ([`prefers_contact`]: a mook that needs a 7 to hit a Stealth
//! figure charges), then it closes like a figure without one, which moves toward the nearest
//! enemy it can fight hand to hand, into base contact if it can reach. Who moves first decides
//! where it stops ([`wanted_gap`], issue 15): it falls back out of a charging foe's reach,
//! charges hand to hand only moving first (or when struck first it still wins the exchange),
//! and between shooters closes moving first so the foe cannot step out of range, and steps out
//! of an exchange struck first that does not favour it. It shoots the nearest enemy in range
//! a shot can defeat (a shot no die can make good is not made). In contact it attacks with the
//! option (distance or hand to hand) more likely to defeat the target (ties: the shot, made
//! first). A figure that cannot attack this round uses Disable on the nearest enemy within its Distance Attack Unit if it has the trait, else
//! Summon to bring its rearmost ally beside it. A Flight figure with a distance attack stays in
//! flight (out of reach of hand-to-hand attacks); without one it lands to fight. The side's
//! Inspiration rerolls the first of its own failed attack or armor rolls each round, on its own
//! turn only (an armor roll against an enemy's attack is on the enemy's turn). A Support
//! figure boosts distance attacks if it has them, else hand-to-hand attacks (unless the figure
//! names its roll type). Cause Fear does not affect vehicles (the book's "giant war robot").
//! In the Skirmish a mounted rider rides on until its own fight beats its mount's
//! ([`dismounts`]); a shot at a mounted pair goes to the one likelier to fall ([`Fig::riding`]).

use crate::dice::Dice;
use crate::rulesets::vsgmr::figure::{Armor, Figure, Kind, Power, SupportRoll, Trait};
use crate::rulesets::vsgmr::mission::{Goal, Objective};
use crate::rulesets::vsgmr::{Sequence, Vsgmr};
use crate::rulesets::{DuelOutcome, Side};

/// Distances within this of a limit count as inside it (float rounding after moves).
pub const EPS: f32 = 1e-3;

/// A figure's combat numbers, precomputed from its [`Figure`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Profile {
    pub kind: Kind,
    pub cost: f64,
    pub distance_attack: bool,
    pub automatic_fire: bool,
    pub armor: Armor,
    pub traits: u32,
    /// Die sizes for distance attacks (Super-Blast), hand to hand (Super-Fight), armor
    /// (Super-Armor): 6, 8, 10 or 12.
    pub blast_die: u8,
    pub fight_die: u8,
    pub armor_die: u8,
    /// Move in inches, Super-Move included; Half Move Unit in inches.
    pub move_in: f32,
    pub half_move: f32,
    /// Super-Move's initiative bonus.
    pub initiative: i8,
    /// Distance Attack Unit: 12", Sniper 24".
    pub range: f32,
    /// What Support boosts, if the figure has it.
    pub support: Option<SupportRoll>,
    /// A figure it summons acts from the next round (the Scream Queen, section VII).
    pub summoned_wait: bool,
}

impl Profile {
    pub fn from_figure(f: &Figure) -> Self {
        let die = |p: Power| 6 + 2 * f.power(p);
        let mu = f.kind.move_unit();
        let support = f.has(Trait::Support).then(|| {
            f.support_roll.unwrap_or(if f.distance_attack { SupportRoll::Distance } else { SupportRoll::HandToHand })
        });
        Profile {
            kind: f.kind,
            cost: f.price(),
            distance_attack: f.distance_attack,
            automatic_fire: f.automatic_fire && f.distance_attack,
            armor: f.effective_armor(),
            traits: f.traits,
            blast_die: die(Power::SuperBlast),
            fight_die: die(Power::SuperFight),
            armor_die: die(Power::SuperArmor),
            move_in: mu * (1.0 + 0.5 * f.power(Power::SuperMove) as f32),
            half_move: mu / 2.0,
            initiative: f.power(Power::SuperMove) as i8,
            range: if f.has(Trait::Sniper) { 24.0 } else { 12.0 },
            support,
            summoned_wait: f.summoned_wait,
        }
    }

    pub fn has(&self, t: Trait) -> bool {
        self.traits & t.bit() != 0
    }

    /// Hero guys and vehicles add +1 to attack rolls; mooks −1 (sections II.3, IV).
    pub fn attack_flavor(&self) -> i8 {
        match self.kind {
            Kind::Hero | Kind::Vehicle => 1,
            Kind::Mook => -1,
            _ => 0,
        }
    }

    /// Sharpshooter (distance) or Combat Master (hand to hand): +1, +2 for hero guys and
    /// vehicles (section V).
    fn expertise(&self, t: Trait) -> i8 {
        if !self.has(t) {
            0
        } else if matches!(self.kind, Kind::Hero | Kind::Vehicle) {
            2
        } else {
            1
        }
    }

    /// Bonus to this figure's distance attack rolls (Support counted separately).
    pub fn distance_bonus(&self) -> i8 {
        self.attack_flavor() + self.expertise(Trait::Sharpshooter)
    }

    /// Bonus to this figure's hand-to-hand attack rolls (Support counted separately).
    pub fn hand_to_hand_bonus(&self) -> i8 {
        self.attack_flavor() + self.expertise(Trait::CombatMaster)
    }

    /// Bonus to this figure's armor rolls: vehicles +1, Tough +1 (+2 vehicles), mooks −1.
    pub fn armor_bonus(&self) -> i8 {
        let vehicle = self.kind == Kind::Vehicle;
        let tough = if self.has(Trait::Tough) { 1 + vehicle as i8 } else { 0 };
        vehicle as i8 + tough - (self.kind == Kind::Mook) as i8
    }

    /// The total an armor roll needs: light 6, heavy 4; `None` without armor.
    pub fn armor_needs(&self) -> Option<i8> {
        match self.armor {
            Armor::None => None,
            Armor::Light => Some(6),
            Armor::Heavy => Some(4),
        }
    }

    /// Total a distance attack at this figure needs in the open: 5, Stealth 6 (sections II.3
    /// "Cover", V "Stealth"); behind a Skirmish cover piece one more ([`Battle::in_cover`]).
    pub fn distance_needs(&self) -> i8 {
        if self.has(Trait::Stealth) { 6 } else { 5 }
    }

    /// Whether attacks rolling 1 or 2 against this figure strike the attacker with fear; the
    /// attacker must be one that "would reasonably be struck by fear" (not a vehicle).
    pub fn frightens(&self, attacker: &Profile) -> bool {
        self.has(Trait::CauseFear) && attacker.kind != Kind::Vehicle
    }

    /// Whether the figure can move and attack on its own: guys, and Independent cavalry and
    /// vehicles (section V "Independent").
    pub fn self_moving(&self) -> bool {
        self.kind.is_guy() || self.has(Trait::Independent)
    }
}

/// One figure on the table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fig {
    pub unit: usize,
    pub side: Side,
    pub x: f32,
    pub y: f32,
    pub alive: bool,
    /// Has made its attack (or Disable/Summon) this round.
    pub acted: bool,
    /// Cannot move, attack or use traits during this round number (Disable).
    pub disabled_round: u32,
    /// Cannot act before this round (recruited figures act from the next round).
    pub ready_round: u32,
    /// A Flight figure still in the air after its move.
    pub flying: bool,
    /// Has had its movement step this round (the default tactic's [`wanted_gap`] reads the
    /// enemy's).
    pub moved: bool,
    /// The cavalry or vehicle figure this guy rides or drives (the Skirmish's sample armies;
    /// `None` on foot and in duels). Mounted, it stands where its mount stands, moves with it,
    /// does not move or attack on its own and is covered (section II.2, II.3 "Cover").
    pub riding: Option<usize>,
}

/// The kind of an attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttackKind {
    Distance,
    HandToHand,
}

/// Both sides' figures, reused across trials.
#[derive(Debug, Clone, Default)]
pub struct Battle {
    pub figs: Vec<Fig>,
    pub round: u32,
    /// Whether each side's Inspiration has been used this round.
    pub inspiration_used: [bool; 2],
    pub kills: [u32; 2],
    /// A Revenge attack is being resolved (a revenge attack triggers no further revenge).
    pub in_revenge: bool,
    /// Cover pieces on the table (the Skirmish; empty in duels, which are fought in the open)
    /// and how near the target a crossed piece must be to cover it at least half.
    pub cover: Vec<crate::battle::Wall>,
    pub cover_reach: f32,
    /// `(attacker, defeated)` templates of every figure defeated, when the caller keeps a log
    /// (the Skirmish does; duels leave it `None`).
    pub kill_log: Option<Vec<(usize, usize)>>,
    /// The Skirmish's table (inches): its edges and its walls. `None` in duels, fought on open
    /// ground without edges.
    pub table: Option<crate::battle::Table>,
    /// The duel's table edges behind side A and side B along x, inches (`None`: no edges):
    /// [`Battle::deploy`] puts them the whole inches of half the [`DUEL_DEPTH`] less the start
    /// distance behind each side, like the optimal-play game's line on its 1" grid (RULINGS.md,
    /// "Duel table depth").
    /// Only a figure falling back ([`move_figure`]) stops at them.
    pub edges: Option<(f32, f32)>,
    /// The enemies in base contact with each figure ([`Battle::in_contact`]), indexed by
    /// [`play_round`] after the movement step so the attack steps need not scan every figure
    /// for every figure; a superset of the current contacts while `contacts_valid` (a defeat
    /// only removes contacts; anything that moves a figure or turns it to the other side clears
    /// the flag, and the scans then run in full).
    contacts: Vec<Vec<usize>>,
    contacts_valid: bool,
    /// [`wanted_gap`]'s answers for the units' own profiles, kept across the trials played in
    /// this battle (a pure function of its arguments, asked again at the same gaps in every
    /// trial of a duel). Keyed by unit index: a battle is played under one ruleset only, as
    /// every arena is (`Ruleset::arena`, one per batch of one matchup).
    gap_memo: GapMemo,
    /// The scenario's objective (section VIII; [`super::mission`]): per-figure goals the
    /// default tactic plays instead of fighting, figures that left the table, the Fortress
    /// Assault's building, initiative bonuses. Empty in duels and the Basic Game.
    pub objective: Objective,
}

/// The depth of the VSGMR duel table, inches (RULINGS.md, "Duel table depth"): the Monte Carlo
/// duel and the optimal-play game ([`super::optimal`]) fall back to the same edges.
pub const DUEL_DEPTH: f32 = 48.0;

/// Rolls one die of `sides` (6, 8, 10 or 12). d8 and d10 come from a uniform draw (`Dice` has
/// no d8/d10); scripted tests give them with `with_uniforms`.
pub fn roll<D: Dice>(dice: &mut D, sides: u8) -> u8 {
    match sides {
        6 => dice.d6(),
        12 => dice.d12(),
        s => 1 + dice.below(s as usize) as u8,
    }
}

impl Battle {
    /// Two lines of figures `distance` apart, `spacing` between neighbours; side A at x = 0.
    pub fn deploy(&mut self, r: &Vsgmr, a: usize, na: u32, b: usize, nb: u32, distance: f32, spacing: f32) {
        self.figs.clear();
        self.contacts_valid = false;
        self.round = 0;
        self.kills = [0, 0];
        self.in_revenge = false;
        // Whole inches of room behind each side, as on the optimal-play game's 1" grid.
        let room = ((DUEL_DEPTH - distance) / 2.0).floor().max(0.0);
        self.edges = Some((-room, distance + room));
        for (side, unit, n, x) in [(0, a, na, 0.0), (1, b, nb, distance)] {
            let p = r.profile(unit);
            for k in 0..n {
                let y = (k as f32 - (n as f32 - 1.0) / 2.0) * spacing;
                self.figs.push(Fig {
                    unit,
                    side,
                    x,
                    y,
                    alive: true,
                    acted: false,
                    disabled_round: 0,
                    ready_round: 0,
                    flying: p.has(Trait::Flight) && p.distance_attack,
                    moved: false,
                    riding: None,
                });
            }
        }
    }

    pub fn dist(&self, i: usize, j: usize) -> f32 {
        let (a, b) = (&self.figs[i], &self.figs[j]);
        ((a.x - b.x).powi(2) + (a.y - b.y).powi(2)).sqrt()
    }

    /// Whether `self.dist(i, j) <= limit` (inches), the same answer most often without a
    /// square root ([`crate::battle::Pos::within`]).
    fn within(&self, i: usize, j: usize, limit: f32) -> bool {
        use crate::battle::Pos;
        let (a, b) = (&self.figs[i], &self.figs[j]);
        Pos::new(a.x, a.y).within(Pos::new(b.x, b.y), limit)
    }

    /// Section II.3 "Cover": whether a distance attack from `attacker` at `target` is at a
    /// target at least half covered: the line of fire crosses a cover piece within
    /// `cover_reach` of the target (RULINGS.md reading; the Skirmish's terrain).
    /// A rider or driver on its mount is always covered (section II.3 "Cover").
    pub fn in_cover(&self, attacker: usize, target: usize) -> bool {
        if self.figs[target].riding.is_some() {
            return true;
        }
        if self.cover.is_empty() {
            return false;
        }
        let (a, t) = (&self.figs[attacker], &self.figs[target]);
        let (p, q) = (crate::battle::Pos::new(a.x, a.y), crate::battle::Pos::new(t.x, t.y));
        self.cover.iter().any(|w| w.crosses(p, q) && w.dist_to(q) <= self.cover_reach + EPS)
    }

    pub fn alive_count(&self, side: Side) -> usize {
        self.figs.iter().filter(|f| f.alive && f.side == side).count()
    }

    /// Whether figure `i` may act this round: a mounted rider does not move or attack on its
    /// own (section II.2).
    fn can_act(&self, i: usize) -> bool {
        let f = &self.figs[i];
        f.alive && f.disabled_round != self.round && f.ready_round <= self.round && f.riding.is_none()
    }

    /// The living rider or driver aboard cavalry or vehicle figure `i`, if any.
    pub fn rider_of(&self, i: usize) -> Option<usize> {
        self.figs.iter().position(|f| f.alive && f.riding == Some(i))
    }

    /// The profile figure `i` moves and attacks with: a cavalry or vehicle figure with its rider
    /// or driver aboard moves and attacks as an Independent one does without (sections II.2,
    /// V "Independent"); without one and without Independent it cannot move or attack.
    pub fn acting(&self, r: &Vsgmr, i: usize) -> Profile {
        let mut p = *r.profile(self.figs[i].unit);
        if !p.self_moving() && self.rider_of(i).is_some() {
            p.traits |= Trait::Independent.bit();
        }
        p
    }

    /// The other figure of a mounted pair `t` (its mount, or its rider aboard), if any.
    fn partner(&self, r: &Vsgmr, t: usize) -> Option<usize> {
        self.figs[t]
            .riding
            .or_else(|| (!r.profile(self.figs[t].unit).self_moving()).then(|| self.rider_of(t)).flatten())
    }

    /// Puts the riders aboard figure `m` where it stands (they move with it, section II.2).
    pub fn carry(&mut self, m: usize) {
        self.contacts_valid = false;
        let (x, y, flying, alive) = (self.figs[m].x, self.figs[m].y, self.figs[m].flying, self.figs[m].alive);
        for f in self.figs.iter_mut().filter(|f| f.riding == Some(m)) {
            (f.x, f.y, f.flying, f.alive) = (x, y, flying, f.alive && alive);
        }
    }

    /// Figure `t` leaves its mount, and any rider leaves `t`: the rider stays where the mount
    /// stood and fights on foot (section III: "whatever it was carrying is dropped right where the
    /// figure was taken from the playing surface").
    fn dismount(&mut self, r: &Vsgmr, t: usize) {
        // A rider off a flying mount lands: it may now be in base contact.
        self.contacts_valid = false;
        for k in 0..self.figs.len() {
            if k == t || self.figs[k].riding == Some(t) {
                let p = r.profile(self.figs[k].unit);
                let f = &mut self.figs[k];
                f.flying &= f.riding.is_none() || (p.has(Trait::Flight) && p.distance_attack);
                f.riding = None;
            }
        }
    }

    /// Whether `i` can attack `j` hand to hand: base contact, neither in flight.
    #[inline]
    fn in_contact(&self, r: &Vsgmr, i: usize, j: usize) -> bool {
        let (a, b) = (&self.figs[i], &self.figs[j]);
        a.alive && b.alive && a.side != b.side && !a.flying && !b.flying && self.within(i, j, r.rules.contact + EPS)
    }

    /// Indexes the enemies in base contact with every figure (`contacts`), each pair checked once
    /// (the test is symmetric).
    fn index_contacts(&mut self, r: &Vsgmr) {
        let n = self.figs.len();
        self.contacts.resize_with(n, Vec::new);
        for c in &mut self.contacts[..n] {
            c.clear();
        }
        for i in 0..n {
            for j in i + 1..n {
                if self.in_contact(r, i, j) {
                    self.contacts[i].push(j);
                    self.contacts[j].push(i);
                }
            }
        }
        self.contacts_valid = true;
    }

    /// The enemies `j` in base contact with `i`, in increasing order.
    fn touching<'a>(&'a self, r: &'a Vsgmr, i: usize) -> impl Iterator<Item = usize> + 'a {
        let indexed = if self.contacts_valid { &self.contacts[i][..] } else { &[] };
        let all = if self.contacts_valid { 0..0 } else { 0..self.figs.len() };
        indexed.iter().copied().chain(all).filter(move |&j| self.in_contact(r, i, j))
    }

    /// The nearest living enemy of `i` satisfying `ok`.
    pub fn nearest_enemy(&self, i: usize, ok: impl Fn(&Fig) -> bool) -> Option<usize> {
        let side = self.figs[i].side;
        // The first of the nearest, as `min_by` on the distance gives it; each distance once.
        let mut best: Option<(usize, f32)> = None;
        for (j, f) in self.figs.iter().enumerate() {
            if f.alive && f.side != side && ok(f) {
                let d = self.dist(i, j);
                if best.is_none_or(|(_, b)| d.total_cmp(&b) == std::cmp::Ordering::Less) {
                    best = Some((j, d));
                }
            }
        }
        best.map(|(j, _)| j)
    }

    /// In one pass over the figures: the first enemy in base contact with `i`
    /// ([`Battle::in_contact`], lowest index), and if there is none, the nearest living enemy
    /// satisfying `ok` ([`Battle::nearest_enemy`]).
    fn contact_or_nearest(&self, r: &Vsgmr, i: usize, ok: impl Fn(&Fig) -> bool) -> (Option<usize>, Option<usize>) {
        use crate::battle::Pos;
        let me = &self.figs[i];
        let at = Pos::new(me.x, me.y);
        let (side, grounded) = (me.side, me.alive && !me.flying);
        let limit = r.rules.contact + EPS;
        // The nearest so far: index, distance, squared distance. A squared distance no less
        // than the best one's has a root no less than it (the root is monotone), so it is not
        // nearer and its root is not taken.
        let mut best: Option<(usize, f32, f32)> = None;
        for (j, f) in self.figs.iter().enumerate() {
            if !f.alive || f.side == side {
                continue;
            }
            // `in_contact(i, j)`, the first in index order.
            if grounded && !f.flying && at.within(Pos::new(f.x, f.y), limit) {
                return (Some(j), None);
            }
            if ok(f) {
                // `self.dist(i, j)`, squared.
                let d2 = (me.x - f.x).powi(2) + (me.y - f.y).powi(2);
                if best.is_some_and(|(_, _, b2)| d2 >= b2) {
                    continue;
                }
                let d = d2.sqrt();
                if best.is_none_or(|(_, b, _)| d.total_cmp(&b) == std::cmp::Ordering::Less) {
                    best = Some((j, d, d2));
                }
            }
        }
        (None, best.map(|(j, _, _)| j))
    }

    /// Support bonus (+1) for a roll of `kind` by figure `i`: it or an ally within a Half Move
    /// Unit of it (the supporter's) has Support for that roll type (section V "Support").
    fn support(&self, r: &Vsgmr, i: usize, kind: SupportRoll) -> i8 {
        let me = &self.figs[i];
        self.figs.iter().enumerate().any(|(j, f)| {
            let p = r.profile(f.unit);
            f.alive && f.side == me.side && p.support == Some(kind) && (j == i || self.dist(i, j) <= p.half_move + EPS)
        }) as i8
    }

    /// Whether side `s` can still use Inspiration this round: a living Inspiration figure and
    /// not yet used (section V "Inspiration").
    fn inspiration_ready(&self, r: &Vsgmr, s: Side) -> bool {
        !self.inspiration_used[s]
            && self.figs.iter().any(|f| f.alive && f.side == s && r.profile(f.unit).has(Trait::Inspiration))
    }

    /// Moves figure `i` from its place by `d` inches directly away from (x, y); its riders go
    /// with it, and a rider pushed is pushed off its mount.
    fn push_away(&mut self, i: usize, from: (f32, f32), d: f32) {
        self.contacts_valid = false;
        self.figs[i].riding = None;
        let f = &mut self.figs[i];
        let (dx, dy) = (f.x - from.0, f.y - from.1);
        let n = (dx * dx + dy * dy).sqrt();
        let (ux, uy) = if n > 1e-6 {
            (dx / n, dy / n)
        } else if f.side == 0 {
            (-1.0, 0.0)
        } else {
            (1.0, 0.0)
        };
        f.x += ux * d;
        f.y += uy * d;
        if let Some(t) = &self.table {
            if f.x < 0.0 || f.x > t.width || f.y < 0.0 || f.y > t.depth {
                // Section II.2: "Anything that moves off the playing surface cannot return."
                f.alive = false;
            }
        }
        self.carry(i);
    }

    /// Section X: whether figure `i` may end a move at `p`: no other living figure's base
    /// within `contact` (1") of it, its own rider aside.
    fn spot_free(&self, r: &Vsgmr, i: usize, p: crate::battle::Pos) -> bool {
        use crate::battle::Pos;
        self.figs.iter().enumerate().all(|(j, f)| {
            j == i || !f.alive || f.riding == Some(i) || Pos::new(f.x, f.y).apart(p, r.rules.contact - EPS)
        })
    }

    /// The figures that can take a spot at most `reach` inches from figure `i` ([`Battle::spot_free`]):
    /// the living others within `reach` + `contact` of it, 0.1" to spare, its own rider aside.
    fn near_spots(&self, r: &Vsgmr, i: usize, reach: f32) -> Vec<usize> {
        use crate::battle::Pos;
        let me = Pos::new(self.figs[i].x, self.figs[i].y);
        (0..self.figs.len())
            .filter(|&j| {
                let f = &self.figs[j];
                j != i && f.alive && f.riding != Some(i) && me.within(Pos::new(f.x, f.y), reach + r.rules.contact + 0.1)
            })
            .collect()
    }

    /// [`Battle::spot_free`] among the figures `near` ([`Battle::near_spots`]) only.
    fn spot_free_of(&self, r: &Vsgmr, near: &[usize], p: crate::battle::Pos) -> bool {
        use crate::battle::Pos;
        near.iter().all(|&j| Pos::new(self.figs[j].x, self.figs[j].y).apart(p, r.rules.contact - EPS))
    }

    /// Where figure `i` ends a move of `step` inches toward `target`, stopping at least `stop`
    /// inches from it; `reach`: its whole move, inches. Section II.2 "Rough Terrain": a figure
    /// cannot move through a wall or fence, so on a table with walls the path goes round a
    /// wall's nearer end ([`crate::battle::Table::move_path`]) unless the figure has Flight,
    /// which passes over (section V "Flight"). Section X: no figure ends its move in the same
    /// space as another (bases closer than `contact`, 1"): a figure whose end point is taken
    /// takes another spot `stop` from the target within its move (the nearest way round the
    /// target, in steps of 15°, not across a wall), else stops short along its path (in ¼"
    /// steps), else stays.
    fn end_of_move(&self, r: &Vsgmr, i: usize, target: usize, stop: f32, step: f32, reach: f32) -> (f32, f32) {
        let to = crate::battle::Pos::new(self.figs[target].x, self.figs[target].y);
        self.end_of_move_at(r, i, to, stop, step, reach)
    }

    /// [`Battle::end_of_move`] toward the point `to` (a scenario's goal, or a target's place).
    fn end_of_move_at(
        &self,
        r: &Vsgmr,
        i: usize,
        to: crate::battle::Pos,
        stop: f32,
        step: f32,
        reach: f32,
    ) -> (f32, f32) {
        use crate::battle::Pos;
        let from = Pos::new(self.figs[i].x, self.figs[i].y);
        let walls = self.table.as_ref().filter(|_| !r.profile(self.figs[i].unit).has(Trait::Flight));
        let go = |len: f32| match walls {
            Some(t) => t.move_toward(from, to, len),
            None => from.toward(to, len),
        };
        let free = |p: Pos| self.spot_free(r, i, p);

        let on_table =
            |p: Pos| self.table.as_ref().is_none_or(|t| p.x >= 0.0 && p.x <= t.width && p.y >= 0.0 && p.y <= t.depth);
        let end = go(step);
        if free(end) {
            return (end.x, end.y);
        }
        // Every other spot tried lies within `reach` of `from` (¼" steps along the path, or
        // `stop` from the target within the move): only a figure within `reach` + `contact` of
        // `from` can take it (0.1" to spare), so the search checks those alone.
        let near = self.near_spots(r, i, reach);
        let free = |p: Pos| self.spot_free_of(r, &near, p);
        if from.dist(to) - stop <= reach + EPS {
            let base = (from.y - to.y).atan2(from.x - to.x);
            for k in 1..=12 {
                for sign in [1.0f32, -1.0] {
                    let a = base + sign * k as f32 * std::f32::consts::PI / 12.0;
                    let c = Pos::new(to.x + stop * a.cos(), to.y + stop * a.sin());
                    let open = walls.is_none_or(|t| t.wall_across(from, c).is_none());
                    if from.dist(c) <= reach + EPS && open && on_table(c) && free(c) {
                        return (c.x, c.y);
                    }
                }
            }
        }
        let mut len = step;
        while len > 0.0 {
            len = (len - 0.25).max(0.0);
            let e = go(len);
            if free(e) {
                return (e.x, e.y);
            }
        }
        (from.x, from.y)
    }

    /// Where figure `i` ends falling back `len` inches straight away from `from_target`
    /// (section II.2 sets no limit on leaving base contact): on the Skirmish's table round walls
    /// and clipped at its edges ([`crate::battle::Table::move_toward`]), in a duel stopped at
    /// [`Battle::edges`]; a spot taken by another figure (section X) makes it stop short (¼"
    /// steps), else it stays.
    fn fall_back(&self, r: &Vsgmr, i: usize, from_target: usize, len: f32) -> (f32, f32) {
        use crate::battle::Pos;
        let from = Pos::new(self.figs[i].x, self.figs[i].y);
        let foe = Pos::new(self.figs[from_target].x, self.figs[from_target].y);
        let n = from.dist(foe);
        let (ux, uy) = if n > 1e-6 {
            ((from.x - foe.x) / n, (from.y - foe.y) / n)
        } else if self.figs[i].side == 0 {
            (-1.0, 0.0)
        } else {
            (1.0, 0.0)
        };
        let away = Pos::new(from.x + ux * len, from.y + uy * len);
        let walls = self.table.as_ref().filter(|_| !r.profile(self.figs[i].unit).has(Trait::Flight));
        let go = |l: f32| {
            let mut e = match walls {
                Some(t) => t.move_toward(from, away, l),
                None => from.toward(away, l),
            };
            if let Some((lo, hi)) = self.edges {
                e.x = e.x.clamp(lo, hi);
            }
            e
        };
        if len <= 0.0 {
            return (from.x, from.y);
        }
        let first = go(len);
        if self.spot_free(r, i, first) {
            return (first.x, first.y);
        }
        // The spots nearer lie within `len` of `from`, or as far as an edge it stands beyond
        // (the clamp brings it back): only figures that near can take one.
        let beyond = self.edges.map_or(0.0, |(lo, hi)| (lo - from.x).max(from.x - hi).max(0.0));
        let near = self.near_spots(r, i, len + beyond);
        let mut l = (len - 0.25).max(0.0);
        while l > 0.0 {
            let e = go(l);
            if self.spot_free_of(r, &near, e) {
                return (e.x, e.y);
            }
            l = (l - 0.25).max(0.0);
        }
        (from.x, from.y)
    }
}

/// Super-Move's bonus to side `s`'s initiative rolls: its best living figure's (section VI).
pub fn initiative_bonus(r: &Vsgmr, b: &Battle, s: Side) -> i8 {
    b.figs.iter().filter(|f| f.alive && f.side == s).map(|f| r.profile(f.unit).initiative).max().unwrap_or(0)
}

/// Section II.1 "Initiative": each player rolls a die (+ Super-Move's bonus of its best living
/// figure), the highest chooses who takes the first turn (the default tactic: itself); ties
/// re-roll. Returns the side that goes first.
pub fn initiative<D: Dice>(r: &Vsgmr, b: &Battle, dice: &mut D) -> Side {
    let extra = b.objective.initiative;
    let (ba, bb) = (initiative_bonus(r, b, 0) + extra[0], initiative_bonus(r, b, 1) + extra[1]);
    loop {
        let (x, y) = (dice.d6() as i8 + ba, dice.d6() as i8 + bb);
        if x != y {
            return if x > y { 0 } else { 1 };
        }
    }
}

/// Section II.2 "Movement" with the default tactic: the figure moves toward (or away from) its
/// target — an enemy in base contact, else the nearest enemy (a figure without a distance
/// attack: the nearest it can fight, not in flight) — until the gap is [`wanted_gap`]: closing
/// stops at that gap (into base contact if it can reach), falling back goes straight away from
/// the target, at most the Move, and stops at a table edge (the duel's [`Battle::edges`], the
/// Skirmish's table). Cavalry and vehicles without a rider/driver move only if Independent;
/// with one aboard they move with the rider ([`Battle::acting`], [`Battle::carry`]), and a
/// mounted pair is closed on or fled from as its mount. A mounted rider's own move step is
/// [`dismounts`]: if it steps off, it moves on foot (the mount stays) and ends at least base
/// contact away from its mount (section X); a rider with a scenario's [`Goal`] rides on.
/// Walls and other figures limit where it ends (`Battle::end_of_move`).
pub fn move_figure(r: &Vsgmr, b: &mut Battle, i: usize) {
    let Some(m) = b.figs[i].riding else { return move_on(r, b, i) };
    let f = &b.figs[i];
    let free = f.alive && f.disabled_round != b.round && f.ready_round <= b.round;
    // A rider with a scenario's goal rides on: stepping off is a fighting choice, and its
    // riderless mount could no longer move toward the goal (section VIII).
    if b.figs[m].moved || !free || b.objective.goal(i) != Goal::Fight || !dismounts(r, b, i, m) {
        return; // it rides on: its mount moves it
    }
    b.dismount(r, i);
    b.figs[m].moved = true;
    move_on(r, b, i);
    if b.dist(i, m) < r.rules.contact - EPS {
        // Section X: it does not end its move in its mount's space.
        let (x, y) = b.fall_back(r, i, m, r.rules.contact);
        (b.figs[i].x, b.figs[i].y) = (x, y);
    }
}

/// The default tactic's choice for a mounted rider at its pair's movement step (section II.2:
/// "A guy can simply move away from a cavalry or vehicle figure to return to moving and
/// attacking like a guy figure"): it steps off — the mount then stays, riderless — when the
/// nearest enemy is within reach of its own attack this round (its Move plus
/// [`approach_stop`], inches) and the exchange it fights on foot beats its mount's: P(it
/// defeats the enemy) − P(the enemy defeats it), one attack each ([`p_exchange_attack`], in
/// base contact where each [`seeks_contact`], probabilities in [0, 1]); else it rides on,
/// covered and at the mount's Move. It never steps off a mount in flight.
pub fn dismounts(r: &Vsgmr, b: &Battle, i: usize, m: usize) -> bool {
    let rp = r.profile(b.figs[i].unit);
    let Some(t) = b.nearest_enemy(i, |f| rp.distance_attack || !f.flying) else { return false };
    let (mp, tp) = (b.acting(r, m), r.profile(b.figs[t].unit));
    let reach = rp.move_in + approach_stop(r, rp, tp, b.figs[t].flying);
    let exchange = |p: &Profile| {
        let c = seeks_contact(p, tp);
        p_exchange_attack(p, tp, c) - p_exchange_attack(tp, p, c)
    };
    !b.figs[m].flying && b.dist(i, t) <= reach + EPS && exchange(rp) > exchange(&mp) + 1e-9
}

/// [`move_figure`] for a figure on foot or a mount.
fn move_on(r: &Vsgmr, b: &mut Battle, i: usize) {
    if !b.can_act(i) {
        return;
    }
    b.figs[i].moved = true;
    let p = b.acting(r, i);
    if !p.self_moving() {
        return;
    }
    let goal = b.objective.goal(i);
    if goal != Goal::Fight {
        return move_to_goal(r, b, i, &p, goal);
    }
    let flying = b.figs[i].flying;
    let (touching, nearest) = b.contact_or_nearest(r, i, |f| p.distance_attack || !f.flying);
    let target = touching.or(nearest);
    let Some(target) = target else { return };
    // A mounted pair moves as its mount: that is the figure to close on or fall back from.
    let target = b.figs[target].riding.unwrap_or(target);
    let air = flying || b.figs[target].flying;
    let d = b.dist(i, target);
    let fp = b.acting(r, target);
    let (me, foe) = (b.figs[i].unit, b.figs[target].unit);
    // The pair's numbers from the table, unless a mount moves with its rider's (Independent).
    let fresh;
    // [`Battle::acting`] copies the profile and changes its traits alone.
    let own = p.traits == r.profile(me).traits && fp.traits == r.profile(foe).traits;
    let m = if own {
        r.matchup(me, foe)
    } else {
        fresh = Matchup::new(&p, &fp);
        &fresh
    };
    let moved = b.figs[target].moved;
    let want = if own {
        b.gap_memo.get(me, foe, d, moved, air, || wanted_gap_of(r, &p, &fp, m, d, moved, air))
    } else {
        wanted_gap_of(r, &p, &fp, m, d, moved, air)
    };
    let (x, y) = if want > d + EPS {
        b.fall_back(r, i, target, (want - d).min(p.move_in))
    } else if touching.is_some() || d <= want + EPS {
        return;
    } else {
        b.end_of_move(r, i, target, want, (d - want).min(p.move_in), p.move_in)
    };
    let f = &mut b.figs[i];
    (f.x, f.y) = (x, y);
    f.flying = flying;
    if !r.profile(b.figs[i].unit).self_moving() {
        b.carry(i);
    }
}

/// [`move_on`] for a figure with a scenario's goal ([`Goal`], section VIII): it stays
/// ([`Goal::Hold`]), or moves its whole Move (less if it gets there) straight toward the
/// goal's point, round walls and other figures as any move ([`Battle::end_of_move`]), stopping
/// `stop` inches short ([`Goal::Chase`]: toward where the chased figure stands now); a figure
/// whose goal is an exit and that reaches it (its centre at the table edge, as far as the table
/// lets it) leaves the table with its riders ([`Objective::escaped`]). A figure ending its move
/// within base contact of the Transport's object lying free picks it up
/// ([`super::mission::Cargo`]).
fn move_to_goal(r: &Vsgmr, b: &mut Battle, i: usize, p: &Profile, goal: Goal) {
    use crate::battle::Pos;
    let (at, stop, exit) = match goal {
        Goal::To { at, stop, exit } => (at, stop, exit),
        Goal::Chase { target, stop } => (Pos::new(b.figs[target].x, b.figs[target].y), stop, false),
        Goal::Fight | Goal::Hold => return,
    };
    let d = Pos::new(b.figs[i].x, b.figs[i].y).dist(at);
    if d > stop + EPS {
        let flying = b.figs[i].flying;
        let (x, y) = b.end_of_move_at(r, i, at, stop, (d - stop).min(p.move_in), p.move_in);
        let f = &mut b.figs[i];
        (f.x, f.y) = (x, y);
        f.flying = flying;
        if !r.profile(b.figs[i].unit).self_moving() {
            b.carry(i);
        }
    }
    let here = Pos::new(b.figs[i].x, b.figs[i].y);
    if let Some(c) = b.objective.cargo.as_mut().filter(|c| c.carrier.is_none()) {
        if here.dist(c.at) <= r.rules.contact + EPS {
            c.carrier = Some(i);
        }
    }
    if exit && here.dist(at) <= 0.05 {
        b.contacts_valid = false;
        for k in 0..b.figs.len() {
            if k == i || (b.figs[k].riding == Some(i) && b.figs[k].alive) {
                b.figs[k].alive = false;
                b.objective.escaped.push(k);
            }
        }
    }
}

/// How near the default tactic closes on `foe` when nothing makes it fall back (section II.2,
/// [`move_figure`]), inches: a figure with a distance attack to its Distance Attack Unit (12",
/// Sniper 24"), unless it [`prefers_contact`] and neither is in flight (`air`); a figure without
/// one, into base contact (`rules.contact`, 1"). [`wanted_gap`] builds on it.
pub fn approach_stop(r: &Vsgmr, me: &Profile, foe: &Profile, air: bool) -> f32 {
    stop_of(r, me, prefers_contact(me, foe), air)
}

/// [`approach_stop`] given [`prefers_contact`]`(me, foe)`.
fn stop_of(r: &Vsgmr, me: &Profile, prefers: bool, air: bool) -> f32 {
    if me.distance_attack && (air || !prefers) { me.range } else { r.rules.contact }
}

/// Whether `p` closes into base contact with `foe` (section II.4) rather than holding at range:
/// it moves on its own and has no distance attack or [`prefers_contact`].
pub fn seeks_contact(p: &Profile, foe: &Profile) -> bool {
    seeks_of(p, prefers_contact(p, foe))
}

/// [`seeks_contact`] given [`prefers_contact`]`(p, foe)`.
fn seeks_of(p: &Profile, prefers: bool) -> bool {
    p.self_moving() && (!p.distance_attack || prefers)
}

/// The gap, inches, at which the default tactic wants to end its move against `foe` standing
/// `gap` inches away (`foe_moved`: the foe has already moved this round; `air`: either is in
/// flight). One rule for the Monte Carlo duel, the Skirmish and the optimal-play game's
/// scripted policy ([`super::optimal`]); a result above `gap` is a fall-back.
///
/// Section II's round is phased: both figures move (the first player first), then the attacks
/// follow, the first player's before the other's (distance attacks before hand-to-hand ones).
/// So a figure that moves second cannot be attacked hand to hand this round unless it ends in
/// base contact, and one that moves first can be charged by a foe that reaches it. Against a
/// foe that charges (it [`seeks_contact`] and can move):
/// - a figure that also seeks contact charges when it moves first (it strikes first); moving
///   second it does not step into base contact (the foe would strike first) and steps out of it
///   to two contact distances (2") if the foe charged it, else closes to that gap;
/// - a figure holding at range keeps out of the foe's charge reach (its Move + base contact):
///   moving first it ends beyond that reach (one contact distance beyond), moving second where
///   its own next Move can take it beyond (at least 2"), falling back only as far as that needs
///   (table room is what a pursued figure runs out of), else it closes to [`approach_stop`].
///
/// Against any other foe (one holding at range, or one that cannot move) it closes to
/// [`approach_stop`] and holds there: `min(gap, approach_stop)`.
///
/// That gap by role is then weighed against the other ends within its Move (base contact,
/// and for a figure with a useful shot every whole inch nearer or farther) by the round's
/// exchange there, P(it defeats the foe) − P(the foe defeats it) (issue 15): moving second,
/// of the attacks that follow at once (distance attacks before hand-to-hand ones, so a
/// shooter charged by a figure that fights hand to hand steps into base contact to shoot
/// first); moving first, of the attacks after the foe's reply by this same rule (so a figure
/// closing on a shooter stops beyond the shooter's reach into base contact). It keeps the
/// gap by role unless another end's exchange is better (ties: the end nearest it).
pub fn wanted_gap(r: &Vsgmr, me: &Profile, foe: &Profile, gap: f32, foe_moved: bool, air: bool) -> f32 {
    wanted_gap_of(r, me, foe, &Matchup::new(me, foe), gap, foe_moved, air)
}

/// A direct-mapped cache of [`wanted_gap_of`] for pairs of units at their own profiles (the
/// table's [`Matchup`]), keyed by the units (20 bits each), the gap's bits and the two flags.
/// Bounded (a Skirmish asks at gaps that rarely repeat); a hit returns the very value the call
/// would.
#[derive(Debug, Clone, Default)]
struct GapMemo {
    slots: Vec<(u64, f32, f32)>,
}

impl GapMemo {
    const SLOTS: usize = 1 << 12;

    fn get(&mut self, me: usize, foe: usize, gap: f32, foe_moved: bool, air: bool, f: impl FnOnce() -> f32) -> f32 {
        if self.slots.is_empty() {
            self.slots = vec![(u64::MAX, 0.0, 0.0); Self::SLOTS];
        }
        let key = (me as u64) << 44 | (foe as u64) << 24 | (foe_moved as u64) << 1 | air as u64;
        let h = (key ^ (gap.to_bits() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)).wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        let slot = &mut self.slots[(h >> 52) as usize & (Self::SLOTS - 1)];
        if slot.0 == key && slot.1.to_bits() == gap.to_bits() {
            return slot.2;
        }
        let v = f();
        *slot = (key, gap, v);
        v
    }
}

/// [`wanted_gap`] given the pair's [`Matchup`] `m` (`me` against `foe`).
fn wanted_gap_of(r: &Vsgmr, me: &Profile, foe: &Profile, m: &Matchup, gap: f32, foe_moved: bool, air: bool) -> f32 {
    let want = gap_by_role(r, me, foe, m, gap, foe_moved, air);
    if air || !me.self_moving() || !foe.self_moving() {
        return want;
    }
    let c = r.rules.contact;
    // The ends within a Move: the role's gap, base contact, whole inches nearer or farther.
    // A figure without a useful shot only closes or keeps its role's gap (out of the foe's
    // reach it gives up table room and gains no attack).
    let shoots = me.distance_attack && m.p_distance > 0.0;
    // Listed without allocating (this runs on every move): base contact, then the inches.
    let k = if shoots { me.move_in.floor() as i32 } else { -1 };
    let contact = (gap - c <= me.move_in + EPS).then_some(c);
    let ends = contact.into_iter().chain((-k..=k).map(|k| gap + k as f32).filter(|&g| g > c + EPS));
    // Each end's exchange this round: moving second the attacks follow at once; moving first
    // the foe then moves as this rule has it (its reply, within its Move).
    let mirror = m.mirror();
    let value = |g: f32| {
        let (win, lose) = if foe_moved {
            struck_second(r, me, foe, m, g)
        } else {
            let reply = wanted_gap_of(r, foe, me, &mirror, g, true, air);
            let (w, l) = struck_second(r, foe, me, &mirror, reply_end(r, foe, g, reply));
            (l, w)
        };
        win - lose
    };
    // The best exchange where the move ends; ties: the end nearest the role's gap.
    let mut best = (value(reply_end(r, me, gap, want)), want);
    for g in ends {
        let v = value(reply_end(r, me, gap, g));
        if v > best.0 + 1e-9 || (v >= best.0 - 1e-9 && (g - want).abs() < (best.1 - want).abs() - EPS) {
            best = (v.max(best.0), g);
        }
    }
    best.1
}

/// Where a figure `p` standing `gap` inches from its foe ends its move toward the gap `want`
/// ([`move_figure`] on open ground): falling back at most its Move, closing at most its Move
/// (into base contact if it reaches it), staying in base contact.
fn reply_end(r: &Vsgmr, p: &Profile, gap: f32, want: f32) -> f32 {
    let c = r.rules.contact;
    if want > gap + EPS {
        want.min(gap + p.move_in)
    } else if gap <= want + EPS || gap <= c + EPS {
        gap
    } else if gap - want <= p.move_in + EPS {
        want
    } else {
        gap - p.move_in
    }
}

/// One round's attacks for `me`, which moved second, ending `gap` inches from `foe`, which
/// moved first (sections II.3, II.4: the first player attacks first, but distance attacks
/// all come before hand-to-hand ones): (P(it defeats the foe), P(the foe defeats it)), one
/// attack each as [`attack_choice`] makes them ([`p_defeat`]; probabilities in [0, 1]).
fn struck_second(r: &Vsgmr, me: &Profile, foe: &Profile, m: &Matchup, gap: f32) -> (f64, f64) {
    let c = r.rules.contact;
    let kind = |p: &Profile, dist: f64, hand: f64| {
        let shot = p.distance_attack && gap <= p.range + EPS && dist > 0.0;
        if gap <= c + EPS && (!shot || hand > dist) {
            (true, hand)
        } else if shot {
            (false, dist)
        } else {
            (false, 0.0)
        }
    };
    let (my_hand, pm) = kind(me, m.p_distance, m.p_hand_to_hand);
    let (foe_hand, pf) = kind(foe, m.foe_p_distance, m.foe_p_hand_to_hand);
    if foe_hand && !my_hand && pm > 0.0 { (pm, (1.0 - pm) * pf) } else { ((1.0 - pf) * pm, pf) }
}

/// [`wanted_gap_of`] by the figures' roles alone (charger or holding at range).
fn gap_by_role(r: &Vsgmr, me: &Profile, foe: &Profile, m: &Matchup, gap: f32, foe_moved: bool, air: bool) -> f32 {
    let c = r.rules.contact;
    let stop = stop_of(r, me, m.prefers_contact, air);
    if air || !me.self_moving() || !foe.self_moving() {
        return gap.min(stop);
    }
    let (mine, charger) = (stop <= c + EPS, seeks_of(foe, m.foe_prefers_contact));
    if charger {
        let reach = foe.move_in + c;
        if mine {
            // Both close into base contact: the first mover charges; the second fights only
            // if the exchange struck second still favours it.
            return if !foe_moved || m.second_strike[1] > 0.0 { c } else { 2.0 * c };
        }
        let low = if foe_moved { (reach + c - me.move_in).max(2.0 * c) } else { reach + c };
        return if gap < low - EPS { low } else { gap.min(stop).max(low) };
    }
    if mine || !foe.distance_attack {
        return gap.min(stop);
    }
    if !foe_moved {
        // Moving first at a shooter: close so far that its Move cannot take it out of range
        // before the attacks (the first player shoots first).
        return gap.min(stop.min(foe.range - foe.move_in).max(2.0 * c));
    }
    // Both hold at range and the foe has moved: outranging it, keep beyond its Distance Attack
    // Unit within one's own; else stay in the exchange only if it favours one struck second,
    // otherwise step out of the foe's range.
    let out = foe.range + c;
    if me.range >= out - EPS {
        gap.min(stop).max(out)
    } else if m.second_strike[0] > 0.0 {
        gap.min(stop)
    } else {
        gap.max(out)
    }
}

/// One round's exchange for `me` attacking second, in base contact or at range: P(it defeats
/// the foe) × P(the foe's attack first missed) − P(the foe defeats it) (probabilities in [0, 1],
/// one attack each, [`p_exchange_attack`]).
fn second_strike(me: &Profile, foe: &Profile, contact: bool) -> f64 {
    let (pm, pf) = (p_exchange_attack(me, foe, contact), p_exchange_attack(foe, me, contact));
    pm * (1.0 - pf) - pf
}

/// The attack the default tactic makes at `foe` standing `d` inches away on open ground,
/// neither in flight: in base contact (`contact`, inches) the likelier to defeat of hand to
/// hand and a useful shot (ties: the shot, made before the hand-to-hand attacks, section II), else a shot if in range and a die can make it
/// good; `None`: no attack ([`distance_attack`], [`hand_to_hand_attack`] with one enemy).
pub fn attack_choice(p: &Profile, foe: &Profile, d: f32, contact: f32) -> Option<AttackKind> {
    if !p.self_moving() {
        return None;
    }
    let shot = p.distance_attack && d <= p.range + EPS && p_defeat(p, foe, AttackKind::Distance) > 0.0;
    if d <= contact + EPS
        && (!shot || p_defeat(p, foe, AttackKind::HandToHand) > p_defeat(p, foe, AttackKind::Distance))
    {
        Some(AttackKind::HandToHand)
    } else if shot {
        Some(AttackKind::Distance)
    } else {
        None
    }
}

/// Rolls an attack or armor die (two, keep the higher, for automatic fire) for a figure of
/// `side` and applies Inspiration's reroll if `fails` says the result fails, the side still has
/// it this round and it is the side's own turn (`turn`): section V "Inspiration", "once per
/// round, on your turn" (RULINGS.md: never an armor roll on the opponent's turn); reroll both
/// dice if the figure rolls two. Returns the natural die kept.
#[allow(clippy::too_many_arguments)]
fn attack_die<D: Dice>(
    b: &mut Battle,
    r: &Vsgmr,
    dice: &mut D,
    side: Side,
    turn: Side,
    sides: u8,
    two: bool,
    fails: impl Fn(u8) -> bool,
) -> u8 {
    let once = |dice: &mut D| {
        let x = roll(dice, sides);
        if two { x.max(roll(dice, sides)) } else { x }
    };
    let n = once(dice);
    if fails(n) && side == turn && b.inspiration_ready(r, side) {
        b.inspiration_used[side] = true;
        return once(dice);
    }
    n
}

/// Section II.3 "Armor" (and V "Ignores Armor", "Tough", VI "Super-Armor"): the target of a
/// hit rolls its armor die; `Ignores Armor` makes it roll twice, both must succeed. `turn`: the
/// side whose turn it is (Inspiration helps only on the owner's turn). Returns true when the
/// hit is cancelled.
pub fn armor_roll<D: Dice>(
    r: &Vsgmr,
    b: &mut Battle,
    dice: &mut D,
    target: usize,
    ignores_armor: bool,
    turn: Side,
) -> bool {
    let p = *r.profile(b.figs[target].unit);
    let Some(needs) = p.armor_needs() else { return false };
    let side = b.figs[target].side;
    let bonus = p.armor_bonus() + b.support(r, target, SupportRoll::Armor);
    for _ in 0..(1 + ignores_armor as u8) {
        let n = attack_die(b, r, dice, side, turn, p.armor_die, false, |n| (n as i8 + bonus) < needs);
        if (n as i8 + bonus) < needs {
            return false;
        }
    }
    true
}

/// Defeats `target`: removes it, or (Recruit, hand to hand, d6 ≥ 5) turns it to the attacker's
/// side (section V "Recruit"); then its Revenge attack, if any (section V "Revenge").
fn defeat<D: Dice>(r: &Vsgmr, b: &mut Battle, dice: &mut D, attacker: usize, target: usize, kind: AttackKind) {
    let a_side = b.figs[attacker].side;
    b.kills[a_side] += 1;
    if let Some(log) = &mut b.kill_log {
        log.push((b.figs[attacker].unit, b.figs[target].unit));
    }
    if b.figs[target].riding.is_some() || !r.profile(b.figs[target].unit).self_moving() {
        b.dismount(r, target);
    }
    let ap = *r.profile(b.figs[attacker].unit);
    if kind == AttackKind::HandToHand && ap.has(Trait::Recruit) {
        let mook = (ap.kind == Kind::Mook) as i8;
        if dice.d6() as i8 - mook >= 5 {
            b.contacts_valid = false;
            let f = &mut b.figs[target];
            f.side = a_side;
            f.acted = true;
            f.ready_round = b.round + 1;
            return;
        }
    }
    b.figs[target].alive = false;
    revenge(r, b, dice, target, attacker, kind);
}

/// Section V "Revenge": a defeated figure with the trait makes one last attack of the type that
/// defeated it at the figure that defeated it, if it can (a distance attack needs the ability
/// and the range).
pub fn revenge<D: Dice>(r: &Vsgmr, b: &mut Battle, dice: &mut D, fallen: usize, killer: usize, kind: AttackKind) {
    let p = *r.profile(b.figs[fallen].unit);
    if !p.has(Trait::Revenge) || !b.figs[killer].alive || b.in_revenge {
        return;
    }
    let possible = match kind {
        AttackKind::Distance => p.distance_attack && b.dist(fallen, killer) <= p.range + EPS,
        AttackKind::HandToHand => true,
    };
    if possible {
        // The fallen figure attacks as if still standing.
        b.figs[fallen].alive = true;
        b.figs[fallen].flying = false;
        b.in_revenge = true;
        single_attack(r, b, dice, fallen, killer, kind);
        b.in_revenge = false;
        b.figs[fallen].alive = false;
    }
}

/// One attack roll of `attacker` at `target` and its effects: armor, defeat, fear, knockback.
/// Returns whether the attack roll succeeded (hit, before armor): what Double Strike and Area
/// Effect Attack need.
pub fn single_attack<D: Dice>(
    r: &Vsgmr,
    b: &mut Battle,
    dice: &mut D,
    attacker: usize,
    target: usize,
    kind: AttackKind,
) -> bool {
    let ap = *r.profile(b.figs[attacker].unit);
    let tp = *r.profile(b.figs[target].unit);
    let side = b.figs[attacker].side;
    let (sides, two, bonus, needs) = match kind {
        AttackKind::Distance => (
            ap.blast_die,
            ap.automatic_fire,
            ap.distance_bonus() + b.support(r, attacker, SupportRoll::Distance),
            tp.distance_needs() + b.in_cover(attacker, target) as i8,
        ),
        AttackKind::HandToHand => {
            (ap.fight_die, false, ap.hand_to_hand_bonus() + b.support(r, attacker, SupportRoll::HandToHand), 4)
        }
    };
    let fear = tp.frightens(&ap);
    let fails = |n: u8| (fear && n <= 2) || (n as i8 + bonus) < needs;
    // The attacker's turn, or the other side's when this is a Revenge attack (section V).
    let turn = if b.in_revenge { 1 - side } else { side };
    let n = attack_die(b, r, dice, side, turn, sides, two, fails);
    if fear && n <= 2 {
        cause_fear(r, b, attacker, target);
        return false;
    }
    if (n as i8 + bonus) < needs {
        return false;
    }
    let saved = armor_roll(r, b, dice, target, ap.has(Trait::IgnoresArmor), turn);
    if !saved {
        defeat(r, b, dice, attacker, target, kind);
    } else if sides > 6 && n >= 8 {
        knockback(r, b, attacker, target, n);
    }
    true
}

/// Section V "Cause Fear": the attacker turns away and moves 1 Move Unit away from the figure
/// with Cause Fear (off the Skirmish's table: out of the game, section II.2).
pub fn cause_fear(r: &Vsgmr, b: &mut Battle, attacker: usize, feared: usize) {
    let p = r.profile(b.figs[attacker].unit);
    let from = (b.figs[feared].x, b.figs[feared].y);
    b.push_away(attacker, from, p.kind.move_unit());
}

/// Section VI "Knockback": a Super-Blast or Super-Fight roll of 8+ that fails to defeat
/// pushes the target straight back a Half Move Unit (its own) per point above 7 (off the
/// Skirmish's table: out of the game, section II.2).
pub fn knockback(r: &Vsgmr, b: &mut Battle, attacker: usize, target: usize, natural: u8) {
    let p = r.profile(b.figs[target].unit);
    let from = (b.figs[attacker].x, b.figs[attacker].y);
    b.push_away(target, from, p.half_move * (natural - 7) as f32);
}

/// P(defeat) of one attack roll of `ap` at `tp`, no support, no inspiration: the default
/// tactic's measure to choose distance or hand to hand in contact.
pub fn p_defeat(ap: &Profile, tp: &Profile, kind: AttackKind) -> f64 {
    let (sides, two, bonus, needs) = match kind {
        AttackKind::Distance => (ap.blast_die, ap.automatic_fire, ap.distance_bonus(), tp.distance_needs()),
        AttackKind::HandToHand => (ap.fight_die, false, ap.hand_to_hand_bonus(), 4),
    };
    let fear = tp.frightens(ap);
    let s = sides as i32;
    let mut p_hit = 0.0;
    for n in 1..=s {
        // P(kept die = n): one die 1/s; two dice (2n−1)/s².
        let pn = if two { (2 * n - 1) as f64 / (s * s) as f64 } else { 1.0 / s as f64 };
        if !(fear && n <= 2) && n + bonus as i32 >= needs as i32 {
            p_hit += pn;
        }
    }
    p_hit * (1.0 - p_saved(tp, ap.has(Trait::IgnoresArmor), 0))
}

/// P(one attack of `a` at `t` defeats it), in [0, 1], where `a` stands: at range its distance attack (0
/// without one, or without moving on its own), in base contact the better of hand to hand and
/// its distance attack (what [`distance_attack`] chooses there). A shot no die can make good
/// (a mook needs a 7 against Stealth) rates 0.
pub fn p_exchange_attack(a: &Profile, t: &Profile, contact: bool) -> f64 {
    if !a.self_moving() {
        return 0.0;
    }
    let shot = if a.distance_attack { p_defeat(a, t, AttackKind::Distance) } else { 0.0 };
    if contact { shot.max(p_defeat(a, t, AttackKind::HandToHand)) } else { shot }
}

/// The default tactic's choice for a figure with a distance attack: whether it closes into base
/// contact with `foe` rather than holding at range. It compares the expected exchange of one
/// round of attacks — P(it defeats the foe) − P(the foe defeats it) — at range and in contact
/// (probabilities in [0, 1]); it closes only if contact is strictly better (ties hold, by more
/// than 1e-9), e.g. a mook (d6 − 1 ≥ 6: never) against a Stealth figure. Sections II.3 "Distance
/// Attacks", II.4 "Hand To Hand Attacks" and V "Stealth". One rule for the duels, the exact
/// solver's scripted policy ([`super::exact`]) and the Skirmish.
pub fn prefers_contact(me: &Profile, foe: &Profile) -> bool {
    let range = p_exchange_attack(me, foe, false) - p_exchange_attack(foe, me, false);
    let contact = p_exchange_attack(me, foe, true) - p_exchange_attack(foe, me, true);
    contact > range + 1e-9
}

/// P(an armor roll cancels the hit), with `extra` bonus (Support); squared for Ignores Armor.
pub fn p_saved(tp: &Profile, ignores_armor: bool, extra: i8) -> f64 {
    let Some(needs) = tp.armor_needs() else { return 0.0 };
    let s = tp.armor_die as i32;
    let one = (1..=s).filter(|&n| n + (tp.armor_bonus() + extra) as i32 >= needs as i32).count() as f64 / s as f64;
    if ignores_armor { one * one } else { one }
}

/// What the default tactic reads of one ordered pair of profiles, `me` against `foe`: the
/// same numbers as [`p_defeat`], [`prefers_contact`] and the exchange struck second, computed
/// once per pair of units ([`Vsgmr::matchup`]) instead of on every move and attack.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Matchup {
    /// P(one attack of `me` defeats `foe`), in [0, 1]: a distance attack ([`p_defeat`]).
    pub p_distance: f64,
    /// P(one hand-to-hand attack of `me` defeats `foe`), in [0, 1] ([`p_defeat`]).
    pub p_hand_to_hand: f64,
    /// [`prefers_contact`]`(me, foe)`.
    pub prefers_contact: bool,
    /// [`prefers_contact`]`(foe, me)`.
    pub foe_prefers_contact: bool,
    /// One round's exchange for `me` attacking second ([`wanted_gap`]): at range, in base contact.
    pub second_strike: [f64; 2],
    /// P(one distance / hand-to-hand attack of `foe` defeats `me`), in [0, 1] ([`p_defeat`]).
    pub foe_p_distance: f64,
    pub foe_p_hand_to_hand: f64,
    /// [`Matchup::second_strike`] of `foe` against `me`.
    pub foe_second_strike: [f64; 2],
}

impl Matchup {
    pub fn new(me: &Profile, foe: &Profile) -> Self {
        Matchup {
            p_distance: p_defeat(me, foe, AttackKind::Distance),
            p_hand_to_hand: p_defeat(me, foe, AttackKind::HandToHand),
            prefers_contact: prefers_contact(me, foe),
            foe_prefers_contact: prefers_contact(foe, me),
            second_strike: [second_strike(me, foe, false), second_strike(me, foe, true)],
            foe_p_distance: p_defeat(foe, me, AttackKind::Distance),
            foe_p_hand_to_hand: p_defeat(foe, me, AttackKind::HandToHand),
            foe_second_strike: [second_strike(foe, me, false), second_strike(foe, me, true)],
        }
    }

    /// The same pair read from `foe`'s side (`Matchup::new(foe, me)`).
    pub fn mirror(&self) -> Matchup {
        Matchup {
            p_distance: self.foe_p_distance,
            p_hand_to_hand: self.foe_p_hand_to_hand,
            prefers_contact: self.foe_prefers_contact,
            foe_prefers_contact: self.prefers_contact,
            second_strike: self.foe_second_strike,
            foe_p_distance: self.p_distance,
            foe_p_hand_to_hand: self.p_hand_to_hand,
            foe_second_strike: self.second_strike,
        }
    }

    /// Every ordered pair of `profiles`, row-major (row: `me`).
    pub fn table(profiles: &[Profile]) -> Vec<Matchup> {
        profiles.iter().flat_map(|me| profiles.iter().map(move |foe| Matchup::new(me, foe))).collect()
    }
}

/// Section II.3 "Distance Attacks" (and V "Area Effect Attack"): figure `i` shoots the nearest
/// enemy in range unless it is in contact with an enemy it is likelier to defeat hand to hand.
/// A hit with Area Effect Attack allows a second attack, and a second hit a third, at the same
/// target or one within a Half Move Unit of the first target.
pub fn distance_attack<D: Dice>(r: &Vsgmr, b: &mut Battle, dice: &mut D, i: usize) {
    if !b.can_act(i) || b.figs[i].acted {
        return;
    }
    let p = b.acting(r, i);
    if !p.distance_attack || !p.self_moving() {
        return;
    }
    match fort_attack(r, b, i) {
        Some(AttackKind::Distance) => return attack_fort(r, b, dice, i, AttackKind::Distance),
        Some(AttackKind::HandToHand) => return, // hits the building in step 4
        None => {}
    }
    if let Some(t) = contact_target(r, b, i) {
        let m = r.matchup(b.figs[i].unit, b.figs[t].unit);
        if m.p_hand_to_hand > m.p_distance {
            return; // fights hand to hand in step 4
        }
    }
    let Some(first) = useful_shot(r, b, i) else { return };
    b.figs[i].acted = true;
    let (fx, fy) = (b.figs[first].x, b.figs[first].y);
    let mut target = first;
    let attacks = if p.has(Trait::AreaEffectAttack) { 3 } else { 1 };
    for k in 0..attacks {
        if k > 0 {
            // The next target: the same one if standing, else the nearest enemy within a Half
            // Move Unit of where the original target stood, in range.
            if !b.figs[target].alive || b.figs[target].side == b.figs[i].side {
                let near = (0..b.figs.len()).filter(|&j| {
                    let f = &b.figs[j];
                    f.alive
                        && f.side != b.figs[i].side
                        && ((f.x - fx).powi(2) + (f.y - fy).powi(2)).sqrt() <= p.half_move + EPS
                        && b.dist(i, j) <= p.range + EPS
                });
                match near.min_by(|&x, &y| b.dist(i, x).total_cmp(&b.dist(i, y))) {
                    Some(t) => target = t,
                    None => return,
                }
            }
        }
        if !single_attack(r, b, dice, i, target, AttackKind::Distance) || !b.figs[i].alive {
            return;
        }
    }
}

/// The target of `i`'s distance attack: the nearest enemy in range that a shot can defeat (a
/// shot rated 0 by [`p_defeat`] is never made: it could only strike the shooter with fear).
/// Of a mounted pair, the one the shot is likelier to defeat (ties: the one found first), the
/// rider covered (section II.3 "Cover"; a covered rider is rated as needing 6).
fn useful_shot(r: &Vsgmr, b: &Battle, i: usize) -> Option<usize> {
    let me = b.figs[i].unit;
    let p = r.profile(me);
    if !p.distance_attack {
        return None;
    }
    if let Some(q) = b.objective.quarry {
        // Section VIII "Transport": the object's carrier first, if a shot can defeat it.
        let f = &b.figs[q];
        if f.alive
            && f.side != b.figs[i].side
            && r.matchup(me, f.unit).p_distance > 0.0
            && b.within(i, q, p.range + EPS)
        {
            return Some(q);
        }
    }
    let t =
        b.nearest_enemy(i, |f| r.matchup(me, f.unit).p_distance > 0.0).filter(|&t| b.dist(i, t) <= p.range + EPS)?;
    let Some(u) = b.partner(r, t) else { return Some(t) };
    let rate = |k: usize| {
        let mut tp = *r.profile(b.figs[k].unit);
        if b.figs[k].riding.is_some() {
            tp.traits |= Trait::Stealth.bit();
        }
        p_defeat(p, &tp, AttackKind::Distance)
    };
    Some(if rate(u) > rate(t) { u } else { t })
}

/// The enemy in base contact `i` fights hand to hand: the one it is likeliest to defeat.
fn contact_target(r: &Vsgmr, b: &Battle, i: usize) -> Option<usize> {
    let me = b.figs[i].unit;
    b.touching(r, i).max_by(|&x, &y| {
        let px = r.matchup(me, b.figs[x].unit).p_hand_to_hand;
        let py = r.matchup(me, b.figs[y].unit).p_hand_to_hand;
        px.total_cmp(&py).then(y.cmp(&x))
    })
}

/// Section II.4 "Hand To Hand Attacks" (and V "Double Strike"): a figure in base contact with
/// an enemy attacks it; with Double Strike a hit allows a second hand-to-hand attack.
pub fn hand_to_hand_attack<D: Dice>(r: &Vsgmr, b: &mut Battle, dice: &mut D, i: usize) {
    if !b.can_act(i) || b.figs[i].acted || !b.acting(r, i).self_moving() {
        return;
    }
    if fort_attack(r, b, i) == Some(AttackKind::HandToHand) {
        return attack_fort(r, b, dice, i, AttackKind::HandToHand);
    }
    let Some(t) = contact_target(r, b, i) else { return };
    b.figs[i].acted = true;
    let p = *r.profile(b.figs[i].unit);
    if single_attack(r, b, dice, i, t, AttackKind::HandToHand) && p.has(Trait::DoubleStrike) && b.figs[i].alive {
        if let Some(t2) = contact_target(r, b, i) {
            single_attack(r, b, dice, i, t2, AttackKind::HandToHand);
        }
    }
}

/// The roll an attack of `p` at the Fortress Assault's building needs (section VIII;
/// RULINGS.md, "Missions": it is hit as a figure in cover, with no armor roll): a shot 6 (5,
/// +1 for cover), hand to hand 4 (cover never counts there, section II.4). `(die, two dice,
/// bonus, total needed)`, Support not counted.
pub fn fort_roll(p: &Profile, kind: AttackKind) -> (u8, bool, i8, i8) {
    match kind {
        AttackKind::Distance => (p.blast_die, p.automatic_fire, p.distance_bonus(), 6),
        AttackKind::HandToHand => (p.fight_die, false, p.hand_to_hand_bonus(), 4),
    }
}

/// P(one attack of `p` of `kind` hits the building), in [0, 1] ([`fort_roll`]; 0 for a shot
/// without a distance attack).
pub fn p_hit_fort(p: &Profile, kind: AttackKind) -> f64 {
    if kind == AttackKind::Distance && !p.distance_attack {
        return 0.0;
    }
    let (sides, two, bonus, needs) = fort_roll(p, kind);
    let s = sides as i32;
    (1..=s)
        .filter(|&n| n + bonus as i32 >= needs as i32)
        .map(|n| if two { (2 * n - 1) as f64 / (s * s) as f64 } else { 1.0 / s as f64 })
        .sum()
}

/// The Assaulters' rule of the Fortress Assault (section VIII, [`super::mission`]): the attack
/// figure `i` makes at the building this round, if it assaults and the building stands within
/// reach — in base contact (not in flight) the likelier to hit of hand to hand and a shot
/// ([`p_hit_fort`], ties: the shot), else a shot within its Distance Attack Unit that a die
/// can make good. `None`: it fights as in the Basic Game.
pub fn fort_attack(r: &Vsgmr, b: &Battle, i: usize) -> Option<AttackKind> {
    let fort = b.objective.fort.as_ref()?;
    let f = &b.figs[i];
    if f.side != fort.assaulter || fort.hits_left == 0 {
        return None;
    }
    let p = b.acting(r, i);
    if !p.self_moving() {
        return None;
    }
    let d = fort.dist(crate::battle::Pos::new(f.x, f.y));
    let shot = d <= p.range + EPS && p_hit_fort(&p, AttackKind::Distance) > 0.0;
    let contact = d <= r.rules.contact + EPS && !f.flying;
    if contact && (!shot || p_hit_fort(&p, AttackKind::HandToHand) > p_hit_fort(&p, AttackKind::Distance)) {
        Some(AttackKind::HandToHand)
    } else if shot {
        Some(AttackKind::Distance)
    } else {
        None
    }
}

/// Figure `i` attacks the building (section VIII "Fortress Assault"): one roll ([`fort_roll`],
/// Support and Inspiration as at a figure), a further one after each hit with Area Effect
/// Attack (shots, up to 3) or Double Strike (hand to hand, up to 2); each hit takes one of the
/// building's hits; no armor roll.
fn attack_fort<D: Dice>(r: &Vsgmr, b: &mut Battle, dice: &mut D, i: usize, kind: AttackKind) {
    b.figs[i].acted = true;
    let ap = *r.profile(b.figs[i].unit);
    let side = b.figs[i].side;
    let (sides, two, bonus, needs) = fort_roll(&ap, kind);
    let support = match kind {
        AttackKind::Distance => b.support(r, i, SupportRoll::Distance),
        AttackKind::HandToHand => b.support(r, i, SupportRoll::HandToHand),
    };
    let bonus = bonus + support;
    let attacks = match kind {
        AttackKind::Distance if ap.has(Trait::AreaEffectAttack) => 3,
        AttackKind::HandToHand if ap.has(Trait::DoubleStrike) => 2,
        _ => 1,
    };
    for _ in 0..attacks {
        let n = attack_die(b, r, dice, side, side, sides, two, |n| (n as i8 + bonus) < needs);
        let Some(fort) = b.objective.fort.as_mut() else { return };
        if (n as i8 + bonus) < needs || fort.hits_left == 0 {
            return;
        }
        fort.hits_left -= 1;
        if fort.hits_left == 0 {
            return;
        }
    }
}

/// Section V "Disable" and "Summon", used by a figure that cannot attack this round (the
/// default tactic): Disable the nearest enemy within the Disabler's own Distance Attack Unit
/// (12", Sniper 24"; d6 ≥ 4: it cannot act next round); else Summon (d6 ≥ 5) the ally farthest
/// from the enemy to its side. The summoned figure acts at once if it has not acted this round
/// (section V "Summon"), but not before the next round if the summoner's figure says so (the
/// Scream Queen's note, section VII).
pub fn disable_or_summon<D: Dice>(r: &Vsgmr, b: &mut Battle, dice: &mut D, i: usize) {
    if !b.can_act(i) || b.figs[i].acted {
        return;
    }
    let p = b.acting(r, i);
    if !p.self_moving() || !(p.has(Trait::Disable) || p.has(Trait::Summon)) {
        return;
    }
    if useful_shot(r, b, i).is_some() || contact_target(r, b, i).is_some() {
        return;
    }
    let mook = (p.kind == Kind::Mook) as i8;
    if p.has(Trait::Disable) {
        let round = b.round;
        if let Some(t) = b
            .nearest_enemy(i, |f| f.disabled_round != round + 1 && f.riding.is_none())
            .filter(|&t| b.dist(i, t) <= p.range + EPS)
        {
            b.figs[i].acted = true;
            if dice.d6() as i8 - mook >= 4 {
                b.figs[t].disabled_round = b.round + 1;
            }
            return;
        }
    }
    if p.has(Trait::Summon) {
        let front = |b: &Battle, j: usize| b.nearest_enemy(j, |_| true).map_or(0.0, |t| b.dist(j, t));
        let me = front(b, i);
        let side = b.figs[i].side;
        // The farthest from the enemy (the last of equals, as `max_by` gives it), each ally's
        // distance computed once.
        let mut ally: Option<(usize, f32)> = None;
        for j in 0..b.figs.len() {
            let f = &b.figs[j];
            if j == i || !f.alive || f.riding.is_some() || f.side != side {
                continue;
            }
            let d = front(b, j);
            if d > me + p.half_move && ally.is_none_or(|(_, best)| best.total_cmp(&d) != std::cmp::Ordering::Greater) {
                ally = Some((j, d));
            }
        }
        let ally = ally.map(|(j, _)| j);
        if let Some(j) = ally {
            b.figs[i].acted = true;
            if dice.d6() as i8 - mook >= 5 {
                let (x, y) = (b.figs[i].x, b.figs[i].y);
                b.contacts_valid = false;
                b.figs[j].x = x;
                b.figs[j].y = y + 1.0;
                b.carry(j); // "its rider, driver/pilot and passengers will also be summoned"
                if p.summoned_wait {
                    b.figs[j].ready_round = b.figs[j].ready_round.max(b.round + 1);
                }
            }
        }
    }
}

/// The figures of each side in acting order for one step: the first player's then the other's
/// (phased), or alternating single figures (everyone acts).
fn order(r: &Vsgmr, b: &Battle, first: Side, out: &mut Vec<usize>) {
    out.clear();
    let n = b.figs.len();
    let mut mine = (0..n).filter(|&i| b.figs[i].side == first);
    let mut theirs = (0..n).filter(|&i| b.figs[i].side != first);
    match r.rules.sequence {
        Sequence::Phased => {
            out.extend(&mut mine);
            out.extend(&mut theirs);
        }
        Sequence::EveryoneActs => loop {
            let (m, t) = (mine.next(), theirs.next());
            if m.is_none() && t.is_none() {
                break;
            }
            out.extend(m);
            out.extend(t);
        },
    }
}

/// One round (section II): initiative, movement, distance attacks, hand-to-hand attacks.
/// `first`: the side going first (from [`initiative`], or the duel's coin in round 1).
pub fn play_round<D: Dice>(r: &Vsgmr, b: &mut Battle, dice: &mut D, first: Side, scratch: &mut Vec<usize>) {
    b.inspiration_used = [false, false];
    b.contacts_valid = false;
    for f in b.figs.iter_mut() {
        f.acted = false;
        f.moved = false;
    }
    // One order for the round: only Recruit changes a figure's side, and only in the
    // hand-to-hand step (a hand-to-hand defeat, or its Revenge), whose order is already set.
    order(r, b, first, scratch);
    for k in 0..scratch.len() {
        move_figure(r, b, scratch[k]);
    }
    b.index_contacts(r);
    for k in 0..scratch.len() {
        let i = scratch[k];
        distance_attack(r, b, dice, i);
        disable_or_summon(r, b, dice, i);
    }
    for k in 0..scratch.len() {
        hand_to_hand_attack(r, b, dice, scratch[k]);
    }
    b.contacts_valid = false;
}

/// Plays a duel until one side is eliminated or `max_rounds` pass (RULINGS.md, "Common").
/// Round 1's first side is `first` (the trials alternate it: a fair coin) when both sides have
/// the same initiative bonus, else rolled, so Super-Move's bonus counts from round 1 (section
/// VI); later rounds roll initiative.
pub fn play<D: Dice>(r: &Vsgmr, b: &mut Battle, dice: &mut D, first: Side, max_rounds: u32) -> DuelOutcome {
    let mut scratch = Vec::with_capacity(b.figs.len());
    for round in 1..=max_rounds {
        b.round = round;
        let even = initiative_bonus(r, b, 0) == initiative_bonus(r, b, 1);
        let lead = if round == 1 && even { first } else { initiative(r, b, dice) };
        play_round(r, b, dice, lead, &mut scratch);
        let (na, nb) = (b.alive_count(0), b.alive_count(1));
        if na == 0 || nb == 0 {
            let winner = match (na, nb) {
                (0, 0) => None,
                (0, _) => Some(1),
                _ => Some(0),
            };
            return DuelOutcome { winner, turns: round, kills: b.kills };
        }
    }
    DuelOutcome { winner: None, turns: max_rounds, kills: b.kills }
}

#[cfg(test)]
mod tactic_tests {
    //! Scenario tests of the default tactic's movement ([`wanted_gap`]): constructed positions
    //! on the duel line, scripted dice where an attack follows. Section II: both figures move
    //! (first player first), then distance attacks, then hand-to-hand attacks.
    use super::*;
    use crate::dice::ScriptedDice;
    use crate::rulesets::vsgmr::tests::ruleset;

    /// A duel of `a` (side A, x = 0) and `b` (side B, x = `gap`) on the 48" duel line.
    fn duel(r: &Vsgmr, a: &str, b: &str, gap: f32) -> Battle {
        let mut bt = Battle::default();
        bt.deploy(r, r.find(a), 1, r.find(b), 1, gap, 1.0);
        bt.round = 1;
        bt
    }

    #[test]
    fn a_shooter_steps_out_of_base_contact_with_a_charger_and_shoots_it() {
        // The hero in heavy armor moves first and charges from 6" into base contact; the
        // shooter, moving second, steps back out to 2" (its next Move can take it beyond the
        // hero's 7" charge reach) and shoots before any hand-to-hand attack (section II.3).
        // Dice: the shot 5 (hits on 5+), the hero's armor 1 (heavy armor needs 4).
        let r = ruleset();
        let mut b = duel(&r, "troop-with-distance-attack", "hero-with-heavy-armor", 6.0);
        let mut dice = ScriptedDice::new(&[5, 1]);
        play_round(&r, &mut b, &mut dice, 1, &mut Vec::new());
        assert_eq!((b.figs[0].x, b.figs[1].x), (-1.0, 1.0), "the hero charged to 1\", the shooter fell back 1\"");
        assert!(b.figs[0].alive && !b.figs[1].alive);
        assert_eq!(dice.used(), 2, "no hand-to-hand attack: the figures are 2\" apart");
    }

    #[test]
    fn a_shooter_moving_first_keeps_beyond_a_chargers_reach() {
        // Moving first, the shooter falls back from 6" to 8" (the hero's 6" Move + 1" contact
        // is 7"), the hero closes to 2" and cannot reach, and the shot (6) defeats it (armor 1).
        let r = ruleset();
        let mut b = duel(&r, "troop-with-distance-attack", "hero-with-heavy-armor", 6.0);
        let mut dice = ScriptedDice::new(&[6, 1]);
        play_round(&r, &mut b, &mut dice, 0, &mut Vec::new());
        assert_eq!((b.figs[0].x, b.figs[1].x), (-2.0, 0.0));
        assert!(b.figs[0].alive && !b.figs[1].alive);
        // At its table edge (18" behind its start on the 48" line at 12") it cannot fall back.
        let mut b = duel(&r, "troop-with-distance-attack", "hero-with-heavy-armor", 12.0);
        (b.figs[0].x, b.figs[1].x) = (-18.0, -12.0);
        move_figure(&r, &mut b, 0);
        assert_eq!(b.figs[0].x, -18.0);
    }

    #[test]
    fn a_shooter_moving_second_steps_into_contact_to_shoot_before_a_hand_to_hand_attack() {
        // Issue 15: the hero with a distance attack closes into base contact on a troop with
        // automatic fire; it moved first and stands 6" away. Held there, the hero shoots first
        // (section II.3: the first player's distance attacks first, d6 + 1 ≥ 5: ½); in base
        // contact the hero fights hand to hand and the troop's shot (2d6 keep the higher ≥ 5:
        // 5/9) comes before every hand-to-hand attack (section II, steps 3 and 4). So the troop,
        // moving second, steps into base contact (it held at 6" under the old rule).
        let r = ruleset();
        let mut b = duel(&r, "troop-with-automatic-fire", "hero-with-distance-attack", 6.0);
        b.figs[1].moved = true;
        move_figure(&r, &mut b, 0);
        assert_eq!(b.figs[0].x, 5.0, "into base contact");
        // Dice: the troop's shot 5 and 2 (keeps the 5: a hit; the hero has no armor).
        let mut dice = ScriptedDice::new(&[5, 2]);
        b.round = 1;
        distance_attack(&r, &mut b, &mut dice, 1);
        distance_attack(&r, &mut b, &mut dice, 0);
        hand_to_hand_attack(&r, &mut b, &mut dice, 1);
        assert!(b.figs[0].alive && !b.figs[1].alive);
        assert_eq!(dice.used(), 2, "the hero fought hand to hand and made no shot");
        // Moving first from 12", the hero stops beyond the troop's reach into base contact
        // (its 6" Move + 1") instead of closing to 6" (where the troop would step in and shoot
        // first); the troop then shoots second at it.
        let mut b = duel(&r, "hero-with-distance-attack", "troop-with-automatic-fire", 12.0);
        move_figure(&r, &mut b, 0);
        assert!(b.figs[0].x < 5.0 - EPS && b.figs[0].x >= 0.0, "{}", b.figs[0].x);
    }

    #[test]
    fn hand_to_hand_figures_charge_moving_first_and_step_out_moving_second() {
        // Troop against troop: the first mover strikes first in hand to hand, so moving first
        // a troop charges (7" is within its Move + contact) ...
        let r = ruleset();
        let mut b = duel(&r, "troop", "troop", 7.0);
        move_figure(&r, &mut b, 0);
        assert_eq!(b.figs[0].x, 6.0);
        // ... and moving second, charged into base contact, it steps out to 2" instead of
        // being struck first (no attack this round).
        let mut b = duel(&r, "troop", "troop", 1.0);
        b.figs[1].moved = true;
        move_figure(&r, &mut b, 0);
        assert_eq!(b.figs[0].x, -1.0);
        // A hero in heavy armor fights a troop even when struck first (the exchange favours it).
        let mut b = duel(&r, "hero-with-heavy-armor", "troop", 1.0);
        b.figs[1].moved = true;
        move_figure(&r, &mut b, 0);
        assert_eq!(b.figs[0].x, 0.0);
    }

    #[test]
    fn shooters_pin_moving_first_and_leave_an_even_exchange_moving_second() {
        // Two troops with distance attacks 12" apart. Moving first, one closes to 6": the other's
        // 6" Move cannot take it out of range before the first player shoots first.
        let r = ruleset();
        let mut b = duel(&r, "troop-with-distance-attack", "troop-with-distance-attack", 12.0);
        move_figure(&r, &mut b, 0);
        assert_eq!(b.figs[0].x, 6.0);
        // Moving second (struck first, an even exchange is a losing one), it steps out of range.
        let mut b = duel(&r, "troop-with-distance-attack", "troop-with-distance-attack", 12.0);
        b.figs[1].moved = true;
        move_figure(&r, &mut b, 0);
        assert_eq!(b.figs[0].x, -1.0);
    }

    #[test]
    fn in_base_contact_an_even_shot_goes_before_hand_to_hand() {
        // Troop Sharpshooter against a troop: a shot (d6 + 1 ≥ 5) and a hand-to-hand attack
        // (d6 ≥ 4) both defeat it half the time; the shot comes first (section II), so it shoots.
        let r = ruleset();
        let (s, t) = (r.profile(r.find("troop-sharpshooter")), r.profile(r.find("troop")));
        assert_eq!(p_defeat(s, t, AttackKind::Distance), p_defeat(s, t, AttackKind::HandToHand));
        assert_eq!(attack_choice(s, t, 1.0, r.rules.contact), Some(AttackKind::Distance));
    }
}
