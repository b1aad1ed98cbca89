//! `chessbits.Move` and `chessbits.Board`: python-chess's names over a [`Game`].

use chessbits_bitboard::{Color, Role, Square};
use chessbits_move::{CastlingMode, UciMove};
use chessbits_movegen::{Game, MoveGen, Outcome as RustOutcome, Termination};
use chessbits_notation::fen::{fen_of, parse_position, EnPassantMode, FenOptions};
use chessbits_notation::san::{San, SanPlus};
use pyo3::prelude::*;
use pyo3::types::PyType;

use crate::errors::{
    fen_error, raise, san_error, IllegalMoveError, InvalidMoveError, PositionError,
};

/// The FEN of the standard starting position.
pub const STARTING_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A move from one square to another, as python-chess's `Move`: squares are 0 (a1) to 63
/// (h8), the promotion a piece type from 2 (knight) to 5 (queen), or `None`. It knows no
/// position: a board resolves it (castling as the king's move, `e1g1`, in standard chess).
#[pyclass(module = "chessbits", frozen, eq, hash)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The UCI move it is.
    pub(crate) uci: UciMove,
}

/// A square index from Python, checked.
fn square(index: i64) -> PyResult<Square> {
    u8::try_from(index)
        .ok()
        .and_then(Square::from_index)
        .ok_or_else(|| raise::<InvalidMoveError>(format!("square {index} is not in 0..=63")))
}

#[pymethods]
impl Move {
    /// Moves `from_square` to `to_square`, promoting to `promotion` (2 knight to 5 queen).
    #[new]
    #[pyo3(signature = (from_square, to_square, promotion=None))]
    fn new(from_square: i64, to_square: i64, promotion: Option<i64>) -> PyResult<Move> {
        let (from, to) = (square(from_square)?, square(to_square)?);
        let promotion = match promotion {
            None => None,
            Some(p @ 2..=5) => Role::from_index((p - 1) as u8),
            Some(p) => {
                return Err(raise::<InvalidMoveError>(format!(
                    "promotion {p} is not a piece type from 2 (knight) to 5 (queen)"
                )))
            }
        };
        Ok(Move { uci: UciMove::Normal { from, to, promotion } })
    }

    /// Parses UCI text (`e2e4`, `e7e8q`, `0000`).
    ///
    /// Raises `InvalidMoveError` when the text is not UCI.
    #[classmethod]
    fn from_uci(_cls: &Bound<'_, PyType>, uci: &str) -> PyResult<Move> {
        let uci = UciMove::from_ascii(uci.as_bytes())
            .map_err(|e| raise::<InvalidMoveError>(format!("invalid uci {uci:?}: {e}")))?;
        Ok(Move { uci })
    }

    /// The null move, `0000`.
    #[classmethod]
    fn null(_cls: &Bound<'_, PyType>) -> Move {
        Move { uci: UciMove::Null }
    }

    /// The UCI text.
    fn uci(&self) -> String {
        self.uci.to_string()
    }

    /// The origin square, 0 (a1) to 63 (h8); 0 for the null move.
    #[getter]
    #[allow(clippy::wrong_self_convention, reason = "python-chess's name")]
    fn from_square(&self) -> u8 {
        match self.uci {
            UciMove::Normal { from, .. } => from as u8,
            UciMove::Null => 0,
        }
    }

    /// The destination square, 0 (a1) to 63 (h8); 0 for the null move.
    #[getter]
    #[allow(clippy::wrong_self_convention, reason = "python-chess's name")]
    fn to_square(&self) -> u8 {
        match self.uci {
            UciMove::Normal { to, .. } => to as u8,
            UciMove::Null => 0,
        }
    }

    /// The piece type promoted to (2 knight .. 5 queen), or `None`.
    #[getter]
    fn promotion(&self) -> Option<u8> {
        match self.uci {
            UciMove::Normal { promotion, .. } => promotion.map(|r| r as u8 + 1),
            UciMove::Null => None,
        }
    }

    fn __bool__(&self) -> bool {
        self.uci != UciMove::Null
    }

    fn __str__(&self) -> String {
        self.uci.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Move.from_uci('{}')", self.uci)
    }
}

/// The legal moves of a position when it was asked: iterable, with `len`, `in` and `count()`
/// (python-chess's `LegalMoveGenerator`, as a snapshot).
#[pyclass(module = "chessbits", frozen, sequence)]
pub struct LegalMoves {
    moves: Vec<Move>,
}

#[pymethods]
impl LegalMoves {
    /// The number of legal moves.
    fn count(&self) -> usize {
        self.moves.len()
    }

    fn __len__(&self) -> usize {
        self.moves.len()
    }

    fn __bool__(&self) -> bool {
        !self.moves.is_empty()
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyIterator>> {
        pyo3::types::PyList::new(py, self.moves.iter().copied())?.try_iter()
    }

    fn __contains__(&self, r#move: &Move) -> bool {
        self.moves.contains(r#move)
    }

    fn __getitem__(&self, index: isize) -> PyResult<Move> {
        let len = self.moves.len() as isize;
        let at = if index < 0 { index + len } else { index };
        usize::try_from(at)
            .ok()
            .and_then(|i| self.moves.get(i).copied())
            .ok_or_else(|| pyo3::exceptions::PyIndexError::new_err("legal move index out of range"))
    }

    fn __repr__(&self) -> String {
        let moves: Vec<String> = self.moves.iter().map(|m| m.uci.to_string()).collect();
        format!("<LegalMoves ({})>", moves.join(", "))
    }
}

/// How a game ended: `termination` (the name of python-chess's `Termination` member,
/// `"CHECKMATE"` ...) and `winner` (`True` white, `False` black, `None` for a draw).
#[pyclass(module = "chessbits", frozen, eq)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    inner: RustOutcome,
}

/// python-chess's name of a termination.
pub(crate) fn termination_name(t: Termination) -> &'static str {
    match t {
        Termination::Checkmate => "CHECKMATE",
        Termination::Stalemate => "STALEMATE",
        Termination::InsufficientMaterial => "INSUFFICIENT_MATERIAL",
        Termination::SeventyFiveMoves => "SEVENTYFIVE_MOVES",
        Termination::FivefoldRepetition => "FIVEFOLD_REPETITION",
        Termination::FiftyMoves => "FIFTY_MOVES",
        Termination::ThreefoldRepetition => "THREEFOLD_REPETITION",
    }
}

#[pymethods]
impl Outcome {
    /// Why the game ended, as python-chess's `Termination` member name.
    #[getter]
    fn termination(&self) -> &'static str {
        termination_name(self.inner.termination())
    }

    /// `True` if white won, `False` if black won, `None` for a draw.
    #[getter]
    fn winner(&self) -> Option<bool> {
        self.inner.winner().map(|c| c == Color::White)
    }

    /// The result as PGN writes it: `1-0`, `0-1` or `1/2-1/2`.
    fn result(&self) -> &'static str {
        match self.inner.winner() {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    fn __repr__(&self) -> String {
        let winner = match self.winner() {
            Some(true) => "True",
            Some(false) => "False",
            None => "None",
        };
        format!("Outcome(termination={}, winner={winner})", self.termination())
    }
}

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

/// A `move` argument as a [`Move`]. Taken by hand: pyo3's own message would name the
/// argument `r#move`, its Rust spelling.
fn move_arg(value: &Bound<'_, PyAny>) -> PyResult<Move> {
    value.extract::<Move>().map_err(|_| {
        let kind = value.get_type().name().map_or_else(|_| "?".to_owned(), |n| n.to_string());
        pyo3::exceptions::PyTypeError::new_err(format!("move must be a chessbits.Move, not {kind}"))
    })
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

    /// The FEN, with the en passant square only when a capture is legal (python-chess's
    /// default).
    #[pyo3(signature = (*, en_passant="legal"))]
    fn fen(&self, en_passant: &str) -> PyResult<String> {
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
        Ok(fen_of(self.position(), FenOptions { en_passant, ..FenOptions::default() }))
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
        let parsed = San::from_ascii(san.trim().as_bytes())
            .map_err(|e| raise::<InvalidMoveError>(format!("invalid san {san:?}: {e}")))?;
        let m = parsed.to_move(self.position()).map_err(san_error)?;
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

    /// Parses SAN against this position into a move, without playing it.
    fn parse_san(&self, san: &str) -> PyResult<Move> {
        let parsed = San::from_ascii(san.trim().as_bytes())
            .map_err(|e| raise::<InvalidMoveError>(format!("invalid san {san:?}: {e}")))?;
        let m = parsed.to_move(self.position()).map_err(san_error)?;
        Ok(self.to_py(m))
    }

    /// The moves played, oldest first.
    #[getter]
    fn move_stack(&self) -> Vec<Move> {
        let mut pos = *self.game.start();
        let mut out = Vec::with_capacity(self.game.moves().len());
        for &m in self.game.moves() {
            out.push(Move { uci: pos.uci(m) });
            // Every move here was played from this start before: legal, and a null move
            // was not in check.
            if m.is_null() {
                let _ = pos.play_null();
            } else {
                pos.play_unchecked(m);
            }
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

    /// The en passant square if a capture there is legal, else `None`.
    #[getter]
    fn ep_square(&self) -> Option<u8> {
        self.position().legal_ep_square().map(|s| s as u8)
    }

    /// `True` for a Chess960 board (castling written king-takes-rook).
    #[getter]
    fn chess960(&self) -> bool {
        self.position().castling_mode() == CastlingMode::Chess960
    }

    /// The piece on `square` as its FEN letter (`P` white pawn, `k` black king), or `None`.
    /// Raises `IndexError` for a square outside 0..=63.
    fn piece_at(&self, square: i64) -> PyResult<Option<char>> {
        let sq = u8::try_from(square).ok().and_then(Square::from_index).ok_or_else(|| {
            pyo3::exceptions::PyIndexError::new_err(format!("square {square} is not in 0..=63"))
        })?;
        Ok(self.position().board().piece_at(sq).map(|p| p.char()))
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

    /// An independent copy, history included.
    fn copy(&self) -> Board {
        self.clone()
    }

    fn __copy__(&self) -> Board {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Board {
        self.clone()
    }

    fn __eq__(&self, other: &Board) -> bool {
        self.position() == other.position()
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
    /// Whether the side to move may claim `termination` now or by announcing a legal move.
    fn can_claim(&self, termination: Termination) -> bool {
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
