//! Analysis: runs the stages over one book. Sources are read and decoded in
//! parallel, split into chapters, cleaned and normalized; entity discovery
//! reads the whole book once; then each chapter is segmented, its mentions
//! found and its partial tables counted in parallel (rayon), and the partials
//! are merged in chapter order and sorted, so any thread count gives the same
//! tables.

use crate::book::ChapterText;
use crate::chapter::{context_around, paragraphs, sentences, MAX_CONTEXT_CHARS};
use crate::entity::{Catalog, EntityId, Mention, Recognizer};
use crate::relate::{QuoteRow, RelateTables, RelateTally, Relater};
use crate::rows::{
    ChapterPairRow, ChapterRow, CooccurrenceRow, EntityRow, FrequencyRow, MentionRow, RowSink,
    TimelineRow,
};
use crate::script::Converter;
use crate::segment::{Cuts, Segmenter};
use crate::stats::{Cooccurrence, Site, TagSource, Window, WordTable};
use crate::views::ChapterCounts;
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

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

/// Every table of one book, ready to write.
#[derive(Debug, Clone, Default)]
pub struct BookTables {
    pub chapters: Vec<ChapterRow>,
    pub entities: Vec<EntityRow>,
    /// Empty when the mentions went to a `Streams` sink instead.
    pub mentions: Vec<MentionRow>,
    pub cooccurrence: Vec<CooccurrenceRow>,
    pub frequency: Vec<FrequencyRow>,
    /// quotes.csv, dialogue.csv, relations.csv (`relate`).
    pub relate: RelateTables,
    /// One row per entity per chapter it occurs in (`views::timeline`).
    pub timeline: Vec<TimelineRow>,
    /// One row per pair per chapter they meet in (`views::chapter_pairs`).
    pub chapter_pairs: Vec<ChapterPairRow>,
}

/// Discovers the book's entities and counts every chapter. `progress` is
/// called once per chapter done (from any thread).
pub fn analyze_book(
    chapters: &[ChapterText],
    engines: &Engines,
    count: &CountOptions,
    progress: &(dyn Fn() + Sync),
) -> BookTables {
    let (mut mentions, mut quotes) = (Vec::new(), Vec::new());
    let streams = Streams {
        mentions: &mut mentions,
        quotes: &mut quotes,
    };
    let mut tables = analyze_book_into(chapters, engines, count, progress, streams);
    tables.mentions = mentions;
    tables.relate.quotes = quotes;
    tables
}

/// Where the two longest tables (mentions.csv, quotes.csv: about 1.5 and 1
/// bytes per byte of text) go as they are made, chapter by chapter in
/// chapter order, so that a writer can take them without the book's rows
/// ever being held whole.
pub struct Streams<'s> {
    pub mentions: &'s mut dyn RowSink<MentionRow>,
    pub quotes: &'s mut dyn RowSink<QuoteRow>,
}

/// `analyze_book`, with the mention and quote rows handed to `streams`
/// (the returned tables have none).
///
/// Discovery (itself parallel over slices of the book) and cutting the
/// chapters into words, which needs no catalog, share the thread pool; the
/// mentions and counts follow once the catalog is there, beside quotations
/// and relations.
pub fn analyze_book_into(
    chapters: &[ChapterText],
    engines: &Engines,
    count: &CountOptions,
    progress: &(dyn Fn() + Sync),
    streams: Streams,
) -> BookTables {
    let Streams { mentions, quotes } = streams;
    // What reading and decoding freed goes back before discovery's peak.
    return_free_memory();
    let (catalog, cuts) = rayon::join(
        || discover_entities(chapters, engines),
        || cut_chapters(chapters, engines.segmenter),
    );
    return_free_memory();
    let (mut tables, relate) = rayon::join(
        || count_cut_book(chapters, cuts, &catalog, engines, count, progress, mentions),
        || relate_book(chapters, &catalog, engines, quotes),
    );
    tables.relate = relate;
    tables
}

/// Quotations (to `quotes`, in chapter order), dialogue and relations.
fn relate_book(
    chapters: &[ChapterText],
    catalog: &Catalog,
    engines: &Engines,
    quotes: &mut dyn RowSink<QuoteRow>,
) -> RelateTables {
    let names: Vec<String> = catalog
        .entities()
        .iter()
        .map(|e| display_name(engines, &e.name))
        .collect();
    let relater = Relater::new(catalog, &names);
    let mut tally = RelateTally::default();
    map_in_order(
        chapters.len(),
        || (),
        |(), i| relater.chapter(i, &chapters[i]),
        |_, chapter| quotes.put(tally.add(chapter)),
    );
    tally.finish(catalog, &names)
}

/// The book's entity catalog (the recognizer reads every chapter once).
pub fn discover_entities(chapters: &[ChapterText], engines: &Engines) -> Catalog {
    let texts: Vec<&str> = chapters.iter().map(|c| c.text.text.as_str()).collect();
    engines.recognizer.discover(&texts)
}

/// Every chapter cut into words (in parallel), in chapter order.
pub fn cut_chapters(chapters: &[ChapterText], segmenter: &Segmenter) -> Vec<Cuts> {
    chapters
        .par_iter()
        .map(|c| segmenter.cuts(&c.text.text))
        .collect()
}

/// Segments every chapter, finds the catalog's mentions and counts them, in
/// parallel per chapter, then merges and sorts.
pub fn count_book(
    chapters: &[ChapterText],
    catalog: &Catalog,
    engines: &Engines,
    count: &CountOptions,
    progress: &(dyn Fn() + Sync),
) -> BookTables {
    let cuts = cut_chapters(chapters, engines.segmenter);
    let mut mentions = Vec::new();
    let mut tables = count_cut_book(
        chapters,
        cuts,
        catalog,
        engines,
        count,
        progress,
        &mut mentions,
    );
    tables.mentions = mentions;
    tables
}

/// `count_book` on chapters already cut into words (`cuts[i]` are the words
/// of `chapters[i]`), with the mention rows handed to `mentions` in chapter
/// order (the returned tables have none). The cuts are freed once counted,
/// before the tables are made: a book's cuts take about as much memory as
/// its longest table.
///
/// Each worker folds whole chapters into its own running tally (words
/// borrowed from the chapter texts, entities by id), and the tallies are
/// added up at the end: every count is a sum, and every table is sorted by
/// a total order afterwards, so the tables do not depend on which worker
/// counted which chapter, hence not on the thread count. Words are counted
/// untagged; each distinct word is tagged once at the end
/// (`Segmenter::tag_at`).
pub fn count_cut_book(
    chapters: &[ChapterText],
    cuts: Vec<Cuts>,
    catalog: &Catalog,
    engines: &Engines,
    count: &CountOptions,
    progress: &(dyn Fn() + Sync),
    mentions: &mut dyn RowSink<MentionRow>,
) -> BookTables {
    assert_eq!(chapters.len(), cuts.len(), "one Cuts per chapter");
    let nested = catalog.nested_factions();
    let names: Vec<String> = catalog
        .entities()
        .par_iter()
        .map(|e| display_name(engines, &e.name))
        .collect();
    let ctx = Context {
        catalog,
        nested: &nested,
        names: &names,
        engines,
        count,
    };
    // One tally per worker (a tally per chapter would make the merge cost
    // as much as the counting).
    let tallies = map_in_order(
        chapters.len(),
        || Tally::new(catalog.len()),
        |tally, i| {
            let rows = tally.add_chapter(i, &chapters[i], &cuts[i], &ctx);
            progress();
            rows
        },
        |_, rows| mentions.put(rows),
    );
    let tally = tallies
        .into_iter()
        .reduce(Tally::merge)
        .unwrap_or_else(|| Tally::new(catalog.len()));
    drop(cuts);
    return_free_memory();
    tally.into_tables(chapters, &ctx)
}

/// What every chapter's count reads.
struct Context<'c> {
    catalog: &'c Catalog,
    nested: &'c HashMap<EntityId, EntityId>,
    /// Entity names as written in the tables, by id.
    names: &'c [String],
    engines: &'c Engines<'c>,
    count: &'c CountOptions,
}

/// The running counts of some chapters.
struct Tally<'a> {
    /// Per chapter (in any order): its row.
    chapters: Vec<ChapterRow>,
    words: WordTable<'a>,
    /// By entity id.
    entities: Vec<EntityTally>,
    cooccurrence: Cooccurrence,
    /// Per chapter (in any order): its entity and pair counts.
    counts: Vec<ChapterCounts>,
}

#[derive(Default)]
struct EntityTally {
    count: u64,
    chapters: u64,
    /// The last chapter counted (while folding), and the first one.
    last: usize,
    first: usize,
    /// Spellings as written, with their counts.
    spellings: Vec<Spelling>,
    /// The name in the tables, shared by this tally's mention rows (each
    /// tally has its own: threads do not share its reference count).
    name: Option<Arc<str>>,
}

/// A spelling of an entity, shared by the tally's mention rows (and a copy
/// near the tally's other data: the text it was first seen in may be out of
/// the cache by the time it is compared with again).
struct Spelling {
    text: Arc<str>,
    count: u64,
}

impl<'a> Tally<'a> {
    fn new(entities: usize) -> Tally<'a> {
        let mut list = Vec::new();
        list.resize_with(entities, EntityTally::default);
        Tally {
            chapters: Vec::new(),
            words: WordTable::default(),
            entities: list,
            cooccurrence: Cooccurrence::default(),
            counts: Vec::new(),
        }
    }

    /// Counts chapter `i` (0-based) of the book; returns its mention rows.
    fn add_chapter(
        &mut self,
        i: usize,
        chapter: &'a ChapterText,
        cuts: &Cuts,
        ctx: &Context,
    ) -> Vec<MentionRow> {
        let index = i + 1;
        let text = chapter.text.text.as_str();
        let catalog = ctx.catalog;
        let found = catalog.find_mentions(text);

        let mut word_total = 0;
        let words = &mut self.words;
        let chapter_no = i as u32;
        each_word(cuts, text, &found, catalog, chapter_no, |w, start, tag| {
            if !is_punctuation(w) {
                word_total += 1;
                words.add(w, chapter_no, start as u32, tag);
            }
        });

        let sentence_ranges = sentences(text);
        let mut chars = CharCursor::new(text);
        let mut mention_rows = Vec::with_capacity(found.len());
        let mut s = 0;
        // The sentence of the last row, for the next mentions in it (and
        // its length in characters); a sentence too long to repeat whole is
        // cut around each mention instead (`context_around`).
        let mut last_sentence: Option<(usize, usize, Arc<str>)> = None;
        let mut record = |m: &Mention, rows: &mut Vec<MentionRow>| {
            while s + 1 < sentence_ranges.len() && sentence_ranges[s].end <= m.start {
                s += 1;
            }
            let range = sentence_ranges.get(s).cloned().unwrap_or(0..0);
            if !matches!(&last_sentence, Some((i, ..)) if *i == s) {
                let n = text[range.clone()].chars().count();
                let whole: Arc<str> = if n <= MAX_CONTEXT_CHARS {
                    chapter.text.original(range.start, range.end).into()
                } else {
                    "".into()
                };
                last_sentence = Some((s, n, whole));
            }
            let (_, n, whole) = last_sentence.as_ref().expect("set above");
            let sentence = if *n <= MAX_CONTEXT_CHARS {
                whole.clone()
            } else {
                let r = context_around(text, range, *n, m.start, m.end);
                chapter.text.original(r.start, r.end).into()
            };
            let surface = chapter.text.original(m.start, m.end);
            let tally = &mut self.entities[m.entity as usize];
            if tally.count == 0 {
                tally.first = index;
            }
            if tally.last != index {
                tally.chapters += 1;
                tally.last = index;
            }
            tally.count += 1;
            tally.first = tally.first.min(index);
            let spelling = match tally.spellings.iter_mut().find(|sp| *sp.text == *surface) {
                Some(sp) => {
                    sp.count += 1;
                    sp.text.clone()
                }
                None => {
                    let text: Arc<str> = surface.into();
                    tally.spellings.push(Spelling {
                        text: text.clone(),
                        count: 1,
                    });
                    text
                }
            };
            let name = tally
                .name
                .get_or_insert_with(|| ctx.names[m.entity as usize].as_str().into());
            rows.push(MentionRow {
                chapter: index,
                entity: name.clone(),
                kind: catalog.get(m.entity).kind.as_str(),
                surface: spelling,
                start: chars.char_of(m.start),
                end: chars.char_of(m.end),
                sentence,
            });
        };
        let mut ids = Vec::with_capacity(found.len());
        for m in &found {
            record(m, &mut mention_rows);
            ids.push(m.entity);
            if let Some(&faction) = ctx.nested.get(&m.entity) {
                ids.push(faction);
                let len = catalog.get(faction).name.len();
                let inner = Mention {
                    entity: faction,
                    start: m.start,
                    end: m.start + len,
                };
                record(&inner, &mut mention_rows);
            }
        }

        let window = ctx.count.window;
        let units = match window {
            Window::Sentence => sentence_ranges,
            Window::Paragraph => paragraphs(text),
            Window::Chapter => std::iter::once(0..text.len()).collect(),
            Window::Chars(_) => Vec::new(),
        };
        let pairs: Vec<(EntityId, usize)> = found.iter().map(|m| (m.entity, m.start)).collect();
        let mut chars = CharCursor::new(text);
        let own = Cooccurrence::count(window, &pairs, &units, |b| chars.char_of(b));
        self.counts.push(ChapterCounts::new(index, ids, &own.pairs));
        self.cooccurrence.merge(own);

        let row = ChapterRow {
            index,
            title: chapter.title.clone(),
            file: chapter.file.clone(),
            encoding: chapter.encoding,
            characters: text
                .bytes()
                .filter(|&b| (b & 0xC0) != 0x80 && b != b'\n')
                .count(),
            words: word_total,
            mentions: mention_rows.len(),
            junk_removed: chapter.junk_removed,
        };
        self.chapters.push(row);
        mention_rows
    }

    /// Adds the counts of other chapters.
    fn merge(mut self, other: Tally<'a>) -> Tally<'a> {
        self.chapters.extend(other.chapters);
        self.words.merge(other.words);
        self.cooccurrence.merge(other.cooccurrence);
        self.counts.extend(other.counts);
        for (mine, theirs) in self.entities.iter_mut().zip(other.entities) {
            if theirs.count == 0 {
                continue;
            }
            mine.first = if mine.count == 0 {
                theirs.first
            } else {
                mine.first.min(theirs.first)
            };
            mine.count += theirs.count;
            mine.chapters += theirs.chapters;
            for theirs in theirs.spellings {
                match mine.spellings.iter_mut().find(|sp| sp.text == theirs.text) {
                    Some(sp) => sp.count += theirs.count,
                    None => mine.spellings.push(theirs),
                }
            }
        }
        self
    }

    fn into_tables(self, chapters: &'a [ChapterText], ctx: &Context) -> BookTables {
        let Tally {
            chapters: per_chapter,
            words,
            entities,
            cooccurrence,
            counts,
        } = self;
        // Tagging the words takes longest, in parallel; the other tables are
        // made meanwhile.
        let (frequency, (chapter_rows, (entities, cooccurrence))) = rayon::join(
            || frequency_table(words, chapters, ctx),
            || {
                rayon::join(
                    || {
                        let mut rows = per_chapter;
                        rows.sort_unstable_by_key(|row| row.index);
                        rows
                    },
                    || {
                        (
                            entity_table(entities, ctx),
                            cooccurrence_table(&cooccurrence, ctx),
                        )
                    },
                )
            },
        );
        let chapters = chapter_rows;
        let timeline = crate::views::timeline(&entities, &chapters, &counts);
        let chapter_pairs = crate::views::chapter_pairs(&cooccurrence, &counts);
        BookTables {
            chapters,
            entities: entities.into_iter().map(|(_, row)| row).collect(),
            mentions: Vec::new(),
            cooccurrence: cooccurrence.into_iter().map(|(_, row)| row).collect(),
            frequency,
            relate: RelateTables::default(),
            timeline,
            chapter_pairs,
        }
    }
}

fn frequency_table<'a>(
    words: WordTable<'a>,
    chapters: &'a [ChapterText],
    ctx: &Context,
) -> Vec<FrequencyRow> {
    // Tag each distinct word once, where it stands in the book.
    let segmenter = ctx.engines.segmenter;
    let tags = words.tag_words(|site| {
        let text = chapters[site.chapter as usize].text.text.as_str();
        let start = site.start as usize;
        segmenter
            .tag_at(text, start, start + site.word.len())
            .unwrap_or_default()
    });
    let count = ctx.count;
    let stopwords = ctx.engines.stopwords;
    words
        .rows(
            count.min_count,
            |w| count.all_words || !stopwords.contains(w),
            &tags,
        )
        .into_par_iter()
        .map(|(word, pos, count, chapters)| FrequencyRow {
            word: word.to_string(),
            pos: pos.to_string(),
            count,
            chapters,
        })
        .collect()
}

/// The entity rows in table order, each with its id.
fn entity_table(entities: Vec<EntityTally>, ctx: &Context) -> Vec<(EntityId, EntityRow)> {
    let catalog = ctx.catalog;
    let mut entity_rows: Vec<(EntityId, EntityRow)> = entities
        .into_iter()
        .enumerate()
        .filter(|(_, t)| t.count > 0)
        .map(|(id, t)| {
            let e = catalog.get(id as EntityId);
            let mut spellings = t.spellings;
            spellings.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.text.cmp(&b.text)));
            let original = spellings
                .first()
                .map(|s| s.text.to_string())
                .unwrap_or_default();
            let variants: Vec<&str> = spellings[1.min(spellings.len())..]
                .iter()
                .map(|s| &*s.text)
                .collect();
            let row = EntityRow {
                entity: ctx.names[id].clone(),
                kind: e.kind.as_str(),
                count: t.count,
                chapters: t.chapters,
                first_chapter: t.first,
                original,
                variants: variants.iter().map(|v| v.to_string()).collect(),
                aliases: e.aliases.clone(),
                evidence: e.evidence.clone(),
                confidence: format!("{:.2}", e.confidence),
            };
            (id as EntityId, row)
        })
        .collect();
    entity_rows.sort_by(|(_, a), (_, b)| {
        b.count
            .cmp(&a.count)
            .then_with(|| a.entity.cmp(&b.entity))
            .then_with(|| a.kind.cmp(b.kind))
    });
    entity_rows
}

/// The pair rows in table order, each with its pair of ids.
type PairRows = Vec<((EntityId, EntityId), CooccurrenceRow)>;

fn cooccurrence_table(cooc: &Cooccurrence, ctx: &Context) -> PairRows {
    let count = ctx.count;
    let catalog = ctx.catalog;
    let mut rows: Vec<((EntityId, EntityId), CooccurrenceRow)> = cooc
        .pairs
        .par_iter()
        .filter(|(_, &n)| n >= count.min_count)
        .map(|(&(a, b), &n)| {
            let (ea, eb) = (catalog.get(a), catalog.get(b));
            let (na, nb) = (&ctx.names[a as usize], &ctx.names[b as usize]);
            let ((src, st), (tgt, tt)) = if na <= nb {
                ((na, ea.kind), (nb, eb.kind))
            } else {
                ((nb, eb.kind), (na, ea.kind))
            };
            let row = CooccurrenceRow {
                source: src.clone(),
                target: tgt.clone(),
                source_type: st.as_str(),
                target_type: tt.as_str(),
                count: n,
                pmi: format!("{:.3}", cooc.pmi(a, b, n)),
            };
            ((a, b), row)
        })
        .collect();
    // Names can repeat (one name, two types; or two names written alike
    // in Traditional), so types and then ids break the remaining ties.
    rows.par_sort_unstable_by(|(ia, a), (ib, b)| {
        b.count
            .cmp(&a.count)
            .then_with(|| a.source.cmp(&b.source))
            .then_with(|| a.target.cmp(&b.target))
            .then_with(|| a.source_type.cmp(b.source_type))
            .then_with(|| a.target_type.cmp(b.target_type))
            .then_with(|| ia.cmp(ib))
    });
    rows
}

/// Runs `work(state, i)` for every `i` in `0..n` on the threads of the
/// rayon pool and hands each result to `take(i, result)` in increasing `i`,
/// as soon as the results before it are taken. The workers take indices in
/// increasing order, one at a time, so the results waiting for an earlier
/// one are those finished while it ran (a few chapters', where splitting
/// the range among the threads would hold half the book's). Each worker
/// keeps a `state` made by `init`; the states are returned in no order.
fn map_in_order<S: Send, T: Send>(
    n: usize,
    init: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, usize) -> T + Sync,
    take: impl FnMut(usize, T) + Send,
) -> Vec<S> {
    struct InOrder<T, F> {
        next: usize,
        waiting: BTreeMap<usize, T>,
        take: F,
    }
    let handed_out = AtomicUsize::new(0);
    let in_order = Mutex::new(InOrder {
        next: 0,
        waiting: BTreeMap::new(),
        take,
    });
    let workers = rayon::current_num_threads().min(n);
    (0..workers)
        .into_par_iter()
        .map(|_| {
            let mut state = init();
            loop {
                let i = handed_out.fetch_add(1, Ordering::Relaxed);
                if i >= n {
                    break;
                }
                let result = work(&mut state, i);
                let mut guard = in_order.lock().expect("a worker panicked");
                let q = &mut *guard;
                q.waiting.insert(i, result);
                while let Some(result) = q.waiting.remove(&q.next) {
                    (q.take)(q.next, result);
                    q.next += 1;
                }
            }
            state
        })
        .collect()
}

/// Hands the allocator's free pages back to the system between stages.
/// glibc keeps what a stage frees in its per-thread arenas, where the next
/// stage's large tables (fresh mappings) cannot reuse it: without this the
/// runs of discovery stay resident while the tables are made, and peak RSS
/// grows with the book by about 3 MB per MB of text more than the heap does.
fn return_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        extern "C" {
            fn malloc_trim(pad: usize) -> std::ffi::c_int;
        }
        // SAFETY: malloc_trim takes no pointer; it only returns free pages
        // of glibc's allocator (Rust's global allocator here) to the system.
        unsafe {
            malloc_trim(0);
        }
    }
}

fn display_name(engines: &Engines, name: &str) -> String {
    match engines.display {
        Some(conv) => conv.convert(name),
        None => name.to_string(),
    }
}

/// Punctuation, symbols and whitespace are not words.
fn is_punctuation(w: &str) -> bool {
    // Lead bytes E5 to E9 start U+5000..=U+9FFF, all Han: most words,
    // told without decoding.
    if matches!(w.as_bytes().first(), Some(0xE5..=0xE9)) {
        return false;
    }
    match w.chars().next() {
        // Most words start with a Han character; most others are one
        // punctuation mark.
        Some(c) if ('\u{4E00}'..='\u{9FFF}').contains(&c) => false,
        Some(
            '\u{3000}'..='\u{3004}'
            | '\u{3008}'..='\u{3020}'
            | '\u{FF01}'..='\u{FF0F}'
            | '\u{2010}'..='\u{2027}',
        ) if w.len() == 3 => true,
        _ => !w.chars().any(|c| c.is_alphanumeric()),
    }
}

/// Cuts a chapter into words and replaces the words a mention covers by one
/// word for the mention, so that discovered names count as whole words
/// (完颜照立, not 完颜 + 照立). Pieces of words that stick out of a mention are
/// kept as their own words, with the tag of the word they were cut from.
/// Calls `emit(word, byte start, tag source)` for each word in order.
fn each_word<'a>(
    cuts: &Cuts,
    text: &'a str,
    mentions: &[Mention],
    catalog: &Catalog,
    chapter: u32,
    mut emit: impl FnMut(&'a str, usize, TagSource<'a>),
) {
    let mut m = 0;
    let mut emitted: Option<usize> = None;
    cuts.for_each_word(text, |word, start, end| {
        let parent = || {
            TagSource::Parent(Site {
                word,
                chapter,
                start: start as u32,
            })
        };
        let mut pos = start;
        while pos < end {
            while m < mentions.len() && mentions[m].end <= pos {
                m += 1;
            }
            match mentions.get(m).filter(|mn| mn.start < end) {
                Some(mention) => {
                    if pos < mention.start {
                        emit(&text[pos..mention.start], pos, parent());
                    }
                    if emitted != Some(m) {
                        let tag = catalog.get(mention.entity).kind.jieba_tag();
                        emit(
                            &text[mention.start..mention.end],
                            mention.start,
                            TagSource::Fixed(tag),
                        );
                        emitted = Some(m);
                    }
                    pos = mention.end.min(end);
                }
                None => {
                    let tag = if pos == start {
                        TagSource::Own
                    } else {
                        parent()
                    };
                    emit(&text[pos..end], pos, tag);
                    pos = end;
                }
            }
        }
    });
}

/// Byte → character offsets in one text, for offsets asked in (roughly)
/// increasing order: walks from the last answer, counting character starts.
struct CharCursor<'t> {
    bytes: &'t [u8],
    byte: usize,
    char: usize,
}

impl<'t> CharCursor<'t> {
    fn new(text: &'t str) -> CharCursor<'t> {
        CharCursor {
            bytes: text.as_bytes(),
            byte: 0,
            char: 0,
        }
    }

    /// The character offset of byte offset `byte` (a char boundary, or the
    /// end; past the end counts as the end).
    fn char_of(&mut self, byte: usize) -> usize {
        let byte = byte.min(self.bytes.len());
        let starts = |r: &[u8]| r.iter().filter(|&&b| (b & 0xC0) != 0x80).count();
        if byte >= self.byte {
            self.char += starts(&self.bytes[self.byte..byte]);
        } else {
            self.char -= starts(&self.bytes[byte..self.byte]);
        }
        self.byte = byte;
        self.char
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn punctuation_fast_path_agrees_with_the_rule() {
        let rule = |w: &str| !w.chars().any(|c| c.is_alphanumeric());
        let ranges = [
            0x2000..0x2100,
            0x3000..0x3100,
            0xFF00..0xFF20,
            0x4DB0..0x5010,
            0x9FF0..0xA010,
        ];
        for c in ranges.into_iter().flatten().filter_map(char::from_u32) {
            let w = c.to_string();
            assert_eq!(is_punctuation(&w), rule(&w), "{c:?}");
        }
        for w in ["〇", "々", "宋江", "，", "……", "A1", "——"] {
            assert_eq!(is_punctuation(w), rule(w), "{w}");
        }
    }

    #[test]
    fn char_cursor_walks_both_ways() {
        let text = "a宋江b，林冲";
        let mut c = CharCursor::new(text);
        for (chars, (byte, _)) in text.char_indices().enumerate() {
            assert_eq!(c.char_of(byte), chars);
        }
        assert_eq!(c.char_of(text.len()), 7);
        assert_eq!(c.char_of(1), 1);
        assert_eq!(c.char_of(text.len() + 5), 7);
    }
}
