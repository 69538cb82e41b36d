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
use crate::entity::EntityType;
use crate::key::BookKey;
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
