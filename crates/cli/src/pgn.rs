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
use chessbits_codec::classic::moves::MoveFormat;
use chessbits_notation::fen::{fen_of, CastlingNotation, EnPassantMode, FenOptions};
use chessbits_pgn::{
    par_chunks, ChunkReader, ErrorPlace, GameSource, Parallel, PgnErrorKind, PgnReader, Replay,
    ReplayedGame, TreeBuilder, Visitor,
};

use crate::files::{game_error, peek, read_error, Peeked};
use crate::progress::{Done, Progress};

/// What `chessbits pgn` writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum To {
    /// One line per game: number, final FEN, UCI moves of the mainline.
    Uci,
    /// The games in the PGN export format.
    Pgn,
    /// One line per game: number, plies, bits and hex of the mainline in a move code.
    Moves(MoveFormat),
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
        Ok(peeked) => match peeked.kind.not_pgn() {
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

/// A reader of games ([`GameSource`]) whose place in its input is known: the streaming reader
/// of a whole input, the reader of one chunk, or a batch of a Parquet file's rows.
pub(crate) trait ReadGames: GameSource {
    /// Where the reading stands in the input: the byte offset where the last game read starts
    /// (for a batch of rows, the rows read so far).
    fn position(&self) -> u64;
}

impl<R: Read> ReadGames for PgnReader<R> {
    fn position(&self) -> u64 {
        self.game_start()
    }
}

impl ReadGames for ChunkReader<'_> {
    fn position(&self) -> u64 {
        self.game_start()
    }
}

#[cfg(feature = "arrow")]
impl ReadGames for chessbits_arrow::lichess::RowGames<'_> {
    fn position(&self) -> u64 {
        self.games_read()
    }
}

/// What one stretch of an input (all of it, or a chunk) gave, with its games numbered as
/// the reader numbered them: a chunk's reader from the chunk's start, the serial reader from
/// the input's. The sink adds the games before (`Stretch::write`), so the workers need not
/// know how many there were.
#[derive(Default)]
struct Stretch {
    out: NumberedText,
    /// Broken games, for stderr: number, where, message.
    broken: Vec<(u64, ErrorPlace, String)>,
    games: u64,
    /// The input offset after the stretch's last game.
    end: u64,
    /// The read error that ended the input in this stretch, if one did (with the offset where
    /// reading stopped): reported once, after the games before it, and no game.
    read_error: Option<(u64, io::Error)>,
}

impl Stretch {
    /// Writes the piece, its games numbered after `before` games, and empties it.
    fn write(
        &mut self,
        before: u64,
        path: &Path,
        out: &mut impl Write,
        err: &mut impl Write,
    ) -> io::Result<()> {
        self.out.write_to(out, before)?;
        for (n, place, message) in self.broken.drain(..) {
            game_error(err, path, before + n, place, &message)?;
        }
        if let Some((offset, e)) = self.read_error.take() {
            read_error(err, path, offset, &e)?;
        }
        self.out.clear();
        self.games = 0;
        Ok(())
    }
}

/// Output text with a hole wherever a game's number goes, filled in when it is written: a
/// worker writes its chunk's lines before the games ahead of the chunk are counted.
#[derive(Default)]
struct NumberedText {
    bytes: Vec<u8>,
    /// Where a number goes in `bytes`, and the number counted from the stretch's start.
    holes: Vec<(usize, u64)>,
}

impl NumberedText {
    /// Game `n` (counted from the stretch's start) goes here.
    fn number(&mut self, n: u64) {
        self.holes.push((self.bytes.len(), n));
    }

    /// The bytes, each hole filled with its number plus `before`.
    fn write_to(&self, out: &mut impl Write, before: u64) -> io::Result<()> {
        let mut text = Vec::with_capacity(self.bytes.len() + 8 * self.holes.len());
        let mut at = 0;
        for &(hole, n) in &self.holes {
            text.extend_from_slice(&self.bytes[at..hole]);
            push_decimal(&mut text, before + n);
            at = hole;
        }
        text.extend_from_slice(&self.bytes[at..]);
        out.write_all(&text)
    }

    fn clear(&mut self) {
        self.bytes.clear();
        self.holes.clear();
    }
}

impl Write for NumberedText {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Appends `n` in decimal: the sink writes a number a game, faster than `write!`.
fn push_decimal(out: &mut Vec<u8>, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
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
        #[cfg(feature = "arrow")]
        if crate::rows::is_parquet(path) {
            let run = (&mut summary, &mut *out, &mut *progress);
            read_before += run_parquet(path, (to, options.threads), run, read_before, err)?;
            continue;
        }
        // A missing file, or one that is not PGN, is bad input, not a reason to stop
        // reading the others.
        let Some(peeked) = open_pgn(path, err)? else {
            summary.failed_inputs += 1;
            continue;
        };
        let before = summary.games;
        let (read, decompressed) = (peeked.read.clone(), peeked.decompressed.clone());
        let done = |end| Done { stored: read.get(), read: decompressed.load(Relaxed), done: end };
        // Writes what a piece holds, its games numbered after `games` of this input, and
        // empties it.
        let mut sink = |games: u64, piece: &mut Stretch| -> io::Result<()> {
            summary.games += piece.games;
            summary.failed += piece.broken.len() as u64;
            summary.failed_inputs += u64::from(piece.read_error.is_some());
            let end = piece.end;
            piece.write(before + games, path, out, err)?;
            progress.set(read_before, done(end), summary.games);
            Ok(())
        };
        let input = peeked.input;
        if options.threads <= 1 {
            // The serial path: one reader, writing straight to the output; its numbers count
            // from the input's start.
            let mut reader = PgnReader::new(input);
            let mut piece = Stretch::default();
            convert(&mut reader, to, &mut piece, |piece| sink(0, piece))?;
            sink(0, &mut piece)?;
        } else {
            // Output buffers go back to the workers once written: a fresh megabyte a chunk
            // costs page faults.
            let spare: Mutex<Vec<NumberedText>> = Mutex::new(Vec::new());
            par_chunks(
                input,
                &fitted(options, path),
                |reader| {
                    let out = spare.lock().ok().and_then(|mut s| s.pop()).unwrap_or_default();
                    let mut piece = Stretch { out, ..Stretch::default() };
                    // Writing into memory cannot fail.
                    let _ = convert(reader, to, &mut piece, |_| Ok(()));
                    if piece.read_error.is_none() {
                        piece.end = reader.end();
                    }
                    piece
                },
                |games, mut piece: Stretch| {
                    sink(games, &mut piece)?;
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

/// Converts a lichess Parquet file row by row ([`crate::rows`]): each batch of rows on a
/// worker, written here in file order, its games numbered after the `summary`'s. Returns the
/// file's size.
#[cfg(feature = "arrow")]
fn run_parquet(
    path: &Path,
    (to, threads): (To, usize),
    (summary, out, progress): (&mut Summary, &mut impl Write, &mut Progress),
    read_before: u64,
    err: &mut impl Write,
) -> io::Result<u64> {
    let before = summary.games;
    let stopped = crate::rows::par_rows(
        path,
        threads,
        move |batch, reader| {
            let mut piece = Stretch::default();
            // Writing into memory cannot fail.
            let _ = convert(&mut batch.games(reader), to, &mut piece, |_| Ok(()));
            piece
        },
        |rows_before, mut piece: Stretch, done| {
            summary.games += piece.games;
            summary.failed += piece.broken.len() as u64;
            piece.write(before + rows_before, path, out, err)?;
            progress.set(read_before, done, summary.games);
            Ok(())
        },
    )?;
    summary.failed_inputs += u64::from(crate::rows::stopped(path, stopped, err)?);
    Ok(std::fs::metadata(path).map_or(0, |m| m.len()))
}

/// How many bytes of output the serial path gathers before writing them.
const FLUSH_AT: usize = 1 << 16;

/// Converts every game of `reader` into `piece`, handing it to `flush` whenever it holds
/// [`FLUSH_AT`] bytes; games are numbered from `before + 1`.
fn convert(
    reader: &mut impl ReadGames,
    to: To,
    piece: &mut Stretch,
    mut flush: impl FnMut(&mut Stretch) -> io::Result<()>,
) -> io::Result<()> {
    let mut line = String::new();
    match to {
        To::Uci => each(reader, &mut Replay::default(), to, piece, &mut flush, |n, game, out| {
            uci_line(&game, &mut line);
            out.number(n);
            writeln!(out, "\t{line}")
        }),
        To::Moves(code) => {
            each(reader, &mut Replay::default(), to, piece, &mut flush, |n, replayed, out| {
                out.number(n);
                match encode_moves(&replayed.game, code) {
                    Ok(bits) => {
                        let plies = replayed.game.moves().len();
                        writeln!(out, "\t{plies}\t{}\t{bits}", bits.len())
                    }
                    // A replayed game's moves are legal; a null move has no code.
                    Err(e) => writeln!(out, "\terror\t{e}"),
                }
            })
        }
        // The export format ends each game with a blank line.
        To::Pgn => {
            each(reader, &mut TreeBuilder::default(), to, piece, &mut flush, |_, game, out| {
                writeln!(out, "{game}")
            })
        }
    }
}

/// Reads every game of `reader` with `visitor`, writing each good one with `write` and
/// reporting each broken one.
fn each<V: Visitor>(
    reader: &mut impl ReadGames,
    visitor: &mut V,
    to: To,
    piece: &mut Stretch,
    mut flush: impl FnMut(&mut Stretch) -> io::Result<()>,
    mut write: impl FnMut(u64, V::Output, &mut NumberedText) -> io::Result<()>,
) -> io::Result<()>
where
    V::Error: std::fmt::Display,
{
    while let Some(result) = reader.next_game(visitor) {
        let n = reader.games_read();
        match result {
            Ok(game) => write(n, game, &mut piece.out)?,
            Err(e) => {
                if let PgnErrorKind::Io(io) = e.kind {
                    // Not a game: the input ends here.
                    piece.read_error = Some((e.offset, io));
                    piece.end = e.offset;
                    break;
                }
                // A broken game: `<number>\terror\t<message>` on stdout for `--to uci`,
                // and the message with file, game, line and column on stderr.
                if to != To::Pgn {
                    piece.out.number(n);
                    writeln!(piece.out, "\terror\t{}", e.kind)?;
                }
                piece.broken.push((n, reader.place(&e), e.kind.to_string()));
            }
        }
        piece.games += 1;
        piece.end = reader.position();
        if piece.out.bytes.len() >= FLUSH_AT {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Numbers go into their holes with the games before added, digits exact at the ends of
    /// the range.
    #[test]
    fn holes_take_their_numbers_plus_the_games_before() {
        let mut text = NumberedText::default();
        text.number(1);
        writeln!(text, "\ta").unwrap();
        text.number(9);
        writeln!(text, "\terror\tb").unwrap();
        text.number(0);
        let mut out = Vec::new();
        text.write_to(&mut out, 0).unwrap();
        assert_eq!(out, b"1\ta\n9\terror\tb\n0");
        out.clear();
        text.write_to(&mut out, 991).unwrap();
        assert_eq!(out, b"992\ta\n1000\terror\tb\n991");
        let mut digits = Vec::new();
        push_decimal(&mut digits, u64::MAX);
        assert_eq!(digits, u64::MAX.to_string().as_bytes());
    }
}
