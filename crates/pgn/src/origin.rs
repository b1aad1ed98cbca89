//! [`Origin`]: a place in an input, as a reader that read up to it knows it (the offset, the
//! line, the games before it), where another reader can start reading from.

/// Where reading starts in an input: a chunk's first byte, as the serial reader saw it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Origin {
    /// The input offset of the first byte to read.
    pub offset: u64,
    /// The line of that byte, from 1.
    pub line: u64,
    /// The input offset where that line starts.
    pub line_start: u64,
    /// How many games the input holds before that byte.
    pub games: u64,
}

impl Origin {
    /// The start of an input: offset 0, line 1, no game before.
    pub const START: Origin = Origin { offset: 0, line: 1, line_start: 0, games: 0 };

    /// The place at input offset `offset`, on line `line` (from 1) that starts at offset
    /// `line_start`, after `games` games.
    pub const fn new(offset: u64, line: u64, line_start: u64, games: u64) -> Origin {
        Origin { offset, line, line_start, games }
    }
}
