//! [`Game`]: a start position, the moves played, and everything needed to say how it ends.

use chessbits_move::{Move16, UciMove};
use chessbits_state::{zobrist, History, NullMoveError, Position, Undo};

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

/// The claims of [`Game::claimable_draws`], in its order.
fn claims(fifty: bool, threefold: bool) -> &'static [Termination] {
    const BOTH: [Termination; 2] = [Termination::FiftyMoves, Termination::ThreefoldRepetition];
    match (fifty, threefold) {
        (true, true) => &BOTH,
        (true, false) => &BOTH[..1],
        (false, true) => &BOTH[1..],
        (false, false) => &[],
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

    /// Starts a new game from `start`, as [`Game::new`] does, keeping the memory of this
    /// one's moves and history (for a reader that replays many games).
    ///
    /// ```
    /// use chessbits_movegen::{Game, Position};
    ///
    /// let mut game = Game::default();
    /// game.play_uci("e2e4".parse()?)?;
    /// game.reset(Position::new());
    /// assert!(game.moves().is_empty());
    /// assert_eq!(game.position(), &Position::new());
    /// assert_eq!(game.history().len(), 1);
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn reset(&mut self, start: Position) {
        self.start = start;
        self.position = start;
        self.moves.clear();
        self.undos.clear();
        self.history.reset(repetition_key(&start));
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
    /// An automatic draw does not stop the game here: after fivefold repetition, the
    /// seventy-five-move rule or insufficient material (see [`Game::outcome`]) the game is over
    /// by the rules, yet legal moves are still played. Recorded games go on past these draws
    /// when nobody noticed them, and replaying such a game must not fail; ask
    /// [`Game::outcome`] where it matters. After checkmate or stalemate there is no legal move,
    /// so every move is refused.
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

    /// Plays `m`, a move the caller has found legal in the current position (resolved from
    /// SAN or UCI, or taken from the legal moves), without testing it again: the PGN replay
    /// resolves every move and would otherwise pay for the test twice.
    ///
    /// The contract is [`Position::play_unchecked`]'s: an illegal move leaves a game on which
    /// generation may go wrong. Debug builds check it.
    pub fn play_legal(&mut self, m: Move16) {
        debug_assert!(self.position.is_legal(m), "play_legal with an illegal move {m:?}");
        let irreversible = self.position.is_irreversible(m);
        let undo = self.position.play_unchecked(m);
        self.history.push(repetition_key(&self.position), irreversible);
        self.moves.push(m);
        self.undos.push(undo);
    }

    /// Plays a null move: the side to move passes (the en passant square is cleared, the
    /// halfmove clock counts on, the move number too after Black's turn) and
    /// [`Move16::NULL`] is recorded among the moves. Annotated games write it `--`
    /// ("if it were the other side's move"). A null move is reversible: repetitions are
    /// counted across it.
    ///
    /// ```
    /// use chessbits_movegen::Game;
    /// use chessbits_move::Move16;
    ///
    /// let mut game = Game::default();
    /// game.play_uci("e2e4".parse()?)?;
    /// game.play_null()?;
    /// assert_eq!(game.moves(), [game.moves()[0], Move16::NULL].as_slice());
    /// assert_eq!(game.position().halfmoves(), 1);
    /// assert_eq!(game.position().fullmoves(), 2);
    /// assert_eq!(game.undo(), Some(Move16::NULL));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`NullMoveError`], leaving the game unchanged, if the side to move is in check.
    pub fn play_null(&mut self) -> Result<(), NullMoveError> {
        let undo = self.position.play_null()?;
        self.history.push(repetition_key(&self.position), false);
        self.moves.push(Move16::NULL);
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
        if undo.moved().is_none() {
            self.position.undo_null(undo);
        } else {
            self.position.undo(undo);
        }
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
        // The position's own verdict first (mate, stalemate, material, 75 moves), then history.
        self.position.outcome().or_else(|| {
            let termination = Termination::FivefoldRepetition;
            (self.repetitions() >= 5).then_some(Outcome::Draw { termination })
        })
    }

    /// The draws a player may claim now: [`Termination::FiftyMoves`] when the halfmove clock is
    /// at least 100, [`Termination::ThreefoldRepetition`] when the current position has
    /// occurred three times or more, in that order.
    pub fn claimable_draws(&self) -> &'static [Termination] {
        claims(self.position.halfmoves() >= 100, self.repetitions() >= 3)
    }

    /// The draws the side to move may claim by announcing `m` (FIDE 9.2.1 and 9.3.1: the
    /// player writes the move down and claims, before playing it): [`Termination::FiftyMoves`]
    /// if `m` brings the halfmove clock to 100 or more, [`Termination::ThreefoldRepetition`] if
    /// `m` reaches a position for the third time or more, in that order. The game is not
    /// changed.
    ///
    /// A draw can be claimed in a position when [`Game::claimable_draws`] is not empty or some
    /// legal move has claims here (python-chess's `can_claim_draw`).
    ///
    /// ```
    /// use chessbits_movegen::{Game, MoveGen, Termination};
    ///
    /// let mut game = Game::default();
    /// for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
    ///     game.play_uci(m.parse()?)?;
    /// }
    /// let back = game.position().resolve_uci("f6g8".parse()?)?;
    /// assert!(game.claimable_draws().is_empty());
    /// assert_eq!(game.claimable_draws_after(back)?, [Termination::ThreefoldRepetition].as_slice());
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`IllegalMoveError`] if `m` is not legal.
    pub fn claimable_draws_after(
        &self,
        m: Move16,
    ) -> Result<&'static [Termination], IllegalMoveError> {
        let irreversible = self.position.is_irreversible(m);
        let mut next = self.position;
        next.play(m)?;
        let repetitions = self.history.repetitions_after(repetition_key(&next), irreversible);
        Ok(claims(next.halfmoves() >= 100, repetitions >= 3))
    }
}
