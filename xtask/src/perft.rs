//! `cargo xtask perft`: the main job. See [`HELP`].

use std::fs;
use std::process::ExitCode;
use std::time::Instant;

use chessbits_move::CastlingMode;
use chessbits_movegen::{divide, perft, perft_make_unmake, perft_parallel, PerftTable};
use chessbits_notation::epd::Epd;
use chessbits_notation::fen;
use chessbits_notation::uci::{UciPosition, UciPositionError, UciPositionErrorKind};
use chessbits_state::Position;

const HELP: &str = "usage: cargo xtask perft [options]

With no options: perft of the start position to depth 6 (nodes, time, Mnps).

options:
  --fen FEN            start from FEN (FEN, X-FEN or Shredder-FEN; Chess960 is detected)
  --depth N            depth (default 6 for the start position, 5 with --fen)
  --moves \"e2e4 e7e5\"  play these UCI moves first
  --divide             print each root move with its count (Stockfish style)
  --chess960           write castling as king-takes-rook (UCI_Chess960)
  --make-unmake        visit every leaf with make/unmake instead of bulk counting
  --threads N          split the work across N threads (default 1)
  --hash MB            use a perft transposition table of MB MiB (default none)
  --suite FILE         run an EPD perft suite (FEN ;D1 n ;D2 n ..., or EPD with D1 n; ...)
  --max-depth D        with --suite: check depths up to D only
  --perftree DEPTH FEN [MOVES]
                       perftree-compatible output (move count lines, blank, total)";

struct Options {
    fen: Option<String>,
    depth: Option<u32>,
    moves: String,
    divide: bool,
    chess960: bool,
    make_unmake: bool,
    suite: Option<String>,
    max_depth: Option<u32>,
    threads: usize,
    hash_mb: Option<usize>,
    /// The table for `--hash`, made once per run and shared by every count (entries carry
    /// their full key and depth, so one table serves any number of positions).
    table: std::cell::OnceCell<Option<PerftTable>>,
}

impl Options {
    /// Perft of `pos` as the options say: bulk counting (threads, hash) or make/unmake.
    fn count(&self, pos: &Position, depth: u32) -> u64 {
        if self.make_unmake {
            return perft_make_unmake(pos, depth);
        }
        let table = self.table.get_or_init(|| self.hash_mb.map(PerftTable::new));
        match (self.threads, table) {
            (1, None) => perft(pos, depth),
            (threads, table) => perft_parallel(pos, depth, threads, table.as_ref()),
        }
    }
}

impl Options {
    /// The options in `args`, or `None` for `--help`.
    fn parse(args: &[String]) -> Result<Option<Options>, String> {
        let mut o = Options {
            fen: None,
            depth: None,
            moves: String::new(),
            divide: false,
            chess960: false,
            make_unmake: false,
            suite: None,
            max_depth: None,
            threads: 1,
            hash_mb: None,
            table: std::cell::OnceCell::new(),
        };
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            let mut value = |name: &str| it.next().cloned().ok_or(format!("{name} needs a value"));
            match arg.as_str() {
                "-h" | "--help" => return Ok(None),
                "--fen" => o.fen = Some(value("--fen")?),
                "--depth" => o.depth = Some(number(&value("--depth")?)?),
                "--moves" => o.moves = value("--moves")?,
                "--divide" => o.divide = true,
                "--chess960" => o.chess960 = true,
                "--make-unmake" => o.make_unmake = true,
                "--suite" => o.suite = Some(value("--suite")?),
                "--max-depth" => o.max_depth = Some(number(&value("--max-depth")?)?),
                "--threads" => o.threads = number(&value("--threads")?)?.max(1) as usize,
                "--hash" => o.hash_mb = Some(number(&value("--hash")?)? as usize),
                other => return Err(format!("unknown option {other:?}\n{HELP}")),
            }
        }
        Ok(Some(o))
    }

    /// How the count runs, for the header line: ` (2 threads, 64 MiB hash)`, or nothing.
    fn describe(&self) -> String {
        let mut how = Vec::new();
        if self.threads > 1 {
            how.push(format!("{} threads", self.threads));
        }
        if let Some(mb) = self.hash_mb {
            how.push(format!("{mb} MiB hash"));
        }
        if self.make_unmake {
            how.push("make/unmake".to_owned());
        }
        if how.is_empty() {
            String::new()
        } else {
            format!(" ({})", how.join(", "))
        }
    }
}

pub fn run(args: &[String]) -> Result<ExitCode, String> {
    if args.first().map(String::as_str) == Some("--perftree") {
        return perftree(&args[1..]);
    }
    let Some(o) = Options::parse(args)? else {
        println!("{HELP}");
        return Ok(ExitCode::SUCCESS);
    };
    if let Some(path) = &o.suite {
        return suite(path, &o);
    }
    let default_depth = if o.fen.is_some() { 5 } else { 6 };
    let depth = o.depth.unwrap_or(default_depth);
    let pos = position(o.fen.as_deref().unwrap_or("startpos"), &o.moves)?;
    if o.divide {
        let mode = if o.chess960 { CastlingMode::Chess960 } else { pos.castling_mode() };
        print_divide(&pos, depth, mode);
        return Ok(ExitCode::SUCCESS);
    }
    println!("perft depth {depth}{} of {}", o.describe(), fen::fen_of(&pos, Default::default()));
    let start = Instant::now();
    let nodes = o.count(&pos, depth);
    println!("nodes {nodes}  {}", rate(nodes, start.elapsed().as_secs_f64()));
    Ok(ExitCode::SUCCESS)
}

/// `--divide`: each root move with its count, Stockfish style, and the rate on stderr.
fn print_divide(pos: &Position, depth: u32, mode: CastlingMode) {
    let start = Instant::now();
    let split = divide(pos, depth);
    let total: u64 = split.iter().map(|&(_, n)| n).sum();
    for (m, n) in &split {
        println!("{}: {n}", m.to_uci(mode));
    }
    println!();
    println!("Nodes searched: {total}");
    eprintln!("{}", rate(total, start.elapsed().as_secs_f64()));
}

fn rate(nodes: u64, secs: f64) -> String {
    format!("time {secs:.3} s  {:.1} Mnps", nodes as f64 / secs.max(1e-9) / 1e6)
}

fn number(s: &str) -> Result<u32, String> {
    s.parse().map_err(|_| format!("not a number: {s:?}"))
}

/// The position after `moves` (UCI, whitespace-separated) from `start` (a FEN or `startpos`).
fn position(start: &str, moves: &str) -> Result<Position, String> {
    let cmd = UciPosition::from_parts(start, moves).map_err(|e| match e.kind {
        UciPositionErrorKind::Move { .. } => format!("bad moves {moves:?}: {e}"),
        _ => format!("bad FEN {start:?}: {e}"),
    })?;
    cmd.to_position().map_err(|e| match e {
        UciPositionError::Position(_) => format!("bad FEN {start:?}: {e}"),
        _ => format!("bad moves {moves:?}: {e}"),
    })
}

/// perftree calls `script DEPTH FEN [MOVES]` and reads `move count` lines, a blank line, and the
/// total.
fn perftree(args: &[String]) -> Result<ExitCode, String> {
    let [depth, fen_text, rest @ ..] = args else {
        return Err("--perftree needs DEPTH FEN [MOVES]".into());
    };
    let pos = position(fen_text, &rest.join(" "))?;
    let split = divide(&pos, number(depth)?);
    for (m, n) in &split {
        println!("{} {n}", m.to_uci(pos.castling_mode()));
    }
    println!();
    println!("{}", split.iter().map(|&(_, n)| n).sum::<u64>());
    Ok(ExitCode::SUCCESS)
}

/// Runs every line of an EPD perft suite: `FEN ;D1 20 ;D2 400 ...`.
fn suite(path: &str, o: &Options) -> Result<ExitCode, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let lines: Vec<&str> =
        text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).collect();
    let (mut passed, mut failed) = (0u32, 0u32);
    let mut total_nodes = 0u64;
    let started = Instant::now();
    for (i, line) in lines.iter().enumerate() {
        let number = i + 1;
        let epd = match line.parse::<Epd>() {
            Ok(epd) => epd,
            Err(e) => {
                println!("FAIL #{number}: cannot parse {:?}: {e}", line.trim());
                failed += 1;
                continue;
            }
        };
        let fen_text = epd.fen().to_string();
        let pos = match epd.to_position() {
            Ok(pos) => pos,
            Err(e) => {
                println!("FAIL #{number}: illegal position {fen_text:?}: {e}");
                failed += 1;
                continue;
            }
        };
        for (depth, expected) in epd.perft_counts() {
            if o.max_depth.is_some_and(|max| depth > max) {
                continue;
            }
            let start = Instant::now();
            let got = o.count(&pos, depth);
            total_nodes += got;
            let secs = start.elapsed().as_secs_f64();
            if got == expected {
                passed += 1;
                println!("ok   #{number} depth {depth}: {got} ({secs:.3} s)");
            } else {
                failed += 1;
                println!(
                    "FAIL #{number} depth {depth}: expected {expected}, got {got}  [{fen_text}]"
                );
            }
        }
        if lines.len() >= 20 && number % 10 == 0 {
            eprintln!(
                "[{number}/{}] {}",
                lines.len(),
                rate(total_nodes, started.elapsed().as_secs_f64())
            );
        }
    }
    eprintln!("{} nodes, {}", total_nodes, rate(total_nodes, started.elapsed().as_secs_f64()));
    println!("{passed} passed, {failed} failed");
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}
