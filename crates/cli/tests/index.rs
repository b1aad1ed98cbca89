//! `chessbits index` as a user runs it: build, find, explore, shards, batch, JSON, errors.

use std::path::PathBuf;
use std::process::Output;

mod common;

fn sample() -> String {
    chessbits_testkit::data("games/lichess-2021-10-sample.pgn").display().to_string()
}

fn run(args: &[&str], stdin: &str) -> Output {
    common::run(args, stdin.as_bytes())
}

use common::text;

/// A directory of this test's own, emptied.
fn dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("chessbits-index-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

fn built(dir: &std::path::Path) -> String {
    let index = dir.join("sample.cbx").display().to_string();
    let out = run(&["index", "build", &sample(), "-o", &index, "--stats", "-q"], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    insta::assert_snapshot!("build_stats", text(&out.stdout));
    index
}

#[test]
fn build_then_find_and_explore() {
    let dir = dir("find");
    let index = built(&dir);
    let explore = run(&["index", "explore", &index, "--moves", ""], "");
    assert_eq!(explore.status.code(), Some(0));
    insta::assert_snapshot!("explore_start", text(&explore.stdout));
    let find = run(&["index", "find", &index, "--moves", "e2e4 e7e5 g1f3", "--limit", "3"], "");
    assert_eq!(find.status.code(), Some(0));
    insta::assert_snapshot!("find_after_nf3", text(&find.stdout));
    // The same position by FEN, filtered, as JSON.
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";
    let json =
        run(&["index", "explore", &index, "--fen", fen, "--speed", "blitz,rapid", "--json"], "");
    assert_eq!(json.status.code(), Some(0));
    insta::assert_snapshot!("explore_filtered_json", text(&json.stdout));
}

#[test]
fn shards_batch_and_errors() {
    let dir = dir("shards");
    let index = built(&dir);
    // The same file twice: two shards, answers merged in the order given.
    let two = run(
        &["index", "find", &index, &index, "--moves", "e2e4 e7e5 g1f3 b8c6", "--limit", "3"],
        "",
    );
    let out = text(&two.stdout).replace(&index, "sample.cbx");
    insta::assert_snapshot!("find_two_shards", out);
    let explore_two = run(&["index", "explore", &index, &index, "--moves", "d2d4"], "");
    let one = run(&["index", "explore", &index, "--moves", "d2d4"], "");
    let doubled: Vec<String> = text(&one.stdout)
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let twice = |i: usize| (f[i].parse::<u64>().unwrap() * 2).to_string();
            format!(
                "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
                f[0],
                f[1],
                twice(2),
                twice(3),
                twice(4),
                twice(5),
                f[6],
                f[7]
            )
        })
        .collect();
    assert_eq!(text(&explore_two.stdout).lines().skip(1).collect::<Vec<_>>(), doubled);
    // --batch: one answer a line, each followed by a blank line; a bad FEN is reported.
    let batch = run(
        &["index", "explore", &index, "--batch"],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nnot a fen\n8/8/8/8/8/8/8/K1k5 w - - 0 1\n",
    );
    assert_eq!(batch.status.code(), Some(1));
    insta::assert_snapshot!("explore_batch", text(&batch.stdout));
    assert!(text(&batch.stderr).contains("not a fen"), "{}", text(&batch.stderr));
    // One answer a line, an empty one and a bad one included, so that answers line up with
    // the input: `null` in JSON (a bad line gave a bare blank line, an empty one nothing).
    let batch = run(
        &["index", "find", &index, "--batch", "--json"],
        "8/8/8/8/8/8/8/K1k5 w - - 0 1\nnot a fen\n\n8/8/8/8/8/8/8/K1k5 w - - 0 2\n",
    );
    assert_eq!(batch.status.code(), Some(1));
    assert_eq!(text(&batch.stdout), "[]\n\nnull\n\nnull\n\n[]\n\n");
    let batch = run(&["index", "find", &index, "--batch"], "\n8/8/8/8/8/8/8/K1k5 w - - 0 1\n");
    assert_eq!(batch.status.code(), Some(0), "an empty line is no error");
    assert!(text(&batch.stdout).starts_with("\ngame\t"), "{}", text(&batch.stdout));
    // A file that is not an index, and a damaged one.
    let bogus = dir.join("bogus.cbx");
    std::fs::write(&bogus, b"CBXINDEX\x03\0\0\0 and nothing else").unwrap();
    let out = run(&["index", "find", &bogus.display().to_string(), "--moves", ""], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("bad header"), "{}", text(&out.stderr));
    let mut damaged = std::fs::read(&index).unwrap();
    damaged[200] ^= 4;
    let damaged_path = dir.join("damaged.cbx");
    std::fs::write(&damaged_path, damaged).unwrap();
    let out = run(&["index", "explore", &damaged_path.display().to_string(), "--moves", ""], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("checksum mismatch"), "{}", text(&out.stderr));
    // From the same games packed as .cbg: the same index, byte for byte.
    let cbg = dir.join("sample.cbg").display().to_string();
    assert_eq!(run(&["pack", &sample(), "-o", &cbg, "-q"], "").status.code(), Some(0));
    let from_cbg = dir.join("from-cbg.cbx");
    let out = run(&["index", "build", &cbg, "-o", &from_cbg.display().to_string(), "-q"], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(std::fs::read(&from_cbg).unwrap() == std::fs::read(&index).unwrap());
    // Every thread count and chunk size: the same bytes.
    for (threads, chunk) in [("1", "1048576"), ("2", "3000"), ("3", "700")] {
        let path = dir.join(format!("t{threads}.cbx"));
        let args = [
            "index",
            "build",
            &sample(),
            "-o",
            &path.display().to_string(),
            "-q",
            "--threads",
            threads,
            "--chunk-size",
            chunk,
        ];
        assert_eq!(run(&args, "").status.code(), Some(0));
        assert!(
            std::fs::read(&path).unwrap() == std::fs::read(&index).unwrap(),
            "--threads {threads}"
        );
    }
    // A build whose input cannot be read writes nothing.
    let missing = dir.join("missing.cbx");
    let out = run(
        &["index", "build", "no-such-file.pgn", "-o", &missing.display().to_string(), "-q"],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(!missing.exists());
}

/// A damaged index never answers with success: a flipped byte anywhere gives either the
/// undamaged answer or a failure status with the damage reported (a checksum that fails
/// while answering used to print an empty table and exit 0).
#[test]
fn a_damaged_index_never_answers_with_success() {
    let dir = dir("flips");
    // Forty copies of the sample: an index of eight checksum regions (64 KiB each), so that
    // most damage is found only by the queries that read it, not on opening.
    let pgn = dir.join("forty.pgn");
    std::fs::write(&pgn, std::fs::read(sample()).unwrap().repeat(40)).unwrap();
    let index = dir.join("forty.cbx").display().to_string();
    let out = run(&["index", "build", &pgn.display().to_string(), "-o", &index, "-q"], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let bytes = std::fs::read(&index).unwrap();
    let queries: [&[&str]; 3] = [
        &["find", "--moves", "e2e4", "--limit", "5"],
        &["explore", "--moves", "e2e4 e7e5"],
        &["find", "--moves", "d2d4", "--json"],
    ];
    let path = dir.join("flipped.cbx").display().to_string();
    let answer = |query: &[&str], file: &str| {
        let mut args = vec!["index", query[0], file];
        args.extend_from_slice(&query[1..]);
        run(&args, "")
    };
    let good: Vec<Output> = queries.iter().map(|q| answer(q, &index)).collect();
    let (mut failed, mut answered) = (0, 0);
    for at in (0..bytes.len()).step_by(bytes.len() / 100 + 1) {
        let mut flipped = bytes.clone();
        flipped[at] ^= 0x10;
        std::fs::write(&path, &flipped).unwrap();
        for (query, good) in queries.iter().zip(&good) {
            let out = answer(query, &path);
            if out.status.code() == Some(0) {
                assert_eq!(out.stdout, good.stdout, "byte {at}, {query:?}: a wrong answer");
                answered += 1;
            } else {
                assert_eq!(out.status.code(), Some(1), "byte {at}, {query:?}");
                assert!(!text(&out.stderr).is_empty(), "byte {at}: a failure says why");
                failed += 1;
            }
        }
    }
    // Both outcomes happen: flips in parts these queries do not read answer as before.
    assert!(failed > 0 && answered > 0, "{failed} failed, {answered} answered");
}

/// An output that is one of the inputs, by its name or another (a hard link), is refused
/// before anything is read, by every command that writes a file: `index build games.pgn -o
/// games.pgn` replaced the games with their index and exited 0.
#[test]
fn an_output_that_is_an_input_is_refused_and_the_input_kept() {
    let dir = dir("self");
    let pgn = dir.join("games.pgn");
    let games = b"[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. d4 *\n";
    std::fs::write(&pgn, games).expect("written");
    let link = dir.join("link.pgn");
    std::fs::hard_link(&pgn, &link).expect("a hard link");
    let (pgn, link) = (pgn.display().to_string(), link.display().to_string());
    for args in [
        vec!["index", "build", &pgn, "-o", &pgn, "-q"],
        vec!["index", "build", &pgn, "-o", &link, "-q"],
        vec!["pack", &pgn, "-o", &link, "-q"],
        vec!["export", &pgn, &pgn, "-o", &pgn, "-q"],
    ] {
        let out = run(&args, "");
        assert_ne!(out.status.code(), Some(0), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains("the output is an input"), "{args:?}: {stderr}");
        assert_eq!(std::fs::read(&pgn).expect("the input"), games, "{args:?}");
    }
    // Another output is written as before.
    let index = dir.join("games.cbx").display().to_string();
    let out = run(&["index", "build", &pgn, "-o", &index, "-q"], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

/// An unknown rating is `null` in JSON and empty in TSV, as Python's `Index.find` gives
/// `None` and an unknown date is empty; it was 0, a rating no player has.
#[test]
fn an_unknown_rating_is_null_not_zero() {
    let dir = dir("elo");
    let pgn = dir.join("games.pgn");
    std::fs::write(
        &pgn,
        "[White \"a\"]\n[WhiteElo \"1500\"]\n[BlackElo \"?\"]\n\n1. e4 *\n\n[White \"b\"]\n\n1. d4 *\n",
    )
    .unwrap();
    let index = dir.join("games.cbx").display().to_string();
    let out = run(&["index", "build", &pgn.display().to_string(), "-o", &index, "-q"], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json = text(&run(&["index", "find", &index, "--moves", "", "--json"], "").stdout);
    assert!(json.contains("\"white_elo\":1500,\"black_elo\":null"), "{json}");
    assert!(json.contains("\"white_elo\":null,\"black_elo\":null"), "{json}");
    let tsv = text(&run(&["index", "find", &index, "--moves", ""], "").stdout);
    let rows: Vec<Vec<&str>> = tsv.lines().skip(1).map(|l| l.split('\t').collect()).collect();
    assert_eq!((rows[0][6], rows[0][7], rows[1][6], rows[1][7]), ("1500", "", "", ""), "{tsv}");
}
