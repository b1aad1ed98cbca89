//! The bit-level codecs: positions as `packed` or `compact` bytes, mainlines as move codec
//! bytes, games as `.cbg` files.

use std::fs::File;
use std::io::BufWriter;
use std::path::PathBuf;

use chessbits_cbg::{CbgWriteError, CbgWriter};
use chessbits_codec::move_codec::{self, MoveCodec};
use chessbits_codec::{compact, packed};
use chessbits_move::{CastlingMode, Move16, UciMove};
use chessbits_movegen::MoveGen;
use chessbits_notation::fen::{fen_of, parse_position, FenOptions};
use chessbits_state::Position;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::args;
use crate::errors::{
    bit_error, fen_error, move_decode_error, raise, DecodeError, IllegalMoveError, InvalidMoveError,
};
use crate::games::Games;
use crate::source::{check_output, shown, Source};

/// A position layout.
#[derive(Copy, Clone)]
enum Layout {
    Packed,
    Compact,
}

fn layout(name: &str) -> PyResult<Layout> {
    match name {
        "packed" => Ok(Layout::Packed),
        "compact" => Ok(Layout::Compact),
        other => Err(PyValueError::new_err(format!(
            "format must be 'packed' or 'compact', not {other:?}"
        ))),
    }
}

fn codec(name: &str) -> PyResult<MoveCodec> {
    name.parse().map_err(|e| PyValueError::new_err(format!("{e}")))
}

/// The start position: the standard one, or a FEN.
fn start(fen: Option<&str>) -> PyResult<Position> {
    fen.map_or(Ok(Position::new()), |fen| parse_position(fen).map_err(fen_error))
}

/// The start position of a mainline: `fen`'s (the standard start if `None`), castling
/// written as king takes rook (`e1h1`) when `chess960`, as the games table's `uci` column
/// writes a Chess960 game's.
fn mainline_start(fen: Option<&str>, chess960: bool) -> PyResult<Position> {
    let mut pos = start(fen)?;
    if chess960 {
        // Chess960 notation holds every castling right: this cannot fail.
        let _ = pos.set_castling_mode(CastlingMode::Chess960);
    }
    Ok(pos)
}

/// The position of `fen` in the `packed` or `compact` layout (`clocks`: with the halfmove
/// clock and move number).
#[pyfunction]
#[pyo3(signature = (fen, format="compact", *, clocks=true))]
pub(crate) fn encode_position<'py>(
    py: Python<'py>,
    fen: &str,
    format: &str,
    clocks: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let pos = parse_position(fen).map_err(fen_error)?;
    Ok(match layout(format)? {
        Layout::Packed => PyBytes::new(py, packed::encode(&pos, clocks).as_bytes()),
        Layout::Compact => PyBytes::new(py, compact::encode(&pos, clocks).as_bytes()),
    })
}

/// The FEN of a position in the `packed` or `compact` layout. The bytes carry no checksum:
/// damaged bytes may decode to another legal position (docs/formats.md, "Positions: packed
/// and compact").
#[pyfunction]
#[pyo3(signature = (data, format="compact"))]
pub(crate) fn decode_position(py: Python<'_>, data: &[u8], format: &str) -> PyResult<String> {
    let layout = layout(format)?;
    // The decoders read missing bytes as zeros, an empty board: say what is wrong instead.
    if data.is_empty() {
        return Err(raise::<DecodeError>("the data is empty: no position to decode"));
    }
    let pos = match layout {
        Layout::Packed => packed::decode(data).map_err(|e| bit_error(py, &e))?,
        Layout::Compact => compact::decode(data).map_err(|e| bit_error(py, &e))?,
    };
    Ok(fen_of(&pos, FenOptions::default()))
}

/// Resolves UCI moves from `start` into the library's moves.
fn resolve(start: &Position, moves: &[String]) -> PyResult<Vec<Move16>> {
    let mut pos = *start;
    let mut out = Vec::with_capacity(moves.len());
    for (ply, text) in moves.iter().enumerate() {
        let uci = UciMove::from_ascii(text.as_bytes()).map_err(|e| {
            raise::<InvalidMoveError>(format!("ply {}: invalid uci {text:?}: {e}", ply + 1))
        })?;
        if uci == UciMove::Null {
            // The move codecs code a null move (PGN's `--`), but not in check.
            pos.play_null().map_err(|_| {
                raise::<IllegalMoveError>(format!("ply {}: a null move in check", ply + 1))
            })?;
            out.push(Move16::NULL);
            continue;
        }
        let m = pos
            .resolve_uci(uci)
            .map_err(|e| raise::<IllegalMoveError>(format!("ply {}: {e}", ply + 1)))?;
        pos.play_unchecked(m);
        out.push(m);
    }
    Ok(out)
}

/// A mainline (UCI moves from `start_fen`, the standard start if `None`) as move codec bytes
/// (`"model"`, about 3 bits a move, or `"index"`); `0000` is a null move (not in check).
/// `chess960`: castling is written king takes rook (`e1h1`).
#[pyfunction]
#[pyo3(signature = (moves, *, start_fen=None, codec="model", chess960=false))]
pub(crate) fn encode_moves<'py>(
    py: Python<'py>,
    moves: Vec<String>,
    start_fen: Option<&str>,
    codec: &str,
    chess960: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let (codec, start) = (self::codec(codec)?, mainline_start(start_fen, chess960)?);
    let moves = resolve(&start, &moves)?;
    let mut out = Vec::new();
    move_codec::encode(codec, &start, &moves, &mut out).map_err(raise::<IllegalMoveError>)?;
    Ok(PyBytes::new(py, &out))
}

/// `plies` moves decoded from move codec bytes, as UCI, from `start_fen`; `chess960`:
/// castling written king takes rook (`e1h1`), as the `uci` column writes a Chess960 game's.
/// `plies` and `start_fen` must be those the bytes were encoded with: the bytes hold no
/// count and no checksum, so a count one too high often decodes to the game and one more
/// likely move, one too low to its prefix, and cut or damaged bytes to another game, without
/// an error (docs/formats.md, "The ending").
#[pyfunction]
#[pyo3(signature = (data, plies, *, start_fen=None, codec="model", chess960=false))]
pub(crate) fn decode_moves(
    py: Python<'_>,
    data: &[u8],
    plies: &Bound<'_, PyAny>,
    start_fen: Option<&str>,
    codec: &str,
    chess960: bool,
) -> PyResult<Vec<String>> {
    let plies = args::count(plies, "plies", 0)?;
    let (codec, start) = (self::codec(codec)?, mainline_start(start_fen, chess960)?);
    // Every ply takes at least part of a bit in the worst case, never less than nothing: a
    // ply count far above what the bytes could hold fails at the end of the bytes, but
    // reserve no more than the bytes could code.
    let mut moves = Vec::with_capacity(plies.min(data.len() * 8 + 1));
    let mut decoder = move_codec::MoveDecoder::new(codec, &start, data);
    for _ in 0..plies {
        moves.push(decoder.next_move().map_err(|e| move_decode_error(py, &e))?);
    }
    decoder.finish().map_err(|e| move_decode_error(py, &e))?;
    let mut pos = start;
    Ok(moves
        .iter()
        .map(|&m| {
            let text = pos.uci(m).to_string();
            if m.is_null() {
                // Decoded only where it is legal: not in check.
                let _ = pos.play_null();
            } else {
                pos.play_unchecked(m);
            }
            text
        })
        .collect())
}

/// Reads the games of `source` (PGN or `.cbg`, a path or bytes) and writes them to the
/// `.cbg` file at `path`; returns `(written, failed)`: games that did not read are skipped.
#[pyfunction]
#[pyo3(signature = (source, path, *, codec="model"))]
pub(crate) fn write_cbg(
    py: Python<'_>,
    source: Source,
    path: PathBuf,
    codec: &str,
) -> PyResult<(u64, u64)> {
    let codec = self::codec(codec)?;
    check_output(std::iter::once(&source), &path)?;
    let mut games = Games::open(source)?;
    let io = |e: std::io::Error| PyOSError::new_err(format!("{}: {e}", shown(&path)));
    let file = File::create(&path).map_err(io)?;
    py.detach(|| {
        let mut writer = CbgWriter::new(BufWriter::new(file), codec).map_err(io)?;
        let mut failed = 0;
        while let Some((number, game)) = games.next_game()? {
            match game {
                Ok(mut game) => {
                    game.number = number;
                    match writer.write_game(&game) {
                        Ok(_) => {}
                        Err(CbgWriteError::Io(e)) => return Err(io(e)),
                        Err(_) => failed += 1,
                    }
                    games.recycle(game);
                }
                Err(_) => failed += 1,
            }
        }
        let written = writer.games();
        writer.finish().map_err(io)?.into_inner().map_err(|e| io(e.into_error()))?;
        Ok((written, failed))
    })
}
