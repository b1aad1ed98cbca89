//! The index against a full replay of every game: for every position of every game (and of
//! random walks off them), `find` lists exactly the games a scan finds, with the same first
//! plies, and `explore` gives exactly the scan's counts, with and without filters, through the
//! key blocks and through the popular positions' aggregates; at every memory bound the same
//! bytes; two shards answer as one index of both; a damaged file is an error, never a panic.

use std::collections::BTreeMap;

use chessbits_cbg::{GameBuilder, GameRecord};
use chessbits_index::{
    BuildOptions, Filter, GameFacts, Index, IndexBuilder, IndexError, MoveStats, PreparedGame,
    Speed,
};
use chessbits_move::Move16;
use chessbits_movegen::MoveGen;
use chessbits_notation::fen::{fen_of, parse_position, EnPassantMode, FenOptions};
use chessbits_pgn::SliceReader;
use chessbits_state::Position;
use chessbits_testkit::Rng;

const SAMPLE: &[u8] = chessbits_testkit::LICHESS_SAMPLE;

/// The sample's games, then random games from the start and from Chess960 starts, numbered
/// in that order; and how many games failed to read.
fn games() -> Vec<GameRecord> {
    let mut reader = SliceReader::new(SAMPLE);
    let mut builder = GameBuilder::default();
    let mut games = Vec::new();
    while let Some(game) = reader.read_game(&mut builder) {
        if let Ok(mut game) = game {
            game.number = reader.games();
            games.push(game);
        }
    }
    let mut rng = Rng::new(0x1dec_0de5);
    let starts = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "nrbbqknr/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKNR w HBhb - 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    ];
    let tags: [&[(&str, &str)]; 5] = [
        &[
            ("White", "a"),
            ("Black", "b"),
            ("TimeControl", "180+0"),
            ("Date", "2021.10.02"),
            ("WhiteElo", "1500"),
            ("BlackElo", "1721"),
        ],
        &[
            ("White", "c"),
            ("TimeControl", "60+0"),
            ("Date", "2021.11.30"),
            ("WhiteElo", "2210"),
            ("BlackElo", "2390"),
        ],
        &[("Event", "e"), ("TimeControl", "-"), ("Date", "2020.??.??")],
        &[],
        // The result from the tag (whatever the marker says), the date from UTCDate.
        &[("Result", "0-1"), ("Date", "????.??.??"), ("UTCDate", "2013.02.11")],
    ];
    let number = games.last().map_or(0, |g| g.number);
    for i in 0..120 {
        let start = parse_position(starts[i % starts.len()]).unwrap();
        let mut game = GameRecord::default();
        game.number = number + 1 + i as u64;
        game.start = start;
        game.tags = tags[i % tags.len()]
            .iter()
            .map(|(n, v)| (n.as_bytes().to_vec(), v.as_bytes().to_vec()))
            .collect();
        game.result = match i % 5 {
            0 | 3 => Some(chessbits_movegen::GameResult::WhiteWins),
            1 => Some(chessbits_movegen::GameResult::BlackWins),
            2 => Some(chessbits_movegen::GameResult::Draw),
            _ => None,
        };
        let mut pos = start;
        // Short games from few moves: many transpositions and shared openings.
        for _ in 0..rng.below(14) {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.below(legal.len().min(if i % 2 == 0 { 3 } else { 40 }))];
            game.moves.push(m);
            pos.play_unchecked(m);
        }
        games.push(game);
    }
    // A game with null moves (PGN's `--`): the positions after them are indexed and found.
    let number = games.last().map_or(0, |g| g.number);
    let mut game = GameRecord::default();
    game.number = number + 1;
    let mut pos = game.start;
    for uci in ["e2e4", "0000", "d2d4", "e7e5", "0000", "d7d5"] {
        let m = if uci == "0000" {
            Move16::NULL
        } else {
            pos.resolve_uci(uci.parse().unwrap()).unwrap()
        };
        game.moves.push(m);
        play(&mut pos, m);
    }
    games.push(game);
    // One placement three ways: reached by a double push (en passant possible), and given
    // as a start without and with the en passant square.
    let number = games.last().map_or(0, |g| g.number);
    for (i, (fen, moves)) in [
        ("rnbqkbnr/pppppppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3", "d7d5 e5d6"),
        ("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 4", "g1f3"),
        ("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 4", "b1c3"),
    ]
    .into_iter()
    .enumerate()
    {
        games.push(from_start(number + 1 + i as u64, fen, moves));
    }
    // A placement the Polyglot key tells apart two ways where FEN writers do not: after a
    // double push beside a pinned pawn (`c7c5`: `b5xc6` would leave the king on a5 to the
    // rook; the key keeps c6, the FEN has none), and after a single push. Three games each,
    // so that with a low popular threshold both keys are aggregates. And the same with the
    // capture legal (king on a1): two positions both ways.
    let number = games.last().map_or(0, |g| g.number);
    for (i, fen) in [
        "4k3/2p5/8/KP5r/8/8/8/8 b - - 0 1",
        "4k3/8/2p5/KP5r/8/8/8/8 b - - 0 1",
        "4k3/2p5/8/KP5r/8/8/8/8 b - - 0 1",
        "4k3/8/2p5/KP5r/8/8/8/8 b - - 0 1",
        "4k3/2p5/8/KP5r/8/8/8/8 b - - 0 1",
        "4k3/8/2p5/KP5r/8/8/8/8 b - - 0 1",
        "4k3/2p5/8/1P5r/8/8/8/K7 b - - 0 1",
        "4k3/8/2p5/1P5r/8/8/8/K7 b - - 0 1",
    ]
    .into_iter()
    .enumerate()
    {
        let first = if fen.starts_with("4k3/2p5") { "c7c5" } else { "c6c5 a5a4 h5h4" };
        games.push(from_start(number + 1 + i as u64, fen, first));
    }
    games
}

/// Game `number` from `fen`, its moves the UCI `moves` up to the first that is not legal.
fn from_start(number: u64, fen: &str, moves: &str) -> GameRecord {
    let mut game = GameRecord::default();
    game.number = number;
    game.start = parse_position(fen).unwrap();
    let mut pos = game.start;
    for uci in moves.split(' ') {
        let Ok(m) = pos.resolve_uci(uci.parse().unwrap()) else { break };
        game.moves.push(m);
        pos.play_unchecked(m);
    }
    game
}

/// Plays `m`, a null move passing.
fn play(pos: &mut Position, m: Move16) {
    if m == Move16::NULL {
        pos.play_null_unchecked();
    } else {
        pos.play_unchecked(m);
    }
}

/// The position as FEN writers see it, written independently of the crate's comparison:
/// FEN's first four fields, the en passant square only where a capture is legal (python-chess
/// and lichess write it so; the index's Polyglot keys also keep a square a pinned pawn
/// stands beside, and a query must find those games too).
fn seen(pos: &Position) -> String {
    let options = FenOptions { en_passant: EnPassantMode::Legal, ..FenOptions::default() };
    let fen = fen_of(pos, options);
    fen.split(' ').take(4).collect::<Vec<_>>().join(" ")
}

fn build(games: &[GameRecord], options: BuildOptions) -> Vec<u8> {
    let max_ply = options.max_ply;
    let mut builder = IndexBuilder::new(options);
    for game in games {
        builder.push(PreparedGame::new(game, max_ply).unwrap()).unwrap();
    }
    let mut bytes = Vec::new();
    builder.finish(&mut bytes).unwrap();
    bytes
}

fn facts(game: &GameRecord) -> GameFacts {
    let tag = |name: &str| game.tag(name).unwrap_or(b"");
    let elo =
        |name: &str| std::str::from_utf8(tag(name)).ok().and_then(|v| v.parse().ok()).unwrap_or(0);
    // The export's rules: the Result tag over the marker; UTCDate when Date has no year.
    let result = match tag("Result") {
        b"1-0" => Some(chessbits_movegen::GameResult::WhiteWins),
        b"0-1" => Some(chessbits_movegen::GameResult::BlackWins),
        b"1/2-1/2" => Some(chessbits_movegen::GameResult::Draw),
        b"*" => Some(chessbits_movegen::GameResult::Unknown),
        _ => game.result,
    };
    let date = match chessbits_index::parse_date(tag("Date")) {
        0 => chessbits_index::parse_date(tag("UTCDate")),
        date => date,
    };
    GameFacts {
        result: GameFacts::result_code(result),
        speed: Speed::of_time_control(tag("TimeControl")) as u8,
        date,
        white_elo: elo("WhiteElo"),
        black_elo: elo("BlackElo"),
    }
}

/// The scan: each game's first ply (within `max_ply`) at `target`, and the move played next.
fn scan(
    games: &[GameRecord],
    target: &Position,
    max_ply: usize,
    filter: &Filter,
) -> Vec<(u64, u16, Option<u16>)> {
    let mut out = Vec::new();
    for game in games {
        if !filter.passes(&facts(game)) {
            continue;
        }
        let target = seen(target);
        let mut pos = game.start;
        for ply in 0..=game.moves.len().min(max_ply) {
            if seen(&pos) == target {
                out.push((game.number, ply as u16, game.moves.get(ply).map(|m| m.bits())));
                break;
            }
            if ply < game.moves.len() {
                play(&mut pos, game.moves[ply]);
            }
        }
    }
    out
}

/// The explorer's rows a scan gives.
/// An explorer row: move, games, White wins, draws, Black wins, average rating, last date.
type Row = (Option<u16>, u64, u64, u64, u64, Option<u32>, u32);

fn scan_explore(games: &[GameRecord], hits: &[(u64, u16, Option<u16>)]) -> Vec<Row> {
    let by_number: BTreeMap<u64, &GameRecord> = games.iter().map(|g| (g.number, g)).collect();
    let mut rows: BTreeMap<Option<u16>, [u64; 7]> = BTreeMap::new();
    for &(number, _, next) in hits {
        let f = facts(by_number[&number]);
        let row = rows.entry(next).or_default();
        row[0] += 1;
        match f.result {
            1 => row[1] += 1,
            3 => row[2] += 1,
            2 => row[3] += 1,
            _ => {}
        }
        if f.white_elo > 0 && f.black_elo > 0 {
            row[4] += 1;
            row[5] += u64::from(f.white_elo) + u64::from(f.black_elo);
        }
        row[6] = row[6].max(u64::from(f.date));
    }
    let mut rows: Vec<_> = rows
        .into_iter()
        .map(|(m, r)| {
            // The mean of the players' ratings, rounded to the nearest (a half up).
            let mean = (r[4] > 0).then(|| ((r[5] as f64 / (2 * r[4]) as f64) + 0.5).floor() as u32);
            (m, r[0], r[1], r[2], r[3], mean, r[6] as u32)
        })
        .collect();
    rows.sort_by_key(|r| (r.0.is_none(), std::cmp::Reverse(r.1), r.0));
    rows
}

fn explore_rows(stats: &[MoveStats]) -> Vec<Row> {
    let mut rows: Vec<_> = stats
        .iter()
        .map(|s| {
            (
                s.m.map(|m| m.bits()),
                s.games,
                s.white,
                s.draws,
                s.black,
                s.average_rating,
                s.last_date,
            )
        })
        .collect();
    rows.sort_by_key(|r| (r.0.is_none(), std::cmp::Reverse(r.1), r.0));
    rows
}

/// Every position of every game, and random walks of a few plies off some of them (positions
/// no game reaches, mostly).
fn queries(games: &[GameRecord]) -> Vec<Position> {
    let mut rng = Rng::new(7);
    let mut out = Vec::new();
    for game in games {
        let mut pos = game.start;
        out.push(pos);
        for &m in &game.moves {
            play(&mut pos, m);
            out.push(pos);
            if rng.below(20) == 0 {
                let mut off = pos;
                for _ in 0..1 + rng.below(3) {
                    let legal = off.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    off.play_unchecked(legal[rng.below(legal.len())]);
                }
                out.push(off);
            }
        }
    }
    out
}

fn check(index: &Index, games: &[GameRecord], max_ply: usize, filters: &[Filter]) -> usize {
    let mut checked = 0;
    for (i, q) in queries(games).iter().enumerate() {
        let filter = &filters[i % filters.len()];
        let expected = scan(games, q, max_ply, filter);
        let found = index.find(q, filter, None).unwrap();
        let got: Vec<_> = found.iter().map(|f| (f.game.number, f.ply)).collect();
        let want: Vec<_> = expected.iter().map(|e| (e.0, e.1)).collect();
        assert_eq!(got, want, "find, query {i}, {filter:?}");
        let limited = index.find(q, filter, Some(2)).unwrap();
        assert_eq!(limited.len(), want.len().min(2));
        assert_eq!(
            explore_rows(&index.explore(q, filter).unwrap()),
            scan_explore(games, &expected),
            "explore, query {i}"
        );
        checked += 1;
    }
    checked
}

fn filters() -> Vec<Filter> {
    vec![
        Filter::default(),
        Filter { results: vec![1, 3], ..Filter::default() },
        Filter { speeds: vec![Speed::Blitz, Speed::Bullet], ..Filter::default() },
        Filter { since: Some(202110), until: Some(202110), ..Filter::default() },
        Filter { min_rating: Some(1600), max_rating: Some(2300), ..Filter::default() },
    ]
}

#[test]
fn find_and_explore_equal_a_scan_through_blocks_and_aggregates() {
    let games = games();
    // A low popular threshold sends the openings' positions through the aggregates.
    for popular in [3, 1 << 20] {
        let index = Index::from_bytes(build(&games, BuildOptions::default().with_popular(popular)))
            .unwrap();
        assert_eq!(index.games(), games.len() as u64);
        let checked = check(&index, &games, usize::MAX, &filters());
        assert!(checked > 5_000, "{checked}");
    }
}

#[test]
fn max_ply_bounds_what_is_found() {
    let games = games();
    let index =
        Index::from_bytes(build(&games, BuildOptions::default().with_max_ply(6).with_popular(4)))
            .unwrap();
    check(&index, &games, 6, &[Filter::default()]);
}

/// The smallest bounds spill sorted runs and every section (games, moves, key blocks,
/// directory, popular data) to temporary files, with popular positions among them: the same
/// bytes as a build in memory, and no file left behind.
#[test]
fn every_memory_bound_writes_the_same_bytes() {
    let games = games();
    let options = || BuildOptions::default().with_popular(5);
    let whole = build(&games, options());
    let dir = std::env::temp_dir().join(format!("chessbits-bounds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for memory in [16 << 10, 64 << 10] {
        let spilled = build(&games, options().with_memory(memory).with_temp_dir(dir.clone()));
        assert!(spilled == whole, "memory {memory}");
    }
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
    std::fs::remove_dir(&dir).unwrap();
}

#[test]
fn two_shards_answer_as_one_index() {
    let games = games();
    let (a, b) = games.split_at(games.len() / 2);
    let options = || BuildOptions::default().with_popular(6);
    let one = Index::from_bytes(build(&games, options())).unwrap();
    let shards = [
        Index::from_bytes(build(a, options())).unwrap(),
        Index::from_bytes(build(b, options())).unwrap(),
    ];
    for q in queries(&games).iter().step_by(7) {
        let whole: Vec<u64> =
            one.find(q, &Filter::default(), None).unwrap().iter().map(|f| f.game.number).collect();
        let split: Vec<u64> = shards
            .iter()
            .flat_map(|s| s.find(q, &Filter::default(), None).unwrap())
            .map(|f| f.game.number)
            .collect();
        assert_eq!(whole, split);
        let merged = chessbits_index::explore_shards(&shards, q, &Filter::default()).unwrap();
        assert_eq!(
            explore_rows(&merged),
            explore_rows(&one.explore(q, &Filter::default()).unwrap())
        );
    }
}

#[test]
fn damaged_files_are_errors_never_panics() {
    let games = games();
    let bytes = build(&games[..40], BuildOptions::default().with_popular(3));
    assert!(matches!(Index::from_bytes(b"not an index".to_vec()), Err(IndexError::NotAnIndex)));
    let mut version = bytes.clone();
    version[8] = 9;
    assert!(matches!(Index::from_bytes(version), Err(IndexError::Version(9))));
    for cut in [0, 8, 12, 100, bytes.len() / 2, bytes.len() - 1] {
        assert!(Index::from_bytes(bytes[..cut].to_vec()).is_err(), "cut at {cut}");
    }
    let mut rng = Rng::new(3);
    let start = Position::new();
    for _ in 0..300 {
        let mut damaged = bytes.clone();
        let at = rng.below(damaged.len() - 4);
        damaged[at] ^= 1 << rng.below(8);
        // The magic and the version are read first; any other byte is the checksums'. The
        // file is one region, the header's, checked on opening.
        assert!(bytes.len() < chessbits_index::REGION_LEN);
        match Index::from_bytes(damaged.clone()) {
            Err(IndexError::NotAnIndex) | Err(IndexError::Version(_)) => assert!(at < 12),
            Err(IndexError::Checksum { .. }) => {}
            other => panic!("byte {at}: {:?}", other.map(|i| i.games())),
        }
        // A forged file, its checksums made to match: queries answer or fail, never panic.
        assert!(chessbits_index::reseal(&mut damaged));
        if let Ok(index) = Index::from_bytes(damaged) {
            let _ = index.find(&start, &Filter::default(), None);
            let _ = index.explore(&start, &Filter::default());
            for g in games[..5].iter() {
                let mut pos = g.start;
                for &m in g.moves.iter().take(8) {
                    play(&mut pos, m);
                }
                let _ = index.find(&pos, &Filter::default(), Some(3));
                let _ = index.explore(&pos, &Filter::default());
            }
        }
    }
}

/// An index of several 64 KiB regions, one byte flipped in each region in turn: it opens
/// unless the byte is in the header's region, and every query gives the intact index's
/// answer or the checksum error of the damaged region, never another answer; `verify` finds
/// the region. A memory-mapped file answers as the same bytes in memory.
#[test]
fn a_damaged_region_fails_the_queries_that_read_it_and_no_other_answer_changes() {
    let games = games();
    let options = || BuildOptions::default().with_popular(4);
    let mut many = Vec::new();
    // Copies of the games, numbered on, until the file spans several regions.
    let mut bytes = Vec::new();
    while bytes.len() < 3 * chessbits_index::REGION_LEN {
        let offset = many.len() as u64;
        many.extend(games.iter().cloned().map(|mut g| {
            g.number += offset;
            g
        }));
        bytes = build(&many, options());
    }
    let intact = Index::from_bytes(bytes.clone()).unwrap();
    intact.verify().unwrap();
    let queries: Vec<Position> = games
        .iter()
        .take(40)
        .flat_map(|g| {
            let mut pos = g.start;
            let mut seen = vec![pos];
            for &m in g.moves.iter().take(12) {
                play(&mut pos, m);
                seen.push(pos);
            }
            seen
        })
        .collect();
    let answers = |index: &Index| -> Vec<Result<String, String>> {
        queries
            .iter()
            .map(|q| {
                let found =
                    index.find(q, &Filter::default(), Some(5)).map_err(|e| e.to_string())?;
                let rows = index.explore(q, &Filter::default()).map_err(|e| e.to_string())?;
                let found: Vec<_> = found.iter().map(|f| (f.game.number, f.ply)).collect();
                Ok(format!("{found:?} {:?}", explore_rows(&rows)))
            })
            .collect()
    };
    let expected = answers(&intact);
    assert!(expected.iter().all(Result::is_ok));
    let region_len = chessbits_index::REGION_LEN;
    // The body, then 4 bytes of checksum per region of it, then 4.
    let regions = (bytes.len() - 4).div_ceil(region_len + 4);
    let body = bytes.len() - 4 - 4 * regions;
    let mut rng = Rng::new(11);
    let mut failed_queries = 0;
    // A byte of each region, then of the table's entries (each fails its region), then of the
    // table's own checksum (only `verify` reads it).
    let mut flips: Vec<(usize, Option<usize>)> = (0..regions)
        .map(|r| (r * region_len + rng.below((body - r * region_len).min(region_len)), Some(r)))
        .collect();
    flips.extend((0..regions).map(|r| (body + 4 * r + rng.below(4), Some(r))));
    flips.push((bytes.len() - 1 - rng.below(4), None));
    for (at, region) in flips {
        let mut damaged = bytes.clone();
        damaged[at] ^= 0x10;
        let index = match Index::from_bytes(damaged) {
            Ok(index) => index,
            Err(IndexError::NotAnIndex | IndexError::Version(_)) => {
                assert!(at < 12);
                continue;
            }
            Err(IndexError::Checksum { byte: 0 }) => {
                assert_eq!(region, Some(0), "byte {at}");
                continue;
            }
            Err(e) => panic!("byte {at}: {e}"),
        };
        let start = region.map_or(body, |r| r * region_len) as u64;
        let message = IndexError::Checksum { byte: start }.to_string();
        for (got, want) in answers(&index).iter().zip(&expected) {
            match got {
                Err(e) => {
                    assert_eq!(e, &message, "byte {at}");
                    failed_queries += 1;
                }
                Ok(_) => assert_eq!(got, want, "byte {at}"),
            }
        }
        // `verify` checks the table's own checksum first.
        let first = if at >= body { body as u64 } else { start };
        let verified = index.verify();
        assert!(
            matches!(verified, Err(IndexError::Checksum { byte }) if byte == first),
            "byte {at}: {verified:?}"
        );
    }
    assert!(failed_queries > 0, "no query read a damaged region");
    // The same file memory-mapped.
    let path = std::env::temp_dir().join(format!("chessbits-regions-{}.cbx", std::process::id()));
    std::fs::write(&path, &bytes).unwrap();
    let mapped = Index::open(&path).unwrap();
    assert!(mapped.is_mapped() && !intact.is_mapped());
    assert_eq!(answers(&mapped), expected);
    mapped.verify().unwrap();
    drop(mapped);
    std::fs::remove_file(&path).unwrap();
}

/// `record_of` finds each game by its number, and `mainline` gives back its start and every
/// move, as the input had them (the viewer of `chessbits serve` steps through these).
#[test]
fn games_are_found_by_number_and_their_mainlines_come_back_whole() {
    let games = games();
    let index = Index::from_bytes(build(&games, BuildOptions::default())).unwrap();
    assert_eq!(index.games(), games.len() as u64);
    for (record, game) in games.iter().enumerate() {
        let record = record as u32;
        assert_eq!(index.record_of(game.number).unwrap(), Some(record));
        let (start, moves) = index.mainline(record).unwrap();
        assert_eq!(start, game.start);
        assert_eq!(moves, game.moves, "game {}", game.number);
    }
    let last = games.last().map_or(0, |g| g.number);
    assert_eq!(index.record_of(last + 1).unwrap(), None);
    assert_eq!(index.record_of(0).unwrap(), None);
    assert!(index.mainline(games.len() as u32).is_err());
}
