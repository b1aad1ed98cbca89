//! The PGN scanner: [`PgnReader`] over any [`Read`], [`SliceReader`] over bytes in memory, both
//! driving a [`Visitor`]. See the [module docs](super) for the grammar read.
//!
//! The scanner works on bytes, never decodes text, and allocates nothing but its input buffer
//! (and the error of a broken game). Movetext tokens are found by byte class and dispatched on
//! their first byte; comments and skipped text are searched with `memchr`. A skipped movetext
//! or variation is passed over by a byte loop that only tracks braces, parentheses, line
//! comments and where the game ends.

use core::convert::Infallible;
use core::fmt;
use std::io::{self, Read};

use memchr::{memchr, memchr2, memrchr};

use super::annotations::Nag;
use super::visitor::{GameResult, RawComment, RawTag, Visitor};
use chessbits_bitboard::{File, Rank, Role, Square};
use chessbits_state::CastlingSide;

use chessbits_notation::san::{ParseSanError, San, SanPlus, Suffix};

/// The deepest nesting of variations read: 64. A `(` that would open a 65th level is an error
/// for its game.
pub const MAX_VARIATION_DEPTH: usize = 64;

/// The longest comment read, in bytes between the braces (or after the `;`): 1 MiB
/// (1,048,576). A longer comment is an error for its game.
pub const MAX_COMMENT_LEN: usize = 1 << 20;

/// The longest tag pair, in bytes from `[` to `]`: 64 KiB (65,536). A longer one is an error
/// for its game.
pub const MAX_TAG_LEN: usize = 1 << 16;

/// The longest movetext token (a move, a move number, a NAG), in bytes: 64. A longer one is an
/// error for its game. Unlike the others, this bound is fixed: the streaming reader keeps a
/// token's worth of bytes ahead.
pub const MAX_TOKEN_LEN: usize = 64;

/// The most tag pairs read in one game: 1,024. One more is an error for its game.
pub const MAX_TAGS: usize = 1024;

/// The most moves read in one game, counting the moves of every variation: 100,000 (the
/// longest possible game has under 12,000 plies). One more is an error for its game.
pub const MAX_MOVES: usize = 100_000;

/// The most bytes one game may span, from its first tag (or token) to its end: 64 MiB
/// (67,108,864). A game that goes on is an error at the first tag or token past the bound,
/// and its rest is skipped as for any broken game.
pub const MAX_GAME_LEN: u64 = 1 << 26;

/// The bounds a reader puts on each game of untrusted input ([`Limits::DEFAULT`] are the
/// constants of this module). A game that goes past one is an error for that game (its
/// [`PgnErrorKind`] names the bound); the reader skips the rest of it and reads on, so a file of
/// garbage or one endless game is read in constant memory.
///
/// Memory: the streaming reader's buffer grows to about twice `comment_len` (or `tag_len`) at
/// most; a visitor that keeps a game holds at most `moves` moves, `tags` tags of `tag_len`
/// bytes, and comments of `comment_len` bytes within `game_len` bytes.
///
/// ```
/// use chessbits_pgn::{Limits, Nothing, PgnErrorKind, SliceReader};
///
/// let limits = Limits { moves: 2, ..Limits::DEFAULT };
/// let mut reader = SliceReader::with_limits(b"1. e4 e5 2. Nf3 *\n1. d4 *\n", limits);
/// let err = reader.read_game(&mut Nothing).unwrap().unwrap_err();
/// assert!(matches!(err.kind, PgnErrorKind::TooManyMoves { limit: 2 }));
/// assert_eq!(err.to_string(), "game 1, line 1, column 13 (byte 12): more than 2 moves");
/// assert!(reader.read_game(&mut Nothing).unwrap().is_ok());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Limits {
    /// The deepest nesting of variations ([`MAX_VARIATION_DEPTH`]).
    pub variation_depth: usize,
    /// The longest comment, in bytes ([`MAX_COMMENT_LEN`]).
    pub comment_len: usize,
    /// The longest tag pair, in bytes ([`MAX_TAG_LEN`]).
    pub tag_len: usize,
    /// The most tag pairs in a game ([`MAX_TAGS`]).
    pub tags: usize,
    /// The most moves in a game, variations included ([`MAX_MOVES`]).
    pub moves: usize,
    /// The most bytes a game spans ([`MAX_GAME_LEN`]).
    pub game_len: u64,
}

impl Limits {
    /// The module's constants.
    pub const DEFAULT: Limits = Limits {
        variation_depth: MAX_VARIATION_DEPTH,
        comment_len: MAX_COMMENT_LEN,
        tag_len: MAX_TAG_LEN,
        tags: MAX_TAGS,
        moves: MAX_MOVES,
        game_len: MAX_GAME_LEN,
    };
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::DEFAULT
    }
}

/// Bytes the streaming reader keeps available ahead of each movetext token, so that a token is
/// always whole in the buffer.
const LOOKAHEAD: usize = MAX_TOKEN_LEN + 16;

/// Bytes looked at after a line break inside a comment, to see whether a tag pair starts there.
const TAG_PROBE: usize = 48;

/// How much the streaming reader asks its reader for at a time.
const READ_CHUNK: usize = 64 * 1024;

/// Where the bytes come from: all of them in memory, or a [`Read`] through a buffer.
pub(crate) trait Source {
    /// Whether more bytes can arrive than the buffer holds now.
    const STREAMING: bool;
    /// The buffered bytes.
    fn buf(&self) -> &[u8];
    /// The offset in the input of `buf()[0]`.
    fn base(&self) -> u64;
    /// Whether the input has no more bytes than those buffered.
    fn exhausted(&self) -> bool;
    /// Drops `buf()[..keep]` and reads until `want` bytes are buffered or the input ends. A
    /// read error ends the input, and is kept for [`Source::take_error`].
    fn refill(&mut self, keep: usize, want: usize);
    /// The read error that ended the input, if one did.
    fn take_error(&mut self) -> Option<io::Error>;
}

/// All of the input, in memory.
pub(crate) struct SliceSource<'a> {
    bytes: &'a [u8],
}

impl Source for SliceSource<'_> {
    const STREAMING: bool = false;

    #[inline]
    fn buf(&self) -> &[u8] {
        self.bytes
    }

    #[inline]
    fn base(&self) -> u64 {
        0
    }

    #[inline]
    fn exhausted(&self) -> bool {
        true
    }

    fn refill(&mut self, _keep: usize, _want: usize) {}

    fn take_error(&mut self) -> Option<io::Error> {
        None
    }
}

/// A reader and the part of its bytes not yet consumed.
pub(crate) struct IoSource<R> {
    reader: R,
    buf: Vec<u8>,
    base: u64,
    eof: bool,
    error: Option<io::Error>,
}

impl<R> IoSource<R> {
    fn new(reader: R) -> IoSource<R> {
        IoSource { reader, buf: Vec::new(), base: 0, eof: false, error: None }
    }
}

impl<R: Read> Source for IoSource<R> {
    const STREAMING: bool = true;

    #[inline]
    fn buf(&self) -> &[u8] {
        &self.buf
    }

    #[inline]
    fn base(&self) -> u64 {
        self.base
    }

    #[inline]
    fn exhausted(&self) -> bool {
        self.eof
    }

    fn refill(&mut self, keep: usize, want: usize) {
        let keep = keep.min(self.buf.len());
        self.buf.drain(..keep);
        self.base += keep as u64;
        while self.buf.len() < want && !self.eof {
            // `read_to_end` appends without zeroing the room first.
            let chunk = READ_CHUNK.max(want - self.buf.len()) as u64;
            match self.reader.by_ref().take(chunk).read_to_end(&mut self.buf) {
                Ok(read) => self.eof = read == 0,
                Err(err) => {
                    self.error = Some(err);
                    self.eof = true;
                }
            }
        }
    }

    fn take_error(&mut self) -> Option<io::Error> {
        self.error.take()
    }
}

/// Line numbers, counted lazily: up to an error, or over bytes about to leave the buffer.
#[derive(Debug)]
struct Lines {
    /// The input offset up to which line breaks are counted.
    counted: u64,
    /// The line number at `counted` (1-based).
    line: u64,
    /// The input offset where that line starts.
    line_start: u64,
}

impl Lines {
    fn new() -> Lines {
        Lines { counted: 0, line: 1, line_start: 0 }
    }

    /// Counts the line breaks in `buf` (which starts at input offset `base`) up to `upto`.
    fn count_to(&mut self, buf: &[u8], base: u64, upto: usize) {
        let from = usize::try_from(self.counted.saturating_sub(base)).unwrap_or(usize::MAX);
        if let Some(bytes) = buf.get(from..upto) {
            let breaks = count_line_breaks(bytes);
            if let Some(last) = memrchr(b'\n', bytes) {
                self.line += breaks as u64;
                self.line_start = base + (from + last + 1) as u64;
            }
            self.counted = base + upto as u64;
        }
    }
}

/// The number of `\n` in `bytes`, summed in blocks of 255 into a `u8`, which the compiler
/// turns into byte-wide vector instructions (a plain filtered count into a `usize` compiles
/// to code several times slower).
fn count_line_breaks(bytes: &[u8]) -> usize {
    bytes
        .chunks(255)
        .map(|block| usize::from(block.iter().fold(0u8, |n, &b| n + u8::from(b == b'\n'))))
        .sum()
}

/// Why the scanner stopped inside a game: where and what.
struct Stop<E> {
    at: u64,
    kind: PgnErrorKind<E>,
}

/// How a comment scan ended. Offsets are relative to the scanner position at the end.
enum CommentEnd {
    /// At the `}`, this many bytes ahead.
    Closed(usize),
    /// Not closed: the input ends, or a tag pair starts a line, this many bytes ahead.
    Unclosed(usize),
    /// Longer than [`MAX_COMMENT_LEN`].
    TooLong,
}

/// Where a movetext ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum End {
    /// At the `)` closing the variation being skipped.
    Closed,
    /// After a game termination marker.
    Result,
    /// At the next game's tags, or at the end of the input.
    Cut,
}

/// Which part of a game the scanner is in, to know how to skip the rest after an error.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Phase {
    Tags,
    Movetext,
}

/// The scanner over a source.
pub(crate) struct Parser<S> {
    src: S,
    /// The read position in `src.buf()`.
    pos: usize,
    /// Games started, the current one included.
    games: u64,
    /// The input offset where the current game starts.
    game_start: u64,
    lines: Lines,
    phase: Phase,
    /// How many variations were open when an error stopped the movetext.
    depth: usize,
    sans: SanCache,
    /// No more games: the input ended or could not be read.
    finished: bool,
    limits: Limits,
    /// Tags and moves read in the current game.
    tags: usize,
    moves: usize,
}

impl<S: Source> Parser<S> {
    fn new(src: S, limits: Limits) -> Parser<S> {
        Parser {
            limits,
            tags: 0,
            moves: 0,
            src,
            pos: 0,
            games: 0,
            game_start: 0,
            lines: Lines::new(),
            phase: Phase::Tags,
            depth: 0,
            sans: SanCache::default(),
            finished: false,
        }
    }

    #[inline]
    fn abs(&self, index: usize) -> u64 {
        self.src.base() + index as u64
    }

    /// Makes `want` bytes available from `pos` if the input has them; says whether it does.
    #[inline]
    fn fill(&mut self, want: usize) -> bool {
        if self.src.buf().len().saturating_sub(self.pos) >= want {
            return true;
        }
        if !S::STREAMING || self.src.exhausted() {
            return false;
        }
        self.refill(want)
    }

    #[cold]
    #[inline(never)]
    fn refill(&mut self, want: usize) -> bool {
        // Keep the byte before `pos`, to know whether `pos` starts a line.
        let keep = self.pos.saturating_sub(1);
        self.lines.count_to(self.src.buf(), self.src.base(), keep);
        self.src.refill(keep, self.pos - keep + want);
        self.pos -= keep;
        self.src.buf().len().saturating_sub(self.pos) >= want
    }

    /// Whether `pos` is at the start of a line (or of the input, after a byte order mark).
    fn at_line_start(&self) -> bool {
        match self.pos.checked_sub(1).and_then(|i| self.src.buf().get(i)) {
            None | Some(b'\n') => true,
            Some(_) => {
                self.src.base() == 0 && self.pos == BOM.len() && self.src.buf().starts_with(BOM)
            }
        }
    }

    /// Skips white space; returns the next byte, or `None` at the end of the input.
    #[inline]
    fn skip_space(&mut self) -> Option<u8> {
        self.skip_movetext_space().0
    }

    /// Skips white space; returns the next byte (`None` at the end of the input) and whether
    /// the white space held a blank line (two line breaks): in movetext, a movetext that starts
    /// again at move 1 after one is a new game.
    #[inline]
    fn skip_movetext_space(&mut self) -> (Option<u8>, bool) {
        let mut breaks = 0u32;
        loop {
            let buf = self.src.buf();
            let mut i = self.pos;
            while let Some(&b) = buf.get(i) {
                if !is_space(b) {
                    self.pos = i;
                    return (Some(b), breaks >= 2);
                }
                breaks += u32::from(b == b'\n');
                i += 1;
            }
            self.pos = i;
            if !self.fill(1) {
                return (None, false);
            }
        }
    }

    /// Whether a new game starts after the line break just before `pos`: the rest of its line is
    /// blank, and after any more white space the movetext starts again at move 1 (`1.`). Games
    /// with no result marker are often separated this way. Moves `pos` over the white space.
    fn restarts_after_break(&mut self) -> bool {
        let mut blank = false;
        while self.fill(2) {
            let rest = self.src.buf().get(self.pos..).unwrap_or_default();
            match rest.first() {
                Some(b'\n') => blank = true,
                Some(&b) if is_space(b) => {}
                Some(b'1') if blank => return rest.get(1) == Some(&b'.'),
                _ => return false,
            }
            self.pos += 1;
        }
        false
    }

    /// Skips to the start of the next line (or the end of the input).
    fn skip_line(&mut self) {
        loop {
            let buf = self.src.buf();
            if let Some(i) = memchr(b'\n', buf.get(self.pos..).unwrap_or_default()) {
                self.pos += i + 1;
                return;
            }
            self.pos = buf.len();
            if !self.fill(1) {
                return;
            }
        }
    }

    /// Whether the bytes at `pos` are a byte order mark.
    fn at_bom(&mut self) -> bool {
        self.fill(BOM.len());
        self.src.buf().get(self.pos..).is_some_and(|rest| rest.starts_with(BOM))
    }

    /// Skips what lies between games: white space, byte order marks, `%` lines, `;` comments
    /// and lines that cannot start a game. Returns whether a game starts at `pos`.
    fn find_game(&mut self) -> bool {
        loop {
            let Some(b) = self.skip_space() else { return false };
            if b == BOM[0] && self.at_bom() {
                self.pos += BOM.len();
                continue;
            }
            if b == b'['
                || b == b'{'
                || b == b'('
                || b == b'$'
                || b == b'*'
                || b.is_ascii_alphanumeric()
            {
                return true;
            }
            self.skip_line();
        }
    }

    /// Reads the next game into `visitor`.
    pub(crate) fn read_game<V: Visitor>(
        &mut self,
        visitor: &mut V,
    ) -> Option<Result<V::Output, PgnError<V::Error>>> {
        if self.finished {
            return None;
        }
        if !self.find_game() {
            self.finished = true;
            let err = self.src.take_error()?;
            self.games += 1;
            return Some(Err(self.io_error(err)));
        }
        self.games += 1;
        self.game_start = self.abs(self.pos);
        visitor.begin_game();
        match self.game(visitor) {
            Ok(end) => {
                if end != End::Result {
                    if let Some(err) = self.src.take_error() {
                        // The game may have been cut short by the read error.
                        self.finished = true;
                        return Some(Err(self.io_error(err)));
                    }
                }
                Some(Ok(visitor.end_game()))
            }
            Err(Stop { at, kind }) => {
                let err = self.error_at(at, kind);
                self.recover();
                Some(Err(err))
            }
        }
    }

    fn io_error<E>(&mut self, err: io::Error) -> PgnError<E> {
        let at = self.abs(self.pos);
        self.error_at(at, PgnErrorKind::Io(err))
    }

    fn error_at<E>(&mut self, at: u64, kind: PgnErrorKind<E>) -> PgnError<E> {
        let base = self.src.base();
        let upto = usize::try_from(at.saturating_sub(base)).unwrap_or(usize::MAX);
        self.lines.count_to(self.src.buf(), base, upto.min(self.src.buf().len()));
        PgnError {
            game: self.games,
            line: self.lines.line,
            column: at.saturating_sub(self.lines.line_start) + 1,
            offset: at,
            kind,
        }
    }

    fn syntax<E>(&self, index: usize, kind: PgnErrorKind<E>) -> Stop<E> {
        Stop { at: self.abs(index), kind }
    }

    fn game<V: Visitor>(&mut self, v: &mut V) -> Result<End, Stop<V::Error>> {
        self.phase = Phase::Tags;
        (self.tags, self.moves) = (0, 0);
        self.tags(v)?;
        self.phase = Phase::Movetext;
        if v.begin_movetext().0 {
            return Ok(self.skip_movetext(0, false));
        }
        let mut depth = 0;
        let end = self.movetext(v, &mut depth);
        if end.is_err() {
            self.depth = depth;
        }
        end
    }

    fn tags<V: Visitor>(&mut self, v: &mut V) -> Result<(), Stop<V::Error>> {
        let mut event = false;
        loop {
            let Some(b) = self.skip_space() else { return Ok(()) };
            match b {
                b'[' => {
                    self.check_game_len(self.pos)?;
                    if !self.tag(v, &mut event)? {
                        return Ok(());
                    }
                }
                b'%' if self.at_line_start() => self.skip_line(),
                b';' => self.skip_line(),
                _ => return Ok(()),
            }
        }
    }

    /// Reads the tag pair at `pos`. Returns `false`, reading nothing, if it is a second `Event`
    /// tag (`event` says whether the game has one): the start of the next game.
    fn tag<V: Visitor>(&mut self, v: &mut V, event: &mut bool) -> Result<bool, Stop<V::Error>> {
        let mut want = TAG_PROBE;
        loop {
            self.fill(want);
            let buf = self.src.buf().get(self.pos..).unwrap_or_default();
            let eof = !S::STREAMING || self.src.exhausted();
            match parse_tag(buf, eof) {
                Ok((name, value, end)) => {
                    let name = buf.get(name).unwrap_or_default();
                    if name == b"Event" {
                        if *event {
                            return Ok(false);
                        }
                        *event = true;
                    }
                    if end > self.limits.tag_len {
                        let limit = self.limits.tag_len;
                        return Err(self.syntax(self.pos, PgnErrorKind::TagTooLong { limit }));
                    }
                    self.tags += 1;
                    if self.tags > self.limits.tags {
                        let limit = self.limits.tags;
                        return Err(self.syntax(self.pos, PgnErrorKind::TooManyTags { limit }));
                    }
                    let value = RawTag(buf.get(value).unwrap_or_default());
                    let result = v.tag(name, value);
                    let at = self.pos;
                    self.pos += end;
                    return match result {
                        Ok(()) => Ok(true),
                        Err(err) => Err(self.syntax(at, PgnErrorKind::Visitor(err))),
                    };
                }
                Err(TagFail::Incomplete) if buf.len() > self.limits.tag_len => {
                    let limit = self.limits.tag_len;
                    return Err(self.syntax(self.pos, PgnErrorKind::TagTooLong { limit }));
                }
                Err(TagFail::Incomplete) => want = buf.len() + TAG_PROBE,
                Err(TagFail::Bad(i, kind)) => {
                    return Err(self.syntax(self.pos + i, PgnErrorKind::Tag(kind)));
                }
            }
        }
    }

    /// Reads movetext to the end of the game; `depth` is the number of variations open.
    fn movetext<V: Visitor>(
        &mut self,
        v: &mut V,
        depth: &mut usize,
    ) -> Result<End, Stop<V::Error>> {
        let end = loop {
            let (Some(b), blank) = self.skip_movetext_space() else { break End::Cut };
            if blank && *depth == 0 && b == b'1' {
                // After a blank line, a movetext that starts again at move 1 is the next game.
                self.fill(2);
                if self.src.buf().get(self.pos + 1) == Some(&b'.') {
                    break End::Cut;
                }
            }
            if S::STREAMING {
                self.fill(LOOKAHEAD);
            }
            let start = self.pos;
            self.check_game_len(start)?;
            let buf = self.src.buf();
            match b {
                b'a'..=b'z' | b'A'..=b'Z' | b'-' => self.san(v, start)?,
                b'0'..=b'9' => {
                    let rest = buf.get(start..).unwrap_or_default();
                    if let Some((result, len)) = match_result(rest) {
                        self.pos = start + len;
                        if *depth == 0 {
                            v.outcome(result);
                            return Ok(End::Result);
                        }
                    } else if rest.starts_with(b"0-0") {
                        self.san(v, start)?;
                    } else {
                        let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
                        if digits > MAX_TOKEN_LEN {
                            return Err(self.syntax(start, PgnErrorKind::TokenTooLong));
                        }
                        self.pos = start + digits;
                    }
                }
                b'.' => {
                    let rest = buf.get(start..).unwrap_or_default();
                    self.pos = start + rest.iter().take_while(|&&b| b == b'.').count();
                }
                b'{' => self.comment(v)?,
                b'(' => {
                    if *depth >= self.limits.variation_depth {
                        let limit = self.limits.variation_depth;
                        return Err(self.syntax(start, PgnErrorKind::TooDeep { limit }));
                    }
                    self.pos = start + 1;
                    if v.begin_variation().0 {
                        if self.skip_movetext(0, true) != End::Closed {
                            break End::Cut;
                        }
                    } else {
                        *depth += 1;
                    }
                }
                b')' => {
                    if *depth == 0 {
                        return Err(self.syntax(start, PgnErrorKind::UnmatchedParenthesis));
                    }
                    *depth -= 1;
                    self.pos = start + 1;
                    v.end_variation();
                }
                b'$' => {
                    let rest = buf.get(start..).unwrap_or_default();
                    let digits = rest.iter().skip(1).take(MAX_TOKEN_LEN);
                    let len = 1 + digits.take_while(|b| b.is_ascii_digit()).count();
                    let token = rest.get(..len).unwrap_or_default();
                    let nag = Nag::from_ascii(token)
                        .map_err(|_| self.syntax(start, PgnErrorKind::InvalidNag(lossy(token))))?;
                    self.pos = start + len;
                    v.nag(nag);
                }
                b'!' | b'?' => {
                    let rest = buf.get(start..).unwrap_or_default();
                    let marks = rest.iter().take(MAX_TOKEN_LEN);
                    let len = marks.take_while(|&&b| b == b'!' || b == b'?').count();
                    let token = rest.get(..len).unwrap_or_default();
                    let nag = Nag::from_suffix(token).ok_or_else(|| {
                        self.syntax(start, PgnErrorKind::InvalidNag(lossy(token)))
                    })?;
                    self.pos = start + len;
                    v.nag(nag);
                }
                b'*' => {
                    self.pos = start + 1;
                    if *depth == 0 {
                        v.outcome(GameResult::Unknown);
                        return Ok(End::Result);
                    }
                }
                b';' => self.line_comment(v)?,
                b'%' if self.at_line_start() => self.skip_line(),
                b',' => self.pos = start + 1,
                b'[' => break End::Cut,
                _ => return Err(self.syntax(start, PgnErrorKind::UnexpectedByte(b))),
            }
        };
        for _ in 0..*depth {
            v.end_variation();
        }
        Ok(end)
    }

    /// An error if the game has gone on past [`Limits::game_len`] at `index`.
    #[inline(always)]
    fn check_game_len<E>(&self, index: usize) -> Result<(), Stop<E>> {
        let limit = self.limits.game_len;
        if self.abs(index).saturating_sub(self.game_start) > limit {
            return Err(self.syntax(index, PgnErrorKind::GameTooLong { limit }));
        }
        Ok(())
    }

    /// Reads the move token at `start` and hands it to the visitor.
    #[inline(always)]
    fn san<V: Visitor>(&mut self, v: &mut V, start: usize) -> Result<(), Stop<V::Error>> {
        self.moves += 1;
        if self.moves > self.limits.moves {
            let limit = self.limits.moves;
            return Err(self.syntax(start, PgnErrorKind::TooManyMoves { limit }));
        }
        let buf = self.src.buf();
        // The fast path: the token ends at a common terminator within 8 bytes and is a common
        // SAN form (which has only SAN bytes, so the terminator found is the token's end).
        if let Some((word, len)) = quick_token(buf, start) {
            if let Some(san) = self.sans.get(word, len) {
                self.pos = start + len;
                return v.san(san).map_err(|err| self.syntax(start, PgnErrorKind::Visitor(err)));
            }
        }
        let end = token_end(buf, start);
        let token = buf.get(start..end).unwrap_or_default();
        if token.len() > MAX_TOKEN_LEN {
            return Err(self.syntax(start, PgnErrorKind::TokenTooLong));
        }
        match SanPlus::from_ascii(token) {
            Ok(san) => {
                self.pos = end;
                v.san(san).map_err(|err| self.syntax(start, PgnErrorKind::Visitor(err)))
            }
            Err(error) => {
                Err(self.syntax(start, PgnErrorKind::InvalidSan { token: lossy(token), error }))
            }
        }
    }

    /// Reads the `{...}` comment at `pos`.
    fn comment<V: Visitor>(&mut self, v: &mut V) -> Result<(), Stop<V::Error>> {
        // Most comments are short and on one line (`{ [%clk 0:03:00] }`): look for the end in
        // the next few words first.
        let buf = self.src.buf();
        let near = buf.len().min(self.pos + 1 + 32);
        if let Some(end) = find_in_words(buf, self.pos + 1, near, [b'}', b'\n']) {
            if buf.get(end) == Some(&b'}') && end - self.pos <= self.limits.comment_len + 1 {
                v.comment(RawComment(buf.get(self.pos + 1..end).unwrap_or_default()));
                self.pos = end + 1;
                return Ok(());
            }
        }
        let at = self.abs(self.pos);
        match self.scan_comment(true) {
            CommentEnd::Closed(close) => {
                let buf = self.src.buf();
                let text = buf.get(self.pos + 1..self.pos + close).unwrap_or_default();
                v.comment(RawComment(text));
                self.pos += close + 1;
                Ok(())
            }
            CommentEnd::Unclosed(resume) => {
                self.pos += resume;
                Err(Stop { at, kind: PgnErrorKind::UnclosedComment })
            }
            CommentEnd::TooLong => Err(Stop {
                at,
                kind: PgnErrorKind::CommentTooLong { limit: self.limits.comment_len },
            }),
        }
    }

    /// Finds the end of the `{...}` comment at `pos`. With `keep`, `pos` stays at the `{` and
    /// the whole comment stays in the buffer; without, `pos` moves on through it.
    fn scan_comment(&mut self, keep: bool) -> CommentEnd {
        let mut from = 1;
        loop {
            let buf = self.src.buf().get(self.pos..).unwrap_or_default();
            let found = memchr2(b'}', b'\n', buf.get(from..).unwrap_or_default());
            match found {
                Some(k) => {
                    let at = from + k;
                    if keep && at > self.limits.comment_len + 1 {
                        return CommentEnd::TooLong;
                    }
                    if buf.get(at) == Some(&b'}') {
                        return CommentEnd::Closed(at);
                    }
                    let next = buf.get(at + 1..).unwrap_or_default();
                    if next.len() < TAG_PROBE && S::STREAMING && !self.src.exhausted() {
                        // Not enough bytes after the line break to tell whether a tag starts.
                        if keep {
                            from = at;
                        } else {
                            self.pos += at;
                            from = 0;
                        }
                        self.fill(from + 1 + TAG_PROBE);
                        continue;
                    }
                    if starts_tag(next) {
                        return CommentEnd::Unclosed(at + 1);
                    }
                    from = at + 1;
                }
                None => {
                    if keep && buf.len() > self.limits.comment_len + 1 {
                        return CommentEnd::TooLong;
                    }
                    if keep {
                        from = buf.len();
                    } else {
                        self.pos += buf.len();
                        from = 0;
                    }
                    if !self.fill(from + 1) {
                        return CommentEnd::Unclosed(from);
                    }
                }
            }
        }
    }

    /// Reads the `;` comment at `pos`, to the end of its line.
    fn line_comment<V: Visitor>(&mut self, v: &mut V) -> Result<(), Stop<V::Error>> {
        let mut from = 1;
        let (end, next) = loop {
            let buf = self.src.buf().get(self.pos..).unwrap_or_default();
            if let Some(k) = memchr(b'\n', buf.get(from..).unwrap_or_default()) {
                break (from + k, from + k + 1);
            }
            from = buf.len();
            if from > self.limits.comment_len + 1 {
                let limit = self.limits.comment_len;
                return Err(self.syntax(self.pos, PgnErrorKind::CommentTooLong { limit }));
            }
            if !self.fill(from + 1) {
                break (from, from);
            }
        };
        if end > self.limits.comment_len + 1 {
            let limit = self.limits.comment_len;
            return Err(self.syntax(self.pos, PgnErrorKind::CommentTooLong { limit }));
        }
        let buf = self.src.buf();
        let mut text = buf.get(self.pos + 1..self.pos + end).unwrap_or_default();
        if let [rest @ .., b'\r'] = text {
            text = rest;
        }
        v.comment(RawComment(text));
        self.pos += next;
        Ok(())
    }

    /// Skips movetext without reading it, with `depth` variations open: to the end of the
    /// game, or with `in_variation` to the `)` that closes the variation just opened.
    fn skip_movetext(&mut self, mut depth: usize, in_variation: bool) -> End {
        loop {
            if S::STREAMING {
                self.fill(LOOKAHEAD);
            }
            let buf = self.src.buf();
            let len = buf.len();
            let limit =
                if S::STREAMING && !self.src.exhausted() { len.saturating_sub(8) } else { len };
            let mut i = self.pos;
            let mut comment = false;
            let mut line = false;
            let mut blank = false;
            while i < limit {
                let Some(&b) = buf.get(i) else { break };
                if !SKIP_CLASS[b as usize] {
                    i += 1;
                    continue;
                }
                match b {
                    b'{' => {
                        comment = true;
                        break;
                    }
                    b';' => {
                        line = true;
                        break;
                    }
                    b'\n' => {
                        i += 1;
                        match buf.get(i) {
                            Some(b'%') => {
                                line = true;
                                break;
                            }
                            Some(&b) if is_space(b) && depth == 0 && !in_variation => {
                                blank = true;
                                break;
                            }
                            _ => {}
                        }
                    }
                    b'(' => {
                        depth += 1;
                        i += 1;
                    }
                    b')' => {
                        i += 1;
                        if depth > 0 {
                            depth -= 1;
                        } else if in_variation {
                            self.pos = i;
                            return End::Closed;
                        }
                    }
                    b'[' => {
                        self.pos = i;
                        return End::Cut;
                    }
                    b'*' => {
                        i += 1;
                        if depth == 0 && !in_variation {
                            self.pos = i;
                            return End::Result;
                        }
                    }
                    _ => {
                        // '0' or '1': a result if it starts a token.
                        if depth == 0 && !in_variation && token_starts_at(buf, i) {
                            if let Some((_, n)) = match_result(buf.get(i..).unwrap_or_default()) {
                                self.pos = i + n;
                                return End::Result;
                            }
                        }
                        i += 1;
                    }
                }
            }
            self.pos = i;
            if comment {
                match self.scan_comment(false) {
                    CommentEnd::Closed(close) => self.pos += close + 1,
                    CommentEnd::Unclosed(resume) => {
                        self.pos += resume;
                        return End::Cut;
                    }
                    // Not returned without `keep`; step over the brace all the same.
                    CommentEnd::TooLong => self.pos += 1,
                }
            } else if line {
                self.skip_line();
            } else if blank {
                if self.restarts_after_break() {
                    return End::Cut;
                }
                if self.at_line_start() && self.src.buf().get(self.pos) == Some(&b'%') {
                    self.skip_line();
                }
            } else if i >= len && !self.fill(1) {
                return End::Cut;
            }
        }
    }

    /// Skips the rest of a game after an error.
    fn recover(&mut self) {
        if self.phase == Phase::Tags {
            // Skip the bad tag (to its `]` or the end of its line) and the tags after it.
            loop {
                self.skip_tag();
                if self.skip_space() != Some(b'[') {
                    break;
                }
                self.fill(TAG_PROBE);
                let rest = self.src.buf().get(self.pos..).unwrap_or_default();
                if rest.starts_with(b"[Event ") || rest.starts_with(b"[Event\t") {
                    return;
                }
            }
            self.depth = 0;
        }
        self.skip_movetext(self.depth, false);
    }

    /// Skips to after the next `]` on this line, or to the next line.
    fn skip_tag(&mut self) {
        loop {
            let buf = self.src.buf();
            let rest = buf.get(self.pos..).unwrap_or_default();
            if let Some(i) = memchr2(b']', b'\n', rest) {
                self.pos += i + 1;
                return;
            }
            self.pos = buf.len();
            if !self.fill(1) {
                return;
            }
        }
    }
}

const BOM: &[u8] = b"\xef\xbb\xbf";

#[inline]
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// Bytes a move token is made of: letters, digits and `-+#=:@/`.
const SAN_CLASS: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric()
            || matches!(c, b'-' | b'+' | b'#' | b'=' | b':' | b'@' | b'/');
        b += 1;
    }
    table
};

/// Bytes the movetext skipper must look at: `{ ; \n ( ) [ * 0 1`.
const SKIP_CLASS: [bool; 256] = {
    let mut table = [false; 256];
    let special = b"{;\n()[*01";
    let mut i = 0;
    while i < special.len() {
        table[special[i] as usize] = true;
        i += 1;
    }
    table
};

/// The end of the move token starting at `start`.
#[inline]
fn token_end(buf: &[u8], start: usize) -> usize {
    let mut end = start + 1;
    while let Some(&b) = buf.get(end) {
        if !SAN_CLASS[b as usize] {
            break;
        }
        end += 1;
    }
    end
}

/// The high bit of each byte of `word` equal to `c` (the lowest one flagged is always right;
/// above it a borrow may flag another).
#[inline(always)]
fn bytes_equal(word: u64, c: u8) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let x = word ^ (ONES * c as u64);
    x.wrapping_sub(ONES) & !x & HIGHS
}

/// The first index from `from` where `buf` holds one of the bytes in `set`, looking at the
/// 8-byte words that fit before `limit` (at most `buf.len()`); `None` if no word there holds
/// one (bytes past the last whole word are not looked at).
#[inline(always)]
fn find_in_words<const N: usize>(
    buf: &[u8],
    from: usize,
    limit: usize,
    set: [u8; N],
) -> Option<usize> {
    let mut i = from;
    while i + 8 <= limit {
        let bytes: [u8; 8] = buf.get(i..i + 8)?.try_into().ok()?;
        let word = u64::from_le_bytes(bytes);
        let hits = set.iter().fold(0, |hits, &c| hits | bytes_equal(word, c));
        if hits != 0 {
            return Some(i + (hits.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    None
}

/// The 8 bytes at `start` as a little-endian word, and the length of the token they start if
/// it ends within them at white space, `!`, `?`, `(`, `)`, `{` or `}`. This is found with a few
/// word operations instead of a byte loop whose exit the processor cannot predict. Every such
/// byte ends a move token, so the true end is never later; it is earlier only if a byte before
/// is not a SAN byte either, which [`fast_san`] then rejects.
#[inline]
fn quick_token(buf: &[u8], start: usize) -> Option<(u64, usize)> {
    let bytes: [u8; 8] = buf.get(start..start + 8)?.try_into().ok()?;
    let word = u64::from_le_bytes(bytes);
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // The high bit of each byte below `n` (the lowest one flagged is always right).
    let below = |n: u64| word.wrapping_sub(ONES * n) & !word & HIGHS;
    let equal = |c: u8| {
        let x = word ^ (ONES * c as u64);
        x.wrapping_sub(ONES) & !x & HIGHS
    };
    let ends = below(0x22) | equal(b'(') | equal(b')') | equal(b'?') | equal(b'{') | equal(b'}');
    if ends == 0 {
        return None;
    }
    Some((word, (ends.trailing_zeros() / 8) as usize))
}

/// The moves read last, by their text: most games use a few thousand distinct move tokens,
/// and looking one up costs less than reading it again.
///
/// It starts small, so that reading one short game costs little, and grows (to 8,192 slots,
/// 128 KiB) as misses show that more distinct tokens come by.
#[derive(Default)]
struct SanCache {
    /// Direct-mapped on a hash of the key; the key is the token's bytes with its length in the
    /// top byte (tokens here are at most 7 bytes), 0 for an empty slot.
    slots: Vec<(u64, SanPlus)>,
    /// `64 - log2(slots.len())`.
    shift: u32,
    /// Misses since the cache last grew.
    misses: usize,
}

impl SanCache {
    const FIRST_BITS: u32 = 8;
    const MAX_BITS: u32 = 13;

    /// The slot of `key` for the current size.
    #[inline(always)]
    fn slot(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (self.shift & 63)) as usize
    }

    /// The move of the token of `len` bytes (at most 7) at the start of `word`, if
    /// [`fast_san`] reads it.
    #[inline(always)]
    fn get(&mut self, word: u64, len: usize) -> Option<SanPlus> {
        let key = (word & ((1u64 << (8 * (len & 7))) - 1)) | ((len as u64) << 56);
        if let Some(&(k, san)) = self.slots.get(self.slot(key)) {
            if k == key {
                return Some(san);
            }
        }
        self.miss(key, word, len)
    }

    /// Reads a token not in the cache, and caches it.
    #[cold]
    #[inline(never)]
    fn miss(&mut self, key: u64, word: u64, len: usize) -> Option<SanPlus> {
        let san = fast_san(word, len)?;
        self.misses += 1;
        let bits = 64 - self.shift;
        if self.slots.is_empty() || (self.misses > self.slots.len() && bits < Self::MAX_BITS) {
            let bits = if self.slots.is_empty() {
                Self::FIRST_BITS
            } else {
                (bits + 2).min(Self::MAX_BITS)
            };
            self.slots = vec![(0, SanPlus { san: San::Null, suffix: None }); 1 << bits];
            self.shift = 64 - bits;
            self.misses = 0;
        }
        let slot = self.slot(key);
        if let Some(entry) = self.slots.get_mut(slot) {
            *entry = (key, san);
        }
        Some(san)
    }
}

/// What a byte can be in a SAN token, for [`fast_san`]: a file index + 1 (1..8) in the low
/// nibble, a rank index + 1 in the high nibble. Piece letters are in [`PIECE_OF`].
const SQUARE_PART: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut i = 0;
    while i < 8 {
        table[b'a' as usize + i] = i as u8 + 1;
        table[b'1' as usize + i] = (i as u8 + 1) << 4;
        i += 1;
    }
    table
};

/// The role index (1..5) of a piece letter `NBRQK`, 0 for any other byte.
const PIECE_OF: [u8; 256] = {
    let mut table = [0u8; 256];
    table[b'N' as usize] = 1;
    table[b'B' as usize] = 2;
    table[b'R' as usize] = 3;
    table[b'Q' as usize] = 4;
    table[b'K' as usize] = 5;
    table
};

/// The common SAN forms, read from the token's bytes in `word` (`len` of them) without the
/// general parser: `e4`, `exd5`, `Nf3`, `Nxf3`, `Nbd2`, `R1e2`, `Rfxe1`, `e8=Q`, `exd8=Q`,
/// `O-O`, `O-O-O`, each with an optional `+` or `#`. Anything else is `None`, for
/// [`SanPlus::from_ascii`] to read (or reject); what this reads, it reads as that does.
#[inline]
fn fast_san(word: u64, len: usize) -> Option<SanPlus> {
    // Branches only where the answer is nearly always the same; the choices that vary from
    // move to move (pawn or piece, capture or not, a disambiguation or not) are computed.
    if !(1..=7).contains(&len) {
        return None;
    }
    let byte = |i: usize| (word >> (8 * (i & 7))) as u8;
    let last = byte(len - 1);
    let (check, mate) = (last == b'+', last == b'#');
    let suffix = if check {
        Some(Suffix::Check)
    } else if mate {
        Some(Suffix::Checkmate)
    } else {
        None
    };
    let mut n = len - usize::from(check | mate);
    if byte(0) == b'O' {
        let side = match (n, word & 0xff_ffff_ffff) {
            (3, w) if w & 0xff_ffff == 0x4f_2d4f => CastlingSide::KingSide,
            (5, 0x4f_2d4f_2d4f) => CastlingSide::QueenSide,
            _ => return None,
        };
        return Some(SanPlus { san: San::Castle(side), suffix });
    }
    let mut promotion = None;
    if n >= 4 && byte(n - 2) == b'=' {
        let role = PIECE_OF[byte(n - 1) as usize];
        if role == 0 || role == 5 {
            return None;
        }
        promotion = Role::from_index(role);
        n -= 2;
    }
    // The destination is the last two bytes; before it come the piece letter (none for a
    // pawn), a file or a rank, and `x`.
    let f = SQUARE_PART[byte(n.wrapping_sub(2)) as usize] & 0x0f;
    let r = SQUARE_PART[byte(n.wrapping_sub(1)) as usize] >> 4;
    let piece = PIECE_OF[byte(0) as usize];
    let skip = usize::from(piece != 0);
    let between = n.wrapping_sub(2 + skip);
    let capture =
        (between.wrapping_sub(1) < 3) & (byte(skip.wrapping_add(between).wrapping_sub(1)) == b'x');
    let from = between.wrapping_sub(usize::from(capture));
    let part = SQUARE_PART[byte(skip) as usize];
    let file = if from == 1 { part & 0x0f } else { 0 };
    let rank = if from == 1 { (part >> 4) * u8::from(file == 0) } else { 0 };
    let pawn_ok = (between == 0) | (capture & (file != 0));
    let ok = (n >= 2 + skip)
        & (f != 0)
        & (r != 0)
        & (from <= 1)
        & ((from == 0) | (part != 0))
        & if piece == 0 { pawn_ok } else { promotion.is_none() };
    if !ok {
        return None;
    }
    let san = San::Normal {
        role: Role::from_index(piece).unwrap_or(Role::Pawn),
        file: File::from_index(file.wrapping_sub(1)),
        rank: Rank::from_index(rank.wrapping_sub(1)),
        capture,
        to: Square::from_coords(File::new(u32::from(f) - 1), Rank::new(u32::from(r) - 1)),
        promotion,
    };
    Some(SanPlus { san, suffix })
}

/// Whether a token can start at `i`: the byte before is white space or ends a token.
fn token_starts_at(buf: &[u8], i: usize) -> bool {
    match i.checked_sub(1).and_then(|p| buf.get(p)) {
        None => true,
        Some(&b) => is_space(b) || matches!(b, b'(' | b')' | b'}' | b'.' | b',' | b'!' | b'?'),
    }
}

/// The game termination marker at the start of `rest`, with its length: `1-0`, `0-1`,
/// `1/2-1/2`, or `1/2` (read as a draw), not followed by a byte of a move token.
fn match_result(rest: &[u8]) -> Option<(GameResult, usize)> {
    let (result, len) = if rest.starts_with(b"1-0") {
        (GameResult::WhiteWins, 3)
    } else if rest.starts_with(b"0-1") {
        (GameResult::BlackWins, 3)
    } else if rest.starts_with(b"1/2-1/2") {
        (GameResult::Draw, 7)
    } else if rest.starts_with(b"1/2") {
        (GameResult::Draw, 3)
    } else {
        return None;
    };
    match rest.get(len) {
        Some(&b) if SAN_CLASS[b as usize] => None,
        _ => Some((result, len)),
    }
}

/// Whether `line` starts with a tag pair: `[`, a name starting with a letter, blanks, `"`.
fn starts_tag(line: &[u8]) -> bool {
    let [b'[', first, rest @ ..] = line else { return false };
    if !first.is_ascii_alphabetic() {
        return false;
    }
    let name = rest.iter().take_while(|&&b| b.is_ascii_alphanumeric() || b == b'_').count();
    let rest = rest.get(name..).unwrap_or_default();
    let blanks = rest.iter().take_while(|&&b| b == b' ' || b == b'\t').count();
    blanks > 0 && rest.get(blanks) == Some(&b'"')
}

/// Why a tag pair could not be read (yet).
enum TagFail {
    /// The buffer ends before the tag does.
    Incomplete,
    /// The tag is malformed at this offset.
    Bad(usize, TagError),
}

/// Parses the tag pair at the start of `b` (which starts with `[`): the name and raw value
/// ranges and the offset after the `]`.
#[allow(clippy::type_complexity, reason = "a private helper's plain tuple")]
fn parse_tag(
    b: &[u8],
    eof: bool,
) -> Result<(core::ops::Range<usize>, core::ops::Range<usize>, usize), TagFail> {
    let missing = |i: usize, kind| if eof { TagFail::Bad(i, kind) } else { TagFail::Incomplete };
    let blanks = |mut i: usize| {
        while matches!(b.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        i
    };
    let mut i = blanks(1);
    let name_start = i;
    while let Some(&c) = b.get(i) {
        if is_space(c) || matches!(c, b'"' | b']' | b'[') {
            break;
        }
        i += 1;
    }
    if i >= b.len() {
        return Err(missing(i, TagError::MissingName));
    }
    if i == name_start {
        return Err(TagFail::Bad(i, TagError::MissingName));
    }
    let name = name_start..i;
    i = blanks(i);
    match b.get(i) {
        Some(b'"') => i += 1,
        None => return Err(missing(i, TagError::MissingValue)),
        Some(_) => return Err(TagFail::Bad(i, TagError::MissingValue)),
    }
    let value_start = i;
    loop {
        // Skip the plain bytes a word at a time.
        if let Some(next) = find_in_words(b, i, b.len(), [b'"', b'\\', b'\n', b'\r']) {
            i = next;
        }
        match b.get(i) {
            Some(b'"') => {
                // The value ends at a quote followed by `]`; any other quote is part of it.
                let after = blanks(i + 1);
                match b.get(after) {
                    Some(b']') => return Ok((name, value_start..i, after + 1)),
                    Some(b'\n' | b'\r') => {
                        return Err(TagFail::Bad(after, TagError::MissingBracket))
                    }
                    None => return Err(missing(after, TagError::MissingBracket)),
                    Some(_) => i += 1,
                }
            }
            Some(b'\\') => {
                if matches!(b.get(i + 1), Some(b'\n' | b'\r')) {
                    return last_close(b, name, value_start, i + 1)
                        .ok_or(TagFail::Bad(i + 1, TagError::UnterminatedValue));
                }
                i += 2;
            }
            Some(b'\n' | b'\r') => {
                return last_close(b, name, value_start, i)
                    .ok_or(TagFail::Bad(i, TagError::UnterminatedValue))
            }
            Some(_) => i += 1,
            None if eof => {
                return last_close(b, name, value_start, b.len())
                    .ok_or(TagFail::Bad(b.len(), TagError::UnterminatedValue))
            }
            None => return Err(TagFail::Incomplete),
        }
    }
}

/// The recovery for a tag value whose line ends before its closing quote: the value ends at
/// the last `"` of the line (before `line_end`) that blanks and a `]` follow, as other readers
/// take it. A value that ends in a backslash (`[Event "Ugra Cup \"]`, as some exports write
/// it) reads as escaping its closing quote by the letter of the standard.
#[allow(clippy::type_complexity, reason = "a private helper's plain tuple")]
fn last_close(
    b: &[u8],
    name: core::ops::Range<usize>,
    value_start: usize,
    line_end: usize,
) -> Option<(core::ops::Range<usize>, core::ops::Range<usize>, usize)> {
    let line = b.get(value_start..line_end)?;
    let bracket = memrchr(b']', line)?;
    let before = line.get(..bracket)?.iter().rposition(|&c| c != b' ' && c != b'\t')?;
    (line.get(before) == Some(&b'"'))
        .then(|| (name, value_start..value_start + before, value_start + bracket + 1))
}

/// Bytes decoded for an error message.
fn lossy(bytes: &[u8]) -> String {
    super::annotations::decode_lossy(bytes).into_owned()
}

/// What is wrong with a tag pair.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TagError {
    /// There is no name after the `[`.
    MissingName,
    /// The name is not followed by a value in quotes.
    MissingValue,
    /// The line ends inside the value.
    UnterminatedValue,
    /// The value is not followed by `]` on the same line.
    MissingBracket,
}

impl fmt::Display for TagError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TagError::MissingName => "expected a tag name after '['",
            TagError::MissingValue => "expected a value in quotes after the tag name",
            TagError::UnterminatedValue => "the line ends inside the tag value",
            TagError::MissingBracket => "expected ']' after the tag value",
        })
    }
}

/// What is wrong with a game; see [`PgnError`].
#[derive(Debug)]
#[non_exhaustive]
pub enum PgnErrorKind<E = Infallible> {
    /// The input could not be read. No game follows.
    Io(io::Error),
    /// A tag pair is malformed.
    Tag(TagError),
    /// A tag pair is longer than [`Limits::tag_len`].
    TagTooLong {
        /// The bound, in bytes.
        limit: usize,
    },
    /// A game has more tag pairs than [`Limits::tags`].
    TooManyTags {
        /// The bound.
        limit: usize,
    },
    /// A `{` comment has no `}` before the end of the input or before a line that starts with a
    /// tag pair (which is then read as the next game).
    UnclosedComment,
    /// A comment is longer than [`Limits::comment_len`].
    CommentTooLong {
        /// The bound, in bytes.
        limit: usize,
    },
    /// A token that should be a move is not SAN.
    InvalidSan {
        /// The token.
        token: String,
        /// Why it is not SAN.
        error: ParseSanError,
    },
    /// A movetext token is longer than [`MAX_TOKEN_LEN`].
    TokenTooLong,
    /// A `$` glyph out of range, or a run of `!` and `?` that is not one of the six suffixes.
    InvalidNag(String),
    /// A byte that starts no movetext token.
    UnexpectedByte(u8),
    /// A `)` with no variation open.
    UnmatchedParenthesis,
    /// Variations nested deeper than [`Limits::variation_depth`].
    TooDeep {
        /// The bound, in levels.
        limit: usize,
    },
    /// A game has more moves (variations included) than [`Limits::moves`].
    TooManyMoves {
        /// The bound.
        limit: usize,
    },
    /// A game spans more bytes than [`Limits::game_len`].
    GameTooLong {
        /// The bound, in bytes.
        limit: u64,
    },
    /// The visitor rejected the game (an illegal move, a bad FEN tag...).
    Visitor(E),
}

impl<E: fmt::Display> fmt::Display for PgnErrorKind<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnErrorKind::Io(err) => write!(f, "read error: {err}"),
            PgnErrorKind::Tag(err) => write!(f, "invalid tag: {err}"),
            PgnErrorKind::TagTooLong { limit } => write!(f, "tag longer than {limit} bytes"),
            PgnErrorKind::TooManyTags { limit } => write!(f, "more than {limit} tags"),
            PgnErrorKind::UnclosedComment => f.write_str("comment not closed: '{' without '}'"),
            PgnErrorKind::CommentTooLong { limit } => {
                write!(f, "comment longer than {limit} bytes")
            }
            PgnErrorKind::InvalidSan { token, error } => {
                write!(f, "invalid move {token:?}: {}", error.kind)
            }
            PgnErrorKind::TokenTooLong => write!(f, "token longer than {MAX_TOKEN_LEN} bytes"),
            PgnErrorKind::InvalidNag(token) => write!(f, "invalid annotation {token:?}"),
            PgnErrorKind::UnexpectedByte(b) => {
                write!(f, "unexpected character '{}'", b.escape_ascii())
            }
            PgnErrorKind::UnmatchedParenthesis => f.write_str("')' without a variation to close"),
            PgnErrorKind::TooDeep { limit } => {
                write!(f, "variations nested deeper than {limit} levels")
            }
            PgnErrorKind::TooManyMoves { limit } => write!(f, "more than {limit} moves"),
            PgnErrorKind::GameTooLong { limit } => write!(f, "game longer than {limit} bytes"),
            PgnErrorKind::Visitor(err) => fmt::Display::fmt(err, f),
        }
    }
}

/// A broken game: which game, where, and what is wrong.
///
/// The reader skips the rest of a broken game and goes on with the next one (except after a
/// read error, which ends the input).
///
/// ```
/// use chessbits_pgn::{PgnErrorKind, SliceReader, TagError, Visitor};
///
/// struct Nothing;
/// impl Visitor for Nothing {
///     type Output = ();
///     type Error = core::convert::Infallible;
///     fn end_game(&mut self) {}
/// }
///
/// let pgn = b"1. e4 e5 *\n\n[Event \"x]\n1. d4 *\n\n1. c4 *\n";
/// let mut reader = SliceReader::new(pgn);
/// assert!(reader.read_game(&mut Nothing).unwrap().is_ok());
/// let err = reader.read_game(&mut Nothing).unwrap().unwrap_err();
/// assert!(matches!(err.kind, PgnErrorKind::Tag(TagError::UnterminatedValue)));
/// assert_eq!((err.game, err.line, err.column, err.offset), (2, 3, 11, 22));
/// assert_eq!(err.to_string(), "game 2, line 3, column 11 (byte 22): invalid tag: the line ends inside the tag value");
/// assert!(reader.read_game(&mut Nothing).unwrap().is_ok());
/// assert!(reader.read_game(&mut Nothing).is_none());
/// ```
#[derive(Debug)]
pub struct PgnError<E = Infallible> {
    /// The game number, from 1, counting broken games too.
    pub game: u64,
    /// The line, from 1.
    pub line: u64,
    /// The column in bytes, from 1.
    pub column: u64,
    /// The byte offset in the input, from 0 (a byte order mark included).
    pub offset: u64,
    /// What is wrong.
    pub kind: PgnErrorKind<E>,
}

impl<E: fmt::Display> fmt::Display for PgnError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {}, line {}, column {} (byte {}): {}",
            self.game, self.line, self.column, self.offset, self.kind
        )
    }
}

/// The source is the read error or the SAN syntax error; a visitor's error is in
/// [`PgnError::kind`] (its type need not be an `Error`).
impl<E: fmt::Debug + fmt::Display> std::error::Error for PgnError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            PgnErrorKind::Io(err) => Some(err),
            PgnErrorKind::InvalidSan { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// The methods the two readers share.
macro_rules! reader_methods {
    () => {
        /// Reads the next game into `visitor` and returns what [`Visitor::end_game`] made of it.
        ///
        /// Returns `None` when there are no more games, and `Some(Err(_))` for a broken game,
        /// whose rest is skipped: the next call reads the game after it.
        pub fn read_game<V: Visitor>(
            &mut self,
            visitor: &mut V,
        ) -> Option<Result<V::Output, PgnError<V::Error>>> {
            self.parser.read_game(visitor)
        }

        /// Skips the next game: scans its tags only to find where they end, and passes over its
        /// movetext without reading it. Returns `None` when there are no more games.
        pub fn skip_game(&mut self) -> Option<Result<(), PgnError>> {
            self.parser.read_game(&mut SkipGame)
        }

        /// The byte offset in the input where the last game read (or skipped) starts: its first
        /// tag's `[`, or its first movetext token.
        pub fn game_start(&self) -> u64 {
            self.parser.game_start
        }

        /// How many games were read or skipped, broken ones included.
        pub fn games(&self) -> u64 {
            self.parser.games
        }

        /// The bounds put on each game.
        pub fn limits(&self) -> Limits {
            self.parser.limits
        }
    };
}

/// A streaming PGN reader over any [`Read`] (a file, standard input, a decompressor).
///
/// It reads through its own buffer, so there is no need to wrap the reader in a
/// `BufReader`. The buffer holds the current token, tag or comment and what was read ahead:
/// 64 KiB, growing to about twice [`MAX_COMMENT_LEN`] at most for a very long comment, however
/// large the input. Both readers also keep a cache of the move tokens read last (up to 128
/// KiB).
///
/// ```
/// use chessbits_pgn::{PgnReader, Skip, Visitor};
/// use chessbits_notation::san::SanPlus;
///
/// /// Counts the moves of each mainline.
/// struct Plies(usize);
/// impl Visitor for Plies {
///     type Output = usize;
///     type Error = core::convert::Infallible;
///     fn begin_game(&mut self) { self.0 = 0; }
///     fn san(&mut self, _: SanPlus) -> Result<(), Self::Error> { self.0 += 1; Ok(()) }
///     fn begin_variation(&mut self) -> Skip { Skip(true) }
///     fn end_game(&mut self) -> usize { self.0 }
/// }
///
/// let pgn = "[Event \"a\"]\n\n1. e4 (1. d4 d5) e5 2. Nf3 1-0\n\n1. d4 *\n";
/// let mut reader = PgnReader::new(pgn.as_bytes());
/// let mut plies = Plies(0);
/// assert_eq!(reader.read_game(&mut plies).unwrap()?, 3);
/// assert_eq!(reader.read_game(&mut plies).unwrap()?, 1);
/// assert_eq!(reader.game_start(), 45);
/// assert!(reader.read_game(&mut plies).is_none());
/// # Ok::<_, chessbits_pgn::PgnError>(())
/// ```
pub struct PgnReader<R> {
    parser: Parser<IoSource<R>>,
}

impl<R: Read> PgnReader<R> {
    /// A reader of the games in `reader`, with the default [`Limits`].
    pub fn new(reader: R) -> PgnReader<R> {
        PgnReader::with_limits(reader, Limits::DEFAULT)
    }

    /// A reader of the games in `reader`, each game bounded by `limits`.
    pub fn with_limits(reader: R, limits: Limits) -> PgnReader<R> {
        PgnReader { parser: Parser::new(IoSource::new(reader), limits) }
    }

    reader_methods!();

    /// The inner reader (the bytes buffered but not yet read are lost).
    pub fn into_inner(self) -> R {
        self.parser.src.reader
    }
}

impl<R> fmt::Debug for PgnReader<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PgnReader")
            .field("offset", &(self.parser.src.base + self.parser.pos as u64))
            .field("games", &self.parser.games)
            .finish_non_exhaustive()
    }
}

/// A PGN reader over bytes in memory (a whole file, a memory map): the fast path, with no
/// buffer and no copying.
///
/// It reads exactly as [`PgnReader`] does, game for game and error for error.
pub struct SliceReader<'a> {
    parser: Parser<SliceSource<'a>>,
}

impl<'a> SliceReader<'a> {
    /// A reader of the games in `bytes`, with the default [`Limits`].
    pub fn new(bytes: &'a [u8]) -> SliceReader<'a> {
        SliceReader::with_limits(bytes, Limits::DEFAULT)
    }

    /// A reader of the games in `bytes`, each game bounded by `limits`.
    pub fn with_limits(bytes: &'a [u8], limits: Limits) -> SliceReader<'a> {
        SliceReader { parser: Parser::new(SliceSource { bytes }, limits) }
    }

    reader_methods!();
}

impl fmt::Debug for SliceReader<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SliceReader")
            .field("offset", &self.parser.pos)
            .field("games", &self.parser.games)
            .finish_non_exhaustive()
    }
}

/// The visitor behind `skip_game`.
struct SkipGame;

impl Visitor for SkipGame {
    type Output = ();
    type Error = Infallible;

    fn begin_movetext(&mut self) -> super::visitor::Skip {
        super::visitor::Skip(true)
    }

    fn end_game(&mut self) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::visitor::{RawComment, RawTag, Skip};

    /// Writes every event as text: `[Name=value]`, moves, `$n`, `{comment}`, `(`, `)`, the
    /// result, `|` between tags and movetext.
    #[derive(Default)]
    struct Transcript {
        out: String,
        skip_movetext: bool,
        skip_variations: bool,
    }

    impl Visitor for Transcript {
        type Output = String;
        type Error = Infallible;

        fn begin_game(&mut self) {
            self.out.clear();
        }

        fn tag(&mut self, name: &[u8], value: RawTag<'_>) -> Result<(), Infallible> {
            self.out += &format!("[{}={}] ", lossy(name), value.decode());
            Ok(())
        }

        fn begin_movetext(&mut self) -> Skip {
            self.out += "|";
            Skip(self.skip_movetext)
        }

        fn san(&mut self, san: SanPlus) -> Result<(), Infallible> {
            self.out += &format!(" {san}");
            Ok(())
        }

        fn nag(&mut self, nag: Nag) {
            self.out += &format!(" {nag}");
        }

        fn comment(&mut self, comment: RawComment<'_>) {
            self.out += &format!(" {{{}}}", lossy(comment.0));
        }

        fn begin_variation(&mut self) -> Skip {
            self.out += " (";
            Skip(self.skip_variations)
        }

        fn end_variation(&mut self) {
            self.out += " )";
        }

        fn outcome(&mut self, result: GameResult) {
            self.out += &format!(" {result}");
        }

        fn end_game(&mut self) -> String {
            core::mem::take(&mut self.out)
        }
    }

    /// A reader that hands out at most `chunk` bytes per call.
    struct Trickle<'a> {
        bytes: &'a [u8],
        chunk: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = self.chunk.min(out.len()).min(self.bytes.len());
            let (now, later) = self.bytes.split_at(n);
            out[..n].copy_from_slice(now);
            self.bytes = later;
            Ok(n)
        }
    }

    /// Reads `input` with the slice reader and with the streaming reader at several chunk
    /// sizes; all must agree. Returns one line per game.
    fn read_all_with(input: &[u8], make: impl Fn() -> Transcript) -> Vec<String> {
        let mut starts = Vec::new();
        let mut reader = SliceReader::new(input);
        let mut visitor = make();
        let mut games = Vec::new();
        while let Some(game) = reader.read_game(&mut visitor) {
            starts.push(reader.game_start());
            games.push(match game {
                Ok(text) => text,
                Err(err) => format!("error: {err}"),
            });
        }
        for chunk in [1, 2, 3, 7, 64, 1 << 20] {
            let mut reader = PgnReader::new(Trickle { bytes: input, chunk });
            let mut visitor = make();
            let mut streamed = Vec::new();
            let mut streamed_starts = Vec::new();
            while let Some(game) = reader.read_game(&mut visitor) {
                streamed_starts.push(reader.game_start());
                streamed.push(match game {
                    Ok(text) => text,
                    Err(err) => format!("error: {err}"),
                });
            }
            assert_eq!(streamed, games, "chunk {chunk}, input {:?}", lossy(input));
            assert_eq!(streamed_starts, starts, "chunk {chunk}");
        }
        games
    }

    fn read_all(input: &[u8]) -> Vec<String> {
        read_all_with(input, Transcript::default)
    }

    fn check(input: &str, expected: &[&str]) {
        assert_eq!(read_all(input.as_bytes()), expected, "input {input:?}");
    }

    #[test]
    fn grammar() {
        let cases: &[(&str, &[&str])] = &[
            ("", &[]),
            ("  \n\r\n  ", &[]),
            ("*", &["| *"]),
            ("1. e4 e5 2. Nf3 1-0", &["| e4 e5 Nf3 1-0"]),
            ("[Event \"x\"]\n[Site \"y\"]\n\n1. e4 0-1\n", &["[Event=x] [Site=y] | e4 0-1"]),
            // Move numbers: no space, three dots, stray dots, no dot.
            ("1.e4 1...e5 2. ... Nf3 3 Nc6 *", &["| e4 e5 Nf3 Nc6 *"]),
            ("12.Nf3 12... Nc6 *", &["| Nf3 Nc6 *"]),
            // Results.
            ("e4 1/2-1/2", &["| e4 1/2-1/2"]),
            ("e4 1/2", &["| e4 1/2-1/2"]),
            ("e4 *", &["| e4 *"]),
            // A game ends at its result; the next one may have no tags.
            ("e4 1-0 d4 0-1", &["| e4 1-0", "| d4 0-1"]),
            // No result: the game ends at the next tags or at the end of the input.
            ("e4 e5\n\n[Event \"b\"]\nd4", &["| e4 e5", "[Event=b] | d4"]),
            // Comments, line comments, NAGs and suffixes.
            (
                "e4 {good} e5 ; reply\r\nNf3 $1 Nc6!? *",
                &["| e4 {good} e5 { reply} Nf3 $1 Nc6 $5 *"],
            ),
            ("e4! e5? Nf3!! Nc6?? Bc4!? Bc5?! *", &["| e4 $1 e5 $2 Nf3 $3 Nc6 $4 Bc4 $5 Bc5 $6 *"]),
            ("e4 ! $0 $255 *", &["| e4 $1 $0 $255 *"]),
            ("{multi\nline} e4 *", &["| {multi\nline} e4 *"]),
            ("e4{glued}e5(d5)*", &["| e4 {glued} e5 ( d5 ) *"]),
            // Variations, nested.
            (
                "1. e4 (1. d4 d5 (1... Nf6 2. c4) 2. c4) 1... e5 *",
                &["| e4 ( d4 d5 ( Nf6 c4 ) c4 ) e5 *"],
            ),
            // A result inside a variation is not the end of the game.
            ("e4 (d4 1-0) e5 *", &["| e4 ( d4 ) e5 *"]),
            // Variations left open close at the end of the game.
            ("e4 (d4 (c4", &["| e4 ( d4 ( c4 ) )"]),
            // Null moves, castling with zeros, check marks.
            ("e4 -- Z0 0-0 0-0-0+ O-O# *", &["| e4 -- -- O-O O-O-O+ O-O# *"]),
            // Commas between moves, as some old files have.
            ("1. e4, e5 2. Nf3, Nc6 *", &["| e4 e5 Nf3 Nc6 *"]),
            // Escape lines at the start of a line.
            ("% comment\n[Event \"x\"]\n%skip { ( [\ne4 *", &["[Event=x] | e4 *"]),
            // Tag values: escapes, quotes, `]`, Latin-1 and UTF-8.
            ("[A \"a \\\"b\\\" \\\\ c\"] *", &["[A=a \"b\" \\ c] | *"]),
            ("[A \"x]y\"] [B \"\"] *", &["[A=x]y] [B=] | *"]),
            ("[A \"say \"hi\" now\"] *", &["[A=say \"hi\" now] | *"]),
            ("[White \"Andr\u{e9}\"] *", &["[White=Andr\u{e9}] | *"]),
            ("[A\t  \"b\"  ]*", &["[A=b] | *"]),
            // A blank line between tags does not end them; `;` lines among tags are skipped.
            ("[A \"1\"]\n\n[B \"2\"]\n; note\n[C \"3\"]\ne4 *", &["[A=1] [B=2] [C=3] | e4 *"]),
            // Two blank lines between tags and movetext: still one game.
            ("[A \"1\"]\n\n\n1. e4 *", &["[A=1] | e4 *"]),
            // A game with tags and no movetext, then another: a second Event tag starts a new
            // game. An Event tag after others does not.
            ("[Site \"b\"]\n[Event \"a\"]\n*", &["[Site=b] [Event=a] | *"]),
            (
                "[Event \"a\"]\n[Site \"b\"]\n\n[Event \"c\"]\n*",
                &["[Event=a] [Site=b] |", "[Event=c] | *"],
            ),
            ("[Event \"a\"]\n[Site \"b\"]", &["[Event=a] [Site=b] |"]),
            // Garbage between games is skipped line by line.
            ("e4 *\n}}} junk\n\"\n-----\n\u{e9}t\u{e9}\ne5 *", &["| e4 *", "| e5 *"]),
            // CRLF.
            ("[A \"1\"]\r\n\r\n1. e4 {x}\r\n*\r\n", &["[A=1] | e4 {x} *"]),
        ];
        for (input, expected) in cases {
            check(input, expected);
        }
    }

    #[test]
    fn comments_and_values_of_every_short_length() {
        // Around the word-at-a-time paths' boundaries: ends in and past the words looked at.
        for len in 0..48 {
            let text: String = (0..len).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
            check(&format!("e4 {{{text}}} *"), &[&format!("| e4 {{{text}}} *")]);
            check(&format!("[A \"{text}\"] *"), &[&format!("[A={text}] | *")]);
            let escaped = format!("{text}\\\"{text}");
            check(&format!("[A \"{escaped}\"] *"), &[&format!("[A={text}\"{text}] | *")]);
            check(&format!("e4 {{{text}\n{text}}} *"), &[&format!("| e4 {{{text}\n{text}}} *")]);
        }
    }

    #[test]
    fn byte_order_mark() {
        let input = b"\xef\xbb\xbf[Event \"A\"]\n*\n\n\xef\xbb\xbf[Event \"B\"]\n*";
        let games = read_all(input);
        // Files joined with `cat` have byte order marks between games.
        assert_eq!(games, ["[Event=A] | *", "[Event=B] | *"]);
        assert_eq!(read_all(b"\xef\xbb\xbf% escape\n*"), ["| *"]);
        let mut reader = SliceReader::new(input);
        assert!(reader.read_game(&mut Transcript::default()).is_some());
        assert_eq!(reader.game_start(), 3);
    }

    #[test]
    fn latin1_in_tags_and_comments() {
        let games =
            read_all(b"[White \"Bidjukov\xa0\"]\n[Black \"Quadros,Andr\x82\"]\n1. e4 {caf\xe9} *");
        assert_eq!(games, ["[White=Bidjukov\u{a0}] [Black=Quadros,Andr\u{82}] | e4 {caf\u{e9}} *"]);
    }

    #[test]
    fn skipping() {
        let input =
            "[Event \"a\"]\n1. e4 {x (} (1. d4 {)} (1. c4) d5) e5 *\n\n1. f4 (1. g4 1-0) 0-1";
        let skip_variations = || Transcript { skip_variations: true, ..Transcript::default() };
        assert_eq!(
            read_all_with(input.as_bytes(), skip_variations),
            ["[Event=a] | e4 {x (} ( e5 *", "| f4 ( 0-1"]
        );
        let skip_movetext = || Transcript { skip_movetext: true, ..Transcript::default() };
        assert_eq!(read_all_with(input.as_bytes(), skip_movetext), ["[Event=a] |", "|"]);
        // Skipping finds the same game ends as reading.
        let tricky =
            "e4 ; } 1-0 (\n{ 1-0 ; } *\n%1-0\n e5 e41-0 Nf3! 1-0 d4 1/2-1/2\n[Event \"c\"] *";
        assert_eq!(read_all(tricky.as_bytes()), [
            "| e4 { } 1-0 (} { 1-0 ; } *",
            "error: game 2, line 4, column 5 (byte 34): invalid move \"e41-0\": unexpected '1' after the move",
            "| d4 1/2-1/2",
            "[Event=c] | *",
        ]);
        assert_eq!(read_all_with(tricky.as_bytes(), skip_movetext), ["|", "|", "|", "[Event=c] |"]);
    }

    #[test]
    fn skip_game_and_starts() {
        let input = b"[Event \"a\"]\n1. e4 *\n\n[Event \"b\"]\n1. d4 *\n";
        let mut reader = SliceReader::new(input);
        assert!(matches!(reader.skip_game(), Some(Ok(()))));
        assert_eq!(reader.game_start(), 0);
        assert!(matches!(reader.skip_game(), Some(Ok(()))));
        assert_eq!(reader.game_start(), 21);
        assert!(reader.skip_game().is_none());
        assert_eq!(reader.games(), 2);
    }

    #[test]
    fn errors_and_recovery() {
        let cases: &[(&str, &[&str])] = &[
            (
                "e4 Xe9 e5 *\ne4 *",
                &["error: game 1, line 1, column 4 (byte 3): invalid move \"Xe9\": expected a square such as e4, found 'X'", "| e4 *"],
            ),
            (
                "[Event \"a\"]\n[Site \"b]\n[Date \"c\"]\n1. e4 *\n\n[Event \"d\"] *",
                &["error: game 1, line 2, column 10 (byte 21): invalid tag: the line ends inside the tag value", "[Event=d] | *"],
            ),
            (
                "[Event \"a\"]\n[Site b]\n1. e4 *\n[Event \"d\"] *",
                &["error: game 1, line 2, column 7 (byte 18): invalid tag: expected a value in quotes after the tag name", "[Event=d] | *"],
            ),
            (
                "[ \"a\"] *\n1. d4 *",
                &["error: game 1, line 1, column 3 (byte 2): invalid tag: expected a tag name after '['", "| d4 *"],
            ),
            // A quote not followed by `]` is part of the value; the line after a broken tag
            // section is the broken game's movetext.
            (
                "[A \"a\" x *\n1. d4 *\n1. c4 *",
                &["error: game 1, line 1, column 11 (byte 10): invalid tag: the line ends inside the tag value", "| c4 *"],
            ),
            (
                "[A \"a\"",
                &["error: game 1, line 1, column 7 (byte 6): invalid tag: expected ']' after the tag value"],
            ),
            (
                "1. e4 {never closed\n\n[Event \"b\"]\n1. d4 *",
                &["error: game 1, line 1, column 7 (byte 6): comment not closed: '{' without '}'", "[Event=b] | d4 *"],
            ),
            (
                "1. e4 {never closed",
                &["error: game 1, line 1, column 7 (byte 6): comment not closed: '{' without '}'"],
            ),
            (
                "1. e4 e5) d4 *\n1. c4 *",
                &["error: game 1, line 1, column 9 (byte 8): ')' without a variation to close", "| c4 *"],
            ),
            (
                "1. e4 $256 *\n1. c4 *",
                &["error: game 1, line 1, column 7 (byte 6): invalid annotation \"$256\"", "| c4 *"],
            ),
            (
                "1. e4 !!! *\n1. c4 *",
                &["error: game 1, line 1, column 7 (byte 6): invalid annotation \"!!!\"", "| c4 *"],
            ),
            (
                "1. e4 & *\n1. c4 *",
                &["error: game 1, line 1, column 7 (byte 6): unexpected character '&'", "| c4 *"],
            ),
            (
                "1. e4 \u{e9} *\n1. c4 *",
                &["error: game 1, line 1, column 7 (byte 6): unexpected character '\\xc3'", "| c4 *"],
            ),
            (
                "e4 %x *\n1. c4 *",
                &["error: game 1, line 1, column 4 (byte 3): unexpected character '%'", "| c4 *"],
            ),
            // An error inside a variation skips the rest of the game, variations included.
            (
                "1. e4 (1. d4 Qx) e5 (e6 (d6) 1-0) 0-1\n1. c4 *",
                &["error: game 1, line 1, column 14 (byte 13): invalid move \"Qx\": expected a square such as e4, found the end of the text", "| c4 *"],
            ),
            // Errors count lines across games; the game number counts broken games.
            (
                "e4 *\n\ne5 *\n\n\r\n  e4 Ke9 *\ne4 *",
                &["| e4 *", "| e5 *", "error: game 3, line 6, column 6 (byte 19): invalid move \"Ke9\": expected a rank 1..8 to complete the square, found '9'", "| e4 *"],
            ),
        ];
        for (input, expected) in cases {
            check(input, expected);
        }
    }

    /// The games of `input`, those that read well shortened to "ok".
    fn short(input: &str) -> Vec<String> {
        read_all(input.as_bytes())
            .into_iter()
            .map(
                |game| {
                    if game.starts_with("error") || game.len() < 40 {
                        game
                    } else {
                        "ok".into()
                    }
                },
            )
            .collect()
    }

    #[test]
    fn limits() {
        let deep = "(e4 ".repeat(MAX_VARIATION_DEPTH);
        let games = read_all(format!("d4 {deep} *").as_bytes());
        assert_eq!(games.len(), 1);
        assert!(games[0].ends_with(&" )".repeat(MAX_VARIATION_DEPTH)), "{}", games[0]);
        let games = read_all(format!("d4 {deep}(e4 *\n[Event \"b\"]\n1. c4 *").as_bytes());
        let offset = 3 + 4 * MAX_VARIATION_DEPTH;
        assert_eq!(games, [
            format!("error: game 1, line 1, column {} (byte {offset}): variations nested deeper than 64 levels", offset + 1),
            "[Event=b] | c4 *".to_string(),
        ]);

        let long = "x".repeat(MAX_COMMENT_LEN);
        assert_eq!(short(&format!("e4 {{{long}}} *")), ["ok"]);
        assert_eq!(short(&format!("e4 ;{long}\n*")), ["ok"]);
        let games = short(&format!("e4 {{{long}y}} *\n1. c4 *"));
        assert_eq!(
            games,
            [
                "error: game 1, line 1, column 4 (byte 3): comment longer than 1048576 bytes",
                "| c4 *"
            ]
        );
        let games = short(&format!("e4 ;{long}y\n*\n1. c4 *"));
        assert_eq!(
            games,
            [
                "error: game 1, line 1, column 4 (byte 3): comment longer than 1048576 bytes",
                "| c4 *"
            ]
        );

        // `[A "` and `"]` around the value: 6 bytes.
        let value = "v".repeat(MAX_TAG_LEN - 6);
        assert_eq!(short(&format!("[A \"{value}\"] *")), ["ok"]);
        let games = short(&format!("[A \"{value}v\"] *\n\n1. c4 *"));
        assert_eq!(
            games,
            ["error: game 1, line 1, column 1 (byte 0): tag longer than 65536 bytes", "| c4 *"]
        );

        let token = "a".repeat(MAX_TOKEN_LEN + 1);
        let games = read_all(format!("e4 {token} *\n1. c4 *").as_bytes());
        assert_eq!(
            games,
            ["error: game 1, line 1, column 4 (byte 3): token longer than 64 bytes", "| c4 *"]
        );
        let number = "1".repeat(MAX_TOKEN_LEN + 1);
        let games = read_all(format!("e4 {number}. e5 *\n1. c4 *").as_bytes());
        assert_eq!(
            games,
            ["error: game 1, line 1, column 4 (byte 3): token longer than 64 bytes", "| c4 *"]
        );
    }

    /// The error of the first game of `input`, read with `visitor`.
    fn message<V: Visitor>(input: &str, mut visitor: V) -> String
    where
        V::Error: fmt::Display,
    {
        match SliceReader::new(input.as_bytes()).read_game(&mut visitor) {
            Some(Err(err)) => err.to_string(),
            _ => "no error".to_string(),
        }
    }

    #[test]
    fn error_messages() {
        use crate::{Replay, TreeBuilder};
        let t = Transcript::default;
        insta::assert_snapshot!(message("[ \"x\"]", t()), @r#"game 1, line 1, column 3 (byte 2): invalid tag: expected a tag name after '['"#);
        insta::assert_snapshot!(message("[Event x]", t()), @r#"game 1, line 1, column 8 (byte 7): invalid tag: expected a value in quotes after the tag name"#);
        insta::assert_snapshot!(message("[Event \"x\nx\"]", t()), @r#"game 1, line 1, column 10 (byte 9): invalid tag: the line ends inside the tag value"#);
        insta::assert_snapshot!(message("[Event \"x\" x", t()), @r#"game 1, line 1, column 13 (byte 12): invalid tag: the line ends inside the tag value"#);
        insta::assert_snapshot!(message(&format!("[A \"{}\"]", "v".repeat(MAX_TAG_LEN)), t()), @r#"game 1, line 1, column 1 (byte 0): tag longer than 65536 bytes"#);
        insta::assert_snapshot!(message("1. e4 {open", t()), @r#"game 1, line 1, column 7 (byte 6): comment not closed: '{' without '}'"#);
        insta::assert_snapshot!(message(&format!("{{{}}}", "c".repeat(MAX_COMMENT_LEN + 1)), t()), @r#"game 1, line 1, column 1 (byte 0): comment longer than 1048576 bytes"#);
        insta::assert_snapshot!(message("1. e4 e9", t()), @r#"game 1, line 1, column 7 (byte 6): invalid move "e9": expected a rank 1..8 to complete the square, found '9'"#);
        insta::assert_snapshot!(message("1. e4 Qxx4", t()), @r#"game 1, line 1, column 7 (byte 6): invalid move "Qxx4": expected a square such as e4, found 'x'"#);
        insta::assert_snapshot!(message(&format!("1. {}", "N".repeat(MAX_TOKEN_LEN + 1)), t()), @r#"game 1, line 1, column 4 (byte 3): token longer than 64 bytes"#);
        insta::assert_snapshot!(message("1. e4 $300", t()), @r#"game 1, line 1, column 7 (byte 6): invalid annotation "$300""#);
        insta::assert_snapshot!(message("1. e4 ?!?", t()), @r#"game 1, line 1, column 7 (byte 6): invalid annotation "?!?""#);
        insta::assert_snapshot!(message("1. e4 <", t()), @r#"game 1, line 1, column 7 (byte 6): unexpected character '<'"#);
        insta::assert_snapshot!(message("1. e4 )", t()), @r#"game 1, line 1, column 7 (byte 6): ')' without a variation to close"#);
        insta::assert_snapshot!(message(&"(".repeat(MAX_VARIATION_DEPTH + 1), t()), @r#"game 1, line 1, column 65 (byte 64): variations nested deeper than 64 levels"#);
        insta::assert_snapshot!(message("[FEN \"8/8/8 w - - 0 1\"]", Replay::default()), @r#"game 1, line 1, column 1 (byte 0): invalid FEN tag: placement (byte 5): only 3 ranks, expected 8"#);
        insta::assert_snapshot!(message("[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]", Replay::default()), @r#"game 1, line 1, column 1 (byte 0): invalid FEN tag: white has no king, black has no king"#);
        insta::assert_snapshot!(message("1. e4 e5 2. Ke3", Replay::default()), @r#"game 1, line 1, column 13 (byte 12): ply 3 (Ke3): illegal move Ke3"#);
        insta::assert_snapshot!(message("[FEN \"4k3/8/8/8/8/8/8/1N3N1K w - - 0 1\"] 1. Nd2", Replay::default()), @r#"game 1, line 1, column 45 (byte 44): ply 1 (Nd2): ambiguous move Nd2: Nb1d2 or Nf1d2"#);
        insta::assert_snapshot!(message("1. e4 f5 2. Qh5+ --", Replay::default()), @r#"game 1, line 1, column 18 (byte 17): ply 4: a null move in check"#);
        insta::assert_snapshot!(message("[Event \"e\"] [Variant \"Atomic\"] 1. Nf3", Replay::default()), @r#"game 1, line 1, column 13 (byte 12): variant "Atomic" is not supported"#);
        insta::assert_snapshot!(message("[Variant \"Three-check\"] 1. e4", TreeBuilder::default()), @r#"game 1, line 1, column 1 (byte 0): variant "Three-check" is not supported"#);
        insta::assert_snapshot!(message("1. e4 f5 2. Qh5+ (2. Nf3) --", TreeBuilder::default()), @r#"game 1, line 1, column 27 (byte 26): ply 4: a null move in check"#);
        insta::assert_snapshot!(message("1. e4 (1. d4 d5 2. Ke3)", TreeBuilder::default()), @r#"game 1, line 1, column 20 (byte 19): ply 3 (Ke3): illegal move Ke3"#);
    }

    #[test]
    fn line_breaks_are_counted() {
        for len in [0usize, 1, 31, 32, 33, 255 * 32 - 1, 255 * 32, 255 * 32 + 1, 20_000] {
            let bytes: Vec<u8> = (0..len).map(|i| if i % 3 == 0 { b'\n' } else { b'x' }).collect();
            assert_eq!(count_line_breaks(&bytes), len.div_ceil(3), "{len}");
            assert_eq!(count_line_breaks(&vec![b'\n'; len]), len, "{len}");
        }
    }

    #[test]
    fn mutated_games_never_panic() {
        use crate::{Replay, TreeBuilder};
        let sample: &[u8] = b"\xef\xbb\xbf[Event \"x \\\" y\"]\r\n[FEN \"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\"]\n\n\
            % escape\n1. O-O {[%clk 0:01:00] [%eval #-3,4]} O-O-O! (1... Kd8 $12 ; line\n2. Rf7 (2. -- Kc8)) \
            2. Rad1 Rxd1 1/2-1/2\n\n1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.O-O Be7 6.Re1 b5 7.Bb3 d6 *\n";
        // A small xorshift generator: the same mutations every run.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let alphabet = b"[]{}()\";%$!?*.-019NBRQKOxa h\n\r\t\\\xe9";
        for _ in 0..2000 {
            let mut input = sample.to_vec();
            for _ in 0..1 + next(6) {
                let at = next(input.len() + 1);
                match next(4) {
                    0 => input.insert(at, alphabet[next(alphabet.len())]),
                    1 if at < input.len() => {
                        input.remove(at);
                    }
                    2 => input.truncate(at),
                    _ if at < input.len() => input[at] = next(256) as u8,
                    _ => {}
                }
            }
            // The transcript compares the slice reader with the streaming one.
            read_all(&input);
            let mut reader = SliceReader::new(&input);
            while reader.read_game(&mut Replay::default()).is_some() {}
            let mut reader = SliceReader::new(&input);
            let mut trees = TreeBuilder::default();
            while let Some(game) = reader.read_game(&mut trees) {
                if let Ok(game) = game {
                    let _ = game.to_string();
                }
            }
        }
    }

    #[test]
    fn read_errors_end_the_input() {
        struct Failing(usize);
        impl Read for Failing {
            fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
                if self.0 == 0 {
                    return Err(io::Error::other("disk on fire"));
                }
                let text = b"1. e4 *\n";
                let n = text.len().min(out.len());
                out[..n].copy_from_slice(&text[..n]);
                self.0 -= 1;
                Ok(n)
            }
        }
        let mut reader = PgnReader::new(Failing(2));
        let mut visitor = Transcript::default();
        let mut games = Vec::new();
        while let Some(game) = reader.read_game(&mut visitor) {
            games.push(game.map_err(|e| e.to_string()));
        }
        assert_eq!(
            games,
            [
                Ok("| e4 *".to_string()),
                Ok("| e4 *".to_string()),
                Err("game 3, line 3, column 1 (byte 16): read error: disk on fire".to_string()),
            ]
        );
    }
}

#[cfg(test)]
mod san_tests {
    use super::*;

    /// Every token of the common forms, and their near misses.
    fn tokens() -> Vec<String> {
        let mut out = Vec::new();
        let files = "abcdefgh";
        let squares: Vec<String> = files
            .chars()
            .flat_map(|f| (1..=8).map(move |r| format!("{f}{r}")))
            .chain(["i1", "a0", "a9", "h", "4e"].map(String::from))
            .collect();
        for sq in &squares {
            for prefix in [
                "", "N", "B", "R", "Q", "K", "P", "O", "x", "Nx", "ex", "e", "Nb", "N1", "Nbx",
                "N1x", "Nb1", "Nb1x", "e2", "bx", "Kx", "n", "Nz", "N9",
            ] {
                for promotion in ["", "=Q", "=N", "=K", "=P", "=q", "Q", "="] {
                    for suffix in ["", "+", "#", "++"] {
                        out.push(format!("{prefix}{sq}{promotion}{suffix}"));
                    }
                }
            }
        }
        for t in [
            "O-O", "O-O-O", "O-O+", "O-O-O#", "O-O-", "O-O-O-O", "0-0", "0-0-0", "--", "Z0", "O",
            "OO", "e", "ex", "x",
        ] {
            out.push(t.to_string());
        }
        out
    }

    #[test]
    fn fast_reading_agrees_with_the_san_parser() {
        let mut fast = 0;
        for token in tokens() {
            let bytes = token.as_bytes();
            if bytes.len() > 7 {
                continue;
            }
            let mut padded = [b' '; 8];
            padded[..bytes.len()].copy_from_slice(bytes);
            let (word, len) = quick_token(&padded, 0).unwrap();
            assert_eq!(len, bytes.len(), "{token}");
            if let Some(san) = fast_san(word, len) {
                fast += 1;
                assert_eq!(Ok(san), SanPlus::from_ascii(bytes), "{token}");
                let mut cache = SanCache::default();
                assert_eq!(cache.get(word, len), Some(san));
                assert_eq!(cache.get(word, len), Some(san));
            }
        }
        // The common forms all take the fast path.
        for token in [
            "e4", "exd5", "Nf3", "Nxf3", "Nbd2", "R1e2", "Rfxe1", "e8=Q", "exd8=N+", "O-O",
            "O-O-O#", "Kxe2#",
        ] {
            let mut padded = [b' '; 8];
            padded[..token.len()].copy_from_slice(token.as_bytes());
            let (word, len) = quick_token(&padded, 0).unwrap();
            assert!(fast_san(word, len).is_some(), "{token}");
        }
        assert!(fast > 3000, "{fast}");
        // Lengths the reader never asks for read as nothing.
        assert_eq!(fast_san(u64::from_le_bytes(*b"e4      "), 0), None);
        assert_eq!(fast_san(u64::from_le_bytes(*b"exd8=Q+#"), 8), None);
    }

    #[test]
    fn the_move_cache_grows_and_stays_right() {
        let words: Vec<(u64, usize)> = tokens()
            .iter()
            .filter(|t| t.len() <= 7)
            .map(|t| {
                let mut padded = [b' '; 8];
                padded[..t.len()].copy_from_slice(t.as_bytes());
                quick_token(&padded, 0).unwrap()
            })
            .collect();
        let mut cache = SanCache::default();
        for _ in 0..3 {
            for &(word, len) in &words {
                assert_eq!(cache.get(word, len), fast_san(word, len));
            }
        }
        assert_eq!(cache.slots.len(), 1 << SanCache::MAX_BITS);
    }

    #[test]
    fn quick_token_ends() {
        let cases: [(&[u8], Option<usize>); 9] = [
            (b"e4 e5 Nf", Some(2)),
            (b"Nf3\r\n1. ", Some(3)),
            (b"e4)(d4 (", Some(2)),
            (b"e4!? {x}", Some(2)),
            (b"Qxf7#{ma", Some(5)),
            (b"e4}aaaaa", Some(2)),
            (b"abcdefgh", None),
            (b"e4,e5 aa", Some(5)),
            (b"short", None),
        ];
        for (bytes, expected) in cases {
            assert_eq!(quick_token(bytes, 0).map(|(_, len)| len), expected, "{:?}", lossy(bytes));
        }
    }
}
