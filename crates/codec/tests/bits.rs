//! The bit-level encodings over real and generated positions: snapshots of the special positions
//! in every format, round trips over every perft-suite position and its legal moves, a
//! deterministic property test over random playouts, and bad input that must give typed errors
//! with bit offsets, never a panic.

use std::fmt::Write as _;

use chessbits_bitboard::Square;
use chessbits_codec::bits::BitReader;
use chessbits_codec::classic::board::BoardFormat;
use chessbits_codec::classic::encoding::{Decoded, Encoding};
use chessbits_codec::classic::game::{self, GameFormat};
use chessbits_codec::classic::moves::MoveFormat;
use chessbits_codec::classic::position::{PositionFormat, StateFormat};
use chessbits_movegen::{Game, MoveGen};
use chessbits_notation::epd::Epd;
use chessbits_notation::fen::{fen_of, parse_position, Fen, FenOptions};
use chessbits_state::Position;
use chessbits_testkit::Rng;

/// The perft suites' EPD texts.
const SUITES: [&str; 5] = chessbits_testkit::SUITE_TEXTS;

/// Every position of the perft suites.
fn suite_positions() -> Vec<Position> {
    let positions: Vec<Position> = SUITES
        .iter()
        .flat_map(|text| text.lines().filter(|l| !l.trim().is_empty()))
        .map(|line| line.parse::<Epd>().unwrap().to_position().unwrap())
        .collect();
    assert_eq!(positions.len(), 834);
    positions
}

fn position_formats() -> impl Iterator<Item = PositionFormat> {
    BoardFormat::ALL.into_iter().flat_map(|b| StateFormat::ALL.map(|s| PositionFormat::new(b, s)))
}

/// The FEN that `state14` keeps: everything but the fullmove number.
fn fen_without_fullmoves(pos: &Position) -> String {
    let mut pos = *pos;
    pos.set_clocks(pos.halfmoves(), 1);
    fen_of(&pos, FenOptions::default())
}

/// Encodes `pos` in every board and position format and decodes it back: the same board; the
/// same position (FEN with its castling mode, key) for the lossless pairs; the same up to the
/// fullmove number for `state14`, or a refusal that `check` predicts.
fn check_position(pos: &Position, at: &str) {
    for format in BoardFormat::ALL {
        let bits = format.encode(pos.board());
        assert_eq!(bits.len(), format.len(pos.board()), "{at} {format}");
        assert_eq!(format.decode(bits.as_bytes()).as_ref(), Ok(pos.board()), "{at} {format}");
    }
    for format in position_formats() {
        match format.encode(pos) {
            Ok(bits) => {
                assert_eq!(Ok(bits.len()), format.len(pos), "{at} {format}");
                let back =
                    format.decode(bits.as_bytes()).unwrap_or_else(|e| panic!("{at} {format}: {e}"));
                assert_eq!(back.key(), pos.key(), "{at} {format}");
                if format.state.is_lossless() {
                    assert_eq!(
                        Fen::from_position(&back).to_string(),
                        Fen::from_position(pos).to_string(),
                        "{at} {format}"
                    );
                    assert_eq!(back.castling_mode(), pos.castling_mode(), "{at} {format}");
                } else {
                    assert_eq!(
                        fen_without_fullmoves(&back),
                        fen_without_fullmoves(pos),
                        "{at} {format}"
                    );
                }
            }
            Err(err) => {
                assert_eq!(format.state, StateFormat::State14, "{at} {format}: {err}");
                assert_eq!(StateFormat::State14.check(pos), Err(err), "{at}");
            }
        }
    }
}

/// Encodes every legal move of `pos` in every code and decodes it back.
fn check_moves(pos: &Position, at: &str) {
    for m in pos.legal_moves() {
        for code in MoveFormat::ALL {
            let bits = code.encode(pos, m).unwrap_or_else(|e| panic!("{at} {code}: {e}"));
            assert_eq!(code.decode(bits.as_bytes(), pos), Ok(m), "{at} {code} {}", pos.uci(m));
        }
    }
}

#[test]
fn every_perft_suite_position_round_trips() {
    for (i, pos) in suite_positions().iter().enumerate() {
        let at = format!("suite position {i} ({})", Fen::from_position(pos));
        check_position(pos, &at);
        check_moves(pos, &at);
    }
}

/// A random game of up to `plies` moves from `start`.
fn playout(rng: &mut Rng, start: Position, plies: usize) -> Game {
    let mut game = Game::new(start);
    for _ in 0..plies {
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        game.play(m).unwrap();
    }
    game
}

#[test]
fn random_playouts_round_trip() {
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    let starts = [
        Position::new(),
        parse_position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap(),
        parse_position("nrbbqkrn/pppppppp/8/8/8/8/PPPPPPP1/NRBBQKRR w GBgb - 0 1").unwrap(),
        parse_position("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")
            .unwrap(),
        parse_position("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1").unwrap(),
    ];
    let formats = MoveFormat::ALL.map(GameFormat::new);
    for round in 0..40 {
        let start = starts[round % starts.len()];
        let plies = 60 + rng.below(300);
        let game = playout(&mut rng, start, plies);
        let at = format!("playout {round}");
        for format in formats {
            let bits = format.encode(&game).unwrap();
            let back =
                format.decode(bits.as_bytes()).unwrap_or_else(|e| panic!("{at} {format}: {e}"));
            assert_eq!(back.moves(), game.moves(), "{at} {format}");
            assert_eq!(back.position(), game.position(), "{at} {format}");
            assert_eq!(back.history().len(), game.history().len(), "{at} {format}");
            assert_eq!(back.repetitions(), game.repetitions(), "{at} {format}");
            assert_eq!(back.outcome(), game.outcome(), "{at} {format}");
            // The moves alone, read back with the ply count and the start.
            let moves = game::encode_moves(&game, format.moves).unwrap();
            let plies = game.moves().len() as u32;
            let back =
                game::decode_moves(moves.as_bytes(), Some(moves.len()), start, plies, format.moves)
                    .unwrap();
            assert_eq!(back.moves(), game.moves(), "{at} {format}");
        }
        // Every position of the game, in every format.
        let mut pos = start;
        for (ply, &m) in game.moves().iter().enumerate() {
            if ply % 7 == 0 {
                check_position(&pos, &format!("{at} ply {ply}"));
            }
            pos.play_unchecked(m);
        }
    }
}

/// The special positions of the issue: start, Kiwipete, a late-game position whose clocks do
/// not fit 6 bits, nine queens, Chess960 rights (outermost and inner rooks), en passant.
const SPECIAL: [(&str, &str); 8] = [
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("late game", "8/5k2/8/3R4/8/2K5/8/6r1 w - - 112 143"),
    ("nine queens", "1QQQQQQ1/2QQQ3/8/8/8/8/8/k1K5 w - - 0 80"),
    ("chess960", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"),
    ("chess960 inner rook", "nrbbqkrn/pppppppp/8/8/8/8/PPPPPPP1/NRBBQKRR w GBgb - 0 1"),
    ("en passant", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"),
    ("no en passant capture", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"),
];

/// Every board, state and position encoding of `fen`, one line each: name, bits, hex (or the
/// refusal).
fn table(fen: &str) -> String {
    let fen: Fen = fen.parse().unwrap();
    let mut names: Vec<String> = BoardFormat::ALL.iter().map(|f| f.to_string()).collect();
    names.extend(StateFormat::ALL.map(|f| f.to_string()));
    names.extend(position_formats().map(|f| f.to_string()));
    let mut out = String::new();
    for name in names {
        let encoding: Encoding = name.parse().unwrap();
        match encoding.encode(&fen) {
            Ok(bits) => {
                // And it decodes.
                let decoded = encoding.decode(&mut BitReader::new(bits.as_bytes())).unwrap();
                if let Decoded::Position(pos) = decoded {
                    assert_eq!(pos.key(), fen.into_position().unwrap().key());
                }
                writeln!(out, "{name:<24}{:>4} {bits}", bits.len()).unwrap();
            }
            Err(err) => writeln!(out, "{name:<24}   - error: {err}").unwrap(),
        }
    }
    out
}

#[test]
fn special_positions_in_every_format() {
    for (name, fen) in SPECIAL {
        check_position(&parse_position(fen).unwrap(), name);
        insta::assert_snapshot!(name.replace(' ', "_"), table(fen), fen);
    }
}

/// The moves of the special positions' games: each code of a short game.
#[test]
fn special_games_in_every_move_code() {
    let lines = [
        ("startpos", "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7"),
        ("nrbbqkrn/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKRN w GBgb - 0 1", "g2g3 g7g6 f1g1 f8g8"),
        ("8/2P1k3/8/8/8/8/8/4K3 w - - 0 1", "c7c8n e7f6 c8d6"),
    ];
    let mut out = String::new();
    for (start, moves) in lines {
        writeln!(out, "{start}; {moves}").unwrap();
        let start =
            if start == "startpos" { Position::new() } else { parse_position(start).unwrap() };
        let mut g = Game::new(start);
        for m in moves.split_whitespace() {
            g.play_uci(m.parse().unwrap()).unwrap();
        }
        for code in MoveFormat::ALL {
            let bits = game::encode_moves(&g, code).unwrap();
            writeln!(out, "{code:<14}{:>4} {bits}", bits.len()).unwrap();
            let format = GameFormat::new(code);
            let whole = format.encode(&g).unwrap();
            assert_eq!(format.decode(whole.as_bytes()).unwrap().moves(), g.moves());
        }
    }
    insta::assert_snapshot!("special_games", out);
}

/// Cuts `bytes` to every shorter bit length and flips every bit. A cut stream gives an error
/// at an offset inside it (every encoding is self-delimiting, so no prefix of one is whole); a
/// flipped one decodes or not, and nothing panics.
fn mutate(bytes: &[u8], len: usize, decode: impl Fn(BitReader<'_>) -> Result<(), usize>) {
    for cut in 0..len {
        let offset =
            decode(BitReader::with_len(bytes, cut)).expect_err("a cut stream must not decode");
        assert!(offset <= cut, "offset {offset} beyond the cut at {cut}");
    }
    let mut copy = bytes.to_vec();
    for bit in 0..len {
        copy[bit / 8] ^= 0x80 >> (bit % 8);
        let _ = decode(BitReader::with_len(&copy, len));
        copy[bit / 8] ^= 0x80 >> (bit % 8);
    }
}

#[test]
fn bad_input_gives_typed_errors_and_never_panics() {
    let fens: Vec<&str> = SPECIAL.iter().map(|&(_, fen)| fen).collect();
    for fen in fens {
        let pos = parse_position(fen).unwrap();
        for format in BoardFormat::ALL {
            let bits = format.encode(pos.board());
            mutate(bits.as_bytes(), bits.len(), |mut r| {
                let result =
                    format.read(&mut r).map(|_| ()).and_then(|()| r.finish().map_err(Into::into));
                result.map_err(|e| e.at.0)
            });
        }
        for format in position_formats() {
            let Ok(bits) = format.encode(&pos) else { continue };
            mutate(bits.as_bytes(), bits.len(), |mut r| {
                let result =
                    format.read(&mut r).map(|_| ()).and_then(|()| r.finish().map_err(Into::into));
                result.map_err(|e| e.at.0)
            });
        }
        let game =
            playout(&mut Rng::new((fen.len() as u64).wrapping_mul(0x2545_f491_4f6c_dd1d)), pos, 40);
        for code in MoveFormat::ALL {
            let format = GameFormat::new(code);
            let bits = format.encode(&game).unwrap();
            mutate(bits.as_bytes(), bits.len(), |mut r| {
                let result =
                    format.read(&mut r).map(|_| ()).and_then(|()| r.finish().map_err(Into::into));
                result.map_err(|e| e.at.0)
            });
        }
    }
}

#[test]
fn garbage_never_panics() {
    let mut rng = Rng::new(0x1234_5678_9abc_def1);
    let mut bytes = [0u8; 48];
    let encodings: Vec<Encoding> = {
        let mut v: Vec<Encoding> = BoardFormat::ALL.map(Encoding::Board).to_vec();
        v.extend(StateFormat::ALL.map(Encoding::State));
        v.extend(position_formats().map(Encoding::Position));
        v
    };
    let (mut decoded, mut failed) = (0, 0);
    for _ in 0..3000 {
        for b in bytes.iter_mut() {
            *b = rng.next() as u8;
        }
        let len = rng.below(bytes.len() + 1);
        for encoding in &encodings {
            match encoding.decode(&mut BitReader::new(&bytes[..len])) {
                Ok(_) => decoded += 1,
                Err(e) => {
                    assert!(e.at.0 <= len * 8, "{encoding}: {e}");
                    failed += 1;
                }
            }
        }
        for code in MoveFormat::ALL {
            let _ = GameFormat::new(code).decode(&bytes[..len]);
            let _ = code.decode(&bytes[..len.min(2)], &Position::new());
        }
    }
    // Garbage mostly fails, and the test sees both outcomes.
    assert!(failed > decoded && decoded > 0, "{failed} failed, {decoded} decoded");
}

#[test]
fn an_illegal_move_code_is_a_typed_error() {
    // san-like: target e5 with tag 0 in the start position.
    let err = MoveFormat::SanLike.decode(&[0b1001_0000], &Position::new()).unwrap_err();
    insta::assert_snapshot!(err, @"bit 0: no legal move to e5");
    // 12: a1a1.
    let err = MoveFormat::FromTo.decode(&[0, 0], &Position::new()).unwrap_err();
    insta::assert_snapshot!(err, @"bit 0: no legal move a1a1");
    // A game whose third move is illegal: e2e4 e7e5 e4e5.
    let mut w = chessbits_codec::bits::BitWriter::new();
    w.write_bit(false);
    w.write_varint(3);
    for (from, to) in [(Square::E2, Square::E4), (Square::E7, Square::E5), (Square::E4, Square::E5)]
    {
        w.write(from as u64, 6);
        w.write(to as u64, 6);
    }
    let err = GameFormat::new(MoveFormat::FromTo).decode(w.finish().as_bytes()).unwrap_err();
    insta::assert_snapshot!(err, @"bit 33: ply 3: no legal move e4e5");
}
