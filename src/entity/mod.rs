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
pub mod model;
mod recognize;
pub mod tagger;

pub use lexicon::{CharClasses, Lexicon, UserName};
pub use recognize::{Candidate, Phases, Recognizer, FEATURES, MIN_MODEL_COUNT};

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use std::fmt;

/// The runs of Han characters of a book's chapters, each with the
/// characters just before and after it: what the name tagger reads.
pub fn han_runs(chapters: &[&str]) -> Vec<(Vec<char>, char, char)> {
    let store = corpus::RunStore::new(chapters);
    let runs = store.runs();
    runs.iter()
        .map(|r| (r.chars(), r.before, r.after))
        .collect()
}

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

    /// jieba's part-of-speech tag for a name of this type (frequency.csv,
    /// `discover --format dict`).
    pub fn jieba_tag(self) -> &'static str {
        match self {
            EntityType::Person => "nr",
            EntityType::Place => "ns",
            EntityType::Army | EntityType::Faction => "nt",
        }
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
    /// Where discovery spent its time.
    phases: Phases,
}

impl Catalog {
    /// For each army whose name starts with a faction's (契丹兵 → 契丹), that
    /// faction, so a faction named only inside army names is still counted.
    pub fn nested_factions(&self) -> std::collections::HashMap<EntityId, EntityId> {
        let factions: Vec<(EntityId, &str)> = self
            .entities()
            .iter()
            .enumerate()
            .filter(|(_, e)| e.kind == EntityType::Faction)
            .map(|(i, e)| (i as EntityId, e.name.as_str()))
            .collect();
        let mut out = std::collections::HashMap::new();
        for (i, e) in self.entities().iter().enumerate() {
            if e.kind != EntityType::Army {
                continue;
            }
            let best = factions
                .iter()
                .filter(|(_, f)| e.name.starts_with(f) && e.name.len() > f.len())
                .max_by_key(|(_, f)| f.len());
            if let Some(&(fid, _)) = best {
                out.insert(i as EntityId, fid);
            }
        }
        out
    }

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
            Some(name_matcher(
                patterns.iter().map(|p| p.0.as_str()),
                MatchKind::LeftmostLongest,
            ))
        };
        let pattern_entity = patterns.iter().map(|p| p.1).collect();
        drop(patterns);
        Catalog {
            entities,
            pattern_entity,
            matcher,
            phases: Phases::default(),
        }
    }

    /// This catalog with the timings of the discovery that made it.
    pub fn with_phases(mut self, phases: Phases) -> Catalog {
        self.phases = phases;
        self
    }

    /// Where the discovery that made this catalog spent its time.
    pub fn phases(&self) -> &Phases {
        &self.phases
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
    /// A one-character name (秦, 宋, 金) is a mention only in a polity
    /// context, since the character alone is mostly something else (好汉, 金银).
    pub fn find_mentions(&self, text: &str) -> Vec<Mention> {
        let Some(matcher) = &self.matcher else {
            return Vec::new();
        };
        matcher
            .find_iter(text)
            .filter(|m| {
                let one_char = text[m.start()..m.end()].chars().nth(1).is_none();
                !one_char || self.polity_context(text, m.start(), m.end())
            })
            .map(|m| Mention {
                entity: self.pattern_entity[m.pattern().as_usize()],
                start: m.start(),
                end: m.end(),
            })
            .collect()
    }

    /// 秦军, 金人, 燕国, 伐燕, 入宋, 大宋 (but not 一条大汉), or a run of
    /// one-character names (宋金辽元).
    fn polity_context(&self, text: &str, start: usize, end: usize) -> bool {
        let chars = CharClasses::builtin();
        let mut before = text[..start].chars().rev();
        let prev = before.next();
        let next = text[end..].chars().next();
        if next.is_some_and(|c| chars.polity_after.contains(&c)) {
            return true;
        }
        if let Some(p) = prev {
            if p == '大' {
                return !before
                    .next()
                    .is_some_and(|c| chars.not_before_da.contains(&c));
            }
            if chars.polity_before.contains(&p) || chars.polity_before_weak.contains(&p) {
                return true;
            }
        }
        let single_name = |c: Option<char>| {
            c.is_some_and(|c| {
                let mut buf = [0u8; 4];
                self.is_one_char_name(c.encode_utf8(&mut buf))
            })
        };
        single_name(prev) || single_name(next)
    }

    fn is_one_char_name(&self, s: &str) -> bool {
        self.matcher.as_ref().is_some_and(|m| {
            m.find(s)
                .is_some_and(|hit| hit.start() == 0 && hit.end() == s.len())
        })
    }
}

/// An Aho-Corasick automaton over names: a DFA when it fits the size
/// limit, else the automaton aho-corasick picks, which finds the same
/// matches (a failure never silently changes results). A DFA is the
/// slowest to build but searches a book's runs about three times faster
/// than the NFA aho-corasick picks for a few hundred names, and every
/// caller searches a whole book with a few thousand names at most. The
/// only failure left, more patterns than `u32` counts, is a bug.
pub(crate) fn name_matcher<I, P>(names: I, kind: MatchKind) -> AhoCorasick
where
    I: IntoIterator<Item = P>,
    P: AsRef<[u8]>,
{
    let names: Vec<P> = names.into_iter().collect();
    AhoCorasickBuilder::new()
        .match_kind(kind)
        .kind(Some(aho_corasick::AhoCorasickKind::DFA))
        .build(&names)
        .or_else(|_| AhoCorasickBuilder::new().match_kind(kind).build(&names))
        .expect("fewer names than u32::MAX build an automaton")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_matchers_find_the_same_names_as_an_nfa() {
        let names = ["耶律", "耶律挞烈", "北平军", "北平"];
        let text = "耶律挞烈率军攻北平，北平军守城";
        let spans = |ac: AhoCorasick| -> Vec<(usize, usize)> {
            ac.find_iter(text).map(|m| (m.start(), m.end())).collect()
        };
        let nfa = AhoCorasickBuilder::new()
            .match_kind(MatchKind::LeftmostLongest)
            .kind(Some(aho_corasick::AhoCorasickKind::ContiguousNFA))
            .build(names)
            .expect("builds");
        let found = spans(name_matcher(names, MatchKind::LeftmostLongest));
        assert_eq!(found, spans(nfa));
        assert_eq!(found.len(), 3);
    }

    fn faction(name: &str) -> Entity {
        Entity {
            name: name.to_string(),
            kind: EntityType::Faction,
            aliases: vec![],
            evidence: vec![],
            confidence: 1.0,
        }
    }

    #[test]
    fn one_character_names_need_a_polity_context() {
        let catalog = Catalog::new(vec![
            faction("汉"),
            faction("宋"),
            faction("金"),
            faction("辽"),
        ]);
        let cases = [
            ("一条大汉走来，好汉饶命，金银无数。", 0),
            ("汉军大至，宋人惊走。", 2),
            ("大宋皇帝下诏伐辽。", 2),
            ("宋金辽三国。", 3),
        ];
        for (text, expected) in cases {
            assert_eq!(catalog.find_mentions(text).len(), expected, "{text}");
        }
    }
}
