//! Entity: finds the people, places, armies and factions of a book.
//!
//! Two passes. `Recognizer::discover` reads every chapter of a book (already
//! converted to Simplified and cleaned) and builds a `Catalog`: the book's
//! entities with their type, aliases, evidence and confidence, from our
//! lexicon (`dict/`), named rules and corpus-level statistics. Then
//! `Catalog::find_mentions` is run per chapter (in parallel) to locate every
//! mention. The segmenter never decides what an entity is; this module never
//! formats output.

mod corpus;
pub mod lexicon;
mod recognize;

pub use lexicon::Lexicon;
pub use recognize::{Candidate, Recognizer};

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use std::fmt;

/// What kind of thing an entity is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EntityType {
    Person,
    Place,
    Army,
    Faction,
}

impl EntityType {
    pub fn as_str(self) -> &'static str {
        match self {
            EntityType::Person => "person",
            EntityType::Place => "place",
            EntityType::Army => "army",
            EntityType::Faction => "faction",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "person" => EntityType::Person,
            "place" => EntityType::Place,
            "army" => EntityType::Army,
            "faction" => EntityType::Faction,
            _ => return None,
        })
    }
}

impl fmt::Display for EntityType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Index of an entity in its `Catalog`.
pub type EntityId = u32;

/// One entity of a book.
#[derive(Debug, Clone, PartialEq)]
pub struct Entity {
    /// Canonical name, Simplified.
    pub name: String,
    pub kind: EntityType,
    /// Other names that refer to it (courtesy names, user aliases), Simplified.
    pub aliases: Vec<String>,
    /// Short codes of the rules and cues that support it (documented in README).
    pub evidence: Vec<String>,
    /// 0.0–1.0.
    pub confidence: f32,
}

/// A located mention: byte offsets into the chapter text it was found in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mention {
    pub entity: EntityId,
    pub start: usize,
    pub end: usize,
}

/// The entities of one book and a matcher over all their names.
pub struct Catalog {
    entities: Vec<Entity>,
    /// Pattern i names entity `pattern_entity[i]`.
    pattern_entity: Vec<EntityId>,
    matcher: Option<AhoCorasick>,
}

impl Catalog {
    /// Builds the matcher. Entities are sorted (type, then name) so ids are
    /// deterministic whatever order they were found in.
    pub fn new(mut entities: Vec<Entity>) -> Catalog {
        entities.sort_by(|a, b| a.kind.cmp(&b.kind).then_with(|| a.name.cmp(&b.name)));
        entities.dedup_by(|a, b| a.kind == b.kind && a.name == b.name);
        let mut patterns: Vec<(String, EntityId)> = Vec::new();
        for (id, e) in entities.iter().enumerate() {
            patterns.push((e.name.clone(), id as EntityId));
            for alias in &e.aliases {
                patterns.push((alias.clone(), id as EntityId));
            }
        }
        // One name naming two entities: keep the first (by type order), so
        // matching is unambiguous.
        patterns.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
        patterns.dedup_by(|a, b| a.0 == b.0);
        let matcher = if patterns.is_empty() {
            None
        } else {
            Some(
                AhoCorasickBuilder::new()
                    .match_kind(MatchKind::LeftmostLongest)
                    .build(patterns.iter().map(|p| p.0.as_str()))
                    .expect("entity names build a matcher"),
            )
        };
        let pattern_entity = patterns.iter().map(|p| p.1).collect();
        drop(patterns);
        Catalog {
            entities,
            pattern_entity,
            matcher,
        }
    }

    pub fn entities(&self) -> &[Entity] {
        &self.entities
    }

    pub fn get(&self, id: EntityId) -> &Entity {
        &self.entities[id as usize]
    }

    pub fn len(&self) -> usize {
        self.entities.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entities.is_empty()
    }

    /// Every mention of a catalogued name in `text`, leftmost-longest, in order.
    pub fn find_mentions(&self, text: &str) -> Vec<Mention> {
        let Some(matcher) = &self.matcher else {
            return Vec::new();
        };
        matcher
            .find_iter(text)
            .map(|m| Mention {
                entity: self.pattern_entity[m.pattern().as_usize()],
                start: m.start(),
                end: m.end(),
            })
            .collect()
    }
}
