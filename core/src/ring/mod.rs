//! R_q = Z_q[X]/(X^256 + 1), the ring ML-DSA computes in (FIPS 204, Section 2.3): the
//! field's arithmetic and the polynomial type. A leaf: the portable kernels, the
//! architectures' kernels and the algorithm all build on it, and it imports nothing of
//! theirs.

pub(crate) mod field;
mod poly;

pub(crate) use poly::{N, Poly};
