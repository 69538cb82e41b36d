//! The library's modules form one pipeline: each module may use only the
//! modules before it in `LAYERS`, so there is no cycle between stages and a
//! reader can follow a chapter from bytes to tables without going back up.
//! The order here is the one README.md's "How the code is laid out" lists.

use std::collections::BTreeSet;
use std::path::Path;

/// Top-level library modules, leaves first, in pipeline order.
const LAYERS: &[&str] = &[
    "error",
    "hash",
    "charset",
    "dicts",
    "numerals",
    "rows",
    "input",
    "decode",
    "chapter",
    "clean",
    "script",
    "book",
    "segment",
    "entity",
    "stats",
    "relate",
    "views",
    "analysis",
    "shelf",
    "kwic",
    "output",
    "eval",
    "key",
    "train",
    "book_eval",
];

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// (module, module it uses) for every `crate::x` path in the library.
fn edges() -> BTreeSet<(String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut edges = BTreeSet::new();
    for file in files {
        let rel = file.strip_prefix(&src).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let module = first.trim_end_matches(".rs").to_string();
        // The binary (main.rs, cli/, cmd/) sits on top of every module.
        if ["main", "cli", "cmd", "lib"].contains(&module.as_str()) {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        for (i, _) in text.match_indices("crate::") {
            let rest = &text[i + "crate::".len()..];
            let used: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !used.is_empty() && used != module {
                edges.insert((module.clone(), used));
            }
        }
    }
    edges
}

#[test]
fn every_library_module_is_in_the_layer_list() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs");
    let lib = std::fs::read_to_string(src).unwrap();
    for line in lib.lines() {
        if let Some(name) = line
            .strip_prefix("pub mod ")
            .and_then(|l| l.strip_suffix(';'))
        {
            assert!(
                LAYERS.contains(&name),
                "src/lib.rs declares `{name}`, missing from LAYERS"
            );
        }
    }
}

#[test]
fn modules_use_only_earlier_modules() {
    let rank = |m: &str| LAYERS.iter().position(|l| *l == m);
    let mut wrong = Vec::new();
    for (module, used) in edges() {
        match (rank(&module), rank(&used)) {
            (Some(a), Some(b)) if b < a => {}
            _ => wrong.push(format!("{module} uses {used}")),
        }
    }
    assert!(wrong.is_empty(), "back edges between stages: {wrong:#?}");
}

#[test]
fn readme_lists_the_modules_in_layer_order() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let section = readme
        .split("## How the code is laid out")
        .nth(1)
        .expect("README has the layout section");
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    let listed: Vec<&str> = section
        .lines()
        .filter_map(|l| l.strip_prefix("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter_map(|w| w.strip_suffix(".rs").or_else(|| w.strip_suffix('/')))
        .filter(|m| !["cli", "cmd"].contains(m))
        .collect();
    assert_eq!(
        listed, LAYERS,
        "README's layout lists the modules in LAYERS order"
    );
    for m in LAYERS {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        assert!(
            src.join(format!("{m}.rs")).is_file() || src.join(m).is_dir(),
            "{m} is in the tree"
        );
    }
}

#[test]
fn library_code_never_prints() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut printing = Vec::new();
    for file in files {
        let rel = file
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .to_string();
        if rel == "main.rs" || rel.starts_with("cli/") || rel.starts_with("cmd/") {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            if ["println!", "eprintln!", "print!(", "eprint!(", "dbg!("]
                .iter()
                .any(|m| code.contains(m))
            {
                printing.push(format!("src/{rel}:{}", n + 1));
            }
        }
    }
    assert!(printing.is_empty(), "the library prints: {printing:?}");
}
