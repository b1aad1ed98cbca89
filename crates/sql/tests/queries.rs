//! The SQL functions over games exported with chessbits-arrow, against the same games read
//! by the library without the move codec: the moves of the PGN reader's `GameRecord`, replayed
//! on a `Game`.

use std::path::PathBuf;
use std::sync::OnceLock;

use chessbits_arrow::{ExportOptions, ParquetExporter};
use chessbits_cbg::{GameBuilder, GameRecord};
use chessbits_movegen::Game;
use chessbits_notation::fen::{fen_of, CastlingNotation, EnPassantMode, FenOptions};
use chessbits_notation::san::SanPlus;
use chessbits_pgn::SliceReader;
use chessbits_sql::datafusion::arrow::array::RecordBatch;
use chessbits_sql::datafusion::arrow::util::display::{ArrayFormatter, FormatOptions};
use chessbits_sql::{run_query, Table};
use chessbits_state::Position;

const SAMPLE: &[u8] = chessbits_testkit::LICHESS_SAMPLE;

/// Games from other starts: Chess960 games (castling as king takes rook), one from the
/// standard array, and a set-up position.
const OTHERS: &[u8] = b"[Variant \"Chess960\"]\n[FEN \"rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1\"]\n\n1. O-O-O O-O 2. h4 h5 *\n\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. e4 Kd7 2. e5 Ke6 3. Ke2 Kxe5 1/2-1/2\n\n[Variant \"Chess960\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n\n1. e4 e5 2. Nf3 Nf6 3. Bc4 Bc5 4. O-O O-O *\n";

const FEN: FenOptions =
    FenOptions { castling: CastlingNotation::XFen, en_passant: EnPassantMode::Legal };

fn records() -> &'static [GameRecord] {
    static GAMES: OnceLock<Vec<GameRecord>> = OnceLock::new();
    GAMES.get_or_init(|| {
        let mut games = Vec::new();
        let mut builder = GameBuilder::default();
        for pgn in [SAMPLE, OTHERS] {
            let mut reader = SliceReader::new(pgn);
            while let Some(game) = reader.read_game(&mut builder) {
                let mut game = game.expect("the test games read");
                game.number = games.len() as u64 + 1;
                games.push(game);
            }
        }
        games
    })
}

/// The games as a Parquet file, split in two files of one directory (written once).
fn table() -> Vec<Table> {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    let dir = DIR.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("chessbits-sql-games");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let games = records();
        let (a, b) = games.split_at(games.len() / 2);
        for (name, part) in [("a.parquet", a), ("b.parquet", b)] {
            let file = std::fs::File::create(dir.join(name)).unwrap();
            let options = ExportOptions { row_group_rows: 16, ..ExportOptions::default() };
            let mut exporter = ParquetExporter::new(file, &options).unwrap();
            for game in part {
                exporter.write_game(game).unwrap();
            }
            exporter.finish().unwrap();
        }
        dir
    });
    vec![Table { name: "games".into(), path: dir.clone() }]
}

/// The answer to `sql` as rows of text (NULL as `NULL`), on `threads` threads.
fn query_on(sql: &str, threads: usize) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    run_query(&table(), sql, threads, |batch: &RecordBatch| {
        let options = FormatOptions::default().with_null("NULL");
        let columns: Vec<_> = batch
            .columns()
            .iter()
            .map(|c| ArrayFormatter::try_new(c.as_ref(), &options))
            .collect::<Result<_, _>>()?;
        for row in 0..batch.num_rows() {
            rows.push(columns.iter().map(|c| c.value(row).to_string()).collect());
        }
        Ok(())
    })
    .unwrap_or_else(|e| panic!("{sql}: {e}"));
    rows
}

fn query(sql: &str) -> Vec<Vec<String>> {
    query_on(sql, 2)
}

/// The error of a query that must fail.
fn query_error(sql: &str) -> String {
    match run_query(&table(), sql, 1, |_| Ok(())) {
        Ok(_) => panic!("{sql} ran"),
        Err(e) => e.to_string(),
    }
}

/// Per game (by number), what the library says, one text per game.
fn expected(f: impl Fn(&GameRecord) -> String) -> Vec<Vec<String>> {
    records().iter().map(|g| vec![g.number.to_string(), f(g)]).collect()
}

/// Per game, `SELECT game, <expr> FROM games ORDER BY game`.
fn per_game(expr: &str) -> Vec<Vec<String>> {
    query(&format!("SELECT game, {expr} FROM games ORDER BY game"))
}

fn replayed(game: &GameRecord) -> Game {
    let mut replay = Game::new(game.start);
    for &m in &game.moves {
        replay.play(m).unwrap();
    }
    replay
}

#[test]
fn every_game_is_in_the_table() {
    let rows = query("SELECT count(*), sum(plies) FROM games");
    let plies: usize = records().iter().map(|g| g.moves.len()).sum();
    assert_eq!(rows, [[records().len().to_string(), plies.to_string()]]);
}

#[test]
fn uci_and_san_of_the_mainline() {
    let uci = |g: &GameRecord| {
        g.moves.iter().map(|&m| g.start.uci(m).to_string()).collect::<Vec<_>>().join(" ")
    };
    assert_eq!(per_game("chess_uci(moves, plies, start_fen)"), expected(uci));
    let san = |g: &GameRecord| {
        let mut pos = g.start;
        let sans: Vec<_> =
            g.moves.iter().map(|&m| SanPlus::from_move_and_play(&mut pos, m).to_string()).collect();
        sans.join(" ")
    };
    assert_eq!(per_game("chess_san(moves, plies, start_fen)"), expected(san));
    // The Chess960 game castles king-takes-rook.
    let chess960 =
        query("SELECT chess_uci(moves, plies, start_fen) FROM games WHERE start_fen LIKE 'rk5r%'");
    assert_eq!(chess960, [["b1a1 b8h8 h2h4 h7h5"]]);
    let standard_array = query(&format!(
        "SELECT chess_uci(moves, plies, start_fen) FROM games WHERE start_fen = '{}'",
        fen_of(&Position::new(), FEN)
    ));
    assert_eq!(standard_array, [["e2e4 e7e5 g1f3 g8f6 f1c4 f8c5 e1h1 e8h8"]]);
}

#[test]
fn positions_and_moves_by_ply() {
    let fen_at = |g: &GameRecord, ply: usize| {
        let mut pos = g.start;
        for &m in g.moves.iter().take(ply) {
            pos.play_unchecked(m);
        }
        fen_of(&pos, FEN)
    };
    assert_eq!(
        per_game("chess_fen_at(moves, plies, start_fen, plies)"),
        expected(|g| fen_of(replayed(g).position(), FEN))
    );
    assert_eq!(per_game("chess_fen_at(moves, plies, start_fen, 0)"), expected(|g| fen_at(g, 0)));
    // Ply 9 of every game, NULL for the games that are shorter.
    let at = |g: &GameRecord| {
        if g.moves.len() >= 9 {
            fen_at(g, 9)
        } else {
            "NULL".into()
        }
    };
    assert_eq!(per_game("chess_fen_at(moves, plies, start_fen, 9)"), expected(at));
    let move_at =
        |g: &GameRecord| g.moves.get(4).map_or("NULL".into(), |&m| g.start.uci(m).to_string());
    assert_eq!(per_game("chess_move_at(moves, plies, start_fen, 5)"), expected(move_at));
    assert_eq!(per_game("chess_move_at(moves, plies, start_fen, 0)"), expected(|_| "NULL".into()));
    assert_eq!(
        per_game("chess_move_at(moves, plies, start_fen, NULL)"),
        expected(|_| "NULL".into())
    );
}

#[test]
fn outcomes_by_rule() {
    let outcome = |g: &GameRecord| replayed(g).outcome().map_or("NULL".into(), |o| o.to_string());
    assert_eq!(per_game("chess_outcome(moves, plies, start_fen)"), expected(outcome));
    // The sample has checkmates: the test can fail.
    assert!(records().iter().any(|g| replayed(g).outcome().is_some()));
}

/// The position after `uci` from the start, as FEN.
fn fen_after(uci: &str) -> (String, u64) {
    let mut game = Game::default();
    for m in uci.split_whitespace() {
        game.play_uci(m.parse().unwrap()).unwrap();
    }
    (fen_of(game.position(), FEN), game.position().key())
}

#[test]
fn searching_a_position_and_the_moves_played_from_it() {
    for line in ["", "e2e4 e7e5", "d2d4 d7d5 c2c4", "e2e4 c7c5 g1f3 d7d6", "e2e4 e7e5 e1e2"] {
        let (fen, key) = fen_after(line);
        // From the library: games passing through the key, and the move after it.
        let mut reaching = 0;
        let mut replies = std::collections::BTreeMap::<String, u64>::new();
        for g in records() {
            let mut pos = g.start;
            let mut found = pos.key() == key;
            let mut next = None;
            for &m in &g.moves {
                if found {
                    next = Some(g.start.uci(m).to_string());
                    break;
                }
                pos.play_unchecked(m);
                found = pos.key() == key;
            }
            if found || next.is_some() {
                reaching += 1;
            }
            if let Some(next) = next {
                *replies.entry(next).or_default() += 1;
            }
        }
        let count = query(&format!(
            "SELECT count(*) FROM games WHERE chess_reaches(moves, plies, start_fen, '{fen}')"
        ));
        assert_eq!(count, [[reaching.to_string()]], "{line}");
        let rows = query(&format!(
            "SELECT reply, count(*) FROM (SELECT chess_next_move(moves, plies, start_fen, '{fen}') AS reply FROM games) \
             WHERE reply IS NOT NULL GROUP BY reply ORDER BY reply"
        ));
        let expected: Vec<Vec<String>> =
            replies.into_iter().map(|(m, n)| vec![m, n.to_string()]).collect();
        assert_eq!(rows, expected, "{line}");
    }
}

#[test]
fn position_keys_match_the_keys_column() {
    let (fen, key) = fen_after("e2e4");
    assert_eq!(query(&format!("SELECT chess_key('{fen}')")), [[(key as i64).to_string()]]);
    // The plain-SQL search over the first plies agrees with decoding.
    let (fen, _) = fen_after("e2e4 e7e5 g1f3");
    let by_keys =
        query(&format!("SELECT count(*) FROM games WHERE array_has(keys, chess_key('{fen}'))"));
    let by_moves = query(&format!(
        "SELECT count(*) FROM games WHERE chess_reaches(moves, plies, start_fen, '{fen}')"
    ));
    assert_eq!(by_keys, by_moves);
    assert_ne!(by_keys, [["0"]], "the sample has games with 1. e4 e5 2. Nf3");
}

#[test]
fn one_thread_gives_the_answers_of_two() {
    let sql = "SELECT chess_move_at(moves, plies, start_fen, 1) AS first, count(*) AS n FROM games GROUP BY 1 ORDER BY 2 DESC, 1";
    assert_eq!(query_on(sql, 1), query_on(sql, 2));
}

#[test]
fn mistakes_are_errors_naming_the_spot() {
    // Fewer plies than coded: bytes are left over. (More plies than coded are not an error:
    // the coder drops trailing zero bytes, so the same bytes also code the game continued by
    // the moves of the zero continuation. The ply count frames the game.)
    insta::assert_snapshot!(query_error(
        "SELECT chess_uci(moves, plies - 3, start_fen) FROM games WHERE game = 1"
    ), @"Execution error: chess_uci: row 0 of the batch: moves: ply 62 (byte 28): bytes follow the last move");
    insta::assert_snapshot!(query_error(
        "SELECT chess_uci(moves, -1, start_fen) FROM games WHERE game = 1"
    ), @"Execution error: chess_uci: row 0 of the batch: plies: -1 is not a number of plies");
    insta::assert_snapshot!(query_error(
        "SELECT chess_san(moves, plies, 'not a fen') FROM games WHERE game = 1"
    ), @"Execution error: chess_san: row 0 of the batch: start_fen: placement (byte 1): invalid character 'o', expected a piece letter, a digit 1..8 or '/'");
    insta::assert_snapshot!(query_error(
        "SELECT chess_reaches(moves, plies, start_fen, '8/8/8/8/8/8/8/8 w - - 0 1') FROM games"
    ), @"Execution error: chess_reaches: row 0 of the batch: fen: white has no king, black has no king");
    // Planning errors: DataFusion wraps ours in its own words; ours must be inside.
    let planning = [
        ("SELECT chess_uci(moves) FROM games", "chess_uci takes 3 arguments, got 1: call it as chess_uci(moves, plies, start_fen)"),
        ("SELECT chess_fen_at(moves, plies, start_fen, 'x') FROM games", "chess_fen_at: argument 4 (ply) cannot be Utf8: call it as chess_fen_at(moves, plies, start_fen, ply)"),
    ];
    for (sql, ours) in planning {
        let error = query_error(sql);
        assert!(error.contains(ours), "{sql}: {error}");
    }
    insta::assert_snapshot!(query_error(
        "SELECT chess_uci(CAST('abc' AS BYTEA), 3, NULL)"
    ), @"Execution error: chess_uci: row 0 of the batch: moves: ply 3 (byte 2): bytes follow the last move");
}

#[test]
fn nulls_give_nulls() {
    let rows = query(
        "SELECT chess_uci(NULL, 3, NULL), chess_reaches(moves, plies, start_fen, NULL), chess_key(NULL) FROM games WHERE game = 1",
    );
    assert_eq!(rows, [["NULL", "NULL", "NULL"]]);
}

#[test]
fn the_keys_column_is_what_chess_key_gives() {
    // Every key of the first plies of the first games, through SQL, against the library.
    let rows = query(
        "SELECT game, chess_key(chess_fen_at(moves, plies, start_fen, 3)), keys[3] FROM games WHERE plies >= 3 ORDER BY game LIMIT 20",
    );
    assert_eq!(rows.len(), 20);
    for row in rows {
        assert_eq!(row[1], row[2], "game {}", row[0]);
    }
}

/// The games above as two position indexes (shards), in the exported tables' directory's
/// sibling: `<tmp>/chessbits-sql-index/{a,b}.cbx`.
fn indexes() -> String {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    let dir = DIR.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("chessbits-sql-index");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let games = records();
        let (a, b) = games.split_at(games.len() / 2);
        for (name, part) in [("a.cbx", a), ("b.cbx", b)] {
            let mut builder = chessbits_index::IndexBuilder::new(Default::default());
            for game in part {
                builder.push(chessbits_index::PreparedGame::new(game, u32::MAX).unwrap()).unwrap();
            }
            let mut out = std::fs::File::create(dir.join(name)).unwrap();
            builder.finish(&mut out).unwrap();
        }
        dir
    });
    dir.join("*.cbx").display().to_string()
}

#[test]
fn explore_and_find_over_index_shards_equal_a_scan_of_the_table() {
    let cbx = indexes();
    // The moves played from the position after 1. e4 e5, from the indexes and from the games
    // by chess_next_move: the same counts.
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    let from_index = query(&format!(
        "SELECT uci, games FROM chess_explore('{cbx}', 'startpos e2e4 e7e5') ORDER BY uci"
    ));
    let from_games = query(&format!(
        "SELECT chess_next_move(moves, plies, start_fen, '{fen}') AS m, count(*) FROM games \
         WHERE chess_reaches(moves, plies, start_fen, '{fen}') GROUP BY 1 ORDER BY 1"
    ));
    assert!(from_index.len() > 3, "{from_index:?}");
    assert_eq!(from_index, from_games);
    // chess_find joined with the games on their number: the games that reach the position.
    let joined = query(&format!(
        "SELECT f.game, f.ply FROM chess_find('{cbx}', '{fen}') f JOIN games g ON g.game = f.game \
         ORDER BY f.game"
    ));
    let scanned = query(&format!(
        "SELECT game FROM games WHERE chess_reaches(moves, plies, start_fen, '{fen}') ORDER BY game"
    ));
    assert_eq!(
        joined.iter().map(|r| r[0].clone()).collect::<Vec<_>>(),
        scanned.iter().map(|r| r[0].clone()).collect::<Vec<_>>()
    );
    assert!(joined.iter().all(|r| r[1] == "2"));
    let limited = query(&format!("SELECT game FROM chess_find('{cbx}', 'startpos', 5)"));
    assert_eq!(limited.len(), 5);
    // Filters, as the tool's options: the same games as a scan that filters the table.
    let blitz = query(&format!(
        "SELECT game FROM chess_find('{cbx}', '{fen}', 'speed=blitz result=1-0') ORDER BY game"
    ));
    let blitz_scanned = query(&format!(
        "SELECT game FROM games WHERE chess_reaches(moves, plies, start_fen, '{fen}') \
         AND \"Result\" = '1-0' AND TRY_CAST(split_part(\"TimeControl\", '+', 1) AS INT) \
         + 40 * TRY_CAST(split_part(\"TimeControl\", '+', 2) AS INT) BETWEEN 180 AND 479 \
         ORDER BY game"
    ));
    assert!(!blitz.is_empty() && blitz.len() < joined.len(), "{blitz:?}");
    assert_eq!(blitz, blitz_scanned);
    let limited_blitz = query(&format!(
        "SELECT game FROM chess_find('{cbx}', '{fen}', 1, 'speed=blitz result=1-0')"
    ));
    assert_eq!(limited_blitz, blitz[..1]);
    let explored = query(&format!(
        "SELECT sum(games) FROM chess_explore('{cbx}', '{fen}', 'speed=blitz result=1-0')"
    ));
    assert_eq!(explored[0][0], blitz.len().to_string());
    assert!(query_error(&format!("SELECT * FROM chess_explore('{cbx}', 'startpos', 'colour=w')"))
        .contains("unknown filter"));
    assert!(query_error(&format!("SELECT * FROM chess_explore('{cbx}', 'startpos e2e5')"))
        .contains("chess_explore"));
    assert!(query_error("SELECT * FROM chess_find('/no/such/*.cbx', 'startpos')")
        .contains("chess_find: /no/such"));
}
