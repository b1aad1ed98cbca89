//! The `chessbits` binary run as a user runs it: output contracts, exit status, errors on
//! stderr, help text.

use std::process::Output;

mod common;

use common::text;

fn data(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Runs the tool with `args` and `stdin`.
fn run(args: &[&str], stdin: &str) -> Output {
    common::run(args, stdin.as_bytes())
}

/// The lines of a run's standard output.
fn stdout_of_uci(out: &Output) -> Vec<&str> {
    std::str::from_utf8(&out.stdout).expect("UTF-8").lines().collect()
}

#[test]
fn pgn_to_uci_prints_one_line_per_game_and_reports_broken_ones() {
    let out = run(&["pgn", &data("mixed.pgn"), "--to", "uci"], "");
    assert_eq!(out.status.code(), Some(1), "a broken game makes the exit status 1");
    insta::assert_snapshot!(text(&out.stdout), @r#"
        1	r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4	e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7
        2	error	ply 3 (Ke3): illegal move Ke3
        3	r4rk1/pppppppp/8/8/8/8/PPPPPPPP/2KR3R w - - 2 2	b1a1 b8h8
        4	r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 6 5	e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 e1h1 g8f6
        5	rnbqkbnr/ppp1pppp/8/8/2pP4/8/PP2PPPP/RNBQKBNR w KQkq - 0 3	d2d4 d7d5 c2c4 d5c4
    "#);
    let stderr = text(&out.stderr);
    // One wording for a broken game in every command: file, game, line, column.
    assert!(stderr.contains("mixed.pgn: game 2, line "), "{stderr}");
    assert!(stderr.contains("Ke3"), "{stderr}");
}

#[test]
fn pgn_numbers_games_across_files_and_reads_stdin() {
    let pgn = std::fs::read_to_string(data("mixed.pgn")).expect("test data");
    let out = run(&["pgn", &data("mixed.pgn"), "-", "--to", "uci"], &pgn);
    let lines: Vec<String> = text(&out.stdout).lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), 10, "{lines:?}");
    for (i, line) in lines.iter().enumerate() {
        assert!(line.starts_with(&format!("{}\t", i + 1)), "{line}");
    }
    // The same games, the same lines but for the number.
    for i in 0..5 {
        let strip = |l: &str| l.split_once('\t').map(|(_, rest)| rest.to_owned());
        assert_eq!(strip(&lines[i]), strip(&lines[i + 5]));
    }
}

#[test]
fn pgn_to_pgn_writes_the_export_format_and_reads_back_the_same() {
    let out = run(&["pgn", &data("mixed.pgn"), "--to", "pgn"], "");
    assert_eq!(out.status.code(), Some(1));
    let exported = text(&out.stdout);
    insta::assert_snapshot!(exported, @r#"
        [Event "Scholar's mate"]
        [Site "?"]
        [Date "2024.01.01"]
        [Round "1"]
        [White "A"]
        [Black "B"]
        [Result "1-0"]

        1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 $4 { blunder } (3... g6 4. Qf3) 4. Qxf7# 1-0

        [Event "Chess960"]
        [Site "?"]
        [Date "????.??.??"]
        [Round "?"]
        [White "?"]
        [Black "?"]
        [Result "*"]
        [Variant "Chess960"]
        [FEN "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1"]
        [SetUp "1"]

        1. O-O-O O-O *

        [Event "Standard-looking Chess960"]
        [Site "?"]
        [Date "????.??.??"]
        [Round "?"]
        [White "?"]
        [Black "?"]
        [Result "*"]
        [Variant "chess 960"]

        1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 *

        [Event "?"]
        [Site "?"]
        [Date "????.??.??"]
        [Round "?"]
        [White "?"]
        [Black "?"]
        [Result "*"]

        1. d4 d5 2. c4 dxc4 *

    "#);
    // Reading the export again gives the same bytes.
    let again = run(&["pgn", "-", "--to", "pgn"], &exported);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    assert_eq!(text(&again.stdout), exported);
}

#[test]
fn pgn_to_moves_writes_each_mainline_in_a_move_code() {
    let out = run(&["pgn", &data("mixed.pgn"), "--to", "moves:12"], "");
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    let lines: Vec<Vec<&str>> = stdout.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(lines.len(), 5);
    assert_eq!(lines[1][1], "error");
    // The 12-bit code: 12 bits a move, hex in whole bytes (the last one padded with zeros).
    for fields in lines.iter().filter(|f| f[1] != "error") {
        let plies: usize = fields[1].parse().unwrap();
        let bits: usize = fields[2].parse().unwrap();
        assert_eq!(bits, 12 * plies, "{fields:?}");
        assert_eq!(fields[3].len(), 2 * bits.div_ceil(8), "{fields:?}");
    }
    assert_eq!(lines[0][..3], ["1", "7", "84"]);
    let bad = run(&["pgn", &data("mixed.pgn"), "--to", "moves:13"], "");
    assert_eq!(bad.status.code(), Some(2), "an unknown code is a usage error");
}

#[test]
fn pgn_as_found_in_the_wild_reads_in_every_command() {
    // A tag value ending in a backslash, a null move, a variant game, and two games without
    // result markers split by a blank line.
    let uci = run(&["pgn", &data("wild.pgn"), "--to", "uci"], "");
    assert_eq!(uci.status.code(), Some(1), "the variant game is refused");
    insta::assert_snapshot!(text(&uci.stdout), @r#"
    1	r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4	e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7
    2	r1bqkbnr/ppp1p1pp/2n5/3pPp2/8/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 4	e2e4 d7d5 e4e5 f7f5 0000 b8c6 g1f3
    3	error	variant "Crazyhouse" is not supported
    4	r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3	e2e4 e7e5 g1f3 b8c6 f1b5
    5	rnbqkbnr/ppp1pppp/8/3p4/2PP4/8/PP2PPPP/RNBQKBNR b KQkq - 0 2	d2d4 d7d5 c2c4
    "#);
    assert!(text(&uci.stderr).contains("wild.pgn: game 3, line "), "{}", text(&uci.stderr));
    let pgn = run(&["pgn", &data("wild.pgn"), "--to", "pgn"], "");
    let exported = text(&pgn.stdout);
    assert!(exported.contains("[Event \"Ugra Cup \\\\\"]"), "{exported}");
    assert!(exported.contains("3. -- Nc6"), "{exported}");
    assert_eq!(exported.matches("[Event ").count(), 4, "{exported}");
    let moves = run(&["pgn", &data("wild.pgn"), "--to", "moves:12"], "");
    let stdout = text(&moves.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[1], "2\terror\tply 5: a null move cannot be coded");
    assert!(lines[2].starts_with("3\terror\tvariant"), "{stdout}");
    assert_eq!(lines.len(), 5);
    // `.cbg` and Parquet store every game `pgn` reads, the null move's included, and
    // `unpack` gives back exactly `pgn`'s lines.
    for codec in ["model", "index"] {
        let cbg = temp(&format!("wild-{codec}.cbg"));
        let packed = run(&["pack", &data("wild.pgn"), "-o", &cbg, "--stats", "--codec", codec], "");
        let stderr = text(&packed.stderr);
        assert!(!stderr.contains("null move"), "{stderr}");
        assert!(stderr.contains("variant \"Crazyhouse\" is not supported"), "{stderr}");
        assert!(text(&packed.stdout).contains("\"games\":4,"), "{}", text(&packed.stdout));
        let unpacked = run(&["unpack", &cbg, "--to", "uci"], "");
        let good: Vec<&str> =
            stdout_of_uci(&uci).into_iter().filter(|l| !l.contains("\terror\t")).collect();
        assert_eq!(text(&unpacked.stdout).lines().collect::<Vec<_>>(), good, "{codec}");
    }
    let parquet = temp("wild.parquet");
    let exported = run(&["export", &data("wild.pgn"), "-o", &parquet, "--stats"], "");
    let stderr = text(&exported.stderr);
    assert!(!stderr.contains("null move"), "{stderr}");
    assert!(stderr.contains("variant \"Crazyhouse\" is not supported"), "{stderr}");
    assert!(text(&exported.stdout).contains("\"games\":4,"), "{}", text(&exported.stdout));
}

#[test]
fn san_reads_lines_and_goes_on_after_a_bad_one() {
    let out = run(&["san"], "startpos;e2e4 e7e5 g1f3\nstartpos;e2e5\nstartpos;d2d4\n");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "e4 e5 Nf3\nerror: move 1 (e2e5): illegal move e2e5\nd4\n");
}

#[test]
fn help_explains_every_command_with_an_example_and_usage_errors_exit_2() {
    let help = run(&["--help"], "");
    assert_eq!(help.status.code(), Some(0));
    let help = text(&help.stdout);
    for word in ["pgn", "san", "pack", "unpack", "Examples:"] {
        assert!(help.contains(word), "{help}");
    }
    for command in ["pgn", "san", "encode", "decode", "pack", "unpack"] {
        let out = run(&[command, "--help"], "");
        assert_eq!(out.status.code(), Some(0));
        assert!(text(&out.stdout).contains("Example"), "{command}");
    }
    let bad = run(&["pgn", "--to", "nonsense", "x.pgn"], "");
    assert_eq!(bad.status.code(), Some(2));
    let missing = run(&["pgn", "/nonexistent.pgn", "--to", "uci"], "");
    assert_eq!(missing.status.code(), Some(1));
    assert!(text(&missing.stderr).contains("/nonexistent.pgn"));
}

/// A fresh path in the temporary directory for this test.
fn temp(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("chessbits-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name).to_string_lossy().into_owned()
}

#[test]
fn pack_stats_and_unpack_to_uci_print_what_pgn_prints() {
    for codec in ["model", "index"] {
        let cbg = temp(&format!("mixed-{codec}.cbg"));
        let out = run(&["pack", &data("mixed.pgn"), "-o", &cbg, "--codec", codec, "--stats"], "");
        assert_eq!(out.status.code(), Some(1), "a broken game makes the exit status 1");
        let stderr = text(&out.stderr);
        assert!(stderr.contains("mixed.pgn: game 2, line ") && stderr.contains("Ke3"), "{stderr}");
        let stats = text(&out.stdout);
        assert_eq!(stats.lines().count(), 1);
        let size = std::fs::metadata(&cbg).expect("written").len();
        assert!(stats.contains(&format!("\"total_bytes\":{size},")), "{stats}");
        if codec == "model" {
            insta::assert_snapshot!(stats, @r#"{"games":4,"plies":21,"move_bits":64,"total_bytes":243,"dropped_comments":2,"dropped_variations":1,"failed_games":1,"failed_inputs":0}"#);
        }
        // The same lines as `pgn --to uci`, the broken game aside.
        let unpacked = run(&["unpack", &cbg, "--to", "uci"], "");
        assert_eq!(unpacked.status.code(), Some(0), "{}", text(&unpacked.stderr));
        let pgn = run(&["pgn", &data("mixed.pgn"), "--to", "uci"], "");
        let expected: Vec<&str> =
            text(&pgn.stdout).leak().lines().filter(|l| !l.contains("\terror\t")).collect();
        assert_eq!(text(&unpacked.stdout).lines().collect::<Vec<_>>(), expected);
        // One game through the index, by the number the output shows: game 4 of the input
        // is the third of the file. Game 2 did not read, so it was not packed.
        let one = run(&["unpack", &cbg, "--to", "uci", "--game", "4"], "");
        assert_eq!(text(&one.stdout).trim_end(), expected[2]);
        assert!(expected[2].starts_with("4\t"));
        for n in ["2", "9"] {
            let none = run(&["unpack", &cbg, "--to", "uci", "--game", n], "");
            assert_eq!(none.status.code(), Some(1));
            assert_eq!(text(&none.stdout), format!("{n}\terror\tno game {n}\n"));
        }
    }
}

#[test]
fn unpack_to_pgn_writes_tags_clocks_and_the_mainline() {
    let pgn = temp("clocks.pgn");
    std::fs::write(
        &pgn,
        "[Event \"Rated Blitz game\"]\n[Site \"https://lichess.org/abcdefgh\"]\n[Date \"2024.02.29\"]\n\
         [White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n[WhiteElo \"1500\"]\n[Opening \"Caf\u{e9}\"]\n\n\
         1. f3 { [%clk 0:03:00] [%eval 0.2] } 1... e5 { [%clk 0:02:58.5] } 2. g4 { [%clk 0:02:59] }\n\
         2... Qh4# { mate } (2... Nc6) 0-1\n",
    )
    .expect("write");
    let cbg = temp("clocks.cbg");
    let out = run(&["pack", &pgn, "-o", &cbg, "--stats"], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    insta::assert_snapshot!(text(&out.stdout), @r#"{"games":1,"plies":4,"move_bits":24,"total_bytes":126,"dropped_comments":1,"dropped_variations":1,"failed_games":0,"failed_inputs":0}"#);
    let out = run(&["unpack", &cbg, "--to", "pgn", "--game", "1"], "");
    insta::assert_snapshot!(text(&out.stdout), @r#"
    [Event "Rated Blitz game"]
    [Site "https://lichess.org/abcdefgh"]
    [Date "2024.02.29"]
    [Round "?"]
    [White "A"]
    [Black "B"]
    [Result "0-1"]
    [WhiteElo "1500"]
    [Opening "Café"]

    1. f3 { [%eval 0.20] [%clk 0:03:00] } 1... e5 { [%clk 0:02:58.5] } 2. g4
    { [%clk 0:02:59] } 2... Qh4# 0-1
    "#);
    let all = run(&["unpack", &cbg, "--to", "pgn"], "");
    assert_eq!(all.stdout, out.stdout);
}

#[test]
fn unpack_reports_files_that_are_not_cbg_or_are_damaged() {
    // Not a .cbg file: the file's error, once on stderr, and no row (it is no game).
    let out = run(&["unpack", &data("mixed.pgn"), "--to", "uci"], "");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "");
    assert!(text(&out.stderr).contains("not a .cbg file"), "{}", text(&out.stderr));
    // A cut file: the whole games read, then the cut is reported once, as the file's.
    let cbg = temp("cut.cbg");
    run(&["pack", &data("mixed.pgn"), "-o", &cbg], "");
    let bytes = std::fs::read(&cbg).expect("packed");
    let cut = temp("cut-short.cbg");
    std::fs::write(&cut, &bytes[..bytes.len() - 30]).expect("write");
    let out = run(&["unpack", &cut, "--to", "uci"], "");
    assert_eq!(out.status.code(), Some(1));
    let numbers: Vec<String> =
        text(&out.stdout).lines().map(|l| l.split('\t').next().unwrap_or("").to_owned()).collect();
    assert_eq!(numbers, ["1", "3", "4", "5"], "the good games keep their numbers");
    assert!(text(&out.stderr).contains("the file ends early"), "{}", text(&out.stderr));
    let out = run(&["unpack", &cut, "--to", "uci", "--game", "1"], "");
    assert_eq!(out.status.code(), Some(1), "no trailer: no index");
    let out = run(&["unpack", &cbg, "--to", "uci", "--game", "9"], "");
    assert_eq!(out.status.code(), Some(1));
    insta::assert_snapshot!(text(&out.stdout), @"9	error	no game 9");
}

/// The offsets of the game records' bodies in a `.cbg` file, walking its frames.
fn game_bodies(bytes: &[u8]) -> Vec<usize> {
    let (mut at, mut bodies) = (12, Vec::new());
    while at < bytes.len() {
        let tag = bytes[at];
        let (mut len, mut shift, mut i) = (0usize, 0, at + 1);
        loop {
            let b = bytes[i];
            len |= usize::from(b & 0x7f) << shift;
            (i, shift) = (i + 1, shift + 7);
            if b < 0x80 {
                break;
            }
        }
        if tag == b'G' {
            bodies.push(i);
        }
        at = i + len + 2;
    }
    bodies
}

#[test]
fn unpack_numbers_every_row_by_the_games_number_in_the_packed_input() {
    // mixed.pgn's game 2 does not read: the file holds games 1, 3, 4 and 5 of the input.
    let cbg = temp("flipped.cbg");
    run(&["pack", &data("mixed.pgn"), "-o", &cbg], "");
    let mut bytes = std::fs::read(&cbg).expect("packed");
    let bodies = game_bodies(&bytes);
    assert_eq!(bodies.len(), 4);
    for (damaged, expected) in [(2, "4"), (0, "1"), (3, "5")] {
        let mut flipped = bytes.clone();
        flipped[bodies[damaged] + 1] ^= 0x5a;
        let path = temp(&format!("flipped-{damaged}.cbg"));
        std::fs::write(&path, &flipped).expect("write");
        let out = run(&["unpack", &path, "--to", "uci"], "");
        assert_eq!(out.status.code(), Some(1));
        let stdout = text(&out.stdout);
        let rows: Vec<&str> = stdout.lines().collect();
        let numbers: Vec<&str> = rows.iter().map(|l| l.split('\t').next().unwrap_or("")).collect();
        assert_eq!(numbers, ["1", "3", "4", "5"], "{stdout}");
        let bad = rows.iter().find(|l| l.contains("\terror\t")).expect("an error row");
        assert!(bad.starts_with(&format!("{expected}\terror\tchecksum mismatch")), "{bad}");
        // The number read from the output feeds --game back (a good game's).
        let good = rows.iter().find(|l| !l.contains("\terror\t")).expect("a good row");
        let n = good.split('\t').next().unwrap_or("");
        let one = run(&["unpack", &path, "--to", "uci", "--game", n], "");
        assert_eq!(text(&one.stdout).trim_end(), *good);
    }
    // Game 1 damaged and game 3 too: the numbers between good neighbours stay exact.
    bytes[bodies[0] + 1] ^= 1;
    bytes[bodies[1] + 1] ^= 1;
    let path = temp("flipped-two.cbg");
    std::fs::write(&path, &bytes).expect("write");
    let out = run(&["unpack", &path, "--to", "uci"], "");
    let stdout = text(&out.stdout);
    let numbers: Vec<&str> = stdout.lines().map(|l| l.split('\t').next().unwrap_or("")).collect();
    assert_eq!(
        numbers,
        ["1", "2", "4", "5"],
        "game 3 sits after a skipped game: bounded, not fixed"
    );
    assert!(stdout.contains("2\terror\tchecksum mismatch (its number is 2 to 3)"), "{stdout}");
}

#[cfg(feature = "arrow")]
#[test]
fn export_reads_pgn_and_cbg_and_reports_broken_games() {
    let cbg = temp("export-mixed.cbg");
    run(&["pack", &data("mixed.pgn"), "-o", &cbg], "");
    let parquet = temp("export-mixed.parquet");
    let out = run(&["export", &data("mixed.pgn"), &cbg, "-o", &parquet, "--stats"], "");
    assert_eq!(out.status.code(), Some(1), "a broken game makes the exit status 1");
    let stderr = text(&out.stderr);
    assert!(stderr.contains("game 2, line") && stderr.contains("Ke3"), "{stderr}");
    let stats = text(&out.stdout);
    let size = std::fs::metadata(&parquet).expect("written").len();
    assert!(stats.contains(&format!("\"total_bytes\":{size},")), "{stats}");
    // The four good games twice: once from the PGN, once from the .cbg.
    let stats = stats.replace(&size.to_string(), "SIZE");
    insta::assert_snapshot!(stats, @r#"{"games":8,"plies":42,"move_bytes":16,"total_bytes":SIZE,"failed_games":1,"failed_inputs":0}"#);
    let help = run(&["export", "--help"], "");
    assert!(text(&help.stdout).contains("Example"));
}

/// A damaged record of a `.cbg` file is exported with the number `unpack` gives it: its
/// place plus the games skipped before it when packing (before, its place alone: game 4 of
/// mixed.pgn, the third record, came out as game 3, the number of the game that was skipped).
#[cfg(feature = "arrow")]
#[test]
fn export_numbers_a_damaged_record_as_unpack_does() {
    let cbg = temp("export-flipped.cbg");
    run(&["pack", &data("mixed.pgn"), "-o", &cbg], "");
    let bytes = std::fs::read(&cbg).expect("packed");
    let bodies = game_bodies(&bytes);
    // The second record sits after a skipped game: its number is 2 or 3, the lowest taken.
    for (damaged, expected) in [(2, 4), (0, 1), (3, 5), (1, 2)] {
        let mut flipped = bytes.clone();
        flipped[bodies[damaged] + 1] ^= 0x5a;
        let path = temp(&format!("export-flipped-{damaged}.cbg"));
        std::fs::write(&path, &flipped).expect("write");
        let parquet = temp(&format!("export-flipped-{damaged}.parquet"));
        let out = run(&["export", &path, "-o", &parquet], "");
        assert_eq!(out.status.code(), Some(1));
        let stderr = text(&out.stderr);
        assert!(stderr.contains("checksum mismatch"), "{stderr}");
        let mut games = vec![1, 3, 4, 5];
        games[damaged] = expected;
        assert_eq!(exported_games(&parquet), games, "record {damaged} damaged");
        let unpacked = run(&["unpack", &path, "--to", "uci"], "");
        let bad = text(&unpacked.stdout);
        let bad = bad.lines().find(|l| l.contains("\terror\t")).expect("an error row");
        assert!(bad.starts_with(&format!("{expected}\t")), "{bad}");
    }
}

/// A damaged record that opens a group of 256 records holding no good game is numbered from
/// the records before the group (a review found it numbered by its place alone: game 258's
/// record came out as a second 257, after a broken first game).
#[cfg(feature = "arrow")]
#[test]
fn export_numbers_a_damaged_record_alone_in_its_group() {
    let mut pgn = String::from("[Event \"broken\"]\n\n1. e4 Ke3 *\n\n");
    for n in 2..=258 {
        pgn += &format!("[Event \"g{n}\"]\n\n1. e4 e5 *\n\n");
    }
    let source = temp("group-alone.pgn");
    std::fs::write(&source, pgn).expect("write");
    let cbg = temp("group-alone.cbg");
    run(&["pack", &source, "-o", &cbg], "");
    let mut bytes = std::fs::read(&cbg).expect("packed");
    let bodies = game_bodies(&bytes);
    assert_eq!(bodies.len(), 257);
    bytes[bodies[256] + 1] ^= 0x5a;
    std::fs::write(&cbg, &bytes).expect("write");
    let parquet = temp("group-alone.parquet");
    let out = run(&["export", &cbg, "-o", &parquet, "--threads", "2"], "");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(exported_games(&parquet), (2..=258).collect::<Vec<i64>>());
}

/// The `game` column of an exported Parquet file.
#[cfg(feature = "arrow")]
fn exported_games(parquet: &str) -> Vec<i64> {
    use arrow_array::cast::AsArray;
    use arrow_array::types::Int64Type;
    let bytes = bytes::Bytes::from(std::fs::read(parquet).expect("written"));
    let reader = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(bytes)
        .unwrap()
        .build()
        .unwrap();
    reader
        .flat_map(|batch| {
            let column = batch.unwrap().column_by_name("game").unwrap().clone();
            column.as_primitive::<Int64Type>().values().to_vec()
        })
        .collect()
}

/// A `.cbg` input's games keep their stored numbers offset by the inputs before, and the
/// inputs after count on from its last, as `index build` numbers them: a trial found a second
/// `.cbg` numbered from 1 again and a PGN after a `.cbg` too, so that joining an export with
/// an index on `game` paired the wrong games.
#[cfg(feature = "arrow")]
#[test]
fn export_numbers_games_across_cbg_and_pgn_inputs() {
    let cbg = temp("numbered.cbg");
    run(&["pack", &data("mixed.pgn"), "-o", &cbg], "");
    let alone = |input: &str, name: &str| {
        let parquet = temp(name);
        run(&["export", input, "-o", &parquet], "");
        exported_games(&parquet)
    };
    let (packed, pgn) =
        (alone(&cbg, "numbered-cbg.parquet"), alone(&data("mixed.pgn"), "numbered-pgn.parquet"));
    // The packed file leaves out the game that did not read, and keeps the others' numbers.
    assert!(packed.len() < pgn.len() && packed.last() == pgn.last(), "{packed:?} {pgn:?}");
    let last = *pgn.last().unwrap();
    let parquet = temp("numbered-all.parquet");
    run(&["export", &cbg, &data("mixed.pgn"), &cbg, "-o", &parquet], "");
    let mut want = packed.clone();
    want.extend(pgn.iter().map(|n| n + last));
    want.extend(packed.iter().map(|n| n + 2 * last));
    assert_eq!(exported_games(&parquet), want);
}

/// The offset of the last game record (`G`) of a `.cbg` file and its body's length.
#[cfg(feature = "arrow")]
fn last_game_record(bytes: &[u8]) -> (usize, usize) {
    let (mut at, mut last) = (12, None);
    while at < bytes.len() {
        let (tag, start) = (bytes[at], at);
        at += 1;
        let (mut len, mut shift) = (0usize, 0);
        loop {
            let b = bytes[at];
            at += 1;
            len |= usize::from(b & 0x7f) << shift;
            shift += 7;
            if b < 0x80 {
                break;
            }
        }
        if tag == b'G' {
            last = Some((start, at - start + len));
        }
        at += len + 2;
    }
    last.expect("a game record")
}

/// A damaged last game record is a row of its own, but the inputs after count on from the
/// last game that decoded, as `index build` numbers them (a review found them counting on
/// from the damaged record's place).
#[cfg(feature = "arrow")]
#[test]
fn export_counts_on_from_the_last_game_that_decoded() {
    // Every game reads: the stored numbers are the places, and a damaged record's row, numbered
    // by its place, has the number the next input would count on from.
    let pgn_path = temp("dense.pgn");
    std::fs::write(&pgn_path, "1. e4 e5 *\n\n1. d4 d5 *\n\n1. c4 c5 *\n").unwrap();
    let cbg = temp("damaged-last.cbg");
    run(&["pack", &pgn_path, "-o", &cbg], "");
    let mut bytes = std::fs::read(&cbg).unwrap();
    let (start, len) = last_game_record(&bytes);
    bytes[start + len - 1] ^= 0x10;
    std::fs::write(&cbg, &bytes).unwrap();
    let alone = |inputs: &[&str], name: &str| {
        let parquet = temp(name);
        let mut args = vec!["export"];
        args.extend_from_slice(inputs);
        args.extend_from_slice(&["-o", &parquet]);
        run(&args, "");
        exported_games(&parquet)
    };
    let packed = alone(&[&cbg], "damaged-last-cbg.parquet");
    let pgn = alone(&[&pgn_path], "damaged-last-pgn.parquet");
    let both = alone(&[&cbg, &pgn_path], "damaged-last-both.parquet");
    assert_eq!(packed, [1, 2, 3], "the damaged game keeps a row");
    let good_last = 2;
    let mut want = packed.clone();
    want.extend(pgn.iter().map(|n| n + good_last));
    assert_eq!(both, want);
}

/// Issue 40, item 7: a game that does not read keeps its row in Parquet, with its number, its
/// tags (every one of a refused variant game) and the message in `error`, so that analyses of
/// tags alone still count it; the games after it keep their numbers.
#[test]
fn export_keeps_the_tags_of_a_game_that_did_not_read() {
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Int32Type, Int64Type};
    use arrow_array::Array;
    let pgn = temp("variant.pgn");
    let games = "[White \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n[White \"b\"]\n[Result \"0-1\"]\n[WhiteElo \"1834\"]\n[TimeControl \"180+0\"]\n[Variant \"Atomic\"]\n\n1. e4 0-1\n\n[White \"c\"]\n\n1. d4 *\n";
    std::fs::write(&pgn, games).unwrap();
    let parquet = temp("variant.parquet");
    let out = run(&["export", &pgn, "-o", &parquet, "--stats"], "");
    assert_eq!(out.status.code(), Some(1), "the refused game makes the status 1");
    assert!(text(&out.stdout).contains(r#""games":2,"#), "{}", text(&out.stdout));
    assert!(text(&out.stdout).contains(r#""failed_games":1,"#), "{}", text(&out.stdout));
    let bytes = bytes::Bytes::from(std::fs::read(&parquet).expect("written"));
    let reader = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(bytes)
        .unwrap()
        .build()
        .unwrap();
    let batches: Vec<_> = reader.collect::<Result<_, _>>().unwrap();
    let batch = &batches[0];
    assert_eq!(batch.num_rows(), 3);
    let column = |name: &str| batch.column_by_name(name).unwrap().clone();
    let games = column("game");
    assert_eq!(games.as_primitive::<Int64Type>().values().to_vec(), [1, 2, 3]);
    let (white, result, error) = (column("White"), column("Result"), column("error"));
    let (white, result, error) =
        (white.as_string::<i32>(), result.as_string::<i32>(), error.as_string::<i32>());
    assert_eq!((white.value(1), result.value(1)), ("b", "0-1"));
    assert_eq!(column("WhiteElo").as_primitive::<Int32Type>().value(1), 1834);
    assert_eq!(column("TimeControl").as_string::<i32>().value(1), "180+0");
    assert_eq!(
        error.value(1),
        r#"line 12, column 1 (byte 129): variant "Atomic" is not supported"#
    );
    assert!(error.is_null(0) && error.is_null(2));
    assert_eq!(column("plies").as_primitive::<Int32Type>().values().to_vec(), [2, 0, 1]);
    let tags = column("tags");
    let tags = tags.as_map().value(1);
    assert_eq!(tags.column(1).as_string::<i32>().value(0), "Atomic");
}

/// Writes a lichess Parquet file (tags as columns, a `movetext` column) of the rows given.
fn lichess_parquet(name: &str, white: &[&str], elo: &[Option<i64>], movetext: &[&str]) -> String {
    use std::sync::Arc;

    use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray};
    let diff: Vec<Option<i64>> = elo.iter().map(|e| e.map(|_| 0)).collect();
    let batch = RecordBatch::try_from_iter([
        ("White", Arc::new(StringArray::from(white.to_vec())) as ArrayRef),
        ("WhiteElo", Arc::new(Int64Array::from(elo.to_vec())) as ArrayRef),
        ("WhiteRatingDiff", Arc::new(Int64Array::from(diff)) as ArrayRef),
        ("movetext", Arc::new(StringArray::from(movetext.to_vec())) as ArrayRef),
    ])
    .unwrap();
    let parquet = temp(name);
    let file = std::fs::File::create(&parquet).unwrap();
    let mut writer = parquet::arrow::ArrowWriter::try_new(file, batch.schema(), None).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();
    parquet
}

/// Issue 44: a lichess Parquet file is read as the PGN it came from by every command that
/// reads games, row by row: a row's broken movetext names the byte of its movetext.
#[test]
fn a_lichess_parquet_file_reads_as_its_pgn() {
    use arrow_array::RecordBatch;
    let pgn = "[White \"a\"]\n[WhiteElo \"1500\"]\n[WhiteRatingDiff \"+0\"]\n\n1. e4 { [%clk 0:01:00] } 1... e5 2. Ke3 1-0\n\n[White \"b\"]\n\n1. d4 d5 1/2-1/2\n\n";
    let parquet = lichess_parquet(
        "lichess.parquet",
        &["a", "b"],
        &[Some(1500), None],
        &["1. e4 { [%clk 0:01:00] } 1... e5 2. Ke3 1-0", "1. d4 d5 1/2-1/2"],
    );
    let from_pgn = run(&["pgn", "-", "--to", "pgn"], pgn);
    let from_parquet = run(&["pgn", &parquet, "--to", "pgn"], "");
    assert_eq!(text(&from_parquet.stdout), text(&from_pgn.stdout));
    assert!(text(&from_parquet.stdout).contains("1. d4 d5 1/2-1/2"));
    assert_eq!(from_parquet.status.code(), Some(1), "game 1's Ke3 is illegal");
    assert!(
        text(&from_parquet.stderr).contains("game 1, movetext byte 36: "),
        "{}",
        text(&from_parquet.stderr)
    );
    // `export` reads it row by row, as Python's `read_games` does, on any thread count: the
    // same rows, and a row's error names the byte of its movetext.
    for threads in ["1", "2"] {
        let out_path = temp(&format!("lichess-export-{threads}.parquet"));
        let export = run(&["export", &parquet, "-o", &out_path, "--threads", threads], "");
        assert_eq!(export.status.code(), Some(1), "game 1's Ke3 is illegal");
        assert!(
            text(&export.stderr).contains("game 1, movetext byte 36: "),
            "{}",
            text(&export.stderr)
        );
        let bytes = bytes::Bytes::from(std::fs::read(&out_path).expect("written"));
        let batches: Vec<RecordBatch> =
            parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(bytes)
                .unwrap()
                .build()
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
        use arrow_array::cast::AsArray;
        let strings = |name: &str| -> Vec<Option<String>> {
            batches
                .iter()
                .flat_map(|b| {
                    let column = b.column_by_name(name).unwrap().as_string::<i32>().clone();
                    column.iter().map(|v| v.map(str::to_owned)).collect::<Vec<_>>()
                })
                .collect()
        };
        let error = strings("error");
        assert_eq!(error.len(), 2);
        assert!(error[0].as_deref().unwrap_or_default().starts_with("movetext byte 36: "));
        assert_eq!(error[1], None);
        assert_eq!(strings("White"), [Some("a".to_owned()), Some("b".to_owned())]);
    }
}

/// Issue 44: one reader, one truth. A row is one game for every command (`pgn`, `pack`,
/// `index build`, `export`): text after a row's result, or a comment it never closes, is that
/// row's error alone, where the PGN of the rows would read a second game or run into the next
/// row. Every command numbers the rows alike, at any thread count.
#[test]
fn every_command_reads_a_parquet_row_as_one_game() {
    let rows = [
        "1. e4 e5 2. Nf3 1-0",
        "1. d4 1-0 1. c4 *",
        "1. e4 { never closed",
        "1. c4 e5 1/2-1/2",
        "1. e4 Ke7 *",
        "",
        "1. Nf3 d5 0-1",
    ];
    let white: Vec<String> = (1..=rows.len()).map(|i| format!("w{i}")).collect();
    let white: Vec<&str> = white.iter().map(String::as_str).collect();
    let elo: Vec<Option<i64>> = (0..rows.len()).map(|i| Some(1500 + i as i64)).collect();
    let parquet = lichess_parquet("one-row-one-game.parquet", &white, &elo, &rows);
    let broken =
        ["game 2, movetext byte 10: ", "game 3, movetext byte 6: ", "game 5, movetext byte 6: "];
    let broken_lines = |stderr: &str| -> Vec<String> {
        stderr.lines().filter(|l| l.contains(": game ")).map(str::to_owned).collect()
    };
    let mut uci_lines = None;
    for threads in ["1", "2"] {
        let uci = run(&["pgn", &parquet, "--to", "uci", "--threads", threads], "");
        assert_eq!(uci.status.code(), Some(1));
        let lines = stdout_of_uci(&uci).into_iter().map(str::to_owned).collect::<Vec<_>>();
        let numbers: Vec<&str> = lines.iter().map(|l| l.split('\t').next().unwrap()).collect();
        assert_eq!(numbers, ["1", "2", "3", "4", "5", "6", "7"], "{threads} threads");
        let errors: Vec<&str> =
            lines.iter().filter(|l| l.contains("\terror\t")).map(String::as_str).collect();
        assert_eq!(errors.len(), 3, "{lines:?}");
        let stderr = broken_lines(&text(&uci.stderr));
        assert_eq!(stderr.len(), 3, "{stderr:?}");
        for (line, want) in stderr.iter().zip(broken) {
            assert!(line.contains(want), "{line} should say {want}");
        }
        assert!(lines[5].ends_with("\t"), "an empty movetext is a game of no moves: {}", lines[5]);
        if let Some(first) = &uci_lines {
            assert_eq!(&lines, first, "the same lines at 1 and 2 threads");
        }
        uci_lines = Some(lines);
        // `pack` keeps the good rows under their numbers, and names the broken ones alike.
        let cbg = temp(&format!("one-row-one-game-{threads}.cbg"));
        let packed = run(&["pack", &parquet, "-o", &cbg, "--stats", "--threads", threads], "");
        assert_eq!(packed.status.code(), Some(1));
        assert!(text(&packed.stdout).contains("\"games\":4,"), "{}", text(&packed.stdout));
        let stderr = broken_lines(&text(&packed.stderr));
        for (line, want) in stderr.iter().zip(broken) {
            assert!(line.contains(want), "{line} should say {want}");
        }
        assert_eq!(stderr.len(), 3, "{stderr:?}");
        let unpacked = run(&["unpack", &cbg, "--to", "uci"], "");
        let good: Vec<&str> = uci_lines
            .iter()
            .flatten()
            .filter(|l| !l.contains("\terror\t"))
            .map(String::as_str)
            .collect();
        assert_eq!(text(&unpacked.stdout).lines().collect::<Vec<_>>(), good);
        // `index build`: the same four games, the same three left out.
        let index = temp(&format!("one-row-one-game-{threads}.cbx"));
        let built =
            run(&["index", "build", &parquet, "-o", &index, "--stats", "--threads", threads], "");
        assert_eq!(built.status.code(), Some(1), "{}", text(&built.stderr));
        let stats = text(&built.stdout);
        assert!(stats.contains("\"games\":4,") && stats.contains("\"failed_games\":3,"), "{stats}");
        let stderr = broken_lines(&text(&built.stderr));
        assert_eq!(stderr.len(), 3, "{stderr:?}");
        for (line, want) in stderr.iter().zip(broken) {
            assert!(line.contains(want), "{line} should say {want}");
        }
        let found = run(&["index", "find", &index, "--moves", "c2c4 e7e5"], "");
        assert!(text(&found.stdout).contains("w4"), "{}", text(&found.stdout));
        // `export`, which read rows before: the same games fail.
        let out_path = temp(&format!("one-row-one-game-{threads}.parquet"));
        let export = run(&["export", &parquet, "-o", &out_path, "--threads", threads], "");
        let stderr = broken_lines(&text(&export.stderr));
        for (line, want) in stderr.iter().zip(broken) {
            assert!(line.contains(want), "{line} should say {want}");
        }
        assert_eq!(stderr.len(), 3, "{stderr:?}");
    }
}

#[test]
fn a_run_that_fails_before_any_game_leaves_no_output_and_says_why_once() {
    let dir = temp("no-output");
    std::fs::create_dir_all(&dir).expect("a folder");
    let binary = format!("{dir}/binary.pgn");
    std::fs::write(&binary, b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x01\0".repeat(200)).expect("write");
    for (args, why) in [
        (vec!["pack", "nope.pgn", "-o"], "nope.pgn: No such file"),
        (vec!["pack", &dir, "-o"], "is a directory"),
        (vec!["export", "nope.pgn", "-o"], "nope.pgn: No such file"),
        (vec!["pack", &binary, "-o"], "does not look like PGN"),
        (vec!["export", &binary, "-o"], "does not look like PGN"),
        (vec!["pgn", &binary, "--to", "uci", "-o"], "does not look like PGN"),
    ] {
        let out_path = format!("{dir}/out-{}", args[0]);
        let mut args = args.clone();
        args.push(&out_path);
        let out = run(&args, "");
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let stderr = text(&out.stderr);
        assert_eq!(stderr.matches(why).count(), 1, "{args:?}: {stderr}");
        assert!(!stderr.contains("\terror\t") && !text(&out.stdout).contains("error"), "{stderr}");
        // A missing input stops the run before any other input is read, and says so.
        if why.contains("No such file") || why.contains("directory") {
            assert!(stderr.contains("nothing read, nothing written"), "{args:?}: {stderr}");
        }
        let left: Vec<_> = std::fs::read_dir(&dir)
            .expect("listed")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .filter(|n| n != "binary.pgn")
            .collect();
        assert!(left.is_empty(), "{args:?} left {left:?}");
    }
    // An output in a folder that does not exist: the message names the file asked for, not
    // the temporary name it is written under.
    let missing = format!("{dir}/no-such-folder/out.tsv");
    let out = run(&["pgn", "-", "--to", "uci", "-o", &missing], "1. e4 *\n");
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(&format!("{missing}: ")) && !stderr.contains(".chessbits-"),
        "{stderr}"
    );
    // A binary file is one message, not a row per "game".
    let uci = run(&["pgn", &binary, "--to", "uci"], "");
    assert_eq!(text(&uci.stdout), "");
    // One summary line on stderr, off with --quiet.
    let out = run(&["pgn", &data("mixed.pgn"), "--to", "uci"], "");
    let summary = text(&out.stderr);
    let last = summary.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("chessbits: 5 games, 1 errors in ") && last.ends_with(" games/s)"),
        "{last}"
    );
    let quiet = run(&["pgn", &data("mixed.pgn"), "--to", "uci", "--quiet"], "");
    assert!(!text(&quiet.stderr).contains(" games/s)"), "{}", text(&quiet.stderr));
}

#[test]
fn help_lists_the_values_of_every_enumerated_option_and_the_query_command() {
    let help = text(&run(&["unpack", "--help"], "").stdout);
    assert!(help.contains("uci|pgn|moves:CODE") && help.contains("san-like-7-13"), "{help}");
    let top = text(&run(&["--help"], "").stdout);
    assert!(top.contains("query"), "{top}");
    if !cfg!(feature = "query") {
        let out = run(&["query", "SELECT 1"], "");
        assert_eq!(out.status.code(), Some(2));
        assert!(text(&out.stderr).contains("--features query"), "{}", text(&out.stderr));
    }
}

/// `pack` writes no file of no games for a run whose every game failed; a trial found it
/// silent about a file already at the output path (left as it was) and `--stats` counting the
/// 36 bytes it did not write. Both are told now.
#[test]
fn pack_of_only_failed_games_says_nothing_was_written() {
    let pgn = temp("all-fail.pgn");
    std::fs::write(&pgn, "[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n").unwrap();
    let cbg = temp("all-fail.cbg");
    std::fs::write(&cbg, b"an older file").unwrap();
    let out = run(&["pack", &pgn, "-o", &cbg, "--stats"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains(r#""games":0,"#), "{}", text(&out.stdout));
    assert!(text(&out.stdout).contains(r#""total_bytes":0,"#), "{}", text(&out.stdout));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("no game packed, nothing written to"), "{stderr}");
    assert!(stderr.contains("(the file there is left as it was)"), "{stderr}");
    assert_eq!(std::fs::read(&cbg).unwrap(), b"an older file");
}

/// A damaged frame stops the reading of a `.cbg` file (its length cannot be trusted); the
/// trailer, past the damage, still counts the games, so `unpack` says how many were not read
/// (a trial found 74 to 405 games missing with only the frame's error said).
#[test]
fn unpack_says_how_many_games_a_broken_frame_left_unread() {
    let cbg = temp("frame.cbg");
    run(&["pack", &data("mixed.pgn"), "-o", &cbg], "");
    let mut bytes = std::fs::read(&cbg).expect("packed");
    let bodies = game_bodies(&bytes);
    // The second game record's tag byte, just before its one-byte length.
    let second = bodies[1] - 2;
    assert_eq!(bytes[second], b'G');
    bytes[second] = 0x07;
    let broken = temp("frame-broken.cbg");
    std::fs::write(&broken, &bytes).expect("write");
    let out = run(&["unpack", &broken, "--to", "uci"], "");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout).lines().count(), 1, "{}", text(&out.stdout));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("unexpected record tag 0x07"), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "{} of the {} games its trailer counts not read",
            bodies.len() - 1,
            bodies.len()
        )),
        "{stderr}"
    );
}
