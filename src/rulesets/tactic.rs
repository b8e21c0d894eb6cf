//! Tactics: the plans a player would name, one file each behind a ruleset's `Tactic` trait.
//!
//! Every ruleset folder keeps its tactics in `tactics/`: `tactics/mod.rs` defines the
//! ruleset's `Tactic` trait (the decisions in which its tactics differ; the rest of a turn is
//! the ruleset's shared doctrine) and names its tactics in one [`portfolio!`] line, the default
//! first; each tactic is one file `tactics/NAME.rs` with a unit struct, its `impl Tactic` and
//! its `pub const ENTRY: Entry<dyn Tactic>` (name, description, the tactic). **Adding a tactic
//! is one file and one line**: write `tactics/NAME.rs` and add `NAME` to the `portfolio!` line.
//! The skirmish's tactic list (`--tactic`, the report's tactic tables, the help) is derived
//! from the portfolio by [`infos`], so nothing else names a tactic. (The same shape as
//! rs-poker's one file per agent behind one `Agent` trait.)
//!
//! Why a trait per ruleset and not one for all five: what a tactic decides is the ruleset's
//! (Guns 'N Grenades asks whether a unit waits where it stands, The Grunt Factor how a squad
//! moves, Army Men Combat which attack a unit makes); the shape around it is shared here.
//!
//! Layer: rulesets; imports only [`crate::rulesets::skirmish::TacticInfo`].

use crate::rulesets::skirmish::TacticInfo;

/// One tactic of a ruleset's portfolio: its name and description (what `--tactic` takes and
/// the report prints) and the tactic itself (`T` is the ruleset's `dyn Tactic`).
pub struct Entry<T: ?Sized + 'static> {
    pub info: TacticInfo,
    pub tactic: &'static T,
}

impl<T: ?Sized> Clone for Entry<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: ?Sized> Copy for Entry<T> {}

/// The names and descriptions of a portfolio's `N` tactics, in its order: a `const fn` so that
/// a ruleset's `Skirmish::TACTICS` is computed from its portfolio at compile time.
///
/// Panics (at compile time, in a `const`) if `N` is not the portfolio's length.
pub const fn infos<T: ?Sized, const N: usize>(portfolio: &[Entry<T>]) -> [TacticInfo; N] {
    assert!(portfolio.len() == N, "the portfolio's length");
    let mut out = [TacticInfo { name: "", description: "" }; N];
    let mut k = 0;
    while k < N {
        out[k] = portfolio[k].info;
        k += 1;
    }
    out
}

/// A tactic of a portfolio as a game holds it: its place in the portfolio (so that its name
/// and its decisions are one lookup away, and two picks compare by place, not by address).
pub struct Pick<T: ?Sized + 'static> {
    portfolio: &'static [Entry<T>],
    index: usize,
}

impl<T: ?Sized> Clone for Pick<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: ?Sized> Copy for Pick<T> {}

impl<T: ?Sized> PartialEq for Pick<T> {
    fn eq(&self, other: &Self) -> bool {
        self.index == other.index && std::ptr::eq(self.portfolio, other.portfolio)
    }
}

impl<T: ?Sized> Eq for Pick<T> {}

impl<T: ?Sized> std::fmt::Debug for Pick<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Pick({})", self.name())
    }
}

impl<T: ?Sized> Pick<T> {
    /// The `index`-th tactic of `portfolio`. Panics if `index` is out of range (callers index
    /// the tactic list the portfolio gives, [`infos`]).
    pub fn of(portfolio: &'static [Entry<T>], index: usize) -> Self {
        assert!(index < portfolio.len(), "tactic {index} of {}", portfolio.len());
        Pick { portfolio, index }
    }

    /// The tactic of `portfolio` named `name`, if any.
    pub fn named(portfolio: &'static [Entry<T>], name: &str) -> Option<Self> {
        portfolio.iter().position(|e| e.info.name == name).map(|index| Pick { portfolio, index })
    }

    /// The tactic, to ask its decisions.
    pub fn tactic(self) -> &'static T {
        self.portfolio[self.index].tactic
    }

    /// Its name, as `--tactic` takes it.
    pub fn name(self) -> &'static str {
        self.portfolio[self.index].info.name
    }

    /// Its place in the portfolio (the index of the skirmish's tactic list).
    pub fn index(self) -> usize {
        self.index
    }
}

/// A ruleset's portfolio, in its `tactics/mod.rs` beside its `Tactic` trait:
/// `portfolio!(advance, cautious);` declares the modules `advance.rs` and `cautious.rs` (each
/// with its `ENTRY`) and defines, in that order, the default first:
/// - `PORTFOLIO: &[Entry<dyn Tactic>]`, the tactics;
/// - `TACTICS: [TacticInfo; N]`, their names and descriptions ([`infos`]; what the ruleset's
///   `Skirmish::TACTICS` is);
/// - `Pick`, a tactic as a game holds it, with `pick(k)` (the `k`-th; panics out of range) and
///   `by_name(name)`.
macro_rules! portfolio {
    ($($tactic:ident),+ $(,)?) => {
        $(mod $tactic;)+

        /// The tactics, the default first (the order of `--tactic`'s list and the report's
        /// tables).
        pub const PORTFOLIO: &[$crate::rulesets::tactic::Entry<dyn Tactic>] = &[$($tactic::ENTRY),+];

        /// The portfolio's names and descriptions (the skirmish's `TACTICS`).
        pub const TACTICS: [$crate::rulesets::skirmish::TacticInfo; PORTFOLIO.len()] =
            $crate::rulesets::tactic::infos(PORTFOLIO);

        /// A tactic as a game holds it.
        pub type Pick = $crate::rulesets::tactic::Pick<dyn Tactic>;

        /// The `k`-th tactic of the [`PORTFOLIO`]. Panics if `k` is out of range (callers
        /// index [`TACTICS`]).
        #[allow(dead_code)]
        pub fn pick(k: usize) -> Pick {
            Pick::of(PORTFOLIO, k)
        }

        /// The tactic named `name` (as [`TACTICS`] names it), if any.
        #[allow(dead_code)]
        pub fn by_name(name: &str) -> Option<Pick> {
            Pick::named(PORTFOLIO, name)
        }
    };
}
pub(crate) use portfolio;

#[cfg(test)]
mod tests {
    use super::*;

    trait Toy: Sync {
        fn bold(&self) -> bool;
    }
    struct Bold;
    impl Toy for Bold {
        fn bold(&self) -> bool {
            true
        }
    }
    struct Shy;
    impl Toy for Shy {
        fn bold(&self) -> bool {
            false
        }
    }
    const PORTFOLIO: &[Entry<dyn Toy>] = &[
        Entry { info: TacticInfo { name: "bold", description: "goes" }, tactic: &Bold },
        Entry { info: TacticInfo { name: "shy", description: "stays" }, tactic: &Shy },
    ];
    const INFOS: [TacticInfo; PORTFOLIO.len()] = infos(PORTFOLIO);

    #[test]
    fn the_tactic_list_is_the_portfolio_in_order_and_a_pick_finds_its_tactic_and_name() {
        assert_eq!(INFOS.map(|i| i.name), ["bold", "shy"]);
        assert_eq!(INFOS[1].description, "stays");
        let (bold, shy) = (Pick::named(PORTFOLIO, "bold").expect("listed"), Pick::of(PORTFOLIO, 1));
        assert!(bold.tactic().bold() && !shy.tactic().bold());
        assert_eq!((bold.name(), shy.name(), shy.index()), ("bold", "shy", 1));
        assert_eq!(Pick::named(PORTFOLIO, "shy"), Some(shy));
        assert_ne!(bold, shy);
        assert!(Pick::named(PORTFOLIO, "brave").is_none());
        assert_eq!(format!("{shy:?}"), "Pick(shy)");
    }
}
