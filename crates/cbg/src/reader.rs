//! Reading a `.cbg` stream in order: [`CbgReader`] and the checked, undecoded record
//! ([`RawGame`]); the framing reads that random access ([`crate::CbgFile`]) shares.

use std::io::{self, Read};

use crate::body::{decode_body, put_varint, stored_skipped, Cursor};
use crate::{
    crc16, CbgError, CbgErrorKind, GameRecord, BLOCK_GAMES, HEADER_LEN, MAGIC, MAX_RECORD_LEN,
    VERSION,
};
use chessbits_codec::bits::GameByte;
use chessbits_codec::move_codec::MoveCodec;

pub(super) fn read_header(header: &[u8; HEADER_LEN]) -> Result<MoveCodec, CbgError> {
    let error = |byte, kind| CbgError::new(GameByte { game: 1, byte }, kind);
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
    /// What the index records must say, from the records read: checked as a random reader
    /// ([`crate::CbgFile`]) would follow them.
    indexes: Indexes,
}

/// The index records a `.cbg` file must hold, as far as it has been read: the sizes of the
/// game records since the last block index (`I`), where the first of them starts, the
/// offsets of the block indexes, and the offset of the top index (`X`).
#[derive(Default)]
struct Indexes {
    sizes: Vec<u64>,
    /// More games came without a block index than a block holds (their sizes not kept).
    overflow: bool,
    block_start: u64,
    blocks: Vec<u64>,
    top: Option<u64>,
    /// The body the next `I` or `X` record must have.
    expected: Vec<u8>,
}

impl Indexes {
    /// A game record of `size` bytes at `start`. Past a block's games without a block index,
    /// the sizes are not kept (memory stays bounded), and the next index is found wrong.
    fn game(&mut self, start: u64, size: u64) {
        if self.sizes.is_empty() {
            self.block_start = start;
        }
        if self.sizes.len() < BLOCK_GAMES {
            self.sizes.push(size);
        } else {
            self.overflow = true;
        }
    }

    /// An index record at `start` whose check failed: taken as being where it is, so that
    /// the records after it are checked against the rest of the file, not against it.
    fn damaged(&mut self, tag: u8, start: u64) {
        match tag {
            b'I' => {
                self.sizes.clear();
                self.overflow = false;
                self.blocks.push(start);
            }
            b'X' => self.top = Some(start),
            _ => {}
        }
    }

    /// Whether `body`, an `I` record's at `start` read after `games` games, is the block
    /// index of the games since the last one, as the writer writes it.
    fn block(&mut self, body: &[u8], start: u64, games: u64) -> bool {
        self.expected.clear();
        put_varint(&mut self.expected, games - self.sizes.len() as u64);
        self.expected.extend_from_slice(&self.block_start.to_le_bytes());
        put_varint(&mut self.expected, self.sizes.len() as u64);
        for &size in &self.sizes {
            put_varint(&mut self.expected, size);
        }
        let ok = !self.sizes.is_empty() && !self.overflow && body == self.expected.as_slice();
        self.sizes.clear();
        self.overflow = false;
        self.blocks.push(start);
        ok
    }

    /// Whether `body`, an `X` record's at `start`, lists the block indexes read, every game
    /// in a block.
    fn top(&mut self, body: &[u8], start: u64) -> bool {
        self.expected.clear();
        for &offset in &self.blocks {
            self.expected.extend_from_slice(&offset.to_le_bytes());
        }
        let ok = self.top.is_none()
            && self.sizes.is_empty()
            && !self.overflow
            && body == self.expected.as_slice();
        self.top = Some(start);
        ok
    }
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
            indexes: Indexes::default(),
        })
    }

    /// The move codec of the file.
    pub fn codec(&self) -> MoveCodec {
        self.codec
    }

    /// The game records read so far, damaged ones included: after a game, its place in the
    /// file, from 1 (its number less the games skipped before it when packing).
    pub fn games_read(&self) -> u64 {
        self.games
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

    /// The next game's record, its body read and checked but not decoded, so that another
    /// thread can decode it ([`RawGame::decode`]): the file's framing, checks, index and
    /// trailer are read here, in order, exactly as the [`Iterator`] reads them, and the
    /// errors they give come here in the same places. Decoding `RawGame`s in order gives
    /// exactly the games and errors of the iterator.
    ///
    /// ```
    /// use chessbits_cbg::{CbgReader, CbgWriter, GameBuilder};
    /// use chessbits_codec::move_codec::MoveCodec;
    /// use chessbits_pgn::PgnReader;
    ///
    /// let mut writer = CbgWriter::new(Vec::new(), MoveCodec::Model)?;
    /// let mut games = PgnReader::new(&b"1. e4 e5 *\n\n1. d4 d5 2. c4 *\n"[..]);
    /// while let Some(game) = games.read_game(&mut GameBuilder::default()) {
    ///     writer.write_game(&game?)?;
    /// }
    /// let file = writer.finish()?;
    /// let mut reader = CbgReader::new(&file[..])?;
    /// let mut plies = Vec::new();
    /// while let Some(raw) = reader.next_raw() {
    ///     plies.push(raw?.decode()?.moves.len());
    /// }
    /// assert_eq!(plies, [2, 3]);
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn next_raw(&mut self) -> Option<Result<RawGame, CbgError>> {
        self.next_record().map(|found| {
            found.map(|(base, game)| RawGame {
                body: self.body.clone(),
                base,
                game,
                codec: self.codec,
            })
        })
    }

    /// Whether the reader has stopped: after the trailer, or after an error in a record's
    /// frame (the file's error, not one game's: nothing after it can be found).
    pub fn is_done(&self) -> bool {
        self.done
    }

    fn next_game(&mut self) -> Option<Result<GameRecord, CbgError>> {
        self.next_record().map(|found| {
            found.and_then(|(base, game)| decode_body(&self.body, base, game, self.codec))
        })
    }

    /// `Ok` when the input ends at the trailer, as a file does; an error naming the first
    /// byte after it otherwise (files joined with `cat`: the second would be lost).
    fn after_trailer(&mut self) -> Result<(), CbgError> {
        let mut byte = [0u8; 1];
        loop {
            let at = GameByte { game: self.games + 1, byte: self.offset };
            return match self.input.read(&mut byte) {
                Ok(0) => Ok(()),
                Ok(_) => Err(CbgError::new(at, CbgErrorKind::AfterTrailer)),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => Err(CbgError::new(at, CbgErrorKind::Io(e.kind()))),
            };
        }
    }

    /// Reads records up to the next game record, whose body it leaves in `self.body`: returns
    /// the offset of that body and the game's index in the file, or the error found first.
    fn next_record(&mut self) -> Option<Result<(u64, u64), CbgError>> {
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
            let header = frame_header_len(self.body.len() as u64);
            if tag == b'G' {
                self.games += 1;
                self.indexes.game(start, header + self.body.len() as u64 + 2);
            }
            if !checked {
                self.indexes.damaged(tag, start);
                let game = if tag == b'G' { self.games } else { self.games + 1 };
                let kind = match tag {
                    b'I' => CbgErrorKind::Index { record: "block index", damaged: true },
                    b'X' => CbgErrorKind::Index { record: "top index", damaged: true },
                    _ => CbgErrorKind::Checksum,
                };
                return Some(Err(CbgError::new(GameByte { game, byte: start }, kind)));
            }
            let index_error = |record| {
                let at = GameByte { game: self.games + 1, byte: start };
                Some(Err(CbgError::new(at, CbgErrorKind::Index { record, damaged: false })))
            };
            match tag {
                b'G' => return Some(Ok((start + header, self.games))),
                b'I' => {
                    if !self.indexes.block(&self.body, start, self.games) {
                        return index_error("block index");
                    }
                }
                b'X' => {
                    if !self.indexes.top(&self.body, start) {
                        return index_error("top index");
                    }
                }
                b'T' => {
                    self.done = true;
                    let mut c = Cursor {
                        bytes: &self.body,
                        at: 0,
                        base: start + header,
                        game: self.games + 1,
                    };
                    let trailer = c
                        .u64_le("trailer")
                        .and_then(|top| Ok((top, c.u64_le("trailer")?)))
                        .and_then(|read| c.done().map(|()| read));
                    return match trailer {
                        Err(e) => Some(Err(e)),
                        Ok((top, _)) if Some(top) != self.indexes.top => Some(Err(CbgError::new(
                            GameByte { game: self.games + 1, byte: start },
                            CbgErrorKind::Index { record: "trailer", damaged: false },
                        ))),
                        Ok((_, count)) if count != self.games => Some(Err(CbgError::new(
                            GameByte { game: self.games + 1, byte: start },
                            CbgErrorKind::Count { trailer: count, read: self.games },
                        ))),
                        Ok(_) => self.after_trailer().err().map(Err),
                    };
                }
                other => {
                    self.done = true;
                    return Some(Err(CbgError::new(
                        GameByte { game: self.games + 1, byte: start },
                        CbgErrorKind::Record(other),
                    )));
                }
            }
        }
        None
    }
}

/// One game's record of a `.cbg` file, read and checked but not decoded
/// ([`CbgReader::next_raw`]): owned bytes, to decode on any thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawGame {
    body: Vec<u8>,
    /// The offset of the body in the file.
    base: u64,
    /// The game's index in the file, from 1.
    game: u64,
    codec: MoveCodec,
}

impl RawGame {
    /// The game's index in the file, from 1 (its place among the file's games, not its
    /// number in the input it was packed from: [`GameRecord::number`] is that).
    pub fn index(&self) -> u64 {
        self.game
    }

    /// The count of games skipped before the game when it was packed, as its record stores
    /// it ([`GameRecord::number`] is [`index`](Self::index) plus it), read without decoding
    /// the rest of the record; `None` if the record's first bytes do not hold one. A record
    /// whose body does not decode past them still tells it: where its neighbours' numbers
    /// are needed to number a damaged record, reading this costs a few bytes a record.
    pub fn skipped(&self) -> Option<u64> {
        stored_skipped(&self.body, self.base, self.game)
    }

    /// Decodes the game, as the reader's [`Iterator`] would have.
    ///
    /// # Errors
    /// The record's body does not decode: the error names the game and the byte of the file.
    pub fn decode(&self) -> Result<GameRecord, CbgError> {
        decode_body(&self.body, self.base, self.game, self.codec)
    }
}

impl<R: Read> Iterator for CbgReader<R> {
    type Item = Result<GameRecord, CbgError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_game()
    }
}

/// The bytes of a record's tag and length.
pub(super) fn frame_header_len(len: u64) -> u64 {
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
pub(super) fn read_body(
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

pub(super) fn read_exact(
    input: &mut impl Read,
    buf: &mut [u8],
    offset: u64,
    game: u64,
) -> Result<(), CbgError> {
    let mut filled = 0;
    while filled < buf.len() {
        match input.read(buf.get_mut(filled..).unwrap_or(&mut [])) {
            Ok(0) => {
                return Err(CbgError::new(
                    GameByte { game, byte: offset + filled as u64 },
                    CbgErrorKind::Truncated,
                ))
            }
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                return Err(CbgError::new(
                    GameByte { game, byte: offset + filled as u64 },
                    CbgErrorKind::Io(e.kind()),
                ))
            }
        }
    }
    Ok(())
}

/// Reads a record's tag and length; returns them and the header's size.
pub(super) fn read_frame(
    input: &mut impl Read,
    offset: u64,
    game: u64,
) -> Result<(u8, u64, u64), CbgError> {
    let mut byte = [0u8; 1];
    read_exact(input, &mut byte, offset, game)?;
    let tag = byte[0];
    if !matches!(tag, b'G' | b'I' | b'X' | b'T') {
        return Err(CbgError::new(GameByte { game, byte: offset }, CbgErrorKind::Record(tag)));
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
            return Err(CbgError::new(
                GameByte { game, byte: offset + 1 },
                CbgErrorKind::Field("record length"),
            ));
        }
    }
    if len > MAX_RECORD_LEN || frame_header_len(len) != read {
        return Err(CbgError::new(
            GameByte { game, byte: offset + 1 },
            CbgErrorKind::TooLarge(len),
        ));
    }
    Ok((tag, len, read))
}
