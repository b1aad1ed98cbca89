//! Building an index: each game prepared on its own ([`PreparedGame::new`], on any thread),
//! then pushed in input order ([`IndexBuilder::push`]); the (position, game) pairs are sorted
//! in a bounded memory that spills sorted runs to temporary files, and merged once into the
//! key blocks and the popular positions' aggregates.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashMap};
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use chessbits_cbg::GameRecord;
use chessbits_codec::bits::BitWriter;
use chessbits_codec::move_codec::{self, MoveCodec};
use chessbits_move::Move16;
use chessbits_notation::fen::{fen_of, FenOptions};
use chessbits_state::Position;

use crate::format::{
    write_gamma, write_rice, write_varint, IndexError, BLOCK_GROUPS, GAME_LEN, HEADER_LEN, MAGIC,
    SECTIONS, VERSION,
};
use crate::game::{parse_date, GameFacts, Speed};
use crate::regions::RegionSums;

/// How an index is built.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct BuildOptions {
    /// The plies indexed in each game: positions after at most this many moves (the start
    /// position is ply 0). `u32::MAX`: every ply.
    pub max_ply: u32,
    /// The memory the sort of (position, game) pairs may take before it spills a sorted run
    /// to a temporary file, in bytes.
    pub memory: usize,
    /// Where spilled runs go (the system's temporary directory if `None`).
    pub temp_dir: Option<PathBuf>,
    /// A position reached by at least this many games keeps its games apart from the key
    /// blocks, with the explorer's aggregates beside them.
    pub popular: u32,
}

impl Default for BuildOptions {
    fn default() -> BuildOptions {
        BuildOptions { max_ply: u32::MAX, memory: 1 << 30, temp_dir: None, popular: 512 }
    }
}

impl BuildOptions {
    /// These options indexing at most `max_ply` plies a game.
    #[must_use]
    pub fn with_max_ply(self, max_ply: u32) -> BuildOptions {
        BuildOptions { max_ply, ..self }
    }

    /// These options sorting in at most `memory` bytes (at least 16 KiB).
    #[must_use]
    pub fn with_memory(self, memory: usize) -> BuildOptions {
        BuildOptions { memory: memory.max(16 << 10), ..self }
    }

    /// These options spilling to `dir`.
    #[must_use]
    pub fn with_temp_dir(self, dir: PathBuf) -> BuildOptions {
        BuildOptions { temp_dir: Some(dir), ..self }
    }

    /// These options with the popular threshold at `games` (2 to 65,535: the header keeps
    /// it in two bytes, and the reader tells a popular group by it).
    #[must_use]
    pub fn with_popular(self, games: u32) -> BuildOptions {
        BuildOptions { popular: games.clamp(2, u32::from(u16::MAX)), ..self }
    }
}

/// One game made ready to index: its facts, its tags, its coded moves and its positions.
#[derive(Clone, Debug)]
pub struct PreparedGame {
    number: u64,
    /// The `max_ply` it was prepared with: the builder's must be the same.
    max_ply: u32,
    facts: GameFacts,
    plies: u16,
    /// White, Black, Event, and the start FEN (empty for the standard start).
    texts: [Vec<u8>; 4],
    moves: Vec<u8>,
    /// (key, ply, the move played from there, `Move16::NONE` at the end), in ply order.
    positions: Vec<(u64, u16, u16)>,
}

/// Why a game is not indexed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SkipReason {
    /// More than 65,535 plies.
    TooLong,
    /// Its moves do not code (an illegal move in the record).
    Moves(String),
}

impl PreparedGame {
    /// Prepares `game` (numbered by its [`number`](GameRecord::number)), indexing at most
    /// `max_ply` plies.
    ///
    /// # Errors
    /// [`SkipReason`] for a game the index cannot hold.
    pub fn new(game: &GameRecord, max_ply: u32) -> Result<PreparedGame, SkipReason> {
        let plies = u16::try_from(game.moves.len()).map_err(|_| SkipReason::TooLong)?;
        let mut moves = Vec::new();
        move_codec::encode(MoveCodec::Model, &game.start, &game.moves, &mut moves)
            .map_err(|e| SkipReason::Moves(e.to_string()))?;
        let tag = |name: &str| game.tag(name).unwrap_or(b"").to_vec();
        let elo = |name: &str| {
            game.tag(name)
                .and_then(|v| core::str::from_utf8(v).ok())
                .and_then(|v| v.parse::<u16>().ok())
                .unwrap_or(0)
        };
        let facts = GameFacts {
            result: GameFacts::result_code(game.result),
            speed: game.tag("TimeControl").map_or(Speed::Unknown, Speed::of_time_control) as u8,
            date: game.tag("Date").or_else(|| game.tag("UTCDate")).map_or(0, parse_date),
            white_elo: elo("WhiteElo"),
            black_elo: elo("BlackElo"),
        };
        let start = if game.start == Position::new() {
            Vec::new()
        } else {
            fen_of(&game.start, FenOptions::default()).into_bytes()
        };
        let last = (game.moves.len() as u64).min(u64::from(max_ply)) as usize;
        let mut positions = Vec::with_capacity(last + 1);
        let next = |ply: usize| game.moves.get(ply).map_or(Move16::NONE, |m| *m).bits();
        positions.push((game.start.key(), 0, next(0)));
        if game.keys.len() == game.moves.len() {
            for ply in 1..=last {
                positions.push((game.keys[ply - 1], ply as u16, next(ply)));
            }
        } else {
            let mut pos = game.start;
            for ply in 1..=last {
                let m = game.moves[ply - 1];
                if m == Move16::NULL {
                    pos.play_null_unchecked();
                } else {
                    pos.play_unchecked(m);
                }
                positions.push((pos.key(), ply as u16, next(ply)));
            }
        }
        Ok(PreparedGame {
            number: game.number,
            max_ply,
            facts,
            plies,
            texts: [tag("White"), tag("Black"), tag("Event"), start],
            moves,
            positions,
        })
    }
}

impl PreparedGame {
    /// The game's number in the input, as the index will list it.
    pub fn number(&self) -> u64 {
        self.number
    }

    /// Sets the game's number (a worker prepares a chunk's games before their numbers in the
    /// whole input are known).
    pub fn renumber(&mut self, number: u64) {
        self.number = number;
    }
}

impl core::fmt::Display for SkipReason {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            SkipReason::TooLong => f.write_str("more than 65,535 plies: not indexed"),
            SkipReason::Moves(e) => write!(f, "moves do not code: {e}"),
        }
    }
}

/// What a build did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct BuildStats {
    /// Games indexed.
    pub games: u64,
    /// Positions indexed: (position, game) pairs, a game counted once per position.
    pub postings: u64,
    /// Distinct positions.
    pub positions: u64,
    /// Positions reached by at least the popular threshold of games.
    pub popular: u64,
    /// Sorted runs spilled to temporary files.
    pub spilled_runs: u64,
    /// The index's size in bytes.
    pub bytes: u64,
}

/// Builds an index from games pushed in input order.
pub struct IndexBuilder {
    options: BuildOptions,
    games: Vec<u8>,
    facts: Vec<GameFacts>,
    strings: HashMap<Vec<u8>, u32>,
    string_bytes: Vec<u8>,
    string_ends: Vec<u32>,
    moves: Vec<u8>,
    sorter: Sorter,
}

impl IndexBuilder {
    /// An empty builder.
    pub fn new(mut options: BuildOptions) -> IndexBuilder {
        // As `with_popular` bounds it, whatever the field was set to.
        options.popular = options.popular.clamp(2, u32::from(u16::MAX));
        let sorter = Sorter::new(options.memory, options.temp_dir.clone());
        let mut builder = IndexBuilder {
            options,
            games: Vec::new(),
            facts: Vec::new(),
            strings: HashMap::new(),
            string_bytes: Vec::new(),
            string_ends: Vec::new(),
            moves: Vec::new(),
            sorter,
        };
        builder.intern(b"");
        builder
    }

    /// The plies indexed a game.
    pub fn max_ply(&self) -> u32 {
        self.options.max_ply
    }

    fn intern(&mut self, text: &[u8]) -> u32 {
        if let Some(&id) = self.strings.get(text) {
            return id;
        }
        let id = self.string_ends.len() as u32;
        self.string_bytes.extend_from_slice(text);
        self.string_ends.push(self.string_bytes.len() as u32);
        self.strings.insert(text.to_vec(), id);
        id
    }

    /// Adds the next game.
    ///
    /// # Errors
    /// Writing a spilled run failed, or `game` was prepared for another `max_ply` than the
    /// builder's ([`IndexError::MaxPly`]).
    pub fn push(&mut self, game: PreparedGame) -> Result<(), IndexError> {
        if game.max_ply != self.options.max_ply {
            return Err(IndexError::MaxPly { prepared: game.max_ply, index: self.options.max_ply });
        }
        let index = self.facts.len() as u32;
        let ids = game.texts.each_ref().map(|t| t.as_slice());
        let ids = ids.map(|t| self.intern(t));
        let record = &mut self.games;
        record.extend_from_slice(&game.number.to_le_bytes());
        record.extend_from_slice(&(self.moves.len() as u64).to_le_bytes());
        for id in ids {
            record.extend_from_slice(&id.to_le_bytes());
        }
        record.extend_from_slice(&game.facts.date.to_le_bytes());
        record.extend_from_slice(&game.facts.white_elo.to_le_bytes());
        record.extend_from_slice(&game.facts.black_elo.to_le_bytes());
        record.extend_from_slice(&game.plies.to_le_bytes());
        record.extend_from_slice(&[game.facts.result, game.facts.speed]);
        debug_assert_eq!(record.len() % GAME_LEN, 0);
        self.moves.extend_from_slice(&game.moves);
        self.facts.push(game.facts);
        for (key, ply, next) in game.positions {
            let entry = u128::from(key) << 64
                | u128::from(index) << 32
                | u128::from(ply) << 16
                | u128::from(next);
            self.sorter.push(entry)?;
        }
        Ok(())
    }

    /// Sorts, merges and writes the index to `out`.
    ///
    /// # Errors
    /// Reading a spilled run or writing `out` failed.
    pub fn finish(self, out: &mut impl Write) -> Result<BuildStats, IndexError> {
        let IndexBuilder {
            options, games, facts, string_bytes, string_ends, moves, sorter, ..
        } = self;
        let mut stats = BuildStats { games: facts.len() as u64, ..BuildStats::default() };
        stats.spilled_runs = sorter.runs.len() as u64;
        let mut strings = Vec::with_capacity(4 + 4 * (string_ends.len() + 1) + string_bytes.len());
        strings.extend_from_slice(&(string_ends.len() as u32).to_le_bytes());
        strings.extend_from_slice(&0u32.to_le_bytes());
        for end in &string_ends {
            strings.extend_from_slice(&end.to_le_bytes());
        }
        strings.extend_from_slice(&string_bytes);

        let game_bits = game_bits(facts.len() as u64);
        let mut keys = Keys::new(&options, game_bits, &facts, sorter.total);
        sorter.merge(|entry| keys.add(entry))?;
        keys.flush_group();
        keys.flush_block();
        stats.postings = keys.postings;
        stats.positions = keys.positions;
        stats.popular = keys.popular.len() as u64;
        let popular = keys.popular_section()?;
        let sections: [&[u8]; SECTIONS] =
            [&games, &strings, &moves, &keys.blocks, &keys.directory, &popular];

        let mut header = Vec::with_capacity(HEADER_LEN);
        header.extend_from_slice(&MAGIC);
        header.extend_from_slice(&VERSION.to_le_bytes());
        header.extend_from_slice(&options.max_ply.to_le_bytes());
        header.extend_from_slice(&stats.games.to_le_bytes());
        header.extend_from_slice(&stats.postings.to_le_bytes());
        header.extend_from_slice(&stats.positions.to_le_bytes());
        header.push(keys.key_bits as u8);
        header.push(keys.rice as u8);
        header.extend_from_slice(&(options.popular as u16).to_le_bytes());
        header.extend_from_slice(&[0; 4]);
        let mut offset = HEADER_LEN as u64;
        for s in sections {
            header.extend_from_slice(&offset.to_le_bytes());
            header.extend_from_slice(&(s.len() as u64).to_le_bytes());
            offset += s.len() as u64;
        }
        debug_assert_eq!(header.len(), HEADER_LEN);
        let mut sums = RegionSums::new();
        for part in core::iter::once(header.as_slice()).chain(sections) {
            sums.update(part);
            out.write_all(part)?;
        }
        let sums = sums.finish();
        out.write_all(&sums)?;
        stats.bytes = offset + sums.len() as u64;
        Ok(stats)
    }
}

/// The bits a game index takes in the key blocks: enough for `games - 1`.
pub(crate) fn game_bits(games: u64) -> u32 {
    (64 - games.saturating_sub(1).leading_zeros()).max(1)
}

/// One popular position: its key, a game reaching it, and its aggregates.
struct Popular {
    key: u64,
    /// The first game reaching it and the ply where it does (to store the position).
    first: (u32, u16),
    games: Vec<u32>,
    /// (move, speed, band, month, result) -> counts.
    rows: BTreeMap<(u16, u8, u8, u16, u8), Tally>,
}

/// The explorer's counts for one group of games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    pub games: u32,
    pub white: u32,
    pub draws: u32,
    pub black: u32,
    pub rated: u32,
    pub rating_sum: u64,
    pub last_date: u32,
}

impl Tally {
    pub(crate) fn add(&mut self, facts: &GameFacts) {
        self.games = self.games.saturating_add(1);
        match facts.result {
            1 => self.white = self.white.saturating_add(1),
            2 => self.black = self.black.saturating_add(1),
            3 => self.draws = self.draws.saturating_add(1),
            _ => {}
        }
        if let Some(rating) = facts.average_rating() {
            self.rated = self.rated.saturating_add(1);
            self.rating_sum = self.rating_sum.saturating_add(u64::from(rating));
        }
        self.last_date = self.last_date.max(facts.date);
    }

    /// Adds another group's counts (saturating: a forged index's counts may not overflow).
    pub(crate) fn merge(&mut self, other: &Tally) {
        self.games = self.games.saturating_add(other.games);
        self.white = self.white.saturating_add(other.white);
        self.draws = self.draws.saturating_add(other.draws);
        self.black = self.black.saturating_add(other.black);
        self.rated = self.rated.saturating_add(other.rated);
        self.rating_sum = self.rating_sum.saturating_add(other.rating_sum);
        self.last_date = self.last_date.max(other.last_date);
    }
}

/// A key and its games: (game, ply of the first arrival, the move played next).
type Group = (u64, Vec<(u32, u16, u16)>);

/// The key blocks being written from the sorted pairs.
struct Keys<'a> {
    facts: &'a [GameFacts],
    popular_at: u32,
    game_bits: u32,
    key_bits: u32,
    rice: u32,
    /// The current group: key, and (game, ply, next) of each game, first arrival only.
    group: Option<Group>,
    block: BitWriter,
    block_groups: usize,
    block_first: u64,
    previous: u64,
    blocks: Vec<u8>,
    directory: Vec<u8>,
    popular: Vec<Popular>,
    postings: u64,
    positions: u64,
}

impl<'a> Keys<'a> {
    fn new(options: &BuildOptions, game_bits: u32, facts: &'a [GameFacts], pairs: u64) -> Keys<'a> {
        // The keys kept: enough bits to tell about 256 times more keys than there are pairs,
        // so a lookup meets a foreign group with the same kept bits about once in 256 (verified
        // away by replay). Rice codes their gaps, with the parameter that suits gaps averaging
        // 2^key_bits / pairs.
        let spread = 64 - pairs.max(1).leading_zeros();
        let key_bits = (spread + 8).min(64);
        let mean_gap = (key_bits as f64 - (pairs.max(1) as f64).log2()).exp2();
        let rice = (mean_gap * core::f64::consts::LN_2).log2().floor().clamp(0.0, 63.0) as u32;
        Keys {
            facts,
            popular_at: options.popular,
            game_bits,
            key_bits,
            rice,
            group: None,
            block: BitWriter::new(),
            block_groups: 0,
            block_first: 0,
            previous: 0,
            blocks: Vec::new(),
            directory: Vec::new(),
            popular: Vec::new(),
            postings: 0,
            positions: 0,
        }
    }

    fn kept(&self, key: u64) -> u64 {
        key >> (64 - self.key_bits)
    }

    fn add(&mut self, entry: u128) {
        let key = (entry >> 64) as u64;
        let game = (entry >> 32) as u32;
        let ply = (entry >> 16) as u16;
        let next = entry as u16;
        match &mut self.group {
            Some((k, games)) if *k == key => {
                // Sorted by game then ply: the first entry of a game is its first arrival.
                if games.last().is_none_or(|g| g.0 != game) {
                    games.push((game, ply, next));
                }
            }
            _ => {
                self.flush_group();
                self.group = Some((key, vec![(game, ply, next)]));
            }
        }
    }

    fn flush_group(&mut self) {
        let Some((key, games)) = self.group.take() else {
            return;
        };
        if self.block_groups == BLOCK_GROUPS {
            self.flush_block();
        }
        let kept = self.kept(key);
        if self.block_groups == 0 {
            self.block_first = kept;
            self.previous = kept;
        }
        write_rice(&mut self.block, kept - self.previous, self.rice);
        self.previous = kept;
        write_gamma(&mut self.block, games.len() as u64);
        self.positions += 1;
        self.postings += games.len() as u64;
        if games.len() as u64 >= u64::from(self.popular_at) {
            let mut rows: BTreeMap<(u16, u8, u8, u16, u8), Tally> = BTreeMap::new();
            for &(game, _, next) in &games {
                let facts = &self.facts[game as usize];
                let group = (next, facts.speed, facts.band(), facts.month(), facts.result);
                rows.entry(group).or_default().add(facts);
            }
            self.popular.push(Popular {
                key,
                first: (games[0].0, games[0].1),
                games: games.iter().map(|g| g.0).collect(),
                rows,
            });
        } else {
            write_games(&mut self.block, games.iter().map(|g| g.0), self.game_bits);
        }
        self.block_groups += 1;
    }

    fn flush_block(&mut self) {
        if self.block_groups == 0 {
            return;
        }
        let block = core::mem::take(&mut self.block).finish();
        self.directory.extend_from_slice(&self.block_first.to_le_bytes());
        self.directory.extend_from_slice(&(self.blocks.len() as u64).to_le_bytes());
        self.directory.extend_from_slice(&(self.block_groups as u64).to_le_bytes());
        self.blocks.extend_from_slice(block.as_bytes());
        self.block_groups = 0;
    }

    /// The popular section: `u32` count, then per position its full key and the offset of
    /// its data; then the data.
    fn popular_section(&self) -> Result<Vec<u8>, IndexError> {
        let mut head = Vec::new();
        let mut data = Vec::new();
        head.extend_from_slice(&(self.popular.len() as u32).to_le_bytes());
        for p in &self.popular {
            head.extend_from_slice(&p.key.to_le_bytes());
            head.extend_from_slice(&(data.len() as u64).to_le_bytes());
            // The position itself, to verify the key against (packed, no clocks), is written
            // by the reader's replay of the first game: stored here as (game, ply).
            data.extend_from_slice(&p.first.0.to_le_bytes());
            data.extend_from_slice(&p.first.1.to_le_bytes());
            let mut w = BitWriter::new();
            write_games(&mut w, p.games.iter().copied(), game_bits(self.facts.len() as u64));
            let games = w.finish();
            data.extend_from_slice(&(p.games.len() as u32).to_le_bytes());
            data.extend_from_slice(&(games.as_bytes().len() as u32).to_le_bytes());
            data.extend_from_slice(games.as_bytes());
            // Rows as varints: the move, speed, band, month and result of the group, then its
            // games, the rated ones, their rating sum and the last date (the counts by result
            // follow from the group's result).
            data.extend_from_slice(&(p.rows.len() as u32).to_le_bytes());
            for (&(next, speed, band, month, result), t) in &p.rows {
                for v in [u64::from(next), u64::from(speed), u64::from(band), u64::from(month)] {
                    write_varint(&mut data, v);
                }
                data.push(result);
                for v in
                    [u64::from(t.games), u64::from(t.rated), t.rating_sum, u64::from(t.last_date)]
                {
                    write_varint(&mut data, v);
                }
            }
        }
        head.extend_from_slice(&data);
        Ok(head)
    }
}

/// A sorted list of game indices: the first in `bits` bits, then each gap as a gamma code.
fn write_games(w: &mut BitWriter, games: impl Iterator<Item = u32>, bits: u32) {
    let mut previous = None;
    for game in games {
        match previous {
            None => w.write(u64::from(game), bits),
            Some(p) => write_gamma(w, u64::from(game - p)),
        }
        previous = Some(game);
    }
}

/// Sorts `u128` entries in bounded memory, spilling sorted runs to temporary files.
struct Sorter {
    capacity: usize,
    /// Entries pushed, in all.
    total: u64,
    entries: Vec<u128>,
    dir: Option<PathBuf>,
    runs: Vec<Run>,
}

/// A spilled run: its file, removed when dropped.
struct Run {
    path: PathBuf,
}

impl Drop for Run {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

impl Sorter {
    fn new(memory: usize, dir: Option<PathBuf>) -> Sorter {
        Sorter {
            capacity: (memory / 16).max(1 << 16),
            total: 0,
            entries: Vec::new(),
            dir,
            runs: Vec::new(),
        }
    }

    fn push(&mut self, entry: u128) -> Result<(), IndexError> {
        if self.entries.len() == self.capacity {
            self.spill()?;
        }
        self.entries.push(entry);
        self.total += 1;
        Ok(())
    }

    fn spill(&mut self) -> Result<(), IndexError> {
        self.entries.sort_unstable();
        let dir = self.dir.clone().unwrap_or_else(std::env::temp_dir);
        let path = temp_path(&dir, self.runs.len());
        let run = Run { path };
        let mut out = BufWriter::new(File::create(&run.path)?);
        for e in self.entries.drain(..) {
            out.write_all(&e.to_le_bytes())?;
        }
        out.flush()?;
        self.runs.push(run);
        Ok(())
    }

    /// Hands every entry to `each`, in order.
    fn merge(mut self, mut each: impl FnMut(u128)) -> Result<(), IndexError> {
        if self.runs.is_empty() {
            self.entries.sort_unstable();
            self.entries.iter().for_each(|&e| each(e));
            return Ok(());
        }
        if !self.entries.is_empty() {
            self.spill()?;
        }
        let mut readers = Vec::with_capacity(self.runs.len());
        for run in &self.runs {
            readers.push(BufReader::with_capacity(1 << 16, File::open(&run.path)?));
        }
        let mut heap = BinaryHeap::new();
        for (i, r) in readers.iter_mut().enumerate() {
            if let Some(e) = next_entry(r)? {
                heap.push(Reverse((e, i)));
            }
        }
        while let Some(Reverse((e, i))) = heap.pop() {
            each(e);
            if let Some(next) = next_entry(&mut readers[i])? {
                heap.push(Reverse((next, i)));
            }
        }
        Ok(())
    }
}

fn next_entry(r: &mut impl Read) -> io::Result<Option<u128>> {
    let mut buf = [0u8; 16];
    match r.read_exact(&mut buf) {
        Ok(()) => Ok(Some(u128::from_le_bytes(buf))),
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => Ok(None),
        Err(e) => Err(e),
    }
}

/// A run file name no other build in `dir` uses: the process, the time, the run.
fn temp_path(dir: &Path, run: usize) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    dir.join(format!("chessbits-index-{}-{nanos}-{run}.run", std::process::id()))
}
