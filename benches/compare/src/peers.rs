//! One module per library: each library's perft with bulk counting, perft visiting every leaf,
//! and full legal move list generation, written the fastest idiomatic way its docs show.

use std::hint::black_box;

/// The libraries compared, chessbits first (the reference for counts and ratios).
pub const LIBS: [&str; 4] = ["chessbits", "cozy-chess", "shakmaty", "chess"];

/// One position as each library holds it.
pub struct Boards {
    pub chessbits: chessbits_state::Position,
    pub cozy: cozy_chess::Board,
    pub shakmaty: shakmaty::Chess,
    pub chess: chess::Board,
}

impl Boards {
    /// Parses `fen` with each library's own FEN parser (chessbits: `parse_position`, cozy-chess:
    /// `FromStr`, which reads FEN and Shredder-FEN; shakmaty: `Fen` into `Chess` in standard
    /// castling mode, accepting its "impossible check" positions (two checkers on one line, which
    /// the suites hold) as its docs allow; chess: `FromStr`).
    pub fn parse(fen: &str) -> Result<Boards, String> {
        let bad = |lib: &str, e: &dyn std::fmt::Display| format!("{lib} rejects FEN {fen:?}: {e}");
        let chessbits = chessbits_notation::fen::parse_position(fen).map_err(|e| bad("chessbits", &e))?;
        let cozy = fen.parse::<cozy_chess::Board>().map_err(|e| bad("cozy-chess", &e))?;
        let shakmaty = fen
            .parse::<shakmaty::fen::Fen>()
            .map_err(|e| bad("shakmaty", &e))?
            .into_position(shakmaty::CastlingMode::Standard)
            .or_else(shakmaty::PositionError::ignore_impossible_check)
            .map_err(|e| bad("shakmaty", &e))?;
        let chess = fen.parse::<chess::Board>().map_err(|e| bad("chess", &e))?;
        Ok(Boards { chessbits, cozy, shakmaty, chess })
    }
}

/// Perft with bulk counting at the last ply, by library index into [`LIBS`].
pub fn bulk(lib: usize, b: &Boards, depth: u32) -> u64 {
    match lib {
        0 => chessbits_movegen::perft(&b.chessbits, depth),
        1 => cozy::bulk(&b.cozy, depth),
        2 => shakmaty::perft(&b.shakmaty, depth),
        _ => jordanbray::bulk(&b.chess, depth),
    }
}

/// Perft that plays every move down to the leaves and counts at depth 0.
pub fn leaves(lib: usize, b: &Boards, depth: u32) -> u64 {
    match lib {
        0 => chessbits_movegen::perft_make_unmake(&b.chessbits, depth),
        1 => cozy::leaves(&b.cozy, depth),
        2 => shakmaty_leaves(&b.shakmaty, depth),
        _ => jordanbray::leaves(&b.chess, depth),
    }
}

/// Generates the full legal move list of every position, `passes` times over; returns the total
/// number of moves listed. Each list reaches `black_box` by reference: by value, `black_box`
/// copied the whole returned list (516 bytes for chessbits, more for shakmaty), a copy that
/// code using the list does not make.
pub fn movegen(lib: usize, set: &[Boards], passes: u32) -> u64 {
    let mut total = 0;
    match lib {
        0 => {
            use chessbits_movegen::MoveGen;
            for _ in 0..passes {
                for b in set {
                    let list = black_box(&b.chessbits).legal_moves();
                    total += black_box(&list).len() as u64;
                }
            }
        }
        1 => {
            let mut list = Vec::with_capacity(256);
            for _ in 0..passes {
                for b in set {
                    list.clear();
                    black_box(&b.cozy).generate_moves(|moves| {
                        list.extend(moves);
                        false
                    });
                    total += black_box(&list).len() as u64;
                }
            }
        }
        2 => {
            use shakmaty::Position;
            for _ in 0..passes {
                for b in set {
                    let list = black_box(&b.shakmaty).legal_moves();
                    total += black_box(&list).len() as u64;
                }
            }
        }
        _ => {
            let mut list = Vec::with_capacity(256);
            for _ in 0..passes {
                for b in set {
                    list.clear();
                    list.extend(chess::MoveGen::new_legal(black_box(&b.chess)));
                    total += black_box(&list).len() as u64;
                }
            }
        }
    }
    total
}

/// The number of legal moves of one position (for the check before timing).
pub fn count(lib: usize, b: &Boards) -> u64 {
    movegen(lib, std::slice::from_ref(b), 1)
}

/// cozy-chess, as its `examples/perft.rs` does it: bulk `generate_moves` callbacks counted with
/// `moves.len()`, copy-make (`clone` + `play_unchecked`) above.
mod cozy {
    use cozy_chess::Board;

    pub fn bulk(board: &Board, depth: u32) -> u64 {
        let mut nodes = 0;
        match depth {
            0 => nodes = 1,
            1 => {
                board.generate_moves(|moves| {
                    nodes += moves.len() as u64;
                    false
                });
            }
            _ => {
                board.generate_moves(|moves| {
                    for mv in moves {
                        let mut board = board.clone();
                        board.play_unchecked(mv);
                        nodes += bulk(&board, depth - 1);
                    }
                    false
                });
            }
        }
        nodes
    }

    pub fn leaves(board: &Board, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut nodes = 0;
        board.generate_moves(|moves| {
            for mv in moves {
                let mut board = board.clone();
                board.play_unchecked(mv);
                nodes += leaves(&board, depth - 1);
            }
            false
        });
        nodes
    }
}

/// shakmaty without bulk counting: `legal_moves()`, then `play_unchecked` on a clone (the bulk
/// variant is the crate's own `shakmaty::perft`).
fn shakmaty_leaves(pos: &shakmaty::Chess, depth: u32) -> u64 {
    use shakmaty::Position;
    if depth == 0 {
        return 1;
    }
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            shakmaty_leaves(&child, depth - 1)
        })
        .sum()
}

/// chess (jordanbray): `MoveGen::new_legal(&board).len()` counts the last ply without iterating;
/// `make_move_new` is its copy-make.
mod jordanbray {
    use chess::{Board, MoveGen};

    pub fn bulk(board: &Board, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => MoveGen::new_legal(board).len() as u64,
            _ => MoveGen::new_legal(board).map(|m| bulk(&board.make_move_new(m), depth - 1)).sum(),
        }
    }

    pub fn leaves(board: &Board, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        MoveGen::new_legal(board).map(|m| leaves(&board.make_move_new(m), depth - 1)).sum()
    }
}
