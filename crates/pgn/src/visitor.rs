//! The [`Visitor`] trait that the readers drive, the raw values they hand it ([`RawTag`],
//! [`RawComment`], [`GameResult`]), and [`Replay`], a visitor that plays the mainline into a
//! [`Game`].

use core::convert::Infallible;
use core::fmt;
use std::borrow::Cow;

use chessbits_bitboard::{Role, Square};
use chessbits_move::{CastlingMode, Move16, UciMove};
use chessbits_movegen::{Game, MoveGen};
use chessbits_state::Position;

use super::annotations::{
    decode_lossy, split_comment, Clock, CommentAnnotations, CommentParts, Eval, Nag,
};
use chessbits_notation::fen::{Fen, FenError};
use chessbits_notation::san::{San, SanError, SanPlus};

/// What a visitor answers when asked whether to read a part of the game: `Skip(true)` to pass
/// over it quickly, `Skip(false)` to have it read.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Skip(pub bool);

/// Receives a game, part by part, from [`PgnReader`](super::PgnReader) or
/// [`SliceReader`](super::SliceReader).
///
/// For each game the reader calls, in order: [`begin_game`](Visitor::begin_game), [`tag`]
/// for each tag pair, [`begin_movetext`] once, then for each movetext token [`san`],
/// [`nag`], [`comment`], [`begin_variation`] or [`end_variation`], then [`outcome`] if the
/// movetext ends with a result, and [`end_game`], whose value the reader returns. Every method
/// but `end_game` has a default that does nothing.
///
/// - Skipping is cheap: if `begin_movetext` returns `Skip(true)`, the movetext is passed over
///   without being read and no movetext method is called (`outcome` neither); if
///   `begin_variation` returns `Skip(true)`, the variation is passed over and its
///   `end_variation` is not called.
/// - Variations left open when the game ends get their `end_variation` calls before
///   `end_game`.
/// - A broken game stops where the problem is: the reader returns the error and `end_game` is
///   not called. The next game begins with `begin_game` again, so reset state there.
/// - [`tag`] and [`san`] may reject the game with [`Visitor::Error`]; the reader then reports
///   it as a [`PgnErrorKind::Visitor`](super::PgnErrorKind::Visitor) at that tag or move, and
///   skips the rest of the game.
///
/// [`tag`]: Visitor::tag
/// [`begin_movetext`]: Visitor::begin_movetext
/// [`san`]: Visitor::san
/// [`nag`]: Visitor::nag
/// [`comment`]: Visitor::comment
/// [`begin_variation`]: Visitor::begin_variation
/// [`end_variation`]: Visitor::end_variation
/// [`outcome`]: Visitor::outcome
/// [`end_game`]: Visitor::end_game
pub trait Visitor {
    /// What [`end_game`](Visitor::end_game) makes of a game.
    type Output;
    /// Why the visitor rejects a game; [`Infallible`] if it never does.
    type Error;

    /// A game starts.
    fn begin_game(&mut self) {}

    /// A tag pair: the name as written and the value between the quotes, escapes not undone.
    ///
    /// # Errors
    /// `Self::Error` to reject the game.
    fn tag(&mut self, name: &[u8], value: RawTag<'_>) -> Result<(), Self::Error> {
        let _ = (name, value);
        Ok(())
    }

    /// Every tag of the game is read (called before [`begin_movetext`](Visitor::begin_movetext)):
    /// a visitor that refuses a game for its tags as a whole, or for one tag but wants the
    /// others first (a variant it does not play), says so here.
    ///
    /// # Errors
    /// `Self::Error` to reject the game; the error points at the end of the tags.
    fn end_tags(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }

    /// The tags are over and the movetext starts. `Skip(true)` passes over the movetext.
    fn begin_movetext(&mut self) -> Skip {
        Skip(false)
    }

    /// A move, as written (the check mark kept, `!`/`?` marks reported to
    /// [`nag`](Visitor::nag) instead).
    ///
    /// # Errors
    /// `Self::Error` to reject the game.
    fn san(&mut self, san: SanPlus) -> Result<(), Self::Error> {
        let _ = san;
        Ok(())
    }

    /// A numeric annotation glyph `$n`, or a move suffix `!`, `?`, `!!`, `??`, `!?`, `?!` as
    /// its glyph (1 to 6).
    fn nag(&mut self, nag: Nag) {
        let _ = nag;
    }

    /// A comment: the bytes between `{` and `}`, or after `;` to the end of the line.
    fn comment(&mut self, comment: RawComment<'_>) {
        let _ = comment;
    }

    /// A variation starts, an alternative to the last move. `Skip(true)` passes over it.
    fn begin_variation(&mut self) -> Skip {
        Skip(false)
    }

    /// The variation ends.
    fn end_variation(&mut self) {}

    /// The game termination marker that ends the movetext.
    fn outcome(&mut self, result: GameResult) {
        let _ = result;
    }

    /// The game ends; its value is what the reader returns.
    fn end_game(&mut self) -> Self::Output;
}

/// A tag value as written between the quotes: bytes, with `\"` and `\\` escapes not undone.
///
/// ```
/// use chessbits_pgn::RawTag;
///
/// let tag = RawTag(b"say \\\"hi\\\" \\\\ caf\xe9");
/// assert_eq!(tag.unescape().as_ref(), b"say \"hi\" \\ caf\xe9");
/// assert_eq!(tag.decode(), "say \"hi\" \\ caf\u{e9}");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct RawTag<'a>(pub &'a [u8]);

impl<'a> RawTag<'a> {
    /// The bytes as written.
    pub const fn as_bytes(&self) -> &'a [u8] {
        self.0
    }

    /// The value with `\"` and `\\` undone (a backslash before any other byte is kept).
    pub fn unescape(&self) -> Cow<'a, [u8]> {
        if !self.0.contains(&b'\\') {
            return Cow::Borrowed(self.0);
        }
        let mut out = Vec::with_capacity(self.0.len());
        let mut bytes = self.0.iter().copied().peekable();
        while let Some(b) = bytes.next() {
            match (b, bytes.peek()) {
                (b'\\', Some(&next @ (b'"' | b'\\'))) => {
                    out.push(next);
                    bytes.next();
                }
                _ => out.push(b),
            }
        }
        Cow::Owned(out)
    }

    /// The unescaped value as text: UTF-8 if it is, else Latin-1 (each byte the code point of
    /// the same number), so no byte is lost.
    pub fn decode(&self) -> String {
        decode_lossy(&self.unescape()).into_owned()
    }
}

/// A comment as written: bytes, not decoded.
///
/// ```
/// use chessbits_pgn::{Clock, RawComment};
///
/// let comment = RawComment(b" [%clk 0:03:00] ");
/// assert_eq!(comment.clock(), Some(Clock::from_millis(180_000)));
/// assert_eq!(comment.eval(), None);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct RawComment<'a>(pub &'a [u8]);

impl<'a> RawComment<'a> {
    /// The bytes as written.
    pub const fn as_bytes(&self) -> &'a [u8] {
        self.0
    }

    /// The comment split into clock, evaluation and normalised text.
    pub fn parts(&self) -> CommentParts {
        split_comment(self.0)
    }

    /// The clock, the evaluation and whether other text is left, read without allocating.
    pub fn annotations(&self) -> CommentAnnotations {
        super::annotations::comment_annotations(self.0)
    }

    /// The last well-formed `[%clk ...]`, if any.
    pub fn clock(&self) -> Option<Clock> {
        super::annotations::commands(self.0)
            .filter(|c| c.name == b"clk")
            .filter_map(|c| Clock::from_ascii(c.args).ok())
            .last()
    }

    /// The last well-formed `[%eval ...]`, if any.
    pub fn eval(&self) -> Option<Eval> {
        super::annotations::commands(self.0)
            .filter(|c| c.name == b"eval")
            .filter_map(|c| Eval::from_ascii(c.args).ok())
            .last()
    }
}

/// The PGN result markers live with [`Outcome`](chessbits_movegen::Outcome), which converts to
/// them; re-exported here, where PGN reads and writes them.
#[doc(no_inline)]
pub use chessbits_movegen::{GameResult, InvalidResult};

/// Whether a `Variant` tag value names Chess960: `Chess960`, `chess 960`, `Fischerandom`,
/// `Fischer Random`, `FRC` (in any case; white space, `-` and `_` ignored).
///
/// ```
/// use chessbits_pgn::is_chess960_variant;
///
/// assert!(is_chess960_variant(b"fischerandom"));
/// assert!(is_chess960_variant(b"Chess 960"));
/// assert!(!is_chess960_variant(b"Standard"));
/// ```
pub fn is_chess960_variant(value: &[u8]) -> bool {
    variant_key(value).is_some_and(|(name, len)| is_chess960_key(&name[..len]))
}

/// Whether a [`variant_key`] names Chess960.
fn is_chess960_key(key: &[u8]) -> bool {
    matches!(key, b"chess960" | b"fischerandom" | b"fischerrandom" | b"frc" | b"960")
}

/// A `Variant` value as names are compared: lowercase, without white space, `-` and `_`;
/// `None` past 16 bytes (no name chessbits knows is that long).
fn variant_key(value: &[u8]) -> Option<([u8; 16], usize)> {
    let mut name = [0u8; 16];
    let mut len = 0;
    for &b in value {
        if b.is_ascii_whitespace() || matches!(b, b'-' | b'_') {
            continue;
        }
        *name.get_mut(len)? = b.to_ascii_lowercase();
        len += 1;
    }
    Some((name, len))
}

/// The rules a game's `Variant` tag names, among those chessbits plays: standard chess or
/// Chess960. [`Variant::from_tag`] refuses every other variant (lichess's Crazyhouse, Atomic,
/// Horde, Three-check, Antichess, King of the Hill, Racing Kings, and any name it does not
/// know), so that no such game passes as standard chess.
///
/// ```
/// use chessbits_pgn::Variant;
///
/// assert_eq!(Variant::from_tag(b"Standard"), Ok(Variant::Standard));
/// assert_eq!(Variant::from_tag(b"From Position"), Ok(Variant::Standard));
/// assert_eq!(Variant::from_tag(b"Chess960"), Ok(Variant::Chess960));
/// let err = Variant::from_tag(b"Crazyhouse").unwrap_err();
/// assert_eq!(err.to_string(), "variant \"Crazyhouse\" is not supported");
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Standard chess: `Standard`, `Chess`, `Classical`, `Normal`, `From Position` (lichess's
    /// name for a game from a set-up position), and an empty or `?` value.
    #[default]
    Standard,
    /// Chess960, in any of the spellings [`is_chess960_variant`] knows.
    Chess960,
}

impl Variant {
    /// The variant a `Variant` tag value names (compared without case, white space, `-` and
    /// `_`).
    ///
    /// # Errors
    /// [`UnsupportedVariant`] for any other value.
    pub fn from_tag(value: &[u8]) -> Result<Variant, UnsupportedVariant> {
        let key = variant_key(value);
        match key.as_ref().map(|(name, len)| &name[..*len]) {
            Some(
                b"" | b"?" | b"standard" | b"chess" | b"classical" | b"normal" | b"fromposition",
            ) => Ok(Variant::Standard),
            Some(key) if is_chess960_key(key) => Ok(Variant::Chess960),
            _ => Err(UnsupportedVariant(decode_lossy(value).into_owned())),
        }
    }
}

/// A `Variant` tag naming rules chessbits does not play (see [`Variant::from_tag`]): the value
/// as written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct UnsupportedVariant(pub String);

impl fmt::Display for UnsupportedVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "variant {:?} is not supported", self.0)
    }
}

impl std::error::Error for UnsupportedVariant {}

/// The start position a game's tags give: the `FEN` tag's position if there is one (whatever
/// `SetUp` says), else the standard one.
///
/// # Errors
/// [`FenError`] if the FEN is not valid or not a legal position.
pub fn start_position(fen: Option<&[u8]>) -> Result<Position, FenError> {
    match fen {
        Some(fen) => Ok(Fen::from_ascii(fen.trim_ascii())?.into_position()?),
        None => Ok(Position::new()),
    }
}

/// The legal move `san` names in `pos`, as the visitors of this module resolve moves: as SAN
/// ([`San::to_move`]), and if that finds no legal move and the text gives both squares (`g1f3`,
/// `e1g1`, `e7e8q`), as a UCI move, as engines sometimes write PGN movetext.
///
/// ```
/// use chessbits_pgn::resolve_san;
/// use chessbits_notation::san::San;
/// use chessbits_state::Position;
///
/// let pos = Position::new();
/// let m = resolve_san(&pos, &"g1f3".parse::<San>()?)?;
/// assert_eq!(m, resolve_san(&pos, &"Nf3".parse::<San>()?)?);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`SanError`] from the SAN reading if neither reading gives a legal move.
#[allow(clippy::result_large_err, reason = "SanError keeps its candidates on the stack")]
pub fn resolve_san(pos: &Position, san: &San) -> Result<Move16, SanError> {
    // Rebuild the small `Ok` rather than pass on the whole `Result`: `SanError` holds a move
    // list, and moving it would copy half a kilobyte per move.
    match san.to_move(pos) {
        Ok(m) => Ok(m),
        Err(error) => resolve_uci_fallback(pos, error),
    }
}

/// The second reading of [`resolve_san`]: a pawn move with both squares given, as UCI.
#[cold]
#[inline(never)]
#[allow(clippy::result_large_err, reason = "SanError keeps its candidates on the stack")]
fn resolve_uci_fallback(pos: &Position, error: SanError) -> Result<Move16, SanError> {
    let SanError::Illegal {
        san: san @ San::Normal { role: Role::Pawn, file, rank, to, promotion, .. },
    } = error
    else {
        return Err(error);
    };
    let (Some(file), Some(rank)) = (file, rank) else {
        return Err(SanError::Illegal { san });
    };
    let uci = UciMove::Normal { from: Square::from_coords(file, rank), to, promotion };
    pos.resolve_uci(uci).map_err(|_| SanError::Illegal { san })
}

/// A visitor that plays each game's mainline into a [`Game`], resolving every SAN against the
/// current position. The start position comes from the `FEN` tag, if any. Variations are
/// skipped.
///
/// ```
/// use chessbits_pgn::{GameResult, Replay, SliceReader};
///
/// let pgn = b"[FEN \"4k3/8/4K3/8/8/8/8/R7 w - - 0 1\"]\n\n1. Ra8# 1-0\n\n1. e4 e5 2. Ke3 *\n";
/// let mut reader = SliceReader::new(pgn);
/// let replayed = reader.read_game(&mut Replay::default()).unwrap()?;
/// assert_eq!(replayed.game.moves().len(), 1);
/// assert_eq!(replayed.result, Some(GameResult::WhiteWins));
///
/// let err = reader.read_game(&mut Replay::default()).unwrap().unwrap_err();
/// assert_eq!(err.to_string(), "game 2, line 5, column 13 (byte 65): ply 3 (Ke3): illegal move Ke3");
/// # Ok::<_, chessbits_pgn::PgnError<chessbits_pgn::ReplayError>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Replay {
    tags: StartTags,
    game: Option<Game>,
    result: Option<GameResult>,
    /// A game handed back by [`Replay::recycle`], whose memory the next game reuses.
    spare: Option<Game>,
}

/// What [`Replay`] makes of a game.
#[derive(Clone, Debug)]
pub struct ReplayedGame {
    /// The start position and the mainline.
    pub game: Game,
    /// Whether the `Variant` tag names Chess960 ([`is_chess960_variant`]).
    pub chess960: bool,
    /// The game termination marker, if the movetext has one.
    pub result: Option<GameResult>,
}

/// Why [`Replay`] rejects a game.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReplayError {
    /// The `FEN` tag is not a legal position.
    Fen(FenError),
    /// A move of the mainline is illegal or ambiguous.
    Move {
        /// The ply of the move, from 1 for the first move of the game.
        ply: u32,
        /// The move as written.
        san: SanPlus,
        /// Why it does not resolve.
        error: Box<SanError>,
    },
    /// The `Variant` tag names rules chessbits does not play.
    Variant(UnsupportedVariant),
    /// A null move (`--`) while in check: passing would leave a king to capture.
    NullMoveInCheck {
        /// The ply of the move, from 1.
        ply: u32,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Fen(err) => write!(f, "invalid FEN tag: {err}"),
            ReplayError::Move { ply, san, error } => write!(f, "ply {ply} ({san}): {error}"),
            ReplayError::Variant(err) => write!(f, "{err}"),
            ReplayError::NullMoveInCheck { ply } => write!(f, "ply {ply}: a null move in check"),
        }
    }
}

impl std::error::Error for ReplayError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReplayError::Fen(err) => Some(err),
            ReplayError::Move { error, .. } => Some(&**error),
            ReplayError::Variant(err) => Some(err),
            ReplayError::NullMoveInCheck { .. } => None,
        }
    }
}

/// What a game's tags say about where it starts, read as [`Replay`] reads them: the `FEN`
/// tag's position and whether the `Variant` tag names Chess960, or the variant it names that
/// is not played here. For a visitor that plays the mainline its own way, with [`play_san`]
/// (chessbits-cbg's `GameBuilder`, which keeps no undo records).
///
/// ```
/// use chessbits_pgn::{RawTag, StartTags};
///
/// let mut tags = StartTags::default();
/// tags.tag(b"Variant", RawTag(b"Chess960"))?;
/// tags.tag(b"FEN", RawTag(b"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"))?;
/// tags.end_tags()?;
/// assert!(tags.chess960());
/// assert_eq!(tags.start().fullmoves(), 9);
/// # Ok::<_, chessbits_pgn::ReplayError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct StartTags {
    start: Option<Position>,
    chess960: bool,
    /// A `Variant` tag naming a variant not played here: the game is refused once its tags
    /// are read ([`StartTags::end_tags`]), so that a visitor built on this one has them all.
    refused_variant: Option<ReplayError>,
}

impl StartTags {
    /// Reads one tag (only `FEN` and `Variant` matter).
    ///
    /// # Errors
    /// [`ReplayError::Fen`] for a `FEN` tag that is no legal position.
    pub fn tag(&mut self, name: &[u8], value: RawTag<'_>) -> Result<(), ReplayError> {
        match name {
            // The FEN of a variant game refused already is not read.
            b"FEN" if self.refused_variant.is_none() => {
                self.start =
                    Some(start_position(Some(&value.unescape())).map_err(ReplayError::Fen)?);
            }
            b"Variant" => match Variant::from_tag(&value.unescape()) {
                Ok(variant) => self.chess960 = variant == Variant::Chess960,
                Err(e) => self.refused_variant = Some(ReplayError::Variant(e)),
            },
            _ => {}
        }
        Ok(())
    }

    /// The tags are all read.
    ///
    /// # Errors
    /// [`ReplayError::Variant`] if a `Variant` tag names a variant not played here.
    pub fn end_tags(&mut self) -> Result<(), ReplayError> {
        self.refused_variant.take().map_or(Ok(()), Err)
    }

    /// The start position: the `FEN` tag's (else the standard one), in Chess960's castling
    /// mode when the `Variant` tag names it.
    pub fn start(&self) -> Position {
        with_variant(self.start.unwrap_or_default(), self.chess960)
    }

    /// Whether the `Variant` tag names Chess960 ([`is_chess960_variant`]).
    pub fn chess960(&self) -> bool {
        self.chess960
    }
}

/// Plays `san`, the game's move number `ply` (from 1), on `pos`, as [`Replay`] plays it:
/// resolved by [`resolve_san`], or a null move (`--`) where the side to move is not in check.
/// Returns the move played ([`Move16::NULL`] for a null move).
///
/// ```
/// use chessbits_pgn::play_san;
/// use chessbits_state::Position;
///
/// let mut pos = Position::new();
/// let m = play_san(&mut pos, "Nf3".parse()?, 1)?;
/// assert_eq!(m.to_string(), "g1f3");
/// assert!(play_san(&mut pos, "Ke3".parse()?, 2).is_err());
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`ReplayError::Move`] for a move that is illegal or ambiguous, [`ReplayError::NullMoveInCheck`]
/// for a null move in check; `pos` is then unchanged.
#[inline]
pub fn play_san(pos: &mut Position, san: SanPlus, ply: u32) -> Result<Move16, ReplayError> {
    if san.san == San::Null {
        return match pos.play_null() {
            Ok(_) => Ok(Move16::NULL),
            Err(_) => Err(ReplayError::NullMoveInCheck { ply }),
        };
    }
    let m = resolve_san(pos, &san.san).map_err(|error| ReplayError::Move {
        ply,
        san,
        error: Box::new(error),
    })?;
    // Resolution found it among the legal moves: no second test.
    pos.play_unchecked(m);
    Ok(m)
}

impl Replay {
    fn game(&mut self) -> &mut Game {
        // Built once per game, inside the closure: the start position is not free.
        let (tags, spare) = (&self.tags, &mut self.spare);
        self.game.get_or_insert_with(|| {
            let start = tags.start();
            match spare.take() {
                Some(mut game) => {
                    game.reset(start);
                    game
                }
                None => Game::new(start),
            }
        })
    }

    /// Hands back a game this replay made ([`ReplayedGame::game`]) once it is no longer
    /// needed: the next game reuses its memory instead of growing new lists move by move.
    pub fn recycle(&mut self, game: Game) {
        self.spare = Some(game);
    }

    /// The position after the moves of the current game played so far: `None` before its
    /// first move (the start position is made then, once the tags are known).
    pub fn position(&self) -> Option<&Position> {
        self.game.as_ref().map(Game::position)
    }
}

/// `start` in the castling mode of the game's `Variant` tag: Chess960 when it names Chess960,
/// so that the game's UCI text writes castling as king takes rook, else standard chess. A FEN
/// tag's Shredder letters for the standard rooks (`HAha`) are only notation, and leave a game
/// without that tag standard, as python-chess reads it; rights standard chess cannot have (a
/// king off e1/e8, a rook off the corners) keep the game Chess960 whatever its tags say.
pub(super) fn with_variant(mut start: Position, chess960: bool) -> Position {
    let mode = if chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard };
    // Chess960 is always allowed; Standard is refused only for rights that need Chess960.
    let _ = start.set_castling_mode(mode);
    start
}

impl Visitor for Replay {
    type Output = ReplayedGame;
    type Error = ReplayError;

    fn begin_game(&mut self) {
        let spare = self.spare.take().or_else(|| self.game.take());
        *self = Replay { spare, ..Replay::default() };
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>) -> Result<(), ReplayError> {
        self.tags.tag(name, value)
    }

    fn end_tags(&mut self) -> Result<(), ReplayError> {
        self.tags.end_tags()
    }

    fn begin_variation(&mut self) -> Skip {
        Skip(true)
    }

    fn san(&mut self, san: SanPlus) -> Result<(), ReplayError> {
        let game = self.game();
        let ply = game.moves().len() as u32 + 1;
        if san.san == San::Null {
            return game.play_null().map_err(|_| ReplayError::NullMoveInCheck { ply });
        }
        let m = resolve_san(game.position(), &san.san).map_err(|error| ReplayError::Move {
            ply,
            san,
            error: Box::new(error),
        })?;
        // Resolution found it among the legal moves: no second test.
        game.play_legal(m);
        Ok(())
    }

    fn outcome(&mut self, result: GameResult) {
        self.result = Some(result);
    }

    fn end_game(&mut self) -> ReplayedGame {
        self.game();
        ReplayedGame {
            game: self.game.take().unwrap_or_default(),
            chess960: self.tags.chess960(),
            result: self.result,
        }
    }
}

/// A visitor that reads nothing: with it a reader only finds where games are (and checks
/// their syntax).
#[derive(Copy, Clone, Debug, Default)]
pub struct SyntaxCheck;

impl Visitor for SyntaxCheck {
    type Output = ();
    type Error = Infallible;

    fn end_game(&mut self) {}
}

/// The visitor behind `skip_game`.
pub(crate) struct SkipGame;

impl Visitor for SkipGame {
    type Output = ();
    type Error = core::convert::Infallible;

    fn begin_movetext(&mut self) -> Skip {
        Skip(true)
    }

    fn end_game(&mut self) {}
}
