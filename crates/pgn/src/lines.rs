//! Line numbers of an input, counted lazily by the scanner ([`Lines`]), and the vector
//! count of line breaks behind them, which the pipeline's cutter uses too.

use memchr::memrchr;

/// Line numbers, counted lazily: up to an error, or over bytes about to leave the buffer.
#[derive(Debug)]
pub(crate) struct Lines {
    /// The input offset up to which line breaks are counted.
    pub(crate) counted: u64,
    /// The line number at `counted` (1-based).
    pub(crate) line: u64,
    /// The input offset where that line starts.
    pub(crate) line_start: u64,
}

impl Lines {
    /// Line 1, starting at offset 0, nothing counted.
    pub(crate) fn new() -> Lines {
        Lines { counted: 0, line: 1, line_start: 0 }
    }

    /// Counts the line breaks in `buf` (which starts at input offset `base`) up to `upto`.
    pub(crate) fn count_to(&mut self, buf: &[u8], base: u64, upto: usize) {
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
pub(crate) fn count_line_breaks(bytes: &[u8]) -> usize {
    bytes
        .chunks(255)
        .map(|block| usize::from(block.iter().fold(0u8, |n, &b| n + u8::from(b == b'\n'))))
        .sum()
}
