//! The layering rule of ARCHITECTURE.md, checked on the source text: every path into the crate
//! (`crate::…`, and `super::…` that climbs to the crate root) from a file of one top-level
//! module must name a module that layer may use.
//!
//! ```text
//! rng  <-  simd  <-  input  <-  judge  <-  search  <-  sequence, havannah, grid  <-  render
//! ```
//!
//! (`rng`, the small seeded generator, depends on nothing; `simd` uses it only in its tests.)
//!
//! No game uses another game, `simd` knows no game, and nothing in the library names the CLI
//! (`src/main.rs` and `src/cli/`, which only use the library through `bitgames::`).

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The top-level modules each module may use (besides itself).
fn allowed(module: &str) -> Option<&'static [&'static str]> {
    const BASE: &[&str] = &["simd", "rng"];
    const GAME: &[&str] = &["simd", "rng", "input", "judge", "search"];
    Some(match module {
        "rng" => &[],
        "simd" => &["rng"],
        "input" => BASE,
        "judge" => &["simd", "rng", "input"],
        "search" => &["simd", "rng"],
        "sequence" | "havannah" | "grid" => GAME,
        "render" => &[
            "simd", "rng", "input", "judge", "search", "sequence", "havannah", "grid",
        ],
        _ => return None,
    })
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("readable source folder") {
        let path = entry.expect("readable entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file below `src/` (`src/grid/batch/x86_64.rs` is `grid::batch::x86_64`;
/// `mod.rs` names its folder).
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The code of `text` without comments (line comments, doc comments and block comments) and
/// without the contents of string literals, so that prose never counts as a path.
fn code_only(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"//") {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if bytes[i..].starts_with(b"/*") {
            let end = text[i + 2..]
                .find("*/")
                .map_or(bytes.len(), |e| i + 2 + e + 2);
            i = end;
        } else if bytes[i] == b'"' {
            i += 1;
            while i < bytes.len() && bytes[i] != b'"' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else {
            let c = text[i..].chars().next().expect("in bounds");
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// The top-level modules a file at `module` names: `crate::x`, `crate::{x, y::z}`, and `super`
/// chains that climb to the crate root.
fn uses(module: &[String], code: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    for (at, _) in code.match_indices("crate::") {
        // `bitgames::crate::` cannot occur; `$crate::` is a macro's own crate.
        if code[..at].ends_with('$') || code[..at].ends_with(|c: char| c.is_alphanumeric()) {
            continue;
        }
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let inner = &group[..group.find('}').unwrap_or(group.len())];
            for item in inner.split(',') {
                let name = ident(item.trim());
                if !name.is_empty() {
                    found.insert(name);
                }
            }
        } else {
            found.insert(ident(rest));
        }
    }
    for (at, _) in code.match_indices("super::") {
        if code[..at].ends_with("super::") || code[..at].ends_with(|c: char| c.is_alphanumeric()) {
            continue;
        }
        let mut rest = &code[at..];
        let mut ups = 0;
        while let Some(r) = rest.strip_prefix("super::") {
            ups += 1;
            rest = r;
        }
        // A file's own module is `module`; `super` from it is its parent (for a `mod.rs` or a
        // file, the same rule: the file is the module).
        if ups >= module.len() {
            found.insert(ident(rest));
        }
    }
    found.retain(|m| !m.is_empty() && m != "self" && m != "super");
    found
}

#[test]
fn every_path_into_the_crate_follows_the_layering() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    // The crate's top-level modules: the files and folders of `src/`. Any other name after
    // the crate root (an item of the file itself, seen from an inline `mod tests`) is not a
    // module path and is not checked.
    let tops: BTreeSet<String> = files
        .iter()
        .map(|f| module_path(f.strip_prefix(&src).expect("below src"))[0].clone())
        .collect();
    let mut broken = Vec::new();
    let mut checked = 0;
    for file in &files {
        let rel = file.strip_prefix(&src).expect("below src");
        let module = module_path(rel);
        let top = module[0].as_str();
        let text = fs::read_to_string(file).expect("readable source");
        let code = code_only(&text);
        if top == "main" || top == "cli" {
            // The binary reaches the library as `bitgames::`; `crate::` there is the binary.
            continue;
        }
        assert!(
            !code.contains("mod cli") && !code.contains("cli::"),
            "{}: the library names the CLI",
            rel.display()
        );
        if top == "lib" {
            continue;
        }
        let Some(may) = allowed(top) else {
            broken.push(format!(
                "{}: top-level module `{top}` has no layer in tests/layering.rs",
                rel.display()
            ));
            continue;
        };
        for used in uses(&module, &code) {
            if !tops.contains(&used) {
                continue;
            }
            checked += 1;
            if used != top && !may.contains(&used.as_str()) {
                broken.push(format!(
                    "{}: `{top}` uses `{used}`, which its layer may not",
                    rel.display()
                ));
            }
        }
    }
    assert!(
        checked > 20,
        "only {checked} paths found: is the scan broken?"
    );
    assert!(broken.is_empty(), "layering broken:\n{}", broken.join("\n"));
}

/// The scan itself: the paths it must find and the ones it must not.
#[test]
fn the_scan_finds_paths_and_ignores_prose() {
    let module: Vec<String> = ["grid", "batch", "x86_64"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let code = code_only(
        "use crate::{simd::x86, input::window};\n\
         // crate::havannah in a comment\n\
         let s = \"crate::sequence in a string\";\n\
         use super::super::judge::Outcome;\n\
         use super::super::super::havannah::Game;\n\
         fn f() { crate::rng::Rng::new(1); }\n",
    );
    let found = uses(&module, &code);
    let want: BTreeSet<String> = ["simd", "input", "rng", "havannah"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(found, want);
}
