//! The board's state: a game of legal moves, or the fields an edit left (`Board(None)`,
//! `set_piece_at` ...), and the accessors every Python method reads the board through.

use chessbits_bitboard::{Bitboard, Color, Role, Square};
use chessbits_move::{CastlingMode, UciMove};
use chessbits_movegen::{Game, MoveGen, Termination};
use chessbits_notation::fen::{
    fen_of, parse_position, CastlingNotation, EnPassantMode, FenOptions,
};
use chessbits_notation::san::San;
use chessbits_state::{CastlingSide, Setup};
use pyo3::prelude::*;

use super::Board;
use crate::edit::{self, Built};
use crate::errors::{
    fen_error, raise, san_error, IllegalMoveError, InvalidMoveError, PositionError,
};
use crate::moves::Move;
use crate::placement;

impl Board {
    /// A board of a FEN: a standard one, or Chess960 with `chess960`.
    ///
    /// # Errors
    /// `FenError` when the text is not FEN, `PositionError` when the position is not legal or
    /// its castling rights need `chess960`.
    pub(super) fn new(fen: &str, chess960: bool) -> PyResult<Board> {
        let mut pos = parse_position(&edit::without_promoted_marks(fen)).map_err(fen_error)?;
        let mode = if chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard };
        pos.set_castling_mode(mode).map_err(|_| {
            let field = fen.split_ascii_whitespace().nth(2).unwrap_or("");
            raise::<PositionError>(format!(
                "castling field {field:?}: rights that need Chess960 (a king off e1/e8 or a \
                 rook off the a and h files); pass chess960=True for a Chess960 board"
            ))
        })?;
        Ok(Board::of_game(Game::new(pos)))
    }

    /// A board of `game`, not edited.
    pub(super) fn of_game(game: Game) -> Board {
        Board { game: Box::new(game), edited: None, playable: true }
    }

    /// The board of edited fields: a position if they are one a board can play on
    /// ([`edit::build`]), else the fields alone.
    pub(super) fn of_setup(mut setup: Setup, chess960: bool) -> Board {
        setup.castling_mode =
            if chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard };
        let (game, playable) = match edit::build(&setup) {
            Built::Legal(pos) => (Game::new(*pos), true),
            Built::Edited => (Game::default(), false),
        };
        Board { game: Box::new(game), edited: Some(Box::new(setup)), playable }
    }

    /// The current position. Raises `PositionError` on a board set up into no legal position.
    pub(crate) fn position(&self) -> PyResult<&chessbits_state::Position> {
        match &self.edited {
            Some(setup) if !self.playable => Err(edit::not_legal(setup)),
            _ => Ok(self.game.position()),
        }
    }

    /// The fields as edited while they are the board's: no move played since the edit.
    pub(super) fn raw(&self) -> Option<&Setup> {
        self.edited.as_deref().filter(|_| !self.playable || self.game.moves().is_empty())
    }

    /// Where the pieces stand, edited or played to.
    pub(super) fn placement(&self) -> &chessbits_state::Board {
        match &self.edited {
            Some(setup) if !self.playable => &setup.board,
            _ => self.game.position().board(),
        }
    }

    /// A field of the board: `edited` of the fields as edited while they are the board's,
    /// else `played` of the position.
    pub(super) fn field<T>(
        &self,
        edited: impl FnOnce(&Setup) -> T,
        played: impl FnOnce(&chessbits_state::Position) -> T,
    ) -> T {
        self.raw().map_or_else(|| played(self.game.position()), edited)
    }

    /// Every field of the board (castling rights and en passant square as set or recorded).
    pub(super) fn fields(&self) -> Setup {
        self.raw().map_or_else(|| self.game.position().to_setup(), |s| *s)
    }

    /// The FEN: the position's, written as asked, or for fields no position can be built of,
    /// with the castling rights and en passant square python-chess would write.
    pub(super) fn fen_text(&self, en_passant: EnPassantMode, castling: CastlingNotation) -> String {
        match &self.edited {
            Some(setup) if !self.playable => {
                // No move can be generated to say whether a capture is legal: the square is
                // written, in every mode but "fen", when a pawn stands ready to take.
                let takers = setup.board.by_role(Role::Pawn) & setup.board.by_color(setup.turn);
                let ep = placement::valid_ep_square(setup).filter(|&ep| {
                    en_passant == EnPassantMode::Always
                        || (chessbits_bitboard::tables::pawn(!setup.turn, ep) & takers).any()
                });
                let shredder = castling == CastlingNotation::Shredder;
                format!(
                    "{} {} {} {} {} {}",
                    setup.board.board_fen(),
                    setup.turn.char(),
                    placement::castling_field(setup, shredder),
                    ep.map_or_else(|| "-".to_owned(), |sq| sq.to_string()),
                    setup.halfmoves,
                    setup.fullmoves
                )
            }
            _ => fen_of(self.game.position(), FenOptions { en_passant, castling }),
        }
    }

    /// Whether `color` keeps a castling right on `side`, as python-chess says: one of the
    /// rights it plays with ([`crate::placement::clean_rights`]) on that side of the king.
    pub(super) fn castling_side(&self, color: Color, side: CastlingSide) -> bool {
        let Some(setup) = self.raw() else {
            return self.game.position().castles().has(color, side);
        };
        let back = chessbits_bitboard::Bitboard::from_rank(
            chessbits_bitboard::Rank::First.relative_to(color),
        );
        let kings = setup.board.by_role(Role::King) & setup.board.by_color(color) & back;
        let Some(king) = kings.last() else { return false };
        (placement::clean_rights(setup) & back)
            .into_iter()
            .any(|rook| (rook > king) == (side == CastlingSide::KingSide))
    }

    /// Changes the fields with `change` and builds the board again; the moves are forgotten,
    /// as python-chess's `set_piece_at` and its kin clear the move stack.
    pub(super) fn edit(&mut self, change: impl FnOnce(&mut Setup)) {
        let mut setup = self.fields();
        change(&mut setup);
        *self = Board::of_setup(setup, self.chess960());
    }

    /// Resolves a Python move against the current position.
    pub(super) fn resolve(&self, m: &Move) -> PyResult<chessbits_move::Move16> {
        if m.uci == UciMove::Null {
            return Ok(chessbits_move::Move16::NULL);
        }
        crate::moves::resolve_uci(self.position()?, m.uci).map_err(raise::<IllegalMoveError>)
    }

    /// Plays a resolved move (the null move included).
    pub(super) fn play(&mut self, m: chessbits_move::Move16) -> PyResult<()> {
        if m.is_null() {
            return self.game.play_null().map_err(raise::<IllegalMoveError>);
        }
        self.game.play(m).map_err(raise::<IllegalMoveError>)
    }

    /// A move as Python sees it, castling written as this position's mode says.
    /// On a standard board, the square of the side to move's king when it stands on e1
    /// (white) or e8 (black), where python-chess reads `e1h1` as castling
    /// ([`LegalMoves`](crate::moves::LegalMoves)'s `in`).
    pub(super) fn king_home(&self, pos: &chessbits_state::Position) -> Option<Square> {
        let home = match pos.turn() {
            Color::White => Square::E1,
            Color::Black => Square::E8,
        };
        (!self.chess960() && pos.board().king_of(pos.turn()) == Some(home)).then_some(home)
    }

    pub(super) fn to_py(&self, m: chessbits_move::Move16) -> Move {
        // Only called with a move resolved against the position, so the board is not edited.
        Move { uci: self.game.position().uci(m) }
    }
}

/// Plays `m`, a move already played from this position once (legal, or a null move out of
/// check), without checking it again.
fn play_known(pos: &mut chessbits_state::Position, m: chessbits_move::Move16) {
    if m.is_null() {
        let _ = pos.play_null();
    } else {
        pos.play_unchecked(m);
    }
}

impl Board {
    /// The side `m` castles to, if it is a castling move of the side to move: its king
    /// moving two files along its rank, or onto its own rook.
    pub(super) fn castling(&self, m: &Move) -> Option<CastlingSide> {
        let UciMove::Normal { from, to, .. } = m.uci else { return None };
        let board = self.placement();
        let us = self.field(|s| s.turn, |p| p.turn());
        if board.piece_at(from) != Some(chessbits_bitboard::Piece { role: Role::King, color: us }) {
            return None;
        }
        let files = (from.file() as i32 - to.file() as i32).abs();
        let onto_rook = board.color_at(to) == Some(us) && board.role_at(to) == Some(Role::Rook);
        (onto_rook || (files > 1 && from.rank() == to.rank())).then(|| {
            if to.file() > from.file() {
                CastlingSide::KingSide
            } else {
                CastlingSide::QueenSide
            }
        })
    }

    /// The legal move `san` names: SAN, or, as python-chess takes it, a fully specified move
    /// in UCI (`g1f3`, `e1g1`) that SAN does not read as one.
    pub(super) fn san_move(&self, san: &str) -> PyResult<chessbits_move::Move16> {
        let text = san.trim();
        let pos = self.position()?;
        // The null move, in the four ways python-chess reads it.
        if matches!(text, "--" | "Z0" | "0000" | "@@@@") {
            return Ok(chessbits_move::Move16::NULL);
        }
        let parsed = San::from_ascii(text.as_bytes())
            .map_err(|e| raise::<InvalidMoveError>(format!("invalid san {san:?}: {e}")));
        // Resolved as the PGN reader resolves it, long algebraic (`g1-f3`) included.
        // On a Chess960 board castling is O-O or the king onto its rook: a king's move
        // to another square (`c1g1`, `Kg1`) names no move, as python-chess reads it.
        let chess960 = pos.castling_mode() == chessbits_move::CastlingMode::Chess960;
        let castles_elsewhere = |p: &San, m: chessbits_move::Move16| {
            chess960 && m.is_castling() && matches!(p, San::Normal { to, .. } if *to != m.to())
        };
        let error = match parsed.map(|p| (chessbits_pgn::resolve_san(pos, &p), p)) {
            Ok((Ok(m), p)) if castles_elsewhere(&p, m) => raise::<IllegalMoveError>(format!(
                "illegal san {san:?}: castling in Chess960 is the king onto its rook"
            )),
            Ok((Ok(m), _)) => return Ok(m),
            Ok((Err(e), _)) => san_error(e),
            Err(e) => e,
        };
        let uci = UciMove::from_ascii(text.as_bytes()).ok().filter(|u| *u != UciMove::Null);
        uci.and_then(|uci| crate::moves::resolve_uci(pos, uci).ok()).ok_or(error)
    }

    /// Whether `m` is an en passant capture here ([`placement::is_en_passant`]).
    pub(super) fn en_passant(&self, m: &Move) -> bool {
        let (ep, turn) = self.field(|s| (s.ep_square, s.turn), |p| (p.ep_square(), p.turn()));
        placement::is_en_passant(self.placement(), turn, ep, m.uci)
    }

    /// Whether `m` captures here ([`placement::is_capture`]).
    pub(super) fn captures(&self, m: &Move) -> bool {
        let (ep, turn) = self.field(|s| (s.ep_square, s.turn), |p| (p.ep_square(), p.turn()));
        placement::is_capture(self.placement(), turn, ep, m.uci)
    }

    /// Whether the side to move may claim `termination` now or by announcing a legal move.
    pub(super) fn can_claim(&self, termination: Termination) -> PyResult<bool> {
        // As python-chess: the fifty-move rule needs a move to play (not after checkmate or
        // in stalemate).
        let pos = self.position()?;
        if termination == Termination::FiftyMoves && pos.count_legal_moves() == 0 {
            return Ok(false);
        }
        if self.game.claimable_draws().contains(&termination) {
            return Ok(true);
        }
        // A claim by announcing a move: only a reversible move can reach a repetition or
        // bring the clock to 100, and the clock must be at 99 for the fifty-move claim.
        if termination == Termination::FiftyMoves && pos.halfmoves() < 99 {
            return Ok(false);
        }
        Ok(pos.legal_moves().iter().any(|&m| {
            self.game.claimable_draws_after(m).is_ok_and(|claims| claims.contains(&termination))
        }))
    }
}

impl Board {
    /// A copy with the last `keep` moves of this board's (fewer than it has, or all).
    ///
    /// # Errors
    /// None in practice: every move kept was played from where it stands before.
    pub(super) fn keeping(&self, keep: usize) -> PyResult<Board> {
        let moves = self.game.moves();
        if keep >= moves.len() {
            return Ok(self.clone());
        }
        // The position `keep` moves back becomes the copy's start; every move here was
        // played from this board's start before, so it is legal where it stands.
        let mut start = *self.game.start();
        for &m in &moves[..moves.len() - keep] {
            play_known(&mut start, m);
        }
        let mut game = Game::new(start);
        for &m in &moves[moves.len() - keep..] {
            if m.is_null() {
                game.play_null().map_err(raise::<IllegalMoveError>)?;
            } else {
                game.play(m).map_err(raise::<IllegalMoveError>)?;
            }
        }
        Ok(Board::of_game(game))
    }

    /// The moves played, oldest first, written as this board writes castling.
    pub(super) fn moves_played(&self) -> Vec<Move> {
        let mut pos = *self.game.start();
        let mut out = Vec::with_capacity(self.game.moves().len());
        for &m in self.game.moves() {
            out.push(Move { uci: pos.uci(m) });
            // Every move here was played from this start before.
            play_known(&mut pos, m);
        }
        out
    }
}

/// `fen(en_passant=...)`'s mode: `"legal"`, `"fen"` or `"xfen"`.
///
/// # Errors
/// `ValueError` for any other text.
pub(super) fn en_passant_mode(text: &str) -> PyResult<EnPassantMode> {
    match text {
        "legal" => Ok(EnPassantMode::Legal),
        "fen" => Ok(EnPassantMode::Always),
        "xfen" => Ok(EnPassantMode::PseudoLegal),
        other => Err(pyo3::exceptions::PyValueError::new_err(format!(
            "en_passant must be 'legal', 'fen' or 'xfen', not {other:?}"
        ))),
    }
}

/// The moves of a `generate_*` method, handed to Python one at a time.
pub(super) type MoveIter<'py> = Bound<'py, pyo3::types::PyIterator>;

/// `moves` as a Python iterator.
pub(super) fn iterate<'py>(
    py: Python<'py>,
    moves: impl IntoIterator<Item = Move, IntoIter: ExactSizeIterator>,
) -> PyResult<MoveIter<'py>> {
    pyo3::types::PyList::new(py, moves)?.try_iter()
}

impl Board {
    /// The legal move from `from` to `to`, as python-chess's `find_move` finds it: a pawn
    /// reaching its last rank promotes to a queen unless `promotion` says otherwise; castling
    /// by the king's two squares or onto its rook.
    ///
    /// # Errors
    /// `IllegalMoveError` if there is none.
    pub(super) fn find(
        &self,
        from: chessbits_bitboard::Square,
        to: chessbits_bitboard::Square,
        promotion: Option<Role>,
    ) -> PyResult<chessbits_move::Move16> {
        let board = self.placement();
        let pawn = board.role_at(from) == Some(Role::Pawn);
        let back = chessbits_bitboard::Bitboard::BACKRANKS.contains(to);
        let promotion = promotion.or((pawn && back).then_some(Role::Queen));
        let uci = UciMove::Normal { from, to, promotion };
        let illegal = || {
            raise::<IllegalMoveError>(format!("no matching legal move for {uci} ({from} -> {to})"))
        };
        crate::moves::resolve_uci(self.position()?, uci).map_err(|_| illegal())
    }
}

/// Which moves a `generate_*` method yields.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Generated {
    /// `generate_legal_moves`.
    Legal,
    /// `generate_legal_captures`: en passant included.
    LegalCaptures,
    /// `generate_legal_ep`.
    LegalEp,
    /// `generate_castling_moves`.
    Castling,
    /// `generate_pseudo_legal_moves`.
    Pseudo,
    /// `generate_pseudo_legal_captures`: en passant included.
    PseudoCaptures,
    /// `generate_pseudo_legal_ep`.
    PseudoEp,
}

impl Board {
    /// The moves of `kind` from a square of `from` to a square of `to`, as python-chess's
    /// `generate_*(from_mask, to_mask)` choose them: a castling move is the king's from its
    /// square to its rook's there, whatever square the king lands on. Each is written as
    /// this board writes moves.
    pub(super) fn generated(
        &self,
        kind: Generated,
        from: Bitboard,
        to: Bitboard,
    ) -> PyResult<Vec<Move>> {
        let pos = self.position()?;
        let within = |m: &chessbits_move::Move16| from.contains(m.from()) && to.contains(m.to());
        let legal = |list: chessbits_movegen::MoveList, captures_only: bool| {
            let kept = list.into_iter().filter(|m| within(m) && (!captures_only || m.is_capture()));
            kept.map(|m| self.to_py(m)).collect()
        };
        let pseudo = |list: Vec<UciMove>, captures_only: bool| {
            let captures = |&uci: &UciMove| {
                !captures_only
                    || placement::is_capture(pos.board(), pos.turn(), pos.ep_square(), uci)
            };
            list.into_iter().filter(captures).map(|uci| Move { uci }).collect()
        };
        Ok(match kind {
            Generated::Legal => legal(pos.legal_moves(), false),
            Generated::LegalCaptures => legal(pos.legal_moves(), true),
            Generated::LegalEp => legal(pos.en_passant_moves(), false),
            Generated::Castling => legal(pos.castling_moves(), false),
            Generated::Pseudo => pseudo(placement::pseudo_legal_moves_within(pos, from, to), false),
            Generated::PseudoCaptures => {
                pseudo(placement::pseudo_legal_moves_within(pos, from, to), true)
            }
            Generated::PseudoEp => pseudo(placement::pseudo_legal_ep(pos, from, to), false),
        })
    }

    /// The generated moves of `kind` as a Python iterator.
    pub(super) fn generate<'py>(
        &self,
        py: Python<'py>,
        kind: Generated,
        from: crate::pieces::Mask,
        to: crate::pieces::Mask,
    ) -> PyResult<MoveIter<'py>> {
        iterate(py, self.generated(kind, Bitboard(from.0), Bitboard(to.0))?)
    }

    /// `fen`, its placement field with a `~` after each piece python-chess marks as promoted
    /// (`Board.promoted`) when `promoted` is set.
    pub(super) fn with_promoted_marks(&self, fen: String, promoted: bool) -> String {
        let marked = crate::moves::promoted(self.game.moves());
        if !promoted || marked.is_empty() {
            return fen;
        }
        let (placement, rest) =
            fen.split_once(' ').map_or((fen.as_str(), None), |(p, r)| (p, Some(r)));
        let mut out = String::with_capacity(fen.len() + 8);
        // The placement field names the squares from a8 to h8, then down to rank 1.
        let (mut rank, mut file) = (7u32, 0u32);
        for c in placement.chars() {
            out.push(c);
            match c {
                '/' => (rank, file) = (rank.saturating_sub(1), 0),
                '1'..='8' => file += u32::from(c) - u32::from('0'),
                _ => {
                    if marked.contains(Square::new(rank * 8 + file)) {
                        out.push('~');
                    }
                    file += 1;
                }
            }
        }
        if let Some(rest) = rest {
            out.push(' ');
            out.push_str(rest);
        }
        out
    }
}
