//! [`Position`]: a validated position with make/unmake and an incremental Zobrist key.

use core::fmt;

use chessbits_bitboard::{reference, Bitboard, Color, File, Piece, Role, Square};
use chessbits_move::{CastlingMode, Move16, Move32, MoveFlags, MoveKind, UciMove};

use crate::board::{self, EMPTY};
use crate::validate::{self, Checked};
use crate::{
    tables, zobrist, BitboardSetup, Board, Castles, CastlingRights, CastlingSide, Setup, Status,
};

/// The flag nibbles and flag bits [`Position::play_unchecked`] tests (see [`MoveKind`]).
const DOUBLE_PUSH: u16 = MoveKind::DoublePush.nibble();
const KING_CASTLE: u16 = MoveKind::KingCastle.nibble();
const QUEEN_CASTLE: u16 = MoveKind::QueenCastle.nibble();
const EN_PASSANT: u16 = MoveKind::EnPassant.nibble();
const CAPTURE: u16 = MoveFlags::CAPTURE.bits();
const PROMOTION: u16 = MoveFlags::PROMOTION.bits();

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
///
/// A `Position` is aligned to 64 bytes, a cache line (256 bytes in all): at the 8 bytes its
/// fields need, where the stack happened to place it decided whether a wide copy of its state
/// straddled two lines, and the every-leaf perft ran a quarter slower in one stack placement of
/// four (measured by shifting the stack 16 bytes at a time).
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
#[repr(align(64))]
pub struct Position {
    board: Board,
    castles: Castles,
    /// Key, side to move, en passant square and clocks: kept together so that the undo record
    /// saves them, and [`Position::undo`] restores them, as one block.
    state: State,
    /// How this game writes castling in UCI, fixed when the position was built.
    mode: CastlingMode,
}

/// The part of a [`Position`] that every move replaces besides the board and the castling
/// rights: one small block, copied whole into the [`Undo`] record and back (a few wide loads
/// and stores instead of one per field).
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
struct State {
    key: u64,
    halfmoves: u32,
    fullmoves: u32,
    ep_square: Option<Square>,
    turn: Color,
}

/// Everything needed to take a move back: the move with the pieces it moved and took, and the
/// state it replaced.
///
/// It answers for the moved piece, from, to, captured piece, promoted piece, castling side and
/// en-passant flag, and gives the whole move as a [`Move32`]; it also keeps the castling rights,
/// en passant square, clocks, key and side to move from before the move. 32 bytes: the move is
/// kept as a [`Move16`] with two board codes, and the `Move32` is built only when asked for; the
/// state is the position's own block of those fields, saved and restored whole.
///
/// The record of a null move ([`Position::play_null`]) has no moved piece: [`Undo::moved`] and
/// [`Undo::move32`] say `None` for it, and only for it.
///
/// Its `Debug` reads as the move and the state it restores:
/// `Undo { P e2e4 double-push, rights KQkq, ep -, halfmoves 0, fullmoves 1, key 463b96181691fc9c }`.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Undo {
    mv: Move16,
    /// Board codes of the moved and the captured piece (`EMPTY` for none).
    moved_code: u8,
    captured_code: u8,
    rights: CastlingRights,
    /// The position's [`State`] before the move.
    state: State,
}

impl Undo {
    /// The move as played.
    #[inline]
    pub const fn move16(&self) -> Move16 {
        self.mv
    }

    /// The move as a [`Move32`], with the moved piece and the captured role filled in; `None`
    /// for a null move, which moves no piece.
    #[inline]
    pub fn move32(&self) -> Option<Move32> {
        Some(self.mv.to_move32(self.moved()?, self.captured().map(|p| p.role)))
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

    /// The piece that moved; `None` exactly for a null move's record.
    #[inline]
    pub fn moved(&self) -> Option<Piece> {
        board::piece_of(self.moved_code)
    }

    /// The piece captured, if any (for en passant, the pawn taken).
    #[inline]
    pub fn captured(&self) -> Option<Piece> {
        board::piece_of(self.captured_code)
    }

    /// The piece the pawn became, if the move promoted.
    #[inline]
    pub fn promoted(&self) -> Option<Piece> {
        Some(self.mv.promotion()?.of(self.moved()?.color))
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
    /// The standard starting position: validated and keyed once, then copied (a reader of
    /// games starts most of them here).
    pub fn new() -> Position {
        static START: std::sync::OnceLock<Position> = std::sync::OnceLock::new();
        *START.get_or_init(|| match Position::from_setup(&Setup::default()) {
            Ok(pos) => pos,
            Err(_) => unreachable!("the start position is legal"),
        })
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
        let Checked { status, castles, chess960, ep_square } = validate::check(setup);
        let rejected = status - (tolerate - Status::ALWAYS_REJECTED);
        if !rejected.is_empty() {
            return Err(PositionError { status, rejected });
        }
        let mode = if chess960 { CastlingMode::Chess960 } else { setup.castling_mode };
        // Built once, in place: the key is filled in afterwards, not by a second copy.
        let mut pos = Position {
            board: setup.board,
            castles,
            state: State {
                key: 0,
                turn: setup.turn,
                ep_square,
                halfmoves: setup.halfmoves,
                fullmoves: setup.fullmoves.max(1),
            },
            mode,
        };
        pos.state.key = pos.compute_key();
        Ok(pos)
    }

    /// Validates a setup whose placement is given as bitboards, as bit-level decoders read
    /// it: the same position, and the same [`PositionError`] for the same problems, as
    /// [`Position::from_setup`] gives for [`BitboardSetup::to_setup`], without building a
    /// [`Board`] first. The board, its square-to-piece array and the piece part of the key
    /// are built together, in place.
    ///
    /// # Errors
    /// [`PositionError`] with every problem found, as [`Position::from_setup`].
    ///
    /// Always inlined: decoders compile it into their fast-bits copies
    /// (`chessbits_bitboard::isa`), where counting pieces takes one instruction.
    #[inline(always)]
    pub fn from_bitboard_setup(setup: &BitboardSetup) -> Result<Position, PositionError> {
        let mut pos = Position {
            board: Board::empty(),
            castles: Castles::none(),
            state: State { key: 0, turn: setup.turn, ep_square: None, halfmoves: 0, fullmoves: 1 },
            mode: CastlingMode::Standard,
        };
        pos.set_from_bitboard_setup(setup)?;
        Ok(pos)
    }

    /// [`Position::from_bitboard_setup`] in place: this position becomes the setup's, with
    /// nothing copied (decoders that fill one position again and again, such as
    /// `packed::decode_into`, use it). On error this position is left as the start position,
    /// never half built.
    ///
    /// # Errors
    /// [`PositionError`] with every problem found, as [`Position::from_setup`].
    #[inline(always)]
    pub fn set_from_bitboard_setup(&mut self, setup: &BitboardSetup) -> Result<(), PositionError> {
        let pieces_key = self.board.fill_keyed(&setup.board.by_role, setup.board.black);
        let Checked { status, castles, chess960, ep_square } =
            validate::check_parts(&self.board, setup.turn, setup.castling_rooks, setup.ep_square);
        let rejected = status - Status::TOLERATED_BY_DEFAULT;
        if !rejected.is_empty() {
            *self = Position::new();
            return Err(PositionError { status, rejected });
        }
        self.castles = castles;
        self.state.turn = setup.turn;
        self.state.ep_square = ep_square;
        self.state.halfmoves = setup.halfmoves;
        self.state.fullmoves = setup.fullmoves.max(1);
        self.mode = if chess960 { CastlingMode::Chess960 } else { setup.castling_mode };
        self.state.key = pieces_key ^ self.state_key();
        debug_assert_eq!(self.state.key, self.compute_key());
        Ok(())
    }

    /// The fields of this position as an unvalidated [`Setup`].
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            turn: self.state.turn,
            castling_rooks: self.castles.rook_squares(),
            ep_square: self.state.ep_square,
            halfmoves: self.state.halfmoves,
            fullmoves: self.state.fullmoves,
            castling_mode: self.mode,
        }
    }

    /// Attackers of `sq` of `color` (the null-move check and debug-build contract checks), from
    /// the state crate's own lookup tables: a few table reads, no ray walking. Movegen's magic
    /// tables remain the fast path for move generation.
    #[inline]
    fn attackers(&self, sq: Square, color: Color) -> Bitboard {
        tables::attackers(&self.board, sq, color)
    }

    /// The placement.
    #[inline]
    pub const fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    #[inline]
    pub const fn turn(&self) -> Color {
        self.state.turn
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
        self.state.ep_square
    }

    /// The en passant file as recorded.
    #[inline]
    pub fn ep_file(&self) -> Option<File> {
        self.state.ep_square.map(Square::file)
    }

    /// The en passant square if a pawn of the side to move stands ready to capture there (the
    /// capture may still be illegal because of a pin). This is Polyglot's rule for the key.
    #[inline]
    pub fn pseudo_ep_square(&self) -> Option<Square> {
        let ep = self.state.ep_square?;
        (reference::pawn(!self.state.turn, ep) & self.our(Role::Pawn)).any().then_some(ep)
    }

    /// Halfmoves since the last capture or pawn move (the fifty-move counter).
    #[inline]
    pub const fn halfmoves(&self) -> u32 {
        self.state.halfmoves
    }

    /// The move number: 1 at the start, incremented after each black move.
    #[inline]
    pub const fn fullmoves(&self) -> u32 {
        self.state.fullmoves
    }

    /// The number of plies played since the start of the game, as the clocks say.
    #[inline]
    pub const fn ply(&self) -> u32 {
        (self.state.fullmoves - 1).saturating_mul(2).saturating_add(self.state.turn as u32)
    }

    /// The Polyglot Zobrist key, kept incrementally.
    #[inline]
    pub const fn key(&self) -> u64 {
        self.state.key
    }

    /// The pieces of the side to move.
    #[inline]
    pub const fn us(&self) -> Bitboard {
        self.board.by_color(self.state.turn)
    }

    /// The pieces of the side not to move.
    #[inline]
    pub const fn them(&self) -> Bitboard {
        self.board.by_color(self.state.turn.other())
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
    ///
    /// A `Position` always has exactly one king per color: [`Position::from_setup`] checks it
    /// and legal moves keep it. Only [`Position::play_unchecked`] with an illegal move (one that
    /// takes a king) can break that, which its contract rules out; debug builds assert it here.
    #[inline]
    pub fn our_king(&self) -> Square {
        self.king_of(self.state.turn)
    }

    /// The square of `color`'s king (see [`Position::our_king`] for the invariant).
    #[inline]
    pub fn king_of(&self, color: Color) -> Square {
        let kings = self.board.by_piece(Role::King.of(color));
        debug_assert!(kings.count() == 1, "{color} has {} kings", kings.count());
        // The one square of the set, read without a branch: the invariant says there is one.
        Square::new(kings.0.trailing_zeros())
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
        self.state.halfmoves = halfmoves;
        self.state.fullmoves = fullmoves.max(1);
    }

    /// The key computed from scratch.
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        // One table row per piece bitboard.
        for color in Color::ALL {
            let ours = self.board.by_color(color);
            for role in Role::ALL {
                let code = (color as u8) << 3 | role as u8;
                for sq in self.board.by_role(role) & ours {
                    key ^= zobrist::piece_code(code, sq);
                }
            }
        }
        key ^ self.state_key()
    }

    /// The key's terms besides the pieces: castling rights, en passant file, side to move.
    #[inline]
    fn state_key(&self) -> u64 {
        let mut key = zobrist::castling(self.castles.rights());
        if let Some(ep) = self.pseudo_ep_square() {
            key ^= zobrist::en_passant(ep.file());
        }
        if self.state.turn == Color::White {
            key ^= zobrist::white_to_move();
        }
        key
    }

    /// `m` with its facts, as a [`Move32`]: the moving piece, the captured role (a pawn for en
    /// passant), the promoted piece and the flags; the castling side is
    /// `m.kind()` ([`MoveKind::KingCastle`](chessbits_move::MoveKind::KingCastle) or
    /// `QueenCastle`). One board lookup per square, no move generation.
    ///
    /// `None` if no piece of the side to move stands on `m`'s origin (so no piece is ever
    /// invented), or if `m` claims a capture on an empty square other than by en passant.
    /// Legality is not checked: use the movegen crate for moves from outside.
    ///
    /// ```
    /// use chessbits_state::Position;
    /// use chessbits_bitboard::{Color, Piece, Role, Square};
    /// use chessbits_move::{Move16, MoveKind};
    ///
    /// let pos = Position::new();
    /// let m = pos.move32(Move16::new(Square::G1, Square::F3, MoveKind::Quiet)).unwrap();
    /// assert_eq!(m.piece(), Some(Piece::new(Color::White, Role::Knight)));
    /// assert_eq!((m.captured(), m.promoted()), (None, None));
    /// assert_eq!(pos.move32(Move16::new(Square::E4, Square::E5, MoveKind::Quiet)), None);
    /// ```
    #[inline]
    pub fn move32(&self, m: Move16) -> Option<Move32> {
        let moved = self.board.piece_at(m.from()).filter(|p| p.color == self.state.turn)?;
        let captured = match m.is_capture() && !m.is_en_passant() {
            true => Some(self.board.role_at(m.to())?),
            false => None,
        };
        Some(m.to_move32(moved, captured))
    }

    /// `true` if `m` can never be taken back by other moves: a capture, a pawn move, or a move
    /// that costs a castling right (a king or rook move from its square, a capture of a rook
    /// that keeps one). No position before an irreversible move can occur again after it, so
    /// repetition counting starts over (see [`History`](crate::History)); captures and pawn
    /// moves also reset the fifty-move clock. Only the board and the rights are read: `m` is
    /// assumed to be a move of this position, and the en passant square a move gives up is not
    /// counted (whether it mattered depends on whether the capture was legal).
    pub fn is_irreversible(&self, m: Move16) -> bool {
        if m.is_null() {
            return false;
        }
        if m.is_capture() || self.board.role_at(m.from()) == Some(Role::Pawn) {
            return true;
        }
        let touched = Bitboard::from_square(m.from()) | m.to();
        if !self.castles.touch_mask().intersects(touched) {
            return false;
        }
        // The rights the move costs, as `play_unchecked` finds them.
        let mut lost = self.castles.rook_rights_on(m.from(), m.to());
        if self.board.role_at(m.from()) == Some(Role::King) {
            lost |= CastlingRights::both(self.state.turn);
        }
        self.castles.rights().intersects(lost)
    }

    /// Plays `m`, which must be legal in this position, and returns the record that undoes it.
    ///
    /// # Contract
    /// The move is not checked: it must be a legal move of this position (from the movegen
    /// crate's lists or callbacks, or checked by its `is_legal`; `MoveGen::play` is the checked
    /// form). An illegal move leaves a position that is memory-safe but no longer one
    /// `Position::from_setup` would accept (a side in check with the other to move, a piece
    /// moved without a piece to move, a promoted king...), on which later calls may give
    /// meaningless answers or panic: generating moves in such a position can overflow a
    /// 256-move `MoveList`. Debug builds assert the contract: the move must fit the board (our
    /// piece on the origin, a target and flag that agree with the board, castling with a right,
    /// en passant onto the en passant square) and must not leave our king attacked; release
    /// builds pay nothing for it.
    #[inline(always)]
    pub fn play_unchecked(&mut self, m: Move16) -> Undo {
        debug_assert_eq!(self.move_misfit(m), None, "play_unchecked({m:?}) in {self:?}");
        let us = self.state.turn;
        let (from, to, flag) = (m.from(), m.to(), m.nibble());
        let code = self.board.code_at(from);
        let pawn = (us as u8) << 3; // code of our pawn; +role for the others
        let captured_code = match flag {
            EN_PASSANT => pawn ^ 8,
            _ if flag & CAPTURE != 0 => self.board.code_at(to),
            _ => EMPTY,
        };
        let undo = self.undo_record(m, code, captured_code);

        let mut key = self.state.key;
        if let Some(ep) = self.pseudo_ep_square() {
            key ^= zobrist::en_passant(ep.file());
        }
        self.state.ep_square = None;
        self.state.halfmoves = self.state.halfmoves.saturating_add(1);
        key ^= if flag == KING_CASTLE || flag == QUEEN_CASTLE {
            self.castle_pieces(from, to, flag, code)
        } else {
            self.move_pieces(from, to, flag, code, captured_code)
        };
        if self.castles.touch_mask().intersects(Bitboard::from_square(from) | to) {
            let before = self.castles.rights();
            let mut after = before - self.castles.rook_rights_on(from, to);
            if code & 7 == Role::King as u8 {
                after -= CastlingRights::both(us);
            }
            self.castles.restore(after);
            key ^= zobrist::castling(before) ^ zobrist::castling(after);
        }
        if us == Color::Black {
            self.state.fullmoves = self.state.fullmoves.saturating_add(1);
        }
        self.state.turn = !us;
        self.state.key = key ^ zobrist::white_to_move();
        debug_assert!(self.board.is_consistent());
        debug_assert_eq!(self.state.key, self.compute_key(), "incremental key after {m:?}");
        debug_assert!(
            self.attackers(self.king_of(us), self.state.turn).is_empty(),
            "play_unchecked({m:?}) left the king of the side that moved in check: {self:?}"
        );
        undo
    }

    /// Castling for [`Position::play_unchecked`]: the king (`code`) on `from` and the rook on
    /// `to` go to their destinations. Returns the key change.
    #[inline(always)]
    fn castle_pieces(&mut self, from: Square, to: Square, flag: u16, code: u8) -> u64 {
        let us = self.state.turn;
        let side =
            if flag == KING_CASTLE { CastlingSide::KingSide } else { CastlingSide::QueenSide };
        let rook = (us as u8) << 3 | Role::Rook as u8;
        let (king_to, rook_to) = (side.king_to(us), side.rook_to(us));
        self.board.take_code(from, code);
        self.board.take_code(to, rook);
        self.board.put_code(king_to, code);
        self.board.put_code(rook_to, rook);
        zobrist::piece_code(code, from)
            ^ zobrist::piece_code(code, king_to)
            ^ zobrist::piece_code(rook, to)
            ^ zobrist::piece_code(rook, rook_to)
    }

    /// Every move but castling, for [`Position::play_unchecked`]: takes the captured piece
    /// (`captured_code`, on the square behind `to` for en passant), moves or promotes the
    /// piece (`code`), resets the halfmove clock and records a double push's en passant square.
    /// Returns the key change.
    #[inline(always)]
    fn move_pieces(
        &mut self,
        from: Square,
        to: Square,
        flag: u16,
        code: u8,
        captured_code: u8,
    ) -> u64 {
        let us = self.state.turn;
        let pawn = (us as u8) << 3;
        let mut key = 0;
        if captured_code != EMPTY {
            let at =
                if flag == EN_PASSANT { Square::from_coords(to.file(), from.rank()) } else { to };
            self.board.take_code(at, captured_code);
            key ^= zobrist::piece_code(captured_code, at);
            self.state.halfmoves = 0;
        }
        if flag & PROMOTION != 0 {
            // The low two bits name the role: 0 knight .. 3 queen.
            let promoted = pawn | (Role::Knight as u8 + (flag & 3) as u8);
            self.board.take_code(from, code);
            self.board.put_code(to, promoted);
            key ^= zobrist::piece_code(code, from) ^ zobrist::piece_code(promoted, to);
        } else {
            self.board.shift_code(from, to, code);
            key ^= zobrist::piece_code(code, from) ^ zobrist::piece_code(code, to);
        }
        if code == pawn {
            self.state.halfmoves = 0;
            if flag == DOUBLE_PUSH {
                let ep = Square::new((from as u32 + to as u32) / 2);
                self.state.ep_square = Some(ep);
                if (reference::pawn(us, ep) & self.board.by_piece(Role::Pawn.of(!us))).any() {
                    key ^= zobrist::en_passant(ep.file());
                }
            }
        }
        key
    }

    /// What makes `m` impossible here as far as the board shows (checks aside), or `None` if
    /// it fits: the debug-build test of [`Position::play_unchecked`]'s contract.
    fn move_misfit(&self, m: Move16) -> Option<&'static str> {
        let (from, to, flag) = (m.from(), m.to(), m.nibble());
        let us = self.state.turn;
        let Some(piece) = self.board.piece_at(from).filter(|p| p.color == us) else {
            return Some("no piece of the side to move on the origin");
        };
        let target = self.board.piece_at(to);
        let pawn = piece.role == Role::Pawn;
        let last_rank = Bitboard::backrank(!us).contains(to);
        let Some(kind) = MoveKind::from_nibble(flag) else { return Some("an unused flag") };
        let fits = match kind {
            MoveKind::KingCastle | MoveKind::QueenCastle => {
                let side = if flag == KING_CASTLE {
                    CastlingSide::KingSide
                } else {
                    CastlingSide::QueenSide
                };
                piece.role == Role::King
                    && self.castles.rook(us, side) == Some(to)
                    && (self.castles.path(us, side) & self.board.occupied()).is_empty()
            }
            MoveKind::EnPassant => pawn && self.state.ep_square == Some(to),
            MoveKind::Promotion(_) => pawn && last_rank && target.is_none(),
            MoveKind::CapturePromotion(_) => {
                pawn && last_rank && target.is_some_and(|t| t.color != us && t.role != Role::King)
            }
            MoveKind::Capture => {
                !(pawn && last_rank)
                    && target.is_some_and(|t| t.color != us && t.role != Role::King)
            }
            MoveKind::DoublePush => pawn && target.is_none(),
            MoveKind::Quiet => !(pawn && last_rank) && target.is_none(),
        };
        (!fits).then_some("the move's kind does not fit the board")
    }

    /// The record that takes `mv` back from the current state.
    #[inline(always)]
    fn undo_record(&self, mv: Move16, moved_code: u8, captured_code: u8) -> Undo {
        Undo { mv, moved_code, captured_code, rights: self.castles.rights(), state: self.state }
    }

    /// Plays `m`, which must be legal, on a copy and returns it: copy-make, with the contract
    /// of [`Position::play_unchecked`]. The checked form is the movegen crate's `MoveGen::play`.
    #[inline]
    #[must_use]
    pub fn played_unchecked(&self, m: Move16) -> Position {
        let mut next = *self;
        next.play_unchecked(m);
        next
    }

    /// Renamed [`Position::played_unchecked`]: the name now says that `m` is not checked.
    #[deprecated(note = "renamed `played_unchecked`: the move is not checked")]
    #[inline]
    #[must_use]
    pub fn played(&self, m: Move16) -> Position {
        self.played_unchecked(m)
    }

    /// Takes back the move that `undo` records, restoring the position bit for bit.
    #[inline(always)]
    pub fn undo(&mut self, undo: Undo) {
        let m = undo.mv;
        let (from, to, flag) = (m.from(), m.to(), m.nibble());
        let us = !self.state.turn;
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
        self.state = undo.state;
        debug_assert!(self.board.is_consistent());
    }

    /// Passes the turn (a null move): clears the en passant square, counts a halfmove, updates
    /// the key. Undo it with [`Position::undo_null`]. This is the crate's `swap_turn`: nothing
    /// else changes sides to move, because a position with the other side to move is a
    /// different position (its key, en passant and clocks all change). To build a position with
    /// another side to move from scratch, set [`Setup::turn`] and validate it.
    ///
    /// # Errors
    /// [`NullMoveError`], leaving the position unchanged, if the side to move is in check:
    /// passing would let the other side take the king. The check test uses the state crate's own
    /// small tables (ray walks for sliders, slower than movegen's); a search that already knows
    /// it is not in check calls
    /// [`Position::play_null_unchecked`].
    #[doc(alias = "swap_turn")]
    #[doc(alias = "null_move")]
    pub fn play_null(&mut self) -> Result<Undo, NullMoveError> {
        if self.attackers(self.our_king(), !self.state.turn).any() {
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
            self.attackers(self.our_king(), !self.state.turn).is_empty(),
            "play_null_unchecked in check"
        );
        let undo = self.undo_record(Move16::NULL, EMPTY, EMPTY);
        if let Some(ep) = self.pseudo_ep_square() {
            self.state.key ^= zobrist::en_passant(ep.file());
        }
        self.state.ep_square = None;
        self.state.halfmoves = self.state.halfmoves.saturating_add(1);
        if self.state.turn == Color::Black {
            self.state.fullmoves = self.state.fullmoves.saturating_add(1);
        }
        self.state.turn = !self.state.turn;
        self.state.key ^= zobrist::white_to_move();
        undo
    }

    /// Takes back a null move.
    pub fn undo_null(&mut self, undo: Undo) {
        self.state = undo.state;
    }
}

impl fmt::Debug for Undo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Undo { ")?;
        match self.move32() {
            // The Move32 text without its `Move32 { ` and ` }`.
            Some(m) => {
                let text = format!("{m:?}");
                f.write_str(text.trim_start_matches("Move32 { ").trim_end_matches(" }"))?;
            }
            None => f.write_str("null")?,
        }
        f.write_str(", rights ")?;
        // In the Polyglot bit order, which is white king side, white queen side, black...
        let letters = ['K', 'Q', 'k', 'q'];
        for (bit, letter) in letters.iter().enumerate() {
            if self.rights.bits() & 1 << bit != 0 {
                write!(f, "{letter}")?;
            }
        }
        if self.rights.is_empty() {
            f.write_str("-")?;
        }
        f.write_str(", ep ")?;
        match self.state.ep_square {
            Some(sq) => write!(f, "{sq}")?,
            None => f.write_str("-")?,
        }
        write!(
            f,
            ", halfmoves {}, fullmoves {}, key {:016x} }}",
            self.state.halfmoves, self.state.fullmoves, self.state.key
        )
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.board)?;
        writeln!(
            f,
            "turn {} castling {:?} ep {:?} halfmoves {} fullmoves {} key {:016x}",
            self.state.turn,
            self.castles.rights(),
            self.state.ep_square,
            self.state.halfmoves,
            self.state.fullmoves,
            self.state.key
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

    /// The debug-build contract check of `play_unchecked`, on the start position: moves that
    /// fit the board pass, and each kind of misfit is named.
    #[test]
    fn a_move_that_does_not_fit_the_board_is_named() {
        let pos = Position::new();
        let mv = |from, to, kind| Move16::new(from, to, kind);
        let no_piece = Some("no piece of the side to move on the origin");
        let misfit = Some("the move's kind does not fit the board");
        let cases = [
            (mv(Square::E2, Square::E4, MoveKind::DoublePush), None),
            (mv(Square::G1, Square::F3, MoveKind::Quiet), None),
            (mv(Square::E7, Square::E5, MoveKind::DoublePush), no_piece),
            (mv(Square::E3, Square::E4, MoveKind::Quiet), no_piece),
            (mv(Square::E2, Square::E4, MoveKind::Capture), misfit),
            (mv(Square::B1, Square::D2, MoveKind::Quiet), misfit),
            (mv(Square::E2, Square::E3, MoveKind::EnPassant), misfit),
            (mv(Square::E2, Square::E3, MoveKind::Promotion(Role::Queen)), misfit),
            (mv(Square::G1, Square::H1, MoveKind::KingCastle), misfit),
            (mv(Square::E1, Square::A1, MoveKind::KingCastle), misfit),
            (Move16::from_bits(6 << 12 | 12 << 6 | 28), Some("an unused flag")),
        ];
        for (m, expected) in cases {
            assert_eq!(pos.move_misfit(m), expected, "{m:?}");
        }
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
            assert!(expected.is_some(), "{m:?}");
            let undo = pos.play_unchecked(m);
            assert_eq!(undo.move16(), m);
            assert_eq!(undo.move32(), expected);
            assert_eq!((undo.from(), undo.to()), (m.from(), m.to()));
            assert_eq!(undo.moved(), start.board().piece_at(m.from()));
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

    /// A position from a FEN-like list of pieces (white to move, no rights unless given).
    fn position_of(pieces: &[(Square, char)], rooks: &[Square]) -> Position {
        let mut setup = Setup::empty();
        for &(sq, c) in pieces {
            setup.board.set_piece_at(sq, Piece::from_char(c).expect("a piece letter"));
        }
        setup.castling_rooks = rooks.iter().copied().collect();
        Position::from_setup(&setup).expect("a legal setup")
    }

    #[test]
    fn move32_never_invents_a_piece() {
        // 4k3/1P6/8/3pP3/8/8/8/R3K2n w Q d6: a promotion, en passant, castling, captures.
        let mut setup = position_of(
            &[
                (Square::E1, 'K'),
                (Square::A1, 'R'),
                (Square::H1, 'n'),
                (Square::B7, 'P'),
                (Square::E5, 'P'),
                (Square::D5, 'p'),
                (Square::E8, 'k'),
            ],
            &[Square::A1],
        )
        .to_setup();
        setup.ep_square = Some(Square::D6);
        let pos = Position::from_setup(&setup).expect("legal");
        let check = |m: Move16, expected: Option<&str>| {
            let got = pos.move32(m).map(|m| format!("{m:?}"));
            assert_eq!(got.as_deref(), expected, "{m:?}");
        };
        use MoveKind::*;
        check(
            Move16::new(Square::B7, Square::B8, Promotion(Role::Rook)),
            Some("Move32 { P b7b8=R }"),
        );
        check(
            Move16::new(Square::E5, Square::D6, EnPassant),
            Some("Move32 { P e5d6 capture en-passant takes P }"),
        );
        check(Move16::new(Square::E1, Square::A1, QueenCastle), Some("Move32 { K e1a1 castling }"));
        check(Move16::new(Square::E1, Square::F2, Quiet), Some("Move32 { K e1f2 }"));
        // Not legal (the king is in the way), but move32 reads the board and checks nothing.
        check(
            Move16::new(Square::A1, Square::H1, Capture),
            Some("Move32 { R a1h1 capture takes N }"),
        );
        check(
            Move16::new(Square::E1, Square::H1, Capture),
            Some("Move32 { K e1h1 capture takes N }"),
        );
        check(Move16::new(Square::C3, Square::C4, Quiet), None); // an empty square
        check(Move16::new(Square::E8, Square::E7, Quiet), None); // the other side's piece
        check(Move16::new(Square::E1, Square::E2, Capture), None); // a capture of nothing
    }

    #[test]
    fn irreversible_moves() {
        // r3k2r/8/8/8/8/8/4P3/R3K2R w KQkq -, plus a knight on b1 and a black rook on h1's file.
        let pos = position_of(
            &[
                (Square::E1, 'K'),
                (Square::A1, 'R'),
                (Square::H1, 'R'),
                (Square::B1, 'N'),
                (Square::E2, 'P'),
                (Square::E8, 'k'),
                (Square::A8, 'r'),
                (Square::H8, 'r'),
            ],
            &[Square::A1, Square::H1, Square::A8, Square::H8],
        );
        use MoveKind::*;
        for (m, expected) in [
            (Move16::new(Square::B1, Square::C3, Quiet), false),
            (Move16::new(Square::E2, Square::E3, Quiet), true), // a pawn move
            (Move16::new(Square::E2, Square::E4, DoublePush), true),
            (Move16::new(Square::E1, Square::F1, Quiet), true), // the king loses both rights
            (Move16::new(Square::E1, Square::H1, KingCastle), true),
            (Move16::new(Square::A1, Square::B1, Quiet), true), // the rook loses its right
            (Move16::new(Square::H1, Square::H8, Capture), true),
            (Move16::new(Square::B1, Square::A3, Quiet), false),
            (Move16::NULL, false),
        ] {
            assert_eq!(pos.is_irreversible(m), expected, "{m:?}");
        }
        // Without rights, king and rook moves are reversible.
        let bare = position_of(&[(Square::E1, 'K'), (Square::H1, 'R'), (Square::E8, 'k')], &[]);
        assert!(!bare.is_irreversible(Move16::new(Square::E1, Square::F1, MoveKind::Quiet)));
        assert!(!bare.is_irreversible(Move16::new(Square::H1, Square::H5, MoveKind::Quiet)));
    }

    #[test]
    fn undo_records_read_as_moves() {
        let mut pos = Position::new();
        let e4 = pos.play_unchecked(Move16::new(Square::E2, Square::E4, MoveKind::DoublePush));
        let nf6 = pos.play_unchecked(Move16::new(Square::G8, Square::F6, MoveKind::Quiet));
        let null = pos.play_null().expect("not in check");
        insta::assert_snapshot!(format!("{e4:?}\n{nf6:?}\n{null:?}"), @r"
        Undo { P e2e4 double-push, rights KQkq, ep -, halfmoves 0, fullmoves 1, key 463b96181691fc9c }
        Undo { n g8f6, rights KQkq, ep e3, halfmoves 0, fullmoves 1, key 823c9b50fd114196 }
        Undo { null, rights KQkq, ep -, halfmoves 1, fullmoves 2, key d9d2afa550eb0000 }
        ");
        assert_eq!((null.moved(), null.move32(), null.promoted()), (None, None, None));
    }

    /// Debug builds refuse moves the board shows to be wrong (release builds do not look).
    #[cfg(debug_assertions)]
    #[test]
    fn debug_builds_check_the_move_against_the_board() {
        use MoveKind::*;
        let start = Position::new();
        let refused = |m: Move16| {
            let mut pos = start;
            std::panic::catch_unwind(move || pos.play_unchecked(m)).is_err()
        };
        for (m, wrong) in [
            (Move16::new(Square::E2, Square::E4, DoublePush), false),
            (Move16::new(Square::G1, Square::F3, Quiet), false),
            (Move16::new(Square::E4, Square::E5, Quiet), true), // no piece
            (Move16::new(Square::E7, Square::E5, DoublePush), true), // not our piece
            (Move16::new(Square::D1, Square::D2, Quiet), true), // onto our own pawn
            (Move16::new(Square::D1, Square::D7, Capture), false), // board-wise plausible
            (Move16::new(Square::D1, Square::D3, Capture), true), // captures nothing
            (Move16::new(Square::D1, Square::E8, Capture), true), // takes the king
            (Move16::new(Square::E1, Square::H1, KingCastle), true), // the board: g1 is taken
            (Move16::new(Square::E1, Square::G1, KingCastle), true), // not onto our rook
        ] {
            assert_eq!(refused(m), wrong, "{m:?}");
        }
    }

    #[test]
    fn kings_are_found() {
        let pos = position_of(&[(Square::H8, 'K'), (Square::A1, 'k')], &[]);
        assert_eq!((pos.our_king(), pos.king_of(Color::Black)), (Square::H8, Square::A1));
        assert_eq!(Position::new().king_of(Color::Black), Square::E8);
    }

    /// Copy-make copies the whole position, so its size is a performance property: pinned here so
    /// a change shows up in review.
    #[test]
    fn position_and_undo_sizes() {
        assert_eq!(core::mem::size_of::<Position>(), SIZE_OF_POSITION);
        assert_eq!(core::mem::size_of::<Undo>(), 32);
    }

    const SIZE_OF_POSITION: usize = 256;

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
