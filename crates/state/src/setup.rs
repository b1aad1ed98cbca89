//! [`Setup`]: the fields of a position before validation, as a parser produces them.

use chessbits_bitboard::{Bitboard, Color, Square};
use chessbits_move::CastlingMode;

use crate::Board;

/// A position as written down, not yet validated: any placement, the side to move, the rooks
/// that keep a castling right, an en passant square, and the two clocks.
///
/// Parsers (FEN, EPD, binary decoders) produce a `Setup`; [`Position::from_setup`] checks it.
///
/// [`Position::from_setup`]: crate::Position::from_setup
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Where the pieces stand.
    pub board: Board,
    /// The side to move.
    pub turn: Color,
    /// The squares of the rooks that keep a castling right (X-FEN/Shredder-FEN style: a rook on
    /// any file of its back rank, on the king's side or the queen's side of its king).
    pub castling_rooks: Bitboard,
    /// The square a pawn just skipped with a double push, as written (may or may not allow a
    /// capture).
    pub ep_square: Option<Square>,
    /// Halfmoves since the last capture or pawn move.
    pub halfmoves: u32,
    /// The move number, starting at 1 and incremented after black's move.
    pub fullmoves: u32,
    /// How the game writes castling in UCI: `Standard` (`e1g1`) or `Chess960` (king takes rook,
    /// `e1h1`). Parsers set it from what they read (Shredder-FEN letters, a `Variant` tag);
    /// rights that standard chess cannot express make the position Chess960 whatever this says.
    pub castling_mode: CastlingMode,
}

impl Default for Setup {
    /// The standard starting position.
    fn default() -> Setup {
        Setup {
            board: Board::new(),
            turn: Color::White,
            castling_rooks: Bitboard::CORNERS,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
            castling_mode: CastlingMode::Standard,
        }
    }
}

impl Setup {
    /// A setup with an empty board, white to move, no rights, clocks at 0 and 1.
    pub const fn empty() -> Setup {
        Setup {
            board: Board::empty(),
            turn: Color::White,
            castling_rooks: Bitboard::EMPTY,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
            castling_mode: CastlingMode::Standard,
        }
    }
}
