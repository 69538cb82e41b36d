//! The learned entity model: `zhnovel train` and `--model` / `--no-model`.

use crate::util::*;

const BOOK: &str = "corpus/shuihu/2-水浒传-第三回至第五回-简体.txt";

/// The entities of a run's table as (name, type) pairs.
fn rows(csv_text: &str) -> Vec<(String, String, String)> {
    let mut r = csv::Reader::from_reader(csv_text.trim_start_matches('\u{feff}').as_bytes());
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            (rec[0].to_string(), rec[1].to_string(), rec[8].to_string())
        })
        .collect()
}

#[test]
fn a_tiny_training_run_writes_a_model_that_analyze_loads() {
    let d = Dir::new();
    let key = key_from_the_rules(&d);
    let model = d.path("model.tsv");
    train_on_book(&key, &["-o", p(&model)]);
    let text = d.read("model.tsv");
    assert!(
        text.contains("book-key.tsv"),
        "provenance names the key:\n{text}"
    );
    assert!(text.contains("\nfeature\tmean\tscale\tnone\tperson\tplace\n"));
    assert!(text.contains("\nctx_person_right\t") && text.contains("\n(bias)\t"));
    // Eight hidden units by default, seven fits averaged: 56 lines.
    assert_eq!(text.matches("\n(hidden)\t").count(), 56, "{text}");
    assert!(text.contains("8 hidden units"));
    let plain = d.path("plain.tsv");
    train_on_book(&key, &["-o", p(&plain), "--hidden", "0"]);
    let plain_text = d.read("plain.tsv");
    assert!(!plain_text.contains("(hidden)") && plain_text.contains("0 hidden units"));
    zhnovel(&["entities", BOOK, "--model", p(&plain)]).success();
    // The model loads and decides: its entities carry the `model` code.
    let with = d.path("with");
    zhnovel(&["analyze", BOOK, "-o", p(&with), "--model", p(&model)]).success();
    let with_rows = rows(&d.read("with/entities.csv"));
    assert!(with_rows.iter().any(|r| r.2.contains("model")));
    // Without a model no entity has that code.
    let without = d.path("without");
    zhnovel(&["analyze", BOOK, "-o", p(&without), "--no-model"]).success();
    let without_rows = rows(&d.read("without/entities.csv"));
    assert!(!without_rows.iter().any(|r| r.2.contains("model")));
    assert!(!without_rows.is_empty());
}

#[test]
fn the_builtin_model_decides_on_a_whole_book() {
    let d = Dir::new();
    zhnovel(&["analyze", BOOK, "-o", p(&d.path("o"))]).success();
    let rows = rows(&d.read("o/entities.csv"));
    assert!(rows
        .iter()
        .any(|r| r.1 == "person" && r.2.contains("model")));
}

#[test]
fn a_bad_model_file_is_a_one_line_error_naming_it() {
    let d = Dir::new();
    let bad = d.write(
        "bad-model.tsv",
        "feature\tmean\tscale\tnone\tperson\tplace\nfoo\t0\t1\t0\t0\t0\n",
    );
    zhnovel(&["entities", BOOK, "--model", p(&bad)]).fails(1, "bad-model.tsv");
    let key = d.write("k-key.tsv", "type\tcanonical\nperson\t某甲\n");
    zhnovel(&[
        "train",
        "--book",
        BOOK,
        "--book",
        BOOK,
        "--key",
        p(&key),
        "-o",
        p(&d.path("m")),
    ])
    .fails(1, "one --key per --book");
}

/// A key made from the tool's own output (no hand-written names): the
/// persons and places the rules find.
fn key_from_the_rules(d: &Dir) -> std::path::PathBuf {
    let out = zhnovel(&["entities", BOOK, "--no-model"]).success();
    let mut key = String::from("type\tcanonical\taliases\tmain\tside\tnote\n");
    for (name, kind, _) in rows(&out.stdout())
        .iter()
        .filter(|r| r.1 == "person" || r.1 == "place")
    {
        key.push_str(&format!("{kind}\t{name}\t\t\t\t\n"));
    }
    d.write("book-key.tsv", key)
}

/// `zhnovel train` on BOOK with `key`, 20 steps, and `args`.
fn train_on_book(key: &std::path::Path, args: &[&str]) {
    let mut all = vec!["train", "--book", BOOK, "--key", p(key), "--steps", "20"];
    all.extend_from_slice(args);
    zhnovel(&all).success();
}

#[test]
fn a_tiny_training_run_writes_a_tagger_that_analyze_loads() {
    let d = Dir::new();
    let key = key_from_the_rules(&d);
    let train = |model: &str, tagger: &str| {
        let (model, tagger) = (d.path(model), d.path(tagger));
        train_on_book(
            &key,
            &[
                "--epochs",
                "2",
                "-o",
                p(&model),
                "--tagger-output",
                p(&tagger),
            ],
        );
    };
    train("model.tsv", "tagger.tsv");
    let text = d.read("tagger.tsv");
    assert!(
        text.contains("2 passes") && text.contains("book-key.tsv"),
        "{text}"
    );
    assert!(text.contains("\nfeature\ta\tb\tO\tB-PER\tI-PER\tB-LOC\tI-LOC\n"));
    assert!(text.contains("\ntrans\tSTART\t-\t"));
    // The same books give the same tagger, byte for byte.
    train("m2.tsv", "again.tsv");
    assert_eq!(d.read("again.tsv"), text);
    let (model, tagger) = (d.path("model.tsv"), d.path("tagger.tsv"));
    zhnovel(&[
        "analyze",
        BOOK,
        "-o",
        p(&d.path("o")),
        "--model",
        p(&model),
        "--tagger",
        p(&tagger),
    ])
    .success();
    assert!(!rows(&d.read("o/entities.csv")).is_empty());
}

#[test]
fn a_bad_tagger_file_is_a_one_line_error_naming_it() {
    let d = Dir::new();
    let bad = d.write("bad-tagger.tsv", "feature\ta\tb\tO\n0\t韩\tU+0000\t1\n");
    zhnovel(&["entities", BOOK, "--tagger", p(&bad)]).fails(1, "bad-tagger.tsv");
}

/// The row (name, type, evidence) of `to` in the entities of a probe
/// chapter whose `from` (said at least `min` times) is renamed `to`, an
/// invented name: no expectation names anyone of a key.
fn renamed_probe_row(
    chapter: &str,
    from: &str,
    to: &str,
    min: usize,
) -> Option<(String, String, String)> {
    let d = Dir::new();
    let probe = std::fs::read_to_string(repo().join("tests/data/probes").join(chapter)).unwrap();
    assert!(probe.matches(from).count() >= min, "{chapter} says {from}");
    let book = d.write("ch.txt", probe.replace(from, to));
    let out = zhnovel(&["entities", p(&book), "-q"]).success().stdout();
    rows(&out).into_iter().find(|r| r.0 == to)
}

/// Asserts that `renamed_probe_row` finds `to` typed `kind` with `evidence`
/// among its evidence.
fn assert_renamed_probe_row(
    chapter: &str,
    from: &str,
    to: &str,
    min: usize,
    kind: &str,
    evidence: &str,
) {
    let row = renamed_probe_row(chapter, from, to, min);
    assert!(
        row.as_ref()
            .is_some_and(|r| r.1 == kind && r.2.split('|').any(|e| e == evidence)),
        "{row:?}"
    );
}

/// A family name + a given name shaped like a place (X孤城: 城 ends towns)
/// that the chapter has act: the model, asked again without the place
/// shape once the place reading is the weaker one, reads a person.
#[test]
fn a_person_whose_given_name_ends_like_a_town_is_a_person() {
    assert_renamed_probe_row("wuxia/ch2.txt", "萧孤城", "韩孤城", 10, "person", "model");
}

/// A family name + a given name ending like a mountain (X铁山), said four
/// times, once speaking: the model reads a place, the rules a person who
/// speaks; asked again without the place shape, the model reads a person.
#[test]
fn a_speaker_whose_given_name_ends_like_a_mountain_is_a_person() {
    assert_renamed_probe_row("gulong/ch1.txt", "王铁山", "韩铁山", 4, "person", "model");
}

/// A married woman named by both families (X王氏), said three times and
/// acting, whom the model, trained on whole books, reads as a person at
/// under 0.5 in a chapter: a real surname's name that acts is a person
/// there (`chapter`).
#[test]
fn a_chapter_s_acting_surname_name_the_model_doubts_is_a_person() {
    assert_renamed_probe_row(
        "qinggongan/ch4.txt",
        "郑王氏",
        "韩王氏",
        2,
        "person",
        "chapter",
    );
}

/// A governor's compound (X府) a Republican chapter goes to nine times,
/// which the model reads as a place at under 0.5: a place-shaped name gone
/// to is a place in a chapter (`chapter`).
#[test]
fn a_chapter_s_compound_gone_to_is_a_place() {
    assert_renamed_probe_row("minguo/ch4.txt", "督军府", "护军府", 9, "place", "chapter");
}

/// A town whose name starts with a common word (X口镇: 山口 is a pass),
/// which a war chapter comes back to nine times: the model, reading few
/// mentions of a generic-looking name, gives it a place reading of about
/// 0.1; a place-shaped name a chapter keeps coming back to is a place
/// (`chapter`).
#[test]
fn a_town_a_chapter_keeps_coming_back_to_is_a_place() {
    assert_renamed_probe_row("warweb/ch2.txt", "桥头镇", "山口镇", 9, "place", "chapter");
}

/// A family name + two characters ending with a sect's suffix (X敬宗: 宗
/// ends sects), which the chapter has speak and act: the rules take it as a
/// faction by its suffix, the model, asked about it, is sure of a person.
#[test]
fn a_general_whose_name_ends_like_a_sect_is_a_person() {
    assert_renamed_probe_row(
        "classical/ch2.txt",
        "左敬宗",
        "韩敬宗",
        10,
        "person",
        "model",
    );
}

/// A chapter's protagonist whose name is no shape the model knows (a
/// surname that is also a common word + 不 + a verb, in a Gu Long manner)
/// and that it calls no name, said on every other line and opening
/// clauses, is a person (`opener`).
#[test]
fn a_protagonist_said_on_every_other_line_is_a_person() {
    assert_renamed_probe_row("gulong/ch1.txt", "宁不归", "燕不归", 20, "person", "opener");
}

/// An inn a chapter goes to five times, with a place suffix (店) the model
/// reads as weak, is a place though the model calls it no name: the text
/// goes there and names it after different words.
#[test]
fn a_place_the_chapter_goes_to_is_a_place() {
    let row = renamed_probe_row("qinggongan/ch1.txt", "福顺店", "福安店", 5);
    assert!(
        row.as_ref()
            .is_some_and(|r| r.1 == "place" && r.2.contains("mov") && !r.2.contains("model")),
        "{row:?}"
    );
}
