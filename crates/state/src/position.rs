//! [`Position`]: a validated position with make/unmake and an incremental Zobrist key.

use core::fmt;

use chessbits_bitboard::{attacks, Bitboard, Color, File, Piece, Role, Square};
use chessbits_move::{CastlingMode, Move16, Move32, UciMove};

use crate::board::{self, EMPTY};
use crate::validate::{self, Checked};
use crate::{zobrist, Board, Castles, CastlingRights, CastlingSide, Setup, Status};

/// A legal chess position: placement, side to move, castling rights (Chess960-capable), en passant
/// square, the two clocks and the Polyglot Zobrist key, kept incrementally.
///
/// `Position` is a small `Copy` struct, so searching by copy-make is cheap; make/unmake through
/// [`Position::play_unchecked`] and [`Position::undo`] restores it bit for bit. Legal move
/// generation lives in `chessbits-movegen`.
///
/// ```
/// use chessbits_bitboard::{Role, Square};
/// use chessbits_move::{Move16, MoveKind};
/// use chessbits_state::Position;
///
/// let mut pos = Position::new();
/// let before = pos;
/// let e4 = Move16::new(Square::E2, Square::E4, MoveKind::DoublePush);
/// let undo = pos.play_unchecked(e4);
/// assert_eq!(pos.board().role_at(Square::E4), Some(Role::Pawn));
/// assert_eq!(pos.key(), 0x823c9b50fd114196); // Polyglot's published key
/// pos.undo(undo);
/// assert_eq!(pos, before);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Position {
    board: Board,
    castles: Castles,
    key: u64,
    turn: Color,
    ep_square: Option<Square>,
    halfmoves: u32,
    fullmoves: u32,
    /// How this game writes castling in UCI, fixed when the position was built.
    mode: CastlingMode,
}

/// Everything needed to take a move back: the move with the pieces it moved and took, and the
/// state it replaced.
///
/// It answers for the moved piece, from, to, captured piece, promoted piece, castling side and
/// en-passant flag, and gives the whole move as a [`Move32`]; it also keeps the castling rights,
/// en passant square, clocks and key from before the move. 24 bytes: the move is kept as a
/// [`Move16`] with two board codes, and the `Move32` is built only when asked for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Undo {
    mv: Move16,
    /// Board codes of the moved and the captured piece (`EMPTY` for none).
    moved_code: u8,
    captured_code: u8,
    rights: CastlingRights,
    ep_square: Option<Square>,
    halfmoves: u32,
    fullmoves: u32,
    key: u64,
}

impl Undo {
    /// The move as played.
    #[inline]
    pub const fn move16(&self) -> Move16 {
        self.mv
    }

    /// The move as a [`Move32`], with the moved piece and the captured role filled in.
    #[inline]
    pub fn move32(&self) -> Move32 {
        self.mv.to_move32(self.moved(), self.captured().map(|p| p.role))
    }

    /// The square the piece left.
    #[inline]
    pub const fn from(&self) -> Square {
        self.mv.from()
    }

    /// The square the piece went to (the rook's square for castling).
    #[inline]
    pub const fn to(&self) -> Square {
        self.mv.to()
    }

    /// The piece that moved.
    #[inline]
    pub fn moved(&self) -> Piece {
        // The code always comes from a real piece in `play_unchecked`.
        board::piece_of(self.moved_code).unwrap_or(Piece::new(Color::White, Role::Pawn))
    }

    /// The piece captured, if any (for en passant, the pawn taken).
    #[inline]
    pub fn captured(&self) -> Option<Piece> {
        board::piece_of(self.captured_code)
    }

    /// The piece the pawn became, if the move promoted.
    #[inline]
    pub fn promoted(&self) -> Option<Piece> {
        self.mv.promotion().map(|role| role.of(self.moved().color))
    }

    /// The castling side, if the move castled.
    #[inline]
    pub fn castling_side(&self) -> Option<CastlingSide> {
        self.mv.is_castling().then(|| CastlingSide::from_king_rook(self.mv.from(), self.mv.to()))
    }

    /// `true` if the move captured en passant.
    #[inline]
    pub const fn is_en_passant(&self) -> bool {
        self.mv.is_en_passant()
    }
}

/// Why a [`Setup`] is not a legal position: every problem found (see [`Status`]), of which
/// at least one was not tolerated.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    status: Status,
    rejected: Status,
}

impl PositionError {
    /// Every problem of the setup, tolerated or not.
    #[inline]
    pub const fn status(&self) -> Status {
        self.status
    }

    /// The problems that were not tolerated (never empty).
    #[inline]
    pub const fn rejected(&self) -> Status {
        self.rejected
    }
}

impl fmt::Display for PositionError {
    /// The problems that were not tolerated, as [`Status`] writes them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.rejected.fmt(f)
    }
}

impl std::error::Error for PositionError {}

/// A request for standard castling notation in a position whose castling rights need
/// Chess960's (see [`Position::set_castling_mode`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CastlingModeError;

impl fmt::Display for CastlingModeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("these castling rights need Chess960 notation")
    }
}

impl std::error::Error for CastlingModeError {}

/// A null move offered while the side to move is in check (see [`Position::play_null`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct NullMoveError;

impl fmt::Display for NullMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("null move while in check")
    }
}

impl std::error::Error for NullMoveError {}

impl Default for Position {
    fn default() -> Position {
        Position::new()
    }
}

impl Position {
    /// The standard starting position.
    pub fn new() -> Position {
        match Position::from_setup(&Setup::default()) {
            Ok(pos) => pos,
            Err(_) => unreachable!("the start position is legal"),
        }
    }

    /// Validates `setup` into a position, tolerating only
    /// [`Status::TOLERATED_BY_DEFAULT`] (impossible checks).
    ///
    /// # Errors
    /// [`PositionError`] with every problem found (see [`Setup::status`]).
    #[inline]
    pub fn from_setup(setup: &Setup) -> Result<Position, PositionError> {
        Position::from_setup_with(setup, Status::TOLERATED_BY_DEFAULT)
    }

    /// Validates `setup` into a position, tolerating the problems in `tolerate`: the escape
    /// hatch for loading odd positions on purpose.
    ///
    /// [`Status::ALWAYS_REJECTED`] is refused whatever `tolerate` says. What a tolerated problem
    /// leaves behind:
    /// - `BAD_CASTLING_RIGHTS`: the rights that cannot be real are dropped, the others kept.
    /// - `BAD_EN_PASSANT`: the en passant square is dropped.
    /// - `PAWN_ON_BACK_RANK`: the pawn stays; a pawn on its own first rank moves one square at
    ///   a time, one on its last rank never moves.
    /// - `TOO_MANY_CHECKERS`, `IMPOSSIBLE_CHECK`: kept as they are; only king moves answer
    ///   two or more checkers.
    ///
    /// Every position built this way keeps what movegen relies on: one king per side, the side
    /// not to move not in check, rights and en passant square backed by their pieces, at most
    /// 218 legal moves. Move generation, `play`/`undo` and the key stay sound (no panic, no
    /// overflow); the position may be unreachable from the start, so encoders that assume a
    /// reachable position may refuse it.
    ///
    /// ```
    /// use chessbits_bitboard::Square;
    /// use chessbits_state::{Position, Setup, Status};
    ///
    /// let mut setup = Setup::default();
    /// setup.ep_square = Some(Square::E3);
    /// let err = Position::from_setup(&setup).unwrap_err();
    /// assert_eq!(err.status(), Status::BAD_EN_PASSANT);
    /// let pos = Position::from_setup_with(&setup, Status::BAD_EN_PASSANT)?;
    /// assert_eq!(pos.ep_square(), None);
    /// # Ok::<_, chessbits_state::PositionError>(())
    /// ```
    ///
    /// # Errors
    /// [`PositionError`] if a problem outside `tolerate` (or in [`Status::ALWAYS_REJECTED`])
    /// was found.
    pub fn from_setup_with(setup: &Setup, tolerate: Status) -> Result<Position, PositionError> {
        let Checked { status, kings, castles, ep_square } = validate::check(setup);
        let rejected = status - (tolerate - Status::ALWAYS_REJECTED);
        if !rejected.is_empty() {
            return Err(PositionError { status, rejected });
        }
        let mode =
            if castles.is_chess960(kings) { CastlingMode::Chess960 } else { setup.castling_mode };
        let pos = Position {
            board: setup.board,
            castles,
            key: 0,
            turn: setup.turn,
            ep_square,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves.max(1),
            mode,
        };
        Ok(Position { key: pos.compute_key(), ..pos })
    }

    /// The fields of this position as an unvalidated [`Setup`].
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            turn: self.turn,
            castling_rooks: self.castles.rook_squares(),
            ep_square: self.ep_square,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
            castling_mode: self.mode,
        }
    }

    /// Attackers of `sq` of `color`, with slow reference attacks (validation only).
    fn attackers_slow(&self, sq: Square, color: Color) -> Bitboard {
        validate::attackers(&self.board, sq, color)
    }

    /// The placement.
    #[inline]
    pub const fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    #[inline]
    pub const fn turn(&self) -> Color {
        self.turn
    }

    /// The castling rights and their rooks.
    #[inline]
    pub const fn castles(&self) -> &Castles {
        &self.castles
    }

    /// The en passant square as recorded: set after every double push (and as given by a setup),
    /// whether or not a capture is possible. See [`Position::pseudo_ep_square`].
    #[inline]
    pub const fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// The en passant file as recorded.
    #[inline]
    pub fn ep_file(&self) -> Option<File> {
        self.ep_square.map(Square::file)
    }

    /// The en passant square if a pawn of the side to move stands ready to capture there (the
    /// capture may still be illegal because of a pin). This is Polyglot's rule for the key.
    #[inline]
    pub fn pseudo_ep_square(&self) -> Option<Square> {
        let ep = self.ep_square?;
        (attacks::pawn(!self.turn, ep) & self.our(Role::Pawn)).any().then_some(ep)
    }

    /// Halfmoves since the last capture or pawn move (the fifty-move counter).
    #[inline]
    pub const fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The move number: 1 at the start, incremented after each black move.
    #[inline]
    pub const fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// The number of plies played since the start of the game, as the clocks say.
    #[inline]
    pub const fn ply(&self) -> u32 {
        (self.fullmoves - 1).saturating_mul(2).saturating_add(self.turn as u32)
    }

    /// The Polyglot Zobrist key, kept incrementally.
    #[inline]
    pub const fn key(&self) -> u64 {
        self.key
    }

    /// The pieces of the side to move.
    #[inline]
    pub const fn us(&self) -> Bitboard {
        self.board.by_color(self.turn)
    }

    /// The pieces of the side not to move.
    #[inline]
    pub const fn them(&self) -> Bitboard {
        self.board.by_color(self.turn.other())
    }

    /// The side to move's pieces of `role`.
    #[inline]
    pub const fn our(&self, role: Role) -> Bitboard {
        Bitboard(self.us().0 & self.board.by_role(role).0)
    }

    /// The opponent's pieces of `role`.
    #[inline]
    pub const fn their(&self, role: Role) -> Bitboard {
        Bitboard(self.them().0 & self.board.by_role(role).0)
    }

    /// The square of the side to move's king.
    #[inline]
    pub fn our_king(&self) -> Square {
        // A validated position has exactly one king per side.
        self.our(Role::King).first().unwrap_or(Square::A1)
    }

    /// The square of `color`'s king.
    #[inline]
    pub fn king_of(&self, color: Color) -> Square {
        self.board.king_of(color).unwrap_or(Square::A1)
    }

    /// How this game writes castling in UCI: fixed when the position was built (from
    /// [`Setup::castling_mode`], which parsers fill from the FEN flavour or a `Variant` tag) and
    /// kept through every move, so a Chess960 game stays Chess960 after its rights are gone and
    /// when its king and rooks happen to stand on e1, a1 and h1. A position whose rights
    /// standard notation cannot write (a rook off its corner, a king off the e-file) is always
    /// `Chess960`.
    #[inline]
    pub const fn castling_mode(&self) -> CastlingMode {
        self.mode
    }

    /// Sets how this game writes castling (see [`Position::castling_mode`]).
    ///
    /// # Errors
    /// [`CastlingModeError`], leaving the mode as it was, when asked for `Standard` while a
    /// castling right needs Chess960 notation.
    pub fn set_castling_mode(&mut self, mode: CastlingMode) -> Result<(), CastlingModeError> {
        let kings = [self.board.king_of(Color::White), self.board.king_of(Color::Black)];
        if mode == CastlingMode::Standard && self.castles.is_chess960(kings) {
            return Err(CastlingModeError);
        }
        self.mode = mode;
        Ok(())
    }

    /// `m` as UCI text for this game: castling as the king's two-square step (`e1g1`) in
    /// standard chess and as king takes rook (`e1h1`, `b1a1`) in Chess960, so that no castling
    /// move ever reads like a king step. Prefer it to `Move16`'s `Display`, which cannot know
    /// the game.
    #[inline]
    pub const fn uci(&self, m: Move16) -> UciMove {
        m.to_uci(self.mode)
    }

    /// Sets the clocks (the halfmove clock and the move number, at least 1).
    pub fn set_clocks(&mut self, halfmoves: u32, fullmoves: u32) {
        self.halfmoves = halfmoves;
        self.fullmoves = fullmoves.max(1);
    }

    /// The key computed from scratch.
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for sq in self.board.occupied() {
            if let Some(piece) = self.board.piece_at(sq) {
                key ^= zobrist::piece(piece, sq);
            }
        }
        key ^= zobrist::castling(self.castles.rights());
        if let Some(ep) = self.pseudo_ep_square() {
            key ^= zobrist::en_passant(ep.file());
        }
        if self.turn == Color::White {
            key ^= zobrist::white_to_move();
        }
        key
    }

    /// The [`Move32`] form of `m` in this position (moved piece and captured role filled in).
    #[inline]
    pub fn move32(&self, m: Move16) -> Move32 {
        let moved = self.board.piece_at(m.from()).unwrap_or(Piece::new(self.turn, Role::Pawn));
        let captured = if m.is_capture() { self.board.role_at(m.to()) } else { None };
        m.to_move32(moved, captured)
    }

    /// Plays `m`, which must be legal in this position, and returns the record that undoes it.
    ///
    /// The move is not checked (only debug assertions look at it): playing an illegal move
    /// leaves the position in an unspecified but memory-safe state. Use the movegen crate's
    /// `is_legal` or its move list for moves from outside.
    #[inline(always)]
    pub fn play_unchecked(&mut self, m: Move16) -> Undo {
        let us = self.turn;
        let (from, to, flag) = (m.from(), m.to(), m.flag());
        let code = self.board.code_at(from);
        debug_assert!(
            code != EMPTY && code >> 3 == us as u8,
            "no piece of the side to move on {from}: {m:?}"
        );
        let pawn = (us as u8) << 3; // code of our pawn; +role for the others
        let them_pawn = pawn ^ 8;
        let mut key = self.key;

        let captured_code = match flag {
            5 => them_pawn,
            _ if flag & 4 != 0 => self.board.code_at(to),
            _ => EMPTY,
        };
        let undo = self.undo_record(m, code, captured_code);

        if let Some(ep) = self.pseudo_ep_square() {
            key ^= zobrist::en_passant(ep.file());
        }
        self.ep_square = None;
        self.halfmoves = self.halfmoves.saturating_add(1);

        if flag == 2 || flag == 3 {
            // Castling, encoded king to rook.
            let side = if flag == 2 { CastlingSide::KingSide } else { CastlingSide::QueenSide };
            let rook = pawn | Role::Rook as u8;
            let (king_to, rook_to) = (side.king_to(us), side.rook_to(us));
            self.board.take_code(from, code);
            self.board.take_code(to, rook);
            self.board.put_code(king_to, code);
            self.board.put_code(rook_to, rook);
            key ^= zobrist::piece_code(code, from)
                ^ zobrist::piece_code(code, king_to)
                ^ zobrist::piece_code(rook, to)
                ^ zobrist::piece_code(rook, rook_to);
        } else {
            if captured_code != EMPTY {
                let at = if flag == 5 { Square::from_coords(to.file(), from.rank()) } else { to };
                self.board.take_code(at, captured_code);
                key ^= zobrist::piece_code(captured_code, at);
                self.halfmoves = 0;
            }
            if flag & 8 != 0 {
                let promoted = pawn | (1 + (flag & 3)) as u8;
                self.board.take_code(from, code);
                self.board.put_code(to, promoted);
                key ^= zobrist::piece_code(code, from) ^ zobrist::piece_code(promoted, to);
            } else {
                self.board.shift_code(from, to, code);
                key ^= zobrist::piece_code(code, from) ^ zobrist::piece_code(code, to);
            }
            if code == pawn {
                self.halfmoves = 0;
                if flag == 1 {
                    let ep = Square::new((from as u32 + to as u32) / 2);
                    self.ep_square = Some(ep);
                    if (attacks::pawn(us, ep) & self.board.by_piece(Role::Pawn.of(!us))).any() {
                        key ^= zobrist::en_passant(ep.file());
                    }
                }
            }
        }

        if self.castles.touch_mask().intersects(Bitboard::from_square(from) | to) {
            let before = self.castles.rights();
            if code & 7 == Role::King as u8 {
                self.castles.discard_color(us);
            }
            self.castles.discard_rook(from);
            self.castles.discard_rook(to);
            key ^= zobrist::castling(before) ^ zobrist::castling(self.castles.rights());
        }

        if us == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = !us;
        self.key = key ^ zobrist::white_to_move();
        debug_assert!(self.board.is_consistent());
        debug_assert_eq!(self.key, self.compute_key(), "incremental key after {m:?}");
        undo
    }

    /// The record that takes `mv` back from the current state.
    #[inline(always)]
    fn undo_record(&self, mv: Move16, moved_code: u8, captured_code: u8) -> Undo {
        Undo {
            mv,
            moved_code,
            captured_code,
            rights: self.castles.rights(),
            ep_square: self.ep_square,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
            key: self.key,
        }
    }

    /// Plays `m` (which must be legal) on a copy and returns it: copy-make.
    #[inline]
    #[must_use]
    pub fn played(&self, m: Move16) -> Position {
        let mut next = *self;
        next.play_unchecked(m);
        next
    }

    /// Takes back the move that `undo` records, restoring the position bit for bit.
    #[inline(always)]
    pub fn undo(&mut self, undo: Undo) {
        let m = undo.mv;
        let (from, to, flag) = (m.from(), m.to(), m.flag());
        let us = !self.turn;
        let code = undo.moved_code;
        if flag == 2 || flag == 3 {
            let side = CastlingSide::from_king_rook(from, to);
            let rook = (us as u8) << 3 | Role::Rook as u8;
            self.board.take_code(side.king_to(us), code);
            self.board.take_code(side.rook_to(us), rook);
            self.board.put_code(from, code);
            self.board.put_code(to, rook);
        } else {
            if flag & 8 != 0 {
                let promoted = self.board.code_at(to);
                self.board.take_code(to, promoted);
                self.board.put_code(from, code);
            } else {
                self.board.shift_code(to, from, code);
            }
            if undo.captured_code != EMPTY {
                let at = if flag == 5 { Square::from_coords(to.file(), from.rank()) } else { to };
                self.board.put_code(at, undo.captured_code);
            }
        }
        self.castles.restore(undo.rights);
        self.ep_square = undo.ep_square;
        self.halfmoves = undo.halfmoves;
        self.fullmoves = undo.fullmoves;
        self.key = undo.key;
        self.turn = us;
        debug_assert!(self.board.is_consistent());
    }

    /// Passes the turn (a null move): clears the en passant square, counts a halfmove. Undo it
    /// with [`Position::undo_null`].
    ///
    /// # Errors
    /// [`NullMoveError`], leaving the position unchanged, if the side to move is in check:
    /// passing would let the other side take the king. The check test uses the slow reference
    /// attacks; a search that already knows it is not in check calls
    /// [`Position::play_null_unchecked`].
    pub fn play_null(&mut self) -> Result<Undo, NullMoveError> {
        if self.attackers_slow(self.our_king(), !self.turn).any() {
            return Err(NullMoveError);
        }
        Ok(self.play_null_unchecked())
    }

    /// [`Position::play_null`] without the check test, for engines that know the side to move is
    /// not in check (null-move pruning tests that first). In check, the result is a position
    /// whose side to move can capture the king: move generation on it is meaningless. Debug
    /// builds assert the contract.
    pub fn play_null_unchecked(&mut self) -> Undo {
        debug_assert!(
            self.attackers_slow(self.our_king(), !self.turn).is_empty(),
            "play_null_unchecked in check"
        );
        let undo = self.undo_record(Move16::NULL, EMPTY, EMPTY);
        if let Some(ep) = self.pseudo_ep_square() {
            self.key ^= zobrist::en_passant(ep.file());
        }
        self.ep_square = None;
        self.halfmoves = self.halfmoves.saturating_add(1);
        if self.turn == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = !self.turn;
        self.key ^= zobrist::white_to_move();
        undo
    }

    /// Takes back a null move.
    pub fn undo_null(&mut self, undo: Undo) {
        self.turn = !self.turn;
        self.fullmoves = undo.fullmoves;
        self.ep_square = undo.ep_square;
        self.halfmoves = undo.halfmoves;
        self.key = undo.key;
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.board)?;
        writeln!(
            f,
            "turn {} castling {:?} ep {:?} halfmoves {} fullmoves {} key {:016x}",
            self.turn,
            self.castles.rights(),
            self.ep_square,
            self.halfmoves,
            self.fullmoves,
            self.key
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chessbits_move::MoveKind;

    #[test]
    fn clocks_saturate_and_undo_restores_them() {
        let mut setup = Setup {
            turn: Color::Black,
            ep_square: Some(Square::E3),
            halfmoves: u32::MAX,
            fullmoves: u32::MAX,
            ..Setup::default()
        };
        setup.board.shift(Square::E2, Square::E4, Role::Pawn.of(Color::White));
        let mut pos = Position::from_setup(&setup).unwrap();
        let before = pos;
        let undo = pos.play_unchecked(Move16::new(Square::G8, Square::F6, MoveKind::Quiet));
        assert_eq!((pos.halfmoves(), pos.fullmoves()), (u32::MAX, u32::MAX));
        assert_eq!(pos.ply(), u32::MAX);
        pos.undo(undo);
        assert_eq!(pos, before);
        let null = pos.play_null().unwrap();
        pos.undo_null(null);
        assert_eq!(pos, before);
    }

    #[test]
    fn a_null_move_in_check_is_refused() {
        let mut setup = Setup::empty();
        for (sq, piece) in [
            (Square::E1, Role::King.of(Color::White)),
            (Square::E8, Role::King.of(Color::Black)),
            (Square::H1, Role::Rook.of(Color::Black)),
        ] {
            setup.board.set_piece_at(sq, piece);
        }
        // 4k3/8/8/8/8/8/8/4K2r w - - 0 1: white is in check from h1.
        let mut pos = Position::from_setup(&setup).unwrap();
        let before = pos;
        assert_eq!(pos.play_null(), Err(NullMoveError));
        assert_eq!(pos, before, "a refused null move leaves the position as it was");
        // Out of check (the rook one file away), passing is fine and undoes bit for bit.
        setup.board = Board::empty();
        for (sq, piece) in [
            (Square::E1, Role::King.of(Color::White)),
            (Square::E8, Role::King.of(Color::Black)),
            (Square::H2, Role::Rook.of(Color::Black)),
        ] {
            setup.board.set_piece_at(sq, piece);
        }
        let mut pos = Position::from_setup(&setup).unwrap();
        let before = pos;
        let undo = pos.play_null().unwrap();
        assert_eq!(pos.turn(), Color::Black);
        assert_eq!(pos.key(), pos.compute_key());
        pos.undo_null(undo);
        assert_eq!(pos, before);
        assert_eq!(NullMoveError.to_string(), "null move while in check");
    }

    #[test]
    fn the_undo_record_answers_for_the_move() {
        let mut setup = Setup::empty();
        for (sq, piece) in [
            (Square::E1, Role::King.of(Color::White)),
            (Square::H1, Role::Rook.of(Color::White)),
            (Square::B7, Role::Pawn.of(Color::White)),
            (Square::E8, Role::King.of(Color::Black)),
            (Square::A8, Role::Knight.of(Color::Black)),
        ] {
            setup.board.set_piece_at(sq, piece);
        }
        setup.castling_rooks = Bitboard::from_square(Square::H1);
        let start = Position::from_setup(&setup).unwrap();
        let promote = Move16::new(Square::B7, Square::A8, MoveKind::CapturePromotion(Role::Queen));
        let castle = Move16::new(Square::E1, Square::H1, MoveKind::KingCastle);
        let quiet = Move16::new(Square::H1, Square::H5, MoveKind::Quiet);
        for m in [promote, castle, quiet] {
            let mut pos = start;
            let expected = pos.move32(m);
            let undo = pos.play_unchecked(m);
            assert_eq!(undo.move16(), m);
            assert_eq!(undo.move32(), expected);
            assert_eq!((undo.from(), undo.to()), (m.from(), m.to()));
            assert_eq!(Some(undo.moved()), start.board().piece_at(m.from()));
            assert!(!undo.is_en_passant());
            pos.undo(undo);
            assert_eq!(pos, start);
        }
        let mut pos = start;
        let undo = pos.play_unchecked(promote);
        assert_eq!(undo.captured(), Some(Role::Knight.of(Color::Black)));
        assert_eq!(undo.promoted(), Some(Role::Queen.of(Color::White)));
        assert_eq!(undo.castling_side(), None);
        let mut pos = start;
        let undo = pos.play_unchecked(castle);
        assert_eq!(undo.castling_side(), Some(CastlingSide::KingSide));
        assert_eq!((undo.captured(), undo.promoted()), (None, None));
        assert_eq!(pos.board().role_at(Square::G1), Some(Role::King));
        assert_eq!(pos.board().role_at(Square::F1), Some(Role::Rook));
    }

    /// Copy-make copies the whole position, so its size is a performance property: pinned here so
    /// a change shows up in review.
    #[test]
    fn position_and_undo_sizes() {
        assert_eq!(core::mem::size_of::<Position>(), SIZE_OF_POSITION);
        assert_eq!(core::mem::size_of::<Undo>(), 24);
    }

    const SIZE_OF_POSITION: usize = 216;

    /// The status `from_setup` rejects `setup` with.
    fn status_of(setup: &Setup) -> Status {
        Position::from_setup(setup).map_or_else(|e| e.status(), |_| Status::empty())
    }

    #[test]
    fn setup_errors() {
        let mut no_king = Setup::default();
        no_king.board.remove_piece_at(Square::E8);
        // Black's castling rights go with its king.
        assert_eq!(status_of(&no_king), Status::NO_BLACK_KING | Status::BAD_CASTLING_RIGHTS);
        let bad_ep = Setup { ep_square: Some(Square::E6), ..Setup::default() };
        assert_eq!(status_of(&bad_ep), Status::BAD_EN_PASSANT);
        let mut bad_rook = Setup::default();
        bad_rook.castling_rooks.add(Square::B1);
        assert_eq!(status_of(&bad_rook), Status::BAD_CASTLING_RIGHTS);
        // Nine queens with no pawns left is possible; nine queens and a pawn is not.
        let mut queens = Setup::empty();
        queens.board.set_piece_at(Square::E1, Role::King.of(Color::White));
        queens.board.set_piece_at(Square::H8, Role::King.of(Color::Black));
        for sq in [
            Square::B1,
            Square::C1,
            Square::D1,
            Square::F1,
            Square::G1,
            Square::A2,
            Square::C2,
            Square::D2,
            Square::E2,
        ] {
            queens.board.set_piece_at(sq, Role::Queen.of(Color::White));
        }
        assert!(Position::from_setup(&queens).is_ok());
        queens.board.set_piece_at(Square::H2, Role::Pawn.of(Color::White));
        assert_eq!(status_of(&queens), Status::TOO_MUCH_WHITE_MATERIAL);
        let round_trip = Position::new().to_setup();
        assert_eq!(Position::from_setup(&round_trip), Ok(Position::new()));
    }
}
