//! The 960 start positions of Chess960, by Scharnagl's numbering (0..960; 518 is standard
//! chess's): [`Setup::chess960`] builds one, [`Board::chess960_number`] tells one.
//!
//! The back rank of number `n`, files a to h: the light-squared bishop on file
//! `2 (n % 4) + 1` (b, d, f or h), the dark-squared one on file `2 (n / 4 % 4)` (a, c, e or g),
//! the queen on the `(n / 16 % 6)`-th file still empty, the knights on the pair of the five
//! files left that `n / 96` names (in the order ab ac ad ae bc bd be cd ce de), and rook,
//! king, rook on the three files left. Black's pieces mirror white's.
//!
//! ```
//! use chessbits_state::{Board, Setup, CastlingMode};
//!
//! let standard = Setup::chess960(518).unwrap();
//! assert_eq!(standard.board, Board::new());
//! assert_eq!(standard.castling_mode, CastlingMode::Chess960);
//! assert_eq!(Setup::chess960(0).unwrap().board.board_fen().to_string(),
//!            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR");
//! assert_eq!(Board::new().chess960_number(), Some(518));
//! assert_eq!(Setup::chess960(960), None);
//! ```

use chessbits_bitboard::{Color, File, Rank, Role, Square};
use chessbits_move::CastlingMode;

use crate::{Board, Setup};

/// The number of Chess960 start positions.
pub const CHESS960_POSITIONS: u32 = 960;

/// The two knights' files among the five left, by `n / 96`.
const KNIGHTS: [(usize, usize); 10] =
    [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)];

/// The back rank of start position `n` (below 960), a to h.
fn back_rank(n: u32) -> [Role; 8] {
    let mut rank: [Option<Role>; 8] = [None; 8];
    rank[2 * (n % 4) as usize + 1] = Some(Role::Bishop);
    rank[2 * (n / 4 % 4) as usize] = Some(Role::Bishop);
    // The `i`-th file still empty.
    let empty = |rank: &[Option<Role>; 8], i: usize| {
        (0..8).filter(|&file| rank[file].is_none()).nth(i).unwrap_or(0)
    };
    let queen = empty(&rank, (n / 16 % 6) as usize);
    rank[queen] = Some(Role::Queen);
    let (first, second) = KNIGHTS[(n / 96 % 10) as usize];
    let (first, second) = (empty(&rank, first), empty(&rank, second));
    rank[first] = Some(Role::Knight);
    rank[second] = Some(Role::Knight);
    for role in [Role::Rook, Role::King, Role::Rook] {
        let file = empty(&rank, 0);
        rank[file] = Some(role);
    }
    rank.map(|role| role.unwrap_or(Role::Pawn))
}

impl Setup {
    /// Chess960 start position `n` (0..960, Scharnagl's numbering): its pieces, white to move,
    /// every rook with its castling right, no en passant square, the clocks at 0 and 1, in
    /// Chess960 castling mode. `None` for `n` of 960 or more.
    pub fn chess960(n: u32) -> Option<Setup> {
        if n >= CHESS960_POSITIONS {
            return None;
        }
        let mut setup = Setup::empty();
        for (file, role) in File::ALL.into_iter().zip(back_rank(n)) {
            for color in [Color::White, Color::Black] {
                let back = Square::from_coords(file, Rank::First.relative_to(color));
                let pawn = Square::from_coords(file, Rank::Second.relative_to(color));
                setup.board.set_piece_at(back, role.of(color));
                setup.board.set_piece_at(pawn, Role::Pawn.of(color));
            }
        }
        setup.castling_rooks = setup.board.by_role(Role::Rook);
        setup.castling_mode = CastlingMode::Chess960;
        Some(setup)
    }
}

impl Board {
    /// The Chess960 start position number (0..960) whose pieces these are, if any: the pawns
    /// on their second ranks and the back ranks as [`Setup::chess960`] places them.
    pub fn chess960_number(&self) -> Option<u32> {
        (0..CHESS960_POSITIONS).find(|&n| Setup::chess960(n).is_some_and(|s| s.board == *self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    #[test]
    fn every_number_gives_a_distinct_legal_start_that_numbers_back() {
        let mut seen = std::collections::HashSet::new();
        for n in 0..CHESS960_POSITIONS {
            let setup = Setup::chess960(n).expect("below 960");
            let pos = Position::from_setup(&setup).expect("a legal position");
            assert_eq!(pos.castles().rook_squares().count(), 4, "{n}");
            assert!(seen.insert(setup.board), "{n} repeats a position");
            assert_eq!(setup.board.chess960_number(), Some(n));
            // Bishops on opposite colors, the king between the rooks.
            let rank = back_rank(n);
            let files = |role: Role| (0..8).filter(move |&f| rank[f] == role);
            let bishops: Vec<usize> = files(Role::Bishop).collect();
            assert_eq!((bishops[0] + bishops[1]) % 2, 1, "{n}");
            let rooks: Vec<usize> = files(Role::Rook).collect();
            let king = files(Role::King).next().expect("a king");
            assert!(rooks[0] < king && king < rooks[1], "{n}");
        }
        assert_eq!(Board::empty().chess960_number(), None);
    }
}
