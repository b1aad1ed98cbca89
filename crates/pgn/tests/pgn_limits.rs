//! PGN limits: each bound of `Limits` is an error for its game with a clear message, and the
//! reader goes on with the next game.

use chessbits_pgn::{Limits, PgnReader, SliceReader, SyntaxCheck, TreeBuilder};

/// Every game of `pgn` read with `limits` into a tree (so variations and comments are read):
/// `ok` with the mainline's plies, or the error, one line each; the streaming reader must agree.
fn read(pgn: &str, limits: Limits) -> String {
    let mut lines = Vec::new();
    let mut reader = SliceReader::with_limits(pgn.as_bytes(), limits);
    let mut stream = PgnReader::with_limits(pgn.as_bytes(), limits);
    assert_eq!(reader.limits(), limits);
    while let Some(game) = reader.read_game(&mut TreeBuilder::default()) {
        let streamed = stream.read_game(&mut TreeBuilder::default());
        let line = match game {
            Ok(g) => {
                let plies = g.mainline.moves.len();
                assert_eq!(
                    streamed.map(|g| g.ok().map(|g| g.mainline.moves.len())),
                    Some(Some(plies))
                );
                format!("ok {plies}")
            }
            Err(e) => {
                let line = e.to_string();
                assert_eq!(
                    streamed.map(|g| g.err().map(|e| e.to_string())),
                    Some(Some(line.clone()))
                );
                line
            }
        };
        lines.push(line);
    }
    lines.join("\n")
}

#[test]
fn each_limit_is_an_error_for_its_game_only() {
    let next = "\n[Event \"next\"]\n1. e4 *\n";
    let d = Limits::DEFAULT;
    let cases = [
        ("1. e4 (1. d4 (1. c4 (1. Nf3))) *", d.with_variation_depth(2)),
        ("1. e4 {a comment too long} *", d.with_comment_len(8)),
        ("1. e4 ; a line comment too long\n*", d.with_comment_len(8)),
        ("[White \"a tag value too long\"]\n1. e4 *", d.with_tag_len(20)),
        ("[A \"1\"]\n[B \"2\"]\n[C \"3\"]\n1. e4 *", d.with_tags(2)),
        ("1. e4 e5 2. Nf3 Nc6 *", d.with_moves(3)),
        ("1. e4 (1. d4 d5) e5 *", d.with_moves(3)),
        ("1. e4 {x} 1... e5 {y} 2. Nf3 {z} 2... Nc6 {w} 3. Bb5 {v}\n\n*", d.with_game_len(40)),
        ("[A \"1\"]\n[B \"2\"]\n[C \"3\"]\n1. e4 *", d.with_game_len(10)),
    ];
    let out: Vec<String> =
        cases.iter().map(|(c, limits)| read(&format!("{c}{next}"), *limits)).collect();
    // The last case's bound is too small for the next game too.
    insta::assert_snapshot!(out.join("\n--\n"), @r#"
    game 1, line 1, column 21 (byte 20): variations nested deeper than 2 levels
    ok 1
    --
    game 1, line 1, column 7 (byte 6): comment longer than 8 bytes
    ok 1
    --
    game 1, line 1, column 7 (byte 6): comment longer than 8 bytes
    ok 1
    --
    game 1, line 1, column 1 (byte 0): tag longer than 20 bytes
    ok 1
    --
    game 1, line 3, column 1 (byte 16): more than 2 tags
    ok 1
    --
    game 1, line 1, column 17 (byte 16): more than 3 moves
    ok 1
    --
    game 1, line 1, column 18 (byte 17): more than 3 moves
    ok 1
    --
    game 1, line 1, column 43 (byte 42): game longer than 40 bytes
    ok 1
    --
    game 1, line 3, column 1 (byte 16): game longer than 10 bytes
    game 2, line 6, column 1 (byte 47): game longer than 10 bytes
    "#);
    // The defaults read all of these.
    for (case, _) in cases {
        assert!(!read(case, d).contains("game 1,"), "{case}");
    }
}

#[test]
fn defaults_are_the_documented_constants() {
    insta::assert_debug_snapshot!(Limits::DEFAULT, @r"
    Limits {
        variation_depth: 64,
        comment_len: 1048576,
        tag_len: 65536,
        tags: 1024,
        moves: 100000,
        game_len: 67108864,
    }
    ");
    let deep = format!("{}*", "( ".repeat(Limits::DEFAULT.variation_depth + 1));
    let err = SliceReader::new(deep.as_bytes()).read_game(&mut SyntaxCheck).unwrap().unwrap_err();
    insta::assert_snapshot!(err, @"game 1, line 1, column 129 (byte 128): variations nested deeper than 64 levels");
}
