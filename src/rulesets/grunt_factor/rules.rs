//! The rules of The Grunt Factor, one function per rule step, the default tactic and the
//! squad battle of duels.
//!
//! Every roll is a d20 rolled under a value ("To hit your target", "To damage your target",
//! LD tests). The probability functions here ([`p_under`], [`p_kill_per_hit`], ...) are the
//! ones the exact solver uses, so the Monte Carlo and the Markov chain share every number.
//!
//! The default tactic (RULINGS.md, "Actions"): a squad moves as one block, every model
//! spending the same number of Move actions (0 to AC); each model then fires its other
//! actions, aiming first when (n−1) aimed Fire actions expect more kills than n unaimed ones.
//! The number of moves comes from a look-ahead over [`HORIZON`] turns ([`horizon_plan`]):
//! the squad's expected kills minus its target's expected fire back, summed over the turns
//! and played out with the expected losses, best first step taken (ties: fewer moves). A squad that can hit nothing from where it
//! stands does not hold; one that can hit nothing within the horizon moves every action
//! toward the enemy. It never closes to base contact (see the module docs of
//! `grunt_factor`). A panicked squad, and a squad at 1/3 of its size or less (not Elite),
//! never moves closer; it tests to recover only when its fire would expect no kill
//! ([`tries_recovery`]). A prone squad (one that went prone in panic and recovered) crawls at
//! 1/3 MV, or stands up for one action of every model and moves at full MV, whichever the
//! look-ahead scores higher ([`plan_moves`], "Go prone/stand").

use crate::dice::Dice;
use crate::rulesets::grunt_factor::{GruntFactor, SquadProfile};
use crate::rulesets::{DuelOutcome, Side};

/// Squads never close nearer than this (cm): the tactic does not initiate close combat.
pub const MIN_GAP: f64 = 2.0;
/// "Special morale checks": more than this many hits from one enemy squad.
pub const SPECIAL_CHECK_HITS: u8 = 10;
/// "Special morale checks": a failed check falls back this far from the firing squad, cm.
pub const FALL_BACK: f64 = 10.0;
/// Most models a squad can have (1 Sergeant + 11 soldiers).
pub const MAX_MODELS: usize = 12;

/// P(d20 ≤ `value`): 0 at 0 or below, 1 at 20 or above.
pub fn p_under(value: i8) -> f64 {
    value.clamp(0, 20) as f64 / 20.0
}

/// A d20 roll-under test: rolls one d20, passes on a roll ≤ `value`.
pub fn roll_under<D: Dice>(dice: &mut D, value: i8) -> bool {
    (dice.d20() as i8) <= value
}

/// "Ranges": the band of a shot over `d` cm: 0 CC (base contact, `d` ≤ 0), 1 PB, 2 SR, 3 MR,
/// 4 LR, 5 ER; `None` beyond ER. A distance on a limit belongs to the nearer band.
pub fn band(r: &GruntFactor, d: f64) -> Option<usize> {
    if d <= 0.0 {
        return Some(0);
    }
    r.book.rules.bands.iter().position(|&limit| d <= limit + 1e-9).map(|i| i + 1)
}

/// "To hit your target", "Panic": the modified RC of a shot. RC is halved (rounded down) when
/// the shooter's squad is panicked, before the band's modifier, Aim +3 and target prone −1.
pub fn hit_value(rc: i8, panicked: bool, band_modifier: i8, aimed: bool, target_prone: bool) -> i8 {
    let base = if panicked { rc / 2 } else { rc };
    base + band_modifier + if aimed { 3 } else { 0 } - target_prone as i8
}

/// "To damage your target": the save value 10 + A − Dam (a save is d20 ≤ it).
pub fn save_value(armor: i8, damage: i8) -> i8 {
    10 + armor - damage
}

/// "To damage your target" with `(xN)` saves: P(the hit removes the model) = 1 − P(save)^N.
pub fn p_kill_per_hit(armor: i8, damage: i8, saves: u8) -> f64 {
    1.0 - p_under(save_value(armor, damage)).powi(saves as i32)
}

/// Rolls the `saves` saves of one hit; true if the model is removed (a save failed).
pub fn fails_saves<D: Dice>(dice: &mut D, armor: i8, damage: i8, saves: u8) -> bool {
    (0..saves).any(|_| !roll_under(dice, save_value(armor, damage)))
}

/// "Fire": whether a Fire action at `d` cm first needs a passed LD roll (beyond sighting).
pub fn needs_ld_test(r: &GruntFactor, d: f64) -> bool {
    d > r.book.rules.sighting + 1e-9
}

/// The squad leader's LD: the Sergeant (CO) has +1 while alive; a replacement leader does not
/// inherit it ("Squad leader bites the dust"). With the casualty order used here the Sergeant
/// is alive exactly while the squad is at full strength.
pub fn leader_ld(p: &SquadProfile, alive: u8) -> i8 {
    squad_leader_ld(p, alive == p.size())
}

/// "Squad leader bites the dust", "CO": the LD the squad tests with, +1 while the Sergeant
/// (the CO) still leads it; a replacement leader has the quality's LD.
pub fn squad_leader_ld(p: &SquadProfile, sergeant_leads: bool) -> i8 {
    p.ld + if sergeant_leads { p.co_ld } else { 0 }
}

/// "Morale checks" of a squad that went from `before` to `after` models by one enemy squad's
/// fire: more than 25% killed at once, the loss of more than 50% of the original size (when it
/// happens), or the leader killed.
pub fn morale_check_due(r: &GruntFactor, size: u8, before: u8, after: u8) -> bool {
    let leader = before == size;
    losses_trigger_morale(r, size, before, after) || (after < before && leader)
}

/// "Morale checks", the two triggers that depend only on how many models fell: more than 25%
/// of the squad killed by one enemy squad's activation, or the squad falling below 50% of its
/// original size (when it happens). The leader's death is the caller's third trigger.
pub fn losses_trigger_morale(r: &GruntFactor, size: u8, before: u8, after: u8) -> bool {
    if after >= before {
        return false;
    }
    let share = (before - after) as f64 > r.book.rules.casualty_share * before as f64;
    let half = 2 * after < size && 2 * before >= size;
    share || half
}

/// "Recovering from panic": the LD value of the recovery test, −2 with an enemy in line of
/// sight (always, in duels) or −4 if the squad was fired on since its last activation.
pub fn recovery_value(r: &GruntFactor, p: &SquadProfile, alive: u8, fired_on: bool) -> i8 {
    recovery_test_value(r, leader_ld(p, alive), fired_on)
}

/// "Recovering from panic" for a squad led with LD `ld` and an enemy in line of sight: −4 if
/// it was fired on since its last activation, else −2 (not cumulative: the worst applies).
pub fn recovery_test_value(r: &GruntFactor, ld: i8, fired_on: bool) -> i8 {
    ld + if fired_on { r.book.rules.recovery_under_fire } else { r.book.rules.recovery_enemy_in_los }
}

/// "Recovering from panic", the default tactic: whether a panicked squad spends the
/// recovery test's actions. Only when they cost it no fire: `fire`, the expected kills (models)
/// of its Fire actions this activation at halved RC ("Panic"), is 0 (its target beyond its
/// weapons' bands, or a halved RC that cannot hit). In a firefight the test rarely pays: under
/// fire it passes on LD − 4 (15% to 30% for the shipped qualities), it costs 3 of the squad's
/// actions, and a squad that recovers can be panicked again while a panicked one cannot. The
/// optimal-play solver's best responses never test there; testing whenever the squad had the
/// actions (the old rule) let them gain up to 8.1 points (Untrained Rifles mirror at 50 cm).
pub fn tries_recovery(fire: f64) -> bool {
    fire <= 0.0
}

/// The fire [`tries_recovery`] weighs for a panicked squad of `p` with `alive` models `d` cm
/// from its target: every model firing AC actions at halved RC ([`squad_value`] with
/// `t.panicked` set), in expected kills (models).
pub fn panicked_fire(r: &GruntFactor, p: &SquadProfile, alive: u8, d: f64, t: &Aiming) -> f64 {
    squad_value(r, p, alive, d, p.ac, &Aiming { panicked: true, ..*t })
}

/// "Command radius": a soldier more than 18 cm from his squad leader has his CC, RC and LD
/// halved (rounded down), and tests LD with his own halved value.
pub fn outside_command_radius(value: i8) -> i8 {
    value / 2
}

/// How much of the target its cover hides ("To hit modifiers": 25–50%, 50–75%, more than
/// 75%; not cumulative with each other).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum CoverShare {
    #[default]
    Open,
    /// 25–50%: −1 RC.
    Quarter,
    /// 50–75%: −2 RC.
    Half,
    /// More than 75%: −3 RC.
    Most,
}

impl CoverShare {
    /// "To hit modifiers": 0, −1, −2, −3 RC.
    pub fn hit_modifier(self) -> i8 {
        -(self as i8)
    }
}

/// Soft cover (hedges, bushes, fences) or hard cover (walls, rubble, rocks).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum CoverKind {
    Soft,
    Hard,
}

/// "Damage modifiers": Dam −1 for a target behind soft cover, −2 behind hard cover. Not
/// floored at 0: "To damage your target" adds the difference to the base value 10 whenever
/// the armour is the greater, so the Assault Rifle's long-range Dam 0 behind hard cover is
/// −2 and saves on d20 ≤ 12 + A (always, for A ≥ 8).
pub fn cover_damage(damage: i8, behind: Option<CoverKind>) -> i8 {
    let cut = match behind {
        None => 0,
        Some(CoverKind::Soft) => 1,
        Some(CoverKind::Hard) => 2,
    };
    damage - cut
}

/// The situation of one shot beyond what [`Aiming`] holds: the shooter outside command radius,
/// the share of the target its cover hides and the cover it stands behind (skirmish only;
/// duels fire over open ground: [`Shot::OPEN`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Shot {
    pub outside_radius: bool,
    pub cover: CoverShare,
    pub behind: Option<CoverKind>,
}

impl Shot {
    /// Open ground, inside command radius.
    pub const OPEN: Shot = Shot { outside_radius: false, cover: CoverShare::Open, behind: None };
}

/// "To hit your target" with the skirmish's modifiers: RC halved outside command radius
/// ("Command radius"), then [`hit_value`], then the cover share ("To hit modifiers").
pub fn shot_hit_value(rc: i8, panicked: bool, shot: &Shot, band_modifier: i8, aimed: bool, target_prone: bool) -> i8 {
    let rc = if shot.outside_radius { outside_command_radius(rc) } else { rc };
    hit_value(rc, panicked, band_modifier, aimed, target_prone) + shot.cover.hit_modifier()
}

/// "Close combat", "Modifiers to attacking in close combat": the value a close-combat attack
/// must roll under: CC (halved when panicked and outside command radius) + the weapon's CC
/// modifier, +1 against a prone target, −1 against a target behind cover, +1 per other friendly
/// model in the fight (up to +3). Heights are not modeled.
pub fn cc_value(
    cc: i8,
    panicked: bool,
    outside_radius: bool,
    weapon_modifier: i8,
    target_prone: bool,
    target_behind_cover: bool,
    friends: u8,
) -> i8 {
    let mut v = if panicked { cc / 2 } else { cc };
    if outside_radius {
        v = outside_command_radius(v);
    }
    v + weapon_modifier + target_prone as i8 - target_behind_cover as i8 + friends.min(3) as i8
}

/// "Permanent effects": a squad at 1/3 of its original size or less may no longer move closer
/// to visible enemies; not Elite.
pub fn may_advance(p: &SquadProfile, alive: u8, panicked: bool) -> bool {
    !panicked && (p.elite || 3 * alive > p.size())
}

/// "Recovering from panic": the squad spends `n` actions together, one from each model in
/// acting order, round and round. Returns false (spending nothing) if it has fewer in total.
pub fn spend_together(actions: &mut [u8], n: u8) -> bool {
    if actions.iter().map(|&a| a as u32).sum::<u32>() < n as u32 {
        return false;
    }
    let mut left = n;
    while left > 0 {
        for a in actions.iter_mut() {
            if left > 0 && *a > 0 {
                *a -= 1;
                left -= 1;
            }
        }
    }
    true
}

/// "Turn sequence" step 1: P(side A starts) when both roll a d20 and add their highest LD,
/// the higher choosing (the default tactic starts), ties rolling again.
pub fn p_first(ld_a: i8, ld_b: i8) -> f64 {
    let (mut win, mut tie) = (0u32, 0u32);
    for x in 1..=20i32 {
        for y in 1..=20i32 {
            let (ta, tb) = (x + ld_a as i32, y + ld_b as i32);
            win += (ta > tb) as u32;
            tie += (ta == tb) as u32;
        }
    }
    win as f64 / (400 - tie) as f64
}

/// "Turn sequence" step 1, rolled: the side that starts this turn.
pub fn roll_for_first<D: Dice>(dice: &mut D, ld_a: i8, ld_b: i8) -> Side {
    loop {
        let (a, b) = (dice.d20() as i8 + ld_a, dice.d20() as i8 + ld_b);
        if a != b {
            return if a > b { 0 } else { 1 };
        }
    }
}

/// What a shooter knows about its target when it plans.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Aiming<'a> {
    pub target: &'a SquadProfile,
    pub target_prone: bool,
    pub panicked: bool,
    /// The LD of the shooter's squad leader (for the test beyond sighting).
    pub ld: i8,
}

/// Expected kills of one Fire action of slot `slot` of `p` at `d` cm, aimed or not: the LD
/// test beyond sighting × shots × P(hit) × P(kill per hit).
pub fn fire_action_value(r: &GruntFactor, p: &SquadProfile, slot: usize, d: f64, aimed: bool, t: &Aiming) -> f64 {
    shot_action_value(r, p, slot, d, aimed, t, &Shot::OPEN)
}

/// [`fire_action_value`] for a shot in the situation `shot` (command radius, cover): the LD
/// test (the caller's `t.ld`, already halved outside command radius) × shots × P(hit) ×
/// P(kill per hit) with Dam reduced by the target's cover.
pub fn shot_action_value(
    r: &GruntFactor,
    p: &SquadProfile,
    slot: usize,
    d: f64,
    aimed: bool,
    t: &Aiming,
    shot: &Shot,
) -> f64 {
    let Some(b) = band(r, d) else { return 0.0 };
    let w = &r.weapons[p.weapons[slot] as usize].bands[b];
    if !w.usable() {
        return 0.0;
    }
    let ld = if needs_ld_test(r, d) { p_under(t.ld) } else { 1.0 };
    let hit = p_under(shot_hit_value(p.rc, t.panicked, shot, w.hit.unwrap_or(0), aimed, t.target_prone));
    ld * w.shots as f64 * hit * p_kill_per_hit(t.target.a, cover_damage(w.damage.unwrap_or(0), shot.behind), w.saves)
}

/// "Aim": whether a model with `n` actions to fire spends the first aiming (+3 RC on the Fire
/// actions that follow, at the same target).
pub fn aims(r: &GruntFactor, p: &SquadProfile, slot: usize, d: f64, n: u8, t: &Aiming) -> bool {
    aims_at(r, p, slot, d, n, t, &Shot::OPEN)
}

/// [`aims`] in the situation `shot`: aim when (n−1) aimed Fire actions expect more kills than
/// n unaimed ones.
pub fn aims_at(r: &GruntFactor, p: &SquadProfile, slot: usize, d: f64, n: u8, t: &Aiming, shot: &Shot) -> bool {
    n >= 2 && {
        let plain = shot_action_value(r, p, slot, d, false, t, shot);
        let aimed = shot_action_value(r, p, slot, d, true, t, shot);
        (n - 1) as f64 * aimed > n as f64 * plain
    }
}

/// The expected kills a model with `n` actions left makes with its best of aim-then-fire and
/// fire-only (ignoring targets killed on the way).
pub fn model_value(r: &GruntFactor, p: &SquadProfile, slot: usize, d: f64, n: u8, t: &Aiming) -> f64 {
    model_value_at(r, p, slot, d, n, t, &Shot::OPEN)
}

/// [`model_value`] in the situation `shot` (command radius, cover; the skirmish).
pub fn model_value_at(r: &GruntFactor, p: &SquadProfile, slot: usize, d: f64, n: u8, t: &Aiming, shot: &Shot) -> f64 {
    if aims_at(r, p, slot, d, n, t, shot) {
        (n - 1) as f64 * shot_action_value(r, p, slot, d, true, t, shot)
    } else {
        n as f64 * shot_action_value(r, p, slot, d, false, t, shot)
    }
}

/// "Close combat": expected kills of one close-combat attack by the weapon of slot `slot` of
/// `p`, rolled under `value` ([`cc_value`], with every modifier) against a model of armor
/// `armor` behind `behind` cover: P(d20 ≤ value) × P(the hit removes it) with the weapon's CC
/// Dam, cut by the cover ([`cover_damage`]: "damage as ranged", "Damage modifiers"), and
/// `(xN)` saves, one roll per action (as the skirmish rolls it). In [0, 1]; 0 when the CC band
/// is `-`.
pub fn cc_attack_value(
    r: &GruntFactor,
    p: &SquadProfile,
    slot: usize,
    value: i8,
    armor: i8,
    behind: Option<CoverKind>,
) -> f64 {
    let w = &r.weapons[p.weapons[slot] as usize].bands[0];
    if !w.usable() {
        return 0.0;
    }
    p_under(value) * p_kill_per_hit(armor, cover_damage(w.damage.unwrap_or(0), behind), w.saves)
}

/// The slots of the living models (the first casualties are the lowest slots).
pub fn living(p: &SquadProfile, alive: u8) -> std::ops::Range<usize> {
    (p.size() - alive) as usize..p.size() as usize
}

/// Game turns the move rule looks ahead ([`horizon_plan`]): this one and two more, enough for
/// a squad at medium range to reach short range (2 moves) and fire there with all its actions.
pub const HORIZON: usize = 3;

/// The plan [`horizon_plan`] takes: its first step's Move actions, its score (expected kills
/// dealt minus taken over the horizon, in models) and whether it is blind (nothing can be hit
/// within the horizon: every action moves).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HorizonPlan {
    pub moves: u8,
    pub score: f64,
    pub blind: bool,
}

/// "Actions", "Move": how many of its `now` actions a shooter spends on Move actions straight
/// at its target `d` cm away (each `mv` cm, never nearer than `nearest` cm), looking
/// [`HORIZON`] turns ahead. A plan is a number of moves for each of the turns (`now` actions
/// this turn, `ac` each later turn, the rest fired). It is played out in expected values: each
/// turn we move and fire, killing `ours(d, actions left)` (our expected kills at the distance
/// we end the move at, with our `sizes[0]` models) scaled by the share of our models left and
/// spread over the enemy's models left ([`spread`]); then the target, holding, fires back with what is left
/// of its `sizes[1]` models, `theirs(d)` scaled the same way. A plan scores the kills we make
/// minus the kills we take; the best plan's first step is taken (ties: fewer moves), and the
/// rule is replayed at every activation. A shooter that cannot hit anything from where it
/// stands does not hold; one that can hit nothing within the horizon moves every action (as
/// the one-turn rule did). `ours` and `theirs` may depend on the distance only through its
/// band and the LD test beyond sighting (as every fire value does): each is evaluated once per
/// such class.
///
/// Replaces "the number of moves with the highest expected kills this turn", which left a
/// Regular SMG squad 50 cm from Regular Rifles at medium range all game: one move leaves it at
/// medium range and two cost a Fire action, though at short range it doubles its fire.
/// Simplification: the target never moves in the look-ahead, so from beyond the sighting limit
/// a squad advances into the reach of the enemy's own Move and Fire; that is where optimal
/// play's best response gains at 90 cm (it holds prone and fires first; the `optimal` module's
/// docs give the figures).
/// Returns the first step's Move actions (`.moves`) with the plan's score ([`HorizonPlan`]).
#[allow(clippy::too_many_arguments)]
pub fn horizon_plan(
    r: &GruntFactor,
    now: u8,
    ac: u8,
    mv: f64,
    d: f64,
    nearest: f64,
    sizes: [f64; 2],
    ours: impl Fn(f64, u8) -> f64,
    theirs: impl Fn(f64) -> f64,
) -> HorizonPlan {
    let floor = nearest.min(d);
    // Distances reachable by k moves; past the floor they repeat, so k is capped there.
    let reach = now as usize + (HORIZON - 1) * ac as usize;
    let stop = (0..=reach).find(|&k| d - k as f64 * mv <= floor).unwrap_or(reach);
    let dist: Vec<f64> = (0..=stop).map(|k| (d - k as f64 * mv).max(floor)).collect();
    let most = now.max(ac) as usize;
    // Fire at a distance depends on it only through the band and the LD test beyond sighting:
    // each such class of distances is evaluated once.
    let mut look = Lookahead { ours: Vec::new(), theirs: Vec::new(), class: Vec::new(), stop, ac: ac as usize, sizes };
    let mut classes: Vec<(Option<usize>, bool)> = Vec::new();
    for &x in &dist {
        let c = (band(r, x), needs_ld_test(r, x));
        let i = classes.iter().position(|&e| e == c).unwrap_or_else(|| {
            classes.push(c);
            look.ours.push((0..=most).map(|n| ours(x, n as u8)).collect());
            look.theirs.push(theirs(x));
            classes.len() - 1
        });
        look.class.push(i);
    }
    if look.ours.iter().all(|row| row.iter().all(|&v| v <= 0.0)) {
        let score = look.turn(HORIZON, 0, now as usize, 0, sizes[0], sizes[1]);
        return HorizonPlan { moves: now, score, blind: true };
    }
    let hold_blind = look.ours[look.class[0]][now as usize] <= 0.0;
    let (mut top, mut top_m) = (f64::NEG_INFINITY, now);
    for m in (hold_blind as u8).min(now)..=now {
        let v = look.turn(HORIZON, 0, m as usize, (now - m) as usize, sizes[0], sizes[1]);
        if v > top + 1e-12 {
            (top, top_m) = (v, m);
        }
    }
    HorizonPlan { moves: top_m, score: top, blind: false }
}

/// The models `b` (expected, in models) lose to fire expecting `x` kills ([`horizon_plan`]):
/// spread evenly, each model takes `x / b` expected removing hits and is removed with
/// probability 1 − e^(−x/b) (the hits' count about Poisson), so `b (1 − e^(−x/b))`: below
/// both `x` and `b`. With the hard cap `min(x, b)` a plan whose fire expects more kills than
/// the target has models scored as sure to destroy it, whatever the excess: a Regular SMG
/// squad 50 cm from a Regular LMG squad held at medium range because closing to short range
/// (2.9 times its fire there) only overkilled on paper, and the optimal-play best response
/// gained 6.4 points by closing.
pub fn spread(x: f64, b: f64) -> f64 {
    if b <= 0.0 || x <= 0.0 { 0.0 } else { b * -(-x / b).exp_m1() }
}

/// The tables of [`horizon_plan`], by class of distance (band, LD test beyond sighting).
struct Lookahead {
    /// Our expected kills at full current strength, by class and actions fired.
    ours: Vec<Vec<f64>>,
    /// The target's expected kills at full current strength, by class.
    theirs: Vec<f64>,
    /// The class of the distance after `k` moves made (`d − k·mv`, capped), by `k`.
    class: Vec<usize>,
    stop: usize,
    ac: usize,
    sizes: [f64; 2],
}

impl Lookahead {
    /// The score of the best plan for `turns` more turns, `k` moves made so far, with `a` of
    /// our models and `b` of theirs left (expected values).
    fn best(&self, turns: usize, k: usize, a: f64, b: f64) -> f64 {
        if turns == 0 || a <= 0.0 || b <= 0.0 {
            return 0.0;
        }
        (0..=self.ac).map(|m| self.turn(turns, k, m, self.ac - m, a, b)).fold(f64::NEG_INFINITY, f64::max)
    }

    /// One turn of `m` moves and `n` Fire actions, then the rest of the horizon at its best.
    fn turn(&self, turns: usize, k: usize, m: usize, n: usize, a: f64, b: f64) -> f64 {
        let j = (k + m).min(self.stop);
        let c = self.class[j];
        let dealt = spread(self.ours[c][n] * a / self.sizes[0], b);
        let taken = spread(self.theirs[c] * (b - dealt) / self.sizes[1], a);
        dealt - taken + self.best(turns - 1, j, a - taken, b - dealt)
    }
}

/// What a squad's target fires back with ([`plan_moves`]): its profile, its models left and
/// its [`Aiming`] at the planning squad.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Threat<'a> {
    pub profile: &'a SquadProfile,
    pub alive: u8,
    pub aiming: Aiming<'a>,
}

/// The expected kills of the `alive` models of `p` each firing `n` actions at `d` cm
/// ([`model_value`] summed; a model with the same weapon as the one before it is not
/// evaluated again).
pub fn squad_value(r: &GruntFactor, p: &SquadProfile, alive: u8, d: f64, n: u8, t: &Aiming) -> f64 {
    let mut last: Option<(u8, f64)> = None;
    let mut total = 0.0;
    for s in living(p, alive) {
        let v = match last {
            Some((w, v)) if w == p.weapons[s] => v,
            _ => model_value(r, p, s, d, n, t),
        };
        last = Some((p.weapons[s], v));
        total += v;
    }
    total
}

/// What a squad does before it fires this activation ([`plan_moves`]): whether it stands up
/// from prone first (one action of every model, "Go prone/stand"), its Move actions straight
/// at its target, and the distance after them (cm).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Plan {
    pub stand: bool,
    pub moves: u8,
    pub to: f64,
}

/// The default tactic's Move actions for a squad with `alive` models at `d` cm from its target
/// `back` ([`horizon_plan`] with the squad's fire and the target's fire back, every model
/// moving the same). `advance` false: no move (a prone squad stays prone).
///
/// A `prone` squad ("Go prone/stand", "Modifiers to movement") either stays prone and crawls
/// at 1/3 MV with all its actions, the target firing back at a prone squad (−1 RC), or stands
/// up (one action of every model) and moves at full MV with the actions left, no longer prone.
/// Each option is looked ahead as [`horizon_plan`] (the crawling one as if it stayed prone the
/// whole horizon); the squad stands when that plan moves and scores more (ties: it stays
/// prone), or when nothing is within reach crawling. Standing only to hold and fire is never
/// taken: it costs an action and the prone modifier for nothing.
#[allow(clippy::too_many_arguments)]
pub fn plan_moves(
    r: &GruntFactor,
    p: &SquadProfile,
    alive: u8,
    d: f64,
    advance: bool,
    prone: bool,
    t: &Aiming,
    back: &Threat,
) -> Plan {
    if !advance {
        return Plan { stand: false, moves: 0, to: d };
    }
    let q = back.profile;
    let look = |now: u8, mv: f64, target_prone: bool| {
        let aiming = Aiming { target_prone, ..back.aiming };
        horizon_plan(
            r,
            now,
            p.ac,
            mv,
            d,
            MIN_GAP,
            [alive as f64, back.alive as f64],
            |x, n| squad_value(r, p, alive, x, n, t),
            |x| squad_value(r, q, back.alive, x, q.ac, &aiming),
        )
    };
    let to = |m: u8, mv: f64| (d - m as f64 * mv).max(MIN_GAP.min(d));
    if !prone {
        let m = look(p.ac, p.mv, false).moves;
        return Plan { stand: false, moves: m, to: to(m, p.mv) };
    }
    let crawl_mv = p.mv / 3.0;
    let crawl = look(p.ac, crawl_mv, true);
    let stand = look(p.ac.saturating_sub(1), p.mv, false);
    if stand.moves > 0 && (crawl.blind || stand.score > crawl.score + 1e-12) {
        Plan { stand: true, moves: stand.moves, to: to(stand.moves, p.mv) }
    } else {
        Plan { stand: false, moves: crawl.moves, to: to(crawl.moves, crawl_mv) }
    }
}

/// F of the Lanchester estimate: expected kills of squad `i` at full strength against squad
/// `j` at `d` cm in one activation of the default tactic.
pub fn expected_kills(r: &GruntFactor, i: usize, j: usize, d: f64) -> f64 {
    let (p, q) = (r.profile(i), r.profile(j));
    let t = Aiming { target: q, target_prone: false, panicked: false, ld: leader_ld(p, p.size()) };
    let back = Threat {
        profile: q,
        alive: q.size(),
        aiming: Aiming { target: p, target_prone: false, panicked: false, ld: leader_ld(q, q.size()) },
    };
    let plan = plan_moves(r, p, p.size(), d, true, false, &t, &back);
    squad_value(r, p, p.size(), plan.to, p.ac - plan.moves, &t)
}

// ---------------------------------------------------------------------------------------
// The battle

/// One squad on the line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Squad {
    /// Index into the cost list.
    pub unit: u16,
    /// Models left (the casualty order is fixed: slot 0 first).
    pub alive: u8,
    /// Position on the line, cm (side A starts at 0 facing +, side B at the distance).
    pub x: f64,
    pub panicked: bool,
    pub prone: bool,
    /// Fired on since its last activation ("Recovering from panic": under fire).
    pub fired_on: bool,
    pub activated: bool,
}

/// Both sides' squads; reused across trials (no allocation once grown).
#[derive(Debug, Clone, Default)]
pub struct Battle {
    pub sides: [Vec<Squad>; 2],
    /// Enemy squads each side has destroyed.
    pub kills: [u32; 2],
    /// Scratch of one activation, per enemy squad: models at its start, hits scored, morale
    /// check due.
    before: Vec<u8>,
    hits: Vec<u8>,
    due: Vec<bool>,
    /// The moves [`plan_moves`] chose, by [`PlanKey`]: a pure function of the key for one
    /// ruleset, so the arena (one ruleset, one batch of trials) remembers it.
    plans: crate::seed::FixedHashMap<PlanKey, Plan>,
}

/// What [`plan_moves`] reads in a duel: (own unit, models, prone), (target unit, models,
/// prone, panicked), the distance's bits.
type PlanKey = (u16, u8, bool, u16, u8, bool, bool, u64);

impl Battle {
    /// `na` squads of unit `a` at x = 0 against `nb` squads of unit `b` at x = `distance`.
    pub fn deploy(&mut self, r: &GruntFactor, a: usize, na: u32, b: usize, nb: u32, distance: f64) {
        self.kills = [0, 0];
        for (s, (u, n, x)) in [(a, na, 0.0), (b, nb, distance)].into_iter().enumerate() {
            self.sides[s].clear();
            for _ in 0..n {
                self.sides[s].push(Squad {
                    unit: u as u16,
                    alive: r.profile(u).size(),
                    x,
                    panicked: false,
                    prone: false,
                    fired_on: false,
                    activated: false,
                });
            }
        }
    }

    /// Whether side `s` has a squad left.
    pub fn has_squads(&self, s: Side) -> bool {
        self.sides[s].iter().any(|q| q.alive > 0)
    }

    /// The nearest living enemy squad of side `s`'s squad `i` ("target priority"; ties: the
    /// first listed) and its distance.
    pub fn nearest_enemy(&self, s: Side, i: usize) -> Option<(usize, f64)> {
        let x = self.sides[s][i].x;
        let mut best: Option<(usize, f64)> = None;
        for (j, q) in self.sides[1 - s].iter().enumerate() {
            let d = (q.x - x).abs();
            if q.alive > 0 && best.is_none_or(|(_, bd)| d < bd) {
                best = Some((j, d));
            }
        }
        best
    }

    /// The highest LD among side `s`'s living squad leaders ("Turn sequence").
    pub fn highest_ld(&self, r: &GruntFactor, s: Side) -> i8 {
        self.sides[s]
            .iter()
            .filter(|q| q.alive > 0)
            .map(|q| leader_ld(r.profile(q.unit as usize), q.alive))
            .max()
            .unwrap_or(0)
    }
}

/// "Panic": a panicked squad that is not prone goes prone (one action of every model: no cover
/// on open ground), then, if the tactic tries (`recover`, [`tries_recovery`]) and it has the
/// actions, tests to recover.
pub fn panic_step<D: Dice>(
    r: &GruntFactor,
    p: &SquadProfile,
    q: &mut Squad,
    recover: bool,
    actions: &mut [u8],
    dice: &mut D,
) {
    if !q.prone {
        for a in actions.iter_mut() {
            *a = a.saturating_sub(1);
        }
        q.prone = true;
    }
    if recover
        && spend_together(actions, r.book.rules.recovery_actions)
        && roll_under(dice, recovery_value(r, p, q.alive, q.fired_on))
    {
        q.panicked = false;
    }
}

/// "Morale checks" and "Special morale checks" of an enemy squad after one activation: a
/// failed morale check panics it; more than 10 hits need another LD check or it falls back
/// 10 cm from the firing squad.
pub fn morale_after_fire<D: Dice>(q: &mut Squad, due: bool, hits: u8, ld: i8, away: f64, dice: &mut D) {
    if q.alive == 0 {
        return;
    }
    if due && !q.panicked && !roll_under(dice, ld) {
        q.panicked = true;
    }
    if hits > SPECIAL_CHECK_HITS && !roll_under(dice, ld) {
        q.x += away * FALL_BACK;
    }
}

/// One squad's activation: every living model uses all its actions ("Turn sequence" 2–3).
pub fn activate<D: Dice>(r: &GruntFactor, battle: &mut Battle, s: Side, i: usize, dice: &mut D) {
    let e = 1 - s;
    let mut q = battle.sides[s][i];
    let p = r.profile(q.unit as usize);
    let slots = living(p, q.alive);
    let mut actions = [0u8; MAX_MODELS];
    for a in &mut actions[slots.clone()] {
        *a = p.ac;
    }
    let was_panicked = q.panicked;
    if q.panicked {
        // The fire the recovery test would cost: at the nearest enemy, from where it stands.
        let recover = battle.nearest_enemy(s, i).is_none_or(|(t, d)| {
            let tq = battle.sides[e][t];
            let target = r.profile(tq.unit as usize);
            let aim = Aiming { target, target_prone: tq.prone, panicked: true, ld: leader_ld(p, q.alive) };
            tries_recovery(panicked_fire(r, p, q.alive, d, &aim))
        });
        panic_step(r, p, &mut q, recover, &mut actions[slots.clone()], dice);
    }
    q.fired_on = false;
    q.activated = true;
    battle.sides[s][i] = q;
    let Some((t0, d0)) = battle.nearest_enemy(s, i) else { return };
    let ld = leader_ld(p, q.alive);
    let target0 = r.profile(battle.sides[e][t0].unit as usize);
    let tq = battle.sides[e][t0];
    let aiming = Aiming { target: target0, target_prone: tq.prone, panicked: q.panicked, ld };
    let back = Threat {
        profile: target0,
        alive: tq.alive,
        aiming: Aiming { target: p, target_prone: q.prone, panicked: tq.panicked, ld: leader_ld(target0, tq.alive) },
    };
    let advance = !was_panicked && may_advance(p, q.alive, false);
    let key = (q.unit, q.alive, q.prone, tq.unit, tq.alive, tq.prone, tq.panicked, d0.to_bits());
    let plan = match battle.plans.get(&key) {
        Some(&plan) if advance => plan,
        _ => {
            let plan = plan_moves(r, p, q.alive, d0, advance, q.prone, &aiming, &back);
            if advance {
                battle.plans.insert(key, plan);
            }
            plan
        }
    };
    if plan.stand {
        // "Go prone/stand": one action of every model.
        for a in &mut actions[slots.clone()] {
            *a = a.saturating_sub(1);
        }
        battle.sides[s][i].prone = false;
    }
    let (m, nd) = (plan.moves, plan.to);
    let dir = if s == 0 { 1.0 } else { -1.0 };
    battle.sides[s][i].x += dir * (d0 - nd);
    let x = battle.sides[s][i].x;

    let n_enemy = battle.sides[e].len();
    battle.before.clear();
    battle.before.extend(battle.sides[e].iter().map(|t| t.alive));
    battle.hits.clear();
    battle.hits.resize(n_enemy, 0);
    'models: for slot in slots {
        let n = actions[slot].saturating_sub(m);
        let Some((t, d)) = battle.nearest_enemy(s, i) else { break };
        let tq = battle.sides[e][t];
        let a = Aiming { target: r.profile(tq.unit as usize), target_prone: tq.prone, panicked: q.panicked, ld };
        let aim = aims(r, p, slot, d, n, &a);
        // "Aim": the aimed model is the target's first living model.
        let mut aimed = aim.then(|| (t, r.profile(tq.unit as usize).size() - tq.alive));
        for _ in 0..n - aim as u8 {
            let Some((_, d)) = battle.nearest_enemy(s, i) else { break 'models };
            if needs_ld_test(r, d) && !roll_under(dice, ld) {
                continue;
            }
            let Some(b) = band(r, d) else { continue };
            let w = r.weapons[p.weapons[slot] as usize].bands[b];
            if !w.usable() {
                continue;
            }
            for _ in 0..w.shots {
                let Some((t, d)) = battle.nearest_enemy(s, i) else { break 'models };
                let Some(b) = band(r, d) else { break };
                let w = r.weapons[p.weapons[slot] as usize].bands[b];
                if !w.usable() {
                    break;
                }
                let tq = &mut battle.sides[e][t];
                let tp = r.profile(tq.unit as usize);
                let first = tp.size() - tq.alive;
                let bonus = aimed == Some((t, first));
                tq.fired_on = true;
                if roll_under(dice, hit_value(p.rc, q.panicked, w.hit.unwrap_or(0), bonus, tq.prone)) {
                    battle.hits[t] = battle.hits[t].saturating_add(1);
                    if fails_saves(dice, tp.a, w.damage.unwrap_or(0), w.saves) {
                        tq.alive -= 1;
                        if bonus {
                            aimed = None;
                        }
                        if tq.alive == 0 {
                            battle.kills[s] += 1;
                        }
                    }
                }
            }
        }
    }
    // Morale: the squads this activation hit, and friends of an annihilated squad of 5+.
    battle.due.clear();
    battle.due.resize(n_enemy, false);
    for j in 0..n_enemy {
        let t = battle.sides[e][j];
        let tp = r.profile(t.unit as usize);
        battle.due[j] |= morale_check_due(r, tp.size(), battle.before[j], t.alive);
        // "a friendly squad (with originally at least 5 soldiers in it) in LOS is annihilated".
        if t.alive == 0 && battle.before[j] > 0 && tp.size() >= 5 {
            for (k, d) in battle.due.iter_mut().enumerate() {
                *d |= k != j;
            }
        }
    }
    for j in 0..n_enemy {
        let mut t = battle.sides[e][j];
        let ld = leader_ld(r.profile(t.unit as usize), t.alive);
        let away = if (t.x - x) >= 0.0 { 1.0 } else { -1.0 };
        morale_after_fire(&mut t, battle.due[j], battle.hits[j], ld, away, dice);
        battle.sides[e][j] = t;
    }
}

/// Plays a battle from deployment: game turns of alternating squad activations until a side
/// has no squad left or `max_rounds` turns pass (draw). Side A starts the first turn if
/// `a_first`; later turns roll for it ("Turn sequence").
pub fn play<D: Dice>(
    r: &GruntFactor,
    battle: &mut Battle,
    dice: &mut D,
    a_first: bool,
    max_rounds: u32,
) -> DuelOutcome {
    for turn in 0..max_rounds {
        let mut cur = if turn == 0 {
            if a_first { 0 } else { 1 }
        } else {
            roll_for_first(dice, battle.highest_ld(r, 0), battle.highest_ld(r, 1))
        };
        for side in &mut battle.sides {
            for q in side.iter_mut() {
                q.activated = false;
            }
        }
        loop {
            let next = |b: &Battle, s: Side| b.sides[s].iter().position(|q| q.alive > 0 && !q.activated);
            let i = match (next(battle, cur), next(battle, 1 - cur)) {
                (Some(i), _) => i,
                (None, Some(_)) => {
                    cur = 1 - cur;
                    continue;
                }
                (None, None) => break,
            };
            activate(r, battle, cur, i, dice);
            if !battle.has_squads(1 - cur) {
                return DuelOutcome { winner: Some(cur), turns: turn + 1, kills: battle.kills };
            }
            cur = 1 - cur;
        }
    }
    DuelOutcome { winner: None, turns: max_rounds, kills: battle.kills }
}

#[cfg(test)]
mod tests;
