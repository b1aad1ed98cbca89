//! Byte classes and the word-at-a-time searches the scanner is built on.

pub(crate) const BOM: &[u8] = b"\xef\xbb\xbf";

#[inline]
pub(crate) fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// Bytes a move token is made of: letters, digits and `-+#=:@/`.
pub(crate) const SAN_CLASS: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric()
            || matches!(c, b'-' | b'+' | b'#' | b'=' | b':' | b'@' | b'/');
        b += 1;
    }
    table
};

/// Bytes the movetext skipper must look at: `{ ; \n ( ) [ * 0 1`.
pub(crate) const SKIP_CLASS: [bool; 256] = {
    let mut table = [false; 256];
    let special = b"{;\n()[*01";
    let mut i = 0;
    while i < special.len() {
        table[special[i] as usize] = true;
        i += 1;
    }
    table
};

/// The end of the move token starting at `start`.
#[inline]
pub(crate) fn token_end(buf: &[u8], start: usize) -> usize {
    let mut end = start + 1;
    while let Some(&b) = buf.get(end) {
        if !SAN_CLASS[b as usize] {
            break;
        }
        end += 1;
    }
    end
}

/// The high bit of each byte of `word` equal to `c` (the lowest one flagged is always right;
/// above it a borrow may flag another).
#[inline(always)]
pub(crate) fn bytes_equal(word: u64, c: u8) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let x = word ^ (ONES * c as u64);
    x.wrapping_sub(ONES) & !x & HIGHS
}

/// The first index from `from` where `buf` holds one of the bytes in `set`, looking at the
/// 8-byte words that fit before `limit` (at most `buf.len()`); `None` if no word there holds
/// one (bytes past the last whole word are not looked at).
#[inline(always)]
pub(crate) fn find_in_words<const N: usize>(
    buf: &[u8],
    from: usize,
    limit: usize,
    set: [u8; N],
) -> Option<usize> {
    let mut i = from;
    while i + 8 <= limit {
        let bytes: [u8; 8] = buf.get(i..i + 8)?.try_into().ok()?;
        let word = u64::from_le_bytes(bytes);
        let hits = set.iter().fold(0, |hits, &c| hits | bytes_equal(word, c));
        if hits != 0 {
            return Some(i + (hits.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    None
}

/// The 8 bytes at `start` as a little-endian word, and the length of the token they start if
/// it ends within them at white space, `!`, `?`, `(`, `)`, `{` or `}`. This is found with a few
/// word operations instead of a byte loop whose exit the processor cannot predict. Every such
/// byte ends a move token, so the true end is never later; it is earlier only if a byte before
/// is not a SAN byte either, which [`fast_san`] then rejects.
#[inline]
pub(crate) fn quick_token(buf: &[u8], start: usize) -> Option<(u64, usize)> {
    let bytes: [u8; 8] = buf.get(start..start + 8)?.try_into().ok()?;
    let word = u64::from_le_bytes(bytes);
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // The high bit of each byte below `n` (the lowest one flagged is always right).
    let below = |n: u64| word.wrapping_sub(ONES * n) & !word & HIGHS;
    let equal = |c: u8| {
        let x = word ^ (ONES * c as u64);
        x.wrapping_sub(ONES) & !x & HIGHS
    };
    let ends = below(0x22) | equal(b'(') | equal(b')') | equal(b'?') | equal(b'{') | equal(b'}');
    if ends == 0 {
        return None;
    }
    Some((word, (ends.trailing_zeros() / 8) as usize))
}
