//! A progress bar on stderr for inputs that take more than a second: hidden when stderr is not
//! a terminal, and until the first second has passed, so quick runs and pipes see nothing.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long a run goes before its bar appears.
const DELAY: Duration = Duration::from_secs(1);

/// Progress over a known number of bytes (the input files' sizes), or a spinner when unknown
/// (standard input).
pub struct Progress {
    bar: ProgressBar,
    started: Instant,
    shown: bool,
    /// Whether stderr is a terminal: if not, the bar never shows.
    terminal: bool,
    /// The game count the message last showed.
    last_games: u64,
}

impl Progress {
    /// A hidden bar over `total` bytes (`None`: unknown).
    pub fn new(total: Option<u64>) -> Progress {
        let bar = match total {
            Some(n) => ProgressBar::with_draw_target(Some(n), ProgressDrawTarget::hidden()),
            None => ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden()),
        };
        let template = match total {
            Some(_) => "{spinner} {bar:40} {bytes}/{total_bytes} {bytes_per_sec} {msg} eta {eta}",
            None => "{spinner} {bytes} {bytes_per_sec} {msg}",
        };
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style);
        }
        Progress {
            bar,
            started: Instant::now(),
            shown: false,
            terminal: std::io::stderr().is_terminal(),
            last_games: 0,
        }
    }

    /// Records that `read` bytes of the input files (as stored: compressed, if they are) are
    /// read, giving `pgn` bytes of PGN (when known) and `games` games.
    pub fn set(&mut self, read: u64, pgn: Option<u64>, games: u64) {
        self.bar.set_position(read);
        self.show(games, pgn);
    }

    fn show(&mut self, games: u64, pgn: Option<u64>) {
        if !self.shown && self.terminal && self.started.elapsed() >= DELAY {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.shown = true;
        }
        if self.shown && games.saturating_sub(self.last_games) >= 256 {
            self.last_games = games;
            let seconds = self.started.elapsed().as_secs_f64().max(1e-3);
            let rate = games as f64 / seconds;
            self.bar.set_message(match pgn {
                Some(pgn) => format!(
                    "{games} games, {rate:.0} games/s, {:.1} MB/s of PGN",
                    pgn as f64 / seconds / 1e6
                ),
                None => format!("{games} games, {rate:.0} games/s"),
            });
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
