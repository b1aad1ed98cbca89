//! `chessbits san`: UCI moves to SAN, one game per line.
//!
//! Input lines are `<FEN or startpos>;<uci> <uci> ...`; each output line holds the SAN (with
//! `+` and `#`) of the moves played in sequence from that position, separated by single spaces.
//! A line that cannot be read (a bad FEN, an unparsable or illegal move) prints
//! `error: <message>` instead, and reading goes on with the next line. An empty move list
//! prints an empty line. `0000`, the null move `pgn --to uci` writes for PGN's `--`, is a pass
//! written `--`, refused in check as the PGN reader refuses it.

use std::io::{self, BufRead, Write};

use chessbits_move::UciMove;
use chessbits_movegen::MoveGen;
use chessbits_notation::fen;
use chessbits_notation::san::SanPlus;
use chessbits_state::Position;

/// Converts one input line; `Err` holds the message for `error: ...`.
pub fn convert_line(line: &str, out: &mut String) -> Result<(), String> {
    out.clear();
    let (start, moves) = line.split_once(';').unwrap_or((line, ""));
    let start = start.trim();
    let mut pos = match start {
        "startpos" => Position::new(),
        "" if line.contains(';') => return Err("missing FEN (or startpos) before ';'".to_owned()),
        "" => return Err("empty line: expected <FEN or startpos>;<UCI moves>".to_owned()),
        text => fen::parse_position(text).map_err(|e| format!("fen: {e}"))?,
    };
    for (i, token) in moves.split_ascii_whitespace().enumerate() {
        let ply = i + 1;
        // A message names at most 16 bytes of the token: a 4 MB token made a 4 MB line.
        let token = &Shown(token);
        let uci: UciMove = token.0.parse().map_err(|e| format!("move {ply} ({token}): {e}"))?;
        if i > 0 {
            out.push(' ');
        }
        if uci == UciMove::Null {
            pos.play_null().map_err(|e| format!("move {ply} ({token}): {e}"))?;
            out.push_str("--");
            continue;
        }
        let m = pos.resolve_uci(uci).map_err(|e| format!("move {ply} ({token}): {e}"))?;
        let san = SanPlus::from_move_and_play(&mut pos, m);
        use std::fmt::Write as _;
        // Writing into a String cannot fail.
        let _ = write!(out, "{san}");
    }
    Ok(())
}

/// A token as a message shows it: whole up to 16 bytes, else its first 16 and `...`.
struct Shown<'a>(&'a str);

impl std::fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut end = self.0.len().min(16);
        while !self.0.is_char_boundary(end) {
            end -= 1;
        }
        let more = if end < self.0.len() { "..." } else { "" };
        write!(f, "{}{more}", &self.0[..end])
    }
}

/// Runs the command over `input`, writing to `output`. Returns how many lines failed.
pub fn run(input: impl BufRead, output: impl Write) -> io::Result<u64> {
    crate::lines::convert_lines(input, output, convert_line)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str) -> String {
        let mut out = Vec::new();
        run(input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn lines_become_san_and_bad_lines_say_why() {
        insta::assert_snapshot!(check(concat!(
            "startpos;e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7\n",
            "startpos;\n",
            "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1;b1a1 h8h1\n",
            "8/P7/8/8/8/8/8/k6K w - - 0 1;a7a8q a1b2 a8b8\n",
            "startpos;e2e4 e2e4\n",
            "startpos;e2e9\n",
            "not a fen;e2e4\n",
            ";e2e4\n",
            "startpos;e2e4 e7e5\n",
            "startpos;e2e4 0000 d2d4\n",
            "startpos;e2e4 f7f6 d1h5 0000\n",
            "\n",
            "startpos;e2e4e2e4e2e4e2e4e2e4e2e4e2e4\n",
        )), @r"
        e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#

        O-O-O Rxh1
        a8=Q+ Kb2 Qb8+
        error: move 2 (e2e4): illegal move e2e4
        error: move 1 (e2e9): invalid square coordinate at byte 3
        error: fen: placement (byte 1): invalid character 'o', expected a piece letter, a digit 1..8 or '/'
        error: missing FEN (or startpos) before ';'
        e4 e5
        e4 -- d4
        error: move 4 (0000): null move while in check
        error: empty line: expected <FEN or startpos>;<UCI moves>
        error: move 1 (e2e4e2e4e2e4e2e4...): uci move must be 4 or 5 characters, got 28
        ");
    }
}
