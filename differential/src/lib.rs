//! The differential campaign: one case generator, a replayable case file, and every
//! independent verifier reachable here answering every case it supports. The binary
//! (`pqverify-differential`) runs it; `TRIAGE.md` decides the disagreements.

pub mod campaign;
pub mod case;
pub mod generate;
pub mod peers;
pub mod triage;
