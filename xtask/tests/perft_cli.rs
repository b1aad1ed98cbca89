//! `cargo xtask perft` as users and tools call it: output formats and exit status.

use std::path::PathBuf;
use std::process::{Command, Output};

fn xtask(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask"))
        .arg("perft")
        .args(args)
        .output()
        .expect("the xtask binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// A suite file in the test's own temporary directory.
fn suite_file(name: &str, text: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn divide_is_stockfish_style() {
    let out = xtask(&["--divide", "--depth", "2"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 20 + 2, "{text}");
    assert!(
        lines[..20].iter().all(|l| l.split_once(": ").is_some_and(|(_, n)| n == "20")),
        "{text}"
    );
    assert_eq!(lines[20], "");
    assert_eq!(lines[21], "Nodes searched: 400");
}

#[test]
fn perftree_mode_prints_moves_blank_and_total() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let out = xtask(&["--perftree", "2", fen, "e1g1 a6b5"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let (moves, total) =
        text.trim_end().rsplit_once("\n\n").expect("a blank line before the total");
    assert_eq!(total, "2091");
    let sum: u64 =
        moves.lines().map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(sum, 2091);
    assert!(moves.lines().all(|l| l.split(' ').count() == 2), "{moves}");
}

#[test]
fn chess960_castling_is_written_king_takes_rook() {
    // Shredder-FEN, detected as Chess960 without a flag.
    let out = xtask(&["--fen", "6kr/8/8/8/8/8/8/RK6 w Ah - 0 1", "--depth", "1", "--divide"]);
    assert!(out.status.success());
    assert!(stdout(&out).lines().any(|l| l == "b1a1: 1"), "{}", stdout(&out));
    // Standard castling reads e1g1 in and writes it out.
    let out = xtask(&["--fen", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "--depth", "1", "--divide"]);
    assert!(stdout(&out).lines().any(|l| l == "e1g1: 1"), "{}", stdout(&out));
    let out = xtask(&[
        "--fen",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "--depth",
        "1",
        "--divide",
        "--chess960",
    ]);
    assert!(stdout(&out).lines().any(|l| l == "e1h1: 1"), "{}", stdout(&out));
}

#[test]
fn suites_pass_and_fail_with_the_right_exit_status() {
    let good = suite_file(
        "good.epd",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400\n",
    );
    let out = xtask(&["--suite", good.to_str().unwrap()]);
    assert!(out.status.success());
    assert_eq!(stdout(&out).lines().last(), Some("2 passed, 0 failed"));

    let wrong = suite_file(
        "wrong.epd",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 401\n",
    );
    let out = xtask(&["--suite", wrong.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(stdout(&out).contains("FAIL #1 depth 2: expected 401, got 400"), "{}", stdout(&out));
    assert_eq!(stdout(&out).lines().last(), Some("1 passed, 1 failed"));

    let broken = suite_file("broken.epd", "not a fen ;D1 20\n8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 x\n");
    let out = xtask(&["--suite", broken.to_str().unwrap()]);
    assert!(!out.status.success());
    assert_eq!(stdout(&out).lines().last(), Some("0 passed, 2 failed"), "{}", stdout(&out));

    // --max-depth skips deeper checks; --threads and --hash change no count.
    let out = xtask(&[
        "--suite",
        good.to_str().unwrap(),
        "--max-depth",
        "1",
        "--threads",
        "2",
        "--hash",
        "1",
    ]);
    assert!(out.status.success());
    assert_eq!(stdout(&out).lines().last(), Some("1 passed, 0 failed"));
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    for args in [
        &["--fen", "8/8/8/8/8/8/8/8 w - - 0 1"][..],
        &["--moves", "e2e5"],
        &["--depth", "x"],
        &["--bogus"],
        &["--suite", "/nonexistent/suite.epd"],
    ] {
        let out = xtask(args);
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
