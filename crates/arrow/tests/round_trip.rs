//! Export to Parquet, read back with the parquet crate's Arrow reader, and compare with the
//! PGN as the tree reader (a second path through the library) sees it.

use arrow_array::cast::AsArray;
use arrow_array::types::{Date32Type, Int32Type, Int64Type};
use arrow_array::{Array, RecordBatch};
use chessbits_arrow::{parse_date, ExportOptions, Keys, ParquetExporter};
use chessbits_cbg::{CbgReader, CbgWriter, GameBuilder, GameRecord};
use chessbits_codec::move_codec::{self, MoveCodec};
use chessbits_movegen::MoveGen;
use chessbits_pgn::{read_games, PgnGame, SliceReader};
use chessbits_state::Position;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

const SAMPLE: &[u8] = chessbits_testkit::LICHESS_SAMPLE;

fn records(pgn: &[u8]) -> Vec<GameRecord> {
    let mut reader = SliceReader::new(pgn);
    let mut builder = GameBuilder::default();
    let mut games = Vec::new();
    let mut number = 0;
    while let Some(game) = reader.read_game(&mut builder) {
        number += 1;
        let mut game = game.expect("the sample reads");
        game.number = number;
        games.push(game);
    }
    games
}

fn export(games: &[GameRecord], options: &ExportOptions) -> bytes::Bytes {
    let mut exporter = ParquetExporter::new(Vec::new(), options).unwrap();
    for game in games {
        exporter.write_game(game).unwrap();
    }
    let (bytes, stats) = exporter.finish().unwrap();
    assert_eq!(stats.games, games.len() as u64);
    bytes::Bytes::from(bytes)
}

/// Reads the file back: its batches and its number of row groups.
fn read(bytes: bytes::Bytes) -> (Vec<RecordBatch>, usize) {
    let builder = ParquetRecordBatchReaderBuilder::try_new(bytes).unwrap();
    let row_groups = builder.metadata().num_row_groups();
    let batches = builder.build().unwrap().collect::<Result<Vec<_>, _>>().unwrap();
    (batches, row_groups)
}

fn text(batch: &RecordBatch, column: &str, row: usize) -> Option<String> {
    let array = batch.column_by_name(column).unwrap().as_string::<i32>();
    array.is_valid(row).then(|| array.value(row).to_string())
}

fn int32(batch: &RecordBatch, column: &str, row: usize) -> Option<i32> {
    let array = batch.column_by_name(column).unwrap().as_primitive::<Int32Type>();
    array.is_valid(row).then(|| array.value(row))
}

fn int32_list(batch: &RecordBatch, column: &str, row: usize) -> Option<Vec<Option<i32>>> {
    let list = batch.column_by_name(column).unwrap().as_list::<i32>();
    list.is_valid(row)
        .then(|| list.value(row).as_primitive::<Int32Type>().iter().collect::<Vec<_>>())
}

/// Checks row `row` of `batch` against the tree reader's game.
fn check_row(batch: &RecordBatch, row: usize, number: u64, tree: &PgnGame, keys: Keys) {
    let game = batch.column_by_name("game").unwrap().as_primitive::<Int64Type>().value(row);
    assert_eq!(game, number as i64);
    for tag in ["Event", "Site", "White", "Black", "Result", "UTCTime", "ECO", "Opening"] {
        assert_eq!(text(batch, tag, row).as_deref(), tree.tags.get(tag), "game {number} {tag}");
    }
    let elo = tree.tags.get("WhiteElo").and_then(|e| e.parse().ok());
    assert_eq!(int32(batch, "WhiteElo", row), elo, "game {number}");
    let date = batch.column_by_name("UTCDate").unwrap().as_primitive::<Date32Type>();
    let expected = tree.tags.get("UTCDate").and_then(|d| parse_date(d.as_bytes()));
    assert_eq!(date.is_valid(row).then(|| date.value(row)), expected, "game {number}");

    // The mainline, decoded from the moves column.
    let moves: Vec<_> = tree.mainline.moves.iter().map(|node| node.mv).collect();
    assert_eq!(int32(batch, "plies", row), Some(moves.len() as i32));
    assert_eq!(text(batch, "start_fen", row), None, "game {number}: a standard start");
    let bytes = batch.column_by_name("moves").unwrap().as_binary::<i32>().value(row);
    let mut decoded = Vec::new();
    move_codec::decode(MoveCodec::Model, &Position::new(), moves.len(), bytes, &mut decoded)
        .unwrap();
    assert_eq!(decoded, moves, "game {number}");

    let clocks: Vec<_> =
        tree.mainline.moves.iter().map(|n| n.clock.map(|c| (c.millis() / 10) as i32)).collect();
    let clocks = clocks.iter().any(Option::is_some).then_some(clocks);
    assert_eq!(int32_list(batch, "clocks", row), clocks, "game {number}");

    // The keys, from positions played here.
    let mut pos = Position::new();
    let mut expected = Vec::new();
    for &m in &moves {
        pos.play(m).unwrap();
        expected.push(pos.key() as i64);
    }
    if let Keys::First(n) = keys {
        expected.truncate(n as usize);
    }
    let list = batch.column_by_name("keys").unwrap().as_list::<i32>();
    let got: Vec<i64> = list.value(row).as_primitive::<Int64Type>().values().to_vec();
    assert_eq!(got, expected, "game {number}");
}

fn check_file(bytes: bytes::Bytes, trees: &[PgnGame], keys: Keys) -> usize {
    let (batches, row_groups) = read(bytes);
    let mut number = 0;
    for batch in &batches {
        for row in 0..batch.num_rows() {
            let tree = trees.get(number).expect("no more rows than games");
            number += 1;
            check_row(batch, row, number as u64, tree, keys);
        }
    }
    assert_eq!(number, trees.len());
    row_groups
}

#[test]
fn pgn_round_trip() {
    let trees: Vec<PgnGame> = read_games(SAMPLE).map(Result::unwrap).collect();
    assert_eq!(trees.len(), 66);
    let games = records(SAMPLE);
    for keys in [Keys::First(40), Keys::All, Keys::First(0)] {
        // Batches and row groups that do not divide the games evenly.
        let options = ExportOptions { batch_games: 7, row_group_rows: 25, keys };
        let row_groups = check_file(export(&games, &options), &trees, keys);
        assert_eq!(row_groups, 3);
    }
}

#[test]
fn cbg_round_trip() {
    let trees: Vec<PgnGame> = read_games(SAMPLE).map(Result::unwrap).collect();
    let mut writer = CbgWriter::new(Vec::new(), MoveCodec::Model).unwrap();
    for game in records(SAMPLE) {
        writer.write_game(&game).unwrap();
    }
    let cbg = writer.finish().unwrap();
    let games: Vec<GameRecord> = CbgReader::new(&cbg[..]).unwrap().map(Result::unwrap).collect();
    let options = ExportOptions::default();
    assert_eq!(check_file(export(&games, &options), &trees, options.keys), 1);
}

#[test]
fn other_tags_and_start_positions() {
    let pgn = b"[Event \"?\"]\n[WhiteElo \"?\"]\n[UTCDate \"2021.02.30\"]\n[Annotator \"me\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. e4 { [%eval #3] } Kd7 { [%eval -0.5] } *\n";
    let games = records(pgn);
    let (batches, _) = read(export(&games, &ExportOptions::default()));
    let batch = &batches[0];
    assert_eq!(text(batch, "start_fen", 0).as_deref(), Some("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"));
    assert_eq!(int32(batch, "WhiteElo", 0), None);
    assert_eq!(text(batch, "Result", 0).as_deref(), Some("*"));
    assert_eq!(int32_list(batch, "evals", 0), Some(vec![Some(99_997), Some(-50)]));
    assert_eq!(int32_list(batch, "clocks", 0), None);
    let tags = batch.column_by_name("tags").unwrap().as_map();
    let entries = tags.value(0);
    let names = entries.column(0).as_string::<i32>();
    let values = entries.column(1).as_string::<i32>();
    let pairs: Vec<String> = names
        .iter()
        .zip(values.iter())
        .map(|(n, v)| format!("{}={}", n.unwrap(), v.unwrap()))
        .collect();
    insta::assert_snapshot!(pairs.join("\n"), @r"
    WhiteElo=?
    UTCDate=2021.02.30
    Annotator=me
    FEN=4k3/8/8/8/8/8/4P3/4K3 w - - 0 1
    SetUp=1
    ");
}

#[test]
fn schema_snapshot() {
    let schema = chessbits_arrow::schema();
    let lines: Vec<String> = schema
        .fields()
        .iter()
        .map(|f| {
            let null = if f.is_nullable() { "" } else { " not null" };
            format!("{} {}{null}", f.name(), f.data_type())
        })
        .collect();
    insta::assert_snapshot!(lines.join("\n"), @r#"
    game Int64 not null
    Event Utf8
    Site Utf8
    White Utf8
    Black Utf8
    Result Utf8
    UTCDate Date32
    UTCTime Utf8
    WhiteElo Int32
    BlackElo Int32
    ECO Utf8
    Opening Utf8
    TimeControl Utf8
    Termination Utf8
    tags Map("entries": non-null Struct("keys": non-null Utf8, "values": Utf8), unsorted) not null
    plies Int32 not null
    start_fen Utf8
    moves Binary not null
    clocks List(Int32)
    evals List(Int32)
    keys List(non-null Int64) not null
    error Utf8
    "#);
}

/// A game that did not read is a row: its number, its tags (a refused variant game keeps
/// every one, so that analyses of tags alone count it), no moves, and the message in
/// `error`; it counts as failed, not as a game, and the games around it keep their rows.
#[test]
fn a_game_that_did_not_read_keeps_its_number_and_tags() {
    let pgn = b"[White \"a\"]\n\n1. e4 e5 1-0\n\n[White \"b\"]\n[WhiteElo \"1834\"]\n[Result \"0-1\"]\n[TimeControl \"180+0\"]\n[Variant \"Atomic\"]\n\n1. e4 0-1\n\n1. d4 *\n";
    let mut reader = SliceReader::new(pgn);
    let mut builder = GameBuilder::default();
    let mut exporter = ParquetExporter::new(Vec::new(), &ExportOptions::default()).unwrap();
    let mut number = 0;
    while let Some(game) = reader.read_game(&mut builder) {
        number += 1;
        match game {
            Ok(mut game) => {
                game.number = number;
                exporter.write_game(&game).unwrap();
            }
            Err(e) => {
                let message = chessbits_arrow::games::pgn_failed_message(&e);
                exporter.write_failed(number, &message, builder.failed_tags()).unwrap();
            }
        }
    }
    let (bytes, stats) = exporter.finish().unwrap();
    assert_eq!((stats.games, stats.failed, stats.plies), (2, 1, 3));
    let (batches, _) = read(bytes::Bytes::from(bytes));
    let batch = &batches[0];
    assert_eq!(batch.num_rows(), 3);
    let games = batch.column_by_name("game").unwrap().as_primitive::<Int64Type>();
    assert_eq!(games.values().to_vec(), [1, 2, 3]);
    assert_eq!(text(batch, "error", 0), None);
    assert_eq!(text(batch, "error", 2), None);
    let error = text(batch, "error", 1).expect("the variant game's error");
    assert_eq!(error, r#"line 11, column 1 (byte 114): variant "Atomic" is not supported"#);
    assert_eq!(text(batch, "White", 1).as_deref(), Some("b"));
    assert_eq!(text(batch, "Result", 1).as_deref(), Some("0-1"));
    assert_eq!(text(batch, "TimeControl", 1).as_deref(), Some("180+0"));
    assert_eq!(int32(batch, "WhiteElo", 1), Some(1834));
    assert_eq!(int32(batch, "plies", 1), Some(0));
    let tags = batch.column_by_name("tags").unwrap().as_map();
    let other = tags.value(1);
    let names = other.column(0).as_string::<i32>();
    let values = other.column(1).as_string::<i32>();
    assert_eq!((names.value(0), values.value(0)), ("Variant", "Atomic"));
    let moves = batch.column_by_name("moves").unwrap().as_binary::<i32>();
    assert!(moves.value(1).is_empty());
    let keys = batch.column_by_name("keys").unwrap().as_list::<i32>();
    assert!(keys.value(1).is_empty() && keys.value(0).len() == 2);
    assert!(batch.column_by_name("clocks").unwrap().is_null(1));
}
