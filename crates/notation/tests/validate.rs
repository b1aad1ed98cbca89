//! The validation catalogue (`chessbits_state::validate`) over `tests/data/status.txt`: each FEN
//! reports exactly the listed flags; `from_setup` refuses what it does not tolerate;
//! `from_setup_with` builds every position without an always-rejected flag, and move
//! generation, make/unmake and the key stay sound on what it builds. The perft suites hold no
//! problem but impossible checks, which `from_setup` tolerates for them.

use chessbits_bitboard::{Bitboard, Square};
use chessbits_movegen::{perft, MoveGen};
use chessbits_notation::epd::Epd;
use chessbits_notation::fen::Fen;
use chessbits_state::{Position, Setup, Status};

/// The flags named in `text`, `-` for none.
fn flags(text: &str) -> Status {
    text.split_whitespace()
        .filter(|&name| name != "-")
        .map(|name| Status::from_name(name).unwrap_or_else(|| panic!("unknown flag {name}")))
        .fold(Status::empty(), |a, b| a | b)
}

/// Every `(line number, FEN, expected status)` of the catalogue.
fn catalogue() -> Vec<(usize, Setup, Status)> {
    include_str!("data/status.txt")
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|(i, line)| {
            let mut fields = line.split('|');
            let (fen, expected) = (fields.next().unwrap_or(""), fields.next().unwrap_or(""));
            let mut setup = fen.trim().parse::<Fen>().unwrap_or_else(|e| panic!("{fen}: {e}")).0;
            for rook in fields.next().unwrap_or("").split_whitespace() {
                setup.castling_rooks.add(rook.parse::<Square>().unwrap());
            }
            (i + 1, setup, flags(expected))
        })
        .collect()
}

/// Plays every move to `depth` and takes it back, checking the key and the restored position.
fn walk(pos: &mut Position, depth: u32) {
    if depth == 0 {
        return;
    }
    for m in pos.legal_moves() {
        assert!(pos.is_legal(m));
        let before = *pos;
        let undo = pos.play_unchecked(m);
        assert_eq!(pos.key(), pos.compute_key());
        walk(pos, depth - 1);
        pos.undo(undo);
        assert_eq!(*pos, before);
    }
}

#[test]
fn the_catalogue_reports_every_problem() {
    let lines = catalogue();
    let mut seen = Status::empty();
    for (line, setup, expected) in lines {
        let status = setup.status();
        assert_eq!(status, expected, "line {line}: {status}");
        seen |= status;

        let strict = Position::from_setup_with(&setup, Status::empty());
        assert_eq!(strict.map_err(|e| e.status()).err(), Some(status).filter(|s| !s.is_empty()));

        let default = Position::from_setup(&setup);
        let rejected = status - Status::TOLERATED_BY_DEFAULT;
        assert_eq!(
            default.map_err(|e| e.rejected()).err(),
            Some(rejected).filter(|s| !s.is_empty())
        );

        // The escape hatch: everything that can be tolerated is.
        match Position::from_setup_with(&setup, Status::all()) {
            Ok(mut pos) => {
                assert!(!status.intersects(Status::ALWAYS_REJECTED), "line {line}");
                // What a tolerated problem leaves behind is itself valid.
                let left = pos.to_setup().status();
                assert!(
                    (left
                        - Status::PAWN_ON_BACK_RANK
                        - Status::TOO_MANY_CHECKERS
                        - Status::IMPOSSIBLE_CHECK)
                        .is_empty(),
                    "line {line}: {left}"
                );
                assert!(pos.legal_moves().len() <= 218);
                walk(&mut pos, 2);
                assert!(perft(&pos, 3) > 0 || pos.legal_moves().is_empty());
            }
            Err(e) => {
                assert_eq!(e.rejected(), status & Status::ALWAYS_REJECTED, "line {line}");
                assert!(!e.rejected().is_empty());
            }
        }
    }
    assert_eq!(seen, Status::all(), "flags without a line: {}", Status::all() - seen);
}

#[test]
fn messages_list_every_rejected_problem() {
    let mut setup = "8/8/8/8/8/8/8/8 w - e6 0 1".parse::<Fen>().unwrap().0;
    setup.castling_rooks.add(Square::H1);
    let err = Position::from_setup(&setup).unwrap_err();
    insta::assert_snapshot!(err, @"white has no king, black has no king, castling right without its king and rook in place, bad en passant square");
    let err = Position::from_setup_with(&setup, Status::BAD_EN_PASSANT | Status::NO_BLACK_KING)
        .unwrap_err();
    insta::assert_snapshot!(err, @"white has no king, black has no king, castling right without its king and rook in place");
    assert_eq!(err.status() - err.rejected(), Status::BAD_EN_PASSANT);
}

#[test]
fn tolerated_rights_and_en_passant_squares_are_dropped() {
    let mut setup = "r3k3/8/8/8/8/8/8/4K3 w q e6 0 1".parse::<Fen>().unwrap().0;
    setup.castling_rooks.add(Square::H1);
    let pos =
        Position::from_setup_with(&setup, Status::BAD_CASTLING_RIGHTS | Status::BAD_EN_PASSANT)
            .unwrap();
    assert_eq!(pos.castles().rook_squares(), Bitboard::from_square(Square::A8));
    assert_eq!(pos.ep_square(), None);
}

#[test]
fn suite_positions_have_no_problem_but_impossible_checks() {
    let mut impossible = 0;
    let mut total = 0;
    for (name, text) in chessbits_testkit::SUITES {
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let epd: Epd = line.parse().unwrap_or_else(|e| panic!("{name}: {e}"));
            let status = epd.fen().0.status();
            assert!((status - Status::IMPOSSIBLE_CHECK).is_empty(), "{name}: {line}: {status}");
            impossible += usize::from(!status.is_empty());
            total += 1;
        }
    }
    assert!(total > 100);
    insta::assert_snapshot!(format!("{impossible} of {total}"), @"1 of 834");
}
