//! The rules of Gunplay, one function per rule step, and the default tactic.
//!
//! Everything a roll needs is a *difficulty level* on the ladder Automatic (0) < Easy (1) <
//! Moderate (2) < Hard (3) < Impossible (4) plus a dice modifier. Column shifts move along the
//! ladder (positive = easier, toward Automatic); Automatic and Impossible are never rolled
//! ("The Difficulty Levels"). A [`Battle`] holds both sides' characters as small structs and is
//! reused across trials.
//!
//! The default tactic (RULINGS.md, "Common: the stand-up duel", read for Gunplay's two-action
//! activations) scores every legal two-action plan by the *expected damage* it deals (P(hit) ×
//! the weapon's Damage at that range band, summed over the plan's dice; against a Down target
//! a hit counts 1, since Damage only shifts the Toughness test a Down character no longer
//! takes; a melee plan subtracts the expected damage of the free strikes back) and plays the best, preferring on ties the
//! plan listed first: Aim+Fire, Fire+Fire, then plans that move (the shortest move first).
//! So a character that can fire from where it stands moves only if a move-and-fire reaches a
//! better range band; out of range it moves the least that lets it fire this activation; if no
//! plan can do damage it quick-moves toward the enemy twice. It never retreats. The tactic is
//! myopic: it looks at this activation only.

use crate::battle::line_offsets;
use crate::dice::Dice;
use crate::rulesets::gunplay::{Cover, Gunplay, Profile};
use crate::rulesets::{DuelOutcome, Side};

/// Distances within this of a limit count as inside it (float rounding after moves).
pub const EPS: f32 = 1e-3;

/// The difficulty ladder ("The Difficulty Levels").
pub const AUTOMATIC: i8 = 0;
pub const EASY: i8 = 1;
pub const MODERATE: i8 = 2;
pub const HARD: i8 = 3;
pub const IMPOSSIBLE: i8 = 4;

/// Recovery becomes impossible at this many wounds (Automatic shifted 4 columns): the
/// character is removed ("Damage & Wounds"; RULINGS.md, "Down and recovery").
pub const REMOVAL_WOUNDS: u8 = 4;

/// Applies column shifts to a level: positive shifts move left (easier). Beyond Easy is
/// Automatic, beyond Hard Impossible ("Difficulty Level Shifts").
pub fn shift(level: i8, shifts: i8) -> i8 {
    (level - shifts).clamp(AUTOMATIC, IMPOSSIBLE)
}

/// The target number a d12 must beat at a level: Easy 3, Moderate 6, Hard 9 (`None` for
/// Automatic and Impossible, which are not rolled).
pub fn target_number(level: i8) -> Option<i8> {
    match level {
        EASY => Some(3),
        MODERATE => Some(6),
        HARD => Some(9),
        _ => None,
    }
}

/// Whether a rolled d12 passes a test at `level` with dice modifier `dice_mod`: the modified
/// roll must be strictly greater than the target number ("Rolling equal to the Target Number
/// is NOT a success").
pub fn beats(level: i8, roll: u8, dice_mod: i8) -> bool {
    match level {
        AUTOMATIC => true,
        IMPOSSIBLE => false,
        l => roll as i8 + dice_mod > target_number(l).expect("rolled level"),
    }
}

/// A difficulty test: rolls a d12 only if the level is neither Automatic nor Impossible.
pub fn difficulty_test<D: Dice>(dice: &mut D, level: i8, dice_mod: i8) -> bool {
    match level {
        AUTOMATIC => true,
        IMPOSSIBLE => false,
        l => beats(l, dice.d12(), dice_mod),
    }
}

/// Exact P(pass) of a difficulty test, in [0, 1].
pub fn p_pass(level: i8, dice_mod: i8) -> f64 {
    match level {
        AUTOMATIC => 1.0,
        IMPOSSIBLE => 0.0,
        // [`beats`] passes the rolls r in 1..=12 with r + dice_mod > target: 12 − (target −
        // dice_mod) of them, clamped to 0..=12 (the same count, without the loop).
        l => {
            let t = target_number(l).expect("rolled level") as i32 - dice_mod as i32;
            (12 - t).clamp(0, 12) as f64 / 12.0
        }
    }
}

/// Range bands ("Example Weapon Stats": Close / Effective / Extreme).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Band {
    Close,
    Effective,
    Extreme,
}

impl Band {
    /// Column shifts toward Impossible: Effective ("Moderate range") 1, Extreme 2
    /// ("Firing Modifiers").
    pub fn penalty(self) -> i8 {
        match self {
            Band::Close => 0,
            Band::Effective => 1,
            Band::Extreme => 2,
        }
    }
}

/// The range band of a shot over `distance` inches; `None` beyond Extreme.
pub fn band(p: &Profile, distance: f32) -> Option<Band> {
    if distance <= p.close + EPS {
        Some(Band::Close)
    } else if distance <= p.effective + EPS {
        Some(Band::Effective)
    } else if distance <= p.extreme + EPS {
        Some(Band::Extreme)
    } else {
        None
    }
}

/// The firearm's Damage at a band (the Shotgun: 2 at Close, 1 beyond).
pub fn damage_at(p: &Profile, b: Band) -> u8 {
    if b == Band::Close { p.damage_close } else { p.damage }
}

/// "Shooting", "Difficulties": the base level from the target's cover, shifted by Aim (+1),
/// Quick move (−1) and range (Effective −1, Extreme −2).
pub fn shooting_level(cover: Cover, b: Band, aimed: bool, quick: bool) -> i8 {
    shift(cover.base_level(), aimed as i8 - quick as i8 - b.penalty())
}

/// "Firing Modifiers" / "Melee Modifiers": −1 on the die per wound of the roller.
pub fn wound_modifier(wounds: u8) -> i8 {
    -(wounds.min(12) as i8)
}

/// "Toughness Test": Automatic shifted toward Impossible by the weapon's Damage plus every
/// wound suffered before this hit.
pub fn toughness_level(damage: u8, prior_wounds: u8) -> i8 {
    shift(AUTOMATIC, -((damage + prior_wounds).min(8) as i8))
}

/// Recovery from Down: Automatic shifted one column per wound already taken.
pub fn recovery_level(wounds: u8) -> i8 {
    shift(AUTOMATIC, -(wounds.min(8) as i8))
}

/// "Melee": striking is Hard, +1 column for charging and +1 if the target is Down.
pub fn melee_level(charging: bool, target_down: bool) -> i8 {
    shift(HARD, charging as i8 + target_down as i8)
}

/// One character on the table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Character {
    /// Index into the ruleset's loadout list.
    pub unit: u16,
    /// Position, inches.
    pub x: f32,
    pub y: f32,
    /// Permanent wounds ("Each hit causes 1 permanent wound").
    pub wounds: u8,
    /// Down (on its back); cleared by a passed recovery test.
    pub down: bool,
    /// Removed from the game (recovery became impossible).
    pub removed: bool,
    /// Already activated this turn.
    pub activated: bool,
}

impl Character {
    pub fn new(unit: usize, x: f32, y: f32) -> Self {
        Character { unit: unit as u16, x, y, wounds: 0, down: false, removed: false, activated: false }
    }

    /// Up: in play and not Down.
    pub fn is_up(&self) -> bool {
        !self.removed && !self.down
    }
}

/// "Damage & Wounds": a hit of `damage`. An Up target takes a Toughness test (failing puts it
/// Down); every hit adds a wound. A Down character whose recovery has become impossible
/// (4+ wounds) is removed at once: nothing in the rules can change that any more. A Down
/// target is not tested again (it cannot go further down).
pub fn take_hit<D: Dice>(target: &mut Character, damage: u8, dice: &mut D) {
    if !target.down {
        let stays_up = difficulty_test(dice, toughness_level(damage, target.wounds), 0);
        if !stays_up {
            target.down = true;
        }
    }
    target.wounds += 1;
    if target.down && target.wounds >= REMOVAL_WOUNDS {
        target.removed = true;
    }
}

/// "Damage & Wounds", recovery: a Down character's first action. Pass → no longer Down
/// (prone, no further effect) and returns true; fail → one more wound (removal at 4) and the
/// activation ends (returns false).
pub fn recover<D: Dice>(c: &mut Character, dice: &mut D) -> bool {
    if difficulty_test(dice, recovery_level(c.wounds), 0) {
        c.down = false;
        true
    } else {
        c.wounds += 1;
        if c.wounds >= REMOVAL_WOUNDS {
            c.removed = true;
        }
        false
    }
}

/// "Shooting": one Fire action of RoF d12s at a target `distance` away; each die that beats
/// the level (after −1 per shooter wound) is a hit of the band's Damage. Returns hits.
#[allow(clippy::too_many_arguments)]
pub fn fire<D: Dice>(
    cover: Cover,
    p: &Profile,
    shooter_wounds: u8,
    target: &mut Character,
    distance: f32,
    aimed: bool,
    quick: bool,
    dice: &mut D,
) -> u32 {
    let Some(b) = band(p, distance) else { return 0 };
    let level = shooting_level(cover, b, aimed, quick);
    let mut hits = 0;
    for _ in 0..p.rof {
        if target.removed {
            break;
        }
        if difficulty_test(dice, level, wound_modifier(shooter_wounds)) {
            hits += 1;
            take_hit(target, damage_at(p, b), dice);
        }
    }
    hits
}

/// "Melee": one round between attacker `a` (who charged if `charging`) and defender `d`. Both
/// roll a d12 (a Down defender does not strike back and does not roll); the lower roll
/// strikes first, ties strike together; a strike hits if its roll, −1 per wound, beats the
/// melee level; a struck character that goes Down does not strike back.
pub fn melee_round<D: Dice>(
    pa: &Profile,
    a: &mut Character,
    pd: &Profile,
    d: &mut Character,
    charging: bool,
    dice: &mut D,
) {
    let ra = dice.d12();
    let a_hits = beats(melee_level(charging, d.down), ra, wound_modifier(a.wounds));
    if d.down {
        if a_hits {
            take_hit(d, pa.melee_damage, dice);
        }
        return;
    }
    let rd = dice.d12();
    let d_hits = beats(melee_level(false, false), rd, wound_modifier(d.wounds));
    if ra == rd {
        if a_hits {
            take_hit(d, pa.melee_damage, dice);
        }
        if d_hits {
            take_hit(a, pd.melee_damage, dice);
        }
    } else if ra < rd {
        if a_hits {
            take_hit(d, pa.melee_damage, dice);
        }
        if d_hits && d.is_up() {
            take_hit(a, pd.melee_damage, dice);
        }
    } else {
        if d_hits {
            take_hit(a, pd.melee_damage, dice);
        }
        if a_hits && a.is_up() {
            take_hit(d, pa.melee_damage, dice);
        }
    }
}

/// "Turn Sequence": each player rolls a d12, the higher activates first (ties roll again).
pub fn roll_for_first<D: Dice>(dice: &mut D) -> Side {
    loop {
        let (a, b) = (dice.d12(), dice.d12());
        if a != b {
            return if a > b { 0 } else { 1 };
        }
    }
}

// ---------------------------------------------------------------------------------------
// The default tactic

/// One action of a plan. Moves are toward the target, in inches.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Action {
    /// Aim; the next action fires with +1 column.
    Aim,
    /// Fire (after Aim if the previous action was Aim).
    Fire,
    /// Cautious (`quick` false, up to 3") or Quick (up to 6", −1 column) move, then fire.
    MoveFire {
        quick: bool,
        by: f32,
    },
    /// A move without firing.
    Move {
        by: f32,
    },
    /// Charge: quick move into contact and a round of melee.
    Charge,
    /// Strike in melee (in contact).
    Strike,
    Pass,
}

/// What the tactic knows when it plans: its own state and the target's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Situation {
    pub distance: f32,
    pub wounds: u8,
    pub target_down: bool,
    pub target_wounds: u8,
}

/// The damage a hit is worth to the tactic: the weapon's Damage against an Up target (it
/// shifts the Toughness test), 1 against a Down one (it only adds its one wound).
fn hit_worth(damage: u8, target_down: bool) -> f64 {
    if target_down { 1.0 } else { damage as f64 }
}

/// Expected damage of one Fire action at `d` inches (aimed / after a quick move), in the hits'
/// worth to the tactic ([`hit_worth`]: the weapon's Damage against an Up target, 1 against a
/// Down one), at the cover level of `r`; 0 beyond the weapon's Extreme range ("Shooting",
/// "Action Modifiers").
pub fn fire_value(r: &Gunplay, p: &Profile, s: &Situation, d: f32, aimed: bool, quick: bool) -> f64 {
    match band(p, d) {
        None => 0.0,
        Some(b) => {
            p.rof as f64
                * p_pass(shooting_level(r.cover, b, aimed, quick), wound_modifier(s.wounds))
                * hit_worth(damage_at(p, b), s.target_down)
        }
    }
}

/// Expected damage dealt minus expected damage taken in one melee round ("Melee"; charging or
/// not), in the same units as [`fire_value`].
pub fn melee_value(p: &Profile, foe: &Profile, s: &Situation, charging: bool) -> f64 {
    let dealt = p_pass(melee_level(charging, s.target_down), wound_modifier(s.wounds))
        * hit_worth(p.melee_damage, s.target_down);
    let taken = if s.target_down {
        0.0
    } else {
        p_pass(melee_level(false, false), wound_modifier(s.target_wounds)) * foe.melee_damage as f64
    };
    dealt - taken
}

/// Move lengths worth trying for a move of at most `max`: reaching each closer band edge,
/// contact, and the full move; shortest first.
fn move_options(r: &Gunplay, p: &Profile, d: f32, max: f32, out: &mut [f32; 5]) -> usize {
    let room = (d - r.book.rules.contact).max(0.0);
    let mut n = 0;
    for edge in [p.extreme, p.effective, p.close] {
        let by = d - edge;
        if by > EPS && by <= max + EPS && by <= room + EPS {
            out[n] = by.min(room);
            n += 1;
        }
    }
    let full = max.min(room);
    if full > EPS {
        out[n] = full;
        n += 1;
    }
    out[..n].sort_by(|a, b| a.total_cmp(b));
    n
}

/// The best single action and its value at situation `s` (one action left).
fn best_single(r: &Gunplay, p: &Profile, foe: &Profile, s: &Situation) -> (Action, f64) {
    let d = s.distance;
    let in_contact = d <= r.book.rules.contact + EPS;
    let mut best = (Action::Pass, 0.0);
    let mut consider = |a: Action, v: f64| {
        if v > best.1 + 1e-12 {
            best = (a, v);
        }
    };
    consider(Action::Fire, fire_value(r, p, s, d, false, false));
    if in_contact {
        consider(Action::Strike, melee_value(p, foe, s, false));
    }
    let mut moves = [0.0f32; 5];
    for quick in [false, true] {
        let max = if quick { r.book.rules.quick_move } else { r.book.rules.cautious_move };
        let n = move_options(r, p, d, max, &mut moves);
        for &by in &moves[..n] {
            consider(Action::MoveFire { quick, by }, fire_value(r, p, s, d - by, false, quick));
        }
    }
    if !in_contact && d - r.book.rules.contact <= r.book.rules.quick_move + EPS {
        consider(Action::Charge, melee_value(p, foe, s, true));
    }
    best
}

/// The distance to the target after action `a` taken at `d` inches, in inches.
pub fn after(r: &Gunplay, d: f32, a: Action) -> f32 {
    match a {
        Action::MoveFire { by, .. } | Action::Move { by } => d - by,
        Action::Charge => r.book.rules.contact,
        _ => d,
    }
}

/// The default tactic's plan for an Up character with `actions` (1 or 2) actions left.
pub fn plan(r: &Gunplay, p: &Profile, foe: &Profile, s: &Situation, actions: u8) -> [Action; 2] {
    if actions < 2 {
        let (a, v) = best_single(r, p, foe, s);
        if v > 0.0 {
            return [a, Action::Pass];
        }
        return [quick_toward(r, s.distance), Action::Pass];
    }
    let d = s.distance;
    let mut best = ([Action::Pass, Action::Pass], 0.0);
    let mut consider = |plan: [Action; 2], v: f64| {
        if v > best.1 + 1e-12 {
            best = (plan, v);
        }
    };
    consider([Action::Aim, Action::Fire], fire_value(r, p, s, d, true, false));
    // Every first action, followed by the best single action from where it leaves us. A
    // fixed array: no allocation in the hot loop (at most 1 + 1 + 4·5 + 1 candidates).
    let mut firsts = [(Action::Pass, 0.0f64); 24];
    let mut nf = 0;
    let mut push = |a: Action, v: f64| {
        firsts[nf] = (a, v);
        nf += 1;
    };
    push(Action::Fire, fire_value(r, p, s, d, false, false));
    let in_contact = d <= r.book.rules.contact + EPS;
    if in_contact {
        push(Action::Strike, melee_value(p, foe, s, false));
    }
    let mut moves = [0.0f32; 5];
    for quick in [false, true] {
        let max = if quick { r.book.rules.quick_move } else { r.book.rules.cautious_move };
        let n = move_options(r, p, d, max, &mut moves);
        for &by in &moves[..n] {
            push(Action::MoveFire { quick, by }, fire_value(r, p, s, d - by, false, quick));
        }
    }
    if !in_contact && d - r.book.rules.contact <= r.book.rules.quick_move + EPS {
        push(Action::Charge, melee_value(p, foe, s, true));
    }
    for quick in [false, true] {
        let max = if quick { r.book.rules.quick_move } else { r.book.rules.cautious_move };
        let n = move_options(r, p, d, max, &mut moves);
        for &by in &moves[..n] {
            push(Action::Move { by }, 0.0);
        }
    }
    for &(a, v) in &firsts[..nf] {
        let next = Situation { distance: after(r, d, a), ..*s };
        let (b, w) = best_single(r, p, foe, &next);
        consider([a, b], v + w);
    }
    if best.1 > 0.0 {
        return best.0;
    }
    let first = quick_toward(r, d);
    [first, quick_toward(r, after(r, d, first))]
}

/// The best action of an Up character with `actions` (1 or 2) left that does not move it
/// ("Actions": Aim, Fire, Strike in contact, or Pass): Aim where an aimed Fire is worth more
/// than two of the best single actions in place, else the better of Fire and Strike where it
/// is worth anything, else Pass. The `hold` tactic's plan, and where the `stand-off` tactic
/// will not step in.
pub fn plan_in_place(r: &Gunplay, p: &Profile, foe: &Profile, s: &Situation, actions: u8) -> Action {
    let d = s.distance;
    let fire = fire_value(r, p, s, d, false, false);
    let strike = if d <= r.book.rules.contact + EPS { melee_value(p, foe, s, false) } else { f64::NEG_INFINITY };
    let single = fire.max(strike).max(0.0);
    if actions >= 2 && fire_value(r, p, s, d, true, false) > 2.0 * single + 1e-12 {
        Action::Aim
    } else if strike > fire && strike > 0.0 {
        Action::Strike
    } else if fire > 0.0 {
        Action::Fire
    } else {
        Action::Pass
    }
}

/// "Quick Movement" straight toward the enemy, stopping at contact.
fn quick_toward(r: &Gunplay, d: f32) -> Action {
    let by = r.book.rules.quick_move.min((d - r.book.rules.contact).max(0.0));
    if by > EPS { Action::Move { by } } else { Action::Pass }
}

// ---------------------------------------------------------------------------------------
// The turn loop

/// Both sides' characters and running counts; reused across trials.
#[derive(Debug, Clone, Default)]
pub struct Battle {
    pub sides: [Vec<Character>; 2],
    /// Enemy characters each side has removed.
    pub kills: [u32; 2],
    /// Each side's tactic, an index into [`crate::rulesets::gunplay::tactics::PORTFOLIO`] (0,
    /// `default`, the rules' [`plan`], unless the squads' tactic game or its equilibrium picks
    /// another: [`crate::rulesets::DuelSetup::tactics`]).
    pub tactic: [usize; 2],
    /// Game turns played ([`duel_round`]; [`Battle::deploy_lines`] starts at 0).
    pub round: u32,
}

#[inline]
fn dist(a: &Character, b: &Character) -> f32 {
    ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).sqrt()
}

impl Battle {
    /// Deploys `na` characters of loadout `a` in a line at x = 0 and `nb` of `b` at
    /// x = `distance`, each line centred on y = 0 with `spacing` between neighbours, both
    /// sides on the default tactic.
    pub fn deploy_lines(&mut self, a: usize, na: u32, b: usize, nb: u32, distance: f32, spacing: f32) {
        for (s, (unit, n, x)) in [(a, na, 0.0f32), (b, nb, distance)].into_iter().enumerate() {
            self.sides[s].clear();
            self.sides[s].extend(line_offsets(n, spacing).map(|y| Character::new(unit, x, y)));
        }
        self.kills = [0, 0];
        self.round = 0;
        self.tactic = [0, 0];
    }

    /// Characters of side `s` not yet defeated: not removed, and Up too under `[rules]
    /// duel_victory = "none_up"`.
    fn in_play(&self, r: &Gunplay, s: Side) -> usize {
        let none_up = r.book.rules.duel_victory == crate::rulesets::gunplay::DuelVictory::NoneUp;
        self.sides[s].iter().filter(|c| !c.removed && !(none_up && c.down)).count()
    }

    /// The target of side `s`'s character `i`: the nearest Up enemy, else the nearest Down one.
    fn target_of(&self, s: Side, i: usize) -> Option<usize> {
        let me = &self.sides[s][i];
        let foes = &self.sides[1 - s];
        let pick = |want_up: bool| {
            foes.iter()
                .enumerate()
                .filter(|(_, f)| !f.removed && f.is_up() == want_up)
                .min_by(|x, y| dist(me, x.1).total_cmp(&dist(me, y.1)))
                .map(|(j, _)| j)
        };
        pick(true).or_else(|| pick(false))
    }
}

/// One activation of side `s`'s character `i`: recover if Down, then its side's tactic
/// ([`Battle::tactic`]) action by action.
pub fn activate<D: Dice>(r: &Gunplay, bt: &mut Battle, s: Side, i: usize, dice: &mut D) {
    let mut actions = 2u8;
    {
        let c = &mut bt.sides[s][i];
        c.activated = true;
        if c.down {
            if !recover(c, dice) {
                // Removed by its wounds: the enemy's kill.
                if c.removed {
                    bt.kills[1 - s] += 1;
                }
                return;
            }
            actions = 1;
        }
    }
    let mut aimed = false;
    while actions > 0 {
        let Some(j) = bt.target_of(s, i) else { return };
        let (me, foe) = (bt.sides[s][i], bt.sides[1 - s][j]);
        let (p, pf) = (r.profile(me.unit as usize), r.profile(foe.unit as usize));
        let d = dist(&me, &foe);
        let sit = Situation { distance: d, wounds: me.wounds, target_down: foe.down, target_wounds: foe.wounds };
        // Re-plan each action (the target may have changed), but an Aim commits to its Fire.
        let action = match (aimed, bt.tactic[s]) {
            (true, _) => Action::Fire,
            // The default tactic is the rules' plan (the hot path: no dynamic call).
            (false, 0) => plan(r, p, pf, &sit, actions)[0],
            (false, t) => crate::rulesets::gunplay::tactics::PORTFOLIO[t].tactic.next_action(r, p, pf, &sit, actions),
        };
        actions -= 1;
        let [sa, sb] = &mut bt.sides;
        let (mine, theirs) = if s == 0 { (sa, sb) } else { (sb, sa) };
        let was_removed = theirs[j].removed;
        match action {
            Action::Aim => {
                aimed = true;
                continue;
            }
            Action::Fire => {
                fire(r.cover, p, me.wounds, &mut theirs[j], d, aimed, false, dice);
            }
            Action::MoveFire { quick, by } => {
                step_toward(&mut mine[i], &theirs[j], by);
                let nd = dist(&mine[i], &theirs[j]);
                fire(r.cover, p, me.wounds, &mut theirs[j], nd, false, quick, dice);
            }
            Action::Move { by } => step_toward(&mut mine[i], &theirs[j], by),
            Action::Charge => {
                let by = (d - r.book.rules.contact).max(0.0);
                step_toward(&mut mine[i], &theirs[j], by);
                melee_round(p, &mut mine[i], pf, &mut theirs[j], true, dice);
            }
            Action::Strike => melee_round(p, &mut mine[i], pf, &mut theirs[j], false, dice),
            Action::Pass => {}
        }
        aimed = false;
        if !was_removed && theirs[j].removed {
            bt.kills[s] += 1;
        }
        if mine[i].removed {
            bt.kills[1 - s] += 1;
            return;
        }
        if mine[i].down {
            return;
        }
    }
}

fn step_toward(me: &mut Character, foe: &Character, by: f32) {
    let d = dist(me, foe);
    if d <= EPS || by <= 0.0 {
        return;
    }
    let t = (by / d).min(1.0);
    me.x += (foe.x - me.x) * t;
    me.y += (foe.y - me.y) * t;
}

/// Plays turns until one side has no character left in play (it loses) or `max_rounds`
/// turns pass (a draw). "Turn Sequence": the first turn's leader is `first` (the engine
/// balances who starts); later turns roll d12s for it; the sides alternate single
/// characters, and a side that runs out lets the other finish. Each side plays its
/// [`Battle::tactic`].
pub fn play<D: Dice>(r: &Gunplay, bt: &mut Battle, dice: &mut D, first: Side, max_rounds: u32) -> DuelOutcome {
    bt.round = 0;
    if max_rounds == 0 {
        return DuelOutcome { winner: None, turns: 0, kills: bt.kills };
    }
    loop {
        if let Some(out) = duel_round(r, bt, dice, first, max_rounds) {
            return out;
        }
    }
}

/// The next game turn of [`play`] (turn `bt.round + 1`; [`Battle::deploy_lines`] starts at 0):
/// the duel's outcome once it is over after this turn (a side with no character left in play,
/// or turn `max_rounds`), else `None`. The rollout best response plays the duel turn by turn
/// through it (`crate::rulesets::gunplay::rollout`).
pub fn duel_round<D: Dice>(
    r: &Gunplay,
    bt: &mut Battle,
    dice: &mut D,
    first: Side,
    max_rounds: u32,
) -> Option<DuelOutcome> {
    let turn = bt.round;
    bt.round += 1;
    let leader = if turn == 0 { first } else { roll_for_first(dice) };
    for side in bt.sides.iter_mut() {
        for c in side.iter_mut() {
            c.activated = c.removed;
        }
    }
    let mut s = leader;
    loop {
        let next = |bt: &Battle, s: Side| bt.sides[s].iter().position(|c| !c.activated && !c.removed);
        let pick = next(bt, s).map(|i| (s, i)).or_else(|| next(bt, 1 - s).map(|i| (1 - s, i)));
        let Some((side, i)) = pick else { break };
        activate(r, bt, side, i, dice);
        let (a, b) = (bt.in_play(r, 0), bt.in_play(r, 1));
        if a == 0 || b == 0 {
            let winner = match (a > 0, b > 0) {
                (true, false) => Some(0),
                (false, true) => Some(1),
                _ => None,
            };
            return Some(DuelOutcome { winner, turns: turn + 1, kills: bt.kills });
        }
        s = 1 - side;
    }
    (bt.round >= max_rounds).then_some(DuelOutcome { winner: None, turns: max_rounds, kills: bt.kills })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;
    use crate::rulesets::gunplay::tests::ruleset;

    #[test]
    fn p_pass_counts_the_passing_faces_of_the_d12() {
        for level in AUTOMATIC..=IMPOSSIBLE {
            for dice_mod in -14..=14 {
                let faces = (1..=12u8).filter(|&r| beats(level, r, dice_mod)).count();
                assert_eq!(p_pass(level, dice_mod), faces as f64 / 12.0, "level {level}, modifier {dice_mod}");
            }
        }
    }

    #[test]
    fn the_ladder_shifts_and_clamps() {
        assert_eq!(shift(HARD, 1), MODERATE);
        assert_eq!(shift(EASY, 1), AUTOMATIC);
        assert_eq!(shift(EASY, 5), AUTOMATIC);
        assert_eq!(shift(HARD, -1), IMPOSSIBLE);
        assert_eq!(p_pass(EASY, 0), 9.0 / 12.0);
        assert_eq!(p_pass(HARD, -1), 2.0 / 12.0);
        assert_eq!(p_pass(AUTOMATIC, -12), 1.0);
        assert_eq!(p_pass(IMPOSSIBLE, 12), 0.0);
        // Equal to the target number is not a success.
        assert!(!beats(MODERATE, 6, 0));
        assert!(beats(MODERATE, 7, 0));
    }

    /// "Firing Example": A (1 wound, rifle) aims and fires at B 20" away behind lots of cover:
    /// Hard − Aim → Moderate, Effective range → Hard; −1 for the wound: needs 11+.
    #[test]
    fn firing_example_needs_eleven() {
        let r = ruleset(Cover::Lots);
        let rifle = r.profile(r.find("rifle"));
        assert_eq!(band(rifle, 20.0), Some(Band::Effective));
        let level = shooting_level(Cover::Lots, Band::Effective, true, false);
        assert_eq!(level, HARD);
        for (roll, hit) in [(10u8, false), (11, true)] {
            let mut target = Character::new(0, 20.0, 0.0);
            // The hit's Toughness test: Automatic shifted 2 (rifle) → Moderate; roll 12 stays up.
            let mut dice = ScriptedDice::new(&[roll, 12]);
            let hits = fire(Cover::Lots, rifle, 1, &mut target, 20.0, true, false, &mut dice);
            assert_eq!(hits == 1, hit, "roll {roll}");
            assert_eq!(target.wounds, hit as u8);
            assert_eq!(dice.used(), 1 + hit as usize);
        }
    }

    /// "Toughness Test Example": E (1 wound) hit by a rifle: Automatic → Moderate (Damage 2)
    /// → Hard (1 wound): stays Up on 10+, else Down; the hit is a second wound either way.
    #[test]
    fn toughness_example_needs_ten() {
        assert_eq!(toughness_level(2, 1), HARD);
        for (roll, down) in [(9u8, true), (10, false)] {
            let mut e = Character::new(0, 0.0, 0.0);
            e.wounds = 1;
            take_hit(&mut e, 2, &mut ScriptedDice::new(&[roll]));
            assert_eq!((e.down, e.wounds, e.removed), (down, 2, false), "roll {roll}");
        }
    }

    /// "Melee Example": C (knife) charges D. C rolls 6, D rolls 10. C strikes first needing
    /// to beat 6 (Hard + charge = Moderate) and misses; D then hits with its 10 (beats 9), and
    /// C takes a Toughness test (knife Damage 1: Easy).
    #[test]
    fn melee_example() {
        let r = ruleset(Cover::Open);
        let p = r.profile(r.find("pistol"));
        let (mut c, mut d) = (Character::new(0, 0.0, 0.0), Character::new(0, 1.0, 0.0));
        // C's strike roll 6, D's 10, then C's Toughness test (Easy) rolls 3: fails, Down.
        let mut dice = ScriptedDice::new(&[6, 10, 3]);
        melee_round(p, &mut c, p, &mut d, true, &mut dice);
        assert!(dice.exhausted());
        assert_eq!((d.wounds, c.wounds, c.down), (0, 1, true));
    }

    #[test]
    fn a_struck_character_that_goes_down_does_not_strike_back() {
        let r = ruleset(Cover::Open);
        let p = r.profile(r.find("pistol"));
        let (mut a, mut d) = (Character::new(0, 0.0, 0.0), Character::new(0, 1.0, 0.0));
        // A rolls 11 (hits Hard), D rolls 12 (would hit) but goes Down on its test (roll 2).
        let mut dice = ScriptedDice::new(&[11, 12, 2]);
        melee_round(p, &mut a, p, &mut d, false, &mut dice);
        assert!(dice.exhausted());
        assert_eq!((a.wounds, d.wounds, d.down), (0, 1, true));
        // Ties strike together.
        let (mut a, mut d) = (Character::new(0, 0.0, 0.0), Character::new(0, 1.0, 0.0));
        let mut dice = ScriptedDice::new(&[10, 10, 12, 12]);
        melee_round(p, &mut a, p, &mut d, false, &mut dice);
        assert_eq!((a.wounds, d.wounds), (1, 1));
    }

    #[test]
    fn recovery_gets_harder_and_four_wounds_remove() {
        let mut c = Character::new(0, 0.0, 0.0);
        c.down = true;
        c.wounds = 1;
        // Easy: a 3 fails → second wound, still Down.
        assert!(!recover(&mut c, &mut ScriptedDice::new(&[3])));
        assert_eq!((c.wounds, c.down, c.removed), (2, true, false));
        // Moderate: a 7 passes.
        assert!(recover(&mut c, &mut ScriptedDice::new(&[7])));
        assert!(c.is_up());
        // Up with 3 wounds: any hit is an Impossible test (no roll), Down with 4 → removed.
        c.wounds = 3;
        take_hit(&mut c, 1, &mut ScriptedDice::new(&[]));
        assert!(c.removed);
    }

    #[test]
    fn the_tactic_aims_a_single_hard_shot_and_fires_twice_when_easy() {
        let r = ruleset(Cover::Open);
        let rifle = r.profile(r.find("rifle"));
        let s = Situation { distance: 12.0, wounds: 0, target_down: false, target_wounds: 0 };
        // Open, Close: Easy (9/12) twice beats Automatic once.
        assert_eq!(plan(&r, rifle, rifle, &s, 2), [Action::Fire, Action::Fire]);
        let r = ruleset(Cover::Lots);
        let s = Situation { distance: 30.0, ..s };
        // Lots of cover at Effective: Impossible unaimed, Hard aimed.
        assert_eq!(plan(&r, rifle, rifle, &s, 2), [Action::Aim, Action::Fire]);
    }

    #[test]
    fn out_of_range_the_tactic_moves_the_least_that_lets_it_fire() {
        let r = ruleset(Cover::Open);
        let pistol = r.profile(r.find("pistol"));
        // 38": 2" cautious move reaches Extreme (36"), fire; then 3" more still Extreme: fire.
        let s = Situation { distance: 38.0, wounds: 0, target_down: false, target_wounds: 0 };
        let p = plan(&r, pistol, pistol, &s, 2);
        assert!(matches!(p[0], Action::MoveFire { .. }), "{p:?}");
        // 60": nothing reachable this activation: quick moves toward the enemy.
        let s = Situation { distance: 60.0, ..s };
        assert_eq!(plan(&r, pistol, pistol, &s, 2), [Action::Move { by: 6.0 }, Action::Move { by: 6.0 }]);
    }

    #[test]
    fn a_down_character_recovers_then_uses_its_remaining_action_to_fire() {
        let r = ruleset(Cover::Open);
        let rifle = r.find("rifle");
        let mut bt = Battle::default();
        bt.deploy_lines(rifle, 1, rifle, 1, 12.0, 2.0);
        bt.sides[0][0].down = true;
        bt.sides[0][0].wounds = 1;
        // Recovery at Easy (1 wound): 5 passes. One action left: Fire at Close, Easy, −1 for
        // the wound: 12 hits. B's Toughness test: Moderate (rifle Damage 2): 3 fails → Down.
        let mut dice = ScriptedDice::new(&[5, 12, 3]);
        activate(&r, &mut bt, 0, 0, &mut dice);
        assert!(dice.exhausted());
        assert!(bt.sides[0][0].is_up());
        assert_eq!((bt.sides[1][0].wounds, bt.sides[1][0].down), (1, true));
        // A failed recovery ends the activation with one more wound.
        bt.sides[0][0].down = true;
        let mut dice = ScriptedDice::new(&[2]);
        activate(&r, &mut bt, 0, 0, &mut dice);
        assert!(dice.exhausted());
        assert_eq!((bt.sides[0][0].wounds, bt.sides[0][0].down), (2, true));
    }

    #[test]
    fn the_shotgun_hits_harder_at_close_range() {
        let r = ruleset(Cover::Open);
        let shotgun = r.profile(r.find("shotgun"));
        assert_eq!(damage_at(shotgun, band(shotgun, 12.0).unwrap()), 2);
        assert_eq!(damage_at(shotgun, band(shotgun, 12.5).unwrap()), 1);
        // At 20" (Effective): Moderate to hit; the hit's test is Easy (Damage 1): 3 fails.
        let mut t = Character::new(0, 20.0, 0.0);
        fire(Cover::Open, shotgun, 0, &mut t, 20.0, false, false, &mut ScriptedDice::new(&[7, 3]));
        assert!(t.down);
        // Beyond Extreme no dice are rolled.
        assert_eq!(fire(Cover::Open, shotgun, 0, &mut t, 49.0, false, false, &mut ScriptedDice::new(&[])), 0);
    }

    #[test]
    fn every_removal_is_counted_as_a_kill() {
        use crate::dice::FastDice;
        let r = ruleset(Cover::Some);
        let mut bt = Battle::default();
        let mut dice = FastDice::from_seed(5);
        for game in 0..300 {
            bt.deploy_lines(game % 3, 4, (game / 3) % 3, 4, 20.0, 2.0);
            let out = play(&r, &mut bt, &mut dice, game % 2, 100);
            for s in 0..2 {
                let removed = bt.sides[1 - s].iter().filter(|c| c.removed).count() as u32;
                assert_eq!(out.kills[s], removed, "game {game}");
            }
            if let Some(w) = out.winner {
                assert_eq!(out.kills[w], 4);
            }
        }
    }

    #[test]
    fn turn_order_roll_rerolls_ties() {
        assert_eq!(roll_for_first(&mut ScriptedDice::new(&[5, 5, 2, 9])), 1);
        assert_eq!(roll_for_first(&mut ScriptedDice::new(&[12, 1])), 0);
    }
}
