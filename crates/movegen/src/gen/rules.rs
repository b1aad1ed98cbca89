//! The legality rules every generator follows: king moves off attacked squares, the check
//! mask, pins, castling's path and safety, en passant's own test, and the attack maps they read.

use chessbits_bitboard::{Bitboard, Color, Square};
use chessbits_state::{CastlingRights, CastlingSide, Position};

use super::{Gen, Source};
use crate::tables::Tables;
use crate::wide::{Width, FEW_PIECES};

/// Up to this many candidate king squares are tested one by one; beyond it one attack map of
/// the enemy pieces is cheaper (measured on the standard positions).
pub(crate) const KING_TESTS_BEFORE_MAP: u32 = 2;

impl<'a, P: Source> Gen<'a, P> {
    /// The squares of `to_mask` our king may step to: not ours, not attacked once the king has
    /// left its square. Few candidates are tested one by one; many against one attack map.
    #[inline(always)]
    pub(crate) fn king_targets(&self, to_mask: Bitboard) -> Bitboard {
        let king = self.king;
        let candidates = self.t.king(king) & (to_mask - self.ours);
        if candidates.count() > KING_TESTS_BEFORE_MAP {
            return candidates - self.danger();
        }
        let without_king = self.occupied - king;
        let mut to = Bitboard::EMPTY;
        for sq in candidates {
            if !self.attacked(sq, without_king) {
                to.add(sq);
            }
        }
        to
    }

    /// Where a piece other than the king may move within `to_mask`: not onto our own pieces
    /// and, in check, onto the check mask (block or capture the checker). `None` in double
    /// check, when only the king may move.
    #[inline(always)]
    pub(crate) fn check_target(&self, to_mask: Bitboard) -> Option<Bitboard> {
        let target = to_mask - self.ours;
        match self.checkers.first() {
            None => Some(target),
            Some(_) if self.checkers.more_than_one() => None,
            Some(checker) => Some((self.t.between(self.king, checker) | checker) & target),
        }
    }

    /// `to` limited to the line through our king if the piece on `from` is pinned.
    #[inline(always)]
    pub(crate) fn pin_limit(&self, from: Square, to: Bitboard) -> Bitboard {
        if self.pinned.contains(from) {
            to & self.t.line(self.king, from)
        } else {
            to
        }
    }

    /// The squares of the rooks in `to_mask` that our king may castle with now: rights, not in
    /// check, empty paths ([`Gen::castle_candidates`]) and a safe way ([`Gen::castle_is_safe`]).
    #[inline(always)]
    pub(crate) fn castles(&self, to_mask: Bitboard) -> Bitboard {
        let mut rooks = Bitboard::EMPTY;
        for rook in self.castle_candidates() & to_mask {
            if self.castle_is_safe(self.king, rook) {
                rooks.add(rook);
            }
        }
        rooks
    }

    /// The rooks the side to move may castle with as far as rights, check and empty paths go:
    /// not in check, and the king's and rook's paths empty but for the two of them. Whether the
    /// king passes attacked squares is [`Gen::castle_is_safe`].
    #[inline(always)]
    pub(crate) fn castle_candidates(&self) -> Bitboard {
        let castles = self.pos.castles();
        if self.checkers.any() || !castles.rights().intersects(CastlingRights::both(self.us)) {
            return Bitboard::EMPTY;
        }
        let mut rooks = Bitboard::EMPTY;
        for side in CastlingSide::ALL {
            if let Some(rook) = castles.rook(self.us, side) {
                if !castles.path(self.us, side).intersects(self.occupied) {
                    rooks.add(rook);
                }
            }
        }
        rooks
    }

    /// The enemy's knight and slider attacks with our king lifted: by `writer`'s
    /// [`Width::attack_map`], or by table lookups, a piece at a time, where `writer` says the
    /// enemy has few pieces ([`Width::map_by_tables`]). `None` where `writer` finds no map.
    #[inline(always)]
    pub(crate) fn attack_map_with<W: Width>(&self, writer: W) -> Option<Bitboard> {
        let (board, theirs) = (self.pos, self.theirs);
        let (knights, diagonal, straight) = (
            board.knights() & theirs,
            board.diagonal_sliders() & theirs,
            board.straight_sliders() & theirs,
        );
        let occupied = self.occupied - self.king;
        if W::SET_WISE && writer.map_by_tables() {
            return Some(self.looked_up_map(knights, diagonal, straight, occupied));
        }
        writer.attack_map(knights, diagonal, straight, occupied)
    }

    /// The squares `knights` and the sliders `diagonal` and `straight` attack given
    /// `occupied`, from the tables, a piece at a time.
    #[inline(always)]
    pub(crate) fn looked_up_map(
        &self,
        knights: Bitboard,
        diagonal: Bitboard,
        straight: Bitboard,
        occupied: Bitboard,
    ) -> Bitboard {
        let t = self.t;
        let mut map = Bitboard::EMPTY;
        for sq in knights {
            map |= t.knight(sq);
        }
        for sq in diagonal {
            map |= t.bishop(sq, occupied);
        }
        for sq in straight {
            map |= t.rook(sq, occupied);
        }
        map
    }

    /// `true` if the enemy has at most [`FEW_PIECES`] knights and sliders, so that its attack
    /// map is cheaper from the tables ([`FewPieces`]).
    #[inline(always)]
    pub(crate) fn enemy_has_few_pieces(&self) -> bool {
        (self.theirs - self.pos.pawns() - self.pos.kings()).count() <= FEW_PIECES
    }

    /// The squares the enemy pawns and king attack.
    #[inline(always)]
    pub(crate) fn leaper_danger(&self) -> Bitboard {
        let board = self.pos;
        let theirs = self.theirs;
        chessbits_bitboard::reference::pawns(!self.us, board.pawns() & theirs)
            | self.t.king(Square::new((board.kings() & theirs).0.trailing_zeros()))
    }

    /// Every square the side not to move attacks, with our king lifted off the board (so the
    /// squares behind it on a checking line count as attacked).
    #[inline(always)]
    pub(crate) fn danger(&self) -> Bitboard {
        let (board, theirs) = (self.pos, self.theirs);
        self.leaper_danger()
            | self.looked_up_map(
                board.knights() & theirs,
                board.diagonal_sliders() & theirs,
                board.straight_sliders() & theirs,
                self.occupied - self.king,
            )
    }

    /// `true` if `sq` is attacked by the side not to move, given `occupied`.
    #[inline(always)]
    pub(crate) fn attacked(&self, sq: Square, occupied: Bitboard) -> bool {
        let t = self.t;
        let board = self.pos;
        let theirs = self.theirs;
        if ((t.knight(sq) & board.knights()
            | t.king(sq) & board.kings()
            | t.pawn(self.us, sq) & board.pawns())
            & theirs)
            .any()
        {
            return true;
        }
        // A magic lookup only for slider kinds that stand on one of the square's lines at all.
        let straight = t.rook_rays(sq) & board.straight_sliders() & theirs;
        let diagonal = t.bishop_rays(sq) & board.diagonal_sliders() & theirs;
        straight.any() && t.rook(sq, occupied).intersects(straight)
            || diagonal.any() && t.bishop(sq, occupied).intersects(diagonal)
    }

    /// `true` if castling with the rook on `rook` (a [`Gen::castle_candidates`] rook) does not
    /// take the king across or onto an attacked square.
    ///
    /// Attacks are tested with king and rook both gone: in Chess960 the castling rook may shield
    /// the king's destination, and once the rook has moved it no longer does. (Lifting the rook
    /// can only add attacks along the back rank toward the destination, which the destination's
    /// own test already decides; lifting the king adds none, since we are not in check.)
    #[inline(always)]
    pub(crate) fn castle_is_safe(&self, king: Square, rook: Square) -> bool {
        let side = CastlingSide::from_king_rook(king, rook);
        let king_to = side.king_to(self.us);
        let occupied = self.occupied - king - rook;
        let path = self.t.between(king, king_to) | king_to;
        !path.squares().any(|sq| self.attacked(sq, occupied))
    }

    /// [`Gen::castle_is_safe`] given `danger`, every square the enemy attacks with our king
    /// lifted. With the rook in a corner the map decides: lifting the rook as well could only
    /// open the back rank beyond it, where there is no square. A rook elsewhere (Chess960) may
    /// shield the king's way from a piece beyond it, so its squares are tested as usual.
    #[inline(always)]
    pub(crate) fn castle_is_safe_given(
        &self,
        king: Square,
        rook: Square,
        danger: Bitboard,
    ) -> bool {
        if !Bitboard::CORNERS.contains(rook) {
            return self.castle_is_safe(king, rook);
        }
        let king_to = CastlingSide::from_king_rook(king, rook).king_to(self.us);
        !(self.t.between(king, king_to) | king_to).intersects(danger)
    }

    /// `true` if capturing en passant from `from` onto `ep` leaves our king safe. Handled on its
    /// own because it removes two pieces from one rank (the discovered-check case) and may
    /// capture a checking pawn that is not on the target square.
    #[inline(always)]
    pub(crate) fn ep_is_legal(&self, from: Square, ep: Square) -> bool {
        let enemy = Side::of(self.pos, !self.us);
        ep_is_legal(self.t, enemy, self.king, self.occupied, from, ep)
    }
}

/// The diagonal (a1-h8 way) and the anti-diagonal (h1-a8 way) through `sq`, `sq` included.
#[inline(always)]
pub(crate) fn diagonals(sq: Square) -> (Bitboard, Bitboard) {
    const MAIN: u64 = 0x8040_2010_0804_0201; // a1, b2, ..., h8: file - rank = 0
    const ANTI: u64 = 0x0102_0408_1020_4080; // h1, g2, ..., a8: file + rank = 7
    let (file, rank) = (sq as u32 & 7, sq as u32 >> 3);
    // A rank up is 8 bits up: the line of `file - rank = d` is MAIN moved d ranks down.
    let diagonal =
        if file >= rank { MAIN >> (8 * (file - rank)) } else { MAIN << (8 * (rank - file)) };
    let anti = if file + rank <= 7 {
        ANTI >> (8 * (7 - file - rank))
    } else {
        ANTI << (8 * (file + rank - 7))
    };
    (Bitboard(diagonal), Bitboard(anti))
}

/// The pieces of `color` that attack `sq`, given `occupied`.
#[inline(always)]
pub(crate) fn attackers(
    t: &Tables,
    pos: &Position,
    sq: Square,
    color: Color,
    occupied: Bitboard,
) -> Bitboard {
    attackers_in(t, pos, sq, color, occupied)
}

/// The pieces of `color` in `board` that attack `sq`, given `occupied`.
#[inline(always)]
pub(crate) fn attackers_in<P: Source>(
    t: &Tables,
    board: &P,
    sq: Square,
    color: Color,
    occupied: Bitboard,
) -> Bitboard {
    Side::of(board, color).attackers(t, sq, occupied)
}

/// The pieces of one side by kind, as plain values: what finding their attacks on a square
/// needs ([`Side::attackers`]), handed by value to [`ep_is_legal`].
#[derive(Copy, Clone)]
pub(crate) struct Side {
    /// The side's color.
    pub(crate) color: Color,
    /// Its knights.
    pub(crate) knights: Bitboard,
    /// Its pawns.
    pub(crate) pawns: Bitboard,
    /// Its king.
    pub(crate) kings: Bitboard,
    /// Its bishops and queens.
    pub(crate) diagonal: Bitboard,
    /// Its rooks and queens.
    pub(crate) straight: Bitboard,
}

impl Side {
    /// The pieces of `color` in `board`.
    #[inline(always)]
    pub(crate) fn of<P: Source>(board: &P, color: Color) -> Side {
        let pieces = board.by_color(color);
        Side {
            color,
            knights: board.knights() & pieces,
            pawns: board.pawns() & pieces,
            kings: board.kings() & pieces,
            diagonal: board.diagonal_sliders() & pieces,
            straight: board.straight_sliders() & pieces,
        }
    }

    /// The pieces that attack `sq`, given `occupied`.
    #[inline(always)]
    pub(crate) fn attackers(self, t: &Tables, sq: Square, occupied: Bitboard) -> Bitboard {
        t.knight(sq) & self.knights
            | t.king(sq) & self.kings
            | t.pawn(!self.color, sq) & self.pawns
            | t.rook(sq, occupied) & self.straight
            | t.bishop(sq, occupied) & self.diagonal
    }
}

/// `true` if our pawn on `from` may capture en passant onto `ep`: our king on `king` is not
/// attacked by the `enemy` once both pawns have left their squares ([`Gen::ep_is_legal`]).
/// Out of line and given plain values, so that no generator, and no [`Child`], need be stored
/// in memory for the rare call.
#[cold]
#[inline(never)]
pub(crate) fn ep_is_legal(
    t: &Tables,
    enemy: Side,
    king: Square,
    occupied: Bitboard,
    from: Square,
    ep: Square,
) -> bool {
    let captured = Square::from_coords(ep.file(), from.rank());
    let occupied = (occupied - from - captured) | ep;
    (enemy.attackers(t, king, occupied) - captured).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::tables;

    /// The two diagonals through each square: together its empty-board bishop rays and
    /// itself, meeting on it alone, each with one `file - rank` (or `file + rank`).
    #[test]
    fn diagonals_are_the_bishop_rays_split() {
        let t = tables();
        for sq in Bitboard::FULL {
            let (diagonal, anti) = diagonals(sq);
            assert_eq!(diagonal | anti, t.bishop_rays(sq).with(sq), "{sq:?}");
            assert_eq!(diagonal & anti, Bitboard::from_square(sq), "{sq:?}");
            let d = |s: Square| s as i32 % 8 - s as i32 / 8;
            let a = |s: Square| s as i32 % 8 + s as i32 / 8;
            assert!(diagonal.squares().all(|s| d(s) == d(sq)), "{sq:?}");
            assert!(anti.squares().all(|s| a(s) == a(sq)), "{sq:?}");
        }
    }
}
