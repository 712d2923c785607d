//! Whole-number options as Python passes them: any `int` is taken, and the option's own check
//! refuses what is out of its range in words that name it ("threads=-1: expected 0 (all cores)
//! to 64"), where a plain `usize` parameter would raise PyO3's bare `OverflowError` for -1.

use super::CathedralError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt};
use std::ops::RangeInclusive;

/// A Python `int` (not a `bool`), kept as given: `None` for one beyond the 64-bit range (below
/// -2^63 or above 2^64 - 1).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Int(Option<i128>);

impl<'a, 'py> FromPyObject<'a, 'py> for Int {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Int> {
        if obj.is_instance_of::<PyBool>() || !obj.is_instance_of::<PyInt>() {
            let kind = obj
                .get_type()
                .name()
                .map_or_else(|_| "?".into(), |n| n.to_string());
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "expected a whole number, not {kind}"
            )));
        }
        let value = obj.extract::<i64>().map(i128::from);
        Ok(Int(value
            .or_else(|_| obj.extract::<u64>().map(i128::from))
            .ok()))
    }
}

impl Int {
    /// A default value in a signature.
    pub(crate) const fn new(value: i64) -> Int {
        Int(Some(value as i128))
    }

    /// The value if it lies in `range`, else a CathedralError naming `name` and saying the
    /// range (`expected`, in words: "1 to 64").
    pub(crate) fn within(
        self,
        name: &str,
        range: RangeInclusive<u64>,
        expected: &str,
    ) -> PyResult<u64> {
        match self.0.and_then(|v| u64::try_from(v).ok()) {
            Some(v) if range.contains(&v) => Ok(v),
            _ => Err(CathedralError::new_err(format!(
                "{name}={}: expected {expected}",
                self.0
                    .map_or_else(|| "a number beyond 64 bits".to_string(), |v| v.to_string())
            ))),
        }
    }

    /// As [`Int::within`], for a `usize` option.
    pub(crate) fn size(
        self,
        name: &str,
        range: RangeInclusive<u64>,
        expected: &str,
    ) -> PyResult<usize> {
        let value = self.within(name, range, expected)?;
        usize::try_from(value)
            .map_err(|_| CathedralError::new_err(format!("{name}={value}: expected {expected}")))
    }
}
