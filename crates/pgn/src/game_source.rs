//! [`GameSource`]: any reader of games, one at a time, into any visitor; [`ErrorPlace`].

use core::fmt;
use std::io::Read;

use crate::error::PgnError;
use crate::reader::{PgnReader, SliceReader};
use crate::split::ChunkReader;
use crate::visitor::Visitor;

/// Whatever hands out games one at a time to any [`Visitor`], so that code which reads games
/// (replaying, coding, indexing) is written once for every source: the PGN readers of this
/// crate ([`PgnReader`], [`SliceReader`], [`ChunkReader`]) and the rows of a games table
/// (`chessbits_arrow::lichess::RowGames`, a lichess Parquet file's rows). A broken game's
/// [`ErrorPlace`] says where it went wrong in the source's own terms: a line and column of
/// PGN text, or a byte of a row's movetext.
///
/// ```
/// use chessbits_pgn::{ErrorPlace, GameSource, Replay, SliceReader};
///
/// /// The plies of every game that reads, and where each broken one went wrong.
/// fn plies(source: &mut impl GameSource) -> (Vec<usize>, Vec<String>) {
///     let (mut plies, mut broken) = (Vec::new(), Vec::new());
///     while let Some(game) = source.next_game(&mut Replay::default()) {
///         match game {
///             Ok(game) => plies.push(game.game.moves().len()),
///             Err(e) => {
///                 let (n, place) = (source.games_read(), source.place(&e));
///                 broken.push(format!("game {n}, {place}"));
///             }
///         }
///     }
///     (plies, broken)
/// }
///
/// let mut reader = SliceReader::new(b"1. e4 e5 *\n\n1. d4 Ke7 *\n\n1. c4 *\n");
/// assert_eq!(plies(&mut reader), (vec![2, 1], vec!["game 2, line 3, column 7".to_owned()]));
/// ```
pub trait GameSource {
    /// The next game read into `visitor`: `None` when there are no more, `Some(Err(_))` for
    /// a broken game (the next call reads the game after it), as
    /// [`SliceReader::read_game`].
    fn next_game<V: Visitor>(
        &mut self,
        visitor: &mut V,
    ) -> Option<Result<V::Output, PgnError<V::Error>>>;

    /// The games read so far, broken ones included: the number of the last one read, counted
    /// as the source counts (a chunk's and a batch's from their start).
    fn games_read(&self) -> u64;

    /// Where `error`, a broken game's error from [`next_game`](Self::next_game), happened:
    /// its line and column in PGN text unless the source says otherwise.
    fn place<E>(&self, error: &PgnError<E>) -> ErrorPlace {
        ErrorPlace::Text { line: error.line, column: error.column, byte: error.offset }
    }
}

/// Where a broken game went wrong, in its source's terms ([`GameSource::place`]). It is
/// written as a message says it after the game's number: `line 3, column 7` or `movetext
/// byte 36`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorPlace {
    /// In PGN text: the line and column (both from 1) and the byte offset (from 0).
    Text {
        /// The line, from 1.
        line: u64,
        /// The column, from 1.
        column: u64,
        /// The byte offset in the input, from 0.
        byte: u64,
    },
    /// In the movetext of a row of a games table (its tags are columns, not text): the byte
    /// of the movetext, from 0.
    Movetext {
        /// The byte of the movetext, from 0.
        byte: u64,
    },
}

impl fmt::Display for ErrorPlace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorPlace::Text { line, column, .. } => write!(f, "line {line}, column {column}"),
            ErrorPlace::Movetext { byte } => write!(f, "movetext byte {byte}"),
        }
    }
}

/// The three readers' `read_game` and `games`, under the trait's names.
macro_rules! game_sources {
    ($(impl[$($generics:tt)*] $reader:ty;)*) => {$(
        impl<$($generics)*> GameSource for $reader {
            fn next_game<V: Visitor>(
                &mut self,
                visitor: &mut V,
            ) -> Option<Result<V::Output, PgnError<V::Error>>> {
                self.read_game(visitor)
            }

            fn games_read(&self) -> u64 {
                self.games()
            }
        }
    )*};
}

game_sources! {
    impl['a] ChunkReader<'a>;
    impl['a] SliceReader<'a>;
    impl[R: Read] PgnReader<R>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_reads_as_messages_write_it() {
        let text = ErrorPlace::Text { line: 14, column: 13, byte: 301 };
        assert_eq!(text.to_string(), "line 14, column 13");
        assert_eq!(ErrorPlace::Movetext { byte: 36 }.to_string(), "movetext byte 36");
    }

    #[test]
    fn the_readers_count_and_place_as_their_own_methods() {
        let pgn = b"[White \"a\"]\n\n1. e4 e5 *\n\n[White \"b\"]\n\n1. e4 Ke7 *\n";
        let mut reader = SliceReader::new(pgn);
        assert!(reader.next_game(&mut crate::Replay::default()).is_some_and(|g| g.is_ok()));
        assert_eq!(reader.games_read(), 1);
        let error = reader.next_game(&mut crate::Replay::default()).unwrap().unwrap_err();
        assert_eq!(reader.games_read(), 2);
        assert_eq!(reader.place(&error), ErrorPlace::Text { line: 7, column: 7, byte: 44 });
        assert!(reader.next_game(&mut crate::Replay::default()).is_none());
    }
}
