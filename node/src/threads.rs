//! The threads the asynchronous calls run on, and how their promises settle.
//!
//! One rayon pool per thread count a caller asks for (by default the machine's
//! parallelism), made on first use and kept for the process: a call's work runs on
//! its pool's threads only, never on the JavaScript thread nor on libuv's pool, so
//! the event loop never waits for it and the two pools never compete for the cores.
//! A promise settles through a Node-API thread-safe function back on the JavaScript
//! thread that made it.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex, OnceLock};

use napi::bindgen_prelude::{Object, ToNapiValue};
use napi::{Env, Error, Status};
use rayon::ThreadPool;

use crate::request::invalid;

/// The machine's parallelism: the default thread count, and the largest one allowed.
pub fn parallelism() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The pool of `threads` threads (0: [`parallelism`]), made on first use.
pub(crate) fn pool(threads: u32) -> napi::Result<Arc<ThreadPool>> {
    let most = parallelism();
    let threads = match threads as usize {
        0 => most,
        n if n <= most => n,
        n => return Err(invalid(format!("threads must be 1 to {most} (this machine's parallelism), got {n}"))),
    };
    static POOLS: OnceLock<Mutex<Vec<Option<Arc<ThreadPool>>>>> = OnceLock::new();
    let mut pools = POOLS.get_or_init(|| Mutex::new(vec![None; most])).lock().unwrap_or_else(|e| e.into_inner());
    if let Some(pool) = &pools[threads - 1] {
        return Ok(pool.clone());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(move |i| format!("pqverify-{threads}-{i}"))
        .start_handler(|_| background())
        .build()
        .map(Arc::new)
        .map_err(|e| Error::from_reason(format!("cannot start {threads} verifier threads: {e}")))?;
    pools[threads - 1] = Some(pool.clone());
    Ok(pool)
}

/// Lowers the calling thread's priority (Linux: its nice value, by 10): verifier threads
/// take every core the JavaScript thread leaves idle, and yield to it the moment it wakes,
/// so that the event loop is never late for them.
fn background() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority on this thread's own id (gettid) only changes its scheduling
    // weight; raising one's nice value needs no privilege, and a failure leaves it as it was.
    unsafe {
        let _ = libc::setpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t, 10);
    }
}

/// A promise settled with what `work` returns, run on the pool of `threads` threads:
/// its value, or a rejection with its error. A panic in `work` rejects the promise (a
/// bug: the message says so) instead of ending the process.
pub(crate) fn spawn<'env, T, F>(env: &'env Env, threads: u32, work: F) -> napi::Result<Object<'env>>
where
    T: ToNapiValue + Send + 'static,
    F: FnOnce() -> napi::Result<T> + Send + 'static,
{
    let pool = pool(threads)?;
    let (deferred, promise) = env.create_deferred()?;
    let inner = pool.clone();
    pool.spawn(move || match catch_unwind(AssertUnwindSafe(|| inner.install(work))) {
        Ok(Ok(value)) => deferred.resolve(move |_| Ok(value)),
        Ok(Err(e)) => deferred.reject(e),
        Err(_) => deferred.reject(Error::new(
            Status::GenericFailure,
            "a verifier thread panicked (a bug in pqverify; please report it)".to_owned(),
        )),
    });
    Ok(promise)
}
