//! SHAKE instances in flight together: each one's state waits when it needs a
//! permutation, and [`run`] permutes the waiting states of every instance together,
//! as many per kernel call as the kernel set permutes at once (chosen once per run:
//! eight with AVX-512, else four; one alone through the one-state kernel).
//!
//! The work that owns the instances (a verification, a key being prepared) is an
//! [`InFlight`]: it moves on as far as it can, then offers its waiting states to the
//! [`Round`] that the next kernel call permutes. So independent hashes share the vector
//! registers: tr, μ and c̃′ ride beside ExpandA's SHAKE128 instances, and several
//! verifications' hashes share one call. The bytes absorbed and squeezed are those of
//! [`crate::hash::sponge`]'s sponges; the tests check it.

use crate::hash::sponge::{read_bytes, xor_bytes};
pub(crate) use crate::kernel::MAX_KECCAK_STATES;
use crate::kernel::{f1600, f1600x4_each, f1600x8_each, keccak_states};
use crate::kernel_set::Shake128Block;

/// Domain-separation and first padding bits for SHAKE (FIPS 202, Section 6.2).
const SHAKE_DS: u8 = 0x1f;

/// A SHAKE instance with `RATE` bytes of rate whose permutations run in a [`Round`].
#[derive(Clone)]
pub(crate) struct SharedShake<const RATE: usize> {
    held: Held,
    /// Absorbing: bytes XORed into the current block. Squeezing: bytes of it read.
    pos: usize,
    squeezing: bool,
}

/// A Keccak state and whether it waits for a permutation: what a [`Round`] takes.
#[derive(Clone)]
struct Held {
    state: [u64; 25],
    /// A permutation must run before the instance can go on.
    waiting: bool,
}

/// SHAKE128 (G in FIPS 204).
pub(crate) type SharedShake128 = SharedShake<168>;
/// SHAKE256 (H in FIPS 204).
pub(crate) type SharedShake256 = SharedShake<136>;

impl<const RATE: usize> SharedShake<RATE> {
    /// An empty instance, absorbing.
    pub(crate) const fn new() -> Self {
        SharedShake { held: Held { state: [0; 25], waiting: false }, pos: 0, squeezing: false }
    }

    /// Whether it waits for a permutation.
    pub(crate) fn is_waiting(&self) -> bool {
        self.held.waiting
    }

    /// Whether its output can be read: finished, and the permutation after the last
    /// block (or after [`next_block`](Self::next_block)) has run.
    pub(crate) fn is_readable(&self) -> bool {
        self.squeezing && !self.held.waiting
    }

    /// Absorbs the front of `data` up to the end of the current block and returns how
    /// many bytes it took: fewer than `data.len()` when the block filled (it then waits
    /// for a permutation and takes nothing until it has had one).
    // One body in wasm, where the module's size counts.
    #[cfg_attr(target_arch = "wasm32", inline(never))]
    pub(crate) fn absorb(&mut self, data: &[u8]) -> usize {
        if self.held.waiting || self.squeezing {
            return 0;
        }
        let take = (RATE - self.pos).min(data.len());
        xor_bytes(&mut self.held.state, self.pos, &data[..take]);
        self.pos += take;
        if self.pos == RATE {
            self.pos = 0;
            self.held.waiting = true;
        }
        take
    }

    /// Pads the input: after the next permutation the first output block is readable.
    /// `false` (nothing done) while a full block still waits to be permuted.
    pub(crate) fn finish(&mut self) -> bool {
        if self.held.waiting || self.squeezing {
            return false;
        }
        self.held.state[self.pos / 8] ^= u64::from(SHAKE_DS) << (8 * (self.pos % 8));
        self.held.state[(RATE - 1) / 8] ^= 0x80 << (8 * ((RATE - 1) % 8));
        self.squeezing = true;
        self.held.waiting = true;
        true
    }

    /// The first `out.len()` (at most `RATE`) bytes of the current output block.
    pub(crate) fn read(&self, out: &mut [u8]) {
        if self.is_readable() {
            let n = out.len().min(RATE);
            read_bytes(&self.held.state, 0, &mut out[..n]);
        }
    }

    /// Asks for the next output block (after the next permutation).
    pub(crate) fn next_block(&mut self) {
        if self.squeezing {
            self.held.waiting = true;
        }
    }

    /// Permutes it alone (the one-state kernel) if it waits.
    fn permute_if_waiting(&mut self) {
        if self.held.waiting {
            f1600(&mut self.held.state);
            self.held.waiting = false;
        }
    }

    /// Its state, if it waits for a permutation, for a [`Round`].
    pub(crate) fn waiting(&mut self) -> Option<Waiting<'_>> {
        if self.held.waiting { Some(Waiting(&mut self.held)) } else { None }
    }
}

impl SharedShake128 {
    /// The current output block in place, as FIPS 202 lanes (readable instances only).
    pub(crate) fn block_lanes(&self) -> Option<&Shake128Block> {
        if self.is_readable() { self.held.state.first_chunk() } else { None }
    }
}

/// A SHAKE256 with 64 bytes out (tr, μ, c̃′ in FIPS 204), fed its input's parts as they
/// grow, as far as each permutation lets it.
pub(crate) struct FedShake256 {
    shake: SharedShake256,
    /// Bytes of the input absorbed so far.
    fed: usize,
    out: Option<[u8; 64]>,
}

impl FedShake256 {
    /// Nothing absorbed yet.
    pub(crate) const fn new() -> Self {
        FedShake256 { shake: SharedShake256::new(), fed: 0, out: None }
    }

    /// With `prefix` (tr or μ: 64 bytes, less than a block) absorbed before the input.
    pub(crate) fn after(prefix: &[u8]) -> Self {
        let mut shake = SharedShake256::new();
        shake.absorb(prefix);
        FedShake256 { shake, fed: 0, out: None }
    }

    /// Its 64 output bytes once out; until then absorbs what it can of the input
    /// `parts` (the input so far, from its start, each call) and pads once all of it is
    /// in and `last` says no more will come.
    // One body in wasm, where the module's size counts.
    #[cfg_attr(target_arch = "wasm32", inline(never))]
    pub(crate) fn feed(&mut self, parts: &[&[u8]], last: bool) -> Option<&[u8; 64]> {
        if self.out.is_none() {
            if self.shake.is_readable() {
                let mut out = [0u8; 64];
                self.shake.read(&mut out);
                self.out = Some(out);
            } else if absorb(&mut self.shake, parts, &mut self.fed) && last {
                self.shake.finish();
            }
        }
        self.out.as_ref()
    }

    /// Its state, if it waits for a permutation.
    pub(crate) fn waiting(&mut self) -> Option<Waiting<'_>> {
        if self.out.is_some() { None } else { self.shake.waiting() }
    }

    /// Runs to its output on its own, the one-state kernel permuting it block by block:
    /// for a hash with all of its input (`parts`) there and no other to share rounds
    /// with (see [`InFlight::finish_alone`]). The rest of its input goes in a block at a
    /// time.
    // One body in wasm, where the module's size counts.
    #[cfg_attr(target_arch = "wasm32", inline(never))]
    pub(crate) fn finish_alone(&mut self, parts: &[&[u8]]) {
        if self.out.is_some() {
            return;
        }
        let shake = &mut self.shake;
        if !shake.squeezing {
            // Each part's rest a block at a time (not through `absorb`, which would walk
            // the parts again for every block).
            let mut skip = self.fed;
            for part in parts {
                let mut rest = part.get(skip..).unwrap_or_default();
                skip = skip.saturating_sub(part.len());
                while !rest.is_empty() {
                    shake.permute_if_waiting();
                    let taken = shake.absorb(rest);
                    rest = &rest[taken..];
                    self.fed += taken;
                }
            }
            shake.permute_if_waiting();
            shake.finish();
        }
        shake.permute_if_waiting();
        let mut out = [0u8; 64];
        shake.read(&mut out);
        self.out = Some(out);
    }
}

/// Absorbs the concatenation of `parts` from byte `*fed` on, as far as the hash takes
/// it; true when all of it is in (and the hash has room for the padding).
fn absorb(shake: &mut SharedShake256, parts: &[&[u8]], fed: &mut usize) -> bool {
    let mut skip = *fed;
    for part in parts {
        if skip >= part.len() {
            skip -= part.len();
            continue;
        }
        let rest = &part[skip..];
        skip = 0;
        let taken = shake.absorb(rest);
        *fed += taken;
        if shake.is_waiting() || taken < rest.len() {
            return false;
        }
    }
    true
}

/// One instance's state, waiting for a permutation, as a [`Round`] takes it.
pub(crate) struct Waiting<'a>(&'a mut Held);

/// The waiting states that one kernel call permutes: up to `W` (4 or 8, the kernel
/// set's width, fixed per run so that every loop over a round's states is unrolled), in
/// the order offered (the rest wait for a later round).
pub(crate) struct Round<'a, const W: usize> {
    /// The states taken, in the kernels' own form: the first `len` are there.
    states: [Option<&'a mut [u64; 25]>; W],
    len: usize,
}

impl<'a, const W: usize> Round<'a, W> {
    fn new() -> Self {
        Round { states: [const { None }; W], len: 0 }
    }

    /// Takes `state` if it waits and there is room. A state taken stops waiting: the
    /// round permutes it before its instance can be seen again.
    #[inline]
    pub(crate) fn offer(&mut self, state: Option<Waiting<'a>>) {
        if let Some(Waiting(held)) = state
            && let Some(slot) = self.states.get_mut(self.len)
        {
            held.waiting = false;
            *slot = Some(&mut held.state);
            self.len += 1;
        }
    }

    /// Permutes the states taken: together through the four- or eight-state kernel, or
    /// one alone through the one-state kernel. Returns how many ran.
    // One copy per width whatever the callers (in wasm the kernels inline into it once).
    #[inline(never)]
    fn permute(&mut self) -> usize {
        match self.len {
            0 => {}
            1 => {
                if let Some(Some(one)) = self.states.first_mut() {
                    f1600(one);
                }
            }
            2..=4 => {
                if let Some(four) = self.states.first_chunk_mut() {
                    f1600x4_each(four);
                }
            }
            // Five or more only in rounds of eight (W = 4 compiles no eight-state call).
            _ => {
                if let Some(eight) = self.states.first_chunk_mut() {
                    f1600x8_each(eight);
                }
            }
        }
        self.len
    }
}

/// Work whose SHAKE instances run in [`Round`]s: a verification, a key being prepared.
pub(crate) trait InFlight {
    /// What it gives when done.
    type Output;

    /// Moves on as far as it can without a permutation: its output, once (`None` before,
    /// and after). Until then at least one of its instances waits, or waits on another
    /// that does.
    fn advance(&mut self) -> Option<Self::Output>;

    /// Offers its waiting states to `round`, the most urgent first.
    fn offer<'a, const W: usize>(&'a mut self, round: &mut Round<'a, W>);

    /// Runs its one hash left to its end, with all of that hash's input there: true, or
    /// false (nothing done) while more than that is left. [`run_one`] asks it, where a
    /// round would hold that one state each time.
    fn finish_alone(&mut self) -> bool {
        false
    }
}

/// Runs `work` to its end and returns its output.
pub(crate) fn run_one<T: InFlight>(work: &mut T) -> T::Output {
    if MAX_KECCAK_STATES > 4 && keccak_states() == MAX_KECCAK_STATES {
        run_one_in::<T, MAX_KECCAK_STATES>(work)
    } else {
        run_one_in::<T, 4>(work)
    }
}

/// [`run_one`] in rounds of `W` states.
fn run_one_in<T: InFlight, const W: usize>(work: &mut T) -> T::Output {
    loop {
        if let Some(out) = work.advance() {
            return out;
        }
        // A last hash alone runs to its end without rounds.
        if work.finish_alone() {
            continue;
        }
        let mut round = Round::<W>::new();
        work.offer(&mut round);
        let ran = round.permute();
        debug_assert!(ran > 0, "unfinished work with nothing waiting");
    }
}

/// Runs every item of `work` to its end, their waiting states permuted together; each
/// output goes to `done(i, output)` (item i's) as soon as it is out. The items take
/// turns at offering first, so that they move on together and the last rounds are full.
#[cfg(feature = "alloc")]
pub(crate) fn run<T: InFlight>(work: &mut [T], mut done: impl FnMut(usize, T::Output)) {
    for (c, chunk) in work.chunks_mut(u64::BITS as usize).enumerate() {
        run_up_to_64(chunk, |i, out| done(c * u64::BITS as usize + i, out));
    }
}

/// [`run`] on at most 64 items: bit i of a mask says whether item i had a state in the
/// last round (only those can move on).
#[cfg(feature = "alloc")]
fn run_up_to_64<T: InFlight>(work: &mut [T], done: impl FnMut(usize, T::Output)) {
    if MAX_KECCAK_STATES > 4 && keccak_states() == MAX_KECCAK_STATES {
        run_up_to_64_in::<T, MAX_KECCAK_STATES>(work, done)
    } else {
        run_up_to_64_in::<T, 4>(work, done)
    }
}

/// [`run_up_to_64`] in rounds of `W` states.
#[cfg(feature = "alloc")]
fn run_up_to_64_in<T: InFlight, const W: usize>(work: &mut [T], mut done: impl FnMut(usize, T::Output)) {
    let (count, mut left, mut first, mut moved) = (work.len(), work.len(), 0, u64::MAX);
    loop {
        for (i, item) in work.iter_mut().enumerate() {
            if moved & (1 << i) != 0
                && let Some(out) = item.advance()
            {
                done(i, out);
                left -= 1;
            }
        }
        if left == 0 {
            return;
        }
        let mut round = Round::<W>::new();
        let (before, after) = work.split_at_mut(first);
        let (mut next, mut taken_from) = (first, 0u64);
        for (j, item) in after.iter_mut().chain(before).enumerate() {
            let taken = round.len;
            item.offer(&mut round);
            if round.len > taken {
                let i = (first + j) % count;
                taken_from |= 1 << i;
                next = i + 1;
            }
        }
        (first, moved) = (next % count, taken_from);
        let ran = round.permute();
        debug_assert!(ran > 0, "unfinished work with nothing waiting");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::{Shake128, Shake256};
    use crate::kernel::f1600x4;
    use crate::kernel_set::StateX4;

    /// One round of `capacity` over `states`, offered in order; how many ran.
    fn round<'a, const N: usize>(states: [Option<Waiting<'a>>; N]) -> usize {
        let mut round = Round::<4>::new();
        for state in states {
            round.offer(state);
        }
        round.permute()
    }

    /// Feeds `data` and reads `out.len()` bytes, permuting in rounds beside `others`
    /// (which keep their own progress).
    fn through_rounds<const RATE: usize>(data: &[u8], out: &mut [u8]) {
        let mut x = SharedShake::<RATE>::new();
        // Three companions that always wait, so every permutation is a four-state one.
        let mut others = [SharedShake128::new(), SharedShake128::new(), SharedShake128::new()];
        let mut rest = data;
        while !rest.is_empty() {
            rest = &rest[x.absorb(rest)..];
            if x.is_waiting() {
                for o in &mut others {
                    o.held.waiting = true;
                }
                let [a, b, c] = &mut others;
                assert_eq!(round([x.waiting(), a.waiting(), b.waiting(), c.waiting()]), 4);
            }
        }
        assert!(x.finish());
        let mut done = 0;
        while done < out.len() {
            assert_eq!(round([x.waiting()]), 1);
            let mut block = [0u8; RATE];
            x.read(&mut block);
            let n = (out.len() - done).min(RATE);
            out[done..done + n].copy_from_slice(&block[..n]);
            done += n;
            x.next_block();
        }
    }

    #[test]
    fn every_kernel_matches_the_portable_one() {
        let mut x = 0x0123_4567_89ab_cdefu64;
        let states: StateX4 = core::array::from_fn(|_| {
            core::array::from_fn(|_| {
                x = x.rotate_left(7).wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(1);
                x
            })
        });
        for live in 1..=4 {
            let (mut a, mut b) = (states, states);
            for _ in 0..3 {
                f1600x4(&mut a, live);
                crate::portable::keccak::f1600x4(&mut b, live);
            }
            for (a, b) in a.iter().zip(&b) {
                assert_eq!(a[..live], b[..live], "kernel {}, {live} live", crate::kernel::name());
            }
        }
    }

    #[test]
    fn the_kernel_on_separate_states_permutes_each_one_present() {
        let mut x = 0x0fed_cba9_8765_4321u64;
        let mut next = || {
            x = x.rotate_left(9).wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(3);
            x
        };
        // Every choice of two to four states present.
        for present in (0u32..16).filter(|p| p.count_ones() >= 2) {
            let original: [[u64; 25]; 4] = core::array::from_fn(|_| core::array::from_fn(|_| next()));
            let mut got = original;
            let mut states: [Option<&mut [u64; 25]>; 4] = [None, None, None, None];
            for (j, (slot, state)) in states.iter_mut().zip(&mut got).enumerate() {
                if present & (1 << j) != 0 {
                    *slot = Some(state);
                }
            }
            f1600x4_each(&mut states);
            for (j, (got, original)) in got.iter().zip(&original).enumerate() {
                let mut want = *original;
                if present & (1 << j) != 0 {
                    crate::portable::keccak::f1600(&mut want);
                }
                assert_eq!(got, &want, "kernel {}, states {present:04b}, state {j}", crate::kernel::name());
            }
        }
    }

    #[test]
    fn a_full_round_permutes_each_waiting_state_on_every_kernel_set() {
        // A round of the build's most states (eight on x86-64) on every set this CPU has:
        // the eight-state kernel where the set has it, else (a set switched since the
        // round's width was chosen) four at a time.
        for &set in crate::kernel::names() {
            crate::kernel::force(Some(set)).expect("a set this CPU has");
            for waiting in 1..=MAX_KECCAK_STATES {
                let mut shakes: [SharedShake256; 8] = core::array::from_fn(|j| {
                    let mut s = SharedShake256::new();
                    s.absorb(&[j as u8 + 1; 136]);
                    s
                });
                let originals: [[u64; 25]; 8] = core::array::from_fn(|j| shakes[j].held.state);
                for (j, s) in shakes.iter_mut().enumerate() {
                    s.held.waiting = j < waiting;
                }
                let mut all = Round::<MAX_KECCAK_STATES>::new();
                for s in &mut shakes {
                    all.offer(s.waiting());
                }
                assert_eq!(all.permute(), waiting);
                for (j, (s, original)) in shakes.iter().zip(originals).enumerate() {
                    let mut want = original;
                    if j < waiting {
                        crate::portable::keccak::f1600(&mut want);
                    }
                    assert_eq!(s.held.state, want, "set {set}, {waiting} waiting, state {j}");
                    assert!(!s.held.waiting);
                }
            }
        }
        crate::kernel::force(None).expect("the detected set");
    }

    #[test]
    fn shared_shakes_give_the_sponges_bytes() {
        for len in [0, 1, 135, 136, 137, 167, 168, 169, 300, 1312, 1952, 2592] {
            let data: std::vec::Vec<u8> = (0..len).map(|i| (i * 13 + 5) as u8).collect();
            let mut got = [0u8; 400];
            let mut want = [0u8; 400];
            through_rounds::<136>(&data, &mut got);
            Shake256::digest(&[&data], &mut want);
            assert_eq!(got, want, "SHAKE256 of {len} bytes");
            through_rounds::<168>(&data, &mut got);
            Shake128::digest(&[&data], &mut want);
            assert_eq!(got, want, "SHAKE128 of {len} bytes");
        }
    }

    #[test]
    fn a_waiting_instance_takes_nothing_until_permuted() {
        let mut x = SharedShake256::new();
        assert_eq!(x.absorb(&[7; 200]), 136);
        assert!(x.is_waiting());
        assert_eq!(x.absorb(&[7; 10]), 0);
        assert!(!x.finish());
        assert_eq!(round([x.waiting()]), 1);
        assert_eq!(x.absorb(&[7; 64]), 64);
        assert!(!x.is_waiting() && !x.is_readable());
        assert!(x.finish());
        assert!(!x.is_readable());
        // Not waiting instances are not permuted.
        let mut y = SharedShake256::new();
        assert_eq!(round([y.waiting(), x.waiting()]), 1);
        assert!(x.is_readable());
        let mut want = [0u8; 32];
        Shake256::digest(&[&[7; 200]], &mut want);
        let mut got = [0u8; 32];
        x.read(&mut got);
        assert_eq!(got, want);
    }

    #[test]
    fn fed_shakes_give_the_sponges_bytes_fed_in_pieces_in_rounds_or_alone() {
        let prefix = [5u8; 64];
        for len in [0, 1, 71, 72, 73, 144, 200, 768, 1024] {
            let data: std::vec::Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
            let mut want = [0u8; 64];
            Shake256::digest(&[&prefix, &data], &mut want);
            // In rounds, its input growing by 50 bytes at a time.
            let mut h = FedShake256::after(&prefix);
            let mut have = 0;
            let got = loop {
                have = (have + 50).min(len);
                if let Some(out) = h.feed(&[&data[..have.min(len / 2)], &data[len / 2..have.max(len / 2)]], have == len)
                {
                    break *out;
                }
                round([h.waiting()]);
            };
            assert_eq!(got, want, "{len} bytes in rounds");
            // Alone, all of its input there.
            let mut h = FedShake256::after(&prefix);
            h.finish_alone(&[&data]);
            assert_eq!(h.feed(&[&data], true), Some(&want), "{len} bytes alone");
            // Its first `part` bytes in rounds, not yet known to be all (left waiting where
            // they fill a block: 72 after the prefix), the rest and the padding alone.
            for part in [len / 2, len] {
                let mut h = FedShake256::after(&prefix);
                h.feed(&[&data[..part]], false);
                while h.fed < part {
                    round([h.waiting()]);
                    h.feed(&[&data[..part]], false);
                }
                h.finish_alone(&[&data]);
                assert_eq!(h.feed(&[&data], true), Some(&want), "{len} bytes, {part} in rounds, then alone");
            }
        }
    }
}
