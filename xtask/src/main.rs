//! `cargo xtask …`: placeholder, replaced below.
fn main() {}
