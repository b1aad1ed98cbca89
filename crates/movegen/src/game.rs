//! [`Game`]: a start position, the moves played, and everything needed to say how it ends.

use chessbits_move::{Move16, UciMove};
use chessbits_state::{zobrist, History, Position, Undo};

use crate::{IllegalMoveError, MoveGen, Outcome, Termination};

/// A game: its starting position (any legal position, Chess960 too), the moves played, the
/// current position, and the repetition history.
///
/// [`Game::play`] checks every move. [`Game::outcome`] reports the automatic endings and
/// [`Game::claimable_draws`] the draws a player may claim.
///
/// ```
/// use chessbits_movegen::{Game, Termination};
///
/// let mut game = Game::default();
/// for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"] {
///     game.play_uci(m.parse()?)?;
/// }
/// assert_eq!(game.repetitions(), 3);
/// assert_eq!(game.claimable_draws(), [Termination::ThreefoldRepetition].as_slice());
/// assert_eq!(game.outcome(), None);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    position: Position,
    moves: Vec<Move16>,
    undos: Vec<Undo>,
    history: History,
}

impl Default for Game {
    /// A game from the standard starting position.
    fn default() -> Game {
        Game::new(Position::new())
    }
}

/// The key of `pos` in the FIDE sense of "the same position": the en passant file counts only
/// when the capture is legal (the Polyglot key counts it whenever a pawn stands ready).
pub fn repetition_key(pos: &Position) -> u64 {
    match pos.pseudo_ep_square() {
        Some(ep) if pos.legal_ep_square().is_none() => pos.key() ^ zobrist::en_passant(ep.file()),
        _ => pos.key(),
    }
}

impl Game {
    /// A game starting from `start`.
    pub fn new(start: Position) -> Game {
        Game {
            start,
            position: start,
            moves: Vec::new(),
            undos: Vec::new(),
            history: History::new(repetition_key(&start)),
        }
    }

    /// The starting position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move16] {
        &self.moves
    }

    /// The repetition history.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// Plays `m` if it is legal.
    ///
    /// # Errors
    /// [`IllegalMoveError`], leaving the game unchanged, if `m` is not legal.
    pub fn play(&mut self, m: Move16) -> Result<(), IllegalMoveError> {
        let irreversible = self.position.is_irreversible(m);
        let undo = self.position.play(m)?;
        self.history.push(repetition_key(&self.position), irreversible);
        self.moves.push(m);
        self.undos.push(undo);
        Ok(())
    }

    /// Resolves a UCI move against the current position and plays it.
    ///
    /// # Errors
    /// [`IllegalMoveError`] if no legal move matches.
    pub fn play_uci(&mut self, uci: UciMove) -> Result<Move16, IllegalMoveError> {
        let m = self.position.resolve_uci(uci)?;
        self.play(m)?;
        Ok(m)
    }

    /// Takes back the last move and returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Move16> {
        let undo = self.undos.pop()?;
        self.position.undo(undo);
        self.history.pop();
        self.moves.pop()
    }

    /// How often the current position has occurred in this game, itself included.
    pub fn repetitions(&self) -> u32 {
        self.history.repetitions()
    }

    /// The automatic end of the game, if it is over: the first that applies of checkmate,
    /// stalemate, insufficient material, the seventy-five-move rule and fivefold repetition.
    pub fn outcome(&self) -> Option<Outcome> {
        let pos = &self.position;
        if !pos.has_legal_moves() {
            return Some(if pos.is_check() {
                Outcome::Decisive { winner: !pos.turn(), termination: Termination::Checkmate }
            } else {
                Outcome::Draw { termination: Termination::Stalemate }
            });
        }
        let termination = if pos.is_insufficient_material() {
            Termination::InsufficientMaterial
        } else if pos.halfmoves() >= 150 {
            Termination::SeventyFiveMoves
        } else if self.repetitions() >= 5 {
            Termination::FivefoldRepetition
        } else {
            return None;
        };
        Some(Outcome::Draw { termination })
    }

    /// The draws a player may claim now: [`Termination::FiftyMoves`] when the halfmove clock is
    /// at least 100, [`Termination::ThreefoldRepetition`] when the current position has
    /// occurred three times or more, in that order.
    pub fn claimable_draws(&self) -> &'static [Termination] {
        const BOTH: [Termination; 2] = [Termination::FiftyMoves, Termination::ThreefoldRepetition];
        let fifty = self.position.halfmoves() >= 100;
        let threefold = self.repetitions() >= 3;
        match (fifty, threefold) {
            (true, true) => &BOTH,
            (true, false) => &BOTH[..1],
            (false, true) => &BOTH[1..],
            (false, false) => &[],
        }
    }
}
