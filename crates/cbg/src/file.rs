//! Random access to a seekable `.cbg` file: [`CbgFile`].

use std::io::{self, Read, Seek, SeekFrom};

use crate::body::{decode_body, Cursor};
use crate::reader::{read_body, read_exact, read_frame, read_header};
use crate::{crc16, CbgError, CbgErrorKind, GameRecord, BLOCK_GAMES, HEADER_LEN, TRAILER_LEN};
use chessbits_codec::bits::GameByte;
use chessbits_codec::move_codec::MoveCodec;

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
        let io_error = |e: io::Error, byte| {
            CbgError::new(GameByte { game: 1, byte }, CbgErrorKind::Io(e.kind()))
        };
        input.seek(SeekFrom::Start(0)).map_err(|e| io_error(e, 0))?;
        let mut header = [0u8; HEADER_LEN];
        read_exact(&mut input, &mut header, 0, 1)?;
        let codec = read_header(&header)?;
        let end = input.seek(SeekFrom::End(0)).map_err(|e| io_error(e, 0))?;
        let trailer_at = end
            .checked_sub(TRAILER_LEN as u64)
            .filter(|&t| t >= HEADER_LEN as u64)
            .ok_or(CbgError::new(GameByte { game: 1, byte: end }, CbgErrorKind::Truncated))?;
        let mut file = CbgFile { input, codec, games: 0, top: 0, blocks: 0, body: Vec::new() };
        let (tag, body_at) = file.record(trailer_at, 1)?;
        let mut c = Cursor { bytes: &file.body, at: 0, base: body_at, game: 1 };
        let (top, games) = (c.u64_le("trailer")?, c.u64_le("trailer")?);
        if tag != b'T' || c.done().is_err() {
            return Err(CbgError::new(
                GameByte { game: 1, byte: trailer_at },
                CbgErrorKind::Record(tag),
            ));
        }
        // The top index's header, to find its entries.
        if top >= trailer_at || top < HEADER_LEN as u64 {
            return Err(CbgError::new(
                GameByte { game: 1, byte: trailer_at },
                CbgErrorKind::Field("index offset"),
            ));
        }
        file.input.seek(SeekFrom::Start(top)).map_err(|e| io_error(e, top))?;
        let (tag, len, header) = read_frame(&mut file.input, top, 1)?;
        if tag != b'X' || len % 8 != 0 || top + header + len + 2 != trailer_at {
            return Err(CbgError::new(GameByte { game: 1, byte: top }, CbgErrorKind::Record(tag)));
        }
        if len / 8 != games.div_ceil(BLOCK_GAMES as u64) {
            return Err(CbgError::new(
                GameByte { game: 1, byte: top },
                CbgErrorKind::Field("top index"),
            ));
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
        self.input.seek(SeekFrom::Start(offset)).map_err(|e| {
            CbgError::new(GameByte { game, byte: offset }, CbgErrorKind::Io(e.kind()))
        })?;
        let (tag, len, header) = read_frame(&mut self.input, offset, game)?;
        let len_usize = len as usize;
        read_body(&mut self.input, &mut self.body, len_usize + 2, offset + header, game)?;
        let check = u16::from_be_bytes([self.body[len_usize], self.body[len_usize + 1]]);
        self.body.truncate(len_usize);
        if crc16(&self.body) != check {
            return Err(CbgError::new(GameByte { game, byte: offset }, CbgErrorKind::Checksum));
        }
        Ok((tag, offset + header))
    }

    /// Reads the game whose number in the input it was packed from is `number`
    /// ([`GameRecord::number`], the number `chessbits pgn` and `unpack` print), by a binary
    /// search over the file's games (numbers grow with the place in the file): about log2 of
    /// the file's games random reads.
    ///
    /// # Errors
    /// [`CbgErrorKind::NoSuchGame`] if no game has that number (it did not read when the file
    /// was packed, or is past the end); any error of the records read on the way.
    ///
    /// ```
    /// use std::io::Cursor;
    /// use chessbits_cbg::{CbgFile, CbgWriter, GameRecord};
    /// use chessbits_codec::move_codec::MoveCodec;
    ///
    /// let mut writer = CbgWriter::new(Vec::new(), MoveCodec::Model)?;
    /// // Games 1, 2 and 5 of the input read; 3 and 4 did not.
    /// let mut game = GameRecord::default();
    /// for number in [1, 2, 5] {
    ///     game.number = number;
    ///     writer.write_game(&game)?;
    /// }
    /// let mut file = CbgFile::open(Cursor::new(writer.finish()?))?;
    /// assert_eq!(file.game(3)?.number, 5);
    /// assert_eq!(file.game_numbered(5)?.number, 5);
    /// assert!(file.game_numbered(4).is_err());
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn game_numbered(&mut self, number: u64) -> Result<GameRecord, CbgError> {
        // Game `i` has a number of at least `i`: the place of `number` is at most `number`.
        let (mut lo, mut hi) = (1, number.min(self.games));
        while lo <= hi {
            let mid = lo + (hi - lo) / 2;
            let game = self.game(mid)?;
            match game.number.cmp(&number) {
                core::cmp::Ordering::Equal => return Ok(game),
                core::cmp::Ordering::Less => lo = mid + 1,
                core::cmp::Ordering::Greater => hi = mid - 1,
            }
        }
        Err(CbgError::new(GameByte { game: number, byte: 0 }, CbgErrorKind::NoSuchGame(number)))
    }

    /// Reads game `n` (from 1).
    ///
    /// # Errors
    /// [`CbgErrorKind::NoSuchGame`] if there is no such game; any error of the records read.
    pub fn game(&mut self, n: u64) -> Result<GameRecord, CbgError> {
        if n == 0 || n > self.games {
            return Err(CbgError::new(GameByte { game: n, byte: 0 }, CbgErrorKind::NoSuchGame(n)));
        }
        let index = n - 1;
        let block = index / BLOCK_GAMES as u64;
        let entry = self.top + 8 * block;
        let io_error = |e: io::Error, byte| {
            CbgError::new(GameByte { game: n, byte }, CbgErrorKind::Io(e.kind()))
        };
        self.input.seek(SeekFrom::Start(entry)).map_err(|e| io_error(e, entry))?;
        let mut word = [0u8; 8];
        read_exact(&mut self.input, &mut word, entry, n)?;
        let block_at = u64::from_le_bytes(word);
        let (tag, body_at) = self.record(block_at, n)?;
        if tag != b'I' {
            return Err(CbgError::new(
                GameByte { game: n, byte: block_at },
                CbgErrorKind::Record(tag),
            ));
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
        let size = c.varint("block index")?;
        let (tag, body_at) = self.record(offset, n)?;
        if tag != b'G' {
            return Err(CbgError::new(
                GameByte { game: n, byte: offset },
                CbgErrorKind::Record(tag),
            ));
        }
        // The record found must be the size the index gives it: an index whose sizes do not
        // match its records would name another game this one (a forged one with sizes of 0
        // gave game 1 for game 2).
        if (body_at - offset).saturating_add(self.body.len() as u64 + 2) != size {
            let at = GameByte { game: n, byte: block_at };
            return Err(CbgError::new(at, CbgErrorKind::Field("block index")));
        }
        decode_body(&self.body, body_at, n, self.codec)
    }
}
