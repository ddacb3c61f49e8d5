//! A global allocator that counts the heap bytes in use, over the system allocator:
//! what the benchmark's memory-per-key records divide. The `pqverify` binary installs
//! it (two relaxed atomic additions per allocation); a library user may too.

#![allow(unsafe_code, reason = "a GlobalAlloc forwarding to the system allocator; each block states why it is sound")]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, AtomicU64, Ordering};

static LIVE: AtomicIsize = AtomicIsize::new(0);
static CALLS: AtomicU64 = AtomicU64::new(0);

/// The counting allocator (install with `#[global_allocator]`).
pub(crate) struct Counting;

// SAFETY: every call is forwarded unchanged to the system allocator; only counters
// are updated beside it.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller upholds `alloc`'s contract, forwarded as is.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
            CALLS.fetch_add(1, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as above.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_add(new_size as isize - layout.size() as isize, Ordering::Relaxed);
            CALLS.fetch_add(1, Ordering::Relaxed);
        }
        p
    }
}

/// Heap bytes in use now, or `None` when [`Counting`] is not the global allocator.
pub(crate) fn live_bytes() -> Option<i64> {
    let before = CALLS.load(Ordering::Relaxed);
    let probe = std::hint::black_box(Box::new(0u64));
    drop(probe);
    (CALLS.load(Ordering::Relaxed) != before).then(|| LIVE.load(Ordering::Relaxed) as i64)
}
