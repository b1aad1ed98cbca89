//! The move codecs of `chessbits_codec::move_codec` on the 66 lichess games of
//! `testdata/games/lichess-2021-10-sample.pgn` (5,000-odd plies): encoding and decoding whole
//! mainlines with the fitted model and with the plain index codec, and the model's features
//! alone (the pieces' and the played piece's moves'). Throughput is in plies.
//!
//! Run with `nice cargo bench -p chessbits-benches --bench move_codec -- --measurement-time 3`.

use std::hint::black_box;

use chessbits_codec::move_codec::{self, MoveCodec};
use chessbits_codec::move_model::{FeaturedMoves, MoveModel, RecentMoves};
use chessbits_move::Move16;
use chessbits_pgn::{Replay, SliceReader};
use chessbits_state::Position;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const GAMES: &[u8] = include_bytes!("../../testdata/games/lichess-2021-10-sample.pgn");

fn games() -> Vec<(Position, Vec<Move16>)> {
    let mut reader = SliceReader::new(GAMES);
    let mut games = Vec::new();
    while let Some(result) = reader.read_game(&mut Replay::default()) {
        let replayed = result.expect("the sample games read");
        games.push((*replayed.game.start(), replayed.game.moves().to_vec()));
    }
    games
}

fn codecs(c: &mut Criterion) {
    let games = games();
    let plies: usize = games.iter().map(|g| g.1.len()).sum();
    let mut group = c.benchmark_group("move_codec");
    group.throughput(Throughput::Elements(plies as u64));
    for codec in [MoveCodec::Model, MoveCodec::Index] {
        let coded: Vec<Vec<u8>> = games
            .iter()
            .map(|(start, moves)| {
                let mut out = Vec::new();
                move_codec::encode(codec, start, moves, &mut out).expect("legal moves");
                out
            })
            .collect();
        group.bench_function(format!("{codec}/encode"), |b| {
            let mut out = Vec::new();
            b.iter(|| {
                for (start, moves) in black_box(&games) {
                    out.clear();
                    move_codec::encode(codec, start, moves, &mut out).expect("legal moves");
                }
                out.len()
            })
        });
        group.bench_function(format!("{codec}/decode"), |b| {
            let mut moves = Vec::new();
            b.iter(|| {
                for ((start, game), bytes) in black_box(&games).iter().zip(&coded) {
                    move_codec::decode(codec, start, game.len(), bytes, &mut moves)
                        .expect("decodes");
                }
                moves.len()
            })
        });
    }
    let model = MoveModel::FITTED;
    group.bench_function("model/features", |b| {
        let mut candidates = FeaturedMoves::new();
        b.iter(|| {
            let mut n = 0;
            for (start, moves) in black_box(&games) {
                let mut pos = *start;
                let mut history = RecentMoves::new();
                for &m in moves {
                    let analysis = model.analyse(&pos, &history);
                    candidates.clear();
                    analysis.pieces(&mut candidates);
                    if let Some(piece) = analysis.piece_on(m.from()) {
                        analysis.moves(piece, &mut candidates);
                    }
                    n += candidates.len();
                    pos.play_unchecked(m);
                    history.push(m);
                }
            }
            n
        })
    });
    group.finish();
}

criterion_group!(benches, codecs);
criterion_main!(benches);
