//! The PGN scanner: the [`Parser`] that [`PgnReader`](crate::PgnReader) and
//! [`SliceReader`](crate::SliceReader) drive over a [`Source`], handing a [`Visitor`](crate::Visitor) each game.
//! See the [crate docs](crate) for the grammar read.
//!
//! The scanner works on bytes, never decodes text, and allocates nothing but its input buffer
//! (and the error of a broken game). Movetext tokens are found by byte class and dispatched on
//! their first byte; comments and skipped text are searched with `memchr`. A skipped movetext
//! or variation is passed over by a byte loop that only tracks braces, parentheses, line
//! comments and where the game ends.

use std::io;

use memchr::{memchr, memchr2};

use super::annotations::{lossy, Nag};
use super::visitor::{GameResult, RawComment, RawTag, Visitor};

use chessbits_notation::san::SanPlus;

use crate::bytes::{find_in_words, is_space, quick_token, token_end, BOM, SAN_CLASS, SKIP_CLASS};
use crate::error::{PgnError, PgnErrorKind};
use crate::limits::{Limits, MAX_TOKEN_LEN};
use crate::lines::Lines;
use crate::origin::Origin;
use crate::san_cache::SanCache;
use crate::source::Source;
use crate::tags::{parse_tag, starts_tag, TagFail};

mod recover;
#[cfg(test)]
mod tests;

/// Bytes the streaming reader keeps available ahead of each movetext token, so that a token is
/// always whole in the buffer.
pub(crate) const LOOKAHEAD: usize = MAX_TOKEN_LEN + 16;

/// Bytes looked at after a line break inside a comment, to see whether a tag pair starts there.
pub(crate) const TAG_PROBE: usize = 48;

/// Why the scanner stopped inside a game: where and what.
pub(crate) struct Stop<E> {
    at: u64,
    kind: PgnErrorKind<E>,
}

/// The line of an input offset, kept where the line breaks are counted past it.
#[derive(Copy, Clone, Debug)]
struct LineAt {
    offset: u64,
    line: u64,
    /// The input offset where that line starts.
    line_start: u64,
}

/// How a comment scan ended. Offsets are relative to the scanner position at the end.
pub(crate) enum CommentEnd {
    /// At the `}`, this many bytes ahead.
    Closed(usize),
    /// Not closed: the input ends, or a tag pair starts a line, this many bytes ahead.
    Unclosed(usize),
    /// Longer than [`MAX_COMMENT_LEN`](crate::MAX_COMMENT_LEN).
    TooLong,
}

/// Where a movetext ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum End {
    /// At the `)` closing the variation being skipped.
    Closed,
    /// After a game termination marker.
    Result,
    /// At the next game's tags, or at the end of the input.
    Cut,
}

/// Why the byte loop of a skipped movetext stopped.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum SkipStop {
    /// The skipped part ended.
    End(End),
    /// At a `{`: a comment to pass over.
    Comment,
    /// At a `;` or a `%` line: the rest of the line to pass over.
    Line,
    /// After a line break that white space follows: perhaps a new game after a blank line.
    Blank,
    /// At the end of what the buffer holds (`at_end`: of all of it, not only of the part
    /// scanned safely).
    Buffer {
        /// Whether the scan reached the buffer's end.
        at_end: bool,
    },
}

/// Which part of a game the scanner is in, to know how to skip the rest after an error.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(crate) enum Phase {
    Tags,
    Movetext,
}

/// The scanner over a source.
pub(crate) struct Parser<S> {
    pub(crate) src: S,
    /// The read position in `src.buf()`.
    pub(crate) pos: usize,
    /// Games started, the current one included.
    pub(crate) games: u64,
    /// The input offset where the current game starts.
    pub(crate) game_start: u64,
    lines: Lines,
    phase: Phase,
    /// How many variations were open when an error stopped the movetext.
    depth: usize,
    pub(crate) sans: SanCache,
    /// No more games: the input ended or could not be read.
    finished: bool,
    pub(crate) limits: Limits,
    /// Tags and moves read in the current game.
    tags: usize,
    moves: usize,
    /// Whether the current game has an `Event` tag.
    event: bool,
    /// Whether the visitor refused a tag that was read whole (the error stopped after it).
    refused_tag: bool,
    /// Whether the visitor refused the game once its tags were all read (`end_tags`, a
    /// variant it does not play): no movetext was read, and recovery skips all of it.
    refused_tags: bool,
    /// A tag over the length limit: the input offset where it ends when it was read whole,
    /// `u64::MAX` when it runs on past the limit (it ends with its line). Recovery skips it
    /// whole, `]` in its value and all, so the game stays one game.
    long_tag: Option<u64>,
    /// The input offset of the last comment a skip found never closed (it ran into the next
    /// game's tags or the end of the input): a skipped variation reports it as the reading
    /// scanner reports one.
    unclosed_comment: Option<u64>,
    /// The line of the last skipped comment whose bytes began to leave the buffer before its
    /// end was found: the line breaks were counted past it, and its error, if it is never
    /// closed, names its own line.
    comment_line: Option<LineAt>,
    /// The input offset where the last game read ended (the scanner's position after it, its
    /// error recovery included), or where reading started if no game was read.
    pub(crate) game_end: u64,
}

impl<S: Source> Parser<S> {
    pub(crate) fn new(src: S, limits: Limits) -> Parser<S> {
        Parser {
            limits,
            tags: 0,
            moves: 0,
            event: false,
            refused_tag: false,
            refused_tags: false,
            long_tag: None,
            unclosed_comment: None,
            comment_line: None,
            game_end: 0,
            src,
            pos: 0,
            games: 0,
            game_start: 0,
            lines: Lines::new(),
            phase: Phase::Tags,
            depth: 0,
            sans: SanCache::warm(),
            finished: false,
        }
    }

    /// A parser that goes on reading an input where another left it: `src` holds the input
    /// from offset `src.base()`, and reading starts at `origin.offset`, after
    /// `origin.games` games, on line `origin.line` (which starts at `origin.line_start`).
    pub(crate) fn resume(src: S, limits: Limits, origin: Origin) -> Parser<S> {
        let pos = usize::try_from(origin.offset.saturating_sub(src.base())).unwrap_or(usize::MAX);
        let mut parser = Parser::new(src, limits);
        parser.pos = pos.min(parser.src.buf().len());
        parser.games = origin.games;
        parser.game_start = origin.offset;
        parser.lines =
            Lines { counted: origin.offset, line: origin.line, line_start: origin.line_start };
        parser.game_end = origin.offset;
        parser
    }

    /// Whether the scanner has passed every byte the input gave (and it gives no more): a
    /// read error is reported here, after every game those bytes hold, wherever the buffer's
    /// refills happened to meet it (so a chunk of the input, read on its own, meets it at the
    /// same game as the whole input's reader).
    fn read_all(&self) -> bool {
        self.src.exhausted() && self.pos >= self.src.buf().len()
    }

    /// Skips what lies before the next game and returns the input offset where it starts,
    /// or `None` if no game is left ([`read_game`](Self::read_game) then reports the read
    /// error that ended the input, if one did). Reading the game is left to `read_game`.
    pub(crate) fn next_game_start(&mut self) -> Option<u64> {
        if !self.finished && self.find_game() {
            Some(self.abs(self.pos))
        } else {
            None
        }
    }

    /// Where the parser stands: the input offset it reads next, the line there and the games
    /// read so far.
    pub(crate) fn origin(&mut self) -> Origin {
        let base = self.src.base();
        self.lines.count_to(self.src.buf(), base, self.pos.min(self.src.buf().len()));
        Origin {
            offset: self.abs(self.pos),
            line: self.lines.line,
            line_start: self.lines.line_start,
            games: self.games,
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
            // The read that failed is the last "game": it starts where reading stopped.
            self.game_start = self.abs(self.pos);
            return Some(Err(self.io_error(err)));
        }
        self.games += 1;
        self.game_start = self.abs(self.pos);
        visitor.begin_game();
        match self.game(visitor) {
            Ok(end) => {
                if end != End::Result && self.read_all() {
                    if let Some(err) = self.src.take_error() {
                        // The game ran to the end of what was read before the read error: it
                        // may have been cut short by it.
                        self.finished = true;
                        return Some(Err(self.io_error(err)));
                    }
                }
                self.game_end = self.abs(self.pos);
                Some(Ok(visitor.end_game()))
            }
            Err(Stop { at, kind }) => {
                let err = self.error_at(at, kind);
                self.recover();
                if self.read_all() {
                    if let Some(io) = self.src.take_error() {
                        // The broken game runs to where a read error cut the input: it was
                        // cut short, and the read error, which is no game, stands for it.
                        self.finished = true;
                        return Some(Err(self.io_error(io)));
                    }
                }
                self.game_end = self.abs(self.pos);
                Some(Err(err))
            }
        }
    }

    /// Reads the whole input as the movetext of one game whose tags `tags` hands the visitor
    /// (after `begin_game`, before `end_tags`): a row of a games table, whose tags are its
    /// columns ([`crate::MovetextReader`]). The game ends at the end of the input; anything
    /// but white space after its result is an error, since one row is one game.
    pub(crate) fn read_movetext<V: Visitor>(
        &mut self,
        visitor: &mut V,
        tags: impl FnOnce(&mut V) -> Result<(), V::Error>,
    ) -> Result<V::Output, PgnError<V::Error>> {
        self.games += 1;
        self.game_start = self.abs(self.pos);
        visitor.begin_game();
        match self.movetext_game(visitor, tags) {
            Ok(()) => {
                self.game_end = self.abs(self.pos);
                Ok(visitor.end_game())
            }
            Err(Stop { at, kind }) => Err(self.error_at(at, kind)),
        }
    }

    /// [`game`](Self::game) with the tags given rather than read, to the end of the input.
    fn movetext_game<V: Visitor>(
        &mut self,
        v: &mut V,
        tags: impl FnOnce(&mut V) -> Result<(), V::Error>,
    ) -> Result<(), Stop<V::Error>> {
        (self.tags, self.moves) = (0, 0);
        (self.event, self.refused_tag, self.refused_tags, self.long_tag) =
            (false, false, false, None);
        self.depth = 0;
        self.phase = Phase::Movetext;
        if let Err(err) = tags(v).and_then(|()| v.end_tags()) {
            self.refused_tags = true;
            return Err(self.syntax(self.pos, PgnErrorKind::Visitor(err)));
        }
        if v.begin_movetext().0 {
            self.pos = self.src.buf().len();
            return Ok(());
        }
        let mut depth = 0;
        if let Err(err) = self.movetext(v, &mut depth) {
            self.depth = depth;
            return Err(err);
        }
        // The game ended at its result, at a `[`, or after a blank line at `1.`: whatever
        // follows would be a game of its own, which a row cannot hold.
        match self.skip_space() {
            None => Ok(()),
            Some(b) => Err(self.syntax(self.pos, PgnErrorKind::UnexpectedByte(b))),
        }
    }

    fn io_error<E>(&mut self, err: io::Error) -> PgnError<E> {
        let at = self.abs(self.pos);
        self.error_at(at, PgnErrorKind::Io(err))
    }

    fn error_at<E>(&mut self, at: u64, kind: PgnErrorKind<E>) -> PgnError<E> {
        if let Some(mark) = self.comment_line.filter(|m| m.offset == at && at < self.lines.counted)
        {
            let column = at - mark.line_start + 1;
            return PgnError { game: self.games, line: mark.line, column, offset: at, kind };
        }
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
        (self.event, self.refused_tag, self.refused_tags, self.long_tag) =
            (false, false, false, None);
        self.depth = 0;
        self.tags(v)?;
        // A game refused for its tags is skipped as a skipping reader skips its movetext:
        // from here, at depth 0 (not the depth a broken game before it was left at).
        self.phase = Phase::Movetext;
        if let Err(err) = v.end_tags() {
            self.refused_tags = true;
            return Err(self.syntax(self.pos, PgnErrorKind::Visitor(err)));
        }
        if v.begin_movetext().0 {
            return Ok(self.skip_movetext_from_start());
        }
        let mut depth = 0;
        let end = self.movetext(v, &mut depth);
        if end.is_err() {
            self.depth = depth;
        }
        end
    }

    fn tags<V: Visitor>(&mut self, v: &mut V) -> Result<(), Stop<V::Error>> {
        loop {
            let Some(b) = self.skip_space() else { return Ok(()) };
            match b {
                b'[' => {
                    self.check_game_len(self.pos)?;
                    if !self.tag(v)? {
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
    /// tag (`self.event` says whether the game has one): the start of the next game.
    fn tag<V: Visitor>(&mut self, v: &mut V) -> Result<bool, Stop<V::Error>> {
        let mut want = TAG_PROBE;
        loop {
            self.fill(want);
            let buf = self.src.buf().get(self.pos..).unwrap_or_default();
            let eof = !S::STREAMING || self.src.exhausted();
            match parse_tag(buf, eof) {
                Ok((name, value, end)) => {
                    let name = buf.get(name).unwrap_or_default();
                    if name == b"Event" {
                        if self.event {
                            return Ok(false);
                        }
                        self.event = true;
                    }
                    if end > self.limits.tag_len {
                        let limit = self.limits.tag_len;
                        self.long_tag = Some(self.abs(self.pos + end));
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
                        Err(err) => {
                            self.refused_tag = true;
                            Err(self.syntax(at, PgnErrorKind::Visitor(err)))
                        }
                    };
                }
                // Found bad past the length limit, the tag is too long, as a streaming
                // reader finds it before it has read that far: one error for every reader.
                Err(ref fail)
                    if match *fail {
                        TagFail::Incomplete => buf.len(),
                        TagFail::Bad(i, _) => i,
                    } > self.limits.tag_len =>
                {
                    let limit = self.limits.tag_len;
                    self.long_tag = Some(u64::MAX);
                    return Err(self.syntax(self.pos, PgnErrorKind::TagTooLong { limit }));
                }
                // Twice as much each time: a long tag costs its length, not its length
                // squared over the probe (a 60 KB value took 1,250 refills and parses).
                Err(TagFail::Incomplete) => want = (2 * buf.len()).max(buf.len() + TAG_PROBE),
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
            if blank && *depth == 0 && b == b'1' && self.restarts_here() {
                // After a blank line, a movetext that starts again at move 1 is the next game.
                break End::Cut;
            }
            if S::STREAMING {
                self.fill(LOOKAHEAD);
            }
            let start = self.pos;
            self.check_game_len(start)?;
            let buf = self.src.buf();
            match b {
                // `e.p.` after an en passant capture (`exd6 e.p.`), as older PGN writes it:
                // a remark on the move before, no token of its own.
                b'e' if buf.get(start + 1) == Some(&b'.') && is_en_passant_mark(buf, start) => {
                    self.pos = start + 4;
                }
                b'-' if matches!(buf.get(start + 1), Some(b'+' | b'/')) => {
                    self.symbol(v, start)?;
                }
                b'a'..=b'z' | b'A'..=b'Z' | b'-' => self.san(v, start)?,
                b'+' | b'=' | 0xc2 | 0xe2 => self.symbol(v, start)?,
                b'0'..=b'9' => {
                    if self.number(v, start, *depth)? {
                        return Ok(End::Result);
                    }
                }
                b'.' => {
                    let rest = buf.get(start..).unwrap_or_default();
                    self.pos = start + rest.iter().take_while(|&&b| b == b'.').count();
                }
                b'{' => self.comment(v)?,
                b'(' => {
                    if !self.open_variation(v, start, depth)? {
                        break End::Cut;
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
                b'$' | b'!' | b'?' => self.glyph(v, start, b)?,
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

    /// Whether the `1` at `pos` (after a blank line) is move number 1: `1.`.
    #[inline(always)]
    fn restarts_here(&mut self) -> bool {
        self.fill(2);
        self.src.buf().get(self.pos + 1) == Some(&b'.')
    }

    /// Reads the token at `start`, which starts with a digit: a result (`true` if it ends the
    /// game, at depth 0), castling written with zeros, or a move number.
    #[inline(always)]
    fn number<V: Visitor>(
        &mut self,
        v: &mut V,
        start: usize,
        depth: usize,
    ) -> Result<bool, Stop<V::Error>> {
        let rest = self.src.buf().get(start..).unwrap_or_default();
        // The common case first, a move number (`12.`, `3...`): its second byte is a digit or
        // a dot, where a result's (`1-0`, `0-1`, `1/2`) and castling's with zeros (`0-0`) is
        // `-` or `/`. Its dots are taken with it, one token less for the loop.
        if matches!(rest.get(1), Some(b'0'..=b'9' | b'.')) {
            let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
            if digits > MAX_TOKEN_LEN {
                return Err(self.syntax(start, PgnErrorKind::TokenTooLong));
            }
            let dots = rest.get(digits..).unwrap_or_default().iter();
            self.pos = start + digits + dots.take_while(|&&b| b == b'.').count();
            return Ok(false);
        }
        if let Some((result, len)) = match_result(rest) {
            self.pos = start + len;
            if depth == 0 {
                v.outcome(result);
                return Ok(true);
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
        Ok(false)
    }

    /// Opens the variation at `start` (`(`): read (one more level in `depth`) or skipped to its
    /// `)`, as the visitor asks. `false` if the input ended inside a skipped variation.
    #[inline(always)]
    fn open_variation<V: Visitor>(
        &mut self,
        v: &mut V,
        start: usize,
        depth: &mut usize,
    ) -> Result<bool, Stop<V::Error>> {
        if *depth >= self.limits.variation_depth {
            let limit = self.limits.variation_depth;
            return Err(self.syntax(start, PgnErrorKind::TooDeep { limit }));
        }
        self.pos = start + 1;
        if v.begin_variation().0 {
            // A comment never closed is the game's error whether its variation is read or
            // skipped: the commands that skip variations read the same games as those that
            // read them (the game after it would otherwise lose its moves without a word).
            self.unclosed_comment = None;
            let end = self.skip_movetext(0, true);
            if let Some(at) = self.unclosed_comment.take() {
                return Err(Stop { at, kind: PgnErrorKind::UnclosedComment });
            }
            return Ok(end == End::Closed);
        }
        *depth += 1;
        Ok(true)
    }

    /// Reads the evaluation symbol at `start` (`+-`, `=`, `±` ...: [`Nag::from_symbol`]) as its
    /// glyph; a byte that starts none is the error it was before symbols were read.
    #[cold]
    fn symbol<V: Visitor>(&mut self, v: &mut V, start: usize) -> Result<(), Stop<V::Error>> {
        let rest = self.src.buf().get(start..).unwrap_or_default();
        match Nag::from_symbol(rest) {
            Some((nag, len)) => {
                self.pos = start + len;
                v.nag(nag);
                Ok(())
            }
            None => {
                let b = rest.first().copied().unwrap_or_default();
                Err(self.syntax(start, PgnErrorKind::UnexpectedByte(b)))
            }
        }
    }

    /// Reads the glyph at `start`: `$n`, or the suffix marks `!`, `?`, `!!`, `??`, `!?`, `?!`.
    #[inline(always)]
    fn glyph<V: Visitor>(&mut self, v: &mut V, start: usize, b: u8) -> Result<(), Stop<V::Error>> {
        let rest = self.src.buf().get(start..).unwrap_or_default();
        let (len, nag) = if b == b'$' {
            let digits = rest.iter().skip(1).take(MAX_TOKEN_LEN);
            let len = 1 + digits.take_while(|b| b.is_ascii_digit()).count();
            (len, Nag::from_ascii(rest.get(..len).unwrap_or_default()).ok())
        } else {
            let marks = rest.iter().take(MAX_TOKEN_LEN);
            let len = marks.take_while(|&&b| b == b'!' || b == b'?').count();
            (len, Nag::from_suffix(rest.get(..len).unwrap_or_default()))
        };
        let Some(nag) = nag else {
            let token = rest.get(..len).unwrap_or_default();
            return Err(self.syntax(start, PgnErrorKind::InvalidNag(lossy(token))));
        };
        self.pos = start + len;
        v.nag(nag);
        Ok(())
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
        // Without `keep`, the comment's bytes may leave the buffer as it refills: its line is
        // counted first, once, should it never close.
        let mut counted = keep || !S::STREAMING;
        let brace = self.pos;
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
                            self.mark_line(brace, &mut counted);
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
                        let len = buf.len();
                        self.mark_line(brace, &mut counted);
                        self.pos += len;
                        from = 0;
                    }
                    if !self.fill(from + 1) {
                        return CommentEnd::Unclosed(from);
                    }
                }
            }
        }
    }

    /// Counts the line breaks up to buffer index `index` (not yet left behind) and keeps the
    /// line there, unless `done`.
    #[cold]
    fn mark_line(&mut self, index: usize, done: &mut bool) {
        if std::mem::replace(done, true) {
            return;
        }
        self.lines.count_to(self.src.buf(), self.src.base(), index);
        let (line, line_start) = (self.lines.line, self.lines.line_start);
        self.comment_line = Some(LineAt { offset: self.abs(index), line, line_start });
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
    fn skip_movetext(&mut self, depth: usize, in_variation: bool) -> End {
        self.skip_movetext_at(depth, in_variation, false)
    }

    /// Skips a game's movetext from its first token, at `pos`: a result there ends the game
    /// whatever byte comes before it (`]1-0`, or `*1/2` where the game before ended), as the
    /// reading scanner reads it.
    fn skip_movetext_from_start(&mut self) -> End {
        self.skip_movetext_at(0, false, true)
    }

    /// [`skip_movetext`](Self::skip_movetext); with `fresh`, a token starts at `pos`.
    fn skip_movetext_at(&mut self, mut depth: usize, in_variation: bool, mut fresh: bool) -> End {
        loop {
            if S::STREAMING {
                self.fill(LOOKAHEAD);
            }
            // The byte loop sees a `%` escape line only after the line break before it: one
            // that starts where the loop starts (after a `;` comment's line, after a refill)
            // is skipped here, as the reading scanner skips it.
            if self.src.buf().get(self.pos) == Some(&b'%') && self.at_line_start() {
                self.skip_line();
                continue;
            }
            // The buffer index of the known token start, taken after any refill moved it.
            let first = if fresh { self.pos } else { usize::MAX };
            fresh = false;
            let (i, stop) = self.scan_skipped(&mut depth, in_variation, first);
            self.pos = i;
            match stop {
                SkipStop::End(end) => return end,
                SkipStop::Comment => match (self.abs(self.pos), self.scan_comment(false)) {
                    (_, CommentEnd::Closed(close)) => self.pos += close + 1,
                    (at, CommentEnd::Unclosed(resume)) => {
                        self.pos += resume;
                        self.unclosed_comment = Some(at);
                        return End::Cut;
                    }
                    // Not returned without `keep`; step over the brace all the same.
                    (_, CommentEnd::TooLong) => self.pos += 1,
                },
                SkipStop::Line => self.skip_line(),
                SkipStop::Blank => {
                    if self.restarts_after_break() {
                        return End::Cut;
                    }
                    if self.at_line_start() && self.src.buf().get(self.pos) == Some(&b'%') {
                        self.skip_line();
                    }
                }
                SkipStop::Buffer { at_end } => {
                    if at_end && !self.fill(1) {
                        return End::Cut;
                    }
                }
            }
        }
    }

    /// The byte loop of [`Parser::skip_movetext`] over the buffer from `pos`: tracks only
    /// braces, parentheses, line comments, blank lines and where the game ends, and returns
    /// where it stopped and why.
    #[inline(always)]
    fn scan_skipped(
        &self,
        depth: &mut usize,
        in_variation: bool,
        first: usize,
    ) -> (usize, SkipStop) {
        let buf = self.src.buf();
        let len = buf.len();
        let limit = if S::STREAMING && !self.src.exhausted() { len.saturating_sub(8) } else { len };
        let mut i = self.pos;
        while i < limit {
            let Some(&b) = buf.get(i) else { break };
            if !SKIP_CLASS[b as usize] {
                i += 1;
                continue;
            }
            match b {
                b'{' => return (i, SkipStop::Comment),
                b';' => return (i, SkipStop::Line),
                b'\n' => {
                    i += 1;
                    match buf.get(i) {
                        Some(b'%') => return (i, SkipStop::Line),
                        Some(&b) if is_space(b) && *depth == 0 && !in_variation => {
                            return (i, SkipStop::Blank)
                        }
                        _ => {}
                    }
                }
                b'(' => {
                    *depth += 1;
                    i += 1;
                }
                b')' => {
                    i += 1;
                    if *depth > 0 {
                        *depth -= 1;
                    } else if in_variation {
                        return (i, SkipStop::End(End::Closed));
                    }
                }
                b'[' => return (i, SkipStop::End(End::Cut)),
                b'*' => {
                    i += 1;
                    if *depth == 0 && !in_variation {
                        return (i, SkipStop::End(End::Result));
                    }
                }
                _ => {
                    // '0' or '1': a result if it starts a token.
                    if *depth == 0 && !in_variation && (i == first || token_starts_at(buf, i)) {
                        if let Some((_, n)) = match_result(buf.get(i..).unwrap_or_default()) {
                            return (i + n, SkipStop::End(End::Result));
                        }
                    }
                    i += 1;
                }
            }
        }
        (i, SkipStop::Buffer { at_end: i >= len })
    }
}

/// Whether `e.p.` stands at `start` as a token of its own (not followed by a move's byte).
fn is_en_passant_mark(buf: &[u8], start: usize) -> bool {
    let rest = buf.get(start..).unwrap_or_default();
    rest.starts_with(b"e.p.") && rest.get(4).is_none_or(|&b| !SAN_CLASS[b as usize])
}

/// Whether a token can start at `i`: the byte before is white space or ends a token.
pub(crate) fn token_starts_at(buf: &[u8], i: usize) -> bool {
    match i.checked_sub(1).and_then(|p| buf.get(p)) {
        None => true,
        Some(&b) => is_space(b) || matches!(b, b'(' | b')' | b'}' | b'.' | b',' | b'!' | b'?'),
    }
}

/// The game termination marker at the start of `rest`, with its length: `1-0`, `0-1`,
/// `1/2-1/2`, or `1/2` (read as a draw), not followed by a byte of a move token.
pub(crate) fn match_result(rest: &[u8]) -> Option<(GameResult, usize)> {
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
