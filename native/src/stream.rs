//! The streaming batch of `pqverify batch`: lines read on one thread, verified in
//! parallel, answered in input order as soon as they are verified, with the bytes of
//! lines in flight capped so that memory stays bounded whatever the input.
//!
//! A chunk is whatever lines are already waiting (up to a maximum) when the
//! previous chunk is done, and its answers are flushed at once: a client that writes
//! one request and waits (a sidecar over a pipe) gets its answer, while a stream at
//! full speed is verified in large parallel chunks.

use std::io::Write;
use std::sync::mpsc::{Receiver, TryRecvError, sync_channel};
use std::sync::{Arc, Condvar, Mutex, PoisonError};

use rayon::prelude::*;
use serde_json::Value;

use crate::Verifier;
use crate::batch::Item;
use crate::jsonl::{self, Answer, LineError};

/// Limits of a streaming batch.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Longest line in bytes (its terminator not counted); longer ones are answered
    /// with an error and skipped without being held.
    pub max_line: usize,
    /// Bytes of lines read but not yet answered, at most (one line is always let
    /// through, however long, so a line up to `max_line` never blocks).
    pub max_in_flight: usize,
    /// Lines verified together at most.
    pub max_chunk: usize,
}

/// What a batch answered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Lines answered.
    pub lines: u64,
    /// Lines answered valid.
    pub valid: u64,
    /// Lines answered with an error.
    pub errors: u64,
    /// Of those, faults on this side (kind `backend` or `sink`).
    pub faults: u64,
}

/// One line as read: its text, or the length of a line over the limit.
pub type Line = Result<String, usize>;

/// A line already parsed ([`jsonl::parse_line`]): its id and item, or why it has none.
pub type Parsed = Result<(Value, Item), LineError>;

/// What the stream carries from the reading thread to the verifiers: a line waiting
/// for its answer.
pub trait Pending: Send + Sync {
    /// The bytes it holds while in flight.
    fn weight(&self) -> usize;
    /// Its answer line.
    fn answer(&self, verifier: &dyn Verifier, limits: &Limits) -> Answer;
}

impl Pending for Line {
    fn weight(&self) -> usize {
        self.as_ref().map_or(0, String::len)
    }

    fn answer(&self, verifier: &dyn Verifier, limits: &Limits) -> Answer {
        jsonl::answer_parsed(verifier, &parse(self, limits))
    }
}

/// A line as read, parsed: its id and item, or why it has none (an over-long line too).
pub fn parse(line: &Line, limits: &Limits) -> Parsed {
    match line {
        Ok(text) => jsonl::parse_line(text),
        Err(len) => {
            Err(LineError { id: Value::Null, error: format!("line is {len} bytes; the limit is {}", limits.max_line) })
        }
    }
}

impl Pending for Parsed {
    fn weight(&self) -> usize {
        self.as_ref().map_or(0, |(_, item)| item.held_bytes())
    }

    fn answer(&self, verifier: &dyn Verifier, _: &Limits) -> Answer {
        jsonl::answer_parsed(verifier, self)
    }
}

/// Bytes in flight, and a wait for room.
struct Gate {
    bytes: Mutex<usize>,
    room: Condvar,
    cap: usize,
}

impl Gate {
    fn acquire(&self, n: usize) {
        let mut held = self.bytes.lock().unwrap_or_else(PoisonError::into_inner);
        while *held > 0 && *held + n > self.cap {
            held = self.room.wait(held).unwrap_or_else(PoisonError::into_inner);
        }
        *held += n;
    }

    fn release(&self, n: usize) {
        let mut held = self.bytes.lock().unwrap_or_else(PoisonError::into_inner);
        *held = held.saturating_sub(n);
        self.room.notify_all();
    }
}

/// Answers every line of `source` on `out`, in order, through `verifier` on `pool`;
/// `progress` is told how many lines each chunk answered. Stops at the first error of
/// `source` or `out` and returns it (the answers written so far stand); the reading
/// thread is not waited for then, so a blocked read cannot hold the error back.
pub fn run<S, L>(
    verifier: &dyn Verifier,
    source: S,
    out: &mut impl Write,
    limits: Limits,
    pool: &rayon::ThreadPool,
    mut progress: impl FnMut(u64),
) -> std::io::Result<Totals>
where
    S: Iterator<Item = std::io::Result<L>> + Send + 'static,
    L: Pending + 'static,
{
    let gate = Arc::new(Gate { bytes: Mutex::new(0), room: Condvar::new(), cap: limits.max_in_flight });
    let (tx, rx) = sync_channel::<std::io::Result<L>>(limits.max_chunk.max(1));
    let reader_gate = Arc::clone(&gate);
    std::thread::Builder::new().name("pqverify-batch-reader".into()).spawn(move || {
        for line in source {
            if let Ok(l) = &line {
                reader_gate.acquire(l.weight());
            }
            let stop = line.is_err();
            if tx.send(line).is_err() || stop {
                break;
            }
        }
    })?;
    let result = answer_all(verifier, &rx, out, limits, pool, &gate, &mut progress);
    // Let a reader waiting for room go on (to find the channel closed) if we stopped early.
    drop(rx);
    gate.release(usize::MAX);
    result
}

fn answer_all<L: Pending>(
    verifier: &dyn Verifier,
    rx: &Receiver<std::io::Result<L>>,
    out: &mut impl Write,
    limits: Limits,
    pool: &rayon::ThreadPool,
    gate: &Gate,
    progress: &mut impl FnMut(u64),
) -> std::io::Result<Totals> {
    let mut totals = Totals::default();
    // Block for the first line of a chunk, then take what is already waiting.
    while let Ok(first) = rx.recv() {
        let mut chunk = vec![first?];
        while chunk.len() < limits.max_chunk {
            match rx.try_recv() {
                Ok(line) => chunk.push(line?),
                Err(TryRecvError::Empty | TryRecvError::Disconnected) => break,
            }
        }
        let answers: Vec<Answer> =
            pool.install(|| chunk.par_iter().map(|line| line.answer(verifier, &limits)).collect());
        for a in &answers {
            let tally = a.tally();
            totals.lines += 1;
            totals.valid += u64::from(tally.valid);
            totals.errors += u64::from(tally.error);
            totals.faults += u64::from(tally.fault);
            writeln!(out, "{a}")?;
        }
        out.flush()?;
        gate.release(chunk.iter().map(Pending::weight).sum());
        progress(answers.len() as u64);
    }
    Ok(totals)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::VerifyError;
    use crate::backend::Request;

    /// Answers "valid" for anything (the parsing and ordering are under test here).
    struct Yes;
    impl Verifier for Yes {
        fn decide(&self, _: &Request<'_>) -> Result<bool, VerifyError> {
            Ok(true)
        }
        fn describe(&self) -> String {
            "yes".into()
        }
    }

    fn pool() -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap()
    }

    #[test]
    fn answers_every_line_in_order_with_small_limits() {
        // A key of the suite's length (a request holds only such keys), in short lines.
        let pk = "00".repeat(32);
        let line = |i: usize| format!(r#"{{"id":{i},"suite":"SLH-DSA-SHA2-128s","pk":"{pk}","msg":"","sig":""}}"#);
        let lines: Vec<std::io::Result<Line>> =
            (0..1000).map(|i| Ok(if i % 7 == 3 { Err(9_999_999) } else { Ok(line(i)) })).collect();
        let limits = Limits { max_line: 160, max_in_flight: 400, max_chunk: 16 };
        let mut out = Vec::new();
        let mut chunks = 0;
        let totals = run(&Yes, lines.into_iter(), &mut out, limits, &pool(), |_| chunks += 1).unwrap();
        let answers: Vec<Value> =
            String::from_utf8(out).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(answers.len(), 1000);
        for (i, a) in answers.iter().enumerate() {
            if i % 7 == 3 {
                assert_eq!(a["id"], Value::Null);
                assert!(a["error"].as_str().unwrap().contains("9999999 bytes"));
            } else {
                assert_eq!(a["id"], json!(i), "in order");
            }
        }
        assert_eq!(totals.lines, 1000);
        assert_eq!(totals.errors, 143);
        assert!(chunks >= 1000 / 16, "chunks are bounded");
    }

    #[test]
    fn a_read_error_stops_the_batch_with_that_error() {
        let source = vec![
            Ok(Ok(r#"{"id":1,"suite":"ML-DSA-44","pk":"00","msg":"","sig":""}"#.to_owned())),
            Err(std::io::Error::other("disk gone")),
        ];
        let limits = Limits { max_line: 100, max_in_flight: 1000, max_chunk: 4 };
        let mut out = Vec::new();
        let err = run(&Yes, source.into_iter(), &mut out, limits, &pool(), |_| ()).unwrap_err();
        assert!(err.to_string().contains("disk gone"));
    }
}
