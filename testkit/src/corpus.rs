//! Replaying a committed fuzz corpus on stable Rust, as ordinary tests.

use std::path::Path;

/// Feeds every file of the corpus folder `dir` to `each`, then its truncations to 0,
/// 1, 5 bytes, a third, half and all but one byte (they reach the length checks and
/// early returns). Returns how many files were replayed.
pub fn replay(dir: &Path, mut each: impl FnMut(&[u8])) -> std::io::Result<usize> {
    let mut replayed = 0;
    for entry in std::fs::read_dir(dir)? {
        let data = std::fs::read(entry?.path())?;
        each(&data);
        for cut in [0, 1, 5, data.len() / 3, data.len() / 2, data.len().saturating_sub(1)] {
            each(&data[..cut.min(data.len())]);
        }
        replayed += 1;
    }
    Ok(replayed)
}
