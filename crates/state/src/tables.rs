//! The pieces attacking a square, from the bitboard crate's compile-time tables
//! ([`chessbits_bitboard::tables`]: leaper attacks, empty-board rays, the squares between two
//! squares), without walking rays.
//!
//! The state crate sits below movegen and has no magic tables; these are enough to find the
//! pieces attacking one square (the king tests of validation, the null-move test) in a few
//! table reads.

use chessbits_bitboard::{tables, Bitboard, Color, Square};

use crate::Board;

/// The pieces of `color` on `board` that attack `sq`: the same set as the slow reference
/// attacks give, found with table reads (sliders on an empty-board ray to `sq` are kept when
/// nothing stands between).
#[inline]
pub(crate) fn attackers(board: &Board, sq: Square, color: Color) -> Bitboard {
    let them = board.by_color(color);
    let occupied = board.occupied();
    let mut attackers = tables::knight(sq) & board.knights()
        | tables::king(sq) & board.kings()
        | tables::pawn(!color, sq) & board.pawns();
    let sliders = (tables::rook_rays(sq) & board.straight_sliders()
        | tables::bishop_rays(sq) & board.diagonal_sliders())
        & them;
    for slider in sliders {
        if (tables::between(sq, slider) & occupied).is_empty() {
            attackers |= slider;
        }
    }
    attackers & them
}

#[cfg(test)]
mod tests {
    use super::*;
    use chessbits_bitboard::{reference, Piece, Role};
    use chessbits_testkit::Rng;

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
        let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
        let mut next = move || rng.next();
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
