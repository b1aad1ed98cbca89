//! A progress bar on stderr for inputs that take more than a second, and one summary line
//! when the run ends. The bar is hidden when stderr is not a terminal, and until the first
//! second has passed, so quick runs and pipes see only the summary (`--quiet`: nothing).
//!
//! The bar counts the games done (written out), not the bytes read: it stands where the last
//! game written ends, as a share of the input files' stored size (for compressed files, the
//! stored bytes read scaled by the share of the decompressed bytes read that those games
//! take), so it cannot reach the end while games read ahead are still being processed.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long a run goes before its bar appears.
const DELAY: Duration = Duration::from_secs(1);

/// Where the reading of one input stands.
#[derive(Copy, Clone, Debug, Default)]
pub struct Done {
    /// The bytes of the input file read so far, as stored (compressed, if it is).
    pub stored: u64,
    /// The bytes of PGN (decompressed) read so far.
    pub read: u64,
    /// The offset in the PGN after the last game done.
    pub done: u64,
}

impl Done {
    /// The stored bytes the games done take, estimated.
    fn stored_done(self) -> u64 {
        if self.read == 0 || self.done >= self.read {
            return self.stored;
        }
        (self.stored as u128 * self.done as u128 / self.read as u128) as u64
    }
}

/// Progress over a known number of stored bytes (the input files' sizes), or a spinner when
/// unknown (standard input); and the summary line.
pub struct Progress {
    bar: ProgressBar,
    started: Instant,
    shown: bool,
    /// Whether stderr is a terminal: if not, the bar never shows.
    terminal: bool,
    quiet: bool,
    /// The game count the message last showed.
    last_games: u64,
}

impl Progress {
    /// A hidden bar over `total` bytes (`None`: unknown); `quiet` shows nothing at all.
    pub fn new(total: Option<u64>, quiet: bool) -> Progress {
        let bar = match total {
            Some(n) => ProgressBar::with_draw_target(Some(n), ProgressDrawTarget::hidden()),
            None => ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden()),
        };
        let template = match total {
            Some(_) => "{spinner} {bar:40} {percent}% {msg} eta {eta}",
            None => "{spinner} {msg}",
        };
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style);
        }
        Progress {
            bar,
            started: Instant::now(),
            shown: false,
            terminal: std::io::stderr().is_terminal(),
            quiet,
            last_games: 0,
        }
    }

    /// Records that the files before the current one took `before` stored bytes, that the
    /// current one stands at `done`, and that `games` games are done.
    pub fn set(&mut self, before: u64, done: Done, games: u64) {
        self.bar.set_position(before + done.stored_done());
        if !self.shown && self.terminal && !self.quiet && self.started.elapsed() >= DELAY {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.shown = true;
        }
        if self.shown && games.saturating_sub(self.last_games) >= 256 {
            self.last_games = games;
            let rate = games as f64 / self.started.elapsed().as_secs_f64().max(1e-3);
            self.bar.set_message(format!("{games} games, {rate:.0} games/s"));
        }
    }

    /// Removes the bar and writes the summary line on stderr: games read (broken ones
    /// included), broken games, inputs that failed, time and speed.
    pub fn finish(&self, games: u64, errors: u64, failed_inputs: u64, err: &mut impl Write) {
        self.bar.finish_and_clear();
        if self.quiet {
            return;
        }
        let seconds = self.started.elapsed().as_secs_f64();
        let mut line = format!("chessbits: {games} games, {errors} errors");
        if failed_inputs > 0 {
            line += &format!(", {failed_inputs} inputs not read");
        }
        line += &format!(" in {seconds:.2} s ({:.0} games/s)", games as f64 / seconds.max(1e-6));
        let _ = writeln!(err, "{line}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_stands_where_the_games_done_end() {
        // A plain file: the stored bytes are the PGN.
        let plain = Done { stored: 1000, read: 1000, done: 600 };
        assert_eq!(plain.stored_done(), 600);
        // A compressed file read to its end, a third of its PGN done.
        let zst = Done { stored: 300, read: 3000, done: 1000 };
        assert_eq!(zst.stored_done(), 100);
        assert_eq!(Done { stored: 5, read: 0, done: 0 }.stored_done(), 5);
    }
}
