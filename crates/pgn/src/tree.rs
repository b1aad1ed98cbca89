//! [`PgnGame`]: a whole game in memory, tags and a tree of moves, built by [`TreeBuilder`].
//!
//! ```text
//! 1. e4 { good } (1. d4 d5) 1... e5 2. Nf3 *
//!
//! mainline: Variation { comments: [], moves: [
//!     Node { san: e4, comments: ["good"], variations: [
//!         Variation { moves: [Node d4, Node d5] },
//!     ] },
//!     Node { san: e5 },
//!     Node { san: Nf3 },
//! ] }
//! ```
//!
//! A variation is an alternative to the move it follows, so it hangs off that move's node
//! and starts from the position before it.

use core::fmt;

use chessbits_move::Move16;
use chessbits_movegen::MoveGen;
use chessbits_state::Position;

use super::annotations::{decode_lossy, normalize_space, split_comment, Clock, Eval, Nag};
use super::error::PgnError;
use super::reader::SliceReader;
use super::visitor::{
    is_chess960_variant, resolve_san, start_position, with_variant, GameResult, RawComment, RawTag,
    ReplayError, Skip, Variant, Visitor,
};
use chessbits_notation::san::{San, SanPlus};

/// The tag pairs of a game, in the order read.
///
/// ```
/// use chessbits_pgn::Tags;
///
/// let mut tags = Tags::default();
/// tags.insert("White", "Carlsen");
/// tags.insert("Event", "Blitz");
/// tags.insert("White", "Carlsen, Magnus");
/// assert_eq!(tags.get("White"), Some("Carlsen, Magnus"));
/// let order: Vec<&str> = tags.export_order().into_iter().map(|(name, _)| name).collect();
/// assert_eq!(order, ["Event", "Site", "Date", "Round", "White", "Black", "Result"]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tags(pub Vec<(String, String)>);

/// The Seven Tag Roster of the PGN standard, in its order, with the value written for a
/// missing tag (`Result` is written as the game's result instead).
pub const SEVEN_TAG_ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

impl Tags {
    /// The value of the first tag named `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Sets the first tag named `name` to `value`, or adds it at the end.
    pub fn insert(&mut self, name: &str, value: &str) {
        match self.0.iter_mut().find(|(n, _)| n == name) {
            Some((_, v)) => *v = value.to_string(),
            None => self.0.push((name.to_string(), value.to_string())),
        }
    }

    /// Whether the `Variant` tag names Chess960 ([`is_chess960_variant`]).
    pub fn is_chess960(&self) -> bool {
        self.get("Variant").is_some_and(|v| is_chess960_variant(v.as_bytes()))
    }

    /// The tags as the export format writes them: the Seven Tag Roster first, in its order,
    /// with `?`, `????.??.??` or `*` for those missing, then the others in the order read,
    /// among them a roster tag given again (its first value is the roster's): no value is
    /// dropped.
    pub fn export_order(&self) -> Vec<(&str, &str)> {
        let mut out: Vec<(&str, &str)> = SEVEN_TAG_ROSTER
            .iter()
            .map(|&(name, missing)| (name, self.get(name).unwrap_or(missing)))
            .collect();
        let mut written = [false; SEVEN_TAG_ROSTER.len()];
        for (name, value) in &self.0 {
            match SEVEN_TAG_ROSTER.iter().position(|&(roster, _)| roster == name) {
                Some(i) if !written[i] => written[i] = true,
                _ => out.push((name, value)),
            }
        }
        out
    }
}

/// A line of moves: the mainline, or a variation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Variation {
    /// Comments before the first move (the game's opening comment, for the mainline).
    pub comments: Vec<String>,
    /// The moves.
    pub moves: Vec<Node>,
}

/// A move and what annotates it.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// The move in SAN, as the writer writes it: recomputed from the move by the builder, with
    /// the right check mark, whatever the input said.
    pub san: SanPlus,
    /// The move ([`Move16::NULL`] for a null move).
    pub mv: Move16,
    /// Glyphs, in the order read.
    pub nags: Vec<Nag>,
    /// Comments after the move, without the `[%clk]` and `[%eval]` commands and with white
    /// space normalised (see [`CommentParts`](super::CommentParts)); empty ones are dropped.
    pub comments: Vec<String>,
    /// The `[%clk]` of the comments after the move.
    pub clock: Option<Clock>,
    /// The `[%eval]` of the comments after the move.
    pub eval: Option<Eval>,
    /// Alternatives to this move, each from the position before it.
    pub variations: Vec<Variation>,
}

/// A game: tags, start position, a tree of moves, result.
///
/// Build one by reading ([`read_games`], [`TreeBuilder`]) and write it with `Display`, in PGN
/// export format (see the [`pgn`](super) module docs).
///
/// ```
/// use chessbits_pgn::read_games;
///
/// let pgn = "[White \"A\"]\n\n1. e4 {best} (1. d4 d5 $1) 1... e5 2. Nf3 0-1\n";
/// let game = read_games(pgn.as_bytes()).next().unwrap()?;
/// assert_eq!(game.mainline.moves.len(), 3);
/// assert_eq!(game.mainline.moves[0].variations[0].moves.len(), 2);
/// assert_eq!(
///     game.to_string(),
///     "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"A\"]\n\
///      [Black \"?\"]\n[Result \"0-1\"]\n\n1. e4 { best } (1. d4 d5 $1) 1... e5 2. Nf3 0-1\n",
/// );
/// # Ok::<_, chessbits_pgn::PgnError<chessbits_pgn::ReplayError>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct PgnGame {
    /// The tags, in the order read.
    pub tags: Tags,
    /// The start position: the `FEN` tag's, or the standard one.
    pub start: Position,
    /// The mainline, with its variations.
    pub mainline: Variation,
    /// The result: the movetext's marker, else the `Result` tag's value if it is a marker,
    /// else `*`.
    pub result: GameResult,
}

impl Default for PgnGame {
    fn default() -> PgnGame {
        PgnGame {
            tags: Tags::default(),
            start: Position::new(),
            mainline: Variation::default(),
            result: GameResult::Unknown,
        }
    }
}

impl PgnGame {
    /// Whether the `Variant` tag names Chess960.
    pub fn is_chess960(&self) -> bool {
        self.tags.is_chess960()
    }

    /// The position after the mainline.
    pub fn end_position(&self) -> Position {
        let mut pos = self.start;
        for node in &self.mainline.moves {
            SanPlus::from_move_and_play(&mut pos, node.mv);
        }
        pos
    }
}

/// The games in `bytes`, as trees; broken games (and games whose moves do not resolve) are
/// errors, and reading goes on after them.
pub fn read_games(bytes: &[u8]) -> Games<'_> {
    Games { reader: SliceReader::new(bytes), builder: TreeBuilder::default() }
}

/// The iterator returned by [`read_games`].
#[derive(Debug)]
pub struct Games<'a> {
    reader: SliceReader<'a>,
    builder: TreeBuilder,
}

impl Iterator for Games<'_> {
    type Item = Result<PgnGame, PgnError<ReplayError>>;

    fn next(&mut self) -> Option<Self::Item> {
        self.reader.read_game(&mut self.builder)
    }
}

/// A line being built and the positions it needs.
#[derive(Clone, Debug)]
struct Frame {
    line: Variation,
    /// The position after the line's last move.
    pos: Position,
    /// The position before the line's last move (where its variations start).
    before: Position,
}

/// The visitor that builds [`PgnGame`]s, resolving every move of every variation.
///
/// - Moves are resolved with [`resolve_san`]; one that does not resolve rejects the game
///   ([`ReplayError::Move`]). Null moves are kept, except in check
///   ([`ReplayError::NullMoveInCheck`]), where passing would leave a king to capture.
/// - A comment after a move goes to that move ([`Node::comments`], with its `[%clk]` and
///   `[%eval]` read out); a comment before the first move of a line goes to the line
///   ([`Variation::comments`], as text).
/// - A glyph before the first move of a line, and a variation before the first move of the
///   mainline (with no move to be an alternative to), are dropped.
#[derive(Clone, Debug, Default)]
pub struct TreeBuilder {
    tags: Tags,
    start: Position,
    stack: Vec<Frame>,
    result: Option<GameResult>,
    /// A variant not played here, refused once every tag is read (as [`Replay`] does).
    refused_variant: Option<ReplayError>,
}

impl TreeBuilder {
    fn frame(&mut self) -> &mut Frame {
        if self.stack.is_empty() {
            let start = self.start;
            self.stack.push(Frame { line: Variation::default(), pos: start, before: start });
        }
        let last = self.stack.len() - 1;
        &mut self.stack[last]
    }

    /// Closes the innermost variation into its parent's last move.
    fn close(&mut self) {
        if self.stack.len() < 2 {
            return;
        }
        if let Some(done) = self.stack.pop() {
            if let Some(node) = self.frame().line.moves.last_mut() {
                node.variations.push(done.line);
            }
        }
    }
}

impl Visitor for TreeBuilder {
    type Output = PgnGame;
    type Error = ReplayError;

    fn begin_game(&mut self) {
        self.tags.0.clear();
        self.start = Position::new();
        self.stack.clear();
        self.result = None;
        self.refused_variant = None;
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>) -> Result<(), ReplayError> {
        let unescaped = value.unescape();
        // The FEN of a variant game refused already is not read.
        if name == b"FEN" && self.refused_variant.is_none() {
            self.start = start_position(Some(&unescaped)).map_err(ReplayError::Fen)?;
        } else if name == b"Variant" {
            if let Err(e) = Variant::from_tag(&unescaped) {
                self.refused_variant = Some(ReplayError::Variant(e));
            }
        }
        self.tags.0.push((decode_lossy(name).into_owned(), decode_lossy(&unescaped).into_owned()));
        Ok(())
    }

    fn end_tags(&mut self) -> Result<(), ReplayError> {
        self.refused_variant.take().map_or(Ok(()), Err)
    }

    fn begin_movetext(&mut self) -> Skip {
        self.start = with_variant(self.start, self.tags.is_chess960());
        self.frame();
        Skip(false)
    }

    fn san(&mut self, san: SanPlus) -> Result<(), ReplayError> {
        let start_ply = self.start.ply();
        let frame = self.frame();
        let ply = frame.pos.ply().saturating_sub(start_ply) + 1;
        if san.san == San::Null && frame.pos.is_check() {
            return Err(ReplayError::NullMoveInCheck { ply });
        }
        let mv = resolve_san(&frame.pos, &san.san).map_err(|error| ReplayError::Move {
            ply,
            san,
            error: Box::new(error),
        })?;
        frame.before = frame.pos;
        let san = SanPlus::from_move_and_play(&mut frame.pos, mv);
        frame.line.moves.push(Node {
            san,
            mv,
            nags: Vec::new(),
            comments: Vec::new(),
            clock: None,
            eval: None,
            variations: Vec::new(),
        });
        Ok(())
    }

    fn nag(&mut self, nag: Nag) {
        if let Some(node) = self.frame().line.moves.last_mut() {
            node.nags.push(nag);
        }
    }

    fn comment(&mut self, comment: RawComment<'_>) {
        let frame = self.frame();
        match frame.line.moves.last_mut() {
            Some(node) => {
                let parts = split_comment(comment.0);
                node.clock = parts.clock.or(node.clock);
                node.eval = parts.eval.or(node.eval);
                if !parts.text.is_empty() {
                    node.comments.push(parts.text);
                }
            }
            None => {
                let text = normalize_space(&decode_lossy(comment.0));
                if !text.is_empty() {
                    frame.line.comments.push(text);
                }
            }
        }
    }

    fn begin_variation(&mut self) -> Skip {
        let frame = self.frame();
        if frame.line.moves.is_empty() {
            return Skip(true);
        }
        let start = frame.before;
        self.stack.push(Frame { line: Variation::default(), pos: start, before: start });
        Skip(false)
    }

    fn end_variation(&mut self) {
        self.close();
    }

    fn outcome(&mut self, result: GameResult) {
        self.result = Some(result);
    }

    fn end_game(&mut self) -> PgnGame {
        while self.stack.len() > 1 {
            self.close();
        }
        let mainline = self.stack.pop().map(|frame| frame.line).unwrap_or_default();
        let tags = core::mem::take(&mut self.tags);
        let result = self
            .result
            .or_else(|| tags.get("Result").and_then(|r| r.parse().ok()))
            .unwrap_or(GameResult::Unknown);
        PgnGame { tags, start: self.start, mainline, result }
    }
}

impl fmt::Display for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.san)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tree as text: `<line comment>`, moves, `$n`, `{comment}`, `[clk ms]`, `[eval]`,
    /// `( variation )`.
    fn dump(line: &Variation) -> String {
        let mut out: Vec<String> = line.comments.iter().map(|c| format!("<{c}>")).collect();
        for node in &line.moves {
            out.push(node.san.to_string());
            out.extend(node.nags.iter().map(Nag::to_string));
            out.extend(node.comments.iter().map(|c| format!("{{{c}}}")));
            out.extend(node.clock.map(|c| format!("[clk {}]", c.millis())));
            out.extend(node.eval.map(|e| format!("[eval {e}]")));
            out.extend(node.variations.iter().map(|v| format!("( {} )", dump(v))));
        }
        out.join(" ")
    }

    fn check(pgn: &str, expected: &str) {
        let game = read_games(pgn.as_bytes()).next().unwrap().unwrap();
        assert_eq!(dump(&game.mainline), expected, "{pgn}");
    }

    #[test]
    fn trees() {
        let cases = [
            ("1. e4 e5 *", "e4 e5"),
            // Comments before the first move belong to the line, after a move to the move.
            ("{start}\n{again} 1. e4 {good} {very} e5 *", "<start> <again> e4 {good} {very} e5"),
            ("1. e4 ( {why not} 1. d4 {solid} ) e5 *", "e4 ( <why not> d4 {solid} ) e5"),
            // Clock and evaluation are read out of the comments; empty comments dropped.
            (
                "1. e4 {[%clk 0:03:00] good} e5 {[%eval #-2]} {} 2. Nf3 { [%clk 0:02:59] [%clk 0:02:58] } *",
                "e4 {good} [clk 180000] e5 [eval #-2] Nf3 [clk 178000]",
            ),
            // Glyphs follow their move; one before any move is dropped, as is a variation with
            // no move before it.
            ("$1 (1. d4) 1. e4 $1 $18 !? e5 *", "e4 $1 $18 $5 e5"),
            // Variations start from the position before the move they follow, at any depth.
            (
                "1. e4 e5 (1... c5 2. Nf3 (2. c3 d5) 2... d6) 2. Nf3 (2. f4 exf4) 2... Nc6 *",
                "e4 e5 ( c5 Nf3 ( c3 d5 ) d6 ) Nf3 ( f4 exf4 ) Nc6",
            ),
            // Null moves in variations.
            ("1. e4 (1. -- d5 2. -- e5) e5 *", "e4 ( -- d5 -- e5 ) e5"),
            // Moves are stored as they are written: canonical SAN, check marks as they are.
            ("1. Ng1-f3 d7d5 2. g3 Nb8c6 3. Bg2 e5 4. 0-0 Qd6+ *", "Nf3 d5 g3 Nc6 Bg2 e5 O-O Qd6"),
            ("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7 1-0", "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#"),
        ];
        for (pgn, expected) in cases {
            check(pgn, expected);
        }
    }

    #[test]
    fn results_tags_and_start() {
        let game = |pgn: &str| read_games(pgn.as_bytes()).next().unwrap().unwrap();
        let bytes = |pgn: &[u8]| read_games(pgn).next().unwrap().unwrap();
        assert_eq!(game("1. e4 0-1").result, GameResult::BlackWins);
        assert_eq!(game("[Result \"1-0\"]\n1. e4").result, GameResult::WhiteWins);
        assert_eq!(game("[Result \"1-0\"]\n1. e4 *").result, GameResult::Unknown);
        assert_eq!(game("[Result \"?\"]\n1. e4").result, GameResult::Unknown);
        let g = bytes(b"[White \"Andr\xe9\"] [Variant \"chess 960\"] [FEN \"1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1\"] 1. O-O *");
        assert_eq!(g.tags.get("White"), Some("Andr\u{e9}"));
        assert!(g.is_chess960());
        assert_eq!(g.start.fullmoves(), 1);
        assert_eq!(
            chessbits_notation::fen::fen_of(&g.end_position(), Default::default()),
            "1r4kr/8/8/8/8/8/8/1R3RK1 b kq - 1 1"
        );
    }

    #[test]
    fn null_moves_in_check_do_not_break_anything() {
        // A null move is refused when in check: it would leave a king to capture.
        let cases = [
            ("1. e4 f5 2. Qh5+ -- 3. Qxe8 *", false),
            ("1. f3 e5 2. g4 Qh4# -- Qxe1 *", false),
            ("1. e4 f5 2. Qh5+ (2. -- Nf6) *", true),
            ("1. e4 (1. d4 -- 2. -- -- 3. -- --) *", true),
        ];
        for (pgn, resolves) in cases {
            let games: Vec<_> = read_games(pgn.as_bytes()).collect();
            assert_eq!(games.len(), 1, "{pgn}");
            assert_eq!(games[0].is_ok(), resolves, "{pgn}");
            if let Ok(game) = &games[0] {
                assert!(game.to_string().contains("--"), "{pgn}");
            }
        }
    }

    #[test]
    fn broken_moves_reject_the_game() {
        let mut games = read_games(b"1. e4 (1. d4 Ke7) e5 *\n\n1. d4 *");
        let err = games.next().unwrap().unwrap_err();
        assert!(
            matches!(
                err.kind,
                super::super::PgnErrorKind::Visitor(ReplayError::Move { ply: 2, .. })
            ),
            "{err}"
        );
        assert_eq!(dump(&games.next().unwrap().unwrap().mainline), "d4");
    }
}
