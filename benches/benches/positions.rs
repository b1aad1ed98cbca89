//! The bit-level position formats on 1,000 positions of real games
//! (`testdata/positions/lichess-2021-10-sample.fen`): `packed` and `compact` encoding, and
//! decoding into a `Setup` (the bytes read) and into a `Position` (validated, Zobrist key
//! computed; `packed_decode_into` into one reused position). One iteration walks the whole
//! set, so the reported throughput is positions per second. `fen_parse` (FEN text to a `Position`) is the baseline to quote the others against:
//! on a shared machine only ratios within one run compare.

use std::hint::black_box;

use chessbits_codec::{compact, packed};
use chessbits_notation::fen::parse_position;
use chessbits_state::Position;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const POSITIONS: &str = include_str!("../../testdata/positions/lichess-2021-10-sample.fen");

fn positions(c: &mut Criterion) {
    let positions: Vec<Position> =
        POSITIONS.lines().map(|fen| parse_position(fen).expect("sample FEN")).collect();
    let packed: Vec<packed::Packed> = positions.iter().map(|p| packed::encode(p, false)).collect();
    let compact: Vec<compact::Compact> =
        positions.iter().map(|p| compact::encode(p, false)).collect();

    let mut group = c.benchmark_group("positions");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("fen_parse", |b| {
        b.iter(|| {
            let mut n = 0;
            for fen in black_box(POSITIONS).lines() {
                n += parse_position(fen).map_or(0, |p| p.key());
            }
            n
        })
    });
    group.bench_function("packed_encode", |b| {
        b.iter(|| {
            let mut n = 0;
            for pos in black_box(&positions) {
                n += packed::encode(pos, false).len();
            }
            n
        })
    });
    group.bench_function("packed_decode_setup", |b| {
        b.iter(|| {
            let mut n = 0;
            for bytes in black_box(&packed) {
                n += packed::decode_setup(bytes.as_bytes()).map_or(0, |s| s.halfmoves);
            }
            n
        })
    });
    group.bench_function("packed_decode", |b| {
        b.iter(|| {
            let mut n = 0;
            for bytes in black_box(&packed) {
                n += packed::decode(bytes.as_bytes()).map_or(0, |p| p.key());
            }
            n
        })
    });
    group.bench_function("packed_decode_into", |b| {
        let mut pos = Position::new();
        b.iter(|| {
            let mut n = 0;
            for bytes in black_box(&packed) {
                n += match packed::decode_into(bytes.as_bytes(), &mut pos) {
                    Ok(()) => pos.key(),
                    Err(_) => 0,
                };
            }
            n
        })
    });
    group.bench_function("compact_encode", |b| {
        b.iter(|| {
            let mut n = 0;
            for pos in black_box(&positions) {
                n += compact::encode(pos, false).len();
            }
            n
        })
    });
    group.bench_function("compact_decode_setup", |b| {
        b.iter(|| {
            let mut n = 0;
            for bytes in black_box(&compact) {
                n += compact::decode_setup(bytes.as_bytes()).map_or(0, |s| s.halfmoves);
            }
            n
        })
    });
    group.bench_function("compact_decode", |b| {
        b.iter(|| {
            let mut n = 0;
            for bytes in black_box(&compact) {
                n += compact::decode(bytes.as_bytes()).map_or(0, |p| p.key());
            }
            n
        })
    });
    group.finish();
}

criterion_group!(benches, positions);
criterion_main!(benches);
