//! Recognize: builds a book's entity catalog. (First version; the issue
//! "Find the people, places, armies and factions that no dictionary knows"
//! replaces it.)

use super::{Catalog, EntityType, Lexicon};

/// A candidate new word for `zhnovel discover`.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub word: String,
    pub kind: Option<EntityType>,
    pub count: u64,
    pub cohesion: f64,
    pub left_entropy: f64,
    pub right_entropy: f64,
    pub score: f64,
}

pub struct Recognizer {
    #[allow(dead_code)]
    lexicon: Lexicon,
}

impl Recognizer {
    pub fn new(lexicon: Lexicon) -> Recognizer {
        Recognizer { lexicon }
    }

    pub fn discover(&self, _chapters: &[&str]) -> Catalog {
        Catalog::new(Vec::new())
    }

    pub fn candidates(&self, _chapters: &[&str]) -> Vec<Candidate> {
        Vec::new()
    }
}
