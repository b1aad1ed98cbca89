//! Legal move generation for standard chess and Chess960, on magic bitboards, with perft.
//!
//! The [`MoveGen`] trait adds generation and check detection to
//! [`Position`]: the full legal move list, captures or quiets only, the
//! moves of one piece or to one square, and a bulk per-piece callback ([`PieceMoves`]: an origin
//! and a bitboard of targets) for counting without a list. [`perft`] and [`divide`] count the move
//! tree. Lookup tables are built once, on first use, behind [`tables()`]. For a search,
//! [`generate_split`] fills a tactical and a quiet list in one pass, and a [`MoveStack`] holds
//! such lists for every ply, allocated once.
//!
//! The types its signatures use ([`Position`], [`Setup`], [`Undo`], [`Move16`], [`Square`],
//! ...) are re-exported, so this crate works on its own:
//!
//! ```
//! use chessbits_movegen::{perft, Game, MoveGen, Outcome, Position, Role, Square, Termination, UciMove};
//!
//! let mut pos = Position::new();
//! assert_eq!(pos.legal_moves().len(), 20);
//! let e4 = pos.resolve_uci("e2e4".parse::<UciMove>()?)?;
//! let undo = pos.play(e4)?;
//! assert_eq!(undo.moved().map(|p| p.role), Some(Role::Pawn));
//! assert_eq!(pos.board().role_at(Square::E4), Some(Role::Pawn));
//! assert_eq!(perft(&pos, 2), 600);
//! assert_eq!(pos.outcome(), None);
//!
//! // Fool's mate, in a game that keeps the history for repetitions.
//! let mut game = Game::default();
//! for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
//!     game.play_uci(m.parse()?)?;
//! }
//! let mate = Outcome::Decisive { winner: chessbits_movegen::Color::Black, termination: Termination::Checkmate };
//! assert_eq!(game.outcome(), Some(mate));
//! assert_eq!(game.position().outcome(), Some(mate));
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(unsafe_code)]

pub mod attacks;
mod avx2;
mod game;
mod gen;
mod magics;
mod outcome;
mod perft;
mod search;
mod single;
mod tables;
mod wide;

use core::fmt;
use core::mem::MaybeUninit;

use chessbits_bitboard::isa;

/// The vocabulary of this crate's signatures, re-exported so that it can be used on its own.
#[doc(no_inline)]
pub use chessbits_bitboard::{Bitboard, Color, File, Piece, Rank, Role, Square};
#[doc(no_inline)]
pub use chessbits_move::{CastlingMode, Move16, MoveKind, MoveList, UciMove};
#[doc(no_inline)]
pub use chessbits_state::{CastlingSide, History, Position, PositionError, Setup, Undo};
pub use game::{repetition_key, Game};
pub use gen::{PieceMoves, PieceMovesIter};
pub use outcome::{
    has_insufficient_material, GameResult, InvalidResult, Outcome, ParseOutcomeError, Termination,
};
pub use perft::{divide, perft, perft_hashed, perft_make_unmake, perft_parallel, PerftTable};
pub use search::{generate_split, MoveStack, SplitMoves};
pub use single::MovesTo;
pub use tables::{tables, Tables};

use gen::Gen;

/// A move that is not legal in the position it was offered to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct IllegalMoveError {
    /// The move as offered, in UCI.
    pub uci: UciMove,
}

impl fmt::Display for IllegalMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {}", self.uci)
    }
}

impl std::error::Error for IllegalMoveError {}

/// Legal move generation and check detection on a [`Position`].
pub trait MoveGen {
    /// Every legal move.
    fn legal_moves(&self) -> MoveList;
    /// Legal captures (en passant included, capture-promotions included). With
    /// [`MoveGen::quiets`] it partitions [`MoveGen::legal_moves`]: every move is in exactly one
    /// of the two, and a move is here exactly when its [`Move16::is_capture`] says so.
    fn captures(&self) -> MoveList;
    /// Legal moves that capture nothing (castling and quiet promotions included).
    fn quiets(&self) -> MoveList;
    /// Legal moves of the piece on `from`.
    fn moves_from(&self, from: Square) -> MoveList;
    /// Legal moves to `to` (castling counts as a move to its rook's square).
    fn moves_to(&self, to: Square) -> MoveList;
    /// Calls `visit` with the legal moves of each piece whose origin is in `from` and target in
    /// `to`, until it returns `true`; returns whether it stopped early. No list is built.
    fn visit_moves<F: FnMut(PieceMoves) -> bool>(
        &self,
        from: Bitboard,
        to: Bitboard,
        visit: F,
    ) -> bool;
    /// The number of legal moves, counted without building a list.
    fn count_legal_moves(&self) -> usize;
    /// `true` if the side to move has at least one legal move.
    fn has_legal_moves(&self) -> bool;
    /// The enemy pieces giving check to the side to move.
    fn checkers(&self) -> Bitboard;
    /// `true` if the side to move is in check.
    fn is_check(&self) -> bool;
    /// The pieces of `color` attacking `sq` in the current placement.
    fn attackers_of(&self, sq: Square, color: Color) -> Bitboard;
    /// `true` if `m` is a legal move here (for moves from outside: an engine, a file, a user).
    fn is_legal(&self, m: Move16) -> bool;
    /// The legal move of our piece on `from` to `to`, promoting to `promotion` (given exactly
    /// when a pawn reaches its last rank), if there is one; castling is not found here (its
    /// move targets our own rook). One test, no list and no per-position setup: for reading
    /// moves one at a time (SAN, UCI), where it is several times cheaper than the generator.
    fn legal_move(&self, from: Square, to: Square, promotion: Option<Role>) -> Option<Move16>;
    /// The legal moves to `to` of our pieces of `role` that stand on `origins`, promoting to
    /// `promotion` (given exactly when a pawn reaches its last rank): the moves a SAN such as
    /// `Nbd2` can mean, with `origins` the squares its file and rank allow. Castling is not
    /// found here. At most eight pieces of one role can reach one square, so the list holds them
    /// all; one test per candidate, like [`MoveGen::legal_move`], with no per-position setup.
    ///
    /// ```
    /// use chessbits_bitboard::{Bitboard, Role, Square};
    /// use chessbits_movegen::{MoveGen, Position};
    ///
    /// let pos = Position::new();
    /// let knights = pos.legal_moves_to(Role::Knight, Bitboard::FULL, Square::F3, None);
    /// assert_eq!(knights.len(), 1);
    /// assert_eq!(knights[0].from(), Square::G1);
    /// assert!(pos.legal_moves_to(Role::Bishop, Bitboard::FULL, Square::F3, None).is_empty());
    /// ```
    ///
    /// Provided: the generator's moves of those pieces to `to`
    /// ([`visit_moves`](MoveGen::visit_moves)), filtered. [`Position`] overrides it with the
    /// one-test-per-candidate search above.
    fn legal_moves_to(
        &self,
        role: Role,
        origins: Bitboard,
        to: Square,
        promotion: Option<Role>,
    ) -> MovesTo {
        moves_to_by_visit(self, role, origins, to, promotion)
    }
    /// The en passant square if an en passant capture is legal (FIDE's notion of the position).
    fn legal_ep_square(&self) -> Option<Square>;
    /// Turns a UCI move into the legal move it names: `e1g1` and `e1h1` both name castling when
    /// the king stands on e1 with a right on that side (Chess960's king-takes-rook form is always
    /// accepted; the king-to-destination form is accepted where it cannot be confused with a
    /// plain king move).
    ///
    /// # Errors
    /// [`IllegalMoveError`] if no legal move matches.
    fn resolve_uci(&self, uci: UciMove) -> Result<Move16, IllegalMoveError>;
    /// `true` if the side to move is checkmated.
    fn is_checkmate(&self) -> bool;
    /// `true` if the side to move is stalemated.
    fn is_stalemate(&self) -> bool;
    /// `true` if `color` cannot checkmate by any series of legal moves, by python-chess's
    /// `has_insufficient_material` definition (the one used for flag-fall rulings):
    /// - with a pawn, rook or queen: `false`;
    /// - with knights: `true` only for a single knight (king and knight alone) against an
    ///   opponent that has nothing but its king and queens (anything else could self-block);
    /// - with bishops: `true` only if all bishops on the board (both sides') stand on squares of
    ///   one color and there are no pawns or knights on the board;
    /// - with a bare king: `true`.
    fn has_insufficient_material(&self, color: Color) -> bool;
    /// `true` if neither side can checkmate: [`MoveGen::has_insufficient_material`] for both.
    fn is_insufficient_material(&self) -> bool;
    /// How the game ends in this position, judged from the position alone: the first that
    /// applies of [`Termination::Checkmate`] (the side to move lost), [`Termination::Stalemate`],
    /// [`Termination::InsufficientMaterial`] and [`Termination::SeventyFiveMoves`] (the halfmove
    /// clock at 150 or more). Repetitions need the game's history: [`Game::outcome`] adds
    /// fivefold repetition, and [`Game::claimable_draws`] the draws a player may claim.
    fn outcome(&self) -> Option<Outcome>;
    /// The legal castling moves (king takes own rook, at most two).
    fn castling_moves(&self) -> MoveList;
    /// The legal en passant captures (at most two).
    fn en_passant_moves(&self) -> MoveList;
    /// Plays `m` after checking that it is legal.
    ///
    /// # Errors
    /// [`IllegalMoveError`], leaving the position unchanged, if `m` is not legal.
    fn play(&mut self, m: Move16) -> Result<Undo, IllegalMoveError>;
}

/// The legal moves from `from` to `to`, into a new list: by the copy that writes each target
/// set at once ([`wide::Wide`]) where the CPU has AVX-512 VBMI2, else by the fast-bits copy
/// where it has those features, else by the portable code.
///
/// The list starts uninitialised and the copy called writes it whole, empty list first, and
/// each branch returns right after its one call: so LLVM builds the list in the caller's own
/// slot (its call-slot optimisation). Made empty here, filled through a reference and
/// returned where the branches met, the list was built in a local of this function and copied
/// out, all 516 bytes, on every call (13% of the lists workload's samples; without the copy
/// the peer comparison's move lists ran 131.9 -> 100.3 ms).
#[inline(always)]
fn collect(pos: &Position, from: Bitboard, to: Bitboard) -> MoveList {
    let t = tables();
    #[cfg(target_arch = "x86_64")]
    if let Some(wide) = wide::Wide::detect() {
        let mut out = MaybeUninit::uninit();
        #[allow(unsafe_code, reason = "calls code compiled for CPU features; see Safety")]
        // Safety: a `Wide` exists only where the CPU has the features `collect_wide` is
        // compiled for, and `collect_wide` writes the whole list to `out`.
        unsafe {
            collect_wide(t, pos, from, to, &mut out, wide);
            return out.assume_init();
        }
    }
    #[cfg(target_arch = "x86_64")]
    if isa::has_fast_bits() {
        let mut out = MaybeUninit::uninit();
        #[allow(unsafe_code, reason = "calls code compiled for CPU features; see Safety")]
        // Safety: `collect_fast_bits` is compiled for exactly the features `has_fast_bits`
        // just found, and writes the whole list to `out`.
        unsafe {
            collect_fast_bits(t, pos, from, to, &mut out);
            return out.assume_init();
        }
    }
    let mut out = MaybeUninit::uninit();
    collect_portable(t, pos, from, to, &mut out);
    #[allow(unsafe_code, reason = "the list is written in place; see Safety")]
    // Safety: `collect_portable` writes the whole list to `out`.
    unsafe {
        out.assume_init()
    }
}

isa::avx512_fn! {
    /// The number of legal moves of `pos`, counted with [`wide::Wide`]'s attack map and
    /// set-wise count, compiled for its features.
    fn count_wide(t: &'static Tables, pos: &Position, wide: wide::Wide) -> u64 {
        Gen::new(t, pos).count_with(wide)
    }
}

isa::avx512_fn! {
    /// Writes to `out` the list of the legal moves from `from` to `to`, by [`wide::Wide`]'s
    /// writer and attack map, compiled for its features. (It returns nothing: a returned
    /// reference to the list counts to LLVM as capturing `out`, which rules out building the
    /// list in the caller's return slot; see [`collect`].)
    pub(crate) fn collect_wide(
        t: &'static Tables,
        pos: &Position,
        from: Bitboard,
        to: Bitboard,
        out: &mut MaybeUninit<MoveList>,
        wide: wide::Wide,
    ) {
        Gen::new(t, pos).push_moves_with(from, to, out.write(MoveList::new()), wide);
    }
}

/// [`collect_with`] out of line, for CPUs without the fast-bits features (a call, as the other
/// copies are, so that [`collect`] builds the list in place; see there).
#[inline(never)]
fn collect_portable(
    t: &'static Tables,
    pos: &Position,
    from: Bitboard,
    to: Bitboard,
    out: &mut MaybeUninit<MoveList>,
) {
    collect_with(t, pos, from, to, out);
}

/// The body of [`collect`]'s copies: writes the list to `out`.
#[inline(always)]
fn collect_with(
    t: &'static Tables,
    pos: &Position,
    from: Bitboard,
    to: Bitboard,
    out: &mut MaybeUninit<MoveList>,
) {
    // A list is asked for one position at a time, often of positions that do not follow
    // from one another: our rooks' and queens' lookups are started first (measured: the peer
    // comparison's move lists 5% faster; see `Tables::prefetch_rooks`).
    t.prefetch_rooks(pos.our(Role::Rook) | pos.our(Role::Queen), pos.board().occupied());
    Gen::new(t, pos).push_moves(from, to, out.write(MoveList::new()));
}

/// The legal moves from `from` to `to` that `keep` accepts, through the bulk callback (rare
/// lists, kept off [`collect`], whose few callers are the hot ones).
fn moves_of_kind(
    pos: &Position,
    from: Bitboard,
    to: Bitboard,
    keep: fn(Move16) -> bool,
) -> MoveList {
    let mut list = MoveList::new();
    pos.visit_moves(from, to, |moves| {
        list.extend(moves.into_iter().filter(|&m| keep(m)));
        false
    });
    list
}

isa::fast_bits_copy!(
    /// [`collect_with`] compiled for the fast-bits features.
    fn collect_fast_bits = collect_with(
        t: &'static Tables,
        pos: &Position,
        from: Bitboard,
        to: Bitboard,
        out: &mut MaybeUninit<MoveList>,
    )
);

/// [`MoveGen::legal_moves_to`] from the generator: what the provided method does, and what
/// `Position`'s own is checked against.
fn moves_to_by_visit<G: MoveGen + ?Sized>(
    pos: &G,
    role: Role,
    origins: Bitboard,
    to: Square,
    promotion: Option<Role>,
) -> MovesTo {
    let mut found = MovesTo::new();
    pos.visit_moves(origins, Bitboard::from_square(to), |moves| {
        if moves.role == role {
            let wanted =
                |m: &Move16| m.to() == to && m.promotion() == promotion && !m.is_castling();
            for m in moves.into_iter().filter(wanted) {
                // At most eight pieces of one role reach one square.
                let _ = found.try_push(m);
            }
        }
        false
    });
    found
}

impl MoveGen for Position {
    fn legal_moves(&self) -> MoveList {
        collect(self, Bitboard::FULL, Bitboard::FULL)
    }

    fn captures(&self) -> MoveList {
        // The en passant square is a target only for the pawn that captures there: any other
        // piece stepping onto that empty square makes a quiet move, which the filter drops.
        let targets = self.them() | self.ep_square().map_or(Bitboard::EMPTY, Bitboard::from_square);
        let mut list = collect(self, Bitboard::FULL, targets);
        list.retain(|m| m.is_capture());
        list
    }

    fn quiets(&self) -> MoveList {
        let mut list = collect(self, Bitboard::FULL, !self.them());
        list.retain(|m| !m.is_capture());
        list
    }

    fn moves_from(&self, from: Square) -> MoveList {
        collect(self, Bitboard::from_square(from), Bitboard::FULL)
    }

    fn moves_to(&self, to: Square) -> MoveList {
        collect(self, Bitboard::FULL, Bitboard::from_square(to))
    }

    fn visit_moves<F: FnMut(PieceMoves) -> bool>(
        &self,
        from: Bitboard,
        to: Bitboard,
        visit: F,
    ) -> bool {
        Gen::new(tables(), self).generate_per_piece(from, to, visit)
    }

    fn count_legal_moves(&self) -> usize {
        #[cfg(target_arch = "x86_64")]
        if let Some(wide) = wide::Wide::detect() {
            #[allow(unsafe_code, reason = "calls code compiled for CPU features; see Safety")]
            // Safety: a `Wide` exists only where the CPU has the features `count_wide` is
            // compiled for.
            return unsafe { count_wide(tables(), self, wide) } as usize;
        }
        Gen::new(tables(), self).count() as usize
    }

    fn has_legal_moves(&self) -> bool {
        self.visit_moves(Bitboard::FULL, Bitboard::FULL, |_| true)
    }

    fn checkers(&self) -> Bitboard {
        self.attackers_of(self.our_king(), !self.turn())
    }

    fn is_check(&self) -> bool {
        self.checkers().any()
    }

    fn attackers_of(&self, sq: Square, color: Color) -> Bitboard {
        gen::attackers(tables(), self, sq, color, self.board().occupied())
    }

    fn is_legal(&self, m: Move16) -> bool {
        // One test for a move that is not castling (what `play` checks on every move a game
        // replays); the list of the king's moves for castling, which `legal_move` leaves out.
        if m.is_null() {
            false
        } else if m.is_castling() {
            self.moves_from(m.from()).contains(&m)
        } else {
            self.legal_move(m.from(), m.to(), m.promotion()) == Some(m)
        }
    }

    fn legal_move(&self, from: Square, to: Square, promotion: Option<Role>) -> Option<Move16> {
        single::legal_move(tables(), self, from, to, promotion)
    }

    #[inline]
    fn legal_moves_to(
        &self,
        role: Role,
        origins: Bitboard,
        to: Square,
        promotion: Option<Role>,
    ) -> MovesTo {
        single::legal_moves_to(self, role, origins, to, promotion)
    }

    fn legal_ep_square(&self) -> Option<Square> {
        let ep = self.pseudo_ep_square()?;
        let pawns = self.our(chessbits_bitboard::Role::Pawn);
        let found =
            self.visit_moves(pawns, Bitboard::from_square(ep), |moves| moves.to.contains(ep));
        found.then_some(ep)
    }

    fn resolve_uci(&self, uci: UciMove) -> Result<Move16, IllegalMoveError> {
        let err = IllegalMoveError { uci };
        let UciMove::Normal { from, to, promotion } = uci else { return Err(err) };
        let mut to_mask = Bitboard::from_square(to);
        // King-to-destination castling (e1g1): also look at the castling rook's square.
        if self.board().kings().contains(from) {
            let us = self.turn();
            let standard_form = from.file() == File::E && from.distance(to) == 2;
            for side in CastlingSide::ALL {
                if let Some(rook) = self.castles().rook(us, side) {
                    if to == side.king_to(us) && (standard_form || !self.us().contains(to)) {
                        to_mask.add(rook);
                    }
                }
            }
        }
        // Castling appears here only if `to` is its rook (king takes rook) or was added above.
        let (mut plain, mut castle) = (None, None);
        self.visit_moves(Bitboard::from_square(from), to_mask, |moves| {
            for m in moves.into_iter().filter(|m| m.promotion() == promotion) {
                if m.is_castling() {
                    castle = Some(m);
                } else if m.to() == to {
                    plain = Some(m);
                }
            }
            false
        });
        // A plain king move to g1 wins over castling read from the same text.
        plain.or(castle).ok_or(err)
    }

    fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_moves()
    }

    fn has_insufficient_material(&self, color: Color) -> bool {
        outcome::has_insufficient_material(self.board(), color)
    }

    fn is_insufficient_material(&self) -> bool {
        Color::ALL.into_iter().all(|c| outcome::has_insufficient_material(self.board(), c))
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.has_legal_moves() {
            return Some(if self.is_check() {
                Outcome::Decisive { winner: !self.turn(), termination: Termination::Checkmate }
            } else {
                Outcome::Draw { termination: Termination::Stalemate }
            });
        }
        let termination = if self.is_insufficient_material() {
            Termination::InsufficientMaterial
        } else if self.halfmoves() >= 150 {
            Termination::SeventyFiveMoves
        } else {
            return None;
        };
        Some(Outcome::Draw { termination })
    }

    fn castling_moves(&self) -> MoveList {
        let us = self.turn();
        let rooks = CastlingSide::ALL.into_iter().filter_map(|side| self.castles().rook(us, side));
        // The king's only moves onto its own rooks are castling; the filter only states it.
        moves_of_kind(self, self.our(Role::King), rooks.collect(), Move16::is_castling)
    }

    fn en_passant_moves(&self) -> MoveList {
        let Some(ep) = self.pseudo_ep_square() else { return MoveList::new() };
        moves_of_kind(self, self.our(Role::Pawn), Bitboard::from_square(ep), Move16::is_en_passant)
    }

    fn play(&mut self, m: Move16) -> Result<Undo, IllegalMoveError> {
        if self.is_legal(m) {
            Ok(self.play_unchecked(m))
        } else {
            Err(IllegalMoveError { uci: self.uci(m) })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The list of the legal moves from `from` to `to` written by `copy` into a slot that
    /// holds garbage first, so a copy that relied on the slot's old contents would show.
    fn listed(
        copy: impl FnOnce(&mut MaybeUninit<MoveList>),
        pos: &Position,
        from: Bitboard,
        to: Bitboard,
    ) -> MoveList {
        let mut garbage = MoveList::new();
        garbage.extend(pos.legal_moves().into_iter().rev().take(3));
        let mut out = MaybeUninit::new(garbage);
        copy(&mut out);
        #[allow(unsafe_code, reason = "the slot was initialised above")]
        // Safety: `out` holds a list since `MaybeUninit::new`.
        let list = unsafe { out.assume_init() };
        let mut each = MoveList::new();
        pos.visit_moves(from, to, |moves| {
            each.extend(moves);
            false
        });
        let key = |m: &Move16| m.bits();
        let (mut a, mut b) = (list.to_vec(), each.to_vec());
        a.sort_by_key(key);
        b.sort_by_key(key);
        assert_eq!(a, b, "{pos:?} from {from:?} to {to:?}");
        list
    }

    /// Every copy of [`collect`] (portable, fast bits, wide: those this CPU runs) writes the
    /// same list, the one the per-piece generator gives, on every position three plies from
    /// the start, for all moves and for the moves of one piece or onto the enemy's pieces.
    #[test]
    fn every_copy_of_collect_lists_alike() {
        fn walk(pos: &Position, depth: u32, check: &mut impl FnMut(&Position)) {
            check(pos);
            if depth > 0 {
                for m in pos.legal_moves() {
                    walk(&pos.played_unchecked(m), depth - 1, check);
                }
            }
        }
        let t = tables();
        let mut positions = 0;
        walk(&Position::new(), 3, &mut |pos| {
            positions += 1;
            let masks = [
                (Bitboard::FULL, Bitboard::FULL),
                (Bitboard::FULL, pos.them()),
                (Bitboard::from_square(pos.legal_moves()[0].from()), Bitboard::FULL),
            ];
            for (from, to) in masks {
                let portable = listed(|out| collect_portable(t, pos, from, to, out), pos, from, to);
                assert_eq!(collect(pos, from, to), portable);
                #[cfg(target_arch = "x86_64")]
                #[allow(unsafe_code, reason = "calls code compiled for CPU features; see Safety")]
                {
                    if isa::has_fast_bits() {
                        // Safety: the CPU has the fast-bits features.
                        let fast =
                            |out: &mut _| unsafe { collect_fast_bits(t, pos, from, to, out) };
                        assert_eq!(listed(fast, pos, from, to), portable);
                    }
                    if let Some(wide) = wide::Wide::detect() {
                        // Safety: a `Wide` proves the CPU has the wide features.
                        let wide =
                            |out: &mut _| unsafe { collect_wide(t, pos, from, to, out, wide) };
                        assert_eq!(listed(wide, pos, from, to), portable);
                    }
                }
            }
        });
        assert_eq!(positions, 1 + 20 + 400 + 8902);
    }
}
