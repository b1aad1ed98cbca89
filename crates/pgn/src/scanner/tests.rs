//! The grammar the [`Parser`](super::Parser) reads, tested through both readers: every
//! event, skipping, recovery after errors, limits, line and byte positions.

use core::convert::Infallible;
use core::fmt;
use std::io;
use std::io::Read;

use crate::annotations::lossy;
use crate::annotations::Nag;
use crate::limits::{MAX_COMMENT_LEN, MAX_TAG_LEN, MAX_TOKEN_LEN, MAX_VARIATION_DEPTH};
use crate::lines::count_line_breaks;
use crate::reader::{PgnReader, SliceReader};
use crate::visitor::Visitor;
use crate::visitor::{GameResult, RawComment, RawTag, Skip};
use chessbits_notation::san::SanPlus;

/// Writes every event as text: `[Name=value]`, moves, `$n`, `{comment}`, `(`, `)`, the
/// result, `|` between tags and movetext.
#[derive(Default)]
struct Transcript {
    out: String,
    skip_movetext: bool,
    skip_variations: bool,
}

impl Visitor for Transcript {
    type Output = String;
    type Error = Infallible;

    fn begin_game(&mut self) {
        self.out.clear();
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>) -> Result<(), Infallible> {
        self.out += &format!("[{}={}] ", lossy(name), value.decode());
        Ok(())
    }

    fn begin_movetext(&mut self) -> Skip {
        self.out += "|";
        Skip(self.skip_movetext)
    }

    fn san(&mut self, san: SanPlus) -> Result<(), Infallible> {
        self.out += &format!(" {san}");
        Ok(())
    }

    fn nag(&mut self, nag: Nag) {
        self.out += &format!(" {nag}");
    }

    fn comment(&mut self, comment: RawComment<'_>) {
        self.out += &format!(" {{{}}}", lossy(comment.0));
    }

    fn begin_variation(&mut self) -> Skip {
        self.out += " (";
        Skip(self.skip_variations)
    }

    fn end_variation(&mut self) {
        self.out += " )";
    }

    fn outcome(&mut self, result: GameResult) {
        self.out += &format!(" {result}");
    }

    fn end_game(&mut self) -> String {
        core::mem::take(&mut self.out)
    }
}

/// A reader that hands out at most `chunk` bytes per call.
struct Trickle<'a> {
    bytes: &'a [u8],
    chunk: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = self.chunk.min(out.len()).min(self.bytes.len());
        let (now, later) = self.bytes.split_at(n);
        out[..n].copy_from_slice(now);
        self.bytes = later;
        Ok(n)
    }
}

/// Reads `input` with the slice reader and with the streaming reader at several chunk
/// sizes; all must agree. Returns one line per game.
fn read_all_with(input: &[u8], make: impl Fn() -> Transcript) -> Vec<String> {
    let mut starts = Vec::new();
    let mut reader = SliceReader::new(input);
    let mut visitor = make();
    let mut games = Vec::new();
    while let Some(game) = reader.read_game(&mut visitor) {
        starts.push(reader.game_start());
        games.push(match game {
            Ok(text) => text,
            Err(err) => format!("error: {err}"),
        });
    }
    for chunk in [1, 2, 3, 7, 64, 1 << 20] {
        let mut reader = PgnReader::new(Trickle { bytes: input, chunk });
        let mut visitor = make();
        let mut streamed = Vec::new();
        let mut streamed_starts = Vec::new();
        while let Some(game) = reader.read_game(&mut visitor) {
            streamed_starts.push(reader.game_start());
            streamed.push(match game {
                Ok(text) => text,
                Err(err) => format!("error: {err}"),
            });
        }
        assert_eq!(streamed, games, "chunk {chunk}, input {:?}", lossy(input));
        assert_eq!(streamed_starts, starts, "chunk {chunk}");
    }
    games
}

fn read_all(input: &[u8]) -> Vec<String> {
    read_all_with(input, Transcript::default)
}

fn check(input: &str, expected: &[&str]) {
    assert_eq!(read_all(input.as_bytes()), expected, "input {input:?}");
}

#[test]
fn grammar() {
    let cases: &[(&str, &[&str])] = &[
        ("", &[]),
        ("  \n\r\n  ", &[]),
        ("*", &["| *"]),
        ("1. e4 e5 2. Nf3 1-0", &["| e4 e5 Nf3 1-0"]),
        ("[Event \"x\"]\n[Site \"y\"]\n\n1. e4 0-1\n", &["[Event=x] [Site=y] | e4 0-1"]),
        // Move numbers: no space, three dots, stray dots, no dot.
        ("1.e4 1...e5 2. ... Nf3 3 Nc6 *", &["| e4 e5 Nf3 Nc6 *"]),
        ("12.Nf3 12... Nc6 *", &["| Nf3 Nc6 *"]),
        // Results.
        ("e4 1/2-1/2", &["| e4 1/2-1/2"]),
        ("e4 1/2", &["| e4 1/2-1/2"]),
        ("e4 *", &["| e4 *"]),
        // A game ends at its result; the next one may have no tags.
        ("e4 1-0 d4 0-1", &["| e4 1-0", "| d4 0-1"]),
        // No result: the game ends at the next tags or at the end of the input.
        ("e4 e5\n\n[Event \"b\"]\nd4", &["| e4 e5", "[Event=b] | d4"]),
        // Comments, line comments, NAGs and suffixes.
        ("e4 {good} e5 ; reply\r\nNf3 $1 Nc6!? *", &["| e4 {good} e5 { reply} Nf3 $1 Nc6 $5 *"]),
        ("e4! e5? Nf3!! Nc6?? Bc4!? Bc5?! *", &["| e4 $1 e5 $2 Nf3 $3 Nc6 $4 Bc4 $5 Bc5 $6 *"]),
        ("e4 ! $0 $255 *", &["| e4 $1 $0 $255 *"]),
        // Evaluation symbols written as text, as annotated books print them.
        (
            "e4 +- e5 = Nf3 \u{b1} Nc6 -+ d4 +/- exd4 \u{221e} c3 =+ d5 \u{25a1} *",
            &["| e4 $18 e5 $10 Nf3 $16 Nc6 $19 d4 $16 exd4 $13 c3 $15 d5 $7 *"],
        ),
        ("{multi\nline} e4 *", &["| {multi\nline} e4 *"]),
        ("e4{glued}e5(d5)*", &["| e4 {glued} e5 ( d5 ) *"]),
        // Variations, nested.
        (
            "1. e4 (1. d4 d5 (1... Nf6 2. c4) 2. c4) 1... e5 *",
            &["| e4 ( d4 d5 ( Nf6 c4 ) c4 ) e5 *"],
        ),
        // A result inside a variation is not the end of the game.
        ("e4 (d4 1-0) e5 *", &["| e4 ( d4 ) e5 *"]),
        // Variations left open close at the end of the game.
        ("e4 (d4 (c4", &["| e4 ( d4 ( c4 ) )"]),
        // Null moves, castling with zeros, check marks.
        ("e4 -- Z0 0-0 0-0-0+ O-O# *", &["| e4 -- -- O-O O-O-O+ O-O# *"]),
        // Commas between moves, as some old files have.
        ("1. e4, e5 2. Nf3, Nc6 *", &["| e4 e5 Nf3 Nc6 *"]),
        // Escape lines at the start of a line.
        ("% comment\n[Event \"x\"]\n%skip { ( [\ne4 *", &["[Event=x] | e4 *"]),
        // Tag values: escapes, quotes, `]`, Latin-1 and UTF-8.
        ("[A \"a \\\"b\\\" \\\\ c\"] *", &["[A=a \"b\" \\ c] | *"]),
        ("[A \"x]y\"] [B \"\"] *", &["[A=x]y] [B=] | *"]),
        ("[A \"say \"hi\" now\"] *", &["[A=say \"hi\" now] | *"]),
        ("[White \"Andr\u{e9}\"] *", &["[White=Andr\u{e9}] | *"]),
        ("[A\t  \"b\"  ]*", &["[A=b] | *"]),
        // A blank line between tags does not end them; `;` lines among tags are skipped.
        ("[A \"1\"]\n\n[B \"2\"]\n; note\n[C \"3\"]\ne4 *", &["[A=1] [B=2] [C=3] | e4 *"]),
        // Two blank lines between tags and movetext: still one game.
        ("[A \"1\"]\n\n\n1. e4 *", &["[A=1] | e4 *"]),
        // A game with tags and no movetext, then another: a second Event tag starts a new
        // game. An Event tag after others does not.
        ("[Site \"b\"]\n[Event \"a\"]\n*", &["[Site=b] [Event=a] | *"]),
        (
            "[Event \"a\"]\n[Site \"b\"]\n\n[Event \"c\"]\n*",
            &["[Event=a] [Site=b] |", "[Event=c] | *"],
        ),
        ("[Event \"a\"]\n[Site \"b\"]", &["[Event=a] [Site=b] |"]),
        // Garbage between games is skipped line by line.
        ("e4 *\n}}} junk\n\"\n-----\n\u{e9}t\u{e9}\ne5 *", &["| e4 *", "| e5 *"]),
        // CRLF.
        ("[A \"1\"]\r\n\r\n1. e4 {x}\r\n*\r\n", &["[A=1] | e4 {x} *"]),
    ];
    for (input, expected) in cases {
        check(input, expected);
    }
}

#[test]
fn comments_and_values_of_every_short_length() {
    // Around the word-at-a-time paths' boundaries: ends in and past the words looked at.
    for len in 0..48 {
        let text: String = (0..len).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
        check(&format!("e4 {{{text}}} *"), &[&format!("| e4 {{{text}}} *")]);
        check(&format!("[A \"{text}\"] *"), &[&format!("[A={text}] | *")]);
        let escaped = format!("{text}\\\"{text}");
        check(&format!("[A \"{escaped}\"] *"), &[&format!("[A={text}\"{text}] | *")]);
        check(&format!("e4 {{{text}\n{text}}} *"), &[&format!("| e4 {{{text}\n{text}}} *")]);
    }
}

#[test]
fn byte_order_mark() {
    let input = b"\xef\xbb\xbf[Event \"A\"]\n*\n\n\xef\xbb\xbf[Event \"B\"]\n*";
    let games = read_all(input);
    // Files joined with `cat` have byte order marks between games.
    assert_eq!(games, ["[Event=A] | *", "[Event=B] | *"]);
    assert_eq!(read_all(b"\xef\xbb\xbf% escape\n*"), ["| *"]);
    let mut reader = SliceReader::new(input);
    assert!(reader.read_game(&mut Transcript::default()).is_some());
    assert_eq!(reader.game_start(), 3);
}

#[test]
fn latin1_in_tags_and_comments() {
    let games =
        read_all(b"[White \"Bidjukov\xa0\"]\n[Black \"Quadros,Andr\x82\"]\n1. e4 {caf\xe9} *");
    assert_eq!(games, ["[White=Bidjukov\u{a0}] [Black=Quadros,Andr\u{82}] | e4 {caf\u{e9}} *"]);
}

#[test]
fn skipping() {
    let input = "[Event \"a\"]\n1. e4 {x (} (1. d4 {)} (1. c4) d5) e5 *\n\n1. f4 (1. g4 1-0) 0-1";
    let skip_variations = || Transcript { skip_variations: true, ..Transcript::default() };
    assert_eq!(
        read_all_with(input.as_bytes(), skip_variations),
        ["[Event=a] | e4 {x (} ( e5 *", "| f4 ( 0-1"]
    );
    let skip_movetext = || Transcript { skip_movetext: true, ..Transcript::default() };
    assert_eq!(read_all_with(input.as_bytes(), skip_movetext), ["[Event=a] |", "|"]);
    // Skipping finds the same game ends as reading.
    let tricky = "e4 ; } 1-0 (\n{ 1-0 ; } *\n%1-0\n e5 e41-0 Nf3! 1-0 d4 1/2-1/2\n[Event \"c\"] *";
    assert_eq!(read_all(tricky.as_bytes()), [
        "| e4 { } 1-0 (} { 1-0 ; } *",
        "error: game 2, line 4, column 5 (byte 34): invalid move \"e41-0\": unexpected '1' after the move",
        "| d4 1/2-1/2",
        "[Event=c] | *",
    ]);
    assert_eq!(read_all_with(tricky.as_bytes(), skip_movetext), ["|", "|", "|", "[Event=c] |"]);
    // A comment never closed inside a variation is the game's error whether the variation
    // is read or skipped (skipped, the game used to end there without one), and the next
    // game reads all the same.
    let unclosed = "[Event \"a\"]\n\n1. e4 (1. d4 {open 1... d5) e5 *\n\n[Event \"b\"]\n\n1. c4 *";
    let error = "error: game 1, line 3, column 14 (byte 26): comment not closed: '{' without '}'";
    assert_eq!(read_all(unclosed.as_bytes()), [error, "[Event=b] | c4 *"]);
    assert_eq!(read_all_with(unclosed.as_bytes(), skip_variations), [error, "[Event=b] | c4 *"]);
    // `e.p.` after an en passant capture is a remark, not a move.
    assert_eq!(read_all(b"exd6 e.p. exd6 e.p.! Nf3 e.p.x *"), [
        "error: game 1, line 1, column 26 (byte 25): invalid move \"e\": expected a rank 1..8 to complete the square, found the end of the text",
    ]);
    assert_eq!(read_all(b"exd6 e.p. Nf3 e.p.\n*"), ["| exd6 Nf3 *"]);
    // Every evaluation symbol is reached by the scanner's dispatch on its first byte.
    for (symbol, nag) in Nag::SYMBOLS {
        let input = format!("e4 {symbol} e5\n{symbol}\n*");
        assert_eq!(read_all(input.as_bytes()), [format!("| e4 ${nag} e5 ${nag} *")], "{symbol}");
    }
    // A `+` or `=` that starts no symbol is the error it always was.
    assert_eq!(
        read_all(b"e4 + e5 *"),
        ["error: game 1, line 1, column 4 (byte 3): unexpected character '+'",]
    );
}

#[test]
fn skip_game_and_starts() {
    let input = b"[Event \"a\"]\n1. e4 *\n\n[Event \"b\"]\n1. d4 *\n";
    let mut reader = SliceReader::new(input);
    assert!(matches!(reader.skip_game(), Some(Ok(()))));
    assert_eq!(reader.game_start(), 0);
    assert!(matches!(reader.skip_game(), Some(Ok(()))));
    assert_eq!(reader.game_start(), 21);
    assert!(reader.skip_game().is_none());
    assert_eq!(reader.games(), 2);
}

#[test]
fn errors_and_recovery() {
    let cases: &[(&str, &[&str])] = &[
        (
            "e4 Xe9 e5 *\ne4 *",
            &["error: game 1, line 1, column 4 (byte 3): invalid move \"Xe9\": expected a square such as e4, found 'X'", "| e4 *"],
        ),
        (
            "[Event \"a\"]\n[Site \"b]\n[Date \"c\"]\n1. e4 *\n\n[Event \"d\"] *",
            &["error: game 1, line 2, column 10 (byte 21): invalid tag: the line ends inside the tag value", "[Event=d] | *"],
        ),
        (
            "[Event \"a\"]\n[Site b]\n1. e4 *\n[Event \"d\"] *",
            &["error: game 1, line 2, column 7 (byte 18): invalid tag: expected a value in quotes after the tag name", "[Event=d] | *"],
        ),
        (
            "[ \"a\"] *\n1. d4 *",
            &["error: game 1, line 1, column 3 (byte 2): invalid tag: expected a tag name after '['", "| d4 *"],
        ),
        // A quote not followed by `]` is part of the value; the line after a broken tag
        // section is the broken game's movetext.
        (
            "[A \"a\" x *\n1. d4 *\n1. c4 *",
            &["error: game 1, line 1, column 11 (byte 10): invalid tag: the line ends inside the tag value", "| c4 *"],
        ),
        (
            "[A \"a\"",
            &["error: game 1, line 1, column 7 (byte 6): invalid tag: expected ']' after the tag value"],
        ),
        (
            "1. e4 {never closed\n\n[Event \"b\"]\n1. d4 *",
            &["error: game 1, line 1, column 7 (byte 6): comment not closed: '{' without '}'", "[Event=b] | d4 *"],
        ),
        (
            "1. e4 {never closed",
            &["error: game 1, line 1, column 7 (byte 6): comment not closed: '{' without '}'"],
        ),
        (
            "1. e4 e5) d4 *\n1. c4 *",
            &["error: game 1, line 1, column 9 (byte 8): ')' without a variation to close", "| c4 *"],
        ),
        (
            "1. e4 $256 *\n1. c4 *",
            &["error: game 1, line 1, column 7 (byte 6): invalid annotation \"$256\"", "| c4 *"],
        ),
        (
            "1. e4 !!! *\n1. c4 *",
            &["error: game 1, line 1, column 7 (byte 6): invalid annotation \"!!!\"", "| c4 *"],
        ),
        (
            "1. e4 & *\n1. c4 *",
            &["error: game 1, line 1, column 7 (byte 6): unexpected character '&'", "| c4 *"],
        ),
        (
            "1. e4 \u{e9} *\n1. c4 *",
            &["error: game 1, line 1, column 7 (byte 6): unexpected character '\\xc3'", "| c4 *"],
        ),
        (
            "e4 %x *\n1. c4 *",
            &["error: game 1, line 1, column 4 (byte 3): unexpected character '%'", "| c4 *"],
        ),
        // An error inside a variation skips the rest of the game, variations included.
        (
            "1. e4 (1. d4 Qx) e5 (e6 (d6) 1-0) 0-1\n1. c4 *",
            &["error: game 1, line 1, column 14 (byte 13): invalid move \"Qx\": expected a square such as e4, found the end of the text", "| c4 *"],
        ),
        // Errors count lines across games; the game number counts broken games.
        (
            "e4 *\n\ne5 *\n\n\r\n  e4 Ke9 *\ne4 *",
            &["| e4 *", "| e5 *", "error: game 3, line 6, column 6 (byte 19): invalid move \"Ke9\": expected a rank 1..8 to complete the square, found '9'", "| e4 *"],
        ),
    ];
    for (input, expected) in cases {
        check(input, expected);
    }
}

/// The games of `input`, those that read well shortened to "ok".
fn short(input: &str) -> Vec<String> {
    read_all(input.as_bytes())
        .into_iter()
        .map(|game| if game.starts_with("error") || game.len() < 40 { game } else { "ok".into() })
        .collect()
}

#[test]
fn limits() {
    let deep = "(e4 ".repeat(MAX_VARIATION_DEPTH);
    let games = read_all(format!("d4 {deep} *").as_bytes());
    assert_eq!(games.len(), 1);
    assert!(games[0].ends_with(&" )".repeat(MAX_VARIATION_DEPTH)), "{}", games[0]);
    let games = read_all(format!("d4 {deep}(e4 *\n[Event \"b\"]\n1. c4 *").as_bytes());
    let offset = 3 + 4 * MAX_VARIATION_DEPTH;
    assert_eq!(games, [
        format!("error: game 1, line 1, column {} (byte {offset}): variations nested deeper than 64 levels", offset + 1),
        "[Event=b] | c4 *".to_string(),
    ]);

    let long = "x".repeat(MAX_COMMENT_LEN);
    assert_eq!(short(&format!("e4 {{{long}}} *")), ["ok"]);
    assert_eq!(short(&format!("e4 ;{long}\n*")), ["ok"]);
    let games = short(&format!("e4 {{{long}y}} *\n1. c4 *"));
    assert_eq!(
        games,
        ["error: game 1, line 1, column 4 (byte 3): comment longer than 1048576 bytes", "| c4 *"]
    );
    let games = short(&format!("e4 ;{long}y\n*\n1. c4 *"));
    assert_eq!(
        games,
        ["error: game 1, line 1, column 4 (byte 3): comment longer than 1048576 bytes", "| c4 *"]
    );

    // `[A "` and `"]` around the value: 6 bytes.
    let value = "v".repeat(MAX_TAG_LEN - 6);
    assert_eq!(short(&format!("[A \"{value}\"] *")), ["ok"]);
    let games = short(&format!("[A \"{value}v\"] *\n\n1. c4 *"));
    assert_eq!(
        games,
        ["error: game 1, line 1, column 1 (byte 0): tag longer than 65536 bytes", "| c4 *"]
    );

    let token = "a".repeat(MAX_TOKEN_LEN + 1);
    let games = read_all(format!("e4 {token} *\n1. c4 *").as_bytes());
    assert_eq!(
        games,
        ["error: game 1, line 1, column 4 (byte 3): token longer than 64 bytes", "| c4 *"]
    );
    let number = "1".repeat(MAX_TOKEN_LEN + 1);
    let games = read_all(format!("e4 {number}. e5 *\n1. c4 *").as_bytes());
    assert_eq!(
        games,
        ["error: game 1, line 1, column 4 (byte 3): token longer than 64 bytes", "| c4 *"]
    );
}

/// The error of the first game of `input`, read with `visitor`.
fn message<V: Visitor>(input: &str, mut visitor: V) -> String
where
    V::Error: fmt::Display,
{
    match SliceReader::new(input.as_bytes()).read_game(&mut visitor) {
        Some(Err(err)) => err.to_string(),
        _ => "no error".to_string(),
    }
}

#[test]
fn error_messages() {
    use crate::{Replay, TreeBuilder};
    let t = Transcript::default;
    insta::assert_snapshot!(message("[ \"x\"]", t()), @r#"game 1, line 1, column 3 (byte 2): invalid tag: expected a tag name after '['"#);
    insta::assert_snapshot!(message("[Event x]", t()), @r#"game 1, line 1, column 8 (byte 7): invalid tag: expected a value in quotes after the tag name"#);
    insta::assert_snapshot!(message("[Event \"x\nx\"]", t()), @r#"game 1, line 1, column 10 (byte 9): invalid tag: the line ends inside the tag value"#);
    insta::assert_snapshot!(message("[Event \"x\" x", t()), @r#"game 1, line 1, column 13 (byte 12): invalid tag: the line ends inside the tag value"#);
    insta::assert_snapshot!(message(&format!("[A \"{}\"]", "v".repeat(MAX_TAG_LEN)), t()), @r#"game 1, line 1, column 1 (byte 0): tag longer than 65536 bytes"#);
    insta::assert_snapshot!(message("1. e4 {open", t()), @r#"game 1, line 1, column 7 (byte 6): comment not closed: '{' without '}'"#);
    insta::assert_snapshot!(message(&format!("{{{}}}", "c".repeat(MAX_COMMENT_LEN + 1)), t()), @r#"game 1, line 1, column 1 (byte 0): comment longer than 1048576 bytes"#);
    insta::assert_snapshot!(message("1. e4 e9", t()), @r#"game 1, line 1, column 7 (byte 6): invalid move "e9": expected a rank 1..8 to complete the square, found '9'"#);
    insta::assert_snapshot!(message("1. e4 Qxx4", t()), @r#"game 1, line 1, column 7 (byte 6): invalid move "Qxx4": expected a square such as e4, found 'x'"#);
    insta::assert_snapshot!(message(&format!("1. {}", "N".repeat(MAX_TOKEN_LEN + 1)), t()), @r#"game 1, line 1, column 4 (byte 3): token longer than 64 bytes"#);
    insta::assert_snapshot!(message("1. e4 $300", t()), @r#"game 1, line 1, column 7 (byte 6): invalid annotation "$300""#);
    insta::assert_snapshot!(message("1. e4 ?!?", t()), @r#"game 1, line 1, column 7 (byte 6): invalid annotation "?!?""#);
    insta::assert_snapshot!(message("1. e4 <", t()), @r#"game 1, line 1, column 7 (byte 6): unexpected character '<'"#);
    insta::assert_snapshot!(message("1. e4 )", t()), @r#"game 1, line 1, column 7 (byte 6): ')' without a variation to close"#);
    insta::assert_snapshot!(message(&"(".repeat(MAX_VARIATION_DEPTH + 1), t()), @r#"game 1, line 1, column 65 (byte 64): variations nested deeper than 64 levels"#);
    insta::assert_snapshot!(message("[FEN \"8/8/8 w - - 0 1\"]", Replay::default()), @r#"game 1, line 1, column 1 (byte 0): invalid FEN tag: placement (byte 5): only 3 ranks, expected 8"#);
    insta::assert_snapshot!(message("[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]", Replay::default()), @r#"game 1, line 1, column 1 (byte 0): invalid FEN tag: white has no king, black has no king"#);
    insta::assert_snapshot!(message("1. e4 e5 2. Ke3", Replay::default()), @r#"game 1, line 1, column 13 (byte 12): ply 3 (Ke3): illegal move Ke3"#);
    insta::assert_snapshot!(message("[FEN \"4k3/8/8/8/8/8/8/1N3N1K w - - 0 1\"] 1. Nd2", Replay::default()), @r#"game 1, line 1, column 45 (byte 44): ply 1 (Nd2): ambiguous move Nd2: Nb1d2 or Nf1d2"#);
    insta::assert_snapshot!(message("1. e4 f5 2. Qh5+ --", Replay::default()), @r#"game 1, line 1, column 18 (byte 17): ply 4: a null move in check"#);
    insta::assert_snapshot!(message("[Event \"e\"] [Variant \"Atomic\"] 1. Nf3", Replay::default()), @r#"game 1, line 1, column 32 (byte 31): variant "Atomic" is not supported"#);
    insta::assert_snapshot!(message("[Variant \"Three-check\"] 1. e4", TreeBuilder::default()), @r#"game 1, line 1, column 25 (byte 24): variant "Three-check" is not supported"#);
    insta::assert_snapshot!(message("1. e4 f5 2. Qh5+ (2. Nf3) --", TreeBuilder::default()), @r#"game 1, line 1, column 27 (byte 26): ply 4: a null move in check"#);
    insta::assert_snapshot!(message("1. e4 (1. d4 d5 2. Ke3)", TreeBuilder::default()), @r#"game 1, line 1, column 20 (byte 19): ply 3 (Ke3): illegal move Ke3"#);
}

#[test]
fn line_breaks_are_counted() {
    for len in [0usize, 1, 31, 32, 33, 255 * 32 - 1, 255 * 32, 255 * 32 + 1, 20_000] {
        let bytes: Vec<u8> = (0..len).map(|i| if i % 3 == 0 { b'\n' } else { b'x' }).collect();
        assert_eq!(count_line_breaks(&bytes), len.div_ceil(3), "{len}");
        assert_eq!(count_line_breaks(&vec![b'\n'; len]), len, "{len}");
    }
}

#[test]
fn mutated_games_never_panic() {
    use crate::{Replay, TreeBuilder};
    let sample: &[u8] = b"\xef\xbb\xbf[Event \"x \\\" y\"]\r\n[FEN \"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\"]\n\n\
        % escape\n1. O-O {[%clk 0:01:00] [%eval #-3,4]} O-O-O! (1... Kd8 $12 ; line\n2. Rf7 (2. -- Kc8)) \
        2. Rad1 Rxd1 1/2-1/2\n\n1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.O-O Be7 6.Re1 b5 7.Bb3 d6 *\n";
    // A small xorshift generator: the same mutations every run.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let alphabet = b"[]{}()\";%$!?*.-019NBRQKOxa h\n\r\t\\\xe9";
    for _ in 0..2000 {
        let mut input = sample.to_vec();
        for _ in 0..1 + next(6) {
            let at = next(input.len() + 1);
            match next(4) {
                0 => input.insert(at, alphabet[next(alphabet.len())]),
                1 if at < input.len() => {
                    input.remove(at);
                }
                2 => input.truncate(at),
                _ if at < input.len() => input[at] = next(256) as u8,
                _ => {}
            }
        }
        // The transcript compares the slice reader with the streaming one.
        read_all(&input);
        let mut reader = SliceReader::new(&input);
        while reader.read_game(&mut Replay::default()).is_some() {}
        let mut reader = SliceReader::new(&input);
        let mut trees = TreeBuilder::default();
        while let Some(game) = reader.read_game(&mut trees) {
            if let Ok(game) = game {
                let _ = game.to_string();
            }
        }
    }
}

#[test]
fn read_errors_end_the_input() {
    struct Failing(usize);
    impl Read for Failing {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            if self.0 == 0 {
                return Err(io::Error::other("disk on fire"));
            }
            let text = b"1. e4 *\n";
            let n = text.len().min(out.len());
            out[..n].copy_from_slice(&text[..n]);
            self.0 -= 1;
            Ok(n)
        }
    }
    let mut reader = PgnReader::new(Failing(2));
    let mut visitor = Transcript::default();
    let mut games = Vec::new();
    while let Some(game) = reader.read_game(&mut visitor) {
        games.push(game.map_err(|e| e.to_string()));
    }
    assert_eq!(
        games,
        [
            Ok("| e4 *".to_string()),
            Ok("| e4 *".to_string()),
            Err("game 3, line 3, column 1 (byte 16): read error: disk on fire".to_string()),
        ]
    );
}

/// A game cut inside a comment (or a move) by a read error is not reported as a broken
/// game: the read error, which is no game, stands for it, in every reader.
#[test]
fn a_game_a_read_error_cuts_is_the_read_error() {
    struct Cut(&'static [u8]);
    impl Read for Cut {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Err(io::Error::other("stream broken"));
            }
            let n = self.0.len().min(out.len());
            out[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }
    for cut in
        [&b"1. e4 *\n\n1. d4 { a comment cut sh"[..], b"1. e4 *\n\n1. d4 Nf", b"1. e4 *\n\n1. Ke"]
    {
        let mut reader = PgnReader::new(Cut(cut));
        let mut games = Vec::new();
        while let Some(game) = reader.read_game(&mut crate::Replay::default()) {
            games.push(game.map(|_| ()).map_err(|e| e.to_string()));
        }
        assert_eq!(games.len(), 2, "{games:?}");
        assert_eq!(games[0], Ok(()));
        let err = games[1].as_ref().unwrap_err();
        assert!(err.contains("read error: stream broken"), "{err}");
    }
}
