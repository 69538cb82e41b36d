//! Tagger: a character-level name tagger. It labels every character of a
//! Han run `O`, `B-PER`, `I-PER`, `B-LOC` or `I-LOC` with a structured
//! averaged perceptron (Collins 2002) over character n-grams around it and
//! a few lexicon hints (surname, place and army suffix weights), decoded by
//! Viterbi.
//!
//! Why: a name said once or twice in a chapter (石峻奏道, 司马青见了) has
//! almost no book-level statistics for the candidate model to read, but its
//! context in that one sentence is plain to a reader. The tagger reads that
//! context; what it learned is shipped as text (`model/name-tagger.tsv`),
//! trained by `zhnovel train` on books with answer keys (their names
//! matched longest-first in the text: see `gold_tags`).
//!
//! Training is deterministic: sentences in book order, a fixed number of
//! passes, weights averaged over every step.

use crate::entity::lexicon::Lexicon;
use crate::hash::FxMap;
use crate::segment::{Vocabulary, WordTag};
use rayon::prelude::*;
use std::fmt::Write as _;

/// The tagger shipped with zhnovel (see `model/README.md` for its training data).
pub const BUILTIN: &str = include_str!("../../model/name-tagger.tsv");

/// Tags, in the order of the weight columns.
pub const TAG_NAMES: [&str; 5] = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"];
const N: usize = 5;
const OUT: u8 = 0;
const B_PER: u8 = 1;
const I_PER: u8 = 2;
const B_LOC: u8 = 3;
const I_LOC: u8 = 4;
/// Features per character (see `features`).
const F: usize = 22;

/// The kind of a tagged span.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SpanKind {
    Person,
    Place,
}

/// What the tagger knows of single characters from the lexicon: surname
/// weight, place suffix weight, army suffix weight and given-name
/// frequency (0 when none), and two-character surnames; and of words:
/// the lexicon's places (`places`) and jieba's dictionary (`vocab`).
#[derive(Clone, Default)]
pub struct Hints {
    pub surname: FxMap<char, u8>,
    pub double_surname: FxMap<(char, char), u8>,
    pub place_suffix: FxMap<char, u8>,
    pub army_suffix: FxMap<char, u8>,
    /// How common the character is in given names, 0–3.
    pub given: FxMap<char, u8>,
    /// The lexicon's places (read as place words).
    pub places: crate::hash::FxSet<String>,
    /// jieba's dictionary: which strings are words, and their tags.
    pub vocab: Option<Vocabulary>,
}

impl std::fmt::Debug for Hints {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hints")
            .field("surnames", &self.surname.len())
            .field("places", &self.places.len())
            .field("vocab", &self.vocab.is_some())
            .finish()
    }
}

/// Longest dictionary word the word features look for, in characters.
const WORD_MAX: usize = 4;

impl Hints {
    /// The tagger's hints from the lexicon: surname weights (one- and
    /// two-character surnames), one-character place and army suffix
    /// weights, and given-name characters in four bands of frequency.
    pub fn from_lexicon(lex: &Lexicon) -> Hints {
        let mut h = Hints::default();
        for (s, &w) in &lex.surnames {
            let c: Vec<char> = s.chars().collect();
            match c[..] {
                [a] => {
                    h.surname.insert(a, w);
                }
                [a, b] => {
                    h.double_surname.insert((a, b), w);
                }
                _ => {}
            }
        }
        for (s, p) in &lex.place_suffixes {
            if let [c] = s.chars().collect::<Vec<_>>()[..] {
                h.place_suffix.insert(c, p.weight);
            }
        }
        for (s, &w) in &lex.army_suffixes {
            if let [c] = s.chars().collect::<Vec<_>>()[..] {
                h.army_suffix.insert(c, w);
            }
        }
        h.places = lex.places.iter().cloned().collect();
        // Given-name characters by how common they are in names (of about
        // 3 000 in dict/given_name_chars.tsv: the top 50, 300, 1 000).
        for (&c, &n) in &lex.given_name_chars {
            let bucket = match n {
                215.. => 3,
                67.. => 2,
                15.. => 1,
                _ => 0,
            };
            if bucket > 0 {
                h.given.insert(c, bucket);
            }
        }
        h
    }

    /// This hints with jieba's dictionary as a source of word features.
    pub fn with_vocabulary(mut self, vocab: Vocabulary) -> Hints {
        self.vocab = Some(vocab);
        self
    }

    /// The class of a string as a word: `P` a person word of jieba's
    /// dictionary (nr, nrt, nrfg), `L` a place (ns, or the lexicon's), `W`
    /// a common word (jieba frequency at least 100), `w` a rarer word.
    fn word_class(&self, w: &str) -> Option<char> {
        if self.places.contains(w) {
            return Some('L');
        }
        let vocab = self.vocab.as_ref()?;
        Some(match vocab.word_tag(w)? {
            WordTag::Person => 'P',
            WordTag::Place => 'L',
            _ if vocab.suggest_freq(w) >= 100 => 'W',
            _ => 'w',
        })
    }

    /// Per character: the longest dictionary word of 2 to `WORD_MAX`
    /// characters that starts there, and the longest that ends there, as
    /// codes of class and length (`'\0'` for none). Why: a name seldom
    /// cuts a common word, and jieba's tags say which words are names.
    pub fn word_marks(&self, chars: &[char]) -> Vec<[char; 2]> {
        let n = chars.len();
        let mut marks = vec![['\0'; 2]; n];
        if self.vocab.is_none() && self.places.is_empty() {
            return marks;
        }
        let mut buf = String::new();
        for i in 0..n {
            for len in (2..=WORD_MAX.min(n - i)).rev() {
                buf.clear();
                buf.extend(&chars[i..i + len]);
                if let Some(class) = self.word_class(&buf) {
                    let code = mark_code(class, len);
                    if marks[i][0] == '\0' {
                        marks[i][0] = code;
                    }
                    let end = i + len - 1;
                    // The longest word ending at `end`: the earliest start.
                    if marks[end][1] == '\0' {
                        marks[end][1] = code;
                    }
                }
            }
        }
        marks
    }

    /// One code for a character's hints (a feature value).
    fn code(&self, c: char) -> char {
        let s = self.surname.get(&c).copied().unwrap_or(0).min(3) as u32;
        let p = self.place_suffix.get(&c).copied().unwrap_or(0).min(3) as u32;
        let a = self.army_suffix.get(&c).copied().unwrap_or(0).min(3) as u32;
        let g = self.given.get(&c).copied().unwrap_or(0).min(3) as u32;
        char::from_u32(0x30 + s * 64 + p * 16 + a * 4 + g).unwrap_or('0')
    }
}

/// One training run's averaged weights and transitions.
type Averaged = (FxMap<u64, [f32; N]>, [[f32; N]; N + 1]);

/// A word-mark feature; none where no word starts or ends (an absent word
/// is no evidence: most characters start none).
fn mark_key(template: u64, a: char, b: char) -> u64 {
    if a == '\0' && b == '\0' {
        NO_FEATURE
    } else {
        key(template, a, b)
    }
}

/// A word mark's code: its class and length.
fn mark_code(class: char, len: usize) -> char {
    let c = match class {
        'P' => 0,
        'L' => 1,
        'W' => 2,
        _ => 3,
    };
    char::from_u32(0x41 + c * 8 + len as u32).unwrap_or('\0')
}

/// One training sentence: a Han run, its separators, and a gold tag per character.
#[derive(Debug, Clone)]
pub struct Sentence {
    pub chars: Vec<char>,
    pub before: char,
    pub after: char,
    pub gold: Vec<u8>,
}

/// Perceptron weights: per feature, one weight per tag; and tag transitions
/// (the last row is the start of a run).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tagger {
    weights: FxMap<u64, [f32; N]>,
    trans: [[f32; N]; N + 1],
    /// Free-text lines saying what the tagger was trained on.
    pub provenance: Vec<String>,
}

fn key(template: u64, a: char, b: char) -> u64 {
    (template << 42) | ((a as u64) << 21) | b as u64
}

/// Whether tag `t` may follow tag `prev` (`N` is the start).
fn allowed(prev: usize, t: usize) -> bool {
    match t as u8 {
        I_PER => prev == B_PER as usize || prev == I_PER as usize,
        I_LOC => prev == B_LOC as usize || prev == I_LOC as usize,
        _ => true,
    }
}

/// A feature that is not there (a hidden character's identity).
const NO_FEATURE: u64 = u64::MAX;

/// Which characters of the window (relative positions) each template names
/// by identity; the hint templates name none.
const USES: [&[isize]; F] = [
    &[0],
    &[-1],
    &[1],
    &[-2],
    &[2],
    &[-1, 0],
    &[0, 1],
    &[1, 2],
    &[-2, -1],
    &[-1, 1],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[],
    &[1],
    &[1],
    &[2],
    &[0],
    &[0],
    &[0],
];

/// The features of every character of a run, `F` per character.
fn features(chars: &[char], before: char, after: char, hints: &Hints, out: &mut Vec<u64>) {
    let marks = hints.word_marks(chars);
    features_hiding(chars, before, after, hints, &marks, &[], out);
}

/// `features`, with the identity of the characters at `hidden` positions
/// unknown (their lexicon hints stay): a feature naming one is `NO_FEATURE`.
fn features_hiding(
    chars: &[char],
    before: char,
    after: char,
    hints: &Hints,
    marks: &[[char; 2]],
    hidden: &[bool],
    out: &mut Vec<u64>,
) {
    out.clear();
    let n = chars.len() as isize;
    let at = |k: isize| -> char {
        if k < -1 {
            '\u{2}'
        } else if k == -1 {
            before
        } else if k == n {
            after
        } else if k > n {
            '\u{3}'
        } else {
            chars[k as usize]
        }
    };
    let is_hidden = |k: isize| (0..n).contains(&k) && hidden.get(k as usize) == Some(&true);
    for i in 0..n {
        let (m2, m1, c0, p1, p2) = (at(i - 2), at(i - 1), at(i), at(i + 1), at(i + 2));
        let start = out.len();
        let double = if i + 1 < n {
            hints.double_surname.get(&(c0, p1)).copied().unwrap_or(0)
        } else {
            0
        };
        out.extend_from_slice(&[
            key(0, c0, '\0'),
            key(1, m1, '\0'),
            key(2, p1, '\0'),
            key(3, m2, '\0'),
            key(4, p2, '\0'),
            key(5, m1, c0),
            key(6, c0, p1),
            key(7, p1, p2),
            key(8, m2, m1),
            key(9, m1, p1),
            key(10, hints.code(c0), '\0'),
            key(11, hints.code(m1), hints.code(c0)),
            key(12, hints.code(c0), hints.code(p1)),
            key(13, hints.code(m2), hints.code(m1)),
            key(
                14,
                char::from_u32(0x30 + double as u32).unwrap_or('0'),
                '\0',
            ),
            key(15, '\0', '\0'),
            // A surname one or two characters back and what follows: where
            // a name ends (韩铁衣|道), whatever its given name.
            key(16, hints.code(m2), p1),
            key(17, hints.code(m1), p1),
            key(18, hints.code(m1), p2),
            // The dictionary words starting and ending here (a hidden
            // character's words are hidden with it: a new name is seldom
            // a dictionary word).
            mark_key(19, marks[i as usize][0], '\0'),
            mark_key(20, marks[i as usize][1], '\0'),
            mark_key(21, marks[i as usize][0], marks[i as usize][1]),
        ]);
        if !hidden.is_empty() {
            for (t, uses) in USES.iter().enumerate() {
                if uses.iter().any(|&d| is_hidden(i + d)) {
                    out[start + t] = NO_FEATURE;
                }
            }
        }
    }
}

impl Tagger {
    /// Best tag sequence of a run.
    pub fn tag(&self, chars: &[char], before: char, after: char, hints: &Hints) -> Vec<u8> {
        let mut feats = Vec::with_capacity(chars.len() * F);
        features(chars, before, after, hints, &mut feats);
        self.viterbi(&feats, chars.len())
    }

    /// The person and place spans of a run: (start, end, kind) in characters.
    pub fn spans(
        &self,
        chars: &[char],
        before: char,
        after: char,
        hints: &Hints,
    ) -> Vec<(usize, usize, SpanKind)> {
        spans_of(&self.tag(chars, before, after, hints))
    }

    fn emissions(&self, feats: &[u64], n: usize) -> Vec<[f32; N]> {
        (0..n)
            .map(|i| {
                let mut e = [0f32; N];
                for f in &feats[i * F..(i + 1) * F] {
                    if let Some(w) = self.weights.get(f) {
                        for t in 0..N {
                            e[t] += w[t];
                        }
                    }
                }
                e
            })
            .collect()
    }

    fn viterbi(&self, feats: &[u64], n: usize) -> Vec<u8> {
        decode(&self.emissions(feats, n), &self.trans, |_, _| true).1
    }

    /// Trains on `sentences` for `epochs` passes (averaged perceptron),
    /// `HIDE_SEEDS` times with other characters hidden, and averages the
    /// runs' weights.
    pub fn train(
        sentences: &[Sentence],
        hints: &Hints,
        epochs: usize,
        provenance: Vec<String>,
    ) -> Tagger {
        // Word marks once per sentence: dictionary look-ups are the slow part.
        let marks: Vec<Vec<[char; 2]>> = sentences
            .par_iter()
            .map(|s| hints.word_marks(&s.chars))
            .collect();
        let runs: Vec<Averaged> = (0..HIDE_SEEDS)
            .into_par_iter()
            .map(|seed| Tagger::train_once(sentences, hints, &marks, epochs, seed))
            .collect();
        let k = runs.len() as f32;
        let mut sum: FxMap<u64, [f32; N]> = FxMap::default();
        let mut trans = [[0f32; N]; N + 1];
        // In seed order, so that the sums do not depend on the threads.
        for (w, t) in &runs {
            let mut keys: Vec<&u64> = w.keys().collect();
            keys.sort_unstable();
            for f in keys {
                let e = sum.entry(*f).or_insert([0.0; N]);
                for (x, y) in e.iter_mut().zip(&w[f]) {
                    *x += y;
                }
            }
            for (row, r) in trans.iter_mut().zip(t) {
                for (x, y) in row.iter_mut().zip(r) {
                    *x += y;
                }
            }
        }
        let mut out = Tagger {
            provenance,
            ..Tagger::default()
        };
        for (f, w) in &sum {
            let avg = w.map(|v| round2(v / k));
            if avg.iter().any(|v| v.abs() >= PRUNE) {
                out.weights.insert(*f, avg);
            }
        }
        for (o, t) in out.trans.iter_mut().zip(&trans) {
            *o = t.map(|v| round2(v / k));
        }
        out
    }

    /// One averaged-perceptron run: its averaged weights (unrounded) and
    /// transitions. `seed` picks which name characters are hidden.
    fn train_once(
        sentences: &[Sentence],
        hints: &Hints,
        marks: &[Vec<[char; 2]>],
        epochs: usize,
        seed: u64,
    ) -> Averaged {
        let mut cur = Tagger::default();
        // Sum over steps of each update times its step (the averaging trick
        // of Daumé: average = weights - acc / steps).
        let mut acc_w: FxMap<u64, [f32; N]> = FxMap::default();
        let mut acc_t = [[0f32; N]; N + 1];
        let mut step = 1f32;
        let mut feats = Vec::new();
        let mut hidden = Vec::new();
        for epoch in 0..epochs {
            for (si, s) in sentences.iter().enumerate() {
                let n = s.chars.len();
                // Some characters of the gold names are read as unseen, as
                // most characters of the names of a new book are: the
                // context and the lexicon hints must carry the name there.
                hidden.clear();
                hidden.extend((0..n).map(|i| {
                    matches!(s.gold[i], B_PER | I_PER | B_LOC | I_LOC)
                        && unit(epoch as u64 + seed * 1000, si as u64, i as u64) < HIDE_RATE
                }));
                features_hiding(
                    &s.chars, s.before, s.after, hints, &marks[si], &hidden, &mut feats,
                );
                let em = cur.emissions(&feats, n);
                let pred = decode(&em, &cur.trans, |_, _| true).1;
                let gold = if s.gold.contains(&UNKNOWN) {
                    decode(&em, &cur.trans, |k, t| {
                        s.gold[k] == UNKNOWN || s.gold[k] as usize == t
                    })
                    .1
                } else {
                    s.gold.clone()
                };
                if pred != gold {
                    for i in 0..n {
                        let (g, p) = (gold[i] as usize, pred[i] as usize);
                        if g != p {
                            let live = feats[i * F..(i + 1) * F]
                                .iter()
                                .filter(|&&f| f != NO_FEATURE);
                            for f in live {
                                let w = cur.weights.entry(*f).or_insert([0.0; N]);
                                w[g] += 1.0;
                                w[p] -= 1.0;
                                let a = acc_w.entry(*f).or_insert([0.0; N]);
                                a[g] += step;
                                a[p] -= step;
                            }
                        }
                        let gp = if i == 0 { N } else { gold[i - 1] as usize };
                        let pp = if i == 0 { N } else { pred[i - 1] as usize };
                        if (gp, g) != (pp, p) {
                            cur.trans[gp][g] += 1.0;
                            cur.trans[pp][p] -= 1.0;
                            acc_t[gp][g] += step;
                            acc_t[pp][p] -= step;
                        }
                    }
                }
                step += 1.0;
            }
        }
        let mut weights: FxMap<u64, [f32; N]> = FxMap::default();
        for (f, w) in &cur.weights {
            let a = acc_w.get(f).copied().unwrap_or([0.0; N]);
            let mut avg = [0f32; N];
            for t in 0..N {
                avg[t] = w[t] - a[t] / step;
            }
            weights.insert(*f, avg);
        }
        let mut trans = [[0f32; N]; N + 1];
        for ((row, cur_row), acc_row) in trans.iter_mut().zip(&cur.trans).zip(&acc_t) {
            for ((o, c), a) in row.iter_mut().zip(cur_row).zip(acc_row) {
                *o = c - a / step;
            }
        }
        (weights, trans)
    }

    /// The tagger as text: provenance comments, the transitions, then one
    /// line per feature (template, its characters, a weight per tag), sorted.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for p in &self.provenance {
            let _ = writeln!(s, "# {p}");
        }
        let _ = writeln!(s, "feature\ta\tb\t{}", TAG_NAMES.join("\t"));
        for (p, row) in self.trans.iter().enumerate() {
            let from = if p == N { "START" } else { TAG_NAMES[p] };
            let _ = writeln!(s, "trans\t{from}\t-\t{}", weights_text(row));
        }
        let mut keys: Vec<&u64> = self.weights.keys().collect();
        keys.sort();
        for k in keys {
            let (t, a, b) = split_key(*k);
            let _ = writeln!(
                s,
                "{t}\t{}\t{}\t{}",
                char_text(a),
                char_text(b),
                weights_text(&self.weights[k])
            );
        }
        s
    }

    /// Reads a tagger written by `to_text`.
    pub fn parse(text: &str) -> Result<Tagger, String> {
        let mut out = Tagger::default();
        for (i, line) in text.lines().enumerate() {
            let n = i + 1;
            if let Some(c) = line.strip_prefix('#') {
                out.provenance.push(c.trim().to_string());
                continue;
            }
            if line.trim().is_empty() || line.starts_with("feature\t") {
                continue;
            }
            let cols: Vec<&str> = line.split('\t').collect();
            if cols.len() != 3 + N {
                return Err(format!(
                    "line {n}: {} columns, expected {}",
                    cols.len(),
                    3 + N
                ));
            }
            let mut w = [0f32; N];
            for (t, c) in cols[3..].iter().enumerate() {
                w[t] = c
                    .parse()
                    .map_err(|_| format!("line {n}: weight {c:?} is not a number"))?;
            }
            if cols[0] == "trans" {
                let p = if cols[1] == "START" {
                    N
                } else {
                    TAG_NAMES
                        .iter()
                        .position(|t| *t == cols[1])
                        .ok_or_else(|| format!("line {n}: unknown tag {:?}", cols[1]))?
                };
                out.trans[p] = w;
                continue;
            }
            let t: u64 = cols[0]
                .parse()
                .ok()
                .filter(|&t| t < F as u64)
                .ok_or_else(|| format!("line {n}: unknown template {:?}", cols[0]))?;
            let a = parse_char(cols[1]).ok_or_else(|| format!("line {n}: bad character"))?;
            let b = parse_char(cols[2]).ok_or_else(|| format!("line {n}: bad character"))?;
            out.weights.insert(key(t, a, b), w);
        }
        if out.weights.is_empty() {
            return Err("no feature weights".into());
        }
        Ok(out)
    }

    /// Number of feature weights kept.
    pub fn len(&self) -> usize {
        self.weights.len()
    }

    pub fn is_empty(&self) -> bool {
        self.weights.is_empty()
    }
}

/// Viterbi over emission scores, with the tags `ok(position, tag)` allows:
/// the best score and its tags.
fn decode(
    em: &[[f32; N]],
    trans: &[[f32; N]; N + 1],
    ok: impl Fn(usize, usize) -> bool,
) -> (f32, Vec<u8>) {
    let n = em.len();
    if n == 0 {
        return (0.0, Vec::new());
    }
    let mut score = vec![[f32::NEG_INFINITY; N]; n];
    let mut back = vec![[0u8; N]; n];
    for t in 0..N {
        if allowed(N, t) && ok(0, t) {
            score[0][t] = trans[N][t] + em[0][t];
        }
    }
    for i in 1..n {
        for t in 0..N {
            if !ok(i, t) {
                continue;
            }
            let mut best = f32::NEG_INFINITY;
            let mut arg = 0u8;
            for p in 0..N {
                if !allowed(p, t) || score[i - 1][p] == f32::NEG_INFINITY {
                    continue;
                }
                let s = score[i - 1][p] + trans[p][t];
                if s > best {
                    best = s;
                    arg = p as u8;
                }
            }
            if best > f32::NEG_INFINITY {
                score[i][t] = best + em[i][t];
                back[i][t] = arg;
            }
        }
    }
    let mut t = (0..N)
        .max_by(|&a, &b| score[n - 1][a].total_cmp(&score[n - 1][b]).then(b.cmp(&a)))
        .unwrap_or(0);
    let best = score[n - 1][t];
    let mut out = vec![0u8; n];
    for i in (0..n).rev() {
        out[i] = t as u8;
        t = back[i][t] as usize;
    }
    (best, out)
}

/// Share of the characters of gold names whose identity training hides
/// (name-character dropout): at 0 the tagger learns the training books'
/// names by heart and reads few new ones (mention recall 0.28 held out;
/// 0.39 at 0.3, precision 0.78 → 0.76).
const HIDE_RATE: f64 = 0.3;

/// Training runs, each with other characters hidden, whose weights are
/// averaged: one run's figures move by up to 0.03 of recall with the
/// choice of hidden characters; the average of five moves little and reads
/// a little more precisely (`model/README.md`).
const HIDE_SEEDS: u64 = 5;

/// A deterministic number in [0, 1) from three counters (splitmix64 finish).
fn unit(a: u64, b: u64, c: u64) -> f64 {
    let mut z = a
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(b.wrapping_mul(0xBF58_476D_1CE4_E5B9))
        .wrapping_add(c.wrapping_mul(0x94D0_49BB_1331_11EB));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

/// Averaged weights below this (in updates) are dropped: they decide
/// nothing and would make the shipped file large.
const PRUNE: f32 = 1.0;

fn round2(v: f32) -> f32 {
    (v * 100.0).round() / 100.0
}

fn weights_text(w: &[f32; N]) -> String {
    w.iter()
        .map(|v| {
            if *v == 0.0 {
                "0".to_string()
            } else {
                format!("{v}")
            }
        })
        .collect::<Vec<_>>()
        .join("\t")
}

fn split_key(k: u64) -> (u64, char, char) {
    let t = k >> 42;
    let a = char::from_u32(((k >> 21) & 0x1F_FFFF) as u32).unwrap_or('\0');
    let b = char::from_u32((k & 0x1F_FFFF) as u32).unwrap_or('\0');
    (t, a, b)
}

/// A character as written in the model file: itself when it is a Han
/// character or printable punctuation, else `U+XXXX`.
fn char_text(c: char) -> String {
    if c.is_alphanumeric() || (c > '\u{2000}' && !c.is_whitespace()) {
        c.to_string()
    } else {
        format!("U+{:04X}", c as u32)
    }
}

fn parse_char(s: &str) -> Option<char> {
    match s.strip_prefix("U+") {
        Some(hex) if !hex.is_empty() => char::from_u32(u32::from_str_radix(hex, 16).ok()?),
        _ => {
            let mut it = s.chars();
            let c = it.next()?;
            it.next().is_none().then_some(c)
        }
    }
}

/// The spans of a tag sequence: (start, end, kind).
pub fn spans_of(tags: &[u8]) -> Vec<(usize, usize, SpanKind)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < tags.len() {
        let (kind, inside) = match tags[i] {
            B_PER => (SpanKind::Person, I_PER),
            B_LOC => (SpanKind::Place, I_LOC),
            _ => {
                i += 1;
                continue;
            }
        };
        let mut j = i + 1;
        while j < tags.len() && tags[j] == inside {
            j += 1;
        }
        out.push((i, j, kind));
        i = j;
    }
    out
}

/// What a string matched in training text is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GoldName {
    /// A person or place of the key.
    Name(SpanKind),
    /// A key name of another type (army, faction) or a checked not-name: `O`.
    Other,
    /// A rare candidate the key cannot tell about: its characters take
    /// whatever tags the tagger prefers (no update either way).
    Unknown,
}

/// The gold tag of a character whose tag the key does not tell.
pub const UNKNOWN: u8 = u8::MAX;

/// Gold tags of a run from names of a key, matched leftmost-longest (so
/// 北平 inside 北平军 is no place): `kinds` says what each pattern is.
pub fn gold_tags(chars: &[char], names: &aho_corasick::AhoCorasick, kinds: &[GoldName]) -> Vec<u8> {
    let mut gold = vec![OUT; chars.len()];
    let text: String = chars.iter().collect();
    // Byte offset to character index.
    let mut at = vec![0usize; text.len() + 1];
    for (ci, (bi, _)) in text.char_indices().enumerate() {
        at[bi] = ci;
    }
    at[text.len()] = chars.len();
    for m in names.find_iter(&text) {
        let (i, j) = (at[m.start()], at[m.end()]);
        let kind = match kinds[m.pattern().as_usize()] {
            GoldName::Name(kind) => kind,
            GoldName::Other => continue,
            GoldName::Unknown => {
                for g in &mut gold[i..j] {
                    *g = UNKNOWN;
                }
                continue;
            }
        };
        let (b, inside) = match kind {
            SpanKind::Person => (B_PER, I_PER),
            SpanKind::Place => (B_LOC, I_LOC),
        };
        gold[i] = b;
        for g in &mut gold[i + 1..j] {
            *g = inside;
        }
    }
    gold
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hints() -> Hints {
        let mut h = Hints::default();
        for (c, w) in [('韩', 3), ('苏', 3), ('林', 2)] {
            h.surname.insert(c, w);
        }
        for (c, w) in [('州', 3), ('城', 3)] {
            h.place_suffix.insert(c, w);
        }
        h
    }

    fn sentence(text: &str, spans: &[(usize, usize, SpanKind)]) -> Sentence {
        let chars: Vec<char> = text.chars().collect();
        let mut gold = vec![OUT; chars.len()];
        for &(i, j, k) in spans {
            let (b, inside) = match k {
                SpanKind::Person => (B_PER, I_PER),
                SpanKind::Place => (B_LOC, I_LOC),
            };
            gold[i] = b;
            for g in &mut gold[i + 1..j] {
                *g = inside;
            }
        }
        Sentence {
            chars,
            before: '，',
            after: '：',
            gold,
        }
    }

    #[test]
    fn spans_follow_bio_tags() {
        assert_eq!(
            spans_of(&[0, 1, 2, 2, 0, 3, 4, 1]),
            vec![
                (1, 4, SpanKind::Person),
                (5, 7, SpanKind::Place),
                (7, 8, SpanKind::Person)
            ]
        );
        assert_eq!(spans_of(&[0, 2, 0]), vec![]);
    }

    #[test]
    fn a_tiny_training_run_learns_context_and_round_trips() {
        use SpanKind::*;
        // Invented names: the tagger must learn that X道 and 到了Y州 mark names.
        let data = vec![
            sentence("韩铁衣道", &[(0, 3, Person)]),
            sentence("苏青禾道", &[(0, 3, Person)]),
            sentence("林月道", &[(0, 2, Person)]),
            sentence("到了青州", &[(2, 4, Place)]),
            sentence("到了白城", &[(2, 4, Place)]),
            sentence("众人都笑了", &[]),
            sentence("天色已晚", &[]),
        ];
        let t = Tagger::train(&data, &hints(), 8, vec!["test".into()]);
        let h = hints();
        let seen: Vec<char> = "苏青禾道".chars().collect();
        assert_eq!(t.spans(&seen, '，', '：', &h), vec![(0, 3, Person)]);
        // An unseen name with a known surname and the same context.
        let unseen: Vec<char> = "韩青禾道".chars().collect();
        assert_eq!(t.spans(&unseen, '，', '：', &h), vec![(0, 3, Person)]);
        let place: Vec<char> = "到了青城".chars().collect();
        assert_eq!(t.spans(&place, '，', '：', &h), vec![(2, 4, Place)]);
        let none: Vec<char> = "天色已晚".chars().collect();
        assert!(t.spans(&none, '，', '：', &h).is_empty());
        // Training again gives the same weights (the averaged runs are
        // added in seed order, whatever thread trained which).
        let again = Tagger::train(&data, &hints(), 8, vec!["test".into()]);
        assert_eq!(again.to_text(), t.to_text());
        // Written and read back, it tags the same.
        let back = Tagger::parse(&t.to_text()).unwrap();
        assert_eq!(back, t);
        assert_eq!(back.to_text(), t.to_text());
    }

    #[test]
    fn word_marks_name_the_longest_dictionary_words_by_class() {
        let mut h = hints().with_vocabulary(Vocabulary::load());
        h.places.insert("白城".to_string());
        let chars: Vec<char> = "苏青禾来到白城说道".chars().collect();
        let marks = h.word_marks(&chars);
        let none = ['\0'; 2];
        // 苏青禾 (invented) starts and ends no word.
        assert_eq!(&marks[..3], &[none; 3]);
        // 来到, 说道: common words of jieba; 白城: a place of the lexicon.
        assert_eq!(marks[3], [mark_code('W', 2), '\0']);
        assert_eq!(marks[4][1], mark_code('W', 2));
        assert_eq!(marks[5][0], mark_code('L', 2));
        assert_eq!(marks[6][1], mark_code('L', 2));
        assert_eq!(marks[7][0], mark_code('W', 2));
        // A person word of jieba's dictionary (nr).
        let famous: Vec<char> = "诸葛亮".chars().collect();
        assert_eq!(h.word_marks(&famous)[0][0], mark_code('P', 3));
        // Without a vocabulary or places there are no marks, and no features.
        assert!(hints().word_marks(&chars).iter().all(|m| *m == none));
        let mut feats = Vec::new();
        features(&chars, '，', '。', &hints(), &mut feats);
        assert!(feats[19..F].iter().all(|&f| f == NO_FEATURE));
        features(&chars, '，', '。', &h, &mut feats);
        assert_ne!(feats[3 * F + 19], NO_FEATURE);
    }

    #[test]
    fn gold_tags_match_longest_names_first() {
        use aho_corasick::{AhoCorasickBuilder, MatchKind};
        let names = ["苏青禾", "白城", "白城军"];
        let kinds = [
            GoldName::Name(SpanKind::Person),
            GoldName::Name(SpanKind::Place),
            GoldName::Other,
        ];
        let ac = AhoCorasickBuilder::new()
            .match_kind(MatchKind::LeftmostLongest)
            .build(names)
            .unwrap();
        let chars: Vec<char> = "苏青禾领白城军到白城".chars().collect();
        assert_eq!(
            gold_tags(&chars, &ac, &kinds),
            vec![1, 2, 2, 0, 0, 0, 0, 0, 3, 4]
        );
    }

    #[test]
    fn a_bad_model_line_is_an_error_with_its_number() {
        let err = Tagger::parse("feature\ta\tb\tO\tB-PER\tI-PER\tB-LOC\tI-LOC\n0\t韩\t-\t1\t2\n")
            .unwrap_err();
        assert!(err.starts_with("line 2:"), "{err}");
    }
}
