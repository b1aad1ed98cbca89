//! Legal move generation on the fixed ~50 positions of [`chessbits_benches::movegen_set`]: the
//! full list (`legal_moves`) and the bulk count (`count_legal_moves`). One iteration walks the
//! whole set, so the reported throughput is positions per second.

use std::hint::black_box;

use chessbits_movegen::MoveGen;
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
    group.finish();
}

criterion_group!(benches, movegen);
criterion_main!(benches);
