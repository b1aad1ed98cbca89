//! SAN resolution speed alone: the mainlines of the PGN files given on the command line (default:
//! the shared corpus) are read once into lists of SAN moves, then replayed from their start
//! positions, timed without the PGN scanner.
//!
//! `cargo run --release -p chessbits-benches --example san_speed [FILE...]` prints, per ply, the
//! time to play the moves already resolved (the baseline), to resolve each SAN with
//! [`San::to_move`] and play it, and to find it in the generator's move list and play it; and
//! each against the baseline measured in the same run. `SAN_SPEED_ONLY=resolve` runs the
//! resolution alone, for profiling; `SAN_SPEED_RUNS=1` times one run instead of the best of 15.

use std::convert::Infallible;
use std::time::Instant;

use chessbits_move::Move16;
use chessbits_movegen::MoveGen;
use chessbits_notation::san::{San, SanPlus};
use chessbits_pgn::{resolve_san, RawTag, Skip, SliceReader, Visitor};
use chessbits_state::Position;

/// One mainline: its start and its moves, as SAN and as resolved.
struct Line {
    start: Position,
    sans: Vec<San>,
    moves: Vec<Move16>,
}

/// Collects the mainlines that replay without error.
#[derive(Default)]
struct Collect {
    fen: Option<Position>,
    pos: Position,
    line: Option<Line>,
    lines: Vec<Line>,
}

impl Visitor for Collect {
    type Output = ();
    type Error = Infallible;

    fn begin_game(&mut self) {
        self.fen = None;
    }
    fn tag(&mut self, name: &[u8], value: RawTag<'_>) -> Result<(), Infallible> {
        if name == b"FEN" {
            self.fen = chessbits_pgn::start_position(Some(value.0)).ok();
        }
        Ok(())
    }
    fn begin_movetext(&mut self) -> Skip {
        self.pos = self.fen.unwrap_or_default();
        self.line = Some(Line { start: self.pos, sans: Vec::new(), moves: Vec::new() });
        Skip(false)
    }
    fn begin_variation(&mut self) -> Skip {
        Skip(true)
    }
    fn san(&mut self, san: SanPlus) -> Result<(), Infallible> {
        if let Some(line) = &mut self.line {
            match resolve_san(&self.pos, &san.san) {
                Ok(m) if san.san != San::Null => {
                    self.pos.play_unchecked(m);
                    line.sans.push(san.san);
                    line.moves.push(m);
                }
                _ => self.line = None,
            }
        }
        Ok(())
    }
    fn end_game(&mut self) {
        self.lines.extend(self.line.take());
    }
}

fn main() {
    let files = chessbits_benches::pgn_files_from_args();
    let mut collect = Collect::default();
    for file in &files {
        let data = std::fs::read(file).expect("read");
        let mut reader = SliceReader::new(&data);
        while reader.read_game(&mut collect).is_some() {}
    }
    let lines = collect.lines;
    let plies: usize = lines.iter().map(|l| l.moves.len()).sum();
    println!("{} files, {} games, {plies} plies", files.len(), lines.len());

    let only = std::env::var("SAN_SPEED_ONLY").ok();
    let run = |name: &str| only.as_deref().is_none_or(|o| o == name);
    // `SAN_SPEED_RUNS=1` for a simulator (cachegrind), where one run is deterministic.
    let runs = std::env::var("SAN_SPEED_RUNS").ok().and_then(|r| r.parse().ok()).unwrap_or(15);
    // Best of `runs`, in nanoseconds a ply; the checksum keeps the work from being optimised out.
    let best = |f: &dyn Fn() -> u64| {
        let mut best = f64::MAX;
        for _ in 0..runs {
            let t = Instant::now();
            std::hint::black_box(f());
            best = best.min(t.elapsed().as_secs_f64());
        }
        best * 1e9 / plies as f64
    };

    let play = best(&|| {
        let mut sum = 0u64;
        for line in &lines {
            let mut pos = line.start;
            for &m in &line.moves {
                pos.play_unchecked(m);
            }
            sum = sum.wrapping_add(pos.key());
        }
        sum
    });
    println!("play resolved moves:   {play:6.1} ns/ply (baseline)");
    if run("resolve") {
        let t = best(&|| {
            let mut sum = 0u64;
            for line in &lines {
                let mut pos = line.start;
                for san in &line.sans {
                    let m = san.to_move(&pos).expect("replayed once already");
                    pos.play_unchecked(m);
                }
                sum = sum.wrapping_add(pos.key());
            }
            sum
        });
        println!("SAN to_move + play:    {t:6.1} ns/ply ({:.2}x baseline)", t / play);
    }
    if run("list") {
        let t = best(&|| {
            let mut sum = 0u64;
            for line in &lines {
                let mut pos = line.start;
                for &want in &line.moves {
                    let m = pos.legal_moves().iter().copied().find(|&m| m == want);
                    pos.play_unchecked(m.expect("replayed once already"));
                }
                sum = sum.wrapping_add(pos.key());
            }
            sum
        });
        println!("move list find + play: {t:6.1} ns/ply ({:.2}x baseline)", t / play);
    }
}
