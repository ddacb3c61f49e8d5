//! The kernel layer's invariant, read off the real module graph of `core/src`:
//! nothing under `portable/` or `arch/` imports the chooser (`kernel`) or an
//! algorithm; the leaves (`ring/`, `kernel_set`) import nothing but the ring; and no
//! file of the crate reaches itself through the imports of others (no circle).
//!
//! The graph is built from the source text: every `crate::…`, `super::…` and
//! child-module path outside `#[cfg(test)]` modules, resolved to the file that defines
//! it (through the crate root's and `mod.rs` files' re-exports). Test modules are left
//! out: a test may look at anything.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "a test")]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One source file: its module path (`["mldsa", "verify"]`) and its code without tests.
struct File {
    module: Vec<String>,
    code: String,
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`, recursively.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file: `lib.rs` is the root, `a/mod.rs` and `a.rs` are `a`.
fn module_of(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" {
        parts.push(stem.to_owned());
    }
    parts
}

/// `code` without comments, string literals and the bodies of `#[cfg(test)]` items.
fn strip(code: &str) -> String {
    let mut out = String::new();
    let mut lines = code.lines().peekable();
    while let Some(line) = lines.next() {
        let text = line.split("//").next().unwrap_or("");
        if text.trim_start().starts_with("#[cfg(test)]") {
            // Skip the next item: a `mod x;` line, or everything to its closing brace.
            let mut depth = 0i32;
            let mut opened = false;
            for next in lines.by_ref() {
                let t = next.split("//").next().unwrap_or("");
                depth += t.matches('{').count() as i32 - t.matches('}').count() as i32;
                opened |= t.contains('{');
                if (opened && depth <= 0) || (!opened && t.trim_end().ends_with(';')) {
                    break;
                }
            }
            continue;
        }
        // Drop string literals, whose text may look like a path.
        let mut in_string = false;
        for c in text.chars() {
            if c == '"' {
                in_string = !in_string;
            } else if !in_string {
                out.push(c);
            }
        }
        out.push('\n');
    }
    out
}

/// The paths named in `code`: each as its segments, braces of a `use` tree expanded
/// (`crate::{a, b::c}` gives `crate::a` and `crate::b::c`).
fn paths(code: &str) -> Vec<Vec<String>> {
    let chars: Vec<char> = code.chars().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if is_ident_start(chars[i]) && (i == 0 || !is_ident(chars[i - 1]) && chars[i - 1] != ':') {
            let (segments, end) = tree(&chars, i, Vec::new(), &mut found);
            if segments.len() > 1 {
                found.push(segments);
            }
            i = end.max(i + 1);
        } else {
            i += 1;
        }
    }
    found
}

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Reads `a::b::{c, d::e}` from `at`: returns the plain path read (when there was no
/// brace) and where it ended; every path inside braces goes to `found`.
fn tree(chars: &[char], mut at: usize, mut prefix: Vec<String>, found: &mut Vec<Vec<String>>) -> (Vec<String>, usize) {
    loop {
        let start = at;
        while at < chars.len() && is_ident(chars[at]) {
            at += 1;
        }
        if at == start {
            return (prefix, at);
        }
        prefix.push(chars[start..at].iter().collect());
        if !(chars.get(at) == Some(&':') && chars.get(at + 1) == Some(&':')) {
            return (prefix, at);
        }
        at += 2;
        if chars.get(at) == Some(&'{') {
            at += 1;
            loop {
                while at < chars.len() && (chars[at].is_whitespace() || chars[at] == ',') {
                    at += 1;
                }
                if at >= chars.len() || chars[at] == '}' {
                    return (Vec::new(), at + 1);
                }
                let (inner, end) = tree(chars, at, prefix.clone(), found);
                if inner.len() > prefix.len() {
                    found.push(inner);
                }
                // Skip an `as name` or `*` after the path.
                at = end;
                while at < chars.len() && chars[at] != ',' && chars[at] != '}' {
                    at += 1;
                }
            }
        }
    }
}

struct Crate {
    files: BTreeMap<Vec<String>, File>,
    /// (module, name) → the module that defines what a `pub use` there re-exports.
    reexports: BTreeMap<(Vec<String>, String), Vec<String>>,
}

impl Crate {
    fn read() -> Crate {
        let mut all = Vec::new();
        rust_files(&src(), &mut all);
        let mut files = BTreeMap::new();
        for path in all {
            let module = module_of(path.strip_prefix(src()).unwrap());
            let code = strip(&std::fs::read_to_string(&path).unwrap());
            files.insert(module.clone(), File { module, code });
        }
        let mut krate = Crate { files, reexports: BTreeMap::new() };
        let mut reexports = BTreeMap::new();
        for file in krate.files.values() {
            for line in file.code.lines().filter(|l| l.trim_start().starts_with("pub")) {
                if let Some(rest) = line.split_once(" use ").map(|(_, r)| r) {
                    for path in paths(rest) {
                        if let Some(target) = krate.resolve(&file.module, &path) {
                            reexports.insert((file.module.clone(), path.last().unwrap().clone()), target);
                        }
                    }
                }
            }
        }
        krate.reexports = reexports;
        krate
    }

    /// The file a path names from `module`, if it is one of this crate's.
    fn resolve(&self, module: &[String], path: &[String]) -> Option<Vec<String>> {
        let mut base: Vec<String> = match path[0].as_str() {
            "crate" => Vec::new(),
            "super" | "self" => module.to_vec(),
            _ => {
                // A child module's name, used bare.
                let mut child = module.to_vec();
                child.push(path[0].clone());
                if !self.files.contains_key(&child) {
                    return None;
                }
                module.to_vec()
            }
        };
        let mut rest = match path[0].as_str() {
            "crate" | "self" => &path[1..],
            _ => path,
        };
        while rest.first().is_some_and(|s| s == "super") {
            base.pop();
            rest = &rest[1..];
        }
        // The longest prefix that is a file; then a re-export there, if any.
        let mut at = base;
        for segment in rest {
            let mut next = at.clone();
            next.push(segment.clone());
            if self.files.contains_key(&next) {
                at = next;
                continue;
            }
            if let Some(target) = self.reexports.get(&(at.clone(), segment.clone())) {
                return Some(target.clone());
            }
            break;
        }
        Some(at)
    }

    /// File → the files it imports (itself left out).
    fn graph(&self) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
        let mut graph = BTreeMap::new();
        for file in self.files.values() {
            let edges: BTreeSet<Vec<String>> = paths(&file.code)
                .iter()
                .filter_map(|p| self.resolve(&file.module, p))
                .filter(|target| *target != file.module && self.files.contains_key(target))
                .collect();
            graph.insert(file.module.clone(), edges);
        }
        graph
    }
}

fn name(module: &[String]) -> String {
    if module.is_empty() { "lib".to_owned() } else { module.join("/") }
}

#[test]
fn kernels_import_neither_the_chooser_nor_an_algorithm() {
    let krate = Crate::read();
    let graph = krate.graph();
    let under = |m: &Vec<String>, top: &str| m.first().is_some_and(|s| s == top);
    let mut wrong = Vec::new();
    let mut kernel_files = 0;
    for (from, targets) in &graph {
        let allowed: &[&str] = if under(from, "portable") || under(from, "arch") {
            kernel_files += 1;
            &["ring", "kernel_set", "portable", "arch"]
        } else if under(from, "ring") || under(from, "kernel_set") {
            &["ring"]
        } else {
            continue;
        };
        for to in targets {
            if !allowed.iter().any(|a| under(to, a)) {
                wrong.push(format!("{} imports {}", name(from), name(to)));
            }
        }
    }
    assert!(kernel_files >= 10, "only {kernel_files} kernel files found: is the layout still portable/ and arch/?");
    assert!(wrong.is_empty(), "the kernel layer must point one way:\n{}", wrong.join("\n"));
}

#[test]
fn no_file_reaches_itself_through_its_imports() {
    let graph = Crate::read().graph();
    assert!(graph.len() > 30, "only {} files read", graph.len());
    // Depth-first search with colours; a grey target is a back edge: a circle.
    let mut colour: BTreeMap<&Vec<String>, u8> = BTreeMap::new();
    let mut circles = Vec::new();
    fn visit<'a>(
        node: &'a Vec<String>,
        graph: &'a BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        colour: &mut BTreeMap<&'a Vec<String>, u8>,
        stack: &mut Vec<&'a Vec<String>>,
        circles: &mut Vec<String>,
    ) {
        colour.insert(node, 1);
        stack.push(node);
        for next in &graph[node] {
            match colour.get(next).copied().unwrap_or(0) {
                0 => visit(next, graph, colour, stack, circles),
                1 => {
                    let from = stack.iter().position(|n| *n == next).unwrap();
                    let names: Vec<String> = stack[from..].iter().map(|m| name(m)).collect();
                    circles.push(format!("{} -> {}", names.join(" -> "), name(next)));
                }
                _ => {}
            }
        }
        stack.pop();
        colour.insert(node, 2);
    }
    for node in graph.keys() {
        if colour.get(node).copied().unwrap_or(0) == 0 {
            visit(node, &graph, &mut colour, &mut Vec::new(), &mut circles);
        }
    }
    assert!(circles.is_empty(), "import circles in pqverify-core:\n{}", circles.join("\n"));
}

/// The reader itself: a circle and a kernel importing the chooser are found.
#[test]
fn the_reader_sees_paths_groups_and_tests() {
    let code = strip(
        "use crate::{kernel::f1600, ring::{Poly, field::Q}};\nfn f() { super::x::y(); }\n#[cfg(test)]\nmod tests {\n    use crate::mldsa;\n}\n",
    );
    let found: Vec<String> = paths(&code).iter().map(|p| p.join("::")).collect();
    assert!(found.contains(&"crate::kernel::f1600".to_owned()), "{found:?}");
    assert!(found.contains(&"crate::ring::Poly".to_owned()), "{found:?}");
    assert!(found.contains(&"crate::ring::field::Q".to_owned()), "{found:?}");
    assert!(found.contains(&"super::x::y".to_owned()), "{found:?}");
    assert!(!found.iter().any(|p| p.contains("mldsa")), "test modules are left out: {found:?}");
}
