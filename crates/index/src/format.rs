//! The `.cbx` file's layout: the header, the sections, the codes of the key blocks, the
//! checksum, and the errors a reader reports. docs/formats.md gives the same layout with a
//! worked example.

use core::fmt;

use chessbits_codec::bits::{BitReader, BitWriter, EndOfBits};

use crate::mapped::Storage;
use crate::regions::Regions;

/// The first eight bytes of every index file.
pub const MAGIC: [u8; 8] = *b"CBXINDEX";

/// The layout version this crate writes and reads. Version 3 (2026-11-30) keeps the sum of
/// both players' ratings in the explorer's aggregates, where version 2 kept the sum of each
/// game's average rounded down (a mean up to one point low); a version 2 file is refused:
/// build it again.
pub const VERSION: u32 = 3;

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
    /// A checksum does not match: the file was cut or changed. `byte` is where the damage
    /// lies: the first byte of the 64 KiB region whose checksum fails, the start of the
    /// checksum table if the table's own fails, or the file's length if no index is that long.
    Checksum {
        /// The byte where the region found damaged starts.
        byte: u64,
    },
    /// A field is out of bounds or inconsistent: which field, and the byte where it is.
    Corrupt {
        /// The field.
        field: &'static str,
        /// Its byte offset in the file.
        byte: u64,
    },
    /// More games were pushed than an index holds (2^32 - 1: its game indices are `u32`);
    /// a month of lichess is about 100 million.
    TooManyGames,
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
            IndexError::Checksum { byte } => {
                write!(f, "byte {byte}: checksum mismatch: the index is cut or damaged")
            }
            IndexError::Corrupt { field, byte } => write!(f, "byte {byte}: bad {field}"),
            IndexError::Moves { game } => write!(f, "game {game}: stored moves do not decode"),
            IndexError::TooManyGames => {
                f.write_str("more games than an index holds (4,294,967,295): split the input")
            }
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

/// Little-endian reads at `at` of an index file's body, each checked against the body's
/// bounds (or a [`IndexError::Corrupt`] naming `field`) and its region's checksum (checked
/// the first time a byte of the region is read; [`IndexError::Checksum`]).
#[derive(Copy, Clone)]
pub(crate) struct Bytes<'a> {
    pub file: &'a Storage,
    pub regions: &'a Regions,
}

impl<'a> Bytes<'a> {
    pub fn slice(
        &self,
        at: usize,
        len: usize,
        field: &'static str,
    ) -> Result<&'a [u8], IndexError> {
        let corrupt = IndexError::Corrupt { field, byte: at as u64 };
        let end =
            at.checked_add(len).filter(|&end| end <= self.regions.body_len()).ok_or(corrupt)?;
        let bytes = self.file.get(at..end).ok_or(IndexError::Corrupt { field, byte: at as u64 })?;
        if len > 0 {
            self.regions.check(self.file, at, end)?;
        }
        Ok(bytes)
    }

    pub fn u8(&self, at: usize, field: &'static str) -> Result<u8, IndexError> {
        Ok(self.slice(at, 1, field)?[0])
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
