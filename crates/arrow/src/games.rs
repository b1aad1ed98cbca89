//! Game input to rows: the loop that `chessbits export` and the Python package's
//! `read_games` share, from a chunk of PGN (or a whole input) to a [`GameRows`] of the
//! caller's, and the `.cbg` detection of an input stream.
//!
//! Each caller keeps only what differs: the CLI codes every game into a [`BatchBuilder`](crate::BatchBuilder) and
//! reports broken games on stderr; Python adds a row for each broken game and may write the
//! moves as text. How games are read, numbered, recycled and where a read error stops the
//! input is decided here, once.
//!
//! ```
//! use chessbits_arrow::games::{read_games_into, GameRows};
//! use chessbits_arrow::ExportError;
//! use chessbits_cbg::GameRecord;
//! use chessbits_pgn::{PgnError, ReplayError, SliceReader};
//!
//! #[derive(Default)]
//! struct Count {
//!     good: Vec<u64>,
//!     bad: Vec<u64>,
//! }
//!
//! impl GameRows for Count {
//!     fn game(&mut self, game: &GameRecord) -> Result<(), ExportError> {
//!         self.good.push(game.number);
//!         Ok(())
//!     }
//!     fn failed(&mut self, number: u64, _: &PgnError<ReplayError>, _: &[(Vec<u8>, Vec<u8>)]) {
//!         self.bad.push(number);
//!     }
//! }
//!
//! let pgn = b"1. e4 e5 *\n\n1. e4 e4 *\n\n1. d4 *\n";
//! let mut rows = Count::default();
//! let end = read_games_into(&mut SliceReader::new(pgn), &mut rows)?;
//! assert_eq!((rows.good, rows.bad), (vec![1, 3], vec![2]));
//! assert_eq!(end.games, 3);
//! assert!(end.read_error.is_none());
//! # Ok::<_, ExportError>(())
//! ```

use std::io::{self, BufRead, BufReader, Cursor, Read};
use std::sync::Mutex;

use chessbits_cbg::{CbgError, FileKind, GameBuilder, GameRecord};
use chessbits_pgn::{PgnError, PgnErrorKind, ReplayError};

use crate::ExportError;

/// Where the games read go: each game that read, numbered, or why one did not.
pub trait GameRows {
    /// A game that read, its [`number`](GameRecord::number) set: from 1 at the reader's start
    /// (a chunk's games from the chunk's start). An error stops reading and is returned by
    /// [`read_games_into`]: keep a game's own trouble (moves that do not code) as a row.
    fn game(&mut self, game: &GameRecord) -> Result<(), ExportError>;

    /// A game that did not read: its number, the reader's error (its `game` is the reader's
    /// own number) and the tags read before it failed (all of them for a variant game
    /// refused once its tags were read).
    fn failed(&mut self, number: u64, error: &PgnError<ReplayError>, tags: &[(Vec<u8>, Vec<u8>)]);

    /// A row of a games table whose movetext did not read
    /// ([`ParquetRows`](crate::lichess::ParquetRows)): as [`failed`](Self::failed), the
    /// error's line, column and byte the movetext's own ([`movetext_failed_message`]).
    fn failed_movetext(
        &mut self,
        number: u64,
        error: &PgnError<ReplayError>,
        tags: &[(Vec<u8>, Vec<u8>)],
    ) {
        self.failed(number, error, tags);
    }
}

/// How reading ended.
#[derive(Debug)]
#[non_exhaustive]
pub struct ReadEnd {
    /// The games read, good or broken, before the end or the read error.
    pub games: u64,
    /// The read error that ended the input, if one did (its kind is [`PgnErrorKind::Io`],
    /// its offset where reading stopped). It is no game: no row, no count.
    pub read_error: Option<PgnError<ReplayError>>,
}

/// A reader of games into a [`GameBuilder`]: the three readers of chessbits-pgn, and a
/// lichess Parquet file's rows ([`RowGames`](crate::lichess::RowGames)). It lives in
/// chessbits-pgn, so that crates without Arrow read games through it too.
pub use chessbits_pgn::GameSource;

/// Reads every game of `source` into `rows`, numbering each, until the input ends or a read
/// error ends it.
///
/// # Errors
/// The first error [`GameRows::game`] returns; reading stops there.
pub fn read_games_into<S: GameSource, R: GameRows>(
    source: &mut S,
    rows: &mut R,
) -> Result<ReadEnd, ExportError> {
    let mut builder = GameBuilder::default();
    let mut games = 0;
    while let Some(result) = source.next_game(&mut builder) {
        let number = source.games_read();
        match result {
            Ok(mut game) => {
                game.number = number;
                let pushed = rows.game(&game);
                builder.recycle(game);
                pushed?;
            }
            // The read error is no game's: reading stops there, as it does serially.
            Err(e) if matches!(e.kind, PgnErrorKind::Io(_)) => {
                return Ok(ReadEnd { games, read_error: Some(e) });
            }
            Err(e) => rows.failed(number, &e, builder.failed_tags()),
        }
        games = number;
    }
    Ok(ReadEnd { games, read_error: None })
}

/// The `error` column's message for a game of PGN that did not read: where in the input and
/// why (`line 14, column 13 (byte 301): ply 3 (Ke3): illegal move Ke3`), as the reader's
/// error says it after `game N, `. The game's number is not in it: the `game` column holds it,
/// and a worker reading a chunk does not know it yet.
pub fn pgn_failed_message(e: &PgnError<ReplayError>) -> String {
    format!("line {}, column {} (byte {}): {}", e.line, e.column, e.offset, e.kind)
}

/// The `error` column's message for a row of a games table whose movetext did not read
/// ([`GameRows::failed_movetext`]): the byte of the movetext where it went wrong and why
/// (`movetext byte 12: illegal move Ke3`).
pub fn movetext_failed_message(e: &PgnError<ReplayError>) -> String {
    format!("movetext byte {}: {}", e.offset, e.kind)
}

/// The `error` column's message for a `.cbg` record that did not read: the byte where it
/// starts and why (`byte 1234: checksum mismatch`), without the game's number.
pub fn cbg_failed_message(e: &CbgError) -> String {
    format!("byte {}: {}", e.at.byte, e.kind)
}

/// What `input` is ([`FileKind::of`] its first [`FileKind::HEAD_LEN`] bytes: PGN, a `.cbg`
/// file, or binary bytes that are neither), and the input with those bytes put back. An
/// error reading them (a `.zst` cut inside its first block) is put back too, after the bytes
/// read before it: the reader meets it where it would have.
pub fn sniff<R: Read + Send + 'static>(mut input: R) -> (FileKind, Box<dyn BufRead + Send + Sync>) {
    let mut head = Vec::with_capacity(FileKind::HEAD_LEN);
    let read = input.by_ref().take(FileKind::HEAD_LEN as u64).read_to_end(&mut head);
    let kind = FileKind::of(&head);
    let rest: Box<dyn Read + Send> = match read {
        Ok(_) => Box::new(Cursor::new(head).chain(input)),
        Err(e) => Box::new(Cursor::new(head).chain(Failed(Some(e)))),
    };
    let rest = SyncRead(Mutex::new(rest));
    (kind, Box::new(BufReader::with_capacity(1 << 16, rest)))
}

/// A reader made `Sync` (the Python classes that hold one must be), read only through
/// `&mut`, so the lock is never contended.
struct SyncRead<R>(Mutex<R>);

impl<R: Read> Read for SyncRead<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.0.get_mut() {
            Ok(inner) => inner.read(buf),
            Err(_) => Err(io::Error::other("a reader panicked")),
        }
    }
}

/// A reader that fails once with an error met before, then ends.
struct Failed(Option<io::Error>);

impl Read for Failed {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        self.0.take().map_or(Ok(0), Err)
    }
}

#[cfg(test)]
mod tests {
    use chessbits_pgn::{PgnReader, SliceReader};

    use super::*;

    #[derive(Default)]
    struct Log(Vec<String>);

    impl GameRows for Log {
        fn game(&mut self, game: &GameRecord) -> Result<(), ExportError> {
            self.0.push(format!("{} ok {}", game.number, game.moves.len()));
            Ok(())
        }
        fn failed(
            &mut self,
            number: u64,
            error: &PgnError<ReplayError>,
            tags: &[(Vec<u8>, Vec<u8>)],
        ) {
            self.0.push(format!("{number} failed {} tags {}", error.game, tags.len()));
        }
    }

    /// A reader that gives `bytes` and then fails.
    struct Cut(&'static [u8]);

    impl Read for Cut {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Err(io::Error::other("cut"));
            }
            let n = self.0.len().min(buf.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    const GAMES: &[u8] = b"[White \"a\"]\n\n1. e4 e5 *\n\n[White \"b\"]\n[Variant \"Atomic\"]\n\n1. e4 *\n\n1. d4 d5 2. c4 *\n";

    #[test]
    fn every_reader_numbers_games_and_keeps_failed_tags_alike() {
        let expected = ["1 ok 2", "2 failed 2 tags 2", "3 ok 3"];
        let mut slice = Log::default();
        let end = read_games_into(&mut SliceReader::new(GAMES), &mut slice).unwrap();
        assert_eq!(slice.0, expected);
        assert_eq!(end.games, 3);
        let mut stream = Log::default();
        read_games_into(&mut PgnReader::new(GAMES), &mut stream).unwrap();
        assert_eq!(stream.0, expected);
    }

    #[test]
    fn a_read_error_ends_the_input_and_is_no_game() {
        let mut log = Log::default();
        let end =
            read_games_into(&mut PgnReader::new(Cut(b"1. e4 *\n\n1. d4 d5")), &mut log).unwrap();
        assert_eq!(log.0, ["1 ok 1"]);
        assert_eq!(end.games, 1);
        let error = end.read_error.expect("the cut");
        assert!(matches!(error.kind, PgnErrorKind::Io(_)));
    }

    #[test]
    fn the_first_error_of_the_rows_stops_reading() {
        struct Refuse(u32);
        impl GameRows for Refuse {
            fn game(&mut self, _: &GameRecord) -> Result<(), ExportError> {
                self.0 += 1;
                Err(ExportError::Arrow(arrow_schema::ArrowError::ComputeError("no".into())))
            }
            fn failed(&mut self, _: u64, _: &PgnError<ReplayError>, _: &[(Vec<u8>, Vec<u8>)]) {}
        }
        let mut rows = Refuse(0);
        assert!(read_games_into(&mut SliceReader::new(GAMES), &mut rows).is_err());
        assert_eq!(rows.0, 1);
    }

    #[test]
    fn sniffing_puts_the_bytes_back() {
        let (kind, mut rest) = sniff(Cursor::new(b"1. e4 *\n".to_vec()));
        let mut text = String::new();
        rest.read_to_string(&mut text).unwrap();
        assert_eq!(kind, FileKind::Pgn);
        assert_eq!(text, "1. e4 *\n");
        let mut file = chessbits_cbg::MAGIC.to_vec();
        file.extend_from_slice(b"rest");
        let (kind, mut rest) = sniff(Cursor::new(file.clone()));
        let mut back = Vec::new();
        rest.read_to_end(&mut back).unwrap();
        assert_eq!(kind, FileKind::Cbg);
        assert_eq!(back, file);
        // Binary bytes past the first kilobyte of text are not looked at; within it they are.
        for (at, expected) in [(100, FileKind::Binary), (FileKind::HEAD_LEN, FileKind::Pgn)] {
            let mut text = b"1. e4 e5 ".repeat(1000);
            text[at] = 0;
            let (kind, mut rest) = sniff(Cursor::new(text.clone()));
            let mut back = Vec::new();
            rest.read_to_end(&mut back).unwrap();
            assert_eq!((kind, back == text), (expected, true), "{at}");
        }
        // A read error inside the first bytes comes back after the bytes before it.
        let (kind, mut rest) = sniff(Cut(b"1."));
        let mut back = Vec::new();
        assert_eq!(kind, FileKind::Pgn);
        assert!(rest.read_to_end(&mut back).is_err());
        assert_eq!(back, b"1.");
    }
}
