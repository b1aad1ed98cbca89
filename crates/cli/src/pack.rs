//! `chessbits pack` and `chessbits unpack`: PGN files to a `.cbg` game file and back.
//!
//! - `pack FILE.pgn... -o OUT.cbg [--codec model|index] [--stats]`: every game that reads
//!   (as `chessbits pgn` reads it) is stored: tags, start position, mainline, clocks and
//!   evaluations; other comments, glyphs and variations are dropped. Broken games are
//!   reported on stderr as `chessbits pgn` reports them, and make the exit status 1.
//!   `--stats` prints one JSON object to stdout:
//!   `{"games":G,"plies":P,"move_bits":B,"total_bytes":T,"dropped_comments":C,"dropped_variations":V,"failed_games":F,"failed_inputs":I}`,
//!   where `games` counts the games stored, `move_bits` is 8 × the bytes of their coded
//!   mainlines, `total_bytes` the size of the file (0 when none is written), `dropped_comments` the comments with
//!   text besides clocks and evaluations, comments before the first move and glyphs, and
//!   `dropped_variations` the variations (each with all it holds), `failed_inputs` the inputs
//!   not read or not to their end (missing, not PGN, a read error: none of them a game).
//! - `unpack FILE.cbg --to uci|pgn [--game N]`: `--to uci` prints for each game exactly the
//!   line `chessbits pgn --to uci` prints for it, numbered as in the packed input; `--to pgn`
//!   the export format with tags, clocks and evaluations. `--game N` prints game `N` only, `N`
//!   the number the output shows (found through the index). Every row, good or not, carries
//!   that number: a game whose record does not read prints `<N>\terror\t<message>` and the
//!   message goes to stderr; the exit status is then 1. A file cut short, or with a broken
//!   frame, is reported once on stderr after the games before the damage: it is no game.
//!
//! Both check their inputs first and write their output under a temporary name, renamed
//! when complete ([`crate::files::Pending`]).

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering::Relaxed;

use chessbits_cbg::{
    CbgError, CbgFile, CbgReader, CbgWriter, CodedGame, GameBuilder, GameRecord, RawGame,
};
use chessbits_codec::move_codec::{MoveCodec, MoveEncoder};
use chessbits_move::CastlingMode;
use chessbits_movegen::Game;
use chessbits_pgn::{
    par_chunks, par_map, ChunkReader, ErrorPlace, GameSource, Parallel, PgnErrorKind, ReplayedGame,
};
use chessbits_state::Position;

use crate::files::{check_inputs, check_output, read_error, Pending};
use crate::pgn::{fitted, open_pgn, uci_line, To};
use crate::progress::{Done, Progress};

/// The move codec of `pack`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Codec {
    /// The fitted move model and a range coder (about 3 bits a move).
    #[default]
    Model,
    /// Each move's index among the legal moves (about 5 bits a move).
    Index,
}

/// A writer that counts what it writes.
pub(crate) struct Counting<W> {
    pub(crate) inner: W,
    pub(crate) bytes: u64,
}

impl<W: Write> Write for Counting<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// What `pack` counted.
#[derive(Default)]
pub struct PackStats {
    /// Games packed.
    pub games: u64,
    plies: u64,
    move_bytes: u64,
    total_bytes: u64,
    dropped_comments: u64,
    dropped_variations: u64,
    /// Broken games.
    pub failed: u64,
    /// Inputs not read, or not to their end (not games).
    pub failed_inputs: u64,
}

impl PackStats {
    /// The `--stats` JSON object.
    fn json(&self) -> String {
        format!(
            "{{\"games\":{},\"plies\":{},\"move_bits\":{},\"total_bytes\":{},\"dropped_comments\":{},\"dropped_variations\":{},\"failed_games\":{},\"failed_inputs\":{}}}",
            self.games,
            self.plies,
            self.move_bytes * 8,
            self.total_bytes,
            self.dropped_comments,
            self.dropped_variations,
            self.failed,
            self.failed_inputs
        )
    }
}

/// A game of a chunk as a worker leaves it: coded or why not, and the comments and
/// variations it dropped.
type ChunkGame = (Result<CodedGame, Broken>, (u64, u64));

/// What a worker makes of a chunk: its games, where the last one ends, and the read error
/// that ended the input in it, if one did (with the offset where reading stopped).
struct CodedChunk {
    games: Vec<ChunkGame>,
    end: u64,
    read_error: Option<(u64, io::Error)>,
}

/// Reads and codes every game of a chunk of PGN (on a worker).
fn code_chunk(reader: &mut ChunkReader<'_>, codec: MoveCodec) -> CodedChunk {
    let mut coded = code_games(reader, codec, 0);
    if coded.read_error.is_none() {
        coded.end = reader.end();
    }
    coded
}

/// Reads and codes every game of `source` (a chunk of PGN, a batch of Parquet rows) on a
/// worker; `end` is where the source ends in its input.
fn code_games(source: &mut impl GameSource, codec: MoveCodec, end: u64) -> CodedChunk {
    let mut builder = GameBuilder::default();
    let mut encoder = MoveEncoder::new(codec, &Position::new());
    let mut coded = CodedChunk { games: Vec::new(), end, read_error: None };
    loop {
        let dropped = (builder.dropped_comments, builder.dropped_variations);
        let Some(result) = source.next_game(&mut builder) else { break };
        // What a broken game dropped is not counted.
        let dropped =
            (builder.dropped_comments - dropped.0, builder.dropped_variations - dropped.1);
        let game = match result {
            Ok(game) => CodedGame::with_encoder(game, codec, &mut encoder)
                .map_err(|e| Broken::Coding(e.to_string())),
            Err(e) => {
                let place = source.place(&e);
                match e.kind {
                    PgnErrorKind::Io(io) => {
                        (coded.end, coded.read_error) = (e.offset, Some((e.offset, io)));
                        break;
                    }
                    kind => Err(Broken::Reading { place, message: kind.to_string() }),
                }
            }
        };
        coded.games.push((game, dropped));
    }
    coded
}

/// Writes one game a worker coded as game `number` of the output, counting it in `s`, or
/// reports why it is not packed.
fn write_coded<W: Write>(
    writer: &mut CbgWriter<W>,
    (coded, dropped): ChunkGame,
    number: u64,
    s: &mut PackStats,
    path: &Path,
    err: &mut impl Write,
) -> io::Result<()> {
    let written = match coded {
        Ok(mut coded) => {
            coded.set_number(number);
            writer
                .write_coded(&coded)
                .map(|w| (w, coded.game().moves.len()))
                .map_err(|e| format!("game {number}: {e}"))
        }
        Err(Broken::Coding(message)) => Err(format!("game {number}: {message}")),
        Err(Broken::Reading { place, message }) => {
            Err(format!("game {number}, {place}: {message}"))
        }
    };
    match written {
        Ok((w, plies)) => {
            s.games += 1;
            s.plies += plies as u64;
            s.move_bytes += w.move_bytes as u64;
            s.dropped_comments += dropped.0;
            s.dropped_variations += dropped.1;
        }
        Err(message) => {
            s.failed += 1;
            writeln!(err, "chessbits: {}: {message}", path.display())?;
        }
    }
    Ok(())
}

/// Why a game is not packed: it did not read (where, and why), or its mainline does not
/// code.
enum Broken {
    Reading { place: ErrorPlace, message: String },
    Coding(String),
}

/// Runs `pack`: returns the counts. The inputs are checked first: if one cannot be read,
/// nothing is written. The file is written under a temporary name and renamed once complete,
/// and not at all when no game was packed and something failed (then `total_bytes` is 0 and
/// `err` says so).
pub fn pack(
    inputs: &[PathBuf],
    (output, codec, stats): (&Path, Codec, bool),
    (options, progress): (&Parallel, &mut Progress),
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<PackStats> {
    let mut s = PackStats::default();
    if !check_inputs(inputs, err)? || !check_output(inputs, output, err)? {
        s.failed_inputs += 1;
        return Ok(s);
    }
    let codec = match codec {
        Codec::Model => MoveCodec::Model,
        Codec::Index => MoveCodec::Index,
    };
    let pending = Pending::new(output);
    let file = File::create(pending.temp())
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", output.display())))?;
    let mut writer = CbgWriter::new(Counting { inner: BufWriter::new(file), bytes: 0 }, codec)?;
    let mut number = 0u64;
    let mut read_before = 0;
    for path in inputs {
        #[cfg(feature = "arrow")]
        if crate::rows::is_parquet(path) {
            let run = (&mut writer, &mut number, &mut s);
            read_before +=
                pack_parquet(path, (codec, options.threads), run, (progress, read_before), err)?;
            continue;
        }
        let Some(mut peeked) = open_pgn(path, err)? else {
            s.failed_inputs += 1;
            continue;
        };
        let (read, decompressed) = (peeked.read.clone(), peeked.decompressed.clone());
        let done = |end| Done { stored: read.get(), read: decompressed.load(Relaxed), done: end };
        // Reading and replaying runs on the workers; coding and writing on this thread, in
        // input order, so the file is the same for any thread count.
        par_chunks(
            peeked.input.by_ref(),
            &fitted(options, path),
            |reader| code_chunk(reader, codec),
            // Games are numbered here, in input order: the games before a chunk are not needed.
            |_, chunk: CodedChunk| {
                for game in chunk.games {
                    number += 1;
                    write_coded(&mut writer, game, number, &mut s, path, err)?;
                }
                if let Some((offset, e)) = &chunk.read_error {
                    read_error(err, path, *offset, e)?;
                    s.failed_inputs += 1;
                }
                progress.set(read_before, done(chunk.end), number);
                Ok::<_, io::Error>(())
            },
        )?;
        read_before += read.get();
    }
    let counting = writer.finish()?;
    drop(counting.inner.into_inner().map_err(|e| e.into_error())?);
    if s.games > 0 || (s.failed == 0 && s.failed_inputs == 0) {
        pending.commit()?;
        s.total_bytes = counting.bytes;
    } else {
        // No file of no games for a run that failed; say so, and that a file already there
        // is not this run's.
        let kept = if output.exists() { " (the file there is left as it was)" } else { "" };
        writeln!(err, "chessbits: no game packed, nothing written to {}{kept}", output.display())?;
    }
    if stats {
        writeln!(out, "{}", s.json())?;
    }
    out.flush()?;
    Ok(s)
}

/// Packs a lichess Parquet file row by row ([`crate::rows`]): each batch of rows read and
/// coded on a worker, written here in file order, its games numbered after `number`.
/// Returns the file's size.
#[cfg(feature = "arrow")]
fn pack_parquet<W: Write>(
    path: &Path,
    (codec, threads): (MoveCodec, usize),
    (writer, number, s): (&mut CbgWriter<W>, &mut u64, &mut PackStats),
    (progress, read_before): (&mut Progress, u64),
    err: &mut impl Write,
) -> io::Result<u64> {
    let stopped = crate::rows::par_rows(
        path,
        threads,
        move |batch, reader| code_games(&mut batch.games(reader), codec, 0),
        |_, chunk: CodedChunk, done| {
            for game in chunk.games {
                *number += 1;
                write_coded(writer, game, *number, s, path, err)?;
            }
            progress.set(read_before, done, *number);
            Ok(())
        },
    )?;
    s.failed_inputs += u64::from(crate::rows::stopped(path, stopped, err)?);
    Ok(std::fs::metadata(path).map_or(0, |m| m.len()))
}

/// Writes one game as `--to` asks.
fn write_game(
    record: &GameRecord,
    to: To,
    line: &mut String,
    out: &mut impl Write,
) -> io::Result<()> {
    match to {
        To::Uci => {
            let mut game = Game::new(record.start);
            for &m in &record.moves {
                // The moves decoded legal (a null move not in check): playing cannot fail.
                let _ = if m.is_null() { game.play_null().is_ok() } else { game.play(m).is_ok() };
            }
            let replayed = ReplayedGame {
                game,
                chess960: record.start.castling_mode() == CastlingMode::Chess960,
                result: record.result,
            };
            uci_line(&replayed, line);
            writeln!(out, "{}\t{line}", record.number)
        }
        To::Pgn => writeln!(out, "{}", record.to_pgn()),
        // The classic move codes as `pgn --to moves:CODE` writes them.
        To::Moves(code) => {
            let mut game = Game::new(record.start);
            for &m in &record.moves {
                // The moves decoded legal (a null move not in check): playing cannot fail.
                let _ = if m.is_null() { game.play_null().is_ok() } else { game.play(m).is_ok() };
            }
            match chessbits_codec::classic::game::encode_moves(&game, code) {
                Ok(bits) => {
                    writeln!(
                        out,
                        "{}\t{}\t{}\t{bits}",
                        record.number,
                        game.moves().len(),
                        bits.len()
                    )
                }
                Err(e) => writeln!(out, "{}\terror\t{e}", record.number),
            }
        }
    }
}

/// An item of a `.cbg` file, in file order: a game record, a game that does not read (its
/// record's frame is intact: reading goes on), an index record that does not match the games
/// (the file's error, no game's: reading goes on), or the file's own error, which ends
/// reading (it is no game's: a cut file, a broken frame).
pub(crate) enum Item {
    Game(RawGame),
    Bad(CbgError),
    Index(CbgError),
    End(CbgError),
}

/// The records of `reader` in groups of `size` (the last one shorter), read and checked but not
/// decoded: the work units of `unpack` and `export` over a `.cbg` file.
pub(crate) fn raw_groups<R: Read>(
    mut reader: CbgReader<R>,
    size: usize,
) -> impl Iterator<Item = Vec<Item>> {
    std::iter::from_fn(move || {
        let group: Vec<_> = std::iter::from_fn(|| {
            reader.next_raw().map(|raw| match raw {
                Ok(raw) => Item::Game(raw),
                Err(e) if reader.is_done() => Item::End(e),
                Err(e) if e.kind.is_index() => Item::Index(e),
                Err(e) => Item::Bad(e),
            })
        })
        .take(size)
        .collect();
        (!group.is_empty()).then_some(group)
    })
}

/// Reports the file's own error (not a game's): once, on stderr, with the byte.
pub(crate) fn file_error(path: &Path, e: &CbgError, err: &mut impl Write) -> io::Result<()> {
    writeln!(err, "chessbits: {}: byte {}: {}", path.display(), e.at.byte, e.kind)
}

/// After damage that stopped the reading of `path` (a record's frame, whose length cannot be
/// trusted): how many of the games its trailer counts were not read, when the trailer, at the
/// end of the file past the damage, still reads. A cut file has none, and is told nothing more.
fn tell_unread(path: &Path, read: u64, err: &mut impl Write) -> io::Result<()> {
    let Ok(file) = File::open(path) else { return Ok(()) };
    let Ok(cbg) = CbgFile::open(BufReader::new(file)) else { return Ok(()) };
    if cbg.len() > read {
        let (games, lost) = (cbg.len(), cbg.len() - read);
        writeln!(
            err,
            "chessbits: {}: {lost} of the {games} games its trailer counts not read",
            path.display()
        )?;
    }
    Ok(())
}

/// Game records of a `.cbg` file handed to an unpacking worker at a time.
const UNPACK_GROUP: usize = 256;

/// One game of a group as a worker leaves it, with the end of its text in the group's text.
enum Row {
    /// A game that decoded: its place in the file and its number in the packed input.
    Good {
        index: u64,
        number: u64,
    },
    Bad(CbgError),
    /// An index record that does not match the games: reported as the file's, no row.
    Index(CbgError),
    End(CbgError),
}

/// What a worker makes of a group of records: the text of the games, and each game with
/// the offset in the text where its text ends.
type Unpacked = io::Result<(Vec<u8>, Vec<(usize, Row)>)>;

/// Numbers the games that do not read: as the good games are numbered, by their number in
/// the packed input. A record keeps its game's number as the count of games skipped before it
/// (broken when packed), which never falls from one game to the next: a bad record's number
/// is its place plus that count, known exactly when the good games on each side of it have
/// the same count, and bounded by them otherwise.
#[derive(Default)]
struct Numbering {
    /// Games skipped when packing, before the last good game.
    skipped: u64,
    /// Bad games waiting for the next good one, which bounds their numbers.
    waiting: Vec<CbgError>,
}

impl Numbering {
    /// Writes the rows of the waiting bad games, now that the games skipped before the next
    /// good game (`None`: there is none) are known.
    fn flush(
        &mut self,
        next: Option<u64>,
        (path, to): (&Path, To),
        out: &mut impl Write,
        err: &mut impl Write,
    ) -> io::Result<()> {
        for e in self.waiting.drain(..) {
            let low = e.at.game + self.skipped;
            let uncertain = match next {
                Some(skipped) if skipped == self.skipped => String::new(),
                Some(skipped) => format!(" (its number is {low} to {})", e.at.game + skipped),
                None => format!(" (its number is {low} or more)"),
            };
            if to == To::Uci {
                writeln!(out, "{low}\terror\t{}{uncertain}", e.kind)?;
            }
            writeln!(
                err,
                "chessbits: {}: game {low}{uncertain}, byte {}: {}",
                path.display(),
                e.at.byte,
                e.kind
            )?;
        }
        Ok(())
    }
}

/// What `unpack` counted.
#[derive(Default)]
pub struct UnpackStats {
    /// Games written.
    pub games: u64,
    /// Games that do not read.
    pub failed: u64,
    /// Whether the file could not be read, or not to its end.
    pub failed_input: bool,
}

/// Runs `unpack`. The whole file is read as `export` reads it: records in order on one
/// thread, decoded and written out as text on `options.threads` workers, the text written
/// here in file order (the same bytes for any thread count). Every row is numbered by the
/// game's number in the packed input, as `chessbits pgn` numbered it (see [`Numbering`]);
/// `--game N` takes that number.
pub fn unpack(
    path: &Path,
    (to, game, options): (To, Option<u64>, &Parallel),
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<UnpackStats> {
    let mut stats = UnpackStats::default();
    let file = match File::open(path) {
        Ok(file) => file,
        Err(e) => {
            writeln!(err, "chessbits: {}: {e}", path.display())?;
            stats.failed_input = true;
            return Ok(stats);
        }
    };
    match game {
        Some(n) => unpack_one(path, BufReader::new(file), (to, n), &mut stats, (out, err))?,
        None => unpack_all(path, file, (to, options), &mut stats, (out, err))?,
    }
    out.flush()?;
    Ok(stats)
}

/// `unpack --game N`: game `N` (its number in the packed input), through the index.
fn unpack_one(
    path: &Path,
    file: BufReader<File>,
    (to, n): (To, u64),
    stats: &mut UnpackStats,
    (out, err): (&mut impl Write, &mut impl Write),
) -> io::Result<()> {
    match CbgFile::open(file).and_then(|mut f| f.game_numbered(n)) {
        Ok(record) => {
            write_game(&record, to, &mut String::new(), out)?;
            stats.games += 1;
        }
        Err(e) => {
            stats.failed += 1;
            if to == To::Uci {
                writeln!(out, "{n}\terror\t{}", e.kind)?;
            }
            writeln!(err, "chessbits: {}: game {n}: {}", path.display(), e.kind)?;
        }
    }
    Ok(())
}

/// `unpack` of the whole file: records read in order here, decoded on the workers, written
/// in file order with every row numbered ([`Numbering`]).
fn unpack_all(
    path: &Path,
    file: File,
    (to, options): (To, &Parallel),
    stats: &mut UnpackStats,
    (out, err): (&mut impl Write, &mut impl Write),
) -> io::Result<()> {
    let reader = match CbgReader::new(BufReader::with_capacity(1 << 16, file)) {
        Ok(reader) => reader,
        Err(e) => {
            file_error(path, &e, err)?;
            stats.failed_input = true;
            return Ok(());
        }
    };
    let groups = move || raw_groups(reader, UNPACK_GROUP);
    let work = |group: Vec<Item>| -> Unpacked {
        let (mut text, mut rows, mut line) = (Vec::new(), Vec::new(), String::new());
        for item in group {
            let row = match item {
                Item::Game(raw) => match raw.decode() {
                    Ok(record) => {
                        write_game(&record, to, &mut line, &mut text)?;
                        Row::Good { index: raw.index(), number: record.number }
                    }
                    Err(e) => Row::Bad(e),
                },
                Item::Bad(e) => Row::Bad(e),
                Item::Index(e) => Row::Index(e),
                Item::End(e) => Row::End(e),
            };
            rows.push((text.len(), row));
        }
        Ok((text, rows))
    };
    let mut numbering = Numbering::default();
    par_map(options.threads, groups, work, |unpacked: Unpacked| {
        let (text, rows) = unpacked?;
        let mut from = 0;
        for (end, row) in rows {
            match row {
                Row::Good { index, number } => {
                    let skipped = number.saturating_sub(index);
                    numbering.flush(Some(skipped), (path, to), out, err)?;
                    numbering.skipped = skipped;
                    stats.games += 1;
                }
                Row::Bad(e) => {
                    stats.failed += 1;
                    numbering.waiting.push(e);
                }
                Row::Index(e) => {
                    file_error(path, &e, err)?;
                    stats.failed_input = true;
                }
                Row::End(e) => {
                    numbering.flush(None, (path, to), out, err)?;
                    file_error(path, &e, err)?;
                    tell_unread(path, stats.games + stats.failed, err)?;
                    stats.failed_input = true;
                }
            }
            out.write_all(text.get(from..end).unwrap_or_default())?;
            from = end;
        }
        Ok::<_, io::Error>(())
    })?;
    numbering.flush(None, (path, to), out, err)
}
