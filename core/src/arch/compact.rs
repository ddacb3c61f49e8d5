//! The byte shuffle that moves the kept 32-bit lanes of a 128-bit vector to its front:
//! for each 4-bit mask (bit i keeps lane i), the bytes of the kept lanes in order, then
//! 0x80. Both shuffles that use it, wasm's `i8x16.swizzle` and NEON's TBL, give 0 for
//! an index ≥ 16. Shared by the rejection samplers of both.

/// The shuffle for each acceptance mask.
pub(crate) const COMPACT: [[u8; 16]; 16] = {
    let mut table = [[0x80u8; 16]; 16];
    let mut mask = 0;
    while mask < 16 {
        let mut at = 0;
        let mut lane = 0;
        while lane < 4 {
            if mask & (1 << lane) != 0 {
                let mut b = 0;
                while b < 4 {
                    table[mask][4 * at + b] = (4 * lane + b) as u8;
                    b += 1;
                }
                at += 1;
            }
            lane += 1;
        }
        mask += 1;
    }
    table
};
