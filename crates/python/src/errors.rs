//! The exceptions: one class per kind of Rust error, all under `chessbits.ChessbitsError`
//! (itself a `ValueError`, as python-chess's errors are), each raised with the Rust error's
//! message, which names the spot (byte, field, line, ply). The move errors follow
//! python-chess's hierarchy: `InvalidMoveError`, `IllegalMoveError` and `AmbiguousMoveError`
//! are siblings, none a subclass of another.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::PyErr;

create_exception!(
    chessbits,
    ChessbitsError,
    PyValueError,
    "The base of every chessbits error; a ValueError."
);
create_exception!(
    chessbits,
    FenError,
    ChessbitsError,
    "FEN text that is not FEN: the field and byte offset are in the message."
);
create_exception!(
    chessbits,
    PositionError,
    ChessbitsError,
    "A FEN or a decoded position that is not a legal position (kings, pawns, checks ...)."
);
create_exception!(
    chessbits,
    InvalidMoveError,
    ChessbitsError,
    "Move text that is neither UCI nor SAN, whatever the position."
);
create_exception!(
    chessbits,
    IllegalMoveError,
    ChessbitsError,
    "A move that is not legal in the position it was offered to."
);
create_exception!(
    chessbits,
    AmbiguousMoveError,
    ChessbitsError,
    "SAN that more than one legal move matches; a sibling of IllegalMoveError, as in python-chess."
);
create_exception!(
    chessbits,
    PgnError,
    ChessbitsError,
    "PGN that does not read: the game, line, column and byte are in the message and are the attributes `game`, `line`, `column`, `byte` (`ply` where a move is at fault), `None` where not known."
);
create_exception!(
    chessbits,
    DecodeError,
    ChessbitsError,
    "Bytes of a position or move codec that do not decode: the place is in the message and in the attributes `ply` and `byte` (moves) or `bit` (a position), `None` where not known."
);
create_exception!(
    chessbits,
    CbgError,
    ChessbitsError,
    "A .cbg file that does not read: the game and byte offset are in the message and are the attributes `game` and `byte`."
);

/// A Rust error as `E` with its message.
pub(crate) fn raise<E: pyo3::PyTypeInfo>(error: impl std::fmt::Display) -> PyErr {
    PyErr::new::<E, _>(error.to_string())
}

/// An error `E` for game `number` with `message`, its place as attributes as well as in the
/// message: `.game`, `.line`, `.column`, `.byte` and `.ply` (`None` where the input has no
/// such place, or the error is not a move's).
pub(crate) fn located<E: pyo3::PyTypeInfo>(
    py: pyo3::Python<'_>,
    message: &str,
    number: u64,
    place: &crate::games::Place,
) -> PyErr {
    let attributes = [
        ("game", Some(number)),
        ("line", place.line),
        ("column", place.column),
        ("byte", place.byte),
        ("ply", place.ply.map(u64::from)),
    ];
    with_attributes::<E>(py, message, &attributes)
}

/// An error `E` with `message`, and `attributes` set on it (`None` where unknown).
pub(crate) fn with_attributes<E: pyo3::PyTypeInfo>(
    py: pyo3::Python<'_>,
    message: &str,
    attributes: &[(&str, Option<u64>)],
) -> PyErr {
    let error = PyErr::new::<E, _>(message.to_owned());
    let value = error.value(py);
    for &(name, value_of) in attributes {
        // Setting an attribute on a fresh exception instance does not fail.
        let _ = pyo3::types::PyAnyMethods::setattr(value.as_any(), name, value_of);
    }
    error
}

/// A move codec's decoding error as [`DecodeError`], with `.ply` (from 1) and `.byte`.
pub(crate) fn move_decode_error(
    py: pyo3::Python<'_>,
    e: &chessbits_codec::move_codec::MoveDecodeError,
) -> PyErr {
    let attributes = [("ply", Some(u64::from(e.at.ply))), ("byte", Some(e.at.byte as u64))];
    with_attributes::<DecodeError>(py, &e.to_string(), &attributes)
}

/// A position codec's decoding error as [`DecodeError`], with `.bit`.
pub(crate) fn bit_error<K: std::fmt::Display>(
    py: pyo3::Python<'_>,
    e: &chessbits_codec::bits::Located<chessbits_codec::bits::Bit, K>,
) -> PyErr
where
    chessbits_codec::bits::Located<chessbits_codec::bits::Bit, K>: std::fmt::Display,
{
    with_attributes::<DecodeError>(py, &e.to_string(), &[("bit", Some(e.at.0 as u64))])
}

/// A `.cbg` error as [`CbgError`], with `.game` and `.byte`.
pub(crate) fn cbg_error(py: pyo3::Python<'_>, e: &chessbits_cbg::CbgError) -> PyErr {
    let attributes = [("game", Some(e.at.game)), ("byte", Some(e.at.byte))];
    with_attributes::<CbgError>(py, &e.to_string(), &attributes)
}

/// A FEN error as [`FenError`] (syntax) or [`PositionError`] (legality).
pub(crate) fn fen_error(error: chessbits_notation::fen::FenError) -> PyErr {
    use chessbits_notation::fen::FenError as E;
    match error {
        E::Position(e) => raise::<PositionError>(e),
        e => raise::<FenError>(e),
    }
}

/// A SAN resolution error as [`IllegalMoveError`] or [`AmbiguousMoveError`].
pub(crate) fn san_error(error: chessbits_notation::san::SanError) -> PyErr {
    use chessbits_notation::san::SanError as E;
    match error {
        e @ E::Ambiguous { .. } => raise::<AmbiguousMoveError>(e),
        e => raise::<IllegalMoveError>(e),
    }
}
