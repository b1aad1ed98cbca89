//! Writing a [`PgnGame`] in PGN export format (the standard's section 8).

use core::fmt;

use chessbits_bitboard::Color;
use chessbits_move::CastlingMode;
use chessbits_state::Position;

use super::tree::{Node, PgnGame, Variation};
use chessbits_notation::fen::Fen;

/// The longest line written, when no single token is longer: the standard's "less than 80".
pub const MAX_LINE_LEN: usize = 79;

/// Writes the game in export format: tags, a blank line, the movetext, a line break. Games
/// in a file are separated by one more line break (a blank line).
impl fmt::Display for PgnGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let result = self.result.as_str();
        let has_fen = self.tags.get("FEN").is_some();
        for (i, (name, value)) in self.tags.export_order().into_iter().enumerate() {
            let value =
                if name == "Result" && self.tags.get("Result").is_none() { result } else { value };
            write_tag(f, name, value)?;
            if i == 6 && !has_fen && !is_standard_start(&self.start) {
                write_tag(f, "SetUp", "1")?;
                write_tag(f, "FEN", &Fen::from_position(&self.start).to_string())?;
            }
        }
        f.write_str("\n")?;
        let mut tokens = Tokens::default();
        let turn = Turn { color: self.start.turn(), fullmove: self.start.fullmoves() };
        tokens.variation(&self.mainline, turn);
        tokens.push(result.to_string());
        tokens.write(f)
    }
}

/// `true` for the standard start position, in either castling mode (a `Variant` tag carries
/// the mode; no FEN tag is needed for it).
fn is_standard_start(start: &Position) -> bool {
    let mut standard = *start;
    standard.set_castling_mode(CastlingMode::Standard).is_ok() && standard == Position::new()
}

/// `[Name "value"]` with `\` and `"` escaped, and line breaks (which a tag cannot hold) as
/// spaces.
fn write_tag(f: &mut fmt::Formatter<'_>, name: &str, value: &str) -> fmt::Result {
    write!(f, "[{name} \"")?;
    for c in value.chars() {
        match c {
            '\\' => f.write_str("\\\\")?,
            '"' => f.write_str("\\\"")?,
            '\n' | '\r' => f.write_str(" ")?,
            c => write!(f, "{c}")?,
        }
    }
    f.write_str("\"]\n")
}

/// Whose move it is and the move number.
#[derive(Copy, Clone, Debug)]
struct Turn {
    color: Color,
    fullmove: u32,
}

impl Turn {
    fn next(self) -> Turn {
        match self.color {
            Color::White => Turn { color: Color::Black, fullmove: self.fullmove },
            Color::Black => Turn { color: Color::White, fullmove: self.fullmove.saturating_add(1) },
        }
    }
}

/// The movetext as unbreakable tokens, then laid out in lines.
#[derive(Default)]
struct Tokens {
    tokens: Vec<String>,
    /// Glued to the front of the next token (`(`).
    prefix: String,
}

impl Tokens {
    fn push(&mut self, token: String) {
        let token =
            if self.prefix.is_empty() { token } else { core::mem::take(&mut self.prefix) + &token };
        self.tokens.push(token);
    }

    /// Glues `text` to the end of the last token (`)`).
    fn glue(&mut self, text: &str) {
        if !self.prefix.is_empty() {
            // An empty variation: `()`.
            let prefix = core::mem::take(&mut self.prefix);
            self.tokens.push(prefix + text);
        } else if let Some(last) = self.tokens.last_mut() {
            last.push_str(text);
        }
    }

    /// A comment `{ ... }`, split into words; nothing if it has none (a `}` is no word).
    /// Says whether it wrote one.
    fn comment(&mut self, words: &[&str]) -> bool {
        let words: Vec<String> =
            words.iter().map(|w| w.replace('}', "")).filter(|w| !w.is_empty()).collect();
        let count = words.len();
        for (i, word) in words.into_iter().enumerate() {
            let word = if i == 0 { format!("{{ {word}") } else { word };
            let word = if i + 1 == count { format!("{word} }}") } else { word };
            self.push(word);
        }
        count > 0
    }

    /// A line from `turn`: its first move always has its number, a black move after a comment
    /// or variation too.
    fn variation(&mut self, line: &Variation, mut turn: Turn) {
        let mut number = true;
        for comment in &line.comments {
            let words: Vec<&str> = comment.split_ascii_whitespace().collect();
            let _ = self.comment(&words);
        }
        for node in &line.moves {
            match turn.color {
                Color::White => self.push(format!("{}.", turn.fullmove)),
                Color::Black if number => self.push(format!("{}...", turn.fullmove)),
                Color::Black => {}
            }
            number = self.node(node, turn);
            turn = turn.next();
        }
    }

    /// Writes a move and what follows it; says whether the next move needs its number.
    fn node(&mut self, node: &Node, turn: Turn) -> bool {
        self.push(node.san.to_string());
        for nag in &node.nags {
            self.push(nag.to_string());
        }
        let mut number = false;
        let eval = node.eval.map(|e| format!("[%eval {e}]"));
        let clock = node.clock.map(|c| format!("[%clk {c}]"));
        let mut first: Vec<&str> = eval.iter().chain(clock.iter()).map(String::as_str).collect();
        let mut comments = node.comments.iter();
        if let Some(text) = comments.next() {
            first.extend(text.split_ascii_whitespace());
        }
        // A black move after a comment needs its number; a comment of no words (a `;`
        // comment of `}` alone) is not written, and so needs none: the output read and
        // written again is the same.
        number |= self.comment(&first);
        for text in comments {
            let words: Vec<&str> = text.split_ascii_whitespace().collect();
            number |= self.comment(&words);
        }
        for variation in &node.variations {
            self.prefix.push('(');
            // An alternative to this move: from the same position and move number.
            self.variation(variation, turn);
            self.glue(")");
            number = true;
        }
        number
    }

    /// Lays the tokens out in lines of at most [`MAX_LINE_LEN`] bytes, one space apart.
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut line = 0;
        for token in &self.tokens {
            if line > 0 {
                // Never start a line with what would read as an escape or a tag pair.
                let risky = token.starts_with('%')
                    || (token.starts_with('[')
                        && token.as_bytes().get(1).is_some_and(u8::is_ascii_alphabetic));
                if line + 1 + token.len() > MAX_LINE_LEN && !risky {
                    f.write_str("\n")?;
                    line = 0;
                } else {
                    f.write_str(" ")?;
                    line += 1;
                }
            }
            f.write_str(token)?;
            line += token.len();
        }
        f.write_str("\n")
    }
}

#[cfg(test)]
mod tests {
    use crate::{read_games, PgnGame};

    /// Reads one game, writes it, and checks that the output reads back to the same bytes.
    fn export(pgn: &str) -> String {
        let mut games = read_games(pgn.as_bytes());
        let game: PgnGame = games.next().unwrap().unwrap();
        assert!(games.next().is_none());
        let written = game.to_string();
        let again = read_games(written.as_bytes()).next().unwrap().unwrap();
        assert_eq!(again.to_string(), written, "not stable");
        // Lines are short, but for a single token longer than a line.
        let single = |l: &str| !l.trim_start_matches("{ ").trim_end_matches(" }").contains(' ');
        assert!(written.lines().all(|l| l.len() <= super::MAX_LINE_LEN || single(l)), "{written}");
        written
    }

    #[test]
    fn annotated_game() {
        let pgn = r#"[White "Tal, \"Misha\""] [Black "C:\\chess"] [Event "Riga"] [Opening "Sicilian"]
{Opening comment
over two lines} 1.e4! c5 $14 2.Nf3 {A} {B} d6 (2...Nc6 {transposes} 3.d4 (3.Bb5 g6) 3...cxd4) (2...e6!?) 3.d4 cxd4 4.Nxd4 Nf6 5.Nc3 a6 6.Bg5 e6 7.f4 Qb6 8.Qd2 Qxb2 9.Rb1 Qa3 10.f5 Nc6 11.fxe6 fxe6 12.Nxc6 bxc6 13.e5 dxe5 14.Bxf6 gxf6 15.Ne4 Be7 16.Be2 h5 17.Rb3 Qa4 18.Nxf6+ Bxf6 19.c4 Bh4+ 20.g3 1-0"#;
        insta::assert_snapshot!(export(pgn), @r#"
[Event "Riga"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "Tal, \"Misha\""]
[Black "C:\\chess"]
[Result "1-0"]
[Opening "Sicilian"]

{ Opening comment over two lines } 1. e4 $1 c5 $14 2. Nf3 { A } { B } 2... d6
(2... Nc6 { transposes } 3. d4 (3. Bb5 g6) 3... cxd4) (2... e6 $5) 3. d4 cxd4
4. Nxd4 Nf6 5. Nc3 a6 6. Bg5 e6 7. f4 Qb6 8. Qd2 Qxb2 9. Rb1 Qa3 10. f5 Nc6 11.
fxe6 fxe6 12. Nxc6 bxc6 13. e5 dxe5 14. Bxf6 gxf6 15. Ne4 Be7 16. Be2 h5 17.
Rb3 Qa4 18. Nxf6+ Bxf6 19. c4 Bh4+ 20. g3 1-0
"#);
    }

    #[test]
    fn position_start_clocks_null_moves_and_long_comments() {
        let pgn = r#"[Event "Blitz"] [FEN "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 30"] [Result "*"]
30... O-O-O {[%clk 0:01:02.5] [%eval -0.3,18] [%csl Ga1] A comment long enough to wrap, with a word that is longer than a whole line: https://example.invalid/a/very/long/address/that/does/not/fit/on/one/line/of/eighty/columns ok} 31. O-O (31. -- {pass} Rd1+ 32. Ke2) 31... Rh2 *"#;
        insta::assert_snapshot!(export(pgn), @r#"
[Event "Blitz"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "*"]
[FEN "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 3 30"]

30... O-O-O { [%eval -0.30,18] [%clk 0:01:02.5] [%csl Ga1] A comment long
enough to wrap, with a word that is longer than a whole line:
https://example.invalid/a/very/long/address/that/does/not/fit/on/one/line/of/eighty/columns
ok } 31. O-O (31. -- { pass } 31... Rd1+ 32. Ke2) 31... Rh2 *
"#);
    }

    #[test]
    fn chess960_castling() {
        let pgn = r#"[Variant "Chess960"] [FEN "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1"]
1. O-O O-O 2. Rb7 Kh8 1/2-1/2"#;
        let written = export(pgn);
        insta::assert_snapshot!(written, @r#"
[Event "?"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "1/2-1/2"]
[Variant "Chess960"]
[FEN "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1"]

1. O-O O-O 2. Rb7 Kh8 1/2-1/2
"#);
        let game = crate::read_games(written.as_bytes()).next().unwrap().unwrap();
        assert!(game.is_chess960());
    }

    #[test]
    fn empty_games() {
        insta::assert_snapshot!(export("*"), @r#"
[Event "?"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "*"]

*
"#);
        insta::assert_snapshot!(export("[Result \"1/2-1/2\"]"), @r#"
[Event "?"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "1/2-1/2"]

1/2-1/2
"#);
        insta::assert_snapshot!(export("{Only a comment} 0-1"), @r#"
[Event "?"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "0-1"]

{ Only a comment } 0-1
"#);
    }

    #[test]
    fn a_start_position_without_fen_tag_gets_one() {
        let start =
            chessbits_notation::fen::parse_position("4k3/8/8/8/8/8/8/4K2R b K - 5 40").unwrap();
        let game = PgnGame { start, ..PgnGame::default() };
        let written = game.to_string();
        assert!(
            written.contains(
                "[Result \"*\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R b K - 5 40\"]\n"
            ),
            "{written}"
        );
        let again = read_games(written.as_bytes()).next().unwrap().unwrap();
        assert_eq!(again.start, game.start);
        assert_eq!(again.to_string(), written);
    }

    /// What a trial of the writer found (session 35): a `;` comment of `}` alone, which no
    /// comment is written for, numbered the next black move as if one were (`1. e4 1... e5`,
    /// then `1. e4 e5` written again); a roster tag given twice lost its second value.
    #[test]
    fn nothing_written_needs_no_number_and_no_tag_value_is_dropped() {
        let written = export("[Event \"x\"]\n1. e4 ; }\ne5 *");
        assert!(written.ends_with("\n1. e4 e5 *\n"), "{written}");
        let written = export(
            "[Event \"e\"]\n[White \"first\"]\n[White \"second\"]\n[Result \"1-0\"]\n[Result \"0-1\"]\n\n1. e4 e5 1-0",
        );
        assert!(written.contains("[White \"first\"]\n[Black \"?\"]\n[Result \"1-0\"]\n[White \"second\"]\n[Result \"0-1\"]\n"), "{written}");
    }
}
