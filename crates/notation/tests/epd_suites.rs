//! EPD over real files: every perft suite line of `testdata/perft`, every EPD file of the shared
//! corpus (`../shared/corpus` beside the repository, skipped with a message when absent), the
//! round trips on all of them, and a deterministic mutation fuzz that nothing panics.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use chessbits_notation::epd::{Epd, EpdPart, Operation};

use chessbits_testkit::Rng;
use chessbits_testkit::SUITES;

/// The shared corpus, beside the repository root.
const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus");

/// Every non-blank suite line as (suite, line number, text).
fn suite_lines() -> Vec<(&'static str, usize, &'static str)> {
    let mut lines = Vec::new();
    for (name, text) in SUITES {
        for (i, line) in text.lines().enumerate() {
            if !line.trim().is_empty() {
                lines.push((name, i + 1, line));
            }
        }
    }
    lines
}

/// The round trips that hold for every record: printing parses back to the same record, and
/// printing is a fixed point.
fn check_round_trip(epd: &Epd, at: &str) {
    let printed = epd.to_string();
    let reparsed = printed.parse::<Epd>().unwrap_or_else(|e| panic!("{at}: {printed}: {e}"));
    assert_eq!(&reparsed, epd, "{at}: {printed}");
    assert_eq!(reparsed.to_string(), printed, "{at}");
}

#[test]
fn perft_suite_lines_parse_and_round_trip() {
    let lines = suite_lines();
    assert_eq!(lines.len(), 7 + 127 + 300 + 200 + 200, "every suite line is read");
    for (suite, number, line) in lines {
        let at = format!("{suite}:{number}");
        let epd: Epd = line.parse().unwrap_or_else(|e| panic!("{at}: {e}"));
        // Only the clocks and perft counts, depths 1, 2, 3, ... in order.
        let depths: Vec<u32> = epd.perft_counts().map(|(d, _)| d).collect();
        assert!(!depths.is_empty(), "{at}");
        assert_eq!(depths, (1..=depths.len() as u32).collect::<Vec<_>>(), "{at}");
        assert_eq!(epd.operations().len(), 2 + depths.len(), "{at}");
        assert!(epd.halfmove_clock().is_some() && epd.fullmove_number().is_some(), "{at}");
        // The six-field FEN and the counts give the line back in the suite style.
        let counts: Vec<String> = epd.perft_counts().map(|(d, n)| format!("D{d} {n}")).collect();
        assert_eq!(format!("{} ;{}", epd.fen(), counts.join(" ;")), line, "{at}");
        // And the position is the one the FEN reader gives.
        let pos = epd.to_position().unwrap_or_else(|e| panic!("{at}: {e}"));
        assert_eq!(
            Ok(pos),
            chessbits_notation::fen::parse_position(&epd.fen().to_string()),
            "{at}"
        );
        check_round_trip(&epd, &at);
    }
}

#[test]
fn perft_suite_output() {
    let (_, _, line) = suite_lines()[1];
    let epd: Epd = line.parse().unwrap();
    insta::assert_snapshot!(epd, @"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - hmvc 0; fmvn 1; D1 48; D2 2039; D3 97862; D4 4085603; D5 193690690;");
}

/// The lines of a file as bytes: split at `\n`, a `\r` before it dropped, blank lines left out.
fn file_lines(bytes: &[u8]) -> Vec<(usize, &[u8])> {
    bytes
        .split(|&b| b == b'\n')
        .enumerate()
        .map(|(i, line)| (i + 1, line.strip_suffix(b"\r").unwrap_or(line)))
        .filter(|(_, line)| !line.trim_ascii().is_empty())
        .collect()
}

/// The `.epd` files of the corpus, sorted, or `None` if the corpus is absent.
fn corpus_files() -> Option<Vec<PathBuf>> {
    let dir = Path::new(CORPUS);
    let Ok(entries) = std::fs::read_dir(dir) else {
        println!("skipped: no corpus at {}", dir.display());
        return None;
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "epd"))
        .collect();
    files.sort();
    Some(files)
}

#[test]
fn corpus_files_parse_and_round_trip() {
    let Some(files) = corpus_files() else { return };
    let mut summary = String::new();
    let mut failures = String::new();
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        let (mut parsed, mut canonical, mut legal, mut failed) = (0, 0, 0, 0);
        for (number, line) in file_lines(&bytes) {
            let at = format!("{name}:{number}");
            match Epd::from_ascii(line) {
                Ok(epd) => {
                    parsed += 1;
                    check_round_trip(&epd, &at);
                    // Strings and str agree.
                    let text = std::str::from_utf8(line).unwrap();
                    assert_eq!(text.parse::<Epd>().as_ref(), Ok(&epd), "{at}");
                    canonical += usize::from(epd.to_string() == text.trim());
                    legal += usize::from(epd.to_position().is_ok());
                }
                Err(e) => {
                    failed += 1;
                    failures.push_str(&format!("{at}: {e}\n"));
                }
            }
        }
        // 2 lines of ecmgcp.epd have a tab before a string; getmated.epd:30 repeats `acn 1057;`
        // (read once). frc-openings-960.epd is six-field FEN, printed with `hmvc 0; fmvn 1;`.
        summary.push_str(&format!(
            "{name}: {parsed} parse ({canonical} already canonical, {legal} legal), {failed} fail\n"
        ));
    }
    println!("{summary}{failures}");
    // All 16 lines python-chess rejects (`acn 1028 acd ; acn 1028;`: an opcode without operands
    // or a `;` before the next one) fail, and nothing else.
    insta::assert_snapshot!(summary, @r"
    arasan2024.epd: 200 parse (200 already canonical, 200 legal), 0 fail
    bt2630.epd: 30 parse (30 already canonical, 30 legal), 0 fail
    ecmgcp.epd: 183 parse (181 already canonical, 183 legal), 0 fail
    frc-openings-960.epd: 960 parse (0 already canonical, 960 legal), 0 fail
    getmated.epd: 3103 parse (3102 already canonical, 3103 legal), 16 fail
    lichess-popularpos-v3-first10k.epd: 10000 parse (10000 already canonical, 10000 legal), 0 fail
    sts1-15-v5.epd: 1500 parse (1500 already canonical, 1500 legal), 0 fail
    wac-new.epd: 300 parse (300 already canonical, 300 legal), 0 fail
    ");
    // The second operand is the `acd` meant as the next opcode.
    insta::assert_snapshot!(failures, @r"
    getmated.epd:256: operation acn (byte 49): a second operand where one is expected
    getmated.epd:258: operation acn (byte 48): a second operand where one is expected
    getmated.epd:357: operation acn (byte 53): a second operand where one is expected
    getmated.epd:484: operation acn (byte 60): a second operand where one is expected
    getmated.epd:486: operation acn (byte 61): a second operand where one is expected
    getmated.epd:572: operation acn (byte 52): a second operand where one is expected
    getmated.epd:587: operation acn (byte 53): a second operand where one is expected
    getmated.epd:701: operation acn (byte 54): a second operand where one is expected
    getmated.epd:1080: operation acn (byte 55): a second operand where one is expected
    getmated.epd:1238: operation acn (byte 54): a second operand where one is expected
    getmated.epd:1239: operation acn (byte 53): a second operand where one is expected
    getmated.epd:1241: operation acn (byte 54): a second operand where one is expected
    getmated.epd:1243: operation acn (byte 54): a second operand where one is expected
    getmated.epd:1245: operation acn (byte 52): a second operand where one is expected
    getmated.epd:1654: operation acn (byte 51): a second operand where one is expected
    getmated.epd:2758: operation acn (byte 43): a second operand where one is expected
    ");
}

/// The bytes EPD uses, which mutations mostly draw from.
const PALETTE: &[u8] = b"pnbrqkPNBRQK12345678/ wb-KQkqah0;;;\"\"\\ \tDcmvx_+\xc3\xff";

/// Changes `text` once: replaces, inserts or deletes a byte, duplicates a stretch, or truncates.
/// Half the time the change falls after the fourth field, among the operations.
fn mutate(rng: &mut Rng, text: &mut Vec<u8>) {
    if text.is_empty() {
        text.push(rng.byte_from(PALETTE));
        return;
    }
    let fields_end = text
        .split_inclusive(|&b| b == b' ')
        .take(4)
        .map(<[u8]>::len)
        .sum::<usize>()
        .min(text.len() - 1);
    let i = match rng.below(2) {
        0 => rng.below(text.len()),
        _ => fields_end + rng.below(text.len() - fields_end),
    };
    match rng.below(5) {
        0 => text[i] = rng.byte_from(PALETTE),
        1 => {
            let b = rng.byte_from(PALETTE);
            text.insert(i, b);
        }
        2 => {
            text.remove(i);
        }
        3 => {
            let end = (i + 1 + rng.below(12)).min(text.len());
            let copy = text[i..end].to_vec();
            text.splice(end..end, copy);
        }
        _ => text.truncate(i),
    }
}

/// What became of one mutated input.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    Error(String),
    Parsed,
}

fn check_mutant(text: &[u8]) -> Outcome {
    let parsed = Epd::from_ascii(text);
    if let Ok(s) = std::str::from_utf8(text) {
        assert_eq!(s.parse::<Epd>(), parsed);
    }
    match parsed {
        Err(err) => {
            assert!(err.offset <= text.len(), "{err:?}");
            // The kind's name without its payload.
            let kind = format!("{:?}", err.kind);
            let kind = kind.split(['(', ' ']).next().unwrap_or_default().to_owned();
            let part = match err.part {
                EpdPart::Operation(_) => "operation".to_owned(),
                part => part.to_string(),
            };
            Outcome::Error(format!("{part}: {kind}"))
        }
        Ok(epd) => {
            check_round_trip(&epd, "mutant");
            let _ = epd.to_position();
            Outcome::Parsed
        }
    }
}

#[test]
fn mutated_lines_never_panic_and_round_trip() {
    let mut lines: Vec<Vec<u8>> =
        suite_lines().into_iter().map(|(_, _, l)| l.as_bytes().to_vec()).collect();
    lines.extend(
        [
            r#"2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";"#,
            r#"8/8/8/8/8/8/8/K6k b - - am Kh2 Kg2; c0 "a \"quoted\" \\ one"; ce -5; acd 3; pv Kg1 Kb1;"#,
            r#"1b1r4/p4p1k/1p3n1p/1Pp5/P1Q1p3/3Pqb1P/1BRR4/5BK1 w - - acd 2; acn 20439; ce -32755; pv Rf2 Rg8+; pm Rf2; id "C.A.P. 4210";"#,
        ]
        .map(|l| l.as_bytes().to_vec()),
    );
    if let Some(files) = corpus_files() {
        for path in files {
            let bytes = std::fs::read(&path).unwrap();
            lines.extend(file_lines(&bytes).into_iter().step_by(25).map(|(_, l)| l.to_vec()));
        }
    }
    let mut rng = Rng::new(0x2545_f491_4f6c_dd1d);
    let mut outcomes: BTreeMap<Outcome, u32> = BTreeMap::new();
    for _ in 0..100_000 {
        let mut text = lines[rng.below(lines.len())].clone();
        for _ in 0..[1, 1, 1, 2, 3][rng.below(5)] {
            mutate(&mut rng, &mut text);
        }
        let outcome = std::panic::catch_unwind(|| check_mutant(&text))
            .unwrap_or_else(|_| panic!("input {:?}", text.escape_ascii().to_string()));
        *outcomes.entry(outcome).or_default() += 1;
    }
    println!("{outcomes:#?}");
    assert!(outcomes[&Outcome::Parsed] > 20_000, "{outcomes:?}");
    // The mutations reach every field and every kind of operation error.
    for expected in [
        "placement: Field",
        "side to move: Field",
        "castling: Field",
        "en passant: Field",
        "halfmove clock: Field",
        "fullmove number: Field",
        "opcode: InvalidOpcode",
        "operation: DuplicateOpcode",
        "operation: ExtraOperand",
        "operation: InvalidNumber",
        "operation: InvalidUtf8",
        "operation: MissingOperand",
        "operation: NumberOutOfRange",
        "operation: QuotedMove",
        "operation: UnterminatedString",
    ] {
        assert!(outcomes.contains_key(&Outcome::Error(expected.to_owned())), "{expected}");
    }
}

#[test]
fn typed_operations_of_a_test_suite_line() {
    let line = r#"8/8/8/8/8/8/8/K6k b - - am Kh2 Kg2; c0 "a \"quoted\" \\ one"; ce -5; acd 3; pv Kg1 Kb1; Ae "x y";"#;
    let epd: Epd = line.parse().unwrap();
    assert_eq!(epd.avoid_moves(), Some(&["Kh2".to_owned(), "Kg2".to_owned()][..]));
    assert_eq!(epd.comment(0), Some(r#"a "quoted" \ one"#));
    assert_eq!(epd.centipawn_evaluation(), Some(-5));
    assert_eq!(epd.analysis_depth(), Some(3));
    assert_eq!(epd.predicted_variation().map(<[String]>::len), Some(2));
    assert_eq!(
        epd.operation("Ae"),
        Some(&Operation::Other { opcode: "Ae".to_owned(), operands: "\"x y\"".to_owned() })
    );
    assert_eq!(epd.to_string(), line);
}
