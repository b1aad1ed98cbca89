//! `chessbits pgn`: PGN files to one line per game (`--to uci`) or to the PGN export format
//! (`--to pgn`).
//!
//! Games are numbered from 1 across all inputs, in input order, broken games included. The
//! output contracts are fixed (other programs parse them):
//!
//! - `--to uci`: `<number>\t<final FEN>\t<UCI moves of the mainline, space-separated>`; the FEN
//!   has X-FEN castling and the en passant square only when a capture is legal, and Chess960
//!   games (a FEN or `Variant` tag saying so) write castling as king takes rook; a null move
//!   (`--` in the PGN) is `0000`. A game of a variant chessbits does not play (`[Variant
//!   "Crazyhouse"]`, ...) is a broken game: `variant "Crazyhouse" is not supported`. A broken game
//!   prints `<number>\terror\t<message>`, and the message goes to stderr too, with the file,
//!   the game number, line and column. A read error (a broken compressed stream) is no game:
//!   it is reported once on stderr, with the file and the byte, after every game before it,
//!   and makes the exit status 1; so is an input that cannot be opened or does not look like
//!   PGN.
//! - `--to pgn`: each game in the PGN export format (variations, comments and NAGs kept); a
//!   broken game is left out and reported on stderr.
//! - `--to moves:CODE`, CODE one of `12`, `san-like`, `san-like-7-13`: per game
//!   `<number>\t<plies>\t<bits>\t<hex>`, the mainline in that move code
//!   (`chessbits_codec::classic::moves`), from the game's start position; broken games as for
//!   `--to uci`, and a game with a null move, which no move code holds, as
//!   `<number>\terror\tply <N>: a null move cannot be coded` (`.cbg` and Parquet hold it).

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Mutex;

use chessbits_codec::classic::game::encode_moves;
use chessbits_codec::classic::moves::MoveCode;
use chessbits_notation::fen::{fen_of, CastlingNotation, EnPassantMode, FenOptions};
use chessbits_pgn::{
    par_chunks, ChunkReader, Parallel, PgnError, PgnReader, Replay, ReplayedGame, TreeBuilder,
    Visitor,
};

use crate::files::{as_read_error, game_error, not_pgn, peek, read_error, Peeked};
use crate::progress::{Done, Progress};

/// What `chessbits pgn` writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum To {
    /// One line per game: number, final FEN, UCI moves of the mainline.
    Uci,
    /// The games in the PGN export format.
    Pgn,
    /// One line per game: number, plies, bits and hex of the mainline in a move code.
    Moves(MoveCode),
}

impl FromStr for To {
    type Err = String;

    fn from_str(s: &str) -> Result<To, String> {
        match s {
            "uci" => Ok(To::Uci),
            "pgn" => Ok(To::Pgn),
            _ => match s.strip_prefix("moves:") {
                Some(code) => code.parse().map(To::Moves).map_err(|e| format!("{e}")),
                None => Err(format!(
                    "unknown output {s:?}: expected uci, pgn or moves:CODE (CODE one of 12, \
                     san-like, san-like-7-13)"
                )),
            },
        }
    }
}

/// The counts a run ends with.
#[derive(Default)]
pub struct Summary {
    /// Games read, broken ones included.
    pub games: u64,
    /// Broken games.
    pub failed: u64,
    /// Inputs that could not be read, or not to their end: missing files, files that are not
    /// PGN, read errors. Not games: no game count includes them.
    pub failed_inputs: u64,
}

impl Summary {
    /// Whether anything failed (the exit status is then 1).
    pub fn any_failed(&self) -> bool {
        self.failed > 0 || self.failed_inputs > 0
    }
}

/// An input, or standard input for `-`: decompressed if it is compressed (zstd, gzip, bzip2:
/// recognised by its first bytes) and looked at. `None`, once reported on `err`, when it
/// cannot be opened or is not PGN.
pub(crate) fn open_pgn(path: &Path, err: &mut impl Write) -> io::Result<Option<Peeked>> {
    match peek(path) {
        Ok(peeked) => match not_pgn(peeked.kind) {
            None => Ok(Some(peeked)),
            Some(why) => {
                writeln!(err, "chessbits: {} {why}", path.display())?;
                Ok(None)
            }
        },
        Err(e) => {
            writeln!(err, "chessbits: {}: {e}", path.display())?;
            Ok(None)
        }
    }
}

/// `options` fitted to the file at `path` ([`Parallel::fit_to`]): a small file is cut into
/// chunks small enough for every worker to have some. Standard input keeps `options`.
pub(crate) fn fitted(options: &Parallel, path: &Path) -> Parallel {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() && path.as_os_str() != "-" => options.fit_to(meta.len()),
        _ => *options,
    }
}

/// The total size of the inputs, if every one is a file whose size is known.
pub(crate) fn total_size(paths: &[PathBuf]) -> Option<u64> {
    paths.iter().map(|p| std::fs::metadata(p).ok().filter(|m| m.is_file()).map(|m| m.len())).sum()
}

/// The final FEN as `--to uci` writes it.
const FEN_OPTIONS: FenOptions =
    FenOptions { castling: CastlingNotation::XFen, en_passant: EnPassantMode::Legal };

/// A game's number in its input (from 1) and what the reader made of it.
type Numbered<V> = (u64, Result<<V as Visitor>::Output, PgnError<<V as Visitor>::Error>>);

/// A reader of games: the streaming reader of a whole input, or the reader of one chunk.
pub(crate) trait ReadGames {
    /// The next game and its number in the input (from 1).
    fn next_game<V: Visitor>(&mut self, visitor: &mut V) -> Option<Numbered<V>>;

    /// The input offset where the last game read starts.
    fn position(&self) -> u64;
}

impl<R: Read> ReadGames for PgnReader<R> {
    fn next_game<V: Visitor>(&mut self, visitor: &mut V) -> Option<Numbered<V>> {
        let game = self.read_game(visitor)?;
        Some((self.games(), game))
    }

    fn position(&self) -> u64 {
        self.game_start()
    }
}

impl ReadGames for ChunkReader<'_> {
    fn next_game<V: Visitor>(&mut self, visitor: &mut V) -> Option<Numbered<V>> {
        let game = self.read_game(visitor)?;
        Some((self.games(), game))
    }

    fn position(&self) -> u64 {
        self.game_start()
    }
}

/// What one stretch of an input (all of it, or a chunk) gave.
#[derive(Default)]
struct Piece {
    out: Vec<u8>,
    err: Vec<u8>,
    games: u64,
    failed: u64,
    /// The input offset after the stretch's last game.
    end: u64,
    /// The read error that ended the input in this stretch, if one did: reported once, after
    /// the games before it, and no game.
    read_error: bool,
}

/// Runs the command over `paths` on `options.threads` threads, writing to `out` and reporting broken
/// games on `err`. The output is the same for every thread count.
pub fn run(
    paths: &[PathBuf],
    to: To,
    options: &Parallel,
    (out, progress): (&mut impl Write, &mut Progress),
    err: &mut impl Write,
) -> io::Result<Summary> {
    let mut summary = Summary::default();
    let mut read_before = 0;
    for path in paths {
        // A missing file, or one that is not PGN, is bad input, not a reason to stop
        // reading the others.
        let Some(peeked) = open_pgn(path, err)? else {
            summary.failed_inputs += 1;
            continue;
        };
        let before = summary.games;
        let (read, decompressed) = (peeked.read.clone(), peeked.decompressed.clone());
        let done = |end| Done { stored: read.get(), read: decompressed.load(Relaxed), done: end };
        // Writes what a piece holds and empties it.
        let mut sink = |piece: &mut Piece| -> io::Result<()> {
            out.write_all(&piece.out)?;
            err.write_all(&piece.err)?;
            summary.games += piece.games;
            summary.failed += piece.failed;
            summary.failed_inputs += u64::from(piece.read_error);
            progress.set(read_before, done(piece.end), summary.games);
            piece.out.clear();
            piece.err.clear();
            (piece.games, piece.failed, piece.read_error) = (0, 0, false);
            Ok(())
        };
        let input = peeked.input;
        if options.threads <= 1 {
            // The serial path: one reader, writing straight to the output.
            let mut reader = PgnReader::new(input);
            let mut piece = Piece::default();
            convert(&mut reader, to, before, path, &mut piece, &mut sink)?;
            sink(&mut piece)?;
        } else {
            // Output buffers go back to the workers once written: a fresh megabyte a chunk
            // costs page faults.
            let spare: Mutex<Vec<Vec<u8>>> = Mutex::new(Vec::new());
            par_chunks(
                input,
                &fitted(options, path),
                |reader| {
                    let end = reader.end();
                    let out = spare.lock().ok().and_then(|mut s| s.pop()).unwrap_or_default();
                    let mut piece = Piece { out, ..Piece::default() };
                    // Writing into memory cannot fail.
                    let _ = convert(reader, to, before, path, &mut piece, |_| Ok(()));
                    if !piece.read_error {
                        piece.end = end;
                    }
                    piece
                },
                |mut piece: Piece| {
                    sink(&mut piece)?;
                    if let Ok(mut spare) = spare.lock() {
                        spare.push(piece.out);
                    }
                    Ok::<_, io::Error>(())
                },
            )?;
        }
        read_before += read.get();
    }
    out.flush()?;
    Ok(summary)
}

/// How many bytes of output the serial path gathers before writing them.
const FLUSH_AT: usize = 1 << 16;

/// Converts every game of `reader` into `piece`, handing it to `flush` whenever it holds
/// [`FLUSH_AT`] bytes; games are numbered from `before + 1`.
fn convert(
    reader: &mut impl ReadGames,
    to: To,
    before: u64,
    path: &Path,
    piece: &mut Piece,
    mut flush: impl FnMut(&mut Piece) -> io::Result<()>,
) -> io::Result<()> {
    let mut line = String::new();
    match to {
        To::Uci => each(
            reader,
            &mut Replay::default(),
            before,
            path,
            to,
            piece,
            &mut flush,
            |n, game, out| {
                uci_line(&game, &mut line);
                writeln!(out, "{n}\t{line}")
            },
        ),
        To::Moves(code) => each(
            reader,
            &mut Replay::default(),
            before,
            path,
            to,
            piece,
            &mut flush,
            |n, replayed, out| match encode_moves(&replayed.game, code) {
                Ok(bits) => {
                    writeln!(out, "{n}\t{}\t{}\t{bits}", replayed.game.moves().len(), bits.len())
                }
                // A replayed game's moves are legal; a null move has no code.
                Err(e) => writeln!(out, "{n}\terror\t{e}"),
            },
        ),
        // The export format ends each game with a blank line.
        To::Pgn => each(
            reader,
            &mut TreeBuilder::default(),
            before,
            path,
            to,
            piece,
            &mut flush,
            |_, game, out| writeln!(out, "{game}"),
        ),
    }
}

/// Reads every game of `reader` with `visitor`, writing each good one with `write` and
/// reporting each broken one.
#[allow(clippy::too_many_arguments, reason = "one call site per output kind")]
fn each<V: Visitor>(
    reader: &mut impl ReadGames,
    visitor: &mut V,
    before: u64,
    path: &Path,
    to: To,
    piece: &mut Piece,
    mut flush: impl FnMut(&mut Piece) -> io::Result<()>,
    mut write: impl FnMut(u64, V::Output, &mut Vec<u8>) -> io::Result<()>,
) -> io::Result<()>
where
    V::Error: std::fmt::Display,
{
    while let Some((n, result)) = reader.next_game(visitor) {
        let number = before + n;
        match result {
            Ok(game) => write(number, game, &mut piece.out)?,
            Err(e) => {
                if let Some(io) = as_read_error(&e) {
                    // Not a game: the input ends here.
                    read_error(&mut piece.err, path, e.offset, io)?;
                    piece.read_error = true;
                    piece.end = e.offset;
                    break;
                }
                piece.failed += 1;
                report(path, number, &e, to, &mut piece.out, &mut piece.err)?;
            }
        }
        piece.games += 1;
        piece.end = reader.position();
        if piece.out.len() >= FLUSH_AT {
            flush(piece)?;
        }
    }
    Ok(())
}

/// `<final FEN>\t<uci> <uci> ...` for a replayed game (a null move as `0000`).
pub(crate) fn uci_line(replayed: &ReplayedGame, line: &mut String) {
    line.clear();
    let game = &replayed.game;
    line.push_str(&fen_of(game.position(), FEN_OPTIONS));
    line.push('\t');
    let start = game.start();
    for (i, &m) in game.moves().iter().enumerate() {
        if i > 0 {
            line.push(' ');
        }
        start.uci(m).push_to(line);
    }
}

/// Reports a broken game: `<number>\terror\t<message>` on stdout for `--to uci`, and the
/// message with file, game, line and column on stderr.
fn report<E: std::fmt::Display>(
    path: &Path,
    number: u64,
    e: &PgnError<E>,
    to: To,
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<()> {
    if to != To::Pgn {
        writeln!(out, "{number}\terror\t{}", e.kind)?;
    }
    game_error(err, path, number, e)
}
