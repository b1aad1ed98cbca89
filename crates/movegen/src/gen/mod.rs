//! Strictly legal move generation with check and pin masks, in two shapes over the same facts.
//!
//! [`Gen::new`] finds the per-position facts once: checkers and pinned pieces. Every move
//! then follows the house rules: king moves avoid attacked squares (tested with the king lifted
//! off the board), other moves land on the check mask `between(king, checker) | checker`
//! ([`Gen::check_target`]), pinned pieces stay on `line(king, piece)` ([`Gen::pin_limit`]), en
//! passant is verified on its own (the discovered-check rank case), and castling needs its
//! stored empty path and no attacked square on the king's way ([`Gen::castles`]).
//!
//! Two generators hand the moves out:
//!
//! - [`Gen::generate_set_wise`] moves pawns all at once (one shift per direction) and hands
//!   target *sets* to a [`Sink`]: a counter that adds popcounts (perft's bulk count) or a list
//!   writer that fixes the flag nibble per set, into one list ([`Gen::push_moves`]: every list and
//!   every perft walk) or into a tactical and a quiet list at once ([`Gen::push_split`]). Both
//!   sinks work at a [`Width`]: scalar, or wide (AVX-512, [`crate::wide`]), which writes each
//!   set at once, reads king moves and castling off the enemy's whole attack map, and counts
//!   the unpinned knights' and sliders' moves set-wise.
//! - [`Gen::generate_per_piece`] hands out one [`PieceMoves`] per piece (origin plus a bitboard
//!   of targets), until the visitor says stop: the public callback `visit_moves`, `divide`, and
//!   the splitting of `perft_parallel`.
//!
//! A test compares the two generators' full move lists on every suite position and two plies
//! below (`crates/chessbits/tests/perft_suites.rs`).
//!
//! A generator reads a [`Source`]: a [`Position`], or a [`Child`], the piece sets after a move
//! built without making it, which bulk perft counts at its last-but-one ply.
//!
//! One idea a module: this one holds [`Gen`] and the facts it finds; `rules` the legality rules
//! and attack maps; `per_piece` and `set_wise` the two generators; `sinks` where the set-wise
//! one hands its sets (the counter and the list writers); `source` what a generator reads.
//! The perft-only machinery (the children a bulk node counts, [`Child`], its king's watch)
//! lives under `crate::perft`, in `children`.
//!
//! [`Child`]: crate::perft::children::Child

use chessbits_bitboard::{Bitboard, Color, Square};
use chessbits_state::Position;

use crate::tables::Tables;

mod per_piece;
mod rules;
mod set_wise;
mod sinks;
mod source;

pub(crate) use per_piece::castle;
pub use per_piece::{PieceMoves, PieceMovesIter};
pub(crate) use rules::{attackers, attackers_in, diagonals, Side};
pub(crate) use sinks::{Counter, ListSink, OneList, Sink, SplitLists};
pub(crate) use source::Source;

/// The per-position facts every generation needs, computed once.
///
/// It reads a [`Source`]: a [`Position`], or a [`Child`], the position one move ahead that bulk
/// perft counts without making the move.
pub(crate) struct Gen<'a, P: Source = Position> {
    pub(crate) t: &'static Tables,
    pub(crate) pos: &'a P,
    pub(crate) us: Color,
    pub(crate) occupied: Bitboard,
    pub(crate) ours: Bitboard,
    pub(crate) theirs: Bitboard,
    pub(crate) king: Square,
    pub(crate) checkers: Bitboard,
    pub(crate) pinned: Bitboard,
}

impl<'a> Gen<'a> {
    #[inline(always)]
    pub(crate) fn new(t: &'static Tables, pos: &'a Position) -> Gen<'a> {
        Gen::of(t, pos)
    }
}

impl<'a, P: Source> Gen<'a, P> {
    /// The generator of `pos`.
    #[inline(always)]
    pub(crate) fn of(t: &'static Tables, pos: &'a P) -> Gen<'a, P> {
        let us = pos.turn();
        let board = pos;
        let occupied = board.occupied();
        let ours = board.by_color(us);
        let theirs = board.by_color(!us);
        let king = board.king();

        // Checkers and pins in one pass, without a magic lookup: leapers from their tables, and
        // every enemy slider on one of the king's lines (an empty-board ray) by what stands
        // between it and the king: nothing, it gives check; one piece of ours, that piece is
        // pinned.
        let mut checkers =
            (t.knight(king) & board.knights() | t.pawn(us, king) & board.pawns()) & theirs;
        let mut pinned = Bitboard::EMPTY;
        let snipers = (t.rook_rays(king) & board.straight_sliders()
            | t.bishop_rays(king) & board.diagonal_sliders())
            & theirs;
        for sniper in snipers {
            let between = t.between(king, sniper) & occupied;
            if between.is_empty() {
                checkers.add(sniper);
            } else if !between.more_than_one() {
                pinned |= between & ours;
            }
        }
        debug_assert_eq!(checkers, attackers_in(t, board, king, !us, occupied));
        Gen { t, pos, us, occupied, ours, theirs, king, checkers, pinned }
    }
}
