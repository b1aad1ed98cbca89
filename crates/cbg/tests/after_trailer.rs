//! The trailer ends a `.cbg` file: bytes after it (a second file joined with `cat`, or
//! garbage) are an error naming where they start, never games silently left unread.

use chessbits_cbg::{CbgErrorKind, CbgReader, CbgWriter, GameBuilder};
use chessbits_codec::move_codec::MoveCodec;
use chessbits_pgn::PgnReader;

fn file() -> Vec<u8> {
    let mut writer = CbgWriter::new(Vec::new(), MoveCodec::Model).unwrap();
    let mut games = PgnReader::new(&b"1. e4 e5 *\n\n1. d4 d5 2. c4 *\n"[..]);
    while let Some(game) = games.read_game(&mut GameBuilder::default()) {
        writer.write_game(&game.unwrap()).unwrap();
    }
    writer.finish().unwrap()
}

/// What the reader gives, game by game: plies or the error, through both ways of reading.
fn read(bytes: &[u8]) -> [Vec<String>; 2] {
    let show = |r: Result<usize, chessbits_cbg::CbgError>| match r {
        Ok(plies) => plies.to_string(),
        Err(e) => format!("{} at {}: {}", e.at.game, e.at.byte, e.kind),
    };
    let games = CbgReader::new(bytes).unwrap().map(|g| show(g.map(|g| g.moves.len()))).collect();
    let mut raw = CbgReader::new(bytes).unwrap();
    let mut raws = Vec::new();
    while let Some(game) = raw.next_raw() {
        raws.push(show(game.and_then(|g| g.decode()).map(|g| g.moves.len())));
    }
    [games, raws]
}

#[test]
fn bytes_after_the_trailer_are_an_error() {
    let one = file();
    assert_eq!(read(&one), [["2", "3"], ["2", "3"]]);
    let joined = [one.clone(), one.clone()].concat();
    let garbage = [one.clone(), b"x".to_vec()].concat();
    for bytes in [joined, garbage] {
        for got in read(&bytes) {
            assert_eq!(got.len(), 3, "{got:?}");
            assert_eq!(got[..2], ["2", "3"]);
            assert!(
                got[2].starts_with(&format!("3 at {}: bytes after the trailer", one.len())),
                "{got:?}"
            );
        }
    }
    let joined = [one.clone(), one].concat();
    let mut reader = CbgReader::new(&joined[..]).unwrap();
    let kinds: Vec<_> = reader.by_ref().filter_map(Result::err).map(|e| e.kind).collect();
    assert_eq!(kinds, [CbgErrorKind::AfterTrailer]);
    assert!(reader.is_done());
}
