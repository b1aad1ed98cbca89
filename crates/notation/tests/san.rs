//! SAN against positions: what is written for every legal move of tricky positions, the round
//! trip write -> parse -> resolve over the perft suites and one ply below, lenient forms, the
//! resolution errors, and no panics on any input.

use std::collections::HashSet;
use std::time::Instant;

use chessbits_bitboard::{File, Role, Square};
use chessbits_move::Move16;
use chessbits_movegen::MoveGen;
use chessbits_notation::fen::parse_position;
use chessbits_notation::san::{Candidates, San, SanError, SanPlus, Suffix};
use chessbits_state::{CastlingSide, Position};

use chessbits_testkit::SUITES;

/// Every suite position: the text before the first `;` of each line.
fn suite_positions() -> Vec<(String, Position)> {
    let mut positions = Vec::new();
    for (name, text) in SUITES {
        for (i, line) in text.lines().enumerate() {
            let fen = line.split(';').next().unwrap_or("").trim();
            if !fen.is_empty() {
                let at = format!("{name}:{}: {fen}", i + 1);
                let pos = parse_position(fen).unwrap_or_else(|e| panic!("{at}: {e}"));
                positions.push((at, pos));
            }
        }
    }
    positions
}

fn position(fen: &str) -> Position {
    parse_position(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn uci(pos: &Position, m: Move16) -> String {
    m.to_uci(pos.castling_mode()).to_string()
}

/// What a slow, obviously right resolver says: the legal moves whose piece, origin, destination
/// and promotion agree with the SAN (castling only for `O-O`/`O-O-O`).
fn reference(pos: &Position, san: San) -> Result<Move16, Vec<Move16>> {
    if san == San::Null {
        return Ok(Move16::NULL);
    }
    let matches: Vec<Move16> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| match san {
            San::Normal { role, file, rank, capture: _, to, promotion } => {
                !m.is_castling()
                    && pos.board().role_at(m.from()) == Some(role)
                    && file.is_none_or(|f| m.from().file() == f)
                    // A pawn move without a file is a push.
                    && (role != Role::Pawn || file.is_some() || m.from().file() == to.file())
                    && rank.is_none_or(|r| m.from().rank() == r)
                    && m.to() == to
                    && m.promotion() == promotion
            }
            San::Castle(side) => {
                m.is_castling() && CastlingSide::from_king_rook(m.from(), m.to()) == side
            }
            San::Null => false,
        })
        .collect();
    match matches.as_slice() {
        [m] => Ok(*m),
        _ => Err(matches),
    }
}

/// Resolves `san` in `pos` and checks the answer against [`reference`].
fn check_resolution(pos: &Position, san: San, at: &str) -> Result<Move16, SanError> {
    let got = san.to_move(pos);
    match (&got, reference(pos, san)) {
        (Ok(m), Ok(expected)) => assert_eq!(*m, expected, "{at}: {san}"),
        (Err(SanError::Illegal { san: s }), Err(none)) if none.is_empty() => {
            assert_eq!(*s, san, "{at}")
        }
        (Err(SanError::Ambiguous { san: s, candidates }), Err(all)) if all.len() > 1 => {
            assert_eq!(*s, san, "{at}");
            let mut candidates = candidates.to_vec();
            candidates.sort();
            let mut all = all;
            all.sort();
            assert_eq!(candidates, all, "{at}: {san}");
        }
        (got, expected) => panic!("{at}: {san}: got {got:?}, expected {expected:?}"),
    }
    got
}

/// Every legal move of `fen` as `uci san`, sorted by SAN, six to a line.
fn sans(fen: &str) -> String {
    let pos = position(fen);
    let mut moves: Vec<(String, String)> = pos
        .legal_moves()
        .into_iter()
        .map(|m| (SanPlus::from_move(&pos, m).to_string(), uci(&pos, m)))
        .collect();
    moves.sort();
    let pairs: Vec<String> = moves.iter().map(|(san, uci)| format!("{uci} {san}")).collect();
    pairs.chunks(6).map(|line| line.join(", ")).collect::<Vec<_>>().join("\n")
}

#[test]
fn promotions() {
    // Quiet and capturing promotions, some with check.
    insta::assert_snapshot!(sans("r1r1k3/1P6/8/8/8/8/8/4K3 w - - 0 1"), @"
e1d1 Kd1, e1d2 Kd2, e1e2 Ke2, e1f1 Kf1, e1f2 Kf2, b7b8b b8=B
b7b8n b8=N, b7b8q b8=Q, b7b8r b8=R, b7a8b bxa8=B, b7a8n bxa8=N, b7a8q bxa8=Q
b7a8r bxa8=R, b7c8b bxc8=B, b7c8n bxc8=N, b7c8q bxc8=Q+, b7c8r bxc8=R+
");
    // Black promotes, and the capture of the knight checks along the first rank.
    insta::assert_snapshot!(sans("4k3/8/8/8/8/8/p7/1N2K3 b - - 0 1"), @"
e8d7 Kd7, e8d8 Kd8, e8e7 Ke7, e8f7 Kf7, e8f8 Kf8, a2a1b a1=B
a2a1n a1=N, a2a1q a1=Q, a2a1r a1=R, a2b1b axb1=B, a2b1n axb1=N, a2b1q axb1=Q+
a2b1r axb1=R+
");
}

#[test]
fn disambiguation() {
    // Three queens: Qa1b2 needs file and rank (a3 shares the file, c1 the rank).
    insta::assert_snapshot!(sans("6k1/8/8/8/8/Q7/8/Q1Q4K w - - 0 1"), @"
h1g1 Kg1, h1g2 Kg2, h1h2 Kh2, a1a2 Q1a2+, a3a2 Q3a2+, a3b2 Q3b2
a3c3 Q3c3, a1b2 Qa1b2, a1c3 Qa1c3, a3a4 Qa4, a3a5 Qa5, a3a6 Qa6
a3a7 Qa7, a3a8 Qa8+, a1b1 Qab1, a3c5 Qac5, a3e3 Qae3, a3b3 Qb3+
a3b4 Qb4, c1c2 Qc2, c1c4 Qc4+, c1c6 Qc6, c1c7 Qc7, c1c8 Qc8+
c1b1 Qcb1, c1b2 Qcb2, c1c3 Qcc3, c1c5 Qcc5, c1e3 Qce3, c1d1 Qd1
c1d2 Qd2, a3d3 Qd3, a1d4 Qd4, a3d6 Qd6, c1e1 Qe1, a1e5 Qe5
a3e7 Qe7, c1f1 Qf1, a3f3 Qf3, c1f4 Qf4, a1f6 Qf6, a3f8 Qf8+
c1g1 Qg1+, a3g3 Qg3+, c1g5 Qg5+, a1g7 Qg7+, a3h3 Qh3, c1h6 Qh6
a1h8 Qh8+
");
    // Rooks on one file: by rank.
    insta::assert_snapshot!(sans("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1"), @"
e1d1 Kd1, e1d2 Kd2, e1e2 Ke2, e1f1 Kf1, e1f2 Kf2, a1a2 R1a2
a1a3 R1a3, a1a4 R1a4, a5a2 R5a2, a5a3 R5a3, a5a4 R5a4, a5a6 Ra6
a5a7 Ra7, a5a8 Ra8+, a1b1 Rb1, a5b5 Rb5, a1c1 Rc1, a5c5 Rc5
a1d1 Rd1, a5d5 Rd5, a5e5 Re5+, a5f5 Rf5, a5g5 Rg5, a5h5 Rh5
");
    // The knight on f3 is pinned, so Nd2 and Nd4 need no disambiguation.
    insta::assert_snapshot!(sans("4k3/8/8/3b4/8/1N3N2/8/7K w - - 0 1"), @"
h1g1 Kg1, h1g2 Kg2, h1h2 Kh2, b3a1 Na1, b3a5 Na5, b3c1 Nc1
b3c5 Nc5, b3d2 Nd2, b3d4 Nd4
");
}

#[test]
fn castling() {
    insta::assert_snapshot!(sans("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"), @"
e1d1 Kd1, e1d2 Kd2, e1e2 Ke2, e1f1 Kf1, e1f2 Kf2, e1g1 O-O
e1c1 O-O-O, a1a2 Ra2, a1a3 Ra3, a1a4 Ra4, a1a5 Ra5, a1a6 Ra6
a1a7 Ra7, a1b1 Rb1, a1c1 Rc1, a1d1 Rd1, h1f1 Rf1, h1g1 Rg1
h1h2 Rh2, h1h3 Rh3, h1h4 Rh4, h1h5 Rh5, h1h6 Rh6, h1h7 Rh7
a1a8 Rxa8+, h1h8 Rxh8+
");
    // Chess960: the king on b1 castles with the rook on a1 next to it, and on h1.
    insta::assert_snapshot!(sans("rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1"), @"
b1b2 Kb2, b1c1 Kc1, b1c2 Kc2, b1h1 O-O, b1a1 O-O-O, a1a2 Ra2
a1a3 Ra3, a1a4 Ra4, a1a5 Ra5, a1a6 Ra6, a1a7 Ra7, h1c1 Rc1
h1d1 Rd1, h1e1 Re1, h1f1 Rf1, h1g1 Rg1, h1h2 Rh2, h1h3 Rh3
h1h4 Rh4, h1h5 Rh5, h1h6 Rh6, h1h7 Rh7, a1a8 Rxa8+, h1h8 Rxh8+
");
    // The king castles king side onto its rook's own square g1.
    insta::assert_snapshot!(sans("1r3kr1/8/8/8/8/8/8/1R3KR1 w KQkq - 0 1"), @"
f1e1 Ke1, f1e2 Ke2, f1f2 Kf2, f1b1 O-O-O, b1a1 Ra1, b1b2 Rb2
b1b3 Rb3, b1b4 Rb4, b1b5 Rb5, b1b6 Rb6, b1b7 Rb7, b1c1 Rc1
b1d1 Rd1, b1e1 Re1, g1g2 Rg2, g1g3 Rg3, g1g4 Rg4, g1g5 Rg5
g1g6 Rg6, g1g7 Rg7, g1h1 Rh1, b1b8 Rxb8+, g1g8 Rxg8+
");
}

#[test]
fn en_passant() {
    insta::assert_snapshot!(sans("4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 2"), @"
e1d1 Kd1, e1d2 Kd2, e1e2 Ke2, e1f1 Kf1, e1f2 Kf2, c5c6 c6
c5d6 cxd6, e5e6 e6, e5d6 exd6
");
    // dxc6 would leave the king on a5 to the rook on h5: not legal, not written.
    insta::assert_snapshot!(sans("8/8/8/K1pP3r/8/8/8/4k3 w - c6 0 2"), @"a5a4 Ka4, a5a6 Ka6, a5b5 Kb5, a5b6 Kb6, d5d6 d6");
}

#[test]
fn checks_and_mates() {
    insta::assert_snapshot!(sans("k7/2P5/1K6/8/8/8/8/8 w - - 0 1"), @"
b6a5 Ka5, b6a6 Ka6, b6b5 Kb5, b6c5 Kc5, b6c6 Kc6, c7c8b c8=B
c7c8n c8=N, c7c8q c8=Q#, c7c8r c8=R#
");
    insta::assert_snapshot!(sans("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"), @"
g1f1 Kf1, g1f2 Kf2, g1g2 Kg2, g1h1 Kh1, g1h2 Kh2, a1a2 Ra2
a1a3 Ra3, a1a4 Ra4, a1a5 Ra5, a1a6 Ra6, a1a7 Ra7, a1a8 Ra8#
a1b1 Rb1, a1c1 Rc1, a1d1 Rd1, a1e1 Re1, a1f1 Rf1
");
}

#[test]
fn resolution_errors() {
    let message = |fen: &str, san: &str| {
        let pos = position(fen);
        let san = san.parse::<San>().unwrap_or_else(|e| panic!("{san}: {e}"));
        let err = check_resolution(&pos, san, fen).unwrap_err();
        err.to_string()
    };
    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    insta::assert_snapshot!(message(START, "Qh5"), @"illegal move Qh5");
    insta::assert_snapshot!(message(START, "O-O"), @"illegal move O-O");
    insta::assert_snapshot!(message(START, "e5"), @"illegal move e5");
    insta::assert_snapshot!(message(START, "Nbf3"), @"illegal move Nbf3");
    // A pawn reaching the last rank must say what it becomes, and only then.
    insta::assert_snapshot!(message("4k3/1P6/8/8/8/8/P7/4K3 w - - 0 1", "b8"), @"illegal move b8");
    insta::assert_snapshot!(message("4k3/1P6/8/8/8/8/P7/4K3 w - - 0 1", "a3=Q"), @"illegal move a3=Q");
    insta::assert_snapshot!(message("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "Kb8=Q"), @"illegal move Kb8=Q");
    insta::assert_snapshot!(message("4k3/8/8/8/8/8/8/1N3N1K w - - 0 1", "Nd2"), @"ambiguous move Nd2: Nb1d2 or Nf1d2");
    insta::assert_snapshot!(message("6k1/8/8/8/8/Q7/8/Q1Q4K w - - 0 1", "Qb2"), @"ambiguous move Qb2: Qa1b2, Qc1b2 or Qa3b2");
    insta::assert_snapshot!(message("6k1/8/8/8/8/Q7/8/Q1Q4K w - - 0 1", "Qab2"), @"ambiguous move Qab2: Qa1b2 or Qa3b2");
    // A pawn capture names its file: without one, a pawn move is a push.
    insta::assert_snapshot!(message("4k3/8/8/3p4/2P1P3/8/8/4K3 w - - 0 1", "xd5"), @"illegal move xd5");
    insta::assert_snapshot!(message("4k3/8/8/3p4/2P1P3/8/8/4K3 w - - 0 1", "d5"), @"illegal move d5");
    insta::assert_snapshot!(message("2n4k/1P1P4/8/8/8/8/8/4K3 w - - 0 1", "c8=Q"), @"illegal move c8=Q");
    insta::assert_snapshot!(message("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "Pd5"), @"illegal move d5");
}

/// The lenient forms the module docs promise, each resolving to the right move.
#[test]
fn lenient_forms_resolve() {
    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    const CASTLES: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    const PROMOTE: &str = "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1";
    const EP: &str = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2";
    const SCHOLAR: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
    const CAPTURE: &str = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1";
    const C960: &str = "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1";
    let cases = [
        (CASTLES, "O-O", "e1g1"),
        (CASTLES, "0-0", "e1g1"),
        (CASTLES, "0-0-0", "e1c1"),
        (CASTLES, "O-O-O+", "e1c1"),
        (C960, "O-O", "b1h1"),
        (C960, "0-0-0", "b1a1"),
        (PROMOTE, "e8=Q+", "e7e8q"),
        (PROMOTE, "e8Q", "e7e8q"),
        (PROMOTE, "e8(Q)", "e7e8q"),
        (PROMOTE, "e8/Q", "e7e8q"),
        (PROMOTE, "e8q", "e7e8q"),
        (PROMOTE, "e8=N", "e7e8n"),
        (PROMOTE, "exd8=R", "e7d8r"),
        (PROMOTE, "ed8R", "e7d8r"),
        (PROMOTE, "e7xd8=B", "e7d8b"),
        (PROMOTE, "e7-e8=Q", "e7e8q"),
        (EP, "exd6", "e5d6"),
        (EP, "exd6 e.p.", "e5d6"),
        (EP, "exd6e.p.", "e5d6"),
        (EP, "exd6 ep", "e5d6"),
        (EP, "exd6ep", "e5d6"),
        (EP, "ed6", "e5d6"),
        (EP, "Pexd6", "e5d6"),
        (START, "e4", "e2e4"),
        (START, "e2-e4", "e2e4"),
        (START, "e2e4", "e2e4"),
        (START, "Pe4", "e2e4"),
        (START, "Pe2e4", "e2e4"),
        (START, "Ng1-f3", "g1f3"),
        (START, "Ng1f3", "g1f3"),
        (START, "Ngf3", "g1f3"),
        (START, "N1f3", "g1f3"),
        (START, "N-f3", "g1f3"),
        (START, "Nb1xc3", "b1c3"),
        (START, "Nxc3", "b1c3"),
        (START, "Nf3!", "g1f3"),
        (START, "Nf3?", "g1f3"),
        (START, "Nf3!?", "g1f3"),
        (START, "Nf3?!", "g1f3"),
        (START, "Nf3!!", "g1f3"),
        (START, "Nf3??", "g1f3"),
        (START, "Nf3+", "g1f3"),
        (START, "Nf3#!", "g1f3"),
        (START, "--", "0000"),
        (START, "Z0", "0000"),
        (START, "0000", "0000"),
        (START, "@@@@", "0000"),
        (SCHOLAR, "Qxf7#", "h5f7"),
        (SCHOLAR, "Qxf7", "h5f7"),
        (SCHOLAR, "Qf7", "h5f7"),
        (SCHOLAR, "Qf7+", "h5f7"),
        (SCHOLAR, "Qh5xf7#", "h5f7"),
        (CAPTURE, "exd5", "e4d5"),
        (CAPTURE, "ed5", "e4d5"),
        (CAPTURE, "e4xd5", "e4d5"),
        (CAPTURE, "e4d5", "e4d5"),
        (CAPTURE, "e5", "e4e5"),
        (CAPTURE, "exe5", "e4e5"),
    ];
    for (fen, text, expected) in cases {
        let pos = position(fen);
        let san = text.parse::<San>().unwrap_or_else(|e| panic!("{fen}: {text}: {e}"));
        let m = check_resolution(&pos, san, fen).unwrap_or_else(|e| panic!("{fen}: {text}: {e}"));
        assert_eq!(uci(&pos, m), expected, "{fen}: {text}");
        // SanPlus reads the same move.
        let plus = text.parse::<SanPlus>().map(|p| p.san);
        assert_eq!(plus, Ok(san), "{fen}: {text}");
    }
}

/// Every legal move of `pos`, written, parsed and resolved: the same move comes back, and no two
/// moves are written alike. Returns how many moves were checked.
fn round_trip(pos: &Position, at: &str) -> usize {
    let moves = pos.legal_moves();
    let mut written = HashSet::new();
    for &m in &moves {
        let plus = SanPlus::from_move(pos, m);
        let text = plus.to_string();
        assert_eq!(text.parse::<SanPlus>(), Ok(plus), "{at}: {}", uci(pos, m));
        assert_eq!(plus.san.to_move(pos), Ok(m), "{at}: {text}");
        assert!(written.insert(text.clone()), "{at}: {text} written twice");
        check_minimal(pos, plus.san, at);

        // The suffix says what the position after the move is.
        let mut after = *pos;
        assert_eq!(SanPlus::from_move_and_play(&mut after, m), plus, "{at}: {text}");
        assert_eq!(after, pos.played_unchecked(m), "{at}: {text}");
        let expected = match (after.is_check(), after.has_legal_moves()) {
            (false, _) => None,
            (true, true) => Some(Suffix::Check),
            (true, false) => Some(Suffix::Checkmate),
        };
        assert_eq!(plus.suffix, expected, "{at}: {text}");
    }
    moves.len()
}

/// The origin `san` names is the one the PGN standard asks for: the file if that tells the move
/// apart, else the rank, else both, and nothing if nothing is needed.
fn check_minimal(pos: &Position, san: San, at: &str) {
    let San::Normal { role, file, rank, .. } = san else { return };
    if role == Role::Pawn {
        return;
    }
    let with = |file, rank| match san {
        San::Normal { role, capture, to, promotion, .. } => {
            San::Normal { role, file, rank, capture, to, promotion }
        }
        other => other,
    };
    let ambiguous = |san: San| matches!(san.to_move(pos), Err(SanError::Ambiguous { .. }));
    let m = san.to_move(pos).unwrap_or_else(|e| panic!("{at}: {e}"));
    let (own_file, own_rank) = (Some(m.from().file()), Some(m.from().rank()));
    let less = match (file, rank) {
        (None, None) => vec![],
        (Some(_), None) => vec![with(None, None)],
        // The rank alone is chosen only when the origin's file would not do.
        (None, Some(_)) => vec![with(None, None), with(own_file, None)],
        (Some(_), Some(_)) => vec![with(own_file, None), with(None, own_rank)],
    };
    for shorter in less {
        assert!(ambiguous(shorter), "{at}: {san} written, but {shorter} would do");
    }
}

#[test]
fn suites_round_trip() {
    let started = Instant::now();
    let (mut positions, mut moves) = (0, 0);
    for (at, pos) in suite_positions() {
        moves += round_trip(&pos, &at);
        positions += 1;
        for m in pos.legal_moves() {
            let child = pos.played_unchecked(m);
            moves += round_trip(&child, &format!("{at} {}", uci(&pos, m)));
            positions += 1;
        }
    }
    assert!(positions > 20_000 && moves > 500_000, "{positions} positions, {moves} moves");
    eprintln!("san round trip: {positions} positions, {moves} moves in {:?}", started.elapsed());
}

/// A few positions to resolve arbitrary text against: the start, one with castling and en
/// passant, one with promotions and crowded pieces, a Chess960 one.
fn fuzz_positions() -> [Position; 4] {
    [
        Position::new(),
        position("r3k2r/8/8/2PpP3/8/8/8/R3K2R w KQkq d6 0 2"),
        position("1n1nk3/2P1P3/8/8/3Q4/Q7/8/Q1Q4K w - - 0 1"),
        position("rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1"),
    ]
}

/// Parses `bytes`; if it is SAN, checks that it prints and parses back to itself and that its
/// resolution agrees with the reference in every fuzz position.
fn check_any_input(bytes: &[u8], positions: &[Position]) -> bool {
    let at = format!("{:?}", bytes.escape_ascii().to_string());
    let Ok(plus) = SanPlus::from_ascii(bytes) else { return false };
    assert_eq!(plus.to_string().parse::<SanPlus>(), Ok(plus), "{at}");
    for pos in positions {
        check_resolution(pos, plus.san, &at).ok();
    }
    true
}

#[test]
fn short_inputs_never_panic() {
    let alphabet: &[u8] = b"abcdeh1258NBRQKPxX-=/()+#!? .pOo0Z@\xff";
    let positions = fuzz_positions();
    let mut inputs = vec![Vec::new()];
    let mut parsed = 0;
    for _ in 0..3 {
        let longer: Vec<Vec<u8>> = inputs
            .iter()
            .flat_map(|s| alphabet.iter().map(move |&b| [s.as_slice(), &[b]].concat()))
            .collect();
        inputs = longer;
        for input in &inputs {
            parsed += usize::from(check_any_input(input, &positions));
        }
    }
    // Some of them are SAN (`e4`, `Nd8`, `O-O`...), most are not.
    assert!(parsed > 500, "{parsed} inputs parsed");
}

/// Deterministic mutations of good SAN (bytes replaced, inserted, deleted, swapped) are parsed
/// and resolved without panicking, and agree with the reference when they parse.
#[test]
fn mutations_never_panic() {
    let positions = fuzz_positions();
    let mut seeds: Vec<Vec<u8>> = Vec::new();
    for pos in &positions {
        for m in pos.legal_moves() {
            seeds.push(SanPlus::from_move(pos, m).to_string().into_bytes());
        }
    }
    for text in ["exd6 e.p.", "e8(Q)+!?", "Nb1xc3", "0-0-0#", "@@@@", "Qh4xe1=Q+", "e7-e8/N"] {
        seeds.push(text.as_bytes().to_vec());
    }
    let alphabet: &[u8] = b"abcdefgh12345678NBRQKPnbrqkpxX-=/()+#!? .eO0Z@\xc3\xff";
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut parsed = 0;
    for round in 0..40 {
        for seed in &seeds {
            let mut s = seed.clone();
            for _ in 0..1 + round % 3 {
                let i = next(s.len() + 1);
                let b = alphabet[next(alphabet.len())];
                match next(4) {
                    0 if i < s.len() => s[i] = b,
                    1 => s.insert(i, b),
                    2 if i < s.len() => {
                        s.remove(i);
                    }
                    _ if i + 1 < s.len() => s.swap(i, i + 1),
                    _ => s.push(b),
                }
            }
            parsed += usize::from(check_any_input(&s, &positions));
        }
    }
    assert!(parsed > 500, "{parsed} mutations parsed");
}

/// Promotions to a king or a pawn never resolve, though the type can hold them.
#[test]
fn promotions_to_king_or_pawn_are_illegal() {
    let pos = position("4k3/8/8/8/8/8/p7/1N2K3 b - - 0 1");
    for role in [Role::King, Role::Pawn] {
        for (file, capture, to) in [(None, false, Square::A1), (Some(File::A), true, Square::B1)] {
            let san = San::Normal {
                role: Role::Pawn,
                file,
                rank: None,
                capture,
                to,
                promotion: Some(role),
            };
            assert_eq!(check_resolution(&pos, san, "promotion"), Err(SanError::Illegal { san }));
        }
    }
}

/// The candidate list of an ambiguous SAN is complete even when it is long.
#[test]
fn ambiguous_candidates_are_all_listed() {
    // Eight knights around d4... of which the side can have at most ten: all eight reach d4.
    let pos = position("4k3/8/2N1N3/1N3N2/8/1N3N2/2N1N3/4K3 w - - 0 1");
    let err = check_resolution(&pos, "Nd4".parse().unwrap(), "eight knights").unwrap_err();
    let SanError::Ambiguous { candidates, .. } = &err else { panic!("{err}") };
    assert_eq!(candidates.len(), 8);
    assert_eq!(err.san(), &"Nd4".parse::<San>().unwrap());
    // Each candidate's written SAN resolves to it alone.
    for &m in candidates {
        assert_eq!(San::from_move(&pos, m).to_move(&pos), Ok(m));
    }
    let _: &Candidates = candidates;
}
