//! Error texts written piece by piece, without `core::fmt`.
//!
//! The errors' [`Display`](core::fmt::Display) impls and the npm package's module write
//! the same words through one [`Sink`]: the module's errors then need none of
//! `core::fmt` (formatting and std's panic machinery were about a tenth of the ML-DSA
//! module), and a message reads the same in Rust, in the CLI and in JavaScript.

/// Where a text is written, piece by piece.
pub trait Sink {
    /// Appends `piece`.
    fn text(&mut self, piece: &str);

    /// Appends `n` in decimal.
    fn number(&mut self, n: usize) {
        // usize::MAX has at most 20 decimal digits.
        let mut digits = [0u8; 20];
        let mut at = digits.len();
        let mut rest = n;
        loop {
            at -= 1;
            digits[at] = b'0' + (rest % 10) as u8;
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
        // ASCII digits only.
        self.text(core::str::from_utf8(&digits[at..]).unwrap_or_default());
    }
}

/// A text of at most `N` bytes, kept on the stack: longer texts are cut at the last
/// character boundary that fits.
pub struct Text<const N: usize> {
    bytes: [u8; N],
    len: usize,
}

impl<const N: usize> Text<N> {
    /// An empty text.
    pub const fn new() -> Self {
        Self { bytes: [0; N], len: 0 }
    }

    /// The text written so far.
    pub fn as_str(&self) -> &str {
        // Only whole `str` pieces, or their prefixes up to a character boundary, are copied in.
        core::str::from_utf8(&self.bytes[..self.len]).unwrap_or_default()
    }
}

impl<const N: usize> Default for Text<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> Sink for Text<N> {
    // One copy for every piece of every message (they are many, and never hot).
    #[inline(never)]
    fn text(&mut self, piece: &str) {
        let mut take = piece.len().min(N - self.len);
        while !piece.is_char_boundary(take) {
            take -= 1;
        }
        self.bytes[self.len..self.len + take].copy_from_slice(&piece.as_bytes()[..take]);
        self.len += take;
    }
}

/// A [`Sink`] over a formatter, for the `Display` impls.
pub(crate) struct Formatted<'a, 'b> {
    f: &'a mut core::fmt::Formatter<'b>,
    result: core::fmt::Result,
}

impl<'a, 'b> Formatted<'a, 'b> {
    /// Writes `write`'s pieces to `f`, with the first error the formatter returned.
    pub(crate) fn write(f: &'a mut core::fmt::Formatter<'b>, write: impl FnOnce(&mut Self)) -> core::fmt::Result {
        let mut sink = Self { f, result: Ok(()) };
        write(&mut sink);
        sink.result
    }
}

impl Sink for Formatted<'_, '_> {
    fn text(&mut self, piece: &str) {
        if self.result.is_ok() {
            self.result = self.f.write_str(piece);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_decimal_at_the_bounds() {
        for n in [0, 1, 9, 10, 255, 256, 1312, u32::MAX as usize, usize::MAX] {
            let mut text = Text::<32>::new();
            text.number(n);
            assert_eq!(text.as_str(), std::format!("{n}"));
        }
    }

    #[test]
    fn a_full_text_is_cut_at_a_character_boundary() {
        let mut text = Text::<5>::new();
        text.text("ab");
        text.text("μμ");
        assert_eq!(text.as_str(), "abμ");
        text.text("c");
        assert_eq!(text.as_str(), "abμc");
    }
}
