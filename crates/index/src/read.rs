//! Reading an index: [`Index::find`] and [`Index::explore`], exact by replay.

use std::collections::BTreeMap;
use std::path::Path;

use chessbits_bitboard::{Color, Rank, Role};
use chessbits_codec::bits::BitReader;
use chessbits_codec::move_codec::{MoveCodec, MoveDecoder};
use chessbits_move::Move16;
use chessbits_movegen::MoveGen;
use chessbits_notation::fen::parse_position;
use chessbits_state::Position;

use crate::build::{game_bits, Tally};
use crate::format::{
    read_gamma, read_rice, read_varint, section, Bytes, IndexError, BLOCK_ENTRY_LEN, GAME_LEN,
    HEADER_LEN, MAGIC, SECTIONS, VERSION,
};
use crate::game::{Filter, GameFacts, Speed};
use crate::mapped::Storage;
use crate::regions::Regions;

/// A game of the index: its number in the input, its tags, its facts.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct GameInfo {
    /// The game's number in the input it was indexed from (from 1, broken games counted).
    pub number: u64,
    /// `White`.
    pub white: String,
    /// `Black`.
    pub black: String,
    /// `Event`.
    pub event: String,
    /// Result, date, ratings and speed.
    pub facts: GameFacts,
    /// The plies of its mainline.
    pub plies: u16,
}

impl GameInfo {
    /// The speed.
    pub fn speed(&self) -> Speed {
        Speed::from_code(self.facts.speed).unwrap_or(Speed::Unknown)
    }
}

/// A game that reaches the position asked: the game, and the first ply where it does.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Found {
    /// The game.
    pub game: GameInfo,
    /// Its record in the index (0-based, in input order), as [`Index::game`] and
    /// [`Index::mainline`] take it.
    pub record: u32,
    /// The first ply at which it reaches the position (0: its start).
    pub ply: u16,
}

/// One row of the explorer: a move played from the position (or none: games that end there),
/// and how those games went.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct MoveStats {
    /// The move, `None` for the games that end in the position.
    pub m: Option<Move16>,
    /// Games.
    pub games: u64,
    /// Won by White.
    pub white: u64,
    /// Drawn.
    pub draws: u64,
    /// Won by Black.
    pub black: u64,
    /// The mean of the players' ratings over the games with both ratings, rounded to the
    /// nearest (a half up): 1601/1632 and 1780/1671 give 1671.
    pub average_rating: Option<u32>,
    /// The last date played (`yyyymmdd`), 0 if no game has one.
    pub last_date: u32,
}

/// An open index file, its header and sections checked: memory-mapped ([`Index::open`]) or
/// in memory ([`Index::from_bytes`]). Queries check each 64 KiB region of the file against
/// its checksum the first time they read from it, so a query reads only the regions it needs,
/// and a damaged one is an error, never an answer.
pub struct Index {
    bytes: Storage,
    regions: Regions,
    sections: [(usize, usize); SECTIONS],
    games: u64,
    max_ply: u32,
    key_bits: u32,
    rice: u32,
    strings: u32,
    popular: u32,
}

impl Index {
    /// Opens the index at `path`, memory-mapped: opening reads the header and the checksum
    /// table, and each query reads the pages it touches (a month's index need not fit in
    /// memory).
    ///
    /// The file must not be changed or truncated while it is open (by another process): on
    /// most systems, reading a page of a mapped file that was truncated ends the process.
    /// `chessbits index build` writes a new file and renames it over the old one, which leaves
    /// an open index reading the old file, whole.
    ///
    /// # Errors
    /// As [`Index::from_bytes`], and the file could not be opened or mapped.
    pub fn open(path: impl AsRef<Path>) -> Result<Index, IndexError> {
        Index::new(Storage::open(path.as_ref())?)
    }

    /// The index in `bytes`: its magic, version, checksum table, header and section bounds
    /// checked; the other regions are checked as queries first read them ([`Index::verify`]
    /// checks them all).
    ///
    /// # Errors
    /// [`IndexError`] for anything but an intact index of this version.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Index, IndexError> {
        Index::new(Storage::Owned(bytes))
    }

    fn new(bytes: Storage) -> Result<Index, IndexError> {
        if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
            return Err(IndexError::NotAnIndex);
        }
        let version = bytes.get(8..12).map(|v| u32::from_le_bytes(v.try_into().unwrap_or([0; 4])));
        match version {
            Some(VERSION) => {}
            Some(version) => return Err(IndexError::Version(version)),
            None => return Err(IndexError::Corrupt { field: "version", byte: 8 }),
        }
        // A file too short for the header is told as such, before its checksums.
        if bytes.len() < HEADER_LEN + 8 {
            return Err(IndexError::Corrupt { field: "header", byte: bytes.len() as u64 });
        }
        let regions = Regions::new(&bytes)?;
        let body = regions.body_len();
        if body < HEADER_LEN {
            return Err(IndexError::Corrupt { field: "header", byte: body as u64 });
        }
        let b = Bytes { file: &bytes, regions: &regions };
        let max_ply = b.u32(12, "max ply")?;
        let games = b.u64(16, "game count")?;
        let key_bits = u32::from(b.u8(40, "key bits")?);
        let rice = u32::from(b.u8(41, "rice parameter")?);
        if !(1..=64).contains(&key_bits) || rice > 63 {
            return Err(IndexError::Corrupt { field: "key bits", byte: 40 });
        }
        let mut sections = [(0, 0); SECTIONS];
        let mut end = HEADER_LEN;
        for (i, s) in sections.iter_mut().enumerate() {
            let at = 48 + i * 16;
            let offset = b.u64(at, "section offset")?;
            let len = b.u64(at + 8, "section length")?;
            if offset != end as u64 || offset.checked_add(len).is_none_or(|e| e > body as u64) {
                return Err(IndexError::Corrupt { field: "section table", byte: at as u64 });
            }
            *s = (offset as usize, len as usize);
            end = (offset + len) as usize;
        }
        if end != body {
            return Err(IndexError::Corrupt { field: "section table", byte: 48 });
        }
        let (games_at, games_len) = sections[section::GAMES];
        if games.checked_mul(GAME_LEN as u64) != Some(games_len as u64) {
            return Err(IndexError::Corrupt { field: "game count", byte: games_at as u64 });
        }
        let strings = b.u32(sections[section::STRINGS].0, "string count")?;
        let popular = b.u32(sections[section::POPULAR].0, "popular count")?;
        if sections[section::DIRECTORY].1 % BLOCK_ENTRY_LEN != 0 {
            return Err(IndexError::Corrupt {
                field: "block directory",
                byte: sections[section::DIRECTORY].0 as u64,
            });
        }
        Ok(Index { bytes, regions, sections, games, max_ply, key_bits, rice, strings, popular })
    }

    /// Checks every byte of the index against its checksums (queries check only the regions
    /// they read): what a copy or an archive check wants, at the cost of reading the whole
    /// file.
    ///
    /// # Errors
    /// [`IndexError::Checksum`] with the first damaged region.
    pub fn verify(&self) -> Result<(), IndexError> {
        self.regions.check_all(&self.bytes)
    }

    /// Whether the index is memory-mapped from its file (not read into memory).
    pub fn is_mapped(&self) -> bool {
        matches!(self.bytes, Storage::Mapped(_))
    }

    /// The games in the index.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The plies indexed a game (`u32::MAX`: all).
    pub fn max_ply(&self) -> u32 {
        self.max_ply
    }

    fn b(&self) -> Bytes<'_> {
        Bytes { file: &self.bytes, regions: &self.regions }
    }

    fn string(&self, id: u32) -> Result<String, IndexError> {
        let at = self.sections[section::STRINGS].0;
        if id >= self.strings {
            return Err(IndexError::Corrupt { field: "string id", byte: at as u64 });
        }
        let table = at + 4;
        let start = self.b().u32(table + 4 * id as usize, "string offset")? as usize;
        let end = self.b().u32(table + 4 * (id as usize + 1), "string offset")? as usize;
        let text = table + 4 * (self.strings as usize + 1);
        if start > end {
            return Err(IndexError::Corrupt { field: "string offset", byte: table as u64 });
        }
        let bytes = self.b().slice(text + start, end - start, "string")?;
        Ok(String::from_utf8_lossy(bytes).into_owned())
    }

    fn record(&self, game: u32) -> Result<usize, IndexError> {
        if u64::from(game) >= self.games {
            return Err(IndexError::Corrupt {
                field: "game index",
                byte: self.sections[section::BLOCKS].0 as u64,
            });
        }
        Ok(self.sections[section::GAMES].0 + game as usize * GAME_LEN)
    }

    /// The facts of game `game` (0-based, in input order).
    fn facts(&self, game: u32) -> Result<GameFacts, IndexError> {
        let at = self.record(game)?;
        let b = self.b();
        Ok(GameFacts {
            date: b.u32(at + 32, "date")?,
            white_elo: b.u16(at + 36, "rating")?,
            black_elo: b.u16(at + 38, "rating")?,
            result: b.u8(at + 42, "result")?,
            speed: b.u8(at + 43, "speed")?,
        })
    }

    /// Game `game` (0-based, in input order).
    ///
    /// # Errors
    /// [`IndexError::Corrupt`] for an index out of range or a damaged record.
    pub fn game(&self, game: u32) -> Result<GameInfo, IndexError> {
        let at = self.record(game)?;
        let b = self.b();
        Ok(GameInfo {
            number: b.u64(at, "game number")?,
            white: self.string(b.u32(at + 16, "white")?)?,
            black: self.string(b.u32(at + 20, "black")?)?,
            event: self.string(b.u32(at + 24, "event")?)?,
            facts: self.facts(game)?,
            plies: b.u16(at + 40, "plies")?,
        })
    }

    /// The start position and the coded moves of game `game`.
    fn moves(&self, game: u32) -> Result<(Position, u16, &[u8]), IndexError> {
        let at = self.record(game)?;
        let b = self.b();
        let number = b.u64(at, "game number")?;
        let offset = b.u64(at + 8, "moves offset")? as usize;
        let end = if u64::from(game) + 1 < self.games {
            b.u64(at + GAME_LEN + 8, "moves offset")? as usize
        } else {
            self.sections[section::MOVES].1
        };
        let moves_offset = IndexError::Corrupt { field: "moves offset", byte: (at + 8) as u64 };
        if offset > end || end > self.sections[section::MOVES].1 {
            return Err(moves_offset);
        }
        let coded = b.slice(self.sections[section::MOVES].0 + offset, end - offset, "moves")?;
        let fen = self.string(b.u32(at + 28, "start")?)?;
        let start = if fen.is_empty() {
            Position::new()
        } else {
            parse_position(&fen).map_err(|_| IndexError::Moves { game: number })?
        };
        Ok((start, b.u16(at + 40, "plies")?, coded))
    }

    /// Replays game `game` to the first ply (within the indexed plies) where it reaches
    /// `target`; its ply and the move played next (`None` at the game's end).
    fn arrival(
        &self,
        game: u32,
        target: &Position,
    ) -> Result<Option<(u16, Option<Move16>)>, IndexError> {
        let (mut pos, plies, coded) = self.moves(game)?;
        let number = || self.game(game).map_or(0, |g| g.number);
        let mut decoder = MoveDecoder::new(MoveCodec::Model, &pos, coded);
        let last = u32::from(plies).min(self.max_ply);
        for ply in 0..=u32::from(plies) {
            let next = if ply < u32::from(plies) {
                Some(decoder.next_move().map_err(|_| IndexError::Moves { game: number() })?)
            } else {
                None
            };
            if ply <= last && same_position(&pos, target) {
                return Ok(Some((ply as u16, next)));
            }
            if ply >= last {
                break;
            }
            if let Some(m) = next {
                play(&mut pos, m);
            }
        }
        Ok(None)
    }

    /// The candidates under every key of `positions` (one position's keys,
    /// [`fen_equivalents`]): the games of the key blocks' groups, and the data of the popular
    /// groups among the keys.
    fn candidates_of(&self, positions: &[Position]) -> Result<(Vec<u32>, Vec<usize>), IndexError> {
        let (mut games, mut popular) = (Vec::new(), Vec::new());
        for key in positions.iter().map(Position::key) {
            let candidates = self.candidates(key)?;
            games.extend(candidates.games);
            if candidates.popular {
                popular.extend(self.popular_data(key)?);
            }
        }
        Ok((games, popular))
    }

    /// The groups of the key blocks whose kept bits are `key`'s: their game lists, or the
    /// popular marker.
    fn candidates(&self, key: u64) -> Result<Candidates, IndexError> {
        let kept = key >> (64 - self.key_bits);
        let (directory, len) = self.sections[section::DIRECTORY];
        let blocks = len / BLOCK_ENTRY_LEN;
        let first_of = |i: usize| self.b().u64(directory + i * BLOCK_ENTRY_LEN, "first key");
        // The last block whose first kept key is at most `kept`, and the ones before it that
        // start with the same kept key (a run of equal kept keys may span blocks).
        let (mut lo, mut hi) = (0, blocks);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if first_of(mid)? <= kept {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        let mut hi = lo;
        let mut out = Candidates::default();
        while hi > 0 {
            let block = hi - 1;
            self.scan_block(block, kept, &mut out)?;
            if first_of(block)? < kept {
                break;
            }
            hi -= 1;
        }
        Ok(out)
    }

    fn scan_block(&self, block: usize, kept: u64, out: &mut Candidates) -> Result<(), IndexError> {
        let (directory, directory_len) = self.sections[section::DIRECTORY];
        let at = directory + block * BLOCK_ENTRY_LEN;
        let entry = |at: usize| self.b().u64(at, "block directory");
        let first = entry(at)?;
        let start = entry(at + 8)? as usize;
        let (blocks_at, blocks_len) = self.sections[section::BLOCKS];
        let end = if at + BLOCK_ENTRY_LEN < directory + directory_len {
            entry(at + BLOCK_ENTRY_LEN + 8)? as usize
        } else {
            blocks_len
        };
        let block_at = (blocks_at as u64).saturating_add(start as u64);
        let corrupt = IndexError::Corrupt { field: "key block", byte: block_at };
        if start > end || end > blocks_len {
            return Err(IndexError::Corrupt { field: "block offset", byte: at as u64 });
        }
        let bytes = self.b().slice(blocks_at + start, end - start, "key block")?;
        let groups = entry(at + 16)?;
        if groups > crate::format::BLOCK_GROUPS as u64 {
            return Err(corrupt);
        }
        let mut r = BitReader::new(bytes);
        let bits = game_bits(self.games);
        let mut current = first;
        for group in 0..groups {
            let gap = read_rice(&mut r, self.rice)
                .map_err(|_| IndexError::Corrupt { field: "key gap", byte: block_at })?;
            if group == 0 && gap != 0 {
                return Err(corrupt);
            }
            current = current
                .checked_add(gap)
                .ok_or(IndexError::Corrupt { field: "key gap", byte: block_at })?;
            let count = read_gamma(&mut r)
                .map_err(|_| IndexError::Corrupt { field: "game count", byte: block_at })?;
            if current > kept {
                break;
            }
            let popular = count >= self.popular_threshold();
            if popular {
                if current == kept {
                    out.popular = true;
                }
                continue;
            }
            let mut game = 0u64;
            for i in 0..count {
                let value = if i == 0 { r.read(bits) } else { read_gamma(&mut r) };
                let value =
                    value.map_err(|_| IndexError::Corrupt { field: "game list", byte: 0 })?;
                game = if i == 0 { value } else { game.saturating_add(value) };
                if current == kept {
                    let game = u32::try_from(game).ok().filter(|g| u64::from(*g) < self.games);
                    out.games
                        .push(game.ok_or(IndexError::Corrupt { field: "game index", byte: 0 })?);
                }
            }
        }
        Ok(())
    }

    fn popular_threshold(&self) -> u64 {
        // Written in the popular section? Kept in the header's reserved bytes.
        // The header's region was checked when the index was opened.
        u64::from(u16::from_le_bytes([self.bytes[42], self.bytes[43]]).max(2))
    }

    /// The popular position with key `key`: its data offset.
    fn popular_data(&self, key: u64) -> Result<Option<usize>, IndexError> {
        let at = self.sections[section::POPULAR].0;
        let n = self.popular as usize;
        let head = at + 4;
        let key_of = |i: usize| self.b().u64(head + i * 16, "popular key");
        let (mut lo, mut hi) = (0, n);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if key_of(mid)? < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if lo < n && key_of(lo)? == key {
            let offset = self.b().u64(head + lo * 16 + 8, "popular offset")? as usize;
            let at = (head + n * 16).checked_add(offset);
            return at.map(Some).ok_or(IndexError::Corrupt {
                field: "popular offset",
                byte: (head + lo * 16 + 8) as u64,
            });
        }
        Ok(None)
    }

    /// A popular position's entry at `data`: the position its key stands for, its games
    /// (undecoded) and where its aggregate rows start.
    fn popular_entry(&self, data: usize) -> Result<PopularEntry<'_>, IndexError> {
        let b = self.b();
        let first = b.u32(data, "popular game")?;
        let ply = b.u16(data + 4, "popular ply")?;
        let count = b.u32(data + 6, "popular count")?;
        let len = b.u32(data + 10, "popular games length")? as usize;
        let bytes = b.slice(data + 14, len, "popular games")?;
        let games = GameList {
            reader: BitReader::new(bytes),
            left: count,
            previous: None,
            bits: game_bits(self.games),
            games: self.games,
            at: (data + 14) as u64,
        };
        Ok(PopularEntry { first: (first, ply), games, rows_at: data + 14 + len })
    }

    /// The record of the game numbered `number` in the input (records are in input order, so
    /// their numbers grow), or `None` if the index has no such game (it did not read, or is
    /// past the last).
    ///
    /// # Errors
    /// [`IndexError::Corrupt`] for a damaged record.
    pub fn record_of(&self, number: u64) -> Result<Option<u32>, IndexError> {
        let number_at = |game: u64| -> Result<u64, IndexError> {
            let game = u32::try_from(game)
                .map_err(|_| IndexError::Corrupt { field: "game count", byte: 0 })?;
            self.b().u64(self.record(game)?, "game number")
        };
        let (mut low, mut high) = (0, self.games);
        while low < high {
            let middle = low + (high - low) / 2;
            if number_at(middle)? < number {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        if low < self.games && number_at(low)? == number {
            Ok(u32::try_from(low).ok())
        } else {
            Ok(None)
        }
    }

    /// The start position and the whole mainline of game `game` (0-based, in input order),
    /// decoded: for a viewer that steps through a game the index found.
    ///
    /// # Errors
    /// [`IndexError::Corrupt`] for a record out of range or damaged, [`IndexError::Moves`] for
    /// moves that do not decode.
    pub fn mainline(&self, game: u32) -> Result<(Position, Vec<Move16>), IndexError> {
        let (start, plies, coded) = self.moves(game)?;
        let number = || self.game(game).map_or(0, |g| g.number);
        let mut pos = start;
        let mut decoder = MoveDecoder::new(MoveCodec::Model, &pos, coded);
        let mut moves = Vec::with_capacity(usize::from(plies));
        for _ in 0..plies {
            let m = decoder.next_move().map_err(|_| IndexError::Moves { game: number() })?;
            play(&mut pos, m);
            moves.push(m);
        }
        Ok((start, moves))
    }

    /// The position of game `game` after `ply` plies.
    fn position_at(&self, game: u32, ply: u16) -> Result<Position, IndexError> {
        let (mut pos, plies, coded) = self.moves(game)?;
        let mut decoder = MoveDecoder::new(MoveCodec::Model, &pos, coded);
        for _ in 0..ply.min(plies) {
            let m = decoder.next_move().map_err(|_| IndexError::Moves { game: u64::from(game) })?;
            play(&mut pos, m);
        }
        Ok(pos)
    }

    /// The games that reach `pos` (within the indexed plies), in input order, that pass
    /// `filter`: at most `limit` of them.
    ///
    /// # Errors
    /// [`IndexError`] if the index is damaged where the query reads it.
    pub fn find(
        &self,
        pos: &Position,
        filter: &Filter,
        limit: Option<usize>,
    ) -> Result<Vec<Found>, IndexError> {
        // The popular group's games (every game whose position has the key: the query's, or,
        // if two positions share the key, both; the replay tells), decoded as they are
        // needed, merged in order with the (few) games of the blocks' groups whose kept bits
        // are the key's. A position the index keys apart in more than one way (an en passant
        // square no capture can use: [`fen_equivalents`]) takes every group's games whole.
        let positions = fen_equivalents(pos);
        let (mut games, groups) = self.candidates_of(&positions)?;
        let mut popular = None;
        for data in groups {
            let list = self.popular_entry(data)?.games;
            if positions.len() == 1 {
                popular = Some(list);
            } else {
                for game in list {
                    games.push(game?);
                }
            }
        }
        games.sort_unstable();
        games.dedup();
        let mut next_popular = || match &mut popular {
            Some(list) => list.next().transpose(),
            None => Ok(None),
        };
        let mut blocks = games.into_iter().peekable();
        let mut pending = next_popular()?;
        let mut found = Vec::new();
        let mut last = None;
        while limit.is_none_or(|l| found.len() < l) {
            let game = match (blocks.peek().copied(), pending) {
                (Some(b), Some(p)) if b <= p => blocks.next(),
                (_, Some(p)) => {
                    pending = next_popular()?;
                    Some(p)
                }
                (Some(_), None) => blocks.next(),
                (None, None) => None,
            };
            let Some(game) = game else { break };
            if last == Some(game) {
                continue;
            }
            last = Some(game);
            if !filter.passes(&self.facts(game)?) {
                continue;
            }
            if let Some((ply, _)) = self.arrival(game, pos)? {
                found.push(Found { game: self.game(game)?, record: game, ply });
            }
        }
        Ok(found)
    }

    /// The moves played from `pos` in the games that pass `filter`: one row a move, and one
    /// with no move for the games that end there; most played first.
    ///
    /// # Errors
    /// [`IndexError`] if the index is damaged where the query reads it.
    pub fn explore(&self, pos: &Position, filter: &Filter) -> Result<Vec<MoveStats>, IndexError> {
        let mut by_move: BTreeMap<u16, Tally> = BTreeMap::new();
        self.explore_into(pos, filter, &mut by_move)?;
        Ok(rows(by_move))
    }

    /// Adds the explorer's counts for `pos` to `by_move` (raw move bits; 0 for none).
    pub(crate) fn explore_into(
        &self,
        pos: &Position,
        filter: &Filter,
        by_move: &mut BTreeMap<u16, Tally>,
    ) -> Result<(), IndexError> {
        let positions = fen_equivalents(pos);
        let (mut games, groups) = self.candidates_of(&positions)?;
        for data in groups {
            let entry = self.popular_entry(data)?;
            let first = self.position_at(entry.first.0, entry.first.1)?;
            if positions.len() == 1 && same_position(&first, pos) {
                // Every game that reaches the position is in this group, counted in its
                // rows: the blocks' candidates (other positions' groups) would count again.
                return self.popular_rows(entry.rows_at, filter, by_move);
            }
            // Another position with the same 64-bit key, or one of several keys of the
            // position (a game may reach it under two, and counts once): its group's games
            // are replayed like any candidate.
            for game in entry.games {
                games.push(game?);
            }
        }
        // A game may sit in several groups whose kept bits are the key's: count it once.
        games.sort_unstable();
        games.dedup();
        for game in games {
            let facts = self.facts(game)?;
            if !filter.passes(&facts) {
                continue;
            }
            if let Some((_, next)) = self.arrival(game, pos)? {
                by_move.entry(next.map_or(0, |m| m.bits())).or_default().add(&facts);
            }
        }
        Ok(())
    }

    fn popular_rows(
        &self,
        at: usize,
        filter: &Filter,
        by_move: &mut BTreeMap<u16, Tally>,
    ) -> Result<(), IndexError> {
        let b = self.b();
        let n = b.u32(at, "aggregate rows")? as usize;
        let end = self.sections[section::POPULAR].0 + self.sections[section::POPULAR].1;
        let bytes = &self.bytes[..end];
        let mut p = at + 4;
        let corrupt_row = || IndexError::Corrupt { field: "aggregate row", byte: at as u64 };
        for _ in 0..n {
            // The longest row there can be, checked before it is read.
            b.slice(p.min(end), (end - p.min(end)).min(MAX_ROW_LEN), "aggregate row")?;
            let (m, speed, band, month, result, games, rated, rating_sum, last_date) =
                read_row(bytes, &mut p).ok_or(corrupt_row())?;
            if !filter.passes_group(result, speed, band, month) {
                continue;
            }
            let count = |r: u8| if result == r { games } else { 0 };
            let tally = Tally {
                games,
                white: count(1),
                draws: count(3),
                black: count(2),
                rated,
                rating_sum,
                last_date,
            };
            by_move.entry(m).or_default().merge(&tally);
        }
        Ok(())
    }
}

/// The most bytes an aggregate row takes: eight varints of at most ten bytes, and the result.
const MAX_ROW_LEN: usize = 8 * 10 + 1;

/// One aggregate row at `*p`: move, speed, band, month, result, games, rated games, rating
/// sum, last date; `*p` moved past it.
#[allow(clippy::type_complexity, reason = "the row's fields, unpacked once by its one caller")]
fn read_row(bytes: &[u8], p: &mut usize) -> Option<(u16, u8, u8, u16, u8, u32, u32, u64, u32)> {
    let m = u16::try_from(read_varint(bytes, p)?).ok()?;
    let speed = u8::try_from(read_varint(bytes, p)?).ok()?;
    let band = u8::try_from(read_varint(bytes, p)?).ok()?;
    let month = u16::try_from(read_varint(bytes, p)?).ok()?;
    let result = *bytes.get(*p)?;
    *p += 1;
    let games = u32::try_from(read_varint(bytes, p)?).ok()?;
    let rated = u32::try_from(read_varint(bytes, p)?).ok()?;
    let rating_sum = read_varint(bytes, p)?;
    let last_date = u32::try_from(read_varint(bytes, p)?).ok()?;
    Some((m, speed, band, month, result, games, rated, rating_sum, last_date))
}

/// The explorer's rows from counts by move, most played first (then by move).
pub(crate) fn rows(by_move: BTreeMap<u16, Tally>) -> Vec<MoveStats> {
    let mut rows: Vec<MoveStats> = by_move
        .into_iter()
        .filter(|(_, t)| t.games > 0)
        .map(|(m, t)| MoveStats {
            m: (m != 0).then_some(Move16::from_bits(m)),
            games: u64::from(t.games),
            white: u64::from(t.white),
            draws: u64::from(t.draws),
            black: u64::from(t.black),
            average_rating: mean_rating(t.rating_sum, t.rated),
            last_date: t.last_date,
        })
        .collect();
    // Most played first; the games that end in the position last.
    rows.sort_by_key(|r| (r.m.is_none(), core::cmp::Reverse(r.games)));
    rows
}

/// A popular position as stored: the game and ply that reach the position its counts are
/// for, its games, where its rows start.
struct PopularEntry<'a> {
    first: (u32, u16),
    games: GameList<'a>,
    rows_at: usize,
}

/// A sorted list of game indices decoded as it is read: the first in `bits` bits, then gaps
/// as gamma codes.
struct GameList<'a> {
    reader: BitReader<'a>,
    left: u32,
    previous: Option<u64>,
    bits: u32,
    games: u64,
    at: u64,
}

impl Iterator for GameList<'_> {
    type Item = Result<u32, IndexError>;

    fn next(&mut self) -> Option<Result<u32, IndexError>> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let corrupt = IndexError::Corrupt { field: "popular games", byte: self.at };
        let game = match self.previous {
            None => self.reader.read(self.bits).ok(),
            Some(p) => read_gamma(&mut self.reader).ok().and_then(|gap| p.checked_add(gap)),
        };
        let Some(game) = game.filter(|g| *g < self.games) else {
            self.left = 0;
            return Some(Err(corrupt));
        };
        self.previous = Some(game);
        Some(Ok(game as u32))
    }
}

/// Game lists found for a key.
#[derive(Default)]
struct Candidates {
    games: Vec<u32>,
    popular: bool,
}

/// Plays a decoded move: a null move (PGN's `--`, which the move codec keeps) passes.
fn play(pos: &mut Position, m: Move16) {
    if m == Move16::NULL {
        pos.play_null_unchecked();
    } else {
        pos.play_unchecked(m);
    }
}

/// Whether two positions are the same position as FEN writers (python-chess, lichess,
/// `chessbits pgn`) and the repetition rule see them: placement, side to move, castling
/// rights, and the en passant square where a capture is legal. The index's keys are the
/// Polyglot keys, which also keep a square that a pawn stands beside but cannot use (it is
/// pinned): a query looks under each such key ([`fen_equivalents`]) and this equality tells
/// the games apart.
pub fn same_position(a: &Position, b: &Position) -> bool {
    a.board() == b.board()
        && a.turn() == b.turn()
        && a.castles().rights() == b.castles().rights()
        && (a.pseudo_ep_square() == b.pseudo_ep_square()
            || a.legal_ep_square() == b.legal_ep_square())
}

/// `pos` as the index keys it, each way: one position, unless no en passant capture is
/// legal there and a pawn of the side that just moved may have come two squares with an
/// enemy pawn beside it. Then the Polyglot key keeps the square behind that pawn, which FEN
/// writers leave out (the capture would leave a king in check): the position without an
/// en passant square, and with each such square. A FEN from `chessbits pgn`, python-chess or
/// lichess finds the games that reached the position either way.
pub fn fen_equivalents(pos: &Position) -> Vec<Position> {
    if pos.legal_ep_square().is_some() {
        return vec![*pos];
    }
    let mut setup = pos.to_setup();
    setup.ep_square = None;
    let Ok(base) = Position::from_setup(&setup) else { return vec![*pos] };
    let mut positions = vec![base];
    let mover = !pos.turn();
    let board = pos.board();
    let pawns = board.by_piece(chessbits_bitboard::Piece { color: mover, role: Role::Pawn });
    for pawn in pawns {
        if pawn.rank().relative_to(mover) != Rank::Fourth {
            continue;
        }
        let (Some(behind), Some(start)) = (
            pawn.offset(0, if mover == Color::White { -1 } else { 1 }),
            pawn.offset(0, if mover == Color::White { -2 } else { 2 }),
        ) else {
            continue;
        };
        if board.occupied().contains(behind) || board.occupied().contains(start) {
            continue;
        }
        setup.ep_square = Some(behind);
        setup.halfmoves = 0;
        if let Ok(keyed) = Position::from_setup(&setup) {
            if keyed.pseudo_ep_square() == Some(behind) && keyed.legal_ep_square().is_none() {
                positions.push(keyed);
            }
        }
    }
    positions
}

/// The explorer's rows over several indexes (shards, a month each): their counts summed.
///
/// # Errors
/// The first index damaged where the query reads it.
pub fn explore_shards(
    indexes: &[Index],
    pos: &Position,
    filter: &Filter,
) -> Result<Vec<MoveStats>, IndexError> {
    let mut by_move: BTreeMap<u16, Tally> = BTreeMap::new();
    for index in indexes {
        index.explore_into(pos, filter, &mut by_move)?;
    }
    Ok(rows(by_move))
}

/// The mean of `rated` games' players' ratings, both summed in `sum`, rounded to the nearest
/// (a half up); `None` without a rated game.
fn mean_rating(sum: u64, rated: u32) -> Option<u32> {
    let players = 2 * u64::from(rated);
    (rated > 0).then(|| u32::try_from((sum + players / 2) / players).unwrap_or(u32::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mean_rating_is_the_players_mean_rounded() {
        // 1601/1632 and 1780/1671: game averages 1616.5 and 1725.5, players' mean 1671 (the
        // floor of each game's average, then of their mean, gave 1670).
        assert_eq!(mean_rating(1601 + 1632 + 1780 + 1671, 2), Some(1671));
        assert_eq!(mean_rating(1601 + 1632, 1), Some(1617));
        assert_eq!(mean_rating(1601 + 1631, 1), Some(1616));
        assert_eq!(mean_rating(0, 0), None);
        assert_eq!(mean_rating(u64::MAX / 2, 1), Some(u32::MAX));
    }
}
