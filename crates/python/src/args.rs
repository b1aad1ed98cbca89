//! Integer arguments checked by their Python names: a negative count, or one too large, is a
//! `ValueError` that names the argument as Python spells it, where pyo3's own conversion to an
//! unsigned Rust integer would raise `OverflowError`.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyInt;

/// `value` as an integer of at least `min`; `name` is the argument's Python name.
///
/// # Errors
/// `TypeError` for a value that is not an integer, `ValueError` for one below `min` or above
/// `u64::MAX`.
pub(crate) fn integer(value: &Bound<'_, PyAny>, name: &str, min: u64) -> PyResult<u64> {
    if !value.is_instance_of::<PyInt>() {
        let kind = value.get_type().name().map_or_else(|_| "?".to_owned(), |n| n.to_string());
        return Err(PyTypeError::new_err(format!("{name} must be an int, not {kind}")));
    }
    match value.extract::<u64>() {
        Ok(n) if n >= min => Ok(n),
        Ok(_) => Err(below(name, min)),
        Err(_) if value.lt(0)? => Err(below(name, min)),
        Err(_) => Err(too_large(name)),
    }
}

/// `value` as a count (a `usize`) of at least `min`.
pub(crate) fn count(value: &Bound<'_, PyAny>, name: &str, min: usize) -> PyResult<usize> {
    let n = integer(value, name, min as u64)?;
    usize::try_from(n).map_err(|_| too_large(name))
}

/// `value` as a count of at least `min`, or `default` for `None`.
pub(crate) fn count_or(
    value: Option<&Bound<'_, PyAny>>,
    name: &str,
    min: usize,
    default: usize,
) -> PyResult<usize> {
    value.map_or(Ok(default), |v| count(v, name, min))
}

/// `value`, taken by pyo3 as an `i64` (so that a negative one reaches here, not pyo3's
/// `OverflowError`), as a `T` of at least `min`.
///
/// # Errors
/// `ValueError` naming the argument for a value below `min` or too large for `T`.
pub(crate) fn ranged<T: TryFrom<i64>>(value: i64, name: &str, min: u64) -> PyResult<T> {
    if value < 0 || (value as u64) < min {
        return Err(below(name, min));
    }
    T::try_from(value).map_err(|_| too_large(name))
}

/// An optional integer argument as a `T` of at least `min`, any Python int taken (so that
/// neither a negative one nor one past `i64` reaches pyo3's `OverflowError`).
///
/// # Errors
/// As [`integer`], and `ValueError` for a value too large for `T`.
pub(crate) fn bounded_or_none<T: TryFrom<u64>>(
    value: Option<&Bound<'_, PyAny>>,
    name: &str,
    min: u64,
) -> PyResult<Option<T>> {
    value
        .map(|v| integer(v, name, min).and_then(|n| T::try_from(n).map_err(|_| too_large(name))))
        .transpose()
}

fn below(name: &str, min: u64) -> PyErr {
    let what = if min == 0 { "0 or more".to_owned() } else { format!("at least {min}") };
    PyValueError::new_err(format!("{name} must be {what}"))
}

fn too_large(name: &str) -> PyErr {
    PyValueError::new_err(format!("{name} is too large"))
}
