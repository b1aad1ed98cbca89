//! The line loop of the line-by-line commands (`encode`, `decode`, `san`): one output line per
//! input line, `error: ...` in place of a line that fails, and the count of failures.

use std::io::{self, BufRead, Write};

/// Converts each line of `input` with `convert` (which writes its result into the buffer it is
/// given, reused from line to line) and writes the result, or `error: <message>`, to `output`.
/// Returns how many lines failed.
pub fn convert_lines(
    input: impl BufRead,
    mut output: impl Write,
    mut convert: impl FnMut(&str, &mut String) -> Result<(), String>,
) -> io::Result<u64> {
    let mut failed = 0;
    let mut text = String::new();
    for line in input.lines() {
        text.clear();
        match convert(&line?, &mut text) {
            Ok(()) => writeln!(output, "{text}")?,
            Err(message) => {
                failed += 1;
                writeln!(output, "error: {message}")?;
            }
        }
    }
    output.flush()?;
    Ok(failed)
}
