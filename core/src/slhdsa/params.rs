//! SLH-DSA parameter sets as data (FIPS 205, Table 2).

/// Which instantiation of the hash functions a set uses (FIPS 205, Section 11).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HashFamily {
    /// SHAKE256 throughout (Section 11.1).
    Shake,
    /// SHA-256 (and SHA-512 for categories 3 and 5) with MGF1 (Section 11.2).
    Sha2,
}

/// log2 of the Winternitz parameter w (16 for every approved set).
pub(crate) const LG_W: usize = 4;
/// The Winternitz parameter w.
pub(crate) const W: usize = 1 << LG_W;
/// The largest n of any set.
pub(crate) const MAX_N: usize = 32;
/// The largest number of FORS trees k of any set.
pub(crate) const MAX_K: usize = 35;
/// The largest message-digest length m of any set.
pub(crate) const MAX_M: usize = 49;

/// The per-set constants.
#[derive(Debug)]
pub(crate) struct Params {
    /// Security parameter: bytes per hash output.
    pub(crate) n: usize,
    /// Total height of the hypertree.
    pub(crate) h: usize,
    /// Layers of the hypertree.
    pub(crate) d: usize,
    /// Height of each XMSS tree, h′ = h/d.
    pub(crate) hp: usize,
    /// Height of each FORS tree.
    pub(crate) a: usize,
    /// Number of FORS trees.
    pub(crate) k: usize,
    /// Bytes of the message digest H_msg.
    pub(crate) m: usize,
    /// The hash instantiation.
    pub(crate) hash: HashFamily,
}

impl Params {
    const fn new(n: usize, h: usize, d: usize, a: usize, k: usize, hash: HashFamily) -> Params {
        let hp = h / d;
        // m = ⌈k·a/8⌉ + ⌈(h − h′)/8⌉ + ⌈h′/8⌉ (FIPS 205, Section 9.2).
        let m = (k * a).div_ceil(8) + (h - hp).div_ceil(8) + hp.div_ceil(8);
        Params { n, h, d, hp, a, k, m, hash }
    }

    /// len1 = 8n / lg w: message digits of a WOTS+ signature (Equation 5.1).
    pub(crate) const fn len1(&self) -> usize {
        8 * self.n / LG_W
    }

    /// len2 = ⌊log2(len1·(w − 1)) / lg w⌋ + 1: checksum digits (Equation 5.2).
    pub(crate) const fn len2(&self) -> usize {
        let max_checksum = self.len1() * (W - 1);
        let log2 = (usize::BITS - 1 - max_checksum.leading_zeros()) as usize;
        log2 / LG_W + 1
    }

    /// len = len1 + len2: hash chains per WOTS+ key.
    pub(crate) const fn len(&self) -> usize {
        self.len1() + self.len2()
    }

    /// Bytes of a FORS signature: k·(1 + a)·n.
    pub(crate) const fn fors_sig_len(&self) -> usize {
        self.k * (1 + self.a) * self.n
    }

    /// Bytes of one XMSS signature: (h′ + len)·n.
    pub(crate) const fn xmss_sig_len(&self) -> usize {
        (self.hp + self.len()) * self.n
    }

    /// pk = PK.seed ‖ PK.root.
    pub(crate) const fn public_key_len(&self) -> usize {
        2 * self.n
    }

    /// (1 + k(1 + a) + h + d·len)·n (FIPS 205, Table 2).
    pub(crate) const fn signature_len(&self) -> usize {
        self.n + self.fors_sig_len() + self.d * self.xmss_sig_len()
    }

    /// Bytes of the digest that select the FORS leaves: ⌈k·a/8⌉.
    pub(crate) const fn md_len(&self) -> usize {
        (self.k * self.a).div_ceil(8)
    }

    /// Bytes of the digest that select the XMSS tree: ⌈(h − h′)/8⌉.
    pub(crate) const fn tree_idx_len(&self) -> usize {
        (self.h - self.hp).div_ceil(8)
    }

    /// Bytes of the digest that select the leaf: ⌈h′/8⌉.
    pub(crate) const fn leaf_idx_len(&self) -> usize {
        self.hp.div_ceil(8)
    }

    /// Categories 3 and 5 of SLH-DSA-SHA2 use SHA-512 for H_msg, H and T_l (Section 11.2.2).
    pub(crate) const fn sha2_uses_sha512(&self) -> bool {
        self.n > 16
    }
}

use HashFamily::{Sha2, Shake};

/// SLH-DSA-SHA2-128s.
pub(crate) const SHA2_128S: Params = Params::new(16, 63, 7, 12, 14, Sha2);
/// SLH-DSA-SHAKE-128s.
pub(crate) const SHAKE_128S: Params = Params::new(16, 63, 7, 12, 14, Shake);
/// SLH-DSA-SHA2-128f.
pub(crate) const SHA2_128F: Params = Params::new(16, 66, 22, 6, 33, Sha2);
/// SLH-DSA-SHAKE-128f.
pub(crate) const SHAKE_128F: Params = Params::new(16, 66, 22, 6, 33, Shake);
/// SLH-DSA-SHA2-192s.
pub(crate) const SHA2_192S: Params = Params::new(24, 63, 7, 14, 17, Sha2);
/// SLH-DSA-SHAKE-192s.
pub(crate) const SHAKE_192S: Params = Params::new(24, 63, 7, 14, 17, Shake);
/// SLH-DSA-SHA2-192f.
pub(crate) const SHA2_192F: Params = Params::new(24, 66, 22, 8, 33, Sha2);
/// SLH-DSA-SHAKE-192f.
pub(crate) const SHAKE_192F: Params = Params::new(24, 66, 22, 8, 33, Shake);
/// SLH-DSA-SHA2-256s.
pub(crate) const SHA2_256S: Params = Params::new(32, 64, 8, 14, 22, Sha2);
/// SLH-DSA-SHAKE-256s.
pub(crate) const SHAKE_256S: Params = Params::new(32, 64, 8, 14, 22, Shake);
/// SLH-DSA-SHA2-256f.
pub(crate) const SHA2_256F: Params = Params::new(32, 68, 17, 9, 35, Sha2);
/// SLH-DSA-SHAKE-256f.
pub(crate) const SHAKE_256F: Params = Params::new(32, 68, 17, 9, 35, Shake);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_match_fips_205_table_2() {
        for (p, m, sig) in [
            (&SHA2_128S, 30, 7856),
            (&SHA2_128F, 34, 17088),
            (&SHA2_192S, 39, 16224),
            (&SHA2_192F, 42, 35664),
            (&SHA2_256S, 47, 29792),
            (&SHA2_256F, 49, 49856),
        ] {
            assert_eq!(p.m, m);
            assert!(p.m <= MAX_M && p.n <= MAX_N && p.k <= MAX_K);
            assert_eq!(p.signature_len(), sig);
            assert_eq!(p.len2(), 3);
            assert_eq!(p.hp * p.d, p.h);
        }
    }
}
