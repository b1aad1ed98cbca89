//! Positions as text: [`Position`]'s `Display` (a board diagram with the FEN below), and the FEN
//! fields that are the state's own business, [`BoardFen`] (the placement) and [`CastlingFen`]
//! (the castling rights). Reading FEN is `chessbits-notation`'s job; it writes these two fields with
//! the types here, so there is one writer of each.
//!
//! The exact text is documented on the `Display` impl.

use core::fmt;

use chessbits_bitboard::{Bitboard, Color, File, Rank, Role, Square};
use chessbits_move::CastlingMode;

use crate::{Board, Position, Setup};

/// The placement field of a FEN (`rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR`), written by its
/// `Display` without allocating. Made by [`Board::board_fen`] and [`Position::board_fen`].
#[derive(Copy, Clone, Debug)]
pub struct BoardFen<'a>(&'a Board);

impl fmt::Display for BoardFen<'_> {
    /// Gathers the field's bytes (at most 71: eight a rank and seven slashes) and writes them
    /// at once: a formatter call per square was most of the time of writing a FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = [0u8; 71];
        let mut len = 0;
        let mut put = |b: u8| {
            if let Some(slot) = out.get_mut(len) {
                *slot = b;
                len += 1;
            }
        };
        for rank in Rank::ALL.into_iter().rev() {
            let mut empty = 0;
            for file in File::ALL {
                match self.0.piece_at(Square::from_coords(file, rank)) {
                    Some(piece) => {
                        if empty > 0 {
                            put(b'0' + empty);
                            empty = 0;
                        }
                        // Piece letters are ASCII.
                        put(piece.char() as u8);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                put(b'0' + empty);
            }
            if rank != Rank::First {
                put(b'/');
            }
        }
        f.write_str(core::str::from_utf8(out.get(..len).unwrap_or_default()).unwrap_or_default())
    }
}

impl Board {
    /// The placement as the first field of a FEN.
    pub const fn board_fen(&self) -> BoardFen<'_> {
        BoardFen(self)
    }
}

/// The castling field of a FEN, written by its `Display`: per color, white first, the rights on
/// the king's side from the outside in, then those on the queen's side. In X-FEN (the default)
/// the outermost rook on a side of the king is `K`/`Q` and any other rook its file letter; in
/// Shredder-FEN ([`CastlingFen::shredder`]) every rook is its file letter. Uppercase for white;
/// `-` for no right. Without one king on its back rank, a color's rooks are written from h to a
/// by file letter. Made by [`Setup::castling_fen`].
#[derive(Copy, Clone, Debug)]
pub struct CastlingFen<'a> {
    board: &'a Board,
    rooks: Bitboard,
    shredder: bool,
}

impl CastlingFen<'_> {
    /// The same field in Shredder-FEN: file letters only (`HAha` for the start position).
    #[must_use]
    pub const fn shredder(self) -> Self {
        CastlingFen { shredder: true, ..self }
    }
}

impl Setup {
    /// The castling rights as the third field of a FEN, X-FEN by default.
    pub const fn castling_fen(&self) -> CastlingFen<'_> {
        CastlingFen { board: &self.board, rooks: self.castling_rooks, shredder: false }
    }
}

/// The back-rank squares on the king's side of `king` (higher files) and the rest (its queen's
/// side and its own square, where an unvalidated setup may claim a right).
fn sides_of(king: Square, back: Bitboard) -> (Bitboard, Bitboard) {
    let above = Bitboard((u64::MAX << king as u32) << 1);
    (back & above, back - above)
}

impl fmt::Display for CastlingFen<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut written = false;
        for color in Color::ALL {
            let back = Bitboard::from_rank(Rank::First.relative_to(color));
            let rights = self.rooks & back;
            let rooks = self.board.by_piece(Role::Rook.of(color)) & back;
            let king = (self.board.by_piece(Role::King.of(color)) & back).single();
            // The rights on each side, and the outermost rook of each side (X-FEN's K and Q).
            let (king_side, queen_side, outer) = match king {
                Some(king) => {
                    let (k, q) = sides_of(king, back);
                    (rights & k, rights & q, [(rooks & k).last(), (rooks & q).first()])
                }
                None => (rights, Bitboard::EMPTY, [None, None]),
            };
            for rook in king_side.into_iter().rev().chain(queen_side) {
                let letter = match outer.iter().position(|&o| o == Some(rook)) {
                    Some(0) if !self.shredder => 'k',
                    Some(1) if !self.shredder => 'q',
                    _ => rook.file().char(),
                };
                let letter = if color.is_white() { letter.to_ascii_uppercase() } else { letter };
                write!(f, "{letter}")?;
                written = true;
            }
        }
        if !written {
            f.write_str("-")?;
        }
        Ok(())
    }
}

impl Position {
    /// The placement as the first field of a FEN (python-chess's `board_fen`).
    ///
    /// ```
    /// use chessbits_state::Position;
    ///
    /// let fen = Position::new().board_fen().to_string();
    /// assert_eq!(fen, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
    /// ```
    pub const fn board_fen(&self) -> BoardFen<'_> {
        self.board().board_fen()
    }
}

/// A board diagram, then the FEN.
///
/// `Position`'s `Display` writes eight ranks (8 first) of eight squares separated by spaces,
/// `.` for an empty square and the FEN letter of a piece, then the full FEN on its own line:
///
/// ```
/// use chessbits_state::Position;
///
/// assert_eq!(
///     Position::new().to_string(),
///     "r n b q k b n r\n\
///      p p p p p p p p\n\
///      . . . . . . . .\n\
///      . . . . . . . .\n\
///      . . . . . . . .\n\
///      . . . . . . . .\n\
///      P P P P P P P P\n\
///      R N B Q K B N R\n\
///      \n\
///      rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
/// );
/// assert_eq!(Position::new().board_fen().to_string(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
/// ```
///
/// The FEN writes the en passant square as recorded (after every double push) and the castling
/// field in X-FEN (`KQkq` for the outermost rook on a side, the rook's file letter otherwise),
/// except that a Chess960 game whose rights read like standard chess's is written with
/// Shredder-FEN file letters (`HAha`), so that the text reads back as Chess960.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let setup = self.to_setup();
        let kings = [self.board().king_of(Color::White), self.board().king_of(Color::Black)];
        let castling = setup.castling_fen();
        // A Chess960 game whose rights X-FEN would write as standard chess's: file letters.
        let castling = if self.castling_mode() == CastlingMode::Chess960
            && !self.castles().is_empty()
            && !self.castles().is_chess960(kings)
        {
            castling.shredder()
        } else {
            castling
        };
        writeln!(f, "{}", self.board())?;
        write!(f, "{} {} {castling} ", self.board_fen(), self.turn().char())?;
        match self.ep_square() {
            Some(sq) => write!(f, "{sq}")?,
            None => f.write_str("-")?,
        }
        writeln!(f, " {} {}", self.halfmoves(), self.fullmoves())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The FEN line of `setup`'s position (the diagram is the board's `Display`, tested there).
    fn check(setup: Setup, fen: &str) {
        let pos = Position::from_setup(&setup).expect("a legal setup");
        let text = pos.to_string();
        let (diagram, line) = text.split_once("\n\n").expect("a blank line before the FEN");
        assert_eq!(format!("{diagram}\n"), pos.board().to_string());
        assert_eq!(line, format!("{fen}\n"));
        assert_eq!(pos.board_fen().to_string(), fen.split(' ').next().unwrap_or_default());
    }

    fn setup_of(pieces: &[(Square, char)], rooks: &[Square]) -> Setup {
        let mut setup = Setup::empty();
        for &(sq, c) in pieces {
            setup.board.set_piece_at(sq, chessbits_bitboard::Piece::from_char(c).expect("a piece"));
        }
        setup.castling_rooks = rooks.iter().copied().collect();
        setup
    }

    #[test]
    fn the_fen_line_names_every_field() {
        check(Setup::default(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let mut after_e4 = Setup::default();
        after_e4.board.shift(Square::E2, Square::E4, Role::Pawn.of(Color::White));
        after_e4.turn = Color::Black;
        after_e4.ep_square = Some(Square::E3);
        after_e4.halfmoves = 3;
        after_e4.fullmoves = 7;
        check(after_e4, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 3 7");
        // An inner rook is written by its file letter, the outer one as K.
        let inner = setup_of(
            &[(Square::E1, 'K'), (Square::F1, 'R'), (Square::H1, 'R'), (Square::E8, 'k')],
            &[Square::F1],
        );
        check(inner, "4k3/8/8/8/8/8/8/4KR1R w F - 0 1");
        let outer = setup_of(
            &[(Square::B1, 'K'), (Square::A1, 'R'), (Square::G8, 'k'), (Square::H8, 'r')],
            &[Square::A1, Square::H8],
        );
        check(outer, "6kr/8/8/8/8/8/8/RK6 w Qk - 0 1");
        // Chess960 with corner rooks and the king on e: file letters, so it reads back as 960.
        let chess960 = Setup { castling_mode: CastlingMode::Chess960, ..Setup::default() };
        check(chess960, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
        check(
            setup_of(&[(Square::A1, 'K'), (Square::H8, 'k')], &[]),
            "7k/8/8/8/8/8/8/K7 w - - 0 1",
        );
    }

    #[test]
    fn castling_fields_of_setups_without_a_king_on_the_back_rank() {
        // The rooks from h to a by file letter, whatever the notation.
        let setup = setup_of(&[(Square::A1, 'R'), (Square::H1, 'R')], &[Square::A1, Square::H1]);
        assert_eq!(setup.castling_fen().to_string(), "HA");
        assert_eq!(setup.castling_fen().shredder().to_string(), "HA");
        assert_eq!(Setup::default().castling_fen().shredder().to_string(), "HAha");
        assert_eq!(Setup::empty().castling_fen().to_string(), "-");
        // A right claimed on the king's own square is written after the queen side's rook.
        let on_king = setup_of(&[(Square::E1, 'K'), (Square::B1, 'R')], &[Square::B1, Square::E1]);
        assert_eq!(on_king.castling_fen().to_string(), "QE");
    }
}
