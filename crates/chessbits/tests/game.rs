//! Game state: Polyglot keys, repetition, the move-count rules and every outcome, from real move
//! sequences; and make/unmake with history over random playouts.

use chessbits::movegen::GameResult;
use chessbits::notation::fen;
use chessbits::prelude::*;
use chessbits_testkit::Rng;

fn game_from(fen_text: &str, moves: &str) -> Game {
    let start = if fen_text == "startpos" {
        Position::new()
    } else {
        fen::parse_position(fen_text).unwrap_or_else(|e| panic!("{fen_text}: {e}"))
    };
    let mut game = Game::new(start);
    for (ply, m) in moves.split_whitespace().enumerate() {
        let uci: UciMove = m.parse().unwrap_or_else(|e| panic!("{m}: {e}"));
        game.play_uci(uci).unwrap_or_else(|e| panic!("ply {}: {e}", ply + 1));
    }
    game
}

/// The test vectors published with the Polyglot book format.
#[test]
fn polyglot_published_keys() {
    let cases = [
        ("", 0x463b96181691fc9c),
        ("e2e4", 0x823c9b50fd114196),
        ("e2e4 d7d5", 0x0756b94461c50fb0),
        ("e2e4 d7d5 e4e5", 0x662fafb965db29d4),
        ("e2e4 d7d5 e4e5 f7f5", 0x22a48b5a8e47ff78),
        ("e2e4 d7d5 e4e5 f7f5 e1e2", 0x652a607ca3f242c1),
        ("e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00fdd303c946bdd9),
        ("a2a4 b7b5 h2h4 b5b4 c2c4", 0x3c8123ea7b067637),
        ("a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5c3f9b829b279560),
    ];
    for (moves, key) in cases {
        let game = game_from("startpos", moves);
        assert_eq!(game.position().key(), key, "after {moves:?}");
        assert_eq!(game.position().compute_key(), key);
        // The same key from the FEN alone.
        let fen_text = fen::fen_of(game.position(), Default::default());
        assert_eq!(fen::parse_position(&fen_text).unwrap().key(), key, "{fen_text}");
    }
}

fn outcome_of(fen_text: &str, moves: &str) -> Option<Termination> {
    game_from(fen_text, moves).outcome().map(Outcome::termination)
}

#[test]
fn checkmate_fools_mate() {
    let game = game_from("startpos", "f2f3 e7e5 g2g4 d8h4");
    let outcome = game.outcome().unwrap();
    assert_eq!(
        outcome,
        Outcome::Decisive { winner: Color::Black, termination: Termination::Checkmate }
    );
    assert_eq!(outcome.result(), "0-1");
    assert!(game.position().is_checkmate());
}

#[test]
fn stalemate_loyds_ten_move_game() {
    let moves = "e2e3 a7a5 d1h5 a8a6 h5a5 h7h5 h2h4 a6h6 a5c7 f7f6 c7d7 e8f7 d7b7 d8d3 b7b8 d3h7 b8c8 f7g6 c8e6";
    let game = game_from("startpos", moves);
    assert_eq!(game.outcome(), Some(Outcome::Draw { termination: Termination::Stalemate }));
    assert!(game.position().is_stalemate());
    // One move earlier the game was still on.
    let mut earlier = game.clone();
    earlier.undo();
    assert_eq!(earlier.outcome(), None);
}

#[test]
fn insufficient_material_after_the_last_capture() {
    // White's bishop takes black's last rook: king and bishop against king.
    let fen_text = "8/8/4k3/8/8/2B1K3/8/6r1 w - - 0 60";
    assert_eq!(outcome_of(fen_text, ""), None);
    assert_eq!(outcome_of(fen_text, "c3d4 g1g4 e3f3 g4d4"), None, "black won the bishop: K+R v K");
    assert_eq!(outcome_of("8/8/4k3/8/8/4K3/8/B5r1 w - - 0 60", "a1g7 g1g7"), None, "K+R v K");
    assert_eq!(
        outcome_of("8/8/8/8/8/5k2/3r4/3K4 w - - 0 60", "d1d2"),
        Some(Termination::InsufficientMaterial)
    );
    assert_eq!(
        outcome_of("8/8/4k3/8/8/4K3/6r1/7B w - - 0 60", "h1g2"),
        Some(Termination::InsufficientMaterial)
    );
}

#[test]
fn seventyfive_and_fifty_move_rules() {
    // Rooks shuffle with no capture or pawn move; the clock starts at 140 from the FEN.
    let start = "7k/8/8/8/8/8/R7/K7 w - - 140 100";
    let game = game_from(start, "a2b2 h8g8 b2a2 g8h8");
    assert_eq!(game.position().halfmoves(), 144);
    assert_eq!(game.claimable_draws(), [Termination::FiftyMoves].as_slice());
    assert_eq!(game.outcome(), None);
    let game = game_from(start, "a2b2 h8g8 b2c2 g8h8 c2d2 h8g8 d2e2 g8h8 e2f2 h8g8");
    assert_eq!(game.position().halfmoves(), 150);
    assert_eq!(game.outcome().map(Outcome::termination), Some(Termination::SeventyFiveMoves));
    // Checkmate on the 150th halfmove takes precedence.
    let mate = game_from("6k1/8/6K1/8/8/8/8/R7 w - - 149 120", "a1a8");
    assert_eq!(mate.outcome().map(Outcome::termination), Some(Termination::Checkmate));
    // The fifty-move claim starts at exactly 100.
    assert!(game_from("7k/8/8/8/8/8/R7/K7 w - - 99 100", "").claimable_draws().is_empty());
    assert_eq!(
        game_from("7k/8/8/8/8/8/R7/K7 w - - 99 100", "a2b2").claimable_draws(),
        [Termination::FiftyMoves].as_slice()
    );
}

#[test]
fn threefold_and_fivefold_repetition() {
    let shuffle = "g1f3 g8f6 f3g1 f6g8";
    let twice = format!("{shuffle} {shuffle}");
    let game = game_from("startpos", &twice);
    assert_eq!(game.repetitions(), 3);
    assert_eq!(game.claimable_draws(), [Termination::ThreefoldRepetition].as_slice());
    assert_eq!(game.outcome(), None);
    let four = format!("{twice} {twice}");
    let game = game_from("startpos", &four);
    assert_eq!(game.repetitions(), 5);
    assert_eq!(game.outcome().map(Outcome::termination), Some(Termination::FivefoldRepetition));
    // A pawn move in between resets the window: the start position cannot recur.
    let game = game_from("startpos", &format!("{shuffle} e2e3 e7e6 {shuffle} {shuffle}"));
    assert_eq!(game.repetitions(), 3, "the position after e3 e6 occurred three times");
}

#[test]
fn repetition_needs_the_same_castling_rights_and_ep_possibility() {
    // The king steps out and back: same placement, but castling rights are gone.
    let game = game_from("startpos", "e2e4 e7e5 e1e2 e8e7 e2e1 e7e8 e1e2 e8e7 e2e1 e7e8");
    assert_eq!(game.repetitions(), 2, "the first e1/e8 position had castling rights");
    // After 1. e4 (no black pawn can take en passant) the position equals the one reached by
    // knight moves later, since the ep square is not a real possibility.
    let game = game_from("startpos", "e2e4 g8f6 g1f3 f6g8 f3g1 g8f6 g1f3 f6g8 f3g1");
    assert_eq!(game.repetitions(), 3);
    // With a legal en passant capture the first occurrence differs.
    let game = game_from(
        "rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "e2e4 g8f6 g1f3 f6g8 f3g1 g8f6 g1f3 f6g8 f3g1",
    );
    assert_eq!(game.repetitions(), 2);
}

/// `F` and `T` for the claims of a list ([`Termination::FiftyMoves`], then threefold).
fn letters(claims: &[Termination]) -> String {
    claims
        .iter()
        .map(|t| match t {
            Termination::FiftyMoves => 'F',
            Termination::ThreefoldRepetition => 'T',
            other => panic!("{other} is no claim"),
        })
        .collect()
}

/// The draws claimable now and by announcing each legal move, after a start and some moves:
/// the claims now, the moves with claims (`uci:letters`, sorted) and whether any claim exists.
/// The expectations were computed with python-chess (`halfmove_clock >= 100` and
/// `is_repetition(3)` after each legal move, and `can_claim_draw()`) as an oracle.
#[test]
fn draws_claimable_by_announcing_a_move() {
    let cases = [
        ("startpos", "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1", "", "f6g8:T", true),
        ("startpos", "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8", "T", "g1f3:T", true),
        ("7k/8/8/8/8/8/R7/K7 w - - 99 100", "", "", "a1b1:F a1b2:F a2a3:F a2a4:F a2a5:F a2a6:F a2a7:F a2a8:F a2b2:F a2c2:F a2d2:F a2e2:F a2f2:F a2g2:F a2h2:F", true),
        ("7k/8/8/8/8/8/R7/K7 w - - 98 100", "", "", "", false),
        ("7k/8/8/8/8/8/R7/K7 w - - 96 100", "a2b2 h8g8 b2a2", "", "g8f7:F g8f8:F g8g7:F g8h7:F g8h8:F", true),
        ("7k/6p1/8/8/8/8/R7/K7 w - - 96 100", "a2b2 h8g8 b2a2", "", "g8f7:F g8f8:F g8h7:F g8h8:F", true),
        ("7k/8/8/8/8/8/R7/K7 w - - 94 100", "a2b2 h8g8 b2a2 g8h8 a2b2 h8g8 b2a2", "F", "g8f7:F g8f8:F g8g7:F g8h7:F g8h8:FT", true),
        ("startpos", "e2e4 g8f6 g1f3 f6g8 f3g1 g8f6 g1f3 f6g8", "", "f3g1:T", true),
        ("rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e2e4 g8f6 g1f3 f6g8 f3g1 g8f6 g1f3 f6g8", "", "", false),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "a1b1 a8b8 b1a1 b8a8 a1b1 a8b8 b1a1", "", "", false),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "a1b1 a8b8 b1a1 b8a8 a1b1 a8b8 b1a1 b8a8 a1b1 a8b8 b1a1", "T", "b8a8:T", true),
    ];
    for (fen_text, moves, now, after, can_claim) in cases {
        let game = game_from(fen_text, moves);
        let what = format!("{fen_text} {moves}");
        assert_eq!(letters(game.claimable_draws()), now, "{what}");
        let mut claims: Vec<String> = Vec::new();
        for m in game.position().legal_moves() {
            let found = game.claimable_draws_after(m).expect("a legal move");
            // The claim is what playing the move and asking then says.
            let mut played = game.clone();
            played.play(m).expect("legal");
            assert_eq!(found, played.claimable_draws(), "{what} {m}");
            if !found.is_empty() {
                claims.push(format!("{}:{}", game.position().uci(m), letters(found)));
            }
        }
        claims.sort();
        assert_eq!(claims.join(" "), after, "{what}");
        assert_eq!(!now.is_empty() || !claims.is_empty(), can_claim, "{what}");
    }
    let game = game_from("startpos", "");
    assert!(game.claimable_draws_after(Move16::NULL).is_err());
}

#[test]
fn play_goes_on_after_an_automatic_draw_but_not_after_mate() {
    // Fivefold repetition: over by the rules, yet the next legal move is played (recorded games
    // go on past it), and the outcome follows the new position.
    let shuffle = "g1f3 g8f6 f3g1 f6g8";
    let mut game = game_from("startpos", &[shuffle; 4].join(" "));
    assert_eq!(game.outcome().map(Outcome::termination), Some(Termination::FivefoldRepetition));
    game.play_uci("e2e4".parse().unwrap()).expect("legal moves are played after fivefold");
    assert_eq!((game.moves().len(), game.outcome()), (17, None));
    // The seventy-five-move rule and insufficient material: the same.
    let mut game = game_from("7k/8/8/8/8/8/R7/K7 w - - 150 100", "");
    assert_eq!(game.outcome().map(Outcome::termination), Some(Termination::SeventyFiveMoves));
    assert!(game.play_uci("a2b2".parse().unwrap()).is_ok());
    let mut game = game_from("8/8/4k3/8/8/4K3/8/8 w - - 0 60", "");
    assert_eq!(game.outcome().map(Outcome::termination), Some(Termination::InsufficientMaterial));
    assert!(game.play_uci("e3e4".parse().unwrap()).is_ok());
    // Checkmate and stalemate leave no legal move: every move is refused, the game unchanged.
    for (fen_text, moves) in
        [("startpos", "f2f3 e7e5 g2g4 d8h4"), ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "")]
    {
        let mut game = game_from(fen_text, moves);
        assert!(game.outcome().is_some());
        let before = game.moves().len();
        for m in ["e2e4", "h8g8", "a1a2", "h8h7"] {
            assert!(game.play_uci(m.parse().unwrap()).is_err(), "{fen_text} {moves}: {m}");
        }
        assert_eq!(game.moves().len(), before);
    }
}

#[test]
fn the_position_knows_its_own_outcome() {
    // Each position's outcome by python-chess's `outcome(claim_draw=False)` minus repetitions.
    let mate = |winner| Some(Outcome::Decisive { winner, termination: Termination::Checkmate });
    let draw = |termination| Some(Outcome::Draw { termination });
    let cases = [
        ("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", mate(Color::Black)),
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", draw(Termination::Stalemate)),
        ("8/8/4k3/8/8/2B1K3/8/8 b - - 0 60", draw(Termination::InsufficientMaterial)),
        ("7k/8/8/8/8/8/R7/K7 w - - 150 100", draw(Termination::SeventyFiveMoves)),
        ("7k/8/8/8/8/8/R7/K7 w - - 149 100", None),
        ("6k1/8/6K1/8/8/8/8/R7 w - - 149 120", None),
        ("R5k1/8/6K1/8/8/8/8/8 b - - 150 120", mate(Color::White)),
        ("startpos", None),
    ];
    for (fen_text, expected) in cases {
        let game = game_from(fen_text, "");
        assert_eq!(game.position().outcome(), expected, "{fen_text}");
        assert_eq!(game.outcome(), expected, "{fen_text}: Game agrees without history");
        assert_eq!(
            GameResult::from(expected).to_string(),
            match expected.and_then(Outcome::winner) {
                Some(Color::White) => "1-0",
                Some(Color::Black) => "0-1",
                None if expected.is_some() => "1/2-1/2",
                None => "*",
            }
        );
    }
}

#[test]
fn illegal_moves_leave_the_game_unchanged() {
    let mut game = game_from("startpos", "e2e4");
    let before = game.position().to_owned();
    assert!(game.play_uci("e2e4".parse().unwrap()).is_err());
    assert!(game.play_uci("e8e7".parse().unwrap()).is_err());
    assert!(game.play(Move16::NULL).is_err());
    assert_eq!(game.position(), &before);
    assert_eq!(game.moves().len(), 1);
}

#[test]
fn undo_with_history_matches_a_fresh_replay() {
    let mut rng = Rng::new(0x1234_5678_9abc_def1);
    let starts = [
        "startpos",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N1Q2p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    ];
    for round in 0..60 {
        let start = starts[round % starts.len()];
        let mut game = game_from(start, "");
        for _ in 0..(20 + rng.below(120)) {
            let moves = game.position().legal_moves();
            if moves.is_empty() {
                break;
            }
            game.play(moves[rng.below(moves.len())]).unwrap();
        }
        for _ in 0..rng.below(game.moves().len() + 1) {
            game.undo();
        }
        let mut fresh = Game::new(*game.start());
        for &m in game.moves() {
            fresh.play(m).unwrap();
        }
        assert_eq!(game.position(), fresh.position());
        assert_eq!(game.position().key(), game.position().compute_key());
        assert_eq!(game.history(), fresh.history());
        assert_eq!(game.outcome(), fresh.outcome());
    }
}

#[test]
fn uci_resolution_of_castling_and_promotions() {
    let resolve = |fen_text: &str, uci: &str| {
        let pos = fen::parse_position(fen_text).unwrap();
        pos.resolve_uci(uci.parse().unwrap()).map(|m| m.to_uci(CastlingMode::Chess960).to_string())
    };
    let standard = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    assert_eq!(resolve(standard, "e1g1").as_deref(), Ok("e1h1"), "standard short castling");
    assert_eq!(resolve(standard, "e1h1").as_deref(), Ok("e1h1"), "king takes rook, accepted too");
    assert_eq!(resolve(standard, "e1c1").as_deref(), Ok("e1a1"));
    assert_eq!(resolve(standard, "e1f1").as_deref(), Ok("e1f1"), "a plain king move");
    // Chess960, king b1 and rook a1: b1c1 is a plain king move when c1 is free and safe.
    let frc = "6kr/8/8/8/8/8/8/RK6 w Ah - 0 1";
    assert_eq!(resolve(frc, "b1c1").as_deref(), Ok("b1c1"));
    assert_eq!(resolve(frc, "b1a1").as_deref(), Ok("b1a1"), "castling by king takes rook");
    // Promotions need their letter.
    let promo = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(resolve(promo, "a7a8n").as_deref(), Ok("a7a8n"));
    assert!(resolve(promo, "a7a8").is_err());
    assert!(resolve(standard, "0000").is_err());
}
