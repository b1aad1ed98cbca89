//! Index records (`I`, `X`) and the trailer's offset that do not match the game records, with
//! checksums made right: the random reader refuses what would name another game, and the
//! streaming reader checks them as it passes (a trial's forged file with block sizes of 0
//! made `unpack --game 2` print game 1 as game 2, and every reader took it).

use std::io::Cursor;

use chessbits_cbg::{crc16, CbgFile, CbgReader, CbgWriter, GameBuilder, HEADER_LEN};
use chessbits_codec::move_codec::MoveCodec;
use chessbits_pgn::PgnReader;

fn file() -> Vec<u8> {
    let mut writer = CbgWriter::new(Vec::new(), MoveCodec::Model).unwrap();
    let pgn = b"1. e4 e5 *\n\n1. d4 d5 2. c4 *\n\n1. c4 *\n";
    let mut games = PgnReader::new(&pgn[..]);
    while let Some(game) = games.read_game(&mut GameBuilder::default()) {
        writer.write_game(&game.unwrap()).unwrap();
    }
    writer.finish().unwrap()
}

/// A varint as the format writes it (7 bits a byte, least significant first).
fn varint(mut v: u64, out: &mut Vec<u8>) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn read_varint(bytes: &[u8], at: &mut usize) -> u64 {
    let (mut v, mut shift) = (0, 0);
    loop {
        let b = bytes[*at];
        *at += 1;
        v |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            return v;
        }
        shift += 7;
    }
}

/// The file's records: tag, offset and body.
fn records(bytes: &[u8]) -> Vec<(u8, usize, Vec<u8>)> {
    let mut at = HEADER_LEN;
    let mut out = Vec::new();
    while at < bytes.len() {
        let start = at;
        let tag = bytes[at];
        at += 1;
        let len = read_varint(bytes, &mut at) as usize;
        out.push((tag, start, bytes[at..at + len].to_vec()));
        at += len + 2;
    }
    out
}

/// The file with the body of its first record tagged `tag` replaced, its check made right
/// (and every offset after it kept: the new body must have the old one's length).
fn forged(bytes: &[u8], tag: u8, body: impl FnOnce(&[u8]) -> Vec<u8>) -> Vec<u8> {
    let (_, start, old) = records(bytes).into_iter().find(|r| r.0 == tag).unwrap();
    let new = body(&old);
    assert_eq!(new.len(), old.len(), "the forged body keeps its length");
    let mut out = bytes[..start].to_vec();
    out.push(tag);
    varint(new.len() as u64, &mut out);
    out.extend_from_slice(&new);
    out.extend_from_slice(&crc16(&new).to_be_bytes());
    out.extend_from_slice(&bytes[start + (out.len() - start)..]);
    out
}

/// Every game or error the streaming reader gives.
fn streamed(bytes: &[u8]) -> Vec<String> {
    CbgReader::new(bytes)
        .unwrap()
        .map(|g| match g {
            Ok(g) => format!("{} plies", g.moves.len()),
            Err(e) => format!("error at {}: {}", e.at.byte, e.kind),
        })
        .collect()
}

#[test]
fn a_valid_file_reads_clean() {
    let bytes = file();
    assert_eq!(streamed(&bytes), ["2 plies", "3 plies", "1 plies"]);
    let mut random = CbgFile::open(Cursor::new(bytes)).unwrap();
    assert_eq!(random.game(2).unwrap().moves.len(), 3);
}

#[test]
fn block_sizes_that_do_not_match_the_records_are_errors() {
    let bytes = file();
    // first game (varint 0), the block's offset (8 bytes), the count (3), then three sizes
    // of one byte each: all set to 0, as the trial's forged file had them.
    let zero_sizes = forged(&bytes, b'I', |body| {
        let mut body = body.to_vec();
        let n = body.len();
        body[n - 3..].copy_from_slice(&[0, 0, 0]);
        body
    });
    let mut random = CbgFile::open(Cursor::new(zero_sizes.clone())).unwrap();
    assert!(random.game(1).is_err(), "game 1's size is not 0");
    let second = random.game(2);
    assert!(second.is_err(), "game 2 read as {:?}", second.map(|g| g.moves.len()));
    let got = streamed(&zero_sizes);
    assert_eq!(got[..3], ["2 plies", "3 plies", "1 plies"]);
    assert!(got[3].ends_with("the block index does not match the game records"), "{got:?}");
}

#[test]
fn a_top_index_or_trailer_pointing_elsewhere_is_an_error() {
    let bytes = file();
    let block_at = records(&bytes).iter().find(|r| r.0 == b'I').unwrap().1 as u64;
    let top = forged(&bytes, b'X', |_| (block_at + 1).to_le_bytes().to_vec());
    let got = streamed(&top);
    assert!(
        got.last().unwrap().ends_with("the top index does not match the game records"),
        "{got:?}"
    );
    let trailer = forged(&bytes, b'T', |body| {
        let mut body = body.to_vec();
        body[..8].copy_from_slice(&block_at.to_le_bytes());
        body
    });
    let got = streamed(&trailer);
    assert!(
        got.last().unwrap().ends_with("the trailer does not match the game records"),
        "{got:?}"
    );
}

/// Files of every block shape the writer makes read clean through both readers: the new
/// checks must never refuse what `CbgWriter` wrote (no block, one short block, a full one,
/// a full one and one game, several).
#[test]
fn files_of_every_block_shape_read_clean() {
    use chessbits_cbg::{GameRecord, BLOCK_GAMES};
    for games in [0, 1, BLOCK_GAMES - 1, BLOCK_GAMES, BLOCK_GAMES + 1, 2 * BLOCK_GAMES + 1] {
        let mut writer = CbgWriter::new(Vec::new(), MoveCodec::Model).unwrap();
        let mut game = GameRecord::default();
        for number in 1..=games as u64 {
            // Every third game skipped when packed: numbers with gaps, as from broken games.
            game.number = number + number / 3;
            writer.write_game(&game).unwrap();
        }
        let bytes = writer.finish().unwrap();
        let read: Vec<_> = CbgReader::new(&bytes[..]).unwrap().collect();
        assert_eq!(read.len(), games, "{games} games");
        assert!(
            read.iter().all(Result::is_ok),
            "{games} games: {:?}",
            read.iter().find(|r| r.is_err())
        );
        let mut random = CbgFile::open(Cursor::new(bytes)).unwrap();
        for n in
            [1, BLOCK_GAMES, BLOCK_GAMES + 1, games].into_iter().filter(|n| (1..=games).contains(n))
        {
            let n = n as u64;
            assert_eq!(random.game(n).unwrap().number, n + n / 3, "game {n} of {games}");
        }
    }
}
