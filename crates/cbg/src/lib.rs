//! `.cbg`: a file of many games. Per game: every tag, compactly; the start position if it is
//! not the standard one; the mainline, coded by a [`MoveCodec`]; the `[%clk]` and `[%eval]`
//! annotations as delta-coded columns. Other comments, glyphs and variations are dropped (and
//! counted by [`GameBuilder`]). An index gives game `N` without decoding the games before it;
//! [`CbgWriter`] and [`CbgReader`] stream in constant memory (one game, one block of 1,024
//! game sizes, and 8 bytes per block of the index while writing), and [`CbgFile`] reads any
//! game of a seekable file.
//!
//! Written from PGN and read back:
//!
//! ```
//! use chessbits_cbg::{CbgReader, CbgWriter, GameBuilder};
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
//! header    12 bytes   89 'C' 'B' 'G' 0d 0a 1a 0a, version (2), move codec (0 model, 1 index),
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
#![forbid(unsafe_code)]

use core::fmt;
use std::io::{self, Write};

use chessbits_notation::fen::{CastlingNotation, EnPassantMode, FenOptions};
use chessbits_state::Position;

use chessbits_codec::bits::{ErrorKindAt, GameByte, Located};
use chessbits_codec::move_codec::{MoveCodec, MoveDecodeError, MoveEncodeError, MoveEncoder};
use chessbits_codec::packed::PackedError;

mod body;
mod file;
mod kind;
mod reader;
mod record;

use body::{encode_body, put_varint, Encoded};

pub use body::CodedGame;
pub use file::CbgFile;
pub use kind::FileKind;
pub use reader::{CbgReader, RawGame};
pub use record::{GameBuilder, GameRecord};

/// The file's first eight bytes.
pub const MAGIC: [u8; 8] = [0x89, b'C', b'B', b'G', 0x0d, 0x0a, 0x1a, 0x0a];

/// The layout version this module reads and writes.
pub const VERSION: u8 = 2;

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
/// between games, the next one) and the byte offset in the file ([`GameByte`]), and what (the
/// binary decoders' one error shape, [`Located`]).
pub type CbgError = Located<GameByte, CbgErrorKind>;

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
    /// Bytes follow the trailer, which ends a file: another file joined on (`cat a.cbg
    /// b.cbg`), or garbage. Read each file on its own.
    AfterTrailer,
    /// An index record (the block index `I`, the top index `X`) or the trailer's offset of
    /// the top index does not match the game records read, or an index record's check
    /// failed: the file's fault, not a game's, and no game is lost by it
    /// ([`CbgErrorKind::is_index`]).
    Index {
        /// `"block index"`, `"top index"` or `"trailer"`.
        record: &'static str,
        /// Whether its check failed (else it reads, but says something else than the games).
        damaged: bool,
    },
}

impl CbgErrorKind {
    /// Whether the error is an index record's ([`CbgErrorKind::Index`]): a reader reports it
    /// as the file's, with no game row, and reads on.
    pub fn is_index(&self) -> bool {
        matches!(self, CbgErrorKind::Index { .. })
    }
}

impl fmt::Display for CbgErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CbgErrorKind::Io(kind) => write!(f, "read error: {kind}"),
            CbgErrorKind::NotCbg => f.write_str("not a .cbg file"),
            CbgErrorKind::Version(v) => {
                write!(f, "unknown version {v} (this build reads version {VERSION})")
            }
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
            CbgErrorKind::Index { record, damaged: true } => {
                write!(f, "{record}: checksum mismatch")
            }
            CbgErrorKind::Index { record, damaged: false } => {
                write!(f, "the {record} does not match the game records")
            }
            CbgErrorKind::AfterTrailer => f.write_str(
                "bytes after the trailer, which ends a .cbg file (files joined with cat? \
                 give each file on its own)",
            ),
        }
    }
}

/// `game G (byte B): ` and the kind.
impl ErrorKindAt<GameByte> for CbgErrorKind {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
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
    /// A game coded ahead ([`CodedGame`]) with another codec than the file's.
    Codec {
        /// The file's codec.
        file: MoveCodec,
        /// The game's.
        game: MoveCodec,
    },
}

impl fmt::Display for CbgWriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CbgWriteError::Move(e) => write!(f, "{e}"),
            CbgWriteError::Io(e) => write!(f, "write error: {e}"),
            CbgWriteError::Codec { file, game } => {
                write!(f, "a game coded with {game} cannot go in a {file} file")
            }
        }
    }
}

impl std::error::Error for CbgWriteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CbgWriteError::Move(err) => Some(err),
            CbgWriteError::Io(err) => Some(err),
            CbgWriteError::Codec { .. } => None,
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
        self.append_body(encoded)
    }

    /// Writes one game whose mainline was coded ahead, on any thread ([`CodedGame`]): the
    /// same bytes as [`write_game`](Self::write_game) writes for it.
    ///
    /// # Errors
    /// [`CbgWriteError::Io`] if writing fails; [`CbgWriteError::Codec`] if the game was coded
    /// with another codec than the file's (nothing is written then).
    pub fn write_coded(&mut self, coded: &CodedGame) -> Result<WrittenGame, CbgWriteError> {
        if coded.codec != self.codec {
            return Err(CbgWriteError::Codec { file: self.codec, game: coded.codec });
        }
        let skipped = coded.game.number.saturating_sub(self.games + 1);
        self.body.clear();
        let encoded = coded.body_into(skipped, &mut self.body);
        self.append_body(encoded)
    }

    fn append_body(&mut self, encoded: Encoded) -> Result<WrittenGame, CbgWriteError> {
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

#[cfg(test)]
mod tests {
    use chessbits_pgn::{Clock, Eval, Score};

    use super::body::{
        put_clocks, put_evals, put_value, read_clocks, read_evals, read_value, unzigzag, zigzag,
        Cursor,
    };
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
            assert_eq!((err.at.game, err.kind), (3, CbgErrorKind::Field("x")));
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
