//! `zhnovel analyze` writes quotes.csv, dialogue.csv and relations.csv whose
//! ends are entities of entities.csv with the right type, and whose quote
//! offsets slice the quotation out of the chapter's cleaned text. (That
//! they are the same at any thread count is `analyze`'s determinism test.)

use crate::util::*;
use std::collections::HashMap;
use std::path::PathBuf;
use zhnovel::book::{load_book, ReadOptions};
use zhnovel::chapter::HeadingMatcher;
use zhnovel::input::collect_sources;
use zhnovel::script::{FerrousConverter, ScriptConfig};

fn types(out: &std::path::Path) -> HashMap<String, String> {
    records(&out.join("entities.csv"))
        .iter()
        .map(|r| (r[0].to_string(), r[1].to_string()))
        .collect()
}

#[test]
fn relate_tables_have_their_columns_and_their_ends_are_typed_entities() {
    let d = Dir::new();
    let out = d.path("out");
    zhnovel(&["analyze", "corpus/", "-o", p(&out), "-q"]).success();
    let headers = [
        (
            "quotes.csv",
            "chapter,start,end,quote,speaker,mention,addressee,method,confidence",
        ),
        ("dialogue.csv", "speaker,addressee,count"),
        (
            "relations.csv",
            "source,relation,target,count,chapters,first_chapter,example",
        ),
    ];
    for (file, header) in headers {
        let text = d.read(&format!("out/{file}"));
        let first = text.trim_start_matches('\u{feff}').lines().next().unwrap();
        assert_eq!(first.trim_end(), header, "{file}");
    }
    let types = types(&out);
    let is = |name: &str, kind: &str| types.get(name).map(String::as_str) == Some(kind);

    let quotes = records(&out.join("quotes.csv"));
    assert!(quotes.len() > 50, "quotations found: {}", quotes.len());
    let methods = ["explicit", "alias", "pronoun", "alternation", "other"];
    let mut spoken = 0;
    for q in &quotes {
        assert!(methods.contains(&&q[7]), "{q:?}");
        for col in [4, 6] {
            assert!(q[col].is_empty() || is(&q[col], "person"), "{q:?}");
        }
        spoken += usize::from(!q[4].is_empty());
    }
    assert!(
        spoken * 2 > quotes.len(),
        "{spoken} of {} attributed",
        quotes.len()
    );

    for r in records(&out.join("dialogue.csv")) {
        assert!(is(&r[0], "person") && is(&r[1], "person"), "{r:?}");
    }

    let relations = records(&out.join("relations.csv"));
    assert!(!relations.is_empty());
    let fighter = |n: &str| is(n, "person") || is(n, "army") || is(n, "faction");
    for r in &relations {
        let (s, t) = (&r[0], &r[2]);
        let ok = match &r[1] {
            "commands" => is(s, "person") && is(t, "army"),
            "member_of" => is(s, "person") && is(t, "faction"),
            "army_of" => is(s, "army") && is(t, "faction"),
            "fights" => fighter(s) && fighter(t) && s < t,
            "at" => (is(s, "army") || is(s, "person")) && is(t, "place"),
            other => panic!("unknown relation {other}: {r:?}"),
        };
        assert!(ok, "{r:?}");
        let (count, chapters): (u64, u64) = (r[3].parse().unwrap(), r[4].parse().unwrap());
        assert!(count >= 1 && chapters >= 1 && !r[6].is_empty(), "{r:?}");
    }
}

#[test]
fn quote_offsets_slice_the_quote_out_of_the_cleaned_text() {
    let d = Dir::new();
    let out = d.path("out");
    zhnovel(&["analyze", "corpus/shuihu", "-o", p(&out), "-q"]).success();
    let sources = collect_sources(&[PathBuf::from("corpus/shuihu")]).unwrap();
    let read = ReadOptions {
        encoding: None,
        lossy: false,
        headings: HeadingMatcher::default(),
    };
    let conv = FerrousConverter::new(ScriptConfig::T2s).unwrap();
    let (chapters, errors) = load_book(&sources, &read, &conv);
    assert!(errors.is_empty());
    let quotes = records(&out.join("quotes.csv"));
    assert!(quotes.len() > 50);
    // The first file is Traditional: quotes are written as in the text.
    let mut traditional = 0;
    for q in &quotes {
        let chapter = &chapters[q[0].parse::<usize>().unwrap() - 1];
        let (start, end): (usize, usize) = (q[1].parse().unwrap(), q[2].parse().unwrap());
        let cleaned: String = chapter
            .text
            .original_text()
            .chars()
            .skip(start)
            .take(end - start)
            .collect();
        assert_eq!(cleaned, q[3], "{q:?}");
        let normalized: String = chapter
            .text
            .text
            .chars()
            .skip(start)
            .take(end - start)
            .collect();
        traditional += usize::from(normalized != cleaned);
    }
    assert!(traditional > 0, "some quotations are in Traditional");
}

/// A chapter typed with straight double quotes (`"`, as many web texts
/// are) gives the same quotations and speakers as the same chapter with
/// curly ones.
#[test]
fn straight_quotes_give_the_quotations_of_curly_ones() {
    let d = Dir::new();
    let curly = seed("003_52543226f0914772.txt");
    assert!(curly.matches('“').count() >= 5, "the seed has quotations");
    let straight = curly.replace(['“', '”'], "\"");
    let a = d.write("a/ch.txt", &curly);
    let b = d.write("b/ch.txt", &straight);
    for (book, out) in [(&a, "oa"), (&b, "ob")] {
        zhnovel(&["analyze", p(book), "-o", p(&d.path(out)), "-q"]).success();
    }
    let speakers = |out: &str| -> Vec<(String, String)> {
        records(&d.path(out).join("quotes.csv"))
            .iter()
            .map(|r| (r[3].to_string(), r[4].to_string()))
            .collect()
    };
    let want = speakers("oa");
    assert!(
        want.iter().filter(|q| !q.1.is_empty()).count() >= 3,
        "{want:?}"
    );
    assert_eq!(speakers("ob"), want);
}
