//! The features of one position's moves: what the model scores. A [`Context`] holds what
//! every feature of a position needs, computed once (attack levels by class, our attacks,
//! checks, the last moves, the opening book's entry); its methods give each piece's and each
//! move's feature indices.

use chessbits_bitboard::tables as fixed;
use chessbits_bitboard::{Bitboard, Color, Role, Square};
use chessbits_move::Move16;
use chessbits_movegen::{PieceMoves, Tables};
use chessbits_state::Position;

use super::{offset, Book, RecentMoves, Sink, BOOK_BUCKETS, BOOK_PLIES, PAIRS, SLOTS};

/// The class of each role: pawn 1, knight and bishop 2, rook 3, queen 4, king 5.
pub(super) const CLASS: [usize; 6] = [1, 2, 2, 3, 4, 5];

/// What the features of one position need, computed once.
pub(super) struct Context<'a> {
    /// 0 for white, 56 for black: xor a square with it to see it from the side to move.
    flip: usize,
    /// The attack level of each square in three bit planes (bit 0, 1, 2 of the level).
    level_planes: [Bitboard; 3],
    /// Squares attacked by enemy pieces of class below `c`, for `c` in 0..=5.
    their_below: [Bitboard; 6],
    /// Squares the enemy attacks.
    their_attacks: Bitboard,
    /// Squares our pieces attack at least once, at least twice.
    our1: Bitboard,
    our2: Bitboard,
    /// Enemy pieces (not the king) dearer than class `c` or undefended, for `c` in 0..=5.
    targets_for: [Bitboard; 6],
    /// Enemy pieces, the king aside.
    their_all: Bitboard,
    their_pawns: Bitboard,
    their_knights: Bitboard,
    their_bishops: Bitboard,
    their_rooks: Bitboard,
    their_queens: Bitboard,
    ep: Bitboard,
    /// Squares from which a piece of each role would attack the enemy king.
    check_squares: [Bitboard; 6],
    /// Our pieces whose leaving the line to the enemy king uncovers a check.
    discoverers: Bitboard,
    their_king: Square,
    phase: usize,
    /// The opponent's last move's target, and 1 if it captured, else 2.
    last_to: Bitboard,
    last_kind: usize,
    /// Our pieces the opponent's last moved piece attacks.
    attacked_by_last: Bitboard,
    own_from: Bitboard,
    own_to: Bitboard,
    book_moves: &'a [u16],
    book_buckets: &'a [u8],
}

#[inline(always)]
pub(super) fn attacks(
    t: &Tables,
    color: Color,
    role: Role,
    sq: Square,
    occupied: Bitboard,
) -> Bitboard {
    match role {
        Role::Pawn => fixed::pawn(color, sq),
        Role::Knight => fixed::knight(sq),
        Role::Bishop => t.bishop(sq, occupied),
        Role::Rook => t.rook(sq, occupied),
        Role::Queen => t.queen(sq, occupied),
        Role::King => fixed::king(sq),
    }
}

/// 1 if `sq` is in `bb`, else 0.
#[inline(always)]
pub(super) fn bit(bb: Bitboard, sq: Square) -> usize {
    ((bb.0 >> (sq as u32 & 63)) & 1) as usize
}

/// The squares the enemy attacks with pieces of class at most 1 (pawns) to 5 (king).
#[inline(always)]
pub(super) fn their_attacks_by_class(
    t: &Tables,
    pos: &Position,
    occupied: Bitboard,
) -> [Bitboard; 5] {
    let them = !pos.turn();
    let mut minor = Bitboard::EMPTY;
    for sq in pos.their(Role::Knight) {
        minor |= fixed::knight(sq);
    }
    for sq in pos.their(Role::Bishop) {
        minor |= t.bishop(sq, occupied);
    }
    let mut rook = Bitboard::EMPTY;
    for sq in pos.their(Role::Rook) {
        rook |= t.rook(sq, occupied);
    }
    let mut queen = Bitboard::EMPTY;
    for sq in pos.their(Role::Queen) {
        queen |= t.queen(sq, occupied);
    }
    let le1 = pawns_attack(them, pos.their(Role::Pawn));
    let le2 = le1 | minor;
    let le3 = le2 | rook;
    let le4 = le3 | queen;
    let le5 = le4 | fixed::king(pos.king_of(them));
    [le1, le2, le3, le4, le5]
}

/// The squares our pieces attack at least once, and at least twice.
#[inline(always)]
pub(super) fn our_attacks(t: &Tables, pos: &Position, occupied: Bitboard) -> (Bitboard, Bitboard) {
    let (mut our1, mut our2) = (Bitboard::EMPTY, Bitboard::EMPTY);
    let forward = pos.our(Role::Pawn).forward(pos.turn());
    let mut add = |a: Bitboard| {
        our2 |= our1 & a;
        our1 |= a;
    };
    add(forward.east());
    add(forward.west());
    for sq in pos.our(Role::Knight) {
        add(fixed::knight(sq));
    }
    for sq in pos.our(Role::Bishop) {
        add(t.bishop(sq, occupied));
    }
    for sq in pos.our(Role::Rook) {
        add(t.rook(sq, occupied));
    }
    for sq in pos.our(Role::Queen) {
        add(t.queen(sq, occupied));
    }
    add(fixed::king(pos.our_king()));
    (our1, our2)
}

/// The squares from which a piece of each role would attack the enemy king.
#[inline(always)]
fn check_squares(t: &Tables, them: Color, their_king: Square, occupied: Bitboard) -> [Bitboard; 6] {
    let bishop_lines = t.bishop(their_king, occupied);
    let rook_lines = t.rook(their_king, occupied);
    [
        fixed::pawn(them, their_king),
        fixed::knight(their_king),
        bishop_lines,
        rook_lines,
        bishop_lines | rook_lines,
        Bitboard::EMPTY,
    ]
}

/// Our pieces whose leaving the line from one of our sliders to the enemy king uncovers a
/// check.
#[inline(always)]
pub(super) fn discoverers(pos: &Position, their_king: Square, occupied: Bitboard) -> Bitboard {
    let (board, ours) = (pos.board(), pos.us());
    let mut discoverers = Bitboard::EMPTY;
    let snipers = (fixed::bishop_rays(their_king) & (board.bishops() | board.queens())
        | fixed::rook_rays(their_king) & (board.rooks() | board.queens()))
        & ours;
    for sniper in snipers {
        let between = fixed::between(their_king, sniper) & occupied;
        if let Some(blocker) = between.single() {
            if ours.contains(blocker) {
                discoverers.add(blocker);
            }
        }
    }
    discoverers
}

/// The game's phase: 0 opening (early, most material on), 1 middlegame, 2 endgame.
#[inline(always)]
pub(super) fn phase(pos: &Position, history: &RecentMoves) -> usize {
    let board = pos.board();
    let pieces = 3 * (board.knights() | board.bishops()).count()
        + 5 * board.rooks().count()
        + 9 * board.queens().count();
    if history.ply < 20 && pieces >= 50 {
        0
    } else if pieces > 24 {
        1
    } else {
        2
    }
}

/// The last two moves as features: the opponent's target, 1 if it captured else 2 (0 if
/// none), our pieces its moved piece attacks; our own last move's origin and target.
#[inline(always)]
pub(super) fn last_moves(
    t: &Tables,
    pos: &Position,
    history: &RecentMoves,
    occupied: Bitboard,
) -> (Bitboard, usize, Bitboard, Bitboard, Bitboard) {
    let (board, them, ours, theirs) = (pos.board(), !pos.turn(), pos.us(), pos.them());
    let (last_to, last_kind, attacked_by_last) = match history.last {
        Some(last) => {
            let attacked = match board.role_at(last.to) {
                Some(role) if theirs.contains(last.to) => {
                    attacks(t, them, role, last.to, occupied) & ours
                }
                _ => Bitboard::EMPTY,
            };
            (Bitboard::from_square(last.to), 2 - last.capture as usize, attacked)
        }
        None => (Bitboard::EMPTY, 0, Bitboard::EMPTY),
    };
    let (own_from, own_to) = match history.own {
        Some(own) => (Bitboard::from_square(own.from), Bitboard::from_square(own.to)),
        None => (Bitboard::EMPTY, Bitboard::EMPTY),
    };
    (last_to, last_kind, attacked_by_last, own_from, own_to)
}

/// What every move of one piece shares, for [`Context::moves`].
pub(super) struct Origin {
    /// The origin seen from the side to move.
    from_rel: usize,
    pair_base: usize,
    /// The squares off the line to the enemy king, if the piece uncovers a check by leaving it.
    discovered: Bitboard,
    /// The squares nearer to the enemy king than the origin, and as near.
    closer_mask: Bitboard,
    same_mask: Bitboard,
    defended_push: Bitboard,
    unsafe_push: Bitboard,
    unsafe_capture: Bitboard,
    tactic_base: usize,
    check_base: usize,
    history_base: usize,
    /// A pawn whose targets are promotions.
    promoting: bool,
}

impl<'a> Context<'a> {
    #[inline(always)]
    pub(super) fn new(
        t: &Tables,
        pos: &Position,
        history: &RecentMoves,
        book: &Book<'a>,
    ) -> Context<'a> {
        let board = pos.board();
        let us = pos.turn();
        let them = !us;
        let occupied = board.occupied();
        let theirs = pos.them();
        let their_pawns = pos.their(Role::Pawn);
        let their_knights = pos.their(Role::Knight);
        let their_bishops = pos.their(Role::Bishop);
        let their_rooks = pos.their(Role::Rook);
        let their_queens = pos.their(Role::Queen);
        let their_king = pos.king_of(them);

        // Enemy attacks by class, as attack levels.
        let [le1, le2, le3, le4, le5] = their_attacks_by_class(t, pos, occupied);
        let level_planes = [le1 | (le3 - le2) | (le5 - le4), le3 - le1, le5 - le3];
        let their_below = [Bitboard::EMPTY, Bitboard::EMPTY, le1, le2, le3, le4];
        let (our1, our2) = our_attacks(t, pos, occupied);

        // Enemy pieces worth attacking with a piece of each class: dearer, or undefended.
        let minors = their_knights | their_bishops;
        let undefended = (theirs - le5) - board.kings();
        let targets_for = [
            their_pawns | minors | their_rooks | their_queens,
            minors | their_rooks | their_queens | undefended,
            their_rooks | their_queens | undefended,
            their_queens | undefended,
            undefended,
            undefended,
        ];

        let (last_to, last_kind, attacked_by_last, own_from, own_to) =
            last_moves(t, pos, history, occupied);
        let (book_moves, book_buckets) = if history.ply < BOOK_PLIES && !book.is_empty() {
            book.lookup(pos.key())
        } else {
            (&[][..], &[][..])
        };
        Context {
            flip: if us == Color::White { 0 } else { 56 },
            level_planes,
            their_below,
            their_attacks: le5,
            our1,
            our2,
            targets_for,
            their_all: their_pawns | minors | their_rooks | their_queens,
            their_pawns,
            their_knights,
            their_bishops,
            their_rooks,
            their_queens,
            ep: pos.ep_square().map_or(Bitboard::EMPTY, Bitboard::from_square),
            check_squares: check_squares(t, them, their_king, occupied),
            discoverers: discoverers(pos, their_king, occupied),
            their_king,
            phase: phase(pos, history),
            last_to,
            last_kind,
            attacked_by_last,
            own_from,
            own_to,
            book_moves,
            book_buckets,
        }
    }

    /// The attack level of `sq`: the class of the cheapest enemy attacker, 0 if none.
    #[inline(always)]
    pub(super) fn level(&self, sq: Square) -> usize {
        let p = &self.level_planes;
        bit(p[0], sq) | bit(p[1], sq) << 1 | bit(p[2], sq) << 2
    }

    /// The state of a piece of class `class` on `sq`: 0 not attacked, 2 unsafe, else 1.
    #[inline(always)]
    pub(super) fn state(&self, sq: Square, class: usize) -> usize {
        // Without branches: which of the three is hard to predict.
        let level = self.level(sq);
        let attacked = level != 0;
        let exposed = level < class || !self.our1.contains(sq);
        attacked as usize + (attacked & exposed) as usize
    }

    /// The class (0-4) of the dearest enemy piece in `bb` (kings aside).
    #[inline(always)]
    pub(super) fn best_class(&self, bb: Bitboard) -> usize {
        let q = 4 * (bb & self.their_queens).any() as usize;
        let r = 3 * (bb & self.their_rooks).any() as usize;
        let m = 2 * (bb & (self.their_knights | self.their_bishops)).any() as usize;
        let p = (bb & self.their_pawns).any() as usize;
        q.max(r).max(m).max(p)
    }

    /// The features of a movable piece of role `ROLE` (compiled once per role, so that what
    /// depends on the role alone is folded away).
    #[inline(always)]
    ///
    /// `targets` are the piece's targets but castling; for the king, `castles` says whether it
    /// can castle and `king_moves` counts its moves (castling included).
    pub(super) fn piece_features<const ROLE: usize>(
        &self,
        from: Square,
        targets: Bitboard,
        castles: bool,
        king_moves: usize,
    ) -> [u16; SLOTS] {
        let role = Role::ALL[ROLE];
        let r = ROLE;
        let class = CLASS[r];
        let from_rel = from as usize ^ self.flip;
        let king = ROLE == Role::King as usize;
        let pawn = role == Role::Pawn;
        // Safe targets: not unsafe for this piece (a pawn's push is defended once).
        let below = self.their_below[class];
        let captures = targets & self.their_all;
        let unsafe_capture = below | (self.their_attacks - self.our2);
        let unsafe_move =
            if pawn { below | (self.their_attacks - self.our1) } else { unsafe_capture };
        let safe = (captures - unsafe_capture) | ((targets - captures) - unsafe_move);
        let safe_count = safe.any() as usize + safe.more_than_one() as usize;
        let state = ((r * 3 + self.state(from, class)) * 2 + bit(self.attacked_by_last, from)) * 2
            + bit(self.own_to, from);
        let best =
            self.best_class(captures) + if pawn { (targets & self.ep).any() as usize } else { 0 };
        let best = best.min(4);
        let worthy = (targets & self.targets_for[class]).any() as usize;
        let hits_last = (targets & self.last_to).any() as usize * self.last_kind;
        let can_check = if king {
            castles
        } else {
            (targets & self.check_squares[r]).any()
                | (self.discoverers.contains(from)
                    && (targets - fixed::line(self.their_king, from)).any())
        } as usize;
        let move_count = if king {
            king_moves
        } else if pawn && (targets & Bitboard::BACKRANKS).any() {
            4 * targets.count() as usize
        } else {
            targets.count() as usize
        };
        // Number of moves 0-1, 2, 3, 4-5, 6-8, 9 or more: a table read, not a branch chain.
        const MOBILITY: [u8; 10] = [0, 0, 1, 2, 3, 3, 4, 4, 4, 5];
        let mobility = MOBILITY[move_count.min(9)] as usize;
        [
            (offset::PIECE_SQUARE + (self.phase * 6 + r) * 64 + (from_rel & 63)) as u16,
            (offset::PIECE_STATE + state * 3 + safe_count) as u16,
            (offset::PIECE_CAPTURE + ((r * 5 + best) * 2 + worthy) * 3 + hits_last) as u16,
            (offset::PIECE_MOBILITY + (r * 2 + can_check) * 6 + mobility) as u16,
            0,
            0,
        ]
    }

    /// What every move of the piece on `moves.from` shares: the feature bases and the masks
    /// its targets are tested against.
    #[inline(always)]
    fn origin<const ROLE: usize>(&self, moves: &PieceMoves) -> Origin {
        let class = CLASS[ROLE];
        let pawn = ROLE == 0;
        let from = moves.from;
        let from_rel = from as usize ^ self.flip;
        let from_state = self.state(from, class);
        let newly = bit(self.attacked_by_last, from);
        let own = 2 * bit(self.own_to, from);
        let discovered = if self.discoverers.contains(from) {
            !fixed::line(self.their_king, from)
        } else {
            Bitboard::EMPTY
        };
        let from_distance = from.distance(self.their_king) as usize;
        let rings = &WITHIN[self.their_king as usize];
        let closer_mask =
            if from_distance > 0 { rings[(from_distance - 1) & 7] } else { Bitboard::EMPTY };
        // Defended targets (a pawn's push does not attack its target) and unsafe ones.
        let defended_push = if pawn { self.our1 } else { self.our2 };
        let below = self.their_below[class];
        Origin {
            from_rel,
            pair_base: offset::PAIR
                + self.phase * PAIRS
                + PAIR_TABLE.base[ROLE][from_rel & 63] as usize,
            discovered,
            closer_mask,
            same_mask: rings[from_distance & 7] - closer_mask,
            defended_push,
            unsafe_push: below | (self.their_attacks - defended_push),
            unsafe_capture: below | (self.their_attacks - self.our2),
            tactic_base: offset::TACTIC + ROLE * 6 * 6 * 2 * 3 + from_state,
            check_base: offset::CHECK + ROLE * 24,
            history_base: offset::HISTORY + ROLE * 24 + newly * 4 + own,
            promoting: pawn && (moves.to & Bitboard::BACKRANKS).any(),
        }
    }

    #[inline(always)]
    pub(super) fn moves<S: Sink, const ROLE: usize>(
        &self,
        pos: &Position,
        moves: &PieceMoves,
        sink: &mut S,
    ) {
        let board = pos.board();
        let pawn = ROLE == 0;
        let from = moves.from;
        let o = &self.origin::<ROLE>(moves);
        let pair_slots = &PAIR_TABLE.slot[ROLE][o.from_rel & 63];
        let check_squares = self.check_squares[ROLE];
        let from_bits = (from as u16) << 6;
        for to in moves.to {
            let to_rel = to as usize ^ self.flip;
            let ep = if pawn { bit(self.ep, to) } else { 0 };
            let captured = board.role_at(to).map_or(0, |r| r as usize + 1) + ep;
            let capture = (captured != 0) as usize;
            let level = self.level(to);
            let (defended, unsafe_to) = if pawn && capture == 0 {
                (bit(o.defended_push, to), bit(o.unsafe_push, to))
            } else {
                (bit(self.our2, to), bit(o.unsafe_capture, to))
            };
            let pair = o.pair_base + pair_slots[to_rel & 63] as usize;
            let last = bit(self.last_to, to) * self.last_kind;
            let closer = 2 * bit(o.closer_mask, to) + bit(o.same_mask, to);
            let tactic = o.tactic_base + ((captured * 6 + level) * 2 + defended) * 3;
            let history = o.history_base + last * 8 + bit(self.own_from, to);
            let near = unsafe_to * 3 + closer;
            if !o.promoting {
                let check = bit(check_squares, to) + 2 * bit(o.discovered, to);
                let flags = if pawn {
                    let double = ((to as u16).abs_diff(from as u16) == 16) as u16;
                    (capture as u16) << 2 | (ep as u16) | double
                } else {
                    (capture as u16) << 2
                };
                let m = Move16::from_bits(to as u16 | from_bits | flags << 12);
                let features = [
                    pair as u16,
                    tactic as u16,
                    (o.check_base + check * 6 + near) as u16,
                    history as u16,
                    0,
                    self.book_feature(m),
                ];
                sink.push(m, &features);
            } else {
                for (promo, after) in
                    [(3, Role::Queen), (2, Role::Rook), (1, Role::Bishop), (0, Role::Knight)]
                {
                    let check =
                        bit(self.check_squares[after as usize], to) + 2 * bit(o.discovered, to);
                    let m = moves.move_to(to, Some(after));
                    let features = [
                        pair as u16,
                        tactic as u16,
                        (o.check_base + check * 6 + near) as u16,
                        history as u16,
                        (offset::PROMOTION + promo) as u16,
                        self.book_feature(m),
                    ];
                    sink.push(m, &features);
                }
            }
        }
    }

    /// The features of the king's castling moves.
    #[inline]
    pub(super) fn castling<S: Sink>(&self, moves: &PieceMoves, sink: &mut S) {
        for rook in moves.to {
            let side = (rook > moves.from) as usize;
            let m = moves.move_to(rook, None);
            let features =
                [(offset::CASTLE + self.phase * 2 + side) as u16, 0, 0, 0, 0, self.book_feature(m)];
            sink.push(m, &features);
        }
    }

    #[inline(always)]
    pub(super) fn book_feature(&self, m: Move16) -> u16 {
        if self.book_moves.is_empty() {
            return 0;
        }
        let bucket = self
            .book_moves
            .iter()
            .position(|&b| b == m.bits())
            .and_then(|i| self.book_buckets.get(i).copied())
            .unwrap_or(BOOK_BUCKETS);
        (offset::BOOK + bucket as usize) as u16
    }
}

/// The squares pawns of `color` attack.
#[inline(always)]
pub(super) fn pawns_attack(color: Color, pawns: Bitboard) -> Bitboard {
    let forward = pawns.forward(color);
    forward.east() | forward.west()
}

/// The (origin, target) pairs of each role, white's point of view: the squares a piece on an
/// empty board could reach (pawns: one and two steps forward, diagonal captures). `slot` is a
/// target's rank among its origin's targets, `base` where the origin's pairs start.
pub(super) struct PairTable {
    slot: [[[u8; 64]; 64]; 6],
    base: [[u16; 64]; 6],
}

pub(super) const fn pair_mask(role: usize, from: Square) -> u64 {
    use chessbits_bitboard::reference;
    match role {
        0 => {
            let rank = from as u32 / 8;
            if rank == 0 || rank == 7 {
                return 0;
            }
            let sq = 1u64 << from as u32;
            let two = if rank == 1 { sq << 16 } else { 0 };
            sq << 8 | two | reference::pawn(Color::White, from).0
        }
        1 => reference::knight(from).0,
        2 => reference::bishop(from, Bitboard::EMPTY).0,
        3 => reference::rook(from, Bitboard::EMPTY).0,
        4 => reference::queen(from, Bitboard::EMPTY).0,
        _ => reference::king(from).0,
    }
}

pub(super) const fn build_pairs() -> PairTable {
    let mut table = PairTable { slot: [[[0; 64]; 64]; 6], base: [[0; 64]; 6] };
    let mut next = 0u32;
    let mut role = 0;
    while role < 6 {
        let mut from = 0;
        while from < 64 {
            let mask = pair_mask(role, Square::new(from as u32));
            table.base[role][from] = next as u16;
            let mut rank = 0u8;
            let mut to = 0;
            while to < 64 {
                if mask >> to & 1 == 1 {
                    table.slot[role][from][to] = rank;
                    rank += 1;
                }
                to += 1;
            }
            next += mask.count_ones();
            from += 1;
        }
        role += 1;
    }
    assert!(next as usize == PAIRS);
    table
}

pub(super) static PAIR_TABLE: PairTable = build_pairs();

/// `WITHIN[sq][d]`: the squares at most `d` king steps from `sq`.
pub(super) static WITHIN: [[Bitboard; 8]; 64] = {
    let mut table = [[Bitboard::EMPTY; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut other = 0;
        while other < 64 {
            let d = Square::new(sq as u32).distance(Square::new(other as u32)) as usize;
            let mut k = d;
            while k < 8 {
                table[sq][k].0 |= 1 << other;
                k += 1;
            }
            other += 1;
        }
        sq += 1;
    }
    table
};
