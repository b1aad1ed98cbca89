//! What a game file is, told by its first bytes: PGN text, a `.cbg` file, or binary bytes
//! that are neither. The CLI and the Python package tell inputs apart by this one rule, so
//! that both refuse the same files and number the same games.

use crate::MAGIC;

/// What a game file's first bytes say it is ([`FileKind::of`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// Text that may be PGN (or nothing at all).
    Pgn,
    /// A `.cbg` game file: it starts with [`MAGIC`].
    Cbg,
    /// Binary bytes: not PGN, and not a `.cbg` file.
    Binary,
}

impl FileKind {
    /// How many of a file's first bytes [`FileKind::of`] should be given: the rule is
    /// stated for this many (fewer when the file is shorter).
    pub const HEAD_LEN: usize = 4096;

    /// What `head`, a file's first bytes (decompressed), says it is. Binary: a NUL byte, or
    /// more than one byte in 20 a control character other than tab, line feed, form feed,
    /// carriage return and escape. PGN text has none of those; UTF-8 and Latin-1 text in any
    /// language passes, and so do empty files.
    ///
    /// ```
    /// use chessbits_cbg::{FileKind, MAGIC};
    ///
    /// assert_eq!(FileKind::of(b"[Event \"x\"]\r\n\r\n1. e4 e5 *\r\n"), FileKind::Pgn);
    /// assert_eq!(FileKind::of(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"), FileKind::Binary);
    /// assert_eq!(FileKind::of(&MAGIC), FileKind::Cbg);
    /// ```
    pub fn of(head: &[u8]) -> FileKind {
        if head.starts_with(&MAGIC) {
            return FileKind::Cbg;
        }
        let control = head
            .iter()
            .filter(|&&b| {
                (b < 0x20 && !matches!(b, b'\t' | b'\n' | 0x0c | b'\r' | 0x1b)) || b == 0x7f
            })
            .count();
        if head.contains(&0) || control * 20 > head.len() {
            FileKind::Binary
        } else {
            FileKind::Pgn
        }
    }

    /// Why a file of this kind is not read as PGN, once for the file: `None` for PGN.
    pub fn not_pgn(self) -> Option<&'static str> {
        match self {
            FileKind::Pgn => None,
            FileKind::Cbg => Some("is a .cbg game file, not PGN: read it with `chessbits unpack`"),
            FileKind::Binary => {
                Some("does not look like PGN (binary bytes in its first kilobytes)")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_heads_are_told_from_text() {
        assert_eq!(FileKind::of(b""), FileKind::Pgn);
        assert_eq!(FileKind::of(b"[Event \"x\"]\r\n\r\n1. e4 e5 *\r\n"), FileKind::Pgn);
        assert_eq!(FileKind::of("[White \"Ærøskøbing\"]\n".as_bytes()), FileKind::Pgn);
        assert_eq!(FileKind::of(b"[Event \"\x1b[1mx\"]\n\x0c\n1. e4 *\n"), FileKind::Pgn);
        assert_eq!(FileKind::of(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"), FileKind::Binary);
        assert_eq!(FileKind::of(&[0x7f, b'E', b'L', b'F', 2, 1, 1, 0]), FileKind::Binary);
        // One control byte in 20 passes, two do not.
        let mut text = vec![b'a'; 38];
        text[0] = 1;
        assert_eq!(FileKind::of(&text), FileKind::Pgn);
        text[1] = 2;
        assert_eq!(FileKind::of(&text), FileKind::Binary);
        let mut cbg = MAGIC.to_vec();
        cbg.extend_from_slice(&[2, 0, 0, 0]);
        assert_eq!(FileKind::of(&cbg), FileKind::Cbg);
    }
}
