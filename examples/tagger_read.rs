//! The spans the shipped name tagger reads in a UTF-8 Simplified text, with
//! how often each is read: a look at what the tagger proposes.
//!
//! ```sh
//! cargo run --release --example tagger_read -- TEXT.txt [TAGGER.tsv]
//! ```

use std::collections::BTreeMap;
use zhnovel::entity::tagger::Tagger;
use zhnovel::entity::{han_runs, Lexicon, Recognizer};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let read = |p: &str| std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{p}: {e}"));
    let text = read(&args[0]);
    let tagger = match args.get(1) {
        Some(p) => Tagger::parse(&read(p)).unwrap_or_else(|e| panic!("{p}: {e}")),
        None => Tagger::parse(zhnovel::entity::tagger::BUILTIN).expect("builtin tagger"),
    };
    let recognizer = Recognizer::new(Lexicon::builtin());
    let hints = recognizer.tagger_hints();
    let mut counts: BTreeMap<(String, String), usize> = BTreeMap::new();
    // The runs the recognizer hands the tagger.
    for (chars, before, after) in han_runs(&[&text]) {
        for (s, e, kind) in tagger.spans(&chars, before, after, hints) {
            let name: String = chars[s..e].iter().collect();
            *counts.entry((name, format!("{kind:?}"))).or_default() += 1;
        }
    }
    let mut rows: Vec<_> = counts.into_iter().collect();
    rows.sort_by_key(|((n, k), c)| (std::cmp::Reverse(*c), n.clone(), k.clone()));
    for ((n, k), c) in rows {
        println!("{c}\t{n}\t{k}");
    }
}
