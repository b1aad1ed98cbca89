//! `cargo xtask parquet-check [FILE.pgn]`: exports a PGN file with `chessbits export` and
//! reads the Parquet file with pyarrow and with DuckDB (each if installed: `pip install
//! pyarrow duckdb`; each absent one prints a skip message), checking that both see the
//! schema's columns and the same games, plies, players, Elos, dates and results as the
//! library reads from the PGN. Default file: testdata/games/lichess-2021-10-sample.pgn.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use chessbits_cbg::GameBuilder;
use chessbits_pgn::SliceReader;

/// The column names a reader must see, in order.
const COLUMNS: &str = "game,Event,Site,White,Black,Result,UTCDate,UTCTime,WhiteElo,BlackElo,ECO,Opening,TimeControl,Termination,tags,plies,start_fen,moves,clocks,evals,keys";

/// The pyarrow reader: prints the columns, then the summary lines.
const PYARROW: &str = r#"
import sys, collections
import pyarrow.parquet as pq
t = pq.read_table(sys.argv[1])
print(",".join(t.column_names))
d = t.to_pydict()
print("games", t.num_rows)
print("plies", sum(d["plies"]))
print("white_elo", sum(e for e in d["WhiteElo"] if e is not None))
print("first_white", d["White"][0])
print("first_date", d["UTCDate"][0].isoformat() if d["UTCDate"][0] else None)
print("clocks", sum(len(c) for c in d["clocks"] if c is not None))
print("keys", sum(len(k) for k in d["keys"]))
for r, n in sorted(collections.Counter(d["Result"]).items()):
    print("result", r, n)
"#;

/// The DuckDB reader: the same lines from SQL.
const DUCKDB: &str = r#"
import sys, duckdb
f = sys.argv[1]
c = duckdb.connect()
print(",".join(r[0] for r in c.execute(f"DESCRIBE SELECT * FROM read_parquet('{f}')").fetchall()))
g, p, e = c.execute(f"SELECT count(*), sum(plies), sum(WhiteElo) FROM read_parquet('{f}')").fetchone()
print("games", g); print("plies", p); print("white_elo", e)
w, d = c.execute(f"SELECT White, UTCDate FROM read_parquet('{f}') ORDER BY game LIMIT 1").fetchone()
print("first_white", w); print("first_date", d.isoformat() if d else None)
print("clocks", c.execute(f"SELECT coalesce(sum(len(clocks)), 0) FROM read_parquet('{f}')").fetchone()[0])
print("keys", c.execute(f"SELECT sum(len(keys)) FROM read_parquet('{f}')").fetchone()[0])
for r, n in c.execute(f"SELECT Result, count(*) FROM read_parquet('{f}') GROUP BY Result ORDER BY Result").fetchall():
    print("result", r, n)
"#;

/// What every reader must print, from the library's own reading of the PGN.
fn expected(pgn: &Path) -> Result<String, String> {
    let bytes = std::fs::read(pgn).map_err(|e| format!("{}: {e}", pgn.display()))?;
    let mut reader = SliceReader::new(&bytes);
    let mut builder = GameBuilder::default();
    let (mut games, mut plies, mut elo, mut clocks, mut keys) = (0u64, 0u64, 0i64, 0u64, 0u64);
    let mut first = None;
    let mut results = BTreeMap::new();
    while let Some(game) = reader.read_game(&mut builder) {
        let Ok(game) = game else { continue };
        let tag = |name: &str| game.tag(name).map(|v| String::from_utf8_lossy(v).into_owned());
        games += 1;
        plies += game.moves.len() as u64;
        elo += tag("WhiteElo").and_then(|e| e.parse::<i64>().ok()).unwrap_or(0);
        if game.clocks.iter().any(Option::is_some) {
            clocks += game.moves.len() as u64;
        }
        keys += game.moves.len().min(40) as u64;
        let date = tag("UTCDate").map(|d| d.replace('.', "-"));
        first.get_or_insert((tag("White"), date));
        *results.entry(tag("Result").unwrap_or_default()).or_insert(0) += 1;
    }
    let (white, date) = first.unwrap_or_default();
    let none = || "None".to_string();
    let mut out = format!(
        "{COLUMNS}\ngames {games}\nplies {plies}\nwhite_elo {elo}\nfirst_white {}\nfirst_date {}\nclocks {clocks}\nkeys {keys}\n",
        white.unwrap_or_else(none),
        date.unwrap_or_else(none)
    );
    for (result, n) in results {
        out.push_str(&format!("result {result} {n}\n"));
    }
    Ok(out)
}

fn has_module(module: &str) -> bool {
    Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

pub fn run(args: &[String]) -> Result<ExitCode, String> {
    let root = crate::project_root();
    let pgn = match args.first() {
        Some(file) => PathBuf::from(file),
        None => root.join("testdata/games/lichess-2021-10-sample.pgn"),
    };
    let readers: Vec<_> = [("pyarrow", PYARROW), ("duckdb", DUCKDB)]
        .into_iter()
        .filter(|(m, _)| {
            let present = has_module(m);
            if !present {
                println!("parquet-check: {m} is not installed (pip install {m}): skipped");
            }
            present
        })
        .collect();
    if readers.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    let dir = root.join("target/parquet-check");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let parquet = dir.join("games.parquet");
    println!("parquet-check: chessbits export {} -o {}", pgn.display(), parquet.display());
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .current_dir(&root)
        .args(["run", "--quiet", "-p", "chessbits-cli", "--", "export"])
        .arg(&pgn)
        .arg("-o")
        .arg(&parquet)
        .status()
        .map_err(|e| format!("cargo run: {e}"))?;
    if !status.success() {
        return Err(format!("chessbits export failed: {status}"));
    }
    let expected = expected(&pgn)?;
    let mut failed = false;
    for (module, script) in readers {
        let output = Command::new("python3")
            .args(["-c", script])
            .arg(&parquet)
            .output()
            .map_err(|e| format!("python3: {e}"))?;
        let got = String::from_utf8_lossy(&output.stdout);
        if output.status.success() && got == expected {
            println!("parquet-check: {module}: {} lines equal", expected.lines().count());
        } else {
            failed = true;
            println!("parquet-check: {module} differs");
            println!("{}", String::from_utf8_lossy(&output.stderr));
            for (e, g) in expected.lines().zip(got.lines()) {
                if e != g {
                    println!("  expected {e}\n  got      {g}");
                }
            }
        }
    }
    Ok(if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}
