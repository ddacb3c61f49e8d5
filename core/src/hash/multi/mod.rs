//! Several hashes at once: which share a kernel call, how many a caller should gather,
//! and the one-at-a-time fallback. The width is chosen here, once per call, from the
//! kernel set; the algorithms ask for hashes and never for a width.
//!
//! [`states`] runs SHAKE instances that wait for permutations (ML-DSA's tr, μ, c̃′,
//! SampleInBall's and ExpandA's hashes) in shared rounds; [`one_block`] hashes many
//! independent one-block inputs (SLH-DSA's F and H calls) side by side.

pub(crate) mod one_block;
pub(crate) mod states;
