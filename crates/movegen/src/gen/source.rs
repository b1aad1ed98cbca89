//! What a generator reads: the [`Source`] trait, over a [`Position`] (and, for bulk perft, over
//! a child position built without making its move).

use chessbits_bitboard::{Bitboard, Color, Role, Square};
use chessbits_state::{Castles, Position};

/// What a [`Gen`] reads: the pieces, the side to move, the castling rights and the en passant
/// square of a [`Position`] or of a [`Child`].
pub(crate) trait Source {
    /// The pieces of `role`, both colors.
    fn by_role(&self, role: Role) -> Bitboard;
    /// The pieces of `color`.
    fn by_color(&self, color: Color) -> Bitboard;
    /// The side to move.
    fn turn(&self) -> Color;
    /// The castling rights, with their rooks and paths.
    fn castles(&self) -> &Castles;
    /// The en passant square (recorded after every double push).
    fn ep_square(&self) -> Option<Square>;

    /// The square of the side to move's king.
    #[inline(always)]
    fn king(&self) -> Square {
        Square::new((self.kings() & self.by_color(self.turn())).0.trailing_zeros())
    }

    /// Every piece.
    #[inline(always)]
    fn occupied(&self) -> Bitboard {
        self.by_color(Color::White) | self.by_color(Color::Black)
    }
    /// The pawns.
    #[inline(always)]
    fn pawns(&self) -> Bitboard {
        self.by_role(Role::Pawn)
    }
    /// The knights.
    #[inline(always)]
    fn knights(&self) -> Bitboard {
        self.by_role(Role::Knight)
    }
    /// The bishops.
    #[inline(always)]
    fn bishops(&self) -> Bitboard {
        self.by_role(Role::Bishop)
    }
    /// The rooks.
    #[inline(always)]
    fn rooks(&self) -> Bitboard {
        self.by_role(Role::Rook)
    }
    /// The queens.
    #[inline(always)]
    fn queens(&self) -> Bitboard {
        self.by_role(Role::Queen)
    }
    /// The kings.
    #[inline(always)]
    fn kings(&self) -> Bitboard {
        self.by_role(Role::King)
    }
    /// Bishops and queens.
    #[inline(always)]
    fn diagonal_sliders(&self) -> Bitboard {
        self.bishops() | self.queens()
    }
    /// Rooks and queens.
    #[inline(always)]
    fn straight_sliders(&self) -> Bitboard {
        self.rooks() | self.queens()
    }
}

impl Source for Position {
    #[inline(always)]
    fn by_role(&self, role: Role) -> Bitboard {
        self.board().by_role(role)
    }

    #[inline(always)]
    fn by_color(&self, color: Color) -> Bitboard {
        self.board().by_color(color)
    }

    #[inline(always)]
    fn turn(&self) -> Color {
        Position::turn(self)
    }

    #[inline(always)]
    fn castles(&self) -> &Castles {
        Position::castles(self)
    }

    #[inline(always)]
    fn ep_square(&self) -> Option<Square> {
        Position::ep_square(self)
    }
}
