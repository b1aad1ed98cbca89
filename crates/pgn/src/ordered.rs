//! The ordered parallel map under the pipeline: [`par_map`] runs `work` on each item of a
//! sequence on several threads and hands the results on in the sequence's order, on the
//! calling thread, which makes the items and reads some of them too. [`par_chunks`] and
//! [`par_games`] run on it, and so do `chessbits-codec`'s `.cbg` records and lichess
//! Parquet's rows ([`par_map_pooled`]).
//!
//! The calling thread makes the items, at most `2 * threads + 2` ahead of the results handed
//! on, into a queue that `threads - 1` workers wait on; it hands the results on in order and,
//! when none waits, takes an item from the queue itself. Each worker is woken by the calling
//! thread's push, not by another worker. Before, a thread of its own made the items and
//! `threads` workers ran beside the calling thread: a call on two threads ran four on two
//! cores, and a worker woken by another one's wake-up often waited a millisecond or two
//! behind it on the same core (a 1 MB file read in 5 ms).
//!
//! [`par_chunks`]: crate::par_chunks
//! [`par_games`]: crate::par_games

use std::collections::{BTreeMap, VecDeque};
use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread;

use crate::movetext::MovetextReader;
use crate::pool::{Pooled, Spawner};
use crate::san_cache::SanCache;

/// The most threads a pipeline runs at once (the calling thread among them): a larger count is
/// read as this one. More threads than cores gain nothing, and a count the system cannot start
/// (100,000) would fail to spawn; the process's pool keeps the threads it started.
pub const MAX_THREADS: usize = 256;

/// Runs `work` on each item of the sequence `items` makes, on `threads` threads, and hands
/// each result to `sink`, on the calling thread, in the sequence's order: the pipeline of
/// [`par_chunks`](crate::par_chunks), for any sequence of work (`chessbits-codec` maps the
/// records of a `.cbg` file with it).
///
/// The calling thread is one of the `threads`: it makes the items (so `items` may own a
/// reader that is not `Sync`), hands the results on, and runs `work` on an item itself
/// whenever no result is waiting, beside `threads - 1` worker threads. At most
/// `2 * threads + 2` items are made and not yet handed on, so memory is bounded by the thread
/// count and the size of an item and its result. With one thread (or none) everything runs
/// on the calling thread, one item after the other.
///
/// # Errors
/// The first error `sink` returns: no more results are handed on, and the threads stop. A
/// panic in `work` reaches the caller, after the other threads stopped.
///
/// ```
/// use chessbits_pgn::par_map;
///
/// let mut squares = Vec::new();
/// par_map(2, || 1..=1000u64, |n| n * n, |sq| {
///     squares.push(sq);
///     Ok::<_, ()>(())
/// })?;
/// assert_eq!(squares, (1..=1000u64).map(|n| n * n).collect::<Vec<_>>());
/// # Ok::<_, ()>(())
/// ```
pub fn par_map<I, F, U, E, W, S>(threads: usize, items: F, work: W, sink: S) -> Result<(), E>
where
    F: FnOnce() -> I + Send,
    I: Iterator,
    I::Item: Send,
    U: Send,
    W: Fn(I::Item) -> U + Sync,
    S: FnMut(U) -> Result<(), E>,
{
    let work = |_: &mut SanCache, item| work(item);
    thread::scope(|scope| par_map_with(&scope, threads, items, work, sink))
}

/// [`par_map`] on the process's pool of threads (as
/// [`par_chunks_pooled`](crate::par_chunks_pooled)), where each worker lends `work` a
/// [`MovetextReader`] with its warm move-token cache: for items that are rows of games
/// (lichess's Parquet, a batch of rows an item) read one after the other by many calls.
///
/// # Errors
/// The first error `sink` returns, as [`par_map`].
///
/// ```
/// use chessbits_pgn::{par_map_pooled, Replay};
///
/// let rows = vec!["1. e4 e5 1-0", "1. d4 Ke7 *", "1. c4 *"];
/// let mut plies = Vec::new();
/// par_map_pooled(2, move || rows.into_iter(), |reader, movetext| {
///     let game = reader.read_game(movetext.as_bytes(), &mut Replay::default(), |_| Ok(()));
///     game.map(|g| g.game.moves().len()).ok()
/// }, |n| {
///     plies.push(n);
///     Ok::<_, ()>(())
/// })?;
/// assert_eq!(plies, [Some(2), None, Some(1)]);
/// # Ok::<_, ()>(())
/// ```
pub fn par_map_pooled<I, F, U, E, W, S>(threads: usize, items: F, work: W, sink: S) -> Result<(), E>
where
    F: FnOnce() -> I + Send + 'static,
    I: Iterator,
    I::Item: Send + 'static,
    U: Send + 'static,
    W: Fn(&mut MovetextReader, I::Item) -> U + Send + Sync + 'static,
    S: FnMut(U) -> Result<(), E>,
{
    let work = Arc::new(work);
    let lent = move |sans: &mut SanCache, item| {
        let mut reader = MovetextReader::lend(sans);
        let result = work(&mut reader, item);
        *sans = reader.into_sans();
        result
    };
    let pooled = Pooled::new();
    let result = par_map_with(&pooled, threads, items, lent, sink);
    pooled.finish();
    result
}

/// [`par_map`], with its threads from `spawner`, where each worker thread (or the calling
/// thread, with one) lends `work` its move-token cache with each item: the scratch that one
/// item's work warms for the next, passed as an argument rather than kept in a thread-local.
/// `work` is cloned into each worker (a reference, or an `Arc`'s closure).
pub(crate) fn par_map_with<'a, I, F, U, E, W, S>(
    spawner: &impl Spawner<'a>,
    threads: usize,
    items: F,
    work: W,
    mut sink: S,
) -> Result<(), E>
where
    F: FnOnce() -> I + Send + 'a,
    I: Iterator,
    I::Item: Send + 'a,
    U: Send + 'a,
    W: Fn(&mut SanCache, I::Item) -> U + Clone + Send + 'a,
    S: FnMut(U) -> Result<(), E>,
{
    let threads = threads.min(MAX_THREADS);
    if threads <= 1 {
        let mut own = SanCache::warm();
        for item in items() {
            sink(work(&mut own, item))?;
        }
        return Ok(());
    }
    let queue = Arc::new(Queue::default());
    // Made first: however the call ends, even by a panic in `items`, dropping it closes the
    // queue, so that no worker waits for an item forever (and the scope for the worker).
    let mut feeder = Feeder { items: (0..).zip(items()), queue, made: 0, ended: false };
    let (done_tx, done) = channel();
    start_workers(spawner, threads - 1, &feeder.queue, &done_tx, &work);
    drop(done_tx);
    let in_flight = 2 * threads + 2;
    let mut own = SanCache::warm();
    let mut waiting = BTreeMap::new();
    let mut next = 0;
    // At first one item a thread and one spare, so the calling thread starts reading as soon
    // as the workers do; the rest once a result is in.
    let mut ahead = threads + 1;
    loop {
        // Hand on the results that are next in order.
        while let Some(result) = waiting.remove(&next) {
            next += 1;
            match result {
                Ok(result) => sink(result)?,
                Err(payload) => {
                    // Stop the other threads before passing the worker's panic on.
                    drop((feeder, done));
                    panic::resume_unwind(payload)
                }
            }
        }
        feeder.top_up(next, ahead);
        if feeder.ended && next == feeder.made {
            return Ok(());
        }
        // A worker's result, else an item to read here, else wait for a result.
        let (index, result) = match done.try_recv() {
            Ok(done) => done,
            Err(_) => match feeder.queue.try_next() {
                Some((index, item)) => (index, Ok(work(&mut own, item))),
                None => match done.recv() {
                    Ok(done) => done,
                    // Every worker is gone, which only a closed queue does.
                    Err(_) => return Ok(()),
                },
            },
        };
        waiting.insert(index, result);
        ahead = in_flight;
    }
}

/// A result of [`par_map_with`]'s work, with its item's index: the work's value, or its panic.
type Done<U> = (u64, thread::Result<U>);

/// Starts `workers` threads (the calling thread is the last, see the module doc for why) that
/// take items from `queue` and send what `work` makes of them to `done`. A worker the system
/// cannot start is done without: the calling thread reads whatever no worker takes.
fn start_workers<'a, T, U, W>(
    spawner: &impl Spawner<'a>,
    workers: usize,
    queue: &Arc<Queue<(u64, T)>>,
    done: &Sender<Done<U>>,
    work: &W,
) where
    T: Send + 'a,
    U: Send + 'a,
    W: Fn(&mut SanCache, T) -> U + Clone + Send + 'a,
{
    for _ in 0..workers {
        let (queue, done, work) = (Arc::clone(queue), done.clone(), work.clone());
        let started = spawner.run(move |own| {
            while let Some((index, item)) = queue.next() {
                let result = panic::catch_unwind(AssertUnwindSafe(|| work(own, item)));
                if done.send((index, result)).is_err() {
                    return;
                }
            }
        });
        if !started {
            return;
        }
    }
}

/// The items of [`par_map_with`] on their way to whichever thread reads them first: a
/// worker waits for one, the calling thread takes one only if one is there.
struct Queue<T> {
    /// The items not yet taken, and whether more may come.
    items: Mutex<(VecDeque<T>, bool)>,
    ready: Condvar,
}

impl<T> Default for Queue<T> {
    fn default() -> Self {
        Queue { items: Mutex::new((VecDeque::new(), true)), ready: Condvar::new() }
    }
}

impl<T> Queue<T> {
    fn lock(&self) -> std::sync::MutexGuard<'_, (VecDeque<T>, bool)> {
        self.items.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn push(&self, item: T) {
        self.lock().0.push_back(item);
        self.ready.notify_one();
    }

    /// No more items come: the workers stop once the queue is empty.
    fn close(&self) {
        self.lock().1 = false;
        self.ready.notify_all();
    }

    /// The next item, waiting for one; `None` once the queue is closed and empty.
    fn next(&self) -> Option<T> {
        let mut items = self.lock();
        loop {
            if let Some(item) = items.0.pop_front() {
                return Some(item);
            }
            if !items.1 {
                return None;
            }
            items = self.ready.wait(items).unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// The next item, if one is there.
    fn try_next(&self) -> Option<T> {
        self.lock().0.pop_front()
    }
}

/// The items of [`par_map_with`], queued for the threads as results are handed on.
struct Feeder<I: Iterator> {
    items: core::iter::Zip<core::ops::RangeFrom<u64>, I>,
    queue: Arc<Queue<(u64, I::Item)>>,
    made: u64,
    ended: bool,
}

impl<I: Iterator> Feeder<I> {
    /// Queues items until `in_flight` of them are made and not yet handed on (`handed` are),
    /// or the items end.
    fn top_up(&mut self, handed: u64, in_flight: usize) {
        while !self.ended && self.made - handed < in_flight as u64 {
            match self.items.next() {
                Some(item) => {
                    self.queue.push(item);
                    self.made += 1;
                }
                None => {
                    self.ended = true;
                    self.queue.close();
                }
            }
        }
    }
}

/// However the call ends (done, the sink's error, a panic), the items not yet taken are
/// dropped and the workers stop after the one they read.
impl<I: Iterator> Drop for Feeder<I> {
    fn drop(&mut self) {
        let items = core::mem::take(&mut self.queue.lock().0);
        self.queue.close();
        drop(items);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pool::Limited;

    #[test]
    fn workers_the_system_refuses_are_done_without() {
        for allowed in [0, 1, 2, 5] {
            let mut squares = Vec::new();
            thread::scope(|scope| {
                let spawner = Limited { scope, allowed: allowed.into() };
                let work = |_: &mut SanCache, n: u64| n * n;
                par_map_with(
                    &spawner,
                    6,
                    || 1..=500u64,
                    work,
                    |sq| {
                        squares.push(sq);
                        Ok::<_, ()>(())
                    },
                )
            })
            .unwrap();
            let want: Vec<u64> = (1..=500u64).map(|n| n * n).collect();
            assert_eq!(squares, want, "{allowed} workers started");
        }
    }
}
