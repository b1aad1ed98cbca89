//! Perft suites at quick depths: every position of every suite in `testdata/perft`, checked to
//! the deepest listed depth whose count is small enough for a debug-assertion test run. The full
//! depths run in release through `cargo xtask perft --suite` (see `.ci/run`).

use std::fs;

use chessbits::movegen::{divide, perft, perft_make_unmake};
use chessbits::notation::{epd::Epd, fen};

/// Node budget per position for this test (the test profile is optimised but keeps debug
/// assertions, which recompute the Zobrist key on every move).
const MAX_NODES: u64 = 250_000;

/// The suite's positions as (FEN, perft counts), read as EPD.
fn suite(name: &str) -> Vec<(String, Vec<(u32, u64)>)> {
    let path = chessbits_testkit::data("perft").join(name);
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, line)| {
            let epd: Epd = line.parse().unwrap_or_else(|e| panic!("{name}:{}: {e}", i + 1));
            (epd.fen().to_string(), epd.perft_counts().collect())
        })
        .collect()
}

fn check_suite(name: &str) {
    let positions = suite(name);
    assert!(!positions.is_empty(), "{name} is empty");
    let mut checked = 0;
    for (fen_text, depths) in &positions {
        let pos = fen::parse_position(fen_text).unwrap_or_else(|e| panic!("{fen_text}: {e}"));
        for &(depth, expected) in depths {
            if expected > MAX_NODES && depth > 1 {
                continue;
            }
            assert_eq!(perft(&pos, depth), expected, "{name}: {fen_text} depth {depth}");
            checked += 1;
        }
    }
    assert!(checked >= positions.len(), "{name}: only {checked} depth checks ran");
}

#[test]
fn standard() {
    check_suite("standard.epd");
}

#[test]
fn perftsuite() {
    check_suite("perftsuite.epd");
}

#[test]
fn random() {
    check_suite("random.epd");
}

#[test]
fn chess960() {
    check_suite("chess960.epd");
}

#[test]
fn tricky() {
    check_suite("tricky.epd");
}

#[test]
fn make_unmake_and_divide_agree_with_bulk_counting() {
    for (fen_text, depths) in suite("standard.epd").iter().chain(&suite("tricky.epd")[..20]) {
        let pos = fen::parse_position(fen_text).unwrap();
        let &(depth, expected) =
            depths.iter().rev().find(|&&(_, n)| n <= 100_000).unwrap_or(&depths[0]);
        assert_eq!(perft_make_unmake(&pos, depth), expected, "{fen_text} depth {depth}");
        let split = divide(&pos, depth);
        assert_eq!(split.iter().map(|&(_, n)| n).sum::<u64>(), expected);
    }
}

/// The set-wise generator (behind `legal_moves` and the bulk counter) and the per-piece one
/// (behind `visit_moves`) are written independently; they must produce the same moves
/// everywhere: on every suite position and on every position one and two plies below it.
#[test]
fn set_wise_and_per_piece_generators_agree() {
    use chessbits::bitboard::Bitboard;
    use chessbits::movegen::MoveGen;
    use chessbits::moves::Move16;
    use chessbits::state::Position;

    fn check(pos: &Position) {
        let mut set_wise: Vec<u16> = pos.legal_moves().iter().map(|m| m.bits()).collect();
        let mut per_piece = Vec::new();
        pos.visit_moves(Bitboard::FULL, Bitboard::FULL, |moves| {
            per_piece.extend(moves.into_iter().map(Move16::bits));
            false
        });
        set_wise.sort_unstable();
        per_piece.sort_unstable();
        assert_eq!(set_wise, per_piece, "{}", fen::fen_of(pos, Default::default()));
        assert_eq!(pos.count_legal_moves(), per_piece.len());
    }

    let mut checked = 0;
    for name in ["standard.epd", "perftsuite.epd", "random.epd", "chess960.epd", "tricky.epd"] {
        for (fen_text, _) in suite(name) {
            let root = fen::parse_position(&fen_text).unwrap();
            check(&root);
            for m in root.legal_moves() {
                let child = root.played_unchecked(m);
                check(&child);
                for g in child.legal_moves() {
                    check(&child.played_unchecked(g));
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 100_000, "{checked}");
}
