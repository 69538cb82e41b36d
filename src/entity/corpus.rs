//! Corpus: the book as runs of Han characters, and the one counting pass that
//! gives every candidate string its corpus statistics (count, neighbours,
//! contexts). Candidates are found by the rules in `recognize`; this module
//! only measures them.
//!
//! A run is a maximal stretch of Han characters: punctuation, digits, Latin
//! letters and line breaks end a run, so no candidate ever crosses them.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// FxHash (rustc's hasher): fast for the short keys counted here.
#[derive(Default, Clone, Copy)]
pub struct FxHasher {
    hash: u64,
}

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
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

pub type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

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

/// Shannon entropy (nats) of a distribution given by counts.
pub fn entropy(counts: impl Iterator<Item = u32>) -> f64 {
    let counts: Vec<u32> = counts.collect();
    let total: u32 = counts.iter().sum();
    if total == 0 {
        return 0.0;
    }
    let t = total as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = c as f64 / t;
            -p * p.ln()
        })
        .sum()
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
    fn entropy_of_uniform_and_single() {
        assert_eq!(entropy([5u32].into_iter()), 0.0);
        assert!((entropy([1u32, 1].into_iter()) - 2f64.ln()).abs() < 1e-9);
    }
}
