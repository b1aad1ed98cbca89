//! [`Setup`]: the fields of a position before validation, as a parser produces them.

use chessbits_bitboard::{Bitboard, ByColor, ByRole, Color, Role, Square};
use chessbits_move::CastlingMode;

use crate::Board;

/// A position as written down, not yet validated: any placement, the side to move, the rooks
/// that keep a castling right, an en passant square, and the two clocks.
///
/// Parsers (FEN, EPD) produce a `Setup` (its placement a [`Board`]), and
/// [`Position::from_setup`] checks it. The decoders of bit-level formats read the placement as
/// bitboards instead: a [`BitboardSetup`], the same fields around a [`BitboardPlacement`].
///
/// [`Position::from_setup`]: crate::Position::from_setup
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup<P = Board> {
    /// Where the pieces stand.
    pub board: P,
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

impl<P> Setup<P> {
    /// The same fields around another placement (a decoder's bitboards turned into a
    /// [`Board`], or the reverse).
    pub fn with_board<Q>(&self, board: Q) -> Setup<Q> {
        Setup {
            board,
            turn: self.turn,
            castling_rooks: self.castling_rooks,
            ep_square: self.ep_square,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
            castling_mode: self.castling_mode,
        }
    }
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

/// A [`Setup`] whose placement is one bitboard per role and the set of black pieces, as the
/// decoders of bit-level formats read it: [`Position::from_bitboard_setup`] builds the board,
/// its square-to-piece array and the Zobrist key in one pass and validates exactly as
/// [`Position::from_setup`] does [`BitboardSetup::to_setup`].
///
/// Overlapping bitboards are resolved, never trusted: a square in several role sets holds the
/// highest role (king first); a square is black when it is in `black`, white otherwise;
/// `black` squares in no role set are ignored.
///
/// ```
/// use chessbits_state::{Bitboard, BitboardPlacement, BitboardSetup, ByRole, Position, Role, Setup};
///
/// let start = Setup::default();
/// let board = BitboardPlacement {
///     by_role: ByRole(Role::ALL.map(|role| start.board.by_role(role))),
///     black: Bitboard(0xffff << 48),
/// };
/// let setup = BitboardSetup { board, ..BitboardSetup::from(Setup::empty()) };
/// assert_eq!(setup.to_setup().board, start.board);
/// let mut rights = setup;
/// rights.castling_rooks = Bitboard::CORNERS;
/// assert_eq!(Position::from_bitboard_setup(&rights)?, Position::new());
/// # Ok::<_, chessbits_state::PositionError>(())
/// ```
///
/// [`Position::from_bitboard_setup`]: crate::Position::from_bitboard_setup
/// [`Position::from_setup`]: crate::Position::from_setup
pub type BitboardSetup = Setup<BitboardPlacement>;

/// A placement as bitboards: one per role, both colors, and the set of black pieces (the
/// placement of a [`BitboardSetup`]; overlaps are resolved as its docs say).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct BitboardPlacement {
    /// The squares of each role's pieces, both colors.
    pub by_role: ByRole<Bitboard>,
    /// The squares of black's pieces.
    pub black: Bitboard,
}

impl BitboardSetup {
    /// The same setup with its placement as a [`Board`] (overlaps resolved as the
    /// [type docs](BitboardSetup) say).
    pub fn to_setup(&self) -> Setup {
        let mut board = Board::empty();
        board.fill_keyed(&self.board.by_role, self.board.black);
        self.with_board(board)
    }
}

impl From<Setup> for BitboardSetup {
    /// The placement of `setup` as bitboards, its other fields as they are.
    fn from(setup: Setup) -> BitboardSetup {
        let ByColor { black, .. } = setup.board.colors();
        let by_role = ByRole(Role::ALL.map(|role| setup.board.by_role(role)));
        setup.with_board(BitboardPlacement { by_role, black })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    /// `from_bitboard_setup` against `from_setup` of `to_setup`: the same position or the same
    /// error, and a board that agrees with the bitboards as resolved; `set_from_bitboard_setup`
    /// as promised.
    fn check(setup: &BitboardSetup) -> bool {
        let board_setup = setup.to_setup();
        assert!(board_setup.board.is_consistent());
        let fast = Position::from_bitboard_setup(setup);
        assert_eq!(fast, Position::from_setup(&board_setup), "{setup:?}");
        if let Ok(pos) = fast {
            assert_eq!(pos.key(), pos.compute_key());
        }
        // In place, over a position that is neither the start nor the answer: the same
        // position, or the same error with the start position left behind.
        let mut into = Position::new();
        let _ = into.play_null();
        let result = into.set_from_bitboard_setup(setup);
        match &fast {
            Ok(pos) => assert_eq!((result, &into), (Ok(()), pos), "{setup:?}"),
            Err(err) => assert_eq!((result, into), (Err(*err), Position::new()), "{setup:?}"),
        }
        fast.is_ok()
    }

    #[test]
    fn bitboard_setups_validate_as_setups() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let (mut legal, mut illegal) = (0, 0);
        for i in 0..20_000 {
            // Sparse random sets per role (overlapping now and then), pawns off the back
            // ranks and one king of each color most of the time, random rights and en passant
            // squares near where they can be.
            let mut sparse = || next() & next() & next() & next() & next();
            let mut by_role = ByRole(Role::ALL.map(|_| Bitboard(sparse())));
            let mut black = Bitboard(next());
            if i % 8 != 0 {
                by_role.0[Role::Pawn as usize] -= Bitboard::BACKRANKS;
                let (white_king, black_king) = (next() % 64, next() % 64);
                by_role.0[Role::King as usize] = Bitboard(1 << white_king | 1 << black_king);
                black.0 = black.0 & !(1 << white_king) | 1 << black_king;
            }
            let setup = BitboardSetup {
                board: BitboardPlacement { by_role, black },
                turn: Color::from_white(next() % 2 == 0),
                castling_rooks: match next() % 4 {
                    0 => Bitboard(next() & (0xff << 56 | 0xff)),
                    1 => Bitboard(next() & Bitboard::CORNERS.0),
                    _ => Bitboard::EMPTY,
                },
                ep_square: (next() % 16 == 0).then(|| Square::new(16 + (next() % 32) as u32)),
                halfmoves: (next() % 100) as u32,
                fullmoves: (next() % 100) as u32,
                castling_mode: if next() % 2 == 0 {
                    CastlingMode::Standard
                } else {
                    CastlingMode::Chess960
                },
            };
            if check(&setup) {
                legal += 1;
            } else {
                illegal += 1;
            }
            // The same placement as a board gives the same bitboards back.
            assert_eq!(BitboardSetup::from(setup.to_setup()).to_setup(), setup.to_setup());
        }
        assert!(legal > 2000 && illegal > 2000, "{legal} legal, {illegal} illegal");
    }

    #[test]
    fn start_position_from_bitboards() {
        let mut setup = BitboardSetup::from(Setup::default());
        assert_eq!(Position::from_bitboard_setup(&setup), Ok(Position::new()));
        // A queen added on the king's square loses to the king; a black square without a piece
        // is ignored.
        setup.board.by_role.0[Role::Queen as usize].add(Square::E1);
        setup.board.black.add(Square::E4);
        assert_eq!(setup.to_setup(), Setup::default());
        assert!(check(&setup));
    }
}
