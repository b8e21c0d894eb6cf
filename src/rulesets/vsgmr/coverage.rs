//! The rules-coverage table of VSGMR v7: every rule of the rulebook, how pointsworth models it.
//! Printed in the report and by `pointsworth rules vsgmr`.

use crate::rulesets::{Coverage, CoverageRow};

/// Every rule of the rulebook with its status in duels (open ground, lines of figures).
pub fn table() -> Vec<CoverageRow> {
    use Coverage::*;
    let rows: &[(&str, &str, Coverage, &str)] = &[
        ("Figure types: guys (troop, hero), cavalry, vehicles", "I, IV", Modeled, ""),
        (
            "Initiative: d6 each, highest chooses, ties re-roll",
            "II.1",
            Modeled,
            "the winner goes first; round 1 alternates between trials (fair) when neither side has a Super-Move bonus, else it is rolled; later rounds roll",
        ),
        ("Round: movement, distance attacks, hand to hand, in player order", "II", Modeled, "sequence = \"phased\""),
        ("Everyone Acts (alternate single figures)", "II, optional", Modeled, "sequence = \"everyone_acts\""),
        ("Skill rolls", "II.5", NotModeled, "no scenario objectives in duels; Super-Skill therefore has no effect"),
        (
            "Movement: guy 6\", cavalry 9\", vehicle 12\"",
            "II.2",
            Simplified,
            "straight toward (or away from) the nearest enemy: hold in range with a distance attack, unless the exchange of attacks in base contact beats the one at range (a shot no die can make good rates 0: a mook charges a Stealth figure); else into base contact (1\"). Who moves first sets the stop: fall back out of a charging foe's reach; charge hand to hand moving first, moving second only if the exchange struck first still favours it (else step out to 2\"); between shooters close moving first so the foe cannot step out of range, moving second step out of an exchange struck first that does not favour it; then any other end within its Move (base contact; for a figure with a useful shot, every whole inch nearer or farther) whose one-round exchange is better: moving second the attacks that follow (distance before hand to hand, so a shooter charged by a figure fighting hand to hand steps into contact and shoots first), moving first those after the foe's reply by the same rule",
        ),
        (
            "Rough terrain: Half Move Unit",
            "II.2",
            NotModeled,
            "duels are fought on open ground; the Skirmish's terrain is walls, no rough ground",
        ),
        (
            "Walls and fences cannot be moved through",
            "II.2, V",
            Simplified,
            "Skirmish: a figure's own move goes round the nearer end of a wall in its path; Flight passes over; duels have no walls. Not checked against walls: pushes (Knockback, Cause Fear) and the Summon placement",
        ),
        (
            "Anything that moves off the playing surface cannot return",
            "II.2",
            Modeled,
            "Skirmish: a figure knocked back or frightened off the table is out of the game and counts as destroyed for the victory; duels: a figure falling back stops at the edge of the 48\" duel table (RULINGS.md, Duel table depth), pushes ignore it",
        ),
        (
            "No figure ends a move in the same space as another",
            "X",
            Simplified,
            "bases 1\" across: a figure whose end point is taken takes another spot as near the target within its move (15° steps round it), else stops short; pushes (knockback, fear) and Summon are not checked",
        ),
        (
            "Riders and drivers; cavalry and vehicles move only with one",
            "II.2, III",
            Simplified,
            "Skirmish: the sample armies' riders and drivers start mounted (config `rides`), one per mount; the pair stands in one place and moves at the mount's Move by the shared tactic (wanted_gap, the pair closed on or fled from as its mount), the mount attacks, the rider does not and is covered (6+ to hit); shots at the pair go to whichever is likelier to fall; a destroyed mount's rider is dropped where it stood and fights on foot. The default tactic steps a rider off (1\" aside, the mount left riderless and inert) when the nearest enemy is within reach of its own attack and its one-round exchange on foot beats its mount's; never off a mount in flight; it never remounts; a rider knocked back falls off; a disabled mount's rider stays aboard (the book lets it act); passengers and the larger mounts' second guy are not modeled. Duels and random armies: templates of cavalry and vehicles must be Independent",
        ),
        ("Distance attack: 12\", d6 + bonuses >= 5; hero and vehicle +1", "II.3", Modeled, ""),
        ("Line of sight", "II.3", Simplified, "always clear in duels (RULINGS.md)"),
        (
            "Cover: 6+ to hit",
            "II.3",
            Simplified,
            "duels: open ground, only Stealth gives cover; Skirmish: a target is at least half covered when the line of fire crosses a cover piece (low wall) within 1\" of it, and a mounted rider or driver is always covered; figures do not seek cover",
        ),
        ("Armor rolls: light 6+, heavy 4+; vehicles +1", "II.3", Modeled, ""),
        ("Automatic fire: two dice, keep the higher", "II.3", Modeled, ""),
        (
            "Hand to hand: base contact, 4+; hero and vehicle +1; never in cover",
            "II.4",
            Modeled,
            "a figure with a distance attack in contact uses the attack likelier to defeat its target",
        ),
        ("One attack per figure per round", "II.3, II.4", Modeled, ""),
        ("One hit defeats; casualties immediate", "III", Modeled, ""),
        ("Buildings and terrain hit and destroyed", "III", NotModeled, "no terrain in duels"),
        ("Points formula", "IV", Modeled, "every figure priced from its attributes; the cost audit checks section VII"),
        (
            "Commander: heavy armor free for a hero",
            "IV",
            Modeled,
            "sample armies name theirs; a random Skirmish army names a hero Commander first (drawn among the hero templates)",
        ),
        ("Mooks: 1/2 point, -1 to every roll", "IV, optional", Modeled, ""),
        (
            "Area Effect Attack",
            "V",
            Modeled,
            "a hit allows a second and a third distance attack: the same target if standing, else the nearest enemy within a Half Move Unit of it",
        ),
        (
            "Cause Fear",
            "V",
            Modeled,
            "an attack rolling 1 or 2 fails and the attacker moves 1 Move Unit away; vehicles are never afraid",
        ),
        ("Combat Master (+1, heroes and vehicles +2)", "V", Modeled, ""),
        (
            "Disable",
            "V",
            Modeled,
            "used by a figure that cannot attack this round on the nearest enemy within its Distance Attack Unit (12\", Sniper 24\"; d6 >= 4), not a mounted rider",
        ),
        ("Double Strike", "V", Modeled, "a hand-to-hand hit allows a second hand-to-hand attack"),
        (
            "Flight",
            "V",
            Simplified,
            "a flier with a distance attack stays in flight (no hand to hand either way); without one it lands; it passes over the Skirmish's walls",
        ),
        ("Ignores Armor: two armor rolls", "V", Modeled, ""),
        ("Independent", "V", Modeled, "lets cavalry and vehicles move and attack"),
        (
            "Inspiration",
            "V",
            Simplified,
            "skill rolls (Disable, Summon, Recruit) are not rerolled; \"on your turn\": the side rerolls its first failed attack roll each round while the bearer stands, or an armor roll made on its own turn (against a Revenge attack); never an armor roll against an enemy's attack, which is the enemy's turn (RULINGS.md)",
        ),
        ("Recruit (hand to hand, d6 >= 5)", "V", Modeled, "the recruit acts from the next round"),
        (
            "Revenge",
            "V",
            Modeled,
            "one last attack at the figure that defeated it, if possible; no revenge for a revenge",
        ),
        ("Sharpshooter (+1, heroes and vehicles +2)", "V", Modeled, ""),
        ("Sniper: 24\" Distance Attack Unit", "V", Modeled, ""),
        (
            "Stealth: always in cover (6+), 7+ in cover",
            "V",
            Modeled,
            "no real cover in duels, so 6+; 7+ behind a Skirmish cover piece",
        ),
        (
            "Summon",
            "V",
            Simplified,
            "used by a figure that cannot attack: brings the ally farthest from the enemy (not a mounted rider; a mount brings its rider) to 1\" beside it (d6 >= 5; the spot is not checked against walls, the table edge or other figures); it acts at once if it has not acted, a Scream Queen's only from the next round (section VII)",
        ),
        (
            "Support",
            "V",
            Modeled,
            "+1 to the figure and allies within a Half Move Unit; roll type from the config, default distance attacks (hand to hand without one)",
        ),
        ("Tough (+1 armor, vehicles +2)", "V", Modeled, "no effect without armor (no armor roll)"),
        ("Super-Armor, -Blast, -Fight: d8/d10/d12", "VI", Modeled, ""),
        (
            "Super-Move: extra move, initiative bonus",
            "VI",
            Modeled,
            "the side's best living figure's bonus, from round 1 in duels and the Skirmish",
        ),
        ("Super-Skill", "VI", NotModeled, "skill rolls are not modeled"),
        (
            "Knockback",
            "VI",
            Modeled,
            "pushed straight back a Half Move Unit per point above 7; no table edge in duels; off the Skirmish's table: out of the game",
        ),
        ("Sample armies", "VII", Modeled, "audited against the formula (pointsworth rules vsgmr)"),
        (
            "Scenario: Basic Game: 5 rounds, points-destroyed victory, deployment 2 Move Units apart",
            "VIII",
            Simplified,
            "duels end on elimination (RULINGS.md, Common); the Skirmish (`pointsworth skirmish vsgmr`, report round robin) plays 5 rounds on a 72\" x 48\" table, sides in lines 12\" apart, random cover pieces; more enemy points destroyed wins, recruited figures count as destroyed",
        ),
        (
            "Scenario: Escape",
            "VIII",
            Simplified,
            "`pointsworth skirmish vsgmr --mission escape` (in the report: its win rates, and value in army in \"value per mission\"): the Basic Game's random armies, table and deployment; every figure of a side that can still win (its figures on the table and across are more than half its original number) moves its whole Move straight for the opposite edge (round walls and figures) and leaves the table when its move ends there, attacking as usual; a side that cannot win plays the Basic Game's tactic; the first side with more than half its original figures across wins (the first player's figures leave first); 5 rounds without one: a draw. Guys deployed 6\" from the centre need all 5 Moves to cross",
        ),
        (
            "Scenario: Transport",
            "VIII",
            Simplified,
            "`pointsworth skirmish vsgmr --mission transport` (in the report: its win rates, and value in army in \"value per mission\"): the Basic Game's random armies, table and deployment, the object at the table's centre. A figure ending a goal move within base contact (1\") of the free object picks it up; it moves with its carrier and falls where the carrier is defeated (knocked off the table: at the edge); a carrier reaching its own edge leaves the table and its side wins; 5 rounds: a draw. While it lies free each side sends its figure with the fewest Moves to it; the carrier goes straight for its own edge; every figure of the other side chases the carrier (to its approach stop) and shoots it before any nearer enemy; the carrier's other figures play the Basic Game's tactic (no escorting)",
        ),
        (
            "Scenario: Spawning",
            "VIII",
            Simplified,
            "`pointsworth skirmish vsgmr --mission spawning` (in the report: its win rates, side A's fair points, and value in army in \"value per mission\"): random armies of 25-40 points a side (\"25 to 40 points per player suggested\"; the fair points are the Infiltrators' whole points against Spawners of 25-40, since the Spawners' score falls as their points rise), side A the Infiltrators on the Basic Game's line, side B the Spawners with only their costliest figure on their line's centre, the rest waiting costliest first. Each round after initiative (before the first player moves, not at the Spawners' own turn) while figures wait: d6 1 the Infiltrators' edge, 2 the Spawners' right (x = 0), 3 their own edge, 4 their left, 5 their choice, 6 none; the figure (with its rider) enters within 1 Move Unit of that edge at the spot nearest an enemy figure (on a 5 the edge where that is nearest), 1.5\" steps along the edge off another figure's space, and moves and attacks that round. The book names no victory: the Basic Game's, more enemy points destroyed after 5 rounds (figures never spawned are not destroyed)",
        ),
        (
            "Scenario: Ambush",
            "VIII",
            Simplified,
            "`pointsworth skirmish vsgmr --mission ambush` (in the report: its win rates and side A's fair points): random armies of 25 points (side A, Ambushers) and 40 (side B, Targets); the 6 cover pieces stand tangent on a ring 12\" round the table's centre, turned from the seed; Ambushers 1/2\" behind them (three to a piece, the rest 2\" further back, uncovered), Targets in a square grid 2\" apart at the centre; Ambushers +1 to initiative rolls. An Ambusher with a distance attack whose nearest enemy is in range and that is covered from it holds its place; otherwise both sides play the Basic Game's tactic. To the last figure (\"the game ends when all Ambusher figures or all Target figures are killed\"), at most 20 rounds, then a draw",
        ),
        (
            "Scenario: Fortress Assault",
            "VIII",
            Simplified,
            "`pointsworth skirmish vsgmr --mission fortress-assault` (in the report: its win rates and side A's fair points): random armies of 20 points (side A, Assaulters) and 40 (side B, Defenders); the building is a 6\" x 6\" block at the centre of the Defenders' half and the table's only terrain, its sides walls (they stop movement and give cover; sight is never blocked); Defenders on rings 1.5\" and 3\" round it, front first; Assaulters in a line 12\" in front of it. Attack rolls at it hit as at a figure in cover, no armor roll (shot 6+, hand to hand 4+; Area Effect Attack and Double Strike roll again after a hit); 2 hits destroy it: Assaulters win; every Assaulter defeated: Defenders win; 5 rounds: a draw. Assaulters move toward its nearest point with the attack likelier to hit it (hand to hand: into base contact) and attack it whenever they can; Defenders screen it: each goes for the Assaulter nearest the building (to where it would attack it from) and shoots that one first, attacking as in the Basic Game. Sight is never blocked, so a screen stops hand-to-hand Assaulters, not shots",
        ),
        ("Miniatures for every scale, measuring with the paper", "IX, X", NotModeled, "inches of section II only"),
        ("Solo VSGMR", "XI", NotModeled, "two-player games only"),
    ];
    rows.iter()
        .map(|&(rule, source, status, note)| CoverageRow {
            rule: rule.to_string(),
            source: format!("VSGMR v7, {source}"),
            status,
            note: note.to_string(),
        })
        .collect()
}
