//! FEN over the perft suites in `testdata/perft` (at the workspace root): print -> parse and parse -> print round trips,
//! Chess960 detection, and a deterministic mutation fuzz that nothing panics.

use std::collections::HashMap;

use chessbits_bitboard::{Color, File, Rank, Square};
use chessbits_move::CastlingMode;
use chessbits_movegen::repetition_key;
use chessbits_notation::epd::Epd;
use chessbits_notation::fen::{
    fen_of, parse_position, CastlingNotation, EnPassantMode, Fen, FenField, FenOptions,
};
use chessbits_state::{CastlingSide, Position};

use chessbits_testkit::Rng;
use chessbits_testkit::SUITES;

/// Every suite line as (suite, line number, FEN), read as EPD: the FEN is the line without its
/// perft operations, which must be exactly ` ;D1 n ;D2 n ...` after it.
fn suite_fens() -> Vec<(&'static str, usize, &'static str)> {
    let mut fens = Vec::new();
    for (name, text) in SUITES {
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let epd: Epd = line.parse().unwrap_or_else(|e| panic!("{name}:{}: {e}", i + 1));
            let counts: Vec<String> =
                epd.perft_counts().map(|(d, n)| format!(" ;D{d} {n}")).collect();
            let fen = line.trim().strip_suffix(&counts.concat());
            fens.push((name, i + 1, fen.unwrap_or_else(|| panic!("{name}:{}: {line}", i + 1))));
        }
    }
    fens
}

/// The castling mode a position parsed from `fen` must have: Chess960 when the castling field
/// names a rook by its file (Shredder-FEN) or a right needs Chess960 notation.
fn expected_mode(fen: &str, pos: &Position) -> CastlingMode {
    if uses_file_letters(fen) || has_chess960_rights(pos) {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    }
}

/// `pos` with its castling mode set to `mode` where its rights allow (FEN cannot always carry the
/// mode: `-` and X-FEN's `KQkq` with the king on e and rooks in the corners read as standard).
fn with_mode(mut pos: Position, mode: CastlingMode) -> Position {
    // Refused only for Standard where the rights need Chess960, and then both are Chess960.
    let _ = pos.set_castling_mode(mode);
    pos
}

/// `true` if the castling field names rooks by file (Shredder-FEN, or X-FEN for inner rooks).
fn uses_file_letters(fen: &str) -> bool {
    let castling = fen.split(' ').filter(|f| !f.is_empty()).nth(2).unwrap_or("-");
    castling.bytes().any(|b| matches!(b.to_ascii_lowercase(), b'a'..=b'h'))
}

fn options(castling: CastlingNotation) -> FenOptions {
    FenOptions { castling, en_passant: EnPassantMode::Always }
}

#[test]
fn suites_round_trip() {
    let fens = suite_fens();
    assert_eq!(fens.len(), 7 + 127 + 300 + 200 + 200, "every suite line is read");
    for (suite, line, fen) in fens {
        let at = format!("{suite}:{line}: {fen}");
        let pos = parse_position(fen).unwrap_or_else(|e| panic!("{at}: {e}"));

        // Printing reproduces the line exactly, in the notation it was written in.
        let notation = if uses_file_letters(fen) {
            CastlingNotation::Shredder
        } else {
            CastlingNotation::XFen
        };
        assert_eq!(fen_of(&pos, options(notation)), fen, "{at}");
        if notation == CastlingNotation::XFen {
            assert_eq!(Fen::from_position(&pos).to_string(), fen, "{at}");
        }

        // Parsing what was printed gives the position back, in every notation and mode; the
        // castling mode is what the printed notation says.
        for castling in [CastlingNotation::XFen, CastlingNotation::Shredder] {
            let printed = fen_of(&pos, options(castling));
            let reparsed = parse_position(&printed).unwrap_or_else(|e| panic!("{at}: {e}"));
            assert_eq!(reparsed.castling_mode(), expected_mode(&printed, &pos), "{at}: {printed}");
            assert_eq!(with_mode(reparsed, pos.castling_mode()), pos, "{at}: {printed}");
        }

        // The suites write an en passant square only when a pawn stands ready to capture (38
        // lines, all in tricky.epd and chess960.epd), so the PseudoLegal mode prints them too.
        let pseudo = FenOptions { castling: notation, en_passant: EnPassantMode::PseudoLegal };
        assert_eq!(fen_of(&pos, pseudo), fen, "{at}");
    }
}

/// `true` if some castling right of `pos` uses a rook off its corner or a king off the e-file,
/// worked out from the squares alone.
fn has_chess960_rights(pos: &Position) -> bool {
    Color::ALL.into_iter().any(|color| {
        let back = Rank::First.relative_to(color);
        CastlingSide::ALL.into_iter().any(|side| {
            let corner = match side {
                CastlingSide::KingSide => File::H,
                CastlingSide::QueenSide => File::A,
            };
            pos.castles().rook(color, side).is_some_and(|rook| {
                rook != Square::from_coords(corner, back)
                    || pos.king_of(color) != Square::from_coords(File::E, back)
            })
        })
    })
}

#[test]
fn chess960_positions_are_detected() {
    let mut chess960 = 0;
    for (suite, line, fen) in suite_fens() {
        let pos = parse_position(fen).unwrap_or_else(|e| panic!("{suite}:{line}: {e}"));
        let expected =
            if has_chess960_rights(&pos) { CastlingMode::Chess960 } else { CastlingMode::Standard };
        assert_eq!(pos.castling_mode(), expected, "{suite}:{line}: {fen}");
        if expected == CastlingMode::Chess960 {
            assert_eq!(suite, "chess960", "{suite}:{line}: {fen}");
            chess960 += 1;
        }
    }
    // Of the 200 Chess960 lines, 99 have no castling rights and 2 have only rights with the king
    // on e and the rooks in the corners; the other 99 need Chess960 castling.
    assert_eq!(chess960, 99);
}

/// A position in `text` (`len` inclusive if `end`): half the time anywhere, half the time in a
/// field picked at random, so the short fields get as much attention as the placement.
fn site(rng: &mut Rng, text: &[u8], end: bool) -> usize {
    let fields = field_spans(text);
    let (start, stop) = if fields.is_empty() || rng.below(2) == 0 {
        (0, text.len())
    } else {
        fields[rng.below(fields.len())]
    };
    start + rng.below(stop - start + usize::from(end))
}

/// The bytes FEN uses, which mutations mostly draw from.
const PALETTE: &[u8] = b"pnbrqkPNBRQK123456789/ wb-KQkqABCDEFGHabcdefgh0;\t\xc3\xff";

/// Changes `text` once: replaces, inserts or deletes a byte, swaps two piece letters,
/// duplicates a field, or truncates.
fn mutate(rng: &mut Rng, text: &mut Vec<u8>) {
    if text.is_empty() {
        text.push(rng.byte_from(PALETTE));
        return;
    }
    match rng.below(6) {
        0 => {
            let i = site(rng, text, false);
            text[i] = rng.byte_from(PALETTE);
        }
        1 => {
            let i = site(rng, text, true);
            let b = rng.byte_from(PALETTE);
            text.insert(i, b);
        }
        2 => {
            let i = site(rng, text, false);
            text.remove(i);
        }
        // Swapping two piece letters moves pieces without breaking the syntax: these mutants
        // exercise the position checks rather than the parser.
        3 => {
            let letters: Vec<usize> = (0..text.len())
                .take_while(|&i| text[i] != b' ')
                .filter(|&i| text[i].is_ascii_alphabetic())
                .collect();
            if !letters.is_empty() {
                let (i, j) = (rng.below(letters.len()), rng.below(letters.len()));
                text.swap(letters[i], letters[j]);
            }
        }
        4 => {
            let fields = field_spans(text);
            if !fields.is_empty() {
                let (start, end) = fields[rng.below(fields.len())];
                let copy: Vec<u8> = [b" ", &text[start..end]].concat();
                text.splice(end..end, copy);
            }
        }
        _ => {
            let i = site(rng, text, true);
            text.truncate(i);
        }
    }
}

/// The byte ranges of the space-separated fields of `text`.
fn field_spans(text: &[u8]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = None;
    for (i, &b) in text.iter().chain([b' '].iter()).enumerate() {
        match (b == b' ', start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                spans.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    spans
}

/// What became of one mutated input.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Outcome {
    Syntax(FenField),
    Illegal,
    Legal,
}

/// Parses `text` and checks the round trips that must hold for whatever parses.
fn check_mutant(text: &[u8]) -> Outcome {
    let parsed = Fen::from_ascii(text);
    if let Ok(s) = std::str::from_utf8(text) {
        assert_eq!(s.parse::<Fen>(), parsed);
    }
    let fen = match parsed {
        Err(err) => {
            assert!(err.offset <= text.len());
            return Outcome::Syntax(err.field);
        }
        Ok(fen) => fen,
    };
    // Whatever parses prints canonically and parses back to the same fields (the castling
    // mode aside: X-FEN cannot always carry it).
    let printed = fen.to_string();
    let mut reparsed = printed.parse::<Fen>().unwrap_or_else(|e| panic!("printed {printed}: {e}"));
    reparsed.0.castling_mode = fen.0.castling_mode;
    assert_eq!(reparsed, fen, "printed {printed}");

    let Ok(pos) = fen.into_position() else {
        return Outcome::Illegal;
    };
    for castling in [CastlingNotation::XFen, CastlingNotation::Shredder] {
        for en_passant in [EnPassantMode::Always, EnPassantMode::PseudoLegal, EnPassantMode::Legal]
        {
            let printed = fen_of(&pos, FenOptions { castling, en_passant });
            let reparsed = parse_position(&printed).map(|p| with_mode(p, pos.castling_mode()));
            match en_passant {
                EnPassantMode::Always => assert_eq!(reparsed, Ok(pos), "printed {printed}"),
                EnPassantMode::PseudoLegal => {
                    assert_eq!(reparsed.map(|p| p.key()), Ok(pos.key()), "printed {printed}")
                }
                // Dropping an unusable ep square keeps the position the same in the FIDE sense.
                EnPassantMode::Legal => assert_eq!(
                    reparsed.map(|p| repetition_key(&p)),
                    Ok(repetition_key(&pos)),
                    "printed {printed}"
                ),
            }
        }
    }
    Outcome::Legal
}

#[test]
fn mutated_suite_lines_never_panic_and_round_trip() {
    let fens = suite_fens();
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    let mut outcomes: HashMap<Outcome, u32> = HashMap::new();
    for _ in 0..200_000 {
        let (_, _, fen) = fens[rng.below(fens.len())];
        let mut text = fen.as_bytes().to_vec();
        // Mostly one mutation, sometimes two or three.
        for _ in 0..[1, 1, 1, 1, 2, 3][rng.below(6)] {
            mutate(&mut rng, &mut text);
        }
        let outcome = std::panic::catch_unwind(|| check_mutant(&text)).unwrap_or_else(|_| {
            panic!("input {:?}", text.escape_ascii().to_string());
        });
        *outcomes.entry(outcome).or_default() += 1;
    }
    // Every kind of outcome shows up, so the mutations reach every field.
    for field in [
        FenField::Placement,
        FenField::Turn,
        FenField::Castling,
        FenField::EnPassant,
        FenField::Halfmoves,
        FenField::Fullmoves,
        FenField::Trailing,
    ] {
        assert!(outcomes.contains_key(&Outcome::Syntax(field)), "{field}: {outcomes:?}");
    }
    assert!(outcomes[&Outcome::Illegal] > 4000, "{outcomes:?}");
    assert!(outcomes[&Outcome::Legal] > 15_000, "{outcomes:?}");
    println!("{outcomes:?}");
}
