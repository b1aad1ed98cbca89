//! Bulk perft's last two plies: a node's children counted from the set-wise generator's move
//! sets with no move list ([`Children`]), each built without making its move ([`Child`], its
//! sets by role in [`Roles`]) and reading its king's danger off one map found for the node
//! ([`KingWatch`]).

use core::sync::atomic::{AtomicU64, Ordering};

use arrayvec::ArrayVec;
use chessbits_bitboard::{Bitboard, Color, Role, Square};
use chessbits_move::{Move16, MoveKind};
use chessbits_state::{Castles, CastlingRights, CastlingSide, Position};

use crate::gen::{Gen, Sink, Source};
use crate::tables::Tables;
use crate::wide::Width;

impl<'a> Gen<'a> {
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
    pub(crate) fn watch<W: Width>(&self, writer: W) -> KingWatch {
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
    pub(crate) watched: Bitboard,
    /// Every square the side to move in the position attacks, the enemy king lifted.
    pub(crate) danger: Bitboard,
}

impl KingWatch {
    /// No watch: every child finds its own map.
    const NONE: KingWatch = KingWatch { watched: Bitboard::FULL, danger: Bitboard::EMPTY };

    /// The danger map of the child after a move between `from` and `to`, if the watch holds
    /// for it.
    #[inline(always)]
    pub(crate) fn danger(self, from: Square, to: Square) -> Option<Bitboard> {
        let touched = Bitboard::from_square(from).with(to);
        (!touched.intersects(self.watched)).then_some(self.danger)
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
pub(crate) struct Children<'p, W> {
    /// The position whose moves these are.
    pub(crate) pos: &'p Position,
    /// The squares whose change may cost a castling right: moves onto them are made.
    pub(crate) touchy: Bitboard,
    /// The moves, in generation order (a position has at most 218).
    pub(crate) moves: ArrayVec<ChildMove, 256>,
    /// The width whose attack map serves the position's own king moves.
    pub(crate) writer: W,
}

/// One move in [`Children`]: the squares in bits 0-5 and 8-13, the mover's role in bits 16-18,
/// its role after the move in bits 20-22, bit 24 for a double push; or, with bit 31 set, a
/// [`Move16`] in bits 0-15 to be made.
#[derive(Copy, Clone)]
pub(crate) struct ChildMove(u32);

impl ChildMove {
    /// Set on a move to be made on a copy of the position.
    const MADE: u32 = 1 << 31;
    /// Set on a double push.
    const DOUBLE: u32 = 1 << 24;

    /// The move of the `role` on `from` to `to`, landing as `landed`; `double` for a double
    /// push.
    #[inline(always)]
    pub(crate) fn new(
        from: Square,
        to: Square,
        role: Role,
        landed: Role,
        double: bool,
    ) -> ChildMove {
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
    pub(crate) fn made(m: Move16) -> ChildMove {
        ChildMove(ChildMove::MADE | u32::from(m.bits()))
    }
}

impl<W> Children<'_, W> {
    /// Keeps `m` (a position has at most 218 legal moves, so the list never fills).
    #[inline(always)]
    pub(crate) fn push(&mut self, m: ChildMove) {
        let _ = self.moves.try_push(m);
    }
}

/// Counts the child after the move `m` of `pos` (a [`ChildMove`] not to be made) with
/// `writer`, and with the danger map of `watch` where it holds.
#[inline(always)]
pub(crate) fn count_child<W: Width>(
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
pub(crate) fn count_made<W: Width>(
    t: &'static Tables,
    pos: &Position,
    m: Move16,
    writer: W,
) -> u64 {
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
    pub(crate) roles: &'a Roles,
    /// The pieces of the side to move.
    pub(crate) ours: Bitboard,
    /// The pieces of the other side.
    pub(crate) theirs: Bitboard,
    /// The side to move.
    pub(crate) turn: Color,
    /// The side to move's king, which the move did not move.
    pub(crate) king: Square,
    /// The en passant square the move left.
    pub(crate) ep_square: Option<Square>,
    /// The castling rights of the position before the move.
    pub(crate) castles: &'a Castles,
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
    pub(crate) fn get(&self, role: Role) -> Bitboard {
        Bitboard(self.0[role as usize].load(Ordering::Relaxed))
    }

    /// Toggles `squares` in the set of `role`.
    #[inline(always)]
    pub(crate) fn toggle(&mut self, role: Role, squares: Bitboard) {
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
    use chessbits_move::MoveList;

    use crate::tables::tables;
    use crate::wide::Scalar;

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
