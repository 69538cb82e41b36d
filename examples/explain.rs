//! Why the recognizer decides what it does about some words of a book: the
//! candidates' counts, boundaries, cues, features and the verdict of each
//! rule and of the model, as `Recognizer::explain` prints them.
//!
//! ```sh
//! cargo run --release --example explain -- corpus/shuihu/ 鲁智深 史进 华阴县
//! ```
//!
//! The first argument is the book (a file or a folder of chapters, in any
//! encoding and script `zhnovel analyze` reads); the rest are words, in
//! Simplified or Traditional.

use zhnovel::book::{load_book, ReadOptions};
use zhnovel::chapter::HeadingMatcher;
use zhnovel::entity::{Lexicon, Recognizer};
use zhnovel::input::collect_sources;
use zhnovel::script::{Converter, FerrousConverter, ScriptConfig};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (Some(book), words) = (args.next(), args.collect::<Vec<_>>()) else {
        return Err("usage: explain BOOK WORD…".into());
    };
    let converter = FerrousConverter::new(ScriptConfig::T2s)?;
    let read = ReadOptions {
        encoding: None,
        lossy: false,
        headings: HeadingMatcher::default(),
    };
    let sources = collect_sources(&[book.into()])?;
    let (chapters, errors) = load_book(&sources, &read, &converter);
    if let Some(e) = errors.into_iter().next() {
        return Err(e.into());
    }
    let texts: Vec<&str> = chapters.iter().map(|c| c.text.text.as_str()).collect();
    let mut recognizer = Recognizer::new(Lexicon::builtin());
    // ZHNOVEL_MODEL / ZHNOVEL_TAGGER: explain with another model or tagger
    // (a leave-one-out one from scripts/train-model).
    if let Some(p) = std::env::var_os("ZHNOVEL_MODEL") {
        let text = std::fs::read_to_string(&p)?;
        let names = zhnovel::entity::FEATURES;
        recognizer =
            recognizer.with_model(Some(zhnovel::entity::model::Model::parse(&text, &names)?));
    }
    if let Some(p) = std::env::var_os("ZHNOVEL_TAGGER") {
        let text = std::fs::read_to_string(&p)?;
        recognizer = recognizer.with_tagger(Some(zhnovel::entity::tagger::Tagger::parse(&text)?));
    }
    for word in words {
        print!("{}", recognizer.explain(&texts, &converter.convert(&word)));
    }
    Ok(())
}
