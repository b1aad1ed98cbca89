//! `cargo xtask formats`: measures the bit-level encodings of `chessbits_codec` on
//! games and positions, and checks that every one round-trips. See [`HELP`].

use std::fs;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use chessbits_codec::bits::{BitReader, BitWriter};
use chessbits_codec::classic::board::BoardFormat;
use chessbits_codec::classic::game::{read_moves, write_moves};
use chessbits_codec::classic::moves::MoveFormat;
use chessbits_codec::classic::position::{PositionFormat, StateFormat};
use chessbits_codec::move_codec::{self, MoveCodec};
use chessbits_codec::{compact, packed};
use chessbits_movegen::Game;
use chessbits_notation::fen::parse_position;
use chessbits_notation::fen::Fen;
use chessbits_notation::uci::UciPosition;
use chessbits_pgn::{Replay, SliceReader};
use chessbits_state::{Position, Setup};

const HELP: &str =
    "usage: cargo xtask formats [--pgn FILE]... [--fen-file FILE]... [--uci-file FILE]...

Encodes every position (and, for games, every move) in every bit-level encoding, decodes
them back, checks the round trip, and prints per format the bits per position (mean, min,
max) or per move, and the encode/decode speed. The byte formats (`packed`, `compact`) and
the move codecs (`model`, `index`) get tables of their own with a baseline timed in the same
run (FEN text; the 12-bit move code), so their speeds read as ratios.

inputs:
  --pgn FILE        a PGN file: the mainline of every game (a game that does not replay is
                    reported on stderr and left out)
  --fen-file FILE   one FEN per line
  --uci-file FILE   one game per line: `<FEN or startpos>;<uci> <uci> ...` (as chessbits san
                    reads them); every position of every game is measured

options:
  --per-game        also print, per game: its number, plies, and bits in each move code";

/// The positions and games read from the inputs.
#[derive(Default)]
struct Corpus {
    positions: Vec<Position>,
    games: Vec<Game>,
}

pub fn run(args: &[String]) -> Result<ExitCode, String> {
    let mut corpus = Corpus::default();
    let mut names = Vec::new();
    let mut per_game = false;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--pgn" => {
                let path = args.next().ok_or("--pgn needs a file")?;
                let bytes = fs::read(path).map_err(|e| format!("{path}: {e}"))?;
                read_pgn(&bytes, path, &mut corpus);
                names.push(path.clone());
            }
            "--fen-file" | "--uci-file" => {
                let path = args.next().ok_or(format!("{arg} needs a file"))?;
                let text = fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
                if arg == "--fen-file" {
                    read_fens(&text, path, &mut corpus)?;
                } else {
                    read_games(&text, path, &mut corpus)?;
                }
                names.push(path.clone());
            }
            "--per-game" => per_game = true,
            "-h" | "--help" => {
                println!("{HELP}");
                return Ok(ExitCode::SUCCESS);
            }
            other => return Err(format!("unknown option {other:?}\n{HELP}")),
        }
    }
    if names.is_empty() {
        return Err(format!("no input\n{HELP}"));
    }
    let plies: usize = corpus.games.iter().map(|g| g.moves().len()).sum();
    println!(
        "cargo xtask formats: {} ({} games, {plies} plies, {} positions)\n",
        names.join(", "),
        corpus.games.len(),
        corpus.positions.len(),
    );
    let mut failures = positions_table(&corpus.positions);
    println!();
    failures += byte_formats_table(&corpus.positions);
    if !corpus.games.is_empty() {
        println!();
        failures += moves_table(&corpus.games);
        println!();
        failures += move_codecs_table(&corpus.games);
        if per_game {
            println!();
            per_game_table(&corpus.games);
        }
    }
    if failures > 0 {
        eprintln!("error: {failures} round trips failed");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

fn read_fens(text: &str, path: &str, corpus: &mut Corpus) -> Result<(), String> {
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let pos = parse_position(line.trim()).map_err(|e| format!("{path}:{}: {e}", i + 1))?;
        corpus.positions.push(pos);
    }
    Ok(())
}

/// Adds every game of a PGN file that replays; a broken game is reported and left out.
fn read_pgn(bytes: &[u8], path: &str, corpus: &mut Corpus) {
    let mut reader = SliceReader::new(bytes);
    while let Some(result) = reader.read_game(&mut Replay::default()) {
        match result {
            Ok(replayed) if replayed.game.moves().iter().any(|m| m.is_null()) => {
                eprintln!(
                    "{path}: game {}: a null move, which no format codes (left out)",
                    reader.games()
                );
            }
            Ok(replayed) => add_game(replayed.game, corpus),
            Err(e) => eprintln!("{path}: {e} (left out)"),
        }
    }
}

/// Adds `game` and every position of it.
fn add_game(game: Game, corpus: &mut Corpus) {
    let mut pos = *game.start();
    corpus.positions.push(pos);
    for &m in game.moves() {
        pos.play_unchecked(m);
        corpus.positions.push(pos);
    }
    corpus.games.push(game);
}

fn read_games(text: &str, path: &str, corpus: &mut Corpus) -> Result<(), String> {
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let (start, moves) = line.split_once(';').unwrap_or((line, ""));
        let at = |e: &dyn std::fmt::Display| format!("{path}:{}: {e}", i + 1);
        let uci = UciPosition::from_parts(start.trim(), moves).map_err(|e| at(&e))?;
        add_game(uci.to_game().map_err(|e| at(&e))?, corpus);
    }
    Ok(())
}

/// Bits per item: count, sum, min, max.
#[derive(Default)]
struct Sizes {
    count: u64,
    sum: u64,
    min: u64,
    max: u64,
}

impl Sizes {
    fn add(&mut self, bits: u64) {
        self.min = if self.count == 0 { bits } else { self.min.min(bits) };
        self.max = self.max.max(bits);
        self.count += 1;
        self.sum += bits;
    }

    fn mean(&self) -> f64 {
        self.sum as f64 / self.count.max(1) as f64
    }
}

fn per_second(n: usize, time: Duration) -> String {
    let rate = n as f64 / time.as_secs_f64().max(1e-9);
    if rate >= 1e6 {
        format!("{:.2}M", rate / 1e6)
    } else {
        format!("{:.0}k", rate / 1e3)
    }
}

/// The setup a decoded position must equal: all of it for lossless encodings, all but the
/// fullmove number for `state14` (whose castling mode is the one the rights need).
fn comparable(pos: &Position, lossless: bool) -> Setup {
    let mut setup = pos.to_setup();
    if !lossless {
        setup.fullmoves = 1;
        setup.castling_mode = chessbits_move::CastlingMode::Standard;
        if let Ok(pos) = Position::from_setup(&setup) {
            setup.castling_mode = pos.castling_mode();
        }
    }
    setup
}

/// How long one pass of `pass` takes: passes are repeated until they add up to at least
/// [`MIN_TIME`], so small inputs still give stable figures.
fn time_pass(mut pass: impl FnMut()) -> Duration {
    let start = Instant::now();
    let mut passes = 0u32;
    while passes == 0 || start.elapsed() < MIN_TIME {
        pass();
        passes += 1;
    }
    start.elapsed() / passes
}

/// The least time a measurement runs.
const MIN_TIME: Duration = Duration::from_millis(200);

/// Every position in every board, state and position encoding. Returns the number of failed
/// round trips.
fn positions_table(positions: &[Position]) -> u64 {
    println!("| format | positions | bits mean | min | max | encode pos/s | decode pos/s |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    let mut w = BitWriter::with_capacity(positions.len() * 300);
    board_rows(positions, &mut w) + state_rows(positions, &mut w) + position_rows(positions, &mut w)
}

/// The rows of the board encodings; the number of failed round trips.
fn board_rows(positions: &[Position], w: &mut BitWriter) -> u64 {
    let mut failures = 0;
    for format in BoardFormat::ALL {
        let encode = time_pass(|| {
            w.clear();
            for pos in positions {
                format.write(w, pos.board());
            }
        });
        let mut sizes = Sizes::default();
        for pos in positions {
            sizes.add(format.len(pos.board()) as u64);
        }
        let mut boards = Vec::with_capacity(positions.len());
        let decode = time_pass(|| {
            boards.clear();
            let mut r = BitReader::with_len(w.as_bytes(), w.len());
            boards.extend(positions.iter().map(|_| format.read(&mut r)));
        });
        failures +=
            positions.iter().zip(&boards).filter(|(pos, b)| b.as_ref() != Ok(pos.board())).count()
                as u64;
        row(&format.to_string(), &sizes, positions.len(), encode, decode);
    }
    failures
}

/// The rows of the state encodings (each position that fits); the number of failed round trips.
fn state_rows(positions: &[Position], w: &mut BitWriter) -> u64 {
    let mut failures = 0;
    for state in StateFormat::ALL {
        let fits: Vec<&Position> = positions.iter().filter(|p| state.check(p).is_ok()).collect();
        let encode = time_pass(|| {
            w.clear();
            for pos in &fits {
                let _ = state.write(w, pos);
            }
        });
        let mut decoded = Vec::with_capacity(fits.len());
        let decode = time_pass(|| {
            decoded.clear();
            let mut r = BitReader::with_len(w.as_bytes(), w.len());
            decoded.extend(fits.iter().map(|_| {
                let at = r.position();
                (state.read(&mut r), r.position() - at)
            }));
        });
        let mut sizes = Sizes::default();
        for (pos, (fields, bits)) in fits.iter().zip(&decoded) {
            sizes.add(*bits as u64);
            let back = fields.as_ref().ok().and_then(|f| f.to_setup(pos.board()).ok());
            let back = back.and_then(|s| Position::from_setup(&s).ok());
            if back.map(|b| comparable(&b, state.is_lossless()))
                != Some(comparable(pos, state.is_lossless()))
            {
                failures += 1;
            }
        }
        let mut name = state.to_string();
        if fits.len() < positions.len() {
            name = format!("{name} ({} refused)", positions.len() - fits.len());
        }
        row(&name, &sizes, fits.len(), encode, decode);
    }
    failures
}

/// The rows of every board encoding with every state encoding; the number of failed round
/// trips.
fn position_rows(positions: &[Position], w: &mut BitWriter) -> u64 {
    let mut failures = 0;
    for board in BoardFormat::ALL {
        for state in StateFormat::ALL {
            let format = PositionFormat::new(board, state);
            let fits: Vec<&Position> =
                positions.iter().filter(|p| state.check(p).is_ok()).collect();
            let encode = time_pass(|| {
                w.clear();
                for pos in &fits {
                    let _ = format.write(w, pos);
                }
            });
            let mut sizes = Sizes::default();
            for pos in &fits {
                sizes.add(format.len(pos).unwrap_or(0) as u64);
            }
            let mut decoded = Vec::with_capacity(fits.len());
            let decode = time_pass(|| {
                decoded.clear();
                let mut r = BitReader::with_len(w.as_bytes(), w.len());
                decoded.extend(fits.iter().map(|_| format.read(&mut r)));
            });
            for (pos, back) in fits.iter().zip(&decoded) {
                let lossless = state.is_lossless();
                if back.as_ref().map(|b| comparable(b, lossless)) != Ok(comparable(pos, lossless)) {
                    failures += 1;
                }
            }
            row(&format.to_string(), &sizes, fits.len(), encode, decode);
        }
    }
    failures
}

fn row(name: &str, sizes: &Sizes, n: usize, encode: Duration, decode: Duration) {
    println!(
        "| {name} | {n} | {:.1} | {} | {} | {} | {} |",
        sizes.mean(),
        sizes.min,
        sizes.max,
        per_second(n, encode),
        per_second(n, decode),
    );
}

/// Every game's moves in every move code. Returns the number of failed round trips.
fn moves_table(games: &[Game]) -> u64 {
    let plies: usize = games.iter().map(|g| g.moves().len()).sum();
    println!("| move code | plies | bits per move | game bits mean | min | max | encode moves/s | decode moves/s |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    let mut failures = 0;
    let mut w = BitWriter::with_capacity(plies * 16);
    for code in MoveFormat::ALL {
        let encode = time_pass(|| {
            w.clear();
            for game in games {
                let _ = write_moves(&mut w, game, code);
            }
        });
        let mut decoded = Vec::with_capacity(games.len());
        let decode = time_pass(|| {
            decoded.clear();
            let mut r = BitReader::with_len(w.as_bytes(), w.len());
            decoded.extend(games.iter().map(|game| {
                let at = r.position();
                let mut back = Game::new(*game.start());
                let result = read_moves(&mut r, &mut back, game.moves().len() as u32, code);
                (result.map(|()| back), r.position() - at)
            }));
        });
        let mut per_game = Sizes::default();
        for (game, (back, bits)) in games.iter().zip(&decoded) {
            per_game.add(*bits as u64);
            if back.as_ref().map(|b| b.moves()) != Ok(game.moves()) {
                failures += 1;
            }
        }
        println!(
            "| {code} | {plies} | {:.2} | {:.1} | {} | {} | {} | {} |",
            w.len() as f64 / plies.max(1) as f64,
            per_game.mean(),
            per_game.min,
            per_game.max,
            per_second(plies, encode),
            per_second(plies, decode),
        );
    }
    failures
}

/// Per game: its number (from 1), plies, and the bits of its moves in each code.
fn per_game_table(games: &[Game]) {
    let codes = MoveFormat::ALL.map(|code| code.to_string()).join(" | ");
    println!("| game | plies | {codes} |");
    println!("|---:|---:|{}", "---:|".repeat(MoveFormat::ALL.len()));
    for (i, game) in games.iter().enumerate() {
        let bits = MoveFormat::ALL.map(|code| {
            chessbits_codec::classic::game::encode_moves(game, code)
                .map_or(0, |b| b.len())
                .to_string()
        });
        println!("| {} | {} | {} |", i + 1, game.moves().len(), bits.join(" | "));
    }
}

/// `packed` and `compact`, without and with the clocks, against FEN text timed in the same run:
/// bytes per position and positions per second, decoding into a validated `Position`. Returns
/// the number of failed round trips.
fn byte_formats_table(positions: &[Position]) -> u64 {
    use std::fmt::Write as _;

    println!("| format | positions | bytes mean | min | max | encode pos/s | decode pos/s | encode / FEN | decode / FEN |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    let n = positions.len();
    let mut failures = 0;
    // Equal fields and key (`Position`'s own equality also compares the rook squares of
    // rights lost, which no format keeps); without the clocks, they come back as 0 1. FEN
    // says the castling mode only through its castling letters (Shredder letters for
    // Chess960): without rights it comes back standard.
    let mut check = |pos: &Position, back: Option<Position>, clocks: bool, mode: bool| {
        let mut expected = pos.to_setup();
        if !clocks {
            (expected.halfmoves, expected.fullmoves) = (0, 1);
        }
        if !mode && pos.castles().is_empty() {
            expected.castling_mode = chessbits_move::CastlingMode::Standard;
        }
        let ok = back.is_some_and(|b| b.to_setup() == expected && b.key() == pos.key());
        failures += u64::from(!ok);
    };

    // The baseline: FEN text, written with `Display` into one reused buffer, parsed back.
    let mut fens: Vec<String> = Vec::with_capacity(n);
    let mut buf = String::new();
    let fen_encode = time_pass(|| {
        for pos in positions {
            buf.clear();
            let _ = write!(buf, "{}", Fen::from_position(pos));
        }
    });
    fens.extend(positions.iter().map(|pos| Fen::from_position(pos).to_string()));
    let mut decoded = Vec::with_capacity(n);
    let fen_decode = time_pass(|| {
        decoded.clear();
        decoded.extend(fens.iter().map(|fen| parse_position(fen).ok()));
    });
    let mut sizes = Sizes::default();
    for ((pos, fen), back) in positions.iter().zip(&fens).zip(&decoded) {
        sizes.add(fen.len() as u64);
        check(pos, *back, true, false);
    }
    let ratio = |baseline: Duration, time: Duration| {
        format!("{:.2}", baseline.as_secs_f64() / time.as_secs_f64().max(1e-12))
    };
    let byte_row = |name: &str, sizes: &Sizes, encode: Duration, decode: Duration| {
        println!(
            "| {name} | {n} | {:.2} | {} | {} | {} | {} | {} | {} |",
            sizes.mean(),
            sizes.min,
            sizes.max,
            per_second(n, encode),
            per_second(n, decode),
            ratio(fen_encode, encode),
            ratio(fen_decode, decode),
        );
    };
    byte_row("FEN (baseline)", &sizes, fen_encode, fen_decode);

    for clocks in [false, true] {
        let suffix = if clocks { " + clocks" } else { "" };
        let (sizes, encode, decode, decoded) = time_codec(
            positions,
            |pos| packed::encode(pos, clocks),
            |bytes| bytes.len(),
            |bytes| packed::decode(bytes.as_bytes()).ok(),
        );
        positions.iter().zip(decoded).for_each(|(pos, back)| check(pos, back, clocks, true));
        byte_row(&format!("packed{suffix}"), &sizes, encode, decode);
        let (sizes, encode, decode, decoded) = time_codec(
            positions,
            |pos| compact::encode(pos, clocks),
            |bytes| bytes.len(),
            |bytes| compact::decode(bytes.as_bytes()).ok(),
        );
        positions.iter().zip(decoded).for_each(|(pos, back)| check(pos, back, clocks, true));
        byte_row(&format!("compact{suffix}"), &sizes, encode, decode);
    }
    failures
}

/// Times `encode` over `positions` and `decode` over what it wrote: the sizes (by `len`), the
/// two times of a pass, and the decoded positions.
fn time_codec<C>(
    positions: &[Position],
    encode: impl Fn(&Position) -> C,
    len: impl Fn(&C) -> usize,
    decode: impl Fn(&C) -> Option<Position>,
) -> (Sizes, Duration, Duration, Vec<Option<Position>>) {
    let mut coded = Vec::with_capacity(positions.len());
    let encode_time = time_pass(|| {
        coded.clear();
        coded.extend(positions.iter().map(&encode));
    });
    let mut decoded = Vec::with_capacity(positions.len());
    let decode_time = time_pass(|| {
        decoded.clear();
        decoded.extend(coded.iter().map(&decode));
    });
    let mut sizes = Sizes::default();
    for c in &coded {
        sizes.add(len(c) as u64);
    }
    (sizes, encode_time, decode_time, decoded)
}

/// The move codecs `model` and `index` of `move_codec`, against the 12-bit move code timed in
/// the same run: bits per move (each game's bytes, so rounding up to a whole byte is counted)
/// and plies per second. Returns the number of failed round trips.
fn move_codecs_table(games: &[Game]) -> u64 {
    let plies: usize = games.iter().map(|g| g.moves().len()).sum();
    println!("| move codec | plies | bits per move | encode plies/s | decode plies/s | encode / `12` | decode / `12` |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    let mut failures = 0;

    // The baseline: 12 bits a move, decoding plays each move into a `Game`.
    let mut w = BitWriter::with_capacity(plies * 12);
    let base_encode = time_pass(|| {
        w.clear();
        for game in games {
            let _ = write_moves(&mut w, game, MoveFormat::FromTo);
        }
    });
    let base_decode = time_pass(|| {
        let mut r = BitReader::with_len(w.as_bytes(), w.len());
        for game in games {
            let mut back = Game::new(*game.start());
            let _ = read_moves(&mut r, &mut back, game.moves().len() as u32, MoveFormat::FromTo);
        }
    });
    let ratio = |baseline: Duration, time: Duration| {
        format!("{:.2}", baseline.as_secs_f64() / time.as_secs_f64().max(1e-12))
    };
    println!(
        "| {} (baseline) | {plies} | {:.2} | {} | {} | 1.00 | 1.00 |",
        MoveFormat::FromTo,
        w.len() as f64 / plies.max(1) as f64,
        per_second(plies, base_encode),
        per_second(plies, base_decode),
    );

    for codec in [MoveCodec::Model, MoveCodec::Index] {
        let mut coded: Vec<Vec<u8>> = vec![Vec::new(); games.len()];
        let encode = time_pass(|| {
            for (game, out) in games.iter().zip(&mut coded) {
                out.clear();
                if move_codec::encode(codec, game.start(), game.moves(), out).is_err() {
                    out.clear();
                }
            }
        });
        let mut moves = Vec::new();
        let mut ok = vec![false; games.len()];
        let decode = time_pass(|| {
            for ((game, bytes), ok) in games.iter().zip(&coded).zip(&mut ok) {
                let n = game.moves().len();
                *ok = move_codec::decode(codec, game.start(), n, bytes, &mut moves).is_ok()
                    && moves == game.moves();
            }
        });
        failures += ok.iter().filter(|&&ok| !ok).count() as u64;
        let bytes: usize = coded.iter().map(Vec::len).sum();
        println!(
            "| {codec} | {plies} | {:.3} | {} | {} | {} | {} |",
            bytes as f64 * 8.0 / plies.max(1) as f64,
            per_second(plies, encode),
            per_second(plies, decode),
            ratio(base_encode, encode),
            ratio(base_decode, decode),
        );
    }
    failures
}
