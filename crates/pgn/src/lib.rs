//! PGN (Portable Game Notation): many games read fast, as a stream of events or as game trees.
//!
//! # Reading
//!
//! [`SliceReader`] reads games from bytes in memory (a whole file, a memory map) and
//! [`PgnReader`] from any [`Read`](std::io::Read), refilling its own buffer; both read exactly
//! the same games and report exactly the same errors. Each call to `read_game` drives a
//! [`Visitor`] through one game: tags, then the movetext's moves ([`SanPlus`](chessbits_notation::san::SanPlus)),
//! glyphs ([`Nag`]), comments, variations and result. The reader works on bytes: it never
//! checks UTF-8, allocates nothing per token, and skips what a visitor does not want (a
//! movetext, a variation) without reading it. Ready-made visitors: [`Replay`] plays the
//! mainline into a [`Game`](chessbits_movegen::Game); [`SyntaxCheck`] only finds the games.
//!
//! ```
//! use chessbits_pgn::{Replay, SliceReader};
//!
//! let pgn = b"[Event \"Casual\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6?? 4. Qxf7# 1-0\n";
//! let mut reader = SliceReader::new(pgn);
//! let replayed = reader.read_game(&mut Replay::default()).unwrap()?;
//! assert_eq!(replayed.game.moves().len(), 7);
//! assert!(reader.read_game(&mut Replay::default()).is_none());
//! # Ok::<_, chessbits_pgn::PgnError<chessbits_pgn::ReplayError>>(())
//! ```
//!
//! ## The grammar read
//!
//! Bytes, not text: tag values and comments are handed over as bytes, so Latin-1 or CP437
//! files read as well as UTF-8 ones ([`RawTag::decode`] and [`decode_lossy`] turn them into
//! text, as UTF-8 if they are, else as Latin-1).
//!
//! - **Between games**: white space, `%` escape lines, `;` comment lines, UTF-8 byte order
//!   marks (at the start of the input, or of a file joined onto it), and lines that cannot
//!   start a game (a line starting with anything but `[`, `{`, `(`, `$`, `*`, a letter or a
//!   digit) are skipped. A line of prose that starts with a letter reads as movetext, and so
//!   as a broken game.
//! - **A game** is a tag section, then movetext. It ends after its result (`1-0`, `0-1`,
//!   `1/2-1/2`, `*`; also `1/2` read as a draw) outside any variation, where the next tag
//!   section starts (a `[` in the movetext), where the movetext starts again at move 1 after
//!   a blank line (`1.` as the first token after a line of white space, outside any
//!   variation: games without result markers are often separated so), or at the end of the
//!   input. Other blank lines do not end a game: tags, two blank lines and movetext are one
//!   game (python-chess makes two). Movetext with no tags before it is a game of its own.
//! - **Tags**: `[Name "value"]`, any blanks between the parts, several on a line or one per
//!   line, blank lines, `%` lines and `;` lines between them. The value ends at the quote
//!   that the `]` follows; `\"` and `\\` are escapes ([`RawTag::unescape`]), and a quote not
//!   followed by `]` is part of the value. A tag must end on its line; where the line ends
//!   inside the value, the value ends at the line's last quote that blanks and a `]` follow
//!   (`[Event "Ugra Cup \"]`, as ChessBase writes a value ending in a backslash, reads as
//!   `Ugra Cup \`). A second `Event` tag starts a new game (a game with tags and no
//!   movetext, then the next one).
//! - **Movetext tokens**: moves in SAN ([`SanPlus::from_ascii`](chessbits_notation::san::SanPlus::from_ascii)
//!   reads them, with `0-0`, `--`, `Z0` and long algebraic forms); move numbers `12.`,
//!   `12...`, `12` and attached ones (`1.e4`); stray dots and commas (`1. e4, e5`);
//!   glyphs `$0`..`$255`; the suffixes `!`, `?`, `!!`, `??`, `!?`, `?!` (glyphs 1 to 6,
//!   also when attached: `Nf3!?`); evaluation symbols written as text, read as their glyphs
//!   (`+-` `$18`, `=` `$10`, `±` `$16` ...: [`Nag::from_symbol`]); `e.p.` after a move, a
//!   remark; comments `{...}` (over several lines) and `;...` to the end of the line;
//!   variations `(...)`, nested (one left open closes at the end of its game); `%` escape
//!   lines at the start of a line.
//! - **CRLF** line ends read as LF ones.
//!
//! ## Broken games
//!
//! A game that breaks the grammar (a token that is not a move, a malformed tag, a `)` with
//! no variation open, an unclosed comment, a limit exceeded) or that the visitor rejects is
//! returned as a [`PgnError`] giving the game number, line, column, byte offset and what is
//! wrong; the reader then skips the rest of that game (to its result or the next tag section)
//! and reads on. A comment whose `}` is missing ends before the first line inside it that
//! starts with a tag pair, so that the next game is not lost; it is the game's error in a
//! variation the visitor skips too (not where the whole movetext is skipped, as
//! [`PgnReader::skip_game`] does to find where games end).
//!
//! Untrusted input cannot make the reader panic or use unbounded memory: each game is bounded
//! by [`Limits`] (variation depth [`MAX_VARIATION_DEPTH`], comment length [`MAX_COMMENT_LEN`],
//! tag size [`MAX_TAG_LEN`], tag count [`MAX_TAGS`], moves [`MAX_GAME_MOVES`], game size
//! [`MAX_GAME_LEN`], configurable with `with_limits`) and by [`MAX_TOKEN_LEN`].
//!
//! ## Chess960, variants, start positions and null moves
//!
//! [`start_position`] gives the position a `FEN` tag describes (`SetUp` is not needed), and
//! [`is_chess960_variant`] says whether a `Variant` tag names Chess960 (`Chess960`,
//! `chess 960`, `Fischerandom`...). [`Variant::from_tag`] reads a `Variant` tag: standard
//! chess (`Standard`, `From Position`, ...) or Chess960. The visitors that play moves
//! ([`Replay`], [`TreeBuilder`], the `.cbg` game builder) refuse a game whose `Variant` tag
//! names anything else (`Crazyhouse`, `Atomic`, `Three-check`, ...) at that tag, with
//! [`ReplayError::Variant`] (`variant "Crazyhouse" is not supported`), so that no variant game
//! passes as standard chess; the reader then skips it and reads the next game.
//!
//! A null move `--` (also `Z0`) in the mainline is a pass, as engines and ChessBase write
//! analysis ("if it were the other side's move"): the visitors play it
//! ([`Game::play_null`](chessbits_movegen::Game::play_null): en passant right cleared, the
//! halfmove clock counted on, as python-chess counts it), UCI writes it `0000` and PGN `--`.
//! A null move while in check is refused ([`ReplayError::NullMoveInCheck`]): passing would
//! leave a king to capture. Where a format cannot hold a null move (the move codes, the move
//! codec), coding the game is an error naming the ply.
//!
//! ## Comment commands
//!
//! `[%clk 0:03:00]` and `[%eval -1.5,20]` in comments read into [`Clock`] and [`Eval`]
//! ([`split_comment`], [`RawComment::clock`], [`RawComment::eval`]).
//!
//! # Game trees
//!
//! [`PgnGame`] holds a whole game: [`Tags`] in the order read, the start position, the
//! mainline as a [`Variation`] of [`Node`]s (each with its move resolved, glyphs, comments,
//! clock, evaluation and variations) and the result. [`read_games`] reads them from bytes;
//! [`TreeBuilder`] is the visitor behind it, for use with a [`PgnReader`].
//!
//! # Game files as published, on every core
//!
//! [`Input`] (feature `compression`, on by default) reads a file or any reader as it is
//! published: plain, or compressed with zstd, gzip or bzip2, recognised by its first bytes.
//! [`Output`] writes one compressed by its extension.
//!
//! [`par_games`] reads one input on several threads ([`Parallel`]): one thread reads (and
//! decompresses) it, the calling thread cuts it into [`Chunk`]s of whole games ([`Chunks`]),
//! the workers and the calling thread read the chunks, and the calling thread takes each
//! game's result in input order. The results are
//! exactly those of one reader over the whole input (games, errors, numbers, lines, columns,
//! offsets), for every thread count and chunk size; memory is bounded by the thread count,
//! chunk size and game length limit ([`Parallel::input_bound`]), not by the input (past a game
//! over the limit, the rest is read serially). [`par_chunks`] hands whole
//! chunks to the workers, for work that keeps state from game to game; both are built on
//! [`par_map`], the same ordered pool over any sequence of work (`chessbits-cbg`'s `.cbg` records).
//!
//! ```
//! use chessbits_pgn::{par_games, Input, Parallel, Replay};
//!
//! let pgn = "[Event \"a\"]\n\n1. e4 e5 2. Nf3 1-0\n\n".repeat(500);
//! let input = Input::new(std::io::Cursor::new(pgn.into_bytes()))?; // or Input::open(path)
//! let mut plies = 0;
//! par_games(input, &Parallel::all_cores(), Replay::default, |_number, game| {
//!     game.map_or(0, |g| g.game.moves().len())
//! }, |n| {
//!     plies += n;
//!     Ok::<_, std::io::Error>(())
//! })?;
//! assert_eq!(plies, 1500);
//! # Ok::<_, std::io::Error>(())
//! ```
//!
//! # Writing
//!
//! `Display` for [`PgnGame`] writes the PGN standard's export format (section 8):
//!
//! - the Seven Tag Roster first, in its order (`Event`, `Site`, `Date`, `Round`, `White`,
//!   `Black`, `Result`; a missing one written `?`, `????.??.??` for the date, the game's
//!   result for `Result`), then the other tags in the order read (not sorted, as the
//!   standard would have them), with `SetUp` and `FEN` added if the start position is not
//!   the standard one and no `FEN` tag says so; values escaped (`\"`, `\\`);
//! - a blank line, then the movetext: `1. e4 e5`, a black move numbered `1...` at the start
//!   of a line of moves and after a comment or a variation; glyphs as `$n`; comments as
//!   `{ text }`, the clock and evaluation first as `[%eval 0.17] [%clk 0:03:00]`, any `}` in
//!   a text dropped; variations as `(1. d4 d5)` after the move they replace; the result;
//! - tokens one space apart in lines of at most [`MAX_LINE_LEN`] (79) bytes, except that a
//!   token longer than a line stands alone on its line, and that a line never starts with
//!   `%` or with what reads as a tag pair (such a word stays on the line before);
//! - a line break at the end. Games in a file are separated by a blank line.
//!
//! Writing is stable: reading what was written gives the same tree (up to the roster tags
//! the writer adds), and writing that gives the same bytes.
//!
//! ```
//! use chessbits_pgn::read_games;
//!
//! let pgn = "[Black \"B\"]\n1.e4 {[%clk 0:03:00]} e5 (1...c5 2.Nf3) 2.Nf3! 1-0";
//! let game = read_games(pgn.as_bytes()).next().unwrap()?;
//! let written = game.to_string();
//! assert!(written.ends_with(
//!     "\n\n1. e4 { [%clk 0:03:00] } 1... e5 (1... c5 2. Nf3) 2. Nf3 $1 1-0\n"
//! ));
//! # Ok::<_, chessbits_pgn::PgnError<chessbits_pgn::ReplayError>>(())
//! ```

#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_code)]

mod annotations;
mod bytes;
#[cfg(feature = "compression")]
#[cfg_attr(docsrs, doc(cfg(feature = "compression")))]
mod compression;
mod error;
mod game_source;
mod guess;
mod limits;
mod lines;
mod movetext;
mod ordered;
mod origin;
mod parallel;
mod pool;
mod reader;
mod san_cache;
mod scanner;
mod serial;
mod source;
mod split;
mod tags;
mod tree;
mod visitor;
mod writer;

pub use annotations::{
    commands, comment_annotations, decode_lossy, split_comment, Clock, Command, Commands,
    CommentAnnotations, CommentParts, Eval, InvalidClock, InvalidEval, InvalidNag, Nag, Score,
};
#[cfg(feature = "compression")]
#[cfg_attr(docsrs, doc(cfg(feature = "compression")))]
pub use compression::{CompressedStreamError, Compression, Input, Output, ReadCount};
pub use error::{PgnError, PgnErrorKind, TagError};
pub use game_source::{ErrorPlace, GameSource};
pub use limits::{
    Limits, MAX_COMMENT_LEN, MAX_GAME_LEN, MAX_GAME_MOVES, MAX_TAGS, MAX_TAG_LEN, MAX_TOKEN_LEN,
    MAX_VARIATION_DEPTH,
};
pub use movetext::MovetextReader;
pub use ordered::{par_map, par_map_pooled, MAX_THREADS};
pub use origin::Origin;
pub use parallel::{par_chunks, par_chunks_pooled, par_games, Parallel, BLOCKS, BLOCK_SIZE};
pub use pool::spawn_pooled;
pub use reader::{PgnReader, SliceReader};
pub use split::{Chunk, ChunkReader, Chunks};
pub use tree::{read_games, Games, Node, PgnGame, Tags, TreeBuilder, Variation, SEVEN_TAG_ROSTER};
pub use visitor::{
    is_chess960_variant, play_san, resolve_san, start_position, GameResult, InvalidResult,
    RawComment, RawTag, Replay, ReplayError, ReplayedGame, Skip, StartTags, SyntaxCheck,
    UnsupportedVariant, Variant, Visitor,
};
pub use writer::MAX_LINE_LEN;
