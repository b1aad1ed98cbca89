//! The fuzz target bodies, shared by the cargo-fuzz binaries (`fuzz/fuzz_targets/*.rs`) and the
//! stable test that replays the committed corpora (`crates/chessbits/tests/fuzz_corpus.rs`), so both
//! run identical code. Each body takes arbitrary bytes, must never panic on them, and asserts
//! the properties its name promises; a panic is a finding.
//!
//! Only the chessbits crates are used, so the file compiles in both places.

#![allow(dead_code, reason = "each fuzz binary uses one target")]

use std::io::Cursor;

use chessbits_cbg::{CbgFile, CbgReader};
use chessbits_codec::bits::BitReader;
use chessbits_codec::classic::board::BoardFormat;
use chessbits_codec::classic::encoding::Encoding;
use chessbits_codec::classic::game::GameFormat;
use chessbits_codec::classic::moves::MoveFormat;
use chessbits_codec::classic::position::PositionFormat;
use chessbits_codec::classic::position::StateFormat;
use chessbits_codec::move_codec::MoveCodec;
use chessbits_codec::{compact, move_codec, packed};
use chessbits_move::{Move16, UciMove};
use chessbits_movegen::{Game, MoveGen};
use chessbits_notation::epd::Epd;
use chessbits_notation::fen::Fen;
use chessbits_notation::san::{San, SanPlus};
use chessbits_notation::uci::UciPosition;
use chessbits_pgn::{
    self, Chunks, PgnError, PgnErrorKind, PgnReader, Replay, ReplayError, ReplayedGame, SliceReader,
};
use chessbits_state::{Position, Status};

/// A target's body.
pub type Target = fn(&[u8]);

/// Every target: its name (the fuzz binary and the corpus folder) and its body.
pub const TARGETS: &[(&str, Target)] = &[
    ("fen", fen),
    ("epd", epd),
    ("san", san),
    ("uci", uci),
    ("pgn", pgn),
    ("encodings", encodings),
    ("packed", packed),
    ("compact", compact),
    ("move_codec", move_codec),
    ("move_code", move_code),
    ("game_format", game_format),
    ("cbg", cbg),
    ("legality", legality),
    ("play_undo", play_undo),
    ("round_trips", round_trips),
    ("san_round_trip", san_round_trip),
    ("compressed", compressed),
    ("index", index),
];

/// Start positions the property targets walk from: the start, Kiwipete (castling, en passant,
/// promotions close), a Chess960 array, and an en passant position with a pin.
const STARTS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "nrbbqkrn/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKRN w GBgb - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

/// Splits `data` at its first newline: a header line and the rest.
fn split_line(data: &[u8]) -> (&[u8], &[u8]) {
    match data.iter().position(|&b| b == b'\n') {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[]),
    }
}

/// A position from the first byte (one of [`STARTS`]) and the plies the next bytes choose
/// (the first of them the count, each further byte a move index modulo the legal moves),
/// and the bytes left over.
fn walk(data: &[u8]) -> (Position, Vec<Move16>, &[u8]) {
    let (&choice, rest) = data.split_first().unwrap_or((&0, &[]));
    let fen = STARTS[usize::from(choice) % STARTS.len()];
    let start: Fen = fen.parse().expect("the start positions are FEN");
    let mut pos = start.into_position().expect("the start positions are legal");
    let (&plies, mut rest) = rest.split_first().unwrap_or((&0, &[]));
    let mut moves = Vec::new();
    for _ in 0..plies % 64 {
        let Some((&b, tail)) = rest.split_first() else { break };
        rest = tail;
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[usize::from(b) % legal.len()];
        pos.play_unchecked(m);
        moves.push(m);
    }
    (pos, moves, rest)
}

/// The start position of a walk's first byte.
fn walk_start(data: &[u8]) -> Position {
    walk(&data[..data.len().min(1)]).0
}

/// FEN: parse, print, parse again to the same setup; a position built with every tolerable
/// problem tolerated prints back to itself, and its moves play and undo soundly.
pub fn fen(data: &[u8]) {
    let Ok(fen) = Fen::from_ascii(data) else { return };
    let text = fen.to_string();
    let again: Fen = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(again, fen, "{text}");
    let status = fen.0.status();
    match Position::from_setup_with(&fen.0, Status::all()) {
        Ok(pos) => {
            assert!(!status.intersects(Status::ALWAYS_REJECTED));
            let printed = Fen::from_position(&pos).to_string();
            let back = printed.parse::<Fen>().expect("a position prints as FEN");
            let mut back =
                Position::from_setup_with(&back.0, Status::all()).expect("and reads back");
            // FEN cannot say Chess960 without a right to write (here: rights dropped as bad).
            if pos.castles().is_empty() {
                back.set_castling_mode(pos.castling_mode()).expect("no rights to object");
            }
            assert_eq!(back, pos, "{printed}");
            // Tolerated problems leave a position movegen and make/unmake handle.
            let mut pos = pos;
            for m in pos.legal_moves() {
                let before = pos;
                let undo = pos.play_unchecked(m);
                assert_eq!(pos.key(), pos.compute_key(), "{text} {m:?}");
                let _ = pos.legal_moves();
                pos.undo(undo);
                assert_eq!(pos, before, "{text} {m:?}");
            }
        }
        Err(e) => assert_eq!(e.rejected(), status & Status::ALWAYS_REJECTED),
    }
}

/// EPD: parse, print, parse again to the same record.
pub fn epd(data: &[u8]) {
    let Ok(epd) = Epd::from_ascii(data) else { return };
    let text = epd.to_string();
    let again: Epd = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(again.to_string(), text);
    let _ = epd.into_position();
}

/// SAN against a position: a FEN line (or a walk start when it is not one), then SAN text. A
/// SAN that resolves is legal (or the null move), is written back from the move, and the
/// writing resolves to the same move.
pub fn san(data: &[u8]) {
    let (head, text) = split_line(data);
    let pos = Fen::from_ascii(head)
        .ok()
        .and_then(|f| f.into_position().ok())
        .unwrap_or_else(|| walk_start(head));
    let Ok(san) = SanPlus::from_ascii(text) else { return };
    let _ = san.to_string();
    if let Ok(m) = san.san.to_move(&pos) {
        // `--` is the null move, which PGN allows and move generation never makes.
        assert!(pos.is_legal(m) || m == Move16::NULL, "{m:?}");
        let written = San::from_move(&pos, m);
        assert_eq!(written.to_move(&pos), Ok(m), "{written}");
    }
}

/// UCI: a `position` command replayed, and each word as a UCI move against the start.
pub fn uci(data: &[u8]) {
    if let Ok(cmd) = UciPosition::from_ascii(data) {
        let _ = cmd.to_string();
        if let Ok(game) = cmd.to_game() {
            assert_eq!(cmd.to_position().ok(), Some(*game.position()));
        }
    }
    let pos = Position::new();
    for word in data.split(|b| b.is_ascii_whitespace()) {
        if let Ok(uci) = UciMove::from_ascii(word) {
            if let Ok(m) = pos.resolve_uci(uci) {
                assert_eq!(pos.uci(m), uci);
            }
        }
    }
}

/// PGN, a whole file: the slice reader and the streaming reader (fed in small reads) agree
/// game by game, replayed and as trees; nothing panics.
pub fn pgn(data: &[u8]) {
    let mut slice = SliceReader::new(data);
    // Reads of 1 to 64 bytes, picked by the last byte: the streaming reader meets every
    // boundary its buffer can have.
    let read = 1 + usize::from(data.last().copied().unwrap_or(0) % 64);
    let mut stream = PgnReader::new(Trickle(Cursor::new(data), read));
    loop {
        let a = slice.read_game(&mut Replay::default());
        let b = stream.read_game(&mut Replay::default());
        match (&a, &b) {
            (None, None) => break,
            (Some(Ok(x)), Some(Ok(y))) => assert_eq!(x.game.moves(), y.game.moves()),
            (Some(Err(x)), Some(Err(y))) => assert_eq!(x.to_string(), y.to_string()),
            _ => panic!("slice and stream readers differ: {a:?} / {b:?}"),
        }
    }
    for game in chessbits_pgn::read_games(data).flatten() {
        let _ = game.end_position();
    }
    chunked(data);
    movetext_row(data);
}

/// `data` as the movetext of one row of a games table (`MovetextReader`), on one line as a row
/// is: never a panic, and a row that reads is the one game that its PGN (a tag, then the
/// movetext) holds, move for move.
fn movetext_row(data: &[u8]) {
    let line: Vec<u8> =
        data.iter().map(|&c| if c == b'\n' || c == b'\r' { b' ' } else { c }).collect();
    let row = chessbits_pgn::MovetextReader::new().read_game(&line, &mut Replay::default(), |v| {
        chessbits_pgn::Visitor::tag(v, b"White", chessbits_pgn::RawTag(b"row"))
    });
    if let Ok(row) = row {
        let pgn = [&b"[White \"row\"]\n\n"[..], &line, b"\n"].concat();
        let mut reader = SliceReader::new(&pgn);
        match reader.read_game(&mut Replay::default()) {
            Some(Ok(game)) => assert_eq!(game.game.moves(), row.game.moves()),
            other => panic!("a row that reads is no PGN game: {other:?}"),
        }
        assert!(reader.read_game(&mut Replay::default()).is_none(), "a row is one game");
    }
}

/// Reading `data` in chunks (of a size the first byte picks, down to one byte) gives what one
/// reader gives: games, errors, numbers, starts; and so does the pipeline's guessed cutting,
/// on two threads (run with `-detect_leaks=0`, as `cargo xtask fuzz` does: the threads'
/// thread-local caches are freed as they exit, after the leak check between inputs looks).
fn chunked(data: &[u8]) {
    let describe = |games: u64, start: u64, game: Option<Result<ReplayedGame, _>>| {
        game.map(|g: Result<ReplayedGame, PgnError<ReplayError>>| match g {
            Ok(g) => format!("{games} @{start} {:?}", g.game.moves()),
            Err(e) => format!("{games} @{start} {e}"),
        })
    };
    let size = 1 + usize::from(data.first().copied().unwrap_or(0) % 32) * 9;
    let mut serial = Vec::new();
    let mut numbered = Vec::new();
    let mut reader = SliceReader::new(data);
    while let Some(line) = {
        let game = reader.read_game(&mut Replay::default());
        describe(reader.games(), reader.game_start(), game)
    } {
        // The pipeline's results carry no start: the same line without it.
        let start = format!(" @{} ", reader.game_start());
        numbered.push(line.replacen(&start, " @0 ", 1));
        serial.push(line);
    }
    // One to four threads, each cutter, reading ahead or not, and the serial reading past a
    // piece kept one game cut short (from 0 to 280 bytes) or not, picked by the second byte:
    // the same lines (games, errors with their numbers, lines, columns and offsets) as one
    // reader.
    let pick = data.get(1).copied().unwrap_or(0);
    let threads = 1 + usize::from(pick % 4);
    let guess = pick & 4 == 0;
    let read_ahead = pick & 8 == 0;
    let options = chessbits_pgn::Parallel::new(threads)
        .with_chunk_size(size)
        .with_guess(guess)
        .with_read_ahead(read_ahead);
    let options =
        if pick & 16 != 0 { options.with_hold(usize::from(pick >> 5) * 40) } else { options };
    // And at most 1 to 8 games a chunk's reading, or the default, by the fourth byte.
    let games = data.get(3).copied().unwrap_or(0);
    let options =
        if games & 8 != 0 { options.with_chunk_games(u64::from(games % 8) + 1) } else { options };
    let mut parallel = Vec::new();
    let _ = chessbits_pgn::par_games(
        data,
        &options,
        Replay::default,
        |n, game| describe(n, 0, Some(game)),
        |line| {
            parallel.extend(line);
            Ok::<_, ()>(())
        },
    );
    assert_eq!(numbered, parallel, "{options:?}");
    let mut chunked = Vec::new();
    for mut chunk in Chunks::new(data, size) {
        let mut reader = chunk.reader();
        while let Some(line) = {
            let game = reader.read_game(&mut Replay::default());
            describe(reader.games(), reader.game_start(), game)
        } {
            chunked.push(line);
        }
    }
    assert_eq!(serial, chunked, "chunks of {size} bytes");
    broken_off(data, options);
}

/// The input broken off by a read error at a byte the third byte picks: the pipeline gives the
/// serial reader's games and then the read error, at the same game number, with the error
/// inside it whole, whatever pieces a wrong guess made it read again.
fn broken_off(data: &[u8], options: chessbits_pgn::Parallel) {
    let at = usize::from(data.get(2).copied().unwrap_or(0)) * data.len() / 256;
    let describe = |n: u64, game: Result<ReplayedGame, PgnError<ReplayError>>| match game {
        Ok(g) => format!("{n} {:?}", g.game.moves()),
        Err(e) => {
            if let PgnErrorKind::Io(io) = &e.kind {
                assert!(io.get_ref().is_some_and(|inner| inner.is::<Injected>()), "{io:?}");
            }
            format!("{n} {e}")
        }
    };
    let mut serial = Vec::new();
    let mut reader = PgnReader::new(BrokenOff(data, at));
    while let Some(game) = reader.read_game(&mut Replay::default()) {
        serial.push(describe(reader.games(), game));
    }
    let mut parallel = Vec::new();
    let _ = chessbits_pgn::par_games(
        BrokenOff(data, at),
        &options,
        Replay::default,
        describe,
        |line| {
            parallel.push(line);
            Ok::<_, ()>(())
        },
    );
    assert_eq!(serial, parallel, "broken off at {at}: {options:?}");
}

/// The error a [`BrokenOff`] reader ends with: a type of its own, to be found inside.
#[derive(Debug)]
struct Injected;

impl std::fmt::Display for Injected {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("broken off")
    }
}

impl std::error::Error for Injected {}

/// The bytes before `.1`, then a read error.
struct BrokenOff<'a>(&'a [u8], usize);

impl std::io::Read for BrokenOff<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.1 == 0 {
            return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, Injected));
        }
        let n = buf.len().min(self.1).min(self.0.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        (self.0, self.1) = (&self.0[n..], self.1 - n);
        Ok(n)
    }
}

/// Any bytes as a game file: recognised as compressed or not and read to the end (at most
/// 16 MiB of output) without a panic.
pub fn compressed(data: &[u8]) {
    use std::io::Read;
    if let Ok(input) = chessbits_pgn::Input::new(Cursor::new(data.to_vec())) {
        let mut out = Vec::new();
        let _ = input.take(1 << 24).read_to_end(&mut out);
    }
}

/// A reader that hands out at most 7 bytes a call, to cross every buffer boundary.
struct Trickle<R>(R, usize);

impl<R: std::io::Read> std::io::Read for Trickle<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(self.1);
        self.0.read(&mut buf[..n])
    }
}

/// Every bit-level encoding: the first byte picks one, the rest is decoded; a decoded
/// position encodes and decodes back to itself.
pub fn encodings(data: &[u8]) {
    let (&choice, bytes) = data.split_first().unwrap_or((&0, &[]));
    let names = [
        "nibbles",
        "rle:1",
        "rle:3",
        "rle:6",
        "rle:auto",
        "pieces",
        "grouped",
        "state14",
        "state-full",
        "packed",
        "packed+clocks",
        "compact",
        "compact+clocks",
    ];
    let formats: Vec<Encoding> = names
        .iter()
        .map(|n| n.parse().expect("a known format"))
        .chain(all_position_formats().map(Encoding::Position))
        .collect();
    let encoding = formats[usize::from(choice) % formats.len()];
    let mut r = BitReader::new(bytes);
    let _ = encoding.decode(&mut r).map(|decoded| decoded.to_string());
    if let Encoding::Position(format) = encoding {
        if let Ok(pos) = format.decode(bytes) {
            let bits = format.encode(&pos).expect("a decoded position encodes");
            assert_eq!(format.decode(bits.as_bytes()).ok(), Some(pos), "{format}");
        }
    }
}

/// Every board format with every state format.
fn all_position_formats() -> impl Iterator<Item = PositionFormat> {
    BoardFormat::ALL
        .into_iter()
        .flat_map(|b| StateFormat::ALL.into_iter().map(move |s| PositionFormat::new(b, s)))
}

/// `packed`: decode, and `decode_into` agreeing with it; a decoded position encodes and
/// decodes back.
pub fn packed(data: &[u8]) {
    let _ = packed::decode_setup(data);
    // In place: the same position or error as `decode`, the target left as documented.
    let mut into = Position::new();
    let _ = into.play_null();
    let before = into;
    match (packed::decode(data), packed::decode_into(data, &mut into)) {
        (Ok(pos), Ok(())) => assert_eq!(into, pos),
        (Err(err), Err(got)) => {
            assert_eq!(got, err);
            let impossible = matches!(err.kind, packed::PackedErrorKind::Position(_));
            assert_eq!(into, if impossible { Position::new() } else { before });
        }
        (expected, got) => panic!("decode {expected:?}, decode_into {got:?}"),
    }
    byte_codec(data, |b| packed::decode(b).ok(), |p, c| packed::encode(p, c).as_bytes().to_vec());
}

/// `compact`: decode; a decoded position encodes and decodes back.
pub fn compact(data: &[u8]) {
    let _ = compact::decode_setup(data);
    byte_codec(data, |b| compact::decode(b).ok(), |p, c| compact::encode(p, c).as_bytes().to_vec());
}

/// The round trip of a byte codec with and without clocks, from what `decode` makes of `data`.
fn byte_codec(
    data: &[u8],
    decode: impl Fn(&[u8]) -> Option<Position>,
    encode: impl Fn(&Position, bool) -> Vec<u8>,
) {
    if let Some(pos) = decode(data) {
        for clocks in [false, true] {
            let back = decode(&encode(&pos, clocks)).expect("an encoding decodes");
            assert_eq!(back.board(), pos.board());
            assert_eq!(back.castles(), pos.castles());
        }
    }
}

/// The move codecs: the first byte picks the codec and the start, the second the plies; the
/// rest is decoded; decoded moves encode back to the same bytes.
pub fn move_codec(data: &[u8]) {
    let [choice, plies, bytes @ ..] = data else { return };
    let codec = if choice & 1 == 0 { MoveCodec::Model } else { MoveCodec::Index };
    let start = walk_start(&[choice >> 1]);
    let mut moves = Vec::new();
    if move_codec::decode(codec, &start, usize::from(*plies), bytes, &mut moves).is_ok() {
        let mut out = Vec::new();
        move_codec::encode(codec, &start, &moves, &mut out).expect("decoded moves are legal");
        assert_eq!(out, bytes, "{codec}");
    }
}

/// The per-move bit codes: the first byte picks the code and the start; every decoded move is
/// legal and encodes back.
pub fn move_code(data: &[u8]) {
    let [choice, bytes @ ..] = data else { return };
    let codes = [MoveFormat::FromTo, MoveFormat::SanLike, MoveFormat::SanLike713];
    let code = codes[usize::from(choice % 3)];
    let pos = walk_start(&[choice / 3]);
    if let Ok(m) = code.decode(bytes, &pos) {
        assert!(pos.is_legal(m), "{code} {m:?}");
        let bits = code.encode(&pos, m).expect("a legal move encodes");
        assert_eq!(code.decode(bits.as_bytes(), &pos), Ok(m));
    }
}

/// Game formats: the first byte picks the move code; a decoded game encodes back.
pub fn game_format(data: &[u8]) {
    let [choice, bytes @ ..] = data else { return };
    let codes = [MoveFormat::FromTo, MoveFormat::SanLike, MoveFormat::SanLike713];
    let format = GameFormat::new(codes[usize::from(choice % 3)]);
    if let Ok(game) = format.decode(bytes) {
        let bits = format.encode(&game).expect("a decoded game encodes");
        let back = format.decode(bits.as_bytes()).expect("and decodes");
        assert_eq!(back.moves(), game.moves());
    }
}

/// `.cbg` files: read as a stream and by index; both give the same games.
pub fn cbg(data: &[u8]) {
    let streamed: Vec<_> = match CbgReader::new(Cursor::new(data)) {
        Ok(reader) => reader.take(1000).collect(),
        Err(_) => Vec::new(),
    };
    if let Ok(mut file) = CbgFile::open(Cursor::new(data)) {
        for n in 0..file.len().min(64) {
            let game = file.game(n);
            if let (Ok(g), Some(Ok(s))) = (&game, streamed.get(n as usize)) {
                assert_eq!(g.moves, s.moves);
            }
        }
    }
}

/// Position index files: bytes taken as an index (its checksums made to match, so that the
/// reader's parsing is reached) answer `find` and `explore` for a few positions or fail,
/// never panic; and an index built from the games of a walk finds its last position.
pub fn index(data: &[u8]) {
    use chessbits_index::{BuildOptions, Filter, Index, IndexBuilder, PreparedGame};
    let mut bytes = data.to_vec();
    // Its checksums made to match where its length allows, to reach the checks behind them.
    chessbits_index::reseal(&mut bytes);
    let (pos, moves, _) = walk(data);
    if let Ok(index) = Index::from_bytes(bytes) {
        for query in [Position::new(), pos] {
            let _ = index.find(&query, &Filter::default(), Some(8));
            let _ = index.explore(&query, &Filter::default());
        }
    }
    // Built from the walk's game, twice (one position popular): every position is found.
    let start = walk_start(data);
    let mut game = chessbits_cbg::GameRecord::default();
    game.start = start;
    game.moves = moves;
    let mut builder = IndexBuilder::new(BuildOptions::default().with_popular(2));
    for number in 1..=2 {
        game.number = number;
        builder.push(PreparedGame::new(&game, u32::MAX).expect("a legal walk")).expect("in memory");
    }
    let mut out = Vec::new();
    builder.finish(&mut out).expect("in memory");
    let index = Index::from_bytes(out).expect("an index just built");
    let found = index.find(&pos, &Filter::default(), None).expect("intact");
    assert_eq!(found.len(), 2);
}

/// Legality: after a walk, every generated move passes `is_legal`, and each 16-bit value of
/// the remaining bytes passes `is_legal` exactly when it is generated.
pub fn legality(data: &[u8]) {
    let (pos, _, rest) = walk(data);
    let legal = pos.legal_moves();
    for &m in &legal {
        assert!(pos.is_legal(m), "{m:?}");
    }
    for pair in rest.chunks_exact(2) {
        let m = Move16::from_bits(u16::from_le_bytes([pair[0], pair[1]]));
        assert_eq!(pos.is_legal(m), legal.contains(&m), "{m:?}");
    }
    assert_eq!(pos.count_legal_moves(), legal.len());
}

/// Make/unmake: every legal move played then undone restores the position and its key, and
/// the key kept is the key recomputed.
pub fn play_undo(data: &[u8]) {
    let (mut pos, _, _) = walk(data);
    let before = pos;
    for m in pos.legal_moves() {
        let undo = pos.play_unchecked(m);
        assert_eq!(pos.key(), pos.compute_key(), "{m:?}");
        pos.undo(undo);
        assert_eq!(pos, before, "{m:?}");
    }
}

/// Round trips of every encoder/decoder pair over a walked position and its game.
pub fn round_trips(data: &[u8]) {
    let (pos, moves, _) = walk(data);
    for clocks in [false, true] {
        let p = packed::encode(&pos, clocks);
        assert_eq!(packed::decode(p.as_bytes()).map(|q| *q.board()), Ok(*pos.board()));
        let c = compact::encode(&pos, clocks);
        assert_eq!(compact::decode(c.as_bytes()).map(|q| *q.board()), Ok(*pos.board()));
    }
    for format in all_position_formats() {
        if let Ok(bits) = format.encode(&pos) {
            let back = format.decode(bits.as_bytes()).unwrap_or_else(|e| panic!("{format}: {e}"));
            assert_eq!(back.board(), pos.board(), "{format}");
        }
    }
    let start = walk_start(data);
    for codec in [MoveCodec::Model, MoveCodec::Index] {
        let mut out = Vec::new();
        move_codec::encode(codec, &start, &moves, &mut out).expect("walked moves are legal");
        let mut back = Vec::new();
        move_codec::decode(codec, &start, moves.len(), &out, &mut back).expect("and decode");
        assert_eq!(back, moves, "{codec}");
    }
    let mut game = Game::new(start);
    for &m in &moves {
        game.play(m).expect("walked moves are legal");
    }
    for code in [MoveFormat::FromTo, MoveFormat::SanLike, MoveFormat::SanLike713] {
        let format = GameFormat::new(code);
        let bits = format.encode(&game).expect("a game encodes");
        let back = format.decode(bits.as_bytes()).expect("and decodes");
        assert_eq!(back.moves(), game.moves(), "{code}");
    }
}

/// SAN written for every legal move of a walked position reads back as the same move, and
/// the check suffix agrees with the position after it.
pub fn san_round_trip(data: &[u8]) {
    let (pos, _, _) = walk(data);
    for m in pos.legal_moves() {
        let mut after = pos;
        let plus = SanPlus::from_move_and_play(&mut after, m);
        let text = plus.to_string();
        let read = SanPlus::from_ascii(text.as_bytes()).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(read, plus, "{text}");
        assert_eq!(read.san.to_move(&pos), Ok(m), "{text}");
        assert_eq!(after.is_check(), text.ends_with('+') || text.ends_with('#'), "{text}");
    }
}
