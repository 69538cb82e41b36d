//! Stats: per-chapter partial tables (word counts, entity mentions, windows
//! for co-occurrence) with an associative merge, so chapters can be counted
//! in parallel and merged in chapter order without locks. It never formats
//! bytes; rows are sorted here (count descending, then name) so that any
//! thread count gives the same tables.

use crate::entity::EntityId;
use crate::hash::FxMap;
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
/// made. Chapters must be added one at a time, each whole (`chapters` counts
/// a word once per run of one chapter's words), to one table; tables of
/// disjoint chapters merge by `merge` in any order.
///
/// Every token is counted straight into this table (the entries of the
/// frequent words stay in the cache): counting each chapter in a small table
/// of its own first, then merging that in, cost about as much again.
#[derive(Debug)]
pub struct WordTable<'a> {
    /// One-character words of the CJK block (nearly half the tokens) by code
    /// point from U+4E00: an array index instead of a hash lookup. Values
    /// index `entries`; `NO_ENTRY` if the word is not counted yet.
    han: Vec<u32>,
    /// Other words of up to 7 bytes (two Han characters: nearly all the
    /// rest) by their bytes, kept in the key: a lookup reads no text
    /// elsewhere in the book, and a bucket takes 16 bytes.
    small: WordMap<u64>,
    /// Words of 8 to 23 bytes (up to 7 Han characters), likewise.
    short: WordMap<ShortKey>,
    /// Longer words.
    long: FxMap<&'a str, u32>,
    /// By entry index: what every occurrence updates, and the rest.
    counts: Vec<Counts>,
    entries: Vec<WordEntry<'a>>,
}

const NO_ENTRY: u32 = u32::MAX;
const HAN: std::ops::RangeInclusive<u32> = 0x4E00..=0x9FFF;

impl Default for WordTable<'_> {
    fn default() -> Self {
        WordTable {
            han: vec![NO_ENTRY; (HAN.end() - HAN.start() + 1) as usize],
            small: WordMap::default(),
            short: WordMap::default(),
            long: FxMap::default(),
            counts: Vec::new(),
            entries: Vec::new(),
        }
    }
}

/// The index in `WordTable::han` of a word that is one character of the
/// CJK block.
#[inline]
fn han_index(word: &str) -> Option<usize> {
    match *word.as_bytes() {
        // A 3-byte lead byte: the word is this one character.
        [a, b, c] if a & 0xF0 == 0xE0 => {
            let cp = (a as u32 & 0x0F) << 12 | (b as u32 & 0x3F) << 6 | (c as u32 & 0x3F);
            HAN.contains(&cp).then(|| (cp - HAN.start()) as usize)
        }
        _ => None,
    }
}

/// The counts of a word that every occurrence updates, kept apart from the
/// rest of its entry: in 24 bytes a word, the counts of the book's words
/// stay in the cache.
#[derive(Debug, Clone, Copy)]
struct Counts {
    count: u64,
    /// Occurrences with the word's own tag.
    own: u64,
    chapters: u32,
    last_chapter: u32,
}

#[derive(Debug)]
struct WordEntry<'a> {
    word: &'a str,
    /// Where an occurrence with the word's own tag stands (chapter, byte).
    own_site: (u32, u32),
    /// Occurrences with a tag from elsewhere.
    other: Vec<(TagSource<'a>, u64)>,
}

/// A word of up to 7 bytes: its length, then its bytes, zero-padded.
#[inline]
fn small_key(word: &str) -> u64 {
    let bytes = word.as_bytes();
    let mut key = bytes.len() as u64;
    for (i, &b) in bytes.iter().enumerate() {
        key |= u64::from(b) << (8 * (i + 1));
    }
    key
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

/// Word keys → entry indexes.
type WordMap<K> = HashMap<K, u32, BuildHasherDefault<WordHasher>>;

/// Hashes word keys with a folded multiply (the high half of the product
/// folded onto the low half) per 8 bytes, so that a table's bucket (the low
/// bits) depends on every byte of the key. With `FxHasher`, a key of one
/// `u64` would pick its bucket by its low bytes alone: the length and the
/// first UTF-8 lead byte, the same for most words.
#[derive(Default, Clone, Copy)]
struct WordHasher {
    hash: u64,
}

impl Hasher for WordHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for c in bytes.chunks(8) {
            let mut buf = [0u8; 8];
            buf[..c.len()].copy_from_slice(c);
            self.write_u64(u64::from_le_bytes(buf));
        }
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        let p = u128::from(self.hash ^ i) * 0x9E37_79B9_7F4A_7C15;
        self.hash = (p as u64) ^ ((p >> 64) as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

impl<'a> WordTable<'a> {
    /// The entry index of `word`, made if new.
    #[inline]
    fn index(&mut self, word: &'a str) -> usize {
        let next = self.entries.len() as u32;
        let i = if let Some(c) = han_index(word) {
            let slot = &mut self.han[c];
            if *slot == NO_ENTRY {
                *slot = next;
            }
            *slot
        } else if word.len() <= 7 {
            *self.small.entry(small_key(word)).or_insert(next)
        } else if let Some(key) = ShortKey::of(word) {
            *self.short.entry(key).or_insert(next)
        } else {
            *self.long.entry(word).or_insert(next)
        };
        if i == next {
            self.counts.push(Counts {
                count: 0,
                own: 0,
                chapters: 0,
                last_chapter: u32::MAX,
            });
            self.entries.push(WordEntry {
                word,
                own_site: (0, 0),
                other: Vec::new(),
            });
        }
        i as usize
    }

    /// Counts one occurrence of `word` at byte `start` of chapter `chapter`.
    #[inline]
    pub fn add(&mut self, word: &'a str, chapter: u32, start: u32, tag: TagSource<'a>) {
        let i = self.index(word);
        let c = &mut self.counts[i];
        c.count += 1;
        if c.last_chapter != chapter {
            c.chapters += 1;
            c.last_chapter = chapter;
        }
        match tag {
            TagSource::Own => {
                if c.own == 0 {
                    self.entries[i].own_site = (chapter, start);
                }
                c.own += 1;
            }
            other => add_source(&mut self.entries[i].other, other, 1),
        }
    }

    /// Adds a table of other chapters.
    pub fn merge(&mut self, mut other: WordTable<'a>) {
        if self.entries.len() < other.entries.len() {
            std::mem::swap(self, &mut other);
        }
        for (oc, o) in other.counts.into_iter().zip(other.entries) {
            let i = self.index(o.word);
            let (c, e) = (&mut self.counts[i], &mut self.entries[i]);
            if c.own == 0 {
                e.own_site = o.own_site;
            }
            c.count += oc.count;
            c.own += oc.own;
            c.chapters += oc.chapters;
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

    /// The index of `word`'s entry, if it is counted.
    fn find(&self, word: &str) -> Option<usize> {
        let i = if let Some(c) = han_index(word) {
            Some(self.han[c]).filter(|&i| i != NO_ENTRY)
        } else if word.len() <= 7 {
            self.small.get(&small_key(word)).copied()
        } else if let Some(key) = ShortKey::of(word) {
            self.short.get(&key).copied()
        } else {
            self.long.get(word).copied()
        };
        i.map(|i| i as usize)
    }

    /// The own tag of each distinct word the rows need (the words counted
    /// with their own tag, and the words others were cut from), which `tag`
    /// gives at one site of the word: the first one met going through the
    /// entries in order (its own site, then its parents'). The sites are
    /// tagged in parallel, in text order.
    pub fn tag_words<'t>(&self, tag: impl Fn(&Site<'a>) -> &'t str + Sync) -> WordTags<'a, 't> {
        /// Whose tag a site gives: an entry's, or that of a word only cut from.
        enum Owner<'a> {
            Entry(usize),
            Parent(&'a str),
        }
        let mut by_entry: Vec<Option<Site<'a>>> = vec![None; self.entries.len()];
        let mut parents: FxMap<&'a str, Site<'a>> = FxMap::default();
        for (i, (c, e)) in self.counts.iter().zip(&self.entries).enumerate() {
            if c.own > 0 {
                by_entry[i].get_or_insert(Site {
                    word: e.word,
                    chapter: e.own_site.0,
                    start: e.own_site.1,
                });
            }
            for (source, _) in &e.other {
                if let TagSource::Parent(site) = source {
                    match self.find(site.word) {
                        Some(j) => {
                            by_entry[j].get_or_insert(*site);
                        }
                        None => {
                            parents.entry(site.word).or_insert(*site);
                        }
                    }
                }
            }
        }
        let mut sites: Vec<(Site<'a>, Owner<'a>)> = by_entry
            .into_iter()
            .enumerate()
            .filter_map(|(i, site)| Some((site?, Owner::Entry(i))))
            .chain(parents.into_iter().map(|(w, s)| (s, Owner::Parent(w))))
            .collect();
        sites.par_sort_unstable_by_key(|(s, _)| (s.chapter, s.start));
        let found: Vec<&'t str> = sites.par_iter().map(|(s, _)| tag(s)).collect();
        let mut tags = WordTags {
            by_entry: vec![""; self.entries.len()],
            parents: FxMap::default(),
        };
        for ((_, owner), t) in sites.into_iter().zip(found) {
            match owner {
                Owner::Entry(i) => tags.by_entry[i] = t,
                Owner::Parent(w) => {
                    tags.parents.insert(w, t);
                }
            }
        }
        tags
    }

    /// The own tag of `word` in `tags`.
    fn tag_of<'t>(&self, tags: &WordTags<'a, 't>, word: &str) -> &'t str {
        match self.find(word) {
            Some(i) => tags.by_entry[i],
            None => tags.parents.get(word).copied().unwrap_or_default(),
        }
    }

    /// Rows `(word, tag, count, chapters)` of the words `keep` accepts and
    /// counted at least `min_count` times, count descending then word. The
    /// tag is the most frequent one (ties: the smaller tag); `tags` are the
    /// words' own tags (`tag_words`).
    pub fn rows<'t>(
        &self,
        min_count: u64,
        keep: impl Fn(&str) -> bool + Sync,
        tags: &WordTags<'a, 't>,
    ) -> Vec<(&'a str, &'t str, u64, u64)> {
        let mut rows: Vec<(&'a str, &'t str, u64, u64)> = self
            .counts
            .par_iter()
            .zip(&self.entries)
            .enumerate()
            .filter(|(_, (c, e))| c.count >= min_count && keep(e.word))
            .map(|(i, (c, e))| {
                let w = e.word;
                let mut found: Vec<(&'t str, u64)> = Vec::with_capacity(1 + e.other.len());
                let mut tally = |tag: &'t str, n: u64| match found.iter_mut().find(|t| t.0 == tag) {
                    Some(t) => t.1 += n,
                    None => found.push((tag, n)),
                };
                if c.own > 0 {
                    tally(tags.by_entry[i], c.own);
                }
                for (source, n) in &e.other {
                    match source {
                        TagSource::Parent(site) => tally(self.tag_of(tags, site.word), *n),
                        TagSource::Fixed(t) => tally(t, *n),
                        TagSource::Own => unreachable!("own tags are counted apart"),
                    }
                }
                let tag = found
                    .iter()
                    .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(a.0)))
                    .map_or("", |t| t.0);
                (w, tag, c.count, u64::from(c.chapters))
            })
            .collect();
        rows.par_sort_unstable_by(|a, b| b.2.cmp(&a.2).then_with(|| a.0.cmp(b.0)));
        rows
    }
}

/// The own tags of the words of a `WordTable` (`WordTable::tag_words`).
#[derive(Debug)]
pub struct WordTags<'a, 't> {
    /// By entry index ("" for a word never counted with its own tag).
    by_entry: Vec<&'t str>,
    /// Words only cut from, never counted themselves.
    parents: FxMap<&'a str, &'t str>,
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
        // One site per word needing its own tag (any of its occurrences:
        // its tag is the same everywhere).
        let sites = std::sync::Mutex::new(Vec::new());
        let tags = a.tag_words(|s| {
            sites.lock().unwrap().push((s.word, s.chapter, s.start));
            match s.word {
                "将军府" => "ns",
                _ => "n",
            }
        });
        let rows = a.rows(1, |_| true, &tags);
        // 将军: n 2, nr 1, ns 2: the tie goes to the smaller tag.
        assert_eq!(rows[0], ("将军", "n", 5, 3));
        assert_eq!(rows[1], (long, "n", 2, 2));
        assert_eq!(rows[2], ("大营", "n", 1, 1));
        let rows = a.rows(2, |w| w != long, &tags);
        assert_eq!(rows.len(), 1);
        let sites = sites.into_inner().unwrap();
        assert_eq!(sites.len(), 4);
        assert!(sites.contains(&("将军", 0, 0)));
        assert!(sites.contains(&("将军府", 2, 3)));
        assert!(sites.contains(&("大营", 2, 12)));
        assert!(sites.contains(&(long, 1, 9)) || sites.contains(&(long, 2, 30)));
    }

    #[test]
    fn one_character_words_count_apart_from_look_alikes() {
        // 道 is in the CJK block (the array); 〇 and ＡＢ are not, and "abc"
        // is three bytes but three characters (the hash maps).
        let words = ["道", "〇", "abc", "道", "一", "鿿", "abc", "㐀", "道"];
        let mut t = WordTable::default();
        for (i, w) in words.into_iter().enumerate() {
            t.add(w, (i / 4) as u32, i as u32, TagSource::Own);
        }
        assert_eq!(t.len(), 6);
        let rows = t.rows(1, |_| true, &t.tag_words(|_| "x"));
        assert_eq!(rows[0], ("道", "x", 3, 2));
        assert_eq!(rows[1], ("abc", "x", 2, 2));
        assert_eq!(rows[2], ("〇", "x", 1, 1));
        assert_eq!(rows[3], ("㐀", "x", 1, 1));
        assert_eq!(rows[4], ("一", "x", 1, 1));
        assert_eq!(rows[5], ("鿿", "x", 1, 1));
        assert_eq!(han_index("一"), Some(0));
        assert_eq!(han_index("鿿"), Some(0x9FFF - 0x4E00));
        assert_eq!(han_index("㐀"), None);
        assert_eq!(han_index("abc"), None);
        assert_eq!(han_index("一二"), None);
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
