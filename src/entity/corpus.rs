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

/// Every match of `ac` in `text`, the text of run `run`, as `RunHit`s.
fn push_run_hits(ac: &aho_corasick::AhoCorasick, run: usize, text: &str, hits: &mut Vec<RunHit>) {
    hits.extend(ac.find_iter(text).map(|m| RunHit {
        run: run as u32,
        pattern: m.pattern().as_u32(),
        start: m.start() as u32,
        end: m.end() as u32,
    }));
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
            pairs: std::sync::OnceLock::new(),
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
    /// Which runs hold each pair of adjacent characters, made when a
    /// matcher first needs it.
    pairs: std::sync::OnceLock<PairRuns>,
}

/// Which runs hold each pair of adjacent characters, as a few bits of the
/// pair's hash (`pair_bucket`): the runs of a bucket hold one of its
/// pairs, so a run outside a pair's bucket holds no string with that pair.
/// One part per slice of the book (built in parallel), each a flat list of
/// run indices by bucket, in book order, each run once per bucket.
struct PairRuns {
    parts: Vec<PairPart>,
}

struct PairPart {
    /// Where each bucket's runs start in `runs` (`PAIR_BUCKETS + 1` entries).
    start: Vec<u32>,
    runs: Vec<u32>,
}

/// Buckets of `PairRuns`: a book has some 100,000 distinct pairs, so few
/// buckets mix a rare pair with a common one.
const PAIR_BUCKETS: usize = 1 << 18;

#[inline]
fn pair_bucket(a: char, b: char) -> usize {
    let pair = (u64::from(a) << 21) | u64::from(b);
    (pair.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - 18)) as usize
}

impl PairRuns {
    /// The runs of bucket `b`, part by part (book order).
    fn runs(&self, b: usize) -> impl Iterator<Item = &[u32]> {
        self.parts
            .iter()
            .map(move |p| &p.runs[p.start[b] as usize..p.start[b + 1] as usize])
    }
}

/// A name automaton and the runs it can match in: only those that hold,
/// for some name, that name's rarest pair of characters (every other run
/// holds no name), or every run (None) when a name is shorter than two
/// characters or the names' pairs are in much of the book. Searching these
/// runs finds exactly what searching them all does, in less time.
pub struct BookMatcher {
    pub ac: aho_corasick::AhoCorasick,
    runs: Option<Vec<u32>>,
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

    /// An automaton over `names` (`entity::name_matcher`) with the runs
    /// it can match in.
    pub fn matcher<I, S>(&self, names: I, kind: aho_corasick::MatchKind) -> BookMatcher
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let names: Vec<S> = names.into_iter().collect();
        let ac = crate::entity::name_matcher(names.iter().map(|n| n.as_ref()), kind);
        BookMatcher {
            ac,
            runs: self.runs_holding(&names),
        }
    }

    /// The runs that may hold one of `names`, in book order (see
    /// `BookMatcher`); None for every run.
    fn runs_holding<S: AsRef<str>>(&self, names: &[S]) -> Option<Vec<u32>> {
        let pairs = self.pairs.get_or_init(|| self.pair_runs());
        let mut buckets: Vec<usize> = Vec::with_capacity(names.len());
        let mut total = 0;
        for name in names {
            let chars: Vec<char> = name.as_ref().chars().collect();
            // A run holds Han characters only.
            if chars.iter().any(|&c| !is_han(c)) {
                continue;
            }
            if chars.len() < 2 {
                return None;
            }
            let (size, rarest) = chars
                .windows(2)
                .map(|w| {
                    let b = pair_bucket(w[0], w[1]);
                    (pairs.runs(b).map(<[u32]>::len).sum::<usize>(), b)
                })
                .min()
                .expect("two characters make a pair");
            total += size;
            // Gathering this many costs more than searching every run.
            if total > self.len() / 2 {
                return None;
            }
            buckets.push(rarest);
        }
        buckets.sort_unstable();
        buckets.dedup();
        let mut runs: Vec<u32> = Vec::with_capacity(total);
        for &b in &buckets {
            for part in pairs.runs(b) {
                runs.extend_from_slice(part);
            }
        }
        runs.sort_unstable();
        runs.dedup();
        Some(runs)
    }

    /// `PairRuns` of the book: each slice counts its runs per bucket, then
    /// lists them.
    fn pair_runs(&self) -> PairRuns {
        use rayon::prelude::*;
        let for_each_bucket = |range: &std::ops::Range<usize>, f: &mut dyn FnMut(usize, u32)| {
            // The run last listed in each bucket: a run is listed once.
            let mut last = vec![u32::MAX; PAIR_BUCKETS];
            for r in range.clone() {
                let mut chars = self.at(r).text.chars();
                let Some(mut prev) = chars.next() else {
                    continue;
                };
                for c in chars {
                    let b = pair_bucket(prev, c);
                    if last[b] != r as u32 {
                        last[b] = r as u32;
                        f(b, r as u32);
                    }
                    prev = c;
                }
            }
        };
        let parts = self
            .slices
            .par_iter()
            .map(|range| {
                let mut start = vec![0u32; PAIR_BUCKETS + 1];
                for_each_bucket(range, &mut |b, _| start[b + 1] += 1);
                for b in 0..PAIR_BUCKETS {
                    start[b + 1] += start[b];
                }
                let mut runs = vec![0u32; start[PAIR_BUCKETS] as usize];
                let mut next = start.clone();
                for_each_bucket(range, &mut |b, r| {
                    runs[next[b] as usize] = r;
                    next[b] += 1;
                });
                PairPart { start, runs }
            })
            .collect();
        PairRuns { parts }
    }

    /// `f` over consecutive parts of the runs `m` can match in (given as
    /// run indices), in parallel; the results in book order.
    pub fn map_matchable_at<T: Send>(
        &self,
        m: &BookMatcher,
        f: impl Fn(&mut dyn Iterator<Item = usize>) -> T + Sync,
    ) -> Vec<T> {
        use rayon::prelude::*;
        match &m.runs {
            None => self.slices.par_iter().map(|r| f(&mut r.clone())).collect(),
            Some(runs) => {
                let size = runs.len().div_ceil(2 * rayon::current_num_threads());
                runs.par_chunks(size.max(1))
                    .map(|part| f(&mut part.iter().map(|&r| r as usize)))
                    .collect()
            }
        }
    }

    /// Every match of `m` in the runs (leftmost-longest or as the
    /// automaton finds them), in book order; the runs searched in
    /// parallel.
    pub fn find_all(&self, m: &BookMatcher) -> Vec<RunHit> {
        self.map_matchable_at(m, |part| {
            let mut hits = Vec::new();
            for r in part {
                push_run_hits(&m.ac, r, self.at(r).text, &mut hits);
            }
            hits
        })
        .concat()
    }

    /// `f` over consecutive parts of the runs `m` can match in, in
    /// parallel; the results in book order.
    pub fn map_matchable<T: Send>(
        &self,
        m: &BookMatcher,
        f: impl Fn(&mut dyn Iterator<Item = Run<'a>>) -> T + Sync,
    ) -> Vec<T> {
        self.map_matchable_at(m, |part| f(&mut part.map(|r| self.at(r))))
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
    fn book_matchers_find_what_a_search_of_every_run_finds() {
        use aho_corasick::MatchKind;
        let text = "韩千山见了柯北辰，柯北辰道：韩千山哥哥！苏青禾、石敢当与韩千山同往，山州。";
        let store = RunStore::new(&[text, "韩千山柯北辰苏青禾山"]);
        let rs = store.runs();
        let every = |names: &[&str], kind: MatchKind| -> Vec<RunHit> {
            let ac = crate::entity::name_matcher(names, kind);
            let mut hits = Vec::new();
            for (r, run) in rs.iter().enumerate() {
                push_run_hits(&ac, r, run.text, &mut hits);
            }
            hits
        };
        let cases: [&[&str]; 4] = [
            &["韩千山", "柯北辰", "韩千山哥哥", "石敢当"],
            // A name of one character: every run is searched.
            &["苏青禾", "山"],
            // A name no run can hold, and one the book never says.
            &["苏青禾、石敢当", "燕不归"],
            &[],
        ];
        for names in cases {
            for kind in [MatchKind::LeftmostLongest, MatchKind::Standard] {
                let found = rs.find_all(&rs.matcher(names, kind));
                assert_eq!(found, every(names, kind), "{names:?}");
            }
        }
        assert_eq!(rs.runs_holding(&["燕不归"]), Some(vec![]));
        assert_eq!(rs.runs_holding(&["山"]), None);
        assert_eq!(rs.runs_holding(&["柯北辰"]).map(|r| r.len()), Some(3));
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
