//! `chessbits.Board`: python-chess's names over a [`Game`].
//!
//! This file is the class's one `#[pymethods]` block (pyo3 takes a class's Python methods in
//! one block unless its `multiple-pymethods` feature is on, whose load-time registration
//! keeps pyo3's Python calls in the library's test binary, which then cannot link without
//! libpython: tried and reverted), so it is long: about 200 methods and properties, each a
//! short wrapper. What they do is elsewhere: the board's state and accessors in
//! `board/state.rs`, EPD operations in `board/epd.rs`, edits in `edit.rs`, python-chess's
//! placement rules in `placement.rs`.

use chessbits_bitboard::{Color, Role};
use chessbits_move::{CastlingMode, UciMove};
use chessbits_movegen::{Game, MoveGen, Outcome as RustOutcome, Termination};
use chessbits_notation::fen::{CastlingNotation, EnPassantMode};
use chessbits_notation::san::SanPlus;
use chessbits_state::{CastlingSide, Setup, CHESS960_POSITIONS};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::drawing;
use crate::edit;
use crate::moves::{move_arg, parse_uci as uci_move, resolve_uci, LegalMoves, Move, Outcome};
use crate::pieces::{
    piece_type, role_of, square_index, ColorArg, Mask, Piece, PieceArg, SquareSet,
};
use crate::placement;

/// The FEN of the standard starting position.
pub const STARTING_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

mod epd;
mod state;

use state::{Generated, MoveIter};

/// Every square: the default of python-chess's masks (`BB_ALL`).
const ALL: Mask = Mask(u64::MAX);

/// A game in progress: a position, the moves that led to it and their history, with
/// python-chess's names. Every move is checked. A board can also be set up piece by piece
/// (`Board(None)`, `set_piece_at`, `turn = ...`), as python-chess's; until it is a legal
/// position, `status()` says what is wrong and moves raise `PositionError`.
#[pyclass(module = "chessbits")]
#[derive(Clone)]
pub struct Board {
    /// Boxed: `Position` is aligned to 64 bytes, and Python's allocator, which places a class's
    /// fields, aligns to 16 (pyo3 would read a misaligned value, which debug builds catch).
    game: Box<Game>,
    /// The fields as the last edit (`Board(None)`, `set_piece_at`, `turn = ...`) set them,
    /// castling rights and en passant square as given: python-chess's `castling_rights`,
    /// `ep_square` and `status()` read them until a move is played (and again when it is
    /// taken back).
    edited: Option<Box<Setup>>,
    /// `false` when `edited` is no position moves can be played from (a king missing or
    /// doubled, the side not to move in check): `game` is then the standard start, unread.
    playable: bool,
}

#[pymethods]
impl Board {
    /// A board from a FEN (the standard start when not given): a standard chess board, or a
    /// Chess960 one with `chess960=True`. A standard board refuses castling rights that only
    /// Chess960 has (a king off e1/e8 with rights, or a right to a rook off the a and h
    /// files, as Shredder-FEN `GB` can name); python-chess drops them silently.
    ///
    /// `Board(None)` is an empty board, white to move, to set up piece by piece
    /// (`set_piece_at`), as python-chess's.
    ///
    /// Raises `FenError` when the text is not FEN, `PositionError` when the position is not
    /// legal, or its castling rights need `chess960=True`.
    #[new]
    #[pyo3(signature = (fen=Some(STARTING_FEN), *, chess960=false))]
    fn py_new(fen: Option<&str>, chess960: bool) -> PyResult<Board> {
        match fen {
            Some(fen) => Board::new(fen, chess960),
            None => Ok(Board::of_setup(Setup::empty(), chess960)),
        }
    }

    /// The FEN. `en_passant` says when it names the en passant square: `"legal"` only when a
    /// capture is legal (python-chess's default), `"fen"` after every double push, `"xfen"`
    /// when a pawn stands ready to take, legal or not. `shredder=True` writes the castling
    /// rights as the rooks' files (`HAha`), as python-chess does. `promoted=True` writes a `~`
    /// after each piece that came by promotion in the moves played (`promoted`).
    #[pyo3(signature = (*, shredder=false, en_passant="legal", promoted=None))]
    fn fen(&self, shredder: bool, en_passant: &str, promoted: Option<bool>) -> PyResult<String> {
        let castling =
            if shredder { CastlingNotation::Shredder } else { CastlingNotation::default() };
        let fen = self.fen_text(state::en_passant_mode(en_passant)?, castling);
        Ok(self.with_promoted_marks(fen, promoted.unwrap_or(false)))
    }

    /// The legal moves, in generation order, as python-chess's `board.legal_moves`: iterable,
    /// with `len`, `in` and `count()`.
    #[getter]
    fn legal_moves(&self) -> PyResult<LegalMoves> {
        let pos = self.position()?;
        let moves = pos.legal_moves().iter().map(|&m| self.to_py(m)).collect();
        Ok(LegalMoves { moves, king_home: self.king_home(pos) })
    }

    /// `True` if `move` is legal here.
    fn is_legal(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let m = move_arg(r#move)?;
        Ok(m.uci != UciMove::Null && resolve_uci(self.position()?, m.uci).is_ok())
    }

    /// Plays `move`. Raises `IllegalMoveError` if it is not legal (the null move is refused
    /// in check).
    fn push(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let m = self.resolve(&move_arg(r#move)?)?;
        self.play(m)
    }

    /// Takes back the last move and returns it. Raises `IndexError` at the start.
    fn pop(&mut self) -> PyResult<Move> {
        let m = self
            .game
            .undo()
            .ok_or_else(|| pyo3::exceptions::PyIndexError::new_err("pop from empty move stack"))?;
        Ok(self.to_py(m))
    }

    /// The last move played. Raises `IndexError` at the start.
    fn peek(&self) -> PyResult<Move> {
        let m =
            *self.game.moves().last().ok_or_else(|| {
                pyo3::exceptions::PyIndexError::new_err("peek at empty move stack")
            })?;
        let mut before = self.game.clone();
        before.undo();
        Ok(Move { uci: before.position().uci(m) })
    }

    /// Parses SAN, plays it and returns the move. Raises `InvalidMoveError` for text that is
    /// not SAN, `IllegalMoveError` or `AmbiguousMoveError` when it names no legal move or
    /// several.
    fn push_san(&mut self, san: &str) -> PyResult<Move> {
        let m = self.san_move(san)?;
        let py = self.to_py(m);
        self.play(m)?;
        Ok(py)
    }

    /// Parses UCI, plays it and returns the move.
    fn push_uci(&mut self, uci: &str) -> PyResult<Move> {
        let m = self.resolve(&uci_move(uci)?)?;
        let py = self.to_py(m);
        self.play(m)?;
        Ok(py)
    }

    /// The SAN of `move` here, with `+` or `#`. Raises `IllegalMoveError` if it is not legal.
    fn san(&self, r#move: &Bound<'_, PyAny>) -> PyResult<String> {
        let m = self.resolve(&move_arg(r#move)?)?;
        Ok(SanPlus::from_move(self.position()?, m).to_string())
    }

    /// Parses SAN against this position into a move, without playing it. A fully
    /// specified move (`g1f3`, `e1g1`) is taken too, as python-chess takes it.
    fn parse_san(&self, san: &str) -> PyResult<Move> {
        Ok(self.to_py(self.san_move(san)?))
    }

    /// Parses UCI against this position into a legal move (castling written as this board
    /// writes it), without playing it. Raises `InvalidMoveError` for text that is not UCI,
    /// `IllegalMoveError` for a move that is not legal here.
    fn parse_uci(&self, uci: &str) -> PyResult<Move> {
        Ok(self.to_py(self.resolve(&uci_move(uci)?)?))
    }

    /// The moves played, oldest first.
    #[getter]
    fn move_stack(&self) -> Vec<Move> {
        self.moves_played()
    }

    /// `True` for white to move, `False` for black (python-chess's `chess.WHITE`/`BLACK`).
    /// Setting it (as every setter here) forgets the moves played; python-chess keeps them.
    #[getter]
    fn turn(&self) -> bool {
        self.field(|s| s.turn, |p| p.turn()) == Color::White
    }

    /// Sets the side to move; the moves are forgotten (python-chess keeps them).
    #[setter(turn)]
    fn set_turn(&mut self, color: ColorArg) {
        self.edit(|setup| setup.turn = color.0);
    }

    /// Halfmoves since the last capture or pawn move. Settable.
    #[getter]
    fn halfmove_clock(&self) -> u32 {
        self.field(|s| s.halfmoves, |p| p.halfmoves())
    }

    /// Sets the halfmove clock; the moves are forgotten.
    #[setter(halfmove_clock)]
    fn set_halfmove_clock(&mut self, clock: u32) {
        self.edit(|setup| setup.halfmoves = clock);
    }

    /// The move number, from 1, counted up after black's move. Settable (at least 1).
    #[getter]
    fn fullmove_number(&self) -> u32 {
        self.field(|s| s.fullmoves, |p| p.fullmoves())
    }

    /// Sets the move number (at least 1); the moves are forgotten.
    #[setter(fullmove_number)]
    fn set_fullmove_number(&mut self, number: u32) {
        self.edit(|setup| setup.fullmoves = number.max(1));
    }

    /// The square a pawn skipped with a double push on the last move (or the FEN's), whether
    /// or not a capture there is legal, as python-chess's `ep_square`; else `None`.
    /// `has_legal_en_passant()` says whether a capture is legal. Settable: as set, it is
    /// what this says, and a square no double push left is flagged by `status()` and not
    /// played with.
    #[getter]
    fn ep_square(&self) -> Option<u8> {
        self.field(|s| s.ep_square, |p| p.ep_square()).map(|s| s as u8)
    }

    /// Sets the en passant square (`None` for none); one no double push can have left is
    /// dropped and flagged by `status()`. The moves are forgotten.
    #[setter(ep_square)]
    fn set_ep_square(&mut self, square: Option<i64>) -> PyResult<()> {
        let square = square.map(square_index).transpose()?;
        self.edit(|setup| setup.ep_square = square);
        Ok(())
    }

    /// `True` if an en passant capture is legal here.
    fn has_legal_en_passant(&self) -> PyResult<bool> {
        Ok(self.position()?.legal_ep_square().is_some())
    }

    /// `True` for a Chess960 board (castling written king-takes-rook).
    #[getter]
    fn chess960(&self) -> bool {
        self.field(|s| s.castling_mode, |p| p.castling_mode()) == CastlingMode::Chess960
    }

    /// The piece on `square`, or `None`. Raises `IndexError` for a square outside 0..=63.
    fn piece_at(&self, square: i64) -> PyResult<Option<Piece>> {
        let sq = square_index(square)?;
        Ok(self.placement().piece_at(sq).map(|inner| Piece { inner }))
    }

    /// The type of the piece on `square` (1 pawn .. 6 king), or `None`.
    fn piece_type_at(&self, square: i64) -> PyResult<Option<u8>> {
        let sq = square_index(square)?;
        Ok(self.placement().role_at(sq).map(piece_type))
    }

    /// The color of the piece on `square` (`True` white), or `None`.
    fn color_at(&self, square: i64) -> PyResult<Option<bool>> {
        let sq = square_index(square)?;
        Ok(self.placement().color_at(sq).map(|c| c == Color::White))
    }

    /// The squares of the pieces of `piece_type` (1 pawn .. 6 king) and `color`.
    fn pieces(&self, piece_type: i64, color: ColorArg) -> PyResult<SquareSet> {
        let piece = chessbits_bitboard::Piece { role: role_of(piece_type)?, color: color.0 };
        Ok(self.placement().by_piece(piece).into())
    }

    /// The square of `color`'s king.
    fn king(&self, color: ColorArg) -> Option<u8> {
        let board = self.placement();
        (board.by_role(Role::King) & board.by_color(color.0)).last().map(|sq| sq as u8)
    }

    /// The pieces of `color` that attack `square` (pinned ones included, as python-chess).
    /// `occupied` (a mask, the board's pieces by default) says which squares block a rook,
    /// bishop or queen, as python-chess's.
    #[pyo3(signature = (color, square, occupied=None))]
    fn attackers(
        &self,
        color: ColorArg,
        square: i64,
        occupied: Option<Mask>,
    ) -> PyResult<SquareSet> {
        Ok(SquareSet { mask: self.attackers_mask(color, square, occupied)? })
    }

    /// `True` if a piece of `color` attacks `square` (`occupied` as for `attackers`).
    #[pyo3(signature = (color, square, occupied=None))]
    fn is_attacked_by(
        &self,
        color: ColorArg,
        square: i64,
        occupied: Option<Mask>,
    ) -> PyResult<bool> {
        Ok(self.attackers_mask(color, square, occupied)? != 0)
    }

    /// `True` if the legal `move` gives check. Raises `IllegalMoveError` for a move that is
    /// not legal here (python-chess asks for a pseudo-legal one).
    fn gives_check(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let m = self.resolve(&move_arg(r#move)?)?;
        if m.is_null() {
            return Ok(false);
        }
        Ok(self.position()?.played_unchecked(m).is_check())
    }

    /// `True` if `move` captures: a piece of the other side stands on its destination, or it
    /// is an en passant capture (python-chess's rule; the move need not be legal).
    fn is_capture(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.captures(&move_arg(r#move)?))
    }

    /// `True` if `move` is an en passant capture: a pawn moving diagonally onto the en
    /// passant square.
    fn is_en_passant(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.en_passant(&move_arg(r#move)?))
    }

    /// `True` if `move` is a castling move: the king moving two files, or onto its own rook.
    fn is_castling(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.castling(&move_arg(r#move)?).is_some())
    }

    /// `True` if `move` castles king-side (towards the h-file).
    fn is_kingside_castling(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.castling(&move_arg(r#move)?) == Some(CastlingSide::KingSide))
    }

    /// `True` if `move` castles queen-side (towards the a-file).
    fn is_queenside_castling(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.castling(&move_arg(r#move)?) == Some(CastlingSide::QueenSide))
    }

    /// `True` if `move` resets the halfmove clock: a pawn move or a capture.
    fn is_zeroing(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let m = move_arg(r#move)?;
        let UciMove::Normal { from, .. } = m.uci else { return Ok(false) };
        let pawn = self.placement().role_at(from) == Some(Role::Pawn);
        Ok(pawn || self.is_capture(r#move)?)
    }

    /// The pieces of the other side that give check.
    fn checkers(&self) -> SquareSet {
        SquareSet { mask: self.checkers_mask() }
    }

    /// `True` if the piece of `color` on `square` may not leave the line from its king to
    /// an enemy rook, bishop or queen (python-chess's `is_pinned`: only `square` stands
    /// between them).
    fn is_pinned(&self, color: ColorArg, square: i64) -> PyResult<bool> {
        Ok(self.pin_mask(color, square)? != u64::MAX)
    }

    /// The plies played since the start of the game the FEN counts from: `2 *
    /// (fullmove_number - 1)`, plus one with black to move.
    fn ply(&self) -> u64 {
        let (fullmoves, turn) =
            self.field(|s| (s.fullmoves, s.turn), |p| (p.fullmoves(), p.turn()));
        2 * u64::from(fullmoves.saturating_sub(1)) + u64::from(turn == Color::Black)
    }

    /// Every piece by its square, as a dict of `Piece`; with `mask`, those on its squares.
    #[pyo3(signature = (*, mask=ALL))]
    fn piece_map(&self, mask: Mask) -> std::collections::BTreeMap<u8, Piece> {
        let board = self.placement();
        (board.occupied() & chessbits_bitboard::Bitboard(mask.0))
            .into_iter()
            .filter_map(|sq| board.piece_at(sq).map(|inner| (sq as u8, Piece { inner })))
            .collect()
    }

    /// The UCI text of `move`, castling written king takes rook with `chess960` (the board's
    /// mode by default), the king's two squares otherwise. As python-chess's: a move of the
    /// king on e1 (e8) to g1 or c1 (g8, c8) with no rook there is castling, and so is its move
    /// onto the a or h corner; the move need not be legal.
    #[pyo3(signature = (r#move, *, chess960=None))]
    fn uci(&self, r#move: &Bound<'_, PyAny>, chess960: Option<bool>) -> PyResult<String> {
        let m = move_arg(r#move)?;
        let chess960 = chess960.unwrap_or_else(|| self.chess960());
        Ok(placement::castling_uci(self.placement(), m.uci, chess960).to_string())
    }

    /// The long algebraic notation of the legal `move`, as python-chess's `lan`: `Ng1-f3`,
    /// `e4xd5`, `O-O`, `e7-e8=Q+`, `--` for the null move. Raises `IllegalMoveError` if it
    /// is not legal.
    fn lan(&self, r#move: &Bound<'_, PyAny>) -> PyResult<String> {
        let m = self.resolve(&move_arg(r#move)?)?;
        Ok(crate::moves::lan(self.position()?, m))
    }

    /// The legal moves, one at a time (python-chess's `generate_legal_moves()`): those from a
    /// square of `from_mask` to one of `to_mask`, where a castling move goes from the king's
    /// square to its rook's, as in python-chess (every square by default).
    #[pyo3(signature = (from_mask=ALL, to_mask=ALL))]
    fn generate_legal_moves<'py>(
        &self,
        py: Python<'py>,
        from_mask: Mask,
        to_mask: Mask,
    ) -> PyResult<MoveIter<'py>> {
        self.generate(py, Generated::Legal, from_mask, to_mask)
    }

    /// The legal captures, en passant included, one at a time (python-chess's
    /// `generate_legal_captures()`; masks as for `generate_legal_moves`).
    #[pyo3(signature = (from_mask=ALL, to_mask=ALL))]
    fn generate_legal_captures<'py>(
        &self,
        py: Python<'py>,
        from_mask: Mask,
        to_mask: Mask,
    ) -> PyResult<MoveIter<'py>> {
        self.generate(py, Generated::LegalCaptures, from_mask, to_mask)
    }

    /// The squares the piece on `square` attacks (none for an empty square; a pinned piece
    /// still attacks), as python-chess's `attacks(square)`.
    fn attacks(&self, square: i64) -> PyResult<SquareSet> {
        Ok(placement::attacks(self.placement(), square_index(square)?).into())
    }

    /// Puts `piece` on `square` (`None` empties it), as python-chess's `set_piece_at`; the
    /// moves are forgotten. The board may then be no legal position (`status()` says why);
    /// moves cannot be played on it until it is. `promoted` is accepted and not kept.
    #[pyo3(signature = (square, piece, promoted=false))]
    fn set_piece_at(
        &mut self,
        square: i64,
        piece: Option<PieceArg>,
        promoted: bool,
    ) -> PyResult<()> {
        let _ = promoted;
        let sq = square_index(square)?;
        self.edit(|setup| match piece {
            Some(piece) => setup.board.set_piece_at(sq, piece.0),
            None => {
                setup.board.remove_piece_at(sq);
            }
        });
        Ok(())
    }

    /// Takes the piece off `square` and returns it (`None` for an empty square); the moves
    /// are forgotten, as `set_piece_at`.
    fn remove_piece_at(&mut self, square: i64) -> PyResult<Option<Piece>> {
        let sq = square_index(square)?;
        let removed = self.placement().piece_at(sq);
        self.edit(|setup| {
            setup.board.remove_piece_at(sq);
        });
        Ok(removed.map(|inner| Piece { inner }))
    }

    /// Places the pieces of `pieces` (a dict from square to `Piece`) on an empty board, the
    /// other fields kept; the moves are forgotten.
    fn set_piece_map(&mut self, pieces: std::collections::HashMap<i64, PieceArg>) -> PyResult<()> {
        let mut board = chessbits_state::Board::empty();
        for (square, piece) in pieces {
            board.set_piece_at(square_index(square)?, piece.0);
        }
        self.edit(|setup| setup.board = board);
        Ok(())
    }

    /// An empty board, white to move, no castling rights nor en passant square, the clocks
    /// at 0 and 1, as python-chess's `clear()`. Put kings on it before playing moves.
    fn clear(&mut self) {
        let chess960 = self.chess960();
        *self = Board::of_setup(Setup::empty(), chess960);
    }

    /// Takes every piece off the board, the other fields kept (python-chess's
    /// `clear_board()`); the moves are forgotten.
    fn clear_board(&mut self) {
        self.edit(|setup| setup.board = chessbits_state::Board::empty());
    }

    /// Forgets the moves played, keeping the position (python-chess's `clear_stack()`).
    fn clear_stack(&mut self) {
        // With no move played there is nothing to forget (and an edit's fields stay as set).
        if self.playable && !self.game.moves().is_empty() {
            *self = Board::of_game(Game::new(*self.game.position()));
        }
    }

    /// `True` if the side that just moved left its king attacked.
    fn was_into_check(&self) -> bool {
        placement::was_into_check(&self.fields())
    }

    /// `True` if `move` would leave the side to move's king attacked: it is not legal
    /// (python-chess asks for a pseudo-legal move). The null move does so only in check.
    fn is_into_check(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let m = move_arg(r#move)?;
        let pos = self.position()?;
        Ok(if m.uci == UciMove::Null { pos.is_check() } else { resolve_uci(pos, m.uci).is_err() })
    }

    /// `True` if `move` can never be taken back by a repetition: a pawn move, a capture, a
    /// move that loses castling rights, or any move while an en passant capture is legal.
    fn is_irreversible(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let m = move_arg(r#move)?;
        if self.is_zeroing(r#move)? || self.has_legal_en_passant()? {
            return Ok(true);
        }
        let rights = chessbits_bitboard::Bitboard(self.clean_castling_rights());
        Ok(placement::loses_castling_rights(self.placement(), rights, m.uci))
    }

    /// The legal move from `from_square` to `to_square` (a pawn reaching the last rank
    /// promotes to a queen unless `promotion` says otherwise; castling by the king's two
    /// squares or onto its rook), as python-chess's `find_move`. Raises `IllegalMoveError`
    /// if there is none.
    #[pyo3(signature = (from_square, to_square, promotion=None))]
    fn find_move(
        &self,
        from_square: i64,
        to_square: i64,
        promotion: Option<i64>,
    ) -> PyResult<Move> {
        let promotion = promotion.map(role_of).transpose()?;
        let m = self.find(square_index(from_square)?, square_index(to_square)?, promotion)?;
        Ok(self.to_py(m))
    }

    /// The move as XBoard writes it: UCI, but `O-O`/`O-O-O` for castling on a Chess960 board
    /// (`chess960` says which, the board's kind by default), `@@@@` for the null move.
    #[pyo3(signature = (r#move, chess960=None))]
    fn xboard(&self, r#move: &Bound<'_, PyAny>, chess960: Option<bool>) -> PyResult<String> {
        let m = move_arg(r#move)?;
        if chess960.unwrap_or_else(|| self.chess960()) {
            match self.castling(&m) {
                Some(CastlingSide::KingSide) => return Ok("O-O".to_owned()),
                Some(CastlingSide::QueenSide) => return Ok("O-O-O".to_owned()),
                None => {}
            }
        }
        Ok(m.xboard())
    }

    /// Parses an XBoard move (SAN or UCI, `@@@@` for the null move) against this position
    /// (python-chess's `parse_xboard`).
    fn parse_xboard(&self, xboard: &str) -> PyResult<Move> {
        self.parse_san(xboard)
    }

    /// Parses an XBoard move, plays it and returns it (python-chess's `push_xboard`).
    fn push_xboard(&mut self, san: &str) -> PyResult<Move> {
        self.push_san(san)
    }

    /// Plays `move` and returns its SAN (python-chess's `san_and_push`).
    fn san_and_push(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<String> {
        let san = self.san(r#move)?;
        self.push(r#move)?;
        Ok(san)
    }

    /// Puts the pieces back where they start, the other fields kept; the moves are
    /// forgotten (python-chess's `reset_board()`).
    fn reset_board(&mut self) {
        let start = *chessbits_state::Position::new().board();
        self.edit(|setup| setup.board = start);
    }

    /// Mirrors the board in place (python-chess's `apply_mirror()`); the moves are
    /// forgotten.
    fn apply_mirror(&mut self) {
        *self = self.mirror();
    }

    /// A board transformed by `f`, a function of a 64-bit mask (`chessbits.flip_vertical`,
    /// `flip_horizontal`, ...): applied to every piece's squares, the castling rights and the
    /// en passant square, as python-chess's `transform(f)`.
    fn transform(&self, f: &Bound<'_, PyAny>) -> PyResult<Board> {
        let mut board = self.clone();
        board.apply_transform(f)?;
        Ok(board)
    }

    /// `transform(f)` in place; the moves are forgotten.
    fn apply_transform(&mut self, f: &Bound<'_, PyAny>) -> PyResult<()> {
        let setup = edit::transform(&self.fields(), f)?;
        *self = Board::of_setup(setup, self.chess960());
        Ok(())
    }

    /// Back to the standard starting position, the moves forgotten.
    fn reset(&mut self) {
        let mut start = chessbits_state::Position::new();
        if self.chess960() {
            // The standard rights are Chess960 rights too: this cannot fail.
            let _ = start.set_castling_mode(CastlingMode::Chess960);
        }
        *self = Board::of_game(Game::new(start));
    }

    /// The placement field of the FEN; `promoted=True` marks with a `~` each piece that came
    /// by promotion in the moves played.
    #[pyo3(signature = (*, promoted=Some(false)), text_signature = "($self, *, promoted=False)")]
    fn board_fen(&self, promoted: Option<bool>) -> String {
        let fen = self.placement().board_fen().to_string();
        self.with_promoted_marks(fen, promoted.unwrap_or(false))
    }

    /// Sets the pieces from a FEN's placement field, the other fields kept; the moves are
    /// forgotten. Raises `FenError` for text that is not a placement.
    fn set_board_fen(&mut self, fen: &str) -> PyResult<()> {
        let board = edit::board_fen(fen)?;
        self.edit(|setup| setup.board = board);
        Ok(())
    }

    /// The EPD: the FEN's first four fields, written as `fen()` writes them, then the
    /// `operations` given as keywords, as python-chess's `epd()`: `board.epd(bm=move,
    /// id="x")` gives `... bm Nf3; id "x";` (moves in SAN; a list for `bm`, `am`, and the
    /// variation `pv`; ints and floats as Python prints them; anything else a string).
    #[pyo3(signature = (*, shredder=false, en_passant="legal", promoted=None, **operations))]
    fn epd(
        &self,
        shredder: bool,
        en_passant: &str,
        promoted: Option<bool>,
        operations: Option<&Bound<'_, pyo3::types::PyDict>>,
    ) -> PyResult<String> {
        let fen = self.fen(shredder, en_passant, promoted)?;
        let mut text = fen.split(' ').take(4).collect::<Vec<_>>().join(" ");
        if let Some(operations) = operations.filter(|ops| !ops.is_empty()) {
            text.push(' ');
            text.push_str(&epd::write_operations(self, operations)?);
        }
        Ok(text)
    }

    /// Sets the position from an EPD (the four fields, then operations) and returns its
    /// operations as a dict, as python-chess's `set_epd`: `hmvc` and `fmvn` set the clocks
    /// (0 and 1 without them). Raises `FenError`/`PositionError` for the fields, `ValueError`
    /// for an operation, a move error for a move that is not legal; the board is unchanged
    /// then.
    fn set_epd<'py>(&mut self, py: Python<'py>, epd: &str) -> PyResult<Bound<'py, PyDict>> {
        let (fen, operations) = epd::read(py, epd, self.chess960())?;
        self.set_fen(&fen)?;
        Ok(operations)
    }

    /// A board and the operations of an EPD (python-chess's `Board.from_epd`).
    #[classmethod]
    #[pyo3(signature = (epd, *, chess960=false))]
    fn from_epd<'py>(
        _cls: &Bound<'_, pyo3::types::PyType>,
        py: Python<'py>,
        epd: &str,
        chess960: bool,
    ) -> PyResult<(Board, Bound<'py, PyDict>)> {
        let mut board = Board::new(STARTING_FEN, chess960)?;
        let operations = board.set_epd(py, epd)?;
        Ok((board, operations))
    }

    /// Sets the position from a FEN and clears the moves, keeping the board's `chess960`.
    /// Raises as the constructor; the board is unchanged then.
    fn set_fen(&mut self, fen: &str) -> PyResult<()> {
        *self = Board::new(fen, self.chess960())?;
        Ok(())
    }

    /// The moves as SAN with move numbers from this position (`1. e4 e5 2. Nf3`, or `1...e5`
    /// when black moves first). Raises `IllegalMoveError` for a move that is not legal where it
    /// stands; the board is unchanged.
    fn variation_san(&self, variation: &Bound<'_, PyAny>) -> PyResult<String> {
        crate::moves::variation_san(*self.position()?, variation)
    }

    /// The diagram in figurines, as python-chess's `unicode()`: ranks 8 to 1 (1 to 8 and files
    /// h to a with `orientation=False`), `empty_square` for an empty square.
    // The signature's text spells the default in ASCII: `inspect.signature` reads the text as
    // ASCII, and a trial found it failing on the figurine.
    #[pyo3(
        signature = (*, invert_color=false, borders=false, empty_square="⭘", orientation=true),
        text_signature = "($self, *, invert_color=False, borders=False, empty_square='\\u2b58', orientation=True)"
    )]
    fn unicode(
        &self,
        invert_color: bool,
        borders: bool,
        empty_square: &str,
        orientation: bool,
    ) -> String {
        drawing::unicode(self.placement(), invert_color, borders, empty_square, orientation)
    }

    /// The position mirrored vertically with the colors swapped (python-chess's `mirror()`):
    /// white's pieces become black's on the mirrored squares, the other side moves, castling
    /// rights and the en passant square follow. The moves are not kept.
    fn mirror(&self) -> Board {
        Board::of_setup(edit::mirror(&self.fields()), self.chess960())
    }

    /// `True` if `status()` is `STATUS_VALID`: a board set up piece by piece may not be.
    fn is_valid(&self) -> bool {
        placement::status(&self.fields()) == 0
    }

    /// python-chess's `status()`: a `chessbits.Status` flag (an `IntFlag`, equal to
    /// python-chess's of the same value): `Status.VALID` (0), or `NO_WHITE_KING`,
    /// `BAD_CASTLING_RIGHTS`, ... or-ed together, by python-chess's rules. A board from a FEN or moves is valid but for an impossible check; one set up
    /// piece by piece may be anything. Castling rights and an en passant square set wrong
    /// are flagged while no move has been played since, as python-chess flags them. More
    /// promoted pieces than missing pawns, which python-chess allows and chessbits does not
    /// play, is flagged as `STATUS_TOO_MANY_WHITE_PIECES` (or black's).
    fn status<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        static STATUS: pyo3::sync::PyOnceLock<Py<pyo3::types::PyType>> =
            pyo3::sync::PyOnceLock::new();
        // `Status.VALID`, what almost every call returns, made once: building an IntFlag
        // costs about ten times what finding the flags does.
        static VALID: pyo3::sync::PyOnceLock<Py<PyAny>> = pyo3::sync::PyOnceLock::new();
        let class = STATUS.import(py, "chessbits", "Status")?;
        let flags = placement::status(&self.fields());
        if flags == 0 {
            let valid = VALID.get_or_try_init(py, || class.call1((0,)).map(Bound::unbind))?;
            return Ok(valid.bind(py).clone());
        }
        class.call1((flags,))
    }

    /// An SVG drawing of the board (light and dark squares, figurines, coordinates), which
    /// Jupyter shows for a board as it does python-chess's.
    fn _repr_svg_(&self) -> String {
        drawing::svg(self.placement(), chessbits_bitboard::Bitboard::EMPTY)
    }

    /// The Polyglot Zobrist key of the position (python-chess's
    /// `chess.polyglot.zobrist_hash`).
    fn zobrist_hash(&self) -> PyResult<u64> {
        Ok(self.position()?.key())
    }

    /// The number of legal moves, counted without building a list.
    fn legal_move_count(&self) -> PyResult<usize> {
        Ok(self.position()?.count_legal_moves())
    }

    /// The start position, as a board with no moves played.
    fn root(&self) -> Board {
        if self.edited.is_some() {
            // The edit is where this board's moves start.
            let game = Box::new(Game::new(*self.game.start()));
            return Board { game, edited: self.edited.clone(), playable: self.playable };
        }
        Board::of_game(Game::new(*self.game.start()))
    }

    /// An independent copy: with its moves (`stack=True`), none of them (`False`, the
    /// position alone), or the last `stack` of them, as python-chess's `copy(stack=)`.
    #[pyo3(signature = (*, stack=None))]
    fn copy(&self, stack: Option<&Bound<'_, PyAny>>) -> PyResult<Board> {
        let played = self.game.moves().len();
        let keep = match stack {
            None => played,
            Some(s) if s.is_instance_of::<pyo3::types::PyBool>() => {
                if s.extract::<bool>()? {
                    played
                } else {
                    0
                }
            }
            Some(s) => usize::try_from(crate::args::integer(s, "stack", 0)?)
                .unwrap_or(usize::MAX)
                .min(played),
        };
        self.keeping(keep)
    }

    fn __copy__(&self) -> Board {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Board {
        self.clone()
    }

    /// Equal to a board of the same position, as python-chess compares boards: the pieces,
    /// the side to move, the castling rights, the en passant square where a capture is
    /// legal, and the clocks; not the moves that led there.
    fn __eq__(&self, other: &Board) -> bool {
        let fen = |board: &Board| board.fen_text(EnPassantMode::Legal, CastlingNotation::default());
        fen(self) == fen(other)
    }

    /// The diagram, as python-chess's `str(board)`.
    fn __str__(&self) -> String {
        drawing::diagram(self.placement())
    }

    /// `Board('FEN')` and the diagram below it.
    fn __repr__(&self) -> String {
        let fen = self.fen_text(EnPassantMode::Legal, CastlingNotation::default());
        let chess960 = if self.chess960() { ", chess960=True" } else { "" };
        format!("Board('{fen}'{chess960})\n{}", drawing::diagram(self.placement()))
    }

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

    /// The pieces of `color` that attack `square`, as a mask (`occupied` as for `attackers`).
    #[pyo3(signature = (color, square, occupied=None))]
    fn attackers_mask(
        &self,
        color: ColorArg,
        square: i64,
        occupied: Option<Mask>,
    ) -> PyResult<u64> {
        let board = self.placement();
        let blockers = occupied.map_or(board.occupied(), |m| chessbits_bitboard::Bitboard(m.0));
        Ok(placement::attackers(board, color.0, square_index(square)?, blockers).0)
    }

    /// The squares the piece on `square` attacks, as a mask.
    fn attacks_mask(&self, square: i64) -> PyResult<u64> {
        Ok(self.attacks(square)?.mask)
    }

    /// The pieces that give check to the side to move, as a mask.
    fn checkers_mask(&self) -> u64 {
        let board = self.placement();
        let us = self.field(|s| s.turn, |p| p.turn());
        let king = (board.by_role(Role::King) & board.by_color(us)).last();
        king.map_or(0, |king| placement::attackers_mask(board, !us, king).0)
    }

    /// The line the piece of `color` on `square` is pinned along (through its king and the
    /// pinner), or every square if it is not pinned, as a mask (python-chess's `pin_mask`).
    fn pin_mask(&self, color: ColorArg, square: i64) -> PyResult<u64> {
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

    /// The pseudo-legal moves, one at a time (masks as for `generate_legal_moves`).
    #[pyo3(signature = (from_mask=ALL, to_mask=ALL))]
    fn generate_pseudo_legal_moves<'py>(
        &self,
        py: Python<'py>,
        from_mask: Mask,
        to_mask: Mask,
    ) -> PyResult<MoveIter<'py>> {
        self.generate(py, Generated::Pseudo, from_mask, to_mask)
    }

    /// The pseudo-legal captures (en passant included), one at a time (masks as for
    /// `generate_legal_moves`).
    #[pyo3(signature = (from_mask=ALL, to_mask=ALL))]
    fn generate_pseudo_legal_captures<'py>(
        &self,
        py: Python<'py>,
        from_mask: Mask,
        to_mask: Mask,
    ) -> PyResult<MoveIter<'py>> {
        self.generate(py, Generated::PseudoCaptures, from_mask, to_mask)
    }

    /// The pseudo-legal en passant captures, one at a time: each pawn that attacks the empty
    /// en passant square (masks as for `generate_legal_moves`).
    #[pyo3(signature = (from_mask=ALL, to_mask=ALL))]
    fn generate_pseudo_legal_ep<'py>(
        &self,
        py: Python<'py>,
        from_mask: Mask,
        to_mask: Mask,
    ) -> PyResult<MoveIter<'py>> {
        self.generate(py, Generated::PseudoEp, from_mask, to_mask)
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

    /// The legal en passant captures, one at a time (masks as for `generate_legal_moves`).
    #[pyo3(signature = (from_mask=ALL, to_mask=ALL))]
    fn generate_legal_ep<'py>(
        &self,
        py: Python<'py>,
        from_mask: Mask,
        to_mask: Mask,
    ) -> PyResult<MoveIter<'py>> {
        self.generate(py, Generated::LegalEp, from_mask, to_mask)
    }

    /// The FEN with Shredder castling letters (python-chess's `shredder_fen()`; `en_passant`
    /// and `promoted` as for `fen`).
    #[pyo3(signature = (*, en_passant="legal", promoted=None))]
    fn shredder_fen(&self, en_passant: &str, promoted: Option<bool>) -> PyResult<String> {
        self.fen(true, en_passant, promoted)
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
    fn clean_castling_rights(&self) -> u64 {
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

    /// The legal castling moves, one at a time (masks as for `generate_legal_moves`: the
    /// king's square and its rook's).
    #[pyo3(signature = (from_mask=ALL, to_mask=ALL))]
    fn generate_castling_moves<'py>(
        &self,
        py: Python<'py>,
        from_mask: Mask,
        to_mask: Mask,
    ) -> PyResult<MoveIter<'py>> {
        self.generate(py, Generated::Castling, from_mask, to_mask)
    }

    /// An empty board, white to move (`Board(None)`), as python-chess's `Board.empty()`.
    #[classmethod]
    #[pyo3(signature = (*, chess960=false))]
    fn empty(_cls: &Bound<'_, pyo3::types::PyType>, chess960: bool) -> Board {
        Board::of_setup(Setup::empty(), chess960)
    }

    /// The FEN of the start position of the variant, standard chess (python-chess's class
    /// attribute).
    #[classattr]
    fn starting_fen() -> &'static str {
        STARTING_FEN
    }

    /// The variant's name in UCI (`UCI_Variant`): `"chess"`.
    #[classattr]
    fn uci_variant() -> &'static str {
        "chess"
    }

    /// The variant's name in XBoard: `"normal"`.
    #[classattr]
    fn xboard_variant() -> &'static str {
        "normal"
    }

    /// The names PGN's `Variant` tag gives standard chess, as python-chess's `Board.aliases`.
    #[classattr]
    fn aliases() -> Vec<&'static str> {
        vec!["Standard", "Chess", "Classical", "Normal", "Illegal", "From Position"]
    }

    /// `True`: each side has one king (python-chess's variant flag).
    #[classattr]
    fn one_king() -> bool {
        true
    }

    /// `False`: kings may not stand side by side (python-chess's variant flag).
    #[classattr]
    fn connected_kings() -> bool {
        false
    }

    /// `False`: a capture is never forced (python-chess's variant flag).
    #[classattr]
    fn captures_compulsory() -> bool {
        false
    }

    /// `False`: standard chess has no end of its own beyond mate and draws (python-chess's
    /// variant hook).
    fn is_variant_end(&self) -> bool {
        false
    }

    /// `False`, as `is_variant_end`.
    fn is_variant_win(&self) -> bool {
        false
    }

    /// `False`, as `is_variant_end`.
    fn is_variant_loss(&self) -> bool {
        false
    }

    /// `False`, as `is_variant_end`.
    fn is_variant_draw(&self) -> bool {
        false
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

    /// `True` if the halfmove clock has reached 100 and a move may still be played: the
    /// fifty-move rule may be claimed now (python-chess's `is_fifty_moves()`).
    fn is_fifty_moves(&self) -> PyResult<bool> {
        let pos = self.position()?;
        Ok(pos.halfmoves() >= 100 && pos.count_legal_moves() > 0)
    }

    /// `True` if `color` has too little material to checkmate (python-chess's rule, read
    /// from the pieces alone, so a board being set up is answered too).
    fn has_insufficient_material(&self, color: ColorArg) -> bool {
        chessbits_movegen::has_insufficient_material(self.placement(), color.0)
    }

    /// `True` if the side to move is in check.
    fn is_check(&self) -> PyResult<bool> {
        Ok(self.position()?.is_check())
    }

    /// `True` if the side to move is checkmated.
    fn is_checkmate(&self) -> PyResult<bool> {
        Ok(self.position()?.is_checkmate())
    }

    /// `True` if the side to move has no legal move and is not in check.
    fn is_stalemate(&self) -> PyResult<bool> {
        Ok(self.position()?.is_stalemate())
    }

    /// `True` if neither side can checkmate (python-chess's definition, read from the pieces
    /// alone).
    fn is_insufficient_material(&self) -> bool {
        Color::ALL
            .into_iter()
            .all(|c| chessbits_movegen::has_insufficient_material(self.placement(), c))
    }

    /// `True` after 75 moves each without capture or pawn move (an automatic draw), unless
    /// the side to move has no legal move (mate and stalemate come first).
    fn is_seventyfive_moves(&self) -> PyResult<bool> {
        Ok(self.position()?.halfmoves() >= 150 && self.position()?.has_legal_moves())
    }

    /// `True` if the current position has occurred five times (an automatic draw).
    fn is_fivefold_repetition(&self) -> bool {
        self.game.repetitions() >= 5
    }

    /// `True` if the current position has occurred at least `count` times.
    #[pyo3(signature = (count=3))]
    fn is_repetition(&self, count: i64) -> bool {
        i64::from(self.game.repetitions()) >= count
    }

    /// `True` if the side to move may claim a draw by the fifty-move rule, now or by
    /// announcing a move.
    fn can_claim_fifty_moves(&self) -> PyResult<bool> {
        self.can_claim(Termination::FiftyMoves)
    }

    /// `True` if the side to move may claim a draw by threefold repetition, now or by
    /// announcing a move.
    fn can_claim_threefold_repetition(&self) -> PyResult<bool> {
        self.can_claim(Termination::ThreefoldRepetition)
    }

    /// `True` if the side to move may claim a draw (fifty moves or threefold repetition).
    fn can_claim_draw(&self) -> PyResult<bool> {
        Ok(self.can_claim_fifty_moves()? || self.can_claim_threefold_repetition()?)
    }

    /// `True` if the game is over by the rules (automatic endings), or, with
    /// `claim_draw=True`, if a draw may be claimed.
    #[pyo3(signature = (*, claim_draw=false))]
    fn is_game_over(&self, claim_draw: bool) -> PyResult<bool> {
        Ok(self.outcome(claim_draw)?.is_some())
    }

    /// How the game ended, or `None`: checkmate, stalemate, insufficient material, the
    /// seventy-five-move rule, fivefold repetition; with `claim_draw=True` also the
    /// fifty-move rule and threefold repetition when they may be claimed.
    #[pyo3(signature = (*, claim_draw=false))]
    fn outcome(&self, claim_draw: bool) -> PyResult<Option<Outcome>> {
        self.position()?;
        if let Some(inner) = self.game.outcome() {
            return Ok(Some(Outcome { inner }));
        }
        if claim_draw {
            for termination in [Termination::FiftyMoves, Termination::ThreefoldRepetition] {
                if self.can_claim(termination)? {
                    return Ok(Some(Outcome { inner: RustOutcome::Draw { termination } }));
                }
            }
        }
        Ok(None)
    }

    /// The result: `1-0`, `0-1`, `1/2-1/2`, or `*` while the game goes on.
    #[pyo3(signature = (*, claim_draw=false))]
    fn result(&self, claim_draw: bool) -> PyResult<&'static str> {
        Ok(self.outcome(claim_draw)?.map_or("*", |o| o.result()))
    }
}
