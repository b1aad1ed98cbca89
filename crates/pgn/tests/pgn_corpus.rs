//! Every game of the shared corpus reads, and its mainline replays legally.
//!
//! The corpus lives beside the repository (`../shared/corpus`, see its SOURCES.md); without it
//! these tests say so and pass.

use std::collections::hash_map::DefaultHasher;
use std::convert::Infallible;
use std::hash::{Hash, Hasher};
use std::path::PathBuf;
use std::time::Instant;

use chessbits_notation::san::SanPlus;
use chessbits_pgn::{
    GameResult, Nag, PgnErrorKind, PgnReader, RawComment, RawTag, Replay, ReplayError, Skip,
    SliceReader, Visitor,
};

fn corpus() -> Option<PathBuf> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus"));
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipped: no corpus at {}", dir.display());
        None
    }
}

/// Every PGN file: name, games, games whose mainline does not replay.
const FILES: &[(&str, u64, u64)] = &[
    ("chess960-rapid-wch-mainz-2009.pgn", 20, 0),
    ("dortmund-latin1.pgn", 347, 0),
    ("fishtest-fastchess.pgn", 330, 0),
    ("lichess-broadcast-fide-womens-world-rapid-2024.pgn", 605, 0),
    ("lichess-db-2021-10-first999.pgn", 999, 0),
    ("lichess-db-2025-05-head1000k.pgn", 438, 0),
    ("pc-chessbase-empty-line.pgn", 1, 0),
    ("pc-cutechess-fischerrandom.pgn", 4, 0),
    ("pc-immortal-games.pgn", 36, 4),
    ("pc-kasparov-deep-blue-1997.pgn", 6, 0),
    ("pc-molinari-bordais-1979.pgn", 1, 0),
    ("pc-nepomniachtchi-liren-game1.pgn", 1, 0),
    ("pc-stockfish-learning.pgn", 1, 0),
    ("pc-uci-moves.pgn", 1, 0),
    ("pc-utf8-bom.pgn", 2, 0),
    ("pc-variations-nags-and-comments.pgn", 1, 0),
    // python-chess counts 32,624: it splits the two games with two blank lines after the tags.
    ("pgnmentor-world-champions.pgn", 32_622, 0),
    ("tcec-s24-dfrc2-final.pgn", 50, 0),
    ("tcec-s24-frc6-league-d.pgn", 30, 0),
    ("twic0920.pgn", 2_245, 0),
    ("twic1599-head1000k.pgn", 1_110, 0),
    ("world-matches-annotated.pgn", 580, 0),
];

#[test]
fn corpus_mainlines_replay() {
    let Some(dir) = corpus() else { return };
    for &(name, games, broken) in FILES {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let started = Instant::now();
        let mut reader = SliceReader::new(&bytes);
        let mut replay = Replay::default();
        let (mut ok, mut errors) = (0, Vec::new());
        while let Some(game) = reader.read_game(&mut replay) {
            match game {
                Ok(_) => ok += 1,
                Err(err) => errors.push(err),
            }
        }
        eprintln!("{name}: {ok} ok, {} broken, {:?}", errors.len(), started.elapsed());
        for err in &errors {
            eprintln!("  {err}");
        }
        assert_eq!(ok + errors.len() as u64, games, "{name}");
        assert_eq!(errors.len() as u64, broken, "{name}");
        for err in errors {
            assert!(
                matches!(&err.kind, PgnErrorKind::Visitor(ReplayError::Move { .. })),
                "{name}: {err}"
            );
        }
    }
}

/// A hash of everything the reader reports about a game.
#[derive(Default)]
struct Digest(DefaultHasher);

impl Visitor for Digest {
    type Output = u64;
    type Error = Infallible;

    fn begin_game(&mut self) {
        self.0 = DefaultHasher::new();
    }
    fn tag(&mut self, name: &[u8], value: RawTag<'_>) -> Result<(), Infallible> {
        (1, name, value.0).hash(&mut self.0);
        Ok(())
    }
    fn san(&mut self, san: SanPlus) -> Result<(), Infallible> {
        (2, san).hash(&mut self.0);
        Ok(())
    }
    fn nag(&mut self, nag: Nag) {
        (3, nag).hash(&mut self.0);
    }
    fn comment(&mut self, comment: RawComment<'_>) {
        (4, comment.0).hash(&mut self.0);
    }
    fn begin_variation(&mut self) -> Skip {
        5.hash(&mut self.0);
        Skip(false)
    }
    fn end_variation(&mut self) {
        6.hash(&mut self.0);
    }
    fn outcome(&mut self, result: GameResult) {
        (7, result).hash(&mut self.0);
    }
    fn end_game(&mut self) -> u64 {
        self.0.finish()
    }
}

/// The streaming reader, over the file itself, reads every game as the slice reader does.
#[test]
fn corpus_streams_as_it_reads_in_memory() {
    let Some(dir) = corpus() else { return };
    for &(name, games, _) in FILES {
        let path = dir.join(name);
        let bytes = std::fs::read(&path).unwrap();
        let mut slice = SliceReader::new(&bytes);
        let mut stream = PgnReader::new(std::fs::File::open(&path).unwrap());
        let (mut a, mut b) = (Digest::default(), Digest::default());
        let mut count = 0;
        loop {
            let (x, y) = (slice.read_game(&mut a), stream.read_game(&mut b));
            match (x, y) {
                (None, None) => break,
                (Some(Ok(x)), Some(Ok(y))) => assert_eq!(x, y, "{name}: game {}", count + 1),
                (x, y) => panic!("{name}: game {}: {:?} {:?}", count + 1, x.is_some(), y.is_some()),
            }
            assert_eq!(slice.game_start(), stream.game_start(), "{name}");
            count += 1;
        }
        assert_eq!(count, games, "{name}");
    }
}

/// Corpus PGN -> tree -> PGN -> tree gives the same tree, and writing it again the same bytes.
///
/// Files over 4 MB are checked one game in four (the others only skipped over; the test above
/// replays them all), unless `CHESSBITS_FULL_CORPUS` is set (for a release-mode run from CI
/// or an xtask): every game then.
#[test]
fn corpus_round_trips_through_the_tree() {
    use chessbits_pgn::{read_games, Tags, TreeBuilder, MAX_LINE_LEN};
    let Some(dir) = corpus() else { return };
    let full = std::env::var_os("CHESSBITS_FULL_CORPUS").is_some();
    for &(name, games, broken) in FILES {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let stride = if full || bytes.len() <= 4_000_000 { 1 } else { 4 };
        let started = Instant::now();
        let (mut count, mut checked, mut errors) = (0, 0, 0);
        let mut reader = SliceReader::new(&bytes);
        let mut builder = TreeBuilder::default();
        loop {
            count += 1;
            if count % stride != 0 {
                match reader.skip_game() {
                    Some(game) => game.unwrap(),
                    None => break,
                }
                continue;
            }
            let Some(game) = reader.read_game(&mut builder) else { break };
            let Ok(first) = game else {
                errors += 1;
                continue;
            };
            checked += 1;
            let written = first.to_string();
            let mut again = read_games(written.as_bytes());
            let second = again.next().unwrap().unwrap_or_else(|e| panic!("{name}: {e}\n{written}"));
            assert!(again.next().is_none(), "{name}: one game written, more read\n{written}");
            let mut expected = first.clone();
            let result = first.result.to_string();
            expected.tags = Tags(
                first
                    .tags
                    .export_order()
                    .into_iter()
                    .map(|(n, v)| {
                        let v = if n == "Result" && first.tags.get("Result").is_none() {
                            &result
                        } else {
                            v
                        };
                        (n.to_string(), v.to_string())
                    })
                    .collect(),
            );
            assert_eq!(second, expected, "{name}\n{written}");
            assert_eq!(second.to_string(), written, "{name}");
            for line in written.lines() {
                let single = !line.trim_start_matches("{ ").trim_end_matches(" }").contains(' ');
                assert!(
                    line.len() <= MAX_LINE_LEN || single || line.starts_with('['),
                    "{name}: {line:?}"
                );
            }
        }
        eprintln!(
            "{name}: {checked} written and read back (one in {stride}), {errors} broken, {:?}",
            started.elapsed()
        );
        assert_eq!(count - 1, games, "{name}");
        if stride == 1 {
            assert_eq!((checked, errors), (games - broken, broken), "{name}");
        }
    }
}

/// Games the visitor rejects are reported alike by both readers, and reading goes on alike.
#[test]
fn corpus_rejections_stream_as_they_read_in_memory() {
    let Some(dir) = corpus() else { return };
    let path = dir.join("pc-immortal-games.pgn");
    let bytes = std::fs::read(&path).unwrap();
    let outcomes = |next: &mut dyn FnMut(&mut Replay) -> Option<Result<usize, String>>| {
        let mut replay = Replay::default();
        std::iter::from_fn(|| next(&mut replay)).collect::<Vec<_>>()
    };
    let mut slice = SliceReader::new(&bytes);
    let in_memory = outcomes(&mut |v| {
        slice.read_game(v).map(|g| g.map(|g| g.game.moves().len()).map_err(|e| e.to_string()))
    });
    let mut stream = PgnReader::new(std::fs::File::open(&path).unwrap());
    let streamed = outcomes(&mut |v| {
        stream.read_game(v).map(|g| g.map(|g| g.game.moves().len()).map_err(|e| e.to_string()))
    });
    assert_eq!(in_memory.len(), 36);
    assert_eq!(in_memory.iter().filter(|g| g.is_err()).count(), 4);
    assert_eq!(streamed, in_memory);
}
