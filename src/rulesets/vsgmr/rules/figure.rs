//! VSGMR figures: the attributes a figure is bought with, and the points formula that prices it
//! (section IV "Figure Point Values", V "Traits", VI "Super Powers").
//!
//! Why a formula and not a list: VSGMR prints no cost list. Every figure's cost follows from its
//! attributes, so pointsworth prices templates and sample-army figures with [`Figure::price`]
//! and the cost audit compares that price with the book's printed points.

use serde::{Deserialize, Serialize};

/// The figure types and guy "flavors" (sections I, IV).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Troop guy: 1 point.
    Troop,
    /// Hero guy: 2 points, +1 to distance and hand-to-hand attack rolls.
    Hero,
    /// Mook (optional rule): ½ point, −1 to every die roll.
    Mook,
    /// Cavalry: 2 points, light armor free, moves 9" only with a rider.
    Cavalry,
    /// Vehicle: 3 points, light armor free, +1 to attacks and armor rolls, moves 12" only with a driver.
    Vehicle,
}

impl Kind {
    pub const NAMES: [&'static str; 5] = ["troop", "hero", "mook", "cavalry", "vehicle"];

    pub fn is_guy(self) -> bool {
        matches!(self, Kind::Troop | Kind::Hero | Kind::Mook)
    }

    /// Base cost in points (section IV).
    pub fn base_cost(self) -> f64 {
        match self {
            Kind::Troop => 1.0,
            Kind::Hero => 2.0,
            Kind::Mook => 0.5,
            Kind::Cavalry => 2.0,
            Kind::Vehicle => 3.0,
        }
    }

    /// One Move Unit in inches: guy 6", cavalry 9", vehicle 12" (section II.2).
    pub fn move_unit(self) -> f32 {
        match self {
            Kind::Cavalry => 9.0,
            Kind::Vehicle => 12.0,
            _ => 6.0,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Kind::Troop => "troop guy",
            Kind::Hero => "hero guy",
            Kind::Mook => "mook",
            Kind::Cavalry => "cavalry",
            Kind::Vehicle => "vehicle",
        }
    }
}

/// Armor (section II.3 "Armor").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Armor {
    #[default]
    None,
    /// The hit becomes a miss on 6 or more.
    Light,
    /// The hit becomes a miss on 4 or more.
    Heavy,
}

/// The seventeen traits of section V, in the book's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Trait {
    AreaEffectAttack,
    CauseFear,
    CombatMaster,
    Disable,
    DoubleStrike,
    Flight,
    IgnoresArmor,
    Independent,
    Inspiration,
    Recruit,
    Revenge,
    Sharpshooter,
    Sniper,
    Stealth,
    Summon,
    Support,
    Tough,
}

impl Trait {
    pub const ALL: [Trait; 17] = [
        Trait::AreaEffectAttack,
        Trait::CauseFear,
        Trait::CombatMaster,
        Trait::Disable,
        Trait::DoubleStrike,
        Trait::Flight,
        Trait::IgnoresArmor,
        Trait::Independent,
        Trait::Inspiration,
        Trait::Recruit,
        Trait::Revenge,
        Trait::Sharpshooter,
        Trait::Sniper,
        Trait::Stealth,
        Trait::Summon,
        Trait::Support,
        Trait::Tough,
    ];

    /// The rulebook's name, e.g. "Area Effect Attack".
    pub fn name(self) -> &'static str {
        match self {
            Trait::AreaEffectAttack => "Area Effect Attack",
            Trait::CauseFear => "Cause Fear",
            Trait::CombatMaster => "Combat Master",
            Trait::Disable => "Disable",
            Trait::DoubleStrike => "Double Strike",
            Trait::Flight => "Flight",
            Trait::IgnoresArmor => "Ignores Armor",
            Trait::Independent => "Independent",
            Trait::Inspiration => "Inspiration",
            Trait::Recruit => "Recruit",
            Trait::Revenge => "Revenge",
            Trait::Sharpshooter => "Sharpshooter",
            Trait::Sniper => "Sniper",
            Trait::Stealth => "Stealth",
            Trait::Summon => "Summon",
            Trait::Support => "Support",
            Trait::Tough => "Tough",
        }
    }

    pub fn bit(self) -> u32 {
        1 << (self as u32)
    }

    /// Finds a trait by name, case- and space-insensitively.
    pub fn parse(name: &str) -> Option<Trait> {
        let want = crate::config::id_of(name);
        Trait::ALL.into_iter().find(|t| crate::config::id_of(t.name()) == want)
    }
}

/// The five super powers of section VI.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Power {
    SuperArmor,
    SuperBlast,
    SuperFight,
    SuperMove,
    SuperSkill,
}

impl Power {
    pub const ALL: [Power; 5] =
        [Power::SuperArmor, Power::SuperBlast, Power::SuperFight, Power::SuperMove, Power::SuperSkill];

    pub fn name(self) -> &'static str {
        match self {
            Power::SuperArmor => "Super-Armor",
            Power::SuperBlast => "Super-Blast",
            Power::SuperFight => "Super-Fight",
            Power::SuperMove => "Super-Move",
            Power::SuperSkill => "Super-Skill",
        }
    }

    /// Points for a level 1 (Minor), 2 (Major) or 3 (Superior) (section VI).
    pub fn price(self, level: u8) -> f64 {
        let base = match self {
            Power::SuperArmor => 2.0,
            Power::SuperBlast | Power::SuperFight | Power::SuperMove => 1.0,
            Power::SuperSkill => 0.0,
        };
        base + level as f64
    }
}

/// "Minor", "Major", "Superior".
pub const LEVELS: [&str; 3] = ["Minor", "Major", "Superior"];

/// Parses "Minor Super-Blast" into (power, level 1..=3).
pub fn parse_power(text: &str) -> Option<(Power, u8)> {
    let id = crate::config::id_of(text);
    for (l, level) in LEVELS.iter().enumerate() {
        for p in Power::ALL {
            if id == crate::config::id_of(&format!("{level} {}", p.name())) {
                return Some((p, l as u8 + 1));
            }
        }
    }
    None
}

/// A figure as bought: everything the points formula and the rules read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Figure {
    pub kind: Kind,
    pub distance_attack: bool,
    pub armor: Armor,
    pub automatic_fire: bool,
    /// The army's Commander: a hero commander has heavy armor for free (section IV).
    pub commander: bool,
    /// Bit set of [`Trait`]s.
    pub traits: u32,
    /// Super power levels, 0 (none) to 3 (Superior), indexed by [`Power`].
    pub powers: [u8; 5],
    /// The roll type a Support figure boosts (section V "Support"): "distance", "hand_to_hand",
    /// "armor" or "skill"; `None` lets the default tactic choose (distance attacks if the
    /// figure has them, else hand to hand).
    pub support_roll: Option<SupportRoll>,
    /// A figure this one summons cannot move, attack or act until the next round (the Scream
    /// Queen's note, section VII); other summoned figures act at once (section V "Summon").
    pub summoned_wait: bool,
}

/// The roll types Support can boost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SupportRoll {
    Distance,
    HandToHand,
    Armor,
    Skill,
}

impl Figure {
    /// A bare figure of `kind`: no distance attack, no bought armor, no traits.
    pub fn base(kind: Kind) -> Self {
        Figure {
            kind,
            distance_attack: false,
            armor: Armor::None,
            automatic_fire: false,
            commander: false,
            traits: 0,
            powers: [0; 5],
            support_roll: None,
            summoned_wait: false,
        }
    }

    pub fn has(&self, t: Trait) -> bool {
        self.traits & t.bit() != 0
    }

    pub fn power(&self, p: Power) -> u8 {
        self.powers[p as usize]
    }

    /// The armor the figure fights in: cavalry and vehicles have light armor for free, a hero
    /// Commander heavy armor (section IV).
    pub fn effective_armor(&self) -> Armor {
        let free = match self.kind {
            Kind::Cavalry | Kind::Vehicle => Armor::Light,
            Kind::Hero if self.commander => Armor::Heavy,
            _ => Armor::None,
        };
        self.armor.max(free)
    }

    /// Points by the formula of section IV–VI: troop 1, hero 2, mook ½, cavalry 2, vehicle 3;
    /// distance attack +1; automatic fire +1; armor +1 light / +2 heavy for guys, heavy +1 for
    /// cavalry and vehicles (light free), and free heavy armor for a hero Commander; +2 per trait;
    /// super powers as priced.
    pub fn price(&self) -> f64 {
        let mut p = self.kind.base_cost();
        p += self.distance_attack as u8 as f64 + self.automatic_fire as u8 as f64;
        let free = match self.kind {
            Kind::Cavalry | Kind::Vehicle => Armor::Light,
            Kind::Hero if self.commander => Armor::Heavy,
            _ => Armor::None,
        };
        let armor_points = |a: Armor| match (self.kind.is_guy(), a) {
            (_, Armor::None) => 0.0,
            (true, Armor::Light) => 1.0,
            (true, Armor::Heavy) => 2.0,
            (false, Armor::Light) => 0.0,
            (false, Armor::Heavy) => 1.0,
        };
        if self.armor > free {
            p += armor_points(self.armor) - armor_points(free);
        }
        p += 2.0 * self.traits.count_ones() as f64;
        for power in Power::ALL {
            let l = self.power(power);
            if l > 0 {
                p += power.price(l);
            }
        }
        p
    }

    /// "Commander, Distance attack, Sharpshooter trait"-style description.
    pub fn describe(&self) -> String {
        let mut parts = vec![if self.commander { "Commander".to_string() } else { self.kind.label().to_string() }];
        match self.armor {
            Armor::Light => parts.push("Light Armor".into()),
            Armor::Heavy => parts.push("Heavy Armor".into()),
            Armor::None => {}
        }
        if self.distance_attack {
            parts.push("Distance attack".into());
        }
        if self.automatic_fire {
            parts.push("Automatic Fire".into());
        }
        for t in Trait::ALL {
            if self.has(t) {
                parts.push(t.name().to_string());
            }
        }
        for p in Power::ALL {
            let l = self.power(p);
            if l > 0 {
                parts.push(format!("{} {}", LEVELS[l as usize - 1], p.name()));
            }
        }
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_formula_prices_the_books_examples() {
        let mut f = Figure::base(Kind::Hero);
        f.commander = true;
        f.distance_attack = true;
        f.traits = Trait::Sharpshooter.bit() | Trait::Support.bit();
        assert_eq!(f.price(), 7.0, "Elf Mage");
        assert_eq!(f.effective_armor(), Armor::Heavy);
        let mut heli = Figure::base(Kind::Vehicle);
        heli.armor = Armor::Heavy;
        heli.distance_attack = true;
        heli.automatic_fire = true;
        heli.traits = Trait::Flight.bit();
        assert_eq!(heli.price(), 8.0, "Helicopter");
        let mut mook = Figure::base(Kind::Mook);
        mook.distance_attack = true;
        assert_eq!(mook.price(), 1.5);
        assert_eq!(parse_power("Superior Super-Armor"), Some((Power::SuperArmor, 3)));
        assert_eq!(Power::SuperArmor.price(3), 5.0);
        assert_eq!(Power::SuperSkill.price(1), 1.0);
        assert_eq!(Trait::parse("area effect attack"), Some(Trait::AreaEffectAttack));
        assert_eq!(Trait::parse("Weapon Master"), None);
    }
}
