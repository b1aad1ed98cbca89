//! `par_map`, the ordered parallel map under `par_chunks`: order, bounded items in flight,
//! which threads read, the sink's error and a worker's panic.

use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use chessbits_pgn::par_map;

/// Results come in the items' order whatever order the workers finish in.
#[test]
fn results_come_in_order() {
    for threads in [0, 1, 2, 3, 8] {
        let mut out = Vec::new();
        par_map(
            threads,
            || 0..300u64,
            |n| {
                // Later items finish first now and then.
                if n % 7 == 0 {
                    std::thread::sleep(Duration::from_micros(200));
                }
                n * 3
            },
            |r| {
                out.push(r);
                Ok::<_, ()>(())
            },
        )
        .unwrap();
        assert_eq!(out, (0..300u64).map(|n| n * 3).collect::<Vec<_>>(), "{threads} threads");
    }
}

/// No more than `2 * threads + 2` items are made ahead of the sink.
#[test]
fn items_in_flight_are_bounded() {
    for threads in [1, 2, 4] {
        let made = AtomicUsize::new(0);
        let mut handed = 0;
        let mut most = 0;
        par_map(
            threads,
            || {
                (0..200).inspect(|_| {
                    made.fetch_add(1, Ordering::SeqCst);
                })
            },
            |n| n,
            |_| {
                handed += 1;
                most = most.max(made.load(Ordering::SeqCst) - handed);
                std::thread::sleep(Duration::from_micros(50));
                Ok::<_, ()>(())
            },
        )
        .unwrap();
        assert_eq!(handed, 200);
        let bound = if threads <= 1 { 0 } else { 2 * threads + 2 };
        assert!(most <= bound, "{threads} threads: {most} ahead, bound {bound}");
    }
}

/// `threads` threads read the items, the calling thread one of them: a thread of its own for
/// the items and `threads` workers beside the caller ran two threads too many.
#[test]
fn the_calling_thread_is_one_of_the_threads() {
    let caller = std::thread::current().id();
    for threads in [2, 3] {
        let readers = Mutex::new(HashSet::new());
        let mut out = Vec::new();
        par_map(
            threads,
            || 0..64u32,
            |n| {
                readers.lock().unwrap().insert(std::thread::current().id());
                std::thread::sleep(Duration::from_millis(1));
                n
            },
            |n| {
                out.push(n);
                Ok::<_, ()>(())
            },
        )
        .unwrap();
        assert_eq!(out, (0..64).collect::<Vec<_>>());
        let readers = readers.into_inner().unwrap();
        assert!(readers.contains(&caller), "{threads} threads: the caller read no item");
        assert!(readers.len() <= threads, "{threads} threads: {} read", readers.len());
    }
}

/// The sink's first error is returned and nothing is handed on after it.
#[test]
fn the_sink_error_stops_the_run() {
    for threads in [1, 2, 4] {
        let mut seen = Vec::new();
        let result = par_map(
            threads,
            || 0..10_000u32,
            |n| n,
            |n| {
                seen.push(n);
                if n == 77 {
                    Err(n)
                } else {
                    Ok(())
                }
            },
        );
        assert_eq!(result, Err(77));
        assert_eq!(seen, (0..=77).collect::<Vec<_>>(), "{threads} threads");
    }
}

/// A panic in a worker reaches the caller.
#[test]
fn a_worker_panic_reaches_the_caller() {
    let caught = std::panic::catch_unwind(|| {
        par_map(
            2,
            || 0..100u32,
            |n| {
                assert!(n != 50, "item fifty");
                n
            },
            |_| Ok::<_, ()>(()),
        )
    });
    let payload = caught.expect_err("the panic is passed on");
    let message = payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or_default();
    assert!(message.contains("item fifty"), "{message:?}");
}
