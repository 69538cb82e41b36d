//! Features: what the learned model (`entity::model`) reads of a candidate.
//!
//! Three kinds of evidence, all computed from the book itself:
//! - the candidate's own statistics (count, cue rates, boundary counts,
//!   neighbour entropy, character cohesion) and its shape (length, surname,
//!   suffix, jieba's view of it);
//! - the verdicts of the hand-written rules (`person_score`, `place_score`),
//!   as numbers the model weighs rather than vetoes;
//! - a per-book context model: the characters next to the names the rules
//!   are confident about label those contexts, and every other candidate is
//!   scored by how much its own neighbours look like theirs. That is how
//!   `X看着`, `X站在` become person evidence in a book that uses them,
//!   without a cue list naming 看 or 站.

use super::{side_entropy, Measured, Recognizer, Stat, Tag};
use crate::hash::FxMap;

/// The features, in the order `Recognizer::features` computes them.
pub const FEATURES: [&str; 56] = [
    "log_count",
    "len2",
    "len3",
    "len4",
    "len5plus",
    "surname",
    "compound_surname",
    "say",
    "act",
    "cmd",
    "title",
    "strong",
    "mov",
    "loc",
    "named",
    "demonstrative",
    "left_cut",
    "right_cut",
    "left_function",
    "right_function",
    "left_punct",
    "right_punct",
    "title_cut",
    "left_word",
    "move_clause",
    "left_entropy",
    "right_entropy",
    "left_variety",
    "right_variety",
    "char_cohesion",
    "inner_function_char",
    "bad_last_char",
    "locative_last",
    "settlement_char",
    "in_jieba",
    "jieba_person",
    "jieba_place",
    "jieba_frequent",
    "place_suffix",
    "first_function",
    "first_verbish",
    "last_verbish",
    "plain_words_joined",
    "jieba_log_freq",
    "generic_suffix",
    "generic_prefix",
    "given_name_chars",
    "given_name_min",
    "rule_person",
    "rule_place",
    "ctx_person_left",
    "ctx_person_right",
    "ctx_place_left",
    "ctx_place_right",
    "log_strong_unlisted",
    "log_mov_unlisted",
];

/// The position of a feature in `FEATURES` (and in a feature vector).
pub(super) fn feature_index(name: &str) -> Option<usize> {
    FEATURES.iter().position(|f| *f == name)
}

/// Neighbour code of a run edge (punctuation or a line end): no character has it.
const EDGE: u32 = 0;

/// Candidates seen fewer times than this neither teach the context model
/// nor are scored by the learned model (the rules alone judge them).
pub const MIN_MODEL_COUNT: u32 = 2;

/// Smoothing of the context model's counts.
const ALPHA: f64 = 0.1;

/// One side's context model for one class: neighbour distributions of the
/// seeds against those of every other candidate.
#[derive(Default)]
struct SideModel {
    /// Per neighbour: (weight among seeds, weight among the others).
    by_char: FxMap<u32, (f64, f64)>,
    seed_total: f64,
    other_total: f64,
}

impl SideModel {
    fn add(&mut self, dist: &[(u32, f64)], seed: bool) {
        for &(c, p) in dist {
            let e = self.by_char.entry(c).or_insert((0.0, 0.0));
            if seed {
                e.0 += p;
                self.seed_total += p;
            } else {
                e.1 += p;
                self.other_total += p;
            }
        }
    }

    /// Mean log-odds (seed vs other) of a candidate's neighbours, with the
    /// candidate's own contribution taken out so that a seed does not
    /// vouch for itself.
    fn score(&self, dist: &[(u32, f64)], seed: bool) -> f32 {
        if self.seed_total <= 0.0 || dist.is_empty() {
            return 0.0;
        }
        let v = self.by_char.len() as f64 + 1.0;
        let self_total: f64 = dist.iter().map(|&(_, p)| p).sum();
        let (st, ot) = if seed {
            (self.seed_total - self_total, self.other_total)
        } else {
            (self.seed_total, self.other_total - self_total)
        };
        if st <= 1e-9 {
            return 0.0;
        }
        let mut s = 0.0;
        for &(c, p) in dist {
            let (mut a, mut b) = self.by_char.get(&c).copied().unwrap_or((0.0, 0.0));
            if seed {
                a -= p;
            } else {
                b -= p;
            }
            let lo = ((a.max(0.0) + ALPHA) / (st + ALPHA * v)).ln()
                - ((b.max(0.0) + ALPHA) / (ot.max(0.0) + ALPHA * v)).ln();
            s += p * lo.clamp(-4.0, 4.0);
        }
        (s / self_total) as f32
    }
}

/// The book's context models, learned from the rules' confident verdicts.
pub struct BookContext {
    person: [SideModel; 2],
    place: [SideModel; 2],
    /// Per candidate: whether it seeded the person / place model.
    seeds: Vec<(bool, bool)>,
}

/// Rule scores at or above this make a candidate a seed of the context model.
const SEED_SCORE: f64 = 0.6;

impl BookContext {
    /// Learns the context models. `rule[i]` holds candidate i's rule scores
    /// (person, place; 0 when the rule rejects it).
    pub fn learn(m: &Measured, rule: &[(f64, f64)]) -> BookContext {
        let mut ctx = BookContext {
            person: Default::default(),
            place: Default::default(),
            seeds: vec![(false, false); m.stats.len()],
        };
        for (i, st) in m.stats.iter().enumerate() {
            if st.aux || st.count < MIN_MODEL_COUNT {
                continue;
            }
            let (p, l) = rule[i];
            let seeds = (p >= SEED_SCORE && p >= l, l >= SEED_SCORE && l > p);
            ctx.seeds[i] = seeds;
            for (side, left) in [(0, true), (1, false)] {
                let dist = neighbours(m, i, left);
                ctx.person[side].add(&dist, seeds.0);
                ctx.place[side].add(&dist, seeds.1);
            }
        }
        ctx
    }

    /// (person left, person right, place left, place right) context scores.
    fn scores(&self, m: &Measured, i: usize) -> [f32; 4] {
        let (ps, ls) = self.seeds.get(i).copied().unwrap_or((false, false));
        let l = neighbours(m, i, true);
        let r = neighbours(m, i, false);
        [
            self.person[0].score(&l, ps),
            self.person[1].score(&r, ps),
            self.place[0].score(&l, ls),
            self.place[1].score(&r, ls),
        ]
    }
}

/// The share of candidate i's mentions followed by a character of `set`.
pub(super) fn right_share(m: &Measured, i: usize, set: &crate::charset::CharSet) -> f64 {
    neighbours(m, i, false)
        .iter()
        .filter(|&&(c, _)| c != EDGE && char::from_u32(c).is_some_and(|c| set.contains(&c)))
        .map(|&(_, share)| share)
        .sum()
}

/// Candidate i's neighbour distribution on one side (shares summing to 1,
/// a run edge as `EDGE`).
fn neighbours(m: &Measured, i: usize, left: bool) -> Vec<(u32, f64)> {
    let st = &m.stats[i];
    let pairs = if left { &m.left } else { &m.right };
    let lo = (i as u64) << 21;
    let hi = ((i as u64) + 1) << 21;
    let from = pairs.partition_point(|&(k, _)| k < lo);
    let to = pairs.partition_point(|&(k, _)| k < hi);
    let punct = if left { st.left_punct } else { st.right_punct };
    let total: u64 = pairs[from..to].iter().map(|&(_, c)| c as u64).sum::<u64>() + punct as u64;
    if total == 0 {
        return Vec::new();
    }
    let t = total as f64;
    let mut out: Vec<(u32, f64)> = pairs[from..to]
        .iter()
        .map(|&(k, c)| ((k & 0x1F_FFFF) as u32, c as f64 / t))
        .collect();
    if punct > 0 {
        out.push((EDGE, punct as f64 / t));
    }
    out
}

impl Recognizer {
    /// The feature vector of candidate `i` (`w`), in `FEATURES` order.
    /// `rule` holds the rules' (person, place) scores of the candidate.
    pub(super) fn features(
        &self,
        i: usize,
        w: &str,
        st: &Stat,
        m: &Measured,
        ctx: &BookContext,
        rule: (f64, f64),
    ) -> Vec<f32> {
        let chars: Vec<char> = w.chars().collect();
        let len = chars.len();
        let n = st.count.max(1) as f32;
        let rate = |v: u32| v as f32 / n;
        let sur = self.surname(&chars, w);
        let le = side_entropy(
            st.count - st.left_punct.min(st.count),
            st.left_clnc,
            st.left_punct,
        );
        let re = side_entropy(
            st.count - st.right_punct.min(st.count),
            st.right_clnc,
            st.right_punct,
        );
        let (ld, rd) = self.diversity(st);
        let tag = self.tag_of(w);
        let last = chars[len - 1];
        let c = ctx.scores(m, i);
        let mut f = Vec::with_capacity(FEATURES.len());
        f.push((1.0 + st.count as f32).ln());
        f.push(f32::from(len == 2));
        f.push(f32::from(len == 3));
        f.push(f32::from(len == 4));
        f.push(f32::from(len >= 5));
        f.push(sur.map_or(0.0, |(_, w)| w as f32 / 3.0));
        f.push(f32::from(sur.is_some_and(|(l, _)| l == 2)));
        for v in [
            st.say,
            st.act,
            st.cmd,
            st.title,
            st.strong,
            st.mov,
            st.loc,
            st.after_naming,
            st.after_demonstrative,
            st.left_bad,
            st.right_bad,
            st.left_function,
            st.right_function,
            st.left_punct,
            st.right_punct,
            st.right_title_cut,
            st.left_word_cut,
            st.mov_clause,
        ] {
            f.push(rate(v));
        }
        f.push(le as f32);
        f.push(re as f32);
        f.push((ld as f32 / n).min(1.0));
        f.push((rd as f32 / n).min(1.0));
        f.push(self.char_cohesion(&chars, m));
        f.push(f32::from(
            (1..len).any(|k| self.not_given.contains(&chars[k])),
        ));
        f.push(f32::from(self.name_end_bad.contains(&last)));
        f.push(f32::from(self.chars.locative.contains(&last)));
        f.push(f32::from(
            chars[1..].iter().any(|c| self.chars.settlement.contains(c)),
        ));
        f.push(f32::from(tag.is_some()));
        f.push(f32::from(tag == Some(Tag::Person)));
        f.push(f32::from(tag == Some(Tag::Place)));
        f.push(f32::from(self.is_frequent_word(w, 100)));
        f.push(
            self.place_suffix(w)
                .map_or(0.0, |(_, _, wt)| wt as f32 / 3.0),
        );
        f.push(f32::from(self.is_function_char(chars[0])));
        f.push(f32::from(self.verbish.contains(&chars[0])));
        f.push(f32::from(self.verbish.contains(&last)));
        f.push(f32::from(self.plain_words_joined(&chars)));
        f.push(
            self.word_info(w)
                .map_or(0.0, |i| (1.0 + i.freq as f32).ln()),
        );
        let generic_at = |a: usize, b: usize| {
            let part: String = chars[a..b].iter().collect();
            self.is_generic(&part) || self.lex.address.contains(&part)
        };
        f.push(f32::from(
            (1..len.saturating_sub(1)).any(|k| generic_at(k, len)),
        ));
        f.push(f32::from((2..len).any(|k| generic_at(0, k))));
        let given = &chars[sur.map_or(0, |(l, _)| l.min(len - 1))..];
        let (mean, min) = self.given_name_likeness(given, m);
        f.push(mean);
        f.push(min);
        f.push(rule.0 as f32);
        f.push(rule.1 as f32);
        f.extend_from_slice(&c);
        // Counts as well as rates: 35 strong cues prove a name that is
        // also said 200 times without one (a rate alone reads it as weak),
        // unless jieba lists the string as a word of another kind (悄悄道:
        // an adverb before 道 as often as a name).
        let unlisted = |t: Tag| tag.is_none() || tag == Some(t);
        f.push(if unlisted(Tag::Person) {
            (1.0 + st.strong as f32).ln()
        } else {
            0.0
        });
        f.push(if unlisted(Tag::Place) {
            (1.0 + st.mov as f32).ln()
        } else {
            0.0
        });
        debug_assert_eq!(f.len(), FEATURES.len());
        f
    }

    /// How much more often the characters of a given name occur in given
    /// names (`dict/given_name_chars.tsv`) than in this book: mean and
    /// smallest log ratio over the characters.
    fn given_name_likeness(&self, given: &[char], m: &Measured) -> (f32, f32) {
        let names = &self.lex.given_name_chars;
        let name_total = self.given_name_total as f64;
        let book_total = m.total_chars.max(1) as f64;
        let mut sum = 0.0;
        let mut min = f64::INFINITY;
        for c in given {
            let in_names = names.get(c).copied().unwrap_or(0) as f64 + 0.5;
            let in_book = m.chars.get(c).copied().unwrap_or(0) as f64 + 0.5;
            let r = (in_names / name_total).ln() - (in_book / book_total).ln();
            sum += r;
            min = min.min(r);
        }
        if given.is_empty() {
            return (0.0, 0.0);
        }
        ((sum / given.len() as f64) as f32, min as f32)
    }

    /// Mean pointwise mutual information of the characters of a string
    /// (nats per split), from single-character counts: defined for every
    /// candidate, unlike `cohesion`, which needs its parts counted.
    fn char_cohesion(&self, chars: &[char], m: &Measured) -> f32 {
        let n = m.total_chars.max(1) as f64;
        let Some(st) = m.stat(&chars.iter().collect::<String>()) else {
            return 0.0;
        };
        let mut s = (st.count.max(1) as f64 / n).ln();
        for c in chars {
            let cc = m.chars.get(c).copied().unwrap_or(1).max(1) as f64;
            s -= (cc / n).ln();
        }
        (s / (chars.len() - 1).max(1) as f64) as f32
    }
}
