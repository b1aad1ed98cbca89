//! The PGN-in-the-wild files of `chessbits-pgn` (`crates/pgn/tests/data/wild/`) read into
//! `.cbg` game records exactly as `Replay` reads them: the same games, errors and mainlines
//! (null moves included), and every record, null moves included, is packed and read back.

use chessbits_cbg::{CbgReader, CbgWriter, GameBuilder};
use chessbits_codec::move_codec::MoveCodec;
use chessbits_pgn::{Replay, SliceReader};

#[test]
fn game_records_read_the_wild_files_as_replay_does() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../pgn/tests/data/wild");
    if !dir.is_dir() {
        // This crate's package, outside the workspace: the PGN crate's files are not in it.
        eprintln!("skipped: no {}", dir.display());
        return;
    }
    let (mut files, mut with_nulls) = (0, 0);
    for entry in std::fs::read_dir(dir).expect("the pgn crate's test data") {
        let path = entry.expect("a directory entry").path();
        let bytes = std::fs::read(&path).expect("a readable file");
        let (mut records, mut replays) = (SliceReader::new(&bytes), SliceReader::new(&bytes));
        let mut builder = GameBuilder::default();
        let mut writers = [MoveCodec::Model, MoveCodec::Index]
            .map(|codec| CbgWriter::new(Vec::new(), codec).expect("a writer"));
        let (mut games, mut packed) = (0, Vec::new());
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
                    for writer in &mut writers {
                        writer.write_game(&record).expect("every game that reads is packed");
                    }
                    with_nulls += usize::from(record.moves.iter().any(|m| m.is_null()));
                    packed.push(record);
                }
                (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
                (a, b) => panic!("{path:?}: game {games}: {a:?} / {b:?}"),
            }
        }
        assert!(games > 1, "{path:?}");
        for writer in writers {
            let bytes = writer.finish().expect("written");
            let read: Vec<_> = CbgReader::new(&bytes[..])
                .expect("a header")
                .map(|game| game.expect("reads back"))
                .collect();
            assert_eq!(read.len(), packed.len(), "{path:?}");
            for (back, record) in read.iter().zip(&packed) {
                assert_eq!(back.moves, record.moves, "{path:?}");
                assert_eq!(back.end_position(), record.end_position());
            }
        }
        files += 1;
    }
    assert_eq!(files, 4);
    assert!(with_nulls > 0, "the wild files hold null moves");
}
