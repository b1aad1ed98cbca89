//! Where the set-wise generator hands its moves: a counter, and list writers (one list, or a
//! tactical and a quiet list at once).

use chessbits_bitboard::{Bitboard, Role, Square};
use chessbits_move::{Move16, MoveKind, MoveList};

use super::{Gen, Source};
use crate::wide::{FewPieces, Width};

/// Where [`Gen::generate_set_wise`] hands its moves: as sets, so a counter adds popcounts and a
/// list writes moves with their flag nibble fixed per set.
pub(crate) trait Sink {
    /// `true` if [`Sink::attack_map`] may give a map (its width works set-wise).
    const MAPS: bool = false;
    /// Moves of the piece on `from` to each square of `to`; those on `theirs` capture.
    fn piece(&mut self, from: Square, to: Bitboard, theirs: Bitboard);
    /// Pawn moves of one `kind` (quiet, double push or capture) to each square of `to`, each from
    /// the square `step` below it (`from = to - step`).
    fn pawns(&mut self, to: Bitboard, step: i32, kind: MoveKind);
    /// Promotions (four each) to each square of `to`, each from `to - step`.
    fn promotions(&mut self, to: Bitboard, step: i32, capture: bool);
    /// One move (castling, en passant).
    fn single(&mut self, m: Move16);
    /// Takes the moves of the unpinned `knights` and sliders (`diagonal`, `straight`) onto
    /// `target` given `occupied` all at once and returns `true`, if this sink can
    /// ([`Width::move_count`]); `false` by default, and the generator hands each piece to
    /// [`Sink::piece`].
    #[inline(always)]
    fn pieces(
        &mut self,
        _knights: Bitboard,
        _diagonal: Bitboard,
        _straight: Bitboard,
        _occupied: Bitboard,
        _target: Bitboard,
    ) -> bool {
        false
    }
    /// The enemy's knight and slider attacks with our king lifted, if this sink has a cheap
    /// way to find the whole map ([`Width::attack_map`]); `None` by default.
    #[inline(always)]
    fn attack_map(&self, _gen: &Gen<'_, impl Source>) -> Option<Bitboard> {
        None
    }
    /// Every square the enemy attacks with our king lifted, if this sink was handed it
    /// ([`KingWatch`]), so that no [`Sink::attack_map`] need be found; `None` by default.
    #[inline(always)]
    fn known_danger(&self) -> Option<Bitboard> {
        None
    }
}

/// Counts moves; `writer` only lends its attack map ([`Width::attack_map`]), and a `known`
/// danger map spares even that.
pub(crate) struct Counter<W> {
    pub(crate) nodes: u64,
    pub(crate) writer: W,
    pub(crate) known: Option<Bitboard>,
}

impl<W: Width> Sink for Counter<W> {
    const MAPS: bool = W::SET_WISE;

    #[inline(always)]
    fn piece(&mut self, _: Square, to: Bitboard, _: Bitboard) {
        self.nodes += to.count() as u64;
    }

    #[inline(always)]
    fn pawns(&mut self, to: Bitboard, _: i32, _: MoveKind) {
        self.nodes += to.count() as u64;
    }

    #[inline(always)]
    fn promotions(&mut self, to: Bitboard, _: i32, _: bool) {
        self.nodes += 4 * to.count() as u64;
    }

    #[inline(always)]
    fn single(&mut self, _: Move16) {
        self.nodes += 1;
    }

    #[inline(always)]
    fn pieces(
        &mut self,
        knights: Bitboard,
        diagonal: Bitboard,
        straight: Bitboard,
        occupied: Bitboard,
        target: Bitboard,
    ) -> bool {
        let Some(n) = self.writer.move_count(knights, diagonal, straight, occupied, target) else {
            return false;
        };
        self.nodes += n;
        true
    }

    #[inline(always)]
    fn attack_map(&self, gen: &Gen<'_, impl Source>) -> Option<Bitboard> {
        gen.attack_map_with(self.writer)
    }

    #[inline(always)]
    fn known_danger(&self) -> Option<Bitboard> {
        self.known
    }
}

/// The lists a [`ListSink`] writes to: tactical moves (captures, en passant, promotions) and
/// quiet ones, the same list or two.
pub(crate) trait Lists {
    /// `true` if both kinds go to one list, so a piece's moves are written in one pass.
    const ONE: bool;
    /// The list for captures, en passant and promotions.
    fn tactical(&mut self) -> &mut MoveList;
    /// The list for the other moves.
    fn quiet(&mut self) -> &mut MoveList;
}

/// Every move into one list.
pub(crate) struct OneList<'a>(pub(crate) &'a mut MoveList);

impl Lists for OneList<'_> {
    const ONE: bool = true;

    #[inline(always)]
    fn tactical(&mut self) -> &mut MoveList {
        self.0
    }

    #[inline(always)]
    fn quiet(&mut self) -> &mut MoveList {
        self.0
    }
}

/// Tactical and quiet moves into two lists.
pub(crate) struct SplitLists<'a> {
    pub(crate) tactical: &'a mut MoveList,
    pub(crate) quiet: &'a mut MoveList,
}

impl Lists for SplitLists<'_> {
    const ONE: bool = false;

    #[inline(always)]
    fn tactical(&mut self) -> &mut MoveList {
        self.tactical
    }

    #[inline(always)]
    fn quiet(&mut self) -> &mut MoveList {
        self.quiet
    }
}

/// Appends moves to lists, each target set written by `W` ([`Scalar`] move by move, or
/// [`crate::wide::Wide`] a set at a time).
///
/// A legal position has at most 218 moves, so the 256-move lists never fill up (positions come
/// from `Position::from_setup`, which keeps within that bound, and from legal moves).
pub(crate) struct ListSink<L, W>(pub(crate) L, pub(crate) W);

impl<L: Lists, W: Width> Sink for ListSink<L, W> {
    const MAPS: bool = W::SET_WISE;

    #[inline(always)]
    fn piece(&mut self, from: Square, to: Bitboard, theirs: Bitboard) {
        if L::ONE {
            self.1.piece(self.0.quiet(), from, to, theirs);
            return;
        }
        let captures = (to & theirs).squares().map(|to| Move16::new(from, to, MoveKind::Capture));
        self.0.tactical().extend(captures);
        let quiets = (to - theirs).squares().map(|to| Move16::new(from, to, MoveKind::Quiet));
        self.0.quiet().extend(quiets);
    }

    #[inline(always)]
    fn pawns(&mut self, to: Bitboard, step: i32, kind: MoveKind) {
        let list = if kind == MoveKind::Capture { self.0.tactical() } else { self.0.quiet() };
        self.1.pawns(list, to, step, kind);
    }

    #[inline(always)]
    fn promotions(&mut self, to: Bitboard, step: i32, capture: bool) {
        let list = self.0.tactical();
        for to in to {
            let from = Square::new((to as i32 - step) as u32);
            for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                let kind = if capture {
                    MoveKind::CapturePromotion(role)
                } else {
                    MoveKind::Promotion(role)
                };
                list.push(Move16::new(from, to, kind));
            }
        }
    }

    #[inline(always)]
    fn attack_map(&self, gen: &Gen<'_, impl Source>) -> Option<Bitboard> {
        gen.attack_map_with(FewPieces(self.1, gen.enemy_has_few_pieces()))
    }

    #[inline(always)]
    fn single(&mut self, m: Move16) {
        // Castling is quiet, en passant a capture.
        let list = if m.is_capture() { self.0.tactical() } else { self.0.quiet() };
        list.push(m);
    }
}
