//! `chessbits.Board`: python-chess's names over a [`Game`].

use chessbits_bitboard::{Color, Role, Square};
use chessbits_move::{CastlingMode, UciMove};
use chessbits_movegen::{Game, MoveGen, Outcome as RustOutcome, Termination};
use chessbits_notation::fen::{
    fen_of, parse_position, CastlingNotation, EnPassantMode, FenOptions,
};
use chessbits_notation::san::{San, SanPlus};
use chessbits_state::CastlingSide;
use pyo3::prelude::*;

use crate::errors::{
    fen_error, raise, san_error, IllegalMoveError, InvalidMoveError, PositionError,
};
use crate::moves::{move_arg, LegalMoves, Move, Outcome};
use crate::pieces::{piece_type, role_of, square_index, ColorArg, Piece, SquareSet};

/// The FEN of the standard starting position.
pub const STARTING_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A game in progress: a position, the moves that led to it and their history, with
/// python-chess's names. Every move is checked.
#[pyclass(module = "chessbits")]
#[derive(Clone)]
pub struct Board {
    /// Boxed: `Position` is aligned to 64 bytes, and Python's allocator, which places a class's
    /// fields, aligns to 16 (pyo3 would read a misaligned value, which debug builds catch).
    game: Box<Game>,
}

impl Board {
    /// The current position.
    pub(crate) fn position(&self) -> &chessbits_state::Position {
        self.game.position()
    }

    /// Resolves a Python move against the current position.
    fn resolve(&self, m: &Move) -> PyResult<chessbits_move::Move16> {
        if m.uci == UciMove::Null {
            return Ok(chessbits_move::Move16::NULL);
        }
        self.position().resolve_uci(m.uci).map_err(raise::<IllegalMoveError>)
    }

    /// Plays a resolved move (the null move included).
    fn play(&mut self, m: chessbits_move::Move16) -> PyResult<()> {
        if m.is_null() {
            return self.game.play_null().map_err(raise::<IllegalMoveError>);
        }
        self.game.play(m).map_err(raise::<IllegalMoveError>)
    }

    /// A move as Python sees it, castling written as this position's mode says.
    fn to_py(&self, m: chessbits_move::Move16) -> Move {
        Move { uci: self.position().uci(m) }
    }
}

/// Plays `m`, a move already played from this position once (legal, or a null move out of
/// check), without checking it again.
fn play_known(pos: &mut chessbits_state::Position, m: chessbits_move::Move16) {
    if m.is_null() {
        let _ = pos.play_null();
    } else {
        pos.play_unchecked(m);
    }
}

/// The python-chess diagram: ranks 8 to 1, `.` for an empty square, letters spaced.
fn diagram(pos: &chessbits_state::Position) -> String {
    let mut out = String::with_capacity(128);
    for rank in (0..8).rev() {
        for file in 0..8 {
            let sq = Square::new(rank * 8 + file);
            out.push(pos.board().piece_at(sq).map_or('.', |p| p.char()));
            out.push(if file == 7 { '\n' } else { ' ' });
        }
    }
    out.pop();
    out
}

#[pymethods]
impl Board {
    /// A board from a FEN (the standard start when not given): a standard chess board, or a
    /// Chess960 one with `chess960=True`. A standard board refuses castling rights that only
    /// Chess960 has (a king off e1/e8 with rights, or a right to a rook off the a and h
    /// files, as Shredder-FEN `GB` can name); python-chess drops them silently.
    ///
    /// Raises `FenError` when the text is not FEN, `PositionError` when the position is not
    /// legal, or its castling rights need `chess960=True`.
    #[new]
    #[pyo3(signature = (fen=STARTING_FEN, *, chess960=false))]
    fn new(fen: &str, chess960: bool) -> PyResult<Board> {
        let mut pos = parse_position(fen).map_err(fen_error)?;
        let mode = if chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard };
        pos.set_castling_mode(mode).map_err(|_| {
            let field = fen.split_ascii_whitespace().nth(2).unwrap_or("");
            raise::<PositionError>(format!(
                "castling field {field:?}: rights that need Chess960 (a king off e1/e8 or a \
                 rook off the a and h files); pass chess960=True for a Chess960 board"
            ))
        })?;
        Ok(Board { game: Box::new(Game::new(pos)) })
    }

    /// The FEN. `en_passant` says when it names the en passant square: `"legal"` only when a
    /// capture is legal (python-chess's default), `"fen"` after every double push, `"xfen"`
    /// when a pawn stands ready to take, legal or not. `shredder=True` writes the castling
    /// rights as the rooks' files (`HAha`), as python-chess does.
    #[pyo3(signature = (*, shredder=false, en_passant="legal"))]
    fn fen(&self, shredder: bool, en_passant: &str) -> PyResult<String> {
        let en_passant = match en_passant {
            "legal" => EnPassantMode::Legal,
            "fen" => EnPassantMode::Always,
            "xfen" => EnPassantMode::PseudoLegal,
            other => {
                return Err(pyo3::exceptions::PyValueError::new_err(format!(
                    "en_passant must be 'legal', 'fen' or 'xfen', not {other:?}"
                )))
            }
        };
        let castling =
            if shredder { CastlingNotation::Shredder } else { CastlingNotation::default() };
        Ok(fen_of(self.position(), FenOptions { en_passant, castling }))
    }

    /// The legal moves, in generation order, as python-chess's `board.legal_moves`: iterable,
    /// with `len`, `in` and `count()`.
    #[getter]
    fn legal_moves(&self) -> LegalMoves {
        LegalMoves { moves: self.position().legal_moves().iter().map(|&m| self.to_py(m)).collect() }
    }

    /// `True` if `move` is legal here.
    fn is_legal(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let m = move_arg(r#move)?;
        Ok(m.uci != UciMove::Null && self.position().resolve_uci(m.uci).is_ok())
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
        let parsed = UciMove::from_ascii(uci.as_bytes())
            .map_err(|e| raise::<InvalidMoveError>(format!("invalid uci {uci:?}: {e}")))?;
        let m = self.resolve(&Move { uci: parsed })?;
        let py = self.to_py(m);
        self.play(m)?;
        Ok(py)
    }

    /// The SAN of `move` here, with `+` or `#`. Raises `IllegalMoveError` if it is not legal.
    fn san(&self, r#move: &Bound<'_, PyAny>) -> PyResult<String> {
        let m = self.resolve(&move_arg(r#move)?)?;
        Ok(SanPlus::from_move(self.position(), m).to_string())
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
        let parsed = UciMove::from_ascii(uci.as_bytes())
            .map_err(|e| raise::<InvalidMoveError>(format!("invalid uci {uci:?}: {e}")))?;
        Ok(self.to_py(self.resolve(&Move { uci: parsed })?))
    }

    /// The moves played, oldest first.
    #[getter]
    fn move_stack(&self) -> Vec<Move> {
        let mut pos = *self.game.start();
        let mut out = Vec::with_capacity(self.game.moves().len());
        for &m in self.game.moves() {
            out.push(Move { uci: pos.uci(m) });
            // Every move here was played from this start before.
            play_known(&mut pos, m);
        }
        out
    }

    /// `True` for white to move, `False` for black (python-chess's `chess.WHITE`/`BLACK`).
    #[getter]
    fn turn(&self) -> bool {
        self.position().turn() == Color::White
    }

    /// Halfmoves since the last capture or pawn move.
    #[getter]
    fn halfmove_clock(&self) -> u32 {
        self.position().halfmoves()
    }

    /// The move number, from 1, counted up after black's move.
    #[getter]
    fn fullmove_number(&self) -> u32 {
        self.position().fullmoves()
    }

    /// The square a pawn skipped with a double push on the last move (or the FEN's), whether
    /// or not a capture there is legal, as python-chess's `ep_square`; else `None`.
    /// `has_legal_en_passant()` says whether a capture is legal.
    #[getter]
    fn ep_square(&self) -> Option<u8> {
        self.position().ep_square().map(|s| s as u8)
    }

    /// `True` if an en passant capture is legal here.
    fn has_legal_en_passant(&self) -> bool {
        self.position().legal_ep_square().is_some()
    }

    /// `True` for a Chess960 board (castling written king-takes-rook).
    #[getter]
    fn chess960(&self) -> bool {
        self.position().castling_mode() == CastlingMode::Chess960
    }

    /// The piece on `square`, or `None`. Raises `IndexError` for a square outside 0..=63.
    fn piece_at(&self, square: i64) -> PyResult<Option<Piece>> {
        let sq = square_index(square)?;
        Ok(self.position().board().piece_at(sq).map(|inner| Piece { inner }))
    }

    /// The type of the piece on `square` (1 pawn .. 6 king), or `None`.
    fn piece_type_at(&self, square: i64) -> PyResult<Option<u8>> {
        let sq = square_index(square)?;
        Ok(self.position().board().role_at(sq).map(piece_type))
    }

    /// The color of the piece on `square` (`True` white), or `None`.
    fn color_at(&self, square: i64) -> PyResult<Option<bool>> {
        let sq = square_index(square)?;
        Ok(self.position().board().color_at(sq).map(|c| c == Color::White))
    }

    /// The squares of the pieces of `piece_type` (1 pawn .. 6 king) and `color`.
    fn pieces(&self, piece_type: i64, color: ColorArg) -> PyResult<SquareSet> {
        let piece = chessbits_bitboard::Piece { role: role_of(piece_type)?, color: color.0 };
        Ok(self.position().board().by_piece(piece).into())
    }

    /// The square of `color`'s king.
    fn king(&self, color: ColorArg) -> Option<u8> {
        self.position().board().king_of(color.0).map(|sq| sq as u8)
    }

    /// The pieces of `color` that attack `square` (pinned ones included, as python-chess).
    fn attackers(&self, color: ColorArg, square: i64) -> PyResult<SquareSet> {
        let sq = square_index(square)?;
        Ok(self.position().attackers_of(sq, color.0).into())
    }

    /// `True` if a piece of `color` attacks `square`.
    fn is_attacked_by(&self, color: ColorArg, square: i64) -> PyResult<bool> {
        let sq = square_index(square)?;
        Ok(self.position().attackers_of(sq, color.0).any())
    }

    /// `True` if the legal `move` gives check. Raises `IllegalMoveError` for a move that is
    /// not legal here (python-chess asks for a pseudo-legal one).
    fn gives_check(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let m = self.resolve(&move_arg(r#move)?)?;
        if m.is_null() {
            return Ok(false);
        }
        Ok(self.position().played_unchecked(m).is_check())
    }

    /// `True` if `move` captures: a piece of the other side stands on its destination, or it
    /// is an en passant capture (python-chess's rule; the move need not be legal).
    fn is_capture(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let m = move_arg(r#move)?;
        let UciMove::Normal { to, .. } = m.uci else { return Ok(false) };
        let them = !self.position().turn();
        Ok(self.position().board().color_at(to) == Some(them) || self.en_passant(&m))
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
        let pawn = self.position().board().role_at(from) == Some(Role::Pawn);
        Ok(pawn || self.is_capture(r#move)?)
    }

    /// The pieces of the other side that give check.
    fn checkers(&self) -> SquareSet {
        self.position().checkers().into()
    }

    /// `True` if the piece of `color` on `square` may not leave the line from its king to
    /// an enemy rook, bishop or queen (python-chess's `is_pinned`: only `square` stands
    /// between them).
    fn is_pinned(&self, color: ColorArg, square: i64) -> PyResult<bool> {
        use chessbits_bitboard::tables::{between, bishop_rays, rook_rays};
        let sq = chessbits_bitboard::Bitboard::from_square(square_index(square)?);
        let board = self.position().board();
        let Some(king) = board.king_of(color.0) else { return Ok(false) };
        let them = board.by_color(!color.0);
        let queens = board.by_role(Role::Queen);
        let snipers = (rook_rays(king) & (board.by_role(Role::Rook) | queens) & them)
            | (bishop_rays(king) & (board.by_role(Role::Bishop) | queens) & them);
        Ok(snipers.into_iter().any(|sniper| between(sniper, king) & (board.occupied() | sq) == sq))
    }

    /// The plies played since the start of the game the FEN counts from: `2 *
    /// (fullmove_number - 1)`, plus one with black to move.
    fn ply(&self) -> u32 {
        let pos = self.position();
        2 * pos.fullmoves().saturating_sub(1) + u32::from(pos.turn() == Color::Black)
    }

    /// Every piece by its square, as a dict of `Piece`.
    fn piece_map(&self) -> std::collections::BTreeMap<u8, Piece> {
        let board = self.position().board();
        board
            .occupied()
            .into_iter()
            .filter_map(|sq| board.piece_at(sq).map(|inner| (sq as u8, Piece { inner })))
            .collect()
    }

    /// The UCI text of `move` as this board writes it (castling king-to-rook on a Chess960
    /// board, the king's two squares otherwise).
    fn uci(&self, r#move: &Bound<'_, PyAny>) -> PyResult<String> {
        let m = move_arg(r#move)?;
        Ok(self.resolve(&m).map_or(m.uci, |legal| self.to_py(legal).uci).to_string())
    }

    /// The long algebraic notation of the legal `move`, as python-chess's `lan`: `Ng1-f3`,
    /// `e4xd5`, `O-O`, `e7-e8=Q+`, `--` for the null move. Raises `IllegalMoveError` if it
    /// is not legal.
    fn lan(&self, r#move: &Bound<'_, PyAny>) -> PyResult<String> {
        let m = self.resolve(&move_arg(r#move)?)?;
        if m.is_null() {
            return Ok("--".to_owned());
        }
        let pos = self.position();
        let mut text = if m.is_castling() {
            let king_side = m.to().file() > m.from().file();
            (if king_side { "O-O" } else { "O-O-O" }).to_owned()
        } else {
            let role = pos.board().role_at(m.from()).unwrap_or(Role::Pawn);
            let letter =
                if role == Role::Pawn { String::new() } else { role.upper_char().to_string() };
            let sep = if m.is_capture() { 'x' } else { '-' };
            let promotion =
                m.promotion().map_or_else(String::new, |r| format!("={}", r.upper_char()));
            format!("{letter}{}{sep}{}{promotion}", m.from(), m.to())
        };
        let after = pos.played_unchecked(m);
        if after.is_checkmate() {
            text.push('#');
        } else if after.is_check() {
            text.push('+');
        }
        Ok(text)
    }

    /// The legal moves, one at a time (python-chess's `generate_legal_moves()`).
    fn generate_legal_moves<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Bound<'py, pyo3::types::PyIterator>> {
        let moves = self.legal_moves().moves;
        pyo3::types::PyList::new(py, moves)?.try_iter()
    }

    /// The legal captures, en passant included, one at a time (python-chess's
    /// `generate_legal_captures()`).
    fn generate_legal_captures<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Bound<'py, pyo3::types::PyIterator>> {
        let pos = self.position();
        let captures: Vec<Move> =
            pos.legal_moves().iter().filter(|m| m.is_capture()).map(|&m| self.to_py(m)).collect();
        pyo3::types::PyList::new(py, captures)?.try_iter()
    }

    /// The squares the piece on `square` attacks (none for an empty square; a pinned piece
    /// still attacks), as python-chess's `attacks(square)`.
    fn attacks(&self, square: i64) -> PyResult<SquareSet> {
        use chessbits_movegen::attacks;
        let sq = square_index(square)?;
        let board = self.position().board();
        let Some(piece) = board.piece_at(sq) else { return Ok(SquareSet { mask: 0 }) };
        let occupied = board.occupied();
        let set = match piece.role {
            Role::Pawn => attacks::pawn(piece.color, sq),
            Role::Knight => attacks::knight(sq),
            Role::Bishop => attacks::bishop(sq, occupied),
            Role::Rook => attacks::rook(sq, occupied),
            Role::Queen => attacks::queen(sq, occupied),
            Role::King => attacks::king(sq),
        };
        Ok(set.into())
    }

    /// `True` if the halfmove clock has reached 100 and a move may still be played: the
    /// fifty-move rule may be claimed now (python-chess's `is_fifty_moves()`).
    fn is_fifty_moves(&self) -> bool {
        self.position().halfmoves() >= 100 && self.position().count_legal_moves() > 0
    }

    /// Back to the standard starting position, the moves forgotten.
    fn reset(&mut self) {
        *self.game = Game::default();
    }

    /// The rooks with castling rights, as python-chess's `castling_rights` mask (bit 0 = a1).
    #[getter]
    fn castling_rights(&self) -> u64 {
        self.position().castles().rook_squares().0
    }

    /// `True` if `color` may still castle on some side.
    fn has_castling_rights(&self, color: ColorArg) -> bool {
        let c = color.0;
        [CastlingSide::KingSide, CastlingSide::QueenSide]
            .iter()
            .any(|&s| self.position().castles().has(c, s))
    }

    /// `True` if `color` may still castle king-side.
    fn has_kingside_castling_rights(&self, color: ColorArg) -> bool {
        self.position().castles().has(color.0, CastlingSide::KingSide)
    }

    /// `True` if `color` may still castle queen-side.
    fn has_queenside_castling_rights(&self, color: ColorArg) -> bool {
        self.position().castles().has(color.0, CastlingSide::QueenSide)
    }

    /// The placement field of the FEN.
    fn board_fen(&self) -> String {
        let fen = fen_of(self.position(), FenOptions::default());
        fen.split(' ').next().unwrap_or_default().to_owned()
    }

    /// The EPD: the FEN's first four fields (the en passant square only when a capture is
    /// legal), as python-chess's `epd()` without operations.
    fn epd(&self) -> String {
        let fen = fen_of(
            self.position(),
            FenOptions { en_passant: EnPassantMode::Legal, ..FenOptions::default() },
        );
        fen.split(' ').take(4).collect::<Vec<_>>().join(" ")
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
    fn variation_san(&self, moves: &Bound<'_, PyAny>) -> PyResult<String> {
        let mut pos = *self.position();
        let mut out = String::new();
        for (i, m) in moves.try_iter()?.enumerate() {
            let m = move_arg(&m?)?;
            let resolved = if m.uci == UciMove::Null {
                chessbits_move::Move16::NULL
            } else {
                pos.resolve_uci(m.uci).map_err(|e| {
                    raise::<IllegalMoveError>(format!(
                        "illegal move in variation, move {}: {e}",
                        i + 1
                    ))
                })?
            };
            if !out.is_empty() {
                out.push(' ');
            }
            if pos.turn() == Color::White {
                out.push_str(&format!("{}. ", pos.fullmoves()));
            } else if i == 0 {
                out.push_str(&format!("{}...", pos.fullmoves()));
            }
            if resolved.is_null() {
                out.push_str("--");
                pos.play_null().map_err(raise::<IllegalMoveError>)?;
            } else {
                out.push_str(&SanPlus::from_move(&pos, resolved).to_string());
                pos.play_unchecked(resolved);
            }
        }
        Ok(out)
    }

    /// The diagram in figurines, as python-chess's `unicode()`: ranks 8 to 1 (1 to 8 and files
    /// h to a with `orientation=False`), `empty_square` for an empty square.
    #[pyo3(signature = (*, invert_color=false, borders=false, empty_square="⭘", orientation=true))]
    fn unicode(
        &self,
        invert_color: bool,
        borders: bool,
        empty_square: &str,
        orientation: bool,
    ) -> String {
        let board = self.position().board();
        let mut rows = Vec::with_capacity(8);
        for r in 0..8u8 {
            let rank = if orientation { 7 - r } else { r };
            let mut row: Vec<String> = Vec::with_capacity(8);
            for f in 0..8u8 {
                let file = if orientation { f } else { 7 - f };
                let sq = Square::new(u32::from(rank * 8 + file));
                row.push(board.piece_at(sq).map_or_else(
                    || empty_square.to_owned(),
                    |inner| Piece { inner }.unicode_symbol(invert_color),
                ));
            }
            if borders {
                rows.push(RULE.to_owned());
                rows.push(format!("{} |{}|", rank + 1, row.join("|")));
            } else {
                rows.push(row.join(" "));
            }
        }
        if borders {
            rows.push(RULE.to_owned());
            let files: Vec<char> =
                (0..8u8).map(|f| char::from(b'a' + if orientation { f } else { 7 - f })).collect();
            let files: Vec<String> = files.iter().map(char::to_string).collect();
            rows.push(format!("   {}", files.join(" ")));
        }
        rows.join("\n")
    }

    /// The position mirrored vertically with the colors swapped (python-chess's `mirror()`):
    /// white's pieces become black's on the mirrored squares, the other side moves, castling
    /// rights and the en passant square follow. The moves are not kept.
    fn mirror(&self) -> PyResult<Board> {
        let fen = fen_of(
            self.position(),
            FenOptions { en_passant: EnPassantMode::Always, ..FenOptions::default() },
        );
        Board::new(&mirror_fen(&fen), self.chess960())
    }

    /// `True`: a board is always a legal position (every FEN and move is checked), where
    /// python-chess can hold an invalid one.
    fn is_valid(&self) -> bool {
        true
    }

    /// python-chess's `status()` flags: always `STATUS_VALID` (0), as `is_valid()`.
    fn status(&self) -> u32 {
        0
    }

    /// An SVG drawing of the board (light and dark squares, figurines, coordinates), which
    /// Jupyter shows for a board as it does python-chess's.
    fn _repr_svg_(&self) -> String {
        svg(self.position())
    }

    /// `True` if the side to move is in check.
    fn is_check(&self) -> bool {
        self.position().is_check()
    }

    /// `True` if the side to move is checkmated.
    fn is_checkmate(&self) -> bool {
        self.position().is_checkmate()
    }

    /// `True` if the side to move has no legal move and is not in check.
    fn is_stalemate(&self) -> bool {
        self.position().is_stalemate()
    }

    /// `True` if neither side can checkmate (python-chess's definition).
    fn is_insufficient_material(&self) -> bool {
        self.position().is_insufficient_material()
    }

    /// `True` after 75 moves each without capture or pawn move (an automatic draw), unless
    /// the side to move has no legal move (mate and stalemate come first).
    fn is_seventyfive_moves(&self) -> bool {
        self.position().halfmoves() >= 150 && self.position().has_legal_moves()
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
    fn can_claim_fifty_moves(&self) -> bool {
        self.can_claim(Termination::FiftyMoves)
    }

    /// `True` if the side to move may claim a draw by threefold repetition, now or by
    /// announcing a move.
    fn can_claim_threefold_repetition(&self) -> bool {
        self.can_claim(Termination::ThreefoldRepetition)
    }

    /// `True` if the side to move may claim a draw (fifty moves or threefold repetition).
    fn can_claim_draw(&self) -> bool {
        self.can_claim_fifty_moves() || self.can_claim_threefold_repetition()
    }

    /// `True` if the game is over by the rules (automatic endings), or, with
    /// `claim_draw=True`, if a draw may be claimed.
    #[pyo3(signature = (*, claim_draw=false))]
    fn is_game_over(&self, claim_draw: bool) -> bool {
        self.outcome(claim_draw).is_some()
    }

    /// How the game ended, or `None`: checkmate, stalemate, insufficient material, the
    /// seventy-five-move rule, fivefold repetition; with `claim_draw=True` also the
    /// fifty-move rule and threefold repetition when they may be claimed.
    #[pyo3(signature = (*, claim_draw=false))]
    fn outcome(&self, claim_draw: bool) -> Option<Outcome> {
        if let Some(inner) = self.game.outcome() {
            return Some(Outcome { inner });
        }
        if claim_draw {
            for termination in [Termination::FiftyMoves, Termination::ThreefoldRepetition] {
                if self.can_claim(termination) {
                    return Some(Outcome { inner: RustOutcome::Draw { termination } });
                }
            }
        }
        None
    }

    /// The result: `1-0`, `0-1`, `1/2-1/2`, or `*` while the game goes on.
    #[pyo3(signature = (*, claim_draw=false))]
    fn result(&self, claim_draw: bool) -> &'static str {
        self.outcome(claim_draw).map_or("*", |o| o.result())
    }

    /// The Polyglot Zobrist key of the position (python-chess's
    /// `chess.polyglot.zobrist_hash`).
    fn zobrist_hash(&self) -> u64 {
        self.position().key()
    }

    /// The number of legal moves, counted without building a list.
    fn legal_move_count(&self) -> usize {
        self.position().count_legal_moves()
    }

    /// The start position, as a board with no moves played.
    fn root(&self) -> Board {
        Board { game: Box::new(Game::new(*self.game.start())) }
    }

    /// An independent copy: with its moves (`stack=True`), none of them (`False`, the
    /// position alone), or the last `stack` of them, as python-chess's `copy(stack=)`.
    #[pyo3(signature = (*, stack=None))]
    fn copy(&self, stack: Option<&Bound<'_, PyAny>>) -> PyResult<Board> {
        let moves = self.game.moves();
        let keep = match stack {
            None => moves.len(),
            Some(s) if s.is_instance_of::<pyo3::types::PyBool>() => {
                if s.extract::<bool>()? {
                    moves.len()
                } else {
                    0
                }
            }
            Some(s) => usize::try_from(crate::args::integer(s, "stack", 0)?)
                .unwrap_or(usize::MAX)
                .min(moves.len()),
        };
        if keep == moves.len() {
            return Ok(self.clone());
        }
        // The position `keep` moves back becomes the copy's start; every move here was
        // played from this board's start before, so it is legal where it stands.
        let mut start = *self.game.start();
        for &m in &moves[..moves.len() - keep] {
            play_known(&mut start, m);
        }
        let mut game = Game::new(start);
        for &m in &moves[moves.len() - keep..] {
            if m.is_null() {
                game.play_null().map_err(raise::<IllegalMoveError>)?;
            } else {
                game.play(m).map_err(raise::<IllegalMoveError>)?;
            }
        }
        Ok(Board { game: Box::new(game) })
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
        let options = FenOptions { en_passant: EnPassantMode::Legal, ..FenOptions::default() };
        fen_of(self.position(), options) == fen_of(other.position(), options)
    }

    /// The diagram, as python-chess's `str(board)`.
    fn __str__(&self) -> String {
        diagram(self.position())
    }

    /// `Board('FEN')` and the diagram below it.
    fn __repr__(&self) -> String {
        let fen = fen_of(
            self.position(),
            FenOptions { en_passant: EnPassantMode::Legal, ..FenOptions::default() },
        );
        format!("Board('{fen}')\n{}", diagram(self.position()))
    }
}

impl Board {
    /// The side `m` castles to, if it is a castling move of the side to move: its king
    /// moving two files along its rank, or onto its own rook.
    fn castling(&self, m: &Move) -> Option<CastlingSide> {
        let UciMove::Normal { from, to, .. } = m.uci else { return None };
        let board = self.position().board();
        let us = self.position().turn();
        if board.piece_at(from) != Some(chessbits_bitboard::Piece { role: Role::King, color: us }) {
            return None;
        }
        let files = (from.file() as i32 - to.file() as i32).abs();
        let onto_rook = board.color_at(to) == Some(us) && board.role_at(to) == Some(Role::Rook);
        (onto_rook || (files > 1 && from.rank() == to.rank())).then(|| {
            if to.file() > from.file() {
                CastlingSide::KingSide
            } else {
                CastlingSide::QueenSide
            }
        })
    }

    /// The legal move `san` names: SAN, or, as python-chess takes it, a fully specified move
    /// in UCI (`g1f3`, `e1g1`) that SAN does not read as one.
    fn san_move(&self, san: &str) -> PyResult<chessbits_move::Move16> {
        let text = san.trim();
        let parsed = San::from_ascii(text.as_bytes())
            .map_err(|e| raise::<InvalidMoveError>(format!("invalid san {san:?}: {e}")));
        let error = match parsed.map(|p| p.to_move(self.position())) {
            Ok(Ok(m)) => return Ok(m),
            Ok(Err(e)) => san_error(e),
            Err(e) => e,
        };
        let uci = UciMove::from_ascii(text.as_bytes()).ok().filter(|u| *u != UciMove::Null);
        uci.and_then(|uci| self.position().resolve_uci(uci).ok()).ok_or(error)
    }

    /// Whether `m` is an en passant capture here: a pawn of the side to move going diagonally
    /// onto the en passant square.
    fn en_passant(&self, m: &Move) -> bool {
        let UciMove::Normal { from, to, .. } = m.uci else { return false };
        let pos = self.position();
        pos.ep_square() == Some(to)
            && pos.board().role_at(from) == Some(Role::Pawn)
            && pos.board().color_at(from) == Some(pos.turn())
            && from.file() != to.file()
            && pos.board().piece_at(to).is_none()
    }

    /// Whether the side to move may claim `termination` now or by announcing a legal move.
    fn can_claim(&self, termination: Termination) -> bool {
        // As python-chess: the fifty-move rule needs a move to play (not after checkmate or
        // in stalemate).
        if termination == Termination::FiftyMoves && self.position().count_legal_moves() == 0 {
            return false;
        }
        if self.game.claimable_draws().contains(&termination) {
            return true;
        }
        // A claim by announcing a move: only a reversible move can reach a repetition or
        // bring the clock to 100, and the clock must be at 99 for the fifty-move claim.
        let pos = self.position();
        if termination == Termination::FiftyMoves && pos.halfmoves() < 99 {
            return false;
        }
        pos.legal_moves().iter().any(|&m| {
            self.game.claimable_draws_after(m).is_ok_and(|claims| claims.contains(&termination))
        })
    }
}

/// The line between ranks of `Board.unicode(borders=True)`.
const RULE: &str = "  -----------------";

/// `fen` mirrored vertically with the colors swapped: the ranks in reverse order with the
/// letters' case swapped, the other side to move, the castling letters' case swapped, the en
/// passant square on the mirrored rank.
fn mirror_fen(fen: &str) -> String {
    let swap = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    };
    let fields: Vec<&str> = fen.split(' ').collect();
    let placement: Vec<String> = fields[0].split('/').rev().map(swap).collect();
    let turn = if fields.get(1) == Some(&"w") { "b" } else { "w" };
    let castling = match fields.get(2) {
        Some(&"-") | None => "-".to_owned(),
        Some(c) => {
            // Upper-case letters first, as FEN writes them.
            let swapped = swap(c);
            let (mut upper, lower): (Vec<char>, Vec<char>) =
                swapped.chars().partition(char::is_ascii_uppercase);
            upper.extend(lower);
            upper.into_iter().collect()
        }
    };
    let ep = match fields.get(3) {
        Some(ep) if ep.len() == 2 => {
            let (file, rank) = ep.split_at(1);
            let rank = match rank {
                "3" => "6",
                "6" => "3",
                other => other,
            };
            format!("{file}{rank}")
        }
        _ => "-".to_owned(),
    };
    let rest: Vec<&str> = fields.iter().skip(4).copied().collect();
    format!("{} {turn} {castling} {ep} {}", placement.join("/"), rest.join(" "))
}

/// The board as an SVG picture: 45-pixel squares in lichess's brown, figurines in black
/// outline, files and ranks written on the edge squares.
fn svg(pos: &chessbits_state::Position) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(8192);
    out.push_str(r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 360 360" width="360" height="360">"#);
    for rank in 0..8u8 {
        for file in 0..8u8 {
            let (x, y) = (u32::from(file) * 45, u32::from(7 - rank) * 45);
            let fill = if (rank + file) % 2 == 0 { "#b58863" } else { "#f0d9b5" };
            let _ = write!(out, r#"<rect x="{x}" y="{y}" width="45" height="45" fill="{fill}"/>"#);
            if let Some(piece) = pos.board().piece_at(Square::new(u32::from(rank * 8 + file))) {
                let glyph = Piece { inner: piece }.unicode_symbol(false);
                let _ = write!(
                    out,
                    r#"<text x="{}" y="{}" font-size="38" text-anchor="middle" font-family="DejaVu Sans, Segoe UI Symbol, sans-serif">{glyph}</text>"#,
                    x + 22,
                    y + 37
                );
            }
        }
    }
    for i in 0..8u8 {
        let _ = write!(
            out,
            r##"<text x="{}" y="357" font-size="9" fill="#555">{}</text><text x="1" y="{}" font-size="9" fill="#555">{}</text>"##,
            u32::from(i) * 45 + 37,
            char::from(b'a' + i),
            u32::from(7 - i) * 45 + 10,
            i + 1
        );
    }
    out.push_str("</svg>");
    out
}
