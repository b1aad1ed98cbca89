//! How a game ends: [`Outcome`], [`Termination`], and the material rule.

use core::fmt;

use chessbits_bitboard::{Bitboard, Color};

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
    /// Every termination, the automatic ones first, in the order [`Game::outcome`] checks them.
    ///
    /// [`Game::outcome`]: crate::Game::outcome
    pub const ALL: [Termination; 7] = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::InsufficientMaterial,
        Termination::SeventyFiveMoves,
        Termination::FivefoldRepetition,
        Termination::FiftyMoves,
        Termination::ThreefoldRepetition,
    ];

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

    /// The PGN result marker: `1-0`, `0-1` or `1/2-1/2` (as text: [`Outcome::result`]).
    pub const fn game_result(self) -> GameResult {
        match self.winner() {
            Some(Color::White) => GameResult::WhiteWins,
            Some(Color::Black) => GameResult::BlackWins,
            None => GameResult::Draw,
        }
    }

    /// The PGN result: `1-0`, `0-1` or `1/2-1/2`.
    pub const fn result(self) -> &'static str {
        self.game_result().as_str()
    }
}

/// `1-0 (checkmate)`: the PGN result, then the termination's name in brackets. The result alone
/// is [`Outcome::result`], or [`GameResult`]'s `Display`.
impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.result(), self.termination())
    }
}

/// A game termination marker of PGN: `1-0`, `0-1`, `1/2-1/2` or `*`, read by `FromStr` and
/// written by `Display`.
///
/// It says who won, not why: an [`Outcome`] converts to one (`From`), and `None` (a game not
/// over) to `*`; the way back needs the game (see [`Game::outcome`](crate::Game::outcome)).
///
/// ```
/// use chessbits_bitboard::Color;
/// use chessbits_movegen::{GameResult, Outcome, Termination};
///
/// let mate = Outcome::Decisive { winner: Color::Black, termination: Termination::Checkmate };
/// assert_eq!(GameResult::from(mate), GameResult::BlackWins);
/// assert_eq!(GameResult::from(mate).to_string(), "0-1");
/// assert_eq!(GameResult::from(None::<Outcome>), "*".parse()?);
/// assert_eq!("1/2-1/2".parse::<GameResult>()?, GameResult::Draw);
/// # Ok::<_, chessbits_movegen::InvalidResult>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: the game goes on, was abandoned, or its result is unknown.
    Unknown,
}

impl GameResult {
    /// The marker: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// The winner of a decisive result.
    pub const fn winner(self) -> Option<Color> {
        match self {
            GameResult::WhiteWins => Some(Color::White),
            GameResult::BlackWins => Some(Color::Black),
            GameResult::Draw | GameResult::Unknown => None,
        }
    }

    /// The result of one of the four markers exactly, or `None`.
    pub fn from_ascii(text: &[u8]) -> Option<GameResult> {
        match text {
            b"1-0" => Some(GameResult::WhiteWins),
            b"0-1" => Some(GameResult::BlackWins),
            b"1/2-1/2" => Some(GameResult::Draw),
            b"*" => Some(GameResult::Unknown),
            _ => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl core::str::FromStr for GameResult {
    type Err = InvalidResult;

    /// Reads one of the four markers exactly.
    fn from_str(s: &str) -> Result<GameResult, InvalidResult> {
        GameResult::from_ascii(s.as_bytes()).ok_or(InvalidResult)
    }
}

/// Text that is not a [`GameResult`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct InvalidResult;

impl fmt::Display for InvalidResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("expected 1-0, 0-1, 1/2-1/2 or *")
    }
}

impl std::error::Error for InvalidResult {}

impl From<Outcome> for GameResult {
    /// The marker of the outcome: `1-0`, `0-1` or `1/2-1/2`.
    fn from(outcome: Outcome) -> GameResult {
        outcome.game_result()
    }
}

impl From<Option<Outcome>> for GameResult {
    /// The marker of the outcome, `*` for `None` (the game is not over).
    fn from(outcome: Option<Outcome>) -> GameResult {
        outcome.map_or(GameResult::Unknown, GameResult::from)
    }
}

/// Text that names no [`Termination`] or [`Outcome`], or an outcome that cannot be (a win by a
/// draw's termination, a draw by checkmate).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseOutcomeError(&'static str);

impl fmt::Display for ParseOutcomeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl std::error::Error for ParseOutcomeError {}

impl core::str::FromStr for Termination {
    type Err = ParseOutcomeError;

    /// Reads the names [`Termination::as_str`] writes.
    fn from_str(s: &str) -> Result<Termination, ParseOutcomeError> {
        Termination::ALL
            .into_iter()
            .find(|t| t.as_str() == s)
            .ok_or(ParseOutcomeError("unknown termination, expected a name such as checkmate"))
    }
}

impl core::str::FromStr for Outcome {
    type Err = ParseOutcomeError;

    /// Reads what `Display` writes: `1-0 (checkmate)`, `1/2-1/2 (stalemate)`. A bare PGN
    /// result (`1-0`, `0-1`, `1/2-1/2`, `*`) says who won but not why, so it is no `Outcome`:
    /// it reads as a [`GameResult`], and here gives an error that says so.
    fn from_str(s: &str) -> Result<Outcome, ParseOutcomeError> {
        let bad = ParseOutcomeError("expected a result and a termination, as in 1-0 (checkmate)");
        if s.parse::<GameResult>().is_ok() {
            return Err(ParseOutcomeError(
                "a bare result is a GameResult; an outcome also names its termination, as in \
                 1-0 (checkmate)",
            ));
        }
        let (result, rest) = s.split_once(" (").ok_or(bad.clone())?;
        let termination: Termination = rest.strip_suffix(')').ok_or(bad.clone())?.parse()?;
        let winner = match result.parse::<GameResult>() {
            Ok(GameResult::Unknown) | Err(_) => return Err(bad),
            Ok(r) => r.winner(),
        };
        match (winner, termination) {
            (Some(winner), Termination::Checkmate) => Ok(Outcome::Decisive { winner, termination }),
            (None, t) if t != Termination::Checkmate => Ok(Outcome::Draw { termination }),
            _ => Err(ParseOutcomeError("only checkmate decides a game, and it never draws")),
        }
    }
}

#[cfg(feature = "serde")]
chessbits_bitboard::serde_text!(Outcome, "an outcome such as \"1-0 (checkmate)\"", |s| s
    .parse::<Outcome>());
#[cfg(feature = "serde")]
chessbits_bitboard::serde_text!(Termination, "a termination such as \"checkmate\"", |s| {
    s.parse::<Termination>()
});

/// python-chess's `has_insufficient_material(color)` on the pieces of `board` alone, so that
/// a board being set up, not yet a legal position, is answered too; the rule is
/// [`MoveGen::has_insufficient_material`](crate::MoveGen::has_insufficient_material)'s.
///
/// ```
/// use chessbits_movegen::{has_insufficient_material, Color, Piece, Role, Square};
/// use chessbits_state::Board;
///
/// // A king and a knight alone, and no black king: no position, yet the material is told.
/// let mut board = Board::empty();
/// board.set_piece_at(Square::A1, Piece { role: Role::King, color: Color::White });
/// board.set_piece_at(Square::B1, Piece { role: Role::Knight, color: Color::White });
/// assert!(has_insufficient_material(&board, Color::White));
/// board.set_piece_at(Square::C1, Piece { role: Role::Rook, color: Color::White });
/// assert!(!has_insufficient_material(&board, Color::White));
/// ```
pub fn has_insufficient_material(board: &chessbits_state::Board, color: Color) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_read_back_what_they_print() {
        let mut all = vec![
            Outcome::Decisive { winner: Color::White, termination: Termination::Checkmate },
            Outcome::Decisive { winner: Color::Black, termination: Termination::Checkmate },
        ];
        for termination in Termination::ALL.into_iter().skip(1) {
            all.push(Outcome::Draw { termination });
        }
        for outcome in all {
            let text = outcome.to_string();
            assert_eq!(text.parse::<Outcome>(), Ok(outcome), "{text}");
            let t = outcome.termination();
            assert_eq!(t.as_str().parse::<Termination>(), Ok(t));
        }
        assert_eq!(
            Outcome::Draw { termination: Termination::FiftyMoves }.to_string(),
            "1/2-1/2 (fifty-moves)"
        );
        for bad in
            ["1-0", "1-0 (stalemate)", "1/2-1/2 (checkmate)", "2-0 (checkmate)", "1-0 (mate)"]
        {
            assert!(bad.parse::<Outcome>().is_err(), "{bad}");
        }
    }

    #[test]
    fn pgn_results_read_back_and_follow_outcomes() {
        use GameResult::*;
        for (text, result) in
            [("1-0", WhiteWins), ("0-1", BlackWins), ("1/2-1/2", Draw), ("*", Unknown)]
        {
            assert_eq!(text.parse::<GameResult>(), Ok(result));
            assert_eq!(result.to_string(), text);
            let err = text.parse::<Outcome>().expect_err("a bare result is no outcome");
            assert!(err.to_string().contains("GameResult"), "{err}");
        }
        for bad in ["", "1-0 ", "1/2", "1-1", "**", "0-1 (checkmate)"] {
            assert_eq!(bad.parse::<GameResult>(), Err(InvalidResult), "{bad:?}");
        }
        let mate = |winner| Outcome::Decisive { winner, termination: Termination::Checkmate };
        let draw = Outcome::Draw { termination: Termination::Stalemate };
        for (outcome, result) in [
            (Some(mate(Color::White)), WhiteWins),
            (Some(mate(Color::Black)), BlackWins),
            (Some(draw), Draw),
            (None, Unknown),
        ] {
            assert_eq!(GameResult::from(outcome), result);
            if let Some(o) = outcome {
                assert_eq!((o.game_result(), o.result()), (result, result.as_str()));
                assert_eq!(result.winner(), o.winner());
            }
        }
        assert_eq!("*".parse::<Outcome>().unwrap_err().to_string(), "a bare result is a GameResult; an outcome also names its termination, as in 1-0 (checkmate)");
    }

    #[cfg(feature = "serde")]
    #[test]
    fn outcomes_serialize_as_text() {
        let o = Outcome::Decisive { winner: Color::Black, termination: Termination::Checkmate };
        assert_eq!(serde_json::to_string(&o).unwrap(), "\"0-1 (checkmate)\"");
        assert_eq!(serde_json::from_str::<Outcome>("\"0-1 (checkmate)\"").unwrap(), o);
        assert!(serde_json::from_str::<Outcome>("\"0-1 (stalemate)\"").is_err());
    }
}
