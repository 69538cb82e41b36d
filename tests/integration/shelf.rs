//! `zhnovel merge`: books analyzed by separate runs, merged, give the same
//! tables as one `analyze --books` run.

use crate::util::{p, zhnovel, Dir};
use std::collections::BTreeMap;
use std::path::Path;

/// Every file under `dir` but run.json and report.html (whose command line
/// and title name the run), relative path → bytes.
fn tables(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .to_string();
            if path.is_dir() {
                walk(root, &path, out);
            } else if !rel.ends_with("run.json") && !rel.ends_with("report.html") {
                out.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn merge_equals_one_books_run(format: &[&str]) {
    let tmp = Dir::new();
    let one = tmp.path("one");
    let mut args = vec!["analyze", "--books", "corpus/", "-o", p(&one), "-q"];
    args.extend(format);
    zhnovel(&args).success();
    let mut runs = Vec::new();
    // Split runs in the opposite order: merge orders books by name.
    for book in ["shuihu", "seeds"] {
        let out = tmp.path(&format!("runs/{book}"));
        // The path as `--books corpus/` names it, for chapters.csv's `file`.
        let input = format!("corpus/{book}");
        let mut args = vec!["analyze", &input, "-o", p(&out), "-q"];
        args.extend(format);
        zhnovel(&args).success();
        runs.push(out);
    }
    let merged = tmp.path("merged");
    let mut args = vec!["merge"];
    args.extend(runs.iter().map(|r| p(r)));
    args.extend(["-o", p(&merged)]);
    zhnovel(&args).success();
    let (a, b) = (tables(&one), tables(&merged));
    assert_eq!(
        a.keys().collect::<Vec<_>>(),
        b.keys().collect::<Vec<_>>(),
        "the same files"
    );
    assert!(["books.csv", "books.tsv", "books.jsonl"]
        .iter()
        .any(|b| a.contains_key(*b)));
    for (name, bytes) in &a {
        assert!(
            bytes == &b[name],
            "{name} differs between one run and merge"
        );
    }
    assert!(merged.join("run.json").is_file());
}

#[test]
fn merge_of_split_runs_equals_one_books_run() {
    merge_equals_one_books_run(&[]);
}

#[test]
fn merge_keeps_the_books_tsv_format() {
    merge_equals_one_books_run(&["--format", "tsv", "--no-report"]);
}

#[test]
fn merge_keeps_the_books_jsonl_format() {
    merge_equals_one_books_run(&["--format", "jsonl", "--no-report"]);
}

#[test]
fn merge_refuses_sqlite_book_folders_by_name() {
    let tmp = Dir::new();
    let book = tmp.path("runs/seeds");
    zhnovel(&[
        "analyze",
        "corpus/seeds",
        "-o",
        p(&book),
        "--format",
        "sqlite",
        "-q",
    ])
    .success();
    zhnovel(&["merge", p(&book), "-o", p(&tmp.path("out"))]).fails(1, "not a zhnovel book folder");
}

#[test]
fn merge_rejects_a_folder_zhnovel_did_not_write() {
    let tmp = Dir::new();
    tmp.write("notes/entities.csv", "entity\n");
    zhnovel(&["merge", p(&tmp.path("notes")), "-o", p(&tmp.path("out"))])
        .fails(1, "not a zhnovel output folder (no run.json)");
    assert!(!tmp.path("out").exists(), "nothing written");
}

#[test]
fn merge_rejects_two_books_of_one_name() {
    let tmp = Dir::new();
    for dir in ["a/x", "b/x"] {
        tmp.write(&format!("{dir}/run.json"), "{}");
    }
    zhnovel(&[
        "merge",
        p(&tmp.path("a/x")),
        p(&tmp.path("b/x")),
        "-o",
        p(&tmp.path("out")),
    ])
    .fails(1, "two books named `x`");
}
