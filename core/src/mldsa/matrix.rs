//! Â = ExpandA(ρ) (FIPS 204 Algorithm 32) as SHAKE128 instances in flight, and the
//! one-shot path's use of it: each entry multiplied into its row of Â ∘ NTT(z) as soon
//! as it is complete, so Â is never held.

use super::decode::EncodedKey;
use super::params::{MAX_K, RHO_LEN};
use crate::hash::multi::states::{MAX_KECCAK_STATES, Round, SharedShake128};
use crate::kernel::{pointwise, rej_sample};
use crate::ring::{N, Poly};

/// The entries of Â (Â[r][s] = RejNTTPoly(ρ ‖ s ‖ r)) as SHAKE128 instances, as many
/// expanding at once as a round takes, in row-major order; each entry is handed over
/// as soon as it is complete.
pub(crate) struct MatrixStates<'a> {
    rho: &'a [u8; RHO_LEN],
    l: usize,
    entries: usize,
    next: usize,
    slots: [Option<Expanding>; MAX_KECCAK_STATES],
    /// The occupied slots, `order[..flying]`, in the order their entries started.
    order: [usize; MAX_KECCAK_STATES],
    flying: usize,
    /// Â, row-major, where it is held (a prepared key's): each entry is sampled in its
    /// place.
    a_hat: Option<&'a mut [Poly]>,
    /// Otherwise the slots' polynomials.
    polys: SlotPolys,
}

/// Slot i's polynomial, reused by the slot's next entry: the first four made with the
/// states (every round takes four), the others on first use (only rounds of eight reach
/// them).
struct SlotPolys {
    first: [Poly; 4],
    more: [Option<Poly>; MAX_KECCAK_STATES - 4],
}

/// Where `entry`, in `slot`, is sampled to: filled up to its `filled`, and never
/// cleared before (every coefficient is written before the entry is handed over).
#[inline]
fn entry_poly<'p>(
    a_hat: &'p mut Option<&mut [Poly]>,
    polys: &'p mut SlotPolys,
    slot: usize,
    entry: usize,
) -> Option<&'p mut Poly> {
    match (a_hat, slot.checked_sub(4)) {
        (Some(a_hat), _) => a_hat.get_mut(entry),
        (None, None) => polys.first.get_mut(slot),
        (None, Some(more)) => polys.more.get_mut(more).map(|poly| poly.get_or_insert_with(|| Poly::ZERO)),
    }
}

/// One entry being expanded.
struct Expanding {
    entry: usize,
    /// The entry's row of Â.
    row: usize,
    shake: SharedShake128,
    filled: usize,
}

impl<'a> MatrixStates<'a> {
    /// Â of a k × l matrix over ρ, no entry started yet, each entry handed over from
    /// its slot.
    // Never inlined: it then writes its 10 KiB straight into the caller's place (inlined,
    // it was built aside and copied).
    #[inline(never)]
    pub(crate) fn new(rho: &'a [u8; RHO_LEN], k: usize, l: usize) -> Self {
        Self::with(rho, k, l, None)
    }

    /// Â of a k × l matrix over ρ, each entry sampled in its place in `a_hat`
    /// (row-major, k · l entries).
    pub(crate) fn filling(rho: &'a [u8; RHO_LEN], k: usize, l: usize, a_hat: &'a mut [Poly]) -> Self {
        Self::with(rho, k, l, Some(a_hat))
    }

    /// No entry started yet, each sampled to `a_hat` where it is given.
    #[inline(always)]
    fn with(rho: &'a [u8; RHO_LEN], k: usize, l: usize, a_hat: Option<&'a mut [Poly]>) -> Self {
        MatrixStates {
            rho,
            l,
            entries: k * l,
            next: 0,
            // Each slot set on its own: a constant array of them is copied from a template.
            slots: core::array::from_fn(|_| None),
            order: [0; MAX_KECCAK_STATES],
            flying: 0,
            a_hat,
            polys: SlotPolys { first: [const { Poly::ZERO }; 4], more: core::array::from_fn(|_| None) },
        }
    }

    /// Starts entries in the free slots (as many slots as `round` takes), then offers the
    /// waiting ones, lowest entry first (or, where a row fills the slots, lowest row
    /// first and the least filled of a row first).
    #[cfg_attr(target_arch = "wasm32", inline(never))]
    pub(crate) fn offer<'s, const W: usize>(&'s mut self, round: &mut Round<'s, W>) {
        if self.next < self.entries {
            for (i, slot) in self.slots.iter_mut().take(W).enumerate() {
                if slot.is_none() && self.next < self.entries {
                    let (r, s) = (self.next / self.l, self.next % self.l);
                    // Made in its slot: the sponge is not built elsewhere and copied in.
                    let e =
                        slot.insert(Expanding { entry: self.next, row: r, shake: SharedShake128::new(), filled: 0 });
                    // 34 bytes: one block, so neither call can stop short.
                    e.shake.absorb(self.rho);
                    e.shake.absorb(&[s as u8, r as u8]);
                    e.shake.finish();
                    self.next += 1;
                    self.order[self.flying] = i;
                    self.flying += 1;
                }
            }
        }
        // A row that fills the slots exactly (ML-DSA-44 four at a time) goes side by
        // side, least filled first, so that its entries finish together and each row is
        // out as early as it can be, and fewer lone permutations are left for the end of
        // c̃′. Otherwise lowest entry first, the order they started in, so that slots
        // free up one at a time for the entries still to start.
        if self.l == W {
            // Slot i's key: row · (N + 1) + filled (filled ≤ N), with i in its low three
            // bits; empty slots last. Sorted by a network, without a branch on the keys
            // (whose order changes from round to round and would be mispredicted).
            let mut keys = [u64::MAX; W];
            for (i, (key, slot)) in keys.iter_mut().zip(&self.slots).enumerate() {
                if let Some(e) = slot {
                    *key = ((e.row * (N + 1) + e.filled) << 3 | i) as u64;
                }
            }
            sort_network(&mut keys);
            for (at, key) in self.order.iter_mut().zip(keys).take(self.flying) {
                *at = (key & 7) as usize;
            }
        }
        let order = &self.order[..self.flying];
        let mut slots = self.slots.each_mut().map(Option::as_mut);
        for &i in order.iter() {
            if let Some(e) = slots.get_mut(i).and_then(Option::take) {
                round.offer(e.shake.waiting());
            }
        }
    }

    /// After a round: samples from every entry's fresh block, and hands each entry that
    /// is complete to `done(r, s, Â[r][s])`, freeing its slot.
    #[cfg_attr(target_arch = "wasm32", inline(never))]
    pub(crate) fn take(&mut self, mut done: impl FnMut(usize, usize, &Poly)) {
        // The occupied slots in their order (read in place: a finished entry leaves it).
        let mut at = 0;
        while let Some(&i) = self.order[..self.flying].get(at) {
            at += 1;
            let Some(Some(e)) = self.slots.get_mut(i) else { continue };
            let Some(poly) = entry_poly(&mut self.a_hat, &mut self.polys, i, e.entry) else { continue };
            // The kernel reads the block where the sponge holds it: no copy.
            let Some(block) = e.shake.block_lanes() else { continue };
            rej_sample(block, poly, &mut e.filled);
            if e.filled < N {
                e.shake.next_block();
            } else {
                done(e.row, e.entry - e.row * self.l, poly);
                self.slots[i] = None;
                // Out of the order, which keeps the others' order.
                at -= 1;
                self.order.copy_within(at + 1..self.flying, at);
                self.flying -= 1;
            }
        }
    }

    /// Whether every entry has been handed over.
    pub(crate) fn is_done(&self) -> bool {
        self.next == self.entries && self.slots.iter().all(Option::is_none)
    }
}

/// Sorts `keys` ascending by odd-even transposition: W passes of compare-exchanges
/// (minimum and maximum, no branch).
fn sort_network<const W: usize>(keys: &mut [u64; W]) {
    for pass in 0..W {
        for i in (pass % 2..W.saturating_sub(1)).step_by(2) {
            let (a, b) = (keys[i], keys[i + 1]);
            keys[i] = a.min(b);
            keys[i + 1] = a.max(b);
        }
    }
}

/// Line 5 of Algorithm 8 as the verification goes (the one-shot path): Â's entries
/// expanded beside its other hashes, each multiplied into its row of w = Â ∘ NTT(z) as
/// it completes, so that verification needs no heap.
pub(crate) struct Streamed<'a> {
    pub(crate) key: EncodedKey<'a>,
    pub(crate) entries: MatrixStates<'a>,
    /// Row i of Â ∘ NTT(z), `done[i]` of its entries in.
    w: [Poly; MAX_K],
    done: [usize; MAX_K],
    /// NTT(t1_i · 2^d) of the row being finished.
    t1_hat: Poly,
}

impl<'a> Streamed<'a> {
    /// Nothing expanded yet, for a k × l matrix.
    // Never inlined: it then writes its 18 KiB straight into the caller's place (inlined,
    // it was built aside and copied).
    #[inline(never)]
    pub(crate) fn new(key: EncodedKey<'a>, k: usize, l: usize) -> Self {
        Streamed {
            entries: MatrixStates::new(key.rho, k, l),
            key,
            w: [const { Poly::ZERO }; MAX_K],
            done: [0; MAX_K],
            t1_hat: Poly::ZERO,
        }
    }

    /// Multiplies the entries completed by the last round into their rows.
    pub(crate) fn take(&mut self, z_hat: &[Poly]) {
        let (w, done) = (&mut self.w, &mut self.done);
        self.entries.take(|r, s, a| {
            pointwise(&mut w[r], a, &z_hat[s], false);
            done[r] += 1;
        });
    }

    /// Whether row `i`'s entries are all in (`l` of them).
    pub(crate) fn row_ready(&self, i: usize, l: usize) -> bool {
        self.done[i] == l
    }

    /// Row i of Â ∘ NTT(z) − NTT(c) ∘ NTT(t1·2^d), made in place.
    pub(crate) fn row(&mut self, i: usize, c_hat: &Poly) -> &mut Poly {
        self.key.t1_hat(i, &mut self.t1_hat);
        pointwise(&mut self.w[i], c_hat, &self.t1_hat, true);
        &mut self.w[i]
    }
}
