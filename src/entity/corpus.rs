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

pub use crate::charset::is_han;

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

/// A run of Han characters: its text and the byte offset of each character
/// within it (plus the run's length at the end), so characters `i..j` are
/// `&text[off[i]..off[j]]`. Characters are read from the text when asked:
/// a book has millions of them, and a `char` each would cost more memory
/// than the text itself. A view, made when read (`Runs::at`): the book
/// keeps a 16-byte `RunSpan` per run instead.
#[derive(Clone, Copy)]
pub struct Run<'a> {
    pub chapter: usize,
    pub text: &'a str,
    pub off: &'a [u32],
    /// The separator just before the run ("" at a chapter start) and just after it.
    pub before: char,
    pub after: char,
}

impl<'a> Run<'a> {
    /// Number of characters.
    #[inline]
    pub fn len(&self) -> usize {
        self.off.len() - 1
    }

    /// The characters, decoded.
    pub fn chars(&self) -> Vec<char> {
        self.text.chars().collect()
    }

    /// Characters `i..j` as a slice of the book.
    #[inline]
    pub fn sub(&self, i: usize, j: usize) -> &'a str {
        &self.text[self.off[i] as usize..self.off[j] as usize]
    }

    /// Character `i`.
    #[inline]
    pub fn ch(&self, i: usize) -> char {
        han_at(self.text.as_bytes(), self.off[i] as usize)
    }

    /// The key of characters `i..j` (None past `KEY_CHARS`).
    #[inline]
    pub fn key(&self, i: usize, j: usize) -> Option<Key> {
        if i == j || j - i > KEY_CHARS {
            return None;
        }
        Some((i..j).fold(0, |k, c| extend_key(k, self.ch(c))))
    }
}

/// A match in the runs: the run's index, the pattern, and its byte range
/// in the run's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunHit {
    pub run: u32,
    pub pattern: u32,
    pub start: u32,
    pub end: u32,
}

/// Where a run is in its chapter: all a book keeps per run. A book has
/// over a million runs, and a `Run` view (48 bytes) each was the largest
/// thing discovery held; the view is made from this when read.
#[derive(Clone, Copy)]
struct RunSpan {
    chapter: u32,
    /// Byte range in the chapter's text.
    start: u32,
    end: u32,
    /// Where the run's offsets start among its chapter's in
    /// `RunStore::wide`, or `NARROW` (3-byte characters only: offsets
    /// 0, 3, 6, … from `RunStore::steps`).
    wide: u32,
}

/// `RunSpan::wide` of a run of 3-byte characters.
const NARROW: u32 = u32::MAX;

/// The Han character (3 or 4 bytes of UTF-8: none is shorter) that starts
/// at byte `at` of `bytes`.
#[inline]
fn han_at(bytes: &[u8], at: usize) -> char {
    let b = &bytes[at..];
    let code = if b[0] < 0xF0 {
        (u32::from(b[0] & 0x0F) << 12) | (u32::from(b[1] & 0x3F) << 6) | u32::from(b[2] & 0x3F)
    } else {
        (u32::from(b[0] & 0x07) << 18)
            | (u32::from(b[1] & 0x3F) << 12)
            | (u32::from(b[2] & 0x3F) << 6)
            | u32::from(b[3] & 0x3F)
    };
    char::from_u32(code).expect("a run holds whole characters")
}

/// What the runs of a book need beside the book's text: their character
/// offsets. Nearly every Han character takes 3 bytes, so a run of those
/// shares its offsets (0, 3, 6, …) with every other such run; only a run
/// holding a 4-byte character (CJK extension B and later) has its own.
pub struct RunStore<'a> {
    chapters: Vec<ChapterRuns<'a>>,
    /// 0, 3, 6, … up to the longest run of 3-byte characters.
    steps: Vec<u32>,
    /// The offsets of the other runs, one after another in book order.
    wide: Vec<u32>,
}

struct ChapterRuns<'a> {
    text: &'a str,
    runs: usize,
    /// Where the chapter's runs with 4-byte characters start in `wide`.
    wide_start: usize,
}

impl<'a> RunStore<'a> {
    /// Finds the runs of every chapter (chapters scanned in parallel).
    pub fn new(chapters: &[&'a str]) -> RunStore<'a> {
        use rayon::prelude::*;
        let scans: Vec<(usize, usize, Vec<u32>)> = chapters
            .par_iter()
            .map(|text| {
                let (mut runs, mut longest, mut wide) = (0, 0, Vec::new());
                for_each_run(text, |start, end, chars, _, _| {
                    runs += 1;
                    if end - start == 3 * chars {
                        longest = longest.max(chars);
                    } else {
                        wide.extend(text[start..end].char_indices().map(|(i, _)| i as u32));
                        wide.push((end - start) as u32);
                    }
                });
                (runs, longest, wide)
            })
            .collect();
        let longest = scans.iter().map(|s| s.1).max().unwrap_or(0);
        let mut store = RunStore {
            chapters: Vec::with_capacity(chapters.len()),
            steps: (0..=longest as u32).map(|i| 3 * i).collect(),
            wide: Vec::new(),
        };
        for (text, (runs, _, wide)) in chapters.iter().zip(scans) {
            store.chapters.push(ChapterRuns {
                text,
                runs,
                wide_start: store.wide.len(),
            });
            store.wide.extend(wide);
        }
        store
    }

    /// The runs, in order, with their slices for the parallel scans.
    pub fn runs(&self) -> Runs<'_> {
        use rayon::prelude::*;
        let total = self.chapters.iter().map(|c| c.runs).sum();
        let mut spans = vec![
            RunSpan {
                chapter: 0,
                start: 0,
                end: 0,
                wide: NARROW,
            };
            total
        ];
        // Each chapter fills its own part of the one list (no list per
        // chapter to copy from).
        let mut parts = Vec::with_capacity(self.chapters.len());
        let mut rest = spans.as_mut_slice();
        for c in &self.chapters {
            let (part, tail) = rest.split_at_mut(c.runs);
            parts.push(part);
            rest = tail;
        }
        parts
            .into_par_iter()
            .zip(self.chapters.par_iter().enumerate())
            .for_each(|(part, (chapter, c))| {
                let mut spans = part.iter_mut();
                let mut wide = 0;
                for_each_run(c.text, |start, end, chars, _, _| {
                    let narrow = end - start == 3 * chars;
                    *spans.next().expect("counted") = RunSpan {
                        chapter: chapter as u32,
                        start: start as u32,
                        end: end as u32,
                        wide: if narrow { NARROW } else { wide as u32 },
                    };
                    if !narrow {
                        wide += chars + 1;
                    }
                });
            });
        let mut runs = Runs {
            store: self,
            spans,
            slices: Vec::new(),
        };
        runs.slices = chunk_ranges(
            runs.iter().map(|r| r.len()),
            2 * rayon::current_num_threads(),
        );
        runs
    }
}

/// Calls `f(start, end, characters, before, after)` for each run of Han
/// characters in `text`, in order: its byte range, its length in
/// characters, and the characters around it ('\n' at either end of the
/// text).
fn for_each_run(text: &str, mut f: impl FnMut(usize, usize, usize, char, char)) {
    let mut open: Option<(usize, usize, char)> = None;
    let mut prev = '\n';
    for (i, c) in text.char_indices() {
        if is_han(c) {
            match &mut open {
                Some((_, chars, _)) => *chars += 1,
                None => open = Some((i, 1, prev)),
            }
        } else if let Some((start, chars, before)) = open.take() {
            f(start, i, chars, before, c);
        }
        prev = c;
    }
    if let Some((start, chars, before)) = open {
        f(start, text.len(), chars, before, '\n');
    }
}

/// A book's runs, and their split into consecutive slices of similar length
/// (two per thread) for the parallel scans, made once. Runs are read as
/// `Run` views, by index or in order.
pub struct Runs<'a> {
    store: &'a RunStore<'a>,
    spans: Vec<RunSpan>,
    slices: Vec<std::ops::Range<usize>>,
}

impl<'a> Runs<'a> {
    /// Number of runs.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// Run `i`.
    #[inline]
    pub fn at(&self, i: usize) -> Run<'a> {
        self.view(self.spans[i])
    }

    /// Run `i`, if there is one.
    pub fn get(&self, i: usize) -> Option<Run<'a>> {
        self.spans.get(i).map(|&s| self.view(s))
    }

    /// The runs, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Run<'a>> + Clone + '_ {
        self.spans.iter().map(|&s| self.view(s))
    }

    /// The chapter's text before `run` (which is a slice of it): what the
    /// runs leave out, such as the Arabic numerals of 771团.
    pub fn text_before(&self, run: &Run<'a>) -> &'a str {
        let text = self.store.chapters[run.chapter].text;
        let start = run.text.as_ptr() as usize - text.as_ptr() as usize;
        &text[..start]
    }

    /// Every match of `ac` in the runs (leftmost-longest or as the
    /// automaton finds them), in book order; the slices searched in
    /// parallel.
    pub fn find_all(&self, ac: &aho_corasick::AhoCorasick) -> Vec<RunHit> {
        use rayon::prelude::*;
        let parts: Vec<Vec<RunHit>> = self
            .slices
            .par_iter()
            .map(|range| {
                let mut hits = Vec::new();
                for r in range.clone() {
                    for m in ac.find_iter(self.at(r).text) {
                        hits.push(RunHit {
                            run: r as u32,
                            pattern: m.pattern().as_u32(),
                            start: m.start() as u32,
                            end: m.end() as u32,
                        });
                    }
                }
                hits
            })
            .collect();
        parts.concat()
    }

    /// The slices, in book order.
    pub fn slices(&self) -> Vec<RunSlice<'_, 'a>> {
        self.slices
            .iter()
            .map(|r| RunSlice {
                runs: self,
                range: r.clone(),
            })
            .collect()
    }

    /// The slices as index ranges of the runs.
    pub fn slice_ranges(&self) -> &[std::ops::Range<usize>] {
        &self.slices
    }

    #[inline]
    fn view(&self, s: RunSpan) -> Run<'a> {
        let c = &self.store.chapters[s.chapter as usize];
        let (start, end) = (s.start as usize, s.end as usize);
        let text = &c.text[start..end];
        let off = if s.wide == NARROW {
            &self.store.steps[..=text.len() / 3]
        } else {
            let at = c.wide_start + s.wide as usize;
            &self.store.wide[at..=at + text.chars().count()]
        };
        Run {
            chapter: s.chapter as usize,
            text,
            off,
            before: c.text[..start].chars().next_back().unwrap_or('\n'),
            after: c.text[end..].chars().next().unwrap_or('\n'),
        }
    }
}

/// Consecutive runs of a book: one slice of a parallel scan.
pub struct RunSlice<'r, 'a> {
    runs: &'r Runs<'a>,
    range: std::ops::Range<usize>,
}

impl<'a> RunSlice<'_, 'a> {
    /// The runs, in order.
    pub fn iter(&self) -> impl Iterator<Item = Run<'a>> + '_ {
        self.runs.spans[self.range.clone()]
            .iter()
            .map(|&s| self.runs.view(s))
    }
}

/// Splits runs, given by their lengths in characters, into about `parts`
/// consecutive slices of similar length, as index ranges, for the parallel
/// scans (whose partial results are merged in slice order, so the split
/// never changes a result).
fn chunk_ranges(
    lengths: impl ExactSizeIterator<Item = usize> + Clone,
    parts: usize,
) -> Vec<std::ops::Range<usize>> {
    let runs = lengths.len();
    let total: usize = lengths.clone().sum();
    let target = total / parts.max(1) + 1;
    let mut out = Vec::new();
    let mut start = 0;
    let mut size = 0;
    for (i, len) in lengths.enumerate() {
        size += len;
        if size >= target {
            out.push(start..i + 1);
            start = i + 1;
            size = 0;
        }
    }
    if start < runs {
        out.push(start..runs);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_break_at_punctuation_and_keep_offsets() {
        let text = "柯信败逃，屠睢大惊！ab燕山";
        let store = RunStore::new(&[text]);
        let rs = store.runs();
        let got: Vec<&str> = rs.iter().map(|r| r.text).collect();
        assert_eq!(got, vec!["柯信败逃", "屠睢大惊", "燕山"]);
        assert_eq!(rs.at(0).sub(0, 2), "柯信");
        assert_eq!(rs.at(0).before, '\n');
        assert_eq!(rs.at(1).before, '，');
        assert_eq!(rs.at(1).after, '！');
        assert_eq!(rs.at(2).before, 'b');
        assert_eq!(rs.at(2).after, '\n');
        assert_eq!(rs.at(2).ch(1), '山');
        assert_eq!(rs.at(2).len(), 2);
        assert_eq!(rs.at(0).key(0, 2), key_of("柯信"));
    }

    #[test]
    fn runs_with_four_byte_characters_keep_their_own_offsets() {
        let store = RunStore::new(&["甲𠀀乙，丙丁", "戊𠀁"]);
        let rs = store.runs();
        let got: Vec<(usize, &str, usize)> =
            rs.iter().map(|r| (r.chapter, r.text, r.len())).collect();
        assert_eq!(got, vec![(0, "甲𠀀乙", 3), (0, "丙丁", 2), (1, "戊𠀁", 2)]);
        assert_eq!(rs.at(0).ch(1), '𠀀');
        assert_eq!(rs.at(0).sub(1, 3), "𠀀乙");
        assert_eq!(rs.at(2).ch(1), '𠀁');
        assert_eq!(rs.at(2).sub(0, 1), "戊");
        assert_eq!((rs.at(1).before, rs.at(0).after), ('，', '，'));
        assert!(rs.get(3).is_none());
    }

    #[test]
    fn keys_tell_strings_apart_and_stop_at_six_characters() {
        assert_ne!(key_of("柯"), key_of("柯信"));
        assert_ne!(key_of("信柯"), key_of("柯信"));
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
            let cs = chunk_ranges(rs.iter().map(|r| r.len()), parts);
            let joined: Vec<&str> = cs
                .iter()
                .flat_map(|c| c.clone().map(|i| rs.at(i).text))
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
