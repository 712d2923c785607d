//! The search's tunable constants, declared once: name, type, value, the range a tuner may try,
//! and what each does. The way Reckless's `define!` does it, with one difference: a match runs
//! both of its engines in one process, so a changed value belongs to a search
//! ([`EngineOptions::tunables`](super::EngineOptions::tunables)), not to the program.
//!
//! Built as usual, [`Tunables`] holds nothing and each accessor returns its declared constant,
//! which the compiler folds into the search as before. Built with `--features tune`, each search
//! reads the values of its own [`Tunables`], which [`Tunables::set`] changes by name; the arena's
//! engine specs (`engine:late_moves=8`) and the engine protocol's `set tune NAME VALUE` call it,
//! so that an SPRT can test a new value without a rebuild (`docs/engine.md`, "Tunables").

use std::fmt;

/// One tunable, as declared: what a tuner, a spec reader or the docs need to know of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tunable {
    /// Its name in specs, the protocol and `docs/engine.md`'s table.
    pub name: &'static str,
    /// The value the search plays with.
    pub default: i64,
    /// The smallest value it may be set to.
    pub min: i64,
    /// The largest value it may be set to.
    pub max: i64,
    /// What it does, in a line.
    pub what: &'static str,
}

/// A tunable that cannot be set as asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TuneError {
    /// No tunable has this name.
    #[error("`{name}` is not a tunable of the search: expected one of {}", known())]
    Unknown {
        /// The name given.
        name: String,
    },
    /// The value is outside the tunable's range.
    #[error("{name} `{value}`: expected a whole number from {min} to {max}")]
    OutOfRange {
        /// The tunable.
        name: &'static str,
        /// The value given.
        value: String,
        /// Its smallest value.
        min: i64,
        /// Its largest value.
        max: i64,
    },
    /// This build reads the search's constants, not values set at run time.
    #[error(
        "`{name}` is a tunable of the search, set only in a build with the `tune` feature (cargo build --release --features tune)"
    )]
    NotBuilt {
        /// The tunable.
        name: &'static str,
    },
}

/// The tunable called `name`.
fn find(name: &str) -> Result<&'static Tunable, TuneError> {
    TUNABLES
        .iter()
        .find(|t| t.name == name)
        .ok_or_else(|| TuneError::Unknown {
            name: name.to_string(),
        })
}

fn out_of_range(tunable: &Tunable, value: &str) -> TuneError {
    TuneError::OutOfRange {
        name: tunable.name,
        value: value.to_string(),
        min: tunable.min,
        max: tunable.max,
    }
}

fn known() -> String {
    let names: Vec<_> = TUNABLES.iter().map(|t| t.name).collect();
    names.join(", ")
}

/// Declares the tunables: a field (under `tune`) and an accessor each in [`Tunables`], and a row
/// each in [`TUNABLES`].
macro_rules! tunables {
    ($(
        $(#[doc = $doc:literal])+
        $name:ident: $ty:ty = $default:literal, $min:literal..=$max:literal;
    )+) => {
        /// The values one search plays with: without the `tune` feature, the declared constants
        /// (the struct is empty); with it, values a tuner may change ([`Tunables::set`]).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Tunables {
            $(
                #[cfg(feature = "tune")]
                $name: $ty,
            )+
        }

        // Derivable without the `tune` feature (no fields), but one impl serves both builds.
        #[allow(clippy::derivable_impls, reason = "the fields exist only with the tune feature")]
        impl Default for Tunables {
            fn default() -> Tunables {
                Tunables {
                    $(
                        #[cfg(feature = "tune")]
                        $name: $default,
                    )+
                }
            }
        }

        impl Tunables {
            $(
                $(#[doc = $doc])+
                #[inline(always)]
                pub fn $name(&self) -> $ty {
                    #[cfg(feature = "tune")]
                    {
                        self.$name
                    }
                    #[cfg(not(feature = "tune"))]
                    {
                        $default
                    }
                }
            )+

            /// The value of the tunable `name`, widened, or `None` for no tunable of that name.
            pub fn get(&self, name: &str) -> Option<i64> {
                match name {
                    $(stringify!($name) => i64::try_from(self.$name()).ok(),)+
                    _ => None,
                }
            }

            #[cfg(feature = "tune")]
            fn store(&mut self, name: &str, value: i64) {
                match name {
                    $(
                        // In range, checked by `set` against the declared bounds, which fit.
                        stringify!($name) => {
                            self.$name = <$ty>::try_from(value).unwrap_or($default)
                        }
                    )+
                    _ => {}
                }
            }
        }

        /// Every tunable, in the order of `docs/engine.md`'s table.
        pub const TUNABLES: &[Tunable] = &[
            $(
                Tunable {
                    name: stringify!($name),
                    default: $default,
                    min: $min,
                    max: $max,
                    what: concat!($($doc),+),
                },
            )+
        ];
    };
}

tunables! {
    /// Moves of a node put in order by selection before the rest are sorted once.
    picked: usize = 6, 0..=64;
    /// Reverse futility: the most plies left at which a null-window node may be cut.
    futile_depth: i16 = 2, 0..=8;
    /// Reverse futility's margin over beta for each ply left, in hundredths of a square.
    futile_margin: i32 = 150, 0..=2000;
    /// Late-move pruning: the most plies left at which a null-window node stops early.
    late_depth: i16 = 2, 0..=8;
    /// Late-move pruning: moves searched for each ply left, squared (`late_moves · d²`).
    late_moves: usize = 12, 1..=400;
    /// Late-move reductions: the least depth at which a late quiet move is searched shallower.
    reduce_depth: i16 = 3, 2..=16;
    /// Late-move reductions: moves searched in full before the reductions start.
    reduce_after: usize = 3, 1..=64;
    /// Late-move reductions: the least depth at which the later moves lose a second ply.
    reduce_more_depth: i16 = 4, 3..=16;
    /// Late-move reductions: moves searched before the second ply is taken off.
    reduce_more_after: usize = 12, 1..=400;
}

impl Tunables {
    /// Sets the tunable `name` to `value` (a whole number in its range). A build without the
    /// `tune` feature refuses with [`TuneError::NotBuilt`], so a tuner never plays the
    /// constants while believing it changed them.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), TuneError> {
        let tunable = find(name)?;
        let number = value
            .trim()
            .parse::<i64>()
            .map_err(|_| out_of_range(tunable, value))?;
        self.set_number(tunable.name, number)
    }

    /// [`Tunables::set`] with the value as a number.
    pub fn set_number(&mut self, name: &str, value: i64) -> Result<(), TuneError> {
        let tunable = find(name)?;
        if !(tunable.min..=tunable.max).contains(&value) {
            return Err(out_of_range(tunable, &value.to_string()));
        }
        #[cfg(feature = "tune")]
        {
            self.store(tunable.name, value);
            Ok(())
        }
        #[cfg(not(feature = "tune"))]
        {
            Err(TuneError::NotBuilt { name: tunable.name })
        }
    }

    /// Whether a tunable can be set in this build (the `tune` feature).
    pub const fn settable() -> bool {
        cfg!(feature = "tune")
    }

    /// The tunables whose values differ from the declared ones, with their values.
    pub fn changed(&self) -> Vec<(&'static str, i64)> {
        TUNABLES
            .iter()
            .filter_map(|t| {
                let value = self.get(t.name)?;
                (value != t.default).then_some((t.name, value))
            })
            .collect()
    }
}

/// The changed tunables as a spec writes them: `late_moves=8,futile_margin=100`; empty when
/// none changed.
impl fmt::Display for Tunables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (name, value)) in self.changed().into_iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{name}={value}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_declared_values_are_in_their_ranges_and_read_back() {
        let tunables = Tunables::default();
        for t in TUNABLES {
            assert!((t.min..=t.max).contains(&t.default), "{}", t.name);
            assert_eq!(tunables.get(t.name), Some(t.default), "{}", t.name);
        }
        assert!(tunables.changed().is_empty());
        assert_eq!(tunables.to_string(), "");
        assert_eq!(tunables.get("nothing"), None);
    }

    #[test]
    fn set_refuses_what_it_cannot_do_in_words() {
        let mut tunables = Tunables::default();
        let unknown = tunables.set("futility", "3").unwrap_err().to_string();
        assert!(unknown.contains("`futility` is not a tunable"), "{unknown}");
        assert!(unknown.contains("late_moves"), "{unknown}");
        for bad in ["-1", "401", "twelve", "1.5", ""] {
            let refused = tunables.set("late_moves", bad).unwrap_err();
            assert!(
                matches!(refused, TuneError::OutOfRange { .. }),
                "{bad}: {refused}"
            );
            assert!(refused.to_string().contains("from 1 to 400"), "{refused}");
        }
        assert_eq!(tunables, Tunables::default());
    }

    #[test]
    fn set_changes_one_value_in_a_tune_build_and_refuses_otherwise() {
        let mut tunables = Tunables::default();
        let set = tunables.set("late_moves", "8");
        if Tunables::settable() {
            assert_eq!(set, Ok(()));
            assert_eq!(tunables.late_moves(), 8);
            assert_eq!(tunables.get("late_moves"), Some(8));
            assert_eq!(tunables.changed(), vec![("late_moves", 8)]);
            assert_eq!(tunables.to_string(), "late_moves=8");
            // The others keep their declared values.
            assert_eq!(tunables.futile_margin(), 150);
        } else {
            assert_eq!(set, Err(TuneError::NotBuilt { name: "late_moves" }));
            assert_eq!(tunables, Tunables::default());
        }
    }
}
