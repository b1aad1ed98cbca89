//! Legal move generation on the fixed ~50 positions of [`chessbits_benches::movegen_set`]: the
//! full list (`legal_moves`), the bulk count (`count_legal_moves`), and the search lists: one
//! `generate_split` pass (tactical and quiet lists at once) against separate `captures()` and
//! `quiets()` calls. One iteration walks the whole set, so the reported throughput is positions
//! per second.

use std::hint::black_box;

use chessbits_move::MoveList;
use chessbits_movegen::{generate_split, MoveGen};
use chessbits_state::Position;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn movegen(c: &mut Criterion) {
    let positions: Vec<Position> =
        chessbits_benches::movegen_set().into_iter().map(|p| p.position).collect();
    let mut group = c.benchmark_group("movegen");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("legal_moves", |b| {
        b.iter(|| {
            let mut n = 0;
            for pos in black_box(&positions) {
                n += black_box(pos.legal_moves()).len();
            }
            n
        })
    });
    group.bench_function("count_legal_moves", |b| {
        b.iter(|| {
            let mut n = 0;
            for pos in black_box(&positions) {
                n += pos.count_legal_moves();
            }
            n
        })
    });
    group.bench_function("generate_split", |b| {
        let (mut tactical, mut quiet) = (MoveList::new(), MoveList::new());
        b.iter(|| {
            let mut n = 0;
            for pos in black_box(&positions) {
                generate_split(pos, &mut tactical, &mut quiet);
                n += black_box(&tactical).len() + black_box(&quiet).len();
            }
            n
        })
    });
    group.bench_function("captures+quiets", |b| {
        b.iter(|| {
            let mut n = 0;
            for pos in black_box(&positions) {
                n += black_box(pos.captures()).len() + black_box(pos.quiets()).len();
            }
            n
        })
    });
    group.finish();
}

criterion_group!(benches, movegen);
criterion_main!(benches);
