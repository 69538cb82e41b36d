//! Analysis: runs the stages over one book. Sources are read and decoded in
//! parallel, split into chapters, cleaned and normalized; entity discovery
//! reads the whole book once; then each chapter is segmented, its mentions
//! found and its partial tables counted in parallel (rayon), and the partials
//! are merged in chapter order and sorted, so any thread count gives the same
//! tables.

use crate::chapter::{paragraphs, sentences, split_chapters, HeadingMatcher};
use crate::clean::clean;
use crate::decode::decode;
use crate::entity::{Catalog, EntityId, EntityType, Mention, Recognizer};
use crate::error::{Error, Result};
use crate::input::SourcePath;
use crate::output::{ChapterRow, CooccurrenceRow, EntityRow, FrequencyRow, MentionRow};
use crate::script::{Converter, Normalized};
use crate::segment::{Segmenter, Word};
use crate::stats::{Cooccurrence, Window, WordCounts};
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// How to read the inputs.
#[derive(Debug, Clone)]
pub struct ReadOptions {
    pub encoding: Option<&'static encoding_rs::Encoding>,
    pub lossy: bool,
    pub headings: HeadingMatcher,
}

/// How to count.
#[derive(Debug, Clone)]
pub struct CountOptions {
    pub window: Window,
    pub min_count: u64,
    pub all_words: bool,
}

/// The shared, expensive engines, built once and lent to every thread.
pub struct Engines<'a> {
    pub converter: &'a dyn Converter,
    pub segmenter: &'a Segmenter,
    pub recognizer: &'a Recognizer,
    pub stopwords: &'a HashSet<String>,
    /// Writes entity names in Traditional (`--script traditional`).
    pub display: Option<&'a dyn Converter>,
}

/// One chapter ready for analysis.
#[derive(Debug, Clone)]
pub struct ChapterText {
    pub title: String,
    pub file: String,
    pub encoding: &'static str,
    pub junk_removed: usize,
    pub text: Normalized,
}

/// Reads, decodes, splits, cleans and normalizes the sources of one book.
/// Sources that fail are returned with their error beside the chapters of the
/// others, in input order.
pub fn load_book(
    sources: &[SourcePath],
    read: &ReadOptions,
    converter: &dyn Converter,
) -> (Vec<ChapterText>, Vec<Error>) {
    let per_source: Vec<Result<Vec<ChapterText>>> = sources
        .par_iter()
        .map(|source| load_source(source, read, converter))
        .collect();
    let mut chapters = Vec::new();
    let mut errors = Vec::new();
    for r in per_source {
        match r {
            Ok(c) => chapters.extend(c),
            Err(e) => errors.push(e),
        }
    }
    (chapters, errors)
}

fn load_source(
    source: &SourcePath,
    read: &ReadOptions,
    converter: &dyn Converter,
) -> Result<Vec<ChapterText>> {
    let bytes = source.read()?;
    let path = source.path();
    let decoded = decode(&path, &bytes, read.encoding, read.lossy)?;
    drop(bytes);
    let stem = file_stem(&path);
    let raw = split_chapters(&decoded.text, &read.headings, &stem);
    if raw.is_empty() {
        return Err(Error::Empty { path });
    }
    let file = source.display();
    Ok(raw
        .into_par_iter()
        .map(|c| {
            let cleaned = clean(&c.text);
            ChapterText {
                title: c.title,
                file: file.clone(),
                encoding: decoded.encoding,
                junk_removed: cleaned.junk_removed,
                text: Normalized::new(cleaned.text, converter),
            }
        })
        .collect())
}

fn file_stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| "-".to_string())
}

/// Every table of one book, ready to write.
#[derive(Debug, Clone, Default)]
pub struct BookTables {
    pub chapters: Vec<ChapterRow>,
    pub entities: Vec<EntityRow>,
    pub mentions: Vec<MentionRow>,
    pub cooccurrence: Vec<CooccurrenceRow>,
    pub frequency: Vec<FrequencyRow>,
}

/// What one chapter contributes before merging.
struct ChapterPartial {
    row: ChapterRow,
    words: WordCounts,
    mentions: Vec<MentionRow>,
    /// Per entity: count, and per surface spelling its count.
    entity_counts: HashMap<EntityId, (u64, HashMap<String, u64>)>,
    cooccurrence: Cooccurrence,
}

/// Discovers the book's entities and counts every chapter. `progress` is
/// called once per chapter done (from any thread).
pub fn analyze_book(
    chapters: &[ChapterText],
    engines: &Engines,
    count: &CountOptions,
    progress: &(dyn Fn() + Sync),
) -> BookTables {
    let texts: Vec<&str> = chapters.iter().map(|c| c.text.text.as_str()).collect();
    let catalog = engines.recognizer.discover(&texts);
    let nested = nested_factions(&catalog);
    let partials: Vec<ChapterPartial> = chapters
        .par_iter()
        .enumerate()
        .map(|(i, c)| {
            let p = analyze_chapter(i + 1, c, &catalog, &nested, engines, count);
            progress();
            p
        })
        .collect();
    merge(partials, &catalog, engines, count)
}

/// For each army whose name starts with a faction's (契丹兵 → 契丹), that
/// faction, so a faction named only inside army names is still counted.
fn nested_factions(catalog: &Catalog) -> HashMap<EntityId, EntityId> {
    let factions: Vec<(EntityId, &str)> = catalog
        .entities()
        .iter()
        .enumerate()
        .filter(|(_, e)| e.kind == EntityType::Faction)
        .map(|(i, e)| (i as EntityId, e.name.as_str()))
        .collect();
    let mut out = HashMap::new();
    for (i, e) in catalog.entities().iter().enumerate() {
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

fn analyze_chapter(
    index: usize,
    chapter: &ChapterText,
    catalog: &Catalog,
    nested: &HashMap<EntityId, EntityId>,
    engines: &Engines,
    count: &CountOptions,
) -> ChapterPartial {
    let text = chapter.text.text.as_str();
    let found = catalog.find_mentions(text);
    let words = engines.segmenter.tag(text);
    let words = merge_mention_words(words, &found, text, catalog);
    let counted = words.iter().filter(|w| !is_punctuation(w));
    let word_total = counted.clone().count();
    let kept = counted.filter(|w| count.all_words || !engines.stopwords.contains(w.text));
    let word_counts = WordCounts::count(kept.map(|w| (w.text, w.pos)));

    let sentence_ranges = sentences(text);
    let chars = CharIndex::new(text);
    let mut mention_rows = Vec::with_capacity(found.len());
    let mut entity_counts: HashMap<EntityId, (u64, HashMap<String, u64>)> = HashMap::new();
    let mut s = 0;
    let mut record = |m: &Mention, mention_rows: &mut Vec<MentionRow>| {
        while s + 1 < sentence_ranges.len() && sentence_ranges[s].end <= m.start {
            s += 1;
        }
        let sentence = sentence_ranges
            .get(s)
            .map(|r| chapter.text.original(r.start, r.end).to_string())
            .unwrap_or_default();
        let surface = chapter.text.original(m.start, m.end).to_string();
        let e = catalog.get(m.entity);
        let tally = entity_counts.entry(m.entity).or_default();
        tally.0 += 1;
        *tally.1.entry(surface.clone()).or_insert(0) += 1;
        mention_rows.push(MentionRow {
            chapter: index,
            entity: display_name(engines, &e.name),
            kind: e.kind.as_str(),
            surface,
            start: chars.char_of(m.start),
            end: chars.char_of(m.end),
            sentence,
        });
    };
    for m in &found {
        record(m, &mut mention_rows);
        if let Some(&faction) = nested.get(&m.entity) {
            let len = catalog.get(faction).name.len();
            let inner = Mention {
                entity: faction,
                start: m.start,
                end: m.start + len,
            };
            record(&inner, &mut mention_rows);
        }
    }

    let units = match count.window {
        Window::Sentence => sentence_ranges.clone(),
        Window::Paragraph => paragraphs(text),
        Window::Chapter => std::iter::once(0..text.len()).collect(),
        Window::Chars(_) => Vec::new(),
    };
    let pairs: Vec<(EntityId, usize)> = found.iter().map(|m| (m.entity, m.start)).collect();
    let cooccurrence = Cooccurrence::count(count.window, &pairs, &units, |b| chars.char_of(b));

    ChapterPartial {
        row: ChapterRow {
            index,
            title: chapter.title.clone(),
            file: chapter.file.clone(),
            encoding: chapter.encoding,
            characters: text.chars().filter(|c| *c != '\n').count(),
            words: word_total,
            mentions: mention_rows.len(),
            junk_removed: chapter.junk_removed,
        },
        words: word_counts,
        mentions: mention_rows,
        entity_counts,
        cooccurrence,
    }
}

fn display_name(engines: &Engines, name: &str) -> String {
    match engines.display {
        Some(conv) => conv.convert(name),
        None => name.to_string(),
    }
}

/// Punctuation, symbols and whitespace are not words.
fn is_punctuation(w: &Word) -> bool {
    !w.text.chars().any(|c| c.is_alphanumeric())
}

/// Replaces the words a mention covers by one word for the mention, so that
/// discovered names count as whole words (完颜照立, not 完颜 + 照立). Pieces of
/// words that stick out of a mention are kept as their own words.
fn merge_mention_words<'a>(
    words: Vec<Word<'a>>,
    mentions: &[Mention],
    text: &'a str,
    catalog: &Catalog,
) -> Vec<Word<'a>> {
    if mentions.is_empty() {
        return words;
    }
    let mut out = Vec::with_capacity(words.len());
    let mut m = 0;
    let mut emitted: Option<usize> = None;
    for w in words {
        let mut pos = w.start;
        while pos < w.end {
            while m < mentions.len() && mentions[m].end <= pos {
                m += 1;
            }
            match mentions.get(m).filter(|mn| mn.start < w.end) {
                Some(mention) => {
                    if pos < mention.start {
                        out.push(Word {
                            text: &text[pos..mention.start],
                            start: pos,
                            end: mention.start,
                            ..w
                        });
                    }
                    if emitted != Some(m) {
                        out.push(Word {
                            text: &text[mention.start..mention.end],
                            pos: pos_tag(catalog.get(mention.entity).kind),
                            start: mention.start,
                            end: mention.end,
                        });
                        emitted = Some(m);
                    }
                    pos = mention.end.min(w.end);
                }
                None => {
                    out.push(Word {
                        text: &text[pos..w.end],
                        start: pos,
                        ..w
                    });
                    pos = w.end;
                }
            }
        }
    }
    out
}

fn pos_tag(kind: EntityType) -> &'static str {
    match kind {
        EntityType::Person => "nr",
        EntityType::Place => "ns",
        EntityType::Army | EntityType::Faction => "nt",
    }
}

/// Byte → character offsets for one text, in O(1) per lookup.
struct CharIndex {
    /// Character index of each byte that starts a character.
    starts: Vec<u32>,
    total: usize,
}

impl CharIndex {
    fn new(text: &str) -> CharIndex {
        let mut starts = vec![0u32; text.len() + 1];
        let mut n = 0u32;
        for (i, _) in text.char_indices() {
            starts[i] = n;
            n += 1;
        }
        starts[text.len()] = n;
        CharIndex {
            starts,
            total: n as usize,
        }
    }

    fn char_of(&self, byte: usize) -> usize {
        self.starts.get(byte).map_or(self.total, |&c| c as usize)
    }
}

fn merge(
    partials: Vec<ChapterPartial>,
    catalog: &Catalog,
    engines: &Engines,
    count: &CountOptions,
) -> BookTables {
    let mut tables = BookTables::default();
    let mut words = WordCounts::default();
    let mut cooc = Cooccurrence::default();
    // entity → (count, chapters, first chapter, surface counts)
    let mut ents: HashMap<EntityId, (u64, u64, usize, HashMap<String, u64>)> = HashMap::new();
    for p in partials {
        let index = p.row.index;
        tables.chapters.push(p.row);
        words.merge(p.words);
        cooc.merge(p.cooccurrence);
        tables.mentions.extend(p.mentions);
        for (id, (n, surfaces)) in p.entity_counts {
            let e = ents.entry(id).or_insert((0, 0, index, HashMap::new()));
            e.0 += n;
            e.1 += 1;
            e.2 = e.2.min(index);
            for (s, k) in surfaces {
                *e.3.entry(s).or_insert(0) += k;
            }
        }
    }
    tables.frequency = words
        .rows(count.min_count)
        .into_iter()
        .map(|(word, pos, count, chapters)| FrequencyRow {
            word,
            pos,
            count,
            chapters,
        })
        .collect();

    let mut entity_rows: Vec<EntityRow> = ents
        .into_iter()
        .map(|(id, (n, chapters, first, surfaces))| {
            let e = catalog.get(id);
            let mut spellings: Vec<(String, u64)> = surfaces.into_iter().collect();
            spellings.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            let original = spellings.first().map(|s| s.0.clone()).unwrap_or_default();
            let variants: Vec<&str> = spellings[1.min(spellings.len())..]
                .iter()
                .map(|s| s.0.as_str())
                .collect();
            EntityRow {
                entity: display_name(engines, &e.name),
                kind: e.kind.as_str(),
                count: n,
                chapters,
                first_chapter: first,
                original,
                variants: variants.join("|"),
                aliases: e.aliases.join("|"),
                evidence: e.evidence.join("|"),
                confidence: format!("{:.2}", e.confidence),
            }
        })
        .collect();
    entity_rows.sort_by(|a, b| {
        b.count
            .cmp(&a.count)
            .then_with(|| a.entity.cmp(&b.entity))
            .then_with(|| a.kind.cmp(b.kind))
    });
    tables.entities = entity_rows;

    let mut pairs: Vec<((EntityId, EntityId), u64)> = cooc
        .pairs
        .iter()
        .filter(|(_, &n)| n >= count.min_count)
        .map(|(&p, &n)| (p, n))
        .collect();
    let mut rows: Vec<CooccurrenceRow> = pairs
        .drain(..)
        .map(|((a, b), n)| {
            let (ea, eb) = (catalog.get(a), catalog.get(b));
            let (na, nb) = (
                display_name(engines, &ea.name),
                display_name(engines, &eb.name),
            );
            let ((src, st), (tgt, tt)) = if na <= nb {
                ((na, ea.kind), (nb, eb.kind))
            } else {
                ((nb, eb.kind), (na, ea.kind))
            };
            CooccurrenceRow {
                source: src,
                target: tgt,
                source_type: st.as_str(),
                target_type: tt.as_str(),
                count: n,
                pmi: format!("{:.3}", cooc.pmi(a, b, n)),
            }
        })
        .collect();
    rows.sort_by(|a, b| {
        b.count
            .cmp(&a.count)
            .then_with(|| a.source.cmp(&b.source))
            .then_with(|| a.target.cmp(&b.target))
    });
    tables.cooccurrence = rows;
    tables
}
