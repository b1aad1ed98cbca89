//! The PGN-in-the-wild files of `chessbits-pgn` (`crates/pgn/tests/data/wild/`) read into
//! `.cbg` game records exactly as `Replay` reads them: the same games, errors and mainlines
//! (null moves included), and a record with a null move cannot be coded.

use chessbits_codec::cbg::{CbgWriter, GameBuilder};
use chessbits_codec::move_codec::MoveCodec;
use chessbits_pgn::{Replay, SliceReader};

#[test]
fn game_records_read_the_wild_files_as_replay_does() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../pgn/tests/data/wild");
    let mut files = 0;
    for entry in std::fs::read_dir(dir).expect("the pgn crate's test data") {
        let path = entry.expect("a directory entry").path();
        let bytes = std::fs::read(&path).expect("a readable file");
        let (mut records, mut replays) = (SliceReader::new(&bytes), SliceReader::new(&bytes));
        let mut builder = GameBuilder::default();
        let mut writer = CbgWriter::new(Vec::new(), MoveCodec::Model).expect("a writer");
        let mut games = 0;
        loop {
            let (record, replayed) =
                (records.read_game(&mut builder), replays.read_game(&mut Replay::default()));
            let (Some(record), Some(replayed)) = (record, replayed) else {
                assert!(records.read_game(&mut builder).is_none(), "{path:?}: as many games");
                break;
            };
            games += 1;
            match (record, replayed) {
                (Ok(record), Ok(replayed)) => {
                    assert_eq!(record.moves, replayed.game.moves(), "{path:?}: game {games}");
                    assert_eq!(record.end_position(), *replayed.game.position());
                    let written = writer.write_game(&record);
                    match record.moves.iter().position(|m| m.is_null()) {
                        Some(i) => {
                            let err = written.expect_err("a null move has no code").to_string();
                            assert!(err.contains(&format!("ply {}: a null move", i + 1)), "{err}");
                        }
                        None => assert!(written.is_ok(), "{path:?}: game {games}"),
                    }
                }
                (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
                (a, b) => panic!("{path:?}: game {games}: {a:?} / {b:?}"),
            }
        }
        assert!(games > 1, "{path:?}");
        files += 1;
    }
    assert_eq!(files, 4);
}
