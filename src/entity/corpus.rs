//! Corpus: the book as runs of Han characters, and the one counting pass that
//! gives every candidate string its corpus statistics (count, neighbours,
//! contexts). Candidates are found by the rules in `recognize`; this module
//! only measures them.
//!
//! A run is a maximal stretch of Han characters: punctuation, digits, Latin
//! letters and line breaks end a run, so no candidate ever crosses them.

/// A small number per character (0 for most), for the longest word starting
/// with it: a flat table over the Basic Multilingual Plane, read at every
/// character of a book without hashing; characters beyond it get 0 unless
/// listed.
#[derive(Clone)]
pub struct CharLengths {
    bmp: Vec<u8>,
    other: Vec<(char, u8)>,
}

impl Default for CharLengths {
    fn default() -> CharLengths {
        CharLengths {
            bmp: vec![0; 0x10000],
            other: Vec::new(),
        }
    }
}

impl CharLengths {
    #[inline]
    pub fn get(&self, c: char) -> usize {
        let u = c as usize;
        if u < 0x10000 {
            self.bmp[u] as usize
        } else {
            self.other
                .iter()
                .find(|(x, _)| *x == c)
                .map_or(0, |&(_, n)| n as usize)
        }
    }

    /// Raises the number of `c` to at least `n` (at most 255).
    pub fn raise(&mut self, c: char, n: usize) {
        let n = n.min(255) as u8;
        let u = c as usize;
        if u < 0x10000 {
            self.bmp[u] = self.bmp[u].max(n);
        } else if let Some(e) = self.other.iter_mut().find(|(x, _)| *x == c) {
            e.1 = e.1.max(n);
        } else {
            self.other.push((c, n));
        }
    }
}

/// Whether a character is a Han ideograph (CJK unified, extensions, compatibility).
pub fn is_han(c: char) -> bool {
    matches!(c,
        '\u{3400}'..='\u{4DBF}'
        | '\u{4E00}'..='\u{9FFF}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{20000}'..='\u{2FA1F}'
        | '〇')
}

/// A string of up to `KEY_CHARS` characters packed into an integer, 21 bits
/// per character: the scans look strings up by key, which hashes and
/// compares in one instruction where a `&str` needs a byte loop and a
/// `memcmp`. Han characters are never 0, so strings of different lengths
/// never share a key.
pub type Key = u128;

/// Longest string a `Key` holds.
pub const KEY_CHARS: usize = 6;

/// The key of a string of 1..=`KEY_CHARS` characters.
#[inline]
pub fn key_of_chars(chars: &[char]) -> Option<Key> {
    if chars.is_empty() || chars.len() > KEY_CHARS {
        return None;
    }
    Some(chars.iter().fold(0, |k, &c| extend_key(k, c)))
}

/// The key of a string of 1..=`KEY_CHARS` characters.
pub fn key_of(s: &str) -> Option<Key> {
    let mut k: Key = 0;
    for (n, c) in s.chars().enumerate() {
        if n == KEY_CHARS {
            return None;
        }
        k = extend_key(k, c);
    }
    (k != 0).then_some(k)
}

/// The key of a string one character longer.
#[inline]
pub fn extend_key(key: Key, c: char) -> Key {
    (key << 21) | c as Key
}

/// A run of Han characters: its text, its characters and the byte offset of
/// each within the run (plus the run's length at the end), so characters
/// `i..j` are `&text[off[i]..off[j]]`. A view into a `RunStore`.
pub struct Run<'a> {
    pub chapter: usize,
    pub text: &'a str,
    pub chars: &'a [char],
    pub off: &'a [u32],
    /// The separator just before the run ("" at a chapter start) and just after it.
    pub before: char,
    pub after: char,
}

impl<'a> Run<'a> {
    /// Number of characters.
    pub fn len(&self) -> usize {
        self.chars.len()
    }

    /// Characters `i..j` as a slice of the book.
    #[inline]
    pub fn sub(&self, i: usize, j: usize) -> &'a str {
        &self.text[self.off[i] as usize..self.off[j] as usize]
    }

    /// Character `i`.
    #[inline]
    pub fn ch(&self, i: usize) -> char {
        self.chars[i]
    }

    /// The key of characters `i..j` (None past `KEY_CHARS`).
    #[inline]
    pub fn key(&self, i: usize, j: usize) -> Option<Key> {
        key_of_chars(&self.chars[i..j])
    }
}

/// The runs of a book, their characters and offsets in two flat arrays (a
/// book has hundreds of thousands of runs: two allocations each would cost
/// more memory than the characters).
pub struct RunStore<'a> {
    chars: Vec<char>,
    /// Per run, the byte offset of each character in the run and its length.
    off: Vec<u32>,
    spans: Vec<Span<'a>>,
}

struct Span<'a> {
    chapter: u32,
    /// Where the run's characters start in `chars` (its offsets start at
    /// `first + index of the run` in `off`).
    first: u32,
    text: &'a str,
    before: char,
    after: char,
}

impl<'a> RunStore<'a> {
    /// The runs of every chapter, in order (chapters scanned in parallel).
    pub fn new(chapters: &[&'a str]) -> RunStore<'a> {
        use rayon::prelude::*;
        let per_chapter: Vec<RunStore<'a>> = chapters
            .par_iter()
            .enumerate()
            .map(|(chapter, text)| chapter_runs(chapter, text))
            .collect();
        let chars = per_chapter.iter().map(|s| s.chars.len()).sum();
        let off = per_chapter.iter().map(|s| s.off.len()).sum();
        let spans = per_chapter.iter().map(|s| s.spans.len()).sum();
        let mut store = RunStore {
            chars: Vec::with_capacity(chars),
            off: Vec::with_capacity(off),
            spans: Vec::with_capacity(spans),
        };
        for part in per_chapter {
            let base = store.chars.len() as u32;
            store.chars.extend(part.chars);
            store.off.extend(part.off);
            store.spans.extend(part.spans.into_iter().map(|s| Span {
                first: s.first + base,
                ..s
            }));
        }
        store
    }

    /// The runs, in order, with their slices for the parallel scans.
    pub fn runs(&self) -> Runs<'_> {
        let runs = self.run_views();
        let slices = chunk_ranges(&runs, 2 * rayon::current_num_threads());
        Runs { runs, slices }
    }

    fn run_views(&self) -> Vec<Run<'_>> {
        let mut out = Vec::with_capacity(self.spans.len());
        for (k, (span, next)) in self
            .spans
            .iter()
            .zip(
                self.spans
                    .iter()
                    .skip(1)
                    .map(|s| s.first as usize)
                    .chain([self.chars.len()]),
            )
            .enumerate()
        {
            let first = span.first as usize;
            out.push(Run {
                chapter: span.chapter as usize,
                text: span.text,
                chars: &self.chars[first..next],
                off: &self.off[first + k..next + k + 1],
                before: span.before,
                after: span.after,
            });
        }
        out
    }
}

fn chapter_runs(chapter: usize, text: &str) -> RunStore<'_> {
    let mut store = RunStore {
        chars: Vec::with_capacity(text.len() / 3),
        off: Vec::with_capacity(text.len() / 3),
        spans: Vec::new(),
    };
    let mut start: Option<usize> = None;
    let mut prev = '\n';
    for (i, c) in text.char_indices() {
        if is_han(c) {
            if start.is_none() {
                start = Some(i);
                store.spans.push(Span {
                    chapter: chapter as u32,
                    first: store.chars.len() as u32,
                    text: "",
                    before: prev,
                    after: '\n',
                });
            }
            let s = start.expect("in a run");
            store.chars.push(c);
            store.off.push((i - s) as u32);
        } else if let Some(s) = start.take() {
            let span = store.spans.last_mut().expect("the open run");
            span.text = &text[s..i];
            span.after = c;
            store.off.push((i - s) as u32);
        }
        prev = c;
    }
    if let Some(s) = start {
        let span = store.spans.last_mut().expect("the open run");
        span.text = &text[s..];
        store.off.push((text.len() - s) as u32);
    }
    store
}

/// A book's runs, and their split into consecutive slices of similar length
/// (two per thread) for the parallel scans, made once. Derefs to the runs.
pub struct Runs<'a> {
    runs: Vec<Run<'a>>,
    slices: Vec<std::ops::Range<usize>>,
}

impl<'a> Runs<'a> {
    /// The slices, in book order.
    pub fn slices(&self) -> Vec<&[Run<'a>]> {
        self.slices.iter().map(|r| &self.runs[r.clone()]).collect()
    }

    /// The slices as index ranges of the runs.
    pub fn slice_ranges(&self) -> &[std::ops::Range<usize>] {
        &self.slices
    }
}

impl<'a> std::ops::Deref for Runs<'a> {
    type Target = [Run<'a>];

    fn deref(&self) -> &[Run<'a>] {
        &self.runs
    }
}

/// Splits runs into about `parts` consecutive slices of similar length in
/// characters, as index ranges, for the parallel scans (whose partial
/// results are merged in slice order, so the split never changes a result).
fn chunk_ranges(runs: &[Run], parts: usize) -> Vec<std::ops::Range<usize>> {
    let total: usize = runs.iter().map(|r| r.len()).sum();
    let target = total / parts.max(1) + 1;
    let mut out = Vec::new();
    let mut start = 0;
    let mut size = 0;
    for (i, r) in runs.iter().enumerate() {
        size += r.len();
        if size >= target {
            out.push(start..i + 1);
            start = i + 1;
            size = 0;
        }
    }
    if start < runs.len() {
        out.push(start..runs.len());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_break_at_punctuation_and_keep_offsets() {
        let text = "李信败逃，屠睢大惊！ab燕山";
        let store = RunStore::new(&[text]);
        let rs = store.runs();
        let got: Vec<&str> = rs.iter().map(|r| r.text).collect();
        assert_eq!(got, vec!["李信败逃", "屠睢大惊", "燕山"]);
        assert_eq!(rs[0].sub(0, 2), "李信");
        assert_eq!(rs[1].before, '，');
        assert_eq!(rs[1].after, '！');
        assert_eq!(rs[2].ch(1), '山');
        assert_eq!(rs[2].len(), 2);
        assert_eq!(rs[0].key(0, 2), key_of("李信"));
    }

    #[test]
    fn keys_tell_strings_apart_and_stop_at_six_characters() {
        assert_ne!(key_of("李"), key_of("李信"));
        assert_ne!(key_of("信李"), key_of("李信"));
        assert_eq!(
            key_of("耶律阿保机"),
            key_of_chars(&['耶', '律', '阿', '保', '机'])
        );
        assert!(key_of("一二三四五六").is_some());
        assert_eq!(key_of("一二三四五六七"), None);
        assert_eq!(key_of(""), None);
    }

    #[test]
    fn chunks_cover_every_run_once_in_order() {
        let text = "甲乙丙，丁戊，己，庚辛壬癸，子丑";
        let store = RunStore::new(&[text, "寅卯"]);
        let rs = store.runs();
        for parts in 1..=8 {
            let cs = chunk_ranges(&rs, parts);
            let joined: Vec<&str> = cs
                .iter()
                .flat_map(|c| rs[c.clone()].iter().map(|r| r.text))
                .collect();
            let all: Vec<&str> = rs.iter().map(|r| r.text).collect();
            assert_eq!(joined, all, "{parts} parts");
            assert!(cs.len() <= parts + 1);
        }
    }

    #[test]
    fn char_lengths_keep_the_longest() {
        let mut t = CharLengths::default();
        t.raise('王', 2);
        t.raise('王', 1);
        t.raise('𠀀', 3);
        assert_eq!((t.get('王'), t.get('𠀀'), t.get('李')), (2, 3, 0));
    }
}
