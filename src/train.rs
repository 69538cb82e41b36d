//! Train: labels the candidates of books from their answer keys and fits
//! the recognizer's learned model (`entity::model`).
//!
//! A book key (`key::BookKey`) lists every person mentioned at least five times
//! and every place, army and faction at least three times, so:
//! - a candidate that is a person or place name of the key is that type;
//!   an army or faction name is `none` for this model (armies and factions
//!   are decided later, from army suffixes and polity contexts);
//! - a candidate on the book's checked not-names list is `none`;
//! - any other candidate seen at least `UNKEYED_MIN` times is `none` (the
//!   key would list it if it were a frequent name); rarer ones are left out
//!   of whole-book training (a minor name may be missing from the key).
//!
//! Chapters are also labelled one at a time (`ChapterExamples`), so that
//! the model learns what a name looks like in a short text, where counts
//! are small, which is how `zhnovel analyze` sees a single chapter.

use crate::entity::model::{Example, NONE, PERSON, PLACE};
use crate::entity::tagger::{gold_tags, GoldName, Sentence, SpanKind};
use crate::entity::{han_runs, EntityType};
use crate::key::BookKey;
use aho_corasick::{AhoCorasickBuilder, MatchKind};
use std::collections::{HashMap, HashSet};

/// Whole-book candidates not in the key are labelled `none` from this count on.
pub const UNKEYED_MIN: u32 = 5;

/// Weight of a chapter-level example (a book gives many more of them).
pub const CHAPTER_WEIGHT: f32 = 0.3;

/// The label of one candidate, or `None` when the key cannot tell.
/// `whole_book` is false for a chapter read on its own.
pub fn label(
    word: &str,
    count: u32,
    names: &HashMap<&str, EntityType>,
    not_names: &HashSet<String>,
    whole_book: bool,
) -> Option<usize> {
    match names.get(word) {
        Some(EntityType::Person) => Some(PERSON),
        Some(EntityType::Place) => Some(PLACE),
        Some(_) => Some(NONE),
        None if not_names.contains(word) => Some(NONE),
        None if !whole_book || count >= UNKEYED_MIN => Some(NONE),
        None => None,
    }
}

/// Labels feature rows (`Recognizer::feature_rows`) into examples.
pub fn examples(
    rows: Vec<(String, u32, Vec<f32>)>,
    key: &BookKey,
    not_names: &HashSet<String>,
    whole_book: bool,
) -> Vec<Example> {
    let names = key.name_types();
    let weight = if whole_book { 1.0 } else { CHAPTER_WEIGHT };
    rows.into_iter()
        .filter_map(|(w, count, features)| {
            label(&w, count, &names, not_names, whole_book).map(|class| Example {
                features,
                class,
                weight,
            })
        })
        .collect()
}

/// The tagger's training sentences of one book: every Han run, tagged from
/// the key's person and place names (longest first; army and faction names
/// and checked not-names hold their characters as `O`, so 北平 in 北平军 is
/// no place). A rare candidate the key leaves out (`candidates`, said fewer
/// than `UNKEYED_MIN` times) is unknown: it may be a minor name.
pub fn tagger_sentences(
    chapters: &[&str],
    key: &BookKey,
    not_names: &HashSet<String>,
    candidates: &[(String, u32)],
) -> Vec<Sentence> {
    let mut names: Vec<String> = Vec::new();
    let mut kinds: Vec<GoldName> = Vec::new();
    let mut types: Vec<(&str, EntityType)> = key.name_types().into_iter().collect();
    types.sort();
    for (name, kind) in types {
        names.push(name.to_string());
        kinds.push(match kind {
            EntityType::Person => GoldName::Name(SpanKind::Person),
            EntityType::Place => GoldName::Name(SpanKind::Place),
            _ => GoldName::Other,
        });
    }
    let mut not: Vec<&String> = not_names.iter().collect();
    not.sort();
    for n in not {
        names.push(n.clone());
        kinds.push(GoldName::Other);
    }
    // Rare candidates the key does not list may be minor names: unknown,
    // as in the candidate model's labels (`label`).
    let known: HashSet<&str> = names.iter().map(String::as_str).collect();
    let mut unknown: Vec<&String> = candidates
        .iter()
        .filter(|(w, count)| {
            *count < UNKEYED_MIN
                && !known.contains(w.as_str())
                && !known.iter().any(|k| w.contains(k))
        })
        .map(|(w, _)| w)
        .collect();
    unknown.sort();
    unknown.dedup();
    for w in unknown {
        names.push(w.clone());
        kinds.push(GoldName::Unknown);
    }
    let ac = AhoCorasickBuilder::new()
        .match_kind(MatchKind::LeftmostLongest)
        .build(&names)
        .expect("key names build an automaton");
    han_runs(chapters)
        .into_iter()
        .map(|(chars, before, after)| {
            let gold = gold_tags(&chars, &ac, &kinds);
            Sentence {
                chars,
                before,
                after,
                gold,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::key::tests::KEY;

    #[test]
    fn labels_by_table() {
        let key = BookKey::parse(std::path::Path::new("k.tsv"), KEY).unwrap();
        let names = key.name_types();
        let not: HashSet<String> = ["施礼罢".to_string()].into();
        // (word, count, whole book, label)
        let table: [(&str, u32, bool, Option<usize>); 8] = [
            ("甲乙丙", 40, true, Some(PERSON)),
            ("老丙", 2, true, Some(PERSON)),
            ("戊己城", 9, true, Some(PLACE)),
            ("庚军", 9, true, Some(NONE)),
            ("施礼罢", 2, true, Some(NONE)),
            ("甲乙", 40, true, Some(NONE)),
            ("某某", 3, true, None),
            ("某某", 3, false, Some(NONE)),
        ];
        for (w, c, book, want) in table {
            assert_eq!(label(w, c, &names, &not, book), want, "{w}");
        }
    }
}
