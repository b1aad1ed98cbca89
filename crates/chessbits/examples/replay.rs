//! Replays games from stdin and prints, after each move, the position's FEN, its Polyglot key,
//! the automatic outcome and the claimable draws.
//!
//! Input: one game per line, `FEN;m1 m2 ...` with moves in UCI (`startpos` may stand for the
//! FEN). Output, per move, tab-separated:
//!
//! ```text
//! FEN <tab> polyglot key (16 hex digits) <tab> outcome <tab> claims
//! ```
//!
//! where the outcome is `*`, `checkmate`, `stalemate`, `insufficient-material`,
//! `seventyfive-moves` or `fivefold-repetition`, and the claims are `-`, `fifty-moves`,
//! `threefold-repetition`, or both joined by `+`. An unparsable FEN or an illegal or unparsable
//! move ends that line's game with a message on stderr naming the line and ply; the next line is
//! still read.
//!
//! ```sh
//! echo "startpos;e2e4 e7e5" | cargo run --release --example replay
//! ```

use std::io::{self, BufRead, BufWriter, Write};

use chessbits::notation::fen::{self, EnPassantMode, FenOptions};
use chessbits::notation::uci::{
    ParseUciPositionError, UciMoves, UciPosition, UciPositionErrorKind,
};

#[allow(dead_code, reason = "the replay test includes this file for `replay` alone")]
fn main() -> io::Result<()> {
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    replay(io::stdin().lock(), &mut out, &mut io::stderr())?;
    out.flush()
}

/// Replays every line of `input`, writing results to `out` and problems to `err`.
pub fn replay(input: impl BufRead, out: &mut impl Write, err: &mut impl Write) -> io::Result<()> {
    let options = FenOptions { en_passant: EnPassantMode::Legal, ..FenOptions::default() };
    for (index, line) in input.lines().enumerate() {
        let line = line?;
        let number = index + 1;
        if line.trim().is_empty() {
            continue;
        }
        let (fen_text, moves) = line.split_once(';').unwrap_or((line.as_str(), ""));
        let fen_text = fen_text.trim();
        let start = UciPosition::from_parts(fen_text, "")
            .map_err(|e| e.to_string())
            .and_then(|cmd| cmd.to_game().map_err(|e| e.to_string()));
        let mut game = match start {
            Ok(game) => game,
            Err(e) => {
                writeln!(err, "line {number}: bad FEN {fen_text:?}: {e}")?;
                continue;
            }
        };
        // One move at a time, so the plies before a bad move are still written.
        for (ply, uci) in (1..).zip(UciMoves::new(moves)) {
            let played = match uci {
                Ok(uci) => game.play_uci(uci).map_err(|e| (uci.to_string(), e.to_string())),
                Err(ParseUciPositionError {
                    kind: UciPositionErrorKind::Move { text, error, .. },
                    ..
                }) => Err((text, error.to_string())),
                Err(e) => Err((String::new(), e.to_string())),
            };
            if let Err((text, e)) = played {
                writeln!(err, "line {number}: ply {ply}: move {text:?}: {e}")?;
                break;
            }
            let pos = game.position();
            let outcome = game.outcome().map_or("*", |o| o.termination().as_str());
            let claims: Vec<&str> = game.claimable_draws().iter().map(|t| t.as_str()).collect();
            let claims = if claims.is_empty() { "-".to_owned() } else { claims.join("+") };
            writeln!(
                out,
                "{}\t{:016x}\t{outcome}\t{claims}",
                fen::fen_of(pos, options),
                pos.key()
            )?;
        }
    }
    Ok(())
}
