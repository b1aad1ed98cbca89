//! The attack tables that need no magic: knight, king and pawn attacks, the rays of a rook and
//! of a bishop on an empty board, and the squares between or on the line through two aligned
//! squares. All are computed at compile time from the [`reference`](mod@crate::reference)
//! definitions (a test compares them square by square) and sit in read-only memory: no
//! allocation, no initialisation, nothing to check before a lookup.
//!
//! This is the one home of these tables. The state crate reads them to find the pieces that attack
//! a square (validation, the null-move test), and move generation reads them beside its own magic
//! tables for sliders, which are built lazily because they are large (about 841 KiB: 102,400 rook
//! and 5,248 bishop sets) and only move generation needs them.
//!
//! ```
//! use chessbits_bitboard::{tables, Bitboard, Color, File, Square};
//!
//! assert_eq!(tables::knight(Square::A1), Bitboard::from_square(Square::B3) | Square::C2);
//! let (d5, f5) = (Bitboard::from_square(Square::D5), Bitboard::from_square(Square::F5));
//! assert_eq!(tables::pawn(Color::White, Square::E4), d5 | f5);
//! let b2_c3 = Bitboard::from_square(Square::B2) | Square::C3;
//! assert_eq!(tables::between(Square::A1, Square::D4), b2_c3);
//! assert_eq!(tables::line(Square::E4, Square::E6), Bitboard::from_file(File::E));
//! assert!(tables::line(Square::A1, Square::B3).is_empty());
//! ```

use crate::{reference, Bitboard, Color, Square};

/// Knight attacks per square.
static KNIGHT: [Bitboard; 64] = per_square(0);
/// King attacks per square.
static KING: [Bitboard; 64] = per_square(1);
/// Pawn attacks per color and square.
static PAWN: [[Bitboard; 64]; 2] = [per_square(2), per_square(3)];
/// Rook attacks on an empty board per square.
static ROOK_RAYS: [Bitboard; 64] = per_square(4);
/// Bishop attacks on an empty board per square.
static BISHOP_RAYS: [Bitboard; 64] = per_square(5);
/// The squares strictly between two squares on one line; empty for squares not on one line.
static BETWEEN: [[Bitboard; 64]; 64] = per_pair(false);
/// The whole line, edge to edge, through two squares on one line; empty otherwise.
static LINE: [[Bitboard; 64]; 64] = per_pair(true);

/// One table per square: 0 knight, 1 king, 2 white pawn, 3 black pawn, 4 rook rays, 5 bishop
/// rays.
const fn per_square(kind: u8) -> [Bitboard; 64] {
    let mut table = [Bitboard::EMPTY; 64];
    let mut i = 0;
    while i < 64 {
        let sq = Square::new(i as u32);
        table[i] = match kind {
            0 => reference::knight(sq),
            1 => reference::king(sq),
            2 => reference::pawn(Color::White, sq),
            3 => reference::pawn(Color::Black, sq),
            4 => reference::rook(sq, Bitboard::EMPTY),
            _ => reference::bishop(sq, Bitboard::EMPTY),
        };
        i += 1;
    }
    table
}

/// The between table, or with `line` the line table.
const fn per_pair(line: bool) -> [[Bitboard; 64]; 64] {
    let mut table = [[Bitboard::EMPTY; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let (df, dr) = ((b % 8) as i32 - (a % 8) as i32, (b / 8) as i32 - (a / 8) as i32);
            // On one rank, file or diagonal: step from `a` toward `b` (and, for the line, on
            // past both ends to the edges).
            if a != b && (df == 0 || dr == 0 || df == dr || df == -dr) {
                let step = dr.signum() * 8 + df.signum();
                let (file_step, rank_step) = (df.signum(), dr.signum());
                let mut set = 0u64;
                if line {
                    // Back from `a` to the edge, then forward from `a` to the other edge.
                    let (mut f, mut r) = ((a % 8) as i32, (a / 8) as i32);
                    while f - file_step >= 0
                        && f - file_step < 8
                        && r - rank_step >= 0
                        && r - rank_step < 8
                    {
                        f -= file_step;
                        r -= rank_step;
                    }
                    while f >= 0 && f < 8 && r >= 0 && r < 8 {
                        set |= 1 << (r * 8 + f);
                        f += file_step;
                        r += rank_step;
                    }
                } else {
                    let mut sq = a as i32 + step;
                    while sq != b as i32 {
                        set |= 1 << sq;
                        sq += step;
                    }
                }
                table[a][b] = Bitboard(set);
            }
            b += 1;
        }
        a += 1;
    }
    table
}

/// Knight attacks from `sq`.
#[inline(always)]
pub fn knight(sq: Square) -> Bitboard {
    KNIGHT[sq as usize]
}

/// King attacks from `sq`.
#[inline(always)]
pub fn king(sq: Square) -> Bitboard {
    KING[sq as usize]
}

/// The squares a pawn of `color` on `sq` attacks.
#[inline(always)]
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    PAWN[color as usize][sq as usize]
}

/// Rook attacks from `sq` on an empty board: the squares of its rank and file.
#[inline(always)]
pub fn rook_rays(sq: Square) -> Bitboard {
    ROOK_RAYS[sq as usize]
}

/// Bishop attacks from `sq` on an empty board: the squares of its diagonals.
#[inline(always)]
pub fn bishop_rays(sq: Square) -> Bitboard {
    BISHOP_RAYS[sq as usize]
}

/// The squares strictly between `a` and `b` if they share a rank, file or diagonal, else empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    BETWEEN[a as usize][b as usize]
}

/// The whole line, edge to edge, through `a` and `b` if they share a rank, file or diagonal,
/// else empty (also for `a == b`).
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    LINE[a as usize][b as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_match_the_reference_square_by_square() {
        for sq in Square::ALL {
            assert_eq!(knight(sq), reference::knight(sq));
            assert_eq!(king(sq), reference::king(sq));
            for color in Color::ALL {
                assert_eq!(pawn(color, sq), reference::pawn(color, sq));
            }
            assert_eq!(rook_rays(sq), reference::rook(sq, Bitboard::EMPTY));
            assert_eq!(bishop_rays(sq), reference::bishop(sq, Bitboard::EMPTY));
        }
        for a in Square::ALL {
            for b in Square::ALL {
                let mut expected = (Bitboard::EMPTY, Bitboard::EMPTY);
                for ray in [reference::rook, reference::bishop] {
                    if ray(a, Bitboard::EMPTY).contains(b) {
                        // Between: attacked from both ends with the other end as a blocker.
                        expected.0 =
                            ray(a, Bitboard::from_square(b)) & ray(b, Bitboard::from_square(a));
                        expected.1 = (ray(a, Bitboard::EMPTY) & ray(b, Bitboard::EMPTY)) | a | b;
                    }
                }
                assert_eq!(between(a, b), expected.0, "between {a} {b}");
                assert_eq!(line(a, b), expected.1, "line {a} {b}");
            }
        }
    }
}
