//! Any bytes as one chapter file: decode (lossy), split, clean, normalize,
//! segment, recognize and count never panic, and every mention's offsets
//! and sentence hold together. The engines are built once per process.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::collections::HashSet;
use std::sync::OnceLock;
use zhnovel::analysis::{analyze_book, CountOptions, Engines};
use zhnovel::book::{normalize_book, CleanChapter};
use zhnovel::chapter::{split_chapters, HeadingMatcher};
use zhnovel::clean::clean;
use zhnovel::decode::decode;
use zhnovel::entity::{Lexicon, Recognizer};
use zhnovel::script::{FerrousConverter, ScriptConfig};
use zhnovel::segment::{Segmenter, Vocabulary};
use zhnovel::stats::Window;

struct Owned {
    converter: FerrousConverter,
    segmenter: Segmenter,
    recognizer: Recognizer,
    stopwords: HashSet<String>,
}

fn owned() -> &'static Owned {
    static OWNED: OnceLock<Owned> = OnceLock::new();
    OWNED.get_or_init(|| {
        let lexicon = Lexicon::builtin();
        let stopwords = lexicon.stopwords().clone();
        let vocabulary = Vocabulary::load();
        Owned {
            converter: FerrousConverter::new(ScriptConfig::T2s).unwrap(),
            segmenter: Segmenter::with_vocabulary(&vocabulary, true),
            recognizer: Recognizer::with_vocabulary(lexicon, vocabulary),
            stopwords,
        }
    })
}

fuzz_target!(|data: &[u8]| {
    // Long inputs only slow the fuzzer down; the stages are linear.
    if data.len() > 4096 {
        return;
    }
    let Ok(decoded) = decode(std::path::Path::new("fuzz.txt"), data, None, true) else {
        return;
    };
    let o = owned();
    let chapters: Vec<CleanChapter> =
        split_chapters(&decoded.text, &HeadingMatcher::default(), "fuzz")
            .into_iter()
            .map(|c| {
                let cleaned = clean(&c.text);
                CleanChapter {
                    title: c.title,
                    file: "fuzz.txt".into(),
                    encoding: decoded.encoding,
                    junk_removed: cleaned.junk_removed,
                    text: cleaned.text,
                }
            })
            .collect();
    let chapters = normalize_book(chapters, &o.converter);
    let engines = Engines {
        converter: &o.converter,
        segmenter: &o.segmenter,
        recognizer: &o.recognizer,
        stopwords: &o.stopwords,
        display: None,
    };
    for window in [Window::Paragraph, Window::Chars(20)] {
        let count = CountOptions {
            window,
            min_count: 1,
            all_words: false,
        };
        let tables = analyze_book(&chapters, &engines, &count, &|| {});
        assert_eq!(tables.chapters.len(), chapters.len());
        for m in &tables.mentions {
            assert!(m.start < m.end, "{m:?}");
            assert!(m.sentence.contains(&*m.surface), "{m:?}");
        }
    }
});
