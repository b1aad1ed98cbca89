//! Errors that wrap another error give it as their `source`, so that error reporters can walk
//! the chain, and their `Display` stays the one-line message the CLI prints.

use std::error::Error;

use chessbits_pgn::{PgnErrorKind, Replay, SliceReader};

#[test]
fn wrapping_errors_give_their_source() {
    // A FEN tag that is not FEN: the game's error wraps the replay's, which wraps the FEN's.
    let mut reader = SliceReader::new(b"[FEN \"8/8 w - - 0 1\"]\n1. e4 *");
    let err = reader.read_game(&mut Replay::default()).expect("a game").unwrap_err();
    let PgnErrorKind::Visitor(replay) = &err.kind else { panic!("a replay error: {err}") };
    let fen = replay.source().expect("the FEN error");
    assert_eq!(fen.to_string(), replay.to_string().trim_start_matches("invalid FEN tag: "));
    assert!(fen.source().is_some(), "the FEN error wraps its syntax error");
    // A token that is not SAN: the reader's error has the SAN syntax error as its source.
    let mut reader = SliceReader::new(b"1. e9 *");
    let err = reader.read_game(&mut Replay::default()).expect("a game").unwrap_err();
    let san = err.source().expect("the SAN error").to_string();
    assert!(san.ends_with("expected a rank 1..8 to complete the square, found '9'"), "{san}");
    // An illegal move: the replay error's source is the SAN resolution error.
    let mut reader = SliceReader::new(b"1. e4 e5 2. Ke3 *");
    let err = reader.read_game(&mut Replay::default()).expect("a game").unwrap_err();
    let PgnErrorKind::Visitor(replay) = &err.kind else { panic!("a replay error: {err}") };
    assert_eq!(replay.source().map(|e| e.to_string()).as_deref(), Some("illegal move Ke3"));
    assert!(err.source().is_none(), "a visitor's error is in the kind, not the source");
}
