//! The move model: a probability for every legal move of a position, from a cheap,
//! deterministic, integer-only scoring of features. [`move_codec`](crate::move_codec) codes
//! each move of a game with it; `cargo xtask fit-moves` fits its parameters.
//!
//! A move is chosen in two steps, each a distribution of its own: first the piece that moves
//! (among the pieces with a legal move), then the move among that piece's legal moves. So a
//! coder scores every movable piece with cheap piece features, but the moves of one piece
//! only: about a third of the work of scoring every move, for a few hundredths of a bit.
//!
//! # Canonical order
//!
//! The coded bytes depend on one fixed order. Pieces: by origin square (a1 = 0 .. h8 = 63).
//! A piece's moves: by target square; a pawn's promotions to one square as queen, rook,
//! bishop, knight; and a king's castling moves (the king "capturing" its own rook, as
//! [`Move16`] writes castling) after its other moves. [`canonical_moves`] lists all the moves
//! in this order.
//!
//! # Features
//!
//! Each candidate (piece or move) gets [`SLOTS`] feature indices into one weight table (index
//! 0 is "no feature" and weighs nothing). Squares are seen from the side to move (ranks
//! flipped for black). The *class* of a piece is 1 for a pawn, 2 for a knight or bishop, 3
//! rook, 4 queen, 5 king; a square's *attack level* is the class of the cheapest enemy piece
//! attacking it (0 if none), with the attack sets of the position before the move. A target
//! is *defended* if one of our pieces other than the mover attacks it (two attackers when the
//! mover itself attacks the target: every move but a pawn's push); *unsafe* if an enemy piece
//! cheaper than the mover attacks it, or any enemy piece does and it is not defended. A
//! piece's *state* is 0 if its square is not attacked, 2 if it is unsafe there, else 1. The
//! *phase* is 0 in the first 20 plies while the pieces (knights and bishops 3, rooks 5,
//! queens 9) sum to 50 or more, else 1 while they sum to more than 24, else 2. A *worthy*
//! enemy piece for a mover is one dearer than the mover, or undefended (kings aside).
//!
//! Pieces:
//!
//! | slot | what | weights |
//! |---|---|---:|
//! | 0 | phase × piece × square | 1,152 |
//! | 1 | piece × state × the opponent's last moved piece attacks it × it made our last move × its safe targets (0, 1, more) | 216 |
//! | 2 | piece × dearest enemy piece it can capture (class 0-4) × it can capture a worthy one × it can capture the piece that just moved (no; yes, that move captured; yes) | 180 |
//! | 3 | piece × it can give check (the king: it can castle) × number of moves (1, 2, 3, 4-5, 6-8, 9+) | 72 |
//!
//! Moves of the chosen piece:
//!
//! | slot | what | weights |
//! |---|---|---:|
//! | 0 | phase × piece × (origin, target) pair; castling: phase × side | 3 × 3,808 + 6 |
//! | 1 | piece × captured piece (none, pawn .. queen) × target's attack level × target defended × origin's state | 1,296 |
//! | 2 | piece × check given (none, direct, discovered, both) × target unsafe × target closer to / as far from / farther from the enemy king than the origin | 144 |
//! | 3 | piece × target is where the opponent's last move went (no; yes, it captured; yes) × the opponent's last moved piece attacks the origin × origin is where our last move went × target is where it came from | 144 |
//! | 4 | promotion to knight, bishop, rook, queen (0 for other moves) | 4 |
//! | 5 | opening book: the move's share bucket in a book position (0-15), or not in the book (0 outside the book) | 17 |
//!
//! Promotions take the promoted piece's attacks for checks. Castling has slots 0 and 5 only.
//!
//! Two features of earlier tables are gone for speed (2026-11-23): the enemy pieces a move
//! attacks from its target (a slider lookup per move, about 5% of the work) and the book bucket
//! of a piece's moves (about 3%). Refitted without them, the held-out lichess games cost 0.08
//! bits a move more (docs/log/formats.md, "Move codec, third round").
//!
//! # From features to frequencies (integers only)
//!
//! A candidate's score is the sum of its features' weights ([`SCORE_SCALE`] units per nat).
//! With `best` the highest score among the `n` candidates, a candidate of score `s` has the
//! weight `w = EXP[min(best − s, 575)]`, where `EXP[d] = round(2^24 × e^(−d / 32))` (a table:
//! no floating point runs when coding), and the frequency out of [`TOTAL`] (2<sup>15</sup>)
//!
//! ```text
//! freq = 1 + (w × M) >> 32,    M = ((TOTAL − n) << 32) / W,    W = the sum of the weights
//! ```
//!
//! Every candidate has a frequency of at least 1 and they sum to at most `TOTAL`; the
//! candidates take their intervals in canonical order from 0, and what is left at the top (at
//! most about `n` of the 32,768) names none. A choice among one candidate codes nothing.
//!
//! The weights and the book are data: [`MoveModel::FITTED`] is the table that
//! `cargo xtask fit-moves` writes (`move_model_table.rs` says how it was made). Changing the
//! features, the order, the arithmetic or the table changes the coded bytes: a breaking change
//! of every format built on it.
//!
//! ```
//! use chessbits_codec::move_model::{FeaturedMoves, RecentMoves, MoveModel};
//! use chessbits_state::Position;
//!
//! let pos = Position::new();
//! let model = MoveModel::FITTED;
//! let analysis = model.analyse(&pos, &RecentMoves::new());
//! let mut pieces = FeaturedMoves::new();
//! analysis.pieces(&mut pieces);
//! assert_eq!(pieces.len(), 10); // two knights and eight pawns
//! let mut moves = FeaturedMoves::new();
//! analysis.moves(0, &mut moves); // the knight on b1
//! assert_eq!(moves.moves().iter().map(|m| pos.uci(*m).to_string()).collect::<Vec<_>>(), ["b1a3", "b1c3"]);
//! let mut freqs = [0u16; 256];
//! model.frequencies(&pieces, &mut freqs);
//! let total: u32 = freqs[..10].iter().map(|&f| u32::from(f)).sum();
//! assert!(total <= 1 << 15 && total > (1 << 15) - 10);
//! ```

use arrayvec::ArrayVec;
use chessbits_bitboard::{Bitboard, Role, Square};
use chessbits_move::{Move16, MoveList};
use chessbits_movegen::{tables, MoveGen, PieceMoves};
use chessbits_state::Position;

use crate::move_model_table as table;
use crate::range::TOTAL;

mod context;

use context::Context;

/// Feature indices per candidate.
pub const SLOTS: usize = 6;

/// Score units per nat: a weight of `SCORE_SCALE` multiplies a candidate's odds by e.
pub const SCORE_SCALE: i32 = 32;

/// The largest score difference the weight table holds; larger ones weigh 0.
const MAX_DELTA: usize = 575;

/// The (origin, target) pairs of all pieces, white's point of view.
const PAIRS: usize = 3808;

/// Where each slot's weights start in the table.
mod offset {
    use super::PAIRS;
    /// Index 0 weighs nothing.
    pub const PIECE_SQUARE: usize = 1;
    pub const PIECE_STATE: usize = PIECE_SQUARE + 1152;
    pub const PIECE_CAPTURE: usize = PIECE_STATE + 216;
    pub const PIECE_MOBILITY: usize = PIECE_CAPTURE + 180;
    pub const PAIR: usize = PIECE_MOBILITY + 72;
    pub const CASTLE: usize = PAIR + 3 * PAIRS;
    pub const TACTIC: usize = CASTLE + 6;
    pub const CHECK: usize = TACTIC + 1296;
    pub const HISTORY: usize = CHECK + 144;
    pub const PROMOTION: usize = HISTORY + 144;
    pub const BOOK: usize = PROMOTION + 4;
    pub const END: usize = BOOK + 17;
}

/// The length of a weight table: the features' indices rounded up to a power of two, so that
/// a masked index needs no bounds check (the weights past the last feature are 0).
pub const FEATURES: usize = 1 << 14;

/// The number of features: weights past it are 0.
pub const FEATURE_COUNT: usize = offset::END;

const _: () = assert!(FEATURE_COUNT <= FEATURES);

/// Book entries are looked up for positions up to this ply (counted from the game's start).
pub const BOOK_PLIES: u32 = 24;

/// The number of share buckets of book moves.
pub const BOOK_BUCKETS: u8 = 16;

/// The name of the slot a feature index belongs to (for the fitter's report).
pub fn feature_name(index: usize) -> &'static str {
    use offset::*;
    match index {
        0 => "none",
        i if i < PIECE_STATE => "piece square",
        i if i < PIECE_CAPTURE => "piece state",
        i if i < PIECE_MOBILITY => "piece capture",
        i if i < PAIR => "piece mobility",
        i if i < CASTLE => "pair",
        i if i < TACTIC => "castle",
        i if i < CHECK => "tactic",
        i if i < HISTORY => "check",
        i if i < PROMOTION => "history",
        i if i < BOOK => "promotion",
        i if i < END => "book",
        _ => "unused",
    }
}

/// The fitted weights, padded to [`FEATURES`].
static FITTED_WEIGHTS: [i16; FEATURES] = {
    let mut padded = [0; FEATURES];
    let mut i = 0;
    while i < FEATURE_COUNT {
        padded[i] = table::WEIGHTS[i];
        i += 1;
    }
    padded
};

/// `EXP[d] = round(2^24 × e^(−d / 32))`: a candidate's weight, `d` score units below the best.
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
pub struct RecentMoves {
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

impl RecentMoves {
    /// The history at the start of a game.
    pub const fn new() -> RecentMoves {
        RecentMoves { last: None, own: None, ply: 0 }
    }

    /// Records the move `m`, just played.
    #[inline]
    pub fn push(&mut self, m: Move16) {
        self.own = self.last;
        self.last = Some(Played { from: m.from(), to: m.to(), capture: m.is_capture() });
        self.ply = self.ply.saturating_add(1);
    }

    /// Records a null move (the side to move passed): no move for the next player to
    /// answer.
    #[inline]
    pub fn push_null(&mut self) {
        self.own = self.last;
        self.last = None;
        self.ply = self.ply.saturating_add(1);
    }

    /// Plies played since the start of the game.
    pub const fn ply(&self) -> u32 {
        self.ply
    }
}

/// Receives candidates (pieces or moves) with their features, in canonical order.
pub trait Sink {
    /// One candidate: a move (for a piece, its first move), and its feature indices (each
    /// below [`FEATURES`]).
    fn push(&mut self, m: Move16, features: &[u16; SLOTS]);
}

/// FeaturedMoves in canonical order with their features: what [`Analysis::pieces`] and
/// [`Analysis::moves`] fill.
#[derive(Clone, Debug)]
pub struct FeaturedMoves {
    moves: [Move16; 256],
    features: [[u16; SLOTS]; 256],
    len: usize,
}

impl Default for FeaturedMoves {
    fn default() -> Self {
        FeaturedMoves::new()
    }
}

impl FeaturedMoves {
    /// An empty list.
    pub fn new() -> FeaturedMoves {
        FeaturedMoves { moves: [Move16::NONE; 256], features: [[0; SLOTS]; 256], len: 0 }
    }

    /// Forgets the candidates.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The number of candidates.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// `true` if there are none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves (for pieces: each piece's first move), in canonical order.
    #[inline]
    pub fn moves(&self) -> &[Move16] {
        self.moves.get(..self.len).unwrap_or(&[])
    }

    /// The feature indices of each candidate (each below [`FEATURES`]).
    #[inline]
    pub fn features(&self) -> &[[u16; SLOTS]] {
        self.features.get(..self.len).unwrap_or(&[])
    }
}

impl Sink for FeaturedMoves {
    #[inline]
    fn push(&mut self, m: Move16, features: &[u16; SLOTS]) {
        if let (Some(slot), Some(f)) =
            (self.moves.get_mut(self.len), self.features.get_mut(self.len))
        {
            *slot = m;
            *f = *features;
            self.len += 1;
        }
    }
}

/// FeaturedMoves with their scores: the coding path's sink.
#[derive(Clone, Debug)]
pub(crate) struct Scored<'w> {
    weights: &'w [i16; FEATURES],
    moves: [Move16; 256],
    scores: [i32; 256],
    len: usize,
    best: i32,
}

impl<'w> Scored<'w> {
    pub(crate) fn new(weights: &'w [i16; FEATURES]) -> Scored<'w> {
        Scored { weights, moves: [Move16::NONE; 256], scores: [0; 256], len: 0, best: i32::MIN }
    }

    #[inline]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.best = i32::MIN;
    }

    /// The moves, in canonical order.
    #[inline]
    pub(crate) fn moves(&self) -> &[Move16] {
        self.moves.get(..self.len).unwrap_or(&[])
    }

    /// The scores, in the same order.
    #[inline]
    pub(crate) fn scores(&self) -> &[i32] {
        self.scores.get(..self.len).unwrap_or(&[])
    }

    /// The number of candidates.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The interval `(cum, freq)` of the candidate at `index` (see the module docs).
    #[inline]
    pub(crate) fn choice(&self, index: usize) -> (u32, u32) {
        let Some(d) = self.distribution() else { return (0, 1) };
        let scores = self.scores();
        let cum: u32 = scores.iter().take(index).map(|&s| d.freq(s)).sum();
        let freq = scores.get(index).map_or(1, |&s| d.freq(s));
        (cum, freq)
    }

    /// The distribution over the candidates (`None` if there are none).
    #[inline]
    pub(crate) fn distribution(&self) -> Option<Distribution> {
        Distribution::new(self.scores(), self.best)
    }
}

impl Scored<'_> {
    /// The score of a candidate with these features.
    #[inline(always)]
    fn score(&self, features: &[u16; SLOTS]) -> i32 {
        let mut score = 0i32;
        for &f in features {
            score += i32::from(self.weights[f as usize & (FEATURES - 1)]);
        }
        score
    }

    /// Scores a candidate without a move at `index` (pieces, filled out of order); the
    /// length is set once all are in ([`Scored::set_len`]).
    #[inline(always)]
    fn put(&mut self, index: usize, features: &[u16; SLOTS]) {
        let score = self.score(features);
        self.scores[index & 255] = score;
        self.best = self.best.max(score);
    }

    /// Sets the number of candidates after [`Scored::put`].
    #[inline(always)]
    fn set_len(&mut self, len: usize) {
        self.len = len.min(256);
    }
}

impl Sink for Scored<'_> {
    #[inline(always)]
    fn push(&mut self, m: Move16, features: &[u16; SLOTS]) {
        let score = self.score(features);
        // Positions have at most 218 moves: the mask never wraps.
        let i = self.len & 255;
        self.moves[i] = m;
        self.scores[i] = score;
        self.len = i + 1;
        self.best = self.best.max(score);
    }
}

/// The frequencies of candidates, from their scores (see the module docs).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Distribution {
    best: i32,
    m: u64,
}

impl Distribution {
    #[inline]
    fn new(scores: &[i32], best: i32) -> Option<Distribution> {
        let n = scores.len() as u64;
        let mut sum = 0u64;
        for &s in scores {
            sum += u64::from(weight(best, s));
        }
        if n == 0 || sum == 0 || n > u64::from(TOTAL) {
            return None;
        }
        Some(Distribution { best, m: ((u64::from(TOTAL) - n) << 32) / sum })
    }

    /// The frequency of a candidate of score `score`.
    #[inline(always)]
    pub(crate) fn freq(&self, score: i32) -> u32 {
        1 + ((u64::from(weight(self.best, score)) * self.m) >> 32) as u32
    }
}

#[inline(always)]
fn weight(best: i32, score: i32) -> u32 {
    let d = (best.wrapping_sub(score) as u32 as usize).min(MAX_DELTA);
    EXP.get(d).copied().unwrap_or(0)
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
        weights: &FITTED_WEIGHTS,
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

    /// Analyses `pos`, given what `history` remembers of the game: its movable pieces in
    /// canonical order and what their features need.
    #[inline(always)]
    pub fn analyse<'p>(&'p self, pos: &'p Position, history: &RecentMoves) -> Analysis<'p> {
        let t = tables();
        let ctx = Context::new(t, pos, history, &self.book);
        let pieces = Pieces::of(pos);
        Analysis { pos, ctx, pieces }
    }

    /// Fills `freqs[..n]` with the frequency of each of the `n` candidates out of [`TOTAL`]
    /// (see the module docs) and returns `n`; 0 and nothing written if there are none.
    pub fn frequencies(&self, candidates: &FeaturedMoves, freqs: &mut [u16; 256]) -> usize {
        let mut scored = Scored::new(self.weights);
        for (&m, f) in candidates.moves().iter().zip(candidates.features()) {
            scored.push(m, f);
        }
        let n = candidates.len();
        let Some(d) = scored.distribution() else { return 0 };
        for (&s, f) in scored.scores().iter().zip(freqs.iter_mut()) {
            *f = d.freq(s) as u16;
        }
        n
    }
}

/// One movable piece: its moves, or for a king that can only castle, its castling moves.
#[derive(Copy, Clone, Debug)]
struct Entry {
    moves: PieceMoves,
    castling_only: bool,
}

/// The movable pieces of a position in canonical order, and the king's castling moves.
///
/// The pieces stay where the generator put them (`generated`, in generation order); `order`
/// lists them by origin square. Nothing is copied into a second list.
#[derive(Clone, Debug)]
struct Pieces {
    generated: ArrayVec<PieceMoves, 17>,
    /// Indices into `generated`, by origin square: the first `generated.len()` are set.
    order: [u8; 17],
    /// The index in `generated` of a king that can only castle (its castling moves), if any.
    castling_only: Option<u8>,
    castling: Option<PieceMoves>,
    /// The squares of the movable pieces.
    origins: Bitboard,
}

impl Pieces {
    /// No pieces.
    #[inline(always)]
    fn new() -> Pieces {
        Pieces {
            generated: ArrayVec::new(),
            order: [0; 17],
            castling_only: None,
            castling: None,
            origins: Bitboard::EMPTY,
        }
    }

    /// The movable pieces of `pos` in canonical order.
    #[inline(always)]
    fn of(pos: &Position) -> Pieces {
        let mut pieces = Pieces::new();
        pieces.fill(pos);
        pieces
    }

    /// Fills these empty lists with the movable pieces of `pos` in canonical order.
    #[inline(always)]
    fn fill(&mut self, pos: &Position) {
        // Per piece in generation order, then ranked by origin square.
        let pieces = self;
        let mut origins = Bitboard::EMPTY;
        let ours = pos.us();
        let mut king_moves = false;
        pos.visit_moves(Bitboard::FULL, Bitboard::FULL, |moves| {
            if moves.role == Role::King && (moves.to & ours).any() {
                pieces.castling = Some(moves);
                origins.add(moves.from);
            } else if pieces.generated.try_push(moves).is_ok() {
                king_moves |= moves.role == Role::King;
                origins.add(moves.from);
            }
            false
        });
        if let Some(castling) = pieces.castling {
            // A king that can only castle: its castling moves are its entry.
            if !king_moves && pieces.generated.try_push(castling).is_ok() {
                pieces.castling_only = Some((pieces.generated.len() - 1) as u8);
            }
        }
        pieces.origins = origins;
        for (index, moves) in pieces.generated.iter().enumerate() {
            if let Some(slot) = pieces.order.get_mut(Self::rank(origins, moves.from)) {
                *slot = index as u8;
            }
        }
    }

    /// The canonical index of the piece on `from` among the pieces on `origins`: the number
    /// of them on the squares before it.
    #[inline(always)]
    fn rank(origins: Bitboard, from: Square) -> usize {
        (origins & Bitboard((1u64 << (from as u32 & 63)) - 1)).count() as usize
    }

    /// The number of movable pieces.
    #[inline(always)]
    fn count(&self) -> usize {
        self.generated.len()
    }

    /// The movable piece at `i` in canonical order.
    #[inline(always)]
    fn get(&self, i: usize) -> Option<Entry> {
        if i >= self.count() {
            return None;
        }
        self.entry(*self.order.get(i)?)
    }

    /// The movable pieces in canonical order.
    #[inline(always)]
    fn entries(&self) -> impl Iterator<Item = Entry> + '_ {
        let order = self.order.get(..self.count()).unwrap_or(&[]);
        order.iter().filter_map(|&index| self.entry(index))
    }

    /// The piece at `index` in generation order.
    #[inline(always)]
    fn entry(&self, index: u8) -> Option<Entry> {
        let moves = *self.generated.get(index as usize)?;
        Some(Entry { moves, castling_only: self.castling_only == Some(index) })
    }

    /// The castling moves of the piece at `entry`, if it is the king and can castle.
    #[inline(always)]
    fn castles(&self, entry: &Entry) -> Option<PieceMoves> {
        self.castling.filter(|c| c.from == entry.moves.from)
    }

    /// The targets of the piece's moves other than castling.
    #[inline(always)]
    fn targets(entry: &Entry) -> Bitboard {
        if entry.castling_only {
            Bitboard::EMPTY
        } else {
            entry.moves.to
        }
    }

    /// The number of moves of the piece at `entry`.
    #[inline(always)]
    fn len(&self, entry: &Entry) -> usize {
        if entry.castling_only {
            entry.moves.len()
        } else {
            entry.moves.len() + self.castles(entry).map_or(0, |c| c.len())
        }
    }

    /// Calls `f` with each move of the piece at `entry`, in canonical order.
    #[inline(always)]
    fn for_each_move(&self, entry: &Entry, mut f: impl FnMut(Move16)) {
        if !entry.castling_only {
            let moves = &entry.moves;
            for to in moves.to {
                if moves.role == Role::Pawn && Bitboard::BACKRANKS.contains(to) {
                    for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                        f(moves.move_to(to, Some(role)));
                    }
                } else {
                    f(moves.move_to(to, None));
                }
            }
        }
        if let Some(castles) = self.castles(entry) {
            for rook in castles.to {
                f(castles.move_to(rook, None));
            }
        }
    }
}

/// A position analysed by a [`MoveModel`]: its movable pieces in canonical order, and the
/// features of the pieces and of each piece's moves.
pub struct Analysis<'a> {
    pos: &'a Position,
    ctx: Context<'a>,
    pieces: Pieces,
}

impl Analysis<'_> {
    /// The number of pieces with a legal move (0 if the game is over).
    #[inline(always)]
    pub fn piece_count(&self) -> usize {
        self.pieces.count()
    }

    /// The number of legal moves of the piece at `piece` (0 if there is no such piece).
    #[inline(always)]
    pub fn move_count(&self, piece: usize) -> usize {
        self.pieces.get(piece).map_or(0, |e| self.pieces.len(&e))
    }

    /// Hands the movable pieces with their features to `sink`, in canonical order.
    #[inline(always)]
    pub fn pieces<S: Sink>(&self, sink: &mut S) {
        for &index in self.pieces.order.get(..self.pieces.count()).unwrap_or(&[]) {
            if let Some(moves) = self.pieces.generated.get(index as usize) {
                sink.push(Move16::NONE, &self.piece_features(index as usize, moves));
            }
        }
    }

    /// Scores the movable pieces into `scored`, each at its index in canonical order, as
    /// [`Analysis::pieces`] would hand them over. The pieces are scored in generation order,
    /// where they come grouped by role: the dispatch on the role is predictable there.
    #[inline(always)]
    pub(crate) fn score_pieces(&self, scored: &mut Scored<'_>) {
        let origins = self.pieces.origins;
        scored.clear();
        for (index, moves) in self.pieces.generated.iter().enumerate() {
            let rank = Pieces::rank(origins, moves.from);
            scored.put(rank, &self.piece_features(index, moves));
        }
        scored.set_len(self.pieces.count());
    }

    /// The features of the piece at `index` in generation order.
    #[inline(always)]
    fn piece_features(&self, index: usize, moves: &PieceMoves) -> [u16; SLOTS] {
        let (ctx, pieces) = (&self.ctx, &self.pieces);
        match moves.role {
            Role::Pawn => ctx.piece_features::<0>(moves.from, moves.to, false, 0),
            Role::Knight => ctx.piece_features::<1>(moves.from, moves.to, false, 0),
            Role::Bishop => ctx.piece_features::<2>(moves.from, moves.to, false, 0),
            Role::Rook => ctx.piece_features::<3>(moves.from, moves.to, false, 0),
            Role::Queen => ctx.piece_features::<4>(moves.from, moves.to, false, 0),
            Role::King => {
                let castling_only = pieces.castling_only == Some(index as u8);
                let entry = Entry { moves: *moves, castling_only };
                let castles = pieces.castles(&entry).is_some();
                let targets = Pieces::targets(&entry);
                ctx.piece_features::<5>(moves.from, targets, castles, pieces.len(&entry))
            }
        }
    }

    /// Hands the moves of the piece at `piece` (an index among [`Analysis::pieces`]) with
    /// their features to `sink`, in canonical order; nothing if there is no such piece.
    #[inline(always)]
    pub fn moves<S: Sink>(&self, piece: usize, sink: &mut S) {
        let Some(entry) = self.pieces.get(piece) else { return };
        if !entry.castling_only {
            let moves = &entry.moves;
            let (ctx, pos) = (&self.ctx, self.pos);
            match moves.role {
                Role::Pawn => ctx.moves::<S, 0>(pos, moves, sink),
                Role::Knight => ctx.moves::<S, 1>(pos, moves, sink),
                Role::Bishop => ctx.moves::<S, 2>(pos, moves, sink),
                Role::Rook => ctx.moves::<S, 3>(pos, moves, sink),
                Role::Queen => ctx.moves::<S, 4>(pos, moves, sink),
                Role::King => ctx.moves::<S, 5>(pos, moves, sink),
            }
        }
        if let Some(castles) = self.pieces.castles(&entry) {
            self.ctx.castling(&castles, sink);
        }
    }

    /// The index of the piece on `from` among the movable pieces, if it can move.
    #[inline(always)]
    pub fn piece_on(&self, from: Square) -> Option<usize> {
        // Its index is the number of movable pieces on the squares before `from`.
        let origins = self.pieces.origins;
        origins.contains(from).then(|| Pieces::rank(origins, from))
    }

    /// Where `m` is: the index of its piece and its index among that piece's moves; `None`
    /// if it is not a legal move.
    pub fn locate(&self, m: Move16) -> Option<(usize, usize)> {
        let piece = self.pieces.entries().position(|e| e.moves.from == m.from())?;
        let entry = self.pieces.get(piece)?;
        let (mut index, mut found) = (0, None);
        self.pieces.for_each_move(&entry, |c| {
            if c == m && found.is_none() {
                found = Some(index);
            }
            index += 1;
        });
        Some((piece, found?))
    }

    /// The move at `index` among the moves of the piece at `piece`.
    pub fn move_at(&self, piece: usize, index: usize) -> Option<Move16> {
        let entry = self.pieces.get(piece)?;
        let (mut i, mut found) = (0, None);
        self.pieces.for_each_move(&entry, |c| {
            if i == index {
                found = Some(c);
            }
            i += 1;
        });
        found
    }
}

/// The index of `m` among the legal moves of `pos` in canonical order (`None` if it is not
/// legal), and the number of legal moves.
#[inline(always)]
pub(crate) fn canonical_index(pos: &Position, m: Move16) -> (Option<usize>, usize) {
    let pieces = Pieces::of(pos);
    let (mut n, mut found) = (0, None);
    for entry in pieces.entries() {
        if entry.moves.from == m.from() {
            let mut i = n;
            pieces.for_each_move(&entry, |c| {
                if c == m {
                    found = Some(i);
                }
                i += 1;
            });
            n = i;
        } else {
            n += pieces.len(&entry);
        }
    }
    (found, n)
}

/// The number of legal moves of `pos`, and a function giving the move at an index in
/// canonical order.
#[inline(always)]
pub(crate) fn canonical_count(pos: &Position) -> (usize, impl Fn(usize) -> Option<Move16>) {
    let pieces = Pieces::of(pos);
    let n = pieces.entries().map(|e| pieces.len(&e)).sum();
    let at = move |mut index: usize| {
        for entry in pieces.entries() {
            let len = pieces.len(&entry);
            if index < len {
                let (mut i, mut found) = (0, None);
                pieces.for_each_move(&entry, |c| {
                    if i == index {
                        found = Some(c);
                    }
                    i += 1;
                });
                return found;
            }
            index -= len;
        }
        None
    };
    (n, at)
}

/// The legal moves of `pos` in canonical order (see the module docs), into `out`.
pub fn canonical_moves(pos: &Position, out: &mut MoveList) {
    out.clear();
    let pieces = Pieces::of(pos);
    for entry in pieces.entries() {
        pieces.for_each_move(&entry, |m| {
            let _ = out.try_push(m);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chessbits_notation::epd::Epd;

    /// Every position of the perft suites and one ply below each.
    fn positions() -> Vec<Position> {
        let suites = ["standard", "perftsuite", "chess960", "tricky"].map(chessbits_testkit::suite);
        let mut out = Vec::new();
        for line in suites.iter().flat_map(|s| s.lines()).filter(|l| !l.trim().is_empty()) {
            let pos = line.parse::<Epd>().expect("suite").into_position().expect("legal");
            out.push(pos);
            for m in pos.legal_moves() {
                out.push(pos.played_unchecked(m));
            }
        }
        out
    }

    #[test]
    fn pieces_scored_in_generation_order_match_the_canonical_sink() {
        let model = MoveModel::FITTED;
        let (mut canonical, mut fast) =
            (Scored::new(model.weights()), Scored::new(model.weights()));
        let mut history = RecentMoves::new();
        for pos in positions() {
            // Some history, so that the last-move features are not all zero.
            if let Some(m) = pos.legal_moves().first().copied() {
                history.push(m);
            }
            let analysis = model.analyse(&pos, &history);
            canonical.clear();
            analysis.pieces(&mut canonical);
            analysis.score_pieces(&mut fast);
            assert_eq!(fast.scores(), canonical.scores(), "{pos:?}");
            assert_eq!(fast.len(), analysis.piece_count());
            assert_eq!(fast.distribution().map(|d| d.m), canonical.distribution().map(|d| d.m));
        }
    }

    #[test]
    fn canonical_order_is_by_origin_then_target_with_castling_last() {
        let mut list = MoveList::new();
        let mut castles = 0;
        for pos in positions() {
            canonical_moves(&pos, &mut list);
            let mut legal = pos.legal_moves();
            assert_eq!(list.len(), legal.len());
            // The same moves, in the documented order.
            let key = |m: &Move16| {
                let promotion = m.promotion().map_or(0, |r| 4 - r as u32);
                (m.from() as u32, m.is_castling() as u32, m.to() as u32, promotion)
            };
            legal.sort_by_key(key);
            assert_eq!(&list[..], &legal[..]);
            castles += list.iter().filter(|m| m.is_castling()).count();
            // The model's two steps list the same moves in the same order.
            let model = MoveModel::FITTED;
            let analysis = model.analyse(&pos, &RecentMoves::new());
            let mut moves = Vec::new();
            for piece in 0..analysis.piece_count() {
                let mut candidates = FeaturedMoves::new();
                analysis.moves(piece, &mut candidates);
                assert_eq!(candidates.len(), analysis.move_count(piece));
                for (i, &m) in candidates.moves().iter().enumerate() {
                    assert_eq!(analysis.locate(m), Some((piece, i)));
                    assert_eq!(analysis.move_at(piece, i), Some(m));
                }
                moves.extend_from_slice(candidates.moves());
            }
            assert_eq!(&moves[..], &list[..]);
        }
        assert!(castles > 100, "{castles}");
    }

    #[test]
    fn features_are_in_range_and_frequencies_fill_the_total() {
        let model = MoveModel::FITTED;
        let mut freqs = [0u16; 256];
        let mut history = RecentMoves::new();
        for (i, pos) in positions().into_iter().enumerate() {
            // Some history: a move of the side that just moved, when there is one.
            if i % 3 == 0 {
                history = RecentMoves::new();
            }
            let analysis = model.analyse(&pos, &history);
            let mut lists = vec![FeaturedMoves::new()];
            analysis.pieces(&mut lists[0]);
            for piece in 0..analysis.piece_count() {
                let mut c = FeaturedMoves::new();
                analysis.moves(piece, &mut c);
                lists.push(c);
            }
            for list in &lists {
                for f in list.features().iter().flatten() {
                    assert!((*f as usize) < FEATURE_COUNT, "{f}");
                }
                let n = model.frequencies(list, &mut freqs);
                assert_eq!(n, list.len());
                if n == 0 {
                    assert!(pos.legal_moves().is_empty());
                    continue;
                }
                let total: u32 = freqs[..n].iter().map(|&f| u32::from(f)).sum();
                assert!(freqs[..n].iter().all(|&f| f >= 1));
                assert!(total <= TOTAL && total + n as u32 >= TOTAL, "{total} {n}");
            }
            if let Some(&m) = pos.legal_moves().first() {
                history.push(m);
            }
        }
    }

    #[test]
    fn books_are_checked() {
        let ok = Book::new(&[1, 5], &[0, 1, 3], &[0x1c, 0x2d, 0x3e], &[0, 3, 15]);
        assert_eq!(ok.map(|b| b.len()), Some(2));
        // Unsorted keys, a bucket out of range, offsets that do not fit.
        assert!(Book::new(&[5, 1], &[0, 1, 3], &[0x1c, 0x2d, 0x3e], &[0, 3, 15]).is_none());
        assert!(Book::new(&[1, 5], &[0, 1, 3], &[0x1c, 0x2d, 0x3e], &[0, 3, 16]).is_none());
        assert!(Book::new(&[1, 5], &[0, 2, 1], &[0x1c, 0x2d, 0x3e], &[0, 3, 15]).is_none());
        assert!(Book::new(&[1, 5], &[0, 1, 4], &[0x1c, 0x2d, 0x3e], &[0, 3, 15]).is_none());
        assert!(Book::EMPTY.is_empty());
        // The fitted book is a valid one, and the start position is in it.
        let fitted = MoveModel::FITTED.book();
        assert!(Book::new(fitted.keys, fitted.offsets, fitted.moves, fitted.buckets).is_some());
        assert!(!fitted.lookup(Position::new().key()).0.is_empty());
    }

    #[test]
    fn exp_table() {
        assert_eq!(EXP[0], 1 << 24);
        for (d, &e) in EXP.iter().enumerate() {
            let exact = (16_777_216.0 * (-(d as f64) / 32.0).exp()).round() as u32;
            assert_eq!(e, exact, "{d}");
        }
    }
}
