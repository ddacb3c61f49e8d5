//! What the AVX2 and NEON decoders of sigDecode's z (FIPS 204 Algorithm 27, via
//! BitUnpack, Algorithm 19) share: the coefficient width of each γ1, 16-byte windows of
//! the input read where it lies (z's last bytes from a copy with zeros after them, for
//! the loads that would run past its end), and where each of four coefficients packed
//! from a load's byte 0 sits.

use crate::portable;
use crate::ring::Poly;

/// Bytes of z copied for the windows near its end; they start at most this far back.
const TAIL: usize = 32;

/// z's bytes for a vector decoder.
pub(crate) struct ZInput<'a> {
    /// Bits per coefficient: 18 (γ1 = 2^17) or 20 (γ1 = 2^19).
    pub(crate) bits: usize,
    /// z's 32·`bits` bytes.
    bytes: &'a [u8],
    /// z's last `TAIL` bytes, then 16 zeros.
    tail: [u8; TAIL + 16],
}

impl<'a> ZInput<'a> {
    /// The input of a γ1 the vector decoders handle, at least as long as z; otherwise
    /// the portable decoder's answer, which [`portable::encode::unpack_z`] gives for any
    /// input.
    pub(crate) fn new(bytes: &'a [u8], gamma1_log2: u32, bound: i32, out: &mut Poly) -> Result<Self, bool> {
        let bits = match gamma1_log2 {
            17 => 18,
            19 => 20,
            _ => return Err(portable::encode::unpack_z(bytes, gamma1_log2, bound, out)),
        };
        let len = 32 * bits;
        let Some(bytes) = bytes.get(..len) else {
            return Err(portable::encode::unpack_z(bytes, gamma1_log2, bound, out));
        };
        let mut tail = [0u8; TAIL + 16];
        tail[..TAIL].copy_from_slice(&bytes[len - TAIL..]);
        Ok(ZInput { bits, bytes, tail })
    }

    /// The 16 bytes from byte `at` of z (`at` below z's length), zeros past its end.
    #[inline(always)]
    pub(crate) fn window(&self, at: usize) -> &[u8; 16] {
        let start = self.bytes.len() - TAIL;
        self.bytes
            .get(at..)
            .and_then(<[u8]>::first_chunk)
            // Less than 16 bytes from the end: `at` − `start` > 16, the copy has them.
            .or_else(|| self.tail.get(at.checked_sub(start)?..)?.first_chunk())
            .unwrap_or(&[0; 16])
    }
}

/// For four coefficients of `bits` bits packed from byte 0 of a 16-byte load: the byte
/// shuffle putting each one's three bytes in its 32-bit lane, low byte first (0xff for
/// the fourth byte, which both shuffles zero), and the right shift that leaves it in
/// the low bits.
pub(crate) const fn layout(bits: usize) -> ([u8; 16], [i32; 4]) {
    let mut shuffle = [0xffu8; 16];
    let mut shift = [0i32; 4];
    let mut lane = 0;
    while lane < 4 {
        let first = bits * lane;
        let mut b = 0;
        // `bits` (at most 20) and the shift (below 8) fit the three bytes from the first.
        while b < 3 {
            shuffle[4 * lane + b] = (first / 8 + b) as u8;
            b += 1;
        }
        shift[lane] = (first % 8) as i32;
        lane += 1;
    }
    (shuffle, shift)
}
