//! `cargo xtask sql-bench [--repeats A,B,...] [--threads A,B,...]`: times the SQL questions of
//! docs/sql.md on growing sets of games, against the same questions answered by scanning the
//! PGN with the library, and checks that both give the same answer.
//!
//! The sets are the lichess games of `../shared/corpus/train/` repeated A, B, ... times
//! (default 4 and 34: about 120 thousand and 1 million games; the export's `game` column
//! numbers every copy apart). Each set is written as PGN under `target/sql-bench/`, exported
//! with `chessbits export` (timed), and asked each question with `chessbits query` once per
//! thread count (default 1 and 2). The CLI is built with its `query` feature in the `query`
//! profile (release optimisation without fat LTO). The PGN scan reads the file with
//! `SliceReader` and `GameBuilder` on one thread (SAN resolved and played, as any PGN reader
//! must), once per question, from memory. Times are whole runs (the query's start-up and
//! Parquet reading included) in seconds; `answer` says whether the query's CSV equals the
//! scan's.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

use chessbits_cbg::{GameBuilder, GameRecord};
use chessbits_notation::fen::parse_position;
use chessbits_pgn::SliceReader;

use crate::project_root;

const USAGE: &str = "usage: cargo xtask sql-bench [--repeats A,B,...] [--threads A,B,...]";

/// The position of `reaches`: the Najdorf Sicilian after 5...a6.
const NAJDORF: &str = "rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 6";
/// The position of `replies`: after 1. e4 e5.
const E4_E5: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";

/// A question: its name, its SQL, and its answer from the scan of a game list.
struct Question {
    name: &'static str,
    sql: String,
    scan: fn(&[u8]) -> Result<String, String>,
}

fn questions() -> Vec<Question> {
    vec![
        Question {
            name: "results",
            sql: r#"SELECT "Result", count(*) AS games FROM games GROUP BY 1 ORDER BY 1"#.into(),
            scan: scan_results,
        },
        Question {
            name: "reaches",
            sql: format!(
                "SELECT count(*) AS games FROM games WHERE chess_reaches(moves, plies, start_fen, '{NAJDORF}')"
            ),
            scan: scan_reaches,
        },
        Question {
            name: "reaches-keys",
            sql: format!(
                "SELECT count(*) AS games FROM games WHERE array_has(keys, chess_key('{NAJDORF}'))"
            ),
            scan: scan_reaches,
        },
        Question {
            name: "replies",
            sql: format!(
                "SELECT reply, count(*) AS games FROM (SELECT chess_next_move(moves, plies, start_fen, '{E4_E5}') AS reply FROM games) WHERE reply IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1"
            ),
            scan: scan_replies,
        },
    ]
}

/// Calls `each` for every game of `pgn` that reads (the export skips the others too).
fn for_each_game(pgn: &[u8], mut each: impl FnMut(&GameRecord)) {
    let mut reader = SliceReader::new(pgn);
    let mut builder = GameBuilder::default();
    while let Some(game) = reader.read_game(&mut builder) {
        if let Ok(game) = game {
            each(&game);
        }
    }
}

fn scan_results(pgn: &[u8]) -> Result<String, String> {
    let mut by_result: BTreeMap<Option<String>, u64> = BTreeMap::new();
    for_each_game(pgn, |game| {
        let result = game
            .tag("Result")
            .map(|v| String::from_utf8_lossy(v).into_owned())
            .or_else(|| game.result.map(|r| r.as_str().to_owned()));
        *by_result.entry(result).or_insert(0) += 1;
    });
    let mut csv = String::from("Result,games\n");
    // SQL's ascending order puts NULL last; CSV writes it as an empty field.
    let (nulls, values): (Vec<_>, Vec<_>) = by_result.into_iter().partition(|(r, _)| r.is_none());
    for (result, n) in values.into_iter().chain(nulls) {
        let _ = writeln!(csv, "{},{n}", result.unwrap_or_default());
    }
    Ok(csv)
}

/// The ply at which `game` first stands on the position of key `key`.
fn first_reach(game: &GameRecord, key: u64) -> Option<usize> {
    let mut pos = game.start;
    if pos.key() == key {
        return Some(0);
    }
    for (ply, &m) in game.moves.iter().enumerate() {
        pos.play_unchecked(m);
        if pos.key() == key {
            return Some(ply + 1);
        }
    }
    None
}

fn key_of(fen: &str) -> Result<u64, String> {
    parse_position(fen).map(|pos| pos.key()).map_err(|e| format!("{fen}: {e}"))
}

fn scan_reaches(pgn: &[u8]) -> Result<String, String> {
    let key = key_of(NAJDORF)?;
    let mut games = 0u64;
    for_each_game(pgn, |game| games += u64::from(first_reach(game, key).is_some()));
    Ok(format!("games\n{games}\n"))
}

fn scan_replies(pgn: &[u8]) -> Result<String, String> {
    let key = key_of(E4_E5)?;
    let mut replies: HashMap<String, u64> = HashMap::new();
    for_each_game(pgn, |game| {
        if let Some(&m) = first_reach(game, key).and_then(|ply| game.moves.get(ply)) {
            *replies.entry(game.start.uci(m).to_string()).or_insert(0) += 1;
        }
    });
    let mut rows: Vec<_> = replies.into_iter().collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let mut csv = String::from("reply,games\n");
    for (reply, n) in rows {
        let _ = writeln!(csv, "{reply},{n}");
    }
    Ok(csv)
}

fn list(value: Option<&String>, what: &str) -> Result<Vec<u32>, String> {
    let value = value.ok_or_else(|| format!("{what} needs a list of numbers"))?;
    value
        .split(',')
        .map(|n| n.parse().map_err(|_| format!("{what}: not a number: {n:?}")))
        .collect()
}

/// The lichess training games, one PGN text.
fn corpus() -> Result<Vec<u8>, String> {
    let dir = project_root().join("../shared/corpus/train");
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    files.sort();
    let mut pgn = Vec::new();
    for file in files {
        pgn.extend(fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?);
        pgn.extend_from_slice(b"\n\n");
    }
    Ok(pgn)
}

/// Runs `cmd`, failing with its stderr unless it exits with 0 (or 1 when `games_may_fail`:
/// `export` exits with 1 when some games do not read, as 7 of the corpus do not); returns its
/// stdout and the wall time in seconds.
fn timed(cmd: &mut Command, games_may_fail: bool) -> Result<(String, f64), String> {
    let start = Instant::now();
    let out = cmd.output().map_err(|e| format!("{cmd:?}: {e}"))?;
    let seconds = start.elapsed().as_secs_f64();
    if !(out.status.success() || games_may_fail && out.status.code() == Some(1)) {
        return Err(format!("{cmd:?}: {}", String::from_utf8_lossy(&out.stderr)));
    }
    Ok((String::from_utf8_lossy(&out.stdout).into_owned(), seconds))
}

fn size(path: &Path) -> Result<u64, String> {
    fs::metadata(path).map(|m| m.len()).map_err(|e| format!("{}: {e}", path.display()))
}

/// Runs the task.
pub fn run(args: &[String]) -> Result<ExitCode, String> {
    let mut repeats = vec![4, 34];
    let mut threads = vec![1, 2];
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--repeats" => repeats = list(args.next(), "--repeats")?,
            "--threads" => threads = list(args.next(), "--threads")?,
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(ExitCode::SUCCESS);
            }
            other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
        }
    }
    let root = project_root();
    eprintln!("building chessbits with the query feature (profile query)");
    let status = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .current_dir(&root)
        .args(["build", "--profile", "query", "-p", "chessbits-cli", "--features", "query"])
        .status()
        .map_err(|e| format!("cargo build: {e}"))?;
    if !status.success() {
        return Err("cargo build of the CLI failed".into());
    }
    let bin = root.join("target/query/chessbits");
    let dir = root.join("target/sql-bench");
    fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let corpus = corpus()?;
    let mut corpus_games = 0u64;
    for_each_game(&corpus, |_| corpus_games += 1);
    println!("corpus: {corpus_games} games that read, {} bytes of PGN", corpus.len());
    let mut differs = false;
    for &r in &repeats {
        let pgn_path = dir.join(format!("games-x{r}.pgn"));
        let parquet = dir.join(format!("games-x{r}.parquet"));
        let pgn = corpus.repeat(r as usize);
        fs::write(&pgn_path, &pgn).map_err(|e| format!("{}: {e}", pgn_path.display()))?;
        let games = corpus_games * u64::from(r);
        let (_, export) =
            timed(Command::new(&bin).arg("export").arg(&pgn_path).arg("-o").arg(&parquet), true)?;
        println!(
            "\nset x{r}: {games} games; PGN {} B/game, Parquet {} B/game; export {export:.2} s ({:.0} games/s)",
            pgn.len() as u64 / games,
            size(&parquet)? / games,
            games as f64 / export
        );
        let mut header = String::from("question\tscan s");
        for t in &threads {
            let _ = write!(header, "\t{t} thread s");
        }
        println!("{header}\trows\tanswer");
        for q in questions() {
            let start = Instant::now();
            let expected = (q.scan)(&pgn)?;
            let scan = start.elapsed().as_secs_f64();
            let mut line = format!("{}\t{scan:.2}", q.name);
            let mut same = true;
            for t in &threads {
                let (csv, seconds) = timed(
                    Command::new(&bin)
                        .args(["query", &q.sql, "--threads", &t.to_string(), "--table"])
                        .arg(format!("games={}", parquet.display())),
                    false,
                )?;
                same &= csv == expected;
                let _ = write!(line, "\t{seconds:.2}");
            }
            differs |= !same;
            let rows = expected.lines().count() - 1;
            println!("{line}\t{rows}\t{}", if same { "equal" } else { "differs" });
        }
        fs::remove_file(&pgn_path).map_err(|e| format!("{}: {e}", pgn_path.display()))?;
    }
    Ok(if differs { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}
