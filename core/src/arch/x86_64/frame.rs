//! The stack frame of a kernel that keeps vectors in stack slots.

/// Puts a 64-byte-aligned object in the calling kernel's frame, so that the compiler
/// aligns the frame. The kernels keep part of their vectors in stack slots, moved with
/// unaligned loads and stores; in a frame only 16-byte aligned those slots sit wherever
/// the caller's depth puts them, a share across cache lines, and the same instructions
/// run at a speed that depends on the caller's depth.
#[inline(always)]
pub(super) fn align_frame() {
    #[repr(align(64))]
    struct Line([u8; 64]);
    core::hint::black_box(&mut Line([0; 64]).0);
}
