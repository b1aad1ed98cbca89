//! Attack sets computed on the fly, square by square.
//!
//! These are the reference definitions: simple, `const`, and slow for sliders (they walk the
//! rays). Move generation uses lookup tables built from them and checked against them.

use crate::{Bitboard, Color, Square};

const KNIGHT_DELTAS: [(i32, i32); 8] =
    [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
const KING_DELTAS: [(i32, i32); 8] =
    [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];
/// The four straight directions (file, rank steps).
pub const ROOK_DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
/// The four diagonal directions (file, rank steps).
pub const BISHOP_DIRECTIONS: [(i32, i32); 4] = [(1, 1), (-1, 1), (-1, -1), (1, -1)];

const fn leaper(sq: Square, deltas: &[(i32, i32); 8]) -> Bitboard {
    let mut bb = 0;
    let mut i = 0;
    while i < 8 {
        if let Some(to) = sq.offset(deltas[i].0, deltas[i].1) {
            bb |= 1 << to as u32;
        }
        i += 1;
    }
    Bitboard(bb)
}

/// The squares a knight on `sq` attacks.
pub const fn knight(sq: Square) -> Bitboard {
    leaper(sq, &KNIGHT_DELTAS)
}

/// The squares a king on `sq` attacks.
pub const fn king(sq: Square) -> Bitboard {
    leaper(sq, &KING_DELTAS)
}

/// The squares a pawn of `color` on `sq` attacks (diagonally forward).
pub const fn pawn(color: Color, sq: Square) -> Bitboard {
    pawns(color, Bitboard::from_square(sq))
}

/// The squares attacked by the pawns of `color` on the squares of `pawns`, all at once.
#[inline]
pub const fn pawns(color: Color, pawns: Bitboard) -> Bitboard {
    match color {
        Color::White => Bitboard(pawns.north_east().0 | pawns.north_west().0),
        Color::Black => Bitboard(pawns.south_east().0 | pawns.south_west().0),
    }
}

/// The squares a slider on `sq` moving along `directions` attacks, given the `occupied` squares:
/// each ray runs up to and including the first occupied square.
pub const fn sliding(sq: Square, occupied: Bitboard, directions: &[(i32, i32); 4]) -> Bitboard {
    let mut bb = 0;
    let mut d = 0;
    while d < 4 {
        let mut cur = sq;
        while let Some(next) = cur.offset(directions[d].0, directions[d].1) {
            bb |= 1 << next as u32;
            if occupied.contains(next) {
                break;
            }
            cur = next;
        }
        d += 1;
    }
    Bitboard(bb)
}

/// The squares whose occupancy can change the attacks of a slider on `sq` moving along
/// `directions`: its rays without the edge square each ends on (a piece there blocks nothing
/// further). These are the bits a magic or PEXT index is taken from.
pub const fn relevant_occupancy(sq: Square, directions: &[(i32, i32); 4]) -> Bitboard {
    let mut mask = 0;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = directions[d];
        let mut cur = sq;
        while let Some(next) = cur.offset(df, dr) {
            if next.offset(df, dr).is_none() {
                break;
            }
            mask |= 1 << next as u32;
            cur = next;
        }
        d += 1;
    }
    Bitboard(mask)
}

/// The squares a rook on `sq` attacks given the `occupied` squares (slow reference).
pub const fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
    sliding(sq, occupied, &ROOK_DIRECTIONS)
}

/// The squares a bishop on `sq` attacks given the `occupied` squares (slow reference).
pub const fn bishop(sq: Square, occupied: Bitboard) -> Bitboard {
    sliding(sq, occupied, &BISHOP_DIRECTIONS)
}

/// The squares a queen on `sq` attacks given the `occupied` squares (slow reference).
pub const fn queen(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(rook(sq, occupied).0 | bishop(sq, occupied).0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spot_checks() {
        assert_eq!(knight(Square::A1), Bitboard::from_square(Square::B3) | Square::C2);
        assert_eq!(king(Square::H8).count(), 3);
        assert_eq!(knight(Square::E4).count(), 8);
        assert_eq!(pawn(Color::White, Square::A2), Bitboard::from_square(Square::B3));
        assert_eq!(pawn(Color::Black, Square::E4), Bitboard::from_square(Square::D3) | Square::F3);
        assert_eq!(pawn(Color::White, Square::E8), Bitboard::EMPTY);
        assert_eq!(rook(Square::A1, Bitboard::EMPTY).count(), 14);
        assert_eq!(bishop(Square::D4, Bitboard::EMPTY).count(), 13);
        let blockers = Bitboard::from_square(Square::D6) | Square::F4;
        assert_eq!(rook(Square::D4, blockers).count(), 2 + 3 + 3 + 2);
        assert!(rook(Square::D4, blockers).contains(Square::D6));
        assert!(!rook(Square::D4, blockers).contains(Square::D7));
        assert_eq!(queen(Square::D4, Bitboard::EMPTY).count(), 27);
        assert_eq!(relevant_occupancy(Square::A1, &ROOK_DIRECTIONS).count(), 12);
        assert_eq!(relevant_occupancy(Square::D4, &BISHOP_DIRECTIONS).count(), 9);
        assert!(!relevant_occupancy(Square::A1, &ROOK_DIRECTIONS).contains(Square::H1));
    }
}
