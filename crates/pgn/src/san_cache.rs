//! The cache of move tokens already read, and the fast reader of the common SAN forms that
//! fills it.

use chessbits_bitboard::{File, Rank, Role, Square};
use chessbits_notation::san::{San, SanPlus, Suffix};
use chessbits_state::CastlingSide;

/// The moves read last, by their text: most games use a few thousand distinct move tokens,
/// and looking one up costs less than reading it again.
///
/// It starts small, so that reading one short game costs little, and grows (to 8,192 slots,
/// 128 KiB) as misses show that more distinct tokens come by. A reader's cache outlives the
/// reader: dropped, it is kept for the next reader made on the same thread
/// ([`SanCache::warm`]), since a token's move never changes. Read after read (a Python loop over
/// files), the second reader starts with the tokens the first one learnt instead of
/// allocating and filling a new table.
#[derive(Default)]
pub(crate) struct SanCache {
    /// Direct-mapped on a hash of the key; the key is the token's bytes with its length in the
    /// top byte (tokens here are at most 7 bytes), 0 for an empty slot.
    slots: Vec<(u64, SanPlus)>,
    /// `64 - log2(slots.len())`.
    shift: u32,
    /// Misses since the cache last grew.
    misses: usize,
}

/// A cache's table and shift, as [`SPARE`] keeps them: plain parts, with no [`Drop`] of
/// their own, so that freeing the spare at thread exit cannot reach back into it.
type Parts = (Vec<(u64, SanPlus)>, u32);

thread_local! {
    /// The table of the last reader's cache dropped on this thread, for the next one.
    static SPARE: core::cell::Cell<Option<Parts>> = const { core::cell::Cell::new(None) };
}

impl Drop for SanCache {
    fn drop(&mut self) {
        if self.slots.is_empty() {
            return;
        }
        let parts = (core::mem::take(&mut self.slots), self.shift);
        // At thread exit the spare may be gone already: the table is then freed. The table
        // kept before, if any, is freed here.
        let _ = SPARE.try_with(|spare| spare.set(Some(parts)));
    }
}

impl SanCache {
    const FIRST_BITS: u32 = 8;

    /// The cache the last reader dropped on this thread left, or an empty one.
    pub(crate) fn warm() -> SanCache {
        match SPARE.try_with(core::cell::Cell::take) {
            Ok(Some((slots, shift))) => SanCache { slots, shift, misses: 0 },
            _ => SanCache::default(),
        }
    }
    const MAX_BITS: u32 = 13;

    /// The slot of `key` for the current size.
    #[inline(always)]
    fn slot(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (self.shift & 63)) as usize
    }

    /// The move of the token of `len` bytes (at most 7) at the start of `word`, if
    /// [`fast_san`] reads it.
    #[inline(always)]
    pub(crate) fn get(&mut self, word: u64, len: usize) -> Option<SanPlus> {
        let key = (word & ((1u64 << (8 * (len & 7))) - 1)) | ((len as u64) << 56);
        if let Some(&(k, san)) = self.slots.get(self.slot(key)) {
            if k == key {
                return Some(san);
            }
        }
        self.miss(key, word, len)
    }

    /// Reads a token not in the cache, and caches it.
    #[cold]
    #[inline(never)]
    fn miss(&mut self, key: u64, word: u64, len: usize) -> Option<SanPlus> {
        let san = fast_san(word, len)?;
        self.misses += 1;
        let bits = 64 - self.shift;
        if self.slots.is_empty() || (self.misses > self.slots.len() && bits < Self::MAX_BITS) {
            let bits = if self.slots.is_empty() {
                Self::FIRST_BITS
            } else {
                (bits + 2).min(Self::MAX_BITS)
            };
            self.slots = vec![(0, SanPlus { san: San::Null, suffix: None }); 1 << bits];
            self.shift = 64 - bits;
            self.misses = 0;
        }
        let slot = self.slot(key);
        if let Some(entry) = self.slots.get_mut(slot) {
            *entry = (key, san);
        }
        Some(san)
    }
}

/// What a byte can be in a SAN token, for [`fast_san`]: a file index + 1 (1..8) in the low
/// nibble, a rank index + 1 in the high nibble. Piece letters are in [`PIECE_OF`].
pub(crate) const SQUARE_PART: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut i = 0;
    while i < 8 {
        table[b'a' as usize + i] = i as u8 + 1;
        table[b'1' as usize + i] = (i as u8 + 1) << 4;
        i += 1;
    }
    table
};

/// The role index (1..5) of a piece letter `NBRQK`, 0 for any other byte.
pub(crate) const PIECE_OF: [u8; 256] = {
    let mut table = [0u8; 256];
    table[b'N' as usize] = 1;
    table[b'B' as usize] = 2;
    table[b'R' as usize] = 3;
    table[b'Q' as usize] = 4;
    table[b'K' as usize] = 5;
    table
};

/// The common SAN forms, read from the token's bytes in `word` (`len` of them) without the
/// general parser: `e4`, `exd5`, `Nf3`, `Nxf3`, `Nbd2`, `R1e2`, `Rfxe1`, `e8=Q`, `exd8=Q`,
/// `O-O`, `O-O-O`, each with an optional `+` or `#`. Anything else is `None`, for
/// [`SanPlus::from_ascii`] to read (or reject); what this reads, it reads as that does.
#[inline]
pub(crate) fn fast_san(word: u64, len: usize) -> Option<SanPlus> {
    // Branches only where the answer is nearly always the same; the choices that vary from
    // move to move (pawn or piece, capture or not, a disambiguation or not) are computed.
    if !(1..=7).contains(&len) {
        return None;
    }
    let byte = |i: usize| (word >> (8 * (i & 7))) as u8;
    let last = byte(len - 1);
    let (check, mate) = (last == b'+', last == b'#');
    let suffix = if check {
        Some(Suffix::Check)
    } else if mate {
        Some(Suffix::Checkmate)
    } else {
        None
    };
    let mut n = len - usize::from(check | mate);
    if byte(0) == b'O' {
        let side = match (n, word & 0xff_ffff_ffff) {
            (3, w) if w & 0xff_ffff == 0x4f_2d4f => CastlingSide::KingSide,
            (5, 0x4f_2d4f_2d4f) => CastlingSide::QueenSide,
            _ => return None,
        };
        return Some(SanPlus { san: San::Castle(side), suffix });
    }
    let mut promotion = None;
    if n >= 4 && byte(n - 2) == b'=' {
        let role = PIECE_OF[byte(n - 1) as usize];
        if role == 0 || role == 5 {
            return None;
        }
        promotion = Role::from_index(role);
        n -= 2;
    }
    // The destination is the last two bytes; before it come the piece letter (none for a
    // pawn), a file or a rank, and `x`.
    let f = SQUARE_PART[byte(n.wrapping_sub(2)) as usize] & 0x0f;
    let r = SQUARE_PART[byte(n.wrapping_sub(1)) as usize] >> 4;
    let piece = PIECE_OF[byte(0) as usize];
    let skip = usize::from(piece != 0);
    let between = n.wrapping_sub(2 + skip);
    let capture =
        (between.wrapping_sub(1) < 3) & (byte(skip.wrapping_add(between).wrapping_sub(1)) == b'x');
    let from = between.wrapping_sub(usize::from(capture));
    let part = SQUARE_PART[byte(skip) as usize];
    let file = if from == 1 { part & 0x0f } else { 0 };
    let rank = if from == 1 { (part >> 4) * u8::from(file == 0) } else { 0 };
    let pawn_ok = (between == 0) | (capture & (file != 0));
    let ok = (n >= 2 + skip)
        & (f != 0)
        & (r != 0)
        & (from <= 1)
        & ((from == 0) | (part != 0))
        & if piece == 0 { pawn_ok } else { promotion.is_none() };
    if !ok {
        return None;
    }
    let san = San::Normal {
        role: Role::from_index(piece).unwrap_or(Role::Pawn),
        file: File::from_index(file.wrapping_sub(1)),
        rank: Rank::from_index(rank.wrapping_sub(1)),
        capture,
        to: Square::from_coords(File::new(u32::from(f) - 1), Rank::new(u32::from(r) - 1)),
        promotion,
    };
    Some(SanPlus { san, suffix })
}

#[cfg(test)]
mod san_tests {
    use super::*;
    use crate::annotations::lossy;
    use crate::bytes::quick_token;

    /// Every token of the common forms, and their near misses.
    fn tokens() -> Vec<String> {
        let mut out = Vec::new();
        let files = "abcdefgh";
        let squares: Vec<String> = files
            .chars()
            .flat_map(|f| (1..=8).map(move |r| format!("{f}{r}")))
            .chain(["i1", "a0", "a9", "h", "4e"].map(String::from))
            .collect();
        for sq in &squares {
            for prefix in [
                "", "N", "B", "R", "Q", "K", "P", "O", "x", "Nx", "ex", "e", "Nb", "N1", "Nbx",
                "N1x", "Nb1", "Nb1x", "e2", "bx", "Kx", "n", "Nz", "N9",
            ] {
                for promotion in ["", "=Q", "=N", "=K", "=P", "=q", "Q", "="] {
                    for suffix in ["", "+", "#", "++"] {
                        out.push(format!("{prefix}{sq}{promotion}{suffix}"));
                    }
                }
            }
        }
        for t in [
            "O-O", "O-O-O", "O-O+", "O-O-O#", "O-O-", "O-O-O-O", "0-0", "0-0-0", "--", "Z0", "O",
            "OO", "e", "ex", "x",
        ] {
            out.push(t.to_string());
        }
        out
    }

    #[test]
    fn fast_reading_agrees_with_the_san_parser() {
        let mut fast = 0;
        for token in tokens() {
            let bytes = token.as_bytes();
            if bytes.len() > 7 {
                continue;
            }
            let mut padded = [b' '; 8];
            padded[..bytes.len()].copy_from_slice(bytes);
            let (word, len) = quick_token(&padded, 0).unwrap();
            assert_eq!(len, bytes.len(), "{token}");
            if let Some(san) = fast_san(word, len) {
                fast += 1;
                assert_eq!(Ok(san), SanPlus::from_ascii(bytes), "{token}");
                let mut cache = SanCache::default();
                assert_eq!(cache.get(word, len), Some(san));
                assert_eq!(cache.get(word, len), Some(san));
            }
        }
        // The common forms all take the fast path.
        for token in [
            "e4", "exd5", "Nf3", "Nxf3", "Nbd2", "R1e2", "Rfxe1", "e8=Q", "exd8=N+", "O-O",
            "O-O-O#", "Kxe2#",
        ] {
            let mut padded = [b' '; 8];
            padded[..token.len()].copy_from_slice(token.as_bytes());
            let (word, len) = quick_token(&padded, 0).unwrap();
            assert!(fast_san(word, len).is_some(), "{token}");
        }
        assert!(fast > 3000, "{fast}");
        // Lengths the reader never asks for read as nothing.
        assert_eq!(fast_san(u64::from_le_bytes(*b"e4      "), 0), None);
        assert_eq!(fast_san(u64::from_le_bytes(*b"exd8=Q+#"), 8), None);
    }

    #[test]
    fn the_move_cache_grows_and_stays_right() {
        let words: Vec<(u64, usize)> = tokens()
            .iter()
            .filter(|t| t.len() <= 7)
            .map(|t| {
                let mut padded = [b' '; 8];
                padded[..t.len()].copy_from_slice(t.as_bytes());
                quick_token(&padded, 0).unwrap()
            })
            .collect();
        let mut cache = SanCache::default();
        for _ in 0..3 {
            for &(word, len) in &words {
                assert_eq!(cache.get(word, len), fast_san(word, len));
            }
        }
        assert_eq!(cache.slots.len(), 1 << SanCache::MAX_BITS);
    }

    /// A reader's cache, dropped, is the next reader's on the same thread (one spare at a
    /// time), and not another thread's.
    #[test]
    fn a_dropped_cache_warms_the_next_reader_of_its_thread() {
        std::thread::spawn(|| {
            let (word, len) = quick_token(b"Nf3     ", 0).unwrap();
            let key = (word & 0xff_ffff) | (3 << 56);
            let mut first = SanCache::warm();
            assert!(first.slots.is_empty());
            assert!(first.get(word, len).is_some());
            drop(first);
            let second = SanCache::warm();
            assert_eq!(second.slots.get(second.slot(key)).map(|e| e.0), Some(key));
            // Taken: a third reader made meanwhile starts empty.
            assert!(SanCache::warm().slots.is_empty());
            drop(second);
            std::thread::spawn(|| assert!(SanCache::warm().slots.is_empty())).join().unwrap();
            assert!(!SanCache::warm().slots.is_empty());
        })
        .join()
        .unwrap();
    }

    #[test]
    fn quick_token_ends() {
        let cases: [(&[u8], Option<usize>); 9] = [
            (b"e4 e5 Nf", Some(2)),
            (b"Nf3\r\n1. ", Some(3)),
            (b"e4)(d4 (", Some(2)),
            (b"e4!? {x}", Some(2)),
            (b"Qxf7#{ma", Some(5)),
            (b"e4}aaaaa", Some(2)),
            (b"abcdefgh", None),
            (b"e4,e5 aa", Some(5)),
            (b"short", None),
        ];
        for (bytes, expected) in cases {
            assert_eq!(quick_token(bytes, 0).map(|(_, len)| len), expected, "{:?}", lossy(bytes));
        }
    }
}
