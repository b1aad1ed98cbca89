//! EPD operations as python-chess reads and writes them (`Board.set_epd`, `from_epd`,
//! `epd(**operations)`): a dict from opcode to `None`, a string, an int, a float, a move, or
//! a list of moves (`bm`, `am`, and the variation `pv`).
//!
//! Reading: operations are separated by `;`. An opcode stands alone (`None`, or `[]` for
//! `bm`/`am`/`pv`) or is followed by one operand: a `"string"` (with `\"`, `\\`, `\n`, `\r`,
//! `\t` escapes), a number if it starts with a digit, sign or point (a float if it has a
//! point or exponent), else moves in SAN or UCI, read against the position (`pv` as a
//! variation, each move played after the one before).

use chessbits_notation::san::SanPlus;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::Board;
use crate::moves::{move_arg, Move};

/// The FEN an EPD sets and its operations, as python-chess's `set_epd` reads them: the four
/// fields, with `hmvc` and `fmvn` as the clocks (0 and 1 without them); the moves of the
/// operations read against the position of the fields on a board of kind `chess960`.
///
/// # Errors
/// As the board's constructor for the fields, as [`read_operations`] for the operations.
pub(super) fn read<'py>(
    py: Python<'py>,
    epd: &str,
    chess960: bool,
) -> PyResult<(String, Bound<'py, PyDict>)> {
    let text = epd.trim().trim_end_matches(';');
    let fields: Vec<&str> = text.split_whitespace().take(4).collect();
    let rest = &text[offset_of_token(text, 4)..];
    if rest.is_empty() {
        return Ok((text.to_owned(), PyDict::new(py)));
    }
    let position = Board::new(&format!("{} 0 1", fields.join(" ")), chess960)?;
    let operations = read_operations(py, rest, &position)?;
    let clock = |name: &str, default: &str| -> PyResult<String> {
        Ok(match operations.get_item(name)? {
            Some(value) => value.str()?.to_string(),
            None => default.to_owned(),
        })
    };
    let fen = format!("{} {} {}", fields.join(" "), clock("hmvc", "0")?, clock("fmvn", "1")?);
    Ok((fen, operations))
}

/// The byte offset of the `n`-th (from 0) whitespace-separated token of `text`.
fn offset_of_token(text: &str, n: usize) -> usize {
    let mut tokens = 0;
    let mut in_token = false;
    for (at, c) in text.char_indices() {
        if c.is_whitespace() {
            in_token = false;
        } else if !in_token {
            if tokens == n {
                return at;
            }
            tokens += 1;
            in_token = true;
        }
    }
    text.len()
}

/// Checks an opcode as python-chess does: not empty, not `-`, starting with a letter, with no
/// whitespace.
fn check_opcode(opcode: &str) -> PyResult<()> {
    let bad = |why: String| Err(PyValueError::new_err(why));
    if opcode.is_empty() {
        return bad("empty string is not a valid epd opcode".to_owned());
    }
    if opcode == "-" {
        return bad("dash (-) is not a valid epd opcode".to_owned());
    }
    if !opcode.chars().next().is_some_and(char::is_alphabetic) {
        return bad(format!("expected epd opcode to start with a letter, got: {opcode:?}"));
    }
    if opcode.contains([' ', '\n', '\t', '\r']) {
        return bad(format!("invalid whitespace in epd opcode: {opcode:?}"));
    }
    Ok(())
}

/// The four characters python-chess separates an opcode from its operand by.
fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n')
}

/// Whether an opcode takes a list of moves.
fn takes_moves(opcode: &str) -> bool {
    matches!(opcode, "pv" | "am" | "bm")
}

/// The operations of `text` (what follows the four fields of an EPD), their moves read
/// against `board`.
///
/// # Errors
/// `ValueError` for a bad opcode or number; the move errors for a move that is not legal.
fn read_operations<'py>(
    py: Python<'py>,
    text: &str,
    board: &Board,
) -> PyResult<Bound<'py, PyDict>> {
    let operations = PyDict::new(py);
    let chars: Vec<char> = text.chars().collect();
    let mut at = 0;
    let none_for = |opcode: &str| -> PyResult<Py<PyAny>> {
        Ok(if takes_moves(opcode) { PyList::empty(py).into_any().unbind() } else { py.None() })
    };
    while at < chars.len() {
        // The opcode: up to whitespace, `;` or the end.
        let start = at;
        while at < chars.len() && !is_space(chars[at]) && chars[at] != ';' {
            at += 1;
        }
        let opcode: String = chars[start..at].iter().collect();
        if opcode.is_empty() || opcode == "-" {
            at += 1;
            continue;
        }
        if at == chars.len() || chars[at] == ';' {
            operations.set_item(&opcode, none_for(&opcode)?)?;
            at += 1;
            continue;
        }
        check_opcode(&opcode)?;
        while at < chars.len() && is_space(chars[at]) {
            at += 1;
        }
        match chars.get(at) {
            None | Some(';') => {
                operations.set_item(&opcode, none_for(&opcode)?)?;
                at += 1;
            }
            Some('"') => {
                let mut text = String::new();
                at += 1;
                while at < chars.len() && chars[at] != '"' {
                    if chars[at] == '\\' && at + 1 < chars.len() {
                        at += 1;
                        text.push(match chars[at] {
                            'n' => '\n',
                            'r' => '\r',
                            't' => '\t',
                            other => other,
                        });
                    } else if chars[at] != '\\' {
                        text.push(chars[at]);
                    }
                    at += 1;
                }
                at += 1;
                operations.set_item(&opcode, text)?;
            }
            Some(&first) => {
                let start = at;
                while at < chars.len() && chars[at] != ';' {
                    at += 1;
                }
                let operand: String = chars[start..at].iter().collect();
                at += 1;
                let value = if "+-.0123456789".contains(first) {
                    number(py, &opcode, &operand)?
                } else {
                    moves(py, &opcode, &operand, board)?
                };
                operations.set_item(&opcode, value)?;
            }
        }
    }
    Ok(operations)
}

/// A numeric operand, as Python's `int` or `float` reads it (a float if it has a point or an
/// exponent, and then finite).
fn number(py: Python<'_>, opcode: &str, operand: &str) -> PyResult<Py<PyAny>> {
    let builtins = py.import("builtins")?;
    if operand.contains(['.', 'e', 'E']) {
        let value: f64 = builtins.getattr("float")?.call1((operand,))?.extract()?;
        if !value.is_finite() {
            return Err(PyValueError::new_err(format!(
                "invalid numeric operand for epd operation {opcode:?}: {operand:?}"
            )));
        }
        return Ok(value.into_pyobject(py)?.into_any().unbind());
    }
    Ok(builtins.getattr("int")?.call1((operand,))?.unbind())
}

/// A move operand: a variation for `pv`, a list for `bm`/`am`, else one move.
fn moves(py: Python<'_>, opcode: &str, operand: &str, board: &Board) -> PyResult<Py<PyAny>> {
    if !takes_moves(opcode) {
        let m = board.san_move(operand.trim())?;
        return Ok(board.to_py(m).into_pyobject(py)?.into_any().unbind());
    }
    let mut position = board.clone();
    let mut out = Vec::new();
    for token in operand.split_whitespace() {
        let m = position.san_move(token)?;
        out.push(position.to_py(m));
        if opcode == "pv" {
            position.play(m)?;
        }
    }
    Ok(PyList::new(py, out)?.into_any().unbind())
}

/// `operations` written as python-chess writes them: ` opcode;` for `None`, the SAN of a
/// move, an int or float as Python prints it, the SANs of a `pv` variation in order or of
/// `bm`/`am` moves sorted, and anything else as an escaped string.
///
/// # Errors
/// `ValueError` for a bad opcode or a float that is not finite, the move errors for a move
/// that is not legal.
pub(super) fn write_operations(board: &Board, operations: &Bound<'_, PyDict>) -> PyResult<String> {
    let mut out = Vec::with_capacity(operations.len());
    for (opcode, operand) in operations.iter() {
        let opcode: String = opcode.extract()?;
        check_opcode(&opcode)?;
        let is_text = operand.is_instance_of::<pyo3::types::PyString>();
        let written = if operand.is_none() {
            String::new()
        } else if operand.is_instance_of::<pyo3::types::PyInt>() {
            format!(" {}", operand.str()?)
        } else if operand.is_instance_of::<pyo3::types::PyFloat>() {
            if !operand.extract::<f64>()?.is_finite() {
                return Err(PyValueError::new_err(format!(
                    "expected numeric epd operand to be finite, got: {}",
                    operand.str()?
                )));
            }
            format!(" {}", operand.str()?)
        } else if let Ok(m) = move_arg(&operand) {
            format!(" {}", san(board, &m)?)
        } else if takes_moves(&opcode) && !is_text && operand.hasattr("__iter__")? {
            let mut sans = Vec::new();
            let mut position = board.clone();
            for m in operand.try_iter()? {
                let m = move_arg(&m?)?;
                sans.push(san(&position, &m)?);
                if opcode == "pv" {
                    let resolved = position.resolve(&m)?;
                    position.play(resolved)?;
                }
            }
            if opcode != "pv" {
                sans.sort();
            }
            sans.iter().map(|s| format!(" {s}")).collect()
        } else {
            let text = operand.str()?.to_string();
            let escaped = text
                .replace('\\', "\\\\")
                .replace('\t', "\\t")
                .replace('\r', "\\r")
                .replace('\n', "\\n")
                .replace('"', "\\\"");
            format!(" \"{escaped}\"")
        };
        out.push(format!("{opcode}{written};"));
    }
    Ok(out.join(" "))
}

/// The SAN of the legal move `m` on `board`.
fn san(board: &Board, m: &Move) -> PyResult<String> {
    let resolved = board.resolve(m)?;
    if resolved.is_null() {
        return Ok("--".to_owned());
    }
    Ok(SanPlus::from_move(board.position()?, resolved).to_string())
}
