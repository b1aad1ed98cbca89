//! Setting a board up piece by piece, as python-chess does (`Board(None)`, `set_piece_at`,
//! `clear`, `turn = ...`): the edited fields become a position when they are one, and are
//! kept as they are, with `status()` saying what is wrong, when they are not.

use chessbits_bitboard::{Bitboard, Color, File, Rank, Role, Square};
use chessbits_notation::fen::{Fen, ParseFenError};
use chessbits_state::{Position, Setup, Status};
use pyo3::prelude::*;
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
/// `fen` without python-chess's promoted marks: a `~` after a piece letter in the placement
/// (its first field), which python-chess reads (crazyhouse's promoted pieces) and chessbits
/// does not keep. A `~` anywhere else is left, for the FEN reader to refuse.
pub(crate) fn without_promoted_marks(fen: &str) -> std::borrow::Cow<'_, str> {
    let placement = fen.trim_start().split(char::is_whitespace).next().unwrap_or("");
    if !placement.contains('~') {
        return fen.into();
    }
    let start = fen.len() - fen.trim_start().len();
    let end = start + placement.len();
    let mut out = String::with_capacity(fen.len());
    out.push_str(&fen[..start]);
    let mut after_piece = false;
    for c in placement.chars() {
        if !(c == '~' && after_piece) {
            out.push(c);
        }
        after_piece = c.is_ascii_alphabetic();
    }
    out.push_str(&fen[end..]);
    out.into()
}

/// `FenError` naming the byte of `text` that is not a placement.
pub(crate) fn board_fen(text: &str) -> Result<chessbits_state::Board, PyErr> {
    // Surrounding whitespace is dropped, as python-chess drops it; so are promoted marks.
    let text = without_promoted_marks(text.trim());
    let text = text.as_ref();
    if text.contains(char::is_whitespace) || text.is_empty() {
        return Err(raise::<crate::errors::FenError>(format!(
            "board fen {text:?}: expected the placement field alone"
        )));
    }
    let fen: Fen =
        format!("{text} w - - 0 1").parse().map_err(|e: ParseFenError| fen_error(e.into()))?;
    Ok(fen.0.board)
}

/// The castling rooks a FEN castling field names on `setup`'s placement, as python-chess's
/// `set_castling_fen` reads it: `-` or nothing for none; else up to two white letters then
/// up to two black ones, `K`/`Q` (`k`/`q`) for the outermost rook on that side of the king
/// (else the corner, but for `Q` with a king and no rook: nothing, as python-chess reads
/// it) and a file letter for that file's back-rank square. A right may name a square with no
/// rook: `status()` flags it.
///
/// # Errors
/// `FenError` for text that is not such a field.
pub(crate) fn castling_fen(setup: &Setup, text: &str) -> Result<Bitboard, PyErr> {
    if text.is_empty() || text == "-" {
        return Ok(Bitboard::EMPTY);
    }
    let white = text.bytes().take_while(|b| b"KQABCDEFGH".contains(b)).count();
    let black = text[white..].bytes().take_while(|b| b"kqabcdefgh".contains(b)).count();
    if white > 2 || black > 2 || white + black != text.len() {
        return Err(raise::<crate::errors::FenError>(format!("invalid castling fen: {text:?}")));
    }
    let board = &setup.board;
    let mut rooks = Bitboard::EMPTY;
    for letter in text.bytes() {
        let color = if letter.is_ascii_uppercase() { Color::White } else { Color::Black };
        let rank = Rank::First.relative_to(color);
        let back = Bitboard::from_rank(rank);
        let ours = board.by_role(Role::Rook) & board.by_color(color) & back;
        let king = (board.by_role(Role::King) & board.by_color(color)).last();
        let file = match letter.to_ascii_lowercase() {
            // python-chess takes the lowest rook if it stands left of the king, and nothing
            // when there is a king and no rook; the a-file otherwise.
            b'q' => match (ours.first(), king) {
                (Some(rook), Some(king)) if rook < king => Some(rook.file()),
                (None, Some(_)) => None,
                _ => Some(File::A),
            },
            b'k' => match (ours.last(), king) {
                (Some(rook), Some(king)) if king < rook => Some(rook.file()),
                _ => Some(File::H),
            },
            other => Some(File::ALL[usize::from(other - b'a')]),
        };
        if let Some(file) = file {
            rooks |= Bitboard::from_square(Square::from_coords(file, rank));
        }
    }
    Ok(rooks)
}

/// `setup` mirrored vertically with the colors swapped (python-chess's `mirror()`): each
/// piece on the mirrored square in the other color, the other side to move, the castling
/// rooks and en passant square mirrored, the clocks kept.
pub(crate) fn mirror(setup: &Setup) -> Setup {
    let mut out = *setup;
    out.board = chessbits_state::Board::empty();
    for sq in setup.board.occupied() {
        if let Some(piece) = setup.board.piece_at(sq) {
            out.board.set_piece_at(sq.flip_vertical(), piece.role.of(!piece.color));
        }
    }
    out.turn = !setup.turn;
    out.castling_rooks = Bitboard(setup.castling_rooks.0.swap_bytes());
    out.ep_square = setup.ep_square.map(Square::flip_vertical);
    out
}

/// `setup` transformed by `f`, a Python function of a 64-bit mask (python-chess's
/// `transform`): applied to each piece's squares, the castling rooks, and the en passant
/// square (its highest square if `f` gives several, none if it gives none).
///
/// # Errors
/// Whatever `f` raises, or `TypeError` if it returns no mask.
pub(crate) fn transform(setup: &Setup, f: &Bound<'_, PyAny>) -> PyResult<Setup> {
    let map = |mask: Bitboard| -> PyResult<Bitboard> {
        Ok(Bitboard(f.call1((mask.0,))?.extract::<crate::pieces::Mask>()?.0))
    };
    let mut out = *setup;
    out.board = chessbits_state::Board::empty();
    for piece in chessbits_bitboard::Piece::ALL {
        for sq in map(setup.board.by_piece(piece))? {
            out.board.set_piece_at(sq, piece);
        }
    }
    out.castling_rooks = map(setup.castling_rooks)?;
    out.ep_square = match setup.ep_square {
        Some(ep) => map(Bitboard::from_square(ep))?.last(),
        None => None,
    };
    Ok(out)
}
