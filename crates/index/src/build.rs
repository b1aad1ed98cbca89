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
use chessbits_movegen::GameResult;
use chessbits_notation::fen::{fen_of, FenOptions};
use chessbits_state::Position;

use crate::format::{
    write_gamma, write_rice, write_varint, IndexError, BLOCK_ENTRY_LEN, BLOCK_GROUPS, GAME_LEN,
    HEADER_LEN, MAGIC, SECTIONS, VERSION,
};
use crate::game::{parse_date, GameFacts, Speed};
use crate::regions::RegionSums;
use crate::spill::{temp_path, Spill};

/// How an index is built.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct BuildOptions {
    /// The plies indexed in each game: positions after at most this many moves (the start
    /// position is ply 0). `u32::MAX`: every ply.
    pub max_ply: u32,
    /// The memory the sort of (position, game) pairs may take before it spills a sorted run
    /// to a temporary file, in bytes; a sixteenth of it (1 KiB to 16 MiB) is what each
    /// section being written keeps in memory before it goes to a temporary file.
    pub memory: usize,
    /// Where spilled runs and sections go (the system's temporary directory if `None`).
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

    /// Where temporary files go.
    fn dir(&self) -> PathBuf {
        self.temp_dir.clone().unwrap_or_else(std::env::temp_dir)
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
        // As the export's columns: the `Result` tag, else the movetext's marker; the date
        // from `Date`, else (absent, or no year: lichess writes `????.??.??` in old games)
        // from `UTCDate`.
        let result = game.tag("Result").and_then(GameResult::from_ascii).or(game.result);
        let date = game.tag("Date").map_or(0, parse_date);
        let facts = GameFacts {
            result: GameFacts::result_code(result),
            speed: game.tag("TimeControl").map_or(Speed::Unknown, Speed::of_time_control) as u8,
            date: if date > 0 { date } else { game.tag("UTCDate").map_or(0, parse_date) },
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
///
/// Its memory: the sort's bound ([`BuildOptions::memory`]), the distinct tag strings (White,
/// Black, Event, start FENs), the popular positions' game lists as they are coded (about a
/// bit a game) and their aggregates, and for each of five sections (games, moves, key blocks,
/// block directory, popular data) a buffer of a sixteenth of the sort's bound (at least 1 KiB,
/// at most 16 MiB) past which it goes to a temporary file. So a month's build (8 billion
/// plies, an index of about 47 GB) fits in the bound and the strings.
pub struct IndexBuilder {
    options: BuildOptions,
    /// The game table's records.
    games: Spill,
    /// Games pushed.
    count: u64,
    strings: HashMap<Vec<u8>, u32>,
    string_bytes: Vec<u8>,
    string_ends: Vec<u32>,
    moves: Spill,
    sorter: Sorter,
}

/// How much of a section is kept in memory before it goes to a temporary file.
fn spill_limit(memory: usize) -> usize {
    (memory / 16).clamp(1 << 10, 16 << 20)
}

impl IndexBuilder {
    /// An empty builder.
    pub fn new(mut options: BuildOptions) -> IndexBuilder {
        // As `with_popular` bounds it, whatever the field was set to.
        options.popular = options.popular.clamp(2, u32::from(u16::MAX));
        let sorter = Sorter::new(options.memory, options.temp_dir.clone());
        let (dir, limit) = (options.dir(), spill_limit(options.memory));
        let mut builder = IndexBuilder {
            games: Spill::new("games", limit, &dir),
            count: 0,
            strings: HashMap::new(),
            string_bytes: Vec::new(),
            string_ends: Vec::new(),
            moves: Spill::new("moves", limit, &dir),
            sorter,
            options,
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
        let index = u32::try_from(self.count).map_err(|_| IndexError::TooManyGames)?;
        let ids = game.texts.each_ref().map(|t| t.as_slice());
        let ids = ids.map(|t| self.intern(t));
        let mut record = [0u8; GAME_LEN];
        record[..8].copy_from_slice(&game.number.to_le_bytes());
        record[8..16].copy_from_slice(&self.moves.len().to_le_bytes());
        for (i, id) in ids.iter().enumerate() {
            record[16 + 4 * i..20 + 4 * i].copy_from_slice(&id.to_le_bytes());
        }
        record[32..36].copy_from_slice(&game.facts.date.to_le_bytes());
        record[36..38].copy_from_slice(&game.facts.white_elo.to_le_bytes());
        record[38..40].copy_from_slice(&game.facts.black_elo.to_le_bytes());
        record[40..42].copy_from_slice(&game.plies.to_le_bytes());
        record[42] = game.facts.result;
        record[43] = game.facts.speed;
        self.games.write(&record)?;
        self.moves.write(&game.moves)?;
        self.count += 1;
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
            options,
            mut games,
            count,
            string_bytes,
            string_ends,
            mut moves,
            sorter,
            ..
        } = self;
        let mut stats = BuildStats { games: count, ..BuildStats::default() };
        stats.spilled_runs = sorter.runs.len() as u64;
        let strings = strings_section(&string_ends, &string_bytes);

        // The popular positions' counts need each game's facts: from the game table, in
        // memory or mapped from its file.
        let table_file = games.finish()?.map(Path::to_path_buf);
        let mapped;
        let records: &[u8] = match &table_file {
            Some(path) => {
                mapped = crate::mapped::map_own_file(path)?;
                &mapped
            }
            None => games.in_memory().unwrap_or_default(),
        };
        let mut keys = Keys::new(&options, game_bits(count), records, sorter.total);
        sorter.merge(|entry| keys.add(entry))?;
        keys.flush_group()?;
        keys.flush_block()?;
        stats.postings = keys.postings;
        stats.positions = keys.positions;
        stats.popular = keys.popular_head.len() as u64;
        let Keys {
            key_bits, rice, mut blocks, mut directory, popular_head, mut popular_data, ..
        } = keys;
        let mut popular = Vec::with_capacity(4 + 16 * popular_head.len());
        popular.extend_from_slice(&(popular_head.len() as u32).to_le_bytes());
        for (key, offset) in &popular_head {
            popular.extend_from_slice(&key.to_le_bytes());
            popular.extend_from_slice(&offset.to_le_bytes());
        }
        let lengths = [
            games.len(),
            strings.len() as u64,
            moves.len(),
            blocks.len(),
            directory.len(),
            popular.len() as u64 + popular_data.len(),
        ];

        let header = header(&options, &stats, (key_bits, rice), lengths);
        let mut sums = RegionSums::new();
        let mut put = |bytes: &[u8]| -> io::Result<()> {
            sums.update(bytes);
            out.write_all(bytes)
        };
        put(&header)?;
        games.read_each(&mut put)?;
        put(&strings)?;
        moves.read_each(&mut put)?;
        blocks.read_each(&mut put)?;
        directory.read_each(&mut put)?;
        put(&popular)?;
        popular_data.read_each(&mut put)?;
        let sums = sums.finish();
        out.write_all(&sums)?;
        stats.bytes = HEADER_LEN as u64 + lengths.iter().sum::<u64>() + sums.len() as u64;
        Ok(stats)
    }
}

/// The strings section: the count, the end offsets (the first 0), the bytes.
fn strings_section(ends: &[u32], bytes: &[u8]) -> Vec<u8> {
    let mut strings = Vec::with_capacity(4 + 4 * (ends.len() + 1) + bytes.len());
    strings.extend_from_slice(&(ends.len() as u32).to_le_bytes());
    strings.extend_from_slice(&0u32.to_le_bytes());
    for end in ends {
        strings.extend_from_slice(&end.to_le_bytes());
    }
    strings.extend_from_slice(bytes);
    strings
}

/// The header: magic, version, the build's figures, the key coding, and the six sections'
/// offsets and lengths (back to back from the header's end).
fn header(
    options: &BuildOptions,
    stats: &BuildStats,
    (key_bits, rice): (u32, u32),
    lengths: [u64; SECTIONS],
) -> Vec<u8> {
    let mut header = Vec::with_capacity(HEADER_LEN);
    header.extend_from_slice(&MAGIC);
    header.extend_from_slice(&VERSION.to_le_bytes());
    header.extend_from_slice(&options.max_ply.to_le_bytes());
    header.extend_from_slice(&stats.games.to_le_bytes());
    header.extend_from_slice(&stats.postings.to_le_bytes());
    header.extend_from_slice(&stats.positions.to_le_bytes());
    header.push(key_bits as u8);
    header.push(rice as u8);
    header.extend_from_slice(&(options.popular as u16).to_le_bytes());
    header.extend_from_slice(&[0; 4]);
    let mut offset = HEADER_LEN as u64;
    for len in lengths {
        header.extend_from_slice(&offset.to_le_bytes());
        header.extend_from_slice(&len.to_le_bytes());
        offset += len;
    }
    debug_assert_eq!(header.len(), HEADER_LEN);
    header
}

/// The bits a game index takes in the key blocks: enough for `games - 1`.
pub(crate) fn game_bits(games: u64) -> u32 {
    (64 - games.saturating_sub(1).leading_zeros()).max(1)
}

/// A popular position's games as they come: counted, coded (as in a block) and tallied, so
/// that the start position's group, every game of the input, takes about a bit a game.
struct PopularGroup {
    /// The first game reaching it and the ply where it does (to store the position).
    first: (u32, u16),
    count: u32,
    list: BitWriter,
    previous: u32,
    /// (move, speed, band, month, result) -> counts.
    rows: BTreeMap<(u16, u8, u8, u16, u8), Tally>,
}

impl PopularGroup {
    fn new(first: (u32, u16)) -> PopularGroup {
        PopularGroup { first, count: 0, list: BitWriter::new(), previous: 0, rows: BTreeMap::new() }
    }

    /// Adds a game (in order) that played `next` from the position, with its facts.
    fn add(&mut self, game: u32, next: u16, facts: &GameFacts, game_bits: u32) {
        if self.count == 0 {
            self.list.write(u64::from(game), game_bits);
        } else {
            write_gamma(&mut self.list, u64::from(game - self.previous));
        }
        self.previous = game;
        self.count += 1;
        let group = (next, facts.speed, facts.band(), facts.month(), facts.result);
        self.rows.entry(group).or_default().add(facts);
    }
}

/// A key and its games as the sorted pairs bring them.
struct Group {
    key: u64,
    /// (game, ply of the first arrival, the move played next) of each game, until there are
    /// as many as make the position popular.
    games: Vec<(u32, u16, u16)>,
    /// The last game added (a game counts once, at its first arrival).
    last: u32,
    popular: Option<PopularGroup>,
}

/// The explorer's counts for one group of games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    pub games: u32,
    pub white: u32,
    pub draws: u32,
    pub black: u32,
    pub rated: u32,
    /// Both players' ratings summed over the rated games: the mean of the players' ratings
    /// is `rating_sum / (2 * rated)`, exactly.
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
        if facts.average_rating().is_some() {
            self.rated = self.rated.saturating_add(1);
            let both = u64::from(facts.white_elo) + u64::from(facts.black_elo);
            self.rating_sum = self.rating_sum.saturating_add(both);
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

/// The key blocks being written from the sorted pairs.
struct Keys<'a> {
    /// The game table's records, for the facts of the popular positions' games.
    records: &'a [u8],
    popular_at: u32,
    game_bits: u32,
    key_bits: u32,
    rice: u32,
    group: Option<Group>,
    block: BitWriter,
    block_groups: usize,
    block_first: u64,
    previous: u64,
    blocks: Spill,
    directory: Spill,
    /// Each popular position's full key and the offset of its data.
    popular_head: Vec<(u64, u64)>,
    popular_data: Spill,
    postings: u64,
    positions: u64,
}

impl<'a> Keys<'a> {
    fn new(options: &BuildOptions, game_bits: u32, records: &'a [u8], pairs: u64) -> Keys<'a> {
        // The keys kept: enough bits to tell about 256 times more keys than there are pairs,
        // so a lookup meets a foreign group with the same kept bits about once in 256 (verified
        // away by replay). Rice codes their gaps, with the parameter that suits gaps averaging
        // 2^key_bits / pairs.
        let spread = 64 - pairs.max(1).leading_zeros();
        let key_bits = (spread + 8).min(64);
        let mean_gap = (key_bits as f64 - (pairs.max(1) as f64).log2()).exp2();
        let rice = (mean_gap * core::f64::consts::LN_2).log2().floor().clamp(0.0, 63.0) as u32;
        let (dir, limit) = (options.dir(), spill_limit(options.memory));
        Keys {
            records,
            popular_at: options.popular,
            game_bits,
            key_bits,
            rice,
            group: None,
            block: BitWriter::new(),
            block_groups: 0,
            block_first: 0,
            previous: 0,
            blocks: Spill::new("blocks", limit, &dir),
            directory: Spill::new("directory", limit, &dir),
            popular_head: Vec::new(),
            popular_data: Spill::new("popular", limit, &dir),
            postings: 0,
            positions: 0,
        }
    }

    fn kept(&self, key: u64) -> u64 {
        key >> (64 - self.key_bits)
    }

    fn add(&mut self, entry: u128) -> Result<(), IndexError> {
        let key = (entry >> 64) as u64;
        let game = (entry >> 32) as u32;
        let ply = (entry >> 16) as u16;
        let next = entry as u16;
        if self.group.as_ref().is_none_or(|g| g.key != key) {
            self.flush_group()?;
            self.group = Some(Group { key, games: Vec::new(), last: game, popular: None });
        } else if self.group.as_ref().is_some_and(|g| g.last == game) {
            // Sorted by game then ply: a game's first entry is its first arrival.
            return Ok(());
        }
        let (records, popular_at, game_bits) =
            (self.records, self.popular_at as usize, self.game_bits);
        let facts = facts_of(records, game);
        let Some(group) = self.group.as_mut() else { return Ok(()) };
        group.last = game;
        match &mut group.popular {
            Some(popular) => popular.add(game, next, &facts, game_bits),
            None => {
                group.games.push((game, ply, next));
                if group.games.len() == popular_at {
                    // Popular from here on: its games are coded and tallied as they come.
                    let mut popular = PopularGroup::new((group.games[0].0, group.games[0].1));
                    for (game, _, next) in group.games.drain(..) {
                        let facts = facts_of(records, game);
                        popular.add(game, next, &facts, game_bits);
                    }
                    group.popular = Some(popular);
                }
            }
        }
        Ok(())
    }

    fn flush_group(&mut self) -> Result<(), IndexError> {
        let Some(group) = self.group.take() else {
            return Ok(());
        };
        if self.block_groups == BLOCK_GROUPS {
            self.flush_block()?;
        }
        let kept = self.kept(group.key);
        if self.block_groups == 0 {
            self.block_first = kept;
            self.previous = kept;
        }
        write_rice(&mut self.block, kept - self.previous, self.rice);
        self.previous = kept;
        let count = group.popular.as_ref().map_or(group.games.len() as u64, |p| u64::from(p.count));
        write_gamma(&mut self.block, count);
        self.positions += 1;
        self.postings += count;
        match group.popular {
            Some(popular) => self.write_popular(group.key, popular)?,
            None => write_games(&mut self.block, group.games.iter().map(|g| g.0), self.game_bits),
        }
        self.block_groups += 1;
        Ok(())
    }

    fn flush_block(&mut self) -> Result<(), IndexError> {
        if self.block_groups == 0 {
            return Ok(());
        }
        let block = core::mem::take(&mut self.block).finish();
        let mut entry = [0u8; BLOCK_ENTRY_LEN];
        entry[..8].copy_from_slice(&self.block_first.to_le_bytes());
        entry[8..16].copy_from_slice(&self.blocks.len().to_le_bytes());
        entry[16..].copy_from_slice(&(self.block_groups as u64).to_le_bytes());
        self.directory.write(&entry)?;
        self.blocks.write(block.as_bytes())?;
        self.block_groups = 0;
        Ok(())
    }

    /// A popular position's data: the game and ply that reach it (the reader replays them to
    /// the position, to verify the key against), its games, and its rows.
    fn write_popular(&mut self, key: u64, popular: PopularGroup) -> Result<(), IndexError> {
        self.popular_head.push((key, self.popular_data.len()));
        let mut data = Vec::new();
        data.extend_from_slice(&popular.first.0.to_le_bytes());
        data.extend_from_slice(&popular.first.1.to_le_bytes());
        let games = popular.list.finish();
        data.extend_from_slice(&popular.count.to_le_bytes());
        data.extend_from_slice(&(games.as_bytes().len() as u32).to_le_bytes());
        data.extend_from_slice(games.as_bytes());
        // Rows as varints: the move, speed, band, month and result of the group, then its
        // games, the rated ones, their rating sum and the last date (the counts by result
        // follow from the group's result).
        data.extend_from_slice(&(popular.rows.len() as u32).to_le_bytes());
        for (&(next, speed, band, month, result), t) in &popular.rows {
            for v in [u64::from(next), u64::from(speed), u64::from(band), u64::from(month)] {
                write_varint(&mut data, v);
            }
            data.push(result);
            for v in [u64::from(t.games), u64::from(t.rated), t.rating_sum, u64::from(t.last_date)]
            {
                write_varint(&mut data, v);
            }
        }
        self.popular_data.write(&data)?;
        Ok(())
    }
}

/// The facts of game `game`, from its record in the game table `records`.
fn facts_of(records: &[u8], game: u32) -> GameFacts {
    let at = game as usize * GAME_LEN;
    let record = records.get(at..at + GAME_LEN).unwrap_or(&[0; GAME_LEN]);
    let u16_at = |i: usize| u16::from_le_bytes([record[i], record[i + 1]]);
    GameFacts {
        date: u32::from_le_bytes([record[32], record[33], record[34], record[35]]),
        white_elo: u16_at(36),
        black_elo: u16_at(38),
        result: record[42],
        speed: record[43],
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
        let path = temp_path(&dir, "run");
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
    fn merge(
        mut self,
        mut each: impl FnMut(u128) -> Result<(), IndexError>,
    ) -> Result<(), IndexError> {
        if self.runs.is_empty() {
            self.entries.sort_unstable();
            return self.entries.iter().try_for_each(|&e| each(e));
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
            each(e)?;
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
