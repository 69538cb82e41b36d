//! Bad input: a one-line error naming the path, exit 2 for usage errors and
//! 1 for data errors, no panic, inputs never modified, no partial tables.

use crate::util::*;

fn no_tables(dir: &std::path::Path) {
    assert!(
        !dir.join("entities.csv").exists(),
        "no tables written to {}",
        dir.display()
    );
}

#[test]
fn missing_path() {
    let d = Dir::new();
    zhnovel(&["analyze", "no/such/file.txt", "-o", p(&d.path("out"))])
        .fails(2, "no/such/file.txt: no such file");
    no_tables(&d.path("out"));
}

#[test]
fn folder_without_text_files() {
    let d = Dir::new();
    d.write("empty/readme.md", "nothing");
    zhnovel(&["analyze", p(&d.path("empty")), "-o", p(&d.path("out"))])
        .fails(1, "holds no .txt files");
}

#[test]
fn binary_file() {
    let d = Dir::new();
    let f = d.write("image.txt", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x01\0");
    zhnovel(&["analyze", p(&f), "-o", p(&d.path("out"))])
        .fails(1, "image.txt: looks like a binary file");
}

#[test]
fn undecodable_file_names_the_byte_offset() {
    let d = Dir::new();
    let mut bytes = "耶律挞烈".as_bytes().to_vec();
    bytes.extend([0xFF, 0xFE, 0x41]);
    let f = d.write("bad.txt", &bytes);
    zhnovel(&[
        "analyze",
        p(&f),
        "-o",
        p(&d.path("out")),
        "--encoding",
        "utf-8",
    ])
    .fails(1, "bad.txt: not valid utf-8 at byte offset 12");
    // --lossy analyzes it anyway and counts the replacement as junk.
    zhnovel(&[
        "analyze",
        p(&f),
        "-o",
        p(&d.path("out")),
        "--encoding",
        "utf-8",
        "--lossy",
        "-q",
    ])
    .success();
}

#[test]
fn empty_file() {
    let d = Dir::new();
    let f = d.write("empty.txt", b"");
    zhnovel(&["analyze", p(&f), "-o", p(&d.path("out"))]).fails(1, "empty.txt: file is empty");
    let blank = d.write("blank.txt", b"  \n\n");
    zhnovel(&["analyze", p(&blank), "-o", p(&d.path("out"))]).fails(1, "blank.txt: file is empty");
}

#[test]
fn malformed_dictionary_line_names_file_and_line() {
    let d = Dir::new();
    let dict = d.write("my.dict", "雷千峰 100 nr\n柯北辰 lots nr\n");
    zhnovel(&[
        "analyze",
        "corpus/seeds",
        "-o",
        p(&d.path("out")),
        "--dict",
        p(&dict),
    ])
    .fails(1, "my.dict:2: frequency 'lots' is not a whole number");
    no_tables(&d.path("out"));
    let aliases = d.write("aliases.tsv", "刘备\t玄德\n曹操\n");
    zhnovel(&[
        "analyze",
        "corpus/seeds",
        "-o",
        p(&d.path("out")),
        "--aliases",
        p(&aliases),
    ])
    .fails(1, "aliases.tsv:2:");
}

#[test]
fn unwritable_output_folder() {
    let d = Dir::new();
    let file = d.write("plain-file", "x");
    let target = file.join("out");
    zhnovel(&["analyze", "corpus/seeds", "-o", p(&target)])
        .fails(1, "plain-file/out: cannot write");
}

#[test]
fn foreign_output_folder_is_refused_and_untouched() {
    let d = Dir::new();
    d.write("mine/thesis.docx", "precious");
    d.write("mine/entities.csv", "my own table");
    zhnovel(&["analyze", "corpus/seeds", "-o", p(&d.path("mine"))]).fails(2, "--force");
    assert_eq!(d.read("mine/entities.csv"), "my own table");
    assert_eq!(std::fs::read_dir(d.path("mine")).unwrap().count(), 2);
    zhnovel(&[
        "analyze",
        "corpus/seeds",
        "-o",
        p(&d.path("mine")),
        "--force",
        "-q",
    ])
    .success();
    assert_eq!(d.read("mine/thesis.docx"), "precious");
    assert!(d.read("mine/entities.csv").contains("entity,type"));
}

#[test]
fn one_bad_file_among_several() {
    let d = Dir::new();
    d.write("book/01.txt", seed(SEEDS[0]));
    d.write("book/02.txt", b"");
    d.write("book/03.txt", seed(SEEDS[3]));
    let out = d.path("out");
    // Without --keep-going: stop, name the file, write nothing.
    zhnovel(&["analyze", p(&d.path("book")), "-o", p(&out)]).fails(1, "02.txt: file is empty");
    no_tables(&out);
    // With --keep-going: the others are analyzed, the exit code still says it failed.
    let run = zhnovel(&[
        "analyze",
        p(&d.path("book")),
        "-o",
        p(&out),
        "--keep-going",
        "-q",
    ])
    .fails(1, "02.txt: file is empty");
    drop(run);
    assert_eq!(records(&out.join("chapters.csv")).len(), 2);
}

#[test]
fn bad_flags_are_usage_errors() {
    let d = Dir::new();
    let out = p(&d.path("o")).to_string();
    let r = zhnovel(&[
        "analyze",
        "corpus/seeds",
        "-o",
        &out,
        "--window",
        "fortnight",
    ]);
    assert_eq!(r.code(), 2);
    zhnovel(&[
        "analyze",
        "corpus/seeds",
        "-o",
        &out,
        "--encoding",
        "klingon",
    ])
    .fails(2, "unknown encoding 'klingon'");
    zhnovel(&[
        "analyze",
        "corpus/seeds",
        "-o",
        &out,
        "--chapter-pattern",
        "第(",
    ])
    .fails(2, "invalid chapter pattern");
}

#[test]
fn inputs_are_never_modified() {
    let d = Dir::new();
    let src = d.write("in/novel.txt", seed(SEEDS[1]));
    let before = std::fs::read(&src).unwrap();
    let mtime = std::fs::metadata(&src).unwrap().modified().unwrap();
    zhnovel(&["analyze", p(&d.path("in")), "-o", p(&d.path("out")), "-q"]).success();
    zhnovel(&["split", p(&src), "-o", p(&d.path("split")), "-q"]).success();
    assert_eq!(std::fs::read(&src).unwrap(), before);
    assert_eq!(std::fs::metadata(&src).unwrap().modified().unwrap(), mtime);
    let names: Vec<_> = std::fs::read_dir(d.path("in")).unwrap().collect();
    assert_eq!(names.len(), 1, "nothing added next to the input");
}
