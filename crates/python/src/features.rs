//! Training data without a Python loop per position: positions of many games, or of FENs, as
//! flat little arrays that the Python layer views as NumPy arrays.
//!
//! Per position: the 12 piece bitboards (white pawn, knight, bishop, rook, queen, king, then
//! black's; bit `i` is square `i`, a1 = 0), the side to move, the castling rights (bits 1 white
//! king side, 2 white queen side, 4 black king side, 8 black queen side), the en passant
//! square when a capture there is legal (else -1), the halfmove clock, optionally the legal
//! moves as a from x to mask of 4,096 bytes, and for game positions the move played there
//! (from, to, promotion piece type or 0), the game's number and the ply.

use chessbits_bitboard::{Color, Role};
use chessbits_cbg::GameRecord;
use chessbits_move::UciMove;
use chessbits_movegen::MoveGen;
use chessbits_notation::fen::parse_position;
use chessbits_state::{CastlingRights, Position};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::args;
use crate::errors::{fen_error, located, PgnError};
use crate::games::Games;
use crate::games::Place;
use crate::source::Source;

/// Which positions of a game are kept: every `every`-th ply from the first, and of those each
/// with probability `threshold / 2^64`, decided by a hash of the seed, the game's number and
/// the ply, so the choice depends on nothing else (not the order games are read in).
#[derive(Copy, Clone)]
struct Sampling {
    every: usize,
    threshold: Option<u64>,
    seed: u64,
}

impl Sampling {
    fn keeps(self, game: u64, ply: usize) -> bool {
        if !ply.is_multiple_of(self.every) {
            return false;
        }
        let Some(threshold) = self.threshold else { return true };
        splitmix64(self.seed ^ splitmix64(game ^ splitmix64(ply as u64))) < threshold
    }
}

/// SplitMix64's output function: a well-mixed 64-bit hash of `x`.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Games read between two looks at Python's signals (Ctrl-C).
const GAMES_PER_BLOCK: usize = 4096;

/// The columns of many positions, grown together.
#[derive(Default)]
struct Columns {
    bitboards: Vec<u64>,
    turn: Vec<u8>,
    castling: Vec<u8>,
    ep_square: Vec<i8>,
    halfmove_clock: Vec<u32>,
    legal: Vec<u8>,
    with_legal: bool,
    move_from: Vec<u8>,
    move_to: Vec<u8>,
    move_promotion: Vec<u8>,
    game: Vec<i64>,
    ply: Vec<u32>,
}

impl Columns {
    fn push(&mut self, pos: &Position) {
        let board = pos.board();
        for color in [Color::White, Color::Black] {
            for role in Role::ALL {
                self.bitboards.push((board.by_role(role) & board.by_color(color)).0);
            }
        }
        self.turn.push(u8::from(pos.turn() == Color::White));
        let rights: CastlingRights = pos.castles().rights();
        self.castling.push(rights.bits());
        self.ep_square.push(pos.legal_ep_square().map_or(-1, |s| s as i8));
        self.halfmove_clock.push(pos.halfmoves());
        if self.with_legal {
            let at = self.legal.len();
            self.legal.resize(at + 4096, 0);
            for m in pos.legal_moves() {
                if let chessbits_move::UciMove::Normal { from, to, .. } = pos.uci(m) {
                    self.legal[at + from as usize * 64 + to as usize] = 1;
                }
            }
        }
    }

    /// The positions of `game` that `sampling` keeps, with the moves played there.
    fn push_game(&mut self, number: u64, game: &GameRecord, sampling: Sampling) {
        let mut pos = game.start;
        for (ply, &m) in game.moves.iter().enumerate() {
            if sampling.keeps(number, ply) && !m.is_null() {
                self.push(&pos);
                let (from, to, promotion) = match pos.uci(m) {
                    UciMove::Normal { from, to, promotion } => {
                        (from as u8, to as u8, promotion.map_or(0, |r| r as u8 + 1))
                    }
                    UciMove::Null => (0, 0, 0),
                };
                self.move_from.push(from);
                self.move_to.push(to);
                self.move_promotion.push(promotion);
                self.game.push(number as i64);
                self.ply.push(ply as u32);
            }
            // The record's moves were replayed by the reader: legal.
            if m.is_null() {
                let _ = pos.play_null();
            } else {
                pos.play_unchecked(m);
            }
        }
    }

    /// The columns as `name: (bytes, dtype, shape)`.
    fn into_dict<'py>(self, py: Python<'py>, moves: bool) -> PyResult<Bound<'py, PyDict>> {
        let n = self.turn.len();
        let dict = PyDict::new(py);
        let put = |name: &str, bytes: &[u8], dtype: &str, shape: Vec<usize>| {
            dict.set_item(name, (PyBytes::new(py, bytes), dtype, shape))
        };
        let le = |words: &[u64]| words.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>();
        put("bitboards", &le(&self.bitboards), "<u8", vec![n, 12])?;
        put("turn", &self.turn, "u1", vec![n])?;
        put("castling", &self.castling, "u1", vec![n])?;
        let ep: Vec<u8> = self.ep_square.iter().map(|&s| s as u8).collect();
        put("ep_square", &ep, "i1", vec![n])?;
        let clock: Vec<u8> = self.halfmove_clock.iter().flat_map(|c| c.to_le_bytes()).collect();
        put("halfmove_clock", &clock, "<u4", vec![n])?;
        if self.with_legal {
            put("legal_moves", &self.legal, "u1", vec![n, 64, 64])?;
        }
        if moves {
            put("move_from", &self.move_from, "u1", vec![n])?;
            put("move_to", &self.move_to, "u1", vec![n])?;
            put("move_promotion", &self.move_promotion, "u1", vec![n])?;
            let game: Vec<u8> = self.game.iter().flat_map(|g| g.to_le_bytes()).collect();
            put("game", &game, "<i8", vec![n])?;
            let ply: Vec<u8> = self.ply.iter().flat_map(|p| p.to_le_bytes()).collect();
            put("ply", &ply, "<u4", vec![n])?;
        }
        Ok(dict)
    }
}

/// The positions of FENs as arrays (see the module docs); the Rust side of
/// `chessbits.fens_to_arrays`.
#[pyfunction]
#[pyo3(signature = (fens, *, legal_moves=false))]
pub(crate) fn fens_to_columns<'py>(
    py: Python<'py>,
    fens: Vec<String>,
    legal_moves: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let columns = py.detach(|| {
        let mut columns = Columns { with_legal: legal_moves, ..Columns::default() };
        for (i, fen) in fens.iter().enumerate() {
            columns.push(&parse_position(fen).map_err(|e| (i, e))?);
        }
        Ok(columns)
    });
    match columns {
        Ok(columns) => columns.into_dict(py, false),
        Err((i, e)) => {
            // The exception class of the error, with the FEN's index before its message.
            let err = fen_error(e);
            Err(PyErr::from_type(err.get_type(py), format!("fens[{i}]: {e}")))
        }
    }
}

/// The positions before each sampled move of every game of `source`, with the move played
/// (see the module docs); the Rust side of `chessbits.game_positions`. `every`: one ply in
/// `every` (from the first); `sample`: of those, each with this probability, chosen by
/// `seed`. Games that do not read are skipped, or raise `PgnError` with `strict`.
/// `every` and `seed` are 1 and 0 when `None`.
#[pyfunction]
#[pyo3(signature = (source, *, every=None, sample=None, seed=None, legal_moves=false, strict=false))]
#[allow(clippy::too_many_arguments, reason = "Python keyword arguments")]
pub(crate) fn game_columns<'py>(
    py: Python<'py>,
    source: Source,
    every: Option<&Bound<'py, PyAny>>,
    sample: Option<f64>,
    seed: Option<&Bound<'py, PyAny>>,
    legal_moves: bool,
    strict: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let every = args::count_or(every, "every", 1, 1)?;
    let seed = seed.map_or(Ok(0), |seed| args::integer(seed, "seed", 0))?;
    let threshold = match sample {
        None => None,
        Some(p) if p > 0.0 && p <= 1.0 => Some((p * u64::MAX as f64) as u64),
        Some(p) => return Err(PyValueError::new_err(format!("sample must be in (0, 1], not {p}"))),
    };
    let sampling = Sampling { every, threshold, seed };
    let mut games = Games::open(source)?;
    let mut columns = Columns { with_legal: legal_moves, ..Columns::default() };
    loop {
        // A block of games without the GIL, then a look at Ctrl-C.
        // The first game that did not read, with `strict`: raised once the GIL is back.
        let done = py.detach(|| -> PyResult<Result<bool, (u64, String, Place)>> {
            for _ in 0..GAMES_PER_BLOCK {
                match games.next_game()? {
                    None => return Ok(Ok(true)),
                    Some((number, Ok(game))) => {
                        columns.push_game(number, &game, sampling);
                        games.recycle(game);
                    }
                    Some((number, Err((e, _, place)))) if strict => {
                        return Ok(Err((number, e, place)))
                    }
                    Some((_, Err(_))) => {}
                }
            }
            Ok(Ok(false))
        })?;
        match done {
            Ok(true) => break,
            Ok(false) => {}
            Err((number, message, place)) => {
                return Err(located::<PgnError>(
                    py,
                    &format!("game {number}, {message}"),
                    number,
                    &place,
                ))
            }
        }
        py.check_signals()?;
    }
    columns.into_dict(py, true)
}
