//! The generator at two widths: [`Scalar`], a square at a time, and [`Wide`], in AVX-512
//! registers, chosen at run time. (A third, [`crate::avx2::Avx2`], serves CPUs with AVX2 but
//! without AVX-512: the attack map and the count only.)
//!
//! A generator's sink takes a [`Width`]. [`Wide`] does three things faster where the CPU has
//! AVX-512 F, BW, VBMI2 and VPOPCNTDQ:
//!
//! - **Writing a target set.** The scalar writer spends one loop trip per move (find the lowest
//!   target, build the move, store it, count it), and the exit of each short loop is a branch
//!   whose trip count changes from set to set. `vpcompressb` packs the numbers of the set's
//!   squares into the low bytes of a register, in square order; widened to 16-bit lanes and
//!   ORed with the origin and the flag nibble they are the set's [`Move16`]s, and one 64-byte
//!   store puts 32 lanes at the end of the list while the length grows by the set's size.
//!   Lanes past the size land in the list's spare room and are never read (the writer stores
//!   only where 32 lanes fit, and falls back to [`Scalar`] otherwise). The capture bit goes to
//!   the lanes whose square is an enemy's: that set of lanes is `pext(captures, targets)`. An
//!   empty set is skipped with a branch: a compress and a store for nothing cost more than
//!   the branch's mispredictions (pawn captures and blocked pieces have none often).
//! - **The enemy's attack map** (knights and sliders) in eight 64-bit lanes at once: one lane
//!   per slider direction, filled by Kogge-Stone (three doubling steps, each a rotation by a
//!   per-lane count with the wrapped squares masked off), one lane per knight jump, and an OR
//!   across the lanes. The generator reads king moves and castling off it.
//! - **Counting knights' and sliders' moves set-wise**: the popcounts of the same eight
//!   direction fills and eight jump sets, taken on the target squares, added across the lanes
//!   ([`Width::move_count`] says why the sum is exact).
//!
//! Both widths give the same moves in the same order and the same counts (tests compare them
//! on every position four plies from the start, and the map and the count with the magic
//! tables on random boards). The wide code is compiled for the AVX-512 level of
//! `chessbits_bitboard::isa`: the copies of the generator that use `Wide` by its
//! `avx512_fn!`, the `#[inline]` helpers here by an attribute spelling out its
//! `AVX512_FEATURES` (checked by `tests/feature_levels.rs`). [`Wide::detect`] asks that
//! level's detection (one load and one test once known), and the copies are called only with
//! a `Wide` in hand, the proof that the CPU has the features.
//!
//! Valgrind does not emulate AVX-512 and hides it from detection, so instruction counts taken
//! with cachegrind measure the [`Scalar`] path.

use chessbits_bitboard::{Bitboard, Square};
use chessbits_move::{Move16, MoveKind, MoveList, MAX_MOVES};

/// The width a generator's sink works at: how it writes a set of moves into a list
/// ([`Scalar`] move by move, [`Wide`] the whole set at once; the same moves in the same order),
/// and whether it finds the enemy's attack map and counts knights' and sliders' moves
/// set-wise.
pub(crate) trait Width: Copy {
    /// `true` if [`Width::attack_map`] and [`Width::move_count`] give answers.
    const SET_WISE: bool;
    /// `true` if the generator should find the enemy's attack map by table lookups, one piece
    /// at a time, instead of [`Width::attack_map`] ([`FewPieces`]).
    #[inline(always)]
    fn map_by_tables(self) -> bool {
        false
    }

    /// Appends the moves of the piece on `from` to each square of `to`; those onto a square of
    /// `theirs` are captures.
    fn piece(self, list: &mut MoveList, from: Square, to: Bitboard, theirs: Bitboard);
    /// Appends pawn moves of one `kind` (quiet, double push or capture) to each square of `to`,
    /// each from the square `step` below it.
    fn pawns(self, list: &mut MoveList, to: Bitboard, step: i32, kind: MoveKind);

    /// Every square that `knights` and the sliders `diagonal` (bishop-wise) and `straight`
    /// (rook-wise) attack given `occupied`, if this width's CPU features find the whole map
    /// cheaply ([`Wide`]: without a table lookup or a branch); `None` for [`Scalar`], whose
    /// generator then tests the king's few squares one by one.
    #[inline(always)]
    fn attack_map(
        self,
        _knights: Bitboard,
        _diagonal: Bitboard,
        _straight: Bitboard,
        _occupied: Bitboard,
    ) -> Option<Bitboard> {
        None
    }

    /// The number of moves of `knights` and of the sliders `diagonal` and `straight` onto
    /// `target` given `occupied`, counted set-wise if this width's CPU features do it cheaply
    /// ([`Wide`]); `None` for [`Scalar`], whose counter then adds one popcount per piece.
    ///
    /// Counting set-wise is exact: in one direction a square is attacked by at most one of
    /// our sliders (the first piece behind it blocks the others), and in one knight jump by at
    /// most one knight, so the popcounts of the eight direction sets and the eight jump sets,
    /// each taken on `target`, add up to the pieces' moves.
    #[inline(always)]
    fn move_count(
        self,
        _knights: Bitboard,
        _diagonal: Bitboard,
        _straight: Bitboard,
        _occupied: Bitboard,
        _target: Bitboard,
    ) -> Option<u64> {
        None
    }
}

/// The plain width: one loop trip per move written, one popcount per piece counted.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Scalar;

impl Width for Scalar {
    const SET_WISE: bool = false;

    #[inline(always)]
    fn piece(self, list: &mut MoveList, from: Square, to: Bitboard, theirs: Bitboard) {
        // One pass in square order; the capture bit of the flag nibble read off `theirs`.
        let quiet = (from as u16) << 6 | MoveKind::Quiet.nibble() << 12;
        let capture_bit = MoveKind::Capture.nibble() << 12;
        list.extend(to.squares().map(|to| {
            let capture = if theirs.contains(to) { capture_bit } else { 0 };
            Move16::from_bits(quiet | to as u16 | capture)
        }));
    }

    #[inline(always)]
    fn pawns(self, list: &mut MoveList, to: Bitboard, step: i32, kind: MoveKind) {
        let from = |to: Square| Square::new((to as i32 - step) as u32);
        list.extend(to.squares().map(|to| Move16::new(from(to), to, kind)));
    }
}

/// `W`, but where its flag (the second field) is set, the enemy's attack map and our pieces'
/// move count come from table lookups, a piece at a time, instead of `W`'s set-wise
/// [`Width::attack_map`] and [`Width::move_count`]. With few knights and sliders (endgames) the
/// lookups are cheaper: the set-wise answer comes through a long chain of dependent vector
/// instructions. The perft walk decides once for all the children of a node (a move adds a
/// knight or slider only by promotion, and the choice changes the speed, never the answer).
#[derive(Copy, Clone, Debug)]
pub(crate) struct FewPieces<W>(pub(crate) W, pub(crate) bool);

/// The most knights and sliders a side may have for [`FewPieces`]' lookups to pay (measured on
/// position 3, a rook each, and on the standard positions, where nothing changed).
pub(crate) const FEW_PIECES: u32 = 2;

impl<W: Width> Width for FewPieces<W> {
    const SET_WISE: bool = W::SET_WISE;

    #[inline(always)]
    fn map_by_tables(self) -> bool {
        self.1
    }

    #[inline(always)]
    fn piece(self, list: &mut MoveList, from: Square, to: Bitboard, theirs: Bitboard) {
        self.0.piece(list, from, to, theirs);
    }

    #[inline(always)]
    fn pawns(self, list: &mut MoveList, to: Bitboard, step: i32, kind: MoveKind) {
        self.0.pawns(list, to, step, kind);
    }

    #[inline(always)]
    fn attack_map(
        self,
        knights: Bitboard,
        diagonal: Bitboard,
        straight: Bitboard,
        occupied: Bitboard,
    ) -> Option<Bitboard> {
        self.0.attack_map(knights, diagonal, straight, occupied)
    }

    #[inline(always)]
    fn move_count(
        self,
        knights: Bitboard,
        diagonal: Bitboard,
        straight: Bitboard,
        occupied: Bitboard,
        target: Bitboard,
    ) -> Option<u64> {
        if self.1 {
            return None;
        }
        self.0.move_count(knights, diagonal, straight, occupied, target)
    }
}

/// The set-wise methods of a [`Width`] whose attack map and move count are `$x86`'s, compiled
/// for the width's features: written once for [`Wide`] and the AVX2 width, whose kernels differ
/// (eight lanes, four lanes) but whose calls into them do not.
macro_rules! set_wise_kernels {
    ($x86:ident) => {
        #[inline(always)]
        fn attack_map(
            self,
            knights: Bitboard,
            diagonal: Bitboard,
            straight: Bitboard,
            occupied: Bitboard,
        ) -> Option<Bitboard> {
            #[allow(unsafe_code, reason = "calls code compiled for CPU features; see Safety")]
            // Safety: a value of this width exists only where its `detect` found the features.
            Some(unsafe { $x86::attack_map(knights, diagonal, straight, occupied) })
        }

        #[inline(always)]
        fn move_count(
            self,
            knights: Bitboard,
            diagonal: Bitboard,
            straight: Bitboard,
            occupied: Bitboard,
            target: Bitboard,
        ) -> Option<u64> {
            #[allow(unsafe_code, reason = "calls code compiled for CPU features; see Safety")]
            // Safety: as in `attack_map`.
            Some(unsafe { $x86::move_count(knights, diagonal, straight, occupied, target) })
        }
    };
}
pub(crate) use set_wise_kernels;

/// The AVX-512 width: a target set written at a time, the attack map and the knights' and
/// sliders' count in eight lanes at once. A value exists only where the CPU has the wide
/// features ([`Wide::detect`]): holding one is the proof that the code compiled for them may
/// run.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Wide(());

impl Wide {
    /// The wide width, if this CPU has the wide features. After the first call, one load and
    /// one test. Always `None` off x86-64.
    #[inline]
    pub(crate) fn detect() -> Option<Wide> {
        chessbits_bitboard::isa::has_avx512().then_some(Wide(()))
    }
}

#[cfg(target_arch = "x86_64")]
impl Width for Wide {
    const SET_WISE: bool = true;

    #[inline(always)]
    fn piece(self, list: &mut MoveList, from: Square, to: Bitboard, theirs: Bitboard) {
        // An empty set skipped (see the module docs); a piece has at most 27 targets, so its
        // moves fit in the 32 lanes of one store.
        if to.is_empty() {
            return;
        }
        if list.len() > MAX_MOVES - 32 {
            return Scalar.piece(list, from, to, theirs);
        }
        #[allow(unsafe_code, reason = "calls code compiled for CPU features; see Safety")]
        // Safety: a `Wide` exists only where `Wide::detect` found the features, and the list
        // has room for the 32 lanes the call stores.
        unsafe {
            x86::piece(list, from, to, theirs);
        }
    }

    #[inline(always)]
    fn pawns(self, list: &mut MoveList, to: Bitboard, step: i32, kind: MoveKind) {
        // An empty set skipped; pawns moving one way land on at most 8 squares.
        if to.is_empty() {
            return;
        }
        if list.len() > MAX_MOVES - 32 {
            return Scalar.pawns(list, to, step, kind);
        }
        #[allow(unsafe_code, reason = "calls code compiled for CPU features; see Safety")]
        // Safety: as in `piece`.
        unsafe {
            x86::pawns(list, to, step, kind);
        }
    }

    set_wise_kernels!(x86);
}

/// Off x86-64 no `Wide` can be made ([`Wide::detect`] is always `None`); the width only has to
/// exist for the generic code.
#[cfg(not(target_arch = "x86_64"))]
impl Width for Wide {
    const SET_WISE: bool = true;

    fn piece(self, list: &mut MoveList, from: Square, to: Bitboard, theirs: Bitboard) {
        Scalar.piece(list, from, to, theirs);
    }

    fn pawns(self, list: &mut MoveList, to: Bitboard, step: i32, kind: MoveKind) {
        Scalar.pawns(list, to, step, kind);
    }
}

/// The vector code of [`Wide`].
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code, reason = "the list's spare room is written through a raw pointer")]
mod x86 {
    use core::arch::x86_64::{
        __m512i, _mm512_add_epi64, _mm512_and_si512, _mm512_castsi512_si256, _mm512_cvtepu8_epi16,
        _mm512_loadu_si512, _mm512_mask_add_epi16, _mm512_mask_blend_epi64,
        _mm512_maskz_compress_epi8, _mm512_or_si512, _mm512_popcnt_epi64, _mm512_reduce_add_epi64,
        _mm512_reduce_or_epi64, _mm512_rolv_epi64, _mm512_set1_epi16, _mm512_set1_epi64,
        _mm512_slli_epi16, _mm512_storeu_si512, _mm512_sub_epi16, _pext_u64,
    };

    use chessbits_bitboard::{Bitboard, Square};
    use chessbits_move::{MoveKind, MoveList, MAX_MOVES};

    /// The square numbers 0 to 63, one a byte: the lanes `vpcompressb` picks from.
    static SQUARES: [u8; 64] = {
        let mut squares = [0; 64];
        let mut i = 0;
        while i < 64 {
            squares[i] = i as u8;
            i += 1;
        }
        squares
    };

    /// The squares of `to`, in order, as 16-bit lanes (the lanes past `to.count()` are zero).
    #[target_feature(
        enable = "popcnt,lzcnt,bmi1,bmi2,avx512f,avx512bw,avx512vbmi2,avx512vpopcntdq"
    )]
    #[inline]
    fn squares_of(to: Bitboard) -> __m512i {
        // Safety: `SQUARES` is 64 bytes, the size of the unaligned load.
        let all = unsafe { _mm512_loadu_si512(SQUARES.as_ptr().cast()) };
        let packed = _mm512_maskz_compress_epi8(to.0, all);
        _mm512_cvtepu8_epi16(_mm512_castsi512_si256(packed))
    }

    /// Stores the 32 lanes of `moves` at the end of `list` and adds `count` (at most 32) to
    /// its length.
    ///
    /// # Safety
    /// The list must have room for 32 more moves, and the first `count` lanes must be moves.
    #[target_feature(
        enable = "popcnt,lzcnt,bmi1,bmi2,avx512f,avx512bw,avx512vbmi2,avx512vpopcntdq"
    )]
    #[inline]
    unsafe fn append(list: &mut MoveList, moves: __m512i, count: usize) {
        let len = list.len();
        debug_assert!(len + 32 <= MAX_MOVES && count <= 32);
        // Safety: `Move16` is a transparent `u16`, and the caller keeps the 32 lanes within
        // the list's buffer; `count` of them are moves, so the new length covers written moves
        // only.
        unsafe {
            _mm512_storeu_si512(list.as_mut_ptr().add(len).cast(), moves);
            list.set_len(len + count);
        }
    }

    /// [`super::Width::piece`]: the moves of the piece on `from` to the squares of `to`.
    ///
    /// # Safety
    /// The list must have room for 32 more moves, and `to` at most 32 squares.
    #[target_feature(
        enable = "popcnt,lzcnt,bmi1,bmi2,avx512f,avx512bw,avx512vbmi2,avx512vpopcntdq"
    )]
    #[inline]
    pub(super) unsafe fn piece(list: &mut MoveList, from: Square, to: Bitboard, theirs: Bitboard) {
        let quiet = (from as u16) << 6 | MoveKind::Quiet.nibble() << 12;
        let moves = _mm512_or_si512(squares_of(to), _mm512_set1_epi16(quiet as i16));
        // Lane i is a capture if the i-th square of `to` is one of `theirs`.
        let captures = _pext_u64((to & theirs).0, to.0) as u32;
        let capture_bit = (MoveKind::Capture.nibble() << 12) as i16;
        let moves = _mm512_mask_add_epi16(moves, captures, moves, _mm512_set1_epi16(capture_bit));
        // Safety: the caller's.
        unsafe { append(list, moves, to.count() as usize) }
    }

    /// [`super::Width::pawns`]: pawn moves of `kind` to the squares of `to`, each from the
    /// square `step` below it.
    ///
    /// # Safety
    /// The list must have room for 32 more moves, and `to` at most 32 squares.
    #[target_feature(
        enable = "popcnt,lzcnt,bmi1,bmi2,avx512f,avx512bw,avx512vbmi2,avx512vpopcntdq"
    )]
    #[inline]
    pub(super) unsafe fn pawns(list: &mut MoveList, to: Bitboard, step: i32, kind: MoveKind) {
        let squares = squares_of(to);
        // Every square of `to` is `step` above a square of the board, so the origins are
        // 0 to 63 in the lanes that count.
        let origins =
            _mm512_slli_epi16::<6>(_mm512_sub_epi16(squares, _mm512_set1_epi16(step as i16)));
        let flag = _mm512_set1_epi16((kind.nibble() << 12) as i16);
        let moves = _mm512_or_si512(_mm512_or_si512(squares, origins), flag);
        // Safety: the caller's.
        unsafe { append(list, moves, to.count() as usize) }
    }

    /// The squares a step may enter, given the `files` and `ranks` that a step off the board
    /// would wrap around to: all the others.
    const fn entering(files: u64, ranks: u64) -> u64 {
        !(files | ranks)
    }

    const FILE_A: u64 = Bitboard::FILE_A.0;
    const FILE_B: u64 = Bitboard::FILE_A.0 << 1;
    const FILE_G: u64 = Bitboard::FILE_A.0 << 6;
    const FILE_H: u64 = Bitboard::FILE_A.0 << 7;
    const RANK_1: u64 = Bitboard::RANK_1.0;
    const RANK_2: u64 = Bitboard::RANK_1.0 << 8;
    const RANK_7: u64 = Bitboard::RANK_1.0 << 48;
    const RANK_8: u64 = Bitboard::RANK_1.0 << 56;

    /// The eight slider directions, one a 64-bit lane: north, south, east, west (rook-wise),
    /// then north-east, north-west, south-east, south-west (bishop-wise). A step is a left
    /// rotation by this many bits (a step down or left rotates by 64 minus its size)...
    static SLIDER_STEPS: [u64; 8] = [8, 56, 1, 63, 9, 7, 57, 55];
    /// ... and the squares a step may enter: the others would have wrapped around an edge.
    static SLIDER_ENTERS: [u64; 8] = [
        entering(0, RANK_1),
        entering(0, RANK_8),
        entering(FILE_A, 0),
        entering(FILE_H, 0),
        entering(FILE_A, RANK_1),
        entering(FILE_H, RANK_1),
        entering(FILE_A, RANK_8),
        entering(FILE_H, RANK_8),
    ];
    /// The eight knight jumps as left rotations: up two and right one (17), up two and left
    /// one (15), up one and right two (10), up one and left two (6), then the same downward.
    static KNIGHT_STEPS: [u64; 8] = [17, 15, 10, 6, 64 - 6, 64 - 10, 64 - 15, 64 - 17];
    /// The squares each jump may enter.
    static KNIGHT_ENTERS: [u64; 8] = [
        entering(FILE_A, RANK_1 | RANK_2),
        entering(FILE_H, RANK_1 | RANK_2),
        entering(FILE_A | FILE_B, RANK_1),
        entering(FILE_G | FILE_H, RANK_1),
        entering(FILE_A | FILE_B, RANK_8),
        entering(FILE_G | FILE_H, RANK_8),
        entering(FILE_A, RANK_7 | RANK_8),
        entering(FILE_H, RANK_7 | RANK_8),
    ];

    /// Loads one of the eight-lane tables above.
    #[target_feature(
        enable = "popcnt,lzcnt,bmi1,bmi2,avx512f,avx512bw,avx512vbmi2,avx512vpopcntdq"
    )]
    #[inline]
    fn lanes(table: &[u64; 8]) -> __m512i {
        // Safety: the table is 64 bytes, the size of the unaligned load.
        unsafe { _mm512_loadu_si512(table.as_ptr().cast()) }
    }

    /// The squares the sliders `diagonal` and `straight` attack given `occupied`, one
    /// direction a lane (in [`SLIDER_STEPS`]' order). Each lane fills by Kogge-Stone: three
    /// doubling steps spread the sliders over the empty squares, a last step adds the squares
    /// one beyond (the first blocker included).
    #[target_feature(
        enable = "popcnt,lzcnt,bmi1,bmi2,avx512f,avx512bw,avx512vbmi2,avx512vpopcntdq"
    )]
    #[inline]
    fn slides(diagonal: Bitboard, straight: Bitboard, occupied: Bitboard) -> __m512i {
        let step = lanes(&SLIDER_STEPS);
        let enter = lanes(&SLIDER_ENTERS);
        let sliders = _mm512_mask_blend_epi64(
            0xf0,
            _mm512_set1_epi64(straight.0 as i64),
            _mm512_set1_epi64(diagonal.0 as i64),
        );
        // `fill`: the sliders and the empty squares reached so far; `open`: the empty squares
        // from which the next (doubled) step may go on.
        let mut fill = sliders;
        let mut open = _mm512_and_si512(_mm512_set1_epi64(!occupied.0 as i64), enter);
        let mut by = step;
        for _ in 0..2 {
            fill = _mm512_or_si512(fill, _mm512_and_si512(open, _mm512_rolv_epi64(fill, by)));
            open = _mm512_and_si512(open, _mm512_rolv_epi64(open, by));
            by = _mm512_add_epi64(by, by);
        }
        fill = _mm512_or_si512(fill, _mm512_and_si512(open, _mm512_rolv_epi64(fill, by)));
        _mm512_and_si512(_mm512_rolv_epi64(fill, step), enter)
    }

    /// The squares `knights` jump to, one jump a lane (in [`KNIGHT_STEPS`]' order).
    #[target_feature(
        enable = "popcnt,lzcnt,bmi1,bmi2,avx512f,avx512bw,avx512vbmi2,avx512vpopcntdq"
    )]
    #[inline]
    fn jumps(knights: Bitboard) -> __m512i {
        _mm512_and_si512(
            _mm512_rolv_epi64(_mm512_set1_epi64(knights.0 as i64), lanes(&KNIGHT_STEPS)),
            lanes(&KNIGHT_ENTERS),
        )
    }

    /// [`super::Width::attack_map`]: the squares `knights`, `diagonal` and `straight` attack
    /// given `occupied`: one OR across the lanes of [`slides`] and [`jumps`].
    #[target_feature(
        enable = "popcnt,lzcnt,bmi1,bmi2,avx512f,avx512bw,avx512vbmi2,avx512vpopcntdq"
    )]
    #[inline]
    pub(super) fn attack_map(
        knights: Bitboard,
        diagonal: Bitboard,
        straight: Bitboard,
        occupied: Bitboard,
    ) -> Bitboard {
        let attacks = _mm512_or_si512(slides(diagonal, straight, occupied), jumps(knights));
        Bitboard(_mm512_reduce_or_epi64(attacks) as u64)
    }

    /// [`super::Width::move_count`]: the moves of `knights`, `diagonal` and `straight` onto
    /// `target` given `occupied`: the popcounts of the lanes of [`slides`] and [`jumps`] on
    /// `target`, added across the lanes.
    #[target_feature(
        enable = "popcnt,lzcnt,bmi1,bmi2,avx512f,avx512bw,avx512vbmi2,avx512vpopcntdq"
    )]
    #[inline]
    pub(super) fn move_count(
        knights: Bitboard,
        diagonal: Bitboard,
        straight: Bitboard,
        occupied: Bitboard,
        target: Bitboard,
    ) -> u64 {
        let target = _mm512_set1_epi64(target.0 as i64);
        let slides =
            _mm512_popcnt_epi64(_mm512_and_si512(slides(diagonal, straight, occupied), target));
        let jumps = _mm512_popcnt_epi64(_mm512_and_si512(jumps(knights), target));
        _mm512_reduce_add_epi64(_mm512_add_epi64(slides, jumps)) as u64
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use chessbits_state::Position;

    use super::*;
    use crate::gen::Gen;
    use crate::tables::tables;

    /// The list `writer` appends to `list` for every legal move of `pos`.
    pub(crate) fn written<W: Width>(pos: &Position, mut list: MoveList, writer: W) -> MoveList {
        Gen::new(tables(), pos).push_moves_with(Bitboard::FULL, Bitboard::FULL, &mut list, writer);
        list
    }

    /// Every position `depth` plies from `pos`, `pos` included, handed to `check`.
    pub(crate) fn walk(pos: &Position, depth: u32, check: &mut impl FnMut(&Position)) {
        check(pos);
        if depth > 0 {
            for m in written(pos, MoveList::new(), Scalar) {
                walk(&pos.played_unchecked(m), depth - 1, check);
            }
        }
    }

    /// The wide writer writes the same moves in the same order as the scalar one, and both
    /// counters (the wide one set-wise) count as many; so do the wide writer and counter with
    /// [`FewPieces`]' table lookups. On every position four plies from the start (captures,
    /// checks, pins, double pushes); the suites' positions (castling, promotions, en passant)
    /// are compared in `crates/chessbits/tests/perft_suites.rs`, through `legal_moves`.
    #[test]
    fn wide_and_scalar_writers_agree() {
        let Some(wide) = Wide::detect() else {
            eprintln!("this CPU lacks the wide features (AVX-512 VBMI2, VPOPCNTDQ): the wide writer is not tested here");
            return;
        };
        let mut positions = 0;
        walk(&Position::new(), 4, &mut |pos| {
            let listed = written(pos, MoveList::new(), wide);
            assert_eq!(listed, written(pos, MoveList::new(), Scalar));
            assert_eq!(listed, written(pos, MoveList::new(), FewPieces(wide, true)));
            let gen = Gen::new(tables(), pos);
            assert_eq!(gen.count_with(wide), listed.len() as u64);
            assert_eq!(gen.count_with(Scalar), listed.len() as u64);
            assert_eq!(gen.count_with(FewPieces(wide, true)), listed.len() as u64);
            positions += 1;
        });
        assert_eq!(positions, 206_604);
    }

    /// The attack map of knights and sliders is the union of the magic tables' attacks, and
    /// their set-wise move count the sum of each piece's, on random boards of every density
    /// (the sliders and knights drawn among the occupied squares, so each one blocks the
    /// others).
    #[test]
    fn wide_attack_map_and_count_match_the_tables() {
        let Some(wide) = Wide::detect() else {
            eprintln!("this CPU lacks the wide features (AVX-512 VBMI2, VPOPCNTDQ): the wide attack map is not tested here");
            return;
        };
        map_and_count_match_the_tables(wide);
    }

    /// Checks `width`'s attack map of knights and sliders against the union of the magic
    /// tables' attacks, and its set-wise move count against the sum of each piece's, on
    /// random boards of every density (the sliders and knights drawn among the occupied
    /// squares, so each one blocks the others).
    pub(crate) fn map_and_count_match_the_tables<W: Width>(width: W) {
        let t = tables();
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut random = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for round in 0..20_000 {
            // Density from about 1/8 to about 7/8 of the board.
            let occupied = match round % 4 {
                0 => random() & random() & random(),
                1 => random() & random(),
                2 => random(),
                _ => random() | random(),
            };
            let (a, b) = (random(), random());
            let knights = Bitboard(occupied & a & b);
            let diagonal = Bitboard(occupied & a & !b);
            let straight = Bitboard(occupied & !a & b & random());
            let occupied = Bitboard(occupied);
            let mut expected = Bitboard::EMPTY;
            for sq in knights {
                expected |= t.knight(sq);
            }
            for sq in diagonal {
                expected |= t.bishop(sq, occupied);
            }
            for sq in straight {
                expected |= t.rook(sq, occupied);
            }
            let found = width.attack_map(knights, diagonal, straight, occupied);
            assert_eq!(found, Some(expected), "{occupied:?} {knights:?} {diagonal:?} {straight:?}");

            // The same pieces' moves onto a random target, counted set-wise, against one
            // popcount per piece.
            let target = Bitboard(random() | random());
            let mut moves = 0;
            for sq in knights {
                moves += (t.knight(sq) & target).count() as u64;
            }
            for sq in diagonal {
                moves += (t.bishop(sq, occupied) & target).count() as u64;
            }
            for sq in straight {
                moves += (t.rook(sq, occupied) & target).count() as u64;
            }
            let counted = width.move_count(knights, diagonal, straight, occupied, target);
            assert_eq!(counted, Some(moves), "{occupied:?} {target:?}");
        }
    }

    /// Near a full list the wide writer falls back to the scalar one, and never writes past the
    /// list: lists that already hold from 190 moves up to as many as leave room for exactly the
    /// position's moves get the same moves appended (the writing crosses the point, 32 moves
    /// from the end, where the wide writer stops).
    #[test]
    fn wide_writer_stays_within_the_list() {
        let Some(wide) = Wide::detect() else {
            eprintln!("this CPU lacks the wide features (AVX-512 VBMI2, VPOPCNTDQ): the wide writer is not tested here");
            return;
        };
        // An Italian opening: knights, sliders and pawns with targets.
        let mut pos = Position::new();
        for uci in ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5"] {
            let m = written(&pos, MoveList::new(), Scalar)
                .into_iter()
                .find(|m| pos.uci(*m).to_string() == uci)
                .unwrap();
            pos.play_unchecked(m);
        }
        let moves = written(&pos, MoveList::new(), Scalar);
        assert!(moves.len() >= 30, "{}", moves.len());
        for filled in 190..=MAX_MOVES - moves.len() {
            let mut prefix = MoveList::new();
            prefix.extend((0..filled).map(|i| Move16::from_bits(i as u16 * 65)));
            let from_wide = written(&pos, prefix.clone(), wide);
            let from_scalar = written(&pos, prefix.clone(), Scalar);
            assert_eq!(from_wide, from_scalar, "{filled} moves in the list before");
            assert_eq!(from_wide[..filled], prefix[..], "the moves before are kept");
            assert_eq!(from_wide[filled..], moves[..]);
        }
    }
}
