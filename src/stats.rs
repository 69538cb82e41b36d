//! Stats: per-chapter partial tables (word counts, entity mentions, windows
//! for co-occurrence) with an associative merge, so chapters can be counted
//! in parallel and merged in chapter order without locks. It never formats
//! bytes; rows are sorted here (count descending, then name) so that any
//! thread count gives the same tables.

use crate::entity::EntityId;
use rayon::prelude::*;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::Range;

/// How big a co-occurrence window is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Window {
    Sentence,
    Paragraph,
    Chapter,
    /// Two mentions whose starts are at most N characters apart.
    Chars(usize),
}

impl Window {
    pub fn parse(s: &str) -> Option<Window> {
        Some(match s {
            "sentence" => Window::Sentence,
            "paragraph" => Window::Paragraph,
            "chapter" => Window::Chapter,
            n => Window::Chars(n.parse().ok().filter(|&n| n > 0)?),
        })
    }

    pub fn name(self) -> String {
        match self {
            Window::Sentence => "sentence".into(),
            Window::Paragraph => "paragraph".into(),
            Window::Chapter => "chapter".into(),
            Window::Chars(n) => n.to_string(),
        }
    }
}

/// Word counts of one chapter: word → (count, tag counts).
#[derive(Debug, Default, Clone)]
pub struct WordCounts {
    pub words: HashMap<String, WordTally>,
}

#[derive(Debug, Default, Clone)]
pub struct WordTally {
    pub count: u64,
    /// How often each part-of-speech tag was given; the table shows the most frequent.
    pub tags: HashMap<String, u64>,
    /// Chapters the word occurs in (1 per chapter before merging).
    pub chapters: u64,
}

impl WordCounts {
    /// Counts borrowed words; allocates once per distinct word, not per token.
    pub fn count<'a>(words: impl IntoIterator<Item = (&'a str, &'a str)>) -> WordCounts {
        let mut borrowed: HashMap<&'a str, (u64, HashMap<&'a str, u64>)> = HashMap::new();
        for (word, tag) in words {
            let e = borrowed.entry(word).or_default();
            e.0 += 1;
            *e.1.entry(tag).or_insert(0) += 1;
        }
        WordCounts {
            words: borrowed
                .into_iter()
                .map(|(w, (count, tags))| {
                    (
                        w.to_string(),
                        WordTally {
                            count,
                            tags: tags.into_iter().map(|(t, n)| (t.to_string(), n)).collect(),
                            chapters: 1,
                        },
                    )
                })
                .collect(),
        }
    }

    pub fn merge(&mut self, other: WordCounts) {
        for (word, tally) in other.words {
            let e = self.words.entry(word).or_default();
            e.count += tally.count;
            e.chapters += tally.chapters;
            for (t, n) in tally.tags {
                *e.tags.entry(t).or_insert(0) += n;
            }
        }
    }

    /// Rows `(word, tag, count, chapters)`, count descending then word.
    pub fn rows(&self, min_count: u64) -> Vec<(String, String, u64, u64)> {
        let mut rows: Vec<_> = self
            .words
            .iter()
            .filter(|(_, t)| t.count >= min_count)
            .map(|(w, t)| {
                let tag = t
                    .tags
                    .iter()
                    .max_by(|a, b| a.1.cmp(b.1).then_with(|| b.0.cmp(a.0)))
                    .map(|(t, _)| t.clone())
                    .unwrap_or_default();
                (w.clone(), tag, t.count, t.chapters)
            })
            .collect();
        rows.sort_by(|a, b| b.2.cmp(&a.2).then_with(|| a.0.cmp(&b.0)));
        rows
    }
}

/// Where a word stands: the word, the index of its chapter and its byte
/// offset there, so that its tag can be looked up in context.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Site<'a> {
    pub word: &'a str,
    pub chapter: u32,
    pub start: u32,
}

/// Where the part-of-speech tag of a counted word comes from. Tags are
/// resolved once per distinct word after counting (see `Segmenter::tag_at`),
/// not per token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TagSource<'a> {
    /// The word's own jieba tag.
    Own,
    /// The jieba tag of the word it is a piece of (the part of a jieba word
    /// that sticks out of an entity mention keeps that word's tag).
    Parent(Site<'a>),
    /// A fixed tag (`nr`, `ns`, `nt` for the recognizer's names).
    Fixed(&'static str),
}

/// Word counts of any number of chapters, keyed by words borrowed from the
/// chapter texts: no allocation per token, none per word until the rows are
/// made. Chapters must be added one at a time, each whole, to one table;
/// tables of disjoint chapters merge by `merge` in any order.
#[derive(Debug, Default)]
pub struct WordTable<'a> {
    /// Words of up to 23 bytes (7 Han characters) by their bytes, kept in
    /// the key: a lookup reads no text elsewhere in the book. Values index
    /// `entries`.
    short: FxMap<ShortKey, u32>,
    /// Longer words.
    long: FxMap<&'a str, u32>,
    entries: Vec<WordEntry<'a>>,
}

#[derive(Debug)]
struct WordEntry<'a> {
    word: &'a str,
    count: u64,
    chapters: u64,
    last_chapter: u32,
    /// Occurrences with the word's own tag, and where one of them stands.
    own: u64,
    own_site: (u32, u32),
    /// Occurrences with a tag from elsewhere.
    other: Vec<(TagSource<'a>, u64)>,
}

/// A word of up to 23 bytes: its length, then its bytes, zero-padded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ShortKey([u64; 3]);

impl std::hash::Hash for ShortKey {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.0[0]);
        state.write_u64(self.0[1]);
        state.write_u64(self.0[2]);
    }
}

impl ShortKey {
    #[inline]
    fn of(word: &str) -> Option<ShortKey> {
        let bytes = word.as_bytes();
        if bytes.len() > 23 {
            return None;
        }
        let mut b = [0u8; 24];
        b[0] = bytes.len() as u8;
        b[1..=bytes.len()].copy_from_slice(bytes);
        let word = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"));
        Some(ShortKey([word(0), word(8), word(16)]))
    }
}

impl<'a> WordTable<'a> {
    /// The entry of `word`, made if new.
    #[inline]
    fn entry(&mut self, word: &'a str) -> &mut WordEntry<'a> {
        let next = self.entries.len() as u32;
        let i = match ShortKey::of(word) {
            Some(key) => *self.short.entry(key).or_insert(next),
            None => *self.long.entry(word).or_insert(next),
        };
        if i == next {
            self.entries.push(WordEntry {
                word,
                count: 0,
                chapters: 0,
                last_chapter: u32::MAX,
                own: 0,
                own_site: (0, 0),
                other: Vec::new(),
            });
        }
        &mut self.entries[i as usize]
    }

    /// Counts one occurrence of `word` at byte `start` of chapter `chapter`.
    #[inline]
    pub fn add(&mut self, word: &'a str, chapter: u32, start: u32, tag: TagSource<'a>) {
        let e = self.entry(word);
        e.count += 1;
        if e.last_chapter != chapter {
            e.chapters += 1;
            e.last_chapter = chapter;
        }
        match tag {
            TagSource::Own => {
                if e.own == 0 {
                    e.own_site = (chapter, start);
                }
                e.own += 1;
            }
            other => add_source(&mut e.other, other, 1),
        }
    }

    /// Counts the words of one chapter, gathered in `words` (which is left
    /// empty, for the next chapter). Counting a chapter apart first keeps
    /// the lookups of its repeated words in a small table that stays in the
    /// cache; the book's table then sees each distinct word once per chapter.
    pub fn add_chapter(&mut self, chapter: u32, words: &mut ChapterWords<'a>) {
        words.short.clear();
        words.long.clear();
        for w in words.entries.drain(..) {
            let e = self.entry(w.word);
            e.count += w.count;
            e.chapters += 1;
            e.last_chapter = chapter;
            if w.own > 0 {
                if e.own == 0 {
                    e.own_site = (chapter, w.own_start);
                }
                e.own += w.own;
            }
            if e.other.is_empty() {
                e.other = w.other;
            } else {
                for (source, n) in w.other {
                    add_source(&mut e.other, source, n);
                }
            }
        }
    }

    /// Adds a table of other chapters.
    pub fn merge(&mut self, mut other: WordTable<'a>) {
        if self.entries.len() < other.entries.len() {
            std::mem::swap(self, &mut other);
        }
        for o in other.entries {
            let e = self.entry(o.word);
            e.count += o.count;
            e.chapters += o.chapters;
            if e.own == 0 {
                e.own_site = o.own_site;
            }
            e.own += o.own;
            for (source, n) in o.other {
                add_source(&mut e.other, source, n);
            }
        }
    }

    /// Number of distinct words.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// One site of each distinct word whose own tag the rows need.
    pub fn tag_sites(&self) -> Vec<Site<'a>> {
        let mut sites: FxMap<&'a str, Site<'a>> = FxMap::default();
        for e in &self.entries {
            if e.own > 0 {
                sites.entry(e.word).or_insert(Site {
                    word: e.word,
                    chapter: e.own_site.0,
                    start: e.own_site.1,
                });
            }
            for (source, _) in &e.other {
                if let TagSource::Parent(site) = source {
                    sites.entry(site.word).or_insert(*site);
                }
            }
        }
        let mut sites: Vec<Site<'a>> = sites.into_values().collect();
        sites.sort_by_key(|s| (s.chapter, s.start));
        sites
    }

    /// Rows `(word, tag, count, chapters)` of the words `keep` accepts and
    /// counted at least `min_count` times, count descending then word. The
    /// tag is the most frequent one (ties: the smaller tag); `tag_of` gives
    /// a word's own tag.
    pub fn rows<'t>(
        &self,
        min_count: u64,
        keep: impl Fn(&str) -> bool + Sync,
        tag_of: impl Fn(&str) -> &'t str + Sync,
    ) -> Vec<(&'a str, &'t str, u64, u64)> {
        let mut rows: Vec<(&'a str, &'t str, u64, u64)> = self
            .entries
            .par_iter()
            .filter(|e| e.count >= min_count && keep(e.word))
            .map(|e| {
                let w = e.word;
                let mut tags: Vec<(&'t str, u64)> = Vec::with_capacity(1 + e.other.len());
                let mut tally = |tag: &'t str, n: u64| match tags.iter_mut().find(|t| t.0 == tag) {
                    Some(t) => t.1 += n,
                    None => tags.push((tag, n)),
                };
                if e.own > 0 {
                    tally(tag_of(w), e.own);
                }
                for (source, n) in &e.other {
                    match source {
                        TagSource::Parent(site) => tally(tag_of(site.word), *n),
                        TagSource::Fixed(t) => tally(t, *n),
                        TagSource::Own => unreachable!("own tags are counted apart"),
                    }
                }
                let tag = tags
                    .iter()
                    .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(a.0)))
                    .map_or("", |t| t.0);
                (w, tag, e.count, e.chapters)
            })
            .collect();
        rows.par_sort_unstable_by(|a, b| b.2.cmp(&a.2).then_with(|| a.0.cmp(b.0)));
        rows
    }
}

/// The word counts of one chapter, before they go into a `WordTable`.
#[derive(Debug, Default)]
pub struct ChapterWords<'a> {
    short: FxMap<ShortKey, u32>,
    long: FxMap<&'a str, u32>,
    entries: Vec<ChapterWord<'a>>,
}

#[derive(Debug)]
struct ChapterWord<'a> {
    word: &'a str,
    count: u64,
    own: u64,
    own_start: u32,
    other: Vec<(TagSource<'a>, u64)>,
}

impl<'a> ChapterWords<'a> {
    /// Counts one occurrence of `word` at byte `start` of the chapter.
    #[inline]
    pub fn add(&mut self, word: &'a str, start: u32, tag: TagSource<'a>) {
        let next = self.entries.len() as u32;
        let i = match ShortKey::of(word) {
            Some(key) => *self.short.entry(key).or_insert(next),
            None => *self.long.entry(word).or_insert(next),
        };
        if i == next {
            self.entries.push(ChapterWord {
                word,
                count: 0,
                own: 0,
                own_start: 0,
                other: Vec::new(),
            });
        }
        let e = &mut self.entries[i as usize];
        e.count += 1;
        match tag {
            TagSource::Own => {
                if e.own == 0 {
                    e.own_start = start;
                }
                e.own += 1;
            }
            other => add_source(&mut e.other, other, 1),
        }
    }
}

/// Adds `n` occurrences tagged from `source` (parents compare by word).
fn add_source<'a>(list: &mut Vec<(TagSource<'a>, u64)>, source: TagSource<'a>, n: u64) {
    let same = |s: &TagSource<'a>| match (s, &source) {
        (TagSource::Parent(a), TagSource::Parent(b)) => a.word == b.word,
        (a, b) => a == b,
    };
    match list.iter_mut().find(|(s, _)| same(s)) {
        Some(e) => e.1 += n,
        None => list.push((source, n)),
    }
}

/// FxHash (rustc's hasher): fast for the short keys counted here, and
/// deterministic (the tables never depend on iteration order anyway).
#[derive(Default, Clone, Copy)]
pub struct FxHasher {
    hash: u64,
}

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut buf = [0u8; 8];
            buf[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(buf));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64);
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

/// A hash map with `FxHasher`.
pub type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

/// Co-occurrence counts. Associative: windows, per-entity window counts and
/// pair counts all add up across chapters.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Cooccurrence {
    /// Number of windows (for `Chars`, the number of mentions).
    pub windows: u64,
    /// Windows containing each entity.
    pub entity_windows: FxMap<EntityId, u64>,
    /// Windows containing both entities of an ordered pair (low id first).
    pub pairs: FxMap<(EntityId, EntityId), u64>,
}

impl Cooccurrence {
    /// Counts one chapter. `mentions` are `(entity, byte start)` sorted by
    /// start; `units` are the sentence/paragraph/chapter byte ranges;
    /// `char_of` turns a byte offset into a character offset (for `Chars`).
    pub fn count(
        window: Window,
        mentions: &[(EntityId, usize)],
        units: &[Range<usize>],
        char_of: impl FnMut(usize) -> usize,
    ) -> Cooccurrence {
        let mut c = Cooccurrence::default();
        c.add_chapter(window, mentions, units, char_of);
        c
    }

    /// Counts one more chapter into these counts (what `count` and then
    /// `merge` do, without the chapter's own table).
    pub fn add_chapter(
        &mut self,
        window: Window,
        mentions: &[(EntityId, usize)],
        units: &[Range<usize>],
        mut char_of: impl FnMut(usize) -> usize,
    ) {
        let c = self;
        match window {
            Window::Chars(n) => {
                let chars: Vec<usize> = mentions.iter().map(|m| char_of(m.1)).collect();
                c.windows += mentions.len() as u64;
                for (i, m) in mentions.iter().enumerate() {
                    *c.entity_windows.entry(m.0).or_insert(0) += 1;
                    let mut j = i + 1;
                    while j < mentions.len() && chars[j] - chars[i] <= n {
                        let other = mentions[j].0;
                        if other != m.0 {
                            *c.pairs.entry(ordered(m.0, other)).or_insert(0) += 1;
                        }
                        j += 1;
                    }
                }
            }
            _ => {
                let mut k = 0;
                let mut ids: Vec<EntityId> = Vec::new();
                for unit in units {
                    ids.clear();
                    while k < mentions.len() && mentions[k].1 < unit.end {
                        if mentions[k].1 >= unit.start {
                            ids.push(mentions[k].0);
                        }
                        k += 1;
                    }
                    c.windows += 1;
                    ids.sort_unstable();
                    ids.dedup();
                    for (i, &a) in ids.iter().enumerate() {
                        *c.entity_windows.entry(a).or_insert(0) += 1;
                        for &b in &ids[i + 1..] {
                            *c.pairs.entry((a, b)).or_insert(0) += 1;
                        }
                    }
                }
            }
        }
    }

    pub fn merge(&mut self, mut other: Cooccurrence) {
        if self.pairs.len() < other.pairs.len() {
            std::mem::swap(self, &mut other);
        }
        self.windows += other.windows;
        for (e, n) in other.entity_windows {
            *self.entity_windows.entry(e).or_insert(0) += n;
        }
        for (p, n) in other.pairs {
            *self.pairs.entry(p).or_insert(0) += n;
        }
    }

    /// Pointwise mutual information of a pair, log2(P(a,b) / (P(a) P(b))),
    /// over windows. Positive: they meet more often than chance.
    pub fn pmi(&self, a: EntityId, b: EntityId, count: u64) -> f64 {
        let na = self.entity_windows.get(&a).copied().unwrap_or(0).max(1) as f64;
        let nb = self.entity_windows.get(&b).copied().unwrap_or(0).max(1) as f64;
        let n = self.windows.max(1) as f64;
        ((count as f64 * n) / (na * nb)).log2()
    }
}

fn ordered(a: EntityId, b: EntityId) -> (EntityId, EntityId) {
    if a < b {
        (a, b)
    } else {
        (b, a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paragraph_windows_count_pairs_once_per_window() {
        // Two paragraphs: [0,10) has entities 1,2,1; [10,20) has 2,3.
        let mentions = [(1, 0), (2, 3), (1, 6), (2, 12), (3, 15)];
        let units = [0..10, 10..20];
        let c = Cooccurrence::count(Window::Paragraph, &mentions, &units, |b| b);
        assert_eq!(c.windows, 2);
        assert_eq!(c.pairs.get(&(1, 2)), Some(&1));
        assert_eq!(c.pairs.get(&(2, 3)), Some(&1));
        assert_eq!(c.entity_windows.get(&2), Some(&2));
        assert!((c.pmi(1, 2, 1) - 0.0).abs() < 1e-9);
    }

    #[test]
    fn char_windows_and_merge_are_associative() {
        let mentions = [(1, 0), (2, 5), (1, 50)];
        let c = Cooccurrence::count(Window::Chars(10), &mentions, &[], |b| b);
        assert_eq!(c.pairs.get(&(1, 2)), Some(&1));
        let mut merged = c.clone();
        merged.merge(c.clone());
        assert_eq!(merged.pairs.get(&(1, 2)), Some(&2));
        assert_eq!(merged.windows, 6);
    }

    #[test]
    fn word_table_counts_chapters_and_tag_sources_and_merges() {
        let long = "一二三四五六七八九十"; // 30 bytes: not a short key
        let mut a = WordTable::default();
        a.add("将军", 0, 0, TagSource::Own);
        a.add("将军", 0, 6, TagSource::Own);
        a.add("将军", 1, 0, TagSource::Fixed("nr"));
        a.add(long, 1, 9, TagSource::Own);
        let mut b = WordTable::default();
        let parent = Site {
            word: "将军府",
            chapter: 2,
            start: 3,
        };
        b.add("将军", 2, 3, TagSource::Parent(parent));
        b.add("将军", 2, 9, TagSource::Parent(parent));
        b.add("大营", 2, 12, TagSource::Own);
        b.add(long, 2, 30, TagSource::Own);
        a.merge(b);
        assert_eq!(a.len(), 3);
        let tag = |w: &str| match w {
            "将军府" => "ns",
            "大营" => "n",
            _ => "n",
        };
        let rows = a.rows(1, |_| true, tag);
        // 将军: n 2, nr 1, ns 2: the tie goes to the smaller tag.
        assert_eq!(rows[0], ("将军", "n", 5, 3));
        assert_eq!(rows[1], (long, "n", 2, 2));
        assert_eq!(rows[2], ("大营", "n", 1, 1));
        let rows = a.rows(2, |w| w != long, tag);
        assert_eq!(rows.len(), 1);
        // One site per word needing its own tag (any of its occurrences:
        // its tag is the same everywhere).
        let sites: Vec<(&str, u32, u32)> = a
            .tag_sites()
            .iter()
            .map(|s| (s.word, s.chapter, s.start))
            .collect();
        assert_eq!(sites.len(), 4);
        assert!(sites.contains(&("将军", 0, 0)));
        assert!(sites.contains(&("将军府", 2, 3)));
        assert!(sites.contains(&("大营", 2, 12)));
        assert!(sites.contains(&(long, 1, 9)) || sites.contains(&(long, 2, 30)));
    }

    #[test]
    fn chapter_words_count_like_single_adds() {
        let parent = Site {
            word: "将军府",
            chapter: 1,
            start: 3,
        };
        let words: [(&str, u32, u32, TagSource); 5] = [
            ("将军", 0, 0, TagSource::Own),
            ("大营", 0, 6, TagSource::Own),
            ("将军", 0, 12, TagSource::Fixed("nr")),
            ("将军", 1, 3, TagSource::Parent(parent)),
            ("将军", 1, 20, TagSource::Own),
        ];
        let mut one = WordTable::default();
        for &(w, c, s, t) in &words {
            one.add(w, c, s, t);
        }
        let mut by_chapter = WordTable::default();
        let mut chapter = ChapterWords::default();
        for c in 0..2 {
            for &(w, _, s, t) in words.iter().filter(|x| x.1 == c) {
                chapter.add(w, s, t);
            }
            by_chapter.add_chapter(c, &mut chapter);
        }
        let tag = |w: &str| if w == "将军府" { "ns" } else { "n" };
        assert_eq!(
            one.rows(1, |_| true, tag),
            by_chapter.rows(1, |_| true, tag)
        );
        assert_eq!(by_chapter.rows(1, |_| true, tag)[0], ("将军", "n", 4, 2));
        assert_eq!(one.tag_sites(), by_chapter.tag_sites());
    }

    #[test]
    fn word_rows_sort_by_count_then_word() {
        let mut a = WordCounts::count([("将军", "n"), ("大营", "n"), ("将军", "n")]);
        a.merge(WordCounts::count([("大营", "n"), ("大营", "n")]));
        let rows = a.rows(1);
        assert_eq!(rows[0], ("大营".to_string(), "n".to_string(), 3, 2));
        assert_eq!(rows[1], ("将军".to_string(), "n".to_string(), 2, 1));
    }
}
