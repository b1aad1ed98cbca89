//! Validation: what is wrong with a [`Setup`], every problem at once, as a [`Status`].
//!
//! [`Setup::status`] runs the whole catalogue and reports each problem it finds as one flag;
//! [`Position::from_setup`] refuses a setup with any flag it does not tolerate, and
//! [`Position::from_setup_with`] lets the caller tolerate some on purpose.
//!
//! The catalogue, with what a flag means:
//!
//! | flag | problem |
//! |---|---|
//! | `NO_WHITE_KING`, `NO_BLACK_KING` | the color has no king |
//! | `TOO_MANY_WHITE_KINGS`, `TOO_MANY_BLACK_KINGS` | the color has more than one king |
//! | `PAWN_ON_BACK_RANK` | a pawn stands on the first or eighth rank |
//! | `TOO_MANY_WHITE_PIECES`, `TOO_MANY_BLACK_PIECES` | more than 16 pieces or more than 8 pawns |
//! | `TOO_MUCH_WHITE_MATERIAL`, `TOO_MUCH_BLACK_MATERIAL` | pawns plus promoted pieces (queens beyond one; rooks, bishops, knights beyond two) exceed 8 |
//! | `BAD_CASTLING_RIGHTS` | a castling rook square without a rook of the back rank's color, its king not on that rank, or two rights on one side |
//! | `BAD_EN_PASSANT` | the en passant square is not on the sixth rank of the side to move, is occupied, its pawn is not on the square in front, or the pawn's start square is occupied |
//! | `OPPOSITE_CHECK` | the side not to move is in check |
//! | `TOO_MANY_CHECKERS` | the side to move is in check by more than two pieces |
//! | `IMPOSSIBLE_CHECK` | the check cannot come from one move: two checkers of which neither is a slider (knight or pawn pairs), two sliders on one line through the king, or, when an en passant square says a pawn just double pushed, a checker that is neither that pawn nor a slider it uncovered |
//!
//! Problems implied by others are not repeated: `TOO_MUCH_*_MATERIAL` is only reported when the
//! counts themselves are possible, and the check flags only when each side has exactly one king.
//! Which checks a single move can give is decided only as far as that is cheap; a position
//! without flags may still be unreachable from the start position.
//!
//! [`Position::from_setup`]: crate::Position::from_setup
//! [`Position::from_setup_with`]: crate::Position::from_setup_with
//!
//! ```
//! use chessbits_bitboard::Square;
//! use chessbits_state::{Setup, Status};
//!
//! let mut setup = Setup::default();
//! setup.board.remove_piece_at(Square::E8);
//! setup.ep_square = Some(Square::E6);
//! assert_eq!(
//!     setup.status(),
//!     Status::NO_BLACK_KING | Status::BAD_CASTLING_RIGHTS | Status::BAD_EN_PASSANT
//! );
//! assert_eq!(
//!     setup.status().to_string(),
//!     "black has no king, castling right without its king and rook in place, \
//!      bad en passant square"
//! );
//! ```

use core::fmt;

use bitflags::bitflags;
use chessbits_bitboard::{reference, Bitboard, Color, Rank, Role, Square};

use crate::{tables, Board, Castles, CastlingRights, CastlingSide, Setup};

bitflags! {
    /// Every problem found in a [`Setup`], one flag each (see the [module docs](self) for the
    /// catalogue). The empty status means a valid position.
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
    pub struct Status: u32 {
        /// White has no king.
        const NO_WHITE_KING = 1 << 0;
        /// Black has no king.
        const NO_BLACK_KING = 1 << 1;
        /// White has more than one king.
        const TOO_MANY_WHITE_KINGS = 1 << 2;
        /// Black has more than one king.
        const TOO_MANY_BLACK_KINGS = 1 << 3;
        /// A pawn stands on the first or eighth rank.
        const PAWN_ON_BACK_RANK = 1 << 4;
        /// White has more than 16 pieces or more than 8 pawns.
        const TOO_MANY_WHITE_PIECES = 1 << 5;
        /// Black has more than 16 pieces or more than 8 pawns.
        const TOO_MANY_BLACK_PIECES = 1 << 6;
        /// White has more promoted pieces than missing pawns.
        const TOO_MUCH_WHITE_MATERIAL = 1 << 7;
        /// Black has more promoted pieces than missing pawns.
        const TOO_MUCH_BLACK_MATERIAL = 1 << 8;
        /// A castling right has no king and rook in place.
        const BAD_CASTLING_RIGHTS = 1 << 9;
        /// The en passant square cannot follow a double push.
        const BAD_EN_PASSANT = 1 << 10;
        /// The side not to move is in check.
        const OPPOSITE_CHECK = 1 << 11;
        /// The side to move is in check by more than two pieces.
        const TOO_MANY_CHECKERS = 1 << 12;
        /// The side to move is in a check no single move can give.
        const IMPOSSIBLE_CHECK = 1 << 13;
    }
}

impl Status {
    /// The problems [`Position::from_setup_with`] refuses whatever it is asked to tolerate:
    /// the position would not be one movegen can be trusted with.
    ///
    /// - No king or two kings: check, pins and legality are defined by the one king of each
    ///   side; without it `Position::our_king` has nothing to name.
    /// - Too many pieces or too much material: the limit of 218 legal moves, which keeps every
    ///   move list within its fixed capacity of 256, is proved only for material promotions
    ///   can explain.
    /// - The side not to move in check: its king could be captured, leaving a position with no
    ///   king.
    ///
    /// [`Position::from_setup_with`]: crate::Position::from_setup_with
    pub const ALWAYS_REJECTED: Status = Status::NO_WHITE_KING
        .union(Status::NO_BLACK_KING)
        .union(Status::TOO_MANY_WHITE_KINGS)
        .union(Status::TOO_MANY_BLACK_KINGS)
        .union(Status::TOO_MANY_WHITE_PIECES)
        .union(Status::TOO_MANY_BLACK_PIECES)
        .union(Status::TOO_MUCH_WHITE_MATERIAL)
        .union(Status::TOO_MUCH_BLACK_MATERIAL)
        .union(Status::OPPOSITE_CHECK);

    /// What [`Position::from_setup`] tolerates: [`Status::IMPOSSIBLE_CHECK`], because
    /// published perft suites hold such positions (two sliders checking along one line) and
    /// move generation handles any pair of checkers.
    ///
    /// [`Position::from_setup`]: crate::Position::from_setup
    pub const TOLERATED_BY_DEFAULT: Status = Status::IMPOSSIBLE_CHECK;

    const fn of_color(white: Status, black: Status, color: Color) -> Status {
        match color {
            Color::White => white,
            Color::Black => black,
        }
    }

    fn message(self) -> &'static str {
        const MESSAGES: [(Status, &str); 14] = [
            (Status::NO_WHITE_KING, "white has no king"),
            (Status::NO_BLACK_KING, "black has no king"),
            (Status::TOO_MANY_WHITE_KINGS, "white has more than one king"),
            (Status::TOO_MANY_BLACK_KINGS, "black has more than one king"),
            (Status::PAWN_ON_BACK_RANK, "pawn on a back rank"),
            (Status::TOO_MANY_WHITE_PIECES, "white has more than 16 pieces or more than 8 pawns"),
            (Status::TOO_MANY_BLACK_PIECES, "black has more than 16 pieces or more than 8 pawns"),
            (Status::TOO_MUCH_WHITE_MATERIAL, "white has more promoted pieces than missing pawns"),
            (Status::TOO_MUCH_BLACK_MATERIAL, "black has more promoted pieces than missing pawns"),
            (Status::BAD_CASTLING_RIGHTS, "castling right without its king and rook in place"),
            (Status::BAD_EN_PASSANT, "bad en passant square"),
            (Status::OPPOSITE_CHECK, "the side not to move is in check"),
            (Status::TOO_MANY_CHECKERS, "the side to move is in check by more than two pieces"),
            (Status::IMPOSSIBLE_CHECK, "the side to move is in a check no move can give"),
        ];
        MESSAGES.iter().find(|(flag, _)| *flag == self).map_or("unknown problem", |&(_, m)| m)
    }
}

impl fmt::Display for Status {
    /// The problems, comma separated, in flag order; `valid` for none.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("valid");
        }
        for (i, flag) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(flag.message())?;
        }
        Ok(())
    }
}

/// The checked parts of a setup: its status, and the castling rights and en passant square
/// that survived (the bad ones are dropped, so a tolerated flag leaves a sound position).
pub(crate) struct Checked {
    pub(crate) status: Status,
    pub(crate) castles: Castles,
    /// `castles.is_chess960(kings)`, known without asking when the rights are standard.
    pub(crate) chess960: bool,
    pub(crate) ep_square: Option<Square>,
}

impl Setup {
    /// Every problem of this setup (see [`Status`]); empty for a valid position.
    pub fn status(&self) -> Status {
        check(self).status
    }
}

/// Runs the whole catalogue over `setup`.
pub(crate) fn check(setup: &Setup) -> Checked {
    check_parts(&setup.board, setup.turn, setup.castling_rooks, setup.ep_square)
}

/// Runs the whole catalogue over a setup given by its fields (the clocks and the castling
/// mode are never wrong).
#[inline(always)]
pub(crate) fn check_parts(
    board: &Board,
    turn: Color,
    castling_rooks: Bitboard,
    setup_ep: Option<Square>,
) -> Checked {
    let mut status = Status::empty();
    let mut kings = [None; 2];
    for color in Color::ALL {
        let ours = board.by_color(color);
        let k = board.kings() & ours;
        if k.is_empty() {
            status |= Status::of_color(Status::NO_WHITE_KING, Status::NO_BLACK_KING, color);
        } else if k.more_than_one() {
            status |=
                Status::of_color(Status::TOO_MANY_WHITE_KINGS, Status::TOO_MANY_BLACK_KINGS, color);
        } else {
            kings[color as usize] = k.first();
        }
        if material_is_plain(board, ours) {
            // The common case, without counting every role: no promoted piece, so neither
            // flag below can be set.
            continue;
        }
        let count = |role: Role| (board.by_role(role) & ours).count();
        if ours.count() > 16 || count(Role::Pawn) > 8 {
            status |= Status::of_color(
                Status::TOO_MANY_WHITE_PIECES,
                Status::TOO_MANY_BLACK_PIECES,
                color,
            );
        } else {
            let promoted = count(Role::Queen).saturating_sub(1)
                + count(Role::Rook).saturating_sub(2)
                + count(Role::Bishop).saturating_sub(2)
                + count(Role::Knight).saturating_sub(2);
            if count(Role::Pawn) + promoted > 8 {
                status |= Status::of_color(
                    Status::TOO_MUCH_WHITE_MATERIAL,
                    Status::TOO_MUCH_BLACK_MATERIAL,
                    color,
                );
            }
        }
    }
    if (board.pawns() & Bitboard::BACKRANKS).any() {
        status |= Status::PAWN_ON_BACK_RANK;
    }

    let (castles, chess960) = match standard_rights(board, kings, castling_rooks) {
        Some(rights) => (Castles::standard_subset(rights), false),
        None => {
            let castles = castles_one_by_one(board, kings, castling_rooks, &mut status);
            (castles, castles.is_chess960(kings))
        }
    };

    let ep_square = match setup_ep {
        Some(ep) if !en_passant_is_possible(board, turn, ep) => {
            status |= Status::BAD_EN_PASSANT;
            None
        }
        ep => ep,
    };

    if let [Some(white), Some(black)] = kings {
        let (ours, theirs) = match turn {
            Color::White => (white, black),
            Color::Black => (black, white),
        };
        if tables::attackers(board, theirs, turn).any() {
            status |= Status::OPPOSITE_CHECK;
        }
        let checkers = tables::attackers(board, ours, !turn);
        if checkers.any() {
            status |= check_status(board, turn, ours, checkers, ep_square);
        }
    }
    Checked { status, castles, chess960, ep_square }
}

/// `true` if the pieces `ours` hold at most 8 pawns, one king, one queen and two rooks,
/// bishops and knights: then there are at most 16 and no promoted piece, and neither the
/// piece-count nor the material flag applies. Cheaper than counting each role (the default
/// x86-64 target has no `popcnt`): one count and a few "at most one or two" tests.
#[inline]
fn material_is_plain(board: &Board, ours: Bitboard) -> bool {
    let of = |role: Role| (board.by_role(role) & ours).0;
    let without_lowest = |bb: u64| bb & bb.wrapping_sub(1);
    let at_most_two = |bb: u64| without_lowest(without_lowest(bb)) == 0;
    without_lowest(of(Role::King)) == 0
        && without_lowest(of(Role::Queen)) == 0
        && at_most_two(of(Role::Rook))
        && at_most_two(of(Role::Bishop))
        && at_most_two(of(Role::Knight))
        && of(Role::Pawn).count_ones() <= 8
}

/// The rights of `castling_rooks` if they are all standard and real: each in a corner, on a
/// rook of its back rank's color, with that color's king on e1 or e8. `None` sends the rooks through
/// [`castling_right`] one by one (Chess960 rights, and every error), which gives the same
/// `Castles` for these (a test compares them over every subset of corners).
#[inline(always)]
fn standard_rights(
    board: &Board,
    kings: [Option<Square>; 2],
    castling_rooks: Bitboard,
) -> Option<CastlingRights> {
    if (castling_rooks - Bitboard::CORNERS).any() {
        return None;
    }
    let mut rights = 0;
    for (color, home) in [(Color::White, Square::E1), (Color::Black, Square::E8)] {
        let rooks = castling_rooks & Bitboard::backrank(color);
        if rooks.is_empty() {
            continue;
        }
        if kings[color as usize] != Some(home)
            || !(rooks - board.by_piece(Role::Rook.of(color))).is_empty()
        {
            return None;
        }
        // The h-file corner is the king's side, the a-file the queen's.
        let right = |file: Bitboard, side: CastlingSide| {
            u8::from(rooks.intersects(file)) * CastlingRights::of(color, side).bits()
        };
        rights |= right(Bitboard::FILE_H, CastlingSide::KingSide)
            | right(Bitboard::FILE_A, CastlingSide::QueenSide);
    }
    Some(CastlingRights::from_bits_retain(rights))
}

/// The rights of `castling_rooks`, each checked by [`castling_right`]; a rook that holds none
/// sets [`Status::BAD_CASTLING_RIGHTS`].
fn castles_one_by_one(
    board: &Board,
    kings: [Option<Square>; 2],
    castling_rooks: Bitboard,
    status: &mut Status,
) -> Castles {
    let mut castles = Castles::none();
    for rook in castling_rooks {
        match castling_right(board, kings, &castles, rook) {
            Some((color, side, king)) => castles.add(color, side, king, rook),
            None => *status |= Status::BAD_CASTLING_RIGHTS,
        }
    }
    castles
}

/// The color, side and king of the castling right with its rook on `rook`, if it can be real.
fn castling_right(
    board: &Board,
    kings: [Option<Square>; 2],
    castles: &Castles,
    rook: Square,
) -> Option<(Color, CastlingSide, Square)> {
    let color = match rook.rank() {
        Rank::First => Color::White,
        Rank::Eighth => Color::Black,
        _ => return None,
    };
    let king = kings[color as usize].filter(|k| k.rank() == rook.rank())?;
    if !board.by_piece(Role::Rook.of(color)).contains(rook) {
        return None;
    }
    let side = CastlingSide::from_king_rook(king, rook);
    (!castles.has(color, side)).then_some((color, side, king))
}

/// `true` if a pawn of the side not to move can just have double pushed past `ep`: `ep` on the
/// sixth rank of `turn` and empty, the pawn in front of it, its start square behind it empty.
fn en_passant_is_possible(board: &Board, turn: Color, ep: Square) -> bool {
    let (pushed, start) = double_push(ep, turn);
    ep.rank() == Rank::Sixth.relative_to(turn)
        && !board.occupied().contains(ep)
        && !board.occupied().contains(start)
        && board.piece_at(pushed) == Some(Role::Pawn.of(!turn))
}

/// Where the pawn that double pushed past `ep` landed and where it started.
fn double_push(ep: Square, turn: Color) -> (Square, Square) {
    (
        Square::from_coords(ep.file(), Rank::Fourth.relative_to(!turn)),
        Square::from_coords(ep.file(), Rank::Second.relative_to(!turn)),
    )
}

/// The check flags for the side to move, its king on `king` attacked by `checkers` (not
/// empty).
#[inline(never)]
fn check_status(
    board: &Board,
    turn: Color,
    king: Square,
    checkers: Bitboard,
    ep_square: Option<Square>,
) -> Status {
    if checkers.count() > 2 {
        return Status::TOO_MANY_CHECKERS;
    }
    let sliders = checkers & (board.straight_sliders() | board.diagonal_sliders());
    let impossible = if let Some(ep) = ep_square {
        // The last move was the double push past `ep`: every checker is that pawn, or a slider
        // whose line to the king ran through the pawn's start square.
        let (pushed, start) = double_push(ep, turn);
        let blocked = board.occupied().with(start);
        let through_start = sliders
            - (reference::rook(king, blocked) & board.straight_sliders())
            - (reference::bishop(king, blocked) & board.diagonal_sliders());
        (checkers - Bitboard::from_square(pushed) - through_start).any()
    } else if checkers.more_than_one() {
        match (sliders.first(), sliders.last()) {
            // Two sliders: the moved one cannot stand on the line it uncovered.
            (Some(a), Some(b)) if a != b => collinear(king, a, b),
            // One slider (uncovered) and any piece: possible.
            (Some(_), Some(_)) => false,
            // Knight and pawn pairs: neither can have been uncovered.
            _ => true,
        }
    } else {
        false
    };
    if impossible {
        Status::IMPOSSIBLE_CHECK
    } else {
        Status::empty()
    }
}

/// `true` if the three squares lie on one line.
fn collinear(a: Square, b: Square, c: Square) -> bool {
    let (af, ar) = (a.file() as i32, a.rank() as i32);
    let (bf, br) = (b.file() as i32, b.rank() as i32);
    let (cf, cr) = (c.file() as i32, c.rank() as i32);
    (bf - af) * (cr - ar) == (cf - af) * (br - ar)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The board of a FEN placement (ranks 8 to 1, digits for empty squares).
    fn placement(fen: &str) -> Board {
        let mut board = Board::empty();
        for (i, rank) in fen.split(' ').next().unwrap_or("").split('/').enumerate() {
            let mut file = 0;
            for c in rank.chars() {
                match (c.to_digit(10), chessbits_bitboard::Piece::from_char(c)) {
                    (Some(n), _) => file += n,
                    (None, Some(piece)) => {
                        board.set_piece_at(Square::new(file + 8 * (7 - i as u32)), piece);
                        file += 1;
                    }
                    (None, None) => panic!("bad placement {fen}"),
                }
            }
        }
        board
    }

    /// The table of standard rights gives what checking the rooks one by one gives, and
    /// declines exactly where that finds a bad or non-standard right: every subset of the
    /// four corners, on boards with kings and rooks at home, moved or missing.
    #[test]
    fn standard_rights_match_one_by_one() {
        let boards = [
            "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1",
            "r3k2r/8/8/8/8/8/8/R4K1R w - - 0 1",
            "r3k3/8/8/8/8/8/8/R3K2R w - - 0 1",
            "4k2r/8/8/8/8/8/8/1R2K2R w - - 0 1",
            "r3k2r/8/8/8/8/8/8/r3K2R w - - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w - - 0 1",
        ];
        let corners: Vec<Square> = Bitboard::CORNERS.into_iter().collect();
        let mut used = [0; 2];
        for fen in boards {
            let board = placement(fen);
            let kings = [board.king_of(Color::White), board.king_of(Color::Black)];
            for set in 0..16u32 {
                let rooks: Bitboard = corners
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| set & 1 << i != 0)
                    .fold(Bitboard::EMPTY, |bb, (_, &sq)| bb | Bitboard::from_square(sq));
                let mut status = Status::empty();
                let slow = castles_one_by_one(&board, kings, rooks, &mut status);
                match standard_rights(&board, kings, rooks) {
                    Some(rights) => {
                        used[0] += 1;
                        assert!(status.is_empty(), "{fen} {rooks:?}: {status:?}");
                        assert_eq!(Castles::standard_subset(rights), slow, "{fen} {rooks:?}");
                        assert!(!slow.is_chess960(kings), "{fen} {rooks:?}");
                    }
                    None => {
                        used[1] += 1;
                        assert!(
                            !status.is_empty() || slow.is_chess960(kings),
                            "{fen} {rooks:?}: declined a standard right"
                        );
                    }
                }
            }
        }
        assert!(used[0] > 20 && used[1] > 20, "both paths taken: {used:?}");
    }

    #[test]
    fn collinear_squares() {
        assert!(collinear(Square::A1, Square::D4, Square::H8));
        assert!(collinear(Square::E1, Square::E5, Square::E8));
        assert!(!collinear(Square::E1, Square::E5, Square::H4));
    }

    /// The piece-count and material flags by counting every role, as the catalogue defines them.
    fn material_by_counting(board: &Board) -> Status {
        let mut status = Status::empty();
        for color in Color::ALL {
            let ours = board.by_color(color);
            let count = |role: Role| (board.by_role(role) & ours).count();
            let flag = if ours.count() > 16 || count(Role::Pawn) > 8 {
                Status::of_color(
                    Status::TOO_MANY_WHITE_PIECES,
                    Status::TOO_MANY_BLACK_PIECES,
                    color,
                )
            } else if count(Role::Pawn)
                + count(Role::Queen).saturating_sub(1)
                + count(Role::Rook).saturating_sub(2)
                + count(Role::Bishop).saturating_sub(2)
                + count(Role::Knight).saturating_sub(2)
                > 8
            {
                Status::of_color(
                    Status::TOO_MUCH_WHITE_MATERIAL,
                    Status::TOO_MUCH_BLACK_MATERIAL,
                    color,
                )
            } else {
                Status::empty()
            };
            status |= flag;
        }
        status
    }

    #[test]
    fn material_flags_match_counting() {
        let material = Status::TOO_MANY_WHITE_PIECES
            | Status::TOO_MANY_BLACK_PIECES
            | Status::TOO_MUCH_WHITE_MATERIAL
            | Status::TOO_MUCH_BLACK_MATERIAL;
        let mut seed = 0x0123_4567_89ab_cdef_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut flagged = 0;
        for _ in 0..20_000 {
            // 8 to 40 pieces, roles skewed so that each role is now and then over its count.
            let mut setup = Setup::empty();
            for _ in 0..8 + next() % 33 {
                let r = next();
                let role = Role::ALL[(r % 6) as usize];
                let piece = role.of(Color::from_white(r >> 8 & 1 == 0));
                setup.board.set_piece_at(Square::new((r >> 16) as u32 % 64), piece);
            }
            let expected = material_by_counting(&setup.board);
            assert_eq!(setup.status() & material, expected, "{:?}", setup.board);
            flagged += !expected.is_empty() as u32;
        }
        assert!(flagged > 1000, "{flagged}");
    }

    #[test]
    fn every_flag_has_a_message() {
        for flag in Status::all().iter() {
            assert_ne!(flag.message(), "unknown problem", "{flag:?}");
        }
        assert_eq!(Status::empty().to_string(), "valid");
    }
}
