//! The arguments of the module's functions and methods, read by type in words that name the
//! option: `tt_mb='256': expected a whole number, not str`. PyO3 on its own names the argument
//! only in an exception note ("while processing 'tt_mb'"), which Python before 3.11 drops and a
//! traceback prints after the message. So every parameter is read with
//! `#[pyo3(from_py_with = name::tt_mb)]` (one function per parameter name in [`name`]), and a
//! wrong type is a `TypeError` that starts with the name and the value given.
//!
//! A whole number is kept as given (an `i128`, saturated far beyond 64 bits) so that the
//! option's own range check refuses it in words that name it too ("threads=-1: expected 0 (all
//! cores) to 64", [`Whole::within`]) where a `usize` parameter would raise a bare
//! `OverflowError` for -1; `bool` is never taken for a number (`level=True` is a mistake, not
//! level 1), while numpy's integers are (anything with `__index__`).

use super::CathedralError;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyString};
use std::ops::RangeInclusive;
use std::path::PathBuf;

/// A type an argument can be read as.
pub(crate) trait Arg<'py>: Sized {
    /// What the argument takes, in words: "a whole number".
    fn expected() -> String;
    /// The same in the plural, for a list of them: "whole numbers".
    fn many() -> String;
    /// The value, or what was given instead in words (the type's name, or the item of a list
    /// that is not of the type: "int at index 1").
    fn get(obj: &Bound<'py, PyAny>) -> Result<Self, String>;
}

/// `obj` read as a `T`, or a `TypeError` naming the argument `name` and the value given.
pub(crate) fn named<'py, T: Arg<'py>>(name: &str, obj: &Bound<'py, PyAny>) -> PyResult<T> {
    T::get(obj).map_err(|given| {
        PyTypeError::new_err(format!(
            "{name}={}: expected {}, not {given}",
            short_repr(obj),
            T::expected()
        ))
    })
}

/// The value as Python writes it, cut short where it is long.
fn short_repr(obj: &Bound<'_, PyAny>) -> String {
    let text = obj
        .repr()
        .map_or_else(|_| "?".to_string(), |r| r.to_string());
    if text.chars().count() <= 60 {
        return text;
    }
    let cut: String = text.chars().take(57).collect();
    format!("{cut}...")
}

pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "?".to_string(), |n| n.to_string())
}

/// One function per parameter name, each reading its argument with [`named`].
macro_rules! names {
    ($($option:ident)*) => {
        /// The argument readers for `#[pyo3(from_py_with = name::...)]`, one per parameter
        /// name, each naming its argument in a wrong type's error.
        pub(crate) mod name {
            use super::{Arg, named};
            use pyo3::prelude::*;
            $(
                pub(crate) fn $option<'py, T: Arg<'py>>(obj: &Bound<'py, PyAny>) -> PyResult<T> {
                    named(stringify!($option), obj)
                }
            )*
        }
    };
}

names! {
    a action actions alpha b beta book candidates caption clock color elo0 elo1 first game
    game_number half_points hands highlight i json level method moves n name nodes number
    nodes_per_move opening opening_plies pair pairs path player position recheck_factor
    recheck_from recheck_turns recheck_unstable record records root_values rules scale second seed single_stage
    source spec start text threads time time_per_move title tt_mb unicode wdl which window
}

impl<'py> Arg<'py> for i128 {
    fn expected() -> String {
        "a whole number".into()
    }
    fn many() -> String {
        "whole numbers".into()
    }
    fn get(obj: &Bound<'py, PyAny>) -> Result<i128, String> {
        if obj.is_instance_of::<PyBool>() {
            return Err("bool".into());
        }
        // The common case, fast (`Batch.step` reads hundreds): an int or numpy's, in 64 bits.
        if let Ok(value) = obj.extract::<i64>() {
            return Ok(value.into());
        }
        let int = if obj.is_instance_of::<PyInt>() {
            obj.clone()
        } else {
            // numpy's integers and other integer types (`operator.index`); not a float.
            obj.call_method0("__index__")
                .ok()
                .filter(|i| i.is_instance_of::<PyInt>())
                .ok_or_else(|| type_name(obj))?
        };
        if let Ok(value) = int.extract::<u64>() {
            return Ok(value.into());
        }
        // Beyond 64 bits either way: [`Whole::within`] says so.
        Ok(if int.lt(0).unwrap_or(false) {
            i128::MIN
        } else {
            i128::MAX
        })
    }
}

impl<'py> Arg<'py> for f64 {
    fn expected() -> String {
        "a number".into()
    }
    fn many() -> String {
        "numbers".into()
    }
    fn get(obj: &Bound<'py, PyAny>) -> Result<f64, String> {
        if obj.is_instance_of::<PyBool>() {
            return Err("bool".into());
        }
        if obj.is_instance_of::<PyFloat>() || obj.is_instance_of::<PyInt>() {
            return obj.extract::<f64>().map_err(|_| type_name(obj));
        }
        // numpy's numbers; not a string (which has no `__float__`).
        obj.call_method0("__float__")
            .ok()
            .and_then(|f| f.extract::<f64>().ok())
            .ok_or_else(|| type_name(obj))
    }
}

impl<'py> Arg<'py> for bool {
    fn expected() -> String {
        "True or False".into()
    }
    fn many() -> String {
        "True or False".into()
    }
    fn get(obj: &Bound<'py, PyAny>) -> Result<bool, String> {
        // A Python bool or numpy's; not 0 or 1.
        obj.extract::<bool>().map_err(|_| type_name(obj))
    }
}

impl<'py> Arg<'py> for String {
    fn expected() -> String {
        "a string".into()
    }
    fn many() -> String {
        "strings".into()
    }
    fn get(obj: &Bound<'py, PyAny>) -> Result<String, String> {
        obj.cast::<PyString>()
            .ok()
            .and_then(|s| s.to_cow().ok().map(|c| c.into_owned()))
            .ok_or_else(|| type_name(obj))
    }
}

impl<'py> Arg<'py> for PathBuf {
    fn expected() -> String {
        "a file path (a string or a pathlib.Path)".into()
    }
    fn many() -> String {
        "file paths".into()
    }
    fn get(obj: &Bound<'py, PyAny>) -> Result<PathBuf, String> {
        obj.extract::<PathBuf>().map_err(|_| type_name(obj))
    }
}

impl<'py, T: pyo3::PyClass + pyo3::PyTypeInfo> Arg<'py> for PyRef<'py, T> {
    fn expected() -> String {
        format!("a cathedral.{}", T::NAME)
    }
    fn many() -> String {
        format!("cathedral.{} objects", T::NAME)
    }
    fn get(obj: &Bound<'py, PyAny>) -> Result<PyRef<'py, T>, String> {
        obj.extract::<PyRef<'py, T>>().map_err(|_| type_name(obj))
    }
}

impl<'py, T: Arg<'py>> Arg<'py> for Option<T> {
    fn expected() -> String {
        format!("{} or None", T::expected())
    }
    fn many() -> String {
        format!("{} or None", T::many())
    }
    fn get(obj: &Bound<'py, PyAny>) -> Result<Option<T>, String> {
        if obj.is_none() {
            Ok(None)
        } else {
            T::get(obj).map(Some)
        }
    }
}

/// A list (or a tuple, or any sequence but a string) of `T`.
impl<'py, T: Arg<'py>> Arg<'py> for Vec<T> {
    fn expected() -> String {
        format!("a list of {}", T::many())
    }
    fn many() -> String {
        format!("lists of {}", T::many())
    }
    fn get(obj: &Bound<'py, PyAny>) -> Result<Vec<T>, String> {
        if obj.is_instance_of::<PyString>() || obj.is_instance_of::<pyo3::types::PyBytes>() {
            return Err(type_name(obj));
        }
        let items = obj.try_iter().map_err(|_| type_name(obj))?;
        let mut out = Vec::with_capacity(obj.len().unwrap_or(0));
        for (index, item) in items.enumerate() {
            let item = item.map_err(|_| type_name(obj))?;
            out.push(T::get(&item).map_err(|given| format!("{given} at index {index}"))?);
        }
        Ok(out)
    }
}

/// A pair, as a tuple or a list of two.
impl<'py, A: Arg<'py>, B: Arg<'py>> Arg<'py> for (A, B) {
    fn expected() -> String {
        format!("a pair ({}, {})", A::expected(), B::expected())
    }
    fn many() -> String {
        format!("pairs ({}, {})", A::expected(), B::expected())
    }
    fn get(obj: &Bound<'py, PyAny>) -> Result<(A, B), String> {
        let items: Vec<Bound<'py, PyAny>> = if obj.is_instance_of::<PyString>() {
            return Err(type_name(obj));
        } else {
            obj.try_iter()
                .map_err(|_| type_name(obj))?
                .collect::<PyResult<_>>()
                .map_err(|_| type_name(obj))?
        };
        match items.as_slice() {
            [a, b] => Ok((
                A::get(a).map_err(|given| format!("{given} as the first"))?,
                B::get(b).map_err(|given| format!("{given} as the second"))?,
            )),
            other => Err(format!("{} of {} items", type_name(obj), other.len())),
        }
    }
}

/// Range checks of a whole number read by [`Arg`].
pub(crate) trait Whole {
    /// The value if it lies in `range`, else a CathedralError naming `name` and saying the
    /// range (`expected`, in words: "1 to 64").
    fn within(self, name: &str, range: RangeInclusive<u64>, expected: &str) -> PyResult<u64>;

    /// As [`Whole::within`], for a `usize` option.
    fn size(self, name: &str, range: RangeInclusive<u64>, expected: &str) -> PyResult<usize>;
}

impl Whole for i128 {
    fn within(self, name: &str, range: RangeInclusive<u64>, expected: &str) -> PyResult<u64> {
        match u64::try_from(self) {
            Ok(v) if range.contains(&v) => Ok(v),
            _ => {
                let given = if self > i128::from(u64::MAX) || self < i128::from(i64::MIN) {
                    "a number beyond 64 bits".to_string()
                } else {
                    self.to_string()
                };
                Err(CathedralError::new_err(format!(
                    "{name}={given}: expected {expected}"
                )))
            }
        }
    }

    fn size(self, name: &str, range: RangeInclusive<u64>, expected: &str) -> PyResult<usize> {
        let value = self.within(name, range, expected)?;
        usize::try_from(value)
            .map_err(|_| CathedralError::new_err(format!("{name}={value}: expected {expected}")))
    }
}
