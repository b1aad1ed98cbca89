//! Zobrist keys with the Polyglot random table, so that keys equal those of Polyglot opening books.
//!
//! A position's key is the XOR of:
//! - `RANDOM[64 * kind + square]` for every piece, where `kind` is `2 * role + 1` for white and
//!   `2 * role` for black (black pawn 0, white pawn 1, .., white king 11);
//! - `RANDOM[768 + i]` for each castling right held (white king side, white queen side, black
//!   king side, black queen side);
//! - `RANDOM[772 + file]` for the en passant file, only when a pawn of the side to move stands
//!   ready to capture en passant (whether the capture is legal does not matter);
//! - `RANDOM[780]` when white is to move.

use chessbits_bitboard::{Color, File, Piece, Square};

use crate::polyglot_table::RANDOM;
use crate::CastlingRights;

/// The key of `piece` standing on `sq`.
#[inline]
pub fn piece(piece: Piece, sq: Square) -> u64 {
    let kind = 2 * piece.role as usize + (piece.color == Color::White) as usize;
    RANDOM[64 * kind + sq as usize]
}

/// The key of the piece with board code `code` (`color << 3 | role`) on `sq`; 0 for codes
/// without a piece. The hot path of make/unmake.
#[inline(always)]
pub(crate) fn piece_code(code: u8, sq: Square) -> u64 {
    PIECE_CODE[(code & 15) as usize][sq as usize]
}

static PIECE_CODE: [[u64; 64]; 16] = {
    let mut table = [[0; 64]; 16];
    let mut code = 0;
    while code < 16 {
        let (role, white) = (code & 7, code & 8 == 0);
        if role < 6 {
            let kind = 2 * role + white as usize;
            let mut sq = 0;
            while sq < 64 {
                table[code][sq] = crate::polyglot_table::RANDOM_TABLE[64 * kind + sq];
                sq += 1;
            }
        }
        code += 1;
    }
    table
};

/// The combined key of a set of castling rights.
#[inline]
pub fn castling(rights: CastlingRights) -> u64 {
    CASTLING[rights.bits() as usize & 15]
}

/// The key of an en passant file.
#[inline]
pub fn en_passant(file: File) -> u64 {
    RANDOM[772 + file as usize]
}

/// The key XORed in when white is to move.
#[inline]
pub fn white_to_move() -> u64 {
    RANDOM[780]
}

static CASTLING: [u64; 16] = {
    let mut table = [0; 16];
    let mut rights = 0;
    while rights < 16 {
        let mut i = 0;
        while i < 4 {
            if rights >> i & 1 != 0 {
                table[rights] ^= crate::polyglot_table::RANDOM_TABLE[768 + i];
            }
            i += 1;
        }
        rights += 1;
    }
    table
};
