//! The hint's strict decoding (HintBitUnpack, FIPS 204 Algorithm 21); its use is the
//! UseHint kernel (`crate::kernel::use_hint_poly`).

/// A validated hint block: ω index bytes followed by k cumulative counts.
pub(crate) struct Hints<'a> {
    y: &'a [u8],
    omega: usize,
}

impl<'a> Hints<'a> {
    /// HintBitUnpack's checks (Algorithm 21): counts non-decreasing and at most ω,
    /// indices strictly increasing within each polynomial, unused index bytes zero.
    /// `y` is the last ω + k bytes of the signature.
    pub(crate) fn decode(y: &'a [u8], omega: usize, k: usize) -> Result<Self, &'static str> {
        if y.len() != omega + k {
            return Err("hint block has the wrong length");
        }
        let (indices, counts) = y.split_at(omega);
        let mut index = 0;
        for &count in counts {
            let count = usize::from(count);
            if count < index {
                return Err("hint counts decrease");
            }
            if count > omega {
                return Err("hint count exceeds omega");
            }
            for pair in indices[index..count].windows(2) {
                if pair[0] >= pair[1] {
                    return Err("hint indices are not strictly increasing");
                }
            }
            index = count;
        }
        if indices[index..].iter().any(|&b| b != 0) {
            return Err("unused hint bytes are not zero");
        }
        Ok(Hints { y, omega })
    }

    /// The positions hinted in polynomial `i` (strictly increasing).
    pub(crate) fn row(&self, i: usize) -> &'a [u8] {
        let start = if i == 0 { 0 } else { usize::from(self.y[self.omega + i - 1]) };
        let end = usize::from(self.y[self.omega + i]);
        &self.y[start..end]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hint_decoding_is_strict() {
        let (omega, k) = (4, 2);
        // Valid: poly 0 has {1, 5}, poly 1 has {}, unused zero.
        assert!(Hints::decode(&[1, 5, 0, 0, 2, 2], omega, k).is_ok());
        // A polynomial with zero hints, including all-empty.
        assert!(Hints::decode(&[0, 0, 0, 0, 0, 0], omega, k).is_ok());
        // Count over ω.
        assert!(Hints::decode(&[1, 2, 3, 4, 2, 5], omega, k).is_err());
        // Counts decreasing.
        assert!(Hints::decode(&[1, 5, 0, 0, 2, 1], omega, k).is_err());
        // Repeated index and decreasing index.
        assert!(Hints::decode(&[5, 5, 0, 0, 2, 2], omega, k).is_err());
        assert!(Hints::decode(&[6, 5, 0, 0, 2, 2], omega, k).is_err());
        // Order may restart between polynomials.
        assert!(Hints::decode(&[9, 3, 0, 0, 1, 2], omega, k).is_ok());
        // Non-zero padding after the last count.
        assert!(Hints::decode(&[1, 5, 0, 7, 2, 2], omega, k).is_err());
        let h = Hints::decode(&[9, 3, 4, 0, 1, 3], omega, k).unwrap_or_else(|e| unreachable!("{e}"));
        assert_eq!(h.row(0), &[9]);
        assert_eq!(h.row(1), &[3, 4]);
    }
}
