//! RejNTTPoly's inner loop (FIPS 204 Algorithm 30, with CoeffFromThreeBytes,
//! Algorithm 14): the portable kernel.

use crate::kernel_set::{Shake128Block, block_bytes};
use crate::ring::field::Q;
use crate::ring::{N, Poly};

/// Rejection-samples coefficients from one SHAKE128 block into `out` from index `*j` on
/// (RejNTTPoly's loop, FIPS 204 Algorithm 30, with CoeffFromThreeBytes, Algorithm 14).
///
/// Contract: `*j` ≤ 256 on entry; the accepted values, each in [0, q), fill
/// `out[*j..]` in block order until 256, and `*j` counts them; `out[..*j]` of entry
/// does not change, and what lies past the new `*j` is left open (a vector kernel may
/// store a whole vector there; the next block's values replace it).
pub(crate) fn rej_sample(block: &Shake128Block, out: &mut Poly, j: &mut usize) {
    for s in block_bytes(block).chunks_exact(3) {
        // Clear the top bit, accept if < q.
        let z = i32::from(s[0]) | (i32::from(s[1]) << 8) | (i32::from(s[2] & 0x7f) << 16);
        if z < Q && *j < N {
            out.0[*j] = z;
            *j += 1;
        }
    }
}
