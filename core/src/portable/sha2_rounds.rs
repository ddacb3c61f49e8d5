//! The SHA-2 compression function (FIPS 180-4, Sections 6.2.2 and 6.4.2) written once,
//! generic over the size (SHA-256 or SHA-512: word width, constants, σ functions) and
//! over the word: a scalar for one block, or a vector of several words side by side for
//! as many independent blocks (wasm simd128's `sha256`, `sha512`).
//!
//! The rounds are written out (a macro per round, the eight working variables renamed
//! instead of moved) so that every word lives in a local: in wasm, locals instead of
//! loads and stores to the stack.

/// The bitwise operations of a word, whatever its width (a vector's are the same for
/// any lane width).
pub(crate) trait Bits: Copy {
    /// self ⊕ other.
    fn xor(self, other: Self) -> Self;
    /// self ∧ other.
    fn and(self, other: Self) -> Self;
    /// self ∨ other.
    fn or(self, other: Self) -> Self;
    /// ¬self ∧ other.
    fn andn(self, other: Self) -> Self;
}

/// A word of `S` (`u32` for SHA-256, `u64` for SHA-512), or several side by side (one
/// per block).
pub(crate) trait Word<S>: Bits {
    /// Addition modulo 2^bits, lane by lane.
    fn add(self, other: Self) -> Self;
    /// Logical shift right by `R`.
    fn shr<const R: u32>(self) -> Self;
    /// Rotation right by `R` (0 < R < bits).
    fn rotr<const R: u32>(self) -> Self;
    /// `value` in every lane.
    fn splat(value: S) -> Self;
}

macro_rules! scalar_word {
    ($t:ty) => {
        impl Bits for $t {
            #[inline(always)]
            fn xor(self, other: Self) -> Self {
                self ^ other
            }
            #[inline(always)]
            fn and(self, other: Self) -> Self {
                self & other
            }
            #[inline(always)]
            fn or(self, other: Self) -> Self {
                self | other
            }
            #[inline(always)]
            fn andn(self, other: Self) -> Self {
                !self & other
            }
        }

        impl Word<$t> for $t {
            #[inline(always)]
            fn add(self, other: Self) -> Self {
                self.wrapping_add(other)
            }
            #[inline(always)]
            fn shr<const R: u32>(self) -> Self {
                self >> R
            }
            #[inline(always)]
            fn rotr<const R: u32>(self) -> Self {
                self.rotate_right(R)
            }
            #[inline(always)]
            fn splat(value: $t) -> Self {
                value
            }
        }
    };
}
scalar_word!(u32);
scalar_word!(u64);

/// What distinguishes SHA-256 from SHA-512 in the compression: the word, the round
/// constants (one per round) and the four σ functions.
pub(crate) trait Size {
    /// `u32` or `u64`.
    type Scalar: Copy + 'static;
    /// K, one per round (64 or 80).
    const K: &'static [Self::Scalar];
    /// Σ0.
    fn big_sigma0<W: Word<Self::Scalar>>(x: W) -> W;
    /// Σ1.
    fn big_sigma1<W: Word<Self::Scalar>>(x: W) -> W;
    /// σ0.
    fn small_sigma0<W: Word<Self::Scalar>>(x: W) -> W;
    /// σ1.
    fn small_sigma1<W: Word<Self::Scalar>>(x: W) -> W;
}

/// Step 1 for t ≥ 16: the schedule's word t from the ring `w` of the last sixteen, where
/// it goes at j = t mod 16 (W_t = σ1(W_t−2) + W_t−7 + σ0(W_t−15) + W_t−16).
#[inline(always)]
fn next_word<Z: Size, W: Word<Z::Scalar>>(w: &[W; 16], j: usize) -> W {
    w[j].add(Z::small_sigma1(w[(j + 14) % 16])).add(w[(j + 9) % 16]).add(Z::small_sigma0(w[(j + 1) % 16]))
}

/// Step 3's T1 = h + Σ1(e) + Ch(e, f, g) + K_t + W_t and T2 = Σ0(a) + Maj(a, b, c).
#[inline(always)]
fn t1_t2<Z: Size, W: Word<Z::Scalar>>([a, b, c]: [W; 3], [e, f, g, h]: [W; 4], k: W, w: W) -> (W, W) {
    // Ch(e, f, g) = (e ∧ f) ⊕ (¬e ∧ g).
    let ch = e.and(f).xor(e.andn(g));
    // Maj(a, b, c) = (a ∧ b) ⊕ (a ∧ c) ⊕ (b ∧ c), as (a ∧ b) ∨ (c ∧ (a ∨ b)).
    let maj = a.and(b).or(c.and(a.or(b)));
    (h.add(Z::big_sigma1(e)).add(ch).add(k).add(w), Z::big_sigma0(a).add(maj))
}

/// Compresses one 16-word block (already big-endian-decoded) into `state`.
#[inline(always)]
pub(crate) fn compress<Z: Size, W: Word<Z::Scalar>>(state: &mut [W; 8], block: [W; 16]) {
    let mut w = block;
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
    // One round t = 16·i + j (step 3 of 6.2.2 and 6.4.2), with the schedule's next word
    // computed in place for t ≥ 16 (step 1): d and h are the only variables written. `j` is a
    // literal, so every index into `w` is a constant and the 16 words stay in locals.
    macro_rules! round {
        ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $i:expr, $j:literal) => {
            if $i > 0 {
                w[$j] = next_word::<Z, W>(&w, $j);
            }
            let (t1, t2) = t1_t2::<Z, W>([$a, $b, $c], [$e, $f, $g, $h], W::splat(Z::K[16 * $i + $j]), w[$j]);
            $d = $d.add(t1);
            $h = t1.add(t2);
        };
    }
    // Sixteen rounds; after eight the variables are back in their places.
    macro_rules! sixteen_rounds {
        ($i:expr) => {
            round!(a, b, c, d, e, f, g, h, $i, 0);
            round!(h, a, b, c, d, e, f, g, $i, 1);
            round!(g, h, a, b, c, d, e, f, $i, 2);
            round!(f, g, h, a, b, c, d, e, $i, 3);
            round!(e, f, g, h, a, b, c, d, $i, 4);
            round!(d, e, f, g, h, a, b, c, $i, 5);
            round!(c, d, e, f, g, h, a, b, $i, 6);
            round!(b, c, d, e, f, g, h, a, $i, 7);
            round!(a, b, c, d, e, f, g, h, $i, 8);
            round!(h, a, b, c, d, e, f, g, $i, 9);
            round!(g, h, a, b, c, d, e, f, $i, 10);
            round!(f, g, h, a, b, c, d, e, $i, 11);
            round!(e, f, g, h, a, b, c, d, $i, 12);
            round!(d, e, f, g, h, a, b, c, $i, 13);
            round!(c, d, e, f, g, h, a, b, $i, 14);
            round!(b, c, d, e, f, g, h, a, $i, 15);
        };
    }
    // Rounds 0–15 take the block's words, the others (to 63 or 79) extend the schedule
    // as they go: one copy of sixteen rounds in a loop, which keeps the module small.
    for i in 0..Z::K.len() / 16 {
        sixteen_rounds!(i);
    }
    // Step 4.
    for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
        *s = s.add(v);
    }
}

/// The same compression with one round per pass of a loop, block word `i` given by
/// `block_word(i)`: in wasm a fraction of the written-out rounds' code, and slower per
/// block in V8. For a wasm module whose only SHA-2
/// is HashML-DSA's pre-hash (the ML-DSA module, which has no SLH-DSA-SHA2 to feed), where
/// size counts and the pre-hash of a short message costs microseconds either way.
#[cfg(any(test, all(target_arch = "wasm32", target_feature = "simd128", not(feature = "slh-dsa"))))]
#[inline(always)]
pub(crate) fn compress_rolled<Z: Size>(state: &mut [Z::Scalar; 8], block_word: impl Fn(usize) -> Z::Scalar)
where
    Z::Scalar: Word<Z::Scalar> + Default,
{
    let mut w = [Z::Scalar::default(); 16];
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
    for (t, &k) in Z::K.iter().enumerate() {
        // Step 1, in a ring of the last sixteen words (the block's words decoded as they
        // are needed: one decoding in the loop, not sixteen).
        let j = t % 16;
        w[j] = if t < 16 { block_word(j) } else { next_word::<Z, _>(&w, j) };
        // Step 3.
        let (t1, t2) = t1_t2::<Z, _>([a, b, c], [e, f, g, h], k, w[j]);
        (h, g, f, e, d, c, b, a) = (g, f, e, d.add(t1), c, b, a, t1.add(t2));
    }
    // Step 4.
    for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
        *s = s.add(v);
    }
}
