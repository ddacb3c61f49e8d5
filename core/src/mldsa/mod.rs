//! ML-DSA signature verification (FIPS 204). Algorithm 8 is `verify.rs`.

#[cfg(feature = "alloc")]
mod batch;
mod decode;
mod hint;
mod matrix;
mod one_shot;
pub(crate) mod params;
#[cfg(feature = "alloc")]
mod prepared;
mod sample;
mod verify;

#[cfg(feature = "alloc")]
pub(crate) use batch::verify_each;
pub(crate) use one_shot::ml_dsa_verify;
#[cfg(feature = "alloc")]
pub(crate) use prepared::PreparedMlDsa;
