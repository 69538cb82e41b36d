//! Relate: who says what to whom, who commands which army, who is on which
//! side. Runs after the entity stage on the book's normalized chapter texts
//! and its `Catalog`, reads both as they are, and hands out plain rows for
//! `quotes.csv`, `dialogue.csv` and `relations.csv`.
//!
//! Per chapter (in parallel): quotations are found and attributed
//! (`quotes`), and relation evidence is read from each sentence
//! (`relations`); then the evidence of the book is merged in chapter order
//! and sides are decided by propagation over the people and armies
//! (`sides`). Cue words come from `dict/relations.txt`.

pub mod quotes;
pub mod relations;
pub mod rows;
pub mod sides;

use crate::book::ChapterText;
use crate::entity::{Catalog, EntityId, EntityType, Mention};
use std::collections::{HashMap, HashSet};

pub use rows::{DialogueRow, QuoteRow, RelationRow};

use crate::dicts::{REALM_WORDS, RELATIONS as CUES, TITLES};

/// Cue words by class (see `dict/relations.txt`), longest first.
#[derive(Debug, Clone, Default)]
pub struct Cues {
    pub say: Vec<&'static str>,
    pub to: Vec<&'static str>,
    pub hear: Vec<&'static str>,
    pub pron: Vec<&'static str>,
    pub cmd: Vec<&'static str>,
    pub head: Vec<&'static str>,
    pub title: Vec<&'static str>,
    pub is: Vec<&'static str>,
    pub join: Vec<&'static str>,
    pub serve: Vec<&'static str>,
    pub obey: Vec<&'static str>,
    /// Kin words between two persons (X长子Y, X之妻Y): one family, one side.
    pub kin: Vec<&'static str>,
    pub fight: Vec<&'static str>,
    pub duel: Vec<&'static str>,
    pub with: Vec<&'static str>,
    pub at: Vec<&'static str>,
    pub neg: Vec<&'static str>,
    pub adv: Vec<&'static str>,
    pub again: Vec<&'static str>,
    pub idiom: Vec<&'static str>,
    pub court: Vec<&'static str>,
    /// The court's own troops (官兵, 禁卫军): an army so named serves the
    /// book's reigning dynasty unless a sentence states its side.
    pub court_army: Vec<&'static str>,
    /// Words that may stand before a clause's subject (只见, 这时, 却说).
    pub opener: Vec<&'static str>,
    /// A speaker's words for himself (小弟, 在下), before 姓X名Y.
    pub self_ref: Vec<&'static str>,
    /// Words after a faction's name that show it reigning (柯烈天下): the
    /// `reign` lines of dict/realm_words.txt.
    pub reign: Vec<&'static str>,
    /// Titles (dict/titles.txt): a faction name that begins one (大元 in 大元帅) is not a mention.
    pub titles: Vec<&'static str>,
}

impl Cues {
    /// The built-in cues of `dict/relations.txt`.
    pub fn builtin() -> Cues {
        let mut c = Cues::default();
        for line in CUES.lines() {
            let line = line.trim_end();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let Some((class, word)) = line.split_once('\t') else {
                continue;
            };
            let list = match class {
                "say" => &mut c.say,
                "to" => &mut c.to,
                "hear" => &mut c.hear,
                "pron" => &mut c.pron,
                "cmd" => &mut c.cmd,
                "head" => &mut c.head,
                "title" => &mut c.title,
                "is" => &mut c.is,
                "join" => &mut c.join,
                "serve" => &mut c.serve,
                "obey" => &mut c.obey,
                "kin" => &mut c.kin,
                "fight" => &mut c.fight,
                "duel" => &mut c.duel,
                "with" => &mut c.with,
                "at" => &mut c.at,
                "neg" => &mut c.neg,
                "adv" => &mut c.adv,
                "again" => &mut c.again,
                "idiom" => &mut c.idiom,
                "court" => &mut c.court,
                "court_army" => &mut c.court_army,
                "self" => &mut c.self_ref,
                "opener" => &mut c.opener,
                _ => continue,
            };
            list.push(word);
        }
        for list in [
            &mut c.say,
            &mut c.to,
            &mut c.hear,
            &mut c.pron,
            &mut c.cmd,
            &mut c.head,
            &mut c.title,
            &mut c.is,
            &mut c.join,
            &mut c.serve,
            &mut c.obey,
            &mut c.kin,
            &mut c.fight,
            &mut c.duel,
            &mut c.with,
            &mut c.at,
            &mut c.neg,
            &mut c.adv,
            &mut c.again,
            &mut c.idiom,
            &mut c.court,
            &mut c.self_ref,
            &mut c.opener,
            &mut c.titles,
        ] {
            list.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
            list.dedup();
        }
        for line in REALM_WORDS.lines() {
            if let Some((word, "reign")) = line.split_once('\t') {
                c.reign.push(word);
            }
        }
        for line in TITLES.lines() {
            if let Some((word, _)) = line.split_once('\t') {
                if !word.starts_with('#') && word.chars().nth(1).is_some() {
                    c.titles.push(word);
                }
            }
        }
        c.titles.extend(c.title.iter().chain(&c.head).copied());
        c.titles
            .sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
        c.titles.dedup();
        c
    }
}

/// The longest cue of `list` that `s` ends with.
pub(crate) fn ends_with_any(s: &str, list: &[&'static str]) -> Option<&'static str> {
    list.iter().copied().find(|c| s.ends_with(c))
}

/// The longest cue of `list` that `s` starts with.
pub(crate) fn starts_with_any(s: &str, list: &[&'static str]) -> Option<&'static str> {
    list.iter().copied().find(|c| s.starts_with(c))
}

/// A located mention with its entity's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub entity: EntityId,
    pub kind: EntityType,
    pub start: usize,
    pub end: usize,
}

/// The mentions of a chapter as the entity stage finds them, plus the
/// faction named inside an army name (契丹兵 → 契丹), as mentions.csv has
/// them; but not a faction whose name begins a title (大元 of 大元帅): that
/// is no side.
pub fn spans(
    text: &str,
    catalog: &Catalog,
    nested: &HashMap<EntityId, EntityId>,
    cues: &Cues,
) -> Vec<Span> {
    let mut out = Vec::new();
    for Mention { entity, start, end } in catalog.find_mentions(text) {
        if catalog.get(entity).kind == EntityType::Faction
            && (starts_with_any(&text[start..], &cues.titles)
                .is_some_and(|t| t.len() > end - start)
                || in_idiom(text, start, end, &cues.idiom))
        {
            continue;
        }
        out.push(Span {
            entity,
            kind: catalog.get(entity).kind,
            start,
            end,
        });
        if let Some(&f) = nested.get(&entity) {
            let len = catalog.get(f).name.len();
            out.push(Span {
                entity: f,
                kind: EntityType::Faction,
                start,
                end: start + len,
            });
        }
    }
    out
}

/// Is `start..end` inside one of `idioms` (明 of 弃暗投明)?
fn in_idiom(text: &str, start: usize, end: usize, idioms: &[&'static str]) -> bool {
    idioms.iter().any(|w| {
        let mut from = start.saturating_sub(w.len());
        while !text.is_char_boundary(from) {
            from += 1;
        }
        let to = (end + w.len()).min(text.len());
        let mut to = to;
        while !text.is_char_boundary(to) {
            to -= 1;
        }
        text[from..to]
            .match_indices(w)
            .any(|(i, m)| from + i <= start && end <= from + i + m.len())
    })
}

/// The three tables of this stage.
#[derive(Debug, Clone, Default)]
pub struct RelateTables {
    pub quotes: Vec<QuoteRow>,
    pub dialogue: Vec<DialogueRow>,
    pub relations: Vec<RelationRow>,
}

/// Quotations and relations of a book, chapter by chapter: `chapter` reads
/// one chapter (on any thread), `RelateTally::add` takes the chapters in
/// chapter order, and `RelateTally::finish` makes dialogue and relations.
/// `names[id]` is the name an entity has in the tables.
pub struct Relater<'c> {
    catalog: &'c Catalog,
    names: &'c [String],
    cues: Cues,
    nested: HashMap<EntityId, EntityId>,
    /// Armies named with a `court_army` word.
    court_armies: HashSet<EntityId>,
}

/// What one chapter adds: its quotes.csv rows, the (speaker, addressee)
/// ids of its quotations, and its relation evidence.
pub struct ChapterRelate {
    pub quotes: Vec<QuoteRow>,
    dialogue: Vec<(EntityId, EntityId)>,
    evidence: relations::Evidence,
}

impl<'c> Relater<'c> {
    pub fn new(catalog: &'c Catalog, names: &'c [String]) -> Relater<'c> {
        let cues = Cues::builtin();
        let court_armies = (0..catalog.len() as EntityId)
            .filter(|&id| {
                let e = catalog.get(id);
                e.kind == EntityType::Army && cues.court_army.contains(&e.name.as_str())
            })
            .collect();
        Relater {
            catalog,
            names,
            cues,
            nested: catalog.nested_factions(),
            court_armies,
        }
    }

    /// Chapter `i` (0-based) of the book.
    pub fn chapter(&self, i: usize, chapter: &ChapterText) -> ChapterRelate {
        let text = chapter.text.text.as_str();
        let spans = spans(text, self.catalog, &self.nested, &self.cues);
        let quotes = quotes::attribute(text, &spans, self.catalog, &self.cues);
        let rows = rows::quote_rows(i + 1, &chapter.text, &quotes, self.names);
        let evidence = relations::evidence(
            i + 1,
            chapter,
            &spans,
            &quotes,
            &self.cues,
            &self.court_armies,
        );
        let dialogue = quotes
            .iter()
            .filter_map(|q| Some((q.speaker?, q.addressee?)))
            .collect();
        ChapterRelate {
            quotes: rows,
            dialogue,
            evidence,
        }
    }
}

/// The book's relate results so far, without the quotes (which go to their
/// table chapter by chapter): speaker → addressee counts and the evidence.
#[derive(Default)]
pub struct RelateTally {
    dialogue: HashMap<(EntityId, EntityId), u64>,
    evidence: Vec<relations::Evidence>,
}

impl RelateTally {
    /// Adds the next chapter (in chapter order); returns its quote rows.
    pub fn add(&mut self, chapter: ChapterRelate) -> Vec<QuoteRow> {
        for pair in chapter.dialogue {
            *self.dialogue.entry(pair).or_default() += 1;
        }
        self.evidence.push(chapter.evidence);
        chapter.quotes
    }

    /// dialogue.csv and relations.csv (`quotes` left empty).
    pub fn finish(self, catalog: &Catalog, names: &[String]) -> RelateTables {
        let dialogue = rows::dialogue_rows(&self.dialogue, names);
        let relations = sides::relation_rows(&self.evidence, catalog, names);
        RelateTables {
            quotes: Vec::new(),
            dialogue,
            relations,
        }
    }
}

/// An entity for the tests' catalogs.
#[cfg(test)]
pub(crate) fn test_entity(name: &str, kind: EntityType) -> crate::entity::Entity {
    crate::entity::Entity {
        name: name.to_string(),
        kind,
        aliases: vec![],
        evidence: vec![],
        confidence: 1.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::Normalized;

    /// relations.csv of one invented chapter.
    fn relations_of(text: &str, entities: &[(&str, EntityType)]) -> Vec<RelationRow> {
        let catalog = Catalog::new(entities.iter().map(|&(n, k)| test_entity(n, k)).collect());
        let names: Vec<String> = catalog.entities().iter().map(|e| e.name.clone()).collect();
        let relater = Relater::new(&catalog, &names);
        let chapter = ChapterText {
            title: String::new(),
            file: String::new(),
            encoding: "UTF-8",
            junk_removed: 0,
            text: Normalized::unchanged(text.to_string()),
        };
        let mut tally = RelateTally::default();
        tally.add(relater.chapter(0, &chapter));
        tally.finish(&catalog, &names).relations
    }

    #[test]
    fn the_courts_troops_serve_the_reigning_dynasty_unless_a_sentence_says_otherwise() {
        use EntityType::*;
        let entities = [
            ("北燕", Faction),
            ("南梁", Faction),
            ("官兵", Army),
            ("禁卫军", Army),
            ("飞熊军", Army),
        ];
        // 北燕 reigns (北燕天下); 官兵 and 禁卫军 are named, never stated of a side,
        // and fight; 飞熊军 is named the same way but is no court word.
        let text = "北燕天下太平。北燕江山永固。官兵杀到。禁卫军围住府门。飞熊军杀到。\
                    南梁兵马甚多。";
        let rows = relations_of(text, &entities);
        let side = |who: &str| {
            rows.iter()
                .find(|r| r.source == who && r.relation == "army_of")
                .map(|r| r.target.clone())
        };
        assert_eq!(side("官兵").as_deref(), Some("北燕"));
        assert_eq!(side("禁卫军").as_deref(), Some("北燕"));
        assert_eq!(side("飞熊军"), None);
        // A sentence that states the side wins over the name.
        let rows = relations_of(&format!("{text}南梁之官兵杀来。"), &entities);
        let side = rows
            .iter()
            .find(|r| r.source == "官兵" && r.relation == "army_of")
            .map(|r| r.target.clone());
        assert_eq!(side.as_deref(), Some("南梁"));
    }
}
