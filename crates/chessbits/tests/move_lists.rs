//! The partial move lists of `MoveGen` against the full one, over every position of every perft
//! suite and every position one ply below: `captures()` and `quiets()` partition
//! `legal_moves()` exactly, and each list holds only moves of its kind; and every legal move's
//! `Move32` passes `Move32::try_from_bits`; `castling_moves()` and `en_passant_moves()` are
//! the legal moves of their kind; `is_irreversible` says what playing each move does.

use chessbits::bitboard::Role;
use chessbits::movegen::MoveGen;
use chessbits::moves::{Move16, Move32, MoveList};
use chessbits::notation::fen;
use chessbits::state::Position;

use chessbits_testkit::SUITES;

fn sorted(list: &MoveList) -> Vec<Move16> {
    let mut v = list.to_vec();
    v.sort_by_key(|m| m.bits());
    v
}

/// Checks the partition at `pos`; returns how many captures it saw.
fn check_partition(pos: &Position, what: &str) -> usize {
    let legal = pos.legal_moves();
    let captures = pos.captures();
    let quiets = pos.quiets();
    for m in &captures {
        assert!(m.is_capture(), "{what}: captures() lists {m} whose kind is not a capture");
    }
    for m in &quiets {
        assert!(!m.is_capture(), "{what}: quiets() lists the capture {m}");
    }
    let mut both: Vec<Move16> = captures.iter().chain(&quiets).copied().collect();
    both.sort_by_key(|m| m.bits());
    assert_eq!(both, sorted(&legal), "{what}: captures + quiets != legal moves");
    // is_irreversible agrees with what playing the move does: a capture, a pawn move, or rights
    // lost; and move32 names the piece the board has.
    for &m in &legal {
        let after = pos.played_unchecked(m);
        let moved = pos.board().piece_at(m.from());
        let expected = m.is_capture()
            || moved.map(|p| p.role) == Some(Role::Pawn)
            || after.castles().rights() != pos.castles().rights();
        assert_eq!(pos.is_irreversible(m), expected, "{what}: {m}");
        assert_eq!(pos.move32(m).and_then(|m| m.piece()), moved, "{what}: {m}");
    }
    // The special lists are the legal moves of their kind.
    let kind_of = |keep: fn(Move16) -> bool| -> Vec<Move16> {
        sorted(&legal).into_iter().filter(|&m| keep(m)).collect()
    };
    assert_eq!(sorted(&pos.castling_moves()), kind_of(Move16::is_castling), "{what}: castling");
    assert_eq!(
        sorted(&pos.en_passant_moves()),
        kind_of(Move16::is_en_passant),
        "{what}: en passant"
    );
    // Every legal capture is in captures() (the sort above catches duplicates and strays).
    let legal_captures = legal.iter().filter(|m| m.is_capture()).count();
    assert_eq!(captures.len(), legal_captures, "{what}");
    // Every legal move's Move32 passes the raw-bits validation and converts back losslessly.
    for &m in &legal {
        let m32 = pos.move32(m).unwrap_or_else(|| panic!("{what}: {m} has no piece"));
        assert_eq!(Move32::try_from_bits(m32.bits()), Ok(m32), "{what}: {m}");
        assert_eq!(m32.to_move16(), m, "{what}: {m}");
    }
    captures.len()
}

#[test]
fn captures_and_quiets_partition_the_legal_moves_on_every_suite_position() {
    let (mut positions, mut captures) = (0, 0);
    for (name, text) in SUITES {
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let fen_text = line.split(';').next().unwrap_or_default();
            let pos = fen::parse_position(fen_text).unwrap_or_else(|e| panic!("{name}: {e}"));
            captures += check_partition(&pos, &format!("{name}: {fen_text}"));
            positions += 1;
            for m in pos.legal_moves() {
                let child = pos.played_unchecked(m);
                captures += check_partition(&child, &format!("{name}: {fen_text} after {m}"));
                positions += 1;
            }
        }
    }
    assert!(positions > 20_000, "only {positions} positions");
    eprintln!("{positions} positions, {captures} captures");
    assert!(captures > 0);
}

#[test]
fn a_step_onto_the_en_passant_square_is_not_a_capture() {
    // The knight on d5 can step to c3, the en passant square; only b4c3 captures (the issue's
    // two examples, then the second one's position after 3.d4).
    let cases = [
        ("4k3/8/8/3n4/1pP5/8/8/4K3 b - c3 0 1", "b4c3", "d5c3"),
        ("r1bqkbnr/pppppppp/8/8/1n1PP3/5N2/PPP2PPP/RNBQKB1R b KQkq d3 0 3", "b4c2", "b4d3"),
    ];
    for (fen_text, capture, quiet) in cases {
        let pos = fen::parse_position(fen_text).expect("legal");
        let uci = |list: MoveList| list.iter().map(|m| m.to_string()).collect::<Vec<_>>();
        let (captures, quiets) = (uci(pos.captures()), uci(pos.quiets()));
        assert!(captures.contains(&capture.to_owned()), "{fen_text}: {captures:?}");
        assert!(!captures.contains(&quiet.to_owned()), "{fen_text}: {captures:?}");
        assert!(quiets.contains(&quiet.to_owned()), "{fen_text}: {quiets:?}");
        check_partition(&pos, fen_text);
    }
}

/// Every legal move's UCI text, printed through the position, is unique among the position's
/// moves and resolves back to the move.
fn check_uci_text(pos: &Position, what: &str) {
    let legal = pos.legal_moves();
    let mut texts: Vec<String> = legal.iter().map(|&m| pos.uci(m).to_string()).collect();
    for (&m, text) in legal.iter().zip(&texts) {
        let uci = text.parse().unwrap_or_else(|e| panic!("{what}: {text}: {e}"));
        assert_eq!(pos.resolve_uci(uci), Ok(m), "{what}: {text}");
    }
    texts.sort();
    texts.dedup();
    assert_eq!(texts.len(), legal.len(), "{what}: two moves print the same UCI text");
}

#[test]
fn uci_text_printed_through_the_position_is_unambiguous_on_every_suite_position() {
    let mut positions = 0;
    for (name, text) in SUITES {
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let fen_text = line.split(';').next().unwrap_or_default();
            let pos = fen::parse_position(fen_text).unwrap_or_else(|e| panic!("{name}: {e}"));
            check_uci_text(&pos, &format!("{name}: {fen_text}"));
            for m in pos.legal_moves() {
                check_uci_text(&pos.played_unchecked(m), &format!("{name}: {fen_text} after {m}"));
                positions += 1;
            }
        }
    }
    assert!(positions > 20_000, "only {positions} positions");
}

#[test]
fn the_castling_mode_is_fixed_when_the_position_is_built_and_kept() {
    use chessbits::moves::{CastlingMode, UciMove};

    // The new user's example: the king step b1c1 and queen-side castling used to print alike.
    let pos = fen::parse_position("rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1").expect("legal");
    assert_eq!(pos.castling_mode(), CastlingMode::Chess960);
    let mut texts: Vec<String> =
        pos.legal_moves().iter().map(|&m| pos.uci(m).to_string()).collect();
    texts.sort();
    assert!(texts.contains(&"b1a1".to_owned()) && texts.contains(&"b1c1".to_owned()));
    assert!(texts.contains(&"b1h1".to_owned()), "king-side castling is king takes rook");
    let uci = |s: &str| s.parse::<UciMove>().expect("uci");
    assert!(pos.resolve_uci(uci("b1a1")).is_ok_and(|m| m.is_castling()));
    assert!(pos.resolve_uci(uci("b1c1")).is_ok_and(|m| !m.is_castling()));
    let mut standard = pos;
    assert!(standard.set_castling_mode(CastlingMode::Standard).is_err(), "rights need Chess960");
    assert_eq!(standard, pos, "a refused mode leaves the position as it was");

    // A Chess960 game whose king and rooks stand on e1, a1 and h1: Shredder-FEN says Chess960,
    // and the mode survives moves, including the loss of every castling right.
    let mut frc = fen::parse_position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1")
        .expect("legal");
    assert_eq!(frc.castling_mode(), CastlingMode::Chess960);
    for text in ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5"] {
        let m = frc.resolve_uci(uci(text)).expect("legal");
        frc.play(m).expect("legal");
    }
    let castle = frc.resolve_uci(uci("e1h1")).expect("castling");
    assert_eq!(frc.uci(castle).to_string(), "e1h1");
    frc.play(castle).expect("legal");
    for text in ["g8f6", "d2d3"] {
        frc.play(frc.resolve_uci(uci(text)).expect("legal")).expect("legal");
    }
    let short = frc.resolve_uci(uci("e8h8")).expect("castling");
    frc.play(short).expect("legal");
    assert!(frc.castles().rook_squares().is_empty());
    assert_eq!(frc.castling_mode(), CastlingMode::Chess960);

    // The same placement in X-FEN is standard chess; the caller may say otherwise.
    let mut std_pos = Position::new();
    assert_eq!(std_pos.castling_mode(), CastlingMode::Standard);
    let castle = Move16::new(
        chessbits::bitboard::Square::E1,
        chessbits::bitboard::Square::H1,
        chessbits::moves::MoveKind::KingCastle,
    );
    assert_eq!(std_pos.uci(castle).to_string(), "e1g1");
    std_pos.set_castling_mode(CastlingMode::Chess960).expect("always allowed");
    assert_eq!(std_pos.uci(castle).to_string(), "e1h1");
}

/// `legal_move` on every (from, to, promotion) the side to move could name, against the
/// generator's list: it finds exactly the legal non-castling moves.
fn check_single_moves(pos: &Position, what: &str) -> usize {
    use chessbits::bitboard::{Role, Square};
    let legal = pos.legal_moves();
    let mut found = 0;
    for from in pos.us() {
        let pawn = pos.board().role_at(from) == Some(Role::Pawn);
        let promotions: &[Option<Role>] = if pawn {
            &[None, Some(Role::Knight), Some(Role::Bishop), Some(Role::Rook), Some(Role::Queen)]
        } else {
            &[None, Some(Role::Queen)]
        };
        for to in Square::ALL {
            for &promotion in promotions {
                if let Some(m) = pos.legal_move(from, to, promotion) {
                    assert!(legal.contains(&m), "{what}: legal_move gave {m}, not a legal move");
                    assert_eq!((m.from(), m.to(), m.promotion()), (from, to, promotion), "{what}");
                    found += 1;
                }
            }
        }
    }
    let plain = legal.iter().filter(|m| !m.is_castling()).count();
    assert_eq!(found, plain, "{what}: legal_move found {found} of {plain} legal moves");
    found
}

#[test]
fn legal_move_finds_exactly_the_legal_moves_on_every_suite_position() {
    let mut moves = 0;
    for (name, text) in SUITES {
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let fen_text = line.split(';').next().unwrap_or_default();
            let pos = fen::parse_position(fen_text).unwrap_or_else(|e| panic!("{name}: {e}"));
            moves += check_single_moves(&pos, &format!("{name}: {fen_text}"));
            for m in pos.legal_moves() {
                moves += check_single_moves(
                    &pos.played_unchecked(m),
                    &format!("{name}: {fen_text} {m}"),
                );
            }
        }
    }
    assert!(moves > 500_000, "only {moves} moves");
}
