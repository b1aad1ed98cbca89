//! Roles (colourless piece kinds) and pieces (a color and a role).

use core::fmt;

use crate::square::enum_table;
use crate::Color;

enum_table! {
    /// A kind of piece, without color: pawn to king.
    pub enum Role {
        /// Pawn.
        Pawn = 0,
        /// Knight.
        Knight = 1,
        /// Bishop.
        Bishop = 2,
        /// Rook.
        Rook = 3,
        /// Queen.
        Queen = 4,
        /// King.
        King = 5,
    }
}

impl Role {
    /// The roles a pawn may promote to, knight first.
    pub const PROMOTIONS: [Role; 4] = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen];

    /// The lowercase letter: `p n b r q k`.
    #[inline]
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
        }
    }

    /// The uppercase letter used in SAN: `P N B R Q K`.
    #[inline]
    pub const fn upper_char(self) -> char {
        self.char().to_ascii_uppercase()
    }

    /// Parses a role letter, either case.
    #[inline]
    pub const fn from_char(c: char) -> Option<Role> {
        match c.to_ascii_lowercase() {
            'p' => Some(Role::Pawn),
            'n' => Some(Role::Knight),
            'b' => Some(Role::Bishop),
            'r' => Some(Role::Rook),
            'q' => Some(Role::Queen),
            'k' => Some(Role::King),
            _ => None,
        }
    }

    /// This role in `color`.
    #[inline]
    pub const fn of(self, color: Color) -> Piece {
        Piece { color, role: self }
    }

    /// `true` for bishops, rooks and queens.
    #[inline]
    pub const fn is_slider(self) -> bool {
        matches!(self, Role::Bishop | Role::Rook | Role::Queen)
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
        })
    }
}

/// A value for each role, indexed by [`Role`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByRole<T>(pub [T; 6]);

impl<T> core::ops::Index<Role> for ByRole<T> {
    type Output = T;
    #[inline]
    fn index(&self, role: Role) -> &T {
        &self.0[role as usize]
    }
}

impl<T> core::ops::IndexMut<Role> for ByRole<T> {
    #[inline]
    fn index_mut(&mut self, role: Role) -> &mut T {
        &mut self.0[role as usize]
    }
}

/// A piece: a color and a role.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What kind of piece it is.
    pub role: Role,
}

impl Piece {
    /// The twelve pieces in code order: white pawn..king, then black pawn..king.
    pub const ALL: [Piece; 12] = {
        let mut all = [Piece { color: Color::White, role: Role::Pawn }; 12];
        let mut i = 0;
        while i < 12 {
            all[i] = Piece::from_code(i as u8).unwrap();
            i += 1;
        }
        all
    };

    /// A piece of `color` and `role`.
    #[inline]
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// The piece's code: 0-5 white pawn, knight, bishop, rook, queen, king; 6-11 the black ones.
    /// This is the numbering of engines that use the 24-bit `Move32` layout.
    #[inline]
    pub const fn code(self) -> u8 {
        self.color as u8 * 6 + self.role as u8
    }

    /// The piece with this code (see [`Piece::code`]), or `None` for codes above 11.
    #[inline]
    pub const fn from_code(code: u8) -> Option<Piece> {
        let color = if code < 6 { Color::White } else { Color::Black };
        match Role::from_index(code % 6) {
            Some(role) if code < 12 => Some(Piece { color, role }),
            _ => None,
        }
    }

    /// The FEN letter: uppercase for white, lowercase for black.
    #[inline]
    pub const fn char(self) -> char {
        match self.color {
            Color::White => self.role.upper_char(),
            Color::Black => self.role.char(),
        }
    }

    /// Parses a FEN letter: uppercase for white, lowercase for black.
    #[inline]
    pub const fn from_char(c: char) -> Option<Piece> {
        match Role::from_char(c) {
            Some(role) => Some(Piece { color: Color::from_white(c.is_ascii_uppercase()), role }),
            None => None,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_codes_round_trip() {
        for code in 0..12 {
            let piece = Piece::from_code(code).unwrap();
            assert_eq!(piece.code(), code);
            assert_eq!(Piece::ALL[code as usize], piece);
            assert_eq!(Piece::from_char(piece.char()), Some(piece));
        }
        assert_eq!(Piece::from_code(12), None);
        assert_eq!(Piece::from_code(255), None);
        assert_eq!(Piece::new(Color::Black, Role::Queen).code(), 10);
        assert_eq!(Piece::from_char('x'), None);
    }

    #[test]
    fn roles() {
        for (i, role) in Role::ALL.into_iter().enumerate() {
            assert_eq!(role.index(), i);
            assert_eq!(Role::from_char(role.upper_char()), Some(role));
        }
        assert!(Role::Queen.is_slider() && !Role::Knight.is_slider());
        assert_eq!(Role::from_index(6), None);
    }
}
