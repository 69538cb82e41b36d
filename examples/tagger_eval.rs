//! Mention-level precision and recall of a name tagger on a book with a
//! key: every run of the book is tagged, and its person and place spans are
//! compared with the key's names matched longest first (the labels
//! `zhnovel train --tagger-output` learns from). Prints the figures and the
//! most frequent spans wrongly read and missed.
//!
//! ```sh
//! cargo run --release --example tagger_eval -- TAGGER.tsv BOOK.txt BOOK-key.tsv
//! ```
//! BOOK.txt must be UTF-8 in Simplified script (the dev books are).

use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use zhnovel::entity::tagger::{spans_of, Tagger};
use zhnovel::entity::{Lexicon, Recognizer};
use zhnovel::key::BookKey;
use zhnovel::train::tagger_sentences;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [tagger, book, key] = &args[..] else {
        eprintln!("usage: tagger_eval TAGGER.tsv BOOK.txt BOOK-key.tsv");
        std::process::exit(2);
    };
    let read = |p: &str| std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{p}: {e}"));
    let tagger = Tagger::parse(&read(tagger)).unwrap_or_else(|e| panic!("{tagger}: {e}"));
    let text = read(book);
    let key = BookKey::load(Path::new(key)).unwrap_or_else(|e| panic!("{key}: {e}"));
    let recognizer = Recognizer::new(Lexicon::builtin());
    let hints = recognizer.tagger_hints();
    let (mut right, mut wrong, mut missed) = (0usize, 0usize, 0usize);
    let mut wrong_by: BTreeMap<String, usize> = BTreeMap::new();
    let mut missed_by: BTreeMap<String, usize> = BTreeMap::new();
    for s in tagger_sentences(&[&text], &key, &HashSet::new(), &[]) {
        let read: HashSet<_> = tagger
            .spans(&s.chars, s.before, s.after, hints)
            .into_iter()
            .collect();
        let gold: HashSet<_> = spans_of(&s.gold).into_iter().collect();
        let text_of = |(i, j, _): &(usize, usize, _)| s.chars[*i..*j].iter().collect::<String>();
        right += read.intersection(&gold).count();
        for span in read.difference(&gold) {
            wrong += 1;
            *wrong_by.entry(text_of(span)).or_default() += 1;
        }
        for span in gold.difference(&read) {
            missed += 1;
            *missed_by.entry(text_of(span)).or_default() += 1;
        }
    }
    println!(
        "mentions: precision {:.3} ({right}/{}), recall {:.3} ({right}/{})",
        right as f64 / (right + wrong).max(1) as f64,
        right + wrong,
        right as f64 / (right + missed).max(1) as f64,
        right + missed
    );
    for (label, by) in [("wrongly read", wrong_by), ("missed", missed_by)] {
        let mut top: Vec<(String, usize)> = by.into_iter().collect();
        top.sort_by_key(|(w, n)| (std::cmp::Reverse(*n), w.clone()));
        let list: Vec<String> = top
            .iter()
            .take(20)
            .map(|(w, n)| format!("{w} {n}"))
            .collect();
        println!("{label}: {}", list.join(", "));
    }
}
