//! Reading an input chunk by chunk ([`Chunks`]) gives exactly what one reader of the whole input
//! gives: the same games, the same errors at the same game, line, column and byte, the same
//! game starts, at every chunk size (down to one byte: a chunk of one game), on the shared
//! corpus, the repository's test files, mangled PGN and inputs cut short by a read error.

use std::io::{self, Read};
use std::path::{Path, PathBuf};

use chessbits_pgn::{par_games, Chunks, Parallel, PgnReader, Replay, SliceReader};
use chessbits_testkit::Rng;

/// What a reader gives for one game, as text: its number, where it starts, and its final
/// position and ply count or its error (with game, line, column and byte).
fn describe(
    games: u64,
    start: u64,
    result: Result<
        chessbits_pgn::ReplayedGame,
        chessbits_pgn::PgnError<chessbits_pgn::ReplayError>,
    >,
) -> String {
    match result {
        Ok(r) => format!(
            "{games} @{start} ok {} {:016x}",
            r.game.moves().len(),
            r.game.position().compute_key()
        ),
        Err(e) => format!("{games} @{start} {e}"),
    }
}

/// The games of `bytes` read by one reader, then by the readers of its chunks.
fn check(name: &str, bytes: &[u8], sizes: &[usize]) {
    let mut serial = Vec::new();
    let mut reader = SliceReader::new(bytes);
    while let Some(result) = reader.read_game(&mut Replay::default()) {
        serial.push(describe(reader.games(), reader.game_start(), result));
    }
    for &size in sizes {
        let mut chunked = Vec::new();
        let mut next_offset = 0;
        for chunk in Chunks::new(bytes, size) {
            let mut chunk = chunk;
            assert!(chunk.origin().offset >= next_offset, "{name}: chunks in order");
            next_offset = chunk.origin().offset + chunk.bytes().len() as u64;
            let mut reader = chunk.reader();
            while let Some(result) = reader.read_game(&mut Replay::default()) {
                chunked.push(describe(reader.games(), reader.game_start(), result));
            }
        }
        for (s, c) in serial.iter().zip(&chunked) {
            assert_eq!(s, c, "{name}, chunks of {size} bytes");
        }
        assert_eq!(serial.len(), chunked.len(), "{name}, chunks of {size} bytes: game count");
    }
}

/// The repository's test files, one after the other.
fn joined_repo_files() -> Vec<u8> {
    repo_files().into_iter().flat_map(|path| std::fs::read(path).unwrap()).collect()
}

fn corpus_files() -> Vec<PathBuf> {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "pgn"));
    files.sort();
    if files.is_empty() {
        eprintln!("skipped: no corpus at {}", dir.display());
    }
    files
}

fn repo_files() -> Vec<PathBuf> {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let mut files = Vec::new();
    // The CLI's test files are there in the workspace, not in this crate's package.
    let cli = root.join("crates/cli/tests/data");
    let dirs = [
        Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/wild")),
        Some(chessbits_testkit::data("games")),
        cli.is_dir().then_some(cli),
    ];
    for dir in dirs.into_iter().flatten() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "pgn") {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 5, "the repository's PGN test files");
    files
}

#[test]
fn chunks_read_as_the_whole_corpus_does() {
    for path in corpus_files() {
        let bytes = std::fs::read(&path).unwrap();
        check(&path.display().to_string(), &bytes, &[1 << 20, 64 << 10, 1000]);
    }
}

#[test]
fn chunks_read_as_the_whole_test_files_do() {
    for path in repo_files() {
        let bytes = std::fs::read(&path).unwrap();
        check(&path.display().to_string(), &bytes, &[1, 2, 50, 1000, 1 << 20]);
    }
}

/// The test files joined and mangled: bytes dropped, doubled and replaced by PGN's own
/// punctuation, so that games break everywhere (tags, comments, variations, results).
#[test]
fn chunks_read_as_the_whole_of_mangled_pgn_does() {
    let joined = joined_repo_files();
    let mut rng = Rng::new(0x5eed_c4c4_u64);
    for round in 0..40 {
        let bytes = mangle(&joined, &mut rng, (round + 1) * 8, false);
        check(&format!("mangled round {round}"), &bytes, &[1, 300, 4096]);
    }
}

/// `bytes` with `edits` random edits: a byte dropped, doubled, replaced by PGN punctuation,
/// a line break inserted, and with `tags` a blank line and the start of a tag pair inserted
/// (what the pipeline guesses a game starts at).
fn mangle(bytes: &[u8], rng: &mut Rng, edits: usize, tags: bool) -> Vec<u8> {
    let mut bytes = bytes.to_vec();
    for _ in 0..edits {
        let at = rng.below(bytes.len());
        match rng.below(if tags { 5 } else { 4 }) {
            0 => {
                bytes.remove(at);
            }
            1 => bytes.insert(at, bytes[at]),
            2 => bytes[at] = rng.byte_from(b"[]{}()\"\n\n 1-0*%;.$\r\t"),
            3 => bytes.insert(at, b'\n'),
            _ => {
                bytes.splice(at..at, b"\n\n[Event \"".iter().copied());
            }
        }
    }
    bytes
}

/// A visitor that refuses a tag (here `Replay`, a variant) ends the game where a skipping
/// reader ends it: the stray `]` after the refused tag starts the movetext, and the `[FEN`
/// line after it the next game, for both.
#[test]
fn a_refused_tag_ends_its_game_where_skipping_ends_it() {
    let pgn = b"[Event \"x\"]\n[Variant \"Racing Kings\"]]\n[FEN \"8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1\"]\n\n1. Kg3 *\n\n1. e4 *\n";
    let mut reader = SliceReader::new(pgn);
    let mut got = Vec::new();
    while let Some(result) = reader.read_game(&mut Replay::default()) {
        got.push(describe(reader.games(), reader.game_start(), result));
    }
    assert_eq!(got.len(), 3, "{got:?}");
    assert!(got[0].contains("variant \"Racing Kings\" is not supported"), "{got:?}");
    assert!(got[1].starts_with("2 @38 ok 1 "), "{got:?}");
    assert!(got[2].starts_with("3 @97 ok 1 "), "{got:?}");
    check("refused tag", pgn, &[1, 40, 100]);
}

/// A chunk ends at the end of the first game that brings it to its size: a game that ends
/// exactly at the size ends the chunk; one that ends a byte short does not.
#[test]
fn a_chunk_ends_at_the_game_that_reaches_its_size() {
    let game = b"[Event \"x\"]\n\n1. e4 e5 1-0\n";
    let l = game.len();
    let bytes: Vec<u8> = game.iter().copied().cycle().take(l * 5).collect();
    // Games end after their result, a byte before the line break: at 5 * k - 1.
    for (size, lens) in [
        (l - 1, vec![l - 1, l, l, l, l]),
        (l, vec![2 * l - 1, l, l, l]),
        (1, vec![l - 1, l, l, l, l]),
        // The last chunk takes the input's last line break.
        (3 * l, vec![4 * l - 1, l + 1]),
        (1 << 20, vec![5 * l]),
    ] {
        let chunks: Vec<_> = Chunks::new(&bytes[..], size).collect();
        let got: Vec<usize> = chunks.iter().map(|c| c.bytes().len()).collect();
        assert_eq!(got, lens, "chunks of {size} bytes");
        let indices: Vec<u64> = chunks.iter().map(|c| c.index()).collect();
        assert_eq!(indices, (0..chunks.len() as u64).collect::<Vec<_>>());
        let games: Vec<u64> = chunks.iter().map(|c| c.origin().games).collect();
        let mut expected = vec![0];
        for len in &lens[..lens.len() - 1] {
            expected.push(expected.last().unwrap() + (*len as u64).div_ceil(l as u64));
        }
        assert_eq!(games, expected, "games before each chunk, chunks of {size} bytes");
    }
}

/// A [`Read`] that gives `bytes`, `step` at a time, then fails.
struct Failing<'a> {
    bytes: &'a [u8],
    step: usize,
}

impl Read for Failing<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.bytes.is_empty() {
            return Err(io::Error::new(io::ErrorKind::InvalidData, "corrupt stream"));
        }
        let n = buf.len().min(self.step).min(self.bytes.len());
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

/// An input cut short by a read error: the games before it read, then the error, as the
/// streaming reader reports it.
#[test]
fn a_read_error_ends_the_chunks_as_it_ends_the_reader() {
    let bytes = chessbits_testkit::LICHESS_SAMPLE.to_vec();
    for cut in [0, 1, 500, 40_000, 70_000, 100_001, bytes.len()] {
        let head = &bytes[..cut];
        let mut serial = Vec::new();
        let mut reader = PgnReader::new(Failing { bytes: head, step: 7_777 });
        while let Some(result) = reader.read_game(&mut Replay::default()) {
            serial.push(describe(reader.games(), reader.game_start(), result));
        }
        assert!(serial.last().unwrap().contains("corrupt stream"), "{cut}: {:?}", serial.last());
        for size in [1, 10_000, 1 << 20] {
            let mut chunked = Vec::new();
            let mut errors = 0;
            for chunk in Chunks::new(Failing { bytes: head, step: 4_096 }, size) {
                let mut chunk = chunk;
                errors += usize::from(chunk.ends_in_error());
                let mut reader = chunk.reader();
                while let Some(result) = reader.read_game(&mut Replay::default()) {
                    chunked.push(describe(reader.games(), reader.game_start(), result));
                }
            }
            assert_eq!(errors, 1, "{cut}, {size}");
            assert_eq!(serial, chunked, "{cut} bytes, chunks of {size}");
        }
    }
}

/// Every game of `bytes` as one reader gives it, then as `par_games` gives it.
fn check_threads(name: &str, bytes: &[u8], threads: &[usize], sizes: &[usize]) {
    let mut serial = Vec::new();
    let mut reader = PgnReader::new(bytes);
    while let Some(result) = reader.read_game(&mut Replay::default()) {
        serial.push(describe(reader.games(), 0, result));
    }
    // Guessing, reading ahead, the most a piece kept past a wrong guess holds before the
    // rest is read serially (`None`: past the game length limit, which these inputs do not
    // reach; 1: from the first wrong guess on), and the most games a chunk's reading reads
    // (`None`: a thousand and more, which small chunks do not reach).
    let cutters = [
        (true, true, None, None),
        (false, true, None, None),
        (true, false, None, None),
        (false, false, None, None),
        (true, true, Some(1), None),
        (true, true, None, Some(2)),
        (false, true, None, Some(2)),
        (true, true, Some(1), Some(3)),
    ];
    for (&threads, (guess, read_ahead, hold, games)) in
        threads.iter().flat_map(|t| cutters.into_iter().map(move |c| (t, c)))
    {
        for &chunk_size in sizes {
            let options = Parallel::new(threads)
                .with_chunk_size(chunk_size)
                .with_guess(guess)
                .with_read_ahead(read_ahead);
            let options = hold.map_or(options, |hold| options.with_hold(hold));
            let options = games.map_or(options, |games| options.with_chunk_games(games));
            let mut parallel = Vec::new();
            par_games(
                bytes,
                &options,
                Replay::default,
                |n, g| describe(n, 0, g),
                |line| {
                    parallel.push(line);
                    Ok::<_, io::Error>(())
                },
            )
            .unwrap();
            assert_eq!(
                serial, parallel,
                "{name}: {threads} threads, chunks of {chunk_size}, guessing {guess}, \
                 reading ahead {read_ahead}, holding {hold:?}, games {games:?}"
            );
        }
    }
}

#[test]
fn par_games_reads_as_one_reader_does() {
    let joined = joined_repo_files();
    check_threads("test files", &joined, &[1, 2, 3, 8], &[1, 1000, 1 << 20]);
    for path in corpus_files().iter().filter(|p| p.to_string_lossy().contains("lichess-db")) {
        let bytes = std::fs::read(path).unwrap();
        check_threads(&path.display().to_string(), &bytes, &[2, 4], &[1, 64 << 10]);
    }
}

/// A comment that spans many chunks, full of blank lines and tag lines that the guessing
/// cutter takes for game starts: every guess inside it is wrong, the pieces it spans are
/// joined and read again, and the games around it read as one reader reads them. Also a
/// game of one long line, which no cut can fall inside.
#[test]
fn games_spanning_many_chunks_read_as_one_reader_does() {
    let fake = "\n\n[Event \"fake\"]\n[Site \"inside\"]\n\n1. d4 *\n".repeat(4_000);
    let line: String =
        (0..2_000).map(|i| format!("{}. Nf3 Nf6 {}. Ng1 Ng8 ", 2 * i + 1, 2 * i + 2)).collect();
    let mut text = String::new();
    for n in 0..3 {
        text += &format!("[Event \"before {n}\"]\n\n1. e4 e5 *\n\n");
        text += &format!("[Event \"long {n}\"]\n\n1. e4 {{{fake}}} e5 2. Nf3 *\n\n");
        text += &format!("[Event \"line {n}\"]\n\n{line}*\n\n");
    }
    check_threads("long games", text.as_bytes(), &[2, 3], &[1 << 10, 16 << 10]);
    // Games glued to each other (`1-0[Event`), each with a comment holding `\n\n[`: every
    // guessed cut falls inside a comment, and the pieces are cut again where a game ended.
    let glued: String = (0..400)
        .map(|n| {
            // Every fifth game broken, so that lines and columns are compared too.
            let second = if n % 5 == 0 { "Ke5" } else { "e5" };
            // A glued game start in a line comment between games: a cut there is no game
            // start, and the reading of the chunk before must say so.
            let between = if n % 7 == 0 { "\n; 1-0[Event \"fake\"] no game\n" } else { "" };
            format!(
                "{between}[Event \"g{n}\"]\n\n1. e4 {{ a\n\n[not a tag {n}]\n }} {second} 2. Nf3 1-0"
            )
        })
        .collect();
    check_threads("glued games", glued.as_bytes(), &[2, 3], &[1, 100, 2 << 10]);
}

#[test]
fn par_games_ends_with_the_read_error() {
    let bytes = chessbits_testkit::LICHESS_SAMPLE.to_vec();
    let head = &bytes[..70_000];
    let mut serial = Vec::new();
    let mut reader = PgnReader::new(Failing { bytes: head, step: 7_777 });
    while let Some(result) = reader.read_game(&mut Replay::default()) {
        serial.push(describe(reader.games(), 0, result));
    }
    for threads in [1, 2, 4] {
        let options = Parallel::new(threads).with_chunk_size(5_000);
        let mut parallel = Vec::new();
        let input = Failing { bytes: head, step: 3_000 };
        par_games(
            input,
            &options,
            Replay::default,
            |n, g| describe(n, 0, g),
            |line| {
                parallel.push(line);
                Ok::<_, io::Error>(())
            },
        )
        .unwrap();
        assert_eq!(serial, parallel, "{threads} threads");
    }
}

/// The sink's error stops the run: no result after it, and every thread ends.
#[test]
fn a_sink_error_stops_every_thread() {
    let pgn = "1. e4 e5 1-0\n\n".repeat(20_000);
    for threads in [1, 2, 4] {
        let options = Parallel::new(threads).with_chunk_size(100);
        let mut seen = 0;
        let result = par_games(
            pgn.as_bytes(),
            &options,
            Replay::default,
            |n, _| n,
            |n| {
                seen += 1;
                if n == 500 {
                    Err(n)
                } else {
                    Ok(())
                }
            },
        );
        assert_eq!(result, Err(500));
        assert_eq!(seen, 500, "{threads} threads");
    }
}

/// The PGN fuzz corpus: small, strange inputs, at many chunk sizes.
#[test]
fn chunks_read_as_the_whole_fuzz_corpus_does() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    if !root.is_dir() {
        // This crate's package, outside the workspace: the fuzz corpus is not in it.
        eprintln!("skipped: no fuzz corpus at {}", root.display());
        return;
    }
    let mut files = 0;
    for dir in ["corpus/pgn", "regressions/pgn"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else { continue };
        for entry in entries {
            let path = entry.unwrap().path();
            let bytes = std::fs::read(&path).unwrap();
            check(&path.display().to_string(), &bytes, &[1, 10, 19, 64, 100, 4096]);
            files += 1;
        }
    }
    // The committed seeds and regressions, and whatever a local fuzzing run has added.
    assert!(files >= 5, "the committed fuzz corpus: {files} files");
}

/// The pipeline's guessed cuts (`Parallel::guess`, a `[` after a blank line) fall inside
/// games here, on purpose: a comment and a variation holding such lines, blank lines between
/// tags, games with no blank line between them, CRLF line ends, junk between games. Every
/// thread count and chunk size gives what one reader gives, and the exact cutter too.
#[test]
fn guessed_cuts_inside_games_are_read_again() {
    let games: [&[u8]; 6] = [
        b"[Event \"a\"]\n[Site \"b\"]\n\n1. e4 {a comment\n\n[Event \"not a game\"]\n\n[Site \"x\"]\nstill the comment} e5 2. Nf3 *\n\n",
        b"[Event \"c\"]\n\n[Site \"blank lines between tags\"]\n\n[White \"w\"]\n\n1. d4 (1. c4\n\n[Event \"no\"]\n) d5 1-0\n\n",
        b"[Event \"d\"]\n1. e4 e5 0-1\n[Event \"e\"]\n1. d4 d5 1/2-1/2\n[Event \"f\"]\n1. c4 *\n",
        b"[Event \"g\"]\r\n[Site \"crlf\"]\r\n\r\n1. e4 { [%clk 0:03:00] } e5 { [%clk 0:02:59] } 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\r\n\r\n",
        b"junk line between games\n\n% escape\n\n[Event \"h\"]\n\n1. e4 Ke7 *\n\n",
        b"[Event \"i\"]\n\n1. e4 e5 2. Nf3\n\n1. d4 d5 *\n\n[Event \"j\"]\n\n1. e4 {unclosed\n\n[Event \"k\"]\n\n1. d4 *\n\n",
    ];
    let bytes = drawn(&games, 300, 0x6e55_ed00);
    check_threads("guesses inside games", &bytes, &[2, 3], &[1, 50, 700, 5000]);
    check("guesses inside games", &bytes, &[1, 700]);
}

/// Mangled PGN through the pipeline's guessed cuts, at several thread counts and chunk
/// sizes: wrong guesses of game starts and game numbers everywhere.
#[test]
fn par_games_reads_mangled_pgn_as_one_reader_does() {
    let joined = joined_repo_files();
    let mut rng = Rng::new(0x5eed_9a55_u64);
    for round in 0..12 {
        let bytes = mangle(&joined, &mut rng, (round + 1) * 16, true);
        check_threads(&format!("mangled round {round}"), &bytes, &[2, 3], &[1, 300, 4096]);
    }
}

/// A game refused for its variant (once its tags are read) ends where a skipping reader ends
/// it, whatever the game before it left open: before, recovery skipped its movetext at the
/// depth of a broken game's unclosed variations before it (and from after its tag line), so
/// it ran past its result, and the cutter, which skips games, counted one game more than the
/// reader (found by the fuzz target, `fuzz/regressions/pgn/refused-variant-after-open-variations`).
#[test]
fn a_refused_variant_ends_where_a_skipping_reader_ends_it() {
    let games: [&[u8]; 4] = [
        b"[Event \"open\"]\n\n1. e4 (1. d4 (1. c4 e5\n",
        b"[Event \"v\"]\n[Variant \"Atomic\"]1/2-1/2\n\n%escape\n{unclosed\n",
        b"[Event \"w\"]\n[Variant \"Horde\"]\n\n1. e4 e5 1-0\n\n",
        b"[Event \"x\"]\n\n1. d4 d5 *\n\n",
    ];
    let bytes = drawn(&games, 200, 0x7a21_a7ed);
    check("refused variants", &bytes, &[1, 90, 700]);
    check_threads("refused variants", &bytes, &[2, 3], &[1, 90, 700]);
}

/// A file with no blank line between games (nor between tags and moves): the cutter takes
/// `[Event ` lines for game starts there; games without one, and comments holding one, are
/// read again.
#[test]
fn a_file_without_blank_lines_is_cut_at_event_tags() {
    let games: [&[u8]; 3] = [
        b"[Event \"a\"]\n[Site \"s\"]\n1. e4 e5 2. Nf3 Nc6 1-0\n",
        b"[Site \"no event\"]\n1. d4 d5 *\n",
        b"[Event \"b\"]\n1. c4 {a comment\n[Event \"inside\"]\n} e5 0-1\n",
    ];
    let bytes = drawn(&games, 400, 0xb1a2_c3d4);
    check_threads("no blank lines", &bytes, &[2, 3], &[1, 100, 2000]);
}

/// `count` games drawn at random (from `seed`) from `games`, one after the other.
fn drawn(games: &[&[u8]], count: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    (0..count).flat_map(|_| games[rng.below(games.len())].iter().copied()).collect()
}

/// The read error that ends the input reaches the caller as the reader gave it, the error
/// inside included (a decompressor's `CompressedStreamError` is one), on every thread count
/// and with either cutter; and a chunk size too large to reserve is no trouble.
#[test]
fn the_read_error_keeps_the_error_inside_it() {
    #[derive(Debug)]
    struct Inner;
    impl std::fmt::Display for Inner {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("inner")
        }
    }
    impl std::error::Error for Inner {}
    struct Broken<'a>(&'a [u8]);
    impl Read for Broken<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Err(io::Error::new(io::ErrorKind::InvalidData, Inner));
            }
            let n = buf.len().min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }
    let clean = "[Event \"e\"]\n\n1. e4 e5 1-0\n\n".repeat(3000);
    // The last game's comment holds blank lines before `[`, which the guessing cutter takes
    // for game starts: the pieces before the last end inside a game, and the last piece, the
    // one the read error ends, is read again with them (before, that reading got a copy of
    // the error, without the error inside).
    let fake_starts = "\n\n[%clk 0:01:00]\n".repeat(400);
    let spoiled = format!("{clean}[Event \"last\"]\n\n1. e4 {{{fake_starts}}} e5 1-0\n\n");
    for case in [
        (&clean, 1, true, 1000, None, None),
        (&clean, 2, true, 1000, None, None),
        (&clean, 2, false, 1000, None, None),
        (&clean, 2, true, usize::MAX, None, None),
        (&spoiled, 2, true, 1000, None, None),
        (&spoiled, 3, true, 4000, None, None),
        (&spoiled, 2, false, 1000, None, None),
        // The last game read serially (it holds more than one byte), the error with it.
        (&spoiled, 2, true, 1000, Some(1), None),
        // Readings capped at 2 games: the last piece's reading stops before the error, and
        // the reading of its rest must report it (a review found it dropped, exit 0).
        (&clean, 2, true, 1000, None, Some(2)),
        (&clean, 3, true, 1 << 20, None, Some(7)),
        (&clean, 2, false, 1000, None, Some(2)),
        (&spoiled, 2, true, 1000, None, Some(2)),
        (&spoiled, 2, true, 1000, Some(1), Some(3)),
    ]
    .into_iter()
    .flat_map(|case| [(case, true), (case, false)])
    {
        let ((bytes, threads, guess, chunk_size, hold, games), read_ahead) = case;
        let options = Parallel::new(threads)
            .with_chunk_size(chunk_size)
            .with_guess(guess)
            .with_read_ahead(read_ahead);
        let options = hold.map_or(options, |hold| options.with_hold(hold));
        let options = games.map_or(options, |games| options.with_chunk_games(games));
        let mut last = None;
        par_games(
            Broken(bytes.as_bytes()),
            &options,
            Replay::default,
            |n, game| (n, game.err().map(|e| e.kind)),
            |(n, kind)| {
                last = Some((n, kind));
                Ok::<_, io::Error>(())
            },
        )
        .unwrap();
        let (n, kind) = last.unwrap();
        let games = 3000 + u64::from(bytes.len() > clean.len());
        assert_eq!(n, games + 1, "{threads} threads, guessing {guess}");
        let Some(chessbits_pgn::PgnErrorKind::Io(e)) = kind else { panic!("{kind:?}") };
        assert!(e.get_ref().is_some_and(|inner| inner.is::<Inner>()), "{threads} {guess}: {e:?}");
    }
}

/// A tag over the length limit is one broken game, whatever its value holds (`]`, quotes),
/// and the next game keeps its number, in every reader: before, a `]` in the value ended the
/// skip there and the rest of the game was read as the next one.
#[test]
fn a_tag_over_the_limit_is_one_broken_game() {
    for value in ["a]b".repeat(25_000), "a\"b".repeat(25_000), "a".repeat(70_000)] {
        let game = format!("[Event \"x\"]\n[Site \"{value}\"]\n[White \"w\"]\n\n1. e4 *\n\n");
        let pgn = format!("{game}[Event \"y\"]\n\n1. d4 *\n\n{game}[Event \"z\"]\n\n1. c4 *\n");
        let mut reader = SliceReader::new(pgn.as_bytes());
        let mut got = Vec::new();
        while let Some(result) = reader.read_game(&mut Replay::default()) {
            got.push(result.map(|g| g.game.moves().len()).map_err(|e| e.to_string()));
        }
        assert_eq!(got.len(), 4, "{got:?}");
        assert!(got[0].as_ref().is_err_and(|e| e.contains("tag longer than")), "{got:?}");
        assert_eq!(got[1], Ok(1));
        assert!(got[2].is_err());
        assert_eq!(got[3], Ok(1));
        check("long tag", pgn.as_bytes(), &[1, 4096, 70_000]);
        check_threads("long tag", pgn.as_bytes(), &[1, 2], &[1, 4096]);
    }
}

/// A tag value never closed and longer than the tag limit: too long for every reader, the
/// streaming one (which stops reading at the limit) and a chunk's (which holds the whole
/// line and saw it end inside the value). A trial found the second saying "the line ends
/// inside the tag value" at two threads.
#[test]
fn a_long_unclosed_tag_is_too_long_on_every_thread_count() {
    let mut text = String::from("[Event \"a\"]\n\n1. e4 *\n\n");
    for len in [65_000, 65_540, 100_000, 140_000, 200_000] {
        text += &format!("[Event \"{}\n[Site \"b\"]\n\n1. d4 *\n\n", "x".repeat(len));
        text += "[Event \"c\"]\n\n1. c4 *\n\n";
    }
    check_threads("long tags", text.as_bytes(), &[1, 2, 3], &[1_000, 64 << 10, 1 << 20]);
}

/// Megabytes without a line break (a compressed bomb of spaces, games on one line) come in
/// chunks: the cutter cuts after a space once no line start comes for 8 MiB past a chunk's
/// size. A trial found 500 MB of spaces (370 bytes of bzip2) held whole at two threads.
#[test]
fn a_line_without_end_comes_in_chunks() {
    let spaces = " ".repeat(10 << 20);
    let stars = "* ".repeat(100_000);
    let text = format!(
        "[Event \"a\"]\n\n1. e4 *\n\n{spaces}{stars}{spaces}1. d4 {spaces}d5 *{spaces}\n\n[Event \"b\"]\n\n1. c4 *\n"
    );
    let mut chunks = 0;
    chessbits_pgn::par_chunks(
        text.as_bytes(),
        &Parallel::new(2).with_chunk_size(1 << 10),
        |reader| while reader.skip_game().is_some() {},
        |_, ()| {
            chunks += 1;
            Ok::<_, ()>(())
        },
    )
    .unwrap();
    // 40 MiB cut every 8 MiB, the game with spaces inside read as one; without the cut
    // after a space, 3: the first game, the one line, the last game.
    assert!(chunks >= 4, "{chunks} chunks");
    check_threads("one long line", text.as_bytes(), &[2], &[1 << 10]);
}
