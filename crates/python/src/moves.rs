//! `chessbits.Move`, `chessbits.LegalMoves` and `chessbits.Outcome`: python-chess's move, its
//! legal-move list and a game's end, as a [`Board`](crate::board::Board) hands them out; and
//! [`move_arg`], which takes either library's move wherever a move is taken.

use chessbits_bitboard::{Color, File, Role, Square};
use chessbits_move::UciMove;
use chessbits_movegen::{MoveGen, Outcome as RustOutcome, Termination};
use chessbits_notation::san::SanPlus;
use pyo3::prelude::*;
use pyo3::types::PyType;

use crate::errors::{raise, IllegalMoveError, InvalidMoveError};

/// A UCI move resolved as python-chess resolves it. On a Chess960 board (its castling mode)
/// castling is the king onto its own rook only: a king's move of two files or more onto
/// anything else names no move, as `legal_moves` has none (the library also reads `e1g1` as
/// castling there when no king move is meant, and `is_legal` said `True` for a move `in
/// legal_moves` refused). Elsewhere as [`MoveGen::resolve_uci`].
pub(crate) fn resolve_uci(
    pos: &chessbits_state::Position,
    uci: UciMove,
) -> Result<chessbits_move::Move16, chessbits_movegen::IllegalMoveError> {
    if pos.castling_mode() == chessbits_move::CastlingMode::Chess960 {
        if let UciMove::Normal { from, to, .. } = uci {
            let board = pos.board();
            let king_two_files = board.role_at(from) == Some(Role::King)
                && from.rank() == to.rank()
                && (from.file() as i32 - to.file() as i32).abs() > 1
                && board.color_at(to) != board.color_at(from);
            if king_two_files {
                return Err(chessbits_movegen::IllegalMoveError { uci });
            }
        }
    }
    pos.resolve_uci(uci)
}

/// A move from one square to another, as python-chess's `Move`: squares are 0 (a1) to 63
/// (h8), the promotion a piece type from 2 (knight) to 5 (queen), or `None`. It knows no
/// position: a board resolves it (castling as the king's move, `e1g1`, in standard chess).
/// It equals a python-chess `chess.Move` of the same squares and promotion, and hashes as one
/// does.
#[pyclass(module = "chessbits", frozen)]
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
    /// `Move(0, 0)` is the null move, as python-chess's `chess.Move(0, 0)` is.
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
        if (from_square, to_square, promotion) == (0, 0, None) {
            return Ok(Move { uci: UciMove::Null });
        }
        Ok(Move { uci: UciMove::Normal { from, to, promotion } })
    }

    /// Parses UCI text (`e2e4`, `e7e8q`, `0000`).
    ///
    /// Raises `InvalidMoveError` when the text is not UCI, or names one square twice (`a1a1`:
    /// the null move is `0000`).
    #[classmethod]
    fn from_uci(_cls: &Bound<'_, PyType>, uci: &str) -> PyResult<Move> {
        parse_uci(uci)
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

    /// The move as XBoard writes it: its UCI, or `@@@@` for the null move.
    pub(crate) fn xboard(&self) -> String {
        if self.uci == UciMove::Null {
            "@@@@".to_owned()
        } else {
            self.uci.to_string()
        }
    }

    /// The piece dropped (Crazyhouse): always `None` in chess, as python-chess's `drop`.
    #[getter]
    fn drop(&self) -> Option<u8> {
        None
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

    /// Equal to a `chessbits.Move` or a python-chess `chess.Move` with the same squares and
    /// promotion (the null moves equal each other).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        move_arg(other).is_ok_and(|m| m == *self)
    }

    /// python-chess's hash of the move (of `(from_square, to_square, promotion, None)`), so
    /// that either library's move finds the other's in a set or a dict.
    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        let fields = (self.from_square(), self.to_square(), self.promotion(), py.None());
        fields.into_pyobject(py)?.hash()
    }
}

/// The legal moves of a position when it was asked: iterable, with `len`, `in` and `count()`
/// (python-chess's `LegalMoveGenerator`, as a snapshot).
#[pyclass(module = "chessbits", frozen, sequence)]
pub struct LegalMoves {
    pub(crate) moves: Vec<Move>,
    /// On a standard board, the square of the king of the side to move when it stands on
    /// e1 (white) or e8 (black): there `in` also takes castling written king to rook
    /// (`e1h1` for `e1g1`), as python-chess does.
    pub(crate) king_home: Option<Square>,
}

impl LegalMoves {
    /// `m`, or the standard castling move it writes king to rook.
    fn standard_form(&self, m: Move) -> Move {
        let (Some(king), UciMove::Normal { from, to, promotion: None }) = (self.king_home, m.uci)
        else {
            return m;
        };
        if from != king || to.rank() != king.rank() {
            return m;
        }
        let file = match to.file() {
            File::H => File::G,
            File::A => File::C,
            _ => return m,
        };
        Move {
            uci: UciMove::Normal {
                from,
                to: Square::from_coords(file, king.rank()),
                promotion: None,
            },
        }
    }
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

    fn __contains__(&self, r#move: &Bound<'_, PyAny>) -> bool {
        move_arg(r#move)
            .is_ok_and(|m| self.moves.contains(&m) || self.moves.contains(&self.standard_form(m)))
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
/// `"CHECKMATE"` ...) and `winner` (`True` white, `False` black, `None` for a draw). Equal to
/// an outcome of the same termination and winner, python-chess's `chess.Outcome` included.
#[pyclass(module = "chessbits", frozen)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub(crate) inner: RustOutcome,
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
    /// Why the game ended: a member of `chessbits.Termination`, python-chess's enum's names
    /// and values.
    #[getter]
    fn termination<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let name = termination_name(self.inner.termination());
        py.import("chessbits")?.getattr("Termination")?.getattr(name)
    }

    /// `True` if white won, `False` if black won, `None` for a draw.
    #[getter]
    fn winner(&self) -> Option<bool> {
        self.inner.winner().map(|c| c == Color::White)
    }

    /// The result as PGN writes it: `1-0`, `0-1` or `1/2-1/2`.
    pub(crate) fn result(&self) -> &'static str {
        match self.inner.winner() {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// `True` for an outcome of the same termination and winner: chessbits's, or any object
    /// with python-chess's `termination` and `winner` (`chess.Outcome`).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        if let Ok(ours) = other.cast::<Outcome>() {
            return Ok(ours.get().inner == self.inner);
        }
        let (Ok(termination), Ok(winner)) = (other.getattr("termination"), other.getattr("winner"))
        else {
            return Ok(false);
        };
        let same_winner = winner.extract::<Option<bool>>().is_ok_and(|w| w == self.winner());
        Ok(same_winner && self.termination(other.py())?.eq(termination)?)
    }

    fn __repr__(&self) -> String {
        let winner = match self.winner() {
            Some(true) => "True",
            Some(false) => "False",
            None => "None",
        };
        let termination = termination_name(self.inner.termination());
        format!("Outcome(termination=Termination.{termination}, winner={winner})")
    }
}

/// A `move` argument as a [`Move`]: a `chessbits.Move`, or python-chess's `chess.Move` (any
/// object with its `from_square`, `to_square` and `promotion`; `from_square == to_square` is
/// its null move). Taken by hand: pyo3's own message would name the argument `r#move`, its Rust
/// spelling.
/// UCI text as python-chess reads it: `InvalidMoveError` for text that is not UCI, or that
/// names one square twice (`a1a1`: the null move is `0000`). `Move.from_uci`, and
/// `Board.parse_uci` and `push_uci` before they resolve the move.
pub(crate) fn parse_uci(text: &str) -> PyResult<Move> {
    let uci = UciMove::from_ascii(text.as_bytes())
        .map_err(|e| raise::<InvalidMoveError>(format!("invalid uci {text:?}: {e}")))?;
    if let UciMove::Normal { from, to, .. } = uci {
        if from == to {
            let message = format!("invalid uci {text:?}: use 0000 for the null move");
            return Err(raise::<InvalidMoveError>(message));
        }
    }
    Ok(Move { uci })
}

pub(crate) fn move_arg(value: &Bound<'_, PyAny>) -> PyResult<Move> {
    if let Ok(m) = value.extract::<Move>() {
        return Ok(m);
    }
    let attr = |name| value.getattr(name).ok();
    if let (Some(from), Some(to), Some(promotion)) =
        (attr("from_square"), attr("to_square"), attr("promotion"))
    {
        // python-chess's null move is `Move(0, 0)`, which `Move::new` reads as ours.
        return Move::new(from.extract()?, to.extract()?, promotion.extract()?);
    }
    let kind = value.get_type().name().map_or_else(|_| "?".to_owned(), |n| n.to_string());
    Err(pyo3::exceptions::PyTypeError::new_err(format!(
        "move must be a chessbits.Move or a chess.Move, not {kind}"
    )))
}

/// The long algebraic notation of the legal move `m` in `pos`, as python-chess's `lan`:
/// `Ng1-f3`, `e4xd5`, `O-O`, `e7-e8=Q+`, `--` for the null move.
pub(crate) fn lan(pos: &chessbits_state::Position, m: chessbits_move::Move16) -> String {
    if m.is_null() {
        return "--".to_owned();
    }
    let mut text = if m.is_castling() {
        let king_side = m.to().file() > m.from().file();
        (if king_side { "O-O" } else { "O-O-O" }).to_owned()
    } else {
        let role = pos.board().role_at(m.from()).unwrap_or(Role::Pawn);
        let letter = if role == Role::Pawn { String::new() } else { role.upper_char().to_string() };
        let sep = if m.is_capture() { 'x' } else { '-' };
        let promotion = m.promotion().map_or_else(String::new, |r| format!("={}", r.upper_char()));
        format!("{letter}{}{sep}{}{promotion}", m.from(), m.to())
    };
    let after = pos.played_unchecked(m);
    if after.is_checkmate() {
        text.push('#');
    } else if after.is_check() {
        text.push('+');
    }
    text
}

/// The moves as SAN with move numbers from `pos` (`1. e4 e5 2. Nf3`, or `1...e5` when black
/// moves first): `Board.variation_san`.
///
/// # Errors
/// `IllegalMoveError` for a move that is not legal where it stands.
pub(crate) fn variation_san(
    mut pos: chessbits_state::Position,
    moves: &Bound<'_, PyAny>,
) -> PyResult<String> {
    let mut out = String::new();
    for (i, m) in moves.try_iter()?.enumerate() {
        let m = move_arg(&m?)?;
        let resolved = if m.uci == UciMove::Null {
            chessbits_move::Move16::NULL
        } else {
            resolve_uci(&pos, m.uci).map_err(|e| {
                raise::<IllegalMoveError>(format!("illegal move in variation, move {}: {e}", i + 1))
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

/// The squares of the pieces that came by promotion in `moves` and still stand, as
/// python-chess's `promoted` mask: a promotion marks its square, a marked piece carries the
/// mark when it moves, and a capture clears the square it lands on.
pub(crate) fn promoted(moves: &[chessbits_move::Move16]) -> chessbits_bitboard::Bitboard {
    let mut mask = 0u64;
    for m in moves.iter().filter(|m| !m.is_null()) {
        let (from, to) = (1u64 << m.from() as u32, 1u64 << m.to() as u32);
        let moved = mask & from != 0;
        mask &= !(from | to);
        if moved || m.promotion().is_some() {
            mask |= to;
        }
    }
    chessbits_bitboard::Bitboard(mask)
}
