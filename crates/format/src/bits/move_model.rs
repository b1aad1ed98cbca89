//! The move model: a probability for every legal move of a position, from a cheap,
//! deterministic, integer-only scoring of the move's features. [`move_codec`](super::move_codec)
//! codes each move of a game with it; `cargo xtask fit-moves` fits its parameters.
//!
//! # The candidates, in canonical order
//!
//! A position's legal moves are taken in one fixed order, which the coded bytes depend on:
//! by origin square (a1 = 0 .. h8 = 63); for one origin, by target square; a pawn's
//! promotions to one square as queen, rook, bishop, knight; and a king's castling moves
//! (the king "capturing" its own rook, as [`Move16`] writes castling) after its other moves.
//! [`Candidates::moves`] is that list.
//!
//! # Features
//!
//! Each candidate gets [`SLOTS`] feature indices into one weight table (index 0 is "no
//! feature" and weighs nothing). Squares are seen from the side to move (ranks flipped for
//! black). The *class* of a piece is 1 for a pawn, 2 for a knight or bishop, 3 rook, 4 queen,
//! 5 king; a square's *attack level* is the class of the cheapest enemy piece attacking it
//! (0 if none), with the attack sets of the position before the move.
//!
//! | slot | what | values |
//! |---|---|---|
//! | 0 | phase × piece × (origin, target) pair; castling: phase × side | 3 × 3,808 + 6 |
//! | 1 | piece × captured piece × target's attack level × target defended × origin's state (not attacked; attacked; attacked by a cheaper piece or undefended) | 1,296 |
//! | 2 | check given (none, direct, discovered, both) × piece × target unsafe | 48 |
//! | 3 | piece × target is where the opponent's last move went (no; yes, a capture; yes) × the opponent's last move attacked the origin | 36 |
//! | 4 | phase × origin is where our last move went × target is where it came from | 12 |
//! | 5 | piece × the best enemy piece newly attacked from the target that is worth more or undefended (class 0-4) × more than one × target unsafe | 120 |
//! | 6 | promotion (none, knight, bishop, rook, queen) | 5 |
//! | 7 | phase × piece × closer to / as far from / farther from the enemy king | 54 |
//! | 8 | opening book: the move's share bucket in a book position (0-15), or not in the book | 17 |
//! | 9 | in check × piece × capture | 24 |
//!
//! The *phase* is 0 in the first 20 plies while the pieces (knights and bishops 3, rooks 5,
//! queens 9) sum to 50 or more, else 1 while they sum to more than 24, else 2. A target is
//! *defended* if one of our pieces other than the mover attacks it (two attackers when the
//! mover itself attacks the target); *unsafe* if an enemy piece attacks it and is cheaper
//! than the mover, or it is not defended.
//!
//! # From features to frequencies (integers only)
//!
//! A move's score is the sum of its features' weights ([`SCORE_SCALE`] units per nat). With
//! `d` the best score minus the move's score, its weight is `EXP[min(d, 575)]`, where
//! `EXP[d] = round(2^24 × e^(−d / 32))` (and 0 where that rounds to 0): a table, so no floating
//! point runs when coding. With `W` the sum of the weights and `n` the number of moves, the
//! move's frequency out of [`TOTAL`] (2<sup>15</sup>) is
//!
//! ```text
//! freq = 1 + (weight × M) >> 32,    M = ((TOTAL − n) << 32) / W
//! ```
//!
//! and what the floors leave of `TOTAL` goes to the first move with the best score. Every move
//! has a frequency of at least 1, and they sum to `TOTAL` exactly.
//!
//! The weights and the book are data: [`MoveModel::FITTED`] is the table that
//! `cargo xtask fit-moves` writes (`move_model_table.rs` says how it was made). Changing the
//! features, the order, the arithmetic or the table changes the coded bytes: a breaking change
//! of every format built on it.
//!
//! ```
//! use chessbits_format::bits::move_model::{Candidates, History, MoveModel};
//! use chessbits_state::Position;
//!
//! let pos = Position::new();
//! let mut candidates = Candidates::new();
//! let model = MoveModel::FITTED;
//! model.candidates(&pos, &History::new(), &mut candidates);
//! assert_eq!(candidates.len(), 20);
//! let mut freqs = [0u16; 256];
//! model.frequencies(&candidates, &mut freqs);
//! let total: u32 = freqs[..20].iter().map(|&f| u32::from(f)).sum();
//! assert_eq!(total, 1 << 15);
//! ```

use chessbits_bitboard::{Bitboard, Color, Role, Square};
use chessbits_move::Move16;
use chessbits_movegen::{tables, MoveGen, PieceMoves, Tables};
use chessbits_state::Position;

use super::move_model_table as table;
use super::range::TOTAL;

/// Feature indices per move.
pub const SLOTS: usize = 10;

/// Score units per nat: a weight of `SCORE_SCALE` multiplies a move's odds by e.
pub const SCORE_SCALE: i32 = 32;

/// The largest score difference the weight table holds; larger ones weigh 0.
const MAX_DELTA: usize = 575;

/// Squares of each piece's (origin, target) pairs, white's point of view.
const PAIRS: usize = 3808;

/// Where each slot's weights start in the table.
mod offset {
    use super::PAIRS;
    /// Index 0 weighs nothing.
    pub const PAIR: usize = 1;
    pub const CASTLE: usize = PAIR + 3 * PAIRS;
    pub const TACTIC: usize = CASTLE + 6;
    pub const CHECK: usize = TACTIC + 1296;
    pub const PREVIOUS: usize = CHECK + 48;
    pub const OWN: usize = PREVIOUS + 36;
    pub const THREAT: usize = OWN + 12;
    pub const PROMOTION: usize = THREAT + 120;
    pub const KING_DISTANCE: usize = PROMOTION + 5;
    pub const BOOK: usize = KING_DISTANCE + 54;
    pub const IN_CHECK: usize = BOOK + 17;
    pub const END: usize = IN_CHECK + 24;
}

/// The number of weights: the length of a weight table.
pub const FEATURES: usize = offset::END;

/// Book entries are looked up for positions up to this ply (counted from the game's start).
pub const BOOK_PLIES: u32 = 24;

/// The number of share buckets of book moves.
pub const BOOK_BUCKETS: u8 = 16;

/// The feature slots by name, and a name for every feature index (for the fitter's report).
pub fn feature_name(index: usize) -> &'static str {
    use offset::*;
    match index {
        0 => "none",
        i if i < CASTLE => "pair",
        i if i < TACTIC => "castle",
        i if i < CHECK => "tactic",
        i if i < PREVIOUS => "check",
        i if i < OWN => "previous",
        i if i < THREAT => "own",
        i if i < PROMOTION => "threat",
        i if i < KING_DISTANCE => "promotion",
        i if i < BOOK => "king-distance",
        i if i < IN_CHECK => "book",
        i if i < END => "in-check",
        _ => "out of range",
    }
}

/// `EXP[d] = round(2^24 × e^(−d / 32))`: a move's weight, `d` score units below the best.
static EXP: [u32; MAX_DELTA + 1] = table::EXP;

/// An opening book: for some positions (by Zobrist key, [`Position::key`]), moves and the
/// bucket of their share (0 the most played; see [`BOOK_BUCKETS`]).
///
/// `keys` is sorted and has no duplicates; the moves of `keys[i]` are
/// `moves[offsets[i]..offsets[i + 1]]` with their buckets at the same indices.
#[derive(Copy, Clone, Debug)]
pub struct Book<'a> {
    keys: &'a [u64],
    offsets: &'a [u32],
    moves: &'a [u16],
    buckets: &'a [u8],
}

impl<'a> Book<'a> {
    /// A book with no positions.
    pub const EMPTY: Book<'static> = Book { keys: &[], offsets: &[0], moves: &[], buckets: &[] };

    /// A book from its four arrays, or `None` if they do not fit together (lengths, order,
    /// offsets, buckets below [`BOOK_BUCKETS`]).
    pub fn new(
        keys: &'a [u64],
        offsets: &'a [u32],
        moves: &'a [u16],
        buckets: &'a [u8],
    ) -> Option<Book<'a>> {
        let fits = offsets.len() == keys.len() + 1
            && moves.len() == buckets.len()
            && offsets.first() == Some(&0)
            && offsets.last().is_some_and(|&end| end as usize == moves.len())
            && offsets.windows(2).all(|w| w[0] <= w[1])
            && keys.windows(2).all(|w| w[0] < w[1])
            && buckets.iter().all(|&b| b < BOOK_BUCKETS);
        fits.then_some(Book { keys, offsets, moves, buckets })
    }

    /// The book's moves and buckets for the position with this key (empty slices if none).
    fn lookup(&self, key: u64) -> (&'a [u16], &'a [u8]) {
        let Ok(i) = self.keys.binary_search(&key) else { return (&[], &[]) };
        let (Some(&start), Some(&end)) = (self.offsets.get(i), self.offsets.get(i + 1)) else {
            return (&[], &[]);
        };
        let range = start as usize..end as usize;
        match (self.moves.get(range.clone()), self.buckets.get(range)) {
            (Some(moves), Some(buckets)) => (moves, buckets),
            _ => (&[], &[]),
        }
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// `true` if the book has no positions.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
}

/// What the model remembers of the game so far: the last two moves and the ply.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct History {
    /// The opponent's last move (the one just played), if any.
    last: Option<Played>,
    /// Our own last move (two plies ago), if any.
    own: Option<Played>,
    /// Plies played since the start of the game.
    ply: u32,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Played {
    from: Square,
    to: Square,
    capture: bool,
}

impl History {
    /// The history at the start of a game.
    pub const fn new() -> History {
        History { last: None, own: None, ply: 0 }
    }

    /// Records the move `m`, just played.
    #[inline]
    pub fn push(&mut self, m: Move16) {
        self.own = self.last;
        self.last = Some(Played { from: m.from(), to: m.to(), capture: m.is_capture() });
        self.ply = self.ply.saturating_add(1);
    }

    /// Plies played since the start of the game.
    pub const fn ply(&self) -> u32 {
        self.ply
    }
}

/// A position's legal moves in canonical order with their features: what
/// [`MoveModel::candidates`] fills.
#[derive(Clone, Debug)]
pub struct Candidates {
    moves: [Move16; 256],
    features: [[u16; SLOTS]; 256],
    len: usize,
}

impl Default for Candidates {
    fn default() -> Self {
        Candidates::new()
    }
}

impl Candidates {
    /// An empty list.
    pub fn new() -> Candidates {
        Candidates { moves: [Move16::NONE; 256], features: [[0; SLOTS]; 256], len: 0 }
    }

    /// The number of legal moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// `true` if there are no legal moves.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves, in canonical order.
    #[inline]
    pub fn moves(&self) -> &[Move16] {
        self.moves.get(..self.len).unwrap_or(&[])
    }

    /// The feature indices of each move (each below [`FEATURES`]).
    #[inline]
    pub fn features(&self) -> &[[u16; SLOTS]] {
        self.features.get(..self.len).unwrap_or(&[])
    }

    /// The index of `m` among the moves.
    #[inline]
    pub fn index_of(&self, m: Move16) -> Option<usize> {
        self.moves().iter().position(|&c| c == m)
    }

    #[inline]
    fn push(&mut self, m: Move16, features: [u16; SLOTS]) {
        if let (Some(slot), Some(f)) =
            (self.moves.get_mut(self.len), self.features.get_mut(self.len))
        {
            *slot = m;
            *f = features;
            self.len += 1;
        }
    }
}

/// The move model: a weight per feature and an opening book.
#[derive(Copy, Clone, Debug)]
pub struct MoveModel<'a> {
    weights: &'a [i16; FEATURES],
    book: Book<'a>,
}

impl MoveModel<'static> {
    /// The model fitted by `cargo xtask fit-moves`, shipped in the crate.
    pub const FITTED: MoveModel<'static> = MoveModel {
        weights: &table::WEIGHTS,
        book: Book {
            keys: &table::BOOK_KEYS,
            offsets: &table::BOOK_OFFSETS,
            moves: &table::BOOK_MOVES,
            buckets: &table::BOOK_BUCKETS,
        },
    };
}

impl<'a> MoveModel<'a> {
    /// A model from a weight table and a book.
    pub const fn new(weights: &'a [i16; FEATURES], book: Book<'a>) -> MoveModel<'a> {
        MoveModel { weights, book }
    }

    /// The weights.
    pub const fn weights(&self) -> &'a [i16; FEATURES] {
        self.weights
    }

    /// The book.
    pub const fn book(&self) -> Book<'a> {
        self.book
    }

    /// Fills `out` with the legal moves of `pos` in canonical order and their features, given
    /// what `history` remembers of the game.
    pub fn candidates(&self, pos: &Position, history: &History, out: &mut Candidates) {
        out.len = 0;
        let t = tables();
        let ctx = Context::new(t, pos, history, &self.book);
        for_each_piece(pos, |moves, castling| {
            if castling {
                ctx.castling(moves, out);
            } else {
                ctx.piece(t, moves, out);
            }
        });
    }

    /// Fills `freqs[..n]` with the frequency of each of the `n` candidates, out of
    /// [`TOTAL`]: each at least 1, summing to `TOTAL` exactly (see the module docs). Returns
    /// `n`. Nothing is written if there are no candidates.
    pub fn frequencies(&self, candidates: &Candidates, freqs: &mut [u16; 256]) -> usize {
        let mut scores = [0i32; 256];
        let n = candidates.len();
        let mut best = i32::MIN;
        let mut best_index = 0;
        for (i, (features, score)) in candidates.features().iter().zip(&mut scores).enumerate() {
            let mut s = 0i32;
            for &f in features {
                s += i32::from(self.weights.get(f as usize).copied().unwrap_or(0));
            }
            *score = s;
            if s > best {
                best = s;
                best_index = i;
            }
        }
        let mut weights = [0u32; 256];
        let mut sum = 0u64;
        for (&score, w) in scores.iter().zip(&mut weights).take(n) {
            let d = (best.wrapping_sub(score) as u32 as usize).min(MAX_DELTA);
            *w = EXP.get(d).copied().unwrap_or(0);
            sum += u64::from(*w);
        }
        if n == 0 || sum == 0 {
            return 0;
        }
        let spare = u64::from(TOTAL) - n as u64;
        let m = (spare << 32) / sum;
        let mut used = 0u32;
        for (&w, f) in weights.iter().zip(freqs.iter_mut()).take(n) {
            let freq = 1 + ((u64::from(w) * m) >> 32) as u32;
            *f = freq as u16;
            used += freq;
        }
        if let Some(f) = freqs.get_mut(best_index) {
            *f += (TOTAL - used) as u16;
        }
        n
    }
}

/// Calls `visit` with the moves of each piece of the side to move, in canonical order (see
/// the module docs): by origin square, and a king's castling moves (`true`) after its other
/// moves.
#[inline]
pub(crate) fn for_each_piece(pos: &Position, mut visit: impl FnMut(&PieceMoves, bool)) {
    // Per piece in generation order, then walked by origin square.
    let mut pieces = [None::<PieceMoves>; 16];
    let mut castling = None;
    let mut count = 0usize;
    let mut slot_of = [0u8; 64];
    let mut origins = Bitboard::EMPTY;
    pos.visit_moves(Bitboard::FULL, Bitboard::FULL, |moves| {
        if moves.role == Role::King && (moves.to & pos.us()).any() {
            castling = Some(moves);
        } else if let Some(slot) = pieces.get_mut(count) {
            *slot = Some(moves);
            if let Some(s) = slot_of.get_mut(moves.from as usize) {
                *s = count as u8;
            }
            origins.add(moves.from);
            count += 1;
        }
        false
    });
    if let Some(c) = castling {
        // A king with castling moves only still has its place in the order: an empty slot.
        if !origins.contains(c.from) {
            if let Some(s) = slot_of.get_mut(c.from as usize) {
                *s = count as u8;
            }
            origins.add(c.from);
        }
    }
    for from in origins {
        let index = slot_of.get(from as usize).copied().unwrap_or(0) as usize;
        if let Some(Some(moves)) = pieces.get(index) {
            visit(moves, false);
        }
        if let Some(c) = castling.as_ref().filter(|c| c.from == from) {
            visit(c, true);
        }
    }
}

/// The legal moves of `pos` in canonical order (see the module docs), into `out`.
pub fn canonical_moves(pos: &Position, out: &mut chessbits_move::MoveList) {
    out.clear();
    for_each_piece(pos, |moves, _| {
        for to in moves.to {
            if moves.role == Role::Pawn && Bitboard::BACKRANKS.contains(to) {
                for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                    let _ = out.try_push(moves.move_to(to, Some(role)));
                }
            } else {
                let _ = out.try_push(moves.move_to(to, None));
            }
        }
    });
}

/// The class of each role: pawn 1, knight and bishop 2, rook 3, queen 4, king 5.
const CLASS: [u8; 6] = [1, 2, 2, 3, 4, 5];

/// What the features of one position need, computed once.
struct Context<'a> {
    us: Color,
    occupied: Bitboard,
    /// Squares attacked by enemy pieces of class at most `c`, for `c` in 0..=5.
    their_le: [Bitboard; 6],
    /// Squares our pieces attack at least once, at least twice.
    our1: Bitboard,
    our2: Bitboard,
    /// Enemy pieces (not the king) of class above `c` or undefended, for `c` in 0..=5.
    targets_for: [Bitboard; 6],
    their_pawns: Bitboard,
    their_knights: Bitboard,
    their_bishops: Bitboard,
    their_rooks: Bitboard,
    their_queens: Bitboard,
    ep: Option<Square>,
    /// Squares from which a piece of each role would attack the enemy king.
    check_squares: [Bitboard; 6],
    /// Our pieces whose leaving the line to the enemy king uncovers a check.
    discoverers: Bitboard,
    their_king: Square,
    in_check: usize,
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

#[inline]
fn attacks(t: &Tables, color: Color, role: Role, sq: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => t.pawn(color, sq),
        Role::Knight => t.knight(sq),
        Role::Bishop => t.bishop(sq, occupied),
        Role::Rook => t.rook(sq, occupied),
        Role::Queen => t.queen(sq, occupied),
        Role::King => t.king(sq),
    }
}

/// 1 if `sq` is in `bb`, else 0.
#[inline(always)]
fn bit(bb: Bitboard, sq: Square) -> usize {
    ((bb.0 >> (sq as u32 & 63)) & 1) as usize
}

impl<'a> Context<'a> {
    #[inline]
    fn new(t: &Tables, pos: &Position, history: &History, book: &Book<'a>) -> Context<'a> {
        let board = pos.board();
        let us = pos.turn();
        let them = !us;
        let occupied = board.occupied();
        let ours = pos.us();
        let theirs = pos.them();

        // Enemy attacks by class.
        let their_pawns = pos.their(Role::Pawn);
        let their_knights = pos.their(Role::Knight);
        let their_bishops = pos.their(Role::Bishop);
        let their_rooks = pos.their(Role::Rook);
        let their_queens = pos.their(Role::Queen);
        let mut minor = Bitboard::EMPTY;
        for sq in their_knights {
            minor |= t.knight(sq);
        }
        for sq in their_bishops {
            minor |= t.bishop(sq, occupied);
        }
        let mut rook = Bitboard::EMPTY;
        for sq in their_rooks {
            rook |= t.rook(sq, occupied);
        }
        let mut queen = Bitboard::EMPTY;
        for sq in their_queens {
            queen |= t.queen(sq, occupied);
        }
        let their_king = pos.king_of(them);
        let le1 = pawns_attack(them, their_pawns);
        let le2 = le1 | minor;
        let le3 = le2 | rook;
        let le4 = le3 | queen;
        let le5 = le4 | t.king(their_king);
        let their_le = [Bitboard::EMPTY, le1, le2, le3, le4, le5];

        // Our attacks, counted to two.
        let (mut our1, mut our2) = (Bitboard::EMPTY, Bitboard::EMPTY);
        let forward = pos.our(Role::Pawn).forward(us);
        let mut add = |a: Bitboard| {
            our2 |= our1 & a;
            our1 |= a;
        };
        add(forward.east());
        add(forward.west());
        for sq in pos.our(Role::Knight) {
            add(t.knight(sq));
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
        add(t.king(pos.our_king()));

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

        // Checks.
        let bishop_lines = t.bishop(their_king, occupied);
        let rook_lines = t.rook(their_king, occupied);
        let check_squares = [
            t.pawn(them, their_king),
            t.knight(their_king),
            bishop_lines,
            rook_lines,
            bishop_lines | rook_lines,
            Bitboard::EMPTY,
        ];
        let mut discoverers = Bitboard::EMPTY;
        let snipers = (t.bishop_rays(their_king) & (board.bishops() | board.queens())
            | t.rook_rays(their_king) & (board.rooks() | board.queens()))
            & ours;
        for sniper in snipers {
            let between = t.between(their_king, sniper) & occupied;
            if let Some(blocker) = between.single() {
                if ours.contains(blocker) {
                    discoverers.add(blocker);
                }
            }
        }

        // Phase.
        let pieces = 3 * (board.knights() | board.bishops()).count()
            + 5 * board.rooks().count()
            + 9 * board.queens().count();
        let phase = if history.ply < 20 && pieces >= 50 {
            0
        } else if pieces > 24 {
            1
        } else {
            2
        };

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

        let (book_moves, book_buckets) = if history.ply < BOOK_PLIES && !book.is_empty() {
            book.lookup(pos.key())
        } else {
            (&[][..], &[][..])
        };
        Context {
            us,
            occupied,
            their_le,
            our1,
            our2,
            targets_for,
            their_pawns,
            their_knights,
            their_bishops,
            their_rooks,
            their_queens,
            ep: pos.ep_square(),
            check_squares,
            discoverers,
            their_king,
            in_check: pos.checkers().any() as usize,
            phase,
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
    fn level(&self, sq: Square) -> usize {
        let le = &self.their_le;
        bit(le[5], sq) * (5 - bit(le[1], sq) - bit(le[2], sq) - bit(le[3], sq) - bit(le[4], sq))
    }

    /// The role code of the enemy piece on `sq`: 0 none, 1 pawn .. 5 queen.
    #[inline(always)]
    fn captured(&self, sq: Square) -> usize {
        bit(self.their_pawns, sq)
            + 2 * bit(self.their_knights, sq)
            + 3 * bit(self.their_bishops, sq)
            + 4 * bit(self.their_rooks, sq)
            + 5 * bit(self.their_queens, sq)
    }

    /// The features of every move of one piece.
    #[inline(always)]
    fn piece(&self, t: &Tables, moves: &PieceMoves, out: &mut Candidates) {
        let role = moves.role;
        let r = role as usize;
        let class = CLASS[r] as usize;
        let from = moves.from;
        let flip = if self.us == Color::White { 0 } else { 56 };
        let from_rel = from as usize ^ flip;
        let from_level = self.level(from);
        let from_state = if from_level == 0 {
            0
        } else if from_level < class || !self.our1.contains(from) {
            2
        } else {
            1
        };
        let newly = bit(self.attacked_by_last, from);
        let own = offset::OWN + self.phase * 4 + 2 * bit(self.own_to, from);
        let from_distance = from.distance(self.their_king);
        let without_origin = self.occupied.without(from);
        let pair_mask = PAIR_TABLE.masks[r][from_rel];
        let pair_base = offset::PAIR + self.phase * PAIRS + PAIR_TABLE.base[r][from_rel] as usize;
        let discovered = if self.discoverers.contains(from) {
            !t.line(self.their_king, from)
        } else {
            Bitboard::EMPTY
        };
        let king_distance = offset::KING_DISTANCE + (self.phase * 6 + r) * 3;
        let in_check = offset::IN_CHECK + self.in_check * 12 + r * 2;
        let tactic_base = offset::TACTIC + r * 6 * 6 * 2 * 3 + from_state;
        let previous_base = offset::PREVIOUS + r * 3 * 2 + newly;
        let pawn = role == Role::Pawn;
        let promoting = pawn && (moves.to & Bitboard::BACKRANKS).any();
        // Pawn pushes count one defender, other moves two (the mover attacks its target).
        let pushes_defended = if pawn { self.our1 } else { self.our2 };
        let from_bits = (from as u16) << 6;
        for to in moves.to {
            let to_rel = to as usize ^ flip;
            let ep = pawn && Some(to) == self.ep;
            let captured = self.captured(to) + ep as usize;
            let capture = (captured != 0) as usize;
            let level = self.level(to);
            let defended = if capture != 0 { bit(self.our2, to) } else { bit(pushes_defended, to) };
            let pair = pair_base + (pair_mask & ((1u64 << to_rel) - 1)).count_ones() as usize;
            let last = bit(self.last_to, to) * self.last_kind;
            let own_index = own + bit(self.own_from, to);
            let to_distance = to.distance(self.their_king);
            let closer = (to_distance < from_distance) as usize * 2
                + (to_distance == from_distance) as usize;
            let unsafe_to = (level != 0 && (level < class || defended == 0)) as usize;
            let tactic = tactic_base + ((captured * 6 + level) * 2 + defended) * 3;
            let previous = previous_base + last * 2;
            let common = [
                pair as u16,
                tactic as u16,
                0,
                previous as u16,
                own_index as u16,
                0,
                offset::PROMOTION as u16,
                (king_distance + closer) as u16,
                0,
                (in_check + capture) as u16,
            ];
            if !promoting {
                let check = bit(self.check_squares[r], to) + 2 * bit(discovered, to);
                let targets =
                    attacks(t, self.us, role, to, without_origin) & self.targets_for[class];
                let best = self.best_target(targets);
                let mut features = common;
                features[2] = (offset::CHECK + (check * 6 + r) * 2 + unsafe_to) as u16;
                features[5] = (offset::THREAT
                    + ((r * 5 + best) * 2 + targets.more_than_one() as usize) * 2
                    + unsafe_to) as u16;
                let m = if pawn {
                    moves.move_to(to, None)
                } else {
                    Move16::from_bits(to as u16 | from_bits | (capture as u16) << 14)
                };
                features[8] = self.book_feature(m);
                out.push(m, features);
            } else {
                for (promo, after) in
                    [(4, Role::Queen), (3, Role::Rook), (2, Role::Bishop), (1, Role::Knight)]
                {
                    let after_class = CLASS[after as usize] as usize;
                    let check =
                        bit(self.check_squares[after as usize], to) + 2 * bit(discovered, to);
                    let targets = attacks(t, self.us, after, to, without_origin)
                        & self.targets_for[after_class];
                    let best = self.best_target(targets);
                    let mut features = common;
                    features[2] = (offset::CHECK + (check * 6 + r) * 2 + unsafe_to) as u16;
                    features[5] = (offset::THREAT
                        + ((r * 5 + best) * 2 + targets.more_than_one() as usize) * 2
                        + unsafe_to) as u16;
                    features[6] = (offset::PROMOTION + promo) as u16;
                    let m = moves.move_to(to, Some(after));
                    features[8] = self.book_feature(m);
                    out.push(m, features);
                }
            }
        }
    }

    /// The class (0-4) of the dearest enemy piece in `targets`, the king left out.
    #[inline(always)]
    fn best_target(&self, targets: Bitboard) -> usize {
        let q = 4 * (targets & self.their_queens).any() as usize;
        let r = 3 * (targets & self.their_rooks).any() as usize;
        let m = 2 * (targets & (self.their_knights | self.their_bishops)).any() as usize;
        let p = (targets & self.their_pawns).any() as usize;
        q.max(r).max(m).max(p)
    }

    /// The features of the king's castling moves.
    #[inline]
    fn castling(&self, moves: &PieceMoves, out: &mut Candidates) {
        for rook in moves.to {
            let side = (rook > moves.from) as usize;
            let m = moves.move_to(rook, None);
            let book = self.book_feature(m);
            out.push(
                m,
                [
                    (offset::CASTLE + self.phase * 2 + side) as u16,
                    0,
                    0,
                    0,
                    0,
                    0,
                    offset::PROMOTION as u16,
                    0,
                    book,
                    0,
                ],
            );
        }
    }

    #[inline(always)]
    fn book_feature(&self, m: Move16) -> u16 {
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
#[inline]
fn pawns_attack(color: Color, pawns: Bitboard) -> Bitboard {
    let forward = pawns.forward(color);
    forward.east() | forward.west()
}

/// The (origin, target) pairs of each role, white's point of view: the squares a piece on an
/// empty board could reach (pawns: one and two steps forward, diagonal captures).
struct PairTable {
    masks: [[u64; 64]; 6],
    base: [[u16; 64]; 6],
}

const fn pair_mask(role: usize, from: Square) -> u64 {
    use chessbits_bitboard::attacks as reference;
    match role {
        0 => {
            let rank = from as u32 / 8;
            if rank == 0 || rank == 7 {
                return 0;
            }
            let sq = 1u64 << from as u32;
            let one = sq << 8;
            let two = if rank == 1 { sq << 16 } else { 0 };
            one | two | reference::pawn(Color::White, from).0
        }
        1 => reference::knight(from).0,
        2 => reference::bishop(from, Bitboard::EMPTY).0,
        3 => reference::rook(from, Bitboard::EMPTY).0,
        4 => reference::queen(from, Bitboard::EMPTY).0,
        _ => reference::king(from).0,
    }
}

const fn build_pairs() -> PairTable {
    let mut table = PairTable { masks: [[0; 64]; 6], base: [[0; 64]; 6] };
    let mut next = 0u32;
    let mut role = 0;
    while role < 6 {
        let mut sq = 0;
        while sq < 64 {
            let mask = pair_mask(role, Square::new(sq as u32));
            table.masks[role][sq] = mask;
            table.base[role][sq] = next as u16;
            next += mask.count_ones();
            sq += 1;
        }
        role += 1;
    }
    assert!(next as usize == PAIRS);
    table
}

static PAIR_TABLE: PairTable = build_pairs();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exp_table() {
        assert_eq!(EXP[0], 1 << 24);
        for d in 0..=MAX_DELTA {
            let exact = (16_777_216.0 * (-(d as f64) / 32.0).exp()).round() as u32;
            assert_eq!(EXP[d], exact, "{d}");
        }
    }
}
