//! Pseudorandom sampling for verification: ExpandA and SampleInBall (FIPS 204, Section 7.3).

use super::params::RHO_LEN;
use crate::hash::Shake256;
use crate::hash::lanes::{Lane, LaneShake128};
use crate::ring::{N, Poly};

/// The entries of Â (FIPS 204 Algorithm 32: Â[r][s] = RejNTTPoly(ρ ‖ s ‖ r)) as SHAKE128
/// instances in the lanes of the multi-state Keccak kernel ([`crate::hash::lanes`]), `W`
/// expanding at once (the kernel's four or eight states), in row-major order; each
/// entry is handed over as soon as it is complete. Other hashes may share
/// the permutations: the caller gathers the waiting lanes of all its instances and
/// permutes them together.
pub(crate) struct MatrixLanes<'a, const W: usize> {
    rho: &'a [u8; RHO_LEN],
    l: usize,
    entries: usize,
    next: usize,
    slots: [Option<Expanding>; W],
    /// Slot i's polynomial, filled up to its `filled` (never cleared: every coefficient
    /// is written before the entry is handed over).
    polys: [Poly; W],
}

/// One entry being expanded.
struct Expanding {
    entry: usize,
    /// The entry's row of Â.
    row: usize,
    shake: LaneShake128,
    filled: usize,
}

impl<'a, const W: usize> MatrixLanes<'a, W> {
    /// Â of a k × l matrix over ρ, no entry started yet.
    pub(crate) fn new(rho: &'a [u8; RHO_LEN], k: usize, l: usize) -> Self {
        MatrixLanes { rho, l, entries: k * l, next: 0, slots: [const { None }; W], polys: [const { Poly::ZERO }; W] }
    }

    /// Starts entries in the free slots; then the lanes of the entries waiting for a
    /// permutation, lowest entry first (or, where a row fills the slots, lowest row
    /// first and the least filled of a row first).
    #[cfg_attr(target_arch = "wasm32", inline(never))]
    pub(crate) fn lanes(&mut self) -> impl Iterator<Item = Lane<'_>> {
        for slot in &mut self.slots {
            if slot.is_none() && self.next < self.entries {
                let (r, s) = (self.next / self.l, self.next % self.l);
                // Made in its slot: the sponge is not built elsewhere and copied in.
                let e = slot.insert(Expanding { entry: self.next, row: r, shake: LaneShake128::new(), filled: 0 });
                // 34 bytes: one block, so neither call can stop short.
                e.shake.absorb(self.rho);
                e.shake.absorb(&[s as u8, r as u8]);
                e.shake.finish();
                self.next += 1;
            }
        }
        let mut slots: [Option<&mut Expanding>; W] = self.slots.each_mut().map(Option::as_mut);
        // A row that fills the slots exactly (ML-DSA-44 on four lanes) goes side by
        // side, least filled first, so that its entries finish together and each row is
        // out as early as it can be, and fewer lone permutations are left for the end of
        // c̃′. Otherwise lowest entry first, so that slots free up one at a time for the
        // entries still to start. (`filled` ≤ N: row · (N + 1) + filled orders by row,
        // then by filled.)
        let side_by_side = self.l == W;
        slots.sort_unstable_by_key(|s| {
            s.as_ref().map_or(usize::MAX, |e| if side_by_side { e.row * (N + 1) + e.filled } else { e.entry })
        });
        slots.into_iter().flatten().map(|e| e.shake.lane())
    }

    /// After a permutation: samples from every entry's fresh block, and hands each entry
    /// that is complete to `done(r, s, Â[r][s])`, freeing its slot.
    #[cfg_attr(target_arch = "wasm32", inline(never))]
    pub(crate) fn after_permutation(&mut self, mut done: impl FnMut(usize, usize, &Poly)) {
        for (slot, poly) in self.slots.iter_mut().zip(&mut self.polys) {
            let Some(e) = slot else { continue };
            // The kernel reads the block where the sponge holds it: no copy.
            let Some(block) = e.shake.block_lanes() else { continue };
            crate::kernel::rej_sample(block, poly, &mut e.filled);
            if e.filled < N {
                e.shake.next_block();
            } else {
                done(e.row, e.entry - e.row * self.l, poly);
                *slot = None;
            }
        }
    }

    /// Whether every entry has been handed over.
    pub(crate) fn is_done(&self) -> bool {
        self.next == self.entries && self.slots.iter().all(Option::is_none)
    }
}

/// SampleInBall (FIPS 204 Algorithm 29): the challenge c with τ coefficients ±1,
/// seeded by all of c̃.
#[cfg_attr(target_arch = "wasm32", inline(never))]
pub(crate) fn sample_in_ball(c_tilde: &[u8], tau: usize, out: &mut Poly) {
    let mut h = Shake256::new();
    h.absorb(c_tilde);
    let mut reader = h.finalize();
    // The stream never ends: `Some` every time.
    sample_in_ball_from(|| Some(reader.squeeze_byte()), tau, out);
}

/// SampleInBall's loop over the bytes of H(c̃) as `next` hands them out; `false` (with
/// `out` unfinished) if `next` runs out first.
pub(crate) fn sample_in_ball_from(mut next: impl FnMut() -> Option<u8>, tau: usize, out: &mut Poly) -> bool {
    let mut sign_bytes = [0u8; 8];
    for b in &mut sign_bytes {
        let Some(byte) = next() else { return false };
        *b = byte;
    }
    let signs = u64::from_le_bytes(sign_bytes);
    out.0 = [0; N];
    for (t, i) in (N - tau..N).enumerate() {
        let j = loop {
            match next() {
                Some(j) if usize::from(j) <= i => break usize::from(j),
                Some(_) => {}
                None => return false,
            }
        };
        out.0[i] = out.0[j];
        out.0[j] = 1 - 2 * ((signs >> t) & 1) as i32;
    }
    true
}
