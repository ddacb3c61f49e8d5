//! One campaign: chunks of cases written as case files, each answered by every
//! in-process verifier and by the Node helper (OpenSSL through `node:crypto`, noble),
//! the answers compared, every disagreement written out as a one-case file that
//! `pqverify-differential replay` answers again, and the counts kept per verifier,
//! suite and mutation.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use pqverify_core::Suite;
use rayon::prelude::*;

use crate::case::{self, Case};
use crate::generate;
use crate::peers::{self, Answer, Peer};
use crate::triage;

/// What a campaign is asked to do.
pub struct Options {
    /// Cases in all.
    pub count: u64,
    /// The generator's seed.
    pub seed: u64,
    /// Where case files, answers, disagreements and the summary go.
    pub out: PathBuf,
    /// Cases per case file.
    pub chunk: u64,
    /// Parts of the cases per ML-DSA set to one per SLH-DSA set.
    pub ml_dsa_weight: u64,
    /// A liboqs shared library to load as a second liboqs.
    pub liboqs: Option<PathBuf>,
    /// The Node helper, if it is to answer.
    pub node: Option<NodeHelper>,
}

/// The Node helper (`js/answer.mjs`): OpenSSL and noble, and Chromium's WebCrypto when
/// a Chromium is named.
pub struct NodeHelper {
    /// The Node binary (Node 24: OpenSSL 3.5).
    pub node: PathBuf,
    /// `answer.mjs`.
    pub script: PathBuf,
    /// A Chromium for the WebCrypto answers.
    pub chromium: Option<PathBuf>,
}

/// The counts of one verifier.
#[derive(Default, Debug, Clone)]
pub struct Counts {
    /// Its version.
    pub version: String,
    /// Answers by letter (`V`, `R`, `F`, `-`).
    pub letters: BTreeMap<char, u64>,
    /// Cases where it was on the minority side of a disagreement.
    pub disagreed: u64,
}

/// A campaign's result.
#[derive(Default, Debug)]
pub struct Summary {
    /// Cases generated and answered.
    pub cases: u64,
    /// Per verifier.
    pub verifiers: BTreeMap<String, Counts>,
    /// Cases per suite.
    pub suites: BTreeMap<String, u64>,
    /// Cases per mutation.
    pub mutations: BTreeMap<String, u64>,
    /// Disagreements the triage table explains, by its entry.
    pub explained: BTreeMap<String, u64>,
    /// Disagreements nothing explains.
    pub unexplained: u64,
    /// Seconds so far.
    pub seconds: f64,
}

impl Summary {
    /// The figures as Markdown: per verifier, suite and mutation.
    pub fn markdown(&self, opts: &Options) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "# Differential campaign\n\n{} cases, seed {}, ML-DSA weight {}, {:.0} s, pqverify kernels {}\n",
            self.cases,
            opts.seed,
            opts.ml_dsa_weight,
            self.seconds,
            pqverify_core::kernels()
        );
        let _ = writeln!(out, "| verifier | version | answered | valid | rejected | fault | not asked | minority |");
        let _ = writeln!(out, "|---|---|---:|---:|---:|---:|---:|---:|");
        for (name, c) in &self.verifiers {
            let n = |l: char| c.letters.get(&l).copied().unwrap_or(0);
            let answered = n('V') + n('R') + n('F');
            let _ = writeln!(
                out,
                "| {name} | {} | {answered} | {} | {} | {} | {} | {} |",
                c.version,
                n('V'),
                n('R'),
                n('F'),
                n('-'),
                c.disagreed
            );
        }
        let _ = writeln!(out, "\nper suite: {:?}\n\nper mutation: {:?}\n", self.suites, self.mutations);
        let _ = writeln!(
            out,
            "explained disagreements: {:?}\n\nunexplained disagreements: {}",
            self.explained, self.unexplained
        );
        out
    }
}

/// The answers of the Node helper to one case file.
struct NodeAnswers {
    verifiers: Vec<(String, String, Vec<Answer>)>,
}

fn parse_node(text: &str, cases: usize) -> Result<NodeAnswers, String> {
    let json: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("the Node helper's answers: {e}"))?;
    let mut verifiers = Vec::new();
    for v in json["verifiers"].as_array().ok_or("the Node helper's answers have no verifiers")? {
        let name = v["name"].as_str().ok_or("a Node verifier without a name")?.to_owned();
        let letters = v["answers"].as_str().ok_or("a Node verifier without answers")?;
        if letters.chars().count() != cases {
            return Err(format!("{name} answered {} of {cases} cases", letters.chars().count()));
        }
        let answers = letters
            .chars()
            .enumerate()
            .map(|(i, l)| match l {
                'V' => Ok(Answer::Valid),
                'R' => Ok(Answer::Rejected),
                '-' => Ok(Answer::Unsupported),
                'F' => Ok(Answer::Fault(v["faults"][i.to_string()].as_str().unwrap_or("fault").to_owned())),
                other => Err(format!("{name}: answer {other:?}")),
            })
            .collect::<Result<Vec<_>, _>>()?;
        verifiers.push((name, v["version"].as_str().unwrap_or("?").to_owned(), answers));
    }
    Ok(NodeAnswers { verifiers })
}

/// Starts the Node helper on a case file; it writes its answers to `answers`.
fn start_node(helper: &NodeHelper, cases: &Path, answers: &Path) -> Result<Child, String> {
    // An answer file left by the last chunk must never pass for this one's.
    match std::fs::remove_file(answers) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(format!("{}: {e}", answers.display())),
        _ => {}
    }
    let mut cmd = Command::new(&helper.node);
    cmd.arg(&helper.script).arg(cases).arg(answers).stdin(Stdio::null());
    if let Some(chromium) = &helper.chromium {
        cmd.arg("--chromium").arg(chromium);
    }
    cmd.spawn().map_err(|e| format!("{} {}: {e}", helper.node.display(), helper.script.display()))
}

fn finish_node(child: Child, answers: &Path, cases: usize) -> Result<NodeAnswers, String> {
    let out = child.wait_with_output().map_err(|e| format!("the Node helper: {e}"))?;
    if !out.status.success() {
        return Err(format!("the Node helper failed ({})", out.status));
    }
    let text = std::fs::read_to_string(answers).map_err(|e| format!("{}: {e}", answers.display()))?;
    parse_node(&text, cases)
}

/// Whether the answers disagree: an accept and a reject side by side, or any fault.
pub fn disagree(answers: &[(String, Answer)]) -> bool {
    let has = |a: Answer| answers.iter().any(|(_, x)| *x == a);
    answers.iter().any(|(_, a)| matches!(a, Answer::Fault(_))) || (has(Answer::Valid) && has(Answer::Rejected))
}

/// The verifiers on the smaller side (on a tie, those that accept: a wrong `true` is
/// the worse bug); with a fault, the faulting ones.
pub fn minority(answers: &[(String, Answer)]) -> Vec<String> {
    let faults: Vec<String> =
        answers.iter().filter(|(_, a)| matches!(a, Answer::Fault(_))).map(|(n, _)| n.clone()).collect();
    if !faults.is_empty() {
        return faults;
    }
    let side = |a: Answer| answers.iter().filter(|(_, x)| *x == a).map(|(n, _)| n.clone()).collect::<Vec<_>>();
    let (valid, rejected) = (side(Answer::Valid), side(Answer::Rejected));
    if valid.len() <= rejected.len() { valid } else { rejected }
}

/// How many cases of each suite the campaign draws: `count` split by [`generate::weight`].
fn per_suite(count: u64, ml_dsa_weight: u64) -> Vec<(Suite, u64)> {
    let weight = |s| generate::weight(s, ml_dsa_weight);
    let total: u64 = Suite::ALL.iter().map(|&s| weight(s)).sum();
    Suite::ALL.iter().map(|&s| (s, (count * weight(s)).div_ceil(total))).collect()
}

/// Answers `cases` with every in-process verifier (in parallel over the cases).
pub fn answer_native(peers: &[Box<dyn Peer>], cases: &[Case]) -> Vec<Vec<(String, Answer)>> {
    cases.par_iter().map(|c| peers.iter().map(|p| (p.name(), peers::answer(p.as_ref(), c))).collect()).collect()
}

/// Runs the campaign. It fails only on I/O or a verifier that cannot be started; the
/// disagreements are in the summary (and written out).
pub fn run(opts: &Options) -> Result<Summary, String> {
    std::fs::create_dir_all(&opts.out).map_err(|e| format!("{}: {e}", opts.out.display()))?;
    // A disagreement file left by an earlier run would read as one of this run's.
    for entry in std::fs::read_dir(&opts.out).map_err(|e| format!("{}: {e}", opts.out.display()))?.flatten() {
        if entry.file_name().to_string_lossy().starts_with("disagreement-") {
            std::fs::remove_file(entry.path()).map_err(|e| format!("{}: {e}", entry.path().display()))?;
        }
    }
    let peers = peers::all(opts.liboqs.as_deref())?;
    let pools: BTreeMap<Suite, Vec<generate::Signed>> =
        Suite::ALL.par_iter().map(|&s| (s, generate::pool(s, opts.seed))).collect();
    let shares = per_suite(opts.count, opts.ml_dsa_weight);
    let chunks = opts.count.div_ceil(opts.chunk.max(1)).max(1);
    let started = std::time::Instant::now();
    let mut summary = Summary::default();
    for p in &peers {
        summary.verifiers.entry(p.name()).or_default().version = p.version();
    }
    for chunk in 0..chunks {
        let mut cases: Vec<Case> = if chunk == 0 { generate::outside_cases()? } else { Vec::new() };
        cases.par_extend(shares.par_iter().flat_map_iter(|&(suite, share)| {
            // This chunk's slice of the suite's share.
            let from = share * chunk / chunks;
            let to = share * (chunk + 1) / chunks;
            generate::cases(suite, opts.seed, chunk, (to - from) as usize, &pools[&suite])
        }));
        let file = opts.out.join("chunk.cases");
        let answers_file = opts.out.join("chunk.node.json");
        write_cases(&file, &cases)?;
        let node = opts.node.as_ref().map(|n| start_node(n, &file, &answers_file)).transpose()?;
        let mut answers = answer_native(&peers, &cases);
        if let Some(child) = node {
            for (name, version, node_answers) in finish_node(child, &answers_file, cases.len())?.verifiers {
                summary.verifiers.entry(name.clone()).or_default().version = version;
                for (row, a) in answers.iter_mut().zip(node_answers) {
                    row.push((name.clone(), a));
                }
            }
        }
        for (i, (case, row)) in cases.iter().zip(&answers).enumerate() {
            tally(&mut summary, case, row);
            if disagree(row) {
                record(&mut summary, &opts.out, &format!("{chunk}-{i}"), case, row)?;
            }
        }
        summary.seconds = started.elapsed().as_secs_f64();
        // Written after every chunk, so that a run stopped early still has its figures.
        std::fs::write(opts.out.join("summary.md"), summary.markdown(opts)).map_err(|e| e.to_string())?;
        eprintln!(
            "differential: chunk {}/{chunks}, {} cases so far, {} unexplained disagreements",
            chunk + 1,
            summary.cases,
            summary.unexplained
        );
    }
    let _ = std::fs::remove_file(opts.out.join("chunk.cases"));
    let _ = std::fs::remove_file(opts.out.join("chunk.node.json"));
    Ok(summary)
}

fn write_cases(path: &Path, cases: &[Case]) -> Result<(), String> {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?);
    case::write(&mut out, cases).map_err(|e| format!("{}: {e}", path.display()))?;
    std::io::Write::flush(&mut out).map_err(|e| format!("{}: {e}", path.display()))
}

fn tally(summary: &mut Summary, case: &Case, row: &[(String, Answer)]) {
    summary.cases += 1;
    *summary.suites.entry(case.suite.name().to_owned()).or_default() += 1;
    *summary.mutations.entry(case.mutation.clone()).or_default() += 1;
    for (name, answer) in row {
        *summary.verifiers.entry(name.clone()).or_default().letters.entry(answer.letter()).or_default() += 1;
    }
}

/// Writes one disagreement (its case as a one-case file, its answers as JSON) and
/// counts it as explained or not.
fn record(summary: &mut Summary, out: &Path, id: &str, case: &Case, row: &[(String, Answer)]) -> Result<(), String> {
    let minority = minority(row);
    for name in &minority {
        summary.verifiers.entry(name.clone()).or_default().disagreed += 1;
    }
    let explained = triage::explain(case, &minority);
    match explained {
        Some(entry) => *summary.explained.entry(entry.to_owned()).or_default() += 1,
        None => summary.unexplained += 1,
    }
    write_cases(&out.join(format!("disagreement-{id}.cases")), std::slice::from_ref(case))?;
    let answers: serde_json::Map<String, serde_json::Value> = row
        .iter()
        .map(|(n, a)| {
            let text = match a {
                Answer::Fault(why) => format!("F: {why}"),
                other => other.letter().to_string(),
            };
            (n.clone(), text.into())
        })
        .collect();
    let record = serde_json::json!({
        "suite": case.suite.name(), "mutation": case.mutation, "minority": minority,
        "explained": explained, "answers": answers,
        "pk": hex::encode(&case.pk), "msg": hex::encode(&case.msg), "ctx": hex::encode(&case.ctx),
        "sig": hex::encode(&case.sig),
    });
    std::fs::write(out.join(format!("disagreement-{id}.json")), record.to_string()).map_err(|e| e.to_string())
}

/// Answers the cases of one file again (every verifier), for a disagreement's replay.
pub fn replay(
    file: &Path,
    liboqs: Option<&Path>,
    node: Option<&NodeHelper>,
) -> Result<Vec<Vec<(String, Answer)>>, String> {
    let cases = case::read(&mut std::fs::File::open(file).map_err(|e| format!("{}: {e}", file.display()))?)
        .map_err(|e| format!("{}: {e}", file.display()))?;
    let peers = peers::all(liboqs)?;
    let mut answers = answer_native(&peers, &cases);
    if let Some(node) = node {
        let answers_file = file.with_extension("node.json");
        let child = start_node(node, file, &answers_file)?;
        for (name, _, node_answers) in finish_node(child, &answers_file, cases.len())?.verifiers {
            for (row, a) in answers.iter_mut().zip(node_answers) {
                row.push((name.clone(), a));
            }
        }
    }
    Ok(answers)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(answers: &[(&str, Answer)]) -> Vec<(String, Answer)> {
        answers.iter().map(|(n, a)| ((*n).to_owned(), a.clone())).collect()
    }

    #[test]
    fn an_accept_beside_a_reject_or_any_fault_is_a_disagreement_and_unsupported_is_neither() {
        use Answer::*;
        assert!(!disagree(&row(&[("a", Valid), ("b", Valid), ("c", Unsupported)])));
        assert!(!disagree(&row(&[("a", Rejected), ("b", Rejected)])));
        let split = row(&[("a", Valid), ("b", Rejected), ("c", Rejected)]);
        assert!(disagree(&split));
        assert_eq!(minority(&split), ["a"]);
        // On a tie the accepting side is named: a wrong true is the worse bug.
        assert_eq!(minority(&row(&[("a", Rejected), ("b", Valid)])), ["b"]);
        let fault = row(&[("a", Rejected), ("b", Fault("x".into())), ("c", Rejected)]);
        assert!(disagree(&fault));
        assert_eq!(minority(&fault), ["b"]);
    }

    #[test]
    fn the_node_answers_are_read_letter_by_letter_and_a_short_list_is_an_error() {
        let text = r#"{"verifiers":[{"name":"noble","version":"1","answers":"VR-F","faults":{"3":"boom"}}]}"#;
        let parsed = parse_node(text, 4).unwrap_or_else(|e| unreachable!("{e}"));
        assert_eq!(
            parsed.verifiers[0].2,
            [Answer::Valid, Answer::Rejected, Answer::Unsupported, Answer::Fault("boom".into())]
        );
        assert!(parse_node(text, 5).is_err());
    }

    #[test]
    fn the_shares_cover_the_count_with_ml_dsa_weighted() {
        let shares = per_suite(3_600, generate::ML_DSA_WEIGHT);
        assert!(shares.iter().map(|s| s.1).sum::<u64>() >= 3_600);
        assert_eq!(shares.iter().find(|s| s.0 == Suite::MlDsa65).map(|s| s.1), Some(800));
        assert_eq!(shares.iter().find(|s| s.0 == Suite::SlhDsaShake256f).map(|s| s.1), Some(100));
    }
}
