//! PGN reading speed over files given on the command line (default: the shared corpus).
//!
//! `cargo run --release -p chessbits-benches --example pgn_speed [FILE...]` prints, for the
//! files together, MB/s for: parse only (from memory, and through `Read`) (every token read, moves parsed as SAN, variations
//! and comments visited), parse + SAN resolved to legal moves and played on a position
//! (mainline only), and the same through `Replay` into a `Game`.

use std::convert::Infallible;
use std::time::Instant;

use chessbits_notation::san::SanPlus;
use chessbits_pgn::{
    resolve_san, GameResult, Nag, PgnReader, RawComment, RawTag, Replay, Skip, SliceReader, Visitor,
};
use chessbits_state::Position;

/// Counts everything, resolves nothing.
#[derive(Default)]
struct Count {
    tokens: u64,
}

impl Visitor for Count {
    type Output = ();
    type Error = Infallible;

    fn tag(&mut self, _: &[u8], _: RawTag<'_>) -> Result<(), Infallible> {
        self.tokens += 1;
        Ok(())
    }
    fn san(&mut self, _: SanPlus) -> Result<(), Infallible> {
        self.tokens += 1;
        Ok(())
    }
    fn nag(&mut self, _: Nag) {
        self.tokens += 1;
    }
    fn comment(&mut self, _: RawComment<'_>) {
        self.tokens += 1;
    }
    fn outcome(&mut self, _: GameResult) {
        self.tokens += 1;
    }
    fn end_game(&mut self) {}
}

/// Plays the mainline on a position.
#[derive(Default)]
struct Play {
    pos: Position,
    fen: Option<Position>,
    plies: u64,
}

impl Visitor for Play {
    type Output = ();
    type Error = String;

    fn begin_game(&mut self) {
        self.fen = None;
    }
    fn tag(&mut self, name: &[u8], value: RawTag<'_>) -> Result<(), String> {
        if name == b"FEN" {
            self.fen =
                Some(chessbits_pgn::start_position(Some(value.0)).map_err(|e| e.to_string())?);
        }
        Ok(())
    }
    fn begin_movetext(&mut self) -> Skip {
        self.pos = self.fen.unwrap_or_default();
        Skip(false)
    }
    fn begin_variation(&mut self) -> Skip {
        Skip(true)
    }
    fn san(&mut self, san: SanPlus) -> Result<(), String> {
        let m = resolve_san(&self.pos, &san.san).map_err(|e| e.to_string())?;
        self.pos.play_unchecked(m);
        self.plies += 1;
        Ok(())
    }
    fn end_game(&mut self) {}
}

fn main() {
    let files = chessbits_benches::pgn_files_from_args();
    let data: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).expect("read")).collect();
    let bytes: usize = data.iter().map(Vec::len).sum();
    let mb = bytes as f64 / 1e6;
    println!("{} files, {mb:.1} MB", files.len());

    // `PGN_SPEED_ONLY=parse` (or `play`, `replay`) runs one measurement, for profiling.
    let only = std::env::var("PGN_SPEED_ONLY").ok();
    let run = |name: &str| only.as_deref().is_none_or(|o| o == name);
    let runs = 5;
    let best = |f: &mut dyn FnMut() -> u64| {
        let mut best = f64::MAX;
        let mut n = 0;
        for _ in 0..runs {
            let t = Instant::now();
            n = f();
            best = best.min(t.elapsed().as_secs_f64());
        }
        (best, n)
    };

    if run("parse") {
        let (t, games) = best(&mut || {
            let mut games = 0;
            for d in &data {
                let mut reader = SliceReader::new(d);
                let mut v = Count::default();
                while let Some(g) = reader.read_game(&mut v) {
                    games += u64::from(g.is_ok());
                }
            }
            games
        });
        println!("parse only:        {:7.1} MB/s ({games} games)", mb / t);
    }
    if run("read") {
        let (t, games) = best(&mut || {
            let mut games = 0;
            for d in &data {
                let mut reader = PgnReader::new(d.as_slice());
                let mut v = Count::default();
                while let Some(g) = reader.read_game(&mut v) {
                    games += u64::from(g.is_ok());
                }
            }
            games
        });
        println!("parse only, Read:  {:7.1} MB/s ({games} games)", mb / t);
    }
    if run("play") {
        let (t, plies) = best(&mut || {
            let mut v = Play::default();
            for d in &data {
                let mut reader = SliceReader::new(d);
                while reader.read_game(&mut v).is_some() {}
            }
            v.plies
        });
        println!("parse + SAN, play: {:7.1} MB/s ({plies} plies)", mb / t);
    }
    if run("replay") {
        let (t, games) = best(&mut || {
            let mut games = 0;
            let mut v = Replay::default();
            for d in &data {
                let mut reader = SliceReader::new(d);
                while let Some(g) = reader.read_game(&mut v) {
                    games += u64::from(g.is_ok());
                }
            }
            games
        });
        println!("Replay into Game:  {:7.1} MB/s ({games} games)", mb / t);
    }
}
