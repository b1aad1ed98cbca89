//! UCI move text: `e2e4`, `e7e8q`, `0000`, and castling as king-to-destination or king-takes-rook.

use core::fmt;
use core::str::FromStr;

use chessbits_bitboard::{File, Role, Square};

use crate::{Move16, Move32};

/// How castling moves are written in UCI.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum CastlingMode {
    /// Standard chess: the king's own two-square move, `e1g1` and `e1c1`.
    #[default]
    Standard,
    /// Chess960 (`UCI_Chess960`): the king takes its own rook, `e1h1`, `b1a1`.
    Chess960,
}

/// A move in UCI notation, not yet checked against any position.
///
/// Resolving it into a legal move (finding out that `e1g1` is castling, or that a move is
/// illegal) needs a position; that lives with move generation.
///
/// ```
/// use chessbits_bitboard::{Role, Square};
/// use chessbits_move::UciMove;
///
/// let m: UciMove = "e7e8q".parse()?;
/// assert_eq!(m, UciMove::Normal { from: Square::E7, to: Square::E8, promotion: Some(Role::Queen) });
/// assert_eq!(m.to_string(), "e7e8q");
/// assert_eq!("0000".parse::<UciMove>()?, UciMove::Null);
/// # Ok::<_, chessbits_move::ParseUciMoveError>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum UciMove {
    /// A move from one square to another, with an optional promotion role.
    Normal {
        /// Origin square.
        from: Square,
        /// Destination square.
        to: Square,
        /// The role a pawn promotes to, if any.
        promotion: Option<Role>,
    },
    /// The null move, `0000`.
    Null,
}

/// Why a UCI move could not be parsed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseUciMoveError {
    /// The text is not 4 or 5 characters long.
    Length(usize),
    /// The character at this byte offset is not a valid square coordinate.
    Square(usize),
    /// The fifth character is not a promotion role `n b r q` (lowercase).
    Promotion,
}

impl fmt::Display for ParseUciMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ParseUciMoveError::Length(n) => {
                write!(f, "uci move must be 4 or 5 characters, got {n}")
            }
            ParseUciMoveError::Square(at) => write!(f, "invalid square coordinate at byte {at}"),
            ParseUciMoveError::Promotion => {
                f.write_str("invalid promotion letter at byte 4, expected one of n b r q")
            }
        }
    }
}

#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
impl std::error::Error for ParseUciMoveError {}

impl UciMove {
    /// Parses UCI text from bytes.
    ///
    /// # Errors
    /// [`ParseUciMoveError`] saying which part is wrong.
    pub fn from_ascii(s: &[u8]) -> Result<UciMove, ParseUciMoveError> {
        if s == b"0000" {
            return Ok(UciMove::Null);
        }
        if s.len() != 4 && s.len() != 5 {
            return Err(ParseUciMoveError::Length(s.len()));
        }
        let from = square_at(s, 0)?;
        let to = square_at(s, 2)?;
        let promotion = match s.get(4) {
            None => None,
            Some(b'n') => Some(Role::Knight),
            Some(b'b') => Some(Role::Bishop),
            Some(b'r') => Some(Role::Rook),
            Some(b'q') => Some(Role::Queen),
            Some(_) => return Err(ParseUciMoveError::Promotion),
        };
        Ok(UciMove::Normal { from, to, promotion })
    }
}

fn square_at(s: &[u8], at: usize) -> Result<Square, ParseUciMoveError> {
    Square::from_ascii(&s[at..at + 2]).map_err(|e| match e {
        chessbits_bitboard::ParseSquareError::Rank(_) => ParseUciMoveError::Square(at + 1),
        _ => ParseUciMoveError::Square(at),
    })
}

impl FromStr for UciMove {
    type Err = ParseUciMoveError;
    fn from_str(s: &str) -> Result<UciMove, ParseUciMoveError> {
        UciMove::from_ascii(s.as_bytes())
    }
}

impl UciMove {
    /// The move's text as ASCII bytes and how many of them it is (4, or 5 with a promotion),
    /// for a writer of many moves that copies them into a buffer of its own.
    ///
    /// ```
    /// use chessbits_move::UciMove;
    ///
    /// let (bytes, len) = "e7e8q".parse::<UciMove>()?.to_ascii();
    /// assert_eq!(&bytes[..len], b"e7e8q");
    /// # Ok::<_, chessbits_move::ParseUciMoveError>(())
    /// ```
    pub const fn to_ascii(self) -> ([u8; 5], usize) {
        match self {
            UciMove::Null => (*b"0000 ", 4),
            UciMove::Normal { from, to, promotion } => {
                let [f0, f1] = from.to_ascii();
                let [t0, t1] = to.to_ascii();
                match promotion {
                    Some(role) => ([f0, f1, t0, t1, role.char() as u8], 5),
                    None => ([f0, f1, t0, t1, b' '], 4),
                }
            }
        }
    }

    /// Appends the move's text to `out`, as [`Display`](fmt::Display) writes it, without the
    /// formatting machinery (a writer of many moves spends most of its time there otherwise).
    /// With the `alloc` feature.
    ///
    /// ```
    /// use chessbits_move::UciMove;
    ///
    /// let mut line = String::from("moves ");
    /// "e7e8q".parse::<UciMove>()?.push_to(&mut line);
    /// assert_eq!(line, "moves e7e8q");
    /// # Ok::<_, chessbits_move::ParseUciMoveError>(())
    /// ```
    #[cfg(feature = "alloc")]
    #[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
    pub fn push_to(self, out: &mut alloc::string::String) {
        let (bytes, len) = self.to_ascii();
        // Squares, role letters and `0000` are ASCII.
        out.push_str(core::str::from_utf8(&bytes[..len]).unwrap_or("0000"));
    }
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (bytes, len) = self.to_ascii();
        // Squares, role letters and `0000` are ASCII.
        f.write_str(core::str::from_utf8(&bytes[..len]).map_err(|_| fmt::Error)?)
    }
}

impl Move16 {
    /// The UCI form of the move. Castling (stored king-to-rook) is written as the king's
    /// destination (`e1g1`) in [`CastlingMode::Standard`] and as king-takes-rook (`e1h1`) in
    /// [`CastlingMode::Chess960`]. `NONE` and `NULL` are written `0000`.
    pub const fn to_uci(self, mode: CastlingMode) -> UciMove {
        if self.is_null() {
            return UciMove::Null;
        }
        let (from, mut to) = (self.from(), self.to());
        if self.is_castling() && matches!(mode, CastlingMode::Standard) {
            let file = if self.nibble() == 0b0010 { File::G } else { File::C };
            to = Square::from_coords(file, from.rank());
        }
        UciMove::Normal { from, to, promotion: self.promotion() }
    }
}

impl Move32 {
    /// The UCI form of the move; see [`Move16::to_uci`].
    pub fn to_uci(self, mode: CastlingMode) -> UciMove {
        self.to_move16().to_uci(mode)
    }
}

/// UCI text in standard notation, with castling as the king's destination: `e1g1`, `e7e8q`,
/// `0000` for `NONE` and `NULL`. A bare move cannot know its game, so a Chess960 castling move
/// prints the same way (`b1c1` for the king on b1 castling with the rook on a1), which can read
/// like a king step: print a game's moves through the position (`Position::uci` in
/// chessbits-state) or [`Move16::to_uci`] with [`CastlingMode::Chess960`].
impl fmt::Display for Move16 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_uci(CastlingMode::Standard), f)
    }
}

/// UCI text in standard notation, as for [`Move16`]'s `Display`; use [`Move32::to_uci`] with
/// [`CastlingMode::Chess960`] for Chess960 games.
impl fmt::Display for Move32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_uci(CastlingMode::Standard), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MoveKind;

    fn check(text: &str, expected: Result<UciMove, ParseUciMoveError>) {
        let parsed = text.parse::<UciMove>();
        assert_eq!(parsed, expected, "{text}");
        if let Ok(m) = parsed {
            assert_eq!(m.to_string(), text);
        }
    }

    /// `Display` and `push_to` write every move as its squares' and role's own texts say.
    #[test]
    fn every_move_prints_as_its_parts() {
        use std::string::{String, ToString};
        let mut pushed = String::new();
        let mut count = 0;
        for from in Square::ALL {
            for to in Square::ALL {
                for promotion in [None, Some(Role::Knight), Some(Role::Queen)] {
                    let m = UciMove::Normal { from, to, promotion };
                    let mut expected = from.to_string() + &to.to_string();
                    expected.extend(promotion.map(Role::char));
                    assert_eq!(m.to_string(), expected);
                    pushed.clear();
                    m.push_to(&mut pushed);
                    assert_eq!(pushed, expected);
                    count += 1;
                }
            }
        }
        assert_eq!(count, 64 * 64 * 3);
        pushed.clear();
        UciMove::Null.push_to(&mut pushed);
        assert_eq!((pushed.as_str(), UciMove::Null.to_string()), ("0000", "0000".to_string()));
    }

    #[test]
    fn parses_and_prints() {
        let n = |from, to, promotion| Ok(UciMove::Normal { from, to, promotion });
        check("e2e4", n(Square::E2, Square::E4, None));
        check("a7a8n", n(Square::A7, Square::A8, Some(Role::Knight)));
        check("h2h1r", n(Square::H2, Square::H1, Some(Role::Rook)));
        check("0000", Ok(UciMove::Null));
        check("", Err(ParseUciMoveError::Length(0)));
        check("e2e4qq", Err(ParseUciMoveError::Length(6)));
        check("i2e4", Err(ParseUciMoveError::Square(0)));
        check("e0e4", Err(ParseUciMoveError::Square(1)));
        check("e2z4", Err(ParseUciMoveError::Square(2)));
        check("e2e9", Err(ParseUciMoveError::Square(3)));
        check("e7e8k", Err(ParseUciMoveError::Promotion));
        check("e7e8Q", Err(ParseUciMoveError::Promotion));
        check("e7e8p", Err(ParseUciMoveError::Promotion));
        assert_eq!("é2e4".parse::<UciMove>(), Err(ParseUciMoveError::Square(0)));
        assert_eq!("e2e4é".parse::<UciMove>(), Err(ParseUciMoveError::Length(6)));
    }

    /// Every byte string of length 0 to 6 over an alphabet of edge cases parses or fails with a
    /// typed error, never panics, and whatever parses prints back to itself.
    #[test]
    fn exhaustive_short_inputs_never_panic() {
        let alphabet = [b'a', b'h', b'i', b'0', b'1', b'8', b'9', b'q', b'k', 0xc3, b' '];
        let mut input = Vec::new();
        let mut parsed = 0;
        for len in 0..=6u32 {
            for mut code in 0..alphabet.len().pow(len) {
                input.clear();
                for _ in 0..len {
                    input.push(alphabet[code % alphabet.len()]);
                    code /= alphabet.len();
                }
                if let Ok(m) = UciMove::from_ascii(&input) {
                    assert_eq!(m.to_string().as_bytes(), input.as_slice());
                    parsed += 1;
                }
            }
        }
        // Squares a1 a8 h1 h8: 16 from-to pairs, each also with q, plus "0000".
        assert_eq!(parsed, 16 + 16 + 1);
    }

    #[test]
    fn castling_in_both_modes() {
        let short = Move16::new(Square::E1, Square::H1, MoveKind::KingCastle);
        let long = Move16::new(Square::E8, Square::A8, MoveKind::QueenCastle);
        let frc = Move16::new(Square::B1, Square::A1, MoveKind::QueenCastle);
        let out = |m: Move16, mode| m.to_uci(mode).to_string();
        assert_eq!(out(short, CastlingMode::Standard), "e1g1");
        assert_eq!(out(short, CastlingMode::Chess960), "e1h1");
        assert_eq!(out(long, CastlingMode::Standard), "e8c8");
        assert_eq!(out(long, CastlingMode::Chess960), "e8a8");
        assert_eq!(out(frc, CastlingMode::Standard), "b1c1");
        assert_eq!(out(frc, CastlingMode::Chess960), "b1a1");
        assert_eq!(Move16::NULL.to_string(), "0000");
        let promo = Move16::new(Square::G2, Square::H1, MoveKind::CapturePromotion(Role::Bishop));
        assert_eq!(promo.to_string(), "g2h1b");
        let m32 = promo.to_move32(
            chessbits_bitboard::Piece::new(chessbits_bitboard::Color::Black, Role::Pawn),
            Some(Role::Rook),
        );
        assert_eq!(m32.to_string(), "g2h1b");
    }
}
