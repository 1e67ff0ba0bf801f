//! No import cycle between the crate's top-level modules (issue 11: "no module cycle").
//!
//! Reads `src/` as text: every `crate::NAME` outside a comment in a file under module `A`
//! is an edge `A -> NAME`. The test fails naming the modules of each cycle it finds.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// Top-level module of a path relative to `src/` (`cmd/solve.rs` -> `cmd`).
fn top_module(rel: &Path) -> String {
    let first = rel.components().next().unwrap().as_os_str();
    first.to_string_lossy().trim_end_matches(".rs").to_string()
}

fn collect(dir: &Path, src: &Path, edges: &mut BTreeMap<String, BTreeSet<String>>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(&path, src, edges);
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let from = top_module(path.strip_prefix(src).unwrap());
        if from == "lib" || from == "main" {
            continue;
        }
        let targets = edges.entry(from.clone()).or_default();
        for line in fs::read_to_string(&path).unwrap().lines() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            for part in code.split("crate::").skip(1) {
                let name: String = part
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() && name != from {
                    targets.insert(name);
                }
            }
        }
    }
}

/// Whether `to` can be reached from `from` along the edges.
fn reaches(edges: &BTreeMap<String, BTreeSet<String>>, from: &str, to: &str) -> bool {
    let mut seen = BTreeSet::new();
    let mut stack = vec![from.to_string()];
    while let Some(m) = stack.pop() {
        for next in edges.get(&m).into_iter().flatten() {
            if next == to {
                return true;
            }
            if seen.insert(next.clone()) {
                stack.push(next.clone());
            }
        }
    }
    false
}

#[test]
fn top_level_modules_import_each_other_without_a_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut edges = BTreeMap::new();
    collect(&src, &src, &mut edges);
    assert!(
        edges.len() >= 10,
        "read only {} modules from {}",
        edges.len(),
        src.display()
    );
    let cycles: Vec<String> = edges
        .iter()
        .flat_map(|(a, targets)| targets.iter().map(move |b| (a, b)))
        .filter(|(a, b)| reaches(&edges, b, a))
        .map(|(a, b)| format!("{a} -> {b}"))
        .collect();
    assert!(cycles.is_empty(), "edges on an import cycle: {cycles:?}");
}
