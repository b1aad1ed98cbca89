//! Perft on the standard positions: bulk counting (`perft`) at a fixed depth per position, and
//! make/unmake at every node (`perft_make_unmake`) on startpos and kiwipete. Each depth is the one
//! whose time comes closest to 10-50 ms (5-50 ms for bulk, ~100 ms for make/unmake when they were
//! chosen). The depths are fixed so that results stay comparable run to run; node counts are
//! checked against the suite before timing.

use std::hint::black_box;

use chessbits_benches::EpdPosition;
use chessbits_movegen::{perft, perft_make_unmake};
use chessbits_state::Position;
use criterion::{
    criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput,
};

/// A perft function: `perft` or `perft_make_unmake`.
type Count = fn(&Position, u32) -> u64;

/// The bulk-counting depth of each standard position.
const BULK_DEPTHS: [(&str, u32); 7] = [
    ("startpos", 5),
    ("kiwipete", 4),
    ("position3", 6),
    ("position4", 5),
    ("position4-mirrored", 5),
    ("position5", 4),
    ("position6", 4),
];

/// The make/unmake depth of the positions it runs on.
const MAKE_UNMAKE_DEPTHS: [(&str, u32); 2] = [("startpos", 5), ("kiwipete", 4)];

fn bench(c: &mut Criterion, group_name: &str, depths: &[(&str, u32)], count: Count) {
    let standard = chessbits_benches::standard();
    let mut group = c.benchmark_group(group_name);
    // Each iteration takes milliseconds: flat sampling, as criterion advises for long benches.
    group.sampling_mode(SamplingMode::Flat).sample_size(20);
    for &(name, depth) in depths {
        let Some(p) = standard.iter().find(|p| p.name == name) else {
            panic!("no standard position named {name}");
        };
        let nodes = known_nodes(p, depth, count);
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(BenchmarkId::new(name, depth), &p.position, |b, pos| {
            b.iter(|| count(black_box(pos), depth))
        });
    }
    group.finish();
}

/// The node count at `depth`, checked against the suite when it gives one.
fn known_nodes(p: &EpdPosition, depth: u32, count: Count) -> u64 {
    let nodes = count(&p.position, depth);
    if let Some(known) = p.nodes(depth) {
        assert_eq!(nodes, known, "{} at depth {depth}", p.name);
    }
    nodes
}

fn perft_benches(c: &mut Criterion) {
    bench(c, "perft", &BULK_DEPTHS, perft);
    bench(c, "perft_make_unmake", &MAKE_UNMAKE_DEPTHS, perft_make_unmake);
}

criterion_group!(benches, perft_benches);
criterion_main!(benches);
