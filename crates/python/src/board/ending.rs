//! How `Board`'s game ends, as python-chess tells it: checks and mates, the draws by
//! material, repetition and the move counters (claimed or automatic), `outcome()` and
//! `result()`.

use chessbits_movegen::{MoveGen, Outcome as RustOutcome, Termination};
use pyo3::prelude::*;

use super::Board;
use crate::moves::Outcome;
use crate::pieces::ColorArg;

#[pymethods]
impl Board {
    /// `True` if the halfmove clock has reached 100 and a move may still be played: the
    /// fifty-move rule may be claimed now (python-chess's `is_fifty_moves()`).
    fn is_fifty_moves(&self) -> PyResult<bool> {
        let pos = self.position()?;
        Ok(pos.halfmoves() >= 100 && pos.count_legal_moves() > 0)
    }

    /// `True` if `color` has too little material to checkmate (python-chess's rule).
    fn has_insufficient_material(&self, color: ColorArg) -> PyResult<bool> {
        Ok(self.position()?.has_insufficient_material(color.0))
    }

    /// `True` if the side to move is in check.
    fn is_check(&self) -> PyResult<bool> {
        Ok(self.position()?.is_check())
    }

    /// `True` if the side to move is checkmated.
    fn is_checkmate(&self) -> PyResult<bool> {
        Ok(self.position()?.is_checkmate())
    }

    /// `True` if the side to move has no legal move and is not in check.
    fn is_stalemate(&self) -> PyResult<bool> {
        Ok(self.position()?.is_stalemate())
    }

    /// `True` if neither side can checkmate (python-chess's definition).
    fn is_insufficient_material(&self) -> PyResult<bool> {
        Ok(self.position()?.is_insufficient_material())
    }

    /// `True` after 75 moves each without capture or pawn move (an automatic draw), unless
    /// the side to move has no legal move (mate and stalemate come first).
    fn is_seventyfive_moves(&self) -> PyResult<bool> {
        Ok(self.position()?.halfmoves() >= 150 && self.position()?.has_legal_moves())
    }

    /// `True` if the current position has occurred five times (an automatic draw).
    fn is_fivefold_repetition(&self) -> bool {
        self.game.repetitions() >= 5
    }

    /// `True` if the current position has occurred at least `count` times.
    #[pyo3(signature = (count=3))]
    fn is_repetition(&self, count: i64) -> bool {
        i64::from(self.game.repetitions()) >= count
    }

    /// `True` if the side to move may claim a draw by the fifty-move rule, now or by
    /// announcing a move.
    fn can_claim_fifty_moves(&self) -> PyResult<bool> {
        self.can_claim(Termination::FiftyMoves)
    }

    /// `True` if the side to move may claim a draw by threefold repetition, now or by
    /// announcing a move.
    fn can_claim_threefold_repetition(&self) -> PyResult<bool> {
        self.can_claim(Termination::ThreefoldRepetition)
    }

    /// `True` if the side to move may claim a draw (fifty moves or threefold repetition).
    fn can_claim_draw(&self) -> PyResult<bool> {
        Ok(self.can_claim_fifty_moves()? || self.can_claim_threefold_repetition()?)
    }

    /// `True` if the game is over by the rules (automatic endings), or, with
    /// `claim_draw=True`, if a draw may be claimed.
    #[pyo3(signature = (*, claim_draw=false))]
    fn is_game_over(&self, claim_draw: bool) -> PyResult<bool> {
        Ok(self.outcome(claim_draw)?.is_some())
    }

    /// How the game ended, or `None`: checkmate, stalemate, insufficient material, the
    /// seventy-five-move rule, fivefold repetition; with `claim_draw=True` also the
    /// fifty-move rule and threefold repetition when they may be claimed.
    #[pyo3(signature = (*, claim_draw=false))]
    fn outcome(&self, claim_draw: bool) -> PyResult<Option<Outcome>> {
        self.position()?;
        if let Some(inner) = self.game.outcome() {
            return Ok(Some(Outcome { inner }));
        }
        if claim_draw {
            for termination in [Termination::FiftyMoves, Termination::ThreefoldRepetition] {
                if self.can_claim(termination)? {
                    return Ok(Some(Outcome { inner: RustOutcome::Draw { termination } }));
                }
            }
        }
        Ok(None)
    }

    /// The result: `1-0`, `0-1`, `1/2-1/2`, or `*` while the game goes on.
    #[pyo3(signature = (*, claim_draw=false))]
    fn result(&self, claim_draw: bool) -> PyResult<&'static str> {
        Ok(self.outcome(claim_draw)?.map_or("*", |o| o.result()))
    }
}
