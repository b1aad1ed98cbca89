//! The `replay` example's output, pinned: FEN, Polyglot key, outcome and claims per move, and
//! the error messages for bad input.

#[path = "../examples/replay.rs"]
mod replay;

fn run(input: &str) -> (String, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    replay::replay(input.as_bytes(), &mut out, &mut err).unwrap();
    (String::from_utf8(out).unwrap(), String::from_utf8(err).unwrap())
}

#[test]
fn fools_mate_and_a_chess960_line() {
    let (out, err) = run(concat!(
        "startpos;f2f3 e7e5 g2g4 d8h4\n",
        "\n",
        "brq1nkrb/7p/1p4pn/p1p1ppP1/2p5/1P1PPNR1/PQP2P1P/BR3K1B w Qkq - 0 13;f1b1 h8g7 b1a1\n",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1;e2e4 d7d5 e4e5 f7f5\n",
    ));
    insta::assert_snapshot!(out);
    assert_eq!(err, "line 3: ply 3: move \"b1a1\": illegal move b1a1\n");
}

#[test]
fn bad_input_is_reported_and_the_next_line_still_runs() {
    let (out, err) = run(concat!(
        "not a fen;e2e4\n",
        "startpos;e2e4 e7e9 d2d4\n",
        "startpos;e2e5\n",
        "8/8/8/8/8/8/8/8 w - - 0 1;\n",
        "startpos;g1f3\n",
    ));
    assert_eq!(out.lines().count(), 2, "{out}");
    insta::assert_snapshot!(err);
}

#[test]
fn repetition_claims_and_fivefold() {
    let shuffle = "g1f3 g8f6 f3g1 f6g8 ";
    let (out, _) = run(&format!("startpos;{}\n", shuffle.repeat(4)));
    let last: Vec<String> =
        out.lines().map(|l| l.split('\t').skip(2).collect::<Vec<_>>().join(" ")).collect();
    assert_eq!(last[7], "* threefold-repetition");
    assert_eq!(last[15], "fivefold-repetition threefold-repetition");
}
