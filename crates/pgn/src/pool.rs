//! Where the pipeline's threads run: threads made for one call (a [`thread::scope`]), or the
//! process's pool of threads kept between calls, for a caller that reads many small inputs
//! (the Python package reads a file a call).
//!
//! A thread made for one call costs about 50 microseconds to start on a quiet machine, and
//! starts cold: its allocator heap takes fresh pages (the kernel zeroes each), its move-token
//! cache is empty. Reading a 1 MB file on two workers started four threads; kept in the pool,
//! they start warm.
//!
//! The pool hands each job a thread of its own, never a queue behind another job: the
//! pipeline's jobs block on one another (the cutter waits for the reader, the workers for
//! the cutter), so a job that waited for a thread could wait forever. A job finds an idle
//! thread or the pool starts one; threads are never stopped, so the pool holds as many as
//! were ever busy at once.

use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::thread;

use crate::san_cache::SanCache;

/// Runs the pipeline's jobs, each on a thread of its own, lending each the move-token cache
/// of the thread it runs on.
pub(crate) trait Spawner<'a> {
    /// Runs `job` on a thread of its own. `false`, the job dropped unrun, if the system
    /// refused to start a thread (too many threads, not enough memory): the caller goes on
    /// with fewer threads, never a panic (which the release build's `panic = "abort"` would
    /// make a crash) and never a wait for a job that is not running.
    #[must_use]
    fn run(&self, job: impl FnOnce(&mut SanCache) + Send + 'a) -> bool;
}

/// A thread for each job, made for the call and joined when its scope ends, with an empty
/// cache.
impl<'scope> Spawner<'scope> for &'scope thread::Scope<'scope, '_> {
    fn run(&self, job: impl FnOnce(&mut SanCache) + Send + 'scope) -> bool {
        let job = move || job(&mut SanCache::default());
        thread::Builder::new().spawn_scoped(self, job).is_ok()
    }
}

/// A job for a pool thread.
type Job = Box<dyn FnOnce(&mut SanCache) + Send>;

/// The threads kept between calls, and how many of them wait for a job.
struct Pool {
    /// The process that started the threads: a child made by `fork` has none of them, and
    /// starts a pool of its own.
    pid: u32,
    /// Threads waiting for a job, or about to; a job sent takes one.
    idle: usize,
    jobs: Sender<Job>,
    /// Where the pool's threads take their jobs.
    queue: Arc<Mutex<Receiver<Job>>>,
}

impl Pool {
    fn new() -> Pool {
        let (jobs, queue) = channel();
        Pool { pid: std::process::id(), idle: 0, jobs, queue: Arc::new(Mutex::new(queue)) }
    }
}

/// The process's pool.
fn pool() -> &'static Mutex<Pool> {
    static POOL: OnceLock<Mutex<Pool>> = OnceLock::new();
    POOL.get_or_init(|| Mutex::new(Pool::new()))
}

/// Takes an idle pool thread for a job about to be sent, or starts one, which then stays.
/// `false` if the system refused to start a thread.
fn take_thread(pool: &mut Pool) -> bool {
    if pool.pid != std::process::id() {
        *pool = Pool::new();
    }
    if pool.idle > 0 {
        pool.idle -= 1;
        return true;
    }
    let queue = Arc::clone(&pool.queue);
    thread::Builder::new().name("chessbits-pgn".into()).spawn(move || serve(&queue)).is_ok()
}

/// The process's pool, locked.
fn locked_pool() -> std::sync::MutexGuard<'static, Pool> {
    pool().lock().unwrap_or_else(PoisonError::into_inner)
}

/// Runs `job` on an idle pool thread, or on a thread started for it, which then stays.
/// `false`, the job dropped unrun, if the system refused to start a thread.
fn run_pooled(job: Job) -> bool {
    let mut pool = locked_pool();
    if !take_thread(&mut pool) {
        return false;
    }
    // The receiver lives as long as the pool's `queue`, which `pool` holds.
    let _ = pool.jobs.send(job);
    true
}

/// A pool thread: runs jobs from `queue` as they come, with one cache for all of them.
fn serve(queue: &Arc<Mutex<Receiver<Job>>>) {
    let mut sans = SanCache::default();
    loop {
        let job = match queue.lock() {
            Ok(queue) => queue.recv(),
            Err(_) => return,
        };
        let Ok(job) = job else { return };
        job(&mut sans);
        let mut pool = locked_pool();
        // A thread of a pool replaced after a `fork` (none can be left) is not counted.
        if Arc::ptr_eq(&pool.queue, queue) {
            pool.idle += 1;
        }
    }
}

/// Runs `job` on a thread of the pipeline's pool (kept between calls, as
/// [`par_chunks_pooled`](crate::par_chunks_pooled)'s are), rather than on a thread started
/// for it: for work a caller starts beside the pipeline, call after call, such as decoding
/// its input a block ahead (`chessbits_arrow::lichess::ReadAhead`). Nothing waits for the
/// job: it must end by itself, as a detached [`thread::spawn`]ed one would; a panic in it ends
/// the job, not the thread.
///
/// ```
/// use std::sync::mpsc::channel;
///
/// let (tx, rx) = channel();
/// assert!(chessbits_pgn::spawn_pooled(move || tx.send(6 * 7).unwrap()).is_ok());
/// assert_eq!(rx.recv(), Ok(42));
/// ```
///
/// # Errors
/// `job` back, unrun, if no pool thread was idle and the system refused to start one (too many
/// threads, not enough memory), where [`thread::spawn`] would panic.
pub fn spawn_pooled<F: FnOnce() + Send + 'static>(job: F) -> Result<(), F> {
    let mut pool = locked_pool();
    if !take_thread(&mut pool) {
        return Err(job);
    }
    let _ = pool.jobs.send(Box::new(move |_: &mut SanCache| {
        let _ = panic::catch_unwind(AssertUnwindSafe(job));
    }));
    Ok(())
}

/// The jobs of one call run on the pool: like a scope, it waits for every job it ran before
/// it is gone, and hands a job's panic on to the caller.
pub(crate) struct Pooled {
    done: Option<Sender<thread::Result<()>>>,
    finished: Receiver<thread::Result<()>>,
}

impl Pooled {
    pub(crate) fn new() -> Pooled {
        let (done, finished) = channel();
        Pooled { done: Some(done), finished }
    }

    /// Waits for every job run; the first job's panic, if one panicked.
    fn wait(&mut self) -> Option<Box<dyn std::any::Any + Send>> {
        self.done = None;
        let mut panicked = None;
        for result in self.finished.iter() {
            if let Err(payload) = result {
                panicked.get_or_insert(payload);
            }
        }
        panicked
    }

    /// Waits for every job run, and passes a job's panic on.
    pub(crate) fn finish(mut self) {
        if let Some(payload) = self.wait() {
            panic::resume_unwind(payload);
        }
    }
}

impl Spawner<'static> for Pooled {
    fn run(&self, job: impl FnOnce(&mut SanCache) + Send + 'static) -> bool {
        let Some(done) = self.done.clone() else { return false };
        run_pooled(Box::new(move |sans: &mut SanCache| {
            let result = panic::catch_unwind(AssertUnwindSafe(|| job(sans)));
            let _ = done.send(result);
        }))
    }
}

/// A call that unwinds (its sink panicked) still waits for its jobs, which stop once the
/// channels the call held are gone.
impl Drop for Pooled {
    fn drop(&mut self) {
        let _ = self.wait();
    }
}

/// A spawner for tests: a scope's threads, the first `allowed` of them, then refusals, as a
/// system out of threads refuses.
#[cfg(test)]
pub(crate) struct Limited<'scope, 'env> {
    pub(crate) scope: &'scope thread::Scope<'scope, 'env>,
    pub(crate) allowed: std::cell::Cell<usize>,
}

#[cfg(test)]
impl<'scope> Spawner<'scope> for Limited<'scope, '_> {
    fn run(&self, job: impl FnOnce(&mut SanCache) + Send + 'scope) -> bool {
        let Some(left) = self.allowed.get().checked_sub(1) else { return false };
        self.allowed.set(left);
        self.scope.run(job)
    }
}
