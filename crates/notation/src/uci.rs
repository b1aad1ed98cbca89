//! UCI `position` commands: [`UciPosition`] reads and writes `position startpos moves e2e4 ...`
//! and `position fen <FEN> moves ...`, and turns them into a [`Position`] or a [`Game`].
//!
//! # Grammar
//!
//! ```text
//! command = ["position"] start ["moves" {move}]
//! start   = "startpos" | "fen" placement side castling en-passant [halfmove fullmove]
//! move    = a UCI move: e2e4, e7e8q, 0000, castling as e1g1 or (Chess960) e1h1
//! ```
//!
//! Tokens are separated by any amount of ASCII whitespace, and the text may be surrounded by
//! it. The word `position` may be left out, `moves` may be followed by no moves, and the FEN
//! may have four fields or six (the clocks are then 0 and 1). The FEN fields are read by the
//! [`fen`](crate::fen) module's field readers, so X-FEN and Shredder-FEN castling both work. The
//! keywords are lowercase, as UCI writes them.
//!
//! [`UciPosition::from_parts`] reads the same two halves when they come apart, as in a file of
//! `FEN;moves` lines: there a FEN may stand without the word `fen`.
//!
//! # Output
//!
//! `Display` writes `position startpos` or `position fen <FEN>` (the six fields, X-FEN
//! castling), then ` moves m1 m2 ...` if there are moves, with single spaces. So
//! `parse(print(p)) == p`, and `print(parse(s)) == s` for every command already written so.
//!
//! ```
//! use chessbits_notation::uci::UciPosition;
//! use chessbits_movegen::MoveGen;
//!
//! let cmd: UciPosition = "position startpos moves e2e4 e7e5 g1f3".parse()?;
//! assert_eq!(cmd.moves.len(), 3);
//! let pos = cmd.to_position()?;
//! assert_eq!(pos.fullmoves(), 2);
//!
//! let cmd: UciPosition = "  fen 4k3/8/8/8/8/8/8/4K2R w K -   moves  e1g1 ".parse()?;
//! assert_eq!(cmd.to_string(), "position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1 moves e1g1");
//! assert_eq!(cmd.to_game()?.moves().len(), 1);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! # Errors
//!
//! Reading never panics. Text that is not a `position` command gives a
//! [`ParseUciPositionError`] with the byte offset and what was wrong (a FEN field error is the
//! FEN reader's, with its offset counted in the whole command). Turning a command into a
//! position gives a [`UciPositionError`]: the FEN describes no legal position, or the move at
//! ply N (counted from 1) is illegal.

use core::fmt;
use core::str::FromStr;

use chessbits_move::{ParseUciMoveError, UciMove};
use chessbits_movegen::{Game, IllegalMoveError, MoveGen};
use chessbits_state::{Position, PositionError};

use crate::fen::{read_fields, Fen, FenErrorKind, FenField, FieldSource, ParseFenError};

/// A UCI `position` command without a position: where the game starts and the moves played.
///
/// ```
/// use chessbits_notation::uci::UciPosition;
///
/// let cmd: UciPosition = "position fen 8/8/8/8/8/8/8/K6k w - - moves a1b2".parse()?;
/// assert!(cmd.start.is_some());
/// assert_eq!(cmd.moves[0].to_string(), "a1b2");
/// assert_eq!(UciPosition::default().to_string(), "position startpos");
/// # Ok::<_, chessbits_notation::uci::ParseUciPositionError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct UciPosition {
    /// The FEN to start from; `None` is `startpos`, the standard starting position.
    pub start: Option<Fen>,
    /// The moves played from there, in order.
    pub moves: Vec<UciMove>,
}

impl UciPosition {
    /// Parses a command given as bytes.
    ///
    /// # Errors
    /// [`ParseUciPositionError`] for the first problem, read left to right.
    pub fn from_ascii(command: &[u8]) -> Result<UciPosition, ParseUciPositionError> {
        let mut tokens = Tokens::new(command);
        if tokens.peek().is_some_and(|(_, word)| word == b"position") {
            tokens.next();
        }
        let start = match tokens.next() {
            Some((_, b"startpos")) => None,
            Some((_, b"fen")) => Some(read_fen(&mut tokens)?),
            other => {
                let at = other.map_or(tokens.end, |(at, _)| at);
                return Err(ParseUciPositionError::new(at, UciPositionErrorKind::ExpectedStart));
            }
        };
        let moves = match tokens.next() {
            None => Vec::new(),
            Some((_, b"moves")) => UciMoves { tokens, ply: 0 }.collect::<Result<_, _>>()?,
            Some((at, _)) => {
                return Err(ParseUciPositionError::new(at, UciPositionErrorKind::ExpectedMoves))
            }
        };
        Ok(UciPosition { start, moves })
    }

    /// Builds a command from its two halves written apart: `start` is `startpos` or a FEN (the
    /// word `fen` before it is optional), `moves` the UCI moves separated by whitespace (the
    /// word `moves` before them is optional). Error offsets count in the half at fault.
    ///
    /// ```
    /// use chessbits_notation::uci::UciPosition;
    ///
    /// let cmd = UciPosition::from_parts("8/8/8/8/8/8/8/K6k w - - 0 1", "a1b2 h1g2")?;
    /// assert_eq!(cmd.to_string(), "position fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1b2 h1g2");
    /// assert_eq!(UciPosition::from_parts("startpos", "")?, UciPosition::default());
    /// # Ok::<_, chessbits_notation::uci::ParseUciPositionError>(())
    /// ```
    ///
    /// # Errors
    /// [`ParseUciPositionError`] for the first problem, the start first.
    pub fn from_parts(start: &str, moves: &str) -> Result<UciPosition, ParseUciPositionError> {
        let mut tokens = Tokens::new(start.as_bytes());
        let start = match tokens.peek() {
            Some((_, b"startpos")) => {
                tokens.next();
                None
            }
            Some((_, b"fen")) => {
                tokens.next();
                Some(read_fen(&mut tokens)?)
            }
            _ => Some(read_fen(&mut tokens)?),
        };
        if let Some((at, _)) = tokens.next() {
            return Err(ParseUciPositionError::new(at, UciPositionErrorKind::TrailingText));
        }
        let mut moves = Tokens::new(moves.as_bytes());
        if moves.peek().is_some_and(|(_, word)| word == b"moves") {
            moves.next();
        }
        let moves = UciMoves { tokens: moves, ply: 0 }.collect::<Result<_, _>>()?;
        Ok(UciPosition { start, moves })
    }

    /// The position to start from.
    ///
    /// # Errors
    /// [`UciPositionError::Position`] if the FEN describes no legal position.
    pub fn start_position(&self) -> Result<Position, UciPositionError> {
        match self.start {
            None => Ok(Position::new()),
            Some(fen) => Ok(fen.into_position()?),
        }
    }

    /// The position after every move.
    ///
    /// # Errors
    /// [`UciPositionError`] if the FEN describes no legal position or a move is illegal.
    pub fn to_position(&self) -> Result<Position, UciPositionError> {
        let mut pos = self.start_position()?;
        for (i, &uci) in self.moves.iter().enumerate() {
            let m = pos
                .resolve_uci(uci)
                .map_err(|error| UciPositionError::IllegalMove { ply: i + 1, error })?;
            pos.play_unchecked(m);
        }
        Ok(pos)
    }

    /// The game: the start position, every move played, and the repetition history.
    ///
    /// # Errors
    /// [`UciPositionError`] if the FEN describes no legal position or a move is illegal.
    pub fn to_game(&self) -> Result<Game, UciPositionError> {
        let mut game = Game::new(self.start_position()?);
        for (i, &uci) in self.moves.iter().enumerate() {
            game.play_uci(uci)
                .map_err(|error| UciPositionError::IllegalMove { ply: i + 1, error })?;
        }
        Ok(game)
    }
}

impl FromStr for UciPosition {
    type Err = ParseUciPositionError;

    fn from_str(s: &str) -> Result<UciPosition, ParseUciPositionError> {
        UciPosition::from_ascii(s.as_bytes())
    }
}

/// Writes `position startpos` or `position fen <FEN>`, then ` moves ...` if there are moves.
impl fmt::Display for UciPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.start {
            None => f.write_str("position startpos")?,
            Some(fen) => write!(f, "position fen {fen}")?,
        }
        if !self.moves.is_empty() {
            f.write_str(" moves")?;
            for m in &self.moves {
                write!(f, " {m}")?;
            }
        }
        Ok(())
    }
}

/// The moves of a move list, read one at a time: for a reader that acts on each move before it
/// looks at the next (replaying a game line and reporting where it goes wrong, say).
///
/// Each token is read on its own, so an error does not end the iteration. Error offsets count
/// in the text given.
///
/// ```
/// use chessbits_notation::uci::{UciMoves, UciPositionErrorKind};
///
/// let mut moves = UciMoves::new(" e2e4  e7e9 ");
/// assert_eq!(moves.next().unwrap()?.to_string(), "e2e4");
/// let err = moves.next().unwrap().unwrap_err();
/// assert_eq!(err.offset, 7);
/// assert!(matches!(err.kind, UciPositionErrorKind::Move { ply: 2, .. }));
/// assert_eq!(err.to_string(), r#"ply 2 (byte 7): "e7e9" is not a uci move: invalid square coordinate at byte 3"#);
/// assert!(moves.next().is_none());
/// # Ok::<_, chessbits_notation::uci::ParseUciPositionError>(())
/// ```
#[derive(Clone, Debug)]
pub struct UciMoves<'a> {
    tokens: Tokens<'a>,
    /// The plies read so far.
    ply: usize,
}

impl<'a> UciMoves<'a> {
    /// The moves of `text`, UCI moves separated by whitespace.
    pub fn new(text: &'a str) -> UciMoves<'a> {
        UciMoves { tokens: Tokens::new(text.as_bytes()), ply: 0 }
    }
}

impl Iterator for UciMoves<'_> {
    type Item = Result<UciMove, ParseUciPositionError>;

    fn next(&mut self) -> Option<Self::Item> {
        let (at, text) = self.tokens.next()?;
        self.ply += 1;
        let ply = self.ply;
        Some(UciMove::from_ascii(text).map_err(|error| {
            let text = String::from_utf8_lossy(text).into_owned();
            ParseUciPositionError::new(at, UciPositionErrorKind::Move { ply, text, error })
        }))
    }
}

/// Reads the FEN fields up to the `moves` keyword or the end.
fn read_fen(tokens: &mut Tokens<'_>) -> Result<Fen, ParseUciPositionError> {
    let mut fields = FenTokens(tokens);
    read_fields(&mut fields, true).map(Fen).map_err(|err| {
        ParseUciPositionError::new(err.offset, UciPositionErrorKind::Fen(err.field, err.kind))
    })
}

/// The whitespace-separated tokens of a command, with their offsets.
#[derive(Clone, Debug)]
struct Tokens<'a> {
    input: &'a [u8],
    /// The read position in `input`.
    pos: usize,
    /// The end of the input, trailing whitespace left out.
    end: usize,
}

impl<'a> Tokens<'a> {
    fn new(input: &'a [u8]) -> Tokens<'a> {
        Tokens { input, pos: 0, end: input.trim_ascii_end().len() }
    }

    fn peek(&self) -> Option<(usize, &'a [u8])> {
        self.clone().next()
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = (usize, &'a [u8]);

    fn next(&mut self) -> Option<(usize, &'a [u8])> {
        let rest = self.input.get(self.pos..self.end)?;
        let skip = rest.iter().take_while(|b| b.is_ascii_whitespace()).count();
        let rest = rest.get(skip..)?;
        if rest.is_empty() {
            self.pos = self.end;
            return None;
        }
        let len = rest.iter().take_while(|b| !b.is_ascii_whitespace()).count();
        let at = self.pos + skip;
        self.pos = at + len;
        Some((at, rest.get(..len)?))
    }
}

/// The FEN fields of a command: its tokens up to `moves`.
struct FenTokens<'t, 'a>(&'t mut Tokens<'a>);

impl<'a> FieldSource<'a> for FenTokens<'_, 'a> {
    fn next_field(&mut self) -> Option<(usize, &'a [u8])> {
        match self.0.peek() {
            Some((_, b"moves")) | None => None,
            Some(_) => self.0.next(),
        }
    }

    fn missing_at(&self) -> usize {
        self.0.peek().map_or(self.0.end, |(at, _)| at)
    }
}

/// What is wrong in a UCI `position` command.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum UciPositionErrorKind {
    /// The command does not go on with `startpos` or `fen`.
    ExpectedStart,
    /// A FEN field is wrong, as the FEN reader says.
    Fen(FenField, FenErrorKind),
    /// Something other than `moves` follows the start position.
    ExpectedMoves,
    /// [`UciPosition::from_parts`]: the start half goes on after the start position.
    TrailingText,
    /// A move is not UCI.
    Move {
        /// The move's ply, counted from 1.
        ply: usize,
        /// The move as written (invalid UTF-8 replaced).
        text: String,
        /// Why it is not a UCI move.
        error: ParseUciMoveError,
    },
}

/// Why text is not a UCI `position` command: the byte offset and what is wrong.
///
/// ```
/// use chessbits_notation::uci::{ParseUciPositionError, UciPosition, UciPositionErrorKind};
///
/// let err = "position startpos e2e4".parse::<UciPosition>().unwrap_err();
/// assert_eq!(err, ParseUciPositionError { offset: 18, kind: UciPositionErrorKind::ExpectedMoves });
/// assert_eq!(err.to_string(), "byte 18: expected 'moves' or the end");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseUciPositionError {
    /// The byte offset in the input (leading whitespace included) where the problem was found:
    /// the bad token or byte, or the end of the text for something missing.
    pub offset: usize,
    /// What is wrong.
    pub kind: UciPositionErrorKind,
}

impl ParseUciPositionError {
    const fn new(offset: usize, kind: UciPositionErrorKind) -> ParseUciPositionError {
        ParseUciPositionError { offset, kind }
    }
}

impl fmt::Display for ParseUciPositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = self.offset;
        match &self.kind {
            UciPositionErrorKind::ExpectedStart => {
                write!(f, "byte {at}: expected 'startpos' or 'fen'")
            }
            // The FEN reader's own message.
            &UciPositionErrorKind::Fen(field, kind) => {
                write!(f, "{}", ParseFenError { field, offset: at, kind })
            }
            UciPositionErrorKind::ExpectedMoves => {
                write!(f, "byte {at}: expected 'moves' or the end")
            }
            UciPositionErrorKind::TrailingText => {
                write!(f, "byte {at}: unexpected text after the start position")
            }
            UciPositionErrorKind::Move { ply, text, error } => {
                write!(f, "ply {ply} (byte {at}): {text:?} is not a uci move: {error}")
            }
        }
    }
}

impl std::error::Error for ParseUciPositionError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            UciPositionErrorKind::Move { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// Why a `position` command gives no position: the FEN is not a legal position, or a move is
/// illegal.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum UciPositionError {
    /// The FEN describes no legal position.
    Position(PositionError),
    /// The move at this ply is not legal in the position before it.
    IllegalMove {
        /// The ply, counted from 1.
        ply: usize,
        /// The move (it prints as the move text).
        error: IllegalMoveError,
    },
}

impl fmt::Display for UciPositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciPositionError::Position(err) => write!(f, "{err}"),
            UciPositionError::IllegalMove { ply, error } => write!(f, "ply {ply}: {error}"),
        }
    }
}

impl std::error::Error for UciPositionError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            UciPositionError::Position(err) => Some(err),
            UciPositionError::IllegalMove { error, .. } => Some(error),
        }
    }
}

impl From<PositionError> for UciPositionError {
    fn from(err: PositionError) -> UciPositionError {
        UciPositionError::Position(err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use chessbits_move::UciMove;

    use crate::fen::fen_of;
    use UciPositionErrorKind::*;

    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

    fn err(offset: usize, kind: UciPositionErrorKind) -> ParseUciPositionError {
        ParseUciPositionError { offset, kind }
    }

    fn fen_err(offset: usize, field: FenField, kind: FenErrorKind) -> ParseUciPositionError {
        err(offset, UciPositionErrorKind::Fen(field, kind))
    }

    fn bad_move(
        offset: usize,
        ply: usize,
        text: &str,
        error: ParseUciMoveError,
    ) -> ParseUciPositionError {
        err(offset, Move { ply, text: text.to_owned(), error })
    }

    /// Parses `input` (as text and as bytes) and compares the canonical output, or the error,
    /// with `expected`; what parses must print and parse back to itself.
    fn check(input: &str, expected: Result<&str, ParseUciPositionError>) {
        let parsed = input.parse::<UciPosition>();
        assert_eq!(UciPosition::from_ascii(input.as_bytes()), parsed, "input {input:?}");
        let printed = parsed.clone().map(|cmd| cmd.to_string());
        assert_eq!(printed.as_deref().map_err(Clone::clone), expected, "input {input:?}");
        if let (Ok(cmd), Ok(printed)) = (&parsed, &printed) {
            assert_eq!(printed.parse().as_ref(), Ok(cmd), "printed {printed}");
        }
    }

    #[test]
    fn accepted_and_normalised() {
        let cases = [
            ("position startpos", "position startpos".to_owned()),
            ("startpos", "position startpos".to_owned()),
            ("position startpos moves", "position startpos".to_owned()),
            (
                "  position \t startpos  moves\te2e4   e7e5 \r\n",
                "position startpos moves e2e4 e7e5".to_owned(),
            ),
            ("position startpos moves 0000 e7e8q", "position startpos moves 0000 e7e8q".to_owned()),
            (&*format!("position fen {KIWIPETE}"), format!("position fen {KIWIPETE}")),
            (&*format!("fen {KIWIPETE} moves e1g1"), format!("position fen {KIWIPETE} moves e1g1")),
            // Four fields, and extra whitespace inside the FEN.
            (
                "position fen  8/8/8/8/8/8/8/K6k \t b  -  -  moves h1g1",
                "position fen 8/8/8/8/8/8/8/K6k b - - 0 1 moves h1g1".to_owned(),
            ),
            (
                "position fen 8/8/8/8/8/8/8/K6k b - - 5 0",
                "position fen 8/8/8/8/8/8/8/K6k b - - 5 1".to_owned(),
            ),
            // Shredder-FEN castling prints as X-FEN; a Chess960 castling move stays as written.
            (
                "position fen 6kr/8/8/8/8/8/8/RK6 w Ah - 0 1 moves b1a1",
                "position fen 6kr/8/8/8/8/8/8/RK6 w Qk - 0 1 moves b1a1".to_owned(),
            ),
        ];
        for (input, expected) in cases {
            check(input, Ok(&expected));
        }
    }

    #[test]
    fn syntax_errors() {
        use FenErrorKind as F;
        use FenField::*;
        use ParseUciMoveError as M;
        let cases = [
            ("", err(0, ExpectedStart)),
            ("   ", err(0, ExpectedStart)),
            ("position", err(8, ExpectedStart)),
            ("position startpo", err(9, ExpectedStart)),
            ("Position startpos", err(0, ExpectedStart)),
            ("position position startpos", err(9, ExpectedStart)),
            ("position moves e2e4", err(9, ExpectedStart)),
            ("position startpos e2e4", err(18, ExpectedMoves)),
            ("position startpos moves e2e4 e7e9", bad_move(29, 2, "e7e9", M::Square(3))),
            ("position startpos moves e2e4 moves", bad_move(29, 2, "moves", M::Square(0))),
            ("position startpos moves e7e8k", bad_move(24, 1, "e7e8k", M::Promotion)),
            ("position fen", fen_err(12, Placement, F::MissingField)),
            ("position fen moves e2e4", fen_err(13, Placement, F::MissingField)),
            ("position fen 8/8/8/8/8/8/8/8 moves", fen_err(29, Turn, F::MissingField)),
            (
                "position fen 8/8/8/8/8/8/8/K6k w Z -",
                fen_err(33, Castling, F::InvalidCastlingChar(b'Z')),
            ),
            (
                "position fen 8/8/8/8/8/8/8/K6k w - - x",
                fen_err(37, Halfmoves, F::InvalidNumber(b'x')),
            ),
            (
                "position fen 8/8/8/8/8/8/8/K6k w - - 0 moves",
                fen_err(39, Fullmoves, F::MissingField),
            ),
            ("position fen 8/8/8/8/8/8/8/K6k w - - 0 1 7", err(41, ExpectedMoves)),
            ("position fen 8/8/8/8/8/8/8/K6k w - - 0 1 move a1b1", err(41, ExpectedMoves)),
            (
                "position fen 8/8/8/8/8/8/8/K6x w - -",
                fen_err(29, Placement, F::InvalidPlacementChar(b'x')),
            ),
        ];
        for (input, expected) in cases {
            check(input, Err(expected));
        }
    }

    #[test]
    fn parts() {
        let cases = [
            (("startpos", ""), Ok("position startpos")),
            ((" startpos ", " moves e2e4 "), Ok("position startpos moves e2e4")),
            ((KIWIPETE, "e1g1\te8c8"), Ok("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 moves e1g1 e8c8")),
            (("fen 8/8/8/8/8/8/8/K6k b - -", "h1g1"), Ok("position fen 8/8/8/8/8/8/8/K6k b - - 0 1 moves h1g1")),
            // Without `fen`, anything but `startpos` is read as a FEN.
            (("not a fen", ""), Err(fen_err(1, FenField::Placement, FenErrorKind::InvalidPlacementChar(b'o')))),
            (("", ""), Err(fen_err(0, FenField::Placement, FenErrorKind::MissingField))),
            (("startpos x", ""), Err(err(9, TrailingText))),
            (("position startpos", ""), Err(fen_err(1, FenField::Placement, FenErrorKind::InvalidPlacementChar(b'o')))),
            ((&*format!("{KIWIPETE} moves"), ""), Err(err(69, TrailingText))),
            (("startpos", "e2e4 e7e5 x"), Err(bad_move(10, 3, "x", ParseUciMoveError::Length(1)))),
        ];
        for ((start, moves), expected) in cases {
            let got = UciPosition::from_parts(start, moves).map(|cmd| cmd.to_string());
            assert_eq!(got.as_deref().map_err(Clone::clone), expected, "{start:?} {moves:?}");
        }
    }

    #[test]
    fn positions_and_games() {
        let cmd: UciPosition = "position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5".parse().unwrap();
        let pos = cmd.to_position().unwrap();
        let expected = "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";
        assert_eq!(fen_of(&pos, Default::default()), expected);
        let game = cmd.to_game().unwrap();
        assert_eq!(game.position(), &pos);
        assert_eq!(game.start(), &Position::new());
        assert_eq!(game.moves().len(), 5);

        // Repetitions reach the game's history.
        let shuffle = "g1f3 g8f6 f3g1 f6g8 ".repeat(2);
        let game = format!("position startpos moves {shuffle}").parse::<UciPosition>().unwrap();
        assert_eq!(game.to_game().unwrap().repetitions(), 3);

        // Chess960 castling, king takes rook.
        let cmd: UciPosition =
            "position fen 6kr/8/8/8/8/8/8/RK6 w Ah - 0 1 moves b1a1".parse().unwrap();
        assert_eq!(
            fen_of(&cmd.to_position().unwrap(), Default::default()),
            "6kr/8/8/8/8/8/8/2KR4 b k - 1 1"
        );

        // Errors: the FEN's position, or the first illegal move with its ply.
        let illegal = |text: &str| UciMove::from_str(text).unwrap();
        let kingless = Position::from_setup(&chessbits_state::Setup::empty()).unwrap_err();
        let cases = [
            (
                "position startpos moves e2e4 e7e5 e4e5",
                UciPositionError::IllegalMove {
                    ply: 3,
                    error: IllegalMoveError { uci: illegal("e4e5") },
                },
            ),
            (
                "position startpos moves 0000",
                UciPositionError::IllegalMove {
                    ply: 1,
                    error: IllegalMoveError { uci: UciMove::Null },
                },
            ),
            (
                "position fen 8/8/8/8/8/8/8/8 w - - moves e2e4",
                // The empty board's own error: both kings missing.
                UciPositionError::Position(kingless),
            ),
        ];
        for (text, expected) in cases {
            let cmd: UciPosition = text.parse().unwrap();
            assert_eq!(cmd.to_position(), Err(expected), "{text}");
            assert_eq!(cmd.to_game().map(|g| *g.position()), Err(expected), "{text}");
        }
    }

    #[test]
    fn error_messages() {
        let message = |text: &str| text.parse::<UciPosition>().unwrap_err().to_string();
        insta::assert_snapshot!(message("position startpo"), @"byte 9: expected 'startpos' or 'fen'");
        insta::assert_snapshot!(message("position startpos e2e4"), @"byte 18: expected 'moves' or the end");
        insta::assert_snapshot!(message("position startpos moves e2e4 e7e9"), @r#"ply 2 (byte 29): "e7e9" is not a uci move: invalid square coordinate at byte 3"#);
        insta::assert_snapshot!(message("position startpos moves e7e8k"), @r#"ply 1 (byte 24): "e7e8k" is not a uci move: invalid promotion letter at byte 4, expected one of n b r q"#);
        insta::assert_snapshot!(message("position startpos moves e2e4e5"), @r#"ply 1 (byte 24): "e2e4e5" is not a uci move: uci move must be 4 or 5 characters, got 6"#);
        insta::assert_snapshot!(message("position fen 8/8/8/8/8/8/8/8 moves"), @"side to move (byte 29): missing");
        insta::assert_snapshot!(message("position fen 8/8/8/8/8/8/8/K6k w Z -"), @"castling (byte 33): invalid character 'Z', expected '-', KQkq or a file letter");
        let parts = UciPosition::from_parts("startpos x", "").unwrap_err();
        insta::assert_snapshot!(parts, @"byte 9: unexpected text after the start position");
        let resolve = |text: &str| {
            text.parse::<UciPosition>().unwrap().to_position().unwrap_err().to_string()
        };
        insta::assert_snapshot!(resolve("position startpos moves e2e4 e7e5 e4e5"), @"ply 3: illegal move e4e5");
        insta::assert_snapshot!(resolve("position fen 8/8/8/8/8/8/8/8 w - -"), @"white has no king, black has no king");
    }

    /// Parses `text`: no panic, errors inside the text, and what parses round-trips and
    /// resolves the same way into a position and a game.
    fn check_no_panic(text: &[u8]) -> bool {
        let result = std::panic::catch_unwind(|| match UciPosition::from_ascii(text) {
            Ok(cmd) => {
                assert_eq!(cmd.to_string().parse().as_ref(), Ok(&cmd));
                let pos = cmd.to_position();
                assert_eq!(cmd.to_game().map(|g| *g.position()), pos);
                true
            }
            Err(err) => {
                assert!(err.offset <= text.len(), "{err:?}");
                false
            }
        });
        result.unwrap_or_else(|_| panic!("input {:?}", text.escape_ascii().to_string()))
    }

    #[test]
    fn every_single_byte_edit_is_handled() {
        let commands = [
            "position startpos moves e2e4 e7e5 g1f3",
            "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1g1 e8c8",
            "fen 6kr/8/8/8/8/8/8/RK6 w Ah - moves b1a1 0000",
        ];
        const REPLACEMENTS: &[u8] = b" \tem1q0/-wKk\xc3";
        let mut parsed = 0;
        for command in commands {
            let bytes = command.as_bytes();
            for i in 0..=bytes.len() {
                parsed += usize::from(check_no_panic(&bytes[..i]));
                if i < bytes.len() {
                    check_no_panic(&[&bytes[..i], &bytes[i + 1..]].concat());
                    for &b in REPLACEMENTS {
                        check_no_panic(&[&bytes[..i], &[b], &bytes[i + 1..]].concat());
                        check_no_panic(&[&bytes[..i], &[b], &bytes[i..]].concat());
                    }
                }
            }
        }
        // Truncations inside the move list still parse.
        assert!(parsed > 20, "{parsed}");
    }

    #[test]
    fn mutated_commands_never_panic() {
        let commands = [
            "position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6",
            "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 moves e1g1",
            "position fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - moves e2e4 c7c5 b5c6",
        ];
        const PALETTE: &[u8] = b" \t\nabcdefgh12345678nbrqk0/-wKQkqposition startpos fen moves\xff";
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let mut parsed = 0;
        for _ in 0..20_000 {
            let mut text = commands[next(commands.len())].as_bytes().to_vec();
            for _ in 0..1 + next(3) {
                let i = next(text.len() + 1);
                let b = PALETTE[next(PALETTE.len())];
                match next(4) {
                    0 if i < text.len() => text[i] = b,
                    1 => text.insert(i, b),
                    2 if i < text.len() => {
                        text.remove(i);
                    }
                    _ => text.truncate(i),
                }
            }
            parsed += usize::from(check_no_panic(&text));
        }
        assert!(parsed > 500, "{parsed}");
    }
}
