//! Stats: per-chapter partial tables (word counts, entity mentions, windows
//! for co-occurrence) with an associative merge, so chapters can be counted
//! in parallel and merged in chapter order without locks. It never formats
//! bytes; rows are sorted here (count descending, then name) so that any
//! thread count gives the same tables.

use crate::entity::EntityId;
use std::collections::{BTreeSet, HashMap};
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

/// Co-occurrence counts. Associative: windows, per-entity window counts and
/// pair counts all add up across chapters.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Cooccurrence {
    /// Number of windows (for `Chars`, the number of mentions).
    pub windows: u64,
    /// Windows containing each entity.
    pub entity_windows: HashMap<EntityId, u64>,
    /// Windows containing both entities of an ordered pair (low id first).
    pub pairs: HashMap<(EntityId, EntityId), u64>,
}

impl Cooccurrence {
    /// Counts one chapter. `mentions` are `(entity, byte start)` sorted by
    /// start; `units` are the sentence/paragraph/chapter byte ranges;
    /// `char_of` turns a byte offset into a character offset (for `Chars`).
    pub fn count(
        window: Window,
        mentions: &[(EntityId, usize)],
        units: &[Range<usize>],
        char_of: impl Fn(usize) -> usize,
    ) -> Cooccurrence {
        let mut c = Cooccurrence::default();
        match window {
            Window::Chars(n) => {
                let chars: Vec<usize> = mentions.iter().map(|m| char_of(m.1)).collect();
                c.windows = mentions.len() as u64;
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
                for unit in units {
                    let mut present = BTreeSet::new();
                    while k < mentions.len() && mentions[k].1 < unit.end {
                        if mentions[k].1 >= unit.start {
                            present.insert(mentions[k].0);
                        }
                        k += 1;
                    }
                    c.windows += 1;
                    let ids: Vec<EntityId> = present.into_iter().collect();
                    for (i, &a) in ids.iter().enumerate() {
                        *c.entity_windows.entry(a).or_insert(0) += 1;
                        for &b in &ids[i + 1..] {
                            *c.pairs.entry((a, b)).or_insert(0) += 1;
                        }
                    }
                }
            }
        }
        c
    }

    pub fn merge(&mut self, other: Cooccurrence) {
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
    fn word_rows_sort_by_count_then_word() {
        let mut a = WordCounts::count([("将军", "n"), ("大营", "n"), ("将军", "n")]);
        a.merge(WordCounts::count([("大营", "n"), ("大营", "n")]));
        let rows = a.rows(1);
        assert_eq!(rows[0], ("大营".to_string(), "n".to_string(), 3, 2));
        assert_eq!(rows[1], ("将军".to_string(), "n".to_string(), 2, 1));
    }
}
