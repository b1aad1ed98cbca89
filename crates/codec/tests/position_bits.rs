//! The bit-level position formats (`packed`, `compact`) over the perft suites in
//! `testdata/perft` and over random playouts: every position round-trips (FEN and Zobrist key
//! equal, castling mode kept), and decoders survive mutated and random input without panicking.

use chessbits_codec::{compact, packed};
use chessbits_move::CastlingMode;
use chessbits_movegen::MoveGen;
use chessbits_notation::epd::Epd;
use chessbits_notation::fen::{fen_of, CastlingNotation, EnPassantMode, FenOptions};
use chessbits_state::Position;
use chessbits_testkit::Rng;

use chessbits_testkit::SUITES;

/// Every position of every suite.
fn suite_positions() -> Vec<(String, Position)> {
    let mut positions = Vec::new();
    for (name, text) in SUITES {
        for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let epd: Epd = line.parse().unwrap_or_else(|e| panic!("{name}:{}: {e}", i + 1));
            let pos = epd.into_position().unwrap_or_else(|e| panic!("{name}:{}: {e}", i + 1));
            positions.push((format!("{name}:{}", i + 1), pos));
        }
    }
    positions
}

/// The FEN that says everything a position holds: Shredder castling, the en passant square as
/// recorded.
fn full_fen(pos: &Position) -> String {
    let options =
        FenOptions { castling: CastlingNotation::Shredder, en_passant: EnPassantMode::Always };
    fen_of(pos, options)
}

/// `pos` as a decoder without the clocks gives it back: clocks `0 1`.
fn without_clocks(pos: &Position) -> Position {
    let mut pos = *pos;
    pos.set_clocks(0, 1);
    pos
}

/// One decoded position against the original: FEN, key and castling mode. (Not `==`: a
/// position that lost a right keeps bookkeeping for it that a decoded one never had.)
fn assert_same(decoded: &Position, expected: &Position, at: &str) {
    assert_eq!(full_fen(decoded), full_fen(expected), "{at}");
    assert_eq!(decoded.key(), expected.key(), "{at}");
    assert_eq!(decoded.castling_mode(), expected.castling_mode(), "{at}");
}

/// Packed round trips of `pos`, with and without clocks.
fn check_packed(pos: &Position, at: &str) {
    let short = packed::encode(pos, false);
    assert!(short.len() <= packed::MAX_LEN_WITHOUT_CLOCKS, "{at}: {short:?}");
    let back = packed::decode(short.as_bytes()).unwrap_or_else(|e| panic!("{at}: {e}"));
    assert_same(&back, &without_clocks(pos), at);
    let long = packed::encode(pos, true);
    assert!(long.len() <= packed::MAX_LEN, "{at}: {long:?}");
    let back = packed::decode(long.as_bytes()).unwrap_or_else(|e| panic!("{at}: {e}"));
    assert_same(&back, pos, at);
}

/// Compact round trips of `pos`, with and without clocks.
fn check_compact(pos: &Position, at: &str) {
    let short = compact::encode(pos, false);
    assert!(short.len() <= compact::MAX_LEN_WITHOUT_CLOCKS, "{at}: {short:?}");
    assert!(short.len() <= packed::encode(pos, false).len() + 1, "{at}: {short:?}");
    let back = compact::decode(short.as_bytes()).unwrap_or_else(|e| panic!("{at}: {e}"));
    assert_same(&back, &without_clocks(pos), at);
    let long = compact::encode(pos, true);
    assert!(long.len() <= compact::MAX_LEN, "{at}: {long:?}");
    let back = compact::decode(long.as_bytes()).unwrap_or_else(|e| panic!("{at}: {e}"));
    assert_same(&back, pos, at);
}

/// Every check of every format on `pos`, and on `pos` in Chess960 castling mode.
fn check_all(pos: &Position, at: &str) {
    check_packed(pos, at);
    check_compact(pos, at);
    let mut frc = *pos;
    if frc.castling_mode() == CastlingMode::Standard {
        frc.set_castling_mode(CastlingMode::Chess960).unwrap();
        check_packed(&frc, &format!("{at} (Chess960 mode)"));
        check_compact(&frc, &format!("{at} (Chess960 mode)"));
    }
}

#[test]
fn suites_round_trip() {
    let positions = suite_positions();
    assert_eq!(positions.len(), 7 + 127 + 300 + 200 + 200, "every suite line is read");
    for (at, pos) in &positions {
        check_all(pos, at);
        check_decoder(packed::encode(pos, true).as_bytes(), at);
    }
}

/// Random games from the start position and from the Chess960 suite's start positions, every
/// position checked; returns how many.
fn random_playouts(mut visit: impl FnMut(&Position, &str)) -> usize {
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    let starts: Vec<Position> = std::iter::once(Position::new())
        .chain(
            suite_positions()
                .into_iter()
                .filter(|(at, _)| at.starts_with("chess960"))
                .map(|(_, p)| p)
                .take(40),
        )
        .collect();
    let mut count = 0;
    for game in 0..200 {
        let mut pos = starts[game % starts.len()];
        for ply in 0..300 {
            visit(&pos, &format!("game {game} ply {ply}: {}", full_fen(&pos)));
            count += 1;
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
    }
    count
}

#[test]
fn random_playouts_round_trip() {
    let count = random_playouts(check_all);
    assert!(count > 20_000, "{count} positions");
}

#[test]
fn packed_decoder_survives_mutations() {
    let mut rng = Rng::new(0x1234_5678_9abc_def1);
    let mut decoded = 0;
    for (at, pos) in suite_positions() {
        for clocks in [false, true] {
            let bytes = packed::encode(&pos, clocks);
            let bytes = bytes.as_bytes();
            // Every single-bit flip, and every cut.
            for bit in 0..bytes.len() * 8 {
                let mut mutated = bytes.to_vec();
                mutated[bit / 8] ^= 1 << (bit % 8);
                decoded += check_decoder(&mutated, &at);
            }
            for len in 0..bytes.len() {
                decoded += check_decoder(&bytes[..len], &at);
            }
            // Random bytes spliced in.
            for _ in 0..8 {
                let mut mutated = bytes.to_vec();
                let i = rng.below(mutated.len());
                mutated[i] = rng.next() as u8;
                if rng.below(2) == 0 {
                    mutated.push(rng.next() as u8);
                }
                decoded += check_decoder(&mutated, &at);
            }
        }
    }
    // Random strings of every length up to the longest encoding.
    let mut illegal = 0;
    for _ in 0..100_000 {
        let len = rng.below(packed::MAX_LEN + 2);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        decoded += check_decoder(&bytes, "random");
        let error = packed::decode(&bytes).err().map(|e| e.kind);
        illegal += matches!(error, Some(packed::PackedErrorKind::Position(_))) as usize;
    }
    assert!(decoded > 1000, "some mutations decode: {decoded}");
    // Impossible boards, whose errors `check_decoder` compared with `Position::from_setup`'s.
    assert!(illegal > 500, "some random boards are impossible: {illegal}");
}

#[test]
fn compact_decoder_survives_mutations() {
    let mut rng = Rng::new(0x0fed_cba9_8765_4321);
    let mut decoded = 0;
    let mut positions: Vec<(String, Position)> = suite_positions();
    random_playouts(|pos, at| {
        if rng.below(50) == 0 {
            positions.push((at.to_string(), *pos));
        }
    });
    for (at, pos) in positions {
        for clocks in [false, true] {
            let bytes = compact::encode(&pos, clocks);
            let bytes = bytes.as_bytes();
            for bit in 0..bytes.len() * 8 {
                let mut mutated = bytes.to_vec();
                mutated[bit / 8] ^= 1 << (bit % 8);
                decoded += check_compact_decoder(&mutated, &at);
            }
            for len in 0..bytes.len() {
                decoded += check_compact_decoder(&bytes[..len], &at);
            }
            let mut longer = bytes.to_vec();
            longer.push(rng.next() as u8 | 1);
            decoded += check_compact_decoder(&longer, &at);
        }
    }
    // Every input of up to two bytes, and random ones up to the longest encoding.
    for v in 0..=0xffffu32 {
        decoded += check_compact_decoder(&[(v >> 8) as u8, v as u8], "two bytes");
    }
    for _ in 0..50_000 {
        let len = rng.below(compact::MAX_LEN + 2);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        decoded += check_compact_decoder(&bytes, "random");
    }
    assert!(decoded > 100, "some mutations decode: {decoded}");
}

/// Decodes `bytes` as compact; whatever decodes is the canonical encoding of its position (or
/// an escape, whose packed part re-encodes to a position that decodes the same).
fn check_compact_decoder(bytes: &[u8], at: &str) -> usize {
    match compact::decode(bytes) {
        Ok(pos) => {
            // With clocks 0 1 the input may or may not have had the clocks.
            let plain = compact::encode(&pos, false);
            let again = compact::encode(&pos, true);
            if bytes.first() != Some(&0xff) && !again.is_escape() {
                // A range code at least as long as the escape is read, though the encoder
                // writes the escape instead (the module docs say so).
                let longer_than_escape = plain.is_escape() && bytes.len() >= plain.len();
                assert!(
                    again.as_bytes() == bytes || plain.as_bytes() == bytes || longer_than_escape,
                    "{at}: {bytes:02x?} is not how {} encodes",
                    full_fen(&pos)
                );
            }
            assert_eq!(compact::decode(again.as_bytes()).map(|p| full_fen(&p)), Ok(full_fen(&pos)));
            1
        }
        Err(err) => {
            assert!(!err.to_string().is_empty());
            0
        }
    }
}

/// Decodes `bytes`; whatever decodes encodes back to bytes that decode to the same position.
/// Decoding straight to a position (the placement handed over as bitboards) gives exactly what
/// decoding to a `Setup` and validating it with `Position::from_setup` gives: the same
/// position, or the same error (the same `Status` for the same impossible board).
fn check_decoder(bytes: &[u8], at: &str) -> usize {
    let through_setup = packed::decode_setup(bytes).and_then(|setup| {
        Position::from_setup(&setup).map_err(|err| {
            packed::PackedError::new(
                chessbits_codec::bits::Bit(0),
                packed::PackedErrorKind::Position(err),
            )
        })
    });
    assert_eq!(packed::decode(bytes), through_setup, "{at}: {bytes:02x?}");
    // In place, over a position that is neither the start nor the answer: the same position,
    // or the same error with the position left as promised (as it was for bad bytes, the
    // start position for an impossible board).
    let before = chessbits_notation::fen::parse_position("8/8/8/4k3/8/8/3Q4/4K3 w - - 7 40")
        .expect("two kings and a queen");
    let mut into = before;
    let result = packed::decode_into(bytes, &mut into);
    match (&through_setup, result) {
        (Ok(pos), Ok(())) => assert_eq!(&into, pos, "{at}: {bytes:02x?}"),
        (Err(err), Err(got)) => {
            assert_eq!(&got, err, "{at}: {bytes:02x?}");
            let left = match err.kind {
                packed::PackedErrorKind::Position(_) => Position::new(),
                _ => before,
            };
            assert_eq!(into, left, "{at}: {bytes:02x?}");
        }
        (expected, got) => panic!("{at}: {bytes:02x?}: {expected:?} but {got:?}"),
    }
    match packed::decode(bytes) {
        Ok(pos) => {
            let again = packed::encode(&pos, true);
            assert_eq!(packed::decode(again.as_bytes()), Ok(pos), "{at}: {bytes:02x?}");
            1
        }
        Err(err) => {
            assert!(!err.to_string().is_empty());
            0
        }
    }
}
