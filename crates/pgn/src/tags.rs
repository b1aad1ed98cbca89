//! Tag pairs: where one starts, and reading `[Name "value"]` from bytes.

use memchr::memrchr;

use crate::bytes::{find_in_words, is_space};
use crate::error::TagError;

/// Whether `line` starts with a tag pair: `[`, a name starting with a letter, blanks, `"`.
pub(crate) fn starts_tag(line: &[u8]) -> bool {
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
pub(crate) enum TagFail {
    /// The buffer ends before the tag does.
    Incomplete,
    /// The tag is malformed at this offset.
    Bad(usize, TagError),
}

/// Parses the tag pair at the start of `b` (which starts with `[`): the name and raw value
/// ranges and the offset after the `]`.
#[allow(clippy::type_complexity, reason = "a private helper's plain tuple")]
pub(crate) fn parse_tag(
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
        // Skip the plain bytes a word at a time. With no hit, every whole word from `i` is
        // plain: skip them all (staying put made a long value cost its length squared / 8,
        // 39 s for 16 MiB of games with 60 KB values).
        match find_in_words(b, i, b.len(), [b'"', b'\\', b'\n', b'\r']) {
            Some(next) => i = next,
            None => i += b.len().saturating_sub(i) / 8 * 8,
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
pub(crate) fn last_close(
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
