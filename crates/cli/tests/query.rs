//! `chessbits query` (feature `query`) run as a user runs it, over games the binary exported
//! itself: the functions' text against `chessbits pgn --to uci` on the same PGN, the CSV and
//! table outputs, and the exit status of failures.
#![cfg(feature = "query")]

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::OnceLock;

const BIN: &str = env!("CARGO_BIN_EXE_chessbits");

fn pgn() -> String {
    chessbits_testkit::data("games/lichess-2021-10-sample.pgn").display().to_string()
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The sample exported once with `chessbits export`: `games=PATH`.
fn table() -> String {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    let path = PATH.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("chessbits-cli-query");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("sample.parquet");
        let out = run(&["export", &pgn(), "-o", path.to_str().unwrap()]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        path
    });
    format!("games={}", path.display())
}

fn query(sql: &str, more: &[&str]) -> Output {
    let table = table();
    let mut args = vec!["query", sql, "--table", &table];
    args.extend_from_slice(more);
    run(&args)
}

#[test]
fn chess_uci_and_fen_are_the_lines_of_pgn_to_uci() {
    let expected = run(&["pgn", &pgn(), "--to", "uci"]);
    assert!(expected.status.success());
    let out = query(
        "SELECT game, chess_fen_at(moves, plies, start_fen, plies) AS fen, chess_uci(moves, plies, start_fen) AS uci FROM games ORDER BY game",
        &["--threads", "2"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let csv = text(&out.stdout);
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("game,fen,uci"));
    // CSV quotes nothing here: FENs and moves hold no comma or quote.
    let got: Vec<String> = lines.map(|l| l.replace(',', "\t")).collect();
    let expected: Vec<&str> = std::str::from_utf8(&expected.stdout).unwrap().lines().collect();
    assert_eq!(got.len(), expected.len());
    assert!(got.len() > 60, "the sample has 66 games");
    for (got, expected) in got.iter().zip(expected) {
        assert_eq!(got, expected);
    }
}

#[test]
fn csv_has_a_header_and_table_is_for_people() {
    let sql = r#"SELECT "Result", count(*) AS games, min(plies) AS shortest FROM games GROUP BY 1 ORDER BY 1"#;
    let out = query(sql, &["--threads", "1"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    insta::assert_snapshot!(text(&out.stdout), @r"
    Result,games,shortest
    0-1,29,2
    1-0,35,1
    1/2-1/2,2,82
    ");
    let out = query(sql, &["--format", "table"]);
    insta::assert_snapshot!(text(&out.stdout), @r"
    +---------+-------+----------+
    | Result  | games | shortest |
    +---------+-------+----------+
    | 0-1     | 29    | 2        |
    | 1-0     | 35    | 1        |
    | 1/2-1/2 | 2     | 82       |
    +---------+-------+----------+
    ");
    // No row: the header alone.
    let out = query(r#"SELECT game, "White" FROM games WHERE plies < 0"#, &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    insta::assert_snapshot!(text(&out.stdout), @"game,White");
}

#[test]
fn failures_exit_1_with_the_reason_and_usage_errors_2() {
    let out = query("SELECT chess_uci(moves) FROM games", &[]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    // DataFusion wraps our message in its own words; ours must be inside.
    assert!(
        stderr.starts_with("chessbits: ")
            && stderr.contains(
                "chess_uci takes 3 arguments, got 1: call it as chess_uci(moves, plies, start_fen)"
            ),
        "{stderr}"
    );
    let out = run(&["query", "SELECT 1", "--table", "games=/nonexistent/x.parquet"]);
    assert_eq!(out.status.code(), Some(1));
    insta::assert_snapshot!(text(&out.stderr), @"chessbits: Error during planning: table games: /nonexistent/x.parquet: No such file or directory (os error 2)");
    let out = run(&["query", "SELECT 1"]);
    assert_eq!(out.status.code(), Some(2), "--table is required");
    let out = run(&["query", "SELECT 1", "--table", "games"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("expected NAME=PATH"), "{}", text(&out.stderr));
}
