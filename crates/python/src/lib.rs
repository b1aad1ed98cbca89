//! chessbits for Python: the extension module `chessbits._chessbits` behind the Python package
//! `chessbits` (`crates/python/python/chessbits`), built with maturin as an abi3 wheel for
//! Python 3.9 and later.
//!
//! - `games`: `read_games` and `iter_games`, PGN or `.cbg` to Arrow record batches in the
//!   schema of `chessbits export` (with an `error` column, and `moves` as UCI, SAN or the
//!   model codec's bytes), handed to pyarrow as Arrow IPC stream bytes.
//! - `board`: `Move` and `Board`, python-chess's names over the library's `Game`.
//! - `features`: positions of many games or FENs as NumPy arrays, for model training.
//! - `codecs`: `packed`/`compact` positions, move codec bytes, `.cbg` files.
//! - `errors`: one exception class per kind of error, under `ChessbitsError`.
//!
//! The GIL is released around every loop over games or positions.
//!
//! This crate is a `cdylib` that only a Python interpreter can load, so its example is Python
//! (the package's tests run it, `pytest crates/python/tests`), not a Rust doctest:
//!
//! ```text
//! import chessbits
//!
//! table = chessbits.read_games("games.pgn", moves="san")   # a pyarrow.Table
//! board = chessbits.Board()
//! board.push_san("e4")
//! assert board.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
//! data = chessbits.encode_position(board.fen(), "compact")
//! assert chessbits.decode_position(data, "compact") == board.fen()
//! ```

mod args;
mod board;
mod capsule;
mod codecs;
mod drawing;
mod edit;
mod errors;
mod features;
mod games;
mod index;
mod moves;
mod pieces;
mod placement;
mod rows;
mod source;

use pyo3::prelude::*;

/// The pipeline's workers allocate a chunk's builders and free them in another thread's
/// batches; glibc's per-thread arenas then gave memory back to the kernel and faulted it in
/// again at every call, where mimalloc keeps it.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

// Python's allocator, which places a class's fields, aligns to 16 bytes (8 on 32-bit
// targets): a class aligned more would be read misaligned, so more-aligned fields (`Position`,
// 64) sit behind a `Box`. Checked here for every class.
const _: () = {
    use std::mem::align_of;
    assert!(align_of::<moves::Move>() <= 8);
    assert!(align_of::<board::Board>() <= 8);
    assert!(align_of::<moves::Outcome>() <= 8);
    assert!(align_of::<moves::LegalMoves>() <= 8);
    assert!(align_of::<games::BatchReader>() <= 8);
    assert!(align_of::<index::PyIndex>() <= 8);
};

/// The module `chessbits._chessbits`; the package `chessbits` re-exports it.
#[pymodule]
fn _chessbits(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("STARTING_FEN", board::STARTING_FEN)?;
    m.add_class::<moves::Move>()?;
    m.add_class::<board::Board>()?;
    m.add_class::<moves::Outcome>()?;
    m.add_class::<moves::LegalMoves>()?;
    m.add_class::<pieces::Piece>()?;
    m.add_class::<capsule::ArrowBatch>()?;
    m.add_class::<capsule::ArrowSchema>()?;
    m.add_class::<capsule::ArrowStream>()?;
    m.add_class::<pieces::SquareSet>()?;
    m.add_class::<games::BatchReader>()?;
    m.add_class::<index::PyIndex>()?;
    m.add_function(wrap_pyfunction!(index::build_index, m)?)?;
    m.add_function(wrap_pyfunction!(games::read_games_batches, m)?)?;
    m.add_function(wrap_pyfunction!(features::fens_to_columns, m)?)?;
    m.add_function(wrap_pyfunction!(features::game_columns, m)?)?;
    m.add_function(wrap_pyfunction!(codecs::encode_position, m)?)?;
    m.add_function(wrap_pyfunction!(codecs::decode_position, m)?)?;
    m.add_function(wrap_pyfunction!(codecs::encode_moves, m)?)?;
    m.add_function(wrap_pyfunction!(codecs::decode_moves, m)?)?;
    m.add_function(wrap_pyfunction!(codecs::write_cbg, m)?)?;
    m.add("ChessbitsError", py.get_type::<errors::ChessbitsError>())?;
    m.add("FenError", py.get_type::<errors::FenError>())?;
    m.add("PositionError", py.get_type::<errors::PositionError>())?;
    m.add("InvalidMoveError", py.get_type::<errors::InvalidMoveError>())?;
    m.add("IllegalMoveError", py.get_type::<errors::IllegalMoveError>())?;
    m.add("AmbiguousMoveError", py.get_type::<errors::AmbiguousMoveError>())?;
    m.add("PgnError", py.get_type::<errors::PgnError>())?;
    // A reading error's place, as attributes (`None` on the class: where an error does not
    // know it).
    for name in ["game", "line", "column", "byte", "ply"] {
        py.get_type::<errors::PgnError>().setattr(name, py.None())?;
    }
    for name in ["ply", "byte", "bit"] {
        py.get_type::<errors::DecodeError>().setattr(name, py.None())?;
    }
    for name in ["game", "byte"] {
        py.get_type::<errors::CbgError>().setattr(name, py.None())?;
    }
    m.add("DecodeError", py.get_type::<errors::DecodeError>())?;
    m.add("CbgError", py.get_type::<errors::CbgError>())?;
    Ok(())
}
