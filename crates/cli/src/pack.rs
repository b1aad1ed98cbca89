//! `chessbits pack` and `chessbits unpack`: PGN files to a `.cbg` game file and back.
//!
//! - `pack FILE.pgn... -o OUT.cbg [--codec model|index] [--stats]`: every game that reads
//!   (as `chessbits pgn` reads it) is stored: tags, start position, mainline, clocks and
//!   evaluations; other comments, glyphs and variations are dropped. Broken games are
//!   reported on stderr as `chessbits pgn` reports them, and make the exit status 1.
//!   `--stats` prints one JSON object to stdout:
//!   `{"games":G,"plies":P,"move_bits":B,"total_bytes":T,"dropped_comments":C,"dropped_variations":V,"failed_games":F}`,
//!   where `games` counts the games stored, `move_bits` is 8 × the bytes of their coded
//!   mainlines, `total_bytes` the size of the file, `dropped_comments` the comments with
//!   text besides clocks and evaluations, comments before the first move and glyphs, and
//!   `dropped_variations` the variations (each with all it holds).
//! - `unpack FILE.cbg --to uci|pgn [--game N]`: `--to uci` prints for each game exactly the
//!   line `chessbits pgn --to uci` prints for it (numbered as in the packed input); `--to pgn`
//!   the export format with tags, clocks and evaluations. `--game N` prints the `N`-th game
//!   of the file only (from 1), read through the index. A game that does not read prints
//!   `<N>\terror\t<message>` (`N` its place in the file) with `--to uci`, and the message
//!   goes to stderr; the exit status is then 1.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use chessbits_codec::cbg::{
    CbgError, CbgFile, CbgReader, CbgWriter, CodedGame, GameBuilder, GameRecord, RawGame,
};
use chessbits_codec::move_codec::{MoveCodec, MoveEncoder};
use chessbits_move::CastlingMode;
use chessbits_movegen::Game;
use chessbits_pgn::{par_chunks, par_map, Chunk, Parallel, ReplayedGame};
use chessbits_state::Position;

use crate::pgn::{fitted, open, total_size, uci_line, To};
use crate::progress::Progress;

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
    games: u64,
    plies: u64,
    move_bytes: u64,
    total_bytes: u64,
    dropped_comments: u64,
    dropped_variations: u64,
    /// Broken games (and unreadable inputs).
    pub failed: u64,
}

impl PackStats {
    /// The `--stats` JSON object.
    fn json(&self) -> String {
        format!(
            "{{\"games\":{},\"plies\":{},\"move_bits\":{},\"total_bytes\":{},\"dropped_comments\":{},\"dropped_variations\":{},\"failed_games\":{}}}",
            self.games,
            self.plies,
            self.move_bytes * 8,
            self.total_bytes,
            self.dropped_comments,
            self.dropped_variations,
            self.failed
        )
    }
}

/// A game of a chunk as a worker leaves it: its number in the file, coded or why not, and
/// the comments and variations it dropped.
type ChunkGame = (u64, Result<CodedGame, Broken>, (u64, u64));

/// Reads and codes every game of a chunk (on a worker).
fn code_chunk(mut chunk: Chunk, codec: MoveCodec) -> Vec<ChunkGame> {
    let mut reader = chunk.reader();
    let mut builder = GameBuilder::default();
    let mut encoder = MoveEncoder::new(codec, &Position::new());
    let mut games = Vec::new();
    loop {
        let dropped = (builder.dropped_comments, builder.dropped_variations);
        let Some(result) = reader.read_game(&mut builder) else { break };
        // What a broken game dropped is not counted.
        let dropped =
            (builder.dropped_comments - dropped.0, builder.dropped_variations - dropped.1);
        let coded = match result {
            Ok(game) => CodedGame::with_encoder(game, codec, &mut encoder)
                .map_err(|e| Broken::Coding(e.to_string())),
            Err(e) => {
                Err(Broken::Reading(format!("line {}, column {}: {}", e.line, e.column, e.kind)))
            }
        };
        games.push((reader.games(), coded, dropped));
    }
    games
}

/// Writes one game a worker coded as game `number` of the output, counting it in `s`, or
/// reports why it is not packed.
fn write_coded<W: Write>(
    writer: &mut CbgWriter<W>,
    (in_file, coded, dropped): ChunkGame,
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
                .map_err(|e| e.to_string())
        }
        Err(Broken::Coding(message)) => Err(message),
        Err(Broken::Reading(message)) => {
            Err(format!("game {number} (game {in_file} of the file), {message}"))
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

/// Why a game is not packed: it did not read, or its mainline does not code.
enum Broken {
    Reading(String),
    Coding(String),
}

/// Runs `pack`: returns the number of failures.
pub fn pack(
    inputs: &[PathBuf],
    output: &Path,
    codec: Codec,
    stats: bool,
    options: &Parallel,
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<u64> {
    let codec = match codec {
        Codec::Model => MoveCodec::Model,
        Codec::Index => MoveCodec::Index,
    };
    let file = File::create(output)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", output.display())))?;
    let mut writer = CbgWriter::new(Counting { inner: BufWriter::new(file), bytes: 0 }, codec)?;
    let mut s = PackStats::default();
    let mut number = 0u64;
    let mut progress = Progress::new(total_size(inputs));
    let mut read_before = 0;
    for path in inputs {
        let input = match open(path) {
            Ok(input) => input,
            Err(e) => {
                writeln!(err, "chessbits: {}: {e}", path.display())?;
                s.failed += 1;
                continue;
            }
        };
        let read = input.read_count();
        // Reading and replaying runs on the workers; coding and writing on this thread, in
        // input order, so the file is the same for any thread count.
        par_chunks(
            input,
            &fitted(options, path),
            |chunk| code_chunk(chunk, codec),
            |games| {
                for game in games {
                    number += 1;
                    write_coded(&mut writer, game, number, &mut s, path, err)?;
                }
                progress.set(read_before + read.get(), None, number);
                Ok::<_, io::Error>(())
            },
        )?;
        read_before += read.get();
    }
    progress.finish();
    let counting = writer.finish()?;
    s.total_bytes = counting.bytes;
    if stats {
        writeln!(out, "{}", s.json())?;
    }
    out.flush()?;
    Ok(s.failed)
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
                // The moves decoded legal: playing them cannot fail.
                let _ = game.play(m);
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
                // The moves decoded legal: playing them cannot fail.
                let _ = game.play(m);
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

fn report(
    path: &Path,
    e: &CbgError,
    to: To,
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<()> {
    if to == To::Uci {
        writeln!(out, "{}\terror\t{}", e.at.game, e.kind)?;
    }
    writeln!(err, "chessbits: {}: {e}", path.display())
}

/// The records of `reader` in groups of `size` (the last one shorter), read and checked but not
/// decoded: the work units of `unpack` and `export` over a `.cbg` file.
pub(crate) fn raw_groups<R: Read>(
    mut reader: CbgReader<R>,
    size: usize,
) -> impl Iterator<Item = Vec<Result<RawGame, CbgError>>> {
    std::iter::from_fn(move || {
        let group: Vec<_> = std::iter::from_fn(|| reader.next_raw()).take(size).collect();
        (!group.is_empty()).then_some(group)
    })
}

/// Game records of a `.cbg` file handed to an unpacking worker at a time.
const UNPACK_GROUP: usize = 256;

/// What a worker makes of a group of records: the text of the games, and the errors with
/// the offset in the text where each belongs.
type Unpacked = io::Result<(Vec<u8>, Vec<(usize, CbgError)>)>;

/// Runs `unpack`: returns the number of failures. The whole file is read as `export` reads
/// it: records in order on one thread, decoded and written out as text on `options.threads`
/// workers, the text written here in file order (the same bytes for any thread count).
pub fn unpack(
    path: &Path,
    (to, game, options): (To, Option<u64>, &Parallel),
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<u64> {
    let file = File::open(path)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
    let mut line = String::new();
    let mut failed = 0;
    match game {
        Some(n) => {
            let read = CbgFile::open(BufReader::new(file)).and_then(|mut f| f.game(n));
            match read {
                Ok(record) => write_game(&record, to, &mut line, out)?,
                Err(e) => {
                    failed += 1;
                    report(path, &e, to, out, err)?;
                }
            }
        }
        None => match CbgReader::new(BufReader::with_capacity(1 << 16, file)) {
            Ok(reader) => {
                let groups = move || raw_groups(reader, UNPACK_GROUP);
                let work = |group: Vec<Result<RawGame, CbgError>>| -> Unpacked {
                    let (mut text, mut errors, mut line) = (Vec::new(), Vec::new(), String::new());
                    for raw in group {
                        match raw.and_then(|raw| raw.decode()) {
                            Ok(record) => write_game(&record, to, &mut line, &mut text)?,
                            Err(e) => errors.push((text.len(), e)),
                        }
                    }
                    Ok((text, errors))
                };
                par_map(options.threads, groups, work, |unpacked: Unpacked| {
                    let (text, errors) = unpacked?;
                    let mut from = 0;
                    for (at, e) in &errors {
                        out.write_all(text.get(from..*at).unwrap_or_default())?;
                        from = *at;
                        failed += 1;
                        report(path, e, to, out, err)?;
                    }
                    out.write_all(text.get(from..).unwrap_or_default())
                })?;
            }
            Err(e) => {
                failed += 1;
                report(path, &e, to, out, err)?;
            }
        },
    }
    out.flush()?;
    Ok(failed)
}
