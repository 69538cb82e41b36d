//! The user has the last word: `--names`, `--not-names`, tagged `--dict`
//! words, `--aliases`, and the discover → names → analyze round trip.
//! The text and its names are invented for these tests.

use crate::util::*;

const TEXT: &str = "第一章 渡口\n龙小桥道：“今日便去白石渡。”龙小桥笑道：“白石渡有船。”众人随龙小桥到了白石渡。桥哥点头道：“走罢。”\n\
第二章 夜行\n龙小桥领着众人连夜赶路。龙小桥问道：“前面可是白石渡？”桥哥道：“正是。”龙小桥大喜。\n";

/// (entity, type, aliases) rows of entities.csv.
fn entities(d: &Dir, dir: &str) -> Vec<(String, String, String)> {
    let text = d.read(&format!("{dir}/entities.csv"));
    let mut r = csv::Reader::from_reader(text.trim_start_matches('\u{feff}').as_bytes());
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            (rec[0].to_string(), rec[1].to_string(), rec[7].to_string())
        })
        .collect()
}

fn has(rows: &[(String, String, String)], name: &str, kind: &str) -> bool {
    rows.iter().any(|r| r.0 == name && r.1 == kind)
}

#[test]
fn names_file_fixes_type_name_and_aliases() {
    let d = Dir::new();
    let book = d.write("book.txt", TEXT);
    let names = d.write("names.tsv", "# mine\n龙小桥\tplace\t桥哥\n");
    zhnovel(&[
        "analyze",
        p(&book),
        "-o",
        p(&d.path("o")),
        "--names",
        p(&names),
    ])
    .success();
    let rows = entities(&d, "o");
    assert!(has(&rows, "龙小桥", "place"), "{rows:?}");
    assert!(!has(&rows, "龙小桥", "person"), "{rows:?}");
    let row = rows.iter().find(|r| r.0 == "龙小桥").unwrap();
    assert!(row.2.split('|').any(|a| a == "桥哥"), "{row:?}");
    assert!(
        !rows.iter().any(|r| r.0 == "桥哥"),
        "the alias is no row of its own"
    );
}

#[test]
fn not_names_remove_and_tagged_dict_words_add() {
    let d = Dir::new();
    let book = d.write("book.txt", TEXT);
    zhnovel(&["analyze", p(&book), "-o", p(&d.path("a"))]).success();
    let before = entities(&d, "a");
    assert!(has(&before, "龙小桥", "person"), "{before:?}");
    let not = d.write("not.txt", "龙小桥\n");
    let dict = d.write("user.dict", "白石渡 10 ns\n桥哥 5 nr\n");
    zhnovel(&[
        "analyze",
        p(&book),
        "-o",
        p(&d.path("b")),
        "--not-names",
        p(&not),
        "--dict",
        p(&dict),
    ])
    .success();
    let after = entities(&d, "b");
    assert!(!after.iter().any(|r| r.0 == "龙小桥"), "{after:?}");
    assert!(has(&after, "白石渡", "place"), "{after:?}");
    assert!(has(&after, "桥哥", "person"), "{after:?}");
}

#[test]
fn a_malformed_names_line_is_an_error_naming_file_and_line() {
    let d = Dir::new();
    let book = d.write("book.txt", TEXT);
    let names = d.write("names.tsv", "龙小桥\tperson\n白石渡\tvillage\n");
    zhnovel(&["entities", p(&book), "--names", p(&names)]).fails(1, "names.tsv");
    let err = zhnovel(&["entities", p(&book), "--names", p(&names)]).stderr();
    assert!(err.contains('2') && err.contains("village"), "{err}");
}

#[test]
fn discover_names_round_trips_through_analyze() {
    let d = Dir::new();
    let book = d.write("book.txt", TEXT);
    let aliases = d.write("aliases.tsv", "龙小桥\t桥哥\n");
    let run = zhnovel(&[
        "discover",
        p(&book),
        "--format",
        "names",
        "--aliases",
        p(&aliases),
    ])
    .success();
    let lines = run.stdout();
    assert!(
        lines.lines().any(|l| l == "龙小桥\tperson\t桥哥"),
        "{lines}"
    );
    // Edit: 白石渡 becomes a named place; analyze reads the list back.
    let edited = format!("{lines}白石渡\tplace\n");
    let names = d.write("names.tsv", &edited);
    zhnovel(&[
        "analyze",
        p(&book),
        "-o",
        p(&d.path("o")),
        "--names",
        p(&names),
    ])
    .success();
    let rows = entities(&d, "o");
    for line in edited.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        assert!(has(&rows, f[0], f[1]), "{line} in {rows:?}");
    }
    // And discover, given that list, writes it back unchanged.
    let again = zhnovel(&[
        "discover",
        p(&book),
        "--format",
        "names",
        "--names",
        p(&names),
    ])
    .success()
    .stdout();
    for line in edited.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        assert!(
            again
                .lines()
                .any(|l| l.starts_with(&format!("{}\t{}", f[0], f[1]))),
            "{line} in\n{again}"
        );
    }
}

#[test]
fn eval_scores_a_book_key() {
    let d = Dir::new();
    let book = d.write("book.txt", TEXT);
    let key = d.write(
        "book-key.tsv",
        "type\tcanonical\taliases\tmain\tside\tnote\nperson\t龙小桥\t桥哥\tyes\t\t\nplace\t白石渡\t\tyes\t\t\n",
    );
    let names = d.write("names.tsv", "白石渡\tplace\n");
    let out = zhnovel(&["eval", "--key", p(&key), p(&book), "--names", p(&names)])
        .success()
        .stdout();
    let person = out.lines().find(|l| l.starts_with("person:")).unwrap();
    assert!(person.contains("main found 1/1"), "{out}");
    let place = out.lines().find(|l| l.starts_with("place:")).unwrap();
    assert!(
        place.contains("top-20 real 1/1") && place.contains("merged 1/1"),
        "{out}"
    );
    // Without the place named, the place's main entry is missing.
    let not = d.write("not.txt", "白石渡\n");
    let out = zhnovel(&["eval", "--key", p(&key), p(&book), "--not-names", p(&not)])
        .success()
        .stdout();
    assert!(out.contains("main missing: 白石渡"), "{out}");
}
