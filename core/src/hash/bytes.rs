//! Short copies of a length known only at run time, in the hash paths.
//!
//! `copy_from_slice` of a run-time length becomes a call: `memory.copy` in wasm, which
//! V8 runs as a call into the engine, `memcpy` natively. At the 16–64 bytes of
//! SLH-DSA's F and H inputs the call costs more than the copy (profiles of SLH-DSA-SHA2
//! showed it: `memory_copy_wrapper` and `memmove` in Node, `memmove` natively, each a
//! visible part of a verify, figures in the commit that added this). [`copy`] does such
//! copies as a few overlapping word loads and stores, with no loop for LLVM to turn
//! back into a call; longer ones stay `copy_from_slice`.

/// `dst.copy_from_slice(src)`; panics as it does when the lengths differ.
#[inline(always)]
pub(crate) fn copy(dst: &mut [u8], src: &[u8]) {
    if dst.len() == src.len() && src.len() <= 64 {
        copy_short(dst, src);
    } else {
        dst.copy_from_slice(src);
    }
}

/// Copies up to 64 bytes (equal lengths) as overlapping 8-byte words, or bytes
/// below 8.
#[inline(always)]
fn copy_short(dst: &mut [u8], src: &[u8]) {
    let n = src.len();
    let word = |dst: &mut [u8], at: usize| {
        if let (Some(d), Some(s)) = (dst.get_mut(at..at + 8), src.get(at..at + 8)) {
            d.copy_from_slice(s);
        }
    };
    match n {
        0 => {}
        1..=7 => {
            for (d, s) in dst.iter_mut().zip(src) {
                *d = *s;
            }
        }
        // Words at 0, 8, 16, … and one ending at n cover every byte once or twice.
        _ => {
            for at in [0, 8, 16, 24, 32, 40, 48] {
                if at + 8 < n {
                    word(dst, at);
                }
            }
            word(dst, n - 8);
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_short_length_copies_exactly() {
        for n in 0..=80 {
            let src: std::vec::Vec<u8> = (0..n as u8).map(|b| b.wrapping_mul(37) ^ 0x5a).collect();
            let mut dst = std::vec![0xeeu8; n];
            super::copy(&mut dst, &src);
            assert_eq!(dst, src, "length {n}");
            super::copy_short(&mut dst, &src);
            assert_eq!(dst, src, "length {n}");
        }
    }
}
