//! `Board`'s castling rights, in python-chess's forms (a mask of rook squares, X-FEN and
//! Shredder-FEN text), its castling moves, and Chess960 start positions by Scharnagl's
//! number.

use chessbits_bitboard::{Color, Role};
use chessbits_movegen::{Game, MoveGen};
use chessbits_notation::fen::{CastlingNotation, EnPassantMode};
use chessbits_state::{CastlingSide, Setup, CHESS960_POSITIONS};
use pyo3::prelude::*;

use super::state::{self, MoveIter};
use super::Board;
use crate::edit;
use crate::moves::Move;
use crate::pieces::{ColorArg, Mask};
use crate::placement;

#[pymethods]
impl Board {
    /// The FEN with Shredder castling letters (python-chess's `shredder_fen()`).
    fn shredder_fen(&self) -> String {
        self.fen_text(EnPassantMode::Legal, CastlingNotation::Shredder)
    }

    /// The castling field in X-FEN (`KQkq`, a file letter where a rook stands inside).
    fn castling_xfen(&self) -> String {
        let fen = self.fen_text(EnPassantMode::Legal, CastlingNotation::XFen);
        fen.split(' ').nth(2).unwrap_or("-").to_owned()
    }

    /// The castling field in Shredder-FEN (`HAha`).
    fn castling_shredder_fen(&self) -> String {
        let fen = self.fen_text(EnPassantMode::Legal, CastlingNotation::Shredder);
        fen.split(' ').nth(2).unwrap_or("-").to_owned()
    }

    /// The castling rights the board plays with, as a mask of their rooks: those set, less
    /// any without king and rook in place (python-chess's `clean_castling_rights()`).
    pub(super) fn clean_castling_rights(&self) -> u64 {
        match self.raw() {
            Some(setup) => placement::clean_rights(setup).0,
            None => self.game.position().castles().rook_squares().0,
        }
    }

    /// `True` if a castling right needs Chess960 to be written: a rook off the corner or a
    /// king off the e-file.
    fn has_chess960_castling_rights(&self) -> bool {
        placement::has_chess960_castling_rights(&self.fields())
    }

    /// The legal castling moves, one at a time.
    fn generate_castling_moves<'py>(&self, py: Python<'py>) -> PyResult<MoveIter<'py>> {
        let pos = self.position()?;
        let moves: Vec<Move> = pos.castling_moves().iter().map(|&m| self.to_py(m)).collect();
        state::iterate(py, moves)
    }

    /// The board of Chess960 start position `scharnagl` (0..960; 518 is the standard one),
    /// a Chess960 board, as python-chess's `Board.from_chess960_pos`.
    #[classmethod]
    fn from_chess960_pos(_cls: &Bound<'_, pyo3::types::PyType>, scharnagl: i64) -> PyResult<Board> {
        let mut board = Board::of_game(Game::default());
        board.set_chess960_pos(scharnagl)?;
        Ok(board)
    }

    /// Sets Chess960 start position `scharnagl` (0..960), white to move with every castling
    /// right; the board becomes a Chess960 board and the moves are forgotten.
    fn set_chess960_pos(&mut self, scharnagl: i64) -> PyResult<()> {
        let n =
            u32::try_from(scharnagl).ok().filter(|&n| n < CHESS960_POSITIONS).ok_or_else(|| {
                pyo3::exceptions::PyValueError::new_err(format!(
                    "chess960 position index not 0 <= {scharnagl} < 960"
                ))
            })?;
        let setup = Setup::chess960(n).unwrap_or_default();
        *self = Board::of_setup(setup, true);
        Ok(())
    }

    /// The Chess960 start position number (0..960) of this board, or `None` if it is not one:
    /// the pieces of a start position, no en passant square, white to move and every castling
    /// right unless `ignore_turn` and `ignore_castling` say otherwise, and, with
    /// `ignore_counters=False`, the clocks at 0 and 1 (python-chess's `chess960_pos`).
    #[pyo3(signature = (*, ignore_turn=false, ignore_castling=false, ignore_counters=true))]
    fn chess960_pos(
        &self,
        ignore_turn: bool,
        ignore_castling: bool,
        ignore_counters: bool,
    ) -> Option<u32> {
        let fields = self.fields();
        let rooks = fields.board.by_role(Role::Rook).0;
        let fits = fields.ep_square.is_none()
            && (ignore_turn || fields.turn == Color::White)
            && (ignore_castling || self.clean_castling_rights() == rooks)
            && (ignore_counters || (fields.halfmoves == 0 && fields.fullmoves == 1));
        fits.then(|| fields.board.chess960_number()).flatten()
    }

    /// The rooks with castling rights, as python-chess's `castling_rights` mask (bit 0 = a1).
    /// Settable: as set, it is what this says, and rights without their king and rook are
    /// flagged by `status()` and not played with.
    #[getter]
    fn castling_rights(&self) -> u64 {
        self.field(|s| s.castling_rooks, |p| p.castles().rook_squares()).0
    }

    /// Sets the castling rights from a mask of the rooks that keep one (python-chess's
    /// `castling_rights = BB_A1 | BB_H1`); rights without their king and rook are dropped and
    /// flagged by `status()`. The moves are forgotten.
    #[setter(castling_rights)]
    fn set_castling_rights(&mut self, rooks: Mask) {
        self.edit(|setup| setup.castling_rooks = chessbits_bitboard::Bitboard(rooks.0));
    }

    /// Sets the castling rights from a FEN castling field (`KQkq`, Shredder's `HAha`, `-`).
    /// Raises `FenError` for letters that are not one; the moves are forgotten.
    #[pyo3(signature = (castling_fen))]
    fn set_castling_fen(&mut self, castling_fen: Option<&str>) -> PyResult<()> {
        let rooks = edit::castling_fen(&self.fields(), castling_fen.unwrap_or(""))?;
        self.edit(|setup| setup.castling_rooks = rooks);
        Ok(())
    }

    /// `True` if `color` may still castle on some side.
    fn has_castling_rights(&self, color: ColorArg) -> bool {
        self.castling_side(color.0, CastlingSide::KingSide)
            || self.castling_side(color.0, CastlingSide::QueenSide)
    }

    /// `True` if `color` may still castle king-side.
    fn has_kingside_castling_rights(&self, color: ColorArg) -> bool {
        self.castling_side(color.0, CastlingSide::KingSide)
    }

    /// `True` if `color` may still castle queen-side.
    fn has_queenside_castling_rights(&self, color: ColorArg) -> bool {
        self.castling_side(color.0, CastlingSide::QueenSide)
    }
}
