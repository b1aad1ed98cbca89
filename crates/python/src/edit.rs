//! Setting a board up piece by piece, as python-chess does (`Board(None)`, `set_piece_at`,
//! `clear`, `turn = ...`): the edited fields become a position when they are one, and are
//! kept as they are, with `status()` saying what is wrong, when they are not.

use chessbits_bitboard::Bitboard;
use chessbits_notation::fen::{Fen, ParseFenError};
use chessbits_state::{Position, Setup, Status};
use pyo3::PyErr;

use crate::errors::{fen_error, raise, PositionError};
use crate::placement::{clean_rights, valid_ep_square};

/// What an edit left.
pub(crate) enum Built {
    /// A position moves can be played from: the fields with the castling rights and en
    /// passant square python-chess would play with ([`clean_rights`], [`valid_ep_square`]).
    Legal(Box<Position>),
    /// Fields no position can be built from (a king missing or doubled, the side not to move
    /// in check, more material than promotions explain).
    Edited,
}

/// The problems an edited board may have and still be played on, as python-chess plays on
/// them: a pawn on a back rank stays, and a check no move could give is kept.
const TOLERATED: Status = Status::all().difference(Status::ALWAYS_REJECTED);

/// Builds `setup` into a position if it is one a board can play on, with the castling
/// rights and en passant square python-chess keeps of those set.
pub(crate) fn build(setup: &Setup) -> Built {
    let mut clean = *setup;
    clean.castling_rooks = clean_rights(setup);
    clean.ep_square = valid_ep_square(setup);
    match Position::from_setup_with(&clean, TOLERATED) {
        Ok(pos) => Built::Legal(Box::new(pos)),
        Err(_) => Built::Edited,
    }
}

/// The error of asking an edited board for what needs a position (moves, checks, outcomes).
pub(crate) fn not_legal(setup: &Setup) -> PyErr {
    let problems = setup.status() & Status::ALWAYS_REJECTED;
    raise::<PositionError>(format!(
        "the board is not a position moves can be played from ({problems}): set it up \
         further (set_piece_at, set_fen) first; status() says what is wrong"
    ))
}

/// The placement of a FEN's first field (python-chess's `set_board_fen`).
///
/// # Errors
/// `FenError` naming the byte of `text` that is not a placement.
pub(crate) fn board_fen(text: &str) -> Result<chessbits_state::Board, PyErr> {
    if text.contains(char::is_whitespace) || text.is_empty() {
        return Err(raise::<crate::errors::FenError>(format!(
            "board fen {text:?}: expected the placement field alone"
        )));
    }
    let fen: Fen =
        format!("{text} w - - 0 1").parse().map_err(|e: ParseFenError| fen_error(e.into()))?;
    Ok(fen.0.board)
}

/// The castling rooks a FEN castling field names on `setup`'s placement
/// (python-chess's `set_castling_fen`: `KQkq`, Shredder's file letters, or `-`).
///
/// # Errors
/// `FenError` for letters that are not a castling field or name no rook.
pub(crate) fn castling_fen(setup: &Setup, text: &str) -> Result<Bitboard, PyErr> {
    if text.contains(char::is_whitespace) || text.is_empty() {
        return Err(raise::<crate::errors::FenError>(format!(
            "castling fen {text:?}: expected the castling field alone"
        )));
    }
    let fen = format!("{} w {text} - 0 1", setup.board.board_fen());
    let parsed: Fen = fen.parse().map_err(|e: ParseFenError| fen_error(e.into()))?;
    Ok(parsed.0.castling_rooks)
}
