//! `chessbits encode` and `chessbits decode`: positions to and from the bit-level encodings of
//! `chessbits_codec`.
//!
//! `encode --format F` reads one FEN per line (`startpos` for the standard position; board-only
//! formats also take a lone placement field) and prints `<bits>\t<hex>`. `decode --format F`
//! reads such lines (or the hex alone) and prints the FEN: the placement field alone for a board
//! format, the five fields after it for a state format (with `#N` for "the N-th en passant
//! candidate", which only the board can tell), the whole FEN for a position format. A bad line
//! prints `error: <message>` (decoding errors give the bit offset) and reading goes on.
//! `encode --list` prints every format with one line of description.

use std::io::{self, BufRead, Write};

use chessbits_codec::bits::{parse_hex, BitReader};
use chessbits_codec::classic::encoding::{self, Encoding};
use chessbits_notation::fen::Fen;
use clap::Args;

/// The arguments of `chessbits encode`.
#[derive(Args)]
pub struct EncodeArgs {
    /// The encoding (required, unless --list): nibbles, rle:K (K = 1..6), rle:auto, pieces,
    /// grouped, state14, state-full, or BOARD+STATE such as grouped+state-full.
    #[arg(long, short, required_unless_present = "list", value_parser = parse_encoding)]
    format: Option<Encoding>,
    /// Lists every format with one line of description, and exits.
    #[arg(long, conflicts_with = "format")]
    list: bool,
}

/// The arguments of `chessbits decode`.
#[derive(Args)]
pub struct DecodeArgs {
    /// The encoding the lines are in (see `chessbits encode --list`).
    #[arg(long, short, value_parser = parse_encoding)]
    format: Encoding,
}

fn parse_encoding(s: &str) -> Result<Encoding, String> {
    s.parse().map_err(|e| format!("{e}, see chessbits encode --list"))
}

/// Writes the format list.
pub fn list(mut output: impl Write) -> io::Result<u64> {
    for (name, description) in encoding::LIST {
        writeln!(output, "{name:<15} {description}")?;
    }
    output.flush()?;
    Ok(0)
}

/// Runs `encode` (or `--list`) over `input`. Returns how many lines failed.
pub fn run_encode(args: &EncodeArgs, input: impl BufRead, output: impl Write) -> io::Result<u64> {
    match args.format {
        Some(format) => run(input, output, |line| encode_line(format, line)),
        None => list(output),
    }
}

/// Runs `decode` over `input`. Returns how many lines failed.
pub fn run_decode(args: &DecodeArgs, input: impl BufRead, output: impl Write) -> io::Result<u64> {
    run(input, output, |line| decode_line(args.format, line))
}

/// One input line to its output line; `Err` holds the message for `error: ...`.
fn encode_line(format: Encoding, line: &str) -> Result<String, String> {
    let text = line.trim();
    let fen = match text {
        "startpos" => Fen::default(),
        "" => return Err("empty line, expected a FEN or startpos".to_owned()),
        // A lone placement field is a board: give it the other fields.
        _ if matches!(format, Encoding::Board(_)) && !text.contains(' ') => {
            format!("{text} w - -").parse::<Fen>().map_err(|e| format!("fen: {e}"))?
        }
        _ => text.parse::<Fen>().map_err(|e| format!("fen: {e}"))?,
    };
    let bits = format.encode(&fen).map_err(|e| e.to_string())?;
    Ok(format!("{}\t{bits}", bits.len()))
}

fn decode_line(format: Encoding, line: &str) -> Result<String, String> {
    let text = line.trim();
    let (bits, hex) = match text.split_once('\t') {
        Some((bits, hex)) => {
            let bits =
                bits.trim().parse::<usize>().map_err(|_| format!("invalid bit count {bits:?}"))?;
            (Some(bits), hex.trim())
        }
        None => (None, text),
    };
    let bytes = parse_hex(hex).map_err(|e| e.to_string())?;
    let mut reader = match bits {
        Some(bits) if bits > bytes.len() * 8 || bits + 8 <= bytes.len() * 8 => {
            return Err(format!("{bits} bits do not match {} hex digits", hex.len()));
        }
        Some(bits) => BitReader::with_zero_padding(&bytes, bits).map_err(|e| e.to_string())?,
        None => BitReader::new(&bytes),
    };
    let decoded = format.decode(&mut reader).map_err(|e| e.to_string())?;
    Ok(decoded.to_string())
}

fn run(
    input: impl BufRead,
    output: impl Write,
    convert: impl Fn(&str) -> Result<String, String>,
) -> io::Result<u64> {
    crate::lines::convert_lines(input, output, |line, text| {
        *text = convert(line)?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode(format: &str, input: &str) -> String {
        let args = EncodeArgs { format: Some(format.parse().unwrap()), list: false };
        let mut out = Vec::new();
        run_encode(&args, input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn decode(format: &str, input: &str) -> String {
        let args = DecodeArgs { format: format.parse().unwrap() };
        let mut out = Vec::new();
        run_decode(&args, input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    const INPUT: &str = "startpos
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1
8/8/8/8/8/8/8/8 w - - 0 1
8/8/4k3/8/8/4K3/8/8 w - - 150 120
not a fen
";

    #[test]
    fn lines_encode_and_decode_back() {
        insta::assert_snapshot!(encode("grouped+state14", INPUT), @r#"
            290	1e41251661a71e44118c842a1007501b011fe18e59e9aedbc1e7e93d7b478fec7783c7f000
            290	1e41251669c7b844118c842a1007501b011fe18e59e9aedbc1e7e93d7b478fec7783cf8000
            error: illegal position: white has no king, black has no king
            error: halfmove clock 150 does not fit in 6 bits (at most 63)
            error: fen: placement (byte 1): invalid character 'o', expected a piece letter, a digit 1..8 or '/'
        "#);
        insta::assert_snapshot!(decode("grouped+state14", &encode("grouped+state14", INPUT)), @r#"
            rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
            rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1
            error: hex (byte 1): not a hex digit (0-9, a-f)
            error: hex (byte 1): not a hex digit (0-9, a-f)
            error: hex (byte 1): not a hex digit (0-9, a-f)
        "#);
        insta::assert_snapshot!(encode("rle:auto", "8/8/8/8/8/8/8/8\n8/8/8/8/8/8/8/PPPPPPPP w - - 0 1\n"), @r#"
            13	c1f8
            23	c2386e
        "#);
        insta::assert_snapshot!(decode("rle:auto", "3\t00\n13\tc1f8\nc1f8\n"), @r#"
            error: bit 0: invalid run width 0, expected 1 to 6
            8/8/8/8/8/8/8/8
            8/8/8/8/8/8/8/8
        "#);
        insta::assert_snapshot!(decode("state-full", &encode("state-full", INPUT)), @r#"
            w KQkq - 0 1
            b KQkq #0 0 1
            error: hex (byte 1): not a hex digit (0-9, a-f)
            w - - 150 120
            error: hex (byte 1): not a hex digit (0-9, a-f)
        "#);
    }

    #[test]
    fn bad_lines_say_why_and_reading_goes_on() {
        insta::assert_snapshot!(decode("nibbles+state-full", "zz\n12\t00\n3\t0000\nff\n\n"), @r#"
            error: hex (byte 0): not a hex digit (0-9, a-f)
            error: 12 bits do not match 2 hex digits
            error: 3 bits do not match 4 hex digits
            error: bit 0: invalid piece code 15
            error: bit 0: the stream ends, 4 more bits needed
        "#);
        // A bit set in the padding past the count: another length's bytes, or damage, as
        // the same hex without its count is refused.
        let coded = encode("grouped+state-full", "startpos\n");
        let (bits, hex) = coded.trim().split_once('\t').unwrap();
        assert_eq!(bits.parse::<usize>().unwrap() % 8, 6, "{coded}");
        let last = u32::from_str_radix(&hex[hex.len() - 1..], 16).unwrap();
        let damaged = format!("{}{:x}", &hex[..hex.len() - 1], last | 3);
        let with_count = decode("grouped+state-full", &format!("{bits}\t{damaged}\n"));
        let alone = decode("grouped+state-full", &format!("{damaged}\n"));
        assert_eq!(
            with_count,
            "error: bit 302: 2 bits after the end that are not the padding of the last byte\n"
        );
        assert_eq!(alone, with_count);
        assert_eq!(
            decode("grouped+state-full", &coded),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
        );
    }

    #[test]
    fn packed_and_compact_round_trip_and_report_bad_bytes() {
        let fens = "startpos\nr1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/P4PPP/R2QKB1R w KQ - 2 9\n";
        for format in ["packed", "packed+clocks", "compact", "compact+clocks"] {
            let coded = encode(format, fens);
            let back = decode(format, &coded);
            let clocks = format.ends_with("+clocks");
            let expected = if clocks {
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nr1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/P4PPP/R2QKB1R w KQ - 2 9\n"
            } else {
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nr1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/P4PPP/R2QKB1R w KQ - 0 1\n"
            };
            assert_eq!(back, expected, "{format}: {coded}");
        }
        // The model codes the start position in three bytes.
        assert_eq!(encode("compact", "startpos\n"), "24\tdc4462\n");
        insta::assert_snapshot!(decode("packed", "ffff\n4f87\n"), @r"
        error: bit 16: input ends inside the board
        error: bit 16: input ends inside the board
        ");
        // `packed` holds no clocks: the clocks of `packed+clocks` (halfmove 2, ply 16, after 29
        // pieces: 8 + 15 bytes) are
        // refused where the pieces end, not read as this position's clocks.
        let with_clocks = encode("packed+clocks", fens);
        let second = with_clocks.lines().nth(1).unwrap();
        assert_eq!(
            decode("packed", &format!("{second}\n")),
            "error: bit 184: 16 bits after the end that are not the padding of the last byte\n"
        );
        let (_, hex) = second.split_once('\t').unwrap();
        assert_eq!(
            decode("packed+clocks", &format!("{hex}\n")),
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/P4PPP/R2QKB1R w KQ - 2 9\n"
        );
    }

    #[test]
    fn the_list() {
        let mut out = Vec::new();
        list(&mut out).unwrap();
        insta::assert_snapshot!(String::from_utf8(out).unwrap(), @r#"
            nibbles         board: 64 squares a1..h8, a 4-bit code each (256 bits)
            rle:K           board: runs of (4-bit code, K-bit count c for c+1 squares), K = 1..6
            rle:auto        board: K in 3 bits, then the runs of rle:K for the best K
            pieces          board: per piece a 4-bit code and a 6-bit square, then the end marker 0000
            grouped         board: per piece kind a 4-bit code, a 3-bit count and 6 bits a square
            state14         state: side, castling (4), en passant candidate (3), halfmove clock 0-63 (6): 14 bits
            state-full      state: state14's fields, castling mode, escape, both clocks as varints: 26 bits typically
            BOARD+STATE     position: a board encoding then a state encoding, e.g. grouped+state-full
            packed          position: at most 24 bytes, the lichess binary FEN layout, no clocks
            packed+clocks   position: packed, then the two clocks (at most 35 bytes)
            compact         position: range-coded against a model of real games (about 9 bytes), no clocks
            compact+clocks  position: compact with the two clocks
        "#);
    }
}
