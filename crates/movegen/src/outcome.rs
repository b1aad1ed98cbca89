//! How a game ends: [`Outcome`], [`Termination`], and the material rule.

use core::fmt;

use chessbits_bitboard::{Bitboard, Color};
use chessbits_state::Position;

/// Why a game ended or may end.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side can checkmate by any series of legal moves (see
    /// [`MoveGen::is_insufficient_material`](crate::MoveGen::is_insufficient_material)).
    InsufficientMaterial,
    /// 150 halfmoves (75 moves each) without capture or pawn move: an automatic draw.
    SeventyFiveMoves,
    /// The same position for the fifth time: an automatic draw.
    FivefoldRepetition,
    /// 100 halfmoves without capture or pawn move: a draw a player may claim.
    FiftyMoves,
    /// The same position for the third time: a draw a player may claim.
    ThreefoldRepetition,
}

impl Termination {
    /// The kebab-case name: `checkmate`, `stalemate`, `insufficient-material`,
    /// `seventyfive-moves`, `fivefold-repetition`, `fifty-moves`, `threefold-repetition`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::InsufficientMaterial => "insufficient-material",
            Termination::SeventyFiveMoves => "seventyfive-moves",
            Termination::FivefoldRepetition => "fivefold-repetition",
            Termination::FiftyMoves => "fifty-moves",
            Termination::ThreefoldRepetition => "threefold-repetition",
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The result of a finished game: a win for one side, or a draw, with the reason.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `winner` won; the only automatic way is [`Termination::Checkmate`].
    Decisive {
        /// The side that won.
        winner: Color,
        /// Why.
        termination: Termination,
    },
    /// A draw, for the reason given.
    Draw {
        /// Why.
        termination: Termination,
    },
}

impl Outcome {
    /// The winner, or `None` for a draw.
    pub const fn winner(self) -> Option<Color> {
        match self {
            Outcome::Decisive { winner, .. } => Some(winner),
            Outcome::Draw { .. } => None,
        }
    }

    /// Why the game ended.
    pub const fn termination(self) -> Termination {
        match self {
            Outcome::Decisive { termination, .. } | Outcome::Draw { termination } => termination,
        }
    }

    /// The PGN result: `1-0`, `0-1` or `1/2-1/2`.
    pub const fn result(self) -> &'static str {
        match self.winner() {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.result(), self.termination())
    }
}

/// python-chess's `has_insufficient_material(color)`, see
/// [`MoveGen::has_insufficient_material`](crate::MoveGen::has_insufficient_material).
pub(crate) fn has_insufficient_material(pos: &Position, color: Color) -> bool {
    let board = pos.board();
    let ours = board.by_color(color);
    let theirs = board.by_color(!color);
    if ours.intersects(board.pawns() | board.rooks() | board.queens()) {
        return false;
    }
    if ours.intersects(board.knights()) {
        // A lone knight (nothing else but the king) cannot mate unless the opponent has
        // pieces that can block its own king in: anything but a king and queens.
        return ours.count() <= 2 && (theirs - board.kings() - board.queens()).is_empty();
    }
    if ours.intersects(board.bishops()) {
        // Bishops all on one square color, and no opponent pawn, knight or bishop of the other
        // color that could help a self-block.
        let bishops = board.bishops();
        let same_color = (bishops & Bitboard::DARK_SQUARES).is_empty()
            || (bishops & Bitboard::LIGHT_SQUARES).is_empty();
        return same_color && (board.pawns() | board.knights()).is_empty();
    }
    // A bare king.
    true
}
