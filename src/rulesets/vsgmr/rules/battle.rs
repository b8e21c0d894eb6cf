//! The table state's own operations: deployment, distances, contacts, cover, moves that stop
//! at walls and other figures ([`Battle`]). Part of [`super`]: the book's steps call these.

use super::*;

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
    pub(super) fn within(&self, i: usize, j: usize, limit: f32) -> bool {
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
    pub(crate) fn can_act(&self, i: usize) -> bool {
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
    pub(super) fn partner(&self, r: &Vsgmr, t: usize) -> Option<usize> {
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
    pub(super) fn dismount(&mut self, r: &Vsgmr, t: usize) {
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
    pub(super) fn in_contact(&self, r: &Vsgmr, i: usize, j: usize) -> bool {
        let (a, b) = (&self.figs[i], &self.figs[j]);
        a.alive
            && b.alive
            && a.side != b.side
            && !a.flying
            && !b.flying
            && self.within(i, j, r.book.rules.contact + EPS)
    }

    /// Indexes the enemies in base contact with every figure (`contacts`), each pair checked once
    /// (the test is symmetric).
    pub(super) fn index_contacts(&mut self, r: &Vsgmr) {
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
    pub(super) fn touching<'a>(&'a self, r: &'a Vsgmr, i: usize) -> impl Iterator<Item = usize> + 'a {
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
    pub(super) fn contact_or_nearest(
        &self,
        r: &Vsgmr,
        i: usize,
        ok: impl Fn(&Fig) -> bool,
    ) -> (Option<usize>, Option<usize>) {
        use crate::battle::Pos;
        let me = &self.figs[i];
        let at = Pos::new(me.x, me.y);
        let (side, grounded) = (me.side, me.alive && !me.flying);
        let limit = r.book.rules.contact + EPS;
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
    pub(super) fn support(&self, r: &Vsgmr, i: usize, kind: SupportRoll) -> i8 {
        let me = &self.figs[i];
        self.figs.iter().enumerate().any(|(j, f)| {
            let p = r.profile(f.unit);
            f.alive && f.side == me.side && p.support == Some(kind) && (j == i || self.dist(i, j) <= p.half_move + EPS)
        }) as i8
    }

    /// Whether side `s` can still use Inspiration this round: a living Inspiration figure and
    /// not yet used (section V "Inspiration").
    pub(super) fn inspiration_ready(&self, r: &Vsgmr, s: Side) -> bool {
        !self.inspiration_used[s]
            && self.figs.iter().any(|f| f.alive && f.side == s && r.profile(f.unit).has(Trait::Inspiration))
    }

    /// Moves figure `i` from its place by `d` inches directly away from (x, y); its riders go
    /// with it, and a rider pushed is pushed off its mount.
    pub(super) fn push_away(&mut self, i: usize, from: (f32, f32), d: f32) {
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
    pub(super) fn spot_free(&self, r: &Vsgmr, i: usize, p: crate::battle::Pos) -> bool {
        use crate::battle::Pos;
        self.figs.iter().enumerate().all(|(j, f)| {
            j == i || !f.alive || f.riding == Some(i) || Pos::new(f.x, f.y).apart(p, r.book.rules.contact - EPS)
        })
    }

    /// The figures that can take a spot at most `reach` inches from figure `i` ([`Battle::spot_free`]):
    /// the living others within `reach` + `contact` of it, 0.1" to spare, its own rider aside.
    pub(super) fn near_spots(&self, r: &Vsgmr, i: usize, reach: f32) -> Vec<usize> {
        use crate::battle::Pos;
        let me = Pos::new(self.figs[i].x, self.figs[i].y);
        (0..self.figs.len())
            .filter(|&j| {
                let f = &self.figs[j];
                j != i
                    && f.alive
                    && f.riding != Some(i)
                    && me.within(Pos::new(f.x, f.y), reach + r.book.rules.contact + 0.1)
            })
            .collect()
    }

    /// [`Battle::spot_free`] among the figures `near` ([`Battle::near_spots`]) only.
    pub(super) fn spot_free_of(&self, r: &Vsgmr, near: &[usize], p: crate::battle::Pos) -> bool {
        use crate::battle::Pos;
        near.iter().all(|&j| Pos::new(self.figs[j].x, self.figs[j].y).apart(p, r.book.rules.contact - EPS))
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
    pub(super) fn end_of_move(
        &self,
        r: &Vsgmr,
        i: usize,
        target: usize,
        stop: f32,
        step: f32,
        reach: f32,
    ) -> (f32, f32) {
        let to = crate::battle::Pos::new(self.figs[target].x, self.figs[target].y);
        self.end_of_move_at(r, i, to, stop, step, reach)
    }

    /// [`Battle::end_of_move`] toward the point `to` (a scenario's goal, or a target's place).
    pub(super) fn end_of_move_at(
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
    pub(super) fn fall_back(&self, r: &Vsgmr, i: usize, from_target: usize, len: f32) -> (f32, f32) {
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
