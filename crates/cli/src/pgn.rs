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
//!   the game number, line and column.
//! - `--to pgn`: each game in the PGN export format (variations, comments and NAGs kept); a
//!   broken game is left out and reported on stderr.
//! - `--to moves:CODE`, CODE one of `12`, `san-like`, `san-like-7-13`: per game
//!   `<number>\t<plies>\t<bits>\t<hex>`, the mainline in that move code
//!   (`chessbits_codec::classic::moves`), from the game's start position; broken games as for
//!   `--to uci`, and a game with a null move, which no move code holds, as
//!   `<number>\terror\tply <N>: a null move cannot be coded`.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;

use chessbits_codec::classic::game::encode_moves;
use chessbits_codec::classic::moves::MoveCode;
use chessbits_notation::fen::{fen_of, CastlingNotation, EnPassantMode, FenOptions};
use chessbits_pgn::{PgnError, PgnReader, Replay, ReplayedGame, TreeBuilder, Visitor};

use crate::progress::Progress;

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
}

/// An input: a file, or standard input for `-`.
pub(crate) fn open(path: &Path) -> io::Result<Box<dyn BufRead>> {
    if path.as_os_str() == "-" {
        Ok(Box::new(BufReader::with_capacity(1 << 16, io::stdin())))
    } else {
        Ok(Box::new(BufReader::with_capacity(1 << 16, File::open(path)?)))
    }
}

/// The total size of the inputs, if every one is a file whose size is known.
pub(crate) fn total_size(paths: &[PathBuf]) -> Option<u64> {
    paths.iter().map(|p| std::fs::metadata(p).ok().filter(|m| m.is_file()).map(|m| m.len())).sum()
}

/// The final FEN as `--to uci` writes it.
const FEN_OPTIONS: FenOptions =
    FenOptions { castling: CastlingNotation::XFen, en_passant: EnPassantMode::Legal };

/// Runs the command over `paths`, writing to `out` and reporting broken games on `err`.
pub fn run(
    paths: &[PathBuf],
    to: To,
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<Summary> {
    let mut run = Run { summary: Summary::default(), progress: Progress::new(total_size(paths)) };
    let mut line = String::new();
    for path in paths {
        let input = match open(path) {
            Ok(input) => input,
            Err(e) => {
                // A missing file is bad input, not a reason to stop reading the others.
                writeln!(err, "chessbits: {}: {e}", path.display())?;
                run.summary.failed += 1;
                continue;
            }
        };
        let mut reader = PgnReader::new(input);
        match to {
            To::Uci => run.file(
                &mut reader,
                &mut Replay::default(),
                path,
                to,
                out,
                err,
                |n, game, out| {
                    uci_line(&game, &mut line);
                    writeln!(out, "{n}\t{line}")
                },
            )?,
            To::Moves(code) => run.file(
                &mut reader,
                &mut Replay::default(),
                path,
                to,
                out,
                err,
                |n, replayed, out| match encode_moves(&replayed.game, code) {
                    Ok(bits) => writeln!(
                        out,
                        "{n}\t{}\t{}\t{bits}",
                        replayed.game.moves().len(),
                        bits.len()
                    ),
                    // A replayed game's moves are legal; a null move has no code.
                    Err(e) => writeln!(out, "{n}\terror\t{e}"),
                },
            )?,
            To::Pgn => run.file(
                &mut reader,
                &mut TreeBuilder::default(),
                path,
                to,
                out,
                err,
                // The export format ends each game with a blank line.
                |_, game, out| writeln!(out, "{game}"),
            )?,
        }
    }
    run.progress.finish();
    out.flush()?;
    Ok(run.summary)
}

/// The state of a run across its inputs.
struct Run {
    summary: Summary,
    progress: Progress,
}

impl Run {
    /// Reads every game of one input with `visitor`, handing each good one to `write`.
    #[allow(clippy::too_many_arguments, reason = "one call site per output kind")]
    fn file<R: BufRead, V: Visitor, O: Write, E: Write>(
        &mut self,
        reader: &mut PgnReader<R>,
        visitor: &mut V,
        path: &Path,
        to: To,
        out: &mut O,
        err: &mut E,
        mut write: impl FnMut(u64, V::Output, &mut O) -> io::Result<()>,
    ) -> io::Result<()>
    where
        V::Error: std::fmt::Display,
    {
        let mut last_start = 0;
        while let Some(result) = reader.read_game(visitor) {
            self.summary.games += 1;
            let number = self.summary.games;
            self.progress.advance(reader.game_start().saturating_sub(last_start), number);
            last_start = reader.game_start();
            match result {
                Ok(game) => write(number, game, out)?,
                Err(e) => {
                    self.summary.failed += 1;
                    report(path, number, &e, to, out, err)?;
                }
            }
        }
        Ok(())
    }
}

/// `<final FEN>\t<uci> <uci> ...` for a replayed game (a null move as `0000`).
pub(crate) fn uci_line(replayed: &ReplayedGame, line: &mut String) {
    use std::fmt::Write as _;
    line.clear();
    let game = &replayed.game;
    line.push_str(&fen_of(game.position(), FEN_OPTIONS));
    line.push('\t');
    let start = game.start();
    for (i, &m) in game.moves().iter().enumerate() {
        if i > 0 {
            line.push(' ');
        }
        // Writing into a String cannot fail.
        let _ = write!(line, "{}", start.uci(m));
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
    writeln!(
        err,
        "chessbits: {}: game {number} (game {} of the file), line {}, column {}: {}",
        path.display(),
        e.game,
        e.line,
        e.column,
        e.kind
    )
}
