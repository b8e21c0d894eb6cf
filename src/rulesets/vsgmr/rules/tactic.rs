//! The default tactic's decisions (RULINGS.md, "Common: the stand-up duel"; the module docs
//! of [`super`] describe it): where a figure moves ([`move_figure`], [`wanted_gap`]), when a
//! rider steps off ([`dismounts`]) and which attack it makes ([`attack_choice`]).

use super::*;

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
    move_figure_by(r, b, i, Approach::Default)
}

/// How a fighting figure picks the gap it moves to ([`move_figure_by`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Approach {
    /// The default tactic's [`wanted_gap`].
    Default,
    /// Close assault (the `charge` tactic): into base contact with its target (`rules.contact`,
    /// 1"), at most its Move, whatever its attack; [`wanted_gap`] still decides when either
    /// figure is in flight (no hand-to-hand attack reaches a figure in flight).
    Charge,
    /// Keep out of the target's threat range (the `keep-out` tactic): [`keep_out_gap`];
    /// [`wanted_gap`] still decides when either figure is in flight.
    KeepOut,
}

/// The gap, inches, at which the `keep-out` tactic of `me` ends its move against `foe`
/// (section II.2; the round is phased, so a foe that has moved this round can no longer close
/// before the attacks). The foe's threat range is its reach (its Distance Attack Unit if it has
/// a distance attack, else base contact, `rules.contact`) plus its Move: now unless it has
/// moved this round (`foe_moved`) or cannot move itself, and next round. `me` keeps one base
/// contact beyond the threat range of now; a figure with a distance attack that reaches
/// farther shoots from as far as keeps it beyond next round's threat too, else from the edge
/// of its own range; any other waits out of reach.
pub fn keep_out_gap(r: &Vsgmr, me: &Profile, foe: &Profile, foe_moved: bool) -> f32 {
    let c = r.book.rules.contact;
    let reach = if foe.distance_attack { foe.range } else { c };
    let moves = if foe.self_moving() { foe.move_in } else { 0.0 };
    let now = reach + if foe_moved { 0.0 } else { moves } + c;
    let next = reach + moves + c;
    if me.distance_attack && me.range >= now { now.max(me.range.min(next)) } else { now }
}

/// [`move_figure`] with the gap of `how`: everything else of the movement step (riders
/// stepping off, scenario goals, walls, table edges) is the default tactic's.
pub fn move_figure_by(r: &Vsgmr, b: &mut Battle, i: usize, how: Approach) {
    let Some(m) = b.figs[i].riding else { return move_on(r, b, i, how) };
    let f = &b.figs[i];
    let free = f.alive && f.disabled_round != b.round && f.ready_round <= b.round;
    // A rider with a scenario's goal rides on: stepping off is a fighting choice, and its
    // riderless mount could no longer move toward the goal (section VIII).
    if b.figs[m].moved || !free || b.objective.goal(i) != Goal::Fight || !dismounts(r, b, i, m) {
        return; // it rides on: its mount moves it
    }
    b.dismount(r, i);
    b.figs[m].moved = true;
    move_on(r, b, i, how);
    if b.dist(i, m) < r.book.rules.contact - EPS {
        // Section X: it does not end its move in its mount's space.
        let (x, y) = b.fall_back(r, i, m, r.book.rules.contact);
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

/// [`move_figure_by`] for a figure on foot or a mount.
pub(super) fn move_on(r: &Vsgmr, b: &mut Battle, i: usize, how: Approach) {
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
    let want = if how == Approach::Charge && !air {
        r.book.rules.contact
    } else if how == Approach::KeepOut && !air {
        keep_out_gap(r, &p, &fp, moved)
    } else if own {
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
pub(super) fn move_to_goal(r: &Vsgmr, b: &mut Battle, i: usize, p: &Profile, goal: Goal) {
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
        if here.dist(c.at) <= r.book.rules.contact + EPS {
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
pub(super) fn stop_of(r: &Vsgmr, me: &Profile, prefers: bool, air: bool) -> f32 {
    if me.distance_attack && (air || !prefers) { me.range } else { r.book.rules.contact }
}

/// Whether `p` closes into base contact with `foe` (section II.4) rather than holding at range:
/// it moves on its own and has no distance attack or [`prefers_contact`].
pub fn seeks_contact(p: &Profile, foe: &Profile) -> bool {
    seeks_of(p, prefers_contact(p, foe))
}

/// [`seeks_contact`] given [`prefers_contact`]`(p, foe)`.
pub(super) fn seeks_of(p: &Profile, prefers: bool) -> bool {
    p.self_moving() && (!p.distance_attack || prefers)
}

/// The gap, inches, at which the default tactic wants to end its move against `foe` standing
/// `gap` inches away (`foe_moved`: the foe has already moved this round; `air`: either is in
/// flight). One rule for the Monte Carlo duel, the Skirmish and the optimal-play game's
/// scripted policy ([`crate::rulesets::vsgmr::optimal`]); a result above `gap` is a fall-back.
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
pub(super) struct GapMemo {
    slots: Vec<(u64, f32, f32)>,
}

impl GapMemo {
    const SLOTS: usize = 1 << 12;

    pub(super) fn get(
        &mut self,
        me: usize,
        foe: usize,
        gap: f32,
        foe_moved: bool,
        air: bool,
        f: impl FnOnce() -> f32,
    ) -> f32 {
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
pub(super) fn wanted_gap_of(
    r: &Vsgmr,
    me: &Profile,
    foe: &Profile,
    m: &Matchup,
    gap: f32,
    foe_moved: bool,
    air: bool,
) -> f32 {
    let want = gap_by_role(r, me, foe, m, gap, foe_moved, air);
    if air || !me.self_moving() || !foe.self_moving() {
        return want;
    }
    let c = r.book.rules.contact;
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
pub(super) fn reply_end(r: &Vsgmr, p: &Profile, gap: f32, want: f32) -> f32 {
    let c = r.book.rules.contact;
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
pub(super) fn struck_second(r: &Vsgmr, me: &Profile, foe: &Profile, m: &Matchup, gap: f32) -> (f64, f64) {
    let c = r.book.rules.contact;
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
pub(super) fn gap_by_role(
    r: &Vsgmr,
    me: &Profile,
    foe: &Profile,
    m: &Matchup,
    gap: f32,
    foe_moved: bool,
    air: bool,
) -> f32 {
    let c = r.book.rules.contact;
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
pub(super) fn second_strike(me: &Profile, foe: &Profile, contact: bool) -> f64 {
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
