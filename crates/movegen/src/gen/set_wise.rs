//! The set-wise generator: pawns moved all at once, targets handed to a sink as sets; counting
//! (perft's bulk count) and writing move lists on top of it.

use chessbits_bitboard::{Bitboard, Color, Rank};
use chessbits_move::{Move16, MoveKind, MoveList};

use super::{castle, diagonals, Counter, Gen, ListSink, OneList, Sink, Source, SplitLists};
use crate::wide::{Scalar, Width};

impl<'a, P: Source> Gen<'a, P> {
    /// The number of legal moves, counted without building moves: the bulk count at perft's
    /// last ply.
    #[inline(always)]
    pub(crate) fn count(&self) -> u64 {
        self.count_with(Scalar)
    }

    /// [`Gen::count`], with the attack map of `writer` where it has one
    /// ([`Width::attack_map`]).
    #[inline(always)]
    pub(crate) fn count_with<W: Width>(&self, writer: W) -> u64 {
        self.count_given(writer, None)
    }

    /// [`Gen::count_with`], with the danger map `known` for the king's moves and castling where
    /// it is given ([`KingWatch`]).
    #[inline(always)]
    pub(crate) fn count_given<W: Width>(&self, writer: W, known: Option<Bitboard>) -> u64 {
        let mut counter = Counter { nodes: 0, writer, known };
        self.generate_set_wise(Bitboard::FULL, Bitboard::FULL, &mut counter);
        counter.nodes
    }

    /// Appends the legal moves whose origin is in `from_mask` and target in `to_mask` to `list`.
    #[inline(always)]
    pub(crate) fn push_moves(&self, from_mask: Bitboard, to_mask: Bitboard, list: &mut MoveList) {
        self.push_moves_with(from_mask, to_mask, list, Scalar);
    }

    /// [`Gen::push_moves`] at the width `writer`.
    #[inline(always)]
    pub(crate) fn push_moves_with<W: Width>(
        &self,
        from_mask: Bitboard,
        to_mask: Bitboard,
        list: &mut MoveList,
        writer: W,
    ) {
        self.generate_set_wise(from_mask, to_mask, &mut ListSink(OneList(list), writer));
    }

    /// Appends every legal move in one pass, captures (en passant included) and promotions to
    /// `tactical` and the rest to `quiet`.
    #[inline(always)]
    pub(crate) fn push_split(&self, tactical: &mut MoveList, quiet: &mut MoveList) {
        let lists = SplitLists { tactical, quiet };
        self.generate_set_wise(Bitboard::FULL, Bitboard::FULL, &mut ListSink(lists, Scalar));
    }

    /// The set-wise generator: the legal moves whose origin is in `from_mask` and target in
    /// `to_mask`, handed to `sink` in sets: one target set per non-pawn piece, and pawn moves
    /// set-wise (all pawns moving in one direction at once, their origins one fixed step behind
    /// their targets). One body serves counting and listing; each sink is compiled into its own
    /// copy.
    #[inline(always)]
    pub(crate) fn generate_set_wise<S: Sink>(
        &self,
        from_mask: Bitboard,
        to_mask: Bitboard,
        sink: &mut S,
    ) {
        let t = self.t;
        let board = self.pos;
        let (ours, theirs, occupied, king) = (self.ours, self.theirs, self.occupied, self.king);
        if from_mask.contains(king) {
            self.king_moves(to_mask, sink);
        }
        let Some(target) = self.check_target(to_mask) else { return };
        let pinned = self.pinned;

        // Knights and sliders: unpinned ones with no pin test (set-wise where the sink counts
        // them so), pinned ones (rare) along their pin lines.
        let free = from_mask - pinned;
        let (diagonal, straight) =
            (board.diagonal_sliders() & ours, board.straight_sliders() & ours);
        let knights = board.knights() & ours & free;
        if !sink.pieces(knights, diagonal & free, straight & free, occupied, target) {
            for from in knights {
                sink.piece(from, t.knight(from) & target, theirs);
            }
            for from in diagonal & free {
                sink.piece(from, t.bishop(from, occupied) & target, theirs);
            }
            for from in straight & free {
                sink.piece(from, t.rook(from, occupied) & target, theirs);
            }
        }
        for from in (diagonal | straight) & from_mask & pinned {
            let line = t.line(king, from) & target;
            let mut to = Bitboard::EMPTY;
            if diagonal.contains(from) {
                to |= t.bishop(from, occupied);
            }
            if straight.contains(from) {
                to |= t.rook(from, occupied);
            }
            sink.piece(from, to & line, theirs);
        }

        // Pawns, all at once: pinned ones take part in the moves that keep them on their pin
        // line (see `Gen::pawn_moves_pinned`).
        let pawns = board.pawns() & ours & from_mask;
        if (pawns & pinned).is_empty() {
            self.pawn_moves(pawns, pawns, pawns, target, sink);
        } else {
            self.pawn_moves_pinned(pawns, target, sink);
        }
        if let Some(ep) = self.pos.ep_square() {
            if to_mask.contains(ep) {
                for from in t.pawn(!self.us, ep) & pawns {
                    if self.ep_is_legal(from, ep) {
                        sink.single(Move16::new(from, ep, MoveKind::EnPassant));
                    }
                }
            }
        }
    }

    /// The king's moves and castling onto `to_mask`, handed to `sink`.
    ///
    /// A king with no square to step to and no castling needs no attack map (a boxed-in king:
    /// common in the opening and the middlegame). Sinks without a map test the king's squares
    /// one by one, which costs nothing where there are none.
    #[inline(always)]
    fn king_moves<S: Sink>(&self, to_mask: Bitboard, sink: &mut S) {
        let (t, ours, theirs, king) = (self.t, self.ours, self.theirs, self.king);
        let king_may_move = || {
            (t.king(king) & (to_mask - ours)).any() || (self.castle_candidates() & to_mask).any()
        };
        if S::MAPS && !king_may_move() {
            return;
        }
        let danger = sink
            .known_danger()
            .or_else(|| sink.attack_map(self).map(|map| map | self.leaper_danger()));
        if let Some(danger) = danger {
            // The whole map at hand: no square tested one by one.
            sink.piece(king, t.king(king) & ((to_mask - ours) - danger), theirs);
            for rook in self.castle_candidates() & to_mask {
                if self.castle_is_safe_given(king, rook, danger) {
                    sink.single(castle(king, rook));
                }
            }
        } else {
            sink.piece(king, self.king_targets(to_mask), theirs);
            for rook in self.castles(to_mask) {
                sink.single(castle(king, rook));
            }
        }
    }

    /// The moves of `pawns`, some of them pinned, onto squares of `target`: a pinned pawn keeps
    /// to the line through our king, so it may push only if pinned along the king's file, and
    /// capture only along the king's diagonal that runs the way it captures (the piece it
    /// captures there can only be the one that pins it). A pawn pinned along the king's rank
    /// has no move. Set-wise, with no loop over the pinned pawns.
    #[inline(always)]
    pub(crate) fn pawn_moves_pinned<S: Sink>(
        &self,
        pawns: Bitboard,
        target: Bitboard,
        sink: &mut S,
    ) {
        let pinned = pawns & self.pinned;
        let free = pawns - pinned;
        let king = self.king;
        let (diagonal, anti_diagonal) = diagonals(king);
        let file = pinned & Bitboard::from_file(king.file());
        // White captures left (north-west) along an anti-diagonal and right along a diagonal;
        // Black left (south-west) along a diagonal and right along an anti-diagonal.
        let (left, right) = match self.us {
            Color::White => (anti_diagonal, diagonal),
            Color::Black => (diagonal, anti_diagonal),
        };
        self.pawn_moves(free | file, free | pinned & left, free | pinned & right, target, sink);
    }

    /// Pushes and double pushes of `pushers`, captures toward the a-file of `left` and
    /// toward the h-file of `right`, onto squares of `target` (each set a subset of our pawns).
    #[inline(always)]
    pub(crate) fn pawn_moves<S: Sink>(
        &self,
        pushers: Bitboard,
        left: Bitboard,
        right: Bitboard,
        target: Bitboard,
        sink: &mut S,
    ) {
        let us = self.us;
        let empty = !self.occupied;
        let last = Bitboard::backrank(!us);
        let third = Bitboard::from_rank(Rank::Third.relative_to(us));
        let single = pushers.forward(us) & empty;
        let double = (single & third).forward(us) & empty & target;
        let single = single & target;
        let captures = target & self.theirs;
        // Steps from origin to target: forward, forward-left (toward a), forward-right.
        let (up, left, right, left_to, right_to) = match us {
            Color::White => (8, 7, 9, left.north_west(), right.north_east()),
            Color::Black => (-8, -9, -7, left.south_west(), right.south_east()),
        };
        let (left_to, right_to) = (left_to & captures, right_to & captures);
        sink.pawns(single - last, up, MoveKind::Quiet);
        sink.pawns(double, 2 * up, MoveKind::DoublePush);
        sink.pawns(left_to - last, left, MoveKind::Capture);
        sink.pawns(right_to - last, right, MoveKind::Capture);
        if ((single | left_to | right_to) & last).any() {
            sink.promotions(single & last, up, false);
            sink.promotions(left_to & last, left, true);
            sink.promotions(right_to & last, right, true);
        }
    }
}
