//! The battle engine shared by every ruleset: a rectangular table, terrain pieces, positions
//! and the geometric questions rules ask (how far, what lies between, where can a unit get to).
//!
//! Why it holds no rule of any game: rulesets disagree on what cover does, whether walls
//! block sight, how far units move. The engine answers only geometric questions in the
//! table's own unit (inches or centimetres) and leaves every consequence to the ruleset.
//! Terrain is placed from the caller's dice, so a seed fixes the whole table.
//!
//! Conventions: x runs along the long edges (0..width), y across (0..depth); side 0
//! deploys along y = 0, side 1 along y = depth. Cover pieces are straight walls (segments)
//! laid parallel to the deployment edges; rough and dangerous ground are circles.
//!
//! Layer: table geometry beside the bottom. The rulesets build their tables, moves and replay
//! pictures on it, so it imports nothing of them nor of anything above them: only `dice` (to
//! place terrain) and `plot` (to wrap the replay picture's text).

use crate::dice::Dice;

pub mod replay;

/// A point or a displacement on the table.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Pos {
    pub x: f32,
    pub y: f32,
}

impl Pos {
    pub const fn new(x: f32, y: f32) -> Self {
        Pos { x, y }
    }
    /// Euclidean distance to `o`.
    #[inline]
    pub fn dist(self, o: Pos) -> f32 {
        self.dist2(o).sqrt()
    }
    /// The squared distance to `o`, the very value whose square root is [`Pos::dist`]. The
    /// square root is correctly rounded, so never decreasing: `a.dist2(b) >= c.dist2(d)` implies
    /// `a.dist(b) >= c.dist(d)`.
    #[inline]
    pub fn dist2(self, o: Pos) -> f32 {
        (self.x - o.x) * (self.x - o.x) + (self.y - o.y) * (self.y - o.y)
    }
    /// Whether `self.dist(o) <= limit` (inches), most often without the square root: a squared
    /// distance beyond or within `limit` by 0.01" (far above f32 rounding on a table) decides
    /// alone; otherwise the square root is compared as [`Pos::dist`] gives it, so the answer is
    /// always the same as that comparison's.
    #[inline]
    pub fn within(self, o: Pos, limit: f32) -> bool {
        // The values of `dist2` and `beyond2`, written out: through those calls the Army Men
        // Combat skirmish ran 4% slower (farm-bench), same results.
        let d2 = (self.x - o.x) * (self.x - o.x) + (self.y - o.y) * (self.y - o.y);
        let (hi, lo) = (limit + 0.01, (limit - 0.01).max(0.0));
        if d2 > hi * hi {
            false
        } else if d2 < lo * lo {
            true
        } else {
            d2.sqrt() <= limit
        }
    }
    /// The squared distance past which [`Pos::within`] `limit` is false at once: a point
    /// whose [`Pos::dist2`] is more is out, without a square root.
    #[inline]
    pub fn beyond2(limit: f32) -> f32 {
        let hi = limit + 0.01;
        hi * hi
    }
    /// Whether `self.dist(o) >= limit` (inches), the same answer most often without the square
    /// root (see [`Pos::within`]).
    #[inline]
    pub fn apart(self, o: Pos, limit: f32) -> bool {
        !self.within(o, limit) || self.dist(o) >= limit
    }
    /// The point `len` along the straight line toward `to` (not past it).
    pub fn toward(self, to: Pos, len: f32) -> Pos {
        let d = self.dist(to);
        if d <= len || d < 1e-6 {
            return to;
        }
        Pos::new(self.x + (to.x - self.x) * len / d, self.y + (to.y - self.y) * len / d)
    }
}

/// A cover piece: a straight wall from `a` to `b`. `intact` is false once destroyed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Wall {
    pub a: Pos,
    pub b: Pos,
    pub intact: bool,
}

impl Wall {
    /// Distance from `p` to the nearest point of the wall.
    pub fn dist_to(&self, p: Pos) -> f32 {
        let (dx, dy) = (self.b.x - self.a.x, self.b.y - self.a.y);
        let len2 = dx * dx + dy * dy;
        let t = if len2 > 0.0 { (((p.x - self.a.x) * dx + (p.y - self.a.y) * dy) / len2).clamp(0.0, 1.0) } else { 0.0 };
        p.dist(Pos::new(self.a.x + t * dx, self.a.y + t * dy))
    }
    /// Whether the straight line from `p` to `q` crosses the wall.
    pub fn crosses(&self, p: Pos, q: Pos) -> bool {
        segments_cross(p, q, self.a, self.b)
    }
    /// The point `offset` from the wall's midline at fraction `t` (0..1) of its length, on the
    /// side opposite to `away_from`: where a unit stands to put the wall between itself and
    /// `away_from`.
    pub fn spot_behind(&self, t: f32, offset: f32, away_from: Pos) -> Pos {
        let m = Pos::new(self.a.x + t * (self.b.x - self.a.x), self.a.y + t * (self.b.y - self.a.y));
        let (dx, dy) = (self.b.x - self.a.x, self.b.y - self.a.y);
        let len = (dx * dx + dy * dy).sqrt().max(1e-6);
        let (nx, ny) = (-dy / len, dx / len);
        let side = (away_from.x - m.x) * nx + (away_from.y - m.y) * ny;
        let sgn = if side > 0.0 { -1.0 } else { 1.0 };
        Pos::new(m.x + sgn * nx * offset, m.y + sgn * ny * offset)
    }
}

fn orient(a: Pos, b: Pos, c: Pos) -> f32 {
    (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
}

/// Whether segments `p1p2` and `q1q2` properly intersect (touching end points do not count).
pub fn segments_cross(p1: Pos, p2: Pos, q1: Pos, q2: Pos) -> bool {
    let d1 = orient(q1, q2, p1);
    let d2 = orient(q1, q2, p2);
    // Most segments tested lie on one side of the other's line: the second pair of
    // orientations is worked out only when the first straddles.
    if !((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0)) {
        return false;
    }
    let d3 = orient(p1, p2, q1);
    let d4 = orient(p1, p2, q2);
    (d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0)
}

/// Kinds of area terrain; what they do is the ruleset's business.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AreaKind {
    Rough,
    Dangerous,
}

/// A circular area of ground.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Area {
    pub centre: Pos,
    pub radius: f32,
    pub kind: AreaKind,
}

impl Area {
    /// Whether the straight path from `p` to `q` enters the area.
    pub fn touched_by(&self, p: Pos, q: Pos) -> bool {
        Wall { a: p, b: q, intact: true }.dist_to(self.centre) <= self.radius
    }
}

/// How to lay out terrain (all lengths in the table's unit).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TerrainPlan {
    pub cover_pieces: u32,
    pub cover_length: f32,
    pub rough_areas: u32,
    pub dangerous_areas: u32,
    pub area_radius: f32,
    /// Terrain keeps this far from each deployment edge (the deployment zones stay open).
    pub keep_out: f32,
}

/// The table: its size and terrain.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Table {
    pub width: f32,
    pub depth: f32,
    pub walls: Vec<Wall>,
    pub areas: Vec<Area>,
}

/// How far a unit's centre stays from the table edge.
pub const EDGE_MARGIN: f32 = 0.5;

impl Table {
    /// An empty table `width` × `depth`.
    pub fn new(width: f32, depth: f32) -> Self {
        Table { width, depth, walls: Vec::new(), areas: Vec::new() }
    }

    /// Places terrain at random from `dice`: walls parallel to the deployment edges, centres
    /// uniform in the band between the deployment zones and at least one wall length plus 2
    /// apart (rejection, at most 200 tries each); then areas, not overlapping walls.
    pub fn place_terrain<D: Dice>(&mut self, plan: &TerrainPlan, dice: &mut D) {
        self.walls.clear();
        self.areas.clear();
        let half = plan.cover_length / 2.0;
        let (y0, y1) = (plan.keep_out + 1.0, self.depth - plan.keep_out - 1.0);
        let rand_in = |dice: &mut D, lo: f32, hi: f32| lo + (hi - lo).max(0.0) * dice.unit_f64() as f32;
        for _ in 0..plan.cover_pieces {
            let mut c = Pos::default();
            for _ in 0..200 {
                c = Pos::new(rand_in(dice, half + 2.0, self.width - half - 2.0), rand_in(dice, y0, y1));
                let ok = self.walls.iter().all(|w| {
                    let m = Pos::new((w.a.x + w.b.x) / 2.0, (w.a.y + w.b.y) / 2.0);
                    (m.x - c.x).abs() > plan.cover_length + 2.0 || (m.y - c.y).abs() > 4.0
                });
                if ok {
                    break;
                }
            }
            self.walls.push(Wall { a: Pos::new(c.x - half, c.y), b: Pos::new(c.x + half, c.y), intact: true });
        }
        let kinds = std::iter::repeat_n(AreaKind::Rough, plan.rough_areas as usize)
            .chain(std::iter::repeat_n(AreaKind::Dangerous, plan.dangerous_areas as usize));
        for kind in kinds {
            // Keep the candidate with the most clearance from walls and other areas (200
            // tries; stop early once nothing is touched).
            let r = plan.area_radius;
            let mut best = (f32::MIN, Pos::default());
            for _ in 0..200 {
                let c = Pos::new(rand_in(dice, r, self.width - r), rand_in(dice, y0, y1));
                let clearance = self
                    .walls
                    .iter()
                    .map(|w| w.dist_to(c) - r - 1.0)
                    .chain(self.areas.iter().map(|a| a.centre.dist(c) - a.radius - r))
                    .fold(f32::MAX, f32::min);
                if clearance > best.0 {
                    best = (clearance, c);
                }
                if clearance > 0.0 {
                    break;
                }
            }
            self.areas.push(Area { centre: best.1, radius: r, kind });
        }
    }

    /// `p` moved inside the table (its centre at least [`EDGE_MARGIN`] from every edge).
    pub fn clamp(&self, p: Pos) -> Pos {
        Pos::new(p.x.clamp(EDGE_MARGIN, self.width - EDGE_MARGIN), p.y.clamp(EDGE_MARGIN, self.depth - EDGE_MARGIN))
    }

    /// The first intact wall the straight path `p → q` crosses, if any.
    pub fn wall_across(&self, p: Pos, q: Pos) -> Option<usize> {
        self.walls.iter().position(|w| w.intact && w.crosses(p, q))
    }

    /// Moves from `from` up to `len` toward `to`, clipped at the table edges and stopped by
    /// intact walls: a path that would cross a wall goes round the nearer wall end (1 beyond
    /// it) instead when that is reachable without crossing, else the unit stays. Returns the
    /// end point.
    pub fn move_toward(&self, from: Pos, to: Pos, len: f32) -> Pos {
        self.move_path(from, to, len).0
    }

    /// [`Table::move_toward`] that also returns the corner of a detour round a wall, if the
    /// path took one (for drawing the path).
    pub fn move_path(&self, from: Pos, to: Pos, len: f32) -> (Pos, Option<Pos>) {
        let to = self.clamp(to);
        let end = from.toward(to, len);
        let Some(w) = self.wall_across(from, end) else {
            return (self.clamp(end), None);
        };
        let wall = self.walls[w];
        let dir = Pos::new(wall.b.x - wall.a.x, wall.b.y - wall.a.y);
        let l = (dir.x * dir.x + dir.y * dir.y).sqrt().max(1e-6);
        let (ux, uy) = (dir.x / l, dir.y / l);
        let ends = [Pos::new(wall.a.x - ux, wall.a.y - uy), Pos::new(wall.b.x + ux, wall.b.y + uy)];
        let via = |c: Pos| from.dist(c) + c.dist(to);
        let order = if via(ends[0]) <= via(ends[1]) { [ends[0], ends[1]] } else { [ends[1], ends[0]] };
        // The nearer way round first; the other if a second wall blocks the first.
        for corner in order.map(|c| self.clamp(c)) {
            if self.wall_across(from, corner).is_some() {
                continue;
            }
            let d = from.dist(corner);
            if d >= len {
                return (self.clamp(from.toward(corner, len)), None);
            }
            let end = corner.toward(to, len - d);
            if self.wall_across(corner, end).is_some() {
                return (corner, None);
            }
            return (self.clamp(end), Some(corner));
        }
        (from, None)
    }

    /// Line of sight from `p` to `q`: always when cover does not block sight (`walls_block`
    /// false, e.g. Guns 'N Grenades, where units shoot over cover), else only when no intact
    /// wall crosses the line.
    pub fn line_of_sight(&self, p: Pos, q: Pos, walls_block: bool) -> bool {
        !walls_block || self.wall_across(p, q).is_none()
    }

    /// Areas of `kind` the path `p → q` enters.
    pub fn areas_touched(&self, p: Pos, q: Pos, kind: AreaKind) -> usize {
        self.areas.iter().filter(|a| a.kind == kind && a.touched_by(p, q)).count()
    }
}

/// Index and distance of the point of `points` nearest to `p` among those `keep` accepts.
pub fn nearest<I: IntoIterator<Item = (usize, Pos)>>(p: Pos, points: I) -> Option<(usize, f32)> {
    // (index, distance, squared distance) of the nearest so far. A point no nearer in squared
    // distance is no nearer in distance either ([`Pos::dist2`]), so it needs no square root.
    let mut best: Option<(usize, f32, f32)> = None;
    for (i, q) in points {
        let d2 = p.dist2(q);
        if best.is_some_and(|(_, _, bd2)| d2 >= bd2) {
            continue;
        }
        let d = d2.sqrt();
        if best.is_none_or(|(_, bd, _)| d < bd) {
            best = Some((i, d, d2));
        }
    }
    best.map(|(i, d, _)| (i, d))
}

/// Indices of the points within `radius` of `p` (inclusive, with a 1e-3 tolerance).
pub fn within<I: IntoIterator<Item = (usize, Pos)>>(p: Pos, radius: f32, points: I) -> impl Iterator<Item = usize> {
    points.into_iter().filter(move |(_, q)| p.dist(*q) <= radius + 1e-3).map(|(i, _)| i)
}

/// Where `n` figures stand along a line centred on 0 with `spacing` between neighbours (in the
/// table's unit, inches or cm): `(k - (n - 1) / 2) · spacing` for k = 0..n, in that order.
pub fn line_offsets(n: u32, spacing: f32) -> impl Iterator<Item = f32> {
    let half = (n as f32 - 1.0) / 2.0;
    (0..n).map(move |k| (k as f32 - half) * spacing)
}

/// The deployment zone of `side` (0: near y = 0, 1: near y = depth) as a y range.
pub fn deployment_band(table: &Table, side: usize, zone_depth: f32) -> (f32, f32) {
    if side == 0 { (EDGE_MARGIN, zone_depth) } else { (table.depth - zone_depth, table.depth - EDGE_MARGIN) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::FastDice;

    fn wall(x0: f32, x1: f32, y: f32) -> Wall {
        Wall { a: Pos::new(x0, y), b: Pos::new(x1, y), intact: true }
    }

    #[test]
    fn crossing_and_distance_to_a_wall() {
        let w = wall(10.0, 16.0, 18.0);
        assert!(w.crosses(Pos::new(13.0, 17.0), Pos::new(13.0, 30.0)));
        assert!(!w.crosses(Pos::new(13.0, 17.0), Pos::new(20.0, 17.5)));
        assert!((w.dist_to(Pos::new(13.0, 17.0)) - 1.0).abs() < 1e-6);
        assert!((w.dist_to(Pos::new(19.0, 22.0)) - 5.0).abs() < 1e-6);
        let s = w.spot_behind(0.5, 0.75, Pos::new(13.0, 30.0));
        assert!((s.y - 17.25).abs() < 1e-6 && (s.x - 13.0).abs() < 1e-6);
    }

    #[test]
    fn movement_stops_at_edges_and_goes_around_walls() {
        let mut t = Table::new(60.0, 36.0);
        let p = t.move_toward(Pos::new(2.0, 2.0), Pos::new(-10.0, 2.0), 6.0);
        assert_eq!(p, Pos::new(EDGE_MARGIN, 2.0));
        t.walls.push(wall(10.0, 16.0, 18.0));
        let from = Pos::new(13.0, 14.0);
        let (end, corner) = t.move_path(from, Pos::new(13.0, 30.0), 10.0);
        let corner = corner.expect("goes round the wall");
        assert!(t.wall_across(from, corner).is_none() && t.wall_across(corner, end).is_none());
        assert!((from.dist(corner) + corner.dist(end) - 10.0).abs() < 1e-3, "uses the whole move: {end:?}");
        assert!(end.y > 18.0, "ends beyond the wall: {end:?}");
        // A destroyed wall no longer stops anything.
        t.walls[0].intact = false;
        assert_eq!(t.move_toward(from, Pos::new(13.0, 30.0), 10.0), Pos::new(13.0, 24.0));
    }

    #[test]
    fn terrain_is_placed_from_the_seed_inside_the_middle_band() {
        let plan = TerrainPlan {
            cover_pieces: 5,
            cover_length: 6.0,
            rough_areas: 2,
            dangerous_areas: 1,
            area_radius: 3.0,
            keep_out: 12.0,
        };
        let mut a = Table::new(60.0, 36.0);
        let mut b = Table::new(60.0, 36.0);
        a.place_terrain(&plan, &mut FastDice::from_seed(7));
        b.place_terrain(&plan, &mut FastDice::from_seed(7));
        assert_eq!(a, b);
        assert_eq!(a.walls.len(), 5);
        assert_eq!(a.areas.len(), 3);
        for w in &a.walls {
            assert!(w.a.y > 12.0 && w.a.y < 24.0 && w.a.x >= 0.0 && w.b.x <= 60.0);
        }
    }

    #[test]
    fn line_of_sight_is_blocked_only_by_intact_walls_that_block() {
        let mut t = Table::new(60.0, 36.0);
        t.walls.push(wall(10.0, 16.0, 18.0));
        let (p, q) = (Pos::new(13.0, 10.0), Pos::new(13.0, 26.0));
        assert!(t.line_of_sight(p, q, false), "shooting over cover");
        assert!(!t.line_of_sight(p, q, true));
        assert!(t.line_of_sight(p, Pos::new(30.0, 26.0), true), "a line past the wall's end");
        t.walls[0].intact = false;
        assert!(t.line_of_sight(p, q, true));
    }

    #[test]
    fn nearest_and_within() {
        let pts = [(0, Pos::new(0.0, 0.0)), (1, Pos::new(3.0, 4.0)), (2, Pos::new(1.0, 1.0))];
        assert_eq!(nearest(Pos::new(3.0, 3.0), pts).unwrap().0, 1);
        let mut w: Vec<_> = within(Pos::new(0.0, 0.0), 5.0, pts).collect();
        w.sort();
        assert_eq!(w, vec![0, 1, 2]);
        assert_eq!(within(Pos::new(0.0, 0.0), 1.5, pts).count(), 2);
    }
}
