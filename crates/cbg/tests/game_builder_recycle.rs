//! A `GameBuilder` that gets its records back (`recycle`) builds exactly the records a fresh
//! builder does, game after game, whatever came before: broken games, other start positions,
//! more or fewer tags, clocks and moves.

use chessbits_cbg::{GameBuilder, GameRecord};
use chessbits_pgn::PgnReader;

/// Every game of `pgn`, each read by a new builder (the reference).
fn fresh(pgn: &[u8]) -> Vec<Result<GameRecord, String>> {
    let mut reader = PgnReader::new(pgn);
    let mut games = Vec::new();
    loop {
        let mut builder = GameBuilder::default();
        match reader.read_game(&mut builder) {
            None => return games,
            Some(game) => games.push(game.map_err(|e| e.to_string())),
        }
    }
}

/// Every game of `pgn`, read by one builder that gets each record back once it is copied.
fn recycled(pgn: &[u8]) -> Vec<Result<GameRecord, String>> {
    let mut reader = PgnReader::new(pgn);
    let mut builder = GameBuilder::default();
    let mut games = Vec::new();
    while let Some(game) = reader.read_game(&mut builder) {
        match game {
            Ok(game) => {
                games.push(Ok(game.clone()));
                builder.recycle(game);
            }
            Err(e) => games.push(Err(e.to_string())),
        }
    }
    games
}

const MIXED: &str = r#"[Event "long"]
[Site "x"]
[White "a"]
[Black "b"]
[Result "1-0"]

1. e4 { [%clk 0:03:00] } e5 { [%eval 0.3] [%clk 0:02:59] } 2. Nf3 Nc6 3. Bb5 a6 1-0

[Event "broken"]
[White "c"]

1. e4 e5 2. Ke3 Ke6 *

[Event "short"]

1. d4 *

[Event "from a FEN"]
[FEN "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"]
[SetUp "1"]

1. O-O-O { [%clk 0:00:10] } Ke7 *

[Event "broken early"]
[FEN "not a fen"]

1. e4 *

[Event "after the breaks"]
[Site "y"]

1. c4 { a comment } (1. d4) c5 0-1
"#;

#[test]
fn recycled_records_match_fresh_ones() {
    let expected = fresh(MIXED.as_bytes());
    assert_eq!(expected.len(), 6);
    let broken: Vec<_> = expected.iter().filter_map(|g| g.as_ref().err()).collect();
    assert_eq!(broken.len(), 2, "{broken:?}");
    assert_eq!(recycled(MIXED.as_bytes()), expected);
}

#[test]
fn recycled_records_match_fresh_ones_on_the_sample() {
    let pgn = chessbits_testkit::LICHESS_SAMPLE;
    let expected = fresh(pgn);
    assert!(expected.len() > 50, "{} games", expected.len());
    assert_eq!(recycled(pgn), expected);
}
