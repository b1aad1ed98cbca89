//! What PGN attaches to moves besides the move itself: numeric annotation glyphs ([`Nag`]) and
//! the commands that lichess, chess.com and engines embed in comments ([`Clock`], [`Eval`]).
//!
//! # Comment commands
//!
//! A command is `[%name arguments]` inside a comment: `{ [%eval 0.17] [%clk 0:03:00] }`. This
//! module reads two of them into typed values and leaves every other command (`[%csl ...]`,
//! `[%cal ...]`, `[%emt ...]`) in the comment text:
//!
//! - `[%clk H:MM:SS]`, also `[%clk H:MM:SS.f]` with one to three decimals (and `M:SS`): the
//!   time left on the mover's clock, as a [`Clock`] in milliseconds.
//! - `[%eval S]` where `S` is a score in pawns from White's point of view (`0.17`, `-1.5`,
//!   `+3`, read to the centipawn, further decimals cut off) or `#N` (`#-3`: Black mates in 3),
//!   optionally followed by `,D`, the search depth: an [`Eval`].
//!
//! A malformed `%clk` or `%eval` stays in the text as it was. [`split_comment`] does the work
//! for a whole comment.
//!
//! ```
//! use chessbits_pgn::{split_comment, Clock, Eval, Score};
//!
//! let parts = split_comment(b" [%eval #-3,20] Only move. [%clk 0:00:05.3] [%csl Ga4]");
//! assert_eq!(parts.clock, Some(Clock::from_millis(5_300)));
//! assert_eq!(parts.eval, Some(Eval { score: Score::Mate(-3), depth: Some(20) }));
//! assert_eq!(parts.text, "Only move. [%csl Ga4]");
//! assert_eq!(Clock::from_millis(5_300).to_string(), "0:00:05.3");
//! ```

use core::fmt;
use core::str::FromStr;

/// A numeric annotation glyph, `$0` to `$255`: a judgement of a move or a position.
///
/// The six move suffixes of PGN import format map to the first six glyphs:
///
/// | suffix | glyph | meaning |
/// |---|---|---|
/// | `!` | `$1` | good move |
/// | `?` | `$2` | mistake |
/// | `!!` | `$3` | brilliant move |
/// | `??` | `$4` | blunder |
/// | `!?` | `$5` | speculative move |
/// | `?!` | `$6` | dubious move |
///
/// ```
/// use chessbits_pgn::Nag;
///
/// assert_eq!("!?".parse::<Nag>(), Ok(Nag::SPECULATIVE_MOVE));
/// assert_eq!("$14".parse::<Nag>(), Ok(Nag(14)));
/// assert_eq!(Nag(5).to_string(), "$5");
/// assert_eq!(Nag(5).suffix(), Some("!?"));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Nag(pub u8);

impl Nag {
    /// `$1`, written `!`.
    pub const GOOD_MOVE: Nag = Nag(1);
    /// `$2`, written `?`.
    pub const MISTAKE: Nag = Nag(2);
    /// `$3`, written `!!`.
    pub const BRILLIANT_MOVE: Nag = Nag(3);
    /// `$4`, written `??`.
    pub const BLUNDER: Nag = Nag(4);
    /// `$5`, written `!?`.
    pub const SPECULATIVE_MOVE: Nag = Nag(5);
    /// `$6`, written `?!`.
    pub const DUBIOUS_MOVE: Nag = Nag(6);

    /// The glyph of a move suffix (`!`, `?`, `!!`, `??`, `!?`, `?!`), or `None`.
    pub const fn from_suffix(suffix: &[u8]) -> Option<Nag> {
        match suffix {
            b"!" => Some(Nag::GOOD_MOVE),
            b"?" => Some(Nag::MISTAKE),
            b"!!" => Some(Nag::BRILLIANT_MOVE),
            b"??" => Some(Nag::BLUNDER),
            b"!?" => Some(Nag::SPECULATIVE_MOVE),
            b"?!" => Some(Nag::DUBIOUS_MOVE),
            _ => None,
        }
    }

    /// The glyph an evaluation symbol stands for, as annotated books and ChessBase print them
    /// in movetext instead of `$n` (`+-` is `$18`, `=` `$10`, `±` `$16`, `∞` `$13`, `□`
    /// `$7`), and the symbol's length in bytes, when `text` starts with one (each symbol is
    /// tried before those it starts with: `=+` before `=`).
    pub fn from_symbol(text: &[u8]) -> Option<(Nag, usize)> {
        Nag::SYMBOLS
            .iter()
            .find(|(symbol, _)| text.starts_with(symbol.as_bytes()))
            .map(|&(symbol, nag)| (Nag(nag), symbol.len()))
    }

    /// The evaluation symbols [`Nag::from_symbol`] reads, with their glyphs. The scanner
    /// dispatches on their first bytes (`+`, `=`, `-` before `+` or `/`, and the UTF-8 lead
    /// bytes 0xC2 and 0xE2); a test checks that each is reached.
    pub(crate) const SYMBOLS: [(&'static str, u8); 16] = [
        ("+/-", 16),
        ("-/+", 17),
        ("=/+", 15),
        ("+/=", 14),
        ("+-", 18),
        ("-+", 19),
        ("+=", 14),
        ("=+", 15),
        ("=", 10),
        ("\u{b1}", 16),
        ("\u{2213}", 17),
        ("\u{2a72}", 14),
        ("\u{2a71}", 15),
        ("\u{221e}", 13),
        ("\u{25a1}", 7),
        ("\u{2206}", 140),
    ];

    /// The move suffix of glyphs 1 to 6, or `None`.
    pub const fn suffix(self) -> Option<&'static str> {
        match self.0 {
            1 => Some("!"),
            2 => Some("?"),
            3 => Some("!!"),
            4 => Some("??"),
            5 => Some("!?"),
            6 => Some("?!"),
            _ => None,
        }
    }

    /// Parses `$n` or a move suffix.
    ///
    /// # Errors
    /// [`InvalidNag`] if the text is neither `$` and a number from 0 to 255 nor a suffix.
    pub fn from_ascii(text: &[u8]) -> Result<Nag, InvalidNag> {
        match text {
            [b'$', digits @ ..] => parse_u8(digits).map(Nag).ok_or(InvalidNag),
            _ => Nag::from_suffix(text).ok_or(InvalidNag),
        }
    }
}

/// Parses 1 to 3 decimal digits into a `u8`.
fn parse_u8(digits: &[u8]) -> Option<u8> {
    if digits.is_empty() || digits.len() > 3 {
        return None;
    }
    let mut n: u32 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        n = n * 10 + u32::from(d - b'0');
    }
    u8::try_from(n).ok()
}

/// Writes `$n`.
impl fmt::Display for Nag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "${}", self.0)
    }
}

impl FromStr for Nag {
    type Err = InvalidNag;

    fn from_str(s: &str) -> Result<Nag, InvalidNag> {
        Nag::from_ascii(s.as_bytes())
    }
}

/// Text that is not a [`Nag`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct InvalidNag;

impl fmt::Display for InvalidNag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("expected $0..$255 or one of ! ? !! ?? !? ?!")
    }
}

impl std::error::Error for InvalidNag {}

/// A clock reading: the time left, to the millisecond (`[%clk 0:03:00]` is 180,000 ms).
///
/// `Display` writes `H:MM:SS` and, when the milliseconds are not zero, a fraction without
/// trailing zeros: `0:00:05.3`, `1:00:00.25`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Clock {
    millis: u64,
}

impl Clock {
    /// A clock reading of `millis` milliseconds.
    pub const fn from_millis(millis: u64) -> Clock {
        Clock { millis }
    }

    /// The time in milliseconds.
    pub const fn millis(self) -> u64 {
        self.millis
    }

    /// Parses `H:MM:SS`, `H:MM:SS.f` (one to three decimals) or `M:SS`. Hours may have any
    /// number of digits (up to a day's worth of years), minutes and seconds one or two.
    ///
    /// # Errors
    /// [`InvalidClock`] for any other text.
    pub fn from_ascii(text: &[u8]) -> Result<Clock, InvalidClock> {
        let (whole, fraction) = match text.iter().position(|&b| b == b'.') {
            Some(dot) => (text.get(..dot).unwrap_or(&[]), text.get(dot + 1..)),
            None => (text, None),
        };
        let mut fields = whole.split(|&b| b == b':');
        let mut parts = [0u64; 3];
        let mut count = 0;
        for field in fields.by_ref() {
            let slot = parts.get_mut(count).ok_or(InvalidClock)?;
            let limit = if count == 0 { 9 } else { 2 };
            if field.is_empty() || field.len() > limit || !field.iter().all(u8::is_ascii_digit) {
                return Err(InvalidClock);
            }
            *slot = field.iter().fold(0, |n, &d| n * 10 + u64::from(d - b'0'));
            count += 1;
        }
        let (hours, minutes, seconds) = match count {
            2 => (0, parts[0], parts[1]),
            3 => (parts[0], parts[1], parts[2]),
            _ => return Err(InvalidClock),
        };
        if (count == 3 && minutes >= 60) || seconds >= 60 {
            return Err(InvalidClock);
        }
        let millis = match fraction {
            None => 0,
            Some(f) if (1..=3).contains(&f.len()) && f.iter().all(u8::is_ascii_digit) => {
                let n = f.iter().fold(0, |n, &d| n * 10 + u64::from(d - b'0'));
                n * [100, 10, 1][f.len() - 1]
            }
            Some(_) => return Err(InvalidClock),
        };
        Ok(Clock { millis: ((hours * 60 + minutes) * 60 + seconds) * 1000 + millis })
    }
}

impl fmt::Display for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seconds = self.millis / 1000;
        write!(f, "{}:{:02}:{:02}", seconds / 3600, seconds / 60 % 60, seconds % 60)?;
        let millis = self.millis % 1000;
        if millis != 0 {
            let mut digits = format!("{millis:03}");
            while digits.ends_with('0') {
                digits.pop();
            }
            write!(f, ".{digits}")?;
        }
        Ok(())
    }
}

impl FromStr for Clock {
    type Err = InvalidClock;

    fn from_str(s: &str) -> Result<Clock, InvalidClock> {
        Clock::from_ascii(s.as_bytes())
    }
}

/// Text that is not a [`Clock`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct InvalidClock;

impl fmt::Display for InvalidClock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("expected a clock such as 0:03:00 or 0:00:05.3")
    }
}

impl std::error::Error for InvalidClock {}

/// An engine score from White's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// An advantage in hundredths of a pawn: `[%eval 0.17]` is 17, `[%eval -1.5]` is -150.
    Centipawns(i32),
    /// Mate in this many moves: positive if White mates, negative if Black mates
    /// (`[%eval #-3]` is -3).
    Mate(i32),
}

/// An `[%eval ...]` annotation: a [`Score`] and the search depth, if given.
///
/// `Display` writes what goes after `%eval `: `0.17`, `-1.50`, `#-3`, `0.17,20`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Eval {
    /// The score.
    pub score: Score,
    /// The search depth (`[%eval 0.17,20]`), if given.
    pub depth: Option<u32>,
}

impl Eval {
    /// Parses `0.17`, `-1.5`, `+3`, `#-3`, `#3`, each optionally followed by `,depth`.
    /// Pawns are read to the centipawn; further decimals are cut off.
    ///
    /// # Errors
    /// [`InvalidEval`] for any other text, or a number too large for an `i32`.
    pub fn from_ascii(text: &[u8]) -> Result<Eval, InvalidEval> {
        let (score, depth) = match text.iter().position(|&b| b == b',') {
            Some(comma) => (
                text.get(..comma).unwrap_or(&[]),
                Some(parse_u32(text.get(comma + 1..).unwrap_or(&[])).ok_or(InvalidEval)?),
            ),
            None => (text, None),
        };
        let score = match score {
            [b'#', mate @ ..] => {
                let (negative, digits) = split_sign(mate);
                let n = i32::try_from(parse_u32(digits).ok_or(InvalidEval)?)
                    .map_err(|_| InvalidEval)?;
                Score::Mate(if negative { -n } else { n })
            }
            _ => {
                let (negative, number) = split_sign(score);
                let (whole, fraction) = match number.iter().position(|&b| b == b'.') {
                    Some(dot) => (number.get(..dot).unwrap_or(&[]), number.get(dot + 1..)),
                    None => (number, None),
                };
                if whole.is_empty() && fraction.is_none_or(<[u8]>::is_empty) {
                    return Err(InvalidEval);
                }
                let whole =
                    if whole.is_empty() { 0 } else { parse_u32(whole).ok_or(InvalidEval)? };
                let mut cents = 0;
                if let Some(fraction) = fraction {
                    if !fraction.iter().all(u8::is_ascii_digit) {
                        return Err(InvalidEval);
                    }
                    let mut digits = fraction.iter().copied().chain(core::iter::repeat(b'0'));
                    for _ in 0..2 {
                        cents = cents * 10 + u32::from(digits.next().unwrap_or(b'0') - b'0');
                    }
                }
                let total = whole
                    .checked_mul(100)
                    .and_then(|w| w.checked_add(cents))
                    .and_then(|t| i32::try_from(t).ok())
                    .ok_or(InvalidEval)?;
                Score::Centipawns(if negative { -total } else { total })
            }
        };
        Ok(Eval { score, depth })
    }
}

/// Splits off a leading `+` or `-`: (negative, rest).
fn split_sign(text: &[u8]) -> (bool, &[u8]) {
    match text {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        _ => (false, text),
    }
}

/// Parses 1 to 9 decimal digits.
fn parse_u32(digits: &[u8]) -> Option<u32> {
    if digits.is_empty() || digits.len() > 9 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(digits.iter().fold(0, |n, &d| n * 10 + u32::from(d - b'0')))
}

impl fmt::Display for Eval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.score {
            Score::Centipawns(cp) => {
                let sign = if cp < 0 { "-" } else { "" };
                let abs = cp.unsigned_abs();
                write!(f, "{sign}{}.{:02}", abs / 100, abs % 100)?;
            }
            Score::Mate(n) => write!(f, "#{n}")?,
        }
        if let Some(depth) = self.depth {
            write!(f, ",{depth}")?;
        }
        Ok(())
    }
}

impl FromStr for Eval {
    type Err = InvalidEval;

    fn from_str(s: &str) -> Result<Eval, InvalidEval> {
        Eval::from_ascii(s.as_bytes())
    }
}

/// Text that is not an [`Eval`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct InvalidEval;

impl fmt::Display for InvalidEval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("expected a score such as 0.17, -1.5 or #-3, optionally followed by ,depth")
    }
}

impl std::error::Error for InvalidEval {}

/// A command `[%name arguments]` found in a comment.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Command<'a> {
    /// The name, without the `%`: `clk`, `eval`, `csl`...
    pub name: &'a [u8],
    /// The arguments, trimmed: `0:03:00`.
    pub args: &'a [u8],
    /// Where the command is in the comment, `[` to `]` inclusive.
    pub span: core::ops::Range<usize>,
}

/// The commands in a comment, in order: every `[%` with a `]` after it on the same comment.
///
/// ```
/// use chessbits_pgn::commands;
///
/// let names: Vec<&[u8]> = commands(b"[%clk 0:01:00] ok [%cal Ge2e4,Gd2d4]").map(|c| c.name).collect();
/// assert_eq!(names, [b"clk".as_slice(), b"cal"]);
/// ```
pub fn commands(comment: &[u8]) -> Commands<'_> {
    Commands { comment, at: 0 }
}

/// The iterator returned by [`commands`].
#[derive(Clone, Debug)]
pub struct Commands<'a> {
    comment: &'a [u8],
    at: usize,
}

impl<'a> Iterator for Commands<'a> {
    type Item = Command<'a>;

    fn next(&mut self) -> Option<Command<'a>> {
        loop {
            let rest = self.comment.get(self.at..)?;
            // `[` then `%`: one byte search (a two-byte `memmem` builds a searcher per call,
            // which costs more than the short comments it searches).
            let bracket = self.at + memchr::memchr(b'[', rest)?;
            if self.comment.get(bracket + 1) != Some(&b'%') {
                self.at = bracket + 1;
                continue;
            }
            let open = bracket;
            let body = self.comment.get(open + 2..)?;
            let Some(close) = memchr::memchr(b']', body) else {
                self.at = self.comment.len();
                return None;
            };
            let end = open + 2 + close + 1;
            self.at = end;
            let inner = body.get(..close)?;
            let name_len = inner.iter().take_while(|b| !b.is_ascii_whitespace()).count();
            let (name, args) = inner.split_at(name_len);
            if name.is_empty() {
                continue;
            }
            return Some(Command { name, args: args.trim_ascii(), span: open..end });
        }
    }
}

/// A comment split into the clock, the evaluation and the remaining text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CommentParts {
    /// The last well-formed `[%clk ...]`.
    pub clock: Option<Clock>,
    /// The last well-formed `[%eval ...]`.
    pub eval: Option<Eval>,
    /// The rest of the comment, decoded (UTF-8, or Latin-1 if it is not UTF-8), with runs of
    /// white space (line breaks included) collapsed to one space and no space at either end.
    pub text: String,
}

/// Reads the `[%clk]` and `[%eval]` commands out of a comment and normalises the rest; see
/// [`CommentParts`].
pub fn split_comment(comment: &[u8]) -> CommentParts {
    let mut parts = CommentParts::default();
    let mut kept: Vec<u8> = Vec::new();
    let mut from = 0;
    for command in commands(comment) {
        if take_command(&command, &mut parts.clock, &mut parts.eval) {
            kept.extend_from_slice(comment.get(from..command.span.start).unwrap_or(&[]));
            kept.push(b' ');
            from = command.span.end;
        }
    }
    let rest = comment.get(from..).unwrap_or(&[]);
    let text = if from == 0 {
        comment
    } else {
        kept.extend_from_slice(rest);
        &kept
    };
    parts.text = normalize_space(&decode_lossy(text));
    parts
}

/// What a comment's `[%clk]` and `[%eval]` commands say, and whether it holds anything else:
/// [`CommentParts`] without the text, read without allocating (what a reader that keeps only
/// clocks and evaluations needs, once a move).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct CommentAnnotations {
    /// The last well-formed `[%clk ...]`.
    pub clock: Option<Clock>,
    /// The last well-formed `[%eval ...]`.
    pub eval: Option<Eval>,
    /// Whether anything but white space is left besides those commands: exactly when
    /// [`split_comment`]'s text is not empty.
    pub has_text: bool,
}

/// Reads the `[%clk]` and `[%eval]` commands out of a comment, and whether other text is left;
/// see [`CommentAnnotations`].
///
/// ```
/// use chessbits_pgn::{comment_annotations, Clock};
///
/// let read = comment_annotations(b" [%clk 0:02:58] ");
/// assert_eq!(read.clock, Some(Clock::from_ascii(b"0:02:58")?));
/// assert_eq!((read.eval, read.has_text), (None, false));
/// assert!(comment_annotations(b"[%clk 0:02:58] a blunder").has_text);
/// # Ok::<_, chessbits_pgn::InvalidClock>(())
/// ```
pub fn comment_annotations(comment: &[u8]) -> CommentAnnotations {
    if let Some(read) = commands_only(comment) {
        return read;
    }
    let mut read = CommentAnnotations::default();
    let mut from = 0;
    let has_text = |bytes: &[u8]| bytes.iter().any(|b| !b.is_ascii_whitespace());
    for command in commands(comment) {
        if take_command(&command, &mut read.clock, &mut read.eval) {
            read.has_text |= has_text(comment.get(from..command.span.start).unwrap_or(&[]));
            from = command.span.end;
        }
    }
    read.has_text |= has_text(comment.get(from..).unwrap_or(&[]));
    read
}

/// The comments lichess writes (`[%clk 0:02:58]`, `[%eval 0.17] [%clk 0:02:58]`), read in
/// one pass: white space and well-formed `[%clk ...]` and `[%eval ...]` commands, each
/// written with one space after its name, and nothing else. `None` for any other comment, which
/// [`comment_annotations`] reads the general way (with the same result for these).
fn commands_only(comment: &[u8]) -> Option<CommentAnnotations> {
    let mut read = CommentAnnotations::default();
    let mut rest = comment;
    loop {
        rest = rest.trim_ascii_start();
        if rest.is_empty() {
            return Some(read);
        }
        let (clock, after) = match rest.strip_prefix(b"[%clk ") {
            Some(after) => (true, after),
            None => (false, rest.strip_prefix(b"[%eval ")?),
        };
        let close = after.iter().position(|&b| b == b']')?;
        let args = after.get(..close)?.trim_ascii();
        rest = after.get(close + 1..)?;
        if clock {
            read.clock = Some(clock_h_mm_ss(args).or_else(|| Clock::from_ascii(args).ok())?);
        } else {
            read.eval = Some(Eval::from_ascii(args).ok()?);
        }
    }
}

/// A clock written `H:MM:SS` (as lichess writes every one), read without splitting: what
/// [`Clock::from_ascii`] reads it as; `None` for any other text, which may still be a clock.
#[inline]
fn clock_h_mm_ss(text: &[u8]) -> Option<Clock> {
    let &[h, b':', m1, m2, b':', s1, s2] = text else { return None };
    let digits = [h, m1, m2, s1, s2];
    if !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let [h, m1, m2, s1, s2] = digits.map(|d| u64::from(d - b'0'));
    let (minutes, seconds) = (m1 * 10 + m2, s1 * 10 + s2);
    if minutes >= 60 || seconds >= 60 {
        return None;
    }
    Some(Clock { millis: ((h * 60 + minutes) * 60 + seconds) * 1000 })
}

/// Reads `command` into `clock` or `eval` if it is a well-formed `[%clk]` or `[%eval]`:
/// whether it was.
fn take_command(command: &Command<'_>, clock: &mut Option<Clock>, eval: &mut Option<Eval>) -> bool {
    match command.name {
        b"clk" => Clock::from_ascii(command.args).map(|c| *clock = Some(c)).is_ok(),
        b"eval" => Eval::from_ascii(command.args).map(|e| *eval = Some(e)).is_ok(),
        _ => false,
    }
}

/// Bytes decoded for an error message ([`decode_lossy`], owned).
pub(crate) fn lossy(bytes: &[u8]) -> String {
    decode_lossy(bytes).into_owned()
}

/// Decodes bytes as UTF-8 if they are, else as Latin-1 (every byte is the code point of the
/// same number), so no byte is lost.
pub fn decode_lossy(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match core::str::from_utf8(bytes) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => std::borrow::Cow::Owned(bytes.iter().map(|&b| char::from(b)).collect()),
    }
}

/// Collapses runs of white space into one space and trims both ends.
pub(crate) fn normalize_space(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_ascii_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `comment_annotations` agrees with `split_comment` on every comment built from three of
    /// these pieces: commands well and badly formed, text, white space, Latin-1, brackets.
    #[test]
    fn annotations_agree_with_the_split() {
        let pieces: [&[u8]; 16] = [
            b"[%clk 0:01:02]",
            b"[%clk 0:61:02]",
            b"[%clk 12:00:00]",
            b"[%eval -1.5,20]",
            b"[%eval 0.25]",
            b"[%clk 9]",
            b"[%eval #-3]",
            b"[%csl Ga4]",
            b" ",
            b"\n\t",
            b"good move",
            b"\xe9",
            b"[",
            b"[%",
            b"]",
            b"[% clk 0:00:01]",
        ];
        let (mut checked, mut fast) = (0, 0);
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    let comment = [a, b, c].concat();
                    let parts = split_comment(&comment);
                    let read = comment_annotations(&comment);
                    let expected = CommentAnnotations {
                        clock: parts.clock,
                        eval: parts.eval,
                        has_text: !parts.text.is_empty(),
                    };
                    assert_eq!(read, expected, "{:?}", String::from_utf8_lossy(&comment));
                    checked += 1;
                    fast += usize::from(commands_only(&comment).is_some());
                }
            }
        }
        assert_eq!(checked, 16 * 16 * 16);
        // The one-pass reading took the comments of commands and white space alone.
        assert!(fast > 200, "{fast}");
    }

    #[test]
    fn nags() {
        let cases: [(&str, Result<Nag, InvalidNag>); 13] = [
            ("!", Ok(Nag(1))),
            ("?", Ok(Nag(2))),
            ("!!", Ok(Nag(3))),
            ("??", Ok(Nag(4))),
            ("!?", Ok(Nag(5))),
            ("?!", Ok(Nag(6))),
            ("$0", Ok(Nag(0))),
            ("$255", Ok(Nag(255))),
            ("$256", Err(InvalidNag)),
            ("$", Err(InvalidNag)),
            ("$1x", Err(InvalidNag)),
            ("!!!", Err(InvalidNag)),
            ("$0001", Err(InvalidNag)),
        ];
        for (text, expected) in cases {
            assert_eq!(text.parse::<Nag>(), expected, "{text:?}");
            if let Ok(nag) = expected {
                assert_eq!(nag.to_string().parse::<Nag>(), Ok(nag));
                if let Some(suffix) = nag.suffix() {
                    assert_eq!(suffix, text);
                }
            }
        }
    }

    #[test]
    fn clocks() {
        let cases = [
            ("0:03:00", Some(180_000), "0:03:00"),
            ("1:02:03", Some(3_723_000), "1:02:03"),
            ("0:00:05.3", Some(5_300), "0:00:05.3"),
            ("0:00:05.25", Some(5_250), "0:00:05.25"),
            ("0:00:05.025", Some(5_025), "0:00:05.025"),
            ("0:00:05.000", Some(5_000), "0:00:05"),
            ("3:05", Some(185_000), "0:03:05"),
            ("100:00:00", Some(360_000_000), "100:00:00"),
            ("0:60:00", None, ""),
            ("0:00:60", None, ""),
            ("0:00:05.1234", None, ""),
            ("0:00:05.", None, ""),
            ("0:00", Some(0), "0:00:00"),
            ("5", None, ""),
            ("1:2:3:4", None, ""),
            ("a:00:00", None, ""),
            ("", None, ""),
            ("0::00", None, ""),
        ];
        for (text, millis, printed) in cases {
            let clock = text.parse::<Clock>();
            assert_eq!(clock.map(Clock::millis).ok(), millis, "{text:?}");
            if let Ok(clock) = clock {
                assert_eq!(clock.to_string(), printed);
                assert_eq!(printed.parse::<Clock>(), Ok(clock));
            }
        }
    }

    #[test]
    fn evals() {
        use Score::*;
        let cases = [
            ("0.17", Some((Centipawns(17), None)), "0.17"),
            ("-0.17", Some((Centipawns(-17), None)), "-0.17"),
            ("-1.5", Some((Centipawns(-150), None)), "-1.50"),
            ("+3", Some((Centipawns(300), None)), "3.00"),
            ("12.345", Some((Centipawns(1234), None)), "12.34"),
            (".5", Some((Centipawns(50), None)), "0.50"),
            ("0.17,20", Some((Centipawns(17), Some(20))), "0.17,20"),
            ("#-3", Some((Mate(-3), None)), "#-3"),
            ("#3", Some((Mate(3), None)), "#3"),
            ("#+3", Some((Mate(3), None)), "#3"),
            ("#0", Some((Mate(0), None)), "#0"),
            ("#-3,42", Some((Mate(-3), Some(42))), "#-3,42"),
            ("", None, ""),
            ("-", None, ""),
            (".", None, ""),
            ("#", None, ""),
            ("0.1x", None, ""),
            ("0.17,", None, ""),
            ("abc", None, ""),
            ("99999999999", None, ""),
        ];
        for (text, expected, printed) in cases {
            let eval = text.parse::<Eval>();
            assert_eq!(eval.map(|e| (e.score, e.depth)).ok(), expected, "{text:?}");
            if let Ok(eval) = eval {
                assert_eq!(eval.to_string(), printed);
                assert_eq!(printed.parse::<Eval>(), Ok(eval));
            }
        }
    }

    #[test]
    fn comments_split() {
        let check = |comment: &[u8], clock: Option<u64>, eval: Option<Score>, text: &str| {
            let parts = split_comment(comment);
            assert_eq!(parts.clock.map(Clock::millis), clock, "{comment:?}");
            assert_eq!(parts.eval.map(|e| e.score), eval, "{comment:?}");
            assert_eq!(parts.text, text, "{comment:?}");
        };
        check(b" [%clk 0:03:00] ", Some(180_000), None, "");
        check(b" [%eval 0.17] [%clk 0:03:00] ", Some(180_000), Some(Score::Centipawns(17)), "");
        check(b"good [%clk 0:00:01]move", Some(1000), None, "good move");
        check(b"[%clk bad] x", None, None, "[%clk bad] x");
        check(b"[%csl Ga4][%clk 1:00:00]", Some(3_600_000), None, "[%csl Ga4]");
        check(b"line one\r\n  line two\t", None, None, "line one line two");
        check(b"caf\xe9", None, None, "caf\u{e9}");
        check("café".as_bytes(), None, None, "café");
        check(b"[% no name] [%", None, None, "[% no name] [%");
        check(b"[%eval #-3,20]", None, Some(Score::Mate(-3)), "");
    }
}
