//! A game as `.cbg` stores it ([`GameRecord`]), apart from the container: the PGN visitor that
//! builds one ([`GameBuilder`]) and the way back to a PGN game tree ([`GameRecord::to_pgn`]).

use chessbits_move::Move16;
use chessbits_movegen::MoveGen;
use chessbits_notation::san::SanPlus;
use chessbits_pgn::{
    decode_lossy, play_san, Clock, Eval, GameResult, Nag, Node, PgnGame, RawComment, RawTag,
    ReplayError, Skip, StartTags, Tags, Variation, Visitor,
};
use chessbits_state::Position;

/// One game as `.cbg` stores it.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct GameRecord {
    /// The game's number in the input it was packed from (from 1, broken games counted), or 0
    /// if unknown: the writer then takes its place in the file.
    pub number: u64,
    /// The tags in the order read: names and unescaped values, as bytes.
    pub tags: Vec<(Vec<u8>, Vec<u8>)>,
    /// The start position (its castling mode says whether UCI castling is Chess960's).
    pub start: Position,
    /// The mainline.
    pub moves: Vec<Move16>,
    /// The clock after each move, if given (as long as `moves`).
    pub clocks: Vec<Option<Clock>>,
    /// The evaluation after each move, if given (as long as `moves`).
    pub evals: Vec<Option<Eval>>,
    /// The movetext's termination marker, if any.
    pub result: Option<GameResult>,
    /// The Polyglot key of the position after each move, as the reader that made the record
    /// played the moves ([`GameBuilder`] and the `.cbg` readers fill it, as long as `moves`):
    /// a record's users take the keys from here instead of playing the moves again. Not
    /// written to a file. A record built by hand may leave it empty (then the keys are found
    /// by playing the moves, checking each).
    pub keys: Vec<u64>,
}

impl Default for GameRecord {
    fn default() -> Self {
        GameRecord {
            number: 0,
            tags: Vec::new(),
            start: Position::new(),
            moves: Vec::new(),
            clocks: Vec::new(),
            evals: Vec::new(),
            result: None,
            keys: Vec::new(),
        }
    }
}

impl GameRecord {
    /// The value of the first tag named `name`.
    pub fn tag(&self, name: &str) -> Option<&[u8]> {
        self.tags.iter().find(|(n, _)| n == name.as_bytes()).map(|(_, v)| v.as_slice())
    }

    /// The game as a PGN tree, to write in the export format: the tags decoded (UTF-8, or
    /// Latin-1 if they are not), the mainline with its clocks and evaluations, and the result
    /// (the movetext's, else the `Result` tag's, else `*`), as [`TreeBuilder`] reads it.
    ///
    /// [`TreeBuilder`]: chessbits_pgn::TreeBuilder
    pub fn to_pgn(&self) -> PgnGame {
        let tags = Tags(
            self.tags
                .iter()
                .map(|(n, v)| (decode_lossy(n).into_owned(), decode_lossy(v).into_owned()))
                .collect(),
        );
        let mut pos = self.start;
        let mut moves = Vec::with_capacity(self.moves.len());
        for (i, &mv) in self.moves.iter().enumerate() {
            let san = SanPlus::from_move_and_play(&mut pos, mv);
            moves.push(Node {
                san,
                mv,
                nags: Vec::new(),
                comments: Vec::new(),
                clock: self.clocks.get(i).copied().flatten(),
                eval: self.evals.get(i).copied().flatten(),
                variations: Vec::new(),
            });
        }
        let result = self
            .result
            .or_else(|| tags.get("Result").and_then(|r| r.parse().ok()))
            .unwrap_or(GameResult::Unknown);
        PgnGame {
            tags,
            start: self.start,
            mainline: Variation { comments: Vec::new(), moves },
            result,
        }
    }

    /// The position after the mainline (after its last legal move, if one is not; a null
    /// move, which a record from [`GameBuilder`] may hold, passes the turn).
    pub fn end_position(&self) -> Position {
        let mut pos = self.start;
        for &m in &self.moves {
            let played = if m.is_null() { pos.play_null().is_ok() } else { pos.play(m).is_ok() };
            if !played {
                break;
            }
        }
        pos
    }
}

/// A [`Visitor`] that reads a PGN game into a [`GameRecord`]: the mainline as [`Replay`](chessbits_pgn::Replay)
/// plays it (the same games fail, with the same errors), the tags, and the last clock and
/// evaluation of the comments after each move. It counts what it drops: comment text, glyphs,
/// clocks and evaluations before the first move, and variations (each with all it holds).
#[derive(Clone, Debug, Default)]
pub struct GameBuilder {
    /// What the tags say about the start.
    start: StartTags,
    /// The position after the moves played so far: `None` before the first (the start
    /// position is made then, once the tags are known).
    position: Option<Position>,
    record: GameRecord,
    /// A record handed back by [`GameBuilder::recycle`], its lists empty: the next game's.
    spare: GameRecord,
    /// The tags of recycled records, emptied, for the next games' tags.
    spare_tags: Vec<(Vec<u8>, Vec<u8>)>,
    /// Comments with text (other than clocks and evaluations), comments before the first
    /// move, and glyphs, dropped so far (over all games read).
    pub dropped_comments: u64,
    /// Variations dropped so far (over all games read).
    pub dropped_variations: u64,
}

impl GameBuilder {
    /// Hands back a record this builder made, once it is no longer needed: the next games
    /// reuse its memory (tags, moves, clocks, evaluations) instead of allocating their own,
    /// which spares a reader of many games most of its allocations.
    ///
    /// ```
    /// use chessbits_cbg::GameBuilder;
    /// use chessbits_pgn::PgnReader;
    ///
    /// let pgn = "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. d4 *\n";
    /// let mut reader = PgnReader::new(pgn.as_bytes());
    /// let mut builder = GameBuilder::default();
    /// let mut plies = Vec::new();
    /// while let Some(game) = reader.read_game(&mut builder) {
    ///     let game = game?;
    ///     plies.push(game.moves.len());
    ///     builder.recycle(game);
    /// }
    /// assert_eq!(plies, [2, 1]);
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn recycle(&mut self, record: GameRecord) {
        let old = core::mem::replace(&mut self.spare, record);
        self.stash_tags(old);
    }

    /// The tags of the game last read, if it failed: all of them when it was refused for
    /// its tags as a whole (a variant not played here, [`Visitor::end_tags`]), else those
    /// read before the error. Empty after a game that read (its record holds them).
    ///
    /// ```
    /// use chessbits_cbg::GameBuilder;
    /// use chessbits_pgn::SliceReader;
    ///
    /// let pgn = b"[Variant \"Crazyhouse\"]\n[TimeControl \"180+0\"]\n\n1. e4 *\n";
    /// let mut builder = GameBuilder::default();
    /// let mut reader = SliceReader::new(pgn);
    /// assert!(reader.read_game(&mut builder).unwrap().is_err());
    /// let names: Vec<&[u8]> = builder.failed_tags().iter().map(|(n, _)| &n[..]).collect();
    /// assert_eq!(names, [&b"Variant"[..], b"TimeControl"]);
    /// ```
    pub fn failed_tags(&self) -> &[(Vec<u8>, Vec<u8>)] {
        &self.record.tags
    }

    /// Keeps the tag buffers of `record` for the next games' tags.
    fn stash_tags(&mut self, mut record: GameRecord) {
        self.spare_tags.append(&mut record.tags);
    }
}

impl Visitor for GameBuilder {
    type Output = GameRecord;
    type Error = ReplayError;

    fn begin_game(&mut self) {
        self.start = StartTags::default();
        self.position = None;
        // The record of the game before, if it failed (no `end_game` took it), else an empty
        // one; and the record last recycled, if any: the one with memory is reused.
        let left = core::mem::take(&mut self.record);
        let spare = core::mem::take(&mut self.spare);
        let mut record = if spare.moves.capacity() >= left.moves.capacity() {
            self.stash_tags(left);
            spare
        } else {
            self.stash_tags(spare);
            left
        };
        self.spare_tags.append(&mut record.tags);
        record.number = 0;
        record.start = Position::new();
        record.moves.clear();
        record.clocks.clear();
        record.evals.clear();
        record.keys.clear();
        record.result = None;
        self.record = record;
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>) -> Result<(), ReplayError> {
        let (mut n, mut v) = self.spare_tags.pop().unwrap_or_default();
        n.clear();
        n.extend_from_slice(name);
        v.clear();
        v.extend_from_slice(&value.unescape());
        self.record.tags.push((n, v));
        self.start.tag(name, value)
    }

    fn end_tags(&mut self) -> Result<(), ReplayError> {
        self.start.end_tags()
    }

    fn san(&mut self, san: SanPlus) -> Result<(), ReplayError> {
        // The mainline as `Replay` plays it, without a `Game`'s undo records and history,
        // which a record has no use for: the moves go straight into it.
        let start = &self.start;
        let pos = self.position.get_or_insert_with(|| start.start());
        let ply = self.record.moves.len() as u32 + 1;
        let m = play_san(pos, san, ply)?;
        // The clocks and evaluations grow only when a comment brings one (`comment`), and
        // `end_game` makes them as long as the moves: a game without comments writes no
        // placeholder per move.
        self.record.moves.push(m);
        // The key the position keeps up to date as it plays: a copy, no replay.
        self.record.keys.push(pos.key());
        Ok(())
    }

    fn nag(&mut self, _: Nag) {
        self.dropped_comments += 1;
    }

    fn comment(&mut self, comment: RawComment<'_>) {
        let parts = comment.annotations();
        let record = &mut self.record;
        let plies = record.moves.len();
        if plies == 0 {
            self.dropped_comments += 1;
            return;
        }
        if parts.clock.is_some() {
            record.clocks.resize(plies, None);
            if let Some(last) = record.clocks.last_mut() {
                *last = parts.clock;
            }
        }
        if parts.eval.is_some() {
            record.evals.resize(plies, None);
            if let Some(last) = record.evals.last_mut() {
                *last = parts.eval;
            }
        }
        if parts.has_text {
            self.dropped_comments += 1;
        }
    }

    fn begin_variation(&mut self) -> Skip {
        self.dropped_variations += 1;
        Skip(true)
    }

    fn outcome(&mut self, result: GameResult) {
        self.record.result = Some(result);
    }

    fn end_game(&mut self) -> GameRecord {
        let mut record = core::mem::take(&mut self.record);
        record.start = self.start.start();
        record.clocks.resize(record.moves.len(), None);
        record.evals.resize(record.moves.len(), None);
        record
    }
}
