//! Every command that reads game files writes the same bytes (stdout, stderr, output files) at
//! every thread count and chunk size, and reads compressed files and standard input as it
//! reads plain ones.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::atomic::{AtomicUsize, Ordering};

mod common;

fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut out = common::run(args, stdin);
    // The summary line holds the time taken: the one line of stderr that may differ.
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let summary = |l: &&str| l.starts_with("chessbits: ") && l.ends_with(" games/s)");
    assert!(stderr.lines().filter(summary).count() <= 1, "{stderr}");
    out.stderr = stderr
        .lines()
        .filter(|l| !summary(l))
        .map(|l| format!("{l}\n"))
        .collect::<String>()
        .into_bytes();
    out
}

fn temp(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("chessbits-threads-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).display().to_string()
}

/// The repository's PGN test files joined into one, and the shared corpus's lichess files
/// (when present beside the repository).
fn inputs() -> Vec<String> {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let mut joined = Vec::new();
    // The PGN crate's odd files are there in the workspace, not in this crate's package.
    let wild = root.join("crates/pgn/tests/data/wild");
    let dirs = [
        Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")),
        Some(chessbits_testkit::data("games")),
        wild.is_dir().then_some(wild),
    ];
    for dir in dirs.into_iter().flatten() {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
            .collect();
        files.sort();
        for f in files {
            joined.extend(std::fs::read(f).unwrap());
        }
    }
    // A file of its own for each caller: the tests run at once.
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let all = temp(&format!("all-{}.pgn", CALLS.fetch_add(1, Ordering::Relaxed)));
    std::fs::write(&all, joined).unwrap();
    let mut inputs = vec![all];
    let corpus = root.join("../shared/corpus");
    for name in ["lichess-db-2021-10-first999.pgn", "twic0920.pgn"] {
        if corpus.join(name).is_file() {
            inputs.push(corpus.join(name).display().to_string());
        }
    }
    inputs
}

const SETTINGS: [(&str, &str); 4] = [("2", "1"), ("2", "5000"), ("3", "100000"), ("2", "1048576")];

#[test]
fn pgn_writes_the_same_bytes_at_every_thread_count() {
    for input in inputs() {
        for to in ["uci", "pgn", "moves:12"] {
            let serial = run(&["pgn", &input, "--to", to, "--threads", "1"], b"");
            assert!(!serial.stdout.is_empty());
            for (threads, chunk) in SETTINGS {
                let parallel = run(
                    &["pgn", &input, "--to", to, "--threads", threads, "--chunk-size", chunk],
                    b"",
                );
                let what = format!("{input} --to {to}, {threads} threads, chunks of {chunk}");
                assert!(serial.stdout == parallel.stdout, "{what}: stdout differs");
                assert!(serial.stderr == parallel.stderr, "{what}: stderr differs");
                assert_eq!(serial.status.code(), parallel.status.code(), "{what}");
            }
        }
    }
}

#[test]
fn pack_and_export_write_the_same_files_at_every_thread_count() {
    for input in inputs() {
        let mut outputs = Vec::new();
        for (threads, chunk) in [("1", "1048576"), ("2", "1"), ("3", "7000")] {
            let cbg = temp(&format!("p{threads}.cbg"));
            let pack = run(
                &[
                    "pack",
                    &input,
                    "-o",
                    &cbg,
                    "--stats",
                    "--threads",
                    threads,
                    "--chunk-size",
                    chunk,
                ],
                b"",
            );
            let mut exports = vec![pack.stdout, pack.stderr, std::fs::read(&cbg).unwrap()];
            if cfg!(feature = "arrow") {
                let parquet = temp(&format!("p{threads}.parquet"));
                let export = run(
                    &[
                        "export",
                        &input,
                        "-o",
                        &parquet,
                        "--stats",
                        "--threads",
                        threads,
                        "--chunk-size",
                        chunk,
                    ],
                    b"",
                );
                exports.extend([export.stdout, export.stderr, std::fs::read(&parquet).unwrap()]);
            }
            outputs.push(exports);
        }
        for other in &outputs[1..] {
            assert!(outputs[0] == *other, "{input}: pack and export differ with threads");
        }
    }
}

/// Compresses `bytes` into `name`, by its extension.
fn compressed(name: &str, bytes: &[u8]) -> String {
    let path = temp(name);
    let mut out = chessbits_pgn::Output::create(Path::new(&path)).unwrap();
    out.write_all(bytes).unwrap();
    out.finish().unwrap();
    path
}

#[test]
fn compressed_files_and_standard_input_read_as_plain_ones() {
    let plain = &inputs()[0];
    let bytes = std::fs::read(plain).unwrap();
    let expected = run(&["pgn", plain, "--to", "uci", "--threads", "1"], b"");
    for ext in ["zst", "gz", "bz2"] {
        let file = compressed(&format!("in.pgn.{ext}"), &bytes);
        for threads in ["1", "2"] {
            let got = run(&["pgn", &file, "--to", "uci", "--threads", threads], b"");
            assert!(got.stdout == expected.stdout, "{ext}, {threads} threads: stdout differs");
            let piped = std::fs::read(&file).unwrap();
            let got = run(&["pgn", "-", "--to", "uci", "--threads", threads], &piped);
            assert!(
                got.stdout == expected.stdout,
                "{ext} on standard input, {threads} threads: stdout differs"
            );
        }
    }
}

#[test]
fn output_is_compressed_by_its_extension() {
    let plain = &inputs()[0];
    let expected = run(&["pgn", plain, "--to", "pgn"], b"");
    for ext in ["zst", "gz", "bz2"] {
        let out = temp(&format!("out.pgn.{ext}"));
        let got = run(&["pgn", plain, "--to", "pgn", "-o", &out], b"");
        assert!(got.stdout.is_empty());
        let mut back = Vec::new();
        chessbits_pgn::Input::open(Path::new(&out)).unwrap().read_to_end(&mut back).unwrap();
        assert!(back == expected.stdout, "{ext}: the file reads back different");
    }
    let cbg = temp("out.cbg");
    run(&["pack", plain, "-o", &cbg], b"");
    let expected = run(&["unpack", &cbg, "--to", "uci"], b"");
    assert!(!expected.stdout.is_empty());
    for ext in ["zst", "gz"] {
        let out = temp(&format!("unpacked.uci.{ext}"));
        let got = run(&["unpack", &cbg, "--to", "uci", "-o", &out], b"");
        assert!(got.stdout.is_empty());
        let mut back = Vec::new();
        chessbits_pgn::Input::open(Path::new(&out)).unwrap().read_to_end(&mut back).unwrap();
        assert!(back == expected.stdout, "unpack -o .{ext}: the file reads back different");
    }
}

/// A truncated `.zst`: the games before the cut written, then the error naming the file and the
/// compressed byte reached, exit status 1; the same at every thread count.
#[test]
fn a_truncated_file_reports_where_after_writing_the_games_before() {
    let plain = &inputs()[0];
    // More than one of bzip2's 900 kB blocks: a decoder gives a block once it has all of it.
    let bytes = std::fs::read(plain).unwrap().repeat(8);
    for ext in ["zst", "gz", "bz2"] {
        let file = compressed(&format!("cut.pgn.{ext}"), &bytes);
        let whole = std::fs::read(&file).unwrap();
        std::fs::write(&file, &whole[..whole.len() * 19 / 20]).unwrap();
        let serial = run(&["pgn", &file, "--to", "uci", "--threads", "1"], b"");
        assert_eq!(serial.status.code(), Some(1), "{ext}");
        let stderr = String::from_utf8_lossy(&serial.stderr);
        let last = stderr.lines().last().unwrap();
        // The read error is the file's, not a game's: no row, one line on stderr.
        assert!(last.starts_with(&format!("chessbits: {file}: read error ")), "{ext}: {last}");
        assert!(last.contains("stream broken at byte"), "{ext}: {last}");
        let lines = String::from_utf8_lossy(&serial.stdout).lines().count();
        assert!(lines > 20, "{ext}: {lines} games written before the error");
        for threads in ["2", "3"] {
            let parallel = run(
                &["pgn", &file, "--to", "uci", "--threads", threads, "--chunk-size", "3000"],
                b"",
            );
            assert!(serial.stdout == parallel.stdout, "{ext}, {threads} threads: stdout differs");
            assert_eq!(
                String::from_utf8_lossy(&serial.stderr),
                String::from_utf8_lossy(&parallel.stderr),
                "{ext}, {threads} threads"
            );
        }
    }
}

/// `export` of a `.cbg` file: the same Parquet bytes, messages and status at every thread
/// count, for the packed inputs and for a copy with a byte flipped inside a game record
/// (a checksum error for that game, the others exported).
#[test]
fn export_of_cbg_writes_the_same_file_at_every_thread_count() {
    if !cfg!(feature = "arrow") {
        return;
    }
    for input in inputs() {
        let cbg = temp("e.cbg");
        run(&["pack", &input, "-o", &cbg], b"");
        let mut flipped = std::fs::read(&cbg).unwrap();
        let middle = flipped.len() / 2;
        flipped[middle] ^= 0x20;
        let broken = temp("e-broken.cbg");
        std::fs::write(&broken, &flipped).unwrap();
        for file in [&cbg, &broken] {
            let mut outputs = Vec::new();
            for threads in ["1", "2", "3"] {
                let parquet = temp(&format!("e{threads}.parquet"));
                let export =
                    run(&["export", file, "-o", &parquet, "--stats", "--threads", threads], b"");
                let bytes = std::fs::read(&parquet).unwrap();
                outputs.push((export.stdout, export.stderr, export.status.code(), bytes));
            }
            assert!(!outputs[0].0.is_empty(), "{file}: no stats");
            if file == &broken {
                assert_eq!(outputs[0].2, Some(1), "{input}: the flipped byte is reported");
                assert!(!outputs[0].1.is_empty(), "{input}: no message for the flipped byte");
            }
            for other in &outputs[1..] {
                assert!(outputs[0] == *other, "{input} as {file}: export differs with threads");
            }
        }
    }
}

/// `unpack` of a whole `.cbg` file: the same text, messages and status at every thread
/// count, for the packed inputs and a copy with a byte flipped inside a game record.
#[test]
fn unpack_writes_the_same_text_at_every_thread_count() {
    for input in inputs() {
        let cbg = temp("u.cbg");
        run(&["pack", &input, "-o", &cbg], b"");
        let mut flipped = std::fs::read(&cbg).unwrap();
        let middle = flipped.len() / 2;
        flipped[middle] ^= 0x20;
        let broken = temp("u-broken.cbg");
        std::fs::write(&broken, &flipped).unwrap();
        for file in [&cbg, &broken] {
            for to in ["uci", "pgn"] {
                let serial = run(&["unpack", file, "--to", to, "--threads", "1"], b"");
                assert!(!serial.stdout.is_empty(), "{input} as {file}: no games");
                if file == &broken {
                    assert_eq!(serial.status.code(), Some(1), "{input}: flipped byte unreported");
                }
                for threads in ["2", "3"] {
                    let parallel = run(&["unpack", file, "--to", to, "--threads", threads], b"");
                    let what = format!("{input} as {file} --to {to}, {threads} threads");
                    assert!(serial.stdout == parallel.stdout, "{what}: stdout differs");
                    assert!(serial.stderr == parallel.stderr, "{what}: stderr differs");
                    assert_eq!(serial.status.code(), parallel.status.code(), "{what}");
                }
            }
        }
    }
}
