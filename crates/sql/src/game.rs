//! One game of a table: its coded mainline (`moves`), its length (`plies`) and its start
//! position (`start_fen`, `None` for the standard start), replayed for the SQL functions. No
//! DataFusion here: these are the answers for one row, with one error type naming the ply and
//! byte at fault.

use core::fmt;

use chessbits_codec::move_codec::{MoveCodec, MoveDecodeError, MoveDecoder};
use chessbits_movegen::{Game, Outcome};
use chessbits_notation::fen::{fen_of, CastlingNotation, EnPassantMode, FenOptions};
use chessbits_notation::fen::{parse_position, FenError};
use chessbits_notation::san::SanPlus;
use chessbits_state::{
    Bitboard, CastlingMode, CastlingRights, Color, Move16, Position, Role, UciMove,
};

/// The FEN the functions write: the one `chessbits pgn --to uci` writes (X-FEN castling, the
/// en passant square only when a capture is legal).
pub(crate) const FEN_OPTIONS: FenOptions =
    FenOptions { castling: CastlingNotation::XFen, en_passant: EnPassantMode::Legal };

/// Why a game's columns do not replay.
#[derive(Debug)]
pub(crate) enum GameError {
    /// `plies` is negative or larger than any game.
    Plies(i64),
    /// `start_fen` is not a legal position.
    StartFen(FenError),
    /// `moves` does not decode.
    Moves(MoveDecodeError),
    /// A decoded move was refused by the game (cannot happen for a decoded move).
    Illegal(u32),
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Plies(n) => write!(f, "plies: {n} is not a number of plies"),
            GameError::StartFen(e) => write!(f, "start_fen: {e}"),
            GameError::Moves(e) => write!(f, "moves: {e}"),
            GameError::Illegal(ply) => write!(f, "moves: ply {ply}: not a legal move"),
        }
    }
}

/// Start positions by FEN, remembering the last one (most rows repeat NULL or the same text).
#[derive(Debug, Default)]
pub(crate) struct Starts {
    last: Option<(String, Position)>,
}

impl Starts {
    /// The start position of `start_fen` (`None`: the standard start).
    pub(crate) fn get(&mut self, start_fen: Option<&str>) -> Result<Position, GameError> {
        let Some(text) = start_fen else { return Ok(Position::new()) };
        if let Some((last, pos)) = &self.last {
            if last == text {
                return Ok(*pos);
            }
        }
        let mut pos = parse_position(text).map_err(GameError::StartFen)?;
        if pos == Position::new() {
            // The exporter writes no start FEN for standard chess from the standard start: a
            // written one is Chess960's standard array, whose castling X-FEN cannot tell.
            // Only standard notation can be refused.
            let _ = pos.set_castling_mode(CastlingMode::Chess960);
        }
        self.last = Some((text.to_owned(), pos));
        Ok(pos)
    }
}

/// A game being decoded, move by move.
pub(crate) struct Replay<'a> {
    decoder: MoveDecoder<'a>,
    /// The start position: UCI is written through its castling mode.
    pub(crate) start: Position,
    plies: u32,
    done: u32,
}

impl<'a> Replay<'a> {
    /// The game of `moves`, `plies` long, from `start`.
    pub(crate) fn new(moves: &'a [u8], plies: i64, start: Position) -> Result<Self, GameError> {
        let plies = u32::try_from(plies).map_err(|_| GameError::Plies(plies))?;
        Ok(Replay {
            decoder: MoveDecoder::new(MoveCodec::Model, &start, moves),
            start,
            plies,
            done: 0,
        })
    }

    /// The position after the moves decoded so far.
    pub(crate) fn position(&self) -> &Position {
        self.decoder.position()
    }

    /// The next move, played; `None` after the last.
    pub(crate) fn next_move(&mut self) -> Result<Option<Move16>, GameError> {
        if self.done >= self.plies {
            return Ok(None);
        }
        let m = self.decoder.next_move().map_err(GameError::Moves)?;
        self.done += 1;
        Ok(Some(m))
    }

    /// Checks that the bytes end with the last move (call after the last move).
    pub(crate) fn finish(&self) -> Result<(), GameError> {
        self.decoder.finish().map_err(GameError::Moves)
    }

    /// The UCI text of `m`, as the start position's castling mode writes it.
    pub(crate) fn uci(&self, m: Move16) -> UciMove {
        self.start.uci(m)
    }

    /// The mainline as space-separated UCI, appended to `out`.
    pub(crate) fn write_uci(mut self, out: &mut String) -> Result<(), GameError> {
        use fmt::Write as _;
        while let Some(m) = self.next_move()? {
            if self.done > 1 {
                out.push(' ');
            }
            // Writing into a String cannot fail.
            let _ = write!(out, "{}", self.uci(m));
        }
        self.finish()
    }

    /// The mainline as space-separated SAN (with `+` and `#`), appended to `out`.
    pub(crate) fn write_san(mut self, out: &mut String) -> Result<(), GameError> {
        use fmt::Write as _;
        while self.done < self.plies {
            let mut before = *self.position();
            let Some(m) = self.next_move()? else { break };
            if self.done > 1 {
                out.push(' ');
            }
            let _ = write!(out, "{}", SanPlus::from_move_and_play(&mut before, m));
        }
        self.finish()
    }

    /// The FEN after `ply` plies (0: the start), `None` past the end or for a negative ply.
    pub(crate) fn fen_at(mut self, ply: i64) -> Result<Option<String>, GameError> {
        let Ok(ply) = u32::try_from(ply) else { return Ok(None) };
        if ply > self.plies {
            return Ok(None);
        }
        while self.done < ply {
            self.next_move()?;
        }
        Ok(Some(fen_of(self.position(), FEN_OPTIONS)))
    }

    /// The move of ply `ply` (from 1), `None` outside the game.
    pub(crate) fn move_at(mut self, ply: i64) -> Result<Option<UciMove>, GameError> {
        let Ok(ply) = u32::try_from(ply) else { return Ok(None) };
        if ply == 0 || ply > self.plies {
            return Ok(None);
        }
        while self.done + 1 < ply {
            self.next_move()?;
        }
        Ok(self.next_move()?.map(|m| self.uci(m)))
    }

    /// Whether the game reaches `target` (start included). Decoding stops at the first match,
    /// or as soon as the target cannot be reached any more.
    pub(crate) fn reaches(mut self, target: &Target) -> Result<bool, GameError> {
        self.find(target).map(|found| found.is_some())
    }

    /// The move played from the first position equal to `target`, `None` when the game
    /// never reaches it or ends there.
    pub(crate) fn next_move_from(mut self, target: &Target) -> Result<Option<UciMove>, GameError> {
        if self.find(target)?.is_none() {
            return Ok(None);
        }
        Ok(self.next_move()?.map(|m| self.uci(m)))
    }

    /// Decodes until the position equals `target`: `Some(ply)` there, `None` if it never does.
    fn find(&mut self, target: &Target) -> Result<Option<u32>, GameError> {
        loop {
            let pos = self.position();
            if pos.key() == target.key {
                return Ok(Some(self.done));
            }
            if !target.reachable_from(pos) || self.next_move()?.is_none() {
                return Ok(None);
            }
        }
    }

    /// The automatic end of the game (checkmate, stalemate, insufficient material, the
    /// seventy-five-move rule, fivefold repetition), `None` if it is not over.
    pub(crate) fn outcome(mut self) -> Result<Option<Outcome>, GameError> {
        let mut game = Game::new(self.start);
        while let Some(m) = self.next_move()? {
            let played = if m.is_null() { game.play_null().is_ok() } else { game.play(m).is_ok() };
            if !played {
                return Err(GameError::Illegal(self.done));
            }
        }
        self.finish()?;
        Ok(game.outcome())
    }
}

/// A position searched for: its Polyglot key, and what cannot come back once gone.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Target {
    /// The Polyglot key: positions are equal when their keys are.
    pub(crate) key: u64,
    occupied: u32,
    pawns: [u32; 2],
    /// Pawns on their start rank: once moved, a pawn never returns.
    home_pawns: Bitboard,
    rights: CastlingRights,
}

impl Target {
    /// The target position of `fen`.
    pub(crate) fn new(fen: &str) -> Result<Target, FenError> {
        Ok(Target::of(&parse_position(fen)?))
    }

    /// The target `pos`.
    pub(crate) fn of(pos: &Position) -> Target {
        let board = pos.board();
        Target {
            key: pos.key(),
            occupied: board.occupied().count(),
            pawns: [Color::White, Color::Black].map(|c| pawns(pos, c).count()),
            home_pawns: home_pawns(pos),
            rights: pos.castles().rights(),
        }
    }

    /// False when no sequence of moves leads from `pos` to the target: pieces, pawns, pawns on
    /// their start ranks and castling rights only ever disappear.
    fn reachable_from(&self, pos: &Position) -> bool {
        let board = pos.board();
        board.occupied().count() >= self.occupied
            && pawns(pos, Color::White).count() >= self.pawns[0]
            && pawns(pos, Color::Black).count() >= self.pawns[1]
            && self.home_pawns.is_subset(home_pawns(pos))
            && pos.castles().rights().contains(self.rights)
    }
}

fn pawns(pos: &Position, color: Color) -> Bitboard {
    pos.board().by_role(Role::Pawn) & pos.board().by_color(color)
}

fn home_pawns(pos: &Position) -> Bitboard {
    (pawns(pos, Color::White) & Bitboard::RANK_2) | (pawns(pos, Color::Black) & Bitboard::RANK_7)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chessbits_codec::move_codec;
    use chessbits_movegen::MoveGen;

    /// The coded mainline of `uci` from `start`.
    fn coded(start: &Position, uci: &str) -> (Vec<u8>, i64) {
        let mut pos = *start;
        let mut moves = Vec::new();
        for text in uci.split_whitespace() {
            let m = pos.resolve_uci(text.parse().unwrap()).unwrap();
            pos.play(m).unwrap();
            moves.push(m);
        }
        let mut bytes = Vec::new();
        move_codec::encode(MoveCodec::Model, start, &moves, &mut bytes).unwrap();
        (bytes, moves.len() as i64)
    }

    const MATE: &str = "e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7";

    fn replay<'a>(bytes: &'a [u8], plies: i64) -> Replay<'a> {
        Replay::new(bytes, plies, Position::new()).unwrap()
    }

    #[test]
    fn text_of_the_mainline() {
        let (bytes, plies) = coded(&Position::new(), MATE);
        let mut uci = String::new();
        replay(&bytes, plies).write_uci(&mut uci).unwrap();
        assert_eq!(uci, MATE);
        let mut san = String::new();
        replay(&bytes, plies).write_san(&mut san).unwrap();
        insta::assert_snapshot!(san, @"e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#");
        let outcome = replay(&bytes, plies).outcome().unwrap().map(|o| o.to_string());
        insta::assert_snapshot!(outcome.unwrap(), @"1-0 (checkmate)");
    }

    #[test]
    fn positions_and_moves_by_ply() {
        let (bytes, plies) = coded(&Position::new(), MATE);
        let at = |ply| replay(&bytes, plies).fen_at(ply).unwrap();
        assert_eq!(
            at(0).as_deref(),
            Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
        );
        // The en passant square only when a capture is legal: none after 1. e4.
        assert_eq!(
            at(1).as_deref(),
            Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
        );
        assert_eq!(at(8), None);
        assert_eq!(at(-1), None);
        let moves: Vec<_> = (0..=8)
            .map(|ply| replay(&bytes, plies).move_at(ply).unwrap().map(|m| m.to_string()))
            .collect();
        let expected: Vec<_> = [None]
            .into_iter()
            .chain(MATE.split(' ').map(|m| Some(m.to_string())))
            .chain([None])
            .collect();
        assert_eq!(moves, expected);
    }

    #[test]
    fn reaching_a_position() {
        let (bytes, plies) = coded(&Position::new(), MATE);
        let after = |uci: &str| {
            let mut pos = Position::new();
            for text in uci.split_whitespace() {
                pos.play(pos.resolve_uci(text.parse().unwrap()).unwrap()).unwrap();
            }
            Target::of(&pos)
        };
        for (line, reached, next) in [
            ("", true, Some("e2e4")),
            ("e2e4 e7e5", true, Some("d1h5")),
            // The same position by another order of moves.
            ("e2e4 e7e5 f1c4 b8c6 d1h5 g8f6", true, Some("h5f7")),
            ("e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7", true, None),
            ("d2d4", false, None),
            ("e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5h4", false, None),
        ] {
            let target = after(line);
            assert_eq!(replay(&bytes, plies).reaches(&target).unwrap(), reached, "{line}");
            let played = replay(&bytes, plies).next_move_from(&target).unwrap();
            assert_eq!(played.map(|m| m.to_string()).as_deref(), next, "{line}");
        }
    }

    #[test]
    fn bad_columns_are_errors_naming_the_spot() {
        let (bytes, plies) = coded(&Position::new(), MATE);
        let error = |result: Result<(), GameError>| result.unwrap_err().to_string();
        // One ply more than coded: the checkmated side has no move.
        insta::assert_snapshot!(error(replay(&bytes, plies + 1).write_uci(&mut String::new())),
            @"moves: ply 8 (byte 0): no legal move, yet more plies follow");
        // Fewer plies than coded: bytes are left over.
        insta::assert_snapshot!(error(replay(&bytes, plies - 2).write_uci(&mut String::new())),
            @"moves: ply 5 (byte 3): bytes follow the last move");
        let mut longer = bytes.clone();
        longer.push(0x5a);
        insta::assert_snapshot!(error(replay(&longer, plies).write_uci(&mut String::new())),
            @"moves: ply 7 (byte 3): bytes follow the last move");
        // A byte more, even a zero, is not the exact encoding. (A cut is not always an error:
        // a prefix can be the code of another game as long.)
        let mut zero = bytes.clone();
        zero.push(0);
        insta::assert_snapshot!(error(replay(&zero, plies).write_san(&mut String::new())), @"moves: ply 7 (byte 3): bytes follow the last move");
        insta::assert_snapshot!(Replay::new(&bytes, -1, Position::new()).err().unwrap(), @"plies: -1 is not a number of plies");
        let mut starts = Starts::default();
        insta::assert_snapshot!(starts.get(Some("8/8/8/8/8/8/8/8 w - - 0 1")).unwrap_err(), @"start_fen: white has no king, black has no king");
        insta::assert_snapshot!(starts.get(Some("not a fen")).unwrap_err(), @"start_fen: placement (byte 1): invalid character 'o', expected a piece letter, a digit 1..8 or '/'");
        // Every prefix and every flipped byte: an error or moves, never a panic.
        for cut in 0..bytes.len() {
            let _ = replay(&bytes[..cut], plies).outcome();
        }
        for i in 0..bytes.len() {
            for bit in 0..8 {
                let mut flipped = bytes.clone();
                flipped[i] ^= 1 << bit;
                let _ = replay(&flipped, plies).write_san(&mut String::new());
            }
        }
    }

    #[test]
    fn start_positions_are_read_once_and_kept() {
        let mut starts = Starts::default();
        let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
        let pos = starts.get(Some(fen)).unwrap();
        assert_eq!(fen_of(&pos, FEN_OPTIONS), fen);
        assert_eq!(starts.get(Some(fen)).unwrap(), pos);
        assert_eq!(starts.get(None).unwrap(), Position::new());
        let (bytes, plies) = coded(&pos, "e2e4 e8d7 e1d2");
        let mut uci = String::new();
        Replay::new(&bytes, plies, pos).unwrap().write_uci(&mut uci).unwrap();
        assert_eq!(uci, "e2e4 e8d7 e1d2");
    }
}
