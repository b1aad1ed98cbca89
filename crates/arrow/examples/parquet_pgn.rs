//! Times lichess Parquet decoding, arrow-rs batches alone and `ParquetPgn`'s PGN text:
//! `cargo run --profile query -p chessbits-arrow --example parquet_pgn -- FILE.parquet...`
//! (best of 30 in one process; `crates/python/bench/parquet.py` times the whole read).
use std::io::Read;
use std::time::Instant;

use chessbits_arrow::lichess::ParquetPgn;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

fn best(mut f: impl FnMut() -> usize) -> (f64, usize) {
    let mut best = f64::MAX;
    let mut n = 0;
    for _ in 0..30 {
        let t = Instant::now();
        n = f();
        best = best.min(t.elapsed().as_secs_f64());
    }
    (best * 1e3, n)
}

fn main() {
    for path in std::env::args().skip(1) {
        let bytes = bytes::Bytes::from(std::fs::read(&path).unwrap());
        let decode = best(|| {
            let r = ParquetRecordBatchReaderBuilder::try_new(bytes.clone())
                .unwrap()
                .with_batch_size(128)
                .build()
                .unwrap();
            r.map(|b| b.unwrap().num_rows()).sum()
        });
        let mut buf = vec![0u8; 256 << 10];
        let text = best(|| {
            let mut pgn = ParquetPgn::new(bytes.clone()).unwrap();
            let mut total = 0;
            loop {
                let n = pgn.read(&mut buf).unwrap();
                if n == 0 {
                    break total;
                }
                total += n;
            }
        });
        println!(
            "{path}: decode {:.2} ms ({} rows), pgn {:.2} ms ({} bytes)",
            decode.0, decode.1, text.0, text.1
        );
    }
}
