//! Corpus: the book as runs of Han characters, and the one counting pass that
//! gives every candidate string its corpus statistics (count, neighbours,
//! contexts). Candidates are found by the rules in `recognize`; this module
//! only measures them.
//!
//! A run is a maximal stretch of Han characters: punctuation, digits, Latin
//! letters and line breaks end a run, so no candidate ever crosses them.

/// The fast hasher of the statistics stage, for the short keys counted here.
pub use crate::stats::FxMap;

/// A set of characters: a bitmap over the Basic Multilingual Plane (where
/// Han characters live) and a small list for the rest. Looked up at every
/// character of a book, so it must cost nothing.
#[derive(Clone, Default)]
pub struct CharSet {
    bmp: Vec<u64>,
    other: Vec<char>,
}

impl CharSet {
    pub fn new() -> CharSet {
        CharSet {
            bmp: vec![0; 0x10000 / 64],
            other: Vec::new(),
        }
    }

    #[inline]
    pub fn contains(&self, c: &char) -> bool {
        let u = *c as usize;
        if u < 0x10000 {
            self.bmp[u / 64] & (1 << (u % 64)) != 0
        } else {
            self.other.contains(c)
        }
    }

    pub fn insert(&mut self, c: char) {
        let u = c as usize;
        if u < 0x10000 {
            self.bmp[u / 64] |= 1 << (u % 64);
        } else if !self.other.contains(&c) {
            self.other.push(c);
        }
    }

    pub fn remove(&mut self, c: &char) {
        let u = *c as usize;
        if u < 0x10000 {
            self.bmp[u / 64] &= !(1 << (u % 64));
        } else {
            self.other.retain(|x| x != c);
        }
    }
}

impl Extend<char> for CharSet {
    fn extend<I: IntoIterator<Item = char>>(&mut self, iter: I) {
        for c in iter {
            self.insert(c);
        }
    }
}

impl FromIterator<char> for CharSet {
    fn from_iter<I: IntoIterator<Item = char>>(iter: I) -> CharSet {
        let mut set = CharSet::new();
        set.extend(iter);
        set
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

/// A run of Han characters: its text and the byte offset of each character
/// (plus the run's length at the end), so character `i..j` is
/// `&text[off[i]..off[j]]`.
pub struct Run<'a> {
    pub chapter: usize,
    pub text: &'a str,
    pub off: Vec<u32>,
    /// The separator just before the run ("" at a chapter start) and just after it.
    pub before: char,
    pub after: char,
}

impl<'a> Run<'a> {
    /// Number of characters.
    pub fn len(&self) -> usize {
        self.off.len() - 1
    }

    /// Characters `i..j` as a slice of the book.
    #[inline]
    pub fn sub(&self, i: usize, j: usize) -> &'a str {
        &self.text[self.off[i] as usize..self.off[j] as usize]
    }

    /// Character `i`.
    #[inline]
    pub fn ch(&self, i: usize) -> char {
        self.sub(i, i + 1).chars().next().expect("a character")
    }
}

/// The runs of every chapter, in order.
pub fn runs<'a>(chapters: &[&'a str]) -> Vec<Run<'a>> {
    let mut out = Vec::new();
    for (chapter, text) in chapters.iter().enumerate() {
        let mut start: Option<usize> = None;
        let mut before = '\n';
        let mut prev = '\n';
        for (i, c) in text.char_indices() {
            if is_han(c) {
                if start.is_none() {
                    start = Some(i);
                    before = prev;
                }
            } else if let Some(s) = start.take() {
                out.push(make_run(chapter, &text[s..i], before, c));
            }
            prev = c;
        }
        if let Some(s) = start {
            out.push(make_run(chapter, &text[s..], before, '\n'));
        }
    }
    out
}

fn make_run(chapter: usize, text: &str, before: char, after: char) -> Run<'_> {
    let mut off: Vec<u32> = text.char_indices().map(|(i, _)| i as u32).collect();
    off.push(text.len() as u32);
    Run {
        chapter,
        text,
        off,
        before,
        after,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_break_at_punctuation_and_keep_offsets() {
        let text = "李信败逃，屠睢大惊！ab燕山";
        let rs = runs(&[text]);
        let got: Vec<&str> = rs.iter().map(|r| r.text).collect();
        assert_eq!(got, vec!["李信败逃", "屠睢大惊", "燕山"]);
        assert_eq!(rs[0].sub(0, 2), "李信");
        assert_eq!(rs[1].before, '，');
        assert_eq!(rs[1].after, '！');
        assert_eq!(rs[2].ch(1), '山');
        assert_eq!(rs[2].len(), 2);
    }

    #[test]
    fn char_set_holds_bmp_and_astral_characters() {
        let mut set: CharSet = "的了".chars().collect();
        set.insert('𠀀');
        assert!(set.contains(&'的') && set.contains(&'𠀀') && !set.contains(&'王'));
        set.remove(&'的');
        assert!(!set.contains(&'的'));
    }
}
