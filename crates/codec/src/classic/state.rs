//! What the game-state encodings ([`state14`](crate::classic::state_lossy), [`state_full`](crate::classic::state_full))
//! share: the fields as read from the bits ([`StateFields`], decoded without a board), how the
//! board turns them into a position's state, and the errors.
//!
//! # Castling: one bit per rook
//!
//! Four bits in the order `K Q k q`: white king side, white queen side, black king side, black
//! queen side. A set bit gives the right to the **outermost** rook of that color on that side of
//! its king, on its back rank: the rook X-FEN's `K`/`Q` letters name. That is every right of
//! standard chess and nearly every one of Chess960. A right held by an inner rook (Chess960: a
//! rook on g1 keeps the right while another rook stands on h1) cannot be said in four bits:
//! `state14` refuses it ([`StateEncodeError::CastlingRookNotOutermost`]), `state-full` stores
//! the rook files in its escape block.
//!
//! # En passant: which candidate pawn
//!
//! The **candidates** are the pawns of the side that just moved that stand on their fourth rank
//! (rank 4 for white, rank 5 for black) with the two squares behind them empty: the pawns that
//! could have just made a double step. Three bits `v` say which of them did, counting from the
//! a-file starting at 0; 7, or any value not below the number of candidates, means none did. So
//! **decoding the en passant square needs the board**: the bits alone say "the second
//! candidate", and [`StateFields::to_setup`] finds it.
//!
//! The square is the one the position records after every double push (FEN's en passant field as
//! this crate prints it), capture possible or not. With eight candidates (eight pawns side by
//! side on the fourth rank, nothing behind them) the eighth cannot be named, since 7 means none:
//! `state14` refuses it ([`StateEncodeError::EnPassantNotNamed`]), `state-full` stores the file
//! in its escape block.
//!
//! Both fields are part of the `state14` and `state-full` layouts: changing what they mean is a
//! breaking change.

use core::fmt;

use chessbits_bitboard::{Bitboard, Color, File, Rank, Role, Square};
use chessbits_move::CastlingMode;
use chessbits_state::{Board, CastlingRights, CastlingSide, Position, Setup};

use crate::bits::{Bit, DecodeErrorKind, Located};

/// The value of the 3-bit en passant field that means none.
pub(crate) const NO_EN_PASSANT: u8 = 7;

/// The rights in the order of the bits: `K Q k q`.
pub(crate) const RIGHTS: [(Color, CastlingSide); 4] = [
    (Color::White, CastlingSide::KingSide),
    (Color::White, CastlingSide::QueenSide),
    (Color::Black, CastlingSide::KingSide),
    (Color::Black, CastlingSide::QueenSide),
];

/// The game state as the bits say it, before the board is known.
///
/// `Display` writes it as the last five fields of a FEN, with what only the board can tell left
/// symbolic: `b KQkq #1 12 1` means "the second en passant candidate" (see the [module
/// docs](self)). A field the encoding does not store is written with its FEN default (fullmove
/// number 1 for `state14`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct StateFields {
    /// The side to move.
    pub turn: Color,
    /// The castling rights.
    pub castling: CastlingField,
    /// The en passant field.
    pub en_passant: EnPassantField,
    /// The castling mode, if stored (`state-full`).
    pub castling_mode: Option<CastlingMode>,
    /// The halfmove clock.
    pub halfmoves: u32,
    /// The fullmove number, if stored (`state-full`).
    pub fullmoves: Option<u32>,
}

/// The castling rights as stored.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CastlingField {
    /// The four bits: each right held goes with the outermost rook on its side.
    Outermost(CastlingRights),
    /// The rook's file of each right held, in the order `K Q k q` (`state-full`'s escape block).
    Files([Option<File>; 4]),
}

/// The en passant field as stored.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EnPassantField {
    /// The 3-bit field: which candidate pawn made the double step, counting from the a-file
    /// from 0; 7, or a value not below the number of candidates, means none.
    Candidate(u8),
    /// The file of the en passant square, or none (`state-full`'s escape block).
    File(Option<File>),
}

impl StateFields {
    /// The setup these fields and `board` describe (not yet validated: see
    /// [`Position::from_setup`]). A field that is not stored takes its FEN default (fullmove 1,
    /// the castling mode the rights need).
    ///
    /// # Errors
    /// [`StateErrorKind::CastlingWithoutRook`] if a castling bit is set and `board` has no single
    /// king of that color on its back rank with a rook on that side of it.
    pub fn to_setup(&self, board: &Board) -> Result<Setup, StateErrorKind> {
        let mut setup = Setup::empty();
        setup.board = *board;
        setup.turn = self.turn;
        for (i, &(color, side)) in RIGHTS.iter().enumerate() {
            let back = Rank::First.relative_to(color);
            let rook = match self.castling {
                CastlingField::Outermost(rights)
                    if rights.contains(CastlingRights::of(color, side)) =>
                {
                    Some(
                        outermost_rook(board, color, side)
                            .ok_or(StateErrorKind::CastlingWithoutRook { color, side })?,
                    )
                }
                CastlingField::Outermost(_) => None,
                CastlingField::Files(files) => {
                    files.get(i).copied().flatten().map(|file| Square::from_coords(file, back))
                }
            };
            if let Some(rook) = rook {
                setup.castling_rooks.add(rook);
            }
        }
        setup.ep_square = match self.en_passant {
            EnPassantField::Candidate(v) => {
                let mut candidates = en_passant_candidates(board, self.turn);
                for _ in 0..v {
                    candidates.pop_first();
                }
                candidates.first().filter(|_| v < NO_EN_PASSANT).map(|pawn| behind(pawn, self.turn))
            }
            EnPassantField::File(file) => {
                file.map(|file| Square::from_coords(file, Rank::Sixth.relative_to(self.turn)))
            }
        };
        setup.halfmoves = self.halfmoves;
        setup.fullmoves = self.fullmoves.unwrap_or(1);
        setup.castling_mode = self.castling_mode.unwrap_or_default();
        Ok(setup)
    }
}

impl fmt::Display for StateFields {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ", self.turn.char())?;
        let mut written = false;
        for (i, &(color, side)) in RIGHTS.iter().enumerate() {
            let letter = match self.castling {
                CastlingField::Outermost(rights) => rights
                    .contains(CastlingRights::of(color, side))
                    .then_some(if side == CastlingSide::KingSide { 'k' } else { 'q' }),
                CastlingField::Files(files) => files.get(i).copied().flatten().map(File::char),
            };
            if let Some(letter) = letter {
                let letter = if color.is_white() { letter.to_ascii_uppercase() } else { letter };
                write!(f, "{letter}")?;
                written = true;
            }
        }
        if !written {
            f.write_str("-")?;
        }
        match self.en_passant {
            EnPassantField::Candidate(v) if v < NO_EN_PASSANT => write!(f, " #{v}")?,
            EnPassantField::File(Some(file)) => {
                write!(f, " {}", Square::from_coords(file, Rank::Sixth.relative_to(self.turn)))?
            }
            _ => f.write_str(" -")?,
        }
        write!(f, " {} {}", self.halfmoves, self.fullmoves.unwrap_or(1))
    }
}

/// The pawns that could have just made a double step, with the side `turn` to move: pawns of
/// the other side on their fourth rank with the two squares behind them empty.
pub fn en_passant_candidates(board: &Board, turn: Color) -> Bitboard {
    let mover = !turn;
    let fourth = Bitboard::from_rank(Rank::Fourth.relative_to(mover));
    let empty_behind =
        !board.occupied().forward(mover) & !board.occupied().forward(mover).forward(mover);
    board.by_piece(Role::Pawn.of(mover)) & fourth & empty_behind
}

/// The square a pawn on `pawn` skipped if it just double-stepped, with `turn` to move.
fn behind(pawn: Square, turn: Color) -> Square {
    Square::from_coords(pawn.file(), Rank::Sixth.relative_to(turn))
}

/// The outermost rook of `color` on `side` of its king on its back rank, if there is a single
/// king of that color on the back rank.
pub(crate) fn outermost_rook(board: &Board, color: Color, side: CastlingSide) -> Option<Square> {
    let back = Bitboard::backrank(color);
    let king = (board.by_piece(Role::King.of(color)) & back).single()?;
    let rooks = board.by_piece(Role::Rook.of(color)) & back;
    match side {
        CastlingSide::KingSide => rooks.into_iter().rfind(|sq| sq.file() > king.file()),
        CastlingSide::QueenSide => rooks.into_iter().find(|sq| sq.file() < king.file()),
    }
}

/// The four castling bits of `pos`, `K` first.
pub(crate) fn castling_bits(pos: &Position) -> u64 {
    RIGHTS
        .iter()
        .fold(0, |bits, &(color, side)| bits << 1 | u64::from(pos.castles().has(color, side)))
}

/// The first rook that holds a right without being the outermost on its side.
pub(crate) fn inner_castling_rook(pos: &Position) -> Option<Square> {
    RIGHTS.iter().find_map(|&(color, side)| {
        let rook = pos.castles().rook(color, side)?;
        (outermost_rook(pos.board(), color, side) != Some(rook)).then_some(rook)
    })
}

/// The 3-bit en passant field of `pos`, or the square if it cannot be named.
pub(crate) fn en_passant_bits(pos: &Position) -> Result<u64, Square> {
    let Some(ep) = pos.ep_square() else { return Ok(u64::from(NO_EN_PASSANT)) };
    let candidates = en_passant_candidates(pos.board(), pos.turn());
    let before = candidates.into_iter().take_while(|sq| sq.file() < ep.file()).count() as u64;
    let named = candidates.into_iter().any(|sq| sq.file() == ep.file());
    if named && before < u64::from(NO_EN_PASSANT) {
        Ok(before)
    } else {
        Err(ep)
    }
}

/// What is wrong with a game state read from a stream, once the board is known.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StateErrorKind {
    /// A castling bit is set, but there is no single king of `color` on its back rank with a
    /// rook on `side` of it.
    CastlingWithoutRook {
        /// The color of the right.
        color: Color,
        /// The side of the right.
        side: CastlingSide,
    },
}

impl fmt::Display for StateErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            StateErrorKind::CastlingWithoutRook { color, side } => {
                let side = match side {
                    CastlingSide::KingSide => "king",
                    CastlingSide::QueenSide => "queen",
                };
                write!(f, "castling right without a {color} king and a rook on its {side}'s side")
            }
        }
    }
}

impl std::error::Error for StateErrorKind {}

/// Why a game state cannot be read: the bit offset and a [`StateErrorKind`].
pub type StateError = Located<Bit, DecodeErrorKind<StateErrorKind>>;

/// A position whose game state `state14` cannot hold. It never truncates: it refuses.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StateEncodeError {
    /// The halfmove clock is above 63, the most 6 bits hold.
    HalfmovesTooLarge(u32),
    /// The castling right of the rook on this square is held by a rook that is not the
    /// outermost on its side of the king (Chess960), which 4 bits cannot say.
    CastlingRookNotOutermost(Square),
    /// The en passant square is behind the eighth of eight candidate pawns, which 3 bits cannot
    /// name.
    EnPassantNotNamed(Square),
}

impl fmt::Display for StateEncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            StateEncodeError::HalfmovesTooLarge(n) => {
                write!(f, "halfmove clock {n} does not fit in 6 bits (at most 63)")
            }
            StateEncodeError::CastlingRookNotOutermost(sq) => write!(
                f,
                "the castling rook on {sq} is not the outermost on its side, 4 bits cannot name it"
            ),
            StateEncodeError::EnPassantNotNamed(sq) => write!(
                f,
                "en passant square {sq} is behind the eighth of eight candidate pawns, 3 bits cannot name it"
            ),
        }
    }
}

impl std::error::Error for StateEncodeError {}

#[cfg(test)]
mod tests {
    use super::*;
    use chessbits_notation::fen::{parse_position, Fen};

    #[test]
    fn candidates_are_the_pawns_that_could_have_double_stepped() {
        let board = |fen: &str| fen.parse::<Fen>().unwrap().0.board;
        let squares =
            |bb: Bitboard| bb.into_iter().map(|sq| sq.to_string()).collect::<Vec<_>>().join(" ");
        // Black to move: white pawns on rank 4 with rank 3 and 2 empty behind them. The c4 pawn
        // has a knight behind it on c2, and the h4 pawn one on h3.
        let b = board("4k3/8/8/8/P1P1P2P/7N/2N5/4K3 b - - 0 1");
        assert_eq!(squares(en_passant_candidates(&b, Color::Black)), "a4 e4");
        // White to move: black pawns on rank 5.
        let b = board("4k3/3n4/8/pp1p4/8/8/8/4K3 w - - 0 1");
        assert_eq!(squares(en_passant_candidates(&b, Color::White)), "a5 b5");
    }

    #[test]
    fn en_passant_field_counts_candidates_from_the_a_file() {
        let field = |fen: &str| en_passant_bits(&parse_position(fen).unwrap());
        assert_eq!(field("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"), Ok(0));
        assert_eq!(field("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"), Ok(7));
        assert_eq!(field("4k3/8/8/8/P1P1P2P/8/8/4K3 b - h3 0 1"), Ok(3));
        // Eight candidates: the first seven are named, the eighth is not.
        assert_eq!(field("4k3/8/8/8/PPPPPPPP/8/8/4K3 b - g3 0 1"), Ok(6));
        assert_eq!(field("4k3/8/8/8/PPPPPPPP/8/8/4K3 b - h3 0 1"), Err(Square::H3));
        assert_eq!(field("4k3/8/8/8/PPPPPPPP/8/8/4K3 b - - 0 1"), Ok(7));
    }
}
