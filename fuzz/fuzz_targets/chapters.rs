//! Any text: chapter splitting, cleaning, paragraphs and sentences never
//! panic, and every range lies on character boundaries inside its text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zhnovel::chapter::{paragraphs, sentences, split_chapters, HeadingMatcher};
use zhnovel::clean::clean;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let headings = HeadingMatcher::default();
    for c in split_chapters(text, &headings, "fuzz") {
        assert!(!c.text.is_empty());
        let cleaned = clean(&c.text);
        let t = cleaned.text.as_str();
        for r in paragraphs(t).into_iter().chain(sentences(t)) {
            assert!(r.start <= r.end && r.end <= t.len());
            assert!(t.is_char_boundary(r.start) && t.is_char_boundary(r.end));
        }
    }
});
