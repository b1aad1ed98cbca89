//! `chessbits-compare`: chessbits against cozy-chess, shakmaty and chess (jordanbray), measured
//! side by side in one process, single-threaded. See [`HELP`] and `docs/perft.md`.
//!
//! Every library's node counts are checked against each other (and against the suites' known
//! counts) before and during timing; a difference aborts the run. Each (workload, position)
//! is timed `--runs` times with the libraries interleaved, and the median is reported with the
//! ratio peer / chessbits (above 1: chessbits is faster).

mod peers;
mod pgn;

use std::process::ExitCode;
use std::time::{Duration, Instant};

use chessbits_benches::EpdPosition;
use chessbits_notation::fen::{fen_of, CastlingNotation, EnPassantMode, FenOptions};
use chessbits_movegen::MoveGen;
use peers::{Boards, LIBS};

const HELP: &str = "usage: cargo xtask compare [options]

Times chessbits, cozy-chess, shakmaty and chess (jordanbray) on three single-threaded workloads:
  bulk     perft with bulk counting at the last ply, on each standard position
  leaves   perft that plays every move down to the leaves (no bulk counting), one ply less
  movegen  the full legal move list of each of 1000 fixed positions, many passes
and prints the median time of each and the ratio peer / chessbits (above 1: chessbits faster).

A fourth workload, pgn, times chessbits' PGN reader against pgn-reader (shakmaty resolving
SAN) on PGN files of ../shared/corpus held in memory: parse only (tags and mainline SAN
tokens, variations skipped), and parse + every SAN resolved and played. It prints MB/s and
games/s for each and the ratio pgn-reader time / chessbits time. It runs only when named.

options:
  --runs N            timed runs per library and measurement, interleaved (default 5)
  --quick             two plies less and a twentieth of the passes: a smoke test
  --workload NAME     run only this workload (bulk, leaves, movegen, pgn); may be repeated";

/// The bulk-counting perft depth of each standard position (the leaf workload uses one less).
/// Fixed, so that results are comparable run to run: each takes roughly 0.2-2 s for chessbits.
const DEPTHS: [(&str, u32); 7] = [
    ("startpos", 6),
    ("kiwipete", 5),
    ("position3", 7),
    ("position4", 6),
    ("position4-mirrored", 6),
    ("position5", 5),
    ("position6", 5),
];

/// The size of the move generation set and how many times it is walked per measurement.
const MOVEGEN_POSITIONS: usize = 1000;
const MOVEGEN_PASSES: u32 = 4_000;

#[derive(Copy, Clone, PartialEq, Eq)]
enum Workload {
    Bulk,
    Leaves,
    Movegen,
    Pgn,
}

impl Workload {
    const ALL: [Workload; 3] = [Workload::Bulk, Workload::Leaves, Workload::Movegen];

    fn name(self) -> &'static str {
        match self {
            Workload::Bulk => "bulk",
            Workload::Leaves => "leaves",
            Workload::Movegen => "movegen",
            Workload::Pgn => "pgn",
        }
    }
}

struct Options {
    runs: usize,
    quick: bool,
    workloads: Vec<Workload>,
}

/// One row of the table: the median time of each library.
struct Row {
    workload: Workload,
    position: String,
    detail: String,
    medians: Vec<Duration>,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match parse_args(&args).and_then(run) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut o = Options { runs: 5, quick: false, workloads: Vec::new() };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "-h" | "--help" => {
                println!("{HELP}");
                std::process::exit(0);
            }
            "--runs" => {
                let v = it.next().ok_or("--runs needs a value")?;
                o.runs = v.parse().ok().filter(|&n| n > 0).ok_or(format!("bad --runs {v:?}"))?;
            }
            "--quick" => o.quick = true,
            "--workload" => {
                let v = it.next().ok_or("--workload needs a value")?;
                let w = Workload::ALL.into_iter().chain([Workload::Pgn]).find(|w| w.name() == v);
                o.workloads.push(w.ok_or(format!("unknown workload {v:?}\n{HELP}"))?);
            }
            other => return Err(format!("unknown option {other:?}\n{HELP}")),
        }
    }
    if o.workloads.is_empty() {
        o.workloads = Workload::ALL.to_vec();
    }
    Ok(o)
}

/// Which of chessbits' copies compiled for CPU features run here (chosen at run time the way
/// `chessbits-movegen` chooses them): its figures differ by a third and more between them, so
/// a table is read with this line.
fn code_paths() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        let fast_bits = has!("popcnt") && has!("lzcnt") && has!("bmi1") && has!("bmi2");
        let wide = has!("avx512f") && has!("avx512bw") && has!("avx512vbmi2");
        let wide = wide && has!("avx512vpopcntdq");
        let avx2 = has!("avx2");
        match (fast_bits, wide, avx2) {
            (false, _, _) => "portable (no POPCNT/BMI2)",
            (true, true, _) => {
                "fast bits (POPCNT, BMI2), AVX-512 (lists, counts) and AVX2 (every-leaf walk)"
            }
            (true, false, true) => {
                "fast bits (POPCNT, BMI2) and AVX2 (bulk counts, every-leaf walk); no AVX-512"
            }
            (true, false, false) => "fast bits (POPCNT, BMI2); no AVX2, no AVX-512",
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        "portable (not x86-64)"
    }
}

fn run(o: Options) -> Result<ExitCode, String> {
    let shallower = if o.quick { 2 } else { 0 };
    let passes = if o.quick { MOVEGEN_PASSES / 20 } else { MOVEGEN_PASSES };
    println!(
        "chessbits-compare: {} runs per measurement, median, libraries interleaved{}",
        o.runs,
        if o.quick { " (--quick: shallower, not comparable with full runs)" } else { "" }
    );
    println!("chessbits' code paths on this CPU: {}", code_paths());
    let standard = standard_positions()?;

    let mut rows = Vec::new();
    for &w in &o.workloads {
        match w {
            Workload::Bulk | Workload::Leaves => {
                for (p, boards, depth) in &standard {
                    let depth = depth - shallower - u32::from(w == Workload::Leaves);
                    rows.push(perft_row(w, p, boards, depth, o.runs)?);
                }
            }
            Workload::Movegen => rows.push(movegen_row(passes, o.runs)?),
            Workload::Pgn => pgn_table(o.runs, o.quick)?,
        }
    }
    if !rows.is_empty() {
        print_table(&rows);
    }
    Ok(ExitCode::SUCCESS)
}

/// The standard positions with each library's board and the bulk depth of [`DEPTHS`].
fn standard_positions() -> Result<Vec<(EpdPosition, Boards, u32)>, String> {
    chessbits_benches::standard()
        .into_iter()
        .map(|p| {
            let depth = DEPTHS.iter().find(|(n, _)| *n == p.name).map(|&(_, d)| d);
            let depth = depth.ok_or(format!("no depth for standard position {}", p.name))?;
            let boards = Boards::parse(&p.fen)?;
            Ok((p, boards, depth))
        })
        .collect()
}

/// Checks every library at two plies less, then times each at `depth`.
fn perft_row(
    w: Workload,
    p: &EpdPosition,
    boards: &Boards,
    depth: u32,
    runs: usize,
) -> Result<Row, String> {
    let f = if w == Workload::Bulk { peers::bulk } else { peers::leaves };
    let what = |d: u32| format!("{} perft of {} at depth {d}", w.name(), p.name);
    let check_depth = depth.saturating_sub(2);
    let counts: Vec<u64> = (0..LIBS.len()).map(|lib| f(lib, boards, check_depth)).collect();
    check(&what(check_depth), p.nodes(check_depth), &counts)?;

    eprintln!("timing {} ...", what(depth));
    let mut expected = p.nodes(depth);
    let medians = measure(LIBS.len(), runs, |lib| {
        let nodes = f(lib, boards, depth);
        let want = *expected.get_or_insert(nodes);
        if nodes == want {
            Ok(())
        } else {
            Err(format!("{}: {} counts {nodes} nodes, expected {want}", what(depth), LIBS[lib]))
        }
    })?;
    let nodes = expected.unwrap_or_default();
    Ok(Row { workload: w, position: p.name.clone(), detail: format!("{depth} ({nodes})"), medians })
}

/// The move generation set: every suite position that all four libraries can hold (standard
/// chess, and the Chess960 positions without castling rights), each once, then the position after
/// the middle move (by UCI text) of each of them, up to [`MOVEGEN_POSITIONS`].
fn movegen_set() -> Result<Vec<(String, Option<u64>)>, String> {
    let mut set: Vec<(String, Option<u64>)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut base = Vec::new();
    for (name, _) in chessbits_benches::SUITES {
        for p in chessbits_benches::suite(name) {
            let castling = p.fen.split_whitespace().nth(2).unwrap_or("-");
            if name == "chess960" && castling != "-" {
                continue;
            }
            let key: Vec<&str> = p.fen.split_whitespace().take(4).collect();
            if seen.insert(key.join(" ")) {
                set.push((p.fen.to_owned(), p.nodes(1)));
                base.push(p.position);
            }
        }
    }
    let options = FenOptions { castling: CastlingNotation::XFen, en_passant: EnPassantMode::Legal };
    for pos in base {
        if set.len() >= MOVEGEN_POSITIONS {
            break;
        }
        let mut moves: Vec<_> = pos.legal_moves().into_iter().collect();
        moves.sort_by_key(|m| m.to_uci(pos.castling_mode()).to_string());
        if let Some(&m) = moves.get(moves.len() / 2) {
            let fen = fen_of(&pos.played_unchecked(m), options);
            let key: Vec<&str> = fen.split_whitespace().take(4).collect();
            if seen.insert(key.join(" ")) {
                set.push((fen, None));
            }
        }
    }
    set.truncate(MOVEGEN_POSITIONS);
    Ok(set)
}

fn movegen_row(passes: u32, runs: usize) -> Result<Row, String> {
    let fens = movegen_set()?;
    let mut set = Vec::with_capacity(fens.len());
    let mut total = 0;
    for (fen, known) in &fens {
        let boards = Boards::parse(fen)?;
        let counts: Vec<u64> = (0..LIBS.len()).map(|lib| peers::count(lib, &boards)).collect();
        check(&format!("legal moves of {fen}"), *known, &counts)?;
        total += counts[0];
        set.push(boards);
    }
    let what = format!("movegen of {} positions x {passes} passes", set.len());
    eprintln!("timing {what} ...");
    let medians = measure(LIBS.len(), runs, |lib| {
        let listed = peers::movegen(lib, &set, passes);
        if listed == total * u64::from(passes) {
            Ok(())
        } else {
            Err(format!(
                "{what}: {} lists {listed} moves, expected {}",
                LIBS[lib],
                total * u64::from(passes)
            ))
        }
    })?;
    Ok(Row {
        workload: Workload::Movegen,
        position: format!("{} positions", set.len()),
        detail: format!("x{passes} ({total} moves)"),
        medians,
    })
}

/// Fails unless every library's count is the same, and the known count where there is one.
fn check(what: &str, known: Option<u64>, counts: &[u64]) -> Result<(), String> {
    let want = known.unwrap_or(counts[0]);
    if counts.iter().all(|&c| c == want) {
        return Ok(());
    }
    let got: Vec<String> = LIBS.iter().zip(counts).map(|(l, c)| format!("{l} {c}")).collect();
    let known = known.map_or(String::new(), |k| format!(" (known: {k})"));
    Err(format!("node counts differ for {what}{known}: {}", got.join(", ")))
}

/// Times `f(lib)` for each of `libs` libraries, `runs` times, interleaving the libraries (each
/// run starts with the next library), and returns each library's median.
fn measure(
    libs: usize,
    runs: usize,
    mut f: impl FnMut(usize) -> Result<(), String>,
) -> Result<Vec<Duration>, String> {
    let mut times = vec![Vec::with_capacity(runs); libs];
    for run in 0..runs {
        for i in 0..libs {
            let lib = (run + i) % libs;
            let start = Instant::now();
            f(lib)?;
            times[lib].push(start.elapsed());
        }
    }
    Ok(times
        .into_iter()
        .map(|mut t| {
            t.sort();
            t[t.len() / 2]
        })
        .collect())
}

fn print_table(rows: &[Row]) {
    let peers = &LIBS[1..];
    let mut header = format!("{:<8} {:<18} {:<22}", "workload", "position", "depth (nodes)");
    for lib in LIBS {
        header += &format!(" {lib:>10}");
    }
    for peer in peers {
        header += &format!(" {:>10}", format!("{}/cb", short(peer)));
    }
    println!();
    println!("{header}");
    println!("{}", "-".repeat(header.len()));
    for r in rows {
        let mut line = format!("{:<8} {:<18} {:<22}", r.workload.name(), r.position, r.detail);
        for t in &r.medians {
            line += &format!(" {:>10}", millis(*t));
        }
        for t in &r.medians[1..] {
            line += &format!(" {:>10.2}", ratio(*t, r.medians[0]));
        }
        println!("{line}");
    }
    println!();
    println!("geometric mean of peer time / chessbits time (above 1: chessbits is faster)");
    let mut header = format!("{:<8}", "workload");
    for peer in peers {
        header += &format!(" {peer:>10}");
    }
    header += &format!(" {:>13}", "fastest peer");
    println!("{header}");
    for w in Workload::ALL {
        let rows: Vec<&Row> = rows.iter().filter(|r| r.workload == w).collect();
        if rows.is_empty() {
            continue;
        }
        let mut line = format!("{:<8}", w.name());
        for lib in 1..LIBS.len() {
            line += &format!(
                " {:>10.2}",
                geomean(rows.iter().map(|r| ratio(r.medians[lib], r.medians[0])))
            );
        }
        let fastest = rows.iter().map(|r| {
            let best = r.medians[1..].iter().min().copied().unwrap_or_default();
            ratio(best, r.medians[0])
        });
        line += &format!(" {:>13.2}", geomean(fastest));
        println!("{line}");
    }
    println!("times are medians in milliseconds; cb = chessbits");
}

fn short(lib: &str) -> &str {
    match lib {
        "cozy-chess" => "cozy",
        "shakmaty" => "shak",
        other => other,
    }
}

fn millis(t: Duration) -> String {
    format!("{:.1}", t.as_secs_f64() * 1e3)
}

fn ratio(peer: Duration, chessbits: Duration) -> f64 {
    peer.as_secs_f64() / chessbits.as_secs_f64()
}

fn geomean(xs: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = xs.fold((0.0, 0u32), |(s, n), x| (s + x.ln(), n + 1));
    (sum / f64::from(n.max(1))).exp()
}

/// The PGN files of the pgn workload, in `../shared/corpus` beside the repository: pgn-reader's
/// own benchmark files (lichess and TWIC, 1 MB each), a lichess file with clock comments, and
/// 21 MB of master games with CRLF line ends. None has a FEN tag, so every game starts from the
/// standard position.
const PGN_FILES: [&str; 4] = [
    "lichess-db-2025-05-head1000k.pgn",
    "twic1599-head1000k.pgn",
    "lichess-db-2021-10-first999.pgn",
    "pgnmentor-world-champions.pgn",
];

/// Times both PGN readers on each of [`PGN_FILES`], parse only and with SAN replayed, and
/// prints a table of medians, MB/s, games/s and the ratio pgn-reader / chessbits.
fn pgn_table(runs: usize, quick: bool) -> Result<(), String> {
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    let files = if quick { &PGN_FILES[..1] } else { &PGN_FILES[..] };
    println!();
    println!(
        "{:<34} {:<7} {:>7} {:>9} {:>9} {:>9} {:>9} {:>9} {:>8}",
        "pgn file", "mode", "games", "cb ms", "pr ms", "cb MB/s", "pr MB/s", "cb kg/s", "pr/cb"
    );
    let mut ratios = [Vec::new(), Vec::new()];
    for name in files {
        let path = corpus.join(name);
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        for (mode, replay) in [("parse", false), ("replay", true)] {
            let ours = pgn::chessbits(&bytes, replay)?;
            let theirs = pgn::pgn_reader(&bytes, replay)?;
            if ours != theirs {
                return Err(format!(
                    "{name} {mode}: chessbits reads {ours:?} (games, moves), pgn-reader {theirs:?}"
                ));
            }
            eprintln!("timing pgn {mode} of {name} ...");
            let medians = measure(2, runs, |lib| {
                let got = if lib == 0 {
                    pgn::chessbits(&bytes, replay)?
                } else {
                    pgn::pgn_reader(&bytes, replay)?
                };
                if got == ours {
                    Ok(())
                } else {
                    Err(format!("{name} {mode}: counts changed between runs"))
                }
            })?;
            let mb = bytes.len() as f64 / 1e6;
            let r = ratio(medians[1], medians[0]);
            ratios[usize::from(replay)].push(r);
            println!(
                "{:<34} {:<7} {:>7} {:>9} {:>9} {:>9.1} {:>9.1} {:>9.1} {:>8.2}",
                name,
                mode,
                ours.0,
                millis(medians[0]),
                millis(medians[1]),
                mb / medians[0].as_secs_f64(),
                mb / medians[1].as_secs_f64(),
                ours.0 as f64 / 1e3 / medians[0].as_secs_f64(),
                r
            );
        }
    }
    println!(
        "geometric mean of pgn-reader time / chessbits time: parse {:.2}, replay {:.2}",
        geomean(ratios[0].iter().copied()),
        geomean(ratios[1].iter().copied())
    );
    println!("(above 1: chessbits is faster; kg/s = thousands of games per second)");
    Ok(())
}
