//! The module's allocator (feature `module`): blocks in power-of-two size classes, each
//! class a free list, new blocks cut from pages the module grows its memory by.
//!
//! Why not Rust's default (dlmalloc): it was 8.6 KB of the ML-DSA module's 92 KB, for a
//! program whose allocations are few and repeat: each call's argument copies (the
//! JavaScript glue allocates them, calls, and frees them) and each prepared key (a few
//! sizes per suite). A freed block waits in its class for the next request of that
//! class; memory is never returned to the engine (wasm memory cannot shrink), so what a
//! module holds is at most twice the most it ever had live in each class.
//!
//! wasm32 modules here are single-threaded (no shared memory), which the `Sync` impl
//! relies on.
#![allow(unsafe_code, reason = "a global allocator is unsafe by its trait's contract")]

use core::alloc::{GlobalAlloc, Layout};
use core::arch::wasm32::{memory_grow, memory_size};
use core::cell::UnsafeCell;
use core::ptr::null_mut;

/// The smallest block (a class's free list keeps its next pointer in the block).
const MIN_CLASS: u32 = 4;
/// Classes 2^4 to 2^31 bytes (wasm32's whole address space is 2^32).
const CLASSES: usize = 28;
const PAGE: usize = 65536;
/// New blocks are aligned to their size up to this (a page would waste up to 64 KiB).
const MAX_ALIGN: usize = 4096;

struct State {
    /// Head of each class's free list (0: empty).
    free: [usize; CLASSES],
    /// Where the next new block may start, and the end of the memory grown for blocks.
    next: usize,
    end: usize,
}

/// The allocator: `#[global_allocator]` in `lib.rs` under feature `module`.
pub struct Heap(UnsafeCell<State>);

impl Heap {
    /// An allocator that has handed out nothing yet.
    pub const fn new() -> Self {
        Heap(UnsafeCell::new(State { free: [0; CLASSES], next: 0, end: 0 }))
    }
}

impl Default for Heap {
    fn default() -> Self {
        Self::new()
    }
}

// SAFETY: the module runs on one thread (wasm32 without shared memory), so the state is
// never reached from two threads.
unsafe impl Sync for Heap {}

/// The class of `layout`: the power of two at least its size and its alignment, as an
/// exponent; `None` past 2^31 bytes.
fn class(layout: Layout) -> Option<u32> {
    let bytes = layout.size().max(layout.align()).max(1 << MIN_CLASS);
    let exponent = bytes.checked_next_power_of_two()?.trailing_zeros();
    (exponent < MIN_CLASS + CLASSES as u32).then_some(exponent)
}

impl State {
    /// A new block of 2^`exponent` bytes from the top, growing memory when needed.
    fn cut(&mut self, exponent: u32) -> *mut u8 {
        let size = 1usize << exponent;
        let align = size.min(MAX_ALIGN);
        if self.end == 0 {
            // Blocks start above everything the module was instantiated with.
            self.next = memory_size(0) * PAGE;
            self.end = self.next;
        }
        let Some(start) = self.next.checked_add(align - 1).map(|n| n & !(align - 1)) else { return null_mut() };
        let Some(stop) = start.checked_add(size) else { return null_mut() };
        if stop > self.end {
            let pages = (stop - self.end).div_ceil(PAGE);
            if memory_grow(0, pages) == usize::MAX {
                return null_mut();
            }
            self.end += pages * PAGE;
        }
        self.next = stop;
        start as *mut u8
    }
}

// SAFETY: every block handed out is 2^k bytes (at least the layout's size), aligned to
// min(2^k, 4096) ≥ the layout's alignment (2^k ≥ align, and larger alignments are
// refused), inside memory the module owns and no other block overlaps: new blocks are
// cut from the top and never again, freed ones are reused only within their class.
unsafe impl GlobalAlloc for Heap {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let Some(exponent) = class(layout) else { return null_mut() };
        if layout.align() > MAX_ALIGN {
            return null_mut();
        }
        // SAFETY: one thread (see the Sync impl), and no reference to the state outlives this call.
        let state = unsafe { &mut *self.0.get() };
        let slot = (exponent - MIN_CLASS) as usize;
        let head = state.free[slot];
        if head == 0 {
            return state.cut(exponent);
        }
        // SAFETY: a free block of this class begins with the address of the next one (dealloc wrote it).
        state.free[slot] = unsafe { *(head as *const usize) };
        head as *mut u8
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // The caller passes the layout it allocated with, so the class is the block's.
        let Some(exponent) = class(layout) else { return };
        // SAFETY: as in alloc.
        let state = unsafe { &mut *self.0.get() };
        let slot = (exponent - MIN_CLASS) as usize;
        // SAFETY: the block is ours, at least 16 bytes and aligned for a usize; it is free now.
        unsafe { *(ptr as *mut usize) = state.free[slot] };
        state.free[slot] = ptr as usize;
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let Ok(new_layout) = Layout::from_size_align(new_size, layout.align()) else { return null_mut() };
        // The block already holds 2^k bytes: a size within the same class keeps it.
        if class(layout).is_some() && class(layout) == class(new_layout) {
            return ptr;
        }
        // SAFETY: the caller's contract for realloc is alloc's and dealloc's together.
        unsafe {
            let new = self.alloc(new_layout);
            if !new.is_null() {
                core::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
                self.dealloc(ptr, layout);
            }
            new
        }
    }
}
