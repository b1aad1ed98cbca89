//! The `.cbx` file's layout: the header, the sections, the codes of the key blocks, the
//! checksum, and the errors a reader reports. docs/formats.md gives the same layout with a
//! worked example.

use core::fmt;

use chessbits_codec::bits::{BitReader, BitWriter, EndOfBits};

/// The first eight bytes of every index file.
pub const MAGIC: [u8; 8] = *b"CBXINDEX";

/// The layout version this crate writes and reads.
pub const VERSION: u32 = 1;

/// The header's length, the section table included.
pub const HEADER_LEN: usize = 48 + SECTIONS * 16;

/// How many sections follow the header, in this order: games, strings, moves, blocks, block
/// directory, popular positions.
pub const SECTIONS: usize = 6;

/// The bytes of one game's record in the games section.
pub const GAME_LEN: usize = 44;

/// The bytes of one entry of the block directory.
pub const BLOCK_ENTRY_LEN: usize = 24;

/// The most key groups a block holds: a lookup decodes at most this many.
pub const BLOCK_GROUPS: usize = 128;

/// Section numbers.
pub(crate) mod section {
    pub const GAMES: usize = 0;
    pub const STRINGS: usize = 1;
    pub const MOVES: usize = 2;
    pub const BLOCKS: usize = 3;
    pub const DIRECTORY: usize = 4;
    pub const POPULAR: usize = 5;
}

/// What is wrong with an index file, or with reading one.
#[derive(Debug)]
#[non_exhaustive]
pub enum IndexError {
    /// The file could not be read or written.
    Io(std::io::Error),
    /// The file does not start with [`MAGIC`].
    NotAnIndex,
    /// The file was written in another layout version.
    Version(u32),
    /// The checksum does not match: the file was cut or changed.
    Checksum,
    /// A field is out of bounds or inconsistent: which field, and the byte where it is.
    Corrupt {
        /// The field.
        field: &'static str,
        /// Its byte offset in the file.
        byte: u64,
    },
    /// A game prepared for one `max_ply` was pushed to a builder for another.
    MaxPly {
        /// The plies the game was prepared with.
        prepared: u32,
        /// The builder's.
        index: u32,
    },
    /// A game's stored moves do not decode (index and game number).
    Moves {
        /// The game's number.
        game: u64,
    },
}

impl fmt::Display for IndexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IndexError::Io(e) => write!(f, "{e}"),
            IndexError::NotAnIndex => f.write_str("not a chessbits index (no CBXINDEX magic)"),
            IndexError::Version(v) => {
                write!(f, "index layout version {v}, this build reads version {VERSION}")
            }
            IndexError::Checksum => f.write_str("checksum mismatch: the index is cut or damaged"),
            IndexError::Corrupt { field, byte } => write!(f, "byte {byte}: bad {field}"),
            IndexError::Moves { game } => write!(f, "game {game}: stored moves do not decode"),
            IndexError::MaxPly { prepared, index } => {
                write!(f, "a game prepared for {prepared} plies pushed to an index of {index}")
            }
        }
    }
}

impl std::error::Error for IndexError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            IndexError::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<std::io::Error> for IndexError {
    fn from(e: std::io::Error) -> IndexError {
        IndexError::Io(e)
    }
}

/// The CRC-32 table (IEEE 802.3, reflected, as zip and PNG).
const CRC_TABLE: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 { 0xedb8_8320 ^ (c >> 1) } else { c >> 1 };
            k += 1;
        }
        table[i] = c;
        i += 1;
    }
    table
};

/// A CRC-32 (IEEE 802.3, as zip and PNG) computed over several slices in turn.
#[derive(Copy, Clone, Debug)]
pub struct Crc32(u32);

impl Crc32 {
    /// The checksum of nothing yet.
    pub const fn new() -> Crc32 {
        Crc32(!0)
    }

    /// Adds `bytes`.
    pub fn update(&mut self, bytes: &[u8]) {
        let mut crc = self.0;
        for &b in bytes {
            crc = CRC_TABLE[((crc ^ u32::from(b)) & 0xff) as usize] ^ (crc >> 8);
        }
        self.0 = crc;
    }

    /// The checksum of every byte added.
    pub const fn finish(self) -> u32 {
        !self.0
    }
}

impl Default for Crc32 {
    fn default() -> Crc32 {
        Crc32::new()
    }
}

/// The CRC-32 of `bytes`.
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = Crc32::new();
    crc.update(bytes);
    crc.finish()
}

/// Writes `n >= 1` as an Elias gamma code: `bits(n) - 1` zeros, then `n`'s bits.
pub(crate) fn write_gamma(w: &mut BitWriter, n: u64) {
    debug_assert!(n >= 1);
    let len = 64 - n.leading_zeros();
    w.write(0, len - 1);
    w.write(n, len);
}

/// Reads an Elias gamma code.
pub(crate) fn read_gamma(r: &mut BitReader<'_>) -> Result<u64, EndOfBits> {
    let mut zeros = 0;
    while !r.read_bit()? {
        zeros += 1;
        if zeros > 63 {
            return Err(EndOfBits { offset: 0, wanted: 1 });
        }
    }
    let rest = if zeros == 0 { 0 } else { r.read(zeros)? };
    Ok(1 << zeros | rest)
}

/// Writes `n` as a Rice code with parameter `k`: `n >> k` in unary (ones, then a zero), then
/// the low `k` bits.
pub(crate) fn write_rice(w: &mut BitWriter, n: u64, k: u32) {
    let mut q = n >> k;
    while q >= 32 {
        w.write(u64::from(u32::MAX), 32);
        q -= 32;
    }
    w.write((1u64 << q) - 1, q as u32);
    w.write_bit(false);
    if k > 0 {
        w.write(n & ((1u64 << k) - 1), k);
    }
}

/// Reads a Rice code with parameter `k`.
pub(crate) fn read_rice(r: &mut BitReader<'_>, k: u32) -> Result<u64, EndOfBits> {
    let mut q = 0u64;
    while r.read_bit()? {
        q += 1;
        if q > 1 << 40 {
            return Err(EndOfBits { offset: 0, wanted: 1 });
        }
    }
    let low = if k > 0 { r.read(k)? } else { 0 };
    Ok(q.checked_shl(k).map_or(u64::MAX, |high| high | low))
}

/// Appends `value` as a LEB128 varint.
pub(crate) fn write_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Reads a LEB128 varint at `*at`, moving `*at` past it.
pub(crate) fn read_varint(bytes: &[u8], at: &mut usize) -> Option<u64> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let b = *bytes.get(*at)?;
        *at += 1;
        value |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            return Some(value);
        }
    }
    None
}

/// Little-endian reads at `at`, or a [`IndexError::Corrupt`] naming `field`.
pub(crate) struct Bytes<'a>(pub &'a [u8]);

impl<'a> Bytes<'a> {
    pub fn slice(
        &self,
        at: usize,
        len: usize,
        field: &'static str,
    ) -> Result<&'a [u8], IndexError> {
        at.checked_add(len)
            .and_then(|end| self.0.get(at..end))
            .ok_or(IndexError::Corrupt { field, byte: at as u64 })
    }

    pub fn u64(&self, at: usize, field: &'static str) -> Result<u64, IndexError> {
        let b = self.slice(at, 8, field)?;
        Ok(u64::from_le_bytes(b.try_into().unwrap_or([0; 8])))
    }

    pub fn u32(&self, at: usize, field: &'static str) -> Result<u32, IndexError> {
        let b = self.slice(at, 4, field)?;
        Ok(u32::from_le_bytes(b.try_into().unwrap_or([0; 4])))
    }

    pub fn u16(&self, at: usize, field: &'static str) -> Result<u16, IndexError> {
        let b = self.slice(at, 2, field)?;
        Ok(u16::from_le_bytes(b.try_into().unwrap_or([0; 2])))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc_check_value() {
        assert_eq!(crc32(b"123456789"), 0xcbf4_3926);
        assert_eq!(crc32(b""), 0);
    }

    #[test]
    fn gamma_and_rice_round_trip() {
        let values = [1u64, 2, 3, 4, 7, 8, 255, 256, 1 << 20, u64::MAX >> 1];
        for k in [0, 1, 5, 12, 40] {
            let mut w = BitWriter::new();
            for &v in &values {
                write_gamma(&mut w, v);
                if v < 1 << 30 {
                    write_rice(&mut w, v, k);
                }
            }
            let bits = w.finish();
            let mut r = bits.reader();
            for &v in &values {
                assert_eq!(read_gamma(&mut r).unwrap(), v);
                if v < 1 << 30 {
                    assert_eq!(read_rice(&mut r, k).unwrap(), v, "k {k}");
                }
            }
        }
        // Codes cut short fail.
        let mut w = BitWriter::new();
        write_gamma(&mut w, 1000);
        let bits = w.finish();
        let mut r = BitReader::with_len(bits.as_bytes(), 5);
        assert!(read_gamma(&mut r).is_err());
    }
}
