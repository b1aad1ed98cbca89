//! The per-piece generator: one [`PieceMoves`] (origin and target set) per piece, for the
//! public callback, `divide` and the splitting of parallel perft.

use chessbits_bitboard::{Bitboard, Rank, Role, Square};
use chessbits_move::{Move16, MoveKind};
use chessbits_state::CastlingSide;

use super::{Gen, Source};

/// The legal moves of one piece: its origin and a bitboard of targets.
///
/// For a pawn on its seventh rank every target stands for four promotions; for a king, a target
/// holding its own rook means castling with that rook; for a pawn, a target on the en passant
/// square is an en passant capture. Iterating yields the [`Move16`]s. The generator never hands
/// out a `PieceMoves` without targets.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PieceMoves {
    /// The role of the moving piece.
    pub role: Role,
    /// The origin square.
    pub from: Square,
    /// The target squares (the rook's square for castling).
    pub to: Bitboard,
    /// The targets that capture an enemy piece (en passant excluded).
    captures: Bitboard,
    /// The targets that are not plain moves: the en passant square for a pawn, the castling
    /// rooks' squares for the king.
    ep_or_castling: Bitboard,
}

impl PieceMoves {
    /// `true` if the moves are promotions (a pawn about to reach the last rank).
    #[inline]
    pub fn is_promotion(&self) -> bool {
        self.role == Role::Pawn && (self.to & Bitboard::BACKRANKS).any()
    }

    /// The number of moves, counting each promotion target four times.
    #[inline]
    #[allow(clippy::len_without_is_empty, reason = "a generated PieceMoves is never empty")]
    pub fn len(&self) -> usize {
        let n = self.to.count() as usize;
        if self.is_promotion() {
            4 * n
        } else {
            n
        }
    }

    /// Always `false`: the generator hands out only pieces with at least one move.
    #[deprecated(note = "always false: the generator never hands out a piece without moves")]
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.to.is_empty()
    }

    /// The move to `to`, promoting to `promotion` where the move is a promotion (a missing
    /// promotion role means queen).
    #[inline]
    pub fn move_to(&self, to: Square, promotion: Option<Role>) -> Move16 {
        let kind = if self.ep_or_castling.contains(to) {
            if self.role == Role::King {
                return castle(self.from, to);
            }
            MoveKind::EnPassant
        } else if self.role == Role::Pawn && Bitboard::BACKRANKS.contains(to) {
            let role = promotion.unwrap_or(Role::Queen);
            if self.captures.contains(to) {
                MoveKind::CapturePromotion(role)
            } else {
                MoveKind::Promotion(role)
            }
        } else if self.captures.contains(to) {
            MoveKind::Capture
        } else if self.role == Role::Pawn && (to as u8).abs_diff(self.from as u8) == 16 {
            MoveKind::DoublePush
        } else {
            MoveKind::Quiet
        };
        Move16::new(self.from, to, kind)
    }
}

/// The castling move of the king on `king` with the rook on `rook` (its side follows from the
/// two squares).
#[inline]
pub(crate) fn castle(king: Square, rook: Square) -> Move16 {
    let kind = match CastlingSide::from_king_rook(king, rook) {
        CastlingSide::KingSide => MoveKind::KingCastle,
        CastlingSide::QueenSide => MoveKind::QueenCastle,
    };
    Move16::new(king, rook, kind)
}

impl IntoIterator for PieceMoves {
    type Item = Move16;
    type IntoIter = PieceMovesIter;
    #[inline]
    fn into_iter(self) -> PieceMovesIter {
        PieceMovesIter { moves: self, remaining: self.to, promotion: 0 }
    }
}

/// Iterator over the [`Move16`]s of a [`PieceMoves`].
#[derive(Clone, Debug)]
pub struct PieceMovesIter {
    moves: PieceMoves,
    remaining: Bitboard,
    promotion: usize,
}

impl Iterator for PieceMovesIter {
    type Item = Move16;

    #[inline]
    fn next(&mut self) -> Option<Move16> {
        let to = self.remaining.first()?;
        if self.moves.role == Role::Pawn && Bitboard::BACKRANKS.contains(to) {
            // Queen first: the most useful promotion for engines that take the first move.
            let role = Role::PROMOTIONS[3 - self.promotion];
            self.promotion += 1;
            if self.promotion == 4 {
                self.promotion = 0;
                self.remaining.pop_first();
            }
            return Some(self.moves.move_to(to, Some(role)));
        }
        self.remaining.pop_first();
        Some(self.moves.move_to(to, None))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.remaining.count() as usize;
        let n = if self.moves.is_promotion() { 4 * n - self.promotion } else { n };
        (n, Some(n))
    }
}

impl ExactSizeIterator for PieceMovesIter {}

impl<'a, P: Source> Gen<'a, P> {
    /// The per-piece generator: the legal moves whose origin is in `from_mask` and target in
    /// `to_mask` (a castling move's target is its rook's square; an en passant capture's the
    /// empty square behind the pawn), one [`PieceMoves`] per piece with moves, handed to
    /// `visit` until it returns `true`. Returns whether `visit` stopped the generation.
    #[inline(always)]
    pub(crate) fn generate_per_piece<F: FnMut(PieceMoves) -> bool>(
        &self,
        from_mask: Bitboard,
        to_mask: Bitboard,
        mut visit: F,
    ) -> bool {
        let t = self.t;
        let board = self.pos;
        let (ours, occupied, king) = (self.ours, self.occupied, self.king);
        // Hands `visit` the moves of the piece on `from`, if it has any.
        let mut piece = |role, from, to: Bitboard, ep_or_castling: Bitboard| {
            let captures = to & self.theirs;
            to.any() && visit(PieceMoves { role, from, to, captures, ep_or_castling })
        };

        let king_moves = from_mask.contains(king);
        if king_moves && piece(Role::King, king, self.king_targets(to_mask), Bitboard::EMPTY) {
            return true;
        }
        let Some(target) = self.check_target(to_mask) else { return false };
        // A pinned knight can never move.
        for from in board.knights() & ours & (from_mask - self.pinned) {
            if piece(Role::Knight, from, t.knight(from) & target, Bitboard::EMPTY) {
                return true;
            }
        }
        // Sliders, one role at a time, so the role is known and never looked up.
        let sliders = ours & from_mask;
        if self.visit_sliders(Role::Bishop, board.bishops() & sliders, target, &mut piece, |sq| {
            t.bishop(sq, occupied)
        }) || self.visit_sliders(Role::Rook, board.rooks() & sliders, target, &mut piece, |sq| {
            t.rook(sq, occupied)
        }) || self.visit_sliders(
            Role::Queen,
            board.queens() & sliders,
            target,
            &mut piece,
            |sq| t.queen(sq, occupied),
        ) {
            return true;
        }
        for from in board.pawns() & ours & from_mask {
            let (to, ep) = self.pawn_targets(from, target, to_mask);
            if piece(Role::Pawn, from, to, ep) {
                return true;
            }
        }
        let rooks = if king_moves { self.castles(to_mask) } else { Bitboard::EMPTY };
        piece(Role::King, king, rooks, rooks)
    }

    /// Hands `piece` the moves of each slider of `role` on `from`: `attacks` on `target`, and
    /// on the line through our king if pinned. Returns `true` when `piece` says stop.
    #[inline(always)]
    pub(crate) fn visit_sliders(
        &self,
        role: Role,
        from: Bitboard,
        target: Bitboard,
        piece: &mut impl FnMut(Role, Square, Bitboard, Bitboard) -> bool,
        attacks: impl Fn(Square) -> Bitboard,
    ) -> bool {
        from.squares()
            .any(|sq| piece(role, sq, self.pin_limit(sq, attacks(sq) & target), Bitboard::EMPTY))
    }

    /// The targets of our pawn on `from` (en passant included) and the en passant target alone,
    /// for [`Gen::generate_per_piece`].
    #[inline(always)]
    pub(crate) fn pawn_targets(
        &self,
        from: Square,
        target: Bitboard,
        to_mask: Bitboard,
    ) -> (Bitboard, Bitboard) {
        let (t, us, occupied) = (self.t, self.us, self.occupied);
        let one = Bitboard::from_square(from).forward(us) - occupied;
        let two = (one & Bitboard::from_rank(Rank::Third.relative_to(us))).forward(us) - occupied;
        let mut to = ((one | two) | t.pawn(us, from) & self.theirs) & target;
        let mut ep_target = Bitboard::EMPTY;
        if let Some(ep) = self.pos.ep_square() {
            if t.pawn(us, from).contains(ep) && to_mask.contains(ep) && self.ep_is_legal(from, ep) {
                to.add(ep);
                ep_target.add(ep);
            }
        }
        (self.pin_limit(from, to), ep_target)
    }
}
