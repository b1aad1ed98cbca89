//! `generate_split` and `MoveStack` against the full list, over every position of every perft
//! suite and every position one ply below: the tactical and quiet lists are disjoint, together
//! they are exactly `legal_moves()`, and the tactical list is exactly `captures()` plus the
//! promotions among `quiets()`. A search over a `MoveStack` counts what perft counts.

use chessbits::movegen::{generate_split, perft, MoveGen, MoveStack, SplitMoves};
use chessbits::moves::{Move16, MoveList};
use chessbits::notation::fen;
use chessbits::state::Position;

use chessbits_testkit::SUITES;

fn sorted(moves: impl IntoIterator<Item = Move16>) -> Vec<Move16> {
    let mut v: Vec<Move16> = moves.into_iter().collect();
    v.sort_by_key(|m| m.bits());
    v
}

/// Checks the split at `pos` into lists that held moves before (they must be cleared); returns
/// the number of tactical moves.
fn check_split(pos: &Position, tactical: &mut MoveList, quiet: &mut MoveList, what: &str) -> usize {
    generate_split(pos, tactical, quiet);
    let both = sorted(tactical.iter().chain(quiet.iter()).copied());
    let mut deduped = both.clone();
    deduped.dedup();
    assert_eq!(deduped.len(), both.len(), "{what}: the lists share a move or repeat one");
    assert_eq!(both, sorted(pos.legal_moves()), "{what}: tactical + quiet != legal moves");
    let promotions = pos.quiets().into_iter().filter(|m| m.is_promotion());
    let expected = sorted(pos.captures().into_iter().chain(promotions));
    assert_eq!(sorted(tactical.iter().copied()), expected, "{what}: tactical");
    for m in quiet.iter() {
        assert!(!m.is_capture() && !m.is_promotion(), "{what}: quiet list holds {m}");
    }
    tactical.len()
}

#[test]
fn the_split_lists_partition_the_legal_moves_on_every_suite_position() {
    let (mut tactical, mut quiet) = (MoveList::new(), MoveList::new());
    let (mut positions, mut tactical_moves) = (0, 0);
    for (name, text) in SUITES {
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let fen_text = line.split(';').next().unwrap_or_default();
            let pos = fen::parse_position(fen_text).unwrap_or_else(|e| panic!("{name}: {e}"));
            let what = format!("{name}: {fen_text}");
            tactical_moves += check_split(&pos, &mut tactical, &mut quiet, &what);
            positions += 1;
            for m in pos.legal_moves() {
                let what = format!("{name}: {fen_text} after {m}");
                tactical_moves +=
                    check_split(&pos.played_unchecked(m), &mut tactical, &mut quiet, &what);
                positions += 1;
            }
        }
    }
    assert!(positions > 20_000, "only {positions} positions");
    assert!(tactical_moves > 0);
}

/// A perft written as an engine's search would be: per-ply lists from the stack, tactical
/// moves first, make/unmake.
fn stack_perft(pos: &mut Position, plies: &mut [SplitMoves]) -> u64 {
    let Some((here, below)) = plies.split_first_mut() else { return 1 };
    here.generate(pos);
    assert_eq!(here.len(), here.iter().count());
    let mut nodes = 0;
    for m in here.iter() {
        let undo = pos.play_unchecked(m);
        nodes += stack_perft(pos, below);
        pos.undo(undo);
    }
    nodes
}

#[test]
fn a_search_over_a_move_stack_counts_what_perft_counts() {
    let mut stack = MoveStack::new(3);
    assert_eq!(stack.len(), 3);
    for (name, text) in SUITES {
        for line in text.lines().filter(|l| !l.trim().is_empty()).take(8) {
            let fen_text = line.split(';').next().unwrap_or_default();
            let mut pos = fen::parse_position(fen_text).unwrap_or_else(|e| panic!("{name}: {e}"));
            let expected = perft(&pos, 3);
            assert_eq!(stack_perft(&mut pos, &mut stack), expected, "{name}: {fen_text}");
        }
    }
}
