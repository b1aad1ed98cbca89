//! The bit writer and reader every encoding of this crate shares, the finished stream
//! ([`Bits`]) and the error type decoders return ([`Located`]).
//!
//! # Bit order
//!
//! Streams are written **most significant bit first**: a field of `n` bits holding `v` puts bit
//! `n - 1` of `v` first, and the first bit of the stream is bit 7 (the high bit) of byte 0. So a
//! stream read as hex shows its fields left to right, and 4-bit fields that start on a nibble
//! boundary are hex digits. The last byte is padded with zero bits.
//!
//! ```text
//! write(0b101, 3); write(0x2f, 6); write(1, 1)
//! bits:  101 101111 1 (10 bits)      bytes: 1011 0111 | 11 000000 = b7 c0
//! ```
//!
//! ```
//! use chessbits_codec::bits::{BitReader, BitWriter};
//!
//! let mut w = BitWriter::new();
//! w.write(0b101, 3);
//! w.write(0x2f, 6);
//! w.write_bit(true);
//! let bits = w.finish();
//! assert_eq!((bits.len(), bits.to_hex()), (10, "b7c0".to_owned()));
//!
//! let mut r = bits.reader();
//! assert_eq!(r.read(3)?, 0b101);
//! assert_eq!(r.read(6)?, 0x2f);
//! assert!(r.read_bit()?);
//! // Reading past the end is an error that says where.
//! assert_eq!(r.read(1).unwrap_err().to_string(), "bit 10: the stream ends, 1 more bit needed");
//! # Ok::<_, chessbits_codec::bits::EndOfBits>(())
//! ```
//!
//! # Varints
//!
//! Unbounded numbers (clocks, ply counts) are written in groups of 8 bits, least significant
//! group first: a continuation bit (1 = another group follows) then 7 bits of the value. So 0-127
//! take 8 bits, 128-16383 take 16, and a `u32` at most 40. A fifth group with more than the 4
//! high bits of a `u32`, or with its continuation bit set, is an error.
//!
//! Changing the bit order or the varint is a breaking change of every encoding.

use core::fmt;

/// Bits written so far: a byte buffer and a length in bits.
///
/// Writing appends; [`BitWriter::finish`] gives the [`Bits`]. A writer can be reused with
/// [`BitWriter::clear`], keeping its buffer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BitWriter {
    bytes: Vec<u8>,
    len: usize,
}

impl BitWriter {
    /// An empty writer.
    pub const fn new() -> BitWriter {
        BitWriter { bytes: Vec::new(), len: 0 }
    }

    /// An empty writer with room for `bits` bits.
    pub fn with_capacity(bits: usize) -> BitWriter {
        BitWriter { bytes: Vec::with_capacity(bits.div_ceil(8)), len: 0 }
    }

    /// A stream of its own holding what `write` writes, with room for `bits` bits reserved:
    /// the `encode` of every encoding that has a `write`.
    pub fn stream(bits: usize, write: impl FnOnce(&mut BitWriter)) -> Bits {
        let mut w = BitWriter::with_capacity(bits);
        write(&mut w);
        w.finish()
    }

    /// Appends the low `n` bits of `value`, most significant first. Bits of `value` above `n`
    /// are ignored; `n` above 64 writes 64 bits.
    pub fn write(&mut self, value: u64, n: u32) {
        let used = (self.len % 8) as u32;
        if n <= 56 {
            if n == 0 {
                return;
            }
            // Fast path: the unfinished last byte and the field fit one word; append its bytes.
            let partial = if used > 0 { self.bytes.pop().unwrap_or(0) } else { 0 };
            let total = used + n;
            let word = u64::from(partial) << 56 | (value & ((1u64 << n) - 1)) << (64 - total);
            let bytes = word.to_be_bytes();
            self.bytes.extend_from_slice(bytes.get(..total.div_ceil(8) as usize).unwrap_or(&bytes));
            self.len += n as usize;
            return;
        }
        let mut left = n.min(64);
        while left > 0 {
            let used = (self.len % 8) as u32;
            if used == 0 {
                self.bytes.push(0);
            }
            let room = 8 - used;
            let take = room.min(left);
            left -= take;
            let chunk = ((value >> left) & ((1u64 << take) - 1)) as u8;
            if let Some(last) = self.bytes.last_mut() {
                *last |= chunk << (room - take);
            }
            self.len += take as usize;
        }
    }

    /// Appends one bit.
    pub fn write_bit(&mut self, bit: bool) {
        self.write(u64::from(bit), 1);
    }

    /// Appends `value` as a varint (see the [module docs](self)).
    pub fn write_varint(&mut self, mut value: u32) {
        loop {
            let group = value & 0x7f;
            value >>= 7;
            self.write_bit(value != 0);
            self.write(u64::from(group), 7);
            if value == 0 {
                break;
            }
        }
    }

    /// The number of bits written.
    pub const fn len(&self) -> usize {
        self.len
    }

    /// `true` if nothing was written.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bytes written so far, the last one padded with zero bits.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Forgets what was written, keeping the buffer.
    pub fn clear(&mut self) {
        self.bytes.clear();
        self.len = 0;
    }

    /// The finished stream.
    pub fn finish(self) -> Bits {
        Bits { bytes: self.bytes, len: self.len }
    }
}

/// Hands `value` to `push` as LEB128 bytes: 7 bits a byte, least significant group first, the
/// high bit set on every byte but the last (the byte-aligned varint of `packed`'s clocks and of
/// `.cbg`; [`BitWriter::write_varint`] is the bit stream's own, other layout).
#[inline]
pub fn leb128(mut value: u64, mut push: impl FnMut(u8)) {
    while value > 0x7f {
        push(value as u8 | 0x80);
        value >>= 7;
    }
    push(value as u8);
}

/// The number of bits [`BitWriter::write_varint`] takes for `value`.
pub const fn varint_len(value: u32) -> usize {
    let significant = 32 - value.leading_zeros() as usize;
    8 * if significant == 0 { 1 } else { significant.div_ceil(7) }
}

/// A finished bit stream: the bytes (the last one padded with zero bits) and the length in bits.
///
/// `Display` writes the bytes as lowercase hex, two digits a byte.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bits {
    bytes: Vec<u8>,
    len: usize,
}

impl Bits {
    /// The stream of the first `len` bits of `bytes` (fewer if `bytes` is shorter). Bits of the
    /// last byte beyond `len` are cleared, so equal streams compare equal.
    pub fn from_bytes(mut bytes: Vec<u8>, len: usize) -> Bits {
        let len = len.min(bytes.len() * 8);
        bytes.truncate(len.div_ceil(8));
        if let Some(last) = bytes.last_mut() {
            let used = len % 8;
            if used != 0 {
                *last &= 0xffu8 << (8 - used);
            }
        }
        Bits { bytes, len }
    }

    /// The length in bits.
    pub const fn len(&self) -> usize {
        self.len
    }

    /// `true` for the empty stream.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bytes, the last one padded with zero bits.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The bytes, the last one padded with zero bits.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    /// The bytes as lowercase hex, two digits a byte.
    pub fn to_hex(&self) -> String {
        self.to_string()
    }

    /// A reader over exactly these bits.
    pub fn reader(&self) -> BitReader<'_> {
        BitReader::with_len(&self.bytes, self.len)
    }
}

impl fmt::Display for Bits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for byte in &self.bytes {
            write!(f, "{byte:02x}")?;
        }
        Ok(())
    }
}

/// Reads hex text (an even number of hex digits, either case) into bytes.
///
/// # Errors
/// [`ParseHexError`] with the byte offset of the first character that is not a hex digit, or,
/// when every character is one, the length of an odd-length text.
pub fn parse_hex(text: &str) -> Result<Vec<u8>, ParseHexError> {
    let digits = text.as_bytes();
    if let Some(offset) = digits.iter().position(|b| !b.is_ascii_hexdigit()) {
        return Err(ParseHexError { offset, kind: HexErrorKind::NotADigit });
    }
    if !digits.len().is_multiple_of(2) {
        return Err(ParseHexError { offset: digits.len(), kind: HexErrorKind::OddLength });
    }
    let digit = |b: u8| char::from(b).to_digit(16).unwrap_or(0) as u8;
    Ok(digits.chunks_exact(2).map(|pair| digit(pair[0]) << 4 | digit(pair[1])).collect())
}

/// Hex text that is not an even number of hex digits.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ParseHexError {
    /// The byte offset of the first character that is not a hex digit, or the length of an
    /// odd-length text.
    pub offset: usize,
    /// Which of the two it is.
    pub kind: HexErrorKind,
}

/// What is wrong with hex text.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum HexErrorKind {
    /// The byte at the offset is not one of `0-9a-fA-F`.
    NotADigit,
    /// The text has an odd number of digits; the offset is its length.
    OddLength,
}

impl fmt::Display for ParseHexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            HexErrorKind::NotADigit => {
                write!(f, "hex (byte {}): not a hex digit (0-9, a-f)", self.offset)
            }
            HexErrorKind::OddLength => {
                write!(f, "hex (byte {}): an odd number of hex digits", self.offset)
            }
        }
    }
}

impl std::error::Error for ParseHexError {}

/// Reads a bit stream written by [`BitWriter`]: fields of `n` bits, most significant bit first.
#[derive(Copy, Clone, Debug)]
pub struct BitReader<'a> {
    bytes: &'a [u8],
    /// The next bit to read.
    pos: usize,
    /// The number of bits that may be read.
    len: usize,
}

impl<'a> BitReader<'a> {
    /// A reader over every bit of `bytes`.
    pub const fn new(bytes: &'a [u8]) -> BitReader<'a> {
        BitReader { bytes, pos: 0, len: bytes.len() * 8 }
    }

    /// Reads one value from `bytes` with `read`, then checks that nothing but the zero padding
    /// of the last byte follows: the `decode` of every encoding that has a `read`.
    ///
    /// # Errors
    /// What `read` returns, or [`TrailingBits`] (converted into `E`) for bits left over.
    pub fn whole<T, E: From<TrailingBits>>(
        bytes: &'a [u8],
        read: impl FnOnce(&mut BitReader<'a>) -> Result<T, E>,
    ) -> Result<T, E> {
        let mut r = BitReader::new(bytes);
        let value = read(&mut r)?;
        r.finish()?;
        Ok(value)
    }

    /// A reader over the first `len` bits of `bytes` (all of them if `bytes` is shorter).
    pub fn with_len(bytes: &'a [u8], len: usize) -> BitReader<'a> {
        BitReader { bytes, pos: 0, len: len.min(bytes.len() * 8) }
    }

    /// A reader over the first `len` bits of `bytes` whose other bits must be zero, the
    /// padding a [`BitWriter`] leaves after the last bit: `<bits>\t<hex>` read back, where a
    /// bit set past `len` means the bytes were written for another length, or damaged there.
    ///
    /// ```
    /// use chessbits_codec::bits::{BitReader, TrailingBits};
    ///
    /// assert_eq!(BitReader::with_zero_padding(&[0xb7, 0xc0], 10).unwrap().read(10), Ok(0x2df));
    /// assert_eq!(
    ///     BitReader::with_zero_padding(&[0xb7, 0xc1], 10).err(),
    ///     Some(TrailingBits { offset: 10, bits: 6 })
    /// );
    /// ```
    ///
    /// # Errors
    /// [`TrailingBits`] from `len` to the end of `bytes` when one of those bits is set.
    pub fn with_zero_padding(bytes: &'a [u8], len: usize) -> Result<BitReader<'a>, TrailingBits> {
        let reader = BitReader::with_len(bytes, len);
        let mut rest = BitReader { bytes, pos: reader.len, len: bytes.len() * 8 };
        let bits = rest.remaining();
        while rest.remaining() > 0 {
            let n = rest.remaining().min(64);
            if rest.read(n as u32) != Ok(0) {
                return Err(TrailingBits { offset: reader.len, bits });
            }
        }
        Ok(reader)
    }

    /// The offset of the next bit to read, from the start of the stream.
    pub const fn position(&self) -> usize {
        self.pos
    }

    /// The number of bits left.
    pub const fn remaining(&self) -> usize {
        self.len - self.pos
    }

    /// Reads an `n`-bit field (`n` at most 64), most significant bit first.
    ///
    /// # Errors
    /// [`EndOfBits`] if fewer than `n` bits are left (or `n` is above 64); nothing is consumed.
    #[inline]
    pub fn read(&mut self, n: u32) -> Result<u64, EndOfBits> {
        if n > 64 || self.remaining() < n as usize {
            return Err(EndOfBits {
                offset: self.pos,
                wanted: n - self.remaining().min(n as usize) as u32,
            });
        }
        if n == 0 {
            return Ok(0);
        }
        // Fast path: eight whole bytes from the one holding the next bit cover any field of up
        // to 57 bits.
        let at = self.pos / 8;
        if n <= 57 {
            if let Some(word) = self.bytes.get(at..at + 8).and_then(|b| <[u8; 8]>::try_from(b).ok())
            {
                let value = (u64::from_be_bytes(word) << (self.pos % 8)) >> (64 - n);
                self.pos += n as usize;
                return Ok(value);
            }
        }
        let mut value = 0u64;
        let mut left = n;
        while left > 0 {
            let byte = self.bytes.get(self.pos / 8).copied().unwrap_or(0);
            let room = 8 - (self.pos % 8) as u32;
            let take = room.min(left);
            let chunk = (u64::from(byte) >> (room - take)) & ((1u64 << take) - 1);
            // `take` is at most 8, so the shift never overflows even when `value` is full.
            value = value << take | chunk;
            left -= take;
            self.pos += take as usize;
        }
        Ok(value)
    }

    /// Reads one bit.
    ///
    /// # Errors
    /// [`EndOfBits`] at the end of the stream.
    #[inline]
    pub fn read_bit(&mut self) -> Result<bool, EndOfBits> {
        Ok(self.read(1)? == 1)
    }

    /// Reads a varint (see the [module docs](self)).
    ///
    /// # Errors
    /// [`VarintError`]: the stream ends inside it, or it does not fit in a `u32`.
    pub fn read_varint(&mut self) -> Result<u32, VarintError> {
        let start = self.pos;
        let mut value: u32 = 0;
        for group in 0..5 {
            let more = self.read_bit()?;
            let bits = self.read(7)? as u32;
            if group == 4 && (more || bits > 0xf) {
                return Err(VarintError::TooLarge { offset: start });
            }
            value |= bits << (7 * group);
            if !more {
                return Ok(value);
            }
        }
        Err(VarintError::TooLarge { offset: start })
    }

    /// Checks that the stream is over: no bits left, or (for a reader over whole bytes) fewer
    /// than 8, all zero, the padding of the last byte.
    ///
    /// # Errors
    /// [`TrailingBits`] with the offset of the first bit that is not padding.
    pub fn finish(&self) -> Result<(), TrailingBits> {
        let left = self.remaining();
        let padding = self.len.is_multiple_of(8) && left < 8 && {
            let mut rest = *self;
            rest.read(left as u32) == Ok(0)
        };
        if left == 0 || padding {
            Ok(())
        } else {
            Err(TrailingBits { offset: self.pos, bits: left })
        }
    }
}

/// The stream ended inside a field.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct EndOfBits {
    /// Where the field starts, in bits from the start of the stream.
    pub offset: usize,
    /// How many more bits the field needed.
    pub wanted: u32,
}

impl fmt::Display for EndOfBits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bit {}: {}", self.offset, Truncated(self.wanted))
    }
}

impl std::error::Error for EndOfBits {}

/// Bits after the end of an encoding that are not the zero padding of its last byte.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TrailingBits {
    /// Where the encoding ended, in bits from the start of the stream.
    pub offset: usize,
    /// How many bits follow.
    pub bits: usize,
}

impl fmt::Display for TrailingBits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bit {}: ", self.offset)?;
        DecodeErrorKind::<&str>::TrailingBits { bits: self.bits }.fmt(f)
    }
}

impl std::error::Error for TrailingBits {}

/// A varint that cannot be read.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum VarintError {
    /// The stream ends inside it.
    End(EndOfBits),
    /// It does not fit in a `u32`; `offset` is where it starts.
    TooLarge {
        /// Where the varint starts, in bits from the start of the stream.
        offset: usize,
    },
}

impl From<EndOfBits> for VarintError {
    fn from(end: EndOfBits) -> VarintError {
        VarintError::End(end)
    }
}

/// The one shape of every binary decoder's error: where the problem is, in the format's own
/// terms (`L`), and what it is (`K`, the format's own kind). It prints as the location and the
/// kind (`bit 12: invalid piece code 13`, `ply 7 (byte 3): the code names no legal move`, `game
/// 4 (byte 1290): a record's check does not match its body`) unless the kind says otherwise
/// ([`ErrorKindAt::fmt_at`]: an illegal position has no bit), and its
/// [`source`](std::error::Error::source) is the kind's.
///
/// The bit-level decoders (`packed`, `compact`, the classic encodings) are located by a
/// [`Bit`] ([`Located`]); the move codec by a [`Ply`] (`MoveDecodeError`); `.cbg` files by a
/// [`GameByte`] (`CbgError`).
///
/// ```
/// use chessbits_codec::bits::Bit;
/// use chessbits_codec::packed::{self, PackedErrorKind};
///
/// // Three bytes: the input ends inside the 8-byte occupancy, at bit 24.
/// let err = packed::decode(&[0xff; 3]).unwrap_err();
/// assert_eq!(err.at, Bit(24));
/// assert!(matches!(err.kind, PackedErrorKind::Truncated { .. }));
/// assert_eq!(err.to_string(), format!("bit 24: {}", err.kind));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Located<L, K> {
    /// Where: the start of the field at fault.
    pub at: L,
    /// What is wrong.
    pub kind: K,
}

impl<L, K> Located<L, K> {
    /// The error `kind` found at `at`.
    pub const fn new(at: L, kind: K) -> Located<L, K> {
        Located { at, kind }
    }
}

/// A bit offset from the start of a decoder's input: where a [`Located`] is.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Bit(pub usize);

impl fmt::Display for Bit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bit {}", self.0)
    }
}

/// A ply of a coded mainline and a byte offset in the coded moves: where a move codec error is.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ply {
    /// The ply being decoded, from 1 (for an error found at the end: the number of plies).
    pub ply: u32,
    /// The byte offset in the coded moves where the problem lies (for the model codec: where
    /// the decoder's window reached, within four bytes).
    pub byte: usize,
}

impl fmt::Display for Ply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ply {} (byte {})", self.ply, self.byte)
    }
}

/// A game of a file (counted from 1; for a problem between games, the next one) and a byte
/// offset from the start of the file: where a `.cbg` error is.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GameByte {
    /// The game.
    pub game: u64,
    /// The byte offset from the start of the file.
    pub byte: u64,
}

impl fmt::Display for GameByte {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {} (byte {})", self.game, self.byte)
    }
}

/// A kind of [`Located`] error at locations `L`: how it prints with its location, and the
/// error it wraps.
pub trait ErrorKindAt<L: fmt::Display>: fmt::Display + fmt::Debug {
    /// Writes the error found at `at`: the location, `: ` and the kind, unless the kind has no
    /// place in the input.
    fn fmt_at(&self, at: &L, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{at}: {self}")
    }

    /// The error this kind wraps, if any ([`std::error::Error::source`]).
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        None
    }
}

impl<L: fmt::Display, K: ErrorKindAt<L>> fmt::Display for Located<L, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.kind.fmt_at(&self.at, f)
    }
}

impl<L: fmt::Display + fmt::Debug, K: ErrorKindAt<L>> std::error::Error for Located<L, K> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.kind.source()
    }
}

/// What is wrong with a stream: see [`Located`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DecodeErrorKind<K> {
    /// The stream ends inside a field that needed this many more bits.
    Truncated {
        /// The missing bits.
        wanted: u32,
    },
    /// This many bits follow the end of the encoding, and they are not the zero padding of its
    /// last byte.
    TrailingBits {
        /// How many bits follow.
        bits: usize,
    },
    /// A varint does not fit in a `u32`.
    VarintTooLarge,
    /// The bits read are not valid for this encoding.
    Invalid(K),
}

impl<K> Located<Bit, DecodeErrorKind<K>> {
    /// An error of the encoding's own kind at bit `bit`.
    pub const fn invalid(bit: usize, kind: K) -> Located<Bit, DecodeErrorKind<K>> {
        Located { at: Bit(bit), kind: DecodeErrorKind::Invalid(kind) }
    }

    /// The same error with the encoding's kind turned into another (an encoding made of parts
    /// wraps its parts' errors).
    pub fn map<L>(self, f: impl FnOnce(K) -> L) -> Located<Bit, DecodeErrorKind<L>> {
        let kind = match self.kind {
            DecodeErrorKind::Truncated { wanted } => DecodeErrorKind::Truncated { wanted },
            DecodeErrorKind::TrailingBits { bits } => DecodeErrorKind::TrailingBits { bits },
            DecodeErrorKind::VarintTooLarge => DecodeErrorKind::VarintTooLarge,
            DecodeErrorKind::Invalid(kind) => DecodeErrorKind::Invalid(f(kind)),
        };
        Located { at: self.at, kind }
    }
}

impl<K> From<EndOfBits> for Located<Bit, DecodeErrorKind<K>> {
    fn from(end: EndOfBits) -> Located<Bit, DecodeErrorKind<K>> {
        Located { at: Bit(end.offset), kind: DecodeErrorKind::Truncated { wanted: end.wanted } }
    }
}

impl<K> From<TrailingBits> for Located<Bit, DecodeErrorKind<K>> {
    fn from(rest: TrailingBits) -> Located<Bit, DecodeErrorKind<K>> {
        Located { at: Bit(rest.offset), kind: DecodeErrorKind::TrailingBits { bits: rest.bits } }
    }
}

impl<K> From<VarintError> for Located<Bit, DecodeErrorKind<K>> {
    fn from(err: VarintError) -> Located<Bit, DecodeErrorKind<K>> {
        match err {
            VarintError::End(end) => end.into(),
            VarintError::TooLarge { offset } => {
                Located { at: Bit(offset), kind: DecodeErrorKind::VarintTooLarge }
            }
        }
    }
}

/// "the stream ends, n more bits needed"
struct Truncated(u32);

impl fmt::Display for Truncated {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = if self.0 == 1 { "" } else { "s" };
        write!(f, "the stream ends, {} more bit{s} needed", self.0)
    }
}

impl<K: fmt::Display> fmt::Display for DecodeErrorKind<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeErrorKind::Truncated { wanted } => Truncated(*wanted).fmt(f),
            DecodeErrorKind::TrailingBits { bits } => {
                write!(f, "{bits} bits after the end that are not the padding of the last byte")
            }
            DecodeErrorKind::VarintTooLarge => f.write_str("number too large for 32 bits"),
            DecodeErrorKind::Invalid(kind) => kind.fmt(f),
        }
    }
}

impl<K: fmt::Debug + fmt::Display> ErrorKindAt<Bit> for DecodeErrorKind<K> {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes `fields` (value, width), checks the hex, then reads them back.
    fn check(fields: &[(u64, u32)], hex: &str) {
        let mut w = BitWriter::new();
        for &(value, n) in fields {
            w.write(value, n);
        }
        let len: u32 = fields.iter().map(|&(_, n)| n.min(64)).sum();
        assert_eq!(w.len(), len as usize);
        let bits = w.finish();
        assert_eq!(bits.to_hex(), hex, "{fields:?}");
        let mut r = bits.reader();
        for &(value, n) in fields {
            let mask = if n >= 64 { u64::MAX } else { (1 << n) - 1 };
            assert_eq!(r.read(n), Ok(value & mask), "{fields:?}");
        }
        assert_eq!(r.remaining(), 0);
        assert_eq!(r.finish(), Ok(()));
    }

    #[test]
    fn fields_are_written_most_significant_bit_first() {
        check(&[], "");
        check(&[(1, 1)], "80");
        check(&[(0xa, 4), (0x5, 4)], "a5");
        check(&[(0b101, 3), (0x2f, 6), (1, 1)], "b7c0");
        check(&[(0x1ff, 9)], "ff80");
        check(&[(0, 0), (3, 2)], "c0");
        // High bits beyond the width are ignored.
        check(&[(0xff, 4)], "f0");
        check(&[(u64::MAX, 64), (0, 3), (u64::MAX, 64)], "ffffffffffffffff1fffffffffffffffe0");
        check(&[(0x0123_4567_89ab_cdef, 64)], "0123456789abcdef");
        check(&[(1, 7), (0x0123_4567_89ab_cdef, 60)], "022468acf13579bde0");
    }

    #[test]
    fn reading_past_the_end_says_where() {
        let bytes = [0xb7, 0xc0];
        let mut r = BitReader::with_len(&bytes, 10);
        assert_eq!(r.read(9), Ok(0x16f));
        assert_eq!(r.read(2), Err(EndOfBits { offset: 9, wanted: 1 }));
        // Nothing was consumed.
        assert_eq!(r.read(1), Ok(1));
        assert_eq!(r.read(65), Err(EndOfBits { offset: 10, wanted: 65 }));
        let mut r = BitReader::new(&[]);
        assert_eq!(r.read(64), Err(EndOfBits { offset: 0, wanted: 64 }));
        assert_eq!(r.read(0), Ok(0));
        let err = Located::<Bit, DecodeErrorKind<&str>>::from(EndOfBits { offset: 3, wanted: 2 });
        insta::assert_snapshot!(err, @"bit 3: the stream ends, 2 more bits needed");
        // A length beyond the bytes is cut to them.
        assert_eq!(BitReader::with_len(&bytes, 100).remaining(), 16);
    }

    #[test]
    fn the_end_of_a_stream_is_padding_or_nothing() {
        let bytes = [0xb7, 0xc0];
        let mut r = BitReader::new(&bytes);
        r.read(10).unwrap();
        assert_eq!(r.finish(), Ok(()));
        r.read(1).unwrap();
        assert_eq!(r.finish(), Ok(()));
        let mut r = BitReader::new(&bytes);
        r.read(9).unwrap();
        // The tenth bit is a one: not padding.
        assert_eq!(r.finish(), Err(TrailingBits { offset: 9, bits: 7 }));
        let mut r = BitReader::new(&bytes);
        r.read(2).unwrap();
        assert_eq!(r.finish(), Err(TrailingBits { offset: 2, bits: 14 }));
        // With an exact length, nothing may be left.
        let mut r = BitReader::with_len(&bytes, 12);
        r.read(10).unwrap();
        assert_eq!(r.finish(), Err(TrailingBits { offset: 10, bits: 2 }));
        let err = Located::<Bit, DecodeErrorKind<&str>>::from(TrailingBits { offset: 10, bits: 2 });
        insta::assert_snapshot!(err, @"bit 10: 2 bits after the end that are not the padding of the last byte");
    }

    #[test]
    fn varints_round_trip_and_reject_overflow() {
        let cases: [(u32, usize, &str); 6] = [
            (0, 8, "00"),
            (127, 8, "7f"),
            (128, 16, "8001"),
            (300, 16, "ac02"),
            (16_384, 24, "808001"),
            (u32::MAX, 40, "ffffffff0f"),
        ];
        for (value, len, hex) in cases {
            let mut w = BitWriter::new();
            w.write_varint(value);
            assert_eq!((w.len(), varint_len(value)), (len, len), "{value}");
            let bits = w.finish();
            assert_eq!(bits.to_hex(), hex, "{value}");
            assert_eq!(bits.reader().read_varint(), Ok(value));
        }
        for hex in ["ffffffff1f", "ffffffff8f", "ffffffffff00"] {
            let bytes = parse_hex(hex).unwrap();
            let err = BitReader::new(&bytes).read_varint().unwrap_err();
            assert_eq!(err, VarintError::TooLarge { offset: 0 }, "{hex}");
        }
        let err = BitReader::new(&[0x80]).read_varint().unwrap_err();
        assert_eq!(err, VarintError::End(EndOfBits { offset: 8, wanted: 1 }));
    }

    #[test]
    fn hex_text() {
        assert_eq!(parse_hex("00aBff"), Ok(vec![0, 0xab, 0xff]));
        assert_eq!(parse_hex(""), Ok(vec![]));
        let odd = |offset| Err(ParseHexError { offset, kind: HexErrorKind::OddLength });
        let bad = |offset| Err(ParseHexError { offset, kind: HexErrorKind::NotADigit });
        assert_eq!(parse_hex("abc"), odd(3));
        assert_eq!(parse_hex("0g"), bad(1));
        assert_eq!(parse_hex("é"), bad(0));
        assert_eq!(parse_hex("zz"), bad(0));
        assert_eq!(parse_hex("abcz1"), bad(3));
        let bits = Bits::from_bytes(vec![0xff, 0xff], 9);
        assert_eq!((bits.len(), bits.to_hex()), (9, "ff80".to_owned()));
        assert_eq!(Bits::from_bytes(vec![0xff], 20).len(), 8);
        insta::assert_snapshot!(parse_hex("0g").unwrap_err(), @"hex (byte 1): not a hex digit (0-9, a-f)");
        insta::assert_snapshot!(parse_hex("abc").unwrap_err(), @"hex (byte 3): an odd number of hex digits");
    }
}
