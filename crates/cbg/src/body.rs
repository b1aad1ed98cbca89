//! The body of a `G` record: one game's flags, tags (in their compact forms), start
//! position, coded mainline, clocks and evaluations, written and read (the layout is in the
//! [module docs](super)); the container around it is `mod.rs`'s.

use chessbits_move::CastlingMode;
use chessbits_notation::fen::fen_of;
use chessbits_pgn::{Clock, Eval, GameResult, Score};
use chessbits_state::Position;

use crate::{CbgError, CbgErrorKind, GameRecord, FEN_OPTIONS, KNOWN_TAGS, MAX_PLIES, PREFIXES};
use chessbits_codec::bits::GameByte;
use chessbits_codec::move_codec::{
    MoveCodec, MoveDecodeError, MoveDecoder, MoveEncodeError, MoveEncoder,
};
use chessbits_codec::packed;

pub(super) fn put_varint(out: &mut Vec<u8>, value: u64) {
    chessbits_codec::bits::leb128(value, |byte| out.push(byte));
}

pub(super) fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    put_varint(out, bytes.len() as u64);
    out.extend_from_slice(bytes);
}

pub(super) const fn zigzag(v: i64) -> u64 {
    (v << 1 ^ v >> 63) as u64
}

pub(super) const fn unzigzag(v: u64) -> i64 {
    (v >> 1) as i64 ^ -((v & 1) as i64)
}

/// A cursor over a record body, naming the file offset of what it reads.
pub(super) struct Cursor<'a> {
    pub(super) bytes: &'a [u8],
    pub(super) at: usize,
    /// The file offset of `bytes[0]`.
    pub(super) base: u64,
    pub(super) game: u64,
}

impl<'a> Cursor<'a> {
    pub(super) fn error(&self, kind: CbgErrorKind) -> CbgError {
        CbgError::new(GameByte { game: self.game, byte: self.base + self.at as u64 }, kind)
    }

    pub(super) fn byte(&mut self, field: &'static str) -> Result<u8, CbgError> {
        let b = self.bytes.get(self.at).copied().ok_or(self.error(CbgErrorKind::Field(field)))?;
        self.at += 1;
        Ok(b)
    }

    pub(super) fn varint(&mut self, field: &'static str) -> Result<u64, CbgError> {
        let start = self.at;
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte(field)?;
            let bits = u64::from(b & 0x7f);
            if shift == 63 && bits > 1 {
                break;
            }
            value |= bits << shift;
            if b & 0x80 == 0 {
                // One encoding per number: no trailing zero groups.
                if b == 0 && self.at - start > 1 {
                    break;
                }
                return Ok(value);
            }
        }
        self.at = start;
        Err(self.error(CbgErrorKind::Field(field)))
    }

    pub(super) fn take(&mut self, n: u64, field: &'static str) -> Result<&'a [u8], CbgError> {
        let end = usize::try_from(n).ok().and_then(|n| self.at.checked_add(n));
        let slice = end.and_then(|end| self.bytes.get(self.at..end));
        let slice = slice.ok_or(self.error(CbgErrorKind::Field(field)))?;
        self.at += slice.len();
        Ok(slice)
    }

    pub(super) fn bytes(&mut self, field: &'static str) -> Result<&'a [u8], CbgError> {
        let n = self.varint(field)?;
        self.take(n, field)
    }

    pub(super) fn u64_le(&mut self, field: &'static str) -> Result<u64, CbgError> {
        let bytes = self.take(8, field)?;
        let mut word = [0u8; 8];
        word.copy_from_slice(bytes);
        Ok(u64::from_le_bytes(word))
    }

    pub(super) fn done(&self) -> Result<(), CbgError> {
        if self.at == self.bytes.len() {
            Ok(())
        } else {
            Err(self.error(CbgErrorKind::Field("record end (bytes left over)")))
        }
    }
}

// ---------------------------------------------------------------------------------------
// Tags.

/// A canonical decimal: digits, no leading zero (but `0`), fits a u64.
pub(super) fn decimal(text: &[u8]) -> Option<u64> {
    if text.is_empty() || text.len() > 19 || !text.iter().all(u8::is_ascii_digit) {
        return None;
    }
    if text.len() > 1 && text.first() == Some(&b'0') {
        return None;
    }
    Some(text.iter().fold(0u64, |n, &d| n * 10 + u64::from(d - b'0')))
}

/// A date part: all digits (its value plus 1) or all `?` (0).
pub(super) fn date_part(text: &[u8]) -> Option<u64> {
    if text.iter().all(|&b| b == b'?') {
        Some(0)
    } else if text.iter().all(u8::is_ascii_digit) {
        Some(text.iter().fold(0u64, |n, &d| n * 10 + u64::from(d - b'0')) + 1)
    } else {
        None
    }
}

pub(super) fn write_date_part(out: &mut Vec<u8>, part: u64, width: usize) -> Option<()> {
    if part == 0 {
        out.extend(core::iter::repeat_n(b'?', width));
    } else {
        let text = format!("{:0width$}", part - 1);
        if text.len() != width {
            return None;
        }
        out.extend_from_slice(text.as_bytes());
    }
    Some(())
}

pub(super) fn put_name(out: &mut Vec<u8>, name: &[u8]) {
    match KNOWN_TAGS.iter().position(|&k| k.as_bytes() == name) {
        Some(i) => put_varint(out, i as u64 + 1),
        None => {
            put_varint(out, 0);
            put_bytes(out, name);
        }
    }
}

pub(super) fn put_value(out: &mut Vec<u8>, name: &[u8], value: &[u8], start: &Position) {
    if let Some(i) = [&b"1-0"[..], b"0-1", b"1/2-1/2", b"*"].iter().position(|&r| r == value) {
        put_varint(out, 8);
        put_varint(out, i as u64);
        return;
    }
    if name == b"FEN" {
        if let Some(i) = FEN_OPTIONS.iter().position(|&o| fen_of(start, o).as_bytes() == value) {
            put_varint(out, 7);
            put_varint(out, i as u64);
            return;
        }
    }
    if let Some(n) = decimal(value) {
        put_varint(out, 1);
        put_varint(out, n);
        return;
    }
    if let (Some(&sign @ (b'+' | b'-')), Some(rest)) = (value.first(), value.get(1..)) {
        if let Some(n) = decimal(rest).filter(|&n| n < 1 << 62) {
            put_varint(out, 2);
            put_varint(out, n << 1 | u64::from(sign == b'-'));
            return;
        }
    }
    if let [y0, y1, y2, y3, b'.', m0, m1, b'.', d0, d1] = *value {
        if let (Some(y), Some(m), Some(d)) =
            (date_part(&[y0, y1, y2, y3]), date_part(&[m0, m1]), date_part(&[d0, d1]))
        {
            put_varint(out, 3);
            put_varint(out, y);
            put_varint(out, m);
            put_varint(out, d);
            return;
        }
    }
    if let [h0, h1, b':', m0, m1, b':', s0, s1] = *value {
        let digits = [h0, h1, m0, m1, s0, s1];
        if digits.iter().all(u8::is_ascii_digit) {
            let [h, m, s] =
                [0, 2, 4].map(|i| u64::from((digits[i] - b'0') * 10 + digits[i + 1] - b'0'));
            if m < 60 && s < 60 {
                put_varint(out, 4);
                put_varint(out, h * 3600 + m * 60 + s);
                return;
            }
        }
    }
    if let Some(plus) = value.iter().position(|&b| b == b'+') {
        if let (Some(base), Some(inc)) = (decimal(&value[..plus]), decimal(&value[plus + 1..])) {
            put_varint(out, 6);
            put_varint(out, base);
            put_varint(out, inc);
            return;
        }
    }
    if let Some(i) = PREFIXES.iter().position(|p| value.starts_with(p.as_bytes())) {
        put_varint(out, 5);
        put_varint(out, i as u64);
        put_bytes(out, &value[PREFIXES[i].len()..]);
        return;
    }
    put_varint(out, 0);
    put_bytes(out, value);
}

pub(super) fn read_value(c: &mut Cursor<'_>, start: &Position) -> Result<Vec<u8>, CbgError> {
    let field = "tag value";
    let at = c.at;
    let bad = |c: &Cursor<'_>| {
        CbgError::new(
            GameByte { game: c.game, byte: c.base + at as u64 },
            CbgErrorKind::Field(field),
        )
    };
    let mut out = Vec::new();
    match c.varint(field)? {
        0 => out.extend_from_slice(c.bytes(field)?),
        1 => out.extend_from_slice(c.varint(field)?.to_string().as_bytes()),
        2 => {
            let v = c.varint(field)?;
            out.push(if v & 1 == 1 { b'-' } else { b'+' });
            out.extend_from_slice((v >> 1).to_string().as_bytes());
        }
        3 => {
            let (y, m, d) = (c.varint(field)?, c.varint(field)?, c.varint(field)?);
            write_date_part(&mut out, y, 4).ok_or(bad(c))?;
            out.push(b'.');
            write_date_part(&mut out, m, 2).ok_or(bad(c))?;
            out.push(b'.');
            write_date_part(&mut out, d, 2).ok_or(bad(c))?;
        }
        4 => {
            let v = c.varint(field)?;
            if v >= 100 * 3600 {
                return Err(bad(c));
            }
            out.extend_from_slice(
                format!("{:02}:{:02}:{:02}", v / 3600, v / 60 % 60, v % 60).as_bytes(),
            );
        }
        5 => {
            let prefix = PREFIXES.get(c.varint(field)? as usize).ok_or(bad(c))?;
            out.extend_from_slice(prefix.as_bytes());
            out.extend_from_slice(c.bytes(field)?);
        }
        6 => {
            let (base, inc) = (c.varint(field)?, c.varint(field)?);
            out.extend_from_slice(format!("{base}+{inc}").as_bytes());
        }
        7 => {
            let options = FEN_OPTIONS.get(c.varint(field)? as usize).ok_or(bad(c))?;
            out.extend_from_slice(fen_of(start, *options).as_bytes());
        }
        8 => {
            let result =
                ["1-0", "0-1", "1/2-1/2", "*"].get(c.varint(field)? as usize).ok_or(bad(c))?;
            out.extend_from_slice(result.as_bytes());
        }
        _ => return Err(bad(c)),
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------
// Columns.

pub(super) fn put_presence<T>(out: &mut Vec<u8>, values: &[Option<T>]) {
    if values.iter().all(Option::is_some) {
        put_varint(out, 0);
    } else {
        put_varint(out, 1);
        for chunk in values.chunks(8) {
            let byte = chunk.iter().enumerate().fold(0u8, |b, (i, v)| b | (v.is_some() as u8) << i);
            out.push(byte);
        }
    }
}

pub(super) fn read_presence(
    c: &mut Cursor<'_>,
    plies: usize,
    field: &'static str,
) -> Result<Vec<bool>, CbgError> {
    match c.varint(field)? {
        0 => Ok(vec![true; plies]),
        1 => {
            let bits = c.take(plies.div_ceil(8) as u64, field)?;
            let present: Vec<bool> = (0..plies)
                .map(|i| bits.get(i / 8).is_some_and(|b| b >> (i % 8) & 1 == 1))
                .collect();
            // Padding bits are zero; an all-set map would be presence 0.
            let pad =
                bits.last()
                    .map_or(0, |&b| if plies.is_multiple_of(8) { 0 } else { b >> (plies % 8) });
            if pad != 0 || present.iter().all(|&p| p) {
                return Err(c.error(CbgErrorKind::Field(field)));
            }
            Ok(present)
        }
        _ => Err(c.error(CbgErrorKind::Field(field))),
    }
}

/// Clock units by code, in milliseconds.
pub(super) const UNITS: [u64; 4] = [1000, 100, 10, 1];

pub(super) fn put_clocks(out: &mut Vec<u8>, clocks: &[Option<Clock>]) {
    put_presence(out, clocks);
    let unit_code =
        (0..3).find(|&u| clocks.iter().flatten().all(|c| c.millis() % UNITS[u] == 0)).unwrap_or(3);
    put_varint(out, unit_code as u64);
    let unit = UNITS[unit_code];
    let mut previous: [Option<u64>; 2] = [None, None];
    let mut last = None;
    for (ply, clock) in clocks.iter().enumerate() {
        if let Some(clock) = clock {
            let value = clock.millis() / unit;
            let predicted = previous[ply % 2].or(last).unwrap_or(0);
            put_varint(out, zigzag(value.wrapping_sub(predicted) as i64));
            previous[ply % 2] = Some(value);
            last = Some(value);
        }
    }
}

pub(super) fn read_clocks(
    c: &mut Cursor<'_>,
    plies: usize,
) -> Result<Vec<Option<Clock>>, CbgError> {
    let field = "clock";
    let present = read_presence(c, plies, field)?;
    let unit_code = c.varint(field)?;
    let unit = *UNITS.get(unit_code as usize).ok_or(c.error(CbgErrorKind::Field(field)))?;
    let mut previous: [Option<u64>; 2] = [None, None];
    let mut last = None;
    let mut clocks = Vec::with_capacity(plies);
    let mut coarser = true;
    for (ply, &p) in present.iter().enumerate() {
        if !p {
            clocks.push(None);
            continue;
        }
        let predicted = previous[ply % 2].or(last).unwrap_or(0);
        // Modulo 2^64, as written: every u64 clock round-trips.
        let value = predicted.wrapping_add(unzigzag(c.varint(field)?) as u64);
        previous[ply % 2] = Some(value);
        last = Some(value);
        let millis = value.checked_mul(unit).ok_or(c.error(CbgErrorKind::Field(field)))?;
        coarser &= unit_code > 0 && millis % UNITS[unit_code as usize - 1] == 0;
        clocks.push(Some(Clock::from_millis(millis)));
    }
    // One encoding per column: the unit is the coarsest that fits.
    if coarser {
        return Err(c.error(CbgErrorKind::Field(field)));
    }
    Ok(clocks)
}

pub(super) fn put_evals(out: &mut Vec<u8>, evals: &[Option<Eval>]) {
    put_presence(out, evals);
    let mut previous = 0i64;
    for eval in evals.iter().flatten() {
        let (x, mate) = match eval.score {
            Score::Centipawns(cp) => {
                let delta = i64::from(cp) - previous;
                previous = i64::from(cp);
                (delta, 0)
            }
            Score::Mate(n) => (i64::from(n), 1),
        };
        put_varint(out, zigzag(x) << 2 | u64::from(eval.depth.is_some()) << 1 | mate);
        if let Some(depth) = eval.depth {
            put_varint(out, u64::from(depth));
        }
    }
}

pub(super) fn read_evals(c: &mut Cursor<'_>, plies: usize) -> Result<Vec<Option<Eval>>, CbgError> {
    let field = "evaluation";
    let present = read_presence(c, plies, field)?;
    let mut previous = 0i64;
    let mut evals = Vec::with_capacity(plies);
    for p in present {
        if !p {
            evals.push(None);
            continue;
        }
        let code = c.varint(field)?;
        let x = unzigzag(code >> 2);
        let score = if code & 1 == 1 {
            Score::Mate(i32::try_from(x).map_err(|_| c.error(CbgErrorKind::Field(field)))?)
        } else {
            let cp = previous + x;
            previous = cp;
            Score::Centipawns(i32::try_from(cp).map_err(|_| c.error(CbgErrorKind::Field(field)))?)
        };
        let depth = if code & 2 == 2 {
            Some(u32::try_from(c.varint(field)?).map_err(|_| c.error(CbgErrorKind::Field(field)))?)
        } else {
            None
        };
        evals.push(Some(Eval { score, depth }));
    }
    Ok(evals)
}

// ---------------------------------------------------------------------------------------
// Game bodies.

pub(super) const RESULTS: [GameResult; 4] =
    [GameResult::WhiteWins, GameResult::BlackWins, GameResult::Draw, GameResult::Unknown];

/// Whether `start` is the standard start position, and in which castling mode.
pub(super) fn standard_start(start: &Position) -> Option<CastlingMode> {
    let mode = start.castling_mode();
    let mut standard = Position::new();
    standard.set_castling_mode(mode).ok()?;
    (*start == standard).then_some(mode)
}

/// What encoding a game body produced: the size of its coded moves.
pub(super) struct Encoded {
    pub(super) move_bytes: usize,
}

/// The flag bit of a body that says a count of skipped games follows the flags.
const SKIPPED_FLAG: u8 = 1 << 5;

pub(super) fn encode_body(
    game: &GameRecord,
    skipped: u64,
    encoder: &mut MoveEncoder,
    codec: MoveCodec,
    moves: &mut Vec<u8>,
    out: &mut Vec<u8>,
) -> Result<Encoded, MoveEncodeError> {
    // The moves first: an illegal one leaves `out` as it was.
    encode_moves(game, encoder, codec, moves)?;
    Ok(assemble_body(game, skipped, moves, out))
}

/// Codes the mainline of `game` into `moves` (cleared first).
fn encode_moves(
    game: &GameRecord,
    encoder: &mut MoveEncoder,
    codec: MoveCodec,
    moves: &mut Vec<u8>,
) -> Result<(), MoveEncodeError> {
    moves.clear();
    encoder.reset(codec, &game.start);
    for &m in &game.moves {
        encoder.push(m)?;
    }
    encoder.finish(moves);
    Ok(())
}

/// Appends the body of `game`, whose mainline `moves` codes, to `out`.
fn assemble_body(game: &GameRecord, skipped: u64, moves: &[u8], out: &mut Vec<u8>) -> Encoded {
    let standard = standard_start(&game.start);
    let clocks = game.clocks.iter().any(Option::is_some);
    let evals = game.evals.iter().any(Option::is_some);
    let result =
        game.result.and_then(|r| RESULTS.iter().position(|&x| x == r)).map_or(0, |i| i + 1);
    let flags = u8::from(standard.is_none())
        | u8::from(standard == Some(CastlingMode::Chess960)) << 1
        | (result as u8) << 2
        | if skipped > 0 { SKIPPED_FLAG } else { 0 }
        | u8::from(clocks) << 6
        | u8::from(evals) << 7;
    out.push(flags);
    if skipped > 0 {
        put_varint(out, skipped);
    }
    put_varint(out, game.tags.len() as u64);
    for (name, value) in &game.tags {
        put_name(out, name);
        put_value(out, name, value, &game.start);
    }
    if standard.is_none() {
        put_bytes(out, packed::encode(&game.start, true).as_bytes());
    }
    put_varint(out, game.moves.len() as u64);
    put_bytes(out, moves);
    if clocks {
        put_clocks(out, &game.clocks);
    }
    if evals {
        put_evals(out, &game.evals);
    }
    Encoded { move_bytes: moves.len() }
}

/// The count of games skipped before a game when packing, as its record's body stores it
/// (after the flags byte), read without decoding the rest; `None` if those bytes do not hold
/// one.
pub(super) fn stored_skipped(body: &[u8], base: u64, game: u64) -> Option<u64> {
    let mut c = Cursor { bytes: body, at: 0, base, game };
    let flags = c.byte("flags").ok()?;
    if flags & SKIPPED_FLAG == 0 {
        return Some(0);
    }
    c.varint("skipped count").ok().filter(|&n| n > 0)
}

pub(super) fn decode_body(
    body: &[u8],
    base: u64,
    game: u64,
    codec: MoveCodec,
) -> Result<GameRecord, CbgError> {
    let mut c = Cursor { bytes: body, at: 0, base, game };
    let flags = c.byte("flags")?;
    let result = match flags >> 2 & 7 {
        0 => None,
        r @ 1..=4 => RESULTS.get(r as usize - 1).copied(),
        _ => return Err(c.error(CbgErrorKind::Field("flags"))),
    };
    if flags & 3 == 3 {
        return Err(c.error(CbgErrorKind::Field("flags")));
    }
    let skipped = if flags & SKIPPED_FLAG != 0 {
        let n = c.varint("skipped count")?;
        if n == 0 {
            return Err(c.error(CbgErrorKind::Field("skipped count")));
        }
        n
    } else {
        0
    };
    // Names and raw value forms first: form 7 needs the start position, which follows.
    let raw_tags = read_tag_names(&mut c)?;
    let start = read_start(&mut c, flags)?;
    let end_of_tags = c.at;
    let mut tags = Vec::with_capacity(raw_tags.len());
    for (name, at) in raw_tags {
        c.at = at;
        tags.push((name, read_value(&mut c, &start)?));
    }
    c.at = end_of_tags;
    let (moves, keys) = read_moves(&mut c, codec, &start)?;
    let plies = moves.len();
    let clocks = if flags & 0x40 != 0 {
        let clocks = read_clocks(&mut c, plies)?;
        if clocks.iter().all(Option::is_none) {
            return Err(c.error(CbgErrorKind::Field("clock")));
        }
        clocks
    } else {
        vec![None; plies]
    };
    let evals = if flags & 0x80 != 0 {
        let evals = read_evals(&mut c, plies)?;
        if evals.iter().all(Option::is_none) {
            return Err(c.error(CbgErrorKind::Field("evaluation")));
        }
        evals
    } else {
        vec![None; plies]
    };
    c.done()?;
    let number = game.checked_add(skipped).ok_or(c.error(CbgErrorKind::Field("skipped count")))?;
    Ok(GameRecord { number, tags, start, moves, clocks, evals, result, keys })
}

/// The tag names of a game body, each with where its value starts (values are read once the
/// start position is known).
pub(super) fn read_tag_names(c: &mut Cursor<'_>) -> Result<Vec<(Vec<u8>, usize)>, CbgError> {
    let tag_count = c.varint("tag count")?;
    if tag_count > c.bytes.len() as u64 {
        return Err(c.error(CbgErrorKind::TooLarge(tag_count)));
    }
    let mut raw_tags = Vec::with_capacity(tag_count as usize);
    for _ in 0..tag_count {
        let name = match c.varint("tag name")? {
            0 => c.bytes("tag name")?.to_vec(),
            k => KNOWN_TAGS
                .get(k as usize - 1)
                .ok_or(c.error(CbgErrorKind::Field("tag name")))?
                .as_bytes()
                .to_vec(),
        };
        let value_at = c.at;
        skip_value(c)?;
        raw_tags.push((name, value_at));
    }
    Ok(raw_tags)
}

/// The start position: `packed` bytes if the flags say one follows, else the standard one
/// (with Chess960 castling if flagged).
pub(super) fn read_start(c: &mut Cursor<'_>, flags: u8) -> Result<Position, CbgError> {
    if flags & 1 == 0 {
        let mut pos = Position::new();
        if flags & 2 != 0 {
            let _ = pos.set_castling_mode(CastlingMode::Chess960);
        }
        return Ok(pos);
    }
    let at = c.at;
    let bytes = c.bytes("start position")?;
    packed::decode(bytes).map_err(|e| {
        CbgError::new(
            GameByte { game: c.game, byte: c.base + at as u64 },
            CbgErrorKind::Position(e),
        )
    })
}

/// The ply count and the coded mainline, decoded from `start`; with the key of the position
/// after each move.
pub(super) fn read_moves(
    c: &mut Cursor<'_>,
    codec: MoveCodec,
    start: &Position,
) -> Result<(Vec<chessbits_move::Move16>, Vec<u64>), CbgError> {
    let plies = c.varint("ply count")?;
    if plies > MAX_PLIES {
        return Err(c.error(CbgErrorKind::TooLarge(plies)));
    }
    let coded = c.bytes("moves")?;
    let coded_at = c.base + (c.at - coded.len()) as u64;
    let game = c.game;
    let mut decoder = MoveDecoder::new(codec, start, coded);
    let mut moves = Vec::with_capacity(plies as usize);
    let mut keys = Vec::with_capacity(plies as usize);
    let moves_error = |e: MoveDecodeError| {
        CbgError::new(GameByte { game, byte: coded_at + e.at.byte as u64 }, CbgErrorKind::Moves(e))
    };
    for _ in 0..plies {
        moves.push(decoder.next_move().map_err(moves_error)?);
        keys.push(decoder.position().key());
    }
    decoder.finish().map_err(moves_error)?;
    Ok((moves, keys))
}

/// Passes over a tag value without building it.
pub(super) fn skip_value(c: &mut Cursor<'_>) -> Result<(), CbgError> {
    let field = "tag value";
    match c.varint(field)? {
        0 => {
            c.bytes(field)?;
        }
        1 | 2 | 4 | 7 | 8 => {
            c.varint(field)?;
        }
        3 => {
            for _ in 0..3 {
                c.varint(field)?;
            }
        }
        5 => {
            c.varint(field)?;
            c.bytes(field)?;
        }
        6 => {
            c.varint(field)?;
            c.varint(field)?;
        }
        _ => return Err(c.error(CbgErrorKind::Field(field))),
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Writing.

/// A game with its mainline coded, ready for
/// [`CbgWriter::write_coded`](crate::CbgWriter::write_coded): coding the moves is most of the
/// cost of writing a game, and this lets it run on worker threads while one writer puts the
/// records in order.
///
/// ```
/// use chessbits_cbg::{CbgReader, CbgWriter, CodedGame, GameBuilder};
/// use chessbits_codec::move_codec::MoveCodec;
/// use chessbits_pgn::SliceReader;
///
/// let mut reader = SliceReader::new(b"1. e4 e5 2. Nf3 1-0");
/// let game = reader.read_game(&mut GameBuilder::default()).unwrap().map_err(|e| e.to_string())?;
/// let coded = CodedGame::new(game, MoveCodec::Model)?; // on a worker
/// let mut writer = CbgWriter::new(Vec::new(), MoveCodec::Model)?;
/// writer.write_coded(&coded)?;
/// let file = writer.finish()?;
/// let back: Vec<_> = CbgReader::new(&file[..])?.collect::<Result<_, _>>()?;
/// assert_eq!(back[0].moves, coded.game().moves);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct CodedGame {
    pub(super) game: GameRecord,
    pub(super) codec: MoveCodec,
    /// Bytes of the coded mainline.
    move_bytes: usize,
    /// The record's body as if no game were skipped before it: the writer sets the flag and
    /// inserts the count when some were.
    body: Vec<u8>,
}

impl CodedGame {
    /// Codes the mainline of `game` with `codec`.
    ///
    /// # Errors
    /// A move of the mainline is not legal (a game read by the library's builder always is)
    /// (a null move in check among them).
    pub fn new(game: GameRecord, codec: MoveCodec) -> Result<CodedGame, MoveEncodeError> {
        let mut encoder = MoveEncoder::new(codec, &game.start);
        CodedGame::with_encoder(game, codec, &mut encoder)
    }

    /// [`new`](Self::new) with an encoder kept from game to game (it holds the model's
    /// scratch tables: making one per game costs an allocation).
    ///
    /// # Errors
    /// As [`new`](Self::new).
    pub fn with_encoder(
        game: GameRecord,
        codec: MoveCodec,
        encoder: &mut MoveEncoder,
    ) -> Result<CodedGame, MoveEncodeError> {
        let mut moves = Vec::new();
        encode_moves(&game, encoder, codec, &mut moves)?;
        let mut body = Vec::new();
        let encoded = assemble_body(&game, 0, &moves, &mut body);
        Ok(CodedGame { game, codec, move_bytes: encoded.move_bytes, body })
    }

    /// The game.
    pub fn game(&self) -> &GameRecord {
        &self.game
    }

    /// Sets the game's number in its input (written as the count of games skipped before it:
    /// [`GameRecord::number`]).
    pub fn set_number(&mut self, number: u64) {
        self.game.number = number;
    }

    /// The bytes of its coded mainline.
    pub fn move_bytes(&self) -> usize {
        self.move_bytes
    }

    /// Appends its body to `out` as [`assemble_body`] writes it with `skipped`: the flag set
    /// and the count after the flags where games were skipped.
    pub(super) fn body_into(&self, skipped: u64, out: &mut Vec<u8>) -> Encoded {
        match self.body.split_first() {
            Some((&flags, rest)) if skipped > 0 => {
                out.push(flags | SKIPPED_FLAG);
                put_varint(out, skipped);
                out.extend_from_slice(rest);
            }
            _ => out.extend_from_slice(&self.body),
        }
        Encoded { move_bytes: self.move_bytes }
    }
}
