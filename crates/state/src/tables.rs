//! Lookup tables for building a [`Position`](crate::Position) quickly: leaper attacks, slider
//! rays on an empty board and the squares between two aligned squares, all computed at compile
//! time from the slow reference definitions in `chessbits_bitboard::reference` (a test checks them
//! square by square).
//!
//! The state crate sits below movegen and has no magic tables; these are enough to find the
//! pieces attacking one square (the king tests of validation) in a few table reads, without
//! walking rays.

use chessbits_bitboard::{reference, Bitboard, Color, Square};

use crate::Board;

/// Knight attacks per square.
static KNIGHT: [u64; 64] = leaper_table(false);
/// King attacks per square.
static KING: [u64; 64] = leaper_table(true);
/// Rook attacks on an empty board per square.
static ROOK_RAYS: [u64; 64] = ray_table(false);
/// Bishop attacks on an empty board per square.
static BISHOP_RAYS: [u64; 64] = ray_table(true);
/// The squares strictly between two squares on one line, empty for squares not on one line.
static BETWEEN: [[u64; 64]; 64] = between_table();

const fn leaper_table(king: bool) -> [u64; 64] {
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let s = Square::new(sq as u32);
        table[sq] = if king { reference::king(s).0 } else { reference::knight(s).0 };
        sq += 1;
    }
    table
}

const fn ray_table(diagonal: bool) -> [u64; 64] {
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let s = Square::new(sq as u32);
        table[sq] = if diagonal {
            reference::bishop(s, Bitboard::EMPTY).0
        } else {
            reference::rook(s, Bitboard::EMPTY).0
        };
        sq += 1;
    }
    table
}

const fn between_table() -> [[u64; 64]; 64] {
    let mut table = [[0; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let (df, dr) = ((b % 8) as i32 - (a % 8) as i32, (b / 8) as i32 - (a / 8) as i32);
            // On one rank, file or diagonal: step from `a` toward `b`.
            if a != b && (df == 0 || dr == 0 || df == dr || df == -dr) {
                let step = dr.signum() * 8 + df.signum();
                let mut sq = a as i32 + step;
                while sq != b as i32 {
                    table[a][b] |= 1 << sq;
                    sq += step;
                }
            }
            b += 1;
        }
        a += 1;
    }
    table
}

/// The pieces of `color` on `board` that attack `sq`: the same set as the slow reference
/// attacks give, found with table reads (sliders on an empty-board ray to `sq` are kept when
/// nothing stands between).
#[inline]
pub(crate) fn attackers(board: &Board, sq: Square, color: Color) -> Bitboard {
    let i = sq as usize;
    let them = board.by_color(color);
    let occupied = board.occupied().0;
    let leapers = KNIGHT[i] & board.knights().0
        | KING[i] & board.kings().0
        | reference::pawn(!color, sq).0 & board.pawns().0;
    let mut attackers = leapers;
    let sliders = (ROOK_RAYS[i] & board.straight_sliders().0
        | BISHOP_RAYS[i] & board.diagonal_sliders().0)
        & them.0;
    for slider in Bitboard(sliders) {
        if BETWEEN[i][slider as usize] & occupied == 0 {
            attackers |= 1 << slider as u32;
        }
    }
    Bitboard(attackers) & them
}

#[cfg(test)]
mod tests {
    use super::*;
    use chessbits_bitboard::{Piece, Role};

    #[test]
    fn tables_match_the_reference_attacks() {
        for sq in Square::ALL {
            let i = sq as usize;
            assert_eq!(Bitboard(KNIGHT[i]), reference::knight(sq));
            assert_eq!(Bitboard(KING[i]), reference::king(sq));
            assert_eq!(Bitboard(ROOK_RAYS[i]), reference::rook(sq, Bitboard::EMPTY));
            assert_eq!(Bitboard(BISHOP_RAYS[i]), reference::bishop(sq, Bitboard::EMPTY));
            for other in Square::ALL {
                assert_eq!(Bitboard(BETWEEN[i][other as usize]), walk_between(sq, other));
            }
        }
    }

    /// The squares from `a` toward `b`, one step at a time, when they share a rank, file or
    /// diagonal.
    fn walk_between(a: Square, b: Square) -> Bitboard {
        let df = b.file() as i32 - a.file() as i32;
        let dr = b.rank() as i32 - a.rank() as i32;
        if a == b || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
            return Bitboard::EMPTY;
        }
        let mut squares = Bitboard::EMPTY;
        let mut cur = a;
        while let Some(next) = cur.offset(df.signum(), dr.signum()) {
            if next == b {
                break;
            }
            squares.add(next);
            cur = next;
        }
        squares
    }

    /// The reference: every piece's attacks computed by walking rays.
    fn attackers_slow(board: &Board, sq: Square, color: Color) -> Bitboard {
        let occ = board.occupied();
        (reference::knight(sq) & board.knights()
            | reference::king(sq) & board.kings()
            | reference::pawn(!color, sq) & board.pawns()
            | reference::rook(sq, occ) & board.straight_sliders()
            | reference::bishop(sq, occ) & board.diagonal_sliders())
            & board.by_color(color)
    }

    #[test]
    fn attackers_match_the_reference_on_pseudo_random_boards() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..2000 {
            let mut board = Board::empty();
            let density = next() % 40;
            for sq in Square::ALL {
                let r = next();
                if r % 64 < density {
                    let role = Role::ALL[(r >> 8) as usize % 6];
                    board.set_piece_at(sq, Piece::new(Color::from_white(r >> 16 & 1 == 0), role));
                }
            }
            for sq in Square::ALL {
                for color in Color::ALL {
                    assert_eq!(
                        attackers(&board, sq, color),
                        attackers_slow(&board, sq, color),
                        "{sq} {color}\n{board}"
                    );
                }
            }
        }
    }
}
