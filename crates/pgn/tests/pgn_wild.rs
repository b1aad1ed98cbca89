//! PGN as real files hold it (`tests/data/wild/`): a tag value ending in a backslash, games
//! without result markers separated by blank lines, null moves in the mainline, and variant
//! games. Every reader path must read the same games the same way: the slice and streaming
//! readers with [`Replay`], game trees, and a visitor that only counts (the `.cbg` game
//! records: `chessbits-codec`'s `tests/pgn_wild_records.rs`).

use std::io::{self, Read};

use chessbits_movegen::Game;
use chessbits_notation::fen::{fen_of, CastlingNotation, EnPassantMode, FenOptions};
use chessbits_pgn::{
    read_games, PgnErrorKind, PgnReader, Replay, ReplayError, ReplayedGame, SliceReader,
    SyntaxCheck, Variant,
};

const FEN: FenOptions =
    FenOptions { castling: CastlingNotation::XFen, en_passant: EnPassantMode::Legal };

fn data(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/data/wild/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A reader that hands out at most `n` bytes a call, to cut the input everywhere.
struct Trickle<'a>(&'a [u8], usize);

impl Read for Trickle<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = self.0.len().min(self.1).min(out.len());
        out[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

/// `<final FEN>\t<UCI moves>` as `chessbits pgn --to uci` prints a game.
fn line(game: &Game) -> String {
    let moves: Vec<String> =
        game.moves().iter().map(|&m| game.start().uci(m).to_string()).collect();
    format!("{}\t{}", fen_of(game.position(), FEN), moves.join(" "))
}

fn replayed(result: Result<ReplayedGame, impl std::fmt::Display>) -> String {
    match result {
        Ok(r) => line(&r.game),
        Err(e) => format!("error\t{e}"),
    }
}

/// One line per game through every reader path, after checking that they all agree.
fn transcript(name: &str) -> String {
    let bytes = data(name);
    let mut slice = SliceReader::new(&bytes);
    let mut lines = Vec::new();
    while let Some(result) = slice.read_game(&mut Replay::default()) {
        lines.push(replayed(result));
    }
    for chunk in [1, 7, 64, 1 << 16] {
        let mut stream = PgnReader::new(Trickle(&bytes, chunk));
        let mut again = Vec::new();
        while let Some(result) = stream.read_game(&mut Replay::default()) {
            again.push(replayed(result));
        }
        assert_eq!(again, lines, "{name}: the streaming reader, {chunk}-byte reads");
    }
    // Trees: the same mainlines and errors (a tree replays its mainline into a game).
    let trees: Vec<String> = read_games(&bytes)
        .map(|tree| match tree {
            Ok(tree) => {
                let mut game = Game::new(tree.start);
                for node in &tree.mainline.moves {
                    let played = if node.mv.is_null() {
                        game.play_null().is_ok()
                    } else {
                        game.play(node.mv).is_ok()
                    };
                    assert!(played, "{name}: a tree's mainline replays");
                }
                line(&game)
            }
            Err(e) => format!("error\t{e}"),
        })
        .collect();
    assert_eq!(trees, lines, "{name}: game trees");
    // A visitor that reads nothing finds the same games.
    let mut reader = SliceReader::new(&bytes);
    let mut found = 0;
    while reader.read_game(&mut SyntaxCheck).is_some() {
        found += 1;
    }
    assert_eq!(found, lines.len(), "{name}: games found without reading them");
    lines.join("\n")
}

#[test]
fn a_tag_value_ending_in_a_backslash_ends_at_the_last_quote_and_bracket() {
    insta::assert_snapshot!(transcript("tag-backslash.pgn"), @r"
    r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4	e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7
    rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1	d2d4
    ");
    let bytes = data("tag-backslash.pgn");
    let events: Vec<String> = read_games(&bytes)
        .map(|g| g.expect("reads").tags.get("Event").unwrap_or_default().to_owned())
        .collect();
    assert_eq!(events, ["Ugra Cup \\", "Escaped \"quotes\" stay"]);
}

#[test]
fn movetext_starting_again_at_move_one_after_a_blank_line_is_a_new_game() {
    insta::assert_snapshot!(transcript("no-result-markers.pgn"), @r"
    r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3	e2e4 e7e5 g1f3 b8c6 f1b5
    r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3	e2e4 e7e5 g1f3 b8c6 f1b5
    rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2	d2d4 d7d5
    rnbqkb1r/pppp1ppp/5n2/4p3/2P5/2N5/PP1PPPPP/R1BQKBNR w KQkq - 2 3	c2c4 e7e5 b1c3 g8f6
    ");
}

#[test]
fn blank_lines_alone_and_later_move_numbers_do_not_split_a_game() {
    // Tags, blank lines, movetext: one game. A blank line inside the movetext followed by a
    // later move number, a comment or a variation: still one game.
    for pgn in [
        "[Event \"a\"]\n\n\n1. e4 e5\n\n2. Nf3 *",
        "1. e4 e5\n\n{ 1. d4 }\n\n2. Nf3 *",
        "1. e4 e5 (\n\n1... c5\n\n) 2. Nf3 *",
        "1. e4 e5\n\n10. Nf3 *",
    ] {
        let games: Vec<_> = read_games(pgn.as_bytes()).collect();
        assert_eq!(games.len(), 1, "{pgn:?}: {games:?}");
        assert!(games[0].is_ok(), "{pgn:?}: {games:?}");
    }
    // In a variation, `1.` after a blank line continues the variation.
    let pgn = b"1. e4 (\n\n1. d4 d5) 1... e5\n\n1. c4 *";
    let games: Vec<_> = read_games(pgn).collect();
    assert_eq!(games.len(), 2, "{games:?}");
}

#[test]
fn null_moves_in_the_mainline_are_played_as_passes() {
    insta::assert_snapshot!(transcript("null-moves.pgn"), @r"
    rnbqkbnr/pppppQpp/8/8/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4	e2e4 0000 f1c4 0000 d1h5 0000 h5f7
    r1bqkbnr/ppp1p1pp/2n5/3pPp2/8/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 4	e2e4 d7d5 e4e5 f7f5 0000 b8c6 g1f3
    error	game 3, line 14, column 30 (byte 236): ply 6: a null move in check
    ");
}

#[test]
fn variant_games_are_refused_up_front_and_the_next_game_is_read() {
    insta::assert_snapshot!(transcript("variants.pgn"), @r#"
    error	game 1, line 5, column 1 (byte 71): variant "Crazyhouse" is not supported
    error	game 2, line 11, column 1 (byte 204): variant "Atomic" is not supported
    error	game 3, line 17, column 1 (byte 324): variant "Three-check" is not supported
    error	game 4, line 25, column 1 (byte 536): variant "Horde" is not supported
    error	game 5, line 31, column 1 (byte 612): variant "Antichess" is not supported
    error	game 6, line 37, column 1 (byte 715): variant "King of the Hill" is not supported
    error	game 7, line 45, column 1 (byte 884): variant "Racing Kings" is not supported
    bbqnnrkr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/BBQNNRKR w KQkq - 0 2	d2d4 d7d5
    R3k3/8/4K3/8/8/8/8/8 b - - 1 1	a1a8
    rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2	e2e4 c7c5
    "#);
}

#[test]
fn variant_names() {
    for (value, expected) in [
        ("Standard", Some(Variant::Standard)),
        ("standard", Some(Variant::Standard)),
        ("From Position", Some(Variant::Standard)),
        ("", Some(Variant::Standard)),
        ("Chess960", Some(Variant::Chess960)),
        ("Fischerandom", Some(Variant::Chess960)),
        ("Crazyhouse", None),
        ("Three-check", None),
        ("kingOfTheHill", None),
        ("Suicide", None),
        ("a very long name of no variant at all", None),
    ] {
        assert_eq!(Variant::from_tag(value.as_bytes()).ok(), expected, "{value:?}");
    }
    // The error is the visitors' own, with the value as written.
    let mut reader = SliceReader::new(b"[Variant \"Crazyhouse\"]\n1. P@e4 *");
    let err = reader.read_game(&mut Replay::default()).expect("a game").unwrap_err();
    assert!(matches!(err.kind, chessbits_pgn::PgnErrorKind::Visitor(ReplayError::Variant(_))));
}

/// A comment never closed inside a variation, which the reader skips unread: its bytes leave
/// the streaming reader's buffer before its end is found. The error names the line and
/// column of its `{`, as the slice reader (the whole input in memory) does, at every read
/// size; the streaming reader named the line where the skip stopped (found by fuzzing: line 6,
/// column 1 for line 4, column 19).
#[test]
fn an_unclosed_comment_in_a_skipped_variation_names_its_own_line() {
    let mut pgn = b"[Event \"x\"]\n\n1. e4 (1. d4 d5 {never closed\n".to_vec();
    for i in 0..40 {
        pgn.extend_from_slice(format!("line {i} of a long comment ( {{ ;\n").as_bytes());
    }
    pgn.extend_from_slice(b"\n[Event \"next\"]\n\n1. d4 *\n");
    let brace = pgn.iter().position(|&b| b == b'{').unwrap();
    let line = 1 + pgn[..brace].iter().filter(|&&b| b == b'\n').count() as u64;
    let column = (brace - pgn[..brace].iter().rposition(|&b| b == b'\n').unwrap()) as u64;
    let place = |e: &chessbits_pgn::PgnError<_>| (e.game, e.line, e.column, e.offset);
    let mut slice = SliceReader::new(&pgn);
    let err = slice.read_game(&mut Replay::default()).expect("a game").unwrap_err();
    assert!(matches!(err.kind, PgnErrorKind::UnclosedComment), "{err}");
    assert_eq!(place(&err), (1, line, column, brace as u64));
    let next = slice.read_game(&mut Replay::default()).expect("the next game");
    assert!(next.is_ok());
    for read in [1, 2, 3, 7, 16, 53, 64, 4096] {
        let mut stream = PgnReader::new(Trickle(&pgn, read));
        let err = stream.read_game(&mut Replay::default()).expect("a game").unwrap_err();
        assert_eq!(place(&err), (1, line, column, brace as u64), "{read}-byte reads");
        let next = stream.read_game(&mut Replay::default()).expect("the next game");
        assert!(next.is_ok(), "{read}-byte reads");
        assert!(stream.read_game(&mut Replay::default()).is_none());
    }
}

/// Shredder-FEN letters for the standard rooks (`HAha`) in a game without a `Variant` tag
/// name standard chess's rights: castling is written with the king's two squares and the
/// start is the standard one, as python-chess reads it (a trial found `e1h1`, and a start FEN
/// for the standard start). A `Variant` tag naming Chess960 keeps king takes rook, and rights
/// standard chess cannot have keep the game Chess960 without one.
#[test]
fn shredder_letters_of_the_standard_rooks_leave_a_game_standard() {
    let game = |tags: &str, moves: &str| {
        let pgn = format!("{tags}\n\n{moves} *\n");
        let mut reader = SliceReader::new(pgn.as_bytes());
        let replayed = reader.read_game(&mut Replay::default()).expect("a game").expect("legal");
        (*replayed.game.start() == chessbits_movegen::Position::new(), line(&replayed.game))
    };
    let start = "[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1\"]";
    let (standard, played) = game(start, "1. Nf3 Nf6 2. g3 g6 3. Bg2 Bg7 4. O-O O-O");
    assert!(standard);
    assert!(played.ends_with("g1f3 g8f6 g2g3 g7g6 f1g2 f8g7 e1g1 e8g8"), "{played}");
    let corners = "[FEN \"r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1\"]";
    assert!(game(corners, "1. O-O O-O-O").1.ends_with("e1g1 e8c8"));
    let tagged = format!("[Variant \"Chess960\"]\n{corners}");
    assert!(game(&tagged, "1. O-O O-O-O").1.ends_with("e1h1 e8a8"));
    let inner = "[FEN \"1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1\"]";
    assert!(
        game(inner, "1. O-O O-O-O").1.ends_with("e1g1 e8b8"),
        "{}",
        game(inner, "1. O-O O-O-O").1
    );
}
