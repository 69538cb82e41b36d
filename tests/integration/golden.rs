//! Golden outputs: the tables of `zhnovel analyze corpus/ -o …` compared
//! byte for byte with `tests/golden/`. Every file the run lists in its
//! run.json is compared (a new table is covered once it is blessed), and a
//! golden file the run no longer writes fails too. After an intended change:
//!
//! ```sh
//! ZHNOVEL_BLESS=1 cargo test --test integration golden
//! ```
//!
//! then review `git diff tests/golden/` and commit it.

use crate::util::*;
use std::collections::BTreeSet;

#[test]
fn golden_tables_of_the_corpus() {
    let d = Dir::new();
    let out = d.path("out");
    zhnovel(&["analyze", "corpus/", "-o", p(&out), "-q"]).success();
    let manifest: serde_json::Value = serde_json::from_str(&d.read("out/run.json")).unwrap();
    let written: BTreeSet<String> = manifest["files"]
        .as_array()
        .expect("run.json lists its files")
        .iter()
        .map(|f| f.as_str().unwrap().to_string())
        .collect();
    assert!(written.contains("entities.csv"), "{written:?}");
    let golden = repo().join("tests/golden");
    let bless = std::env::var_os("ZHNOVEL_BLESS").is_some();
    let stored: BTreeSet<String> = std::fs::read_dir(&golden)
        .map(|entries| {
            entries
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|n| n != "README.md")
                .collect()
        })
        .unwrap_or_default();
    if bless {
        std::fs::create_dir_all(&golden).unwrap();
        for stale in stored.difference(&written) {
            std::fs::remove_file(golden.join(stale)).unwrap();
        }
        for file in &written {
            std::fs::copy(out.join(file), golden.join(file)).unwrap();
        }
        return;
    }
    let refresh =
        "refresh with `ZHNOVEL_BLESS=1 cargo test --test integration golden` and review the diff";
    assert_eq!(
        stored, written,
        "the golden files are not the files the run writes; {refresh}"
    );
    let mut changed = Vec::new();
    for file in &written {
        if std::fs::read(out.join(file)).unwrap() != std::fs::read(golden.join(file)).unwrap() {
            changed.push(file.as_str());
        }
    }
    assert!(
        changed.is_empty(),
        "{changed:?} differ from tests/golden/; {refresh}"
    );
}

/// README's "Real output" shows the first rows of the golden tables (the
/// same command on the same corpus): a change to the tables must show there.
#[test]
fn readme_real_output_is_the_golden_tables() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let lines: Vec<&str> = readme.lines().collect();
    let mut shown = 0;
    for (i, line) in lines.iter().enumerate() {
        let Some(rest) = line.strip_prefix("$ head -") else {
            continue;
        };
        let (n, name) = rest.split_once(" out/").unwrap();
        let n: usize = n.parse().unwrap();
        let golden = std::fs::read_to_string(root.join("tests/golden").join(name)).unwrap();
        let golden: Vec<&str> = golden
            .trim_start_matches('\u{feff}')
            .lines()
            .take(n)
            .collect();
        assert_eq!(lines[i + 1..i + 1 + n], golden[..], "README's {name}");
        shown += 1;
    }
    assert!(shown >= 5, "README shows the heads of the tables");
}

/// Every evidence code the golden entities carry is explained in README's
/// "Evidence codes" table, so a reader can look up any row's evidence.
#[test]
fn readme_explains_every_evidence_code_of_the_golden_entities() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let table = readme
        .split_once("### Evidence codes")
        .expect("README has an evidence table")
        .1;
    let documented: BTreeSet<&str> = table
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .filter_map(|l| l.split('`').nth(1))
        .collect();
    let entities = std::fs::read_to_string(root.join("tests/golden/entities.csv")).unwrap();
    let mut rows = csv::Reader::from_reader(entities.trim_start_matches('\u{feff}').as_bytes());
    let at = rows
        .headers()
        .unwrap()
        .iter()
        .position(|h| h == "evidence")
        .expect("an evidence column");
    let used: BTreeSet<String> = rows
        .records()
        .flat_map(|r| {
            let r = r.unwrap();
            r[at].split('|').map(str::to_string).collect::<Vec<_>>()
        })
        .filter(|c| !c.is_empty())
        .collect();
    assert!(used.len() >= 10, "{used:?}");
    let missing: Vec<&String> = used
        .iter()
        .filter(|c| !documented.contains(c.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "README's evidence table lacks {missing:?}"
    );
}
