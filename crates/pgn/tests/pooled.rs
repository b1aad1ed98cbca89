//! `par_chunks_pooled`: the pipeline on the process's pool of threads kept between calls.
//! Its results are one reader's, call after call and from several threads at once; the
//! pool does not grow from call to call; a sink's error and a worker's panic end a call as
//! they end `par_chunks`, and the pool serves the next.

use std::io::{self, Cursor};

use chessbits_pgn::{par_chunks_pooled, Parallel, PgnReader, Replay};

/// A game as text: its number and final position, or its error with where it is.
fn describe(
    number: u64,
    result: Result<
        chessbits_pgn::ReplayedGame,
        chessbits_pgn::PgnError<chessbits_pgn::ReplayError>,
    >,
) -> String {
    match result {
        Ok(r) => {
            format!("{number} ok {} {:016x}", r.game.moves().len(), r.game.position().compute_key())
        }
        Err(e) => format!("{number} {e}"),
    }
}

fn serial(bytes: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    let mut reader = PgnReader::new(bytes);
    while let Some(result) = reader.read_game(&mut Replay::default()) {
        out.push(describe(reader.games(), result));
    }
    out
}

fn pooled(bytes: &[u8], options: &Parallel) -> Vec<String> {
    let mut out = Vec::new();
    par_chunks_pooled(
        Cursor::new(bytes.to_vec()),
        options,
        |reader| {
            let mut games = Vec::new();
            while let Some(result) = reader.read_game(&mut Replay::default()) {
                games.push((reader.games(), result));
            }
            games
        },
        |before, games| {
            for (n, game) in games {
                let game = game.map_err(|mut e| {
                    e.game += before;
                    e
                });
                out.push(describe(before + n, game));
            }
            Ok::<_, io::Error>(())
        },
    )
    .unwrap();
    out
}

/// The lichess sample and games with comments that hold blank lines and tag lines (every
/// guessed cut inside them wrong), with every fifth game broken.
fn input() -> Vec<u8> {
    let mut bytes = chessbits_testkit::LICHESS_SAMPLE.to_vec();
    for n in 0..300 {
        let second = if n % 5 == 0 { "Ke5" } else { "e5" };
        bytes.extend_from_slice(
            format!("[Event \"g{n}\"]\n\n1. e4 {{ a\n\n[not a tag {n}]\n }} {second} 2. Nf3 1-0")
                .as_bytes(),
        );
    }
    bytes
}

#[test]
fn pooled_calls_read_as_one_reader_does() {
    let bytes = input();
    let expected = serial(&bytes);
    for round in 0..3 {
        for threads in [1, 2, 3] {
            for guess in [true, false] {
                for chunk_size in [1_000, 16 << 10] {
                    let options =
                        Parallel::new(threads).with_chunk_size(chunk_size).with_guess(guess);
                    assert_eq!(
                        pooled(&bytes, &options),
                        expected,
                        "round {round}: {threads} threads, chunks of {chunk_size}, guess {guess}"
                    );
                }
            }
        }
    }
}

#[test]
fn calls_from_several_threads_at_once_read_as_one_reader_does() {
    let bytes = input();
    let expected = serial(&bytes);
    std::thread::scope(|scope| {
        for caller in 0..4 {
            let (bytes, expected) = (&bytes, &expected);
            scope.spawn(move || {
                for _ in 0..5 {
                    let options = Parallel::new(2 + caller % 2).with_chunk_size(4 << 10);
                    assert_eq!(&pooled(bytes, &options), expected, "caller {caller}");
                }
            });
        }
    });
}

/// The threads of this process, where Linux lists them.
fn threads_now() -> Option<usize> {
    std::fs::read_dir("/proc/self/task").ok().map(|d| d.count())
}

#[test]
fn the_pool_keeps_its_threads_between_calls() {
    let bytes = input();
    let options = Parallel::new(3).with_chunk_size(2 << 10);
    pooled(&bytes, &options);
    let Some(after_one) = threads_now() else {
        eprintln!("skipped: no /proc/self/task");
        return;
    };
    for _ in 0..20 {
        pooled(&bytes, &options);
    }
    // Threads started for each call and kept would add five a call; other tests of this
    // binary, running at the same time, may add a few.
    let after_many = threads_now().unwrap_or(after_one);
    assert!(after_many <= after_one + 16, "{after_one} threads, then {after_many}");
}

#[test]
fn a_sink_error_ends_the_call_and_the_pool_serves_the_next() {
    let pgn = "1. e4 e5 1-0\n\n".repeat(20_000);
    for threads in [2, 4] {
        let options = Parallel::new(threads).with_chunk_size(100);
        let mut seen = 0u64;
        let result = par_chunks_pooled(
            Cursor::new(pgn.clone().into_bytes()),
            &options,
            |reader| {
                let mut n = 0u64;
                while reader.read_game(&mut Replay::default()).is_some() {
                    n += 1;
                }
                n
            },
            |before, n| {
                seen = before + n;
                if seen >= 500 {
                    Err(seen)
                } else {
                    Ok(())
                }
            },
        );
        assert!(matches!(result, Err(n) if n >= 500), "{threads} threads: {result:?}");
        let bytes = input();
        assert_eq!(pooled(&bytes, &options), serial(&bytes), "{threads} threads, after");
    }
}

#[test]
fn a_worker_panic_reaches_the_caller_and_the_pool_serves_the_next() {
    let bytes = input();
    let options = Parallel::new(2).with_chunk_size(1_000);
    let caught = std::panic::catch_unwind(|| {
        par_chunks_pooled(
            Cursor::new(bytes.clone()),
            &options,
            |reader| {
                if reader.origin().offset > 5_000 {
                    panic!("a worker's panic");
                }
            },
            |_, ()| Ok::<_, io::Error>(()),
        )
    });
    let payload = caught.expect_err("the panic reaches the caller");
    assert_eq!(payload.downcast_ref::<&str>(), Some(&"a worker's panic"));
    assert_eq!(pooled(&bytes, &options), serial(&bytes));
}
