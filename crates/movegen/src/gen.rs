//! Strictly legal move generation with check and pin masks, in two shapes over the same facts.
//!
//! [`Gen::new`] finds the per-position facts once: checkers and pinned pieces. Every move
//! then follows the house rules: king moves avoid attacked squares (tested with the king lifted
//! off the board), other moves land on the check mask `between(king, checker) | checker`
//! ([`Gen::check_target`]), pinned pieces stay on `line(king, piece)` ([`Gen::pin_limit`]), en
//! passant is verified on its own (the discovered-check rank case), and castling needs its
//! stored empty path and no attacked square on the king's way ([`Gen::castles`]).
//!
//! Two generators hand the moves out:
//!
//! - [`Gen::generate_set_wise`] moves pawns all at once (one shift per direction) and hands
//!   target *sets* to a [`Sink`]: a counter that adds popcounts (perft's bulk count) or a list
//!   writer that fixes the flag nibble per set, into one list ([`Gen::push_moves`]: every list and
//!   every perft walk) or into a tactical and a quiet list at once ([`Gen::push_split`]). Both
//!   sinks work at a [`Width`]: scalar, or wide (AVX-512, [`crate::wide`]), which writes each
//!   set at once, reads king moves and castling off the enemy's whole attack map, and counts
//!   the unpinned knights' and sliders' moves set-wise.
//! - [`Gen::generate_per_piece`] hands out one [`PieceMoves`] per piece (origin plus a bitboard
//!   of targets), until the visitor says stop: the public callback `visit_moves`, `divide`, and
//!   the splitting of `perft_parallel`.
//!
//! A test compares the two generators' full move lists on every suite position and two plies
//! below (`crates/chessbits/tests/perft_suites.rs`).
//!
//! A generator reads a [`Source`]: a [`Position`], or a [`Child`], the piece sets after a move
//! built without making it, which bulk perft counts at its last-but-one ply.

use core::sync::atomic::{AtomicU64, Ordering};

use arrayvec::ArrayVec;
use chessbits_bitboard::{Bitboard, Color, Rank, Role, Square};
use chessbits_move::{Move16, MoveKind, MoveList};
use chessbits_state::{Castles, CastlingRights, CastlingSide, Position};

use crate::tables::Tables;
use crate::wide::{FewPieces, Scalar, Width, FEW_PIECES};

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
fn castle(king: Square, rook: Square) -> Move16 {
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

/// Up to this many candidate king squares are tested one by one; beyond it one attack map of
/// the enemy pieces is cheaper (measured on the standard positions).
const KING_TESTS_BEFORE_MAP: u32 = 2;

/// The per-position facts every generation needs, computed once.
///
/// It reads a [`Source`]: a [`Position`], or a [`Child`], the position one move ahead that bulk
/// perft counts without making the move.
pub(crate) struct Gen<'a, P: Source = Position> {
    pub(crate) t: &'static Tables,
    pos: &'a P,
    us: Color,
    occupied: Bitboard,
    ours: Bitboard,
    theirs: Bitboard,
    king: Square,
    pub(crate) checkers: Bitboard,
    pinned: Bitboard,
}

impl<'a> Gen<'a> {
    #[inline(always)]
    pub(crate) fn new(t: &'static Tables, pos: &'a Position) -> Gen<'a> {
        Gen::of(t, pos)
    }

    /// The number of legal moves of every child of the position, summed (perft's last two
    /// plies): its moves are taken set by set from the set-wise generator, with no move list,
    /// and each child counted with `writer` ([`Children`]).
    #[inline(always)]
    pub(crate) fn count_children<W: Width>(&self, writer: W) -> u64 {
        let touchy = self.pos.castles().touch_mask();
        let watch = self.watch(writer);
        let mut children = Children { pos: self.pos, touchy, moves: ArrayVec::new(), writer };
        self.generate_set_wise(Bitboard::FULL, Bitboard::FULL, &mut children);
        let mut nodes = 0;
        for &m in &children.moves {
            nodes += if m.0 & ChildMove::MADE == 0 {
                count_child(self.t, self.pos, m, writer, watch)
            } else {
                count_made(self.t, self.pos, Move16::from_bits(m.0 as u16), writer)
            };
        }
        nodes
    }
}

impl Gen<'_> {
    /// What the children of the position share about the enemy king's squares (the king that
    /// moves in every child, and never moves itself in the move that makes it): the squares it
    /// may step or castle to and the danger on them, as a [`KingWatch`]. [`KingWatch::NONE`]
    /// where `writer` finds no attack map set-wise ([`Scalar`]).
    #[inline(always)]
    fn watch<W: Width>(&self, writer: W) -> KingWatch {
        if !W::SET_WISE {
            return KingWatch::NONE;
        }
        let (t, board, ours, them) = (self.t, self.pos, self.ours, !self.us);
        let king = Square::new((board.kings() & self.theirs).0.trailing_zeros());
        let occupied = self.occupied - king;
        // The squares whose danger the children read: the king's steps, and the way of each
        // castling king. Their moves need the castling paths empty, so the paths are watched.
        let mut squares = t.king(king) - self.theirs;
        let mut watched = t.king(king);
        let castles = board.castles();
        if castles.rights().intersects(CastlingRights::both(them)) {
            for side in CastlingSide::ALL {
                if castles.rook(them, side).is_some() {
                    let king_to = side.king_to(them);
                    squares |= t.between(king, king_to).with(king_to);
                    watched |= castles.path(them, side);
                }
            }
        }
        let danger = writer.attack_map(
            board.knights() & ours,
            board.diagonal_sliders() & ours,
            board.straight_sliders() & ours,
            occupied,
        );
        // Whatever attacks one of `squares` stands a knight's jump or a clear line away from
        // it (a king's step or a pawn's capture is a line one square long), or is the first
        // piece on such a line; a move that leaves and enters none of those squares changes no
        // attack on them.
        let reach = writer.attack_map(squares, squares, squares, occupied);
        let (Some(danger), Some(reach)) = (danger, reach) else { return KingWatch::NONE };
        KingWatch {
            watched: watched | reach,
            danger: danger
                | chessbits_bitboard::reference::pawns(self.us, board.pawns() & ours)
                | t.king(self.king),
        }
    }
}

/// The enemy's danger on the squares around the king of the side to move in a position's
/// children, found once for all of them ([`Gen::watch`]): a child whose move leaves and enters
/// no `watched` square reads its king's moves and castling off `danger` and finds no attack
/// map of its own. `danger` is exact only on the squares the king steps or castles through.
#[derive(Copy, Clone)]
pub(crate) struct KingWatch {
    /// The squares a move must not touch for `danger` to hold in its child.
    watched: Bitboard,
    /// Every square the side to move in the position attacks, the enemy king lifted.
    danger: Bitboard,
}

impl KingWatch {
    /// No watch: every child finds its own map.
    const NONE: KingWatch = KingWatch { watched: Bitboard::FULL, danger: Bitboard::EMPTY };

    /// The danger map of the child after a move between `from` and `to`, if the watch holds
    /// for it.
    #[inline(always)]
    fn danger(self, from: Square, to: Square) -> Option<Bitboard> {
        let touched = Bitboard::from_square(from).with(to);
        (!touched.intersects(self.watched)).then_some(self.danger)
    }
}

impl<'a, P: Source> Gen<'a, P> {
    /// The generator of `pos`.
    #[inline(always)]
    pub(crate) fn of(t: &'static Tables, pos: &'a P) -> Gen<'a, P> {
        let us = pos.turn();
        let board = pos;
        let occupied = board.occupied();
        let ours = board.by_color(us);
        let theirs = board.by_color(!us);
        let king = board.king();

        // Checkers and pins in one pass, without a magic lookup: leapers from their tables, and
        // every enemy slider on one of the king's lines (an empty-board ray) by what stands
        // between it and the king: nothing, it gives check; one piece of ours, that piece is
        // pinned.
        let mut checkers =
            (t.knight(king) & board.knights() | t.pawn(us, king) & board.pawns()) & theirs;
        let mut pinned = Bitboard::EMPTY;
        let snipers = (t.rook_rays(king) & board.straight_sliders()
            | t.bishop_rays(king) & board.diagonal_sliders())
            & theirs;
        for sniper in snipers {
            let between = t.between(king, sniper) & occupied;
            if between.is_empty() {
                checkers.add(sniper);
            } else if !between.more_than_one() {
                pinned |= between & ours;
            }
        }
        debug_assert_eq!(checkers, attackers_in(t, board, king, !us, occupied));
        Gen { t, pos, us, occupied, ours, theirs, king, checkers, pinned }
    }

    /// The squares of `to_mask` our king may step to: not ours, not attacked once the king has
    /// left its square. Few candidates are tested one by one; many against one attack map.
    #[inline(always)]
    fn king_targets(&self, to_mask: Bitboard) -> Bitboard {
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
    fn check_target(&self, to_mask: Bitboard) -> Option<Bitboard> {
        let target = to_mask - self.ours;
        match self.checkers.first() {
            None => Some(target),
            Some(_) if self.checkers.more_than_one() => None,
            Some(checker) => Some((self.t.between(self.king, checker) | checker) & target),
        }
    }

    /// `to` limited to the line through our king if the piece on `from` is pinned.
    #[inline(always)]
    fn pin_limit(&self, from: Square, to: Bitboard) -> Bitboard {
        if self.pinned.contains(from) {
            to & self.t.line(self.king, from)
        } else {
            to
        }
    }

    /// The squares of the rooks in `to_mask` that our king may castle with now: rights, not in
    /// check, empty paths ([`Gen::castle_candidates`]) and a safe way ([`Gen::castle_is_safe`]).
    #[inline(always)]
    fn castles(&self, to_mask: Bitboard) -> Bitboard {
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
    fn castle_candidates(&self) -> Bitboard {
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
    fn attack_map_with<W: Width>(&self, writer: W) -> Option<Bitboard> {
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
    fn looked_up_map(
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
    fn enemy_has_few_pieces(&self) -> bool {
        (self.theirs - self.pos.pawns() - self.pos.kings()).count() <= FEW_PIECES
    }

    /// The squares the enemy pawns and king attack.
    #[inline(always)]
    fn leaper_danger(&self) -> Bitboard {
        let board = self.pos;
        let theirs = self.theirs;
        chessbits_bitboard::reference::pawns(!self.us, board.pawns() & theirs)
            | self.t.king(Square::new((board.kings() & theirs).0.trailing_zeros()))
    }

    /// Every square the side not to move attacks, with our king lifted off the board (so the
    /// squares behind it on a checking line count as attacked).
    #[inline(always)]
    fn danger(&self) -> Bitboard {
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
    fn attacked(&self, sq: Square, occupied: Bitboard) -> bool {
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
    fn visit_sliders(
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
    fn pawn_targets(
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
    fn count_given<W: Width>(&self, writer: W, known: Option<Bitboard>) -> u64 {
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
    fn generate_set_wise<S: Sink>(&self, from_mask: Bitboard, to_mask: Bitboard, sink: &mut S) {
        let t = self.t;
        let board = self.pos;
        let (ours, theirs, occupied, king) = (self.ours, self.theirs, self.occupied, self.king);

        // A king with no square to step to and no castling needs no attack map (a boxed-in
        // king: common in the opening and the middlegame). Sinks without a map test the
        // king's squares one by one, which costs nothing where there are none.
        let king_may_move = || {
            (t.king(king) & (to_mask - ours)).any() || (self.castle_candidates() & to_mask).any()
        };
        if from_mask.contains(king) && (!S::MAPS || king_may_move()) {
            let danger = sink
                .known_danger()
                .or_else(|| sink.attack_map(self).map(|map| map | self.leaper_danger()));
            if let Some(danger) = danger {
                // The whole map at hand: no square tested one by one.
                sink.piece(king, self.t.king(king) & ((to_mask - ours) - danger), theirs);
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

    /// The moves of `pawns`, some of them pinned, onto squares of `target`: a pinned pawn keeps
    /// to the line through our king, so it may push only if pinned along the king's file, and
    /// capture only along the king's diagonal that runs the way it captures (the piece it
    /// captures there can only be the one that pins it). A pawn pinned along the king's rank
    /// has no move. Set-wise, with no loop over the pinned pawns.
    #[inline(always)]
    fn pawn_moves_pinned<S: Sink>(&self, pawns: Bitboard, target: Bitboard, sink: &mut S) {
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
    fn pawn_moves<S: Sink>(
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

    /// `true` if castling with the rook on `rook` (a [`Gen::castle_candidates`] rook) does not
    /// take the king across or onto an attacked square.
    ///
    /// Attacks are tested with king and rook both gone: in Chess960 the castling rook may shield
    /// the king's destination, and once the rook has moved it no longer does. (Lifting the rook
    /// can only add attacks along the back rank toward the destination, which the destination's
    /// own test already decides; lifting the king adds none, since we are not in check.)
    #[inline(always)]
    fn castle_is_safe(&self, king: Square, rook: Square) -> bool {
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
    fn castle_is_safe_given(&self, king: Square, rook: Square, danger: Bitboard) -> bool {
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
    fn ep_is_legal(&self, from: Square, ep: Square) -> bool {
        let enemy = Side::of(self.pos, !self.us);
        ep_is_legal(self.t, enemy, self.king, self.occupied, from, ep)
    }
}

/// The diagonal (a1-h8 way) and the anti-diagonal (h1-a8 way) through `sq`, `sq` included.
#[inline(always)]
fn diagonals(sq: Square) -> (Bitboard, Bitboard) {
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

/// Where [`Gen::generate_set_wise`] hands its moves: as sets, so a counter adds popcounts and a
/// list writes moves with their flag nibble fixed per set.
trait Sink {
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
struct Counter<W> {
    nodes: u64,
    writer: W,
    known: Option<Bitboard>,
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

/// Collects the moves of a position as the set-wise generator hands them out, for
/// [`Gen::count_children`] to count each child: not as a move list but as [`ChildMove`]s,
/// which carry what building the child needs (the mover's role read once per piece, not once
/// per move) and mark the moves to be made on a copy of the position instead (castling, en
/// passant and moves onto a square whose change may cost a castling right).
///
/// The children are counted after the generation, in one loop: counting each in the sink's
/// callbacks put a copy of the whole count in each of them (the walk's code grew sevenfold and
/// position 4, whose children take most of the callbacks, ran 5% slower).
struct Children<'p, W> {
    /// The position whose moves these are.
    pos: &'p Position,
    /// The squares whose change may cost a castling right: moves onto them are made.
    touchy: Bitboard,
    /// The moves, in generation order (a position has at most 218).
    moves: ArrayVec<ChildMove, 256>,
    /// The width whose attack map serves the position's own king moves.
    writer: W,
}

/// One move in [`Children`]: the squares in bits 0-5 and 8-13, the mover's role in bits 16-18,
/// its role after the move in bits 20-22, bit 24 for a double push; or, with bit 31 set, a
/// [`Move16`] in bits 0-15 to be made.
#[derive(Copy, Clone)]
struct ChildMove(u32);

impl ChildMove {
    /// Set on a move to be made on a copy of the position.
    const MADE: u32 = 1 << 31;
    /// Set on a double push.
    const DOUBLE: u32 = 1 << 24;

    /// The move of the `role` on `from` to `to`, landing as `landed`; `double` for a double
    /// push.
    #[inline(always)]
    fn new(from: Square, to: Square, role: Role, landed: Role, double: bool) -> ChildMove {
        ChildMove(
            from as u32
                | (to as u32) << 8
                | (role as u32) << 16
                | (landed as u32) << 20
                | u32::from(double) << 24,
        )
    }

    /// `m`, to be made on a copy of the position.
    #[inline(always)]
    fn made(m: Move16) -> ChildMove {
        ChildMove(ChildMove::MADE | u32::from(m.bits()))
    }
}

impl<W> Children<'_, W> {
    /// Keeps `m` (a position has at most 218 legal moves, so the list never fills).
    #[inline(always)]
    fn push(&mut self, m: ChildMove) {
        let _ = self.moves.try_push(m);
    }
}

/// Counts the child after the move `m` of `pos` (a [`ChildMove`] not to be made) with
/// `writer`, and with the danger map of `watch` where it holds.
#[inline(always)]
fn count_child<W: Width>(
    t: &'static Tables,
    pos: &Position,
    m: ChildMove,
    writer: W,
    watch: KingWatch,
) -> u64 {
    let bits = m.0;
    let from = Square::new(bits & 63);
    let to = Square::new(bits >> 8 & 63);
    let role = Role::ALL[(bits >> 16 & 7) as usize];
    let landed = Role::ALL[(bits >> 20 & 7) as usize];
    let ep = (bits & ChildMove::DOUBLE != 0).then(|| Square::new((from as u32 + to as u32) / 2));
    let mut roles = Roles::of(pos);
    let child = Child::after(pos, &mut roles, from, to, role, landed, ep);
    Gen::of(t, &child).count_given(writer, watch.danger(from, to))
}

/// Counts the child after `m`, made on a copy of `pos`, with `writer`.
#[inline(never)]
fn count_made<W: Width>(t: &'static Tables, pos: &Position, m: Move16, writer: W) -> u64 {
    let mut pos = *pos;
    let _ = pos.play_unchecked(m);
    Gen::new(t, &pos).count_with(writer)
}

impl<W: Width> Sink for Children<'_, W> {
    const MAPS: bool = W::SET_WISE;

    #[inline(always)]
    fn piece(&mut self, from: Square, to: Bitboard, theirs: Bitboard) {
        if to.is_empty() {
            return;
        }
        let role = self.pos.board().role_at(from).unwrap_or(Role::Pawn);
        for sq in to - self.touchy {
            self.push(ChildMove::new(from, sq, role, role, false));
        }
        for sq in to & self.touchy {
            let kind = if theirs.contains(sq) { MoveKind::Capture } else { MoveKind::Quiet };
            self.push(ChildMove::made(Move16::new(from, sq, kind)));
        }
    }

    #[inline(always)]
    fn pawns(&mut self, to: Bitboard, step: i32, kind: MoveKind) {
        let double = kind == MoveKind::DoublePush;
        for sq in to - self.touchy {
            let from = Square::new((sq as i32 - step) as u32);
            self.push(ChildMove::new(from, sq, Role::Pawn, Role::Pawn, double));
        }
        for sq in to & self.touchy {
            let from = Square::new((sq as i32 - step) as u32);
            self.push(ChildMove::made(Move16::new(from, sq, kind)));
        }
    }

    #[inline(always)]
    fn promotions(&mut self, to: Bitboard, step: i32, capture: bool) {
        for sq in to {
            let from = Square::new((sq as i32 - step) as u32);
            for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                self.push(if self.touchy.contains(sq) {
                    let kind = if capture {
                        MoveKind::CapturePromotion(role)
                    } else {
                        MoveKind::Promotion(role)
                    };
                    ChildMove::made(Move16::new(from, sq, kind))
                } else {
                    ChildMove::new(from, sq, Role::Pawn, role, false)
                });
            }
        }
    }

    #[inline(always)]
    fn single(&mut self, m: Move16) {
        self.push(ChildMove::made(m));
    }

    #[inline(always)]
    fn attack_map(&self, gen: &Gen<'_, impl Source>) -> Option<Bitboard> {
        gen.attack_map_with(self.writer)
    }
}

/// The lists a [`ListSink`] writes to: tactical moves (captures, en passant, promotions) and
/// quiet ones, the same list or two.
trait Lists {
    /// `true` if both kinds go to one list, so a piece's moves are written in one pass.
    const ONE: bool;
    /// The list for captures, en passant and promotions.
    fn tactical(&mut self) -> &mut MoveList;
    /// The list for the other moves.
    fn quiet(&mut self) -> &mut MoveList;
}

/// Every move into one list.
struct OneList<'a>(&'a mut MoveList);

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
struct SplitLists<'a> {
    tactical: &'a mut MoveList,
    quiet: &'a mut MoveList,
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
struct ListSink<L, W>(L, W);

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

/// The pieces of one side by kind, as plain values: what finding their attacks on a square
/// needs ([`Side::attackers`]), handed by value to [`ep_is_legal`].
#[derive(Copy, Clone)]
struct Side {
    /// The side's color.
    color: Color,
    /// Its knights.
    knights: Bitboard,
    /// Its pawns.
    pawns: Bitboard,
    /// Its king.
    kings: Bitboard,
    /// Its bishops and queens.
    diagonal: Bitboard,
    /// Its rooks and queens.
    straight: Bitboard,
}

impl Side {
    /// The pieces of `color` in `board`.
    #[inline(always)]
    fn of<P: Source>(board: &P, color: Color) -> Side {
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
    fn attackers(self, t: &Tables, sq: Square, occupied: Bitboard) -> Bitboard {
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
fn ep_is_legal(
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

/// What a [`Gen`] reads: the pieces, the side to move, the castling rights and the en passant
/// square of a [`Position`] or of a [`Child`].
pub(crate) trait Source {
    /// The pieces of `role`, both colors.
    fn by_role(&self, role: Role) -> Bitboard;
    /// The pieces of `color`.
    fn by_color(&self, color: Color) -> Bitboard;
    /// The side to move.
    fn turn(&self) -> Color;
    /// The castling rights, with their rooks and paths.
    fn castles(&self) -> &Castles;
    /// The en passant square (recorded after every double push).
    fn ep_square(&self) -> Option<Square>;

    /// The square of the side to move's king.
    #[inline(always)]
    fn king(&self) -> Square {
        Square::new((self.kings() & self.by_color(self.turn())).0.trailing_zeros())
    }

    /// Every piece.
    #[inline(always)]
    fn occupied(&self) -> Bitboard {
        self.by_color(Color::White) | self.by_color(Color::Black)
    }
    /// The pawns.
    #[inline(always)]
    fn pawns(&self) -> Bitboard {
        self.by_role(Role::Pawn)
    }
    /// The knights.
    #[inline(always)]
    fn knights(&self) -> Bitboard {
        self.by_role(Role::Knight)
    }
    /// The bishops.
    #[inline(always)]
    fn bishops(&self) -> Bitboard {
        self.by_role(Role::Bishop)
    }
    /// The rooks.
    #[inline(always)]
    fn rooks(&self) -> Bitboard {
        self.by_role(Role::Rook)
    }
    /// The queens.
    #[inline(always)]
    fn queens(&self) -> Bitboard {
        self.by_role(Role::Queen)
    }
    /// The kings.
    #[inline(always)]
    fn kings(&self) -> Bitboard {
        self.by_role(Role::King)
    }
    /// Bishops and queens.
    #[inline(always)]
    fn diagonal_sliders(&self) -> Bitboard {
        self.bishops() | self.queens()
    }
    /// Rooks and queens.
    #[inline(always)]
    fn straight_sliders(&self) -> Bitboard {
        self.rooks() | self.queens()
    }
}

impl Source for Position {
    #[inline(always)]
    fn by_role(&self, role: Role) -> Bitboard {
        self.board().by_role(role)
    }

    #[inline(always)]
    fn by_color(&self, color: Color) -> Bitboard {
        self.board().by_color(color)
    }

    #[inline(always)]
    fn turn(&self) -> Color {
        Position::turn(self)
    }

    #[inline(always)]
    fn castles(&self) -> &Castles {
        Position::castles(self)
    }

    #[inline(always)]
    fn ep_square(&self) -> Option<Square> {
        Position::ep_square(self)
    }
}

/// The position after a move, as far as a [`Gen`] reads it, built from the position before
/// the move without making it: bulk perft counts the children of its last walked ply this way
/// (no board, key, clock or undo record written, nothing to take back). It holds the color
/// sets, the side to move, its king's square and the en passant square, and reads the sets by
/// role from its [`Roles`]; the castling rights are the parent's, so only moves that keep the
/// child's side's rights qualify (see [`Child::after`]; [`Children`] leaves the others to be
/// made).
///
/// Its color sets are kept by side, the side to move's and the other's, not by color, and it
/// carries the square of the side to move's king (which the move cannot have moved). The
/// generator starts from these: it asks for the side to move's pieces and the other side's,
/// which the compiler then reads off the values the child was built from, and looks up its
/// tables from the king's square. Sets by color had to be stored at an index known only at run
/// time and loaded back, and the king's square was found from the kings' set just updated in
/// memory: each child waited for those stores (bulk perft 2-7% slower; `docs/log/perft.md`,
/// "Speed, eleventh round").
pub(crate) struct Child<'a> {
    /// The pieces of each role.
    roles: &'a Roles,
    /// The pieces of the side to move.
    ours: Bitboard,
    /// The pieces of the other side.
    theirs: Bitboard,
    /// The side to move.
    turn: Color,
    /// The side to move's king, which the move did not move.
    king: Square,
    /// The en passant square the move left.
    ep_square: Option<Square>,
    /// The castling rights of the position before the move.
    castles: &'a Castles,
}

/// The sets by role of a [`Child`]: a copy of the parent's ([`Roles::of`]) that
/// [`Child::after`] updates in place (building the sets whole and moving them cost a copy whose
/// 16-byte reloads over the 8-byte updates stalled store forwarding, 12-20% slower). They are
/// updated at an index known only at run time, which keeps them in memory; kept apart from the
/// child's other fields, those stay in registers.
///
/// Each set is an [`AtomicU64`], read and written with relaxed ordering: plain 8-byte loads and
/// stores on x86-64, which the compiler never merges into wider ones. With plain sets it read
/// the bishops and the rooks with one 16-byte load, to OR both with the queens at once; where
/// the move had just updated one of them with an 8-byte store, that load could not take its
/// bytes from the store and waited for the store to reach the cache. Perf put an eighth of the
/// samples of bulk perft on that load once the children no longer computed their attack map
/// ([`KingWatch`]), and the watch paid only with atomic sets (`docs/log/perft.md`, "Speed, eleventh
/// round").
///
/// It is aligned to 64 bytes, so that its sets never straddle two cache lines (a straddling
/// 64-byte store once cost the copy compiled for AVX-512 about a tenth of its speed).
#[repr(align(64))]
pub(crate) struct Roles([AtomicU64; 6]);

impl Roles {
    /// The pieces of each role in `pos`.
    #[inline(always)]
    pub(crate) fn of(pos: &Position) -> Roles {
        let board = pos.board();
        Roles(Role::ALL.map(|r| AtomicU64::new(board.by_role(r).0)))
    }

    /// The set of `role`.
    #[inline(always)]
    fn get(&self, role: Role) -> Bitboard {
        Bitboard(self.0[role as usize].load(Ordering::Relaxed))
    }

    /// Toggles `squares` in the set of `role`.
    #[inline(always)]
    fn toggle(&mut self, role: Role, squares: Bitboard) {
        let set = self.0[role as usize].get_mut();
        *set ^= squares.0;
    }
}

impl Source for Child<'_> {
    #[inline(always)]
    fn by_role(&self, role: Role) -> Bitboard {
        self.roles.get(role)
    }

    #[inline(always)]
    fn by_color(&self, color: Color) -> Bitboard {
        if color == self.turn {
            self.ours
        } else {
            self.theirs
        }
    }

    #[inline(always)]
    fn occupied(&self) -> Bitboard {
        self.ours | self.theirs
    }

    #[inline(always)]
    fn king(&self) -> Square {
        self.king
    }

    #[inline(always)]
    fn turn(&self) -> Color {
        self.turn
    }

    #[inline(always)]
    fn castles(&self) -> &Castles {
        self.castles
    }

    #[inline(always)]
    fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }
}

impl<'a> Child<'a> {
    /// The position after the move of the `role` on `from` to `to` in `pos`, landing as
    /// `landed` (a promotion's role, else `role`), with `ep` the en passant square it leaves,
    /// its sets by role written to `roles` (which hold those of `pos`): a legal move, not
    /// castling or en passant, onto no square whose change may cost a castling right (the
    /// child keeps `pos`'s rights; a move *from* such a square may cost the mover a right, but
    /// the child generates for the other side, whose rights only a capture on its rook's
    /// square can change).
    #[inline(always)]
    pub(crate) fn after(
        pos: &'a Position,
        roles: &'a mut Roles,
        from: Square,
        to: Square,
        role: Role,
        landed: Role,
        ep: Option<Square>,
    ) -> Child<'a> {
        let (board, mover) = (pos.board(), pos.turn());
        let (from_bb, to_bb) = (Bitboard::from_square(from), Bitboard::from_square(to));
        if let Some(captured) = board.role_at(to) {
            roles.toggle(captured, to_bb);
        }
        if role == landed {
            roles.toggle(role, from_bb | to_bb);
        } else {
            roles.toggle(role, from_bb);
            roles.toggle(landed, to_bb);
        }
        let ours = board.by_color(!mover);
        Child {
            roles,
            ours: ours - to_bb,
            theirs: board.by_color(mover) ^ (from_bb | to_bb),
            turn: !mover,
            king: Square::new((board.kings() & ours).0.trailing_zeros()),
            ep_square: ep,
            castles: pos.castles(),
        }
    }
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

    /// [`Children`] collects every legal move once, and the generator reads the same position
    /// from the [`Child`] of each move it does not leave to be made as from the made move:
    /// the same moves in the same order, the same checkers. Checked in every position three
    /// plies from the start and in the standard positions (captures, checks, promotions,
    /// double pushes with their en passant squares, king and rook moves that cost the mover a
    /// right, castling and moves onto castling squares left to be made).
    #[test]
    fn children_read_as_the_made_moves() {
        fn check(pos: &Position, checked: &mut [usize; 2]) {
            let t = tables();
            let legal = Gen::new(t, pos).list();
            let touchy = pos.castles().touch_mask();
            let moves = ArrayVec::new();
            let mut children = Children { pos, touchy, moves, writer: Scalar };
            Gen::new(t, pos).generate_set_wise(Bitboard::FULL, Bitboard::FULL, &mut children);
            assert_eq!(children.moves.len(), legal.len(), "{pos:?}");
            let mut seen = MoveList::new();
            for &cm in &children.moves {
                let m = if cm.0 & ChildMove::MADE != 0 {
                    checked[1] += 1;
                    Move16::from_bits(cm.0 as u16)
                } else {
                    let bits = cm.0;
                    let (from, to) = (Square::new(bits & 63), Square::new(bits >> 8 & 63));
                    let landed = Role::ALL[(bits >> 20 & 7) as usize];
                    let m = legal
                        .iter()
                        .copied()
                        .find(|m| {
                            m.from() == from
                                && m.to() == to
                                && m.promotion().unwrap_or(landed) == landed
                        })
                        .unwrap_or_else(|| panic!("{pos:?}: no legal move {from:?}{to:?}"));
                    assert!(!touchy.contains(to) && !m.is_castling() && !m.is_en_passant());
                    assert_eq!(bits & ChildMove::DOUBLE != 0, m.is_double_push(), "{m:?}");
                    let role = pos.board().role_at(from);
                    assert_eq!(Role::ALL.get((bits >> 16 & 7) as usize).copied(), role);
                    let (ep, role) = (
                        (bits & ChildMove::DOUBLE != 0)
                            .then(|| Square::new((from as u32 + to as u32) / 2)),
                        role.unwrap(),
                    );
                    let mut roles = Roles::of(pos);
                    let child = Child::after(pos, &mut roles, from, to, role, landed, ep);
                    let made = pos.played_unchecked(m);
                    let (from_child, from_made) = (Gen::of(t, &child), Gen::new(t, &made));
                    assert_eq!(from_child.list(), from_made.list(), "{pos:?} then {m:?}");
                    assert_eq!(from_child.checkers, from_made.checkers, "{pos:?} then {m:?}");
                    assert_eq!(count_child(t, pos, cm, Scalar, KingWatch::NONE), from_made.count());
                    checked[0] += 1;
                    m
                };
                assert!(legal.contains(&m) && !seen.contains(&m), "{pos:?}: {m:?}");
                seen.push(m);
            }
        }
        fn walk(pos: &Position, depth: u32, checked: &mut [usize; 2]) {
            check(pos, checked);
            if depth > 0 {
                for m in Gen::new(tables(), pos).list() {
                    walk(&pos.played_unchecked(m), depth - 1, checked);
                }
            }
        }
        let mut checked = [0; 2];
        walk(&Position::new(), 2, &mut checked);
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/8/8/KPp4r/8/8/8/6k1 w - c6 0 2",
        ] {
            walk(&crate::single::tests::parse(fen), 1, &mut checked);
        }
        assert!(checked[0] > 10_000 && checked[1] > 100, "only {checked:?} moves checked");
    }

    /// The king's watch ([`KingWatch`]) holds wherever it is used: in every child whose move
    /// it lets through, its danger agrees with the child's own on the squares the king steps
    /// and castles through, and the children count as the made moves do. Checked where the
    /// AVX2 width runs, in every position three plies from the start and in the standard
    /// positions (castling rights, promotions, checks, pins).
    #[test]
    fn the_king_watch_agrees_with_each_child() {
        let Some(avx2) = crate::avx2::Avx2::detect() else {
            eprintln!("this CPU lacks AVX2: the king's watch is not tested here");
            return;
        };
        fn check(pos: &Position, avx2: crate::avx2::Avx2, used: &mut usize) {
            let t = tables();
            let gen = Gen::new(t, pos);
            let (watch, legal) = (gen.watch(avx2), gen.list());
            let made = legal.iter().map(|&m| Gen::new(t, &pos.played_unchecked(m)).count());
            assert_eq!(gen.count_children(avx2), made.sum::<u64>(), "{pos:?}");
            let touchy = pos.castles().touch_mask();
            for &m in &legal {
                if m.is_castling() || m.is_en_passant() || touchy.contains(m.to()) {
                    continue;
                }
                let Some(danger) = watch.danger(m.from(), m.to()) else { continue };
                let child = pos.played_unchecked(m);
                let of_child = Gen::new(t, &child);
                let own = of_child.attack_map_with(avx2).unwrap() | of_child.leaper_danger();
                let (king, us) = (of_child.king, child.turn());
                // The king's steps onto squares not its own side's, and its castling ways.
                let mut read = t.king(king) - of_child.ours;
                for side in CastlingSide::ALL {
                    if child.castles().rook(us, side).is_some() {
                        read |= t.between(king, side.king_to(us)).with(side.king_to(us));
                    }
                }
                assert_eq!(danger & read, own & read, "{pos:?} then {m:?}");
                *used += 1;
            }
        }
        fn walk(pos: &Position, depth: u32, avx2: crate::avx2::Avx2, used: &mut usize) {
            check(pos, avx2, used);
            if depth > 0 {
                for m in Gen::new(tables(), pos).list() {
                    walk(&pos.played_unchecked(m), depth - 1, avx2, used);
                }
            }
        }
        let mut used = 0;
        walk(&Position::new(), 3, avx2, &mut used);
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        ] {
            walk(&crate::single::tests::parse(fen), 2, avx2, &mut used);
        }
        assert!(used > 100_000, "the watch held in only {used} children");
    }

    impl<P: Source> Gen<'_, P> {
        /// Every legal move, in generation order.
        fn list(&self) -> MoveList {
            let mut list = MoveList::new();
            self.push_moves(Bitboard::FULL, Bitboard::FULL, &mut list);
            list
        }
    }
}
