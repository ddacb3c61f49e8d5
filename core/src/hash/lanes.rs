//! SHAKE instances that do not permute themselves: each waits when it needs a
//! permutation, and [`permute_waiting`] runs up to four waiting instances through one
//! call of the four-state kernel (up to eight through the eight-state one where the
//! kernel set has it; one alone through the one-state kernel).
//!
//! This lets independent hashes share the vector lanes: a lone sponge (tr over a public
//! key, μ, c̃′) rides beside ExpandA's SHAKE128 instances instead of running on its own.
//! The bytes absorbed and squeezed are those of [`super::Sponge`]; the tests check it.

use super::sponge::{read_bytes, xor_bytes};
use crate::kernel::{f1600, f1600x4_each, f1600x8_each};
use crate::kernel_set::Shake128Block;

/// Domain-separation and first padding bits for SHAKE (FIPS 202, Section 6.2).
const SHAKE_DS: u8 = 0x1f;

/// A SHAKE instance with `RATE` bytes of rate whose permutations are run by its owner
/// through [`permute_waiting`].
#[derive(Clone)]
pub(crate) struct LaneShake<const RATE: usize> {
    state: [u64; 25],
    /// Absorbing: bytes XORed into the current block. Squeezing: bytes of it read.
    pos: usize,
    squeezing: bool,
    /// A permutation must run before the instance can go on.
    waiting: bool,
}

/// SHAKE128 (G in FIPS 204).
pub(crate) type LaneShake128 = LaneShake<168>;
/// SHAKE256 (H in FIPS 204).
pub(crate) type LaneShake256 = LaneShake<136>;

impl<const RATE: usize> LaneShake<RATE> {
    /// The rate in bytes.
    pub(crate) const RATE: usize = RATE;

    /// An empty instance, absorbing.
    pub(crate) const fn new() -> Self {
        LaneShake { state: [0; 25], pos: 0, squeezing: false, waiting: false }
    }

    /// Whether it waits for a permutation.
    pub(crate) fn is_waiting(&self) -> bool {
        self.waiting
    }

    /// Whether its output can be read: finished, and the permutation after the last
    /// block (or after [`next_block`](Self::next_block)) has run.
    pub(crate) fn is_readable(&self) -> bool {
        self.squeezing && !self.waiting
    }

    /// Absorbs the front of `data` up to the end of the current block and returns how
    /// many bytes it took: fewer than `data.len()` when the block filled (it then waits
    /// for a permutation and takes nothing until it has had one).
    pub(crate) fn absorb(&mut self, data: &[u8]) -> usize {
        if self.waiting || self.squeezing {
            return 0;
        }
        let take = (RATE - self.pos).min(data.len());
        xor_bytes(&mut self.state, self.pos, &data[..take]);
        self.pos += take;
        if self.pos == RATE {
            self.pos = 0;
            self.waiting = true;
        }
        take
    }

    /// Pads the input: after the next permutation the first output block is readable.
    /// `false` (nothing done) while a full block still waits to be permuted.
    pub(crate) fn finish(&mut self) -> bool {
        if self.waiting || self.squeezing {
            return false;
        }
        self.state[self.pos / 8] ^= u64::from(SHAKE_DS) << (8 * (self.pos % 8));
        self.state[(RATE - 1) / 8] ^= 0x80 << (8 * ((RATE - 1) % 8));
        self.squeezing = true;
        self.waiting = true;
        true
    }

    /// The current output block (readable instances only; empty otherwise).
    pub(crate) fn block(&self, out: &mut [u8; RATE]) {
        if self.is_readable() {
            read_bytes(&self.state, 0, out);
        }
    }

    /// The first `out.len()` (at most `RATE`) bytes of the current output block.
    pub(crate) fn read(&self, out: &mut [u8]) {
        if self.is_readable() {
            let n = out.len().min(RATE);
            read_bytes(&self.state, 0, &mut out[..n]);
        }
    }

    /// Asks for the next output block (after the next permutation).
    pub(crate) fn next_block(&mut self) {
        if self.squeezing {
            self.waiting = true;
        }
    }

    /// Its state, for [`permute_waiting`].
    pub(crate) fn lane(&mut self) -> Lane<'_> {
        Lane { state: &mut self.state, waiting: &mut self.waiting }
    }
}

impl LaneShake128 {
    /// The current output block in place, as lanes (readable instances only).
    pub(crate) fn block_lanes(&self) -> Option<&Shake128Block> {
        if self.is_readable() { self.state.first_chunk() } else { None }
    }
}

/// One instance's state and its waiting flag, as [`permute_waiting`] takes them.
pub(crate) struct Lane<'a> {
    state: &'a mut [u64; 25],
    waiting: &'a mut bool,
}

impl Lane<'_> {
    /// Whether the instance waits for a permutation.
    pub(crate) fn is_waiting(&self) -> bool {
        *self.waiting
    }
}

/// Permutes every waiting instance among `lanes` (at most `W` are taken, in order; the
/// rest keep waiting) and returns how many ran: together through the four-state kernel
/// (or, `W` = 8, the eight-state one: only where the set has it, see
/// `kernel::keccak_lanes`), or one alone through the one-state kernel.
pub(crate) fn permute_waiting<'a, const W: usize>(lanes: impl IntoIterator<Item = Lane<'a>>) -> usize {
    let mut taken: [Option<Lane<'a>>; W] = [const { None }; W];
    let mut live = 0;
    for lane in lanes.into_iter().filter(Lane::is_waiting) {
        taken[live] = Some(lane);
        live += 1;
        if live == W {
            break;
        }
    }
    permute_taken(&mut taken, live)
}

/// [`permute_waiting`]'s work on the lanes it took, the first `live` of `taken`: one
/// copy whatever the callers' iterators (in wasm the kernels inline into it once).
#[inline(never)]
fn permute_taken<const W: usize>(taken: &mut [Option<Lane<'_>>; W], live: usize) -> usize {
    match (live, &mut taken[..]) {
        (0, _) => {}
        (1, [Some(lane), ..]) => f1600(lane.state),
        (2..=4, [l0, l1, l2, l3, ..]) => f1600x4_each(&mut [state(l0), state(l1), state(l2), state(l3)]),
        // Five or more are taken only by callers with W = 8, who asked whether the set has
        // the eight-state kernel (`f1600x8_each` goes four at a time if it was switched since).
        (_, lanes) if W > 4 => {
            let mut states: [Option<&mut [u64; 25]>; 8] = [const { None }; 8];
            for (to, lane) in states.iter_mut().zip(lanes.iter_mut()) {
                *to = state(lane);
            }
            f1600x8_each(&mut states);
        }
        // W = 4 takes at most four.
        _ => {}
    }
    for lane in taken.iter_mut().flatten() {
        *lane.waiting = false;
    }
    live
}

/// The state of a taken lane, for the kernels.
fn state<'s>(lane: &'s mut Option<Lane<'_>>) -> Option<&'s mut [u64; 25]> {
    lane.as_mut().map(|lane| &mut *lane.state)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::{Shake128, Shake256};
    use crate::kernel::f1600x4;
    use crate::kernel_set::StateX4;

    /// Feeds `data` and reads `out.len()` bytes, permuting through `permute_waiting`
    /// beside `others` (which keep their own progress).
    fn run<const RATE: usize>(data: &[u8], out: &mut [u8]) {
        let mut x = LaneShake::<RATE>::new();
        // Three companions that always wait, so every permutation is a four-state one.
        let mut others = [LaneShake::<168>::new(), LaneShake::<168>::new(), LaneShake::<168>::new()];
        let mut rest = data;
        while !rest.is_empty() {
            rest = &rest[x.absorb(rest)..];
            if x.is_waiting() {
                for o in &mut others {
                    o.waiting = true;
                }
                let [a, b, c] = &mut others;
                assert_eq!(permute_waiting::<4>([x.lane(), a.lane(), b.lane(), c.lane()]), 4);
            }
        }
        assert!(x.finish());
        let mut done = 0;
        while done < out.len() {
            assert_eq!(permute_waiting::<4>([x.lane()]), 1);
            let mut block = [0u8; RATE];
            x.block(&mut block);
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
        // Every choice of two to four lanes present.
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
                assert_eq!(got, &want, "kernel {}, lanes {present:04b}, lane {j}", crate::kernel::name());
            }
        }
    }

    #[test]
    fn eight_waiting_lanes_are_each_permuted_on_every_kernel_set() {
        // W = 8 on every set this CPU has: the eight-state kernel where the set has it,
        // else (a set switched after the caller asked) four at a time.
        for &set in crate::kernel::names() {
            crate::kernel::force(Some(set)).expect("a set this CPU has");
            for waiting in 1..=8usize {
                let mut shakes: [LaneShake256; 8] = core::array::from_fn(|j| {
                    let mut s = LaneShake256::new();
                    s.absorb(&[j as u8 + 1; 136]);
                    s
                });
                let originals: [[u64; 25]; 8] = core::array::from_fn(|j| shakes[j].state);
                for (j, s) in shakes.iter_mut().enumerate() {
                    s.waiting = j < waiting;
                }
                assert_eq!(permute_waiting::<8>(shakes.iter_mut().map(LaneShake::lane)), waiting);
                for (j, (s, original)) in shakes.iter().zip(originals).enumerate() {
                    let mut want = original;
                    if j < waiting {
                        crate::portable::keccak::f1600(&mut want);
                    }
                    assert_eq!(s.state, want, "set {set}, {waiting} waiting, lane {j}");
                    assert!(!s.waiting);
                }
            }
        }
        crate::kernel::force(None).expect("the detected set");
    }

    #[test]
    fn lane_shakes_give_the_sponges_bytes() {
        for len in [0, 1, 135, 136, 137, 167, 168, 169, 300, 1312, 1952, 2592] {
            let data: std::vec::Vec<u8> = (0..len).map(|i| (i * 13 + 5) as u8).collect();
            let mut got = [0u8; 400];
            let mut want = [0u8; 400];
            run::<136>(&data, &mut got);
            Shake256::digest(&[&data], &mut want);
            assert_eq!(got, want, "SHAKE256 of {len} bytes");
            run::<168>(&data, &mut got);
            Shake128::digest(&[&data], &mut want);
            assert_eq!(got, want, "SHAKE128 of {len} bytes");
        }
    }

    #[test]
    fn a_waiting_instance_takes_nothing_until_permuted() {
        let mut x = LaneShake256::new();
        assert_eq!(x.absorb(&[7; 200]), 136);
        assert!(x.is_waiting());
        assert_eq!(x.absorb(&[7; 10]), 0);
        assert!(!x.finish());
        assert_eq!(permute_waiting::<4>([x.lane()]), 1);
        assert_eq!(x.absorb(&[7; 64]), 64);
        assert!(!x.is_waiting() && !x.is_readable());
        assert!(x.finish());
        assert!(!x.is_readable());
        // Not waiting instances are not permuted.
        let mut y = LaneShake256::new();
        assert_eq!(permute_waiting::<4>([y.lane(), x.lane()]), 1);
        assert!(x.is_readable());
        let mut want = [0u8; 32];
        Shake256::digest(&[&[7; 200]], &mut want);
        let mut got = [0u8; 32];
        x.read(&mut got);
        assert_eq!(got, want);
    }
}
