//! The army limits (AMC 2.0, "The Armies"): 300 points, up to half of them vehicles, at most
//! three units of Gunners, Snipers or Heavy Weapons ("Supports") in any combination.
//!
//! The mission ([`super`]) checks army files with [`ArmyLimits::check`] and builds
//! random armies that keep the same limits. Points-matched duel squads keep them through
//! [`ArmyLimits::squad_limit`] (RULINGS.md, "Limited in points-matched squads").

use serde::{Deserialize, Serialize};

use crate::config::{Ends, Invalid, in_range};
use crate::rulesets::amc::{Kind, Profile};

/// The `[army]` table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmyLimits {
    /// Points per army (300).
    pub points: f64,
    /// Largest share of the points spent on vehicles (0.5).
    pub vehicle_share: f64,
    /// Most units of Gunners, Snipers or Heavy Weapons together (3).
    pub max_support: u32,
}

impl ArmyLimits {
    /// Checks ranges; the error names the `[army]` key.
    pub fn validate(&self) -> Result<(), Invalid> {
        in_range("army.points", self.points, 10.0, 10_000.0, Ends::Both, " points")?;
        in_range("army.vehicle_share", self.vehicle_share, 0.0, 1.0, Ends::Both, "")?;
        in_range("army.max_support", self.max_support, 0, 100, Ends::Both, "")
    }

    /// Checks an army given as `(entry name, profile)` per unit; returns its points, or a
    /// message naming the limit broken and by how much.
    pub fn check(&self, army: &[(&str, &Profile)]) -> Result<f64, String> {
        let total: f64 = army.iter().map(|u| u.1.cost).sum();
        if total > self.points + 1e-9 {
            return Err(format!("the army costs {total} points, more than the {} allowed", self.points));
        }
        let vehicles: f64 = army.iter().filter(|u| u.1.kind == Kind::Vehicle).map(|u| u.1.cost).sum();
        if vehicles > self.vehicle_share * self.points + 1e-9 {
            return Err(format!(
                "vehicles cost {vehicles} points, more than {} (up to half of the {} points)",
                self.vehicle_share * self.points,
                self.points
            ));
        }
        let support: Vec<&str> = army.iter().filter(|u| u.1.support).map(|u| u.0).collect();
        if support.len() as u32 > self.max_support {
            return Err(format!(
                "{} units of Gunners, Snipers or Heavy Weapons ({}); at most {} allowed",
                support.len(),
                support.join(", "),
                self.max_support
            ));
        }
        Ok(total)
    }

    /// The most copies of an entry `p` a points-matched squad of `budget` points may hold, or
    /// `None` when the army limits do not bind below what `budget` buys (AMC 2.0, "The
    /// Armies"). A squad stands in for part of one army of `points` (300), so the limits of that
    /// one army hold whatever the budget:
    /// - Gunners, Snipers and Heavy Weapons ("Supports"): at most `max_support` (3) units, so
    ///   Snipers (1) at 150 points field 3 units (30 points), never 15.
    /// - Vehicles: at most `vehicle_share × points` (150) points of vehicles, i.e.
    ///   ⌊150 / cost⌋ copies, only when `budget` exceeds those 150 points: at the shipped
    ///   budget (150) the share never binds. An entry that alone costs more than the share (an
    ///   upgraded Tank, 160–200) fits no legal army at all: that is the lint's finding
    ///   ([`crate::rulesets::amc::coverage::lint`]), not a squad of 0, so it gets `None` here.
    pub fn squad_limit(&self, p: &Profile, budget: f64) -> Option<u32> {
        if p.support {
            return Some(self.max_support);
        }
        let share = self.vehicle_share * self.points;
        if p.kind == Kind::Vehicle && budget > share + 1e-9 {
            let n = (share / p.cost + 1e-9).floor() as u32;
            return (n >= 1).then_some(n);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use crate::rulesets::amc::testing::amc;

    #[test]
    fn the_army_limits_of_the_rulebook() {
        let r = amc(&[]);
        let p = |n: &'static str| (n, &r.profiles[r.find(n)]);
        // 150 tank + 150 of riflemen: legal, exactly half vehicles.
        let ok = [p("Tank"), p("Riflemen (10)"), p("Riflemen (10)"), p("Riflemen (10)")];
        assert_eq!(r.army.check(&ok), Ok(300.0));
        // Tank + Jeep = 190 points of vehicles: more than half.
        let e = r.army.check(&[p("Tank"), p("Jeep"), p("Riflemen (5)")]).unwrap_err();
        assert!(e.contains("vehicles cost 190"), "{e}");
        // Four support units.
        let e =
            r.army.check(&[p("Gunners (1)"), p("Snipers (1)"), p("Heavy Weapons (1)"), p("Gunners (1)")]).unwrap_err();
        assert!(e.contains("4 units of Gunners"), "{e}");
        // Over 300 points.
        let e = r
            .army
            .check(&[p("Veterans (10)"), p("Veterans (10)"), p("Veterans (10)"), p("Veterans (10)")])
            .unwrap_err();
        assert!(e.contains("320 points"), "{e}");
    }
}
