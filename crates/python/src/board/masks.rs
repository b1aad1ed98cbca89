//! `Board`'s python-chess bitboard side: the placement as masks (`occupied`, `pawns`, ...,
//! `attackers_mask`, `pin_mask`), and the pseudo-legal moves python-chess generates beside
//! the legal ones.

use chessbits_bitboard::{Color, Role};
use chessbits_move::UciMove;
use chessbits_movegen::MoveGen;
use pyo3::prelude::*;

use super::state::{self, MoveIter};
use super::Board;
use crate::moves::{move_arg, LegalMoves, Move};
use crate::pieces::{square_index, ColorArg, SquareSet};
use crate::placement;

#[pymethods]
impl Board {
    /// The occupied squares, as python-chess's `occupied` mask.
    #[getter]
    fn occupied(&self) -> u64 {
        self.placement().occupied().0
    }

    /// The squares of each color's pieces, `[black, white]`, indexed by `BLACK`/`WHITE` as
    /// python-chess's `occupied_co`.
    #[getter]
    fn occupied_co(&self) -> [u64; 2] {
        let board = self.placement();
        [board.by_color(Color::Black).0, board.by_color(Color::White).0]
    }

    /// The pawns of both colors, as a mask (python-chess's `pawns`).
    #[getter]
    fn pawns(&self) -> u64 {
        self.placement().by_role(Role::Pawn).0
    }

    /// The knights of both colors, as a mask.
    #[getter]
    fn knights(&self) -> u64 {
        self.placement().by_role(Role::Knight).0
    }

    /// The bishops of both colors, as a mask.
    #[getter]
    fn bishops(&self) -> u64 {
        self.placement().by_role(Role::Bishop).0
    }

    /// The rooks of both colors, as a mask.
    #[getter]
    fn rooks(&self) -> u64 {
        self.placement().by_role(Role::Rook).0
    }

    /// The queens of both colors, as a mask.
    #[getter]
    fn queens(&self) -> u64 {
        self.placement().by_role(Role::Queen).0
    }

    /// The kings of both colors, as a mask.
    #[getter]
    fn kings(&self) -> u64 {
        self.placement().by_role(Role::King).0
    }

    /// The squares of pieces that came by promotion in the moves played, as python-chess's
    /// `promoted` mask: derived from the moves kept, so a board set up by an edit, or copied
    /// or cleared of its moves, counts none.
    #[getter]
    fn promoted(&self) -> u64 {
        crate::moves::promoted(self.game.moves()).0
    }

    /// The squares of the pieces of `piece_type` and `color`, as a mask.
    fn pieces_mask(&self, piece_type: i64, color: ColorArg) -> PyResult<u64> {
        Ok(self.pieces(piece_type, color)?.mask)
    }

    /// The pieces of `color` that attack `square`, as a mask.
    fn attackers_mask(&self, color: ColorArg, square: i64) -> PyResult<u64> {
        Ok(placement::attackers_mask(self.placement(), color.0, square_index(square)?).0)
    }

    /// The squares the piece on `square` attacks, as a mask.
    fn attacks_mask(&self, square: i64) -> PyResult<u64> {
        Ok(self.attacks(square)?.mask)
    }

    /// The pieces that give check to the side to move, as a mask.
    pub(super) fn checkers_mask(&self) -> u64 {
        let board = self.placement();
        let us = self.field(|s| s.turn, |p| p.turn());
        let king = (board.by_role(Role::King) & board.by_color(us)).last();
        king.map_or(0, |king| placement::attackers_mask(board, !us, king).0)
    }

    /// The line the piece of `color` on `square` is pinned along (through its king and the
    /// pinner), or every square if it is not pinned, as a mask (python-chess's `pin_mask`).
    pub(super) fn pin_mask(&self, color: ColorArg, square: i64) -> PyResult<u64> {
        Ok(placement::pin_mask(self.placement(), color.0, square_index(square)?).0)
    }

    /// `pin_mask` as a `SquareSet` (python-chess's `pin`).
    fn pin(&self, color: ColorArg, square: i64) -> PyResult<SquareSet> {
        Ok(SquareSet { mask: self.pin_mask(color, square)? })
    }

    /// The pseudo-legal moves (the king may be left in check), as python-chess's
    /// `pseudo_legal_moves`: a snapshot with `len`, `in` and `count()`.
    #[getter]
    fn pseudo_legal_moves(&self) -> PyResult<LegalMoves> {
        let pos = self.position()?;
        let moves = placement::pseudo_legal_moves(pos).into_iter().map(|uci| Move { uci });
        Ok(LegalMoves { moves: moves.collect(), king_home: self.king_home(pos) })
    }

    /// The pseudo-legal moves, one at a time.
    fn generate_pseudo_legal_moves<'py>(&self, py: Python<'py>) -> PyResult<MoveIter<'py>> {
        state::iterate(py, self.pseudo_legal_moves()?.moves)
    }

    /// The pseudo-legal captures (en passant included), one at a time.
    fn generate_pseudo_legal_captures<'py>(&self, py: Python<'py>) -> PyResult<MoveIter<'py>> {
        let pos = self.position()?;
        let captures = placement::pseudo_legal_moves(pos)
            .into_iter()
            .filter(|&uci| placement::is_capture(pos.board(), pos.turn(), pos.ep_square(), uci))
            .map(|uci| Move { uci })
            .collect::<Vec<_>>();
        state::iterate(py, captures)
    }

    /// `True` if `move` is pseudo-legal here (legal, or legal but for leaving the king in
    /// check).
    fn is_pseudo_legal(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let m = move_arg(r#move)?;
        let pos = self.position()?;
        Ok(m.uci != UciMove::Null
            && (crate::moves::resolve_uci(pos, m.uci).is_ok()
                || placement::pseudo_legal_moves(pos).contains(&m.uci)))
    }

    /// `True` if an en passant capture is pseudo-legal: a pawn attacks the en passant square.
    fn has_pseudo_legal_en_passant(&self) -> PyResult<bool> {
        let pos = self.position()?;
        let Some(ep) = pos.ep_square() else { return Ok(false) };
        let ours = pos.board().by_role(Role::Pawn) & pos.board().by_color(pos.turn());
        Ok((chessbits_bitboard::tables::pawn(!pos.turn(), ep) & ours).any())
    }

    /// The legal en passant captures, one at a time.
    fn generate_legal_ep<'py>(&self, py: Python<'py>) -> PyResult<MoveIter<'py>> {
        let pos = self.position()?;
        let moves: Vec<Move> = pos.en_passant_moves().iter().map(|&m| self.to_py(m)).collect();
        state::iterate(py, moves)
    }
}
