//! `.cbg`: a file of many games. Per game: every tag, compactly; the start position if it is
//! not the standard one; the mainline, coded by a [`MoveCodec`]; the `[%clk]` and `[%eval]`
//! annotations as delta-coded columns. Other comments, glyphs and variations are dropped (and
//! counted by [`GameBuilder`]). An index gives game `N` without decoding the games before it;
//! [`CbgWriter`] and [`CbgReader`] stream in constant memory (one game, one block of 1,024
//! game sizes, and 8 bytes per block of the index while writing), and [`CbgFile`] reads any
//! game of a seekable file.
//!
//! # Layout
//!
//! Numbers are LEB128 *varints* (7 bits a byte, least significant group first, the high bit
//! set on every byte but the last) unless a width is given; *zigzag* maps signed to unsigned
//! (`0, -1, 1, -2` → `0, 1, 2, 3`). A *record* is framed as
//!
//! ```text
//! tag       1 byte     'G' game, 'I' block index, 'X' top index, 'T' trailer
//! length    varint     bytes of the body
//! body
//! check     2 bytes    CRC-16/CCITT-FALSE of the body, big-endian
//! ```
//!
//! and the file is
//!
//! ```text
//! header    12 bytes   89 'C' 'B' 'G' 0d 0a 1a 0a, version (1), move codec (0 model, 1 index),
//!                      two zero bytes
//! records   'G' ... 'G' 'I'  'G' ... 'G' 'I'  ...  'X' 'T'
//! ```
//!
//! - After every 1,024 games (and after the last ones) an **`I`** record indexes them:
//!   the index of its first game (varint), the offset of that game's record from the start of
//!   the file (8 bytes, little-endian), the number of games (varint) and each game record's
//!   size in bytes (varints).
//! - **`X`**: the offsets of every `I` record, 8 bytes each, little-endian, in order.
//! - **`T`**, always the last 20 bytes: the offset of the `X` record and the number of games,
//!   8 bytes each, little-endian.
//!
//! A **`G`** body:
//!
//! ```text
//! flags     1 byte     bit 0: a start position follows; bit 1: Chess960 castling (standard
//!                      start only); bits 2-4: the movetext's result (0 none, 1 "1-0", 2 "0-1",
//!                      3 "1/2-1/2", 4 "*"); bit 5: a skipped count follows; bit 6: clocks
//!                      follow; bit 7: evaluations follow
//! skipped   varint     games of the input before this one that were not packed (broken)
//! tags      varint n, then n times: name, value
//! start     varint length, then the position in the `packed` format with its clocks
//! plies     varint
//! moves     varint length, then the coded mainline (see `move_codec`)
//! clocks    presence, unit (varint: 0 seconds, 1 tenths, 2 hundredths, 3 milliseconds), then
//!           per clock: zigzag(clock − the same player's previous clock), in units (the
//!           first clock of a player is taken from the other player's last, or 0)
//! evals     presence, then per evaluation: varint zigzag(x) << 2 | depth given << 1 | mate,
//!           x the mate number, or the centipawns minus the previous centipawn evaluation
//!           (0 at first); then the depth (varint) if given
//! ```
//!
//! A column's *presence* is a varint: 0 when every ply has a value, 1 followed by one bit a
//! ply (`⌈plies / 8⌉` bytes, ply 1 the low bit of the first byte).
//!
//! A tag name is a varint: `k` ≥ 1 names the `k`-th of [`KNOWN_TAGS`]; 0 is followed by the
//! name as a varint length and bytes. A value is a varint *form*, then:
//!
//! | form | value | then |
//! |---:|---|---|
//! | 0 | any bytes | varint length, bytes |
//! | 1 | a decimal number, `0` or no leading zero | varint |
//! | 2 | a signed one, `+12` or `-12` | varint n << 1, plus 1 for `-` |
//! | 3 | a date `YYYY.MM.DD`, each part digits or all `?` | three varints: 0 for `?`s, else the number plus 1 |
//! | 4 | a time `HH:MM:SS` | varint seconds (at most 99 hours) |
//! | 5 | one of [`PREFIXES`] and more | varint index, then the rest as form 0 |
//! | 6 | a time control `N+M` | varints N and M |
//! | 7 | the start position's FEN | varint: 0-2 X-FEN castling, 3-5 Shredder-FEN, with the en passant square always / when a pawn can take / when a capture is legal |
//! | 8 | a result `1-0`, `0-1`, `1/2-1/2`, `*` | varint 0-3 |
//!
//! Values are stored unescaped; names and values as bytes (UTF-8 or not).
//!
//! Changing any of this is a breaking change: the version byte says which layout a file has.
//!
//! # Errors
//!
//! Reading never panics. A [`CbgError`] names the game (counted from 1 in the file) and the
//! byte offset in the file where the problem lies. A game whose record is intact but whose
//! check or content fails is reported, and the reader goes on with the next game; a broken
//! frame (a record tag or length that cannot be, the file's end) stops it. Every game before
//! a problem reads.
//!
//! ```
//! use chessbits_codec::cbg::{CbgReader, CbgWriter, GameBuilder};
//! use chessbits_codec::move_codec::MoveCodec;
//! use chessbits_pgn::SliceReader;
//!
//! let pgn = b"[Event \"Casual\"]\n[Date \"2024.01.31\"]\n\n1. e4 { [%clk 0:03:00] } e5 { [%clk 0:02:59] } 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
//! let mut writer = CbgWriter::new(Vec::new(), MoveCodec::Model)?;
//! let mut reader = SliceReader::new(pgn);
//! let mut builder = GameBuilder::default();
//! while let Some(game) = reader.read_game(&mut builder) {
//!     writer.write_game(&game?)?;
//! }
//! let bytes = writer.finish()?;
//!
//! let mut games = CbgReader::new(&bytes[..])?;
//! let game = games.next().unwrap()?;
//! assert_eq!(game.moves.len(), 7);
//! assert_eq!(game.clocks[1].map(|c| c.millis()), Some(179_000));
//! assert_eq!(game.tag("Date"), Some(&b"2024.01.31"[..]));
//! assert!(games.next().is_none());
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use core::fmt;
use std::io::{self, Read, Seek, SeekFrom, Write};

use chessbits_move::CastlingMode;
use chessbits_notation::fen::{fen_of, CastlingNotation, EnPassantMode, FenOptions};
use chessbits_pgn::{Clock, Eval, GameResult, Score};
use chessbits_state::Position;

use crate::move_codec::{MoveCodec, MoveDecodeError, MoveDecoder, MoveEncodeError, MoveEncoder};
use crate::packed::{self, PackedError};

mod record;

pub use record::{GameBuilder, GameRecord};

/// The file's first eight bytes.
pub const MAGIC: [u8; 8] = [0x89, b'C', b'B', b'G', 0x0d, 0x0a, 0x1a, 0x0a];

/// The layout version this module reads and writes.
pub const VERSION: u8 = 1;

/// The size of the header.
pub const HEADER_LEN: usize = 12;

/// Games per block of the index.
pub const BLOCK_GAMES: usize = 1024;

/// The size of the trailer record, the last bytes of a file.
pub const TRAILER_LEN: usize = 20;

/// The largest record body a reader accepts (16 MiB): a longer length is corrupt.
pub const MAX_RECORD_LEN: u64 = 1 << 24;

/// The most plies a game may have.
pub const MAX_PLIES: u64 = 1 << 20;

/// The tag names with a one-byte code (code `k` is the `k`-th, from 1). Fixed forever.
pub const KNOWN_TAGS: [&str; 48] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "WhiteElo",
    "BlackElo",
    "WhiteRatingDiff",
    "BlackRatingDiff",
    "ECO",
    "Opening",
    "TimeControl",
    "Termination",
    "UTCDate",
    "UTCTime",
    "Variant",
    "GameId",
    "WhiteTitle",
    "BlackTitle",
    "EventDate",
    "WhiteFideId",
    "BlackFideId",
    "Variation",
    "PlyCount",
    "WhiteCountry",
    "BlackCountry",
    "Annotator",
    "StudyName",
    "ChapterName",
    "SetUp",
    "FEN",
    "GameStartTime",
    "GameEndTime",
    "GameDuration",
    "WhiteTeam",
    "BlackTeam",
    "TerminationDetails",
    "EventType",
    "Source",
    "SourceDate",
    "EventCountry",
    "Board",
    "Mode",
    "WhiteClock",
    "BlackClock",
    "EventRounds",
];

/// Value prefixes with a code of their own (tag value form 5). Fixed forever.
pub const PREFIXES: [&str; 12] = [
    "https://lichess.org/",
    "https://www.chess.com/game/live/",
    "https://www.chess.com/game/daily/",
    "Rated Bullet game",
    "Rated Blitz game",
    "Rated Rapid game",
    "Rated Classical game",
    "Rated Correspondence game",
    "Casual ",
    "https://lichess.org/broadcast/",
    "https://lichess.org/study/",
    "Rated ",
];

/// The FEN options of tag value form 7, by code.
const FEN_OPTIONS: [FenOptions; 6] = [
    FenOptions { castling: CastlingNotation::XFen, en_passant: EnPassantMode::Always },
    FenOptions { castling: CastlingNotation::XFen, en_passant: EnPassantMode::PseudoLegal },
    FenOptions { castling: CastlingNotation::XFen, en_passant: EnPassantMode::Legal },
    FenOptions { castling: CastlingNotation::Shredder, en_passant: EnPassantMode::Always },
    FenOptions { castling: CastlingNotation::Shredder, en_passant: EnPassantMode::PseudoLegal },
    FenOptions { castling: CastlingNotation::Shredder, en_passant: EnPassantMode::Legal },
];

/// Why a `.cbg` file does not read: the game (counted from 1 in the file; for a problem
/// between games, the next one), the byte offset in the file, and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CbgError {
    /// The game.
    pub game: u64,
    /// The byte offset from the start of the file.
    pub byte: u64,
    /// What is wrong.
    pub kind: CbgErrorKind,
}

/// What is wrong in a [`CbgError`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CbgErrorKind {
    /// Reading failed.
    Io(io::ErrorKind),
    /// The file does not start with [`MAGIC`].
    NotCbg,
    /// The version byte is not [`VERSION`].
    Version(u8),
    /// The move codec byte is not 0 or 1.
    Codec(u8),
    /// The file ends inside a record, or without its trailer.
    Truncated,
    /// A record's check does not match its body.
    Checksum,
    /// A record tag that cannot be there.
    Record(u8),
    /// A length or count above its limit.
    TooLarge(u64),
    /// A field that does not read: its name.
    Field(&'static str),
    /// The start position does not decode.
    Position(PackedError),
    /// The mainline does not decode.
    Moves(MoveDecodeError),
    /// The trailer's game count is not the number of games read.
    Count {
        /// The trailer's count.
        trailer: u64,
        /// Games read.
        read: u64,
    },
    /// There is no game of that number.
    NoSuchGame(u64),
}

impl fmt::Display for CbgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {} (byte {}): {}", self.game, self.byte, self.kind)
    }
}

impl fmt::Display for CbgErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CbgErrorKind::Io(kind) => write!(f, "read error: {kind}"),
            CbgErrorKind::NotCbg => f.write_str("not a .cbg file"),
            CbgErrorKind::Version(v) => write!(f, "unknown version {v}"),
            CbgErrorKind::Codec(c) => write!(f, "unknown move codec {c}"),
            CbgErrorKind::Truncated => f.write_str("the file ends early"),
            CbgErrorKind::Checksum => f.write_str("checksum mismatch"),
            CbgErrorKind::Record(tag) => write!(f, "unexpected record tag {tag:#04x}"),
            CbgErrorKind::TooLarge(n) => write!(f, "length {n} is too large"),
            CbgErrorKind::Field(name) => write!(f, "bad {name}"),
            CbgErrorKind::Position(e) => write!(f, "start position: {e}"),
            CbgErrorKind::Moves(e) => write!(f, "moves: {e}"),
            CbgErrorKind::Count { trailer, read } => {
                write!(f, "the trailer counts {trailer} games, {read} were read")
            }
            CbgErrorKind::NoSuchGame(n) => write!(f, "no game {n}"),
        }
    }
}

impl std::error::Error for CbgError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            CbgErrorKind::Position(err) => Some(err),
            CbgErrorKind::Moves(err) => Some(err),
            _ => None,
        }
    }
}

/// Why a game could not be written.
#[derive(Debug)]
#[non_exhaustive]
pub enum CbgWriteError {
    /// A move of the mainline is not legal.
    Move(MoveEncodeError),
    /// Writing failed.
    Io(io::Error),
}

impl fmt::Display for CbgWriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CbgWriteError::Move(e) => write!(f, "{e}"),
            CbgWriteError::Io(e) => write!(f, "write error: {e}"),
        }
    }
}

impl std::error::Error for CbgWriteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CbgWriteError::Move(err) => Some(err),
            CbgWriteError::Io(err) => Some(err),
        }
    }
}

impl From<io::Error> for CbgWriteError {
    fn from(e: io::Error) -> Self {
        CbgWriteError::Io(e)
    }
}

// ---------------------------------------------------------------------------------------
// Primitives.

/// The CRC-16/CCITT-FALSE table (polynomial 0x1021).
static CRC_TABLE: [u16; 256] = {
    let mut table = [0u16; 256];
    let mut i = 0;
    while i < 256 {
        let mut crc = (i as u16) << 8;
        let mut bit = 0;
        while bit < 8 {
            crc = if crc & 0x8000 != 0 { crc << 1 ^ 0x1021 } else { crc << 1 };
            bit += 1;
        }
        table[i] = crc;
        i += 1;
    }
    table
};

/// CRC-16/CCITT-FALSE (initial value 0xffff, no reflection, no final xor).
pub fn crc16(bytes: &[u8]) -> u16 {
    let mut crc = 0xffffu16;
    for &b in bytes {
        crc = crc << 8 ^ CRC_TABLE[((crc >> 8) as u8 ^ b) as usize];
    }
    crc
}

fn put_varint(out: &mut Vec<u8>, value: u64) {
    crate::io::leb128(value, |byte| out.push(byte));
}

fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    put_varint(out, bytes.len() as u64);
    out.extend_from_slice(bytes);
}

const fn zigzag(v: i64) -> u64 {
    (v << 1 ^ v >> 63) as u64
}

const fn unzigzag(v: u64) -> i64 {
    (v >> 1) as i64 ^ -((v & 1) as i64)
}

/// A cursor over a record body, naming the file offset of what it reads.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
    /// The file offset of `bytes[0]`.
    base: u64,
    game: u64,
}

impl<'a> Cursor<'a> {
    fn error(&self, kind: CbgErrorKind) -> CbgError {
        CbgError { game: self.game, byte: self.base + self.at as u64, kind }
    }

    fn byte(&mut self, field: &'static str) -> Result<u8, CbgError> {
        let b = self.bytes.get(self.at).copied().ok_or(self.error(CbgErrorKind::Field(field)))?;
        self.at += 1;
        Ok(b)
    }

    fn varint(&mut self, field: &'static str) -> Result<u64, CbgError> {
        let start = self.at;
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte(field)?;
            let bits = u64::from(b & 0x7f);
            if shift == 63 && bits > 1 {
                break;
            }
            value |= bits << shift;
            if b & 0x80 == 0 {
                // One encoding per number: no trailing zero groups.
                if b == 0 && self.at - start > 1 {
                    break;
                }
                return Ok(value);
            }
        }
        self.at = start;
        Err(self.error(CbgErrorKind::Field(field)))
    }

    fn take(&mut self, n: u64, field: &'static str) -> Result<&'a [u8], CbgError> {
        let end = usize::try_from(n).ok().and_then(|n| self.at.checked_add(n));
        let slice = end.and_then(|end| self.bytes.get(self.at..end));
        let slice = slice.ok_or(self.error(CbgErrorKind::Field(field)))?;
        self.at += slice.len();
        Ok(slice)
    }

    fn bytes(&mut self, field: &'static str) -> Result<&'a [u8], CbgError> {
        let n = self.varint(field)?;
        self.take(n, field)
    }

    fn u64_le(&mut self, field: &'static str) -> Result<u64, CbgError> {
        let bytes = self.take(8, field)?;
        let mut word = [0u8; 8];
        word.copy_from_slice(bytes);
        Ok(u64::from_le_bytes(word))
    }

    fn done(&self) -> Result<(), CbgError> {
        if self.at == self.bytes.len() {
            Ok(())
        } else {
            Err(self.error(CbgErrorKind::Field("record end (bytes left over)")))
        }
    }
}

// ---------------------------------------------------------------------------------------
// Tags.

/// A canonical decimal: digits, no leading zero (but `0`), fits a u64.
fn decimal(text: &[u8]) -> Option<u64> {
    if text.is_empty() || text.len() > 19 || !text.iter().all(u8::is_ascii_digit) {
        return None;
    }
    if text.len() > 1 && text.first() == Some(&b'0') {
        return None;
    }
    Some(text.iter().fold(0u64, |n, &d| n * 10 + u64::from(d - b'0')))
}

/// A date part: all digits (its value plus 1) or all `?` (0).
fn date_part(text: &[u8]) -> Option<u64> {
    if text.iter().all(|&b| b == b'?') {
        Some(0)
    } else if text.iter().all(u8::is_ascii_digit) {
        Some(text.iter().fold(0u64, |n, &d| n * 10 + u64::from(d - b'0')) + 1)
    } else {
        None
    }
}

fn write_date_part(out: &mut Vec<u8>, part: u64, width: usize) -> Option<()> {
    if part == 0 {
        out.extend(core::iter::repeat_n(b'?', width));
    } else {
        let text = format!("{:0width$}", part - 1);
        if text.len() != width {
            return None;
        }
        out.extend_from_slice(text.as_bytes());
    }
    Some(())
}

fn put_name(out: &mut Vec<u8>, name: &[u8]) {
    match KNOWN_TAGS.iter().position(|&k| k.as_bytes() == name) {
        Some(i) => put_varint(out, i as u64 + 1),
        None => {
            put_varint(out, 0);
            put_bytes(out, name);
        }
    }
}

fn put_value(out: &mut Vec<u8>, name: &[u8], value: &[u8], start: &Position) {
    if let Some(i) = [&b"1-0"[..], b"0-1", b"1/2-1/2", b"*"].iter().position(|&r| r == value) {
        put_varint(out, 8);
        put_varint(out, i as u64);
        return;
    }
    if name == b"FEN" {
        if let Some(i) = FEN_OPTIONS.iter().position(|&o| fen_of(start, o).as_bytes() == value) {
            put_varint(out, 7);
            put_varint(out, i as u64);
            return;
        }
    }
    if let Some(n) = decimal(value) {
        put_varint(out, 1);
        put_varint(out, n);
        return;
    }
    if let (Some(&sign @ (b'+' | b'-')), Some(rest)) = (value.first(), value.get(1..)) {
        if let Some(n) = decimal(rest).filter(|&n| n < 1 << 62) {
            put_varint(out, 2);
            put_varint(out, n << 1 | u64::from(sign == b'-'));
            return;
        }
    }
    if let [y0, y1, y2, y3, b'.', m0, m1, b'.', d0, d1] = *value {
        if let (Some(y), Some(m), Some(d)) =
            (date_part(&[y0, y1, y2, y3]), date_part(&[m0, m1]), date_part(&[d0, d1]))
        {
            put_varint(out, 3);
            put_varint(out, y);
            put_varint(out, m);
            put_varint(out, d);
            return;
        }
    }
    if let [h0, h1, b':', m0, m1, b':', s0, s1] = *value {
        let digits = [h0, h1, m0, m1, s0, s1];
        if digits.iter().all(u8::is_ascii_digit) {
            let [h, m, s] =
                [0, 2, 4].map(|i| u64::from((digits[i] - b'0') * 10 + digits[i + 1] - b'0'));
            if m < 60 && s < 60 {
                put_varint(out, 4);
                put_varint(out, h * 3600 + m * 60 + s);
                return;
            }
        }
    }
    if let Some(plus) = value.iter().position(|&b| b == b'+') {
        if let (Some(base), Some(inc)) = (decimal(&value[..plus]), decimal(&value[plus + 1..])) {
            put_varint(out, 6);
            put_varint(out, base);
            put_varint(out, inc);
            return;
        }
    }
    if let Some(i) = PREFIXES.iter().position(|p| value.starts_with(p.as_bytes())) {
        put_varint(out, 5);
        put_varint(out, i as u64);
        put_bytes(out, &value[PREFIXES[i].len()..]);
        return;
    }
    put_varint(out, 0);
    put_bytes(out, value);
}

fn read_value(c: &mut Cursor<'_>, start: &Position) -> Result<Vec<u8>, CbgError> {
    let field = "tag value";
    let at = c.at;
    let bad = |c: &Cursor<'_>| CbgError {
        game: c.game,
        byte: c.base + at as u64,
        kind: CbgErrorKind::Field(field),
    };
    let mut out = Vec::new();
    match c.varint(field)? {
        0 => out.extend_from_slice(c.bytes(field)?),
        1 => out.extend_from_slice(c.varint(field)?.to_string().as_bytes()),
        2 => {
            let v = c.varint(field)?;
            out.push(if v & 1 == 1 { b'-' } else { b'+' });
            out.extend_from_slice((v >> 1).to_string().as_bytes());
        }
        3 => {
            let (y, m, d) = (c.varint(field)?, c.varint(field)?, c.varint(field)?);
            write_date_part(&mut out, y, 4).ok_or(bad(c))?;
            out.push(b'.');
            write_date_part(&mut out, m, 2).ok_or(bad(c))?;
            out.push(b'.');
            write_date_part(&mut out, d, 2).ok_or(bad(c))?;
        }
        4 => {
            let v = c.varint(field)?;
            if v >= 100 * 3600 {
                return Err(bad(c));
            }
            out.extend_from_slice(
                format!("{:02}:{:02}:{:02}", v / 3600, v / 60 % 60, v % 60).as_bytes(),
            );
        }
        5 => {
            let prefix = PREFIXES.get(c.varint(field)? as usize).ok_or(bad(c))?;
            out.extend_from_slice(prefix.as_bytes());
            out.extend_from_slice(c.bytes(field)?);
        }
        6 => {
            let (base, inc) = (c.varint(field)?, c.varint(field)?);
            out.extend_from_slice(format!("{base}+{inc}").as_bytes());
        }
        7 => {
            let options = FEN_OPTIONS.get(c.varint(field)? as usize).ok_or(bad(c))?;
            out.extend_from_slice(fen_of(start, *options).as_bytes());
        }
        8 => {
            let result =
                ["1-0", "0-1", "1/2-1/2", "*"].get(c.varint(field)? as usize).ok_or(bad(c))?;
            out.extend_from_slice(result.as_bytes());
        }
        _ => return Err(bad(c)),
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------
// Columns.

fn put_presence<T>(out: &mut Vec<u8>, values: &[Option<T>]) {
    if values.iter().all(Option::is_some) {
        put_varint(out, 0);
    } else {
        put_varint(out, 1);
        for chunk in values.chunks(8) {
            let byte = chunk.iter().enumerate().fold(0u8, |b, (i, v)| b | (v.is_some() as u8) << i);
            out.push(byte);
        }
    }
}

fn read_presence(
    c: &mut Cursor<'_>,
    plies: usize,
    field: &'static str,
) -> Result<Vec<bool>, CbgError> {
    match c.varint(field)? {
        0 => Ok(vec![true; plies]),
        1 => {
            let bits = c.take(plies.div_ceil(8) as u64, field)?;
            let present: Vec<bool> = (0..plies)
                .map(|i| bits.get(i / 8).is_some_and(|b| b >> (i % 8) & 1 == 1))
                .collect();
            // Padding bits are zero; an all-set map would be presence 0.
            let pad =
                bits.last()
                    .map_or(0, |&b| if plies.is_multiple_of(8) { 0 } else { b >> (plies % 8) });
            if pad != 0 || present.iter().all(|&p| p) {
                return Err(c.error(CbgErrorKind::Field(field)));
            }
            Ok(present)
        }
        _ => Err(c.error(CbgErrorKind::Field(field))),
    }
}

/// Clock units by code, in milliseconds.
const UNITS: [u64; 4] = [1000, 100, 10, 1];

fn put_clocks(out: &mut Vec<u8>, clocks: &[Option<Clock>]) {
    put_presence(out, clocks);
    let unit_code =
        (0..3).find(|&u| clocks.iter().flatten().all(|c| c.millis() % UNITS[u] == 0)).unwrap_or(3);
    put_varint(out, unit_code as u64);
    let unit = UNITS[unit_code];
    let mut previous: [Option<u64>; 2] = [None, None];
    let mut last = None;
    for (ply, clock) in clocks.iter().enumerate() {
        if let Some(clock) = clock {
            let value = clock.millis() / unit;
            let predicted = previous[ply % 2].or(last).unwrap_or(0);
            put_varint(out, zigzag(value.wrapping_sub(predicted) as i64));
            previous[ply % 2] = Some(value);
            last = Some(value);
        }
    }
}

fn read_clocks(c: &mut Cursor<'_>, plies: usize) -> Result<Vec<Option<Clock>>, CbgError> {
    let field = "clock";
    let present = read_presence(c, plies, field)?;
    let unit_code = c.varint(field)?;
    let unit = *UNITS.get(unit_code as usize).ok_or(c.error(CbgErrorKind::Field(field)))?;
    let mut previous: [Option<u64>; 2] = [None, None];
    let mut last = None;
    let mut clocks = Vec::with_capacity(plies);
    let mut coarser = true;
    for (ply, &p) in present.iter().enumerate() {
        if !p {
            clocks.push(None);
            continue;
        }
        let predicted = previous[ply % 2].or(last).unwrap_or(0);
        let value = predicted.wrapping_add(unzigzag(c.varint(field)?) as u64);
        previous[ply % 2] = Some(value);
        last = Some(value);
        let millis = value.checked_mul(unit).ok_or(c.error(CbgErrorKind::Field(field)))?;
        coarser &= unit_code > 0 && millis % UNITS[unit_code as usize - 1] == 0;
        clocks.push(Some(Clock::from_millis(millis)));
    }
    // One encoding per column: the unit is the coarsest that fits.
    if coarser {
        return Err(c.error(CbgErrorKind::Field(field)));
    }
    Ok(clocks)
}

fn put_evals(out: &mut Vec<u8>, evals: &[Option<Eval>]) {
    put_presence(out, evals);
    let mut previous = 0i64;
    for eval in evals.iter().flatten() {
        let (x, mate) = match eval.score {
            Score::Centipawns(cp) => {
                let delta = i64::from(cp) - previous;
                previous = i64::from(cp);
                (delta, 0)
            }
            Score::Mate(n) => (i64::from(n), 1),
        };
        put_varint(out, zigzag(x) << 2 | u64::from(eval.depth.is_some()) << 1 | mate);
        if let Some(depth) = eval.depth {
            put_varint(out, u64::from(depth));
        }
    }
}

fn read_evals(c: &mut Cursor<'_>, plies: usize) -> Result<Vec<Option<Eval>>, CbgError> {
    let field = "evaluation";
    let present = read_presence(c, plies, field)?;
    let mut previous = 0i64;
    let mut evals = Vec::with_capacity(plies);
    for p in present {
        if !p {
            evals.push(None);
            continue;
        }
        let code = c.varint(field)?;
        let x = unzigzag(code >> 2);
        let score = if code & 1 == 1 {
            Score::Mate(i32::try_from(x).map_err(|_| c.error(CbgErrorKind::Field(field)))?)
        } else {
            let cp = previous + x;
            previous = cp;
            Score::Centipawns(i32::try_from(cp).map_err(|_| c.error(CbgErrorKind::Field(field)))?)
        };
        let depth = if code & 2 == 2 {
            Some(u32::try_from(c.varint(field)?).map_err(|_| c.error(CbgErrorKind::Field(field)))?)
        } else {
            None
        };
        evals.push(Some(Eval { score, depth }));
    }
    Ok(evals)
}

// ---------------------------------------------------------------------------------------
// Game bodies.

const RESULTS: [GameResult; 4] =
    [GameResult::WhiteWins, GameResult::BlackWins, GameResult::Draw, GameResult::Unknown];

/// Whether `start` is the standard start position, and in which castling mode.
fn standard_start(start: &Position) -> Option<CastlingMode> {
    let mode = start.castling_mode();
    let mut standard = Position::new();
    standard.set_castling_mode(mode).ok()?;
    (*start == standard).then_some(mode)
}

/// What encoding a game body produced: the size of its coded moves.
struct Encoded {
    move_bytes: usize,
}

fn encode_body(
    game: &GameRecord,
    skipped: u64,
    encoder: &mut MoveEncoder,
    codec: MoveCodec,
    moves: &mut Vec<u8>,
    out: &mut Vec<u8>,
) -> Result<Encoded, MoveEncodeError> {
    // The moves first: an illegal one leaves `out` as it was.
    moves.clear();
    encoder.reset(codec, &game.start);
    for &m in &game.moves {
        encoder.push(m)?;
    }
    encoder.finish(moves);

    let standard = standard_start(&game.start);
    let clocks = game.clocks.iter().any(Option::is_some);
    let evals = game.evals.iter().any(Option::is_some);
    let result =
        game.result.and_then(|r| RESULTS.iter().position(|&x| x == r)).map_or(0, |i| i + 1);
    let flags = u8::from(standard.is_none())
        | u8::from(standard == Some(CastlingMode::Chess960)) << 1
        | (result as u8) << 2
        | u8::from(skipped > 0) << 5
        | u8::from(clocks) << 6
        | u8::from(evals) << 7;
    out.push(flags);
    if skipped > 0 {
        put_varint(out, skipped);
    }
    put_varint(out, game.tags.len() as u64);
    for (name, value) in &game.tags {
        put_name(out, name);
        put_value(out, name, value, &game.start);
    }
    if standard.is_none() {
        put_bytes(out, packed::encode(&game.start, true).as_bytes());
    }
    put_varint(out, game.moves.len() as u64);
    put_bytes(out, moves);
    if clocks {
        put_clocks(out, &game.clocks);
    }
    if evals {
        put_evals(out, &game.evals);
    }
    Ok(Encoded { move_bytes: moves.len() })
}

fn decode_body(
    body: &[u8],
    base: u64,
    game: u64,
    codec: MoveCodec,
) -> Result<GameRecord, CbgError> {
    let mut c = Cursor { bytes: body, at: 0, base, game };
    let flags = c.byte("flags")?;
    let result = match flags >> 2 & 7 {
        0 => None,
        r @ 1..=4 => RESULTS.get(r as usize - 1).copied(),
        _ => return Err(c.error(CbgErrorKind::Field("flags"))),
    };
    if flags & 3 == 3 {
        return Err(c.error(CbgErrorKind::Field("flags")));
    }
    let skipped = if flags & 0x20 != 0 {
        let n = c.varint("skipped count")?;
        if n == 0 {
            return Err(c.error(CbgErrorKind::Field("skipped count")));
        }
        n
    } else {
        0
    };
    // Names and raw value forms first: form 7 needs the start position, which follows.
    let raw_tags = read_tag_names(&mut c)?;
    let start = read_start(&mut c, flags)?;
    let end_of_tags = c.at;
    let mut tags = Vec::with_capacity(raw_tags.len());
    for (name, at) in raw_tags {
        c.at = at;
        tags.push((name, read_value(&mut c, &start)?));
    }
    c.at = end_of_tags;
    let moves = read_moves(&mut c, codec, &start)?;
    let plies = moves.len();
    let clocks = if flags & 0x40 != 0 {
        let clocks = read_clocks(&mut c, plies)?;
        if clocks.iter().all(Option::is_none) {
            return Err(c.error(CbgErrorKind::Field("clock")));
        }
        clocks
    } else {
        vec![None; plies]
    };
    let evals = if flags & 0x80 != 0 {
        let evals = read_evals(&mut c, plies)?;
        if evals.iter().all(Option::is_none) {
            return Err(c.error(CbgErrorKind::Field("evaluation")));
        }
        evals
    } else {
        vec![None; plies]
    };
    c.done()?;
    Ok(GameRecord { number: game + skipped, tags, start, moves, clocks, evals, result })
}

/// The tag names of a game body, each with where its value starts (values are read once the
/// start position is known).
fn read_tag_names(c: &mut Cursor<'_>) -> Result<Vec<(Vec<u8>, usize)>, CbgError> {
    let tag_count = c.varint("tag count")?;
    if tag_count > c.bytes.len() as u64 {
        return Err(c.error(CbgErrorKind::TooLarge(tag_count)));
    }
    let mut raw_tags = Vec::with_capacity(tag_count as usize);
    for _ in 0..tag_count {
        let name = match c.varint("tag name")? {
            0 => c.bytes("tag name")?.to_vec(),
            k => KNOWN_TAGS
                .get(k as usize - 1)
                .ok_or(c.error(CbgErrorKind::Field("tag name")))?
                .as_bytes()
                .to_vec(),
        };
        let value_at = c.at;
        skip_value(c)?;
        raw_tags.push((name, value_at));
    }
    Ok(raw_tags)
}

/// The start position: `packed` bytes if the flags say one follows, else the standard one
/// (with Chess960 castling if flagged).
fn read_start(c: &mut Cursor<'_>, flags: u8) -> Result<Position, CbgError> {
    if flags & 1 == 0 {
        let mut pos = Position::new();
        if flags & 2 != 0 {
            let _ = pos.set_castling_mode(CastlingMode::Chess960);
        }
        return Ok(pos);
    }
    let at = c.at;
    let bytes = c.bytes("start position")?;
    packed::decode(bytes).map_err(|e| CbgError {
        game: c.game,
        byte: c.base + at as u64,
        kind: CbgErrorKind::Position(e),
    })
}

/// The ply count and the coded mainline, decoded from `start`.
fn read_moves(
    c: &mut Cursor<'_>,
    codec: MoveCodec,
    start: &Position,
) -> Result<Vec<chessbits_move::Move16>, CbgError> {
    let plies = c.varint("ply count")?;
    if plies > MAX_PLIES {
        return Err(c.error(CbgErrorKind::TooLarge(plies)));
    }
    let coded = c.bytes("moves")?;
    let coded_at = c.base + (c.at - coded.len()) as u64;
    let game = c.game;
    let mut decoder = MoveDecoder::new(codec, start, coded);
    let mut moves = Vec::with_capacity(plies as usize);
    let moves_error = |e: MoveDecodeError| CbgError {
        game,
        byte: coded_at + e.byte as u64,
        kind: CbgErrorKind::Moves(e),
    };
    for _ in 0..plies {
        moves.push(decoder.next_move().map_err(moves_error)?);
    }
    decoder.finish().map_err(moves_error)?;
    Ok(moves)
}

/// Passes over a tag value without building it.
fn skip_value(c: &mut Cursor<'_>) -> Result<(), CbgError> {
    let field = "tag value";
    match c.varint(field)? {
        0 => {
            c.bytes(field)?;
        }
        1 | 2 | 4 | 7 | 8 => {
            c.varint(field)?;
        }
        3 => {
            for _ in 0..3 {
                c.varint(field)?;
            }
        }
        5 => {
            c.varint(field)?;
            c.bytes(field)?;
        }
        6 => {
            c.varint(field)?;
            c.varint(field)?;
        }
        _ => return Err(c.error(CbgErrorKind::Field(field))),
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Writing.

/// What one written game took.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct WrittenGame {
    /// Bytes of the coded mainline.
    pub move_bytes: usize,
    /// Bytes of the whole game record.
    pub record_bytes: usize,
}

/// Writes games to a `.cbg` stream: the header at once, a game record per
/// [`CbgWriter::write_game`], the indexes and trailer at [`CbgWriter::finish`].
pub struct CbgWriter<W: Write> {
    out: W,
    codec: MoveCodec,
    encoder: MoveEncoder,
    moves: Vec<u8>,
    body: Vec<u8>,
    record: Vec<u8>,
    /// Bytes written so far.
    offset: u64,
    games: u64,
    /// The current block: its first game's offset and the sizes of its records.
    block_start: u64,
    block: Vec<u64>,
    /// The offsets of the block index records written.
    blocks: Vec<u64>,
}

impl<W: Write> CbgWriter<W> {
    /// A writer that writes the header to `out` at once.
    ///
    /// # Errors
    /// Writing the header failed.
    pub fn new(mut out: W, codec: MoveCodec) -> io::Result<CbgWriter<W>> {
        let mut header = MAGIC.to_vec();
        header.extend_from_slice(&[VERSION, codec_byte(codec), 0, 0]);
        out.write_all(&header)?;
        Ok(CbgWriter {
            out,
            codec,
            encoder: MoveEncoder::new(codec, &Position::new()),
            moves: Vec::new(),
            body: Vec::new(),
            record: Vec::new(),
            offset: HEADER_LEN as u64,
            games: 0,
            block_start: HEADER_LEN as u64,
            block: Vec::with_capacity(BLOCK_GAMES),
            blocks: Vec::new(),
        })
    }

    /// Games written so far.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Bytes written so far.
    pub fn bytes(&self) -> u64 {
        self.offset
    }

    fn write_record(&mut self, tag: u8) -> io::Result<u64> {
        self.record.clear();
        self.record.push(tag);
        put_varint(&mut self.record, self.body.len() as u64);
        self.record.extend_from_slice(&self.body);
        self.record.extend_from_slice(&crc16(&self.body).to_be_bytes());
        self.out.write_all(&self.record)?;
        let size = self.record.len() as u64;
        self.offset += size;
        Ok(size)
    }

    /// Writes one game.
    ///
    /// # Errors
    /// [`CbgWriteError::Move`] if a move of the mainline is illegal (nothing is written then),
    /// [`CbgWriteError::Io`] if writing fails.
    pub fn write_game(&mut self, game: &GameRecord) -> Result<WrittenGame, CbgWriteError> {
        let index = self.games + 1;
        let skipped = game.number.saturating_sub(index);
        self.body.clear();
        let encoded = encode_body(
            game,
            skipped,
            &mut self.encoder,
            self.codec,
            &mut self.moves,
            &mut self.body,
        )
        .map_err(CbgWriteError::Move)?;
        if self.block.is_empty() {
            self.block_start = self.offset;
        }
        let size = self.write_record(b'G')?;
        self.block.push(size);
        self.games += 1;
        if self.block.len() == BLOCK_GAMES {
            self.write_block()?;
        }
        Ok(WrittenGame { move_bytes: encoded.move_bytes, record_bytes: size as usize })
    }

    fn write_block(&mut self) -> io::Result<()> {
        if self.block.is_empty() {
            return Ok(());
        }
        self.body.clear();
        put_varint(&mut self.body, self.games - self.block.len() as u64);
        self.body.extend_from_slice(&self.block_start.to_le_bytes());
        put_varint(&mut self.body, self.block.len() as u64);
        for &size in &self.block {
            put_varint(&mut self.body, size);
        }
        self.blocks.push(self.offset);
        self.write_record(b'I')?;
        self.block.clear();
        Ok(())
    }

    /// Writes the last block index, the top index and the trailer, flushes, and returns the
    /// output.
    ///
    /// # Errors
    /// Writing failed.
    pub fn finish(mut self) -> io::Result<W> {
        self.write_block()?;
        self.body.clear();
        for &offset in &self.blocks {
            self.body.extend_from_slice(&offset.to_le_bytes());
        }
        let top = self.offset;
        self.write_record(b'X')?;
        self.body.clear();
        self.body.extend_from_slice(&top.to_le_bytes());
        self.body.extend_from_slice(&self.games.to_le_bytes());
        self.write_record(b'T')?;
        self.out.flush()?;
        Ok(self.out)
    }
}

fn codec_byte(codec: MoveCodec) -> u8 {
    match codec {
        MoveCodec::Model => 0,
        MoveCodec::Index => 1,
    }
}

fn read_header(header: &[u8; HEADER_LEN]) -> Result<MoveCodec, CbgError> {
    let error = |byte, kind| CbgError { game: 1, byte, kind };
    if header[..8] != MAGIC {
        return Err(error(0, CbgErrorKind::NotCbg));
    }
    if header[8] != VERSION {
        return Err(error(8, CbgErrorKind::Version(header[8])));
    }
    let codec = match header[9] {
        0 => MoveCodec::Model,
        1 => MoveCodec::Index,
        c => return Err(error(9, CbgErrorKind::Codec(c))),
    };
    if header[10..] != [0, 0] {
        return Err(error(10, CbgErrorKind::Field("header padding")));
    }
    Ok(codec)
}

// ---------------------------------------------------------------------------------------
// Reading, in order.

/// Reads the games of a `.cbg` stream in order, one at a time (an [`Iterator`] of
/// `Result<GameRecord, CbgError>`).
pub struct CbgReader<R: Read> {
    input: R,
    codec: MoveCodec,
    /// The offset of the next byte to read.
    offset: u64,
    games: u64,
    body: Vec<u8>,
    done: bool,
}

impl<R: Read> CbgReader<R> {
    /// A reader that reads the header at once.
    ///
    /// # Errors
    /// The header cannot be read or is not a `.cbg` header.
    pub fn new(mut input: R) -> Result<CbgReader<R>, CbgError> {
        let mut header = [0u8; HEADER_LEN];
        read_exact(&mut input, &mut header, 0, 1)?;
        let codec = read_header(&header)?;
        Ok(CbgReader {
            input,
            codec,
            offset: HEADER_LEN as u64,
            games: 0,
            body: Vec::new(),
            done: false,
        })
    }

    /// The move codec of the file.
    pub fn codec(&self) -> MoveCodec {
        self.codec
    }

    /// Reads the next record: its tag, its start offset and whether its check matches; the
    /// body in `self.body`.
    fn record(&mut self) -> Result<(u8, u64, bool), CbgError> {
        let start = self.offset;
        let game = self.games + 1;
        let (tag, len, header) = read_frame(&mut self.input, start, game)?;
        self.offset += header;
        let len_usize = len as usize;
        read_body(&mut self.input, &mut self.body, len_usize + 2, self.offset, game)?;
        self.offset += len + 2;
        let check = u16::from_be_bytes([self.body[len_usize], self.body[len_usize + 1]]);
        self.body.truncate(len_usize);
        Ok((tag, start, crc16(&self.body) == check))
    }

    fn next_game(&mut self) -> Option<Result<GameRecord, CbgError>> {
        while !self.done {
            let (tag, start, checked) = match self.record() {
                Ok(record) => record,
                Err(e) => {
                    // The frame is broken: nothing after it can be found.
                    self.done = true;
                    return Some(Err(e));
                }
            };
            // A bad check or content leaves the frame intact: reading goes on after it.
            if tag == b'G' {
                self.games += 1;
            }
            if !checked {
                let game = if tag == b'G' { self.games } else { self.games + 1 };
                return Some(Err(CbgError { game, byte: start, kind: CbgErrorKind::Checksum }));
            }
            let header = frame_header_len(self.body.len() as u64);
            match tag {
                b'G' => {
                    return Some(decode_body(&self.body, start + header, self.games, self.codec));
                }
                b'I' | b'X' => {}
                b'T' => {
                    self.done = true;
                    let mut c = Cursor {
                        bytes: &self.body,
                        at: 0,
                        base: start + header,
                        game: self.games + 1,
                    };
                    let games = c.u64_le("trailer").and_then(|_| c.u64_le("trailer"));
                    return match games.and_then(|g| c.done().map(|()| g)) {
                        Err(e) => Some(Err(e)),
                        Ok(count) if count != self.games => Some(Err(CbgError {
                            game: self.games + 1,
                            byte: start,
                            kind: CbgErrorKind::Count { trailer: count, read: self.games },
                        })),
                        Ok(_) => None,
                    };
                }
                other => {
                    self.done = true;
                    return Some(Err(CbgError {
                        game: self.games + 1,
                        byte: start,
                        kind: CbgErrorKind::Record(other),
                    }));
                }
            }
        }
        None
    }
}

impl<R: Read> Iterator for CbgReader<R> {
    type Item = Result<GameRecord, CbgError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_game()
    }
}

/// The bytes of a record's tag and length.
fn frame_header_len(len: u64) -> u64 {
    let mut n = 1;
    let mut v = len;
    while v >= 0x80 {
        v >>= 7;
        n += 1;
    }
    1 + n
}

/// Reads `len` bytes into `body` (cleared first), growing it only as the bytes arrive, so that
/// a corrupt length costs no more memory than the input holds (plus one chunk).
fn read_body(
    input: &mut impl Read,
    body: &mut Vec<u8>,
    len: usize,
    offset: u64,
    game: u64,
) -> Result<(), CbgError> {
    const CHUNK: usize = 1 << 16;
    body.clear();
    while body.len() < len {
        let filled = body.len();
        body.resize(filled + (len - filled).min(CHUNK), 0);
        let buf = body.get_mut(filled..).unwrap_or_default();
        read_exact(input, buf, offset + filled as u64, game)?;
    }
    Ok(())
}

fn read_exact(
    input: &mut impl Read,
    buf: &mut [u8],
    offset: u64,
    game: u64,
) -> Result<(), CbgError> {
    let mut filled = 0;
    while filled < buf.len() {
        match input.read(buf.get_mut(filled..).unwrap_or(&mut [])) {
            Ok(0) => {
                return Err(CbgError {
                    game,
                    byte: offset + filled as u64,
                    kind: CbgErrorKind::Truncated,
                })
            }
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                return Err(CbgError {
                    game,
                    byte: offset + filled as u64,
                    kind: CbgErrorKind::Io(e.kind()),
                })
            }
        }
    }
    Ok(())
}

/// Reads a record's tag and length; returns them and the header's size.
fn read_frame(input: &mut impl Read, offset: u64, game: u64) -> Result<(u8, u64, u64), CbgError> {
    let mut byte = [0u8; 1];
    read_exact(input, &mut byte, offset, game)?;
    let tag = byte[0];
    if !matches!(tag, b'G' | b'I' | b'X' | b'T') {
        return Err(CbgError { game, byte: offset, kind: CbgErrorKind::Record(tag) });
    }
    let mut len = 0u64;
    let mut read = 1u64;
    for shift in (0..64).step_by(7) {
        read_exact(input, &mut byte, offset + read, game)?;
        read += 1;
        len |= u64::from(byte[0] & 0x7f) << shift;
        if byte[0] & 0x80 == 0 {
            break;
        }
        if shift >= 56 {
            return Err(CbgError {
                game,
                byte: offset + 1,
                kind: CbgErrorKind::Field("record length"),
            });
        }
    }
    if len > MAX_RECORD_LEN || frame_header_len(len) != read {
        return Err(CbgError { game, byte: offset + 1, kind: CbgErrorKind::TooLarge(len) });
    }
    Ok((tag, len, read))
}

// ---------------------------------------------------------------------------------------
// Random access.

/// A seekable `.cbg` file: the number of games, and any game by number without reading the
/// others (the trailer, one entry of the top index, one block index and the game's record).
pub struct CbgFile<R: Read + Seek> {
    input: R,
    codec: MoveCodec,
    games: u64,
    top: u64,
    blocks: u64,
    body: Vec<u8>,
}

impl<R: Read + Seek> CbgFile<R> {
    /// Opens a file: reads its header and trailer.
    ///
    /// # Errors
    /// The header or the trailer does not read.
    pub fn open(mut input: R) -> Result<CbgFile<R>, CbgError> {
        let io_error =
            |e: io::Error, byte| CbgError { game: 1, byte, kind: CbgErrorKind::Io(e.kind()) };
        input.seek(SeekFrom::Start(0)).map_err(|e| io_error(e, 0))?;
        let mut header = [0u8; HEADER_LEN];
        read_exact(&mut input, &mut header, 0, 1)?;
        let codec = read_header(&header)?;
        let end = input.seek(SeekFrom::End(0)).map_err(|e| io_error(e, 0))?;
        let trailer_at = end
            .checked_sub(TRAILER_LEN as u64)
            .filter(|&t| t >= HEADER_LEN as u64)
            .ok_or(CbgError { game: 1, byte: end, kind: CbgErrorKind::Truncated })?;
        let mut file = CbgFile { input, codec, games: 0, top: 0, blocks: 0, body: Vec::new() };
        let (tag, body_at) = file.record(trailer_at, 1)?;
        let mut c = Cursor { bytes: &file.body, at: 0, base: body_at, game: 1 };
        let (top, games) = (c.u64_le("trailer")?, c.u64_le("trailer")?);
        if tag != b'T' || c.done().is_err() {
            return Err(CbgError { game: 1, byte: trailer_at, kind: CbgErrorKind::Record(tag) });
        }
        // The top index's header, to find its entries.
        if top >= trailer_at || top < HEADER_LEN as u64 {
            return Err(CbgError {
                game: 1,
                byte: trailer_at,
                kind: CbgErrorKind::Field("index offset"),
            });
        }
        file.input.seek(SeekFrom::Start(top)).map_err(|e| io_error(e, top))?;
        let (tag, len, header) = read_frame(&mut file.input, top, 1)?;
        if tag != b'X' || len % 8 != 0 || top + header + len + 2 != trailer_at {
            return Err(CbgError { game: 1, byte: top, kind: CbgErrorKind::Record(tag) });
        }
        if len / 8 != games.div_ceil(BLOCK_GAMES as u64) {
            return Err(CbgError { game: 1, byte: top, kind: CbgErrorKind::Field("top index") });
        }
        file.games = games;
        file.top = top + header;
        file.blocks = len / 8;
        Ok(file)
    }

    /// The number of games.
    pub fn len(&self) -> u64 {
        self.games
    }

    /// `true` if the file has no games.
    pub fn is_empty(&self) -> bool {
        self.games == 0
    }

    /// The move codec of the file.
    pub fn codec(&self) -> MoveCodec {
        self.codec
    }

    /// Reads the record at `offset` into `self.body`; returns its tag and the body's offset.
    fn record(&mut self, offset: u64, game: u64) -> Result<(u8, u64), CbgError> {
        self.input.seek(SeekFrom::Start(offset)).map_err(|e| CbgError {
            game,
            byte: offset,
            kind: CbgErrorKind::Io(e.kind()),
        })?;
        let (tag, len, header) = read_frame(&mut self.input, offset, game)?;
        let len_usize = len as usize;
        read_body(&mut self.input, &mut self.body, len_usize + 2, offset + header, game)?;
        let check = u16::from_be_bytes([self.body[len_usize], self.body[len_usize + 1]]);
        self.body.truncate(len_usize);
        if crc16(&self.body) != check {
            return Err(CbgError { game, byte: offset, kind: CbgErrorKind::Checksum });
        }
        Ok((tag, offset + header))
    }

    /// Reads game `n` (from 1).
    ///
    /// # Errors
    /// [`CbgErrorKind::NoSuchGame`] if there is no such game; any error of the records read.
    pub fn game(&mut self, n: u64) -> Result<GameRecord, CbgError> {
        if n == 0 || n > self.games {
            return Err(CbgError { game: n, byte: 0, kind: CbgErrorKind::NoSuchGame(n) });
        }
        let index = n - 1;
        let block = index / BLOCK_GAMES as u64;
        let entry = self.top + 8 * block;
        let io_error =
            |e: io::Error, byte| CbgError { game: n, byte, kind: CbgErrorKind::Io(e.kind()) };
        self.input.seek(SeekFrom::Start(entry)).map_err(|e| io_error(e, entry))?;
        let mut word = [0u8; 8];
        read_exact(&mut self.input, &mut word, entry, n)?;
        let block_at = u64::from_le_bytes(word);
        let (tag, body_at) = self.record(block_at, n)?;
        if tag != b'I' {
            return Err(CbgError { game: n, byte: block_at, kind: CbgErrorKind::Record(tag) });
        }
        let mut c = Cursor { bytes: &self.body, at: 0, base: body_at, game: n };
        let first = c.varint("block index")?;
        let mut offset = c.u64_le("block index")?;
        let count = c.varint("block index")?;
        if first != block * BLOCK_GAMES as u64
            || count <= index - first
            || count > BLOCK_GAMES as u64
        {
            return Err(c.error(CbgErrorKind::Field("block index")));
        }
        for _ in first..index {
            offset = offset.saturating_add(c.varint("block index")?);
        }
        let (tag, body_at) = self.record(offset, n)?;
        if tag != b'G' {
            return Err(CbgError { game: n, byte: offset, kind: CbgErrorKind::Record(tag) });
        }
        decode_body(&self.body, body_at, n, self.codec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc_check_value() {
        // The published check value of CRC-16/CCITT-FALSE.
        assert_eq!(crc16(b"123456789"), 0x29b1);
        assert_eq!(crc16(b""), 0xffff);
    }

    #[test]
    fn varints_have_one_encoding() {
        for value in [0, 1, 127, 128, 300, 16_383, 16_384, u64::from(u32::MAX), u64::MAX] {
            let mut out = Vec::new();
            put_varint(&mut out, value);
            let mut c = Cursor { bytes: &out, at: 0, base: 0, game: 1 };
            assert_eq!(c.varint("x"), Ok(value));
            assert!(c.done().is_ok());
        }
        // Trailing zero groups, 65 bits, and a cut one are refused.
        for bad in [
            &[0x80, 0x00][..],
            &[0xff; 10][..],
            &[0x80][..],
            &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02][..],
        ] {
            let mut c = Cursor { bytes: bad, at: 0, base: 100, game: 3 };
            let err = c.varint("x").unwrap_err();
            assert_eq!((err.game, err.kind), (3, CbgErrorKind::Field("x")));
        }
        for v in [0i64, -1, 1, i64::MIN, i64::MAX] {
            assert_eq!(unzigzag(zigzag(v)), v);
        }
    }

    /// The form chosen for a tag value, and that it reads back.
    fn form(name: &str, value: &str) -> u64 {
        let start = Position::new();
        let mut out = Vec::new();
        put_value(&mut out, name.as_bytes(), value.as_bytes(), &start);
        let mut c = Cursor { bytes: &out, at: 0, base: 0, game: 1 };
        assert_eq!(read_value(&mut c, &start).expect("reads"), value.as_bytes(), "{name} {value}");
        assert!(c.done().is_ok());
        out[0].into()
    }

    #[test]
    fn tag_values_take_their_compact_forms_and_read_back_exactly() {
        let cases = [
            ("Event", "Rated Blitz game", 5),
            ("Site", "https://lichess.org/NRafdioG", 5),
            ("Date", "2021.10.01", 3),
            ("Date", "????.??.??", 3),
            ("Date", "1886.??.??", 3),
            ("Date", "2021.1.01", 0),
            ("Round", "-", 0),
            ("Round", "12", 1),
            ("Round", "012", 0),
            ("Result", "1/2-1/2", 8),
            ("WhiteElo", "2044", 1),
            ("WhiteRatingDiff", "+0", 2),
            ("BlackRatingDiff", "-13", 2),
            ("UTCTime", "23:59:07", 4),
            ("UTCTime", "23:60:07", 0),
            ("TimeControl", "180+2", 6),
            ("TimeControl", "180+02", 0),
            ("FEN", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 7),
            ("FEN", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", 7),
            ("FEN", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", 0),
            ("White", "Caf\u{e9}, Jos\u{e9}", 0),
            ("Black", "", 0),
            ("Annotator", "9999999999999999999", 1),
            ("Annotator", "18446744073709551615", 0),
        ];
        for (name, value, expected) in cases {
            assert_eq!(form(name, value), expected, "{name} {value}");
        }
    }

    #[test]
    fn clock_columns_pick_the_coarsest_unit_and_read_back() {
        let clocks = |millis: &[Option<u64>]| -> Vec<Option<Clock>> {
            millis.iter().map(|m| m.map(Clock::from_millis)).collect()
        };
        for (column, unit) in [
            (clocks(&[Some(180_000), Some(180_000), Some(178_000), None, Some(3_000)]), 0),
            (clocks(&[Some(5_300), Some(4_900)]), 1),
            (clocks(&[Some(1_250), None, None, None, None, None, None, None, Some(10)]), 2),
            (clocks(&[Some(1)]), 3),
            (clocks(&[Some(u64::MAX - 5), Some(0), Some(u64::MAX)]), 3),
        ] {
            let mut out = Vec::new();
            put_clocks(&mut out, &column);
            let mut c = Cursor { bytes: &out, at: 0, base: 0, game: 1 };
            assert_eq!(read_clocks(&mut c, column.len()).expect("reads"), column);
            assert!(c.done().is_ok());
            let presence =
                if column.iter().all(Option::is_some) { 1 } else { 1 + column.len().div_ceil(8) };
            assert_eq!(out[presence], unit, "{column:?}");
        }
    }

    #[test]
    fn eval_columns_read_back() {
        let evals = vec![
            Some(Eval { score: Score::Centipawns(17), depth: None }),
            None,
            Some(Eval { score: Score::Centipawns(-150), depth: Some(20) }),
            Some(Eval { score: Score::Mate(-3), depth: None }),
            Some(Eval { score: Score::Centipawns(i32::MIN), depth: Some(u32::MAX) }),
            Some(Eval { score: Score::Centipawns(i32::MAX), depth: None }),
        ];
        let mut out = Vec::new();
        put_evals(&mut out, &evals);
        let mut c = Cursor { bytes: &out, at: 0, base: 0, game: 1 };
        assert_eq!(read_evals(&mut c, evals.len()).expect("reads"), evals);
        assert!(c.done().is_ok());
    }
}
