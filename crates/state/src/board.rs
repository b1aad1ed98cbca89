//! [`Board`]: piece placement, as bitboards by color and by role plus a square-to-piece array.

use core::fmt;

use chessbits_bitboard::{Bitboard, ByColor, ByRole, Color, File, Piece, Rank, Role, Square};

/// A piece as the square-to-piece array stores it: `color << 3 | role`, so both halves come out
/// with one bit operation. White pawn 0 .. white king 5, black pawn 8 .. black king 13.
pub(crate) type Code = u8;

/// The code of an empty square: role 7 (no role), so a role-indexed lookup lands on the always
/// empty padding slot instead of out of bounds.
pub(crate) const EMPTY: Code = 7;

/// The code of `piece`.
#[inline(always)]
pub(crate) const fn code_of(piece: Piece) -> Code {
    (piece.color as u8) << 3 | piece.role as u8
}

/// The piece of a non-empty code.
#[inline(always)]
pub(crate) const fn piece_of(code: Code) -> Option<Piece> {
    match Role::from_index(code & 7) {
        Some(role) => Some(Piece { color: Color::from_white(code & 8 == 0), role }),
        None => None,
    }
}

/// Where the pieces stand: one bitboard per color, one per role, and a square-to-piece array, kept
/// in sync by every mutation (checked under debug assertions).
///
/// The board alone need not be a legal position (it may lack kings); [`Position`](crate::Position)
/// validates it.
///
/// ```
/// use chessbits_bitboard::{Color, Piece, Role, Square};
/// use chessbits_state::Board;
///
/// let board = Board::new();
/// assert_eq!(board.piece_at(Square::E1), Some(Piece::new(Color::White, Role::King)));
/// assert_eq!(board.occupied().count(), 32);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    /// Indexed by role; slots 6 and 7 stay empty (they absorb the `EMPTY` code's role 7 without
    /// a bounds check).
    by_role: [Bitboard; 8],
    by_color: [Bitboard; 2],
    /// [`Code`] per square, [`EMPTY`] for none.
    mailbox: [Code; 64],
}

impl Default for Board {
    fn default() -> Board {
        Board::new()
    }
}

impl Board {
    /// The standard starting placement.
    pub fn new() -> Board {
        let mut board = Board::empty();
        let back = [
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
            Role::Bishop,
            Role::Knight,
            Role::Rook,
        ];
        for (file, role) in File::ALL.into_iter().zip(back) {
            board.set_piece_at(Square::from_coords(file, Rank::First), role.of(Color::White));
            board
                .set_piece_at(Square::from_coords(file, Rank::Second), Role::Pawn.of(Color::White));
            board.set_piece_at(
                Square::from_coords(file, Rank::Seventh),
                Role::Pawn.of(Color::Black),
            );
            board.set_piece_at(Square::from_coords(file, Rank::Eighth), role.of(Color::Black));
        }
        board
    }

    /// A board with no pieces.
    pub const fn empty() -> Board {
        Board {
            by_role: [Bitboard::EMPTY; 8],
            by_color: [Bitboard::EMPTY; 2],
            mailbox: [EMPTY; 64],
        }
    }

    /// The board with these pieces: one bitboard per role and one per color, as decoders of
    /// bit-level formats produce them. Builds the square-to-piece array in one pass over the
    /// pieces, which is much faster than placing them one by one.
    ///
    /// Returns `None` if the bitboards do not describe one placement: two roles or the two
    /// colors share a square, or a square has a role but no color or the other way round.
    ///
    /// ```
    /// use chessbits_bitboard::{Bitboard, ByColor, ByRole, Color, Piece, Role, Square};
    /// use chessbits_state::Board;
    ///
    /// let start = Board::new();
    /// let roles = ByRole(Role::ALL.map(|role| start.by_role(role)));
    /// assert_eq!(Board::from_bitboards(roles, start.colors()), Some(start));
    /// let mut clash = roles;
    /// clash.0[Role::Queen as usize].add(Square::E1); // the king's square
    /// assert_eq!(Board::from_bitboards(clash, start.colors()), None);
    /// ```
    #[inline(always)]
    pub fn from_bitboards(by_role: ByRole<Bitboard>, by_color: ByColor<Bitboard>) -> Option<Board> {
        let mut board = Board::empty();
        let (mut occupied, mut overlap) = (0, 0);
        for (slot, bb) in board.by_role.iter_mut().zip(by_role.0) {
            *slot = bb;
            overlap |= occupied & bb.0;
            occupied |= bb.0;
        }
        let (white, black) = (by_color.white.0, by_color.black.0);
        if overlap != 0 || white & black != 0 || white | black != occupied {
            return None;
        }
        board.by_color = [by_color.white, by_color.black];
        for (role, bb) in by_role.0.into_iter().enumerate() {
            // One fixed code per piece bitboard: a store per square.
            for (color, code) in [(white, role as u8), (black, 8 | role as u8)] {
                for sq in Bitboard(bb.0 & color) {
                    board.mailbox[sq as usize] = code;
                }
            }
        }
        debug_assert!(board.is_consistent());
        Some(board)
    }

    /// Sets this board from one bitboard per role and the set of black pieces (whatever it
    /// held before), and returns the Zobrist key of the pieces (the [`zobrist`](crate::zobrist) piece
    /// terms): one pass per piece bitboard fills the bitboards, the square-to-piece array and
    /// the key, for [`Position::from_bitboard_setup`](crate::Position::from_bitboard_setup).
    ///
    /// Overlaps are resolved, never trusted: a square in several role sets holds the highest
    /// role (king first), and it is black when it is in `black`, white otherwise; `black`
    /// squares in no role set are ignored.
    #[inline(always)]
    pub(crate) fn fill_keyed(&mut self, by_role: &ByRole<Bitboard>, black: Bitboard) -> u64 {
        // The highest role wins a square.
        let mut roles = [0u64; 8];
        let mut occupied = 0;
        for role in (0..6).rev() {
            roles[role] = by_role.0[role].0 & !occupied;
            occupied |= roles[role];
        }
        // Every field is overwritten whole before any piece is placed, so the caller's
        // initial board is dead and costs nothing (no copy of a whole board).
        self.by_role = roles.map(Bitboard);
        self.by_color = [Bitboard(occupied & !black.0), Bitboard(occupied & black.0)];
        self.mailbox = [EMPTY; 64];
        let mut key = 0;
        for (role, bb) in roles.into_iter().take(6).enumerate() {
            for (pieces, code) in [(bb & !black.0, role as u8), (bb & black.0, 8 | role as u8)] {
                for sq in Bitboard(pieces) {
                    self.mailbox[sq as usize] = code;
                    key ^= crate::zobrist::piece_code(code, sq);
                }
            }
        }
        debug_assert!(self.is_consistent());
        key
    }

    /// All occupied squares.
    #[inline]
    pub const fn occupied(&self) -> Bitboard {
        Bitboard(self.by_color[0].0 | self.by_color[1].0)
    }

    /// The squares of `color`'s pieces.
    #[inline]
    pub const fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color as usize]
    }

    /// The squares of pieces of `role`, both colors.
    #[inline]
    pub const fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role as usize]
    }

    /// The squares of `piece`.
    #[inline]
    pub const fn by_piece(&self, piece: Piece) -> Bitboard {
        Bitboard(self.by_color[piece.color as usize].0 & self.by_role[piece.role as usize].0)
    }

    /// White's and black's pieces.
    #[inline]
    pub const fn colors(&self) -> ByColor<Bitboard> {
        ByColor { white: self.by_color[0], black: self.by_color[1] }
    }

    /// Pawns, both colors.
    #[inline]
    pub const fn pawns(&self) -> Bitboard {
        self.by_role[Role::Pawn as usize]
    }

    /// Knights, both colors.
    #[inline]
    pub const fn knights(&self) -> Bitboard {
        self.by_role[Role::Knight as usize]
    }

    /// Bishops, both colors.
    #[inline]
    pub const fn bishops(&self) -> Bitboard {
        self.by_role[Role::Bishop as usize]
    }

    /// Rooks, both colors.
    #[inline]
    pub const fn rooks(&self) -> Bitboard {
        self.by_role[Role::Rook as usize]
    }

    /// Queens, both colors.
    #[inline]
    pub const fn queens(&self) -> Bitboard {
        self.by_role[Role::Queen as usize]
    }

    /// Kings, both colors.
    #[inline]
    pub const fn kings(&self) -> Bitboard {
        self.by_role[Role::King as usize]
    }

    /// Bishops and queens, both colors.
    #[inline]
    pub const fn diagonal_sliders(&self) -> Bitboard {
        Bitboard(self.bishops().0 | self.queens().0)
    }

    /// Rooks and queens, both colors.
    #[inline]
    pub const fn straight_sliders(&self) -> Bitboard {
        Bitboard(self.rooks().0 | self.queens().0)
    }

    /// The square of `color`'s king if it has exactly one.
    #[inline]
    pub const fn king_of(&self, color: Color) -> Option<Square> {
        Bitboard(self.kings().0 & self.by_color(color).0).single()
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub const fn piece_at(&self, sq: Square) -> Option<Piece> {
        piece_of(self.mailbox[sq as usize])
    }

    /// The role of the piece on `sq`, if any.
    #[inline]
    pub const fn role_at(&self, sq: Square) -> Option<Role> {
        Role::from_index(self.mailbox[sq as usize] & 7)
    }

    /// The color of the piece on `sq`, if any.
    #[inline]
    pub const fn color_at(&self, sq: Square) -> Option<Color> {
        match self.mailbox[sq as usize] {
            EMPTY => None,
            code => Some(Color::from_white(code & 8 == 0)),
        }
    }

    /// Puts `piece` on `sq`, replacing whatever stood there.
    #[inline]
    pub fn set_piece_at(&mut self, sq: Square, piece: Piece) {
        self.remove_piece_at(sq);
        self.put(sq, piece);
    }

    /// Removes and returns the piece on `sq`, if any.
    #[inline]
    pub fn remove_piece_at(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        self.take(sq, piece);
        Some(piece)
    }

    /// Puts `piece` on the empty square `sq` (hot path: the caller guarantees it is empty).
    #[inline]
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        self.put_code(sq, code_of(piece));
    }

    /// Removes `piece`, which the caller guarantees stands on `sq` (hot path).
    #[inline]
    pub(crate) fn take(&mut self, sq: Square, piece: Piece) {
        debug_assert_eq!(self.piece_at(sq), Some(piece), "take from {sq}");
        self.take_code(sq, code_of(piece));
    }

    /// The code on `sq` ([`EMPTY`] for none).
    #[inline(always)]
    pub(crate) fn code_at(&self, sq: Square) -> Code {
        self.mailbox[sq as usize]
    }

    /// Puts the piece `code` on the empty square `sq`.
    #[inline(always)]
    pub(crate) fn put_code(&mut self, sq: Square, code: Code) {
        debug_assert!(!self.occupied().contains(sq), "put on occupied {sq}");
        debug_assert!(piece_of(code).is_some());
        let bb = Bitboard::from_square(sq);
        self.by_role[(code & 7) as usize] |= bb;
        self.by_color[(code >> 3 & 1) as usize] |= bb;
        self.mailbox[sq as usize] = code;
    }

    /// Removes the piece `code` from `sq`, where it stands.
    #[inline(always)]
    pub(crate) fn take_code(&mut self, sq: Square, code: Code) {
        debug_assert_eq!(self.mailbox[sq as usize], code, "take from {sq}");
        let bb = Bitboard::from_square(sq);
        self.by_role[(code & 7) as usize] ^= bb;
        self.by_color[(code >> 3 & 1) as usize] ^= bb;
        self.mailbox[sq as usize] = EMPTY;
    }

    /// Moves the piece `code` from `from` to the empty square `to`.
    #[inline(always)]
    pub(crate) fn shift_code(&mut self, from: Square, to: Square, code: Code) {
        debug_assert_eq!(self.mailbox[from as usize], code);
        debug_assert!(!self.occupied().contains(to));
        let bb = Bitboard::from_square(from) | to;
        self.by_role[(code & 7) as usize] ^= bb;
        self.by_color[(code >> 3 & 1) as usize] ^= bb;
        self.mailbox[from as usize] = EMPTY;
        self.mailbox[to as usize] = code;
    }

    /// Moves `piece` from `from` to the empty square `to` (tests build setups with it).
    #[cfg(test)]
    pub(crate) fn shift(&mut self, from: Square, to: Square, piece: Piece) {
        self.shift_code(from, to, code_of(piece));
    }

    /// `true` if the bitboards and the square-to-piece array describe the same placement.
    pub fn is_consistent(&self) -> bool {
        let mut occupied = Bitboard::EMPTY;
        for role in Role::ALL {
            if self.by_role(role).intersects(occupied) {
                return false;
            }
            occupied |= self.by_role(role);
        }
        if occupied != self.occupied()
            || self.by_role[6].any()
            || self.by_role[7].any()
            || self.by_color[0].intersects(self.by_color[1])
            || (self.by_color[0] | self.by_color[1]) != occupied
        {
            return false;
        }
        Square::ALL.into_iter().all(|sq| match self.piece_at(sq) {
            Some(p) => self.by_piece(p).contains(sq),
            None => !occupied.contains(sq) && self.mailbox[sq as usize] == EMPTY,
        })
    }

    /// The board mirrored vertically with colors swapped: the same position from the other side.
    pub fn flip_colors(&self) -> Board {
        let mut board = Board::empty();
        for sq in self.occupied() {
            if let Some(p) = self.piece_at(sq) {
                board.put(sq.flip_vertical(), Piece::new(!p.color, p.role));
            }
        }
        board
    }
}

/// Draws the board, rank 8 at the top, with FEN letters and `.` for empty squares.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in Rank::ALL.into_iter().rev() {
            for file in File::ALL {
                let c = self.piece_at(Square::from_coords(file, rank)).map_or('.', Piece::char);
                write!(f, "{c}{}", if file == File::H { '\n' } else { ' ' })?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Board")?;
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_placement() {
        let b = Board::new();
        assert!(b.is_consistent());
        assert_eq!(b.pawns(), Bitboard::RANK_2 | Bitboard::RANK_7);
        assert_eq!(b.king_of(Color::Black), Some(Square::E8));
        assert_eq!(b.by_color(Color::White), Bitboard::RANK_1 | Bitboard::RANK_2);
        insta::assert_snapshot!(b.to_string());
    }

    /// `Board::from_bitboards` against placing the pieces one by one, and its refusals.
    #[test]
    fn from_bitboards_builds_the_same_board() {
        let check = |board: &Board| {
            let roles = ByRole(Role::ALL.map(|role| board.by_role(role)));
            assert_eq!(Board::from_bitboards(roles, board.colors()).as_ref(), Some(board));
        };
        let mut board = Board::new();
        check(&board);
        check(&Board::empty());
        for (sq, code) in Square::ALL.into_iter().zip((0..14).cycle().filter(|c| c & 7 < 6)) {
            board.set_piece_at(sq, piece_of(code).unwrap_or(Piece::new(Color::White, Role::Pawn)));
            check(&board);
        }
        let roles = ByRole(Role::ALL.map(|role| board.by_role(role)));
        let colors = board.colors();
        let e4 = Bitboard::from_square(Square::E4);
        let mut two_roles = roles;
        two_roles.0[Role::Knight as usize] ^= e4;
        two_roles.0[Role::Bishop as usize] ^= e4;
        let no_role = ByRole(roles.0.map(|bb| bb - e4));
        let two_colors = ByColor { white: colors.white | e4, black: colors.black | e4 };
        let no_color = ByColor { white: colors.white - e4, black: colors.black - e4 };
        for (roles, colors) in
            [(two_roles, colors), (no_role, colors), (roles, two_colors), (roles, no_color)]
        {
            assert_eq!(Board::from_bitboards(roles, colors), None);
        }
    }

    #[test]
    fn mutations_keep_the_views_in_sync() {
        let mut b = Board::new();
        let wq = Piece::new(Color::White, Role::Queen);
        assert_eq!(b.remove_piece_at(Square::D1), Some(wq));
        assert_eq!(b.remove_piece_at(Square::D1), None);
        b.set_piece_at(Square::E7, wq);
        assert_eq!(b.role_at(Square::E7), Some(Role::Queen));
        assert_eq!(b.color_at(Square::E7), Some(Color::White));
        b.shift(Square::E7, Square::E5, wq);
        assert!(b.is_consistent());
        assert_eq!(b.occupied().count(), 31);
        assert_eq!(b.flip_colors().flip_colors(), b);
        assert!(b.flip_colors().is_consistent());
    }
}
